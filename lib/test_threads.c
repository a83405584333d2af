// SPDX-License-Identifier: Apache-2.0
// Handles of the library shared between threads (issue 50: two threads running one network
// aborted): 8 threads x 200 calls on one network handle and one device handle of the model
// backend, every result compared with the one of a single thread; then s24_api_net_free while
// other threads may still be inside s24_api_net_run of the same network is the caller's error
// (documented), so the test closes only after joining. Built with ThreadSanitizer and with
// AddressSanitizer (lib/lib.mk, make test-threads); argv[1] is a .tflite (ad.tflite).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sparse24.h"

#define THREADS 8
#define CALLS 200

static s24_api_dev_t *g_dev;
static s24_api_net_t *g_net;
static float *g_x, *g_y_ref;
static size_t g_in, g_out;
static int8_t g_a[16 * 32], g_b[32 * 8];
static int32_t g_c_ref[16 * 8];
static int g_bad;
static pthread_mutex_t g_bad_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, int t, int i, const char *err) {
  pthread_mutex_lock(&g_bad_lock);
  if (g_bad++ < 5) fprintf(stderr, "test_threads: thread %d call %d: %s %s\n", t, i, what, err);
  pthread_mutex_unlock(&g_bad_lock);
}

static void *work(void *arg) {
  const int t = (int)(size_t)arg;
  char err[S24_API_ERRLEN];
  float *y = malloc(g_out);
  int32_t c[16 * 8];
  const s24_pattern_t p = {2, 4};
  for (int i = 0; i < CALLS && y != NULL; i++) {
    err[0] = '\0';
    if (s24_api_net_run(g_net, g_x, g_in, 1, y, g_out, err, sizeof err) != S24_OK ||
        memcmp(y, g_y_ref, g_out) != 0) {
      fail("net run", t, i, err);
    }
    if (s24_api_gemm(g_dev, &p, g_a, 16, 32, g_b, 8, NULL, c, err, sizeof err) != S24_OK ||
        memcmp(c, g_c_ref, sizeof c) != 0) {
      fail("gemm", t, i, err);
    }
    s24_api_stats_t s;
    if (s24_api_stats(g_dev, &s) != S24_OK) fail("stats", t, i, "");
  }
  free(y);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  FILE *f = fopen(argv[1], "rb");
  static uint8_t file[1 << 20];
  const size_t len = f != NULL ? fread(file, 1, sizeof file, f) : 0;
  if (f != NULL) fclose(f);
  char err[S24_API_ERRLEN];
  s24_api_dev_t *model = NULL;
  if (len == 0 || s24_api_open("model", &g_dev, err, sizeof err) != S24_OK ||
      s24_api_open("model", &model, err, sizeof err) != S24_OK ||
      s24_api_net_load(model, file, len, &g_net, err, sizeof err) != S24_OK) {
    fprintf(stderr, "test_threads: setup: %s\n", err);
    return 1;
  }
  s24_api_tensor_t tin, tout;
  if (s24_api_net_io(g_net, &tin, &tout) != S24_OK) return 1;
  g_in = tin.bytes;
  g_out = tout.bytes;
  g_x = calloc(1, g_in);
  g_y_ref = calloc(1, g_out);
  uint64_t rng = 50;
  for (size_t i = 0; i < g_in / 4; i++) g_x[i] = (float)((int)(s24_rng_next(&rng) % 97) - 48) / 12.0f;
  for (size_t i = 0; i < sizeof g_a; i++) g_a[i] = (int8_t)(s24_rng_next(&rng) >> 56);
  for (size_t i = 0; i < sizeof g_b; i++) g_b[i] = (int8_t)(s24_rng_next(&rng) >> 56);
  const s24_pattern_t p = {2, 4};
  if (s24_api_prune(p, g_a, 16, 32, g_a, err, sizeof err) != S24_OK ||
      s24_api_net_run(g_net, g_x, g_in, 1, g_y_ref, g_out, err, sizeof err) != S24_OK ||
      s24_api_gemm(g_dev, &p, g_a, 16, 32, g_b, 8, NULL, g_c_ref, err, sizeof err) != S24_OK) {
    fprintf(stderr, "test_threads: reference: %s\n", err);
    return 1;
  }
  pthread_t th[THREADS];
  for (int t = 0; t < THREADS; t++) pthread_create(&th[t], NULL, work, (void *)(size_t)t);
  for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
  s24_api_net_totals_t tot;
  if (s24_api_net_totals(g_net, &tot) != S24_OK || tot.inferences != 1 + THREADS * CALLS) {
    fprintf(stderr, "test_threads: %llu inferences counted, %d run\n",
            (unsigned long long)tot.inferences, 1 + THREADS * CALLS);
    g_bad++;
  }
  s24_api_net_free(g_net);
  s24_api_close(model);
  s24_api_close(g_dev);
  free(g_x);
  free(g_y_ref);
  printf("test_threads: %d threads x %d calls on one network and one device: %s\n", THREADS,
         CALLS, g_bad ? "FAILED" : "ok, every result equal to a single thread's");
  return g_bad != 0;
}
