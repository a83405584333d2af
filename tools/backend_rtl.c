// sparse24 command: the rtl backend, the Verilated s24_top (sim/s24_cosim.h) through the host
// driver. The only file of tools/ that knows the co-simulation; backend_nortl.c stands in for
// it in a build without the Verilated model (make S24_RTL=no).
#include <stdint.h>
#include <string.h>

#include "backend.h"
#include "s24_cosim.h"
#include "s24_drv.h"
#include "s24_layout.h"

uint64_t s24_rtl_sim_cycles(const s24_cosim_t *sim) { return s24_cosim_cycles(sim); }

const char *s24_rtl_error(const s24_cosim_t *sim) { return s24_cosim_error(sim); }

void s24_rtl_close(s24_cosim_t *sim) { s24_cosim_close(sim); }

uint64_t s24_rtl_timeout_ns(const s24_dev_t *dev, size_t k) {
  const s24_hw_info_t *hw = &dev->hw;
  const uint64_t groups = ((uint64_t)k + hw->sparse_m - 1) / hw->sparse_m;
  const s24_array_t arr = {hw->rows, hw->cols, hw->sparse_n, hw->sparse_m, 0, 0};
  const uint64_t beats = groups * s24_group_beats(arr, hw->sparse_m);  // every group full
  // the cycle model's own formula (cmodel s24_core_cycles), so the bound follows the core:
  // a result tile is out at the latest when the tiles queued ahead of it have run
  s24_cycles_t c, cp;
  if (beats == 0 ||
      s24_core_cycles(hw->rows, hw->cols, beats, dev->inflight_tiles + 1, &c) != S24_OK) {
    return S24_DEFAULT_TIMEOUT_NS;
  }
  s24_array_t pa;  // a pair-mode job: one beat per group, 2R rows a tile
  if (s24_array_pair(s24_dev_array(dev), &pa) == S24_OK &&
      s24_core_cycles_hw(pa, groups, dev->inflight_tiles + 1, &cp) == S24_OK &&
      cp.busy_cycles > c.busy_cycles) {
    c = cp;
  }
  if (c.busy_cycles > (UINT64_MAX - 1000000u) / 4 / S24_COSIM_NS_PER_CYCLE) {
    return S24_DEFAULT_TIMEOUT_NS;
  }
  return 4 * c.busy_cycles * S24_COSIM_NS_PER_CYCLE + 1000000u;
}

s24_status_t s24_rtl_open(const char *trace_path, size_t k_max, s24_cosim_t **sim,
                          s24_dev_t *dev, char *err, size_t errlen) {
  if (sim == NULL || dev == NULL || err == NULL || errlen == 0) return S24_ERR_ARG;
  char why[256] = "";
  // ideal streams, the default build
  s24_cosim_opts_t opts = {.trace_path = trace_path, .err = why, .errlen = sizeof why};
  s24_seam_t seam;
  *sim = NULL;
  s24_status_t st = s24_cosim_open(&opts, sim, &seam);
  if (st != S24_OK) {
    snprintf(err, errlen, "cannot start the co-simulation%s%s: %s",
             trace_path ? ": trace file " : "", trace_path ? trace_path : "",
             why[0] != '\0' ? why : s24_strerror(st));
    return st;
  }
  st = s24_dev_open(dev, &seam);
  if (st != S24_OK) {
    const char *e = s24_cosim_error(*sim);
    snprintf(err, errlen, "cannot open the simulated device: %s", e[0] != '\0' ? e : s24_strerror(st));
    s24_cosim_close(*sim);
    *sim = NULL;
    return st;
  }
  dev->timeout_ns = s24_rtl_timeout_ns(dev, k_max);
  return S24_OK;
}

// ------------------------------------------------------------------ the rtl backend's ops
// The Verilated s24_top (default 8x8 2:4 build) through the host driver (driver/s24_drv.h).

static s24_status_t rtl_open(s24_bdev_t *d, const char *trace, size_t k_max, char *err,
                             size_t errlen) {
  memset(d, 0, sizeof *d);
  d->ops = &s24_backend_rtl;
  return s24_rtl_open(trace, k_max, &d->sim, &d->dev, err, errlen);
}

static void rtl_close(s24_bdev_t *d) {
  if (d->sim == NULL) return;
  s24_dev_close(&d->dev);
  s24_cosim_close(d->sim);
  d->sim = NULL;
}

