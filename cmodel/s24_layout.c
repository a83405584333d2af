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

// Four rows of one beat, a column quad: the words of rows 4i .. 4i+3 (a[k]: row 4i+k, columns
// 4q .. 4q+3, byte m column 4q+m) transposed into a word a column (byte k: row 4i+k).
static void r8_transpose4(const uint32_t a[4], uint32_t o[4]) {
  const uint32_t t0 = (a[0] & 0x00ff00ffu) | (a[1] & 0x00ff00ffu) << 8;  // columns 0, 2
  const uint32_t t1 = (a[0] >> 8 & 0x00ff00ffu) | (a[1] & 0xff00ff00u);  // columns 1, 3
  const uint32_t t2 = (a[2] & 0x00ff00ffu) | (a[3] & 0x00ff00ffu) << 8;
  const uint32_t t3 = (a[2] >> 8 & 0x00ff00ffu) | (a[3] & 0xff00ff00u);
  o[0] = (t0 & 0xffffu) | t2 << 16;
  o[1] = (t1 & 0xffffu) | t3 << 16;
  o[2] = t0 >> 16 | (t2 & 0xffff0000u);
  o[3] = t1 >> 16 | (t3 & 0xffff0000u);
}

void s24_r8_tile(const uint32_t *beats, uint32_t r_words, uint32_t cols, uint32_t rows,
                 uint32_t ncols, int8_t *y, size_t ldy) {
  uint32_t r = 0;
  // whole beats (four rows) into word-aligned rows of Y: one word store per column (the
  // transposed word's byte k is row k: a little-endian store)
  if (cols % 4 == 0 && ldy % 4 == 0 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
    for (; r + 4 <= rows && (uintptr_t)(y + r) % 4 == 0; r += 4) {
      const uint32_t *w = beats + (r / 4) * r_words;
      for (uint32_t q = 0; q * 4 < ncols; q++) {
        const uint32_t a[4] = {w[q], w[cols / 4 + q], w[2 * (cols / 4) + q], w[3 * (cols / 4) + q]};
        uint32_t o[4];
        r8_transpose4(a, o);
        int8_t *yq = y + (size_t)q * 4 * ldy + r;
        if (q * 4 + 4 <= ncols) {  // a whole quad: four stores, unrolled
          memcpy(__builtin_assume_aligned(yq, 4), &o[0], 4);
          memcpy(__builtin_assume_aligned(yq + ldy, 4), &o[1], 4);
          memcpy(__builtin_assume_aligned(yq + 2 * ldy, 4), &o[2], 4);
          memcpy(__builtin_assume_aligned(yq + 3 * ldy, 4), &o[3], 4);
        } else {
          for (uint32_t m = 0; q * 4 + m < ncols; m++) {
            memcpy(__builtin_assume_aligned(yq + m * ldy, 4), &o[m], 4);
          }
        }
      }
    }
  }
  for (; r < rows; r++) {  // the rest byte by byte
    const uint32_t *w = beats + (r / 4) * r_words;  // row r%4 of this beat: bytes (r%4)*cols ..
    uint32_t i = (r % 4) * cols;
    for (uint32_t cc = 0; cc < ncols; cc++, i++) {
      y[cc * ldy + r] = (int8_t)(uint8_t)(w[i / 4] >> (8 * (i % 4)));
    }
  }
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

void s24_conv_row(const s24_conv_src_t *s, size_t p, int8_t *row) {
  const size_t ox = p % (size_t)s->ow, t = p / (size_t)s->ow;
  const size_t oy = t % (size_t)s->oh, b = t / (size_t)s->oh, cs = (size_t)s->cs;
  for (int32_t ky = 0; ky < s->kh; ky++) {
    const int64_t iy = (int64_t)oy * s->sh - s->ph + (int64_t)ky * s->dh;
    for (int32_t kx = 0; kx < s->kw; kx++, row += cs) {
      const int64_t ix = (int64_t)ox * s->sw - s->pw + (int64_t)kx * s->dw;
      const int out = iy < 0 || iy >= s->h || ix < 0 || ix >= s->w;
      const int8_t *src = out ? NULL
                              : s->x + ((b * (size_t)s->h + (size_t)iy) * (size_t)s->w +
                                        (size_t)ix) * (size_t)s->c + (size_t)s->c0;
      if (cs > 8) {  // (a few channels a tap, e.g. a first layer's 1 or 3: no call)
        if (out) {
          memset(row, s->pad, cs);
        } else {
          memcpy(row, src, cs);
        }
      } else {
        for (size_t i = 0; i < cs; i++) row[i] = out ? s->pad : src[i];
      }
    }
  }
}

// A 32-bit load of int8 bytes (GCC and Clang: may alias anything): the bytes of a word in memory
// order where the target is little-endian (the beat's order), else never used
typedef uint32_t s24_u32_alias_t __attribute__((may_alias));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define S24_LE_WORDS 1
#else
#define S24_LE_WORDS 0
#endif

size_t s24_a_beats_conv(const s24_geom_t *g, uint32_t *out, const s24_conv_src_t *s, size_t j0,
                        size_t first, size_t count, const uint8_t *reps) {
  const size_t hm = g->sparse_m, aw = g->a_words, cs = (size_t)s->cs, c = (size_t)s->c;
  const size_t kw = (size_t)s->kw, k = (size_t)s->kh * kw * cs;
  const size_t n_cols = (size_t)s->n * (size_t)s->oh * (size_t)s->ow;
  const size_t cols = j0 >= n_cols ? 0 : n_cols - j0 < g->cols ? n_cols - j0 : g->cols;
  const size_t row_bytes = (size_t)s->w * c, img_bytes = (size_t)s->h * row_bytes;
  size_t beats = 0;
  for (size_t i = 0; i < count; i++) beats += reps != NULL ? reps[i] : 1;
  memset(out, 0, beats * aw * sizeof(uint32_t));
  // four elements of one tap a word: groups inside one tap, word-aligned in the input
  const int word = S24_LE_WORDS && hm == 4 && cs % 4 == 0 && c % 4 == 0 && s->c0 % 4 == 0 &&
                   ((uintptr_t)s->x & 3u) == 0;
  const uint32_t padw = 0x01010101u * (uint8_t)s->pad;
  const int8_t *const x = s->x + (size_t)s->c0;
  // the first group's first element as (ky, kx, ic); each group hm elements further on
  const size_t e_first = first * hm, tap0 = e_first / cs;
  const size_t ic0 = e_first % cs, ky0 = tap0 / kw, kx0 = tap0 % kw;
  // column by column (its window's corner once), then group by group along k: positions are
  // stepped, not divided or multiplied, and a tap's input offset is kept modulo 2^N (exact
  // whenever the tap is inside the input, the only time it is used)
  size_t ox = j0 % (size_t)s->ow, t0 = j0 / (size_t)s->ow;
  size_t oy = t0 % (size_t)s->oh, b = t0 / (size_t)s->oh;
  const size_t step_x = (size_t)s->dw * c, step_y = (size_t)s->dh * row_bytes;
  for (size_t cc = 0; cc < cols; cc++) {
    const int64_t y0 = (int64_t)oy * s->sh - s->ph, x0 = (int64_t)ox * s->sw - s->pw;
    const int8_t *const img = x + b * img_bytes;
    size_t ic = ic0, kx = kx0, ky = ky0;
    int64_t iy = y0 + (int64_t)ky * s->dh, ix = x0 + (int64_t)kx * s->dw;
    size_t off = (size_t)iy * row_bytes + (size_t)ix * c + ic;  // modulo 2^N
    uint32_t *dst = out;
    for (size_t i = 0; i < count; i++) {
      const uint8_t r = reps != NULL ? reps[i] : 1;
      const size_t e0 = e_first + i * hm;
      if (r > 0 && word) {
        const uint32_t v = ((uint64_t)iy < (uint64_t)s->h && (uint64_t)ix < (uint64_t)s->w)
                               ? *(const s24_u32_alias_t *)(const void *)(img + off)
                               : padw;
        for (uint8_t j = 0; j < r; j++) dst[j * aw + cc] = v;
      } else if (r > 0) {  // element by element, across taps (stepped like the groups)
        const size_t len = k - e0 < hm ? k - e0 : hm;
        size_t eic = ic, ekx = kx, eoff = off;
        int64_t yy = iy, xx = ix;
        uint64_t acc = 0;  // the column's hm bytes, stored once (a byte at a time into a beat in
                           // main RAM cost a read and a write-through store each on the SoC)
        for (size_t e = 0; e < len; e++) {
          const int8_t v = ((uint64_t)yy < (uint64_t)s->h && (uint64_t)xx < (uint64_t)s->w)
                               ? img[eoff]
                               : s->pad;
          acc |= (uint64_t)(uint8_t)v << (8 * e);
          eoff++;
          if (++eic == cs) {
            eic = 0;
            eoff -= cs;
            if (++ekx == kw) {
              ekx = 0;
              yy += s->dh;
              xx = x0;
              eoff += step_y - (kw - 1) * step_x;
            } else {
              xx += s->dw;
              eoff += step_x;
            }
          }
        }
        for (uint8_t j = 0; j < r; j++) {
          if (hm == 4 && S24_LE_WORDS) {
            dst[j * aw + cc] = (uint32_t)acc;
          } else {
            for (size_t e = 0; e < len; e++) {
              put_byte(dst + j * aw, cc * hm + e, (int8_t)(uint8_t)(acc >> (8 * e)));
            }
          }
        }
      }
      dst += r * aw;
      for (ic += hm, off += hm; ic >= cs;) {  // the next group's first element
        ic -= cs;
        off -= cs;
        if (++kx == kw) {
          kx = 0;
          ky++;
          iy += s->dh;
          ix = x0;
          off += step_y - (kw - 1) * step_x;
        } else {
          ix += s->dw;
          off += step_x;
        }
      }
    }
    if (++ox == (size_t)s->ow) {
      ox = 0;
      if (++oy == (size_t)s->oh) {
        oy = 0;
        b++;
      }
    }
  }
  return beats;
}

void s24_a_beat_conv(const s24_geom_t *g, uint32_t *beat, const s24_conv_src_t *s, size_t group,
                     size_t j0) {
  (void)s24_a_beats_conv(g, beat, s, j0, group, 1, NULL);
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

