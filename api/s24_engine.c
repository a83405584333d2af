// sparse24 network engines (s24_engine.h): the array layers of a network on the C golden model
// or on the Verilated RTL through the host driver. Moved from tools/net.c so that the library
// and the command run networks through the same code.
#include "s24_engine.h"

#include <string.h>

#include "s24_layout.h"

static const s24_array_t kDefaultArray = S24_DEFAULT_ARRAY;

// A layer on the engine's backend (tools/backend.h): its dense W through the backend's linear op.
static s24_status_t backend_linear(void *ctx, const s24_net_layer_t *l, const int8_t *x,
                                   int8_t *y, uint64_t *cycles, uint64_t *job_cycles, char *err,
                                   size_t errlen) {
  s24_net_engine_t *e = ctx;
  const s24_linear_job_t job = {{1, 1}, x, l->n, l->w, NULL, NULL, l->m, l->k,
                                {.bias = l->bias,
                                 .mult = l->mult,
                                 .shift = l->shift,
                                 .zi = l->zi,
                                 .zo = l->zo,
                                 .act_min = l->act_min,
                                 .act_max = l->act_max,
                                 .round = l->round},
                                y};
  char msg[256];
  const s24_status_t st = e->backend->linear(&e->bdev, &job, msg, sizeof msg);
  if (st != S24_OK) {
    snprintf(err, errlen, "operator %zu: %s", l->op, msg);
    return st;
  }
  // the hardware's counters (all zero on the model)
  *cycles = e->bdev.dev.counters.cycles;
  *job_cycles = e->bdev.dev.counters.job_cycles;
  return S24_OK;
}

// ------------------------------------------------------------------ commands

s24_status_t s24_net_engine_open(s24_net_engine_t *e, s24_backend_t b, const s24_net_t *net,
                                 char *err, size_t errlen) {
  if (e == NULL || b == NULL || net == NULL || err == NULL || errlen == 0) return S24_ERR_ARG;
  memset(e, 0, sizeof *e);
  e->backend = b;
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
  s24_status_t st = b->open(&e->bdev, NULL, kmax, err, errlen);
  if (st != S24_OK) return st;
  e->open = 1;
  // the hardware: its own array and counters (its epilogue's size is read by the first
  // s24_linear); the model: the cycle model's default array
  const int hw = (b->caps & S24_BACKEND_HW) != 0;
  e->eng = (s24_engine_t){e,
                          backend_linear,
                          hw ? s24_dev_array(&e->bdev.dev) : kDefaultArray,
                          hw ? 0 : S24_DEFAULT_EPI_DEPTH,
                          hw ? 0 : S24_DEFAULT_HW_EPI_LANES,
                          hw,
                          b->name};
  return S24_OK;
}

s24_status_t s24_net_engine_stats(s24_net_engine_t *e, const s24_net_t *net, FILE *f) {
  if (e == NULL || net == NULL || f == NULL) return S24_ERR_ARG;
  const int hw = e->backend != NULL && (e->backend->caps & S24_BACKEND_HW) != 0;
  if (hw) {  // HW_EPI is read by the first s24_linear
    e->eng.epi_depth = e->bdev.dev.hw.epi_depth;
    e->eng.epi_lanes = e->bdev.dev.hw.epi_lanes;
  }
  s24_status_t st = s24_net_stats(net, &e->eng, f);
  if (st == S24_OK && hw) {
    fprintf(f, "sim_cycles: %llu\n", (unsigned long long)s24_rtl_sim_cycles(e->bdev.sim));
  }
  return st;
}

void s24_net_engine_close(s24_net_engine_t *e) {
  if (e == NULL) return;
  if (e->open) e->backend->close(&e->bdev);
  e->open = 0;
  e->eng.ctx = NULL;
}
