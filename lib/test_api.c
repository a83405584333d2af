// SPDX-License-Identifier: Apache-2.0
// Tests of the public C API (include/sparse24.h) as a C front end sees it: built against
// libsparse24.a (the archive is self-contained) and from the sources with the sanitizers
// (lib/lib.mk, make test-api). GEMM and the fused layer on the model and rtl backends against
// plain loops of SPEC §1/§7 written here, the messages of bad input, the text buffers, and a
// network: kws.tflite (argv[1]) run on the model, every 61st truncation refused with a message.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sparse24.h"

static int failures;

#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      fprintf(stderr, "%s:%d: FAIL %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                       \
      fputc('\n', stderr);                                \
      failures++;                                         \
    }                                                     \
  } while (0)

static uint64_t rng = 29;
static int8_t rand8(void) { return (int8_t)(s24_rng_next(&rng) >> 56); }

// Opens a device; 0 (skipped, said once) for rtl in a build without it (make S24_RTL=no).
static int open_dev(const char *backend, s24_api_dev_t **dev) {
  char err[S24_API_ERRLEN];
  const s24_status_t st = s24_api_open(backend, dev, err, sizeof err);
  if (st == S24_ERR_UNSUPPORTED && strcmp(backend, "rtl") == 0) {
    printf("test_api: %s: skipped (%s)\n", backend, err);
    return 0;
  }
  CHECK(st == S24_OK, "open %s: %s", backend, err);
  return st == S24_OK;
}

static void gemm_ref(const int8_t *a, size_t m, size_t k, const int8_t *b, size_t n, int32_t *c) {
  for (size_t i = 0; i < m; i++) {
    for (size_t j = 0; j < n; j++) {
      uint32_t s = 0;
      for (size_t t = 0; t < k; t++) s += (uint32_t)(a[i * k + t] * b[t * n + j]);
      c[i * n + j] = (int32_t)s;
    }
  }
}

