// SPDX-License-Identifier: Apache-2.0
// sparse24 command: the built-in demo layer.
#ifndef S24_DEMO_H_
#define S24_DEMO_H_

#include <stddef.h>
#include <stdio.h>

#include "sparse24.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Runs the demo (a fixed-seed 2:4 FFN projection) on `backend`, printing to out; checks the
 *  result against the dense reference. S24_OK only if every output matches. */
S24_WARN_UNUSED s24_status_t s24_demo_run(const char *backend, FILE *out, char *err,
                                          size_t errlen);

#ifdef __cplusplus
}
#endif

#endif  // S24_DEMO_H_
