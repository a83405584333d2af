// SPDX-License-Identifier: Apache-2.0
// cmocka unit tests of the golden model: SPEC §2 worked examples byte for byte, padding
// convention, pruning rule, pattern and metadata checks with their locations, GEMM with C0,
// int32 wraparound, argument guards, and the fused layer's int8 result beat layout.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "s24_layout.h"
#include "s24_cycles.h"
#include "s24_model.h"
#include "../common/cmocka_run.h"  // S24_RUN_TESTS (tests/common/)

static const s24_pattern_t P24 = {2, 4}, P14 = {1, 4}, P28 = {2, 8}, P48 = {4, 8};

// Compress one row and compare values and metadata with the expected bytes.
static void expect_row(s24_pattern_t p, const int8_t *row, size_t k, const int8_t *vals,
                       const uint8_t *meta) {
  int8_t v[64];
  uint8_t md[64];
  memset(v, 0x55, sizeof v);
  memset(md, 0x55, sizeof md);
  s24_where_t w;
  assert_int_equal(s24_compress(p, row, 1, k, v, md, &w), S24_OK);
  assert_memory_equal(v, vals, s24_values_cols(p, k));
  assert_memory_equal(md, meta, s24_meta_cols(p, k));
  assert_int_equal(s24_meta_validate(p, md, 1, k, &w), S24_OK);
  int8_t back[64];
  assert_int_equal(s24_decompress(p, v, md, 1, k, back, &w), S24_OK);
  assert_memory_equal(back, row, k);
}

// The worked examples of the SPEC: a dense row, its values and its metadata bytes.
typedef struct {
  s24_pattern_t p;
  size_t k;
  int8_t row[16], vals[8];
  uint8_t meta[2];
} example_t;

static const example_t kExample24 = {
    {2, 4}, 16, {0, 5, 0, -3, 7, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0}, {5, -3, 7, 0, 0, 0, 1, 2},
    {0xCD, 0x4E}};
static const example_t kExample14 = {{1, 4}, 8, {0, 0, 9, 0, 0, 0, 0, 0}, {9, 0}, {0x0E}};
static const example_t kExample28 = {{2, 8}, 8, {0, 0, 0, 0, 0, 6, 0, 1}, {6, 1}, {0x3D}};

static void expect_example(const example_t *e) { expect_row(e->p, e->row, e->k, e->vals, e->meta); }

static void spec_example_24(void **state) {
  (void)state;
  expect_example(&kExample24);
  // The four nibbles of the example, read back slot by slot.
  const uint32_t idx[8] = {1, 3, 0, 3, 2, 3, 0, 1};
  for (size_t s = 0; s < 8; s++) assert_int_equal(s24_meta_get(P24, kExample24.meta, s), idx[s]);
}

static void spec_example_14(void **state) {
  (void)state;
  expect_example(&kExample14);
}

static void spec_example_28(void **state) {
  (void)state;
  expect_example(&kExample28);
}

// 2:4 groups with fewer than 2 nonzeros: all zero -> (2,3); only i<3 -> (i,3); only 3 -> (2,3).
static void padding_24(void **state) {
  (void)state;
  const int8_t rows[5][4] = {{0, 0, 0, 0}, {4, 0, 0, 0}, {0, 4, 0, 0}, {0, 0, 4, 0}, {0, 0, 0, 4}};
  const uint8_t nibble[5] = {0xE, 0xC, 0xD, 0xE, 0xE};
  const int8_t vals[5][2] = {{0, 0}, {4, 0}, {4, 0}, {4, 0}, {0, 4}};
  for (int i = 0; i < 5; i++) {
    const uint8_t meta = nibble[i];
    expect_row(P24, rows[i], 4, vals[i], &meta);
  }
}

static void padding_other_patterns(void **state) {
  (void)state;
  const int8_t zero8[8] = {0};
  // 2:8 all zero -> (6, 7): 6 | 7 << 3 = 0x3E
  const uint8_t m28[1] = {0x3E};
  const int8_t v2[2] = {0, 0};
  expect_row(P28, zero8, 8, v2, m28);
  // 4:8 only index 7 -> (4, 5, 6, 7): 12 bits 4 | 5<<3 | 6<<6 | 7<<9 = 0xFAC
  const int8_t row[8] = {0, 0, 0, 0, 0, 0, 0, -1};
  const int8_t v4[4] = {0, 0, 0, -1};
  const uint8_t m48[2] = {0xAC, 0x0F};
  expect_row(P48, row, 8, v4, m48);
  // 4:8 only index 0 -> (0, 5, 6, 7): 0 | 5<<3 | 6<<6 | 7<<9 = 0xFA8
  const int8_t row0[8] = {3, 0, 0, 0, 0, 0, 0, 0};
  const int8_t v40[4] = {3, 0, 0, 0};
  const uint8_t m480[2] = {0xA8, 0x0F};
  expect_row(P48, row0, 8, v40, m480);
}

