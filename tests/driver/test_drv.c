// SPDX-License-Identifier: Apache-2.0
// cmocka tests of the host driver against a mock seam: register sequences, packing, error paths
// (bad arguments, invalid metadata never sent, hardware error bits, timeouts, TLAST), and the
// UIO backend against a mock of its register windows. Built with the sanitizers.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "s24_cycles.h"
#include "s24_drv.h"
#include "s24_drv_host.h"
#include "s24_layout.h"
#include "s24_swdev.h"
#include "s24_uio.h"
#include "../common/cmocka_run.h"  // S24_RUN_TESTS (tests/common/)

// ------------------------------------------------------------------------------ mock seam
// Every seam call is logged as an event; reads return a per-register value unless a one-shot
// override is queued; failures can be injected per operation.
enum { EV_RD, EV_WR, EV_SW, EV_SR, EV_RESET };
typedef struct {
  int op;
  uint32_t addr;   // register, or port
  uint32_t value;  // written value, read value, or beat count
} event_t;

typedef struct {
  event_t log[512];
  uint32_t word0[512];      // stream writes: first word of the first beat, by log position
  size_t nlog;
  uint32_t regs[64];        // read values by word offset
  uint32_t ovr_addr[16], ovr_val[16];
  size_t novr;
  s24_status_t fail_read_at;  // status returned for reads of fail_read_addr
  uint32_t fail_read_addr;
  s24_status_t sr_status;     // stream_read status
  uint32_t *r_beats;          // beats stream_read hands out
  const uint8_t *r_last;
  int r_advance;              // each stream_read hands out the next n beats of r_beats
  uint64_t now;
  uint64_t now_step;
  uint64_t sr_timeout;        // timeout of the last stream_read
} mock_t;

static mock_t g;

static void logev(int op, uint32_t addr, uint32_t value) {
  assert_true(g.nlog < sizeof(g.log) / sizeof(g.log[0]));
  g.log[g.nlog++] = (event_t){op, addr, value};
}

static s24_status_t m_read32(void *ctx, uint32_t addr, uint32_t *value) {
  assert_ptr_equal(ctx, &g);
  if (g.fail_read_at != S24_OK && addr == g.fail_read_addr) {
    logev(EV_RD, addr, 0);
    return g.fail_read_at;
  }
  uint32_t v = g.regs[addr / 4];
  for (size_t i = 0; i < g.novr; i++) {
    if (g.ovr_addr[i] == addr) {  // one-shot override, consumed in order
      v = g.ovr_val[i];
      memmove(&g.ovr_addr[i], &g.ovr_addr[i + 1], (g.novr - i - 1) * sizeof(uint32_t));
      memmove(&g.ovr_val[i], &g.ovr_val[i + 1], (g.novr - i - 1) * sizeof(uint32_t));
      g.novr--;
      break;
    }
  }
  logev(EV_RD, addr, v);
  *value = v;
  return S24_OK;
}

static s24_status_t m_write32(void *ctx, uint32_t addr, uint32_t value) {
  assert_ptr_equal(ctx, &g);
  logev(EV_WR, addr, value);
  return S24_OK;
}

static s24_status_t m_stream_write(void *ctx, s24_port_t port, const uint32_t *beats,
                                   size_t words, size_t n) {
  assert_ptr_equal(ctx, &g);
  assert_non_null(beats);
  assert_true(words > 0);
  logev(EV_SW, (uint32_t)port, (uint32_t)n);
  g.word0[g.nlog - 1] = beats[0];
  return S24_OK;
}

static s24_status_t m_stream_read(void *ctx, s24_port_t port, uint32_t *beats, size_t words,
                                  size_t n, uint8_t *last, uint64_t timeout_ns) {
  assert_ptr_equal(ctx, &g);
  assert_int_equal(port, S24_PORT_R);
  assert_true(timeout_ns > 0);
  g.sr_timeout = timeout_ns;
  logev(EV_SR, (uint32_t)port, (uint32_t)n);
  if (g.sr_status != S24_OK) return g.sr_status;
  memcpy(beats, g.r_beats, n * words * sizeof(uint32_t));
  memcpy(last, g.r_last, n);
  if (g.r_advance) g.r_beats += n * words;
  return S24_OK;
}

static s24_status_t m_stream_reset(void *ctx) {
  assert_ptr_equal(ctx, &g);
  logev(EV_RESET, 0, 0);
  return S24_OK;
}

static uint64_t m_now_ns(void *ctx) {
  assert_ptr_equal(ctx, &g);
  return g.now += g.now_step;
}

// The staging memory of the mock: fixed, as a firmware's (requests above its size fail)
static _Alignas(16) uint8_t g_scratch[1u << 20];
static size_t g_scratch_len = sizeof g_scratch;

static void *m_scratch(void *ctx, size_t bytes) {
  assert_ptr_equal(ctx, &g);
  return bytes <= g_scratch_len ? g_scratch : NULL;
}

static const s24_seam_t kSeam = {&g,           m_read32, m_write32, m_stream_write, m_stream_read,
                                 m_stream_reset, m_now_ns, m_scratch, NULL, 0, NULL, NULL, NULL, NULL,
                                 NULL};

// A 2x2 2:4 device: W beat 2*2*(8+2) = 40 bits = 2 words, A 2*4*8 = 64 bits = 2 words, R 2.
static void mock_device(uint32_t rows, uint32_t cols) {
  memset(&g, 0, sizeof(g));
  g.now_step = 10;
  g.regs[S24_REG_ID / 4] = S24_MAGIC;
  g.regs[S24_REG_VERSION / 4] = S24_VERSION_MAJOR << S24_VERSION_MAJOR_LSB;
  g.regs[S24_REG_HW_ARRAY / 4] = rows | cols << 8 | 2u << 16 | 4u << 24;
  g.regs[S24_REG_HW_WIDTH / 4] = 8u | 32u << 8 | 2u << 16;
  g.regs[S24_REG_HW_BEAT / 4] =
      ((rows * 2 * 10 + 31) / 32) | ((cols * 32 + 31) / 32) << 8 | cols << 16;
  g.regs[S24_REG_STATUS / 4] = S24_STATUS_DONE_MASK;
}

static void expect_log(const event_t *want, size_t n) {
  for (size_t i = 0; i < n && i < g.nlog; i++) {
    if (g.log[i].op != want[i].op || g.log[i].addr != want[i].addr ||
        g.log[i].value != want[i].value) {
      fail_msg("event %zu: got op %d addr 0x%x value 0x%x, want op %d addr 0x%x value 0x%x", i,
               g.log[i].op, g.log[i].addr, g.log[i].value, want[i].op, want[i].addr,
               want[i].value);
    }
  }
  assert_int_equal(g.nlog, n);
}

static void open_dev(s24_dev_t *dev) {
  mock_device(2, 2);
  assert_int_equal(s24_dev_open(dev, &kSeam), S24_OK);
  g.nlog = 0;
}

// Every result read gets one 2x2 tile of zeros, TLAST on its second beat as the core sends it,
// or (tlast_on_first) misplaced on its first.
static void zero_results(int tlast_on_first) {
  static uint32_t zeros[4];
  static const uint8_t kLast[2][2] = {{0, 1}, {1, 0}};
  g.r_beats = zeros;
  g.r_last = kLast[tlast_on_first];
}

// The same 2x2 2:4 core built with the pair mode (CFG_MODE.PAIR reads back 1)
static void open_pair_dev(s24_dev_t *dev) {
  mock_device(2, 2);
  g.regs[S24_REG_CFG_MODE / 4] = S24_CFG_MODE_PAIR_MASK;
  assert_int_equal(s24_dev_open(dev, &kSeam), S24_OK);
  assert_int_equal(dev->hw.pair, 1);
  g.nlog = 0;
}

// ------------------------------------------------------------------------------ open
static void open_reads_id_version_params_then_resets(void **state) {
  (void)state;
  s24_dev_t dev;
  mock_device(2, 2);
  assert_int_equal(s24_dev_open(&dev, &kSeam), S24_OK);
  const event_t want[] = {
      {EV_RD, S24_REG_ID, S24_MAGIC},
      {EV_RD, S24_REG_VERSION, g.regs[S24_REG_VERSION / 4]},
      {EV_RD, S24_REG_HW_ARRAY, g.regs[S24_REG_HW_ARRAY / 4]},
      {EV_RD, S24_REG_HW_WIDTH, g.regs[S24_REG_HW_WIDTH / 4]},
      {EV_RD, S24_REG_HW_BEAT, g.regs[S24_REG_HW_BEAT / 4]},
      // the pair-mode probe of a 2:4 core: CFG_MODE.PAIR reads back 0 here (no pair mode)
      {EV_WR, S24_REG_CFG_MODE, S24_CFG_MODE_PAIR_MASK},
      {EV_RD, S24_REG_CFG_MODE, 0},
      {EV_WR, S24_REG_CFG_MODE, 0},
      {EV_WR, S24_REG_CTRL, S24_CTRL_SOFT_RESET_MASK},
      {EV_RESET, 0, 0},
  };
  expect_log(want, sizeof want / sizeof want[0]);
  assert_int_equal(dev.hw.pair, 0);
  assert_int_equal(dev.hw.rows, 2);
  assert_int_equal(dev.hw.cols, 2);
  assert_int_equal(dev.hw.sparse_n, 2);
  assert_int_equal(dev.hw.sparse_m, 4);
  assert_int_equal(dev.hw.w_words, 2);
  assert_int_equal(dev.hw.a_words, 2);
  assert_int_equal(dev.hw.r_words, 2);
  assert_int_equal(dev.timeout_ns, S24_DEFAULT_TIMEOUT_NS);
  s24_dev_close(&dev);
  assert_int_equal(dev.is_open, 0);
}

