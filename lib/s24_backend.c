// SPDX-License-Identifier: Apache-2.0
// sparse24 library: the backend table (the only place that knows which backends exist) and the
// model backend, the C golden model. The rtl backend lives in s24_backend_rtl.c (linked with the
// co-simulation library) or, in a build without it (make S24_RTL=no), in s24_backend_nortl.c,
// which refuses it.
#include "s24_backend.h"

#include <string.h>

// ------------------------------------------------------------------ the table

static const s24_backend_ops_t *const kBackends[] = {&s24_backend_model, &s24_backend_rtl,
                                                      &s24_backend_soc, &s24_backend_soc_cpu};

s24_backend_t s24_backend_find(const char *name) {
  if (name == NULL) return NULL;
  for (size_t i = 0; i < sizeof kBackends / sizeof kBackends[0]; i++) {
    if (strcmp(name, kBackends[i]->name) == 0) return kBackends[i];
  }
  return NULL;
}

// ------------------------------------------------------------------ the model backend

static s24_status_t model_open(s24_bdev_t *d, const char *trace, char *err, size_t errlen) {
  (void)trace;
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
  if (st != S24_OK) return s24_errorf(st, err, errlen, "model gemm failed: %s", s24_strerror(st));
  memset(&d->run, 0, sizeof d->run);
  return S24_OK;
}

static s24_status_t model_linear(s24_bdev_t *d, const s24_linear_job_t *j, char *err,
                                 size_t errlen) {
  const s24_linear_params_t *p = &j->prm;
  s24_status_t st = s24_linear_ref(j->x, j->batch, j->wd, j->m, j->k, p->bias, p->mult, p->shift,
                                   p->zi, p->zo, p->act_min, p->act_max, p->round, j->y);
  if (st != S24_OK) {
    return s24_errorf(st, err, errlen, "model linear failed: %s", s24_strerror(st));
  }
  memset(&d->run, 0, sizeof d->run);
  for (size_t i = 0; i < j->m * j->k; i++) d->run.weight_nonzeros += j->wd[i] != 0;
  return S24_OK;
}

static s24_status_t model_engine(s24_bdev_t *d, s24_engine_t *e, char *err, size_t errlen) {
  (void)d;
  (void)err;
  (void)errlen;
  s24_engine_model(e);
  return S24_OK;
}

static uint64_t model_sim_cycles(const s24_bdev_t *d) {
  (void)d;
  return 0;
}

static void model_close(s24_bdev_t *d) { (void)d; }

const s24_backend_ops_t s24_backend_model = {
    "model",      0, NULL, model_open, model_gemm, model_linear, model_engine, model_sim_cycles,
    model_close,  NULL,
};
