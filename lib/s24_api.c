// SPDX-License-Identifier: Apache-2.0
// sparse24 public C API (include/sparse24.h) over the parts that do the work: the C golden model
// (cmodel/), the backends (s24_backend.h: the model, the Verilated RTL through the host
// driver), the network runtime (runtime/) and the one formatter of texts (s24_text.h). This
// file checks arguments, turns every failure into a status and one line naming what and where,
// keeps the numbers of the last call, and serialises the calls on a handle.
#include "sparse24.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "s24_backend.h"
#include "s24_drv.h"
#include "s24_engine.h"
#include "s24_layout.h"
#include "s24_net.h"
#include "s24_runtime_host.h"
#include "s24_text.h"
#include "s24_tflite.h"

struct s24_api_dev {
  pthread_mutex_t lock;    // every call on the device
  s24_bdev_t bdev;         // the open backend
  s24_api_stats_t stats;   // of the last successful gemm / linear
  s24_text_t text;         // their `key: value` lines
  int has_engine;          // engine made (at the first network: an rtl engine reads HW_EPI)
  s24_engine_t engine;     // the networks' engine on this device
};

struct s24_api_net {
  pthread_mutex_t lock;    // every call on the network (a run also takes its device's)
  s24_api_dev_t *dev;
  uint8_t *buf;            // the library's copy of the file; the network reads it in place
  size_t len;
  s24_net_heap_t heap;     // the network in its arena
  size_t k_max;            // the largest K of its array layers (the rtl waits' bound)
  s24_soc_result_t soc;    // a system backend: what the SoC measured over the runs
};

// ------------------------------------------------------------------ helpers

// Copies a text of the library (may be NULL) as s24_api_stats_text documents.
static s24_status_t copy_text(const char *text, size_t text_len, char *buf, size_t len,
                              size_t *needed) {
  if (needed != NULL) *needed = text != NULL ? text_len : 0;
  if (buf == NULL || len == 0) return needed != NULL ? S24_OK : S24_ERR_ARG;
  const size_t n = text == NULL ? 0 : (text_len < len - 1 ? text_len : len - 1);
  if (n > 0) memcpy(buf, text, n);
  buf[n] = '\0';
  return S24_OK;
}

// a * b * c as size_t, 0 on overflow or a zero factor
static size_t mul3(size_t a, size_t b, size_t c) {
  if (a == 0 || b == 0 || c == 0) return 0;
  if (a > SIZE_MAX / b || a * b > SIZE_MAX / c) return 0;
  return a * b * c;
}

static s24_status_t init_lock(pthread_mutex_t *m) {
  return pthread_mutex_init(m, NULL) == 0 ? S24_OK : S24_ERR_NOMEM;
}

// Checks a pattern and that k is a multiple of its m; `what` names the operand.
static s24_status_t check_pattern_k(s24_pattern_t p, size_t k, const char *what, char *err,
                                    size_t errlen) {
  if (!s24_pattern_ok(p)) {
    return s24_errorf(S24_ERR_ARG, err, errlen,
                      "pattern %u:%u is not supported (N:M with M in {2, 4, 8} and 1 <= N <= M)",
                      (unsigned)p.n, (unsigned)p.m);
  }
  if (k % p.m != 0) {
    return s24_errorf(S24_ERR_ARG, err, errlen,
                      "%s: K = %zu is not a multiple of m = %u (pattern %u:%u)", what, k,
                      (unsigned)p.m, (unsigned)p.n, (unsigned)p.m);
  }
  return S24_OK;
}

// ------------------------------------------------------------------ the checks (one place)

