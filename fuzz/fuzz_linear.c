// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness of `sparse24 linear`'s per-channel parameter loader and the fused layer's
// arithmetic it feeds (SPEC §7): s24_npy_read_channel (tools/npy.c: rank-1 int32, M entries,
// each in range) on arbitrary file contents, then s24_linear_ref (cmodel/) with the loaded
// vector.
//
// Input: 8 header bytes, then the parameter file.
//   byte 0: which parameter the file is (0 BIAS, 1 MULT, 2 SHIFT; mod 3); bit 7: the rounding
//           (0 single, SPEC §7; 1 double, gemmlowp's)
//   byte 1: M = 1 + b % 8   byte 2: batch = 1 + b % 4   byte 3: K = 1 + b % 16
//   byte 4: ZI (int8)       byte 5: ZO (int8)
//   byte 6: the clamp [ACT_MIN, ACT_MAX]: bits 1:0 = 0 none (-128, 127), 1 ReLU (max(-128, ZO),
//           127), 2 RELU6-like (max(-128, ZO), min(127, ZO + bits 7:2)), 3 a single value
//           (both = byte 6 with bits 1:0 cleared, as int8)
//   byte 7: seed of X, W and the two other parameters (in range; MULT and SHIFT often at
//           their limits)
// Oracles beyond ASan/UBSan:
//  - the loader accepts exactly when the generic reader (s24_npy_read_vector) reads an int32
//    vector of M entries all in range, and then returns the same values; on a refusal it keeps
//    nothing and says why;
//  - an accepted vector drives s24_linear_ref, which must equal SPEC §7's formula evaluated
//    here independently (128-bit products, floor division), or with double rounding gemmlowp's
//    functions as TFLite's MultiplyByQuantizedMultiplier calls them (tests/linear/
//    gemmlowp_ref.h), and the bias folding the hardware uses (s24_linear_fold_bias) must give
//    the same int32 sums.
// The file is the harnesses' in-memory file (fuzz/fuzz_file.h).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/linear/gemmlowp_ref.h"
#include "fuzz_file.h"
#include "npy.h"
#include "s24_model.h"

#define HDR 8
#define MAX_M 8
#define MAX_B 4
#define MAX_K 16

static uint32_t g_rng;
static uint32_t rnd(void) {  // xorshift32
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 17;
  g_rng ^= g_rng << 5;
  return g_rng;
}

// floor(a / 2^t) for t in 1..62, without relying on >> of a negative value
static __int128 floor_shift(__int128 a, int t) {
  const __int128 d = (__int128)1 << t;
  __int128 q = a / d;
  if (a % d != 0 && a < 0) q -= 1;
  return q;
}

