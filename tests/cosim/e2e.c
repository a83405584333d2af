// SPDX-License-Identifier: Apache-2.0
// End-to-end driver test: random GEMMs through the driver on a backend, bit-exact vs the C model.
// Built twice: with S24_E2E_RTL against the Verilated s24_top (co-simulation), without it
// against the software device. Usage: e2e [+seed=N] [+cases=N] [+case=I] [+bp=PCT] [+trace=F]
//   +seed   base seed (printed; default from the clock)     +cases  random cases (default 60)
//   +case   run only case I of the seed (reproduce a failure) +bp     result backpressure %
//   +cfg=R:C:n:m  array of the software device (default 8:8:2:4; the RTL build fixes its own)
// Prints one line per failure and a final 'N passed, N failed'.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "s24_cycles.h"
#include "s24_drv.h"
#include "s24_drv_host.h"
#include "s24_layout.h"
#include "s24_model.h"
#ifdef S24_E2E_RTL
#include "s24_cosim.h"
#else
#include "s24_swdev.h"
#endif

#include "../common/rand.h"  // rng_t, rnd, below, rnd_i8 (tests/common/)

static const char *g_fail_seed_fmt = "FAIL case %d (+seed=%" PRIu64 " +case=%d): %s\n";

typedef struct {
  int passed, failed, pair_cases;
  uint64_t cycles, beats, macs_dense;
} tally_t;

static uint32_t g_last_err;  // ERR bits behind the last failure
#ifdef S24_E2E_RTL
static int g_ideal_streams;  // +bp=0: no stream gaps, no backpressure: cycles exactly predicted
#endif

static void check(tally_t *t, int ok, int i, uint64_t seed, const char *what) {
  if (ok) {
    t->passed++;
  } else {
    char bits[80];
    t->failed++;
    printf(g_fail_seed_fmt, i, seed, i, what);
    printf("  ERR bits: %s\n", s24_err_bits_str(g_last_err, bits, sizeof bits));
  }
}

