// SPDX-License-Identifier: Apache-2.0
// sparse24 golden model: the sparse GEMM (as the hardware computes it) and a dense reference.
//
// Sums wrap modulo 2^32: accumulation is done on uint32_t (defined wraparound, no UB) and the
// int32 result is read back through the same object (signed/unsigned aliasing is allowed).
#include "s24_model.h"

#include <string.h>

// Groups of K handled per pass over the rows: keeps the B rows of one pass in cache.
#define S24_GEMM_BLOCK_BYTES (192u * 1024u)

// c[j] += w * b[j] for one B row; the product fits in int16 (|w*b| <= 16384).
// Written as fixed 16-wide chunks plus a tail so that -O2 vectorises it without extra flags.
static void axpy_row(uint32_t *restrict c, int32_t w, const int8_t *restrict b, size_t n) {
  size_t j = 0;
  for (; j + 16 <= n; j += 16) {
    for (size_t u = 0; u < 16; u++) {
      c[j + u] += (uint32_t)(int32_t)(int16_t)(w * (int32_t)b[j + u]);
    }
  }
  for (; j < n; j++) {
    c[j] += (uint32_t)(int32_t)(int16_t)(w * (int32_t)b[j]);
  }
}

// Plain conversion of a value taken modulo 2^32 to int32, without implementation-defined casts.
static int32_t wrap_to_i32(uint64_t v) {
  uint32_t u = (uint32_t)v;
  return u <= (uint32_t)INT32_MAX ? (int32_t)u : (int32_t)(u - 0x80000000u) + INT32_MIN;
}

s24_status_t s24_gemm_sparse(s24_pattern_t p, const int8_t *values, const uint8_t *meta,
                             size_t m_rows, size_t k, const int8_t *b, size_t n_cols,
                             const int32_t *c0, int32_t *c, s24_where_t *where) {
  if (!s24_pattern_ok(p) || values == NULL || meta == NULL || b == NULL || c == NULL) {
    return S24_ERR_ARG;
  }
  if (m_rows == 0 || k == 0 || n_cols == 0 || k % p.m != 0) return S24_ERR_ARG;
  const size_t vcols = s24_values_cols(p, k);
  const size_t mcols = s24_meta_cols(p, k);
  if (m_rows > SIZE_MAX / n_cols / sizeof(int32_t) || k > SIZE_MAX / n_cols ||
      m_rows > SIZE_MAX / vcols || m_rows > SIZE_MAX / mcols) {
    return S24_ERR_NOMEM;
  }
  s24_status_t st = s24_meta_validate(p, meta, m_rows, k, where);
  if (st != S24_OK) return st;

  const size_t total = m_rows * n_cols;
  if (c0 == NULL) {
    memset(c, 0, total * sizeof(int32_t));
  } else if (c0 != c) {
    memmove(c, c0, total * sizeof(int32_t));
  }
  uint32_t *cu = (uint32_t *)c;

  const size_t groups = k / p.m;
  size_t block = S24_GEMM_BLOCK_BYTES / ((size_t)p.m * n_cols);
  if (block == 0) block = 1;
  for (size_t g0 = 0; g0 < groups; g0 += block) {
    const size_t g1 = groups - g0 < block ? groups : g0 + block;
    for (size_t i = 0; i < m_rows; i++) {
      const int8_t *vrow = values + i * vcols;
      const uint8_t *mrow = meta + i * mcols;
      uint32_t *crow = cu + i * n_cols;
      for (size_t g = g0; g < g1; g++) {
        for (uint32_t s = 0; s < p.n; s++) {
          const size_t slot = g * p.n + s;
          // The kept value's metadata index selects the activation row it multiplies.
          const size_t krow = g * p.m + s24_meta_get(p, mrow, slot);
          axpy_row(crow, vrow[slot], b + krow * n_cols, n_cols);
        }
      }
    }
  }
  return S24_OK;
}

s24_status_t s24_gemm_dense_ref(const int8_t *a, size_t m_rows, size_t k, const int8_t *b,
                                size_t n_cols, const int32_t *c0, int32_t *c) {
  if (a == NULL || b == NULL || c == NULL || m_rows == 0 || k == 0 || n_cols == 0) {
    return S24_ERR_ARG;
  }
  if (m_rows > SIZE_MAX / k || k > SIZE_MAX / n_cols ||
      m_rows > SIZE_MAX / n_cols / sizeof(int32_t)) {
    return S24_ERR_NOMEM;
  }
  // Straight triple loop with an exact 64-bit sum per output, reduced modulo 2^32 at the end.
  for (size_t i = 0; i < m_rows; i++) {
    for (size_t j = 0; j < n_cols; j++) {
      int64_t acc = c0 != NULL ? (int64_t)c0[i * n_cols + j] : 0;
      for (size_t kk = 0; kk < k; kk++) {
        acc += (int64_t)a[i * k + kk] * (int64_t)b[kk * n_cols + j];
      }
      c[i * n_cols + j] = wrap_to_i32((uint64_t)acc);
    }
  }
  return S24_OK;
}
