// sparse24 golden model: cycle model. s24_core job formula (docs/architecture.md §3, ideal
// streams) and the GEMM cycle model of the host driver (one job per row tile).
#include "s24_model.h"

#include <stdlib.h>
#include <string.h>

s24_status_t s24_core_cycles(uint32_t rows, uint32_t cols, uint64_t beats, uint64_t tiles,
                             s24_cycles_t *out) {
  if (rows == 0 || cols == 0 || beats == 0 || tiles == 0 || out == NULL) return S24_ERR_ARG;
  uint64_t p = beats;
  if (p < rows) p = rows;
  if (p < cols) p = cols;
  const uint64_t fill = beats + (uint64_t)rows + (uint64_t)cols + 5u;  // no overflow: < 2^64
  if (fill < beats || (tiles - 1) > (UINT64_MAX - fill) / p || tiles > UINT64_MAX / beats) {
    return S24_ERR_NOMEM;
  }
  out->period = p;
  out->busy_cycles = (tiles - 1) * p + fill;
  out->mac_beats = tiles * beats;
  return S24_OK;
}

// ------------------------------------------------------------------ GEMM cycle model
// The host driver runs a GEMM as one job per row tile (docs/architecture.md, driver/s24_drv.h).
// The functions below are the single statement of how many beats each job takes; the driver
// packs its weights with s24_plan_row_tile, so prediction and hardware cannot drift apart.

int s24_array_ok(s24_array_t hw) {
  if (hw.rows == 0 || hw.cols == 0) return 0;
  if (hw.sparse_m != 2 && hw.sparse_m != 4 && hw.sparse_m != 8) return 0;
  return hw.sparse_n >= 1 && hw.sparse_n <= hw.sparse_m;
}

uint32_t s24_group_beats(s24_array_t hw, uint32_t max_nnz) {
  if (hw.sparse_n == 0) return 0;
  return (max_nnz + hw.sparse_n - 1) / hw.sparse_n;
}

static size_t ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }

// Tile i+F is queued once the last row of tile i left (cycle i*P + G + R + C + 5) and must be
// taken by cycle (i+F)*P + 1: F*P >= G + R + C + 5 for every G, worst at G = P = max(R, C).
uint32_t s24_feed_window_tiles(uint32_t rows, uint32_t cols) {
  if (rows == 0 || cols == 0) return 0;
  const uint64_t big = rows > cols ? rows : cols;
  return (uint32_t)(1u + ceil_div((size_t)rows + cols + 5u, (size_t)big));
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

// Adds one job of `beats` beats and out->col_tiles tiles to the totals.
static s24_status_t add_job(s24_array_t hw, uint64_t beats, s24_gemm_cycles_t *out) {
  if (beats > UINT32_MAX) return S24_ERR_UNSUPPORTED;  // CFG_BEATS is a 32-bit register
  s24_cycles_t c;
  s24_status_t st = s24_core_cycles(hw.rows, hw.cols, beats, out->col_tiles, &c);
  if (st != S24_OK) return st;
  if (out->busy_cycles > UINT64_MAX - c.busy_cycles || out->beats > UINT64_MAX - c.mac_beats) {
    return S24_ERR_NOMEM;
  }
  out->jobs++;
  out->job_beats += beats;
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

s24_status_t s24_gemm_cycles_dense(s24_array_t hw, const int8_t *a, size_t m_rows, size_t k,
                                   size_t n_cols, s24_gemm_cycles_t *out) {
  if (!s24_array_ok(hw) || a == NULL || m_rows == 0 || k == 0 || n_cols == 0 || out == NULL) {
    return S24_ERR_ARG;
  }
  s24_gemm_cycles_t t;
  s24_status_t st = start_totals(hw, n_cols, &t);
  const size_t tiles = ceil_div(m_rows, hw.rows);
  for (size_t i = 0; i < tiles && st == S24_OK; i++) {
    uint64_t beats = 0;
    st = s24_plan_row_tile(hw, a, m_rows, k, i, NULL, &beats);
    if (st == S24_OK) st = add_job(hw, beats, &t);
  }
  if (st == S24_OK) *out = t;
  return st;
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
  if (k > SIZE_MAX / hw.rows) return S24_ERR_NOMEM;
  int8_t *dense = malloc((size_t)hw.rows * k);  // one row tile at a time
  if (dense == NULL) return S24_ERR_NOMEM;
  const size_t vcols = s24_values_cols(p, k), mcols = s24_meta_cols(p, k);
  s24_gemm_cycles_t t;
  st = start_totals(hw, n_cols, &t);
  const size_t tiles = ceil_div(m_rows, hw.rows);
  for (size_t i = 0; i < tiles && st == S24_OK; i++) {
    const size_t r0 = i * hw.rows;
    const size_t nr = (m_rows - r0 < hw.rows) ? m_rows - r0 : hw.rows;
    st = s24_decompress(p, values + r0 * vcols, meta + r0 * mcols, nr, k, dense, where);
    if (st != S24_OK) {
      where->row += r0;
      break;
    }
    uint64_t beats = 0;
    st = s24_plan_row_tile(hw, dense, nr, k, 0, NULL, &beats);
    if (st == S24_OK) st = add_job(hw, beats, &t);
  }
  free(dense);
  if (st == S24_OK) *out = t;
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
    // the window starts at a multiple of hm; both m and hm are powers of two
    const size_t touched = (data.m <= hm) ? ceil_div(len, data.m) : 1;
    const size_t worst = (data.n * touched < len) ? data.n * touched : len;
    beats += s24_group_beats(hw, (uint32_t)worst);
  }
  s24_gemm_cycles_t t;
  s24_status_t st = start_totals(hw, n_cols, &t);
  const size_t tiles = ceil_div(m_rows, hw.rows);
  if (st == S24_OK) st = add_job(hw, beats, &t);  // one job, then scaled to all of them
  if (st != S24_OK) return st;
  if (tiles - 1 > (UINT64_MAX - t.busy_cycles) / (t.busy_cycles ? t.busy_cycles : 1)) {
    return S24_ERR_NOMEM;
  }
  t.jobs = tiles;
  t.job_beats = beats * tiles;
  t.beats *= tiles;
  t.busy_cycles *= tiles;
  *out = t;
  return S24_OK;
}
