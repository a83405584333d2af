// SPDX-License-Identifier: Apache-2.0
// sparse24 network runtime: the host kernels (s24_ops.h), ported from LiteRT's reference
// kernels (tflite/kernels/internal/reference/ and the Prepare steps of tflite/kernels/*.cc),
// built as LiteRT 2.x's BUILTIN_REF resolver runs them: kReference branches, the
// double-rounding MultiplyByQuantizedMultiplier of a build without TFLITE_SINGLE_ROUNDING (see
// mbqm below), gemmlowp fixed point for SOFTMAX.
//
// Every operator has one prep_* function that checks the operator completely and derives its
// parameters (multipliers from the float scales in the order and precision of the TFLite
// Prepare, the output shape, the activation range), and one run_* that computes from them; its
// row of kHostOps (at the end) names both. s24_op_prepare runs prep_* once, at load, into the
// arena (s24_op_check runs it without keeping anything), and s24_op_run runs run_* on what it
// derived every inference, so the kernels rely only on what prep_* has checked and nothing is
// derived or allocated twice.
#include "s24_ops.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>  // snprintf only: no FILE
#include <string.h>

// ------------------------------------------------------------------------------ messages

// One line "operator N (NAME): what" in err; returns st.
static s24_status_t op_fail(char *err, size_t errlen, size_t index, int32_t opcode,
                            s24_status_t st, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static s24_status_t op_fail(char *err, size_t errlen, size_t index, int32_t opcode,
                            s24_status_t st, const char *fmt, ...) {
  if (err != NULL && errlen > 0) {
    int n = snprintf(err, errlen, "operator %zu (%s): ", index, s24_tfl_op_name(opcode));
    if (n >= 0 && (size_t)n < errlen) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
      va_end(ap);
    }
  }
  return st;
}

// The context every prep_* works in: the model, the operator, where errors go, and the arena
// it takes per-operator arrays from (NULL for a check only: prep_* then derives no arrays).
typedef struct {
  const s24_tfl_model_t *m;
  const s24_tfl_op_t *op;
  size_t index;
  char *err;
  size_t errlen;
  s24_arena_t *arena;
} ctx_t;

#define FAIL(c, st, ...) op_fail((c)->err, (c)->errlen, (c)->index, (c)->op->opcode, (st), __VA_ARGS__)

#define TRY(x)                       \
  do {                               \
    const s24_status_t st_ = (x);    \
    if (st_ != S24_OK) return st_;   \
  } while (0)

// ------------------------------------------------------------------------------ arithmetic

// TfLiteRound of a float (std::round: half away from zero).
static float round_f(float x) { return roundf(x); }

// static_cast<int32_t>(float) as x86-64 computes it (cvttss2si): truncation, and INT32_MIN for
// NaN and anything outside the int32 range.
static int32_t f2i_trunc(float x) {
  if (!(x > -2147483904.0f && x < 2147483648.0f)) return INT32_MIN;
  return (int32_t)x;
}

// int32 addition modulo 2^32 (what the TFLite kernels' int32 sums do on overflow)
static int32_t wrap_add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }

// QuantizeMultiplier's common part: x (nonzero, finite) = qf * 2^(e - 31), qf rounded to 31
// bits, flushed to zero below 2^-31 as TFLite does; the callers deal with e > 30 their way
static int64_t q31_of(double x, int *e) {
  const double frac = frexp(x, e);
  int64_t qf = (int64_t)round(frac * (double)(1LL << 31));
  if (qf == (1LL << 31)) {
    qf /= 2;
    ++*e;
  }
  if (*e < -31) {
    *e = 0;
    qf = 0;
  }
  return qf;
}

void s24_quantize_multiplier(double x, int32_t *q, int32_t *shift) {
  if (q == NULL || shift == NULL) return;
  if (x == 0.0) {
    *q = 0;
    *shift = 0;
    return;
  }
  int e = 0;
  int64_t qf = q31_of(x, &e);
  if (e > 30) {  // single rounding saturates a shift above 30
    e = 30;
    qf = (1LL << 31) - 1;
  }
  *q = (int32_t)qf;
  *shift = e;
}

s24_status_t s24_act_range_i8(int32_t act, float s, int32_t zp, int32_t *lo, int32_t *hi) {
  if (lo == NULL || hi == NULL) return S24_ERR_ARG;
  // kernel_util.cc Quantize(): TfLiteRound(f / scale) in float, overflow checked, + zero point
  float f_lo = 0.0f, f_hi = 0.0f;
  int has_lo = 0, has_hi = 0;
  switch (act) {
    case S24_ACT_NONE:
      break;
    case S24_ACT_RELU:
      has_lo = 1;
      break;
    case S24_ACT_RELU6:
      has_lo = has_hi = 1;
      f_hi = 6.0f;
      break;
    case S24_ACT_RELU_N1_TO_1:
      has_lo = has_hi = 1;
      f_lo = -1.0f;
      f_hi = 1.0f;
      break;
    default:
      return S24_ERR_UNSUPPORTED;
  }
  int32_t l = -128, h = 127;
  if (has_lo) {
    const float t = round_f(f_lo / s);
    if (!(t >= -2147483648.0f && t <= 2147483648.0f)) return S24_ERR_UNSUPPORTED;
    const int32_t qv = wrap_add(zp, f2i_trunc(t));
    if (qv > l) l = qv;
  }
  if (has_hi) {
    const float t = round_f(f_hi / s);
    if (!(t >= -2147483648.0f && t <= 2147483648.0f)) return S24_ERR_UNSUPPORTED;
    const int32_t qv = wrap_add(zp, f2i_trunc(t));
    if (qv < h) h = qv;
  }
  *lo = l;
  *hi = h;
  return S24_OK;
}

// ---- gemmlowp fixed point (fixedpoint/fixedpoint.h), int32 scalars only

// Inlined where a loop of one element at a time calls it (this file is built for size on the SoC,
// where a call's register saves are stores through a write-through cache)
#if defined(__GNUC__)
#define S24_INLINE static inline __attribute__((always_inline))
#define S24_ALIGNED4(p) __builtin_assume_aligned((p), 4)
#else
#define S24_INLINE static inline
#define S24_ALIGNED4(p) (p)
#endif

S24_INLINE int32_t srdhm(int32_t a, int32_t b) {  // SaturatingRoundingDoublingHighMul
  if (a == b && a == INT32_MIN) return INT32_MAX;
  const int64_t ab = (int64_t)a * (int64_t)b;
  const int64_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  return (int32_t)((ab + nudge) / (1LL << 31));  // C division truncates, as in C++
}

