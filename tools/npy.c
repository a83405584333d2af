// SPDX-License-Identifier: Apache-2.0
// sparse24 .npy reader and writer (format 1.0 / 2.0, C order, little endian, rank 2).
#include "npy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_MAX_HEADER (1u << 20)  // real headers are < 200 bytes; refuse absurd lengths


size_t s24_npy_elem_size(s24_npy_dtype_t dtype) {
  switch (dtype) {
    case S24_NPY_I8: return 1;
    case S24_NPY_U8: return 1;
    case S24_NPY_I32: return 4;
    case S24_NPY_F32: return 4;
    default: return 0;
  }
}

const char *s24_npy_dtype_name(s24_npy_dtype_t dtype) {
  switch (dtype) {
    case S24_NPY_I8: return "int8 (|i1)";
    case S24_NPY_U8: return "uint8 (|u1)";
    case S24_NPY_I32: return "int32 (<i4)";
    case S24_NPY_F32: return "float32 (<f4)";
    default: return "unknown dtype";
  }
}

static const char *descr_of(s24_npy_dtype_t dtype) {
  switch (dtype) {
    case S24_NPY_I8: return "|i1";
    case S24_NPY_U8: return "|u1";
    case S24_NPY_I32: return "<i4";
    case S24_NPY_F32: return "<f4";
    default: return NULL;
  }
}

// ---------------------------------------------------------------------------------------------
// Header dict parser: {'descr': '<i4', 'fortran_order': False, 'shape': (3, 4), }

typedef struct {
  const char *s;
  size_t len;
  size_t pos;
} cursor_t;

static void skip_ws(cursor_t *c) {
  while (c->pos < c->len && (c->s[c->pos] == ' ' || c->s[c->pos] == '\t' ||
                             c->s[c->pos] == '\n' || c->s[c->pos] == '\r')) {
    c->pos++;
  }
}

static int peek(const cursor_t *c) { return c->pos < c->len ? (unsigned char)c->s[c->pos] : -1; }

// A quoted Python string literal without escapes; copies at most cap-1 chars.
static int parse_str(cursor_t *c, char *buf, size_t cap) {
  int q = peek(c);
  if (q != '\'' && q != '"') return 0;
  c->pos++;
  size_t n = 0;
  while (c->pos < c->len && c->s[c->pos] != q) {
    if (c->s[c->pos] == '\\' || n + 1 >= cap) return 0;
    buf[n++] = c->s[c->pos++];
  }
  if (c->pos >= c->len) return 0;
  c->pos++;
  buf[n] = '\0';
  return 1;
}

static int parse_word(cursor_t *c, const char *word) {
  size_t n = strlen(word);
  if (c->len - c->pos < n || memcmp(c->s + c->pos, word, n) != 0) return 0;
  c->pos += n;
  return 1;
}

