// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness of the host kernels (runtime/s24_ops.c) on what the .tflite reader accepts
// (SPEC §8: a model's operators are checked before anything runs, and no malformed file makes
// the runtime crash or read out of bounds). Arbitrary bytes are parsed with s24_tfl_parse (into a heap arena); every
// host operator of a parsed model is checked with s24_op_check (oracle: S24_OK, or a refusal
// with one nonempty line naming the operator), and each one it accepts whose tensors together
// take at most 1 MiB is prepared with s24_op_prepare and run with s24_op_run in allocations of exactly its tensors' sizes
// (constants: their bytes in the file), the inputs filled from the fuzz data, so any access
// outside a tensor is an ASan report. s24_op_run may refuse data (SOFTMAX, RESHAPE), not crash.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "s24_arena.h"
#include "s24_ops.h"
#include "s24_tflite.h"
#include "../tests/common/tfl_heap.h"

#define RUN_BYTES_MAX (1u << 20)

static void check(int ok) {
  if (!ok) abort();
}

// operator i of m: its tensors' buffers (outputs fresh, inputs filled from data), then a run
static void run_op(const s24_tfl_model_t *m, size_t i, const uint8_t *data, size_t size) {
  const s24_tfl_op_t *op = &m->ops[i];
  void **buf = calloc(m->n_tensors ? m->n_tensors : 1, sizeof *buf);
  uint8_t *own[2 * S24_TFL_MAX_OP_IO];
  size_t n_own = 0, total = 0;
  check(buf != NULL);
  for (uint32_t j = 0; j < op->n_in + op->n_out; ++j) {
    const int32_t t = j < op->n_in ? op->in[j] : op->out[j - op->n_in];
    if (t >= 0) total += m->tensors[t].bytes;
  }
  if (total <= RUN_BYTES_MAX) {
    for (uint32_t j = 0; j < op->n_in + op->n_out; ++j) {
      const int32_t t = j < op->n_in ? op->in[j] : op->out[j - op->n_in];
      if (t < 0 || buf[t] != NULL) continue;
      const s24_tfl_tensor_t *tt = &m->tensors[t];
      if (tt->data != NULL && j < op->n_in) {
        buf[t] = (void *)(uintptr_t)tt->data;
        continue;
      }
      uint8_t *b = malloc(tt->bytes ? tt->bytes : 1);
      check(b != NULL);
      for (size_t q = 0; q < tt->bytes; ++q) b[q] = size ? data[(q * 7 + j) % size] : 0;
      own[n_own++] = b;
      buf[t] = b;
    }
    // the parameters prepared into an arena of the size they need, as the executor does at load
    size_t asize = 4096;
    s24_status_t st;
    for (;;) {
      void *mem = aligned_alloc(16, asize);
      check(mem != NULL);
      s24_arena_t a;
      s24_arena_init(&a, mem, asize);
      const void *params = NULL;
      st = s24_op_prepare(m, i, &a, &params, NULL, 0);
      if (st == S24_OK) st = s24_op_run(m, i, params, buf);
      free(mem);
      if (st != S24_ERR_NOMEM || a.need <= asize) break;
      asize = (a.need + 15) / 16 * 16;
    }
    check(st == S24_OK || st == S24_ERR_UNSUPPORTED || st == S24_ERR_FORMAT ||
          st == S24_ERR_NOMEM);
  }
  for (size_t q = 0; q < n_own; ++q) free(own[q]);
  free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  s24_tfl_model_t m;
  char err[256];
  memset(&m, 0, sizeof m);
  if (tfl_parse(data, size, &m, err, sizeof err) != S24_OK) return 0;
  for (size_t i = 0; i < m.n_ops; ++i) {
    if (m.ops[i].is_custom || !s24_op_is_host(m.ops[i].opcode)) continue;
    err[0] = '\0';
    const s24_status_t st = s24_op_check(&m, i, err, sizeof err);
    if (st != S24_OK) {
      char prefix[32];
      snprintf(prefix, sizeof prefix, "operator %zu (", i);
      check(st == S24_ERR_FORMAT || st == S24_ERR_UNSUPPORTED);
      check(strncmp(err, prefix, strlen(prefix)) == 0 && strchr(err, '\n') == NULL);
      continue;
    }
    run_op(&m, i, data, size);
  }
  tfl_free(&m);
  return 0;
}
