// SPDX-License-Identifier: Apache-2.0
// sparse24 beat layout: beat geometry, packing and unpacking, and the job planner (s24_layout.h).
#include "s24_layout.h"

#include <string.h>

static uint32_t words_for(uint32_t bits) { return (bits + 31) / 32; }

// ------------------------------------------------------------------ geometry and fields

s24_status_t s24_geom(s24_array_t hw, s24_geom_t *g) {
  if (!s24_array_ok(hw) || g == NULL) return S24_ERR_ARG;
  memset(g, 0, sizeof(*g));
  g->rows = hw.rows;
  g->cols = hw.cols;
  g->sparse_n = hw.sparse_n;
  g->sparse_m = hw.sparse_m;
  g->idx_width = hw.sparse_n == hw.sparse_m ? 0 : hw.sparse_m == 2 ? 1 : hw.sparse_m == 4 ? 2 : 3;
  g->w_bits = hw.rows * hw.sparse_n * (8 + g->idx_width);
  g->a_bits = hw.cols * hw.sparse_m * 8;
  g->r_bits = hw.cols * 32;
  g->w_words = words_for(g->w_bits);
  g->a_words = words_for(g->a_bits);
  g->r_words = words_for(g->r_bits);
  return S24_OK;
}

// A word at a time (a field crosses at most two words of a beat; the firmware packs every layer's
// weights through here at load, where a bit at a time cost ~30 cycles a bit on VexRiscv)
void s24_bits_put(uint32_t *beat, uint64_t pos, uint32_t width, uint32_t value) {
  while (width > 0) {
    const uint32_t off = (uint32_t)(pos % 32), n = width < 32 - off ? width : 32 - off;
    const uint32_t mask = (n == 32 ? 0xFFFFFFFFu : (1u << n) - 1u) << off;
    uint32_t *w = &beat[pos / 32];
    *w = (*w & ~mask) | ((value << off) & mask);
    value = n == 32 ? 0 : value >> n;
    pos += n;
    width -= n;
  }
}

uint32_t s24_bits_get(const uint32_t *beat, uint64_t pos, uint32_t width) {
  uint32_t v = 0, got = 0;
  while (got < width) {
    const uint32_t off = (uint32_t)(pos % 32), want = width - got;
    const uint32_t n = want < 32 - off ? want : 32 - off;
    const uint32_t bits = (beat[pos / 32] >> off) & (n == 32 ? 0xFFFFFFFFu : (1u << n) - 1u);
    v |= bits << got;  // got < 32 here: n < 32 whenever got > 0
    pos += n;
    got += n;
  }
  return v;
}

static uint64_t w_slot(const s24_geom_t *g, uint32_t row, uint32_t slot) {
  return (uint64_t)row * g->sparse_n + slot;
}

void s24_w_put(const s24_geom_t *g, uint32_t *beat, uint32_t row, uint32_t slot, int8_t value,
               uint32_t idx) {
  const uint64_t s = w_slot(g, row, slot);
  s24_bits_put(beat, s * 8, 8, (uint8_t)value);
  if (g->idx_width != 0) {
    s24_bits_put(beat, (uint64_t)g->rows * g->sparse_n * 8 + s * g->idx_width, g->idx_width, idx);
  }
}

int8_t s24_w_value(const s24_geom_t *g, const uint32_t *beat, uint32_t row, uint32_t slot) {
  return (int8_t)s24_bits_get(beat, w_slot(g, row, slot) * 8, 8);
}

uint32_t s24_w_index(const s24_geom_t *g, const uint32_t *beat, uint32_t row, uint32_t slot) {
  if (g->idx_width == 0) return slot;
  return s24_bits_get(beat, (uint64_t)g->rows * g->sparse_n * 8 + w_slot(g, row, slot) * g->idx_width,
                      g->idx_width);
}

void s24_a_put(const s24_geom_t *g, uint32_t *beat, uint32_t col, uint32_t e, int8_t value) {
  s24_bits_put(beat, ((uint64_t)col * g->sparse_m + e) * 8, 8, (uint8_t)value);
}

int8_t s24_a_get(const s24_geom_t *g, const uint32_t *beat, uint32_t col, uint32_t e) {
  return (int8_t)s24_bits_get(beat, ((uint64_t)col * g->sparse_m + e) * 8, 8);
}

void s24_r_put(const s24_geom_t *g, uint32_t *beat, uint32_t col, uint32_t value) {
  (void)g;
  beat[col] = value;
}

uint32_t s24_r_get(const s24_geom_t *g, const uint32_t *beat, uint32_t col) {
  (void)g;
  return beat[col];
}

// The fused layer's int8 result beats: four tile rows per beat.
static uint64_t r8_bit(uint32_t r_words, uint32_t cols, uint32_t row, uint32_t col) {
  return (uint64_t)(row / 4) * r_words * 32 + ((uint64_t)(row % 4) * cols + col) * 8;
}

uint32_t s24_r8_beats(uint32_t rows) { return (rows + 3) / 4; }

void s24_r8_put(uint32_t *beats, uint32_t r_words, uint32_t cols, uint32_t row, uint32_t col,
                int8_t value) {
  s24_bits_put(beats, r8_bit(r_words, cols, row, col), 8, (uint8_t)value);
}

int8_t s24_r8_get(const uint32_t *beats, uint32_t r_words, uint32_t cols, uint32_t row,
                  uint32_t col) {
  const uint64_t bit = r8_bit(r_words, cols, row, col);  // a whole byte: one word holds it
  return (int8_t)(uint8_t)(beats[bit / 32] >> (bit % 32));
}

