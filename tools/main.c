// SPDX-License-Identifier: Apache-2.0
// sparse24: the command (SPEC §5): prune, compress, decompress, gemm, linear, demo, bench.
//
// Exit status: 0 success, 1 bad input data or I/O failure, 2 bad usage or unavailable backend.
// Every error is one line `sparse24: error: <file or command>: <what>` on stderr, and no
// output file is created or modified unless the whole command succeeds.
//
// The command table (kCommands, at the end) names every command with its options and grammar;
// the one parser (tools/cli.c) reads the command line, the entry's run() does the work.
#define _XOPEN_SOURCE 700  // realpath (same_path)

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "demo.h"
#include "linear.h"
#include "net.h"
#include "npy.h"
#include "outfile.h"
#include "sparse24.h"


static const char kUsageTop[] =
    "usage: sparse24 <command> [options]\n"
    "\n"
    "N:M structured-sparse int8 GEMM: C[MxN] (int32) = A[MxK] (int8, N:M sparse along K)\n"
    "* B[KxN] (int8). Matrices are .npy files (int8 |i1, uint8 |u1, int32 <i4, C order);\n"
    "networks are int8 .tflite models, their inputs and outputs .npy (float32 <f4 or int8).\n"
    "\n"
    "commands:\n"
    "  prune       keep the N largest magnitudes of every group of M (.npy or .tflite)\n"
    "  compress    dense N:M matrix -> values + metadata (NVIDIA 2:4 layout)\n"
    "  decompress  values + metadata -> dense matrix\n"
    "  gemm        C = A*B (+ C0) on a backend (model or rtl)\n"
    "  linear      fused int8 layer Y = requant(X*W^T + BIAS) (SPEC §7), model or rtl\n"
    "  info        the operators of an int8 .tflite model and where each runs (SPEC §8)\n"
    "  run         an int8 .tflite model on X.npy: CONV_2D and FULLY_CONNECTED on the array\n"
    "  demo        run a built-in 2:4 transformer layer end to end and check it\n"
    "  bench       performance benchmark: 2:4 vs dense cycles (model + RTL), targets;\n"
    "              --model-speed times one GEMM of a backend\n"
    "\n"
    "Run `sparse24 <command> --help` for the options of a command.\n"
    "Exit status: 0 ok, 1 bad input data or I/O error, 2 bad usage or backend not available.\n";

static const char kUsagePrune[] =
    "usage: sparse24 prune IN.npy -o OUT.npy [--pattern N:M]\n"
    "       sparse24 prune MODEL.tflite -o OUT.tflite [--pattern N:M]\n"
    "\n"
    "A .tflite model (recognised by its TFL3 identifier): every FULLY_CONNECTED and CONV_2D\n"
    "weight tensor pruned as below, per output channel along its flattened K (a last group\n"
    "shorter than M padded with zeros for the choice); every other byte unchanged.\n"
    "\n"
    "Magnitude pruning: in every aligned group of M along each row of IN (int8, R x K,\n"
    "K a multiple of M) keep the N elements of largest |value| (|-128| = 128 is the largest;\n"
    "ties keep the lower index) and set the others to 0. Writes int8 R x K to OUT.\n"
    "\n"
    "  -o, --output OUT.npy  output file (written atomically)\n"
    "  --pattern N:M         sparsity pattern (default 2:4)\n";

static const char kUsageInfo[] =
    "usage: sparse24 info MODEL.tflite\n"
    "\n"
    "One line per operator of an int8 .tflite model (SPEC §8): index, name, where it runs\n"
    "(array: FULLY_CONNECTED, CONV_2D; host: the others), GEMM shape MxKxN of one inference,\n"
    "the sparsest N:M pattern its weights hold, MACs, and the cycle model's busy cycles on the\n"
    "default 8x8 2:4 array; then the totals.\n";

static const char kUsageRun[] =
    "usage: sparse24 run MODEL.tflite X.npy -o Y.npy [--backend model|rtl|soc|soc-cpu] [--stats]\n"
    "\n"
    "Runs an int8 .tflite model (SPEC §8). X has the model input's dtype (int8 or float32) and\n"
    "shape, or that shape with a batch B in place of a leading 1 (B inferences); Y has the\n"
    "output's dtype and shape with the same B. FULLY_CONNECTED and CONV_2D (im2col) run as the\n"
    "fused int8 layer of SPEC §7 on the backend, each as its weights are (2:4-sparse: one beat\n"
    "per group; dense: two); the other operators run on the host (not timed), each bit-exact\n"
    "with LiteRT's reference kernels. The soc backends run the whole model on the simulated\n"
    "edge SoC instead (SPEC §9: VexRiscv with the runtime bare-metal, the IP on its bus; make\n"
    "soc builds it), every operator timed on its cycle counter.\n"
    "\n"
    "  -o, --output Y.npy    output (written atomically)\n"
    "  --backend B           model: the C golden model (default); rtl: the Verilated RTL through\n"
    "                        the driver; soc: the SoC, array layers on the IP; soc-cpu: the SoC,\n"
    "                        everything on its CPU (the baseline)\n"
    "  --stats               key: value lines: each array layer's cycles (rtl) and the cycle\n"
    "                        model's prediction, then the totals; on the SoC, per inference,\n"
    "                        each operator's cycles and where it ran, cycles_total, cycles_ip,\n"
    "                        cycles_cpu, load_cycles, arena_bytes, code_bytes, soc_mhz, ms_total\n";

