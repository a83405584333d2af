// cmocka unit tests of the .tflite reader (runtime/s24_tflite.c, SPEC §8).
//
//  - the four MLPerf Tiny int8 models (ad, ic, kws, vww; directory = argv[1], else $S24_MODELS):
//    every tensor (type, shape, buffer, constant data's size and FNV-1a hash, quantization count,
//    axis, first and last scale, first zero point, name's length and hash) and every operator
//    (name, code, inputs, outputs, options type and values) equal what LiteRT 2.3.0 reports
//    (Interpreter.get_tensor_details/_get_ops_details and its schema_py_generated reader), as
//    written once in tests/net/litert_expected.tsv (argv[2], else $S24_LITERT_EXPECTED);
//  - small models built here with a minimal flatbuffer writer: custom and deprecated operator
//    codes, unnamed tensors, Buffer.offset/size data, every quantization rule, option defaults,
//    each refused in the ways the format allows (subgraph count, sentinel buffer, vtables, fields
//    outside their table, strings without NUL, too many inputs, indices out of range, ...);
//  - malformed MLPerf files: every truncation of kws.tflite, random byte changes (seed printed;
//    rerun one with S24_SEED=N), a wrong identifier, offsets pointing outside, a vector length of
//    0x7fffffff, tensor indices out of range, negative and overflowing dims, constant data of the
//    wrong size, scale and zero point counts that differ. Every failure is S24_ERR_FORMAT with one
//    line naming the place, and leaves the model zeroed; every success satisfies the header's
//    invariants. Each parse reads from an allocation of exactly the file's size (ASan).
#include <errno.h>
#include <float.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "s24_tflite.h"
#include "../common/tfl_heap.h"

// ---------------------------------------------------------------- expectations (from LiteRT)
// What LiteRT 2.3.0 reports for the four models, read at startup from argv[2] (else
// $S24_LITERT_EXPECTED): tests/net/litert_expected.tsv, whose header says where the values come
// from and what each field is. A file that cannot be read fails the four model tests with one
// line "FILE:LINE: what is wrong".
typedef struct {
  int32_t type;
  uint32_t rank;
  int32_t dims[S24_TFL_MAX_DIMS];
  uint32_t buffer;
  size_t data_len;
  uint32_t data_fnv;
  size_t n_quant;
  int32_t quant_dim;
  float scale0, scale_last;
  int64_t zp0;
  size_t name_len;
  uint32_t name_fnv;
} exp_tensor_t;

typedef struct {
  char name[32];
  int32_t opcode;
  uint32_t n_in, n_out;
  int32_t in[S24_TFL_MAX_OP_IO];
  int32_t out[S24_TFL_MAX_OP_IO];
  uint8_t options_type;
  s24_tfl_options_t opt;
} exp_op_t;

typedef struct {
  char name[16];
  uint32_t version;
  size_t n_tensors, n_ops, n_inputs;
  int32_t input;                // the first
  size_t n_outputs;
  int32_t output;               // the first
  exp_tensor_t *tensors;        // n_tensors
  exp_op_t *ops;                // n_ops
  size_t got_tensors, got_ops;  // lines read so far
} exp_model_t;

typedef struct {
  const char *path;
  exp_model_t *models;
  size_t n_models;
  char err[768];  // "FILE:LINE: what is wrong" when the file could not be read, else ""
} exp_file_t;

static exp_file_t g_exp;

// A column of the file: its name (the field's), how its text is read and where the value goes in
// the record. Kinds: 'i' int32_t, 'u' uint32_t, 'b' uint8_t, 'z' size_t (< 2^32), 'q' int64_t,
// all decimal; 'x' uint32_t in hex (0x and 1 to 8 digits); 'f' float, a hex float that is exactly
// a float32; 's' char[max], 1 to max - 1 characters; 'l' at most max int32_t, comma-separated ("-":
// none), their count a uint32_t at off_n; 'o' s24_tfl_options_t, FIELD=VALUE;... ("-": none).
typedef struct {
  const char *name;
  char kind;
  size_t off, off_n, max;
} col_t;