// the mode's peak: the pair mode (1:m weights) does twice the 2:m mode's dense-equivalent MACs
static double rtl_peak(const s24_dev_t *dev) {
  const s24_hw_info_t *hw = &dev->hw;
  return (double)hw->rows * hw->cols * hw->sparse_m * (dev->counters.pair ? 2.0 : 1.0);
}

// The message of a failed gemm or linear (what) on the device.
static s24_status_t rtl_failed(const s24_bdev_t *d, s24_status_t st, const char *what, char *err,
                               size_t errlen) {
  if (st == S24_ERR_HW) {
    char bits[96];
    snprintf(err, errlen, "rtl %s failed: hardware error (ERR = %s)", what,
             s24_err_bits_str(d->dev.last_err, bits, sizeof bits));
  } else {
    const char *e = s24_cosim_error(d->sim);
    snprintf(err, errlen, "rtl %s failed: %s", what, e[0] != '\0' ? e : s24_strerror(st));
  }
  return st;
}

static s24_status_t rtl_gemm(s24_bdev_t *d, const s24_gemm_job_t *j, s24_where_t *where,
                             char *err, size_t errlen) {
  s24_dev_t *dev = &d->dev;
  s24_status_t st;
  if (j->a_dense != NULL) {
    st = s24_gemm_dense(dev, j->a_dense, j->m_rows, j->k, j->b, j->n_cols, j->c0, j->c);
  } else {
    st = s24_gemm_compressed(dev, j->pattern, j->values, j->meta, j->m_rows, j->k, j->b,
                             j->n_cols, j->c0, j->c, where);
  }
  if (st == S24_ERR_META && where != NULL) {
    snprintf(err, errlen, "invalid metadata at row %zu, group %zu", where->row, where->group);
    return st;
  }
  if (st != S24_OK) return rtl_failed(d, st, "gemm", err, errlen);
  const s24_counters_t *cnt = &dev->counters;
  const double cyc = cnt->cycles ? (double)cnt->cycles : 1.0;
  if (j->run != NULL) {
    j->run->cycles = cnt->cycles;
    j->run->beats = cnt->beats;
    j->run->stall_w = cnt->stall_w;
    j->run->stall_a = cnt->stall_a;
    j->run->stall_r = cnt->stall_r;
    j->run->sim_cycles = s24_cosim_cycles(d->sim);
    j->run->utilization = (double)cnt->macs_dense / (cyc * rtl_peak(dev));
  }
  d->last_gemm = j;
  d->last_linear = NULL;
  return S24_OK;
}

static s24_status_t rtl_linear(s24_bdev_t *d, const s24_linear_job_t *j, char *err,
                               size_t errlen) {
  s24_dev_t *dev = &d->dev;
  s24_weights_t wt;
  s24_where_t where;
  s24_status_t st = j->values != NULL
                        ? s24_weights_load(dev, j->pattern, j->values, j->meta, j->m, j->k, &wt,
                                           &where)
                        : s24_weights_load_dense(dev, j->wd, j->m, j->k, &wt);
  if (st == S24_OK) {
    st = s24_linear(dev, &wt, j->x, j->batch, &j->prm, j->y);
    s24_weights_free(&wt);
  }
  if (st != S24_OK) return rtl_failed(d, st, "linear", err, errlen);
  d->last_gemm = NULL;
  d->last_linear = j;
  return S24_OK;
}