// want_rank 2: a matrix; 1: a vector, returned as 1 x n; 0: any rank 1 .. S24_NPY_MAX_RANK
static s24_status_t parse_header(const char *text, size_t len, size_t want_rank, s24_npy_t *out,
                                 char *err, size_t errlen) {
  if (text == NULL || out == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  cursor_t c = {text, len, 0};
  char descr[16] = "";
  int have_descr = 0, have_order = 0, have_shape = 0, fortran = 0;
  size_t dims[S24_NPY_MAX_RANK + 1];
  size_t rank = 0;
  int dims_overflow = 0;

  for (size_t i = 0; i < len; i++) {
    unsigned char ch = (unsigned char)text[i];
    if (ch == 0 || ch >= 0x80) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen, "header has a non-ASCII byte at offset %zu", i);
    }
  }
  skip_ws(&c);
  if (peek(&c) != '{') return s24_errorf(S24_ERR_FORMAT, err, errlen, "header is not a dict");
  c.pos++;
  for (;;) {
    skip_ws(&c);
    if (peek(&c) == '}') {
      c.pos++;
      break;
    }
    char key[32];
    if (!parse_str(&c, key, sizeof key)) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: expected a quoted key at offset %zu",
                  c.pos);
    }
    skip_ws(&c);
    if (peek(&c) != ':') {
      return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: expected ':' after '%s'", key);
    }
    c.pos++;
    skip_ws(&c);
    if (strcmp(key, "descr") == 0) {
      if (have_descr++) return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: duplicate 'descr'");
      if (!parse_str(&c, descr, sizeof descr)) {
        return s24_errorf(S24_ERR_FORMAT, err, errlen,
                    "header: 'descr' is not a simple dtype string (structured dtypes are "
                    "not supported)");
      }
    } else if (strcmp(key, "fortran_order") == 0) {
      if (have_order++) {
        return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: duplicate 'fortran_order'");
      }
      if (parse_word(&c, "True")) {
        fortran = 1;
      } else if (parse_word(&c, "False")) {
        fortran = 0;
      } else {
        return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: 'fortran_order' is not True/False");
      }
    } else if (strcmp(key, "shape") == 0) {
      if (have_shape++) return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: duplicate 'shape'");
      if (peek(&c) != '(') return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: 'shape' is not a tuple");
      c.pos++;
      int trailing_comma = 0;
      for (;;) {
        skip_ws(&c);
        if (peek(&c) == ')') {
          c.pos++;
          break;
        }
        if (peek(&c) < '0' || peek(&c) > '9') {
          return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: 'shape' has a non-integer entry");
        }
        if (peek(&c) == '0' && c.pos + 1 < c.len && c.s[c.pos + 1] >= '0' &&
            c.s[c.pos + 1] <= '9') {  // Python 3 has no such literal: (01, 0004) is a typo
          return s24_errorf(S24_ERR_FORMAT, err, errlen,
                      "header: 'shape' has an integer with a leading zero");
        }
        size_t v = 0;
        while (peek(&c) >= '0' && peek(&c) <= '9') {
          size_t d = (size_t)(peek(&c) - '0');
          if (v > (SIZE_MAX - d) / 10) dims_overflow = 1;
          v = v * 10 + d;
          c.pos++;
        }
        if (rank <= S24_NPY_MAX_RANK) dims[rank] = v;
        rank++;
        skip_ws(&c);
        trailing_comma = 0;
        if (peek(&c) == ',') {
          c.pos++;
          trailing_comma = 1;
        } else if (peek(&c) != ')') {
          return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: 'shape' tuple is malformed");
        }
      }
      if (rank == 1 && !trailing_comma) {
        return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: 'shape' is not a tuple");
      }
    } else {
      return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: unknown key '%s'", key);
    }
    skip_ws(&c);
    if (peek(&c) == ',') {
      c.pos++;
    } else if (peek(&c) != '}') {
      return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: expected ',' or '}' at offset %zu",
                  c.pos);
    }
  }
  skip_ws(&c);
  if (c.pos != len) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: unexpected text after the dict");
  }
  if (!have_descr) return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: missing 'descr'");
  if (!have_order) return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: missing 'fortran_order'");
  if (!have_shape) return s24_errorf(S24_ERR_FORMAT, err, errlen, "header: missing 'shape'");

  s24_npy_dtype_t dt;
  // a one-byte type has no byte order: '|i1', 'i1', '<i1', '>i1', '=i1' are one dtype
  const char *one = (descr[0] == '|' || descr[0] == '<' || descr[0] == '>' || descr[0] == '=')
                        ? descr + 1
                        : descr;
  if (strcmp(one, "i1") == 0) {
    dt = S24_NPY_I8;
  } else if (strcmp(one, "u1") == 0) {
    dt = S24_NPY_U8;
  } else if (strcmp(descr, "<i4") == 0) {
    dt = S24_NPY_I32;
  } else if (strcmp(descr, "<f4") == 0) {
    dt = S24_NPY_F32;
  } else {
    return s24_errorf(S24_ERR_FORMAT, err, errlen,
                "dtype '%s' is not supported (int8 |i1, uint8 |u1, int32 <i4, float32 <f4 only)",
                descr);
  }
  if (fortran) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "Fortran-order array is not supported (C order only)");
  }
  if (want_rank == 0) {  // any rank: rows = dims[0], cols = the product of the others
    if (rank == 0 || rank > S24_NPY_MAX_RANK) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen, "rank-%zu array, rank 1 .. %d is required", rank,
                  S24_NPY_MAX_RANK);
    }
    if (dims_overflow) return s24_errorf(S24_ERR_FORMAT, err, errlen, "shape is too large");
    size_t n = 1;
    for (size_t i = 0; i < rank; i++) {
      if (dims[i] == 0) return s24_errorf(S24_ERR_FORMAT, err, errlen, "empty array (dimension %zu is 0)", i);
      if (n > SIZE_MAX / dims[i]) return s24_errorf(S24_ERR_FORMAT, err, errlen, "shape is too large");
      n *= dims[i];
      out->dims[i] = dims[i];
    }
    if (n > SIZE_MAX / s24_npy_elem_size(dt)) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen, "shape is too large");
    }
    out->dtype = dt;
    out->rank = rank;
    out->rows = dims[0];
    out->cols = n / dims[0];
    return S24_OK;
  }
  if (rank != want_rank) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "rank-%zu array, a %s is required", rank,
                want_rank == 2 ? "2-D matrix" : "1-D vector");
  }
  out->rank = rank;
  out->dims[0] = dims[0];
  if (rank == 2) out->dims[1] = dims[1];
  if (rank == 1) {
    dims[1] = dims[0];
    dims[0] = 1;
  }
  if (dims_overflow) return s24_errorf(S24_ERR_FORMAT, err, errlen, "shape is too large");
  if (rank == 1 && dims[1] == 0) return s24_errorf(S24_ERR_FORMAT, err, errlen, "empty vector, shape (0,)");
  if (dims[0] == 0 || dims[1] == 0) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "empty matrix, shape (%zu, %zu)", dims[0], dims[1]);
  }
  size_t es = s24_npy_elem_size(dt);
  if (dims[0] > SIZE_MAX / dims[1] || dims[0] * dims[1] > SIZE_MAX / es) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "shape (%zu, %zu) is too large", dims[0], dims[1]);
  }
  out->dtype = dt;
  out->rows = dims[0];
  out->cols = dims[1];
  return S24_OK;
}

