// sparse24 command: `sparse24 bench`, the performance benchmark of issue 6.
//
// The 21 nmSPARSE GEMM shapes (m activations, k reduction, n output features) plus decode-style
// GEMV (m = 1, 4, 16): every shape at full size through the cycle model (cmodel
// s24_gemm_cycles_shape), 2:4-sparse against the same layer dense on the same core, and every
// shape scaled down (each dimension / 16) run on the Verilated RTL through the host driver,
// where the measured busy cycles must equal the model's prediction and C must equal the golden
// model bit for bit. Writes DIR/results.csv and DIR/plot.gp (gnuplot: speedup and utilization
// per shape) and prints progress, tables and the targets reached or missed.
#ifndef S24_BENCH_H_
#define S24_BENCH_H_

#ifdef __cplusplus
extern "C" {
#endif

/** Runs `sparse24 bench ARGS` (argv[0] = "sparse24", argv[1] = "bench"). Returns the exit
 *  status: 0 (targets are reported, not enforced), 1 for a failed check (RTL cycles differ
 *  from the prediction, wrong result) or an I/O error, 2 for bad usage. */
int s24_perf_bench_main(int argc, char **argv);

/** The benchmark's shapes (m activations, k, n output features; gemv: a GEMV row): full size,
 *  or small = the /16 version run on the RTL. */
#include <stddef.h>
size_t s24_bench_shape_count(void);
void s24_bench_shape(size_t i, int small, size_t *m, size_t *k, size_t *n, int *gemv);
/** `sparse24 bench --linear ...`: linear vs gemm cycles (tools/linear.c). */
int s24_linear_bench_main(int argc, char **argv);

/** The usage text of `sparse24 bench`. */
extern const char *const s24_perf_bench_usage;

#ifdef __cplusplus
}
#endif

#endif  // S24_BENCH_H_
