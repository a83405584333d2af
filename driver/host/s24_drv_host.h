// SPDX-License-Identifier: Apache-2.0
// sparse24 host driver, hosted part: the conveniences around the freestanding driver
// (driver/s24_drv.h) that allocate with malloc, for programs on an operating system (the
// library, the simulators' seams, the tests). Firmware uses the freestanding calls instead:
// s24_weights_bytes + s24_weights_pack into its own memory, and a seam whose scratch is fixed.
#ifndef S24_DRV_HOST_H_
#define S24_DRV_HOST_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_drv.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A seam's scratch on the heap: grows to the largest request, freed with s24_scratch_free. */
typedef struct {
  void *buf;
  size_t len;
} s24_scratch_t;

/** At least `bytes` bytes, 16-byte aligned (realloc'd when larger than before; contents are not
 *  kept); NULL if the allocation fails. */
void *s24_scratch_get(s24_scratch_t *s, size_t bytes);
/** Frees the buffer; safe twice. */
void s24_scratch_free(s24_scratch_t *s);

/** s24_weights_bytes + malloc + s24_weights_pack: the weights own their memory (and a copy of A
 *  when packed for the pair mode), released by s24_weights_free. */
S24_WARN_UNUSED s24_status_t s24_weights_load_dense(const s24_dev_t *dev, const int8_t *a,
                                                    size_t m_rows, size_t k,
                                                    s24_weights_t *w);
/** Validates the metadata (s24_meta_validate: nothing invalid is ever sent; *where names the
 *  row and group), decompresses the compressed A (pattern p, SPEC §2) and loads it as
 *  s24_weights_load_dense. Any valid pattern runs on any core: groups denser than the core take
 *  more beats. */
S24_WARN_UNUSED s24_status_t s24_weights_load(const s24_dev_t *dev, s24_pattern_t p,
                                              const int8_t *values, const uint8_t *meta,
                                              size_t m_rows, size_t k, s24_weights_t *w,
                                              s24_where_t *where);
/** Frees what a hosted load allocated; safe on a zeroed, freed or caller-packed struct (which it
 *  only clears). */
void s24_weights_free(s24_weights_t *w);

/** s24_weights_load + s24_gemm + s24_weights_free. */
S24_WARN_UNUSED s24_status_t s24_gemm_compressed(s24_dev_t *dev, s24_pattern_t p,
                                                 const int8_t *values, const uint8_t *meta,
                                                 size_t m_rows, size_t k, const int8_t *b,
                                                 size_t n_cols, const int32_t *c0, int32_t *c,
                                                 s24_where_t *where);
/** s24_weights_load_dense + s24_gemm + s24_weights_free. */
S24_WARN_UNUSED s24_status_t s24_gemm_dense(s24_dev_t *dev, const int8_t *a, size_t m_rows,
                                            size_t k, const int8_t *b, size_t n_cols,
                                            const int32_t *c0, int32_t *c);

#ifdef __cplusplus
}
#endif

#endif  // S24_DRV_HOST_H_
