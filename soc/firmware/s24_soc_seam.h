// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: the driver's seam on the SoC of soc/soc.py. The registers are the bare-metal
// MMIO seam's (driver/baremetal/s24_mmio.h, s24_top's window at S24_REGS_BASE, uncached); this
// file is its platform part: the three streams through the block-RAM rings beside s24_top
// (soc/s24_stream.py), time from the SoC's cycle counter, and the driver's staging memory, a fixed
// buffer in main RAM. No allocation.
//
//   s24_soc_t soc;  s24_seam_t seam;  s24_dev_t dev;
//   s24_soc_open(&soc, &seam);             // resets the stream engines
//   s24_dev_open(&dev, &seam);             // the driver, unchanged
//   dev.cycle_ns = s24_soc_cycle_ns();     // the driver's wait bounds at this clock
//   (s24_soc_dev_open: the first two at once)
//
// stream_write copies the beats into the port's ring with the CPU (uncached stores to its window)
// and queues one descriptor per chunk (TLAST on the packet's last beat); the ring's engine then
// feeds s_axis_w / s_axis_a at one beat per cycle, independently of the CPU. It never waits: what
// does not fit (before START the core takes nothing, so the driver's first tiles of a long K may
// not) stays where it is, remembered by address (the seam's contract keeps the driver's beats in
// place until their tile's results are read), and is moved in by later stream calls as the
// engine makes room. stream_read waits for m_axis_r's beats in the R ring and copies them out.
// With s24_soc_t.dma set for a port, a packet in main RAM is moved into the ring by the ring's
// fill DMA instead (LiteDRAM read port, the SDRAM's rate, the CPU waiting): the caller then keeps
// main RAM coherent (soc_flush_dcache) before such a packet is sent. Each call's cycles and bytes
// are counted (s24_soc_stats_t) so a caller can tell what the memory system delivered per stream.
#ifndef S24_SOC_SEAM_H_
#define S24_SOC_SEAM_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_drv.h"
#include "s24_mmio.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Cycles and bytes through the seam, per stream (index s24_port_t), since open or the last
 *  s24_soc_stats_clear. `cycles` is the time spent inside the seam's calls for that stream
 *  (copying, and waiting for room or for results); `wait` the part of it spent waiting. */
typedef struct {
  uint64_t calls[3];
  uint64_t beats[3];
  uint64_t bytes[3];
  uint64_t cycles[3];
  uint64_t wait[3];
  /** The CPU's polls for the units beside the IP (stream_add, stream_quant) */
  uint64_t unit_wait;
  /** Jobs whose input the fetch unit's buffer got by a fill, and jobs whose input the runtime
   *  called fresh (a new layer's) that found it there (no fill: the previous layer's results,
   *  which the drain wrote there too) */
  uint64_t ib_fills, ib_kept;
} s24_soc_stats_t;

/** Packets (or their rests) waiting for ring room, per input port, in order. */
#define S24_SOC_PENDING 32
typedef struct {
  const uint32_t *beats;
  size_t words, n, moved;
  int by_dma;
  const s24_conv_src_t *conv;  /**< or a column tile for the fetch unit (stream_conv's call) */
  int32_t c0;                  /**< its row tile's channel window (s24_conv_c0) */
  size_t j0, groups;
  const uint8_t *reps;
  uint32_t total;              /**< its beats streamed */
  int step;                    /**< the tile's: waiting, fetching, issuing its descriptors */
  uint32_t start;              /**< its first ring position (once fetched) */
  uint64_t t_go;               /**< the cycle its fetch started (the fetch's timeout) */
  size_t di;                   /**< issuing: the next group, */
  uint32_t dr, dsent;          /**< its replays issued, and the beats the descriptors cover */
} s24_soc_pend_t;

/** Ranges the seam remembers out of the caches. */
#define S24_SOC_CLEAN 8

/** Fetched tiles the A ring's reader may still be reading. */
#define S24_SOC_TILES 16

