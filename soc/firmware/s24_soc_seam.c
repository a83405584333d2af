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
  s24_streams_a_conv_reset_write(1);  // a fetch cut short (a timeout) stops writing the A ring
  s24_streams_w_rd_reset_write(1);
  s24_streams_a_rd_reset_write(1);
  s24_streams_r_wr_reset_write(1);
  s24_streams_r_wr_consumed_write(0);
}

static s24_status_t plat_stream_reset(void *ctx) {
  s24_soc_t *soc = ctx;
  engines_reset();
  soc->w_wr = soc->a_wr = soc->w_done = soc->a_done = 0;
  soc->a_conv = 0;
  soc->n_tiles = 0;
  soc->r_rd = soc->r_avail = 0;
  soc->w_fills = s24_streams_w_fill_done_read();
  soc->conv_tiles = s24_streams_a_conv_done_read();
  soc->fetch_slot = -1;
  soc->conv_csr_ok = 0;  // (the unit's reset keeps them; written again anyway)
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
  if (port == S24_PORT_A && soc->a_conv) {  // fetched tiles: packets once they are all read
    soc->a_done = s24_streams_a_rd_consumed_read();
    if (soc->a_done != soc->a_wr) return 0;
    soc->a_conv = 0;
    room = ring->depth;
  }
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
    soc->fed++;
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

static int conv_head(s24_soc_t *soc, s24_soc_pend_t *p, s24_status_t *st);
static s24_status_t conv_fetch(s24_soc_t *soc);

// Moves what waits into the rings, in order, as far as they have room; starts the fetch unit on
// the next tile it can take.
static s24_status_t pump(s24_soc_t *soc) {
  s24_status_t st = S24_OK;
  for (int port = S24_PORT_W; port <= S24_PORT_A && st == S24_OK; port++) {
    while (soc->pend_count[port] > 0) {
      s24_soc_pend_t *p = &soc->pend[port][soc->pend_head[port]];
      if (p->conv != NULL) {  // a tile for the fetch unit
        if (!conv_head(soc, p, &st)) break;
      } else {
        p->moved += push_beats(soc, (s24_port_t)port, p->beats + p->moved * p->words, p->words,
                               p->n - p->moved, p->by_dma, &st);
        if (p->moved < p->n || st != S24_OK) break;
      }
      soc->pend_head[port] = (soc->pend_head[port] + 1) % S24_SOC_PENDING;
      soc->pend_count[port]--;
    }
  }
  if (st == S24_OK) st = conv_fetch(soc);
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
      soc->pend[port][at] = (s24_soc_pend_t){.beats = beats, .words = words, .n = n,
                                             .moved = moved, .by_dma = by_dma};
      soc->pend_count[port]++;
    }
  }
  soc->stats.calls[port]++;
  soc->stats.beats[port] += n;
  soc->stats.bytes[port] += (uint64_t)n * words * 4u;
  soc->stats.cycles[port] += soc_cycles() - t0;
  return st;
}

// ---------------------------------------------------------------- the fetch unit (ConvFetch)
// A fetched tile takes `groups` ring positions and streams `total` beats (its descriptors replay
// positions). While tiles are fetched (soc->a_conv), a_wr counts beats streamed (what the reader's
// consumed counter reaches) and a_pos positions written; each tile's {a_pos, a_wr} at its end is
// kept until the reader has consumed it, so a position is rewritten only once no queued
// descriptor names it. Tiles that do not fit yet wait in the A backlog like packets (before
// START the core takes nothing) and are fetched by later calls.

// Releases the tiles the reader has finished; returns the ring positions free.
static uint32_t fetch_room(s24_soc_t *soc) {
  const uint32_t done = s24_streams_a_rd_consumed_read();
  while (soc->n_tiles > 0 && (int32_t)(done - soc->tile_end[soc->tile_head][1]) >= 0) {
    soc->a_rel = soc->tile_end[soc->tile_head][0];
    soc->tile_head = (soc->tile_head + 1) % S24_SOC_TILES;
    soc->n_tiles--;
  }
  return kRingA.depth - (soc->a_pos - soc->a_rel);
}

enum { STEP_WAIT, STEP_FETCH, STEP_ISSUE };

// The fetch unit's layer CSRs (what stays the same from tile to tile of a layer), one list: the
// index of each value conv_csrs computes, and the register (LiteX's CSR_..._ADDR) it goes to.
#define CONV_CSR_LIST(X) \
  X(HW) X(OHW) X(STRD) X(DIL) X(PAD) X(TAPS) X(STEP_X) X(STEP_Y) X(STEP_IMG) X(TAP_X) X(TAP_Y) \
  X(PADW) X(GROUPS)
