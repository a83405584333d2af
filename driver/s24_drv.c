// SPDX-License-Identifier: Apache-2.0
// sparse24 host driver: open/reset/errors/counters, weight packing, tiled GEMM over the seam.
// Freestanding: no allocation (weights are packed into the caller's memory, the beats of a job
// are staged in the seam's scratch), no I/O but the seam.
#include "s24_drv.h"

#include <stdio.h>  // snprintf only: no FILE
#include <string.h>

#include "s24_layout.h"

#define FIELD(v, name) (((v) & S24_##name##_MASK) >> S24_##name##_LSB)

static int seam_ok(const s24_seam_t *s) {
  return s != NULL && s->read32 != NULL && s->write32 != NULL && s->stream_write != NULL &&
         s->stream_read != NULL && s->stream_reset != NULL && s->now_ns != NULL &&
         s->scratch != NULL;
}

static int dev_ok(const s24_dev_t *dev) { return dev != NULL && dev->is_open; }

static s24_status_t rd(s24_dev_t *dev, uint32_t addr, uint32_t *v) {
  return dev->seam.read32(dev->seam.ctx, addr, v);
}

static s24_status_t wr(s24_dev_t *dev, uint32_t addr, uint32_t v) {
  return dev->seam.write32(dev->seam.ctx, addr, v);
}

// CTRL value for a command, keeping IRQ_EN as the caller wants it.
static uint32_t ctrl(const s24_dev_t *dev, uint32_t cmd) {
  return cmd | (dev->irq_enable ? S24_CTRL_IRQ_EN_MASK : 0u);
}

s24_status_t s24_dev_open(s24_dev_t *dev, const s24_seam_t *seam) {
  if (dev == NULL || !seam_ok(seam)) return S24_ERR_ARG;
  memset(dev, 0, sizeof(*dev));
  dev->seam = *seam;
  dev->timeout_ns = S24_DEFAULT_TIMEOUT_NS;
  dev->cycle_ns = S24_DEFAULT_CYCLE_NS;
  dev->inflight_tiles = S24_DEFAULT_INFLIGHT_TILES;
  uint32_t id = 0, ver = 0, arr = 0, wid = 0, beat = 0;
  s24_status_t st = rd(dev, S24_REG_ID, &id);
  if (st == S24_OK) st = rd(dev, S24_REG_VERSION, &ver);
  if (st == S24_OK) st = rd(dev, S24_REG_HW_ARRAY, &arr);
  if (st == S24_OK) st = rd(dev, S24_REG_HW_WIDTH, &wid);
  if (st == S24_OK) st = rd(dev, S24_REG_HW_BEAT, &beat);
  if (st != S24_OK) return st;
  if (id != S24_MAGIC) return S24_ERR_HW;
  if (FIELD(ver, VERSION_MAJOR) != S24_VERSION_MAJOR) return S24_ERR_UNSUPPORTED;
  s24_hw_info_t *hw = &dev->hw;
  hw->version = ver;
  hw->rows = FIELD(arr, HW_ARRAY_ROWS);
  hw->cols = FIELD(arr, HW_ARRAY_COLS);
  hw->sparse_n = FIELD(arr, HW_ARRAY_SPARSE_N);
  hw->sparse_m = FIELD(arr, HW_ARRAY_SPARSE_M);
  hw->data_width = FIELD(wid, HW_WIDTH_DATA_WIDTH);
  hw->acc_width = FIELD(wid, HW_WIDTH_ACC_WIDTH);
  hw->idx_width = FIELD(wid, HW_WIDTH_IDX_WIDTH);
  hw->w_words = FIELD(beat, HW_BEAT_W_WORDS);
  hw->a_words = FIELD(beat, HW_BEAT_A_WORDS);
  hw->r_words = FIELD(beat, HW_BEAT_R_WORDS);
  // the driver packs beats itself (s24_layout.h): the parameters must be ones it understands,
  // consistently
  const s24_array_t shape = {hw->rows, hw->cols, hw->sparse_n, hw->sparse_m, 0, 0};
  s24_geom_t g;
  if (s24_geom(shape, &g) != S24_OK || hw->idx_width != g.idx_width || hw->data_width != 8 ||
      hw->acc_width != 32 || hw->w_words != g.w_words || hw->a_words != g.a_words ||
      hw->r_words != g.r_words) {
    return S24_ERR_UNSUPPORTED;
  }
  // default window: enough column tiles in flight that the core never waits for input while the
  // driver waits for a tile's results (the cycle model's exact busy cycles assume a fed core);
  // a caller may set any window >= 1 after open (performance only)
  // (pair-mode jobs need no more: their period is at least R + max(R, C))
  const size_t window = s24_feed_window_tiles(hw->rows, hw->cols);
  if (dev->inflight_tiles < window) dev->inflight_tiles = window;
  // the pair mode: CFG_MODE.PAIR reads back 1 only on a build that has it (a 2:m core with
  // PairMode = 1); it is left at 0, and every job sets it
  const s24_array_t built = {hw->rows, hw->cols, hw->sparse_n, hw->sparse_m, 0, 1};
  if (s24_array_has_pair(built)) {
    uint32_t mode = 0;
    st = wr(dev, S24_REG_CFG_MODE, S24_CFG_MODE_PAIR_MASK);
    if (st == S24_OK) st = rd(dev, S24_REG_CFG_MODE, &mode);
    if (st == S24_OK) st = wr(dev, S24_REG_CFG_MODE, 0);
    if (st != S24_OK) return st;
    hw->pair = (mode & S24_CFG_MODE_PAIR_MASK) != 0;
  }
  dev->is_open = 1;
  st = s24_dev_reset(dev);
  if (st != S24_OK) dev->is_open = 0;
  return st;
}

s24_array_t s24_dev_array(const s24_dev_t *dev) {
  const s24_array_t a = {dev->hw.rows, dev->hw.cols, dev->hw.sparse_n, dev->hw.sparse_m, 0,
                         dev->hw.pair};
  return a;
}

uint32_t s24_dev_conv_channels(const s24_dev_t *dev) {
  return dev->seam.stream_conv != NULL ? dev->seam.conv_channels : 0;
}

s24_status_t s24_dev_add(s24_dev_t *dev, const s24_add_job_t *job) {
  if (!dev_ok(dev) || job == NULL) return S24_ERR_ARG;
  if (dev->seam.stream_add == NULL) return S24_ERR_UNSUPPORTED;
  return dev->seam.stream_add(dev->seam.ctx, job, dev->timeout_ns);
}

