// cmocka unit tests of the .tflite reader (runtime/s24_tflite.c, SPEC §8).
//
//  - the four MLPerf Tiny int8 models (ad, ic, kws, vww; directory = argv[1], else $S24_MODELS):
//    every tensor (type, shape, buffer, constant data's size and FNV-1a hash, quantization count,
//    axis, first and last scale, first zero point, name's length and hash) and every operator
//    (name, code, inputs, outputs, options type and values) equal what LiteRT 2.3.0 reports
//    (Interpreter.get_tensor_details/_get_ops_details and its schema_py_generated reader; the
//    tables below were generated from them once);
//  - small models built here with a minimal flatbuffer writer: custom and deprecated operator
//    codes, unnamed tensors, Buffer.offset/size data, every quantization rule, option defaults,
//    each refused in the ways the format allows (subgraph count, sentinel buffer, vtables, fields
//    outside their table, strings without NUL, too many inputs, indices out of range, ...);
//  - malformed MLPerf files: every truncation of kws.tflite, random byte changes (seed printed;
//    rerun one with S24_SEED=N), a wrong identifier, offsets pointing outside, a vector length of
//    0x7fffffff, tensor indices out of range, negative and overflowing dims, constant data of the
//    wrong size, scale and zero point counts that differ. Every failure is S24_ERR_FORMAT with one
//    line naming the place, and leaves the model zeroed; every success satisfies the header's
//    invariants. Each parse reads from an allocation of exactly the file's size (ASan).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "s24_tflite.h"

typedef struct {
  int32_t type;
  uint32_t rank;
  int32_t dims[4];
  uint32_t buffer;
  size_t data_len;
  uint32_t data_fnv;
  size_t n_quant;
  int32_t quant_dim;
  float scale0, scale_last;
  int64_t zp0;
  size_t name_len;
  uint32_t name_fnv;
} exp_tensor_t;

typedef struct {
  const char *name;
  uint32_t n_in, n_out;
  int32_t in[4];
  int32_t opcode;
  int32_t out[1];
  uint8_t options_type;
  s24_tfl_options_t opt;
} exp_op_t;

typedef struct {
  const char *name;
  uint32_t version;
  size_t n_tensors, n_ops, n_inputs;
  int32_t input;
  size_t n_outputs;
  int32_t output;
  const exp_tensor_t *tensors;
  const exp_op_t *ops;
} exp_model_t;

// ---------------------------------------------------------------- expectations (from LiteRT)
// Generated once by a script over ai_edge_litert 2.3.0 (Interpreter and schema_py_generated).
// ad.tflite: 44 tensors, 17 operators
static const exp_tensor_t k_ad_tensors[] = {
    {9, 4, {1, 5, 128, 1}, 1, 0, 0x811c9dc5u, 1, 0, 0x1.dbdbdc0000000p-1f,
        0x1.dbdbdc0000000p-1f, -128, 12, 0x8185a163u},
    {2, 1, {640}, 2, 2560, 0x26daf8a5u, 1, 0, 0x1.c6f7cc0000000p-11f, 0x1.c6f7cc0000000p-11f, 0,
        45, 0xee5d5292u},
    {2, 1, {2}, 3, 8, 0xf0d2aaabu, 0, 0, 0.0f, 0.0f, 0, 19, 0x5ac64d4bu},
    {2, 0, {0}, 4, 4, 0xbab8b9c0u, 0, 0, 0.0f, 0.0f, 0, 29, 0x37c57750u},
    {2, 0, {0}, 5, 4, 0x35766c95u, 0, 0, 0.0f, 0.0f, 0, 29, 0x3ac57c09u},
    {2, 0, {0}, 6, 4, 0xfb69b604u, 0, 0, 0.0f, 0.0f, 0, 29, 0x39c57a76u},
    {2, 1, {128}, 7, 512, 0x1470876eu, 1, 0, 0x1.153b900000000p-15f, 0x1.153b900000000p-15f, 0,
        63, 0xd5eedda8u},
    {2, 1, {128}, 8, 512, 0xc6127629u, 1, 0, 0x1.e9f6f00000000p-13f, 0x1.e9f6f00000000p-13f, 0,
        67, 0x9fbdf33cu},
    {2, 1, {128}, 9, 512, 0xb01c8e49u, 1, 0, 0x1.60dbe60000000p-13f, 0x1.60dbe60000000p-13f, 0,
        67, 0x2982d866u},
    {2, 1, {128}, 10, 512, 0x32ec1ab7u, 1, 0, 0x1.e413b40000000p-14f, 0x1.e413b40000000p-14f, 0,
        67, 0x6e249ad0u},
    {2, 1, {8}, 11, 32, 0x7a0e0b00u, 1, 0, 0x1.467fa20000000p-15f, 0x1.467fa20000000p-15f, 0,
        67, 0x7fa7ff86u},
    {2, 1, {128}, 12, 512, 0xcbbe0b07u, 1, 0, 0x1.2d22a40000000p-12f, 0x1.2d22a40000000p-12f, 0,
        67, 0xa593046cu},
    {2, 1, {128}, 13, 512, 0xdad406b6u, 1, 0, 0x1.1e0eda0000000p-14f, 0x1.1e0eda0000000p-14f, 0,
        67, 0x1977a1a6u},
    {2, 1, {128}, 14, 512, 0x5e173975u, 1, 0, 0x1.9320260000000p-14f, 0x1.9320260000000p-14f, 0,
        67, 0xc793fb68u},
    {2, 1, {128}, 15, 512, 0x31718780u, 1, 0, 0x1.6a6f160000000p-13f, 0x1.6a6f160000000p-13f, 0,
        67, 0x5bfcf506u},
    {9, 2, {640, 128}, 16, 81920, 0x387ab3a7u, 1, 0, 0x1.3576380000000p-6f,
        0x1.3576380000000p-6f, 0, 20, 0x7c18d39fu},
    {9, 2, {128, 640}, 17, 81920, 0xeed2e520u, 1, 0, 0x1.2a49ce0000000p-15f,
        0x1.2a49ce0000000p-15f, 0, 41, 0xf260a2b7u},
    {9, 2, {128, 128}, 18, 16384, 0x5cd69c8du, 1, 0, 0x1.10cafa0000000p-8f,
        0x1.10cafa0000000p-8f, 0, 43, 0x0dbfed8bu},
    {9, 2, {128, 128}, 19, 16384, 0x4a6f4d58u, 1, 0, 0x1.5984360000000p-9f,
        0x1.5984360000000p-9f, 0, 43, 0xa152657eu},
    {9, 2, {128, 128}, 20, 16384, 0x29b3e99cu, 1, 0, 0x1.2e1e960000000p-9f,
        0x1.2e1e960000000p-9f, 0, 43, 0x19417a49u},
    {9, 2, {8, 128}, 21, 1024, 0xf44902feu, 1, 0, 0x1.3d4b500000000p-10f,
        0x1.3d4b500000000p-10f, 0, 43, 0x2dcb3b54u},
    {9, 2, {128, 8}, 22, 1024, 0x8cc8c104u, 1, 0, 0x1.3ca7880000000p-6f, 0x1.3ca7880000000p-6f,
        0, 43, 0xbdf50f67u},
    {9, 2, {128, 128}, 23, 16384, 0x46a969abu, 1, 0, 0x1.5b45700000000p-9f,
        0x1.5b45700000000p-9f, 0, 43, 0xd6d6544au},
    {9, 2, {128, 128}, 24, 16384, 0x86f80e1fu, 1, 0, 0x1.75e7400000000p-9f,
        0x1.75e7400000000p-9f, 0, 43, 0x74c3ff05u},
    {9, 2, {128, 128}, 25, 16384, 0xa1b817b5u, 1, 0, 0x1.cfdaa40000000p-8f,
        0x1.cfdaa40000000p-8f, 0, 43, 0x62e44ac0u},
    {2, 1, {1}, 26, 4, 0x4b95f515u, 0, 0, 0.0f, 0.0f, 0, 27, 0xec3b1282u},
    {2, 1, {1}, 27, 4, 0xfb69b604u, 0, 0, 0.0f, 0.0f, 0, 28, 0x93fe6fc9u},
    {9, 2, {1, 640}, 28, 0, 0x811c9dc5u, 1, 0, 0x1.dbdbdc0000000p-1f, 0x1.dbdbdc0000000p-1f,
        -128, 21, 0x051fb1c2u},
    {9, 2, {1, 128}, 29, 0, 0x811c9dc5u, 1, 0, 0x1.cbcd860000000p-5f, 0x1.cbcd860000000p-5f,
        -128, 144, 0x95d09449u},
    {9, 2, {1, 128}, 30, 0, 0x811c9dc5u, 1, 0, 0x1.0570b20000000p-4f, 0x1.0570b20000000p-4f,
        -128, 154, 0x1e007c09u},
    {9, 2, {1, 128}, 31, 0, 0x811c9dc5u, 1, 0, 0x1.9a2e5e0000000p-5f, 0x1.9a2e5e0000000p-5f,
        -128, 154, 0xce33ce6cu},
    {9, 2, {1, 128}, 32, 0, 0x811c9dc5u, 1, 0, 0x1.076d220000000p-5f, 0x1.076d220000000p-5f,
        -128, 154, 0x129e1d5fu},
    {9, 2, {1, 8}, 33, 0, 0x811c9dc5u, 1, 0, 0x1.e6e8360000000p-7f, 0x1.e6e8360000000p-7f, -128,
        154, 0x5753cd6au},
    {9, 2, {1, 128}, 34, 0, 0x811c9dc5u, 1, 0, 0x1.a5c00a0000000p-6f, 0x1.a5c00a0000000p-6f,
        -128, 154, 0xeeb69975u},
    {9, 2, {1, 128}, 35, 0, 0x811c9dc5u, 1, 0, 0x1.1401f00000000p-5f, 0x1.1401f00000000p-5f,
        -128, 154, 0x763ea918u},
    {9, 2, {1, 128}, 36, 0, 0x811c9dc5u, 1, 0, 0x1.900d8c0000000p-6f, 0x1.900d8c0000000p-6f,
        -128, 154, 0x6778299bu},
    {9, 2, {1, 128}, 37, 0, 0x811c9dc5u, 1, 0, 0x1.785e700000000p-5f, 0x1.785e700000000p-5f,
        -128, 154, 0x5df8d986u},
    {9, 2, {1, 640}, 38, 0, 0x811c9dc5u, 1, 0, 0x1.be6a5a0000000p-1f, 0x1.be6a5a0000000p-1f,
        -128, 42, 0xc0a714eau},
    {2, 1, {2}, 39, 0, 0x811c9dc5u, 0, 0, 0.0f, 0.0f, 0, 19, 0xce959439u},
    {2, 0, {0}, 40, 0, 0x811c9dc5u, 0, 0, 0.0f, 0.0f, 0, 28, 0x90fe6b10u},
    {2, 1, {4}, 41, 0, 0x811c9dc5u, 0, 0, 0.0f, 0.0f, 0, 27, 0x992d1a74u},
    {9, 4, {1, 5, 128, 1}, 42, 0, 0x811c9dc5u, 1, 0, 0x1.be6a5a0000000p-1f,
        0x1.be6a5a0000000p-1f, -128, 13, 0xcf8c60b7u},
    {0, 4, {1, 5, 128, 1}, 0, 0, 0x811c9dc5u, 0, 0, 0.0f, 0.0f, 0, 7, 0xc604a627u},
    {0, 4, {1, 5, 128, 1}, 0, 0, 0x811c9dc5u, 0, 0, 0.0f, 0.0f, 0, 8, 0xdfc1d0bbu},
};
static const exp_op_t k_ad_ops[] = {
    {"QUANTIZE", 1, 1, {42}, 114, {0}, 0, {.dilation_w = 1, .dilation_h = 1}},
    {"RESHAPE", 2, 1, {0, 2}, 22, {27}, 0, {.dilation_w = 1, .dilation_h = 1}},
    {"FULLY_CONNECTED", 3, 1, {27, 16, 6}, 9, {28}, 8, {.activation = 1, .fc_weights_format = 0,
        .keep_num_dims = 0, .dilation_w = 1, .dilation_h = 1}},
    {"FULLY_CONNECTED", 3, 1, {28, 17, 7}, 9, {29}, 8, {.activation = 1, .fc_weights_format = 0,
        .keep_num_dims = 0, .dilation_w = 1, .dilation_h = 1}},
    {"FULLY_CONNECTED", 3, 1, {29, 18, 8}, 9, {30}, 8, {.activation = 1, .fc_weights_format = 0,
        .keep_num_dims = 0, .dilation_w = 1, .dilation_h = 1}},
    {"FULLY_CONNECTED", 3, 1, {30, 19, 9}, 9, {31}, 8, {.activation = 1, .fc_weights_format = 0,
        .keep_num_dims = 0, .dilation_w = 1, .dilation_h = 1}},
    {"FULLY_CONNECTED", 3, 1, {31, 20, 10}, 9, {32}, 8, {.activation = 1, .fc_weights_format =
        0, .keep_num_dims = 0, .dilation_w = 1, .dilation_h = 1}},
    {"FULLY_CONNECTED", 3, 1, {32, 21, 11}, 9, {33}, 8, {.activation = 1, .fc_weights_format =
        0, .keep_num_dims = 0, .dilation_w = 1, .dilation_h = 1}},
    {"FULLY_CONNECTED", 3, 1, {33, 22, 12}, 9, {34}, 8, {.activation = 1, .fc_weights_format =
        0, .keep_num_dims = 0, .dilation_w = 1, .dilation_h = 1}},
    {"FULLY_CONNECTED", 3, 1, {34, 23, 13}, 9, {35}, 8, {.activation = 1, .fc_weights_format =
        0, .keep_num_dims = 0, .dilation_w = 1, .dilation_h = 1}},
    {"FULLY_CONNECTED", 3, 1, {35, 24, 14}, 9, {36}, 8, {.activation = 1, .fc_weights_format =
        0, .keep_num_dims = 0, .dilation_w = 1, .dilation_h = 1}},
    {"FULLY_CONNECTED", 3, 1, {36, 15, 1}, 9, {37}, 8, {.activation = 0, .fc_weights_format = 0,
        .keep_num_dims = 0, .dilation_w = 1, .dilation_h = 1}},
    {"SHAPE", 1, 1, {37}, 77, {38}, 55, {.dilation_w = 1, .dilation_h = 1}},
    {"STRIDED_SLICE", 4, 1, {38, 25, 26, 26}, 45, {39}, 32, {.begin_mask = 0, .end_mask = 0,
        .ellipsis_mask = 0, .new_axis_mask = 0, .shrink_axis_mask = 1, .ss_offset = 0,
        .dilation_w = 1, .dilation_h = 1}},
    {"PACK", 4, 1, {39, 3, 4, 5}, 83, {40}, 59, {.values_count = 4, .axis = 0, .dilation_w = 1,
        .dilation_h = 1}},
    {"RESHAPE", 2, 1, {37, 40}, 22, {41}, 0, {.dilation_w = 1, .dilation_h = 1}},
    {"DEQUANTIZE", 1, 1, {41}, 6, {43}, 0, {.dilation_w = 1, .dilation_h = 1}},
};
static const exp_model_t k_ad = {"ad", 3, 44, 17, 1, 42, 1, 43, k_ad_tensors, k_ad_ops};

