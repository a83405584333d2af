// sparse24 public C API (include/sparse24.h) over the parts that do the work: the C golden model
// (cmodel/), the backend table of the command (tools/backend.h: each backend's ops),
// the host driver's fused layer (s24_linear) and the network runtime with its engines
// (runtime/s24_net.h, api/s24_engine.h). This file checks arguments, turns every failure into a
// status and one line naming what and where, and keeps the numbers of the last call.
#include "sparse24.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "s24_drv.h"
#include "s24_engine.h"
#include "s24_layout.h"
#include "s24_net.h"
#include "s24_tflite.h"

struct s24_api_dev {
  s24_backend_t backend;
  s24_api_stats_t stats;  // of the last successful call
  char *text;             // `key: value` lines of the last gemm (NULL: none)
  size_t text_len;
};

struct s24_api_net {
  uint8_t *buf;            // the library's copy of the file (s24_net_t points into it)
  size_t len;
  s24_net_t *net;          // the network of the last run (fresh for each run: its statistics)
  char *stats;             // s24_net_engine_stats of the last run (NULL: none yet)
  size_t stats_len;
  s24_api_net_totals_t totals;
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

// Checks a pattern and that k is a multiple of its m; `what` names the operand.
static s24_status_t check_pattern_k(s24_pattern_t p, size_t k, const char *what, char *err,
                                    size_t errlen) {
  if (!s24_pattern_ok(p)) {
    return s24_errorf(S24_ERR_ARG, err, errlen,
                "pattern %u:%u is not supported (N:M with M in {2, 4, 8} and 1 <= N <= M)",
                (unsigned)p.n, (unsigned)p.m);
  }
  if (k % p.m != 0) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "%s: K = %zu is not a multiple of m = %u (pattern %u:%u)",
                what, k, (unsigned)p.m, (unsigned)p.n, (unsigned)p.m);
  }
  return S24_OK;
}

static s24_status_t pattern_fail(s24_pattern_t p, s24_where_t w, const char *what, char *err,
                                 size_t errlen) {
  return s24_errorf(S24_ERR_PATTERN, err, errlen,
              "%s: row %zu, group %zu (columns %zu..%zu) has %u nonzeros, pattern %u:%u allows %u "
              "(prune first)",
              what, w.row, w.group, w.group * p.m, w.group * p.m + p.m - 1, (unsigned)w.count,
              (unsigned)p.n, (unsigned)p.m, (unsigned)p.n);
}

// Validates metadata (m rows, reduction length k), naming the row, the group and the fault.
static s24_status_t check_meta(s24_pattern_t p, const uint8_t *meta, size_t m, size_t k,
                               const char *what, char *err, size_t errlen) {
  s24_where_t w;
  const s24_status_t st = s24_meta_validate(p, meta, m, k, &w);
  if (st != S24_ERR_META) {
    return st == S24_OK ? S24_OK
                        : s24_errorf(st, err, errlen, "%s: %s", what, s24_strerror(st));
  }
  if (w.count == S24_WHERE_PADDING) {
    return s24_errorf(st, err, errlen,
                "%s: row %zu, group %zu: nonzero unused metadata bits after the last index", what,
                w.row, w.group);
  }
  const uint8_t *row = meta + w.row * s24_meta_cols(p, k);
  const size_t slot = w.group * p.n + w.count;
  const unsigned idx = s24_meta_get(p, row, slot);
  if (idx >= p.m) {
    return s24_errorf(st, err, errlen, "%s: row %zu, group %zu: metadata index %u is out of range (m = %u)",
                what, w.row, w.group, idx, (unsigned)p.m);
  }
  return s24_errorf(st, err, errlen,
              "%s: row %zu, group %zu: invalid metadata, index %u follows index %u (indices must "
              "strictly increase)",
              what, w.row, w.group, idx, w.count > 0 ? s24_meta_get(p, row, slot - 1) : 0u);
}

// ------------------------------------------------------------------ devices

uint32_t s24_api_version(void) { return S24_API_VERSION; }

