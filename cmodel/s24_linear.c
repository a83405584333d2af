// sparse24 golden model of the fused int8 layer, written from SPEC §7 alone (TFLite int8
// FULLY_CONNECTED, per-channel weights, single-rounding MultiplyByQuantizedMultiplier).
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

int8_t s24_requant(int32_t acc, int32_t mult, int32_t shift, int32_t zo, int32_t act_min,
                   int32_t act_max) {
  const int t = 31 - shift;                              // 1 .. 62
  const int64_t prod = (int64_t)acc * (int64_t)mult;     // |prod| < 2^62: exact
  const int64_t sum = prod + ((int64_t)1 << (t - 1));    // < 2^63: no overflow
  // floor shift (arithmetic >> of a negative value is implementation-defined in C: spell it)
  const int64_t r = sum >= 0 ? sum >> t : -(((-(sum + 1)) >> t) + 1);
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
                            int32_t act_max, int8_t *y) {
  if (x == NULL || w == NULL || mult == NULL || shift == NULL || y == NULL || batch == 0 ||
      m_rows == 0 || k == 0) {
    return S24_ERR_ARG;
  }
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
      y[b * m_rows + m] = s24_requant(acc_s, mult[m], shift[m], zo, act_min, act_max);
    }
  }
  return S24_OK;
}
