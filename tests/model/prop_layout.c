// SPDX-License-Identifier: Apache-2.0
// Randomised property tests of the beat packers, the GEMM cycle predictors and the fused
// layer's bias folding, with a reproducible seed.
//
// usage: prop_layout [CASES [SEED]]   (prints the seed first and, for any failure, the command
// that reruns exactly that case: prop_layout 1 CASE_SEED)
//
// Per case (random array R x C 1..8 with a core pattern of m = 2, 4 or 8, random data pattern,
// random shape):
//   data predictor on compressed weights (s24_gemm_cycles_compressed) == on the same weights
//   dense (s24_gemm_cycles_dense), every field of the totals;
//   shape predictor (s24_gemm_cycles_shape) == the data predictors for weights with exactly n
//   nonzeros in every group when the data's m <= the core's m (the data its documentation calls
//   exact), and busy cycles == the sum of s24_core_cycles over the planned jobs;
//   for other data of the pattern (zeros, longer groups), data cycles <= shape cycles + the
//   documented slack per extra job, and never more beats;
//   on a sparse core with data of its own pattern: every weight beat packed from the
//   compressed form (s24_w_beat_compressed) == the beat packed from the dense form
//   (s24_w_beat_dense, beat 0), bit for bit, rows past the matrix included;
//   s24_linear_fold_bias: sum_k W*(x - ZI) + bias == sum_k W*x + folded bias (mod 2^32).
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "s24_layout.h"
#include "s24_cycles.h"
#include "s24_model.h"

#include "../common/prop.h"  // g_state, rnd, rnd_below, g_why, CHECK (tests/common/)

static const s24_pattern_t kCore[] = {{2, 4}, {1, 4}, {3, 4}, {4, 4}, {2, 8}, {1, 8},
                                      {4, 8}, {8, 8}, {1, 2}, {2, 2}};
static const s24_pattern_t kData[] = {{2, 4}, {1, 4}, {3, 4}, {4, 4}, {2, 8}, {1, 8},
                                      {4, 8}, {6, 8}, {8, 8}, {1, 2}, {2, 2}};

// Weights of pattern p with exactly min(n, len) nonzeros (never 0) in every group of every row.
static void exact_weights(s24_pattern_t p, int8_t *a, size_t rows, size_t k, int zeros) {
  memset(a, 0, rows * k);
  for (size_t r = 0; r < rows; r++) {
    for (size_t g0 = 0; g0 < k; g0 += p.m) {
      const size_t len = (k - g0 < p.m) ? k - g0 : p.m;
      uint32_t keep = 0, cnt = 0;
      while (cnt < p.n && cnt < len) {  // n distinct random positions of the group
        const uint32_t e = (uint32_t)rnd_below(len);
        if (!(keep & (1u << e))) {
          keep |= 1u << e;
          cnt++;
        }
      }
      for (uint32_t e = 0; e < len; e++) {
        if (!(keep & (1u << e))) continue;
        if (zeros && rnd_below(3) == 0) continue;  // other data of the pattern: some zeros
        int8_t v = (int8_t)(rnd() & 0xFF);
        a[r * k + g0 + e] = v != 0 ? v : 1;
      }
    }
  }
}

static int same_totals(const s24_gemm_cycles_t *x, const s24_gemm_cycles_t *y) {
  return x->jobs == y->jobs && x->col_tiles == y->col_tiles && x->job_beats == y->job_beats &&
         x->max_job_beats == y->max_job_beats && x->beats == y->beats &&
         x->busy_cycles == y->busy_cycles && x->tiles == y->tiles;
}

