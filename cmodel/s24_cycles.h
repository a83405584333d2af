// SPDX-License-Identifier: Apache-2.0
// sparse24 golden model: the cycle model's predictors. Exact busy cycles of a GEMM or of the
// fused int8 layer as the host driver runs them, planned with the rules of s24_plan.h; no
// allocation (every working set is bounded and on the stack).
#ifndef S24_CYCLES_H_
#define S24_CYCLES_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_model.h"
#include "s24_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Cycle prediction of one GEMM as the host driver runs it (driver/s24_drv.h; the planner is
 *  in s24_layout.h): row tiles of `rows` rows, each streamed against ceil(N / cols) column
 *  tiles (row tile outer, column tile inner); every maximal run of consecutive row tiles with
 *  equal CFG_BEATS is one hardware job (s24_plan_next_job), CFG_TILES = its row tiles * column
 *  tiles. Sums over the jobs of what the CNT_* registers report with ideal streams. */
typedef struct {
  uint64_t jobs;           /**< hardware jobs (s24_plan_next_job); <= ceil(M / rows) */
  uint64_t col_tiles;      /**< column tiles per row tile = ceil(N / cols) */
  uint64_t job_beats;      /**< sum over the row tiles of their CFG_BEATS */
  uint64_t max_job_beats;  /**< largest CFG_BEATS of a job */
  uint64_t beats;          /**< sum of cnt_beats_o = col_tiles * job_beats */
  uint64_t busy_cycles;    /**< sum of cnt_cycles_o (s24_core_cycles of every job) */
  uint64_t tiles;          /**< sum of CFG_TILES (= CNT_TILES_OUT) = row tiles * col_tiles */
  uint64_t pair;           /**< 1: the GEMM runs in pair mode (s24_pair_choose; its row tiles
                                are s24_array_pair's, 2R rows) */
} s24_gemm_cycles_t;

/** Exact busy cycles of the GEMM (dense A, m_rows x k, any values) times n_cols on hw:
 *  s24_plan_row_tile for every row tile, s24_plan_next_job to group them into jobs,
 *  s24_core_cycles for every job, summed.
 *  S24_ERR_UNSUPPORTED if a job needs more than 2^32 - 1 beats (CFG_BEATS is 32 bits). */
S24_WARN_UNUSED s24_status_t s24_gemm_cycles_dense(s24_array_t hw, const int8_t *a,
                                                   size_t m_rows, size_t k, size_t n_cols,
                                                   s24_gemm_cycles_t *out);

/** The same from the compressed form (pattern p, SPEC §2): validates the metadata first
 *  (S24_ERR_META, *where = row and group, as s24_meta_validate), then decompresses it into
 *  dense (the caller's m_rows x k bytes) and plans as s24_gemm_cycles_dense: equals
 *  s24_gemm_cycles_dense of the decompressed matrix. */
S24_WARN_UNUSED s24_status_t s24_gemm_cycles_compressed(s24_array_t hw, s24_pattern_t p,
                                                        const int8_t *values,
                                                        const uint8_t *meta, size_t m_rows,
                                                        size_t k, size_t n_cols, int8_t *dense,
                                                        s24_gemm_cycles_t *out,
                                                        s24_where_t *where);

/** Shape-only prediction for data of pattern `data` (n:m; n == m is dense) in which every
 *  hardware group of every row tile holds its worst case: some row with
 *  the most nonzeros its window can hold (each data group in it min(n, its length within the
 *  window and K)), so each group takes
 *  s24_group_beats of that (2:4 data on a 2:4 core: 1 beat; dense 4:4: 2 beats); every row
 *  tile then has the same CFG_BEATS, so the jobs are as long as s24_job_max_row_tiles allows.
 *  Exact for such data (e.g. pruned random weights without zero values, when data m <= the
 *  core's m; tests/model/prop_layout.c checks it). For other data of
 *  the pattern, row tiles with fewer beats may split the data's jobs, each extra job paying
 *  its own fill and drain: data-dependent cycles <= shape-only cycles
 *  + max(0, data jobs - shape jobs) * (rows + cols + S24_CORE_PIPE_CYCLES), rows being the tile
 *  rows of the data's mode (2 * hw.rows when it runs in the pair mode). */
