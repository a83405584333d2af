// SPDX-License-Identifier: Apache-2.0
// sparse24 network runtime, hosted part: loading into an arena on the heap sized to what the
// model needs, for programs on an operating system (the library, the tests, the fuzzers).
// Firmware gives the freestanding s24_net_load a fixed arena instead.
#ifndef S24_RUNTIME_HOST_H_
#define S24_RUNTIME_HOST_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_net.h"
#include "s24_tflite.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A network in an arena of its own on the heap. */
typedef struct {
  s24_net_t *net;
  void *arena;   /**< exactly s24_net_arena_bytes(net) bytes */
} s24_net_heap_t;

/** s24_net_load into an arena of exactly the bytes the model needs: tried with a growing arena
 *  (each failure says how much it needed at least), then loaded once more into one of the exact
 *  size, so the memory held is what the model needs and nothing more. Errors as s24_net_load
 *  (S24_ERR_NOMEM: the heap could not give it). */
S24_WARN_UNUSED s24_status_t s24_net_load_heap(const uint8_t *buf, size_t len,
                                               const s24_engine_t *engine, s24_net_heap_t *out,
                                               char *err, size_t errlen);
/** Frees the network and its arena; safe on a zeroed or freed struct. */
void s24_net_heap_free(s24_net_heap_t *h);

/** s24_tfl_parse into a heap arena of the size the tables need (*mem gets it: free() it after
 *  the model). */
S24_WARN_UNUSED s24_status_t s24_tfl_parse_heap(const uint8_t *buf, size_t len,
                                                s24_tfl_model_t *m, void **mem, char *err,
                                                size_t errlen);
/** s24_net_prune with a heap arena. */
S24_WARN_UNUSED s24_status_t s24_net_prune_heap(const uint8_t *buf, size_t len, s24_pattern_t p,
                                                uint8_t *out, size_t *pruned, char *err,
                                                size_t errlen);

#ifdef __cplusplus
}
#endif

#endif  // S24_RUNTIME_HOST_H_
