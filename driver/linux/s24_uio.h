// sparse24 UIO backend: the driver seam on a real board through Linux UIO (untested on hardware).
// A platform part beside the freestanding driver: it needs Linux (mmap, sysfs, clock_gettime).
//
// UNTESTED ON HARDWARE: this backend compiles and is unit-tested against a mock of its register
// windows (tests/driver/test_drv.c), but it has never run on an FPGA. Treat it as a documented
// starting point for a board bring-up.
//
// Expected system: one UIO device (/dev/uioN, e.g. a device-tree node with the generic-uio
// driver) with four memory maps:
//   map0  the s24_top AXI4-Lite register window (docs/registers.md)
//   map1  an AXI4-Stream FIFO (Xilinx PG080 axi_fifo_mm_s) whose TX side feeds s_axis_w
//   map2  the same for s_axis_a
//   map3  one whose RX side receives m_axis_r
// with AXI4-Stream data-width converters between the 32-bit FIFO streams and the wider s24_top
// ports (beats are whole 32-bit words, HW_BEAT register), TLAST passed through.
// Streaming: stream_write waits (timeout) until TDFV shows room for the whole packet, writes the
// words to TDFD and the byte length to TLR, which sends them as one packet with TLAST on its last
// beat (store-and-forward: the TX FIFO must hold one tile of beats). stream_read polls RDFO,
// reads RLR (bytes of the packet at the head, one result tile) and the words from RDFD.
// stream_reset resets both TX FIFOs and the RX FIFO (TDFR/RDFR = 0xA5); if STATUS.R_HELD shows a
// result beat kept across the soft reset, it waits until the RX FIFO has taken it and resets the
// RX FIFO again. Time is CLOCK_MONOTONIC.
// Register reads cannot report SLVERR here (a bus error faults the process instead).
#ifndef S24_UIO_H_
#define S24_UIO_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_drv.h"
#include "s24_drv_host.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Memory windows (UIO maps). */
enum { S24_UIO_WIN_REGS = 0, S24_UIO_WIN_W = 1, S24_UIO_WIN_A = 2, S24_UIO_WIN_R = 3 };

/* AXI4-Stream FIFO (PG080) register offsets used by the backend */
#define S24_FIFO_TDFR 0x08u      /* TX reset: write S24_FIFO_RESET_KEY */
#define S24_FIFO_TDFV 0x0Cu      /* TX vacancy, words */
#define S24_FIFO_TDFD 0x10u      /* TX data write port */
#define S24_FIFO_TLR 0x14u       /* TX length, bytes: sends the packet (TLAST on its end) */
#define S24_FIFO_RDFR 0x18u      /* RX reset: write S24_FIFO_RESET_KEY */
#define S24_FIFO_RDFO 0x1Cu      /* RX occupancy, words */
#define S24_FIFO_RDFD 0x20u      /* RX data read port */
#define S24_FIFO_RLR 0x24u       /* RX length, bytes, of the packet at the head */
#define S24_FIFO_RESET_KEY 0xA5u

/** Caller-owned backend state. */
typedef struct {
  uint32_t (*rd)(void *ctx, int win, uint32_t off);            /**< 32-bit load */
  void (*wr)(void *ctx, int win, uint32_t off, uint32_t value); /**< 32-bit store */
  uint64_t (*now)(void *ctx);                                   /**< monotonic ns */
  void *ctx;
  uint64_t write_timeout_ns;  /**< wait for TX FIFO room; default 1 s */
  uint32_t tx_depth[2];       /**< words the W / A TX FIFOs hold (TDFV right after reset) */
  int fd;                     /**< the /dev/uioN descriptor, -1 with a mock */
  volatile uint32_t *win[4];  /**< mapped windows */
  size_t win_len[4];
  s24_scratch_t scratch;      /**< the driver's staging memory (the seam's scratch) */
} s24_uio_t;

/** Opens /dev/uioN and maps its four windows (sizes from /sys/class/uio/uioN/maps/mapI/size),
 *  then resets the three FIFOs and records the TX FIFO depths: a packet (one tile of beats)
 *  larger than its FIFO is refused with S24_ERR_UNSUPPORTED at once, never waited for.
 *  S24_ERR_IO (nothing left open) if the device or a map is missing. */
S24_WARN_UNUSED s24_status_t s24_uio_open(s24_uio_t *u, const char *dev_path);
/** Uses caller-supplied window accessors instead of mmap (tests, other buses). */
S24_WARN_UNUSED s24_status_t s24_uio_init_mmio(s24_uio_t *u,
                                               uint32_t (*rd)(void *, int, uint32_t),
                                               void (*wr)(void *, int, uint32_t, uint32_t),
                                               uint64_t (*now)(void *), void *ctx);
/** Unmaps and closes; safe on a failed or closed backend. */
void s24_uio_close(s24_uio_t *u);
/** Fills a seam whose ctx is u. */
void s24_uio_seam(s24_uio_t *u, s24_seam_t *seam);

#ifdef __cplusplus
}
#endif

#endif  // S24_UIO_H_
