// SPDX-License-Identifier: Apache-2.0
// sparse24 command: prune/info/run of int8 .tflite networks (SPEC §8) through the library's
// networks (include/sparse24.h). Option parsing stays in main.c; these take the parsed arguments.
#ifndef SPARSE24_TOOLS_NET_H_
#define SPARSE24_TOOLS_NET_H_

#include "outfile.h"
#include "sparse24.h"

/** 1 if the file is a regular file that starts with a TFLite flatbuffer's header (identifier
 *  TFL3); 0 for anything else (a pipe is not read, so that its data stays for the .npy reader). */
int s24_net_file_is_tflite(const char *path);
/** `sparse24 info MODEL.tflite`: 0 or an exit code. */
int s24_net_cmd_info(const char *model);
/** `sparse24 prune MODEL.tflite -o OUT.tflite`: outs holds the checked output; 0 or an exit
 *  code (nothing written on failure). */
int s24_net_cmd_prune(const char *model, s24_pattern_t p, s24_outs_t *outs);
/** `sparse24 run MODEL.tflite X.npy -o Y.npy`: 0 or an exit code. */
int s24_net_cmd_run(const char *model, const char *x, s24_outs_t *outs, const char *backend,
                    int stats);

#endif  // SPARSE24_TOOLS_NET_H_
