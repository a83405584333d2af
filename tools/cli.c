// SPDX-License-Identifier: Apache-2.0
// sparse24 command: error lines, the one option parser, the command dispatch (see cli.h).
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "sparse24.h"

int s24_cli_fail(int code, const char *what, const char *hint, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fflush(stdout);
  fprintf(stderr, "sparse24: error: %s: ", what);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  if (hint != NULL) fprintf(stderr, " (see sparse24 %s --help)", hint);
  fputc('\n', stderr);
  return code;
}

// ---------------------------------------------------------------------------------------------
// The option parser

const s24_cli_opt_t s24_cli_opts[S24_OPT_COUNT] = {
    [S24_OPT_OUTPUT] = {"--output", "-o", 1},
    [S24_OPT_PATTERN] = {"--pattern", NULL, 1},
    [S24_OPT_BACKEND] = {"--backend", NULL, 1},
    [S24_OPT_VALUES] = {"--values", NULL, 1},
    [S24_OPT_META] = {"--meta", NULL, 1},
    [S24_OPT_K] = {"--k", NULL, 1},
    [S24_OPT_C0] = {"--c0", NULL, 1},
    [S24_OPT_STATS] = {"--stats", NULL, 0},
    [S24_OPT_SHAPE] = {"--shape", NULL, 1},
    [S24_OPT_REPS] = {"--reps", NULL, 1},
    [S24_OPT_TRACE] = {"--trace", NULL, 1},
    [S24_OPT_BIAS] = {"--bias", NULL, 1},
    [S24_OPT_MULT] = {"--mult", NULL, 1},
    [S24_OPT_SHIFT] = {"--shift", NULL, 1},
    [S24_OPT_ZP_IN] = {"--zp-in", NULL, 1},
    [S24_OPT_ZP_OUT] = {"--zp-out", NULL, 1},
    [S24_OPT_RELU] = {"--relu", NULL, 0},
    [S24_OPT_ACT_MIN] = {"--act-min", NULL, 1},
    [S24_OPT_ACT_MAX] = {"--act-max", NULL, 1},
    [S24_OPT_OUT_DIR] = {"--out", NULL, 1},
    [S24_OPT_FIRST] = {"--first", NULL, 1},
    [S24_OPT_SEED] = {"--seed", NULL, 1},
    [S24_OPT_ARRAY] = {"--array", NULL, 1},
    [S24_OPT_MODEL_ONLY] = {"--model-only", NULL, 0},
    [S24_OPT_MODEL_SPEED] = {"--model-speed", NULL, 0},
    [S24_OPT_LINEAR] = {"--linear", NULL, 0},
};

// The option named by the first len bytes of arg (or by arg as a whole: an alias) among `allowed`;
// -1 if none.
static int find_opt(const char *arg, size_t len, uint64_t allowed) {
  for (int o = 0; o < S24_OPT_COUNT; o++) {
    const s24_cli_opt_t *d = &s24_cli_opts[o];
    if ((strlen(d->name) == len && strncmp(arg, d->name, len) == 0) ||
        (d->alias != NULL && strcmp(arg, d->alias) == 0)) {
      return (allowed & S24_OPT(o)) ? o : -1;
    }
  }
  return -1;
}

// The trigger option that arg is as a whole, or -1.
static int find_trigger(const char *arg, uint64_t triggers) {
  for (int o = 0; o < S24_OPT_COUNT; o++) {
    if ((triggers & S24_OPT(o)) && strcmp(arg, s24_cli_opts[o].name) == 0) return o;
  }
  return -1;
}

static int is_help(const char *s) { return strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0; }

// A usage error of the command in its dialect: with the --help hint, or (BENCH) without.
#define usage_error(c, ...) \
  s24_cli_fail(EXIT_USAGE, (c)->name, (c)->dialect == S24_CLI_BENCH ? NULL : (c)->name, __VA_ARGS__)