#define COL(rec, f, kind) {#f, kind, offsetof(rec, f), 0, 0}
#define COL_S(rec, f) {#f, 's', offsetof(rec, f), 0, sizeof(((rec *)0)->f)}
#define COL_L(rec, f, n) \
  {#f, 'l', offsetof(rec, f), offsetof(rec, n), sizeof(((rec *)0)->f) / sizeof(int32_t)}

// the columns of model, tensor and op lines (after the line's kind; tensor and op lines: after
// MODEL and INDEX too)
static const col_t k_model_cols[] = {
    COL_S(exp_model_t, name), COL(exp_model_t, version, 'u'), COL(exp_model_t, n_tensors, 'z'),
    COL(exp_model_t, n_ops, 'z'), COL(exp_model_t, n_inputs, 'z'), COL(exp_model_t, input, 'i'),
    COL(exp_model_t, n_outputs, 'z'), COL(exp_model_t, output, 'i')};
static const col_t k_tensor_cols[] = {
    COL(exp_tensor_t, type, 'i'), COL_L(exp_tensor_t, dims, rank),
    COL(exp_tensor_t, buffer, 'u'), COL(exp_tensor_t, data_len, 'z'),
    COL(exp_tensor_t, data_fnv, 'x'), COL(exp_tensor_t, n_quant, 'z'),
    COL(exp_tensor_t, quant_dim, 'i'), COL(exp_tensor_t, scale0, 'f'),
    COL(exp_tensor_t, scale_last, 'f'), COL(exp_tensor_t, zp0, 'q'),
    COL(exp_tensor_t, name_len, 'z'), COL(exp_tensor_t, name_fnv, 'x')};
static const col_t k_op_cols[] = {
    COL_S(exp_op_t, name), COL(exp_op_t, opcode, 'i'), COL_L(exp_op_t, in, n_in),
    COL_L(exp_op_t, out, n_out), COL(exp_op_t, options_type, 'b'), COL(exp_op_t, opt, 'o')};
// the fields of an op's opt column (new_shape sets n_new_shape too)
#define OPT(f, kind) COL(s24_tfl_options_t, f, kind)
static const col_t k_option_cols[] = {
    OPT(padding, 'i'), OPT(stride_w, 'i'), OPT(stride_h, 'i'), OPT(dilation_w, 'i'),
    OPT(dilation_h, 'i'), OPT(depth_multiplier, 'i'), OPT(filter_w, 'i'), OPT(filter_h, 'i'),
    OPT(activation, 'i'), OPT(fc_weights_format, 'i'), OPT(keep_num_dims, 'i'),
    OPT(keep_dims, 'i'), OPT(beta, 'f'), OPT(begin_mask, 'i'), OPT(end_mask, 'i'),
    OPT(ellipsis_mask, 'i'), OPT(new_axis_mask, 'i'), OPT(shrink_axis_mask, 'i'),
    OPT(ss_offset, 'i'), OPT(values_count, 'i'), OPT(axis, 'i'),
    COL_L(s24_tfl_options_t, new_shape, n_new_shape)};
#define N_COLS(a) (sizeof(a) / sizeof((a)[0]))

// A decimal integer in [lo, hi] starting at s (no space or sign '+'), ending at *end; 0 or -1.
static int read_int(const char *s, char **end, int64_t lo, int64_t hi, int64_t *v) {
  if (*s != '-' && (*s < '0' || *s > '9')) return -1;
  errno = 0;
  long long x = strtoll(s, end, 10);
  if (*end == s || errno != 0 || x < lo || x > hi) return -1;
  *v = x;
  return 0;
}

// what a column of this kind holds, for messages
static const char *kind_text(char kind) {
  switch (kind) {
    case 'i': return "a decimal int32";
    case 'u': return "a decimal uint32";
    case 'b': return "a decimal uint8";
    case 'z': return "a decimal size below 2^32";
    case 'q': return "a decimal int64";
    case 'x': return "0x and 1 to 8 hex digits";
    case 'f': return "a hex float (%a) that is exactly a float32";
    case 's': return "a name that fits";
    case 'l': return "a comma-separated list of int32 that fits, or -";
    default: return "FIELD=VALUE;... or -";
  }
}

static int read_options(char *s, s24_tfl_options_t *opt, char *why, size_t n);

// Reads text s as column c of the record rec; 0, or -1 with why[0 .. n) saying what is wrong.
static int read_value(const col_t *c, char *s, void *rec, char *why, size_t n) {
  char *p = (char *)rec + c->off, *end = s;
  int64_t v = 0;
  int ok = 0;
  switch (c->kind) {
    case 'i': ok = read_int(s, &end, INT32_MIN, INT32_MAX, &v) == 0; break;
    case 'u': ok = read_int(s, &end, 0, UINT32_MAX, &v) == 0; break;
    case 'b': ok = read_int(s, &end, 0, UINT8_MAX, &v) == 0; break;
    case 'z': ok = read_int(s, &end, 0, UINT32_MAX, &v) == 0; break;
    case 'q': ok = read_int(s, &end, INT64_MIN, INT64_MAX, &v) == 0; break;
    case 'x': {
      size_t len = strlen(s);
      ok = strncmp(s, "0x", 2) == 0 && len >= 3 && len <= 10 &&
           strspn(s + 2, "0123456789abcdefABCDEF") == len - 2;
      if (ok) v = (int64_t)strtoul(s + 2, &end, 16);
      break;
    }
    case 'f': {
      errno = 0;
      double d = strtod(s, &end);
      ok = strncmp(s + (*s == '-'), "0x", 2) == 0 && errno == 0 && d >= -FLT_MAX && d <= FLT_MAX &&
           (double)(float)d == d;
      if (ok) *(float *)p = (float)d;
      break;
    }
    case 's':
      ok = s[0] != '\0' && strlen(s) < c->max;
      if (ok) memcpy(p, s, strlen(s) + 1);
      end = s + strlen(s);
      break;
    case 'l': {
      uint32_t k = 0;
      ok = s[0] != '\0';
      if (strcmp(s, "-") == 0) end = s + 1;
      for (char *q = s; ok && *end != '\0'; q = end + 1) {
        ok = k < c->max && read_int(q, &end, INT32_MIN, INT32_MAX, &v) == 0 &&
             (*end == ',' || *end == '\0');
        if (ok) ((int32_t *)p)[k++] = (int32_t)v;
      }
      *(uint32_t *)((char *)rec + c->off_n) = k;
      break;
    }
    default:  // 'o'
      return read_options(s, (s24_tfl_options_t *)p, why, n);
  }
  if (!ok || *end != '\0') {
    snprintf(why, n, "%s \"%s\": not %s", c->name, s, kind_text(c->kind));
    return -1;
  }
  switch (c->kind) {
    case 'i': *(int32_t *)p = (int32_t)v; break;
    case 'u': case 'x': *(uint32_t *)p = (uint32_t)v; break;
    case 'b': *(uint8_t *)p = (uint8_t)v; break;
    case 'z': *(size_t *)p = (size_t)v; break;
    case 'q': *(int64_t *)p = v; break;
    default: break;  // 'f', 's', 'l': stored above
  }
  return 0;
}

// FIELD=VALUE;... of s24_tfl_options_t into *opt (zeroed by the caller), each field at most once
static int read_options(char *s, s24_tfl_options_t *opt, char *why, size_t n) {
  if (strcmp(s, "-") == 0) return 0;
  uint32_t seen = 0;
  for (char *item = s, *next; item != NULL; item = next) {
    next = strchr(item, ';');
    if (next != NULL) *next++ = '\0';
    char *eq = strchr(item, '=');
    size_t k = 0;
    if (eq != NULL) *eq = '\0';
    while (k < N_COLS(k_option_cols) && strcmp(k_option_cols[k].name, item) != 0) k++;
    const char *bad = eq == NULL                    ? "not FIELD=VALUE"
                      : k == N_COLS(k_option_cols) ? "no such field of s24_tfl_options_t"
                      : ((seen >> k) & 1) != 0     ? "given twice"
                                                   : NULL;
    if (bad != NULL) {
      snprintf(why, n, "opt \"%s\": %s", item, bad);
      return -1;
    }
    seen |= 1u << k;
    if (read_value(&k_option_cols[k], eq + 1, opt, why, n) != 0) return -1;
  }
  return 0;
}

// -1 with why when model m has not got the tensor and op lines its counts promise
static int model_incomplete(const exp_model_t *m, char *why, size_t n) {
  if (m->got_tensors == m->n_tensors && m->got_ops == m->n_ops) return 0;
  snprintf(why, n, "model %s ends after %zu of its %zu tensor lines and %zu of its %zu op lines",
           m->name, m->got_tensors, m->n_tensors, m->got_ops, m->n_ops);
  return -1;
}

// One line of the file, split at its tabs into f[0 .. nf); 0, or -1 with why.
static int read_record(exp_file_t *x, char **f, size_t nf, char *why, size_t n) {
  exp_model_t *m = x->n_models > 0 ? &x->models[x->n_models - 1] : NULL;
  int is_model = strcmp(f[0], "model") == 0, is_tensor = strcmp(f[0], "tensor") == 0;
  if (!is_model && !is_tensor && strcmp(f[0], "op") != 0) {
    snprintf(why, n, "\"%s\": not model, tensor or op", f[0]);
    return -1;
  }
  const col_t *cols = is_model ? k_model_cols : is_tensor ? k_tensor_cols : k_op_cols;
  size_t ncols = is_model ? N_COLS(k_model_cols)
                          : is_tensor ? N_COLS(k_tensor_cols) : N_COLS(k_op_cols);
  size_t first = is_model ? 1 : 3;  // tensor and op lines: MODEL INDEX first
  if (nf != first + ncols) {
    snprintf(why, n, "%s line of %zu fields, not %zu", f[0], nf, first + ncols);
    return -1;
  }
  if (is_model) {
    exp_model_t e = {0};
    for (size_t k = 0; k < ncols; k++) {
      if (read_value(&cols[k], f[first + k], &e, why, n) != 0) return -1;
    }
    if (m != NULL && model_incomplete(m, why, n) != 0) return -1;
    for (size_t i = 0; i < x->n_models; i++) {
      if (strcmp(x->models[i].name, e.name) == 0) {
        snprintf(why, n, "model %s again", e.name);
        return -1;
      }
    }
    if (e.n_tensors > S24_TFL_MAX_TENSORS || e.n_ops > S24_TFL_MAX_OPS) {
      snprintf(why, n, "model %s: more than %d tensors or operators", e.name, S24_TFL_MAX_TENSORS);
      return -1;
    }
    exp_model_t *grown = realloc(x->models, (x->n_models + 1) * sizeof *grown);
    if (grown != NULL) {
      x->models = grown;
      e.tensors = calloc(e.n_tensors + 1, sizeof *e.tensors);
      e.ops = calloc(e.n_ops + 1, sizeof *e.ops);
      x->models[x->n_models++] = e;
    }
    if (grown == NULL || e.tensors == NULL || e.ops == NULL) {
      snprintf(why, n, "out of memory");
      return -1;
    }
    return 0;
  }
  if (m == NULL || strcmp(f[1], m->name) != 0) {
    snprintf(why, n, "%s line of model %s %s", f[0], f[1],
             m == NULL ? "before any model line" : "among another model's lines");
    return -1;
  }
  size_t *got = is_tensor ? &m->got_tensors : &m->got_ops;
  size_t count = is_tensor ? m->n_tensors : m->n_ops;
  int64_t index;
  char *end;
  if (read_int(f[2], &end, 0, INT32_MAX, &index) != 0 || *end != '\0' || (size_t)index != *got ||
      *got == count) {
    snprintf(why, n, "%s index \"%s\": not the next of model %s's %zu %ss (numbered from 0, in "
             "order)", f[0], f[2], m->name, count, f[0]);
    return -1;
  }
  void *rec = is_tensor ? (void *)&m->tensors[*got] : (void *)&m->ops[*got];
  for (size_t k = 0; k < ncols; k++) {
    if (read_value(&cols[k], f[first + k], rec, why, n) != 0) return -1;
  }
  ++*got;
  return 0;
}

static void free_expected(exp_file_t *x) {
  for (size_t i = 0; i < x->n_models; i++) {
    free(x->models[i].tensors);
    free(x->models[i].ops);
  }
  free(x->models);
  x->models = NULL;
  x->n_models = 0;
}

// Reads the file at path into *x; on any error x->err says "path:line: what" and *x holds no model.
static void read_expected(const char *path, exp_file_t *x) {
  char why[512] = "", *line = NULL, *f[24];
  size_t cap = 0, lineno = 0;
  ssize_t len;
  memset(x, 0, sizeof *x);
  x->path = path;
  FILE *in = fopen(path, "r");
  if (in == NULL) {
    snprintf(x->err, sizeof x->err, "%s: cannot open: %s", path, strerror(errno));
    return;
  }
  while ((len = getline(&line, &cap, in)) >= 0) {
    lineno++;
    if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
    size_t ctl = 0;  // NUL, CR and the other control characters but tab are refused
    while (ctl < (size_t)len && (line[ctl] == '\t' || (unsigned char)line[ctl] >= 0x20)) ctl++;
    if (ctl < (size_t)len) {
      snprintf(why, sizeof why, "control character 0x%02x at column %zu (fields are separated by "
               "one tab, lines end in LF)", (unsigned char)line[ctl], ctl + 1);
      break;
    }
    if (len == 0 || line[0] == '#') continue;
    size_t nf = 0;
    for (char *p = line; p != NULL; nf++) {
      char *tab = strchr(p, '\t');
      if (nf < N_COLS(f)) f[nf] = p;
      if (tab != NULL) *tab++ = '\0';
      p = tab;
    }
    if (nf > N_COLS(f)) {
      snprintf(why, sizeof why, "%zu fields, more than any line has", nf);
      break;
    }
    if (read_record(x, f, nf, why, sizeof why) != 0) break;
  }
  if (why[0] == '\0' && ferror(in)) snprintf(why, sizeof why, "read error: %s", strerror(errno));
  if (why[0] == '\0' && x->n_models > 0) {
    (void)model_incomplete(&x->models[x->n_models - 1], why, sizeof why);
  }
  free(line);
  fclose(in);
  if (why[0] != '\0') {
    snprintf(x->err, sizeof x->err, "%s:%zu: %s", path, lineno, why);
    free_expected(x);
  }
}

// The expectations of model `name`; fails the test when the file could not be read or lacks it.
static const exp_model_t *expected(const char *name) {
  if (g_exp.err[0] != '\0') fail_msg("%s", g_exp.err);
  for (size_t i = 0; i < g_exp.n_models; i++) {
    if (strcmp(g_exp.models[i].name, name) == 0) return &g_exp.models[i];
  }
  fail_msg("%s: no model %s", g_exp.path, name);
  return NULL;
}

// ---------------------------------------------------------------- helpers
static const char *g_dir;  // the MLPerf Tiny models' directory

static uint32_t fnv(const void *p, size_t n) {
  const uint8_t *b = p;
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
  return h;
}

static uint8_t *load(const char *name, size_t *len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.tflite", g_dir, name);
  FILE *f = fopen(path, "rb");
  if (f == NULL) fail_msg("cannot open %s (models directory: argv[1] or S24_MODELS)", path);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long n = ftell(f);
  assert_true(n > 0);
  rewind(f);
  uint8_t *b = malloc((size_t)n);
  assert_non_null(b);
  assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  *len = (size_t)n;
  return b;
}

static int is_zero(const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) if (b[i] != 0) return 0;
  return 1;
}

