// Host kernels of the network runtime (runtime/s24_ops.c) against LiteRT's BUILTIN_REF outputs:
// every case directory that tests/net/ops_models.py wrote (model.tflite, X.npy, Y.npy) is parsed
// with s24_tfl_parse, every operator checked with s24_op_check and run with s24_op_run on each
// batch element of X, and the output compared byte for byte with Y. Then s24_op_check must
// refuse, with one line naming the operator, the model changed in one place: the first
// operator's declared output shape (last dimension + 1), an operator's first input made INT16,
// its builtin options of a foreign type, a TANH fused activation.
//
// usage: test_ops CASES_DIR   (the directory with cases.txt)
//        test_ops CASE_DIR... (single cases)
//        test_ops --models MODEL.tflite...  (s24_op_check on every host operator of each)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "s24_ops.h"
#include "s24_tflite.h"

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

// The model input/output must be [1, ...] and the file [B, ...] of the same dtype.
static int io_matches(const s24_tfl_tensor_t *t, const npy_t *a) {
  if (strcmp(a->descr, descr_of(t->type)) != 0 || t->rank != a->rank || t->rank == 0 ||
      t->dims[0] != 1)
    return 0;
  for (uint32_t k = 1; k < t->rank; ++k)
    if ((size_t)t->dims[k] != a->dims[k]) return 0;
  return 1;
}

static void run_case(const char *dir) {
  const char *name = dir;
  char path[4096];
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
  if (s24_tfl_parse(file, flen, &m, err, sizeof err) != S24_OK) FAILF("parse: %s", err);
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
      const s24_status_t st = s24_op_run(&m, i, data);
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
    if (op->opcode != S24_OP_QUANTIZE && op->opcode != S24_OP_DEQUANTIZE &&
        op->opcode != S24_OP_SHAPE) {
      const uint8_t old = op->options_type;
      op->options_type = 99;
      const s24_status_t st = s24_op_check(&m, i, err, sizeof err);
      op->options_type = old;
      if (st == S24_OK) FAILF("operator %zu: foreign builtin options accepted", i);
      if (strncmp(err, prefix, strlen(prefix)) != 0) FAILF("message '%s'", err);
    }
    if (op->opcode == S24_OP_DEPTHWISE_CONV_2D || op->opcode == S24_OP_ADD ||
        op->opcode == S24_OP_AVERAGE_POOL_2D || op->opcode == S24_OP_MAX_POOL_2D) {
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
  s24_tfl_free(&m);
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
  if (s24_tfl_parse(file, flen, &m, err, sizeof err) != S24_OK) FAILF("parse: %s", err);
  for (size_t i = 0; i < m.n_ops; ++i) {
    if (!s24_op_is_host(m.ops[i].opcode)) continue;
    ++n_host;
    const s24_status_t st = s24_op_check(&m, i, err, sizeof err);
    if (st != S24_OK) FAILF("%s (%s)", err, s24_strerror(st));
  }
  printf("ok   %s (%zu host operators of %zu checked)\n", name, n_host, m.n_ops);
out:
  s24_tfl_free(&m);
  free(file);
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "--models") == 0) {
    for (int i = 2; i < argc; ++i) check_model(argv[i]);
    printf("test_ops --models: %d models, %d failed\n", argc - 2, failures);
    return failures == 0 && argc > 2 ? 0 : 1;
  }
  if (argc < 2) {
    fprintf(stderr, "usage: %s CASES_DIR | CASE_DIR...\n", argv[0]);
    return 2;
  }
  int ran = 0;
  char path[4096];
  snprintf(path, sizeof path, "%s/cases.txt", argv[1]);
  FILE *f = argc == 2 ? fopen(path, "r") : NULL;
  if (f != NULL) {
    char line[512];
    while (fgets(line, sizeof line, f) != NULL) {
      line[strcspn(line, "\r\n")] = '\0';
      if (line[0] == '\0') continue;
      char dir[4096 + 512];
      snprintf(dir, sizeof dir, "%s/%s", argv[1], line);
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