static void prune_rule(void **state) {
  (void)state;
  // ties keep the lower index; |-128| is the largest magnitude
  int8_t a[12] = {3, -3, 3, 0, 127, -128, 0, 1, -1, 1, -1, 1};
  const int8_t want24[12] = {3, -3, 0, 0, 127, -128, 0, 0, -1, 1, 0, 0};
  int8_t out[12];
  assert_int_equal(s24_prune(P24, a, 1, 12, out), S24_OK);
  assert_memory_equal(out, want24, 12);
  const int8_t want14[12] = {3, 0, 0, 0, 0, -128, 0, 0, -1, 0, 0, 0};
  assert_int_equal(s24_prune(P14, a, 1, 12, out), S24_OK);
  assert_memory_equal(out, want14, 12);
  // in place, two rows
  assert_int_equal(s24_prune(P24, a, 2, 4, a), S24_OK);
  const int8_t inplace[8] = {3, -3, 0, 0, 127, -128, 0, 0};
  assert_memory_equal(a, inplace, 8);
}

static void check_pattern_where(void **state) {
  (void)state;
  const int8_t a[2 * 8] = {1, 1, 0, 0, 0, 0, 0, 0,  // row 0 fine
                           0, 0, 0, 0, 1, 2, 3, 0}; // row 1 group 1 has 3
  s24_where_t w = {99, 99, 99};
  assert_int_equal(s24_check_pattern(P24, a, 2, 8, &w), S24_ERR_PATTERN);
  assert_int_equal(w.row, 1);
  assert_int_equal(w.group, 1);
  assert_int_equal(w.count, 3);
  assert_int_equal(s24_check_pattern(P14, a, 1, 8, &w), S24_ERR_PATTERN);
  assert_int_equal(w.row, 0);
  assert_int_equal(w.group, 0);
  assert_int_equal(w.count, 2);
  assert_int_equal(s24_check_pattern(P48, a, 2, 8, NULL), S24_OK);
  // compress refuses it and writes nothing
  int8_t v[8];
  uint8_t md[4];
  memset(v, 0x77, sizeof v);
  memset(md, 0x77, sizeof md);
  assert_int_equal(s24_compress(P24, a, 2, 8, v, md, &w), S24_ERR_PATTERN);
  for (size_t i = 0; i < sizeof v; i++) assert_int_equal((uint8_t)v[i], 0x77);
  for (size_t i = 0; i < sizeof md; i++) assert_int_equal(md[i], 0x77);
}

