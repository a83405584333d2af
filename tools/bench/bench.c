// SPDX-License-Identifier: Apache-2.0
// sparse24 command: `sparse24 bench` in all its modes: the issue-6 performance benchmark,
// --linear and --model-speed (see bench.h). The one part of the command that reaches below the
// public API (the library's backends, the driver, the cycle model): it compares what the
// hardware measured with what the cycle model predicted, job by job.
#include "bench.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"
#include "s24_backend.h"
#include "s24_cycles.h"
#include "s24_drv.h"
#include "s24_drv_host.h"
#include "s24_layout.h"
#include "s24_model.h"

const char s24_perf_bench_usage[] =
    "usage: sparse24 bench [--out DIR] [--first N] [--model-only [--array R:C:n:m]] [--seed S]\n"
    "                      [--backend model|rtl]\n"
    "       sparse24 bench --model-speed [--backend model|rtl] [--shape MxKxN] [--pattern N:M]\n"
    "                      [--reps R]\n"
    "\n"
    "Performance benchmark: the 21 nmSPARSE GEMM shapes (m activations, k reduction,\n"
    "n output features; the 2:4 weight is n x k) and GEMV (m = 1, 4, 16). Each shape at full\n"
    "size through the cycle model, 2:4 against the same layer dense on the same 8x8 2:4 core\n"
    "(2 beats per group), and scaled down (every dimension / 16) on the Verilated RTL through\n"
    "the host driver: measured busy cycles must equal the prediction, C the model bit for bit.\n"
    "Writes DIR/results.csv, DIR/plot.dat and DIR/plot.gp (all or none, after every shape ran;\n"
    "DIR is checked first); prints tables and the targets reached or missed, and a progress\n"
    "line on stderr before each RTL run.\n"
    "\n"
    "  --out DIR       output directory (default: bench/ next to the sparse24 executable,\n"
    "                  i.e. build/bench from any working directory; created if missing)\n"
    "  --first N       only the first N shapes (quick check)\n"
    "  --model-only    skip the RTL runs (= --backend model)\n"
    "  --backend B     rtl (default): model and RTL runs; model: as --model-only\n"
    "  --array R:C:n:m with --model-only: the core to model (default 8:8:2:4, the RTL build)\n"
    "  --seed S        seed of the random scaled-down data (default 1)\n"
    "  --model-speed   time one GEMM of a backend instead (implied by --shape, --reps,\n"
    "                  --pattern; there --model-only means --backend model)\n"
    "  --linear        `linear` (fused int8 layer) vs `gemm` cycles instead (with --out, --first,\n"
    "                  --seed): DIR/linear.csv\n";

#define SCALE 16u

// The output directory of a benchmark (tools/outfile.h): at most BENCH_DIR_MAX bytes (longer: a
// usage error), each file's path in paths[i] (DIR/names[i]). If DIR exists, check_out_dir adds
// the files to outs at once (*added = 1); otherwise DIR's parent must be a writable directory,
// and add_outs creates DIR and adds them once the runs are done. 0 or an exit code, after
// printing the error.
#define BENCH_DIR_MAX 3000
#define BENCH_PATH_MAX 4200

typedef struct {
  size_t m, k, n;  // activations, reduction, output features
  int gemv;
} shape_t;

static const shape_t kShapes[] = {
    {256, 1024, 1024, 0},    {1024, 1024, 1024, 0},   {4096, 1024, 1024, 0},
    {256, 2048, 2048, 0},    {1024, 2048, 2048, 0},   {4096, 2048, 2048, 0},
    {256, 4096, 4096, 0},    {1024, 4096, 4096, 0},   {4096, 4096, 4096, 0},
    {256, 8192, 8192, 0},    {1024, 8192, 8192, 0},   {4096, 8192, 8192, 0},
    {1024, 1024, 4096, 0},   {4096, 1024, 4096, 0},   {1024, 4096, 1024, 0},
    {4096, 4096, 1024, 0},   {1024, 5120, 20480, 0},  {4096, 5120, 20480, 0},
    {1024, 20480, 5120, 0},  {4096, 20480, 5120, 0},  {10240, 10240, 10240, 0},
    {1, 4096, 4096, 1},      {4, 4096, 4096, 1},      {16, 4096, 4096, 1},
    {1, 5120, 20480, 1},     {4, 5120, 20480, 1},     {16, 5120, 20480, 1},
    {1, 20480, 5120, 1},     {4, 20480, 5120, 1},     {16, 20480, 5120, 1},
};
#define NUM_SHAPES (sizeof(kShapes) / sizeof(kShapes[0]))
#define NUM_NMSPARSE 21u

// One shape's results.
typedef struct {
  shape_t full, small;
  s24_gemm_cycles_t sp, dn, p14;      // full size, cycle model (2:4, dense, 1:4)
  s24_gemm_cycles_t rsp, rdn, rp14;   // scaled: measured on the RTL (cycles, beats, jobs)
  uint64_t sim_cycles_sp;             // co-simulated cycles incl. driver register traffic
  int rtl_done;
  double wall_s;
} result_t;

typedef struct {
  uint64_t s;
} rng_t;

static uint64_t rnd(rng_t *r) { return s24_rng_next(&r->s); }

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// Every dimension / SCALE rounded to the nearest valid size: >= 1, K a multiple of 4.
static shape_t scaled(shape_t s) {
  shape_t o = s;
  o.m = (s.m + SCALE / 2) / SCALE;
  o.n = (s.n + SCALE / 2) / SCALE;
  o.k = ((s.k + SCALE * 2) / (SCALE * 4)) * 4;
  if (o.m < s.m && o.m < SCALE) o.m = s.m < SCALE ? s.m : SCALE;  // GEMV keeps m = 1, 4, 16
  if (o.n == 0) o.n = 1;
  if (o.k == 0) o.k = 4;
  return o;
}

static const s24_pattern_t kSparse = {2, 4}, kDense = {4, 4}, kOne = {1, 4};

static void bench_shape(size_t i, int small, size_t *m, size_t *k, size_t *n, int *gemv) {
  const shape_t s = small ? scaled(kShapes[i]) : kShapes[i];
  *m = s.m;
  *k = s.k;
  *n = s.n;
  *gemv = s.gemv;
}

// peak dense-equivalent MACs per cycle of the array
static double peak(s24_array_t hw) { return (double)hw.rows * hw.cols * hw.sparse_m; }

static double util(s24_array_t hw, shape_t s, uint64_t cycles) {
  return (double)s.m * (double)s.k * (double)s.n / ((double)cycles * peak(hw));
}

// utilization of a mode: dense-equivalent MACs per cycle over that mode's peak (dense: half the
// 2:4 peak, the pair mode of 1:4 data: twice it; pair == 1 when the GEMM ran in pair mode)
static double util_mode(s24_array_t hw, shape_t s, uint64_t cycles, int dense, int pair) {
  const double f = dense ? (double)hw.sparse_n / hw.sparse_m : pair ? 2.0 : 1.0;
  return util(hw, s, cycles) / f;
}

// Weight-stream bound of a GEMM: bytes of values + metadata / useful bytes of one weight beat.
static double bw_bound(s24_array_t hw, shape_t s) {
  const double bytes = (double)s.n * (double)(s24_values_cols(kSparse, s.k) +
                                              s24_meta_cols(kSparse, s.k));
  const double beat = (double)hw.rows * hw.sparse_n * (8.0 + (double)s24_idx_bits(
                                                                  (s24_pattern_t){hw.sparse_n,
                                                                                  hw.sparse_m})) /
                      8.0;
  return bytes / beat;
}

