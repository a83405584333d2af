// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: what LiteX's generated csr.h needs of <system.h>, in ISO C (LiteX's own
// VexRiscv system.h uses `asm`, a GNU keyword that -std=c11 does not have).
#ifndef SOC_SYSTEM_H_
#define SOC_SYSTEM_H_

#include <generated/soc.h>

/** VexRiscv's data cache flush (its D$ is write-through: this drops every line). */
static inline void flush_cpu_dcache(void) { __asm__ volatile(".word(0x500F)\n"); }
/** VexRiscv's instruction cache flush. */
static inline void flush_cpu_icache(void) {
  __asm__ volatile(".word(0x100F)\nnop\nnop\nnop\nnop\nnop\n");
}
void flush_l2_cache(void);

#endif  // SOC_SYSTEM_H_