s24_status_t s24_npy_parse_header(const char *text, size_t len, s24_npy_t *out, char *err,
                                  size_t errlen) {
  return parse_header(text, len, 2, out, err, errlen);
}

// ---------------------------------------------------------------------------------------------
// Reader

static uint32_t le_u32(const unsigned char *p, size_t n) {
  uint32_t v = 0;
  for (size_t i = n; i-- > 0;) v = (v << 8) | p[i];
  return v;
}

// The array's shape as the file has it, "(2, 50, 10, 1)", "(8,)" (rows and cols for a matrix).
static const char *shape_str(const s24_npy_t *a, char *buf, size_t len) {
  size_t d[S24_NPY_MAX_RANK], rank = a->rank;
  if (rank >= 3 && rank <= S24_NPY_MAX_RANK) {
    for (size_t i = 0; i < rank; i++) d[i] = a->dims[i];
  } else if (rank == 1) {
    d[0] = a->cols;
  } else {
    rank = 2;
    d[0] = a->rows;
    d[1] = a->cols;
  }
  size_t o = 0;
  o += (size_t)snprintf(buf + o, len - o, "(");
  for (size_t i = 0; i < rank && o < len; i++) {
    o += (size_t)snprintf(buf + o, len - o, i ? ", %zu" : "%zu", d[i]);
  }
  if (o < len) snprintf(buf + o, len - o, rank == 1 ? ",)" : ")");
  return buf;
}

void s24_npy_free(s24_npy_t *a) {
  if (a == NULL) return;
  free(a->data);
  a->data = NULL;
}

