// SPDX-License-Identifier: Apache-2.0
// sparse24 bit-exact golden model: N:M formats, prune, compress, validate, sparse GEMM.
//
// Conventions (SPEC.md): A is M x K int8 row-major, N:M sparse along K; B is K x N int8
// row-major; C is M x N int32 row-major with wraparound. A compressed matrix is
//   values: M x s24_values_cols(p, K) int8   (the n kept values of each group, by index)
//   meta:   M x s24_meta_cols(p, K)   uint8  (log2(m)-bit indices, LSB-first, row-major)
// Every function checks all its arguments before touching any output.
#ifndef S24_MODEL_H_
#define S24_MODEL_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where a check failed: row, group (along K) and nonzero count or offending slot. */
typedef struct {
  size_t row;
  size_t group;
  uint32_t count;
} s24_where_t;

/** s24_where_t.count of an S24_ERR_META caused by nonzero unused bits after the last index
 *  of a row (group is then the row's last group); otherwise count is the slot in the group. */
#define S24_WHERE_PADDING UINT32_MAX

/** Supported patterns: m in {4, 8} and 1 <= n < m (also m == 2, 1 <= n <= m for hw use). */
int s24_pattern_ok(s24_pattern_t p);
/** Parses "N:M" (e.g. "2:4"). */
S24_WARN_UNUSED s24_status_t s24_pattern_parse(const char *text, s24_pattern_t *p);
/** log2(m): bits of one index. */
uint32_t s24_idx_bits(s24_pattern_t p);
/** Columns of the values matrix for reduction length k: (k/m)*n. */
size_t s24_values_cols(s24_pattern_t p, size_t k);
/** Bytes per row of metadata for reduction length k: ceil((k/m)*n*log2(m)/8). */
size_t s24_meta_cols(s24_pattern_t p, size_t k);
/** Index of kept value `slot` (0 .. (k/m)*n - 1) of one metadata row. */
uint32_t s24_meta_get(s24_pattern_t p, const uint8_t *meta_row, size_t slot);

/** SPEC §3: keep the n largest magnitudes of each group (ties: lower index). out may == a. */
S24_WARN_UNUSED s24_status_t s24_prune(s24_pattern_t p, const int8_t *a, size_t rows,
                                       size_t k, int8_t *out);
/** S24_ERR_PATTERN with *where = first (row, group, nonzero count) over n. */
S24_WARN_UNUSED s24_status_t s24_check_pattern(s24_pattern_t p, const int8_t *a, size_t rows,
                                               size_t k, s24_where_t *where);
/** Canonical compression (SPEC §2 padding convention). Checks the pattern first. */
S24_WARN_UNUSED s24_status_t s24_compress(s24_pattern_t p, const int8_t *a, size_t rows,
                                          size_t k, int8_t *values, uint8_t *meta,
                                          s24_where_t *where);
/** S24_ERR_META with *where = first (row, group) whose indices are not strictly increasing
 *  and < m, or whose unused trailing metadata bits are not zero. */
S24_WARN_UNUSED s24_status_t s24_meta_validate(s24_pattern_t p, const uint8_t *meta,
                                               size_t rows, size_t k, s24_where_t *where);
/** Validates the metadata, then scatters values back to a dense rows x k matrix. */
S24_WARN_UNUSED s24_status_t s24_decompress(s24_pattern_t p, const int8_t *values,
                                            const uint8_t *meta, size_t rows, size_t k,
                                            int8_t *out, s24_where_t *where);

/** C = A*B (+ C0), computed from the compressed form the way the hardware does it: each
 *  kept value selects its B row by its index. c0 may be NULL; c may == c0. Validates meta. */
S24_WARN_UNUSED s24_status_t s24_gemm_sparse(s24_pattern_t p, const int8_t *values,
                                             const uint8_t *meta, size_t m_rows, size_t k,
                                             const int8_t *b, size_t n_cols,
                                             const int32_t *c0, int32_t *c,
                                             s24_where_t *where);
/** Independent plain dense reference: C = A*B (+ C0) with int32 wraparound. */
S24_WARN_UNUSED s24_status_t s24_gemm_dense_ref(const int8_t *a, size_t m_rows, size_t k,
                                                const int8_t *b, size_t n_cols,
                                                const int32_t *c0, int32_t *c);

/* ---- Fused int8 layer (SPEC §7: TFLite int8 FULLY_CONNECTED, per-channel) -------------- */

