// SPDX-License-Identifier: Apache-2.0
// sparse24 library, internal: the backends a device of the public API (include/sparse24.h) can
// be. A backend is its row of the one table (s24_backend.c): the C golden model, or the
// Verilated RTL through the host driver (s24_backend_rtl.c, or s24_backend_nortl.c in a build
// without Verilator, make S24_RTL=no). An open device is an open backend: the simulation opens
// once, at s24_api_open, and every call of the device runs on it.
// Only lib/ and the benchmark (tools/bench/, which compares measured with predicted cycles)
// include this header; the front ends use include/sparse24.h.
#ifndef S24_BACKEND_H_
#define S24_BACKEND_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_drv.h"
#include "s24_engine.h"
#include "s24_model.h"
#include "s24_soc.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The simulation behind an rtl device (sim/s24_cosim.h); opaque here. */
typedef struct s24_cosim s24_cosim_t;

/** One GEMM: C = A*B (+ C0) with A compressed (values + metadata, SPEC §2) or dense. */
typedef struct {
  s24_pattern_t pattern;
  const int8_t *values;  /**< m_rows x s24_values_cols(pattern, k) */
  const uint8_t *meta;   /**< m_rows x s24_meta_cols(pattern, k) */
  size_t m_rows;
  size_t k;
  const int8_t *b;       /**< k x n_cols */
  size_t n_cols;
  const int32_t *c0;     /**< m_rows x n_cols, or NULL */
  int32_t *c;            /**< m_rows x n_cols output */
  const int8_t *a_dense; /**< if not NULL: A as the dense m_rows x k matrix, which the backend
                              takes as it is (rtl: the driver packs its beats from it) instead
                              of values/meta; it satisfies `pattern` unless unpruned */
  int unpruned;          /**< 1: a_dense is any matrix (rtl: dense A on the sparse core) */
} s24_gemm_job_t;

/** The fused int8 layer of SPEC §7 as one job: Y[batch x m] = requant(X[batch x k] * W^T). */
typedef struct {
  s24_pattern_t pattern;   /**< of values/meta ({1, 1}: W given dense only) */
  const int8_t *x;         /**< batch x k */
  size_t batch;
  const int8_t *wd;        /**< the dense W, m x k */
  const int8_t *values;    /**< if not NULL: W compressed (SPEC §2), which rtl loads instead */
  const uint8_t *meta;
  size_t m, k;
  s24_linear_params_t prm;
  int8_t *y;               /**< batch x m output */
} s24_linear_job_t;

/** What a backend measured in its last gemm or linear (the statistics' numbers). */
typedef struct {
  int hw;                  /**< 1: the hardware's counters below are valid */
  s24_counters_t cnt;      /**< the CNT_* registers summed over the jobs */
  s24_hw_info_t info;      /**< the device's build parameters */
  uint64_t sim_cycles;     /**< simulated cycles since the device was opened */
  size_t weight_nonzeros;  /**< model linear: nonzeros of W */
} s24_run_t;

/** An open backend; the caller owns the struct, the backend what it points to. */
typedef struct s24_bdev {
  const struct s24_backend_ops *ops;
  s24_cosim_t *sim;        /**< rtl: the simulation */
  s24_dev_t dev;           /**< rtl: the device on it */
  s24_engine_dev_t eng;    /**< rtl: its network engine's state */
  s24_run_t run;           /**< of the last gemm / linear */
} s24_bdev_t;

/** Capabilities of a backend. */
enum {
  /** The (simulated) hardware: measures cycles, writes waveforms (a trace), takes minutes per
   *  large job (progress lines). */
  S24_BACKEND_HW = 1u << 0,
  /** A whole system (the simulated edge SoC): runs networks whole (net_run), not GEMMs or
   *  layers one by one. */
  S24_BACKEND_SYSTEM = 1u << 1,
};

