// sparse24 command: the rtl backend of a build without the Verilated model (make S24_RTL=no):
// every entry point refuses, so `--backend rtl` fails with one clear message.
#include "backend.h"

int s24_rtl_available(void) { return 0; }

s24_status_t s24_rtl_gemm(const s24_gemm_job_t *job, FILE *stats, s24_where_t *where, char *err,
                          size_t errlen) {
  (void)job;
  (void)stats;
  (void)where;
  snprintf(err, errlen, "this build has no rtl backend (rebuild without S24_RTL=no)");
  return S24_ERR_UNSUPPORTED;
}

uint64_t s24_rtl_sim_cycles(const s24_cosim_t *sim) {
  (void)sim;
  return 0;
}

void s24_rtl_close(s24_cosim_t *sim) { (void)sim; }

const char *s24_rtl_error(const s24_cosim_t *sim) {
  (void)sim;
  return "";
}

s24_status_t s24_rtl_open(const char *trace_path, size_t k_max, s24_cosim_t **sim,
                          s24_dev_t *dev, char *err, size_t errlen) {
  (void)trace_path;
  (void)k_max;
  (void)dev;
  if (sim != NULL) *sim = NULL;
  if (err != NULL && errlen > 0) {
    snprintf(err, errlen, "this build has no rtl backend (rebuild without S24_RTL=no)");
  }
  return S24_ERR_UNSUPPORTED;
}

uint64_t s24_rtl_timeout_ns(const s24_dev_t *dev, size_t k) {
  (void)dev;
  (void)k;
  return 0;
}
