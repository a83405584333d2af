// sparse24 host driver: open/reset/errors/counters, weight packing, tiled GEMM over the seam.
#include "s24_drv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "s24_layout.h"

#define FIELD(v, name) (((v) & S24_##name##_MASK) >> S24_##name##_LSB)

static int seam_ok(const s24_seam_t *s) {
  return s != NULL && s->read32 != NULL && s->write32 != NULL && s->stream_write != NULL &&
         s->stream_read != NULL && s->stream_reset != NULL && s->now_ns != NULL;
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
  if (c.busy_cycles <= (UINT64_MAX - S24_WAIT_SLACK_NS) / S24_WAIT_MARGIN / ns) {
    const uint64_t job = c.busy_cycles * S24_WAIT_MARGIN * ns + S24_WAIT_SLACK_NS;
    if (job < limit) limit = job;
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
  const uint64_t t0 = dev->seam.now_ns(dev->seam.ctx);
  const uint64_t limit = s24_dev_wait_limit_ns(dev);
  for (;;) {
    uint32_t status = 0;
    s24_status_t st = rd(dev, S24_REG_STATUS, &status);
    if (st != S24_OK) return st;
    if ((status & S24_STATUS_BUSY_MASK) == 0 && (status & S24_STATUS_DONE_MASK) != 0) {
      if ((status & S24_STATUS_ERROR_MASK) == 0) return S24_OK;
      return fail(dev, S24_ERR_HW);
    }
    if (dev->seam.now_ns(dev->seam.ctx) - t0 > limit) return fail(dev, S24_ERR_TIMEOUT);
  }
}

// ------------------------------------------------------------------------------ weights

void s24_weights_free(s24_weights_t *w) {
  if (w == NULL) return;
  free(w->beats);
  free(w->tile_first);
  free(w->bpg);
  free(w->row_sum);
  free(w->dense);
  memset(w, 0, sizeof(*w));
}

// Packs a dense m_rows x k matrix into the device's beats (docs/architecture.md section 2).
// The array: the device's own, or its pair mode when allow_pair and THE mode rule
// (s24_pair_choose, which the cycle model's predictors use too) picks it.
static s24_status_t pack(const s24_dev_t *dev, const int8_t *a, size_t m_rows, size_t k,
                         s24_weights_t *w, int allow_pair) {
  const s24_hw_info_t *hw = &dev->hw;
  s24_array_t arr = {hw->rows, hw->cols, hw->sparse_n, hw->sparse_m, 0, hw->pair};
  const int pair = allow_pair && s24_pair_choose(arr, a, m_rows, k);
  if (pair && s24_array_pair(arr, &arr) != S24_OK) return S24_ERR_ARG;
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
  if (w->groups > SIZE_MAX / w->row_tiles) return S24_ERR_NOMEM;
  w->bpg = calloc(w->row_tiles * w->groups, 1);
  w->tile_first = calloc(w->row_tiles + 1, sizeof(size_t));
  w->row_sum = calloc(m_rows, sizeof(int32_t));
  if (w->bpg == NULL || w->tile_first == NULL || w->row_sum == NULL) {
    s24_weights_free(w);
    return S24_ERR_NOMEM;
  }
  for (size_t r = 0; r < m_rows; r++) {  // the fused layer's zero-point term (s24_linear)
    uint32_t sum = 0;
    for (size_t i = 0; i < k; i++) sum += (uint32_t)(int32_t)a[r * k + i];
    memcpy(&w->row_sum[r], &sum, sizeof(sum));
  }
  if (pair) {  // kept for s24_linear on a map-1.3 device (no fused pair-mode jobs)
    w->dense = malloc(m_rows * k);
    if (w->dense == NULL) {
      s24_weights_free(w);
      return S24_ERR_NOMEM;
    }
    memcpy(w->dense, a, m_rows * k);
  }
  // pass 1: beats per group by the planner (s24_layout.h s24_plan_row_tile), so the
  // predicted cycles and the packed beats come from one function
  size_t total = 0;
  for (size_t t = 0; t < w->row_tiles; t++) {
    uint64_t tile_beats = 0;
    s24_status_t st = s24_plan_row_tile(arr, a, m_rows, k, t, w->bpg + t * w->groups,
                                        &tile_beats);
    if (st != S24_OK) {
      s24_weights_free(w);
      return st;
    }
    if (tile_beats > UINT32_MAX) {
      s24_weights_free(w);
      return S24_ERR_UNSUPPORTED;  // CFG_BEATS is 32 bits
    }
    w->tile_first[t] = total;
    total += (size_t)tile_beats;
  }
  w->tile_first[w->row_tiles] = total;
  if (total > SIZE_MAX / sizeof(uint32_t) / hw->w_words) {
    s24_weights_free(w);
    return S24_ERR_NOMEM;
  }
  w->beats = calloc(total * hw->w_words, sizeof(uint32_t));
  if (w->beats == NULL) {
    s24_weights_free(w);
    return S24_ERR_NOMEM;
  }
  // pass 2: fill, beat by beat (s24_layout.h: each row's nonzeros b*n .. b*n+n-1 of the group)
  s24_geom_t geom;
  if (s24_geom(arr, &geom) != S24_OK) {
    s24_weights_free(w);
    return S24_ERR_ARG;
  }
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

s24_status_t s24_weights_load_dense(const s24_dev_t *dev, const int8_t *a, size_t m_rows,
                                    size_t k, s24_weights_t *w) {
  if (!dev_ok(dev) || a == NULL || w == NULL || m_rows == 0 || k == 0) return S24_ERR_ARG;
  return pack(dev, a, m_rows, k, w, 1);
}

s24_status_t s24_weights_load(const s24_dev_t *dev, s24_pattern_t p, const int8_t *values,
                              const uint8_t *meta, size_t m_rows, size_t k, s24_weights_t *w,
                              s24_where_t *where) {
  if (!dev_ok(dev) || values == NULL || meta == NULL || w == NULL || m_rows == 0 || k == 0 ||
      !s24_pattern_ok(p) || k % p.m != 0) {
    return S24_ERR_ARG;
  }
  s24_where_t dummy;
  if (where == NULL) where = &dummy;
  s24_status_t st = s24_meta_validate(p, meta, m_rows, k, where);
  if (st != S24_OK) return st;  // invalid metadata never reaches the hardware
  if (m_rows > SIZE_MAX / k) return S24_ERR_NOMEM;
  int8_t *dense = malloc(m_rows * k);
  if (dense == NULL) return S24_ERR_NOMEM;
  st = s24_decompress(p, values, meta, m_rows, k, dense, where);
  if (st == S24_OK) st = pack(dev, dense, m_rows, k, w, 1);
  free(dense);
  return st;
}

// ------------------------------------------------------------------------------ GEMM

// Activation beats of one column tile for row tile t: each group's beat repeated bpg times.
static void build_a(const s24_geom_t *g, const s24_weights_t *w, size_t t, const int8_t *b,
                    size_t n_cols, size_t j0, uint32_t *out) {
  const size_t aw = g->a_words;
  size_t beat = 0;
  for (size_t grp = 0; grp < w->groups; grp++) {
    const uint8_t reps = w->bpg[t * w->groups + grp];
    if (reps == 0) continue;
    uint32_t *first = out + beat * aw;
    s24_a_beat(g, first, b, w->k, n_cols, grp, j0);
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
  int8_t *y;  // batch x m_rows
} epi_job_t;

// Reads one fused result tile: ceil(R/4) beats of int8, four tile rows per beat
// (docs/architecture.md §4), and scatters it into Y[b][m] (b = column, m = row of the tile);
// R = w->rows, the tile rows of the weights' mode (2 * NumRows in pair mode).
static s24_status_t read_tile_i8(s24_dev_t *dev, const s24_weights_t *w, size_t t, size_t ct,
                                 size_t n_cols, int8_t *y, uint32_t *rbuf, uint8_t *last) {
  const size_t R = w->rows, C = w->cols, rw = dev->hw.r_words, nb = s24_r8_beats(w->rows);
  s24_status_t st = dev->seam.stream_read(dev->seam.ctx, S24_PORT_R, rbuf, rw, nb, last,
                                          dev->timeout_ns);
  if (st != S24_OK) return st;
  for (size_t i = 0; i < nb; i++) {
    if (last[i] != (i == nb - 1)) return S24_ERR_HW;  // TLAST must end each result tile
  }
  for (size_t r = 0; r < R && t * R + r < w->m_rows; r++) {
    for (size_t cc = 0; cc < C && ct * C + cc < n_cols; cc++) {
      y[(ct * C + cc) * w->m_rows + t * R + r] =
          s24_r8_get(rbuf, (uint32_t)rw, (uint32_t)C, (uint32_t)r, (uint32_t)cc);
    }
  }
  return S24_OK;
}

// Loads the parameter RAM with the job's rows (first_row ..) and configures the fused mode.
static s24_status_t epi_setup(s24_dev_t *dev, const s24_weights_t *w, const epi_job_t *e,
                              size_t first_row, size_t rows, size_t col_tiles) {
  const s24_linear_params_t *p = e->prm;
  s24_status_t st = wr(dev, S24_REG_EPI_ADDR, 0);
  for (size_t i = 0; i < rows && st == S24_OK; i++) {
    const size_t m = first_row + i;
    uint32_t bias = 0, mult = 0, shift = 0;  // padding rows: results dropped
    if (m < w->m_rows) {
      // acc = sum W*(X - ZI) + BIAS = sum W*X + (BIAS - ZI*sum W), all modulo 2^32
      bias = (uint32_t)(p->bias != NULL ? p->bias[m] : 0) - (uint32_t)p->zi * (uint32_t)w->row_sum[m];
      mult = (uint32_t)p->mult[m];
      shift = (uint32_t)p->shift[m];
    }
    st = wr(dev, S24_REG_EPI_BIAS, bias);
    if (st == S24_OK) st = wr(dev, S24_REG_EPI_MULT, mult);
    if (st == S24_OK) st = wr(dev, S24_REG_EPI_SHIFT, shift & S24_EPI_SHIFT_SHIFT_MASK);
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

static s24_status_t run_gemm(s24_dev_t *dev, const s24_weights_t *w, const int8_t *b,
                             size_t n_cols, const int32_t *c0, int32_t *c, const epi_job_t *epi) {
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
  const size_t col_tiles = (n_cols + hw->cols - 1) / hw->cols;
  if (col_tiles > UINT32_MAX) return S24_ERR_UNSUPPORTED;
  size_t max_beats = 0;
  for (size_t t = 0; t < w->row_tiles; t++) {
    size_t nb = w->tile_first[t + 1] - w->tile_first[t];
    if (nb > max_beats) max_beats = nb;
  }
  if (max_beats > SIZE_MAX / sizeof(uint32_t) / hw->a_words ||
      w->row_tiles > SIZE_MAX / sizeof(uint64_t)) {
    return S24_ERR_NOMEM;
  }
  uint64_t *tile_beats = malloc(w->row_tiles * sizeof(uint64_t));  // CFG_BEATS per row tile
  uint32_t *abuf = malloc(max_beats * hw->a_words * sizeof(uint32_t));
  uint32_t *rbuf = malloc(R * hw->r_words * sizeof(uint32_t));
  uint8_t *last = malloc(R);
  if (tile_beats == NULL || abuf == NULL || rbuf == NULL || last == NULL) {
    free(tile_beats);
    free(abuf);
    free(rbuf);
    free(last);
    return S24_ERR_NOMEM;
  }
  for (size_t t = 0; t < w->row_tiles; t++) tile_beats[t] = w->tile_first[t + 1] - w->tile_first[t];
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
    const size_t job_rows = s24_plan_next_job(arr, tile_beats + first, left, col_tiles);
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
    const size_t nb = (size_t)tile_beats[first];
    const size_t total = job_rows * col_tiles;  // CFG_TILES, < 2^32 by the planning rule
    // keep up to inflight_tiles tiles queued ahead of the results being read (the core drains
    // every tile it took on its own; a larger window only keeps it fed). The first ones are
    // queued before START (the core takes no beat outside a job), so with the default window
    // the core is fed from its first cycle and its busy cycles are exactly the cycle model's.
    size_t sent = 0, got = 0;
    int started = 0;
    while (st == S24_OK && got < total) {
      if (!started && (sent == total || sent == dev->inflight_tiles)) {
        st = s24_dev_start(dev, (uint32_t)nb, (uint32_t)total);
        started = 1;
      } else if (sent < total && sent - got < dev->inflight_tiles) {
        const size_t t = first + sent / col_tiles, j = sent % col_tiles;
        build_a(&geom, w, t, b, n_cols, j * hw->cols, abuf);
        st = dev->seam.stream_write(dev->seam.ctx, S24_PORT_W,
                                    w->beats + w->tile_first[t] * hw->w_words, hw->w_words, nb);
        if (st == S24_OK) {
          st = dev->seam.stream_write(dev->seam.ctx, S24_PORT_A, abuf, hw->a_words, nb);
        }
        sent++;
      } else {
        const size_t t = first + got / col_tiles, j = got % col_tiles;
        st = epi != NULL ? read_tile_i8(dev, w, t, j, n_cols, epi->y, rbuf, last)
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
  free(tile_beats);
  free(abuf);
  free(rbuf);
  free(last);
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

s24_status_t s24_gemm(s24_dev_t *dev, const s24_weights_t *w, const int8_t *b, size_t n_cols,
                      const int32_t *c0, int32_t *c) {
  if (c == NULL) return S24_ERR_ARG;
  return run_gemm(dev, w, b, n_cols, c0, c, NULL);
}

s24_status_t s24_linear(s24_dev_t *dev, const s24_weights_t *w, const int8_t *x, size_t batch,
                        const s24_linear_params_t *prm, int8_t *y) {
  if (!dev_ok(dev) || w == NULL || w->beats == NULL || w->row_sum == NULL || x == NULL ||
      batch == 0 || prm == NULL || prm->mult == NULL || prm->shift == NULL || y == NULL) {
    return S24_ERR_ARG;
  }
  if (!s24_linear_params_ok(prm->mult, prm->shift, w->m_rows, prm->zi, prm->zo, prm->act_min,
                            prm->act_max, NULL) ||
      (prm->round != S24_ROUND_SINGLE && prm->round != S24_ROUND_DOUBLE)) {
    return S24_ERR_ARG;
  }
  // map 1.3 added CFG_EPI.ROUND: an older device would ignore the bit and round once
  if (prm->round == S24_ROUND_DOUBLE && FIELD(dev->hw.version, VERSION_MINOR) < 3) {
    return S24_ERR_UNSUPPORTED;
  }
  if (dev->hw.epi_depth == 0) {  // HW_EPI is read on first use
    // map 1.1 added the epilogue (HW_EPI, CFG_EPI, EPI_*), 1.2 the programmable clamp (CFG_ACT)
    if (FIELD(dev->hw.version, VERSION_MINOR) < 2) return S24_ERR_UNSUPPORTED;
    uint32_t v = 0;
    s24_status_t st = rd(dev, S24_REG_HW_EPI, &v);
    if (st != S24_OK) return st;
    dev->hw.epi_depth = FIELD(v, HW_EPI_DEPTH);
    dev->hw.epi_lanes = FIELD(v, HW_EPI_LANES);
    if (dev->hw.epi_depth < dev->hw.rows || dev->hw.epi_lanes == 0) return S24_ERR_UNSUPPORTED;
  }
  if (batch > SIZE_MAX / w->k) return S24_ERR_NOMEM;
  int8_t *xt = malloc(batch * w->k);  // B = X^T: k x batch, the core's activation operand
  if (xt == NULL) return S24_ERR_NOMEM;
  for (size_t b = 0; b < batch; b++) {
    for (size_t i = 0; i < w->k; i++) xt[i * batch + b] = x[b * w->k + i];
  }
  const epi_job_t epi = {prm, y};
  // the weights run in the mode they were packed for (THE mode rule, s24_pair_choose, as for a
  // GEMM: map 1.4 takes fused pair-mode jobs); a map-1.3 device refuses PAIR with CFG_EPI.EN,
  // so there pair-packed weights are repacked for the core's own mode
  s24_weights_t own = {0};
  const int repack = w->pair && FIELD(dev->hw.version, VERSION_MINOR) < 4;
  s24_status_t st = S24_OK;
  if (repack) {
    st = w->dense != NULL ? pack(dev, w->dense, w->m_rows, w->k, &own, 0) : S24_ERR_ARG;
  }
  if (st == S24_OK) st = run_gemm(dev, repack ? &own : w, xt, batch, NULL, NULL, &epi);
  if (repack) s24_weights_free(&own);
  free(xt);
  return st;
}

s24_status_t s24_gemm_compressed(s24_dev_t *dev, s24_pattern_t p, const int8_t *values,
                                 const uint8_t *meta, size_t m_rows, size_t k, const int8_t *b,
                                 size_t n_cols, const int32_t *c0, int32_t *c,
                                 s24_where_t *where) {
  if (b == NULL || c == NULL || n_cols == 0) return S24_ERR_ARG;
  s24_weights_t w;
  s24_status_t st = s24_weights_load(dev, p, values, meta, m_rows, k, &w, where);
  if (st != S24_OK) return st;
  st = s24_gemm(dev, &w, b, n_cols, c0, c);
  s24_weights_free(&w);
  return st;
}

s24_status_t s24_gemm_dense(s24_dev_t *dev, const int8_t *a, size_t m_rows, size_t k,
                            const int8_t *b, size_t n_cols, const int32_t *c0, int32_t *c) {
  if (b == NULL || c == NULL || n_cols == 0) return S24_ERR_ARG;
  s24_weights_t w;
  s24_status_t st = s24_weights_load_dense(dev, a, m_rows, k, &w);
  if (st != S24_OK) return st;
  st = s24_gemm(dev, &w, b, n_cols, c0, c);
  s24_weights_free(&w);
  return st;
}
