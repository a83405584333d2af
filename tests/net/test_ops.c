// SPDX-License-Identifier: Apache-2.0
// Host kernels of the network runtime (runtime/s24_ops.c) against LiteRT's BUILTIN_REF outputs:
// every case directory that tests/net/ops_models.py wrote (model.tflite, X.npy, Y.npy) is parsed
// with s24_tfl_parse, every operator checked with s24_op_check and run with s24_op_run on each
// batch element of X, and the output compared byte for byte with Y. Then s24_op_check must
// refuse, with one line naming the operator, the model changed in one place: the first
// operator's declared output shape (last dimension + 1), an operator's first input made INT16,
// its builtin options of a foreign type (for the operators that have an options table), a TANH
// fused activation (for those with one).
//
// usage: test_ops CASES_DIR   (the directory with cases.txt)
//        test_ops CASE_DIR... (single cases; a case with refused.txt instead of Y.npy is a
//        model LiteRT refuses: s24_op_check must refuse one of its operators)
//        test_ops --models MODEL.tflite...  (s24_op_check on every host operator of each)
//        test_ops --mutate N SEED CASES_DIR (N random changes of each case's model: every one
//        s24_op_check accepts runs in buffers of exactly the tensor sizes, under ASan)
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "s24_arena.h"
#include "s24_op_versions.h"
#include "s24_ops.h"
#include "s24_tflite.h"
#include "../common/tfl_heap.h"

// s24_op_prepare into an arena of the size it needs, then s24_op_run: one inference of host
// operator i as the executor runs it (the parameters prepared once, here for every call).
static s24_status_t run_op(const s24_tfl_model_t *m, size_t i, void *const *data) {
  size_t size = 4096;
  for (;;) {
    void *mem = aligned_alloc(16, size);
    if (mem == NULL) return S24_ERR_NOMEM;
    s24_arena_t a;
    s24_arena_init(&a, mem, size);
    const void *params = NULL;
    s24_status_t st = s24_op_prepare(m, i, &a, &params, NULL, 0);
    if (st == S24_OK) st = s24_op_run(m, i, params, data);
    // ADD / SUB of equal shapes: the job an engine's add unit gets (s24_op_add_job) must give the
    // host kernel's output (checked against LiteRT) element for element, as a device computes it
    s24_add_job_t job;
    if (st == S24_OK && !m->ops[i].is_custom &&
        (m->ops[i].opcode == S24_OP_ADD || m->ops[i].opcode == S24_OP_SUB) &&
        s24_op_add_job(m, i, params, data, &job) == S24_OK) {
      for (size_t k = 0; k < job.n; k++) {
        if (job.z[k] != s24_add_elem(job.tab, job.x[k], job.y[k])) st = S24_ERR_HW;
      }
    }
    // QUANTIZE of a float input: the job a quantize unit gets (s24_op_quant_job) must give the
    // host kernel's output on every element within its table's domain
    s24_quant_job_t qj;
    if (st == S24_OK && !m->ops[i].is_custom && m->ops[i].opcode == S24_OP_QUANTIZE &&
        s24_op_quant_job(m, i, params, data, &qj) == S24_OK) {
      for (size_t k = 0; k < qj.n; k++) {
        if ((qj.x[k] & 0x7FFFFFFFu) < qj.dom && qj.y[k] != s24_quant_elem(qj.thr, qj.x[k])) {
          st = S24_ERR_HW;
        }
      }
    }
    free(mem);
    if (st != S24_ERR_NOMEM || a.need <= size) return st;
    size = (a.need + 15) / 16 * 16;
  }
}

#define MAX_RANK 8

// ---- a minimal .npy reader (C order, little endian |i1 <i4 <f4, any rank)

typedef struct {
  char descr[8];
  size_t rank;
  size_t dims[MAX_RANK];
  size_t elems, esize;
  uint8_t *data;
} npy_t;

static uint8_t *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  uint8_t *buf = NULL;
  size_t cap = 0, n = 0;
  for (;;) {
    if (n == cap) {
      cap = cap ? 2 * cap : 65536;
      uint8_t *nb = realloc(buf, cap);
      if (nb == NULL) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = nb;
    }
    const size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (r == 0) break;
  }
  fclose(f);
  *len = n;
  return buf;
}

