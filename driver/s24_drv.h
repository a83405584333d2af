// SPDX-License-Identifier: Apache-2.0
// sparse24 host driver: talks to s24_top through one seam (registers + streams).
//
// Freestanding C11: it allocates nothing (weights are packed into memory the caller gives,
// s24_weights_bytes / s24_weights_pack; the beats of a job are staged in the seam's scratch) and
// does no I/O but through the seam, so the same code builds for a host and for a bare-metal
// soft CPU. The driver never touches hardware directly. A platform fills an s24_seam_t:
//   - s24_cosim_*  (sim/s24_cosim.h)   : the Verilated RTL, simulated clock;
//   - s24_swdev_*  (sim/s24_swdev.h)   : a software device built on the C model's arithmetic;
//   - s24_uio_*    (driver/linux/s24_uio.h): mmap of /dev/uioN on a Linux board (untested on
//                                        hardware);
//   - s24_mmio_*   (driver/baremetal/s24_mmio.h): registers by MMIO and streams by the
//                                        platform's DMA, for firmware beside the IP;
//   - a cmocka mock in tests/driver/.
// The same driver code runs on all of them. On a hosted system, driver/host/s24_drv_host.h adds
// the conveniences that allocate (s24_weights_load, s24_gemm_compressed, a growing scratch).
//
// Typical use (freestanding):
//   s24_dev_t dev;  s24_weights_t w;
//   s24_dev_open(&dev, &seam);                         // checks ID/version, reads HW params
//   s24_weights_bytes(&dev, A, M, K, &bytes);          // then bytes of 16-byte-aligned memory
//   s24_weights_pack(&dev, A, M, K, mem, bytes, &w);   // packed once, run many times
//   s24_gemm(&dev, &w, B, N, C0_or_NULL, C);           // any M, N, K: tiling/padding inside
//   s24_dev_counters(&dev, &cnt);                      // hardware counters of that GEMM
//   s24_dev_close(&dev);
//
// How a GEMM maps to hardware (docs/architecture.md): A is cut into row tiles of NumRows rows,
// B into column tiles of NumCols columns, K into hardware groups of SparseM (zero-padded at the
// end). Tiles run row tile outer, column tile inner; one hardware job covers a maximal run of
// consecutive row tiles with equal beats (s24_layout.h s24_plan_next_job, capped so that CFG_TILES
// fits 32 bits and the job's busy cycles stay below 2^31): CFG_TILES = its row tiles x column
// tiles, CFG_BEATS = the beats of each of its row tiles. Group g of a row tile takes
// ceil(max nonzeros of its rows / SparseN) beats that share one activation beat (0 beats when all
// its rows are zero there, but at least one beat per tile), so 2:4, 1:4, 2:8 matrices take one
// beat per group on a 2:4 core, 4:8 or dense ones up to two. Padding rows/columns are zeros; results outside M x N are dropped; C0 is added on the host
// with int32 wraparound.
#ifndef S24_DRV_H_
#define S24_DRV_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_layout.h"
#include "s24_model.h"
#include "s24_plan.h"
#include "s24_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Stream ports of s24_top. */
typedef enum {
  S24_PORT_W = 0, /**< s_axis_w: weights + metadata (in) */
  S24_PORT_A = 1, /**< s_axis_a: activations (in) */
  S24_PORT_R = 2, /**< m_axis_r: results (out) */
} s24_port_t;

/** One fused convolution job, whole, for a seam's stream_job (s24_seam_t): its row tiles
 *  0 .. row_tiles-1, each against every column tile 0 .. col_tiles-1 of src's output positions,
 *  row tile outer (tile k = row tile k / col_tiles, column tile k % col_tiles: CFG_TILES' order).
 *  Tile (i, j) takes row tile i's `beats` weight beats (w + i*beats*w_words, in memory the seam
 *  may DMA from, unchanged during the call), the activation beats stream_conv would send for
 *  column j*cols (group g's beat reps[i*groups + g] times; the counts of a row tile add up to
 *  `beats`), and gives s24_r8_beats(rows) result beats, TLAST on the last (else S24_ERR_HW),
 *  which go to Y as s24_r8_tile puts them: at y + j*cols*ldy + i*rows, cut at m_rows rows and
 *  n_cols columns. */