s24_status_t s24_dev_quant(s24_dev_t *dev, const s24_quant_job_t *job, size_t *done) {
  if (!dev_ok(dev) || job == NULL || done == NULL) return S24_ERR_ARG;
  *done = 0;
  if (dev->seam.stream_quant == NULL) return S24_ERR_UNSUPPORTED;
  return dev->seam.stream_quant(dev->seam.ctx, job, done, dev->timeout_ns);
}

void s24_dev_cpu_touch(s24_dev_t *dev) {
  if (dev_ok(dev) && dev->seam.cpu_touch != NULL) dev->seam.cpu_touch(dev->seam.ctx);
}

void s24_dev_close(s24_dev_t *dev) {
  if (dev == NULL) return;
  memset(dev, 0, sizeof(*dev));
}

// Soft reset of the block and of the streams feeding it.
static s24_status_t reset_all(s24_dev_t *dev) {
  s24_status_t st = wr(dev, S24_REG_CTRL, ctrl(dev, S24_CTRL_SOFT_RESET_MASK));
  s24_status_t st2 = dev->seam.stream_reset(dev->seam.ctx);
  return st != S24_OK ? st : st2;
}

s24_status_t s24_dev_reset(s24_dev_t *dev) {
  if (!dev_ok(dev)) return S24_ERR_ARG;
  return reset_all(dev);
}

s24_status_t s24_dev_errors(s24_dev_t *dev, uint32_t *err) {
  if (!dev_ok(dev) || err == NULL) return S24_ERR_ARG;
  return rd(dev, S24_REG_ERR, err);
}

s24_status_t s24_dev_clear_errors(s24_dev_t *dev) {
  if (!dev_ok(dev)) return S24_ERR_ARG;
  s24_status_t st = wr(dev, S24_REG_ERR, S24_ERR_W1C_MASK);
  if (st == S24_OK) st = wr(dev, S24_REG_IRQ, S24_IRQ_W1C_MASK);
  if (st == S24_OK) dev->last_err = 0;
  return st;
}

const char *s24_err_bits_str(uint32_t err, char *buf, size_t len) {
  static const struct {
    uint32_t mask;
    const char *name;
  } names[] = {
      {S24_ERR_BAD_CFG_MASK, "BAD_CFG"}, {S24_ERR_META_MASK, "META"},
      {S24_ERR_W_LAST_MASK, "W_LAST"},   {S24_ERR_A_LAST_MASK, "A_LAST"},
      {S24_ERR_START_BUSY_MASK, "START_BUSY"},
  };
  if (buf == NULL || len == 0) return "";
  buf[0] = '\0';
  size_t used = 0;
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    if ((err & names[i].mask) == 0) continue;
    int w = snprintf(buf + used, len - used, "%s%s", used ? "|" : "", names[i].name);
    if (w < 0 || (size_t)w >= len - used) break;
    used += (size_t)w;
  }
  if (err == 0) snprintf(buf, len, "none");
  return buf;
}

s24_status_t s24_dev_counters(const s24_dev_t *dev, s24_counters_t *out) {
  if (!dev_ok(dev) || out == NULL) return S24_ERR_ARG;
  *out = dev->counters;
  return S24_OK;
}

// Fails a hardware operation: remembers the ERR bits, returns the block to idle.
static s24_status_t fail(s24_dev_t *dev, s24_status_t st) {
  uint32_t err = 0;
  if (rd(dev, S24_REG_ERR, &err) == S24_OK && err != 0) dev->last_err = err;
  (void)reset_all(dev);
  return st;
}

uint64_t s24_dev_wait_limit_ns(const s24_dev_t *dev) {
  if (dev == NULL) return 0;
  uint64_t limit = dev->timeout_ns;
  s24_cycles_t c;
  s24_array_t arr = {dev->hw.rows, dev->hw.cols, dev->hw.sparse_n, dev->hw.sparse_m, 0, 1};
  if (dev->job_pair && s24_array_pair(arr, &arr) != S24_OK) return limit;
  if (dev->job_beats == 0 || dev->job_tiles == 0 ||
      s24_core_cycles_hw(arr, dev->job_beats, dev->job_tiles, &c) != S24_OK) {
    return limit;  // no job, or one beyond the cycle model's range: the caller's timeout only
  }
  const uint64_t ns = dev->cycle_ns != 0 ? dev->cycle_ns : S24_DEFAULT_CYCLE_NS;
  uint64_t job = 0;  // busy * margin * ns + slack, unless it overflows (checked without dividing)
  if (!__builtin_mul_overflow(c.busy_cycles, (uint64_t)S24_WAIT_MARGIN, &job) &&
      !__builtin_mul_overflow(job, ns, &job) &&
      !__builtin_add_overflow(job, (uint64_t)S24_WAIT_SLACK_NS, &job) && job < limit) {
    limit = job;
  }
  return limit;
}

s24_status_t s24_dev_start(s24_dev_t *dev, uint32_t beats, uint32_t tiles) {
  if (!dev_ok(dev)) return S24_ERR_ARG;
  dev->last_err = 0;
  dev->job_beats = beats;  // bounds every wait on this job (s24_dev_wait_limit_ns)
  dev->job_tiles = tiles;
  s24_status_t st = wr(dev, S24_REG_CFG_BEATS, beats);
  if (st == S24_OK) st = wr(dev, S24_REG_CFG_TILES, tiles);
  if (st == S24_OK) st = wr(dev, S24_REG_CTRL, ctrl(dev, S24_CTRL_START_MASK));
  uint32_t err = 0;
  if (st == S24_OK) st = rd(dev, S24_REG_ERR, &err);
  if (st != S24_OK) return st;
  if (err != 0) {  // BAD_CFG or START_BUSY: the job did not start
    dev->last_err = err;
    (void)reset_all(dev);
    return S24_ERR_HW;
  }
  return S24_OK;
}

s24_status_t s24_dev_wait(s24_dev_t *dev) {
  if (!dev_ok(dev)) return S24_ERR_ARG;
  // the clock and the job's bound (the cycle model's) only once the first poll finds it busy: a
  // job whose results were all read is done by then (no division on a CPU without a divider)
  uint64_t t0 = 0, limit = 0;
  int timed = 0;
  for (;;) {
    uint32_t status = 0;
    s24_status_t st = rd(dev, S24_REG_STATUS, &status);
    if (st != S24_OK) return st;
    if ((status & S24_STATUS_BUSY_MASK) == 0 && (status & S24_STATUS_DONE_MASK) != 0) {
      if ((status & S24_STATUS_ERROR_MASK) == 0) return S24_OK;
      return fail(dev, S24_ERR_HW);
    }
    const uint64_t now = dev->seam.now_ns(dev->seam.ctx);
    if (!timed) {
      t0 = now;
      limit = s24_dev_wait_limit_ns(dev);
      timed = 1;
    } else if (now - t0 > limit) {
      return fail(dev, S24_ERR_TIMEOUT);
    }
  }
}

