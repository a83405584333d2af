// SPDX-License-Identifier: Apache-2.0
// cmocka unit tests of the .npy reader/writer: round trips, header dict variants, every
// malformed-file path (magic, version, truncation, dtype, order, rank, overflow, garbage),
// and atomic output (a failed or discarded write leaves the directory as it was).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "npy.h"
#include "../common/cmocka_run.h"  // S24_RUN_TESTS (tests/common/)

static char g_dir[64];

static int setup_dir(void **state) {
  (void)state;
  strcpy(g_dir, "/tmp/s24_npy_XXXXXX");
  return mkdtemp(g_dir) == NULL ? -1 : 0;
}

static int teardown_dir(void **state) {
  (void)state;
  DIR *d = opendir(g_dir);
  if (d == NULL) return -1;
  struct dirent *e;
  char path[512];
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    snprintf(path, sizeof path, "%s/%s", g_dir, e->d_name);
    unlink(path);
  }
  closedir(d);
  return rmdir(g_dir);
}

// Directory entries other than "." and "..".
static int count_entries(void) {
  DIR *d = opendir(g_dir);
  int n = 0;
  struct dirent *e;
  while (d != NULL && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
  }
  if (d != NULL) closedir(d);
  return n;
}

static void path_of(char *buf, size_t cap, const char *name) {
  snprintf(buf, cap, "%s/%s", g_dir, name);
}

static void write_bytes(const char *name, const void *data, size_t len) {
  char p[256];
  path_of(p, sizeof p, name);
  FILE *f = fopen(p, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(data, 1, len, f), len);
  assert_int_equal(fclose(f), 0);
}

// A file with a v1.0 (or v2.0) header holding `dict` followed by `data_len` bytes of data.
static void write_npy_raw(const char *name, int version, const char *dict, size_t data_len) {
  unsigned char buf[1024];
  size_t pre = version == 1 ? 10 : 12;
  size_t dl = strlen(dict);
  size_t hlen = dl + 1;
  hlen += (64 - (pre + hlen) % 64) % 64;
  assert_true(pre + hlen + data_len <= sizeof buf);
  memcpy(buf, "\x93NUMPY", 6);
  buf[6] = (unsigned char)version;
  buf[7] = 0;
  if (version == 1) {
    buf[8] = (unsigned char)(hlen & 0xFF);
    buf[9] = (unsigned char)(hlen >> 8);
  } else {
    for (int i = 0; i < 4; i++) buf[8 + i] = (unsigned char)(hlen >> (8 * i));
  }
  memcpy(buf + pre, dict, dl);
  memset(buf + pre + dl, ' ', hlen - dl - 1);
  buf[pre + hlen - 1] = '\n';
  for (size_t i = 0; i < data_len; i++) buf[pre + hlen + i] = (unsigned char)(i * 7 + 1);
  write_bytes(name, buf, pre + hlen + data_len);
}

// Reads `name` expecting failure with `status` and a message containing `needle`.
static void expect_read_error(const char *name, s24_status_t status, const char *needle) {
  char p[256], err[256] = "";
  path_of(p, sizeof p, name);
  s24_npy_t a = {0};
  s24_status_t st = s24_npy_read(p, &a, err, sizeof err);
  if (st != status || strstr(err, needle) == NULL) {
    fail_msg("%s: got status %d message '%s', want %d containing '%s'", name, st, err, status,
             needle);
  }
  assert_null(a.data);
}

