// SPDX-License-Identifier: Apache-2.0
// sparse24 golden model of the fused int8 layer, written from SPEC §7 alone (TFLite int8
// FULLY_CONNECTED, per-channel weights, single-rounding MultiplyByQuantizedMultiplier), plus
// gemmlowp's double rounding (LiteRT's reference CONV_2D) in closed form (s24_round_t), and the
// 8-bit elementwise ADD / SUB's tables (s24_add_tab_t).
#include <string.h>

#include "s24_model.h"

int s24_linear_params_ok(const int32_t *mult, const int32_t *shift, size_t m_rows, int32_t zi,
                         int32_t zo, int32_t act_min, int32_t act_max, size_t *bad_row) {
  if (zi < -128 || zi > 127 || zo < -128 || zo > 127 || act_min < -128 || act_max > 127 ||
      act_min > act_max) {
    if (bad_row != NULL) *bad_row = SIZE_MAX;
    return 0;
  }
  for (size_t m = 0; m < m_rows; m++) {
    if (mult[m] < 0 || shift[m] < -31 || shift[m] > 30) {
      if (bad_row != NULL) *bad_row = m;
      return 0;
    }
  }
  return 1;
}

// floor(v / 2^t) (arithmetic >> of a negative value is implementation-defined in C: spell it)
static int64_t floor_shift(int64_t v, int t) { return v >= 0 ? v >> t : -(((-(v + 1)) >> t) + 1); }

int8_t s24_requant(int32_t acc, int32_t mult, int32_t shift, int32_t zo, int32_t act_min,
                   int32_t act_max, s24_round_t round) {
  const int t = 31 - shift;                              // 1 .. 62
  const int64_t prod = (int64_t)acc * (int64_t)mult;     // |prod| < 2^62: exact
  int64_t r;
  if (round == S24_ROUND_DOUBLE && shift > 0) {
    // gemmlowp: acc * 2^SHIFT in int32 (wraps), then the rounding doubling high multiply
    const uint32_t xu = (uint32_t)acc << shift;
    int32_t x;
    memcpy(&x, &xu, sizeof x);
    r = floor_shift((int64_t)x * (int64_t)mult + ((int64_t)1 << 30), 31);
  } else if (round == S24_ROUND_DOUBLE && shift < 0) {
    // the high multiply's rounding (+2^30), then RoundingDivideByPOT's (+2^(t-1), and one less
    // below zero: p < -2^30 is exactly "the high multiply is negative"); < 2^63: no overflow
    const int64_t neg = prod < -((int64_t)1 << 30) ? (int64_t)1 << 31 : 0;
    r = floor_shift(prod + ((int64_t)1 << 30) + ((int64_t)1 << (t - 1)) - neg, t);
  } else {
    r = floor_shift(prod + ((int64_t)1 << (t - 1)), t);  // < 2^63: no overflow
  }
  int64_t y = r + zo;
  if (y < act_min) y = act_min;
  if (y > act_max) y = act_max;
  return (int8_t)y;
}

uint32_t s24_linear_fold_bias(const int8_t *w_row, size_t k, int32_t bias, int32_t zi) {
  uint32_t sum = 0;
  for (size_t i = 0; i < k; i++) sum += (uint32_t)(int32_t)w_row[i];
  return (uint32_t)bias - (uint32_t)zi * sum;  // modulo 2^32
}

s24_status_t s24_linear_ref(const int8_t *x, size_t batch, const int8_t *w, size_t m_rows,
                            size_t k, const int32_t *bias, const int32_t *mult,
                            const int32_t *shift, int32_t zi, int32_t zo, int32_t act_min,
                            int32_t act_max, s24_round_t round, int8_t *y) {
  if (x == NULL || w == NULL || mult == NULL || shift == NULL || y == NULL || batch == 0 ||
      m_rows == 0 || k == 0) {
    return S24_ERR_ARG;
  }
  if (round != S24_ROUND_SINGLE && round != S24_ROUND_DOUBLE) return S24_ERR_ARG;
  if (!s24_linear_params_ok(mult, shift, m_rows, zi, zo, act_min, act_max, NULL)) {
    return S24_ERR_ARG;
  }
  for (size_t b = 0; b < batch; b++) {
    for (size_t m = 0; m < m_rows; m++) {
      // acc = sum_k W[m][k] * (X[b][k] - ZI) + BIAS[m], modulo 2^32
      uint32_t acc = bias != NULL ? (uint32_t)bias[m] : 0u;
      for (size_t i = 0; i < k; i++) {
        acc += (uint32_t)((int32_t)w[m * k + i] * ((int32_t)x[b * k + i] - zi));
      }
      int32_t acc_s;
      memcpy(&acc_s, &acc, sizeof acc_s);
      y[b * m_rows + m] = s24_requant(acc_s, mult[m], shift[m], zo, act_min, act_max, round);
    }
  }
  return S24_OK;
}

s24_status_t s24_add_tab_make(s24_add_tab_t *t, int32_t out_mult, int32_t out_shift, int sub,
                              int32_t out_off, int32_t act_lo, int32_t act_hi) {
  if (t == NULL || out_mult < 0 || out_shift > 0 || out_shift < -31 || out_off < -128 ||
      out_off > 127 || act_lo < -128 || act_hi > 127 || act_lo > act_hi) {
    return S24_ERR_ARG;
  }
  const int64_t lim = INT64_C(1) << 28;  // the 8-bit kernel's: |(q - z) * 2^20| < 2^28, times < 1
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 256; i++) {
      if (t->p[k][i] < -lim || t->p[k][i] > lim) return S24_ERR_ARG;
    }
  }
  for (int i = 0; i < 256; i++) {
    t->p[0][i] *= out_mult;
    t->p[1][i] *= sub ? -(int64_t)out_mult : (int64_t)out_mult;
  }
  t->shift = -out_shift;
  t->out_off = out_off;
  t->act_lo = act_lo;
  t->act_hi = act_hi;
  return S24_OK;
}
