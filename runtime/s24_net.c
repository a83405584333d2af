// SPDX-License-Identifier: Apache-2.0
// sparse24 network runtime: the graph executor and its memory planner (SPEC §8). See s24_net.h.
#include "s24_net.h"

#include <math.h>
#include <stdio.h>  // snprintf only: no FILE
#include <stdlib.h>  // qsort
#include <string.h>

#include "s24_layout.h"
#include "s24_op_versions.h"
#include "s24_ops.h"

// An array layer as planned at load time, plus its statistics. FULLY_CONNECTED and CONV_2D are
// one engine call an inference (n_sl 1, sl == &l). A DEPTHWISE_CONV_2D (depth multiplier 1) is
// one call for its channels in windows of `slice` (a tile's rows) and, if they do not divide,
// one more for the rest (n_sl 1 or 2): a window is the CONV_2D of its channels on themselves
// with the block-diagonal filter (row r holds channel r's taps at column tap*cs + r % cs, zeros
// elsewhere), each row of a hardware group one nonzero, the windows' rows one after the other
// (s24_conv_src_t.gr: one job streams them all, a row tile a window); l then describes the whole
// operator for the statistics (m channels, k taps, n pixels).
typedef struct {
  s24_net_layer_t l;
  void *state;                   // the engine's (its prepared weights)
  size_t n_sl;                   // engine calls an inference
  s24_net_layer_t *sl;           // n_sl layers, each with its engine state in sl_state
  void **sl_state;
  const int8_t *dw_filter;       // depthwise: [1, kh, kw, m] (slices' weights: dw_expand)
  int8_t *xpad;                  // a CONV_2D padded to the engine's channels (pad_channels): its
                                 // input copied here, sl[0].conv.c channels a pixel; else NULL
  uint64_t cycles, job_cycles;   // measured, summed over the inferences run
} layer_t;

// Per operator: a host operator's prepared parameters, or an array layer.
typedef struct {
  const void *params;
  layer_t *layer;
  int on_engine;  // a host operator the engine ran in the last inference (s24_engine_t.add)
} op_t;

// The depthwise slice whose weights net->dwx holds (dw_expand), or L NULL: none yet.
typedef struct {
  const layer_t *L;
  size_t s;
} dwx_held_t;

struct s24_net {
  s24_tfl_model_t m;
  const s24_engine_t *engine;
  void **data;         // per tensor: the constant's bytes in the file, or its planned buffer
  op_t *ops;
  size_t arena_bytes;  // the peak of the load: what it needs
  size_t act_bytes;    // the planned activation region
  uint64_t inferences;
  int8_t *dwx;         // a depthwise slice's block-diagonal weights, expanded when used
  size_t dwx_bytes;
  dwx_held_t *dwx_held;  // the slice whose weights dwx holds
  s24_net_hook_t hook;
  void *hook_ctx;
};

const s24_tfl_model_t *s24_net_model(const s24_net_t *net) { return &net->m; }
const s24_tfl_tensor_t *s24_net_input(const s24_net_t *net) {
  return &net->m.tensors[net->m.inputs[0]];
}
const s24_tfl_tensor_t *s24_net_output(const s24_net_t *net) {
  return &net->m.tensors[net->m.outputs[0]];
}
size_t s24_net_arena_bytes(const s24_net_t *net) { return net != NULL ? net->arena_bytes : 0; }
size_t s24_net_activation_bytes(const s24_net_t *net) { return net != NULL ? net->act_bytes : 0; }
uint64_t s24_net_inferences(const s24_net_t *net) { return net != NULL ? net->inferences : 0; }

void s24_net_set_hook(s24_net_t *net, s24_net_hook_t hook, void *ctx) {
  if (net == NULL) return;
  net->hook = hook;
  net->hook_ctx = ctx;
}

static int is_array_op(const s24_tfl_op_t *op) {
  return !op->is_custom &&
         (op->opcode == S24_OP_FULLY_CONNECTED || op->opcode == S24_OP_CONV_2D);
}

// "tensor 12 (name)" into buf, the name sanitised (the reader's s24_tfl_tensor_str)
static const char *tname(const s24_tfl_model_t *m, int32_t t, char *buf, size_t len) {
  return s24_tfl_tensor_str(m, t, buf, len);
}

// "operator 3 (CONV_2D)" of a message
static const char *op_name(const s24_tfl_op_t *op) {
  return op->is_custom ? "CUSTOM" : s24_tfl_op_name(op->opcode);
}

// The sparsest SPEC pattern the rows hold along k (padded with zeros to a multiple of 8).
static s24_pattern_t weight_pattern(const int8_t *w, size_t rows, size_t k) {
  static const s24_pattern_t cand[] = {{1, 4}, {2, 8}, {2, 4}};
  for (size_t c = 0; c < sizeof cand / sizeof cand[0]; c++) {
    const s24_pattern_t p = cand[c];
    int ok = 1;
    for (size_t r = 0; r < rows && ok; r++) {
      for (size_t g0 = 0; g0 < k && ok; g0 += p.m) {
        uint32_t nz = 0;
        for (size_t i = g0; i < g0 + p.m && i < k; i++) nz += w[r * k + i] != 0;
        ok = nz <= p.n;
      }
    }
    if (ok) return p;
  }
  return (s24_pattern_t){4, 4};
}

static int per_tensor(const s24_tfl_tensor_t *t) { return t->n_quant == 1; }

// TFLite's ComputePaddingHeightWidth for one dimension: output size and leading padding.
static int conv_dim(int32_t padding, int32_t in, int32_t filt, int32_t stride, int32_t dil,
                    int32_t *out, int32_t *pad) {
  if (in <= 0 || filt <= 0 || stride <= 0 || dil <= 0) return 0;
  const int64_t eff = (int64_t)(filt - 1) * dil + 1;
  int64_t o;
  if (padding == S24_PAD_SAME) {
    o = ((int64_t)in + stride - 1) / stride;
  } else if (padding == S24_PAD_VALID) {
    o = ((int64_t)in + stride - eff) / stride;
  } else {
    return 0;
  }
  if (o <= 0) return 0;
  int64_t total = (o - 1) * stride + eff - in;
  if (total < 0) total = 0;
  *out = (int32_t)o;
  *pad = (int32_t)(total / 2);
  return 1;
}

// "the arena of N bytes has no room for WHAT (it needs at least M)" as one line; S24_ERR_NOMEM.
static s24_status_t no_room(const s24_arena_t *a, const char *what, char *err, size_t errlen) {
  return s24_errorf(S24_ERR_NOMEM, err, errlen,
                    "the arena of %zu bytes has no room for %s (the model needs at least %zu)",
                    a->size, what, a->need);
}

