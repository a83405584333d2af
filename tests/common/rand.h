// SPDX-License-Identifier: Apache-2.0
// rand.h: the random helpers of the C tests that draw from one seeded stream a case (the model's
// s24_rng_next): rnd, below(n) and a uniform int8. Included by tests/cosim/e2e.c,
// tests/linear/test_linear.c and tests/perf/test_perf.c.
#ifndef S24_TESTS_RAND_H_
#define S24_TESTS_RAND_H_

#include <stdint.h>

#include "s24_model.h"

typedef struct {
  uint64_t s;
} rng_t;

static inline uint64_t rnd(rng_t *r) { return s24_rng_next(&r->s); }
static inline uint32_t below(rng_t *r, uint32_t n) { return (uint32_t)(rnd(r) % n); }
static inline int8_t rnd_i8(rng_t *r) { return (int8_t)(below(r, 256) - 128); }

#endif  // S24_TESTS_RAND_H_