// The header's promises about a successfully parsed model (buf, len: what was parsed).
static void check_invariants(const s24_tfl_model_t *m, const uint8_t *buf, size_t len) {
  assert_ptr_equal(m->file, buf);
  assert_int_equal(m->file_len, len);
  assert_true(m->n_inputs <= S24_TFL_MAX_OP_IO && m->n_outputs <= S24_TFL_MAX_OP_IO);
  for (size_t i = 0; i < m->n_inputs; i++) assert_true((size_t)m->inputs[i] < m->n_tensors);
  for (size_t i = 0; i < m->n_outputs; i++) assert_true((size_t)m->outputs[i] < m->n_tensors);
  for (size_t i = 0; i < m->n_tensors; i++) {
    const s24_tfl_tensor_t *t = &m->tensors[i];
    assert_non_null(t->name);
    if (t->name_len > 0) {
      assert_true((const uint8_t *)t->name >= buf && t->name_len < len &&
                  (const uint8_t *)t->name + t->name_len < buf + len);
    }
    assert_true(t->rank <= S24_TFL_MAX_DIMS);
    size_t e = 1;
    for (uint32_t d = 0; d < t->rank; d++) {
      assert_true(t->dims[d] >= 0);
      e *= (size_t)t->dims[d];
    }
    assert_int_equal(t->elems, e);
    assert_int_equal(t->bytes, e * s24_tfl_type_size(t->type));
    if (t->data != NULL) {
      assert_true(t->data_len > 0 && t->data_offset <= len && t->data_len <= len - t->data_offset);
      assert_ptr_equal(t->data, buf + t->data_offset);
      if (s24_tfl_type_size(t->type) != 0) assert_int_equal(t->data_len, t->bytes);
    } else {
      assert_int_equal(t->data_len, 0);
    }
    if (t->n_quant > 0) {
      assert_non_null(t->scale);
      assert_non_null(t->zero_point);
      assert_true(t->quant_dim >= 0);
      if (t->rank > 0) {
        assert_true((uint32_t)t->quant_dim < t->rank);
        assert_true(t->n_quant == 1 || t->n_quant == (size_t)t->dims[t->quant_dim]);
      }
    } else {
      assert_null(t->scale);
      assert_null(t->zero_point);
    }
  }
  for (size_t i = 0; i < m->n_ops; i++) {
    const s24_tfl_op_t *o = &m->ops[i];
    assert_true(o->n_in <= S24_TFL_MAX_OP_IO && o->n_out <= S24_TFL_MAX_OP_IO);
    for (uint32_t k = 0; k < o->n_in; k++) {
      assert_true(o->in[k] == -1 || (o->in[k] >= 0 && (size_t)o->in[k] < m->n_tensors));
    }
    for (uint32_t k = 0; k < o->n_out; k++) {
      assert_true(o->out[k] >= 0 && (size_t)o->out[k] < m->n_tensors);
    }
    assert_int_equal(o->is_custom, o->opcode == 32);
    assert_true(o->opt.n_new_shape <= S24_TFL_MAX_NEW_SHAPE);
    assert_non_null(s24_tfl_op_name(o->opcode));
  }
}

// Parses buf[0 .. len) from an allocation of exactly len bytes. On success checks the
// invariants and returns S24_OK with *m filled (the caller frees it and *copy); on failure checks
// that *m is zeroed and err is one nonempty line.
static s24_status_t parse_exact(const uint8_t *buf, size_t len, s24_tfl_model_t *m, char *err,
                                size_t errlen, uint8_t **copy) {
  uint8_t *c = malloc(len > 0 ? len : 1);
  assert_non_null(c);
  if (len > 0) memcpy(c, buf, len);
  memset(m, 0x5a, sizeof *m);
  s24_status_t st = tfl_parse(c, len, m, err, errlen);
  if (st == S24_OK) {
    check_invariants(m, c, len);
    *copy = c;
  } else {
    assert_int_equal(st, S24_ERR_FORMAT);
    assert_true(is_zero(m, sizeof *m));
    assert_true(err[0] != '\0');
    assert_null(strchr(err, '\n'));
    free(c);
    *copy = NULL;
  }
  return st;
}

// Expects buf[0 .. len) to be refused with a message containing `want`.
static void expect_refused(const uint8_t *buf, size_t len, const char *want) {
  s24_tfl_model_t m;
  char err[512];
  uint8_t *c;
  s24_status_t st = parse_exact(buf, len, &m, err, sizeof err, &c);
  if (st == S24_OK) {
    tfl_free(&m);
    free(c);
    fail_msg("parsed, expected an error containing \"%s\"", want);
  }
  if (strstr(err, want) == NULL) fail_msg("error \"%s\" does not contain \"%s\"", err, want);
}

static int32_t ld_s32(const uint8_t *p) {
  uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  int32_t v;
  memcpy(&v, &u, sizeof v);
  return v;
}

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

// Every position where the int32 sequence `v` (n entries) is stored in the file.
static size_t find_all(const uint8_t *buf, size_t len, const int32_t *v, size_t n, size_t *at,
                       size_t max) {
  uint8_t pat[64];
  size_t k = 0;
  assert_true(n * 4 <= sizeof pat);
  for (size_t i = 0; i < n; i++) put32(pat + 4 * i, (uint32_t)v[i]);
  for (size_t p = 0; p + 4 * n <= len && k < max; p++) {
    if (memcmp(buf + p, pat, 4 * n) == 0) at[k++] = p;
  }
  return k;
}

// ---------------------------------------------------------------- the MLPerf Tiny models
// the first field in which t differs from x, NULL if none
static const char *tensor_differs(const s24_tfl_tensor_t *t, const exp_tensor_t *x) {
  if (t->type != x->type) return "type";
  if (t->rank != x->rank) return "rank";
  for (uint32_t d = 0; d < x->rank; d++) if (t->dims[d] != x->dims[d]) return "shape";
  if (t->buffer != x->buffer) return "buffer";
  if (t->data_len != x->data_len) return "data size";
  if (x->data_len > 0 && fnv(t->data, t->data_len) != x->data_fnv) return "data";
  if (t->n_quant != x->n_quant) return "quantization count";
  if (t->quant_dim != x->quant_dim) return "quantized_dimension";
  if (x->n_quant > 0 && (memcmp(&t->scale[0], &x->scale0, sizeof(float)) != 0 ||
                         memcmp(&t->scale[t->n_quant - 1], &x->scale_last, sizeof(float)) != 0)) {
    return "scale";
  }
  if (x->n_quant > 0 && t->zero_point[0] != x->zp0) return "zero point";
  if (t->name_len != x->name_len || fnv(t->name, t->name_len) != x->name_fnv) return "name";
  return NULL;
}

static void check_model(const exp_model_t *e) {
  size_t len;
  uint8_t *buf = load(e->name, &len);
  s24_tfl_model_t m;
  char err[512];
  assert_true(s24_tfl_is_tflite(buf, len));
  s24_status_t st = tfl_parse(buf, len, &m, err, sizeof err);
  if (st != S24_OK) fail_msg("%s: %s", e->name, err);
  assert_string_equal(err, "");
  check_invariants(&m, buf, len);
  assert_int_equal(m.version, e->version);
  assert_int_equal(m.n_tensors, e->n_tensors);
  assert_int_equal(m.n_ops, e->n_ops);
  assert_int_equal(m.n_inputs, e->n_inputs);
  assert_int_equal(m.inputs[0], e->input);
  assert_int_equal(m.n_outputs, e->n_outputs);
  assert_int_equal(m.outputs[0], e->output);
  for (size_t i = 0; i < e->n_tensors; i++) {
    const char *bad = tensor_differs(&m.tensors[i], &e->tensors[i]);
    if (bad != NULL) fail_msg("%s tensor %zu: %s differs from LiteRT's", e->name, i, bad);
  }
  for (size_t i = 0; i < e->n_ops; i++) {
    const s24_tfl_op_t *o = &m.ops[i];
    const exp_op_t *x = &e->ops[i];
    assert_string_equal(s24_tfl_op_name(o->opcode), x->name);
    assert_int_equal(o->opcode, x->opcode);
    assert_int_equal(o->is_custom, 0);
    assert_int_equal(o->n_in, x->n_in);
    assert_int_equal(o->n_out, x->n_out);
    assert_memory_equal(o->in, x->in, x->n_in * sizeof(int32_t));
    assert_memory_equal(o->out, x->out, x->n_out * sizeof(int32_t));
    assert_int_equal(o->options_type, x->options_type);
    assert_int_equal(o->opt.stride_w, x->opt.stride_w);
    assert_int_equal(o->opt.stride_h, x->opt.stride_h);
    assert_int_equal(o->opt.activation, x->opt.activation);
    assert_memory_equal(&o->opt, &x->opt, sizeof o->opt);
  }
  tfl_free(&m);
  assert_true(is_zero(&m, sizeof m));
  tfl_free(&m);  // again: safe
  free(buf);
}

static void test_model_ad(void **state) { (void)state; check_model(expected("ad")); }
static void test_model_ic(void **state) { (void)state; check_model(expected("ic")); }
static void test_model_vww(void **state) { (void)state; check_model(expected("vww")); }

// kws in words: the model SPEC §8 runs first
static void test_model_kws(void **state) {
  (void)state;
  check_model(expected("kws"));
  size_t len;
  uint8_t *buf = load("kws", &len);
  s24_tfl_model_t m;
  char err[256];
  assert_int_equal(tfl_parse(buf, len, &m, err, sizeof err), S24_OK);
  assert_int_equal(m.n_ops, 15);
  const s24_tfl_op_t *conv = &m.ops[1];
  assert_int_equal(conv->opcode, S24_OP_CONV_2D);
  assert_int_equal(conv->options_type, S24_TFL_OPT_CONV_2D);
  assert_int_equal(conv->opt.padding, S24_PAD_SAME);
  assert_int_equal(conv->opt.stride_w, 2);
  assert_int_equal(conv->opt.stride_h, 2);
  assert_int_equal(conv->opt.dilation_w, 1);
  assert_int_equal(conv->opt.activation, S24_ACT_RELU);
  const s24_tfl_tensor_t *in = &m.tensors[conv->in[0]], *w = &m.tensors[conv->in[1]],
                         *b = &m.tensors[conv->in[2]];
  assert_int_equal(in->type, S24_TFL_INT8);
  assert_int_equal(in->rank, 4);
  assert_int_equal(in->dims[1], 50);
  assert_int_equal(in->dims[2], 10);
  assert_int_equal(in->zero_point[0], -128);
  assert_int_equal(w->name_len, strlen("model/conv2d/Conv2D"));
  assert_memory_equal(w->name, "model/conv2d/Conv2D", w->name_len);
  assert_int_equal(w->rank, 4);  // OHWI 64x10x4x1, per-channel along O
  assert_int_equal(w->dims[0], 64);
  assert_int_equal(w->bytes, 2560);
  assert_int_equal(w->n_quant, 64);
  assert_int_equal(w->quant_dim, 0);
  assert_int_equal(b->type, S24_TFL_INT32);
  assert_int_equal(b->bytes, 256);
  const s24_tfl_op_t *pool = &m.ops[10];
  assert_int_equal(pool->opcode, S24_OP_AVERAGE_POOL_2D);
  assert_int_equal(pool->opt.padding, S24_PAD_VALID);
  assert_int_equal(pool->opt.filter_w, 5);
  assert_int_equal(pool->opt.filter_h, 25);
  assert_int_equal(m.ops[13].opcode, S24_OP_SOFTMAX);
  assert_true(m.ops[13].opt.beta == 1.0f);
  assert_int_equal(m.tensors[m.inputs[0]].type, S24_TFL_FLOAT32);
  assert_int_equal(m.tensors[m.outputs[0]].dims[1], 12);
  tfl_free(&m);
  free(buf);
}

