// sparse24 network runtime: the bounds-checked TFLite flatbuffer reader (s24_tflite.h, SPEC §8).
//
// Every read goes through one of the checks below before it touches the file:
//  - uoffset (table, vector or string reference): its 4 bytes inside the file, nonzero, below
//    2^31 and pointing inside the file (flatbuffers' Verifier::VerifyOffset). uoffsets only point
//    forward, and the reader follows fixed paths of references from the root (the deepest: Model
//    -> subgraphs -> SubGraph -> tensors -> Tensor -> quantization -> scale), without recursion,
//    once per tensor or operator, so no file makes it loop. Entries of a vector may share one
//    table, so what a small file makes the reader allocate is bounded separately: at most
//    S24_TFL_MAX_TENSORS tensors and S24_TFL_MAX_OPS operators, and quantization vectors copied
//    of at most one entry per 4 bytes of the file (parse_quant);
//  - table: its soffset inside the file, the vtable it names inside the file, with an even
//    size >= 4, and the table's inline size (>= 4) inside the file; a field's offset lies inside
//    the inline size with room for the field's whole value;
//  - vector: its 4-byte length inside the file, then length * element size bytes inside it;
//    a string also its NUL terminator;
//  - every index (operator code, buffer, tensor) below the length of the vector it indexes.
// Scalars are assembled byte by byte (little endian, as flatbuffers stores them), so neither the
// alignment of the file buffer nor the host's byte order matters.
#include "s24_tflite.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>  // snprintf only: no FILE
#include <string.h>

// ---------------------------------------------------------------- schema (schema.fbs field ids)
// a union takes two ids: its _type then its value
enum { MODEL_VERSION = 0, MODEL_OPERATOR_CODES = 1, MODEL_SUBGRAPHS = 2, MODEL_BUFFERS = 4 };
enum { OPC_DEPRECATED_BUILTIN_CODE = 0, OPC_CUSTOM_CODE = 1, OPC_VERSION = 2,
       OPC_BUILTIN_CODE = 3 };
enum { SG_TENSORS = 0, SG_INPUTS = 1, SG_OUTPUTS = 2, SG_OPERATORS = 3 };
enum { TENSOR_SHAPE = 0, TENSOR_TYPE = 1, TENSOR_BUFFER = 2, TENSOR_NAME = 3,
       TENSOR_QUANTIZATION = 4 };
enum { QUANT_SCALE = 2, QUANT_ZERO_POINT = 3, QUANT_QUANTIZED_DIMENSION = 6 };
enum { OP_OPCODE_INDEX = 0, OP_INPUTS = 1, OP_OUTPUTS = 2, OP_BUILTIN_OPTIONS_TYPE = 3,
       OP_BUILTIN_OPTIONS = 4 };
enum { BUFFER_DATA = 0, BUFFER_OFFSET = 1, BUFFER_SIZE = 2 };

#define OPCODE_CUSTOM 32  // BuiltinOperator CUSTOM

