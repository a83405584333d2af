// SPDX-License-Identifier: Apache-2.0
// sparse24 network runtime: a bounds-checked reader of TFLite flatbuffers (SPEC §8).
//
// s24_tfl_parse() verifies every offset, size and vector length of the file against the buffer
// before it follows it (as flatbuffers' verifier does) and turns the model's one subgraph into
// plain C structs. Nothing here interprets the graph: which operators run where, and their
// arithmetic, are runtime/s24_net.c and runtime/s24_ops.c. The model struct points into the
// caller's file buffer (names, constant data), which must outlive it.
//
// Schema (tensorflow/lite/schema/schema.fbs), the fields read:
//   Model      { version:uint 0, operator_codes 1, subgraphs 2, description 3, buffers 4 }
//   OperatorCode { deprecated_builtin_code:byte 0, custom_code 1, version:int 2,
//                  builtin_code:int 3 }  (the operator is max(deprecated, builtin_code))
//   SubGraph   { tensors 0, inputs:[int] 1, outputs:[int] 2, operators 3, name 4 }
//   Tensor     { shape:[int] 0, type:byte 1, buffer:uint 2, name 3, quantization 4 }
//   QuantizationParameters { min 0, max 1, scale:[float] 2, zero_point:[long] 3,
//                            details_type 4, details 5, quantized_dimension:int 6 }
//   Operator   { opcode_index:uint 0, inputs:[int] 1, outputs:[int] 2,
//                builtin_options_type:ubyte 3, builtin_options 4 }
//   Buffer     { data:[ubyte] 0, offset:ulong 1, size:ulong 2 }
#ifndef S24_TFLITE_H_
#define S24_TFLITE_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_arena.h"
#include "s24_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Tensor types (schema TensorType) the runtime knows by name. */
typedef enum {
  S24_TFL_FLOAT32 = 0,
  S24_TFL_FLOAT16 = 1,
  S24_TFL_INT32 = 2,
  S24_TFL_UINT8 = 3,
  S24_TFL_INT64 = 4,
  S24_TFL_STRING = 5,
  S24_TFL_BOOL = 6,
  S24_TFL_INT16 = 7,
  S24_TFL_INT8 = 9,
} s24_tfl_type_t;

/** Builtin operator codes (schema BuiltinOperator) the runtime handles. */
typedef enum {
  S24_OP_ADD = 0,
  S24_OP_AVERAGE_POOL_2D = 1,
  S24_OP_CONCATENATION = 2,
  S24_OP_CONV_2D = 3,
  S24_OP_DEPTHWISE_CONV_2D = 4,
  S24_OP_DEQUANTIZE = 6,
  S24_OP_FULLY_CONNECTED = 9,
  S24_OP_LOGISTIC = 14,
  S24_OP_MAX_POOL_2D = 17,
  S24_OP_MUL = 18,
  S24_OP_RELU = 19,
  S24_OP_RELU6 = 21,
  S24_OP_RESHAPE = 22,
  S24_OP_SOFTMAX = 25,
  S24_OP_TANH = 28,
  S24_OP_PAD = 34,
  S24_OP_TRANSPOSE = 39,
  S24_OP_MEAN = 40,
  S24_OP_SUB = 41,
  S24_OP_SQUEEZE = 43,
  S24_OP_STRIDED_SLICE = 45,
  S24_OP_SPLIT = 49,
  S24_OP_SHAPE = 77,
  S24_OP_PACK = 83,
  S24_OP_RESIZE_NEAREST_NEIGHBOR = 97,
  S24_OP_LEAKY_RELU = 98,
  S24_OP_QUANTIZE = 114,
  S24_OP_HARD_SWISH = 117,
} s24_tfl_opcode_t;

/** Fused activations (schema ActivationFunctionType). */
typedef enum {
  S24_ACT_NONE = 0,
  S24_ACT_RELU = 1,
  S24_ACT_RELU_N1_TO_1 = 2,
  S24_ACT_RELU6 = 3,
  S24_ACT_TANH = 4,
  S24_ACT_SIGN_BIT = 5,
} s24_tfl_act_t;

/** Padding (schema Padding). */
typedef enum { S24_PAD_SAME = 0, S24_PAD_VALID = 1 } s24_tfl_padding_t;

