// sparse24 linear: the fused int8 layer of SPEC §7 (TFLite int8 FULLY_CONNECTED, per-channel)
// on the model (s24_linear_ref) or on the Verilated RTL through the driver (s24_linear: the
// epilogue runs in hardware, the host receives int8).
#include "linear.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cli.h"
#include "npy.h"
#include "outfile.h"
#include "s24_drv.h"
#include "s24_model.h"


static const char *const kUsageLinear =
    "usage: sparse24 linear X.npy W.npy -o Y.npy --mult MULT.npy --shift SHIFT.npy [options]\n"
    "       sparse24 linear X.npy --values V.npy --meta MD.npy --k K -o Y.npy --mult ... [options]\n"
    "\n"
    "A quantized int8 layer (SPEC §7, TFLite int8 FULLY_CONNECTED with per-channel weights):\n"
    "  acc     = sum_k W[m][k] * (X[b][k] - ZI) + BIAS[m]          (int32 wraparound)\n"
    "  Y[b][m] = clamp(((acc * MULT[m] + 2^(t-1)) >> t) + ZO, lo, hi),  t = 31 - SHIFT[m]\n"
    "X int8 [B x K] (batch rows), W int8 [M x K] N:M sparse along K (or compressed), Y int8\n"
    "[B x M]; BIAS, MULT, SHIFT int32 [M] (1-D). With --backend rtl the zero-point correction,\n"
    "bias, requantization, clamp (the fused activation) and int8 packing run in the RTL\n"
    "epilogue.\n"
    "\n"
    "options:\n"
    "  -o, --output Y.npy    output, int8 [B x M]\n"
    "  --bias BIAS.npy       int32 [M] (default zeros)\n"
    "  --mult MULT.npy       int32 [M], 0 <= MULT < 2^31\n"
    "  --shift SHIFT.npy     int32 [M], -31 <= SHIFT <= 30\n"
    "  --zp-in ZI            input zero point, -128 .. 127 (default 0)\n"
    "  --zp-out ZO           output zero point, -128 .. 127 (default 0)\n"
    "  --relu                lo = max(-128, ZO) (default lo = -128)\n"
    "  --act-min LO          lo, -128 .. 127: the fused activation's int8 range, e.g. TFLite's\n"
    "  --act-max HI          hi, LO .. 127 (default 127)   RELU6 or RELU_N1_TO_1 range\n"
    "  --values V.npy --meta MD.npy --k K   compressed W (SPEC §2) in place of W.npy\n"
    "                        (K at most 2^30)\n"
    "  --pattern N:M         sparsity pattern of W (default 2:4)\n"
    "  --backend model|rtl   C golden model (default) or the Verilated RTL through the driver\n"
    "  --stats               print key: value lines about the run (rtl: cycles incl. epilogue)\n"
    "  -h, --help            this text\n";


typedef struct {
  const char *pos[2];
  int npos;
  const char *out, *bias, *mult, *shift, *zi, *zo, *values, *meta, *k, *pattern, *backend;
  const char *act_min, *act_max;
  int relu, stats, help;
} largs_t;

// Options with a value: name and where it goes.
static const char **opt_slot(largs_t *a, const char *name, size_t len) {
  static const char *const names[] = {"--output", "--bias",   "--mult",   "--shift",
                                      "--zp-in",  "--zp-out", "--values", "--meta",
                                      "--k",      "--pattern", "--backend", "--act-min",
                                      "--act-max"};
  const char **slots[] = {&a->out,    &a->bias, &a->mult, &a->shift,   &a->zi,     &a->zo,
                          &a->values, &a->meta, &a->k,    &a->pattern, &a->backend,
                          &a->act_min, &a->act_max};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (strlen(names[i]) == len && strncmp(name, names[i], len) == 0) return slots[i];
  }
  return NULL;
}

