// SPDX-License-Identifier: Apache-2.0
// sparse24 library: the rtl backend, the Verilated s24_top (sim/s24_cosim.h) through the host
// driver. The only file of the library that knows the co-simulation; s24_backend_nortl.c stands
// in for it in a build without the Verilated model (make S24_RTL=no).
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "s24_backend.h"
#include "s24_cosim.h"
#include "s24_drv.h"
#include "s24_drv_host.h"
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

s24_status_t s24_rtl_open(const char *trace_path, s24_cosim_t **sim, s24_dev_t *dev, char *err,
                          size_t errlen) {
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
  return S24_OK;
}

// ------------------------------------------------------------------ the rtl backend's ops
// The Verilated s24_top (default 8x8 2:4 build) through the host driver (driver/s24_drv.h),
// opened once per device; every job's waits bounded by its own K (s24_rtl_timeout_ns).

static s24_status_t rtl_open(s24_bdev_t *d, const char *trace, char *err, size_t errlen) {
  memset(d, 0, sizeof *d);
  d->ops = &s24_backend_rtl;
  return s24_rtl_open(trace, &d->sim, &d->dev, err, errlen);
}

static void rtl_close(s24_bdev_t *d) {
  if (d->sim == NULL) return;
  s24_dev_close(&d->dev);
  s24_cosim_close(d->sim);
  d->sim = NULL;
}

static uint64_t rtl_sim_cycles(const s24_bdev_t *d) { return s24_cosim_cycles(d->sim); }

// The message of a failed gemm or linear (what) on the device.
static s24_status_t rtl_failed(const s24_bdev_t *d, s24_status_t st, const char *what, char *err,
                               size_t errlen) {
  if (st == S24_ERR_HW) {
    char bits[96];
    return s24_errorf(st, err, errlen, "rtl %s failed: hardware error (ERR = %s)", what,
                      s24_err_bits_str(d->dev.last_err, bits, sizeof bits));
  }
  const char *e = s24_cosim_error(d->sim);
  return s24_errorf(st, err, errlen, "rtl %s failed: %s", what,
                    e[0] != '\0' ? e : s24_strerror(st));
}

// What the device measured in the job just run.
static void keep_run(s24_bdev_t *d) {
  memset(&d->run, 0, sizeof d->run);
  d->run.hw = 1;
  d->run.cnt = d->dev.counters;
  d->run.info = d->dev.hw;
  d->run.sim_cycles = s24_cosim_cycles(d->sim);
}

static s24_status_t rtl_gemm(s24_bdev_t *d, const s24_gemm_job_t *j, s24_where_t *where,
                             char *err, size_t errlen) {
  s24_dev_t *dev = &d->dev;
  dev->timeout_ns = s24_rtl_timeout_ns(dev, j->k);
  s24_status_t st;
  if (j->a_dense != NULL) {
    st = s24_gemm_dense(dev, j->a_dense, j->m_rows, j->k, j->b, j->n_cols, j->c0, j->c);
  } else {
    st = s24_gemm_compressed(dev, j->pattern, j->values, j->meta, j->m_rows, j->k, j->b,
                             j->n_cols, j->c0, j->c, where);
  }
  if (st == S24_ERR_META && where != NULL) {
    return s24_errorf(st, err, errlen, "invalid metadata at row %zu, group %zu", where->row,
                      where->group);
  }
  if (st != S24_OK) return rtl_failed(d, st, "gemm", err, errlen);
  keep_run(d);
  return S24_OK;
}

static s24_status_t rtl_linear(s24_bdev_t *d, const s24_linear_job_t *j, char *err,
                               size_t errlen) {
  s24_dev_t *dev = &d->dev;
  dev->timeout_ns = s24_rtl_timeout_ns(dev, j->k);
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
  keep_run(d);
  return S24_OK;
}

// A network's layers on the device: its waits bounded for the largest K the simulation can be
// asked for in one layer (timeouts follow each layer's own jobs through the driver too).
static s24_status_t rtl_engine(s24_bdev_t *d, s24_engine_t *e, char *err, size_t errlen) {
  s24_status_t st = s24_engine_device(e, &d->eng, &d->dev, "rtl");
  if (st != S24_OK) {
    return s24_errorf(st, err, errlen, "the simulated device has no fused epilogue: %s",
                      s24_strerror(st));
  }
  return S24_OK;
}

const s24_backend_ops_t s24_backend_rtl = {
    "rtl",      S24_BACKEND_HW, NULL,           rtl_open, rtl_gemm, rtl_linear, rtl_engine,
    rtl_sim_cycles, rtl_close, NULL,
};
