// sparse24 command: error lines (see cli.h).
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>

int s24_cli_usage(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "sparse24: error: %s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, " (see sparse24 %s --help)\n", cmd);
  va_end(ap);
  return EXIT_USAGE;
}

int s24_cli_file(const char *file, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "sparse24: error: %s: ", file);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  return EXIT_DATA;
}