// ---------------------------------------------------------------- a minimal flatbuffer writer
// Objects are laid out front to back: the root offset and identifier, then each table's vtable
// right before the table, then what the table's references point to (uoffsets point forward).
typedef struct {
  uint8_t b[1 << 19];
  size_t n;
  size_t vt;  // the vtable of the last table written
} fb_t;

static size_t fb_pad(fb_t *f, size_t align) {
  while (f->n % align != 0) f->b[f->n++] = 0;
  return f->n;
}

static void fb_set(fb_t *f, size_t at, uint64_t v, size_t size) {
  for (size_t i = 0; i < size; i++) f->b[at + i] = (uint8_t)(v >> (8 * i));
}

// a table whose fields ids[k] take sizes[k] bytes (1, 4 or 8); pos[k]: where each value goes
static size_t fb_table(fb_t *f, int nf, const int *ids, const int *sizes, size_t *pos) {
  int maxid = -1;
  size_t off[16], size = 4;
  for (int k = 0; k < nf; k++) {
    if (ids[k] > maxid) maxid = ids[k];
    size = (size + (size_t)sizes[k] - 1) / (size_t)sizes[k] * (size_t)sizes[k];
    off[k] = size;
    size += (size_t)sizes[k];
  }
  size = (size + 3) / 4 * 4;
  size_t vt = fb_pad(f, 4), vt_len = 4 + 2 * (size_t)(maxid + 1);
  memset(f->b + vt, 0, vt_len);
  fb_set(f, vt, vt_len, 2);
  fb_set(f, vt + 2, size, 2);
  for (int k = 0; k < nf; k++) fb_set(f, vt + 4 + 2 * (size_t)ids[k], off[k], 2);
  f->n += vt_len;
  size_t t = fb_pad(f, 4);
  memset(f->b + t, 0, size);
  fb_set(f, t, t - vt, 4);  // soffset: vtable = table - soffset
  for (int k = 0; k < nf; k++) pos[k] = t + off[k];
  f->n += size;
  f->vt = vt;
  return t;
}

static void fb_ref(fb_t *f, size_t field, size_t target) { fb_set(f, field, target - field, 4); }

// a vector of n elements of elem bytes (values[i] stored little endian); returns its length's
// position, which is what references point to
static size_t fb_vec(fb_t *f, uint32_t n, size_t elem, const int64_t *values) {
  size_t v = fb_pad(f, 4);
  fb_set(f, v, n, 4);
  f->n += 4;
  for (uint32_t i = 0; i < n; i++) {
    fb_set(f, f->n, values ? (uint64_t)values[i] : 0, elem);
    f->n += elem;
  }
  return v;
}

static size_t fb_str(fb_t *f, const char *s) {
  size_t v = fb_pad(f, 4), n = strlen(s);
  fb_set(f, v, n, 4);
  memcpy(f->b + v + 4, s, n + 1);
  f->n += 4 + n + 1;
  return v;
}

static size_t fb_f32vec(fb_t *f, uint32_t n, float first) {
  size_t v = fb_pad(f, 4);
  fb_set(f, v, n, 4);
  for (uint32_t i = 0; i < n; i++) {
    float x = first * (float)(i + 1);
    uint32_t u;
    memcpy(&u, &x, 4);
    fb_set(f, v + 4 + 4 * i, u, 4);
  }
  f->n += 4 + 4 * (size_t)n;
  return v;
}

#define NONE_VEC UINT32_MAX

// The small model: tensor 0 "in" int8 [1,4] (scale 0.5, zero point -3), tensor 1 (unnamed) int8
// [dim0,4] constant {1..8} in buffer 1 with n_scale scales / n_zp zero points along qdim, tensor
// 2 int8 [1,2], tensor 3 int32 rank 0 constant 7 (buffer 2); one operator 0 -> 2.
typedef struct {
  uint32_t n_subgraphs;
  int32_t deprecated, builtin;  // the operator code
  const char *custom_code;      // NULL: none
  int name0;                    // tensor 0 has its name
  uint32_t buf0_len;            // bytes in the sentinel buffer 0
  int by_offset;                // buffer 1 through Buffer.offset/size (data at the file's end)
  uint64_t offset_add;          // added to that offset
  uint32_t n_scale, n_zp;       // tensor 1's quantization vectors (NONE_VEC: absent)
  int32_t qdim;
  int32_t dim0;
  uint32_t n_inputs;            // the operator's inputs: {0, in1, -1, 0, 0, ...}
  int32_t in1;
  uint32_t opcode_index;
  uint8_t options_type;         // 8 FullyConnected, 1 Conv2D (strides only), 17 Reshape,
                                // 30 Squeeze (both with n_new_shape entries), 10 Concatenation,
                                // 21 Mul, 28 Sub, 35 Split, 74 ResizeNearestNeighbor, 75 LeakyRelu
  uint32_t n_new_shape;
  uint32_t extra_tensors;       // more entries of the tensors vector, all tensor 1's table
  uint32_t extra_ops;           // more entries of the operators vector, all operator 0's table
} spec_t;

typedef struct {
  size_t len;
  size_t model_vt, op_tbl, name_str, t0_tbl, data1;
} lay_t;

static spec_t default_spec(void) {
  return (spec_t){.n_subgraphs = 1, .deprecated = 9, .builtin = 9, .name0 = 1, .n_scale = 2,
                  .n_zp = 2, .dim0 = 2, .n_inputs = 3, .in1 = 1, .options_type = 8};
}

