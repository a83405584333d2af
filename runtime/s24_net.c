// sparse24 network runtime: the graph executor (SPEC §8). See s24_net.h.
#include "s24_net.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "s24_layout.h"
#include "s24_ops.h"

// An array layer as planned at load time, plus its statistics.
typedef struct {
  s24_net_layer_t l;
  int32_t *bias, *mult, *shift;  // owned
  int8_t *w;                     // owned, aligned copy of the weights (m x k)
  // CONV_2D geometry (NHWC input, OHWI filter)
  int32_t in_n, in_h, in_w, in_c, kh, kw, out_h, out_w, stride_h, stride_w, dil_h, dil_w,
      pad_top, pad_left;
  int8_t *cols;                  // im2col buffer (n x k), conv only
  uint64_t cycles, job_cycles;   // measured, summed over the inferences run
} layer_t;

struct s24_net {
  s24_tfl_model_t m;
  void **data;        // per tensor: aligned constant copy or activation buffer
  layer_t *layers;    // per operator: NULL-equivalent (opcode 0 with l.w NULL) if host
  int *is_array;      // per operator
  uint64_t inferences;
};


const s24_tfl_model_t *s24_net_model(const s24_net_t *net) { return &net->m; }
const s24_tfl_tensor_t *s24_net_input(const s24_net_t *net) {
  return &net->m.tensors[net->m.inputs[0]];
}
const s24_tfl_tensor_t *s24_net_output(const s24_net_t *net) {
  return &net->m.tensors[net->m.outputs[0]];
}

static int is_array_op(int32_t opcode) {
  return opcode == S24_OP_FULLY_CONNECTED || opcode == S24_OP_CONV_2D;
}