S24_INLINE int32_t rdbpot(int32_t x, int exponent) {  // RoundingDivideByPOT, 0 <= exponent <= 31
  const int32_t mask = (int32_t)((UINT32_C(1) << exponent) - 1u);  // 32-bit: no 64-bit shift call
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

// SaturatingRoundingMultiplyByPOT<e> for e > 0 on int32
static int32_t sat_shl(int32_t x, int e) {
  const int32_t threshold = (int32_t)((1LL << (31 - e)) - 1);
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return (int32_t)((uint32_t)x << e);
}

static int32_t rounding_half_sum(int32_t a, int32_t b) {
  const int64_t sum = (int64_t)a + (int64_t)b;
  const int64_t sign = sum >= 0 ? 1 : -1;
  return (int32_t)((sum + sign) / 2);
}

// v clamped to the fused activation's int8 range [lo, hi] (lo <= hi)
static int32_t clamp_act(int32_t v, int32_t lo, int32_t hi) {
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  return v;
}

// MultiplyByQuantizedMultiplier (tflite/kernels/internal/common.cc) of the LiteRT build the
// reference is: the ai-edge-litert 2.3.0 wheel is built without TFLITE_SINGLE_ROUNDING, so
// every reference kernel that calls it (DEPTHWISE_CONV_2D, ADD via ...SmallerThanOneExp,
// SOFTMAX via ...GreaterThanOne, MEAN, QUANTIZE int8 -> int8, and CONV_2D) rounds twice,
// gemmlowp style: SaturatingRoundingDoublingHighMul(x * 2^max(shift, 0), q), then
// RoundingDivideByPOT by max(-shift, 0). tests/net (make test-ops) shows it: the single-rounding
// form (x * q + 2^(30 - shift)) >> (31 - shift) of SPEC §7, kept below for a LiteRT built with
// TFLITE_SINGLE_ROUNDING=1 (-DS24_OPS_SINGLE_ROUNDING), differs by 1 on some outputs.
S24_INLINE int32_t mbqm_inl(int32_t x, int32_t q, int shift) {
#ifdef S24_OPS_SINGLE_ROUNDING
  const int total = 31 - shift;
  const int64_t round = (int64_t)1 << (total - 1);
  return (int32_t)(((int64_t)x * (int64_t)q + round) >> total);
#else
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  return rdbpot(srdhm((int32_t)((uint32_t)x << left), q), right);  // x * 2^left wraps as in C++
#endif
}

static int32_t mbqm(int32_t x, int32_t q, int shift) { return mbqm_inl(x, q, shift); }

// QuantizeMultiplier (quantization_util.cc) as the double-rounding build runs it, for the new
// kernels: no saturation of a shift above 30 (that build has none), so a multiplier of 2^30 or
// more, whose left shift by 31 the kernels' int32 arithmetic cannot do, is refused, as is a
// non-finite one and (for a negative multiplier: LEAKY_RELU's alpha) a q of -2^31.
static s24_status_t quant_mult(const ctx_t *c, double x, int32_t *q, int32_t *shift,
                               const char *what) {
  *q = 0;
  *shift = 0;
  if (!isfinite(x))
    return FAIL(c, S24_ERR_UNSUPPORTED, "%s %g is not finite", what, x);
  if (x == 0.0) return S24_OK;
  int e = 0;
  const int64_t qf = q31_of(x, &e);
  if (e > 30 || qf <= INT32_MIN)
    return FAIL(c, S24_ERR_UNSUPPORTED, "%s %g out of the kernel's range (|x| < 2^30)", what, x);
  *q = (int32_t)qf;
  *shift = e;
  return S24_OK;
}

// exp(a) for a in [-1/4, 0), Q0.31 in and out
static int32_t exp_quarter(int32_t a) {
  const int32_t constant_term = 1895147668;    // exp(-1/8)
  const int32_t constant_1_over_3 = 715827883;  // 1/3
  const int32_t x = wrap_add(a, 1 << 28);       // a + 1/8
  const int32_t x2 = srdhm(x, x);
  const int32_t x3 = srdhm(x2, x);
  const int32_t x4 = srdhm(x2, x2);
  const int32_t x4_over_4 = rdbpot(x4, 2);
  const int32_t poly =
      rdbpot(wrap_add(srdhm(wrap_add(x4_over_4, x3), constant_1_over_3), x2), 1);
  return wrap_add(constant_term, srdhm(constant_term, wrap_add(x, poly)));
}

// exp_on_negative_values for FixedPoint<int32, 5> (Q5.26) in, Q0.31 out
static int32_t exp_neg_q5(int32_t a) {
  const int frac_bits = 26;
  const int32_t one_quarter = 1 << (frac_bits - 2);
  const int32_t mask = one_quarter - 1;
  const int32_t a_mod = (a & mask) - one_quarter;
  int32_t result = exp_quarter(sat_shl(a_mod, 5));  // Rescale<0> from 5 integer bits
  const int32_t remainder = (int32_t)((uint32_t)a_mod - (uint32_t)a);
  static const int32_t mult[7] = {1672461947, 1302514674, 790015084, 290630308,
                                  39332535,   720401,     242};
  for (int k = 0; k < 7; ++k) {  // exponents -2 .. +4, all below the 5 integer bits
    const int shift = frac_bits + (k - 2);
    if (remainder & (1 << shift)) result = srdhm(result, mult[k]);
  }
  if (a == 0) result = INT32_MAX;  // One() of Q0.31
  return result;
}

// one_over_one_plus_x_for_x_in_0_1, Q0.31 in and out
static int32_t one_over_one_plus_x(int32_t a) {
  const int32_t half_denominator = rounding_half_sum(a, INT32_MAX);
  const int32_t c48_17 = 1515870810;    // Q2.29
  const int32_t cm32_17 = -1010580540;  // Q2.29
  int32_t x = wrap_add(c48_17, srdhm(half_denominator, cm32_17));
  const int32_t one_q2 = 1 << 29;
  for (int i = 0; i < 3; ++i) {
    const int32_t hdx = srdhm(half_denominator, x);
    const int32_t one_minus = (int32_t)((uint32_t)one_q2 - (uint32_t)hdx);
    x = wrap_add(x, sat_shl(srdhm(x, one_minus), 2));  // Rescale<2> from Q4
  }
  return sat_shl(x, 1);  // Rescale<0>(ExactMulByPot<-1>(x)): Q1 -> Q0
}

// ------------------------------------------------------------------------------ tensors

static const s24_tfl_tensor_t *in_t(const ctx_t *c, uint32_t i) {
  if (i >= c->op->n_in || c->op->in[i] < 0) return NULL;
  return &c->m->tensors[c->op->in[i]];
}

static const s24_tfl_tensor_t *out_t(const ctx_t *c, uint32_t i) {
  if (i >= c->op->n_out || c->op->out[i] < 0) return NULL;
  return &c->m->tensors[c->op->out[i]];
}

static int32_t rd_i32(const void *p, size_t i) {
  int32_t v;
  memcpy(&v, (const uint8_t *)p + 4 * i, 4);
  return v;
}

static void wr_i32(void *p, size_t i, int32_t v) { memcpy((uint8_t *)p + 4 * i, &v, 4); }
static void wr_f32(void *p, size_t i, float v) { memcpy((uint8_t *)p + 4 * i, &v, 4); }

// Tensor name for messages: "tensor 12 (conv/w)", sanitised by the reader's s24_tfl_tensor_str
static const char *tname(const ctx_t *c, const s24_tfl_tensor_t *t, char *buf, size_t len) {
  return s24_tfl_tensor_str(c->m, (int32_t)(t - c->m->tensors), buf, len);
}

// FAIL with "ROLE tensor N (NAME) " before the message ("input tensor 3 (x) is INT16, ...").
static s24_status_t fail_tensor(const ctx_t *c, s24_status_t st, const s24_tfl_tensor_t *t,
                                const char *role, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static s24_status_t fail_tensor(const ctx_t *c, s24_status_t st, const s24_tfl_tensor_t *t,
                                const char *role, const char *fmt, ...) {
  char what[512], nb[96];  // the longest what (two shapes, fmt_shape) is under 300 characters
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return FAIL(c, st, "%s %s %s", role, tname(c, t, nb, sizeof nb), what);
}

// in_lo to in_hi inputs (the first in_lo present) and one output; *in is input 0, *out output 0.
static s24_status_t need_io(const ctx_t *c, uint32_t in_lo, uint32_t in_hi,
                            const s24_tfl_tensor_t **in, const s24_tfl_tensor_t **out) {
  if (c->op->n_in < in_lo || c->op->n_in > in_hi)
    return in_lo == in_hi
               ? FAIL(c, S24_ERR_FORMAT, "%u inputs, expected %u", (unsigned)c->op->n_in,
                      (unsigned)in_lo)
               : FAIL(c, S24_ERR_FORMAT, "%u inputs, expected %u to %u",
                      (unsigned)c->op->n_in, (unsigned)in_lo, (unsigned)in_hi);
  if (c->op->n_out != 1) return FAIL(c, S24_ERR_FORMAT, "%u outputs, expected 1",
                                     (unsigned)c->op->n_out);
  for (uint32_t i = 0; i < in_lo; ++i)
    if (c->op->in[i] < 0) return FAIL(c, S24_ERR_FORMAT, "input %u is missing", (unsigned)i);
  if (c->op->out[0] < 0) return FAIL(c, S24_ERR_FORMAT, "output 0 is missing");
  *in = in_t(c, 0);
  *out = out_t(c, 0);
  return S24_OK;
}

static s24_status_t need_type(const ctx_t *c, const s24_tfl_tensor_t *t, const char *role,
                              int32_t type) {
  if (t->type != type)
    return fail_tensor(c, S24_ERR_UNSUPPORTED, t, role, "is %s, expected %s",
                       s24_tfl_type_name(t->type), s24_tfl_type_name(type));
  return S24_OK;
}

// Per-tensor quantization with a finite positive scale and an int8 zero point.
static s24_status_t need_q8(const ctx_t *c, const s24_tfl_tensor_t *t, const char *role) {
  if (t->n_quant != 1)
    return fail_tensor(c, S24_ERR_UNSUPPORTED, t, role,
                       "has %zu quantization scales, expected 1 (per-tensor)", t->n_quant);
  const float s = t->scale[0];
  if (!(s > 0.0f) || !isfinite(s))
    return fail_tensor(c, S24_ERR_FORMAT, t, role,
                       "has scale %g, expected a finite positive scale", (double)s);
  if (t->zero_point[0] < -128 || t->zero_point[0] > 127)
    return fail_tensor(c, S24_ERR_FORMAT, t, role, "has zero point %lld outside int8",
                       (long long)t->zero_point[0]);
  return S24_OK;
}

// Input and output INT8, each with per-tensor quantization (both types checked first).
static s24_status_t need_q8_io(const ctx_t *c, const s24_tfl_tensor_t *in,
                               const s24_tfl_tensor_t *out) {
  TRY(need_type(c, in, "input", S24_TFL_INT8));
  TRY(need_type(c, out, "output", S24_TFL_INT8));
  TRY(need_q8(c, in, "input"));
  return need_q8(c, out, "output");
}

static s24_status_t need_const(const ctx_t *c, const s24_tfl_tensor_t *t, const char *role) {
  if (t->data == NULL) return fail_tensor(c, S24_ERR_UNSUPPORTED, t, role, "must be constant");
  return S24_OK;
}

static void fmt_shape(char *buf, size_t len, const int32_t *dims, uint32_t rank) {
  size_t n = 0;
  n += (size_t)snprintf(buf + n, len - n, "[");
  for (uint32_t i = 0; i < rank && n < len; ++i)
    n += (size_t)snprintf(buf + n, len - n, "%s%d", i ? ", " : "", (int)dims[i]);
  if (n < len) snprintf(buf + n, len - n, "]");
}

// The declared shape of output t must be dims[rank].
static s24_status_t need_shape(const ctx_t *c, const s24_tfl_tensor_t *t, const char *role,
                               const int32_t *dims, uint32_t rank) {
  int same = t->rank == rank;
  for (uint32_t i = 0; same && i < rank; ++i) same = t->dims[i] == dims[i];
  if (!same) {
    char want[128], got[128];
    fmt_shape(want, sizeof want, dims, rank);
    fmt_shape(got, sizeof got, t->dims, t->rank);
    return fail_tensor(c, S24_ERR_FORMAT, t, role, "has shape %s, the operator computes %s",
                       got, want);
  }
  return S24_OK;
}

static s24_status_t need_rank(const ctx_t *c, const s24_tfl_tensor_t *t, const char *role,
                              uint32_t rank) {
  if (t->rank != rank)
    return fail_tensor(c, S24_ERR_UNSUPPORTED, t, role, "has rank %u, expected %u",
                       (unsigned)t->rank, (unsigned)rank);
  return S24_OK;
}

// ------------------------------------------------------------------------------ padding

// ComputeOutSize + ComputePaddingWithOffset (tflite/kernels/padding.h); -1 if invalid
static int64_t out_size(int32_t padding, int64_t in, int64_t filter, int64_t stride,
                        int64_t dilation) {
  const int64_t eff = (filter - 1) * dilation + 1;
  if (padding == S24_PAD_SAME) return (in + stride - 1) / stride;
  const int64_t v = (in + stride - eff) / stride;
  return v < 0 ? -1 : v;
}

static int64_t pad_before(int64_t stride, int64_t dilation, int64_t in, int64_t filter,
                          int64_t out) {
  const int64_t eff = (filter - 1) * dilation + 1;
  int64_t total = (out - 1) * stride + eff - in;
  if (total < 0) total = 0;
  return total / 2;
}

// SAME or VALID (the paddings the kernels implement)
static s24_status_t need_padding(const ctx_t *c, int32_t padding) {
  if (padding != S24_PAD_SAME && padding != S24_PAD_VALID)
    return FAIL(c, S24_ERR_UNSUPPORTED, "padding %d", (int)padding);
  return S24_OK;
}

// ------------------------------------------------------------------------------ parameters

// What each operator's prep_* derives and its run_* reads: one struct per operator (QUANTIZE and
// DEQUANTIZE share one, as do ADD and SUB, LOGISTIC and TANH, RELU and RELU6; SHAPE needs none),
// all in one union, params_t, that s24_op_prepare zeroes on its stack and hands to the prep_* of
// the operator's row of kHostOps; the arena keeps that operator's member only (the row's size:
// the largest member, lut_t's 256-byte table, only where it is used), which run_* reads. None
// holds pointers to storage of its own, so the member is copied as bytes.

typedef struct {
  const s24_tfl_tensor_t *in, *filter, *bias, *out;
  int32_t n, ih, iw, ic, kh, kw, oc, oh, ow, depth_mult;
  int32_t sh, sw, dh, dw, ph, pw;
  int32_t in_off, out_off, act_lo, act_hi;
  int32_t *mult, *shift;  // per output channel (oc entries, in the arena)
} dw_t;

// The broadcast of two inputs a and b (CalculateShapeForBroadcast): the output's index in
// odims, last dimension fastest, and the strides of a and b along each output dimension
typedef struct {
  uint32_t rank;  // of the output (ranks of a and b aligned at the end)
  int32_t odims[S24_TFL_MAX_DIMS];
  size_t astr[S24_TFL_MAX_DIMS], bstr[S24_TFL_MAX_DIMS];  // 0 along broadcast dims
} bcast_t;

typedef struct {  // ADD and SUB
  const s24_tfl_tensor_t *a, *b, *out;
  bcast_t bc;
  int sub;  // SUB: a - b
  int32_t a_off, b_off, out_off, left_shift;
  int32_t a_mult, a_shift, b_mult, b_shift, out_mult, out_shift, act_lo, act_hi;
  s24_add_tab_t *tab;  // the inputs' rescaled values times the output multiplier (the arena)
} add_t;

typedef struct {
  const s24_tfl_tensor_t *a, *b, *out;
  bcast_t bc;
  int32_t a_off, b_off, out_off, mult, shift, act_lo, act_hi;
} mul_t;

typedef struct {  // LOGISTIC, TANH: LiteRT's int8 lookup table, built in Prepare
  const s24_tfl_tensor_t *in, *out;
  int8_t lut[256];  // indexed by the input byte (uint8_t)x
} lut_t;

typedef struct {  // RELU, RELU6 (ReluX)
  const s24_tfl_tensor_t *in, *out;
  int32_t in_zp, out_zp, mult, shift, act_lo, act_hi;
} relu_t;

typedef struct {
  const s24_tfl_tensor_t *in, *out;
  int32_t in_zp, out_zp, mult_alpha, shift_alpha, mult_id, shift_id;
} leaky_t;

typedef struct {  // HardSwishParams
  const s24_tfl_tensor_t *in, *out;
  int32_t in_zp, out_zp;
  int16_t out_mult, relu_mult;  // Q0.15
  int32_t out_exp, relu_exp;
} hswish_t;

typedef struct {  // CONCATENATION: each input's slab of bytes per outer index, in order
  const s24_tfl_tensor_t *out;
  size_t outer;
  size_t chunk[S24_TFL_MAX_OP_IO];
} concat_t;

typedef struct {  // SPLIT: the input cut into n_out equal slabs per outer index
  const s24_tfl_tensor_t *in;
  size_t outer, chunk;
} split_t;

typedef struct {  // SQUEEZE: a copy
  const s24_tfl_tensor_t *in, *out;
} squeeze_t;

typedef struct {
  const s24_tfl_tensor_t *in, *out;
  uint32_t rank;
  size_t esize;
  size_t istr[S24_TFL_MAX_DIMS];  // input stride (elements) along each output dimension
} transpose_t;

typedef struct {
  const s24_tfl_tensor_t *in, *out;
  int32_t n, ih, iw, oh, ow;
  size_t pixel;  // bytes per pixel (channels x element size)
  float scale_h, scale_w;
  int align_corners, half_pixel_centers;
} resize_t;

typedef struct {
  const s24_tfl_tensor_t *in, *out;
  int32_t n, ih, iw, ch, oh, ow, fh, fw, sh, sw, ph, pw, act_lo, act_hi;
} pool_t;

typedef struct {
  const s24_tfl_tensor_t *in, *out;
  uint32_t rank;
  int32_t before[S24_TFL_MAX_DIMS];
  int8_t value;
} pad_t;

typedef struct {
  const s24_tfl_tensor_t *in, *out;
  int reduced[S24_TFL_MAX_DIMS];  // 1 for a reduced input dimension
  int32_t mult, shift;            // QuantizeMultiplier(s_in / s_out)
  int64_t count;                  // elements per output
  int32_t *sums;                  // out->elems sums (in the arena)
} mean_t;

typedef struct {
  const s24_tfl_tensor_t *in, *out;
  int32_t mult, left_shift, diff_min;
  size_t depth, outer;
} softmax_t;

typedef struct {
  const s24_tfl_tensor_t *in, *out;
  int requant;  // int8 -> int8
  int32_t mult, shift;
  // FLOAT32 -> int8 (in the arena): thr[j] the least float key (s24_quant_key) whose output is at least
  // -127 + j, for inputs whose magnitude's bits are below dom; DEQUANTIZE: deq[q + 128] the output
  int32_t *thr;
  uint32_t dom;
  // a first guess at the count (quant_lookup): 1/s = inv_m * 2^inv_e (inv_m 16 bits), zo + 128
  uint32_t inv_m;
  int32_t inv_e, base;
  float *deq;
} quant_t;

typedef struct {
  const s24_tfl_tensor_t *in, *shape, *out;  // shape: a non-constant shape tensor or NULL
} reshape_t;

typedef struct {
  const s24_tfl_tensor_t *in, *out;
  uint32_t rank;
  int32_t start[S24_TFL_MAX_DIMS], stop[S24_TFL_MAX_DIMS], stride[S24_TFL_MAX_DIMS];
  size_t esize;
} slice_t;

typedef struct {
  const s24_tfl_tensor_t *in0, *out;
  int32_t axis;
  size_t outer, inner_bytes;  // product of dims before axis; bytes of one input after it
} pack_t;

typedef union {
  dw_t dw;
  add_t add;
  mul_t mul;
  lut_t lut;
  relu_t relu;
  leaky_t leaky;
  hswish_t hswish;
  concat_t concat;
  split_t split;
  squeeze_t squeeze;
  transpose_t transpose;
  resize_t resize;
  pool_t pool;
  pad_t pad;
  mean_t mean;
  softmax_t softmax;
  quant_t quant;
  reshape_t reshape;
  slice_t slice;
  pack_t pack;
} params_t;

// ------------------------------------------------------------------------------ DEPTHWISE_CONV_2D

// The check, and with an arena the per-channel multipliers p->mult[ch], p->shift[ch]
static s24_status_t prep_dw(const ctx_t *c, params_t *pp) {
  dw_t *const p = &pp->dw;
  const s24_tfl_options_t *o = &c->op->opt;
  TRY(need_io(c, 2, 3, &p->in, &p->out));
  p->filter = in_t(c, 1);
  p->bias = in_t(c, 2);
  TRY(need_type(c, p->in, "input", S24_TFL_INT8));
  TRY(need_type(c, p->filter, "filter", S24_TFL_INT8));
  TRY(need_type(c, p->out, "output", S24_TFL_INT8));
  TRY(need_rank(c, p->in, "input", 4));
  TRY(need_rank(c, p->filter, "filter", 4));
  TRY(need_q8(c, p->in, "input"));
  TRY(need_q8(c, p->out, "output"));
  p->n = p->in->dims[0];
  p->ih = p->in->dims[1];
  p->iw = p->in->dims[2];
  p->ic = p->in->dims[3];
  p->kh = p->filter->dims[1];
  p->kw = p->filter->dims[2];
  p->oc = p->filter->dims[3];
  if (p->ih <= 0 || p->iw <= 0 || p->ic <= 0 || p->kh <= 0 || p->kw <= 0 || p->oc <= 0)
    return FAIL(c, S24_ERR_FORMAT, "empty input or filter dimension");
  if (p->filter->dims[0] != 1)
    return FAIL(c, S24_ERR_FORMAT, "filter dimension 0 is %d, expected 1",
                (int)p->filter->dims[0]);
  if (p->oc % p->ic != 0)
    return FAIL(c, S24_ERR_FORMAT, "%d filter channels are not a multiple of the %d input "
                "channels", (int)p->oc, (int)p->ic);
  p->depth_mult = p->oc / p->ic;  // as ComputeDepthMultiplier: from the shapes
  if (o->stride_h <= 0 || o->stride_w <= 0 || o->stride_h > INT16_MAX ||
      o->stride_w > INT16_MAX)
    return FAIL(c, S24_ERR_FORMAT, "stride %dx%d out of range", (int)o->stride_h,
                (int)o->stride_w);
  if (o->dilation_h <= 0 || o->dilation_w <= 0 || o->dilation_h > INT16_MAX ||
      o->dilation_w > INT16_MAX)
    return FAIL(c, S24_ERR_FORMAT, "dilation %dx%d out of range", (int)o->dilation_h,
                (int)o->dilation_w);
  TRY(need_padding(c, o->padding));
  p->sh = o->stride_h;
  p->sw = o->stride_w;
  p->dh = o->dilation_h;
  p->dw = o->dilation_w;
  const int64_t oh = out_size(o->padding, p->ih, p->kh, p->sh, p->dh);
  const int64_t ow = out_size(o->padding, p->iw, p->kw, p->sw, p->dw);
  if (oh < 0 || ow < 0 || oh > INT32_MAX || ow > INT32_MAX)
    return FAIL(c, S24_ERR_FORMAT, "the filter does not fit the input");
  p->oh = (int32_t)oh;
  p->ow = (int32_t)ow;
  p->ph = (int32_t)pad_before(p->sh, p->dh, p->ih, p->kh, oh);
  p->pw = (int32_t)pad_before(p->sw, p->dw, p->iw, p->kw, ow);
  const int32_t want[4] = {p->n, p->oh, p->ow, p->oc};
  TRY(need_shape(c, p->out, "output", want, 4));
  if (p->bias != NULL) {
    TRY(need_type(c, p->bias, "bias", S24_TFL_INT32));
    const int32_t bdims[1] = {p->oc};
    TRY(need_shape(c, p->bias, "bias", bdims, 1));
  }
  // PopulateConvolutionQuantizationParams: per channel or one filter scale
  const s24_tfl_tensor_t *f = p->filter;
  if (f->n_quant != 1 && f->n_quant != (size_t)p->oc)
    return FAIL(c, S24_ERR_UNSUPPORTED, "filter has %zu scales for %d channels", f->n_quant,
                (int)p->oc);
  if (f->n_quant > 1 && (f->quant_dim < 0 || f->quant_dim >= 4 ||
                         f->dims[f->quant_dim] != p->oc))
    return FAIL(c, S24_ERR_UNSUPPORTED, "filter quantized dimension %d is not the channel "
                "dimension", (int)f->quant_dim);
  const double s_in = (double)p->in->scale[0];
  const double s_out = (double)p->out->scale[0];
  if (c->arena != NULL) {
    p->mult = s24_arena_alloc(c->arena, (size_t)p->oc * sizeof(int32_t), 0);
    p->shift = s24_arena_alloc(c->arena, (size_t)p->oc * sizeof(int32_t), 0);
    if (p->mult == NULL || p->shift == NULL)
      return FAIL(c, S24_ERR_NOMEM, "the arena has no room for %d multipliers", (int)p->oc);
  }
  for (int32_t ch = 0; ch < p->oc; ++ch) {
    const float fs = f->scale[f->n_quant > 1 ? (size_t)ch : 0];
    if (!(fs >= 0.0f) || !isfinite(fs))
      return FAIL(c, S24_ERR_FORMAT, "filter scale %g of channel %d", (double)fs, (int)ch);
    if (p->mult != NULL) {
      const double eff = s_in * (double)fs / s_out;
      s24_quantize_multiplier(eff, &p->mult[ch], &p->shift[ch]);
    }
  }
  p->in_off = -(int32_t)p->in->zero_point[0];
  p->out_off = (int32_t)p->out->zero_point[0];
  if (s24_act_range_i8(o->activation, p->out->scale[0], p->out_off, &p->act_lo, &p->act_hi) !=
      S24_OK)
    return FAIL(c, S24_ERR_UNSUPPORTED, "fused activation %d", (int)o->activation);
  return S24_OK;
}

// A 32-bit load of int8 tensor bytes (GCC and Clang: may alias anything); the bytes of a word in
// memory order where the target is little-endian (the host and RV32 alike), else never used
typedef uint32_t u32_alias_t __attribute__((may_alias));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define S24_WORD_BYTES 1
#else
#define S24_WORD_BYTES 0
#endif

// (int8 byte `sh` / 8 of w) * (int8 byte of x + off), as the sum's uint32 term
static uint32_t byte_mac(uint32_t w, uint32_t x, int sh, int32_t off) {
  return (uint32_t)((int32_t)(int8_t)(w >> sh) * ((int32_t)(int8_t)(x >> sh) + off));
}

// The taps f in [0, k) of one window whose input index o0 + d*f lies in [0, n): [*lo, *hi) (o0 the
// window's first input index, d the dilation; empty: *lo == *hi). Once per output row or column,
// so that the MAC loop below has no bounds check.
static void tap_range(int64_t o0, int32_t d, int32_t k, int32_t n, int32_t *lo, int32_t *hi) {
  int64_t a = o0 < 0 ? (-o0 + d - 1) / d : 0;        // the first f with o0 + d*f >= 0
  int64_t e = n - 1 - o0 < 0 ? 0 : (n - 1 - o0) / d + 1;  // f < e  <=>  o0 + d*f <= n - 1
  if (e > k) e = k;
  if (a > e) a = e;
  *lo = (int32_t)a;
  *hi = (int32_t)e;
}

// reference_integer_ops::DepthwiseConv with its sums modulo 2^32 (the order of the additions does
// not matter then): per output pixel the taps inside the input, per channel a walk of pointers.
static void conv_dw(const dw_t *p, const int8_t *x, const int8_t *w, const void *bias, int8_t *y) {
  const int32_t *const mult = p->mult, *const shift = p->shift;
  const int32_t in_off = p->in_off, dm = p->depth_mult;
  const size_t ic = (size_t)p->ic, oc = (size_t)p->oc;
  const size_t x_fx = (size_t)p->dw * ic, w_fx = oc;  // the next tap along x
  const size_t x_fy = (size_t)p->dh * (size_t)p->iw * ic, w_fy = (size_t)p->kw * oc;  // along y
  // one depth multiplier, channels in fours and both tensors word-aligned (then every tap is): four
  // channels a load
  const int quad = S24_WORD_BYTES && dm == 1 && ic % 4 == 0 && ((uintptr_t)x & 3u) == 0 &&
                   ((uintptr_t)w & 3u) == 0;
  for (int32_t b = 0; b < p->n; ++b)
    for (int32_t oy = 0; oy < p->oh; ++oy) {
      const int64_t y0 = (int64_t)oy * p->sh - p->ph;
      int32_t fy0, fy1;
      tap_range(y0, p->dh, p->kh, p->ih, &fy0, &fy1);
      for (int32_t ox = 0; ox < p->ow; ++ox) {
        const int64_t x0 = (int64_t)ox * p->sw - p->pw;
        int32_t fx0, fx1;
        tap_range(x0, p->dw, p->kw, p->iw, &fx0, &fx1);
        const int taps = fy0 < fy1 && fx0 < fx1;
        // the first tap inside the input (only read when there is one)
        const size_t iy = taps ? (size_t)(y0 + (int64_t)p->dh * fy0) : 0;
        const size_t ix = taps ? (size_t)(x0 + (int64_t)p->dw * fx0) : 0;
        const int8_t *const xt = x + (((size_t)b * p->ih + iy) * p->iw + ix) * ic;
        const int8_t *const wt = taps ? w + ((size_t)fy0 * p->kw + (size_t)fx0) * oc : w;
        int8_t *const yo = y + (((size_t)b * p->oh + (size_t)oy) * p->ow + (size_t)ox) * oc;
        if (quad) {  // four channels a word: a load of x and one of w feed four MACs
          for (size_t ch = 0; ch < oc; ch += 4) {
            uint32_t acc[4] = {0, 0, 0, 0};
            if (taps) {  // offsets from xt and wt (a step past the last tap makes no pointer)
              size_t xr = ch, wr = ch;
              for (int32_t fy = fy0; fy < fy1; ++fy, xr += x_fy, wr += w_fy) {
                size_t xp = xr, wp = wr;
                for (int32_t fx = fx0; fx < fx1; ++fx, xp += x_fx, wp += w_fx) {
                  const uint32_t xv = *(const u32_alias_t *)(const void *)(xt + xp);
                  const uint32_t wv = *(const u32_alias_t *)(const void *)(wt + wp);
                  acc[0] += byte_mac(wv, xv, 0, in_off);
                  acc[1] += byte_mac(wv, xv, 8, in_off);
                  acc[2] += byte_mac(wv, xv, 16, in_off);
                  acc[3] += byte_mac(wv, xv, 24, in_off);
                }
              }
            }
            for (size_t k = 0; k < 4; ++k) {
              int32_t v = (int32_t)acc[k];
              if (bias != NULL) v = wrap_add(v, rd_i32(bias, ch + k));
              v = mbqm(v, mult[ch + k], shift[ch + k]) + p->out_off;
              yo[ch + k] = (int8_t)clamp_act(v, p->act_lo, p->act_hi);
            }
          }
          continue;
        }
        for (size_t ch = 0, ci = 0; ci < ic; ++ci)
          for (int32_t mm = 0; mm < dm; ++mm, ++ch) {
            uint32_t acc = 0;
            if (taps) {  // offsets, as above
              size_t xr = ci, wr = ch;
              for (int32_t fy = fy0; fy < fy1; ++fy, xr += x_fy, wr += w_fy) {
                size_t xp = xr, wp = wr;
                for (int32_t fx = fx0; fx < fx1; ++fx, xp += x_fx, wp += w_fx)
                  acc += (uint32_t)((int32_t)wt[wp] * ((int32_t)xt[xp] + in_off));
              }
            }
            int32_t v = (int32_t)acc;
            if (bias != NULL) v = wrap_add(v, rd_i32(bias, ch));
            v = mbqm(v, mult[ch], shift[ch]) + p->out_off;
            yo[ch] = (int8_t)clamp_act(v, p->act_lo, p->act_hi);
          }
      }
    }
}

static s24_status_t run_dw(const ctx_t *c, const params_t *pp, void *const *data) {
  const s24_tfl_op_t *op = c->op;
  const dw_t *p = &pp->dw;
  if (p->mult == NULL) return S24_ERR_ARG;  // prepared without an arena
  conv_dw(p, data[op->in[0]], data[op->in[1]], p->bias != NULL ? data[op->in[2]] : NULL,
          data[op->out[0]]);
  return S24_OK;
}

// ------------------------------------------------------------------------------ ADD, SUB, MUL

// CalculateShapeForBroadcast of inputs a and b, checked against the declared output
static s24_status_t prep_bcast(const ctx_t *c, const s24_tfl_tensor_t *a,
                               const s24_tfl_tensor_t *b, const s24_tfl_tensor_t *out,
                               bcast_t *bc) {
  const uint32_t ra = a->rank, rb = b->rank;
  bc->rank = ra > rb ? ra : rb;
  size_t sa = 1, sb = 1;
  for (uint32_t k = bc->rank; k-- > 0;) {
    const int32_t da = k + ra >= bc->rank ? a->dims[k + ra - bc->rank] : 1;
    const int32_t db = k + rb >= bc->rank ? b->dims[k + rb - bc->rank] : 1;
    if (da != db && da != 1 && db != 1)
      return FAIL(c, S24_ERR_FORMAT, "input shapes do not broadcast (dimension %u: %d vs %d)",
                  (unsigned)k, (int)da, (int)db);
    bc->odims[k] = da == 1 ? db : da;
    bc->astr[k] = da == 1 ? 0 : sa;
    bc->bstr[k] = db == 1 ? 0 : sb;
    sa *= (size_t)da;
    sb *= (size_t)db;
  }
  return need_shape(c, out, "output", bc->odims, bc->rank);
}

// The next output index of the broadcast (idx[rank], last dimension fastest) and the elements
// *ia, *ib of a and b it reads
static void bcast_next(const bcast_t *bc, size_t *idx, size_t *ia, size_t *ib) {
  for (uint32_t k = bc->rank; k-- > 0;) {
    ++idx[k];
    *ia += bc->astr[k];
    *ib += bc->bstr[k];
    if (idx[k] < (size_t)bc->odims[k]) return;
    *ia -= bc->astr[k] * idx[k];
    *ib -= bc->bstr[k] * idx[k];
    idx[k] = 0;
  }
}

// Both inputs and the output INT8 with per-tensor quantization
static s24_status_t need_q8_binary(const ctx_t *c, const s24_tfl_tensor_t *a,
                                   const s24_tfl_tensor_t *b, const s24_tfl_tensor_t *out) {
  TRY(need_type(c, a, "input 1", S24_TFL_INT8));
  TRY(need_type(c, b, "input 2", S24_TFL_INT8));
  TRY(need_type(c, out, "output", S24_TFL_INT8));
  TRY(need_q8(c, a, "input 1"));
  TRY(need_q8(c, b, "input 2"));
  return need_q8(c, out, "output");
}

// add.cc and sub.cc Prepare, 8-bit path (PrepareGeneralSubOp is ADD's arithmetic)
// One input of ADD/SUB rescaled: ((q + off) * 2^left_shift), times its multiplier
static int32_t add_in(int32_t q, int32_t off, int32_t left_shift, int32_t mult, int32_t shift) {
  return mbqm((off + q) * (1 << left_shift), mult, shift);
}

static s24_status_t prep_add(const ctx_t *c, params_t *pp) {
  add_t *const p = &pp->add;
  TRY(need_io(c, 2, 2, &p->a, &p->out));
  p->b = in_t(c, 1);
  p->sub = c->op->opcode == S24_OP_SUB;
  TRY(need_q8_binary(c, p->a, p->b, p->out));
  TRY(prep_bcast(c, p->a, p->b, p->out, &p->bc));
  p->a_off = -(int32_t)p->a->zero_point[0];
  p->b_off = -(int32_t)p->b->zero_point[0];
  p->out_off = (int32_t)p->out->zero_point[0];
  p->left_shift = 20;
  const float sa_f = p->a->scale[0], sb_f = p->b->scale[0], so_f = p->out->scale[0];
  const double twice_max = (double)(2 * (sa_f > sb_f ? sa_f : sb_f));
  const double ra_m = (double)sa_f / twice_max;
  const double rb_m = (double)sb_f / twice_max;
  const double ro_m = twice_max / (double)((float)(1 << p->left_shift) * so_f);
  // a multiplier of 1 or more aborts (QuantizeMultiplierSmallerThanOneExp) or, for SUB, takes
  // the double-rounding kernel's right shift by a negative amount
  if (!(ro_m < 1.0) || !(ro_m > 0.0) || !isfinite(twice_max))
    return FAIL(c, S24_ERR_UNSUPPORTED, "output scale %g too small for input scales %g, %g "
                "(the 8-bit %s needs 2*max(s1,s2) < 2^20*s_out)", (double)so_f,
                (double)sa_f, (double)sb_f, p->sub ? "SUB" : "ADD");
  s24_quantize_multiplier(ra_m, &p->a_mult, &p->a_shift);
  s24_quantize_multiplier(rb_m, &p->b_mult, &p->b_shift);
  s24_quantize_multiplier(ro_m, &p->out_mult, &p->out_shift);
  if (s24_act_range_i8(c->op->opt.activation, so_f, p->out_off, &p->act_lo, &p->act_hi) !=
      S24_OK)
    return FAIL(c, S24_ERR_UNSUPPORTED, "fused activation %d", (int)c->op->opt.activation);
  // RoundingDivideByPOT takes exponents 0 .. 31 (gemmlowp asserts it; beyond, the shift is
  // undefined in C and C++ alike)
  if (p->out_shift < -31)
    return FAIL(c, S24_ERR_UNSUPPORTED, "output scale %g too large for input scales %g, %g "
                "(the output's right shift %d is above 31)", (double)so_f, (double)sa_f,
                (double)sb_f, (int)-p->out_shift);
  if (c->arena != NULL) {  // the inputs' rescaling depends on the int8 value alone: once, here
    p->tab = s24_arena_alloc(c->arena, sizeof(s24_add_tab_t), 16);
    if (p->tab == NULL)
      return FAIL(c, S24_ERR_NOMEM, "the arena has no room for the inputs' rescaling tables");
    for (int32_t q = -128; q < 128; ++q) {
      p->tab->p[0][q + 128] = add_in(q, p->a_off, p->left_shift, p->a_mult, p->a_shift);
      p->tab->p[1][q + 128] = add_in(q, p->b_off, p->left_shift, p->b_mult, p->b_shift);
    }
    if (s24_add_tab_make(p->tab, p->out_mult, p->out_shift, p->sub, p->out_off, p->act_lo,
                         p->act_hi) != S24_OK)
      return FAIL(c, S24_ERR_UNSUPPORTED, "input scales %g, %g out of the 8-bit kernel's range",
                  (double)sa_f, (double)sb_f);
  }
  return S24_OK;
}

// reference_integer_ops::AddElementwise, reference_ops::SubElementwise: the sum of the two
// rescaled inputs, rescaled to the output, from prep_add's tables (the SoC's add unit's form)
S24_INLINE int8_t add_one(const add_t *p, int8_t x, int8_t y) {
  return s24_add_elem(p->tab, x, y);
}

static s24_status_t run_add(const ctx_t *c, const params_t *pp, void *const *data) {
  const add_t *const p = &pp->add;
  if (p->tab == NULL) return S24_ERR_ARG;  // prepared without an arena
  const int8_t *x = data[c->op->in[0]], *y = data[c->op->in[1]];
  int8_t *z = data[c->op->out[0]];
  if (p->a->elems == p->out->elems && p->b->elems == p->out->elems) {  // nothing broadcast
    size_t o = 0;
    if ((((uintptr_t)x | (uintptr_t)y | (uintptr_t)z) & 3u) == 0) {
      // planned tensors: four elements a 32-bit load of each input and one store (on the SoC a
      // quarter of the cache misses where the inputs share cache lines' places, and of the
      // write-through stores); one shift picks the same element of x's, y's and z's words, on
      // either endianness
      const uint8_t *xa = S24_ALIGNED4(x), *ya = S24_ALIGNED4(y);
      uint8_t *za = S24_ALIGNED4(z);
      for (; o + 4 <= p->out->elems; o += 4) {
        uint32_t xv, yv, zv = 0;
        memcpy(&xv, xa + o, 4);
        memcpy(&yv, ya + o, 4);
        for (unsigned q = 0; q < 32; q += 8) {
          const int8_t r = add_one(p, (int8_t)(uint8_t)(xv >> q), (int8_t)(uint8_t)(yv >> q));
          zv |= (uint32_t)(uint8_t)r << q;
        }
        memcpy(za + o, &zv, 4);
      }
    }
    for (; o < p->out->elems; ++o) z[o] = add_one(p, x[o], y[o]);
    return S24_OK;
  }
  size_t idx[S24_TFL_MAX_DIMS] = {0};
  size_t ia = 0, ib = 0;
  for (size_t o = 0; o < p->out->elems; ++o) {
    z[o] = add_one(p, x[ia], y[ib]);
    bcast_next(&p->bc, idx, &ia, &ib);
  }
  return S24_OK;
}

// mul.cc Prepare: the multiplier s1 * s2 / s_out computed in float, as the kernel does
static s24_status_t prep_mul(const ctx_t *c, params_t *pp) {
  mul_t *const p = &pp->mul;
  TRY(need_io(c, 2, 2, &p->a, &p->out));
  p->b = in_t(c, 1);
  TRY(need_q8_binary(c, p->a, p->b, p->out));
  TRY(prep_bcast(c, p->a, p->b, p->out, &p->bc));
  p->a_off = -(int32_t)p->a->zero_point[0];
  p->b_off = -(int32_t)p->b->zero_point[0];
  p->out_off = (int32_t)p->out->zero_point[0];
  if (s24_act_range_i8(c->op->opt.activation, p->out->scale[0], p->out_off, &p->act_lo,
                       &p->act_hi) != S24_OK)
    return FAIL(c, S24_ERR_UNSUPPORTED, "fused activation %d", (int)c->op->opt.activation);
  const float real = p->a->scale[0] * p->b->scale[0] / p->out->scale[0];
  return quant_mult(c, (double)real, &p->mult, &p->shift, "scale ratio s1*s2/s_out");
}

// reference_integer_ops::MulElementwise / BroadcastMul6DSlow
static s24_status_t run_mul(const ctx_t *c, const params_t *pp, void *const *data) {
  const mul_t *const p = &pp->mul;
  const int8_t *x = data[c->op->in[0]], *y = data[c->op->in[1]];
  int8_t *z = data[c->op->out[0]];
  size_t idx[S24_TFL_MAX_DIMS] = {0};
  size_t ia = 0, ib = 0;
  for (size_t o = 0; o < p->out->elems; ++o) {
    const int32_t prod = (p->a_off + x[ia]) * (p->b_off + y[ib]);
    int32_t r = p->out_off + mbqm(prod, p->mult, p->shift);
    r = clamp_act(r, p->act_lo, p->act_hi);
    z[o] = (int8_t)r;
    bcast_next(&p->bc, idx, &ia, &ib);
  }
  return S24_OK;
}

// ------------------------------------------------------------------------------ pooling

static s24_status_t prep_pool(const ctx_t *c, params_t *pp) {
  pool_t *const p = &pp->pool;
  const s24_tfl_options_t *o = &c->op->opt;
  TRY(need_io(c, 1, 1, &p->in, &p->out));
  TRY(need_type(c, p->in, "input", S24_TFL_INT8));
  TRY(need_type(c, p->out, "output", S24_TFL_INT8));
  TRY(need_rank(c, p->in, "input", 4));
  TRY(need_q8(c, p->out, "output"));
  p->n = p->in->dims[0];
  p->ih = p->in->dims[1];
  p->iw = p->in->dims[2];
  p->ch = p->in->dims[3];
  if (o->stride_h <= 0 || o->stride_w <= 0)
    return FAIL(c, S24_ERR_FORMAT, "stride %dx%d", (int)o->stride_h, (int)o->stride_w);
  if (o->filter_h <= 0 || o->filter_w <= 0)
    return FAIL(c, S24_ERR_FORMAT, "filter %dx%d", (int)o->filter_h, (int)o->filter_w);
  TRY(need_padding(c, o->padding));
  p->fh = o->filter_h;
  p->fw = o->filter_w;
  p->sh = o->stride_h;
  p->sw = o->stride_w;
  // ComputePaddingHeightWidth (unchecked: an invalid size gives 0)
  int64_t oh = out_size(o->padding, p->ih, p->fh, p->sh, 1);
  int64_t ow = out_size(o->padding, p->iw, p->fw, p->sw, 1);
  if (oh < 0) oh = 0;
  if (ow < 0) ow = 0;
  p->oh = (int32_t)oh;
  p->ow = (int32_t)ow;
  p->ph = (int32_t)pad_before(p->sh, 1, p->ih, p->fh, oh);
  p->pw = (int32_t)pad_before(p->sw, 1, p->iw, p->fw, ow);
  const int32_t want[4] = {p->n, p->oh, p->ow, p->ch};
  TRY(need_shape(c, p->out, "output", want, 4));
  if (s24_act_range_i8(o->activation, p->out->scale[0], (int32_t)p->out->zero_point[0],
                       &p->act_lo, &p->act_hi) != S24_OK)
    return FAIL(c, S24_ERR_UNSUPPORTED, "fused activation %d", (int)o->activation);
  return S24_OK;
}

// The average's sums a word at a time: acc[k] += the sum of bytes k (k < cn, a multiple of 4) of
// the n pixels at px, px + stride, ... (px and stride word-aligned), as LiteRT's int32 sum. Each
// byte is biased to unsigned (x ^ 0x80 = x + 128) and a word's even and odd bytes summed in two
// words of 16-bit lanes, at most 256 pixels at a time (256 x 255 < 2^16); sixteen channels (eight
// lane words, in registers) go over a block of pixels before the next sixteen, the block small
// enough (2 KiB) to stay in the data cache meanwhile, so the window is read from memory once.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static uint32_t ld32(const int8_t *p) {
  uint32_t v;
  memcpy(&v, __builtin_assume_aligned(p, 4), 4);
  return v ^ 0x80808080u;
}

static void pool_sum_words(const int8_t *px, size_t n, size_t stride, size_t cn, int32_t *acc) {
  const uint32_t M = 0x00ff00ffu;
  size_t blk = 2048 / stride;
  if (blk == 0) blk = 1;
  if (blk > 256) blk = 256;
  for (size_t p0 = 0; p0 < n; p0 += blk) {
    const size_t m = n - p0 < blk ? n - p0 : blk;
    const int32_t bias = (int32_t)(128u * m);
    for (size_t k = 0; k < cn; k += 16) {
      const size_t words = cn - k < 16 ? (cn - k) / 4 : 4;
      const int8_t *q = px + p0 * stride + k;
      uint32_t e[4] = {0, 0, 0, 0}, o[4] = {0, 0, 0, 0};
      if (words == 4) {
        uint32_t e0 = 0, e1 = 0, e2 = 0, e3 = 0, o0 = 0, o1 = 0, o2 = 0, o3 = 0;
        for (size_t i = 0; i < m; i++, q += stride) {
          const uint32_t a = ld32(q), b = ld32(q + 4), cc = ld32(q + 8), d = ld32(q + 12);
          e0 += a & M;
          o0 += a >> 8 & M;
          e1 += b & M;
          o1 += b >> 8 & M;
          e2 += cc & M;
          o2 += cc >> 8 & M;
          e3 += d & M;
          o3 += d >> 8 & M;
        }
        e[0] = e0, e[1] = e1, e[2] = e2, e[3] = e3;
        o[0] = o0, o[1] = o1, o[2] = o2, o[3] = o3;
      } else {
        for (size_t i = 0; i < m; i++, q += stride)
          for (size_t j = 0; j < words; j++) {
            const uint32_t a = ld32(q + 4 * j);
            e[j] += a & M;
            o[j] += a >> 8 & M;
          }
      }
      for (size_t j = 0; j < words; j++) {  // little-endian: byte 0 is the low lane of e
        int32_t *ak = acc + k + 4 * j;
        ak[0] = wrap_add(ak[0], (int32_t)(e[j] & 0xffffu) - bias);
        ak[1] = wrap_add(ak[1], (int32_t)(o[j] & 0xffffu) - bias);
        ak[2] = wrap_add(ak[2], (int32_t)(e[j] >> 16) - bias);
        ak[3] = wrap_add(ak[3], (int32_t)(o[j] >> 16) - bias);
      }
    }
  }
}
#else
static void pool_sum_words(const int8_t *px, size_t n, size_t stride, size_t cn, int32_t *acc) {
  for (size_t i = 0; i < n; i++, px += stride)
    for (size_t k = 0; k < cn; k++) acc[k] = wrap_add(acc[k], px[k]);
}
#endif

static s24_status_t run_pool(const ctx_t *c, const params_t *pp, void *const *data) {
  const pool_t *const p = &pp->pool;
  const int is_max = c->op->opcode == S24_OP_MAX_POOL_2D;
  const int8_t *x = data[c->op->in[0]];
  int8_t *y = data[c->op->out[0]];
  if (p->out->elems == 0) return S24_OK;  // (n x oh x ow may be large with 0 channels)
  // each output position's window once, then its channels in chunks, innermost: the input's
  // pixels are read along their channels (NHWC), not one channel at a time across them
  enum { CHUNK = 64 };
  int32_t acc[CHUNK];
  const size_t ch = (size_t)p->ch;
  // the average a word at a time (pool_sum_words): whole words a pixel, the input word-aligned
  const int words = ch % 4 == 0 && ((uintptr_t)x & 3u) == 0;
  for (int32_t b = 0; b < p->n; ++b)
    for (int32_t oy = 0; oy < p->oh; ++oy)
      for (int32_t ox = 0; ox < p->ow; ++ox) {
        const int64_t x0 = (int64_t)ox * p->sw - p->pw;
        const int64_t y0 = (int64_t)oy * p->sh - p->ph;
        const int64_t fx0 = x0 < 0 ? -x0 : 0;
        const int64_t fx1 = p->fw < p->iw - x0 ? p->fw : p->iw - x0;
        const int64_t fy0 = y0 < 0 ? -y0 : 0;
        const int64_t fy1 = p->fh < p->ih - y0 ? p->fh : p->ih - y0;
        // the window's pixels (SAME and VALID windows always overlap the input; 0 otherwise)
        const int32_t nx = fx1 > fx0 ? (int32_t)(fx1 - fx0) : 0;
        const int32_t ny = fy1 > fy0 ? (int32_t)(fy1 - fy0) : 0;
        const int32_t count = nx > 0 && ny > 0 ? (int32_t)((int64_t)nx * ny) : 1;
        const int8_t *xw = nx == 0 || ny == 0 ? x
                                        : x + (((size_t)b * (size_t)p->ih + (size_t)(y0 + fy0)) *
                                                   (size_t)p->iw + (size_t)(x0 + fx0)) * ch;
        int8_t *yo = y + (((size_t)b * (size_t)p->oh + (size_t)oy) * (size_t)p->ow + (size_t)ox) * ch;
        for (size_t c0 = 0; c0 < ch; c0 += CHUNK) {
          const size_t cn = ch - c0 < CHUNK ? ch - c0 : CHUNK;
          for (size_t k = 0; k < cn; ++k) acc[k] = is_max ? -128 : 0;
          if (!is_max && words) {  // a window of whole input rows is one run of pixels
            const int whole = nx == p->iw;
            for (int32_t fy = 0; fy < (whole ? 1 : ny); ++fy)
              pool_sum_words(xw + (size_t)fy * (size_t)p->iw * ch + c0,
                             whole ? (size_t)nx * (size_t)ny : (size_t)nx, ch, cn, acc);
          } else {
            for (int32_t fy = 0; fy < ny; ++fy)
              for (int32_t fx = 0; fx < nx; ++fx) {
                const int8_t *xi = xw + ((size_t)fy * (size_t)p->iw + (size_t)fx) * ch + c0;
                if (is_max) {
                  for (size_t k = 0; k < cn; ++k)
                    if (xi[k] > acc[k]) acc[k] = xi[k];
                } else {
                  for (size_t k = 0; k < cn; ++k) acc[k] = wrap_add(acc[k], xi[k]);
                }
              }
          }
          for (size_t k = 0; k < cn; ++k) {
            int32_t v = acc[k];
            if (!is_max) v = v > 0 ? (v + count / 2) / count : (v - count / 2) / count;
            yo[c0 + k] = (int8_t)clamp_act(v, p->act_lo, p->act_hi);
          }
        }
      }
  return S24_OK;
}

// ------------------------------------------------------------------------------ PAD

static s24_status_t prep_pad(const ctx_t *c, params_t *pp) {
  pad_t *const p = &pp->pad;
  TRY(need_io(c, 2, 3, &p->in, &p->out));
  const s24_tfl_tensor_t *pads = in_t(c, 1);
  const s24_tfl_tensor_t *cv = in_t(c, 2);
  TRY(need_type(c, p->in, "input", S24_TFL_INT8));
  TRY(need_type(c, p->out, "output", S24_TFL_INT8));
  TRY(need_q8(c, p->out, "output"));
  TRY(need_type(c, pads, "paddings", S24_TFL_INT32));
  TRY(need_const(c, pads, "paddings"));
  p->rank = p->in->rank;
  if (p->rank > 5) return FAIL(c, S24_ERR_UNSUPPORTED, "input rank %u above 5",
                                        (unsigned)p->rank);
  const int32_t pdims[2] = {(int32_t)p->rank, 2};
  TRY(need_shape(c, pads, "paddings", pdims, 2));
  int32_t want[S24_TFL_MAX_DIMS];
  for (uint32_t k = 0; k < p->rank; ++k) {
    const int32_t lo = rd_i32(pads->data, 2 * k), hi = rd_i32(pads->data, 2 * k + 1);
    if (lo < 0 || hi < 0)
      return FAIL(c, S24_ERR_FORMAT, "negative padding %d, %d in dimension %u", (int)lo,
                  (int)hi, (unsigned)k);
    const int64_t d = (int64_t)p->in->dims[k] + lo + hi;
    if (d > INT32_MAX) return FAIL(c, S24_ERR_FORMAT, "padded dimension %u overflows",
                                          (unsigned)k);
    p->before[k] = lo;
    want[k] = (int32_t)d;
  }
  TRY(need_shape(c, p->out, "output", want, p->rank));
  p->value = (int8_t)p->out->zero_point[0];
  if (cv != NULL) {  // constant_values: one int8 in the output's quantization
    TRY(need_type(c, cv, "constant_values", S24_TFL_INT8));
    TRY(need_const(c, cv, "constant_values"));
    if (cv->elems != 1)
      return FAIL(c, S24_ERR_FORMAT, "constant_values has %zu elements, expected 1", cv->elems);
    TRY(need_q8(c, cv, "constant_values"));
    if (cv->zero_point[0] != p->out->zero_point[0] || cv->scale[0] != p->out->scale[0])
      return FAIL(c, S24_ERR_FORMAT, "constant_values and output quantization differ");
    p->value = (int8_t)cv->data[0];
  }
  return S24_OK;
}

// The next index idx[rank] over dims (last dimension fastest), *off kept equal to the sum of
// idx[k] * str[k]
static void walk_next(size_t *idx, const int32_t *dims, uint32_t rank, const size_t *str,
                      size_t *off) {
  for (uint32_t k = rank; k-- > 0;) {
    ++idx[k];
    *off += str[k];
    if (idx[k] < (size_t)dims[k]) return;
    *off -= str[k] * idx[k];
    idx[k] = 0;
  }
}

static s24_status_t run_pad(const ctx_t *c, const params_t *pp, void *const *data) {
  const pad_t *const p = &pp->pad;
  const int8_t *x = data[c->op->in[0]];
  int8_t *y = data[c->op->out[0]];
  memset(y, (uint8_t)p->value, p->out->elems);
  if (p->in->elems == 0) return S24_OK;
  size_t ostr[S24_TFL_MAX_DIMS];
  size_t s = 1;
  for (uint32_t k = p->rank; k-- > 0;) {
    ostr[k] = s;
    s *= (size_t)p->out->dims[k];
  }
  size_t idx[S24_TFL_MAX_DIMS] = {0};
  size_t o = 0;  // where input element idx goes
  for (uint32_t k = 0; k < p->rank; ++k) o += (size_t)p->before[k] * ostr[k];
  for (size_t i = 0; i < p->in->elems; ++i) {
    y[o] = x[i];
    walk_next(idx, p->in->dims, p->rank, ostr, &o);
  }
  return S24_OK;
}

// ------------------------------------------------------------------------------ MEAN

static s24_status_t prep_mean(const ctx_t *c, params_t *pp) {
  mean_t *const p = &pp->mean;
  TRY(need_io(c, 2, 2, &p->in, &p->out));
  const s24_tfl_tensor_t *ax = in_t(c, 1);
  TRY(need_q8_io(c, p->in, p->out));
  TRY(need_type(c, ax, "axis", S24_TFL_INT32));
  TRY(need_const(c, ax, "axis"));
  if (ax->rank > 1) return FAIL(c, S24_ERR_FORMAT, "axis has rank %u",
                                          (unsigned)ax->rank);
  const uint32_t r = p->in->rank;
  if (r == 0) return FAIL(c, S24_ERR_UNSUPPORTED, "scalar input");
  memset(p->reduced, 0, sizeof p->reduced);
  for (size_t i = 0; i < ax->elems; ++i) {
    int32_t a = rd_i32(ax->data, i);
    if (a < 0) a += (int32_t)r;
    if (a < 0 || a >= (int32_t)r)
      return FAIL(c, S24_ERR_FORMAT, "axis %d out of range for rank %u",
                  (int)rd_i32(ax->data, i), (unsigned)r);
    p->reduced[a] = 1;
  }
  int32_t want[S24_TFL_MAX_DIMS];
  uint32_t wr = 0;
  p->count = 1;
  for (uint32_t k = 0; k < r; ++k) {
    if (p->reduced[k]) {
      p->count *= p->in->dims[k];
      if (c->op->opt.keep_dims) want[wr++] = 1;
    } else {
      want[wr++] = p->in->dims[k];
    }
  }
  TRY(need_shape(c, p->out, "output", want, wr));
  const double real = (double)p->in->scale[0] / (double)p->out->scale[0];
  s24_quantize_multiplier(real, &p->mult, &p->shift);
  if (c->arena != NULL) {
    p->sums = s24_arena_alloc(c->arena, (p->out->elems ? p->out->elems : 1) * sizeof(int32_t), 0);
    if (p->sums == NULL)
      return FAIL(c, S24_ERR_NOMEM, "the arena has no room for %zu sums", p->out->elems);
  }
  return S24_OK;
}

// reference_ops::QuantizedMeanOrSum (compute_sum = false), the sums in sums[out->elems]
static void mean_sums(const mean_t *p, const int8_t *x, int8_t *y, int32_t *sums) {
  const uint32_t r = p->in->rank;
  const size_t n_out = p->out->elems;
  memset(y, 0, n_out);
  if (p->in->elems == 0 || p->count == 0) return;  // empty input: zeros
  for (size_t i = 0; i < n_out; ++i) sums[i] = 0;
  // output strides over the kept dimensions
  size_t ostr[S24_TFL_MAX_DIMS];
  size_t s = 1;
  for (uint32_t k = r; k-- > 0;) {
    ostr[k] = p->reduced[k] ? 0 : s;
    if (!p->reduced[k]) s *= (size_t)p->in->dims[k];
  }
  size_t idx[S24_TFL_MAX_DIMS] = {0};
  size_t o = 0;
  for (size_t i = 0; i < p->in->elems; ++i) {
    sums[o] = wrap_add(sums[o], x[i]);
    walk_next(idx, p->in->dims, r, ostr, &o);
  }
  int32_t mult = p->mult, shift = p->shift;
  int sh = 63 - __builtin_clzll((unsigned long long)p->count);
  if (sh > 32) sh = 32;
  if (sh > 31 + shift) sh = 31 + shift;
  mult = (int32_t)(((int64_t)mult << sh) / p->count);
  shift = shift - sh;
  const int32_t zi = (int32_t)p->in->zero_point[0], zo = (int32_t)p->out->zero_point[0];
  for (size_t i = 0; i < n_out; ++i) {
    const int32_t shifted = (int32_t)(uint32_t)((int64_t)sums[i] - (int64_t)zi * p->count);
    int32_t v = mbqm(shifted, mult, shift) + zo;
    if (v < -128) v = -128;
    if (v > 127) v = 127;
    y[i] = (int8_t)v;
  }
}

static s24_status_t run_mean(const ctx_t *c, const params_t *pp, void *const *data) {
  const mean_t *const p = &pp->mean;
  if (p->sums == NULL) return S24_ERR_ARG;  // prepared without an arena
  mean_sums(p, data[c->op->in[0]], data[c->op->out[0]], p->sums);
  return S24_OK;
}

// ------------------------------------------------------------------------------ SOFTMAX

static s24_status_t prep_softmax(const ctx_t *c, params_t *pp) {
  softmax_t *const p = &pp->softmax;
  TRY(need_io(c, 1, 1, &p->in, &p->out));
  TRY(need_q8_io(c, p->in, p->out));
  if (p->in->rank < 1) return FAIL(c, S24_ERR_FORMAT, "scalar input");
  TRY(need_shape(c, p->out, "output", p->in->dims, p->in->rank));
  // activations.cc SoftmaxPrepare: int8 out must be zero point -128, scale 1/256
  if (p->out->zero_point[0] != -128)
    return FAIL(c, S24_ERR_FORMAT, "output zero point %lld, expected -128",
                (long long)p->out->zero_point[0]);
  if (!(fabsf(p->out->scale[0] - 1.0f / 256) <= 0.001f * 1.0f / 256))
    return FAIL(c, S24_ERR_FORMAT, "output scale %g, expected 1/256",
                (double)p->out->scale[0]);
  // PreprocessSoftmaxScaling with 5 integer bits: beta * s_in * 2^26 in double, capped at
  // 2^31 - 1 (2^30 - 1 with TFLITE_SINGLE_ROUNDING); a multiplier that reaches the cap is
  // refused (its left shift of 31 overflows in TFLite), so the cap never applies here
  const double beta = (double)c->op->opt.beta;
  const double real = beta * (double)p->in->scale[0] * (double)(1 << (31 - 5));
  if (!(real > 1.0) || !(real < (double)(1LL << 30) - 1.0))
    return FAIL(c, S24_ERR_UNSUPPORTED, "beta * input scale = %g out of range (2^-26, 16)",
                beta * p->in->scale[0]);
  s24_quantize_multiplier(real, &p->mult, &p->left_shift);
  // CalculateInputRadius(5, left_shift, 31)
  const double max_in = 1.0 * ((1 << 5) - 1) * (double)(1LL << (31 - 5)) /
                        (double)(1LL << p->left_shift);
  p->diff_min = -(int32_t)floor(max_in);
  p->depth = (size_t)p->in->dims[p->in->rank - 1];
  p->outer = p->depth == 0 ? 0 : p->in->elems / p->depth;
  return S24_OK;
}

// S24_ERR_UNSUPPORTED for a row whose exponentials sum to 2^9 or more (possible only with more
// than 256 classes): LiteRT's reference kernel aborts there (TFLITE_CHECK on the exponent).
static s24_status_t run_softmax(const ctx_t *c, const params_t *pp, void *const *data) {
  const softmax_t *const p = &pp->softmax;
  const int8_t *x = data[c->op->in[0]];
  int8_t *y = data[c->op->out[0]];
  for (size_t i = 0; i < p->outer; ++i) {
    const int8_t *row = x + i * p->depth;
    int8_t *orow = y + i * p->depth;
    int32_t max_in = -128;
    for (size_t k = 0; k < p->depth; ++k)
      if (row[k] > max_in) max_in = row[k];
    int32_t sum = 0;  // Q12.19
    for (size_t k = 0; k < p->depth; ++k) {
      const int32_t diff = row[k] - max_in;
      if (diff >= p->diff_min) {
        const int32_t scaled = mbqm(diff, p->mult, p->left_shift);
        sum = wrap_add(sum, rdbpot(exp_neg_q5(scaled), 12));
      }
    }
    // GetReciprocal(sum, 12, &num_bits_over_unit)
    const int headroom = sum == 0 ? 32 : __builtin_clz((uint32_t)sum);
    const int bits_over_unit = 12 - headroom;
    const int32_t shifted_minus_one =
        (int32_t)(((uint32_t)sum << (headroom & 31)) - (UINT32_C(1) << 31));
    const int32_t scale = one_over_one_plus_x(shifted_minus_one);
    const int exponent = bits_over_unit + 31 - 8;
    if (exponent < 0 || exponent > 31) return S24_ERR_UNSUPPORTED;
    for (size_t k = 0; k < p->depth; ++k) {
      const int32_t diff = row[k] - max_in;
      if (diff >= p->diff_min) {
        const int32_t scaled = mbqm(diff, p->mult, p->left_shift);
        const int32_t e = exp_neg_q5(scaled);
        int32_t v = rdbpot(srdhm(scale, e), exponent) - 128;
        if (v > 127) v = 127;
        if (v < -128) v = -128;
        orow[k] = (int8_t)v;
      } else {
        orow[k] = -128;
      }
    }
  }
  return S24_OK;
}

// ------------------------------------------------------------------------------ QUANTIZE, DEQUANTIZE

// reference_ops::AffineQuantize of one value: TfLiteRound(val / scale) + zero point in float, as
// x86-64 converts it (f2i_trunc), clamped to int8
static int8_t quant_one(float x, float s, int32_t zo) {
  int32_t v = wrap_add(f2i_trunc(round_f(x / s)), zo);
  if (v < -128) v = -128;
  if (v > 127) v = 127;
  return (int8_t)v;
}

// A float's bits as an int32 that orders like the float's value (-0 just below +0):
// s24_quant_key (cmodel/s24_model.h), its own inverse
static float key_f32(int64_t k) {
  const uint32_t b = (uint32_t)s24_quant_key((uint32_t)(int32_t)k);
  float f;
  memcpy(&f, &b, 4);
  return f;
}

// The least key in [lo, hi] whose quant_one is at least v (hi + 1: none), quant_one being monotone
// there: a gallop from the guess k0 to a bracket, then bisection (a few evaluations a threshold)
static int32_t first_at_least(int64_t lo, int64_t hi, int64_t k0, int32_t v, float s, int32_t zo) {
  int64_t a, b, step = 1;  // !(a reaches v) or a == lo - 1; b reaches v or b == hi + 1
  if (quant_one(key_f32(k0), s, zo) >= v) {
    b = k0;
    for (a = b - 1; a >= lo && quant_one(key_f32(a), s, zo) >= v; a = b - step) {
      b = a;
      step *= 2;
    }
    if (a < lo) a = lo - 1;
  } else {
    a = k0;
    for (b = a + 1; b <= hi && quant_one(key_f32(b), s, zo) < v; b = a + step) {
      a = b;
      step *= 2;
    }
    if (b > hi) b = hi + 1;
  }
  while (b - a > 1) {
    const int64_t m = a + (b - a) / 2;
    if (quant_one(key_f32(m), s, zo) >= v) b = m;
    else a = m;
  }
  return (int32_t)b;
}

// FLOAT32 -> int8 by table (prepared once): quant_one is monotone in the input while
// |x / scale| <= 2^24 (no wrap, no int32 overflow: division and both roundings are monotone), that
// is for |x| < dom = scale * 2^24; there the output is -128 plus the number of thresholds at or
// below the input's key, eight comparisons. Outside (NaN, infinities, huge values) quant_one itself.
static s24_status_t prep_quant_table(const ctx_t *c, quant_t *p, float s, int32_t zo) {
  p->thr = s24_arena_alloc(c->arena, 255 * sizeof(int32_t), 0);
  if (p->thr == NULL)
    return FAIL(c, S24_ERR_NOMEM, "the arena has no room for a quantization table");
  const float bound = s * 16777216.0f;  // may be +inf: every finite input
  uint32_t dom;
  memcpy(&dom, &bound, 4);
  p->dom = dom;
  const int64_t hi = (int64_t)dom - 1, lo = -(int64_t)dom;  // keys of -bound < x < bound
  for (int32_t j = 0; j < 255; ++j) {
    const int32_t v = -127 + j;
    float guess = ((float)(v - zo) - 0.5f) * s;
    if (!(guess > -bound)) guess = -bound;
    if (!(guess < bound)) guess = bound;
    uint32_t gb;
    memcpy(&gb, &guess, 4);
    int64_t k0 = s24_quant_key(gb);
    if (k0 < lo) k0 = lo;
    if (k0 > hi) k0 = hi;
    p->thr[j] = first_at_least(lo, hi, k0, v, s, zo);
  }
  int e = 0;
  const double m = frexp(1.0 / (double)s, &e);  // [0.5, 1)
  p->inv_m = (uint32_t)(m * 65536.0);           // [2^15, 2^16)
  p->inv_e = e - 16;
  p->base = zo + 128;
  return S24_OK;
}

// One float (its bits) quantized by prep_quant_table's thresholds: -128 plus the number at or below
// its key; quant_one itself outside the table's domain
S24_INLINE int8_t quant_lookup(const quant_t *p, uint32_t bits, float s, int32_t zo) {
  if ((bits & 0x7FFFFFFFu) >= p->dom) {
    float x;
    memcpy(&x, &bits, 4);
    return quant_one(x, s, zo);
  }
  const int32_t k = s24_quant_key(bits);
  const int32_t *t = p->thr;
  // the thresholds at or below k (they ascend): thr[0 .. a). A guess first, round(x / s) + zo +
  // 128 in fixed point (|x|'s top 16 mantissa bits times 1/s's 16: within one of the count),
  // then the thresholds walked from it to the count (exact for any guess; one or two steps)
  const uint32_t mag = bits & 0x7FFFFFFFu, ex = mag >> 23;
  int32_t a = p->base;
  if (ex != 0) {  // (zero and subnormals: the guess 0)
    const uint32_t prod = (((mag & 0x7FFFFFu) | 0x800000u) >> 8) * p->inv_m;  // |x|/s = prod*2^sh
    const int32_t sh = (int32_t)ex - 142 + p->inv_e;
    uint32_t v = 255;
    if (sh < -32) {
      v = 0;
    } else if (sh < 0) {
      v = ((prod >> (-sh - 1)) + 1u) >> 1;  // rounded
      if (v > 255) v = 255;
    }
    a = (bits >> 31) ? a - (int32_t)v : a + (int32_t)v;
    if (a < 0) a = 0;
    if (a > 255) a = 255;
  }
  while (a < 255 && t[a] <= k) ++a;
  while (a > 0 && t[a - 1] > k) --a;
  return (int8_t)((int32_t)a - 128);
}

static s24_status_t prep_quantize(const ctx_t *c, params_t *pp) {
  quant_t *const p = &pp->quant;
  TRY(need_io(c, 1, 1, &p->in, &p->out));
  TRY(need_type(c, p->out, "output", S24_TFL_INT8));
  TRY(need_q8(c, p->out, "output"));
  if (p->in->type == S24_TFL_FLOAT32) {
    p->requant = 0;
  } else if (p->in->type == S24_TFL_INT8) {
    TRY(need_q8(c, p->in, "input"));
    p->requant = 1;
    const double eff = (double)p->in->scale[0] / (double)p->out->scale[0];
    s24_quantize_multiplier(eff, &p->mult, &p->shift);
  } else {
    return fail_tensor(c, S24_ERR_UNSUPPORTED, p->in, "input", "is %s, expected FLOAT32 or INT8",
                       s24_tfl_type_name(p->in->type));
  }
  TRY(need_shape(c, p->out, "output", p->in->dims, p->in->rank));
  if (!p->requant && c->arena != NULL)
    TRY(prep_quant_table(c, p, (float)(double)p->out->scale[0], (int32_t)p->out->zero_point[0]));
  return S24_OK;
}

// The floats at x (their bytes; inlined twice, so the aligned call's loads are words) into y.
S24_INLINE void quant_floats(const quant_t *p, const uint8_t *x, int8_t *y, float s, int32_t zo,
                             size_t from) {
  for (size_t i = from; i < p->in->elems; ++i) {
    uint32_t bits;
    memcpy(&bits, x + 4 * i, 4);
    y[i] = quant_lookup(p, bits, s, zo);
  }
}

// The float path of QUANTIZE (by prep's table) on elements from `from` on
static void quant_run_from(const quant_t *p, const uint8_t *x, int8_t *y, size_t from) {
  const int32_t zo = (int32_t)p->out->zero_point[0];
  const float s = (float)(double)p->out->scale[0];
  if (((uintptr_t)x & 3u) == 0) {  // a planned tensor: each float one aligned load (no call)
    quant_floats(p, S24_ALIGNED4(x), y, s, zo, from);
  } else {
    quant_floats(p, x, y, s, zo, from);
  }
}

static s24_status_t run_quantize(const ctx_t *c, const params_t *pp, void *const *data) {
  const quant_t *const p = &pp->quant;
  int8_t *y = data[c->op->out[0]];
  const int32_t zo = (int32_t)p->out->zero_point[0];
  if (p->requant) {  // reference_ops::Requantize
    const int8_t *xi = data[c->op->in[0]];
    const int32_t zi = (int32_t)p->in->zero_point[0];
    for (size_t i = 0; i < p->in->elems; ++i) {
      int32_t v = wrap_add(mbqm(xi[i] - zi, p->mult, p->shift), zo);  // int32 wraparound
      if (v > 127) v = 127;
      if (v < -128) v = -128;
      y[i] = (int8_t)v;
    }
    return S24_OK;
  }
  if (p->thr == NULL) return S24_ERR_ARG;  // prepared without an arena
  // reference_ops::AffineQuantize: TfLiteRound(val / (float)scale) in float, by prep's table
  quant_run_from(p, data[c->op->in[0]], y, 0);
  return S24_OK;
}

static s24_status_t prep_dequantize(const ctx_t *c, params_t *pp) {
  quant_t *const p = &pp->quant;
  TRY(need_io(c, 1, 1, &p->in, &p->out));
  TRY(need_type(c, p->in, "input", S24_TFL_INT8));
  TRY(need_type(c, p->out, "output", S24_TFL_FLOAT32));
  TRY(need_q8(c, p->in, "input"));
  TRY(need_shape(c, p->out, "output", p->in->dims, p->in->rank));
  if (c->arena != NULL) {  // the 256 outputs, once
    p->deq = s24_arena_alloc(c->arena, 256 * sizeof(float), 0);
    if (p->deq == NULL)
      return FAIL(c, S24_ERR_NOMEM, "the arena has no room for a dequantization table");
    // reference_integer_ops::Dequantize: static_cast<float>(double scale * (val - zero_point))
    const double s = (double)p->in->scale[0];
    const int32_t zp = (int32_t)p->in->zero_point[0];
    for (int32_t q = -128; q < 128; ++q) p->deq[q + 128] = (float)(s * (double)(q - zp));
  }
  return S24_OK;
}

static s24_status_t run_dequantize(const ctx_t *c, const params_t *pp, void *const *data) {
  const quant_t *const p = &pp->quant;
  if (p->deq == NULL) return S24_ERR_ARG;  // prepared without an arena
  const int8_t *x = data[c->op->in[0]];
  void *y = data[c->op->out[0]];
  for (size_t i = 0; i < p->in->elems; ++i) wr_f32(y, i, p->deq[(int32_t)x[i] + 128]);
  return S24_OK;
}

// ------------------------------------------------------------------------------ RESHAPE

// reshape_internal::ResolveOutputShape: at most one -1, filled from the element count
static s24_status_t resolve_shape(const ctx_t *c, const s24_tfl_tensor_t *in, int32_t *dims,
                                  uint32_t rank) {
  int stretch = -1;
  size_t known = 1;
  for (uint32_t k = 0; k < rank; ++k) {
    if (dims[k] == -1) {
      if (stretch >= 0) return FAIL(c, S24_ERR_FORMAT, "two -1 dimensions in the new shape");
      stretch = (int)k;
    } else if (dims[k] < 0) {
      return FAIL(c, S24_ERR_FORMAT, "new shape dimension %u is %d", (unsigned)k,
                  (int)dims[k]);
    } else {
      known *= (size_t)dims[k];
    }
  }
  if (stretch >= 0) {
    if (known == 0 || in->elems % known != 0)
      return FAIL(c, S24_ERR_FORMAT, "cannot reshape %zu elements with a -1 dimension",
                  in->elems);
    dims[stretch] = (int32_t)(in->elems / known);
    known *= (size_t)dims[stretch];
  }
  if (known != in->elems)
    return FAIL(c, S24_ERR_FORMAT, "new shape has %zu elements, the input %zu", known,
                in->elems);
  return S24_OK;
}

static s24_status_t prep_reshape(const ctx_t *c, params_t *pp) {
  reshape_t *const p = &pp->reshape;
  TRY(need_io(c, 1, 2, &p->in, &p->out));
  p->shape = NULL;
  const s24_tfl_tensor_t *sh = in_t(c, 1);
  if (p->out->type != p->in->type || s24_tfl_type_size(p->in->type) == 0)
    return FAIL(c, S24_ERR_UNSUPPORTED, "input %s and output %s types",
                s24_tfl_type_name(p->in->type), s24_tfl_type_name(p->out->type));
  if (p->out->elems != p->in->elems || p->out->bytes != p->in->bytes)
    return FAIL(c, S24_ERR_FORMAT, "output has %zu elements, the input %zu", p->out->elems,
                p->in->elems);
  int32_t dims[S24_TFL_MAX_NEW_SHAPE > S24_TFL_MAX_DIMS ? S24_TFL_MAX_NEW_SHAPE
                                                          : S24_TFL_MAX_DIMS];
  uint32_t rank;
  if (sh != NULL && sh->rank == 1 && sh->type == S24_TFL_INT32) {  // GetOutputShapeFromTensor
    if (sh->elems != p->out->rank)
      return FAIL(c, S24_ERR_FORMAT, "shape input has %zu entries, the output rank is %u",
                  sh->elems, (unsigned)p->out->rank);
    if (sh->data == NULL) {  // computed at run time: checked against the output then
      p->shape = sh;
      return S24_OK;
    }
    rank = (uint32_t)sh->elems;
    for (uint32_t k = 0; k < rank; ++k) dims[k] = rd_i32(sh->data, k);
  } else {  // GetOutputShapeFromParam
    rank = c->op->opt.n_new_shape;
    if (rank > S24_TFL_MAX_NEW_SHAPE) return FAIL(c, S24_ERR_UNSUPPORTED, "new shape rank");
    for (uint32_t k = 0; k < rank; ++k) dims[k] = c->op->opt.new_shape[k];
    if (rank == 1 && dims[0] == 0) rank = 0;
  }
  if (rank > S24_TFL_MAX_DIMS) return FAIL(c, S24_ERR_UNSUPPORTED, "new shape rank %u",
                                                       (unsigned)rank);
  TRY(resolve_shape(c, p->in, dims, rank));
  TRY(need_shape(c, p->out, "output", dims, rank));
  return S24_OK;
}

static s24_status_t run_reshape(const ctx_t *c, const params_t *pp, void *const *data) {
  const reshape_t *const p = &pp->reshape;
  const s24_tfl_op_t *op = c->op;
  if (p->shape != NULL) {  // the shape computed by the graph must be the declared one
    int32_t dims[S24_TFL_MAX_DIMS];
    const void *sd = data[op->in[1]];
    for (uint32_t k = 0; k < p->out->rank; ++k) dims[k] = rd_i32(sd, k);
    TRY(resolve_shape(c, p->in, dims, p->out->rank));
    TRY(need_shape(c, p->out, "output", dims, p->out->rank));
  }
  if (data[op->out[0]] != data[op->in[0]])
    memmove(data[op->out[0]], data[op->in[0]], p->in->bytes);
  return S24_OK;
}

// ------------------------------------------------------------------------------ SHAPE

static s24_status_t prep_shape(const ctx_t *c, params_t *pp) {
  (void)pp;  // SHAPE derives nothing
  const s24_tfl_tensor_t *in = NULL, *out = NULL;
  TRY(need_io(c, 1, 1, &in, &out));
  TRY(need_type(c, out, "output", S24_TFL_INT32));
  const int32_t want[1] = {(int32_t)in->rank};
  TRY(need_shape(c, out, "output", want, 1));
  return S24_OK;
}

static s24_status_t run_shape(const ctx_t *c, const params_t *pp, void *const *data) {
  (void)pp;
  const s24_tfl_tensor_t *in = in_t(c, 0);
  for (uint32_t k = 0; k < in->rank; ++k) wr_i32(data[c->op->out[0]], k, in->dims[k]);
  return S24_OK;
}

// ------------------------------------------------------------------------------ STRIDED_SLICE

static int32_t clampi(int32_t v, int32_t lo, int32_t hi) { return v > hi ? hi : v < lo ? lo : v; }

static s24_status_t prep_slice(const ctx_t *c, params_t *pp) {
  slice_t *const p = &pp->slice;
  const s24_tfl_options_t *o = &c->op->opt;
  TRY(need_io(c, 4, 4, &p->in, &p->out));
  const s24_tfl_tensor_t *tb = in_t(c, 1), *te = in_t(c, 2), *ts = in_t(c, 3);
  p->esize = s24_tfl_type_size(p->in->type);
  if (p->out->type != p->in->type || (p->esize != 1 && p->esize != 4))
    return FAIL(c, S24_ERR_UNSUPPORTED, "input %s and output %s types",
                s24_tfl_type_name(p->in->type), s24_tfl_type_name(p->out->type));
  TRY(need_type(c, tb, "begin", S24_TFL_INT32));
  TRY(need_type(c, te, "end", S24_TFL_INT32));
  TRY(need_type(c, ts, "strides", S24_TFL_INT32));
  TRY(need_const(c, tb, "begin"));
  TRY(need_const(c, te, "end"));
  TRY(need_const(c, ts, "strides"));
  if (tb->rank != 1 || te->rank != 1 || ts->rank != 1 || te->elems != tb->elems ||
      ts->elems < tb->elems)
    return FAIL(c, S24_ERR_FORMAT, "begin, end and strides must be vectors of one length");
  if (o->ellipsis_mask != 0 || o->new_axis_mask != 0 || o->ss_offset != 0)
    return FAIL(c, S24_ERR_UNSUPPORTED, "ellipsis_mask, new_axis_mask and offset are not "
                "implemented");
  p->rank = p->in->rank;
  const size_t nb = tb->elems;
  if (nb > p->rank)
    return FAIL(c, S24_ERR_FORMAT, "%zu indices for an input of rank %u", nb,
                (unsigned)p->rank);
  int32_t want[S24_TFL_MAX_DIMS];
  uint32_t wr = 0;
  for (uint32_t k = 0; k < p->rank; ++k) {
    const int32_t size = p->in->dims[k];
    int32_t bgn = 0, end = 0, stride = 1;
    int bm = 1, em = 1, shrink = 0;  // dimensions past the indices: everything
    if (k < nb) {
      bgn = rd_i32(tb->data, k);
      end = rd_i32(te->data, k);
      stride = rd_i32(ts->data, k);
      bm = (o->begin_mask >> k) & 1;
      em = (o->end_mask >> k) & 1;
      shrink = (o->shrink_axis_mask >> k) & 1;
    }
    if (stride == 0 || stride == INT32_MIN)
      return FAIL(c, S24_ERR_FORMAT, "stride %d in dimension %u", (int)stride,
                  (unsigned)k);
    // reference_ops::StartForAxis / EndForAxis (DynamicStridedSliceParams)
    int32_t s = bgn;
    if (s < 0) s += size;
    s = stride > 0 ? clampi(s, 0, size) : clampi(s, -1, size - 1);
    if (bm) s = stride > 0 ? 0 : size - 1;
    int32_t e;
    if (shrink) {
      if (stride < 0)  // the reference loop writes nothing for a shrunk negative stride
        return FAIL(c, S24_ERR_UNSUPPORTED, "shrunk dimension %u with stride %d",
                    (unsigned)k, (int)stride);
      e = s >= size ? s : s + 1;
      if (e == s || s < 0)
        return FAIL(c, S24_ERR_FORMAT, "shrunk dimension %u: index %d out of range",
                    (unsigned)k, (int)bgn);
    } else {
      e = end;
      if (e < 0) e += size;
      e = stride > 0 ? clampi(e, 0, size) : clampi(e, -1, size - 1);
      if (em) e = stride > 0 ? size : -1;
    }
    p->start[k] = s;
    p->stop[k] = e;
    p->stride[k] = shrink ? 1 : stride;
    if (shrink) continue;
    int64_t d = (int64_t)e - s;
    if ((d < 0) != (stride < 0)) {
      d = 0;
    } else if (stride < 0) {
      d = (d + 1) / stride + 1;
    } else {
      d = d == 0 ? 0 : (d - 1) / stride + 1;
    }
    want[wr++] = (int32_t)d;
  }
  TRY(need_shape(c, p->out, "output", want, wr));
  return S24_OK;
}

static s24_status_t run_slice(const ctx_t *c, const params_t *pp, void *const *data) {
  const slice_t *const p = &pp->slice;
  const uint8_t *x = data[c->op->in[0]];
  uint8_t *y = data[c->op->out[0]];
  int64_t istr[S24_TFL_MAX_DIMS];
  int64_t s = 1;
  for (uint32_t k = p->rank; k-- > 0;) {
    istr[k] = s;
    s *= p->in->dims[k];
  }
  for (uint32_t k = 0; k < p->rank; ++k) {  // an empty axis: nothing to write
    if (p->stride[k] > 0 ? p->start[k] >= p->stop[k] : p->start[k] <= p->stop[k])
      return S24_OK;
  }
  if (p->rank == 0) {
    memcpy(y, x, p->esize);
    return S24_OK;
  }
  int64_t pos[S24_TFL_MAX_DIMS];
  for (uint32_t k = 0; k < p->rank; ++k) pos[k] = p->start[k];
  size_t o = 0;
  for (;;) {
    int64_t i = 0;
    for (uint32_t k = 0; k < p->rank; ++k) i += pos[k] * istr[k];
    memcpy(y + o * p->esize, x + (size_t)i * p->esize, p->esize);
    ++o;
    uint32_t k = p->rank;
    for (; k-- > 0;) {
      pos[k] += p->stride[k];
      if (p->stride[k] > 0 ? pos[k] < p->stop[k] : pos[k] > p->stop[k]) break;
      pos[k] = p->start[k];
    }
    if (k == UINT32_MAX) break;
  }
  return S24_OK;
}

// ------------------------------------------------------------------------------ PACK

static s24_status_t prep_pack(const ctx_t *c, params_t *pp) {
  pack_t *const p = &pp->pack;
  const s24_tfl_options_t *o = &c->op->opt;
  if (o->values_count < 1 || (uint32_t)o->values_count != c->op->n_in)
    return FAIL(c, S24_ERR_FORMAT, "values_count %d with %u inputs", (int)o->values_count,
                (unsigned)c->op->n_in);
  TRY(need_io(c, c->op->n_in, c->op->n_in, &p->in0, &p->out));
  const size_t es = s24_tfl_type_size(p->in0->type);
  if (es == 0 || p->in0->type == S24_TFL_BOOL || p->in0->type == S24_TFL_FLOAT16)
    return FAIL(c, S24_ERR_UNSUPPORTED, "input type %s", s24_tfl_type_name(p->in0->type));
  const uint32_t r = p->in0->rank;
  if (r + 1 > S24_TFL_MAX_DIMS) return FAIL(c, S24_ERR_UNSUPPORTED, "input rank %u",
                                                   (unsigned)r);
  p->axis = o->axis < 0 ? o->axis + (int32_t)r + 1 : o->axis;
  if (p->axis < 0 || p->axis > (int32_t)r)
    return FAIL(c, S24_ERR_FORMAT, "axis %d for inputs of rank %u", (int)o->axis,
                (unsigned)r);
  for (uint32_t i = 1; i < c->op->n_in; ++i) {
    const s24_tfl_tensor_t *t = in_t(c, i);
    TRY(need_type(c, t, "input", p->in0->type));
    TRY(need_shape(c, t, "input", p->in0->dims, r));
  }
  TRY(need_type(c, p->out, "output", p->in0->type));
  for (uint32_t i = 0; i < c->op->n_in; ++i) {  // pack.cc: equal quantization
    const s24_tfl_tensor_t *t = in_t(c, i);
    const float ts = t->n_quant ? t->scale[0] : 0.0f, os = p->out->n_quant ? p->out->scale[0] : 0.0f;
    const int64_t tz = t->n_quant ? t->zero_point[0] : 0;
    const int64_t oz = p->out->n_quant ? p->out->zero_point[0] : 0;
    if (ts != os || tz != oz)
      return FAIL(c, S24_ERR_FORMAT, "input %u and output quantization differ",
                  (unsigned)i);
  }
  int32_t want[S24_TFL_MAX_DIMS];
  uint32_t j = 0;
  p->outer = 1;
  p->inner_bytes = es;
  for (uint32_t k = 0; k <= r; ++k) {
    if ((int32_t)k == p->axis) {
      want[k] = o->values_count;
    } else {
      want[k] = p->in0->dims[j];
      if ((int32_t)k < p->axis)
        p->outer *= (size_t)p->in0->dims[j];
      else
        p->inner_bytes *= (size_t)p->in0->dims[j];
      ++j;
    }
  }
  TRY(need_shape(c, p->out, "output", want, r + 1));
  return S24_OK;
}

static s24_status_t run_pack(const ctx_t *c, const params_t *pp, void *const *data) {
  const pack_t *const p = &pp->pack;
  uint8_t *y = data[c->op->out[0]];
  const size_t n = c->op->n_in;
  if (p->out->bytes == 0) return S24_OK;  // (outer may be large when a later dimension is 0)
  for (size_t a = 0; a < p->outer; ++a)
    for (size_t i = 0; i < n; ++i) {
      const uint8_t *x = data[c->op->in[i]];
      memcpy(y + (a * n + i) * p->inner_bytes, x + a * p->inner_bytes, p->inner_bytes);
    }
  return S24_OK;
}

// ------------------------------------------------------------------------------ LOGISTIC, TANH

// One element type of every tensor of an elementwise int8 operator: input and output INT8 with
// per-tensor quantization, the output shaped as the input
static s24_status_t need_q8_unary(const ctx_t *c, const s24_tfl_tensor_t **in,
                                  const s24_tfl_tensor_t **out) {
  TRY(need_io(c, 1, 1, in, out));
  TRY(need_q8_io(c, *in, *out));
  return need_shape(c, *out, "output", (*in)->dims, (*in)->rank);
}

// The transforms of the int8 tables, in float and with the C library's expf and tanhf, as the
// lambdas of activations.cc (std::exp and std::tanh of a float)
static float logistic_f(float v) { return 1.0f / (1.0f + expf(-v)); }
static float tanh_f(float v) { return tanhf(v); }

// LUTPopulate<int8_t> (kernels/internal/common.h, detail::LUTPopulateInt8): the table is built
// in float, entry (uint8_t)val = clamp((int32_t)(TfLiteRound(f(s_in * (val - zp_in)) / s_out)
// + zp_out)), the division being a multiplication by 1 / s_out
static void lut_populate(float s_in, int32_t zp_in, float s_out, int32_t zp_out,
                         float (*f)(float), int8_t *lut) {
  const float inverse_scale = 1.0f / s_out;
  for (int32_t val = -128; val <= 127; ++val) {
    const float dequantized = s_in * (float)(val - zp_in);
    const float transformed = f(dequantized);
    const float rescaled = round_f(transformed * inverse_scale);
    int32_t q = f2i_trunc(rescaled + (float)zp_out);
    if (q > 127) q = 127;
    if (q < -128) q = -128;
    lut[(uint8_t)(int8_t)val] = (int8_t)q;
  }
}

// activations.cc SigmoidPrepare / TanhPrepare, kReference, int8: a lookup table (the
// fixed-point Logistic16bitPrecision / Tanh16bitPrecision are the kFixedPointOptimized kernels,
// not the reference). LOGISTIC needs the output scale 1/256 exactly (any zero point); TANH
// takes any output quantization.
static s24_status_t prep_lut(const ctx_t *c, params_t *pp) {
  lut_t *const p = &pp->lut;
  TRY(need_q8_unary(c, &p->in, &p->out));
  const int logistic = c->op->opcode == S24_OP_LOGISTIC;
  if (logistic && (double)p->out->scale[0] != 1.0 / 256)
    return fail_tensor(c, S24_ERR_FORMAT, p->out, "output", "has scale %g, expected 1/256",
                       (double)p->out->scale[0]);
  lut_populate(p->in->scale[0], (int32_t)p->in->zero_point[0], p->out->scale[0],
               (int32_t)p->out->zero_point[0], logistic ? logistic_f : tanh_f, p->lut);
  return S24_OK;
}

// optimized_integer_ops::LookupTable (what the reference Eval calls for int8)
static s24_status_t run_lut(const ctx_t *c, const params_t *pp, void *const *data) {
  const lut_t *const p = &pp->lut;
  const uint8_t *x = data[c->op->in[0]];
  int8_t *y = data[c->op->out[0]];
  for (size_t i = 0; i < p->in->elems; ++i) y[i] = p->lut[x[i]];
  return S24_OK;
}

// ------------------------------------------------------------------------------ RELU, RELU6

// int32 to int8 as static_cast<int8_t> does (the low byte)
static int8_t low_byte(int32_t v) {
  const uint8_t b = (uint8_t)((uint32_t)v & 0xffu);
  return b < 0x80 ? (int8_t)b : (int8_t)((int32_t)b - 256);
}

// activations.cc ReluPrepare: QuantizeMultiplier(s_in / s_out), the ratio in float; the bounds
// of QuantizedReluX: max(-128, zp + (int)roundf(0 / s)), and for RELU6
// min(127, zp + (int)roundf(6 / s)) (converted and added as x86-64 does, so a scale too small
// for int32 gives what LiteRT gives)
static s24_status_t prep_relu(const ctx_t *c, params_t *pp) {
  relu_t *const p = &pp->relu;
  TRY(need_q8_unary(c, &p->in, &p->out));
  p->in_zp = (int32_t)p->in->zero_point[0];
  p->out_zp = (int32_t)p->out->zero_point[0];
  const float s_out = p->out->scale[0];
  const float ratio = p->in->scale[0] / s_out;
  TRY(quant_mult(c, (double)ratio, &p->mult, &p->shift, "scale ratio s_in/s_out"));
  const int32_t lo = wrap_add(p->out_zp, f2i_trunc(round_f(0.0f / s_out)));
  p->act_lo = lo > -128 ? lo : -128;
  p->act_hi = 127;
  if (c->op->opcode == S24_OP_RELU6) {
    const int32_t hi = wrap_add(p->out_zp, f2i_trunc(round_f(6.0f / s_out)));
    p->act_hi = hi < 127 ? hi : 127;
  }
  return S24_OK;
}

// reference_ops::ReluX (ReluParams): requantize, then max(lo), min(hi), then the low byte
static s24_status_t run_relu(const ctx_t *c, const params_t *pp, void *const *data) {
  const relu_t *const p = &pp->relu;
  const int8_t *x = data[c->op->in[0]];
  int8_t *y = data[c->op->out[0]];
  for (size_t i = 0; i < p->in->elems; ++i) {
    int32_t v = p->out_zp + mbqm((int32_t)x[i] - p->in_zp, p->mult, p->shift);
    v = clamp_act(v, p->act_lo, p->act_hi);
    y[i] = low_byte(v);
  }
  return S24_OK;
}

// ------------------------------------------------------------------------------ LEAKY_RELU

// activations.cc LeakyReluPrepare: two multipliers, s_in * alpha / s_out and s_in / s_out,
// each computed in float
static s24_status_t prep_leaky(const ctx_t *c, params_t *pp) {
  leaky_t *const p = &pp->leaky;
  TRY(need_q8_unary(c, &p->in, &p->out));
  p->in_zp = (int32_t)p->in->zero_point[0];
  p->out_zp = (int32_t)p->out->zero_point[0];
  const float s_in = p->in->scale[0], s_out = p->out->scale[0];
  const float alpha_m = s_in * c->op->opt.alpha / s_out;
  const float identity_m = s_in / s_out;
  TRY(quant_mult(c, (double)alpha_m, &p->mult_alpha, &p->shift_alpha,
                 "multiplier s_in*alpha/s_out"));
  return quant_mult(c, (double)identity_m, &p->mult_id, &p->shift_id, "scale ratio s_in/s_out");
}

// reference_ops::QuantizeLeakyRelu: the identity multiplier from 0 up, alpha's below 0 (a
// negative alpha multiplier is applied by its magnitude and the result negated)
static s24_status_t run_leaky(const ctx_t *c, const params_t *pp, void *const *data) {
  const leaky_t *const p = &pp->leaky;
  const int8_t *x = data[c->op->in[0]];
  int8_t *y = data[c->op->out[0]];
  const int neg = p->mult_alpha < 0;
  const int32_t alpha_mag = neg ? -p->mult_alpha : p->mult_alpha;
  for (size_t i = 0; i < p->in->elems; ++i) {
    const int32_t v = (int32_t)x[i] - p->in_zp;
    int32_t r = p->out_zp;
    if (v >= 0) {
      r += mbqm(v, p->mult_id, p->shift_id);
    } else {
      const int32_t a = mbqm(v, alpha_mag, p->shift_alpha);
      r += neg ? -a : a;
    }
    if (r < -128) r = -128;
    if (r > 127) r = 127;
    y[i] = (int8_t)r;
  }
  return S24_OK;
}

// ------------------------------------------------------------------------------ HARD_SWISH

// int32 to int16 as static_cast<int16_t> does (the low 16 bits)
static int16_t low16(int32_t v) {
  const uint16_t u = (uint16_t)((uint32_t)v & 0xffffu);
  return u < 0x8000 ? (int16_t)u : (int16_t)((int32_t)u - 65536);
}

// gemmlowp's SaturatingRoundingDoublingHighMul<int16_t>
static int16_t srdhm16(int16_t a, int16_t b) {
  if (a == b && a == INT16_MIN) return INT16_MAX;
  const int32_t ab = (int32_t)a * (int32_t)b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return (int16_t)((ab + nudge) / (1 << 15));  // C division truncates, as in C++
}

// reference_ops::SaturatingDoublingHighMul (hard_swish.h): the same, truncating
static int16_t sdhm16(int16_t a, int16_t b) {
  if (a == b && a == INT16_MIN) return INT16_MAX;
  return (int16_t)(((int32_t)a * (int32_t)b) / (1 << 15));
}

// gemmlowp's RoundingDivideByPOT<int16_t> for exponent 0 to 31, every intermediate an int16 as
// there: from 16 on the mask (2^e - 1) is all ones as an int16
static int16_t rdbpot16(int16_t x, int exponent) {
  const int16_t mask = low16((int32_t)((1LL << exponent) - 1));
  const int16_t remainder = (int16_t)(x & mask);
  const int16_t threshold = low16(low16(mask >> 1) + (x < 0 ? 1 : 0));
  return low16(low16(x >> exponent) + (remainder > threshold ? 1 : 0));
}

// reference_ops::SaturatingLeftShift (hard_swish.h), amount 0 to 30
static int16_t sat_shl16(int16_t v, int amount) {
  int64_t r = (int64_t)v * ((int64_t)1 << amount);
  if (r > INT16_MAX) r = INT16_MAX;
  if (r < INT16_MIN) r = INT16_MIN;
  return (int16_t)r;
}

// DownScaleInt32ToInt16Multiplier (kernels/internal/common.h)
static int16_t downscale_mult(int32_t m) {
  if (m >= INT32_MAX - (1 << 15)) return INT16_MAX;
  return (int16_t)((m + (1 << 15)) >> 16);
}

// activations.cc HardSwishPrepare: both multipliers from float ratios (hires input scale
// s_in / 128; "reluish" scale 3 / 32768), QuantizeMultiplier'd, then cut to 16 bits; the output
// exponent must not be positive (LiteRT refuses the model otherwise)
static s24_status_t prep_hswish(const ctx_t *c, params_t *pp) {
  hswish_t *const p = &pp->hswish;
  TRY(need_q8_unary(c, &p->in, &p->out));
  p->in_zp = (int32_t)p->in->zero_point[0];
  p->out_zp = (int32_t)p->out->zero_point[0];
  const float hires_input_scale = (1.0f / 128.0f) * p->in->scale[0];
  const float reluish_scale = 3.0f / 32768.0f;
  const float output_multiplier = hires_input_scale / p->out->scale[0];
  const float reluish_multiplier = hires_input_scale / reluish_scale;
  int32_t q = 0;
  TRY(quant_mult(c, (double)output_multiplier, &q, &p->out_exp, "scale ratio s_in/128/s_out"));
  p->out_mult = downscale_mult(q);
  if (p->out_exp > 0)
    return FAIL(c, S24_ERR_FORMAT, "output scale %g: s_in/128/s_out = %g is 1 or more (LiteRT "
                "needs a non-positive output exponent)", (double)p->out->scale[0],
                (double)output_multiplier);
  TRY(quant_mult(c, (double)reluish_multiplier, &q, &p->relu_exp, "scale ratio s_in*256/3"));
  p->relu_mult = downscale_mult(q);
  return S24_OK;
}

// reference_ops::HardSwish<int8_t> (hard_swish.h), in int16 fixed point
static int8_t hswish_one(const hswish_t *p, int8_t x) {
  const int16_t input_value = (int16_t)((int32_t)x - p->in_zp);
  const int16_t hires = (int16_t)(input_value * (1 << 7));
  const int16_t preshift = srdhm16(hires, p->out_mult);
  int16_t reluish = hires;
  if (p->relu_exp > 0) reluish = sat_shl16(reluish, p->relu_exp - 1);
  reluish = srdhm16(reluish, p->relu_mult);
  if (p->relu_exp > 0) reluish = sat_shl16(reluish, 1);
  if (p->relu_exp < 0) reluish = rdbpot16(reluish, -p->relu_exp);
  reluish = (int16_t)((reluish + (1 << 15)) >> 1);
  const int16_t pre_out = sdhm16(reluish, preshift);
  int16_t out = rdbpot16(pre_out, -p->out_exp);
  out = low16(out + p->out_zp);
  if (out > 127) out = 127;
  if (out < -128) out = -128;
  return (int8_t)out;
}

static s24_status_t run_hswish(const ctx_t *c, const params_t *pp, void *const *data) {
  const hswish_t *const p = &pp->hswish;
  const int8_t *x = data[c->op->in[0]];
  int8_t *y = data[c->op->out[0]];
  for (size_t i = 0; i < p->in->elems; ++i) y[i] = hswish_one(p, x[i]);
  return S24_OK;
}

// ------------------------------------------------------------------------------ data movement

// The element types the data-movement operators take (CONCATENATION, SPLIT, SQUEEZE,
// TRANSPOSE, RESIZE_NEAREST_NEIGHBOR): INT8 activations, INT32 shapes, FLOAT32; all byte copies
// in LiteRT (UINT8 is not: CONCATENATION rescales it)
static s24_status_t need_movable(const ctx_t *c, const s24_tfl_tensor_t *t, const char *role) {
  if (t->type != S24_TFL_INT8 && t->type != S24_TFL_INT32 && t->type != S24_TFL_FLOAT32)
    return fail_tensor(c, S24_ERR_UNSUPPORTED, t, role, "is %s, expected INT8, INT32 or FLOAT32",
                       s24_tfl_type_name(t->type));
  return S24_OK;
}

// A constant INT32 vector input (perm, size, axis)
static s24_status_t need_const_i32(const ctx_t *c, const s24_tfl_tensor_t *t, const char *role) {
  TRY(need_type(c, t, role, S24_TFL_INT32));
  TRY(need_const(c, t, role));
  return S24_OK;
}

// Per-tensor scale and zero point of an INT8 tensor as LiteRT's TfLiteTensor.params holds them
// (0 and 0 when it is not quantized)
static int same_params(const s24_tfl_tensor_t *a, const s24_tfl_tensor_t *b) {
  const float sa = a->n_quant ? a->scale[0] : 0.0f, sb = b->n_quant ? b->scale[0] : 0.0f;
  const int64_t za = a->n_quant ? a->zero_point[0] : 0, zb = b->n_quant ? b->zero_point[0] : 0;
  return sa == sb && za == zb;
}

// concatenation.cc Prepare: inputs of one type and rank (above 0: scalars only when all are
// constant, not handled here), equal dimensions but along axis, activation NONE; for INT8 every
// input's scale and zero point equal to the output's (the reference kernel does not rescale)
static s24_status_t prep_concat(const ctx_t *c, params_t *pp) {
  concat_t *const p = &pp->concat;
  const s24_tfl_options_t *o = &c->op->opt;
  const s24_tfl_tensor_t *t0 = NULL;
  TRY(need_io(c, 1, S24_TFL_MAX_OP_IO, &t0, &p->out));
  const uint32_t n = c->op->n_in;
  for (uint32_t i = 1; i < n; ++i)
    if (c->op->in[i] < 0) return FAIL(c, S24_ERR_FORMAT, "input %u is missing", (unsigned)i);
  const uint32_t r = t0->rank;
  int32_t axis = o->axis;
  if (axis < 0) axis += (int32_t)r;
  if (r == 0) return FAIL(c, S24_ERR_UNSUPPORTED, "scalar inputs");
  if (axis < 0 || axis >= (int32_t)r)
    return FAIL(c, S24_ERR_FORMAT, "axis %d for inputs of rank %u", (int)o->axis, (unsigned)r);
  if (o->activation != S24_ACT_NONE)
    return FAIL(c, S24_ERR_UNSUPPORTED, "fused activation %d (LiteRT takes NONE only)",
                (int)o->activation);
  TRY(need_movable(c, t0, "input"));
  int32_t want[S24_TFL_MAX_DIMS];
  int64_t sum = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const s24_tfl_tensor_t *t = in_t(c, i);
    TRY(need_type(c, t, "input", t0->type));
    if (t->rank != r) return fail_tensor(c, S24_ERR_FORMAT, t, "input", "has rank %u, input 0 "
                                         "%u", (unsigned)t->rank, (unsigned)r);
    for (uint32_t k = 0; k < r; ++k)
      if ((int32_t)k != axis && t->dims[k] != t0->dims[k])
        return fail_tensor(c, S24_ERR_FORMAT, t, "input", "differs from input 0 in dimension "
                           "%u", (unsigned)k);
    sum += t->dims[axis];
  }
  if (sum > INT32_MAX) return FAIL(c, S24_ERR_FORMAT, "the concatenated dimension overflows");
  for (uint32_t k = 0; k < r; ++k) want[k] = (int32_t)k == axis ? (int32_t)sum : t0->dims[k];
  TRY(need_type(c, p->out, "output", t0->type));
  TRY(need_shape(c, p->out, "output", want, r));
  if (t0->type == S24_TFL_INT8) {
    for (uint32_t i = 0; i < n; ++i) {
      const s24_tfl_tensor_t *t = in_t(c, i);
      if (t->n_quant > 1) return fail_tensor(c, S24_ERR_UNSUPPORTED, t, "input", "is quantized "
                                             "per channel");
      if (!same_params(t, p->out))
        return fail_tensor(c, S24_ERR_FORMAT, t, "input", "and the output differ in scale or "
                           "zero point (LiteRT's int8 CONCATENATION does not rescale)");
    }
  }
  size_t inner = s24_tfl_type_size(t0->type);
  p->outer = 1;
  for (uint32_t k = 0; k < r; ++k) {
    if ((int32_t)k < axis) p->outer *= (size_t)t0->dims[k];
    if ((int32_t)k > axis) inner *= (size_t)t0->dims[k];
  }
  for (uint32_t i = 0; i < n; ++i) p->chunk[i] = (size_t)in_t(c, i)->dims[axis] * inner;
  return S24_OK;
}