int s24_cli_parse(const s24_cli_cmd_t *c, int argc, char **argv, s24_cli_args_t *a) {
  memset(a, 0, sizeof *a);
  a->cmd = c->name;
  if (c->max_args > 0) {
    int n = 0;
    for (int i = 0; i < argc; i++) n += find_trigger(argv[i], c->triggers) < 0;
    if (n > c->max_args) return usage_error(c, "too many arguments");
  }
  const int strict = c->dialect == S24_CLI_STRICT || c->dialect == S24_CLI_TYPED;
  const int typed = c->dialect == S24_CLI_TYPED;
  int only_pos = 0, help = 0;
  for (int i = 2; i < argc; i++) {
    const char *arg = argv[i];
    const int trig = find_trigger(arg, c->triggers);
    if (trig >= 0) {
      a->given |= S24_OPT(trig);
      continue;
    }
    if (strict && (only_pos || arg[0] != '-' || arg[1] == '\0')) {
      if (a->npos >= c->max_pos) return usage_error(c, "unexpected argument '%s'", arg);
      a->pos[a->npos++] = arg;
      continue;
    }
    if (strict && strcmp(arg, "--") == 0) {
      only_pos = 1;
      continue;
    }
    if (c->dialect != S24_CLI_BENCH && is_help(arg)) {
      if (strict) {
        help = 1;
        continue;
      }
      return S24_CLI_HELP;
    }
    // "--opt=value" (BENCH: a name of fewer than 32 bytes) or "--opt [value]"
    const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
    if (c->dialect == S24_CLI_BENCH && eq != NULL && eq - arg >= 32) eq = NULL;
    const size_t nlen = eq != NULL ? (size_t)(eq - arg) : strlen(arg);
    const int o = find_opt(arg, nlen, c->opts);
    if (c->dialect == S24_CLI_BENCH) {
      char name[32];
      snprintf(name, sizeof name, "%.*s", (int)nlen, arg);
      const char *shown = eq != NULL ? name : arg;
      if (eq != NULL && (strcmp(name, "--help") == 0 || (o >= 0 && !s24_cli_opts[o].has_value))) {
        return usage_error(c, "option %s takes no value", name);
      }
      if (o >= 0 && (a->given & S24_OPT(o))) return usage_error(c, "option %s given twice", shown);
      if (eq == NULL && is_help(arg)) return S24_CLI_HELP;
      if (o < 0) {
        return usage_error(c, "unknown option '%s' (see sparse24 %s --help)", shown, c->name);
      }
      a->given |= S24_OPT(o);
      if (!s24_cli_opts[o].has_value) continue;
      const char *v = eq != NULL ? eq + 1 : i + 1 < argc ? argv[i + 1] : NULL;
      i += eq == NULL;
      a->val[o] = v;
      const int rc = c->check != NULL ? c->check((s24_opt_t)o, v) : 0;
      if (rc != 0) return rc;
      continue;
    }
    if (o < 0) {
      if (c->unknown != NULL) return usage_error(c, c->unknown, arg);
      return usage_error(c, "unknown option '%.*s'", (int)nlen, arg);
    }
    const s24_cli_opt_t *d = &s24_cli_opts[o];
    // how messages name the option: as typed (TYPED) or by its name
    const int llen = typed ? (int)nlen : (int)strlen(d->name);
    const char *label = typed ? arg : d->name;
    if (typed && !d->has_value && eq != NULL) {
      return usage_error(c, "option %.*s takes no value", llen, label);
    }
    if (a->given & S24_OPT(o)) return usage_error(c, "option %.*s given twice", llen, label);
    a->given |= S24_OPT(o);
    if (!d->has_value) {
      if (eq != NULL) return usage_error(c, "option %.*s takes no value", llen, label);
      continue;
    }
    const char *v;
    if (eq != NULL) {
      v = eq + 1;
    } else if (!strict) {  // BENCH_LINEAR: the next argument, whatever it is
      v = i + 1 < argc ? argv[i + 1] : NULL;
      i++;
    } else {
      if (i + 1 >= argc) return usage_error(c, "option %.*s needs a value", llen, label);
      v = argv[++i];
    }
    if (!strict && (v == NULL || v[0] == '\0')) {
      return usage_error(c, "option %s needs a value", d->name);
    }
    if (v[0] == '\0') return usage_error(c, "option %.*s has an empty value", llen, label);
    a->val[o] = v;
    const int rc = c->check != NULL ? c->check((s24_opt_t)o, v) : 0;
    if (rc != 0) return rc;
  }
  return help ? S24_CLI_HELP : 0;
}

