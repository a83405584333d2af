// sparse24 bit-exact golden model: N:M formats, prune, compress, validate, sparse GEMM.
//
// Conventions (SPEC.md): A is M x K int8 row-major, N:M sparse along K; B is K x N int8
// row-major; C is M x N int32 row-major with wraparound. A compressed matrix is
//   values: M x s24_values_cols(p, K) int8   (the n kept values of each group, by index)
//   meta:   M x s24_meta_cols(p, K)   uint8  (log2(m)-bit indices, LSB-first, row-major)
// Every function checks all its arguments before touching any output.
#ifndef S24_MODEL_H_
#define S24_MODEL_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define S24_WARN_UNUSED __attribute__((warn_unused_result))

/** One status enum for the whole project: 0 is success, errors are negative. */
typedef enum {
  S24_OK = 0,
  S24_ERR_ARG = -1,         /**< bad argument (NULL, zero size, K not a multiple of m, ...) */
  S24_ERR_PATTERN = -2,     /**< a dense matrix violates the N:M pattern */
  S24_ERR_META = -3,        /**< invalid metadata (repeated/decreasing/out-of-range index) */
  S24_ERR_IO = -4,          /**< file or stream I/O failed */
  S24_ERR_FORMAT = -5,      /**< malformed file (npy header, dtype, order, shape, size) */
  S24_ERR_NOMEM = -6,       /**< allocation failed or size overflows */
  S24_ERR_TIMEOUT = -7,     /**< hardware did not answer in time */
  S24_ERR_HW = -8,          /**< hardware reported an error */
  S24_ERR_UNSUPPORTED = -9, /**< valid request this build or backend cannot do */
} s24_status_t;

/** A static, human-readable description of a status. Never NULL. */
const char *s24_strerror(s24_status_t status);
/** Formats one message line into err (when err != NULL and errlen > 0) and returns st: the one
 *  way every reader and front end reports "what and where" with a status. */