// SPEC §7 for one output, evaluated directly (double: gemmlowp's functions)
static int8_t spec_y(const int8_t *x, const int8_t *w, size_t k, int32_t bias, int32_t mult,
                     int32_t shift, int32_t zi, int32_t zo, int32_t act_min,
                     int32_t act_max, int dbl) {
  int64_t sum = bias;
  for (size_t i = 0; i < k; i++) sum += (int64_t)w[i] * ((int64_t)x[i] - zi);
  const int32_t acc = (int32_t)(uint32_t)(uint64_t)sum;  // modulo 2^32, as int32
  const int t = 31 - shift;                              // 1 .. 62
  const __int128 r = dbl ? (__int128)gl_mbqm(acc, mult, shift)
                         : floor_shift((__int128)acc * mult + ((__int128)1 << (t - 1)), t);
  __int128 y = r + zo;
  if (y < act_min) y = act_min;
  if (y > act_max) y = act_max;
  return (int8_t)y;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < HDR) return 0;
  const int which = data[0] % 3;
  const s24_round_t round = (data[0] & 0x80) ? S24_ROUND_DOUBLE : S24_ROUND_SINGLE;
  const size_t m = 1 + data[1] % MAX_M, batch = 1 + data[2] % MAX_B, k = 1 + data[3] % MAX_K;
  const int32_t zi = (int8_t)data[4], zo = (int8_t)data[5];
  const int32_t relu_lo = zo > -128 ? zo : -128;
  int32_t act_min = -128, act_max = 127;
  switch (data[6] & 3) {
    case 1: act_min = relu_lo; break;
    case 2:
      act_min = relu_lo;
      act_max = zo + (data[6] >> 2) < 127 ? zo + (data[6] >> 2) : 127;
      break;
    case 3: act_min = act_max = (int8_t)(data[6] & 0xFC); break;
    default: break;
  }
  g_rng = 0x9e3779b9u ^ data[7];
  static const char *const kName[3] = {"BIAS", "MULT", "SHIFT"};
  static const long kLo[3] = {INT32_MIN, 0, -31}, kHi[3] = {INT32_MAX, INT32_MAX, 30};

  s24_fuzz_file_set(data + HDR, size - HDR);

  s24_npy_t got = {0}, gen = {0};
  char msg[256] = "", gmsg[256] = "";
  const s24_status_t st =
      s24_npy_read_channel(S24_FUZZ_PATH, kName[which], m, kLo[which], kHi[which], &got, msg, sizeof msg);
  // the loader's decision, recomputed from the generic reader
  int want_ok = s24_npy_read_vector(S24_FUZZ_PATH, &gen, gmsg, sizeof gmsg) == S24_OK &&
                gen.dtype == S24_NPY_I32 && gen.rows == 1 && gen.cols == m;
  for (size_t i = 0; want_ok && i < m; i++) {
    const int32_t v = ((const int32_t *)gen.data)[i];
    if (v < kLo[which] || v > kHi[which]) want_ok = 0;
  }
  if ((st == S24_OK) != want_ok) abort();
  if (st != S24_OK) {
    if (st != S24_ERR_FORMAT && st != S24_ERR_NOMEM && st != S24_ERR_IO) abort();
    if (msg[0] == '\0' || got.data != NULL) abort();
    s24_npy_free(&gen);
    return 0;
  }
  if (got.rows != 1 || got.cols != m || memcmp(got.data, gen.data, m * sizeof(int32_t)) != 0) abort();
  s24_npy_free(&gen);

  // the layer with the loaded vector in its place, the other parameters in range
  int32_t bias[MAX_M], mult[MAX_M], shift[MAX_M];
  int8_t x[MAX_B * MAX_K], w[MAX_M * MAX_K], y[MAX_B * MAX_M];
  for (size_t i = 0; i < m; i++) {
    const uint32_t r = rnd();
    bias[i] = (int32_t)rnd();
    mult[i] = (r & 3) == 0 ? INT32_MAX : (r & 3) == 1 ? 0 : (int32_t)(rnd() >> 1);
    shift[i] = (r & 12) == 0 ? 30 : (r & 12) == 4 ? -31 : (int32_t)(rnd() % 62) - 31;
  }
  for (size_t i = 0; i < batch * k; i++) x[i] = (int8_t)rnd();
  for (size_t i = 0; i < m * k; i++) w[i] = (int8_t)rnd();
  int32_t *mine = which == 0 ? bias : which == 1 ? mult : shift;
  memcpy(mine, got.data, m * sizeof(int32_t));
  s24_npy_free(&got);

  if (!s24_linear_params_ok(mult, shift, m, zi, zo, act_min, act_max, NULL)) abort();
  if (s24_linear_ref(x, batch, w, m, k, bias, mult, shift, zi, zo, act_min, act_max, round, y) !=
      S24_OK) {
    abort();
  }
  for (size_t b = 0; b < batch; b++) {
    for (size_t o = 0; o < m; o++) {
      const int8_t *xr = x + b * k, *wr = w + o * k;
      if (y[b * m + o] != spec_y(xr, wr, k, bias[o], mult[o], shift[o], zi, zo, act_min, act_max,
                                 round == S24_ROUND_DOUBLE)) {
        abort();
      }
      // the folded bias: sum w*x + fold == sum w*(x - zi) + bias, modulo 2^32
      uint32_t plain = 0, direct = (uint32_t)bias[o];
      for (size_t i = 0; i < k; i++) {
        plain += (uint32_t)((int32_t)wr[i] * xr[i]);
        direct += (uint32_t)((int32_t)wr[i] * ((int32_t)xr[i] - zi));
      }
      if (plain + s24_linear_fold_bias(wr, k, bias[o], zi) != direct) abort();
    }
  }
  return 0;
}
