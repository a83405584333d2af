// sparse24 command: GEMM backend dispatch (the only place that knows which backends exist).
// The rtl backend lives in backend_rtl.c (linked with the co-simulation library) or, in a build
// without it (make S24_RTL=no), in backend_nortl.c, which refuses it.
#include "backend.h"

#include <string.h>

#include "s24_drv.h"

s24_status_t s24_backend_parse(const char *name, s24_backend_t *out) {
  if (name == NULL || out == NULL) return S24_ERR_ARG;
  if (strcmp(name, "model") == 0) {
    *out = S24_BACKEND_MODEL;
  } else if (strcmp(name, "rtl") == 0) {
    *out = S24_BACKEND_RTL;
  } else {
    return S24_ERR_ARG;
  }
  return S24_OK;
}

const char *s24_backend_name(s24_backend_t b) {
  switch (b) {
    case S24_BACKEND_MODEL: return "model";
    case S24_BACKEND_RTL: return "rtl";
    default: return "unknown";
  }
}

s24_status_t s24_backend_check(s24_backend_t b, char *err, size_t errlen) {
  switch (b) {
    case S24_BACKEND_MODEL: return S24_OK;
    case S24_BACKEND_RTL:
      if (s24_rtl_available()) return S24_OK;
      snprintf(err, errlen, "this build has no rtl backend (rebuild without S24_RTL=no)");
      return S24_ERR_UNSUPPORTED;
    default:
      snprintf(err, errlen, "unknown backend");
      return S24_ERR_ARG;
  }
}

static s24_status_t gemm_model(const s24_gemm_job_t *j, FILE *stats, s24_where_t *where,
                               char *err, size_t errlen) {
  s24_status_t st =
      j->a_dense != NULL
          ? s24_gemm_dense_ref(j->a_dense, j->m_rows, j->k, j->b, j->n_cols, j->c0, j->c)
          : s24_gemm_sparse(j->pattern, j->values, j->meta, j->m_rows, j->k, j->b, j->n_cols,
                            j->c0, j->c, where);
  if (st != S24_OK) {
    snprintf(err, errlen, "model gemm failed: %s", s24_strerror(st));
    return st;
  }
  if (stats != NULL) {
    const unsigned long long m = j->m_rows, k = j->k, n = j->n_cols;
    const unsigned long long kept = s24_values_cols(j->pattern, j->k);
    fprintf(stats, "backend: model\n");
    fprintf(stats, "pattern: %u:%u\n", (unsigned)j->pattern.n, (unsigned)j->pattern.m);
    fprintf(stats, "shape_mkn: %llux%llux%llu\n", m, k, n);
    fprintf(stats, "macs_dense: %llu\n", m * k * n);
    fprintf(stats, "macs: %llu\n", m * kept * n);
    fprintf(stats, "mac_reduction: %.3f\n", (double)k / (double)kept);
    fprintf(stats, "accumulate_c0: %s\n", j->c0 != NULL ? "yes" : "no");
  }
  return S24_OK;
}

s24_status_t s24_backend_gemm(s24_backend_t b, const s24_gemm_job_t *job, FILE *stats,
                              s24_where_t *where, char *err, size_t errlen) {
  if (job == NULL) return S24_ERR_ARG;
  s24_status_t st = s24_backend_check(b, err, errlen);
  if (st != S24_OK) return st;
  switch (b) {
    case S24_BACKEND_MODEL: return gemm_model(job, stats, where, err, errlen);
    case S24_BACKEND_RTL: return s24_rtl_gemm(job, stats, where, err, errlen);
    default:
      snprintf(err, errlen, "backend '%s' cannot run a gemm", s24_backend_name(b));
      return S24_ERR_UNSUPPORTED;
  }
}