static const char kUsageCompress[] =
    "usage: sparse24 compress IN.npy --values V.npy --meta MD.npy [--pattern N:M]\n"
    "\n"
    "Compresses IN (int8, R x K, at most N nonzeros per group of M; run `prune` first) into\n"
    "the canonical values (int8, R x K/M*N) and metadata (uint8, R x ceil(K/M*N*log2(M)/8))\n"
    "(indices LSB-first, as NVIDIA's 2:4 sparse tensor cores). A group violating the pattern\n"
    "is an error naming its row and group.\n"
    "\n"
    "  --values V.npy   values output\n"
    "  --meta MD.npy    metadata output\n"
    "  --pattern N:M    sparsity pattern (default 2:4)\n";

static const char kUsageDecompress[] =
    "usage: sparse24 decompress V.npy MD.npy -o OUT.npy --k K [--pattern N:M]\n"
    "\n"
    "Scatters values V (int8) by metadata MD (uint8) back to a dense int8 R x K matrix.\n"
    "Metadata with a repeated or decreasing index, or nonzero unused bits, is an error\n"
    "naming its row and group.\n"
    "\n"
    "  -o, --output OUT.npy  output file\n"
    "  --k K                 reduction length (columns of the dense matrix)\n"
    "  --pattern N:M         sparsity pattern (default 2:4)\n";

static const char kUsageGemm[] =
    "usage: sparse24 gemm A.npy B.npy -o C.npy [options]\n"
    "       sparse24 gemm --values V.npy --meta MD.npy --k K B.npy -o C.npy [options]\n"
    "\n"
    "C = A*B (+ C0): A int8 M x K (dense with zeros, must satisfy the pattern; or given\n"
    "compressed), B int8 K x N, C int32 M x N with wraparound modulo 2^32.\n"
    "\n"
    "  -o, --output C.npy       output file\n"
    "  --values V.npy           compressed A values (instead of A.npy)\n"
    "  --meta MD.npy            compressed A metadata (instead of A.npy)\n"
    "  --k K                    reduction length of the compressed A\n"
    "  --c0 C0.npy              int32 M x N added to the product\n"
    "  --pattern N:M            sparsity pattern (default 2:4)\n"
    "  --backend model|rtl      model: C golden model (default); rtl: Verilated RTL\n"
    "  --stats                  print `key: value` statistics of the run on stdout\n"
    "  --trace FILE.fst         rtl: dump the co-simulation waveform (GTKWave)\n";

static const char kUsageDemo[] =
    "usage: sparse24 demo [--backend model|rtl]\n"
    "\n"
    "Generates a fixed-seed transformer FFN down-projection (W 256x1024 int8, X 1024x64 int8),\n"
    "prunes W to 2:4, compresses it, runs the GEMM on the backend and checks every output\n"
    "against the dense reference. Exit 0 only if all outputs match.\n"
    "\n"
    "  --backend model|rtl  backend (default model)\n";

// ---------------------------------------------------------------------------------------------
// Files

// Outputs (tools/outfile.h): every target checked before any input is read, every output
// staged, then all committed or none.

// Adds output `path` (option `opt`, for messages) to the command's set; 0 or an exit code.
static int out_add(const char *cmd, s24_outs_t *o, const char **opts, const char *opt,
                   const char *path, int flags) {
  char msg[512];
  size_t dup = 0;
  const size_t i = o->n;
  s24_status_t st = s24_outs_add(o, path, flags, &dup, msg, sizeof msg);
  if (st == S24_ERR_ARG && dup < i) {
    return s24_cli_usage(cmd, "%s and %s name the same file", opts[dup], opt);
  }
  if (st != S24_OK) return s24_cli_file(o->err_name != NULL ? o->err_name : path, "%s", msg);
  opts[i] = opt;
  return 0;
}

static int out_begin(s24_outs_t *o) {
  char msg[512];
  size_t w = 0;
  if (s24_outs_begin(o, &w, msg, sizeof msg) != S24_OK) return s24_cli_file(o->o[w].path, "%s", msg);
  return 0;
}

// Writes array output i; on failure every output is discarded.
static int out_put(s24_outs_t *o, size_t i, s24_npy_dtype_t dt, size_t rows, size_t cols,
                   const void *data) {
  if (s24_npy_fwrite(s24_outs_file(o, i), dt, rows, cols, data) != S24_OK) {
    const int e = errno;
    const int rc = s24_cli_file(o->o[i].path, "cannot write output: %s", s24_outs_strerror(e));
    s24_outs_abort(o);
    return rc;
  }
  return 0;
}

