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

/** Prints "sparse24: error: WHAT: <message>" on stderr (after flushing stdout, so the line
 *  follows any progress already printed) and returns CODE. The two above are this with
 *  EXIT_USAGE plus the --help hint, and with EXIT_DATA. */
int s24_cli_error(int code, const char *what, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif  // SPARSE24_TOOLS_CLI_H_
