// sparse24 command: the backend table (the only place that knows which backends exist) and the
// model backend, the C golden model. The rtl backend lives in backend_rtl.c (linked with the
// co-simulation library) or, in a build without it (make S24_RTL=no), in backend_nortl.c, which
// refuses it.
#include "backend.h"

#include <string.h>

#include "s24_drv.h"

// ------------------------------------------------------------------ the table

static const s24_backend_ops_t *const kBackends[] = {&s24_backend_model, &s24_backend_rtl};

s24_status_t s24_backend_parse(const char *name, s24_backend_t *out) {
  if (name == NULL || out == NULL) return S24_ERR_ARG;
  for (size_t i = 0; i < sizeof kBackends / sizeof kBackends[0]; i++) {
    if (strcmp(name, kBackends[i]->name) == 0) {
      *out = kBackends[i];
      return S24_OK;
    }
  }
  return S24_ERR_ARG;
}

const char *s24_backend_name(s24_backend_t b) { return b != NULL ? b->name : "unknown"; }

s24_status_t s24_backend_check(s24_backend_t b, char *err, size_t errlen) {
  if (b == NULL) {
    snprintf(err, errlen, "unknown backend");
    return S24_ERR_ARG;
  }
  return b->check != NULL ? b->check(err, errlen) : S24_OK;
}

s24_status_t s24_backend_gemm(s24_backend_t b, const s24_gemm_job_t *job, FILE *stats,
                              s24_where_t *where, char *err, size_t errlen) {
  if (job == NULL) return S24_ERR_ARG;
  s24_status_t st = s24_backend_check(b, err, errlen);
  if (st != S24_OK) return st;
  s24_bdev_t d;
  if ((st = b->open(&d, job->trace_path, job->k, err, errlen)) != S24_OK) return st;
  st = b->gemm(&d, job, where, err, errlen);
  if (st == S24_OK && stats != NULL) b->stats(&d, stats);
  b->close(&d);
  return st;
}

s24_status_t s24_backend_linear(s24_backend_t b, const s24_linear_job_t *job, FILE *stats,
                                char *err, size_t errlen) {
  if (job == NULL) return S24_ERR_ARG;
  s24_status_t st = s24_backend_check(b, err, errlen);
  if (st != S24_OK) return st;
  s24_bdev_t d;
  if ((st = b->open(&d, NULL, job->k, err, errlen)) != S24_OK) return st;
  st = b->linear(&d, job, err, errlen);
  if (st == S24_OK && stats != NULL) b->stats(&d, stats);
  b->close(&d);
  return st;
}

// ------------------------------------------------------------------ the model backend

static s24_status_t model_open(s24_bdev_t *d, const char *trace, size_t k_max, char *err,
                               size_t errlen) {
  (void)trace;
  (void)k_max;
  (void)err;
  (void)errlen;
  memset(d, 0, sizeof *d);
  d->ops = &s24_backend_model;
  return S24_OK;
}

static s24_status_t model_gemm(s24_bdev_t *d, const s24_gemm_job_t *j, s24_where_t *where,
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
  d->last_gemm = j;
  d->last_linear = NULL;
  return S24_OK;
}

static s24_status_t model_linear(s24_bdev_t *d, const s24_linear_job_t *j, char *err,
                                 size_t errlen) {
  const s24_linear_params_t *p = &j->prm;
  s24_status_t st = s24_linear_ref(j->x, j->batch, j->wd, j->m, j->k, p->bias, p->mult, p->shift,
                                   p->zi, p->zo, p->act_min, p->act_max, p->round, j->y);
  if (st != S24_OK) {
    snprintf(err, errlen, "model linear failed: %s", s24_strerror(st));
    return st;
  }
  d->last_nnz = 0;
  for (size_t i = 0; i < j->m * j->k; i++) d->last_nnz += j->wd[i] != 0;
  d->last_gemm = NULL;
  d->last_linear = j;
  return S24_OK;
}

static void model_stats(const s24_bdev_t *d, FILE *f) {
  if (d->last_gemm != NULL) {
    const s24_gemm_job_t *j = d->last_gemm;
    const unsigned long long m = j->m_rows, k = j->k, n = j->n_cols;
    const unsigned long long kept = s24_values_cols(j->pattern, j->k);
    fprintf(f, "backend: model\n");
    fprintf(f, "pattern: %u:%u\n", (unsigned)j->pattern.n, (unsigned)j->pattern.m);
    fprintf(f, "shape_mkn: %llux%llux%llu\n", m, k, n);
    fprintf(f, "macs_dense: %llu\n", m * k * n);
    fprintf(f, "macs: %llu\n", m * kept * n);
    fprintf(f, "mac_reduction: %.3f\n", (double)k / (double)kept);
    fprintf(f, "accumulate_c0: %s\n", j->c0 != NULL ? "yes" : "no");
  } else if (d->last_linear != NULL) {
    const s24_linear_job_t *j = d->last_linear;
    fprintf(f, "backend: model\n");
    fprintf(f, "pattern: %u:%u\n", (unsigned)j->pattern.n, (unsigned)j->pattern.m);
    fprintf(f, "shape_bkm: %zux%zux%zu\n", j->batch, j->k, j->m);
    fprintf(f, "macs_dense: %llu\n", (unsigned long long)j->batch * j->k * j->m);
    fprintf(f, "macs_kept: %llu\n",
            (unsigned long long)j->batch * (s24_values_cols(j->pattern, j->k) * j->m));
    fprintf(f, "weight_nonzeros: %zu\n", d->last_nnz);
  }
}

static void model_close(s24_bdev_t *d) { (void)d; }

const s24_backend_ops_t s24_backend_model = {
    "model", 0, NULL, model_open, model_gemm, model_linear, model_stats, model_close,
};