static s24_status_t engine_layer(s24_net_t *net, size_t i, s24_arena_t *arena,
                                 const s24_net_layer_t *l, void **state, char *err,
                                 size_t errlen);
static s24_status_t pad_channels(layer_t *L, uint32_t align, s24_arena_t *arena, char *err,
                                 size_t errlen);

// Checks an array operator and fills its layer (its parameters in the arena, its weights in
// place, prepared for the engine). Messages name "operator N (NAME)".
static s24_status_t plan_array(s24_net_t *net, size_t i, s24_arena_t *arena, char *err,
                               size_t errlen) {
  const s24_tfl_model_t *m = &net->m;
  const s24_tfl_op_t *op = &m->ops[i];
  const char *nm = op_name(op);
  char tb[128];
  if (op->n_in < 2 || op->n_in > 3 || op->n_out != 1 || op->in[0] < 0 || op->in[1] < 0) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "operator %zu (%s): %u inputs and %u outputs",
                      i, nm, (unsigned)op->n_in, (unsigned)op->n_out);
  }
  const uint8_t want_opt = op->opcode == S24_OP_CONV_2D ? S24_TFL_OPT_CONV_2D
                                                        : S24_TFL_OPT_FULLY_CONNECTED;
  if (op->options_type != S24_TFL_OPT_NONE && op->options_type != want_opt) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen,
                      "operator %zu (%s): builtin options of type %u, expected %u", i, nm,
                      (unsigned)op->options_type, (unsigned)want_opt);
  }
  const s24_tfl_tensor_t *in = &m->tensors[op->in[0]], *w = &m->tensors[op->in[1]],
                         *out = &m->tensors[op->out[0]];
  const s24_tfl_tensor_t *b = op->n_in == 3 && op->in[2] >= 0 ? &m->tensors[op->in[2]] : NULL;
  if (in->type != S24_TFL_INT8 || out->type != S24_TFL_INT8 || w->type != S24_TFL_INT8) {
    return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                      "operator %zu (%s): input, weights and output must be INT8 (are %s, %s, %s)",
                      i, nm, s24_tfl_type_name(in->type), s24_tfl_type_name(w->type),
                      s24_tfl_type_name(out->type));
  }
  if (w->data == NULL) {
    return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                      "operator %zu (%s): %s: weights are not constant", i, nm,
                      tname(m, op->in[1], tb, sizeof tb));
  }
  if (!per_tensor(in) || !per_tensor(out)) {
    return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                      "operator %zu (%s): input and output need per-tensor quantization", i, nm);
  }
  if (!(in->scale[0] > 0.0f) || !(out->scale[0] > 0.0f) || !isfinite(in->scale[0]) ||
      !isfinite(out->scale[0])) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen,
                      "operator %zu (%s): input or output scale not > 0", i, nm);
  }
  if (in->zero_point[0] < -128 || in->zero_point[0] > 127 || out->zero_point[0] < -128 ||
      out->zero_point[0] > 127) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "operator %zu (%s): zero point outside int8",
                      i, nm);
  }
  if (w->rank < 2 || w->dims[0] <= 0) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "operator %zu (%s): %s: weights of rank %u", i,
                      nm, tname(m, op->in[1], tb, sizeof tb), (unsigned)w->rank);
  }
  const size_t oc = (size_t)w->dims[0], k = w->elems / oc;
  if (k == 0) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "operator %zu (%s): empty weights", i, nm);
  }
  if (w->n_quant != 1 && !(w->n_quant == oc && w->quant_dim == 0)) {
    return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                      "operator %zu (%s): %s: %zu weight scales, expected 1 or %zu along "
                      "dimension 0",
                      i, nm, tname(m, op->in[1], tb, sizeof tb), w->n_quant, oc);
  }
  for (size_t c = 0; c < w->n_quant; c++) {
    if (w->zero_point[c] != 0) {
      return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                        "operator %zu (%s): %s: weight zero point %lld (symmetric weights only)",
                        i, nm, tname(m, op->in[1], tb, sizeof tb), (long long)w->zero_point[c]);
    }
    if (!(w->scale[c] > 0.0f) || !isfinite(w->scale[c])) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen, "operator %zu (%s): weight scale %zu not > 0",
                        i, nm, c);
    }
  }
  if (b != NULL) {
    if (b->type != S24_TFL_INT32 || b->data == NULL || b->elems != oc) {
      return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                        "operator %zu (%s): %s: bias must be constant INT32 [%zu]", i, nm,
                        tname(m, op->in[2], tb, sizeof tb), oc);
    }
  }
  layer_t *L = s24_arena_alloc(arena, sizeof *L, 0);
  if (L == NULL) return no_room(arena, "an array layer", err, errlen);
  net->ops[i].layer = L;
  s24_net_layer_t *l = &L->l;
  l->op = i;
  l->opcode = op->opcode;
  l->m = oc;
  l->k = k;
  l->zi = (int32_t)in->zero_point[0];
  l->zo = (int32_t)out->zero_point[0];
  // LiteRT's reference CONV_2D requantizes with gemmlowp's two roundings, its
  // FULLY_CONNECTED with one (both measured against BUILTIN_REF)
  l->round = op->opcode == S24_OP_CONV_2D ? S24_ROUND_DOUBLE : S24_ROUND_SINGLE;
  if (op->opcode == S24_OP_FULLY_CONNECTED) {
    if (op->opt.fc_weights_format != 0 || w->rank != 2) {
      return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                        "operator %zu (%s): only the default weights format [M, K] is supported",
                        i, nm);
    }
    if (in->elems % k != 0) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen,
                        "operator %zu (%s): input of %zu elements is not rows of K = %zu", i, nm,
                        in->elems, k);
    }
    l->n = in->elems / k;
    if (out->elems != l->n * oc) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen,
                        "operator %zu (%s): output of %zu elements, expected %zu x %zu", i, nm,
                        out->elems, l->n, oc);
    }
  } else {  // CONV_2D: input [N, H, W, IC], filter [OC, KH, KW, IC], output [N, OH, OW, OC]
    s24_conv_src_t *cv = &l->conv;
    if (in->rank != 4 || w->rank != 4 || out->rank != 4) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen,
                        "operator %zu (%s): input, filter and output must have rank 4", i, nm);
    }
    cv->n = in->dims[0];
    cv->h = in->dims[1];
    cv->w = in->dims[2];
    cv->c = in->dims[3];
    cv->kh = w->dims[1];
    cv->kw = w->dims[2];
    if (w->dims[3] != cv->c) {
      return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                        "operator %zu (%s): filter has %d input channels, input %d (grouped "
                        "convolution is not supported)",
                        i, nm, (int)w->dims[3], (int)cv->c);
    }
    cv->sh = op->opt.stride_h;
    cv->sw = op->opt.stride_w;
    cv->dh = op->opt.dilation_h;
    cv->dw = op->opt.dilation_w;
    // LiteRT keeps strides and dilations in int16 (ConvParams) and refuses larger ones, as the
    // depthwise kernel's check does (s24_ops.c)
    if (cv->sh <= 0 || cv->sw <= 0 || cv->sh > INT16_MAX || cv->sw > INT16_MAX) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen, "operator %zu (%s): stride %dx%d out of range",
                        i, nm, (int)cv->sh, (int)cv->sw);
    }
    if (cv->dh <= 0 || cv->dw <= 0 || cv->dh > INT16_MAX || cv->dw > INT16_MAX) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen,
                        "operator %zu (%s): dilation %dx%d out of range", i, nm, (int)cv->dh,
                        (int)cv->dw);
    }
    if (!conv_dim(op->opt.padding, cv->h, cv->kh, cv->sh, cv->dh, &cv->oh,
                  &cv->ph) ||
        !conv_dim(op->opt.padding, cv->w, cv->kw, cv->sw, cv->dw, &cv->ow,
                  &cv->pw)) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen,
                        "operator %zu (%s): bad padding, stride or dilation for a %dx%d input "
                        "and a %dx%d filter",
                        i, nm, (int)cv->h, (int)cv->w, (int)cv->kh, (int)cv->kw);
    }
    if (out->dims[0] != cv->n || out->dims[1] != cv->oh || out->dims[2] != cv->ow ||
        out->dims[3] != (int32_t)oc) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen,
                        "operator %zu (%s): output shape [%d, %d, %d, %d], expected [%d, %d, %d, "
                        "%zu]",
                        i, nm, (int)out->dims[0], (int)out->dims[1], (int)out->dims[2],
                        (int)out->dims[3], (int)cv->n, (int)cv->oh, (int)cv->ow, oc);
    }
    l->n = (size_t)cv->n * (size_t)cv->oh * (size_t)cv->ow;
    cv->cs = cv->c;  // every channel (c0 0)
    cv->pad = (int8_t)l->zi;
  }
  int32_t lo, hi;
  if (s24_act_range_i8(op->opt.activation, out->scale[0], l->zo, &lo, &hi) != S24_OK) {
    return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                      "operator %zu (%s): fused activation %d is not supported (NONE, RELU, "
                      "RELU6, RELU_N1_TO_1)",
                      i, nm, (int)op->opt.activation);
  }
  l->act_min = lo;
  l->act_max = hi;
  // the weights in place; the per-channel parameters derived once (the bias copied: the file's
  // int32 may be unaligned)
  int32_t *bias = s24_arena_alloc(arena, oc * sizeof(int32_t), 0);
  int32_t *mult = s24_arena_alloc(arena, oc * sizeof(int32_t), 0);
  int32_t *shift = s24_arena_alloc(arena, oc * sizeof(int32_t), 0);
  if (bias == NULL || mult == NULL || shift == NULL) {
    return no_room(arena, "the layer's parameters", err, errlen);
  }
  if (b != NULL) memcpy(bias, b->data, oc * sizeof(int32_t));
  // TFLite's PopulateConvolutionQuantizationParams / GetQuantizedConvolutionMultipler: the
  // float32 scales as doubles, (s_in * s_w) / s_out, then QuantizeMultiplier
  for (size_t c = 0; c < oc; c++) {
    const double sw = (double)w->scale[w->n_quant == 1 ? 0 : c];
    const double eff = (double)in->scale[0] * sw / (double)out->scale[0];
    s24_quantize_multiplier(eff, &mult[c], &shift[c]);
    if (mult[c] < 0 || shift[c] < -31 || shift[c] > 30) {
      return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                        "operator %zu (%s): channel %zu's scale ratio %g is out of the "
                        "requantizer's range",
                        i, nm, c, eff);
    }
  }
  l->w = (const int8_t *)w->data;
  l->bias = bias;
  l->mult = mult;
  l->shift = shift;
  l->pattern = weight_pattern(l->w, oc, k);
  l->ldy = oc;
  L->n_sl = 1;
  L->sl = l;
  L->sl_state = &L->state;
  const uint32_t align = net->engine->conv_channels;
  if (l->conv.cs > 0 && align > 1 && (size_t)l->conv.c % align != 0) {
    const s24_status_t st = pad_channels(L, align, arena, err, errlen);
    if (st != S24_OK) return st;
  }
  return engine_layer(net, i, arena, L->sl, &L->state, err, errlen);
}