static int npy_read(const char *path, npy_t *a) {
  memset(a, 0, sizeof *a);
  size_t len = 0;
  uint8_t *buf = read_file(path, &len);
  if (buf == NULL) return -1;
  if (len < 10 || memcmp(buf, "\x93NUMPY", 6) != 0) goto bad;
  size_t hl, off;
  if (buf[6] == 1) {
    hl = (size_t)buf[8] | (size_t)buf[9] << 8;
    off = 10;
  } else {
    if (len < 12) goto bad;
    hl = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
    off = 12;
  }
  if (off + hl > len) goto bad;
  char hdr[1024];
  if (hl >= sizeof hdr) goto bad;
  memcpy(hdr, buf + off, hl);
  hdr[hl] = '\0';
  const char *d = strstr(hdr, "'descr': '");
  const char *fo = strstr(hdr, "'fortran_order': False");
  const char *sh = strstr(hdr, "'shape': (");
  if (d == NULL || fo == NULL || sh == NULL) goto bad;
  d += 10;
  size_t k = 0;
  while (d[k] != '\'' && d[k] != '\0' && k + 1 < sizeof a->descr) {
    a->descr[k] = d[k];
    ++k;
  }
  if (strcmp(a->descr, "|i1") == 0)
    a->esize = 1;
  else if (strcmp(a->descr, "<i4") == 0 || strcmp(a->descr, "<f4") == 0)
    a->esize = 4;
  else
    goto bad;
  sh += 10;
  a->elems = 1;
  while (*sh != ')') {
    char *end;
    const unsigned long v = strtoul(sh, &end, 10);
    if (end == sh || a->rank == MAX_RANK) goto bad;
    a->dims[a->rank++] = v;
    a->elems *= v;
    sh = end;
    while (*sh == ',' || *sh == ' ') ++sh;
  }
  off += hl;
  if (len - off != a->elems * a->esize) goto bad;
  a->data = malloc(a->elems * a->esize + 1);
  if (a->data == NULL) goto bad;
  memcpy(a->data, buf + off, a->elems * a->esize);
  free(buf);
  return 0;
bad:
  free(buf);
  return -1;
}

static const char *descr_of(int32_t type) {
  switch (type) {
    case S24_TFL_INT8:
      return "|i1";
    case S24_TFL_INT32:
      return "<i4";
    case S24_TFL_FLOAT32:
      return "<f4";
    default:
      return "?";
  }
}

// ---- one case

static int failures = 0;

#define FAILF(...)                  \
  do {                              \
    printf("FAIL %s: ", name);      \
    printf(__VA_ARGS__);            \
    printf("\n");                   \
    ++failures;                     \
    goto out;                       \
  } while (0)

// 1 for the host operators whose builtin options type s24_op_check checks (the others have no
// options table in the schema: an options table of any type is ignored, as LiteRT ignores it)
static int has_options(int32_t opcode) {
  switch (opcode) {
    case S24_OP_QUANTIZE:
    case S24_OP_DEQUANTIZE:
    case S24_OP_SHAPE:
    case S24_OP_LOGISTIC:
    case S24_OP_TANH:
    case S24_OP_RELU:
    case S24_OP_RELU6:
      return 0;
    default:
      return 1;
  }
}

// The model input/output must be [1, ...] and the file [B, ...] of the same dtype.
static int io_matches(const s24_tfl_tensor_t *t, const npy_t *a) {
  if (strcmp(a->descr, descr_of(t->type)) != 0 || t->rank != a->rank || t->rank == 0 ||
      t->dims[0] != 1)
    return 0;
  for (uint32_t k = 1; k < t->rank; ++k)
    if ((size_t)t->dims[k] != a->dims[k]) return 0;
  return 1;
}