// ------------------------------------------------------------------------------ weights

static size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

// The array weights of a dense m_rows x k matrix run on: the device's own, or its pair mode when
// allow_pair and THE mode rule (s24_pair_choose, which the cycle model's predictors use too)
// picks it.
static s24_status_t weights_array(const s24_dev_t *dev, const int8_t *a, size_t m_rows, size_t k,
                                  int allow_pair, s24_array_t *arr, int *pair) {
  const s24_hw_info_t *hw = &dev->hw;
  *arr = (s24_array_t){hw->rows, hw->cols, hw->sparse_n, hw->sparse_m, 0, hw->pair};
  *pair = allow_pair && s24_pair_choose(*arr, a, m_rows, k);
  if (*pair && s24_array_pair(*arr, arr) != S24_OK) return S24_ERR_ARG;
  return S24_OK;
}

// The memory of packed weights, in this order: beats (w_words each), tile_first (row tiles + 1),
// row_sum (m_rows), bpg (row tiles x groups); *total gets the beats (the planner's pass 1).
static s24_status_t weights_layout(const s24_dev_t *dev, s24_array_t arr, const int8_t *a,
                                   size_t m_rows, size_t k, size_t *total, size_t *bytes) {
  const size_t R = arr.rows, hm = arr.sparse_m;
  const size_t row_tiles = (m_rows + R - 1) / R, groups = (k + hm - 1) / hm;
  if (groups > SIZE_MAX / row_tiles) return S24_ERR_NOMEM;
  size_t sum = 0;
  for (size_t t = 0; t < row_tiles; t++) {
    uint64_t tile_beats = 0;
    s24_status_t st = s24_plan_row_tile(arr, a, m_rows, k, t, NULL, &tile_beats);
    if (st != S24_OK) return st;
    if (tile_beats > UINT32_MAX) return S24_ERR_UNSUPPORTED;  // CFG_BEATS is 32 bits
    if (tile_beats > SIZE_MAX - sum) return S24_ERR_NOMEM;
    sum += (size_t)tile_beats;
  }
  const size_t words = dev->hw.w_words;
  if (sum > SIZE_MAX / sizeof(uint32_t) / words || row_tiles >= SIZE_MAX / sizeof(size_t) ||
      m_rows > SIZE_MAX / sizeof(int32_t)) {
    return S24_ERR_NOMEM;
  }
  const size_t parts[4] = {sum * words * sizeof(uint32_t), (row_tiles + 1) * sizeof(size_t),
                           m_rows * sizeof(int32_t), row_tiles * groups};
  size_t b = 0;
  for (int i = 0; i < 4; i++) {
    if (parts[i] > SIZE_MAX - 16 - b) return S24_ERR_NOMEM;
    b = align_up(b + parts[i], 16);
  }
  *total = sum;
  *bytes = b;
  return S24_OK;
}

static s24_status_t weights_bytes(const s24_dev_t *dev, const int8_t *a, size_t m_rows, size_t k,
                                  int allow_pair, size_t *bytes) {
  if (!dev_ok(dev) || a == NULL || bytes == NULL || m_rows == 0 || k == 0) return S24_ERR_ARG;
  s24_array_t arr;
  int pair = 0;
  size_t total = 0;
  s24_status_t st = weights_array(dev, a, m_rows, k, allow_pair, &arr, &pair);
  return st == S24_OK ? weights_layout(dev, arr, a, m_rows, k, &total, bytes) : st;
}

// Packs a dense m_rows x k matrix into the device's beats (docs/architecture.md section 2) in
// mem (bytes long, 16-byte aligned: weights_bytes).
static s24_status_t pack(const s24_dev_t *dev, const int8_t *a, size_t m_rows, size_t k,
                         void *mem, size_t bytes, s24_weights_t *w, int allow_pair) {
  if (!dev_ok(dev) || a == NULL || w == NULL || m_rows == 0 || k == 0) return S24_ERR_ARG;
  const s24_hw_info_t *hw = &dev->hw;
  s24_array_t arr;
  int pair = 0;
  size_t total = 0, need = 0;
  s24_status_t st = weights_array(dev, a, m_rows, k, allow_pair, &arr, &pair);
  if (st == S24_OK) st = weights_layout(dev, arr, a, m_rows, k, &total, &need);
  if (st != S24_OK) return st;
  if (mem == NULL || bytes < need || ((uintptr_t)mem & 15u) != 0) return S24_ERR_NOMEM;
  const size_t R = arr.rows, hm = arr.sparse_m;
  memset(w, 0, sizeof(*w));
  w->m_rows = m_rows;
  w->k = k;
  w->row_tiles = (m_rows + R - 1) / R;
  w->groups = (k + hm - 1) / hm;
  w->rows = arr.rows;
  w->cols = arr.cols;
  w->sparse_n = arr.sparse_n;
  w->sparse_m = arr.sparse_m;
  w->pair = (uint32_t)pair;
  w->idx_width = hw->idx_width;
  w->w_words = hw->w_words;
  w->a_words = hw->a_words;
  w->bytes = need;
  uint8_t *p = mem;
  memset(p, 0, need);
  w->beats = (uint32_t *)(void *)p;
  p += align_up(total * hw->w_words * sizeof(uint32_t), 16);
  w->tile_first = (size_t *)(void *)p;
  p += align_up((w->row_tiles + 1) * sizeof(size_t), 16);
  w->row_sum = (int32_t *)(void *)p;
  p += align_up(m_rows * sizeof(int32_t), 16);
  w->bpg = p;
  for (size_t r = 0; r < m_rows; r++) {  // the fused layer's zero-point term (s24_linear)
    uint32_t sum = 0;
    for (size_t i = 0; i < k; i++) sum += (uint32_t)(int32_t)a[r * k + i];
    memcpy(&w->row_sum[r], &sum, sizeof(sum));
  }
  if (pair) w->dense = a;  // for s24_linear on a map-1.3 device (no fused pair-mode jobs)
  // beats per group by the planner (s24_layout.h s24_plan_row_tile), so the predicted cycles
  // and the packed beats come from one function
  size_t sum = 0;
  for (size_t t = 0; t < w->row_tiles; t++) {
    uint64_t tile_beats = 0;
    st = s24_plan_row_tile(arr, a, m_rows, k, t, w->bpg + t * w->groups, &tile_beats);
    if (st != S24_OK) return st;
    w->tile_first[t] = sum;
    sum += (size_t)tile_beats;
  }
  w->tile_first[w->row_tiles] = sum;
  // fill, beat by beat (s24_layout.h: each row's nonzeros b*n .. b*n+n-1 of the group)
  s24_geom_t geom;
  if (s24_geom(arr, &geom) != S24_OK) return S24_ERR_ARG;
  size_t beat = 0;
  for (size_t t = 0; t < w->row_tiles; t++) {
    for (size_t g = 0; g < w->groups; g++) {
      for (uint32_t b = 0; b < w->bpg[t * w->groups + g]; b++, beat++) {
        s24_w_beat_dense(&geom, w->beats + beat * hw->w_words, a, m_rows, k, t * R, g, b);
      }
    }
  }
  return S24_OK;
}