// A CONV_2D whose input channels are not a multiple of the engine's (a fetch unit reading four
// channels a word): the engine runs it on the input padded to `align` channels, the new ones
// holding the input's zero point, with zero filter columns for them, so every sum is the same.
// Its one slice (sl) is that layer; l stays the operator as the model has it (statistics).
static s24_status_t pad_channels(layer_t *L, uint32_t align, s24_arena_t *arena, char *err,
                                 size_t errlen) {
  const s24_net_layer_t *l = &L->l;
  const size_t c = (size_t)l->conv.c, cp = (c + align - 1) / align * align;
  const size_t taps = (size_t)l->conv.kh * (size_t)l->conv.kw, kp = taps * cp;
  const size_t pixels = (size_t)l->conv.n * (size_t)l->conv.h * (size_t)l->conv.w;
  if (kp > SIZE_MAX / l->m || pixels > SIZE_MAX / cp || cp > INT32_MAX) {
    return no_room(arena, "a padded convolution", err, errlen);
  }
  s24_net_layer_t *pl = s24_arena_alloc(arena, sizeof *pl, 0);
  int8_t *wp = s24_arena_alloc(arena, l->m * kp, 0);
  L->xpad = s24_arena_alloc(arena, pixels * cp, 16);
  if (pl == NULL || wp == NULL || L->xpad == NULL) {
    return no_room(arena, "a padded convolution", err, errlen);
  }
  for (size_t r = 0; r < l->m; r++) {
    for (size_t t = 0; t < taps; t++) memcpy(wp + r * kp + t * cp, l->w + r * l->k + t * c, c);
  }
  *pl = *l;
  pl->w = wp;
  pl->k = kp;
  pl->pattern = weight_pattern(wp, l->m, kp);
  pl->conv.c = (int32_t)cp;
  pl->conv.cs = (int32_t)cp;
  L->sl = pl;
  return S24_OK;
}