// One random case: pattern, shape, values, C0 chosen from the case's own rng.
static void run_case(s24_dev_t *dev, uint64_t seed, int i, tally_t *t) {
  rng_t r = {seed * 1000003ull + (uint64_t)i};
  // one case in four with a small in-flight window (1..3 tiles): a performance setting only,
  // every window completes bit-exact (own generator: the cases themselves stay as they were)
  rng_t rw = {seed * 7919ull + (uint64_t)i};
  const size_t window_default = dev->inflight_tiles;
  if (below(&rw, 4) == 0) dev->inflight_tiles = 1 + below(&rw, 3);
  const int fed = dev->inflight_tiles >= s24_feed_window_tiles(dev->hw.rows, dev->hw.cols);
  // (1:4 and 1:8 run in the pair mode of a 2:m core that has it, when it pays: s24_pair_choose)
  static const s24_pattern_t pats[5] = {{2, 4}, {1, 4}, {2, 8}, {4, 8}, {1, 8}};
  const int dense = below(&r, 6) == 0;
  const s24_pattern_t p = pats[below(&r, 5)];
  const uint32_t R = dev->hw.rows, C = dev->hw.cols;
  size_t m = below(&r, 4) == 0 ? 1 : 1 + below(&r, 3 * R);
  size_t n = below(&r, 4) == 0 ? 1 : 1 + below(&r, 3 * C);
  if (below(&r, 8) == 0) n = 1 + below(&r, 12 * C);  // many column tiles in one job
  size_t k = p.m * (below(&r, 3) == 0 ? 1 : 1 + below(&r, 12));
  if (dense && below(&r, 2)) k = 1 + below(&r, 40);  // dense A: any K
  const int use_c0 = below(&r, 3) == 0;
  const int extreme = below(&r, 8) == 0;  // only -128 and 127: largest products
  int8_t *a = malloc(m * k), *b = malloc(k * n);
  int32_t *c0 = malloc(m * n * 4), *want = malloc(m * n * 4), *got = malloc(m * n * 4);
  int8_t *vals = malloc(m * k);
  uint8_t *meta = malloc(m * k + 1);
  char what[200];
  for (size_t x = 0; x < m * k; x++) a[x] = extreme ? (below(&r, 2) ? 127 : -128) : rnd_i8(&r);
  for (size_t x = 0; x < k * n; x++) b[x] = extreme ? (below(&r, 2) ? 127 : -128) : rnd_i8(&r);
  for (size_t x = 0; x < m * n; x++) c0[x] = (int32_t)(uint32_t)rnd(&r);
  if (below(&r, 4) == 0) {  // extra zeros: short groups, zero rows
    for (size_t x = 0; x < m * k; x++) if (below(&r, 3) == 0) a[x] = 0;
  }
  s24_status_t st;
  s24_where_t where;
  if (dense) {
    st = s24_gemm_dense_ref(a, m, k, b, n, use_c0 ? c0 : NULL, want);
    if (st == S24_OK) st = s24_gemm_dense(dev, a, m, k, b, n, use_c0 ? c0 : NULL, got);
    snprintf(what, sizeof what, "dense %zux%zux%zu c0=%d: %s", m, k, n, use_c0,
             s24_strerror(st));
  } else {
    st = s24_prune(p, a, m, k, a);
    if (st == S24_OK) st = s24_compress(p, a, m, k, vals, meta, &where);
    if (st == S24_OK) {
      st = s24_gemm_sparse(p, vals, meta, m, k, b, n, use_c0 ? c0 : NULL, want, &where);
    }
    if (st == S24_OK) {
      st = s24_gemm_compressed(dev, p, vals, meta, m, k, b, n, use_c0 ? c0 : NULL, got, &where);
    }
    snprintf(what, sizeof what, "%u:%u %zux%zux%zu c0=%d: %s", p.n, p.m, m, k, n, use_c0,
             s24_strerror(st));
  }
  if (dev->inflight_tiles != window_default) {
    size_t l = strlen(what);
    snprintf(what + l, sizeof what - l, " (window %zu)", dev->inflight_tiles);
  }
  int ok = st == S24_OK;
  g_last_err = dev->last_err;
  if (ok && s24_pair_choose(s24_dev_array(dev), a, m, k)) t->pair_cases++;
  if (ok) {
    for (size_t x = 0; x < m * n; x++) {
      if (got[x] != want[x]) {
        size_t l = strlen(what);
        snprintf(what + l, sizeof what - l, ", C[%zu][%zu] = %d, model %d", x / n, x % n,
                 got[x], want[x]);
        ok = 0;
        break;
      }
    }
  }
#ifdef S24_E2E_RTL
  if (ok) {  // the cycle model (cmodel s24_gemm_cycles_*): exact with ideal streams, a lower
             // bound under stream gaps and backpressure; the beats are exact either way
    const s24_array_t hw = s24_dev_array(dev);
    s24_gemm_cycles_t pred;
    int8_t *scratch = malloc(m * k);  // the compressed predictor decompresses into it
    s24_status_t ps = scratch == NULL ? S24_ERR_NOMEM
                      : dense ? s24_gemm_cycles_dense(hw, a, m, k, n, &pred)
                              : s24_gemm_cycles_compressed(hw, p, vals, meta, m, k, n, scratch,
                                                           &pred, &where);
    free(scratch);
    const uint64_t cyc = dev->counters.cycles;
    if (ps != S24_OK || dev->counters.beats != pred.beats ||
        (g_ideal_streams && fed ? cyc != pred.busy_cycles : cyc < pred.busy_cycles)) {
      size_t l = strlen(what);
      snprintf(what + l, sizeof what - l, ", cycles %" PRIu64 " beats %" PRIu64
               ", cycle model %" PRIu64 " %" PRIu64 " (%s)", cyc, dev->counters.beats,
               pred.busy_cycles, pred.beats, s24_strerror(ps));
      ok = 0;
    }
  }
#endif
  if (ok) {
    t->cycles += dev->counters.cycles;
    t->beats += dev->counters.beats;
    t->macs_dense += dev->counters.macs_dense;
  }
#ifndef S24_E2E_RTL
  (void)fed;
#endif
  dev->inflight_tiles = window_default;
  check(t, ok, i, seed, what);
  free(a); free(b); free(c0); free(want); free(got); free(vals); free(meta);
}