static void roundtrip_all_dtypes(void **state) {
  (void)state;
  char p[256], err[256];
  const int8_t i8[6] = {-128, -1, 0, 1, 127, 5};
  const uint8_t u8[6] = {0, 1, 128, 255, 7, 9};
  const int32_t i32[6] = {INT32_MIN, -1, 0, 1, INT32_MAX, 0x12345678};
  const void *data[3] = {i8, u8, i32};
  const s24_npy_dtype_t dts[3] = {S24_NPY_I8, S24_NPY_U8, S24_NPY_I32};
  for (int i = 0; i < 3; i++) {
    path_of(p, sizeof p, "rt.npy");
    assert_int_equal(s24_npy_write(p, dts[i], 2, 3, data[i], err, sizeof err), S24_OK);
    s24_npy_t a = {0};
    assert_int_equal(s24_npy_read(p, &a, err, sizeof err), S24_OK);
    assert_int_equal(a.dtype, dts[i]);
    assert_int_equal(a.rows, 2);
    assert_int_equal(a.cols, 3);
    assert_memory_equal(a.data, data[i], 6 * s24_npy_elem_size(dts[i]));
    s24_npy_free(&a);
    assert_null(a.data);
    // the header (magic to newline) pads to 128 bytes as numpy's does; no bytes after the data
    struct stat sb;
    assert_int_equal(stat(p, &sb), 0);
    assert_int_equal((size_t)sb.st_size, 128 + 6 * s24_npy_elem_size(dts[i]));
  }
  // int32 is little endian on disk
  FILE *f = fopen(p, "rb");
  unsigned char raw[128 + 24];
  assert_int_equal(fread(raw, 1, sizeof raw, f), sizeof raw);
  fclose(f);
  const unsigned char le[4] = {0x78, 0x56, 0x34, 0x12};
  assert_memory_equal(raw + 128 + 20, le, 4);
}

static void header_variants(void **state) {
  (void)state;
  const char *ok[] = {
      "{'descr': '|i1', 'fortran_order': False, 'shape': (3, 4), }",
      "{'shape': (3, 4), 'descr': '|i1', 'fortran_order': False}",
      "{ 'fortran_order' :False ,'shape':(3,4,),'descr':'|i1' }",
      "{\"descr\": \"|i1\", \"fortran_order\": False, \"shape\": (3, 4)}",
      "{'descr': '<i1', 'fortran_order': False, 'shape': (3, 4)}   \n",
      "{'descr': 'i1', 'fortran_order': False, 'shape': (3, 4)}",   // one byte: no byte order
      "{'descr': '=i1', 'fortran_order': False, 'shape': (3, 4)}",
      "{'descr': '>i1', 'fortran_order': False, 'shape': (3, 4)}",
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    s24_npy_t a = {0};
    char err[256] = "";
    s24_status_t st = s24_npy_parse_header(ok[i], strlen(ok[i]), &a, err, sizeof err);
    if (st != S24_OK) fail_msg("'%s': %s", ok[i], err);
    assert_int_equal(a.dtype, S24_NPY_I8);
    assert_int_equal(a.rows, 3);
    assert_int_equal(a.cols, 4);
  }
  struct {
    const char *text;
    const char *needle;
  } bad[] = {
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4)}", "dtype '<f8'"},
      {"{'descr': '>i4', 'fortran_order': False, 'shape': (3, 4)}", "dtype '>i4'"},
      {"{'descr': '<i8', 'fortran_order': False, 'shape': (3, 4)}", "dtype '<i8'"},
      {"{'descr': '|i1', 'fortran_order': True, 'shape': (3, 4)}", "Fortran"},
      {"{'descr': '|i1', 'fortran_order': False, 'shape': (5,)}", "rank-1"},
      {"{'descr': '|i1', 'fortran_order': False, 'shape': (2, 3, 4)}", "rank-3"},
      {"{'descr': '|i1', 'fortran_order': False, 'shape': ()}", "rank-0"},
      {"{'descr': '|i1', 'fortran_order': False, 'shape': (5)}", "not a tuple"},
      {"{'descr': '|i1', 'fortran_order': False, 'shape': (0, 4)}", "empty"},
      {"{'descr': '|i1', 'fortran_order': False, 'shape': (01, 4)}", "leading zero"},
      {"{'descr': '|i1', 'fortran_order': False, 'shape': (3, 0004)}", "leading zero"},
      {"{'descr': '>i2', 'fortran_order': False, 'shape': (3, 4)}", "dtype '>i2'"},
      {"{'descr': '|i1', 'fortran_order': False, 'shape': (99999999999999999999999, 2)}",
       "too large"},
      {"{'descr': '<i4', 'fortran_order': False, 'shape': (4611686018427387904, 2)}",
       "too large"},
      {"{'descr': '|i1', 'fortran_order': False, 'shape': (-3, 4)}", "non-integer"},
      {"{'descr': '|i1', 'fortran_order': False}", "missing 'shape'"},
      {"{'descr': '|i1', 'shape': (3, 4)}", "missing 'fortran_order'"},
      {"{'fortran_order': False, 'shape': (3, 4)}", "missing 'descr'"},
      {"{'descr': '|i1', 'descr': '|i1', 'fortran_order': False, 'shape': (3, 4)}", "duplicate"},
      {"{'descr': '|i1', 'fortran_order': False, 'shape': (3, 4), 'x': 1}", "unknown key 'x'"},
      {"{'descr': '|i1', 'fortran_order': False, 'shape': (3, 4)} junk", "after the dict"},
      {"{'descr': '|i1' 'fortran_order': False, 'shape': (3, 4)}", "expected ','"},
      {"['descr', '|i1']", "not a dict"},
      {"{'descr': [('a', '|i1')], 'fortran_order': False, 'shape': (3, 4)}", "structured"},
      {"{'descr': '|i1', 'fortran_order': 0, 'shape': (3, 4)}", "True/False"},
      {"{'descr': '|i1', 'fortran_order': False, 'shape': (3, 4}", "malformed"},
      {"{'descr': '|i1', 'fortran_order': False, 'shape': (3, 4)", "expected ',' or '}'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    s24_npy_t a = {0};
    char err[256] = "";
    s24_status_t st = s24_npy_parse_header(bad[i].text, strlen(bad[i].text), &a, err, sizeof err);
    if (st != S24_ERR_FORMAT || strstr(err, bad[i].needle) == NULL) {
      fail_msg("'%s': status %d message '%s', want '%s'", bad[i].text, st, err, bad[i].needle);
    }
  }
}

