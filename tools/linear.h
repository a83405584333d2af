// SPDX-License-Identifier: Apache-2.0
// sparse24 linear: the fused int8 layer subcommand (SPEC §7), tools/linear.c.
#ifndef S24_LINEAR_H_
#define S24_LINEAR_H_

#include "cli.h"

#ifdef __cplusplus
extern "C" {
#endif

/** `sparse24 linear ...`, parsed (tools/cli.h, the TYPED dialect); returns the exit status. */
int s24_cmd_linear(const s24_cli_args_t *a);
/** Its --help. */
extern const char s24_linear_usage[];

#ifdef __cplusplus
}
#endif

#endif  // S24_LINEAR_H_