// One scaled shape on the RTL: 2:4 pruned (all kept values nonzero) and dense, each checked
// cycle-exact against the model's prediction and bit-exact against the golden model.
static int run_rtl(s24_bdev_t *rtl, s24_array_t hw, const shape_t *sm,
                   uint64_t seed, result_t *res) {
  s24_dev_t *const dev = &rtl->dev;
  const size_t M = sm->n, K = sm->k, N = sm->m;  // weights M x K, activations K x N
  int8_t *a = malloc(M * K), *sp = malloc(M * K), *vals = malloc(M * K);
  int8_t *sp1 = malloc(M * K), *vals1 = malloc(M * K);
  uint8_t *meta = malloc(M * K), *meta1 = malloc(M * K);
  int8_t *b = malloc(K * N), *scratch = malloc(M * K);
  int32_t *want = malloc(M * N * sizeof(int32_t)), *got = malloc(M * N * sizeof(int32_t));
  int rc = 0;
  if (!a || !sp || !vals || !meta || !sp1 || !vals1 || !meta1 || !b || !want || !got || !scratch) {
    rc = s24_cli_error(EXIT_DATA, "bench", "out of memory for the %zux%zux%zu run", sm->m, sm->k, sm->n);
    goto out;
  }
  rng_t r = {seed};
  for (size_t i = 0; i < M * K; i++) {  // nonzero weights: every group at its worst case
    int8_t v = (int8_t)(rnd(&r) % 255u - 127u);
    a[i] = v != 0 ? v : -128;
  }
  for (size_t i = 0; i < K * N; i++) b[i] = (int8_t)(rnd(&r) & 0xFF);
  s24_where_t where;
  s24_status_t st = s24_prune(kSparse, a, M, K, sp);
  if (st == S24_OK) st = s24_compress(kSparse, sp, M, K, vals, meta, &where);
  if (st == S24_OK) st = s24_prune(kOne, a, M, K, sp1);  // 1:4: the pair mode
  if (st == S24_OK) st = s24_compress(kOne, sp1, M, K, vals1, meta1, &where);
  if (st != S24_OK) {
    rc = s24_cli_error(EXIT_DATA, "bench", "preparing %zux%zux%zu: %s", sm->m, sm->k, sm->n,
                  s24_strerror(st));
    goto out;
  }
  // 2:4, dense, 1:4 (kinds 0, 1, 2): a job in each mode after one in another
  for (int kind_i = 0; kind_i < 3; kind_i++) {
    const int dense = kind_i == 1;
    const s24_pattern_t p = kind_i == 2 ? kOne : kSparse;
    const int8_t *v = kind_i == 2 ? vals1 : vals;
    const uint8_t *md = kind_i == 2 ? meta1 : meta;
    s24_gemm_cycles_t pred, shape_pred;
    const uint64_t sim0 = s24_rtl_sim_cycles(rtl->sim);
    st = dense ? s24_gemm_cycles_dense(hw, a, M, K, N, &pred)
               : s24_gemm_cycles_compressed(hw, p, v, md, M, K, N, scratch, &pred, &where);
    if (st == S24_OK) {
      st = s24_gemm_cycles_shape(hw, dense ? kDense : p, M, K, N, &shape_pred);
    }
    if (st == S24_OK) {
      st = dense ? s24_gemm_dense_ref(a, M, K, b, N, NULL, want)
                 : s24_gemm_sparse(p, v, md, M, K, b, N, NULL, want, &where);
    }
    if (st == S24_OK) {
      st = dense ? s24_gemm_dense(dev, a, M, K, b, N, NULL, got)
                 : s24_gemm_compressed(dev, p, v, md, M, K, b, N, NULL, got, &where);
    }
    const char *kind = dense ? "dense" : kind_i == 2 ? "1:4" : "2:4";
    if (st != S24_OK) {
      rc = s24_cli_error(EXIT_DATA, "bench", "rtl %s %zux%zux%zu: %s", kind, sm->m, sm->k, sm->n,
                    s24_strerror(st));
      goto out;
    }
    for (size_t i = 0; i < M * N; i++) {
      if (got[i] != want[i]) {
        rc = s24_cli_error(EXIT_DATA, "bench", "rtl %s %zux%zux%zu: C[%zu][%zu] = %" PRId32 ", model %" PRId32,
                      kind, sm->m, sm->k, sm->n, i / N, i % N, got[i], want[i]);
        goto out;
      }
    }
    const s24_counters_t *c = &dev->counters;
    if (c->cycles != pred.busy_cycles || c->beats != pred.beats || c->jobs != pred.jobs ||
        c->tiles != pred.tiles || pred.busy_cycles != shape_pred.busy_cycles) {
      rc = s24_cli_error(EXIT_DATA, "bench",
                    "rtl %s %zux%zux%zu: measured %" PRIu64 " cycles %" PRIu64
                    " beats, predicted %" PRIu64 " %" PRIu64 " (shape-only %" PRIu64 ")",
                    kind, sm->m, sm->k, sm->n, c->cycles, c->beats, pred.busy_cycles,
                    pred.beats, shape_pred.busy_cycles);
      goto out;
    }
    s24_gemm_cycles_t *dst = dense ? &res->rdn : kind_i == 2 ? &res->rp14 : &res->rsp;
    *dst = pred;  // == measured (checked above)
    if (kind_i == 0) res->sim_cycles_sp = s24_rtl_sim_cycles(rtl->sim) - sim0;
  }
  res->rtl_done = 1;
out:
  free(a);
  free(scratch);
  free(sp);
  free(vals);
  free(meta);
  free(sp1);
  free(vals1);
  free(meta1);
  free(b);
  free(want);
  free(got);
  return rc;
}

