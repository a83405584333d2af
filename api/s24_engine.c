// sparse24 network engines (s24_engine.h): the array layers of a network on the C golden model
// or on the Verilated RTL through the host driver. Moved from tools/net.c so that the library
// and the command run networks through the same code.
#include "s24_engine.h"

#include <string.h>

#include "s24_layout.h"

static const s24_array_t kDefaultArray = S24_DEFAULT_ARRAY;

// gemmlowp's SaturatingRoundingDoublingHighMul then RoundingDivideByPOT (TFLite's
// MultiplyByQuantizedMultiplier without TFLITE_SINGLE_ROUNDING), as LiteRT's reference CONV_2D
// requantizes. TEMPORARY until the epilogue's rounding mode lands in the C model.
static int32_t requant_double(int32_t acc, int32_t q, int32_t shift) {
  const int ls = shift > 0 ? shift : 0, rs = shift > 0 ? 0 : -shift;
  const int32_t x = (int32_t)(uint32_t)((uint64_t)(uint32_t)acc << ls);
  const int64_t ab = (int64_t)x * q;
  const int64_t v = ab + (ab >= 0 ? (1ll << 30) : 1 - (1ll << 30));
  const int64_t h64 = v >= 0 ? v / (1ll << 31) : -((-v) / (1ll << 31));
  const int32_t h = (int32_t)h64;  // |x*q| < 2^62: no saturation case (q >= 0)
  if (rs == 0) return h;
  const int32_t mask = (int32_t)((1u << rs) - 1u);
  const int32_t rem = h & mask, th = (mask >> 1) + (h < 0);
  const int32_t fl = h >= 0 ? h >> rs : -((-(h + 1)) >> rs) - 1;  // floor
  return fl + (rem > th);
}

// The C golden model: s24_linear_ref, then the activation's range (a clamp inside
// [-128, 127] after the one to [-128, 127] is the clamp to the range).
static s24_status_t model_linear(void *ctx, const s24_net_layer_t *l, const int8_t *x, int8_t *y,
                                 uint64_t *cycles, uint64_t *job_cycles, char *err,
                                 size_t errlen) {
  (void)ctx;
  *cycles = 0;
  *job_cycles = 0;
  if (l->round_double) {
    for (size_t b = 0; b < l->n; b++) {
      for (size_t c = 0; c < l->m; c++) {
        uint32_t acc = (uint32_t)l->bias[c];
        for (size_t i = 0; i < l->k; i++) {
          acc += (uint32_t)((int32_t)l->w[c * l->k + i] * ((int32_t)x[b * l->k + i] - l->zi));
        }
        int64_t r = (int64_t)requant_double((int32_t)acc, l->mult[c], l->shift[c]) + l->zo;
        if (r < l->act_min) r = l->act_min;
        if (r > l->act_max) r = l->act_max;
        y[b * l->m + c] = (int8_t)r;
      }
    }
    return S24_OK;
  }
  s24_status_t st = s24_linear_ref(x, l->n, l->w, l->m, l->k, l->bias, l->mult, l->shift, l->zi,
                                   l->zo, 0, y);
  if (st != S24_OK) {
    snprintf(err, errlen, "operator %zu: model linear failed: %s", l->op, s24_strerror(st));
    return st;
  }
  for (size_t i = 0; i < l->n * l->m; i++) {
    if (y[i] < l->act_min) y[i] = (int8_t)l->act_min;
    if (y[i] > l->act_max) y[i] = (int8_t)l->act_max;
  }
  return S24_OK;
}

// the rtl engine's context is the s24_net_engine_t (sim, dev)
typedef s24_net_engine_t rtl_ctx_t;