static void open_rejects_bad_args_and_incomplete_seam(void **state) {
  (void)state;
  s24_dev_t dev;
  mock_device(2, 2);
  assert_int_equal(s24_dev_open(NULL, &kSeam), S24_ERR_ARG);
  assert_int_equal(s24_dev_open(&dev, NULL), S24_ERR_ARG);
  s24_seam_t s = kSeam;
  s.stream_reset = NULL;
  assert_int_equal(s24_dev_open(&dev, &s), S24_ERR_ARG);
  s = kSeam;
  s.now_ns = NULL;
  assert_int_equal(s24_dev_open(&dev, &s), S24_ERR_ARG);
  s = kSeam;
  s.scratch = NULL;  // the driver stages beats in the seam's memory: a seam must give some
  assert_int_equal(s24_dev_open(&dev, &s), S24_ERR_ARG);
  assert_int_equal(g.nlog, 0);  // nothing touched the hardware
}

static void open_rejects_wrong_magic_version_params(void **state) {
  (void)state;
  s24_dev_t dev;
  mock_device(2, 2);
  g.regs[S24_REG_ID / 4] = 0xDEADBEEF;
  assert_int_equal(s24_dev_open(&dev, &kSeam), S24_ERR_HW);
  mock_device(2, 2);
  g.regs[S24_REG_VERSION / 4] = (S24_VERSION_MAJOR + 1) << S24_VERSION_MAJOR_LSB;
  assert_int_equal(s24_dev_open(&dev, &kSeam), S24_ERR_UNSUPPORTED);
  mock_device(2, 2);
  g.regs[S24_REG_HW_BEAT / 4] += 1;  // W words inconsistent with the array
  assert_int_equal(s24_dev_open(&dev, &kSeam), S24_ERR_UNSUPPORTED);
  mock_device(2, 2);
  g.regs[S24_REG_HW_ARRAY / 4] = 2 | 2 << 8 | 2u << 16 | 5u << 24;  // m = 5
  assert_int_equal(s24_dev_open(&dev, &kSeam), S24_ERR_UNSUPPORTED);
  mock_device(2, 2);
  g.fail_read_at = S24_ERR_HW;  // SLVERR on ID
  g.fail_read_addr = S24_REG_ID;
  assert_int_equal(s24_dev_open(&dev, &kSeam), S24_ERR_HW);
}

// ------------------------------------------------------------------------------ fused layer
// A 2x2 device with register map 1.<minor>, opened, with a 2x4 2:4 weight matrix loaded.
static void open_map_with_weights(s24_dev_t *dev, uint32_t minor, s24_weights_t *w) {
  static const int8_t a[8] = {1, 0, 2, 0, 0, 3, 0, 4};
  mock_device(2, 2);
  g.regs[S24_REG_VERSION / 4] = S24_VERSION_MAJOR << S24_VERSION_MAJOR_LSB | minor;
  assert_int_equal(s24_dev_open(dev, &kSeam), S24_OK);
  assert_int_equal(s24_weights_load_dense(dev, a, 2, 4, w), S24_OK);
}

// s24_linear checks the clamp bounds (and every other parameter) before any register access,
// and refuses a device whose register map predates CFG_ACT (1.1: CFG_EPI.RELU only).
static void linear_checks_clamp_and_map_version_first(void **state) {
  (void)state;
  s24_dev_t dev;
  const int8_t x[4] = {1, 2, 3, 4};
  const int32_t mult[2] = {1 << 30, 1 << 30}, shift[2] = {0, 0};
  int8_t y[2];
  s24_weights_t w;
  open_map_with_weights(&dev, 1, &w);  // map 1.1
  static const int32_t bad[5][2] = {{1, 0}, {127, -128}, {-129, 0}, {0, 128}, {-200, 300}};
  g.nlog = 0;
  for (int i = 0; i < 5; i++) {
    const s24_linear_params_t p = {NULL, mult, shift, 0, 0, bad[i][0], bad[i][1],
                                   S24_ROUND_SINGLE};
    assert_int_equal(s24_linear(&dev, &w, x, 1, &p, y), S24_ERR_ARG);
  }
  const s24_linear_params_t ok = {NULL, mult, shift, 0, 0, -3, -3,  // act_min == act_max
                                  S24_ROUND_SINGLE};
  assert_int_equal(s24_linear(&dev, &w, x, 1, &ok, y), S24_ERR_UNSUPPORTED);
  assert_int_equal(g.nlog, 0);  // nothing touched the hardware
  s24_weights_free(&w);
  s24_dev_close(&dev);
}

// s24_linear checks the rounding mode before any register access (S24_ERR_ARG for a value that
// is not an s24_round_t) and refuses double rounding on a device whose register map predates
// CFG_EPI.ROUND (1.2: it would ignore the bit and round once).
static void linear_checks_round_mode_and_map_version_first(void **state) {
  (void)state;
  s24_dev_t dev;
  const int8_t x[4] = {1, 2, 3, 4};
  const int32_t mult[2] = {1 << 30, 1 << 30}, shift[2] = {-1, 3};
  int8_t y[2];
  s24_weights_t w;
  open_map_with_weights(&dev, 2, &w);  // map 1.2
  g.nlog = 0;
  const s24_linear_params_t bad = {NULL, mult, shift, 0, 0, -128, 127, (s24_round_t)2};
  assert_int_equal(s24_linear(&dev, &w, x, 1, &bad, y), S24_ERR_ARG);
  const s24_linear_params_t bad_neg = {NULL, mult, shift, 0, 0, -128, 127, (s24_round_t)-1};
  assert_int_equal(s24_linear(&dev, &w, x, 1, &bad_neg, y), S24_ERR_ARG);
  const s24_linear_params_t dbl = {NULL, mult, shift, 0, 0, -128, 127, S24_ROUND_DOUBLE};
  assert_int_equal(s24_linear(&dev, &w, x, 1, &dbl, y), S24_ERR_UNSUPPORTED);
  assert_int_equal(g.nlog, 0);  // nothing touched the hardware
  s24_weights_free(&w);
  s24_dev_close(&dev);
}

// ------------------------------------------------------------------------------ GEMM sequence
// A 2x4 2:4 matrix times B 4x2 on a 2x2 core: one row tile, one column tile, one group = 1 beat.
static const int8_t kA[8] = {0, 5, 0, -3, 7, 0, 0, 2};
static const int8_t kB[8] = {1, 2, 3, 4, 5, 6, 7, 8};

static void gemm_register_sequence_and_packing(void **state) {
  (void)state;
  s24_dev_t dev;
  open_dev(&dev);
  // C = A*B: row0 = 5*[3 4] - 3*[7 8] = [-6 -4]; row1 = 7*[1 2] + 2*[7 8] = [21 30]
  uint32_t rbeats[4] = {(uint32_t)-6, (uint32_t)-4, 21, 30};
  uint8_t rlast[2] = {0, 1};
  g.r_beats = rbeats;
  g.r_last = rlast;
  g.regs[S24_REG_CNT_CYCLES / 4] = 9;
  g.regs[S24_REG_CNT_BEATS / 4] = 1;
  g.regs[S24_REG_CNT_TILES_OUT / 4] = 1;
  s24_weights_t w;
  assert_int_equal(s24_weights_load_dense(&dev, kA, 2, 4, &w), S24_OK);
  assert_int_equal(g.nlog, 0);  // packing is host-only
  assert_int_equal(w.row_tiles, 1);
  assert_int_equal(w.tile_first[1], 1);
  // beat layout: values row0 (5, -3), row1 (7, 2); indices row0 (1, 3), row1 (0, 3)
  assert_int_equal(w.beats[0], 0x0207FD05u);
  assert_int_equal(w.beats[1], (1u | 3u << 2 | 0u << 4 | 3u << 6));
  int32_t c[4];
  assert_int_equal(s24_gemm(&dev, &w, kB, 2, NULL, c), S24_OK);
  const event_t want[] = {
      {EV_SW, S24_PORT_W, 1},
      {EV_SW, S24_PORT_A, 1},
      {EV_WR, S24_REG_CFG_BEATS, 1},
      {EV_WR, S24_REG_CFG_TILES, 1},
      {EV_WR, S24_REG_CTRL, S24_CTRL_START_MASK},
      {EV_RD, S24_REG_ERR, 0},
      {EV_SR, S24_PORT_R, 2},
      {EV_RD, S24_REG_STATUS, S24_STATUS_DONE_MASK},
      {EV_RD, S24_REG_CNT_CYCLES, 9},
      {EV_RD, S24_REG_CNT_BEATS, 1},
      {EV_RD, S24_REG_CNT_STALL_W, 0},
      {EV_RD, S24_REG_CNT_STALL_A, 0},
      {EV_RD, S24_REG_CNT_STALL_R, 0},
      {EV_RD, S24_REG_CNT_TILES_OUT, 1},
  };
  expect_log(want, sizeof want / sizeof want[0]);
  const int32_t want_c[4] = {-6, -4, 21, 30};
  assert_memory_equal(c, want_c, sizeof want_c);
  s24_counters_t cnt;
  assert_int_equal(s24_dev_counters(&dev, &cnt), S24_OK);
  assert_int_equal(cnt.cycles, 9);
  assert_int_equal(cnt.beats, 1);
  assert_int_equal(cnt.jobs, 1);
  assert_int_equal(cnt.macs_dense, 2 * 4 * 2);
  // C0 accumulates on the host with wraparound
  const int32_t c0[4] = {INT32_MAX, 0, INT32_MIN, 1};
  g.nlog = 0;
  assert_int_equal(s24_gemm(&dev, &w, kB, 2, c0, c), S24_OK);
  const int32_t want_c0[4] = {INT32_MAX - 6, -4, INT32_MIN + 21, 31};
  assert_memory_equal(c, want_c0, sizeof want_c0);
  s24_weights_free(&w);
  s24_weights_free(&w);  // safe twice
}