static int out_commit(s24_outs_t *o) {
  char msg[512];
  size_t w = 0;
  const int rc = s24_outs_commit(o, &w, msg, sizeof msg) != S24_OK ? s24_cli_file(o->o[w].path, "%s", msg) : 0;
  s24_outs_abort(o);  // frees what is left (nothing to remove after a commit)
  return rc;
}

// begin + one array + commit
static int save1(s24_outs_t *o, s24_npy_dtype_t dt, size_t rows, size_t cols, const void *data) {
  int rc = out_begin(o);
  if (rc == 0) rc = out_put(o, 0, dt, rows, cols, data);
  if (rc == 0) rc = out_commit(o);
  return rc;
}

// A compressed operand from V.npy + MD.npy for reduction length k, fully validated (the
// metadata by the library's one check, its message naming MD.npy).
static int load_compressed(const char *vpath, const char *mpath, size_t k, s24_pattern_t p,
                           s24_npy_t *v, s24_npy_t *md) {
  const size_t vcols = s24_api_values_cols(p, k), mcols = s24_api_meta_cols(p, k);
  int rc = s24_cli_load(vpath, S24_NPY_I8, v);
  if (rc != 0) return rc;
  if ((rc = s24_cli_load(mpath, S24_NPY_U8, md)) != 0) goto fail_v;
  if (v->cols != vcols) {
    rc = s24_cli_file(vpath, "shape (%zu, %zu): K = %zu with pattern %u:%u needs %zu value columns",
                  v->rows, v->cols, k, (unsigned)p.n, (unsigned)p.m, vcols);
    goto fail;
  }
  if (md->cols != mcols) {
    rc = s24_cli_file(mpath,
                  "shape (%zu, %zu): K = %zu with pattern %u:%u needs %zu metadata bytes per row",
                  md->rows, md->cols, k, (unsigned)p.n, (unsigned)p.m, mcols);
    goto fail;
  }
  if (md->rows != v->rows) {
    rc = s24_cli_file(mpath, "%zu rows, but %s has %zu", md->rows, vpath, v->rows);
    goto fail;
  }
  char msg[S24_API_ERRLEN];
  if (s24_api_check_meta(p, md->data, md->rows, k, "metadata", msg, sizeof msg) != S24_OK) {
    const char *const names[][2] = {{"metadata", mpath}};
    rc = s24_cli_api_error(msg, names, 1, mpath);
    goto fail;
  }
  return 0;
fail:
  s24_npy_free(md);
fail_v:
  s24_npy_free(v);
  return rc;
}

// The library's check of A (pattern and K, naming row, group and count) as file's error.
static int check_a(const char *file, s24_pattern_t p, const int8_t *a, size_t rows, size_t k) {
  char msg[S24_API_ERRLEN];
  if (s24_api_check_pattern(p, a, rows, k, "A", msg, sizeof msg) == S24_OK) return 0;
  const char *const names[][2] = {{"A", file}};
  return s24_cli_api_error(msg, names, 1, file);
}

// ---------------------------------------------------------------------------------------------
// Commands

// An option a command cannot do without, and the usage error when it is missing.
typedef struct {
  s24_opt_t opt;
  const char *missing;
} need_t;

// The checks that open prune, compress and decompress, in this order: the pattern (into *p),
// npos positional arguments (else the usage error npos_msg), each of the n options of need.
static int pattern_and_args(const s24_cli_args_t *a, s24_pattern_t *p, int npos,
                            const char *npos_msg, const need_t *need, size_t n) {
  int rc = s24_cli_pattern(a, p);
  if (rc != 0) return rc;
  if (a->npos != npos) return s24_cli_usage(a->cmd, "%s", npos_msg);
  for (size_t i = 0; i < n; i++) {
    if (!s24_cli_has(a, need[i].opt)) return s24_cli_usage(a->cmd, "%s", need[i].missing);
  }
  return 0;
}

static int cmd_prune(const s24_cli_args_t *a) {
  s24_pattern_t p;
  int rc = pattern_and_args(a, &p, 1, "expected one input file", NULL, 0);
  if (rc != 0) return rc;
  const char *in = a->pos[0];
  // the output's name follows the input's kind: a model is pruned into a model
  if (!s24_cli_has(a, S24_OPT_OUTPUT)) {
    return s24_cli_usage("prune", "missing -o %s",
                         s24_net_file_is_tflite(in) ? "OUT.tflite" : "OUT.npy");
  }
  s24_outs_t outs;
  const char *names[S24_OUTS_MAX];
  s24_outs_init(&outs);
  rc = out_add("prune", &outs, names, "-o", s24_cli_val(a, S24_OPT_OUTPUT), 0);
  if (rc != 0) return rc;
  if (s24_net_file_is_tflite(in)) {  // a network: its FULLY_CONNECTED and CONV_2D weights
    rc = s24_net_cmd_prune(in, p, &outs);
    goto out;
  }
  s24_npy_t arr;
  if ((rc = s24_cli_load(in, S24_NPY_I8, &arr)) != 0) goto out;
  char msg[S24_API_ERRLEN];
  if (s24_api_prune(p, arr.data, arr.rows, arr.cols, arr.data, msg, sizeof msg) != S24_OK) {
    const char *const names[][2] = {{"A", in}};
    rc = s24_cli_api_error(msg, names, 1, in);
  } else {
    rc = save1(&outs, S24_NPY_I8, arr.rows, arr.cols, arr.data);
  }
  s24_npy_free(&arr);
out:
  s24_outs_abort(&outs);
  return rc;
}