static void test_gemm(const char *backend) {
  enum { M = 19, K = 64, N = 21 };
  static int8_t a[M * K], b[K * N];
  static int32_t c[M * N], ref[M * N];
  char err[S24_API_ERRLEN];
  s24_pattern_t p;
  CHECK(s24_api_pattern("2:4", &p, err, sizeof err) == S24_OK, "%s", err);
  for (size_t i = 0; i < M * K; i++) a[i] = rand8();
  for (size_t i = 0; i < K * N; i++) b[i] = rand8();
  memset(a, 1, 3);  // row 0, group 0: at least 3 nonzeros
  s24_api_dev_t *dev = NULL;
  if (!open_dev(backend, &dev)) return;
  CHECK(strcmp(s24_api_backend(dev), backend) == 0, "backend %s", s24_api_backend(dev));
  // not pruned
  s24_status_t st = s24_api_gemm(dev, &p, a, M, K, b, N, NULL, c, err, sizeof err);
  CHECK(st == S24_ERR_PATTERN && strstr(err, "A: row 0, group 0 (columns 0..3) has ") &&
            strstr(err, "nonzeros, pattern 2:4 allows 2"),
        "%d %s", st, err);
  CHECK(s24_api_prune(p, a, M, K, a, err, sizeof err) == S24_OK, "%s", err);
  gemm_ref(a, M, K, b, N, ref);
  st = s24_api_gemm(dev, &p, a, M, K, b, N, NULL, c, err, sizeof err);
  CHECK(st == S24_OK && memcmp(c, ref, sizeof c) == 0, "%s gemm: %d %s", backend, st, err);
  // dense A (any values, any K) on the same device
  st = s24_api_gemm(dev, NULL, b, K, N, a, 1, NULL, c, err, sizeof err);  // B as A: K x N * N x 1
  CHECK(st == S24_OK, "%s dense gemm: %s", backend, err);
  s24_api_stats_t s;
  CHECK(s24_api_stats(dev, &s) == S24_OK && s.macs_dense == (uint64_t)K * N * 1, "macs %llu",
        (unsigned long long)s.macs_dense);
  if (strcmp(backend, "rtl") == 0) CHECK(s.cycles > 0 && s.sim_cycles > s.cycles, "cycles");
  size_t need = 0;
  char small[8];
  CHECK(s24_api_stats_text(dev, NULL, 0, &need) == S24_OK && need > 8, "need %zu", need);
  CHECK(s24_api_stats_text(dev, small, sizeof small, NULL) == S24_OK &&
            strcmp(small, "backend") == 0,
        "'%s'", small);
  // errors: NULL operands and shapes name what is wrong; err may be NULL
  CHECK(s24_api_gemm(dev, &p, NULL, M, K, b, N, NULL, c, err, sizeof err) == S24_ERR_ARG &&
            strcmp(err, "A is NULL") == 0,
        "%s", err);
  CHECK(s24_api_gemm(dev, &p, a, M, 6, b, N, NULL, c, err, sizeof err) == S24_ERR_ARG &&
            strcmp(err, "A: K = 6 is not a multiple of m = 4 (pattern 2:4)") == 0,
        "%s", err);
  CHECK(s24_api_gemm(dev, &p, a, 0, K, b, N, NULL, c, NULL, 0) == S24_ERR_ARG, "no err buffer");
  // compressed A with a bad index: row and group named
  static int8_t v[M * K / 2];
  static uint8_t md[M * K / 8];
  CHECK(s24_api_compress(p, a, M, K, v, md, err, sizeof err) == S24_OK, "%s", err);
  md[2 * (K / 8) + 1] = 0x0B;  // row 2, group 2: indices (3, 2)
  st = s24_api_gemm_compressed(dev, p, v, md, M, K, b, N, NULL, c, err, sizeof err);
  CHECK(st == S24_ERR_META && strcmp(err, "A metadata: row 2, group 2: invalid metadata, index 2 "
                                          "follows index 3 (indices must strictly increase)") == 0,
        "%d %s", st, err);
  s24_api_close(dev);
}

static void test_linear(const char *backend) {
  enum { B = 3, K = 32, M = 10 };
  int8_t x[B * K], w[M * K], y[B * M], ref[B * M];
  int32_t bias[M], mult[M], shift[M];
  for (size_t i = 0; i < B * K; i++) x[i] = rand8();
  for (size_t i = 0; i < M * K; i++) w[i] = rand8();
  for (size_t i = 0; i < M; i++) {
    bias[i] = (int32_t)(s24_rng_next(&rng) % 20000) - 10000;
    mult[i] = (int32_t)(0x40000000u + (uint32_t)(s24_rng_next(&rng) >> 34));
    shift[i] = -8 - (int32_t)(s24_rng_next(&rng) % 3);
  }
  const int32_t zi = -3, zo = 4;
  for (size_t bi = 0; bi < B; bi++) {  // SPEC §7, ReLU
    for (size_t m = 0; m < M; m++) {
      uint32_t acc = (uint32_t)bias[m];
      for (size_t k = 0; k < K; k++) acc += (uint32_t)(w[m * K + k] * (x[bi * K + k] - zi));
      const int t = 31 - shift[m];
      int64_t r = (((int64_t)(int32_t)acc * mult[m]) + (1ll << (t - 1))) >> t;
      r += zo;
      ref[bi * M + m] = (int8_t)(r < zo ? zo : r > 127 ? 127 : r);
    }
  }
  char err[S24_API_ERRLEN];
  s24_api_dev_t *dev = NULL;
  if (!open_dev(backend, &dev)) return;
  s24_api_linear_params_t prm = {bias, mult, shift, zi, zo, s24_api_relu_min(zo), 127};
  s24_status_t st = s24_api_linear(dev, NULL, x, B, w, M, K, &prm, y, err, sizeof err);
  CHECK(st == S24_OK && memcmp(y, ref, sizeof y) == 0, "%s linear: %d %s", backend, st, err);
  shift[7] = 31;
  st = s24_api_linear(dev, NULL, x, B, w, M, K, &prm, y, err, sizeof err);
  CHECK(st == S24_ERR_ARG && strcmp(err, "SHIFT[7] = 31 is outside [-31, 30]") == 0, "%s", err);
  shift[7] = -8;
  prm.zi = -129;
  st = s24_api_linear(dev, NULL, x, B, w, M, K, &prm, y, err, sizeof err);
  CHECK(st == S24_ERR_ARG && strcmp(err, "ZI (input zero point) = -129 is outside [-128, 127]") ==
                                0,
        "%s", err);
  s24_api_close(dev);
}

