// SPDX-License-Identifier: Apache-2.0
// sparse24 network runtime: runs an int8 .tflite model (SPEC §8) with its FULLY_CONNECTED and
// CONV_2D layers on the array and every other operator on the host (runtime/s24_ops.h).
//
// Freestanding C11, TensorFlow Lite Micro's way: a model is loaded into one block of memory the
// caller gives (the arena), and nothing is allocated after that.
//
//   s24_engine_t eng;  s24_engine_model(&eng);        // or s24_engine_device (s24_engine.h)
//   s24_net_t *net;  size_t need;
//   s24_net_load(file, len, &eng, arena, arena_size, &net, &need, err, sizeof err);
//   s24_net_run(net, x, y, err, sizeof err);         // one inference (X, Y: the model's
//                                                    // input / output tensor bytes)
//
// The load parses the file (runtime/s24_tflite.h) and checks every operator before anything runs;
// constants are read in place from the file's bytes, which must outlive the network; each host
// operator's parameters are derived once (s24_op_prepare); each array layer's weights are
// prepared for the engine once (a device packs them into beats); activation tensors and the one
// im2col scratch of each convolution are placed in the arena by their lifetimes, the way TFLite
// Micro's greedy memory planner does: a tensor the graph does not use takes no memory, whatever
// size the file declares.
//
// An array layer is the fused int8 layer of SPEC §7: FULLY_CONNECTED with A = the weights and
// B = the input rows; CONV_2D with A = the weights (one row per output channel, K = kh*kw*ic in
// OHWI order) and B = the im2col of the input, padded positions holding the input zero point.
// The engine decides where it runs: the C golden model, or the device through the host driver's
// s24_linear (epilogue in hardware). Each layer runs as its weights are: a layer whose weights
// are 2:4-sparse takes one beat per group on a 2:4 core, a dense one two (cmodel
// s24_group_beats).
#ifndef S24_NET_H_
#define S24_NET_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_arena.h"
#include "s24_cycles.h"
#include "s24_layout.h"
#include "s24_model.h"
#include "s24_tflite.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One array layer, as the executor hands it to an engine. */
typedef struct {
  size_t op;               /**< operator index in the model */
  int32_t opcode;          /**< S24_OP_FULLY_CONNECTED, S24_OP_CONV_2D, or
                                S24_OP_DEPTHWISE_CONV_2D (one slice of its channels: a CONV_2D
                                of those channels with a block-diagonal filter) */
  const int8_t *w;         /**< m x k int8 weights, row-major (in place in the model's bytes; a
                                depthwise slice's expanded filter in the arena, filled before
                                prepare and before each linear unless the engine's packed_w) */
  size_t m, k;             /**< output channels, reduction length */
  size_t n;                /**< GEMM columns of one inference (FC: input rows; conv: oh*ow) */
  const int32_t *bias;     /**< m int32 (an aligned copy in the arena; zeros without a bias) */
  const int32_t *mult;     /**< m, TFLite's QuantizeMultiplier of s_in * s_w[c] / s_out */
  const int32_t *shift;    /**< m */
  int32_t zi, zo;          /**< input and output zero points */
  int32_t act_min, act_max;  /**< the fused activation's int8 range (TFLite's
                                  CalculateActivationRangeQuantized) */
  s24_pattern_t pattern;   /**< sparsest of 1:4, 2:8, 2:4 the weights hold; {m, m} if dense */
  s24_round_t round;       /**< the requantization's rounding: S24_ROUND_DOUBLE (gemmlowp's,
                                as LiteRT's reference CONV_2D), S24_ROUND_SINGLE (SPEC §7, its
                                FULLY_CONNECTED) */
  s24_conv_src_t conv;     /**< a convolution (conv.cs > 0): linear's x is the NHWC input, X its
                                im2col read in place (conv.x is set per call); else cs == 0 and
                                x holds X's n rows of k */
  size_t ldy;              /**< y's row stride (>= m): a depthwise slice writes its channels */
  int own_mode;            /**< 1: the weights run in the core's own mode, never its pair mode
                                (a depthwise layer's channel windows are the own mode's tile
                                rows, conv.gr: a pair-mode tile would span two) */
} s24_net_layer_t;