// ------------------------------------------------------------------ whole beats

// Byte i of a beat (activation elements are whole bytes: element e of column c is byte c*m + e),
// into a cleared beat.
static void put_byte(uint32_t *beat, size_t i, int8_t v) {
  beat[i / 4] |= (uint32_t)(uint8_t)v << (8 * (i % 4));
}

void s24_a_beat(const s24_geom_t *g, uint32_t *beat, const int8_t *b, size_t k, size_t n_cols,
                size_t group, size_t j0) {
  const size_t hm = g->sparse_m;
  memset(beat, 0, g->a_words * sizeof(uint32_t));
  for (uint32_t c = 0; c < g->cols && j0 + c < n_cols; c++) {
    for (uint32_t e = 0; e < hm && group * hm + e < k; e++) {
      put_byte(beat, (size_t)c * hm + e, b[(group * hm + e) * n_cols + j0 + c]);
    }
  }
}

void s24_a_beat_t(const s24_geom_t *g, uint32_t *beat, const int8_t *bt, size_t k,
                  size_t n_cols, size_t group, size_t j0) {
  const size_t hm = g->sparse_m, e0 = group * hm, len = k - e0 < hm ? k - e0 : hm;
  const size_t cols = j0 >= n_cols ? 0 : n_cols - j0 < g->cols ? n_cols - j0 : g->cols;
  // word by word, each stored once (byte i = c*hm + e, little end first: the beat's bit order)
  const int8_t *col = bt + j0 * k + e0;  // column j0 + c of B: row j0 + c of B^T
  size_t c = 0, e = 0;
  for (uint32_t w = 0; w < g->a_words; w++) {
    uint32_t v = 0;
    for (uint32_t i = 0; i < 32 && c < cols; i += 8) {
      if (e < len) v |= (uint32_t)(uint8_t)col[e] << i;
      if (++e == hm) {
        e = 0;
        c++;
        col += k;
      }
    }
    beat[w] = v;
  }
}

void s24_w_beat_dense(const s24_geom_t *g, uint32_t *beat, const int8_t *a, size_t m_rows,
                      size_t k, size_t r0, size_t group, uint32_t b) {
  const uint32_t hn = g->sparse_n, hm = g->sparse_m;
  const size_t e0 = group * hm;
  memset(beat, 0, g->w_words * sizeof(uint32_t));
  for (uint32_t rr = 0; rr < g->rows; rr++) {
    const size_t r = r0 + rr;
    const int8_t *row = (r < m_rows) ? a + r * k + e0 : NULL;
    if (g->idx_width == 0) {  // dense core: slot s multiplies activation s
      for (uint32_t s = 0; s < hn; s++) {
        s24_w_put(g, beat, rr, s, (row != NULL && e0 + s < k) ? row[s] : 0, s);
      }
      continue;
    }
    uint32_t used = 0, cnt = 0, seen = 0;  // this row's nonzeros b*hn .. b*hn+hn-1 of the group
    for (uint32_t e = 0; row != NULL && e < hm && e0 + e < k; e++) {
      if (row[e] == 0) continue;
      if (seen >= b * hn && seen < (b + 1) * hn) {
        used |= 1u << e;
        cnt++;
      }
      seen++;
    }
    const uint32_t nz = used;
    for (int e = (int)hm - 1; e >= 0 && cnt < hn; e--) {  // padding: highest unused indices
      if (!(used & (1u << e))) {
        used |= 1u << e;
        cnt++;
      }
    }
    uint32_t s = 0;
    for (uint32_t e = 0; e < hm; e++) {
      if (!(used & (1u << e))) continue;
      s24_w_put(g, beat, rr, s++, (nz & (1u << e)) ? row[e] : 0, e);
    }
  }
}

void s24_w_beat_compressed(const s24_geom_t *g, uint32_t *beat, const int8_t *values,
                           const uint8_t *meta, size_t m_rows, size_t k, size_t r0,
                           size_t group) {
  const s24_pattern_t p = {g->sparse_n, g->sparse_m};
  // the core's own pattern (a dense core's n == m too): n values per group of m
  const size_t vcols = (k / g->sparse_m) * g->sparse_n;
  const size_t mcols = g->idx_width ? s24_meta_cols(p, k) : 0;
  memset(beat, 0, g->w_words * sizeof(uint32_t));
  for (uint32_t rr = 0; rr < g->rows; rr++) {
    const size_t r = r0 + rr;
    for (uint32_t s = 0; s < g->sparse_n; s++) {
      const size_t v = group * g->sparse_n + s;
      int8_t val = 0;
      uint32_t idx = g->sparse_m - g->sparse_n + s;
      if (r < m_rows) {
        val = values[r * vcols + v];
        if (g->idx_width != 0) idx = s24_meta_get(p, meta + r * mcols, v);
      }
      s24_w_put(g, beat, rr, s, val, idx);
    }
  }
}

void s24_r_beat(const s24_geom_t *g, uint32_t *beat, const int32_t *c, size_t m_rows,
                size_t n_cols, size_t row, size_t j0) {
  memset(beat, 0, g->r_words * sizeof(uint32_t));
  for (uint32_t cc = 0; cc < g->cols && row < m_rows && j0 + cc < n_cols; cc++) {
    s24_r_put(g, beat, cc, (uint32_t)c[row * n_cols + j0 + cc]);
  }
}

