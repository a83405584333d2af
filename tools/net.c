// sparse24 prune/info/run on int8 .tflite networks (SPEC §8): the command's side of the
// network runtime (runtime/s24_net.h). The array layers run on an engine: the C golden model
// (s24_linear_ref) or the Verilated RTL through the host driver (s24_linear, epilogue in
// hardware), opened once for the whole run.
#include "net.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backend.h"
#include "cli.h"
#include "npy.h"
#include "s24_engine.h"
#include "s24_layout.h"
#include "s24_net.h"

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
  return s24_tfl_is_tflite(head, n);
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

// Loads the model file; 0 or an exit code (the message names the file).
static int load_net(const char *path, uint8_t **buf, s24_net_t **net) {
  size_t len = 0;
  int rc = read_all(path, buf, &len);
  if (rc != 0) return rc;
  char msg[512];
  if (!s24_tfl_is_tflite(*buf, len)) {
    free(*buf);
    *buf = NULL;
    return s24_cli_file(path, "not a TFLite model (no TFL3 identifier)");
  }
  if (s24_net_load(*buf, len, net, msg, sizeof msg) != S24_OK) {
    free(*buf);
    *buf = NULL;
    return s24_cli_file(path, "%s", msg);
  }
  return 0;
}

// ------------------------------------------------------------------ engines (api/s24_engine.c)

static const s24_array_t kDefaultArray = S24_DEFAULT_ARRAY;

int s24_net_cmd_info(const char *model) {
  uint8_t *buf = NULL;
  s24_net_t *net = NULL;
  int rc = load_net(model, &buf, &net);
  if (rc != 0) return rc;
  if (s24_net_info(net, kDefaultArray, S24_DEFAULT_EPI_DEPTH, S24_DEFAULT_HW_EPI_LANES, stdout) !=
      S24_OK) {
    rc = s24_cli_file(model, "cannot plan the array layers");
  }
  s24_net_free(net);
  free(buf);
  return rc;
}

int s24_net_cmd_prune(const char *model, s24_pattern_t p, s24_outs_t *outs) {
  uint8_t *buf = NULL;
  s24_net_t *net = NULL;
  int rc = load_net(model, &buf, &net);
  if (rc != 0) return rc;
  const s24_tfl_model_t *m = s24_net_model(net);
  uint8_t *copy = malloc(m->file_len);
  char msg[512];
  size_t which = 0, n = 0;
  if (copy == NULL) {
    rc = s24_cli_file(model, "out of memory");
  } else if (s24_net_prune(net, p, copy, &n, msg, sizeof msg) != S24_OK) {
    rc = s24_cli_file(model, "%s", msg);
  } else if (s24_outs_begin(outs, &which, msg, sizeof msg) != S24_OK) {
    rc = s24_cli_file(outs->o[which].path, "%s", msg);
  } else if (fwrite(copy, 1, m->file_len, s24_outs_file(outs, 0)) != m->file_len) {
    rc = s24_cli_file(outs->o[0].path, "cannot write output: %s", s24_outs_strerror(errno));
  } else if (s24_outs_commit(outs, &which, msg, sizeof msg) != S24_OK) {
    rc = s24_cli_file(outs->o[which].path, "%s", msg);
  }
  free(copy);
  s24_net_free(net);
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
static int input_batch(const char *xpath, const s24_npy_t *x, const s24_tfl_tensor_t *t,
                       size_t *batch) {
  const s24_npy_dtype_t want = t->type == S24_TFL_FLOAT32 ? S24_NPY_F32 : S24_NPY_I8;
  if (x->dtype != want) {
    return s24_cli_file(xpath, "dtype %s, the model's input needs %s", s24_npy_dtype_name(x->dtype),
                        s24_npy_dtype_name(want));
  }
  size_t md[S24_TFL_MAX_DIMS];
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

int s24_net_cmd_run(const char *model, const char *xpath, s24_outs_t *outs, s24_backend_t be,
                    int stats) {
  uint8_t *buf = NULL;
  s24_net_t *net = NULL;
  s24_npy_t x = {0};
  uint8_t *y = NULL;
  char msg[512];
  int rc = load_net(model, &buf, &net);
  if (rc != 0) return rc;
  const s24_tfl_tensor_t *tin = s24_net_input(net), *tout = s24_net_output(net);
  size_t batch = 0;
  if (s24_npy_read_nd(xpath, &x, msg, sizeof msg) != S24_OK) {
    rc = s24_cli_file(xpath, "%s", msg);
    goto done;
  }
  if ((rc = input_batch(xpath, &x, tin, &batch)) != 0) goto done;
  y = tout->bytes <= SIZE_MAX / batch ? malloc(batch * tout->bytes) : NULL;
  if (y == NULL) {
    rc = s24_cli_file(model, "out of memory for the output");
    goto done;
  }
  s24_net_engine_t eng;
  if (s24_net_engine_open(&eng, be, net, msg, sizeof msg) != S24_OK) {
    rc = s24_cli_file(model, "%s", msg);
    goto done;
  }
  const size_t in_bytes = tin->bytes;
  s24_status_t st = S24_OK;
  for (size_t b = 0; b < batch && st == S24_OK; b++) {
    st = s24_net_run(net, &eng.eng, (const uint8_t *)x.data + b * in_bytes, y + b * tout->bytes, msg,
                     sizeof msg);
  }
  char *sbuf = NULL;
  size_t slen = 0;
  FILE *sf = NULL;
  if (st == S24_OK && stats) {
    sf = open_memstream(&sbuf, &slen);
    if (sf == NULL || s24_net_engine_stats(&eng, net, sf) != S24_OK) {
      snprintf(msg, sizeof msg, "cannot compute the statistics");
      st = S24_ERR_NOMEM;
    }
    if (sf != NULL) fclose(sf);
  }
  s24_net_engine_close(&eng);
  if (st != S24_OK) {
    rc = s24_cli_file(model, "%s", msg);
    free(sbuf);
    goto done;
  }
  // Y: the output's shape with B in place of a leading 1 (B prepended otherwise, when B > 1)
  size_t od[S24_NPY_MAX_RANK], orank = 0;
  if (batch > 1 && !(tout->rank >= 1 && tout->dims[0] == 1)) od[orank++] = batch;
  for (uint32_t i = 0; i < tout->rank && orank < S24_NPY_MAX_RANK; i++) {
    od[orank++] = (i == 0 && tout->dims[0] == 1) ? batch : (size_t)tout->dims[i];
  }
  if (orank == 0) od[orank++] = batch;  // a scalar output: one value per inference
  const s24_npy_dtype_t odt = tout->type == S24_TFL_FLOAT32 ? S24_NPY_F32 : S24_NPY_I8;
  size_t which = 0;
  if (s24_outs_begin(outs, &which, msg, sizeof msg) != S24_OK) {
    rc = s24_cli_file(outs->o[which].path, "%s", msg);
  } else if (s24_npy_fwrite_nd(s24_outs_file(outs, 0), odt, orank, od, y) != S24_OK) {
    rc = s24_cli_file(outs->o[0].path, "cannot write output: %s", s24_outs_strerror(errno));
  } else if (s24_outs_commit(outs, &which, msg, sizeof msg) != S24_OK) {
    rc = s24_cli_file(outs->o[which].path, "%s", msg);
  }
  if (rc == 0 && sbuf != NULL) fwrite(sbuf, 1, slen, stdout);
  free(sbuf);
done:
  free(y);
  s24_npy_free(&x);
  s24_net_free(net);
  free(buf);
  return rc;
}
