// sparse24 golden model: cycle model. s24_core job formula (docs/architecture.md §3, ideal
// streams) and the GEMM cycle model of the host driver's jobs (planned in s24_layout.c).
#include "s24_layout.h"
#include "s24_model.h"

#include <stdlib.h>
#include <string.h>

s24_status_t s24_core_cycles(uint32_t rows, uint32_t cols, uint64_t beats, uint64_t tiles,
                             s24_cycles_t *out) {
  if (rows == 0 || cols == 0 || beats == 0 || tiles == 0 || out == NULL) return S24_ERR_ARG;
  uint64_t p = beats;
  if (p < rows) p = rows;
  if (p < cols) p = cols;
  const uint64_t fill = beats + (uint64_t)rows + (uint64_t)cols + S24_CORE_PIPE_CYCLES;  // < 2^64
  if (fill < beats || (tiles - 1) > (UINT64_MAX - fill) / p || tiles > UINT64_MAX / beats) {
    return S24_ERR_NOMEM;
  }
  out->period = p;
  out->busy_cycles = (tiles - 1) * p + fill;
  out->mac_beats = tiles * beats;
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
    if ((tiles - 1) > (UINT64_MAX - c.busy_cycles) / extra) return S24_ERR_NOMEM;
    c.busy_cycles += (tiles - 1) * extra;
    c.period = floor;
  }
  *out = c;
  return S24_OK;
}

static size_t ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }

// Tile i+F is queued once the last row of tile i left (cycle i*P + G + R + C + PIPE) and must
// be taken by cycle (i+F)*P + 1: F*P >= G + R + C + PIPE for every G, worst at G = P = max(R, C).
uint32_t s24_feed_window_tiles(uint32_t rows, uint32_t cols) {
  if (rows == 0 || cols == 0) return 0;
  const uint64_t big = rows > cols ? rows : cols;
  return (uint32_t)(1u + ceil_div((size_t)rows + cols + S24_CORE_PIPE_CYCLES, (size_t)big));
}

// ------------------------------------------------------------------ GEMM cycle model
// The host driver runs a GEMM as row tiles x column tiles, one hardware job per run of
// consecutive row tiles with equal beats, planned by s24_plan_row_tile and s24_plan_next_job
// (s24_layout.c); the predictors below plan with the same functions, so prediction and
// hardware cannot drift apart.

s24_status_t s24_core_cycles_epi(uint32_t rows, uint32_t cols, uint32_t lanes, uint64_t beats,
                                 uint64_t tiles, s24_cycles_t *out) {
  if (lanes == 0 || cols % lanes != 0) return S24_ERR_ARG;
  s24_status_t st = s24_core_cycles(rows, cols, beats, tiles, out);
  if (st != S24_OK) return st;
  const uint64_t step = cols / lanes;  // cycles per tile row in the epilogue
  if (tiles > UINT64_MAX / rows || tiles * rows > UINT64_MAX / step) return S24_ERR_NOMEM;
  // last row in at: first row's cycle + (every row but the last R) * step + S24_EPI_FULL_CYCLES
  const uint64_t queued = tiles * rows;  // >= rows
  const uint64_t paced = beats + cols + S24_EPI_FULL_CYCLES + (queued - 1) * step;
  const uint64_t buffered = (uint64_t)rows * step;  // the row buffer's rows leave after the core
  const uint64_t stalled = paced > buffered ? paced - buffered : 0;
  if (stalled > out->busy_cycles) out->busy_cycles = stalled;
  return S24_OK;
}

// Adds one job of `row_tiles` row tiles of `beats` beats (row_tiles * out->col_tiles tiles);
// epi_lanes 0 for a GEMM, else the fused epilogue's lanes (s24_core_cycles_epi).
static s24_status_t add_job(s24_array_t hw, uint64_t beats, uint64_t row_tiles,
                            uint32_t epi_lanes, s24_gemm_cycles_t *out) {
  if (beats > UINT32_MAX) return S24_ERR_UNSUPPORTED;  // CFG_BEATS is a 32-bit register
  const uint64_t tiles = row_tiles * out->col_tiles;    // <= 2^32 - 1 by the planning rule
  s24_cycles_t c;
  s24_status_t st = epi_lanes == 0
                        ? s24_core_cycles_hw(hw, beats, tiles, &c)
                        : s24_core_cycles_epi(hw.rows, hw.cols, epi_lanes, beats, tiles, &c);
  if (st != S24_OK) return st;
  if (out->busy_cycles > UINT64_MAX - c.busy_cycles || out->beats > UINT64_MAX - c.mac_beats) {
    return S24_ERR_NOMEM;
  }
  out->jobs++;
  out->tiles += tiles;
  out->job_beats += beats * row_tiles;
  if (beats > out->max_job_beats) out->max_job_beats = beats;
  out->beats += c.mac_beats;
  out->busy_cycles += c.busy_cycles;
  return S24_OK;
}

