// sparse24 network engines (s24_engine.h): the array layers of a network on the C golden model
// or on the Verilated RTL through the host driver. Moved from tools/net.c so that the library
// and the command run networks through the same code.
#include "s24_engine.h"

#include <string.h>

#include "s24_layout.h"

static const s24_array_t kDefaultArray = S24_DEFAULT_ARRAY;

// The C golden model: s24_linear_ref with the layer's clamp and rounding.
static s24_status_t model_linear(void *ctx, const s24_net_layer_t *l, const int8_t *x, int8_t *y,
                                 uint64_t *cycles, uint64_t *job_cycles, char *err,
                                 size_t errlen) {
  (void)ctx;
  *cycles = 0;
  *job_cycles = 0;
  s24_status_t st = s24_linear_ref(x, l->n, l->w, l->m, l->k, l->bias, l->mult, l->shift, l->zi,
                                   l->zo, l->act_min, l->act_max, l->round, y);
  if (st != S24_OK) {
    snprintf(err, errlen, "operator %zu: model linear failed: %s", l->op, s24_strerror(st));
  }
  return st;
}

// the rtl engine's context is the s24_net_engine_t (sim, dev)
typedef s24_net_engine_t rtl_ctx_t;

static s24_status_t rtl_linear(void *ctx, const s24_net_layer_t *l, const int8_t *x, int8_t *y,
                               uint64_t *cycles, uint64_t *job_cycles, char *err,
                               size_t errlen) {
  rtl_ctx_t *r = ctx;
  s24_weights_t wt;
  s24_status_t st = s24_weights_load_dense(&r->dev, l->w, l->m, l->k, &wt);
  if (st == S24_OK) {
    const s24_linear_params_t prm = {.bias = l->bias,
                                     .mult = l->mult,
                                     .shift = l->shift,
                                     .zi = l->zi,
                                     .zo = l->zo,
                                     .act_min = l->act_min,
                                     .act_max = l->act_max,
                                     .round = l->round};
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
                          s24_dev_array(&r->dev),
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
