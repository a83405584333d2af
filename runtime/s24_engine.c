// SPDX-License-Identifier: Apache-2.0
// sparse24 network runtime: the model and device engines (s24_engine.h).
#include "s24_engine.h"

#include <stdio.h>  // snprintf only: no FILE
#include <string.h>

#include "s24_layout.h"

// ------------------------------------------------------------------ the golden model

// Rows of a CONV_2D's im2col the model builds before each s24_linear_ref call (not the whole
// im2col: no buffer of n x k bytes). On the SoC's CPU the row-by-row version took the magic wand
// 2.87 M cycles against 2.14 M with the whole im2col first; 16 rows a call alone gave 2.79 M, the
// rest was s24_conv_row's memcpy/memset call per tap of one channel (now a loop): 2.00 M.
#define MODEL_CONV_ROWS 16u

static size_t model_rows(const s24_net_layer_t *l) {
  if (l->conv.cs == 0) return 0;
  if (l->opcode != S24_OP_CONV_2D || l->ldy != l->m) return 1;  // a depthwise slice: row by row
  return l->n < MODEL_CONV_ROWS ? l->n : MODEL_CONV_ROWS;
}

// A convolution's state: model_rows rows of its im2col (k bytes each).
static s24_status_t model_layer_bytes(void *ctx, const s24_net_layer_t *l, size_t *bytes) {
  (void)ctx;
  *bytes = model_rows(l) * l->k;
  return S24_OK;
}

static s24_status_t model_prepare(void *ctx, const s24_net_layer_t *l, void *mem, size_t bytes,
                                  void **state, char *err, size_t errlen) {
  (void)ctx;
  (void)err;
  (void)errlen;
  if (l->conv.cs > 0 && (mem == NULL || bytes < model_rows(l) * l->k)) return S24_ERR_ARG;
  *state = mem;
  return S24_OK;
}

// X's rows; a CONV_2D's im2col MODEL_CONV_ROWS rows at a time and a depthwise slice's one row at
// a time, built in the state; y's rows ldy apart.
static s24_status_t model_linear(void *ctx, const s24_net_layer_t *l, void *state,
                                 const int8_t *x, int8_t *y, uint64_t *cycles,
                                 uint64_t *job_cycles, char *err, size_t errlen) {
  (void)ctx;
  *cycles = 0;
  *job_cycles = 0;
  s24_conv_src_t src = l->conv;
  src.x = x;
  s24_status_t st = S24_OK;
  const int dw = l->opcode == S24_OP_DEPTHWISE_CONV_2D;
  const size_t cs = (size_t)l->conv.cs, gr = l->conv.gr > 0 ? (size_t)l->conv.gr : l->m;
  if (dw && (cs == 0 || l->k % cs != 0 || gr != cs ||
             !s24_linear_params_ok(l->mult, l->shift, l->m, l->zi, l->zo, l->act_min,
                                   l->act_max, NULL))) {
    st = S24_ERR_ARG;  // (a window's rows are its channels)
  }
  const size_t chunk = model_rows(l);
  for (size_t p = 0; p < l->n && st == S24_OK; p++) {
    const int8_t *row = x + p * l->k;
    if (l->conv.cs > 0 && !dw) {  // a CONV_2D: chunk rows of the im2col, then one call
      const size_t rows = l->n - p < chunk ? l->n - p : chunk;
      for (size_t i = 0; i < rows; i++) s24_conv_row(&src, p + i, (int8_t *)state + i * l->k);
      st = s24_linear_ref(state, rows, l->w, l->m, l->k, l->bias, l->mult, l->shift, l->zi, l->zo,
                          l->act_min, l->act_max, l->round, y + p * l->ldy);
      p += rows - 1;
      continue;
    }
    if (dw) {  // a depthwise slice, window by window (its im2col row, then its rows):
      // s24_linear_ref's sums over the block diagonal's nonzeros only (row r's weights are zero
      // off columns t*cs + r % cs: the same sums modulo 2^32)
      const size_t taps = l->k / cs;
      for (size_t r0 = 0; r0 < l->m; r0 += gr) {
        s24_conv_src_t win = src;
        win.c0 = s24_conv_c0(&src, r0);
        win.gr = 0;
        s24_conv_row(&win, p, state);
        const int8_t *wrow = state;
        for (size_t r = r0; r < r0 + gr && r < l->m; r++) {
          uint32_t acc = l->bias != NULL ? (uint32_t)l->bias[r] : 0u;
          for (size_t t = 0; t < taps; t++) {
            acc += (uint32_t)((int32_t)l->w[r * l->k + t * cs + (r - r0)] *
                              ((int32_t)wrow[t * cs + (r - r0)] - l->zi));
          }
          int32_t a;
          memcpy(&a, &acc, sizeof a);
          y[p * l->ldy + r] =
              s24_requant(a, l->mult[r], l->shift[r], l->zo, l->act_min, l->act_max, l->round);
        }
      }
      continue;
    }
    if (l->conv.cs > 0) {
      s24_conv_row(&src, p, state);
      row = state;
    }
    st = s24_linear_ref(row, 1, l->w, l->m, l->k, l->bias, l->mult, l->shift, l->zi, l->zo,
                        l->act_min, l->act_max, l->round, y + p * l->ldy);
  }
  if (st != S24_OK) {
    return s24_errorf(st, err, errlen, "operator %zu: model linear failed: %s", l->op,
                      s24_strerror(st));
  }
  return S24_OK;
}