static void meta_invalid(void **state) {
  (void)state;
  s24_where_t w;
  // 2:4, one row of 3 groups: group 2 repeats index 1 (nibble 0x5)
  uint8_t rep[2] = {0xDE, 0x05};
  assert_int_equal(s24_meta_validate(P24, rep, 1, 12, &w), S24_ERR_META);
  assert_int_equal(w.row, 0);
  assert_int_equal(w.group, 2);
  assert_int_equal(w.count, 1);
  // second row, group 0 decreasing (low 1, high 0: nibble 0x1)
  uint8_t dec[4] = {0xDE, 0x0E, 0xE1, 0x0E};
  assert_int_equal(s24_meta_validate(P24, dec, 2, 12, &w), S24_ERR_META);
  assert_int_equal(w.row, 1);
  assert_int_equal(w.group, 0);
  assert_int_equal(w.count, 1);
  // 2:4 with K = 12: the high nibble of the second byte is unused and must be zero
  uint8_t pad[2] = {0xDE, 0x1E};
  assert_int_equal(s24_meta_validate(P24, pad, 1, 12, &w), S24_ERR_META);
  assert_int_equal(w.group, 2);
  assert_int_equal(w.count, S24_WHERE_PADDING);
  // 2:8 K = 8: 6 bits used, bits 6..7 must be zero
  uint8_t pad28[1] = {0x3D | 0x40};
  assert_int_equal(s24_meta_validate(P28, pad28, 1, 8, &w), S24_ERR_META);
  assert_int_equal(w.count, S24_WHERE_PADDING);
  // 2:8 decreasing across a byte boundary: K = 24, group 1 is bits 6..11
  // group 0 (0,1) = 0x08; group 1 (7,2): 7 | 2 << 3 = 0x17 at bit 6; group 2 (6,7) = 0x3E at bit 12
  uint32_t bitsv = 0x08u | (0x17u << 6) | (0x3Eu << 12);
  uint8_t cross[3] = {(uint8_t)bitsv, (uint8_t)(bitsv >> 8), (uint8_t)(bitsv >> 16)};
  assert_int_equal(s24_meta_get(P28, cross, 2), 7);
  assert_int_equal(s24_meta_get(P28, cross, 3), 2);
  assert_int_equal(s24_meta_validate(P28, cross, 1, 24, &w), S24_ERR_META);
  assert_int_equal(w.group, 1);
  assert_int_equal(w.count, 1);
  // decompress and gemm refuse it and leave their outputs alone
  int8_t v[6] = {1, 2, 3, 4, 5, 6};
  int8_t out[24];
  memset(out, 0x66, sizeof out);
  assert_int_equal(s24_decompress(P28, v, cross, 1, 24, out, &w), S24_ERR_META);
  for (size_t i = 0; i < sizeof out; i++) assert_int_equal((uint8_t)out[i], 0x66);
  int8_t b[24 * 2];
  memset(b, 1, sizeof b);
  int32_t c[2] = {12345, -6789};
  assert_int_equal(s24_gemm_sparse(P28, v, cross, 1, 24, b, 2, NULL, c, &w), S24_ERR_META);
  assert_int_equal(c[0], 12345);
  assert_int_equal(c[1], -6789);
}

static void gemm_small_with_c0(void **state) {
  (void)state;
  // A 2 x 8 (2:4), B 8 x 3, C0 2 x 3; C = A*B + C0 computed by hand.
  const int8_t a[16] = {0, 5, 0, -3, 7, 0, 0, 0, -128, 0, 0, 127, 0, 0, 2, 1};
  int8_t b[24];
  for (int i = 0; i < 24; i++) b[i] = (int8_t)(i - 12);
  const int32_t c0[6] = {1, -1, 1000, 0, 7, -7};
  int32_t want[6];
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 3; j++) {
      int32_t s = c0[i * 3 + j];
      for (int k = 0; k < 8; k++) s += a[i * 8 + k] * b[k * 3 + j];
      want[i * 3 + j] = s;
    }
  }
  int8_t v[8];
  uint8_t md[4];
  s24_where_t w;
  assert_int_equal(s24_compress(P24, a, 2, 8, v, md, &w), S24_OK);
  int32_t c[6];
  assert_int_equal(s24_gemm_sparse(P24, v, md, 2, 8, b, 3, c0, c, &w), S24_OK);
  assert_memory_equal(c, want, sizeof want);
  int32_t ref[6];
  assert_int_equal(s24_gemm_dense_ref(a, 2, 8, b, 3, c0, ref), S24_OK);
  assert_memory_equal(ref, want, sizeof want);
  // c == c0 accumulates in place
  int32_t acc[6];
  memcpy(acc, c0, sizeof acc);
  assert_int_equal(s24_gemm_sparse(P24, v, md, 2, 8, b, 3, acc, acc, &w), S24_OK);
  assert_memory_equal(acc, want, sizeof want);
  memcpy(acc, c0, sizeof acc);
  assert_int_equal(s24_gemm_dense_ref(a, 2, 8, b, 3, acc, acc), S24_OK);
  assert_memory_equal(acc, want, sizeof want);
  // without C0
  assert_int_equal(s24_gemm_sparse(P24, v, md, 2, 8, b, 3, NULL, c, &w), S24_OK);
  for (int i = 0; i < 6; i++) assert_int_equal(c[i], want[i] - c0[i]);
}

static int32_t mod32(int64_t v) {
  uint32_t u = (uint32_t)(uint64_t)v;
  int32_t r;
  memcpy(&r, &u, sizeof r);
  return r;
}