// reference_ops::Concatenation: for each outer index, each input's slab in turn
static s24_status_t run_concat(const ctx_t *c, const params_t *pp, void *const *data) {
  const concat_t *const p = &pp->concat;
  uint8_t *y = data[c->op->out[0]];
  if (p->out->bytes == 0) return S24_OK;  // (outer may be large when a later dimension is 0)
  for (size_t a = 0; a < p->outer; ++a)
    for (uint32_t i = 0; i < c->op->n_in; ++i) {
      const uint8_t *x = data[c->op->in[i]];
      memcpy(y, x + a * p->chunk[i], p->chunk[i]);
      y += p->chunk[i];
    }
  return S24_OK;
}

// split.cc Prepare: inputs (axis, value), num_splits outputs (the option and the count must
// agree), the axis a constant (a computed one makes LiteRT's outputs dynamic: not handled) read
// from its first element, the dimension divisible by num_splits; every output of the input's
// type (LiteRT sets it) and shape but along axis. The copy ignores quantization, as LiteRT's.
static s24_status_t prep_split(const ctx_t *c, params_t *pp) {
  split_t *const p = &pp->split;
  const s24_tfl_op_t *op = c->op;
  if (op->n_in != 2)
    return FAIL(c, S24_ERR_FORMAT, "%u inputs, expected 2", (unsigned)op->n_in);
  if (op->in[0] < 0 || op->in[1] < 0) return FAIL(c, S24_ERR_FORMAT, "an input is missing");
  if (op->opt.num_splits < 1 || (uint32_t)op->opt.num_splits != op->n_out)
    return FAIL(c, S24_ERR_FORMAT, "num_splits %d with %u outputs", (int)op->opt.num_splits,
                (unsigned)op->n_out);
  for (uint32_t j = 0; j < op->n_out; ++j)
    if (op->out[j] < 0) return FAIL(c, S24_ERR_FORMAT, "output %u is missing", (unsigned)j);
  const s24_tfl_tensor_t *ax = in_t(c, 0);
  p->in = in_t(c, 1);
  TRY(need_const_i32(c, ax, "axis"));
  if (ax->elems < 1) return FAIL(c, S24_ERR_FORMAT, "empty axis");
  TRY(need_movable(c, p->in, "input"));
  const uint32_t r = p->in->rank;
  int32_t axis = rd_i32(ax->data, 0);
  if (axis < 0) axis += (int32_t)r;
  if (axis < 0 || axis >= (int32_t)r)
    return FAIL(c, S24_ERR_FORMAT, "axis %d for an input of rank %u", (int)rd_i32(ax->data, 0),
                (unsigned)r);
  const int32_t n = op->opt.num_splits;
  if (p->in->dims[axis] % n != 0)
    return FAIL(c, S24_ERR_FORMAT, "dimension %d of size %d does not split in %d", (int)axis,
                (int)p->in->dims[axis], (int)n);
  int32_t want[S24_TFL_MAX_DIMS] = {0};
  for (uint32_t k = 0; k < r; ++k) want[k] = p->in->dims[k];
  want[axis] /= n;
  for (uint32_t j = 0; j < op->n_out; ++j) {
    const s24_tfl_tensor_t *t = out_t(c, j);
    TRY(need_type(c, t, "output", p->in->type));
    TRY(need_shape(c, t, "output", want, r));
  }
  size_t inner = s24_tfl_type_size(p->in->type);
  p->outer = 1;
  for (uint32_t k = 0; k < r; ++k) {
    if ((int32_t)k < axis) p->outer *= (size_t)p->in->dims[k];
    if ((int32_t)k > axis) inner *= (size_t)p->in->dims[k];
  }
  p->chunk = (size_t)want[axis] * inner;
  return S24_OK;
}

