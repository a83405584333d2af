// SPDX-License-Identifier: Apache-2.0
// sparse24 network runtime: the engines the array layers of a network run on (s24_net.h's
// s24_engine_t): the C golden model, or a device through the host driver (driver/s24_drv.h),
// whatever its seam: the Verilated RTL on a host, the MMIO and DMA of firmware beside the IP.
// Freestanding: an engine allocates nothing; a device's weights are packed once, at load, into
// the network's arena.
#ifndef S24_ENGINE_H_
#define S24_ENGINE_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_drv.h"
#include "s24_net.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The C golden model (s24_linear_ref) on the cycle model's default array (S24_DEFAULT_ARRAY,
 *  its epilogue's depth and lanes). Measures nothing. */
void s24_engine_model(s24_engine_t *e);

/** A device's engine state; the caller owns it and the open device it points to. */
typedef struct {
  s24_dev_t *dev;
  size_t scratch;  /**< the most seam scratch a layer needs (grown at load, s24_engine_device) */
} s24_engine_dev_t;

/** The device dev (open) as an engine named `name`: each layer's weights packed at load
 *  (s24_weights_pack into the arena) and the seam's scratch asked once for the largest layer
 *  (so a growing seam allocates at load, not while running), the layer run by s24_linear (the
 *  epilogue in hardware), its cycles from the counters. Reads HW_EPI first (S24_ERR_UNSUPPORTED
 *  for a device without the fused epilogue). */
S24_WARN_UNUSED s24_status_t s24_engine_device(s24_engine_t *e, s24_engine_dev_t *state,
                                               s24_dev_t *dev, const char *name);

#ifdef __cplusplus
}
#endif

#endif  // S24_ENGINE_H_
