// SPDX-License-Identifier: Apache-2.0
// sparse24 library: the edge SoC as a backend (SPEC §9): "soc" runs a network whole on the
// simulated SoC, its FULLY_CONNECTED and CONV_2D layers on the IP; "soc-cpu" runs it on the same
// SoC's CPU alone (the baseline the IP is measured against). A system backend: networks only
// (net_run, through lib/s24_soc.c); a GEMM or a single layer is refused with a message. On the
// host, the runtime loads the network with the cycle model's engine for the SoC's array (8x8 2:4,
// the default build), which checks the model, names its operators and predicts the IP's cycles.
#include <string.h>

#include "s24_backend.h"
#include "s24_soc.h"

static s24_status_t soc_check(char *err, size_t errlen) { return s24_soc_check(err, errlen); }

static s24_status_t soc_open_as(s24_bdev_t *d, const s24_backend_ops_t *ops, char *err,
                                size_t errlen) {
  memset(d, 0, sizeof *d);
  d->ops = ops;
  return s24_soc_check(err, errlen);
}

static s24_status_t soc_open(s24_bdev_t *d, const char *trace, char *err, size_t errlen) {
  (void)trace;
  return soc_open_as(d, &s24_backend_soc, err, errlen);
}

static s24_status_t soc_cpu_open(s24_bdev_t *d, const char *trace, char *err, size_t errlen) {
  (void)trace;
  return soc_open_as(d, &s24_backend_soc_cpu, err, errlen);
}

static s24_status_t soc_gemm(s24_bdev_t *d, const s24_gemm_job_t *j, s24_where_t *where,
                             char *err, size_t errlen) {
  (void)d;
  (void)j;
  (void)where;
  return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                    "the soc backend runs whole networks (sparse24 run MODEL.tflite ...), not a "
                    "single GEMM or layer: use --backend rtl");
}

static s24_status_t soc_linear(s24_bdev_t *d, const s24_linear_job_t *j, char *err,
                               size_t errlen) {
  (void)j;
  return soc_gemm(d, NULL, NULL, err, errlen);
}

static s24_status_t soc_engine(s24_bdev_t *d, s24_engine_t *e, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  s24_engine_model(e);  // the SoC's IP is the default build: the cycle model's default array
  // the firmware's engine pads convolutions to the channels its fetch unit reads (a group's
  // sparse_m int8 a word, soc/firmware/s24_soc_seam.c): the same layers predicted here
  if (d->ops == &s24_backend_soc) e->conv_channels = e->hw.sparse_m;
  return S24_OK;
}

static uint64_t soc_sim_cycles(const s24_bdev_t *d) {
  (void)d;
  return 0;
}

static void soc_close(s24_bdev_t *d) { (void)d; }

static s24_status_t soc_net_run(s24_bdev_t *d, const uint8_t *model, size_t len, size_t n_ops,
                                const void *x, size_t x_bytes, size_t batch, void *y,
                                size_t y_bytes, s24_soc_result_t *res, char *err, size_t errlen) {
  return s24_soc_run(d->ops == &s24_backend_soc, model, len, n_ops, x, x_bytes, batch, y, y_bytes,
                     res, err, errlen);
}

const s24_backend_ops_t s24_backend_soc = {
    "soc",      S24_BACKEND_HW | S24_BACKEND_SYSTEM, soc_check, soc_open, soc_gemm, soc_linear,
    soc_engine, soc_sim_cycles, soc_close, soc_net_run,
};

const s24_backend_ops_t s24_backend_soc_cpu = {
    "soc-cpu",  S24_BACKEND_SYSTEM, soc_check, soc_cpu_open, soc_gemm, soc_linear,
    soc_engine, soc_sim_cycles, soc_close, soc_net_run,
};
