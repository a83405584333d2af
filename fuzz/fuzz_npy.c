// libFuzzer harness of the .npy reader (tools/npy.c): s24_npy_read on arbitrary file contents.
//
// tools/npy.c is compiled for this harness with -Dfopen=s24_fuzz_fopen (fuzz/fuzz.mk), so the
// reader opens an in-memory regular file (memfd) holding the fuzz input: the real code path
// (stat, fopen, fread, fstat size check, fgetc) runs with no disk I/O. Oracle beyond
// ASan/UBSan: on success the shape and dtype agree with the file size and the data read back
// equals the bytes after the header; on failure the status is a file error with a message.
// (A fmemopen stream instead of a regular file was tried: with no file size to check, the reader
// allocates whatever the header's shape claims before reading, e.g. 65 PB for shape
// (32559262904483838, 2), an ASan allocation-size-too-big; reported in docs/verification.md.)
// _GNU_SOURCE (memfd_create) comes from fuzz/fuzz.mk
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "npy.h"

#define FUZZ_PATH "/s24-fuzz/input.npy"

static int g_fd = -1;

FILE *s24_fuzz_fopen(const char *path, const char *mode);
FILE *s24_fuzz_fopen(const char *path, const char *mode) {
  if (strcmp(path, FUZZ_PATH) != 0 || strcmp(mode, "rb") != 0) abort();  // reader only
  if (lseek(g_fd, 0, SEEK_SET) != 0) abort();
  int fd = dup(g_fd);
  if (fd < 0) abort();
  return fdopen(fd, mode);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (g_fd < 0 && (g_fd = memfd_create("s24-fuzz", 0)) < 0) abort();
  if (ftruncate(g_fd, 0) != 0) abort();
  if (size > 0 && pwrite(g_fd, data, size, 0) != (ssize_t)size) abort();

  s24_npy_t a = {0};
  char msg[256] = "";
  s24_status_t st = s24_npy_read(FUZZ_PATH, &a, msg, sizeof msg);
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