// The engine's share of array layer l of operator i: a device packs the weights into its beats
// here, once (*state gets what its linear reads).
static s24_status_t engine_layer(s24_net_t *net, size_t i, s24_arena_t *arena,
                                 const s24_net_layer_t *l, void **state, char *err,
                                 size_t errlen) {
  const char *nm = op_name(&net->m.ops[i]);
  const s24_engine_t *e = net->engine;
  size_t bytes = 0;
  char msg[256];
  s24_status_t st = e->layer_bytes != NULL ? e->layer_bytes(e->ctx, l, &bytes) : S24_OK;
  if (st != S24_OK) {
    return s24_errorf(st, err, errlen, "operator %zu (%s): the %s engine cannot take it: %s", i,
                      nm, e->name != NULL ? e->name : "?", s24_strerror(st));
  }
  void *mem = NULL;
  if (bytes > 0 && (mem = s24_arena_alloc(arena, bytes, 0)) == NULL) {
    return no_room(arena, "the layer's prepared weights", err, errlen);
  }
  if (e->prepare != NULL) {
    msg[0] = '\0';
    st = e->prepare(e->ctx, l, mem, bytes, state, msg, sizeof msg);
    if (st != S24_OK) {
      return s24_errorf(st, err, errlen, "operator %zu (%s): %s", i, nm,
                        msg[0] != '\0' ? msg : s24_strerror(st));
    }
  }
  return S24_OK;
}

// Slice s of depthwise layer L's weights into net->dwx (m x taps*cs, block-diagonal in windows of
// cs: row r holds channel c0 + r's taps at columns tap*cs + r % cs). One buffer serves every
// slice: it is filled before each use (packing at load, the call of an engine that reads the
// weights when it runs, the cycle model), so the weights stay in the model's bytes and the
// arena holds the largest slice's expansion, not every layer's (bounded by dwx_bound). Only the
// diagonals change: the slice held is left alone, another one's diagonal is zeroed (the rest of
// the buffer stays 0).
static void dw_expand(const s24_net_t *net, const layer_t *L, size_t s) {
  dwx_held_t *h = net->dwx_held;
  if (h->L == L && h->s == s) return;
  for (int pass = h->L != NULL ? 0 : 1; pass < 2; pass++) {  // 0: clear the old, 1: the new
    const layer_t *at = pass == 0 ? h->L : L;
    const size_t si = pass == 0 ? h->s : s;
    const s24_net_layer_t *l = &at->sl[si];
    // (the filter's channels: the output's, y's row stride; L->l is set after the slices)
    const size_t cs = (size_t)l->conv.cs, taps = l->k / cs, oc = l->ldy;
    const size_t c0 = (size_t)l->conv.c0;
    for (size_t r = 0; r < l->m; r++) {
      for (size_t t = 0; t < taps; t++) {
        net->dwx[r * l->k + t * cs + r % cs] = pass == 0 ? 0 : at->dw_filter[t * oc + c0 + r];
      }
    }
  }
  h->L = L;
  h->s = s;
}

// Channels a depthwise window: a tile's rows in the core's own mode, and the weights run in that
// mode (own_mode). A row tile then reads its own channels only: the fetch unit builds each
// column's taps of those channels, every group of the tile's beats used. (Windows of the pair
// mode's 2 x rows gave the pair mode no gain on block-diagonal weights, one nonzero a row and
// group: the mode rule kept the own mode, and its row tiles took half the groups a window had,
// the other half fetched for nothing.)
static size_t dw_slice(const s24_engine_t *e) { return e->hw.rows; }

// The largest slice's expanded weights over m's depthwise operators (bytes of net->dwx: at most
// channels x taps x window); the shapes are checked later (plan_dw), this only bounds them (0 on
// overflow: none on the array).
static size_t dwx_bound(const s24_tfl_model_t *m, size_t slice) {
  size_t most = 0;
  for (size_t i = 0; i < m->n_ops; i++) {
    const s24_tfl_op_t *op = &m->ops[i];
    if (op->is_custom || op->opcode != S24_OP_DEPTHWISE_CONV_2D || op->n_in < 2 || op->in[1] < 0) {
      continue;
    }
    const s24_tfl_tensor_t *f = &m->tensors[op->in[1]];
    // a constant filter only (plan_dw's condition): its dims are checked against its bytes in
    // the file, so a declared shape cannot make the arena large
    if (f->data == NULL || f->rank != 4 || f->dims[1] <= 0 || f->dims[2] <= 0 || f->dims[3] <= 0) {
      continue;
    }
    const size_t oc = (size_t)f->dims[3], ms = oc < slice ? oc : slice;
    const size_t taps = (size_t)f->dims[1], taps2 = (size_t)f->dims[2];
    if (taps > SIZE_MAX / taps2 || oc > SIZE_MAX / ms || oc * ms > SIZE_MAX / (taps * taps2)) {
      continue;
    }
    if (oc * ms * taps * taps2 > most) most = oc * ms * taps * taps2;
  }
  return most;
}

// A DEPTHWISE_CONV_2D, prepared as a host operator (every check done, its multipliers derived),
// moved to the array as slices (layer_t) when its depth multiplier is 1, its filter and bias
// are constant and every channel's multiplier is in the epilogue's range; otherwise it stays on
// the host. LiteRT's reference kernel requantizes it as CONV_2D does (two roundings).
static s24_status_t plan_dw(s24_net_t *net, size_t i, s24_arena_t *arena, char *err,
                            size_t errlen) {
  const s24_tfl_model_t *m = &net->m;
  const s24_tfl_op_t *op = &m->ops[i];
  s24_dw_geom_t g;
  if (s24_op_dw_geom(m, i, net->ops[i].params, &g) != S24_OK || g.depth_mult != 1 ||
      !s24_linear_params_ok(g.mult, g.shift, (size_t)g.oc, g.zi, g.zo, g.act_lo, g.act_hi,
                            NULL)) {
    return S24_OK;
  }
  const s24_tfl_tensor_t *f = &m->tensors[op->in[1]];
  const s24_tfl_tensor_t *b = op->n_in == 3 && op->in[2] >= 0 ? &m->tensors[op->in[2]] : NULL;
  if (f->data == NULL || (b != NULL && b->data == NULL)) return S24_OK;
  const s24_engine_t *e = net->engine;
  const size_t oc = (size_t)g.oc, taps = (size_t)g.kh * (size_t)g.kw;
  const size_t n = (size_t)g.n * (size_t)g.oh * (size_t)g.ow;
  const size_t slice = dw_slice(e) < oc ? dw_slice(e) : oc;
  if (slice == 0 || net->dwx == NULL || taps > SIZE_MAX / slice / oc ||
      oc * slice * taps > net->dwx_bytes || slice > INT32_MAX) {
    return S24_OK;  // (cannot be: dwx_bound bounds every depthwise operator)
  }
  layer_t *L = s24_arena_alloc(arena, sizeof *L, 0);
  const size_t full = oc / slice * slice;  // the channels in whole windows: one slice
  const size_t n_sl = (full > 0) + (oc > full);
  s24_net_layer_t *sl = s24_arena_alloc(arena, n_sl * sizeof *sl, 0);
  void **sl_state = s24_arena_alloc(arena, n_sl * sizeof *sl_state, 0);
  int32_t *bias = s24_arena_alloc(arena, oc * sizeof(int32_t), 0);
  if (L == NULL || sl == NULL || sl_state == NULL || bias == NULL) {
    return no_room(arena, "an array layer", err, errlen);
  }
  if (b != NULL) memcpy(bias, b->data, oc * sizeof(int32_t));
  *L = (layer_t){.n_sl = n_sl, .sl = sl, .sl_state = sl_state};
  L->dw_filter = (const int8_t *)f->data;
  for (size_t s = 0; s < n_sl; s++) {
    // the whole windows, then the rest (one window)
    const size_t c0 = s == 0 ? 0 : full, ms = s == 0 && full > 0 ? full : oc - full;
    const size_t cs = ms < slice ? ms : slice, ks = taps * cs;
    sl[s] = (s24_net_layer_t){i,          S24_OP_DEPTHWISE_CONV_2D,
                              net->dwx,   ms,
                              ks,         n,
                              bias + c0,  g.mult + c0,
                              g.shift + c0, g.zi,
                              g.zo,       g.act_lo,
                              g.act_hi,   {0, 0},
                              S24_ROUND_DOUBLE,
                              {NULL, g.n, g.ih, g.iw, g.ic, (int32_t)c0, (int32_t)cs, g.kh, g.kw,
                               g.oh, g.ow, g.sh, g.sw, g.dh, g.dw, g.ph, g.pw, (int8_t)g.zi,
                               s > 0,  // (the slices read one input: made visible once)
                               ms > cs ? (int32_t)cs : 0},
                              oc,
                              1};
    dw_expand(net, L, s);
    sl[s].pattern = weight_pattern(net->dwx, ms, ks);
    const s24_status_t st = engine_layer(net, i, arena, &sl[s], &sl_state[s], err, errlen);
    if (st != S24_OK) return st;
  }
  // the whole operator, for the statistics: oc channels of taps MACs per output pixel
  L->l = sl[0];
  L->l.w = NULL;
  L->l.m = oc;
  L->l.k = taps;
  L->l.bias = bias;
  L->l.mult = g.mult;
  L->l.shift = g.shift;
  net->ops[i].layer = L;
  return S24_OK;
}