s24_status_t s24_api_open(const char *backend, s24_api_dev_t **out, char *err, size_t errlen) {
  if (out == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "no place for the device handle (out)");
  *out = NULL;
  s24_backend_t b;
  if (backend == NULL || s24_backend_parse(backend, &b) != S24_OK) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "unknown backend '%s' (model or rtl)",
                backend ? backend : "(null)");
  }
  char msg[S24_API_ERRLEN];
  s24_status_t st = s24_backend_check(b, msg, sizeof msg);
  if (st != S24_OK) return s24_errorf(st, err, errlen, "%s", msg);
  s24_api_dev_t *d = calloc(1, sizeof *d);
  if (d == NULL) return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory for a device");
  d->backend = b;
  *out = d;
  return S24_OK;
}

void s24_api_close(s24_api_dev_t *dev) {
  if (dev == NULL) return;
  free(dev->text);
  free(dev);
}

const char *s24_api_backend(const s24_api_dev_t *dev) {
  return dev != NULL ? s24_backend_name(dev->backend) : "none";
}

s24_status_t s24_api_stats(const s24_api_dev_t *dev, s24_api_stats_t *out) {
  if (dev == NULL || out == NULL) return S24_ERR_ARG;
  *out = dev->stats;
  return S24_OK;
}

s24_status_t s24_api_stats_text(const s24_api_dev_t *dev, char *buf, size_t len, size_t *needed) {
  if (dev == NULL) return S24_ERR_ARG;
  return copy_text(dev->text, dev->text_len, buf, len, needed);
}

// Forgets the numbers of the previous call.
static void stats_reset(s24_api_dev_t *dev) {
  memset(&dev->stats, 0, sizeof dev->stats);
  free(dev->text);
  dev->text = NULL;
  dev->text_len = 0;
}

// ------------------------------------------------------------------ GEMM

static s24_status_t check_gemm_args(const s24_api_dev_t *dev, const void *a, size_t m, size_t k,
                                    const int8_t *b, size_t n, const int32_t *c, char *err,
                                    size_t errlen) {
  if (dev == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "no device");
  if (a == NULL || b == NULL || c == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "%s is NULL", a == NULL ? "A" : b == NULL ? "B" : "C");
  }
  if (m == 0 || k == 0 || n == 0) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "shape M x K x N = %zu x %zu x %zu has a zero", m, k, n);
  }
  if (mul3(m, k, 1) == 0 || mul3(k, n, 1) == 0 || mul3(m, n, sizeof(int32_t)) == 0) {
    return s24_errorf(S24_ERR_NOMEM, err, errlen, "shape M x K x N = %zu x %zu x %zu is too large", m,
                k, n);
  }
  return S24_OK;
}

// Runs a job through the backend seam and keeps its numbers.
static s24_status_t run_gemm(s24_api_dev_t *dev, s24_gemm_job_t *job, char *err, size_t errlen) {
  stats_reset(dev);
  char *text = NULL;
  size_t text_len = 0;
  FILE *f = open_memstream(&text, &text_len);
  if (f == NULL) return s24_errorf(S24_ERR_NOMEM, err, errlen, "cannot buffer the statistics");
  s24_run_stats_t run;
  memset(&run, 0, sizeof run);
  job->run = &run;
  s24_where_t where;
  char msg[S24_API_ERRLEN];
  msg[0] = '\0';
  const s24_status_t st = s24_backend_gemm(dev->backend, job, f, &where, msg, sizeof msg);
  fclose(f);
  if (st != S24_OK) {
    free(text);
    return s24_errorf(st, err, errlen, "%s", msg[0] ? msg : s24_strerror(st));
  }
  dev->text = text;
  dev->text_len = text_len;
  dev->stats.macs_dense = (uint64_t)job->m_rows * job->k * job->n_cols;
  dev->stats.cycles = run.cycles;
  dev->stats.beats = run.beats;
  dev->stats.stall_w = run.stall_w;
  dev->stats.stall_a = run.stall_a;
  dev->stats.stall_r = run.stall_r;
  dev->stats.sim_cycles = run.sim_cycles;
  dev->stats.utilization = run.utilization;
  return S24_OK;
}

