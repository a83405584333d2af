// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: the platform part of the driver's bare-metal seam (s24_soc_seam.h).
#include "s24_soc_seam.h"

#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>

#include "soc_rt.h"

#define DESC_MAX_COUNT 0x7fffu  // the descriptor's count field (soc/s24_stream.py RingReader)
#define DESC_QUEUE 16u          // RingReader.DESC_DEPTH

typedef struct {
  volatile uint32_t *win;
  uint32_t depth, lane_bits, lanes;
} ring_t;

static const ring_t kRingW = {(volatile uint32_t *)S24_RING_W_BASE, S24_RING_W_DEPTH,
                              S24_RING_W_LANE_BITS, 1u << S24_RING_W_LANE_BITS};
static const ring_t kRingA = {(volatile uint32_t *)S24_RING_A_BASE, S24_RING_A_DEPTH,
                              S24_RING_A_LANE_BITS, 1u << S24_RING_A_LANE_BITS};
static const ring_t kRingR = {(volatile uint32_t *)S24_RING_R_BASE, S24_RING_R_DEPTH,
                              S24_RING_R_LANE_BITS, 1u << S24_RING_R_LANE_BITS};

// the driver's staging memory: main RAM (cached), 16-byte aligned
static uint8_t g_scratch[S24_SOC_SCRATCH_BYTES] __attribute__((aligned(16)));

uint32_t s24_soc_cycle_ns(void) { return (uint32_t)(1000000000u / soc_clk_hz()); }

static uint64_t plat_now_ns(void *ctx) {
  (void)ctx;
  return soc_cycles() * 1000000000ull / soc_clk_hz();
}

// One fill of `count` beats (packed, the ring's words each) from main RAM at src into the ring
// from beat `start`; waits for it.
static s24_status_t fill(s24_soc_t *soc, s24_port_t port, const uint32_t *src, uint32_t start,
                         uint32_t count) {
  uint32_t *n = port == S24_PORT_W ? &soc->w_fills : &soc->a_fills;
  if (port == S24_PORT_W) {
    s24_streams_w_fill_addr_write((uint32_t)(uintptr_t)src);
    s24_streams_w_fill_go_write(start | count << 16);
  } else {
    s24_streams_a_fill_addr_write((uint32_t)(uintptr_t)src);
    s24_streams_a_fill_go_write(start | count << 16);
  }
  (*n)++;
  const uint64_t t0 = soc_cycles();
  while ((port == S24_PORT_W ? s24_streams_w_fill_done_read() : s24_streams_a_fill_done_read()) != *n) {
    if (soc_cycles() - t0 > soc->write_timeout_cycles) return S24_ERR_TIMEOUT;
  }
  return S24_OK;
}

static void engines_reset(void) {
  s24_streams_w_rd_reset_write(1);
  s24_streams_a_rd_reset_write(1);
  s24_streams_r_wr_reset_write(1);
  s24_streams_r_wr_consumed_write(0);
}

static s24_status_t plat_stream_reset(void *ctx) {
  s24_soc_t *soc = ctx;
  engines_reset();
  soc->w_wr = soc->a_wr = soc->w_done = soc->a_done = 0;
  soc->r_rd = soc->r_avail = 0;
  soc->w_fills = s24_streams_w_fill_done_read();
  soc->a_fills = s24_streams_a_fill_done_read();
  memset(soc->pend_head, 0, sizeof soc->pend_head);
  memset(soc->pend_count, 0, sizeof soc->pend_count);
  return S24_OK;
}

// Beats a ring has room for now, and descriptors the reader can still queue; the engine's
// counters are read again only when the cached ones say there is none.
static uint32_t ring_room(s24_soc_t *soc, s24_port_t port, uint32_t *slots) {
  const ring_t *ring = port == S24_PORT_W ? &kRingW : &kRingA;
  uint32_t *wr = port == S24_PORT_W ? &soc->w_wr : &soc->a_wr;
  uint32_t *done = port == S24_PORT_W ? &soc->w_done : &soc->a_done;
  uint32_t room = ring->depth - (*wr - *done);
  if (room == 0) {
    *done = port == S24_PORT_W ? s24_streams_w_rd_consumed_read() : s24_streams_a_rd_consumed_read();
    room = ring->depth - (*wr - *done);
  }
  const uint32_t level = port == S24_PORT_W ? s24_streams_w_rd_desc_level_read()
                                            : s24_streams_a_rd_desc_level_read();
  *slots = level < DESC_QUEUE ? DESC_QUEUE - level : 0;
  return room;
}