s24_status_t s24_weights_bytes(const s24_dev_t *dev, const int8_t *a, size_t m_rows, size_t k,
                               size_t *bytes) {
  return weights_bytes(dev, a, m_rows, k, 1, bytes);
}

s24_status_t s24_weights_pack(const s24_dev_t *dev, const int8_t *a, size_t m_rows, size_t k,
                              void *mem, size_t bytes, s24_weights_t *w) {
  return pack(dev, a, m_rows, k, mem, bytes, w, 1);
}

s24_status_t s24_weights_bytes_own(const s24_dev_t *dev, const int8_t *a, size_t m_rows,
                                   size_t k, size_t *bytes) {
  return weights_bytes(dev, a, m_rows, k, 0, bytes);
}

s24_status_t s24_weights_pack_own(const s24_dev_t *dev, const int8_t *a, size_t m_rows, size_t k,
                                  void *mem, size_t bytes, s24_weights_t *w) {
  return pack(dev, a, m_rows, k, mem, bytes, w, 0);
}

// ------------------------------------------------------------------------------ GEMM

// Activation beats of one column tile for row tile t: each group's beat repeated bpg times. B is
// k x n_cols (s24_a_beat), or with b_t its transpose, n_cols x k (s24_a_beat_t: X of a layer), or
// with conv a convolution's im2col read in place from its input (s24_a_beat_conv).
static void build_a(const s24_geom_t *g, const s24_weights_t *w, size_t t, const int8_t *b,
                    int b_t, const s24_conv_src_t *conv, size_t n_cols, size_t j0, uint32_t *out) {
  const size_t aw = g->a_words;
  if (conv != NULL) {  // row tile t's channel window
    s24_conv_src_t win = *conv;
    win.c0 = s24_conv_c0(conv, t * w->rows);
    win.gr = 0;
    (void)s24_a_beats_conv(g, out, &win, j0, 0, w->groups, &w->bpg[t * w->groups]);
    return;
  }
  size_t beat = 0;
  for (size_t grp = 0; grp < w->groups; grp++) {
    const uint8_t reps = w->bpg[t * w->groups + grp];
    if (reps == 0) continue;
    uint32_t *first = out + beat * aw;
    if (b_t) {
      s24_a_beat_t(g, first, b, w->k, n_cols, grp, j0);
    } else {
      s24_a_beat(g, first, b, w->k, n_cols, grp, j0);
    }
    for (uint8_t i = 1; i < reps; i++) memcpy(first + i * aw, first, aw * sizeof(uint32_t));
    beat += reps;
  }
}

// Reads one result tile (rows beats) and scatters it into C.
static s24_status_t read_tile(s24_dev_t *dev, const s24_geom_t *g, const s24_weights_t *w,
                              size_t t, size_t ct, size_t n_cols, const int32_t *c0, int32_t *c,
                              uint32_t *rbuf, uint8_t *last) {
  const size_t R = w->rows, C = w->cols, rw = dev->hw.r_words;
  s24_status_t st = dev->seam.stream_read(dev->seam.ctx, S24_PORT_R, rbuf, rw, R, last,
                                          s24_dev_wait_limit_ns(dev));
  if (st != S24_OK) return st;
  for (size_t r = 0; r < R; r++) {
    if (last[r] != (r == R - 1)) return S24_ERR_HW;  // TLAST must end each result tile
  }
  for (size_t r = 0; r < R && t * R + r < w->m_rows; r++) {
    for (size_t cc = 0; cc < C && ct * C + cc < n_cols; cc++) {
      size_t o = (t * R + r) * n_cols + ct * C + cc;
      uint32_t v = s24_r_get(g, rbuf + r * rw, (uint32_t)cc);
      if (c0 != NULL) v += (uint32_t)c0[o];
      memcpy(&c[o], &v, sizeof(v));  // int32 wraparound, no signed overflow
    }
  }
  return S24_OK;
}

static s24_status_t add_counters(s24_dev_t *dev) {
  static const uint32_t regs[6] = {S24_REG_CNT_CYCLES,  S24_REG_CNT_BEATS,
                                   S24_REG_CNT_STALL_W, S24_REG_CNT_STALL_A,
                                   S24_REG_CNT_STALL_R, S24_REG_CNT_TILES_OUT};
  uint32_t v[6];
  for (int i = 0; i < 6; i++) {
    s24_status_t st = rd(dev, regs[i], &v[i]);
    if (st != S24_OK) return st;
  }
  s24_counters_t *cnt = &dev->counters;  // one job's counters
  cnt->cycles += v[0];
  cnt->beats += v[1];
  cnt->stall_w += v[2];
  cnt->stall_a += v[3];
  cnt->stall_r += v[4];
  cnt->tiles += v[5];
  cnt->jobs++;
  return S24_OK;
}

// The fused int8 epilogue's job setup (s24_linear): SPEC §7 parameters, NULL for a GEMM.
typedef struct {
  const s24_linear_params_t *prm;
  int8_t *y;   // batch x m_rows, row b at y + b * ldy
  size_t ldy;
  const s24_conv_src_t *conv;  // X as a convolution's input (s24_linear_conv), or NULL
} epi_job_t;