// "tensor 12 (name)" into buf
static const char *tname(const s24_tfl_model_t *m, int32_t t, char *buf, size_t len) {
  const s24_tfl_tensor_t *x = &m->tensors[t];
  int nl = x->name_len > 80 ? 80 : (int)x->name_len;
  snprintf(buf, len, "tensor %d (%.*s)", (int)t, nl, x->name != NULL ? x->name : "");
  return buf;
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

// Checks an array operator and fills its layer. Messages name "operator N (NAME)".
static s24_status_t plan_array(s24_net_t *net, size_t i, char *err, size_t errlen) {
  const s24_tfl_model_t *m = &net->m;
  const s24_tfl_op_t *op = &m->ops[i];
  layer_t *L = &net->layers[i];
  const char *nm = s24_tfl_op_name(op->opcode);
  char tb[128];
  if (op->n_in < 2 || op->n_in > 3 || op->n_out != 1 || op->in[0] < 0 || op->in[1] < 0) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "operator %zu (%s): %u inputs and %u outputs", i, nm,
                (unsigned)op->n_in, (unsigned)op->n_out);
  }
  const uint8_t want_opt = op->opcode == S24_OP_CONV_2D ? S24_TFL_OPT_CONV_2D
                                                        : S24_TFL_OPT_FULLY_CONNECTED;
  if (op->options_type != S24_TFL_OPT_NONE && op->options_type != want_opt) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "operator %zu (%s): builtin options of type %u, "
                "expected %u", i, nm, (unsigned)op->options_type, (unsigned)want_opt);
  }
  const s24_tfl_tensor_t *in = &m->tensors[op->in[0]], *w = &m->tensors[op->in[1]],
                         *out = &m->tensors[op->out[0]];
  const s24_tfl_tensor_t *b = op->n_in == 3 && op->in[2] >= 0 ? &m->tensors[op->in[2]] : NULL;
  if (in->type != S24_TFL_INT8 || out->type != S24_TFL_INT8 || w->type != S24_TFL_INT8) {
    return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                "operator %zu (%s): input, weights and output must be INT8 (are %s, %s, %s)", i,
                nm, s24_tfl_type_name(in->type), s24_tfl_type_name(w->type),
                s24_tfl_type_name(out->type));
  }
  if (w->data == NULL) {
    return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen, "operator %zu (%s): %s: weights are not constant",
                i, nm, tname(m, op->in[1], tb, sizeof tb));
  }
  if (!per_tensor(in) || !per_tensor(out)) {
    return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                "operator %zu (%s): input and output need per-tensor quantization", i, nm);
  }
  if (!(in->scale[0] > 0.0f) || !(out->scale[0] > 0.0f) || !isfinite(in->scale[0]) ||
      !isfinite(out->scale[0])) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "operator %zu (%s): input or output scale not > 0",
                i, nm);
  }
  if (in->zero_point[0] < -128 || in->zero_point[0] > 127 || out->zero_point[0] < -128 ||
      out->zero_point[0] > 127) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "operator %zu (%s): zero point outside int8", i, nm);
  }
  if (w->rank < 2 || w->dims[0] <= 0) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "operator %zu (%s): %s: weights of rank %u", i, nm,
                tname(m, op->in[1], tb, sizeof tb), (unsigned)w->rank);
  }
  const size_t oc = (size_t)w->dims[0], k = w->elems / oc;
  if (k == 0) return s24_errorf(S24_ERR_FORMAT, err, errlen, "operator %zu (%s): empty weights", i, nm);
  if (w->n_quant != 1 && !(w->n_quant == oc && w->quant_dim == 0)) {
    return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                "operator %zu (%s): %s: %zu weight scales, expected 1 or %zu along dimension 0",
                i, nm, tname(m, op->in[1], tb, sizeof tb), w->n_quant, oc);
  }
  for (size_t c = 0; c < w->n_quant; c++) {
    if (w->zero_point[c] != 0) {
      return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                  "operator %zu (%s): %s: weight zero point %lld (symmetric weights only)", i, nm,
                  tname(m, op->in[1], tb, sizeof tb), (long long)w->zero_point[c]);
    }
    if (!(w->scale[c] > 0.0f) || !isfinite(w->scale[c])) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen, "operator %zu (%s): weight scale %zu not > 0", i,
                  nm, c);
    }
  }
  if (b != NULL) {
    if (b->type != S24_TFL_INT32 || b->data == NULL || b->elems != oc) {
      return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                  "operator %zu (%s): %s: bias must be constant INT32 [%zu]", i, nm,
                  tname(m, op->in[2], tb, sizeof tb), oc);
    }
  }
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
                  "operator %zu (%s): only the default weights format [M, K] is supported", i, nm);
    }
    if (in->elems % k != 0) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen,
                  "operator %zu (%s): input of %zu elements is not rows of K = %zu", i, nm,
                  in->elems, k);
    }
    l->n = in->elems / k;
    if (out->elems != l->n * oc) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen,
                  "operator %zu (%s): output has %zu elements, expected %zu x %zu", i, nm,
                  out->elems, l->n, oc);
    }
  } else {  // CONV_2D: input [N, H, W, IC], filter [OC, KH, KW, IC], output [N, OH, OW, OC]
    if (in->rank != 4 || w->rank != 4 || out->rank != 4) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen,
                  "operator %zu (%s): input, filter and output must have rank 4", i, nm);
    }
    L->in_n = in->dims[0];
    L->in_h = in->dims[1];
    L->in_w = in->dims[2];
    L->in_c = in->dims[3];
    L->kh = w->dims[1];
    L->kw = w->dims[2];
    if (w->dims[3] != L->in_c) {
      return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                  "operator %zu (%s): filter has %d input channels, input %d (grouped "
                  "convolution is not supported)",
                  i, nm, (int)w->dims[3], (int)L->in_c);
    }
    L->stride_h = op->opt.stride_h;
    L->stride_w = op->opt.stride_w;
    L->dil_h = op->opt.dilation_h;
    L->dil_w = op->opt.dilation_w;
    if (!conv_dim(op->opt.padding, L->in_h, L->kh, L->stride_h, L->dil_h, &L->out_h,
                  &L->pad_top) ||
        !conv_dim(op->opt.padding, L->in_w, L->kw, L->stride_w, L->dil_w, &L->out_w,
                  &L->pad_left)) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen,
                  "operator %zu (%s): bad padding, stride or dilation for a %dx%d input and a "
                  "%dx%d filter",
                  i, nm, (int)L->in_h, (int)L->in_w, (int)L->kh, (int)L->kw);
    }
    if (out->dims[0] != L->in_n || out->dims[1] != L->out_h || out->dims[2] != L->out_w ||
        out->dims[3] != (int32_t)oc) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen,
                  "operator %zu (%s): output shape [%d, %d, %d, %d], expected [%d, %d, %d, %zu]",
                  i, nm, (int)out->dims[0], (int)out->dims[1], (int)out->dims[2],
                  (int)out->dims[3], (int)L->in_n, (int)L->out_h, (int)L->out_w, oc);
    }
    l->n = (size_t)L->in_n * (size_t)L->out_h * (size_t)L->out_w;
    if (l->n > SIZE_MAX / k) return s24_errorf(S24_ERR_NOMEM, err, errlen, "operator %zu: too large", i);
    L->cols = malloc(l->n * k);
    if (L->cols == NULL) return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory");
  }
  int32_t lo, hi;
  if (s24_act_range_i8(op->opt.activation, out->scale[0], l->zo, &lo, &hi) != S24_OK) {
    return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                "operator %zu (%s): fused activation %d is not supported (NONE, RELU, RELU6, "
                "RELU_N1_TO_1)",
                i, nm, (int)op->opt.activation);
  }
  l->act_min = lo;
  l->act_max = hi;
  L->w = malloc(oc * k);
  L->bias = calloc(oc, sizeof(int32_t));
  L->mult = malloc(oc * sizeof(int32_t));
  L->shift = malloc(oc * sizeof(int32_t));
  if (L->w == NULL || L->bias == NULL || L->mult == NULL || L->shift == NULL) {
    return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory");
  }
  memcpy(L->w, w->data, oc * k);
  if (b != NULL) memcpy(L->bias, b->data, oc * sizeof(int32_t));
  // TFLite's PopulateConvolutionQuantizationParams / GetQuantizedConvolutionMultipler: the
  // float32 scales as doubles, (s_in * s_w) / s_out, then QuantizeMultiplier
  for (size_t c = 0; c < oc; c++) {
    const double sw = (double)w->scale[w->n_quant == 1 ? 0 : c];
    const double eff = (double)in->scale[0] * sw / (double)out->scale[0];
    s24_quantize_multiplier(eff, &L->mult[c], &L->shift[c]);
    if (L->mult[c] < 0 || L->shift[c] < -31 || L->shift[c] > 30) {
      return s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
                  "operator %zu (%s): channel %zu's scale ratio %g is out of the "
                  "requantizer's range",
                  i, nm, c, eff);
    }
  }
  l->w = L->w;
  l->bias = L->bias;
  l->mult = L->mult;
  l->shift = L->shift;
  l->pattern = weight_pattern(L->w, oc, k);
  return S24_OK;
}