// ------------------------------------------------------------------ the memory planner
// TensorFlow Lite Micro's greedy planner: every activation tensor lives from the operator that
// writes it first to the last that reads it; buffers are placed largest first, each at the lowest offset that overlaps no
// placed buffer whose lifetime overlaps its own.

typedef struct {
  size_t bytes;       // rounded to S24_ARENA_ALIGN
  int64_t first, last;  // operator indices (-1: before the first, n_ops: after the last)
  size_t offset;
  int32_t tensor;
} buf_t;

static int by_size(const void *a, const void *b) {
  const buf_t *x = a, *y = b;
  if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
  if (x->first != y->first) return x->first < y->first ? -1 : 1;
  return x->tensor < y->tensor ? -1 : x->tensor > y->tensor;
}

// Places bufs[0 .. n) (sorted by by_size) and returns the region's bytes; order[] is working
// memory of n entries (the placed buffers by offset).
static size_t place(buf_t *bufs, size_t n, size_t *order) {
  size_t total = 0, placed = 0;
  for (size_t i = 0; i < n; i++) {
    buf_t *b = &bufs[i];
    size_t at = 0;
    for (size_t j = 0; j < placed; j++) {  // by offset: the first gap that fits
      const buf_t *o = &bufs[order[j]];
      if (o->last < b->first || o->first > b->last) continue;  // never live together
      if (o->offset >= at + b->bytes) break;
      if (o->offset + o->bytes > at) at = o->offset + o->bytes;
    }
    b->offset = at;
    size_t j = placed++;
    while (j > 0 && bufs[order[j - 1]].offset > at) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = i;
    if (at + b->bytes > total) total = at + b->bytes;
  }
  return total;
}

// An activation buffer's bytes in the plan: aligned, then 96 more (three 32-byte cache lines), so
// buffers of power-of-two sizes placed side by side do not start at one offset of a direct-mapped
// cache (the SoC's VexRiscv 4 KiB D$, LiteX's 8 KiB L2), where an operator reading two of them
// (ADD) would evict one with the other at every element: ic's three ADDs took 9.26 M SoC cycles
// with their buffers 16 KiB apart, 5.55 M with the skew (soc/firmware, 2:4 row).
#define BUF_SKEW 96u
static size_t round_buf(size_t bytes) {
  const size_t a = S24_ARENA_ALIGN;
  return bytes > SIZE_MAX - a - BUF_SKEW ? SIZE_MAX : (bytes + a - 1) / a * a + BUF_SKEW;
}

// Plans the activation tensors of the network and points data[] at their places in one region of
// the arena (convolutions read their inputs in place: no im2col buffer).
static s24_status_t plan_memory(s24_net_t *net, s24_arena_t *arena, char *err, size_t errlen) {
  const s24_tfl_model_t *m = &net->m;
  const int64_t n_ops = (int64_t)m->n_ops;
  int64_t *first = s24_arena_temp(arena, m->n_tensors * sizeof(int64_t));
  int64_t *last = s24_arena_temp(arena, m->n_tensors * sizeof(int64_t));
  if (first == NULL || last == NULL) return no_room(arena, "the memory planner", err, errlen);
  for (size_t t = 0; t < m->n_tensors; t++) first[t] = last[t] = INT64_MIN;  // not used
  first[m->inputs[0]] = last[m->inputs[0]] = -1;
  size_t n = 1;
  for (size_t i = 0; i < m->n_ops; i++) {
    const s24_tfl_op_t *op = &m->ops[i];
    for (uint32_t j = 0; j < op->n_in; j++) {
      const int32_t t = op->in[j];
      if (t >= 0 && m->tensors[t].data == NULL && first[t] != INT64_MIN) last[t] = (int64_t)i;
    }
    for (uint32_t j = 0; j < op->n_out; j++) {
      const int32_t t = op->out[j];
      if (first[t] == INT64_MIN) {
        first[t] = last[t] = (int64_t)i;
        n++;
      }
    }
  }
  last[m->outputs[0]] = n_ops;  // read out after the last operator
  buf_t *bufs = s24_arena_temp(arena, n * sizeof(buf_t));
  size_t *order = s24_arena_temp(arena, n * sizeof(size_t));
  if (bufs == NULL || order == NULL) return no_room(arena, "the memory planner", err, errlen);
  size_t nb = 0;
  for (size_t t = 0; t < m->n_tensors; t++) {
    if (first[t] == INT64_MIN) continue;
    bufs[nb++] = (buf_t){round_buf(m->tensors[t].bytes ? m->tensors[t].bytes : 1), first[t],
                         last[t], 0, (int32_t)t};
  }
  qsort(bufs, nb, sizeof *bufs, by_size);
  const size_t total = place(bufs, nb, order);
  // the offsets outlive the working memory: data[] (of a tensor not in the file: NULL before)
  // holds offset + 1 until the region is there
  for (size_t i = 0; i < nb; i++) {
    net->data[bufs[i].tensor] = (void *)((uintptr_t)bufs[i].offset + 1);
  }
  s24_arena_temp_release(arena);
  uint8_t *region = s24_arena_alloc(arena, total, 0);
  if (region == NULL) return no_room(arena, "the activations", err, errlen);
  for (size_t t = 0; t < m->n_tensors; t++) {
    if (m->tensors[t].data == NULL && net->data[t] != NULL) {
      net->data[t] = region + ((uintptr_t)net->data[t] - 1);
    }
  }
  net->act_bytes = total;
  return S24_OK;
}

