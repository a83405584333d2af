// SPDX-License-Identifier: Apache-2.0
// fuzz_file: the in-memory file the .npy reader opens in the fuzz harnesses.
//
// tools/npy.c is compiled for the harnesses with -Dfopen=s24_fuzz_fopen (fuzz/fuzz.mk), so the
// reader opens an in-memory regular file (memfd) holding the fuzz input: the real code path
// (stat, fopen, fread, fstat size check, fgetc) runs with no disk I/O.
#ifndef S24_FUZZ_FILE_H_
#define S24_FUZZ_FILE_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

// the only path the reader may open (read-only)
#define S24_FUZZ_PATH "/s24-fuzz/input.npy"

/** Makes S24_FUZZ_PATH hold exactly these bytes (aborts on a system error). */
void s24_fuzz_file_set(const uint8_t *data, size_t size);
/** fopen of tools/npy.c in the harnesses: S24_FUZZ_PATH in mode "rb" only, else abort. */
FILE *s24_fuzz_fopen(const char *path, const char *mode);

#endif  // S24_FUZZ_FILE_H_