// A case LiteRT refuses (refused.txt instead of Y.npy): s24_op_check must refuse one of its
// operators, with one line naming it; returns 1 if dir is such a case.
static int refused_case(const char *dir) {
  const char *name = dir;
  char path[8192], err[512];
  snprintf(path, sizeof path, "%s/refused.txt", dir);
  FILE *f = fopen(path, "r");
  if (f == NULL) return 0;
  fclose(f);
  size_t flen = 0;
  s24_tfl_model_t m;
  memset(&m, 0, sizeof m);
  snprintf(path, sizeof path, "%s/model.tflite", dir);
  uint8_t *file = read_file(path, &flen);
  size_t bad = 0;
  if (file == NULL) FAILF("cannot read %s", path);
  if (tfl_parse(file, flen, &m, err, sizeof err) != S24_OK) FAILF("parse: %s", err);
  for (bad = 0; bad < m.n_ops; ++bad) {
    err[0] = '\0';
    if (s24_op_check(&m, bad, err, sizeof err) != S24_OK) break;
  }
  if (bad == m.n_ops) FAILF("LiteRT refuses the model, s24_op_check takes every operator");
  char prefix[32];
  snprintf(prefix, sizeof prefix, "operator %zu (", bad);
  if (strncmp(err, prefix, strlen(prefix)) != 0 || strchr(err, '\n') != NULL)
    FAILF("refusal message '%s'", err);
  printf("ok   %s (refused: %s)\n", name, err);
out:
  tfl_free(&m);
  free(file);
  return 1;
}

