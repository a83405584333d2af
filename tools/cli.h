// SPDX-License-Identifier: Apache-2.0
// sparse24 command: the one option parser and command table entry type, and the one spelling of
// its error lines and exit codes (SPEC §5).
#ifndef SPARSE24_TOOLS_CLI_H_
#define SPARSE24_TOOLS_CLI_H_

#include <stddef.h>
#include <stdint.h>

#include "npy.h"
#include "sparse24.h"

#define EXIT_DATA 1   /* bad data or file (SPEC §5) */
#define EXIT_USAGE 2  /* bad command line */

/** Prints "sparse24: error: WHAT: <message>" on stderr (after flushing stdout, so the line
 *  follows any progress already printed), then " (see sparse24 HINT --help)" unless HINT is
 *  NULL, and returns CODE. */
int s24_cli_fail(int code, const char *what, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** "sparse24: error: CMD: <message> (see sparse24 CMD --help)", returns EXIT_USAGE. */
#define s24_cli_usage(cmd, ...) s24_cli_fail(EXIT_USAGE, (cmd), (cmd), __VA_ARGS__)
/** "sparse24: error: FILE: <message>", returns EXIT_DATA. */
#define s24_cli_file(file, ...) s24_cli_fail(EXIT_DATA, (file), NULL, __VA_ARGS__)
/** "sparse24: error: WHAT: <message>", returns CODE. */
#define s24_cli_error(code, what, ...) s24_cli_fail((code), (what), NULL, __VA_ARGS__)

// ---------------------------------------------------------------------------------------------
// Options: every option of every command, in one table (s24_cli_opts); a command allows a set.

typedef enum {
  S24_OPT_OUTPUT,       /* -o, --output FILE */
  S24_OPT_PATTERN,      /* --pattern N:M */
  S24_OPT_BACKEND,      /* --backend model|rtl */
  S24_OPT_VALUES,       /* --values V.npy */
  S24_OPT_META,         /* --meta MD.npy */
  S24_OPT_K,            /* --k K */
  S24_OPT_C0,           /* --c0 C0.npy */
  S24_OPT_STATS,        /* --stats */
  S24_OPT_SHAPE,        /* --shape MxKxN */
  S24_OPT_REPS,         /* --reps R */
  S24_OPT_TRACE,        /* --trace FILE.fst */
  S24_OPT_BIAS,         /* --bias BIAS.npy */
  S24_OPT_MULT,         /* --mult MULT.npy */
  S24_OPT_SHIFT,        /* --shift SHIFT.npy */
  S24_OPT_ZP_IN,        /* --zp-in ZI */
  S24_OPT_ZP_OUT,       /* --zp-out ZO */
  S24_OPT_RELU,         /* --relu */
  S24_OPT_ACT_MIN,      /* --act-min LO */
  S24_OPT_ACT_MAX,      /* --act-max HI */
  S24_OPT_OUT_DIR,      /* --out DIR (bench) */
  S24_OPT_FIRST,        /* --first N */
  S24_OPT_SEED,         /* --seed S */
  S24_OPT_ARRAY,        /* --array R:C:n:m */
  S24_OPT_MODEL_ONLY,   /* --model-only */
  S24_OPT_MODEL_SPEED,  /* --model-speed */
  S24_OPT_LINEAR,       /* --linear */
  S24_OPT_COUNT
} s24_opt_t;

#define S24_OPT(o) (UINT64_C(1) << (o))

/** One option: its name, a short alias or NULL, whether it takes a value. */
typedef struct {
  const char *name;
  const char *alias;
  int has_value;
} s24_cli_opt_t;

extern const s24_cli_opt_t s24_cli_opts[S24_OPT_COUNT];

/** The grammars of the command's command lines. Their messages are part of the command's
 *  interface (SPEC §5), so the parser keeps each one's spelling:
 *  STRICT  `-o F`, `--opt V`, `--opt=V`, `--` ends the options, -h/--help anywhere (usage
 *          after a clean parse), errors with the --help hint;
 *  TYPED   as STRICT, messages name an option as typed (`-o`), a flag's value is refused before
 *          a repetition (`linear`);
 *  BENCH   every argument an option, a value may be missing or empty (the check says so),
 *          -h/--help at once, errors without the hint (`bench`);
 *  BENCH_LINEAR  every argument an option, each with a value, -h/--help at once, errors with
 *          the hint (`bench --linear`). */
typedef enum {
  S24_CLI_STRICT = 0,
  S24_CLI_TYPED,
  S24_CLI_BENCH,
  S24_CLI_BENCH_LINEAR,
} s24_cli_dialect_t;

/** A parsed command line. */
typedef struct {
  const char *cmd;                   /* the command's name, for messages */
  const char *pos[4];                /* positional arguments */
  int npos;
  const char *val[S24_OPT_COUNT];    /* the value of each option given (flags: NULL) */
  uint64_t given;                    /* S24_OPT(o) set: option o given */
} s24_cli_args_t;

/** One entry of the command table: a command, or one mode of a command (the first entry of the
 *  name whose select() holds, NULL: always). */
typedef struct {
  const char *name;
  int (*select)(int argc, char **argv);
  const char *usage;                 /* --help */
  uint64_t opts;                     /* the options it takes (S24_OPT bits) */
  uint64_t triggers;                 /* options that select the mode: whole arguments only,
                                        repeatable, recorded in given and otherwise skipped */
  int max_pos;                       /* positional arguments (STRICT, TYPED) */
  int max_args;                      /* more arguments than this (triggers not counted, argv[0]
                                        and the command counted): "too many arguments"; 0: any */
  s24_cli_dialect_t dialect;
  const char *unknown;               /* BENCH_LINEAR: the message for any other argument (%s) */
  /** BENCH, BENCH_LINEAR: checks each option's value as it is met (value NULL: missing);
   *  prints the error, returns 0 or the exit status. */
  int (*check)(s24_opt_t opt, const char *value);
  int (*run)(const s24_cli_args_t *a);
} s24_cli_cmd_t;

#define S24_CLI_HELP (-1)

/** Parses argv[2..] (argv[1] is the command) by cmd's grammar. Returns 0, S24_CLI_HELP when
 *  help was asked for (STRICT, TYPED: only if the rest parsed), or an exit status after printing
 *  the error. */
int s24_cli_parse(const s24_cli_cmd_t *cmd, int argc, char **argv, s24_cli_args_t *a);

/** Runs the entry of table (n entries) named argv[1]: its usage for help, else its run(). */
int s24_cli_dispatch(const s24_cli_cmd_t *table, size_t n, int argc, char **argv);

/** The option's value, NULL if not given. */
static inline const char *s24_cli_val(const s24_cli_args_t *a, s24_opt_t o) { return a->val[o]; }
static inline int s24_cli_has(const s24_cli_args_t *a, s24_opt_t o) {
  return (a->given & S24_OPT(o)) != 0;
}

// ---------------------------------------------------------------------------------------------
// Values shared by several commands

/** Strict positive decimal size_t (no sign, no blanks); 1 if it is one. */
int s24_cli_parse_size(const char *text, size_t *out);
/** A strict decimal unsigned integer (digits only); 1 if it is one. */
int s24_cli_parse_u64(const char *text, uint64_t *out);

/** --pattern (default 2:4) of a command; 0 or the usage error's exit status. */
int s24_cli_pattern(const s24_cli_args_t *a, s24_pattern_t *p);
/** --backend (default model) of a command, checked against this build (*b gets its name); 0 or
 *  the exit status. */
int s24_cli_backend(const s24_cli_args_t *a, const char **b);

/** Prints a library message "OPERAND: what" (include/sparse24.h) as "FILE: what", FILE the
 *  file of the operand: names[] maps operand names to files (n pairs, {operand, file}); a
 *  message naming no operand in names goes to `fallback`. Returns EXIT_DATA. */
int s24_cli_api_error(const char *msg, const char *const (*names)[2], size_t n,
                      const char *fallback);

/** Reads a rank-2 .npy of dtype want; 0, or EXIT_DATA after naming the file and the problem. */
int s24_cli_load(const char *path, s24_npy_dtype_t want, s24_npy_t *arr);

#endif  // SPARSE24_TOOLS_CLI_H_
