// SPDX-License-Identifier: Apache-2.0
// sparse24 software device: registers and streams of s24_top in C (see s24_swdev.h).
#include "s24_swdev.h"

#include <stdlib.h>
#include <string.h>

#include "s24_layout.h"

#define STEP_NS 10u

s24_status_t s24_swdev_init(s24_swdev_t *d, uint32_t rows, uint32_t cols, uint32_t sparse_n,
                            uint32_t sparse_m) {
  const s24_array_t arr = {rows, cols, sparse_n, sparse_m, 0, 0};
  s24_geom_t g;
  if (d == NULL || rows > 255 || cols > 255 || s24_geom(arr, &g) != S24_OK) return S24_ERR_ARG;
  memset(d, 0, sizeof(*d));
  d->geom = g;
  d->rows = rows;
  d->cols = cols;
  d->sparse_n = sparse_n;
  d->sparse_m = sparse_m;
  d->idx_width = g.idx_width;
  d->w_words = g.w_words;
  d->a_words = g.a_words;
  d->r_words = g.r_words;
  d->q[S24_PORT_W].words_per_beat = d->w_words;
  d->q[S24_PORT_A].words_per_beat = d->a_words;
  d->q[S24_PORT_R].words_per_beat = d->r_words;
  s24_array_t parr;  // the pair mode of a 2:m array (PairMode of the default build)
  const s24_array_t built = {rows, cols, sparse_n, sparse_m, 0, S24_DEFAULT_PAIR_MODE};
  if (s24_array_pair(built, &parr) == S24_OK && s24_geom(parr, &d->pgeom) == S24_OK) {
    d->has_pair = 1;
  }
  d->acc = calloc((size_t)rows * cols * 2, sizeof(uint32_t));  // pair mode: 2R rows
  d->epi_depth = S24_DEFAULT_EPI_DEPTH;  // the default s24_top's EpiDepth
#define S24_STORE_RESET(name, off, rw, rst) d->store[(off) >> 2] = (rst);
  S24_REG_STORE_LIST(S24_STORE_RESET)  // the storage registers' reset values
#undef S24_STORE_RESET
  d->epi_ram = calloc((size_t)d->epi_depth * 3, sizeof(uint32_t));
  if (d->acc == NULL || d->epi_ram == NULL) {
    s24_swdev_free(d);
    return S24_ERR_NOMEM;
  }
  return S24_OK;
}

void s24_swdev_free(s24_swdev_t *d) {
  if (d == NULL) return;
  s24_scratch_free(&d->scratch);
  for (int i = 0; i < 3; i++) {
    free(d->q[i].words);
    free(d->q[i].last);
  }
  free(d->acc);
  free(d->epi_ram);
  memset(d, 0, sizeof(*d));
}

int s24_swdev_irq(const s24_swdev_t *d) { return d != NULL && d->irq_en && d->irq != 0; }

static s24_status_t q_push(s24_swq_t *q, const uint32_t *words, int last) {
  if (q->head > 0 && q->head == q->len) q->head = q->len = 0;
  if (q->len == q->cap) {
    if (q->head > 0) {  // compact first
      memmove(q->words, q->words + q->head * q->words_per_beat,
              (q->len - q->head) * q->words_per_beat * sizeof(uint32_t));
      memmove(q->last, q->last + q->head, q->len - q->head);
      q->len -= q->head;
      q->head = 0;
    }
    if (q->len == q->cap) {
      size_t cap = q->cap ? q->cap * 2 : 64;
      uint32_t *w = realloc(q->words, cap * q->words_per_beat * sizeof(uint32_t));
      if (w == NULL) return S24_ERR_NOMEM;
      q->words = w;
      uint8_t *l = realloc(q->last, cap);
      if (l == NULL) return S24_ERR_NOMEM;
      q->last = l;
      q->cap = cap;
    }
  }
  memcpy(q->words + q->len * q->words_per_beat, words, q->words_per_beat * sizeof(uint32_t));
  q->last[q->len] = (uint8_t)(last != 0);
  q->len++;
  return S24_OK;
}

