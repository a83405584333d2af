// SPDX-License-Identifier: Apache-2.0
// Cycle-model test: random GEMMs through the host driver on the Verilated s24_top (co-simulation)
// must take EXACTLY the busy cycles, beats, jobs and tiles the C model predicts
// (s24_gemm_cycles_compressed / s24_gemm_cycles_dense), and give C bit-exact vs the model.
// Under random stream gaps and result backpressure the beats must still match exactly and the
// cycles can only grow. Usage: test_perf [+seed=N] [+cases=N] [+case=I] [+stress=N]
//   +seed   base seed (printed; default from the clock)   +cases   ideal-stream cases (default 40)
//   +case   run only case I of the seed (reproduce)       +stress  cases with gaps/backpressure
// Prints one line per failure and a final 'N passed, N failed'.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "s24_cosim.h"
#include "s24_cycles.h"
#include "s24_drv.h"
#include "s24_drv_host.h"
#include "s24_model.h"

#include "../common/rand.h"  // rng_t, rnd, below, rnd_i8 (tests/common/)

typedef struct {
  int passed, failed;
} tally_t;

// Records one check; on failure prints how to rerun exactly this case.
static int check(tally_t *t, int ok, uint64_t seed, int i, const char *what, const char *detail) {
  if (ok) {
    t->passed++;
  } else {
    t->failed++;
    printf("FAIL case %d (+seed=%" PRIu64 " +case=%d): %s: %s\n", i, seed, i, what, detail);
  }
  return ok;
}

// Kinds of weight matrices, each exercising another part of the beats-per-group rule.
enum { K_PRUNED, K_PRUNED_FEWNZ, K_DENSE, K_DENSE_HOLES, K_ZERO_TILES, K_ALL_ZERO, K_KINDS };
static const char *const kKindName[K_KINDS] = {"pruned", "pruned-fewnz", "dense",
                                               "dense-holes", "zero-tiles", "all-zero"};

