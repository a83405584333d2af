// sparse24 network engines: where the array layers of an int8 .tflite network
// (runtime/s24_net.h) run: the C golden model (s24_linear_ref) or the Verilated RTL through the
// host driver (s24_linear, epilogue in hardware), opened once for all the inferences of a run.
// Shared by the library (api/s24_api.c, include/sparse24.h) and the command (tools/net.c).
#ifndef S24_ENGINE_H_
#define S24_ENGINE_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "backend.h"
#include "s24_drv.h"
#include "s24_model.h"
#include "s24_net.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An open engine; the caller owns the struct. */
typedef struct {
  s24_engine_t eng;       /**< what s24_net_run takes */
  s24_backend_t backend;
  s24_bdev_t bdev;        /**< the backend, open (tools/backend.h) */
  int open;
} s24_net_engine_t;

/** Opens the engine of backend b for net. model: nothing to open; rtl: the Verilated s24_top
 *  with every wait bounded for the largest K of the network's array layers (s24_rtl_open).
 *  On failure nothing stays open and err holds one line. */
S24_WARN_UNUSED s24_status_t s24_net_engine_open(s24_net_engine_t *e, s24_backend_t b,
                                                 const s24_net_t *net, char *err,
                                                 size_t errlen);
/** `run --stats`: s24_net_stats of the inferences run so far on this engine, and on rtl the
 *  simulated cycles (sim_cycles). */
S24_WARN_UNUSED s24_status_t s24_net_engine_stats(s24_net_engine_t *e, const s24_net_t *net,
                                                  FILE *f);
/** Closes what s24_net_engine_open opened; safe twice. */
void s24_net_engine_close(s24_net_engine_t *e);

#ifdef __cplusplus
}
#endif

#endif  // S24_ENGINE_H_
