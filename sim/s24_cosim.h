// SPDX-License-Identifier: Apache-2.0
// sparse24 co-simulation backend: the Verilated s24_top behind the driver seam.
//
// Built by sim/sim.mk into build/cosim_<R>x<C>_<n>of<m>/libs24cosim.a (the Verilated s24_top of
// one array configuration, default 8x8 2:4, make COSIM_CFG=R:C:n:m for another; the wrapper and
// the Verilator runtime in the same archive); link it with $(COSIM_LDLIBS).
// Stream writes are queued and fed to s_axis_w / s_axis_a as fast as the hardware takes them
// (one beat per cycle, or with random gaps); m_axis_r is sunk into a queue (optionally with
// random backpressure). The clock only runs while the driver waits on hardware: during register
// accesses (an AXI4-Lite master with optional random channel order and delays) and stream
// reads. Simulated time is 10 ns per cycle (100 MHz).
// If the RTL stops (an assertion of a build with --assert -DFORMAL fires, or $finish), every
// later seam call returns S24_ERR_HW.
#ifndef S24_COSIM_H_
#define S24_COSIM_H_

/** Simulated time of one clock cycle (100 MHz nominal). */
#define S24_COSIM_NS_PER_CYCLE 10u

#include <stddef.h>
#include <stdint.h>

#include "s24_drv.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct s24_cosim s24_cosim_t;

typedef struct {
  uint32_t seed;                /**< seeds every random choice below */
  uint32_t r_backpressure_pct;  /**< % of cycles m_axis_r_tready is low (0 = always ready) */
  uint32_t in_gap_pct;          /**< % of cycles an idle input stream withholds its next beat */
  int axil_random;              /**< random AW/W/AR order, delays, bready/rready backpressure */
  const char *trace_path;       /**< FST waveform file, or NULL for none */
  char *err;                    /**< if not NULL: why s24_cosim_open failed (errlen bytes) */
  size_t errlen;
} s24_cosim_opts_t;

/** Builds and resets the simulated top and fills *seam (ctx = the simulation). opts may be
 *  NULL (no randomness, no trace). S24_ERR_IO if the trace file cannot be opened. No C++
 *  exception leaves this file: one of the Verilator runtime (std::bad_alloc under a memory
 *  limit, std::system_error when a thread cannot start) becomes S24_ERR_NOMEM (S24_ERR_IO or
 *  S24_ERR_HW for others) with its message in opts->err, or, for a seam call or
 *  s24_cosim_write_strb, in s24_cosim_error(). */
S24_WARN_UNUSED s24_status_t s24_cosim_open(const s24_cosim_opts_t *opts, s24_cosim_t **out,
                                            s24_seam_t *seam);
/** Finishes the trace and frees the simulation; safe on NULL. */
void s24_cosim_close(s24_cosim_t *sim);
/** Clock cycles simulated since open. */
uint64_t s24_cosim_cycles(const s24_cosim_t *sim);
/** Why the last seam call on sim failed with an exception ("" if none did). */
const char *s24_cosim_error(const s24_cosim_t *sim);
/** Changes the result backpressure (0..100 %) from now on; 100 stalls m_axis_r forever. */
S24_WARN_UNUSED s24_status_t s24_cosim_set_backpressure(s24_cosim_t *sim, uint32_t pct);
/** One AXI4-Lite write with byte strobes (the seam's write32 always writes all four bytes).
 *  S24_ERR_HW on SLVERR. */
S24_WARN_UNUSED s24_status_t s24_cosim_write_strb(s24_cosim_t *sim, uint32_t addr,
                                                  uint32_t value, uint32_t strb);
/** The irq_o output after the last cycle. */
int s24_cosim_irq(const s24_cosim_t *sim);

#ifdef __cplusplus
}
#endif

#endif  // S24_COSIM_H_