void s24_net_free(s24_net_t *net) {
  if (net == NULL) return;
  if (net->data != NULL) {
    for (size_t t = 0; t < net->m.n_tensors; t++) free(net->data[t]);
  }
  if (net->layers != NULL) {
    for (size_t i = 0; i < net->m.n_ops; i++) {
      layer_t *L = &net->layers[i];
      free(L->w);
      free(L->bias);
      free(L->mult);
      free(L->shift);
      free(L->cols);
    }
  }
  free(net->data);
  free(net->layers);
  free(net->is_array);
  s24_tfl_free(&net->m);
  free(net);
}

s24_status_t s24_net_load(const uint8_t *buf, size_t len, s24_net_t **out, char *err,
                          size_t errlen) {
  if (buf == NULL || out == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  *out = NULL;
  s24_net_t *net = calloc(1, sizeof *net);
  if (net == NULL) return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory");
  s24_status_t st = s24_tfl_parse(buf, len, &net->m, err, errlen);
  if (st != S24_OK) {
    free(net);
    return st;
  }
  const s24_tfl_model_t *m = &net->m;
  char tb[128];
  if (m->n_inputs != 1 || m->n_outputs != 1) {
    st = s24_errorf(S24_ERR_UNSUPPORTED, err, errlen,
              "the model has %zu inputs and %zu outputs (one of each is supported)", m->n_inputs,
              m->n_outputs);
    goto fail;
  }
  // every operator known and checked before anything runs
  for (size_t i = 0; i < m->n_ops && st == S24_OK; i++) {
    const s24_tfl_op_t *op = &m->ops[i];
    if (op->is_custom || (!is_array_op(op->opcode) && !s24_op_is_host(op->opcode))) {
      st = s24_errorf(S24_ERR_UNSUPPORTED, err, errlen, "operator %zu (%s): unsupported operator", i,
                op->is_custom ? "CUSTOM" : s24_tfl_op_name(op->opcode));
    }
  }
  if (st != S24_OK) goto fail;
  const s24_tfl_tensor_t *tin = &m->tensors[m->inputs[0]], *tout = &m->tensors[m->outputs[0]];
  if ((tin->type != S24_TFL_INT8 && tin->type != S24_TFL_FLOAT32) ||
      (tout->type != S24_TFL_INT8 && tout->type != S24_TFL_FLOAT32)) {
    st = s24_errorf(S24_ERR_UNSUPPORTED, err, errlen, "input %s and output %s must be INT8 or FLOAT32",
              s24_tfl_type_name(tin->type), s24_tfl_type_name(tout->type));
    goto fail;
  }
  if (tin->data != NULL || tin->elems == 0 || tout->elems == 0) {
    st = s24_errorf(S24_ERR_FORMAT, err, errlen, "the model's input or output tensor is empty or constant");
    goto fail;
  }
  net->data = calloc(m->n_tensors, sizeof(void *));
  net->layers = calloc(m->n_ops ? m->n_ops : 1, sizeof(layer_t));
  net->is_array = calloc(m->n_ops ? m->n_ops : 1, sizeof(int));
  int *ready = calloc(m->n_tensors, sizeof(int));  // computed or constant by now
  if (net->data == NULL || net->layers == NULL || net->is_array == NULL || ready == NULL) {
    free(ready);
    st = s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory");
    goto fail;
  }
  // buffers: an aligned copy of every constant, one buffer per other tensor
  for (size_t t = 0; t < m->n_tensors && st == S24_OK; t++) {
    const s24_tfl_tensor_t *x = &m->tensors[t];
    if (x->data != NULL) ready[t] = 1;
    if (x->type != S24_TFL_INT8 && x->type != S24_TFL_INT32 && x->type != S24_TFL_FLOAT32 &&
        x->type != S24_TFL_UINT8 && x->type != S24_TFL_INT16 && x->type != S24_TFL_INT64) {
      continue;  // an operator using it is refused by its check
    }
    net->data[t] = malloc(x->bytes ? x->bytes : 1);
    if (net->data[t] == NULL) {
      st = s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory for %s",
                tname(m, (int32_t)t, tb, sizeof tb));
    } else if (x->data != NULL) {
      memcpy(net->data[t], x->data, x->bytes);
    } else {
      memset(net->data[t], 0, x->bytes ? x->bytes : 1);
    }
  }
  ready[m->inputs[0]] = 1;
  for (size_t i = 0; i < m->n_ops && st == S24_OK; i++) {
    const s24_tfl_op_t *op = &m->ops[i];
    for (uint32_t j = 0; j < op->n_in && st == S24_OK; j++) {
      if (op->in[j] >= 0 && !ready[op->in[j]]) {
        st = s24_errorf(S24_ERR_FORMAT, err, errlen,
                  "operator %zu (%s): input %s is not computed before it", i,
                  s24_tfl_op_name(op->opcode), tname(m, op->in[j], tb, sizeof tb));
      }
    }
    for (uint32_t j = 0; j < op->n_out && st == S24_OK; j++) {
      if (op->out[j] < 0 || m->tensors[op->out[j]].data != NULL || op->out[j] == m->inputs[0]) {
        st = s24_errorf(S24_ERR_FORMAT, err, errlen,
                  "operator %zu (%s): output %d is missing, constant or the model's input", i,
                  s24_tfl_op_name(op->opcode), (int)op->out[j]);
      } else if (net->data[op->out[j]] == NULL) {
        st = s24_errorf(S24_ERR_UNSUPPORTED, err, errlen, "operator %zu (%s): output %s has type %s", i,
                  s24_tfl_op_name(op->opcode), tname(m, op->out[j], tb, sizeof tb),
                  s24_tfl_type_name(m->tensors[op->out[j]].type));
      } else {
        ready[op->out[j]] = 1;
      }
    }
    if (st != S24_OK) break;
    if (is_array_op(op->opcode)) {
      net->is_array[i] = 1;
      st = plan_array(net, i, err, errlen);
    } else {
      st = s24_op_check(m, i, err, errlen);
    }
  }
  if (st == S24_OK && !ready[m->outputs[0]]) {
    st = s24_errorf(S24_ERR_FORMAT, err, errlen, "the model's output %s is never computed",
              tname(m, m->outputs[0], tb, sizeof tb));
  }
  free(ready);
  if (st != S24_OK) goto fail;
  *out = net;
  return S24_OK;
fail:
  s24_net_free(net);
  return st;
}

