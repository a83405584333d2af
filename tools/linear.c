// SPDX-License-Identifier: Apache-2.0
// sparse24 linear: the fused int8 layer of SPEC §7 (TFLite int8 FULLY_CONNECTED, per-channel)
// on a device of the library (include/sparse24.h: the golden model, or the Verilated RTL
// through the driver, where the epilogue runs in hardware and the host receives int8).
#include "linear.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "npy.h"
#include "outfile.h"
#include "sparse24.h"


const char s24_linear_usage[] =
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

// A per-channel int32 vector of length m with every entry in [lo, hi] (tools/npy.c).
static int load_channel(const char *path, const char *what, size_t m, long lo, long hi,
                        s24_npy_t *arr) {
  char msg[256];
  if (s24_npy_read_channel(path, what, m, lo, hi, arr, msg, sizeof msg) != S24_OK) {
    return s24_cli_file(path, "%s", msg);
  }
  return 0;
}

int s24_cmd_linear(const s24_cli_args_t *args) {
  // the options' values (NULL: not given)
  const char *const out = s24_cli_val(args, S24_OPT_OUTPUT);
  const char *const bias_path = s24_cli_val(args, S24_OPT_BIAS);
  const char *const mult_path = s24_cli_val(args, S24_OPT_MULT);
  const char *const shift_path = s24_cli_val(args, S24_OPT_SHIFT);
  const char *const zi_text = s24_cli_val(args, S24_OPT_ZP_IN);
  const char *const zo_text = s24_cli_val(args, S24_OPT_ZP_OUT);
  const char *const values = s24_cli_val(args, S24_OPT_VALUES);
  const char *const meta_path = s24_cli_val(args, S24_OPT_META);
  const char *const k_text = s24_cli_val(args, S24_OPT_K);
  const char *const act_min = s24_cli_val(args, S24_OPT_ACT_MIN);
  const char *const act_max = s24_cli_val(args, S24_OPT_ACT_MAX);
  const int relu = s24_cli_has(args, S24_OPT_RELU), want_stats = s24_cli_has(args, S24_OPT_STATS);
  int rc = 0;
  s24_pattern_t p;
  if ((rc = s24_cli_pattern(args, &p)) != 0) return rc;
  const char *be = NULL;
  if ((rc = s24_cli_backend(args, &be)) != 0) return rc;
  char msg[S24_API_ERRLEN];
  const int compressed = values || meta_path || k_text;
  if (compressed && !(values && meta_path && k_text)) {
    return s24_cli_usage("linear", "--values, --meta and --k go together");
  }
  if (compressed && args->npos != 1) {
    return s24_cli_usage("linear", "with --values/--meta/--k expected exactly one input, X.npy");
  }
  if (!compressed && args->npos != 2) return s24_cli_usage("linear", "expected X.npy and W.npy");
  if (out == NULL) return s24_cli_usage("linear", "missing -o Y.npy");
  if (mult_path == NULL) return s24_cli_usage("linear", "missing --mult MULT.npy");
  if (shift_path == NULL) return s24_cli_usage("linear", "missing --shift SHIFT.npy");
  long zi = 0, zo = 0, kk = 0;
  if (zi_text && !parse_int(zi_text, -128, 127, &zi)) {
    return s24_cli_usage("linear", "--zp-in '%s' is not an integer in [-128, 127]", zi_text);
  }
  if (zo_text && !parse_int(zo_text, -128, 127, &zo)) {
    return s24_cli_usage("linear", "--zp-out '%s' is not an integer in [-128, 127]", zo_text);
  }
  // the clamp: --relu keeps its meaning (lo = max(-128, ZO), hi = 127); --act-min/--act-max
  // give any int8 range (TFLite's RELU6, RELU_N1_TO_1)
  long act_lo = relu ? s24_api_relu_min((int32_t)zo) : -128, act_hi = 127;
  if (relu && act_min) return s24_cli_usage("linear", "--relu and --act-min exclude each other");
  if (act_min && !parse_int(act_min, -128, 127, &act_lo)) {
    return s24_cli_usage("linear", "--act-min '%s' is not an integer in [-128, 127]", act_min);
  }
  if (act_max && !parse_int(act_max, -128, 127, &act_hi)) {
    return s24_cli_usage("linear", "--act-max '%s' is not an integer in [-128, 127]", act_max);
  }
  if (act_lo > act_hi) {
    return s24_cli_usage("linear", "the clamp's low end %ld%s is above its high end %ld", act_lo,
                         relu ? " (--relu: max(-128, ZO))" : "", act_hi);
  }
  if (compressed && (k_text[0] == '-' || !parse_int(k_text, 1, 1L << 30, &kk))) {
    return s24_cli_usage("linear", "--k '%s' is not an integer in [1, 1073741824 = 2^30]", k_text);
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
    if (s24_outs_add(&outs, out, 0, &dup, omsg, sizeof omsg) != S24_OK) {
      s24_outs_abort(&outs);
      return s24_cli_file(outs.err_name != NULL ? outs.err_name : out, "%s", omsg);
    }
  }
  s24_npy_t x = {0}, w = {0}, v = {0}, md = {0}, bias = {0}, mult = {0}, shift = {0};
  int8_t *y = NULL;
  char *stats_buf = NULL;
  s24_api_dev_t *dev = NULL;
  const char *xpath = args->pos[0];
  const char *wpath = compressed ? values : args->pos[1];
  size_t m = 0, k = 0;
  if ((rc = s24_cli_load(xpath, S24_NPY_I8, &x)) != 0) goto done;
  if (compressed) {
    k = (size_t)kk;
    const size_t vcols = s24_api_values_cols(p, k), mcols = s24_api_meta_cols(p, k);
    if ((rc = s24_cli_load(values, S24_NPY_I8, &v)) != 0) goto done;
    if ((rc = s24_cli_load(meta_path, S24_NPY_U8, &md)) != 0) goto done;
    if (v.cols != vcols) {
      rc = s24_cli_file(values, "shape (%zu, %zu): K = %zu with pattern %u:%u needs %zu value columns",
                    v.rows, v.cols, k, (unsigned)p.n, (unsigned)p.m, vcols);
      goto done;
    }
    if (md.cols != mcols || md.rows != v.rows) {
      rc = s24_cli_file(meta_path, "shape (%zu, %zu), expected (%zu, %zu) for %s and K = %zu", md.rows,
                    md.cols, v.rows, mcols, values, k);
      goto done;
    }
    m = v.rows;
  } else {
    if ((rc = s24_cli_load(wpath, S24_NPY_I8, &w)) != 0) goto done;
    m = w.rows;
    k = w.cols;
  }
  // W's pattern (or metadata) by the library's one check, before anything else is read
  const char *const names[][2] = {{"W metadata", meta_path}, {"W", wpath}};
  if (compressed ? s24_api_check_meta(p, md.data, m, k, "W metadata", msg, sizeof msg) != S24_OK
                 : s24_api_check_pattern(p, w.data, m, k, "W", msg, sizeof msg) != S24_OK) {
    rc = s24_cli_api_error(msg, names, 2, wpath);
    goto done;
  }
  if (x.cols != k) {
    rc = s24_cli_file(xpath, "shape (%zu, %zu): X needs K = %zu columns to match %s", x.rows, x.cols,
                  k, wpath);
    goto done;
  }
  if (bias_path && (rc = load_channel(bias_path, "BIAS", m, INT32_MIN, INT32_MAX, &bias)) != 0) goto done;
  if ((rc = load_channel(mult_path, "MULT", m, 0, INT32_MAX, &mult)) != 0) goto done;
  if ((rc = load_channel(shift_path, "SHIFT", m, -31, 30, &shift)) != 0) goto done;
  const size_t bt = x.rows;
  y = m <= SIZE_MAX / bt ? malloc(bt * m) : NULL;
  if (y == NULL) {
    rc = s24_cli_file(out, "out of memory for a %zu x %zu result", bt, m);
    goto done;
  }
  const s24_api_linear_params_t prm = {bias_path ? bias.data : NULL, mult.data, shift.data,
                                       (int32_t)zi, (int32_t)zo, (int32_t)act_lo,
                                       (int32_t)act_hi};
  s24_status_t st = s24_api_open(be, &dev, msg, sizeof msg);
  if (st == S24_OK) {
    st = compressed ? s24_api_linear_compressed(dev, p, x.data, bt, v.data, md.data, m, k, &prm, y,
                                                msg, sizeof msg)
                    : s24_api_linear(dev, &p, x.data, bt, w.data, m, k, &prm, y, msg, sizeof msg);
  }
  size_t stats_len = 0;
  if (st == S24_OK && want_stats &&
      (s24_api_stats_text(dev, NULL, 0, &stats_len) != S24_OK ||
       (stats_buf = malloc(stats_len + 1)) == NULL ||
       s24_api_stats_text(dev, stats_buf, stats_len + 1, NULL) != S24_OK)) {
    rc = s24_cli_file("linear", "cannot buffer statistics");
    goto done;
  }
  if (st != S24_OK) {
    rc = s24_cli_api_error(msg, names, 2, wpath);
  } else {  // all or nothing: staged next to the target, then committed
    char wmsg[512];
    size_t which = 0;
    if (s24_outs_begin(&outs, &which, wmsg, sizeof wmsg) != S24_OK) {
      rc = s24_cli_file(out, "%s", wmsg);
    } else if (s24_npy_fwrite(s24_outs_file(&outs, 0), S24_NPY_I8, bt, m, y) != S24_OK) {
      rc = s24_cli_file(out, "cannot write output: %s", s24_outs_strerror(errno));
    } else if (s24_outs_commit(&outs, &which, wmsg, sizeof wmsg) != S24_OK) {
      rc = s24_cli_file(out, "%s", wmsg);
    }
  }
  if (rc == 0 && stats_buf != NULL) fwrite(stats_buf, 1, stats_len, stdout);
done:
  s24_outs_abort(&outs);  // removes a staged output after a failure; frees the set
  s24_api_close(dev);
  free(stats_buf);
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