// reference_ops::Split
static s24_status_t run_split(const ctx_t *c, const params_t *pp, void *const *data) {
  const split_t *const p = &pp->split;
  const uint8_t *x = data[c->op->in[1]];
  if (p->in->bytes == 0) return S24_OK;  // (outer may be large when a later dimension is 0)
  for (size_t a = 0; a < p->outer; ++a)
    for (uint32_t j = 0; j < c->op->n_out; ++j) {
      uint8_t *y = data[c->op->out[j]];
      memcpy(y + a * p->chunk, x, p->chunk);
      x += p->chunk;
    }
  return S24_OK;
}

// squeeze.cc Prepare: the dimensions squeeze_dims names (each of size 1; negative from the
// end), or every dimension of size 1 when it names none, dropped; the copy is byte for byte
static s24_status_t prep_squeeze(const ctx_t *c, params_t *pp) {
  squeeze_t *const p = &pp->squeeze;
  const s24_tfl_options_t *o = &c->op->opt;
  TRY(need_io(c, 1, 1, &p->in, &p->out));
  TRY(need_movable(c, p->in, "input"));
  TRY(need_type(c, p->out, "output", p->in->type));
  const uint32_t r = p->in->rank;
  int squeeze[S24_TFL_MAX_DIMS] = {0};
  if (o->n_squeeze_dims == 0) {
    for (uint32_t k = 0; k < r; ++k) squeeze[k] = p->in->dims[k] == 1;
  } else {
    if (o->n_squeeze_dims > S24_TFL_MAX_SQUEEZE_DIMS)
      return FAIL(c, S24_ERR_FORMAT, "%u squeeze_dims", (unsigned)o->n_squeeze_dims);
    for (uint32_t i = 0; i < o->n_squeeze_dims; ++i) {
      const int32_t d = o->squeeze_dims[i];
      const int64_t k = d < 0 ? (int64_t)d + r : d;
      if (k < 0 || k >= (int64_t)r || p->in->dims[k] != 1)
        return FAIL(c, S24_ERR_FORMAT, "squeeze_dims entry %d is not a dimension of size 1 "
                    "(input rank %u)", (int)d, (unsigned)r);
      squeeze[k] = 1;
    }
  }
  int32_t want[S24_TFL_MAX_DIMS];
  uint32_t wr = 0;
  for (uint32_t k = 0; k < r; ++k)
    if (!squeeze[k]) want[wr++] = p->in->dims[k];
  return need_shape(c, p->out, "output", want, wr);
}