// ------------------------------------------------------------------ load

// The element types an activation tensor of the runtime may have.
static int activation_type(int32_t type) {
  return type == S24_TFL_INT8 || type == S24_TFL_INT32 || type == S24_TFL_FLOAT32 ||
         type == S24_TFL_UINT8 || type == S24_TFL_INT16 || type == S24_TFL_INT64;
}

static s24_status_t load(s24_net_t *net, s24_arena_t *arena, char *err, size_t errlen) {
  const s24_tfl_model_t *m = &net->m;
  char tb[128];
  if (m->n_inputs != 1 || m->n_outputs != 1) {
    return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                      "the model has %zu inputs and %zu outputs (one of each is supported)",
                      m->n_inputs, m->n_outputs);
  }
  // every operator known before anything runs
  for (size_t i = 0; i < m->n_ops; i++) {
    const s24_tfl_op_t *op = &m->ops[i];
    if (!is_array_op(op) && (op->is_custom || !s24_op_is_host(op->opcode))) {
      return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen, "operator %zu (%s): unsupported operator",
                        i, op_name(op));
    }
    if (!s24_op_version_ok(op->opcode, op->version)) {
      return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                        "operator %zu (%s): version %ld is not one LiteRT's reference kernels "
                        "register", i, op_name(op), (long)op->version);
    }
  }
  const s24_tfl_tensor_t *tin = &m->tensors[m->inputs[0]], *tout = &m->tensors[m->outputs[0]];
  if ((tin->type != S24_TFL_INT8 && tin->type != S24_TFL_FLOAT32) ||
      (tout->type != S24_TFL_INT8 && tout->type != S24_TFL_FLOAT32)) {
    return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                      "input %s and output %s must be INT8 or FLOAT32",
                      s24_tfl_type_name(tin->type), s24_tfl_type_name(tout->type));
  }
  if (tin->data != NULL || tin->elems == 0 || tout->elems == 0) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen,
                      "the model's input or output tensor is empty or constant");
  }
  net->data = s24_arena_alloc(arena, m->n_tensors * sizeof(void *), 0);
  net->ops = s24_arena_alloc(arena, (m->n_ops ? m->n_ops : 1) * sizeof(op_t), 0);
  net->dwx_bytes = dwx_bound(m, dw_slice(net->engine));
  net->dwx_held = s24_arena_alloc(arena, sizeof *net->dwx_held, 0);
  if (net->dwx_held == NULL ||
      (net->dwx_bytes > 0 && (net->dwx = s24_arena_alloc(arena, net->dwx_bytes, 0)) == NULL)) {
    return no_room(arena, "the depthwise weights' expansion", err, errlen);
  }
  uint8_t *ready = s24_arena_temp(arena, m->n_tensors);  // computed or constant by now
  if (net->data == NULL || net->ops == NULL || ready == NULL) {
    return no_room(arena, "the tensor tables", err, errlen);
  }
  for (size_t t = 0; t < m->n_tensors; t++) {  // constants are read in place
    if (m->tensors[t].data != NULL) {
      net->data[t] = (void *)(uintptr_t)m->tensors[t].data;  // only outputs are written
      ready[t] = 1;
    } else if (m->tensors[t].bytes == 0) {  // no bytes to compute (none stored in the file)
      ready[t] = 1;
    }
  }
  ready[m->inputs[0]] = 1;
  for (size_t i = 0; i < m->n_ops; i++) {
    const s24_tfl_op_t *op = &m->ops[i];
    for (uint32_t j = 0; j < op->n_in; j++) {
      if (op->in[j] >= 0 && !ready[op->in[j]]) {
        return s24_errorf(S24_ERR_FORMAT, err, errlen,
                          "operator %zu (%s): input %s is not computed before it", i,
                          op_name(op), tname(m, op->in[j], tb, sizeof tb));
      }
    }
    for (uint32_t j = 0; j < op->n_out; j++) {
      const int32_t t = op->out[j];
      if (t < 0 || m->tensors[t].data != NULL || t == m->inputs[0]) {
        return s24_errorf(S24_ERR_FORMAT, err, errlen,
                          "operator %zu (%s): output %d is missing, constant or the model's "
                          "input",
                          i, op_name(op), (int)t);
      }
      for (uint32_t q = 0; q < op->n_in; q++) {  // LiteRT refuses it too
        if (op->in[q] == t) {
          return s24_errorf(S24_ERR_FORMAT, err, errlen,
                            "operator %zu (%s): output %s is also its input %u", i, op_name(op),
                            tname(m, t, tb, sizeof tb), (unsigned)q);
        }
      }
      if (!activation_type(m->tensors[t].type)) {
        return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                          "operator %zu (%s): output %s has type %s", i, op_name(op),
                          tname(m, t, tb, sizeof tb), s24_tfl_type_name(m->tensors[t].type));
      }
      ready[t] = 1;
    }
    s24_status_t st;
    if (is_array_op(op)) {
      st = plan_array(net, i, arena, err, errlen);
    } else {
      st = s24_op_prepare(m, i, arena, &net->ops[i].params, err, errlen);
      if (st == S24_ERR_NOMEM) st = no_room(arena, "an operator's parameters", err, errlen);
      if (st == S24_OK && !op->is_custom && op->opcode == S24_OP_DEPTHWISE_CONV_2D) {
        st = plan_dw(net, i, arena, err, errlen);
      }
    }
    if (st != S24_OK) return st;
  }
  if (!ready[m->outputs[0]]) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "the model's output %s is never computed",
                      tname(m, m->outputs[0], tb, sizeof tb));
  }
  s24_arena_temp_release(arena);
  const s24_status_t st = plan_memory(net, arena, err, errlen);
  static const uint64_t kEmpty = 0;  // where a tensor of no bytes that nothing computes points
  for (size_t t = 0; st == S24_OK && t < m->n_tensors; t++) {
    if (net->data[t] == NULL && m->tensors[t].bytes == 0) net->data[t] = (void *)(uintptr_t)&kEmpty;
  }
  return st;
}

