// SPDX-License-Identifier: Apache-2.0
// sparse24 prune/info/run on int8 .tflite networks (SPEC §8): the command's side of the
// library's networks (include/sparse24.h). The array layers run on the network's device: the C
// golden model or the Verilated RTL through the host driver (the epilogue in hardware), opened
// once for the whole run.
#include "net.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "npy.h"
#include "sparse24.h"

// ------------------------------------------------------------------ files

int s24_net_file_is_tflite(const char *path) {
  // only a regular file is looked into: reading the head of a pipe would consume it
  struct stat sb;
  if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return 0;
  FILE *f = fopen(path, "rb");
  if (f == NULL) return 0;
  uint8_t head[8];
  const size_t n = fread(head, 1, sizeof head, f);
  fclose(f);
  return s24_api_is_tflite(head, n);
}

// Reads a whole regular file (at most 1 GiB) into *buf; 0 or an exit code.
static int read_all(const char *path, uint8_t **buf, size_t *len) {
  *buf = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (f == NULL) return s24_cli_file(path, "cannot open: %s", strerror(errno));
  struct stat sb;
  if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
    fclose(f);
    return s24_cli_file(path, "not a regular file");
  }
  if (sb.st_size > (1 << 30)) {
    fclose(f);
    return s24_cli_file(path, "model larger than 1 GiB");
  }
  const size_t n = (size_t)sb.st_size;
  uint8_t *b = malloc(n ? n : 1);
  if (b == NULL) {
    fclose(f);
    return s24_cli_file(path, "out of memory for %zu bytes", n);
  }
  const size_t got = fread(b, 1, n, f);
  const int bad = ferror(f);
  fclose(f);
  if (got != n || bad) {
    free(b);
    return s24_cli_file(path, "read error");
  }
  *buf = b;
  *len = n;
  return 0;
}

// Loads the model file onto a new device of `backend`; 0 or an exit code (the message names the
// file, or the command for a device that cannot open).
static int load_net(const char *cmd, const char *path, const char *backend, uint8_t **buf,
                    s24_api_dev_t **dev, s24_api_net_t **net) {
  size_t len = 0;
  *dev = NULL;
  *net = NULL;
  int rc = read_all(path, buf, &len);
  if (rc != 0) return rc;
  char msg[S24_API_ERRLEN];
  if (!s24_api_is_tflite(*buf, len)) {
    rc = s24_cli_file(path, "not a TFLite model (no TFL3 identifier)");
  } else if (s24_api_open(backend, dev, msg, sizeof msg) != S24_OK) {
    rc = s24_cli_error(EXIT_USAGE, cmd, "%s", msg);
  } else if (s24_api_net_load(*dev, *buf, len, net, msg, sizeof msg) != S24_OK) {
    rc = s24_cli_file(path, "%s", msg);
  }
  if (rc != 0) {
    s24_api_close(*dev);
    *dev = NULL;
    free(*buf);
    *buf = NULL;
  }
  return rc;
}

// A text of the library (s24_api_net_info, s24_api_net_stats) in a new buffer (*len bytes).
static char *net_text(const s24_api_net_t *net, int info, size_t *len) {
  s24_status_t (*get)(const s24_api_net_t *, char *, size_t, size_t *) =
      info ? s24_api_net_info : s24_api_net_stats;
  char *text = NULL;
  if (get(net, NULL, 0, len) == S24_OK && (text = malloc(*len + 1)) != NULL &&
      get(net, text, *len + 1, NULL) != S24_OK) {
    free(text);
    text = NULL;
  }
  return text;
}

int s24_net_cmd_info(const char *model) {
  uint8_t *buf = NULL;
  s24_api_dev_t *dev = NULL;
  s24_api_net_t *net = NULL;
  int rc = load_net("info", model, "model", &buf, &dev, &net);
  if (rc != 0) return rc;
  size_t len = 0;
  char *text = net_text(net, 1, &len);
  if (text == NULL) {
    rc = s24_cli_file(model, "cannot plan the array layers");
  } else {
    fwrite(text, 1, len, stdout);
  }
  free(text);
  s24_api_net_free(net);
  s24_api_close(dev);
  free(buf);
  return rc;
}

int s24_net_cmd_prune(const char *model, s24_pattern_t p, s24_outs_t *outs) {
  uint8_t *buf = NULL;
  size_t len = 0;
  int rc = read_all(model, &buf, &len);
  if (rc != 0) return rc;
  uint8_t *copy = malloc(len ? len : 1);
  char msg[S24_API_ERRLEN];
  size_t which = 0, n = 0;
  if (copy == NULL) {
    rc = s24_cli_file(model, "out of memory");
  } else if (s24_api_net_prune(buf, len, p, copy, len, &n, msg, sizeof msg) != S24_OK) {
    rc = s24_cli_file(model, "%s", msg);
  } else if (s24_outs_begin(outs, &which, msg, sizeof msg) != S24_OK) {
    rc = s24_cli_file(outs->o[which].path, "%s", msg);
  } else if (fwrite(copy, 1, len, s24_outs_file(outs, 0)) != len) {
    rc = s24_cli_file(outs->o[0].path, "cannot write output: %s", s24_outs_strerror(errno));
  } else if (s24_outs_commit(outs, &which, msg, sizeof msg) != S24_OK) {
    rc = s24_cli_file(outs->o[which].path, "%s", msg);
  }
  free(copy);
  free(buf);
  return rc;
}