static s24_status_t run_squeeze(const ctx_t *c, const params_t *pp, void *const *data) {
  const squeeze_t *const p = &pp->squeeze;
  if (data[c->op->out[0]] != data[c->op->in[0]])
    memmove(data[c->op->out[0]], data[c->op->in[0]], p->in->bytes);
  return S24_OK;
}

// transpose.cc Prepare: perm a constant INT32 vector of the input's rank (1 to 6 here), each
// entry in [-rank, rank), negative ones from the end; LiteRT does not check that perm is a
// permutation (a repeated entry makes its kernel read outside the input), so that is refused
static s24_status_t prep_transpose(const ctx_t *c, params_t *pp) {
  transpose_t *const p = &pp->transpose;
  TRY(need_io(c, 2, 2, &p->in, &p->out));
  const s24_tfl_tensor_t *perm = in_t(c, 1);
  TRY(need_movable(c, p->in, "input"));
  TRY(need_type(c, p->out, "output", p->in->type));
  TRY(need_const_i32(c, perm, "perm"));
  p->rank = p->in->rank;
  if (p->rank == 0) return FAIL(c, S24_ERR_UNSUPPORTED, "scalar input");
  if (perm->rank != 1 || perm->elems != p->rank)
    return FAIL(c, S24_ERR_FORMAT, "perm has %zu entries for an input of rank %u", perm->elems,
                (unsigned)p->rank);
  size_t istr[S24_TFL_MAX_DIMS];
  size_t st = 1;
  for (uint32_t k = p->rank; k-- > 0;) {
    istr[k] = st;
    st *= (size_t)p->in->dims[k];
  }
  int used[S24_TFL_MAX_DIMS] = {0};
  int32_t want[S24_TFL_MAX_DIMS];
  for (uint32_t k = 0; k < p->rank; ++k) {
    const int32_t v = rd_i32(perm->data, k);
    if (v < -(int32_t)p->rank || v >= (int32_t)p->rank)
      return FAIL(c, S24_ERR_FORMAT, "perm entry %d out of range for rank %u", (int)v,
                  (unsigned)p->rank);
    const uint32_t d = (uint32_t)(v < 0 ? v + (int32_t)p->rank : v);
    if (used[d]++) return FAIL(c, S24_ERR_FORMAT, "perm repeats dimension %u", (unsigned)d);
    want[k] = p->in->dims[d];
    p->istr[k] = istr[d];
  }
  p->esize = s24_tfl_type_size(p->in->type);
  return need_shape(c, p->out, "output", want, p->rank);
}