s24_status_t s24_net_load(const uint8_t *buf, size_t len, const s24_engine_t *engine,
                          void *arena_mem, size_t arena_size, s24_net_t **out, size_t *needed,
                          char *err, size_t errlen) {
  if (needed != NULL) *needed = 0;
  if (buf == NULL || out == NULL || engine == NULL || engine->linear == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  }
  *out = NULL;
  s24_arena_t arena;
  s24_arena_init(&arena, arena_mem, arena_size);
  s24_net_t *net = s24_arena_alloc(&arena, sizeof *net, 0);
  s24_status_t st = S24_OK;
  if (net == NULL) {
    st = no_room(&arena, "the network", err, errlen);
  } else {
    net->engine = engine;
    st = s24_tfl_parse(buf, len, &arena, &net->m, err, errlen);
    if (st == S24_ERR_NOMEM) st = no_room(&arena, "the model's tables", err, errlen);
    if (st == S24_OK) st = load(net, &arena, err, errlen);
  }
  if (needed != NULL) *needed = st == S24_ERR_NOMEM ? arena.need : arena.peak;
  if (st != S24_OK) return st;
  net->arena_bytes = arena.peak;
  *out = net;
  return S24_OK;
}

// ------------------------------------------------------------------ run

// Before the CPU reads or writes tensors (s24_engine_t.cpu_touch)
static void cpu_touch(const s24_net_t *net) {
  if (net->engine->cpu_touch != NULL) net->engine->cpu_touch(net->engine->ctx);
}

// One array layer's engine calls: FULLY_CONNECTED on x's rows, CONV_2D on x (the NHWC input:
// the engine reads its im2col in place), a depthwise layer slice by slice, each writing its
// channels of y.
static s24_status_t run_layer(const s24_net_t *net, layer_t *L, const int8_t *x, int8_t *y,
                              char *err, size_t errlen) {
  const s24_engine_t *e = net->engine;
  if (L->xpad != NULL) {  // the input with its channels padded (pad_channels)
    cpu_touch(net);
    const size_t c = (size_t)L->l.conv.c, cp = (size_t)L->sl[0].conv.c;
    const size_t pixels = (size_t)L->l.conv.n * (size_t)L->l.conv.h * (size_t)L->l.conv.w;
    const int8_t zi = (int8_t)L->l.zi;
    int8_t *o = L->xpad;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (cp == 4 && ((uintptr_t)o & 3u) == 0) {  // one store a pixel (bytes made in a register),
      const uint32_t z = (uint8_t)zi;           // not four (a first layer's 1-3 channels)
      const uint32_t fill = c == 1 ? z * 0x01010100u : c == 2 ? z * 0x01010000u : z << 24;
      for (size_t p = 0; p < pixels; p++, x += c, o += 4) {
        uint32_t w = fill | (uint8_t)x[0];
        if (c > 1) w |= (uint32_t)(uint8_t)x[1] << 8;
        if (c > 2) w |= (uint32_t)(uint8_t)x[2] << 16;
        memcpy(__builtin_assume_aligned(o, 4), &w, 4);  // (a word store)
      }
    } else
#endif
    {
      for (size_t p = 0; p < pixels; p++, x += c, o += cp) {
        for (size_t ch = 0; ch < c; ch++) o[ch] = x[ch];
        for (size_t ch = c; ch < cp; ch++) o[ch] = zi;
      }
    }
    x = L->xpad;
  }
  for (size_t s = 0; s < L->n_sl; s++) {
    const s24_net_layer_t *l = &L->sl[s];
    if (L->dw_filter != NULL && !e->packed_w) dw_expand(net, L, s);
    uint64_t cyc = 0, jcyc = 0;
    int8_t *ys = L->dw_filter != NULL ? y + l->conv.c0 : y;  // a depthwise slice's channels
    const s24_status_t st = e->linear(e->ctx, l, L->sl_state[s], x, ys, &cyc, &jcyc, err, errlen);
    if (st != S24_OK) return st;
    L->cycles += cyc;
    L->job_cycles += jcyc;
  }
  return S24_OK;
}

// 1 when the model's input is read by operator 0 alone, a FLOAT32 QUANTIZE that an engine unit
// may take (s24_engine_t.quant): it then reads the caller's x in place, not a copy in the arena
// (vww's 110,592 input bytes: the copy took about 0.7 M cycles on the SoC, a store a word)
static int input_in_place(const s24_net_t *net) {
  const s24_tfl_model_t *m = &net->m;
  const int32_t in = m->inputs[0];
  if (net->engine->quant == NULL || m->n_ops == 0 || m->ops[0].is_custom ||
      m->ops[0].opcode != S24_OP_QUANTIZE || m->ops[0].n_in < 1 || m->ops[0].in[0] != in ||
      m->tensors[in].type != S24_TFL_FLOAT32) {
    return 0;
  }
  for (size_t i = 0; i < m->n_ops; i++) {
    for (size_t k = 0; k < m->ops[i].n_in; k++) {
      if (m->ops[i].in[k] == in && (i != 0 || k != 0)) return 0;
    }
  }
  for (size_t k = 0; k < m->n_outputs; k++) {
    if (m->outputs[k] == in) return 0;
  }
  return 1;
}

// The operators in order (s24_net_run's)
static s24_status_t run_ops(s24_net_t *net, char *err, size_t errlen) {
  const s24_tfl_model_t *m = &net->m;
  for (size_t i = 0; i < m->n_ops; i++) {
    const s24_tfl_op_t *op = &m->ops[i];
    layer_t *L = net->ops[i].layer;
    s24_status_t st;
    if (net->hook != NULL) net->hook(net->hook_ctx, i, 0);
    if (L != NULL) {
      st = run_layer(net, L, net->data[op->in[0]], net->data[op->out[0]], err, errlen);
      if (st != S24_OK) return st;
    } else {
      // on the engine's units beside the array where they take it (ADD / SUB, the float
      // input's QUANTIZE: the latter may leave the elements from one outside its table's domain
      // on), else the host kernel
      st = S24_ERR_UNSUPPORTED;
      char why[96] = "";
      s24_add_job_t aj;
      s24_quant_job_t qj;
      size_t from = 0;
      int quant = 0;
      if (net->engine->add != NULL &&
          s24_op_add_job(m, i, net->ops[i].params, net->data, &aj) == S24_OK) {
        st = net->engine->add(net->engine->ctx, &aj, why, sizeof why);
      } else if (net->engine->quant != NULL &&
                 s24_op_quant_job(m, i, net->ops[i].params, net->data, &qj) == S24_OK) {
        quant = 1;
        st = net->engine->quant(net->engine->ctx, &qj, &from, why, sizeof why);
      }
      if (st != S24_OK && st != S24_ERR_UNSUPPORTED) {
        return s24_errorf(st, err, errlen, "operator %zu (%s) failed: %s", i, op_name(op), why);
      }
      net->ops[i].on_engine = st == S24_OK;
      if (st == S24_ERR_UNSUPPORTED) {
        cpu_touch(net);
        st = s24_op_run(m, i, net->ops[i].params, net->data);
      } else if (quant && from < qj.n) {  // (elements outside the unit's table: rare)
        cpu_touch(net);
        st = s24_op_quant_from(m, i, net->ops[i].params, net->data, from);
      }
      if (st != S24_OK) {
        return s24_errorf(st, err, errlen, "operator %zu (%s) failed: %s", i, op_name(op),
                          s24_strerror(st));
      }
    }
    if (net->hook != NULL) net->hook(net->hook_ctx, i, 1);
  }
  return S24_OK;
}

