// sparse24 linear: the fused int8 layer subcommand (SPEC §7), tools/linear.c.
#ifndef S24_LINEAR_H_
#define S24_LINEAR_H_

#ifdef __cplusplus
extern "C" {
#endif

/** `sparse24 linear ...` (argv[1] == "linear"); returns the exit status. */
int s24_cmd_linear(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif  // S24_LINEAR_H_