/** The seam's state; the caller owns it. */
typedef struct {
  s24_mmio_t mmio;          /**< the register side (driver/baremetal) */
  uint32_t w_wr, a_wr;      /**< beats written into the W and A rings (monotonic, mod 2^32) */
  uint32_t w_done, a_done;  /**< the engines' consumed counters, as last read */
  int a_conv;               /**< the A ring holds tiles from the fetch unit (not packets) */
  uint32_t a_pos, a_rel;    /**< ring positions written and released by fetched tiles */
  uint32_t tile_end[S24_SOC_TILES][2];  /**< per fetched tile: a_pos, a_wr at its end */
  size_t tile_head, n_tiles;
  uint32_t conv_tiles;      /**< column tiles the fetch unit was started on (its done counter) */
  int fetch_slot;           /**< the A backlog's slot of the tile being fetched, or -1 */
  uint32_t conv_csr[13];    /**< the fetch unit's layer CSRs as last written (written on change) */
  int conv_csr_ok;          /**< conv_csr holds what the unit has */
  int conv_ib;              /**< the unit's taps come from its input buffer (its `ib` CSR; -1:
                                 unknown): tile addresses are then relative to the input */
  const void *ib_x;         /**< the input the buffer holds (NULL: none), */
  size_t ib_bytes;          /**< its bytes, */
  size_t ib_off;            /**< the buffer's word it starts at (filled: 0; the drain's
                                 write-through: beside the job's input). Whatever may change the
                                 input since (the CPU's touch, a DMA over it) drops ib_x */
  /** Ranges of main RAM [lo, hi) known to have no line in the L2 or the D$ (written back and
   *  evicted, or written by a DMA since, and not touched by the CPU since): a DMA may read or
   *  write them without a flush first (s24_soc_seam.c, "out of the caches") */
  uintptr_t clean[S24_SOC_CLEAN][2];
  size_t n_clean;
  uint64_t r_timeout_ns, r_limit;  /**< the driver's last timeout, in SoC cycles (limit_cycles) */
  uint32_t fed;             /**< bumped whenever beats, a fetch or descriptors went to the hardware:
                                 stream_read's timeout_ns is hardware time with neither results
                                 nor any of these (an IP still taking the backlog is not timed
                                 out; one that takes nothing is, after timeout_ns) */
  int y_cpu;                /**< results stored by the CPU (stream_read, a job's CPU path) since
                                 the drain's last flush of its Y: the next drained job flushes */
  uint32_t r_rd;            /**< beats read from the R ring */
  uint32_t r_avail;         /**< the R engine's received counter, as last read */
  uint64_t write_timeout_cycles;  /**< longest wait for a fill DMA (default 1 s of SoC time) */
  uint32_t dma;             /**< bit S24_PORT_W / S24_PORT_A: packets in main RAM by the fill DMA */
  uint32_t w_fills, a_fills;  /**< the fill DMAs' done counters, as expected */
  s24_soc_pend_t pend[2][S24_SOC_PENDING];  /**< per input port: packets waiting for room */
  size_t pend_head[2], pend_count[2];
  s24_soc_stats_t stats;
} s24_soc_t;

/** The driver's staging memory (s24_mmio_platform_t.scratch): bytes, in main RAM. */
#define S24_SOC_SCRATCH_BYTES (512u * 1024u)

/** Resets the three stream engines and fills *seam (the MMIO seam over soc). */
S24_WARN_UNUSED s24_status_t s24_soc_open(s24_soc_t *soc, s24_seam_t *seam);
/** s24_soc_open, then the driver's s24_dev_open over the seam; the first error. */
S24_WARN_UNUSED static inline s24_status_t s24_soc_dev_open(s24_soc_t *soc, s24_seam_t *seam,
                                                            s24_dev_t *dev) {
  s24_status_t st = s24_soc_open(soc, seam);
  if (st == S24_OK) st = s24_dev_open(dev, seam);
  return st;
}
/** Drops what waits for the rings; safe twice. */
void s24_soc_close(s24_soc_t *soc);
/** The SoC's clock period in whole ns (for s24_dev_t.cycle_ns). */
uint32_t s24_soc_cycle_ns(void);
/** Zeroes the statistics. */
void s24_soc_stats_clear(s24_soc_t *soc);

#ifdef __cplusplus
}
#endif

#endif  // S24_SOC_SEAM_H_
