// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: the smallest firmware (make soc-hello): a line on the UART, the cycle
// counter, s24_top's ID register, exit 0.
#include <inttypes.h>
#include <stdio.h>

#include "s24_regs.h"
#include "soc_rt.h"

#include <generated/soc.h>

int main(void) {
  uint64_t t0 = soc_cycles();
  uint32_t id = *(volatile uint32_t *)(uintptr_t)(S24_REGS_BASE + S24_REG_ID);
  uint64_t t1 = soc_cycles();
  printf("hello: s24_top ID 0x%08" PRIx32 " (read in %" PRIu64 " cycles), %" PRIu64 " cycles since reset\n",
         id, t1 - t0, t0);
  return id == S24_MAGIC ? 0 : 1;
}
