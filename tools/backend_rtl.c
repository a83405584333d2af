// sparse24 command: the rtl backend, the Verilated s24_top (sim/s24_cosim.h) through the host
// driver. The only file of tools/ that knows the co-simulation; backend_nortl.c stands in for
// it in a build without the Verilated model (make S24_RTL=no).
#include <stdint.h>
#include <string.h>

#include "backend.h"
#include "s24_cosim.h"
#include "s24_drv.h"
#include "s24_layout.h"

int s24_rtl_available(void) { return 1; }

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

// The Verilated s24_top (default 8x8 2:4 build) through the host driver (driver/s24_drv.h).
s24_status_t s24_rtl_gemm(const s24_gemm_job_t *j, FILE *stats, s24_where_t *where,
                             char *err, size_t errlen) {
  s24_cosim_t *sim = NULL;
  s24_dev_t dev;
  s24_status_t st = s24_rtl_open(j->trace_path, j->k, &sim, &dev, err, errlen);
  if (st != S24_OK) return st;
  if (j->a_dense != NULL) {
    st = s24_gemm_dense(&dev, j->a_dense, j->m_rows, j->k, j->b, j->n_cols, j->c0, j->c);
  } else {
    st = s24_gemm_compressed(&dev, j->pattern, j->values, j->meta, j->m_rows, j->k, j->b,
                             j->n_cols, j->c0, j->c, where);
  }
  if (st == S24_ERR_META && where != NULL) {
    snprintf(err, errlen, "invalid metadata at row %zu, group %zu", where->row, where->group);
  } else if (st == S24_ERR_HW) {
    char bits[96];
    snprintf(err, errlen, "rtl gemm failed: hardware error (ERR = %s)",
             s24_err_bits_str(dev.last_err, bits, sizeof bits));
  } else if (st != S24_OK) {
    const char *e = s24_cosim_error(sim);
    snprintf(err, errlen, "rtl gemm failed: %s", e[0] != '\0' ? e : s24_strerror(st));
  }
  const s24_counters_t *cnt = &dev.counters;
  const s24_hw_info_t *hw = &dev.hw;
  // the mode's peak: the pair mode (1:m weights) does twice the 2:m mode's dense-equivalent MACs
  const double peak = (double)hw->rows * hw->cols * hw->sparse_m * (cnt->pair ? 2.0 : 1.0);
  const double cyc = cnt->cycles ? (double)cnt->cycles : 1.0;
  if (st == S24_OK && j->run != NULL) {
    j->run->cycles = cnt->cycles;
    j->run->beats = cnt->beats;
    j->run->stall_w = cnt->stall_w;
    j->run->stall_a = cnt->stall_a;
    j->run->stall_r = cnt->stall_r;
    j->run->sim_cycles = s24_cosim_cycles(sim);
    j->run->utilization = (double)cnt->macs_dense / (cyc * peak);
  }
  if (st == S24_OK && stats != NULL) {
    const uint64_t stalls = cnt->stall_w + cnt->stall_a + cnt->stall_r;
    fprintf(stats, "backend: rtl\n");
    fprintf(stats, "array: %ux%u %u:%u\n", hw->rows, hw->cols, hw->sparse_n, hw->sparse_m);
    if (j->a_dense != NULL) {
      fprintf(stats, "pattern: dense\n");
    } else {
      fprintf(stats, "pattern: %u:%u\n", (unsigned)j->pattern.n, (unsigned)j->pattern.m);
    }
    fprintf(stats, "shape_mkn: %zux%zux%zu\n", j->m_rows, j->k, j->n_cols);
    fprintf(stats, "mode: %s\n", cnt->pair ? "pair (1 of m per row, 2 rows per PE)" : "array");
    fprintf(stats, "cycles: %llu\n", (unsigned long long)cnt->cycles);
    fprintf(stats, "utilization: %.4f\n", (double)cnt->macs_dense / (cyc * peak));
    fprintf(stats, "effective_macs_per_cycle: %.2f\n", (double)cnt->macs_dense / cyc);
    fprintf(stats, "peak_macs_per_cycle: %.0f\n", peak);
    fprintf(stats, "macs_dense: %llu\n", (unsigned long long)cnt->macs_dense);
    fprintf(stats, "beats: %llu\n", (unsigned long long)cnt->beats);
    fprintf(stats, "stall_w_cycles: %llu\n", (unsigned long long)cnt->stall_w);
    fprintf(stats, "stall_a_cycles: %llu\n", (unsigned long long)cnt->stall_a);
    fprintf(stats, "stall_r_cycles: %llu\n", (unsigned long long)cnt->stall_r);
    fprintf(stats, "bubble_cycles: %llu\n",
            (unsigned long long)(cnt->cycles - cnt->beats - stalls));
    fprintf(stats, "hw_jobs: %llu\n", (unsigned long long)cnt->jobs);
    fprintf(stats, "tiles: %llu\n", (unsigned long long)cnt->tiles);
    fprintf(stats, "sim_cycles: %llu\n", (unsigned long long)s24_cosim_cycles(sim));
    fprintf(stats, "accumulate_c0: %s\n", j->c0 != NULL ? "yes" : "no");
  }
  s24_dev_close(&dev);
  s24_cosim_close(sim);
  return st;
}