/** Where the array layers run (s24_engine.h makes the two the project has). */
typedef struct {
  void *ctx;
  /** Load time, once per array layer: bytes of arena the engine keeps for it (0: none). */
  s24_status_t (*layer_bytes)(void *ctx, const s24_net_layer_t *layer, size_t *bytes);
  /** Load time: prepares the layer in mem (layer_bytes long, 16-byte aligned; NULL when 0), e.g.
   *  packs its weights into hardware beats; *state gets what linear reads. err: one line. */
  s24_status_t (*prepare)(void *ctx, const s24_net_layer_t *layer, void *mem, size_t bytes,
                          void **state, char *err, size_t errlen);
  /** y (n rows of m int8, ldy apart) = the SPEC §7 layer on X (x: n x k int8, row-major; or
   *  the im2col of layer->conv read from x, the NHWC input). On a device,
   *  *cycles gets the array's busy cycles of the call (CNT_CYCLES summed over its jobs) and
   *  *job_cycles those plus the epilogue's drain; a model leaves both 0. err: one line. */
  s24_status_t (*linear)(void *ctx, const s24_net_layer_t *layer, void *state, const int8_t *x,
                         int8_t *y, uint64_t *cycles, uint64_t *job_cycles, char *err,
                         size_t errlen);
  s24_array_t hw;          /**< the array the cycle model predicts for */
  uint32_t epi_depth;      /**< its epilogue parameter RAM rows (HW_EPI.DEPTH) */
  uint32_t epi_lanes;      /**< its epilogue lanes (HW_EPI.LANES) */
  int measures;            /**< 1 if linear reports hardware cycles (a device) */
  const char *name;        /**< "model", "rtl", ... */
  /** The multiple of input channels its convolutions read fastest in (a device's fetch unit,
   *  s24_dev_conv_channels); 0 or 1: any. The runtime pads a CONV_2D's input channels to it
   *  (zero filter columns, the input copied with its zero point in the new channels). */
  uint32_t conv_channels;
  /** 1 if linear never reads layer->w, only what prepare made of it at load (a device's packed
   *  beats): a depthwise slice's expanded weights are then not rewritten before each run. 0 (any
   *  other engine, and the default of a zeroed struct): layer->w is valid in every call. */
  int packed_w;
  /** Optional (NULL: the host kernel runs every ADD and SUB). An elementwise ADD / SUB on the
   *  engine's hardware (an add unit beside the array); S24_ERR_UNSUPPORTED, with nothing
   *  written, when it cannot take this one (the host kernel then runs it). err: one line. */
  s24_status_t (*add)(void *ctx, const s24_add_job_t *job, char *err, size_t errlen);
  /** Optional (NULL: nothing to do). Called before the CPU reads or writes tensors (a host
   *  operator, the executor's copies of the input, the output and a padded input): a device
   *  whose DMA bypasses the CPU's caches forgets which memory it knew to be out of them. */
  void (*cpu_touch)(void *ctx);
  /** Optional (NULL: the host kernel runs every QUANTIZE). The float input's QUANTIZE on the
   *  engine's hardware (a quantize unit beside the array): y[0 .. *done) written, the caller
   *  computes the rest; S24_ERR_UNSUPPORTED, with nothing written, when it cannot take this one
   *  (the host kernel then runs it). err: one line. */
  s24_status_t (*quant)(void *ctx, const s24_quant_job_t *job, size_t *done, char *err,
                        size_t errlen);
} s24_engine_t;

typedef struct s24_net s24_net_t;

/** Loads the .tflite in buf (which must outlive the network: its constants are read in place)
 *  for engine (which must outlive it too) into arena[0 .. arena_size), and checks everything
 *  before anything runs: one input and one output tensor, every operator supported (an
 *  unsupported one is named by index and name), its tensors' types, shapes and quantization,
 *  operators in execution order, no operator whose output is one of its inputs. *needed (may be
 *  NULL) gets the arena bytes the network uses (s24_net_arena_bytes) or, with S24_ERR_NOMEM, a
 *  lower bound of what it needs (call again with at least that much). S24_ERR_FORMAT /
 *  S24_ERR_UNSUPPORTED / S24_ERR_NOMEM with one line. Allocates nothing else. */