// The one check of an N:M operand: the pattern, K a multiple of its m, then the dense matrix
// against the pattern (a != NULL) or the compressed one's metadata (meta != NULL), each failure
// one line naming row, group and fault.
static s24_status_t check_operand(s24_pattern_t p, const int8_t *a, const uint8_t *meta,
                                  size_t rows, size_t k, const char *what, char *err,
                                  size_t errlen) {
  s24_status_t st = check_pattern_k(p, k, what, err, errlen);
  if (st != S24_OK) return st;
  if ((a == NULL && meta == NULL) || rows == 0 || k == 0) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "%s: nothing to check", what);
  }
  s24_where_t w;
  st = a != NULL ? s24_check_pattern(p, a, rows, k, &w) : s24_meta_validate(p, meta, rows, k, &w);
  if (st == S24_OK) return S24_OK;
  if (st == S24_ERR_PATTERN) {
    return s24_errorf(st, err, errlen,
                      "%s: row %zu, group %zu (columns %zu..%zu) has %u nonzeros, pattern %u:%u "
                      "allows %u (prune first)",
                      what, w.row, w.group, w.group * p.m, w.group * p.m + p.m - 1,
                      (unsigned)w.count, (unsigned)p.n, (unsigned)p.m, (unsigned)p.n);
  }
  if (st != S24_ERR_META) return s24_errorf(st, err, errlen, "%s: %s", what, s24_strerror(st));
  if (w.count == S24_WHERE_PADDING) {
    return s24_errorf(st, err, errlen,
                      "%s: row %zu, group %zu: nonzero unused metadata bits after the last index",
                      what, w.row, w.group);
  }
  const uint8_t *row = meta + w.row * s24_meta_cols(p, k);
  const size_t slot = w.group * p.n + w.count;
  const unsigned idx = s24_meta_get(p, row, slot);
  if (idx >= p.m) {
    return s24_errorf(st, err, errlen,
                      "%s: row %zu, group %zu: metadata index %u is out of range (m = %u)", what,
                      w.row, w.group, idx, (unsigned)p.m);
  }
  return s24_errorf(st, err, errlen,
                    "%s: row %zu, group %zu: invalid metadata, index %u follows index %u "
                    "(indices must strictly increase)",
                    what, w.row, w.group, idx, w.count > 0 ? s24_meta_get(p, row, slot - 1) : 0u);
}

s24_status_t s24_api_check_pattern(s24_pattern_t p, const int8_t *a, size_t rows, size_t k,
                                   const char *what, char *err, size_t errlen) {
  if (a == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "%s is NULL", what ? what : "A");
  return check_operand(p, a, NULL, rows, k, what ? what : "A", err, errlen);
}

s24_status_t s24_api_check_meta(s24_pattern_t p, const uint8_t *meta, size_t rows, size_t k,
                                const char *what, char *err, size_t errlen) {
  if (meta == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "%s is NULL", what ? what : "metadata");
  }
  return check_operand(p, NULL, meta, rows, k, what ? what : "metadata", err, errlen);
}

int32_t s24_api_relu_min(int32_t zo) { return zo > -128 ? zo : -128; }

s24_status_t s24_api_check_linear_params(const s24_api_linear_params_t *prm, size_t m, char *err,
                                         size_t errlen) {
  if (prm == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "the parameters are NULL");
  if (prm->mult == NULL || prm->shift == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "%s is NULL", prm->mult == NULL ? "MULT" : "SHIFT");
  }
  if (prm->act_min < -128 || prm->act_min > 127 || prm->act_max < -128 || prm->act_max > 127) {
    const int lo_bad = prm->act_min < -128 || prm->act_min > 127;
    return s24_errorf(S24_ERR_ARG, err, errlen, "the clamp: %s = %d is outside [-128, 127]",
                      lo_bad ? "act_min" : "act_max", (int)(lo_bad ? prm->act_min : prm->act_max));
  }
  if (prm->act_min > prm->act_max) {
    return s24_errorf(S24_ERR_ARG, err, errlen,
                      "the clamp: its low end %d is above its high end %d", (int)prm->act_min,
                      (int)prm->act_max);
  }
  size_t bad = 0;
  if (!s24_linear_params_ok(prm->mult, prm->shift, m, prm->zi, prm->zo, prm->act_min,
                            prm->act_max, &bad)) {
    if (bad == SIZE_MAX) {
      const int zi_bad = prm->zi < -128 || prm->zi > 127;
      return s24_errorf(S24_ERR_ARG, err, errlen, "%s = %d is outside [-128, 127]",
                        zi_bad ? "ZI (input zero point)" : "ZO (output zero point)",
                        (int)(zi_bad ? prm->zi : prm->zo));
    }
    if (prm->mult[bad] < 0) {
      return s24_errorf(S24_ERR_ARG, err, errlen, "MULT[%zu] = %d is outside [0, 2^31)", bad,
                        (int)prm->mult[bad]);
    }
    return s24_errorf(S24_ERR_ARG, err, errlen, "SHIFT[%zu] = %d is outside [-31, 30]", bad,
                      (int)prm->shift[bad]);
  }
  return S24_OK;
}

// ------------------------------------------------------------------ devices

uint32_t s24_api_version(void) { return S24_API_VERSION; }

s24_status_t s24_api_backend_check(const char *backend, char *err, size_t errlen) {
  const s24_backend_t b = s24_backend_find(backend);
  if (b == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "unknown backend '%s' (model, rtl, soc or soc-cpu)",
                      backend ? backend : "(null)");
  }
  return b->check != NULL ? b->check(err, errlen) : S24_OK;
}