// BuiltinOperator 0 .. 209, generated once from LiteRT 2.3.0's schema_py_generated.py
static const char *const kOpNames[] = {
    /*   0 */ "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D",
    /*   5 */ "DEPTH_TO_SPACE", "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED",
    /*  10 */ "HASHTABLE_LOOKUP", "L2_NORMALIZATION", "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION",
    /*  14 */ "LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D", "MUL", "RELU", "RELU_N1_TO_1",
    /*  21 */ "RELU6", "RESHAPE", "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF",
    /*  28 */ "TANH", "CONCAT_EMBEDDINGS", "SKIP_GRAM", "CALL", "CUSTOM",
    /*  33 */ "EMBEDDING_LOOKUP_SPARSE", "PAD", "UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER",
    /*  37 */ "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN", "SUB", "DIV",
    /*  43 */ "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE",
    /*  46 */ "BIDIRECTIONAL_SEQUENCE_RNN", "EXP", "TOPK_V2", "SPLIT", "LOG_SOFTMAX", "DELEGATE",
    /*  52 */ "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST", "PRELU", "MAXIMUM", "ARG_MAX", "MINIMUM",
    /*  58 */ "LESS", "NEG", "PADV2", "GREATER", "GREATER_EQUAL", "LESS_EQUAL", "SELECT", "SLICE",
    /*  66 */ "SIN", "TRANSPOSE_CONV", "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL",
    /*  72 */ "NOT_EQUAL", "LOG", "SUM", "SQRT", "RSQRT", "SHAPE", "POW", "ARG_MIN", "FAKE_QUANT",
    /*  81 */ "REDUCE_PROD", "REDUCE_MAX", "PACK", "LOGICAL_OR", "ONE_HOT", "LOGICAL_AND",
    /*  87 */ "LOGICAL_NOT", "UNPACK", "REDUCE_MIN", "FLOOR_DIV", "REDUCE_ANY", "SQUARE",
    /*  93 */ "ZEROS_LIKE", "FILL", "FLOOR_MOD", "RANGE", "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU",
    /*  99 */ "SQUARED_DIFFERENCE", "MIRROR_PAD", "ABS", "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2",
    /* 106 */ "ADD_N", "GATHER_ND", "COS", "WHERE", "RANK", "ELU", "REVERSE_SEQUENCE",
    /* 113 */ "MATRIX_DIAG", "QUANTIZE", "MATRIX_SET_DIAG", "ROUND", "HARD_SWISH", "IF", "WHILE",
    /* 120 */ "NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2",
    /* 124 */ "DENSIFY", "SEGMENT_SUM", "BATCH_MATMUL", "PLACEHOLDER_FOR_GREATER_OP_CODES",
    /* 128 */ "CUMSUM", "CALL_ONCE", "BROADCAST_TO", "RFFT2D", "CONV_3D", "IMAG", "REAL",
    /* 135 */ "COMPLEX_ABS", "HASHTABLE", "HASHTABLE_FIND", "HASHTABLE_IMPORT", "HASHTABLE_SIZE",
    /* 140 */ "REDUCE_ALL", "CONV_3D_TRANSPOSE", "VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE",
    /* 145 */ "BROADCAST_ARGS", "RANDOM_STANDARD_NORMAL", "BUCKETIZE", "RANDOM_UNIFORM",
    /* 149 */ "MULTINOMIAL", "GELU", "DYNAMIC_UPDATE_SLICE", "RELU_0_TO_1",
    /* 153 */ "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_MAX", "UNSORTED_SEGMENT_SUM", "ATAN2",
    /* 157 */ "UNSORTED_SEGMENT_MIN", "SIGN", "BITCAST", "BITWISE_XOR", "RIGHT_SHIFT",
    /* 162 */ "STABLEHLO_LOGISTIC", "STABLEHLO_ADD", "STABLEHLO_DIVIDE", "STABLEHLO_MULTIPLY",
    /* 166 */ "STABLEHLO_MAXIMUM", "STABLEHLO_RESHAPE", "STABLEHLO_CLAMP", "STABLEHLO_CONCATENATE",
    /* 170 */ "STABLEHLO_BROADCAST_IN_DIM", "STABLEHLO_CONVOLUTION", "STABLEHLO_SLICE",
    /* 173 */ "STABLEHLO_CUSTOM_CALL", "STABLEHLO_REDUCE", "STABLEHLO_ABS", "STABLEHLO_AND",
    /* 177 */ "STABLEHLO_COSINE", "STABLEHLO_EXPONENTIAL", "STABLEHLO_FLOOR", "STABLEHLO_LOG",
    /* 181 */ "STABLEHLO_MINIMUM", "STABLEHLO_NEGATE", "STABLEHLO_OR", "STABLEHLO_POWER",
    /* 185 */ "STABLEHLO_REMAINDER", "STABLEHLO_RSQRT", "STABLEHLO_SELECT", "STABLEHLO_SUBTRACT",
    /* 189 */ "STABLEHLO_TANH", "STABLEHLO_SCATTER", "STABLEHLO_COMPARE", "STABLEHLO_CONVERT",
    /* 193 */ "STABLEHLO_DYNAMIC_SLICE", "STABLEHLO_DYNAMIC_UPDATE_SLICE", "STABLEHLO_PAD",
    /* 196 */ "STABLEHLO_IOTA", "STABLEHLO_DOT_GENERAL", "STABLEHLO_REDUCE_WINDOW",
    /* 199 */ "STABLEHLO_SORT", "STABLEHLO_WHILE", "STABLEHLO_GATHER", "STABLEHLO_TRANSPOSE",
    /* 203 */ "DILATE", "STABLEHLO_RNG_BIT_GENERATOR", "REDUCE_WINDOW", "STABLEHLO_COMPOSITE",
    /* 207 */ "STABLEHLO_SHIFT_LEFT", "STABLEHLO_CBRT", "STABLEHLO_CASE",
};

// ---------------------------------------------------------------- names and sizes
const char *s24_tfl_op_name(int32_t opcode) {
  if (opcode < 0 || (size_t)opcode >= sizeof kOpNames / sizeof kOpNames[0]) return "UNKNOWN";
  return kOpNames[opcode];
}

static const char *const kTypeNames[] = {  // TensorType 0 .. 22
    "FLOAT32", "FLOAT16", "INT32", "UINT8", "INT64", "STRING", "BOOL", "INT16", "COMPLEX64",
    "INT8", "FLOAT64", "COMPLEX128", "UINT64", "RESOURCE", "VARIANT", "UINT32", "UINT16", "INT4",
    "BFLOAT16", "INT2", "UINT4", "FLOAT8_E4M3FN", "FLOAT8_E5M2",
};
// bytes per element, 0 for the types without a fixed size (strings, handles, packed sub-byte)
static const uint8_t kTypeSizes[] = {
    4, 2, 4, 1, 8, 0, 1, 2, 8, 1, 8, 16, 8, 0, 0, 4, 2, 0, 2, 0, 0, 1, 1,
};
_Static_assert(sizeof kTypeNames / sizeof kTypeNames[0] == sizeof kTypeSizes,
               "one size per type name");

const char *s24_tfl_type_name(int32_t type) {
  if (type < 0 || (size_t)type >= sizeof kTypeSizes) return "UNKNOWN";
  return kTypeNames[type];
}

size_t s24_tfl_type_size(int32_t type) {
  if (type < 0 || (size_t)type >= sizeof kTypeSizes) return 0;
  return kTypeSizes[type];
}

int s24_tfl_is_tflite(const uint8_t *buf, size_t len) {
  return buf != NULL && len >= 8 && memcmp(buf + 4, "TFL3", 4) == 0;
}

// ---------------------------------------------------------------- the checked reader
typedef struct {
  const uint8_t *b;
  size_t n;
  char *err;
  size_t errlen;
  char where[112];  // the object being read, first words of every message ("tensor 3 (w)")
  size_t quant_total;  // scales copied so far (bounded: see parse_quant)
  s24_arena_t *arena;  // where the model's tables go
} rd_t;

static void where(rd_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void where(rd_t *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->where, sizeof r->where, fmt, ap);
  va_end(ap);
}