static size_t q_count(const s24_swq_t *q) { return q->len - q->head; }

static void soft_reset(s24_swdev_t *d) {
  for (int i = 0; i < 3; i++) d->q[i].head = d->q[i].len = 0;
  d->busy = d->done = d->err = d->irq = d->meta_seen = 0;
  d->cnt_cycles = d->cnt_beats = d->tiles_out = d->cnt_job_cycles = 0;
  d->beat_i = d->tile_i = 0;
  d->job_epi = 0;
  d->job_pair = 0;
}

// HW_EPI.LANES of the default s24_top's EpiLanes on this array (s24_epi_lanes)
static uint32_t epi_lanes(uint32_t cols, int has_pair) {
  return s24_epi_lanes(cols, S24_DEFAULT_EPI_LANES, has_pair);
}

// The RTL epilogue's arithmetic for any 6-bit SHIFT (s24_epilogue.v): t = (31 - SHIFT) mod 64,
// the rounding constant 0 for t == 0, the 64-bit sum wrapping, a floor shift, the clamp to
// [ACT_MIN, ACT_MAX] of CFG_ACT (ACT_MAX tested first: any pair of bounds, as the RTL). With
// CFG_EPI.ROUND (gemmlowp's double rounding), by t as the RTL decides: t <= 30 (SHIFT > 0, and
// SHIFT = 31): sum sign-extended from bit t (= sum * 2^SHIFT wrapped to int32, shifted back),
// times MULT, + 2^(t-1) (0 for t = 0); t == 31: as single; t >= 32: + 2^30 + 2^(t-1), and
// 2^31 less when the product is below -2^30 (no overflow for any t up to 63).
static uint8_t epi_requant(uint32_t acc, const uint32_t *prm, uint32_t cfg, uint32_t act) {
  int32_t sum, mult = (int32_t)(prm[1] & 0x7FFFFFFFu);
  uint32_t s = acc + prm[0];
  memcpy(&sum, &s, sizeof sum);
  const uint32_t t = (31u - prm[2]) & 63u;
  const int dbl = (cfg & S24_CFG_EPI_ROUND_MASK) != 0;
  int64_t prod = (int64_t)sum * mult;
  uint64_t c = t ? (uint64_t)1 << (t - 1) : 0u;
  if (dbl && t <= 30) {
    const uint64_t m = ((uint64_t)2 << t) - 1u;  // bits t .. 0
    const uint64_t low = (uint64_t)(uint32_t)s & m;
    const int64_t ext = (low >> t) ? (int64_t)low - ((int64_t)2 << t) : (int64_t)low;
    prod = ext * mult;
  } else if (dbl && t >= 32) {
    c += (uint64_t)1 << 30;
    if (prod < -((int64_t)1 << 30)) c -= (uint64_t)1 << 31;
  }
  uint64_t u = (uint64_t)prod + c;
  int64_t v;
  memcpy(&v, &u, sizeof v);
  const int64_t r = v >= 0 ? v >> t : -(((-(v + 1)) >> t) + 1);
  const int32_t zo = (int8_t)(uint8_t)((cfg & S24_CFG_EPI_ZO_MASK) >> S24_CFG_EPI_ZO_LSB);
  const int64_t lo = (int8_t)(uint8_t)((act & S24_CFG_ACT_ACT_MIN_MASK) >> S24_CFG_ACT_ACT_MIN_LSB);
  const int64_t hi = (int8_t)(uint8_t)((act & S24_CFG_ACT_ACT_MAX_MASK) >> S24_CFG_ACT_ACT_MAX_LSB);
  int64_t y = r + zo;
  if (r > 511 || r < -512) y = (r > 0 ? 511 : -512) + zo;  // the RTL saturates r to 10 bits
  if (y > hi) y = hi;
  else if (y < lo) y = lo;
  return (uint8_t)(int8_t)y;
}