int s24_api_backend_is_hw(const char *backend) {
  const s24_backend_t b = s24_backend_find(backend);
  return b != NULL && (b->caps & S24_BACKEND_HW) != 0;
}

s24_status_t s24_api_open_ex(const s24_api_options_t *opts, s24_api_dev_t **out, char *err,
                             size_t errlen) {
  if (out == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "no place for the device handle (out)");
  }
  *out = NULL;
  if (opts == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "no options");
  s24_status_t st = s24_api_backend_check(opts->backend, err, errlen);
  if (st != S24_OK) return st;
  const s24_backend_t b = s24_backend_find(opts->backend);
  if (opts->trace_path != NULL && (b->caps & (S24_BACKEND_HW | S24_BACKEND_SYSTEM)) != S24_BACKEND_HW) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "a trace needs a hardware backend (rtl), not %s",
                      b->name);
  }
  s24_api_dev_t *d = calloc(1, sizeof *d);
  if (d == NULL) return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory for a device");
  if (init_lock(&d->lock) != S24_OK) {
    free(d);
    return s24_errorf(S24_ERR_NOMEM, err, errlen, "cannot create the device's lock");
  }
  char msg[S24_API_ERRLEN];
  msg[0] = '\0';
  st = b->open(&d->bdev, opts->trace_path, msg, sizeof msg);
  if (st != S24_OK) {
    b->close(&d->bdev);
    pthread_mutex_destroy(&d->lock);
    free(d);
    return s24_errorf(st, err, errlen, "%s", msg[0] ? msg : s24_strerror(st));
  }
  *out = d;
  return S24_OK;
}

s24_status_t s24_api_open(const char *backend, s24_api_dev_t **out, char *err, size_t errlen) {
  const s24_api_options_t o = {backend, NULL};
  return s24_api_open_ex(&o, out, err, errlen);
}

void s24_api_close(s24_api_dev_t *dev) {
  if (dev == NULL) return;
  pthread_mutex_lock(&dev->lock);  // waits for the call in flight
  dev->bdev.ops->close(&dev->bdev);
  s24_text_free(&dev->text);
  pthread_mutex_unlock(&dev->lock);
  pthread_mutex_destroy(&dev->lock);
  free(dev);
}

const char *s24_api_backend(const s24_api_dev_t *dev) {
  return dev != NULL ? dev->bdev.ops->name : "none";
}

s24_status_t s24_api_stats(const s24_api_dev_t *dev, s24_api_stats_t *out) {
  if (dev == NULL || out == NULL) return S24_ERR_ARG;
  s24_api_dev_t *d = (s24_api_dev_t *)(uintptr_t)dev;  // the lock only
  pthread_mutex_lock(&d->lock);
  *out = d->stats;
  pthread_mutex_unlock(&d->lock);
  return S24_OK;
}

s24_status_t s24_api_stats_text(const s24_api_dev_t *dev, char *buf, size_t len, size_t *needed) {
  if (dev == NULL) return S24_ERR_ARG;
  s24_api_dev_t *d = (s24_api_dev_t *)(uintptr_t)dev;  // the lock only
  pthread_mutex_lock(&d->lock);
  const s24_status_t st = copy_text(d->text.buf, d->text.len, buf, len, needed);
  pthread_mutex_unlock(&d->lock);
  return st;
}

// Forgets the numbers of the previous call.
static void stats_reset(s24_api_dev_t *dev) {
  memset(&dev->stats, 0, sizeof dev->stats);
  s24_text_free(&dev->text);
}

// The numbers of the last run of the device's backend (macs_dense of the job given).
static void keep_stats(s24_api_dev_t *dev, uint64_t macs_dense, int linear) {
  const s24_run_t *r = &dev->bdev.run;
  s24_api_stats_t *s = &dev->stats;
  s->macs_dense = macs_dense;
  if (!r->hw) return;
  const s24_counters_t *c = &r->cnt;
  const double peak = (double)r->info.rows * r->info.cols * r->info.sparse_m *
                      (!linear && c->pair ? 2.0 : 1.0);
  const uint64_t cyc = linear ? c->job_cycles : c->cycles;
  s->macs_dense = c->macs_dense;
  s->cycles = c->cycles;
  s->job_cycles = c->job_cycles;
  s->beats = c->beats;
  s->stall_w = c->stall_w;
  s->stall_a = c->stall_a;
  s->stall_r = c->stall_r;
  s->hw_jobs = c->jobs;
  s->tiles = c->tiles;
  s->sim_cycles = r->sim_cycles;
  s->utilization = (double)c->macs_dense / ((cyc ? (double)cyc : 1.0) * peak);
}

