// SPDX-License-Identifier: Apache-2.0
// sparse24 command: `sparse24 bench`, the performance benchmark of issue 6.
//
// The 21 nmSPARSE GEMM shapes (m activations, k reduction, n output features) plus decode-style
// GEMV (m = 1, 4, 16): every shape at full size through the cycle model (cmodel
// s24_gemm_cycles_shape), 2:4-sparse against the same layer dense on the same core, and every
// shape scaled down (each dimension / 16) run on the Verilated RTL through the host driver,
// where the measured busy cycles must equal the model's prediction and C must equal the golden
// model bit for bit. Writes DIR/results.csv and DIR/plot.gp (gnuplot: speedup and utilization
// per shape) and prints progress, tables and the targets reached or missed.
//
// Its other two modes live here too: `bench --linear` (the fused int8 layer's cycles against
// the plain GEMM's on the same shapes, DIR/linear.csv) and `bench --model-speed` (the wall time
// of one GEMM on a backend). The whole of `bench` is this file pair.
#ifndef S24_BENCH_H_
#define S24_BENCH_H_

#include <stddef.h>

#include "cli.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The three modes of `sparse24 bench`, entries of the command table (tools/main.c): the
 *  benchmark (the BENCH dialect of tools/cli.h), `--linear` (fused layer vs gemm cycles,
 *  BENCH_LINEAR) and `--model-speed` (one GEMM's wall time, STRICT). run() returns the exit
 *  status: 0 (targets are reported, not enforced), 1 for a failed check (RTL cycles differ from
 *  the prediction, wrong result) or an I/O error, 2 for bad usage. */
int s24_bench_is_speed(int argc, char **argv);
int s24_bench_is_linear(int argc, char **argv);
int s24_bench_perf_check(s24_opt_t opt, const char *value);
int s24_bench_perf_run(const s24_cli_args_t *a);
int s24_bench_linear_check(s24_opt_t opt, const char *value);
int s24_bench_linear_run(const s24_cli_args_t *a);
int s24_bench_speed_run(const s24_cli_args_t *a);

/** The usage texts of `sparse24 bench` and of `sparse24 bench --model-speed`. */
extern const char s24_perf_bench_usage[];
extern const char s24_bench_speed_usage[];

#ifdef __cplusplus
}
#endif

#endif  // S24_BENCH_H_