// reference_ops::Transpose: the output in order, each element from its permuted input index
static s24_status_t run_transpose(const ctx_t *c, const params_t *pp, void *const *data) {
  const transpose_t *const p = &pp->transpose;
  const uint8_t *x = data[c->op->in[0]];
  uint8_t *y = data[c->op->out[0]];
  size_t idx[S24_TFL_MAX_DIMS] = {0};
  size_t i = 0;
  for (size_t o = 0; o < p->out->elems; ++o) {
    memcpy(y + o * p->esize, x + i * p->esize, p->esize);
    walk_next(idx, p->out->dims, p->rank, p->istr, &i);
  }
  return S24_OK;
}

// resize_nearest_neighbor.cc Prepare: a 4-D input, size a constant INT32 vector of 2 entries
// (a computed one makes LiteRT's output dynamic: not handled); output [n, size[0], size[1], c].
// The scales of GetNearestNeighbor are computed here, in float as there.
static s24_status_t prep_resize(const ctx_t *c, params_t *pp) {
  resize_t *const p = &pp->resize;
  TRY(need_io(c, 2, 2, &p->in, &p->out));
  const s24_tfl_tensor_t *size = in_t(c, 1);
  TRY(need_rank(c, p->in, "input", 4));
  TRY(need_movable(c, p->in, "input"));
  TRY(need_type(c, p->out, "output", p->in->type));
  TRY(need_const_i32(c, size, "size"));
  if (size->rank != 1 || size->elems != 2)
    return FAIL(c, S24_ERR_FORMAT, "size has %zu entries, expected 2", size->elems);
  const int32_t oh = rd_i32(size->data, 0), ow = rd_i32(size->data, 1);
  if (oh < 0 || ow < 0)
    return FAIL(c, S24_ERR_FORMAT, "size %d x %d", (int)oh, (int)ow);
  p->n = p->in->dims[0];
  p->ih = p->in->dims[1];
  p->iw = p->in->dims[2];
  p->oh = oh;
  p->ow = ow;
  const int32_t want[4] = {p->n, oh, ow, p->in->dims[3]};
  TRY(need_shape(c, p->out, "output", want, 4));
  if ((p->ih == 0 && oh > 0) || (p->iw == 0 && ow > 0))
    return FAIL(c, S24_ERR_FORMAT, "an empty input resized to a nonempty output");
  p->pixel = (size_t)p->in->dims[3] * s24_tfl_type_size(p->in->type);
  p->align_corners = c->op->opt.align_corners;
  p->half_pixel_centers = c->op->opt.half_pixel_centers;
  p->scale_h = p->align_corners && oh > 1 ? (float)(p->ih - 1) / (float)(oh - 1)
                                          : (float)p->ih / (float)oh;
  p->scale_w = p->align_corners && ow > 1 ? (float)(p->iw - 1) / (float)(ow - 1)
                                          : (float)p->iw / (float)ow;
  return S24_OK;
}