// All -128 times all -128 wraps int32: K * 16384 > 2^31 - 1.
static void gemm_wraparound(void **state) {
  (void)state;
  const size_t kd = 131076;  // dense: 131076 * 16384 = 2^31 + 65536
  int8_t *a = malloc(2 * kd), *b = malloc(2 * kd * 2);
  assert_non_null(a);
  assert_non_null(b);
  memset(a, 0x80, kd);
  memset(b, 0x80, kd * 2);
  int32_t c[2];
  int64_t exact = (int64_t)kd * 16384;
  assert_true(exact > INT32_MAX);
  assert_int_equal(s24_gemm_dense_ref(a, 1, kd, b, 2, NULL, c), S24_OK);
  assert_int_equal(c[0], mod32(exact));
  assert_int_equal(c[1], mod32(exact));
  assert_int_equal(c[0], INT32_MIN + 65536);
  // sparse 2:4 with K = 2 * kd: prune keeps half the -128s, same total
  const size_t ks = 2 * kd;
  memset(a, 0x80, ks);
  memset(b, 0x80, ks * 2);
  assert_int_equal(s24_prune(P24, a, 1, ks, a), S24_OK);
  int8_t *v = malloc(ks / 2);
  uint8_t *md = malloc(ks / 8);
  assert_non_null(v);
  assert_non_null(md);
  s24_where_t w;
  assert_int_equal(s24_compress(P24, a, 1, ks, v, md, &w), S24_OK);
  const int32_t c0[2] = {INT32_MAX, -5};
  assert_int_equal(s24_gemm_sparse(P24, v, md, 1, ks, b, 2, c0, c, &w), S24_OK);
  assert_int_equal(c[0], mod32(exact + INT32_MAX));
  assert_int_equal(c[1], mod32(exact - 5));
  int32_t ref[2];
  assert_int_equal(s24_gemm_dense_ref(a, 1, ks, b, 2, c0, ref), S24_OK);
  assert_memory_equal(ref, c, sizeof c);
  free(a);
  free(b);
  free(v);
  free(md);
}

static void pattern_api(void **state) {
  (void)state;
  s24_pattern_t p;
  const char *good[] = {"1:4", "2:4", "3:4", "1:8", "2:8", "4:8", "7:8", "4:4", "8:8", "1:2", "2:2"};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    assert_int_equal(s24_pattern_parse(good[i], &p), S24_OK);
    assert_true(s24_pattern_ok(p));
  }
  const char *bad[] = {"0:4", "5:4", "2:3", "2:16", "2:4x", " 2:4", "2", "", ":4", "2:", "-2:4",
                       "9:8", "2:6", "123:4", "2;4"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    p.n = 77;
    assert_int_equal(s24_pattern_parse(bad[i], &p), S24_ERR_ARG);
    assert_int_equal(p.n, 77);  // untouched on error
  }
  assert_int_equal(s24_pattern_parse(NULL, &p), S24_ERR_ARG);
  assert_int_equal(s24_idx_bits(P24), 2);
  assert_int_equal(s24_idx_bits(P28), 3);
  assert_int_equal(s24_values_cols(P24, 16), 8);
  assert_int_equal(s24_meta_cols(P24, 16), 2);
  assert_int_equal(s24_meta_cols(P24, 12), 2);
  assert_int_equal(s24_meta_cols(P14, 8), 1);
  assert_int_equal(s24_meta_cols(P28, 8), 1);
  assert_int_equal(s24_meta_cols(P48, 8), 2);
  assert_int_equal(s24_meta_cols(P28, 32), 3);  // 8 indices * 3 bits
  s24_pattern_t bad_p = {3, 5};
  assert_false(s24_pattern_ok(bad_p));
  assert_int_equal(s24_values_cols(bad_p, 10), 0);
  // every status has a text, unknown ones too
  for (int s = -12; s <= 2; s++) assert_non_null(s24_strerror((s24_status_t)s));
  assert_string_equal(s24_strerror(S24_OK), "ok");
}

