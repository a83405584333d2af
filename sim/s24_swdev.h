// SPDX-License-Identifier: Apache-2.0
// sparse24 software device: the "model" backend of the driver seam.
//
// A pure-C stand-in for s24_top that behaves like the hardware at the seam: the same registers
// (s24_regs.h), the same stream beat layouts, TLAST and metadata checks, errors and soft reset,
// with the array's arithmetic done in C (int32 wraparound). Stream writes are queued; the device
// steps whenever the driver touches it, one step per beat pair. Its counters are ideal: one
// cycle per step, no pipeline latency, no stalls (the RTL's real numbers come from co-simulation).
// Time advances 10 ns per register access or step, so the driver's timeouts work unchanged.
#ifndef S24_SWDEV_H_
#define S24_SWDEV_H_

#include <stddef.h>
#include <stdint.h>

#include "s24_drv.h"
#include "s24_drv_host.h"
#include "s24_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t *words;
  uint8_t *last;
  size_t words_per_beat;
  size_t head, len, cap;  // in beats
} s24_swq_t;

/** The storage register NAME (S24_REG_NAME) of device d, an lvalue. */
#define S24_SW_REG(d, NAME) ((d)->store[S24_REG_##NAME >> 2])

/** Caller-owned; initialise with s24_swdev_init, release with s24_swdev_free. */
typedef struct {
  s24_geom_t geom;  // beat layout of the array
  uint32_t rows, cols, sparse_n, sparse_m, idx_width, w_words, a_words, r_words;
  // the storage registers of the map (S24_REG_STORE_LIST: CFG_BEATS, CFG_EPI, EPI_BIAS, ...), one
  // word per register offset; S24_SW_REG(d, NAME) names one
  uint32_t store[1u << (S24_REG_ADDR_BITS - 2)];
  uint32_t irq_en, done, err, irq, busy, meta_seen;
  uint32_t cnt_cycles, cnt_beats, tiles_out;
  uint32_t beats, tiles, beat_i, tile_i;
  uint32_t *acc;  // rows x cols
  // fused epilogue (CFG_EPI, CFG_ACT, CFG_COL_TILES, EPI_*): the job's copy of the configuration,
  // EPI_ADDR and EPI_SHIFT (side effects), parameter RAM
  uint32_t epi_depth, epi_addr, epi_shift;
  uint32_t job_epi, job_act, job_col_tiles, cnt_job_cycles;
  // pair mode (CFG_MODE.PAIR, a 2:m array as the default s24_top builds it): the job's array is
  // s24_array_pair of the core's, 2R rows a tile
  uint32_t has_pair, cfg_mode, job_pair;
  s24_geom_t pgeom;  // beat layout seen by a pair-mode job (the same beats, 2R rows of 1 slot)
  uint32_t *epi_ram;  // epi_depth x {bias, mult, shift}
  s24_swq_t q[3]; // S24_PORT_W, S24_PORT_A, S24_PORT_R
  uint64_t time_ns;
  s24_scratch_t scratch;  // the seam's scratch (the driver's staging memory)
} s24_swdev_t;

/** A device with the given array (as the s24_top parameters NumRows, NumCols, SparseN, SparseM). */
S24_WARN_UNUSED s24_status_t s24_swdev_init(s24_swdev_t *d, uint32_t rows, uint32_t cols,
                                            uint32_t sparse_n, uint32_t sparse_m);
void s24_swdev_free(s24_swdev_t *d);
/** Fills a seam whose ctx is d. */
void s24_swdev_seam(s24_swdev_t *d, s24_seam_t *seam);
/** irq output: CTRL.IRQ_EN and any IRQ bit. */
int s24_swdev_irq(const s24_swdev_t *d);

#ifdef __cplusplus
}
#endif

#endif  // S24_SWDEV_H_
