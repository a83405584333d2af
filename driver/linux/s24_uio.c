// sparse24 UIO backend (see s24_uio.h): mmap'ed s24_top registers and AXI4-Stream FIFO windows.
#include "s24_uio.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "s24_regs.h"

#define DEFAULT_WRITE_TIMEOUT_NS 1000000000ull

static uint32_t mm_rd(void *ctx, int win, uint32_t off) {
  s24_uio_t *u = ctx;
  return u->win[win][off / 4];
}

static void mm_wr(void *ctx, int win, uint32_t off, uint32_t value) {
  s24_uio_t *u = ctx;
  u->win[win][off / 4] = value;
}

static uint64_t mono_ns(void *ctx) {
  (void)ctx;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void reset_state(s24_uio_t *u) {
  memset(u, 0, sizeof(*u));
  u->fd = -1;
  u->write_timeout_ns = DEFAULT_WRITE_TIMEOUT_NS;
}

// Resets the three FIFOs (both TX, the RX).
static void fifo_clear(s24_uio_t *u) {
  u->wr(u->ctx, S24_UIO_WIN_W, S24_FIFO_TDFR, S24_FIFO_RESET_KEY);
  u->wr(u->ctx, S24_UIO_WIN_A, S24_FIFO_TDFR, S24_FIFO_RESET_KEY);
  u->wr(u->ctx, S24_UIO_WIN_R, S24_FIFO_RDFR, S24_FIFO_RESET_KEY);
}

// Resets the three FIFOs and records the depth of each TX FIFO (its vacancy when empty).
static void fifo_reset(s24_uio_t *u) {
  fifo_clear(u);
  u->tx_depth[0] = u->rd(u->ctx, S24_UIO_WIN_W, S24_FIFO_TDFV);
  u->tx_depth[1] = u->rd(u->ctx, S24_UIO_WIN_A, S24_FIFO_TDFV);
}

// Installs the window accessors (mmap'ed or a test's) and resets the FIFOs through them.
static s24_status_t attach(s24_uio_t *u, uint32_t (*rd)(void *, int, uint32_t),
                           void (*wr)(void *, int, uint32_t, uint32_t), uint64_t (*now)(void *),
                           void *ctx) {
  u->rd = rd;
  u->wr = wr;
  u->now = now;
  u->ctx = ctx;
  fifo_reset(u);
  return S24_OK;
}

s24_status_t s24_uio_init_mmio(s24_uio_t *u, uint32_t (*rd)(void *, int, uint32_t),
                               void (*wr)(void *, int, uint32_t, uint32_t),
                               uint64_t (*now)(void *), void *ctx) {
  if (u == NULL) return S24_ERR_ARG;
  reset_state(u);
  if (rd == NULL || wr == NULL || now == NULL) return S24_ERR_ARG;
  return attach(u, rd, wr, now, ctx);
}

// Reads /sys/class/uio/<name>/maps/map<i>/size (hex).
static int map_size(const char *name, int i, size_t *len) {
  char path[256];
  snprintf(path, sizeof path, "/sys/class/uio/%s/maps/map%d/size", name, i);
  FILE *f = fopen(path, "r");
  if (f == NULL) return -1;
  unsigned long long v = 0;
  int ok = fscanf(f, "%llx", &v) == 1 && v > 0 && v <= (1ull << 30);
  fclose(f);
  if (!ok) return -1;
  *len = (size_t)v;
  return 0;
}

void s24_uio_close(s24_uio_t *u) {
  if (u == NULL) return;
  for (int i = 0; i < 4; i++) {
    if (u->fd >= 0 && u->win[i] != NULL) munmap((void *)u->win[i], u->win_len[i]);
  }
  if (u->fd >= 0) close(u->fd);
  s24_scratch_free(&u->scratch);
  reset_state(u);
}

s24_status_t s24_uio_open(s24_uio_t *u, const char *dev_path) {
  if (u == NULL) return S24_ERR_ARG;
  reset_state(u);
  if (dev_path == NULL) return S24_ERR_ARG;
  const char *name = strrchr(dev_path, '/');
  name = name != NULL ? name + 1 : dev_path;
  size_t len[4];
  for (int i = 0; i < 4; i++) {
    if (map_size(name, i, &len[i]) != 0) return S24_ERR_IO;
  }
  u->fd = open(dev_path, O_RDWR | O_SYNC);
  if (u->fd < 0) return S24_ERR_IO;
  const long page = sysconf(_SC_PAGESIZE);
  for (int i = 0; i < 4; i++) {  // UIO selects map i with offset i * page size
    void *p = mmap(NULL, len[i], PROT_READ | PROT_WRITE, MAP_SHARED, u->fd, (off_t)i * page);
    if (p == MAP_FAILED) {
      s24_uio_close(u);
      return S24_ERR_IO;
    }
    u->win[i] = p;
    u->win_len[i] = len[i];
  }
  return attach(u, mm_rd, mm_wr, mono_ns, u);
}

static s24_status_t uio_read32(void *ctx, uint32_t addr, uint32_t *value) {
  s24_uio_t *u = ctx;
  if (u == NULL || value == NULL || addr % 4 != 0 || addr > S24_REG_WINDOW - 4) return S24_ERR_ARG;
  *value = u->rd(u->ctx, S24_UIO_WIN_REGS, addr);
  return S24_OK;
}

static s24_status_t uio_write32(void *ctx, uint32_t addr, uint32_t value) {
  s24_uio_t *u = ctx;
  if (u == NULL || addr % 4 != 0 || addr > S24_REG_WINDOW - 4) return S24_ERR_ARG;
  u->wr(u->ctx, S24_UIO_WIN_REGS, addr, value);
  return S24_OK;
}

static s24_status_t uio_stream_write(void *ctx, s24_port_t port, const uint32_t *beats,
                                     size_t words, size_t n) {
  s24_uio_t *u = ctx;
  if (u == NULL || beats == NULL || words == 0 || n == 0) return S24_ERR_ARG;
  if (port != S24_PORT_W && port != S24_PORT_A) return S24_ERR_ARG;
  const int win = port == S24_PORT_W ? S24_UIO_WIN_W : S24_UIO_WIN_A;
  if (n > (size_t)0x7FFFFF / 4 / words) return S24_ERR_UNSUPPORTED;  // TLR is 23 bits of bytes
  const uint32_t total = (uint32_t)(n * words);
  if (total > u->tx_depth[port == S24_PORT_W ? 0 : 1]) return S24_ERR_UNSUPPORTED;  // never fits
  const uint64_t t0 = u->now(u->ctx);
  while (u->rd(u->ctx, win, S24_FIFO_TDFV) < total) {  // store-and-forward: room for it all
    if (u->now(u->ctx) - t0 > u->write_timeout_ns) return S24_ERR_TIMEOUT;
  }
  for (uint32_t i = 0; i < total; i++) u->wr(u->ctx, win, S24_FIFO_TDFD, beats[i]);
  u->wr(u->ctx, win, S24_FIFO_TLR, total * 4);
  return S24_OK;
}

static s24_status_t uio_stream_read(void *ctx, s24_port_t port, uint32_t *beats, size_t words,
                                    size_t n, uint8_t *last, uint64_t timeout_ns) {
  s24_uio_t *u = ctx;
  if (u == NULL || beats == NULL || words == 0 || n == 0 || port != S24_PORT_R) {
    return S24_ERR_ARG;
  }
  size_t got = 0;  // beats
  const uint64_t t0 = u->now(u->ctx);
  while (got < n) {
    if (u->rd(u->ctx, S24_UIO_WIN_R, S24_FIFO_RDFO) == 0) {
      if (u->now(u->ctx) - t0 > timeout_ns) return S24_ERR_TIMEOUT;
      continue;
    }
    const uint32_t bytes = u->rd(u->ctx, S24_UIO_WIN_R, S24_FIFO_RLR) & 0x7FFFFFu;
    const size_t pwords = bytes / 4, pbeats = pwords / words;
    if (bytes % 4 != 0 || pwords % words != 0 || pbeats == 0 || pbeats > n - got) {
      return S24_ERR_HW;  // a packet that is not whole beats ending on a tile boundary
    }
    for (size_t i = 0; i < pwords; i++) {
      beats[got * words + i] = u->rd(u->ctx, S24_UIO_WIN_R, S24_FIFO_RDFD);
    }
    if (last != NULL) {
      memset(last + got, 0, pbeats);
      last[got + pbeats - 1] = 1;  // the packet ended with TLAST
    }
    got += pbeats;
  }
  return S24_OK;
}

// After the soft reset (map 1.5 on) s24_top may still present the result beat it held when the
// reset took effect (STATUS.R_HELD): the emptied RX FIFO takes it, so it is waited for and the RX
// FIFO is reset once more. A map before 1.5 reads R_HELD as 0 (it withdrew the beat).
static s24_status_t uio_stream_reset(void *ctx) {
  s24_uio_t *u = ctx;
  if (u == NULL) return S24_ERR_ARG;
  fifo_clear(u);
  if (u->rd(u->ctx, S24_UIO_WIN_REGS, S24_REG_STATUS) & S24_STATUS_R_HELD_MASK) {
    const uint64_t t0 = u->now(u->ctx);
    while (u->rd(u->ctx, S24_UIO_WIN_REGS, S24_REG_STATUS) & S24_STATUS_R_HELD_MASK) {
      if (u->now(u->ctx) - t0 > u->write_timeout_ns) return S24_ERR_TIMEOUT;
    }
    u->wr(u->ctx, S24_UIO_WIN_R, S24_FIFO_RDFR, S24_FIFO_RESET_KEY);
  }
  return S24_OK;
}

static uint64_t uio_now_ns(void *ctx) {
  s24_uio_t *u = ctx;
  return u->now(u->ctx);
}

// The FIFOs copy every word: the staging memory is plain heap
static void *uio_scratch(void *ctx, size_t bytes) {
  s24_uio_t *u = ctx;
  return u != NULL ? s24_scratch_get(&u->scratch, bytes) : NULL;
}

void s24_uio_seam(s24_uio_t *u, s24_seam_t *seam) {
  if (seam == NULL) return;
  *seam = (s24_seam_t){.ctx = u, .read32 = uio_read32, .write32 = uio_write32,
                       .stream_write = uio_stream_write, .stream_read = uio_stream_read,
                       .stream_reset = uio_stream_reset, .now_ns = uio_now_ns,
                       .scratch = uio_scratch};
}