s24_status_t s24_net_run(s24_net_t *net, const void *x, void *y, char *err, size_t errlen) {
  if (net == NULL || x == NULL || y == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  }
  const s24_tfl_model_t *m = &net->m;
  void *const in_buf = net->data[m->inputs[0]];
  cpu_touch(net);  // (the caller's memory, x among it, may have changed since the last run)
  if (input_in_place(net)) {
    net->data[m->inputs[0]] = (void *)(uintptr_t)x;  // (read only: no operator writes an input)
  } else {
    memcpy(in_buf, x, m->tensors[m->inputs[0]].bytes);
  }
  const s24_status_t st = run_ops(net, err, errlen);
  net->data[m->inputs[0]] = in_buf;
  if (st != S24_OK) return st;
  cpu_touch(net);
  memcpy(y, net->data[m->outputs[0]], m->tensors[m->outputs[0]].bytes);
  net->inferences++;
  return S24_OK;
}

// ------------------------------------------------------------------ statistics

// MACs of host operator i (DEPTHWISE_CONV_2D: output elements x filter taps; others 0)
static uint64_t host_macs(const s24_tfl_model_t *m, size_t i) {
  const s24_tfl_op_t *op = &m->ops[i];
  if (op->is_custom || op->opcode != S24_OP_DEPTHWISE_CONV_2D || op->n_in < 2 || op->in[1] < 0) {
    return 0;
  }
  const s24_tfl_tensor_t *w = &m->tensors[op->in[1]], *o = &m->tensors[op->out[0]];
  if (w->rank != 4) return 0;
  return (uint64_t)o->elems * (uint64_t)w->dims[1] * (uint64_t)w->dims[2];
}

s24_status_t s24_net_op_info(const s24_net_t *net, size_t op, s24_net_op_info_t *out) {
  if (net == NULL || out == NULL || op >= net->m.n_ops) return S24_ERR_ARG;
  memset(out, 0, sizeof(*out));
  out->op = op;
  out->opcode = net->m.ops[op].is_custom ? -1 : net->m.ops[op].opcode;
  const layer_t *L = net->ops[op].layer;
  if (L == NULL) {
    out->macs = host_macs(&net->m, op);
    out->on_engine = net->ops[op].on_engine;
    return S24_OK;
  }
  out->on_array = 1;
  out->m = L->l.m;
  out->k = L->l.k;
  out->n = L->l.n;
  out->pattern = L->l.pattern;
  out->macs = (uint64_t)L->l.m * L->l.k * L->l.n;
  out->cycles = L->cycles;
  out->job_cycles = L->job_cycles;
  return S24_OK;
}

s24_status_t s24_net_op_predict(const s24_net_t *net, size_t op, s24_array_t hw,
                                uint32_t epi_depth, uint32_t epi_lanes, uint64_t *cycles) {
  if (net == NULL || cycles == NULL || op >= net->m.n_ops || net->ops[op].layer == NULL) {
    return S24_ERR_ARG;
  }
  const layer_t *L = net->ops[op].layer;
  uint64_t sum = 0;
  for (size_t s = 0; s < L->n_sl; s++) {
    const s24_net_layer_t *l = &L->sl[s];
    if (L->dw_filter != NULL) dw_expand(net, L, s);
    s24_gemm_cycles_t c;
    const s24_status_t st =
        l->own_mode ? s24_linear_cycles_own(hw, epi_depth, epi_lanes, l->w, l->m, l->k, l->n, &c)
                    : s24_linear_cycles(hw, epi_depth, epi_lanes, l->w, l->m, l->k, l->n, &c);
    if (st != S24_OK) return st;
    sum += c.busy_cycles;
  }
  *cycles = sum;
  return S24_OK;
}

// ------------------------------------------------------------------ prune

// SPEC §3 on one row of k values, groups of p.m along it (the last one padded with zeros)
static void prune_row(s24_pattern_t p, int8_t *row, size_t k) {
  for (size_t g0 = 0; g0 < k; g0 += p.m) {
    int8_t grp[8] = {0};
    const size_t len = k - g0 < p.m ? k - g0 : p.m;
    memcpy(grp, row + g0, len);
    int8_t pr[8];
    if (s24_prune(p, grp, 1, p.m, pr) != S24_OK) return;
    memcpy(row + g0, pr, len);
  }
}

s24_status_t s24_net_prune(const uint8_t *buf, size_t len, s24_pattern_t p, s24_arena_t *arena,
                           uint8_t *out, size_t *pruned, char *err, size_t errlen) {
  if (buf == NULL || out == NULL || arena == NULL || !s24_pattern_ok(p) || p.m > 8) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  }
  s24_tfl_model_t m;
  const size_t mark = s24_arena_mark(arena);
  s24_status_t st = s24_tfl_parse(buf, len, arena, &m, err, errlen);
  if (st != S24_OK) return st;
  memcpy(out, buf, len);
  size_t n = 0;
  for (size_t i = 0; i < m.n_ops; i++) {
    const s24_tfl_op_t *op = &m.ops[i];
    if (!is_array_op(op) || op->n_in < 2 || op->in[1] < 0) continue;
    const s24_tfl_tensor_t *w = &m.tensors[op->in[1]];
    // int8 constant weights of one row per output channel; anything else is left as it is
    if (w->type != S24_TFL_INT8 || w->data == NULL || w->rank < 2 || w->dims[0] <= 0 ||
        w->elems == 0 || w->data_len != w->elems) {
      continue;
    }
    const size_t oc = (size_t)w->dims[0], k = w->elems / oc;
    int8_t *base = (int8_t *)(out + w->data_offset);
    for (size_t r = 0; r < oc; r++) prune_row(p, base + r * k, k);
    n++;
  }
  s24_arena_rewind(arena, mark);
  if (pruned != NULL) *pruned = n;
  return S24_OK;
}
