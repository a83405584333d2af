// sparse24 command: error lines (see cli.h).
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>

static int cli_verror(int code, const char *what, const char *hint, const char *fmt, va_list ap) {
  fflush(stdout);
  fprintf(stderr, "sparse24: error: %s: ", what);
  vfprintf(stderr, fmt, ap);
  if (hint != NULL) fprintf(stderr, " (see sparse24 %s --help)", hint);
  fputc('\n', stderr);
  return code;
}

int s24_cli_usage(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int rc = cli_verror(EXIT_USAGE, cmd, cmd, fmt, ap);
  va_end(ap);
  return rc;
}

int s24_cli_file(const char *file, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int rc = cli_verror(EXIT_DATA, file, NULL, fmt, ap);
  va_end(ap);
  return rc;
}

int s24_cli_error(int code, const char *what, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int rc = cli_verror(code, what, NULL, fmt, ap);
  va_end(ap);
  return rc;
}