// A whose arguments are checked, compressed (values, meta) or dense (a; unpruned: any values):
// the job through the backend seam.
static s24_status_t gemm_job(s24_api_dev_t *dev, s24_pattern_t pattern, const int8_t *values,
                             const uint8_t *meta, const int8_t *a, int unpruned, size_t m,
                             size_t k, const int8_t *b, size_t n, const int32_t *c0, int32_t *c,
                             char *err, size_t errlen) {
  s24_gemm_job_t job;
  memset(&job, 0, sizeof job);
  job.pattern = pattern;
  job.values = values;
  job.meta = meta;
  job.a_dense = a;
  job.unpruned = unpruned;
  job.m_rows = m;
  job.k = k;
  job.b = b;
  job.n_cols = n;
  job.c0 = c0;
  job.c = c;
  return run_gemm(dev, &job, err, errlen);
}

s24_status_t s24_api_gemm_compressed(s24_api_dev_t *dev, s24_pattern_t pattern,
                                     const int8_t *values, const uint8_t *meta, size_t m,
                                     size_t k, const int8_t *b, size_t n, const int32_t *c0,
                                     int32_t *c, char *err, size_t errlen) {
  s24_status_t st = check_gemm_args(dev, values, m, k, b, n, c, err, errlen);
  if (st != S24_OK) return st;
  if (meta == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "A metadata is NULL");
  if ((st = check_pattern_k(pattern, k, "A", err, errlen)) != S24_OK) return st;
  if ((st = check_meta(pattern, meta, m, k, "A metadata", err, errlen)) != S24_OK) return st;
  return gemm_job(dev, pattern, values, meta, NULL, 0, m, k, b, n, c0, c, err, errlen);
}

s24_status_t s24_api_gemm(s24_api_dev_t *dev, const s24_pattern_t *pattern, const int8_t *a,
                          size_t m, size_t k, const int8_t *b, size_t n, const int32_t *c0,
                          int32_t *c, char *err, size_t errlen) {
  s24_status_t st = check_gemm_args(dev, a, m, k, b, n, c, err, errlen);
  if (st != S24_OK) return st;
  if (pattern == NULL) {  // any values: dense A on the sparse core
    return gemm_job(dev, (s24_pattern_t){1, 1}, NULL, NULL, a, 1, m, k, b, n, c0, c, err, errlen);
  }
  const s24_pattern_t p = *pattern;
  if ((st = check_pattern_k(p, k, "A", err, errlen)) != S24_OK) return st;
  // as `sparse24 gemm`: the pattern checked (naming row and group), then A as it is to the
  // backend (no compressed copy that the driver would only expand again)
  s24_where_t w;
  if ((st = s24_check_pattern(p, a, m, k, &w)) == S24_ERR_PATTERN) {
    return pattern_fail(p, w, "A", err, errlen);
  } else if (st != S24_OK) {
    return s24_errorf(st, err, errlen, "A: %s", s24_strerror(st));
  }
  return gemm_job(dev, p, NULL, NULL, a, 0, m, k, b, n, c0, c, err, errlen);
}

// ------------------------------------------------------------------ fused int8 layer