static void dims_str(const size_t *d, size_t rank, char *buf, size_t len) {
  size_t o = 0;
  o += (size_t)snprintf(buf + o, len - o, "(");
  for (size_t i = 0; i < rank && o < len; i++) {
    o += (size_t)snprintf(buf + o, len - o, i ? ", %zu" : "%zu", d[i]);
  }
  if (o < len) snprintf(buf + o, len - o, rank == 1 ? ",)" : ")");
}

// X's batch B for the model input t (shape t.dims, or B in place of a leading 1); 0 or an
// exit code.
static int input_batch(const char *xpath, const s24_npy_t *x, const s24_api_tensor_t *t,
                       size_t *batch) {
  const s24_npy_dtype_t want = t->dtype == S24_API_FLOAT32 ? S24_NPY_F32 : S24_NPY_I8;
  if (x->dtype != want) {
    return s24_cli_file(xpath, "dtype %s, the model's input needs %s", s24_npy_dtype_name(x->dtype),
                        s24_npy_dtype_name(want));
  }
  size_t md[S24_API_MAX_DIMS];
  for (uint32_t i = 0; i < t->rank; i++) md[i] = (size_t)t->dims[i];
  int ok = x->rank == t->rank && t->rank >= 1;
  for (uint32_t i = 1; ok && i < t->rank; i++) ok = x->dims[i] == md[i];
  if (ok) ok = x->dims[0] == md[0] || md[0] == 1;
  if (!ok) {
    char xs[160], ms[160];
    dims_str(x->dims, x->rank, xs, sizeof xs);
    dims_str(md, t->rank, ms, sizeof ms);
    return s24_cli_file(xpath, "shape %s, the model's input needs %s%s", xs, ms,
                        t->rank >= 1 && md[0] == 1 ? " (or a batch B in place of the leading 1)"
                                                   : "");
  }
  *batch = md[0] == 1 ? x->dims[0] : 1;
  return 0;
}

int s24_net_cmd_run(const char *model, const char *xpath, s24_outs_t *outs, const char *backend,
                    int stats) {
  uint8_t *buf = NULL;
  s24_api_dev_t *dev = NULL;
  s24_api_net_t *net = NULL;
  s24_npy_t x = {0};
  uint8_t *y = NULL;
  char *sbuf = NULL;
  size_t slen = 0;
  char msg[S24_API_ERRLEN];
  int rc = load_net("run", model, backend, &buf, &dev, &net);
  if (rc != 0) return rc;
  s24_api_tensor_t tin, tout;
  size_t batch = 0;
  if (s24_api_net_io(net, &tin, &tout) != S24_OK) {
    rc = s24_cli_file(model, "no input or output");
    goto done;
  }
  if (s24_npy_read_nd(xpath, &x, msg, sizeof msg) != S24_OK) {
    rc = s24_cli_file(xpath, "%s", msg);
    goto done;
  }
  if ((rc = input_batch(xpath, &x, &tin, &batch)) != 0) goto done;
  y = tout.bytes <= SIZE_MAX / batch ? malloc(batch * tout.bytes) : NULL;
  if (y == NULL) {
    rc = s24_cli_file(model, "out of memory for the output");
    goto done;
  }
  if (s24_api_net_run(net, x.data, batch * tin.bytes, batch, y, batch * tout.bytes, msg,
                      sizeof msg) != S24_OK) {
    // "inference B: ..." of the library: the command reports the failing inference's message
    const char *m = msg;
    if (strncmp(m, "inference ", 10) == 0 && strstr(m, ": ") != NULL) m = strstr(m, ": ") + 2;
    rc = s24_cli_file(model, "%s", m);
    goto done;
  }
  if (stats && (sbuf = net_text(net, 0, &slen)) == NULL) {
    rc = s24_cli_file(model, "cannot compute the statistics");
    goto done;
  }
  // Y: the output's shape with B in place of a leading 1 (B prepended otherwise, when B > 1)
  size_t od[S24_NPY_MAX_RANK], orank = 0;
  if (batch > 1 && !(tout.rank >= 1 && tout.dims[0] == 1)) od[orank++] = batch;
  for (uint32_t i = 0; i < tout.rank && orank < S24_NPY_MAX_RANK; i++) {
    od[orank++] = (i == 0 && tout.dims[0] == 1) ? batch : (size_t)tout.dims[i];
  }
  if (orank == 0) od[orank++] = batch;  // a scalar output: one value per inference
  const s24_npy_dtype_t odt = tout.dtype == S24_API_FLOAT32 ? S24_NPY_F32 : S24_NPY_I8;
  size_t which = 0;
  if (s24_outs_begin(outs, &which, msg, sizeof msg) != S24_OK) {
    rc = s24_cli_file(outs->o[which].path, "%s", msg);
  } else if (s24_npy_fwrite_nd(s24_outs_file(outs, 0), odt, orank, od, y) != S24_OK) {
    rc = s24_cli_file(outs->o[0].path, "cannot write output: %s", s24_outs_strerror(errno));
  } else if (s24_outs_commit(outs, &which, msg, sizeof msg) != S24_OK) {
    rc = s24_cli_file(outs->o[which].path, "%s", msg);
  }
  if (rc == 0 && sbuf != NULL) fwrite(sbuf, 1, slen, stdout);
done:
  free(sbuf);
  free(y);
  s24_npy_free(&x);
  s24_api_net_free(net);
  s24_api_close(dev);
  free(buf);
  return rc;
}