// Whether two command-line paths name one file, existing or not: the same inode, or else the
// same canonical directory and the same last component ("x.npy" and "./x.npy" are one file).
static int same_path(const char *x, const char *y) {
  struct stat sx, sy;
  const int ex = stat(x, &sx) == 0, ey = stat(y, &sy) == 0;
  if (ex && ey) return sx.st_dev == sy.st_dev && sx.st_ino == sy.st_ino;
  if (ex != ey) return 0;
  char cx[4096], cy[4096], bx[4096], by[4096];
  const char *px[2] = {x, y};
  char *canon[2] = {cx, cy}, *base[2] = {bx, by};
  for (int i = 0; i < 2; i++) {
    const char *slash = strrchr(px[i], '/');
    char dir[4096];
    if (strlen(px[i]) >= sizeof dir) return strcmp(x, y) == 0;
    if (slash == NULL) {
      strcpy(dir, ".");
      strcpy(base[i], px[i]);
    } else {
      memcpy(dir, px[i], (size_t)(slash - px[i]));
      dir[slash - px[i]] = '\0';
      if (dir[0] == '\0') strcpy(dir, "/");
      strcpy(base[i], slash + 1);
    }
    if (realpath(dir, canon[i]) == NULL) return strcmp(x, y) == 0;
  }
  return strcmp(cx, cy) == 0 && strcmp(bx, by) == 0;
}

static int cmd_compress(const s24_cli_args_t *a) {
  static const need_t need[] = {{S24_OPT_VALUES, "missing --values V.npy"},
                                {S24_OPT_META, "missing --meta MD.npy"}};
  s24_pattern_t p;
  int rc = pattern_and_args(a, &p, 1, "expected one input file", need, 2);
  if (rc != 0) return rc;
  const char *in = a->pos[0];
  const char *vpath = s24_cli_val(a, S24_OPT_VALUES), *mpath = s24_cli_val(a, S24_OPT_META);
  s24_outs_t outs;
  const char *names[S24_OUTS_MAX];
  s24_outs_init(&outs);
  if ((rc = out_add("compress", &outs, names, "--values", vpath, 0)) != 0 ||
      (rc = out_add("compress", &outs, names, "--meta", mpath, 0)) != 0) {
    s24_outs_abort(&outs);
    return rc;
  }
  s24_npy_t arr = {0};
  if ((rc = s24_cli_load(in, S24_NPY_I8, &arr)) != 0 ||
      (rc = check_a(in, p, arr.data, arr.rows, arr.cols)) != 0) {
    s24_npy_free(&arr);
    s24_outs_abort(&outs);
    return rc;
  }
  const size_t vcols = s24_api_values_cols(p, arr.cols), mcols = s24_api_meta_cols(p, arr.cols);
  int8_t *val = malloc(arr.rows * vcols);
  uint8_t *meta = malloc(arr.rows * mcols);
  char msg[S24_API_ERRLEN];
  if (val == NULL || meta == NULL) {
    rc = s24_cli_file(in, "%s", s24_strerror(S24_ERR_NOMEM));
  } else if (s24_api_compress(p, arr.data, arr.rows, arr.cols, val, meta, msg, sizeof msg) !=
             S24_OK) {
    const char *const names[][2] = {{"A", in}};
    rc = s24_cli_api_error(msg, names, 1, in);
  } else {
    // Both outputs are staged before either becomes visible; the commit renames the pair
    // under a lock, so concurrent runs leave one run's pair, never a mix.
    if ((rc = out_begin(&outs)) == 0 &&
        (rc = out_put(&outs, 0, S24_NPY_I8, arr.rows, vcols, val)) == 0 &&
        (rc = out_put(&outs, 1, S24_NPY_U8, arr.rows, mcols, meta)) == 0) {
      rc = out_commit(&outs);
    }
  }
  s24_outs_abort(&outs);
  free(val);
  free(meta);
  s24_npy_free(&arr);
  return rc;
}

static int get_k(const char *cmd, const s24_cli_args_t *a, s24_pattern_t p, size_t *k) {
  const char *text = s24_cli_val(a, S24_OPT_K);
  if (!s24_cli_parse_size(text, k)) {
    return s24_cli_usage(cmd, "invalid --k '%s' (a positive integer)", text);
  }
  if (*k % p.m != 0) {
    return s24_cli_usage(cmd, "--k %zu is not a multiple of m = %u (pattern %u:%u)", *k,
                     (unsigned)p.m, (unsigned)p.n, (unsigned)p.m);
  }
  return 0;
}