// "Send one tile, read its results, send the next": an 8x64 dense A times 64x16 B (two column
// tiles on an 8x8 core, more on smaller ones) with in-flight windows 1, 2, 3 and the default,
// each followed by a 32x64 1:4 A (the pair mode on a 2:m core that has it, s24_pair_choose)
// and a 32x64 2:4 A, so every job runs after a job of another mode (mode switches).
// The core drains every tile it took whatever the input streams do, so each completes
// bit-exact; the busy cycles of each are printed (the window is a performance setting only).
static void run_windows(s24_dev_t *dev, uint64_t seed, tally_t *t) {
  const size_t k = 64, n = 16;
  rng_t r = {seed ^ 0x77696e646f77ull};
  static int8_t a[3][32 * 64];
  int8_t b[64 * 16];
  int32_t want[32 * 16], got[32 * 16];
  static const char *const names[3] = {"dense_8x64x16", "p14_32x64x16", "p24_32x64x16"};
  static const size_t rows[3] = {8, 32, 32};
  static const s24_pattern_t pats[3] = {{4, 4}, {1, 4}, {2, 4}};
  for (size_t x = 0; x < sizeof b; x++) b[x] = rnd_i8(&r);
  for (int c = 0; c < 3; c++) {
    for (size_t x = 0; x < rows[c] * k; x++) a[c][x] = rnd_i8(&r);
    if (pats[c].n < pats[c].m && s24_prune(pats[c], a[c], rows[c], k, a[c]) != S24_OK) {
      check(t, 0, -1, seed, "window cases: prune failed");
      return;
    }
  }
  const size_t window_default = dev->inflight_tiles;
  const size_t windows[4] = {1, 2, 3, window_default};
  for (int i = 0; i < 4; i++) {
    dev->inflight_tiles = windows[i];
    for (int c = 0; c < 3; c++) {
      const size_t m = rows[c];
      s24_status_t st = s24_gemm_dense_ref(a[c], m, k, b, n, NULL, want);
      if (st == S24_OK) st = s24_gemm_dense(dev, a[c], m, k, b, n, NULL, got);
      g_last_err = dev->last_err;
      const int pair = s24_pair_choose(s24_dev_array(dev), a[c], m, k);
      char what[200];
      snprintf(what, sizeof what, "window_%zu%s_%s: %s, busy cycles %" PRIu64 ", jobs %" PRIu64 "%s",
               windows[i], i == 3 ? "_default" : "", names[c], s24_strerror(st),
               st == S24_OK ? dev->counters.cycles : 0, st == S24_OK ? dev->counters.jobs : 0,
               pair ? ", pair mode" : "");
      const int ok = st == S24_OK && memcmp(got, want, m * n * sizeof(int32_t)) == 0;
      if (ok) printf("  %s\n", what);
      check(t, ok, -1, seed, what);
    }
  }
  dev->inflight_tiles = window_default;
}

// int32 wraparound inside the hardware accumulator: 2:4 rows of -128 times B of -128,
// K = 262144: every output is 65536 groups * 2 * 16384 = 2^31, which wraps to INT32_MIN.
static void run_wrap(s24_dev_t *dev, uint64_t seed, tally_t *t) {
  const size_t m = 2, k = 262144, n = 3;
  int8_t *a = malloc(m * k), *b = malloc(k * n), *vals = malloc(m * k / 2);
  uint8_t *meta = malloc(m * k / 8);
  int32_t want[6], got[6];
  s24_where_t where;
  const s24_pattern_t p = {2, 4};
  memset(a, -128, m * k);
  memset(b, -128, k * n);
  s24_status_t st = s24_prune(p, a, m, k, a);
  if (st == S24_OK) st = s24_compress(p, a, m, k, vals, meta, &where);
  if (st == S24_OK) st = s24_gemm_sparse(p, vals, meta, m, k, b, n, NULL, want, &where);
  if (st == S24_OK) st = s24_gemm_compressed(dev, p, vals, meta, m, k, b, n, NULL, got, &where);
  g_last_err = dev->last_err;
  int ok = st == S24_OK && memcmp(got, want, sizeof want) == 0 && want[0] == INT32_MIN;
  char what[120];
  snprintf(what, sizeof what, "wrap_2x262144x3_p24: %s, C[0][0] = %d", s24_strerror(st),
           st == S24_OK ? got[0] : 0);
  check(t, ok, -1, seed, what);
  free(a); free(b); free(vals); free(meta);
}

