// SPDX-License-Identifier: Apache-2.0
// QUANTIZE FLOAT32 -> int8 by prep's threshold table (runtime/s24_ops.c: prep_quant_table and
// quant_lookup, which run_quantize calls for every element; and the quantize unit's search of the
// same table, s24_quant_elem, within its domain) against the reference expression it
// replaces (quant_one: TfLiteRound(x / scale) + zero point, x86-64's conversion, clamped), on
// scales from the least subnormal to FLT_MAX and zero points -128, 0, 127. Every float near every
// threshold (+-300 keys), the specials (NaN, infinities, +-0, subnormals, FLT_MAX) and a stride
// through all 2^32 bit patterns; `--all` visits every bit pattern (make test-quant-table-all).
// The file includes s24_ops.c to reach the static functions.
//
// usage: test_quant_table [--all]
#include "../../runtime/s24_ops.c"

#include <float.h>
#include <stdio.h>

static unsigned long long checked, failed;

// The host's lookup and, within the table's domain, the quantize unit's search (s24_quant_elem,
// the SoC's QuantIn) against the reference
static void check_bits(const quant_t *p, uint32_t bits, float s, int32_t zo) {
  float x;
  memcpy(&x, &bits, 4);
  const int8_t want = quant_one(x, s, zo), got = quant_lookup(p, bits, s, zo);
  const int8_t unit = (bits & 0x7FFFFFFFu) < p->dom ? s24_quant_elem(p->thr, bits) : want;
  checked++;
  if ((got != want || unit != want) && failed++ < 10)
    printf("FAIL scale %a zero point %d: input %a (bits 0x%08x): table %d, unit's search %d, "
           "reference %d\n", (double)s, (int)zo, (double)x, (unsigned)bits, got, unit, want);
}

int main(int argc, char **argv) {
  const int all = argc > 1 && strcmp(argv[1], "--all") == 0;
  static uint8_t mem[4096];
  const float scales[] = {0x1p-149f, 0x1p-126f, 0x1p-30f,    1.0f / 255.0f, 0.0039215689f, 0.1f,
                          1.0f,      3.0e5f,    0x1.fffffep103f, 0x1p104f, 0x1p110f,     FLT_MAX};
  const int32_t zps[] = {-128, 0, 127};
  for (size_t si = 0; si < sizeof scales / sizeof scales[0]; ++si)
    for (size_t zi = 0; zi < sizeof zps / sizeof zps[0]; ++zi) {
      const float s = scales[si];
      const int32_t zo = zps[zi];
      s24_arena_t arena;
      s24_arena_init(&arena, mem, sizeof mem);
      const ctx_t c = {.arena = &arena};
      quant_t q = {0};
      if (prep_quant_table(&c, &q, s, zo) != S24_OK) {
        printf("FAIL scale %a: no table\n", (double)s);
        return 1;
      }
      for (int j = 1; j < 255; ++j)
        if (q.thr[j] < q.thr[j - 1]) {
          printf("FAIL scale %a zero point %d: thresholds not sorted at %d\n", (double)s, (int)zo, j);
          return 1;
        }
      for (int j = 0; j < 255; ++j)
        for (int32_t d = -300; d <= 300; ++d)
          check_bits(&q, (uint32_t)s24_quant_key((uint32_t)(q.thr[j] + d)), s, zo);
      const float special[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, FLT_MIN, -FLT_MIN,
                               0x1p-149f, -0x1p-149f, FLT_MAX, -FLT_MAX, 3e9f, -3e9f};
      for (size_t k = 0; k < sizeof special / sizeof special[0]; ++k) {
        uint32_t b;
        memcpy(&b, &special[k], 4);
        check_bits(&q, b, s, zo);
      }
      const uint64_t step = all ? 1 : 65521;  // a prime stride: every exponent, many mantissas
      for (uint64_t b = 0; b <= UINT32_MAX; b += step) check_bits(&q, (uint32_t)b, s, zo);
    }
  printf("test_quant_table: %llu inputs on %zu scales x %zu zero points%s, %llu failed\n", checked,
         sizeof scales / sizeof scales[0], sizeof zps / sizeof zps[0], all ? " (every bit pattern)" : "",
         failed);
  return failed != 0;
}