static void run_case(const char *dir) {
  if (refused_case(dir)) return;
  const char *name = dir;
  char path[8192];
  size_t flen = 0;
  uint8_t *file = NULL;
  s24_tfl_model_t m;
  memset(&m, 0, sizeof m);
  npy_t x, y;
  memset(&x, 0, sizeof x);
  memset(&y, 0, sizeof y);
  void **data = NULL;
  char err[512];

  snprintf(path, sizeof path, "%s/model.tflite", dir);
  file = read_file(path, &flen);
  if (file == NULL) FAILF("cannot read %s", path);
  if (tfl_parse(file, flen, &m, err, sizeof err) != S24_OK) FAILF("parse: %s", err);
  snprintf(path, sizeof path, "%s/X.npy", dir);
  if (npy_read(path, &x) != 0) FAILF("cannot read %s", path);
  snprintf(path, sizeof path, "%s/Y.npy", dir);
  if (npy_read(path, &y) != 0) FAILF("cannot read %s", path);
  if (m.n_inputs != 1 || m.n_outputs != 1) FAILF("model has %zu inputs, %zu outputs",
                                                 m.n_inputs, m.n_outputs);
  const s24_tfl_tensor_t *ti = &m.tensors[m.inputs[0]], *to = &m.tensors[m.outputs[0]];
  if (!io_matches(ti, &x) || !io_matches(to, &y) || x.dims[0] != y.dims[0])
    FAILF("X.npy / Y.npy do not fit the model's input / output");
  for (size_t i = 0; i < m.n_ops; ++i) {
    if (!s24_op_is_host(m.ops[i].opcode)) FAILF("operator %zu is not a host operator", i);
    if (!s24_op_version_ok(m.ops[i].opcode, m.ops[i].version))
      FAILF("operator %zu (%s) version %d: LiteRT registers it, s24_op_version_ok says no", i,
            s24_tfl_op_name(m.ops[i].opcode), (int)m.ops[i].version);
    const s24_status_t st = s24_op_check(&m, i, err, sizeof err);
    if (st != S24_OK) FAILF("s24_op_check: %s (%s)", err, s24_strerror(st));
  }
  data = calloc(m.n_tensors, sizeof *data);
  if (data == NULL) FAILF("out of memory");
  for (size_t t = 0; t < m.n_tensors; ++t) {
    if (m.tensors[t].data != NULL) {
      data[t] = (void *)(uintptr_t)m.tensors[t].data;  // constants are only read
    } else {
      data[t] = malloc(m.tensors[t].bytes + 1);
      if (data[t] == NULL) FAILF("out of memory");
      memset(data[t], 0xA5, m.tensors[t].bytes + 1);  // garbage: every byte must be written
    }
  }
  const size_t isz = ti->bytes, osz = to->bytes;
  for (size_t b = 0; b < x.dims[0]; ++b) {
    memcpy(data[m.inputs[0]], x.data + b * isz, isz);
    for (size_t i = 0; i < m.n_ops; ++i) {
      const s24_status_t st = run_op(&m, i, data);
      if (st != S24_OK) FAILF("s24_op_run of operator %zu: %s", i, s24_strerror(st));
    }
    const uint8_t *got = data[m.outputs[0]], *want = y.data + b * osz;
    for (size_t k = 0; k < osz; ++k)
      if (got[k] != want[k]) {
        const size_t e = k / y.esize;
        if (y.esize == 1)
          FAILF("batch %zu element %zu: %d, LiteRT %d", b, e, (int8_t)got[k], (int8_t)want[k]);
        float gf, wf;
        memcpy(&gf, got + e * 4, 4);
        memcpy(&wf, want + e * 4, 4);
        FAILF("batch %zu element %zu: %.9g (0x%08x), LiteRT %.9g", b, e, (double)gf,
              (unsigned)(got[e * 4] | got[e * 4 + 1] << 8 | got[e * 4 + 2] << 16 |
                         (unsigned)got[e * 4 + 3] << 24), (double)wf);
      }
  }
  // a wrong declared output shape of the first operator must be refused
  {
    s24_tfl_tensor_t *out0 = &m.tensors[m.ops[0].out[0]];
    if (out0->rank > 0) {
      const int32_t old = out0->dims[out0->rank - 1];
      const size_t old_elems = out0->elems, old_bytes = out0->bytes;
      out0->dims[out0->rank - 1] = old + 1;
      out0->elems = old == 0 ? 0 : old_elems / (size_t)old * (size_t)(old + 1);
      out0->bytes = out0->elems * s24_tfl_type_size(out0->type);
      err[0] = '\0';
      const s24_status_t st = s24_op_check(&m, 0, err, sizeof err);
      out0->dims[out0->rank - 1] = old;
      out0->elems = old_elems;
      out0->bytes = old_bytes;
      if (st == S24_OK) FAILF("s24_op_check accepted a wrong output shape");
      if (strncmp(err, "operator 0 (", 12) != 0 || strchr(err, '\n') != NULL)
        FAILF("message for a wrong output shape: '%s'", err);
    }
  }
  // more refusals, each with one line naming the operator: an INT16 first input (SHAPE reads
  // no data and takes any), an options table of another operator, a TANH fused activation
  for (size_t i = 0; i < m.n_ops; ++i) {
    s24_tfl_op_t *op = &m.ops[i];
    char prefix[32];
    snprintf(prefix, sizeof prefix, "operator %zu (", i);
    if (op->opcode != S24_OP_SHAPE) {
      s24_tfl_tensor_t *t = &m.tensors[op->in[0]];
      const int32_t old_type = t->type;
      const size_t old_bytes = t->bytes;
      t->type = S24_TFL_INT16;
      t->bytes = t->elems * 2;
      err[0] = '\0';
      const s24_status_t st = s24_op_check(&m, i, err, sizeof err);
      t->type = old_type;
      t->bytes = old_bytes;
      if (st == S24_OK) FAILF("operator %zu: an INT16 input was accepted", i);
      if (strncmp(err, prefix, strlen(prefix)) != 0) FAILF("message '%s'", err);
    }
    if (has_options(op->opcode)) {
      const uint8_t old = op->options_type;
      op->options_type = 99;
      const s24_status_t st = s24_op_check(&m, i, err, sizeof err);
      op->options_type = old;
      if (st == S24_OK) FAILF("operator %zu: foreign builtin options accepted", i);
      if (strncmp(err, prefix, strlen(prefix)) != 0) FAILF("message '%s'", err);
    }
    if (op->opcode == S24_OP_DEPTHWISE_CONV_2D || op->opcode == S24_OP_ADD ||
        op->opcode == S24_OP_SUB || op->opcode == S24_OP_MUL ||
        op->opcode == S24_OP_CONCATENATION || op->opcode == S24_OP_AVERAGE_POOL_2D ||
        op->opcode == S24_OP_MAX_POOL_2D) {
      const int32_t old = op->opt.activation;
      op->opt.activation = S24_ACT_TANH;
      const s24_status_t st = s24_op_check(&m, i, err, sizeof err);
      op->opt.activation = old;
      if (st != S24_ERR_UNSUPPORTED) FAILF("operator %zu: a TANH activation: status %d", i, st);
      if (strncmp(err, prefix, strlen(prefix)) != 0) FAILF("message '%s'", err);
    }
  }
  printf("ok   %s (%zu ops, batch %zu)\n", name, m.n_ops, x.dims[0]);
out:
  if (data != NULL) {
    for (size_t t = 0; t < m.n_tensors; ++t)
      if (m.tensors[t].data == NULL) free(data[t]);
    free(data);
  }
  tfl_free(&m);
  free(file);
  free(x.data);
  free(y.data);
}