int s24_cli_dispatch(const s24_cli_cmd_t *table, size_t n, int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "sparse24: error: no command given (see sparse24 --help)\n");
    return EXIT_USAGE;
  }
  for (size_t i = 0; i < n; i++) {
    const s24_cli_cmd_t *c = &table[i];
    if (strcmp(argv[1], c->name) != 0 || (c->select != NULL && !c->select(argc, argv))) continue;
    s24_cli_args_t a;
    const int rc = s24_cli_parse(c, argc, argv, &a);
    if (rc == S24_CLI_HELP) return fputs(c->usage, stdout), 0;
    return rc != 0 ? rc : c->run(&a);
  }
  fprintf(stderr, "sparse24: error: unknown command '%s' (see sparse24 --help)\n", argv[1]);
  return EXIT_USAGE;
}

// ---------------------------------------------------------------------------------------------
// Values

int s24_cli_parse_size(const char *text, size_t *out) {
  size_t v = 0;
  if (text[0] == '\0') return 0;
  for (const char *s = text; *s != '\0'; s++) {
    if (*s < '0' || *s > '9') return 0;
    size_t d = (size_t)(*s - '0');
    if (v > (SIZE_MAX - d) / 10) return 0;
    v = v * 10 + d;
  }
  if (v == 0) return 0;
  *out = v;
  return 1;
}

int s24_cli_parse_u64(const char *t, uint64_t *v) {
  if (t == NULL || *t < '0' || *t > '9') return 0;
  char *end = NULL;
  errno = 0;
  const unsigned long long x = strtoull(t, &end, 10);
  if (errno != 0 || *end != '\0') return 0;
  *v = x;
  return 1;
}

int s24_cli_pattern(const s24_cli_args_t *a, s24_pattern_t *p) {
  const char *text = s24_cli_has(a, S24_OPT_PATTERN) ? s24_cli_val(a, S24_OPT_PATTERN) : "2:4";
  if (s24_api_pattern(text, p, NULL, 0) != S24_OK) {
    return s24_cli_usage(a->cmd, "invalid --pattern '%s' (N:M with M in {2, 4, 8} and 1 <= N <= M)",
                         text);
  }
  return 0;
}

int s24_cli_backend(const s24_cli_args_t *a, const char **b) {
  const char *name = s24_cli_has(a, S24_OPT_BACKEND) ? s24_cli_val(a, S24_OPT_BACKEND) : "model";
  char msg[S24_API_ERRLEN];
  const s24_status_t st = s24_api_backend_check(name, msg, sizeof msg);
  if (st == S24_ERR_ARG) return s24_cli_usage(a->cmd, "%s", msg);
  if (st != S24_OK) return s24_cli_error(EXIT_USAGE, a->cmd, "%s", msg);
  *b = name;
  return 0;
}

int s24_cli_api_error(const char *msg, const char *const (*names)[2], size_t n,
                      const char *fallback) {
  for (size_t i = 0; i < n; i++) {
    const size_t len = strlen(names[i][0]);
    if (strncmp(msg, names[i][0], len) == 0 && msg[len] == ':' && msg[len + 1] == ' ') {
      return s24_cli_file(names[i][1], "%s", msg + len + 2);
    }
  }
  return s24_cli_file(fallback, "%s", msg);
}

int s24_cli_load(const char *path, s24_npy_dtype_t want, s24_npy_t *arr) {
  char msg[256];
  if (s24_npy_read(path, arr, msg, sizeof msg) != S24_OK) return s24_cli_file(path, "%s", msg);
  if (arr->dtype != want) {
    int rc = s24_cli_file(path, "dtype %s, expected %s", s24_npy_dtype_name(arr->dtype),
                          s24_npy_dtype_name(want));
    s24_npy_free(arr);
    return rc;
  }
  return 0;
}
