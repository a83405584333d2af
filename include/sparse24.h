// SPDX-License-Identifier: Apache-2.0
// sparse24: the public C API (libsparse24.a / libsparse24.so) for every front end: the 2:4-sparse
// int8 GEMM IP on a backend (the C golden model, or the Verilated RTL through the host driver),
// the fused int8 layer, N:M pruning and compression, and int8 .tflite networks.
// The contract is SPEC.md (shared/, beside the repository; § numbers below); formats and
// arithmetic are its. The command `sparse24` (tools/) and the NumPy bindings (python/) are front
// ends over this header and nothing else.
//
//   s24_api_dev_t *dev;
//   char err[S24_API_ERRLEN];
//   if (s24_api_open("rtl", &dev, err, sizeof err) != S24_OK) { puts(err); ... }
//   s24_api_gemm(dev, &pattern, a, m, k, b, n, NULL, c, err, sizeof err);   // C = A * B
//   s24_api_close(dev);
//
// Conventions: matrices are row-major and owned by the caller; sizes are element counts.
// Every call checks all its arguments before any side effect and returns S24_OK or a negative
// s24_status_t (s24_base.h; s24_strerror names it), and on an error writes one line into err
// (errlen bytes, may be NULL/0) that names what is wrong and where. A message about an operand
// starts with the operand's name and ": " (A, B, C0, A metadata, W, W metadata, X, MULT, SHIFT,
// BIAS, ZI, ZO, the clamp, the model), e.g.
// "A: row 3, group 5 (columns 20..23) has 3 nonzeros, pattern 2:4 allows 2 (prune first)",
// so a front end can name its file instead.
//
// Threads: a device and a network may be shared between threads; their calls are serialised
// (each handle holds a lock; a network run also holds its device's). s24_api_close and
// s24_api_net_free wait for the calls in flight on the handle; calling a handle after it was
// closed or freed, or closing it while another thread may still start a call on it, is the
// caller's error (as with free()).
#ifndef SPARSE24_H_
#define SPARSE24_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Version of this API: MAJOR * 10000 + MINOR * 100 + PATCH. 2.0: a device is an open backend
 *  (the simulation opens once), networks are loaded onto a device into an arena of their own,
 *  the fused layer's clamp is [act_min, act_max], devices and networks are thread-safe. */
#define S24_API_VERSION 20000u
/** A message buffer that holds every message of the library. */
#define S24_API_ERRLEN 512u

/** The API version the library was built with (S24_API_VERSION). */
uint32_t s24_api_version(void);

/* ---- devices ----------------------------------------------------------------------------- */

/** An open device on one backend (opaque). */
typedef struct s24_api_dev s24_api_dev_t;

/** How to open a device. */
typedef struct {
  const char *backend;     /**< "model" (the C golden model) or "rtl" (the Verilated s24_top of
                                the default 8x8 2:4 build, driven by the host driver) */
  const char *trace_path;  /**< rtl: an FST waveform of the whole simulation, written until
                                s24_api_close (GTKWave); NULL for none */
} s24_api_options_t;

/** Opens a device: the backend opens once (rtl: the simulation starts from reset here and every
 *  call of the device runs on it). S24_ERR_ARG for another backend name (or a trace on the
 *  model), S24_ERR_UNSUPPORTED if this build has no rtl backend; S24_ERR_IO if the trace file
 *  cannot be written. */
S24_WARN_UNUSED s24_status_t s24_api_open_ex(const s24_api_options_t *opts, s24_api_dev_t **out,
                                             char *err, size_t errlen);
/** s24_api_open_ex without a trace. */
S24_WARN_UNUSED s24_status_t s24_api_open(const char *backend, s24_api_dev_t **out, char *err,
                                          size_t errlen);
/** Closes a device (finishing its trace); safe on NULL. Networks loaded on it must be freed
 *  first. */
void s24_api_close(s24_api_dev_t *dev);
/** "model" or "rtl". */
const char *s24_api_backend(const s24_api_dev_t *dev);
/** S24_OK if this build can open the backend named `backend`, else S24_ERR_ARG (no such
 *  backend) or S24_ERR_UNSUPPORTED (not in this build), with a message. */
S24_WARN_UNUSED s24_status_t s24_api_backend_check(const char *backend, char *err,
                                                   size_t errlen);
