// sparse24 network runtime, hosted part (s24_runtime_host.h): heap arenas of the right size.
#include "s24_runtime_host.h"

#include <stdlib.h>
#include <string.h>

#define FIRST_TRY (64u * 1024u)  // the first arena tried; a model needing more says how much

// The next size to try after a try of `size` bytes failed needing at least `need`.
static size_t grow(size_t size, size_t need) {
  size_t next = size <= SIZE_MAX / 2 ? 2 * size : SIZE_MAX;
  if (need > next) next = need;
  return next;
}

static void *alloc16(size_t bytes) {
  const size_t b = bytes == 0 ? 16 : (bytes + 15) / 16 * 16;
  return b < bytes ? NULL : aligned_alloc(16, b);
}

s24_status_t s24_net_load_heap(const uint8_t *buf, size_t len, const s24_engine_t *engine,
                               s24_net_heap_t *out, char *err, size_t errlen) {
  if (out == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  memset(out, 0, sizeof(*out));
  size_t size = FIRST_TRY, need = 0;
  for (;;) {
    void *mem = alloc16(size);
    if (mem == NULL) {
      return s24_errorf(S24_ERR_NOMEM, err, errlen,
                        "out of memory for an arena of %zu bytes", size);
    }
    s24_net_t *net = NULL;
    const s24_status_t st = s24_net_load(buf, len, engine, mem, size, &net, &need, err, errlen);
    if (st == S24_OK && need == size) {
      out->net = net;
      out->arena = mem;
      return S24_OK;
    }
    free(mem);
    if (st == S24_OK) {  // again into exactly what it used
      size = need;
      continue;
    }
    if (st != S24_ERR_NOMEM || need <= size) return st;
    size = grow(size, need);
  }
}

void s24_net_heap_free(s24_net_heap_t *h) {
  if (h == NULL) return;
  free(h->arena);
  memset(h, 0, sizeof(*h));
}

s24_status_t s24_tfl_parse_heap(const uint8_t *buf, size_t len, s24_tfl_model_t *m, void **mem,
                                char *err, size_t errlen) {
  if (mem == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  *mem = NULL;
  size_t size = FIRST_TRY;
  for (;;) {
    void *p = alloc16(size);
    if (p == NULL) return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory for the tables");
    s24_arena_t a;
    s24_arena_init(&a, p, size);
    const s24_status_t st = s24_tfl_parse(buf, len, &a, m, err, errlen);
    if (st == S24_OK) {
      *mem = p;
      return S24_OK;
    }
    free(p);
    if (st != S24_ERR_NOMEM || a.need <= size) return st;
    size = grow(size, a.need);
  }
}

s24_status_t s24_net_prune_heap(const uint8_t *buf, size_t len, s24_pattern_t p, uint8_t *out,
                                size_t *pruned, char *err, size_t errlen) {
  size_t size = FIRST_TRY;
  for (;;) {
    void *mem = alloc16(size);
    if (mem == NULL) return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory for the tables");
    s24_arena_t a;
    s24_arena_init(&a, mem, size);
    const s24_status_t st = s24_net_prune(buf, len, p, &a, out, pruned, err, errlen);
    free(mem);
    if (st == S24_OK) return S24_OK;
    if (st != S24_ERR_NOMEM || a.need <= size) return st;
    size = grow(size, a.need);
  }
}
