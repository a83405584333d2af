// SPDX-License-Identifier: Apache-2.0
// sparse24 library: the one formatter of its texts (s24_text.h).
#include "s24_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "s24_layout.h"
#include "s24_tflite.h"

void s24_text_printf(s24_text_t *t, const char *fmt, ...) {
  if (t == NULL || t->failed) return;
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) {
    t->failed = 1;
    return;
  }
  if (t->len + (size_t)n + 1 > t->cap) {
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->len + (size_t)n + 1) cap *= 2;
    char *b = realloc(t->buf, cap);
    if (b == NULL) {
      t->failed = 1;
      return;
    }
    t->buf = b;
    t->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
  va_end(ap);
  t->len += (size_t)n;
}

void s24_text_free(s24_text_t *t) {
  if (t == NULL) return;
  free(t->buf);
  memset(t, 0, sizeof(*t));
}

// ------------------------------------------------------------------ GEMM and fused layer

// the mode's peak: the pair mode (1:m weights) does twice the 2:m mode's dense-equivalent MACs
static double peak_macs(const s24_run_t *r) {
  const s24_hw_info_t *hw = &r->info;
  return (double)hw->rows * hw->cols * hw->sparse_m * (r->cnt.pair ? 2.0 : 1.0);
}

void s24_text_gemm(s24_text_t *t, const char *backend, const s24_gemm_job_t *j,
                   const s24_run_t *r) {
  const unsigned long long m = j->m_rows, k = j->k, n = j->n_cols;
  if (!r->hw) {
    const unsigned long long kept = s24_values_cols(j->pattern, j->k);
    s24_text_printf(t, "backend: %s\n", backend);
    s24_text_printf(t, "pattern: %u:%u\n", (unsigned)j->pattern.n, (unsigned)j->pattern.m);
    s24_text_printf(t, "shape_mkn: %llux%llux%llu\n", m, k, n);
    s24_text_printf(t, "macs_dense: %llu\n", m * k * n);
    s24_text_printf(t, "macs: %llu\n", m * kept * n);
    s24_text_printf(t, "mac_reduction: %.3f\n", (double)k / (double)kept);
    s24_text_printf(t, "accumulate_c0: %s\n", j->c0 != NULL ? "yes" : "no");
    return;
  }
  const s24_counters_t *c = &r->cnt;
  const s24_hw_info_t *hw = &r->info;
  const double peak = peak_macs(r);
  const double cyc = c->cycles ? (double)c->cycles : 1.0;
  const uint64_t stalls = c->stall_w + c->stall_a + c->stall_r;
  s24_text_printf(t, "backend: %s\n", backend);
  s24_text_printf(t, "array: %ux%u %u:%u\n", hw->rows, hw->cols, hw->sparse_n, hw->sparse_m);
  if (j->a_dense != NULL && j->unpruned) {
    s24_text_printf(t, "pattern: dense\n");
  } else {
    s24_text_printf(t, "pattern: %u:%u\n", (unsigned)j->pattern.n, (unsigned)j->pattern.m);
  }
  s24_text_printf(t, "shape_mkn: %zux%zux%zu\n", j->m_rows, j->k, j->n_cols);
  s24_text_printf(t, "mode: %s\n", c->pair ? "pair (1 of m per row, 2 rows per PE)" : "array");
  s24_text_printf(t, "cycles: %llu\n", (unsigned long long)c->cycles);
  s24_text_printf(t, "utilization: %.4f\n", (double)c->macs_dense / (cyc * peak));
  s24_text_printf(t, "effective_macs_per_cycle: %.2f\n", (double)c->macs_dense / cyc);
  s24_text_printf(t, "peak_macs_per_cycle: %.0f\n", peak);
  s24_text_printf(t, "macs_dense: %llu\n", (unsigned long long)c->macs_dense);
  s24_text_printf(t, "beats: %llu\n", (unsigned long long)c->beats);
  s24_text_printf(t, "stall_w_cycles: %llu\n", (unsigned long long)c->stall_w);
  s24_text_printf(t, "stall_a_cycles: %llu\n", (unsigned long long)c->stall_a);
  s24_text_printf(t, "stall_r_cycles: %llu\n", (unsigned long long)c->stall_r);
  s24_text_printf(t, "bubble_cycles: %llu\n",
                  (unsigned long long)(c->cycles - c->beats - stalls));
  s24_text_printf(t, "hw_jobs: %llu\n", (unsigned long long)c->jobs);
  s24_text_printf(t, "tiles: %llu\n", (unsigned long long)c->tiles);
  s24_text_printf(t, "sim_cycles: %llu\n", (unsigned long long)r->sim_cycles);
  s24_text_printf(t, "accumulate_c0: %s\n", j->c0 != NULL ? "yes" : "no");
}

