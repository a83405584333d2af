// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: the platform part of the driver's bare-metal seam (s24_soc_seam.h).
#include "s24_soc_seam.h"

#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>

#include "soc_rt.h"

#define DESC_MAX_COUNT 0x7fffu  // the descriptor's count field (soc/s24_stream.py RingReader)
// its repeat field (each beat read rep + 1 times), above the ring position
#define DESC_REP_SHIFT S24_RING_DESC_REP_SHIFT
#define DESC_REP_MAX (1u << S24_RING_DESC_REP_BITS)
#define DESC_POS_MASK ((1u << DESC_REP_SHIFT) - 1u)
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
  const uint32_t hz = soc_clk_hz();
  if (1000000000u % hz == 0) return soc_cycles() * (1000000000u / hz);  // (no 64-bit division)
  return soc_cycles() * 1000000000ull / hz;
}

// A wait's limit in SoC cycles for the driver's timeout_ns (soc->r_limit; the driver passes the same
// one every time: divided once)
static uint64_t limit_cycles(s24_soc_t *soc, uint64_t timeout_ns) {
  if (timeout_ns != soc->r_timeout_ns) {
    soc->r_timeout_ns = timeout_ns;
    soc->r_limit = timeout_ns / 1000u * (soc_clk_hz() / 1000000u);
  }
  return soc->r_limit;
}

// Waits until a unit's done counter (done()) reaches `want`, at most `limit` cycles; else resets the
// unit (reset(1)) and returns S24_ERR_TIMEOUT. *waited (if not NULL) gets the cycles waited.
static s24_status_t unit_wait(uint32_t (*done)(void), uint32_t want, void (*reset)(uint32_t),
                              uint64_t limit, uint64_t *waited) {
  const uint64_t t0 = soc_cycles();
  s24_status_t st = S24_OK;
  while (done() != want) {
    if (soc_cycles() - t0 > limit) {
      reset(1);
      st = S24_ERR_TIMEOUT;
      break;
    }
  }
  if (waited != NULL) *waited += soc_cycles() - t0;
  return st;
}

// ------------------------------------------------------------------ out of the caches
// The DMAs (the fetch unit and its buffer's fill, the drain, the ADD unit) bypass the L2 and the
// D$: before a DMA reads a range, its dirty lines must be written back; before it writes one,
// its lines must be out of the L2 (a dirty line would later land on the DMA's data, a clean one
// hide it). soc_flush_range does both, at about 120 cycles a 32-byte line, by reading a line of
// the same L2 set in the code (never a tensor), whose lines then take the L2's places. The seam remembers the ranges it has
// flushed or its DMAs have written since (S24_SOC_CLEAN of them) and flushes a range only when
// it is not one of them; it forgets them all whenever the CPU may have touched tensors: at the
// runtime's word (cpu_touch, before a host operator or a copy), and on every path where the
// driver reads or writes them itself (packets, results read by the CPU, a reset).

// The CPU may have touched tensors: nothing is known clean, and the fetch unit's buffer no longer
// holds a known input (one at the same address may have been rewritten)
static void clean_forget(s24_soc_t *soc) {
  soc->n_clean = 0;
  soc->ib_x = NULL;
}

static int clean_has(const s24_soc_t *soc, uintptr_t lo, uintptr_t hi) {
  for (size_t i = 0; i < soc->n_clean; i++) {
    if (soc->clean[i][0] <= lo && hi <= soc->clean[i][1]) return 1;
  }
  return 0;
}

// Forgets the ranges that overlap [lo, hi)
static void clean_drop(s24_soc_t *soc, uintptr_t lo, uintptr_t hi) {
  size_t k = 0;
  for (size_t i = 0; i < soc->n_clean; i++) {
    if (soc->clean[i][1] <= lo || hi <= soc->clean[i][0]) {
      soc->clean[k][0] = soc->clean[i][0];
      soc->clean[k][1] = soc->clean[i][1];
      k++;
    }
  }
  soc->n_clean = k;
}

#define LINE_DOWN(a) ((a) & ~(uintptr_t)31u)
#define LINE_UP(a) (((a) + 31u) & ~(uintptr_t)31u)

// soc_flush_range of [lo, hi) (whole 32-byte lines); lines of main RAM's first 2 x S24_L2_SIZE
// bytes (code, never a tensor's) took their places, and are no longer known clean
static void flush_lines(s24_soc_t *soc, uintptr_t lo, uintptr_t hi) {
  if (hi <= lo) return;
  soc_flush_range((const void *)lo, hi - lo);
  clean_drop(soc, MAIN_RAM_BASE, MAIN_RAM_BASE + 2u * S24_L2_SIZE);
}

// [p, p + n) written back and out of the caches, unless known to be. Only whole 32-byte lines of a
// range are remembered: a line it shares with other data comes back into the caches when the CPU
// reads that data, so its first and last lines, where it shares them, are flushed every time (two
// reads of about 120 cycles).
static void flush_tracked(s24_soc_t *soc, const void *p, size_t n) {
  if (n == 0) return;
  const uintptr_t lo = (uintptr_t)p, hi = lo + n;
  const uintptr_t in_lo = LINE_UP(lo), in_hi = LINE_DOWN(hi);  // its own lines
  if (in_lo < in_hi && clean_has(soc, in_lo, in_hi)) {
    flush_lines(soc, LINE_DOWN(lo), in_lo);  // the shared ends only
    flush_lines(soc, in_hi, LINE_UP(hi));
  } else {
    flush_lines(soc, LINE_DOWN(lo), LINE_UP(hi));
  }
  if (in_lo >= in_hi) return;
  clean_drop(soc, in_lo, in_hi);
  if (soc->n_clean == S24_SOC_CLEAN) {  // full: the oldest goes
    memmove(soc->clean[0], soc->clean[1], sizeof soc->clean[0] * (S24_SOC_CLEAN - 1u));
    soc->n_clean--;
  }
  soc->clean[soc->n_clean][0] = in_lo;
  soc->clean[soc->n_clean][1] = in_hi;
  soc->n_clean++;
}

static void plat_cpu_touch(void *ctx) { clean_forget(ctx); }