static int cmp_double(const void *x, const void *y) {
  const double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

static double median(double *v, size_t n) {
  qsort(v, n, sizeof(double), cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void shape_name(const shape_t *s, char *buf, size_t len) {
  snprintf(buf, len, "%zux%zux%zu", s->m, s->k, s->n);
}

// CSV (exact header of issue 6).
static void write_csv(FILE *f, s24_array_t hw, const result_t *res, size_t count) {
  fprintf(f, "shape,m,k,n,pattern,array,cycles_sparse,cycles_dense,speedup,utilization,source\n");
  for (size_t i = 0; i < count; i++) {
    const result_t *r = &res[i];
    char name[64];
    shape_name(&r->full, name, sizeof name);
    // 2:4 rows, then 1:4 rows (utilization against the mode's peak: the pair mode's is twice
    // the 2:4 peak)
    for (int one = 0; one < 2; one++) {
      for (int rtl = 0; rtl < 2; rtl++) {
        if (rtl && !r->rtl_done) continue;
        const shape_t *s = rtl ? &r->small : &r->full;
        const s24_gemm_cycles_t *gs = one ? (rtl ? &r->rp14 : &r->p14) : (rtl ? &r->rsp : &r->sp);
        const uint64_t cs = gs->busy_cycles;
        const uint64_t cd = rtl ? r->rdn.busy_cycles : r->dn.busy_cycles;
        fprintf(f, "%s,%zu,%zu,%zu,%s,%ux%u,%" PRIu64 ",%" PRIu64 ",%.4f,%.4f,%s\n", name, s->m,
                s->k, s->n, one ? "1:4" : "2:4", hw.rows, hw.cols, cs, cd, (double)cd / (double)cs,
                util_mode(hw, *s, cs, 0, (int)gs->pair), rtl ? "rtl" : "model");
      }
    }
  }
}

// Plot data (one line per shape: name, speedups and utilizations of the full-size model run and
// of the scaled RTL run, NaN when not run) and the gnuplot script that draws it.
static void write_plot(FILE *f, FILE *gp, const char *dir, s24_array_t hw, const result_t *res,
                       size_t count) {
  fprintf(f, "# shape speedup_model speedup_rtl utilization_model utilization_rtl "
             "speedup14_model speedup14_rtl\n");
  for (size_t i = 0; i < count; i++) {
    const result_t *r = &res[i];
    char name[64];
    shape_name(&r->full, name, sizeof name);
    fprintf(f, "%s%s %.4f ", name, r->full.gemv ? "(GEMV)" : "",
            (double)r->dn.busy_cycles / (double)r->sp.busy_cycles);
    if (r->rtl_done) {
      fprintf(f, "%.4f ", (double)r->rdn.busy_cycles / (double)r->rsp.busy_cycles);
    } else {
      fprintf(f, "NaN ");
    }
    fprintf(f, "%.4f ", util(hw, r->full, r->sp.busy_cycles));
    if (r->rtl_done) {
      fprintf(f, "%.4f ", util(hw, r->small, r->rsp.busy_cycles));
    } else {
      fprintf(f, "NaN ");
    }
    fprintf(f, "%.4f ", (double)r->dn.busy_cycles / (double)r->p14.busy_cycles);
    if (r->rtl_done) {
      fprintf(f, "%.4f\n", (double)r->rdn.busy_cycles / (double)r->rp14.busy_cycles);
    } else {
      fprintf(f, "NaN\n");
    }
  }
  char path[4200];
  snprintf(path, sizeof path, "%s/plot.gp", dir);
  fprintf(gp,
          "# sparse24 bench plot (written by sparse24 bench): gnuplot -e \"dir='%s'\" %s\n"
          "if (!exists('dir')) dir = '%s'\n"
          "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
          "  set terminal pngcairo size 1400,650 font ',10'; out = dir.'/bench.png'\n"
          "} else {\n"
          "  set terminal svg size 1400,650; out = dir.'/bench.svg'\n"
          "}\n"
          "set output out\n"
          "print 'plot: '.out\n"
          "set title 'sparse24 %ux%u %u:%u core: 2:4 and 1:4 against the same layer dense on the "
          "same core (full size: cycle model; /16: RTL, measured)'\n"
          "set style data histograms\n"
          "set style histogram clustered gap 1\n"
          "set style fill solid 0.85 border -1\n"
          "set boxwidth 0.9\n"
          "set xtics rotate by -45 font ',8' nomirror\n"
          "set ylabel 'speedup = dense cycles / sparse cycles'\n"
          "set yrange [0:4.6]\n"
          "set ytics 0.25 nomirror\n"
          "set y2label '2:4 utilization = m*k*n / (cycles * %.0f)'\n"
          "set y2range [0:2.3]\n"
          "set y2tics 0.1\n"
          "set grid ytics\n"
          "set key top center horizontal maxrows 2 font ',9'\n"
          "set arrow from graph 0, first 1.95 to graph 1, first 1.95 nohead dt 2 lw 1.5 lc rgb "
          "'dark-green'\n"
          "set arrow from graph 0, first 1.10 to graph 1, first 1.10 nohead dt 3 lw 1.5 lc rgb "
          "'red'\n"
          "d = dir.'/plot.dat'\n"
          "plot d using 2:xtic(1) title '2:4 speedup, full size' lc rgb '#4477aa', \\\n"
          "     d using 3 title '2:4 speedup, /16 on RTL' lc rgb '#ee8866', \\\n"
          "     d using 6 title '1:4 speedup, full size' lc rgb '#228833', \\\n"
          "     d using 7 title '1:4 speedup, /16 on RTL' lc rgb '#ccbb44', \\\n"
          "     d using ($0):4 axes x1y2 with points pt 7 ps 1.1 lc rgb 'black' title "
          "'utilization, full size', \\\n"
          "     d using ($0):5 axes x1y2 with points pt 6 ps 1.1 lc rgb '#aa3377' title "
          "'utilization, /16 on RTL', \\\n"
          "     NaN with lines dt 2 lw 1.5 lc rgb 'dark-green' title 'target 1.95x', \\\n"
          "     NaN with lines dt 3 lw 1.5 lc rgb 'red' title 'cuSPARSELt 2:4 on H100: median "
          "1.10x'\n",
          dir, path, dir, hw.rows, hw.cols, hw.sparse_n, hw.sparse_m, peak(hw));
}

static int check_out_dir(const char *dir, const char *const *names, int count,
                            char (*paths)[BENCH_PATH_MAX], s24_outs_t *outs, int *added) {
  if (strlen(dir) > BENCH_DIR_MAX) {
    return s24_cli_error(EXIT_USAGE, "bench", "--out path too long (%zu bytes, at most %d)",
                         strlen(dir), BENCH_DIR_MAX);
  }
  for (int i = 0; i < count; i++) snprintf(paths[i], BENCH_PATH_MAX, "%s/%s", dir, names[i]);
  *added = 0;
  struct stat st;
  if (stat(dir, &st) == 0) {
    if (!S_ISDIR(st.st_mode)) return s24_cli_error(EXIT_DATA, "bench", "%s: --out is not a directory", dir);
    for (int i = 0; i < count; i++) {
      char msg[512];
      if (s24_outs_add(outs, paths[i], 0, NULL, msg, sizeof msg) != S24_OK) {
        return s24_cli_error(EXIT_DATA, "bench", "%s: %s", paths[i], msg);
      }
    }
    *added = 1;
    return 0;
  }
  if (errno != ENOENT) return s24_cli_error(EXIT_DATA, "bench", "%s: %s", dir, strerror(errno));
  char parent[4096];
  snprintf(parent, sizeof parent, "%s", dir);
  size_t n = strlen(parent);
  while (n > 1 && parent[n - 1] == '/') parent[--n] = '\0';
  char *slash = strrchr(parent, '/');
  if (slash == NULL) {
    strcpy(parent, ".");
  } else if (slash == parent) {
    parent[1] = '\0';
  } else {
    *slash = '\0';
  }
  if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode)) {
    return s24_cli_error(EXIT_DATA, "bench", "%s: cannot create the --out directory: %s: %s", dir, parent,
                    stat(parent, &st) != 0 ? strerror(errno) : "Not a directory");
  }
  if (access(parent, W_OK | X_OK) != 0) {
    return s24_cli_error(EXIT_DATA, "bench", "%s: cannot create the --out directory: %s", dir, strerror(errno));
  }
  return 0;
}

static int add_outs(const char *dir, int count, char (*paths)[BENCH_PATH_MAX],
                       s24_outs_t *outs) {
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    return s24_cli_error(EXIT_DATA, "bench", "%s: cannot create directory: %s", dir, strerror(errno));
  }
  for (int i = 0; i < count; i++) {
    char msg[512];
    if (s24_outs_add(outs, paths[i], 0, NULL, msg, sizeof msg) != S24_OK) {
      return s24_cli_error(EXIT_DATA, "bench", "%s: %s", paths[i], msg);
    }
  }
  return 0;
}

static const char *default_out(char *buf, size_t len) {
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return "build/bench";
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (slash == NULL) return "build/bench";
  *slash = '\0';
  snprintf(buf, len, "%.4000s/bench", exe);
  return buf;
}

// check_out_dir for *dir (NULL: the default, kept in dir_buf of 4096 bytes) on a fresh outs;
// on failure outs is released.
static int out_dir_begin(const char **dir, char *dir_buf, const char *const *names, int count,
                         char (*paths)[BENCH_PATH_MAX], s24_outs_t *outs, int *added) {
  if (*dir == NULL) *dir = default_out(dir_buf, 4096);
  s24_outs_init(outs);
  const int rc = check_out_dir(*dir, names, count, paths, outs, added);
  if (rc != 0) s24_outs_abort(outs);
  return rc;
}

