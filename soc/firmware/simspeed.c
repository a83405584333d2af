// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: a fixed workload for the simulator's speed (make soc-speed): 2,000,000 cycles
// of the CPU alone (a loop over a small array: the IP idle), or, built with -DSIMSPEED_IP, the same
// time with the IP busy (back-to-back jobs of 64 tiles of 64 beats replayed from the resident
// rings, results drained). soc_sim --stats gives the simulated cycles per second of each.
#include <stdint.h>
#include <stdio.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>

#include "s24_regs.h"
#include "soc_rt.h"

static volatile uint32_t g_sink;

#ifdef SIMSPEED_IP
static void ip_jobs(uint64_t until) {
  volatile uint32_t *regs = (volatile uint32_t *)(uintptr_t)S24_REGS_BASE;
  volatile uint32_t *w = (volatile uint32_t *)S24_RING_W_BASE, *a = (volatile uint32_t *)S24_RING_A_BASE;
  const uint32_t tb = 64, tiles = 64;
  regs[S24_REG_CTRL / 4] = S24_CTRL_SOFT_RESET_MASK;
  for (uint32_t b = 0; b < tb; b++) {
    for (int k = 0; k < 4; k++) w[(b << S24_RING_W_LANE_BITS) + k] = 0x01020304u * (b + 1);
    w[(b << S24_RING_W_LANE_BITS) + 4] = 0xeeeeeeeeu;  // indices (2, 3) in every row
    for (int k = 0; k < 8; k++) a[(b << S24_RING_A_LANE_BITS) + k] = 0x05060708u * (b + k);
  }
  uint32_t jobs = 0, busy = 0;
  while (soc_cycles() < until) {
    s24_streams_w_rd_reset_write(1);
    s24_streams_a_rd_reset_write(1);
    s24_streams_r_wr_reset_write(1);
    s24_streams_r_wr_consumed_write(0);
    regs[S24_REG_CFG_BEATS / 4] = tb;
    regs[S24_REG_CFG_TILES / 4] = tiles;
    uint32_t queued = 0, read = 0;
    for (; queued < 8; queued++) {
      s24_streams_w_rd_desc_write(tb << 16 | 1u << 31);
      s24_streams_a_rd_desc_write(tb << 16 | 1u << 31);
    }
    regs[S24_REG_CTRL / 4] = S24_CTRL_START_MASK;
    while (read < tiles * 8) {
      if (queued < tiles && s24_streams_w_rd_desc_level_read() < 12) {
        for (int i = 0; i < 4 && queued < tiles; i++, queued++) {
          s24_streams_w_rd_desc_write(tb << 16 | 1u << 31);
          s24_streams_a_rd_desc_write(tb << 16 | 1u << 31);
        }
      }
      uint32_t got = s24_streams_r_wr_received_read();
      if (got != read) s24_streams_r_wr_consumed_write(read = got);
    }
    while (regs[S24_REG_STATUS / 4] & S24_STATUS_BUSY_MASK) {
    }
    busy += regs[S24_REG_CNT_CYCLES / 4];
    jobs++;
  }
  printf("simspeed: %lu IP jobs, IP busy %lu cycles\n", (unsigned long)jobs, (unsigned long)busy);
}
#endif

int main(void) {
  const uint64_t until = soc_cycles() + 2000000u;
#ifdef SIMSPEED_IP
  ip_jobs(until);
#else
  uint32_t buf[256], acc = 0, i = 0;
  for (int k = 0; k < 256; k++) buf[k] = (uint32_t)k;
  while (soc_cycles() < until) {
    for (int k = 0; k < 256; k++) acc += buf[(k * 7 + i) & 255] * 3u;
    i++;
  }
  g_sink = acc;
  printf("simspeed: CPU alone\n");
#endif
  return 0;
}