void s24_engine_model(s24_engine_t *e) {
  if (e == NULL) return;
  const s24_array_t hw = S24_DEFAULT_ARRAY;
  *e = (s24_engine_t){NULL,
                      model_layer_bytes,
                      model_prepare,
                      model_linear,
                      hw,
                      S24_DEFAULT_EPI_DEPTH,
                      S24_DEFAULT_HW_EPI_LANES,
                      0,
                      "model",
                      0,
                      0,
                      NULL,
                      NULL,
                      NULL};
}

// ------------------------------------------------------------------ a device

// A layer's fused parameters (s24_linear's), from its own arrays.
static s24_linear_params_t dev_params(const s24_net_layer_t *l) {
  return (s24_linear_params_t){l->bias,   l->mult,    l->shift,   l->zi,
                               l->zo,     l->act_min, l->act_max, l->round};
}

// A layer's state: the weights' struct (DEV_W bytes), its parameter words (s24_linear_prepare:
// 3 a row, made at load), then its beats.
#define DEV_W ((sizeof(s24_weights_t) + 15) / 16 * 16)
static size_t dev_head(const s24_net_layer_t *l) {
  return DEV_W + (3 * l->m * sizeof(uint32_t) + 15) / 16 * 16;
}

static s24_status_t dev_layer_bytes(void *ctx, const s24_net_layer_t *l, size_t *bytes) {
  s24_engine_dev_t *d = ctx;
  size_t b = 0;
  if (l->m > SIZE_MAX / 64) return S24_ERR_NOMEM;
  s24_status_t st = l->own_mode ? s24_weights_bytes_own(d->dev, l->w, l->m, l->k, &b)
                                : s24_weights_bytes(d->dev, l->w, l->m, l->k, &b);
  if (st != S24_OK) return st;
  if (b > SIZE_MAX - dev_head(l)) return S24_ERR_NOMEM;
  *bytes = dev_head(l) + b;
  return S24_OK;
}

static s24_status_t dev_prepare(void *ctx, const s24_net_layer_t *l, void *mem, size_t bytes,
                                void **state, char *err, size_t errlen) {
  s24_engine_dev_t *d = ctx;
  const size_t head = dev_head(l);
  if (mem == NULL || bytes < head) return s24_errorf(S24_ERR_ARG, err, errlen, "no memory");
  s24_weights_t *w = mem;
  uint8_t *const beats = (uint8_t *)mem + head;
  s24_status_t st = l->own_mode ? s24_weights_pack_own(d->dev, l->w, l->m, l->k, beats, bytes - head, w)
                                : s24_weights_pack(d->dev, l->w, l->m, l->k, beats, bytes - head, w);
  if (st != S24_OK) {
    return s24_errorf(st, err, errlen, "cannot pack the weights: %s", s24_strerror(st));
  }
  // the epilogue's parameter words, once (dev_linear passes these very arrays)
  const s24_linear_params_t prm = dev_params(l);
  uint32_t *table = (uint32_t *)(void *)((uint8_t *)mem + DEV_W);
  st = s24_linear_prepare(w, &prm, table, 3 * l->m);
  if (st != S24_OK) {
    return s24_errorf(st, err, errlen, "bad epilogue parameters: %s", s24_strerror(st));
  }
  // the seam's staging memory for the largest layer, asked for now: a seam that grows it
  // allocates at load, and a fixed one (firmware) says at load that it is too small
  const size_t need = s24_linear_scratch_bytes(d->dev, w);
  if (need == 0) return s24_errorf(S24_ERR_NOMEM, err, errlen, "the layer's beats overflow");
  if (need > d->scratch) {
    if (d->dev->seam.scratch(d->dev->seam.ctx, need) == NULL) {
      return s24_errorf(S24_ERR_NOMEM, err, errlen,
                        "the device has no %zu bytes of staging memory for its beats", need);
    }
    d->scratch = need;
  }
  *state = w;
  return S24_OK;
}