void s24_text_linear(s24_text_t *t, const char *backend, const s24_linear_job_t *j,
                     const s24_run_t *r) {
  if (!r->hw) {
    s24_text_printf(t, "backend: %s\n", backend);
    s24_text_printf(t, "pattern: %u:%u\n", (unsigned)j->pattern.n, (unsigned)j->pattern.m);
    s24_text_printf(t, "shape_bkm: %zux%zux%zu\n", j->batch, j->k, j->m);
    s24_text_printf(t, "macs_dense: %llu\n", (unsigned long long)j->batch * j->k * j->m);
    s24_text_printf(t, "macs_kept: %llu\n",
                    (unsigned long long)j->batch * (s24_values_cols(j->pattern, j->k) * j->m));
    s24_text_printf(t, "weight_nonzeros: %zu\n", r->weight_nonzeros);
    return;
  }
  const s24_hw_info_t *hw = &r->info;
  const s24_counters_t *c = &r->cnt;
  const double peak = (double)hw->rows * hw->cols * hw->sparse_m;
  const double cyc = c->job_cycles ? (double)c->job_cycles : 1.0;
  s24_text_printf(t, "backend: %s\n", backend);
  s24_text_printf(t, "array: %ux%u %u:%u\n", hw->rows, hw->cols, hw->sparse_n, hw->sparse_m);
  s24_text_printf(t, "pattern: %u:%u\n", (unsigned)j->pattern.n, (unsigned)j->pattern.m);
  s24_text_printf(t, "shape_bkm: %zux%zux%zu\n", j->batch, j->k, j->m);
  s24_text_printf(t, "cycles: %llu\n", (unsigned long long)c->job_cycles);
  s24_text_printf(t, "array_cycles: %llu\n", (unsigned long long)c->cycles);
  s24_text_printf(t, "epilogue_drain_cycles: %llu\n",
                  (unsigned long long)(c->job_cycles - c->cycles));
  s24_text_printf(t, "utilization: %.4f\n", (double)c->macs_dense / (cyc * peak));
  s24_text_printf(t, "effective_macs_per_cycle: %.2f\n", (double)c->macs_dense / cyc);
  s24_text_printf(t, "macs_dense: %llu\n", (unsigned long long)c->macs_dense);
  s24_text_printf(t, "beats: %llu\n", (unsigned long long)c->beats);
  s24_text_printf(t, "stall_r_cycles: %llu\n", (unsigned long long)c->stall_r);
  s24_text_printf(t, "hw_jobs: %llu\n", (unsigned long long)c->jobs);
  s24_text_printf(t, "tiles: %llu\n", (unsigned long long)c->tiles);
  s24_text_printf(t, "epilogue_lanes: %u\n", hw->epi_lanes);
  const uint32_t tile_rows = c->pair ? 2 * hw->rows : hw->rows;  // pair mode: 2R
  s24_text_printf(t, "pair_mode: %llu\n", (unsigned long long)c->pair);
  s24_text_printf(t, "result_bytes: %llu\n",
                  (unsigned long long)c->tiles * s24_r8_beats(tile_rows) * hw->r_words * 4);
  s24_text_printf(t, "sim_cycles: %llu\n", (unsigned long long)r->sim_cycles);
}

