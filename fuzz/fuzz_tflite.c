// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness of the .tflite reader (runtime/s24_tflite.c), what `sparse24 info/run/prune`
// parse first (SPEC §8): arbitrary bytes, which libFuzzer hands over in an allocation of exactly
// their size. Oracles beyond ASan/UBSan:
//  - a failure is S24_ERR_FORMAT (or S24_ERR_NOMEM) with one nonempty line in err and the model
//    left zeroed;
//  - a success keeps every promise of s24_tflite.h (indices in range, ranks, dims, element and
//    byte counts, constant data inside the file and of the tensor's size, quantization counts),
//    and every pointer it hands out is read in full (names, constant data, scales, zero points),
//    so a pointer or length that escapes the buffer is an ASan report.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "s24_engine.h"
#include "s24_net.h"
#include "s24_tflite.h"
#include "../tests/common/tfl_heap.h"

static volatile uint32_t g_sink;

static void check(int ok) {
  if (!ok) abort();
}

static int in_file(const uint8_t *p, size_t n, const uint8_t *buf, size_t len) {
  return p >= buf && (size_t)(p - buf) <= len && n <= len - (size_t)(p - buf);
}

static void walk(const s24_tfl_model_t *m, const uint8_t *buf, size_t len) {
  uint32_t sum = 0;
  check(m->file == buf && m->file_len == len);
  check(m->n_inputs <= S24_TFL_MAX_OP_IO && m->n_outputs <= S24_TFL_MAX_OP_IO);
  for (size_t i = 0; i < m->n_inputs; i++) {
    check(m->inputs[i] >= 0 && (size_t)m->inputs[i] < m->n_tensors);
  }
  for (size_t i = 0; i < m->n_outputs; i++) {
    check(m->outputs[i] >= 0 && (size_t)m->outputs[i] < m->n_tensors);
  }
  for (size_t i = 0; i < m->n_tensors; i++) {
    const s24_tfl_tensor_t *t = &m->tensors[i];
    check(t->name != NULL);
    if (t->name_len > 0) check(in_file((const uint8_t *)t->name, t->name_len, buf, len));
    for (size_t k = 0; k < t->name_len; k++) sum += (uint8_t)t->name[k];
    sum += (uint8_t)s24_tfl_type_name(t->type)[0];
    check(t->rank <= S24_TFL_MAX_DIMS);
    size_t e = 1;
    for (uint32_t d = 0; d < t->rank; d++) {
      check(t->dims[d] >= 0);
      check(t->dims[d] == 0 || e <= SIZE_MAX / (size_t)t->dims[d]);
      e *= (size_t)t->dims[d];
    }
    check(t->elems == e);
    check(t->bytes == e * s24_tfl_type_size(t->type));
    if (t->data != NULL) {
      check(t->data_len > 0 && t->data == buf + t->data_offset);
      check(in_file(t->data, t->data_len, buf, len));
      if (s24_tfl_type_size(t->type) != 0) check(t->data_len == t->bytes);
      for (size_t k = 0; k < t->data_len; k++) sum += t->data[k];
    } else {
      check(t->data_len == 0);
    }
    if (t->n_quant > 0) {
      check(t->scale != NULL && t->zero_point != NULL && t->quant_dim >= 0);
      if (t->rank > 0) {
        check((uint32_t)t->quant_dim < t->rank);
        check(t->n_quant == 1 || t->n_quant == (size_t)t->dims[t->quant_dim]);
      }
      for (size_t k = 0; k < t->n_quant; k++) {
        uint32_t u;
        memcpy(&u, &t->scale[k], sizeof u);
        sum += u + (uint32_t)t->zero_point[k];
      }
    } else {
      check(t->scale == NULL && t->zero_point == NULL);
    }
  }
  for (size_t i = 0; i < m->n_ops; i++) {
    const s24_tfl_op_t *o = &m->ops[i];
    check(o->n_in <= S24_TFL_MAX_OP_IO && o->n_out <= S24_TFL_MAX_OP_IO);
    for (uint32_t k = 0; k < o->n_in; k++) {
      check(o->in[k] == -1 || (o->in[k] >= 0 && (size_t)o->in[k] < m->n_tensors));
      if (o->in[k] >= 0) sum += m->tensors[o->in[k]].buffer;
    }
    for (uint32_t k = 0; k < o->n_out; k++) {
      check(o->out[k] >= 0 && (size_t)o->out[k] < m->n_tensors);
      sum += m->tensors[o->out[k]].buffer;
    }
    check(o->is_custom == (o->opcode == 32));
    check(o->opt.n_new_shape <= S24_TFL_MAX_NEW_SHAPE);
    for (uint32_t k = 0; k < o->opt.n_new_shape; k++) sum += (uint32_t)o->opt.new_shape[k];
    check(o->opt.n_squeeze_dims <= S24_TFL_MAX_SQUEEZE_DIMS);
    for (uint32_t k = 0; k < o->opt.n_squeeze_dims; k++) sum += (uint32_t)o->opt.squeeze_dims[k];
    // the scalar options of the tables read (SPLIT, CONCATENATION, RESIZE_NEAREST_NEIGHBOR,
    // LEAKY_RELU, ...): bools are 0 or 1
    check(o->opt.align_corners == 0 || o->opt.align_corners == 1);
    check(o->opt.half_pixel_centers == 0 || o->opt.half_pixel_centers == 1);
    uint32_t alpha_bits;
    memcpy(&alpha_bits, &o->opt.alpha, sizeof alpha_bits);
    sum += (uint32_t)o->opt.num_splits + (uint32_t)o->opt.axis + alpha_bits;
    sum += (uint8_t)s24_tfl_op_name(o->opcode)[0];
  }
  g_sink = sum;
}