static void rtl_gemm_stats(const s24_bdev_t *d, const s24_gemm_job_t *j, FILE *f) {
  const s24_counters_t *cnt = &d->dev.counters;
  const s24_hw_info_t *hw = &d->dev.hw;
  const double peak = rtl_peak(&d->dev);
  const double cyc = cnt->cycles ? (double)cnt->cycles : 1.0;
  const uint64_t stalls = cnt->stall_w + cnt->stall_a + cnt->stall_r;
  fprintf(f, "backend: rtl\n");
  fprintf(f, "array: %ux%u %u:%u\n", hw->rows, hw->cols, hw->sparse_n, hw->sparse_m);
  if (j->a_dense != NULL && j->unpruned) {
    fprintf(f, "pattern: dense\n");
  } else {
    fprintf(f, "pattern: %u:%u\n", (unsigned)j->pattern.n, (unsigned)j->pattern.m);
  }
  fprintf(f, "shape_mkn: %zux%zux%zu\n", j->m_rows, j->k, j->n_cols);
  fprintf(f, "mode: %s\n", cnt->pair ? "pair (1 of m per row, 2 rows per PE)" : "array");
  fprintf(f, "cycles: %llu\n", (unsigned long long)cnt->cycles);
  fprintf(f, "utilization: %.4f\n", (double)cnt->macs_dense / (cyc * peak));
  fprintf(f, "effective_macs_per_cycle: %.2f\n", (double)cnt->macs_dense / cyc);
  fprintf(f, "peak_macs_per_cycle: %.0f\n", peak);
  fprintf(f, "macs_dense: %llu\n", (unsigned long long)cnt->macs_dense);
  fprintf(f, "beats: %llu\n", (unsigned long long)cnt->beats);
  fprintf(f, "stall_w_cycles: %llu\n", (unsigned long long)cnt->stall_w);
  fprintf(f, "stall_a_cycles: %llu\n", (unsigned long long)cnt->stall_a);
  fprintf(f, "stall_r_cycles: %llu\n", (unsigned long long)cnt->stall_r);
  fprintf(f, "bubble_cycles: %llu\n", (unsigned long long)(cnt->cycles - cnt->beats - stalls));
  fprintf(f, "hw_jobs: %llu\n", (unsigned long long)cnt->jobs);
  fprintf(f, "tiles: %llu\n", (unsigned long long)cnt->tiles);
  fprintf(f, "sim_cycles: %llu\n", (unsigned long long)s24_cosim_cycles(d->sim));
  fprintf(f, "accumulate_c0: %s\n", j->c0 != NULL ? "yes" : "no");
}

static void rtl_linear_stats(const s24_bdev_t *d, const s24_linear_job_t *j, FILE *f) {
  const s24_hw_info_t *hw = &d->dev.hw;
  const s24_counters_t *c = &d->dev.counters;
  const double peak = (double)hw->rows * hw->cols * hw->sparse_m;
  const double cyc = c->job_cycles ? (double)c->job_cycles : 1.0;
  fprintf(f, "backend: rtl\n");
  fprintf(f, "array: %ux%u %u:%u\n", hw->rows, hw->cols, hw->sparse_n, hw->sparse_m);
  fprintf(f, "pattern: %u:%u\n", (unsigned)j->pattern.n, (unsigned)j->pattern.m);
  fprintf(f, "shape_bkm: %zux%zux%zu\n", j->batch, j->k, j->m);
  fprintf(f, "cycles: %llu\n", (unsigned long long)c->job_cycles);
  fprintf(f, "array_cycles: %llu\n", (unsigned long long)c->cycles);
  fprintf(f, "epilogue_drain_cycles: %llu\n", (unsigned long long)(c->job_cycles - c->cycles));
  fprintf(f, "utilization: %.4f\n", (double)c->macs_dense / (cyc * peak));
  fprintf(f, "effective_macs_per_cycle: %.2f\n", (double)c->macs_dense / cyc);
  fprintf(f, "macs_dense: %llu\n", (unsigned long long)c->macs_dense);
  fprintf(f, "beats: %llu\n", (unsigned long long)c->beats);
  fprintf(f, "stall_r_cycles: %llu\n", (unsigned long long)c->stall_r);
  fprintf(f, "hw_jobs: %llu\n", (unsigned long long)c->jobs);
  fprintf(f, "tiles: %llu\n", (unsigned long long)c->tiles);
  fprintf(f, "epilogue_lanes: %u\n", hw->epi_lanes);
  const uint32_t tile_rows = c->pair ? 2 * hw->rows : hw->rows;  // pair mode: 2R
  fprintf(f, "pair_mode: %llu\n", (unsigned long long)c->pair);
  fprintf(f, "result_bytes: %llu\n",
          (unsigned long long)c->tiles * s24_r8_beats(tile_rows) * hw->r_words * 4);
  fprintf(f, "sim_cycles: %llu\n", (unsigned long long)s24_cosim_cycles(d->sim));
}

static void rtl_stats(const s24_bdev_t *d, FILE *f) {
  if (d->last_gemm != NULL) rtl_gemm_stats(d, d->last_gemm, f);
  if (d->last_linear != NULL) rtl_linear_stats(d, d->last_linear, f);
}

const s24_backend_ops_t s24_backend_rtl = {
    "rtl", S24_BACKEND_HW, NULL, rtl_open, rtl_gemm, rtl_linear, rtl_stats, rtl_close,
};
