// SPDX-License-Identifier: Apache-2.0
// A reference of the double rounding (S24_ROUND_DOUBLE), written from gemmlowp's
// fixedpoint/fixedpoint.h and TFLite's MultiplyByQuantizedMultiplier (kernels/internal/common.h,
// without TFLITE_SINGLE_ROUNDING) as LiteRT's reference CONV_2D calls them, statement by
// statement, independent of the model's closed form (cmodel/s24_linear.c). Test code only: the
// C++ semantics are spelled out where C differs (noted at each place).
#ifndef S24_GEMMLOWP_REF_H_
#define S24_GEMMLOWP_REF_H_

#include <stdint.h>
#include <string.h>

// int32 from the low 32 bits of v: a C++ int32 expression that overflows wraps in LiteRT's
// build (two's complement; signed overflow is UB in C and C++, so it is computed unsigned here)
static inline int32_t gl_wrap32(uint32_t v) {
  int32_t r;
  memcpy(&r, &v, sizeof r);
  return r;
}

// x >> n for int32 x: arithmetic (sign-filling) in every C++ implementation LiteRT builds with
// (and defined so by C++20); spelled without relying on C's implementation-defined >>
static inline int32_t gl_asr(int32_t x, int n) {
  return x >= 0 ? x >> n : -1 - ((-1 - x) >> n);
}

// gemmlowp::SaturatingRoundingDoublingHighMul(std::int32_t a, std::int32_t b):
//   bool overflow = a == b && a == std::numeric_limits<std::int32_t>::min();
//   std::int64_t a_64(a); std::int64_t b_64(b); std::int64_t ab_64 = a_64 * b_64;
//   std::int32_t nudge = ab_64 >= 0 ? (1 << 30) : (1 - (1 << 30));
//   std::int32_t ab_x2_high32 = static_cast<std::int32_t>((ab_64 + nudge) / (1ll << 31));
//   return overflow ? std::numeric_limits<std::int32_t>::max() : ab_x2_high32;
// (C++ and C integer division both truncate toward zero; the quotient fits int32)
static inline int32_t gl_srdhm(int32_t a, int32_t b) {
  const int overflow = a == b && a == INT32_MIN;
  const int64_t a_64 = a, b_64 = b;
  const int64_t ab_64 = a_64 * b_64;
  const int32_t nudge = ab_64 >= 0 ? (1 << 30) : (1 - (1 << 30));
  const int32_t ab_x2_high32 = (int32_t)((ab_64 + nudge) / (1ll << 31));
  return overflow ? INT32_MAX : ab_x2_high32;
}

// gemmlowp::RoundingDivideByPOT(std::int32_t x, int exponent), exponent 0 .. 31:
//   const IntegerType mask = Dup<IntegerType>((1ll << exponent) - 1);
//   const IntegerType zero = Dup<IntegerType>(0); const IntegerType one = Dup<IntegerType>(1);
//   const IntegerType remainder = BitAnd(x, mask);
//   const IntegerType threshold = Add(ShiftRight(mask, 1), BitAnd(MaskIfLessThan(x, zero), one));
//   return Add(ShiftRight(x, exponent), BitAnd(MaskIfGreaterThan(remainder, threshold), one));
static inline int32_t gl_rdbpot(int32_t x, int exponent) {
  const int32_t mask = (int32_t)((1ll << exponent) - 1);
  const int32_t zero = 0, one = 1;
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + ((x < zero ? -1 : 0) & one);
  return gl_asr(x, exponent) + ((remainder > threshold ? -1 : 0) & one);
}

// tflite::MultiplyByQuantizedMultiplier(int32_t x, int32_t quantized_multiplier, int shift):
//   int left_shift = shift > 0 ? shift : 0;
//   int right_shift = shift > 0 ? 0 : -shift;
//   return RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(x * (1 << left_shift),
//                                                                quantized_multiplier),
//                              right_shift);
// (x * (1 << left_shift) is an int32 multiply: it wraps)
static inline int32_t gl_mbqm(int32_t x, int32_t quantized_multiplier, int shift) {
  const int left_shift = shift > 0 ? shift : 0;
  const int right_shift = shift > 0 ? 0 : -shift;
  const int32_t xs = gl_wrap32((uint32_t)x * (uint32_t)(1u << left_shift));
  return gl_rdbpot(gl_srdhm(xs, quantized_multiplier), right_shift);
}

#endif  // S24_GEMMLOWP_REF_H_