static void test_net(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    CHECK(0, "cannot open %s", path);
    return;
  }
  static uint8_t file[1 << 20];
  const size_t len = fread(file, 1, sizeof file, f);
  fclose(f);
  char err[S24_API_ERRLEN];
  s24_api_net_t *net = NULL;
  s24_api_dev_t *dev = NULL;
  CHECK(s24_api_open("model", &dev, err, sizeof err) == S24_OK, "%s", err);
  for (size_t cut = 0; cut < len; cut += 61) {  // every truncation is refused with a message
    err[0] = '\0';
    s24_status_t st = s24_api_net_load(dev, file, cut, &net, err, sizeof err);
    CHECK(st != S24_OK && net == NULL && err[0] != '\0', "truncated at %zu: %d", cut, st);
    if (st == S24_OK) s24_api_net_free(net);
  }
  if (s24_api_net_load(dev, file, len, &net, err, sizeof err) != S24_OK) {
    CHECK(0, "load %s: %s", path, err);
    s24_api_close(dev);
    return;
  }
  s24_api_tensor_t in, out;
  CHECK(s24_api_net_io(net, &in, &out) == S24_OK && in.dtype == S24_API_FLOAT32 && in.rank == 4,
        "io");
  float *x = calloc(2, in.bytes), *y = calloc(2, out.bytes);
  s24_status_t st = s24_api_net_run(net, x, 2 * in.bytes, 2, y, 2 * out.bytes, err, sizeof err);
  CHECK(st == S24_OK, "run: %s", err);
  s24_api_net_totals_t t;
  CHECK(s24_api_net_totals(net, &t) == S24_OK && t.inferences == 2 && t.predicted_cycles > 0 &&
            t.arena_bytes > t.activation_bytes && t.activation_bytes > 0,
        "totals");
  char text[64];
  CHECK(s24_api_net_stats(net, text, sizeof text, NULL) == S24_OK &&
            strncmp(text, "backend: model\n", 15) == 0,
        "%s", text);
  st = s24_api_net_run(net, x, in.bytes, 2, y, 2 * out.bytes, err, sizeof err);
  CHECK(st == S24_ERR_ARG && strstr(err, "X holds"), "%s", err);
  s24_api_net_free(net);
  s24_api_close(dev);
  free(x);
  free(y);
}

int main(int argc, char **argv) {
  CHECK(s24_api_version() == S24_API_VERSION, "version");
  char err[S24_API_ERRLEN];
  s24_api_dev_t *dev = (s24_api_dev_t *)&err;  // overwritten with NULL on failure
  CHECK(s24_api_open("gpu", &dev, err, sizeof err) == S24_ERR_ARG && dev == NULL &&
            strcmp(err, "unknown backend 'gpu' (model, rtl, soc or soc-cpu)") == 0,
        "%s", err);
  test_gemm("model");
  test_gemm("rtl");
  test_linear("model");
  test_linear("rtl");
  if (argc > 1) test_net(argv[1]);
  printf("test_api: %s (%d failures)\n", failures ? "FAILED" : "ok", failures);
  return failures != 0;
}