typedef struct {
  const s24_geom_t *g;         /**< the beat geometry of the job's mode */
  const s24_conv_src_t *src;   /**< the convolution's input (stream_conv's) */
  /** As stream_conv's: src->x may have changed since the last call. 0 also says that Y is the
   *  previous job's and nothing but the device and the seam wrote it since (a later job of one
   *  layer, a depthwise layer's later slice: s24_conv_src_t.x_seen), so a seam that writes Y
   *  behind the caches prepares all of Y's rows (ldy bytes each) on a job with fresh set, or
   *  after it gave results to the CPU to store. */
  int fresh;
  const uint32_t *w;           /**< the job's weight beats, row tile after row tile */
  size_t w_words, beats;       /**< words a weight beat, beats a tile */
  const uint8_t *reps;         /**< row_tiles x groups beat counts */
  size_t groups, row_tiles, col_tiles;
  uint32_t rows, cols, r_words;  /**< a tile's rows (2*NumRows in pair mode) and columns; the
                                      words of a result beat */
  size_t m_rows, n_cols;       /**< Y's rows (from the job's first) and columns */
  /** Y, written only by the seam during the call; a seam may write it behind the CPU's caches
   *  (a DMA), so nothing else the CPU writes during the call may share Y's cache lines */
  int8_t *y;
  size_t ldy;
  uint64_t timeout_ns;         /**< the longest the hardware may go without progress */
  /** START: called once, after the first tile's beats are queued, or as many of them as the
   *  seam's queues hold (the core takes none before START) */
  s24_status_t (*start)(void *arg);
  void *start_arg;
  /** The job's first output row (of the layer): row tile i reads src's channel window of
   *  output row row0 + i*rows (s24_conv_c0; src->gr is 0 or a multiple of rows) */
  size_t row0;
} s24_seam_job_t;

/** The one way the driver reaches hardware. A beat is `words` 32-bit words, bit i of the
 *  beat's TDATA in word i/32, bit i%32. Every function returns S24_OK or an error. */
