// SPDX-License-Identifier: Apache-2.0
// sparse24: the network runtime allocates nothing after load. The four MLPerf Tiny models
// (argv[1..]) are loaded into heap arenas of their size (runtime/host), then run on the golden
// model's engine and on a device's (the driver over the software device, sim/s24_swdev.c) while
// every malloc, calloc, realloc, aligned_alloc and free of the program is counted (the linker
// wraps them: -Wl,--wrap=...). On the model's engine nothing may be allocated from the end of the
// load on; on the device's nothing after its first inference (the software device, a simulator,
// grows its stream queues once; the driver and the runtime allocate nothing: their bare-metal
// objects reference no allocator, make test-baremetal). The model's engine once more with its
// conv_channels at 4 (the SoC's fetch unit's: convolutions of 1 or 3 input channels run padded
// to 4, zero filter columns): the same output bytes, in a larger arena where a model has one.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "s24_engine.h"
#include "s24_net.h"
#include "s24_runtime_host.h"
#include "s24_swdev.h"

static unsigned long g_allocs;
void *__real_malloc(size_t n);
void *__real_calloc(size_t a, size_t b);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t a, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t a, size_t b);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_aligned_alloc(size_t a, size_t n);
void __wrap_free(void *p);
void *__wrap_malloc(size_t n) { g_allocs++; return __real_malloc(n); }
void *__wrap_calloc(size_t a, size_t b) { g_allocs++; return __real_calloc(a, b); }
void *__wrap_realloc(void *p, size_t n) { g_allocs++; return __real_realloc(p, n); }
void *__wrap_aligned_alloc(size_t a, size_t n) { g_allocs++; return __real_aligned_alloc(a, n); }
void __wrap_free(void *p) {
  if (p != NULL) g_allocs++;
  __real_free(p);
}

#define RUNS 3

// Loads the model on e, runs RUNS inferences of a fixed input; the allocations of the runs after
// the first `warm` ones (the last output into y_out, its bytes into *y_len). -1 on a failure.
static long count(const uint8_t *buf, size_t len, const s24_engine_t *e, int warm,
                  size_t *arena, uint8_t *y_out, size_t *y_len) {
  char err[512];
  s24_net_heap_t h;
  if (s24_net_load_heap(buf, len, e, &h, err, sizeof err) != S24_OK) {
    fprintf(stderr, "load: %s\n", err);
    return -1;
  }
  *arena = s24_net_arena_bytes(h.net);
  const size_t in = s24_net_input(h.net)->bytes, out = s24_net_output(h.net)->bytes;
  uint8_t *x = calloc(1, in), *y = calloc(1, out);
  long n = -1;
  if (x != NULL && y != NULL) {
    for (size_t i = 0; i < in; i++) x[i] = (uint8_t)(i * 37u);
    if (s24_net_input(h.net)->type == S24_TFL_FLOAT32) {
      for (size_t i = 0; i + 4 <= in; i += 4) {  // finite floats in [-4, 4)
        const float f = (float)((int)((i / 4) % 97) - 48) / 12.0f;
        memcpy(x + i, &f, 4);
      }
    }
    unsigned long before = g_allocs;
    n = 0;
    for (int r = 0; r < RUNS; r++) {
      if (r == warm) before = g_allocs;
      if (s24_net_run(h.net, x, y, err, sizeof err) != S24_OK) {
        fprintf(stderr, "run: %s\n", err);
        n = -1;
        break;
      }
    }
    if (n == 0) n = (long)(g_allocs - before);
    if (n >= 0 && out <= 4096) {
      memcpy(y_out, y, out);
      *y_len = out;
    }
  }
  free(x);
  free(y);
  s24_net_heap_free(&h);
  return n;
}

int main(int argc, char **argv) {
  int failed = 0;
  for (int a = 1; a < argc; a++) {
    FILE *f = fopen(argv[a], "rb");
    static uint8_t buf[1 << 21];
    const size_t len = f != NULL ? fread(buf, 1, sizeof buf, f) : 0;
    if (f != NULL) fclose(f);
    if (len == 0) {
      printf("FAIL %s: cannot read\n", argv[a]);
      failed++;
      continue;
    }
    s24_engine_t model;
    s24_engine_model(&model);
    size_t arena_m = 0, arena_d = 0, arena_p = 0, ym_len = 0, yp_len = 1, yd_len = 0;
    static uint8_t ym[4096], yp[4096], yd[4096];
    const long nm = count(buf, len, &model, 0, &arena_m, ym, &ym_len);
    s24_engine_t padded = model;
    padded.conv_channels = 4;
    const long np = count(buf, len, &padded, 0, &arena_p, yp, &yp_len);
    const int same = np == 0 && ym_len > 0 && yp_len == ym_len && memcmp(ym, yp, ym_len) == 0;
    // the device: the default 8x8 2:4 build on the software device
    s24_swdev_t sw;
    s24_seam_t seam;
    s24_dev_t dev;
    s24_engine_dev_t st;
    s24_engine_t device;
    long nd = -1;
    if (s24_swdev_init(&sw, 8, 8, 2, 4) == S24_OK) {
      s24_swdev_seam(&sw, &seam);
      if (s24_dev_open(&dev, &seam) == S24_OK && s24_engine_device(&device, &st, &dev, "swdev") == S24_OK) {
        nd = count(buf, len, &device, 1, &arena_d, yd, &yd_len);
      }
      s24_swdev_free(&sw);
    }
    const int ok = nm == 0 && nd == 0 && same;
    printf("%s %s: allocations after load, model engine: %ld in %d inferences (arena %zu bytes); "
           "device engine: %ld in inferences 2..%d (arena %zu bytes, weights packed); "
           "convolutions padded to 4 channels: output %s (arena %zu bytes)\n",
           ok ? "ok  " : "FAIL", argv[a], nm, RUNS, arena_m, nd, RUNS, arena_d,
           same ? "the same" : "DIFFERS", arena_p);
    failed += !ok;
  }
  printf("test_noalloc: %s\n", failed ? "FAILED" : "ok");
  return failed != 0;
}
