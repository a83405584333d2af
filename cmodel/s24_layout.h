// SPDX-License-Identifier: Apache-2.0
// sparse24 beat layout: the one statement of how a GEMM becomes s24_core stream beats.
//
// The geometry of the weight, activation and result beats (docs/architecture.md §2), their
// packing and unpacking, and the job planner (which beats each row tile takes, which row tiles
// share a hardware job). Used by the host driver (packing), the software device (unpacking),
// the Verilator testbench and the Icarus vector generator, and by the cycle model, so that
// all of them agree with each other and with the RTL by construction.
//
// Beats are little-endian arrays of 32-bit words, bit i of a beat = bit i%32 of word i/32:
//   weight     (w_bits = R*n*(8+iw)): value of slot s of row r at bits (r*n+s)*8, 8 bits;
//              its index in the group at bits R*n*8 + (r*n+s)*iw, iw bits (none when n == m)
//   activation (a_bits = C*m*8):      element e of the group for column c at bits (c*m+e)*8
//   result     (r_bits = C*32):       column c at bits c*32 (word c)
//   int8 result (fused layer):        row r%4 of a tile, column c at bits ((r%4)*C+c)*8 of
//                                     beat r/4 (s24_r8_*)
#ifndef S24_LAYOUT_H_
#define S24_LAYOUT_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_defaults.h"
#include "s24_model.h"
#include "s24_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Beat geometry of one array configuration (the HW_WIDTH and HW_BEAT registers of s24_top). */
typedef struct {
  uint32_t rows, cols, sparse_n, sparse_m;  /**< as s24_array_t */
  uint32_t idx_width;                       /**< index bits per slot: 0 if dense (n == m) */
  uint32_t w_bits, a_bits, r_bits;          /**< beat widths */
  uint32_t w_words, a_words, r_words;       /**< the same in 32-bit words */
} s24_geom_t;

/** Fills *g for the array; S24_ERR_ARG if !s24_array_ok(hw) or g is NULL. */
S24_WARN_UNUSED s24_status_t s24_geom(s24_array_t hw, s24_geom_t *g);

/** Bits pos .. pos+width-1 (width <= 32) of a beat: set to value / read. */
void s24_bits_put(uint32_t *beat, uint64_t pos, uint32_t width, uint32_t value);
uint32_t s24_bits_get(const uint32_t *beat, uint64_t pos, uint32_t width);

/** One field of a beat. */
void s24_w_put(const s24_geom_t *g, uint32_t *beat, uint32_t row, uint32_t slot, int8_t value,
               uint32_t idx);
int8_t s24_w_value(const s24_geom_t *g, const uint32_t *beat, uint32_t row, uint32_t slot);
/** The index of a slot; the slot itself on a dense core (no index bits). */
uint32_t s24_w_index(const s24_geom_t *g, const uint32_t *beat, uint32_t row, uint32_t slot);
void s24_a_put(const s24_geom_t *g, uint32_t *beat, uint32_t col, uint32_t e, int8_t value);
int8_t s24_a_get(const s24_geom_t *g, const uint32_t *beat, uint32_t col, uint32_t e);
void s24_r_put(const s24_geom_t *g, uint32_t *beat, uint32_t col, uint32_t value);
uint32_t s24_r_get(const s24_geom_t *g, const uint32_t *beat, uint32_t col);

/** The fused layer's int8 result stream (docs/architecture.md §4): a result tile of `rows` rows
 *  is s24_r8_beats(rows) = ceil(rows / 4) beats of r_words words, four tile rows per beat: row
 *  r, column c is the byte at bits ((r % 4) * cols + c) * 8 of beat r / 4. `beats` points at
 *  the tile's first beat; s24_r8_put sets the byte (the rest of the beat is left as is). */
uint32_t s24_r8_beats(uint32_t rows);
void s24_r8_put(uint32_t *beats, uint32_t r_words, uint32_t cols, uint32_t row, uint32_t col,
                int8_t value);
int8_t s24_r8_get(const uint32_t *beats, uint32_t r_words, uint32_t cols, uint32_t row,
                  uint32_t col);
/** A whole int8 result tile out of its beats, transposed: row r (< rows), column c (< ncols <=
 *  cols) to y[c * ldy + r] (equal to s24_r8_get of each). */
void s24_r8_tile(const uint32_t *beats, uint32_t r_words, uint32_t cols, uint32_t rows,
                 uint32_t ncols, int8_t *y, size_t ldy);

/** Whole beats (each first cleared: a_words / w_words / r_words words). Rows and columns past
 *  the matrix, and elements past k, are zero.
 *  The activation beat of hardware group `group` for the column tile whose first column is j0,
 *  from B (k x n_cols, row-major). */
void s24_a_beat(const s24_geom_t *g, uint32_t *beat, const int8_t *b, size_t k, size_t n_cols,
                size_t group, size_t j0);
/** The same from B given transposed, bt = B^T (n_cols x k, row-major: the rows of a layer's X),
 *  so a fused layer streams X in place. Equal to s24_a_beat of the transpose. */
void s24_a_beat_t(const s24_geom_t *g, uint32_t *beat, const int8_t *bt, size_t k,
                  size_t n_cols, size_t group, size_t j0);
