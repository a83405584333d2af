// prop.h: the helpers of the randomised property tests (tests/model/prop_model.c, prop_layout.c):
// one random stream, reseeded for every case (g_state; rnd, rnd_below over the model's
// s24_rng_next), and why a case failed (g_why; CHECK records it and leaves the function through
// its `done:` cleanup).
#ifndef S24_TESTS_PROP_H_
#define S24_TESTS_PROP_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

#endif  // S24_TESTS_PROP_H_
