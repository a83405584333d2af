// SPDX-License-Identifier: Apache-2.0
// sparse24 host driver, hosted part (s24_drv_host.h): malloc around the freestanding driver.
#include "s24_drv_host.h"

#include <stdlib.h>
#include <string.h>

static size_t round16(size_t v) { return (v + 15) / 16 * 16; }

void *s24_scratch_get(s24_scratch_t *s, size_t bytes) {
  if (s == NULL || bytes == 0 || bytes > SIZE_MAX - 16) return NULL;
  if (bytes <= s->len) return s->buf;
  void *b = aligned_alloc(16, round16(bytes));
  if (b == NULL) return NULL;
  free(s->buf);
  s->buf = b;
  s->len = round16(bytes);
  return b;
}

void s24_scratch_free(s24_scratch_t *s) {
  if (s == NULL) return;
  free(s->buf);
  *s = (s24_scratch_t){NULL, 0};
}

void s24_weights_free(s24_weights_t *w) {
  if (w == NULL) return;
  free(w->own);
  memset(w, 0, sizeof(*w));
}

s24_status_t s24_weights_load_dense(const s24_dev_t *dev, const int8_t *a, size_t m_rows,
                                    size_t k, s24_weights_t *w) {
  if (w == NULL) return S24_ERR_ARG;
  memset(w, 0, sizeof(*w));
  size_t bytes = 0;
  s24_status_t st = s24_weights_bytes(dev, a, m_rows, k, &bytes);
  if (st != S24_OK) return st;
  // A is copied behind the beats: pair-mode weights keep it (s24_weights_t.dense)
  if (m_rows > SIZE_MAX / k || round16(m_rows * k) > SIZE_MAX - bytes) return S24_ERR_NOMEM;
  uint8_t *mem = aligned_alloc(16, bytes + round16(m_rows * k));
  if (mem == NULL) return S24_ERR_NOMEM;
  int8_t *copy = (int8_t *)(mem + bytes);
  memcpy(copy, a, m_rows * k);
  st = s24_weights_pack(dev, copy, m_rows, k, mem, bytes, w);
  if (st != S24_OK) {
    free(mem);
    memset(w, 0, sizeof(*w));
    return st;
  }
  w->own = mem;
  return S24_OK;
}

s24_status_t s24_weights_load(const s24_dev_t *dev, s24_pattern_t p, const int8_t *values,
                              const uint8_t *meta, size_t m_rows, size_t k, s24_weights_t *w,
                              s24_where_t *where) {
  if (dev == NULL || values == NULL || meta == NULL || w == NULL || m_rows == 0 || k == 0 ||
      !s24_pattern_ok(p) || k % p.m != 0) {
    return S24_ERR_ARG;
  }
  s24_where_t dummy;
  if (where == NULL) where = &dummy;
  s24_status_t st = s24_meta_validate(p, meta, m_rows, k, where);
  if (st != S24_OK) return st;  // invalid metadata never reaches the hardware
  if (m_rows > SIZE_MAX / k) return S24_ERR_NOMEM;
  int8_t *dense = malloc(m_rows * k);
  if (dense == NULL) return S24_ERR_NOMEM;
  st = s24_decompress(p, values, meta, m_rows, k, dense, where);
  if (st == S24_OK) st = s24_weights_load_dense(dev, dense, m_rows, k, w);
  free(dense);
  return st;
}

s24_status_t s24_gemm_compressed(s24_dev_t *dev, s24_pattern_t p, const int8_t *values,
                                 const uint8_t *meta, size_t m_rows, size_t k, const int8_t *b,
                                 size_t n_cols, const int32_t *c0, int32_t *c,
                                 s24_where_t *where) {
  if (b == NULL || c == NULL || n_cols == 0) return S24_ERR_ARG;
  s24_weights_t w;
  s24_status_t st = s24_weights_load(dev, p, values, meta, m_rows, k, &w, where);
  if (st != S24_OK) return st;
  st = s24_gemm(dev, &w, b, n_cols, c0, c);
  s24_weights_free(&w);
  return st;
}

s24_status_t s24_gemm_dense(s24_dev_t *dev, const int8_t *a, size_t m_rows, size_t k,
                            const int8_t *b, size_t n_cols, const int32_t *c0, int32_t *c) {
  if (b == NULL || c == NULL || n_cols == 0) return S24_ERR_ARG;
  s24_weights_t w;
  s24_status_t st = s24_weights_load_dense(dev, a, m_rows, k, &w);
  if (st != S24_OK) return st;
  st = s24_gemm(dev, &w, b, n_cols, c0, c);
  s24_weights_free(&w);
  return st;
}
