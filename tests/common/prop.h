// SPDX-License-Identifier: Apache-2.0
// prop.h: the helpers of the randomised property tests (tests/model/prop_model.c, prop_layout.c):
// one random stream, reseeded for every case (g_state; rnd, rnd_below over the model's
// s24_rng_next), and why a case failed (g_why; CHECK records it and leaves the function through
// its `done:` cleanup); a case's buffers (prop_malloc, prop_calloc: freed together by
// prop_free_all at that cleanup); and the command line both take (prop_args).
#ifndef S24_TESTS_PROP_H_
#define S24_TESTS_PROP_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "s24_model.h"

static uint64_t g_state;
static inline uint64_t rnd(void) { return s24_rng_next(&g_state); }
static inline size_t rnd_below(size_t n) { return (size_t)(rnd() % n); }

static char g_why[256];
#define CHECK(cond, ...)                            \
  do {                                              \
    if (!(cond)) {                                  \
      snprintf(g_why, sizeof g_why, __VA_ARGS__);   \
      goto done;                                    \
    }                                               \
  } while (0)

// A case's buffers, each recorded so that prop_free_all frees them all (NULL when out of memory
// or out of slots).
static void *g_bufs[32];
static size_t g_nbufs;
static inline void *prop_keep(void *p) {
  if (p != NULL && g_nbufs == sizeof g_bufs / sizeof g_bufs[0]) {
    free(p);
    return NULL;
  }
  if (p != NULL) g_bufs[g_nbufs++] = p;
  return p;
}
static inline void *prop_malloc(size_t size) { return prop_keep(malloc(size)); }
static inline void *prop_calloc(size_t n, size_t size) { return prop_keep(calloc(n, size)); }
static inline void prop_free_all(void) {
  while (g_nbufs > 0) free(g_bufs[--g_nbufs]);
}

// CASES (argv[1]) and SEED (argv[2]) over the defaults in *cases and *seed; 0, after a message
// naming prog, when CASES is not a positive integer (the test then exits with status 2).
static inline int prop_args(const char *prog, int argc, char **argv, unsigned long long *cases,
                            unsigned long long *seed) {
  if (argc > 1) *cases = strtoull(argv[1], NULL, 0);
  if (argc > 2) *seed = strtoull(argv[2], NULL, 0);
  if (*cases == 0) {
    fprintf(stderr, "%s: error: CASES must be a positive integer\n", prog);
    return 0;
  }
  return 1;
}

#endif  // S24_TESTS_PROP_H_
