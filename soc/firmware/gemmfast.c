// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: what a GEMM costs on this SoC when the operands are packed word by word,
// once, straight into the rings and replayed (make soc-fast; docs/soc.md "A GEMM without the
// driver's packing"). A measurement prototype, not a driver: 2:4-pruned A (one beat per group),
// K a multiple of 4, every weight and activation beat resident at once (row tiles x K/4 and
// column tiles x K/4 beats within the rings' 1024). The weights are packed by the driver
// (s24_weights_load, as they would be at load time); the activations are packed here, 4 int8 of
// one column (k = 4g .. 4g+3) per 32-bit word, straight into the A ring's window; the job's tiles
// (row tile outer, column tile inner) are descriptors replaying those beats; results are read from
// the R ring into C. C is compared with the C model. One line per shape: key=value.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>

#include "s24_drv.h"
#include "s24_drv_host.h"
#include "s24_model.h"
#include "s24_regs.h"
#include "s24_soc_seam.h"
#include "soc_rt.h"

#define REGS ((volatile uint32_t *)(uintptr_t)S24_REGS_BASE)
#define RING_W ((volatile uint32_t *)S24_RING_W_BASE)
#define RING_A ((volatile uint32_t *)S24_RING_A_BASE)
#define RING_R ((volatile uint32_t *)S24_RING_R_BASE)

static uint64_t g_rng = 0xfa57ull;