static int parse(int argc, char **argv, largs_t *a) {
  memset(a, 0, sizeof *a);
  int only_pos = 0;
  for (int i = 2; i < argc; i++) {
    const char *arg = argv[i];
    if (only_pos || arg[0] != '-' || arg[1] == '\0') {
      if (a->npos >= 2) return s24_cli_usage("linear", "unexpected argument '%s'", arg);
      a->pos[a->npos++] = arg;
      continue;
    }
    if (strcmp(arg, "--") == 0) {
      only_pos = 1;
      continue;
    }
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      a->help = 1;
      continue;
    }
    const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
    const size_t nlen = eq != NULL ? (size_t)(eq - arg) : strlen(arg);
    int *flag = NULL;
    if (nlen == 6 && strncmp(arg, "--relu", 6) == 0) flag = &a->relu;
    if (nlen == 7 && strncmp(arg, "--stats", 7) == 0) flag = &a->stats;
    if (flag != NULL) {
      if (eq != NULL) return s24_cli_usage("linear", "option %.*s takes no value", (int)nlen, arg);
      if (*flag) return s24_cli_usage("linear", "option %.*s given twice", (int)nlen, arg);
      *flag = 1;
      continue;
    }
    const char **slot = strcmp(arg, "-o") == 0 ? &a->out : opt_slot(a, arg, nlen);
    if (slot == NULL) return s24_cli_usage("linear", "unknown option '%.*s'", (int)nlen, arg);
    if (*slot != NULL) return s24_cli_usage("linear", "option %.*s given twice", (int)nlen, arg);
    const char *v;
    if (eq != NULL) {
      v = eq + 1;
    } else {
      if (i + 1 >= argc) return s24_cli_usage("linear", "option %s needs a value", arg);
      v = argv[++i];
    }
    if (v[0] == '\0') return s24_cli_usage("linear", "option %.*s has an empty value", (int)nlen, arg);
    *slot = v;
  }
  return 0;
}