// Reads one fused result tile: ceil(R/4) beats of int8, four tile rows per beat
// (docs/architecture.md §4), and scatters it into Y[b][m] (b = column, m = row of the tile);
// R = w->rows, the tile rows of the weights' mode (2 * NumRows in pair mode).
static s24_status_t read_tile_i8(s24_dev_t *dev, const s24_weights_t *w, size_t t, size_t ct,
                                 size_t n_cols, int8_t *y, size_t ldy, uint32_t *rbuf,
                                 uint8_t *last) {
  const size_t R = w->rows, C = w->cols, rw = dev->hw.r_words, nb = s24_r8_beats(w->rows);
  s24_status_t st = dev->seam.stream_read(dev->seam.ctx, S24_PORT_R, rbuf, rw, nb, last,
                                          dev->timeout_ns);
  if (st != S24_OK) return st;
  for (size_t i = 0; i < nb; i++) {
    if (last[i] != (i == nb - 1)) return S24_ERR_HW;  // TLAST must end each result tile
  }
  const size_t rows = w->m_rows - t * R < R ? w->m_rows - t * R : R;
  const size_t cols = n_cols - ct * C < C ? n_cols - ct * C : C;
  s24_r8_tile(rbuf, (uint32_t)rw, (uint32_t)C, (uint32_t)rows, (uint32_t)cols,
              y + ct * C * ldy + t * R, ldy);
  return S24_OK;
}

// Row m's three parameter words (EPI_BIAS, EPI_MULT, EPI_SHIFT) of a fused layer.
static void epi_row(const s24_weights_t *w, const s24_linear_params_t *p, size_t m, uint32_t v[3]) {
  // acc = sum W*(X - ZI) + BIAS = sum W*X + (BIAS - ZI*sum W), all modulo 2^32
  v[0] = (uint32_t)(p->bias != NULL ? p->bias[m] : 0) - (uint32_t)p->zi * (uint32_t)w->row_sum[m];
  v[1] = (uint32_t)p->mult[m];
  v[2] = (uint32_t)p->shift[m] & S24_EPI_SHIFT_SHIFT_MASK;
}

static const uint32_t kEpiRegs[3] = {S24_REG_EPI_BIAS, S24_REG_EPI_MULT, S24_REG_EPI_SHIFT};

// n parameter words to the parameter RAM's data registers in order (s24_seam_t.write32_burst)
static s24_status_t epi_words(s24_dev_t *dev, const uint32_t *v, size_t n) {
  if (dev->seam.write32_burst != NULL) return dev->seam.write32_burst(dev->seam.ctx, kEpiRegs, 3, v, n);
  s24_status_t st = S24_OK;
  for (size_t i = 0; i < n && st == S24_OK; i++) st = wr(dev, kEpiRegs[i % 3], v[i]);
  return st;
}

size_t s24_linear_epi_words(const s24_weights_t *w) { return w != NULL ? 3 * w->m_rows : 0; }

s24_status_t s24_linear_prepare(s24_weights_t *w, const s24_linear_params_t *prm,
                                uint32_t *table, size_t words) {
  if (w == NULL || w->row_sum == NULL || prm == NULL || prm->mult == NULL ||
      prm->shift == NULL || table == NULL || words < s24_linear_epi_words(w) ||
      !s24_linear_params_ok(prm->mult, prm->shift, w->m_rows, prm->zi, prm->zo, prm->act_min,
                            prm->act_max, NULL)) {
    return S24_ERR_ARG;
  }
  for (size_t m = 0; m < w->m_rows; m++) epi_row(w, prm, m, table + 3 * m);
  w->epi = table;
  w->epi_prm = *prm;
  return S24_OK;
}

// 1 if w's prepared parameter words were made from these very parameters (s24_linear_prepare:
// the same arrays and values, checked there)
// (the rounding is not in the words: every call checks it)
static int epi_prepared(const s24_weights_t *w, const s24_linear_params_t *p) {
  const s24_linear_params_t *e = &w->epi_prm;
  return w->epi != NULL && e->bias == p->bias && e->mult == p->mult && e->shift == p->shift &&
         e->zi == p->zi && e->zo == p->zo && e->act_min == p->act_min && e->act_max == p->act_max;
}

// Loads the parameter RAM with the job's rows (first_row ..) and configures the fused mode:
// the words s24_linear_prepare made where they are this call's, else made here; padding rows
// (past m_rows: their results are dropped) zeros.
static s24_status_t epi_setup(s24_dev_t *dev, const s24_weights_t *w, const epi_job_t *e,
                              size_t first_row, size_t rows, size_t col_tiles) {
  const s24_linear_params_t *p = e->prm;
  s24_status_t st = wr(dev, S24_REG_EPI_ADDR, 0);
  const size_t real = first_row >= w->m_rows ? 0
                      : w->m_rows - first_row < rows ? w->m_rows - first_row : rows;
  if (st == S24_OK && epi_prepared(w, p)) {
    st = epi_words(dev, w->epi + 3 * first_row, 3 * real);
  } else {
    for (size_t i = 0; i < real && st == S24_OK; i++) {
      uint32_t v[3];
      epi_row(w, p, first_row + i, v);
      st = epi_words(dev, v, 3);
    }
  }
  for (size_t i = real; i < rows && st == S24_OK; i++) {
    static const uint32_t zero[3] = {0, 0, 0};
    st = epi_words(dev, zero, 3);
  }
  const uint32_t cfg = S24_CFG_EPI_EN_MASK |
                       (p->round == S24_ROUND_DOUBLE ? S24_CFG_EPI_ROUND_MASK : 0u) |
                       (((uint32_t)p->zo << S24_CFG_EPI_ZO_LSB) & S24_CFG_EPI_ZO_MASK);
  const uint32_t act =
      (((uint32_t)p->act_min << S24_CFG_ACT_ACT_MIN_LSB) & S24_CFG_ACT_ACT_MIN_MASK) |
      (((uint32_t)p->act_max << S24_CFG_ACT_ACT_MAX_LSB) & S24_CFG_ACT_ACT_MAX_MASK);
  if (st == S24_OK) st = wr(dev, S24_REG_CFG_ACT, act);
  if (st == S24_OK) st = wr(dev, S24_REG_CFG_EPI, cfg);
  if (st == S24_OK) st = wr(dev, S24_REG_CFG_COL_TILES, (uint32_t)col_tiles);
  return st;
}

// The beats of the largest row tile of w.
static size_t max_tile_beats(const s24_weights_t *w) {
  size_t most = 0;
  for (size_t t = 0; t < w->row_tiles; t++) {
    const size_t nb = w->tile_first[t + 1] - w->tile_first[t];
    if (nb > most) most = nb;
  }
  return most;
}

