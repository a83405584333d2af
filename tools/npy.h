// SPDX-License-Identifier: Apache-2.0
// sparse24 .npy reader and writer: C-order int8 / uint8 / int32 / float32 arrays (SPEC §4);
// rank 2 for matrices, rank 1 for vectors, any rank up to S24_NPY_MAX_RANK for the inputs and
// outputs of a network (SPEC §8).
//
// Errors come back as a status plus a one-line message in the caller's buffer (no file name;
// the caller prefixes it). Outputs are written atomically: a temporary file in the same
// directory is renamed over the target only when everything has been written.
#ifndef S24_NPY_H_
#define S24_NPY_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "s24_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  S24_NPY_I8 = 0,   /**< '|i1' (also read as 'i1', '<i1', '>i1', '=i1') */
  S24_NPY_U8 = 1,   /**< '|u1' (also read as 'u1', '<u1', '>u1', '=u1') */
  S24_NPY_I32 = 2,  /**< '<i4' */
  S24_NPY_F32 = 3,  /**< '<f4' (network inputs and outputs only, SPEC §8) */
} s24_npy_dtype_t;

#define S24_NPY_MAX_RANK 8

/** An array; data holds rows * cols elements, row-major, owned by the struct. A matrix has
 *  rank 2 (rows x cols); a vector read by s24_npy_read_vector is 1 x n; an array read by
 *  s24_npy_read_nd has `rank` dims, rows = dims[0] and cols = the product of the others. */
typedef struct {
  s24_npy_dtype_t dtype;
  size_t rows;
  size_t cols;
  void *data;
  size_t rank;
  size_t dims[S24_NPY_MAX_RANK];
} s24_npy_t;

/** Byte size of one element. */
size_t s24_npy_elem_size(s24_npy_dtype_t dtype);
/** "int8 (|i1)", "uint8 (|u1)", "int32 (<i4)". */
const char *s24_npy_dtype_name(s24_npy_dtype_t dtype);

/** Parses the header dict text (what follows the length field). On success fills dtype,
 *  rows, cols (data untouched). */
S24_WARN_UNUSED s24_status_t s24_npy_parse_header(const char *text, size_t len, s24_npy_t *out,
                                                  char *err, size_t errlen);

/** Reads a whole file. On success *out owns its data (release with s24_npy_free). */
S24_WARN_UNUSED s24_status_t s24_npy_read(const char *path, s24_npy_t *out, char *err,
                                          size_t errlen);
/** Reads a whole rank-1 file (shape (n,)) as a 1 x n array (a rank-2 file is an error). */
S24_WARN_UNUSED s24_status_t s24_npy_read_vector(const char *path, s24_npy_t *out, char *err,
                                                 size_t errlen);
/** Reads a whole file of any rank 1 .. S24_NPY_MAX_RANK (no dimension 0). */
S24_WARN_UNUSED s24_status_t s24_npy_read_nd(const char *path, s24_npy_t *out, char *err,
                                             size_t errlen);
/** Reads a per-channel parameter file of `sparse24 linear` (SPEC §7): a rank-1 int32 file of
 *  exactly m entries, each in [lo, hi]. `what` names the parameter in the message ("MULT").
 *  On success *out (1 x m) owns its data; on failure nothing is kept and err says what and
 *  where (entry index for a value out of range). */
S24_WARN_UNUSED s24_status_t s24_npy_read_channel(const char *path, const char *what, size_t m,
                                                  long lo, long hi, s24_npy_t *out, char *err,
                                                  size_t errlen);
/** Frees the data of an array read by s24_npy_read; safe on a zeroed struct. */
void s24_npy_free(s24_npy_t *a);

/** Writes the whole .npy file (header and data) to a stream. S24_ERR_IO with errno set if a
 *  write failed (the command's outputs go through tools/outfile.h, which owns the stream). */
S24_WARN_UNUSED s24_status_t s24_npy_fwrite(FILE *f, s24_npy_dtype_t dtype, size_t rows,
                                            size_t cols, const void *data);

/** Writes an array of rank 1 .. S24_NPY_MAX_RANK with the given dims (none 0). */
S24_WARN_UNUSED s24_status_t s24_npy_fwrite_nd(FILE *f, s24_npy_dtype_t dtype, size_t rank,
                                               const size_t *dims, const void *data);

/** An output staged in a temporary file, not yet visible under its final name. */
typedef struct {
  char *tmp_path;
  char *path;
} s24_npy_out_t;

/** Writes the array to a temporary file next to `path`. */
S24_WARN_UNUSED s24_status_t s24_npy_stage(s24_npy_out_t *o, const char *path,
                                           s24_npy_dtype_t dtype, size_t rows, size_t cols,
                                           const void *data, char *err, size_t errlen);
/** Renames a staged file to its final name. */
S24_WARN_UNUSED s24_status_t s24_npy_commit(s24_npy_out_t *o, char *err, size_t errlen);
/** Removes a staged file that will not be committed; safe on a zeroed or committed struct. */
void s24_npy_discard(s24_npy_out_t *o);
/** stage + commit of one array. */
S24_WARN_UNUSED s24_status_t s24_npy_write(const char *path, s24_npy_dtype_t dtype, size_t rows,
                                           size_t cols, const void *data, char *err,
                                           size_t errlen);

#ifdef __cplusplus
}
#endif

#endif  // S24_NPY_H_
