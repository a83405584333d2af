// SPDX-License-Identifier: Apache-2.0
// sparse24 bare-metal seam (s24_mmio.h): volatile register accesses and the platform's streams.
#include "s24_mmio.h"

#include <string.h>

s24_status_t s24_mmio_init(s24_mmio_t *m, uintptr_t base, const s24_mmio_platform_t *platform) {
  if (m == NULL || platform == NULL || base == 0 || (base & 3u) != 0 ||
      platform->stream_write == NULL || platform->stream_read == NULL ||
      platform->stream_reset == NULL || platform->now_ns == NULL ||
      ((uintptr_t)platform->scratch & 15u) != 0) {
    return S24_ERR_ARG;
  }
  memset(m, 0, sizeof(*m));
  m->regs = (volatile uint32_t *)base;
  m->platform = *platform;
  return S24_OK;
}

static s24_status_t mm_read32(void *ctx, uint32_t addr, uint32_t *value) {
  const s24_mmio_t *m = ctx;
  if (m == NULL || value == NULL || (addr & 3u) != 0) return S24_ERR_ARG;
  *value = m->regs[addr / 4];
  return S24_OK;
}

static s24_status_t mm_write32(void *ctx, uint32_t addr, uint32_t value) {
  s24_mmio_t *m = ctx;
  if (m == NULL || (addr & 3u) != 0) return S24_ERR_ARG;
  m->regs[addr / 4] = value;
  return S24_OK;
}

static s24_status_t mm_write32_burst(void *ctx, const uint32_t *addr, size_t n_addr,
                                     const uint32_t *value, size_t n) {
  s24_mmio_t *m = ctx;
  if (m == NULL || n_addr == 0 || (n > 0 && (addr == NULL || value == NULL))) return S24_ERR_ARG;
  for (size_t j = 0; j < n_addr; j++) {
    if ((addr[j] & 3u) != 0) return S24_ERR_ARG;
  }
  volatile uint32_t *const regs = m->regs;
  for (size_t i = 0; i < n;) {  // (a store each, no call, no division)
    for (size_t j = 0; j < n_addr && i < n; j++, i++) regs[addr[j] / 4] = value[i];
  }
  return S24_OK;
}

static s24_status_t mm_stream_write(void *ctx, s24_port_t port, const uint32_t *beats,
                                    size_t words, size_t n) {
  s24_mmio_t *m = ctx;
  return m->platform.stream_write(m->platform.ctx, port, beats, words, n);
}

static s24_status_t mm_stream_read(void *ctx, s24_port_t port, uint32_t *beats, size_t words,
                                   size_t n, uint8_t *last, uint64_t timeout_ns) {
  s24_mmio_t *m = ctx;
  return m->platform.stream_read(m->platform.ctx, port, beats, words, n, last, timeout_ns);
}

static s24_status_t mm_stream_reset(void *ctx) {
  s24_mmio_t *m = ctx;
  return m->platform.stream_reset(m->platform.ctx);
}

static uint64_t mm_now_ns(void *ctx) {
  s24_mmio_t *m = ctx;
  return m->platform.now_ns(m->platform.ctx);
}

static s24_status_t mm_stream_conv(void *ctx, const s24_geom_t *g, const s24_conv_src_t *src,
                                   size_t row, size_t j0, size_t groups, const uint8_t *reps,
                                   int fresh) {
  s24_mmio_t *m = ctx;
  return m->platform.stream_conv(m->platform.ctx, g, src, row, j0, groups, reps, fresh);
}

static s24_status_t mm_stream_job(void *ctx, const s24_seam_job_t *job) {
  s24_mmio_t *m = ctx;
  return m->platform.stream_job(m->platform.ctx, job);
}

static s24_status_t mm_stream_add(void *ctx, const s24_add_job_t *job, uint64_t timeout_ns) {
  s24_mmio_t *m = ctx;
  return m->platform.stream_add(m->platform.ctx, job, timeout_ns);
}

static s24_status_t mm_stream_quant(void *ctx, const s24_quant_job_t *job, size_t *done,
                                    uint64_t timeout_ns) {
  s24_mmio_t *m = ctx;
  return m->platform.stream_quant(m->platform.ctx, job, done, timeout_ns);
}

static void mm_cpu_touch(void *ctx) {
  s24_mmio_t *m = ctx;
  m->platform.cpu_touch(m->platform.ctx);
}

static void *mm_scratch(void *ctx, size_t bytes) {
  s24_mmio_t *m = ctx;
  return bytes <= m->platform.scratch_len ? m->platform.scratch : NULL;
}

// The seam's functions in s24_seam_t's order; s24_mmio_seam adds the context.
static const s24_seam_t k_mmio_seam = {
    .read32 = mm_read32,           .write32 = mm_write32,          .stream_write = mm_stream_write,
    .stream_read = mm_stream_read, .stream_reset = mm_stream_reset, .now_ns = mm_now_ns,
    .scratch = mm_scratch,         .write32_burst = mm_write32_burst};

void s24_mmio_seam(s24_mmio_t *m, s24_seam_t *seam) {
  if (seam != NULL) {
    *seam = k_mmio_seam;
    seam->ctx = m;
    seam->stream_conv = m->platform.stream_conv != NULL ? mm_stream_conv : NULL;
    seam->conv_channels = m->platform.stream_conv != NULL ? m->platform.conv_channels : 0;
    seam->stream_job = m->platform.stream_job != NULL ? mm_stream_job : NULL;
    seam->stream_add = m->platform.stream_add != NULL ? mm_stream_add : NULL;
    seam->cpu_touch = m->platform.cpu_touch != NULL ? mm_cpu_touch : NULL;
    seam->stream_quant = m->platform.stream_quant != NULL ? mm_stream_quant : NULL;
  }
}