// Opens the rtl backend with every wait bounded for reduction lengths up to k_max; 0, or the exit
// status after the error (the outputs discarded).
static int open_rtl(s24_bdev_t *rtl, size_t k_max, s24_outs_t *outs) {
  char msg[256];
  if (s24_backend_rtl.open(rtl, NULL, msg, sizeof msg) != S24_OK) {
    s24_backend_rtl.close(rtl);
    s24_outs_abort(outs);
    return s24_cli_error(EXIT_DATA, "bench", "%s", msg);
  }
  rtl->dev.timeout_ns = s24_rtl_timeout_ns(&rtl->dev, k_max);
  return 0;
}

// `sparse24 bench`'s option values, checked as they are met (the BENCH dialect of tools/cli.h).
int s24_bench_perf_check(s24_opt_t opt, const char *v) {
  uint64_t x;
  s24_array_t arr = S24_DEFAULT_ARRAY;
  char tail = 0;
  switch (opt) {
    case S24_OPT_BACKEND: {
      if (v == NULL || s24_backend_find(v) == NULL) {
        return s24_cli_error(EXIT_USAGE, "bench", "invalid --backend '%s' (model or rtl)", v ? v : "");
      }
      return 0;
    }
    case S24_OPT_OUT_DIR:
      if (v == NULL || *v == '\0') return s24_cli_error(EXIT_USAGE, "bench", "--out needs a directory");
      return 0;
    case S24_OPT_FIRST:
      if (!s24_cli_parse_u64(v, &x) || x == 0 || x > NUM_SHAPES) {
        return s24_cli_error(EXIT_USAGE, "bench", "invalid --first '%s' (1 to %zu)", v ? v : "",
                             (size_t)NUM_SHAPES);
      }
      return 0;
    case S24_OPT_ARRAY:
      if (v == NULL || sscanf(v, "%u:%u:%u:%u%c", &arr.rows, &arr.cols, &arr.sparse_n,
                              &arr.sparse_m, &tail) != 4 ||
          !s24_array_ok(arr) || arr.rows > 1024 || arr.cols > 1024) {
        return s24_cli_error(EXIT_USAGE, "bench", "invalid --array '%s' (R:C:n:m, e.g. 8:16:2:4)", v ? v : "");
      }
      return 0;
    case S24_OPT_SEED:
      if (!s24_cli_parse_u64(v, &x)) {
        return s24_cli_error(EXIT_USAGE, "bench", "invalid --seed '%s'", v ? v : "");
      }
      return 0;
    default:
      return 0;
  }
}