// ------------------------------------------------------------------ networks

static void pattern_str(s24_pattern_t p, char *buf, size_t len) {
  if (p.n == p.m) {
    snprintf(buf, len, "dense");
  } else {
    snprintf(buf, len, "%u:%u", (unsigned)p.n, (unsigned)p.m);
  }
}

static const char *op_label(int32_t opcode) {
  return opcode < 0 ? "CUSTOM" : s24_tfl_op_name(opcode);
}

s24_status_t s24_net_sums(const s24_net_t *net, const s24_engine_t *e, s24_net_sums_t *out) {
  if (net == NULL || e == NULL || out == NULL) return S24_ERR_ARG;
  memset(out, 0, sizeof(*out));
  const uint64_t inf = s24_net_inferences(net);
  for (size_t i = 0; i < s24_net_model(net)->n_ops; i++) {
    s24_net_op_info_t o;
    s24_status_t st = s24_net_op_info(net, i, &o);
    if (st != S24_OK) return st;
    if (!o.on_array) {
      out->host_macs += inf * o.macs;
      continue;
    }
    uint64_t pred = 0;
    st = s24_net_op_predict(net, i, e->hw, e->epi_depth, e->epi_lanes, &pred);
    if (st != S24_OK) return st;
    out->ip_macs += inf * o.macs;
    out->predicted_cycles += inf * pred;
    out->cycles += o.cycles;
    out->job_cycles += o.job_cycles;
  }
  return S24_OK;
}

s24_status_t s24_text_net_stats(s24_text_t *t, const s24_net_t *net, const s24_engine_t *e,
                                const uint64_t *sim_cycles) {
  if (t == NULL || net == NULL || e == NULL) return S24_ERR_ARG;
  const uint64_t inf = s24_net_inferences(net);
  s24_text_printf(t, "backend: %s\n", e->name != NULL ? e->name : "?");
  s24_text_printf(t, "array: %ux%u %u:%u\n", (unsigned)e->hw.rows, (unsigned)e->hw.cols,
                  (unsigned)e->hw.sparse_n, (unsigned)e->hw.sparse_m);
  s24_text_printf(t, "inferences: %llu\n", (unsigned long long)inf);
  for (size_t i = 0; i < s24_net_model(net)->n_ops; i++) {
    s24_net_op_info_t o;
    s24_status_t st = s24_net_op_info(net, i, &o);
    if (st != S24_OK) return st;
    if (!o.on_array) continue;
    uint64_t pred = 0;
    st = s24_net_op_predict(net, i, e->hw, e->epi_depth, e->epi_lanes, &pred);
    if (st != S24_OK) return st;
    char pat[16];
    pattern_str(o.pattern, pat, sizeof pat);
    s24_text_printf(t, "op%zu_name: %s\n", i, op_label(o.opcode));
    s24_text_printf(t, "op%zu_gemm_mkn: %zux%zux%zu\n", i, o.m, o.k, o.n);
    s24_text_printf(t, "op%zu_pattern: %s\n", i, pat);
    if (e->measures) s24_text_printf(t, "op%zu_cycles: %llu\n", i, (unsigned long long)o.cycles);
    s24_text_printf(t, "op%zu_predicted_cycles: %llu\n", i, (unsigned long long)(inf * pred));
  }
  s24_net_sums_t s;
  s24_status_t st = s24_net_sums(net, e, &s);
  if (st != S24_OK) return st;
  s24_text_printf(t, "ip_macs: %llu\n", (unsigned long long)s.ip_macs);
  s24_text_printf(t, "host_macs: %llu\n", (unsigned long long)s.host_macs);
  if (e->measures) {
    s24_text_printf(t, "cycles: %llu\n", (unsigned long long)s.cycles);
    s24_text_printf(t, "job_cycles: %llu\n", (unsigned long long)s.job_cycles);
  }
  s24_text_printf(t, "predicted_cycles: %llu\n", (unsigned long long)s.predicted_cycles);
  const uint64_t c = e->measures ? s.cycles : s.predicted_cycles;
  const double peak = (double)e->hw.rows * e->hw.cols * e->hw.sparse_m;
  s24_text_printf(t, "utilization: %.4f\n", c ? (double)s.ip_macs / ((double)c * peak) : 0.0);
  s24_text_printf(t, "effective_macs_per_cycle: %.2f\n",
                  c ? (double)s.ip_macs / (double)c : 0.0);
  if (sim_cycles != NULL) {
    s24_text_printf(t, "sim_cycles: %llu\n", (unsigned long long)*sim_cycles);
  }
  return S24_OK;
}