// A core with the pair mode (CFG_MODE.PAIR reads back 1): 1:4 weights of 8 rows on the 2x2 core
// run as 4-row tiles (2 row tiles instead of 4, THE mode rule s24_pair_choose), the job sets
// CFG_MODE.PAIR first and returns it to 0; 2:4 weights leave CFG_MODE at 0.
static void pair_mode_probe_and_gemm(void **state) {
  (void)state;
  s24_dev_t dev;
  open_pair_dev(&dev);
  int8_t a[8 * 16];
  for (int i = 0; i < 8 * 16; i++) a[i] = (i % 4) == (i / 16) % 4 ? (int8_t)(i + 1) : 0;  // 1:4
  s24_weights_t w;
  assert_int_equal(s24_weights_load_dense(&dev, a, 8, 16, &w), S24_OK);
  assert_int_equal(w.pair, 1);
  assert_int_equal(w.rows, 4);
  assert_int_equal(w.sparse_n, 1);
  assert_int_equal(w.row_tiles, 2);
  assert_int_equal(w.tile_first[1], 4);  // one beat per group of 4
  // slot s of beat row r is tile row 2r + s: row 1 (slot 1 of row 0) keeps index 1 of group 0
  s24_geom_t pg;
  const s24_array_t built = {2, 2, 2, 4, 0, 1};
  s24_array_t pa;
  assert_int_equal(s24_array_pair(built, &pa), S24_OK);
  assert_int_equal(s24_geom(pa, &pg), S24_OK);
  assert_int_equal(s24_w_index(&pg, w.beats, 1, 0), 1);
  assert_int_equal(s24_w_value(&pg, w.beats, 1, 0), 18);
  assert_int_equal(s24_w_value(&pg, w.beats, 0, 0), 1);
  assert_int_equal(s24_w_index(&pg, w.beats, 0, 0), 0);
  static uint32_t zeros[4 * 2];
  static uint8_t lasts[4] = {0, 0, 0, 1};
  g.r_beats = zeros;
  g.r_last = lasts;
  const int8_t b[16 * 1] = {0};
  int32_t c[8];
  assert_int_equal(s24_gemm(&dev, &w, b, 1, NULL, c), S24_OK);
  assert_true(g.nlog > 3);
  assert_int_equal(g.log[0].op, EV_WR);
  assert_int_equal(g.log[0].addr, S24_REG_CFG_MODE);
  assert_int_equal(g.log[0].value, 1);
  assert_int_equal(g.log[g.nlog - 1].addr, S24_REG_CFG_MODE);
  assert_int_equal(g.log[g.nlog - 1].value, 0);
  s24_gemm_cycles_t pred;
  assert_int_equal(s24_gemm_cycles_dense(s24_dev_array(&dev), a, 8, 16, 1, &pred), S24_OK);
  assert_int_equal(pred.pair, 1);
  assert_int_equal(pred.tiles, 2);
  s24_weights_free(&w);
  // a single row tile stays in the core's own mode (pair would only add drain cycles)
  assert_int_equal(s24_weights_load_dense(&dev, a, 2, 16, &w), S24_OK);
  assert_int_equal(w.pair, 0);
  s24_weights_free(&w);
  // packed for the core's own mode only (s24_weights_pack_own): the weights the rule runs in
  // pair mode keep the core's rows (4 row tiles of 2), and the own-mode prediction says so
  size_t bytes = 0, own = 0;
  assert_int_equal(s24_weights_bytes(&dev, a, 8, 16, &bytes), S24_OK);
  assert_int_equal(s24_weights_bytes_own(&dev, a, 8, 16, &own), S24_OK);
  static uint8_t mem[4096] __attribute__((aligned(16)));
  assert_true(own <= sizeof mem && bytes <= sizeof mem);
  assert_int_equal(s24_weights_pack(&dev, a, 8, 16, mem, bytes, &w), S24_OK);
  assert_int_equal(w.pair, 1);
  assert_int_equal(s24_weights_pack_own(&dev, a, 8, 16, mem, own, &w), S24_OK);
  assert_int_equal(w.pair, 0);
  assert_int_equal(w.rows, 2);
  assert_int_equal(w.row_tiles, 4);
  assert_int_equal(s24_weights_pack_own(&dev, a, 8, 16, mem, own - 1, &w), S24_ERR_NOMEM);
  assert_int_equal(s24_weights_bytes_own(&dev, NULL, 8, 16, &own), S24_ERR_ARG);
  s24_gemm_cycles_t lin, lin_own;
  const s24_array_t arr = s24_dev_array(&dev);
  assert_int_equal(s24_linear_cycles(arr, 512, 2, a, 8, 16, 3, &lin), S24_OK);
  assert_int_equal(s24_linear_cycles_own(arr, 512, 2, a, 8, 16, 3, &lin_own), S24_OK);
  assert_int_equal(lin.pair, 1);
  assert_int_equal(lin_own.pair, 0);
  assert_int_equal(lin.tiles, 2 * 2);  // row tiles x column tiles (3 columns on 2)
  assert_int_equal(lin_own.tiles, 4 * 2);
}

// A fused layer of 1:4 weights on a core with the pair mode runs in it from map 1.4 on (THE mode
// rule, as a GEMM): CFG_MODE.PAIR is set before the jobs, each int8 tile has 2R = 4 rows (one
// beat), so 8 channels are 2 tiles; on a map-1.3 device (which refuses PAIR with CFG_EPI.EN) the
// weights are repacked for the core's own mode: CFG_MODE stays 0, 4 tiles of 2 rows. Every later
// minor version (up to this header's) is run as 1.4.
static void linear_pair_mode_from_map_1_4(void **state) {
  (void)state;
  for (uint32_t minor = 3; minor <= S24_VERSION_MINOR; minor++) {
    s24_dev_t dev;
    mock_device(2, 2);
    g.regs[S24_REG_VERSION / 4] = S24_VERSION_MAJOR << S24_VERSION_MAJOR_LSB | minor;
    g.regs[S24_REG_CFG_MODE / 4] = S24_CFG_MODE_PAIR_MASK;
    g.regs[S24_REG_HW_EPI / 4] = 512u << S24_HW_EPI_DEPTH_LSB | 2u << S24_HW_EPI_LANES_LSB;
    assert_int_equal(s24_dev_open(&dev, &kSeam), S24_OK);
    assert_int_equal(dev.hw.pair, 1);
    int8_t a[8 * 16];
    for (int i = 0; i < 8 * 16; i++) a[i] = (i % 4) == (i / 16) % 4 ? (int8_t)(i + 1) : 0;
    s24_weights_t w;
    assert_int_equal(s24_weights_load_dense(&dev, a, 8, 16, &w), S24_OK);
    assert_int_equal(w.pair, 1);
    static uint32_t zeros[2];
    static uint8_t lasts[1] = {1};  // one int8 beat a tile (4 rows or 2)
    g.r_beats = zeros;
    g.r_last = lasts;
    g.nlog = 0;
    const int8_t x[16] = {0};
    const int32_t mult[8] = {1 << 30, 1 << 30, 1 << 30, 1 << 30, 1 << 30, 1 << 30, 1 << 30, 1 << 30};
    const int32_t shift[8] = {0};
    const s24_linear_params_t prm = {NULL, mult, shift, 0, 0, -128, 127, S24_ROUND_SINGLE};
    int8_t y[8];
    assert_int_equal(s24_linear(&dev, &w, x, 1, &prm, y), S24_OK);
    int pair_set = 0;
    uint32_t tiles = 0;
    for (size_t i = 0; i < g.nlog; i++) {
      if (g.log[i].op == EV_WR && g.log[i].addr == S24_REG_CFG_MODE && g.log[i].value == 1) {
        pair_set = 1;
      }
      if (g.log[i].op == EV_WR && g.log[i].addr == S24_REG_CFG_TILES) tiles += g.log[i].value;
    }
    assert_int_equal(pair_set, minor >= 4);
    assert_int_equal(tiles, minor >= 4 ? 2 : 4);
    assert_int_equal(dev.counters.pair, minor >= 4);
    s24_weights_free(&w);
    s24_dev_close(&dev);
  }
}

// The parameter words a fused layer's jobs write (EPI_BIAS, EPI_MULT, EPI_SHIFT), in order.
static size_t epi_writes(uint32_t *out, size_t cap) {
  size_t n = 0;
  for (size_t i = 0; i < g.nlog; i++) {
    const uint32_t a = g.log[i].addr;
    if (g.log[i].op == EV_WR &&
        (a == S24_REG_EPI_BIAS || a == S24_REG_EPI_MULT || a == S24_REG_EPI_SHIFT) && n < cap) {
      out[n++] = g.log[i].value;
    }
  }
  return n;
}