static s24_status_t read_body(FILE *f, size_t want_rank, s24_npy_t *out, char *err,
                              size_t errlen) {
  unsigned char pre[12];
  size_t got = fread(pre, 1, 8, f);
  if (got >= NPY_MAGIC_LEN && memcmp(pre, NPY_MAGIC, NPY_MAGIC_LEN) != 0) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "not a .npy file (bad magic)");
  }
  if (got < 8) {
    if (got < NPY_MAGIC_LEN && memcmp(pre, NPY_MAGIC, got) != 0) {
      return s24_errorf(S24_ERR_FORMAT, err, errlen, "not a .npy file (bad magic)");
    }
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "truncated header (%zu bytes)", got);
  }
  unsigned major = pre[6], minor = pre[7];
  size_t lenbytes;
  if (major == 1 && minor == 0) {
    lenbytes = 2;
  } else if (major == 2 && minor == 0) {
    lenbytes = 4;
  } else {
    return s24_errorf(S24_ERR_FORMAT, err, errlen,
                ".npy format version %u.%u is not supported (1.0 and 2.0 only)", major, minor);
  }
  if (fread(pre + 8, 1, lenbytes, f) != lenbytes) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "truncated header (no header length)");
  }
  uint32_t hlen = le_u32(pre + 8, lenbytes);
  if (hlen > NPY_MAX_HEADER) {
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "header length %u is too large", (unsigned)hlen);
  }
  char *hdr = malloc(hlen + 1u);
  if (hdr == NULL) return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory");
  size_t hgot = fread(hdr, 1, hlen, f);
  if (hgot != hlen) {
    free(hdr);
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "truncated header (%zu of %u bytes)", hgot,
                (unsigned)hlen);
  }
  hdr[hlen] = '\0';
  s24_npy_t a = {0};
  s24_status_t st = parse_header(hdr, hlen, want_rank, &a, err, errlen);
  free(hdr);
  if (st != S24_OK) return st;

  const size_t need = a.rows * a.cols * s24_npy_elem_size(a.dtype);
  const long long offset = (long long)(8 + lenbytes + hlen);
  struct stat sb;
  if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode)) {
    long long have = (long long)sb.st_size - offset;
    if (have < 0) have = 0;
    if ((unsigned long long)have < (unsigned long long)need) {
      char shp[S24_NPY_MAX_RANK * 22 + 4];
      return s24_errorf(S24_ERR_FORMAT, err, errlen,
                  "truncated data: shape %s needs %zu bytes, file has %lld", shape_str(&a, shp, sizeof shp),
                  need, have);
    }
    if ((unsigned long long)have > (unsigned long long)need) {
      const unsigned long long extra = (unsigned long long)have - (unsigned long long)need;
      return s24_errorf(S24_ERR_FORMAT, err, errlen, "%llu byte%s of extra data after the array",
                  extra, extra == 1 ? "" : "s");
    }
  }
  // A regular file was checked above: allocate it at once. A pipe may declare any shape and
  // end early: grow the buffer as the data arrives, so a short stream is reported as
  // truncated, not as a failed allocation of what it only claimed.
  const int sized = fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode);
  size_t cap = sized || need < ((size_t)1 << 20) ? need : (size_t)1 << 20, dgot = 0;
  a.data = malloc(cap);
  if (a.data == NULL) {
    return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory for %zu bytes", need);
  }
  for (;;) {
    dgot += fread((unsigned char *)a.data + dgot, 1, cap - dgot, f);
    if (dgot < cap || cap == need) break;
    const size_t grow = cap > need - cap ? need : 2 * cap;
    void *p = realloc(a.data, grow);
    if (p == NULL) {
      free(a.data);
      return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory for %zu bytes", need);
    }
    a.data = p;
    cap = grow;
  }
  if (dgot != need) {
    free(a.data);
    if (ferror(f)) return s24_errorf(S24_ERR_IO, err, errlen, "read error: %s", strerror(errno));
    char shp[S24_NPY_MAX_RANK * 22 + 4];
    return s24_errorf(S24_ERR_FORMAT, err, errlen,
                "truncated data: shape %s needs %zu bytes, file has %zu", shape_str(&a, shp, sizeof shp),
                need, dgot);
  }
  if (fgetc(f) != EOF) {
    free(a.data);
    return s24_errorf(S24_ERR_FORMAT, err, errlen, "extra data after the array");
  }
  // Stored little endian; convert int32 and float32 on a big-endian host.
  if (a.dtype == S24_NPY_I32 || a.dtype == S24_NPY_F32) {
    unsigned char *b = a.data;
    for (size_t i = 0; i < a.rows * a.cols; i++) {
      uint32_t v = le_u32(b + 4 * i, 4);
      memcpy(b + 4 * i, &v, 4);
    }
  }
  *out = a;
  return S24_OK;
}

static s24_status_t read_file(const char *path, size_t want_rank, s24_npy_t *out, char *err,
                              size_t errlen) {
  if (path == NULL || out == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  struct stat sb;
  if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
    return s24_errorf(S24_ERR_IO, err, errlen, "is a directory");
  }
  FILE *f = fopen(path, "rb");
  if (f == NULL) return s24_errorf(S24_ERR_IO, err, errlen, "cannot open: %s", strerror(errno));
  s24_status_t st = read_body(f, want_rank, out, err, errlen);
  fclose(f);
  return st;
}

s24_status_t s24_npy_read(const char *path, s24_npy_t *out, char *err, size_t errlen) {
  return read_file(path, 2, out, err, errlen);
}