static int run(s24_dev_t *dev, uint32_t m, uint32_t k, uint32_t n) {
  const s24_pattern_t p24 = {2, 4};
  const uint32_t R = dev->hw.rows, C = dev->hw.cols, G = k / 4;
  const uint32_t rt = (m + R - 1) / R, ct = (n + C - 1) / C;
  if (k % 4 || rt * G > S24_RING_W_DEPTH || ct * G > S24_RING_A_DEPTH || C != 8 || R != 8) return 0;
  int8_t *a = malloc(m * k), *b = malloc((size_t)k * n);
  int32_t *c = malloc(4u * m * n), *ref = malloc(4u * m * n);
  s24_weights_t w;
  memset(&w, 0, sizeof w);
  int ok = 0;
  if (!a || !b || !c || !ref) goto out;
  for (size_t i = 0; i < (size_t)m * k; i++) a[i] = (int8_t)s24_rng_next(&g_rng);
  for (size_t i = 0; i < (size_t)k * n; i++) b[i] = (int8_t)s24_rng_next(&g_rng);
  if (s24_prune(p24, a, m, k, a) != S24_OK || s24_gemm_dense_ref(a, m, k, b, n, NULL, ref) != S24_OK ||
      s24_weights_load_dense(dev, a, m, k, &w) != S24_OK || w.pair) {
    goto out;
  }
  for (uint32_t t = 0; t < rt; t++) {
    if (w.tile_first[t + 1] - w.tile_first[t] != G) goto out;  // one beat per group
  }
  memset(c, 0x5a, 4u * m * n);
  if (s24_dev_reset(dev) != S24_OK) goto out;
  s24_streams_w_rd_reset_write(1);
  s24_streams_a_rd_reset_write(1);
  s24_streams_r_wr_reset_write(1);
  s24_streams_r_wr_consumed_write(0);

  // the weights: the driver's packed beats, copied into the W ring once
  const uint64_t t0 = soc_cycles();
  for (uint32_t i = 0; i < rt * G; i++) {
    volatile uint32_t *d = RING_W + (i << S24_RING_W_LANE_BITS);
    const uint32_t *s = w.beats + (size_t)i * 5;
    d[0] = s[0];
    d[1] = s[1];
    d[2] = s[2];
    d[3] = s[3];
    d[4] = s[4];
  }
  const uint64_t t1 = soc_cycles();
  // the activations: beat j*G + g of column tile j, word cc = B[4g .. 4g+3][8j + cc]
  for (uint32_t j = 0; j < ct; j++) {
    for (uint32_t g = 0; g < G; g++) {
      volatile uint32_t *d = RING_A + ((j * G + g) << S24_RING_A_LANE_BITS);
      const int8_t *row = b + (size_t)4 * g * n;
      for (uint32_t cc = 0; cc < 8; cc++) {
        const uint32_t col = 8 * j + cc;
        uint32_t v = 0;
        if (col < n) {
          v = (uint8_t)row[col] | (uint32_t)(uint8_t)row[n + col] << 8 |
              (uint32_t)(uint8_t)row[2 * n + col] << 16 | (uint32_t)(uint8_t)row[3 * n + col] << 24;
        }
        d[cc] = v;
      }
    }
  }
  const uint64_t t2 = soc_cycles();
  // one job of rt x ct tiles; descriptors queued as the engines take them, results read as they come
  const uint32_t tiles = rt * ct;
  REGS[S24_REG_CFG_BEATS / 4] = G;
  REGS[S24_REG_CFG_TILES / 4] = tiles;
  uint32_t queued = 0, rows_read = 0;
  const uint32_t total_rows = tiles * R;
  for (; queued < tiles && queued < 8; queued++) {
    s24_streams_w_rd_desc_write((queued / ct) * G | G << 16 | 1u << 31);
    s24_streams_a_rd_desc_write((queued % ct) * G | G << 16 | 1u << 31);
  }
  REGS[S24_REG_CTRL / 4] = S24_CTRL_START_MASK;
  while (rows_read < total_rows) {
    if (queued < tiles && s24_streams_w_rd_desc_level_read() < 12) {
      for (int i = 0; i < 4 && queued < tiles; i++, queued++) {
        s24_streams_w_rd_desc_write((queued / ct) * G | G << 16 | 1u << 31);
        s24_streams_a_rd_desc_write((queued % ct) * G | G << 16 | 1u << 31);
      }
    }
    const uint32_t got = s24_streams_r_wr_received_read();
    for (; rows_read < got; rows_read++) {
      const uint32_t tile = rows_read / R, r = rows_read % R;
      const uint32_t row = (tile / ct) * R + r, col0 = (tile % ct) * C;
      volatile uint32_t *s = RING_R + ((rows_read & (S24_RING_R_DEPTH - 1)) << S24_RING_R_LANE_BITS);
      if (row < m) {
        for (uint32_t cc = 0; cc < C && col0 + cc < n; cc++) c[(size_t)row * n + col0 + cc] = (int32_t)s[cc];
      }
    }
    s24_streams_r_wr_consumed_write(rows_read);
  }
  while (REGS[S24_REG_STATUS / 4] & S24_STATUS_BUSY_MASK) {
  }
  const uint64_t t3 = soc_cycles();
  const uint32_t busy = REGS[S24_REG_CNT_CYCLES / 4], beats = REGS[S24_REG_CNT_BEATS / 4];
  const uint32_t sw = REGS[S24_REG_CNT_STALL_W / 4], sa = REGS[S24_REG_CNT_STALL_A / 4];
  const uint32_t sr = REGS[S24_REG_CNT_STALL_R / 4], err = REGS[S24_REG_ERR / 4];
  s24_cycles_t model = {0, 0, 0};
  ok = s24_core_cycles(R, C, G, tiles, &model) == S24_OK && err == 0 &&
       memcmp(c, ref, 4u * m * n) == 0;
  printf("gemmfast shape=%" PRIu32 "x%" PRIu32 "x%" PRIu32 " ok=%d w_copy_cycles=%" PRIu64
         " a_pack_cycles=%" PRIu64 " job_soc_cycles=%" PRIu64 " total_soc_cycles=%" PRIu64
         " ip_cycles=%" PRIu32 " ip_cycles_model=%" PRIu64 " ip_beats=%" PRIu32 " stall_w=%" PRIu32
         " stall_a=%" PRIu32 " stall_r=%" PRIu32 " macs=%" PRIu64 "\n",
         m, k, n, ok, t1 - t0, t2 - t1, t3 - t2, t3 - t0, busy, model.busy_cycles, beats, sw, sa, sr,
         (uint64_t)m * k * n);
out:
  s24_weights_free(&w);
  free(a);
  free(b);
  free(c);
  free(ref);
  return ok;
}

int main(void) {
  s24_soc_t soc;
  s24_seam_t seam;
  s24_dev_t dev;
  if (s24_soc_dev_open(&soc, &seam, &dev) != S24_OK) return 1;
  dev.cycle_ns = s24_soc_cycle_ns();
  static const uint32_t shapes[][3] = {{8, 256, 64}, {16, 576, 24}};
  int fails = 0;
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    fails += !run(&dev, shapes[i][0], shapes[i][1], shapes[i][2]);
  }
  s24_dev_close(&dev);
  s24_soc_close(&soc);
  printf("gemmfast: %d failed\n", fails);
  return fails ? 1 : 0;
}
