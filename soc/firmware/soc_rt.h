// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: the firmware's platform layer (bare-metal, picolibc): start-up glue, stdout
// over the UART, exit to the host, traps, the cycle counter and the caches.
//
// Start-up is picolibc's crt0 (stack, .data, .bss, constructors, main, exit); soc_rt.c adds the
// memory layout (__flash/__ram for picolibc.ld: code and data in the SDRAM), a 64 KiB stack
// (__stack_size: picolibc's default is 2 KiB and an overflow is silent), stdout on the UART, a
// trap handler and _exit, which flushes the caches and writes the exit register the harness
// watches (soc/sim/soc_sim.cpp: 0 ok, 1..255 failure, 0x100 | mcause a trap).
#ifndef SOC_RT_H_
#define SOC_RT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The host's area of main RAM: blobs the harness loads and dumps (docs/soc.md, "Memory map"). */
#define SOC_HOST_BASE 0x41000000u
#define SOC_HOST_SIZE 0x01000000u

/** SoC clock cycles since reset (LiteX timer0's 64-bit uptime counter). */
uint64_t soc_cycles(void);
/** The nominal clock (CONFIG_CLOCK_FREQUENCY), Hz. */
uint32_t soc_clk_hz(void);
/** Writes back and drops the data cache lines (VexRiscv's D$ is write-through: drops them), then
 *  writes back LiteX's L2, so memory (the SDRAM the harness dumps, a DMA's view) holds every
 *  store. */
void soc_flush_dcache(void);
/** soc_flush_dcache for the bytes [p, p + n) only (their lines, whatever else stays cached). */
void soc_flush_range(const void *p, size_t n);
/** Drops the data cache lines only (before reading what another master wrote). */
void soc_invalidate_dcache(void);

#ifdef __cplusplus
}
#endif

#endif  // SOC_RT_H_