// im2col of one CONV_2D: row p = output position (n, oy, ox), column = (ky, kx, ic)
static void im2col(const layer_t *L, const int8_t *x, int8_t *cols) {
  const int8_t pad = (int8_t)L->l.zi;
  int8_t *row = cols;
  for (int32_t n = 0; n < L->in_n; n++) {
    for (int32_t oy = 0; oy < L->out_h; oy++) {
      for (int32_t ox = 0; ox < L->out_w; ox++) {
        for (int32_t ky = 0; ky < L->kh; ky++) {
          const int64_t iy = (int64_t)oy * L->stride_h - L->pad_top + (int64_t)ky * L->dil_h;
          for (int32_t kx = 0; kx < L->kw; kx++) {
            const int64_t ix = (int64_t)ox * L->stride_w - L->pad_left + (int64_t)kx * L->dil_w;
            if (iy < 0 || iy >= L->in_h || ix < 0 || ix >= L->in_w) {
              memset(row, pad, (size_t)L->in_c);
            } else {
              memcpy(row, x + (((size_t)n * L->in_h + (size_t)iy) * L->in_w + (size_t)ix) * L->in_c,
                     (size_t)L->in_c);
            }
            row += L->in_c;
          }
        }
      }
    }
  }
}

s24_status_t s24_net_run(s24_net_t *net, const s24_engine_t *engine, const void *x, void *y,
                         char *err, size_t errlen) {
  if (net == NULL || engine == NULL || engine->linear == NULL || x == NULL || y == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  }
  const s24_tfl_model_t *m = &net->m;
  memcpy(net->data[m->inputs[0]], x, m->tensors[m->inputs[0]].bytes);
  for (size_t i = 0; i < m->n_ops; i++) {
    const s24_tfl_op_t *op = &m->ops[i];
    s24_status_t st;
    if (net->is_array[i]) {
      layer_t *L = &net->layers[i];
      const int8_t *in = net->data[op->in[0]];
      if (op->opcode == S24_OP_CONV_2D) {
        im2col(L, in, L->cols);
        in = L->cols;
      }
      uint64_t cyc = 0, jcyc = 0;
      st = engine->linear(engine->ctx, &L->l, in, net->data[op->out[0]], &cyc, &jcyc, err,
                          errlen);
      if (st != S24_OK) return st;
      L->cycles += cyc;
      L->job_cycles += jcyc;
    } else {
      st = s24_op_run(m, i, net->data);
      if (st != S24_OK) {
        return s24_errorf(st, err, errlen, "operator %zu (%s) failed: %s", i,
                    s24_tfl_op_name(op->opcode), s24_strerror(st));
      }
    }
  }
  memcpy(y, net->data[m->outputs[0]], m->tensors[m->outputs[0]].bytes);
  net->inferences++;
  return S24_OK;
}

