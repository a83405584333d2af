// SPDX-License-Identifier: Apache-2.0
// sparse24 library: the rtl backend of a build without the Verilated model (make S24_RTL=no):
// every entry point refuses, so `--backend rtl` fails with one clear message.
#include "s24_backend.h"

#define NO_RTL "this build has no rtl backend (rebuild without S24_RTL=no)"

static s24_status_t nortl_check(char *err, size_t errlen) {
  return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen, NO_RTL);
}

static s24_status_t nortl_open(s24_bdev_t *d, const char *trace, char *err, size_t errlen) {
  (void)trace;
  d->ops = &s24_backend_rtl;
  d->sim = NULL;
  return nortl_check(err, errlen);
}

static s24_status_t nortl_gemm(s24_bdev_t *d, const s24_gemm_job_t *job, s24_where_t *where,
                               char *err, size_t errlen) {
  (void)d;
  (void)job;
  (void)where;
  return nortl_check(err, errlen);
}

static s24_status_t nortl_linear(s24_bdev_t *d, const s24_linear_job_t *job, char *err,
                                 size_t errlen) {
  (void)d;
  (void)job;
  return nortl_check(err, errlen);
}

static s24_status_t nortl_engine(s24_bdev_t *d, s24_engine_t *e, char *err, size_t errlen) {
  (void)d;
  (void)e;
  return nortl_check(err, errlen);
}

static uint64_t nortl_sim_cycles(const s24_bdev_t *d) {
  (void)d;
  return 0;
}

static void nortl_close(s24_bdev_t *d) { (void)d; }

const s24_backend_ops_t s24_backend_rtl = {
    "rtl",        S24_BACKEND_HW, nortl_check,      nortl_open, nortl_gemm, nortl_linear,
    nortl_engine, nortl_sim_cycles, nortl_close, NULL,
};

uint64_t s24_rtl_sim_cycles(const s24_cosim_t *sim) {
  (void)sim;
  return 0;
}

void s24_rtl_close(s24_cosim_t *sim) { (void)sim; }

const char *s24_rtl_error(const s24_cosim_t *sim) {
  (void)sim;
  return "";
}

s24_status_t s24_rtl_open(const char *trace_path, s24_cosim_t **sim, s24_dev_t *dev, char *err,
                          size_t errlen) {
  (void)trace_path;
  (void)dev;
  if (sim != NULL) *sim = NULL;
  return nortl_check(err, errlen);
}

uint64_t s24_rtl_timeout_ns(const s24_dev_t *dev, size_t k) {
  (void)dev;
  (void)k;
  return 0;
}
