// sparse24 edge SoC: the bare-metal seam of the host driver (driver/s24_drv.h s24_seam_t) on the
// SoC of soc/soc.py: registers by MMIO, streams through the block-RAM rings beside s24_top
// (soc/s24_stream.py), time from the SoC's cycle counter. The platform part of the driver for
// this SoC; it depends on LiteX's generated csr.h/mem.h/soc.h only (docs/soc.md, "The seam").
//
//   s24_soc_t soc;  s24_seam_t seam;  s24_dev_t dev;
//   s24_soc_open(&soc, &seam);             // resets the stream engines
//   s24_dev_open(&dev, &seam);             // the driver, unchanged
//   dev.cycle_ns = s24_soc_cycle_ns();     // the driver's wait bounds at this clock
//
// stream_write copies the beats into the port's ring with the CPU (uncached stores to its window)
// and queues one descriptor per chunk (TLAST on the packet's last beat); the ring's engine then
// feeds s_axis_w / s_axis_a at one beat per cycle, independently of the CPU. It never waits: what
// does not fit (before START the core takes nothing, so the driver's first tiles of a long K may
// not) is copied to a backlog on the heap and moved into the ring by later seam calls (stream_read
// while it waits for results, read32 while the driver polls STATUS) as the engine makes room. stream_read waits for
// m_axis_r's beats in the R ring and copies them out. With s24_soc_t.dma set for a port, a
// packet that lies in main RAM is moved into the ring by the ring's fill DMA instead (LiteDRAM
// read port, the SDRAM's rate, the CPU waiting): the caller then keeps main RAM coherent, i.e.
// writes back what the CPU wrote (soc_flush_dcache) before such a packet is sent. Each call's cycles and bytes are counted
// (s24_soc_stats_t) so a caller can tell what the memory system delivered per stream.
#ifndef S24_SOC_SEAM_H_
#define S24_SOC_SEAM_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_drv.h"

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
} s24_soc_stats_t;

/** The seam's state; the caller owns it. */
typedef struct {
  uint32_t w_wr, a_wr;      /**< beats written into the W and A rings (monotonic, mod 2^32) */
  uint32_t w_done, a_done;  /**< the engines' consumed counters, as last read */
  uint32_t r_rd;            /**< beats read from the R ring */
  uint32_t r_avail;         /**< the R engine's received counter, as last read */
  uint64_t write_timeout_cycles;  /**< longest wait for ring room (default 1 s of SoC time) */
  uint32_t dma;             /**< bit S24_PORT_W / S24_PORT_A: packets in main RAM by the fill DMA */
  uint32_t w_fills, a_fills;  /**< the fill DMAs' done counters, as expected */
  struct s24_soc_pend *backlog[2];  /**< per input port: beats waiting for ring room (heap) */
  s24_soc_stats_t stats;
} s24_soc_t;

/** Resets the three stream engines and fills *seam (ctx = soc). s24_soc_close frees the backlog. */
S24_WARN_UNUSED s24_status_t s24_soc_open(s24_soc_t *soc, s24_seam_t *seam);
/** Frees what the seam holds (its backlog); safe twice. */
void s24_soc_close(s24_soc_t *soc);
/** The SoC's clock period in whole ns (for s24_dev_t.cycle_ns). */
uint32_t s24_soc_cycle_ns(void);
/** Zeroes the statistics. */
void s24_soc_stats_clear(s24_soc_t *soc);

#ifdef __cplusplus
}
#endif

#endif  // S24_SOC_SEAM_H_
