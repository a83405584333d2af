// SPDX-License-Identifier: Apache-2.0
// sparse24 tests: the .tflite reader (runtime/s24_tflite.h) with its tables in a heap arena of
// the size they need (runtime/host s24_tfl_parse_heap), kept per model until tfl_free: the
// tests and the fuzzer parse and free models as the reader's callers on a host do.
#ifndef S24_TESTS_TFL_HEAP_H_
#define S24_TESTS_TFL_HEAP_H_

#include <stdlib.h>
#include <string.h>

#include "s24_runtime_host.h"
#include "s24_tflite.h"

#define TFL_HEAP_MODELS 16

static struct {
  const s24_tfl_model_t *m;
  void *mem;
} tfl_heap_[TFL_HEAP_MODELS];

static void tfl_free(s24_tfl_model_t *m) {
  if (m == NULL) return;
  for (int i = 0; i < TFL_HEAP_MODELS; i++) {
    if (tfl_heap_[i].m == m) {
      free(tfl_heap_[i].mem);
      tfl_heap_[i].m = NULL;
      tfl_heap_[i].mem = NULL;
    }
  }
  memset(m, 0, sizeof(*m));
}

static s24_status_t tfl_parse(const uint8_t *buf, size_t len, s24_tfl_model_t *m, char *err,
                              size_t errlen) {
  tfl_free(m);  // a model parsed again: its old tables go
  void *mem = NULL;
  const s24_status_t st = s24_tfl_parse_heap(buf, len, m, &mem, err, errlen);
  if (st != S24_OK) return st;
  for (int i = 0; i < TFL_HEAP_MODELS; i++) {
    if (tfl_heap_[i].m == NULL) {
      tfl_heap_[i].m = m;
      tfl_heap_[i].mem = mem;
      return S24_OK;
    }
  }
  free(mem);
  memset(m, 0, sizeof(*m));
  return S24_ERR_NOMEM;  // more models alive at once than this table holds
}

#endif  // S24_TESTS_TFL_HEAP_H_