#define CONV_CSR_INDEX(name) CONV_##name,
#define CONV_CSR_ADDR(name) CSR_S24_STREAMS_A_CONV_##name##_ADDR,
enum { CONV_CSR_LIST(CONV_CSR_INDEX) CONV_CSRS };
static const unsigned long kConvCsr[CONV_CSRS] = {CONV_CSR_LIST(CONV_CSR_ADDR)};

_Static_assert(sizeof(((s24_soc_t *)0)->conv_csr) == CONV_CSRS * sizeof(uint32_t),
               "s24_soc_t.conv_csr holds one value a layer CSR");

static void conv_csrs(const s24_soc_pend_t *p, uint32_t v[CONV_CSRS]) {
  const s24_conv_src_t *s = p->conv;
  const uint32_t c = (uint32_t)s->c, row = (uint32_t)s->w * c, img = (uint32_t)s->h * row;
  const uint32_t step_y = (uint32_t)s->sh * row;
  v[CONV_HW] = (uint32_t)s->h | (uint32_t)s->w << 16;
  v[CONV_OHW] = (uint32_t)s->oh | (uint32_t)s->ow << 16;
  v[CONV_STRD] = (uint32_t)s->sh | (uint32_t)s->sw << 16;
  v[CONV_DIL] = (uint32_t)s->dh | (uint32_t)s->dw << 16;
  v[CONV_PAD] = (uint32_t)s->ph | (uint32_t)s->pw << 16;
  v[CONV_TAPS] = (uint32_t)s->kw | (uint32_t)(s->cs / 4) << 16;
  v[CONV_STEP_X] = (uint32_t)s->sw * c;
  v[CONV_STEP_Y] = step_y;
  v[CONV_STEP_IMG] = img - (uint32_t)(s->oh - 1) * step_y;
  v[CONV_TAP_X] = (uint32_t)s->dw * c - (uint32_t)s->cs + 4u;
  v[CONV_TAP_Y] = (uint32_t)s->dh * row - (uint32_t)(s->kw - 1) * (uint32_t)s->dw * c -
                  (uint32_t)s->cs + 4u;
  v[CONV_PADW] = 0x01010101u * (uint8_t)s->pad;
  v[CONV_GROUPS] = (uint32_t)p->groups;
}

// Starts the fetch unit on tile p: its layer's CSRs where they changed, the tile's first column
// (its position, its window's corner, addresses modulo 2^32), GO. Its ring positions and beats
// are counted now; its descriptors follow once the unit says it is done (conv_head).
static void fetch_start(s24_soc_t *soc, s24_soc_pend_t *p) {
  const s24_conv_src_t *s = p->conv;
  uint32_t v[CONV_CSRS];
  conv_csrs(p, v);
  for (int i = 0; i < CONV_CSRS; i++) {
    if (!soc->conv_csr_ok || soc->conv_csr[i] != v[i]) csr_write_simple(v[i], kConvCsr[i]);
    soc->conv_csr[i] = v[i];
  }
  soc->conv_csr_ok = 1;
  const uint32_t c = (uint32_t)s->c, row = (uint32_t)s->w * c, img = (uint32_t)s->h * row;
  const size_t j0 = p->j0;
  const uint32_t ox = (uint32_t)(j0 % (size_t)s->ow), t = (uint32_t)(j0 / (size_t)s->ow);
  const uint32_t oy = t % (uint32_t)s->oh, b = t / (uint32_t)s->oh;
  const int32_t y0 = (int32_t)(oy * (uint32_t)s->sh) - s->ph;
  const int32_t x0 = (int32_t)(ox * (uint32_t)s->sw) - s->pw;
  const uint32_t base = (uint32_t)(uintptr_t)s->x + (uint32_t)s->c0 + b * img + (uint32_t)y0 * row;
  s24_streams_a_conv_pos_write(ox | oy << 16);
  s24_streams_a_conv_org_write(((uint32_t)y0 & 0xffffu) | (uint32_t)x0 << 16);
  s24_streams_a_conv_addr0_write(base + (uint32_t)x0 * c);
  s24_streams_a_conv_row0_write(base - (uint32_t)s->pw * c);
  const size_t n_cols = (size_t)s->n * (size_t)s->oh * (size_t)s->ow;
  const uint32_t ncols = n_cols - j0 < 8 ? (uint32_t)(n_cols - j0) : 8u;
  p->start = soc->a_pos & (kRingA.depth - 1);
  p->step = STEP_FETCH;
  p->t_go = soc_cycles();
  soc->conv_tiles++;
  soc->fed++;
  s24_streams_a_conv_go_write(p->start | ncols << 16);
  soc->a_wr += p->total;
  soc->a_pos += (uint32_t)p->groups;
  const size_t at = (soc->tile_head + soc->n_tiles) % S24_SOC_TILES;
  soc->tile_end[at][0] = soc->a_pos;
  soc->tile_end[at][1] = soc->a_wr;
  soc->n_tiles++;
}