/** A backend: the one place that knows how a job runs on it. */
typedef struct s24_backend_ops {
  const char *name;        /**< "model", "rtl" */
  unsigned caps;           /**< S24_BACKEND_* */
  /** S24_OK if this build can run it, else S24_ERR_UNSUPPORTED with a message; NULL: always. */
  s24_status_t (*check)(char *err, size_t errlen);
  /** Opens it (trace: an FST waveform file, or NULL). On failure nothing stays open; err says
   *  which step failed. */
  s24_status_t (*open)(s24_bdev_t *d, const char *trace, char *err, size_t errlen);
  /** One GEMM. On S24_ERR_META, *where names the metadata row and group; err holds a message.
   *  Fills d->run. */
  s24_status_t (*gemm)(s24_bdev_t *d, const s24_gemm_job_t *job, s24_where_t *where, char *err,
                       size_t errlen);
  /** One fused layer; err holds a message. Fills d->run. */
  s24_status_t (*linear)(s24_bdev_t *d, const s24_linear_job_t *job, char *err, size_t errlen);
  /** The network engine of the open backend (runtime/s24_engine.h). */
  s24_status_t (*engine)(s24_bdev_t *d, s24_engine_t *e, char *err, size_t errlen);
  /** Simulated cycles since open (0 without a simulation). */
  uint64_t (*sim_cycles)(const s24_bdev_t *d);
  /** Closes what open opened; safe after a failed open. */
  void (*close)(s24_bdev_t *d);
  /** A system backend (S24_BACKEND_SYSTEM) runs whole networks itself: `batch` inferences of
   *  the .tflite in model (len bytes, n_ops operators, loaded and checked on the host first),
   *  x: batch x x_bytes, y: batch x y_bytes; adds its figures to *res. NULL for the others,
   *  whose networks run in the library (the runtime, the engine above). */
  s24_status_t (*net_run)(s24_bdev_t *d, const uint8_t *model, size_t len, size_t n_ops,
                          const void *x, size_t x_bytes, size_t batch, void *y, size_t y_bytes,
                          s24_soc_result_t *res, char *err, size_t errlen);
} s24_backend_ops_t;

/** A backend is its entry of the table. */
typedef const s24_backend_ops_t *s24_backend_t;

/** The table's entries (s24_backend.c; rtl: s24_backend_rtl.c or s24_backend_nortl.c). */
extern const s24_backend_ops_t s24_backend_model, s24_backend_rtl;
/** The simulated edge SoC (s24_backend_soc.c): its IP ("soc"), or its CPU alone ("soc-cpu"). */
extern const s24_backend_ops_t s24_backend_soc, s24_backend_soc_cpu;

/** "model", "rtl", "soc" or "soc-cpu"; NULL for any other name. */
s24_backend_t s24_backend_find(const char *name);

/** Opens the Verilated s24_top (trace_path: FST file or NULL) and the device on it. On failure
 *  nothing stays open; err says which step failed. */
S24_WARN_UNUSED s24_status_t s24_rtl_open(const char *trace_path, s24_cosim_t **sim,
                                          s24_dev_t *dev, char *err, size_t errlen);
/** Clock cycles simulated since s24_rtl_open. */
uint64_t s24_rtl_sim_cycles(const s24_cosim_t *sim);
/** Why the last call into the simulation failed inside the Verilator runtime ("" if none did:
 *  the failure was the device's, s24_strerror of the status says it). */
const char *s24_rtl_error(const s24_cosim_t *sim);
/** Closes what s24_rtl_open opened (the device is closed by s24_dev_close); safe on NULL. */
void s24_rtl_close(s24_cosim_t *sim);
/** The longest legitimate wait of an rtl job with reduction length k, in simulated ns: the
 *  busy cycles (cmodel s24_core_cycles) of the feed window plus one tile of the densest
 *  possible job (every group at its most beats), times 4, plus 1 ms for register traffic; so a
 *  stuck simulation fails with S24_ERR_TIMEOUT in seconds, not after 10^8 simulated cycles.
 *  The driver bounds each wait by its job too (s24_dev_wait_limit_ns); the smaller wins. */
uint64_t s24_rtl_timeout_ns(const s24_dev_t *dev, size_t k);

#ifdef __cplusplus
}
#endif

#endif  // S24_BACKEND_H_
