// SPDX-License-Identifier: Apache-2.0
// sparse24 bare-metal seam: the driver (driver/s24_drv.h) on a soft CPU beside s24_top, its
// registers memory-mapped (uncached) and its three streams moved by the platform's DMA.
//
// A platform part beside the freestanding driver, freestanding itself: no allocation, no I/O
// but the volatile loads and stores of the register window. The platform (a LiteX SoC's
// firmware, soc/) gives the stream side as functions and a fixed staging buffer the DMA reaches;
// register accesses cannot report SLVERR here (a bus error traps instead), so read32 and
// write32 always succeed.
#ifndef S24_MMIO_H_
#define S24_MMIO_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_drv.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The platform's streams: each as s24_seam_t's function of the same name (contracts there). */
typedef struct {
  void *ctx;
  s24_status_t (*stream_write)(void *ctx, s24_port_t port, const uint32_t *beats, size_t words,
                               size_t n);
  s24_status_t (*stream_read)(void *ctx, s24_port_t port, uint32_t *beats, size_t words,
                              size_t n, uint8_t *last, uint64_t timeout_ns);
  s24_status_t (*stream_reset)(void *ctx);
  uint64_t (*now_ns)(void *ctx);
  void *scratch;       /**< the driver's staging memory: 16-byte aligned, reachable by the DMA */
  size_t scratch_len;  /**< its bytes */
  /** NULL, or the platform's fetch unit (s24_seam_t.stream_conv) */
  s24_status_t (*stream_conv)(void *ctx, const s24_geom_t *g, const s24_conv_src_t *src,
                              size_t row, size_t j0, size_t groups, const uint8_t *reps,
                              int fresh);
  uint32_t conv_channels;  /**< s24_seam_t.conv_channels */
  /** NULL, or the platform's whole-job streaming (s24_seam_t.stream_job) */
  s24_status_t (*stream_job)(void *ctx, const s24_seam_job_t *job);
  /** NULL, or the platform's add unit (s24_seam_t.stream_add) */
  s24_status_t (*stream_add)(void *ctx, const s24_add_job_t *job, uint64_t timeout_ns);
  /** NULL, or the platform's s24_seam_t.cpu_touch */
  void (*cpu_touch)(void *ctx);
  /** NULL, or the platform's quantize unit (s24_seam_t.stream_quant) */
  s24_status_t (*stream_quant)(void *ctx, const s24_quant_job_t *job, size_t *done,
                               uint64_t timeout_ns);
} s24_mmio_platform_t;

/** Caller-owned seam state. */
typedef struct {
  volatile uint32_t *regs;        /**< s24_top's AXI4-Lite window */
  s24_mmio_platform_t platform;
} s24_mmio_t;

/** Points m at the register window at `base` (the bus address of s24_top's registers, mapped
 *  uncached) and the platform's streams. S24_ERR_ARG for a NULL, a base not 4-byte aligned or a
 *  scratch not 16-byte aligned. */
S24_WARN_UNUSED s24_status_t s24_mmio_init(s24_mmio_t *m, uintptr_t base,
                                           const s24_mmio_platform_t *platform);
/** Fills a seam whose ctx is m. */
void s24_mmio_seam(s24_mmio_t *m, s24_seam_t *seam);

#ifdef __cplusplus
}
#endif

#endif  // S24_MMIO_H_