// One random case on an open device. stress: the device has stream gaps/backpressure.
static void run_case(s24_dev_t *dev, uint64_t seed, int i, int stress, tally_t *t) {
  rng_t r = {seed * 1000003ull + (uint64_t)i + (stress ? 0x5151ull : 0)};
  static const s24_pattern_t pats[4] = {{2, 4}, {1, 4}, {2, 8}, {4, 8}};
  const s24_array_t hw = s24_dev_array(dev);
  const int kind = (int)below(&r, K_KINDS);
  const int as_dense = kind == K_DENSE || kind == K_DENSE_HOLES || below(&r, 4) == 0;
  const s24_pattern_t p = pats[below(&r, 4)];
  const uint32_t R = hw.rows, C = hw.cols;
  const size_t m = below(&r, 5) == 0 ? 1 + below(&r, R) : 1 + below(&r, 4 * R);
  const size_t n = below(&r, 5) == 0 ? 1 + below(&r, C) : 1 + below(&r, 5 * C);
  size_t k = p.m * (1 + below(&r, 24));
  if (as_dense && below(&r, 3) == 0) k = 1 + below(&r, 70);  // dense A: any K
  int8_t *a = malloc(m * k), *b = malloc(k * n), *vals = malloc(m * k + 1);
  uint8_t *meta = malloc(m * k + 1);
  int32_t *want = malloc(m * n * 4), *got = malloc(m * n * 4);
  if (a == NULL || b == NULL || vals == NULL || meta == NULL || want == NULL || got == NULL) {
    check(t, 0, seed, i, "setup", "out of memory");
    goto out;
  }
  for (size_t x = 0; x < m * k; x++) a[x] = rnd_i8(&r);
  for (size_t x = 0; x < k * n; x++) b[x] = rnd_i8(&r);
  if (kind == K_PRUNED_FEWNZ || kind == K_DENSE_HOLES) {  // short and empty groups
    for (size_t x = 0; x < m * k; x++) if (below(&r, 2)) a[x] = 0;
  }
  if (kind == K_ZERO_TILES) {  // whole row tiles and whole k-ranges zero
    for (size_t row = 0; row < m; row++) {
      for (size_t e = 0; e < k; e++) {
        if ((row / R) % 2 == 0 || (e / 8) % 3 == 1) a[row * k + e] = 0;
      }
    }
  }
  if (kind == K_ALL_ZERO) memset(a, 0, m * k);
  char what[160], detail[200] = "";
  s24_status_t st = S24_OK;
  s24_where_t where;
  s24_gemm_cycles_t pred, pred2;
  int is_sparse = !(kind == K_DENSE || kind == K_DENSE_HOLES) && k % p.m == 0;
  if (is_sparse) st = s24_prune(p, a, m, k, a);
  if (st == S24_OK && is_sparse) st = s24_compress(p, a, m, k, (int8_t *)vals, meta, &where);
  snprintf(what, sizeof what, "%s %s%u:%u %zux%zux%zu (MxKxN)%s", kKindName[kind],
           is_sparse ? "" : "dense-of-", p.n, p.m, m, k, n, stress ? " stress" : "");
  // prediction (both routes must agree when both apply), reference result, then the hardware
  if (st == S24_OK) st = s24_gemm_cycles_dense(hw, a, m, k, n, &pred);
  if (st == S24_OK && is_sparse) {
    int8_t *scratch = malloc(m * k);  // the compressed predictor decompresses into it
    st = scratch == NULL ? S24_ERR_NOMEM
                         : s24_gemm_cycles_compressed(hw, p, (int8_t *)vals, meta, m, k, n,
                                                      scratch, &pred2, &where);
    free(scratch);
    if (st == S24_OK && memcmp(&pred, &pred2, sizeof pred) != 0) {
      snprintf(detail, sizeof detail, "compressed prediction %" PRIu64 " != dense %" PRIu64,
               pred2.busy_cycles, pred.busy_cycles);
      check(t, 0, seed, i, what, detail);
      goto out;
    }
  }
  if (st == S24_OK) st = s24_gemm_dense_ref(a, m, k, b, n, NULL, want);
  if (st == S24_OK) {
    if (is_sparse && !as_dense) {
      st = s24_gemm_compressed(dev, p, (int8_t *)vals, meta, m, k, b, n, NULL, got, &where);
    } else {
      st = s24_gemm_dense(dev, a, m, k, b, n, NULL, got);
    }
  }
  if (!check(t, st == S24_OK, seed, i, what, s24_strerror(st))) goto out;
  size_t bad = m * n;
  for (size_t x = 0; x < m * n && bad == m * n; x++) {
    if (got[x] != want[x]) bad = x;
  }
  if (bad < m * n) {
    snprintf(detail, sizeof detail, "C[%zu][%zu] = %d, model %d", bad / n, bad % n, got[bad],
             want[bad]);
  }
  check(t, bad == m * n, seed, i, what, detail);
  const s24_counters_t *cnt = &dev->counters;
  snprintf(detail, sizeof detail,
           "measured cycles %" PRIu64 " beats %" PRIu64 " jobs %" PRIu64 " tiles %" PRIu64
           ", predicted %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64,
           cnt->cycles, cnt->beats, cnt->jobs, cnt->tiles, pred.busy_cycles, pred.beats,
           pred.jobs, pred.tiles);
  const size_t tr = pred.pair ? 2 * (size_t)R : R;  // tile rows: 2R in pair mode
  const int same_work = cnt->beats == pred.beats && cnt->jobs == pred.jobs &&
                        cnt->tiles == pred.tiles &&
                        pred.tiles == (m + tr - 1) / tr * pred.col_tiles;
  if (stress) {  // stalls only add cycles; the work itself is fixed
    check(t, same_work && cnt->cycles >= pred.busy_cycles, seed, i, what, detail);
  } else {
    check(t, same_work && cnt->cycles == pred.busy_cycles, seed, i, what, detail);
  }
out:
  free(a);
  free(b);
  free(vals);
  free(meta);
  free(want);
  free(got);
}

