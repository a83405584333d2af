// SPDX-License-Identifier: Apache-2.0
// sparse24 command: `demo` (a realistic 2:4 INT8 layer, checked end to end).
#include "demo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sparse24.h"

// Demo layer: the FFN down-projection of a BERT-mini-sized transformer block (hidden 256,
// intermediate 1024) over 64 tokens: W (256 x 1024) times X (1024 x 64). The RTL co-simulation
// runs it (2:4 and dense) in about a second.
#define DEMO_M 256
#define DEMO_K 1024
#define DEMO_N 64
#define DEMO_SEED 0x5eed2024u

static uint64_t next_u64(uint64_t *s) { return s24_rng_next(s); }

static int8_t clamp_i8(int32_t v) {
  return (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
}

// Roughly Gaussian int8 weights (sum of four uniforms, sigma ~ 30) with rare saturated outliers.
static int8_t gen_weight(uint64_t *s) {
  uint64_t r = next_u64(s);
  int32_t acc = 0;
  for (int i = 0; i < 4; i++) acc += (int32_t)((r >> (16 * i)) & 0xFF) - 128;
  acc /= 2;
  if ((r >> 58) == 0) acc = (r & 1) ? 127 : -128;  // 1 in 64: quantisation outlier
  return clamp_i8(acc);
}

// Post-GELU activations: mostly small positive values, a few small negatives.
static int8_t gen_activation(uint64_t *s) {
  uint64_t r = next_u64(s);
  int32_t u = (int32_t)(r & 0xFF);
  if (u < 48) return (int8_t)-(int32_t)((r >> 8) & 0x7);  // GELU's negative dip
  return clamp_i8((int32_t)(((r >> 8) & 0xFF) * ((r >> 16) & 0xFF) >> 9));
}

static uint64_t fnv1a_i32(const int32_t *v, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) {
    uint32_t u = (uint32_t)v[i];
    for (int b = 0; b < 4; b++) {
      h ^= (u >> (8 * b)) & 0xFFu;
      h *= 0x100000001b3ull;
    }
  }
  return h;
}

// The dense reference Y = W * X (int32 wraparound): the golden model's dense GEMM.
static s24_status_t dense_ref(const int8_t *w, const int8_t *x, int32_t *y, char *err,
                              size_t errlen) {
  s24_api_dev_t *model = NULL;
  s24_status_t st = s24_api_open("model", &model, err, errlen);
  if (st == S24_OK) st = s24_api_gemm(model, NULL, w, DEMO_M, DEMO_K, x, DEMO_N, NULL, y, err, errlen);
  s24_api_close(model);
  return st;
}

// The hardware (rtl): prints the numbers of the 2:4 run, then runs the unpruned W as a dense
// matrix on the same 2:4 hardware (two beats per group), checks it against the dense reference
// and prints the speedup of the pruned layer.
static s24_status_t demo_rtl_dense(s24_api_dev_t *dev, const int8_t *w, const int8_t *x,
                                   const s24_api_stats_t *run, FILE *out, char *err,
                                   size_t errlen) {
  int32_t *yd = malloc(DEMO_M * DEMO_N * sizeof(int32_t));
  int32_t *refd = malloc(DEMO_M * DEMO_N * sizeof(int32_t));
  s24_api_stats_t drun = {0};
  s24_status_t st = S24_ERR_NOMEM;
  snprintf(err, errlen, "out of memory");
  if (yd == NULL || refd == NULL) goto done;
  fprintf(out, "  rtl 2:4: cycles %llu, utilization %.1f%% of peak, %.1f dense-equivalent "
          "MACs/cycle, stalls w/a/r %llu/%llu/%llu\n",
          (unsigned long long)run->cycles, 100.0 * run->utilization,
          (double)(DEMO_M * DEMO_K * DEMO_N) / (double)(run->cycles ? run->cycles : 1),
          (unsigned long long)run->stall_w, (unsigned long long)run->stall_a,
          (unsigned long long)run->stall_r);
  if ((st = s24_api_gemm(dev, NULL, w, DEMO_M, DEMO_K, x, DEMO_N, NULL, yd, err, errlen)) != S24_OK ||
      (st = s24_api_stats(dev, &drun)) != S24_OK) {
    goto done;
  }
  if ((st = dense_ref(w, x, refd, err, errlen)) != S24_OK) goto done;
  if (memcmp(yd, refd, DEMO_M * DEMO_N * sizeof(int32_t)) != 0) {
    snprintf(err, errlen, "demo: the dense run on the rtl differs from the dense reference");
    st = S24_ERR_HW;
    goto done;
  }
  fprintf(out, "  rtl dense (unpruned W, same hardware): cycles %llu, utilization %.1f%%, "
          "bit-exact\n", (unsigned long long)drun.cycles, 100.0 * drun.utilization);
  fprintf(out, "  speedup of 2:4 over dense on the same hardware: %.2fx\n",
          (double)drun.cycles / (double)(run->cycles ? run->cycles : 1));
  st = S24_OK;
done:
  free(yd);
  free(refd);
  return st;
}

