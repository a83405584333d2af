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

#include <stddef.h>

#include "outfile.h"

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

/** The output directory of a benchmark (tools/outfile.h): at most S24_BENCH_DIR_MAX bytes
 *  (longer: a usage error), each file's path in paths[i] (DIR/names[i]). If DIR exists, the
 *  files are added to outs now (*added = 1); otherwise DIR's parent must be a writable
 *  directory, and s24_bench_add_outs creates DIR and adds them once the runs are done.
 *  0 or an exit code, after printing the error. */
#define S24_BENCH_DIR_MAX 3000
#define S24_BENCH_PATH_MAX 4200
int s24_bench_check_out_dir(const char *dir, const char *const *names, int count,
                            char (*paths)[S24_BENCH_PATH_MAX], s24_outs_t *outs, int *added);
int s24_bench_add_outs(const char *dir, int count, char (*paths)[S24_BENCH_PATH_MAX],
                       s24_outs_t *outs);
/** The default --out: bench/ next to the executable (build/bench for build/sparse24), so that
 *  the result does not depend on the working directory; buf holds it (len >= 4096). */
const char *s24_bench_default_out(char *buf, size_t len);

/** The usage text of `sparse24 bench`. */
extern const char *const s24_perf_bench_usage;

#ifdef __cplusplus
}
#endif

#endif  // S24_BENCH_H_