static size_t build(const spec_t *s, fb_t *f, lay_t *lay) {
  size_t p[8];
  memset(f, 0, sizeof *f);
  memset(lay, 0, sizeof *lay);
  f->n = 8;
  memcpy(f->b + 4, "TFL3", 4);
  // Model { version 0, operator_codes 1, subgraphs 2, buffers 4 }
  size_t model = fb_table(f, 4, (int[]){0, 1, 2, 4}, (int[]){4, 4, 4, 4}, p);
  size_t m_codes = p[1], m_sg = p[2], m_buf = p[3];
  lay->model_vt = f->vt;
  fb_ref(f, 0, model);
  fb_set(f, p[0], 3, 4);

  size_t codes = fb_vec(f, 1, 4, NULL);
  fb_ref(f, m_codes, codes);
  size_t oc = fb_table(f, 4, (int[]){0, 1, 2, 3}, (int[]){1, 4, 4, 4}, p), oc_vt = f->vt;
  fb_ref(f, codes + 4, oc);
  fb_set(f, p[0], (uint8_t)s->deprecated, 1);
  fb_set(f, p[2], 2, 4);
  fb_set(f, p[3], (uint32_t)s->builtin, 4);
  if (s->custom_code != NULL) fb_ref(f, p[1], fb_str(f, s->custom_code));
  else fb_set(f, p[1], 0, 4);  // a zero reference is refused: drop the field from the vtable
  if (s->custom_code == NULL) fb_set(f, oc_vt + 4 + 2 * 1, 0, 2);

  size_t sgs = fb_vec(f, s->n_subgraphs, 4, NULL);
  fb_ref(f, m_sg, sgs);
  size_t sg = fb_table(f, 4, (int[]){0, 1, 2, 3}, (int[]){4, 4, 4, 4}, p);
  for (uint32_t i = 0; i < s->n_subgraphs; i++) fb_ref(f, sgs + 4 + 4 * i, sg);
  size_t sg_t = p[0], sg_ops = p[3];
  fb_ref(f, p[1], fb_vec(f, 1, 4, (int64_t[]){0}));
  fb_ref(f, p[2], fb_vec(f, 1, 4, (int64_t[]){2}));

  size_t tv = fb_vec(f, 4 + s->extra_tensors, 4, NULL);
  fb_ref(f, sg_t, tv);
  for (int i = 0; i < 4; i++) {
    // Tensor { shape 0, type 1, buffer 2, name 3, quantization 4 }
    size_t t = fb_table(f, 5, (int[]){0, 1, 2, 3, 4}, (int[]){4, 1, 4, 4, 4}, p), vt = f->vt;
    size_t shape = p[0], name = p[3], quant = p[4];
    fb_ref(f, tv + 4 + 4 * (size_t)i, t);
    if (i == 0) lay->t0_tbl = t;
    for (uint32_t k = 0; i == 1 && k < s->extra_tensors; k++) {
      fb_ref(f, tv + 4 + 4 * (4 + (size_t)k), t);
    }
    fb_set(f, p[1], i == 3 ? 2 : 9, 1);
    fb_set(f, p[2], i == 1 ? 1 : i == 3 ? 2 : 0, 4);
    if (i == 3) {
      fb_set(f, vt + 4, 0, 2);  // no shape: rank 0
    } else {
      int64_t dims[3][2] = {{1, 4}, {s->dim0, 4}, {1, 2}};
      fb_ref(f, shape, fb_vec(f, 2, 4, dims[i]));
    }
    if (i == 0 && s->name0) {
      lay->name_str = fb_str(f, "in");
      fb_ref(f, name, lay->name_str);
    } else {
      fb_set(f, vt + 4 + 2 * 3, 0, 2);
    }
    if (i == 0 || i == 1) {
      // QuantizationParameters { scale 2, zero_point 3, quantized_dimension 6 }
      size_t q = fb_table(f, 3, (int[]){2, 3, 6}, (int[]){4, 4, 4}, p), qvt = f->vt;
      fb_ref(f, quant, q);
      uint32_t ns = i == 0 ? 1 : s->n_scale, nz = i == 0 ? 1 : s->n_zp;
      fb_set(f, p[2], i == 0 ? 0 : (uint32_t)s->qdim, 4);
      if (ns == NONE_VEC) fb_set(f, qvt + 4 + 2 * 2, 0, 2);
      else fb_ref(f, p[0], fb_f32vec(f, ns, 0.5f));
      if (nz == NONE_VEC) {
        fb_set(f, qvt + 4 + 2 * 3, 0, 2);
      } else {
        int64_t zp[32] = {-3};
        fb_ref(f, p[1], fb_vec(f, nz, 8, zp));
      }
    } else {
      fb_set(f, vt + 4 + 2 * 4, 0, 2);
    }
  }

  size_t ov = fb_vec(f, 1 + s->extra_ops, 4, NULL);
  fb_ref(f, sg_ops, ov);
  // Operator { opcode_index 0, inputs 1, outputs 2, builtin_options_type 3, builtin_options 4 }
  size_t op = fb_table(f, 5, (int[]){0, 1, 2, 3, 4}, (int[]){4, 4, 4, 1, 4}, p), op_vt = f->vt;
  size_t o_opt = p[4];
  lay->op_tbl = op;
  for (uint32_t k = 0; k <= s->extra_ops; k++) fb_ref(f, ov + 4 + 4 * (size_t)k, op);
  fb_set(f, p[0], s->opcode_index, 4);
  fb_set(f, p[3], s->options_type, 1);
  int64_t in[32] = {0, s->in1, -1};
  fb_ref(f, p[1], fb_vec(f, s->n_inputs, 4, in));
  fb_ref(f, p[2], fb_vec(f, 1, 4, (int64_t[]){2}));
  if (s->options_type == 8) {  // FullyConnectedOptions { activation 0, weights_format 1, keep 2 }
    size_t o = fb_table(f, 3, (int[]){0, 1, 2}, (int[]){1, 1, 1}, p);
    fb_ref(f, o_opt, o);
    fb_set(f, p[0], 1, 1);
    fb_set(f, p[2], 1, 1);
  } else if (s->options_type == 1) {  // Conv2DOptions: strides only
    size_t o = fb_table(f, 2, (int[]){1, 2}, (int[]){4, 4}, p);
    fb_ref(f, o_opt, o);
    fb_set(f, p[0], 2, 4);
    fb_set(f, p[1], 3, 4);
  } else if (s->options_type == 17 || s->options_type == 30) {
    // ReshapeOptions { new_shape 0 }, SqueezeOptions { squeeze_dims 0 }
    size_t o = fb_table(f, 1, (int[]){0}, (int[]){4}, p);
    fb_ref(f, o_opt, o);
    int64_t ns[16] = {1, -1, 4, 5, 6, 7, 8, 9, 10};
    fb_ref(f, p[0], fb_vec(f, s->n_new_shape, 4, ns));
  } else if (s->options_type == 10) {  // ConcatenationOptions { axis 0, activation 1 }
    size_t o = fb_table(f, 2, (int[]){0, 1}, (int[]){4, 1}, p);
    fb_ref(f, o_opt, o);
    fb_set(f, p[0], (uint32_t)-3, 4);
    fb_set(f, p[1], 1, 1);
  } else if (s->options_type == 21 || s->options_type == 28) {
    // MulOptions { activation 0 }; SubOptions { activation 0, pot_scale_int16 1 }
    const int sub = s->options_type == 28;
    size_t o = fb_table(f, 1 + sub, (int[]){0, 1}, (int[]){1, 1}, p);
    fb_ref(f, o_opt, o);
    fb_set(f, p[0], 3, 1);
    if (sub) fb_set(f, p[1], 0, 1);
  } else if (s->options_type == 35) {  // SplitOptions { num_splits 0 }
    size_t o = fb_table(f, 1, (int[]){0}, (int[]){4}, p);
    fb_ref(f, o_opt, o);
    fb_set(f, p[0], 3, 4);
  } else if (s->options_type == 74) {  // ResizeNearestNeighborOptions: half_pixel_centers only
    size_t o = fb_table(f, 1, (int[]){1}, (int[]){1}, p);
    fb_ref(f, o_opt, o);
    fb_set(f, p[0], 7, 1);  // any nonzero byte is true
  } else if (s->options_type == 75) {  // LeakyReluOptions { alpha 0 }
    size_t o = fb_table(f, 1, (int[]){0}, (int[]){4}, p);
    fb_ref(f, o_opt, o);
    fb_set(f, p[0], 0x3e800000u, 4);  // 0.25f
  } else {
    fb_set(f, op_vt + 4 + 2 * 4, 0, 2);
  }

  size_t bv = fb_vec(f, 3, 4, NULL);
  fb_ref(f, m_buf, bv);
  size_t off_field = 0;
  for (int i = 0; i < 3; i++) {
    // Buffer { data 0, offset 1, size 2 }
    if (i == 1 && s->by_offset) {
      size_t b = fb_table(f, 2, (int[]){1, 2}, (int[]){8, 8}, p);
      fb_ref(f, bv + 4 + 4 * (size_t)i, b);
      off_field = p[0];
      fb_set(f, p[1], 8, 8);
      continue;
    }
    size_t b = fb_table(f, 1, (int[]){0}, (int[]){4}, p), b_vt = f->vt;
    fb_ref(f, bv + 4 + 4 * (size_t)i, b);
    int64_t bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    uint32_t n = i == 0 ? s->buf0_len : i == 1 ? 8 : 4;
    if (i == 2) bytes[0] = 7, bytes[1] = bytes[2] = bytes[3] = 0;
    if (n == 0) {
      fb_set(f, b_vt + 4, 0, 2);  // no data field
      continue;
    }
    size_t v = fb_vec(f, n, 1, bytes);
    fb_ref(f, p[0], v);
    if (i == 1) lay->data1 = v + 4;
  }
  if (s->by_offset) {
    lay->data1 = fb_pad(f, 16);
    for (uint8_t k = 1; k <= 8; k++) f->b[f->n++] = k;
    fb_set(f, off_field, lay->data1 + s->offset_add, 8);
  }
  lay->len = f->n;
  return f->n;
}

// parses the model of spec s (from an exact-size allocation), failing the test with the
// reader's message if it is refused; *m filled (free with done())
static void parse_ok(const spec_t *s, s24_tfl_model_t *m, uint8_t **copy) {
  static fb_t f;
  lay_t lay;
  char err[256];
  size_t n = build(s, &f, &lay);
  if (parse_exact(f.b, n, m, err, sizeof err, copy) != S24_OK) fail_msg("%s", err);
}

static void done(s24_tfl_model_t *m, uint8_t *copy) {
  tfl_free(m);
  free(copy);
}

static void expect_spec_refused(const spec_t *s, const char *want) {
  static fb_t f;
  lay_t lay;
  size_t n = build(s, &f, &lay);
  expect_refused(f.b, n, want);
}

// ---------------------------------------------------------------- small built models
static void test_built_model(void **state) {
  (void)state;
  spec_t s = default_spec();
  s24_tfl_model_t m;
  uint8_t *c;
  parse_ok(&s, &m, &c);
  assert_int_equal(m.version, 3);
  assert_int_equal(m.n_tensors, 4);
  assert_int_equal(m.n_inputs, 1);
  assert_int_equal(m.inputs[0], 0);
  assert_int_equal(m.outputs[0], 2);
  assert_int_equal(m.tensors[0].name_len, 2);
  assert_memory_equal(m.tensors[0].name, "in", 2);
  assert_int_equal(m.tensors[1].name_len, 0);  // unnamed: "" (not NULL)
  assert_string_equal(m.tensors[1].name, "");
  assert_int_equal(m.tensors[0].n_quant, 1);
  assert_true(m.tensors[0].scale[0] == 0.5f);
  assert_int_equal(m.tensors[0].zero_point[0], -3);
  assert_null(m.tensors[0].data);
  const s24_tfl_tensor_t *w = &m.tensors[1];
  assert_int_equal(w->bytes, 8);
  assert_int_equal(w->n_quant, 2);
  assert_true(w->scale[1] == 1.0f);
  assert_memory_equal(w->data, ((uint8_t[]){1, 2, 3, 4, 5, 6, 7, 8}), 8);
  const s24_tfl_tensor_t *k = &m.tensors[3];
  assert_int_equal(k->rank, 0);
  assert_int_equal(k->elems, 1);
  assert_int_equal(k->bytes, 4);
  assert_int_equal(k->data_len, 4);
  assert_int_equal(k->data[0], 7);
  assert_int_equal(m.tensors[2].n_quant, 0);
  assert_int_equal(m.n_ops, 1);
  const s24_tfl_op_t *o = &m.ops[0];
  assert_int_equal(o->opcode, S24_OP_FULLY_CONNECTED);
  assert_int_equal(o->version, 2);
  assert_int_equal(o->n_in, 3);
  assert_int_equal(o->in[1], 1);
  assert_int_equal(o->in[2], -1);  // optional input absent
  assert_int_equal(o->options_type, S24_TFL_OPT_FULLY_CONNECTED);
  assert_int_equal(o->opt.activation, S24_ACT_RELU);
  assert_int_equal(o->opt.keep_num_dims, 1);
  assert_int_equal(o->opt.dilation_w, 1);
  done(&m, c);
}

// the same bytes at an odd address parse the same (no aligned reads)
static void test_unaligned(void **state) {
  (void)state;
  static fb_t f;
  lay_t lay;
  spec_t s = default_spec();
  size_t n = build(&s, &f, &lay);
  uint8_t *raw = malloc(n + 1);
  assert_non_null(raw);
  memcpy(raw + 1, f.b, n);
  s24_tfl_model_t m;
  char err[256];
  if (tfl_parse(raw + 1, n, &m, err, sizeof err) != S24_OK) fail_msg("%s", err);
  check_invariants(&m, raw + 1, n);
  assert_true(m.tensors[1].scale[1] == 1.0f);
  assert_int_equal(m.tensors[0].zero_point[0], -3);
  tfl_free(&m);
  free(raw);
}

