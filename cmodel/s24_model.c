// SPDX-License-Identifier: Apache-2.0
// sparse24 golden model: patterns, metadata packing, prune, pattern check, compress, decompress.
//
// One code path serves every N:M pattern: a group is handled through a bit mask of at most
// 8 positions, so 1:4, 2:4, 2:8, 4:8 ... differ only in the numbers n and m.
#include "s24_model.h"

#include <stdarg.h>
#include <stdio.h>  // vsnprintf only: no FILE
#include <string.h>

s24_status_t s24_errorf(s24_status_t st, char *err, size_t errlen, const char *fmt, ...) {
  if (err != NULL && errlen > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return st;
}

const char *s24_strerror(s24_status_t status) {
  switch (status) {
    case S24_OK: return "ok";
    case S24_ERR_ARG: return "bad argument";
    case S24_ERR_PATTERN: return "matrix violates the N:M pattern";
    case S24_ERR_META: return "invalid metadata";
    case S24_ERR_IO: return "I/O error";
    case S24_ERR_FORMAT: return "malformed file";
    case S24_ERR_NOMEM: return "out of memory or size overflow";
    case S24_ERR_TIMEOUT: return "hardware timeout";
    case S24_ERR_HW: return "hardware error";
    case S24_ERR_UNSUPPORTED: return "not supported by this build or backend";
    default: return "unknown status";
  }
}

const char *s24_status_name(s24_status_t status) {
  switch (status) {
    case S24_OK: return "S24_OK";
    case S24_ERR_ARG: return "S24_ERR_ARG";
    case S24_ERR_PATTERN: return "S24_ERR_PATTERN";
    case S24_ERR_META: return "S24_ERR_META";
    case S24_ERR_IO: return "S24_ERR_IO";
    case S24_ERR_FORMAT: return "S24_ERR_FORMAT";
    case S24_ERR_NOMEM: return "S24_ERR_NOMEM";
    case S24_ERR_TIMEOUT: return "S24_ERR_TIMEOUT";
    case S24_ERR_HW: return "S24_ERR_HW";
    case S24_ERR_UNSUPPORTED: return "S24_ERR_UNSUPPORTED";
    default: return NULL;
  }
}

// Software patterns: m in {4, 8}, 1 <= n < m. Hardware configurations additionally use
// m == 2 and the dense n == m (4:4, 8:8, 2:2), whose metadata is fully determined.
int s24_pattern_ok(s24_pattern_t p) {
  if (p.m != 2 && p.m != 4 && p.m != 8) return 0;
  return p.n >= 1 && p.n <= p.m;
}

s24_status_t s24_pattern_parse(const char *text, s24_pattern_t *p) {
  if (text == NULL || p == NULL) return S24_ERR_ARG;
  // Exactly <digits>:<digits>, each at most two digits, no signs or spaces.
  uint32_t v[2] = {0, 0};
  const char *s = text;
  for (int part = 0; part < 2; part++) {
    int digits = 0;
    while (*s >= '0' && *s <= '9') {
      if (++digits > 2) return S24_ERR_ARG;
      v[part] = v[part] * 10u + (uint32_t)(*s - '0');
      s++;
    }
    if (digits == 0) return S24_ERR_ARG;
    if (part == 0) {
      if (*s != ':') return S24_ERR_ARG;
      s++;
    }
  }
  if (*s != '\0') return S24_ERR_ARG;
  s24_pattern_t q = {v[0], v[1]};
  if (!s24_pattern_ok(q)) return S24_ERR_ARG;
  *p = q;
  return S24_OK;
}

uint32_t s24_idx_bits(s24_pattern_t p) {
  switch (p.m) {
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    default: return 0;
  }
}

size_t s24_values_cols(s24_pattern_t p, size_t k) {
  if (!s24_pattern_ok(p)) return 0;
  return (k / p.m) * p.n;
}

size_t s24_meta_cols(s24_pattern_t p, size_t k) {
  if (!s24_pattern_ok(p)) return 0;
  size_t slots = (k / p.m) * p.n;
  // slots * bits / 8 rounded up, without overflowing slots * bits.
  size_t bits = s24_idx_bits(p);
  return (slots / 8) * bits + ((slots % 8) * bits + 7) / 8;
}

uint32_t s24_meta_get(s24_pattern_t p, const uint8_t *meta_row, size_t slot) {
  uint32_t bits = s24_idx_bits(p);
  if (meta_row == NULL || bits == 0) return 0;
  size_t pos = slot * bits;
  size_t byte = pos / 8;
  uint32_t shift = (uint32_t)(pos % 8);
  uint32_t word = meta_row[byte];
  // Only touch the next byte when this index actually continues into it.
  if (shift + bits > 8) word |= (uint32_t)meta_row[byte + 1] << 8;
  return (word >> shift) & ((1u << bits) - 1u);
}

// Writes index `idx` into slot `slot` of a zero-initialised metadata row.
static void meta_put(uint32_t bits, uint8_t *meta_row, size_t slot, uint32_t idx) {
  size_t pos = slot * bits;
  size_t byte = pos / 8;
  uint32_t shift = (uint32_t)(pos % 8);
  uint32_t word = idx << shift;
  meta_row[byte] |= (uint8_t)(word & 0xFFu);
  if (shift + bits > 8) meta_row[byte + 1] |= (uint8_t)(word >> 8);
}

// Common argument guard for the dense-matrix functions: pattern, sizes, K % m, overflow.
static s24_status_t check_dense_args(s24_pattern_t p, const void *a, size_t rows, size_t k) {
  if (!s24_pattern_ok(p) || a == NULL || rows == 0 || k == 0) return S24_ERR_ARG;
  if (k % p.m != 0) return S24_ERR_ARG;
  if (rows > SIZE_MAX / k) return S24_ERR_NOMEM;
  return S24_OK;
}

static uint32_t magnitude(int8_t v) { return v < 0 ? (uint32_t)(-(int32_t)v) : (uint32_t)v; }

static uint32_t popcount8(uint32_t x) {
  uint32_t c = 0;
  for (; x != 0; x &= x - 1) c++;
  return c;
}

// Mask of the nonzero positions of one group.
static uint32_t nonzero_mask(const int8_t *g, uint32_t m) {
  uint32_t mask = 0;
  for (uint32_t i = 0; i < m; i++) {
    if (g[i] != 0) mask |= 1u << i;
  }
  return mask;
}

s24_status_t s24_prune(s24_pattern_t p, const int8_t *a, size_t rows, size_t k, int8_t *out) {
  s24_status_t st = check_dense_args(p, a, rows, k);
  if (st != S24_OK) return st;
  if (out == NULL) return S24_ERR_ARG;
  const size_t total = rows * k;
  for (size_t base = 0; base < total; base += p.m) {
    int8_t g[8];
    memcpy(g, a + base, p.m);  // out may alias a
    for (uint32_t i = 0; i < p.m; i++) {
      // rank = how many elements beat element i (larger magnitude, or equal and lower index)
      uint32_t rank = 0;
      uint32_t mi = magnitude(g[i]);
      for (uint32_t j = 0; j < p.m; j++) {
        uint32_t mj = magnitude(g[j]);
        if (mj > mi || (mj == mi && j < i)) rank++;
      }
      out[base + i] = rank < p.n ? g[i] : 0;
    }
  }
  return S24_OK;
}

s24_status_t s24_check_pattern(s24_pattern_t p, const int8_t *a, size_t rows, size_t k,
                               s24_where_t *where) {
  s24_status_t st = check_dense_args(p, a, rows, k);
  if (st != S24_OK) return st;
  const size_t groups = k / p.m;
  for (size_t r = 0; r < rows; r++) {
    const int8_t *row = a + r * k;
    for (size_t g = 0; g < groups; g++) {
      uint32_t count = popcount8(nonzero_mask(row + g * p.m, p.m));
      if (count > p.n) {
        if (where != NULL) {
          where->row = r;
          where->group = g;
          where->count = count;
        }
        return S24_ERR_PATTERN;
      }
    }
  }
  return S24_OK;
}

// The n positions stored for one group: its nonzeros, padded with the highest unused indices.
static uint32_t canonical_mask(uint32_t nz, s24_pattern_t p) {
  uint32_t mask = nz;
  uint32_t count = popcount8(mask);
  for (uint32_t i = p.m; i-- > 0 && count < p.n;) {
    if ((mask & (1u << i)) == 0) {
      mask |= 1u << i;
      count++;
    }
  }
  return mask;
}

s24_status_t s24_compress(s24_pattern_t p, const int8_t *a, size_t rows, size_t k,
                          int8_t *values, uint8_t *meta, s24_where_t *where) {
  s24_status_t st = check_dense_args(p, a, rows, k);
  if (st != S24_OK) return st;
  if (values == NULL || meta == NULL) return S24_ERR_ARG;
  st = s24_check_pattern(p, a, rows, k, where);
  if (st != S24_OK) return st;
  const size_t groups = k / p.m;
  const size_t vcols = s24_values_cols(p, k);
  const size_t mcols = s24_meta_cols(p, k);
  const uint32_t bits = s24_idx_bits(p);
  for (size_t r = 0; r < rows; r++) {
    const int8_t *row = a + r * k;
    int8_t *vrow = values + r * vcols;
    uint8_t *mrow = meta + r * mcols;
    memset(mrow, 0, mcols);
    size_t slot = 0;
    for (size_t g = 0; g < groups; g++) {
      const int8_t *grp = row + g * p.m;
      uint32_t mask = canonical_mask(nonzero_mask(grp, p.m), p);
      for (uint32_t i = 0; i < p.m; i++) {
        if ((mask & (1u << i)) == 0) continue;
        vrow[slot] = grp[i];
        meta_put(bits, mrow, slot, i);
        slot++;
      }
    }
  }
  return S24_OK;
}

s24_status_t s24_meta_validate(s24_pattern_t p, const uint8_t *meta, size_t rows, size_t k,
                               s24_where_t *where) {
  if (!s24_pattern_ok(p) || meta == NULL || rows == 0 || k == 0 || k % p.m != 0) {
    return S24_ERR_ARG;
  }
  const size_t groups = k / p.m;
  const size_t mcols = s24_meta_cols(p, k);
  if (rows > SIZE_MAX / mcols) return S24_ERR_NOMEM;
  const uint32_t bits = s24_idx_bits(p);
  const size_t used_bits = groups * p.n * bits;  // < 8 * mcols, cannot overflow
  for (size_t r = 0; r < rows; r++) {
    const uint8_t *mrow = meta + r * mcols;
    for (size_t g = 0; g < groups; g++) {
      uint32_t prev = 0;
      for (uint32_t s = 0; s < p.n; s++) {
        uint32_t idx = s24_meta_get(p, mrow, g * p.n + s);
        if (idx >= p.m || (s > 0 && idx <= prev)) {
          if (where != NULL) {
            where->row = r;
            where->group = g;
            where->count = s;
          }
          return S24_ERR_META;
        }
        prev = idx;
      }
    }
    // Bits after the last index of the row must be zero.
    if (used_bits % 8 != 0) {
      uint32_t tail = (uint32_t)mrow[used_bits / 8] >> (used_bits % 8);
      if (tail != 0) {
        if (where != NULL) {
          where->row = r;
          where->group = groups - 1;
          where->count = S24_WHERE_PADDING;
        }
        return S24_ERR_META;
      }
    }
  }
  return S24_OK;
}

s24_status_t s24_decompress(s24_pattern_t p, const int8_t *values, const uint8_t *meta,
                            size_t rows, size_t k, int8_t *out, s24_where_t *where) {
  s24_status_t st = check_dense_args(p, values, rows, k);
  if (st != S24_OK) return st;
  if (out == NULL) return S24_ERR_ARG;
  st = s24_meta_validate(p, meta, rows, k, where);
  if (st != S24_OK) return st;
  const size_t groups = k / p.m;
  const size_t vcols = s24_values_cols(p, k);
  const size_t mcols = s24_meta_cols(p, k);
  for (size_t r = 0; r < rows; r++) {
    const int8_t *vrow = values + r * vcols;
    const uint8_t *mrow = meta + r * mcols;
    int8_t *orow = out + r * k;
    memset(orow, 0, k);
    for (size_t g = 0; g < groups; g++) {
      for (uint32_t s = 0; s < p.n; s++) {
        size_t slot = g * p.n + s;
        orow[g * p.m + s24_meta_get(p, mrow, slot)] = vrow[slot];
      }
    }
  }
  return S24_OK;
}

uint64_t s24_rng_next(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