static void argument_guards(void **state) {
  (void)state;
  int8_t a[8] = {0}, v[4] = {0}, out[8];
  uint8_t md[2] = {0xEE, 0xEE};
  int32_t c[2];
  s24_where_t w;
  s24_pattern_t bad = {0, 4};
  assert_int_equal(s24_prune(bad, a, 1, 8, out), S24_ERR_ARG);
  assert_int_equal(s24_prune(P24, NULL, 1, 8, out), S24_ERR_ARG);
  assert_int_equal(s24_prune(P24, a, 1, 6, out), S24_ERR_ARG);  // K % m
  assert_int_equal(s24_prune(P24, a, 0, 8, out), S24_ERR_ARG);
  assert_int_equal(s24_prune(P24, a, SIZE_MAX / 4, 8, out), S24_ERR_NOMEM);
  assert_int_equal(s24_check_pattern(P24, a, 1, 0, &w), S24_ERR_ARG);
  assert_int_equal(s24_compress(P24, a, 1, 8, NULL, md, &w), S24_ERR_ARG);
  assert_int_equal(s24_meta_validate(P24, NULL, 1, 8, &w), S24_ERR_ARG);
  assert_int_equal(s24_decompress(P24, v, md, 1, 8, NULL, &w), S24_ERR_ARG);
  assert_int_equal(s24_gemm_sparse(P24, v, md, 1, 8, NULL, 2, NULL, c, &w), S24_ERR_ARG);
  assert_int_equal(s24_gemm_sparse(P24, v, md, 1, 8, a, 0, NULL, c, &w), S24_ERR_ARG);
  assert_int_equal(s24_gemm_sparse(P24, v, md, 1, 7, a, 1, NULL, c, &w), S24_ERR_ARG);
  assert_int_equal(s24_gemm_dense_ref(a, 1, 8, a, 1, NULL, NULL), S24_ERR_ARG);
  assert_int_equal(s24_gemm_dense_ref(a, SIZE_MAX / 2, 8, a, 1, NULL, c), S24_ERR_NOMEM);
}