#define S24_TFL_MAX_DIMS 6     /**< tensors of higher rank are refused */
#define S24_TFL_MAX_OP_IO 16   /**< inputs or outputs of one operator; more is refused */
#define S24_TFL_MAX_NEW_SHAPE 8
#define S24_TFL_NAME_SHOWN 48      /**< bytes of a name a message shows (s24_tfl_name_str) */
#define S24_TFL_MAX_SQUEEZE_DIMS 8  /**< as LiteRT's TfLiteSqueezeParams; more is refused */
#define S24_TFL_MAX_TENSORS 65536  /**< tensors of the subgraph; more is refused */
#define S24_TFL_MAX_OPS 65536      /**< operators of the subgraph; more is refused (these bound
                                        the memory a small file can make the reader allocate:
                                        many entries of a vector may share one table) */

typedef struct {
  const char *name;       /**< into the file buffer, name_len bytes (the file has a NUL after
                               them, checked); "" (name_len 0) when the tensor has no name */
  size_t name_len;
  int32_t type;           /**< s24_tfl_type_t (any schema value is kept; the user checks) */
  uint32_t rank;          /**< <= S24_TFL_MAX_DIMS */
  int32_t dims[S24_TFL_MAX_DIMS];  /**< each >= 0 */
  size_t elems;           /**< product of dims (1 for rank 0) */
  size_t bytes;           /**< elems * element size of type (0 for a type of unknown size) */
  uint32_t buffer;        /**< index into the model's buffers */
  const uint8_t *data;    /**< constant data (into the file buffer: Buffer.data, or
                               Buffer.offset/size when offset > 1 as LiteRT reads it), or NULL when
                               the buffer is empty; when not NULL, data_len == bytes (checked) for
                               a type of fixed size; for a type without one (bytes 0: STRING,
                               INT4, ...) data_len is what the file holds */
  size_t data_len;
  size_t data_offset;     /**< offset of data in the file (for `prune`, which rewrites it) */
  size_t n_quant;         /**< number of scales; zero points: same count. As LiteRT: 0 (not
                               quantized, scale and zero_point NULL) when the scale vector is
                               absent or empty; a scale vector without a zero_point vector of the
                               same length is refused; n_quant is 1 (per tensor) or dims[quant_dim]
                               (per channel), checked */
  float *scale;           /**< n_quant entries (copied into the arena: the file's floats may be
                               unaligned) */
  int64_t *zero_point;    /**< n_quant entries */
  int32_t quant_dim;      /**< quantized_dimension (per-channel axis; < rank when n_quant > 0) */
} s24_tfl_tensor_t;

/** builtin_options_type values (schema BuiltinOptions union) of the option tables read. */
typedef enum {
  S24_TFL_OPT_NONE = 0,
  S24_TFL_OPT_CONV_2D = 1,
  S24_TFL_OPT_DEPTHWISE_CONV_2D = 2,
  S24_TFL_OPT_POOL_2D = 5,
  S24_TFL_OPT_FULLY_CONNECTED = 8,
  S24_TFL_OPT_SOFTMAX = 9,
  S24_TFL_OPT_CONCATENATION = 10,
  S24_TFL_OPT_ADD = 11,
  S24_TFL_OPT_RESHAPE = 17,
  S24_TFL_OPT_MUL = 21,
  S24_TFL_OPT_PAD = 22,
  S24_TFL_OPT_TRANSPOSE = 26,
  S24_TFL_OPT_REDUCER = 27,
  S24_TFL_OPT_SUB = 28,
  S24_TFL_OPT_SQUEEZE = 30,
  S24_TFL_OPT_STRIDED_SLICE = 32,
  S24_TFL_OPT_SPLIT = 35,
  S24_TFL_OPT_PACK = 59,
  S24_TFL_OPT_RESIZE_NEAREST_NEIGHBOR = 74,
  S24_TFL_OPT_LEAKY_RELU = 75,
  S24_TFL_OPT_HARD_SWISH = 91,
} s24_tfl_options_type_t;

/** Builtin options of the operators the runtime handles, filled from the operator's
 *  builtin_options table when its type matches (defaults of the schema otherwise). */