// s24_linear_prepare's words are what a job computes (zero point folded into the bias), used
// only for the very parameters they were made from; bad parameters or a short table refused.
static void linear_prepare_loads_the_same_words(void **state) {
  (void)state;
  s24_dev_t dev;
  mock_device(2, 2);
  g.regs[S24_REG_VERSION / 4] = S24_VERSION_MAJOR << S24_VERSION_MAJOR_LSB | S24_VERSION_MINOR;
  g.regs[S24_REG_HW_EPI / 4] = 512u << S24_HW_EPI_DEPTH_LSB | 2u << S24_HW_EPI_LANES_LSB;
  assert_int_equal(s24_dev_open(&dev, &kSeam), S24_OK);
  int8_t a[3 * 8];
  for (int i = 0; i < 3 * 8; i++) a[i] = (int8_t)(i * 7 - 60);
  s24_weights_t w;
  assert_int_equal(s24_weights_load_dense(&dev, a, 3, 8, &w), S24_OK);
  static uint32_t zeros[2];
  static uint8_t lasts[1] = {1};
  g.r_beats = zeros;
  g.r_last = lasts;
  const int8_t x[8] = {0};
  const int32_t bias[3] = {100, -7, 123456}, mult[3] = {1 << 30, 1 << 29, 1 << 28};
  const int32_t shift[3] = {-1, 0, 2}, mult2[3] = {1 << 30, 1 << 29, 1 << 28};
  const s24_linear_params_t prm = {bias, mult, shift, -5, 3, -128, 127, S24_ROUND_SINGLE};
  int8_t y[3];
  uint32_t want[64], got[64], table[9];
  g.nlog = 0;
  assert_int_equal(s24_linear(&dev, &w, x, 1, &prm, y), S24_OK);
  const size_t n = epi_writes(want, 64);
  assert_int_equal(n, 3 * 2 * 2);  // two row tiles of two rows (the last one padding)
  assert_int_equal(want[0], (uint32_t)(100 + 5 * w.row_sum[0]));
  assert_int_equal(s24_linear_prepare(&w, &prm, table, 8), S24_ERR_ARG);  // too small
  assert_null(w.epi);
  const int32_t bad_mult[3] = {1 << 30, -1, 1 << 28};
  const s24_linear_params_t bad = {bias, bad_mult, shift, -5, 3, -128, 127, S24_ROUND_SINGLE};
  assert_int_equal(s24_linear_prepare(&w, &bad, table, 9), S24_ERR_ARG);
  assert_int_equal(s24_linear_prepare(&w, &prm, table, 9), S24_OK);
  assert_ptr_equal(w.epi, table);
  g.nlog = 0;
  assert_int_equal(s24_linear(&dev, &w, x, 1, &prm, y), S24_OK);
  assert_int_equal(epi_writes(got, 64), n);
  assert_memory_equal(got, want, n * sizeof *got);
  table[0] ^= 1u;  // the prepared words are what the job loads ...
  g.nlog = 0;
  assert_int_equal(s24_linear(&dev, &w, x, 1, &prm, y), S24_OK);
  assert_int_equal(epi_writes(got, 64), n);
  assert_int_equal(got[0], want[0] ^ 1u);
  // ... but not for other parameters (other arrays, another zero point): made again
  const s24_linear_params_t other = {bias, mult2, shift, -5, 3, -128, 127, S24_ROUND_SINGLE};
  g.nlog = 0;
  assert_int_equal(s24_linear(&dev, &w, x, 1, &other, y), S24_OK);
  assert_int_equal(epi_writes(got, 64), n);
  assert_memory_equal(got, want, n * sizeof *got);
  const s24_linear_params_t zi0 = {bias, mult, shift, 0, 3, -128, 127, S24_ROUND_SINGLE};
  g.nlog = 0;
  assert_int_equal(s24_linear(&dev, &w, x, 1, &zi0, y), S24_OK);
  assert_int_equal(epi_writes(got, 64), n);
  assert_int_equal(got[0], 100u);
  s24_weights_free(&w);
  s24_dev_close(&dev);
}

static void dense_group_takes_two_beats_sharing_the_activation(void **state) {
  (void)state;
  s24_dev_t dev;
  open_dev(&dev);
  const int8_t a[8] = {1, 2, 3, 4, 0, 0, 0, 9};  // row 0 dense: 4 nonzeros -> 2 beats
  s24_weights_t w;
  assert_int_equal(s24_weights_load_dense(&dev, a, 2, 4, &w), S24_OK);
  assert_int_equal(w.tile_first[1], 2);
  assert_int_equal(w.bpg[0], 2);
  // beat 0: row0 (1, 2) at (0, 1); row1 (0, 9) at (2, 3)
  assert_int_equal(w.beats[0], 0x09000201u);
  assert_int_equal(w.beats[1], (0u | 1u << 2 | 2u << 4 | 3u << 6));
  // beat 1: row0 (3, 4) at (2, 3); row1 has nothing left: zeros at the highest indices (2, 3)
  assert_int_equal(w.beats[2], 0x00000403u);
  assert_int_equal(w.beats[3], (2u | 3u << 2 | 2u << 4 | 3u << 6));
  s24_weights_free(&w);
}

static void invalid_metadata_is_never_sent(void **state) {
  (void)state;
  s24_dev_t dev;
  open_dev(&dev);
  const s24_pattern_t p = {2, 4};
  const int8_t vals[4] = {1, 2, 3, 4};
  const uint8_t meta[2] = {0x04, 0x05};  // row 1 group 0: indices (1, 1) repeated
  s24_where_t where = {99, 99, 99};
  int32_t c[4];
  assert_int_equal(s24_gemm_compressed(&dev, p, vals, meta, 2, 4, kB, 2, NULL, c, &where),
                   S24_ERR_META);
  assert_int_equal(where.row, 1);
  assert_int_equal(where.group, 0);
  assert_int_equal(g.nlog, 0);
}

// Invalid 1:4 metadata is refused as 2:4's is, on a device with the pair mode (which would run
// valid 1:4 weights in it): a row's unused trailing index bits must be 0 (SPEC §2; with one
// 2-bit index a group nothing else can be wrong), S24_ERR_META naming row and group, and
// nothing reaches the hardware.
static void invalid_1of4_metadata_is_never_sent(void **state) {
  (void)state;
  s24_dev_t dev;
  open_pair_dev(&dev);
  const s24_pattern_t p = {1, 4};
  int8_t vals[8 * 6];
  for (int i = 0; i < 48; i++) vals[i] = (int8_t)(i + 1);
  uint8_t meta[8 * 2];  // K = 24: six groups, 12 of the 16 bits of each row's two bytes
  for (int i = 0; i < 16; i++) meta[i] = (i % 2) ? 0x0E : 0xE4;  // indices 0 1 2 3, 2 3
  meta[5 * 2 + 1] = 0x4E;  // row 5: a nonzero padding bit
  s24_where_t where = {99, 99, 99};
  int32_t c[8 * 2];
  const int8_t b[24 * 2] = {0};
  assert_int_equal(s24_gemm_compressed(&dev, p, vals, meta, 8, 24, b, 2, NULL, c, &where),
                   S24_ERR_META);
  assert_int_equal(where.row, 5);
  assert_int_equal(where.count, S24_WHERE_PADDING);
  s24_weights_t w;
  assert_int_equal(s24_weights_load(&dev, p, vals, meta, 8, 24, &w, &where), S24_ERR_META);
  assert_int_equal(where.row, 5);
  assert_int_equal(g.nlog, 0);
  meta[5 * 2 + 1] = 0x0E;  // valid again: packed for the pair mode (2 row tiles instead of 4)
  assert_int_equal(s24_weights_load(&dev, p, vals, meta, 8, 24, &w, &where), S24_OK);
  assert_int_equal(w.pair, 1);
  s24_weights_free(&w);
  assert_int_equal(g.nlog, 0);
}

static void bad_arguments_touch_nothing(void **state) {
  (void)state;
  s24_dev_t dev, closed = {0};
  open_dev(&dev);
  s24_weights_t w;
  int32_t c[4];
  const s24_pattern_t p = {2, 4}, bad_p = {2, 5};
  const uint8_t meta[2] = {0x4E, 0x4E};
  assert_int_equal(s24_weights_load_dense(&closed, kA, 2, 4, &w), S24_ERR_ARG);
  assert_int_equal(s24_weights_load_dense(&dev, NULL, 2, 4, &w), S24_ERR_ARG);
  assert_int_equal(s24_weights_load_dense(&dev, kA, 0, 4, &w), S24_ERR_ARG);
  assert_int_equal(s24_weights_load(&dev, p, kA, meta, 2, 6, &w, NULL), S24_ERR_ARG);
  assert_int_equal(s24_weights_load(&dev, bad_p, kA, meta, 2, 4, &w, NULL), S24_ERR_ARG);
  assert_int_equal(s24_weights_load_dense(&dev, kA, 2, 4, &w), S24_OK);
  assert_int_equal(s24_gemm(&dev, &w, NULL, 2, NULL, c), S24_ERR_ARG);
  assert_int_equal(s24_gemm(&dev, &w, kB, 0, NULL, c), S24_ERR_ARG);
  assert_int_equal(s24_gemm(&dev, &w, kB, 2, NULL, NULL), S24_ERR_ARG);
  assert_int_equal(s24_gemm(&closed, &w, kB, 2, NULL, c), S24_ERR_ARG);
  dev.inflight_tiles = 0;
  assert_int_equal(s24_gemm(&dev, &w, kB, 2, NULL, c), S24_ERR_ARG);
  dev.inflight_tiles = S24_DEFAULT_INFLIGHT_TILES;
  w.cols = 3;  // packed for another device
  assert_int_equal(s24_gemm(&dev, &w, kB, 2, NULL, c), S24_ERR_ARG);
  w.cols = 2;
  uint32_t err;
  assert_int_equal(s24_dev_errors(&dev, NULL), S24_ERR_ARG);
  assert_int_equal(s24_dev_errors(&closed, &err), S24_ERR_ARG);
  assert_int_equal(s24_dev_counters(&dev, NULL), S24_ERR_ARG);
  assert_int_equal(g.nlog, 0);
  s24_weights_free(&w);
}

