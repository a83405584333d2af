// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness of the .npy reader (tools/npy.c): s24_npy_read on arbitrary file contents.
//
// The reader opens the fuzz input as an in-memory regular file (fuzz/fuzz_file.h): the real code
// path (stat, fopen, fread, fstat size check, fgetc) runs with no disk I/O. Oracle beyond
// ASan/UBSan: on success the shape and dtype agree with the file size and the data read back
// equals the bytes after the header; on failure the status is a file error with a message.
// (A fmemopen stream instead of a regular file was tried: with no file size to check, the reader
// allocates whatever the header's shape claims before reading, e.g. 65 PB for shape
// (32559262904483838, 2), an ASan allocation-size-too-big; reported in docs/verification.md.)
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_file.h"
#include "npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  s24_fuzz_file_set(data, size);

  s24_npy_t a = {0};
  char msg[256] = "";
  s24_status_t st = s24_npy_read(S24_FUZZ_PATH, &a, msg, sizeof msg);
  if (st == S24_OK) {
    size_t es = s24_npy_elem_size(a.dtype);
    if (es == 0 || a.rows == 0 || a.cols == 0 || a.data == NULL) abort();
    size_t need = a.rows * a.cols * es;
    if (need > size) abort();
    // little-endian host: the data is the file's last `need` bytes, unchanged
    if (memcmp(a.data, data + size - need, need) != 0) abort();
    s24_npy_free(&a);
  } else {
    if (st != S24_ERR_FORMAT && st != S24_ERR_NOMEM && st != S24_ERR_IO) abort();
    // Not checked: that msg is one line. The header parser echoes a quoted key verbatim
    // ("header: unknown key '...'"), newlines and control characters included (found by
    // this harness; reported, tools/npy.c belongs to the fault-safety work).
    if (msg[0] == '\0') abort();
    if (a.data != NULL) abort();
  }
  return 0;
}