typedef struct {
  void *ctx;
  /** AXI4-Lite read; an SLVERR/DECERR response is S24_ERR_HW. */
  s24_status_t (*read32)(void *ctx, uint32_t addr, uint32_t *value);
  /** AXI4-Lite write; an SLVERR/DECERR response is S24_ERR_HW. */
  s24_status_t (*write32)(void *ctx, uint32_t addr, uint32_t value);
  /** Sends n beats on an input port as one packet, TLAST on its last beat. May return once the
   *  beats are queued (before the hardware took them). */
  s24_status_t (*stream_write)(void *ctx, s24_port_t port, const uint32_t *beats,
                               size_t words, size_t n);
  /** Receives exactly n beats from S24_PORT_R; last[i] (if last != NULL) gets beat i's TLAST.
   *  Gives up with S24_ERR_TIMEOUT after timeout_ns of hardware time without them (a seam that
   *  feeds the hardware from its own backlog while it waits counts from its last progress). */
  s24_status_t (*stream_read)(void *ctx, s24_port_t port, uint32_t *beats, size_t words,
                              size_t n, uint8_t *last, uint64_t timeout_ns);
  /** Drops every beat queued towards the hardware and every result not yet read (called with
   *  the soft reset, so a failed job leaves nothing behind). */
  s24_status_t (*stream_reset)(void *ctx);
  /** Monotonic hardware time in ns (simulated time in co-simulation); drives every timeout. */
  uint64_t (*now_ns)(void *ctx);
  /** Memory the driver stages a job's beats in: at least `bytes` bytes, 16-byte aligned, that
   *  the streams can read (DMA), owned by the seam and valid until the next call or the seam's
   *  close (contents are not kept across calls). NULL if the seam has none that large
   *  (S24_ERR_NOMEM). Beats the driver passes to stream_write from here stay untouched until
   *  the results of their tile have been read, so a seam may stream them in place; a seam that
   *  can give memory up front (s24_gemm_scratch_bytes) lets the driver run without allocating. */
  void *(*scratch)(void *ctx, size_t bytes);
  /** Optional (NULL: the driver builds every activation beat itself). Sends on S24_PORT_A, as
   *  one packet with TLAST on its last beat, the activation beats of a convolution's column
   *  tile from column j0 for the beat geometry g, of the row tile whose first output row is
   *  `row` (its channel window: s24_conv_c0(src, row)): group i's beat (s24_a_beats_conv of
   *  that window) reps[i] times, i < groups, built by the platform from src's input where it
   *  lies (a fetch unit in
   *  front of the stream). `fresh`: src->x may have changed since the last call (the platform
   *  makes it visible to its DMA first). S24_ERR_UNSUPPORTED when it cannot for this source
   *  or geometry (nothing sent: the driver then builds the beats). Queues like stream_write. */
  s24_status_t (*stream_conv)(void *ctx, const s24_geom_t *g, const s24_conv_src_t *src,
                              size_t row, size_t j0, size_t groups, const uint8_t *reps,
                              int fresh);
  /** With stream_conv: the multiple of channels it reads (an input whose channels, or channel
   *  window, are not multiples of it is refused there and built by the driver). A caller may pad
   *  an input's channels to it (s24_dev_conv_channels). 0 or 1: any. */
  uint32_t conv_channels;
  /** Optional (NULL: the driver streams a job tile by tile). Streams one fused convolution job
   *  whole (s24_seam_job_t), calling its start once, and returns when every result is in Y: one
   *  call a job instead of three a tile, for a seam whose per-call cost matters (a soft CPU).
   *  S24_ERR_UNSUPPORTED, before anything is sent or started, when it cannot take this job (the
   *  driver then streams it tile by tile). On another error the driver resets the device and
   *  the streams (stream_reset). */
  s24_status_t (*stream_job)(void *ctx, const s24_seam_job_t *job);
  /** Optional (NULL: none). An elementwise ADD / SUB (s24_add_job_t) by an add unit beside the
   *  IP, reading x, y and the tables where they lie and writing z; returns when z is written,
   *  S24_ERR_TIMEOUT after timeout_ns of hardware time without it (the unit then stopped).
   *  S24_ERR_UNSUPPORTED, with nothing started, when it cannot take this job. */
  s24_status_t (*stream_add)(void *ctx, const s24_add_job_t *job, uint64_t timeout_ns);
  /** Optional (NULL: none). Called before the CPU reads or writes tensors the seam's DMA may
   *  read or write (a host operator, a copy): a seam that keeps track of which memory its DMA
   *  left out of the CPU's caches forgets it. */
  void (*cpu_touch)(void *ctx);
  /** Optional (NULL: none). A FLOAT32 -> int8 QUANTIZE (s24_quant_job_t) by a quantize unit
   *  beside the IP, reading x and the thresholds where they lie and writing y; returns when y is
   *  written, *done the elements from the first it computed (those before the first element
   *  outside the table's domain; the caller computes the rest), S24_ERR_TIMEOUT after
   *  timeout_ns of hardware time without it (the unit then stopped). S24_ERR_UNSUPPORTED, with
   *  nothing started, when it cannot take this job. */
  s24_status_t (*stream_quant)(void *ctx, const s24_quant_job_t *job, size_t *done,
                               uint64_t timeout_ns);
  /** Optional (NULL: write32 a word). AXI4-Lite writes of n words in order, word i to register
   *  addr[i % n_addr] (a parameter RAM's data registers, loaded a row at a time): what n
   *  write32 calls do, for a seam whose per-call cost matters (a soft CPU). */
  s24_status_t (*write32_burst)(void *ctx, const uint32_t *addr, size_t n_addr,
                                const uint32_t *value, size_t n);
} s24_seam_t;

/** Build parameters read from the HW_* registers. */
typedef struct {
  uint32_t version;     /**< VERSION register */
  uint32_t rows;        /**< NumRows */
  uint32_t cols;        /**< NumCols */
  uint32_t sparse_n;    /**< SparseN */
  uint32_t sparse_m;    /**< SparseM */
  uint32_t data_width;  /**< 8 */
  uint32_t acc_width;   /**< 32 */
  uint32_t idx_width;   /**< log2(SparseM), 0 for a dense core */
  uint32_t w_words;     /**< 32-bit words per stream beat */
  uint32_t a_words;
  uint32_t r_words;
  uint32_t epi_depth;   /**< HW_EPI.DEPTH: parameter RAM rows of the fused epilogue (read by the
                             first s24_linear; 0 until then) */
  uint32_t epi_lanes;   /**< HW_EPI.LANES */
  uint32_t pair;        /**< 1: the build has the pair mode (CFG_MODE.PAIR reads back 1, probed
                             by s24_dev_open): 1:m weights run as tiles of 2 x NumRows rows */
} s24_hw_info_t;

