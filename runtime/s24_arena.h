// SPDX-License-Identifier: Apache-2.0
// sparse24 network runtime: the arena every load allocates from (TensorFlow Lite Micro's
// "tensor arena"): one block of memory the caller gives, handed out front to back, never freed
// piece by piece. A load that does not fit fails with S24_ERR_NOMEM and says how many bytes it
// needed at least; nothing else in the runtime allocates.
#ifndef S24_ARENA_H_
#define S24_ARENA_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Alignment of every arena allocation that does not ask for more (a DMA beat, a cache line's
 *  part, any scalar). */
#define S24_ARENA_ALIGN 16u

typedef struct {
  uint8_t *base;  /**< the caller's memory (its start aligned by s24_arena_init) */
  size_t size;    /**< bytes from base */
  size_t used;    /**< bytes handed out from the bottom so far, alignment included */
  size_t top;     /**< the bottom of the load-time working memory handed out from the top */
  size_t peak;    /**< the most bytes in use at once (bottom + top): what a load needs */
  size_t need;    /**< after a failed allocation: the bytes in use + that request, a lower
                       bound of what the whole load needs (0 while nothing failed) */
} s24_arena_t;

/** An arena over mem[0 .. size) (mem may be NULL with size 0: every allocation then fails and
 *  records what it needed). The start is aligned to S24_ARENA_ALIGN. */
void s24_arena_init(s24_arena_t *a, void *mem, size_t size);
/** bytes zeroed bytes aligned to align (a power of two, at least S24_ARENA_ALIGN is used), or
 *  NULL when they do not fit (a->need records the shortfall). bytes 0 gives a valid pointer. */
void *s24_arena_alloc(s24_arena_t *a, size_t bytes, size_t align);
/** Load-time working memory from the top end of the arena (zeroed, S24_ARENA_ALIGN), given back
 *  all at once by s24_arena_temp_release; NULL when it does not fit (a->need as above). */
void *s24_arena_temp(s24_arena_t *a, size_t bytes);
void s24_arena_temp_release(s24_arena_t *a);
/** The arena's fill level, to give back everything allocated after it (s24_arena_rewind). */
size_t s24_arena_mark(const s24_arena_t *a);
void s24_arena_rewind(s24_arena_t *a, size_t mark);

#ifdef __cplusplus
}
#endif

#endif  // S24_ARENA_H_