s24_status_t s24_npy_read_nd(const char *path, s24_npy_t *out, char *err, size_t errlen) {
  return read_file(path, 0, out, err, errlen);
}

s24_status_t s24_npy_read_vector(const char *path, s24_npy_t *out, char *err, size_t errlen) {
  return read_file(path, 1, out, err, errlen);
}

s24_status_t s24_npy_read_channel(const char *path, const char *what, size_t m, long lo, long hi,
                                  s24_npy_t *out, char *err, size_t errlen) {
  s24_status_t st = s24_npy_read_vector(path, out, err, errlen);
  if (st != S24_OK) return st;
  if (out->dtype != S24_NPY_I32) {
    st = s24_errorf(S24_ERR_FORMAT, err, errlen, "dtype %s, expected %s", s24_npy_dtype_name(out->dtype),
              s24_npy_dtype_name(S24_NPY_I32));
  } else if (out->cols != m) {
    st = s24_errorf(S24_ERR_FORMAT, err, errlen,
              "shape (%zu,): %s needs M = %zu entries, one per output channel", out->cols, what, m);
  } else {
    const int32_t *v = out->data;
    for (size_t i = 0; i < m && st == S24_OK; i++) {
      if (v[i] < lo || v[i] > hi) {
        st = s24_errorf(S24_ERR_FORMAT, err, errlen, "%s[%zu] = %ld is out of range [%ld, %ld]", what, i,
                  (long)v[i], lo, hi);
      }
    }
  }
  if (st != S24_OK) s24_npy_free(out);
  return st;
}

// ---------------------------------------------------------------------------------------------
// Writer

static char *str_dup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d != NULL) memcpy(d, s, n);
  return d;
}

void s24_npy_discard(s24_npy_out_t *o) {
  if (o == NULL) return;
  if (o->tmp_path != NULL) unlink(o->tmp_path);
  free(o->tmp_path);
  free(o->path);
  o->tmp_path = NULL;
  o->path = NULL;
}

s24_status_t s24_npy_fwrite(FILE *f, s24_npy_dtype_t dtype, size_t rows, size_t cols,
                            const void *data) {
  const size_t dims[2] = {rows, cols};
  return s24_npy_fwrite_nd(f, dtype, 2, dims, data);
}

s24_status_t s24_npy_fwrite_nd(FILE *f, s24_npy_dtype_t dtype, size_t rank, const size_t *dims,
                               const void *data) {
  if (f == NULL || data == NULL || descr_of(dtype) == NULL || dims == NULL || rank == 0 ||
      rank > S24_NPY_MAX_RANK) {
    errno = EINVAL;
    return S24_ERR_ARG;
  }
  const size_t es = s24_npy_elem_size(dtype);
  size_t n = 1;
  // the shape tuple: "(3, 4)", "(5,)" for rank 1
  char shape[S24_NPY_MAX_RANK * 22 + 4];
  size_t sl = 0;
  shape[sl++] = '(';
  for (size_t i = 0; i < rank; i++) {
    if (dims[i] == 0) {
      errno = EINVAL;
      return S24_ERR_ARG;
    }
    if (n > SIZE_MAX / dims[i] || n * dims[i] > SIZE_MAX / es) {
      errno = EOVERFLOW;
      return S24_ERR_ARG;
    }
    n *= dims[i];
    int w = snprintf(shape + sl, sizeof shape - sl, i == 0 ? "%zu" : ", %zu", dims[i]);
    if (w < 0 || (size_t)w >= sizeof shape - sl) {
      errno = EOVERFLOW;
      return S24_ERR_ARG;
    }
    sl += (size_t)w;
  }
  if (rank == 1) shape[sl++] = ',';
  shape[sl++] = ')';
  shape[sl] = '\0';
  // Header: the dict, padded with spaces and a final newline to a multiple of 64 bytes.
  char dict[S24_NPY_MAX_RANK * 22 + 96];
  int dl = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                    descr_of(dtype), shape);
  if (dl < 0 || (size_t)dl >= sizeof dict) {
    errno = EOVERFLOW;
    return S24_ERR_ARG;
  }
  size_t hlen = (size_t)dl + 1;  // + '\n'
  size_t total = 10 + hlen;
  size_t padded = (total + 63) / 64 * 64;
  hlen += padded - total;
  unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                           (unsigned char)(hlen & 0xFF), (unsigned char)(hlen >> 8)};
  int ok = fwrite(pre, 1, sizeof pre, f) == sizeof pre;
  ok = ok && fwrite(dict, 1, (size_t)dl, f) == (size_t)dl;
  for (size_t i = (size_t)dl; ok && i + 1 < hlen; i++) ok = fputc(' ', f) != EOF;
  ok = ok && fputc('\n', f) != EOF;
  if (es == 4) {  // int32, float32: little endian whatever the host
    const unsigned char *b = data;
    for (size_t i = 0; ok && i < n; i++) {
      uint32_t v;
      memcpy(&v, b + 4 * i, 4);
      unsigned char le[4] = {(unsigned char)(v & 0xFF), (unsigned char)((v >> 8) & 0xFF),
                             (unsigned char)((v >> 16) & 0xFF), (unsigned char)(v >> 24)};
      ok = fwrite(le, 1, 4, f) == 4;
    }
  } else {
    ok = ok && fwrite(data, 1, n, f) == n;
  }
  return ok ? S24_OK : S24_ERR_IO;
}