// A DMA is about to write [p, p + n): the fetch unit's buffer no longer holds the input there
static void ib_written(s24_soc_t *soc, const void *p, size_t n) {
  const uintptr_t lo = (uintptr_t)p, hi = lo + n, b = (uintptr_t)soc->ib_x;
  if (soc->ib_x != NULL && lo < b + soc->ib_bytes && b < hi) soc->ib_x = NULL;
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
  s24_streams_seq_reset_write(1);  // first: it feeds the others
  s24_streams_seq_ctl_write(0);    // the R writer's slots from its consumed CSR
  s24_streams_r_drain_reset_write(1);  // first: the R writer's reset zeroes what it drains from
  s24_streams_a_conv_reset_write(1);  // a fetch cut short (a timeout) stops writing the A ring
  s24_streams_w_rd_reset_write(1);
  s24_streams_a_rd_reset_write(1);
  s24_streams_r_wr_reset_write(1);
  s24_streams_r_wr_consumed_write(0);
  s24_streams_r_drain_ib_write(0);  // (a CSR: the drain's reset keeps it)
  s24_eltadd_reset_write(1);
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
  soc->conv_ib = -1;
  soc->ib_x = NULL;      // (a fill cut short)
  clean_forget(soc);
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
  clean_forget(soc);  // the driver built these beats from tensors
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

static void conv_csrs(const s24_conv_src_t *s, size_t groups, uint32_t v[CONV_CSRS]) {
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
  v[CONV_GROUPS] = (uint32_t)groups;
}

// The fetch unit's layer CSRs for src and `groups`, those that changed.
static void conv_layer(s24_soc_t *soc, const s24_conv_src_t *src, size_t groups) {
  uint32_t v[CONV_CSRS];
  conv_csrs(src, groups, v);
  for (int i = 0; i < CONV_CSRS; i++) {
    if (!soc->conv_csr_ok || soc->conv_csr[i] != v[i]) csr_write_simple(v[i], kConvCsr[i]);
    soc->conv_csr[i] = v[i];
  }
  soc->conv_csr_ok = 1;
}

// An output column's place: x, y and image of the output position it computes.
typedef struct {
  uint32_t ox, oy, b;
} conv_at_t;

static conv_at_t conv_at(const s24_conv_src_t *s, size_t j) {
  const uint32_t t = (uint32_t)(j / (size_t)s->ow);
  return (conv_at_t){(uint32_t)(j % (size_t)s->ow), t % (uint32_t)s->oh, t / (uint32_t)s->oh};
}

// GO: the fetch unit builds `ncols` columns into the A ring from position `start`, from the column
// its position CSRs name or (cont) the one after the previous tile's last. Counted in conv_tiles
// (the unit's done counter reaches that).
static void conv_start(s24_soc_t *soc, uint32_t ncols, uint32_t start, int cont) {
  soc->conv_tiles++;
  soc->fed++;
  s24_streams_a_conv_go_write(start | ncols << 16 | (cont ? 1u << 24 : 0u));
}

// The fetch unit's position CSRs for a tile whose first column is at p, channels from c0 (its
// row tile's window, s24_conv_c0): its position, its window's corner, addresses modulo 2^32
// (what GO without `continue` starts from).
static void conv_place(const s24_soc_t *soc, const s24_conv_src_t *s, int32_t c0,
                       const conv_at_t *p) {
  const uint32_t c = (uint32_t)s->c, row = (uint32_t)s->w * c, img = (uint32_t)s->h * row;
  const int32_t y0 = (int32_t)(p->oy * (uint32_t)s->sh) - s->ph;
  const int32_t x0 = (int32_t)(p->ox * (uint32_t)s->sw) - s->pw;
  // in the buffer: relative to the input's first word there
  const uint32_t x = soc->conv_ib == 1 ? (uint32_t)soc->ib_off * 4u : (uint32_t)(uintptr_t)s->x;
  const uint32_t base = x + (uint32_t)c0 + p->b * img + (uint32_t)y0 * row;
  s24_streams_a_conv_pos_write(p->ox | p->oy << 16);
  s24_streams_a_conv_org_write(((uint32_t)y0 & 0xffffu) | (uint32_t)x0 << 16);
  s24_streams_a_conv_addr0_write(base + (uint32_t)x0 * c);
  s24_streams_a_conv_row0_write(base - (uint32_t)s->pw * c);
}

// Starts the fetch unit (its layer CSRs written) on the column tile whose first column is at p,
// `ncols` columns, into the A ring from position `start`.
static void conv_go(s24_soc_t *soc, const s24_conv_src_t *s, int32_t c0, const conv_at_t *p,
                    uint32_t ncols, uint32_t start) {
  conv_place(soc, s, c0, p);
  conv_start(soc, ncols, start, 0);
}

// The columns of the column tile from j0 (at most 8).
static uint32_t conv_ncols(const s24_conv_src_t *s, size_t j0) {
  const size_t n_cols = (size_t)s->n * (size_t)s->oh * (size_t)s->ow;
  return n_cols - j0 < 8 ? (uint32_t)(n_cols - j0) : 8u;
}

// Starts the fetch unit on tile p. Its ring positions and beats are counted now; its
// descriptors follow once the unit says it is done (conv_head).
// The input's bytes (conv_ok bounds them within main RAM).
static size_t conv_in_bytes(const s24_conv_src_t *s) {
  return (size_t)s->n * (size_t)s->h * (size_t)s->w * (size_t)s->c;
}

// The unit's tap source: its input buffer (on) or main RAM, its CSR written when it changes.
static void conv_src(s24_soc_t *soc, int on) {
  if (soc->conv_ib != on) s24_streams_a_conv_ib_write((uint32_t)on);
  soc->conv_ib = on;
}

// The job's input in the fetch unit's buffer, when it fits: copied there by the unit's fill
// (from the SDRAM: the caller wrote it back; to the buffer's word 0) unless the buffer holds it
// already (ib_x: filled, or the drain wrote it there as an earlier job's results; whatever may
// have changed it since, the CPU's touch or a DMA over it, dropped ib_x), even where the runtime
// calls it fresh (a new layer's input). Returns 1 if the taps are to come from the buffer, 0 for
// main RAM; *st gets S24_ERR_TIMEOUT if the fill took longer than `limit` cycles (the unit then
// reset).
static int conv_buffer(s24_soc_t *soc, const s24_conv_src_t *s, int fresh, uint64_t limit,
                       uint64_t *waited, s24_status_t *st) {
  const size_t bytes = conv_in_bytes(s);
  if (bytes > S24_CONV_IB_WORDS * 4u || bytes % 4u != 0) return 0;
  if (soc->ib_x == s->x && soc->ib_bytes == bytes) {
    soc->stats.ib_kept += (uint64_t)(fresh != 0);
    return 1;
  }
  soc->stats.ib_fills++;
  soc->ib_x = NULL;
  soc->ib_off = 0;
  const uint32_t done = s24_streams_a_conv_ib_done_read() + 1u;
  s24_streams_a_conv_ib_addr_write((uint32_t)(uintptr_t)s->x);
  s24_streams_a_conv_ib_go_write((uint32_t)(bytes / 4u));
  *st = unit_wait(s24_streams_a_conv_ib_done_read, done, s24_streams_a_conv_reset_write, limit,
                  waited);
  if (*st != S24_OK) return 0;
  soc->ib_x = s->x;
  soc->ib_bytes = bytes;
  return 1;
}

static void fetch_start(s24_soc_t *soc, s24_soc_pend_t *p) {
  conv_src(soc, 0);
  conv_layer(soc, p->conv, p->groups);
  p->start = soc->a_pos & (kRingA.depth - 1);
  p->step = STEP_FETCH;
  p->t_go = soc_cycles();
  const conv_at_t col = conv_at(p->conv, p->j0);
  conv_go(soc, p->conv, p->c0, &col, conv_ncols(p->conv, p->j0), p->start);
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

// A tile's reader descriptors (fetched tiles: group i at ring position start + i, read reps[i]
// times in a row), one at a time: the next from group *g (*dr of its reads made), relative to the
// tile's first position, without TLAST; *beats gets the reads it makes (0: none left). A run of
// groups read the same r <= DESC_REP_MAX times is one descriptor (the reader repeats each beat); a
// group read more often takes DESC_REP_MAX reads a descriptor; groups read 0 times are skipped.
static uint32_t desc_next(const uint8_t *reps, size_t groups, size_t *g, uint32_t *dr,
                          uint32_t *beats) {
  while (*g < groups && reps[*g] == 0) (*g)++;
  *beats = 0;
  if (*g >= groups) return 0;
  const size_t i = *g;
  const uint32_t r = reps[i];
  if (r <= DESC_REP_MAX) {
    size_t run = 1;
    while (i + run < groups && reps[i + run] == r && run < DESC_MAX_COUNT) run++;
    *g += run;
    *beats = (uint32_t)run * r;
    return (uint32_t)i | (r - 1u) << DESC_REP_SHIFT | (uint32_t)run << 16;
  }
  const uint32_t n = r - *dr < DESC_REP_MAX ? r - *dr : DESC_REP_MAX;
  *dr += n;
  if (*dr == r) {
    *dr = 0;
    (*g)++;
  }
  *beats = n;
  return (uint32_t)i | (n - 1u) << DESC_REP_SHIFT | 1u << 16;
}

// A descriptor relative to a tile's first ring position, placed at `start` (modulo the ring)
static uint32_t desc_at(uint32_t d, uint32_t start) {
  return ((d + start) & (kRingA.depth - 1u)) | (d & ~DESC_POS_MASK);
}

// The backlog's head tile p issues the reader descriptors its fetch allows: a run of groups sent
// once is one, a group sent r > 1 times r of them (group i at ring position start + i), as the
// reader's queue has slots. 1 when all are issued (p leaves the backlog).
static int conv_head(s24_soc_t *soc, s24_soc_pend_t *p, s24_status_t *st) {
  if (p->step != STEP_ISSUE) *st = conv_fetch(soc);  // its fetch started, or done
  if (*st != S24_OK || p->step != STEP_ISSUE) return 0;
  const uint32_t level = s24_streams_a_rd_desc_level_read();
  uint32_t slots = level < DESC_QUEUE ? DESC_QUEUE - level : 0;
  while (p->di < p->groups && slots > 0) {
    uint32_t beats = 0;
    const uint32_t d = desc_next(p->reps, p->groups, &p->di, &p->dr, &beats);
    if (beats == 0) break;  // (the rest read 0 times)
    p->dsent += beats;
    const uint32_t tlast = p->dsent == p->total ? 1u : 0u;
    s24_streams_a_rd_desc_write(desc_at(d, p->start) | tlast << 31);
    slots--;
    soc->fed++;
  }
  return p->di == p->groups;
}

// The word path of ConvFetch only: four channels of one tap a 32-bit word of an input in main
// RAM, one word a column of the beat; every field within its CSR's 16 bits.
static int conv_ok(const s24_geom_t *g, const s24_conv_src_t *s, size_t groups) {
  const uintptr_t x = (uintptr_t)s->x;
  const uint64_t in_bytes = (uint64_t)s->n * (uint64_t)s->h * (uint64_t)s->w * (uint64_t)s->c;
  const int32_t lim = 0x7fff;
  return !(g->sparse_m != 4 || g->cols != 8 || g->a_words != 8 || s->c % 4 != 0 ||
           s->cs % 4 != 0 || s->c0 % 4 != 0 || (x & 3u) != 0 || x < MAIN_RAM_BASE ||
           in_bytes > MAIN_RAM_BASE + MAIN_RAM_SIZE - x || s->h > lim || s->w > lim ||
           s->oh > lim || s->ow > lim || s->sh > lim || s->sw > lim || s->dh > lim ||
           s->dw > lim || s->ph > lim || s->pw > lim || s->kw > lim || s->cs / 4 > lim ||
           groups == 0 || groups > kRingA.depth / 2 ||
           (uint64_t)s->oh * (uint64_t)s->sh > (uint64_t)lim ||
           (uint64_t)s->ow * (uint64_t)s->sw > (uint64_t)lim);
}

static s24_status_t plat_stream_conv(void *ctx, const s24_geom_t *g, const s24_conv_src_t *s,
                                     size_t row, size_t j0, size_t groups, const uint8_t *reps,
                                     int fresh) {
  s24_soc_t *soc = ctx;
  if (!conv_ok(g, s, groups)) return S24_ERR_UNSUPPORTED;
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
  if (fresh) {
    flush_tracked(soc, s->x, conv_in_bytes(s));
    soc->ib_x = NULL;  // the input may have changed: the buffer's copy is not known good
  }
  const size_t at = (soc->pend_head[S24_PORT_A] + soc->pend_count[S24_PORT_A]) % S24_SOC_PENDING;
  soc->pend[S24_PORT_A][at] = (s24_soc_pend_t){.conv = s, .c0 = s24_conv_c0(s, row),
                                               .j0 = j0, .groups = groups,
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
  const uint64_t limit = limit_cycles(soc, timeout_ns);
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
  soc->y_cpu = 1;  // the caller stores these results through the caches
  clean_forget(soc);
  soc->stats.calls[S24_PORT_R]++;
  soc->stats.beats[S24_PORT_R] += got;
  soc->stats.bytes[S24_PORT_R] += (uint64_t)got * words * 4u;
  soc->stats.cycles[S24_PORT_R] += soc_cycles() - t0;
  soc->stats.wait[S24_PORT_R] += waited;
  return st;
}

// ------------------------------------------------------------------ a whole job (stream_job)
// One loop over the job's tiles that stays in the I$ (with s24_r8_tile): per tile, the fetch
// unit builds the activations in the A ring while the IP runs earlier tiles; its reader gets
// the tile's descriptors once the fetch is done; the W ring holds a row tile's beats, moved in
// once by the fill DMA and replayed for each column tile (two halves: row tile i in half i % 2,
// filled once the reader has streamed the row tile two before); the results are read straight
// from the R ring into Y. The hardware's counters are read only when the cached ones say it is
// needed; the clock only while nothing progresses (the timeout: no progress for timeout_ns).

#define JOB_DESCS S24_SEQ_DL_HALF  // A descriptors a row tile's tiles may take (JobSeq's list half;
                                   // more: tile by tile)

// The A reader's descriptors of a tile of a row tile with these beat counts (desc_next), relative
// to the tile's first ring position, TLAST on the last: into dl (if not NULL; at most cap), or
// (seq) straight into the job sequencer's list (its `dl` CSR; the caller set `dl_at`), each
// written once (stores go to the bus on this CPU). Returns how many; *beats gets the beats they
// cover (the row tile's: the caller checks them against the job's).
static size_t job_descs(const uint8_t *reps, size_t G, uint32_t *dl, size_t cap, int seq,
                        size_t *beats) {
  size_t n = 0, nb = 0, g = 0;
  uint32_t held = 0, dr = 0, b = 0;  // the last one made, passed on once the next is (TLAST on the last)
  for (;;) {
    const uint32_t d = desc_next(reps, G, &g, &dr, &b);
    if (b == 0) break;
    if (n > 0 && seq) s24_streams_seq_dl_write(held);
    if (n > 0 && dl != NULL && n - 1 < cap) dl[n - 1] = held;
    held = d;
    nb += b;
    n++;
  }
  if (n > 0 && seq) s24_streams_seq_dl_write(held | 1u << 31);
  if (n > 0 && dl != NULL && n <= cap) dl[n - 1] = held | 1u << 31;
  *beats = nb;
  return n;
}

// The job by the sequencer (JobSeq, soc/s24_stream.py), when the drain writes Y: per row tile i,
// once row tile i - 2 is issued and the W reader has taken its weights (their half, and the
// sequencer's list half i % 2, are then free), the fill DMA moves its weights into half i % 2,
// its A descriptors go into the list and the row tile is queued; the sequencer fetches, issues
// and drains its column tiles itself (fetching them once, for the first row tile, when they fit
// the A ring and every row tile reads them: reuse). The IP is started once the first tile is issued; the job
// ends when the drain has written all T tiles. The clock is read only while waiting; the timeout
// is hardware time without a tile issued or written.
typedef struct {
  uint32_t mark;   // tiles issued + tiles drained, as last read
  uint64_t since;  // the cycle it last changed
} seq_idle_t;

// 0 once the sequencer and the drain have made no progress for the job's limit
static int seq_alive(const s24_soc_t *soc, seq_idle_t *w) {
  const uint32_t mark = s24_streams_seq_issued_read() + s24_streams_r_drain_done_read();
  const uint64_t now = soc_cycles();
  if (mark != w->mark) {
    w->mark = mark;
    w->since = now;
  }
  return now - w->since <= soc->r_limit;
}

static s24_status_t seq_job(s24_soc_t *soc, const s24_seam_job_t *jb, uint32_t a0, uint32_t w0,
                            uint32_t drained0, uint64_t *waited) {
  const size_t CT = jb->col_tiles, R = jb->row_tiles, G = jb->groups, nb = jb->beats;
  const uint32_t T = (uint32_t)(R * CT), half = kRingW.depth / 2;
  // every row tile starts at column 0, of its channel window: the sequencer adds the row
  // tile's offset (row_x) to the first's
  const int32_t c0 = s24_conv_c0(jb->src, jb->row0);
  conv_place(soc, jb->src, c0, &(conv_at_t){0, 0, 0});
  s24_streams_seq_a0_write(a0);
  s24_streams_seq_cols_write((uint32_t)jb->n_cols);
  // the drain frees the R ring; reuse: row tiles that all read the same columns (no channel
  // windows) read the first one's column tiles where it left them, when they all fit the ring
  const int reuse = jb->src->gr == 0 && R > 1 && CT * G <= kRingA.depth;
  s24_streams_seq_ctl_write(s24_r8_beats(jb->rows) | 1u << 8 | (uint32_t)reuse << 9);
  s24_streams_seq_job_write((uint32_t)G | (uint32_t)nb << 16);
  seq_idle_t w = {s24_streams_r_drain_done_read(), soc_cycles()};
  s24_status_t st = S24_OK;
  for (size_t i = 0; i < R && st == S24_OK; i++) {
    if (i >= 2) {  // row tile i - 2 issued, its weights taken
      const uint32_t w_end = w0 + (uint32_t)((i - 1) * CT * nb);
      const uint64_t t0 = soc_cycles();
      while (s24_streams_seq_rows_read() < i - 1 ||
             (int32_t)(s24_streams_w_rd_consumed_read() - w_end) < 0) {
        if (!seq_alive(soc, &w)) {
          st = S24_ERR_TIMEOUT;
          break;
        }
      }
      *waited += soc_cycles() - t0;
      if (st != S24_OK) break;
    }
    st = fill(soc, S24_PORT_W, jb->w + i * nb * 5u, (uint32_t)(i & 1) * half, (uint32_t)nb);
    if (st != S24_OK) break;
    s24_streams_seq_dl_at_write((uint32_t)(i & 1) * S24_SEQ_DL_HALF);
    size_t beats = 0;
    const uint32_t n = (uint32_t)job_descs(jb->reps + i * G, G, NULL, 0, 1, &beats);
    (void)n;  // (the fault firmware does not queue the row tile)
    if (beats != nb) {  // the row tile's activation beats are its beats
      st = S24_ERR_ARG;
      break;
    }
    s24_streams_seq_row_w_write((uint32_t)(i & 1) * half | (uint32_t)nb << 16 | 1u << 31);
    s24_streams_seq_row_y_write((uint32_t)((uintptr_t)jb->y + i * jb->rows));
    s24_streams_seq_row_x_write((uint32_t)(s24_conv_c0(jb->src, jb->row0 + i * jb->rows) - c0));
#ifndef SOC_FAULT_NO_DESC  // (soc/tests/faults.sh's firmware: the readers never get a descriptor)
    const size_t r_left = jb->m_rows - i * jb->rows;  // the rows Y has: the drain writes those
    const uint32_t rows = r_left < jb->rows ? (uint32_t)r_left : jb->rows;
    s24_streams_seq_row_go_write((uint32_t)CT | rows / 4u << 16 | (uint32_t)(i & 1) << 19 |
                                 n << 20);
#endif
    soc->fed++;
    if (i == 0) {  // START once the first tile is queued (the core takes no beat before), or
                   // as much of it as the A reader's queue holds (the rest waits for the core)
      const uint64_t t0 = soc_cycles();
      while (s24_streams_seq_issued_read() == 0 &&
             s24_streams_a_rd_desc_level_read() < DESC_QUEUE) {
        if (!seq_alive(soc, &w)) {
          st = S24_ERR_TIMEOUT;
          break;
        }
      }
      *waited += soc_cycles() - t0;
      if (st == S24_OK) st = jb->start(jb->start_arg);
    }
  }
  const uint64_t t0 = soc_cycles();
  while (st == S24_OK && s24_streams_r_drain_done_read() - drained0 != T) {
    if (!seq_alive(soc, &w)) st = S24_ERR_TIMEOUT;
  }
  *waited += soc_cycles() - t0;
  // the R writer's slots from the firmware's count again: the drain has taken every result beat
  s24_streams_r_wr_consumed_write(soc->r_rd + T * s24_r8_beats(jb->rows));
  s24_streams_seq_ctl_write(0);
  soc->conv_tiles = s24_streams_a_conv_done_read();
  return st;
}

// The job tile by tile from the CPU (a job the drain cannot write: the CPU reads its results):
// one loop over the job's tiles that stays in the I$ (with s24_r8_tile). w_strp, r_rdp: the W
// beats streamed and R beats read, before and after.
static s24_status_t job_loop(s24_soc_t *soc, const s24_seam_job_t *jb, uint32_t *w_strp,
                             uint32_t *r_rdp, uint64_t *waitedp, s24_status_t st) {
  uint64_t waited = 0;
  // Tile k: its activations at ring positions k*G .. (mod A), its beats the A stream's
  // a0 + k*nb .. a0 + (k+1)*nb; row tile i's weights at (i % 2) * half. Three cursors walk the
  // tiles (fetch, issue, read), each with its row and column tile counted, not divided.
  const size_t CT = jb->col_tiles, T = jb->row_tiles * CT, G = jb->groups, nb = jb->beats;
  const uint32_t nb8 = s24_r8_beats(jb->rows), half = kRingW.depth / 2, A = kRingA.depth;
  const s24_conv_src_t *s = jb->src;
  const uint32_t a0 = soc->a_wr;
  uint32_t w_str = *w_strp, w_end[2] = {w_str, w_str}, w_done = w_str;
  size_t k_fetch = 0, i_fetch = 0, j_fetch = 0, k_rel = 0;  // tiles fetched (or fetching), freed
  size_t k_iss = 0, i_iss = 0, j_iss = 0, w_row = SIZE_MAX;  // tiles issued; the W ring's row tile
  size_t k_rd = 0, i_rd = 0, j_rd = 0;            // tiles read
  uint32_t dl[JOB_DESCS];                         // the issuing row tile's A descriptors,
  size_t n_dl = 0, d = 0;                         // how many, the next
  int fetching = 0, w_sent = 0, started = 0, idle = 0;
  uint32_t w_slots = 0, a_slots = 0, r_rd = *r_rdp, r_avail = *r_rdp;
  uint64_t idle_since = 0, idle_last = 0;
  while (k_rd < T && st == S24_OK) {
    int progress = 0;
    // the fetch unit: its tile done; the next one started once the ring has its positions
    if (fetching && s24_streams_a_conv_done_read() == soc->conv_tiles) {
      fetching = 0;
      progress = 1;
    }
    if (!fetching && k_fetch < T) {
      if ((k_fetch - k_rel + 1) * G > A) {
        const uint32_t done = s24_streams_a_rd_consumed_read();
        while (k_rel < k_iss && (int32_t)(done - (a0 + (uint32_t)((k_rel + 1) * nb))) >= 0) k_rel++;
      }
      if ((k_fetch - k_rel + 1) * G <= A) {
        const uint32_t pos = (uint32_t)(k_fetch * G) & (A - 1);
        if (j_fetch == 0) {  // a row tile's first column tile: its first column given
          const conv_at_t first = {0, 0, 0};
          conv_go(soc, s, s24_conv_c0(s, jb->row0 + i_fetch * jb->rows), &first,
                  conv_ncols(s, 0), pos);
        } else {  // the next columns: where the unit's stepping left off (continue)
          conv_start(soc, conv_ncols(s, j_fetch * 8u), pos, 1);
        }
        k_fetch++;
        if (++j_fetch == CT) {
          j_fetch = 0;
          i_fetch++;
        }
        fetching = 1;
        progress = 1;
      }
    }
    // the descriptors of the next fetched tile: its row tile's weights (moved into their half on
    // the row tile's first column tile, once the reader is done with that half), its groups'
    if (k_iss + (size_t)fetching < k_fetch) {
      if (w_row != i_iss) {
        if ((int32_t)(w_done - w_end[i_iss & 1]) < 0) w_done = s24_streams_w_rd_consumed_read();
        if ((int32_t)(w_done - w_end[i_iss & 1]) >= 0) {
          st = fill(soc, S24_PORT_W, jb->w + i_iss * nb * 5u, (uint32_t)(i_iss & 1) * half,
                    (uint32_t)nb);
          size_t beats = 0;
          n_dl = job_descs(jb->reps + i_iss * G, G, dl, JOB_DESCS, 0, &beats);
          if (beats != nb) st = S24_ERR_ARG;  // the row tile's activation beats are its beats
          w_row = i_iss;
        }
      }
      if (!w_sent && w_row == i_iss && st == S24_OK) {
        if (w_slots == 0) w_slots = DESC_QUEUE - s24_streams_w_rd_desc_level_read();
        if (w_slots > 0) {
#ifndef SOC_FAULT_NO_DESC  // (soc/tests/faults.sh's firmware: the IP never gets these beats)
          s24_streams_w_rd_desc_write((uint32_t)(i_iss & 1) * half | (uint32_t)nb << 16 | 1u << 31);
#endif
          w_slots--;
          w_str += (uint32_t)nb;
          w_end[i_iss & 1] = w_str;
          w_sent = 1;
          progress = 1;
        }
      }
      const uint32_t start = (uint32_t)(k_iss * G);
      while (st == S24_OK && w_row == i_iss && d < n_dl) {
        if (a_slots == 0 && (a_slots = DESC_QUEUE - s24_streams_a_rd_desc_level_read()) == 0) break;
        s24_streams_a_rd_desc_write(desc_at(dl[d], start));
        d++;
        a_slots--;
        progress = 1;
      }
      // START once the first tile is queued (the core takes no beat before), or as much of it as
      // the A reader's queue holds (its descriptors wait for the core to take beats)
      if (st == S24_OK && !started && w_sent && (d == n_dl || a_slots == 0)) {
        st = jb->start(jb->start_arg);
        started = 1;
      }
      if (w_sent && w_row == i_iss && d == n_dl) {
        k_iss++;
        w_sent = 0;
        d = 0;
        if (++j_iss == CT) {
          j_iss = 0;
          i_iss++;
        }
      }
    }
    // the results: the oldest tile issued read from the R ring into Y
    if (st == S24_OK && k_rd < k_iss) {
      soc->y_cpu = 1;
      clean_forget(soc);
      if (r_avail - r_rd < nb8) r_avail = s24_streams_r_wr_received_read();
      if (r_avail - r_rd >= nb8) {
        uint32_t buf[4 * 8];
        for (uint32_t b = 0; b < nb8; b++) {
          volatile const uint32_t *src =
              kRingR.win + (((r_rd + b) & (kRingR.depth - 1)) << kRingR.lane_bits);
          for (uint32_t k = 0; k < 8; k++) buf[b * 8 + k] = src[k];
          if ((src[8] & 1u) != (b == nb8 - 1)) st = S24_ERR_HW;  // TLAST ends each result tile
        }
        r_rd += nb8;
        s24_streams_r_wr_consumed_write(r_rd);
        const size_t r_left = jb->m_rows - i_rd * jb->rows, c_left = jb->n_cols - j_rd * 8u;
        s24_r8_tile(buf, 8u, 8u, r_left < jb->rows ? (uint32_t)r_left : jb->rows,
                    c_left < 8u ? (uint32_t)c_left : 8u,
                    jb->y + j_rd * 8u * jb->ldy + i_rd * jb->rows, jb->ldy);
        k_rd++;
        if (++j_rd == CT) {
          j_rd = 0;
          i_rd++;
        }
        progress = 1;
      }
    }
    // the timeout: hardware time without progress
    if (progress) {
      if (idle) waited += idle_last - idle_since;
      idle = 0;
    } else {
      idle_last = soc_cycles();
      if (!idle) {
        idle = 1;
        idle_since = idle_last;
      } else if (idle_last - idle_since > soc->r_limit) {
        st = S24_ERR_TIMEOUT;
      }
    }
  }
  *w_strp = w_str;
  *r_rdp = r_rd;
  *waitedp += waited;
  return st;
}

static s24_status_t plat_stream_job(void *ctx, const s24_seam_job_t *jb) {
  s24_soc_t *soc = ctx;
  const s24_conv_src_t *s = jb->src;
  const size_t CT = jb->col_tiles, T = jb->row_tiles * CT, G = jb->groups, nb = jb->beats;
  const uint32_t nb8 = s24_r8_beats(jb->rows), half = kRingW.depth / 2;
  const uintptr_t w_lo = (uintptr_t)jb->w;
  if (!conv_ok(jb->g, s, G) || !(soc->dma >> S24_PORT_W & 1u) || jb->w_words != 5u || nb == 0 ||
      nb > half || jb->row_tiles == 0 || CT == 0 || T > UINT32_MAX / nb / 2 ||
      jb->r_words != 8u || jb->cols != 8u || nb8 == 0 || nb8 > 4u || (w_lo & 3u) != 0 ||
      w_lo < MAIN_RAM_BASE || w_lo >= MAIN_RAM_BASE + MAIN_RAM_SIZE ||
      jb->row_tiles > (MAIN_RAM_BASE + MAIN_RAM_SIZE - w_lo) / 20u / nb ||
      soc->pend_count[S24_PORT_W] != 0 || soc->pend_count[S24_PORT_A] != 0) {
    return S24_ERR_UNSUPPORTED;
  }
  // a row tile's descriptors (job_descs): at most one a group, or one a DESC_REP_MAX reads of a
  // group read more often (a group takes at most ceil(m / n) beats); counted only where that
  // bound passes the list's half
  const size_t rmax = (jb->g->sparse_m + jb->g->sparse_n - 1u) / jb->g->sparse_n;
  const size_t most = G * ((rmax + DESC_REP_MAX - 1u) / DESC_REP_MAX);
  for (size_t i = 0; most > JOB_DESCS && i < jb->row_tiles; i++) {
    size_t beats = 0;
    if (job_descs(jb->reps + i * G, G, NULL, 0, 0, &beats) > JOB_DESCS) return S24_ERR_UNSUPPORTED;
  }
  // everything sent before has been taken (a job's results are all read before the next starts)
  if (s24_streams_w_rd_consumed_read() != soc->w_wr ||
      s24_streams_a_rd_consumed_read() != soc->a_wr || soc->r_avail != soc->r_rd ||
      s24_streams_r_wr_received_read() != soc->r_rd) {
    return S24_ERR_UNSUPPORTED;
  }
  const uint64_t t0 = soc_cycles();
  (void)limit_cycles(soc, jb->timeout_ns);  // (soc->r_limit)
  // the results into Y by the R ring's drain where Y takes whole words, four rows (channels) a
  // word (else the CPU reads them). The drain writes the SDRAM: on a job with `fresh`, or after
  // the CPU stored results (y_cpu: a job of the layer that went tile by tile, or on the CPU's
  // path), Y's lines are written back and out of the L2 first, its whole rows (ldy bytes each: a
  // depthwise layer's later slices, jobs without `fresh`, write the rest of them), and the D$ is
  // dropped after every job.
  const uintptr_t y_lo = (uintptr_t)jb->y;
  const int drain = (y_lo & 3u) == 0 && jb->ldy != 0 && jb->ldy % 4 == 0 && jb->rows % 4 == 0 &&
                    jb->m_rows % 4 == 0 && y_lo >= MAIN_RAM_BASE &&
                    y_lo < MAIN_RAM_BASE + MAIN_RAM_SIZE && jb->n_cols <= SIZE_MAX / jb->ldy &&
                    jb->n_cols * jb->ldy <= MAIN_RAM_BASE + MAIN_RAM_SIZE - y_lo &&
                    CT <= 0xffffu;  // (JobSeq's row tile: 16 bits of column tiles)
  if (jb->fresh) flush_tracked(soc, s->x, conv_in_bytes(s));
  uint32_t drained0 = 0, tlast0 = 0;
  if (drain) {
    drained0 = s24_streams_r_drain_done_read();
    tlast0 = s24_streams_r_drain_tlast_read();
    if (jb->fresh || soc->y_cpu) flush_tracked(soc, jb->y, jb->n_cols * jb->ldy);
    ib_written(soc, jb->y, jb->n_cols * jb->ldy);
    soc->y_cpu = 0;
    s24_streams_r_drain_ldy_write((uint32_t)jb->ldy);
    s24_streams_r_drain_pos_write(soc->r_rd);
  }
  uint64_t waited = 0;
  s24_status_t st = S24_OK;
  conv_src(soc, conv_buffer(soc, s, jb->fresh, soc->r_limit, &waited, &st));
  conv_layer(soc, s, G);
  // the results also into the fetch unit's buffer (the next layer's input: no fill then), beside
  // the job's own input there, when this job writes all of Y (its first row tile is Y's first
  // row, it has them all, and Y's pixels hold no other rows)
  const size_t y_words = drain ? jb->n_cols * jb->ldy / 4u : 0;
  const size_t in_lo = soc->conv_ib == 1 ? soc->ib_off : 0;  // (the input there: conv_buffer)
  const size_t in_hi = soc->conv_ib == 1 ? in_lo + soc->ib_bytes / 4u : 0;
  const int thru = drain && st == S24_OK && jb->row0 == 0 && jb->ldy == jb->m_rows &&
                   jb->row_tiles * jb->rows >= jb->m_rows && y_words > 0 &&
                   (y_words <= in_lo || y_words <= S24_CONV_IB_WORDS - in_hi);
  const size_t y_off = !thru || y_words <= in_lo ? 0 : in_hi;
  if (thru) {  // (the buffer's other words change: it holds no whole tensor until the job ends)
    soc->ib_x = NULL;
    s24_streams_r_drain_ib_write(((uint32_t)y_lo - (uint32_t)y_off * 4u) | 1u);
  }
  const uint32_t a0 = soc->a_wr;
  uint32_t w_str = soc->w_wr, r_rd = soc->r_rd;
  if (drain && st == S24_OK) {
    st = seq_job(soc, jb, a0, w_str, drained0, &waited);
    w_str += (uint32_t)(T * nb);
    r_rd += (uint32_t)T * nb8;
  } else {
    st = job_loop(soc, jb, &w_str, &r_rd, &waited, st);
  }

  if (drain) {
    // (words of the last tiles may still wait for the SDRAM's port: LiteDRAM's bank machines
    // take commands in order, so a later read of Y, the CPU's through the L2 or a fetch, comes
    // after them)
    if (st == S24_OK && s24_streams_r_drain_tlast_read() != tlast0) st = S24_ERR_HW;  // TLAST
    soc_invalidate_dcache();  // Y's lines as the drain wrote them
  }
  if (thru) {
    s24_streams_r_drain_ib_write(0);
    if (st == S24_OK) {  // every tile drained: Y whole in the buffer from word y_off
      soc->ib_x = jb->y;
      soc->ib_bytes = y_words * 4u;
      soc->ib_off = y_off;
    }
  }
  if (st == S24_OK) {  // every result read: every beat sent was taken
    soc->w_wr = soc->w_done = w_str;
    soc->a_wr = soc->a_done = a0 + (uint32_t)(T * nb);
    soc->a_conv = 0;
    soc->n_tiles = 0;
    soc->r_rd = soc->r_avail = r_rd;
    soc->fed++;
    if (s24_streams_w_rd_consumed_read() != w_str || s24_streams_a_rd_consumed_read() != soc->a_wr) {
      st = S24_ERR_HW;
    }
  }
  soc->stats.calls[S24_PORT_W] += jb->row_tiles;
  soc->stats.beats[S24_PORT_W] += (uint64_t)T * nb;
  soc->stats.bytes[S24_PORT_W] += (uint64_t)jb->row_tiles * nb * 20u;
  soc->stats.calls[S24_PORT_A] += T;
  soc->stats.beats[S24_PORT_A] += (uint64_t)T * nb;
  soc->stats.bytes[S24_PORT_A] += (uint64_t)T * G * 32u;
  soc->stats.calls[S24_PORT_R] += T;
  soc->stats.beats[S24_PORT_R] += (uint64_t)T * nb8;
  soc->stats.bytes[S24_PORT_R] += (uint64_t)T * nb8 * 32u;
  soc->stats.cycles[S24_PORT_R] += soc_cycles() - t0;
  soc->stats.wait[S24_PORT_R] += waited;
  return st;
}

// ------------------------------------------------------------------ the ADD unit (stream_add)

// 1 if [p, p + n) lies in main RAM, p word-aligned
static int in_main_ram(const void *p, size_t n) {
  const uintptr_t a = (uintptr_t)p;
  return (a & 3u) == 0 && a >= MAIN_RAM_BASE && a < MAIN_RAM_BASE + MAIN_RAM_SIZE &&
         n <= MAIN_RAM_BASE + MAIN_RAM_SIZE - a;
}

// The unit (EltAdd, soc/s24_stream.py) on the job's whole words, the CPU on the last n % 4
// elements (s24_add_elem, the same arithmetic). The unit reads x, y and the tables from the
// SDRAM and writes z there: their lines are written back first and z's taken out of the L2 (a
// dirty or stale line of z would later hide the unit's writes); the D$ is dropped after.
static s24_status_t plat_stream_add(void *ctx, const s24_add_job_t *jb, uint64_t timeout_ns) {
  s24_soc_t *soc = ctx;
  if (jb == NULL || jb->tab == NULL) return S24_ERR_ARG;
  const size_t words = jb->n / 4u;
  const s24_add_tab_t *t = jb->tab;
  if (words == 0 || words >= (1u << 24) || !in_main_ram(jb->x, words * 4u) ||
      !in_main_ram(jb->y, words * 4u) || !in_main_ram(jb->z, words * 4u) ||
      !in_main_ram(t->p, sizeof t->p) || t->shift < 0 || t->shift > 31) {
    return S24_ERR_UNSUPPORTED;
  }
  flush_tracked(soc, t->p, sizeof t->p);
  flush_tracked(soc, jb->x, words * 4u);
  flush_tracked(soc, jb->y, words * 4u);
  flush_tracked(soc, jb->z, words * 4u);
  ib_written(soc, jb->z, words * 4u);
  s24_eltadd_tab_write((uint32_t)(uintptr_t)t->p);
  s24_eltadd_x_write((uint32_t)(uintptr_t)jb->x);
  s24_eltadd_y_write((uint32_t)(uintptr_t)jb->y);
  s24_eltadd_z_write((uint32_t)(uintptr_t)jb->z);
  s24_eltadd_cfg_write(((uint32_t)t->out_off & 0xffu) | ((uint32_t)t->act_lo & 0xffu) << 8 |
                       ((uint32_t)t->act_hi & 0xffu) << 16 | (uint32_t)t->shift << 24);
  const uint32_t done = s24_eltadd_done_read() + 1u;
  s24_eltadd_go_write((uint32_t)words);
  const s24_status_t st = unit_wait(s24_eltadd_done_read, done, s24_eltadd_reset_write,
                                    limit_cycles(soc, timeout_ns), &soc->stats.unit_wait);
  soc_invalidate_dcache();  // z's lines as the unit wrote them
  if (words * 4u < jb->n) clean_forget(soc);  // the CPU's part: it reads x and y, writes z
  for (size_t i = words * 4u; i < jb->n && st == S24_OK; i++) {
    jb->z[i] = s24_add_elem(t, jb->x[i], jb->y[i]);
  }
  return st;
}

// ------------------------------------------------------------------ the quantize unit (stream_quant)

// The unit (QuantIn, soc/s24_stream.py) on the job's whole words of y (four elements each): x and
// the thresholds written back to the SDRAM first, y's lines out of the L2; the D$ dropped after.
// *done: the elements before the first outside the table's domain (the unit's `first`), at most
// the whole words'; the caller computes the rest.
static s24_status_t plat_stream_quant(void *ctx, const s24_quant_job_t *jb, size_t *done,
                                      uint64_t timeout_ns) {
  s24_soc_t *soc = ctx;
  if (jb == NULL || jb->thr == NULL || done == NULL) return S24_ERR_ARG;
  *done = 0;
  const size_t words = jb->n / 4u;
  if (words == 0 || words >= (1u << 24) || !in_main_ram(jb->x, words * 16u) ||
      !in_main_ram(jb->y, words * 4u) || !in_main_ram(jb->thr, 255u * 4u)) {
    return S24_ERR_UNSUPPORTED;
  }
  flush_tracked(soc, jb->thr, 255u * 4u);
  flush_tracked(soc, jb->x, words * 16u);
  flush_tracked(soc, jb->y, words * 4u);
  ib_written(soc, jb->y, words * 4u);
  s24_quant_tab_write((uint32_t)(uintptr_t)jb->thr);
  s24_quant_x_write((uint32_t)(uintptr_t)jb->x);
  s24_quant_y_write((uint32_t)(uintptr_t)jb->y);
  s24_quant_dom_write(jb->dom);
  const uint32_t fin = s24_quant_done_read() + 1u;
  s24_quant_go_write((uint32_t)words);
  const s24_status_t st = unit_wait(s24_quant_done_read, fin, s24_quant_reset_write,
                                    limit_cycles(soc, timeout_ns), &soc->stats.unit_wait);
  soc_invalidate_dcache();  // y's lines as the unit wrote them
  if (st == S24_OK) *done = s24_quant_first_read();
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
                                    4u,  // the fetch unit's word path: four channels a word
                                    plat_stream_job, plat_stream_add, plat_cpu_touch,
                                    plat_stream_quant};
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