S24_WARN_UNUSED s24_status_t s24_gemm_cycles_shape(s24_array_t hw, s24_pattern_t data,
                                                   size_t m_rows, size_t k, size_t n_cols,
                                                   s24_gemm_cycles_t *out);

/** Busy cycles (CNT_CYCLES) of one s24_core job on hw (the job's array: the core as built, whose
 *  has_pair says whether it has the pair mode, or s24_array_pair's for a pair-mode job, 2R-row
 *  tiles) whose results go through the fused epilogue of `lanes` lanes (HW_EPI.LANES;
 *  cols % lanes == 0), fed and read as the driver's s24_linear does with its default in-flight
 *  window; exact. The job ends when the epilogue takes its last row from the core. The
 *  epilogue's row buffer (2^ceil(log2 MaxRows) rows, MaxRows = 2R in a pair-capable build, else
 *  R) is the core's r_ready; it issues one row every cols / lanes cycles while fewer than 4 int8
 *  beats are in flight (13 cycles each). A tile period shorter than that fills the row buffer,
 *  then the core's result buffer, whose credits then delay tiles' last beats; and a tile's int8
 *  beats leave cols / lanes + 13 cycles after its last row, which can starve the array of the
 *  tiles the driver queues only once a tile has been read. Every mechanism is stated in
 *  s24_cycles.c; the model is an event simulation of the result rows,
 *  O(tiles * rows * cols / lanes) time, two small rings on the stack (a core needing more
 *  than 511 result credits or a 32-tile window is S24_ERR_UNSUPPORTED). Equals s24_core_cycles_hw while
 *  the tile period is long enough for all of them. S24_ERR_ARG / S24_ERR_NOMEM as
 *  s24_core_cycles, S24_ERR_NOMEM also if the cycles could overflow. */
S24_WARN_UNUSED s24_status_t s24_core_cycles_epi(s24_array_t hw, uint32_t lanes, uint64_t beats,
                                                 uint64_t tiles, s24_cycles_t *out);

/** Exact busy cycles of the fused int8 layer (SPEC §7) with weights w (m_rows x k, dense int8,
 *  any values) over `batch` rows of X, as the driver's s24_linear runs it on hw with an
 *  epilogue of epi_depth parameter rows and epi_lanes lanes (HW_EPI): the GEMM A = W,
 *  B = X^T (n_cols = batch) planned as s24_gemm_cycles_dense (in pair mode when
 *  s24_pair_choose picks it, as for a GEMM), with at most s24_linear_job_tiles(job array,
 *  epi_depth) row tiles a job, each job's busy cycles
 *  s24_core_cycles_epi. Sums what CNT_CYCLES reports (the epilogue's drain after a job's last
 *  row is in CNT_JOB_CYCLES only). S24_ERR_ARG if epi_depth < rows or lanes do not divide
 *  cols. */
S24_WARN_UNUSED s24_status_t s24_linear_cycles(s24_array_t hw, uint32_t epi_depth,
                                               uint32_t epi_lanes, const int8_t *w,
                                               size_t m_rows, size_t k, size_t batch,
                                               s24_gemm_cycles_t *out);
/** The same for weights packed in the core's own mode only (s24_weights_pack_own): the mode
 *  rule never picks the pair mode. */
S24_WARN_UNUSED s24_status_t s24_linear_cycles_own(s24_array_t hw, uint32_t epi_depth,
                                                   uint32_t epi_lanes, const int8_t *w,
                                                   size_t m_rows, size_t k, size_t batch,
                                                   s24_gemm_cycles_t *out);

#ifdef __cplusplus
}
#endif

#endif  // S24_CYCLES_H_