static s24_status_t rtl_linear(void *ctx, const s24_net_layer_t *l, const int8_t *x, int8_t *y,
                               uint64_t *cycles, uint64_t *job_cycles, char *err,
                               size_t errlen) {
  rtl_ctx_t *r = ctx;
  if (l->round_double) {
    snprintf(err, errlen, "operator %zu: CONV_2D needs the epilogue's double rounding", l->op);
    return S24_ERR_UNSUPPORTED;
  }
  const int relu_lo = l->zo > -128 ? l->zo : -128;
  if (l->act_max != 127 || (l->act_min != -128 && l->act_min != relu_lo)) {
    snprintf(err, errlen,
             "operator %zu: activation range [%d, %d] needs the epilogue's programmable clamp",
             l->op, (int)l->act_min, (int)l->act_max);
    return S24_ERR_UNSUPPORTED;
  }
  s24_weights_t wt;
  s24_status_t st = s24_weights_load_dense(&r->dev, l->w, l->m, l->k, &wt);
  if (st == S24_OK) {
    const s24_linear_params_t prm = {l->bias, l->mult, l->shift, l->zi, l->zo,
                                     l->act_min != -128};
    st = s24_linear(&r->dev, &wt, x, l->n, &prm, y);
    s24_weights_free(&wt);
  }
  if (st == S24_ERR_HW) {
    char bits[96];
    snprintf(err, errlen, "operator %zu: rtl linear failed: hardware error (ERR = %s)", l->op,
             s24_err_bits_str(r->dev.last_err, bits, sizeof bits));
    return st;
  }
  if (st != S24_OK) {
    snprintf(err, errlen, "operator %zu: rtl linear failed: %s", l->op, s24_strerror(st));
    return st;
  }
  *cycles = r->dev.counters.cycles;
  *job_cycles = r->dev.counters.job_cycles;
  return S24_OK;
}

// ------------------------------------------------------------------ commands

s24_status_t s24_net_engine_open(s24_net_engine_t *e, s24_backend_t b, const s24_net_t *net,
                                 char *err, size_t errlen) {
  if (e == NULL || net == NULL || err == NULL || errlen == 0) return S24_ERR_ARG;
  memset(e, 0, sizeof *e);
  e->backend = b;
  e->eng = (s24_engine_t){NULL,  model_linear, kDefaultArray, S24_DEFAULT_EPI_DEPTH,
                          S24_DEFAULT_EPI_LANES, 0, "model"};
  switch (b) {
    case S24_BACKEND_MODEL:
      return S24_OK;
    case S24_BACKEND_RTL:
      break;
    default:
      snprintf(err, errlen, "backend '%s' cannot run a network", s24_backend_name(b));
      return S24_ERR_UNSUPPORTED;
  }
  size_t kmax = 1;
  const s24_tfl_model_t *m = s24_net_model(net);
  for (size_t i = 0; i < m->n_ops; i++) {
    const s24_tfl_op_t *op = &m->ops[i];
    if (op->opcode == S24_OP_FULLY_CONNECTED || op->opcode == S24_OP_CONV_2D) {
      const s24_tfl_tensor_t *w = &m->tensors[op->in[1]];
      const size_t k = w->elems / (size_t)w->dims[0];
      if (k > kmax) kmax = k;
    }
  }
  rtl_ctx_t *r = e;
  s24_status_t st = s24_rtl_open(NULL, kmax, &r->sim, &r->dev, err, errlen);
  if (st != S24_OK) return st;
  e->eng = (s24_engine_t){r,
                          rtl_linear,
                          {r->dev.hw.rows, r->dev.hw.cols, r->dev.hw.sparse_n,
                           r->dev.hw.sparse_m},
                          0,
                          0,
                          1,
                          "rtl"};
  return S24_OK;
}

s24_status_t s24_net_engine_stats(s24_net_engine_t *e, const s24_net_t *net, FILE *f) {
  if (e == NULL || net == NULL || f == NULL) return S24_ERR_ARG;
  rtl_ctx_t *r = e->eng.ctx;
  if (r != NULL) {  // HW_EPI is read by the first s24_linear
    e->eng.epi_depth = r->dev.hw.epi_depth;
    e->eng.epi_lanes = r->dev.hw.epi_lanes;
  }
  s24_status_t st = s24_net_stats(net, &e->eng, f);
  if (st == S24_OK && r != NULL) {
    fprintf(f, "sim_cycles: %llu\n", (unsigned long long)s24_rtl_sim_cycles(r->sim));
  }
  return st;
}

void s24_net_engine_close(s24_net_engine_t *e) {
  if (e == NULL) return;
  rtl_ctx_t *r = e->eng.ctx;
  if (r != NULL) {
    s24_dev_close(&r->dev);
    s24_rtl_close(r->sim);
  }
  e->eng.ctx = NULL;
  e->sim = NULL;
}
