// SPDX-License-Identifier: Apache-2.0
// sparse24 golden model: the array and its job planner. The core's job formula (busy cycles of
// one s24_core job with ideal streams, docs/architecture.md §3), the array parameters and their
// pair mode, and THE rules by which a GEMM becomes hardware jobs: the beats of each row tile
// (s24_plan_row_tile), the row tiles of each job (s24_plan_next_job), the pair-mode choice
// (s24_pair_choose). The driver packs and runs its jobs with them and the cycle model
// (s24_cycles.h) predicts with them, so prediction and hardware cannot drift apart. Depends on
// nothing but the base header: the beat layout (s24_layout.h) and the predictors sit above it.
#ifndef S24_PLAN_H_
#define S24_PLAN_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Fixed pipeline cycles of an s24_core job beyond beats + rows + cols (docs/architecture.md §3):
 *  start_i in cycle 0; the start register (cycle 1, busy), the input register slice and the
 *  input FIFO put the first beat into the injection register in cycle 4; then 7 PE stages
 *  (hop, select, 3 multiplier, sum, accumulate; one hop is counted in rows + cols), 2 drain
 *  (row flag, drain register) and 2 result buffer (RAM, output register): row r of tile i is
 *  valid in cycle i*P + beats + r + cols + 13, and busy counts cycles 1 .. the last row's.
 *  The one statement of this constant. */
#define S24_CORE_PIPE_CYCLES 13u

/** Cycle model of one s24_core job with ideal streams (docs/architecture.md §3). */
typedef struct {
  uint64_t period;       /**< P = max(beats, rows, cols): cycles between tile starts */
  uint64_t busy_cycles;  /**< cnt_cycles_o = (tiles - 1) * P + beats + rows + cols + S24_CORE_PIPE_CYCLES */
  uint64_t mac_beats;    /**< cnt_beats_o = tiles * beats */
} s24_cycles_t;

/** Fills *out for a job of `tiles` tiles of `beats` beats on a rows x cols core.
 *  S24_ERR_ARG for a zero argument, S24_ERR_NOMEM if the counts overflow 64 bits. */
S24_WARN_UNUSED s24_status_t s24_core_cycles(uint32_t rows, uint32_t cols, uint64_t beats,
                                             uint64_t tiles, s24_cycles_t *out);

/** The hardware parameters the GEMM cycle model needs (HW_ARRAY register of s24_top), or the
 *  array a job sees in pair mode (CFG_MODE.PAIR, docs/architecture.md section 1): a 2:m core of
 *  R x C PEs then runs as {2R, C, 1, m, pair = 1} (s24_array_pair), a tile of 2R rows, row 2r + s
 *  in slot s of PE row r, so the beat layout of s24_layout.h is unchanged. */
typedef struct {
  uint32_t rows;      /**< NumRows (R); pair mode: 2R */
  uint32_t cols;      /**< NumCols (C) */
  uint32_t sparse_n;  /**< SparseN: multipliers per PE, kept values per hardware group; pair: 1 */
  uint32_t sparse_m;  /**< SparseM: k per hardware group (2, 4 or 8) */
  uint32_t pair;      /**< 0: as built; 1: the pair mode of a 2:m core (rows = 2R, sparse_n = 1;
                           tile period at least R + C, s24_core_cycles_hw) */
  uint32_t has_pair;  /**< with pair == 0: 1 if the build has the pair mode (CFG_MODE.PAIR reads
                           back 1), so the planner runs 1:m weights in it (s24_pair_fits) */
} s24_array_t;

/** Busy cycles of one job on hw (s24_core_cycles of hw.rows, hw.cols; in pair mode the tile
 *  period is also at least hw.rows / 2 + hw.cols: P = max(beats, 2R, R + C)). */
S24_WARN_UNUSED s24_status_t s24_core_cycles_hw(s24_array_t hw, uint64_t beats, uint64_t tiles,
                                                s24_cycles_t *out);

/** Busy cycles a job must stay below: the CNT_* registers are 32 bits. */
#define S24_JOB_CYCLES_LIMIT (1ull << 31)

/** Column tiles a feeder that alternates between sending tiles and reading results must keep
 *  queued ahead of the result tile it waits for, so that an s24_core job never waits for input
 *  (a performance setting only: the core drains its results whatever the inputs do, so any
 *  window >= 1 completes). The last result row of a tile leaves rows + cols +
 *  S24_CORE_PIPE_CYCLES cycles after the tile's first beat at G = P, while later tiles start
 *  every max(beats, rows, cols) cycles: 1 + ceil((rows + cols + S24_CORE_PIPE_CYCLES) /
 *  max(rows, cols)), covering every beat count (8x8: 5; 4x4: 6). 0 for a zero argument. */
uint32_t s24_feed_window_tiles(uint32_t rows, uint32_t cols);

/** 1 if the array parameters are ones the core supports: rows, cols >= 1,
 *  sparse_m in {2, 4, 8}, 1 <= sparse_n <= sparse_m. */
