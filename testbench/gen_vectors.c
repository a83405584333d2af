// SPDX-License-Identifier: Apache-2.0
// gen_vectors: writes model-generated hex vectors for the Icarus testbench of s24_core.
//
// Usage: gen_vectors R C N M SEED JOBS OUTDIR
// Writes OUTDIR/{jobs,w,a,r,sizes}.hex: per job {pair, tiles, beats}; weight, activation and
// expected result beats (packed by cmodel/s24_layout.h), C from the C model (s24_gemm_sparse).
// On a 2:m core (m > 2) every other job is 1:m in the pair mode (s24_array_pair: 2R rows a tile).
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "s24_layout.h"
#include "s24_cycles.h"
#include "s24_model.h"

static uint64_t g_state;
static uint32_t rnd(void) { return (uint32_t)(s24_rng_next(&g_state) >> 32); }
static uint32_t urand(uint32_t lo, uint32_t hi) { return lo + rnd() % (hi - lo + 1); }

static void die(const char *what) {
  fprintf(stderr, "gen_vectors: error: %s\n", what);
  exit(1);
}

static void *xcalloc(size_t n, size_t sz) {
  void *p = calloc(n ? n : 1, sz);
  if (!p) die("out of memory");
  return p;
}

// One beat (s24_layout.h words) written as one hex line of nbits bits, most significant first.
static uint32_t g_beat[1024];

static void beat_write(FILE *f, const uint32_t *beat, unsigned nbits) {
  for (int d = (int)((nbits + 3) / 4) - 1; d >= 0; --d) {
    const unsigned p = (unsigned)d * 4, w = nbits - p < 4 ? nbits - p : 4;
    fputc("0123456789abcdef"[s24_bits_get(beat, p, w)], f);
  }
  fputc('\n', f);
}

static FILE *open_out(const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "gen_vectors: error: cannot write %s: %s\n", path, strerror(errno));
    exit(1);
  }
  return f;
}

static int8_t rand_val(int mode, int nonzero) {
  static const int ext[] = {-128, 127, -1, 1};
  for (;;) {
    int v = mode == 0 ? (int)urand(0, 255) - 128 : ext[urand(0, 3)];
    if (v != 0 || !nonzero) return (int8_t)v;
  }
}