// ------------------------------------------------------------------ GEMM

static s24_status_t check_gemm_args(const s24_api_dev_t *dev, const void *a, size_t m, size_t k,
                                    const int8_t *b, size_t n, const int32_t *c, char *err,
                                    size_t errlen) {
  if (dev == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "no device");
  if (a == NULL || b == NULL || c == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "%s is NULL",
                      a == NULL ? "A" : b == NULL ? "B" : "C");
  }
  if (m == 0 || k == 0 || n == 0) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "shape M x K x N = %zu x %zu x %zu has a zero", m,
                      k, n);
  }
  if (mul3(m, k, 1) == 0 || mul3(k, n, 1) == 0 || mul3(m, n, sizeof(int32_t)) == 0) {
    return s24_errorf(S24_ERR_NOMEM, err, errlen,
                      "shape M x K x N = %zu x %zu x %zu is too large", m, k, n);
  }
  return S24_OK;
}

// Runs a job on the device's backend and keeps its numbers and its statistics' text.
static s24_status_t run_gemm(s24_api_dev_t *dev, const s24_gemm_job_t *job, char *err,
                             size_t errlen) {
  pthread_mutex_lock(&dev->lock);
  stats_reset(dev);
  s24_where_t where;
  char msg[S24_API_ERRLEN];
  msg[0] = '\0';
  s24_status_t st = dev->bdev.ops->gemm(&dev->bdev, job, &where, msg, sizeof msg);
  if (st != S24_OK) {
    s24_errorf(st, err, errlen, "%s", msg[0] ? msg : s24_strerror(st));
  } else {
    keep_stats(dev, (uint64_t)job->m_rows * job->k * job->n_cols, 0);
    s24_text_gemm(&dev->text, dev->bdev.ops->name, job, &dev->bdev.run);
    if (dev->text.failed) st = s24_errorf(S24_ERR_NOMEM, err, errlen, "cannot keep the statistics");
  }
  pthread_mutex_unlock(&dev->lock);
  return st;
}

s24_status_t s24_api_gemm_compressed(s24_api_dev_t *dev, s24_pattern_t pattern,
                                     const int8_t *values, const uint8_t *meta, size_t m,
                                     size_t k, const int8_t *b, size_t n, const int32_t *c0,
                                     int32_t *c, char *err, size_t errlen) {
  s24_status_t st = check_gemm_args(dev, values, m, k, b, n, c, err, errlen);
  if (st != S24_OK) return st;
  if (meta == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "A metadata is NULL");
  if ((st = check_pattern_k(pattern, k, "A", err, errlen)) != S24_OK) return st;
  if ((st = s24_api_check_meta(pattern, meta, m, k, "A metadata", err, errlen)) != S24_OK) {
    return st;
  }
  const s24_gemm_job_t job = {pattern, values, meta, m, k, b, n, c0, c, NULL, 0};
  return run_gemm(dev, &job, err, errlen);
}

s24_status_t s24_api_gemm(s24_api_dev_t *dev, const s24_pattern_t *pattern, const int8_t *a,
                          size_t m, size_t k, const int8_t *b, size_t n, const int32_t *c0,
                          int32_t *c, char *err, size_t errlen) {
  s24_status_t st = check_gemm_args(dev, a, m, k, b, n, c, err, errlen);
  if (st != S24_OK) return st;
  if (pattern == NULL) {  // any values: dense A on the sparse core
    const s24_gemm_job_t job = {{1, 1}, NULL, NULL, m, k, b, n, c0, c, a, 1};
    return run_gemm(dev, &job, err, errlen);
  }
  // the pattern checked (naming row and group), then A as it is to the backend (no compressed
  // copy that the driver would only expand again)
  if ((st = s24_api_check_pattern(*pattern, a, m, k, "A", err, errlen)) != S24_OK) return st;
  const s24_gemm_job_t job = {*pattern, NULL, NULL, m, k, b, n, c0, c, a, 0};
  return run_gemm(dev, &job, err, errlen);
}

// ------------------------------------------------------------------ fused int8 layer

static s24_status_t check_linear_args(const s24_api_dev_t *dev, const int8_t *x, size_t batch,
                                      const void *w, size_t m, size_t k,
                                      const s24_api_linear_params_t *prm, const int8_t *y,
                                      char *err, size_t errlen) {
  if (dev == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "no device");
  if (x == NULL || w == NULL || y == NULL || prm == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "%s is NULL",
                      x == NULL   ? "X"
                      : w == NULL ? "W"
                      : y == NULL ? "Y"
                                  : "the parameters");
  }
  if (batch == 0 || m == 0 || k == 0) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "shape B x K x M = %zu x %zu x %zu has a zero",
                      batch, k, m);
  }
  if (mul3(batch, k, 1) == 0 || mul3(m, k, 1) == 0 || mul3(batch, m, 1) == 0) {
    return s24_errorf(S24_ERR_NOMEM, err, errlen,
                      "shape B x K x M = %zu x %zu x %zu is too large", batch, k, m);
  }
  return s24_api_check_linear_params(prm, m, err, errlen);
}