static const char *kDict = "{'descr': '|i1', 'fortran_order': False, 'shape': (3, 4), }";

static void malformed_files(void **state) {
  (void)state;
  // raw bytes (embedded NULs: each with its length)
  static const struct {
    const char *name, *bytes;
    size_t len;
    const char *needle;
  } raw[] = {
      {"empty.npy", "", 0, "truncated header"},
      {"magic.npy", "\x93NUMPX\x01\x00\x10\x00", 10, "bad magic"},
      {"text.npy", "hello", 5, "bad magic"},
      {"short.npy", "\x93NUMPY\x01", 7, "truncated header"},
      {"nolen.npy", "\x93NUMPY\x01\x00\x10", 9, "truncated header"},
      {"hdr.npy", "\x93NUMPY\x01\x00\x76\x00{'descr'", 17, "truncated header"},
      {"v3.npy", "\x93NUMPY\x03\x00\x10\x00\x00\x00", 12, "version 3.0"},
      {"hlen.npy", "\x93NUMPY\x02\x00\xff\xff\xff\x7f", 12, "header length"},
  };
  for (size_t i = 0; i < sizeof raw / sizeof raw[0]; i++) {
    write_bytes(raw[i].name, raw[i].bytes, raw[i].len);
    expect_read_error(raw[i].name, S24_ERR_FORMAT, raw[i].needle);
  }
  // version 1.0 files: a header dict and data_len bytes of data
  static const struct {
    const char *name, *dict;
    size_t data_len;
    const char *needle;
  } npy[] = {
      {"trunc.npy", NULL, 11, "truncated data"},
      {"nodata.npy", NULL, 0, "truncated data"},
      {"extra.npy", NULL, 13, "1 byte of extra data"},
      {"fortran.npy", "{'descr': '|i1', 'fortran_order': True, 'shape': (3, 4), }", 12, "Fortran"},
      {"f8.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }", 96,
       "dtype '<f8'"},
      {"rank1.npy", "{'descr': '|i1', 'fortran_order': False, 'shape': (12,), }", 12, "rank-1"},
      {"rank3.npy", "{'descr': '|i1', 'fortran_order': False, 'shape': (1, 3, 4), }", 12,
       "rank-3"},
      {"huge.npy",
       "{'descr': '<i4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", 16,
       "too large"},
      // a shape that fits size_t but not the file: rejected before any allocation
      {"big.npy", "{'descr': '|i1', 'fortran_order': False, 'shape': (1000000000, 1000000), }",
       16, "truncated data"},
  };
  for (size_t i = 0; i < sizeof npy / sizeof npy[0]; i++) {  // NULL: kDict, the 3x4 int8 one
    write_npy_raw(npy[i].name, 1, npy[i].dict != NULL ? npy[i].dict : kDict, npy[i].data_len);
    expect_read_error(npy[i].name, S24_ERR_FORMAT, npy[i].needle);
  }
  expect_read_error("does_not_exist.npy", S24_ERR_IO, "cannot open");
  expect_read_error(".", S24_ERR_IO, "directory");
}