S24_WARN_UNUSED s24_status_t s24_net_load(const uint8_t *buf, size_t len,
                                          const s24_engine_t *engine, void *arena,
                                          size_t arena_size, s24_net_t **out, size_t *needed,
                                          char *err, size_t errlen);
/** The model (tensors, operators) behind a loaded network. */
const s24_tfl_model_t *s24_net_model(const s24_net_t *net);
/** The input and output tensors. */
const s24_tfl_tensor_t *s24_net_input(const s24_net_t *net);
const s24_tfl_tensor_t *s24_net_output(const s24_net_t *net);
/** Arena bytes the network uses (everything above: tables, parameters, prepared weights,
 *  activations). */
size_t s24_net_arena_bytes(const s24_net_t *net);
/** Of those, the bytes of the activation region planned by lifetimes (tensors and scratch). */
size_t s24_net_activation_bytes(const s24_net_t *net);

/** Called around every operator of every inference (end 0 before it runs, 1 after), e.g. to
 *  read a cycle counter; NULL for none. */
typedef void (*s24_net_hook_t)(void *ctx, size_t op, int end);
void s24_net_set_hook(s24_net_t *net, s24_net_hook_t hook, void *ctx);

/** One inference: x holds the input tensor's bytes, y receives the output tensor's bytes.
 *  Adds each array layer's cycles (engine->measures) to the network's statistics. Allocates
 *  nothing. */
S24_WARN_UNUSED s24_status_t s24_net_run(s24_net_t *net, const void *x, void *y, char *err,
                                         size_t errlen);

/** One operator as info and the statistics show it. */
typedef struct {
  size_t op;               /**< its index */
  int32_t opcode;
  int on_array;            /**< 1: FULLY_CONNECTED or CONV_2D on the array */
  int on_engine;           /**< 1: a host operator the engine's hardware ran (s24_engine_t.add)
                                in the last inference */
  size_t m, k, n;          /**< array: the GEMM shape of one inference */
  s24_pattern_t pattern;   /**< array: the sparsest pattern of its weights ({m, m}: dense) */
  uint64_t macs;           /**< MACs of one inference (array: m*k*n; host: DEPTHWISE_CONV_2D's
                                output elements x filter taps, 0 for the others) */
  uint64_t cycles;         /**< array, measuring engine: busy cycles over the inferences run */
  uint64_t job_cycles;     /**< the same with the epilogue's drain */
} s24_net_op_info_t;

/** Operator `op` of the network. */
S24_WARN_UNUSED s24_status_t s24_net_op_info(const s24_net_t *net, size_t op,
                                             s24_net_op_info_t *out);
/** The cycle model's busy cycles of one inference of array operator `op` on hw with an
 *  epilogue of epi_depth rows and epi_lanes lanes (s24_linear_cycles). */
S24_WARN_UNUSED s24_status_t s24_net_op_predict(const s24_net_t *net, size_t op, s24_array_t hw,
                                                uint32_t epi_depth, uint32_t epi_lanes,
                                                uint64_t *cycles);
/** Inferences run so far. */
uint64_t s24_net_inferences(const s24_net_t *net);

/** `prune` of a .tflite held in buf (SPEC §8): out (len bytes) receives a copy of the file in
 *  which the weights of every FULLY_CONNECTED and CONV_2D are pruned to pattern p as SPEC §3
 *  says, per output channel along its flattened K (a last group shorter than m is padded with
 *  zeros for the choice); every other byte unchanged. Needs only the reader, whatever other
 *  operators the model holds: the tables go into arena (S24_ERR_NOMEM with arena->need when
 *  too small). *pruned gets the number of weight tensors rewritten. */
S24_WARN_UNUSED s24_status_t s24_net_prune(const uint8_t *buf, size_t len, s24_pattern_t p,
                                           s24_arena_t *arena, uint8_t *out, size_t *pruned,
                                           char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif  // S24_NET_H_