// reference_ops::GetNearestNeighbor (float, as there)
static int32_t nearest(const resize_t *p, int32_t out_index, int32_t in_size, float scale) {
  const float offset = p->half_pixel_centers ? 0.5f : 0.0f;
  const float v = ((float)out_index + offset) * scale;
  int32_t r = f2i_trunc(p->align_corners ? round_f(v) : floorf(v));
  if (r > in_size - 1) r = in_size - 1;
  if (p->half_pixel_centers && r < 0) r = 0;
  return r;
}

// reference_ops::ResizeNearestNeighbor
static s24_status_t run_resize(const ctx_t *c, const params_t *pp, void *const *data) {
  const resize_t *const p = &pp->resize;
  const uint8_t *x = data[c->op->in[0]];
  uint8_t *y = data[c->op->out[0]];
  if (p->out->bytes == 0) return S24_OK;  // (n x oh x ow may be large with 0 channels)
  for (int32_t b = 0; b < p->n; ++b)
    for (int32_t oy = 0; oy < p->oh; ++oy) {
      const size_t iy = (size_t)nearest(p, oy, p->ih, p->scale_h);
      for (int32_t ox = 0; ox < p->ow; ++ox) {
        const size_t ix = (size_t)nearest(p, ox, p->iw, p->scale_w);
        memcpy(y, x + (((size_t)b * (size_t)p->ih + iy) * (size_t)p->iw + ix) * p->pixel,
               p->pixel);
        y += p->pixel;
      }
    }
  return S24_OK;
}

