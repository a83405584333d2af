// sparse24 command: the GEMM backend seam. Every `gemm`, `demo` and `bench` call goes through
// s24_backend_gemm(). The rtl backend (the Verilated RTL through the host driver) is chosen at
// link time: backend_rtl.c with the co-simulation library, or backend_nortl.c without it; no
// file of tools/ but backend_rtl.c includes the co-simulation's header.
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

typedef enum {
  S24_BACKEND_MODEL = 0,  /**< the C golden model */
  S24_BACKEND_RTL = 1,    /**< the Verilated RTL driven by the host driver */
} s24_backend_t;

/** Hardware numbers of one rtl run (from the CNT_* registers of s24_top). */
typedef struct {
  uint64_t cycles;       /**< busy cycles summed over the hardware jobs */
  uint64_t beats;        /**< array steps (beat pairs consumed) */
  uint64_t stall_w, stall_a, stall_r;  /**< cycles waiting on each stream */
  uint64_t sim_cycles;   /**< all simulated cycles, register traffic included */
  double utilization;    /**< dense-equivalent MACs / (cycles * rows * cols * SparseM) */
} s24_run_stats_t;

/** One GEMM: C = A*B (+ C0) with A compressed (values + metadata, SPEC §2). */
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
  const int8_t *a_dense; /**< if not NULL: this dense m_rows x k A is run instead of
                              values/meta (rtl: dense A on the sparse core) */
  const char *trace_path;  /**< rtl: FST waveform file, or NULL */
  s24_run_stats_t *run;  /**< rtl: hardware numbers of the run, or NULL */
} s24_gemm_job_t;

/** "model" or "rtl"; S24_ERR_ARG for any other name. */
S24_WARN_UNUSED s24_status_t s24_backend_parse(const char *name, s24_backend_t *out);
/** Backend name for messages. */
const char *s24_backend_name(s24_backend_t b);
/** S24_OK if this build can run the backend, else S24_ERR_UNSUPPORTED with a message. */
S24_WARN_UNUSED s24_status_t s24_backend_check(s24_backend_t b, char *err, size_t errlen);
/** Runs the job. With stats != NULL prints `key: value` lines about the run to it.
 *  On S24_ERR_META, *where names the metadata row and group; err holds a message. */
S24_WARN_UNUSED s24_status_t s24_backend_gemm(s24_backend_t b, const s24_gemm_job_t *job,
                                              FILE *stats, s24_where_t *where, char *err,
                                              size_t errlen);

/** Opens the Verilated s24_top (trace_path: FST file or NULL) and the device on it, with every
 *  wait on the hardware bounded by s24_rtl_timeout_ns(dev, k_max): a stuck simulation fails
 *  with S24_ERR_TIMEOUT in seconds, not after 10^8 simulated cycles. On failure nothing stays
 *  open; err says which step failed. */
S24_WARN_UNUSED s24_status_t s24_rtl_open(const char *trace_path, size_t k_max,
                                          s24_cosim_t **sim, s24_dev_t *dev, char *err,
                                          size_t errlen);
/** 1 if this build links the rtl backend (backend_rtl.c), 0 if not (backend_nortl.c). */
int s24_rtl_available(void);
/** The rtl backend's s24_backend_gemm. */
S24_WARN_UNUSED s24_status_t s24_rtl_gemm(const s24_gemm_job_t *job, FILE *stats,
                                          s24_where_t *where, char *err, size_t errlen);
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