// The freestanding driver allocates nothing: weights go into the caller's memory (exactly
// s24_weights_bytes, 16-byte aligned), a job's beats into the seam's scratch; too little of
// either is S24_ERR_NOMEM before any register access.
static void memory_comes_from_the_caller_and_the_seam(void **state) {
  (void)state;
  s24_dev_t dev;
  open_dev(&dev);
  size_t bytes = 0;
  assert_int_equal(s24_weights_bytes(&dev, kA, 2, 4, &bytes), S24_OK);
  assert_true(bytes > 0 && bytes % 16 == 0);
  static _Alignas(16) uint8_t mem[4096];
  s24_weights_t w;
  assert_int_equal(s24_weights_pack(&dev, kA, 2, 4, mem, bytes - 16, &w), S24_ERR_NOMEM);
  assert_int_equal(s24_weights_pack(&dev, kA, 2, 4, mem + 8, bytes, &w), S24_ERR_NOMEM);
  assert_int_equal(s24_weights_pack(&dev, kA, 2, 4, NULL, bytes, &w), S24_ERR_NOMEM);
  assert_int_equal(s24_weights_pack(&dev, kA, 2, 4, mem, bytes, &w), S24_OK);
  assert_ptr_equal(w.beats, (uint32_t *)(void *)mem);
  assert_true((uint8_t *)w.bpg + w.row_tiles * w.groups <= mem + bytes);
  assert_null(w.own);
  const size_t need = s24_gemm_scratch_bytes(&dev, &w);
  assert_true(need > 0 && need <= sizeof g_scratch);
  assert_int_equal(s24_linear_scratch_bytes(&dev, &w), need);
  int32_t c[4];
  g_scratch_len = need - 1;  // a seam with too little staging memory
  assert_int_equal(s24_gemm(&dev, &w, kB, 2, NULL, c), S24_ERR_NOMEM);
  assert_int_equal(g.nlog, 0);
  g_scratch_len = need;
  zero_results(0);
  assert_int_equal(s24_gemm(&dev, &w, kB, 2, NULL, c), S24_OK);
  assert_true(g.nlog > 0);
  g_scratch_len = sizeof g_scratch;
  s24_weights_free(&w);  // clears a caller-packed struct, frees nothing
  assert_null(w.beats);
}

static void start_rejected_reports_err_bits_and_resets(void **state) {
  (void)state;
  s24_dev_t dev;
  open_dev(&dev);
  s24_weights_t w;
  int32_t c[4];
  assert_int_equal(s24_weights_load_dense(&dev, kA, 2, 4, &w), S24_OK);
  g.ovr_addr[0] = S24_REG_ERR;  // the read after START
  g.ovr_val[0] = S24_ERR_START_BUSY_MASK;
  g.novr = 1;
  assert_int_equal(s24_gemm(&dev, &w, kB, 2, NULL, c), S24_ERR_HW);
  assert_int_equal(dev.last_err, S24_ERR_START_BUSY_MASK);
  // after the failed START: soft reset and stream flush, and no stream read
  int saw_reset = 0;
  for (size_t i = 0; i < g.nlog; i++) {
    assert_int_not_equal(g.log[i].op, EV_SR);
    saw_reset |= g.log[i].op == EV_WR && g.log[i].addr == S24_REG_CTRL &&
                 g.log[i].value == S24_CTRL_SOFT_RESET_MASK;
  }
  assert_true(saw_reset);
  assert_int_equal(g.log[g.nlog - 1].op, EV_RESET);
  char buf[64];
  assert_string_equal(s24_err_bits_str(S24_ERR_BAD_CFG_MASK | S24_ERR_W_LAST_MASK, buf, sizeof buf),
                      "BAD_CFG|W_LAST");
  assert_string_equal(s24_err_bits_str(0, buf, sizeof buf), "none");
  s24_weights_free(&w);
}

static void error_bit_at_done_is_hw_error(void **state) {
  (void)state;
  s24_dev_t dev;
  open_dev(&dev);
  zero_results(0);
  g.regs[S24_REG_STATUS / 4] = S24_STATUS_DONE_MASK | S24_STATUS_ERROR_MASK;
  g.ovr_addr[0] = S24_REG_ERR;  // clean after START, META at the end
  g.ovr_val[0] = 0;
  g.novr = 1;
  g.regs[S24_REG_ERR / 4] = S24_ERR_META_MASK;
  int32_t c[4];
  assert_int_equal(s24_gemm_dense(&dev, kA, 2, 4, kB, 2, NULL, c), S24_ERR_HW);
  assert_int_equal(dev.last_err, S24_ERR_META_MASK);
  assert_int_equal(g.log[g.nlog - 1].op, EV_RESET);
}

static void result_timeout_and_status_timeout(void **state) {
  (void)state;
  s24_dev_t dev;
  open_dev(&dev);
  int32_t c[4];
  g.sr_status = S24_ERR_TIMEOUT;
  assert_int_equal(s24_gemm_dense(&dev, kA, 2, 4, kB, 2, NULL, c), S24_ERR_TIMEOUT);
  assert_int_equal(g.log[g.nlog - 1].op, EV_RESET);
  // results arrive but the block never leaves BUSY: the status poll times out
  g.sr_status = S24_OK;
  zero_results(0);
  g.regs[S24_REG_STATUS / 4] = S24_STATUS_BUSY_MASK;
  dev.timeout_ns = 1000;
  g.nlog = 0;
  assert_int_equal(s24_gemm_dense(&dev, kA, 2, 4, kB, 2, NULL, c), S24_ERR_TIMEOUT);
  size_t polls = 0;
  for (size_t i = 0; i < g.nlog; i++) polls += g.log[i].op == EV_RD && g.log[i].addr == S24_REG_STATUS;
  assert_true(polls >= 10 && polls <= 200);  // bounded by the timeout, not endless
  assert_int_equal(g.log[g.nlog - 1].op, EV_RESET);
}

// Issue 14 item 9: with the default timeout (1 s of hardware time, 10^8 cycles), a stuck core
// is given up on after what its job can take by the cycle model, not after the whole timeout.
static void stuck_core_wait_is_bounded_by_the_job(void **state) {
  (void)state;
  s24_dev_t dev;
  open_dev(&dev);
  assert_int_equal(dev.timeout_ns, S24_DEFAULT_TIMEOUT_NS);
  zero_results(0);
  g.regs[S24_REG_STATUS / 4] = S24_STATUS_BUSY_MASK;  // never done
  g.now_step = 20000;                                  // 20 us of hardware time per poll
  int32_t c[4];
  const uint64_t t0 = g.now;
  assert_int_equal(s24_gemm_dense(&dev, kA, 2, 4, kB, 2, NULL, c), S24_ERR_TIMEOUT);
  // the job: one row tile of one beat (2x4 A, one group), one column tile
  s24_cycles_t cyc;
  assert_int_equal(s24_core_cycles(2, 2, 1, 1, &cyc), S24_OK);
  const uint64_t bound = S24_WAIT_MARGIN * cyc.busy_cycles * S24_DEFAULT_CYCLE_NS +
                         S24_WAIT_SLACK_NS;
  assert_int_equal(s24_dev_wait_limit_ns(&dev), bound);
  assert_true(g.sr_timeout <= bound);            // the result wait too
  assert_true(g.now - t0 <= bound + 4 * g.now_step * 8);  // polls + the few other seam calls
  assert_true(g.now - t0 < S24_DEFAULT_TIMEOUT_NS / 100);
  // a raw job through s24_dev_start/s24_dev_wait is bounded the same way
  g.nlog = 0;
  assert_int_equal(s24_dev_start(&dev, 1000, 3), S24_OK);
  assert_int_equal(s24_core_cycles(2, 2, 1000, 3, &cyc), S24_OK);
  assert_int_equal(s24_dev_wait_limit_ns(&dev),
                   S24_WAIT_MARGIN * cyc.busy_cycles * S24_DEFAULT_CYCLE_NS + S24_WAIT_SLACK_NS);
  assert_int_equal(s24_dev_wait(&dev), S24_ERR_TIMEOUT);
  // the caller's smaller timeout still wins
  dev.timeout_ns = 1000;
  assert_int_equal(s24_dev_wait_limit_ns(&dev), 1000);
}