s24_status_t s24_errorf(s24_status_t st, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** An N:M pattern: at most n nonzeros in every aligned group of m along K. */
typedef struct {
  uint32_t n;
  uint32_t m;
} s24_pattern_t;

/** Where a check failed: row, group (along K) and nonzero count or offending slot. */
typedef struct {
  size_t row;
  size_t group;
  uint32_t count;
} s24_where_t;

/** s24_where_t.count of an S24_ERR_META caused by nonzero unused bits after the last index
 *  of a row (group is then the row's last group); otherwise count is the slot in the group. */
#define S24_WHERE_PADDING UINT32_MAX

/** splitmix64, the project's one deterministic generator (tests, demo, bench): returns the
 *  next 64-bit value and advances *state. Same sequence on every platform. */
uint64_t s24_rng_next(uint64_t *state);

/** Supported patterns: m in {4, 8} and 1 <= n < m (also m == 2, 1 <= n <= m for hw use). */
int s24_pattern_ok(s24_pattern_t p);
/** Parses "N:M" (e.g. "2:4"). */
S24_WARN_UNUSED s24_status_t s24_pattern_parse(const char *text, s24_pattern_t *p);
/** log2(m): bits of one index. */
uint32_t s24_idx_bits(s24_pattern_t p);
/** Columns of the values matrix for reduction length k: (k/m)*n. */
size_t s24_values_cols(s24_pattern_t p, size_t k);
/** Bytes per row of metadata for reduction length k: ceil((k/m)*n*log2(m)/8). */
size_t s24_meta_cols(s24_pattern_t p, size_t k);
/** Index of kept value `slot` (0 .. (k/m)*n - 1) of one metadata row. */
uint32_t s24_meta_get(s24_pattern_t p, const uint8_t *meta_row, size_t slot);

/** SPEC §3: keep the n largest magnitudes of each group (ties: lower index). out may == a. */
S24_WARN_UNUSED s24_status_t s24_prune(s24_pattern_t p, const int8_t *a, size_t rows,
                                       size_t k, int8_t *out);
/** S24_ERR_PATTERN with *where = first (row, group, nonzero count) over n. */
S24_WARN_UNUSED s24_status_t s24_check_pattern(s24_pattern_t p, const int8_t *a, size_t rows,
                                               size_t k, s24_where_t *where);
/** Canonical compression (SPEC §2 padding convention). Checks the pattern first. */
S24_WARN_UNUSED s24_status_t s24_compress(s24_pattern_t p, const int8_t *a, size_t rows,
                                          size_t k, int8_t *values, uint8_t *meta,
                                          s24_where_t *where);
/** S24_ERR_META with *where = first (row, group) whose indices are not strictly increasing
 *  and < m, or whose unused trailing metadata bits are not zero. */
S24_WARN_UNUSED s24_status_t s24_meta_validate(s24_pattern_t p, const uint8_t *meta,
                                               size_t rows, size_t k, s24_where_t *where);
/** Validates the metadata, then scatters values back to a dense rows x k matrix. */
S24_WARN_UNUSED s24_status_t s24_decompress(s24_pattern_t p, const int8_t *values,
                                            const uint8_t *meta, size_t rows, size_t k,
                                            int8_t *out, s24_where_t *where);

/** C = A*B (+ C0), computed from the compressed form the way the hardware does it: each
 *  kept value selects its B row by its index. c0 may be NULL; c may == c0. Validates meta. */
S24_WARN_UNUSED s24_status_t s24_gemm_sparse(s24_pattern_t p, const int8_t *values,
                                             const uint8_t *meta, size_t m_rows, size_t k,
                                             const int8_t *b, size_t n_cols,
                                             const int32_t *c0, int32_t *c,
                                             s24_where_t *where);
/** Independent plain dense reference: C = A*B (+ C0) with int32 wraparound. */
S24_WARN_UNUSED s24_status_t s24_gemm_dense_ref(const int8_t *a, size_t m_rows, size_t k,
                                                const int8_t *b, size_t n_cols,
                                                const int32_t *c0, int32_t *c);

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

/** Exact busy cycles of the GEMM (dense A, m_rows x k, any values) times n_cols on hw:
 *  s24_plan_row_tile for every row tile, s24_plan_next_job to group them into jobs,
 *  s24_core_cycles for every job, summed.
 *  S24_ERR_UNSUPPORTED if a job needs more than 2^32 - 1 beats (CFG_BEATS is 32 bits). */
S24_WARN_UNUSED s24_status_t s24_gemm_cycles_dense(s24_array_t hw, const int8_t *a,
                                                   size_t m_rows, size_t k, size_t n_cols,
                                                   s24_gemm_cycles_t *out);

/** The same from the compressed form (pattern p, SPEC §2): validates the metadata first
 *  (S24_ERR_META, *where = row and group, as s24_meta_validate), then plans each row tile
 *  from its decompressed rows, then the jobs as there. Equals s24_gemm_cycles_dense of the
 *  decompressed matrix. */
S24_WARN_UNUSED s24_status_t s24_gemm_cycles_compressed(s24_array_t hw, s24_pattern_t p,
                                                        const int8_t *values,
                                                        const uint8_t *meta, size_t m_rows,
                                                        size_t k, size_t n_cols,
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
 *  O(tiles * rows * cols / lanes) time, two small allocations. Equals s24_core_cycles_hw while
 *  the tile period is long enough for all of them. S24_ERR_ARG / S24_ERR_NOMEM as
 *  s24_core_cycles, S24_ERR_NOMEM also if an allocation fails or the cycles could overflow. */
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

/* ---- Fused int8 layer (SPEC §7: TFLite int8 FULLY_CONNECTED, per-channel) -------------- */

/** The requantization's rounding (CFG_EPI.ROUND, docs/architecture.md §4), per layer. With
 *  t = 31 - SHIFT, p = acc * MULT (exact) and floor divisions:
 *  - S24_ROUND_SINGLE: floor((p + 2^(t-1)) / 2^t), SPEC §7: TFLite's single-rounding
 *    MultiplyByQuantizedMultiplier, as LiteRT's reference FULLY_CONNECTED computes it;
 *  - S24_ROUND_DOUBLE: gemmlowp's RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(
 *    acc * 2^max(SHIFT, 0), MULT), max(-SHIFT, 0)) with the int32 product acc * 2^SHIFT wrapping,
 *    as LiteRT's reference CONV_2D computes it; in closed form: SHIFT > 0: x = acc * 2^SHIFT
 *    modulo 2^32 as int32, floor((x * MULT + 2^30) / 2^31); SHIFT = 0: as single; SHIFT < 0:
 *    floor((p + 2^30 + 2^(t-1) - 2^31 * [p < -2^30]) / 2^t). Differs from single by at most 1. */
typedef enum {
  S24_ROUND_SINGLE = 0,
  S24_ROUND_DOUBLE = 1,
} s24_round_t;

/** 1 when ZI, ZO, ACT_MIN, ACT_MAX are in [-128, 127], ACT_MIN <= ACT_MAX and every MULT in
 *  [0, 2^31), SHIFT in [-31, 30]; otherwise 0 with *bad_row (if not NULL) = the first bad
 *  channel, SIZE_MAX for a zero point or a clamp bound. */
int s24_linear_params_ok(const int32_t *mult, const int32_t *shift, size_t m_rows, int32_t zi,
                         int32_t zo, int32_t act_min, int32_t act_max, size_t *bad_row);
/** One output: clamp(r + zo, act_min, act_max) with r = ((acc*mult + 2^(t-1)) >> t),
 *  t = 31 - shift (64-bit product, floor shift) for S24_ROUND_SINGLE, gemmlowp's double rounding
 *  for S24_ROUND_DOUBLE (s24_round_t). [act_min, act_max] is the int8 range of the fused
 *  activation (TFLite's CalculateActivationRangeQuantized): -128..127 none, max(-128, zo)..127
 *  ReLU, and RELU6 / RELU_N1_TO_1 from the output scale. Parameters in range
 *  (s24_linear_params_ok; a round other than the two is taken as single). */
int8_t s24_requant(int32_t acc, int32_t mult, int32_t shift, int32_t zo, int32_t act_min,
                   int32_t act_max, s24_round_t round);
/** The bias the hardware adds: bias - zi * sum_k w_row[k], modulo 2^32 (the input zero point
 *  folded in: sum_k w*(x - zi) + bias == sum_k w*x + this, in int32 wraparound). */
uint32_t s24_linear_fold_bias(const int8_t *w_row, size_t k, int32_t bias, int32_t zi);
/** Y[b][m] (batch x m_rows int8) of SPEC §7 for X (batch x k int8), W (m_rows x k int8, any
 *  values), bias (m_rows int32 or NULL = zeros), mult, shift (m_rows), requantized with the
 *  given rounding (s24_requant). S24_ERR_ARG for a NULL, a zero size, a parameter out of range
 *  (s24_linear_params_ok) or a round that is not an s24_round_t. */
S24_WARN_UNUSED s24_status_t s24_linear_ref(const int8_t *x, size_t batch, const int8_t *w,
                                            size_t m_rows, size_t k, const int32_t *bias,
                                            const int32_t *mult, const int32_t *shift,
                                            int32_t zi, int32_t zo, int32_t act_min,
                                            int32_t act_max, s24_round_t round, int8_t *y);

#ifdef __cplusplus
}
#endif

#endif  // S24_MODEL_H_