static s24_status_t check_linear_args(const s24_api_dev_t *dev, const int8_t *x, size_t batch,
                                      const void *w, size_t m, size_t k,
                                      const s24_api_linear_params_t *prm, const int8_t *y,
                                      char *err, size_t errlen) {
  if (dev == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "no device");
  if (x == NULL || w == NULL || y == NULL || prm == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "%s is NULL",
                x == NULL ? "X" : w == NULL ? "W" : y == NULL ? "Y" : "the parameters");
  }
  if (prm->mult == NULL || prm->shift == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "%s is NULL", prm->mult == NULL ? "MULT" : "SHIFT");
  }
  if (batch == 0 || m == 0 || k == 0) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "shape B x K x M = %zu x %zu x %zu has a zero", batch,
                k, m);
  }
  if (mul3(batch, k, 1) == 0 || mul3(m, k, 1) == 0 || mul3(batch, m, 1) == 0) {
    return s24_errorf(S24_ERR_NOMEM, err, errlen, "shape B x K x M = %zu x %zu x %zu is too large",
                batch, k, m);
  }
  size_t bad = 0;
  const int32_t lo = prm->relu ? (prm->zo > -128 ? prm->zo : -128) : -128;
  if (!s24_linear_params_ok(prm->mult, prm->shift, m, prm->zi, prm->zo, lo, 127, &bad)) {
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

// The clamp's low end of the public API's relu flag: max(-128, ZO) with it, -128 without.
static int32_t relu_lo(const s24_api_linear_params_t *prm) {
  return prm->relu ? (prm->zo > -128 ? prm->zo : -128) : -128;
}

// The layer on dev's backend, as `sparse24 linear` runs it: wd is the dense W (model, and rtl
// without values); values/meta (pattern p) the compressed one the rtl device loads if given.
static s24_status_t run_linear(s24_api_dev_t *dev, s24_pattern_t p, const int8_t *x,
                               size_t batch, const int8_t *wd, const int8_t *values,
                               const uint8_t *meta, size_t m, size_t k,
                               const s24_api_linear_params_t *prm, int8_t *y, char *err,
                               size_t errlen) {
  stats_reset(dev);
  const s24_backend_t b = dev->backend;
  char msg[S24_API_ERRLEN];
  s24_bdev_t d;
  s24_status_t st = b->open(&d, NULL, k, msg, sizeof msg);
  if (st != S24_OK) return s24_errorf(st, err, errlen, "%s linear: %s", b->name, msg);
  // the model runs the dense W; the hardware loads the compressed one if given
  const s24_linear_job_t job = {p, x, batch, wd, values, meta, m, k,
                                {.bias = prm->bias,
                                 .mult = prm->mult,
                                 .shift = prm->shift,
                                 .zi = prm->zi,
                                 .zo = prm->zo,
                                 .act_min = relu_lo(prm),
                                 .act_max = 127,
                                 .round = S24_ROUND_SINGLE},
                                y};
  st = b->linear(&d, &job, msg, sizeof msg);
  if (st != S24_OK) {
    s24_errorf(st, err, errlen, "%s", msg);
  } else if (b->caps & S24_BACKEND_HW) {  // the hardware's counters
    const s24_counters_t *c = &d.dev.counters;
    const s24_hw_info_t *hw = &d.dev.hw;
    const double peak = (double)hw->rows * hw->cols * hw->sparse_m;
    dev->stats.macs_dense = c->macs_dense;
    dev->stats.cycles = c->cycles;
    dev->stats.job_cycles = c->job_cycles;
    dev->stats.beats = c->beats;
    dev->stats.stall_w = c->stall_w;
    dev->stats.stall_a = c->stall_a;
    dev->stats.stall_r = c->stall_r;
    dev->stats.hw_jobs = c->jobs;
    dev->stats.tiles = c->tiles;
    dev->stats.sim_cycles = s24_rtl_sim_cycles(d.sim);
    dev->stats.utilization =
        (double)c->macs_dense / ((c->job_cycles ? (double)c->job_cycles : 1.0) * peak);
  } else {
    dev->stats.macs_dense = (uint64_t)batch * k * m;
  }
  b->close(&d);
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
    if ((st = check_pattern_k(p, k, "W", err, errlen)) != S24_OK) return st;
    s24_where_t where;
    if (s24_check_pattern(p, w, m, k, &where) != S24_OK) {
      return pattern_fail(p, where, "W", err, errlen);
    }
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
  if ((st = check_meta(pattern, meta, m, k, "W metadata", err, errlen)) != S24_OK) return st;
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
    return s24_errorf(S24_ERR_NOMEM, err, errlen, "%s: shape (%zu, %zu) is too large", what, rows, k);
  }
  return check_pattern_k(p, k, what, err, errlen);
}

s24_status_t s24_api_prune(s24_pattern_t p, const int8_t *a, size_t rows, size_t k, int8_t *out,
                           char *err, size_t errlen) {
  s24_status_t st = check_matrix(p, a, rows, k, out, "A", err, errlen);
  if (st != S24_OK) return st;
  st = s24_prune(p, a, rows, k, out);
  return st == S24_OK ? st : s24_errorf(st, err, errlen, "prune: %s", s24_strerror(st));
}