static int plusarg(int argc, char **argv, const char *name, const char **val) {
  size_t l = strlen(name);
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] == '+' && strncmp(argv[i] + 1, name, l) == 0 && argv[i][1 + l] == '=') {
      *val = argv[i] + 2 + l;
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  const char *v;
  uint64_t seed = (uint64_t)time(NULL);
  int cases = 60, only = -2, bp = 0;
  const char *trace = NULL;
  if (plusarg(argc, argv, "seed", &v)) seed = strtoull(v, NULL, 0);
  if (plusarg(argc, argv, "cases", &v)) cases = atoi(v);
  if (plusarg(argc, argv, "case", &v)) only = atoi(v);
  if (plusarg(argc, argv, "bp", &v)) bp = atoi(v);
  if (plusarg(argc, argv, "trace", &v)) trace = v;
  unsigned cfg[4] = {8, 8, 2, 4};
  if (plusarg(argc, argv, "cfg", &v) &&
      sscanf(v, "%u:%u:%u:%u", &cfg[0], &cfg[1], &cfg[2], &cfg[3]) != 4) {
    printf("e2e: +cfg=R:C:n:m expected, got '%s'\n", v);
    return 2;
  }
  s24_seam_t seam;
  s24_dev_t dev;
#ifdef S24_E2E_RTL
  s24_cosim_opts_t opts = {.seed = (uint32_t)seed, .r_backpressure_pct = (uint32_t)bp,
                           .in_gap_pct = (uint32_t)bp, .axil_random = 1, .trace_path = trace};
  s24_cosim_t *sim = NULL;
  if (plusarg(argc, argv, "cfg", &v)) {
    printf("e2e: +cfg is for the software device; the RTL array is fixed by the build\n");
    return 2;
  }
  s24_status_t st = s24_cosim_open(&opts, &sim, &seam);
  g_ideal_streams = bp == 0;
  const char *name = "rtl";
#else
  (void)bp;
  (void)trace;
  s24_swdev_t sw;
  s24_status_t st = s24_swdev_init(&sw, cfg[0], cfg[1], cfg[2], cfg[3]);
  if (st == S24_OK) s24_swdev_seam(&sw, &seam);
  const char *name = "swdev";
#endif
  if (st == S24_OK) st = s24_dev_open(&dev, &seam);
  if (st != S24_OK) {
    printf("e2e: cannot open the %s device: %s\n", name, s24_strerror(st));
    return 1;
  }
  dev.timeout_ns = 20000000;  // 20 ms of hardware time: the largest case takes under 1 ms
  printf("e2e %s: %ux%u %u:%u core, seed=%" PRIu64 " (+seed=N to repeat), %d cases\n", name,
         dev.hw.rows, dev.hw.cols, dev.hw.sparse_n, dev.hw.sparse_m, seed, cases);
  tally_t t = {0};
  for (int i = 0; i < cases; i++) {
    if (only != -2 && i != only) continue;
    run_case(&dev, seed, i, &t);
    if ((i + 1) % (cases >= 500 ? cases / 5 : 100) == 0) printf("  %d/%d cases\n", i + 1, cases);
  }
  if (only == -2 || only == -1) {
    run_wrap(&dev, seed, &t);
    run_windows(&dev, seed, &t);
  }
#ifdef S24_E2E_RTL
  printf("simulated cycles: %" PRIu64 ", hw busy cycles %" PRIu64 ", beats %" PRIu64 "\n",
         s24_cosim_cycles(sim), t.cycles, t.beats);
  s24_cosim_close(sim);
#else
  s24_swdev_free(&sw);
#endif
  s24_dev_close(&dev);
  printf("cases in pair mode: %d\n", t.pair_cases);
  printf("%d passed, %d failed\n", t.passed, t.failed);
  return t.failed != 0;
}