// The fetch unit: the tile it builds, once done, may issue; then the first tile of the A backlog
// not yet started is started if the ring has its positions (tiles before it may still be issuing
// their descriptors: the unit works while they wait for the reader). In order: a packet in the
// backlog stops the scan.
static s24_status_t conv_fetch(s24_soc_t *soc) {
  if (soc->fetch_slot >= 0) {
    s24_soc_pend_t *f = &soc->pend[S24_PORT_A][soc->fetch_slot];
    if (s24_streams_a_conv_done_read() != soc->conv_tiles) {  // the fetch never waits on the IP
      return soc_cycles() - f->t_go > soc->write_timeout_cycles ? S24_ERR_TIMEOUT : S24_OK;
    }
    f->step = STEP_ISSUE;
    soc->fetch_slot = -1;
  }
  for (size_t k = 0; k < soc->pend_count[S24_PORT_A]; k++) {
    const size_t at = (soc->pend_head[S24_PORT_A] + k) % S24_SOC_PENDING;
    s24_soc_pend_t *p = &soc->pend[S24_PORT_A][at];
    if (p->conv == NULL) break;
    if (p->step != STEP_WAIT) continue;
    const uint32_t room = fetch_room(soc);  // first: it also releases the tiles read (n_tiles)
    if (soc->n_tiles < S24_SOC_TILES && room >= p->groups) {
      fetch_start(soc, p);
      soc->fetch_slot = (int)at;
    }
    break;
  }
  return S24_OK;
}

// The backlog's head tile p issues the reader descriptors its fetch allows: a run of groups sent
// once is one, a group sent r > 1 times r of them (group i at ring position start + i), as the
// reader's queue has slots. 1 when all are issued (p leaves the backlog).
static int conv_head(s24_soc_t *soc, s24_soc_pend_t *p, s24_status_t *st) {
  if (p->step != STEP_ISSUE) *st = conv_fetch(soc);  // its fetch started, or done
  if (*st != S24_OK || p->step != STEP_ISSUE) return 0;
  const uint32_t level = s24_streams_a_rd_desc_level_read();
  uint32_t slots = level < DESC_QUEUE ? DESC_QUEUE - level : 0;
  const uint8_t *reps = p->reps;
  while (p->di < p->groups && slots > 0) {
    const size_t i = p->di;
    size_t run = 1;
    if (reps[i] == 0) {
      p->di++;
      continue;
    }
    if (reps[i] == 1) {
      while (i + run < p->groups && reps[i + run] == 1 && run < DESC_MAX_COUNT) run++;
    }
    p->dsent += (uint32_t)run;
    const uint32_t tlast = p->dsent == p->total ? 1u : 0u;
    s24_streams_a_rd_desc_write(((p->start + (uint32_t)i) & (kRingA.depth - 1)) |
                                (uint32_t)run << 16 | tlast << 31);
    slots--;
    soc->fed++;
    if (reps[i] == 1 || ++p->dr == reps[i]) {
      p->dr = 0;
      p->di += run;
    }
  }
  return p->di == p->groups;
}