// Every host operator of a real model (the MLPerf Tiny .tflite files) must pass s24_op_check.
static void check_model(const char *path) {
  const char *name = path;
  size_t flen = 0;
  uint8_t *file = read_file(path, &flen);
  s24_tfl_model_t m;
  memset(&m, 0, sizeof m);
  char err[512];
  size_t n_host = 0;
  if (file == NULL) FAILF("cannot read");
  if (tfl_parse(file, flen, &m, err, sizeof err) != S24_OK) FAILF("parse: %s", err);
  for (size_t i = 0; i < m.n_ops; ++i) {
    if (!s24_op_version_ok(m.ops[i].opcode, m.ops[i].version))
      FAILF("operator %zu (%s) version %d: LiteRT runs the model, s24_op_version_ok says no", i,
            s24_tfl_op_name(m.ops[i].opcode), (int)m.ops[i].version);
    if (!s24_op_is_host(m.ops[i].opcode)) continue;
    ++n_host;
    const s24_status_t st = s24_op_check(&m, i, err, sizeof err);
    if (st != S24_OK) FAILF("%s (%s)", err, s24_strerror(st));
  }
  printf("ok   %s (%zu host operators of %zu checked)\n", name, n_host, m.n_ops);
out:
  tfl_free(&m);
  free(file);
}

// ---- mutations: whatever s24_op_check accepts, s24_op_run must run inside the buffers

static uint64_t rng_state;
static long n_accepted, n_refused;
static uint32_t rnd(void) {  // xorshift64*
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 2685821657736338717ULL) >> 32);
}
static int32_t rnd_small(void) {  // mostly small values, some extremes
  static const int32_t odd[] = {0, -1, 1, 2, -2, 255, -129, 128, 65536, INT32_MAX, INT32_MIN, 31, 32};
  return rnd() % 4 == 0 ? odd[rnd() % (sizeof odd / sizeof odd[0])] : (int32_t)(rnd() % 9) - 2;
}

static void set_dims(s24_tfl_tensor_t *t) {
  t->elems = 1;
  for (uint32_t k = 0; k < t->rank; ++k) t->elems *= (size_t)t->dims[k];
  t->bytes = t->elems * s24_tfl_type_size(t->type);
}

// One random change of operator i's tensors or options; *undo restores it.
typedef struct {
  s24_tfl_op_t op;
  s24_tfl_tensor_t t;
  int32_t tidx;
  uint8_t *cbyte;
  uint8_t cold;
} undo_t;

