// SPDX-License-Identifier: Apache-2.0
// sparse24 network runtime: the host kernels of the operators that do not run on the array
// (SPEC §8), each bit-exact with LiteRT 2.x's reference kernel (BUILTIN_REF): TFLite's
// kernels/internal/reference/ sources and the Prepare steps of kernels/*.cc are the
// specification, ported here in plain C11 with no global state.
//
// Handled: DEPTHWISE_CONV_2D, ADD, SUB, MUL, AVERAGE_POOL_2D, MAX_POOL_2D, PAD, MEAN, RESHAPE,
// SQUEEZE, CONCATENATION, SPLIT, TRANSPOSE, RESIZE_NEAREST_NEIGHBOR, SOFTMAX, LOGISTIC, TANH,
// RELU, RELU6, LEAKY_RELU, HARD_SWISH, QUANTIZE, DEQUANTIZE, SHAPE, STRIDED_SLICE, PACK (int8
// activations; float32 only at QUANTIZE's input and DEQUANTIZE's output and in the
// data-movement operators; int32 for the shape operators and the data-movement ones).
// LOGISTIC and TANH use the 256-entry int8 table LiteRT's reference kernels build in Prepare
// (in float, with the C library's expf and tanhf: a libm whose results differ from glibc's by
// an ulp could change an entry).
// The executor (s24_net.c) calls s24_op_prepare for every host operator at load, before anything
// runs, then s24_op_run once per inference. Freestanding: no allocation, no I/O.
#ifndef S24_OPS_H_
#define S24_OPS_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_model.h"
#include "s24_tflite.h"

#ifdef __cplusplus
extern "C" {
#endif

/** 1 if op.opcode is one of the host operators above. */
int s24_op_is_host(int32_t opcode);

/** Checks everything host operator `index` of m needs before anything runs: its input and
 *  output counts, tensor types, ranks and shapes (the declared output shape must equal the one
 *  the operator computes from its inputs and options, so s24_op_run never writes outside the
 *  output's `bytes`), options, quantization parameters (per-tensor where the kernel needs it),
 *  constant inputs where the operator needs them constant. S24_ERR_UNSUPPORTED for an option
 *  or type the kernel does not implement, S24_ERR_FORMAT for an inconsistent model; err gets
 *  one line naming the operator ("operator 7 (ADD): ..."). Keeps nothing. */
S24_WARN_UNUSED s24_status_t s24_op_check(const s24_tfl_model_t *m, size_t index, char *err,
                                          size_t errlen);

/** s24_op_check, and what the kernel derives from the model (multipliers from the float scales
 *  in TFLite's Prepare order and precision, per-channel arrays, shapes, activation ranges) kept
 *  in the arena: *params gets it, for every s24_op_run of the operator. Done once, at load.
 *  S24_ERR_NOMEM when the arena is too small. */
S24_WARN_UNUSED s24_status_t s24_op_prepare(const s24_tfl_model_t *m, size_t index,
                                            s24_arena_t *arena, const void **params,
                                            char *err, size_t errlen);

/** Runs host operator `index` of m for one inference with the parameters s24_op_prepare made:
 *  data[t] points to tensor t's data, tensors[t].bytes bytes (the constant data for constant
 *  tensors; the executor's buffers otherwise; no alignment needed). Writes only the operator's
 *  outputs, allocates nothing. Fails only where LiteRT's reference kernel aborts on the data:
 *  S24_ERR_UNSUPPORTED for a SOFTMAX row (more than 256 classes) whose exponentials sum to 2^9
 *  or more; and for a RESHAPE whose shape input is computed in the graph, S24_ERR_FORMAT if that
 *  shape is not the output's declared one. */
S24_WARN_UNUSED s24_status_t s24_op_run(const s24_tfl_model_t *m, size_t index,
                                        const void *params, void *const *data);

/** A DEPTHWISE_CONV_2D as s24_op_prepare derived it, for the executor (s24_net.c), which runs
 *  one with a depth multiplier of 1 on the array: input [n, ih, iw, ic], filter [1, kh, kw, oc],
 *  output [n, oh, ow, oc]; strides, dilations, leading padding; the input and output zero points,
 *  the fused activation's range and the per-channel multipliers (in the arena, oc each). */
typedef struct {
  int32_t n, ih, iw, ic, kh, kw, oc, oh, ow, depth_mult, sh, sw, dh, dw, ph, pw;
  int32_t zi, zo, act_lo, act_hi;
  const int32_t *mult, *shift;
} s24_dw_geom_t;

/** *g from the parameters s24_op_prepare made for DEPTHWISE_CONV_2D operator `index` of m;
 *  S24_ERR_ARG for another operator or parameters made without an arena. */
S24_WARN_UNUSED s24_status_t s24_op_dw_geom(const s24_tfl_model_t *m, size_t index,
                                            const void *params, s24_dw_geom_t *g);

/** *job: ADD or SUB operator `index` of m as an elementwise job (s24_add_job_t) on the tensors
 *  of data (s24_op_run's), from the parameters s24_op_prepare made. S24_ERR_UNSUPPORTED when
 *  one input is broadcast (the host kernel runs it); S24_ERR_ARG for another operator or
 *  parameters made without an arena. */
S24_WARN_UNUSED s24_status_t s24_op_add_job(const s24_tfl_model_t *m, size_t index,
                                            const void *params, void *const *data,
                                            s24_add_job_t *job);

/** *job: QUANTIZE operator `index` of m (FLOAT32 -> int8) as a job for a quantize unit
 *  (s24_quant_job_t: the table s24_op_prepare made) on the tensors of data. S24_ERR_UNSUPPORTED
 *  for an int8 -> int8 QUANTIZE or an input not 32-bit aligned; S24_ERR_ARG for another
 *  operator or parameters made without an arena. */
S24_WARN_UNUSED s24_status_t s24_op_quant_job(const s24_tfl_model_t *m, size_t index,
                                              const void *params, void *const *data,
                                              s24_quant_job_t *job);

/** The host kernel of that QUANTIZE on its elements from `from` on (the rest of a job a unit
 *  left: those from its first element outside the table's domain). */
S24_WARN_UNUSED s24_status_t s24_op_quant_from(const s24_tfl_model_t *m, size_t index,
                                               const void *params, void *const *data,
                                               size_t from);

/** TFLite's QuantizeMultiplier (kernels/internal/quantization_util.cc) of a double: *q and
 *  *shift with x ~= q * 2^(shift - 31), 2^30 <= q < 2^31 (0 and 0 for x == 0; a shift above 30
 *  saturates to q = 2^31 - 1, shift 30). Also used by the executor for CONV_2D and
 *  FULLY_CONNECTED. Note: the kernels here apply it as the LiteRT 2.3.0 wheel does, with the
 *  double-rounding MultiplyByQuantizedMultiplier (built without TFLITE_SINGLE_ROUNDING), which
 *  BUILTIN_REF's CONV_2D uses too; its int8 FULLY_CONNECTED requantizes in double instead. */
void s24_quantize_multiplier(double x, int32_t *q, int32_t *shift);

/** TFLite's CalculateActivationRangeQuantized for an int8 output of scale s and zero point zp
 *  (kernels/kernel_util.cc): *lo, *hi for activation act (NONE, RELU, RELU6, RELU_N1_TO_1).
 *  S24_ERR_UNSUPPORTED for another activation. */
S24_WARN_UNUSED s24_status_t s24_act_range_i8(int32_t act, float s, int32_t zp, int32_t *lo,
                                              int32_t *hi);

#ifdef __cplusplus
}
#endif

#endif  // S24_OPS_H_
