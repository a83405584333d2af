// sparse24 command: the one spelling of its error lines and exit codes (SPEC §5).
#ifndef SPARSE24_TOOLS_CLI_H_
#define SPARSE24_TOOLS_CLI_H_

#define EXIT_DATA 1   /* bad data or file (SPEC §5) */
#define EXIT_USAGE 2  /* bad command line */

/** Prints "sparse24: error: CMD: <message> (see sparse24 CMD --help)" on stderr and returns
 *  EXIT_USAGE. */
int s24_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** Prints "sparse24: error: FILE: <message>" on stderr and returns EXIT_DATA. */
int s24_cli_file(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif  // SPARSE24_TOOLS_CLI_H_