// The layer on dev's backend, as `sparse24 linear` runs it: wd is the dense W (model, and rtl
// without values); values/meta (pattern p) the compressed one the rtl device loads if given.
static s24_status_t run_linear(s24_api_dev_t *dev, s24_pattern_t p, const int8_t *x,
                               size_t batch, const int8_t *wd, const int8_t *values,
                               const uint8_t *meta, size_t m, size_t k,
                               const s24_api_linear_params_t *prm, int8_t *y, char *err,
                               size_t errlen) {
  const s24_linear_job_t job = {p, x, batch, wd, values, meta, m, k,
                                {.bias = prm->bias,
                                 .mult = prm->mult,
                                 .shift = prm->shift,
                                 .zi = prm->zi,
                                 .zo = prm->zo,
                                 .act_min = prm->act_min,
                                 .act_max = prm->act_max,
                                 .round = S24_ROUND_SINGLE},
                                y};
  pthread_mutex_lock(&dev->lock);
  stats_reset(dev);
  char msg[S24_API_ERRLEN];
  msg[0] = '\0';
  s24_status_t st = dev->bdev.ops->linear(&dev->bdev, &job, msg, sizeof msg);
  if (st != S24_OK) {
    s24_errorf(st, err, errlen, "%s", msg[0] ? msg : s24_strerror(st));
  } else {
    keep_stats(dev, (uint64_t)batch * k * m, 1);
    s24_text_linear(&dev->text, dev->bdev.ops->name, &job, &dev->bdev.run);
    if (dev->text.failed) st = s24_errorf(S24_ERR_NOMEM, err, errlen, "cannot keep the statistics");
  }
  pthread_mutex_unlock(&dev->lock);
  return st;
}

s24_status_t s24_api_linear(s24_api_dev_t *dev, const s24_pattern_t *pattern, const int8_t *x,
                            size_t batch, const int8_t *w, size_t m, size_t k,
                            const s24_api_linear_params_t *prm, int8_t *y, char *err,
                            size_t errlen) {
  s24_status_t st = check_linear_args(dev, x, batch, w, m, k, prm, y, err, errlen);
  if (st != S24_OK) return st;
  s24_pattern_t p = {1, 1};
  if (pattern != NULL) {
    p = *pattern;
    if ((st = s24_api_check_pattern(p, w, m, k, "W", err, errlen)) != S24_OK) return st;
  }
  return run_linear(dev, p, x, batch, w, NULL, NULL, m, k, prm, y, err, errlen);
}

s24_status_t s24_api_linear_compressed(s24_api_dev_t *dev, s24_pattern_t pattern,
                                       const int8_t *x, size_t batch, const int8_t *values,
                                       const uint8_t *meta, size_t m, size_t k,
                                       const s24_api_linear_params_t *prm, int8_t *y, char *err,
                                       size_t errlen) {
  s24_status_t st = check_linear_args(dev, x, batch, values, m, k, prm, y, err, errlen);
  if (st != S24_OK) return st;
  if (meta == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "W metadata is NULL");
  if ((st = check_pattern_k(pattern, k, "W", err, errlen)) != S24_OK) return st;
  if ((st = s24_api_check_meta(pattern, meta, m, k, "W metadata", err, errlen)) != S24_OK) {
    return st;
  }
  int8_t *wd = malloc(m * k);
  s24_where_t where;
  if (wd == NULL) return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory for W");
  st = s24_decompress(pattern, values, meta, m, k, wd, &where);
  if (st != S24_OK) {
    st = s24_errorf(st, err, errlen, "W: %s", s24_strerror(st));
  } else {
    st = run_linear(dev, pattern, x, batch, wd, values, meta, m, k, prm, y, err, errlen);
  }
  free(wd);
  return st;
}

// ------------------------------------------------------------------ prune / compress

s24_status_t s24_api_pattern(const char *text, s24_pattern_t *out, char *err, size_t errlen) {
  if (out == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "no place for the pattern (out)");
  if (text == NULL || s24_pattern_parse(text, out) != S24_OK) {
    return s24_errorf(S24_ERR_ARG, err, errlen,
                      "invalid pattern '%s' (N:M with M in {2, 4, 8} and 1 <= N <= M)",
                      text ? text : "(null)");
  }
  return S24_OK;
}