int s24_array_ok(s24_array_t hw);

/** 1 if hw (as built: pair == 0) is a 2:m core (SparseN == 2 < SparseM) built with the pair
 *  mode (has_pair; on a device: CFG_MODE.PAIR reads back 1). */
int s24_array_has_pair(s24_array_t hw);
/** The array a pair-mode job sees on the 2:m core hw: {2R, C, 1, m, 1}; S24_ERR_ARG if hw has no
 *  pair geometry. Its beats are the core's own (R*2 slots), row 2r + s in slot s of row r. */
S24_WARN_UNUSED s24_status_t s24_array_pair(s24_array_t hw, s24_array_t *out);
/** 1 when the dense m_rows x k matrix a can run in pair mode on hw: s24_array_has_pair and
 *  every hardware group of sparse_m along k of every row holds at most one nonzero (1:4 and
 *  1:8 data on a 2:4 core). */
int s24_pair_fits(s24_array_t hw, const int8_t *a, size_t m_rows, size_t k);
/** THE mode rule: 1 when a runs in pair mode on hw: s24_pair_fits, and the sum over its row
 *  tiles of their tile periods (one column tile's busy cycles, s24_plan_row_tile and
 *  s24_core_cycles_hw) is smaller in pair mode than in the core's own (so a single row tile,
 *  M <= R, stays in the core's mode). The driver packs weights for s24_array_pair(hw) when it
 *  holds, and every predictor (s24_gemm_cycles_*) uses the same rule. */
int s24_pair_choose(s24_array_t hw, const int8_t *a, size_t m_rows, size_t k);

/** THE beats-per-group rule (the driver packs weights with it): a hardware group whose
 *  densest row (within the row tile) has max_nnz nonzeros takes ceil(max_nnz / sparse_n)
 *  beats that share one activation beat; 0 beats when the group is all zero. */
uint32_t s24_group_beats(s24_array_t hw, uint32_t max_nnz);

/** Plans row tile `tile` of the dense m_rows x k matrix a (rows tile*rows ...; k any >= 1;
 *  hardware groups of sparse_m along k, the last one zero-padded): bpg[g] (may be NULL;
 *  ceil(k / sparse_m) entries) = s24_group_beats of group g, *job_beats = their sum =
 *  CFG_BEATS of that job. A row tile that is all zero still takes one beat: bpg[0] = 1.
 *  S24_ERR_ARG for bad arguments or tile >= ceil(m_rows / rows). */
S24_WARN_UNUSED s24_status_t s24_plan_row_tile(s24_array_t hw, const int8_t *a, size_t m_rows,
                                               size_t k, size_t tile, uint8_t *bpg,
                                               uint64_t *job_beats);

/** THE job-size cap: the most row tiles of `beats` beats each (1 <= beats <= 2^32 - 1) that one
 *  job may hold when every row tile has col_tiles column tiles: the largest r with
 *  r * col_tiles <= 2^32 - 1 (CFG_TILES is 32 bits) and busy cycles of r * col_tiles tiles
 *  (s24_core_cycles) < S24_JOB_CYCLES_LIMIT; at least 1 (a single row tile always runs as
 *  one job, as it must). 0 for a bad argument (hw not s24_array_ok, beats or col_tiles 0). */
uint64_t s24_job_max_row_tiles(s24_array_t hw, uint64_t beats, uint64_t col_tiles);

/** THE job-planning rule, used by the driver and by every s24_gemm_cycles_* predictor: the
 *  job that starts at row tile tile_beats[0] covers the maximal run of consecutive row tiles
 *  with the same CFG_BEATS, capped by s24_job_max_row_tiles. tile_beats[i] = CFG_BEATS of row
 *  tile i (s24_plan_row_tile), count = row tiles left (>= 1). Returns the job's row tiles
 *  (1 .. count); 0 for a bad argument. */
size_t s24_plan_next_job(s24_array_t hw, const uint64_t *tile_beats, size_t count,
                         uint64_t col_tiles);

/** THE fused layer's job cap: the most row tiles one s24_linear job may hold, so that its
 *  output channels fit the epilogue's parameter RAM of epi_depth rows (HW_EPI.DEPTH):
 *  epi_depth / rows (hw the job's array: 2R rows in pair mode). The driver plans a fused layer's jobs with s24_plan_next_job over at most
 *  this many row tiles; s24_linear_cycles predicts with the same rule. 0 for a bad argument. */
size_t s24_linear_job_tiles(s24_array_t hw, uint32_t epi_depth);

/** The same rule over row tiles whose CFG_BEATS come from beats_of(ctx, i) for i in 0 .. count-1
 *  (relative to the job's first row tile): no array of them needed. */
size_t s24_plan_next_job_fn(s24_array_t hw, uint64_t (*beats_of)(const void *ctx, size_t i),
                            const void *ctx, size_t count, uint64_t col_tiles);

#ifdef __cplusplus
}
#endif

#endif  // S24_PLAN_H_