int s24_bench_perf_run(const s24_cli_args_t *a) {
  char dir_buf[4096];
  const char *dir = s24_cli_val(a, S24_OPT_OUT_DIR);
  uint64_t first = NUM_SHAPES, seed = 1;
  s24_array_t arr = S24_DEFAULT_ARRAY;  // the default RTL build
  // the value was checked as it was parsed (s24_bench_perf_check)
  const s24_backend_t be =
      s24_cli_has(a, S24_OPT_BACKEND) ? s24_backend_find(s24_cli_val(a, S24_OPT_BACKEND)) : NULL;
  const int model_only = s24_cli_has(a, S24_OPT_MODEL_ONLY) || be == &s24_backend_model;
  const int backend_rtl = be == &s24_backend_rtl;
  const int have_array = s24_cli_has(a, S24_OPT_ARRAY);
  // the values were checked as they were parsed (s24_bench_perf_check)
  if (s24_cli_has(a, S24_OPT_FIRST)) (void)s24_cli_parse_u64(s24_cli_val(a, S24_OPT_FIRST), &first);
  if (s24_cli_has(a, S24_OPT_SEED)) (void)s24_cli_parse_u64(s24_cli_val(a, S24_OPT_SEED), &seed);
  if (have_array) {
    (void)sscanf(s24_cli_val(a, S24_OPT_ARRAY), "%u:%u:%u:%u", &arr.rows, &arr.cols, &arr.sparse_n,
                 &arr.sparse_m);
  }
  if (model_only && backend_rtl) {
    return s24_cli_error(EXIT_USAGE, "bench", "--model-only and --backend rtl contradict each other");
  }
  if (have_array && !model_only) {
    return s24_cli_error(EXIT_USAGE, "bench", "--array needs --model-only (the RTL array is fixed by the build)");
  }
  // the output location is checked before the shapes run (minutes on the RTL), not after
  static const char *const kOutNames[3] = {"results.csv", "plot.dat", "plot.gp"};
  char out_paths[3][BENCH_PATH_MAX];
  s24_outs_t outs;
  int outs_added = 0;
  const int orc = out_dir_begin(&dir, dir_buf, kOutNames, 3, out_paths, &outs, &outs_added);
  if (orc != 0) return orc;
  // the device: its parameters drive the cycle model too (--model-only: --array, default 8:8:2:4)
  s24_array_t hw = arr;
  s24_bdev_t rtl;  // the rtl backend, open unless --model-only
  memset(&rtl, 0, sizeof rtl);
  if (!model_only) {
    size_t k_max = 0;  // every wait is bounded by the longest legitimate one of the runs
    for (size_t i = 0; i < first; i++) {
      const shape_t sm = scaled(kShapes[i]);
      if (sm.k > k_max) k_max = sm.k;
    }
    const int orc2 = open_rtl(&rtl, k_max, &outs);
    if (orc2 != 0) return orc2;
    hw = s24_dev_array(&rtl.dev);
  }
  printf("sparse24 bench: %ux%u %u:%u core, %" PRIu64 " shapes, full size: cycle model; "
         "/%u: %s (seed %" PRIu64 ")\n",
         hw.rows, hw.cols, hw.sparse_n, hw.sparse_m, first, SCALE,
         model_only ? "skipped (--model-only)" : "RTL co-simulation, measured == predicted",
         seed);
  result_t *res = calloc(first, sizeof(result_t));
  if (res == NULL) {
    s24_backend_rtl.close(&rtl);
    s24_outs_abort(&outs);
    return s24_cli_error(EXIT_DATA, "bench", "out of memory");
  }
  int rc = 0;
  const double t0 = now_s();
  for (size_t i = 0; i < first && rc == 0; i++) {
    result_t *r = &res[i];
    r->full = kShapes[i];
    r->small = scaled(kShapes[i]);
    const shape_t *s = &r->full;
    s24_status_t st = s24_gemm_cycles_shape(hw, kSparse, s->n, s->k, s->m, &r->sp);
    if (st == S24_OK) st = s24_gemm_cycles_shape(hw, kDense, s->n, s->k, s->m, &r->dn);
    if (st == S24_OK) st = s24_gemm_cycles_shape(hw, kOne, s->n, s->k, s->m, &r->p14);
    if (st != S24_OK) {
      rc = s24_cli_error(EXIT_DATA, "bench", "cycle model of %zux%zux%zu: %s", s->m, s->k, s->n,
                    s24_strerror(st));
      break;
    }
    char name[64], sname[64];
    shape_name(s, name, sizeof name);
    shape_name(&r->small, sname, sizeof sname);
    printf("[%zu/%" PRIu64 "] %-17s model: 2:4 %12" PRIu64 " dense %12" PRIu64
           " cycles, %.3fx, util %.2f%%; 1:4 %12" PRIu64 " %.3fx%s",
           i + 1, first, name, r->sp.busy_cycles, r->dn.busy_cycles,
           (double)r->dn.busy_cycles / (double)r->sp.busy_cycles,
           100.0 * util(hw, *s, r->sp.busy_cycles), r->p14.busy_cycles,
           (double)r->dn.busy_cycles / (double)r->p14.busy_cycles, r->p14.pair ? " (pair)" : "");
    fflush(stdout);
    if (!model_only) {
      fprintf(stderr, "[%zu/%" PRIu64 "] %s (rtl %s) ...\n", i + 1, first, name, sname);
      const double ts = now_s();
      rc = run_rtl(&rtl, hw, &r->small, seed * 7919u + i, r);
      r->wall_s = now_s() - ts;
      if (rc != 0) break;
      printf(" | rtl %-13s 2:4 %8" PRIu64 " dense %8" PRIu64 " 1:4 %8" PRIu64
             " = predicted, bit-exact, %.3fx, %.3fx (%.1f s)",
             sname, r->rsp.busy_cycles, r->rdn.busy_cycles, r->rp14.busy_cycles,
             (double)r->rdn.busy_cycles / (double)r->rsp.busy_cycles,
             (double)r->rdn.busy_cycles / (double)r->rp14.busy_cycles, r->wall_s);
    }
    printf("\n");
    fflush(stdout);
  }
  s24_backend_rtl.close(&rtl);
  // all three files or none
  if (rc == 0 && !outs_added) rc = add_outs(dir, 3, out_paths, &outs);
  if (rc == 0) {
    char msg[512];
    size_t w = 0;
    if (s24_outs_begin(&outs, &w, msg, sizeof msg) != S24_OK) {
      rc = s24_cli_error(EXIT_DATA, "bench", "%s: %s", out_paths[w], msg);
    } else {
      write_csv(s24_outs_file(&outs, 0), hw, res, first);
      write_plot(s24_outs_file(&outs, 1), s24_outs_file(&outs, 2), dir, hw, res, first);
      if (s24_outs_commit(&outs, &w, msg, sizeof msg) != S24_OK) {
        rc = s24_cli_error(EXIT_DATA, "bench", "%s: %s", out_paths[w], msg);
      }
    }
  }
  s24_outs_abort(&outs);
  if (rc != 0) {
    free(res);
    return rc;
  }

  // ---- tables (markdown)
  printf("\n### Speedup and utilization (2:4 vs dense on the same %ux%u %u:%u core)\n\n", hw.rows,
         hw.cols, hw.sparse_n, hw.sparse_m);
  printf("| shape m x k x n | jobs, tiles | 2:4 cycles | dense cycles | speedup | utilization |"
         " 1:4 cycles | 1:4 speedup | 1:4 util |"
         " RTL shape (/16) | RTL 2:4 | RTL dense | RTL 1:4 | RTL speedup 2:4, 1:4 | RTL util |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  double sp21[NUM_SHAPES], sp21_14[NUM_SHAPES], min_util = 2.0, min_util_mode = 2.0;
  size_t n21 = 0;
  char min_util_name[64] = "", min_mode_name[80] = "";
  for (size_t i = 0; i < first; i++) {
    const result_t *r = &res[i];
    char name[64], sname[64];
    shape_name(&r->full, name, sizeof name);
    shape_name(&r->small, sname, sizeof sname);
    const double spd = (double)r->dn.busy_cycles / (double)r->sp.busy_cycles;
    const double u = util(hw, r->full, r->sp.busy_cycles);
    const double spd14 = (double)r->dn.busy_cycles / (double)r->p14.busy_cycles;
    const double u14 = util_mode(hw, r->full, r->p14.busy_cycles, 0, (int)r->p14.pair);
    const double ud = util_mode(hw, r->full, r->dn.busy_cycles, 1, 0);
    if (!r->full.gemv) {
      sp21_14[n21] = spd14;
      sp21[n21++] = spd;
      if (u < min_util) {
        min_util = u;
        snprintf(min_util_name, sizeof min_util_name, "%s", name);
      }
      const double um[3] = {u, ud, u14};
      static const char *const mn[3] = {"2:4", "dense", "1:4"};
      for (int q = 0; q < 3; q++) {
        if (um[q] < min_util_mode) {
          min_util_mode = um[q];
          snprintf(min_mode_name, sizeof min_mode_name, "%s %s", mn[q], name);
        }
      }
    }
    printf("| %s%s | %" PRIu64 ", %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %.3fx | %.2f%% |"
           " %" PRIu64 " | %.3fx | %.2f%% |",
           name, r->full.gemv ? " (GEMV)" : "", r->sp.jobs, r->sp.tiles,
           r->sp.busy_cycles, r->dn.busy_cycles, spd, 100.0 * u, r->p14.busy_cycles, spd14,
           100.0 * u14);
    if (r->rtl_done) {
      printf(" %s | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %.3fx, %.3fx | %.2f%% |\n", sname,
             r->rsp.busy_cycles, r->rdn.busy_cycles, r->rp14.busy_cycles,
             (double)r->rdn.busy_cycles / (double)r->rsp.busy_cycles,
             (double)r->rdn.busy_cycles / (double)r->rp14.busy_cycles,
             100.0 * util(hw, r->small, r->rsp.busy_cycles));
    } else {
      printf(" - | - | - | - | - | - |\n");
    }
  }
  printf("\n### GEMV against the weight-stream bound (full size, cycle model)\n\n");
  printf("Bound = bytes of 2:4 values + metadata / bytes per weight beat (%u rows x %u slots x "
         "%u bits = %.0f bytes per cycle); compute bound = m*k*n / (%.0f MACs per cycle).\n\n",
         hw.rows, hw.sparse_n, 8u + s24_idx_bits((s24_pattern_t){hw.sparse_n, hw.sparse_m}),
         (double)hw.rows * hw.sparse_n *
             (8.0 + (double)s24_idx_bits((s24_pattern_t){hw.sparse_n, hw.sparse_m})) / 8.0,
         peak(hw));
  printf("| GEMV m x k x n | 2:4 cycles | weight-stream bound | cycles / bound | compute bound |"
         " cycles / max(bounds) |\n|---|---|---|---|---|---|\n");
  double worst_gemv = 0.0, worst_roof = 0.0;
  size_t n_gemv = 0;
  for (size_t i = 0; i < first; i++) {
    const result_t *r = &res[i];
    if (!r->full.gemv) continue;
    char name[64];
    shape_name(&r->full, name, sizeof name);
    const double bw = bw_bound(hw, r->full);
    const double cb = (double)r->full.m * r->full.k * r->full.n / peak(hw);
    const double roof = bw > cb ? bw : cb;
    const double ratio = (double)r->sp.busy_cycles / bw;
    const double rr = (double)r->sp.busy_cycles / roof;
    if (ratio > worst_gemv) worst_gemv = ratio;
    if (rr > worst_roof) worst_roof = rr;
    n_gemv++;
    printf("| %s | %" PRIu64 " | %.0f | %.3f | %.0f | %.3f |\n", name, r->sp.busy_cycles, bw,
           ratio, cb, rr);
  }
  // co-simulated cycles including the driver's register traffic between jobs
  uint64_t busy = 0, simc = 0;
  for (size_t i = 0; i < first; i++) {
    if (!res[i].rtl_done) continue;
    busy += res[i].rsp.busy_cycles;
    simc += res[i].sim_cycles_sp;
  }
  if (simc > 0) {
    printf("\nRTL 2:4 runs: %" PRIu64 " busy cycles of %" PRIu64 " co-simulated cycles (%.1f%%; "
           "the rest is the driver's AXI4-Lite traffic between jobs: start, poll, counters).\n",
           busy, simc, 100.0 * (double)busy / (double)simc);
  }
  printf("\n### Targets\n\n| target | figure | result |\n|---|---|---|\n");
  if (n21 == NUM_NMSPARSE) {
    const double med = median(sp21, n21);
    printf("| median 2:4/dense speedup over the 21 nmSPARSE shapes >= 1.95x (cuSPARSELt on H100:"
           " 1.10x) | %.3fx (min %.3fx, max %.3fx) | %s |\n",
           med, sp21[0], sp21[n21 - 1], med >= 1.95 ? "reached" : "missed");
    printf("| utilization >= 95%% on every full-size nmSPARSE shape | min %.2f%% (%s) | %s |\n",
           100.0 * min_util, min_util_name, min_util >= 0.95 ? "reached" : "missed");
    const double med14 = median(sp21_14, n21);
    printf("| median 2:4/dense speedup >= 1.99x (issue 27) | %.3fx | %s |\n", med,
           med >= 1.99 ? "reached" : "missed");
    printf("| median 1:4/dense speedup >= 3.96x on the same core (pair mode; limit 4.0) | %.3fx "
           "(min %.3fx, max %.3fx) | %s |\n",
           med14, sp21_14[0], sp21_14[n21 - 1], med14 >= 3.96 ? "reached" : "missed");
    printf("| utilization >= 99%% in every mode (dense, 2:4, 1:4; each against its own peak) on "
           "every full-size nmSPARSE shape | min %.2f%% (%s) | %s |\n",
           100.0 * min_util_mode, min_mode_name, min_util_mode >= 0.99 ? "reached" : "missed");
  } else {
    printf("| median speedup / utilization over the 21 shapes | only %zu of them run (--first) "
           "| not evaluated |\n", n21);
  }
  if (n_gemv > 0) {
    printf("| GEMV within 1.1x of the weight-stream bound | worst %.3fx | %s |\n", worst_gemv,
           worst_gemv <= 1.1 ? "reached" : "missed");
    printf("| GEMV within 1.1x of max(weight-stream bound, compute bound) | worst %.3fx | %s |\n",
           worst_roof, worst_roof <= 1.1 ? "reached" : "missed");
  }
  printf("\nwrote %s/results.csv, %s/plot.dat and %s/plot.gp in %.1f s\n", dir, dir, dir,
         now_s() - t0);
  free(res);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// sparse24 bench --linear: the fused layer against the plain GEMM on the benchmark's shapes

// Busy cycles of the array for a pruned 2:4 layer of M output channels run as s24_linear does:
// jobs of at most depth/R row tiles (the parameter RAM), each planned as a GEMM
// (s24_gemm_cycles_shape). *jobs gets the number of hardware jobs.
static s24_status_t linear_array_cycles(s24_array_t hw, uint32_t depth, size_t m, size_t k,
                                        size_t n, uint64_t *cycles, uint64_t *jobs) {
  const size_t chunk = (size_t)(depth / hw.rows) * hw.rows;
  *cycles = 0;
  *jobs = 0;
  for (size_t first = 0; first < m; first += chunk) {
    const size_t rows = m - first < chunk ? m - first : chunk;
    s24_gemm_cycles_t c;
    s24_status_t st = s24_gemm_cycles_shape(hw, (s24_pattern_t){2, 4}, rows, k, n, &c);
    if (st != S24_OK) return st;
    *cycles += c.busy_cycles;
    *jobs += c.jobs;
  }
  return S24_OK;
}

// `bench --linear`'s option values, checked as they are met (BENCH_LINEAR, tools/cli.h).
int s24_bench_linear_check(s24_opt_t opt, const char *v) {
  uint64_t x = 0;
  if (opt == S24_OPT_FIRST && (!s24_cli_parse_u64(v, &x) || x == 0 || x > NUM_SHAPES)) {
    return s24_cli_usage("bench", "invalid --first '%s' (1 to %zu)", v, (size_t)NUM_SHAPES);
  }
  if (opt == S24_OPT_SEED && !s24_cli_parse_u64(v, &x)) {
    return s24_cli_usage("bench", "invalid --seed '%s'", v);
  }
  return 0;
}

int s24_bench_linear_run(const s24_cli_args_t *a) {
  char dir_buf[4096];
  const char *dir = s24_cli_val(a, S24_OPT_OUT_DIR);
  uint64_t first64 = NUM_SHAPES, seed = 1;
  // the values were checked as they were parsed (s24_bench_linear_check)
  if (s24_cli_has(a, S24_OPT_FIRST)) {
    (void)s24_cli_parse_u64(s24_cli_val(a, S24_OPT_FIRST), &first64);
  }
  if (s24_cli_has(a, S24_OPT_SEED)) (void)s24_cli_parse_u64(s24_cli_val(a, S24_OPT_SEED), &seed);
  const size_t first = (size_t)first64;
  // the output goes through the one output module (tools/outfile.h): checked before the runs,
  // written all or nothing at the end
  static const char *const kNames[1] = {"linear.csv"};
  char paths[1][BENCH_PATH_MAX];
  s24_outs_t outs;
  int added = 0;
  int rc = out_dir_begin(&dir, dir_buf, kNames, 1, paths, &outs, &added);
  if (rc != 0) return rc;
  const char *path = paths[0];
  size_t k_max = 0;
  for (size_t i = 0; i < first; i++) {
    size_t m, k, n;
    int gemv;
    bench_shape(i, 1, &m, &k, &n, &gemv);
    if (k > k_max) k_max = k;
  }
  s24_bdev_t rtl;
  const int orc2 = open_rtl(&rtl, k_max, &outs);
  if (orc2 != 0) return orc2;
  char *csv_buf = NULL;
  size_t csv_len = 0;
  FILE *csv = open_memstream(&csv_buf, &csv_len);
  if (csv == NULL) {
    s24_backend_rtl.close(&rtl);
    s24_outs_abort(&outs);
    return s24_cli_error(EXIT_DATA, "bench", "out of memory");
  }
  s24_dev_t *const dev = &rtl.dev;
  const s24_array_t hw = s24_dev_array(dev);
  fprintf(csv, "shape,m,k,n,source,gemm_cycles,linear_cycles,ratio,gemm_jobs,linear_jobs,"
               "epilogue_drain_cycles\n");
  printf("sparse24 bench --linear: %ux%u %u:%u core; 2:4 layer Y[m x n] = requant(X[m x k] * "
         "W[n x k]^T), linear (START to the epilogue's last beat) vs gemm busy cycles\n",
         hw.rows, hw.cols, hw.sparse_n, hw.sparse_m);
  double worst_rtl = 0, worst_full = 0;
  uint64_t drain_max = 0;
  for (size_t i = 0; i < first && rc == 0; i++) {
    size_t m, k, n, fm, fk, fn;
    int gemv;
    bench_shape(i, 1, &m, &k, &n, &gemv);
    bench_shape(i, 0, &fm, &fk, &fn, &gemv);
    // the layer: n output channels, k inputs, batch m; every group at its 2:4 worst case
    int8_t *w = malloc(n * k), *x = malloc(m * k), *xt = malloc(m * k), *vals = malloc(n * k);
    uint8_t *meta = malloc(n * k);
    int32_t *c = malloc(m * n * sizeof(int32_t)), *bias = malloc(n * 4), *mult = malloc(n * 4);
    int32_t *shift = malloc(n * 4);
    int8_t *y = malloc(m * n), *want = malloc(m * n);
    uint64_t r = seed * 7919u + i;
    s24_status_t st = S24_ERR_NOMEM;
    if (w && x && xt && vals && meta && c && bias && mult && shift && y && want) {
      for (size_t j = 0; j < n * k; j++) {
        int8_t v = (int8_t)(s24_rng_next(&r) % 255u - 127u);
        w[j] = v != 0 ? v : -128;
      }
      for (size_t j = 0; j < m * k; j++) x[j] = (int8_t)s24_rng_next(&r);
      for (size_t b = 0; b < m; b++) {
        for (size_t j = 0; j < k; j++) xt[j * m + b] = x[b * k + j];
      }
      for (size_t j = 0; j < n; j++) {
        bias[j] = (int32_t)(s24_rng_next(&r) % 20001u) - 10000;
        mult[j] = (int32_t)(0x40000000u + (uint32_t)(s24_rng_next(&r) & 0x3FFFFFFFu));
        shift[j] = -12;
      }
      s24_where_t where;
      st = s24_prune((s24_pattern_t){2, 4}, w, n, k, w);
      if (st == S24_OK) st = s24_compress((s24_pattern_t){2, 4}, w, n, k, vals, meta, &where);
      if (st == S24_OK) {
        st = s24_gemm_compressed(dev, (s24_pattern_t){2, 4}, vals, meta, n, k, xt, m, NULL, c,
                                 &where);
      }
    }
    const s24_counters_t g = dev->counters;
    if (st == S24_OK) {
      st = s24_linear_ref(x, m, w, n, k, bias, mult, shift, 3, -5, -5, 127, S24_ROUND_SINGLE,
                          want);  // ReLU
    }
    if (st == S24_OK) {
      s24_weights_t wt;
      s24_where_t where;
      st = s24_weights_load(dev, (s24_pattern_t){2, 4}, vals, meta, n, k, &wt, &where);
      const s24_linear_params_t prm = {bias, mult, shift, 3, -5, -5, 127, S24_ROUND_SINGLE};
      if (st == S24_OK) st = s24_linear(dev, &wt, x, m, &prm, y);
      s24_weights_free(&wt);
    }
    const s24_counters_t l = dev->counters;
    uint64_t pred_small = 0, jobs_small = 0, pred_full = 0, jobs_full = 0;
    s24_gemm_cycles_t gfull;
    if (st == S24_OK) {
      st = linear_array_cycles(hw, dev->hw.epi_depth, n, k, m, &pred_small, &jobs_small);
    }
    if (st == S24_OK) {
      st = linear_array_cycles(hw, dev->hw.epi_depth, fn, fk, fm, &pred_full, &jobs_full);
    }
    if (st == S24_OK) st = s24_gemm_cycles_shape(hw, (s24_pattern_t){2, 4}, fn, fk, fm, &gfull);
    char name[64];
    snprintf(name, sizeof name, "%zux%zux%zu", fm, fk, fn);
    if (st != S24_OK) {
      rc = s24_cli_error(EXIT_DATA, "bench", "%s: %s", name, s24_strerror(st));
    } else if (memcmp(y, want, m * n) != 0) {
      rc = s24_cli_error(EXIT_DATA, "bench", "%s: rtl linear output differs from the model", name);
    } else if (l.cycles != pred_small || l.jobs != jobs_small) {
      rc = s24_cli_error(EXIT_DATA, "bench",
                         "%s: rtl linear array cycles %" PRIu64 " in %" PRIu64 " jobs, predicted %" PRIu64
                         " in %" PRIu64 " (the epilogue held the array)",
                         name, l.cycles, l.jobs, pred_small, jobs_small);
    } else {
      const uint64_t drain = (l.job_cycles - l.cycles) / (l.jobs ? l.jobs : 1);
      if (drain > drain_max) drain_max = drain;
      // full size: the array's cycles of the planned jobs plus the largest drain seen per job
      const uint64_t full_linear = pred_full + jobs_full * drain;
      const double rr = (double)l.job_cycles / (double)g.cycles;
      const double rf = (double)full_linear / (double)gfull.busy_cycles;
      if (rr > worst_rtl) worst_rtl = rr;
      if (rf > worst_full) worst_full = rf;
      printf("[%zu/%zu] %-17s%s rtl /16 %zux%zux%zu: gemm %8" PRIu64 " linear %8" PRIu64
             " (%+.3f%%, drain %" PRIu64 ") | full size model: gemm %11" PRIu64 " linear %11"
             PRIu64 " (%+.4f%%, %" PRIu64 " jobs)\n",
             i + 1, first, name, gemv ? "(GEMV)" : "      ", m, k, n, g.cycles, l.job_cycles,
             100.0 * (rr - 1.0), drain, gfull.busy_cycles, full_linear, 100.0 * (rf - 1.0),
             jobs_full);
      fprintf(csv, "%s,%zu,%zu,%zu,rtl_div16,%" PRIu64 ",%" PRIu64 ",%.6f,%" PRIu64 ",%" PRIu64
                   ",%" PRIu64 "\n",
              name, m, k, n, g.cycles, l.job_cycles, rr, g.jobs, l.jobs, l.job_cycles - l.cycles);
      fprintf(csv, "%s,%zu,%zu,%zu,model_full,%" PRIu64 ",%" PRIu64 ",%.6f,%" PRIu64 ",%" PRIu64
                   ",%" PRIu64 "\n",
              name, fm, fk, fn, gfull.busy_cycles, full_linear, rf, gfull.jobs, jobs_full,
              jobs_full * drain);
    }
    free(w);
    free(x);
    free(xt);
    free(vals);
    free(meta);
    free(c);
    free(bias);
    free(mult);
    free(shift);
    free(y);
    free(want);
  }
  const uint32_t lanes = dev->hw.epi_lanes, depth = dev->hw.epi_depth, rows = dev->hw.rows;
  s24_backend_rtl.close(&rtl);
  if (fclose(csv) != 0 && rc == 0) rc = s24_cli_error(EXIT_DATA, "bench", "out of memory");
  if (rc == 0 && !added) rc = add_outs(dir, 1, paths, &outs);
  if (rc == 0) {
    char wmsg[512];
    size_t w = 0;
    if (s24_outs_begin(&outs, &w, wmsg, sizeof wmsg) != S24_OK ||
        (fwrite(csv_buf, 1, csv_len, s24_outs_file(&outs, 0)) != csv_len &&
         snprintf(wmsg, sizeof wmsg, "cannot write output: %s", s24_outs_strerror(errno)) > 0) ||
        s24_outs_commit(&outs, &w, wmsg, sizeof wmsg) != S24_OK) {
      rc = s24_cli_error(EXIT_DATA, "bench", "%s: %s", path, wmsg);
    }
  }
  s24_outs_abort(&outs);
  free(csv_buf);
  if (rc == 0) {
    printf("linear vs gemm: worst %+.3f%% on the RTL (/16 shapes, measured), %+.4f%% at full size "
           "(cycle model + measured drain <= %" PRIu64 " cycles per job); target <= +1%%: %s\n",
           100.0 * (worst_rtl - 1.0), 100.0 * (worst_full - 1.0), drain_max,
           worst_full <= 1.01 ? "reached" : "MISSED");
    printf("epilogue: %u lanes per cycle, %u parameter rows (a job holds at most %u row tiles)\n",
           lanes, depth, depth / rows);
    printf("wrote %s\n", path);
  }
  return rc;
}

// ---------------------------------------------------------------------------------------------
// The mode of `sparse24 bench` (the command table's select()): --model-speed, implied by any of
// --shape, --pattern, --reps ("--opt" or "--opt=value"); else --linear; else the benchmark.
int s24_bench_is_speed(int argc, char **argv) {
  static const char *const kSpeedOpts[] = {"--model-speed", "--shape", "--pattern", "--reps"};
  for (int i = 2; i < argc; i++) {
    for (size_t o = 0; o < sizeof kSpeedOpts / sizeof kSpeedOpts[0]; o++) {
      const size_t len = strlen(kSpeedOpts[o]);
      if (strncmp(argv[i], kSpeedOpts[o], len) == 0 &&
          (argv[i][len] == '\0' || argv[i][len] == '=')) {
        return 1;
      }
    }
  }
  return 0;
}

int s24_bench_is_linear(int argc, char **argv) {
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--linear") == 0) return 1;
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------
// sparse24 bench --model-speed: the wall time of one GEMM on a backend

const char s24_bench_speed_usage[] =
    "usage: sparse24 bench --model-speed [--backend model|rtl] [--shape MxKxN] [--pattern N:M]\n"
    "                      [--reps R] [--model-only]\n"
    "\n"
    "(`sparse24 bench` without these options is the performance benchmark: see\n"
    "`sparse24 bench --help`.) Times the GEMM of random int8 data pruned to the pattern; prints every run and the best\n"
    "time with the dense-equivalent and the performed MAC rates.\n"
    "\n"
    "  --backend model|rtl  backend (default model)\n"
    "  --shape MxKxN        GEMM shape (default 1024x4096x1024)\n"
    "  --pattern N:M        sparsity pattern (default 2:4)\n"
    "  --reps R             number of timed runs (default 3)\n"
    "  --model-only         as --backend model\n"
    "RTL runs print a progress line on stderr before each run.\n";

static s24_status_t speed_run(s24_backend_t backend, s24_pattern_t p, size_t m, size_t k,
                           size_t n, unsigned reps, FILE *out, char *err, size_t errlen) {
  if (!s24_pattern_ok(p) || m == 0 || k == 0 || n == 0 || k % p.m != 0 || reps == 0) {
    snprintf(err, errlen, "bad benchmark shape or pattern");
    return S24_ERR_ARG;
  }
  if (m > SIZE_MAX / k || k > SIZE_MAX / n || m > SIZE_MAX / n / sizeof(int32_t)) {
    snprintf(err, errlen, "benchmark shape too large");
    return S24_ERR_NOMEM;
  }
  const size_t vcols = s24_values_cols(p, k), mcols = s24_meta_cols(p, k);
  int8_t *a = malloc(m * k), *b = malloc(k * n), *val = malloc(m * vcols);
  uint8_t *meta = malloc(m * mcols);
  int32_t *c = malloc(m * n * sizeof(int32_t));
  s24_status_t st = S24_ERR_NOMEM;
  snprintf(err, errlen, "out of memory");
  if (!a || !b || !val || !meta || !c) goto done;
  uint64_t seed = 1;
  for (size_t i = 0; i < m * k; i++) a[i] = (int8_t)(s24_rng_next(&seed) & 0xFF);
  for (size_t i = 0; i < k * n; i++) b[i] = (int8_t)(s24_rng_next(&seed) & 0xFF);
  s24_where_t where;
  if ((st = s24_prune(p, a, m, k, a)) != S24_OK ||
      (st = s24_compress(p, a, m, k, val, meta, &where)) != S24_OK) {
    snprintf(err, errlen, "preparing the benchmark failed: %s", s24_strerror(st));
    goto done;
  }
  s24_gemm_job_t job = {p, val, meta, m, k, b, n, NULL, c, NULL, 0};
  double best = 0;
  for (unsigned r = 0; r < reps; r++) {
    if (backend->caps & S24_BACKEND_HW) {  // minutes per run: say what is running
      fprintf(stderr, "[%u/%u] %zux%zux%zu rtl ...\n", r + 1, reps, m, k, n);
    }
    double t0 = now_s();
    s24_bdev_t d;  // each run from reset: the backend's open is part of the time
    st = backend->open(&d, NULL, err, errlen);
    if (st == S24_OK) {
      if (backend->caps & S24_BACKEND_HW) d.dev.timeout_ns = s24_rtl_timeout_ns(&d.dev, k);
      st = backend->gemm(&d, &job, &where, err, errlen);
    }
    backend->close(&d);
    if (st != S24_OK) goto done;
    double t = now_s() - t0;
    fprintf(out, "bench: run %u/%u: %.3f s\n", r + 1, reps, t);
    if (r == 0 || t < best) best = t;
  }
  const double dense = (double)m * (double)k * (double)n;
  const double done_macs = (double)m * (double)vcols * (double)n;
  fprintf(out, "bench: backend %s, pattern %u:%u, %zux%zux%zu (MxKxN): best %.3f s, "
          "%.2f G dense-equivalent MAC/s, %.2f G MAC/s done\n",
          backend->name, (unsigned)p.n, (unsigned)p.m, m, k, n, best,
          dense / best * 1e-9, done_macs / best * 1e-9);
  st = S24_OK;
done:
  free(a);
  free(b);
  free(val);
  free(meta);
  free(c);
  return st;
}

// --model-speed: --backend and --model-only (= --backend model) as in the benchmark
int s24_bench_speed_run(const s24_cli_args_t *a) {
  int rc;
  const int model_only = s24_cli_has(a, S24_OPT_MODEL_ONLY);
  s24_pattern_t p;
  const char *be_name = NULL;
  if ((rc = s24_cli_pattern(a, &p)) != 0) return rc;
  if ((rc = s24_cli_backend(a, &be_name)) != 0) return rc;
  const s24_backend_t be = s24_backend_find(be_name);
  if (model_only && be != &s24_backend_model) {
    return s24_cli_usage("bench", "--model-only and --backend %s contradict each other",
                     be->name);
  }
  size_t dims[3] = {1024, 4096, 1024};
  if (s24_cli_has(a, S24_OPT_SHAPE)) {
    char buf[96];
    const char *text = s24_cli_val(a, S24_OPT_SHAPE);
    if (strlen(text) >= sizeof buf) return s24_cli_usage("bench", "invalid --shape '%s'", text);
    strcpy(buf, text);
    char *save_ptr = NULL, *tok = strtok_r(buf, "x", &save_ptr);
    int count = 0;
    for (; tok != NULL; tok = strtok_r(NULL, "x", &save_ptr)) {
      if (count >= 3 || !s24_cli_parse_size(tok, &dims[count])) count = 4;
      if (count >= 4) break;
      count++;
    }
    if (count != 3 || text[strlen(text) - 1] == 'x' || text[0] == 'x' || strstr(text, "xx")) {
      return s24_cli_usage("bench", "invalid --shape '%s' (MxKxN, e.g. 1024x4096x1024)", text);
    }
    if (dims[1] % p.m != 0) {
      return s24_cli_usage("bench", "--shape K = %zu is not a multiple of m = %u", dims[1],
                       (unsigned)p.m);
    }
  }
  size_t reps = 3;
  if (s24_cli_has(a, S24_OPT_REPS) &&
      (!s24_cli_parse_size(s24_cli_val(a, S24_OPT_REPS), &reps) || reps > 1000)) {
    return s24_cli_usage("bench", "invalid --reps '%s' (1 to 1000)", s24_cli_val(a, S24_OPT_REPS));
  }
  char msg[256];
  if (speed_run(be, p, dims[0], dims[1], dims[2], (unsigned)reps, stdout, msg, sizeof msg) !=
      S24_OK) {
    return s24_cli_error(EXIT_DATA, "bench", "%s", msg);
  }
  return 0;
}