s24_status_t s24_api_compress(s24_pattern_t p, const int8_t *a, size_t rows, size_t k,
                              int8_t *values, uint8_t *meta, char *err, size_t errlen) {
  s24_status_t st = check_matrix(p, a, rows, k, values, "A", err, errlen);
  if (st != S24_OK) return st;
  if (meta == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "the metadata output is NULL");
  s24_where_t w;
  st = s24_compress(p, a, rows, k, values, meta, &w);
  if (st == S24_ERR_PATTERN) return pattern_fail(p, w, "A", err, errlen);
  return st == S24_OK ? st : s24_errorf(st, err, errlen, "compress: %s", s24_strerror(st));
}

s24_status_t s24_api_decompress(s24_pattern_t p, const int8_t *values, const uint8_t *meta,
                                size_t rows, size_t k, int8_t *out, char *err, size_t errlen) {
  s24_status_t st = check_matrix(p, values, rows, k, out, "values", err, errlen);
  if (st != S24_OK) return st;
  if (meta == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "the metadata is NULL");
  if ((st = check_meta(p, meta, rows, k, "metadata", err, errlen)) != S24_OK) return st;
  s24_where_t w;
  st = s24_decompress(p, values, meta, rows, k, out, &w);
  return st == S24_OK ? st : s24_errorf(st, err, errlen, "decompress: %s", s24_strerror(st));
}

// ------------------------------------------------------------------ networks

s24_status_t s24_api_net_load(const void *buf, size_t len, s24_api_net_t **out, char *err,
                              size_t errlen) {
  if (out == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "no place for the network (out)");
  *out = NULL;
  if (buf == NULL || len == 0) return s24_errorf(S24_ERR_ARG, err, errlen, "empty model");
  if (!s24_tfl_is_tflite(buf, len)) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "not a TFLite model (no TFL3 identifier)");
  }
  s24_api_net_t *n = calloc(1, sizeof *n);
  uint8_t *copy = malloc(len);
  if (n == NULL || copy == NULL) {
    free(n);
    free(copy);
    return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory for a model of %zu bytes", len);
  }
  memcpy(copy, buf, len);
  char msg[S24_API_ERRLEN];
  const s24_status_t st = s24_net_load(copy, len, &n->net, msg, sizeof msg);
  if (st != S24_OK) {
    free(copy);
    free(n);
    return s24_errorf(st, err, errlen, "%s", msg);
  }
  n->buf = copy;
  n->len = len;
  *out = n;
  return S24_OK;
}

void s24_api_net_free(s24_api_net_t *net) {
  if (net == NULL) return;
  s24_net_free(net->net);
  free(net->stats);
  free(net->buf);
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
  if (in != NULL) tensor_info(s24_net_input(net->net), in);
  if (out != NULL) tensor_info(s24_net_output(net->net), out);
  return S24_OK;
}

