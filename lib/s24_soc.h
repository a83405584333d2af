// SPDX-License-Identifier: Apache-2.0
// sparse24 library, internal: whole networks on the simulated edge SoC (SPEC §9, soc/): the job
// (s24_soc_job.h) written into an anonymous memory file, the SoC's simulator
// (build/soc/soc_sim, its path fixed at build time) run on the firmware s24run.elf with the job
// loaded into the SoC's main RAM and dumped back into a second memory file, the outputs and the
// counters read from it. Nothing is written to the file system; the simulator dies with the
// process that started it (PR_SET_PDEATHSIG), so a signal that ends the caller leaves neither a
// simulator nor a temporary behind. Linux only (memfd_create); the backend table calls it.
#ifndef S24_SOC_H_
#define S24_SOC_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One operator's figures (summed over the inferences). */
typedef struct {
  int on_ip;              /**< 1: ran on the IP; 0: on the CPU */
  uint64_t cycles;        /**< SoC cycles from its start to its end */
  uint64_t ip_cycles;     /**< on the IP: the array's busy cycles */
  uint64_t wait_cycles;   /**< on the IP: the CPU polling for the IP's results */
} s24_soc_op_t;

/** What the SoC measured, summed over every run since the network was loaded. */
typedef struct {
  int ip;                  /**< 1: the array layers ran on the IP; 0: on the CPU */
  uint64_t inferences;
  size_t n_ops;
  s24_soc_op_t *ops;       /**< n_ops records (heap; s24_soc_result_free) */
  uint64_t cycles_total;   /**< the inferences, at the SoC's clock */
  uint64_t cycles_ip;      /**< the IP's busy cycles */
  uint64_t wait_cycles;    /**< the CPU polling for the IP (cycles_cpu = total - wait) */
  uint64_t load_cycles;    /**< the last run's s24_net_load on the SoC */
  uint64_t stall[3];       /**< the IP's stream stalls W, A, R */
  uint64_t seam_bytes[3];  /**< what the seam moved per stream */
  uint32_t arena_bytes;    /**< the network's arena on the SoC */
  uint32_t code_bytes;     /**< the firmware's code and read-only data */
  uint32_t clock_hz;       /**< the SoC's nominal clock */
  uint64_t sim_cycles;     /**< simulated cycles of every run (boot and load included) */
} s24_soc_result_t;

/** S24_OK if this build has the SoC (`make soc` built the simulator, its boot ROM and the
 *  firmware), else S24_ERR_UNSUPPORTED with one line naming what is missing. */
S24_WARN_UNUSED s24_status_t s24_soc_check(char *err, size_t errlen);

/** `batch` inferences of the .tflite model (len bytes, n_ops operators, already checked by the
 *  runtime on the host) on the simulated SoC, the array layers on the IP (ip = 1) or on its CPU:
 *  x holds batch x x_bytes input bytes, y receives batch x y_bytes. Adds to *res (zeroed by the
 *  caller before the first run; its ops allocated here). Errors, one line in err:
 *  S24_ERR_NOMEM: the model, the inputs and the outputs do not fit the SoC's host area, or the
 *  network's arena its free memory (both name the bytes needed and available); S24_ERR_TIMEOUT:
 *  no answer within the cycle budget (S24_SOC_MAX_CYCLES in the environment, default 2e9 per
 *  inference); S24_ERR_HW: the firmware trapped or failed, the simulator crashed or was killed;
 *  S24_ERR_IO: the simulator could not be started; else the firmware's status and message. */
S24_WARN_UNUSED s24_status_t s24_soc_run(int ip, const uint8_t *model, size_t len, size_t n_ops,
                                         const void *x, size_t x_bytes, size_t batch, void *y,
                                         size_t y_bytes, s24_soc_result_t *res, char *err,
                                         size_t errlen);

/** The SoC's clock for milliseconds: the median placed Fmax of its system clock on the ECP5-85
 *  (`make soc-synth`'s committed record, compiled in), and where it comes from; 0 MHz and a
 *  reason when there is no record. */
double s24_soc_mhz(const char **from);

/** Frees res's records; safe twice. */
void s24_soc_result_free(s24_soc_result_t *res);

#ifdef __cplusplus
}
#endif

#endif  // S24_SOC_H_