static s24_status_t start_totals(s24_array_t hw, size_t n_cols, s24_gemm_cycles_t *out) {
  memset(out, 0, sizeof(*out));
  out->col_tiles = ceil_div(n_cols, hw.cols);
  return out->col_tiles > UINT32_MAX ? S24_ERR_UNSUPPORTED : S24_OK;  // CFG_TILES: 32 bits
}

// Groups the row tiles (tile_beats[i] = CFG_BEATS of row tile i) into jobs by
// s24_plan_next_job, the driver's rule, at most max_job_tiles row tiles a job (the fused
// epilogue's parameter RAM; SIZE_MAX for a plain GEMM), and adds every job to the totals.
static s24_status_t add_jobs(s24_array_t hw, const uint64_t *tile_beats, size_t row_tiles,
                             size_t max_job_tiles, uint32_t epi_lanes, s24_gemm_cycles_t *out) {
  for (size_t first = 0; first < row_tiles;) {
    if (tile_beats[first] > UINT32_MAX) return S24_ERR_UNSUPPORTED;
    const size_t left = row_tiles - first < max_job_tiles ? row_tiles - first : max_job_tiles;
    const size_t n = s24_plan_next_job(hw, tile_beats + first, left, out->col_tiles);
    if (n == 0) return S24_ERR_ARG;
    s24_status_t st = add_job(hw, tile_beats[first], n, epi_lanes, out);
    if (st != S24_OK) return st;
    first += n;
  }
  return S24_OK;
}

static s24_status_t cycles_dense(s24_array_t hw, const int8_t *a, size_t m_rows, size_t k,
                                 size_t n_cols, size_t max_job_tiles, uint32_t epi_lanes,
                                 s24_gemm_cycles_t *out) {
  if (!s24_array_ok(hw) || a == NULL || m_rows == 0 || k == 0 || n_cols == 0 || out == NULL ||
      max_job_tiles == 0) {
    return S24_ERR_ARG;
  }
  // THE mode rule (s24_pair_fits): a GEMM of 1:m weights runs in pair mode; the fused layer
  // (epi_lanes != 0) always in the core's own mode
  const int pair = epi_lanes == 0 && s24_pair_choose(hw, a, m_rows, k);
  if (pair && s24_array_pair(hw, &hw) != S24_OK) return S24_ERR_ARG;
  const size_t tiles = ceil_div(m_rows, hw.rows);
  if (tiles > SIZE_MAX / sizeof(uint64_t)) return S24_ERR_NOMEM;
  uint64_t *tile_beats = malloc(tiles * sizeof(uint64_t));
  if (tile_beats == NULL) return S24_ERR_NOMEM;
  s24_gemm_cycles_t t;
  s24_status_t st = start_totals(hw, n_cols, &t);
  for (size_t i = 0; i < tiles && st == S24_OK; i++) {
    st = s24_plan_row_tile(hw, a, m_rows, k, i, NULL, &tile_beats[i]);
  }
  if (st == S24_OK) st = add_jobs(hw, tile_beats, tiles, max_job_tiles, epi_lanes, &t);
  free(tile_beats);
  t.pair = (uint64_t)pair;
  if (st == S24_OK) *out = t;
  return st;
}

s24_status_t s24_gemm_cycles_dense(s24_array_t hw, const int8_t *a, size_t m_rows, size_t k,
                                   size_t n_cols, s24_gemm_cycles_t *out) {
  return cycles_dense(hw, a, m_rows, k, n_cols, SIZE_MAX, 0, out);
}

s24_status_t s24_linear_cycles(s24_array_t hw, uint32_t epi_depth, uint32_t epi_lanes,
                               const int8_t *w, size_t m_rows, size_t k, size_t batch,
                               s24_gemm_cycles_t *out) {
  if (epi_depth < hw.rows || hw.rows == 0 || epi_lanes == 0 || hw.cols % epi_lanes != 0) {
    return S24_ERR_ARG;
  }
  return cycles_dense(hw, w, m_rows, k, batch, s24_linear_job_tiles(hw, epi_depth), epi_lanes,
                      out);
}