/** 1 if the backend named `backend` is (simulated) hardware: it measures cycles and can trace. */
int s24_api_backend_is_hw(const char *backend);

/** Numbers of the last successful s24_api_gemm* / s24_api_linear* call on a device. The
 *  hardware counters are 0 on the model backend. */
typedef struct {
  uint64_t macs_dense;   /**< dense-equivalent MACs (M * K * N) */
  uint64_t cycles;       /**< rtl: array busy cycles (CNT_CYCLES summed over the jobs) */
  uint64_t job_cycles;   /**< rtl linear: cycles plus the epilogue's drain (CNT_JOB_CYCLES) */
  uint64_t beats;        /**< rtl: array steps */
  uint64_t stall_w, stall_a, stall_r;  /**< rtl: cycles waiting on each stream */
  uint64_t hw_jobs;      /**< rtl: hardware jobs */
  uint64_t tiles;        /**< rtl: result tiles */
  uint64_t sim_cycles;   /**< rtl: every cycle simulated since the device was opened */
  double utilization;    /**< rtl: dense-equivalent MACs / (cycles * R * C * SparseM), the
                              mode's peak (pair mode: twice); linear: of job_cycles */
} s24_api_stats_t;

/** Copies the numbers of the last call into *out. */
S24_WARN_UNUSED s24_status_t s24_api_stats(const s24_api_dev_t *dev, s24_api_stats_t *out);
/** The `key: value` lines of the last s24_api_gemm* or s24_api_linear* call, as `sparse24 gemm
 *  --stats` / `sparse24 linear --stats` print them. Copies at most len - 1 bytes and a NUL;
 *  *needed (may be NULL) gets the text's length. */
S24_WARN_UNUSED s24_status_t s24_api_stats_text(const s24_api_dev_t *dev, char *buf, size_t len,
                                                size_t *needed);

/* ---- checks (SPEC §1-2), as every call below makes them ---------------------------------- */

/** S24_OK if the pattern is supported and k a multiple of its m, and the rows x k matrix a has
 *  at most n nonzeros in every aligned group of m (else S24_ERR_PATTERN naming the first row,
 *  group and count, "WHAT: row 3, group 5 (columns 20..23) has 3 nonzeros, pattern 2:4 allows
 *  2 (prune first)"). what names the operand in the message. */
S24_WARN_UNUSED s24_status_t s24_api_check_pattern(s24_pattern_t p, const int8_t *a, size_t rows,
                                                   size_t k, const char *what, char *err,
                                                   size_t errlen);
/** S24_OK if the metadata of a compressed rows x k matrix is valid (SPEC §2), else
 *  S24_ERR_META naming row, group and fault ("WHAT: row 2, group 2: invalid metadata, index 2
 *  follows index 3 (indices must strictly increase)"). */
S24_WARN_UNUSED s24_status_t s24_api_check_meta(s24_pattern_t p, const uint8_t *meta, size_t rows,
                                                size_t k, const char *what, char *err,
                                                size_t errlen);

/* ---- GEMM (SPEC §1-2) -------------------------------------------------------------------- */

/** C (m x n int32) = A (m x k int8) * B (k x n int8) (+ C0, m x n int32, may be NULL), int32
 *  wraparound. pattern non-NULL: A must pass s24_api_check_pattern (prune first); it is run as
 *  `sparse24 gemm` runs it. pattern NULL: A is dense with any values and any K (rtl: run as
 *  several passes of the sparse core). */
S24_WARN_UNUSED s24_status_t s24_api_gemm(s24_api_dev_t *dev, const s24_pattern_t *pattern,
                                          const int8_t *a, size_t m, size_t k, const int8_t *b,
                                          size_t n, const int32_t *c0, int32_t *c, char *err,
                                          size_t errlen);
/** The same with A compressed (SPEC §2): values m x s24_api_values_cols(p, k) int8, meta
 *  m x s24_api_meta_cols(p, k) uint8. Invalid metadata is S24_ERR_META (s24_api_check_meta). */
S24_WARN_UNUSED s24_status_t s24_api_gemm_compressed(s24_api_dev_t *dev, s24_pattern_t pattern,
                                                     const int8_t *values, const uint8_t *meta,
                                                     size_t m, size_t k, const int8_t *b,
                                                     size_t n, const int32_t *c0, int32_t *c,
                                                     char *err, size_t errlen);

