// SPDX-License-Identifier: Apache-2.0
// replay_main.c: runs a libFuzzer harness on the files named on the command line, without
// libFuzzer (gcc builds for coverage, coverage/coverage.mk; any compiler for debugging a crash).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (f == NULL) {
      perror(argv[i]);
      return 1;
    }
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0, got;
    do {
      if (n == cap) {
        cap = cap ? 2 * cap : 4096;
        uint8_t *nb = realloc(buf, cap);
        if (nb == NULL) return 1;
        buf = nb;
      }
      got = fread(buf + n, 1, cap - n, f);
      n += got;
    } while (got > 0);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
  }
  printf("replayed %d inputs\n", argc - 1);
  return 0;
}
