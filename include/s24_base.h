// SPDX-License-Identifier: Apache-2.0
// sparse24: the freestanding base every part of the project shares: the status enum, its
// descriptions (s24_strerror), the one way to format a message with a status (s24_errorf), the
// project's deterministic generator, the N:M pattern type and the warn-unused-result marker.
// Plain C11, no allocation, no I/O (OpenTitan's dif_base.h plays this part there); the public
// header sparse24.h includes it, and so does the golden model at the bottom of the tree, which
// implements it (cmodel/s24_model.c).
#ifndef S24_BASE_H_
#define S24_BASE_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Marks a result the caller must look at. */
#define S24_WARN_UNUSED __attribute__((warn_unused_result))

/** One status enum for the whole project: 0 is success, errors are negative. */
typedef enum {
  S24_OK = 0,
  S24_ERR_ARG = -1,         /**< bad argument (NULL, zero size, K not a multiple of m, ...) */
  S24_ERR_PATTERN = -2,     /**< a dense matrix violates the N:M pattern */
  S24_ERR_META = -3,        /**< invalid metadata (repeated/decreasing/out-of-range index) */
  S24_ERR_IO = -4,          /**< file or stream I/O failed */
  S24_ERR_FORMAT = -5,      /**< malformed file (npy header, dtype, order, shape, size) */
  S24_ERR_NOMEM = -6,       /**< allocation failed, an arena is too small, or a size overflows */
  S24_ERR_TIMEOUT = -7,     /**< hardware did not answer in time */
  S24_ERR_HW = -8,          /**< hardware reported an error */
  S24_ERR_UNSUPPORTED = -9, /**< valid request this build or backend cannot do */
} s24_status_t;

/** The most negative status (every status is in [S24_STATUS_MIN, 0]). */
#define S24_STATUS_MIN S24_ERR_UNSUPPORTED

/** A static, human-readable description of a status ("bad argument"). Never NULL. */
const char *s24_strerror(s24_status_t status);
/** The enumerator's name of a status ("S24_ERR_ARG"); NULL outside the enum. */
const char *s24_status_name(s24_status_t status);

/** Formats one message line into err (when err != NULL and errlen > 0) and returns st: the one
 *  way every reader and front end reports "what and where" with a status. */
s24_status_t s24_errorf(s24_status_t st, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** splitmix64, the project's one deterministic generator (tests, demo, bench): returns the
 *  next 64-bit value and advances *state. Same sequence on every platform. */
uint64_t s24_rng_next(uint64_t *state);

/** An N:M pattern: at most n nonzeros in every aligned group of m along K (SPEC §1). */
typedef struct {
  uint32_t n;
  uint32_t m;
} s24_pattern_t;

#ifdef __cplusplus
}
#endif

#endif  // S24_BASE_H_