typedef struct {
  int32_t padding;             /**< s24_tfl_padding_t: Conv2D, DepthwiseConv2D, Pool2D */
  int32_t stride_w, stride_h;  /**< Conv2D, DepthwiseConv2D, Pool2D */
  int32_t dilation_w, dilation_h;  /**< Conv2D, DepthwiseConv2D (default 1) */
  int32_t depth_multiplier;    /**< DepthwiseConv2D */
  int32_t filter_w, filter_h;  /**< Pool2D */
  int32_t activation;          /**< s24_tfl_act_t: Conv2D, DepthwiseConv2D, Pool2D,
                                    FullyConnected, Add, Sub, Mul, Concatenation */
  int32_t fc_weights_format;   /**< FullyConnected (0 = DEFAULT) */
  int32_t keep_num_dims;       /**< FullyConnected */
  int32_t keep_dims;           /**< Reducer (MEAN) */
  float beta;                  /**< Softmax */
  int32_t begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask, ss_offset;
                               /**< StridedSlice */
  int32_t values_count;        /**< Pack */
  int32_t axis;                /**< Pack, Concatenation */
  uint32_t n_new_shape;        /**< Reshape's new_shape (<= S24_TFL_MAX_NEW_SHAPE) */
  int32_t new_shape[S24_TFL_MAX_NEW_SHAPE];
  int32_t num_splits;          /**< Split */
  uint32_t n_squeeze_dims;     /**< Squeeze's squeeze_dims (<= S24_TFL_MAX_SQUEEZE_DIMS) */
  int32_t squeeze_dims[S24_TFL_MAX_SQUEEZE_DIMS];
  int32_t align_corners, half_pixel_centers;  /**< ResizeNearestNeighbor */
  float alpha;                 /**< LeakyRelu */
} s24_tfl_options_t;

typedef struct {
  int32_t opcode;         /**< builtin operator code (s24_tfl_opcode_t or any other value) */
  int32_t version;        /**< OperatorCode.version */
  int is_custom;          /**< the operator code names a custom operator */
  uint32_t n_in, n_out;
  int32_t in[S24_TFL_MAX_OP_IO];   /**< tensor indices (-1: optional input absent); checked
                                        < n_tensors */
  int32_t out[S24_TFL_MAX_OP_IO];
  uint8_t options_type;   /**< builtin_options_type as in the file; opt is read from the table
                               only for the types below, so the user checks that it is the one
                               the opcode expects (e.g. 1 Conv2DOptions for CONV_2D) */
  s24_tfl_options_t opt;
} s24_tfl_op_t;

typedef struct {
  const uint8_t *file;    /**< the caller's buffer */
  size_t file_len;
  uint32_t version;       /**< Model.version */
  size_t n_tensors;
  s24_tfl_tensor_t *tensors;
  size_t n_ops;
  s24_tfl_op_t *ops;
  size_t n_inputs, n_outputs;
  int32_t inputs[S24_TFL_MAX_OP_IO];   /**< subgraph inputs (checked < n_tensors) */
  int32_t outputs[S24_TFL_MAX_OP_IO];
} s24_tfl_model_t;

/** Parses a .tflite file held in buf[0 .. len): identifier "TFL3", exactly one subgraph, every
 *  offset, vector and string inside buf, every tensor/operator/buffer index in range, ranks
 *  <= S24_TFL_MAX_DIMS, non-negative dims whose product fits size_t, constant data exactly the
 *  tensor's size, quantization vectors of equal length. The model's tables (tensors, operators,
 *  quantization parameters) are allocated from arena; names and constant data stay in buf.
 *  S24_ERR_FORMAT with one line in err naming what and where ("tensor 12 (conv/w): ..."), or
 *  S24_ERR_NOMEM when the arena is too small (arena->need says how much it needed at least);
 *  on failure the arena is as it was. */
S24_WARN_UNUSED s24_status_t s24_tfl_parse(const uint8_t *buf, size_t len, s24_arena_t *arena,
                                           s24_tfl_model_t *m, char *err, size_t errlen);
/** The one sanitiser of names from a file, for every message that shows one: at most
 *  S24_TFL_NAME_SHOWN bytes (then "..."), every byte outside printable ASCII as '?'. Writes a
 *  NUL-terminated string into out (outlen >= S24_TFL_NAME_SHOWN + 4 holds any) and returns its
 *  length. */
size_t s24_tfl_name_str(const char *name, size_t len, char *out, size_t outlen);
/** "tensor 12 (NAME)" with the name sanitised (s24_tfl_name_str), into buf; returns buf. */
const char *s24_tfl_tensor_str(const s24_tfl_model_t *m, int32_t t, char *buf, size_t len);
/** 1 if buf starts like a TFLite flatbuffer (len >= 8, identifier "TFL3" at bytes 4..7). */
int s24_tfl_is_tflite(const uint8_t *buf, size_t len);
/** The schema's name of a builtin operator code ("CONV_2D"); "UNKNOWN" outside the table. */
const char *s24_tfl_op_name(int32_t opcode);
/** The schema's name of a tensor type ("INT8"); "UNKNOWN" outside the table. */
const char *s24_tfl_type_name(int32_t type);
/** Bytes of one element of a type; 0 for a type without a fixed size. */
size_t s24_tfl_type_size(int32_t type);

#ifdef __cplusplus
}
#endif

#endif  // S24_TFLITE_H_