// Moves up to n beats (words each) into the port's ring without waiting: one descriptor per
// chunk, TLAST on the n-th beat. Returns the beats moved.
static size_t push_beats(s24_soc_t *soc, s24_port_t port, const uint32_t *src, size_t words,
                         size_t n, int by_dma, s24_status_t *st) {
  const ring_t *ring = port == S24_PORT_W ? &kRingW : &kRingA;
  uint32_t *wr = port == S24_PORT_W ? &soc->w_wr : &soc->a_wr;
  size_t moved = 0;
  uint32_t slots = 0, room = ring_room(soc, port, &slots);
  while (moved < n && room > 0 && slots > 0) {
    uint32_t chunk = n - moved < room ? (uint32_t)(n - moved) : room;
    if (chunk > DESC_MAX_COUNT) chunk = DESC_MAX_COUNT;
    const uint32_t start = *wr & (ring->depth - 1);
    const uint32_t *from = src + moved * words;
    if (by_dma) {  // the fill's beat counter wraps at the ring's depth like the reader's
      *st = fill(soc, port, from, start, chunk);
      if (*st != S24_OK) break;
    } else {
      for (uint32_t i = 0; i < chunk; i++) {
        volatile uint32_t *dst = ring->win + (((start + i) & (ring->depth - 1)) << ring->lane_bits);
        for (size_t k = 0; k < words; k++) dst[k] = from[k];
        from += words;
      }
    }
    moved += chunk;
    const uint32_t tlast = moved == n ? 1u : 0u;
    const uint32_t desc = start | (chunk << 16) | (tlast << 31);
#ifndef SOC_FAULT_NO_DESC  // (soc/tests/faults.sh's firmware: the IP never gets these beats)
    if (port == S24_PORT_W) {
      s24_streams_w_rd_desc_write(desc);
    } else {
      s24_streams_a_rd_desc_write(desc);
    }
#else
    (void)desc;
#endif
    *wr += chunk;
    room -= chunk;
    slots--;
  }
  return moved;
}

// Moves what waits into the rings, in order, as far as they have room.
static s24_status_t pump(s24_soc_t *soc) {
  s24_status_t st = S24_OK;
  for (int port = S24_PORT_W; port <= S24_PORT_A && st == S24_OK; port++) {
    while (soc->pend_count[port] > 0) {
      s24_soc_pend_t *p = &soc->pend[port][soc->pend_head[port]];
      p->moved += push_beats(soc, (s24_port_t)port, p->beats + p->moved * p->words, p->words,
                             p->n - p->moved, p->by_dma, &st);
      if (p->moved < p->n || st != S24_OK) break;
      soc->pend_head[port] = (soc->pend_head[port] + 1) % S24_SOC_PENDING;
      soc->pend_count[port]--;
    }
  }
  return st;
}