// MACs of host operator i (DEPTHWISE_CONV_2D: output elements x filter taps; others 0)
static uint64_t host_macs(const s24_tfl_model_t *m, size_t i) {
  const s24_tfl_op_t *op = &m->ops[i];
  if (op->opcode != S24_OP_DEPTHWISE_CONV_2D || op->n_in < 2 || op->in[1] < 0) return 0;
  const s24_tfl_tensor_t *w = &m->tensors[op->in[1]], *o = &m->tensors[op->out[0]];
  if (w->rank != 4) return 0;
  return (uint64_t)o->elems * (uint64_t)w->dims[1] * (uint64_t)w->dims[2];
}

static s24_status_t layer_predict(const layer_t *L, s24_array_t hw, uint32_t epi_depth,
                                  uint32_t epi_lanes, uint64_t *cycles) {
  s24_gemm_cycles_t c;
  s24_status_t st =
      s24_linear_cycles(hw, epi_depth, epi_lanes, L->w, L->l.m, L->l.k, L->l.n, &c);
  if (st == S24_OK) *cycles = c.busy_cycles;
  return st;
}

static void pattern_str(s24_pattern_t p, char *buf, size_t len) {
  if (p.n == p.m) {
    snprintf(buf, len, "dense");
  } else {
    snprintf(buf, len, "%u:%u", (unsigned)p.n, (unsigned)p.m);
  }
}