/** A convolution's B^T read in place (the implicit GEMM: SPEC §8's im2col without the copy):
 *  row p = output position (b, oy, ox) (p = (b*oh + oy)*ow + ox), column kk = (ky*kw + kx)*cs +
 *  ic over channels c0 .. c0+cs-1 of the NHWC input x [n, h, w, c] (a depthwise slice's window;
 *  0 and c for a CONV_2D); the input row of (oy, ky) is oy*sh - ph + ky*dh (columns alike), and
 *  a position outside the input holds `pad` (the input zero point). */
typedef struct {
  const int8_t *x;
  int32_t n, h, w, c;
  int32_t c0, cs;
  int32_t kh, kw, oh, ow, sh, sw, dh, dw, ph, pw;
  int8_t pad;
  /** 1: x is unchanged since the device's previous convolution read it, and that call's output
   *  (whose rows this call's output shares) was written by nothing but the device since (a
   *  depthwise layer's slices after the first), so s24_linear_conv does not make them visible
   *  to or from the device's DMA again (no cache flush); the layout functions ignore it */
  uint8_t x_seen;
  /** Output rows a channel window (a depthwise layer's slices as one job): output row m reads
   *  window m / gr, channels c0 + (m / gr)*cs .. (s24_conv_c0); 0: every row reads c0 .. The
   *  layout functions read one window (c0 as given): a caller passes each window's c0. */
  int32_t gr;
} s24_conv_src_t;

/** The first input channel output row m reads (s24_conv_src_t.gr). */
static inline int32_t s24_conv_c0(const s24_conv_src_t *s, size_t m) {
  return s->gr > 0 ? s->c0 + (int32_t)(m / (size_t)s->gr) * s->cs : s->c0;
}

/** Row p of the conv source's B^T (kh*kw*cs bytes) into row: what an im2col writes. */
void s24_conv_row(const s24_conv_src_t *s, size_t p, int8_t *row);
/** s24_a_beat_t of the conv source's B^T (n_cols = n*oh*ow rows, k = kh*kw*cs), read in place;
 *  equal to s24_a_beat_t of the im2col. */
void s24_a_beat_conv(const s24_geom_t *g, uint32_t *beat, const s24_conv_src_t *s, size_t group,
                     size_t j0);
/** The beats of groups first .. first+count-1 for the column tile from j0, one after another in
 *  out: group first+i's beat reps[i] times (once each with reps NULL; none for 0), the groups'
 *  and the columns' positions stepped, not divided. Returns the beats written. */
size_t s24_a_beats_conv(const s24_geom_t *g, uint32_t *out, const s24_conv_src_t *s, size_t j0,
                        size_t first, size_t count, const uint8_t *reps);
/** Beat `b` of hardware group `group` of the row tile whose first row is r0, from the dense A
 *  (m_rows x k): each row's nonzeros b*n .. b*n+n-1 of the group, the unused slots zero values
 *  at the highest indices not in use (strictly increasing); on a dense core slot s holds
 *  element s. Beats of a group: s24_group_beats of its densest row (s24_plan_row_tile). */
void s24_w_beat_dense(const s24_geom_t *g, uint32_t *beat, const int8_t *a, size_t m_rows,
                      size_t k, size_t r0, size_t group, uint32_t b);
/** The one beat of hardware group `group` of the row tile whose first row is r0, from A
 *  compressed with the core's own pattern {sparse_n, sparse_m} (values m_rows x
 *  s24_values_cols, meta m_rows x s24_meta_cols; meta unused on a dense core). Rows past the
 *  matrix: zero values at indices m-n .. m-1. The metadata is copied as is (not validated). */
void s24_w_beat_compressed(const s24_geom_t *g, uint32_t *beat, const int8_t *values,
                           const uint8_t *meta, size_t m_rows, size_t k, size_t r0,
                           size_t group);
/** The result beat of row `row` for the column tile whose first column is j0, from C
 *  (m_rows x n_cols int32). */
void s24_r_beat(const s24_geom_t *g, uint32_t *beat, const int32_t *c, size_t m_rows,
                size_t n_cols, size_t row, size_t j0);

/** The default s24_top build (rtl/s24_top.v's parameter defaults, both generated from
 *  regs/s24_regs.toml's [defaults] into s24_defaults.h: S24_DEFAULT_ROWS … S24_DEFAULT_EPI_DEPTH,
 *  today an 8x8 2:4 array with the pair mode, a 512-row epilogue parameter RAM, EpiLanes 4) as an
 *  array: the cycle model's array when no device is open. */
#define S24_DEFAULT_ARRAY                                                       \
  {S24_DEFAULT_ROWS, S24_DEFAULT_COLS, S24_DEFAULT_SPARSE_N, S24_DEFAULT_SPARSE_M, 0, \
   S24_DEFAULT_PAIR_MODE}

/** HW_EPI.LANES of an s24_top build: the largest divisor of `cols` up to `epi_lanes` (the top's
 *  EpiLanes), up to twice that in a build with the pair mode (its tiles bring 2R rows a tile
 *  period; rtl/s24_top.v's EpiLanesEff). */
uint32_t s24_epi_lanes(uint32_t cols, uint32_t epi_lanes, int has_pair);
/** HW_EPI.LANES of the default build (8x8 2:4 with the pair mode: 8). */
#define S24_DEFAULT_HW_EPI_LANES \
  s24_epi_lanes(S24_DEFAULT_COLS, S24_DEFAULT_EPI_LANES, (int)S24_DEFAULT_PAIR_MODE)

#ifdef __cplusplus
}
#endif

#endif  // S24_LAYOUT_H_