static int cmd_decompress(const s24_cli_args_t *a) {
  static const need_t need[] = {{S24_OPT_OUTPUT, "missing -o OUT.npy"}, {S24_OPT_K, "missing --k K"}};
  s24_pattern_t p;
  int rc = pattern_and_args(a, &p, 2, "expected V.npy and MD.npy", need, 2);
  if (rc != 0) return rc;
  size_t k;
  if ((rc = get_k("decompress", a, p, &k)) != 0) return rc;
  const char *opath = s24_cli_val(a, S24_OPT_OUTPUT);
  s24_outs_t outs;
  const char *names[S24_OUTS_MAX];
  s24_outs_init(&outs);
  if ((rc = out_add("decompress", &outs, names, "-o", opath, 0)) != 0) return rc;
  s24_npy_t v, md;
  if ((rc = load_compressed(a->pos[0], a->pos[1], k, p, &v, &md)) != 0) {
    s24_outs_abort(&outs);
    return rc;
  }
  int8_t *out = v.rows <= SIZE_MAX / k ? malloc(v.rows * k) : NULL;
  char msg[S24_API_ERRLEN];
  if (out == NULL) {  // the output does not fit in memory: nothing wrong with the inputs
    rc = s24_cli_file(opath, "out of memory for a %zu x %zu result", v.rows, k);
  } else if (s24_api_decompress(p, v.data, md.data, v.rows, k, out, msg, sizeof msg) != S24_OK) {
    const char *const names[][2] = {{"metadata", a->pos[1]}, {"values", a->pos[0]}};
    rc = s24_cli_api_error(msg, names, 2, a->pos[1]);
  } else {
    rc = save1(&outs, S24_NPY_I8, v.rows, k, out);
  }
  s24_outs_abort(&outs);
  free(out);
  s24_npy_free(&v);
  s24_npy_free(&md);
  return rc;
}

// What can have stopped the FST writer (it reports no error): the limits in force, a full disk.
static void trace_causes(const char *path, char *buf, size_t len) {
  char part[4][96];
  int n = 0;
  struct rlimit rl;
  if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    snprintf(part[n++], sizeof part[0], "the file size limit (ulimit -f) of %llu bytes",
             (unsigned long long)rl.rlim_cur);
  }
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 64) {
    snprintf(part[n++], sizeof part[0], "the limit of %llu open files (ulimit -n)",
             (unsigned long long)rl.rlim_cur);
  }
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    snprintf(part[n++], sizeof part[0], "the memory limit (ulimit -v) of %llu KiB",
             (unsigned long long)rl.rlim_cur / 1024);
  }
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash == NULL) {
    strcpy(dir, ".");
  } else {
    slash[slash == dir] = '\0';
  }
  struct statvfs vfs;
  if (statvfs(dir, &vfs) == 0 && (unsigned long long)vfs.f_bavail * vfs.f_frsize < (1u << 20)) {
    snprintf(part[n++], sizeof part[0], "a full disk");
  }
  if (n == 0) snprintf(part[n++], sizeof part[0], "a failed write or allocation");
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && used < len; i++) {
    const int w = snprintf(buf + used, len - used, "%s%s", i > 0 ? " or " : "", part[i]);
    if (w < 0) break;
    used += (size_t)w;
  }
}

// Whether an FST waveform file is complete: from the header block to exactly the end of the
// file a chain of blocks (type byte, 8-byte big-endian length that counts itself), none left
// unfinished (FST_BL_SKIP = 255), ending with the geometry and hierarchy blocks that the
// writer adds when the trace is closed. A write the writer lost (ENOSPC, EFBIG) breaks it.
static int fst_complete(const char *path, char *why, size_t len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    snprintf(why, len, "cannot read the waveform back: %s", strerror(errno));
    return 0;
  }
  struct stat st;
  long long off = 0, size = fstat(fileno(f), &st) == 0 ? (long long)st.st_size : -1;
  int blocks = 0, geom = 0, hier = 0, ok = size > 0;
  while (ok && off < size) {
    unsigned char h[9];
    ok = fseeko(f, (off_t)off, SEEK_SET) == 0 && fread(h, 1, 9, f) == 9;
    unsigned long long blen = 0;
    for (int i = 1; ok && i < 9; i++) blen = blen << 8 | h[i];
    ok = ok && (blocks > 0 || h[0] == 0) && h[0] <= 8 && blen >= 8 &&
         blen <= (unsigned long long)(size - off - 1);
    if (!ok) break;
    geom |= h[0] == 3;
    hier |= h[0] == 4 || h[0] == 6 || h[0] == 7;
    off += 1 + (long long)blen;
    blocks++;
  }
  fclose(f);
  if (!ok || off != size || !geom || !hier) {
    char causes[400];
    trace_causes(path, causes, sizeof causes);
    snprintf(why, len, "the waveform is incomplete (%lld bytes): it could not be written (%s?)",
             size, causes);
    return 0;
  }
  return 1;
}