size_t s24_tfl_name_str(const char *name, size_t len, char *out, size_t outlen) {
  if (out == NULL || outlen == 0) return 0;
  size_t w = 0;
  for (size_t i = 0; name != NULL && i < len && i < S24_TFL_NAME_SHOWN && w + 1 < outlen; i++) {
    const unsigned char c = (unsigned char)name[i];
    out[w++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
  }
  if (len > S24_TFL_NAME_SHOWN && w + 4 <= outlen) {
    memcpy(out + w, "...", 3);
    w += 3;
  }
  out[w] = '\0';
  return w;
}

const char *s24_tfl_tensor_str(const s24_tfl_model_t *m, int32_t t, char *buf, size_t len) {
  if (buf == NULL || len == 0) return "";
  char name[S24_TFL_NAME_SHOWN + 4];
  if (m == NULL || t < 0 || (size_t)t >= m->n_tensors) {
    snprintf(buf, len, "tensor %d", (int)t);
    return buf;
  }
  const s24_tfl_tensor_t *x = &m->tensors[t];
  s24_tfl_name_str(x->name, x->name_len, name, sizeof name);
  snprintf(buf, len, "tensor %d (%s)", (int)t, name);
  return buf;
}

// appends " (NAME)" to where, NAME as s24_tfl_name_str shows it (one-line messages)
static void where_name(rd_t *r, const uint8_t *name, size_t len) {
  size_t w = strlen(r->where);
  if (w + 4 >= sizeof r->where) return;
  r->where[w++] = ' ';
  r->where[w++] = '(';
  w += s24_tfl_name_str((const char *)name, len, r->where + w, sizeof r->where - w - 1);
  r->where[w++] = ')';
  r->where[w] = '\0';
}

// S24_ERR_FORMAT with "WHERE[ FIELD]: MESSAGE" in err
static s24_status_t fail(rd_t *r, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static s24_status_t fail(rd_t *r, const char *field, const char *fmt, ...) {
  if (r->err != NULL && r->errlen > 0) {
    int k = snprintf(r->err, r->errlen, "%s%s%s: ", r->where, field ? " " : "", field ? field : "");
    if (k >= 0 && (size_t)k < r->errlen) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(r->err + k, r->errlen - (size_t)k, fmt, ap);
      va_end(ap);
    }
  }
  return S24_ERR_FORMAT;
}

static s24_status_t nomem(rd_t *r, const char *what) {
  if (r->err != NULL && r->errlen > 0) {
    snprintf(r->err, r->errlen, "%s: the arena has no room for %s", r->where, what);
  }
  return S24_ERR_NOMEM;
}

// [off, off + size) inside the file
static int inside(const rd_t *r, size_t off, size_t size) {
  return off <= r->n && size <= r->n - off;
}

static uint16_t ld16(const uint8_t *p) { return (uint16_t)(p[0] | (unsigned)p[1] << 8); }
static uint32_t ld32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t ld64(const uint8_t *p) { return (uint64_t)ld32(p) | (uint64_t)ld32(p + 4) << 32; }
static int32_t as_i32(uint32_t u) {  // two's complement without implementation-defined casts
  return u < 0x80000000u ? (int32_t)u : (int32_t)(u - 0x80000000u) + INT32_MIN;
}

typedef struct {
  size_t pos;       // the table (its soffset)
  size_t vt;        // its vtable
  uint32_t vt_len;  // vtable bytes
  uint32_t size;    // the table's inline bytes
} tbl_t;

typedef struct {
  size_t data;  // first element (0: absent)
  uint32_t n;
} vec_t;

// the uoffset at pos (its 4 bytes already inside the file): the position it points to
static s24_status_t follow(rd_t *r, size_t pos, const char *field, size_t *to) {
  uint32_t u = ld32(r->b + pos);
  if (u == 0 || u >= 0x80000000u || !inside(r, pos, (size_t)u + 1)) {
    return fail(r, field, "offset out of bounds at byte %zu (0x%08x, file of %zu bytes)", pos,
                (unsigned)u, r->n);
  }
  *to = pos + u;
  return S24_OK;
}

static s24_status_t table_at(rd_t *r, size_t pos, const char *field, tbl_t *t) {
  if (!inside(r, pos, 4)) {
    return fail(r, field, "table at byte %zu outside the file (%zu bytes)", pos, r->n);
  }
  int64_t vt = (int64_t)pos - (int64_t)as_i32(ld32(r->b + pos));
  if (vt < 0 || !inside(r, (size_t)vt, 4)) {
    return fail(r, field, "vtable of the table at byte %zu outside the file (at %lld)", pos,
                (long long)vt);
  }
  t->pos = pos;
  t->vt = (size_t)vt;
  t->vt_len = ld16(r->b + t->vt);
  t->size = ld16(r->b + t->vt + 2);
  if (t->vt_len < 4 || (t->vt_len & 1u) != 0 || !inside(r, t->vt, t->vt_len)) {
    return fail(r, field, "vtable at byte %zu of %u bytes is malformed or outside the file", t->vt,
                (unsigned)t->vt_len);
  }
  if (t->size < 4 || !inside(r, pos, t->size)) {
    return fail(r, field, "table at byte %zu of %u bytes is malformed or outside the file", pos,
                (unsigned)t->size);
  }
  return S24_OK;
}

// where field `id` of t holds its size-byte value (*at = 0: field absent)
static s24_status_t field_at(rd_t *r, const tbl_t *t, unsigned id, size_t size, const char *field,
                             size_t *at) {
  size_t slot = 4 + 2 * (size_t)id;
  *at = 0;
  if (slot + 2 > t->vt_len) return S24_OK;
  uint16_t off = ld16(r->b + t->vt + slot);
  if (off == 0) return S24_OK;
  if (off < 4 || off + size > t->size) {
    return fail(r, field, "field at offset %u of the table at byte %zu lies outside its %u bytes",
                (unsigned)off, t->pos, (unsigned)t->size);
  }
  *at = t->pos + off;
  return S24_OK;
}

// Field `id` of t: the little-endian unsigned integer of `size` bytes (1, 4 or 8) it holds, or
// def where the field is absent (and on an error). The typed getters below convert it.
static s24_status_t get_uint(rd_t *r, const tbl_t *t, unsigned id, size_t size, uint64_t def,
                             const char *field, uint64_t *v) {
  size_t at;
  s24_status_t st = field_at(r, t, id, size, field, &at);
  *v = at == 0 ? def : size == 1 ? r->b[at] : size == 4 ? ld32(r->b + at) : ld64(r->b + at);
  return st;
}

static s24_status_t get_i8(rd_t *r, const tbl_t *t, unsigned id, const char *field, int32_t *v) {
  uint64_t u;
  s24_status_t st = get_uint(r, t, id, 1, 0, field, &u);
  *v = u < 0x80 ? (int32_t)u : (int32_t)u - 256;
  return st;
}

// a bool: any non-zero byte is true
static s24_status_t get_bool(rd_t *r, const tbl_t *t, unsigned id, const char *field, int32_t *v) {
  s24_status_t st = get_i8(r, t, id, field, v);
  *v = *v != 0;
  return st;
}

static s24_status_t get_u32(rd_t *r, const tbl_t *t, unsigned id, uint32_t def, const char *field,
                            uint32_t *v) {
  uint64_t u;
  s24_status_t st = get_uint(r, t, id, 4, def, field, &u);
  *v = (uint32_t)u;
  return st;
}

static s24_status_t get_i32(rd_t *r, const tbl_t *t, unsigned id, int32_t def, const char *field,
                            int32_t *v) {
  uint32_t u;
  s24_status_t st = get_u32(r, t, id, (uint32_t)def, field, &u);  // as_i32 undoes the cast
  *v = as_i32(u);
  return st;
}

static s24_status_t get_f32(rd_t *r, const tbl_t *t, unsigned id, const char *field, float *v) {
  uint32_t u;
  s24_status_t st = get_u32(r, t, id, 0, field, &u);  // default 0.0
  memcpy(v, &u, sizeof *v);
  return st;
}

// the table that field `id` of t refers to (*present = 0: field absent)
static s24_status_t get_table(rd_t *r, const tbl_t *t, unsigned id, const char *field, tbl_t *sub,
                              int *present) {
  size_t at, to;
  s24_status_t st;
  *present = 0;
  if ((st = field_at(r, t, id, 4, field, &at)) != S24_OK || at == 0) return st;
  if ((st = follow(r, at, field, &to)) != S24_OK) return st;
  if ((st = table_at(r, to, field, sub)) != S24_OK) return st;
  *present = 1;
  return S24_OK;
}

// the vector at pos (its uoffset already followed) of elem-byte elements
static s24_status_t vec_at(rd_t *r, size_t pos, size_t elem, const char *field, vec_t *v) {
  if (!inside(r, pos, 4)) {
    return fail(r, field, "vector length at byte %zu outside the file (%zu bytes)", pos, r->n);
  }
  uint32_t n = ld32(r->b + pos);
  if (n > (r->n - pos - 4) / elem) {
    return fail(r, field,
                "vector at byte %zu of %u elements of %zu bytes runs past the end of the file "
                "(%zu bytes)",
                pos, (unsigned)n, elem, r->n);
  }
  v->data = pos + 4;
  v->n = n;
  return S24_OK;
}

// the vector that field `id` of t refers to (data 0, n 0: field absent)
static s24_status_t get_vec(rd_t *r, const tbl_t *t, unsigned id, size_t elem, const char *field,
                            vec_t *v) {
  size_t at, to;
  s24_status_t st;
  v->data = 0;
  v->n = 0;
  if ((st = field_at(r, t, id, 4, field, &at)) != S24_OK || at == 0) return st;
  if ((st = follow(r, at, field, &to)) != S24_OK) return st;
  return vec_at(r, to, elem, field, v);
}

// a string: a byte vector followed by a NUL inside the file
static s24_status_t get_string(rd_t *r, const tbl_t *t, unsigned id, const char *field, vec_t *v) {
  s24_status_t st = get_vec(r, t, id, 1, field, v);
  if (st != S24_OK || v->data == 0) return st;
  if (!inside(r, v->data + v->n, 1) || r->b[v->data + v->n] != 0) {
    return fail(r, field, "string at byte %zu of %u bytes has no NUL terminator inside the file",
                v->data - 4, (unsigned)v->n);
  }
  return S24_OK;
}

// element i (< v->n) of a vector of tables
static s24_status_t vec_table(rd_t *r, const vec_t *v, size_t i, const char *field, tbl_t *t) {
  size_t to;
  s24_status_t st = follow(r, v->data + 4 * i, field, &to);
  return st != S24_OK ? st : table_at(r, to, field, t);
}

static int32_t vec_i32(const rd_t *r, const vec_t *v, size_t i) {
  return as_i32(ld32(r->b + v->data + 4 * i));
}

// An optional [int] field of at most max entries into out[], their number into *n
static s24_status_t get_i32_list(rd_t *r, const tbl_t *t, unsigned id, const char *field,
                                 uint32_t max, int32_t *out, uint32_t *n) {
  vec_t v;
  const s24_status_t st = get_vec(r, t, id, 4, field, &v);
  if (st != S24_OK) return st;
  if (v.n > max) return fail(r, field, "%u entries, more than %u", (unsigned)v.n, (unsigned)max);
  for (uint32_t k = 0; k < v.n; k++) out[k] = vec_i32(r, &v, k);
  *n = v.n;
  return S24_OK;
}

// ---------------------------------------------------------------- model parts
typedef struct {
  vec_t opcodes, buffers;
} ctx_t;

// a constant buffer: Buffer.data when not empty, else Buffer.offset/size into the file (offset
// > 1, as LiteRT: 1 is the converter's placeholder); *len 0: empty
static s24_status_t parse_buffer(rd_t *r, const ctx_t *c, uint32_t index, size_t *at, size_t *len) {
  char field[40];
  tbl_t t;
  vec_t data;
  uint64_t off, size;
  s24_status_t st;
  snprintf(field, sizeof field, "buffer %u", (unsigned)index);
  *at = 0;
  *len = 0;
  if ((st = vec_table(r, &c->buffers, index, field, &t)) != S24_OK) return st;
  if ((st = get_vec(r, &t, BUFFER_DATA, 1, field, &data)) != S24_OK) return st;
  if ((st = get_uint(r, &t, BUFFER_OFFSET, 8, 0, field, &off)) != S24_OK) return st;
  if ((st = get_uint(r, &t, BUFFER_SIZE, 8, 0, field, &size)) != S24_OK) return st;
  if (data.n > 0) {
    *at = data.data;
    *len = data.n;
  } else if (off > 1) {
    if (off > r->n || size > r->n - off) {
      return fail(r, field, "offset %llu and size %llu lie outside the file (%zu bytes)",
                  (unsigned long long)off, (unsigned long long)size, r->n);
    }
    *at = (size_t)off;
    *len = (size_t)size;
  }
  return S24_OK;
}

// QuantizationParameters as LiteRT's InterpreterBuilder::ParseQuantization reads them: no scale
// vector (or an empty one) is "not quantized" whatever else the table holds; otherwise the
// zero_point vector must be there with as many entries, quantized_dimension in [0, rank), and
// the count 1 (per tensor) or the size of that dimension (per channel)
static s24_status_t parse_quant(rd_t *r, const tbl_t *q, s24_tfl_tensor_t *t) {
  vec_t scale, zp;
  int32_t dim;
  s24_status_t st;
  if ((st = get_vec(r, q, QUANT_SCALE, 4, "quantization scale", &scale)) != S24_OK) return st;
  if ((st = get_vec(r, q, QUANT_ZERO_POINT, 8, "quantization zero_point", &zp)) != S24_OK) {
    return st;
  }
  if ((st = get_i32(r, q, QUANT_QUANTIZED_DIMENSION, 0, "quantization", &dim)) != S24_OK) {
    return st;
  }
  t->quant_dim = dim;
  if (scale.n == 0) return S24_OK;
  if (zp.data == 0) return fail(r, "quantization", "%u scales but no zero_point",
                                     (unsigned)scale.n);
  if (zp.n != scale.n) {
    return fail(r, "quantization", "%u scales but %u zero points", (unsigned)scale.n,
                (unsigned)zp.n);
  }
  if (dim < 0 || (t->rank > 0 && (uint32_t)dim >= t->rank)) {
    return fail(r, "quantization", "quantized_dimension %d outside [0, %u)", (int)dim,
                (unsigned)t->rank);
  }
  if (scale.n != 1 && t->rank > 0 && scale.n != (uint32_t)t->dims[dim]) {
    return fail(r, "quantization", "%u scales for dimension %d of size %d",
                (unsigned)scale.n, (int)dim, (int)t->dims[dim]);
  }
  // Many tensors may share one table: copying is bounded by one scale per 4 bytes of the file
  // (what unshared vectors take), so no file makes the copies outgrow it more than 3 times
  r->quant_total += scale.n;
  if (r->quant_total > r->n / 4) {
    return fail(r, "quantization", "the tensors' quantization parameters together hold more "
                "entries than the file has room for (shared vectors)");
  }
  t->scale = s24_arena_alloc(r->arena, scale.n * sizeof *t->scale, 0);
  t->zero_point = s24_arena_alloc(r->arena, zp.n * sizeof *t->zero_point, 0);
  if (t->scale == NULL || t->zero_point == NULL) return nomem(r, "quantization parameters");
  for (size_t i = 0; i < scale.n; i++) {
    uint32_t u = ld32(r->b + scale.data + 4 * i);
    memcpy(&t->scale[i], &u, sizeof u);
    uint64_t z = ld64(r->b + zp.data + 8 * i);
    t->zero_point[i] = z < 0x8000000000000000u ? (int64_t)z
                                              : (int64_t)(z - 0x8000000000000000u) + INT64_MIN;
  }
  t->n_quant = scale.n;
  return S24_OK;
}

static s24_status_t parse_tensor(rd_t *r, const ctx_t *c, const vec_t *tensors, size_t i,
                                 s24_tfl_tensor_t *t) {
  tbl_t tb, qt;
  vec_t name, shape;
  uint32_t buffer;
  int has_q;
  s24_status_t st;
  where(r, "tensor %zu", i);
  t->name = "";
  if ((st = vec_table(r, tensors, i, NULL, &tb)) != S24_OK) return st;
  if ((st = get_string(r, &tb, TENSOR_NAME, "name", &name)) != S24_OK) return st;
  if (name.data != 0) {
    t->name = (const char *)r->b + name.data;
    t->name_len = name.n;
    where_name(r, r->b + name.data, name.n);
  }
  if ((st = get_vec(r, &tb, TENSOR_SHAPE, 4, "shape", &shape)) != S24_OK) return st;
  if (shape.n > S24_TFL_MAX_DIMS) {
    return fail(r, "shape", "rank %u is over %d", (unsigned)shape.n, S24_TFL_MAX_DIMS);
  }
  t->rank = shape.n;
  t->elems = 1;
  for (uint32_t d = 0; d < shape.n; d++) {
    int32_t v = vec_i32(r, &shape, d);
    if (v < 0) return fail(r, "shape", "dimension %u is negative (%d)", (unsigned)d,
                               (int)v);
    t->dims[d] = v;
    if (v != 0 && t->elems > SIZE_MAX / (size_t)v) {
      return fail(r, "shape", "element count overflows");
    }
    t->elems *= (size_t)v;
  }
  if ((st = get_i8(r, &tb, TENSOR_TYPE, "type", &t->type)) != S24_OK) return st;
  size_t esize = s24_tfl_type_size(t->type);
  if (esize != 0 && t->elems > SIZE_MAX / esize) {
    return fail(r, "shape", "byte size overflows");
  }
  t->bytes = t->elems * esize;

  if ((st = get_u32(r, &tb, TENSOR_BUFFER, 0, "buffer", &buffer)) != S24_OK) return st;
  if (buffer >= c->buffers.n) {
    return fail(r, "buffer", "index %u out of range (%u buffers)", (unsigned)buffer,
                (unsigned)c->buffers.n);
  }
  t->buffer = buffer;
  size_t at, len;
  if ((st = parse_buffer(r, c, buffer, &at, &len)) != S24_OK) return st;
  if (len > 0) {
    if (esize != 0 && len != t->bytes) {
      return fail(r, NULL, "constant data is %zu bytes, expected %zu (%zu %s elements)", len,
                  t->bytes, t->elems, s24_tfl_type_name(t->type));
    }
    t->data = r->b + at;
    t->data_len = len;
    t->data_offset = at;
  }

  if ((st = get_table(r, &tb, TENSOR_QUANTIZATION, "quantization", &qt, &has_q)) != S24_OK) {
    return st;
  }
  return has_q ? parse_quant(r, &qt, t) : S24_OK;
}

// a vector of tensor indices, e.g. an operator's inputs: at most S24_TFL_MAX_OP_IO, each in
// [0, n_tensors), or -1 where `optional`
static s24_status_t parse_indices(rd_t *r, const tbl_t *t, unsigned id, const char *field,
                                  size_t n_tensors, int optional, int32_t *out, uint32_t *n) {
  vec_t v;
  s24_status_t st = get_vec(r, t, id, 4, field, &v);
  if (st != S24_OK) return st;
  if (v.n > S24_TFL_MAX_OP_IO) {
    return fail(r, field, "%u tensors, more than %d", (unsigned)v.n, S24_TFL_MAX_OP_IO);
  }
  for (uint32_t k = 0; k < v.n; k++) {
    int32_t x = vec_i32(r, &v, k);
    if (!(x == -1 && optional) && (x < 0 || (size_t)x >= n_tensors)) {
      return fail(r, field, "tensor index %d out of range (%zu tensors)", (int)x,
                  n_tensors);
    }
    out[k] = x;
  }
  *n = v.n;
  return S24_OK;
}

static void default_options(s24_tfl_options_t *o) {
  memset(o, 0, sizeof *o);
  o->dilation_w = 1;  // the schema's defaults; every other field defaults to 0
  o->dilation_h = 1;
}

// padding, stride_w and stride_h: fields 0 to 2 of Conv2DOptions, DepthwiseConv2DOptions and
// Pool2DOptions
static s24_status_t get_padding_strides(rd_t *r, const tbl_t *t, const char *f,
                                        s24_tfl_options_t *o) {
  s24_status_t st;
  if ((st = get_i8(r, t, 0, f, &o->padding)) != S24_OK ||
      (st = get_i32(r, t, 1, 0, f, &o->stride_w)) != S24_OK) {
    return st;
  }
  return get_i32(r, t, 2, 0, f, &o->stride_h);
}

// the builtin_options table of an operator, read by its union type (other types keep defaults)
static s24_status_t parse_options(rd_t *r, const tbl_t *t, uint8_t type, s24_tfl_options_t *o) {
  const char *f = "builtin_options";
  s24_status_t st = S24_OK;
#define RD(call) \
  do {                                 \
    if ((st = (call)) != S24_OK) return st; \
  } while (0)
  switch (type) {
    case S24_TFL_OPT_CONV_2D:
    case S24_TFL_OPT_DEPTHWISE_CONV_2D: {
      // DepthwiseConv2DOptions is Conv2DOptions with depth_multiplier inserted as field 3
      const unsigned dw = type == S24_TFL_OPT_DEPTHWISE_CONV_2D;
      RD(get_padding_strides(r, t, f, o));
      if (dw) RD(get_i32(r, t, 3, 0, f, &o->depth_multiplier));
      RD(get_i8(r, t, 3 + dw, f, &o->activation));
      RD(get_i32(r, t, 4 + dw, 1, f, &o->dilation_w));
      RD(get_i32(r, t, 5 + dw, 1, f, &o->dilation_h));
      break;
    }
    case S24_TFL_OPT_POOL_2D:
      RD(get_padding_strides(r, t, f, o));
      RD(get_i32(r, t, 3, 0, f, &o->filter_w));
      RD(get_i32(r, t, 4, 0, f, &o->filter_h));
      RD(get_i8(r, t, 5, f, &o->activation));
      break;
    case S24_TFL_OPT_FULLY_CONNECTED:
      RD(get_i8(r, t, 0, f, &o->activation));
      RD(get_i8(r, t, 1, f, &o->fc_weights_format));
      RD(get_bool(r, t, 2, f, &o->keep_num_dims));
      break;
    case S24_TFL_OPT_SOFTMAX:
      RD(get_f32(r, t, 0, f, &o->beta));
      break;
    case S24_TFL_OPT_ADD:  // AddOptions, SubOptions { fused_activation_function 0, ... },
    case S24_TFL_OPT_SUB:  // MulOptions { fused_activation_function 0 } (pot_scale_int16, field
    case S24_TFL_OPT_MUL:  // 1 of the first two, is for int16 only: not read)
      RD(get_i8(r, t, 0, f, &o->activation));
      break;
    case S24_TFL_OPT_CONCATENATION:  // ConcatenationOptions { axis 0, activation 1 }
      RD(get_i32(r, t, 0, 0, f, &o->axis));
      RD(get_i8(r, t, 1, f, &o->activation));
      break;
    case S24_TFL_OPT_SPLIT:  // SplitOptions { num_splits 0 }
      RD(get_i32(r, t, 0, 0, f, &o->num_splits));
      break;
    case S24_TFL_OPT_SQUEEZE:  // SqueezeOptions { squeeze_dims 0 }
      RD(get_i32_list(r, t, 0, "builtin_options squeeze_dims", S24_TFL_MAX_SQUEEZE_DIMS,
                      o->squeeze_dims, &o->n_squeeze_dims));
      break;
    case S24_TFL_OPT_RESIZE_NEAREST_NEIGHBOR:  // { align_corners 0, half_pixel_centers 1 }
      RD(get_bool(r, t, 0, f, &o->align_corners));
      RD(get_bool(r, t, 1, f, &o->half_pixel_centers));
      break;
    case S24_TFL_OPT_LEAKY_RELU:  // LeakyReluOptions { alpha 0 }
      RD(get_f32(r, t, 0, f, &o->alpha));
      break;
    case S24_TFL_OPT_RESHAPE:
      RD(get_i32_list(r, t, 0, "builtin_options new_shape", S24_TFL_MAX_NEW_SHAPE, o->new_shape,
                      &o->n_new_shape));
      break;
    case S24_TFL_OPT_STRIDED_SLICE:
      RD(get_i32(r, t, 0, 0, f, &o->begin_mask));
      RD(get_i32(r, t, 1, 0, f, &o->end_mask));
      RD(get_i32(r, t, 2, 0, f, &o->ellipsis_mask));
      RD(get_i32(r, t, 3, 0, f, &o->new_axis_mask));
      RD(get_i32(r, t, 4, 0, f, &o->shrink_axis_mask));
      RD(get_bool(r, t, 5, f, &o->ss_offset));
      break;
    case S24_TFL_OPT_PACK:
      RD(get_i32(r, t, 0, 0, f, &o->values_count));
      RD(get_i32(r, t, 1, 0, f, &o->axis));
      break;
    case S24_TFL_OPT_REDUCER:
      RD(get_bool(r, t, 0, f, &o->keep_dims));
      break;
    case S24_TFL_OPT_PAD:         // PadOptions, TransposeOptions, HardSwishOptions: no fields
    case S24_TFL_OPT_TRANSPOSE:
    case S24_TFL_OPT_HARD_SWISH:
    default:       // options of operators the runtime does not run: not read
      break;
  }
#undef RD
  return S24_OK;
}

static s24_status_t parse_op(rd_t *r, const ctx_t *c, const vec_t *ops, size_t i, size_t n_tensors,
                             s24_tfl_op_t *op) {
  tbl_t tb, oc, ot;
  vec_t custom;
  uint32_t index;
  uint64_t options_type;
  int32_t deprecated, builtin;
  int has_opt;
  s24_status_t st;
  where(r, "operator %zu", i);
  default_options(&op->opt);
  if ((st = vec_table(r, ops, i, NULL, &tb)) != S24_OK) return st;
  if ((st = get_u32(r, &tb, OP_OPCODE_INDEX, 0, "opcode_index", &index)) != S24_OK) return st;
  if (index >= c->opcodes.n) {
    return fail(r, "opcode_index", "%u out of range (%u operator codes)", (unsigned)index,
                (unsigned)c->opcodes.n);
  }
  if ((st = vec_table(r, &c->opcodes, index, "operator code", &oc)) != S24_OK) return st;
  if ((st = get_i8(r, &oc, OPC_DEPRECATED_BUILTIN_CODE, "operator code", &deprecated)) != S24_OK ||
      (st = get_i32(r, &oc, OPC_BUILTIN_CODE, 0, "operator code", &builtin)) != S24_OK ||
      (st = get_i32(r, &oc, OPC_VERSION, 1, "operator code", &op->version)) != S24_OK ||
      (st = get_string(r, &oc, OPC_CUSTOM_CODE, "operator code custom_code", &custom)) != S24_OK) {
    return st;
  }
  op->opcode = deprecated > builtin ? deprecated : builtin;  // as LiteRT's GetBuiltinCode
  op->is_custom = op->opcode == OPCODE_CUSTOM;
  where(r, "operator %zu (%s)", i, s24_tfl_op_name(op->opcode));

  if ((st = parse_indices(r, &tb, OP_INPUTS, "inputs", n_tensors, 1, op->in, &op->n_in)) !=
          S24_OK ||
      (st = parse_indices(r, &tb, OP_OUTPUTS, "outputs", n_tensors, 0, op->out, &op->n_out)) !=
          S24_OK) {
    return st;
  }
  if ((st = get_uint(r, &tb, OP_BUILTIN_OPTIONS_TYPE, 1, 0, "builtin_options_type",
                     &options_type)) != S24_OK) {
    return st;
  }
  op->options_type = (uint8_t)options_type;
  if ((st = get_table(r, &tb, OP_BUILTIN_OPTIONS, "builtin_options", &ot, &has_opt)) != S24_OK) {
    return st;
  }
  return has_opt ? parse_options(r, &ot, op->options_type, &op->opt) : S24_OK;
}

static s24_status_t parse_model(rd_t *r, s24_tfl_model_t *m) {
  tbl_t model, sg;
  vec_t subgraphs, tensors, ops;
  ctx_t c;
  size_t root;
  uint32_t n;
  s24_status_t st;
  where(r, "model");
  if (r->n < 8) return fail(r, NULL, "%zu bytes are too short for a flatbuffer", r->n);
  if (!s24_tfl_is_tflite(r->b, r->n)) {
    return fail(r, NULL, "not a TFLite flatbuffer: identifier (bytes 4..7) is not TFL3");
  }
  if ((st = follow(r, 0, "root", &root)) != S24_OK) return st;
  if ((st = table_at(r, root, "root", &model)) != S24_OK) return st;
  if ((st = get_u32(r, &model, MODEL_VERSION, 0, "version", &m->version)) != S24_OK) return st;
  if ((st = get_vec(r, &model, MODEL_OPERATOR_CODES, 4, "operator_codes", &c.opcodes)) != S24_OK ||
      (st = get_vec(r, &model, MODEL_BUFFERS, 4, "buffers", &c.buffers)) != S24_OK ||
      (st = get_vec(r, &model, MODEL_SUBGRAPHS, 4, "subgraphs", &subgraphs)) != S24_OK) {
    return st;
  }
  if (subgraphs.n != 1) {
    return fail(r, NULL, "%u subgraphs, expected exactly 1", (unsigned)subgraphs.n);
  }
  if (c.buffers.n > 0) {  // buffer 0 is the schema's empty sentinel
    size_t at, len;
    if ((st = parse_buffer(r, &c, 0, &at, &len)) != S24_OK) return st;
    if (len != 0) return fail(r, "buffer 0", "the empty sentinel holds %zu bytes", len);
  }

  where(r, "subgraph 0");
  if ((st = vec_table(r, &subgraphs, 0, NULL, &sg)) != S24_OK) return st;
  if ((st = get_vec(r, &sg, SG_TENSORS, 4, "tensors", &tensors)) != S24_OK ||
      (st = get_vec(r, &sg, SG_OPERATORS, 4, "operators", &ops)) != S24_OK) {
    return st;
  }
  if (tensors.n > S24_TFL_MAX_TENSORS) {
    return fail(r, "tensors", "%u, more than %d", (unsigned)tensors.n, S24_TFL_MAX_TENSORS);
  }
  if (ops.n > S24_TFL_MAX_OPS) {
    return fail(r, "operators", "%u, more than %d", (unsigned)ops.n, S24_TFL_MAX_OPS);
  }
  if (tensors.n > 0) {
    m->tensors = s24_arena_alloc(r->arena, tensors.n * sizeof *m->tensors, 0);
    if (m->tensors == NULL) return nomem(r, "the tensors");
  }
  m->n_tensors = tensors.n;
  if ((st = parse_indices(r, &sg, SG_INPUTS, "inputs", m->n_tensors, 0, m->inputs, &n)) != S24_OK) {
    return st;
  }
  m->n_inputs = n;
  if ((st = parse_indices(r, &sg, SG_OUTPUTS, "outputs", m->n_tensors, 0, m->outputs, &n)) !=
      S24_OK) {
    return st;
  }
  m->n_outputs = n;
  for (size_t i = 0; i < tensors.n; i++) {
    if ((st = parse_tensor(r, &c, &tensors, i, &m->tensors[i])) != S24_OK) return st;
  }

  where(r, "subgraph 0");
  if (ops.n > 0) {
    m->ops = s24_arena_alloc(r->arena, ops.n * sizeof *m->ops, 0);
    if (m->ops == NULL) return nomem(r, "the operators");
  }
  m->n_ops = ops.n;
  for (size_t i = 0; i < ops.n; i++) {
    if ((st = parse_op(r, &c, &ops, i, m->n_tensors, &m->ops[i])) != S24_OK) return st;
  }
  return S24_OK;
}

// ---------------------------------------------------------------- public
s24_status_t s24_tfl_parse(const uint8_t *buf, size_t len, s24_arena_t *arena, s24_tfl_model_t *m,
                           char *err, size_t errlen) {
  if (err != NULL && errlen > 0) err[0] = '\0';
  if (m == NULL || arena == NULL || (buf == NULL && len > 0)) {
    if (err != NULL && errlen > 0) snprintf(err, errlen, "s24_tfl_parse: NULL argument");
    return S24_ERR_ARG;
  }
  memset(m, 0, sizeof *m);
  static const uint8_t empty[1];
  const size_t mark = s24_arena_mark(arena);
  rd_t r = {.b = buf ? buf : empty, .n = buf ? len : 0, .err = err, .errlen = errlen,
            .arena = arena};
  s24_status_t st = parse_model(&r, m);
  if (st != S24_OK) {
    s24_arena_rewind(arena, mark);
    memset(m, 0, sizeof *m);
    return st;
  }
  m->file = buf;
  m->file_len = len;
  return S24_OK;
}