// The scratch a GEMM of w stages its beats in: one result tile (R beats) and its TLAST flags,
// then a ring of inflight_tiles tiles of activation beats (a tile's beats stay untouched until
// its results have been read: a seam may stream them from there, DMA). 0 on overflow.
static size_t gemm_scratch(const s24_dev_t *dev, const s24_weights_t *w, size_t *ring_at,
                           size_t *slot) {
  const s24_hw_info_t *hw = &dev->hw;
  const size_t R = w->rows, beats = max_tile_beats(w);
  if (beats > SIZE_MAX / sizeof(uint32_t) / hw->a_words || R > SIZE_MAX / 8 / hw->r_words) return 0;
  const size_t one = align_up(beats * hw->a_words * sizeof(uint32_t), 16);
  const size_t head = align_up(R * hw->r_words * sizeof(uint32_t), 16) + align_up(R, 16);
  if (dev->inflight_tiles == 0 || one > (SIZE_MAX - head) / dev->inflight_tiles) return 0;
  if (ring_at != NULL) *ring_at = head;
  if (slot != NULL) *slot = one;
  return head + one * dev->inflight_tiles;
}

// CFG_BEATS of row tile `first + i` of w (the planner reads them through this).
typedef struct {
  const s24_weights_t *w;
  size_t first;
} tile_ctx_t;

static uint64_t tile_beats_of(const void *ctx, size_t i) {
  const tile_ctx_t *c = ctx;
  return c->w->tile_first[c->first + i + 1] - c->w->tile_first[c->first + i];
}

// START of a job a seam streams whole (s24_seam_job_t.start).
typedef struct {
  s24_dev_t *dev;
  uint32_t beats, tiles;
} job_start_t;

static s24_status_t job_start(void *arg) {
  const job_start_t *j = arg;
  return s24_dev_start(j->dev, j->beats, j->tiles);
}

// One GEMM (epi NULL) or fused layer of w against B, its beats staged in scratch
// (gemm_scratch(dev, w) bytes, 16-byte aligned).
static s24_status_t run_gemm(s24_dev_t *dev, const s24_weights_t *w, const int8_t *b, int b_t,
                             size_t n_cols, const int32_t *c0, int32_t *c, const epi_job_t *epi,
                             uint8_t *scratch) {
  if (!dev_ok(dev) || w == NULL || w->beats == NULL || b == NULL || n_cols == 0 ||
      (c == NULL && epi == NULL) || dev->inflight_tiles == 0) {
    return S24_ERR_ARG;
  }
  const s24_hw_info_t *hw = &dev->hw;
  s24_array_t arr = {hw->rows, hw->cols, hw->sparse_n, hw->sparse_m, 0, hw->pair};
  if ((w->pair && s24_array_pair(arr, &arr) != S24_OK) || w->rows != arr.rows ||
      w->cols != arr.cols || w->sparse_n != arr.sparse_n || w->sparse_m != arr.sparse_m ||
      w->w_words != hw->w_words || w->a_words != hw->a_words) {
    return S24_ERR_ARG;  // weights packed for another device (or mode)
  }
  const size_t R = arr.rows;  // tile rows of this GEMM's jobs
  const s24_conv_src_t *conv = epi != NULL ? epi->conv : NULL;
  if (conv != NULL && conv->gr != 0 && (size_t)conv->gr % R != 0) {
    return S24_ERR_ARG;  // a row tile reads one channel window
  }
  int fetch = conv != NULL && dev->seam.stream_conv != NULL;
  int fresh = conv == NULL || !conv->x_seen;  // the fetch unit's input to flush first
  const size_t col_tiles = (n_cols + hw->cols - 1) / hw->cols;
  if (col_tiles > UINT32_MAX) return S24_ERR_UNSUPPORTED;
  size_t ring_at = 0, slot = 0;
  if (scratch == NULL || gemm_scratch(dev, w, &ring_at, &slot) == 0) return S24_ERR_NOMEM;
  uint32_t *const rbuf = (uint32_t *)(void *)scratch;
  uint8_t *const last = scratch + align_up(R * hw->r_words * sizeof(uint32_t), 16);
  memset(&dev->counters, 0, sizeof(dev->counters));
  dev->counters.macs_dense = (uint64_t)w->m_rows * n_cols * w->k;
  dev->counters.pair = w->pair;
  s24_geom_t geom;
  s24_status_t st = s24_geom(arr, &geom);
  // the jobs' mode (a device with the pair mode: set for every GEMM, 2:m or pair)
  if (st == S24_OK && hw->pair) st = wr(dev, S24_REG_CFG_MODE, w->pair);
  dev->job_pair = w->pair;
  for (size_t first = 0; first < w->row_tiles && st == S24_OK;) {
    // one job: the run of consecutive row tiles with equal beats that the cycle model plans
    // (cmodel s24_plan_next_job), each row tile against every column tile, row tile outer;
    // a fused layer's job also fits the epilogue's parameter RAM
    // (s24_linear_job_tiles; s24_linear_cycles predicts with the same two rules)
    size_t left = w->row_tiles - first;
    if (epi != NULL && left > s24_linear_job_tiles(arr, dev->hw.epi_depth)) {
      left = s24_linear_job_tiles(arr, dev->hw.epi_depth);
    }
    const tile_ctx_t tc = {w, first};
    const size_t job_rows = s24_plan_next_job_fn(arr, tile_beats_of, &tc, left, col_tiles);
    if (job_rows == 0) {
      st = S24_ERR_ARG;
      break;
    }
    if (epi != NULL) {  // the job's output channels go to the parameter RAM
      st = epi_setup(dev, w, epi, first * R, job_rows * R, col_tiles);
      if (st != S24_OK) {
        (void)fail(dev, st);
        break;
      }
    }
    const size_t nb = (size_t)tile_beats_of(&tc, 0);
    const size_t total = job_rows * col_tiles;  // CFG_TILES, < 2^32 by the planning rule
    // a fused convolution job the seam can stream whole: one call (its own loop), not three a tile
    int whole = 0;
    if (fetch && epi != NULL && dev->seam.stream_job != NULL) {
      job_start_t js = {dev, (uint32_t)nb, (uint32_t)total};
      const s24_seam_job_t sj = {&geom, conv, fresh, w->beats + w->tile_first[first] * hw->w_words,
                                 hw->w_words, nb, &w->bpg[first * w->groups], w->groups, job_rows,
                                 col_tiles, (uint32_t)R, (uint32_t)hw->cols,
                                 (uint32_t)hw->r_words, w->m_rows - first * R, n_cols,
                                 epi->y + first * R, epi->ldy, dev->timeout_ns, job_start, &js,
                                 first * R};
      st = dev->seam.stream_job(dev->seam.ctx, &sj);
      if (st == S24_ERR_UNSUPPORTED) {
        st = S24_OK;  // nothing sent: tile by tile below
      } else {
        whole = 1;
        fresh = 0;
      }
    }
    // else tile by tile: keep up to inflight_tiles tiles queued ahead of the results being read
    // (the core drains every tile it took on its own; a larger window only keeps it fed). The
    // first ones are queued before START (the core takes no beat outside a job), so with the
    // default window the core is fed from its first cycle and its busy cycles are exactly the
    // cycle model's.
    size_t sent = 0, got = 0;
    int started = 0;
    while (!whole && st == S24_OK && got < total) {
      if (!started && (sent == total || sent == dev->inflight_tiles)) {
        st = s24_dev_start(dev, (uint32_t)nb, (uint32_t)total);
        started = 1;
      } else if (sent < total && sent - got < dev->inflight_tiles) {
        const size_t t = first + sent / col_tiles, j = sent % col_tiles;
        uint32_t *abuf = (uint32_t *)(void *)(scratch + ring_at + (sent % dev->inflight_tiles) * slot);
        st = dev->seam.stream_write(dev->seam.ctx, S24_PORT_W,
                                    w->beats + w->tile_first[t] * hw->w_words, hw->w_words, nb);
        // the activations: by the seam's fetch unit from the convolution's input where it has
        // one (S24_ERR_UNSUPPORTED: not for this source; then built here from now on)
        if (st == S24_OK && conv != NULL && fetch) {
          st = dev->seam.stream_conv(dev->seam.ctx, &geom, conv, t * R, j * hw->cols, w->groups,
                                     &w->bpg[t * w->groups], fresh);
          fresh = 0;
          if (st == S24_ERR_UNSUPPORTED) {
            fetch = 0;
            st = S24_OK;
          } else if (st == S24_OK) {
            sent++;
            continue;
          }
        }
        if (st == S24_OK) {
          build_a(&geom, w, t, b, b_t, conv, n_cols, j * hw->cols, abuf);
          st = dev->seam.stream_write(dev->seam.ctx, S24_PORT_A, abuf, hw->a_words, nb);
        }
        sent++;
      } else {
        const size_t t = first + got / col_tiles, j = got % col_tiles;
        st = epi != NULL ? read_tile_i8(dev, w, t, j, n_cols, epi->y, epi->ldy, rbuf, last)
                         : read_tile(dev, &geom, w, t, j, n_cols, c0, c, rbuf, last);
        got++;
      }
    }
    if (st == S24_OK) st = s24_dev_wait(dev);
    if (st == S24_OK) st = add_counters(dev);
    if (st == S24_OK && epi != NULL) {  // the job's cycles include the epilogue's drain
      uint32_t jc = 0;
      st = rd(dev, S24_REG_CNT_JOB_CYCLES, &jc);
      dev->counters.job_cycles += jc;
    }
    if (st != S24_OK) (void)fail(dev, st);  // back to idle; keeps the ERR bits seen
    first += job_rows;
  }
  if (epi != NULL) {  // back to plain GEMMs, also after a failure
    s24_status_t st2 = wr(dev, S24_REG_CFG_EPI, 0);
    if (st == S24_OK) st = st2;
  }
  if (w->pair) {  // back to the core's own mode, also after a failure
    s24_status_t st2 = wr(dev, S24_REG_CFG_MODE, 0);
    if (st == S24_OK) st = st2;
  }
  dev->job_pair = 0;
  return st;
}