// One result tile through the epilogue: int8, four tile rows per beat; R rows a tile (2R in pair
// mode), so the parameter rows advance by R every CFG_COL_TILES tiles.
static s24_status_t epi_tile(s24_swdev_t *d) {
  const uint32_t R = d->job_pair ? 2 * d->rows : d->rows, C = d->cols, nb = s24_r8_beats(R);
  const size_t base = (size_t)(d->tile_i / d->job_col_tiles) * R;
  uint32_t beat[256];
  for (uint32_t q = 0; q < nb; q++) {
    memset(beat, 0, sizeof beat);
    for (uint32_t r = 4 * q; r < R && r < 4 * q + 4; r++) {
      const uint32_t *prm = d->epi_ram + ((base + r) % d->epi_depth) * 3;
      for (uint32_t c = 0; c < C; c++) {  // beat q alone: its rows 0 .. 3
        s24_r8_put(beat, 0, C, r - 4 * q, c,
                   (int8_t)epi_requant(d->acc[r * C + c], prm, d->job_epi, d->job_act));
      }
    }
    s24_status_t st = q_push(&d->q[S24_PORT_R], beat, q == nb - 1);
    if (st != S24_OK) return st;
  }
  return S24_OK;
}

static void set_err(s24_swdev_t *d, uint32_t bits) {
  d->err |= bits;
  d->irq |= S24_IRQ_ERROR_MASK;
}

// One array step: a weight beat and an activation beat.
static s24_status_t step(s24_swdev_t *d) {
  s24_swq_t *qw = &d->q[S24_PORT_W], *qa = &d->q[S24_PORT_A];
  const uint32_t *wb = qw->words + qw->head * qw->words_per_beat;
  const uint32_t *ab = qa->words + qa->head * qa->words_per_beat;
  const int end = d->beat_i == d->beats - 1;
  if (qw->last[qw->head] != end) set_err(d, S24_ERR_W_LAST_MASK);
  if (qa->last[qa->head] != end) set_err(d, S24_ERR_A_LAST_MASK);
  const s24_geom_t *g = d->job_pair ? &d->pgeom : &d->geom;
  const uint32_t R = g->rows, C = g->cols, n = g->sparse_n, m = g->sparse_m;
  for (uint32_t r = 0; r < R; r++) {
    uint32_t idx[8];
    int bad = 0;
    for (uint32_t s = 0; s < n; s++) {
      idx[s] = s24_w_index(g, wb, r, s);
      if (idx[s] >= m || (s > 0 && idx[s] <= idx[s - 1])) bad = 1;
    }
    if (bad) {  // the input checker zeroes the group and raises the sticky flag
      if (!d->meta_seen) set_err(d, S24_ERR_META_MASK);
      d->meta_seen = 1;
      continue;
    }
    for (uint32_t s = 0; s < n; s++) {
      const int32_t wv = s24_w_value(g, wb, r, s);
      for (uint32_t c = 0; c < C; c++) {
        const int32_t av = s24_a_get(g, ab, c, idx[s]);
        d->acc[r * C + c] += (uint32_t)(wv * av);
      }
    }
  }
  qw->head++;
  qa->head++;
  d->cnt_beats++;
  d->cnt_cycles++;
  d->cnt_job_cycles++;
  d->time_ns += STEP_NS;
  if (!end) {
    d->beat_i++;
    return S24_OK;
  }
  d->beat_i = 0;
  if (d->job_epi & S24_CFG_EPI_EN_MASK) {
    s24_status_t st = epi_tile(d);
    if (st != S24_OK) return st;
  } else {
    for (uint32_t r = 0; r < R; r++) {
      s24_status_t st = q_push(&d->q[S24_PORT_R], d->acc + r * C, r == R - 1);
      if (st != S24_OK) return st;
    }
  }
  memset(d->acc, 0, (size_t)R * C * sizeof(uint32_t));
  d->tiles_out++;
  if (++d->tile_i == d->tiles) {
    d->busy = 0;
    d->done = 1;
    d->irq |= S24_IRQ_DONE_MASK;
  }
  return S24_OK;
}