size_t s24_api_values_cols(s24_pattern_t p, size_t k) {
  return s24_pattern_ok(p) && k % p.m == 0 ? s24_values_cols(p, k) : 0;
}

size_t s24_api_meta_cols(s24_pattern_t p, size_t k) {
  return s24_pattern_ok(p) && k % p.m == 0 ? s24_meta_cols(p, k) : 0;
}

static s24_status_t check_matrix(s24_pattern_t p, const void *a, size_t rows, size_t k,
                                 const void *out, const char *what, char *err, size_t errlen) {
  if (a == NULL || out == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "%s is NULL", a == NULL ? what : "the output");
  }
  if (rows == 0 || k == 0) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "%s: shape (%zu, %zu) has a zero", what, rows, k);
  }
  if (mul3(rows, k, 1) == 0) {
    return s24_errorf(S24_ERR_NOMEM, err, errlen, "%s: shape (%zu, %zu) is too large", what, rows,
                      k);
  }
  return check_pattern_k(p, k, what, err, errlen);
}

s24_status_t s24_api_prune(s24_pattern_t p, const int8_t *a, size_t rows, size_t k, int8_t *out,
                           char *err, size_t errlen) {
  s24_status_t st = check_matrix(p, a, rows, k, out, "A", err, errlen);
  if (st != S24_OK) return st;
  st = s24_prune(p, a, rows, k, out);
  return st == S24_OK ? st : s24_errorf(st, err, errlen, "A: %s", s24_strerror(st));
}

s24_status_t s24_api_compress(s24_pattern_t p, const int8_t *a, size_t rows, size_t k,
                              int8_t *values, uint8_t *meta, char *err, size_t errlen) {
  s24_status_t st = check_matrix(p, a, rows, k, values, "A", err, errlen);
  if (st == S24_OK && meta == NULL) {
    st = s24_errorf(S24_ERR_ARG, err, errlen, "the metadata output is NULL");
  }
  if (st == S24_OK) st = s24_api_check_pattern(p, a, rows, k, "A", err, errlen);
  s24_where_t w;
  if (st == S24_OK && (st = s24_compress(p, a, rows, k, values, meta, &w)) != S24_OK) {
    s24_errorf(st, err, errlen, "A: %s", s24_strerror(st));
  }
  return st;
}

s24_status_t s24_api_decompress(s24_pattern_t p, const int8_t *values, const uint8_t *meta,
                                size_t rows, size_t k, int8_t *out, char *err, size_t errlen) {
  s24_status_t st = check_matrix(p, values, rows, k, out, "values", err, errlen);
  if (st == S24_OK) st = s24_api_check_meta(p, meta, rows, k, "metadata", err, errlen);
  s24_where_t w;
  if (st == S24_OK && (st = s24_decompress(p, values, meta, rows, k, out, &w)) != S24_OK) {
    s24_errorf(st, err, errlen, "values: %s", s24_strerror(st));
  }
  return st;
}

// ------------------------------------------------------------------ networks

int s24_api_is_tflite(const void *buf, size_t len) { return s24_tfl_is_tflite(buf, len); }

// The device's engine, made at its first network (locked by the caller).
static s24_status_t dev_engine(s24_api_dev_t *dev, char *err, size_t errlen) {
  if (dev->has_engine) return S24_OK;
  char msg[S24_API_ERRLEN];
  msg[0] = '\0';
  const s24_status_t st = dev->bdev.ops->engine(&dev->bdev, &dev->engine, msg, sizeof msg);
  if (st != S24_OK) return s24_errorf(st, err, errlen, "%s", msg[0] ? msg : s24_strerror(st));
  dev->has_engine = 1;
  return S24_OK;
}