static void test_operator_codes(void **state) {
  (void)state;
  static const struct {
    int32_t deprecated, builtin;
    const char *custom;
    int32_t opcode;
  } cases[] = {
      {3, 0, NULL, S24_OP_CONV_2D},     // an old file: only the deprecated byte
      {127, 150, NULL, 150},            // 127: "see builtin_code"
      {32, 0, "MyOp", 32},              // a custom operator, old style
      {32, 32, "MyOp", 32},             // ... new style
      {127, 32, NULL, 127},             // max of the two, as LiteRT: the placeholder
      {9, 9, NULL, S24_OP_FULLY_CONNECTED},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spec_t s = default_spec();
    s.deprecated = cases[i].deprecated;
    s.builtin = cases[i].builtin;
    s.custom_code = cases[i].custom;
    s24_tfl_model_t m;
    uint8_t *c;
    parse_ok(&s, &m, &c);
    assert_int_equal(m.ops[0].opcode, cases[i].opcode);
    assert_int_equal(m.ops[0].is_custom, cases[i].opcode == 32);
    done(&m, c);
  }
  assert_string_equal(s24_tfl_op_name(32), "CUSTOM");
}

static void test_buffer_offset(void **state) {
  (void)state;
  spec_t s = default_spec();
  s.by_offset = 1;
  s24_tfl_model_t m;
  uint8_t *c;
  parse_ok(&s, &m, &c);
  assert_int_equal(m.tensors[1].data_len, 8);
  assert_ptr_equal(m.tensors[1].data, c + m.file_len - 8);
  assert_int_equal(m.tensors[1].data_offset, m.file_len - 8);
  assert_memory_equal(m.tensors[1].data, ((uint8_t[]){1, 2, 3, 4, 5, 6, 7, 8}), 8);
  done(&m, c);
  s.offset_add = 1;  // one byte past the end
  expect_spec_refused(&s, "tensor 1 buffer 1: offset ");
  s.offset_add = (uint64_t)1 << 63;
  expect_spec_refused(&s, "lie outside the file");
  s.offset_add = UINT64_MAX - 2000;  // offset + size wrap around
  expect_spec_refused(&s, "lie outside the file");
}

static void test_quantization(void **state) {
  (void)state;
  // accepted quantization vectors of tensor 1: the entries the reader keeps
  static const struct {
    uint32_t n_scale, n_zp;
    int32_t qdim;
    uint32_t n_quant;
    const char *what;
  } accepted[] = {
      {0, 0, 0, 0, "empty: not quantized"},
      {0, 5, 0, 0, "no scales: zero points alone are ignored, as LiteRT does"},
      {1, 1, 0, 1, "per tensor"},
      {4, 4, 1, 4, "per channel along dimension 1 (size 4)"},
  };
  for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; ++i) {
    s24_tfl_model_t m;
    uint8_t *c;
    spec_t s = default_spec();
    s.n_scale = accepted[i].n_scale;
    s.n_zp = accepted[i].n_zp;
    s.qdim = accepted[i].qdim;
    parse_ok(&s, &m, &c);
    if (m.tensors[1].n_quant != accepted[i].n_quant || m.tensors[1].quant_dim != accepted[i].qdim)
      fail_msg("%s: %u entries along dimension %d", accepted[i].what, m.tensors[1].n_quant,
               (int)m.tensors[1].quant_dim);
    done(&m, c);
  }

  spec_t s;
  s = default_spec();
  s.n_zp = NONE_VEC;
  expect_spec_refused(&s, "tensor 1 quantization: 2 scales but no zero_point");
  s.n_zp = 1;
  expect_spec_refused(&s, "tensor 1 quantization: 2 scales but 1 zero points");
  s.n_scale = s.n_zp = 3;
  expect_spec_refused(&s, "3 scales for dimension 0 of size 2");
  s = default_spec();
  s.qdim = 2;
  expect_spec_refused(&s, "quantized_dimension 2 outside [0, 2)");
  s.qdim = -1;
  expect_spec_refused(&s, "quantized_dimension -1 outside [0, 2)");
}

// An options table's int list (RESHAPE's new_shape, SQUEEZE's squeeze_dims, the spec writing
// 1, -1, 4, 5, ... into either): 3 and 8 entries read, into that list only; 9 refused
static void list_option(spec_t *s, int type, const char *field) {
  s24_tfl_model_t m;
  uint8_t *c;
  s->options_type = type;
  for (uint32_t n = 3; n <= 8; n += 5) {
    s->n_new_shape = n;
    parse_ok(s, &m, &c);
    const s24_tfl_options_t *o = &m.ops[0].opt;
    const int reshape = type == S24_TFL_OPT_RESHAPE;
    const int32_t *v = reshape ? o->new_shape : o->squeeze_dims;
    assert_int_equal(reshape ? o->n_new_shape : o->n_squeeze_dims, n);
    assert_int_equal(reshape ? o->n_squeeze_dims : o->n_new_shape, 0);
    assert_int_equal(v[1], -1);
    assert_int_equal(v[n - 1], n + 1);
    done(&m, c);
  }
  s->n_new_shape = 9;
  char want[128];
  snprintf(want, sizeof want, "operator 0 (FULLY_CONNECTED) builtin_options %s: 9 entries, more "
           "than 8", field);
  expect_spec_refused(s, want);
}

static void test_options(void **state) {
  (void)state;
  s24_tfl_model_t m;
  uint8_t *c;
  spec_t s = default_spec();
  s.options_type = S24_TFL_OPT_CONV_2D;  // strides only: the schema's defaults for the rest
  parse_ok(&s, &m, &c);
  assert_int_equal(m.ops[0].opt.stride_w, 2);
  assert_int_equal(m.ops[0].opt.stride_h, 3);
  assert_int_equal(m.ops[0].opt.padding, S24_PAD_SAME);
  assert_int_equal(m.ops[0].opt.dilation_w, 1);
  assert_int_equal(m.ops[0].opt.dilation_h, 1);
  assert_int_equal(m.ops[0].opt.activation, S24_ACT_NONE);
  done(&m, c);
  list_option(&s, S24_TFL_OPT_RESHAPE, "new_shape");
  list_option(&s, S24_TFL_OPT_SQUEEZE, "squeeze_dims");
  s.n_new_shape = 0;
  parse_ok(&s, &m, &c);  // an empty squeeze_dims: every dimension of size 1
  assert_int_equal(m.ops[0].opt.n_squeeze_dims, 0);
  done(&m, c);
  s.options_type = S24_TFL_OPT_CONCATENATION;
  parse_ok(&s, &m, &c);
  assert_int_equal(m.ops[0].opt.axis, -3);
  assert_int_equal(m.ops[0].opt.activation, S24_ACT_RELU);
  done(&m, c);
  s.options_type = S24_TFL_OPT_MUL;
  parse_ok(&s, &m, &c);
  assert_int_equal(m.ops[0].opt.activation, S24_ACT_RELU6);
  done(&m, c);
  s.options_type = S24_TFL_OPT_SUB;
  parse_ok(&s, &m, &c);
  assert_int_equal(m.ops[0].opt.activation, S24_ACT_RELU6);
  done(&m, c);
  s.options_type = S24_TFL_OPT_SPLIT;
  parse_ok(&s, &m, &c);
  assert_int_equal(m.ops[0].opt.num_splits, 3);
  done(&m, c);
  s.options_type = S24_TFL_OPT_RESIZE_NEAREST_NEIGHBOR;
  parse_ok(&s, &m, &c);
  assert_int_equal(m.ops[0].opt.align_corners, 0);
  assert_int_equal(m.ops[0].opt.half_pixel_centers, 1);
  done(&m, c);
  s.options_type = S24_TFL_OPT_LEAKY_RELU;
  parse_ok(&s, &m, &c);
  assert_true(m.ops[0].opt.alpha == 0.25f);
  done(&m, c);
  s.options_type = 0;  // no options table: defaults
  parse_ok(&s, &m, &c);
  assert_int_equal(m.ops[0].options_type, 0);
  assert_int_equal(m.ops[0].opt.dilation_w, 1);
  assert_int_equal(m.ops[0].opt.stride_w, 0);
  done(&m, c);
}

static void test_built_refused(void **state) {
  (void)state;
  spec_t s = default_spec();
  s.n_subgraphs = 0;
  expect_spec_refused(&s, "model: 0 subgraphs, expected exactly 1");
  s.n_subgraphs = 2;
  expect_spec_refused(&s, "model: 2 subgraphs, expected exactly 1");
  s = default_spec();
  s.buf0_len = 4;
  expect_spec_refused(&s, "model buffer 0: the empty sentinel holds 4 bytes");
  s = default_spec();
  s.n_inputs = 17;
  expect_spec_refused(&s, "operator 0 (FULLY_CONNECTED) inputs: 17 tensors, more than 16");
  s.n_inputs = 3;
  s.in1 = 4;
  expect_spec_refused(&s, "operator 0 (FULLY_CONNECTED) inputs: tensor index 4 out of range "
                          "(4 tensors)");
  s.in1 = -2;
  expect_spec_refused(&s, "tensor index -2 out of range");
  s = default_spec();
  s.opcode_index = 1;
  expect_spec_refused(&s, "operator 0 opcode_index: 1 out of range (1 operator codes)");
  s = default_spec();
  s.dim0 = -1;
  expect_spec_refused(&s, "tensor 1 shape: dimension 0 is negative (-1)");
  s.dim0 = 3;
  expect_spec_refused(&s, "tensor 1: constant data is 8 bytes, expected 12 (12 INT8 elements)");

  // corrupted structure
  static fb_t f;
  lay_t lay;
  s = default_spec();
  size_t n = build(&s, &f, &lay);
  f.b[lay.model_vt] |= 1;  // odd vtable size
  expect_refused(f.b, n, "is malformed or outside the file");
  n = build(&s, &f, &lay);
  fb_set(&f, lay.model_vt, 0x7ff0, 2);  // vtable past the end
  expect_refused(f.b, n, "is malformed or outside the file");
  n = build(&s, &f, &lay);
  {
    size_t op_vt = lay.op_tbl - (size_t)ld_s32(f.b + lay.op_tbl);
    fb_set(&f, op_vt + 2, 8, 2);  // inline size 8: the later fields fall outside it
  }
  expect_refused(f.b, n, "operator 0 (FULLY_CONNECTED) inputs: field at offset");
  n = build(&s, &f, &lay);
  f.b[lay.name_str + 4 + 2] = 'x';  // "in" loses its NUL
  expect_refused(f.b, n, "tensor 0 name: string at byte");
  n = build(&s, &f, &lay);
  fb_set(&f, lay.t0_tbl, 0x80000000u, 4);  // soffset: vtable far outside
  expect_refused(f.b, n, "tensor 0: vtable of the table at byte");
  n = build(&s, &f, &lay);
  fb_set(&f, lay.t0_tbl, (uint32_t)-(int32_t)(n - lay.t0_tbl - 2), 4);  // vtable at the end
  expect_refused(f.b, n, "tensor 0: vtable of the table at byte");
}