// The seam's scratch for a GEMM of w (NULL if it has none that large).
static uint8_t *get_scratch(s24_dev_t *dev, const s24_weights_t *w) {
  const size_t need = gemm_scratch(dev, w, NULL, NULL);
  return need != 0 ? dev->seam.scratch(dev->seam.ctx, need) : NULL;
}

size_t s24_gemm_scratch_bytes(const s24_dev_t *dev, const s24_weights_t *w) {
  if (!dev_ok(dev) || w == NULL || w->tile_first == NULL) return 0;
  return gemm_scratch(dev, w, NULL, NULL);
}

// A map-1.3 device refuses PAIR with CFG_EPI.EN: pair-packed weights are repacked there for the
// core's own mode, into the seam's scratch, followed by that GEMM's own scratch, bounded
// without packing by every group at its most beats. *repack gets the repacked weights' bytes.
static size_t repack_scratch(const s24_dev_t *dev, const s24_weights_t *w, size_t *repack) {
  const s24_hw_info_t *hw = &dev->hw;
  const s24_array_t arr = {hw->rows, hw->cols, hw->sparse_n, hw->sparse_m, 0, hw->pair};
  size_t bytes = 0;
  if (w->dense == NULL || weights_bytes(dev, w->dense, w->m_rows, w->k, 0, &bytes) != S24_OK) {
    return 0;
  }
  const size_t groups = (w->k + hw->sparse_m - 1) / hw->sparse_m;
  const size_t beats = groups * s24_group_beats(arr, hw->sparse_m);  // no overflow: < 2 * k
  const size_t one = align_up(beats * hw->a_words * sizeof(uint32_t), 16);
  const size_t head = align_up((size_t)hw->rows * hw->r_words * sizeof(uint32_t), 16) +
                      align_up(hw->rows, 16);
  if (dev->inflight_tiles == 0 || one > (SIZE_MAX - head) / dev->inflight_tiles) return 0;
  const size_t gemm = head + one * dev->inflight_tiles;
  if (gemm > SIZE_MAX - bytes) return 0;
  *repack = bytes;
  return bytes + gemm;
}

static int needs_repack(const s24_dev_t *dev, const s24_weights_t *w) {
  return w->pair && FIELD(dev->hw.version, VERSION_MINOR) < 4;
}

size_t s24_linear_scratch_bytes(const s24_dev_t *dev, const s24_weights_t *w) {
  if (!dev_ok(dev) || w == NULL || w->tile_first == NULL) return 0;
  size_t repack = 0;
  return needs_repack(dev, w) ? repack_scratch(dev, w, &repack) : gemm_scratch(dev, w, NULL, NULL);
}

s24_status_t s24_gemm(s24_dev_t *dev, const s24_weights_t *w, const int8_t *b, size_t n_cols,
                      const int32_t *c0, int32_t *c) {
  if (c == NULL || b == NULL || n_cols == 0 || !dev_ok(dev) || w == NULL ||
      w->tile_first == NULL || dev->inflight_tiles == 0) {
    return S24_ERR_ARG;
  }
  uint8_t *scratch = get_scratch(dev, w);
  if (scratch == NULL) return S24_ERR_NOMEM;
  return run_gemm(dev, w, b, 0, n_cols, c0, c, NULL, scratch);
}