/* ---- fused int8 layer (SPEC §7) ---------------------------------------------------------- */

/** The per-channel parameters of a layer of m output channels. */
typedef struct {
  const int32_t *bias;   /**< m int32, or NULL for zeros */
  const int32_t *mult;   /**< m int32, 0 <= MULT < 2^31 */
  const int32_t *shift;  /**< m int32, -31 <= SHIFT <= 30 */
  int32_t zi;            /**< input zero point, -128 .. 127 */
  int32_t zo;            /**< output zero point, -128 .. 127 */
  int32_t act_min;       /**< the clamp, -128 <= act_min <= act_max <= 127: the fused
                              activation's int8 range (none: -128, 127; ReLU: max(-128, zo),
                              127, s24_api_relu_min; RELU6, RELU_N1_TO_1 from the output
                              scale, as TFLite's CalculateActivationRangeQuantized) */
  int32_t act_max;
} s24_api_linear_params_t;

/** The clamp's low end of a ReLU with output zero point zo: max(-128, zo). */
int32_t s24_api_relu_min(int32_t zo);
/** S24_OK if prm holds the parameters of m channels in range, else S24_ERR_ARG naming the first
 *  bad one ("SHIFT[7] = 31 is outside [-31, 30]"). */
S24_WARN_UNUSED s24_status_t s24_api_check_linear_params(const s24_api_linear_params_t *prm,
                                                         size_t m, char *err, size_t errlen);

/** Y (batch x m int8) = the layer of SPEC §7 on X (batch x k int8) with W (m x k int8), as
 *  `sparse24 linear` computes it (rtl: the epilogue in hardware, the host receives int8).
 *  pattern non-NULL: W must pass s24_api_check_pattern; NULL: any W. */
S24_WARN_UNUSED s24_status_t s24_api_linear(s24_api_dev_t *dev, const s24_pattern_t *pattern,
                                            const int8_t *x, size_t batch, const int8_t *w,
                                            size_t m, size_t k,
                                            const s24_api_linear_params_t *prm, int8_t *y,
                                            char *err, size_t errlen);
/** The same with W compressed (values, meta as s24_api_gemm_compressed). */
S24_WARN_UNUSED s24_status_t s24_api_linear_compressed(s24_api_dev_t *dev, s24_pattern_t pattern,
                                                       const int8_t *x, size_t batch,
                                                       const int8_t *values,
                                                       const uint8_t *meta, size_t m, size_t k,
                                                       const s24_api_linear_params_t *prm,
                                                       int8_t *y, char *err, size_t errlen);

/* ---- pruning and compression (SPEC §2-3) -------------------------------------------------- */

/** Parses "N:M" into *out (S24_ERR_ARG with a message for anything else). */
S24_WARN_UNUSED s24_status_t s24_api_pattern(const char *text, s24_pattern_t *out, char *err,
                                             size_t errlen);
/** Columns of the values matrix and bytes of a metadata row for reduction length k (0 if k is
 *  not a multiple of m or the pattern is not supported). */
size_t s24_api_values_cols(s24_pattern_t p, size_t k);
size_t s24_api_meta_cols(s24_pattern_t p, size_t k);
/** SPEC §3: out (rows x k) = a with all but the n largest magnitudes of each group zeroed
 *  (ties: lower index). out may == a. */
S24_WARN_UNUSED s24_status_t s24_api_prune(s24_pattern_t p, const int8_t *a, size_t rows,
                                           size_t k, int8_t *out, char *err, size_t errlen);
/** SPEC §2: the canonical compressed form of a (rows x k, N:M sparse). */
S24_WARN_UNUSED s24_status_t s24_api_compress(s24_pattern_t p, const int8_t *a, size_t rows,
                                              size_t k, int8_t *values, uint8_t *meta,
                                              char *err, size_t errlen);
/** The dense rows x k matrix of a compressed one (the metadata validated first). */
S24_WARN_UNUSED s24_status_t s24_api_decompress(s24_pattern_t p, const int8_t *values,
                                                const uint8_t *meta, size_t rows, size_t k,
                                                int8_t *out, char *err, size_t errlen);

/* ---- int8 .tflite networks (SPEC §8) ----------------------------------------------------- */

