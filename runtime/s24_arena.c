// SPDX-License-Identifier: Apache-2.0
// sparse24 network runtime: the arena (s24_arena.h).
#include "s24_arena.h"

#include <string.h>

void s24_arena_init(s24_arena_t *a, void *mem, size_t size) {
  if (a == NULL) return;
  memset(a, 0, sizeof(*a));
  if (mem == NULL) return;
  const uintptr_t p = (uintptr_t)mem, q = (p + S24_ARENA_ALIGN - 1) & ~(uintptr_t)(S24_ARENA_ALIGN - 1);
  if (q - p >= size) return;
  a->base = (uint8_t *)mem + (q - p);
  a->size = (size - (size_t)(q - p)) & ~(size_t)(S24_ARENA_ALIGN - 1);
  a->top = a->size;
}

// Bytes rounded up to whole S24_ARENA_ALIGN units: an arena's size counts in them
// (s24_arena_init), so a load that needed n bytes fits an arena of round_up(n) bytes.
static size_t round_up(size_t n) {
  const size_t a = S24_ARENA_ALIGN;
  return n > SIZE_MAX - a ? SIZE_MAX : (n + a - 1) / a * a;
}

// Records what a failed request of `bytes` more than the bytes in use needed.
static void *short_of(s24_arena_t *a, size_t in_use, size_t bytes) {
  const size_t n = round_up(bytes > SIZE_MAX - in_use ? SIZE_MAX : in_use + bytes);
  if (n > a->need) a->need = n;
  return NULL;
}

static void note_peak(s24_arena_t *a) {
  const size_t in_use = round_up(a->used) + (a->size - a->top);
  if (in_use > a->peak) a->peak = in_use;
}

void *s24_arena_alloc(s24_arena_t *a, size_t bytes, size_t align) {
  if (a == NULL) return NULL;
  if (align < S24_ARENA_ALIGN) align = S24_ARENA_ALIGN;
  const size_t at = (a->used + align - 1) & ~(align - 1);
  const size_t held = a->size - a->top;  // the working memory at the top
  if (at < a->used || bytes > SIZE_MAX - at) return short_of(a, SIZE_MAX, 0);
  if (a->base == NULL || at + bytes > a->top) return short_of(a, at + held, bytes);
  uint8_t *p = a->base + at;
  memset(p, 0, bytes);
  a->used = at + bytes;
  note_peak(a);
  return p;
}

void *s24_arena_temp(s24_arena_t *a, size_t bytes) {
  if (a == NULL) return NULL;
  const size_t held = a->size - a->top;
  const size_t b = (bytes + S24_ARENA_ALIGN - 1) & ~(size_t)(S24_ARENA_ALIGN - 1);
  if (b < bytes) return short_of(a, SIZE_MAX, 0);
  if (a->base == NULL || b > a->top - a->used) return short_of(a, a->used + held, b);
  a->top -= b;
  memset(a->base + a->top, 0, b);
  note_peak(a);
  return a->base + a->top;
}

void s24_arena_temp_release(s24_arena_t *a) {
  if (a != NULL) a->top = a->size;
}

size_t s24_arena_mark(const s24_arena_t *a) { return a != NULL ? a->used : 0; }

void s24_arena_rewind(s24_arena_t *a, size_t mark) {
  if (a != NULL && mark <= a->used) a->used = mark;
}