/** The requantization's rounding (CFG_EPI.ROUND, docs/architecture.md §4), per layer. With
 *  t = 31 - SHIFT, p = acc * MULT (exact) and floor divisions:
 *  - S24_ROUND_SINGLE: floor((p + 2^(t-1)) / 2^t), SPEC §7: TFLite's single-rounding
 *    MultiplyByQuantizedMultiplier, as LiteRT's reference FULLY_CONNECTED computes it;
 *  - S24_ROUND_DOUBLE: gemmlowp's RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(
 *    acc * 2^max(SHIFT, 0), MULT), max(-SHIFT, 0)) with the int32 product acc * 2^SHIFT wrapping,
 *    as LiteRT's reference CONV_2D computes it; in closed form: SHIFT > 0: x = acc * 2^SHIFT
 *    modulo 2^32 as int32, floor((x * MULT + 2^30) / 2^31); SHIFT = 0: as single; SHIFT < 0:
 *    floor((p + 2^30 + 2^(t-1) - 2^31 * [p < -2^30]) / 2^t). Differs from single by at most 1. */
typedef enum {
  S24_ROUND_SINGLE = 0,
  S24_ROUND_DOUBLE = 1,
} s24_round_t;

/** 1 when ZI, ZO, ACT_MIN, ACT_MAX are in [-128, 127], ACT_MIN <= ACT_MAX and every MULT in
 *  [0, 2^31), SHIFT in [-31, 30]; otherwise 0 with *bad_row (if not NULL) = the first bad
 *  channel, SIZE_MAX for a zero point or a clamp bound. */
int s24_linear_params_ok(const int32_t *mult, const int32_t *shift, size_t m_rows, int32_t zi,
                         int32_t zo, int32_t act_min, int32_t act_max, size_t *bad_row);
/** One output: clamp(r + zo, act_min, act_max) with r = ((acc*mult + 2^(t-1)) >> t),
 *  t = 31 - shift (64-bit product, floor shift) for S24_ROUND_SINGLE, gemmlowp's double rounding
 *  for S24_ROUND_DOUBLE (s24_round_t). [act_min, act_max] is the int8 range of the fused
 *  activation (TFLite's CalculateActivationRangeQuantized): -128..127 none, max(-128, zo)..127
 *  ReLU, and RELU6 / RELU_N1_TO_1 from the output scale. Parameters in range
 *  (s24_linear_params_ok; a round other than the two is taken as single). */
int8_t s24_requant(int32_t acc, int32_t mult, int32_t shift, int32_t zo, int32_t act_min,
                   int32_t act_max, s24_round_t round);
/** The bias the hardware adds: bias - zi * sum_k w_row[k], modulo 2^32 (the input zero point
 *  folded in: sum_k w*(x - zi) + bias == sum_k w*x + this, in int32 wraparound). */
uint32_t s24_linear_fold_bias(const int8_t *w_row, size_t k, int32_t bias, int32_t zi);
/** Y[b][m] (batch x m_rows int8) of SPEC §7 for X (batch x k int8), W (m_rows x k int8, any
 *  values), bias (m_rows int32 or NULL = zeros), mult, shift (m_rows), requantized with the
 *  given rounding (s24_requant). S24_ERR_ARG for a NULL, a zero size, a parameter out of range
 *  (s24_linear_params_ok) or a round that is not an s24_round_t. */
S24_WARN_UNUSED s24_status_t s24_linear_ref(const int8_t *x, size_t batch, const int8_t *w,
                                            size_t m_rows, size_t k, const int32_t *bias,
                                            const int32_t *mult, const int32_t *shift,
                                            int32_t zi, int32_t zo, int32_t act_min,
                                            int32_t act_max, s24_round_t round, int8_t *y);

/* ---- Elementwise int8 ADD / SUB (LiteRT's reference AddElementwise, SubElementwise) ---- */

/** An 8-bit ADD or SUB in the form the SoC's add unit computes it (EltAdd, soc/s24_stream.py):
 *  each input's rescaled value s(q) (gemmlowp's ((q - zero point) * 2^20) times its multiplier)
 *  depends on its int8 value q alone, and so does s(q) * M, M the output multiplier, exactly in
 *  64 bits; so SaturatingRoundingDoublingHighMul(s1(x) +- s2(y), M) needs only the sum
 *  p[0][x] + p[1][y] (SUB's second table negated), then RoundingDivideByPOT by `shift`, the
 *  output zero point and the fused activation's clamp. In memory as the unit reads it: p[0] then
 *  p[1], each entry a little-endian int64 (the SoC's own layout). */