// The network loader over the model (every operator's checks and preparation, the memory
// planner) on the golden model's engine, in an arena of at most 4 MiB: a load either succeeds
// with a plan inside it or fails with one line; a failure for room names what it needs.
static void load(const uint8_t *data, size_t size) {
  enum { ARENA = 4u << 20 };
  static _Alignas(16) uint8_t arena[ARENA];
  s24_engine_t eng;
  s24_engine_model(&eng);
  s24_net_t *net = NULL;
  size_t need = 0;
  char err[512];
  err[0] = '\0';
  const s24_status_t st = s24_net_load(data, size, &eng, arena, ARENA, &net, &need, err, sizeof err);
  if (st != S24_OK) {
    check(net == NULL && err[0] != '\0' && strchr(err, '\n') == NULL);
    for (const char *c = err; *c != '\0'; c++) check((unsigned char)*c >= 0x20 && *c != 0x7f);
    check(st != S24_ERR_NOMEM || need > ARENA);
    return;
  }
  check(need == s24_net_arena_bytes(net) && need <= ARENA);
  check(s24_net_activation_bytes(net) <= need);
  const s24_tfl_model_t *mm = s24_net_model(net);
  for (size_t i = 0; i < mm->n_ops; i++) {
    s24_net_op_info_t o;
    check(s24_net_op_info(net, i, &o) == S24_OK && o.op == i);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  s24_tfl_model_t m;
  char err[256];
  memset(&m, 0x5a, sizeof m);
  s24_status_t st = tfl_parse(data, size, &m, err, sizeof err);
  if (st != S24_OK) {
    check(st == S24_ERR_FORMAT || st == S24_ERR_NOMEM);
    check(err[0] != '\0' && strchr(err, '\n') == NULL);
    static const s24_tfl_model_t zero;
    check(memcmp(&m, &zero, sizeof m) == 0);
    return 0;
  }
  check(s24_tfl_is_tflite(data, size));
  walk(&m, data, size);
  tfl_free(&m);
  load(data, size);
  return 0;
}
