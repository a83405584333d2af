// SPDX-License-Identifier: Apache-2.0
// sparse24 bare-metal build check: a firmware-shaped program over the freestanding parts
// (cmodel/, driver/ with its MMIO seam, runtime/) as a RISC-V soft CPU beside the IP would run
// them: a model in memory loaded into a fixed arena on the golden model's engine and on the
// device's (registers by MMIO, streams by the platform), one inference each, the cycle counter
// read around every operator. Built by `make test-baremetal` with Debian's riscv64-unknown-elf
// gcc and picolibc for rv32im/ilp32 with -Werror, and linked, so that the code size, every
// stack frame and the worst-case stack depth can be reported (scripts/stack_report.py). The
// platform's streams here are stand-ins that refuse (no DMA on this build check); the SoC's
// firmware (soc/) provides real ones.
#include <stddef.h>
#include <stdint.h>

#include "s24_engine.h"
#include "s24_mmio.h"
#include "s24_net.h"

#define S24_REGS_BASE 0x82000000u  // s24_top's register window (the SoC's map)
#define ARENA_BYTES (256u * 1024u)

// The model, its input and output: where a loader (the SoC's memory image) puts them.
extern const uint8_t s24_model[];
extern const uint32_t s24_model_len;
uint8_t s24_x[4096], s24_y[4096];

static _Alignas(16) uint8_t arena[ARENA_BYTES];
static _Alignas(16) uint8_t staging[16384];
static uint64_t op_cycles[256];
static volatile uint32_t status_word;

static uint64_t cycles(void) {
  uint32_t hi, lo, hi2;
  do {
    __asm__ volatile("rdcycleh %0" : "=r"(hi));
    __asm__ volatile("rdcycle %0" : "=r"(lo));
    __asm__ volatile("rdcycleh %0" : "=r"(hi2));
  } while (hi != hi2);
  return (uint64_t)hi << 32 | lo;
}

static void plat_hook(void *ctx, size_t op, int end) {
  (void)ctx;
  static uint64_t t0;
  if (!end) {
    t0 = cycles();
  } else if (op < sizeof op_cycles / sizeof op_cycles[0]) {
    op_cycles[op] += cycles() - t0;
  }
}

static s24_status_t plat_stream_write(void *ctx, s24_port_t port, const uint32_t *beats, size_t words,
                             size_t n) {
  (void)ctx, (void)port, (void)beats, (void)words, (void)n;
  return S24_ERR_UNSUPPORTED;
}
static s24_status_t plat_stream_read(void *ctx, s24_port_t port, uint32_t *beats, size_t words, size_t n,
                            uint8_t *last, uint64_t timeout_ns) {
  (void)ctx, (void)port, (void)beats, (void)words, (void)n, (void)last, (void)timeout_ns;
  return S24_ERR_UNSUPPORTED;
}
static s24_status_t plat_stream_reset(void *ctx) {
  (void)ctx;
  return S24_OK;
}
static uint64_t plat_now_ns(void *ctx) {
  (void)ctx;
  return cycles() * 10u;  // a 100 MHz clock
}

// One network on one engine: load, one inference; the status word tells the host what happened.
static s24_status_t run_on(const s24_engine_t *e) {
  char err[256];
  s24_net_t *net = NULL;
  size_t need = 0;
  s24_status_t st = s24_net_load(s24_model, s24_model_len, e, arena, sizeof arena, &net, &need,
                                 err, sizeof err);
  if (st != S24_OK) return st;
  s24_net_set_hook(net, plat_hook, NULL);
  return s24_net_run(net, s24_x, s24_y, err, sizeof err);
}

int main(void) {
  s24_engine_t model;
  s24_engine_model(&model);
  s24_status_t st = run_on(&model);
  const s24_mmio_platform_t plat = {NULL,   plat_stream_write, plat_stream_read, plat_stream_reset,
                                    plat_now_ns, staging,  sizeof staging,   NULL, 0, NULL, NULL, NULL, NULL};
  s24_mmio_t mm;
  s24_seam_t seam;
  s24_dev_t dev;
  s24_engine_dev_t state;
  s24_engine_t device;
  if (st == S24_OK) st = s24_mmio_init(&mm, S24_REGS_BASE, &plat);
  if (st == S24_OK) {
    s24_mmio_seam(&mm, &seam);
    st = s24_dev_open(&dev, &seam);
  }
  if (st == S24_OK) st = s24_engine_device(&device, &state, &dev, "ip");
  if (st == S24_OK) st = run_on(&device);
  status_word = (uint32_t)st;
  return st == S24_OK ? 0 : 1;
}

// An empty model: the linker check needs the symbols, a loader replaces the bytes.
const uint8_t s24_model[8] = {0};
const uint32_t s24_model_len = sizeof s24_model;