static s24_status_t run(s24_swdev_t *d) {
  while (d->busy && q_count(&d->q[S24_PORT_W]) > 0 && q_count(&d->q[S24_PORT_A]) > 0) {
    s24_status_t st = step(d);
    if (st != S24_OK) return st;
  }
  return S24_OK;
}

// 1 and the writable mask when addr is a storage register of the map (regs/s24_regs.toml's
// store = true: plain rw storage in d->store, no side effect), else 0
static int store_reg(uint32_t addr, uint32_t *rw) {
  switch (addr) {
#define S24_STORE_CASE(name, off, mask, rst) \
  case (off):                                \
    *rw = (mask);                            \
    return 1;
    S24_REG_STORE_LIST(S24_STORE_CASE)
#undef S24_STORE_CASE
    default: return 0;
  }
}

// 1 and the value when addr is a build-parameter register of the map (regs/s24_regs.toml's
// reset = "param"): each field reads this device's value of the s24_top parameter it names
static int param_reg(const s24_swdev_t *d, uint32_t addr, uint32_t *value) {
  // the s24_top parameters by their RTL names (S24_REG_PARAM_LIST's third column)
  const uint32_t NumRows = d->rows, NumCols = d->cols, SparseN = d->sparse_n, SparseM = d->sparse_m;
  const uint32_t DataWidth = 8, AccWidth = 32, IdxWidth = d->idx_width;
  const uint32_t WWords = d->w_words, AWords = d->a_words, RWords = d->r_words;
  const uint32_t EpiDepth = d->epi_depth, EpiLanesEff = epi_lanes(d->cols, d->has_pair);
  int hit = 0;
  uint32_t v = 0;
#define S24_PARAM_FIELD(reg, field, param)                                          \
  if (addr == S24_REG_##reg) {                                                      \
    v |= ((uint32_t)(param) << S24_##reg##_##field##_LSB) & S24_##reg##_##field##_MASK; \
    hit = 1;                                                                        \
  }
  S24_REG_PARAM_LIST(S24_PARAM_FIELD)
#undef S24_PARAM_FIELD
  if (hit) *value = v;
  return hit;
}

static s24_status_t sw_read32(void *ctx, uint32_t addr, uint32_t *value) {
  s24_swdev_t *d = ctx;
  if (d == NULL || value == NULL || addr >= S24_REG_WINDOW) return S24_ERR_ARG;
  s24_status_t st = run(d);
  if (st != S24_OK) return st;
  d->time_ns += STEP_NS;
  addr &= ~3u;  // decoded by word, as s24_top (the low two bits are byte lanes)
  uint32_t v = 0, rw;
  if (store_reg(addr, &rw)) {
    *value = d->store[addr >> 2];
    return S24_OK;
  }
  if (param_reg(d, addr, value)) return S24_OK;
  switch (addr) {
    case S24_REG_ID: v = S24_MAGIC; break;
    case S24_REG_VERSION:
      v = S24_VERSION_MAJOR << S24_VERSION_MAJOR_LSB | S24_VERSION_MINOR << S24_VERSION_MINOR_LSB;
      break;
    case S24_REG_CTRL: v = d->irq_en ? S24_CTRL_IRQ_EN_MASK : 0; break;
    case S24_REG_STATUS:  // R_HELD stays 0: no beat is presented, results wait in the seam's queue
      v = (d->busy ? S24_STATUS_BUSY_MASK : 0) | (d->done ? S24_STATUS_DONE_MASK : 0) |
          (d->err ? S24_STATUS_ERROR_MASK : 0);
      break;
    case S24_REG_ERR: v = d->err; break;
    case S24_REG_IRQ: v = d->irq; break;
    case S24_REG_CNT_CYCLES: v = d->cnt_cycles; break;
    case S24_REG_CNT_BEATS: v = d->cnt_beats; break;
    case S24_REG_CNT_STALL_W:
    case S24_REG_CNT_STALL_A:
    case S24_REG_CNT_STALL_R: v = 0; break;
    case S24_REG_CNT_TILES_OUT: v = d->tiles_out; break;
    case S24_REG_CFG_MODE: v = d->cfg_mode; break;
    case S24_REG_CNT_JOB_CYCLES: v = d->cnt_job_cycles; break;
    case S24_REG_EPI_ADDR: v = d->epi_addr; break;
    case S24_REG_EPI_SHIFT: v = d->epi_shift; break;
    default:
      if (addr >= S24_REG_SPAN) return S24_ERR_HW;  // beyond the register block: SLVERR
      v = 0;  // a hole of the block reads 0 (RAZ)
      break;
  }
  *value = v;
  return S24_OK;
}

static s24_status_t sw_write32(void *ctx, uint32_t addr, uint32_t v) {
  s24_swdev_t *d = ctx;
  if (d == NULL || addr >= S24_REG_WINDOW) return S24_ERR_ARG;
  s24_status_t st = run(d);
  if (st != S24_OK) return st;
  d->time_ns += STEP_NS;
  addr &= ~3u;  // decoded by word, as s24_top
  uint32_t rw;
  if (store_reg(addr, &rw)) {
    d->store[addr >> 2] = v & rw;
    return run(d);
  }
  switch (addr) {
    case S24_REG_ID:
    case S24_REG_VERSION:
    case S24_REG_HW_ARRAY:
    case S24_REG_HW_WIDTH:
    case S24_REG_HW_BEAT:
    case S24_REG_STATUS:
    case S24_REG_CNT_CYCLES:
    case S24_REG_CNT_BEATS:
    case S24_REG_CNT_STALL_W:
    case S24_REG_CNT_STALL_A:
    case S24_REG_CNT_STALL_R:
    case S24_REG_CNT_TILES_OUT:
    case S24_REG_HW_EPI:
    case S24_REG_CNT_JOB_CYCLES: break;  // read-only: ignored
    case S24_REG_CTRL:
      d->irq_en = (v & S24_CTRL_IRQ_EN_MASK) != 0;
      if (v & S24_CTRL_SOFT_RESET_MASK) {
        soft_reset(d);
      } else if (v & S24_CTRL_START_MASK) {
        if (d->busy) {
          set_err(d, S24_ERR_START_BUSY_MASK);
        } else if (S24_SW_REG(d, CFG_BEATS) == 0 || S24_SW_REG(d, CFG_TILES) == 0 ||
                   ((S24_SW_REG(d, CFG_EPI) & S24_CFG_EPI_EN_MASK) &&
                    S24_SW_REG(d, CFG_COL_TILES) == 0)) {
          set_err(d, S24_ERR_BAD_CFG_MASK);
        } else {
          d->busy = 1;
          d->done = 0;
          d->beats = S24_SW_REG(d, CFG_BEATS);
          d->tiles = S24_SW_REG(d, CFG_TILES);
          d->beat_i = d->tile_i = 0;
          d->cnt_cycles = d->cnt_beats = d->tiles_out = d->cnt_job_cycles = 0;
          d->job_epi = S24_SW_REG(d, CFG_EPI);
          d->job_act = S24_SW_REG(d, CFG_ACT);
          d->job_col_tiles = S24_SW_REG(d, CFG_COL_TILES);
          d->job_pair = d->cfg_mode & S24_CFG_MODE_PAIR_MASK;
          memset(d->acc, 0, (size_t)d->rows * d->cols * 2 * sizeof(uint32_t));
        }
      }
      break;
    case S24_REG_ERR: d->err &= ~(v & S24_ERR_W1C_MASK); break;
    case S24_REG_IRQ: d->irq &= ~(v & S24_IRQ_W1C_MASK); break;
    case S24_REG_CFG_MODE: d->cfg_mode = d->has_pair ? (v & S24_CFG_MODE_RW_MASK) : 0; break;
    case S24_REG_EPI_ADDR: d->epi_addr = v & S24_EPI_ADDR_ROW_MASK; break;
    case S24_REG_EPI_SHIFT:  // stores the row, then EPI_ADDR moves on (16-bit wrap)
      d->epi_shift = v & S24_EPI_SHIFT_SHIFT_MASK;
      if (d->epi_addr < d->epi_depth) {
        uint32_t *row = d->epi_ram + (size_t)d->epi_addr * 3;
        row[0] = S24_SW_REG(d, EPI_BIAS);
        row[1] = S24_SW_REG(d, EPI_MULT);
        row[2] = d->epi_shift;
      }
      d->epi_addr = (d->epi_addr + 1u) & S24_EPI_ADDR_ROW_MASK;
      break;
    default:
      if (addr >= S24_REG_SPAN) return S24_ERR_HW;  // beyond the register block: SLVERR
      break;  // a hole of the block ignores writes (WI)
  }
  return run(d);
}

static s24_status_t sw_stream_write(void *ctx, s24_port_t port, const uint32_t *beats,
                                    size_t words, size_t n) {
  s24_swdev_t *d = ctx;
  if (d == NULL || beats == NULL || n == 0 || (port != S24_PORT_W && port != S24_PORT_A) ||
      words != d->q[port].words_per_beat) {
    return S24_ERR_ARG;
  }
  for (size_t i = 0; i < n; i++) {
    s24_status_t st = q_push(&d->q[port], beats + i * words, i == n - 1);
    if (st != S24_OK) return st;
  }
  return run(d);
}

static s24_status_t sw_stream_read(void *ctx, s24_port_t port, uint32_t *beats, size_t words,
                                   size_t n, uint8_t *last, uint64_t timeout_ns) {
  s24_swdev_t *d = ctx;
  if (d == NULL || beats == NULL || n == 0 || port != S24_PORT_R ||
      words != d->q[port].words_per_beat) {
    return S24_ERR_ARG;
  }
  s24_status_t st = run(d);
  if (st != S24_OK) return st;
  s24_swq_t *q = &d->q[S24_PORT_R];
  if (q_count(q) < n) {  // nothing else can make progress: the wait would expire
    d->time_ns += timeout_ns;
    return S24_ERR_TIMEOUT;
  }
  memcpy(beats, q->words + q->head * words, n * words * sizeof(uint32_t));
  if (last != NULL) memcpy(last, q->last + q->head, n);
  q->head += n;
  return S24_OK;
}

static s24_status_t sw_stream_reset(void *ctx) {
  s24_swdev_t *d = ctx;
  if (d == NULL) return S24_ERR_ARG;
  for (int i = 0; i < 3; i++) d->q[i].head = d->q[i].len = 0;
  return S24_OK;
}

static uint64_t sw_now_ns(void *ctx) {
  s24_swdev_t *d = ctx;
  d->time_ns += STEP_NS;
  return d->time_ns;
}

// The streams copy every beat: the staging memory is plain heap.
static void *sw_scratch(void *ctx, size_t bytes) {
  s24_swdev_t *d = ctx;
  return d != NULL ? s24_scratch_get(&d->scratch, bytes) : NULL;
}

void s24_swdev_seam(s24_swdev_t *d, s24_seam_t *seam) {
  if (seam != NULL) {
    *seam = (s24_seam_t){d, sw_read32, sw_write32, sw_stream_write, sw_stream_read,
                         sw_stream_reset, sw_now_ns, sw_scratch, NULL, 0, NULL, NULL, NULL, NULL,
                         NULL};  // no fetch unit
  }
}