// Fused layer parameters (SPEC §7): the range checks name the first bad channel, or SIZE_MAX for
// a zero point or a clamp bound; s24_linear_ref refuses them and bad arguments; a tiny layer by
// hand, clamped to several ranges.
static void linear_params(void **state) {
  (void)state;
  int32_t mult[3] = {1 << 30, 0, 2147483647}, shift[3] = {-31, 0, 30};
  size_t bad = 7;
  assert_int_equal(s24_linear_params_ok(mult, shift, 3, -128, 127, -128, 127, &bad), 1);
  assert_int_equal(s24_linear_params_ok(mult, shift, 3, -129, 0, -128, 127, &bad), 0);
  assert_int_equal(bad, SIZE_MAX);
  assert_int_equal(s24_linear_params_ok(mult, shift, 3, 0, 128, -128, 127, NULL), 0);
  mult[1] = -1;
  assert_int_equal(s24_linear_params_ok(mult, shift, 3, 0, 0, -128, 127, &bad), 0);
  assert_int_equal(bad, 1);
  mult[1] = 0;
  shift[2] = 31;
  assert_int_equal(s24_linear_params_ok(mult, shift, 3, 0, 0, -128, 127, &bad), 0);
  assert_int_equal(bad, 2);
  shift[2] = -32;
  assert_int_equal(s24_linear_params_ok(mult, shift, 3, 0, 0, -128, 127, &bad), 0);
  shift[2] = 0;
  // the clamp bounds: int8, act_min <= act_max (equal allowed); a bad one is not a channel's
  assert_int_equal(s24_linear_params_ok(mult, shift, 3, 0, 0, 7, 7, &bad), 1);
  bad = 7;
  assert_int_equal(s24_linear_params_ok(mult, shift, 3, 0, 0, 8, 7, &bad), 0);
  assert_int_equal(bad, SIZE_MAX);
  assert_int_equal(s24_linear_params_ok(mult, shift, 3, 0, 0, -129, 0, NULL), 0);
  assert_int_equal(s24_linear_params_ok(mult, shift, 3, 0, 0, 0, 128, NULL), 0);
  // y = clamp(round(acc * 2^30 / 2^31) + zo): acc = (1 - 2)*3 + (2 - 2)*(-1) + bias 10 = 7 -> 3.5 -> 4
  const int8_t x[2] = {1, 2}, w[2] = {3, -1};
  const int32_t bias[1] = {10}, m1[1] = {1 << 30}, s1[1] = {0};
  int8_t y[1] = {0};
  assert_int_equal(s24_linear_ref(x, 1, w, 1, 2, bias, m1, s1, 2, 5, -128, 127,
                                  S24_ROUND_SINGLE, y), S24_OK);
  assert_int_equal(y[0], 4 + 5);
  // the same output 9 clamped: RELU6-like [5, 8], above [12, 20], a single value [-3, -3]
  assert_int_equal(s24_linear_ref(x, 1, w, 1, 2, bias, m1, s1, 2, 5, 5, 8,
                                  S24_ROUND_SINGLE, y), S24_OK);
  assert_int_equal(y[0], 8);
  assert_int_equal(s24_linear_ref(x, 1, w, 1, 2, bias, m1, s1, 2, 5, 12, 20,
                                  S24_ROUND_SINGLE, y), S24_OK);
  assert_int_equal(y[0], 12);
  assert_int_equal(s24_linear_ref(x, 1, w, 1, 2, bias, m1, s1, 2, 5, -3, -3,
                                  S24_ROUND_SINGLE, y), S24_OK);
  assert_int_equal(y[0], -3);
  assert_int_equal(s24_requant(7, 1 << 30, 0, 5, -128, 127, S24_ROUND_SINGLE), 9);
  assert_int_equal(s24_requant(7, 1 << 30, 0, 5, 9, 9, S24_ROUND_SINGLE), 9);
  assert_int_equal(s24_linear_ref(x, 1, w, 1, 2, bias, m1, s1, 2, 5, 1, 0,
                                  S24_ROUND_SINGLE, y), S24_ERR_ARG);
  assert_int_equal(s24_linear_ref(x, 1, w, 1, 2, bias, m1, s1, 2, 5, -128, 128,
                                  S24_ROUND_SINGLE, y), S24_ERR_ARG);
  assert_int_equal(s24_linear_ref(x, 1, w, 1, 2, bias, m1, s1, 200, 5, -128, 127,
                                  S24_ROUND_SINGLE, y), S24_ERR_ARG);
  assert_int_equal(s24_linear_ref(NULL, 1, w, 1, 2, bias, m1, s1, 2, 5, -128, 127,
                                  S24_ROUND_SINGLE, y), S24_ERR_ARG);
  assert_int_equal(s24_linear_ref(x, 0, w, 1, 2, bias, m1, s1, 2, 5, -128, 127,
                                  S24_ROUND_SINGLE, y), S24_ERR_ARG);
  // double rounding (gemmlowp): acc 1, MULT 2^30, SHIFT -1: the high multiply rounds 0.5 up to
  // 1, RoundingDivideByPOT(1, 1) rounds 0.5 away from zero to 1; single: floor(0.75) = 0
  assert_int_equal(s24_requant(1, 1 << 30, -1, 5, -128, 127, S24_ROUND_DOUBLE), 1 + 5);
  assert_int_equal(s24_requant(1, 1 << 30, -1, 5, -128, 127, S24_ROUND_SINGLE), 0 + 5);
  // SHIFT 1: acc * 2 = 2^31 wraps to -2^31 in int32 (as LiteRT's C++): -2^30, clamped to -128;
  // single: 2^30, clamped to 127
  assert_int_equal(s24_requant(1 << 30, 1 << 30, 1, 0, -128, 127, S24_ROUND_DOUBLE), -128);
  assert_int_equal(s24_requant(1 << 30, 1 << 30, 1, 0, -128, 127, S24_ROUND_SINGLE), 127);
  // SHIFT 0: both the same; SHIFT -2, acc -5, MULT 2^30: p = -5 * 2^30 < -2^30, the high
  // multiply floor(-2) = -2, RoundingDivideByPOT(-2, 2) = round(-0.5) away from zero = -1;
  // single: floor((-5 * 2^30 + 2^32) / 2^33) = -1 as well, and acc -6: -3 -> -1 (-0.75)
  assert_int_equal(s24_requant(3, 1 << 30, 0, 0, -128, 127, S24_ROUND_DOUBLE), 2);
  assert_int_equal(s24_requant(-5, 1 << 30, -2, 0, -128, 127, S24_ROUND_DOUBLE), -1);
  assert_int_equal(s24_requant(-6, 1 << 30, -2, 0, -128, 127, S24_ROUND_DOUBLE), -1);
  assert_int_equal(s24_requant(-6, 1 << 30, -2, 0, -128, 127, S24_ROUND_SINGLE), -1);
  // the layer above with double rounding (acc 7 -> 3.5 -> 4 both ways), a bad mode refused
  assert_int_equal(s24_linear_ref(x, 1, w, 1, 2, bias, m1, s1, 2, 5, -128, 127, S24_ROUND_DOUBLE,
                                  y), S24_OK);
  assert_int_equal(y[0], 4 + 5);
  assert_int_equal(s24_linear_ref(x, 1, w, 1, 2, bias, m1, s1, 2, 5, -128, 127, (s24_round_t)2,
                                  y), S24_ERR_ARG);
  // the folded bias: bias - ZI * sum(W), modulo 2^32
  assert_int_equal(s24_linear_fold_bias(w, 2, 10, 2), (uint32_t)(10 - 2 * 2));
  assert_int_equal(s24_linear_fold_bias(w, 2, INT32_MIN, -128), (uint32_t)INT32_MIN + 256u);
}