/** A network loaded on a device (opaque). */
typedef struct s24_api_net s24_api_net_t;

#define S24_API_MAX_DIMS 8u

/** Element types of a network's input and output. */
typedef enum {
  S24_API_INT8 = 0,
  S24_API_FLOAT32 = 1,
} s24_api_dtype_t;

/** A network's input or output tensor. */
typedef struct {
  s24_api_dtype_t dtype;
  uint32_t rank;
  int64_t dims[S24_API_MAX_DIMS];
  size_t bytes;          /**< bytes of one inference */
} s24_api_tensor_t;

/** 1 if buf starts like a TFLite flatbuffer (len >= 8, identifier "TFL3"). */
int s24_api_is_tflite(const void *buf, size_t len);

/** Loads a .tflite (TFL3 flatbuffer, len bytes; the library keeps one copy of it, whose
 *  constants the network reads in place) onto dev, checking everything before anything runs
 *  (an unsupported operator is named by index and name): the array layers' weights are
 *  prepared for dev once (rtl: packed into beats), each host operator's parameters derived
 *  once, and the activations planned by lifetime into one arena of exactly the bytes the model
 *  needs (s24_api_net_totals: arena_bytes); nothing is allocated after the load. The device
 *  must outlive the network. */
S24_WARN_UNUSED s24_status_t s24_api_net_load(s24_api_dev_t *dev, const void *buf, size_t len,
                                              s24_api_net_t **out, char *err, size_t errlen);
/** Frees a network; safe on NULL. */
void s24_api_net_free(s24_api_net_t *net);
/** The input and output tensors (either may be NULL). */
S24_WARN_UNUSED s24_status_t s24_api_net_io(const s24_api_net_t *net, s24_api_tensor_t *in,
                                            s24_api_tensor_t *out);
/** Runs `batch` independent inferences, as `sparse24 run` does: x holds batch * in.bytes bytes
 *  (x_len), y receives batch * out.bytes (y_len). The array layers run on the network's device,
 *  the rest on the host. Adds to the statistics of the runs before (s24_api_net_stats). */
S24_WARN_UNUSED s24_status_t s24_api_net_run(s24_api_net_t *net, const void *x, size_t x_len,
                                             size_t batch, void *y, size_t y_len, char *err,
                                             size_t errlen);
/** Totals of the runs so far (rtl: measured cycles; every backend: the cycle model's
 *  prediction) and the network's memory. */
typedef struct {
  uint64_t inferences;
  uint64_t ip_macs;           /**< dense-equivalent MACs of the array layers */
  uint64_t host_macs;         /**< MACs of the host layers */
  uint64_t cycles;            /**< measured array busy cycles (0 on the model) */
  uint64_t job_cycles;        /**< measured, with the epilogue's drain */
  uint64_t predicted_cycles;  /**< the cycle model's busy cycles */
  uint64_t arena_bytes;       /**< the arena the network was loaded into */
  uint64_t activation_bytes;  /**< of it, the activations planned by lifetime */
} s24_api_net_totals_t;
S24_WARN_UNUSED s24_status_t s24_api_net_totals(const s24_api_net_t *net,
                                                s24_api_net_totals_t *out);
/** The `key: value` lines of `sparse24 run --stats` for the runs so far (per layer: name, GEMM
 *  shape, pattern, cycles, predicted cycles; then the totals). Copies as s24_api_stats_text. */
S24_WARN_UNUSED s24_status_t s24_api_net_stats(const s24_api_net_t *net, char *buf, size_t len,
                                               size_t *needed);
/** The table of `sparse24 info` (one line per operator, the totals, the arena), for the
 *  network's device's array, copied as s24_api_stats_text. */
S24_WARN_UNUSED s24_status_t s24_api_net_info(const s24_api_net_t *net, char *buf, size_t len,
                                              size_t *needed);
/** `sparse24 prune` of a .tflite (buf, len bytes; no device needed, any operators): out (len
 *  bytes) receives a copy whose FULLY_CONNECTED and CONV_2D int8 weights are pruned to p;
 *  *pruned (may be NULL) the number of weight tensors rewritten. */
S24_WARN_UNUSED s24_status_t s24_api_net_prune(const void *buf, size_t len, s24_pattern_t p,
                                               void *out, size_t out_len, size_t *pruned,
                                               char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif  // SPARSE24_H_