// vectors whose entries share one table: parsed as often as they appear, within the limits
static void test_shared_tables(void **state) {
  (void)state;
  s24_tfl_model_t m;
  uint8_t *c;
  spec_t s = default_spec();
  s.extra_ops = 999;
  s.extra_tensors = 20;
  parse_ok(&s, &m, &c);
  assert_int_equal(m.n_ops, 1000);
  assert_int_equal(m.n_tensors, 24);
  assert_int_equal(m.ops[999].in[1], 1);
  assert_int_equal(m.tensors[23].n_quant, 2);
  assert_ptr_equal(m.tensors[23].data, m.tensors[1].data);
  done(&m, c);
  s.extra_ops = S24_TFL_MAX_OPS;
  expect_spec_refused(&s, "subgraph 0 operators: 65537, more than 65536");
  s = default_spec();
  s.extra_tensors = S24_TFL_MAX_TENSORS;
  expect_spec_refused(&s, "subgraph 0 tensors: 65540, more than 65536");
  // the quantization vectors copied stay within one entry per 4 bytes of the file
  s.extra_tensors = 2000;
  expect_spec_refused(&s, "quantization: the tensors' quantization parameters together hold more "
                          "entries than the file has room for");
}

// every truncation of the small model, and of it with data by offset: refused, nothing leaks
static void test_built_truncations(void **state) {
  (void)state;
  static fb_t f;
  lay_t lay;
  for (int by_offset = 0; by_offset < 2; by_offset++) {
    spec_t s = default_spec();
    s.by_offset = by_offset;
    size_t n = build(&s, &f, &lay);
    for (size_t len = 0; len < n; len++) {
      s24_tfl_model_t m;
      char err[256];
      uint8_t *c;
      if (parse_exact(f.b, len, &m, err, sizeof err, &c) == S24_OK) {
        fail_msg("a truncation to %zu of %zu bytes parsed", len, n);
      }
    }
  }
}

// ---------------------------------------------------------------- malformed MLPerf Tiny files
static void test_identifier_and_root(void **state) {
  (void)state;
  size_t len;
  uint8_t *buf = load("kws", &len);
  expect_refused(buf, 0, "model: 0 bytes are too short for a flatbuffer");
  expect_refused(buf, 7, "model: 7 bytes are too short for a flatbuffer");
  buf[7] = '2';
  assert_false(s24_tfl_is_tflite(buf, len));
  expect_refused(buf, len, "model: not a TFLite flatbuffer: identifier (bytes 4..7) is not TFL3");
  buf[7] = '3';
  assert_true(s24_tfl_is_tflite(buf, len));
  assert_false(s24_tfl_is_tflite(buf, 7));
  assert_false(s24_tfl_is_tflite(NULL, 8));
  uint8_t root[4];
  memcpy(root, buf, 4);
  put32(buf, (uint32_t)len);  // one past the end
  expect_refused(buf, len, "model root: offset out of bounds at byte 0");
  put32(buf, 0xfffffff0u);
  expect_refused(buf, len, "model root: offset out of bounds at byte 0");
  put32(buf, 0);
  expect_refused(buf, len, "model root: offset out of bounds at byte 0");
  put32(buf, (uint32_t)len - 2);  // inside, but no room for the table's soffset
  expect_refused(buf, len, "model root: table at byte");
  memcpy(buf, root, 4);
  free(buf);
}

// every truncation of kws.tflite is refused (its last bytes are constant data)
static void test_kws_truncations(void **state) {
  (void)state;
  size_t len;
  uint8_t *buf = load("kws", &len);
  for (size_t n = 0; n < len; n++) {
    s24_tfl_model_t m;
    char err[256];
    uint8_t *c;
    if (parse_exact(buf, n, &m, err, sizeof err, &c) == S24_OK) {
      done(&m, c);
      fail_msg("kws.tflite truncated to %zu of %zu bytes parsed", n, len);
    }
  }
  free(buf);
}

static uint64_t g_rng;
static uint32_t rnd(void) {  // xorshift64*
  g_rng ^= g_rng >> 12;
  g_rng ^= g_rng << 25;
  g_rng ^= g_rng >> 27;
  return (uint32_t)((g_rng * 2685821657736338717ull) >> 32);
}

// random changes of 1..4 bytes (mostly outside constant data, where the structure is): no crash,
// no sanitizer report; each result is an error or a model satisfying the invariants
static void test_kws_byte_flips(void **state) {
  (void)state;
  const char *env = getenv("S24_SEED");
  uint64_t seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
  const int cases = getenv("S24_CASES") ? atoi(getenv("S24_CASES")) : 20000;
  print_message("byte flips: seed %llu (rerun: S24_SEED=%llu)\n", (unsigned long long)seed,
                (unsigned long long)seed);
  g_rng = seed * 0x9E3779B97F4A7C15ull + 1;
  size_t len;
  uint8_t *buf = load("kws", &len);
  // the structure's bytes: everything but the constant data
  s24_tfl_model_t m;
  char err[256];
  assert_int_equal(tfl_parse(buf, len, &m, err, sizeof err), S24_OK);
  uint8_t *is_data = calloc(len, 1);
  assert_non_null(is_data);
  for (size_t i = 0; i < m.n_tensors; i++) {
    const s24_tfl_tensor_t *t = &m.tensors[i];
    if (t->data != NULL) memset(is_data + t->data_offset, 1, t->data_len);
  }
  tfl_free(&m);
  size_t *meta = malloc(len * sizeof *meta), n_meta = 0;
  assert_non_null(meta);
  for (size_t i = 0; i < len; i++) if (!is_data[i]) meta[n_meta++] = i;
  uint8_t *mut = malloc(len);
  assert_non_null(mut);
  int ok = 0, bad = 0;
  for (int k = 0; k < cases; k++) {
    memcpy(mut, buf, len);
    int nflips = 1 + (int)(rnd() % 4);
    for (int j = 0; j < nflips; j++) {
      size_t at = rnd() % 10 == 0 ? rnd() % len : meta[rnd() % n_meta];
      uint32_t how = rnd() % 4;
      mut[at] = how == 0 ? (uint8_t)(mut[at] ^ (1u << (rnd() % 8)))
              : how == 1 ? 0xff
              : how == 2 ? 0x00
                         : (uint8_t)rnd();
    }
    uint8_t *c;
    if (parse_exact(mut, len, &m, err, sizeof err, &c) == S24_OK) {
      ok++;
      done(&m, c);
    } else {
      bad++;
    }
  }
  print_message("byte flips: %d cases, %d parsed, %d refused\n", cases, ok, bad);
  assert_true(bad > 0);
  free(mut);
  free(meta);
  free(is_data);
  free(buf);
}