static int run_case(uint64_t seed, int *cmp_beats, int *exact) {
  g_state = seed;
  g_why[0] = '\0';
  int ok = 0;
  *cmp_beats = 0;
  *exact = 0;
  const s24_pattern_t core = kCore[rnd_below(sizeof kCore / sizeof kCore[0])];
  const s24_array_t hw = {(uint32_t)(1 + rnd_below(8)), (uint32_t)(1 + rnd_below(8)), core.n,
                          core.m, 0, (uint32_t)rnd_below(2)};  // has_pair: 1:m data in pair mode
  s24_pattern_t data = kData[rnd_below(sizeof kData / sizeof kData[0])];
  if (rnd_below(3) == 0) data = core;
  const size_t lcm = data.m > core.m ? data.m : core.m;  // both powers of two
  const size_t mr = 1 + rnd_below(3 * hw.rows + 2);
  const size_t k = rnd_below(4) == 0 ? 1 + rnd_below(3 * lcm) : lcm * (1 + rnd_below(6));
  const size_t nc = 1 + rnd_below(3 * hw.cols + 2);
  int8_t *a = prop_malloc(mr * k);
  int8_t *vals = prop_malloc(mr * k);
  uint8_t *meta = prop_malloc(mr * k + 1);
  s24_geom_t geom;
  uint32_t *w1 = NULL, *w2 = NULL;
  if (a == NULL || vals == NULL || meta == NULL) {
    snprintf(g_why, sizeof g_why, "out of memory");
    goto done;
  }
  CHECK(s24_geom(hw, &geom) == S24_OK, "s24_geom failed");

  // exact data: shape == dense == compressed predictions. Data groups no longer than the
  // core's (data m <= core m): every row of every hardware group holds its worst case. Longer
  // data groups spread a row's n nonzeros over several hardware groups, so some of them can hold
  // fewer in every row of a tile: the shape is then the bound checked below.
  exact_weights(data, a, mr, k, 0);
  s24_gemm_cycles_t shape, fromdense, fromcomp, other;
  CHECK(s24_gemm_cycles_shape(hw, data, mr, k, nc, &shape) == S24_OK, "shape predictor failed");
  CHECK(s24_gemm_cycles_dense(hw, a, mr, k, nc, &fromdense) == S24_OK, "dense predictor failed");
  if (data.m <= core.m) {
    CHECK(same_totals(&shape, &fromdense),
          "shape predictor != data predictor on exact %u:%u data: busy %" PRIu64 " vs %" PRIu64
          ", jobs %" PRIu64 " vs %" PRIu64,
          data.n, data.m, shape.busy_cycles, fromdense.busy_cycles, shape.jobs, fromdense.jobs);
    *exact = 1;
  }
  if (k % data.m == 0) {
    s24_where_t w;
    CHECK(s24_compress(data, a, mr, k, vals, meta, &w) == S24_OK, "compress failed");
    int8_t *scratch = malloc(mr * k);  // the compressed predictor decompresses into it
    CHECK(scratch != NULL &&
              s24_gemm_cycles_compressed(hw, data, vals, meta, mr, k, nc, scratch, &fromcomp,
                                         &w) == S24_OK,
          "compressed predictor failed");
    free(scratch);
    CHECK(same_totals(&fromdense, &fromcomp), "compressed predictor != dense predictor");
  }
  {  // busy cycles are the sum of s24_core_cycles over the jobs (equal beats: one per cap), on
     // the array of the mode the GEMM runs in (pair: s24_array_pair's, 2R rows a tile)
    s24_cycles_t cy;
    s24_array_t jh = hw;
    CHECK(!shape.pair || s24_array_pair(hw, &jh) == S24_OK, "pair mode on a core without it");
    // (pair mode only when no hardware group can hold two nonzeros: 1:m data with m >= the
    // core's or K <= m, or K = 1)
    CHECK(!shape.pair || (data.n == 1 && (data.m >= core.m || k <= data.m)) || k == 1,
          "pair mode for %u:%u data", data.n,
          data.m);
    const uint64_t beats = shape.job_beats / ((mr + jh.rows - 1) / jh.rows);
    CHECK(shape.job_beats % ((mr + jh.rows - 1) / jh.rows) == 0, "row tiles with unequal beats");
    uint64_t busy = 0, left = (mr + jh.rows - 1) / jh.rows;
    const uint64_t cap = s24_job_max_row_tiles(jh, beats, shape.col_tiles);
    CHECK(cap > 0, "job cap 0");
    for (uint64_t j = 0; j < shape.jobs; j++) {
      const uint64_t n = left < cap ? left : cap;
      CHECK(s24_core_cycles_hw(jh, beats, n * shape.col_tiles, &cy) == S24_OK,
            "core cycles failed");
      busy += cy.busy_cycles;
      left -= n;
    }
    CHECK(left == 0, "%" PRIu64 " row tiles left after the jobs", left);
    CHECK(busy == shape.busy_cycles, "busy %" PRIu64 " != sum over jobs %" PRIu64,
          shape.busy_cycles, busy);
    CHECK(shape.beats == shape.col_tiles * shape.job_beats, "beats != col tiles * job beats");
  }

  // other data of the pattern (zeros; longer data groups): at most the documented slack above
  // the shape prediction, and never more beats
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1) exact_weights(data, a, mr, k, 1);
    CHECK(s24_gemm_cycles_dense(hw, a, mr, k, nc, &other) == S24_OK, "dense predictor failed");
    const uint64_t extra = other.jobs > shape.jobs ? other.jobs - shape.jobs : 0;
    // (an extra job's fill and drain: tile rows of the data's mode, 2R in the pair mode)
    const uint64_t rows = other.pair ? 2u * hw.rows : hw.rows;
    const uint64_t slack = extra * (rows + hw.cols + S24_CORE_PIPE_CYCLES);
    // (thinner data may leave the pair mode when it no longer pays, s24_pair_choose: it then
    // takes more beats, in fewer cycles than the rule's estimate of the pair mode)
    CHECK(other.busy_cycles <= shape.busy_cycles + slack &&
              (other.beats <= shape.beats || other.pair != shape.pair),
          "data pass %d: %" PRIu64 " cycles > shape %" PRIu64 " + %" PRIu64, pass,
          other.busy_cycles, shape.busy_cycles, slack);
  }

  // packers: compressed == dense, on a sparse core with data of its own pattern
  if (core.n != core.m && k % core.m == 0) {
    *cmp_beats = 1;
    exact_weights(core, a, mr, k, rnd_below(2));
    s24_where_t w;
    CHECK(s24_compress(core, a, mr, k, vals, meta, &w) == S24_OK, "compress (core) failed");
    w1 = prop_calloc(geom.w_words, 4);
    w2 = prop_calloc(geom.w_words, 4);
    CHECK(w1 != NULL && w2 != NULL, "out of memory");
    for (size_t r0 = 0; r0 < mr + hw.rows; r0 += hw.rows) {  // one tile past the matrix too
      for (size_t g = 0; g < k / core.m; g++) {
        s24_w_beat_compressed(&geom, w1, vals, meta, mr, k, r0, g);
        s24_w_beat_dense(&geom, w2, a, mr, k, r0, g, 0);
        CHECK(memcmp(w1, w2, geom.w_words * 4) == 0,
              "weight beat of rows %zu.. group %zu: compressed and dense packers differ", r0, g);
        for (uint32_t rr = 0; rr < hw.rows; rr++) {
          uint32_t prev = 0;
          for (uint32_t s = 0; s < core.n; s++) {  // strictly increasing indices, < m
            const uint32_t idx = s24_w_index(&geom, w1, rr, s);
            CHECK(idx < core.m && (s == 0 || idx > prev), "row %zu slot %u: index %u",
                  r0 + rr, s, idx);
            prev = idx;
          }
        }
      }
    }
  }

  // activation packers: from B (k x nc) and from its transpose (a layer's X, nc x k) alike,
  // for every group and column tile, one tile past the matrix too
  {
    int8_t *bm = prop_calloc(k * nc, 1), *bt = prop_calloc(k * nc, 1);
    uint32_t *a1 = prop_calloc(geom.a_words, 4), *a2 = prop_calloc(geom.a_words, 4);
    CHECK(bm != NULL && bt != NULL && a1 != NULL && a2 != NULL, "out of memory");
    for (size_t i = 0; i < k; i++) {
      for (size_t j = 0; j < nc; j++) bt[j * k + i] = bm[i * nc + j] = (int8_t)(rnd() & 0xFF);
    }
    for (size_t j0 = 0; j0 < nc + hw.cols; j0 += hw.cols) {
      for (size_t g = 0; g < (k + hw.sparse_m - 1) / hw.sparse_m; g++) {
        s24_a_beat(&geom, a1, bm, k, nc, g, j0);
        s24_a_beat_t(&geom, a2, bt, k, nc, g, j0);
        CHECK(memcmp(a1, a2, geom.a_words * 4) == 0,
              "activation beat of columns %zu.. group %zu: B and B^T packers differ", j0, g);
      }
    }
  }

  // the implicit GEMM: a convolution's beats read in place (s24_a_beat_conv) equal the beats of
  // its im2col (s24_conv_row, then s24_a_beat_t), for a random geometry, channel window, padding
  // and alignment (a word-aligned input and channels in fours too, for the word path)
  {
    s24_conv_src_t cs;
    cs.n = (int32_t)rnd_below(2) + 1;
    cs.h = (int32_t)rnd_below(7) + 1;
    cs.w = (int32_t)rnd_below(7) + 1;
    cs.c = rnd_below(2) ? 4 * ((int32_t)rnd_below(6) + 1) : (int32_t)rnd_below(9) + 1;
    cs.cs = rnd_below(2) ? cs.c : (int32_t)rnd_below((uint32_t)cs.c) + 1;
    if (rnd_below(2) && cs.c % 4 == 0) cs.cs = 4 * ((int32_t)rnd_below((uint32_t)cs.c / 4) + 1);
    cs.c0 = (int32_t)rnd_below((uint32_t)(cs.c - cs.cs + 1));
    if (rnd_below(2)) cs.c0 &= ~3;
    cs.kh = (int32_t)rnd_below(4) + 1;
    cs.kw = (int32_t)rnd_below(4) + 1;
    cs.sh = (int32_t)rnd_below(3) + 1;
    cs.sw = (int32_t)rnd_below(3) + 1;
    cs.dh = (int32_t)rnd_below(3) + 1;
    cs.dw = (int32_t)rnd_below(3) + 1;
    cs.ph = (int32_t)rnd_below(3);
    cs.pw = (int32_t)rnd_below(3);
    cs.oh = (int32_t)rnd_below(5) + 1;  // any output size: positions past the input are padding
    cs.ow = (int32_t)rnd_below(5) + 1;
    cs.pad = (int8_t)(rnd() & 0xFF);
    const size_t in_bytes = (size_t)cs.n * cs.h * cs.w * cs.c, off = rnd_below(2) ? 0 : 1 + rnd_below(3);
    int8_t *in = prop_calloc(in_bytes + 4, 1);
    const size_t ck = (size_t)cs.kh * cs.kw * cs.cs, cn = (size_t)cs.n * cs.oh * cs.ow;
    int8_t *cols = prop_calloc(ck * cn, 1);
    uint32_t *a1 = prop_calloc(geom.a_words, 4), *a2 = prop_calloc(geom.a_words, 4);
    CHECK(in != NULL && cols != NULL && a1 != NULL && a2 != NULL, "out of memory");
    for (size_t i = 0; i < in_bytes + 4; i++) in[i] = (int8_t)(rnd() & 0xFF);
    cs.x = in + off;
    for (size_t p = 0; p < cn; p++) s24_conv_row(&cs, p, cols + p * ck);
    const size_t ng = (ck + hw.sparse_m - 1) / hw.sparse_m;
    uint8_t *reps = prop_calloc(ng, 1);
    uint32_t *tile = prop_calloc(ng * 3 + 1, geom.a_words * 4);
    CHECK(reps != NULL && tile != NULL, "out of memory");
    for (size_t j0 = 0; j0 < cn + hw.cols; j0 += hw.cols) {
      for (size_t g = 0; g < (ck + hw.sparse_m - 1) / hw.sparse_m; g++) {
        s24_a_beat_t(&geom, a1, cols, ck, cn, g, j0);
        s24_a_beat_conv(&geom, a2, &cs, g, j0);
        CHECK(memcmp(a1, a2, geom.a_words * 4) == 0,
              "conv beat of columns %zu.. group %zu (input %dx%dx%dx%d, channels %d+%d, filter "
              "%dx%d, stride %dx%d, dilation %dx%d, pad %d,%d, output %dx%d, offset %zu): "
              "differs from its im2col's", j0, g, cs.n, cs.h, cs.w, cs.c, cs.c0, cs.cs, cs.kh,
              cs.kw, cs.sh, cs.sw, cs.dh, cs.dw, cs.ph, cs.pw, cs.oh, cs.ow, off);
      }
      // a whole tile at once (the driver's call): each group's beat its random count of times
      for (size_t g = 0; g < ng; g++) reps[g] = (uint8_t)rnd_below(4);
      const size_t got = s24_a_beats_conv(&geom, tile, &cs, j0, 0, ng, reps);
      size_t at = 0;
      for (size_t g = 0; g < ng; g++) {
        s24_a_beat_t(&geom, a1, cols, ck, cn, g, j0);
        for (uint8_t r = 0; r < reps[g]; r++, at++) {
          CHECK(at < got && memcmp(tile + at * geom.a_words, a1, geom.a_words * 4) == 0,
                "conv tile of columns %zu..: beat %zu (group %zu) differs from its im2col's", j0,
                at, g);
        }
      }
      CHECK(got == at, "conv tile of columns %zu..: %zu beats, expected %zu", j0, got, at);
    }
  }

  // an int8 result tile unpacked whole (s24_r8_tile) equals it byte by byte (s24_r8_get)
  {
    const uint32_t rows = (uint32_t)rnd_below(2 * hw.rows) + 1, nb = s24_r8_beats(rows);
    const uint32_t ncols = (uint32_t)rnd_below(hw.cols) + 1;
    const size_t ldy = rows + rnd_below(5);
    uint32_t *rb = prop_calloc(nb, geom.r_words * 4);
    int8_t *yt = prop_calloc(ncols * ldy, 1);
    CHECK(rb != NULL && yt != NULL, "out of memory");
    for (size_t i = 0; i < (size_t)nb * geom.r_words; i++) rb[i] = rnd();
    s24_r8_tile(rb, geom.r_words, hw.cols, rows, ncols, yt, ldy);
    for (uint32_t r = 0; r < rows; r++) {
      for (uint32_t cc = 0; cc < ncols; cc++) {
        CHECK(yt[cc * ldy + r] == s24_r8_get(rb, geom.r_words, hw.cols, r, cc),
              "r8 tile: row %u column %u", r, cc);
      }
    }
  }

  // bias folding: the zero point moves into the bias exactly (uint32 wraparound)
  {
    const int32_t zi = (int32_t)rnd_below(256) - 128;
    const int32_t bias = (int32_t)(uint32_t)rnd();
    uint32_t with_zp = (uint32_t)bias, without = 0;
    for (size_t i = 0; i < k; i++) {
      const int32_t x = (int32_t)(int8_t)(rnd() & 0xFF);
      with_zp += (uint32_t)((int32_t)a[i] * (x - zi));
      without += (uint32_t)((int32_t)a[i] * x);
    }
    CHECK(with_zp == without + s24_linear_fold_bias(a, k, bias, zi),
          "fold_bias: ZI %d bias %d k %zu", zi, bias, k);
  }
  ok = 1;
