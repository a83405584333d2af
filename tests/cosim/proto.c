// SPDX-License-Identifier: Apache-2.0
// Directed co-simulation tests of s24_top through the driver seam: register map (every
// register, holes of the block -> 0 and writes ignored, beyond it -> SLVERR, read-only writes
// ignored, byte stores at byte addresses), error bits (BAD_CFG, START_BUSY, W_LAST, A_LAST,
// META), IRQ, soft reset from a running job and with a held result beat, counters, timeouts and
// recovery.
// Usage: proto [+seed=N] [+trace=FILE.fst]. Prints a line per failed check and 'N passed, N failed'.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "s24_cosim.h"
#include "s24_cycles.h"
#include "s24_drv.h"
#include "s24_drv_host.h"
#include "s24_model.h"

static int g_pass, g_fail;
static s24_seam_t S;
static s24_cosim_t *g_sim;

#define CHECK(cond, ...)                       \
  do {                                         \
    if (cond) {                                \
      g_pass++;                                \
    } else {                                   \
      g_fail++;                                \
      printf("FAIL %s:%d: ", __func__, __LINE__); \
      printf(__VA_ARGS__);                     \
      printf("\n");                            \
    }                                          \
  } while (0)

static uint32_t rd(uint32_t addr) {
  uint32_t v = 0xBADBADu;
  s24_status_t st = S.read32(S.ctx, addr, &v);
  CHECK(st == S24_OK, "read 0x%02X: %s", addr, s24_strerror(st));
  return v;
}

static void wr(uint32_t addr, uint32_t v) {
  s24_status_t st = S.write32(S.ctx, addr, v);
  CHECK(st == S24_OK, "write 0x%02X: %s", addr, s24_strerror(st));
}

static void soft_reset(void) {
  wr(S24_REG_CTRL, S24_CTRL_SOFT_RESET_MASK);
  CHECK(S.stream_reset(S.ctx) == S24_OK, "stream reset");
}

