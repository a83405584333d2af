// SPDX-License-Identifier: Apache-2.0
// sparse24 golden model: the array, the core's job formula and the job planner (s24_plan.h).
#include "s24_plan.h"

static size_t ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }

// a / b (b > 0): the 32-bit division where both fit (a 32-bit CPU divides those in hardware; a
// 64-bit one calls a library routine of some hundred cycles: the planner runs at every job)
static uint64_t div_u64(uint64_t a, uint64_t b) {
  if ((a >> 32) == 0 && (b >> 32) == 0) return (uint32_t)a / (uint32_t)b;
  return a / b;
}

// ------------------------------------------------------------------ the core's job formula

s24_status_t s24_core_cycles(uint32_t rows, uint32_t cols, uint64_t beats, uint64_t tiles,
                             s24_cycles_t *out) {
  if (rows == 0 || cols == 0 || beats == 0 || tiles == 0 || out == NULL) return S24_ERR_ARG;
  uint64_t p = beats;
  if (p < rows) p = rows;
  if (p < cols) p = cols;
  const uint64_t fill = beats + (uint64_t)rows + (uint64_t)cols + S24_CORE_PIPE_CYCLES;  // < 2^64
  uint64_t run = 0, busy = 0, mac = 0;  // (overflow checked without dividing)
  if (fill < beats || __builtin_mul_overflow(tiles - 1, p, &run) ||
      __builtin_add_overflow(run, fill, &busy) || __builtin_mul_overflow(tiles, beats, &mac)) {
    return S24_ERR_NOMEM;
  }
  out->period = p;
  out->busy_cycles = busy;
  out->mac_beats = mac;
  return S24_OK;
}

s24_status_t s24_core_cycles_hw(s24_array_t hw, uint64_t beats, uint64_t tiles,
                                s24_cycles_t *out) {
  if (out == NULL) return S24_ERR_ARG;
  s24_cycles_t c;
  s24_status_t st = s24_core_cycles(hw.rows, hw.cols, beats, tiles, &c);
  if (st != S24_OK) return st;
  // pair mode: the second shadow of PE row R-1 is read R cycles after the first, before the
  // next tile's capture in column 0: P >= R + C (R = hw.rows / 2)
  const uint64_t floor = hw.pair ? (uint64_t)hw.rows / 2 + hw.cols : 0;
  if (c.period < floor) {
    const uint64_t extra = floor - c.period;
    uint64_t more = 0;
    if (__builtin_mul_overflow(tiles - 1, extra, &more) ||
        __builtin_add_overflow(c.busy_cycles, more, &c.busy_cycles)) {
      return S24_ERR_NOMEM;
    }
    c.period = floor;
  }
  *out = c;
  return S24_OK;
}

// Tile i+F is queued once the last row of tile i left (cycle i*P + G + R + C + PIPE) and must
// be taken by cycle (i+F)*P + 1: F*P >= G + R + C + PIPE for every G, worst at G = P = max(R, C).
uint32_t s24_feed_window_tiles(uint32_t rows, uint32_t cols) {
  if (rows == 0 || cols == 0) return 0;
  const uint64_t big = rows > cols ? rows : cols;
  return (uint32_t)(1u + ceil_div((size_t)rows + cols + S24_CORE_PIPE_CYCLES, (size_t)big));
}

// ------------------------------------------------------------------ job planner
// The single statement of how many beats each row tile takes (s24_plan_row_tile) and which row
// tiles share a job (s24_plan_next_job); the driver packs and runs its jobs with them and the
// cycle model (s24_cycles.c) predicts with them.

int s24_array_ok(s24_array_t hw) {
  if (hw.rows == 0 || hw.cols == 0) return 0;
  if (hw.sparse_m != 2 && hw.sparse_m != 4 && hw.sparse_m != 8) return 0;
  if (hw.pair > 1) return 0;
  if (hw.pair) return hw.sparse_n == 1 && hw.sparse_m > 2 && hw.rows % 2 == 0;
  return hw.sparse_n >= 1 && hw.sparse_n <= hw.sparse_m;
}

int s24_array_has_pair(s24_array_t hw) {
  return !hw.pair && hw.has_pair && hw.sparse_n == 2 && hw.sparse_m > 2 && s24_array_ok(hw);
}

s24_status_t s24_array_pair(s24_array_t hw, s24_array_t *out) {
  if (out == NULL || !s24_array_has_pair(hw) || hw.rows > UINT32_MAX / 2) return S24_ERR_ARG;
  const s24_array_t v = {2 * hw.rows, hw.cols, 1, hw.sparse_m, 1, 0};
  *out = v;
  return S24_OK;
}

int s24_pair_fits(s24_array_t hw, const int8_t *a, size_t m_rows, size_t k) {
  if (!s24_array_has_pair(hw) || a == NULL || m_rows == 0 || k == 0) return 0;
  const size_t hm = hw.sparse_m;
  for (size_t r = 0; r < m_rows; r++) {
    for (size_t e0 = 0; e0 < k; e0 += hm) {
      uint32_t nnz = 0;
      for (size_t e = e0; e < k && e < e0 + hm; e++) nnz += a[r * k + e] != 0;
      if (nnz > 1) return 0;
    }
  }
  return 1;
}

