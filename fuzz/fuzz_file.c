// SPDX-License-Identifier: Apache-2.0
// fuzz_file: the in-memory file of the fuzz harnesses (fuzz_file.h). _GNU_SOURCE (memfd_create)
// comes from fuzz/fuzz.mk.
#include "fuzz_file.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int g_fd = -1;

void s24_fuzz_file_set(const uint8_t *data, size_t size) {
  if (g_fd < 0 && (g_fd = memfd_create("s24-fuzz", 0)) < 0) abort();
  if (ftruncate(g_fd, 0) != 0) abort();
  if (size > 0 && pwrite(g_fd, data, size, 0) != (ssize_t)size) abort();
}

FILE *s24_fuzz_fopen(const char *path, const char *mode) {
  if (strcmp(path, S24_FUZZ_PATH) != 0 || strcmp(mode, "rb") != 0) abort();  // reader only
  if (g_fd < 0 || lseek(g_fd, 0, SEEK_SET) != 0) abort();
  int fd = dup(g_fd);
  if (fd < 0) abort();
  return fdopen(fd, mode);
}
