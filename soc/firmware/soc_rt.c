// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: the firmware's platform layer (soc_rt.h).
#include "soc_rt.h"

#include <stdio.h>
#include <stdlib.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>

// picolibc.ld's layout, defined in an object (a --defsym comes too late for its DEFINED()s):
// code and read-only data in the first MiB of the SDRAM, then data, heap and stack up to the
// host's area (SOC_HOST_BASE). 64 KiB of stack (the runtime's deepest measured use is 9.4 KiB).
__asm__(".global __flash\n.set __flash, 0x40000000\n"
        ".global __flash_size\n.set __flash_size, 0x00100000\n"
        ".global __ram\n.set __ram, 0x40100000\n"
        ".global __ram_size\n.set __ram_size, 0x00f00000\n"
        ".global __stack_size\n.set __stack_size, 0x00010000\n");

_Static_assert(SOC_HOST_BASE == 0x40100000u + 0x00f00000u, "the host area follows the firmware's RAM");
_Static_assert(MAIN_RAM_BASE == 0x40000000u && S24_L2_SIZE <= 0x00100000u,
               "soc_flush_range reads the L2's size of code and read-only data");

static int uart_putc(char c, FILE *f) {
  (void)f;
  while (uart_txfull_read()) {
  }
  uart_rxtx_write((uint8_t)c);
  return (unsigned char)c;
}

static FILE uart_stdout = FDEV_SETUP_STREAM(uart_putc, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdout = &uart_stdout;
FILE *const stderr = &uart_stdout;

uint64_t soc_cycles(void) {
  timer0_uptime_latch_write(1);
  return timer0_uptime_cycles_read();
}

uint32_t soc_clk_hz(void) { return CONFIG_CLOCK_FREQUENCY; }

void soc_invalidate_dcache(void) { flush_cpu_dcache(); }

// LiteX's L2 is a direct-mapped write-back cache of S24_L2_SIZE bytes (16-byte lines): reading
// twice its size of main RAM (below the firmware's stack, never written by it) evicts every
// dirty line. One word a D$ line (32 bytes, VexRiscv's `standard`): after flush_cpu_dcache each
// read misses the D$, whose refill reads the whole line, both L2 lines of it, through the L2 (a
// word a word took 8 times the reads: about 42,000 cycles a flush).
void flush_l2_cache(void) {
  flush_cpu_dcache();  // (write-through: nothing lost) so that every read below misses it
  volatile const uint32_t *p = (volatile const uint32_t *)MAIN_RAM_BASE;
  for (uint32_t i = 0; i < 2 * S24_L2_SIZE / 4; i += 32 / 4) (void)p[i];
}

void soc_flush_dcache(void) { flush_l2_cache(); }

// The same for the lines of [p, p + n) only: a read of another line of a line's direct-mapped set
// writes back whatever dirty line the set holds. That line is taken from main RAM's first 2 x
// S24_L2_SIZE bytes (code, in the first MiB with the read-only data: never dirty, never a DMA's),
// the set's line in the first S24_L2_SIZE bytes, or in the next ones for a line there: so a flush
// brings no line of any other data into the L2 (a line S24_L2_SIZE away was another tensor's:
// the seam then had to flush that one again before a DMA wrote it). One read a D$
// line, as above. A range of the L2's size or more: every set read once, from the first
// S24_L2_SIZE bytes, half the whole flush's reads, unless the range lies in the first twice that
// (then the whole flush).
void soc_flush_range(const void *p, size_t n) {
  if (n >= S24_L2_SIZE) {
    if ((uintptr_t)p < MAIN_RAM_BASE + 2u * S24_L2_SIZE) {
      flush_l2_cache();
      return;
    }
    flush_cpu_dcache();
    volatile const uint32_t *m = (volatile const uint32_t *)MAIN_RAM_BASE;
    for (uint32_t i = 0; i < S24_L2_SIZE / 4; i += 32 / 4) (void)m[i];
    return;
  }
  flush_cpu_dcache();
  const uintptr_t end = (uintptr_t)p + n;
  for (uintptr_t a = (uintptr_t)p & ~(uintptr_t)31u; a < end; a += 32) {
    uintptr_t alias = MAIN_RAM_BASE + (a & (S24_L2_SIZE - 1u));  // (MAIN_RAM_BASE: a multiple)
    if (alias == a) alias += S24_L2_SIZE;
    (void)*(volatile const uint32_t *)alias;
  }
}

void _exit(int code) {
  fflush(stdout);
  while (!uart_txempty_read()) {
  }
  soc_flush_dcache();
  host_exit_write((uint32_t)code);
  for (;;) {
  }
}

// A CSR instruction under -march=rv32im (binutils 2.40 moved them into the Zicsr extension)
#define ZICSR(insn) ".option push\n.option arch, +zicsr\n" insn "\n.option pop"

// Traps (a bus error, an illegal instruction, a misaligned access): say where on the UART, then
// exit with 0x100 | mcause, which the harness reports as a crash.
__attribute__((interrupt("machine"), aligned(4))) static void soc_trap(void) {
  uint32_t cause, epc, tval;
  __asm__ volatile(ZICSR("csrr %0, mcause") : "=r"(cause));
  __asm__ volatile(ZICSR("csrr %0, mepc") : "=r"(epc));
  __asm__ volatile(ZICSR("csrr %0, mtval") : "=r"(tval));
  printf("\ntrap: mcause %lu mepc 0x%08lx mtval 0x%08lx\n", (unsigned long)cause,
         (unsigned long)epc, (unsigned long)tval);
  _exit((int)(0x100u | (cause & 0xffu)));
}

__attribute__((constructor)) static void soc_rt_init(void) {
  __asm__ volatile(ZICSR("csrw mtvec, %0") ::"r"(soc_trap));
}