// ic.tflite: 38 tensors, 16 operators
static const exp_tensor_t k_ic_tensors[] = {
    {9, 4, {1, 32, 32, 3}, 1, 0, 0x811c9dc5u, 1, 0, 0x1.0000000000000p-7f,
        0x1.0000000000000p-7f, 0, 12, 0x8185a163u},
    {2, 1, {10}, 2, 40, 0xf7de6240u, 1, 0, 0x1.3bc0700000000p-8f, 0x1.3bc0700000000p-8f, 0, 43,
        0x325112d2u},
    {2, 1, {2}, 3, 8, 0x8fcf5e01u, 0, 0, 0.0f, 0.0f, 0, 19, 0x5ac64d4bu},
    {2, 1, {16}, 4, 64, 0x76114557u, 16, 0, 0x1.bc62e00000000p-16f, 0x1.c5218a0000000p-14f, 0,
        172, 0xbfc1dd7cu},
    {2, 1, {16}, 5, 64, 0xf34702e1u, 16, 0, 0x1.8c9aaa0000000p-14f, 0x1.c469340000000p-13f, 0,
        182, 0xb98e7368u},
    {2, 1, {32}, 6, 128, 0xb2b800bfu, 32, 0, 0x1.b72bca0000000p-14f, 0x1.ba70d20000000p-14f, 0,
        182, 0x1674f9c1u},
    {2, 1, {64}, 7, 256, 0x53f0e0b8u, 64, 0, 0x1.822b500000000p-15f, 0x1.2a9c500000000p-15f, 0,
        182, 0x5d0b939bu},
    {9, 2, {10, 64}, 8, 640, 0x2cd1eba8u, 1, 0, 0x1.541d700000000p-5f, 0x1.541d700000000p-5f, 0,
        18, 0xf18521dfu},
    {9, 4, {16, 3, 3, 3}, 9, 432, 0xb513eee0u, 16, 0, 0x1.bc62e00000000p-9f,
        0x1.c5218a0000000p-7f, 0, 19, 0x16b52ae0u},
    {9, 4, {16, 3, 3, 16}, 10, 2304, 0x856346ffu, 16, 0, 0x1.6b37a80000000p-9f,
        0x1.9e538a0000000p-8f, 0, 21, 0x9850f3d4u},
    {9, 4, {16, 3, 3, 16}, 11, 2304, 0xb36220b9u, 16, 0, 0x1.76ca080000000p-10f,
        0x1.801e500000000p-10f, 0, 21, 0xb07e552bu},
    {9, 4, {32, 3, 3, 16}, 12, 4608, 0x39acf85du, 32, 0, 0x1.1294020000000p-9f,
        0x1.149f560000000p-9f, 0, 21, 0x8125ff16u},
    {9, 4, {32, 3, 3, 32}, 13, 9216, 0xb2ccd723u, 32, 0, 0x1.270bb60000000p-8f,
        0x1.968f920000000p-9f, 0, 21, 0xc66406ddu},
    {9, 4, {32, 1, 1, 16}, 14, 512, 0xa4184031u, 32, 0, 0x1.a1bba20000000p-9f,
        0x1.29888c0000000p-9f, 0, 21, 0x2695f6e0u},
    {9, 4, {64, 3, 3, 32}, 15, 18432, 0x9a07cbb5u, 64, 0, 0x1.b66a5a0000000p-11f,
        0x1.5302be0000000p-11f, 0, 21, 0x345fd287u},
    {9, 4, {64, 3, 3, 64}, 16, 36864, 0xc188d88du, 64, 0, 0x1.a656fa0000000p-7f,
        0x1.2405320000000p-7f, 0, 21, 0x167dff82u},
    {9, 4, {64, 1, 1, 32}, 17, 2048, 0xb958c3b5u, 64, 0, 0x1.0450b20000000p-8f,
        0x1.6dda7e0000000p-9f, 0, 21, 0xc570fa29u},
    {2, 1, {16}, 18, 64, 0x8511713au, 16, 0, 0x1.2d1ae40000000p-14f, 0x1.3499a20000000p-14f, 0,
        114, 0xe6832d7cu},
    {2, 1, {32}, 19, 128, 0x69910878u, 32, 0, 0x1.b3add60000000p-13f, 0x1.2c2c820000000p-13f, 0,
        114, 0x7f0f82ceu},
    {2, 1, {32}, 20, 128, 0x95f8242eu, 32, 0, 0x1.4e11b80000000p-13f, 0x1.dbe2f40000000p-14f, 0,
        91, 0x2ad35373u},
    {2, 1, {64}, 21, 256, 0x31cc33d8u, 64, 0, 0x1.87bda00000000p-12f, 0x1.0edcf20000000p-12f, 0,
        114, 0x103adfa2u},
    {2, 1, {64}, 22, 256, 0xf99a1a43u, 64, 0, 0x1.ca962a0000000p-13f, 0x1.4241280000000p-13f, 0,
        91, 0x0c04f06eu},
    {9, 4, {1, 32, 32, 16}, 23, 0, 0x811c9dc5u, 1, 0, 0x1.1788080000000p-5f,
        0x1.1788080000000p-5f, -128, 173, 0x2b2f6037u},
    {9, 4, {1, 32, 32, 16}, 24, 0, 0x811c9dc5u, 1, 0, 0x1.9b570a0000000p-5f,
        0x1.9b570a0000000p-5f, -128, 183, 0x743f951bu},
    {9, 4, {1, 32, 32, 16}, 25, 0, 0x811c9dc5u, 1, 0, 0x1.4f483e0000000p-4f,
        0x1.4f483e0000000p-4f, 20, 136, 0xeb6bd02bu},
    {9, 4, {1, 32, 32, 16}, 26, 0, 0x811c9dc5u, 1, 0, 0x1.9974d80000000p-5f,
        0x1.9974d80000000p-5f, -128, 37, 0x3f1ccfa7u},
    {9, 4, {1, 16, 16, 32}, 27, 0, 0x811c9dc5u, 1, 0, 0x1.7a05ae0000000p-5f,
        0x1.7a05ae0000000p-5f, -128, 183, 0x4a2574d0u},
    {9, 4, {1, 16, 16, 32}, 28, 0, 0x811c9dc5u, 1, 0, 0x1.21c0640000000p-3f,
        0x1.21c0640000000p-3f, 26, 158, 0xbc4178a3u},
    {9, 4, {1, 16, 16, 32}, 29, 0, 0x811c9dc5u, 1, 0, 0x1.4510d00000000p-5f,
        0x1.4510d00000000p-5f, -3, 92, 0xacac10e6u},
    {9, 4, {1, 16, 16, 32}, 30, 0, 0x811c9dc5u, 1, 0, 0x1.c2fc120000000p-5f,
        0x1.c2fc120000000p-5f, -128, 39, 0x77f2ee69u},
    {9, 4, {1, 8, 8, 64}, 31, 0, 0x811c9dc5u, 1, 0, 0x1.dae7ac0000000p-6f,
        0x1.dae7ac0000000p-6f, -128, 183, 0x2339749eu},
    {9, 4, {1, 8, 8, 64}, 32, 0, 0x811c9dc5u, 1, 0, 0x1.d0555a0000000p-3f,
        0x1.d0555a0000000p-3f, -21, 158, 0x1e989ab1u},
    {9, 4, {1, 8, 8, 64}, 33, 0, 0x811c9dc5u, 1, 0, 0x1.83f3a40000000p-4f,
        0x1.83f3a40000000p-4f, 52, 92, 0x4ac6658du},
    {9, 4, {1, 8, 8, 64}, 34, 0, 0x811c9dc5u, 1, 0, 0x1.db52fe0000000p-4f,
        0x1.db52fe0000000p-4f, -128, 39, 0xde45b36eu},
    {9, 4, {1, 1, 1, 64}, 35, 0, 0x811c9dc5u, 1, 0, 0x1.db52fe0000000p-4f,
        0x1.db52fe0000000p-4f, -128, 31, 0xe7b3cb50u},
    {9, 2, {1, 64}, 36, 0, 0x811c9dc5u, 1, 0, 0x1.db52fe0000000p-4f, 0x1.db52fe0000000p-4f,
        -128, 21, 0x051fb1c2u},
    {9, 2, {1, 10}, 37, 0, 0x811c9dc5u, 1, 0, 0x1.3ad1c80000000p-3f, 0x1.3ad1c80000000p-3f, 32,
        38, 0xe1533fb2u},
    {9, 2, {1, 10}, 38, 0, 0x811c9dc5u, 1, 0, 0x1.0000000000000p-8f, 0x1.0000000000000p-8f,
        -128, 13, 0xcf8c60b7u},
};
static const exp_op_t k_ic_ops[] = {
    {"CONV_2D", 3, 1, {0, 8, 3}, 3, {22}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"CONV_2D", 3, 1, {22, 9, 4}, 3, {23}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"CONV_2D", 3, 1, {23, 10, 17}, 3, {24}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 0}},
    {"ADD", 2, 1, {22, 24}, 0, {25}, 11, {.activation = 1, .dilation_w = 1, .dilation_h = 1}},
    {"CONV_2D", 3, 1, {25, 11, 5}, 3, {26}, 1, {.padding = 0, .stride_w = 2, .stride_h = 2,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"CONV_2D", 3, 1, {26, 12, 18}, 3, {27}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 0}},
    {"CONV_2D", 3, 1, {25, 13, 19}, 3, {28}, 1, {.padding = 0, .stride_w = 2, .stride_h = 2,
        .dilation_w = 1, .dilation_h = 1, .activation = 0}},
    {"ADD", 2, 1, {28, 27}, 0, {29}, 11, {.activation = 1, .dilation_w = 1, .dilation_h = 1}},
    {"CONV_2D", 3, 1, {29, 14, 6}, 3, {30}, 1, {.padding = 0, .stride_w = 2, .stride_h = 2,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"CONV_2D", 3, 1, {30, 15, 20}, 3, {31}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 0}},
    {"CONV_2D", 3, 1, {29, 16, 21}, 3, {32}, 1, {.padding = 0, .stride_w = 2, .stride_h = 2,
        .dilation_w = 1, .dilation_h = 1, .activation = 0}},
    {"ADD", 2, 1, {32, 31}, 0, {33}, 11, {.activation = 1, .dilation_w = 1, .dilation_h = 1}},
    {"AVERAGE_POOL_2D", 1, 1, {33}, 1, {34}, 5, {.padding = 1, .stride_w = 8, .stride_h = 8,
        .filter_w = 8, .filter_h = 8, .activation = 0, .dilation_w = 1, .dilation_h = 1}},
    {"RESHAPE", 2, 1, {34, 2}, 22, {35}, 0, {.dilation_w = 1, .dilation_h = 1}},
    {"FULLY_CONNECTED", 3, 1, {35, 7, 1}, 9, {36}, 8, {.activation = 0, .fc_weights_format = 0,
        .keep_num_dims = 0, .dilation_w = 1, .dilation_h = 1}},
    {"SOFTMAX", 1, 1, {36}, 25, {37}, 9, {.beta = 0x1.0000000000000p+0f, .dilation_w = 1,
        .dilation_h = 1}},
};
static const exp_model_t k_ic = {"ic", 3, 38, 16, 1, 0, 1, 37, k_ic_tensors, k_ic_ops};