// The numbers printed in docs/architecture.md §3.
static void core_cycle_formula(void **state) {
  (void)state;
  s24_cycles_t cy;
  assert_int_equal(s24_core_cycles(2, 2, 3, 1, &cy), S24_OK);  // "one tile": 20 busy cycles
  assert_int_equal(cy.busy_cycles, 20);
  assert_int_equal(s24_core_cycles(2, 2, 3, 2, &cy), S24_OK);  // back to back: 23
  assert_int_equal(cy.busy_cycles, 23);
  assert_int_equal(cy.period, 3);
  const uint32_t dims[3] = {2, 4, 8};
  const uint64_t want[3] = {1041, 1045, 1053};  // 16 tiles of 64 beats
  for (int i = 0; i < 3; i++) {
    assert_int_equal(s24_core_cycles(dims[i], dims[i], 64, 16, &cy), S24_OK);
    assert_int_equal(cy.busy_cycles, want[i]);
    assert_int_equal(cy.mac_beats, 1024);
  }
  assert_int_equal(s24_core_cycles(8, 4, 1, 3, &cy), S24_OK);  // P = max(G, R, C) = 8
  assert_int_equal(cy.period, 8);
  assert_int_equal(cy.busy_cycles, 2 * 8 + 1 + 8 + 4 + 13);
  assert_int_equal(s24_core_cycles(0, 2, 3, 1, &cy), S24_ERR_ARG);
  assert_int_equal(s24_core_cycles(2, 2, 3, 0, &cy), S24_ERR_ARG);
  assert_int_equal(s24_core_cycles(2, 2, UINT64_MAX / 2, 4, &cy), S24_ERR_NOMEM);
}

// The int8 result beats (cmodel/s24_layout.h, docs/architecture.md §4) of a 5 x 3 tile in beats
// of 3 words: four tile rows per beat, row-major bytes, words little-endian (written out).
static void int8_result_beat(void **state) {
  (void)state;
  assert_int_equal(s24_r8_beats(1), 1);
  assert_int_equal(s24_r8_beats(4), 1);
  assert_int_equal(s24_r8_beats(5), 2);
  assert_int_equal(s24_r8_beats(8), 2);
  uint32_t buf[6];
  memset(buf, 0, sizeof buf);
  for (uint32_t r = 0; r < 5; r++) {
    for (uint32_t c = 0; c < 3; c++) s24_r8_put(buf, 3, 3, r, c, (int8_t)(10 * r + c + 1));
  }
  s24_r8_put(buf, 3, 3, 4, 2, -2);  // a negative value is its two's complement byte
  // beat 0: rows 0..3 = bytes 1 2 3 11 12 13 21 22 23 31 32 33; beat 1: row 4 = 41 42 0xFE
  static const uint32_t want[6] = {0x0B030201u, 0x16150D0Cu, 0x21201F17u,
                                   0x00FE2A29u, 0x00000000u, 0x00000000u};
  assert_memory_equal(buf, want, sizeof want);
  assert_int_equal(s24_r8_get(buf, 3, 3, 4, 2), -2);
  assert_int_equal(s24_r8_get(buf, 3, 3, 3, 1), 32);
  assert_int_equal(s24_r8_get(buf, 3, 3, 0, 0), 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(spec_example_24),     cmocka_unit_test(spec_example_14),
      cmocka_unit_test(spec_example_28),     cmocka_unit_test(padding_24),
      cmocka_unit_test(padding_other_patterns), cmocka_unit_test(prune_rule),
      cmocka_unit_test(check_pattern_where), cmocka_unit_test(meta_invalid),
      cmocka_unit_test(gemm_small_with_c0),  cmocka_unit_test(gemm_wraparound),
      cmocka_unit_test(pattern_api),         cmocka_unit_test(argument_guards),
      cmocka_unit_test(core_cycle_formula), cmocka_unit_test(linear_params),
      cmocka_unit_test(int8_result_beat),
  };
  return S24_RUN_TESTS("model", tests, NULL, NULL);
}