static int cmd_gemm(const s24_cli_args_t *a) {
  int rc = 0;
  s24_pattern_t p;
  const char *be = NULL;
  if ((rc = s24_cli_pattern(a, &p)) != 0) return rc;
  if ((rc = s24_cli_backend(a, &be)) != 0) return rc;
  const uint64_t va_md_k = S24_OPT(S24_OPT_VALUES) | S24_OPT(S24_OPT_META) | S24_OPT(S24_OPT_K);
  const int compressed = (a->given & va_md_k) != 0;
  if (compressed && (a->given & va_md_k) != va_md_k) {
    return s24_cli_usage("gemm", "--values, --meta and --k go together");
  }
  if (compressed && a->npos != 1) {
    return s24_cli_usage("gemm", "with --values/--meta/--k expected exactly one input, B.npy");
  }
  if (!compressed && a->npos != 2) return s24_cli_usage("gemm", "expected A.npy and B.npy");
  if (!s24_cli_has(a, S24_OPT_OUTPUT)) return s24_cli_usage("gemm", "missing -o C.npy");
  if (s24_cli_has(a, S24_OPT_TRACE) && !s24_api_backend_is_hw(be)) {
    return s24_cli_usage("gemm", "--trace needs --backend rtl");
  }
  if (s24_cli_has(a, S24_OPT_TRACE)) {  // the trace replaces its file after the run: never an input
    const char *trace = s24_cli_val(a, S24_OPT_TRACE);
    const char *used[6] = {NULL};
    size_t nused = 0;
    for (int i = 0; i < a->npos; i++) used[nused++] = a->pos[i];
    if (s24_cli_has(a, S24_OPT_VALUES)) used[nused++] = s24_cli_val(a, S24_OPT_VALUES);
    if (s24_cli_has(a, S24_OPT_META)) used[nused++] = s24_cli_val(a, S24_OPT_META);
    if (s24_cli_has(a, S24_OPT_C0)) used[nused++] = s24_cli_val(a, S24_OPT_C0);
    for (size_t i = 0; i < nused; i++) {
      if (used[i] != NULL && same_path(trace, used[i])) {
        return s24_cli_usage("gemm", "--trace %s names a file the command reads or writes", trace);
      }
    }
  }
  size_t k = 0;
  if (compressed && (rc = get_k("gemm", a, p, &k)) != 0) return rc;
  // every output location is checked before anything is read or simulated
  s24_outs_t outs;
  const char *names[S24_OUTS_MAX];
  s24_outs_init(&outs);
  if ((rc = out_add("gemm", &outs, names, "-o", s24_cli_val(a, S24_OPT_OUTPUT), 0)) != 0) return rc;
  if (s24_cli_has(a, S24_OPT_TRACE) &&
      (rc = out_add("gemm", &outs, names, "--trace", s24_cli_val(a, S24_OPT_TRACE),
                    S24_OUT_REGULAR_ONLY)) != 0) {
    s24_outs_abort(&outs);
    return rc;
  }

  s24_npy_t va = {0}, md = {0}, ad = {0}, bm = {0}, c0 = {0};
  const char *apath = compressed ? s24_cli_val(a, S24_OPT_VALUES) : a->pos[0];
  const char *bpath = compressed ? a->pos[0] : a->pos[1];
  int32_t *c = NULL;
  s24_api_dev_t *dev = NULL;
  char *stats = NULL;
  if (compressed) {
    if ((rc = load_compressed(apath, s24_cli_val(a, S24_OPT_META), k, p, &va, &md)) != 0) goto done;
  } else {
    // Dense A: the pattern checked (naming row and group) before B is read, then A as it is to
    // the device (no compressed copy that the driver would only expand again)
    if ((rc = s24_cli_load(apath, S24_NPY_I8, &ad)) != 0) goto done;
    if ((rc = check_a(apath, p, ad.data, ad.rows, ad.cols)) != 0) goto done;
    k = ad.cols;
  }
  const size_t m = compressed ? va.rows : ad.rows;
  if ((rc = s24_cli_load(bpath, S24_NPY_I8, &bm)) != 0) goto done;
  if (bm.rows != k) {
    rc = s24_cli_file(bpath, "shape (%zu, %zu): B needs K = %zu rows to match %s", bm.rows, bm.cols,
                  k, apath);
    goto done;
  }
  const size_t n = bm.cols;
  if (s24_cli_has(a, S24_OPT_C0)) {
    const char *cpath = s24_cli_val(a, S24_OPT_C0);
    if ((rc = s24_cli_load(cpath, S24_NPY_I32, &c0)) != 0) goto done;
    if (c0.rows != m || c0.cols != n) {
      rc = s24_cli_file(cpath, "shape (%zu, %zu), expected (%zu, %zu) = M x N", c0.rows, c0.cols, m,
                    n);
      goto done;
    }
  }
  c = m <= SIZE_MAX / n / sizeof(int32_t) ? malloc(m * n * sizeof(int32_t)) : NULL;
  if (c == NULL) {
    rc = s24_cli_file(s24_cli_val(a, S24_OPT_OUTPUT), "out of memory for a %zu x %zu result", m, n);
    goto done;
  }
  // With --trace the outputs are staged before the run (the simulation writes the trace into
  // its temporary); without, only once the run succeeded. Either way a signal during the run
  // leaves nothing behind (tools/outfile.h).
  if (s24_cli_has(a, S24_OPT_TRACE) && (rc = out_begin(&outs)) != 0) goto done;
  if (s24_cli_has(a, S24_OPT_TRACE)) {
    char line[600];
    snprintf(line, sizeof line,
             "sparse24: error: %s: bus error while writing the waveform (disk full or a file "
             "size limit?); no output written",
             s24_cli_val(a, S24_OPT_TRACE));
    s24_outs_fault_note(line);
  }
  const s24_api_options_t opts = {be, s24_cli_has(a, S24_OPT_TRACE) ? s24_outs_handoff(&outs, 1)
                                                                    : NULL};
  char msg[S24_API_ERRLEN];
  s24_status_t st = s24_api_open_ex(&opts, &dev, msg, sizeof msg);
  if (st == S24_OK) {
    st = compressed ? s24_api_gemm_compressed(dev, p, va.data, md.data, m, k, bm.data, n,
                                              c0.data, c, msg, sizeof msg)
                    : s24_api_gemm(dev, &p, ad.data, m, k, bm.data, n, c0.data, c, msg,
                                   sizeof msg);
  }
  size_t stats_len = 0;
  if (st == S24_OK && s24_cli_has(a, S24_OPT_STATS) &&
      (s24_api_stats_text(dev, NULL, 0, &stats_len) != S24_OK ||
       (stats = malloc(stats_len + 1)) == NULL ||
       s24_api_stats_text(dev, stats, stats_len + 1, NULL) != S24_OK)) {
    rc = s24_cli_file("gemm", "cannot buffer statistics");
  }
  s24_api_close(dev);  // finishes the waveform
  dev = NULL;
  s24_outs_fault_note(NULL);  // the waveform writer is closed
  if (rc != 0) goto done;
  if (st == S24_ERR_UNSUPPORTED) {
    rc = s24_cli_error(EXIT_USAGE, "gemm", "%s", msg);
    goto done;
  }
  if (st != S24_OK) {
    // an I/O failure of the rtl backend is the trace file's; a message naming an operand goes
    // to its file; anything else concerns A
    const int trace_io = st == S24_ERR_IO && opts.trace_path != NULL;
    const char *what = trace_io ? s24_cli_val(a, S24_OPT_TRACE) : st == S24_ERR_NOMEM ? "gemm" : apath;
    const char *const names[][2] = {{"A metadata", s24_cli_val(a, S24_OPT_META)}, {"A", apath},
                                    {"B", bpath}, {"C0", s24_cli_val(a, S24_OPT_C0)}};
    rc = trace_io ? s24_cli_file(what, "%s", msg) : s24_cli_api_error(msg, names, 4, what);
    goto done;
  }
  // the waveform writer reports no I/O error (full disk, size limit): check the file it left
  if (opts.trace_path != NULL && !fst_complete(opts.trace_path, msg, sizeof msg)) {
    rc = s24_cli_file(s24_cli_val(a, S24_OPT_TRACE), "%s", msg);
    goto done;
  }
  if (!s24_cli_has(a, S24_OPT_TRACE) && (rc = out_begin(&outs)) != 0) goto done;
  if ((rc = out_put(&outs, 0, S24_NPY_I32, m, n, c)) != 0) goto done;
  if ((rc = out_commit(&outs)) != 0) goto done;
  if (stats != NULL) fwrite(stats, 1, stats_len, stdout);
done:
  s24_api_close(dev);
  s24_outs_abort(&outs);
  free(stats);
  free(c);
  s24_npy_free(&va);
  s24_npy_free(&md);
  s24_npy_free(&ad);
  s24_npy_free(&bm);
  s24_npy_free(&c0);
  return rc;
}