s24_status_t s24_net_totals(const s24_net_t *net, const s24_engine_t *engine,
                            s24_net_totals_t *out) {
  if (net == NULL || engine == NULL || out == NULL) return S24_ERR_ARG;
  memset(out, 0, sizeof *out);
  const uint64_t inf = net->inferences;
  out->inferences = inf;
  for (size_t i = 0; i < net->m.n_ops; i++) {
    if (net->is_array[i]) {
      const layer_t *L = &net->layers[i];
      uint64_t pred = 0;
      s24_status_t st = layer_predict(L, engine->hw, engine->epi_depth, engine->epi_lanes, &pred);
      if (st != S24_OK) return st;
      out->ip_macs += inf * (uint64_t)L->l.m * L->l.k * L->l.n;
      out->predicted_cycles += inf * pred;
      out->cycles += L->cycles;
      out->job_cycles += L->job_cycles;
    } else {
      out->host_macs += inf * host_macs(&net->m, i);
    }
  }
  return S24_OK;
}

s24_status_t s24_net_stats(const s24_net_t *net, const s24_engine_t *engine, FILE *f) {
  if (net == NULL || engine == NULL || f == NULL) return S24_ERR_ARG;
  const uint64_t inf = net->inferences;
  fprintf(f, "backend: %s\n", engine->name != NULL ? engine->name : "?");
  fprintf(f, "array: %ux%u %u:%u\n", (unsigned)engine->hw.rows, (unsigned)engine->hw.cols,
          (unsigned)engine->hw.sparse_n, (unsigned)engine->hw.sparse_m);
  fprintf(f, "inferences: %llu\n", (unsigned long long)inf);
  for (size_t i = 0; i < net->m.n_ops; i++) {
    if (!net->is_array[i]) continue;
    const layer_t *L = &net->layers[i];
    uint64_t pred = 0;
    s24_status_t st = layer_predict(L, engine->hw, engine->epi_depth, engine->epi_lanes, &pred);
    if (st != S24_OK) return st;
    char pat[16];
    pattern_str(L->l.pattern, pat, sizeof pat);
    fprintf(f, "op%zu_name: %s\n", i, s24_tfl_op_name(L->l.opcode));
    fprintf(f, "op%zu_gemm_mkn: %zux%zux%zu\n", i, L->l.m, L->l.k, L->l.n);
    fprintf(f, "op%zu_pattern: %s\n", i, pat);
    if (engine->measures) {
      fprintf(f, "op%zu_cycles: %llu\n", i, (unsigned long long)L->cycles);
    }
    fprintf(f, "op%zu_predicted_cycles: %llu\n", i, (unsigned long long)(inf * pred));
  }
  s24_net_totals_t t;
  s24_status_t st = s24_net_totals(net, engine, &t);
  if (st != S24_OK) return st;
  fprintf(f, "ip_macs: %llu\n", (unsigned long long)t.ip_macs);
  fprintf(f, "host_macs: %llu\n", (unsigned long long)t.host_macs);
  if (engine->measures) {
    fprintf(f, "cycles: %llu\n", (unsigned long long)t.cycles);
    fprintf(f, "job_cycles: %llu\n", (unsigned long long)t.job_cycles);
  }
  fprintf(f, "predicted_cycles: %llu\n", (unsigned long long)t.predicted_cycles);
  const uint64_t c = engine->measures ? t.cycles : t.predicted_cycles;
  const double peak = (double)engine->hw.rows * engine->hw.cols * engine->hw.sparse_m;
  fprintf(f, "utilization: %.4f\n", c ? (double)t.ip_macs / ((double)c * peak) : 0.0);
  fprintf(f, "effective_macs_per_cycle: %.2f\n", c ? (double)t.ip_macs / (double)c : 0.0);
  return S24_OK;
}