static void register_map(const s24_dev_t *dev) {
  CHECK(rd(S24_REG_ID) == S24_MAGIC, "ID");
  CHECK(rd(S24_REG_VERSION) >> S24_VERSION_MAJOR_LSB == S24_VERSION_MAJOR, "VERSION");
  CHECK((rd(S24_REG_VERSION) & S24_VERSION_MINOR_MASK) == S24_VERSION_MINOR, "VERSION.MINOR");
  // every storage register of the table (S24_REG_STORE_LIST): its reset value, and a write keeps
  // exactly its rw bits
#define STORE_CHECK(name, off, rw, rst)                                                  \
  CHECK(rd(off) == (rst), #name " reset 0x%08X, want 0x%08X", rd(off), (rst));          \
  wr((off), 0xFFFFFFFFu);                                                                \
  CHECK(rd(off) == (rw), #name " all ones read 0x%08X, want 0x%08X", rd(off), (rw));    \
  wr((off), 0x5A5AA5A5u);                                                                \
  CHECK(rd(off) == (0x5A5AA5A5u & (rw)), #name " pattern read 0x%08X", rd(off));        \
  wr((off), (rst));
  S24_REG_STORE_LIST(STORE_CHECK)
#undef STORE_CHECK
  // CFG_ACT resets to the full int8 range (ACT_MIN -128, ACT_MAX 127) and keeps its 16 bits
  CHECK(rd(S24_REG_CFG_ACT) == 0x00007F80u, "CFG_ACT reset 0x%08X", rd(S24_REG_CFG_ACT));
  wr(S24_REG_CFG_ACT, 0xFFFF06FFu);
  CHECK(rd(S24_REG_CFG_ACT) == 0x000006FFu, "CFG_ACT readback 0x%08X", rd(S24_REG_CFG_ACT));
  wr(S24_REG_CFG_ACT, 0x00007F80u);
  // CFG_EPI: bit 1 (RELU up to map 1.1) is reserved: written 1, reads 0
  wr(S24_REG_CFG_EPI, 0x0000FF02u);
  CHECK(rd(S24_REG_CFG_EPI) == 0x0000FF00u, "CFG_EPI readback 0x%08X", rd(S24_REG_CFG_EPI));
  wr(S24_REG_CFG_EPI, 0);
  CHECK(dev->hw.rows == 8 && dev->hw.cols == 8 && dev->hw.sparse_n == 2 && dev->hw.sparse_m == 4,
        "HW_ARRAY %ux%u %u:%u", dev->hw.rows, dev->hw.cols, dev->hw.sparse_n, dev->hw.sparse_m);
  CHECK(dev->hw.w_words == 5 && dev->hw.a_words == 8 && dev->hw.r_words == 8, "HW_BEAT");
  // every mapped register answers OKAY; every other word of the register block (a hole) reads 0
  // and ignores writes with OKAY (map 1.5); every word beyond the block answers SLVERR both ways
  int mapped[64] = {0};
#define MARK(name, off, wmask) mapped[(off) / 4] = 1;
  S24_REG_LIST(MARK)
#undef MARK
  int n_mapped = 0, n_holes = 0, n_beyond = 0;
  for (uint32_t off = 0; off < 256; off += 4) {
    uint32_t v = 0xBADBADu;
    s24_status_t st = S.read32(S.ctx, off, &v);
    if (mapped[off / 4]) {
      n_mapped++;
      CHECK(st == S24_OK, "read of mapped 0x%02X: %s", off, s24_strerror(st));
    } else if (off < S24_REG_SPAN) {
      n_holes++;
      CHECK(st == S24_OK && v == 0, "read of hole 0x%02X: %s 0x%08X, want 0 (OKAY)", off,
            s24_strerror(st), v);
      st = S.write32(S.ctx, off, 0xFFFFFFFFu);
      CHECK(st == S24_OK, "write of hole 0x%02X: %s, want OKAY", off, s24_strerror(st));
      CHECK(rd(off) == 0, "hole 0x%02X still reads 0 after a write", off);
    } else {
      n_beyond++;
      CHECK(st == S24_ERR_HW, "read beyond the block 0x%02X: %s, want SLVERR", off, s24_strerror(st));
      st = S.write32(S.ctx, off, 0xFFFFFFFFu);
      CHECK(st == S24_ERR_HW, "write beyond the block 0x%02X: %s, want SLVERR", off, s24_strerror(st));
    }
  }
  CHECK(n_mapped == (int)S24_REG_COUNT && n_holes == (int)(S24_REG_SPAN / 4 - S24_REG_COUNT) &&
            n_beyond == (int)((S24_REG_WINDOW - S24_REG_SPAN) / 4), "map count");
  // read-only registers ignore writes; read/write ones keep them
  wr(S24_REG_ID, 0);
  wr(S24_REG_CNT_CYCLES, 0x1234);
  CHECK(rd(S24_REG_ID) == S24_MAGIC, "ID changed by a write");
  wr(S24_REG_CFG_BEATS, 0xA5A5F00Du);
  wr(S24_REG_CFG_TILES, 0x0000BEEFu);
  CHECK(rd(S24_REG_CFG_BEATS) == 0xA5A5F00Du, "CFG_BEATS readback");
  CHECK(rd(S24_REG_CFG_TILES) == 0x0000BEEFu, "CFG_TILES readback");
  wr(S24_REG_CTRL, S24_CTRL_IRQ_EN_MASK);
  CHECK(rd(S24_REG_CTRL) == S24_CTRL_IRQ_EN_MASK, "CTRL.IRQ_EN readback (START/SOFT_RESET read 0)");
  wr(S24_REG_CTRL, 0);
  // byte strobes: only the strobed bytes change
  wr(S24_REG_CFG_BEATS, 0x11223344u);
  CHECK(s24_cosim_write_strb(g_sim, S24_REG_CFG_BEATS, 0xAABBCCDDu, 0x2) == S24_OK, "strobed write");
  CHECK(rd(S24_REG_CFG_BEATS) == 0x1122CC44u, "wstrb 0010: 0x%08X", rd(S24_REG_CFG_BEATS));
  CHECK(s24_cosim_write_strb(g_sim, S24_REG_CFG_BEATS, 0xAABBCCDDu, 0x9) == S24_OK, "strobed write");
  CHECK(rd(S24_REG_CFG_BEATS) == 0xAA22CCDDu, "wstrb 1001: 0x%08X", rd(S24_REG_CFG_BEATS));
  CHECK(s24_cosim_write_strb(g_sim, S24_REG_CTRL, S24_CTRL_START_MASK, 0xE) == S24_OK, "strobed write");
  CHECK((rd(S24_REG_STATUS) & S24_STATUS_BUSY_MASK) == 0, "START outside the strobed bytes ignored");
  CHECK(s24_cosim_write_strb(g_sim, 0x18, 0, 0x1) == S24_OK, "strobed write to a hole: OKAY");
  CHECK(s24_cosim_write_strb(g_sim, S24_REG_SPAN, 0, 0x1) == S24_ERR_HW, "strobed write beyond: SLVERR");
  // byte stores as a CPU issues them (map 1.5): the byte's address, its lane's strobe; a read at
  // a byte address returns the whole word
  wr(S24_REG_CFG_BEATS, 0x11223344u);
  for (uint32_t lane = 0; lane < 4; lane++) {
    CHECK(s24_cosim_write_strb(g_sim, S24_REG_CFG_BEATS + lane, 0xA0u << (8 * lane), 1u << lane) == S24_OK,
          "byte store at 0x%02X", S24_REG_CFG_BEATS + lane);
    uint32_t v = 0;
    CHECK(S.read32(S.ctx, S24_REG_CFG_BEATS + lane, &v) == S24_OK && (v >> (8 * lane) & 0xFF) == 0xA0u,
          "byte load at 0x%02X: 0x%08X", S24_REG_CFG_BEATS + lane, v);
  }
  CHECK(rd(S24_REG_CFG_BEATS) == 0xA0A0A0A0u, "four byte stores: 0x%08X", rd(S24_REG_CFG_BEATS));
  CHECK(s24_cosim_write_strb(g_sim, S24_REG_CFG_TILES + 2, 0xBEEF0000u, 0xC) == S24_OK, "halfword store");
  CHECK(rd(S24_REG_CFG_TILES) == (0xBEEF0000u | (0x0000BEEFu & 0xFFFFu)), "halfword store at +2: 0x%08X",
        rd(S24_REG_CFG_TILES));
  wr(S24_REG_CFG_BEATS, 0);
  wr(S24_REG_CFG_TILES, 0);
}

static void bad_cfg_and_irq(void) {
  soft_reset();
  wr(S24_REG_CFG_BEATS, 0);
  wr(S24_REG_CFG_TILES, 3);
  wr(S24_REG_CTRL, S24_CTRL_START_MASK);
  CHECK(rd(S24_REG_ERR) == S24_ERR_BAD_CFG_MASK, "BAD_CFG after START with 0 beats");
  CHECK(s24_cosim_write_strb(g_sim, S24_REG_ERR, S24_ERR_BAD_CFG_MASK, 0x2) == S24_OK, "w1c");
  CHECK(rd(S24_REG_ERR) == S24_ERR_BAD_CFG_MASK, "W1C outside the strobed bytes keeps ERR");
  CHECK((rd(S24_REG_STATUS) & (S24_STATUS_BUSY_MASK | S24_STATUS_ERROR_MASK)) ==
            S24_STATUS_ERROR_MASK, "STATUS: idle with ERROR");
  CHECK(rd(S24_REG_IRQ) == S24_IRQ_ERROR_MASK, "IRQ.ERROR");
  CHECK(!s24_cosim_irq(g_sim), "irq_o low while IRQ_EN = 0");
  wr(S24_REG_CTRL, S24_CTRL_IRQ_EN_MASK);
  CHECK(s24_cosim_irq(g_sim), "irq_o high with IRQ_EN");
  wr(S24_REG_ERR, S24_ERR_BAD_CFG_MASK);
  wr(S24_REG_IRQ, S24_IRQ_ERROR_MASK);
  CHECK(rd(S24_REG_ERR) == 0 && rd(S24_REG_IRQ) == 0, "W1C clears ERR and IRQ");
  CHECK(!s24_cosim_irq(g_sim), "irq_o low after W1C");
  wr(S24_REG_CFG_BEATS, 5);
  wr(S24_REG_CFG_TILES, 0);
  wr(S24_REG_CTRL, S24_CTRL_START_MASK);
  CHECK(rd(S24_REG_ERR) == S24_ERR_BAD_CFG_MASK, "BAD_CFG after START with 0 tiles");
  wr(S24_REG_CTRL, 0);
  soft_reset();
}

// Weight beat of the 8x8 2:4 core: every row keeps slots at indices (i0, i1).
static void w_beat(uint32_t *w, int8_t v, uint32_t i0, uint32_t i1) {
  memset(w, 0, 5 * 4);
  for (int r = 0; r < 8; r++) {
    for (int s = 0; s < 2; s++) {
      uint32_t bit = (uint32_t)(r * 2 + s) * 8;
      w[bit / 32] |= (uint32_t)(uint8_t)v << (bit % 32);
      uint32_t ib = 128 + (uint32_t)(r * 2 + s) * 2;
      w[ib / 32] |= (s ? i1 : i0) << (ib % 32);
    }
  }
}

static void a_beat(uint32_t *a, int8_t v) {
  memset(a, 0, 8 * 4);
  for (int i = 0; i < 32; i++) a[i / 4] |= (uint32_t)(uint8_t)v << (8 * (i % 4));
}

// One tile of 4 beats, weights all 1 at (0, 1), activations all av (every output 4 * 2 * av), and
// room for its results.
typedef struct {
  uint32_t w[4 * 5], a[4 * 8], r[8 * 8];
  uint8_t last[8];
} tile4_t;

static void tile_of_4_beats(tile4_t *t, int8_t av) {
  for (int i = 0; i < 4; i++) {
    w_beat(t->w + i * 5, 1, 0, 1);
    a_beat(t->a + i * 8, av);
  }
}

static void start_job_ctrl(uint32_t beats, uint32_t tiles, uint32_t ctrl) {
  wr(S24_REG_CFG_BEATS, beats);
  wr(S24_REG_CFG_TILES, tiles);
  wr(S24_REG_CTRL, S24_CTRL_START_MASK | ctrl);
}

static void start_job(uint32_t beats, uint32_t tiles) { start_job_ctrl(beats, tiles, 0); }

// A job of one tile of `beats` beats, all its weight and activation beats queued.
static void start_tile(const uint32_t *w, const uint32_t *a, uint32_t beats) {
  start_job(beats, 1);
  CHECK(S.stream_write(S.ctx, S24_PORT_W, w, 5, beats) == S24_OK, "queue w");
  CHECK(S.stream_write(S.ctx, S24_PORT_A, a, 8, beats) == S24_OK, "queue a");
}

static int wait_done(void) {
  for (int i = 0; i < 2000; i++) {
    uint32_t st = rd(S24_REG_STATUS);
    if (!(st & S24_STATUS_BUSY_MASK) && (st & S24_STATUS_DONE_MASK)) return 1;
  }
  return 0;
}

static void start_busy_and_soft_reset_mid_job(void) {
  soft_reset();
  tile4_t t;
  tile_of_4_beats(&t, 1);
  start_job(4, 3);
  CHECK(rd(S24_REG_STATUS) & S24_STATUS_BUSY_MASK, "BUSY after START");
  wr(S24_REG_CTRL, S24_CTRL_START_MASK);
  CHECK(rd(S24_REG_ERR) == S24_ERR_START_BUSY_MASK, "START_BUSY");
  CHECK(S.stream_write(S.ctx, S24_PORT_W, t.w, 5, 4) == S24_OK, "queue w");
  CHECK(S.stream_write(S.ctx, S24_PORT_A, t.a, 8, 2) == S24_OK, "queue a");  // half a tile
  for (int i = 0; i < 20; i++) (void)rd(S24_REG_STATUS);
  CHECK(rd(S24_REG_STATUS) & S24_STATUS_BUSY_MASK, "still BUSY waiting for activations");
  soft_reset();
  CHECK(rd(S24_REG_STATUS) == 0, "idle, not done, no error after soft reset");
  CHECK(rd(S24_REG_ERR) == 0 && rd(S24_REG_IRQ) == 0, "ERR and IRQ cleared by soft reset");
  CHECK(rd(S24_REG_CNT_CYCLES) == 0 && rd(S24_REG_CNT_BEATS) == 0, "counters cleared");
}

// Map 1.5: a result beat m_axis_r presents when SOFT_RESET takes effect stays until taken
// (STATUS.R_HELD; START refused meanwhile), unchanged; nothing behind it survives. The driver's
// path (SOFT_RESET, then the seam's stream reset) takes and drops it.
static void soft_reset_keeps_a_held_result_beat(void) {
  tile4_t t;
  tile_of_4_beats(&t, 2);
  for (int via_seam = 0; via_seam < 2; via_seam++) {
    soft_reset();
    CHECK(s24_cosim_set_backpressure(g_sim, 100) == S24_OK, "backpressure");
    start_tile(t.w, t.a, 4);
    for (int i = 0; i < 30; i++) (void)rd(S24_REG_STATUS);  // the results wait at m_axis_r
    if (via_seam) {
      soft_reset();  // the driver's reset: the seam takes the kept beat and drops it
      CHECK(rd(S24_REG_STATUS) == 0, "idle, nothing kept after the driver's reset");
    } else {
      wr(S24_REG_CTRL, S24_CTRL_SOFT_RESET_MASK);
      CHECK(rd(S24_REG_STATUS) == S24_STATUS_R_HELD_MASK, "idle with the result beat kept: 0x%X",
            rd(S24_REG_STATUS));
      wr(S24_REG_CTRL, S24_CTRL_START_MASK);
      CHECK(rd(S24_REG_ERR) == S24_ERR_START_BUSY_MASK, "START refused while a beat is kept");
      CHECK((rd(S24_REG_STATUS) & S24_STATUS_BUSY_MASK) == 0, "no job started");
      wr(S24_REG_ERR, S24_ERR_START_BUSY_MASK);
      wr(S24_REG_IRQ, S24_IRQ_ERROR_MASK);
      CHECK(s24_cosim_set_backpressure(g_sim, 0) == S24_OK, "backpressure off");
      s24_status_t st = S.stream_read(S.ctx, S24_PORT_R, t.r, 8, 1, t.last, 10000);
      CHECK(st == S24_OK && t.r[0] == 16 && t.r[7] == 16 && t.last[0] == 0,
            "the kept beat (row 0, 16s, no TLAST): %s %u %u %u", s24_strerror(st), t.r[0], t.r[7],
            t.last[0]);
      CHECK(rd(S24_REG_STATUS) == 0, "R_HELD clears when the beat is taken");
      st = S.stream_read(S.ctx, S24_PORT_R, t.r, 8, 1, t.last, 20000);
      CHECK(st == S24_ERR_TIMEOUT, "nothing behind the kept beat: %s", s24_strerror(st));
    }
    CHECK(s24_cosim_set_backpressure(g_sim, 0) == S24_OK, "backpressure off");
    // the next job's results come alone
    start_tile(t.w, t.a, 4);
    s24_status_t st = S.stream_read(S.ctx, S24_PORT_R, t.r, 8, 8, t.last, 100000);
    CHECK(st == S24_OK && t.r[0] == 16 && t.r[63] == 16 && t.last[7] == 1 && t.last[0] == 0,
          "the next job's tile after the kept beat (%s)", via_seam ? "seam" : "taken");
    CHECK(wait_done() && rd(S24_REG_ERR) == 0, "the next job completes cleanly");
  }
}

// One tile of 4 beats (activations all 2: every output = 16) with its W or A stream cut wrong.
static void tlast_errors_never_hang(void) {
  tile4_t t;
  tile_of_4_beats(&t, 2);
  for (int which = 0; which < 2; which++) {
    soft_reset();
    start_job(4, 1);
    // the faulty stream comes as two packets (3 + 1 beats): TLAST early on beat 2
    const s24_port_t bad = which == 0 ? S24_PORT_W : S24_PORT_A;
    const uint32_t *bd = bad == S24_PORT_W ? t.w : t.a;
    const size_t words = bad == S24_PORT_W ? 5 : 8;
    CHECK(S.stream_write(S.ctx, bad, bd, words, 3) == S24_OK, "queue");
    CHECK(S.stream_write(S.ctx, bad, bd + 3 * words, words, 1) == S24_OK, "queue");
    if (bad == S24_PORT_W) {
      CHECK(S.stream_write(S.ctx, S24_PORT_A, t.a, 8, 4) == S24_OK, "queue a");
    } else {
      CHECK(S.stream_write(S.ctx, S24_PORT_W, t.w, 5, 4) == S24_OK, "queue w");
    }
    s24_status_t st = S.stream_read(S.ctx, S24_PORT_R, t.r, 8, 8, t.last, 100000);
    CHECK(st == S24_OK, "results despite the TLAST error: %s", s24_strerror(st));
    CHECK(st == S24_OK && t.r[0] == 16 && t.r[63] == 16 && t.last[7] == 1 && t.last[6] == 0,
          "result values %u %u / TLAST on the last row", t.r[0], t.r[63]);
    CHECK(wait_done(), "job completes");
    uint32_t want = bad == S24_PORT_W ? S24_ERR_W_LAST_MASK : S24_ERR_A_LAST_MASK;
    CHECK(rd(S24_REG_ERR) == want, "ERR = %s", bad == S24_PORT_W ? "W_LAST" : "A_LAST");
    CHECK(rd(S24_REG_CNT_BEATS) == 4 && rd(S24_REG_CNT_TILES_OUT) == 1, "counters");
  }
  // a missing TLAST at the end of the tile is an error too
  soft_reset();
  start_job(2, 1);
  CHECK(S.stream_write(S.ctx, S24_PORT_W, t.w, 5, 2) == S24_OK, "queue w");
  CHECK(S.stream_write(S.ctx, S24_PORT_A, t.a, 8, 1) == S24_OK, "queue a");
  CHECK(S.stream_write(S.ctx, S24_PORT_A, t.a, 8, 1) == S24_OK, "queue a");
  CHECK(S.stream_read(S.ctx, S24_PORT_R, t.r, 8, 8, t.last, 100000) == S24_OK, "results");
  CHECK(wait_done(), "job completes");
  CHECK(rd(S24_REG_ERR) == S24_ERR_A_LAST_MASK, "A_LAST for TLAST on beat 0 of 2");
}

static void invalid_metadata_flagged_and_zeroed(void) {
  soft_reset();
  uint32_t w[2 * 5], a[2 * 8], r[8 * 8];
  uint8_t last[8];
  w_beat(w, 3, 1, 1);      // repeated index: invalid, values must not be used
  w_beat(w + 5, 1, 2, 3);  // valid
  a_beat(a, 1);
  a_beat(a + 8, 1);
  start_tile(w, a, 2);
  CHECK(S.stream_read(S.ctx, S24_PORT_R, r, 8, 8, last, 100000) == S24_OK, "results");
  CHECK(r[0] == 2 && r[8 * 7 + 7] == 2, "invalid group zeroed: got %u, want 2", r[0]);
  CHECK(wait_done(), "job completes");
  CHECK(rd(S24_REG_ERR) == S24_ERR_META_MASK, "ERR.META");
  CHECK(rd(S24_REG_STATUS) == (S24_STATUS_DONE_MASK | S24_STATUS_ERROR_MASK), "DONE|ERROR");
  // cleared by W1C (no soft reset): the next job with invalid metadata is reported again,
  // and a clean job after it is not
  for (int round = 0; round < 2; round++) {
    const int bad = round == 0;
    wr(S24_REG_ERR, S24_ERR_META_MASK);
    CHECK(rd(S24_REG_ERR) == 0, "ERR.META cleared by W1C");
    w_beat(w, 3, bad ? 2 : 0, bad ? 2 : 1);
    start_tile(w, a, 2);
    CHECK(S.stream_read(S.ctx, S24_PORT_R, r, 8, 8, last, 100000) == S24_OK, "results");
    CHECK(wait_done(), "job completes");
    CHECK(rd(S24_REG_ERR) == (bad ? S24_ERR_META_MASK : 0u), "ERR.META of job %d after W1C", round + 2);
  }
}

static void done_irq_counters(void) {
  soft_reset();
  uint32_t w[16 * 5], a[16 * 8], r[8 * 8];
  uint8_t last[8];
  for (int i = 0; i < 16; i++) {
    w_beat(w + i * 5, (int8_t)(i - 8), 0, 3);
    a_beat(a + i * 8, 3);
  }
  CHECK(S.stream_write(S.ctx, S24_PORT_W, w, 5, 16) == S24_OK, "queue w");
  CHECK(S.stream_write(S.ctx, S24_PORT_A, a, 8, 16) == S24_OK, "queue a");
  CHECK(S.stream_write(S.ctx, S24_PORT_W, w, 5, 16) == S24_OK, "queue w");
  CHECK(S.stream_write(S.ctx, S24_PORT_A, a, 8, 16) == S24_OK, "queue a");
  start_job_ctrl(16, 2, S24_CTRL_IRQ_EN_MASK);
  // sum over i of 2 * (i - 8) * 3 = 6 * (120 - 128) = -48
  for (int t = 0; t < 2; t++) {
    CHECK(S.stream_read(S.ctx, S24_PORT_R, r, 8, 8, last, 100000) == S24_OK, "results");
    CHECK((int32_t)r[0] == -48 && (int32_t)r[63] == -48, "tile %d value %d", t, (int32_t)r[0]);
  }
  CHECK(wait_done(), "job completes");
  CHECK(rd(S24_REG_IRQ) == S24_IRQ_DONE_MASK && s24_cosim_irq(g_sim), "IRQ.DONE and irq_o: IRQ %u ERR %u", rd(S24_REG_IRQ), rd(S24_REG_ERR));
  CHECK(rd(S24_REG_CNT_BEATS) == 32, "CNT_BEATS %u", rd(S24_REG_CNT_BEATS));
  CHECK(rd(S24_REG_CNT_TILES_OUT) == 2, "CNT_TILES_OUT");
  uint32_t cyc = rd(S24_REG_CNT_CYCLES);
  CHECK(cyc >= 32 && cyc < 32 + 64, "CNT_CYCLES %u", cyc);
  // queued before START: at most the two cycles the first beat takes to enter the core (its
  // register slice, then its FIFO)
  CHECK(rd(S24_REG_CNT_STALL_W) <= 2 && rd(S24_REG_CNT_STALL_A) <= 2 && rd(S24_REG_CNT_STALL_R) == 0,
        "stalls w/a/r %u %u %u", rd(S24_REG_CNT_STALL_W), rd(S24_REG_CNT_STALL_A), rd(S24_REG_CNT_STALL_R));
  wr(S24_REG_IRQ, S24_IRQ_DONE_MASK);
  wr(S24_REG_CTRL, 0);
}

// The operands of a GEMM from one LCG stream of the seed: A (na bytes), then B (nb bytes).
static void lcg_operands(uint64_t seed, int8_t *a, int na, int8_t *b, int nb) {
  uint64_t x = seed | 1;
  for (int i = 0; i < na; i++) a[i] = (int8_t)((x = x * 6364136223846793005ull + 1) >> 56);
  for (int i = 0; i < nb; i++) b[i] = (int8_t)((x = x * 6364136223846793005ull + 1) >> 56);
}

static void timeout_then_recovery(s24_dev_t *dev, uint64_t seed) {
  const s24_pattern_t p = {2, 4};
  enum { M = 11, K = 24, N = 13 };
  int8_t a[M * K], b[K * N], vals[M * K / 2];
  uint8_t meta[M * 3];
  int32_t want[M * N], got[M * N];
  lcg_operands(seed, a, M * K, b, K * N);
  s24_where_t where;
  CHECK(s24_prune(p, a, M, K, a) == S24_OK, "prune");
  CHECK(s24_compress(p, a, M, K, vals, meta, &where) == S24_OK, "compress");
  CHECK(s24_gemm_sparse(p, vals, meta, M, K, b, N, NULL, want, &where) == S24_OK, "model");
  CHECK(s24_cosim_set_backpressure(g_sim, 100) == S24_OK, "backpressure");
  dev->timeout_ns = 50000;  // 5000 cycles
  s24_status_t st = s24_gemm_compressed(dev, p, vals, meta, M, K, b, N, NULL, got, &where);
  CHECK(st == S24_ERR_TIMEOUT, "results never accepted: %s, want timeout", s24_strerror(st));
  CHECK(s24_cosim_set_backpressure(g_sim, 0) == S24_OK, "backpressure off");
  CHECK(rd(S24_REG_STATUS) == 0, "idle after the driver's soft reset");
  st = s24_gemm_compressed(dev, p, vals, meta, M, K, b, N, NULL, got, &where);
  CHECK(st == S24_OK && memcmp(got, want, sizeof want) == 0, "GEMM after recovery: %s",
        s24_strerror(st));
  dev->timeout_ns = S24_DEFAULT_TIMEOUT_NS;
}

// Issue 14 item 9: with the default timeout (1 s of hardware time = 10^8 cycles) a core that
// never delivers its results is given up on after what its job can take by the cycle model
// (s24_dev_wait_limit_ns, about 1 ms here), not after 10^8 simulated cycles (minutes).
static void stuck_core_bounded_by_the_job(s24_dev_t *dev, uint64_t seed) {
  const s24_pattern_t p = {2, 4};
  enum { M = 8, K = 16, N = 8 };
  int8_t a[M * K], b[K * N], vals[M * K / 2];
  uint8_t meta[M * 2];
  int32_t got[M * N];
  lcg_operands(seed, a, M * K, b, K * N);
  s24_where_t where;
  CHECK(s24_prune(p, a, M, K, a) == S24_OK, "prune");
  CHECK(s24_compress(p, a, M, K, vals, meta, &where) == S24_OK, "compress");
  CHECK(dev->timeout_ns == S24_DEFAULT_TIMEOUT_NS, "default timeout");
  CHECK(s24_cosim_set_backpressure(g_sim, 100) == S24_OK, "backpressure");
  const uint64_t c0 = s24_cosim_cycles(g_sim);
  s24_status_t st = s24_gemm_compressed(dev, p, vals, meta, M, K, b, N, NULL, got, &where);
  const uint64_t spent = s24_cosim_cycles(g_sim) - c0;
  CHECK(st == S24_ERR_TIMEOUT, "results never accepted: %s, want timeout", s24_strerror(st));
  const uint64_t bound = s24_dev_wait_limit_ns(dev) / S24_COSIM_NS_PER_CYCLE;
  CHECK(bound < S24_DEFAULT_TIMEOUT_NS / S24_COSIM_NS_PER_CYCLE / 100,
        "job bound %" PRIu64 " cycles", bound);
  CHECK(spent <= bound + 1000, "gave up after %" PRIu64 " cycles, job bound %" PRIu64, spent,
        bound);
  CHECK(s24_cosim_set_backpressure(g_sim, 0) == S24_OK, "backpressure off");
}

int main(int argc, char **argv) {
  uint64_t seed = (uint64_t)time(NULL);
  const char *trace = NULL;
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "+seed=", 6) == 0) seed = strtoull(argv[i] + 6, NULL, 0);
    if (strncmp(argv[i], "+trace=", 7) == 0) trace = argv[i] + 7;
  }
  printf("proto rtl: seed=%" PRIu64 " (+seed=N to repeat)\n", seed);
  s24_cosim_opts_t opts = {.seed = (uint32_t)seed, .axil_random = 1, .trace_path = trace};
  s24_dev_t dev;
  if (s24_cosim_open(&opts, &g_sim, &S) != S24_OK || s24_dev_open(&dev, &S) != S24_OK) {
    printf("proto: cannot open the simulated device\n0 passed, 1 failed\n");
    return 1;
  }
  register_map(&dev);
  bad_cfg_and_irq();
  start_busy_and_soft_reset_mid_job();
  soft_reset_keeps_a_held_result_beat();
  tlast_errors_never_hang();
  invalid_metadata_flagged_and_zeroed();
  done_irq_counters();
  timeout_then_recovery(&dev, seed);
  stuck_core_bounded_by_the_job(&dev, seed);
  s24_cosim_close(g_sim);
  printf("%d passed, %d failed\n", g_pass, g_fail);
  return g_fail != 0;
}