static void misplaced_result_tlast_is_hw_error(void **state) {
  (void)state;
  s24_dev_t dev;
  open_dev(&dev);
  zero_results(1);
  int32_t c[4];
  assert_int_equal(s24_gemm_dense(&dev, kA, 2, 4, kB, 2, NULL, c), S24_ERR_HW);
}

static void clear_errors_and_reset_sequences(void **state) {
  (void)state;
  s24_dev_t dev;
  open_dev(&dev);
  dev.last_err = 5;
  assert_int_equal(s24_dev_clear_errors(&dev), S24_OK);
  assert_int_equal(dev.last_err, 0);
  assert_int_equal(s24_dev_reset(&dev), S24_OK);
  const event_t want[] = {
      {EV_WR, S24_REG_ERR, S24_ERR_W1C_MASK},
      {EV_WR, S24_REG_IRQ, S24_IRQ_W1C_MASK},
      {EV_WR, S24_REG_CTRL, S24_CTRL_SOFT_RESET_MASK},
      {EV_RESET, 0, 0},
  };
  expect_log(want, sizeof want / sizeof want[0]);
  // with irq_enable the driver keeps CTRL.IRQ_EN set in its CTRL writes
  dev.irq_enable = 1;
  g.nlog = 0;
  assert_int_equal(s24_dev_reset(&dev), S24_OK);
  assert_int_equal(g.log[0].value, S24_CTRL_SOFT_RESET_MASK | S24_CTRL_IRQ_EN_MASK);
}

// Many column tiles: never more than inflight_tiles sent ahead of the results read.
static void inflight_window_is_respected(void **state) {
  (void)state;
  s24_dev_t dev;
  open_dev(&dev);
  dev.inflight_tiles = 2;
  zero_results(0);
  int8_t b[4 * 9] = {0};
  int32_t c[2 * 9];
  assert_int_equal(s24_gemm_dense(&dev, kA, 2, 4, b, 9, NULL, c), S24_OK);  // 5 column tiles
  long ahead = 0, most = 0, tiles_read = 0;
  for (size_t i = 0; i < g.nlog; i++) {
    if (g.log[i].op == EV_SW && g.log[i].addr == S24_PORT_A) ahead++;
    if (g.log[i].op == EV_SR) {
      ahead--;
      tiles_read++;
    }
    if (ahead > most) most = ahead;
  }
  assert_int_equal(tiles_read, 5);
  assert_int_equal(most, 2);
}

// Appends the seam traffic of one job of `tiles` tiles of `beats` beats on the 2x2 mock core
// whose tiles all fit the feed window: every tile queued before START (one weight and one
// activation packet each), START, the ERR check, one 2-row result tile per tile, DONE, then the
// counters (the mock's CNT_CYCLES = 30, CNT_TILES_OUT = 4). Returns the new count.
static size_t want_job(event_t *want, size_t nw, uint32_t beats, uint32_t tiles) {
  for (uint32_t q = 0; q < tiles; q++) {
    want[nw++] = (event_t){EV_SW, S24_PORT_W, beats};
    want[nw++] = (event_t){EV_SW, S24_PORT_A, beats};
  }
  want[nw++] = (event_t){EV_WR, S24_REG_CFG_BEATS, beats};
  want[nw++] = (event_t){EV_WR, S24_REG_CFG_TILES, tiles};
  want[nw++] = (event_t){EV_WR, S24_REG_CTRL, S24_CTRL_START_MASK};
  want[nw++] = (event_t){EV_RD, S24_REG_ERR, 0};
  for (uint32_t q = 0; q < tiles; q++) want[nw++] = (event_t){EV_SR, S24_PORT_R, 2};
  want[nw++] = (event_t){EV_RD, S24_REG_STATUS, S24_STATUS_DONE_MASK};
  want[nw++] = (event_t){EV_RD, S24_REG_CNT_CYCLES, 30};
  want[nw++] = (event_t){EV_RD, S24_REG_CNT_BEATS, 0};
  want[nw++] = (event_t){EV_RD, S24_REG_CNT_STALL_W, 0};
  want[nw++] = (event_t){EV_RD, S24_REG_CNT_STALL_A, 0};
  want[nw++] = (event_t){EV_RD, S24_REG_CNT_STALL_R, 0};
  want[nw++] = (event_t){EV_RD, S24_REG_CNT_TILES_OUT, 4};
  return nw;
}

// Consecutive row tiles with equal beats run as ONE job of row tiles x column tiles (row tile
// outer, column tile inner); a row tile with other beats starts a new job. The cycle model
// (s24_gemm_cycles_dense) plans the same jobs.
static void equal_beat_row_tiles_share_one_job(void **state) {
  (void)state;
  s24_dev_t dev;
  open_dev(&dev);
  // 4x4 A on the 2x2 core: row tiles {0, 1} and {2, 3}, one group each; B 4x4: 2 column tiles
  int8_t a[16] = {0, 5, 0, -3, 7, 0, 0, 2, 1, 0, 4, 0, 0, 0, 6, 0};  // 2:4: 1 beat per tile
  int8_t b[16] = {0};
  // result tile q (in the order read) = {100q + 10r + c}: checks where each tile lands in C
  uint32_t rbeats[4 * 2 * 2];
  uint8_t rlast[2] = {0, 1};
  for (uint32_t q = 0; q < 4; q++) {
    for (uint32_t r = 0; r < 2; r++) {
      for (uint32_t cc = 0; cc < 2; cc++) rbeats[(q * 2 + r) * 2 + cc] = 100 * q + 10 * r + cc;
    }
  }
  g.r_last = rlast;
  g.r_advance = 1;
  g.r_beats = rbeats;
  g.regs[S24_REG_CNT_CYCLES / 4] = 30;
  g.regs[S24_REG_CNT_TILES_OUT / 4] = 4;
  s24_weights_t w;
  assert_int_equal(s24_weights_load_dense(&dev, a, 4, 4, &w), S24_OK);
  assert_int_equal(w.row_tiles, 2);
  assert_int_equal(w.tile_first[1] - w.tile_first[0], w.tile_first[2] - w.tile_first[1]);
  int32_t c[16];
  assert_int_equal(s24_gemm(&dev, &w, b, 4, NULL, c), S24_OK);
  event_t want[40];
  size_t nw = 0;
  // all 4 tiles fit the feed window (2x2: 6 tiles): queued before START, weights of row tile
  // 0 twice, then of row tile 1 twice
  nw = want_job(want, nw, 1, 4);  // 2 row tiles x 2 column tiles
  expect_log(want, nw);
  for (int q = 0; q < 4; q++) {  // the weight beats of the right row tile
    assert_int_equal(g.word0[2 * q], w.beats[w.tile_first[q / 2] * w.w_words]);
  }
  for (size_t i = 0; i < 4; i++) {  // tile q = 2 * row tile + column tile
    for (size_t j = 0; j < 4; j++) {
      const uint32_t q = (uint32_t)(2 * (i / 2) + j / 2);
      assert_int_equal(c[i * 4 + j], (int32_t)(100 * q + 10 * (i % 2) + j % 2));
    }
  }
  s24_counters_t cnt;
  assert_int_equal(s24_dev_counters(&dev, &cnt), S24_OK);
  assert_int_equal(cnt.jobs, 1);
  assert_int_equal(cnt.tiles, 4);
  assert_int_equal(cnt.cycles, 30);
  const s24_array_t hw = {2, 2, 2, 4, 0, 0};
  s24_gemm_cycles_t pred;
  assert_int_equal(s24_gemm_cycles_dense(hw, a, 4, 4, 4, &pred), S24_OK);
  assert_int_equal(pred.jobs, 1);
  assert_int_equal(pred.tiles, 4);
  s24_weights_free(&w);

  // row 2 dense: row tile 1 takes 2 beats, row tile 0 one: two jobs of 2 tiles each
  a[9] = 3;
  a[11] = -1;
  g.r_beats = rbeats;
  g.nlog = 0;
  assert_int_equal(s24_weights_load_dense(&dev, a, 4, 4, &w), S24_OK);
  assert_int_equal(w.tile_first[1] - w.tile_first[0], 1);
  assert_int_equal(w.tile_first[2] - w.tile_first[1], 2);
  assert_int_equal(s24_gemm(&dev, &w, b, 4, NULL, c), S24_OK);
  nw = 0;
  for (uint32_t job = 0; job < 2; job++) {
    nw = want_job(want, nw, job + 1, 2);
  }
  expect_log(want, nw);
  for (size_t i = 0; i < 4; i++) {  // same tile order across the two jobs
    for (size_t j = 0; j < 4; j++) {
      const uint32_t q = (uint32_t)(2 * (i / 2) + j / 2);
      assert_int_equal(c[i * 4 + j], (int32_t)(100 * q + 10 * (i % 2) + j % 2));
    }
  }
  assert_int_equal(s24_dev_counters(&dev, &cnt), S24_OK);
  assert_int_equal(cnt.jobs, 2);
  assert_int_equal(cnt.cycles, 60);  // summed over the jobs
  assert_int_equal(s24_gemm_cycles_dense(hw, a, 4, 4, 4, &pred), S24_OK);
  assert_int_equal(pred.jobs, 2);
  assert_int_equal(pred.tiles, 4);
  s24_weights_free(&w);
}