static void mutate(s24_tfl_model_t *m, size_t i, undo_t *u) {
  s24_tfl_op_t *op = &m->ops[i];
  u->op = *op;
  u->tidx = -1;
  u->cbyte = NULL;
  const uint32_t nt = op->n_in + op->n_out;
  const uint32_t pick = nt ? rnd() % nt : 0;
  const int32_t t = pick < op->n_in ? op->in[pick] : op->out[pick - op->n_in];
  s24_tfl_tensor_t *tt = t >= 0 ? &m->tensors[t] : NULL;
  if (tt != NULL) {
    u->tidx = t;
    u->t = *tt;
  }
  switch (rnd() % 8) {
    case 0:  // a dimension of a non-constant tensor
    case 1:
      if (tt != NULL && tt->data == NULL && tt->rank > 0) {
        int32_t v = (int32_t)(rnd() % 12);
        if (rnd() % 8 == 0) v = 0;
        tt->dims[rnd() % tt->rank] = v;
        set_dims(tt);
      }
      break;
    case 2:  // rank of a non-constant tensor
      if (tt != NULL && tt->data == NULL) {
        tt->rank = rnd() % 6;
        for (uint32_t k = 0; k < tt->rank; ++k)
          if (tt->dims[k] <= 0 || tt->dims[k] > 12) tt->dims[k] = 1 + (int32_t)(rnd() % 4);
        set_dims(tt);
      }
      break;
    case 3:  // a byte of constant data (paddings, axes, shapes, slice indices, bias, weights)
      if (tt != NULL && tt->data != NULL && tt->data_len > 0) {
        u->cbyte = (uint8_t *)(uintptr_t)tt->data + rnd() % tt->data_len;
        u->cold = *u->cbyte;
        *u->cbyte = (uint8_t)(rnd() % 4 == 0 ? 0x80 | rnd() : rnd() % 8);
      }
      break;
    case 4:  // type of a non-constant tensor
      if (tt != NULL && tt->data == NULL) {
        static const int32_t types[] = {S24_TFL_INT8, S24_TFL_INT32, S24_TFL_FLOAT32,
                                        S24_TFL_INT16, S24_TFL_UINT8};
        tt->type = types[rnd() % 5];
        set_dims(tt);
      }
      break;
    case 5:  // quantization: absent, or another zero point
      if (tt != NULL && tt->n_quant > 0) {
        if (rnd() % 2) {
          tt->n_quant = 0;
        } else {
          static int64_t zp;
          zp = (int64_t)rnd_small();
          tt->zero_point = &zp;
        }
      }
      break;
    default: {  // an option
      s24_tfl_options_t *o = &op->opt;
      int32_t *f[] = {&o->padding, &o->stride_w, &o->stride_h, &o->dilation_w,
                      &o->dilation_h, &o->depth_multiplier, &o->filter_w, &o->filter_h,
                      &o->activation, &o->keep_dims, &o->begin_mask, &o->end_mask,
                      &o->shrink_axis_mask, &o->values_count, &o->axis, &o->new_shape[0],
                      &o->new_shape[1], &o->ellipsis_mask, &o->num_splits,
                      &o->squeeze_dims[0], &o->squeeze_dims[1], &o->align_corners,
                      &o->half_pixel_centers};
      *f[rnd() % (sizeof f / sizeof f[0])] = rnd_small();
      if (rnd() % 4 == 0) o->n_new_shape = rnd() % 4;
      if (rnd() % 4 == 0) o->n_squeeze_dims = rnd() % 4;
      if (rnd() % 8 == 0) {  // LEAKY_RELU's alpha: small, large, negative, not finite
        static const float alphas[] = {0.0f, 0.1f, -0.5f, 3.0f, 1e30f, -1e30f, 1e-30f};
        o->alpha = rnd() % 8 == 0 ? (float)NAN : alphas[rnd() % 7];
      }
      break;
    }
  }
}

static void undo(s24_tfl_model_t *m, size_t i, const undo_t *u) {
  m->ops[i] = u->op;
  if (u->tidx >= 0) m->tensors[u->tidx] = u->t;
  if (u->cbyte != NULL) *u->cbyte = u->cold;
}

// n mutations of the case's model; each one s24_op_check accepts is run with buffers of exactly
// the tensors' sizes (ASan catches any access outside them) holding random bytes.
static void mutate_case(const char *dir, int n) {
  const char *name = dir;
  char path[8192];
  size_t flen = 0;
  s24_tfl_model_t m;
  memset(&m, 0, sizeof m);
  char err[512];
  snprintf(path, sizeof path, "%s/model.tflite", dir);
  uint8_t *file = read_file(path, &flen);
  if (file == NULL) FAILF("cannot read %s", path);
  if (tfl_parse(file, flen, &m, err, sizeof err) != S24_OK) FAILF("parse: %s", err);
  for (int k = 0; k < n; ++k) {
    const size_t i = rnd() % m.n_ops;
    undo_t u;
    mutate(&m, i, &u);
    if (s24_op_check(&m, i, err, sizeof err) == S24_OK) {
      const s24_tfl_op_t *op = &m.ops[i];
      void *data[64];
      uint8_t *own[2 * S24_TFL_MAX_OP_IO];
      size_t n_own = 0;
      if (m.n_tensors > 64) FAILF("too many tensors for the mutation test");
      memset(data, 0, sizeof data);
      for (uint32_t j = 0; j < op->n_in + op->n_out; ++j) {
        const int32_t t = j < op->n_in ? op->in[j] : op->out[j - op->n_in];
        if (t < 0 || data[t] != NULL) continue;
        const s24_tfl_tensor_t *tt = &m.tensors[t];
        if (tt->data != NULL && j < op->n_in) {
          data[t] = (void *)(uintptr_t)tt->data;
        } else {
          uint8_t *b = malloc(tt->bytes ? tt->bytes : 1);
          if (b == NULL) FAILF("out of memory");
          for (size_t q = 0; q < tt->bytes; ++q) b[q] = (uint8_t)rnd();
          own[n_own++] = b;
          data[t] = b;
        }
      }
      ++n_accepted;
      const s24_status_t st = run_op(&m, i, data);
      (void)st;  // may refuse data-dependent cases (SOFTMAX, RESHAPE); must not overrun
      for (size_t q = 0; q < n_own; ++q) free(own[q]);
    } else if (++n_refused, strncmp(err, "operator ", 9) != 0 || strchr(err, '\n') != NULL) {
      undo(&m, i, &u);
      FAILF("refusal message '%s'", err);
    }
    undo(&m, i, &u);
  }
  printf("ok   %s (%d mutations)\n", name, n);
out:
  tfl_free(&m);
  free(file);
}