static s24_status_t plat_stream_write(void *ctx, s24_port_t port, const uint32_t *beats,
                                      size_t words, size_t n) {
  s24_soc_t *soc = ctx;
  if ((port != S24_PORT_W && port != S24_PORT_A) || beats == NULL || n == 0) return S24_ERR_ARG;
  const ring_t *ring = port == S24_PORT_W ? &kRingW : &kRingA;
  if (words == 0 || words > ring->lanes || n > SIZE_MAX / 4u / words) return S24_ERR_ARG;
  const uint32_t ring_words = port == S24_PORT_W ? 5u : 8u;  // the fill DMA packs whole beats
  const uintptr_t lo = (uintptr_t)beats, hi = lo + n * words * 4u;
  const int by_dma = (soc->dma >> port & 1u) && words == ring_words && (lo & 3u) == 0 &&
                     lo >= MAIN_RAM_BASE && hi <= MAIN_RAM_BASE + MAIN_RAM_SIZE;
  const uint64_t t0 = soc_cycles();
  s24_status_t st = pump(soc);
  size_t moved = 0;
  if (st == S24_OK && soc->pend_count[port] == 0) {  // in order: straight in while nothing waits
    moved = push_beats(soc, port, beats, words, n, by_dma, &st);
  }
  if (st == S24_OK && moved < n) {  // the rest waits where it is
    if (soc->pend_count[port] == S24_SOC_PENDING) {
      st = S24_ERR_NOMEM;
    } else {
      const size_t at = (soc->pend_head[port] + soc->pend_count[port]) % S24_SOC_PENDING;
      soc->pend[port][at] = (s24_soc_pend_t){beats, words, n, moved, by_dma};
      soc->pend_count[port]++;
    }
  }
  soc->stats.calls[port]++;
  soc->stats.beats[port] += n;
  soc->stats.bytes[port] += (uint64_t)n * words * 4u;
  soc->stats.cycles[port] += soc_cycles() - t0;
  return st;
}

static s24_status_t plat_stream_read(void *ctx, s24_port_t port, uint32_t *beats, size_t words,
                                     size_t n, uint8_t *last, uint64_t timeout_ns) {
  s24_soc_t *soc = ctx;
  if (port != S24_PORT_R || beats == NULL || words == 0 || words > 8u) return S24_ERR_ARG;
  const ring_t *ring = &kRingR;
  const uint64_t t0 = soc_cycles();
  const uint64_t limit = timeout_ns / 1000u * (soc_clk_hz() / 1000000u);
  uint64_t waited = 0;
  s24_status_t st = S24_OK;
  size_t got = 0;
  while (got < n) {
    if (soc->r_avail == soc->r_rd) {
      const uint64_t w0 = soc_cycles();
      while ((soc->r_avail = s24_streams_r_wr_received_read()) == soc->r_rd) {
        if (pump(soc) != S24_OK || soc_cycles() - w0 > limit) {
          st = S24_ERR_TIMEOUT;
          break;
        }
      }
      waited += soc_cycles() - w0;
      if (st != S24_OK) break;
    }
    while (got < n && soc->r_rd != soc->r_avail) {
      volatile const uint32_t *src = ring->win + ((soc->r_rd & (ring->depth - 1)) << ring->lane_bits);
      uint32_t *dst = beats + got * words;
      for (size_t k = 0; k < words; k++) dst[k] = src[k];
      if (last != NULL) last[got] = (uint8_t)(src[8] & 1u);
      soc->r_rd++;
      got++;
    }
    s24_streams_r_wr_consumed_write(soc->r_rd);
  }
  soc->stats.calls[S24_PORT_R]++;
  soc->stats.beats[S24_PORT_R] += got;
  soc->stats.bytes[S24_PORT_R] += (uint64_t)got * words * 4u;
  soc->stats.cycles[S24_PORT_R] += soc_cycles() - t0;
  soc->stats.wait[S24_PORT_R] += waited;
  return st;
}

void s24_soc_stats_clear(s24_soc_t *soc) { memset(&soc->stats, 0, sizeof soc->stats); }

s24_status_t s24_soc_open(s24_soc_t *soc, s24_seam_t *seam) {
  if (soc == NULL || seam == NULL) return S24_ERR_ARG;
  memset(soc, 0, sizeof *soc);
  soc->write_timeout_cycles = soc_clk_hz();
  const s24_mmio_platform_t plat = {soc, plat_stream_write, plat_stream_read, plat_stream_reset,
                                    plat_now_ns, g_scratch, sizeof g_scratch};
  s24_status_t st = s24_mmio_init(&soc->mmio, S24_REGS_BASE, &plat);
  if (st != S24_OK) return st;
  (void)plat_stream_reset(soc);
  s24_mmio_seam(&soc->mmio, seam);
  return S24_OK;
}

void s24_soc_close(s24_soc_t *soc) {
  if (soc != NULL) {
    memset(soc->pend_head, 0, sizeof soc->pend_head);
    memset(soc->pend_count, 0, sizeof soc->pend_count);
  }
}