s24_status_t s24_api_net_load(s24_api_dev_t *dev, const void *buf, size_t len,
                              s24_api_net_t **out, char *err, size_t errlen) {
  if (out == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "no place for the network (out)");
  }
  *out = NULL;
  if (dev == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "no device");
  if (buf == NULL || len == 0) return s24_errorf(S24_ERR_ARG, err, errlen, "empty model");
  if (!s24_tfl_is_tflite(buf, len)) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "not a TFLite model (no TFL3 identifier)");
  }
  s24_api_net_t *n = calloc(1, sizeof *n);
  uint8_t *copy = malloc(len);
  if (n == NULL || copy == NULL || init_lock(&n->lock) != S24_OK) {
    free(n);
    free(copy);
    return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory for a model of %zu bytes", len);
  }
  memcpy(copy, buf, len);
  pthread_mutex_lock(&dev->lock);  // the engine prepares the layers for the device
  s24_status_t st = dev_engine(dev, err, errlen);
  if (st == S24_OK) st = s24_net_load_heap(copy, len, &dev->engine, &n->heap, err, errlen);
  pthread_mutex_unlock(&dev->lock);
  if (st != S24_OK) {
    pthread_mutex_destroy(&n->lock);
    free(copy);
    free(n);
    return st;
  }
  n->dev = dev;
  n->buf = copy;
  n->len = len;
  for (size_t i = 0; i < s24_net_model(n->heap.net)->n_ops; i++) {
    s24_net_op_info_t o;
    if (s24_net_op_info(n->heap.net, i, &o) == S24_OK && o.on_array && o.k > n->k_max) {
      n->k_max = o.k;
    }
  }
  *out = n;
  return S24_OK;
}

void s24_api_net_free(s24_api_net_t *net) {
  if (net == NULL) return;
  pthread_mutex_lock(&net->lock);  // waits for the call in flight
  s24_net_heap_free(&net->heap);
  s24_soc_result_free(&net->soc);
  free(net->buf);
  pthread_mutex_unlock(&net->lock);
  pthread_mutex_destroy(&net->lock);
  free(net);
}

static void tensor_info(const s24_tfl_tensor_t *t, s24_api_tensor_t *out) {
  memset(out, 0, sizeof *out);
  out->dtype = t->type == S24_TFL_FLOAT32 ? S24_API_FLOAT32 : S24_API_INT8;
  out->rank = t->rank;
  for (uint32_t i = 0; i < t->rank && i < S24_API_MAX_DIMS; i++) out->dims[i] = t->dims[i];
  out->bytes = t->bytes;
}

s24_status_t s24_api_net_io(const s24_api_net_t *net, s24_api_tensor_t *in,
                            s24_api_tensor_t *out) {
  if (net == NULL) return S24_ERR_ARG;
  // the tensors are fixed at load: no lock needed
  if (in != NULL) tensor_info(s24_net_input(net->heap.net), in);
  if (out != NULL) tensor_info(s24_net_output(net->heap.net), out);
  return S24_OK;
}

// A buffer of len bytes for `batch` inferences of a tensor of `one` bytes.
static s24_status_t check_bytes(const char *what, const char *tensor, size_t len, size_t batch,
                                size_t one, char *err, size_t errlen) {
  const int fits = batch <= SIZE_MAX / one;
  if (fits && len == batch * one) return S24_OK;
  return s24_errorf(S24_ERR_ARG, err, errlen,
                    "%s holds %zu bytes; %zu inferences of the %s tensor (%zu bytes each) need %zu",
                    what, len, batch, tensor, one, fits ? batch * one : 0);
}

s24_status_t s24_api_net_run(s24_api_net_t *net, const void *x, size_t x_len, size_t batch,
                             void *y, size_t y_len, char *err, size_t errlen) {
  if (net == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "no network");
  if (x == NULL || y == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "%s is NULL", x ? "Y" : "X");
  }
  const s24_tfl_tensor_t *tin = s24_net_input(net->heap.net);
  const s24_tfl_tensor_t *tout = s24_net_output(net->heap.net);
  if (batch == 0) return s24_errorf(S24_ERR_ARG, err, errlen, "batch 0: nothing to run");
  s24_status_t st = check_bytes("X", "input", x_len, batch, tin->bytes, err, errlen);
  if (st == S24_OK) st = check_bytes("Y", "output", y_len, batch, tout->bytes, err, errlen);
  if (st != S24_OK) return st;
  pthread_mutex_lock(&net->lock);
  s24_api_dev_t *dev = net->dev;
  pthread_mutex_lock(&dev->lock);
  const s24_backend_ops_t *ops = dev->bdev.ops;
  char msg[S24_API_ERRLEN];
  if (ops->net_run != NULL) {  // a system runs the network whole, every inference
    msg[0] = '\0';
    st = ops->net_run(&dev->bdev, net->buf, net->len, s24_net_model(net->heap.net)->n_ops, x,
                      tin->bytes, batch, y, tout->bytes, &net->soc, msg, sizeof msg);
    if (st != S24_OK) s24_errorf(st, err, errlen, "%s", msg[0] ? msg : s24_strerror(st));
    batch = 0;
  } else if (ops->caps & S24_BACKEND_HW) {  // its waits bounded for the largest layer
    dev->bdev.dev.timeout_ns = s24_rtl_timeout_ns(&dev->bdev.dev, net->k_max ? net->k_max : 1);
  }
  for (size_t b = 0; b < batch && st == S24_OK; b++) {
    msg[0] = '\0';
    st = s24_net_run(net->heap.net, (const uint8_t *)x + b * tin->bytes,
                     (uint8_t *)y + b * tout->bytes, msg, sizeof msg);
    if (st != S24_OK) s24_errorf(st, err, errlen, "inference %zu: %s", b, msg);
  }
  pthread_mutex_unlock(&dev->lock);
  pthread_mutex_unlock(&net->lock);
  return st;
}