// A strict decimal integer in [lo, hi]: an optional '-' and digits, nothing else (no blanks,
// no '+', as --k and every other number of the command).
static int parse_int(const char *text, long lo, long hi, long *out) {
  const char *d = text[0] == '-' ? text + 1 : text;
  if (*d < '0' || *d > '9') return 0;
  char *end = NULL;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

static int load(const char *path, s24_npy_dtype_t want, int vector, s24_npy_t *arr) {
  char msg[256];
  s24_status_t st = vector ? s24_npy_read_vector(path, arr, msg, sizeof msg)
                           : s24_npy_read(path, arr, msg, sizeof msg);
  if (st != S24_OK) return s24_cli_file(path, "%s", msg);
  if (arr->dtype != want) {
    int rc = s24_cli_file(path, "dtype %s, expected %s", s24_npy_dtype_name(arr->dtype),
                      s24_npy_dtype_name(want));
    s24_npy_free(arr);
    return rc;
  }
  return 0;
}

// A per-channel int32 vector of length m with every entry in [lo, hi] (tools/npy.c).
static int load_channel(const char *path, const char *what, size_t m, long lo, long hi,
                        s24_npy_t *arr) {
  char msg[256];
  if (s24_npy_read_channel(path, what, m, lo, hi, arr, msg, sizeof msg) != S24_OK) {
    return s24_cli_file(path, "%s", msg);
  }
  return 0;
}

static void print_stats_rtl(FILE *f, const s24_dev_t *dev, s24_pattern_t p, int dense, size_t bt,
                            size_t k, size_t m, uint64_t sim_cycles) {
  const s24_hw_info_t *hw = &dev->hw;
  const s24_counters_t *c = &dev->counters;
  const double peak = (double)hw->rows * hw->cols * hw->sparse_m;
  const double cyc = c->job_cycles ? (double)c->job_cycles : 1.0;
  fprintf(f, "backend: rtl\n");
  fprintf(f, "array: %ux%u %u:%u\n", hw->rows, hw->cols, hw->sparse_n, hw->sparse_m);
  if (dense) fprintf(f, "pattern: dense\n");
  else fprintf(f, "pattern: %u:%u\n", (unsigned)p.n, (unsigned)p.m);
  fprintf(f, "shape_bkm: %zux%zux%zu\n", bt, k, m);
  fprintf(f, "cycles: %llu\n", (unsigned long long)c->job_cycles);
  fprintf(f, "array_cycles: %llu\n", (unsigned long long)c->cycles);
  fprintf(f, "epilogue_drain_cycles: %llu\n", (unsigned long long)(c->job_cycles - c->cycles));
  fprintf(f, "utilization: %.4f\n", (double)c->macs_dense / (cyc * peak));
  fprintf(f, "effective_macs_per_cycle: %.2f\n", (double)c->macs_dense / cyc);
  fprintf(f, "macs_dense: %llu\n", (unsigned long long)c->macs_dense);
  fprintf(f, "beats: %llu\n", (unsigned long long)c->beats);
  fprintf(f, "stall_r_cycles: %llu\n", (unsigned long long)c->stall_r);
  fprintf(f, "hw_jobs: %llu\n", (unsigned long long)c->jobs);
  fprintf(f, "tiles: %llu\n", (unsigned long long)c->tiles);
  fprintf(f, "epilogue_lanes: %u\n", hw->epi_lanes);
  const uint64_t tile_rows = c->pair ? 2 * (uint64_t)hw->rows : hw->rows;  // pair mode: 2R
  fprintf(f, "pair_mode: %llu\n", (unsigned long long)c->pair);
  fprintf(f, "result_bytes: %llu\n",
          (unsigned long long)c->tiles * ((tile_rows + 3) / 4) * hw->r_words * 4);
  fprintf(f, "sim_cycles: %llu\n", (unsigned long long)sim_cycles);
}

int s24_cmd_linear(int argc, char **argv) {
  largs_t a;
  int rc = parse(argc, argv, &a);
  if (rc != 0) return rc;
  if (a.help) return fputs(kUsageLinear, stdout), 0;
  s24_pattern_t p;
  const char *ptext = a.pattern ? a.pattern : "2:4";
  if (s24_pattern_parse(ptext, &p) != S24_OK) {
    return s24_cli_usage("linear", "invalid --pattern '%s' (N:M with M in {2, 4, 8} and 1 <= N <= M)", ptext);
  }
  s24_backend_t be;
  const char *bname = a.backend ? a.backend : "model";
  if (s24_backend_parse(bname, &be) != S24_OK) {
    return s24_cli_usage("linear", "unknown backend '%s' (model or rtl)", bname);
  }
  char msg[256];
  if (s24_backend_check(be, msg, sizeof msg) != S24_OK) {
    return s24_cli_error(EXIT_USAGE, "linear", "%s", msg);
  }
  const int compressed = a.values || a.meta || a.k;
  if (compressed && !(a.values && a.meta && a.k)) {
    return s24_cli_usage("linear", "--values, --meta and --k go together");
  }
  if (compressed && a.npos != 1) {
    return s24_cli_usage("linear", "with --values/--meta/--k expected exactly one input, X.npy");
  }
  if (!compressed && a.npos != 2) return s24_cli_usage("linear", "expected X.npy and W.npy");
  if (a.out == NULL) return s24_cli_usage("linear", "missing -o Y.npy");
  if (a.mult == NULL) return s24_cli_usage("linear", "missing --mult MULT.npy");
  if (a.shift == NULL) return s24_cli_usage("linear", "missing --shift SHIFT.npy");
  long zi = 0, zo = 0, kk = 0;
  if (a.zi && !parse_int(a.zi, -128, 127, &zi)) {
    return s24_cli_usage("linear", "--zp-in '%s' is not an integer in [-128, 127]", a.zi);
  }
  if (a.zo && !parse_int(a.zo, -128, 127, &zo)) {
    return s24_cli_usage("linear", "--zp-out '%s' is not an integer in [-128, 127]", a.zo);
  }
  // the clamp: --relu keeps its meaning (lo = max(-128, ZO), hi = 127); --act-min/--act-max
  // give any int8 range (TFLite's RELU6, RELU_N1_TO_1)
  long act_lo = a.relu ? (zo > -128 ? zo : -128) : -128, act_hi = 127;
  if (a.relu && a.act_min) return s24_cli_usage("linear", "--relu and --act-min exclude each other");
  if (a.act_min && !parse_int(a.act_min, -128, 127, &act_lo)) {
    return s24_cli_usage("linear", "--act-min '%s' is not an integer in [-128, 127]", a.act_min);
  }
  if (a.act_max && !parse_int(a.act_max, -128, 127, &act_hi)) {
    return s24_cli_usage("linear", "--act-max '%s' is not an integer in [-128, 127]", a.act_max);
  }
  if (act_lo > act_hi) {
    return s24_cli_usage("linear", "the clamp's low end %ld%s is above its high end %ld", act_lo,
                         a.relu ? " (--relu: max(-128, ZO))" : "", act_hi);
  }
  if (compressed && (a.k[0] == '-' || !parse_int(a.k, 1, 1L << 30, &kk))) {
    return s24_cli_usage("linear", "--k '%s' is not an integer in [1, 1073741824 = 2^30]", a.k);
  }
  if (compressed && kk % (long)p.m != 0) {
    return s24_cli_usage("linear", "--k %ld is not a multiple of m = %u (pattern %u:%u)", kk, (unsigned)p.m,
                     (unsigned)p.n, (unsigned)p.m);
  }

  // the output location is checked before anything is read or simulated (tools/outfile.h)
  s24_outs_t outs;
  s24_outs_init(&outs);
  {
    char omsg[512];
    size_t dup = 0;
    if (s24_outs_add(&outs, a.out, 0, &dup, omsg, sizeof omsg) != S24_OK) {
      s24_outs_abort(&outs);
      return s24_cli_file(outs.err_name != NULL ? outs.err_name : a.out, "%s", omsg);
    }
  }
  s24_npy_t x = {0}, w = {0}, v = {0}, md = {0}, bias = {0}, mult = {0}, shift = {0};
  int8_t *wd = NULL, *y = NULL, *vals = NULL;
  uint8_t *meta = NULL;
  const char *xpath = a.pos[0];
  const char *wpath = compressed ? a.values : a.pos[1];
  size_t m = 0, k = 0;
  if ((rc = load(xpath, S24_NPY_I8, 0, &x)) != 0) goto done;
  if (compressed) {
    k = (size_t)kk;
    const size_t vcols = s24_values_cols(p, k), mcols = s24_meta_cols(p, k);
    if ((rc = load(a.values, S24_NPY_I8, 0, &v)) != 0) goto done;
    if ((rc = load(a.meta, S24_NPY_U8, 0, &md)) != 0) goto done;
    if (v.cols != vcols) {
      rc = s24_cli_file(a.values, "shape (%zu, %zu): K = %zu with pattern %u:%u needs %zu value columns",
                    v.rows, v.cols, k, (unsigned)p.n, (unsigned)p.m, vcols);
      goto done;
    }
    if (md.cols != mcols || md.rows != v.rows) {
      rc = s24_cli_file(a.meta, "shape (%zu, %zu), expected (%zu, %zu) for %s and K = %zu", md.rows,
                    md.cols, v.rows, mcols, a.values, k);
      goto done;
    }
    m = v.rows;
    s24_where_t where;
    s24_status_t st = s24_meta_validate(p, md.data, m, k, &where);
    if (st == S24_ERR_META && where.count == S24_WHERE_PADDING) {
      rc = s24_cli_file(a.meta, "row %zu, group %zu: nonzero unused metadata bits after the last "
                    "index", where.row, where.group);
      goto done;
    }
    if (st == S24_ERR_META) {
      rc = s24_cli_file(a.meta, "row %zu, group %zu: invalid metadata (indices must strictly increase "
                    "and be < %u)", where.row, where.group, (unsigned)p.m);
      goto done;
    }
    wd = malloc(m * k);
    if (wd == NULL || s24_decompress(p, v.data, md.data, m, k, wd, &where) != S24_OK) {
      rc = s24_cli_file(a.values, "cannot decompress (out of memory)");
      goto done;
    }
    vals = v.data;
    meta = md.data;
  } else {
    if ((rc = load(wpath, S24_NPY_I8, 0, &w)) != 0) goto done;
    m = w.rows;
    k = w.cols;
    if (k % p.m != 0) {
      rc = s24_cli_file(wpath, "K = %zu is not a multiple of m = %u (pattern %u:%u)", k,
                    (unsigned)p.m, (unsigned)p.n, (unsigned)p.m);
      goto done;
    }
    s24_where_t where;
    if (s24_check_pattern(p, w.data, m, k, &where) != S24_OK) {
      rc = s24_cli_file(wpath,
                    "row %zu, group %zu (columns %zu..%zu) has %u nonzeros, pattern %u:%u allows "
                    "%u (run `sparse24 prune` first)",
                    where.row, where.group, where.group * p.m, where.group * p.m + p.m - 1,
                    (unsigned)where.count, (unsigned)p.n, (unsigned)p.m, (unsigned)p.n);
      goto done;
    }
    wd = w.data;
  }
  if (x.cols != k) {
    rc = s24_cli_file(xpath, "shape (%zu, %zu): X needs K = %zu columns to match %s", x.rows, x.cols,
                  k, wpath);
    goto done;
  }
  if (a.bias && (rc = load_channel(a.bias, "BIAS", m, INT32_MIN, INT32_MAX, &bias)) != 0) goto done;
  if ((rc = load_channel(a.mult, "MULT", m, 0, INT32_MAX, &mult)) != 0) goto done;
  if ((rc = load_channel(a.shift, "SHIFT", m, -31, 30, &shift)) != 0) goto done;
  const size_t bt = x.rows;
  y = m <= SIZE_MAX / bt ? malloc(bt * m) : NULL;
  if (y == NULL) {
    rc = s24_cli_file(a.out, "out of memory for a %zu x %zu result", bt, m);
    goto done;
  }
  char *stats_buf = NULL;
  size_t stats_len = 0;
  FILE *stats = a.stats ? open_memstream(&stats_buf, &stats_len) : NULL;
  if (a.stats && stats == NULL) {
    rc = s24_cli_file("linear", "cannot buffer statistics");
    goto done;
  }
  s24_status_t st;
  const int32_t *bias_v = a.bias ? bias.data : NULL;
  if (be == S24_BACKEND_MODEL) {
    st = s24_linear_ref(x.data, bt, wd, m, k, bias_v, mult.data, shift.data, (int32_t)zi,
                        (int32_t)zo, (int32_t)act_lo, (int32_t)act_hi, S24_ROUND_SINGLE, y);
    snprintf(msg, sizeof msg, "%s", s24_strerror(st));
    if (st == S24_OK && stats != NULL) {
      size_t nnz = 0;
      for (size_t i = 0; i < m * k; i++) nnz += wd[i] != 0;
      fprintf(stats, "backend: model\n");
      fprintf(stats, "pattern: %u:%u\n", (unsigned)p.n, (unsigned)p.m);
      fprintf(stats, "shape_bkm: %zux%zux%zu\n", bt, k, m);
      fprintf(stats, "macs_dense: %llu\n", (unsigned long long)bt * k * m);
      fprintf(stats, "macs_kept: %llu\n", (unsigned long long)bt * (s24_values_cols(p, k) * m));
      fprintf(stats, "weight_nonzeros: %zu\n", nnz);
    }
  } else {
    s24_cosim_t *sim = NULL;
    s24_dev_t dev;
    st = s24_rtl_open(NULL, k, &sim, &dev, msg, sizeof msg);
    if (st == S24_OK) {
      s24_weights_t wt;
      s24_where_t where;
      st = compressed ? s24_weights_load(&dev, p, vals, meta, m, k, &wt, &where)
                      : s24_weights_load_dense(&dev, wd, m, k, &wt);
      if (st == S24_OK) {
        const s24_linear_params_t prm = {bias_v,      mult.data,         shift.data,
                                         (int32_t)zi, (int32_t)zo,       (int32_t)act_lo,
                                         (int32_t)act_hi, S24_ROUND_SINGLE};
        st = s24_linear(&dev, &wt, x.data, bt, &prm, y);
        s24_weights_free(&wt);
      }
      if (st == S24_ERR_HW) {
        char bits[96];
        snprintf(msg, sizeof msg, "rtl linear failed: hardware error (ERR = %s)",
                 s24_err_bits_str(dev.last_err, bits, sizeof bits));
      } else if (st != S24_OK) {
        const char *e = s24_rtl_error(sim);
        snprintf(msg, sizeof msg, "rtl linear failed: %s", e[0] != '\0' ? e : s24_strerror(st));
      } else if (stats != NULL) {
        print_stats_rtl(stats, &dev, p, 0, bt, k, m, s24_rtl_sim_cycles(sim));
      }
      s24_dev_close(&dev);
      s24_rtl_close(sim);
    }
  }
  if (st != S24_OK) {
    rc = s24_cli_file(wpath, "%s", msg);
  } else {  // all or nothing: staged next to the target, then committed
    char wmsg[512];
    size_t which = 0;
    if (s24_outs_begin(&outs, &which, wmsg, sizeof wmsg) != S24_OK) {
      rc = s24_cli_file(a.out, "%s", wmsg);
    } else if (s24_npy_fwrite(s24_outs_file(&outs, 0), S24_NPY_I8, bt, m, y) != S24_OK) {
      rc = s24_cli_file(a.out, "cannot write output: %s", s24_outs_strerror(errno));
    } else if (s24_outs_commit(&outs, &which, wmsg, sizeof wmsg) != S24_OK) {
      rc = s24_cli_file(a.out, "%s", wmsg);
    }
  }
  if (stats != NULL) {
    fclose(stats);
    if (rc == 0) fwrite(stats_buf, 1, stats_len, stdout);
  }
  free(stats_buf);
done:
  s24_outs_abort(&outs);  // removes a staged output after a failure; frees the set
  if (wd != w.data) free(wd);
  free(y);
  s24_npy_free(&x);
  s24_npy_free(&w);
  s24_npy_free(&v);
  s24_npy_free(&md);
  s24_npy_free(&bias);
  s24_npy_free(&mult);
  s24_npy_free(&shift);
  return rc;
}

// ---------------------------------------------------------------------------------------------
// sparse24 bench --linear: the fused layer against the plain GEMM on the benchmark's shapes

#include <inttypes.h>

#include "bench.h"

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

// A strict decimal unsigned integer.
static int parse_u64_strict(const char *t, uint64_t *v) {
  if (t == NULL || *t < '0' || *t > '9') return 0;
  char *end = NULL;
  errno = 0;
  const unsigned long long x = strtoull(t, &end, 10);
  if (errno != 0 || *end != '\0') return 0;
  *v = x;
  return 1;
}

int s24_linear_bench_main(int argc, char **argv) {
  char dir_buf[4096];
  const char *dir = NULL;
  size_t first = s24_bench_shape_count();
  uint64_t seed = 1;
  static const char *const kOpts[] = {"--out", "--first", "--seed"};
  int seen = 0;  // bit j: kOpts[j] given
  for (int i = 2; i < argc; i++) {
    const char *o = argv[i];
    if (strcmp(o, "--linear") == 0) continue;
    if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
      fputs(s24_perf_bench_usage, stdout);
      return 0;
    }
    // "--opt value" or "--opt=value"
    const char *eq = strncmp(o, "--", 2) == 0 ? strchr(o, '=') : NULL;
    const size_t nlen = eq != NULL ? (size_t)(eq - o) : strlen(o);
    const char *v = eq != NULL ? eq + 1 : i + 1 < argc ? argv[i + 1] : NULL;
    int j = -1;
    for (int t = 0; t < 3; t++) {
      if (strlen(kOpts[t]) == nlen && strncmp(o, kOpts[t], nlen) == 0) j = t;
    }
    if (j < 0) {
      return s24_cli_usage("bench", "with --linear only --out, --first and --seed (got '%s')", o);
    }
    if (seen & (1 << j)) return s24_cli_usage("bench", "option %s given twice", kOpts[j]);
    seen |= 1 << j;
    if (v == NULL || *v == '\0') return s24_cli_usage("bench", "option %s needs a value", kOpts[j]);
    if (eq == NULL) i++;
    uint64_t x = 0;
    if (j == 0) {
      dir = v;
    } else if (j == 1) {
      if (!parse_u64_strict(v, &x) || x == 0 || x > s24_bench_shape_count()) {
        return s24_cli_usage("bench", "invalid --first '%s' (1 to %zu)", v, s24_bench_shape_count());
      }
      first = (size_t)x;
    } else {
      if (!parse_u64_strict(v, &seed)) return s24_cli_usage("bench", "invalid --seed '%s'", v);
    }
  }
  if (dir == NULL) dir = s24_bench_default_out(dir_buf, sizeof dir_buf);
  // the output goes through the one output module (tools/outfile.h): checked before the runs,
  // written all or nothing at the end
  static const char *const kNames[1] = {"linear.csv"};
  char paths[1][S24_BENCH_PATH_MAX];
  s24_outs_t outs;
  s24_outs_init(&outs);
  int added = 0;
  int rc = s24_bench_check_out_dir(dir, kNames, 1, paths, &outs, &added);
  if (rc != 0) {
    s24_outs_abort(&outs);
    return rc;
  }
  const char *path = paths[0];
  size_t k_max = 0;
  for (size_t i = 0; i < first; i++) {
    size_t m, k, n;
    int gemv;
    s24_bench_shape(i, 1, &m, &k, &n, &gemv);
    if (k > k_max) k_max = k;
  }
  s24_cosim_t *sim = NULL;
  s24_dev_t dev;
  char msg[256];
  if (s24_rtl_open(NULL, k_max, &sim, &dev, msg, sizeof msg) != S24_OK) {
    s24_outs_abort(&outs);
    return s24_cli_error(EXIT_DATA, "bench", "%s", msg);
  }
  char *csv_buf = NULL;
  size_t csv_len = 0;
  FILE *csv = open_memstream(&csv_buf, &csv_len);
  if (csv == NULL) {
    s24_dev_close(&dev);
    s24_rtl_close(sim);
    s24_outs_abort(&outs);
    return s24_cli_error(EXIT_DATA, "bench", "out of memory");
  }
  const s24_array_t hw = s24_dev_array(&dev);
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
    s24_bench_shape(i, 1, &m, &k, &n, &gemv);
    s24_bench_shape(i, 0, &fm, &fk, &fn, &gemv);
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
        st = s24_gemm_compressed(&dev, (s24_pattern_t){2, 4}, vals, meta, n, k, xt, m, NULL, c,
                                 &where);
      }
    }
    const s24_counters_t g = dev.counters;
    if (st == S24_OK) {
      st = s24_linear_ref(x, m, w, n, k, bias, mult, shift, 3, -5, -5, 127, S24_ROUND_SINGLE,
                          want);  // ReLU
    }
    if (st == S24_OK) {
      s24_weights_t wt;
      s24_where_t where;
      st = s24_weights_load(&dev, (s24_pattern_t){2, 4}, vals, meta, n, k, &wt, &where);
      const s24_linear_params_t prm = {bias, mult, shift, 3, -5, -5, 127, S24_ROUND_SINGLE};
      if (st == S24_OK) st = s24_linear(&dev, &wt, x, m, &prm, y);
      s24_weights_free(&wt);
    }
    const s24_counters_t l = dev.counters;
    uint64_t pred_small = 0, jobs_small = 0, pred_full = 0, jobs_full = 0;
    s24_gemm_cycles_t gfull;
    if (st == S24_OK) {
      st = linear_array_cycles(hw, dev.hw.epi_depth, n, k, m, &pred_small, &jobs_small);
    }
    if (st == S24_OK) {
      st = linear_array_cycles(hw, dev.hw.epi_depth, fn, fk, fm, &pred_full, &jobs_full);
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
  const uint32_t lanes = dev.hw.epi_lanes, depth = dev.hw.epi_depth, rows = dev.hw.rows;
  s24_dev_close(&dev);
  s24_rtl_close(sim);
  if (fclose(csv) != 0 && rc == 0) rc = s24_cli_error(EXIT_DATA, "bench", "out of memory");
  if (rc == 0 && !added) rc = s24_bench_add_outs(dir, 1, paths, &outs);
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
