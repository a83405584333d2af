// sparse24 network runtime: runs an int8 .tflite model (SPEC §8) with its FULLY_CONNECTED and
// CONV_2D layers on the array and every other operator on the host (runtime/s24_ops.h).
//
//   s24_net_t *net;
//   s24_net_load(file, len, &net, err, sizeof err);   // parses, checks every operator first
//   s24_net_run(net, &engine, x, y, err, sizeof err); // one inference (X, Y: the model's
//                                                     // input / output tensor bytes)
//   s24_net_stats(net, &engine, stdout);              // per-layer cycles vs the cycle model
//   s24_net_free(net);
//
// An array layer is the fused int8 layer of SPEC §7: FULLY_CONNECTED with A = the weights and
// B = the input rows; CONV_2D with A = the weights (one row per output channel, K = kh*kw*ic in
// OHWI order) and B = the im2col of the input, padded positions holding the input zero point.
// The engine (s24_engine_t) decides where it runs: the C golden model, or the device through
// the host driver's s24_linear (epilogue in hardware). Each layer runs as its weights are: a
// layer whose weights are 2:4-sparse takes one beat per group on a 2:4 core, a dense one two
// (the driver packs any int8 matrix; cmodel s24_group_beats).
#ifndef S24_NET_H_
#define S24_NET_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "s24_model.h"
#include "s24_tflite.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One array layer, as the executor hands it to an engine. */
typedef struct {
  size_t op;               /**< operator index in the model */
  int32_t opcode;          /**< S24_OP_FULLY_CONNECTED or S24_OP_CONV_2D */
  const int8_t *w;         /**< m x k int8 weights, row-major (constant data of the model) */
  size_t m, k;             /**< output channels, reduction length */
  size_t n;                /**< GEMM columns of one inference (FC: input rows; conv: oh*ow) */
  const int32_t *bias;     /**< m int32 */
  const int32_t *mult;     /**< m, TFLite's QuantizeMultiplier of s_in * s_w[c] / s_out */
  const int32_t *shift;    /**< m */
  int32_t zi, zo;          /**< input and output zero points */
  int32_t act_min, act_max;  /**< the fused activation's int8 range (TFLite's
                                  CalculateActivationRangeQuantized) */
  s24_pattern_t pattern;   /**< sparsest of 1:4, 2:8, 2:4 the weights hold; {m, m} if dense */
  s24_round_t round;       /**< the requantization's rounding: S24_ROUND_DOUBLE (gemmlowp's,
                                as LiteRT's reference CONV_2D), S24_ROUND_SINGLE (SPEC §7, its
                                FULLY_CONNECTED) */
} s24_net_layer_t;

/** Where the array layers run. */
typedef struct {
  void *ctx;
  /** y (n x m int8, row-major) = the SPEC §7 layer on x (n x k int8, row-major). On a device,
   *  *cycles gets the array's busy cycles of the call (CNT_CYCLES summed over its jobs) and
   *  *job_cycles those plus the epilogue's drain; a model leaves both 0. err: one line. */
  s24_status_t (*linear)(void *ctx, const s24_net_layer_t *layer, const int8_t *x, int8_t *y,
                         uint64_t *cycles, uint64_t *job_cycles, char *err, size_t errlen);
  s24_array_t hw;          /**< the array the cycle model predicts for */
  uint32_t epi_depth;      /**< its epilogue parameter RAM rows (HW_EPI.DEPTH) */
  uint32_t epi_lanes;      /**< its epilogue lanes (HW_EPI.LANES) */
  int measures;            /**< 1 if linear reports hardware cycles (rtl) */
  const char *name;        /**< "model" or "rtl" */
} s24_engine_t;

typedef struct s24_net s24_net_t;

/** Parses the .tflite in buf (which must outlive the network) and checks everything before
 *  anything runs: one input and one output tensor, every operator supported (an unsupported
 *  one is named by index and name), its tensors' types, shapes and quantization, operators in
 *  execution order. S24_ERR_FORMAT / S24_ERR_UNSUPPORTED / S24_ERR_NOMEM with one line. */
S24_WARN_UNUSED s24_status_t s24_net_load(const uint8_t *buf, size_t len, s24_net_t **out,
                                          char *err, size_t errlen);
void s24_net_free(s24_net_t *net);
/** The model (tensors, operators) behind a loaded network. */
const s24_tfl_model_t *s24_net_model(const s24_net_t *net);
/** The input and output tensors. */
const s24_tfl_tensor_t *s24_net_input(const s24_net_t *net);
const s24_tfl_tensor_t *s24_net_output(const s24_net_t *net);

/** One inference: x holds the input tensor's bytes, y receives the output tensor's bytes.
 *  Adds each array layer's cycles (engine->measures) to the network's statistics. */
S24_WARN_UNUSED s24_status_t s24_net_run(s24_net_t *net, const s24_engine_t *engine,
                                         const void *x, void *y, char *err, size_t errlen);

/** Totals of the inferences run so far (and, for info, of the model as planned for hw). */
typedef struct {
  uint64_t inferences;
  uint64_t ip_macs;           /**< dense-equivalent MACs of the array layers */
  uint64_t host_macs;         /**< MACs of the host layers (DEPTHWISE_CONV_2D) */
  uint64_t cycles;            /**< measured array busy cycles (0 without a device) */
  uint64_t job_cycles;        /**< measured, with the epilogue's drain */
  uint64_t predicted_cycles;  /**< the cycle model's busy cycles for engine->hw */
} s24_net_totals_t;

/** Totals over the inferences run so far with engine (predicted cycles for its hw). */
S24_WARN_UNUSED s24_status_t s24_net_totals(const s24_net_t *net, const s24_engine_t *engine,
                                            s24_net_totals_t *out);
/** `run --stats`: one block of `key: value` lines per array layer (cycles measured, predicted)
 *  and the totals, over the inferences run so far. */
S24_WARN_UNUSED s24_status_t s24_net_stats(const s24_net_t *net, const s24_engine_t *engine,
                                           FILE *f);
/** `info`: one line per operator (index, name, where it runs, GEMM shape MxKxN, pattern found
 *  in the weights, MACs) and the totals, with the cycle model's prediction for hw. */
S24_WARN_UNUSED s24_status_t s24_net_info(const s24_net_t *net, s24_array_t hw,
                                          uint32_t epi_depth, uint32_t epi_lanes, FILE *f);

/** `prune`: a copy of the file (out: len bytes) in which the weights of every
 *  FULLY_CONNECTED and CONV_2D are pruned to pattern p as SPEC §3 says, per output channel
 *  along its flattened K (a last group shorter than m is padded with zeros for the choice);
 *  every other byte unchanged. *pruned gets the number of weight tensors rewritten. */
S24_WARN_UNUSED s24_status_t s24_net_prune(const s24_net_t *net, s24_pattern_t p, uint8_t *out,
                                           size_t *pruned, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif  // S24_NET_H_