/** Hardware counters summed over the jobs of the last s24_gemm (CNT_* registers). */
typedef struct {
  uint64_t cycles;      /**< cycles busy */
  uint64_t beats;       /**< array steps (one weight + one activation beat each) */
  uint64_t stall_w;     /**< cycles waiting on the weight stream */
  uint64_t stall_a;     /**< ... on the activation stream */
  uint64_t stall_r;     /**< ... on result backpressure */
  uint64_t tiles;       /**< result tiles (row tiles x column tiles) */
  uint64_t jobs;        /**< hardware jobs (one per run of consecutive row tiles with equal
                             beats, s24_plan_next_job; == s24_gemm_cycles_t.jobs) */
  uint64_t macs_dense;  /**< M*N*K: dense-equivalent useful MACs of the GEMM */
  uint64_t job_cycles;  /**< s24_linear only: CNT_JOB_CYCLES, START to the epilogue's last beat
                             (cycles plus the epilogue's drain); 0 after s24_gemm */
  uint64_t pair;        /**< 1: the GEMM ran in pair mode (1:m weights, 2 x NumRows rows a tile) */
} s24_counters_t;

/** A device handle; the caller owns the struct. */
typedef struct {
  s24_seam_t seam;
  s24_hw_info_t hw;
  uint64_t timeout_ns;      /**< every wait on hardware; default S24_DEFAULT_TIMEOUT_NS.
                                 A wait on a started job is further bounded by what the job
                                 can legitimately take: S24_WAIT_MARGIN x its busy cycles from
                                 the cycle model (s24_core_cycles) x cycle_ns, plus
                                 S24_WAIT_SLACK_NS (s24_dev_wait_limit_ns) */
  uint32_t cycle_ns;        /**< clock period those bounds assume; default S24_DEFAULT_CYCLE_NS
                                 (100 MHz, the co-simulation's clock); set it for a board
                                 clocked below 25 MHz */
  uint64_t job_beats;       /**< CFG_BEATS of the job last started (0: none) */
  uint64_t job_tiles;       /**< CFG_TILES of the job last started */
  uint32_t job_pair;        /**< CFG_MODE.PAIR of the job last started */
  size_t inflight_tiles;    /**< tiles sent ahead of the results read (>= 1); a performance
                                 setting only: s24_core drains the results of every tile it
                                 has taken whatever the input streams do, so every window >= 1
                                 completes bit-exact. Default (set by s24_dev_open) the larger of
                                 S24_DEFAULT_INFLIGHT_TILES and s24_feed_window_tiles(rows, cols)
                                 (8x8: 5), with which the core never waits for input and busy
                                 cycles equal the cycle model's */
  s24_counters_t counters;  /**< of the last s24_gemm */
  uint32_t last_err;        /**< ERR bits behind the last S24_ERR_HW (0 if none) */
  int irq_enable;           /**< kept set in CTRL.IRQ_EN by every CTRL write of the driver
                                 (drives irq_o for an interrupt-driven host; the driver
                                 itself polls STATUS). Default 0 */
  int is_open;
} s24_dev_t;

#define S24_DEFAULT_TIMEOUT_NS 1000000000ull /* 1 s of hardware time */
#define S24_DEFAULT_CYCLE_NS 10u             /* 100 MHz */
#define S24_WAIT_MARGIN 4u                   /* x the job's predicted busy cycles */
#define S24_WAIT_SLACK_NS 1000000ull         /* + 1 ms: register traffic, host reads */
#define S24_DEFAULT_INFLIGHT_TILES 4u

/** The per-channel parameters of a fused int8 layer (SPEC §7), m_rows entries each. */
typedef struct {
  const int32_t *bias;   /**< int32 bias, or NULL for zeros */
  const int32_t *mult;   /**< 0 <= MULT < 2^31 */
  const int32_t *shift;  /**< -31 <= SHIFT <= 30 */
  int32_t zi, zo;        /**< input and output zero points, -128 .. 127 */
  /** The int8 output clamp, -128 <= act_min <= act_max <= 127: the fused activation's range as
   *  TFLite's CalculateActivationRangeQuantized gives it (NONE: -128, 127; RELU: max(-128, zo),
   *  127; RELU6, RELU_N1_TO_1: from the output scale). */
  int32_t act_min, act_max;
  /** The requantization's rounding (CFG_EPI.ROUND): S24_ROUND_SINGLE (0, SPEC §7, TFLite
   *  FULLY_CONNECTED) or S24_ROUND_DOUBLE (gemmlowp's, LiteRT's reference CONV_2D); s24_round_t. */
  s24_round_t round;
} s24_linear_params_t;