s24_status_t s24_dev_probe_epi(s24_dev_t *dev) {
  if (!dev_ok(dev)) return S24_ERR_ARG;
  if (dev->hw.epi_depth != 0) return S24_OK;
  // map 1.1 added the epilogue (HW_EPI, CFG_EPI, EPI_*), 1.2 the programmable clamp (CFG_ACT)
  if (FIELD(dev->hw.version, VERSION_MINOR) < 2) return S24_ERR_UNSUPPORTED;
  uint32_t v = 0;
  s24_status_t st = rd(dev, S24_REG_HW_EPI, &v);
  if (st != S24_OK) return st;
  if (FIELD(v, HW_EPI_DEPTH) < dev->hw.rows || FIELD(v, HW_EPI_LANES) == 0) {
    return S24_ERR_UNSUPPORTED;
  }
  dev->hw.epi_depth = FIELD(v, HW_EPI_DEPTH);
  dev->hw.epi_lanes = FIELD(v, HW_EPI_LANES);
  return S24_OK;
}

// s24_linear and s24_linear_conv: X's rows in place (x, batch rows of k), or a convolution's
// im2col read from its input (conv, batch = its output positions); row b of Y at y + b * ldy.
static s24_status_t linear(s24_dev_t *dev, const s24_weights_t *w, const int8_t *x, size_t batch,
                           const s24_conv_src_t *conv, const s24_linear_params_t *prm, int8_t *y,
                           size_t ldy) {
  if (!dev_ok(dev) || w == NULL || w->beats == NULL || w->row_sum == NULL || x == NULL ||
      batch == 0 || prm == NULL || prm->mult == NULL || prm->shift == NULL || y == NULL ||
      dev->inflight_tiles == 0 || ldy < w->m_rows) {
    return S24_ERR_ARG;
  }
  if ((!epi_prepared(w, prm) && !s24_linear_params_ok(prm->mult, prm->shift, w->m_rows, prm->zi,
                                                      prm->zo, prm->act_min, prm->act_max, NULL)) ||
      (prm->round != S24_ROUND_SINGLE && prm->round != S24_ROUND_DOUBLE)) {
    return S24_ERR_ARG;
  }
  // map 1.3 added CFG_EPI.ROUND: an older device would ignore the bit and round once
  if (prm->round == S24_ROUND_DOUBLE && FIELD(dev->hw.version, VERSION_MINOR) < 3) {
    return S24_ERR_UNSUPPORTED;
  }
  const s24_status_t pst = s24_dev_probe_epi(dev);  // HW_EPI is read on first use
  if (pst != S24_OK) return pst;
  // X's rows on a seam with a fetch unit: a 1x1 convolution's input (batch images of one pixel,
  // k channels), so the unit builds their beats as a convolution's (the same sums)
  s24_conv_src_t rows;
  const uint32_t cc = s24_dev_conv_channels(dev);
  if (conv == NULL && dev->seam.stream_conv != NULL && w->k % (cc > 1 ? cc : 1u) == 0 &&
      w->k <= INT32_MAX && batch <= INT32_MAX) {
    rows = (s24_conv_src_t){.x = x, .n = (int32_t)batch, .h = 1, .w = 1, .c = (int32_t)w->k,
                            .cs = (int32_t)w->k, .kh = 1, .kw = 1, .oh = 1, .ow = 1, .sh = 1,
                            .sw = 1, .dh = 1, .dw = 1, .pad = (int8_t)prm->zi};
    conv = &rows;
  }
  const epi_job_t epi = {prm, y, ldy, conv};
  // the weights run in the mode they were packed for (THE mode rule, s24_pair_choose, as for a
  // GEMM: map 1.4 takes fused pair-mode jobs); a map-1.3 device refuses PAIR with CFG_EPI.EN,
  // so there pair-packed weights are repacked for the core's own mode, into the seam's scratch
  // behind the GEMM's own (s24_linear_scratch_bytes)
  if (needs_repack(dev, w)) {
    size_t repack = 0;
    const size_t need = repack_scratch(dev, w, &repack);
    uint8_t *mem = need != 0 ? dev->seam.scratch(dev->seam.ctx, need) : NULL;
    if (mem == NULL) return S24_ERR_NOMEM;
    s24_weights_t own;
    s24_status_t st = pack(dev, w->dense, w->m_rows, w->k, mem, repack, &own, 0);
    if (st != S24_OK) return st;
    return run_gemm(dev, &own, x, 1, batch, NULL, NULL, &epi, mem + repack);
  }
  // B = X^T, read in place (s24_a_beat_t): the core's activation operand is X's rows
  uint8_t *scratch = get_scratch(dev, w);
  if (scratch == NULL) return S24_ERR_NOMEM;
  return run_gemm(dev, w, x, 1, batch, NULL, NULL, &epi, scratch);
}

s24_status_t s24_linear(s24_dev_t *dev, const s24_weights_t *w, const int8_t *x, size_t batch,
                        const s24_linear_params_t *prm, int8_t *y) {
  return linear(dev, w, x, batch, NULL, prm, y, w != NULL ? w->m_rows : 0);
}

s24_status_t s24_linear_conv(s24_dev_t *dev, const s24_weights_t *w, const s24_conv_src_t *src,
                             const s24_linear_params_t *prm, int8_t *y, size_t ldy) {
  if (w == NULL || src == NULL || src->x == NULL || src->n <= 0 || src->h <= 0 || src->w <= 0 ||
      src->c <= 0 || src->c0 < 0 || src->cs <= 0 || src->c0 > src->c - src->cs || src->kh <= 0 ||
      src->kw <= 0 || src->oh <= 0 || src->ow <= 0 || src->sh <= 0 || src->sw <= 0 ||
      src->dh <= 0 || src->dw <= 0 || src->ph < 0 || src->pw < 0 ||
      (size_t)src->kh * (size_t)src->kw * (size_t)src->cs != w->k || src->gr < 0 ||
      (src->gr > 0 && w->m_rows > 0 &&  // the last row's window within the input's channels
       (uint64_t)src->c0 + (uint64_t)((w->m_rows - 1) / (size_t)src->gr) * (uint64_t)src->cs >
           (uint64_t)(src->c - src->cs))) {
    return S24_ERR_ARG;
  }
  const size_t n = (size_t)src->n * (size_t)src->oh * (size_t)src->ow;
  return linear(dev, w, src->x, n, src, prm, y, ldy);
}