s24_status_t s24_text_soc_stats(s24_text_t *t, const s24_net_t *net, const s24_engine_t *e,
                                const char *backend, const s24_soc_result_t *r) {
  if (t == NULL || net == NULL || e == NULL || r == NULL) return S24_ERR_ARG;
  s24_text_printf(t, "backend: %s\n", backend != NULL ? backend : "?");
  s24_text_printf(t, "engine: %s\n", r->ip ? "ip" : "cpu");
  if (r->ip) {
    s24_text_printf(t, "array: %ux%u %u:%u\n", (unsigned)e->hw.rows, (unsigned)e->hw.cols,
                    (unsigned)e->hw.sparse_n, (unsigned)e->hw.sparse_m);
  }
  s24_text_printf(t, "inferences: %llu\n", (unsigned long long)r->inferences);
  // SPEC §9: the figures per inference (the batch's sums over its inferences)
  const uint64_t n = r->inferences > 0 ? r->inferences : 1;
  uint64_t predicted = 0;  // the array layers at full stream rate (the cycle model)
  for (size_t i = 0; i < r->n_ops && i < s24_net_model(net)->n_ops; i++) {
    s24_net_op_info_t o;
    s24_status_t st = s24_net_op_info(net, i, &o);
    if (st != S24_OK) return st;
    const s24_soc_op_t *so = &r->ops[i];
    s24_text_printf(t, "op%zu_name: %s\n", i, op_label(o.opcode));
    s24_text_printf(t, "op%zu_where: %s\n", i, so->on_ip ? "ip" : "cpu");
    s24_text_printf(t, "op%zu_cycles: %llu\n", i, (unsigned long long)(so->cycles / n));
    if (so->on_ip && o.on_array) {  // (an ADD on the IP's add unit: no array cycles)
      uint64_t pred = 0;
      st = s24_net_op_predict(net, i, e->hw, e->epi_depth, e->epi_lanes, &pred);
      if (st != S24_OK) return st;
      s24_text_printf(t, "op%zu_ip_cycles: %llu\n", i, (unsigned long long)(so->ip_cycles / n));
      s24_text_printf(t, "op%zu_predicted_cycles: %llu\n", i,
                      (unsigned long long)pred);
      predicted += pred;
    }
  }
  // the CPU's cycles: all but those it spent polling for the IP's results
  const uint64_t cpu = r->cycles_total - (r->wait_cycles < r->cycles_total ? r->wait_cycles
                                                                           : r->cycles_total);
  s24_text_printf(t, "cycles_total: %llu\n", (unsigned long long)(r->cycles_total / n));
  s24_text_printf(t, "cycles_ip: %llu\n", (unsigned long long)(r->cycles_ip / n));
  s24_text_printf(t, "cycles_cpu: %llu\n", (unsigned long long)(cpu / n));
  if (r->ip) {
    s24_text_printf(t, "predicted_cycles: %llu\n", (unsigned long long)predicted);
    s24_text_printf(t, "stall_w: %llu\nstall_a: %llu\nstall_r: %llu\n",
                    (unsigned long long)(r->stall[0] / n), (unsigned long long)(r->stall[1] / n),
                    (unsigned long long)(r->stall[2] / n));
  }
  s24_text_printf(t, "load_cycles: %llu\n", (unsigned long long)r->load_cycles);
  s24_text_printf(t, "arena_bytes: %lu\n", (unsigned long)r->arena_bytes);
  s24_text_printf(t, "code_bytes: %lu\n", (unsigned long)r->code_bytes);
  const char *from = NULL;
  const double mhz = s24_soc_mhz(&from);
  if (mhz > 0) {
    s24_text_printf(t, "soc_mhz: %.1f\n", mhz);
    s24_text_printf(t, "ms_total: %.3f\n", (double)r->cycles_total / (double)n / (mhz * 1000.0));
  } else {
    s24_text_printf(t, "soc_mhz: none\nms_total: none\n");
  }
  s24_text_printf(t, "soc_mhz_from: %s\n", from != NULL ? from : "?");
  return S24_OK;
}