// kws.tflite: 37 tensors, 15 operators
static const exp_tensor_t k_kws_tensors[] = {
    {9, 4, {1, 50, 10, 1}, 1, 0, 0x811c9dc5u, 1, 0, 0x1.c314760000000p-1f,
        0x1.c314760000000p-1f, -128, 12, 0x8185a163u},
    {2, 1, {12}, 2, 48, 0xe69e1ef3u, 1, 0, 0x1.f4bc180000000p-10f, 0x1.f4bc180000000p-10f, 0,
        43, 0x325112d2u},
    {2, 1, {2}, 3, 8, 0x8fcf5e01u, 0, 0, 0.0f, 0.0f, 0, 19, 0x5ac64d4bu},
    {2, 1, {64}, 4, 256, 0x33bac15fu, 64, 0, 0x1.d6dc440000000p-17f, 0x1.21a8740000000p-14f, 0,
        172, 0x39238a22u},
    {2, 1, {64}, 5, 256, 0x01509ec0u, 64, 0, 0x1.ffe7740000000p-12f, 0x1.d8c5f40000000p-13f, 0,
        209, 0x3060ef6du},
    {9, 4, {1, 3, 3, 64}, 6, 576, 0x13066edau, 64, 3, 0x1.e9f7700000000p-7f,
        0x1.c4833c0000000p-8f, 0, 185, 0x036dbc07u},
    {2, 1, {64}, 7, 256, 0x2c504f8eu, 64, 0, 0x1.ff431c0000000p-14f, 0x1.4452d20000000p-13f, 0,
        182, 0xf87a9898u},
    {2, 1, {64}, 8, 256, 0x0d74f8c8u, 64, 0, 0x1.5eeb240000000p-12f, 0x1.026bcc0000000p-12f, 0,
        215, 0xdeb27625u},
    {9, 4, {1, 3, 3, 64}, 9, 576, 0x7b266ed8u, 64, 3, 0x1.0abc140000000p-7f,
        0x1.88da9e0000000p-8f, 0, 191, 0xa6cb211du},
    {2, 1, {64}, 10, 256, 0x0cdc19e8u, 64, 0, 0x1.b040ac0000000p-13f, 0x1.f8ab3e0000000p-13f, 0,
        182, 0xa194d34du},
    {2, 1, {64}, 11, 256, 0x2821f735u, 64, 0, 0x1.1b3c6e0000000p-12f, 0x1.180a4c0000000p-12f, 0,
        215, 0x87576022u},
    {9, 4, {1, 3, 3, 64}, 12, 576, 0xe3d2ebe6u, 64, 3, 0x1.aac20a0000000p-8f,
        0x1.a5f1580000000p-8f, 0, 191, 0x8cb87bf0u},
    {2, 1, {64}, 13, 256, 0x24333abeu, 64, 0, 0x1.e6ed780000000p-14f, 0x1.ef5b840000000p-14f, 0,
        182, 0x1288128au},
    {2, 1, {64}, 14, 256, 0xd08eb0fdu, 64, 0, 0x1.ef5ce00000000p-12f, 0x1.a525660000000p-12f, 0,
        215, 0x77000bafu},
    {9, 4, {1, 3, 3, 64}, 15, 576, 0x04ebfbdbu, 64, 3, 0x1.72b9840000000p-7f,
        0x1.3b2e7e0000000p-7f, 0, 191, 0x162f218bu},
    {2, 1, {64}, 16, 256, 0x21e44d33u, 64, 0, 0x1.fd5a9e0000000p-12f, 0x1.151d540000000p-11f, 0,
        160, 0xe7484c82u},
    {9, 2, {12, 64}, 17, 768, 0x94d9c7ceu, 1, 0, 0x1.831a920000000p-6f, 0x1.831a920000000p-6f,
        0, 18, 0xf18521dfu},
    {9, 4, {64, 10, 4, 1}, 18, 2560, 0x562fb7d4u, 64, 0, 0x1.0b39d80000000p-16f,
        0x1.48c7060000000p-14f, 0, 19, 0x16b52ae0u},
    {9, 4, {64, 1, 1, 64}, 19, 4096, 0xfa56fce0u, 64, 0, 0x1.3b0dd40000000p-9f,
        0x1.8fb6e40000000p-9f, 0, 21, 0x9850f3d4u},
    {9, 4, {64, 1, 1, 64}, 20, 4096, 0x6a5a237bu, 64, 0, 0x1.64659c0000000p-8f,
        0x1.a01adc0000000p-8f, 0, 21, 0xb07e552bu},
    {9, 4, {64, 1, 1, 64}, 21, 4096, 0x7fc1e97bu, 64, 0, 0x1.609e460000000p-9f,
        0x1.66b9100000000p-9f, 0, 21, 0x8125ff16u},
    {9, 4, {64, 1, 1, 64}, 22, 4096, 0xe1ba4367u, 64, 0, 0x1.3d12400000000p-7f,
        0x1.5901840000000p-7f, 0, 21, 0xc66406ddu},
    {9, 4, {1, 25, 5, 64}, 23, 0, 0x811c9dc5u, 1, 0, 0x1.0b76480000000p-5f,
        0x1.0b76480000000p-5f, -128, 173, 0x05f25be9u},
    {9, 4, {1, 25, 5, 64}, 24, 0, 0x811c9dc5u, 1, 0, 0x1.9f6e420000000p-5f,
        0x1.9f6e420000000p-5f, -128, 210, 0x8498cdd4u},
    {9, 4, {1, 25, 5, 64}, 25, 0, 0x811c9dc5u, 1, 0, 0x1.50cbbe0000000p-5f,
        0x1.50cbbe0000000p-5f, -128, 183, 0xd1fe520bu},
    {9, 4, {1, 25, 5, 64}, 26, 0, 0x811c9dc5u, 1, 0, 0x1.367cb80000000p-5f,
        0x1.367cb80000000p-5f, -128, 216, 0xa6efe17cu},
    {9, 4, {1, 25, 5, 64}, 27, 0, 0x811c9dc5u, 1, 0, 0x1.53cf800000000p-5f,
        0x1.53cf800000000p-5f, -128, 183, 0xd948ec34u},
    {9, 4, {1, 25, 5, 64}, 28, 0, 0x811c9dc5u, 1, 0, 0x1.61821e0000000p-5f,
        0x1.61821e0000000p-5f, -128, 216, 0x218c3de9u},
    {9, 4, {1, 25, 5, 64}, 29, 0, 0x811c9dc5u, 1, 0, 0x1.56114a0000000p-5f,
        0x1.56114a0000000p-5f, -128, 183, 0xe7357c61u},
    {9, 4, {1, 25, 5, 64}, 30, 0, 0x811c9dc5u, 1, 0, 0x1.9b3f3c0000000p-5f,
        0x1.9b3f3c0000000p-5f, -128, 216, 0xf31249bau},
    {9, 4, {1, 25, 5, 64}, 31, 0, 0x811c9dc5u, 1, 0, 0x1.4b25860000000p-4f,
        0x1.4b25860000000p-4f, -128, 161, 0xc9d0bdc9u},
    {9, 4, {1, 1, 1, 64}, 32, 0, 0x811c9dc5u, 1, 0, 0x1.4b25860000000p-4f,
        0x1.4b25860000000p-4f, -128, 31, 0xe7b3cb50u},
    {9, 2, {1, 64}, 33, 0, 0x811c9dc5u, 1, 0, 0x1.4b25860000000p-4f, 0x1.4b25860000000p-4f,
        -128, 21, 0x051fb1c2u},
    {9, 2, {1, 12}, 34, 0, 0x811c9dc5u, 1, 0, 0x1.3e412e0000000p-2f, 0x1.3e412e0000000p-2f, 64,
        38, 0xe1533fb2u},
    {9, 2, {1, 12}, 35, 0, 0x811c9dc5u, 1, 0, 0x1.0000000000000p-8f, 0x1.0000000000000p-8f,
        -128, 13, 0xcf8c60b7u},
    {0, 4, {1, 50, 10, 1}, 0, 0, 0x811c9dc5u, 0, 0, 0.0f, 0.0f, 0, 7, 0xc604a627u},
    {0, 2, {1, 12}, 0, 0, 0x811c9dc5u, 0, 0, 0.0f, 0.0f, 0, 8, 0xdfc1d0bbu},
};
static const exp_op_t k_kws_ops[] = {
    {"QUANTIZE", 1, 1, {35}, 114, {0}, 0, {.dilation_w = 1, .dilation_h = 1}},
    {"CONV_2D", 3, 1, {0, 17, 3}, 3, {22}, 1, {.padding = 0, .stride_w = 2, .stride_h = 2,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {22, 5, 4}, 4, {23}, 2, {.padding = 0, .stride_w = 1, .stride_h
        = 1, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation = 1}},
    {"CONV_2D", 3, 1, {23, 18, 6}, 3, {24}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {24, 8, 7}, 4, {25}, 2, {.padding = 0, .stride_w = 1, .stride_h
        = 1, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation = 1}},
    {"CONV_2D", 3, 1, {25, 19, 9}, 3, {26}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {26, 11, 10}, 4, {27}, 2, {.padding = 0, .stride_w = 1,
        .stride_h = 1, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation =
        1}},
    {"CONV_2D", 3, 1, {27, 20, 12}, 3, {28}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {28, 14, 13}, 4, {29}, 2, {.padding = 0, .stride_w = 1,
        .stride_h = 1, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation =
        1}},
    {"CONV_2D", 3, 1, {29, 21, 15}, 3, {30}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"AVERAGE_POOL_2D", 1, 1, {30}, 1, {31}, 5, {.padding = 1, .stride_w = 5, .stride_h = 25,
        .filter_w = 5, .filter_h = 25, .activation = 0, .dilation_w = 1, .dilation_h = 1}},
    {"RESHAPE", 2, 1, {31, 2}, 22, {32}, 0, {.dilation_w = 1, .dilation_h = 1}},
    {"FULLY_CONNECTED", 3, 1, {32, 16, 1}, 9, {33}, 8, {.activation = 0, .fc_weights_format = 0,
        .keep_num_dims = 0, .dilation_w = 1, .dilation_h = 1}},
    {"SOFTMAX", 1, 1, {33}, 25, {34}, 9, {.beta = 0x1.0000000000000p+0f, .dilation_w = 1,
        .dilation_h = 1}},
    {"DEQUANTIZE", 1, 1, {34}, 6, {36}, 0, {.dilation_w = 1, .dilation_h = 1}},
};
static const exp_model_t k_kws = {"kws", 3, 37, 15, 1, 35, 1, 36, k_kws_tensors, k_kws_ops};

// vww.tflite: 91 tensors, 33 operators
static const exp_tensor_t k_vww_tensors[] = {
    {9, 4, {1, 96, 96, 3}, 1, 0, 0x811c9dc5u, 1, 0, 0x1.0000000000000p+0f,
        0x1.0000000000000p+0f, -128, 12, 0x8185a163u},
    {2, 1, {2}, 2, 8, 0x51ef50d0u, 1, 0, 0x1.dd860e0000000p-14f, 0x1.dd860e0000000p-14f, 0, 43,
        0x325112d2u},
    {2, 1, {2}, 3, 8, 0x45d8e676u, 0, 0, 0.0f, 0.0f, 0, 19, 0x5ac64d4bu},
    {2, 1, {8}, 4, 32, 0x493252d6u, 8, 0, 0x1.7daa000000000p-16f, 0x1.3796b40000000p-15f, 0,
        183, 0xf4504416u},
    {2, 1, {8}, 5, 32, 0x86af4dd9u, 8, 0, 0x1.d418940000000p-12f, 0x1.025fac0000000p-11f, 0,
        187, 0x2af4d5aeu},
    {9, 4, {1, 3, 3, 8}, 6, 72, 0x72191ae5u, 8, 3, 0x1.9f60780000000p-7f, 0x1.ca8c860000000p-7f,
        0, 163, 0x3e9e4584u},
    {2, 1, {64}, 7, 256, 0xfbe4856eu, 64, 0, 0x1.69e5ee0000000p-13f, 0x1.6e783e0000000p-12f, 0,
        197, 0x5aca631eu},
    {2, 1, {64}, 8, 256, 0xb47d0e42u, 64, 0, 0x1.07da7c0000000p-11f, 0x1.821a7e0000000p-12f, 0,
        195, 0x4aebe54au},
    {9, 4, {1, 3, 3, 64}, 9, 576, 0xd84076d8u, 64, 3, 0x1.bd166e0000000p-8f,
        0x1.45a7700000000p-8f, 0, 170, 0x79f0a23du},
    {2, 1, {128}, 10, 512, 0x3e963669u, 128, 0, 0x1.55adae0000000p-14f, 0x1.4ae95a0000000p-14f,
        0, 198, 0xc6e938b4u},
    {2, 1, {128}, 11, 512, 0xeb5cb8f4u, 128, 0, 0x1.a44ca80000000p-12f, 0x1.3cedaa0000000p-12f,
        0, 231, 0xdf331157u},
    {9, 4, {1, 3, 3, 128}, 12, 1152, 0x1a8d262du, 128, 3, 0x1.1fc16c0000000p-7f,
        0x1.b1f7600000000p-8f, 0, 206, 0x70aace3eu},
    {2, 1, {128}, 13, 512, 0x60dfa59cu, 128, 0, 0x1.ee8b940000000p-14f, 0x1.6d5d380000000p-13f,
        0, 198, 0xedc02467u},
    {2, 1, {128}, 14, 512, 0xe834430du, 128, 0, 0x1.dd6f5a0000000p-12f, 0x1.377cf20000000p-12f,
        0, 231, 0x5b67192eu},
    {9, 4, {1, 3, 3, 128}, 15, 1152, 0x5d4341a4u, 128, 3, 0x1.31eb960000000p-7f,
        0x1.8f2d4a0000000p-8f, 0, 206, 0x747fb431u},
    {2, 1, {128}, 16, 512, 0xc5f663ccu, 128, 0, 0x1.c1f1880000000p-13f, 0x1.7117860000000p-35f,
        0, 198, 0x47d5406eu},
    {2, 1, {128}, 17, 512, 0x1a354628u, 128, 0, 0x1.6003e20000000p-12f, 0x1.825cea0000000p-10f,
        0, 231, 0xb1ffe44du},
    {9, 4, {1, 3, 3, 128}, 18, 1152, 0xa8d234ceu, 128, 3, 0x1.a2b1d40000000p-8f,
        0x1.cb8c740000000p-6f, 0, 206, 0xc8446360u},
    {2, 1, {128}, 19, 512, 0x3f32dc3fu, 128, 0, 0x1.87aa880000000p-33f, 0x1.1ac8200000000p-32f,
        0, 198, 0xf0cd2789u},
    {2, 1, {128}, 20, 512, 0x3253cbd1u, 128, 0, 0x1.b410460000000p-10f, 0x1.2a5dac0000000p-9f,
        0, 231, 0x2d8326d4u},
    {9, 4, {1, 3, 3, 128}, 21, 1152, 0xa34e3cbcu, 128, 3, 0x1.0582900000000p-5f,
        0x1.65dd1e0000000p-5f, 0, 206, 0x400ae047u},
    {2, 1, {16}, 22, 64, 0x5723a317u, 16, 0, 0x1.04fc880000000p-11f, 0x1.9128460000000p-12f, 0,
        195, 0x2c4f5e24u},
    {2, 1, {128}, 23, 512, 0xb3699841u, 128, 0, 0x1.4c2cc60000000p-34f, 0x1.2721560000000p-33f,
        0, 201, 0x35c1024bu},
    {2, 1, {128}, 24, 512, 0x3606e65fu, 128, 0, 0x1.11ef760000000p-9f, 0x1.6a72740000000p-10f,
        0, 234, 0x5faf2f16u},
    {9, 4, {1, 3, 3, 128}, 25, 1152, 0x0b033a13u, 128, 3, 0x1.4bf9960000000p-5f,
        0x1.b73d6a0000000p-6f, 0, 209, 0x3f1ade7au},
    {2, 1, {128}, 26, 512, 0xc3b1a366u, 128, 0, 0x1.7104fe0000000p-34f, 0x1.a9b4740000000p-36f,
        0, 201, 0x2a1f2d7au},
    {2, 1, {128}, 27, 512, 0x6ffde246u, 128, 0, 0x1.f68d300000000p-10f, 0x1.97116e0000000p-10f,
        0, 198, 0x66065ad7u},
    {9, 4, {1, 3, 3, 128}, 28, 1152, 0xc46d18efu, 128, 3, 0x1.198c5e0000000p-5f,
        0x1.c81c1c0000000p-6f, 0, 173, 0xde1c316du},
    {2, 1, {256}, 29, 1024, 0xea7a774au, 256, 0, 0x1.601cde0000000p-35f, 0x1.49e7080000000p-34f,
        0, 188, 0xc040027au},
    {2, 1, {256}, 30, 1024, 0x2afadbcfu, 256, 0, 0x1.6ce98a0000000p-9f, 0x1.4f1dac0000000p-9f,
        0, 221, 0xa9d92799u},
    {9, 4, {1, 3, 3, 256}, 31, 2304, 0xf2b3c0aau, 256, 3, 0x1.526a340000000p-5f,
        0x1.36c8380000000p-5f, 0, 196, 0x11bb7d71u},
    {2, 1, {256}, 32, 1024, 0x19008d40u, 256, 0, 0x1.7b08980000000p-32f, 0x1.832f000000000p-32f,
        0, 165, 0x67fa591au},
    {2, 1, {16}, 33, 64, 0x2beea7ccu, 16, 0, 0x1.5f484c0000000p-12f, 0x1.5d96b40000000p-12f, 0,
        193, 0xe4715c46u},
    {9, 4, {1, 3, 3, 16}, 34, 144, 0xbc27bbc7u, 16, 3, 0x1.2458dc0000000p-8f,
        0x1.22f0020000000p-8f, 0, 169, 0x36d4098eu},
    {2, 1, {32}, 35, 128, 0x7b717519u, 32, 0, 0x1.353a920000000p-12f, 0x1.0f74fa0000000p-12f, 0,
        195, 0xf9dd65dfu},
    {2, 1, {32}, 36, 128, 0x01a9ec0au, 32, 0, 0x1.3270380000000p-11f, 0x1.ea0df60000000p-11f, 0,
        228, 0x3a485000u},
    {9, 4, {1, 3, 3, 32}, 37, 288, 0xb87ec108u, 32, 3, 0x1.c6ceb80000000p-8f,
        0x1.6ba9ae0000000p-7f, 0, 204, 0x1913d406u},
    {2, 1, {32}, 38, 128, 0xfe525efeu, 32, 0, 0x1.2e07620000000p-12f, 0x1.11e0b60000000p-12f, 0,
        195, 0x7c28d52cu},
    {2, 1, {32}, 39, 128, 0xacbf9215u, 32, 0, 0x1.43b4300000000p-11f, 0x1.69b0520000000p-12f, 0,
        193, 0xa99b01b8u},
    {9, 4, {1, 3, 3, 32}, 40, 288, 0x0431a4b7u, 32, 3, 0x1.caa9ca0000000p-8f,
        0x1.003e120000000p-8f, 0, 169, 0x06a35e9cu},
    {2, 1, {64}, 41, 256, 0x96cdc72eu, 64, 0, 0x1.ebc9280000000p-12f, 0x1.4f703c0000000p-11f, 0,
        195, 0x864cdde3u},
    {2, 1, {64}, 42, 256, 0x182b3ef3u, 64, 0, 0x1.9341820000000p-11f, 0x1.3324d40000000p-11f, 0,
        228, 0xa6eaee50u},
    {9, 4, {1, 3, 3, 64}, 43, 576, 0x08f64162u, 64, 3, 0x1.a7e8060000000p-8f,
        0x1.42df5a0000000p-8f, 0, 204, 0xb91a48bau},
    {9, 2, {2, 256}, 44, 512, 0x89e35e85u, 1, 0, 0x1.59f3340000000p-9f, 0x1.59f3340000000p-9f,
        0, 18, 0xf18521dfu},
    {9, 4, {8, 3, 3, 3}, 45, 216, 0xf1ece947u, 8, 0, 0x1.7daa000000000p-16f,
        0x1.3796b40000000p-15f, 0, 19, 0x16b52ae0u},
    {9, 4, {16, 1, 1, 8}, 46, 128, 0xe087e75du, 16, 0, 0x1.bf202c0000000p-8f,
        0x1.57a25a0000000p-8f, 0, 21, 0x9850f3d4u},
    {9, 4, {32, 1, 1, 16}, 47, 512, 0xb1fbfcaau, 32, 0, 0x1.a6bf200000000p-9f,
        0x1.731bd40000000p-9f, 0, 21, 0xb07e552bu},
    {9, 4, {32, 1, 1, 32}, 48, 1024, 0x15b7e918u, 32, 0, 0x1.a9cb7a0000000p-9f,
        0x1.821ba20000000p-9f, 0, 21, 0x8125ff16u},
    {9, 4, {64, 1, 1, 32}, 49, 2048, 0x69eeacd3u, 64, 0, 0x1.09400e0000000p-8f,
        0x1.69d8520000000p-8f, 0, 21, 0xc66406ddu},
    {9, 4, {64, 1, 1, 64}, 50, 4096, 0xba99608eu, 64, 0, 0x1.3536e00000000p-9f,
        0x1.391ed20000000p-8f, 0, 21, 0x2695f6e0u},
    {9, 4, {128, 1, 1, 64}, 51, 8192, 0x1c1014f8u, 128, 0, 0x1.ccad5c0000000p-10f,
        0x1.be29100000000p-10f, 0, 21, 0x345fd287u},
    {9, 4, {128, 1, 1, 128}, 52, 16384, 0x97177244u, 128, 0, 0x1.35f4700000000p-9f,
        0x1.c9fb5c0000000p-9f, 0, 21, 0x167dff82u},
    {9, 4, {128, 1, 1, 128}, 53, 16384, 0xd90feb30u, 128, 0, 0x1.a3cddc0000000p-9f,
        0x1.585e4e0000000p-31f, 0, 21, 0xc570fa29u},
    {9, 4, {128, 1, 1, 128}, 54, 16384, 0x369eb6bfu, 128, 0, 0x1.795e8a0000000p-29f,
        0x1.1075a00000000p-28f, 0, 21, 0x0984103cu},
    {9, 4, {128, 1, 1, 128}, 55, 16384, 0x37673d38u, 128, 0, 0x1.1696000000000p-30f,
        0x1.ef09000000000p-30f, 0, 22, 0x4c54dee6u},
    {9, 4, {128, 1, 1, 128}, 56, 16384, 0x39106360u, 128, 0, 0x1.17908c0000000p-30f,
        0x1.4282400000000p-32f, 0, 22, 0x1fba313bu},
    {9, 4, {256, 1, 1, 128}, 57, 32768, 0x8ecca4d9u, 256, 0, 0x1.442e060000000p-31f,
        0x1.2fbb3e0000000p-30f, 0, 22, 0xab7ef5e4u},
    {9, 4, {256, 1, 1, 256}, 58, 65536, 0xaf3f5a70u, 256, 0, 0x1.47a2f60000000p-28f,
        0x1.4eae720000000p-28f, 0, 22, 0xec5cb8d1u},
    {9, 4, {1, 48, 48, 8}, 59, 0, 0x811c9dc5u, 1, 0, 0x1.207dc20000000p-5f,
        0x1.207dc20000000p-5f, -128, 184, 0xc15b4965u},
    {9, 4, {1, 48, 48, 8}, 60, 0, 0x811c9dc5u, 1, 0, 0x1.2ada7e0000000p-4f,
        0x1.2ada7e0000000p-4f, -128, 188, 0x3e6c494du},
    {9, 4, {1, 48, 48, 16}, 61, 0, 0x811c9dc5u, 1, 0, 0x1.339ba40000000p-4f,
        0x1.339ba40000000p-4f, -128, 196, 0xd5f11b0fu},
    {9, 4, {1, 24, 24, 16}, 62, 0, 0x811c9dc5u, 1, 0, 0x1.7683f60000000p-4f,
        0x1.7683f60000000p-4f, -128, 194, 0x15748f55u},
    {9, 4, {1, 24, 24, 32}, 63, 0, 0x811c9dc5u, 1, 0, 0x1.58f92a0000000p-4f,
        0x1.58f92a0000000p-4f, -128, 196, 0x458775aau},
    {9, 4, {1, 24, 24, 32}, 64, 0, 0x811c9dc5u, 1, 0, 0x1.6b2d3e0000000p-4f,
        0x1.6b2d3e0000000p-4f, -128, 229, 0xf0d63d23u},
    {9, 4, {1, 24, 24, 32}, 65, 0, 0x811c9dc5u, 1, 0, 0x1.6958b60000000p-4f,
        0x1.6958b60000000p-4f, -128, 196, 0x91477ca7u},
    {9, 4, {1, 12, 12, 32}, 66, 0, 0x811c9dc5u, 1, 0, 0x1.daa2ae0000000p-4f,
        0x1.daa2ae0000000p-4f, -128, 194, 0x88036aabu},
    {9, 4, {1, 12, 12, 64}, 67, 0, 0x811c9dc5u, 1, 0, 0x1.e70ee00000000p-4f,
        0x1.e70ee00000000p-4f, -128, 196, 0x3d013196u},
    {9, 4, {1, 12, 12, 64}, 68, 0, 0x811c9dc5u, 1, 0, 0x1.2b9dfe0000000p-4f,
        0x1.2b9dfe0000000p-4f, -128, 229, 0x24d542b3u},
    {9, 4, {1, 12, 12, 64}, 69, 0, 0x811c9dc5u, 1, 0, 0x1.2f851a0000000p-4f,
        0x1.2f851a0000000p-4f, -128, 198, 0x1b9a22fdu},
    {9, 4, {1, 6, 6, 64}, 70, 0, 0x811c9dc5u, 1, 0, 0x1.7bbe720000000p-5f,
        0x1.7bbe720000000p-5f, -128, 196, 0x6c5a40a1u},
    {9, 4, {1, 6, 6, 128}, 71, 0, 0x811c9dc5u, 1, 0, 0x1.75eab80000000p-5f,
        0x1.75eab80000000p-5f, -128, 199, 0xa623f95fu},
    {9, 4, {1, 6, 6, 128}, 72, 0, 0x811c9dc5u, 1, 0, 0x1.98754a0000000p-5f,
        0x1.98754a0000000p-5f, -128, 232, 0xc3646392u},
    {9, 4, {1, 6, 6, 128}, 73, 0, 0x811c9dc5u, 1, 0, 0x1.8f86de0000000p-5f,
        0x1.8f86de0000000p-5f, -128, 199, 0x9b793362u},
    {9, 4, {1, 6, 6, 128}, 74, 0, 0x811c9dc5u, 1, 0, 0x1.1261140000000p-4f,
        0x1.1261140000000p-4f, -128, 232, 0x024c8bcdu},
    {9, 4, {1, 6, 6, 128}, 75, 0, 0x811c9dc5u, 1, 0, 0x1.ae760c0000000p-5f,
        0x1.ae760c0000000p-5f, -128, 199, 0x73b4558du},
    {9, 4, {1, 6, 6, 128}, 76, 0, 0x811c9dc5u, 1, 0, 0x1.09b2de0000000p-4f,
        0x1.09b2de0000000p-4f, -128, 232, 0xb1d4af34u},
    {9, 4, {1, 6, 6, 128}, 77, 0, 0x811c9dc5u, 1, 0, 0x1.aae0300000000p-5f,
        0x1.aae0300000000p-5f, -128, 199, 0xcaf586a8u},
    {9, 4, {1, 6, 6, 128}, 78, 0, 0x811c9dc5u, 1, 0, 0x1.313e8c0000000p-4f,
        0x1.313e8c0000000p-4f, -128, 232, 0x8a763a7fu},
    {9, 4, {1, 6, 6, 128}, 79, 0, 0x811c9dc5u, 1, 0, 0x1.a67c880000000p-5f,
        0x1.a67c880000000p-5f, -128, 202, 0x18d6e60eu},
    {9, 4, {1, 6, 6, 128}, 80, 0, 0x811c9dc5u, 1, 0, 0x1.51ea280000000p-4f,
        0x1.51ea280000000p-4f, -128, 235, 0xc7c73a65u},
    {9, 4, {1, 6, 6, 128}, 81, 0, 0x811c9dc5u, 1, 0, 0x1.c8f2ea0000000p-5f,
        0x1.c8f2ea0000000p-5f, -128, 202, 0x9a144d11u},
    {9, 4, {1, 3, 3, 128}, 82, 0, 0x811c9dc5u, 1, 0, 0x1.160eea0000000p-4f,
        0x1.160eea0000000p-4f, -128, 199, 0x82011812u},
    {9, 4, {1, 3, 3, 256}, 83, 0, 0x811c9dc5u, 1, 0, 0x1.140b600000000p-4f,
        0x1.140b600000000p-4f, -128, 189, 0xefc39c11u},
    {9, 4, {1, 3, 3, 256}, 84, 0, 0x811c9dc5u, 1, 0, 0x1.2828c40000000p-4f,
        0x1.2828c40000000p-4f, -128, 222, 0x08d96d78u},
    {9, 4, {1, 3, 3, 256}, 85, 0, 0x811c9dc5u, 1, 0, 0x1.615d040000000p-5f,
        0x1.615d040000000p-5f, -128, 166, 0xda1a5eb1u},
    {9, 4, {1, 1, 1, 256}, 86, 0, 0x811c9dc5u, 1, 0, 0x1.615d040000000p-5f,
        0x1.615d040000000p-5f, -128, 31, 0xe7b3cb50u},
    {9, 2, {1, 256}, 87, 0, 0x811c9dc5u, 1, 0, 0x1.615d040000000p-5f, 0x1.615d040000000p-5f,
        -128, 21, 0x051fb1c2u},
    {9, 2, {1, 2}, 88, 0, 0x811c9dc5u, 1, 0, 0x1.15f0e80000000p-4f, 0x1.15f0e80000000p-4f, 0,
        38, 0xe1533fb2u},
    {9, 2, {1, 2}, 89, 0, 0x811c9dc5u, 1, 0, 0x1.0000000000000p-8f, 0x1.0000000000000p-8f, -128,
        13, 0xcf8c60b7u},
    {0, 4, {1, 96, 96, 3}, 0, 0, 0x811c9dc5u, 0, 0, 0.0f, 0.0f, 0, 7, 0xc604a627u},
    {0, 2, {1, 2}, 0, 0, 0x811c9dc5u, 0, 0, 0.0f, 0.0f, 0, 8, 0xdfc1d0bbu},
};
static const exp_op_t k_vww_ops[] = {
    {"QUANTIZE", 1, 1, {89}, 114, {0}, 0, {.dilation_w = 1, .dilation_h = 1}},
    {"CONV_2D", 3, 1, {0, 44, 3}, 3, {58}, 1, {.padding = 0, .stride_w = 2, .stride_h = 2,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {58, 5, 4}, 4, {59}, 2, {.padding = 0, .stride_w = 1, .stride_h
        = 1, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation = 1}},
    {"CONV_2D", 3, 1, {59, 45, 21}, 3, {60}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {60, 33, 32}, 4, {61}, 2, {.padding = 0, .stride_w = 2,
        .stride_h = 2, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation =
        1}},
    {"CONV_2D", 3, 1, {61, 46, 34}, 3, {62}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {62, 36, 35}, 4, {63}, 2, {.padding = 0, .stride_w = 1,
        .stride_h = 1, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation =
        1}},
    {"CONV_2D", 3, 1, {63, 47, 37}, 3, {64}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {64, 39, 38}, 4, {65}, 2, {.padding = 0, .stride_w = 2,
        .stride_h = 2, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation =
        1}},
    {"CONV_2D", 3, 1, {65, 48, 40}, 3, {66}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {66, 42, 41}, 4, {67}, 2, {.padding = 0, .stride_w = 1,
        .stride_h = 1, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation =
        1}},
    {"CONV_2D", 3, 1, {67, 49, 6}, 3, {68}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {68, 8, 7}, 4, {69}, 2, {.padding = 0, .stride_w = 2, .stride_h
        = 2, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation = 1}},
    {"CONV_2D", 3, 1, {69, 50, 9}, 3, {70}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {70, 11, 10}, 4, {71}, 2, {.padding = 0, .stride_w = 1,
        .stride_h = 1, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation =
        1}},
    {"CONV_2D", 3, 1, {71, 51, 12}, 3, {72}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {72, 14, 13}, 4, {73}, 2, {.padding = 0, .stride_w = 1,
        .stride_h = 1, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation =
        1}},
    {"CONV_2D", 3, 1, {73, 52, 15}, 3, {74}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {74, 17, 16}, 4, {75}, 2, {.padding = 0, .stride_w = 1,
        .stride_h = 1, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation =
        1}},
    {"CONV_2D", 3, 1, {75, 53, 18}, 3, {76}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {76, 20, 19}, 4, {77}, 2, {.padding = 0, .stride_w = 1,
        .stride_h = 1, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation =
        1}},
    {"CONV_2D", 3, 1, {77, 54, 22}, 3, {78}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {78, 24, 23}, 4, {79}, 2, {.padding = 0, .stride_w = 1,
        .stride_h = 1, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation =
        1}},
    {"CONV_2D", 3, 1, {79, 55, 25}, 3, {80}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {80, 27, 26}, 4, {81}, 2, {.padding = 0, .stride_w = 2,
        .stride_h = 2, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation =
        1}},
    {"CONV_2D", 3, 1, {81, 56, 28}, 3, {82}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"DEPTHWISE_CONV_2D", 3, 1, {82, 30, 29}, 4, {83}, 2, {.padding = 0, .stride_w = 1,
        .stride_h = 1, .dilation_w = 1, .dilation_h = 1, .depth_multiplier = 1, .activation =
        1}},
    {"CONV_2D", 3, 1, {83, 57, 31}, 3, {84}, 1, {.padding = 0, .stride_w = 1, .stride_h = 1,
        .dilation_w = 1, .dilation_h = 1, .activation = 1}},
    {"AVERAGE_POOL_2D", 1, 1, {84}, 1, {85}, 5, {.padding = 1, .stride_w = 3, .stride_h = 3,
        .filter_w = 3, .filter_h = 3, .activation = 0, .dilation_w = 1, .dilation_h = 1}},
    {"RESHAPE", 2, 1, {85, 2}, 22, {86}, 0, {.dilation_w = 1, .dilation_h = 1}},
    {"FULLY_CONNECTED", 3, 1, {86, 43, 1}, 9, {87}, 8, {.activation = 0, .fc_weights_format = 0,
        .keep_num_dims = 0, .dilation_w = 1, .dilation_h = 1}},
    {"SOFTMAX", 1, 1, {87}, 25, {88}, 9, {.beta = 0x1.0000000000000p+0f, .dilation_w = 1,
        .dilation_h = 1}},
    {"DEQUANTIZE", 1, 1, {88}, 6, {90}, 0, {.dilation_w = 1, .dilation_h = 1}},
};
static const exp_model_t k_vww = {"vww", 3, 91, 33, 1, 89, 1, 90, k_vww_tensors, k_vww_ops};



// ---------------------------------------------------------------- helpers
static const char *g_dir;  // the MLPerf Tiny models' directory

static uint32_t fnv(const void *p, size_t n) {
  const uint8_t *b = p;
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
  return h;
}

static uint8_t *load(const char *name, size_t *len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.tflite", g_dir, name);
  FILE *f = fopen(path, "rb");
  if (f == NULL) fail_msg("cannot open %s (models directory: argv[1] or S24_MODELS)", path);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long n = ftell(f);
  assert_true(n > 0);
  rewind(f);
  uint8_t *b = malloc((size_t)n);
  assert_non_null(b);
  assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  *len = (size_t)n;
  return b;
}

static int is_zero(const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) if (b[i] != 0) return 0;
  return 1;
}

// The header's promises about a successfully parsed model (buf, len: what was parsed).
static void check_invariants(const s24_tfl_model_t *m, const uint8_t *buf, size_t len) {
  assert_ptr_equal(m->file, buf);
  assert_int_equal(m->file_len, len);
  assert_true(m->n_inputs <= S24_TFL_MAX_OP_IO && m->n_outputs <= S24_TFL_MAX_OP_IO);
  for (size_t i = 0; i < m->n_inputs; i++) assert_true((size_t)m->inputs[i] < m->n_tensors);
  for (size_t i = 0; i < m->n_outputs; i++) assert_true((size_t)m->outputs[i] < m->n_tensors);
  for (size_t i = 0; i < m->n_tensors; i++) {
    const s24_tfl_tensor_t *t = &m->tensors[i];
    assert_non_null(t->name);
    if (t->name_len > 0) {
      assert_true((const uint8_t *)t->name >= buf && t->name_len < len &&
                  (const uint8_t *)t->name + t->name_len < buf + len);
    }
    assert_true(t->rank <= S24_TFL_MAX_DIMS);
    size_t e = 1;
    for (uint32_t d = 0; d < t->rank; d++) {
      assert_true(t->dims[d] >= 0);
      e *= (size_t)t->dims[d];
    }
    assert_int_equal(t->elems, e);
    assert_int_equal(t->bytes, e * s24_tfl_type_size(t->type));
    if (t->data != NULL) {
      assert_true(t->data_len > 0 && t->data_offset <= len && t->data_len <= len - t->data_offset);
      assert_ptr_equal(t->data, buf + t->data_offset);
      if (s24_tfl_type_size(t->type) != 0) assert_int_equal(t->data_len, t->bytes);
    } else {
      assert_int_equal(t->data_len, 0);
    }
    if (t->n_quant > 0) {
      assert_non_null(t->scale);
      assert_non_null(t->zero_point);
      assert_true(t->quant_dim >= 0);
      if (t->rank > 0) {
        assert_true((uint32_t)t->quant_dim < t->rank);
        assert_true(t->n_quant == 1 || t->n_quant == (size_t)t->dims[t->quant_dim]);
      }
    } else {
      assert_null(t->scale);
      assert_null(t->zero_point);
    }
  }
  for (size_t i = 0; i < m->n_ops; i++) {
    const s24_tfl_op_t *o = &m->ops[i];
    assert_true(o->n_in <= S24_TFL_MAX_OP_IO && o->n_out <= S24_TFL_MAX_OP_IO);
    for (uint32_t k = 0; k < o->n_in; k++) {
      assert_true(o->in[k] == -1 || (o->in[k] >= 0 && (size_t)o->in[k] < m->n_tensors));
    }
    for (uint32_t k = 0; k < o->n_out; k++) {
      assert_true(o->out[k] >= 0 && (size_t)o->out[k] < m->n_tensors);
    }
    assert_int_equal(o->is_custom, o->opcode == 32);
    assert_true(o->opt.n_new_shape <= S24_TFL_MAX_NEW_SHAPE);
    assert_non_null(s24_tfl_op_name(o->opcode));
  }
}

// Parses buf[0 .. len) from an allocation of exactly len bytes. On success checks the
// invariants and returns S24_OK with *m filled (the caller frees it and *copy); on failure checks
// that *m is zeroed and err is one nonempty line.
static s24_status_t parse_exact(const uint8_t *buf, size_t len, s24_tfl_model_t *m, char *err,
                                size_t errlen, uint8_t **copy) {
  uint8_t *c = malloc(len > 0 ? len : 1);
  assert_non_null(c);
  if (len > 0) memcpy(c, buf, len);
  memset(m, 0x5a, sizeof *m);
  s24_status_t st = s24_tfl_parse(c, len, m, err, errlen);
  if (st == S24_OK) {
    check_invariants(m, c, len);
    *copy = c;
  } else {
    assert_int_equal(st, S24_ERR_FORMAT);
    assert_true(is_zero(m, sizeof *m));
    assert_true(err[0] != '\0');
    assert_null(strchr(err, '\n'));
    free(c);
    *copy = NULL;
  }
  return st;
}

// Expects buf[0 .. len) to be refused with a message containing `want`.
static void expect_refused(const uint8_t *buf, size_t len, const char *want) {
  s24_tfl_model_t m;
  char err[512];
  uint8_t *c;
  s24_status_t st = parse_exact(buf, len, &m, err, sizeof err, &c);
  if (st == S24_OK) {
    s24_tfl_free(&m);
    free(c);
    fail_msg("parsed, expected an error containing \"%s\"", want);
  }
  if (strstr(err, want) == NULL) fail_msg("error \"%s\" does not contain \"%s\"", err, want);
}

static int32_t ld_s32(const uint8_t *p) {
  uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  int32_t v;
  memcpy(&v, &u, sizeof v);
  return v;
}

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

// Every position where the int32 sequence `v` (n entries) is stored in the file.
static size_t find_all(const uint8_t *buf, size_t len, const int32_t *v, size_t n, size_t *at,
                       size_t max) {
  uint8_t pat[64];
  size_t k = 0;
  assert_true(n * 4 <= sizeof pat);
  for (size_t i = 0; i < n; i++) put32(pat + 4 * i, (uint32_t)v[i]);
  for (size_t p = 0; p + 4 * n <= len && k < max; p++) {
    if (memcmp(buf + p, pat, 4 * n) == 0) at[k++] = p;
  }
  return k;
}

// ---------------------------------------------------------------- the MLPerf Tiny models
// the first field in which t differs from x, NULL if none
static const char *tensor_differs(const s24_tfl_tensor_t *t, const exp_tensor_t *x) {
  if (t->type != x->type) return "type";
  if (t->rank != x->rank) return "rank";
  for (uint32_t d = 0; d < x->rank; d++) if (t->dims[d] != x->dims[d]) return "shape";
  if (t->buffer != x->buffer) return "buffer";
  if (t->data_len != x->data_len) return "data size";
  if (x->data_len > 0 && fnv(t->data, t->data_len) != x->data_fnv) return "data";
  if (t->n_quant != x->n_quant) return "quantization count";
  if (t->quant_dim != x->quant_dim) return "quantized_dimension";
  if (x->n_quant > 0 && (memcmp(&t->scale[0], &x->scale0, sizeof(float)) != 0 ||
                         memcmp(&t->scale[t->n_quant - 1], &x->scale_last, sizeof(float)) != 0)) {
    return "scale";
  }
  if (x->n_quant > 0 && t->zero_point[0] != x->zp0) return "zero point";
  if (t->name_len != x->name_len || fnv(t->name, t->name_len) != x->name_fnv) return "name";
  return NULL;
}

static void check_model(const exp_model_t *e) {
  size_t len;
  uint8_t *buf = load(e->name, &len);
  s24_tfl_model_t m;
  char err[512];
  assert_true(s24_tfl_is_tflite(buf, len));
  s24_status_t st = s24_tfl_parse(buf, len, &m, err, sizeof err);
  if (st != S24_OK) fail_msg("%s: %s", e->name, err);
  assert_string_equal(err, "");
  check_invariants(&m, buf, len);
  assert_int_equal(m.version, e->version);
  assert_int_equal(m.n_tensors, e->n_tensors);
  assert_int_equal(m.n_ops, e->n_ops);
  assert_int_equal(m.n_inputs, e->n_inputs);
  assert_int_equal(m.inputs[0], e->input);
  assert_int_equal(m.n_outputs, e->n_outputs);
  assert_int_equal(m.outputs[0], e->output);
  for (size_t i = 0; i < e->n_tensors; i++) {
    const char *bad = tensor_differs(&m.tensors[i], &e->tensors[i]);
    if (bad != NULL) fail_msg("%s tensor %zu: %s differs from LiteRT's", e->name, i, bad);
  }
  for (size_t i = 0; i < e->n_ops; i++) {
    const s24_tfl_op_t *o = &m.ops[i];
    const exp_op_t *x = &e->ops[i];
    assert_string_equal(s24_tfl_op_name(o->opcode), x->name);
    assert_int_equal(o->opcode, x->opcode);
    assert_int_equal(o->is_custom, 0);
    assert_int_equal(o->n_in, x->n_in);
    assert_int_equal(o->n_out, x->n_out);
    assert_memory_equal(o->in, x->in, x->n_in * sizeof(int32_t));
    assert_memory_equal(o->out, x->out, x->n_out * sizeof(int32_t));
    assert_int_equal(o->options_type, x->options_type);
    assert_int_equal(o->opt.stride_w, x->opt.stride_w);
    assert_int_equal(o->opt.stride_h, x->opt.stride_h);
    assert_int_equal(o->opt.activation, x->opt.activation);
    assert_memory_equal(&o->opt, &x->opt, sizeof o->opt);
  }
  s24_tfl_free(&m);
  assert_true(is_zero(&m, sizeof m));
  s24_tfl_free(&m);  // again: safe
  free(buf);
}

static void test_model_ad(void **state) { (void)state; check_model(&k_ad); }
static void test_model_ic(void **state) { (void)state; check_model(&k_ic); }
static void test_model_vww(void **state) { (void)state; check_model(&k_vww); }

// kws in words: the model SPEC §8 runs first
static void test_model_kws(void **state) {
  (void)state;
  check_model(&k_kws);
  size_t len;
  uint8_t *buf = load("kws", &len);
  s24_tfl_model_t m;
  char err[256];
  assert_int_equal(s24_tfl_parse(buf, len, &m, err, sizeof err), S24_OK);
  assert_int_equal(m.n_ops, 15);
  const s24_tfl_op_t *conv = &m.ops[1];
  assert_int_equal(conv->opcode, S24_OP_CONV_2D);
  assert_int_equal(conv->options_type, S24_TFL_OPT_CONV_2D);
  assert_int_equal(conv->opt.padding, S24_PAD_SAME);
  assert_int_equal(conv->opt.stride_w, 2);
  assert_int_equal(conv->opt.stride_h, 2);
  assert_int_equal(conv->opt.dilation_w, 1);
  assert_int_equal(conv->opt.activation, S24_ACT_RELU);
  const s24_tfl_tensor_t *in = &m.tensors[conv->in[0]], *w = &m.tensors[conv->in[1]],
                         *b = &m.tensors[conv->in[2]];
  assert_int_equal(in->type, S24_TFL_INT8);
  assert_int_equal(in->rank, 4);
  assert_int_equal(in->dims[1], 50);
  assert_int_equal(in->dims[2], 10);
  assert_int_equal(in->zero_point[0], -128);
  assert_int_equal(w->name_len, strlen("model/conv2d/Conv2D"));
  assert_memory_equal(w->name, "model/conv2d/Conv2D", w->name_len);
  assert_int_equal(w->rank, 4);  // OHWI 64x10x4x1, per-channel along O
  assert_int_equal(w->dims[0], 64);
  assert_int_equal(w->bytes, 2560);
  assert_int_equal(w->n_quant, 64);
  assert_int_equal(w->quant_dim, 0);
  assert_int_equal(b->type, S24_TFL_INT32);
  assert_int_equal(b->bytes, 256);
  const s24_tfl_op_t *pool = &m.ops[10];
  assert_int_equal(pool->opcode, S24_OP_AVERAGE_POOL_2D);
  assert_int_equal(pool->opt.padding, S24_PAD_VALID);
  assert_int_equal(pool->opt.filter_w, 5);
  assert_int_equal(pool->opt.filter_h, 25);
  assert_int_equal(m.ops[13].opcode, S24_OP_SOFTMAX);
  assert_true(m.ops[13].opt.beta == 1.0f);
  assert_int_equal(m.tensors[m.inputs[0]].type, S24_TFL_FLOAT32);
  assert_int_equal(m.tensors[m.outputs[0]].dims[1], 12);
  s24_tfl_free(&m);
  free(buf);
}

// ---------------------------------------------------------------- a minimal flatbuffer writer
// Objects are laid out front to back: the root offset and identifier, then each table's vtable
// right before the table, then what the table's references point to (uoffsets point forward).
typedef struct {
  uint8_t b[1 << 19];
  size_t n;
  size_t vt;  // the vtable of the last table written
} fb_t;

static size_t fb_pad(fb_t *f, size_t align) {
  while (f->n % align != 0) f->b[f->n++] = 0;
  return f->n;
}

static void fb_set(fb_t *f, size_t at, uint64_t v, size_t size) {
  for (size_t i = 0; i < size; i++) f->b[at + i] = (uint8_t)(v >> (8 * i));
}

// a table whose fields ids[k] take sizes[k] bytes (1, 4 or 8); pos[k]: where each value goes
static size_t fb_table(fb_t *f, int nf, const int *ids, const int *sizes, size_t *pos) {
  int maxid = -1;
  size_t off[16], size = 4;
  for (int k = 0; k < nf; k++) {
    if (ids[k] > maxid) maxid = ids[k];
    size = (size + (size_t)sizes[k] - 1) / (size_t)sizes[k] * (size_t)sizes[k];
    off[k] = size;
    size += (size_t)sizes[k];
  }
  size = (size + 3) / 4 * 4;
  size_t vt = fb_pad(f, 4), vt_len = 4 + 2 * (size_t)(maxid + 1);
  memset(f->b + vt, 0, vt_len);
  fb_set(f, vt, vt_len, 2);
  fb_set(f, vt + 2, size, 2);
  for (int k = 0; k < nf; k++) fb_set(f, vt + 4 + 2 * (size_t)ids[k], off[k], 2);
  f->n += vt_len;
  size_t t = fb_pad(f, 4);
  memset(f->b + t, 0, size);
  fb_set(f, t, t - vt, 4);  // soffset: vtable = table - soffset
  for (int k = 0; k < nf; k++) pos[k] = t + off[k];
  f->n += size;
  f->vt = vt;
  return t;
}

static void fb_ref(fb_t *f, size_t field, size_t target) { fb_set(f, field, target - field, 4); }

// a vector of n elements of elem bytes (values[i] stored little endian); returns its length's
// position, which is what references point to
static size_t fb_vec(fb_t *f, uint32_t n, size_t elem, const int64_t *values) {
  size_t v = fb_pad(f, 4);
  fb_set(f, v, n, 4);
  f->n += 4;
  for (uint32_t i = 0; i < n; i++) {
    fb_set(f, f->n, values ? (uint64_t)values[i] : 0, elem);
    f->n += elem;
  }
  return v;
}

static size_t fb_str(fb_t *f, const char *s) {
  size_t v = fb_pad(f, 4), n = strlen(s);
  fb_set(f, v, n, 4);
  memcpy(f->b + v + 4, s, n + 1);
  f->n += 4 + n + 1;
  return v;
}

static size_t fb_f32vec(fb_t *f, uint32_t n, float first) {
  size_t v = fb_pad(f, 4);
  fb_set(f, v, n, 4);
  for (uint32_t i = 0; i < n; i++) {
    float x = first * (float)(i + 1);
    uint32_t u;
    memcpy(&u, &x, 4);
    fb_set(f, v + 4 + 4 * i, u, 4);
  }
  f->n += 4 + 4 * (size_t)n;
  return v;
}

#define NONE_VEC UINT32_MAX

// The small model: tensor 0 "in" int8 [1,4] (scale 0.5, zero point -3), tensor 1 (unnamed) int8
// [dim0,4] constant {1..8} in buffer 1 with n_scale scales / n_zp zero points along qdim, tensor
// 2 int8 [1,2], tensor 3 int32 rank 0 constant 7 (buffer 2); one operator 0 -> 2.
typedef struct {
  uint32_t n_subgraphs;
  int32_t deprecated, builtin;  // the operator code
  const char *custom_code;      // NULL: none
  int name0;                    // tensor 0 has its name
  uint32_t buf0_len;            // bytes in the sentinel buffer 0
  int by_offset;                // buffer 1 through Buffer.offset/size (data at the file's end)
  uint64_t offset_add;          // added to that offset
  uint32_t n_scale, n_zp;       // tensor 1's quantization vectors (NONE_VEC: absent)
  int32_t qdim;
  int32_t dim0;
  uint32_t n_inputs;            // the operator's inputs: {0, in1, -1, 0, 0, ...}
  int32_t in1;
  uint32_t opcode_index;
  uint8_t options_type;         // 8 FullyConnected, 1 Conv2D (strides only), 17 Reshape
  uint32_t n_new_shape;
  uint32_t extra_tensors;       // more entries of the tensors vector, all tensor 1's table
  uint32_t extra_ops;           // more entries of the operators vector, all operator 0's table
} spec_t;

typedef struct {
  size_t len;
  size_t model_vt, op_tbl, name_str, t0_tbl, data1;
} lay_t;

static spec_t default_spec(void) {
  return (spec_t){.n_subgraphs = 1, .deprecated = 9, .builtin = 9, .name0 = 1, .n_scale = 2,
                  .n_zp = 2, .dim0 = 2, .n_inputs = 3, .in1 = 1, .options_type = 8};
}

static size_t build(const spec_t *s, fb_t *f, lay_t *lay) {
  size_t p[8];
  memset(f, 0, sizeof *f);
  memset(lay, 0, sizeof *lay);
  f->n = 8;
  memcpy(f->b + 4, "TFL3", 4);
  // Model { version 0, operator_codes 1, subgraphs 2, buffers 4 }
  size_t model = fb_table(f, 4, (int[]){0, 1, 2, 4}, (int[]){4, 4, 4, 4}, p);
  size_t m_codes = p[1], m_sg = p[2], m_buf = p[3];
  lay->model_vt = f->vt;
  fb_ref(f, 0, model);
  fb_set(f, p[0], 3, 4);

  size_t codes = fb_vec(f, 1, 4, NULL);
  fb_ref(f, m_codes, codes);
  size_t oc = fb_table(f, 4, (int[]){0, 1, 2, 3}, (int[]){1, 4, 4, 4}, p), oc_vt = f->vt;
  fb_ref(f, codes + 4, oc);
  fb_set(f, p[0], (uint8_t)s->deprecated, 1);
  fb_set(f, p[2], 2, 4);
  fb_set(f, p[3], (uint32_t)s->builtin, 4);
  if (s->custom_code != NULL) fb_ref(f, p[1], fb_str(f, s->custom_code));
  else fb_set(f, p[1], 0, 4);  // a zero reference is refused: drop the field from the vtable
  if (s->custom_code == NULL) fb_set(f, oc_vt + 4 + 2 * 1, 0, 2);

  size_t sgs = fb_vec(f, s->n_subgraphs, 4, NULL);
  fb_ref(f, m_sg, sgs);
  size_t sg = fb_table(f, 4, (int[]){0, 1, 2, 3}, (int[]){4, 4, 4, 4}, p);
  for (uint32_t i = 0; i < s->n_subgraphs; i++) fb_ref(f, sgs + 4 + 4 * i, sg);
  size_t sg_t = p[0], sg_ops = p[3];
  fb_ref(f, p[1], fb_vec(f, 1, 4, (int64_t[]){0}));
  fb_ref(f, p[2], fb_vec(f, 1, 4, (int64_t[]){2}));

  size_t tv = fb_vec(f, 4 + s->extra_tensors, 4, NULL);
  fb_ref(f, sg_t, tv);
  for (int i = 0; i < 4; i++) {
    // Tensor { shape 0, type 1, buffer 2, name 3, quantization 4 }
    size_t t = fb_table(f, 5, (int[]){0, 1, 2, 3, 4}, (int[]){4, 1, 4, 4, 4}, p), vt = f->vt;
    size_t shape = p[0], name = p[3], quant = p[4];
    fb_ref(f, tv + 4 + 4 * (size_t)i, t);
    if (i == 0) lay->t0_tbl = t;
    for (uint32_t k = 0; i == 1 && k < s->extra_tensors; k++) {
      fb_ref(f, tv + 4 + 4 * (4 + (size_t)k), t);
    }
    fb_set(f, p[1], i == 3 ? 2 : 9, 1);
    fb_set(f, p[2], i == 1 ? 1 : i == 3 ? 2 : 0, 4);
    if (i == 3) {
      fb_set(f, vt + 4, 0, 2);  // no shape: rank 0
    } else {
      int64_t dims[3][2] = {{1, 4}, {s->dim0, 4}, {1, 2}};
      fb_ref(f, shape, fb_vec(f, 2, 4, dims[i]));
    }
    if (i == 0 && s->name0) {
      lay->name_str = fb_str(f, "in");
      fb_ref(f, name, lay->name_str);
    } else {
      fb_set(f, vt + 4 + 2 * 3, 0, 2);
    }
    if (i == 0 || i == 1) {
      // QuantizationParameters { scale 2, zero_point 3, quantized_dimension 6 }
      size_t q = fb_table(f, 3, (int[]){2, 3, 6}, (int[]){4, 4, 4}, p), qvt = f->vt;
      fb_ref(f, quant, q);
      uint32_t ns = i == 0 ? 1 : s->n_scale, nz = i == 0 ? 1 : s->n_zp;
      fb_set(f, p[2], i == 0 ? 0 : (uint32_t)s->qdim, 4);
      if (ns == NONE_VEC) fb_set(f, qvt + 4 + 2 * 2, 0, 2);
      else fb_ref(f, p[0], fb_f32vec(f, ns, 0.5f));
      if (nz == NONE_VEC) {
        fb_set(f, qvt + 4 + 2 * 3, 0, 2);
      } else {
        int64_t zp[32] = {-3};
        fb_ref(f, p[1], fb_vec(f, nz, 8, zp));
      }
    } else {
      fb_set(f, vt + 4 + 2 * 4, 0, 2);
    }
  }

  size_t ov = fb_vec(f, 1 + s->extra_ops, 4, NULL);
  fb_ref(f, sg_ops, ov);
  // Operator { opcode_index 0, inputs 1, outputs 2, builtin_options_type 3, builtin_options 4 }
  size_t op = fb_table(f, 5, (int[]){0, 1, 2, 3, 4}, (int[]){4, 4, 4, 1, 4}, p), op_vt = f->vt;
  size_t o_opt = p[4];
  lay->op_tbl = op;
  for (uint32_t k = 0; k <= s->extra_ops; k++) fb_ref(f, ov + 4 + 4 * (size_t)k, op);
  fb_set(f, p[0], s->opcode_index, 4);
  fb_set(f, p[3], s->options_type, 1);
  int64_t in[32] = {0, s->in1, -1};
  fb_ref(f, p[1], fb_vec(f, s->n_inputs, 4, in));
  fb_ref(f, p[2], fb_vec(f, 1, 4, (int64_t[]){2}));
  if (s->options_type == 8) {  // FullyConnectedOptions { activation 0, weights_format 1, keep 2 }
    size_t o = fb_table(f, 3, (int[]){0, 1, 2}, (int[]){1, 1, 1}, p);
    fb_ref(f, o_opt, o);
    fb_set(f, p[0], 1, 1);
    fb_set(f, p[2], 1, 1);
  } else if (s->options_type == 1) {  // Conv2DOptions: strides only
    size_t o = fb_table(f, 2, (int[]){1, 2}, (int[]){4, 4}, p);
    fb_ref(f, o_opt, o);
    fb_set(f, p[0], 2, 4);
    fb_set(f, p[1], 3, 4);
  } else if (s->options_type == 17) {  // ReshapeOptions { new_shape 0 }
    size_t o = fb_table(f, 1, (int[]){0}, (int[]){4}, p);
    fb_ref(f, o_opt, o);
    int64_t ns[16] = {1, -1, 4, 5, 6, 7, 8, 9, 10};
    fb_ref(f, p[0], fb_vec(f, s->n_new_shape, 4, ns));
  } else {
    fb_set(f, op_vt + 4 + 2 * 4, 0, 2);
  }

  size_t bv = fb_vec(f, 3, 4, NULL);
  fb_ref(f, m_buf, bv);
  size_t off_field = 0;
  for (int i = 0; i < 3; i++) {
    // Buffer { data 0, offset 1, size 2 }
    if (i == 1 && s->by_offset) {
      size_t b = fb_table(f, 2, (int[]){1, 2}, (int[]){8, 8}, p);
      fb_ref(f, bv + 4 + 4 * (size_t)i, b);
      off_field = p[0];
      fb_set(f, p[1], 8, 8);
      continue;
    }
    size_t b = fb_table(f, 1, (int[]){0}, (int[]){4}, p), b_vt = f->vt;
    fb_ref(f, bv + 4 + 4 * (size_t)i, b);
    int64_t bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    uint32_t n = i == 0 ? s->buf0_len : i == 1 ? 8 : 4;
    if (i == 2) bytes[0] = 7, bytes[1] = bytes[2] = bytes[3] = 0;
    if (n == 0) {
      fb_set(f, b_vt + 4, 0, 2);  // no data field
      continue;
    }
    size_t v = fb_vec(f, n, 1, bytes);
    fb_ref(f, p[0], v);
    if (i == 1) lay->data1 = v + 4;
  }
  if (s->by_offset) {
    lay->data1 = fb_pad(f, 16);
    for (uint8_t k = 1; k <= 8; k++) f->b[f->n++] = k;
    fb_set(f, off_field, lay->data1 + s->offset_add, 8);
  }
  lay->len = f->n;
  return f->n;
}

// parses the model of spec s (from an exact-size allocation); returns the status, *m filled on
// success (free with done())
static s24_status_t parse_spec(const spec_t *s, s24_tfl_model_t *m, char *err, size_t errlen,
                               uint8_t **copy) {
  static fb_t f;
  lay_t lay;
  size_t n = build(s, &f, &lay);
  return parse_exact(f.b, n, m, err, errlen, copy);
}

static void done(s24_tfl_model_t *m, uint8_t *copy) {
  s24_tfl_free(m);
  free(copy);
}

static void expect_spec_refused(const spec_t *s, const char *want) {
  static fb_t f;
  lay_t lay;
  size_t n = build(s, &f, &lay);
  expect_refused(f.b, n, want);
}

// ---------------------------------------------------------------- small built models
static void test_built_model(void **state) {
  (void)state;
  spec_t s = default_spec();
  s24_tfl_model_t m;
  char err[256];
  uint8_t *c;
  if (parse_spec(&s, &m, err, sizeof err, &c) != S24_OK) fail_msg("%s", err);
  assert_int_equal(m.version, 3);
  assert_int_equal(m.n_tensors, 4);
  assert_int_equal(m.n_inputs, 1);
  assert_int_equal(m.inputs[0], 0);
  assert_int_equal(m.outputs[0], 2);
  assert_int_equal(m.tensors[0].name_len, 2);
  assert_memory_equal(m.tensors[0].name, "in", 2);
  assert_int_equal(m.tensors[1].name_len, 0);  // unnamed: "" (not NULL)
  assert_string_equal(m.tensors[1].name, "");
  assert_int_equal(m.tensors[0].n_quant, 1);
  assert_true(m.tensors[0].scale[0] == 0.5f);
  assert_int_equal(m.tensors[0].zero_point[0], -3);
  assert_null(m.tensors[0].data);
  const s24_tfl_tensor_t *w = &m.tensors[1];
  assert_int_equal(w->bytes, 8);
  assert_int_equal(w->n_quant, 2);
  assert_true(w->scale[1] == 1.0f);
  assert_memory_equal(w->data, ((uint8_t[]){1, 2, 3, 4, 5, 6, 7, 8}), 8);
  const s24_tfl_tensor_t *k = &m.tensors[3];
  assert_int_equal(k->rank, 0);
  assert_int_equal(k->elems, 1);
  assert_int_equal(k->bytes, 4);
  assert_int_equal(k->data_len, 4);
  assert_int_equal(k->data[0], 7);
  assert_int_equal(m.tensors[2].n_quant, 0);
  assert_int_equal(m.n_ops, 1);
  const s24_tfl_op_t *o = &m.ops[0];
  assert_int_equal(o->opcode, S24_OP_FULLY_CONNECTED);
  assert_int_equal(o->version, 2);
  assert_int_equal(o->n_in, 3);
  assert_int_equal(o->in[1], 1);
  assert_int_equal(o->in[2], -1);  // optional input absent
  assert_int_equal(o->options_type, S24_TFL_OPT_FULLY_CONNECTED);
  assert_int_equal(o->opt.activation, S24_ACT_RELU);
  assert_int_equal(o->opt.keep_num_dims, 1);
  assert_int_equal(o->opt.dilation_w, 1);
  done(&m, c);
}

// the same bytes at an odd address parse the same (no aligned reads)
static void test_unaligned(void **state) {
  (void)state;
  static fb_t f;
  lay_t lay;
  spec_t s = default_spec();
  size_t n = build(&s, &f, &lay);
  uint8_t *raw = malloc(n + 1);
  assert_non_null(raw);
  memcpy(raw + 1, f.b, n);
  s24_tfl_model_t m;
  char err[256];
  if (s24_tfl_parse(raw + 1, n, &m, err, sizeof err) != S24_OK) fail_msg("%s", err);
  check_invariants(&m, raw + 1, n);
  assert_true(m.tensors[1].scale[1] == 1.0f);
  assert_int_equal(m.tensors[0].zero_point[0], -3);
  s24_tfl_free(&m);
  free(raw);
}

static void test_operator_codes(void **state) {
  (void)state;
  static const struct {
    int32_t deprecated, builtin;
    const char *custom;
    int32_t opcode;
  } cases[] = {
      {3, 0, NULL, S24_OP_CONV_2D},     // an old file: only the deprecated byte
      {127, 150, NULL, 150},            // 127: "see builtin_code"
      {32, 0, "MyOp", 32},              // a custom operator, old style
      {32, 32, "MyOp", 32},             // ... new style
      {127, 32, NULL, 127},             // max of the two, as LiteRT: the placeholder
      {9, 9, NULL, S24_OP_FULLY_CONNECTED},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spec_t s = default_spec();
    s.deprecated = cases[i].deprecated;
    s.builtin = cases[i].builtin;
    s.custom_code = cases[i].custom;
    s24_tfl_model_t m;
    char err[256];
    uint8_t *c;
    if (parse_spec(&s, &m, err, sizeof err, &c) != S24_OK) fail_msg("%s", err);
    assert_int_equal(m.ops[0].opcode, cases[i].opcode);
    assert_int_equal(m.ops[0].is_custom, cases[i].opcode == 32);
    done(&m, c);
  }
  assert_string_equal(s24_tfl_op_name(32), "CUSTOM");
}

static void test_buffer_offset(void **state) {
  (void)state;
  spec_t s = default_spec();
  s.by_offset = 1;
  s24_tfl_model_t m;
  char err[256];
  uint8_t *c;
  if (parse_spec(&s, &m, err, sizeof err, &c) != S24_OK) fail_msg("%s", err);
  assert_int_equal(m.tensors[1].data_len, 8);
  assert_ptr_equal(m.tensors[1].data, c + m.file_len - 8);
  assert_int_equal(m.tensors[1].data_offset, m.file_len - 8);
  assert_memory_equal(m.tensors[1].data, ((uint8_t[]){1, 2, 3, 4, 5, 6, 7, 8}), 8);
  done(&m, c);
  s.offset_add = 1;  // one byte past the end
  expect_spec_refused(&s, "tensor 1 buffer 1: offset ");
  s.offset_add = (uint64_t)1 << 63;
  expect_spec_refused(&s, "lie outside the file");
  s.offset_add = UINT64_MAX - 2000;  // offset + size wrap around
  expect_spec_refused(&s, "lie outside the file");
}

static void test_quantization(void **state) {
  (void)state;
  s24_tfl_model_t m;
  char err[256];
  uint8_t *c;
  spec_t s = default_spec();
  s.n_scale = s.n_zp = 0;  // empty: not quantized
  assert_int_equal(parse_spec(&s, &m, err, sizeof err, &c), S24_OK);
  assert_int_equal(m.tensors[1].n_quant, 0);
  done(&m, c);
  s.n_scale = 0;  // no scales: zero points alone are ignored, as LiteRT does
  s.n_zp = 5;
  assert_int_equal(parse_spec(&s, &m, err, sizeof err, &c), S24_OK);
  assert_int_equal(m.tensors[1].n_quant, 0);
  done(&m, c);
  s = default_spec();
  s.n_scale = s.n_zp = 1;  // per tensor
  assert_int_equal(parse_spec(&s, &m, err, sizeof err, &c), S24_OK);
  assert_int_equal(m.tensors[1].n_quant, 1);
  done(&m, c);
  s.n_scale = s.n_zp = 4;  // per channel along dimension 1 (size 4)
  s.qdim = 1;
  assert_int_equal(parse_spec(&s, &m, err, sizeof err, &c), S24_OK);
  assert_int_equal(m.tensors[1].n_quant, 4);
  assert_int_equal(m.tensors[1].quant_dim, 1);
  done(&m, c);

  s = default_spec();
  s.n_zp = NONE_VEC;
  expect_spec_refused(&s, "tensor 1 quantization: 2 scales but no zero_point");
  s.n_zp = 1;
  expect_spec_refused(&s, "tensor 1 quantization: 2 scales but 1 zero points");
  s.n_scale = s.n_zp = 3;
  expect_spec_refused(&s, "3 scales for dimension 0 of size 2");
  s = default_spec();
  s.qdim = 2;
  expect_spec_refused(&s, "quantized_dimension 2 outside [0, 2)");
  s.qdim = -1;
  expect_spec_refused(&s, "quantized_dimension -1 outside [0, 2)");
}

static void test_options(void **state) {
  (void)state;
  s24_tfl_model_t m;
  char err[256];
  uint8_t *c;
  spec_t s = default_spec();
  s.options_type = S24_TFL_OPT_CONV_2D;  // strides only: the schema's defaults for the rest
  assert_int_equal(parse_spec(&s, &m, err, sizeof err, &c), S24_OK);
  assert_int_equal(m.ops[0].opt.stride_w, 2);
  assert_int_equal(m.ops[0].opt.stride_h, 3);
  assert_int_equal(m.ops[0].opt.padding, S24_PAD_SAME);
  assert_int_equal(m.ops[0].opt.dilation_w, 1);
  assert_int_equal(m.ops[0].opt.dilation_h, 1);
  assert_int_equal(m.ops[0].opt.activation, S24_ACT_NONE);
  done(&m, c);
  s.options_type = S24_TFL_OPT_RESHAPE;
  s.n_new_shape = 3;
  assert_int_equal(parse_spec(&s, &m, err, sizeof err, &c), S24_OK);
  assert_int_equal(m.ops[0].opt.n_new_shape, 3);
  assert_int_equal(m.ops[0].opt.new_shape[1], -1);
  assert_int_equal(m.ops[0].opt.new_shape[2], 4);
  done(&m, c);
  s.n_new_shape = 9;
  expect_spec_refused(&s, "operator 0 (FULLY_CONNECTED) builtin_options new_shape: 9 entries, "
                          "more than 8");
  s.options_type = 0;  // no options table: defaults
  assert_int_equal(parse_spec(&s, &m, err, sizeof err, &c), S24_OK);
  assert_int_equal(m.ops[0].options_type, 0);
  assert_int_equal(m.ops[0].opt.dilation_w, 1);
  assert_int_equal(m.ops[0].opt.stride_w, 0);
  done(&m, c);
}

static void test_built_refused(void **state) {
  (void)state;
  spec_t s = default_spec();
  s.n_subgraphs = 0;
  expect_spec_refused(&s, "model: 0 subgraphs, expected exactly 1");
  s.n_subgraphs = 2;
  expect_spec_refused(&s, "model: 2 subgraphs, expected exactly 1");
  s = default_spec();
  s.buf0_len = 4;
  expect_spec_refused(&s, "model buffer 0: the empty sentinel holds 4 bytes");
  s = default_spec();
  s.n_inputs = 17;
  expect_spec_refused(&s, "operator 0 (FULLY_CONNECTED) inputs: 17 tensors, more than 16");
  s.n_inputs = 3;
  s.in1 = 4;
  expect_spec_refused(&s, "operator 0 (FULLY_CONNECTED) inputs: tensor index 4 out of range "
                          "(4 tensors)");
  s.in1 = -2;
  expect_spec_refused(&s, "tensor index -2 out of range");
  s = default_spec();
  s.opcode_index = 1;
  expect_spec_refused(&s, "operator 0 opcode_index: 1 out of range (1 operator codes)");
  s = default_spec();
  s.dim0 = -1;
  expect_spec_refused(&s, "tensor 1 shape: dimension 0 is negative (-1)");
  s.dim0 = 3;
  expect_spec_refused(&s, "tensor 1: constant data is 8 bytes, expected 12 (12 INT8 elements)");

  // corrupted structure
  static fb_t f;
  lay_t lay;
  s = default_spec();
  size_t n = build(&s, &f, &lay);
  f.b[lay.model_vt] |= 1;  // odd vtable size
  expect_refused(f.b, n, "is malformed or outside the file");
  n = build(&s, &f, &lay);
  fb_set(&f, lay.model_vt, 0x7ff0, 2);  // vtable past the end
  expect_refused(f.b, n, "is malformed or outside the file");
  n = build(&s, &f, &lay);
  {
    size_t op_vt = lay.op_tbl - (size_t)ld_s32(f.b + lay.op_tbl);
    fb_set(&f, op_vt + 2, 8, 2);  // inline size 8: the later fields fall outside it
  }
  expect_refused(f.b, n, "operator 0 (FULLY_CONNECTED) inputs: field at offset");
  n = build(&s, &f, &lay);
  f.b[lay.name_str + 4 + 2] = 'x';  // "in" loses its NUL
  expect_refused(f.b, n, "tensor 0 name: string at byte");
  n = build(&s, &f, &lay);
  fb_set(&f, lay.t0_tbl, 0x80000000u, 4);  // soffset: vtable far outside
  expect_refused(f.b, n, "tensor 0: vtable of the table at byte");
  n = build(&s, &f, &lay);
  fb_set(&f, lay.t0_tbl, (uint32_t)-(int32_t)(n - lay.t0_tbl - 2), 4);  // vtable at the end
  expect_refused(f.b, n, "tensor 0: vtable of the table at byte");
}

// vectors whose entries share one table: parsed as often as they appear, within the limits
static void test_shared_tables(void **state) {
  (void)state;
  s24_tfl_model_t m;
  char err[256];
  uint8_t *c;
  spec_t s = default_spec();
  s.extra_ops = 999;
  s.extra_tensors = 20;
  if (parse_spec(&s, &m, err, sizeof err, &c) != S24_OK) fail_msg("%s", err);
  assert_int_equal(m.n_ops, 1000);
  assert_int_equal(m.n_tensors, 24);
  assert_int_equal(m.ops[999].in[1], 1);
  assert_int_equal(m.tensors[23].n_quant, 2);
  assert_ptr_equal(m.tensors[23].data, m.tensors[1].data);
  done(&m, c);
  s.extra_ops = S24_TFL_MAX_OPS;
  expect_spec_refused(&s, "subgraph 0 operators: 65537, more than 65536");
  s = default_spec();
  s.extra_tensors = S24_TFL_MAX_TENSORS;
  expect_spec_refused(&s, "subgraph 0 tensors: 65540, more than 65536");
  // the quantization vectors copied stay within one entry per 4 bytes of the file
  s.extra_tensors = 2000;
  expect_spec_refused(&s, "quantization: the tensors' quantization parameters together hold more "
                          "entries than the file has room for");
}

// every truncation of the small model, and of it with data by offset: refused, nothing leaks
static void test_built_truncations(void **state) {
  (void)state;
  static fb_t f;
  lay_t lay;
  for (int by_offset = 0; by_offset < 2; by_offset++) {
    spec_t s = default_spec();
    s.by_offset = by_offset;
    size_t n = build(&s, &f, &lay);
    for (size_t len = 0; len < n; len++) {
      s24_tfl_model_t m;
      char err[256];
      uint8_t *c;
      if (parse_exact(f.b, len, &m, err, sizeof err, &c) == S24_OK) {
        fail_msg("a truncation to %zu of %zu bytes parsed", len, n);
      }
    }
  }
}

// ---------------------------------------------------------------- malformed MLPerf Tiny files
static void test_identifier_and_root(void **state) {
  (void)state;
  size_t len;
  uint8_t *buf = load("kws", &len);
  expect_refused(buf, 0, "model: 0 bytes are too short for a flatbuffer");
  expect_refused(buf, 7, "model: 7 bytes are too short for a flatbuffer");
  buf[7] = '2';
  assert_false(s24_tfl_is_tflite(buf, len));
  expect_refused(buf, len, "model: not a TFLite flatbuffer: identifier (bytes 4..7) is not TFL3");
  buf[7] = '3';
  assert_true(s24_tfl_is_tflite(buf, len));
  assert_false(s24_tfl_is_tflite(buf, 7));
  assert_false(s24_tfl_is_tflite(NULL, 8));
  uint8_t root[4];
  memcpy(root, buf, 4);
  put32(buf, (uint32_t)len);  // one past the end
  expect_refused(buf, len, "model root: offset out of bounds at byte 0");
  put32(buf, 0xfffffff0u);
  expect_refused(buf, len, "model root: offset out of bounds at byte 0");
  put32(buf, 0);
  expect_refused(buf, len, "model root: offset out of bounds at byte 0");
  put32(buf, (uint32_t)len - 2);  // inside, but no room for the table's soffset
  expect_refused(buf, len, "model root: table at byte");
  memcpy(buf, root, 4);
  free(buf);
}

// every truncation of kws.tflite is refused (its last bytes are constant data)
static void test_kws_truncations(void **state) {
  (void)state;
  size_t len;
  uint8_t *buf = load("kws", &len);
  for (size_t n = 0; n < len; n++) {
    s24_tfl_model_t m;
    char err[256];
    uint8_t *c;
    if (parse_exact(buf, n, &m, err, sizeof err, &c) == S24_OK) {
      done(&m, c);
      fail_msg("kws.tflite truncated to %zu of %zu bytes parsed", n, len);
    }
  }
  free(buf);
}

static uint64_t g_rng;
static uint32_t rnd(void) {  // xorshift64*
  g_rng ^= g_rng >> 12;
  g_rng ^= g_rng << 25;
  g_rng ^= g_rng >> 27;
  return (uint32_t)((g_rng * 2685821657736338717ull) >> 32);
}

// random changes of 1..4 bytes (mostly outside constant data, where the structure is): no crash,
// no sanitizer report; each result is an error or a model satisfying the invariants
static void test_kws_byte_flips(void **state) {
  (void)state;
  const char *env = getenv("S24_SEED");
  uint64_t seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
  const int cases = getenv("S24_CASES") ? atoi(getenv("S24_CASES")) : 20000;
  print_message("byte flips: seed %llu (rerun: S24_SEED=%llu)\n", (unsigned long long)seed,
                (unsigned long long)seed);
  g_rng = seed * 0x9E3779B97F4A7C15ull + 1;
  size_t len;
  uint8_t *buf = load("kws", &len);
  // the structure's bytes: everything but the constant data
  s24_tfl_model_t m;
  char err[256];
  assert_int_equal(s24_tfl_parse(buf, len, &m, err, sizeof err), S24_OK);
  uint8_t *is_data = calloc(len, 1);
  assert_non_null(is_data);
  for (size_t i = 0; i < m.n_tensors; i++) {
    const s24_tfl_tensor_t *t = &m.tensors[i];
    if (t->data != NULL) memset(is_data + t->data_offset, 1, t->data_len);
  }
  s24_tfl_free(&m);
  size_t *meta = malloc(len * sizeof *meta), n_meta = 0;
  assert_non_null(meta);
  for (size_t i = 0; i < len; i++) if (!is_data[i]) meta[n_meta++] = i;
  uint8_t *mut = malloc(len);
  assert_non_null(mut);
  int ok = 0, bad = 0;
  for (int k = 0; k < cases; k++) {
    memcpy(mut, buf, len);
    int nflips = 1 + (int)(rnd() % 4);
    for (int j = 0; j < nflips; j++) {
      size_t at = rnd() % 10 == 0 ? rnd() % len : meta[rnd() % n_meta];
      uint32_t how = rnd() % 4;
      mut[at] = how == 0 ? (uint8_t)(mut[at] ^ (1u << (rnd() % 8)))
              : how == 1 ? 0xff
              : how == 2 ? 0x00
                         : (uint8_t)rnd();
    }
    uint8_t *c;
    if (parse_exact(mut, len, &m, err, sizeof err, &c) == S24_OK) {
      ok++;
      done(&m, c);
    } else {
      bad++;
    }
  }
  print_message("byte flips: %d cases, %d parsed, %d refused\n", cases, ok, bad);
  assert_true(bad > 0);
  free(mut);
  free(meta);
  free(is_data);
  free(buf);
}

// targeted changes of kws.tflite at places found through the parsed model
static void test_kws_targeted(void **state) {
  (void)state;
  size_t len, at[8], k;
  uint8_t *buf = load("kws", &len);
  s24_tfl_model_t m;
  char err[256];
  assert_int_equal(s24_tfl_parse(buf, len, &m, err, sizeof err), S24_OK);
  const s24_tfl_tensor_t w = m.tensors[17];  // model/conv2d/Conv2D, int8 64x10x4x1
  uint32_t w_scale_len_at = 0;
  {
    // the scale vector of tensor 17: its 64 floats, preceded by the length
    uint8_t *pat = malloc(4 + 64 * 4);
    assert_non_null(pat);
    put32(pat, 64);
    memcpy(pat + 4, w.scale, 64 * 4);
    for (size_t p = 0; p + 4 + 256 <= len; p++) {
      if (memcmp(buf + p, pat, 4 + 256) == 0) w_scale_len_at = (uint32_t)p;
    }
    free(pat);
    assert_true(w_scale_len_at != 0);
  }
  s24_tfl_free(&m);

  // the constant data's vector length of tensor 17 becomes 0x7fffffff
  uint8_t save[4];
  memcpy(save, buf + w.data_offset - 4, 4);
  put32(buf + w.data_offset - 4, 0x7fffffffu);
  expect_refused(buf, len, "tensor 17 (model/conv2d/Conv2D) buffer 18: vector at byte");
  expect_refused(buf, len, "of 2147483647 elements of 1 bytes runs past the end of the file");
  put32(buf + w.data_offset - 4, 0xffffffffu);
  expect_refused(buf, len, "runs past the end of the file");
  put32(buf + w.data_offset - 4, 2559);
  expect_refused(buf, len, "tensor 17 (model/conv2d/Conv2D): constant data is 2559 bytes, "
                           "expected 2560 (2560 INT8 elements)");
  memcpy(buf + w.data_offset - 4, save, 4);

  // its shape 64x10x4x1 becomes 64x9x4x1: the data no longer fits it
  k = find_all(buf, len, (int32_t[]){4, 64, 10, 4, 1}, 5, at, 8);
  assert_int_equal(k, 1);
  put32(buf + at[0] + 8, 9);
  expect_refused(buf, len, "tensor 17 (model/conv2d/Conv2D): constant data is 2560 bytes, "
                           "expected 2304 (2304 INT8 elements)");
  put32(buf + at[0] + 8, 10);

  // scale count 63 against 64 zero points
  put32(buf + w_scale_len_at, 63);
  expect_refused(buf, len, "tensor 17 (model/conv2d/Conv2D) quantization: 63 scales but 64 zero "
                           "points");
  put32(buf + w_scale_len_at, 0x7fffffffu);
  expect_refused(buf, len, "tensor 17 (model/conv2d/Conv2D) quantization scale: vector at byte");
  put32(buf + w_scale_len_at, 64);

  // operator 1's inputs {0, 17, 3}: index 37 (= the tensor count) and -1
  k = find_all(buf, len, (int32_t[]){3, 0, 17, 3}, 4, at, 8);
  assert_int_equal(k, 1);
  put32(buf + at[0] + 8, 37);
  expect_refused(buf, len, "operator 1 (CONV_2D) inputs: tensor index 37 out of range (37 "
                           "tensors)");
  put32(buf + at[0] + 8, 0x80000000u);
  expect_refused(buf, len, "operator 1 (CONV_2D) inputs: tensor index -2147483648 out of range");
  put32(buf + at[0] + 8, (uint32_t)-1);  // an absent optional input is allowed
  {
    uint8_t *c;
    assert_int_equal(parse_exact(buf, len, &m, err, sizeof err, &c), S24_OK);
    assert_int_equal(m.ops[1].in[1], -1);
    done(&m, c);
  }
  put32(buf + at[0] + 8, 17);
  put32(buf + at[0], 17);  // 17 inputs
  expect_refused(buf, len, "operator 1 (CONV_2D) inputs: 17 tensors, more than 16");
  put32(buf + at[0], 3);

  // vectors {1, 35}: the subgraph's inputs and operator 0's: 99 is out of range; -1 only in the
  // operator's (an absent optional input), not in the subgraph's
  k = find_all(buf, len, (int32_t[]){1, 35}, 2, at, 8);
  assert_true(k >= 2);
  int refused = 0, optional = 0;
  for (size_t i = 0; i < k; i++) {
    put32(buf + at[i] + 4, 99);
    expect_refused(buf, len, "tensor index 99 out of range (37 tensors)");
    put32(buf + at[i] + 4, (uint32_t)-1);
    uint8_t *c;
    if (parse_exact(buf, len, &m, err, sizeof err, &c) == S24_OK) {
      assert_int_equal(m.ops[0].in[0], -1);
      optional++;
      done(&m, c);
    } else {
      assert_non_null(strstr(err, "subgraph 0 inputs: tensor index -1 out of range (37 tensors)"));
      refused++;
    }
    put32(buf + at[i] + 4, 35);
  }
  assert_int_equal(refused, 1);
  assert_int_equal(optional, 1);

  // the input's shape 1x50x10x1 (tensors 0 and 35): a negative dim, rank 7, dims that overflow
  k = find_all(buf, len, (int32_t[]){4, 1, 50, 10, 1}, 5, at, 8);
  assert_int_equal(k, 2);
  refused = 0;
  for (size_t i = 0; i < k; i++) {
    put32(buf + at[i] + 8, (uint32_t)-50);
    expect_refused(buf, len, "shape: dimension 1 is negative (-50)");
    put32(buf + at[i] + 8, 50);
    put32(buf + at[i], 7);
    expect_refused(buf, len, "shape: rank 7 is over 6");
    put32(buf + at[i], 4);
    for (int d = 0; d < 4; d++) put32(buf + at[i] + 4 + 4 * (size_t)d, 0x7fffffffu);
    expect_refused(buf, len, "shape: element count overflows");
    put32(buf + at[i] + 4, 1);  // (2^31 - 1)^2 * 4 elements: int8 fits size_t, float32 not
    put32(buf + at[i] + 16, 4);
    uint8_t *c;
    if (parse_exact(buf, len, &m, err, sizeof err, &c) == S24_OK) {
      assert_int_equal(m.tensors[0].elems, (size_t)0x7fffffff * 0x7fffffff * 4);
      done(&m, c);
    } else {
      assert_non_null(strstr(err, "tensor 35 (input_1) shape: byte size overflows"));
      refused++;
    }
    put32(buf + at[i] + 4, 1);
    put32(buf + at[i] + 8, 50);
    put32(buf + at[i] + 12, 10);
    put32(buf + at[i] + 16, 1);
  }
  assert_int_equal(refused, 1);  // tensor 35, FLOAT32
  assert_int_equal(s24_tfl_parse(buf, len, &m, err, sizeof err), S24_OK);  // all restored
  s24_tfl_free(&m);
  free(buf);
}

// ---------------------------------------------------------------- names, arguments, messages
static void test_names(void **state) {
  (void)state;
  assert_string_equal(s24_tfl_op_name(S24_OP_ADD), "ADD");
  assert_string_equal(s24_tfl_op_name(S24_OP_CONV_2D), "CONV_2D");
  assert_string_equal(s24_tfl_op_name(S24_OP_MEAN), "MEAN");
  assert_string_equal(s24_tfl_op_name(S24_OP_STRIDED_SLICE), "STRIDED_SLICE");
  assert_string_equal(s24_tfl_op_name(S24_OP_SHAPE), "SHAPE");
  assert_string_equal(s24_tfl_op_name(S24_OP_PACK), "PACK");
  assert_string_equal(s24_tfl_op_name(S24_OP_QUANTIZE), "QUANTIZE");
  assert_string_equal(s24_tfl_op_name(S24_OP_PAD), "PAD");
  assert_string_equal(s24_tfl_op_name(127), "PLACEHOLDER_FOR_GREATER_OP_CODES");
  assert_string_equal(s24_tfl_op_name(209), "STABLEHLO_CASE");
  assert_string_equal(s24_tfl_op_name(210), "UNKNOWN");
  assert_string_equal(s24_tfl_op_name(-1), "UNKNOWN");
  assert_string_equal(s24_tfl_op_name(INT32_MAX), "UNKNOWN");
  assert_string_equal(s24_tfl_type_name(S24_TFL_INT8), "INT8");
  assert_string_equal(s24_tfl_type_name(S24_TFL_FLOAT32), "FLOAT32");
  assert_string_equal(s24_tfl_type_name(22), "FLOAT8_E5M2");
  assert_string_equal(s24_tfl_type_name(23), "UNKNOWN");
  assert_string_equal(s24_tfl_type_name(-1), "UNKNOWN");
  assert_int_equal(s24_tfl_type_size(S24_TFL_INT8), 1);
  assert_int_equal(s24_tfl_type_size(S24_TFL_UINT8), 1);
  assert_int_equal(s24_tfl_type_size(S24_TFL_INT16), 2);
  assert_int_equal(s24_tfl_type_size(S24_TFL_INT32), 4);
  assert_int_equal(s24_tfl_type_size(S24_TFL_FLOAT32), 4);
  assert_int_equal(s24_tfl_type_size(S24_TFL_INT64), 8);
  assert_int_equal(s24_tfl_type_size(S24_TFL_STRING), 0);
  assert_int_equal(s24_tfl_type_size(17), 0);  // INT4: packed
  assert_int_equal(s24_tfl_type_size(99), 0);
}

static void test_arguments(void **state) {
  (void)state;
  s24_tfl_model_t m;
  char err[64];
  uint8_t one = 0;
  assert_int_equal(s24_tfl_parse(&one, 1, NULL, err, sizeof err), S24_ERR_ARG);
  assert_int_equal(s24_tfl_parse(NULL, 8, &m, err, sizeof err), S24_ERR_ARG);
  assert_int_equal(s24_tfl_parse(NULL, 0, &m, err, sizeof err), S24_ERR_FORMAT);
  assert_true(is_zero(&m, sizeof m));
  assert_int_equal(s24_tfl_parse(NULL, 0, &m, NULL, 0), S24_ERR_FORMAT);  // no message wanted
  // a short message buffer: cut, NUL-terminated
  size_t len;
  uint8_t *buf = load("kws", &len);
  buf[4] = 'X';
  memset(err, '#', sizeof err);
  assert_int_equal(s24_tfl_parse(buf, len, &m, err, 10), S24_ERR_FORMAT);
  assert_int_equal(strlen(err), 9);
  assert_int_equal(err[10], '#');
  assert_int_equal(s24_tfl_parse(buf, len, &m, err, 1), S24_ERR_FORMAT);
  assert_string_equal(err, "");
  free(buf);
  s24_tfl_free(NULL);
  memset(&m, 0, sizeof m);
  s24_tfl_free(&m);
}

int main(int argc, char **argv) {
  g_dir = argc > 1 ? argv[1] : getenv("S24_MODELS");
  if (g_dir == NULL) {
    fprintf(stderr, "usage: %s MODELS_DIR (or S24_MODELS=DIR): the MLPerf Tiny models' "
                    "directory (scripts/deps.sh --models-path)\n", argv[0]);
    return 2;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_model_ad),
      cmocka_unit_test(test_model_ic),
      cmocka_unit_test(test_model_kws),
      cmocka_unit_test(test_model_vww),
      cmocka_unit_test(test_built_model),
      cmocka_unit_test(test_unaligned),
      cmocka_unit_test(test_operator_codes),
      cmocka_unit_test(test_buffer_offset),
      cmocka_unit_test(test_quantization),
      cmocka_unit_test(test_options),
      cmocka_unit_test(test_built_refused),
      cmocka_unit_test(test_shared_tables),
      cmocka_unit_test(test_built_truncations),
      cmocka_unit_test(test_identifier_and_root),
      cmocka_unit_test(test_kws_truncations),
      cmocka_unit_test(test_kws_byte_flips),
      cmocka_unit_test(test_kws_targeted),
      cmocka_unit_test(test_names),
      cmocka_unit_test(test_arguments),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