// The job-size caps of the planning rule: CFG_TILES <= 2^32 - 1, busy cycles < 2^31.
static void job_plan_caps(void **state) {
  (void)state;
  const s24_array_t hw = {8, 8, 2, 4, 0, 0};
  const uint64_t same[5] = {7, 7, 7, 7, 7}, mixed[4] = {7, 7, 9, 7};
  assert_int_equal(s24_plan_next_job(hw, same, 5, 3), 5);
  assert_int_equal(s24_plan_next_job(hw, mixed, 4, 3), 2);
  assert_int_equal(s24_plan_next_job(hw, mixed + 2, 2, 3), 1);
  assert_int_equal(s24_plan_next_job(hw, same, 0, 3), 0);
  assert_int_equal(s24_plan_next_job(hw, NULL, 5, 3), 0);
  // CFG_TILES: 2^31 column tiles leave room for one row tile per job; 2^31 - 1 for two
  assert_int_equal(s24_job_max_row_tiles(hw, 1, 1ull << 31), 1);
  assert_int_equal(s24_job_max_row_tiles(hw, 1, (1ull << 31) - 1) * ((1ull << 31) - 1) <=
                       UINT32_MAX, 1);
  // busy cycles: tiles of 2^29 beats, (T - 1) * 2^29 + 2^29 + 21 < 2^31 holds up to T = 3
  assert_int_equal(s24_job_max_row_tiles(hw, 1ull << 29, 1), 3);
  assert_int_equal(s24_job_max_row_tiles(hw, 1ull << 30, 1), 1);
  assert_int_equal(s24_job_max_row_tiles(hw, UINT32_MAX, 1), 1);  // alone it runs anyway
  const uint64_t big[3] = {1ull << 29, 1ull << 29, 1ull << 29};
  assert_int_equal(s24_plan_next_job(hw, big, 3, 2), 1);  // 2 tiles per row tile: 1 fits
  s24_cycles_t cy;
  const uint64_t most = s24_job_max_row_tiles(hw, 100, 5);
  assert_int_equal(s24_core_cycles(8, 8, 100, most * 5, &cy), S24_OK);
  assert_true(cy.busy_cycles < S24_JOB_CYCLES_LIMIT);
  assert_int_equal(s24_core_cycles(8, 8, 100, (most + 1) * 5, &cy), S24_OK);
  assert_true(cy.busy_cycles >= S24_JOB_CYCLES_LIMIT);
  assert_int_equal(s24_job_max_row_tiles(hw, 0, 5), 0);
  assert_int_equal(s24_job_max_row_tiles(hw, 100, 0), 0);
}

// ------------------------------------------------------------------------------ software device
// A 2x2 2:4 software device and its seam.
static void swdev_open(s24_swdev_t *d, s24_seam_t *s) {
  assert_int_equal(s24_swdev_init(d, 2, 2, 2, 4), S24_OK);
  s24_swdev_seam(d, s);
}

static void swdev_flags_tlast_bad_cfg_and_unmapped(void **state) {
  (void)state;
  s24_swdev_t d;
  s24_seam_t s;
  swdev_open(&d, &s);
  uint32_t v = 0xBAD;
  // map 1.5: a hole of the register block reads 0 and ignores writes; beyond it, SLVERR
  assert_int_equal(s.write32(s.ctx, 0x1C, 0xFFFFFFFFu), S24_OK);
  assert_int_equal(s.read32(s.ctx, 0x1C, &v), S24_OK);
  assert_int_equal(v, 0);
  assert_int_equal(s.read32(s.ctx, S24_REG_SPAN, &v), S24_ERR_HW);
  assert_int_equal(s.write32(s.ctx, S24_REG_WINDOW - 4, 0), S24_ERR_HW);
  assert_int_equal(s.read32(s.ctx, S24_REG_WINDOW, &v), S24_ERR_ARG);
  // decoded by word: an offset inside a register reaches it
  assert_int_equal(s.read32(s.ctx, S24_REG_ID + 3, &v), S24_OK);
  assert_int_equal(v, S24_MAGIC);
  assert_int_equal(s.write32(s.ctx, S24_REG_CTRL, S24_CTRL_START_MASK), S24_OK);
  assert_int_equal(s.read32(s.ctx, S24_REG_ERR, &v), S24_OK);
  assert_int_equal(v, S24_ERR_BAD_CFG_MASK);
  assert_int_equal(s.write32(s.ctx, S24_REG_ERR, S24_ERR_BAD_CFG_MASK), S24_OK);
  assert_int_equal(s.write32(s.ctx, S24_REG_CFG_BEATS, 2), S24_OK);
  assert_int_equal(s.write32(s.ctx, S24_REG_CFG_TILES, 1), S24_OK);
  assert_int_equal(s.write32(s.ctx, S24_REG_CTRL, S24_CTRL_START_MASK | S24_CTRL_IRQ_EN_MASK), S24_OK);
  uint32_t beats[4] = {0, 0xFF, 0, 0xFF};  // valid indices (0..3 increasing) in every row
  beats[1] = (0u | 1u << 2 | 0u << 4 | 1u << 6);
  beats[3] = beats[1];
  // weights as two 1-beat packets: TLAST on beat 0 is wrong
  assert_int_equal(s.stream_write(s.ctx, S24_PORT_W, beats, 2, 1), S24_OK);
  assert_int_equal(s.stream_write(s.ctx, S24_PORT_W, beats + 2, 2, 1), S24_OK);
  uint32_t abeats[4] = {0};
  assert_int_equal(s.stream_write(s.ctx, S24_PORT_A, abeats, 2, 2), S24_OK);
  uint32_t r[4];
  uint8_t last[2];
  assert_int_equal(s.stream_read(s.ctx, S24_PORT_R, r, 2, 2, last, 100), S24_OK);
  assert_int_equal(s.read32(s.ctx, S24_REG_ERR, &v), S24_OK);
  assert_int_equal(v, S24_ERR_W_LAST_MASK);
  assert_true(s24_swdev_irq(&d));
  assert_int_equal(s.stream_read(s.ctx, S24_PORT_R, r, 2, 2, last, 100), S24_ERR_TIMEOUT);
  s24_swdev_free(&d);
}

// every storage register of the table (S24_REG_STORE_LIST) in the software device's register file:
// its reset value, and a write keeps exactly its rw bits
static void swdev_storage_registers(void **state) {
  (void)state;
  s24_swdev_t d;
  s24_seam_t s;
  swdev_open(&d, &s);
  uint32_t v = 0, n = 0;
#define STORE_CHECK(name, off, rw, rst)                                              \
  assert_int_equal(s.read32(s.ctx, (off), &v), S24_OK);                              \
  assert_int_equal(v, (rst)); /* its reset */                                        \
  assert_int_equal(s.write32(s.ctx, (off), 0xFFFFFFFFu), S24_OK);                     \
  assert_int_equal(s.read32(s.ctx, (off), &v), S24_OK);                              \
  assert_int_equal(v, (rw)); /* exactly its rw bits kept */                          \
  n++;
  S24_REG_STORE_LIST(STORE_CHECK)
#undef STORE_CHECK
  assert_true(n >= 7);
  s24_swdev_free(&d);
}

// ------------------------------------------------------------------------------ UIO backend
// The UIO backend's register windows are served by a mock of the AXI4-Stream FIFO (PG080)
// registers in front of a software device: a whole GEMM runs through mmio reads and writes.
typedef struct {
  s24_swdev_t dev;
  s24_seam_t seam;
  uint32_t tx[2][4096];  // words written to TDFD, per input FIFO
  size_t ntx[2];
  uint32_t rx[4096];     // a received packet being read out
  size_t nrx, rx_pos;
  uint32_t tx_vacancy;
  int stall_rx;          // never deliver results
  uint32_t held_reads;   // STATUS reads that still show R_HELD (a result beat kept across reset)
  uint32_t rx_resets;    // RDFR writes
} uio_mock_t;

static uint32_t um_read(void *ctx, int win, uint32_t off) {
  uio_mock_t *m = ctx;
  if (win == S24_UIO_WIN_REGS) {
    uint32_t v = 0;
    if (m->seam.read32(m->seam.ctx, off, &v) != S24_OK) return 0xFFFFFFFFu;
    if (off == S24_REG_STATUS && m->held_reads > 0) {
      m->held_reads--;
      v |= S24_STATUS_R_HELD_MASK;
    }
    return v;
  }
  if (win == S24_UIO_WIN_W || win == S24_UIO_WIN_A) {
    if (off == S24_FIFO_TDFV) return m->tx_vacancy;
    return 0;
  }
  assert_int_equal(win, S24_UIO_WIN_R);
  const size_t rw = m->dev.r_words;
  if (off == S24_FIFO_RDFO) {
    if (m->stall_rx) return 0;
    if (m->nrx == m->rx_pos) {  // fetch the next result tile (rows beats) if there is one
      uint8_t last[256];
      if (m->seam.stream_read(m->seam.ctx, S24_PORT_R, m->rx, rw, m->dev.rows, last, 1) ==
          S24_OK) {
        m->nrx = rw * m->dev.rows;
        m->rx_pos = 0;
      } else {
        m->nrx = m->rx_pos = 0;
      }
    }
    return (uint32_t)(m->nrx - m->rx_pos);
  }
  if (off == S24_FIFO_RLR) return (uint32_t)(m->nrx * 4);
  if (off == S24_FIFO_RDFD) {
    assert_true(m->rx_pos < m->nrx);
    return m->rx[m->rx_pos++];
  }
  return 0;
}