s24_status_t s24_demo_run(const char *backend, FILE *out, char *err, size_t errlen) {
  const s24_pattern_t p = {2, 4};
  const size_t vcols = s24_api_values_cols(p, DEMO_K), mcols = s24_api_meta_cols(p, DEMO_K);
  int8_t *w = malloc(DEMO_M * DEMO_K), *wp = malloc(DEMO_M * DEMO_K);
  int8_t *x = malloc(DEMO_K * DEMO_N), *val = malloc(DEMO_M * vcols);
  uint8_t *meta = malloc(DEMO_M * mcols);
  int32_t *y = malloc(DEMO_M * DEMO_N * sizeof(int32_t));
  int32_t *ref = malloc(DEMO_M * DEMO_N * sizeof(int32_t));
  s24_api_dev_t *dev = NULL;
  s24_status_t st = S24_ERR_NOMEM;
  snprintf(err, errlen, "out of memory");
  if (!w || !wp || !x || !val || !meta || !y || !ref) goto done;

  uint64_t seed = DEMO_SEED;
  for (size_t i = 0; i < DEMO_M * DEMO_K; i++) w[i] = gen_weight(&seed);
  for (size_t i = 0; i < DEMO_K * DEMO_N; i++) x[i] = gen_activation(&seed);

  fprintf(out, "demo: transformer FFN down-projection (hidden 256, intermediate 1024, 64 tokens), seed 0x%08x, backend %s\n",
          (unsigned)DEMO_SEED, backend);
  fprintf(out, "  W: %d x %d int8 weights, X: %d x %d int8 activations, Y = W*X: %d x %d int32\n",
          DEMO_M, DEMO_K, DEMO_K, DEMO_N, DEMO_M, DEMO_N);

  size_t nz_before = 0, nz_after = 0;
  for (size_t i = 0; i < DEMO_M * DEMO_K; i++) nz_before += w[i] != 0;
  if ((st = s24_api_prune(p, w, DEMO_M, DEMO_K, wp, err, errlen)) != S24_OK) goto done;
  for (size_t i = 0; i < DEMO_M * DEMO_K; i++) nz_after += wp[i] != 0;
  fprintf(out, "  prune 2:4: %zu -> %zu nonzero weights (sparsity %.1f%%)\n", nz_before,
          nz_after, 100.0 * (double)(DEMO_M * DEMO_K - nz_after) / (DEMO_M * DEMO_K));

  if ((st = s24_api_compress(p, wp, DEMO_M, DEMO_K, val, meta, err, errlen)) != S24_OK) goto done;
  fprintf(out, "  compress: values %d x %zu int8 + metadata %d x %zu uint8 = %zu bytes (dense %d)\n",
          DEMO_M, vcols, DEMO_M, mcols, DEMO_M * (vcols + mcols), DEMO_M * DEMO_K);
  fprintf(out, "  metadata row 0, first bytes:");
  for (size_t i = 0; i < 8; i++) fprintf(out, " 0x%02x", meta[i]);
  fprintf(out, "\n");

  s24_api_stats_t run = {0};
  if ((st = s24_api_open(backend, &dev, err, errlen)) != S24_OK) goto done;
  if ((st = s24_api_gemm_compressed(dev, p, val, meta, DEMO_M, DEMO_K, x, DEMO_N, NULL, y, err,
                                    errlen)) != S24_OK ||
      (st = s24_api_stats(dev, &run)) != S24_OK) {
    goto done;
  }
  if (s24_api_backend_is_hw(backend) &&
      (st = demo_rtl_dense(dev, w, x, &run, out, err, errlen)) != S24_OK) {
    goto done;
  }
  if ((st = dense_ref(wp, x, ref, err, errlen)) != S24_OK) goto done;
  size_t equal = 0;
  for (size_t i = 0; i < DEMO_M * DEMO_N; i++) equal += y[i] == ref[i];
  fprintf(out, "  gemm (%s): %zu MACs done for %d dense-equivalent MACs\n", backend,
          (size_t)DEMO_M * vcols * DEMO_N, DEMO_M * DEMO_K * DEMO_N);
  fprintf(out, "  Y[0][0..7]:");
  for (size_t j = 0; j < 8; j++) fprintf(out, " %d", (int)y[j]);
  fprintf(out, "\n");
  fprintf(out, "  checksum (FNV-1a over Y): 0x%016llx\n",
          (unsigned long long)fnv1a_i32(y, DEMO_M * DEMO_N));
  fprintf(out, "  check against the dense reference: %zu of %d outputs equal\n", equal,
          DEMO_M * DEMO_N);
  if (equal != DEMO_M * DEMO_N) {
    snprintf(err, errlen, "demo: %zu of %d outputs differ from the dense reference",
             (size_t)(DEMO_M * DEMO_N) - equal, DEMO_M * DEMO_N);
    st = S24_ERR_HW;
    goto done;
  }
  fprintf(out, "demo: PASS\n");
  st = S24_OK;
done:
  s24_api_close(dev);
  free(w);
  free(wp);
  free(x);
  free(val);
  free(meta);
  free(y);
  free(ref);
  return st;
}