s24_status_t s24_gemm_cycles_compressed(s24_array_t hw, s24_pattern_t p, const int8_t *values,
                                        const uint8_t *meta, size_t m_rows, size_t k,
                                        size_t n_cols, s24_gemm_cycles_t *out,
                                        s24_where_t *where) {
  if (!s24_array_ok(hw) || !s24_pattern_ok(p) || values == NULL || meta == NULL ||
      m_rows == 0 || k == 0 || k % p.m != 0 || n_cols == 0 || out == NULL) {
    return S24_ERR_ARG;
  }
  s24_where_t dummy;
  if (where == NULL) where = &dummy;
  s24_status_t st = s24_meta_validate(p, meta, m_rows, k, where);
  if (st != S24_OK) return st;
  // the whole matrix decompressed: THE mode rule (s24_pair_choose) looks at all of it
  if (m_rows > SIZE_MAX / k) return S24_ERR_NOMEM;
  int8_t *dense = malloc(m_rows * k);
  if (dense == NULL) return S24_ERR_NOMEM;
  st = s24_decompress(p, values, meta, m_rows, k, dense, where);
  if (st == S24_OK) st = cycles_dense(hw, dense, m_rows, k, n_cols, SIZE_MAX, 0, out);
  free(dense);
  return st;
}

s24_status_t s24_gemm_cycles_shape(s24_array_t hw, s24_pattern_t data, size_t m_rows, size_t k,
                                   size_t n_cols, s24_gemm_cycles_t *out) {
  if (!s24_array_ok(hw) || !s24_pattern_ok(data) || m_rows == 0 || k == 0 || n_cols == 0 ||
      out == NULL) {
    return S24_ERR_ARG;
  }
  const size_t hm = hw.sparse_m, groups = ceil_div(k, hm);
  uint64_t beats = 0;  // every row tile has at least one row: the same beats for all
  for (size_t g = 0; g < groups; g++) {
    const size_t len = (k - g * hm < hm) ? k - g * hm : hm;
    // the window starts at a multiple of hm; both m and hm are powers of two, so the window
    // holds whole data groups (the last one possibly cut short by K: at most its length in
    // nonzeros), or lies inside one data group (data m > hm)
    size_t worst = 0;
    if (data.m <= hm) {
      for (size_t e = 0; e < len; e += data.m) {
        const size_t dl = (len - e < data.m) ? len - e : data.m;
        worst += (data.n < dl) ? data.n : dl;
      }
    } else {
      worst = (data.n < len) ? data.n : len;
    }
    beats += s24_group_beats(hw, (uint32_t)worst);
  }
  // THE mode rule (s24_pair_choose) for this data: it fits the pair mode when every hardware
  // group holds at most one nonzero (1:m with data m >= hw m), and every row tile of either
  // mode then has the same beats (one per group)
  int pair = 0;
  s24_array_t ph;
  if (data.n == 1 && data.m >= hm && s24_array_pair(hw, &ph) == S24_OK) {
    s24_cycles_t own, paired;
    if (s24_core_cycles_hw(hw, beats, 2, &own) != S24_OK ||
        s24_core_cycles_hw(ph, beats, 2, &paired) != S24_OK) {
      return S24_ERR_ARG;
    }
    pair = (uint64_t)ceil_div(m_rows, ph.rows) * paired.period <
           (uint64_t)ceil_div(m_rows, hw.rows) * own.period;
    if (pair) hw = ph;
  }
  s24_gemm_cycles_t t;
  s24_status_t st = start_totals(hw, n_cols, &t);
  if (st == S24_OK && beats > UINT32_MAX) st = S24_ERR_UNSUPPORTED;
  if (st != S24_OK) return st;
  t.pair = (uint64_t)pair;
  // every row tile has the same beats: jobs as long as the cap allows (s24_plan_next_job's
  // rule for equal beats), without materializing the row tiles
  const uint64_t cap = s24_job_max_row_tiles(hw, beats, t.col_tiles);
  if (cap == 0) return S24_ERR_ARG;
  const size_t tiles = ceil_div(m_rows, hw.rows);
  for (size_t first = 0; first < tiles && st == S24_OK;) {
    const size_t n = (tiles - first < cap) ? tiles - first : (size_t)cap;
    st = add_job(hw, beats, n, 0, &t);
    first += n;
  }
  if (st == S24_OK) *out = t;
  return st;
}