s24_status_t s24_text_net_info(s24_text_t *t, const s24_net_t *net, const s24_engine_t *e) {
  if (t == NULL || net == NULL || e == NULL) return S24_ERR_ARG;
  const s24_tfl_model_t *m = s24_net_model(net);
  const s24_tfl_tensor_t *in = s24_net_input(net), *out = s24_net_output(net);
  const s24_array_t hw = e->hw;
  s24_text_printf(t, "model: %zu operators, %zu tensors; input %s [", m->n_ops, m->n_tensors,
                  s24_tfl_type_name(in->type));
  for (uint32_t d = 0; d < in->rank; d++) s24_text_printf(t, d ? ", %d" : "%d", (int)in->dims[d]);
  s24_text_printf(t, "], output %s [", s24_tfl_type_name(out->type));
  for (uint32_t d = 0; d < out->rank; d++) {
    s24_text_printf(t, d ? ", %d" : "%d", (int)out->dims[d]);
  }
  s24_text_printf(t, "]\n");
  s24_text_printf(t, "cycle model: %ux%u %u:%u array, epilogue depth %u, %u lanes\n",
                  (unsigned)hw.rows, (unsigned)hw.cols, (unsigned)hw.sparse_n,
                  (unsigned)hw.sparse_m, (unsigned)e->epi_depth, (unsigned)e->epi_lanes);
  s24_text_printf(t, "%-4s %-18s %-5s %-16s %-8s %12s %12s\n", "op", "name", "runs",
                  "gemm MxKxN", "pattern", "macs", "cycles");
  uint64_t ip = 0, host = 0, cyc = 0;
  for (size_t i = 0; i < m->n_ops; i++) {
    s24_net_op_info_t o;
    s24_status_t st = s24_net_op_info(net, i, &o);
    if (st != S24_OK) return st;
    if (o.on_array) {
      uint64_t pred = 0;
      st = s24_net_op_predict(net, i, hw, e->epi_depth, e->epi_lanes, &pred);
      if (st != S24_OK) return st;
      char shape[64], pat[16];
      snprintf(shape, sizeof shape, "%zux%zux%zu", o.m, o.k, o.n);
      pattern_str(o.pattern, pat, sizeof pat);
      s24_text_printf(t, "%-4zu %-18s %-5s %-16s %-8s %12llu %12llu\n", i, op_label(o.opcode),
                      "array", shape, pat, (unsigned long long)o.macs, (unsigned long long)pred);
      ip += o.macs;
      cyc += pred;
    } else {
      s24_text_printf(t, "%-4zu %-18s %-5s %-16s %-8s %12llu %12s\n", i, op_label(o.opcode),
                      "host", "-", "-", (unsigned long long)o.macs, "-");
      host += o.macs;
    }
  }
  s24_text_printf(t, "ip_macs: %llu\n", (unsigned long long)ip);
  s24_text_printf(t, "host_macs: %llu\n", (unsigned long long)host);
  s24_text_printf(t, "predicted_cycles: %llu\n", (unsigned long long)cyc);
  s24_text_printf(t, "arena_bytes: %zu (activations %zu)\n", s24_net_arena_bytes(net),
                  s24_net_activation_bytes(net));
  return S24_OK;
}