// Sum over the row tiles of their tile periods on hw (one column tile's share of the busy
// cycles); UINT64_MAX on an error.
static uint64_t period_sum(s24_array_t hw, const int8_t *a, size_t m_rows, size_t k) {
  uint64_t sum = 0;
  for (size_t t = 0; t < ceil_div(m_rows, hw.rows); t++) {
    uint64_t beats = 0;
    s24_cycles_t c;
    if (s24_plan_row_tile(hw, a, m_rows, k, t, NULL, &beats) != S24_OK ||
        s24_core_cycles_hw(hw, beats, 2, &c) != S24_OK) {
      return UINT64_MAX;
    }
    sum += c.period;
  }
  return sum;
}

int s24_pair_choose(s24_array_t hw, const int8_t *a, size_t m_rows, size_t k) {
  s24_array_t pair;
  if (!s24_pair_fits(hw, a, m_rows, k) || s24_array_pair(hw, &pair) != S24_OK) return 0;
  const uint64_t own = period_sum(hw, a, m_rows, k), paired = period_sum(pair, a, m_rows, k);
  return own != UINT64_MAX && paired < own;
}

uint32_t s24_group_beats(s24_array_t hw, uint32_t max_nnz) {
  if (hw.sparse_n == 0) return 0;
  return (max_nnz + hw.sparse_n - 1) / hw.sparse_n;
}

s24_status_t s24_plan_row_tile(s24_array_t hw, const int8_t *a, size_t m_rows, size_t k,
                               size_t tile, uint8_t *bpg, uint64_t *job_beats) {
  if (!s24_array_ok(hw) || a == NULL || m_rows == 0 || k == 0 || job_beats == NULL ||
      tile >= ceil_div(m_rows, hw.rows)) {
    return S24_ERR_ARG;
  }
  const size_t hm = hw.sparse_m, groups = ceil_div(k, hm);
  const size_t r0 = tile * hw.rows;
  const size_t r1 = (m_rows - r0 < hw.rows) ? m_rows : r0 + hw.rows;
  uint64_t sum = 0;
  for (size_t g = 0; g < groups; g++) {
    const size_t e0 = g * hm, e1 = (k - e0 < hm) ? k : e0 + hm;
    uint32_t most = 0;
    for (size_t r = r0; r < r1 && most < hm; r++) {
      uint32_t nnz = 0;
      for (size_t e = e0; e < e1; e++) nnz += a[r * k + e] != 0;
      if (nnz > most) most = nnz;
    }
    const uint32_t b = s24_group_beats(hw, most);
    if (bpg != NULL) bpg[g] = (uint8_t)b;
    sum += b;
  }
  if (sum == 0) {  // an all-zero row tile still runs one (zero) beat per column tile
    if (bpg != NULL) bpg[0] = 1;
    sum = 1;
  }
  *job_beats = sum;
  return S24_OK;
}

uint64_t s24_job_max_row_tiles(s24_array_t hw, uint64_t beats, uint64_t col_tiles) {
  if (!s24_array_ok(hw) || beats == 0 || beats > UINT32_MAX || col_tiles == 0) return 0;
  if (col_tiles > UINT32_MAX) return 1;
  const uint64_t by_tiles = div_u64(UINT32_MAX, col_tiles);  // CFG_TILES is 32 bits
  s24_cycles_t one;  // busy cycles of t tiles = (t - 1) * period + those of one tile
  if (s24_core_cycles_hw(hw, beats, 1, &one) != S24_OK) return 0;

  const uint64_t p = one.period, fill = one.busy_cycles;
  // busy = (tiles - 1) * p + fill < S24_JOB_CYCLES_LIMIT
  const uint64_t by_cycles =
      fill < S24_JOB_CYCLES_LIMIT ? div_u64(div_u64(S24_JOB_CYCLES_LIMIT - 1 - fill, p) + 1, col_tiles)
                                  : 0;
  const uint64_t most = by_tiles < by_cycles ? by_tiles : by_cycles;
  return most > 0 ? most : 1;
}

size_t s24_plan_next_job_fn(s24_array_t hw, uint64_t (*beats_of)(const void *ctx, size_t i),
                            const void *ctx, size_t count, uint64_t col_tiles) {
  if (beats_of == NULL || count == 0) return 0;
  const uint64_t first = beats_of(ctx, 0);
  const uint64_t cap = s24_job_max_row_tiles(hw, first, col_tiles);
  if (cap == 0) return 0;
  size_t n = 1;
  while (n < count && n < cap && beats_of(ctx, n) == first) n++;
  return n;
}

static uint64_t array_beats(const void *ctx, size_t i) { return ((const uint64_t *)ctx)[i]; }

size_t s24_plan_next_job(s24_array_t hw, const uint64_t *tile_beats, size_t count,
                         uint64_t col_tiles) {
  if (tile_beats == NULL) return 0;
  return s24_plan_next_job_fn(hw, array_beats, tile_beats, count, col_tiles);
}

size_t s24_linear_job_tiles(s24_array_t hw, uint32_t epi_depth) {
  if (!s24_array_ok(hw)) return 0;
  return epi_depth / hw.rows;
}

uint32_t s24_epi_lanes(uint32_t cols, uint32_t epi_lanes, int has_pair) {
  const uint32_t most = has_pair ? 2u * epi_lanes : epi_lanes;
  uint32_t l = 1;
  for (uint32_t i = 1; i <= most; i++) {
    if (cols % i == 0) l = i;
  }
  return l;
}
