// sparse24 command: the backend seam. Every GEMM and fused layer of `gemm`, `linear`, `demo` and
// `bench` runs through a backend's ops (s24_backend_ops_t: open, gemm, linear, stats, close);
// backend.c holds the table and the model backend. The rtl backend (the Verilated RTL through
// the host driver) is chosen at link time: backend_rtl.c with the co-simulation library, or
// backend_nortl.c without it; no file of tools/ but backend_rtl.c includes the co-simulation's
// header.
#ifndef S24_BACKEND_H_
#define S24_BACKEND_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "s24_drv.h"
#include "s24_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The simulation behind an rtl device (sim/s24_cosim.h); opaque to the command. */
typedef struct s24_cosim s24_cosim_t;

/** Hardware numbers of one rtl run (from the CNT_* registers of s24_top). */
typedef struct {
  uint64_t cycles;       /**< busy cycles summed over the hardware jobs */
  uint64_t beats;        /**< array steps (beat pairs consumed) */
  uint64_t stall_w, stall_a, stall_r;  /**< cycles waiting on each stream */
  uint64_t sim_cycles;   /**< all simulated cycles, register traffic included */
  double utilization;    /**< dense-equivalent MACs / (cycles * rows * cols * SparseM) */
} s24_run_stats_t;

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
  const char *trace_path;  /**< rtl: FST waveform file, or NULL */
  s24_run_stats_t *run;  /**< rtl: hardware numbers of the run, or NULL */
  int unpruned;          /**< 1: a_dense is any matrix (rtl: dense A on the sparse core) */
} s24_gemm_job_t;

/** The fused int8 layer of SPEC §7 as one job: Y[batch x m] = requant(X[batch x k] * W^T). */
typedef struct {
  s24_pattern_t pattern;   /**< of values/meta */
  const int8_t *x;         /**< batch x k */
  size_t batch;
  const int8_t *wd;        /**< the dense W, m x k */
  const int8_t *values;    /**< if not NULL: W compressed (SPEC §2), which rtl loads instead */
  const uint8_t *meta;
  size_t m, k;
  s24_linear_params_t prm;
  int8_t *y;               /**< batch x m output */
} s24_linear_job_t;

/** An open backend; the caller owns the struct, the backend what it points to. */
typedef struct {
  const struct s24_backend_ops *ops;
  s24_cosim_t *sim;        /**< rtl: the simulation */
  s24_dev_t dev;           /**< rtl: the device on it */
  const s24_gemm_job_t *last_gemm;      /**< the last job run (for stats), or NULL */
  const s24_linear_job_t *last_linear;
  size_t last_nnz;         /**< model linear: nonzeros of the last W */
} s24_bdev_t;

/** Capabilities of a backend. */
enum {
  /** The (simulated) hardware: measures cycles (s24_run_stats_t), writes waveforms (--trace),
   *  takes minutes per large job (progress lines). */
  S24_BACKEND_HW = 1u << 0,
};

/** A backend: the one place that knows how a job runs on it (backend.c: the table). */
typedef struct s24_backend_ops {
  const char *name;        /**< "model", "rtl" */
  unsigned caps;           /**< S24_BACKEND_* */
  /** S24_OK if this build can run it, else S24_ERR_UNSUPPORTED with a message; NULL: always. */
  s24_status_t (*check)(char *err, size_t errlen);
  /** Opens it for jobs of reduction length up to k_max (trace: FST file or NULL). On failure
   *  nothing stays open; err says which step failed. */
  s24_status_t (*open)(s24_bdev_t *d, const char *trace, size_t k_max, char *err, size_t errlen);
  /** One GEMM. On S24_ERR_META, *where names the metadata row and group; err holds a message. */
  s24_status_t (*gemm)(s24_bdev_t *d, const s24_gemm_job_t *job, s24_where_t *where, char *err,
                       size_t errlen);
  /** One fused layer; err holds a message. */
  s24_status_t (*linear)(s24_bdev_t *d, const s24_linear_job_t *job, char *err, size_t errlen);
  /** Prints `key: value` lines about the last job to f. */
  void (*stats)(const s24_bdev_t *d, FILE *f);
  /** Closes what open opened; safe after a failed open. */
  void (*close)(s24_bdev_t *d);
} s24_backend_ops_t;

/** A backend is its entry of the table. */
typedef const s24_backend_ops_t *s24_backend_t;

/** The table's entries (backend.c; rtl: backend_rtl.c or backend_nortl.c). */
extern const s24_backend_ops_t s24_backend_model, s24_backend_rtl;
#define S24_BACKEND_MODEL (&s24_backend_model)
#define S24_BACKEND_RTL (&s24_backend_rtl)

/** "model" or "rtl"; S24_ERR_ARG for any other name. */
S24_WARN_UNUSED s24_status_t s24_backend_parse(const char *name, s24_backend_t *out);
/** Backend name for messages. */
const char *s24_backend_name(s24_backend_t b);
/** S24_OK if this build can run the backend, else S24_ERR_UNSUPPORTED with a message. */
S24_WARN_UNUSED s24_status_t s24_backend_check(s24_backend_t b, char *err, size_t errlen);
/** Opens b, runs the job, prints its stats to `stats` (if not NULL), closes. On S24_ERR_META,
 *  *where names the metadata row and group; err holds a message. */
S24_WARN_UNUSED s24_status_t s24_backend_gemm(s24_backend_t b, const s24_gemm_job_t *job,
                                              FILE *stats, s24_where_t *where, char *err,
                                              size_t errlen);
/** The same for a fused layer. */
S24_WARN_UNUSED s24_status_t s24_backend_linear(s24_backend_t b, const s24_linear_job_t *job,
                                                FILE *stats, char *err, size_t errlen);

/** Opens the Verilated s24_top (trace_path: FST file or NULL) and the device on it, with every
 *  wait on the hardware bounded by s24_rtl_timeout_ns(dev, k_max): a stuck simulation fails
 *  with S24_ERR_TIMEOUT in seconds, not after 10^8 simulated cycles. On failure nothing stays
 *  open; err says which step failed. */
S24_WARN_UNUSED s24_status_t s24_rtl_open(const char *trace_path, size_t k_max,
                                          s24_cosim_t **sim, s24_dev_t *dev, char *err,
                                          size_t errlen);
/** Clock cycles simulated since s24_rtl_open. */
uint64_t s24_rtl_sim_cycles(const s24_cosim_t *sim);
/** Why the last call into the simulation failed inside the Verilator runtime ("" if none did:
 *  the failure was the device's, s24_strerror of the status says it). */
const char *s24_rtl_error(const s24_cosim_t *sim);
/** Closes what s24_rtl_open opened (the device is closed by s24_dev_close); safe on NULL. */
void s24_rtl_close(s24_cosim_t *sim);
/** The longest legitimate wait of an rtl GEMM with reduction length k, in simulated ns: the
 *  busy cycles (cmodel s24_core_cycles) of the feed window plus one tile of the densest
 *  possible job (every group at its most beats), times 4, plus 1 ms for register traffic.
 *  The driver bounds each wait by its job too (s24_dev_wait_limit_ns); the smaller wins. */
uint64_t s24_rtl_timeout_ns(const s24_dev_t *dev, size_t k);

#ifdef __cplusplus
}
#endif

#endif  // S24_BACKEND_H_