// targeted changes of kws.tflite at places found through the parsed model
static void test_kws_targeted(void **state) {
  (void)state;
  size_t len, at[8], k;
  uint8_t *buf = load("kws", &len);
  s24_tfl_model_t m;
  char err[256];
  assert_int_equal(tfl_parse(buf, len, &m, err, sizeof err), S24_OK);
  const s24_tfl_tensor_t w = m.tensors[17];  // model/conv2d/Conv2D, int8 64x10x4x1
  uint32_t w_scale_len_at = 0;
  {
    // the scale vector of tensor 17: its 64 floats, preceded by the length
    uint8_t *pat = malloc(4 + 64 * 4);
    assert_non_null(pat);
    put32(pat, 64);
    memcpy(pat + 4, w.scale, 64 * 4);
    for (size_t p = 0; p + 4 + 256 <= len; p++) {
      if (memcmp(buf + p, pat, 4 + 256) == 0) w_scale_len_at = (uint32_t)p;
    }
    free(pat);
    assert_true(w_scale_len_at != 0);
  }
  tfl_free(&m);

  // the constant data's vector length of tensor 17 becomes 0x7fffffff
  uint8_t save[4];
  memcpy(save, buf + w.data_offset - 4, 4);
  put32(buf + w.data_offset - 4, 0x7fffffffu);
  expect_refused(buf, len, "tensor 17 (model/conv2d/Conv2D) buffer 18: vector at byte");
  expect_refused(buf, len, "of 2147483647 elements of 1 bytes runs past the end of the file");
  put32(buf + w.data_offset - 4, 0xffffffffu);
  expect_refused(buf, len, "runs past the end of the file");
  put32(buf + w.data_offset - 4, 2559);
  expect_refused(buf, len, "tensor 17 (model/conv2d/Conv2D): constant data is 2559 bytes, "
                           "expected 2560 (2560 INT8 elements)");
  memcpy(buf + w.data_offset - 4, save, 4);

  // its shape 64x10x4x1 becomes 64x9x4x1: the data no longer fits it
  k = find_all(buf, len, (int32_t[]){4, 64, 10, 4, 1}, 5, at, 8);
  assert_int_equal(k, 1);
  put32(buf + at[0] + 8, 9);
  expect_refused(buf, len, "tensor 17 (model/conv2d/Conv2D): constant data is 2560 bytes, "
                           "expected 2304 (2304 INT8 elements)");
  put32(buf + at[0] + 8, 10);

  // scale count 63 against 64 zero points
  put32(buf + w_scale_len_at, 63);
  expect_refused(buf, len, "tensor 17 (model/conv2d/Conv2D) quantization: 63 scales but 64 zero "
                           "points");
  put32(buf + w_scale_len_at, 0x7fffffffu);
  expect_refused(buf, len, "tensor 17 (model/conv2d/Conv2D) quantization scale: vector at byte");
  put32(buf + w_scale_len_at, 64);

  // operator 1's inputs {0, 17, 3}: index 37 (= the tensor count) and -1
  k = find_all(buf, len, (int32_t[]){3, 0, 17, 3}, 4, at, 8);
  assert_int_equal(k, 1);
  put32(buf + at[0] + 8, 37);
  expect_refused(buf, len, "operator 1 (CONV_2D) inputs: tensor index 37 out of range (37 "
                           "tensors)");
  put32(buf + at[0] + 8, 0x80000000u);
  expect_refused(buf, len, "operator 1 (CONV_2D) inputs: tensor index -2147483648 out of range");
  put32(buf + at[0] + 8, (uint32_t)-1);  // an absent optional input is allowed
  {
    uint8_t *c;
    assert_int_equal(parse_exact(buf, len, &m, err, sizeof err, &c), S24_OK);
    assert_int_equal(m.ops[1].in[1], -1);
    done(&m, c);
  }
  put32(buf + at[0] + 8, 17);
  put32(buf + at[0], 17);  // 17 inputs
  expect_refused(buf, len, "operator 1 (CONV_2D) inputs: 17 tensors, more than 16");
  put32(buf + at[0], 3);

  // vectors {1, 35}: the subgraph's inputs and operator 0's: 99 is out of range; -1 only in the
  // operator's (an absent optional input), not in the subgraph's
  k = find_all(buf, len, (int32_t[]){1, 35}, 2, at, 8);
  assert_true(k >= 2);
  int refused = 0, optional = 0;
  for (size_t i = 0; i < k; i++) {
    put32(buf + at[i] + 4, 99);
    expect_refused(buf, len, "tensor index 99 out of range (37 tensors)");
    put32(buf + at[i] + 4, (uint32_t)-1);
    uint8_t *c;
    if (parse_exact(buf, len, &m, err, sizeof err, &c) == S24_OK) {
      assert_int_equal(m.ops[0].in[0], -1);
      optional++;
      done(&m, c);
    } else {
      assert_non_null(strstr(err, "subgraph 0 inputs: tensor index -1 out of range (37 tensors)"));
      refused++;
    }
    put32(buf + at[i] + 4, 35);
  }
  assert_int_equal(refused, 1);
  assert_int_equal(optional, 1);

  // the input's shape 1x50x10x1 (tensors 0 and 35): a negative dim, rank 7, dims that overflow
  k = find_all(buf, len, (int32_t[]){4, 1, 50, 10, 1}, 5, at, 8);
  assert_int_equal(k, 2);
  refused = 0;
  for (size_t i = 0; i < k; i++) {
    put32(buf + at[i] + 8, (uint32_t)-50);
    expect_refused(buf, len, "shape: dimension 1 is negative (-50)");
    put32(buf + at[i] + 8, 50);
    put32(buf + at[i], 7);
    expect_refused(buf, len, "shape: rank 7 is over 6");
    put32(buf + at[i], 4);
    for (int d = 0; d < 4; d++) put32(buf + at[i] + 4 + 4 * (size_t)d, 0x7fffffffu);
    expect_refused(buf, len, "shape: element count overflows");
    put32(buf + at[i] + 4, 1);  // (2^31 - 1)^2 * 4 elements: int8 fits size_t, float32 not
    put32(buf + at[i] + 16, 4);
    uint8_t *c;
    if (parse_exact(buf, len, &m, err, sizeof err, &c) == S24_OK) {
      assert_int_equal(m.tensors[0].elems, (size_t)0x7fffffff * 0x7fffffff * 4);
      done(&m, c);
    } else {
      assert_non_null(strstr(err, "tensor 35 (input_1) shape: byte size overflows"));
      refused++;
    }
    put32(buf + at[i] + 4, 1);
    put32(buf + at[i] + 8, 50);
    put32(buf + at[i] + 12, 10);
    put32(buf + at[i] + 16, 1);
  }
  assert_int_equal(refused, 1);  // tensor 35, FLOAT32
  assert_int_equal(tfl_parse(buf, len, &m, err, sizeof err), S24_OK);  // all restored
  tfl_free(&m);
  free(buf);
}

// ---------------------------------------------------------------- names, arguments, messages
static void test_names(void **state) {
  (void)state;
  assert_string_equal(s24_tfl_op_name(S24_OP_ADD), "ADD");
  assert_string_equal(s24_tfl_op_name(S24_OP_CONV_2D), "CONV_2D");
  assert_string_equal(s24_tfl_op_name(S24_OP_MEAN), "MEAN");
  assert_string_equal(s24_tfl_op_name(S24_OP_STRIDED_SLICE), "STRIDED_SLICE");
  assert_string_equal(s24_tfl_op_name(S24_OP_SHAPE), "SHAPE");
  assert_string_equal(s24_tfl_op_name(S24_OP_PACK), "PACK");
  assert_string_equal(s24_tfl_op_name(S24_OP_QUANTIZE), "QUANTIZE");
  assert_string_equal(s24_tfl_op_name(S24_OP_PAD), "PAD");
  static const struct {
    int32_t code;
    const char *name;
  } added[] = {  // the operators of issue #50: each enum value names its schema entry
      {S24_OP_CONCATENATION, "CONCATENATION"}, {S24_OP_LOGISTIC, "LOGISTIC"},
      {S24_OP_MUL, "MUL"}, {S24_OP_RELU, "RELU"}, {S24_OP_RELU6, "RELU6"},
      {S24_OP_TANH, "TANH"}, {S24_OP_TRANSPOSE, "TRANSPOSE"}, {S24_OP_SUB, "SUB"},
      {S24_OP_SQUEEZE, "SQUEEZE"}, {S24_OP_SPLIT, "SPLIT"},
      {S24_OP_RESIZE_NEAREST_NEIGHBOR, "RESIZE_NEAREST_NEIGHBOR"},
      {S24_OP_LEAKY_RELU, "LEAKY_RELU"}, {S24_OP_HARD_SWISH, "HARD_SWISH"},
  };
  for (size_t i = 0; i < sizeof added / sizeof added[0]; ++i)
    assert_string_equal(s24_tfl_op_name(added[i].code), added[i].name);
  assert_string_equal(s24_tfl_op_name(127), "PLACEHOLDER_FOR_GREATER_OP_CODES");
  assert_string_equal(s24_tfl_op_name(209), "STABLEHLO_CASE");
  assert_string_equal(s24_tfl_op_name(210), "UNKNOWN");
  assert_string_equal(s24_tfl_op_name(-1), "UNKNOWN");
  assert_string_equal(s24_tfl_op_name(INT32_MAX), "UNKNOWN");
  assert_string_equal(s24_tfl_type_name(S24_TFL_INT8), "INT8");
  assert_string_equal(s24_tfl_type_name(S24_TFL_FLOAT32), "FLOAT32");
  assert_string_equal(s24_tfl_type_name(22), "FLOAT8_E5M2");
  assert_string_equal(s24_tfl_type_name(23), "UNKNOWN");
  assert_string_equal(s24_tfl_type_name(-1), "UNKNOWN");
  assert_int_equal(s24_tfl_type_size(S24_TFL_INT8), 1);
  assert_int_equal(s24_tfl_type_size(S24_TFL_UINT8), 1);
  assert_int_equal(s24_tfl_type_size(S24_TFL_INT16), 2);
  assert_int_equal(s24_tfl_type_size(S24_TFL_INT32), 4);
  assert_int_equal(s24_tfl_type_size(S24_TFL_FLOAT32), 4);
  assert_int_equal(s24_tfl_type_size(S24_TFL_INT64), 8);
  assert_int_equal(s24_tfl_type_size(S24_TFL_STRING), 0);
  assert_int_equal(s24_tfl_type_size(17), 0);  // INT4: packed
  assert_int_equal(s24_tfl_type_size(99), 0);
}

static void test_arguments(void **state) {
  (void)state;
  s24_tfl_model_t m;
  char err[64];
  uint8_t one = 0;
  assert_int_equal(tfl_parse(&one, 1, NULL, err, sizeof err), S24_ERR_ARG);
  assert_int_equal(tfl_parse(NULL, 8, &m, err, sizeof err), S24_ERR_ARG);
  assert_int_equal(tfl_parse(NULL, 0, &m, err, sizeof err), S24_ERR_FORMAT);
  assert_true(is_zero(&m, sizeof m));
  assert_int_equal(tfl_parse(NULL, 0, &m, NULL, 0), S24_ERR_FORMAT);  // no message wanted
  // a short message buffer: cut, NUL-terminated
  size_t len;
  uint8_t *buf = load("kws", &len);
  buf[4] = 'X';
  memset(err, '#', sizeof err);
  assert_int_equal(tfl_parse(buf, len, &m, err, 10), S24_ERR_FORMAT);
  assert_int_equal(strlen(err), 9);
  assert_int_equal(err[10], '#');
  assert_int_equal(tfl_parse(buf, len, &m, err, 1), S24_ERR_FORMAT);
  assert_string_equal(err, "");
  free(buf);
  tfl_free(NULL);
  memset(&m, 0, sizeof m);
  tfl_free(&m);
}

int main(int argc, char **argv) {
  g_dir = argc > 1 ? argv[1] : getenv("S24_MODELS");
  const char *exp_path = argc > 2 ? argv[2] : getenv("S24_LITERT_EXPECTED");
  if (g_dir == NULL || exp_path == NULL) {
    fprintf(stderr, "usage: %s MODELS_DIR EXPECTED (or S24_MODELS=DIR S24_LITERT_EXPECTED=FILE): "
                    "the MLPerf Tiny models' directory (scripts/deps.sh --models-path) and what "
                    "LiteRT reports for them (tests/net/litert_expected.tsv)\n", argv[0]);
    return 2;
  }
  read_expected(exp_path, &g_exp);  // an error fails the four model tests
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_model_ad),
      cmocka_unit_test(test_model_ic),
      cmocka_unit_test(test_model_kws),
      cmocka_unit_test(test_model_vww),
      cmocka_unit_test(test_built_model),
      cmocka_unit_test(test_unaligned),
      cmocka_unit_test(test_operator_codes),
      cmocka_unit_test(test_buffer_offset),
      cmocka_unit_test(test_quantization),
      cmocka_unit_test(test_options),
      cmocka_unit_test(test_built_refused),
      cmocka_unit_test(test_shared_tables),
      cmocka_unit_test(test_built_truncations),
      cmocka_unit_test(test_identifier_and_root),
      cmocka_unit_test(test_kws_truncations),
      cmocka_unit_test(test_kws_byte_flips),
      cmocka_unit_test(test_kws_targeted),
      cmocka_unit_test(test_names),
      cmocka_unit_test(test_arguments),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  free_expected(&g_exp);
  return failed;
}