static int cmd_info(const s24_cli_args_t *a) {
  if (a->npos != 1) return s24_cli_usage("info", "expected one model file");
  return s24_net_cmd_info(a->pos[0]);
}

static int cmd_run(const s24_cli_args_t *a) {
  int rc = 0;
  if (a->npos != 2) return s24_cli_usage("run", "expected MODEL.tflite and X.npy");
  if (!s24_cli_has(a, S24_OPT_OUTPUT)) return s24_cli_usage("run", "missing -o Y.npy");
  const char *be = NULL;
  if ((rc = s24_cli_backend(a, &be)) != 0) return rc;
  s24_outs_t outs;
  const char *names[S24_OUTS_MAX];
  s24_outs_init(&outs);
  if ((rc = out_add("run", &outs, names, "-o", s24_cli_val(a, S24_OPT_OUTPUT), 0)) != 0) return rc;
  if (s24_outs_is(&outs, 0, a->pos[0]) || s24_outs_is(&outs, 0, a->pos[1])) {
    s24_outs_abort(&outs);
    return s24_cli_usage("run", "-o names an input file");
  }
  rc = s24_net_cmd_run(a->pos[0], a->pos[1], &outs, be, s24_cli_has(a, S24_OPT_STATS) != 0);
  s24_outs_abort(&outs);
  return rc;
}

