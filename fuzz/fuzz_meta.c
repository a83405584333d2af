// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness of the compressed-operand path: metadata validator, decompress, sparse GEMM
// and the compressed cycle model (cmodel/), i.e. what `sparse24 decompress/gemm --values
// --meta` run after loading V.npy and MD.npy (tools/main.c load_compressed).
//
// Input: byte 0 pattern, 1 rows, 2 groups along K, 3 B columns, 4 array shape; then metadata,
// values and B bytes (zero when the input runs out). Oracles beyond ASan/UBSan:
//  - s24_meta_validate agrees with an independent reference validator here (status and where);
//  - valid metadata: decompress gives an N:M-valid matrix whose canonical compression
//    decompresses to the same matrix; s24_gemm_sparse equals s24_gemm_dense_ref on it;
//    s24_gemm_cycles_compressed equals s24_gemm_cycles_dense;
//  - invalid metadata: decompress, gemm_sparse and cycles_compressed all refuse with
//    S24_ERR_META and write nothing (invalid metadata never reaches a multiply).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "s24_cycles.h"
#include "s24_model.h"

static const s24_pattern_t kPatterns[] = {
    {1, 4}, {2, 4}, {3, 4}, {1, 8}, {2, 8}, {3, 8}, {4, 8}, {5, 8}, {6, 8}, {7, 8}, {1, 2},
};
#define NPAT (sizeof kPatterns / sizeof kPatterns[0])

typedef struct {
  const uint8_t *d;
  size_t n, pos;
} src_t;

static uint8_t next(src_t *s) { return s->pos < s->n ? s->d[s->pos++] : 0; }

// Reference: bit `b` of the row is bit b%8 of byte b/8 (LSB-first), indices log2(m) bits each.
static uint32_t ref_get(const uint8_t *row, uint32_t bits, size_t slot) {
  uint32_t v = 0;
  for (uint32_t i = 0; i < bits; i++) {
    size_t b = slot * bits + i;
    v |= (uint32_t)((row[b / 8] >> (b % 8)) & 1u) << i;
  }
  return v;
}

static s24_status_t ref_validate(s24_pattern_t p, const uint8_t *meta, size_t rows, size_t k,
                                 s24_where_t *w) {
  uint32_t bits = p.m == 2 ? 1 : p.m == 4 ? 2 : 3;
  size_t groups = k / p.m, used = groups * p.n * bits, mcols = (used + 7) / 8;
  for (size_t r = 0; r < rows; r++) {
    const uint8_t *row = meta + r * mcols;
    for (size_t g = 0; g < groups; g++) {
      for (uint32_t s = 0; s < p.n; s++) {
        uint32_t idx = ref_get(row, bits, g * p.n + s);
        if (idx >= p.m || (s > 0 && idx <= ref_get(row, bits, g * p.n + s - 1))) {
          *w = (s24_where_t){r, g, s};
          return S24_ERR_META;
        }
      }
    }
    for (size_t b = used; b < mcols * 8; b++) {
      if ((row[b / 8] >> (b % 8)) & 1u) {
        *w = (s24_where_t){r, groups - 1, S24_WHERE_PADDING};
        return S24_ERR_META;
      }
    }
  }
  return S24_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  src_t s = {data, size, 0};
  const s24_pattern_t p = kPatterns[next(&s) % NPAT];
  const size_t rows = 1 + next(&s) % 8;
  const size_t k = (1 + next(&s) % 12) * p.m;
  const size_t ncols = 1 + next(&s) % 4;
  const uint8_t shape = next(&s);
  const size_t vcols = s24_values_cols(p, k), mcols = s24_meta_cols(p, k);

  uint8_t *meta = malloc(rows * mcols);
  int8_t *val = malloc(rows * vcols);
  int8_t *b = malloc(k * ncols);
  int8_t *dense = malloc(rows * k), *dense2 = malloc(rows * k);
  int8_t *val2 = malloc(rows * vcols);
  uint8_t *meta2 = malloc(rows * mcols);
  int32_t *c = malloc(rows * ncols * sizeof *c), *cref = malloc(rows * ncols * sizeof *c);
  if (!meta || !val || !b || !dense || !dense2 || !val2 || !meta2 || !c || !cref) abort();
  for (size_t i = 0; i < rows * mcols; i++) meta[i] = next(&s);
  for (size_t i = 0; i < rows * vcols; i++) val[i] = (int8_t)next(&s);
  for (size_t i = 0; i < k * ncols; i++) b[i] = (int8_t)next(&s);

  s24_where_t w = {0}, wr = {0};
  s24_status_t st = s24_meta_validate(p, meta, rows, k, &w);
  s24_status_t rst = ref_validate(p, meta, rows, k, &wr);
  if (st != rst) abort();
  if (st == S24_ERR_META && (w.row != wr.row || w.group != wr.group || w.count != wr.count)) {
    abort();
  }

  s24_array_t hw = {1u + (shape & 3u), 1u + ((shape >> 2) & 3u), p.n, p.m, 0, 0};
  s24_gemm_cycles_t cy1, cy2;
  s24_where_t w2 = {0};
  memset(dense, 0x5a, rows * k);
  memset(c, 0x5a, rows * ncols * sizeof *c);
  s24_status_t dst = s24_decompress(p, val, meta, rows, k, dense, &w2);
  s24_status_t gst = s24_gemm_sparse(p, val, meta, rows, k, b, ncols, NULL, c, &w2);
  s24_status_t yst = s24_gemm_cycles_compressed(hw, p, val, meta, rows, k, ncols, dense2, &cy1, &w2);
  if (st != S24_OK) {
    if (dst != S24_ERR_META || gst != S24_ERR_META || yst != S24_ERR_META) abort();
    for (size_t i = 0; i < rows * k; i++) if ((uint8_t)dense[i] != 0x5a) abort();
    for (size_t i = 0; i < rows * ncols * sizeof *c; i++) if (((uint8_t *)c)[i] != 0x5a) abort();
  } else {
    if (dst != S24_OK || gst != S24_OK) abort();
    if (s24_check_pattern(p, dense, rows, k, &w2) != S24_OK) abort();
    if (s24_compress(p, dense, rows, k, val2, meta2, &w2) != S24_OK) abort();
    if (s24_meta_validate(p, meta2, rows, k, &w2) != S24_OK) abort();
    if (s24_decompress(p, val2, meta2, rows, k, dense2, &w2) != S24_OK) abort();
    if (memcmp(dense, dense2, rows * k) != 0) abort();
    if (s24_gemm_dense_ref(dense, rows, k, b, ncols, NULL, cref) != S24_OK) abort();
    if (memcmp(c, cref, rows * ncols * sizeof *c) != 0) abort();
    s24_status_t zst = s24_gemm_cycles_dense(hw, dense, rows, k, ncols, &cy2);
    if (yst != zst) abort();
    if (yst == S24_OK && memcmp(&cy1, &cy2, sizeof cy1) != 0) abort();
  }
  free(meta); free(val); free(b); free(dense); free(dense2); free(val2); free(meta2);
  free(c); free(cref);
  return 0;
}