typedef struct {
  int64_t p[2][256];  /**< index q + 128: s_i(q) * M, |s_i(q)| <= 2^28 */
  int32_t shift;      /**< the output's right shift, 0 .. 31 */
  int32_t out_off, act_lo, act_hi;  /**< output zero point and clamp, int8 */
} s24_add_tab_t;

/** Completes *t, whose p[0], p[1] hold the two inputs' rescaled values s1(q), s2(q) (index
 *  q + 128) on entry: each times the output multiplier (SUB's s2 negated first), and the output
 *  shift (TFLite's QuantizeMultiplierSmallerThanOneExp: mult >= 0, shift in -31 .. 0), zero point
 *  and clamp. S24_ERR_ARG (*t then unchanged) when a value is outside those ranges or an
 *  |s_i(q)| > 2^28 (the 8-bit kernel's range: (q - z) * 2^20 times a multiplier below one; the
 *  sum, the rounded product and the output then stay within int32). */
S24_WARN_UNUSED s24_status_t s24_add_tab_make(s24_add_tab_t *t, int32_t out_mult,
                                              int32_t out_shift, int sub, int32_t out_off,
                                              int32_t act_lo, int32_t act_hi);

/** An elementwise ADD / SUB of n int8 elements for a device (s24_seam_t.stream_add):
 *  z[i] = s24_add_elem(tab, x[i], y[i]), i < n. */
typedef struct {
  const int8_t *x, *y;
  int8_t *z;
  size_t n;
  const s24_add_tab_t *tab;
} s24_add_job_t;

/** One output of the ADD / SUB of *t (made by s24_add_tab_make) for inputs x, y. */
static inline int8_t s24_add_elem(const s24_add_tab_t *t, int8_t x, int8_t y) {
  const int64_t ab = t->p[0][(int32_t)x + 128] + t->p[1][(int32_t)y + 128];
  const int64_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  const int32_t h = (int32_t)((ab + nudge) / ((int64_t)1 << 31));  // truncates, as in C++
  const int32_t mask = (int32_t)((UINT32_C(1) << t->shift) - 1u);
  const int32_t threshold = (mask >> 1) + (h < 0 ? 1 : 0);
  int32_t r = (h >> t->shift) + ((h & mask) > threshold ? 1 : 0) + t->out_off;
  if (r < t->act_lo) r = t->act_lo;
  if (r > t->act_hi) r = t->act_hi;
  return (int8_t)r;
}

/** A FLOAT32 -> int8 QUANTIZE (LiteRT's AffineQuantize) by table, as the SoC's quantize unit
 *  (QuantIn, soc/s24_stream.py) computes it: for an input whose magnitude bits
 *  (bits & 0x7fffffff) are below `dom` the output is -128 plus the number of the 255 ascending
 *  thresholds thr[] (float keys, s24_quant_key) at or below the input's key; the runtime makes
 *  the table once at load (its host kernel reads the same one). Elements at or beyond `dom` (NaN,
 *  infinities, |x| >= scale * 2^24) are not the table's: the device leaves them, and every one
 *  after the first of them, to the caller (s24_seam_t.stream_quant's *done). */
typedef struct {
  const uint32_t *x;    /**< n floats' bits (32-bit aligned) */
  int8_t *y;
  size_t n;
  const int32_t *thr;   /**< 255 keys, ascending */
  uint32_t dom;
} s24_quant_job_t;

/** A float's bits as an int32 that orders like the float's value (-0 just below +0). */
static inline int32_t s24_quant_key(uint32_t bits) {
  return (int32_t)(bits ^ ((uint32_t)((int32_t)bits >> 31) & 0x7FFFFFFFu));
}

/** The table's output for an input (bits) within its domain: -128 plus the thresholds at or
 *  below its key, by the unit's search (thresholds pos + 2^b - 1, b = 7 .. 0). */
static inline int8_t s24_quant_elem(const int32_t *thr, uint32_t bits) {
  const int32_t k = s24_quant_key(bits);
  uint32_t pos = 0;
  for (int b = 7; b >= 0; b--) {
    if (thr[pos + (1u << b) - 1u] <= k) pos += 1u << b;
  }
  return (int8_t)((int32_t)pos - 128);
}

#ifdef __cplusplus
}
#endif

#endif  // S24_MODEL_H_