// root/cases.txt (the case list run_ops.py writes), opened for reading; NULL when there is none.
static FILE *open_case_list(const char *root) {
  char path[8192];
  snprintf(path, sizeof path, "%s/cases.txt", root);
  return fopen(path, "r");
}

// The next case of an open case list as the directory root/<line> (blank lines skipped); 0 at
// the list's end.
static int next_listed_case(FILE *f, const char *root, char *dir, size_t len) {
  char line[512];
  while (fgets(line, sizeof line, f) != NULL) {
    line[strcspn(line, "\r\n")] = '\0';
    if (line[0] == '\0') continue;
    snprintf(dir, len, "%s/%s", root, line);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 5 && strcmp(argv[1], "--mutate") == 0) {
    const int n = atoi(argv[2]);
    rng_state = strtoull(argv[3], NULL, 10) * 0x9E3779B97F4A7C15ULL + 1;
    printf("test_ops --mutate: seed %s\n", argv[3]);
    FILE *f = open_case_list(argv[4]);
    if (f == NULL) {
      fprintf(stderr, "cannot read %s/cases.txt\n", argv[4]);
      return 1;
    }
    int ran = 0;
    char dir[4096 + 512];
    while (next_listed_case(f, argv[4], dir, sizeof dir)) {
      mutate_case(dir, n);
      ++ran;
    }
    fclose(f);
    printf("test_ops --mutate: %d cases x %d mutations (%ld accepted and run, %ld refused), "
           "%d failed\n", ran, n, n_accepted, n_refused, failures);
    return failures == 0 && ran > 0 ? 0 : 1;
  }
  if (argc >= 2 && strcmp(argv[1], "--models") == 0) {
    // the versions table: every host operator and the two array ones have a row; version 0 and
    // 32 are never registered; an operator the runtime does not handle has no version
    static const int32_t handled[] = {S24_OP_FULLY_CONNECTED, S24_OP_CONV_2D};
    for (int32_t op = 0; op < 256; ++op) {
      const int known = s24_op_is_host(op) || op == handled[0] || op == handled[1];
      if (known != s24_op_version_ok(op, 1) || s24_op_version_ok(op, 0) ||
          s24_op_version_ok(op, 32) || s24_op_version_ok(op, -1)) {
        printf("FAIL s24_op_version_ok: operator %d (%s) versions 1, 0, 32, -1: %d %d %d %d\n",
               (int)op, s24_tfl_op_name(op), s24_op_version_ok(op, 1), s24_op_version_ok(op, 0),
               s24_op_version_ok(op, 32), s24_op_version_ok(op, -1));
        ++failures;
      }
    }
    for (int i = 2; i < argc; ++i) check_model(argv[i]);
    printf("test_ops --models: %d models, %d failed\n", argc - 2, failures);
    return failures == 0 && argc > 2 ? 0 : 1;
  }
  if (argc < 2) {
    fprintf(stderr, "usage: %s CASES_DIR | CASE_DIR...\n", argv[0]);
    return 2;
  }
  int ran = 0;
  FILE *f = argc == 2 ? open_case_list(argv[1]) : NULL;
  if (f != NULL) {
    char dir[4096 + 512];
    while (next_listed_case(f, argv[1], dir, sizeof dir)) {
      run_case(dir);
      ++ran;
    }
    fclose(f);
  } else {
    for (int i = 1; i < argc; ++i) {
      run_case(argv[i]);
      ++ran;
    }
  }
  printf("test_ops: %d cases, %d failed\n", ran, failures);
  return failures == 0 && ran > 0 ? 0 : 1;
}