static void version2_header(void **state) {
  (void)state;
  write_npy_raw("v2.npy", 2, kDict, 12);
  char p[256], err[256];
  path_of(p, sizeof p, "v2.npy");
  s24_npy_t a = {0};
  assert_int_equal(s24_npy_read(p, &a, err, sizeof err), S24_OK);
  assert_int_equal(a.rows, 3);
  assert_int_equal(a.cols, 4);
  assert_int_equal(((int8_t *)a.data)[11], (int8_t)(11 * 7 + 1));
  s24_npy_free(&a);
}

static void atomic_output(void **state) {
  (void)state;
  char p[256], err[256];
  const int8_t d[4] = {1, 2, 3, 4};
  path_of(p, sizeof p, "keep.npy");
  write_bytes("keep.npy", "original", 8);
  int before = count_entries();
  // staged but discarded: the target keeps its old content and no temporary file remains
  s24_npy_out_t o = {0};
  assert_int_equal(s24_npy_stage(&o, p, S24_NPY_I8, 2, 2, d, err, sizeof err), S24_OK);
  assert_int_equal(count_entries(), before + 1);
  s24_npy_discard(&o);
  assert_int_equal(count_entries(), before);
  FILE *f = fopen(p, "rb");
  char buf[16] = "";
  assert_int_equal(fread(buf, 1, sizeof buf, f), 8);
  fclose(f);
  assert_memory_equal(buf, "original", 8);
  // a directory that does not exist: error, nothing created
  char q[300];
  snprintf(q, sizeof q, "%s/no_such_dir/out.npy", g_dir);
  assert_int_equal(s24_npy_write(q, S24_NPY_I8, 2, 2, d, err, sizeof err), S24_ERR_IO);
  assert_non_null(strstr(err, "cannot create output"));
  assert_int_equal(count_entries(), before);
  // committing replaces the target
  assert_int_equal(s24_npy_write(p, S24_NPY_I8, 2, 2, d, err, sizeof err), S24_OK);
  assert_int_equal(count_entries(), before);
  s24_npy_t a = {0};
  assert_int_equal(s24_npy_read(p, &a, err, sizeof err), S24_OK);
  assert_memory_equal(a.data, d, 4);
  s24_npy_free(&a);
  // bad arguments
  assert_int_equal(s24_npy_write(p, S24_NPY_I8, 0, 2, d, err, sizeof err), S24_ERR_ARG);
  assert_int_equal(s24_npy_write(p, (s24_npy_dtype_t)9, 2, 2, d, err, sizeof err), S24_ERR_ARG);
  assert_int_equal(s24_npy_write(p, S24_NPY_I32, SIZE_MAX / 2, 2, d, err, sizeof err),
                   S24_ERR_NOMEM);
  assert_string_equal(s24_npy_dtype_name(S24_NPY_U8), "uint8 (|u1)");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(roundtrip_all_dtypes), cmocka_unit_test(header_variants),
      cmocka_unit_test(malformed_files),      cmocka_unit_test(version2_header),
      cmocka_unit_test(atomic_output),
  };
  return S24_RUN_TESTS("npy", tests, setup_dir, teardown_dir);
}