/** Weights prepared for one device: packed hardware beats of every row tile, in memory the
 *  caller gives (s24_weights_pack) and owns; the struct only points into it. */
typedef struct {
  size_t m_rows;        /**< rows of A */
  size_t k;             /**< reduction length */
  size_t row_tiles;     /**< ceil(m_rows / rows) */
  size_t groups;        /**< ceil(k / sparse_m): hardware groups */
  uint32_t rows, cols, sparse_n, sparse_m, idx_width, w_words, a_words; /**< of the device */
  uint32_t *beats;      /**< all weight beats, row tile by row tile (w_words each) */
  size_t *tile_first;   /**< row_tiles + 1 entries: first beat of each row tile */
  uint8_t *bpg;         /**< row_tiles x groups: beats of each hardware group */
  int32_t *row_sum;     /**< m_rows: sum_k A[m][k] (int32 wraparound), the zero-point term of
                             s24_linear */
  uint32_t pair;        /**< 1: packed for the pair mode (s24_pair_fits: every hardware group of
                             every row at most one nonzero, on a device with it): rows, sparse_n
                             are s24_array_pair's (2 x NumRows, 1) and every job sets
                             CFG_MODE.PAIR */
  const int8_t *dense;  /**< pair only: A itself (m_rows x k, the caller's, not copied), which
                             s24_linear packs again for the core's own mode on a device whose
                             map is older than 1.4 (it refuses fused pair-mode jobs) */
  size_t bytes;         /**< bytes of the memory packed into (s24_weights_bytes) */
  void *own;            /**< the hosted loader's allocation (driver/host), NULL otherwise */
  /** A fused layer's parameter words made once (s24_linear_prepare), or NULL: per row m the
   *  words of EPI_BIAS (the zero-point term folded in), EPI_MULT and EPI_SHIFT, used by a call
   *  whose parameters are epi_prm (the same arrays, unchanged since, and the same values; checked
   *  then, not again), else made again at every job */
  const uint32_t *epi;
  s24_linear_params_t epi_prm;
} s24_weights_t;

/** The device's array for the cycle model and planner: HW_ARRAY, has_pair = hw.pair. */
s24_array_t s24_dev_array(const s24_dev_t *dev);
/** The multiple of channels the seam's fetch unit reads a convolution's input in
 *  (s24_seam_t.conv_channels; 0 without one): s24_linear_conv on an input of other channels
 *  builds the activation beats on the host. */
uint32_t s24_dev_conv_channels(const s24_dev_t *dev);
/** The elementwise ADD / SUB `job` by the seam's add unit (s24_seam_t.stream_add) within the
 *  device's timeout_ns. S24_ERR_UNSUPPORTED (nothing done) for a seam without one or a job it
 *  cannot take; S24_ERR_ARG for a NULL. */
S24_WARN_UNUSED s24_status_t s24_dev_add(s24_dev_t *dev, const s24_add_job_t *job);
/** Tells the seam the CPU is about to read or write tensors (s24_seam_t.cpu_touch). */
void s24_dev_cpu_touch(s24_dev_t *dev);
/** The QUANTIZE `job` by the seam's quantize unit (s24_seam_t.stream_quant) within the device's
 *  timeout_ns: y[0 .. *done) written. S24_ERR_UNSUPPORTED (nothing done) for a seam without one
 *  or a job it cannot take; S24_ERR_ARG for a NULL. */
S24_WARN_UNUSED s24_status_t s24_dev_quant(s24_dev_t *dev, const s24_quant_job_t *job,
                                           size_t *done);

/** Opens a device: checks the seam, ID magic and major version, reads the HW parameters,
 *  soft-resets the block. S24_ERR_HW for a wrong ID, S24_ERR_UNSUPPORTED for a version or
 *  parameter set this driver cannot use. */