s24_status_t s24_npy_stage(s24_npy_out_t *o, const char *path, s24_npy_dtype_t dtype,
                           size_t rows, size_t cols, const void *data, char *err,
                           size_t errlen) {
  if (o == NULL || path == NULL || data == NULL || descr_of(dtype) == NULL || rows == 0 ||
      cols == 0 || path[0] == '\0') {
    return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  }
  const size_t es = s24_npy_elem_size(dtype);
  if (rows > SIZE_MAX / cols || rows * cols > SIZE_MAX / es) {
    return s24_errorf(S24_ERR_NOMEM, err, errlen, "array too large");
  }
  o->tmp_path = NULL;
  o->path = NULL;

  // Temporary file in the same directory, with a short name (a target name of up to NAME_MAX
  // bytes still works): <dir>/.sparse24.tmp.XXXXXX
  const char *slash = strrchr(path, '/');
  size_t dirlen = slash != NULL ? (size_t)(slash - path) + 1 : 0;
  size_t tl = dirlen + sizeof ".sparse24.tmp.XXXXXX";
  char *tmp = malloc(tl);
  if (tmp == NULL) return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory");
  snprintf(tmp, tl, "%.*s.sparse24.tmp.XXXXXX", (int)dirlen, path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    int e = errno;
    free(tmp);
    return s24_errorf(S24_ERR_IO, err, errlen, "cannot create output: %s", strerror(e));
  }
  mode_t mask = umask(0);
  umask(mask);
  (void)fchmod(fd, 0666 & ~mask);
  FILE *f = fdopen(fd, "wb");
  if (f == NULL) {
    int e = errno;
    close(fd);
    unlink(tmp);
    free(tmp);
    return s24_errorf(S24_ERR_IO, err, errlen, "cannot write output: %s", strerror(e));
  }
  int ok = s24_npy_fwrite(f, dtype, rows, cols, data) == S24_OK;
  int e = errno;
  if (fclose(f) != 0 && ok) {
    ok = 0;
    e = errno;
  }
  if (!ok) {
    unlink(tmp);
    free(tmp);
    return s24_errorf(S24_ERR_IO, err, errlen, "write failed: %s", strerror(e));
  }
  o->tmp_path = tmp;
  o->path = str_dup(path);
  if (o->path == NULL) {
    s24_npy_discard(o);
    return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory");
  }
  return S24_OK;
}

s24_status_t s24_npy_commit(s24_npy_out_t *o, char *err, size_t errlen) {
  if (o == NULL || o->tmp_path == NULL || o->path == NULL) {
    return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  }
  if (rename(o->tmp_path, o->path) != 0) {
    int e = errno;
    s24_npy_discard(o);
    return s24_errorf(S24_ERR_IO, err, errlen, "cannot rename output into place: %s", strerror(e));
  }
  free(o->tmp_path);
  free(o->path);
  o->tmp_path = NULL;
  o->path = NULL;
  return S24_OK;
}

s24_status_t s24_npy_write(const char *path, s24_npy_dtype_t dtype, size_t rows, size_t cols,
                           const void *data, char *err, size_t errlen) {
  s24_npy_out_t o = {0};
  s24_status_t st = s24_npy_stage(&o, path, dtype, rows, cols, data, err, errlen);
  if (st != S24_OK) return st;
  return s24_npy_commit(&o, err, errlen);
}