static void um_write(void *ctx, int win, uint32_t off, uint32_t v) {
  uio_mock_t *m = ctx;
  if (win == S24_UIO_WIN_REGS) {
    (void)m->seam.write32(m->seam.ctx, off, v);
    return;
  }
  if (win == S24_UIO_WIN_W || win == S24_UIO_WIN_A) {
    const int i = win == S24_UIO_WIN_W ? 0 : 1;
    const s24_port_t port = win == S24_UIO_WIN_W ? S24_PORT_W : S24_PORT_A;
    if (off == S24_FIFO_TDFD) {
      assert_true(m->ntx[i] < 4096);
      m->tx[i][m->ntx[i]++] = v;
    } else if (off == S24_FIFO_TLR) {  // end of packet: hand it to the device with TLAST
      const size_t words = port == S24_PORT_W ? m->dev.w_words : m->dev.a_words;
      assert_int_equal(v, m->ntx[i] * 4);
      assert_int_equal(m->ntx[i] % words, 0);
      assert_int_equal(m->seam.stream_write(m->seam.ctx, port, m->tx[i], words, m->ntx[i] / words),
                       S24_OK);
      m->ntx[i] = 0;
    } else if (off == S24_FIFO_TDFR) {
      assert_int_equal(v, S24_FIFO_RESET_KEY);
      m->ntx[i] = 0;
    }
    return;
  }
  if (off == S24_FIFO_RDFR) {
    assert_int_equal(v, S24_FIFO_RESET_KEY);
    m->nrx = m->rx_pos = 0;
    m->rx_resets++;
  }
}

static uint64_t um_now(void *ctx) {
  uio_mock_t *m = ctx;
  return m->seam.now_ns(m->seam.ctx);
}

// A mock of the FIFO windows (room for 1024 words in each TX FIFO) in front of a software device of
// rows x cols, sparse_n:sparse_m; *u and *seam the UIO backend over it. Freed by um_free.
static uio_mock_t *um_new(uint32_t rows, uint32_t cols, uint32_t sparse_n, uint32_t sparse_m,
                          s24_uio_t *u, s24_seam_t *seam) {
  uio_mock_t *m = calloc(1, sizeof(*m));
  assert_non_null(m);
  assert_int_equal(s24_swdev_init(&m->dev, rows, cols, sparse_n, sparse_m), S24_OK);
  s24_swdev_seam(&m->dev, &m->seam);
  m->tx_vacancy = 1024;
  assert_int_equal(s24_uio_init_mmio(u, um_read, um_write, um_now, m), S24_OK);
  s24_uio_seam(u, seam);
  return m;
}

static void um_free(uio_mock_t *m, s24_uio_t *u) {
  s24_uio_close(u);
  s24_swdev_free(&m->dev);
  free(m);
}

static void uio_gemm_through_fifo_windows_is_bit_exact(void **state) {
  (void)state;
  s24_uio_t u;
  s24_seam_t seam;
  uio_mock_t *m = um_new(2, 3, 2, 4, &u, &seam);
  s24_dev_t dev;
  assert_int_equal(s24_dev_open(&dev, &seam), S24_OK);
  const s24_pattern_t p = {2, 4};
  enum { M = 5, K = 12, N = 7 };
  int8_t a[M * K], b[K * N], vals[M * K / 2];
  uint8_t meta[M * ((K / 4 * 2 * 2 + 7) / 8)];
  int32_t want[M * N], got[M * N];
  for (int i = 0; i < M * K; i++) a[i] = (int8_t)(i * 37 + 11);
  for (int i = 0; i < K * N; i++) b[i] = (int8_t)(i * 53 - 7);
  s24_where_t where;
  assert_int_equal(s24_prune(p, a, M, K, a), S24_OK);
  assert_int_equal(s24_compress(p, a, M, K, vals, meta, &where), S24_OK);
  assert_int_equal(s24_gemm_sparse(p, vals, meta, M, K, b, N, NULL, want, &where), S24_OK);
  assert_int_equal(s24_gemm_compressed(&dev, p, vals, meta, M, K, b, N, NULL, got, &where), S24_OK);
  assert_memory_equal(got, want, sizeof want);
  // results that never come: the RX poll times out
  m->stall_rx = 1;
  dev.timeout_ns = 5000;
  assert_int_equal(s24_gemm_compressed(&dev, p, vals, meta, M, K, b, N, NULL, got, &where),
                   S24_ERR_TIMEOUT);
  // a TX FIFO without room for a packet: the vacancy wait times out
  m->stall_rx = 0;
  m->tx_vacancy = 1;
  assert_int_equal(s24_gemm_compressed(&dev, p, vals, meta, M, K, b, N, NULL, got, &where),
                   S24_ERR_TIMEOUT);
  s24_uio_close(&u);
  // TX FIFOs shallower than one tile of beats: refused at once, not waited for
  m->tx_vacancy = 8;
  assert_int_equal(s24_uio_init_mmio(&u, um_read, um_write, um_now, m), S24_OK);
  s24_uio_seam(&u, &seam);
  assert_int_equal(s24_dev_open(&dev, &seam), S24_OK);
  dev.timeout_ns = UINT64_MAX / 4;  // a wait would hang the test: the refusal must come first
  u.write_timeout_ns = UINT64_MAX / 4;
  assert_int_equal(s24_gemm_compressed(&dev, p, vals, meta, M, K, b, N, NULL, got, &where),
                   S24_ERR_UNSUPPORTED);
  um_free(m, &u);
}

// Map 1.5: after the soft reset s24_top may still present the result beat it held (STATUS.R_HELD);
// the UIO seam's stream reset waits until the emptied RX FIFO has taken it, then resets the RX FIFO
// again, so it never reaches the next job; a beat never taken times out.
static void uio_stream_reset_drops_a_kept_result_beat(void **state) {
  (void)state;
  s24_uio_t u;
  s24_seam_t seam;
  uio_mock_t *m = um_new(2, 2, 2, 4, &u, &seam);
  m->rx_resets = 0;
  assert_int_equal(seam.stream_reset(seam.ctx), S24_OK);  // nothing kept: one RX reset
  assert_int_equal(m->rx_resets, 1);
  m->rx_resets = 0;
  m->held_reads = 3;
  assert_int_equal(seam.stream_reset(seam.ctx), S24_OK);  // kept: waited for, RX reset again
  assert_int_equal(m->held_reads, 0);
  assert_int_equal(m->rx_resets, 2);
  m->held_reads = UINT32_MAX;
  u.write_timeout_ns = 1000;
  assert_int_equal(seam.stream_reset(seam.ctx), S24_ERR_TIMEOUT);
  um_free(m, &u);
}

static void uio_open_errors_are_clean(void **state) {
  (void)state;
  s24_uio_t u;
  assert_int_equal(s24_uio_open(&u, NULL), S24_ERR_ARG);
  assert_int_equal(s24_uio_open(&u, "/nonexistent/uio9"), S24_ERR_IO);
  assert_int_equal(s24_uio_open(&u, "/dev/null"), S24_ERR_IO);  // not a UIO device
  assert_int_equal(s24_uio_init_mmio(&u, NULL, um_write, um_now, NULL), S24_ERR_ARG);
  s24_uio_close(&u);  // safe after a failed open
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(open_reads_id_version_params_then_resets),
      cmocka_unit_test(open_rejects_bad_args_and_incomplete_seam),
      cmocka_unit_test(open_rejects_wrong_magic_version_params),
      cmocka_unit_test(linear_checks_clamp_and_map_version_first),
      cmocka_unit_test(linear_checks_round_mode_and_map_version_first),
      cmocka_unit_test(gemm_register_sequence_and_packing),
      cmocka_unit_test(pair_mode_probe_and_gemm),
      cmocka_unit_test(invalid_1of4_metadata_is_never_sent),
      cmocka_unit_test(dense_group_takes_two_beats_sharing_the_activation),
      cmocka_unit_test(invalid_metadata_is_never_sent),
      cmocka_unit_test(bad_arguments_touch_nothing),
      cmocka_unit_test(memory_comes_from_the_caller_and_the_seam),
      cmocka_unit_test(start_rejected_reports_err_bits_and_resets),
      cmocka_unit_test(error_bit_at_done_is_hw_error),
      cmocka_unit_test(result_timeout_and_status_timeout),
      cmocka_unit_test(stuck_core_wait_is_bounded_by_the_job),
      cmocka_unit_test(misplaced_result_tlast_is_hw_error),
      cmocka_unit_test(clear_errors_and_reset_sequences),
      cmocka_unit_test(inflight_window_is_respected),
      cmocka_unit_test(equal_beat_row_tiles_share_one_job),
      cmocka_unit_test(job_plan_caps),
      cmocka_unit_test(swdev_flags_tlast_bad_cfg_and_unmapped),
      cmocka_unit_test(swdev_storage_registers),
      cmocka_unit_test(linear_pair_mode_from_map_1_4),
      cmocka_unit_test(linear_prepare_loads_the_same_words),
      cmocka_unit_test(uio_gemm_through_fifo_windows_is_bit_exact),
      cmocka_unit_test(uio_stream_reset_drops_a_kept_result_beat),
      cmocka_unit_test(uio_open_errors_are_clean),
  };
  return S24_RUN_TESTS("tests", tests, NULL, NULL);  // the group name cmocka_run_group_tests gives
}