S24_WARN_UNUSED s24_status_t s24_dev_open(s24_dev_t *dev, const s24_seam_t *seam);
/** Forgets the device (the backend is closed by its owner). Safe on a closed handle. */
void s24_dev_close(s24_dev_t *dev);
/** CTRL.SOFT_RESET: back to idle, drops in-flight data, clears ERR/IRQ/counters. */
S24_WARN_UNUSED s24_status_t s24_dev_reset(s24_dev_t *dev);
/** Reads the ERR register (S24_ERR_* bits of s24_regs.h). */
S24_WARN_UNUSED s24_status_t s24_dev_errors(s24_dev_t *dev, uint32_t *err);
/** Clears every ERR and IRQ bit (write 1 to clear). */
S24_WARN_UNUSED s24_status_t s24_dev_clear_errors(s24_dev_t *dev);
/** Human-readable names of ERR bits into buf ("BAD_CFG|META"; "none" for 0). */
const char *s24_err_bits_str(uint32_t err, char *buf, size_t len);
/** Copies the counters of the last GEMM. */
S24_WARN_UNUSED s24_status_t s24_dev_counters(const s24_dev_t *dev, s24_counters_t *out);
/** Runs one raw job: CFG_BEATS/CFG_TILES, START. The caller streams the data. */
S24_WARN_UNUSED s24_status_t s24_dev_start(s24_dev_t *dev, uint32_t beats, uint32_t tiles);
/** The longest any wait on the job last started may take: the smaller of timeout_ns and
 *  S24_WAIT_MARGIN * s24_core_cycles(job).busy_cycles * cycle_ns + S24_WAIT_SLACK_NS (a stuck
 *  core fails in about the job's own time, not after timeout_ns); timeout_ns when no job. */
uint64_t s24_dev_wait_limit_ns(const s24_dev_t *dev);
/** Polls STATUS until the job is done (s24_dev_wait_limit_ns), then checks ERR (S24_ERR_HW,
 *  last_err set). */
S24_WARN_UNUSED s24_status_t s24_dev_wait(s24_dev_t *dev);

/** Bytes of 16-byte-aligned memory s24_weights_pack needs for the dense int8 A (m_rows x k,
 *  any values; k any >= 1) on dev. */
S24_WARN_UNUSED s24_status_t s24_weights_bytes(const s24_dev_t *dev, const int8_t *a,
                                               size_t m_rows, size_t k, size_t *bytes);
/** Packs A into hardware beats in mem (bytes >= s24_weights_bytes, 16-byte aligned; else
 *  S24_ERR_NOMEM): once, then any number of GEMMs. Any values run on any core: groups denser
 *  than the core take more beats (s24_plan_row_tile). A must outlive w only when w.pair and the
 *  device's map is older than 1.4 (w.dense). */
S24_WARN_UNUSED s24_status_t s24_weights_pack(const s24_dev_t *dev, const int8_t *a, size_t m_rows,
                                              size_t k, void *mem, size_t bytes,
                                              s24_weights_t *w);
/** s24_weights_bytes and s24_weights_pack in the core's own mode only, never its pair mode:
 *  for jobs whose row tiles must be the core's own rows (a convolution whose channel windows,
 *  s24_conv_src_t.gr, are those rows: a pair-mode tile would span two windows). */
S24_WARN_UNUSED s24_status_t s24_weights_bytes_own(const s24_dev_t *dev, const int8_t *a,
                                                   size_t m_rows, size_t k, size_t *bytes);
S24_WARN_UNUSED s24_status_t s24_weights_pack_own(const s24_dev_t *dev, const int8_t *a,
                                                  size_t m_rows, size_t k, void *mem,
                                                  size_t bytes, s24_weights_t *w);

/** Bytes of seam scratch a GEMM (s24_gemm) of w stages its beats in with the device's current
 *  in-flight window; 0 for a bad argument or on overflow. */
size_t s24_gemm_scratch_bytes(const s24_dev_t *dev, const s24_weights_t *w);
/** The same for a fused layer (s24_linear) of w (more on a device older than map 1.4 whose
 *  pair-mode weights are repacked). */
size_t s24_linear_scratch_bytes(const s24_dev_t *dev, const s24_weights_t *w);