done:
  if (!ok) {
    fprintf(stderr, "  array %ux%u %u:%u, data %u:%u, M %zu K %zu N %zu\n", hw.rows, hw.cols,
            core.n, core.m, data.n, data.m, mr, k, nc);
  }
  prop_free_all();
  return ok;
}

int main(int argc, char **argv) {
  unsigned long long cases = 3000, seed = 20261123;
  if (!prop_args("prop_layout", argc, argv, &cases, &seed)) return 2;
  printf("prop_layout: %llu cases, seed %llu (reproduce: %s %llu %llu)\n", cases, seed, argv[0],
         cases, seed);
  uint64_t master = seed;
  unsigned long long packed = 0, exact_n = 0;
  for (unsigned long long i = 0; i < cases; i++) {
    const uint64_t cs = cases == 1 ? seed : s24_rng_next(&master);
    int cmp = 0, ex = 0;
    if (!run_case(cs, &cmp, &ex)) {
      fprintf(stderr, "prop_layout: case %llu FAILED: %s\n  rerun: %s 1 %llu\n", i, g_why,
              argv[0], (unsigned long long)cs);
      return 1;
    }
    packed += (unsigned long long)cmp;
    exact_n += (unsigned long long)ex;
  }
  printf("prop_layout: %llu/%llu cases passed (%llu with shape == data cycles, %llu with the "
         "packers compared)\n", cases, cases, exact_n, packed);
  return 0;
}
