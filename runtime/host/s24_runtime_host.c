// SPDX-License-Identifier: Apache-2.0
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

// One try of a load into mem[0 .. size): its status, and in *need the bytes it needed (on
// S24_ERR_NOMEM at least that much; on success what it used).
typedef s24_status_t (*try_fn)(void *ctx, void *mem, size_t size, size_t *need);

// Tries fn in heap arenas that grow (each failure says how much it needed at least) until it
// fits; with exact, once more in an arena of exactly what it used. *mem gets the arena of the
// success (the caller frees it), or NULL.
static s24_status_t fit(try_fn fn, void *ctx, int exact, void **mem, char *err, size_t errlen) {
  size_t size = FIRST_TRY, need = 0;
  *mem = NULL;
  for (;;) {
    void *m = alloc16(size);
    if (m == NULL) {
      return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory for an arena of %zu bytes",
                        size);
    }
    const s24_status_t st = fn(ctx, m, size, &need);
    if (st == S24_OK && (!exact || need == size)) {
      *mem = m;
      return S24_OK;
    }
    free(m);
    if (st == S24_OK) {  // again into exactly what it used
      size = need;
      continue;
    }
    if (st != S24_ERR_NOMEM || need <= size) return st;
    size = grow(size, need);
  }
}

typedef struct {
  const uint8_t *buf;
  size_t len;
  const s24_engine_t *engine;
  s24_net_t *net;
  s24_tfl_model_t *m;
  s24_pattern_t p;
  uint8_t *out;
  size_t *pruned;
  char *err;
  size_t errlen;
} job_t;

static s24_status_t try_load(void *ctx, void *mem, size_t size, size_t *need) {
  job_t *j = ctx;
  return s24_net_load(j->buf, j->len, j->engine, mem, size, &j->net, need, j->err, j->errlen);
}

static s24_status_t try_parse(void *ctx, void *mem, size_t size, size_t *need) {
  job_t *j = ctx;
  s24_arena_t a;
  s24_arena_init(&a, mem, size);
  const s24_status_t st = s24_tfl_parse(j->buf, j->len, &a, j->m, j->err, j->errlen);
  *need = st == S24_OK ? a.peak : a.need;
  return st;
}

static s24_status_t try_prune(void *ctx, void *mem, size_t size, size_t *need) {
  job_t *j = ctx;
  s24_arena_t a;
  s24_arena_init(&a, mem, size);
  const s24_status_t st = s24_net_prune(j->buf, j->len, j->p, &a, j->out, j->pruned, j->err,
                                        j->errlen);
  *need = st == S24_OK ? a.peak : a.need;
  return st;
}

s24_status_t s24_net_load_heap(const uint8_t *buf, size_t len, const s24_engine_t *engine,
                               s24_net_heap_t *out, char *err, size_t errlen) {
  if (out == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  memset(out, 0, sizeof(*out));
  job_t j = {.buf = buf, .len = len, .engine = engine, .err = err, .errlen = errlen};
  const s24_status_t st = fit(try_load, &j, 1, &out->arena, err, errlen);
  if (st == S24_OK) out->net = j.net;
  return st;
}

void s24_net_heap_free(s24_net_heap_t *h) {
  if (h == NULL) return;
  free(h->arena);
  memset(h, 0, sizeof(*h));
}

s24_status_t s24_tfl_parse_heap(const uint8_t *buf, size_t len, s24_tfl_model_t *m, void **mem,
                                char *err, size_t errlen) {
  if (mem == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  job_t j = {.buf = buf, .len = len, .m = m, .err = err, .errlen = errlen};
  return fit(try_parse, &j, 0, mem, err, errlen);
}

s24_status_t s24_net_prune_heap(const uint8_t *buf, size_t len, s24_pattern_t p, uint8_t *out,
                                size_t *pruned, char *err, size_t errlen) {
  job_t j = {.buf = buf, .len = len, .p = p, .out = out, .pruned = pruned, .err = err,
             .errlen = errlen};
  void *mem = NULL;
  const s24_status_t st = fit(try_prune, &j, 0, &mem, err, errlen);
  free(mem);
  return st;
}