// The message of a failed layer on the device.
static s24_status_t dev_failed(const s24_dev_t *dev, const s24_net_layer_t *l, s24_status_t st,
                               char *err, size_t errlen) {
  if (st == S24_ERR_HW) {
    char bits[96];
    return s24_errorf(st, err, errlen, "operator %zu: device linear failed: hardware error (ERR = %s)",
                      l->op, s24_err_bits_str(dev->last_err, bits, sizeof bits));
  }
  return s24_errorf(st, err, errlen, "operator %zu: device linear failed: %s", l->op,
                    s24_strerror(st));
}

static s24_status_t dev_linear(void *ctx, const s24_net_layer_t *l, void *state,
                               const int8_t *x, int8_t *y, uint64_t *cycles,
                               uint64_t *job_cycles, char *err, size_t errlen) {
  s24_engine_dev_t *d = ctx;
  const s24_linear_params_t prm = dev_params(l);
  s24_conv_src_t src = l->conv;
  src.x = x;
  const s24_status_t st = l->conv.cs > 0 ? s24_linear_conv(d->dev, state, &src, &prm, y, l->ldy)
                                         : s24_linear(d->dev, state, x, l->n, &prm, y);
  if (st != S24_OK) return dev_failed(d->dev, l, st, err, errlen);
  *cycles = d->dev->counters.cycles;
  *job_cycles = d->dev->counters.job_cycles;
  return S24_OK;
}

static s24_status_t dev_add(void *ctx, const s24_add_job_t *job, char *err, size_t errlen) {
  s24_engine_dev_t *d = ctx;
  const s24_status_t st = s24_dev_add(d->dev, job);
  if (st == S24_OK || st == S24_ERR_UNSUPPORTED) return st;
  return s24_errorf(st, err, errlen, "the device's add unit failed: %s", s24_strerror(st));
}

static s24_status_t dev_quant(void *ctx, const s24_quant_job_t *job, size_t *done, char *err,
                              size_t errlen) {
  s24_engine_dev_t *d = ctx;
  const s24_status_t st = s24_dev_quant(d->dev, job, done);
  if (st == S24_OK || st == S24_ERR_UNSUPPORTED) return st;
  return s24_errorf(st, err, errlen, "the device's quantize unit failed: %s", s24_strerror(st));
}

static void dev_cpu_touch(void *ctx) {
  s24_engine_dev_t *d = ctx;
  s24_dev_cpu_touch(d->dev);
}

s24_status_t s24_engine_device(s24_engine_t *e, s24_engine_dev_t *state, s24_dev_t *dev,
                               const char *name) {
  if (e == NULL || state == NULL || dev == NULL || !dev->is_open) return S24_ERR_ARG;
  const s24_status_t st = s24_dev_probe_epi(dev);
  if (st != S24_OK) return st;
  memset(state, 0, sizeof(*state));
  state->dev = dev;
  *e = (s24_engine_t){state,
                      dev_layer_bytes,
                      dev_prepare,
                      dev_linear,
                      s24_dev_array(dev),
                      dev->hw.epi_depth,
                      dev->hw.epi_lanes,
                      1,
                      name != NULL ? name : "device",
                      s24_dev_conv_channels(dev),
                      1,
                      dev_add,
                      dev_cpu_touch,
                      dev_quant};
  return S24_OK;
}