s24_status_t s24_api_net_totals(const s24_api_net_t *net, s24_api_net_totals_t *out) {
  if (net == NULL || out == NULL) return S24_ERR_ARG;
  s24_api_net_t *n = (s24_api_net_t *)(uintptr_t)net;  // the lock only
  pthread_mutex_lock(&n->lock);
  s24_net_sums_t s;
  const s24_status_t st = s24_net_sums(n->heap.net, &n->dev->engine, &s);
  if (st == S24_OK && n->dev->bdev.ops->net_run != NULL) {  // the SoC's runs and arena
    const s24_soc_result_t *r = &n->soc;
    const uint64_t runs = r->inferences;
    *out = (s24_api_net_totals_t){runs,          s.ip_macs * runs, s.host_macs * runs,
                                  r->cycles_ip,  0,                s.predicted_cycles * runs,
                                  r->arena_bytes, s24_net_activation_bytes(n->heap.net)};
  } else if (st == S24_OK) {
    *out = (s24_api_net_totals_t){s24_net_inferences(n->heap.net),
                                  s.ip_macs,
                                  s.host_macs,
                                  s.cycles,
                                  s.job_cycles,
                                  s.predicted_cycles,
                                  s24_net_arena_bytes(n->heap.net),
                                  s24_net_activation_bytes(n->heap.net)};
  }
  pthread_mutex_unlock(&n->lock);
  return st;
}

// A text of the network (stats: with the device's simulated cycles on a hardware backend).
static s24_status_t net_text(const s24_api_net_t *net, int info, char *buf, size_t len,
                             size_t *needed) {
  if (net == NULL) return S24_ERR_ARG;
  s24_api_net_t *n = (s24_api_net_t *)(uintptr_t)net;  // the lock only
  s24_text_t t = {0};
  pthread_mutex_lock(&n->lock);
  pthread_mutex_lock(&n->dev->lock);
  const s24_bdev_t *bd = &n->dev->bdev;
  const uint64_t sim = bd->ops->sim_cycles(bd);
  s24_status_t st =
      info ? s24_text_net_info(&t, n->heap.net, &n->dev->engine)
      : bd->ops->net_run != NULL
          ? s24_text_soc_stats(&t, n->heap.net, &n->dev->engine, bd->ops->name, &n->soc)
          : s24_text_net_stats(&t, n->heap.net, &n->dev->engine,
                               (bd->ops->caps & S24_BACKEND_HW) ? &sim : NULL);
  pthread_mutex_unlock(&n->dev->lock);
  pthread_mutex_unlock(&n->lock);
  if (st == S24_OK && t.failed) st = S24_ERR_NOMEM;
  if (st == S24_OK) st = copy_text(t.buf != NULL ? t.buf : "", t.len, buf, len, needed);
  s24_text_free(&t);
  return st;
}

s24_status_t s24_api_net_stats(const s24_api_net_t *net, char *buf, size_t len, size_t *needed) {
  return net_text(net, 0, buf, len, needed);
}

s24_status_t s24_api_net_info(const s24_api_net_t *net, char *buf, size_t len, size_t *needed) {
  return net_text(net, 1, buf, len, needed);
}

s24_status_t s24_api_net_prune(const void *buf, size_t len, s24_pattern_t p, void *out,
                               size_t out_len, size_t *pruned, char *err, size_t errlen) {
  if (buf == NULL || out == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "%s is NULL", buf == NULL ? "the model" : "out");
  }
  if (out_len != len) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "out holds %zu bytes, the model has %zu", out_len,
                      len);
  }
  if (!s24_pattern_ok(p)) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "pattern %u:%u is not supported", (unsigned)p.n,
                      (unsigned)p.m);
  }
  if (!s24_tfl_is_tflite(buf, len)) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "not a TFLite model (no TFL3 identifier)");
  }
  size_t n = 0;
  const s24_status_t st = s24_net_prune_heap(buf, len, p, out, &n, err, errlen);
  if (st != S24_OK) return st;
  if (pruned != NULL) *pruned = n;
  return S24_OK;
}