int main(int argc, char **argv) {
  if (argc != 8) die("usage: gen_vectors R C N M SEED JOBS OUTDIR");
  const unsigned R = (unsigned)atoi(argv[1]), C = (unsigned)atoi(argv[2]);
  const s24_pattern_t p = {(uint32_t)atoi(argv[3]), (uint32_t)atoi(argv[4])};
  g_state = strtoull(argv[5], NULL, 0) * 0x9E3779B97F4A7C15ULL + 1;
  const unsigned jobs = (unsigned)atoi(argv[6]);
  const char *dir = argv[7];
  const int dense = p.n == p.m;
  if (R < 1 || C < 1 || jobs < 1 || !(p.m == 2 || p.m == 4 || p.m == 8) || p.n < 1 || p.n > p.m)
    die("bad configuration arguments");
  s24_geom_t geom;
  if (s24_geom((s24_array_t){R, C, p.n, p.m, 0, 0}, &geom) != S24_OK) die("bad configuration arguments");
  if (geom.w_words > 1024 || geom.a_words > 1024 || geom.r_words > 1024) die("beat too wide");

  FILE *fj = open_out(dir, "jobs.hex"), *fw = open_out(dir, "w.hex"), *fa = open_out(dir, "a.hex");
  FILE *fr = open_out(dir, "r.hex"), *fs = open_out(dir, "sizes.hex");
  unsigned long total_beats = 0, total_rows = 0, total_tiles = 0, pair_jobs = 0;
  const s24_array_t built = {R, C, p.n, p.m, 0, 1};
  s24_array_t parr;
  s24_geom_t pgeom;
  const int has_pair = s24_array_pair(built, &parr) == S24_OK && s24_geom(parr, &pgeom) == S24_OK;
  const s24_pattern_t core_p = p;
  for (unsigned j = 0; j < jobs; ++j) {
    const int pair = has_pair && (j % 2) == 1;
    const s24_pattern_t p = pair ? (s24_pattern_t){1, core_p.m} : core_p;
    const s24_geom_t *gm = pair ? &pgeom : &geom;
    const unsigned R = gm->rows;
    pair_jobs += (unsigned long)pair;
    const size_t rows = urand(1, 2 * R + 1), cols = urand(1, 2 * C + 1);
    const size_t groups = (j % 3 == 0) ? urand(1, 3) : urand(1, 24), k = groups * p.m;
    const int vmode = (int)urand(0, 1);
    int8_t *a = xcalloc(rows * k, 1), *b = xcalloc(k * cols, 1);
    for (size_t i = 0; i < rows; ++i)
      for (size_t g = 0; g < groups; ++g) {
        unsigned nnz = urand(0, p.n), pos[8];
        for (unsigned e = 0; e < p.m; ++e) pos[e] = e;
        for (unsigned e = p.m - 1; e > 0; --e) {
          unsigned x = urand(0, e), t = pos[e];
          pos[e] = pos[x];
          pos[x] = t;
        }
        for (unsigned e = 0; e < nnz; ++e) a[i * k + g * p.m + pos[e]] = rand_val(vmode, 1);
      }
    for (size_t i = 0; i < k * cols; ++i) b[i] = rand_val(vmode, 0);
    const size_t vcols = dense ? k : s24_values_cols(p, k), mcols = dense ? 0 : s24_meta_cols(p, k);
    int8_t *vals = xcalloc(rows * vcols, 1);
    uint8_t *meta = xcalloc(rows * (mcols ? mcols : 1), 1);
    int32_t *c = xcalloc(rows * cols, sizeof(int32_t));
    s24_where_t where;
    s24_status_t st;
    if (dense) {
      memcpy(vals, a, rows * k);
      st = s24_gemm_dense_ref(a, rows, k, b, cols, NULL, c);
    } else {
      st = s24_compress(p, a, rows, k, vals, meta, &where);
      if (st == S24_OK) st = s24_gemm_sparse(p, vals, meta, rows, k, b, cols, NULL, c, &where);
    }
    if (st != S24_OK) die(s24_strerror(st));
    const size_t tr = (rows + R - 1) / R, tc = (cols + C - 1) / C;
    fprintf(fj, "%08x%08zx%08zx\n", (unsigned)pair, tr * tc, groups);
    for (size_t ti = 0; ti < tr; ++ti)
      for (size_t tj = 0; tj < tc; ++tj) {
        for (size_t g = 0; g < groups; ++g) {
          s24_w_beat_compressed(gm, g_beat, vals, meta, rows, k, ti * R, g);
          beat_write(fw, g_beat, geom.w_bits);
          s24_a_beat(gm, g_beat, b, k, cols, g, tj * C);
          beat_write(fa, g_beat, geom.a_bits);
          ++total_beats;
        }
        for (unsigned r = 0; r < R; ++r) {
          s24_r_beat(gm, g_beat, c, rows, cols, ti * R + r, tj * C);
          beat_write(fr, g_beat, geom.r_bits);
          ++total_rows;
        }
        ++total_tiles;
      }
    free(a);
    free(b);
    free(vals);
    free(meta);
    free(c);
  }
  fprintf(fs, "%08x\n%08lx\n%08lx\n%08lx\n", jobs, total_beats, total_rows, total_tiles);
  if (fclose(fj) || fclose(fw) || fclose(fa) || fclose(fr) || fclose(fs)) die("write failed");
  printf("gen_vectors: %ux%u %u:%u: %u jobs (%lu in pair mode), %lu tiles, %lu beats, %lu result rows in %s\n",
         R, C, p.n, p.m, jobs, pair_jobs, total_tiles, total_beats, total_rows, dir);
  return 0;
}