static int cmd_demo(const s24_cli_args_t *a) {
  int rc = 0;
  const char *be = NULL;
  if ((rc = s24_cli_backend(a, &be)) != 0) return rc;
  char msg[256];
  if (s24_demo_run(be, stdout, msg, sizeof msg) != S24_OK) {
    return s24_cli_error(EXIT_DATA, "demo", "%s", msg);
  }
  return 0;
}

// Everything the command printed must have reached stdout (a full disk, a closed descriptor):
// otherwise exit 1 with one error line, unless an error was already reported.
static int check_stdout(int rc) {
  int e = 0;
  if (fflush(stdout) != 0) e = errno;
  if (e == 0 && ferror(stdout)) e = EIO;
  if (fclose(stdout) != 0 && e == 0) e = errno;
  if (e == 0) return rc;
  if (rc == 0) {
    fprintf(stderr, "sparse24: error: stdout: %s\n", strerror(e));
    return EXIT_DATA;
  }
  return rc;
}

// The command table: every command (and each mode of `bench`) with its options and grammar,
// parsed by the one parser (tools/cli.c).
#define OPTS(x) S24_OPT(S24_OPT_##x)
static const s24_cli_cmd_t kCommands[] = {
    {"prune", NULL, kUsagePrune, OPTS(OUTPUT) | OPTS(PATTERN), 0, 1, 0, S24_CLI_STRICT, NULL, NULL,
     cmd_prune},
    {"compress", NULL, kUsageCompress, OPTS(VALUES) | OPTS(META) | OPTS(PATTERN), 0, 1, 0,
     S24_CLI_STRICT, NULL, NULL, cmd_compress},
    {"decompress", NULL, kUsageDecompress, OPTS(OUTPUT) | OPTS(K) | OPTS(PATTERN), 0, 2, 0,
     S24_CLI_STRICT, NULL, NULL, cmd_decompress},
    {"gemm", NULL, kUsageGemm,
     OPTS(OUTPUT) | OPTS(PATTERN) | OPTS(BACKEND) | OPTS(VALUES) | OPTS(META) | OPTS(K) |
         OPTS(C0) | OPTS(STATS) | OPTS(TRACE),
     0, 2, 0, S24_CLI_STRICT, NULL, NULL, cmd_gemm},
    {"linear", NULL, s24_linear_usage,
     OPTS(OUTPUT) | OPTS(BIAS) | OPTS(MULT) | OPTS(SHIFT) | OPTS(ZP_IN) | OPTS(ZP_OUT) |
         OPTS(VALUES) | OPTS(META) | OPTS(K) | OPTS(PATTERN) | OPTS(BACKEND) | OPTS(ACT_MIN) |
         OPTS(ACT_MAX) | OPTS(RELU) | OPTS(STATS),
     0, 2, 0, S24_CLI_TYPED, NULL, NULL, s24_cmd_linear},
    {"info", NULL, kUsageInfo, 0, 0, 1, 0, S24_CLI_STRICT, NULL, NULL, cmd_info},
    {"run", NULL, kUsageRun, OPTS(OUTPUT) | OPTS(BACKEND) | OPTS(STATS), 0, 2, 0, S24_CLI_STRICT,
     NULL, NULL, cmd_run},
    {"demo", NULL, kUsageDemo, OPTS(BACKEND), 0, 0, 0, S24_CLI_STRICT, NULL, NULL, cmd_demo},
    // bench: --model-speed (or any of --shape, --pattern, --reps), else --linear, else the
    // benchmark
    {"bench", s24_bench_is_speed, s24_bench_speed_usage,
     OPTS(BACKEND) | OPTS(SHAPE) | OPTS(PATTERN) | OPTS(REPS),
     OPTS(MODEL_SPEED) | OPTS(MODEL_ONLY), 0, 63, S24_CLI_STRICT, NULL, NULL, s24_bench_speed_run},
    {"bench", s24_bench_is_linear, s24_perf_bench_usage, OPTS(OUT_DIR) | OPTS(FIRST) | OPTS(SEED),
     OPTS(LINEAR), 0, 0, S24_CLI_BENCH_LINEAR,
     "with --linear only --out, --first and --seed (got '%s')", s24_bench_linear_check,
     s24_bench_linear_run},
    {"bench", NULL, s24_perf_bench_usage,
     OPTS(OUT_DIR) | OPTS(FIRST) | OPTS(ARRAY) | OPTS(SEED) | OPTS(BACKEND) | OPTS(MODEL_ONLY),
     0, 0, 0, S24_CLI_BENCH, NULL, s24_bench_perf_check, s24_bench_perf_run},
};

static int run(int argc, char **argv) {
  if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
                    strcmp(argv[1], "help") == 0)) {
    fputs(kUsageTop, stdout);
    return 0;
  }
  return s24_cli_dispatch(kCommands, sizeof kCommands / sizeof kCommands[0], argc, argv);
}

int main(int argc, char **argv) {
  // a closed standard descriptor would be reused by the first file the command opens (an
  // output temporary would receive the statistics): filled, read-only (tools/outfile.h)
  s24_outs_guard_std_fds();
  s24_outs_signals();
  return check_stdout(run(argc, argv));
}