s24_status_t s24_api_net_run(s24_api_dev_t *dev, s24_api_net_t *net, const void *x, size_t x_len,
                             size_t batch, void *y, size_t y_len, char *err, size_t errlen) {
  if (dev == NULL || net == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "no %s", dev == NULL ? "device" : "network");
  }
  if (x == NULL || y == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "%s is NULL", x ? "Y" : "X");
  const s24_tfl_tensor_t *tin = s24_net_input(net->net), *tout = s24_net_output(net->net);
  if (batch == 0) return s24_errorf(S24_ERR_ARG, err, errlen, "batch 0: nothing to run");
  if (batch > SIZE_MAX / tin->bytes || x_len != batch * tin->bytes) {
    return s24_errorf(S24_ERR_ARG, err, errlen,
                "X holds %zu bytes; %zu inferences of the input tensor (%zu bytes each) need %zu",
                x_len, batch, tin->bytes, batch <= SIZE_MAX / tin->bytes ? batch * tin->bytes : 0);
  }
  if (batch > SIZE_MAX / tout->bytes || y_len != batch * tout->bytes) {
    return s24_errorf(S24_ERR_ARG, err, errlen,
                "Y holds %zu bytes; %zu inferences of the output tensor (%zu bytes each) need %zu",
                y_len, batch, tout->bytes,
                batch <= SIZE_MAX / tout->bytes ? batch * tout->bytes : 0);
  }
  // a fresh network for the run, so that its statistics are this run's (as the command's)
  char msg[S24_API_ERRLEN];
  s24_net_t *fresh = NULL;
  s24_status_t st = s24_net_load(net->buf, net->len, &fresh, msg, sizeof msg);
  if (st != S24_OK) return s24_errorf(st, err, errlen, "%s", msg);
  s24_net_engine_t eng;
  st = s24_net_engine_open(&eng, dev->backend, fresh, msg, sizeof msg);
  if (st != S24_OK) {
    s24_net_free(fresh);
    return s24_errorf(st, err, errlen, "%s", msg);
  }
  for (size_t b = 0; b < batch && st == S24_OK; b++) {
    st = s24_net_run(fresh, &eng.eng, (const uint8_t *)x + b * tin->bytes,
                     (uint8_t *)y + b * tout->bytes, msg, sizeof msg);
    if (st != S24_OK) s24_errorf(st, err, errlen, "inference %zu: %s", b, msg);
  }
  char *text = NULL;
  size_t text_len = 0;
  s24_net_totals_t t;
  memset(&t, 0, sizeof t);
  if (st == S24_OK) {
    FILE *f = open_memstream(&text, &text_len);
    if (f == NULL || s24_net_engine_stats(&eng, fresh, f) != S24_OK ||
        s24_net_totals(fresh, &eng.eng, &t) != S24_OK) {
      st = s24_errorf(S24_ERR_NOMEM, err, errlen, "cannot compute the statistics");
    }
    if (f != NULL) fclose(f);
  }
  s24_net_engine_close(&eng);
  if (st != S24_OK) {
    free(text);
    s24_net_free(fresh);
    return st;
  }
  s24_net_free(net->net);
  net->net = fresh;
  free(net->stats);
  net->stats = text;
  net->stats_len = text_len;
  net->totals = (s24_api_net_totals_t){t.inferences, t.ip_macs,    t.host_macs,
                                       t.cycles,     t.job_cycles, t.predicted_cycles};
  return S24_OK;
}

s24_status_t s24_api_net_totals(const s24_api_net_t *net, s24_api_net_totals_t *out) {
  if (net == NULL || out == NULL) return S24_ERR_ARG;
  *out = net->totals;
  return S24_OK;
}

s24_status_t s24_api_net_stats(const s24_api_net_t *net, char *buf, size_t len, size_t *needed) {
  if (net == NULL) return S24_ERR_ARG;
  return copy_text(net->stats, net->stats_len, buf, len, needed);
}

s24_status_t s24_api_net_info(const s24_api_net_t *net, char *buf, size_t len, size_t *needed) {
  if (net == NULL) return S24_ERR_ARG;
  static const s24_array_t hw = S24_DEFAULT_ARRAY;
  char *text = NULL;
  size_t text_len = 0;
  FILE *f = open_memstream(&text, &text_len);
  if (f == NULL) return S24_ERR_NOMEM;
  s24_status_t st = s24_net_info(net->net, hw, S24_DEFAULT_EPI_DEPTH, S24_DEFAULT_HW_EPI_LANES, f);
  fclose(f);
  if (st == S24_OK) st = copy_text(text, text_len, buf, len, needed);
  free(text);
  return st;
}

size_t s24_api_net_file_len(const s24_api_net_t *net) { return net != NULL ? net->len : 0; }

s24_status_t s24_api_net_prune(const s24_api_net_t *net, s24_pattern_t p, void *out,
                               size_t out_len, size_t *pruned, char *err, size_t errlen) {
  if (net == NULL || out == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "%s is NULL", net == NULL ? "the network" : "out");
  }
  if (out_len != net->len) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "out holds %zu bytes, the model has %zu", out_len,
                net->len);
  }
  if (!s24_pattern_ok(p)) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "pattern %u:%u is not supported", (unsigned)p.n,
                (unsigned)p.m);
  }
  size_t n = 0;
  char msg[S24_API_ERRLEN];
  const s24_status_t st = s24_net_prune(net->net, p, out, &n, msg, sizeof msg);
  if (st != S24_OK) return s24_errorf(st, err, errlen, "%s", msg);
  if (pruned != NULL) *pruned = n;
  return S24_OK;
}