// Model-only checks (no hardware): the shape-only prediction is exact for weights whose every
// hardware group reaches its worst case (pruned nonzero data, pattern m <= the core's m), and
// for any data an upper bound of the data-dependent one up to the fill and drain of the jobs
// the data has beyond the shape's (row tiles with fewer beats split a job; s24_model.h).
static void run_shape_checks(s24_array_t hw, uint64_t seed, int count, tally_t *t) {
  static const s24_pattern_t pats[6] = {{2, 4}, {1, 4}, {2, 8}, {4, 8}, {4, 4}, {1, 2}};
  for (int i = 0; i < count; i++) {
    rng_t r = {seed * 7777ull + (uint64_t)i};
    const s24_pattern_t p = pats[below(&r, 6)];
    const size_t m = 1 + below(&r, 5 * hw.rows), n = 1 + below(&r, 5 * hw.cols);
    const size_t k = p.m * (1 + below(&r, 20));
    const int nonzero = below(&r, 2);
    int8_t *a = malloc(m * k);
    if (a == NULL) {
      check(t, 0, seed, i, "shape checks", "out of memory");
      return;
    }
    for (size_t x = 0; x < m * k; x++) {
      int8_t v = rnd_i8(&r);
      a[x] = (nonzero && v == 0) ? 1 : (!nonzero && below(&r, 3) == 0) ? 0 : v;
    }
    s24_gemm_cycles_t data, shape;
    s24_status_t st = p.n < p.m ? s24_prune(p, a, m, k, a) : S24_OK;
    if (st == S24_OK) st = s24_gemm_cycles_dense(hw, a, m, k, n, &data);
    if (st == S24_OK) st = s24_gemm_cycles_shape(hw, p, m, k, n, &shape);
    char what[120], detail[160];
    snprintf(what, sizeof what, "shape-only model, %s %u:%u %zux%zux%zu (MxKxN) on %ux%u %u:%u",
             nonzero ? "nonzero" : "holes", p.n, p.m, m, k, n, hw.rows, hw.cols, hw.sparse_n,
             hw.sparse_m);
    snprintf(detail, sizeof detail,
             "%s: data-dependent %" PRIu64 " cycles %" PRIu64 " jobs, shape-only %" PRIu64
             " %" PRIu64, s24_strerror(st), data.busy_cycles, data.jobs, shape.busy_cycles,
             shape.jobs);
    const int exact = nonzero && p.m <= hw.sparse_m;
    const uint64_t extra_jobs = data.jobs > shape.jobs ? data.jobs - shape.jobs : 0;
    // an extra job pays the fill and drain of the data's mode (2R tile rows in the pair mode)
    const uint64_t rows = data.pair ? 2u * hw.rows : hw.rows;
    const uint64_t bound = shape.busy_cycles + extra_jobs * (rows + hw.cols + S24_CORE_PIPE_CYCLES);
    check(t, st == S24_OK && (exact ? shape.busy_cycles == data.busy_cycles &&
                                          shape.jobs == data.jobs
                                    : bound >= data.busy_cycles),
          seed, i, what, detail);
    free(a);
  }
}

static int arg_u64(const char *arg, const char *name, uint64_t *v) {
  size_t l = strlen(name);
  if (strncmp(arg, name, l) != 0) return 0;
  char *end = NULL;
  *v = strtoull(arg + l, &end, 10);
  return end != arg + l && *end == '\0';
}

int main(int argc, char **argv) {
  uint64_t seed = (uint64_t)time(NULL), cases = 40, only = UINT64_MAX, stress = 8;
  for (int i = 1; i < argc; i++) {
    if (!arg_u64(argv[i], "+seed=", &seed) && !arg_u64(argv[i], "+cases=", &cases) &&
        !arg_u64(argv[i], "+case=", &only) && !arg_u64(argv[i], "+stress=", &stress)) {
      fprintf(stderr, "test_perf: error: unknown argument '%s'\n", argv[i]);
      return 2;
    }
  }
  printf("test_perf: +seed=%" PRIu64 " +cases=%" PRIu64 " +stress=%" PRIu64 "\n", seed, cases,
         stress);
  tally_t t = {0, 0};
  int shape_checks_done = 0;
  for (int pass = 0; pass < 2; pass++) {  // 0: ideal streams, 1: gaps and backpressure
    const uint64_t count = pass ? stress : cases;
    if (count == 0) continue;
    s24_cosim_opts_t o = {0};
    o.seed = (uint32_t)seed;
    if (pass) {
      o.r_backpressure_pct = 30;
      o.in_gap_pct = 20;
      o.axil_random = 1;
    }
    s24_cosim_t *sim = NULL;
    s24_seam_t seam;
    s24_dev_t dev;
    s24_status_t st = s24_cosim_open(&o, &sim, &seam);
    if (st == S24_OK) st = s24_dev_open(&dev, &seam);
    if (st != S24_OK) {
      printf("FAIL: cannot open the co-simulated device: %s\n", s24_strerror(st));
      s24_cosim_close(sim);
      printf("%d passed, %d failed\n", t.passed, t.failed + 1);
      return 1;
    }
    if (!shape_checks_done && only == UINT64_MAX) {
      const s24_array_t hw = s24_dev_array(&dev);
      run_shape_checks(hw, seed, 500, &t);
      shape_checks_done = 1;
      printf("[500/500] shape-only model checks done\n");
    }
    for (uint64_t i = 0; i < count; i++) {
      if (only != UINT64_MAX && i != only) continue;
      run_case(&dev, seed, (int)i, pass, &t);
      if ((i + 1) % 10 == 0 || i + 1 == count) {
        printf("[%" PRIu64 "/%" PRIu64 "] %s cases done\n", i + 1, count,
               pass ? "stress" : "ideal-stream");
        fflush(stdout);
      }
    }
    s24_dev_close(&dev);
    s24_cosim_close(sim);
  }
  printf("%d passed, %d failed\n", t.passed, t.failed);
  return t.failed == 0 ? 0 : 1;
}