/** C = A*B (+ C0) for m_rows x n_cols, B k x n_cols int8 row-major. c0 may be NULL or == c.
 *  On error C is unspecified and the block has been soft-reset. */
S24_WARN_UNUSED s24_status_t s24_gemm(s24_dev_t *dev, const s24_weights_t *w, const int8_t *b,
                                      size_t n_cols, const int32_t *c0, int32_t *c);

/** Words of w's prepared parameters (s24_linear_prepare): 3 x m_rows. */
size_t s24_linear_epi_words(const s24_weights_t *w);
/** Makes the fused layer's parameter words of w for prm once (a runtime at load), into `table`
 *  (s24_linear_epi_words(w) words, the caller's, kept unchanged while w is used), and points
 *  w->epi at them: s24_linear and s24_linear_conv with these parameters (the same arrays) then
 *  load them as they are instead of computing every row's at every job. S24_ERR_ARG for
 *  parameters s24_linear would refuse or a table too small (w unchanged). */
S24_WARN_UNUSED s24_status_t s24_linear_prepare(s24_weights_t *w, const s24_linear_params_t *prm,
                                                uint32_t *table, size_t words);
/** Reads HW_EPI (the fused epilogue's parameter RAM depth and lanes) into dev->hw once;
 *  s24_linear does it on first use. S24_ERR_UNSUPPORTED on a device whose register map is older
 *  than 1.2 or whose epilogue is smaller than a tile. */
S24_WARN_UNUSED s24_status_t s24_dev_probe_epi(s24_dev_t *dev);
/** The fused int8 layer of SPEC §7 in hardware: Y[b][m] (batch x m_rows int8) for X (batch x k
 *  int8, row-major) and the weights W = the loaded A (m_rows x k). Runs as a GEMM with A = W,
 *  B = X^T through the epilogue (docs/architecture.md §4): the driver folds the input zero point
 *  into the bias (BIAS[m] - ZI*sum_k W[m][k], int32 wraparound), loads the per-channel
 *  parameters of each job's row tiles into the parameter RAM (a job has at most
 *  HW_EPI.DEPTH / rows row tiles, rows = the weights' tile rows: 2 x NumRows when they were
 *  packed for the pair mode, which fused jobs use too from map 1.4 on), programs the clamp (CFG_ACT) and the rounding
 *  (CFG_EPI.ROUND) of every job and receives int8. S24_ERR_ARG for a parameter out of range
 *  (s24_linear_params_ok, or a round that is not an s24_round_t; before any register access),
 *  S24_ERR_UNSUPPORTED on a device whose register map is older than 1.2 (no CFG_ACT), or older
 *  than 1.3 (no CFG_EPI.ROUND) for S24_ROUND_DOUBLE.
 *  X is read in place (the core's activation operand is X's rows: no transpose, no copy); on a
 *  seam with a fetch unit (stream_conv) X's rows go to it as a 1x1 convolution's input, k a
 *  multiple of its conv_channels.
 *  Counters as s24_gemm, plus job_cycles. */
S24_WARN_UNUSED s24_status_t s24_linear(s24_dev_t *dev, const s24_weights_t *w, const int8_t *x,
                                        size_t batch, const s24_linear_params_t *prm,
                                        int8_t *y);
/** s24_linear of a convolution without the im2col copy (the implicit GEMM): X = the im2col of
 *  src (s24_layout.h; batch = n*oh*ow output positions, k = kh*kw*cs = the weights' k), its
 *  activation beats built from the NHWC input in place (s24_a_beat_conv); row b of Y (m_rows
 *  int8) at y + b * ldy (ldy >= m_rows: a depthwise slice writes its channels of a wider
 *  output). With src->gr > 0 (a depthwise layer's channel windows, one call) output row m reads
 *  the window s24_conv_c0(src, m); gr must be a multiple of the weights' tile rows (a row tile
 *  reads one window). A seam's fetch unit reads the input from memory, made visible to it first
 *  unless src->x_seen. S24_ERR_ARG for a source that does not match the weights. */
S24_WARN_UNUSED s24_status_t s24_linear_conv(s24_dev_t *dev, const s24_weights_t *w,
                                             const s24_conv_src_t *src,
                                             const s24_linear_params_t *prm, int8_t *y,
                                             size_t ldy);
#ifdef __cplusplus
}
#endif

#endif  // S24_DRV_H_