s24_status_t s24_net_info(const s24_net_t *net, s24_array_t hw, uint32_t epi_depth,
                          uint32_t epi_lanes, FILE *f) {
  if (net == NULL || f == NULL) return S24_ERR_ARG;
  const s24_tfl_model_t *m = &net->m;
  const s24_tfl_tensor_t *in = s24_net_input(net), *out = s24_net_output(net);
  fprintf(f, "model: %zu operators, %zu tensors; input %s [", m->n_ops, m->n_tensors,
          s24_tfl_type_name(in->type));
  for (uint32_t d = 0; d < in->rank; d++) fprintf(f, d ? ", %d" : "%d", (int)in->dims[d]);
  fprintf(f, "], output %s [", s24_tfl_type_name(out->type));
  for (uint32_t d = 0; d < out->rank; d++) fprintf(f, d ? ", %d" : "%d", (int)out->dims[d]);
  fprintf(f, "]\n");
  fprintf(f, "cycle model: %ux%u %u:%u array, epilogue depth %u, %u lanes\n", (unsigned)hw.rows,
          (unsigned)hw.cols, (unsigned)hw.sparse_n, (unsigned)hw.sparse_m, (unsigned)epi_depth,
          (unsigned)epi_lanes);
  fprintf(f, "%-4s %-18s %-5s %-16s %-8s %12s %12s\n", "op", "name", "runs", "gemm MxKxN",
          "pattern", "macs", "cycles");
  uint64_t ip = 0, host = 0, cyc = 0;
  for (size_t i = 0; i < m->n_ops; i++) {
    if (net->is_array[i]) {
      const layer_t *L = &net->layers[i];
      uint64_t pred = 0;
      s24_status_t st = layer_predict(L, hw, epi_depth, epi_lanes, &pred);
      if (st != S24_OK) return st;
      const uint64_t macs = (uint64_t)L->l.m * L->l.k * L->l.n;
      char shape[64], pat[16];
      snprintf(shape, sizeof shape, "%zux%zux%zu", L->l.m, L->l.k, L->l.n);
      pattern_str(L->l.pattern, pat, sizeof pat);
      fprintf(f, "%-4zu %-18s %-5s %-16s %-8s %12llu %12llu\n", i, s24_tfl_op_name(L->l.opcode),
              "array", shape, pat, (unsigned long long)macs, (unsigned long long)pred);
      ip += macs;
      cyc += pred;
    } else {
      const uint64_t macs = host_macs(m, i);
      fprintf(f, "%-4zu %-18s %-5s %-16s %-8s %12llu %12s\n", i,
              s24_tfl_op_name(m->ops[i].opcode), "host", "-", "-", (unsigned long long)macs,
              "-");
      host += macs;
    }
  }
  fprintf(f, "ip_macs: %llu\n", (unsigned long long)ip);
  fprintf(f, "host_macs: %llu\n", (unsigned long long)host);
  fprintf(f, "predicted_cycles: %llu\n", (unsigned long long)cyc);
  return S24_OK;
}

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

s24_status_t s24_net_prune(const s24_net_t *net, s24_pattern_t p, uint8_t *out, size_t *pruned,
                           char *err, size_t errlen) {
  if (net == NULL || out == NULL || !s24_pattern_ok(p) || p.m > 8) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  }
  const s24_tfl_model_t *m = &net->m;
  memcpy(out, m->file, m->file_len);
  size_t n = 0;
  for (size_t i = 0; i < m->n_ops; i++) {
    if (!net->is_array[i]) continue;
    const s24_tfl_tensor_t *w = &m->tensors[m->ops[i].in[1]];
    const size_t oc = (size_t)w->dims[0], k = w->elems / oc;
    int8_t *base = (int8_t *)(out + w->data_offset);
    for (size_t r = 0; r < oc; r++) prune_row(p, base + r * k, k);
    n++;
  }
  if (pruned != NULL) *pruned = n;
  return S24_OK;
}