// The word path of ConvFetch only: four channels of one tap a 32-bit word of an input in main
// RAM, one word a column of the beat; every field within its CSR's 16 bits.
static s24_status_t plat_stream_conv(void *ctx, const s24_geom_t *g, const s24_conv_src_t *s,
                                     size_t j0, size_t groups, const uint8_t *reps, int fresh) {
  s24_soc_t *soc = ctx;
  const uintptr_t x = (uintptr_t)s->x;
  const uint64_t in_bytes = (uint64_t)s->n * (uint64_t)s->h * (uint64_t)s->w * (uint64_t)s->c;
  const int32_t lim = 0x7fff;
  if (g->sparse_m != 4 || g->cols != 8 || g->a_words != 8 || s->c % 4 != 0 || s->cs % 4 != 0 ||
      s->c0 % 4 != 0 || (x & 3u) != 0 || x < MAIN_RAM_BASE ||
      in_bytes > MAIN_RAM_BASE + MAIN_RAM_SIZE - x || s->h > lim || s->w > lim || s->oh > lim ||
      s->ow > lim || s->sh > lim || s->sw > lim || s->dh > lim || s->dw > lim || s->ph > lim ||
      s->pw > lim || s->kw > lim || s->cs / 4 > lim || groups == 0 || groups > kRingA.depth / 2 ||
      (uint64_t)s->oh * (uint64_t)s->sh > (uint64_t)lim ||
      (uint64_t)s->ow * (uint64_t)s->sw > (uint64_t)lim) {
    return S24_ERR_UNSUPPORTED;
  }
  size_t total = 0;
  for (size_t i = 0; i < groups; i++) total += reps[i];
  if (total == 0 || total > UINT32_MAX) return S24_ERR_ARG;
  const uint64_t t0 = soc_cycles();
  s24_status_t st = pump(soc);
  if (st != S24_OK) return st;
  if (!soc->a_conv) {  // the first tile since packets: their beats are all read by now
    if (soc->pend_count[S24_PORT_A] != 0 || s24_streams_a_rd_consumed_read() != soc->a_wr) {
      return S24_ERR_UNSUPPORTED;
    }
    soc->a_conv = 1;
    soc->a_pos = soc->a_rel = soc->a_wr;
    soc->n_tiles = 0;
  }
  if (soc->pend_count[S24_PORT_A] == S24_SOC_PENDING) return S24_ERR_NOMEM;
  // the input, written through the caches, into the SDRAM (its lines only)
  if (fresh) soc_flush_range(s->x, (size_t)in_bytes);
  const size_t at = (soc->pend_head[S24_PORT_A] + soc->pend_count[S24_PORT_A]) % S24_SOC_PENDING;
  soc->pend[S24_PORT_A][at] = (s24_soc_pend_t){.conv = s, .j0 = j0, .groups = groups,
                                               .reps = reps, .total = (uint32_t)total,
                                               .step = STEP_WAIT};
  soc->pend_count[S24_PORT_A]++;
  st = pump(soc);  // in order: fetched and issued as far as the ring and the reader allow
  soc->stats.calls[S24_PORT_A]++;
  soc->stats.beats[S24_PORT_A] += total;
  soc->stats.bytes[S24_PORT_A] += (uint64_t)groups * 32u;
  soc->stats.cycles[S24_PORT_A] += soc_cycles() - t0;
  return st;
}

static s24_status_t plat_stream_read(void *ctx, s24_port_t port, uint32_t *beats, size_t words,
                                     size_t n, uint8_t *last, uint64_t timeout_ns) {
  s24_soc_t *soc = ctx;
  if (port != S24_PORT_R || beats == NULL || words == 0 || words > 8u) return S24_ERR_ARG;
  const ring_t *ring = &kRingR;
  const uint64_t t0 = soc_cycles();
  if (timeout_ns != soc->r_timeout_ns) {  // (the driver passes the same one: divided once)
    soc->r_timeout_ns = timeout_ns;
    soc->r_limit = timeout_ns / 1000u * (soc_clk_hz() / 1000000u);
  }
  const uint64_t limit = soc->r_limit;
  uint64_t waited = 0;
  s24_status_t st = S24_OK;
  size_t got = 0;
  while (got < n) {
    if (soc->r_avail == soc->r_rd) {
      // The timeout is hardware time with nothing fed: while the backlog still goes into the
      // rings (a GEMM's packets queued before START), the IP is working and the clock restarts.
      const uint64_t w0 = soc_cycles();
      uint64_t since = w0;
      uint32_t fed = soc->fed;
      while ((soc->r_avail = s24_streams_r_wr_received_read()) == soc->r_rd) {
        if (pump(soc) != S24_OK) {
          st = S24_ERR_TIMEOUT;
          break;
        }
        const uint64_t now = soc_cycles();
        if (soc->fed != fed) {
          fed = soc->fed;
          since = now;
        } else if (now - since > limit) {
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
  const s24_mmio_platform_t plat = {soc,         plat_stream_write, plat_stream_read,
                                    plat_stream_reset, plat_now_ns, g_scratch,
                                    sizeof g_scratch, plat_stream_conv,
                                    4u};  // the fetch unit's word path: four channels a word
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
