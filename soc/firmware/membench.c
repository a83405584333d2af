// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: what the memory system delivers to the CPU and to the stream rings
// (make soc-bench, docs/soc.md "Bandwidth"). Each line `key: value`, cycles of the SoC clock:
//   CPU instruction loop, SDRAM copy (cached), stores into the W/A ring windows and loads from the
//   R ring window (uncached I/O), one CSR read, one s24_top register read (AXI-Lite bridge), and the
//   rings' engines feeding s24_top straight from block RAM (a replayed resident tile).
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>

#include "s24_regs.h"
#include "soc_rt.h"

static void report(const char *key, uint64_t bytes, uint64_t cycles) {
  printf("%s_bytes: %" PRIu64 "\n%s_cycles: %" PRIu64 "\n%s_bytes_per_cycle: %" PRIu64 ".%03" PRIu64 "\n",
         key, bytes, key, cycles, key, bytes / cycles, (bytes * 1000 / cycles) % 1000);
}

static volatile uint32_t g_sink;

int main(void) {
  const uint32_t n = 16384;  // bytes per transfer (4x the L1 D$, 2x the L2)
  uint32_t *src = malloc(4 * n), *dst = malloc(4 * n);
  if (!src || !dst) return 1;
  for (uint32_t i = 0; i < n; i++) src[i] = i * 2654435761u;

  // the CPU alone: a loop of 100,000 iterations (add, compare, branch)
  uint64_t t0 = soc_cycles();
  uint32_t acc = 0;
  for (uint32_t i = 0; i < 100000u; i++) {
    acc += i;
    __asm__ volatile("" : "+r"(acc));
  }
  g_sink = acc;
  printf("loop_cycles_per_iteration_x1000: %" PRIu64 "\n", (soc_cycles() - t0) * 1000 / 100000u);

  // SDRAM to SDRAM through the caches (64 KiB each way: the L2 cannot hold it)
  soc_flush_dcache();
  t0 = soc_cycles();
  memcpy(dst, src, 4 * n);
  report("sdram_memcpy", 4 * n, soc_cycles() - t0);
  soc_flush_dcache();
  t0 = soc_cycles();
  uint32_t s = 0;
  for (uint32_t i = 0; i < n; i++) s += src[i];
  g_sink = s;
  report("sdram_read", 4 * n, soc_cycles() - t0);

  // the CPU filling the W ring's window (uncached stores) and reading the R ring's
  volatile uint32_t *w = (volatile uint32_t *)S24_RING_W_BASE;
  volatile uint32_t *a = (volatile uint32_t *)S24_RING_A_BASE;
  volatile uint32_t *r = (volatile uint32_t *)S24_RING_R_BASE;
  const uint32_t beats = 1024;
  t0 = soc_cycles();
  for (uint32_t b = 0; b < beats; b++) {
    volatile uint32_t *d = w + (b << S24_RING_W_LANE_BITS);
    const uint32_t *p = src + b * 5;
    d[0] = p[0];
    d[1] = p[1];
    d[2] = p[2];
    d[3] = p[3];
    d[4] = p[4];
  }
  report("ring_w_store", beats * 20u, soc_cycles() - t0);
  t0 = soc_cycles();
  for (uint32_t b = 0; b < beats; b++) {
    volatile uint32_t *d = a + (b << S24_RING_A_LANE_BITS);
    const uint32_t *p = src + b * 8;
    for (int k = 0; k < 8; k++) d[k] = p[k];
  }
  report("ring_a_store", beats * 32u, soc_cycles() - t0);
  t0 = soc_cycles();
  s = 0;
  for (uint32_t b = 0; b < 256; b++) {
    volatile uint32_t *q = r + (b << S24_RING_R_LANE_BITS);
    for (int k = 0; k < 8; k++) s += q[k];
  }
  g_sink = s;
  report("ring_r_load", 256u * 32u, soc_cycles() - t0);

  // the rings' fill DMAs: main RAM -> ring through their LiteDRAM read ports (src written back first)
  soc_flush_dcache();
  uint32_t n0 = s24_streams_w_fill_done_read();
  t0 = soc_cycles();
  s24_streams_w_fill_addr_write((uint32_t)(uintptr_t)src);
  s24_streams_w_fill_go_write(0 | beats << 16);
  while (s24_streams_w_fill_done_read() == n0) {
  }
  report("fill_w_dma", beats * 20u, soc_cycles() - t0);
  n0 = s24_streams_a_fill_done_read();
  t0 = soc_cycles();
  s24_streams_a_fill_addr_write((uint32_t)(uintptr_t)src);
  s24_streams_a_fill_go_write(0 | beats << 16);
  while (s24_streams_a_fill_done_read() == n0) {
  }
  report("fill_a_dma", beats * 32u, soc_cycles() - t0);
  uint32_t bad = 0;  // what the fills wrote, read back through the windows
  for (uint32_t b = 0; b < beats; b++) {
    for (uint32_t k = 0; k < 5; k++) bad += w[(b << S24_RING_W_LANE_BITS) + k] != src[b * 5 + k];
    for (uint32_t k = 0; k < 8; k++) bad += a[(b << S24_RING_A_LANE_BITS) + k] != src[b * 8 + k];
  }
  printf("fill_mismatches: %" PRIu32 "\n", bad);

  // the fetch unit (ConvFetch): 8 column tiles of a 1x1 convolution over an 8x8x64 input (16
  // contiguous words a column), then of a 3x3 one over 16 of its channels (4 words a tap, 36
  // groups: a depthwise slice's reads), go to done each
  for (int kk = 1; kk <= 3; kk += 2) {
    const uint32_t c = 64, cs = kk == 1 ? 64 : 16, row = 8 * c, groups = kk * kk * cs / 4;
    const uint32_t pd = (uint32_t)kk / 2;
    s24_streams_a_conv_hw_write(8 | 8 << 16);
    s24_streams_a_conv_ohw_write(8 | 8 << 16);
    s24_streams_a_conv_strd_write(1 | 1 << 16);
    s24_streams_a_conv_dil_write(1 | 1 << 16);
    s24_streams_a_conv_pad_write(pd | pd << 16);
    s24_streams_a_conv_taps_write((uint32_t)kk | (cs / 4) << 16);
    s24_streams_a_conv_step_x_write(c);
    s24_streams_a_conv_step_y_write(row);
    s24_streams_a_conv_step_img_write(8 * row - 7 * row);
    s24_streams_a_conv_tap_x_write(c - cs + 4);
    s24_streams_a_conv_tap_y_write(row - (uint32_t)(kk - 1) * c - cs + 4);
    s24_streams_a_conv_padw_write(0);
    s24_streams_a_conv_groups_write(groups);
    uint64_t cyc = 0;
    for (uint32_t t = 0; t < 8; t++) {  // output row t: columns (0..7, t)
      const uint32_t base = (uint32_t)(uintptr_t)src + (t - pd) * row;
      s24_streams_a_conv_pos_write(0 | t << 16);
      s24_streams_a_conv_org_write(((t - pd) & 0xffffu) | (uint32_t)(-(int32_t)pd) << 16);
      s24_streams_a_conv_addr0_write(base - pd * c);
      s24_streams_a_conv_row0_write(base - pd * c);
      n0 = s24_streams_a_conv_done_read();
      t0 = soc_cycles();
      s24_streams_a_conv_go_write(0 | 8u << 16);
      while (s24_streams_a_conv_done_read() == n0) {
      }
      cyc += soc_cycles() - t0;
    }
    report(kk == 1 ? "conv_fetch_1x1" : "conv_fetch_3x3", 8u * 8u * groups * 4u, cyc);
  }

  // one CSR read, one s24_top register read (AXI-Lite through the bridge), 1000 of each
  t0 = soc_cycles();
  for (int i = 0; i < 1000; i++) g_sink = s24_streams_w_rd_consumed_read();
  printf("csr_read_cycles_x1000: %" PRIu64 "\n", soc_cycles() - t0);
  t0 = soc_cycles();
  for (int i = 0; i < 1000; i++) g_sink = *(volatile uint32_t *)(uintptr_t)(S24_REGS_BASE + S24_REG_STATUS);
  printf("s24_reg_read_cycles_x1000: %" PRIu64 "\n", soc_cycles() - t0);

  // the engines alone: one job of 64 tiles of 16 beats replayed from the resident rings (16 beats of
  // W and A written once, 64 descriptors each), results drained by the R engine as they come
  s24_streams_w_rd_reset_write(1);
  s24_streams_a_rd_reset_write(1);
  s24_streams_r_wr_reset_write(1);
  s24_streams_r_wr_consumed_write(0);
  volatile uint32_t *regs = (volatile uint32_t *)(uintptr_t)S24_REGS_BASE;
  regs[S24_REG_CTRL / 4] = S24_CTRL_SOFT_RESET_MASK;
  // 16 resident beats: zero weights with the canonical metadata of an empty 2:4 group, (2, 3) in
  // every row (SPEC 2; the indices follow the 8*2*8 value bits, 2 bits a slot), any activations
  for (uint32_t b = 0; b < 16; b++) {
    for (int k = 0; k < 4; k++) w[(b << S24_RING_W_LANE_BITS) + k] = 0;
    w[(b << S24_RING_W_LANE_BITS) + 4] = 0xeeeeeeeeu;
    for (int k = 0; k < 8; k++) a[(b << S24_RING_A_LANE_BITS) + k] = b;
  }
  const uint32_t tiles = 64, tb = 16;
  regs[S24_REG_CFG_BEATS / 4] = tb;
  regs[S24_REG_CFG_TILES / 4] = tiles;
  for (uint32_t t = 0; t < 8; t++) {  // the descriptor queues take 16; refill as they drain
    s24_streams_w_rd_desc_write(0 | (tb << 16) | (1u << 31));
    s24_streams_a_rd_desc_write(0 | (tb << 16) | (1u << 31));
  }
  t0 = soc_cycles();
  regs[S24_REG_CTRL / 4] = S24_CTRL_START_MASK;
  uint32_t queued = 8, read = 0;
  while (read < tiles * 8) {
    if (queued < tiles && s24_streams_w_rd_desc_level_read() < 12) {
      for (int i = 0; i < 4 && queued < tiles; i++, queued++) {
        s24_streams_w_rd_desc_write(0 | (tb << 16) | (1u << 31));
        s24_streams_a_rd_desc_write(0 | (tb << 16) | (1u << 31));
      }
    }
    uint32_t got = s24_streams_r_wr_received_read();
    if (got != read) {
      read = got;
      s24_streams_r_wr_consumed_write(read);
    }
  }
  while (regs[S24_REG_STATUS / 4] & S24_STATUS_BUSY_MASK) {
  }
  uint64_t job = soc_cycles() - t0;
  uint32_t cyc = regs[S24_REG_CNT_CYCLES / 4], bts = regs[S24_REG_CNT_BEATS / 4];
  printf("engine_job_soc_cycles: %" PRIu64 "\nengine_job_ip_cycles: %" PRIu32 "\nengine_job_ip_beats: %" PRIu32
         "\nengine_job_stall_w: %" PRIu32 "\nengine_job_stall_a: %" PRIu32 "\nengine_job_stall_r: %" PRIu32
         "\nengine_job_err: %" PRIu32 "\n",
         job, cyc, bts, regs[S24_REG_CNT_STALL_W / 4], regs[S24_REG_CNT_STALL_A / 4],
         regs[S24_REG_CNT_STALL_R / 4], regs[S24_REG_ERR / 4]);
  report("engine_w", (uint64_t)bts * 20u, cyc);
  report("engine_a", (uint64_t)bts * 32u, cyc);
  free(src);
  free(dst);
  return 0;
}