// ------------------------------------------------------------------------------ entry points

// One row per host operator: its opcode, the type of builtin options table it reads (-1: none;
// an absent table is accepted too: the schema's defaults), its prep_* and its run_*.
typedef struct {
  int32_t opcode;
  int32_t options;
  size_t size;  // of its member of params_t: what s24_op_prepare keeps in the arena
  s24_status_t (*prep)(const ctx_t *c, params_t *p);
  s24_status_t (*run)(const ctx_t *c, const params_t *p, void *const *data);
} host_op_t;

#define P(member) sizeof(((params_t *)0)->member)
static const host_op_t kHostOps[] = {
    {S24_OP_DEPTHWISE_CONV_2D, S24_TFL_OPT_DEPTHWISE_CONV_2D, P(dw), prep_dw, run_dw},
    {S24_OP_ADD, S24_TFL_OPT_ADD, P(add), prep_add, run_add},
    {S24_OP_AVERAGE_POOL_2D, S24_TFL_OPT_POOL_2D, P(pool), prep_pool, run_pool},
    {S24_OP_MAX_POOL_2D, S24_TFL_OPT_POOL_2D, P(pool), prep_pool, run_pool},
    {S24_OP_PAD, S24_TFL_OPT_PAD, P(pad), prep_pad, run_pad},
    {S24_OP_MEAN, S24_TFL_OPT_REDUCER, P(mean), prep_mean, run_mean},
    {S24_OP_RESHAPE, S24_TFL_OPT_RESHAPE, P(reshape), prep_reshape, run_reshape},
    {S24_OP_SOFTMAX, S24_TFL_OPT_SOFTMAX, P(softmax), prep_softmax, run_softmax},
    {S24_OP_QUANTIZE, -1, P(quant), prep_quantize, run_quantize},
    {S24_OP_DEQUANTIZE, -1, P(quant), prep_dequantize, run_dequantize},
    {S24_OP_SHAPE, -1, 0, prep_shape, run_shape},
    {S24_OP_STRIDED_SLICE, S24_TFL_OPT_STRIDED_SLICE, P(slice), prep_slice, run_slice},
    {S24_OP_PACK, S24_TFL_OPT_PACK, P(pack), prep_pack, run_pack},
    {S24_OP_SUB, S24_TFL_OPT_SUB, P(add), prep_add, run_add},
    {S24_OP_MUL, S24_TFL_OPT_MUL, P(mul), prep_mul, run_mul},
    {S24_OP_LOGISTIC, -1, P(lut), prep_lut, run_lut},
    {S24_OP_TANH, -1, P(lut), prep_lut, run_lut},
    {S24_OP_RELU, -1, P(relu), prep_relu, run_relu},
    {S24_OP_RELU6, -1, P(relu), prep_relu, run_relu},
    {S24_OP_LEAKY_RELU, S24_TFL_OPT_LEAKY_RELU, P(leaky), prep_leaky, run_leaky},
    {S24_OP_HARD_SWISH, S24_TFL_OPT_HARD_SWISH, P(hswish), prep_hswish, run_hswish},
    {S24_OP_CONCATENATION, S24_TFL_OPT_CONCATENATION, P(concat), prep_concat, run_concat},
    {S24_OP_SPLIT, S24_TFL_OPT_SPLIT, P(split), prep_split, run_split},
    {S24_OP_SQUEEZE, S24_TFL_OPT_SQUEEZE, P(squeeze), prep_squeeze, run_squeeze},
    {S24_OP_TRANSPOSE, S24_TFL_OPT_TRANSPOSE, P(transpose), prep_transpose, run_transpose},
    {S24_OP_RESIZE_NEAREST_NEIGHBOR, S24_TFL_OPT_RESIZE_NEAREST_NEIGHBOR, P(resize), prep_resize,
     run_resize},
};
#undef P

// The row of opcode in kHostOps; NULL for any other operator.
static const host_op_t *host_op(int32_t opcode) {
  for (size_t i = 0; i < sizeof kHostOps / sizeof kHostOps[0]; ++i)
    if (kHostOps[i].opcode == opcode) return &kHostOps[i];
  return NULL;
}

int s24_op_is_host(int32_t opcode) { return host_op(opcode) != NULL; }

// The row of the operator, its options table checked, or an error.
static s24_status_t op_row(const ctx_t *c, const host_op_t **row) {
  const s24_tfl_op_t *op = c->op;
  const host_op_t *h = op->is_custom ? NULL : host_op(op->opcode);
  if (h == NULL) return FAIL(c, S24_ERR_UNSUPPORTED, "not a host operator");
  // the options table must be the opcode's (or absent: the schema's defaults)
  if (h->options >= 0 && op->options_type != S24_TFL_OPT_NONE && op->options_type != h->options)
    return FAIL(c, S24_ERR_FORMAT, "builtin options of type %u, expected %d",
                (unsigned)op->options_type, (int)h->options);
  *row = h;
  return S24_OK;
}

static int op_index_ok(const s24_tfl_model_t *m, size_t index, char *err, size_t errlen) {
  if (m != NULL && index < m->n_ops && m->ops != NULL) return 1;
  if (err != NULL && errlen > 0) snprintf(err, errlen, "operator %zu: no such operator", index);
  return 0;
}

s24_status_t s24_op_check(const s24_tfl_model_t *m, size_t index, char *err, size_t errlen) {
  if (!op_index_ok(m, index, err, errlen)) return S24_ERR_ARG;
  if (err != NULL && errlen > 0) err[0] = '\0';
  const ctx_t c = {m, &m->ops[index], index, err, errlen, NULL};
  const host_op_t *h = NULL;
  TRY(op_row(&c, &h));
  params_t p;
  memset(&p, 0, sizeof p);
  return h->prep(&c, &p);
}

s24_status_t s24_op_prepare(const s24_tfl_model_t *m, size_t index, s24_arena_t *arena,
                            const void **params, char *err, size_t errlen) {
  if (!op_index_ok(m, index, err, errlen) || arena == NULL || params == NULL) return S24_ERR_ARG;
  if (err != NULL && errlen > 0) err[0] = '\0';
  const ctx_t c = {m, &m->ops[index], index, err, errlen, arena};
  const host_op_t *h = NULL;
  TRY(op_row(&c, &h));
  params_t p;  // prepared here, its operator's member kept in the arena
  memset(&p, 0, sizeof p);
  TRY(h->prep(&c, &p));
  void *kept = s24_arena_alloc(arena, h->size ? h->size : 1, 0);
  if (kept == NULL) return FAIL(&c, S24_ERR_NOMEM, "the arena has no room for its parameters");
  memcpy(kept, &p, h->size);
  *params = kept;
  return S24_OK;
}

s24_status_t s24_op_dw_geom(const s24_tfl_model_t *m, size_t index, const void *params,
                            s24_dw_geom_t *g) {
  if (!op_index_ok(m, index, NULL, 0) || params == NULL || g == NULL || m->ops[index].is_custom ||
      m->ops[index].opcode != S24_OP_DEPTHWISE_CONV_2D) {
    return S24_ERR_ARG;
  }
  const dw_t *p = params;  // the kept member (s24_op_prepare copies only it)
  if (p->mult == NULL || p->shift == NULL) return S24_ERR_ARG;
  *g = (s24_dw_geom_t){p->n,  p->ih, p->iw, p->ic,     p->kh,      p->kw,      p->oc,
                       p->oh, p->ow, p->depth_mult, p->sh, p->sw, p->dh, p->dw, p->ph,
                       p->pw, -p->in_off, p->out_off, p->act_lo, p->act_hi, p->mult, p->shift};
  return S24_OK;
}

s24_status_t s24_op_add_job(const s24_tfl_model_t *m, size_t index, const void *params,
                            void *const *data, s24_add_job_t *job) {
  if (!op_index_ok(m, index, NULL, 0) || params == NULL || data == NULL || job == NULL ||
      m->ops[index].is_custom ||
      (m->ops[index].opcode != S24_OP_ADD && m->ops[index].opcode != S24_OP_SUB)) {
    return S24_ERR_ARG;
  }
  const add_t *p = params;  // the kept member (s24_op_prepare copies only it)
  if (p->tab == NULL) return S24_ERR_ARG;
  if (p->a->elems != p->out->elems || p->b->elems != p->out->elems) return S24_ERR_UNSUPPORTED;
  const s24_tfl_op_t *op = &m->ops[index];
  *job = (s24_add_job_t){data[op->in[0]], data[op->in[1]], data[op->out[0]], p->out->elems,
                         p->tab};
  return S24_OK;
}

// QUANTIZE operator `index` of m with FLOAT32 input, its table made (params: the kept member)
static const quant_t *quant_float_op(const s24_tfl_model_t *m, size_t index, const void *params,
                                     void *const *data) {
  if (!op_index_ok(m, index, NULL, 0) || params == NULL || data == NULL ||
      m->ops[index].is_custom || m->ops[index].opcode != S24_OP_QUANTIZE) {
    return NULL;
  }
  const quant_t *p = params;
  return p->requant || p->thr == NULL ? NULL : p;
}

s24_status_t s24_op_quant_job(const s24_tfl_model_t *m, size_t index, const void *params,
                              void *const *data, s24_quant_job_t *job) {
  if (!op_index_ok(m, index, NULL, 0) || params == NULL || data == NULL || job == NULL ||
      m->ops[index].is_custom || m->ops[index].opcode != S24_OP_QUANTIZE) {
    return S24_ERR_ARG;
  }
  const quant_t *p = params;  // the kept member (s24_op_prepare copies only it)
  if (p->requant) return S24_ERR_UNSUPPORTED;
  if (p->thr == NULL) return S24_ERR_ARG;
  const s24_tfl_op_t *op = &m->ops[index];
  const void *x = data[op->in[0]];
  if (((uintptr_t)x & 3u) != 0) return S24_ERR_UNSUPPORTED;
  *job = (s24_quant_job_t){x, data[op->out[0]], p->in->elems, p->thr, p->dom};
  return S24_OK;
}

s24_status_t s24_op_quant_from(const s24_tfl_model_t *m, size_t index, const void *params,
                               void *const *data, size_t from) {
  const quant_t *p = quant_float_op(m, index, params, data);
  if (p == NULL) return S24_ERR_ARG;
  const s24_tfl_op_t *op = &m->ops[index];
  quant_run_from(p, data[op->in[0]], data[op->out[0]], from);
  return S24_OK;
}

s24_status_t s24_op_run(const s24_tfl_model_t *m, size_t index, const void *params,
                        void *const *data) {
  if (!op_index_ok(m, index, NULL, 0) || params == NULL || data == NULL) return S24_ERR_ARG;
  const ctx_t c = {m, &m->ops[index], index, NULL, 0, NULL};
  const host_op_t *h = NULL;
  TRY(op_row(&c, &h));
  return h->run(&c, params, data);
}
