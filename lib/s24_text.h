// SPDX-License-Identifier: Apache-2.0
// sparse24 library, internal: the one formatter of every text the library gives (the `key:
// value` statistics of a GEMM, a fused layer and a network run, the table of `info`), into a
// growing buffer, so the command, the Python bindings and any C front end print the same lines.
#ifndef S24_TEXT_H_
#define S24_TEXT_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_backend.h"
#include "s24_soc.h"
#include "s24_net.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A growing, NUL-terminated text; failed tells that an allocation failed (the text is then
 *  incomplete and must not be used). */
typedef struct {
  char *buf;
  size_t len, cap;
  int failed;
} s24_text_t;

/** Appends printf-formatted text. */
void s24_text_printf(s24_text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** Frees the buffer; safe twice. */
void s24_text_free(s24_text_t *t);

/** The statistics of a GEMM on a backend named `backend` (as `sparse24 gemm --stats`). */
void s24_text_gemm(s24_text_t *t, const char *backend, const s24_gemm_job_t *job,
                   const s24_run_t *run);
/** The statistics of a fused layer (as `sparse24 linear --stats`). */
void s24_text_linear(s24_text_t *t, const char *backend, const s24_linear_job_t *job,
                     const s24_run_t *run);
/** The statistics of the inferences run so far (as `sparse24 run --stats`) on engine e, then
 *  `sim_cycles` when sim_cycles is not NULL. S24_ERR_* of the cycle model. */
S24_WARN_UNUSED s24_status_t s24_text_net_stats(s24_text_t *t, const s24_net_t *net,
                                                const s24_engine_t *e,
                                                const uint64_t *sim_cycles);
/** The statistics of the inferences a system backend named `backend` ran (`sparse24 run --backend
 *  soc --stats`, SPEC §9): per operator where it ran and its SoC cycles, the totals, the clock
 *  and the milliseconds; the cycle model's prediction for e's array beside the IP's cycles. */
S24_WARN_UNUSED s24_status_t s24_text_soc_stats(s24_text_t *t, const s24_net_t *net,
                                                const s24_engine_t *e, const char *backend,
                                                const s24_soc_result_t *r);
/** The table of `sparse24 info` with the cycle model's prediction for the engine's array, and the
 *  arena the network takes. */
S24_WARN_UNUSED s24_status_t s24_text_net_info(s24_text_t *t, const s24_net_t *net,
                                               const s24_engine_t *e);
/** Totals over the network's operators (predicted for the engine's array). */
typedef struct {
  uint64_t ip_macs, host_macs, cycles, job_cycles, predicted_cycles;
} s24_net_sums_t;
S24_WARN_UNUSED s24_status_t s24_net_sums(const s24_net_t *net, const s24_engine_t *e,
                                          s24_net_sums_t *out);

#ifdef __cplusplus
}
#endif

#endif  // S24_TEXT_H_
