// SPDX-License-Identifier: Apache-2.0
// sparse24 golden model: cycle model. s24_core job formula (docs/architecture.md §3, ideal
// streams) and the GEMM cycle model of the host driver's jobs (planned in s24_plan.c).
#include "s24_cycles.h"

#include <string.h>

static size_t ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }

// ------------------------------------------------------------------ GEMM cycle model
// The host driver runs a GEMM as row tiles x column tiles, one hardware job per run of
// consecutive row tiles with equal beats, planned by s24_plan_row_tile and s24_plan_next_job
// (s24_layout.c); the predictors below plan with the same functions, so prediction and
// hardware cannot drift apart.

// ------------------------------------------------------------------ fused epilogue jobs
// A fused job's busy cycles (CNT_CYCLES) end in the cycle the epilogue takes the job's last row
// from the core. Five mechanisms of the RTL and the driver set when that is; the result side is
// simulated cycle by cycle (where they meet), the input side in closed form:
//  * the core's feed (docs/architecture.md §3): tile t's first beat is injected in cycle
//    f_t = max(s_{t-1} + P - G + 1, Q_t + 3) (the spacing slots after tile t - 1's last beat;
//    Q_t: the cycle before its beats are offered, accepted one cycle later, then the input slice
//    and FIFO), its last beat in cycle s_t = max(f_t + G - 1, the first cycle with R result
//    credits). The input FIFO's backpressure never delays an injection: a beat it holds back
//    is behind four injectable ones;
//  * the core's result credits: CredCap rows (s24_rbuf's RAM and its two registers, s24_core.v;
//    sized for the larger of the two modes' needs in a pair-capable build); a tile reserves its
//    rows (R, or 2R in pair mode: the job's array, s24_array_pair) at its last beat, every row
//    the epilogue takes returns one;
//  * the core's result buffer (s24_rbuf): row r of tile t is pushed in cycle s_t + C + 8 + r,
//    reaches the output register three cycles later at the earliest (RAM, read register, output
//    register; one stage a cycle while the one after it is free or taken) and leaves only when
//    the epilogue is ready;
//  * the epilogue (s24_epilogue.v): r_ready is "its row buffer (2^ceil(log2 MaxRows) rows, 2 for
//    MaxRows = 1, MaxRows = 2R in a pair-capable build, else R; registered fill) is not full"; it issues one element (lanes of a row) per cycle while
//    the row buffer is not empty (a row taken in cycle c issues from c + 1) and fewer than 4
//    output beats are in flight. A beat (4 rows, or the tile's last rows) holds one of the
//    4-beat output FIFO's credits from its last element's issue until it leaves m_axis_r 13
//    cycles later (12 stages, one FIFO cycle; m_axis_r always ready);
//  * the driver (s24_drv.c run_gemm): the first W = max(4, s24_feed_window_tiles(R, C)) tiles
//    (R the core's NumRows in both modes)
//    are queued before START (Q_t = 1), tile t + W when tile t's last int8 beat has been read:
//    Q_{t+W} = the cycle it leaves m_axis_r. A fused tile's last beat leaves C / lanes + 13
//    cycles after its last row (a GEMM's row leaves at once), so at short tile periods this
//    window, sized for the GEMM, starves the array.
// Cost: one step per cycle in which a row is on the result side; idle stretches are skipped, so
// O(tiles * rows * cols / lanes) steps whatever the beats; two rings on the stack (CredCap, W words).
#define EPI_OUT_BEATS 4u          // output FIFO depth (OutAw = 2): beats in flight
#define EPI_ISSUE_TO_OUT 13u      // issue of a beat's last element to the beat leaving m_axis_r
#define EPI_INFLIGHT_MIN 4u       // the driver's S24_DEFAULT_INFLIGHT_TILES
// The event simulation's two rings live on the stack (the model allocates nothing): result
// credits up to 511 rows (a 2:4 core with the pair mode up to 32 x 32 and beyond needs fewer)
// and feed windows up to 32 tiles; a larger core is S24_ERR_UNSUPPORTED.
#define EPI_POP_RING_MAX 512u
#define EPI_OUT_RING_MAX 32u

static uint64_t pow2_at_least(uint64_t v) {  // smallest 2^a >= v (v <= 2^63)
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

// Result rows the core's buffer can take (s24_core.v: CredCap = 2^OutAw + 2, OutAw from CredNeed:
// the 2:m mode's need, or the larger of both modes' in a pair-capable build).
static uint64_t core_result_credits(uint64_t rows, uint64_t cols, int capable) {
  const uint64_t big = rows > cols ? rows : cols, lat = cols + S24_CORE_PIPE_CYCLES;
  uint64_t need = rows * ((lat + rows + big - 1) / big + 1);
  const uint64_t minp = rows + big;  // MinPeriodP
  const uint64_t need_p = 2 * rows * ((lat + 2 * rows + minp - 1) / minp + 1);
  if (capable && need_p > need) need = need_p;
  return (need <= 2 ? 2 : pow2_at_least(need)) + 2;
}

s24_status_t s24_core_cycles_epi(s24_array_t hw, uint32_t lanes, uint64_t beats,
                                 uint64_t tiles, s24_cycles_t *out) {
  if (lanes == 0 || hw.cols % lanes != 0 || (hw.pair && hw.rows % 2 != 0)) return S24_ERR_ARG;
  s24_status_t st = s24_core_cycles_hw(hw, beats, tiles, out);
  if (st != S24_OK) return st;
  // the core as built (NumRows), whether it has the pair mode, and this job's tile rows
  const uint32_t core_rows = hw.pair ? hw.rows / 2 : hw.rows;
  const int capable = hw.pair || s24_array_has_pair(hw);
  const uint64_t max_rows = capable ? 2 * (uint64_t)core_rows : core_rows;  // epilogue MaxRows
  const uint64_t R = hw.rows, C = hw.cols, G = beats, P = out->period;
  const uint64_t phases = C / lanes;                                      // cycles per tile row
  const uint64_t in_depth = max_rows == 1 ? 2 : pow2_at_least(max_rows);  // its row buffer
  const uint64_t cred = core_result_credits(core_rows, C, capable);
  const uint64_t fw = s24_feed_window_tiles(core_rows, hw.cols);
  const uint64_t window = fw > EPI_INFLIGHT_MIN ? fw : EPI_INFLIGHT_MIN;
  // every cycle counted below is within `tiles` serial round trips of a tile (its beats, the
  // array, the result buffer, its rows through the epilogue, its beats out): keep them < 2^62
  const uint64_t lim = (uint64_t)1 << 62, row_trip = R * (phases + 1);  // < 2^64
  if (P >= lim || row_trip >= lim - P || C + 64 >= lim - P - row_trip ||
      tiles > lim / (P + row_trip + C + 64)) {
    return S24_ERR_NOMEM;
  }
  const uint64_t pop_ring = pow2_at_least(cred + 1), out_ring = pow2_at_least(window);
  if (pop_ring > EPI_POP_RING_MAX || out_ring > EPI_OUT_RING_MAX) return S24_ERR_UNSUPPORTED;
  uint64_t pop_at[EPI_POP_RING_MAX];  // cycle row n was taken
  uint64_t out_at[EPI_OUT_RING_MAX];  // tile t's last beat out
  const uint64_t rows_all = tiles * R;
  uint64_t s_tile[2] = {0, 0};  // last-beat injection of tiles tp and tp + 1
  uint64_t resolved = 0;        // tiles whose last-beat cycle is known
  uint64_t tp = 0, rp = 0;      // next row pushed into the result buffer
  uint64_t rb_n = 0;            // rows in s24_rbuf's RAM
  int ram_v = 0, out_v = 0;     // its read register and output register hold a row
  uint64_t in_n = 0;            // rows in the epilogue's row buffer
  uint64_t ph = 0, row = 0;     // the head row's phase and tile row
  uint64_t ends[EPI_OUT_BEATS] = {0}, n_ends = 0;  // issue cycles of the last beat ends
  uint64_t outs = 0;            // tiles whose last element was issued
  uint64_t pops = 0;            // rows taken by the epilogue
  uint64_t busy = 0;
  for (uint64_t c = 2; pops < rows_all; c++) {
    // the last-beat cycles whose causes (credits returned, tiles read) are known
    while (resolved < tiles && resolved <= tp + 1) {
      const uint64_t t = resolved;
      uint64_t q = 1;  // queued before START
      if (t >= window) {
        if (outs <= t - window) break;
        q = out_at[(t - window) % out_ring];
      }
      uint64_t first = q + 3;
      if (t > 0) {
        const uint64_t prev = s_tile[(t - 1) & 1] + P - G + 1;
        if (prev > first) first = prev;
      }
      uint64_t s = first + G - 1;
      if ((t + 1) * R > cred) {  // row (t + 1) * R - cred - 1 must have been taken before
        const uint64_t k = (t + 1) * R - cred - 1;
        if (pops <= k) break;
        if (pop_at[k % pop_ring] + 1 > s) s = pop_at[k % pop_ring] + 1;
      }
      s_tile[t & 1] = s;
      resolved++;
    }
    const int idle = rb_n == 0 && !ram_v && !out_v && in_n == 0;
    if (idle) {  // nothing moves before the next row is pushed
      if (resolved <= tp) break;  // cannot happen: its causes are all in the past
      const uint64_t next = s_tile[tp & 1] + C + 8 + rp;
      if (next > c) c = next;
    }
    const int push = resolved > tp && c == s_tile[tp & 1] + C + 8 + rp;
    // s24_rbuf
    const int ready = in_n < in_depth;
    const int pop = out_v && ready;
    const int move = ram_v && (!out_v || ready);
    const int fetch = rb_n > 0 && (!ram_v || !out_v || ready);
    // the epilogue's issue
    uint64_t occ = 0;
    for (uint64_t i = 0; i < n_ends && i < EPI_OUT_BEATS; i++) {
      if (ends[i] + EPI_ISSUE_TO_OUT >= c) occ++;
    }
    const int issue = in_n > 0 && occ < EPI_OUT_BEATS;
    int row_out = 0;
    if (issue) {
      if (ph + 1 == phases) {
        row_out = 1;
        if (row % 4 == 3 || row + 1 == R) ends[n_ends++ % EPI_OUT_BEATS] = c;
        if (row + 1 == R) {
          out_at[outs % out_ring] = c + EPI_ISSUE_TO_OUT;
          outs++;
          row = 0;
        } else {
          row++;
        }
        ph = 0;
      } else {
        ph++;
      }
    }
    if (pop) {
      pop_at[pops % pop_ring] = c;
      pops++;
      busy = c;
    }
    in_n = in_n + (uint64_t)pop - (uint64_t)row_out;
    rb_n = rb_n + (uint64_t)push - (uint64_t)fetch;
    ram_v = fetch || (ram_v && !move);
    out_v = move || (out_v && !pop);
    if (push && ++rp == R) {
      rp = 0;
      tp++;
    }
  }
  if (pops < rows_all) return S24_ERR_ARG;  // unreachable
  out->busy_cycles = busy;
  return S24_OK;
}

// Adds one job of `row_tiles` row tiles of `beats` beats (row_tiles * out->col_tiles tiles);
// epi_lanes 0 for a GEMM, else the fused epilogue's lanes (s24_core_cycles_epi).
static s24_status_t add_job(s24_array_t hw, uint64_t beats, uint64_t row_tiles,
                            uint32_t epi_lanes, s24_gemm_cycles_t *out) {
  if (beats > UINT32_MAX) return S24_ERR_UNSUPPORTED;  // CFG_BEATS is a 32-bit register
  const uint64_t tiles = row_tiles * out->col_tiles;    // <= 2^32 - 1 by the planning rule
  s24_cycles_t c;
  s24_status_t st = epi_lanes == 0 ? s24_core_cycles_hw(hw, beats, tiles, &c)
                                   : s24_core_cycles_epi(hw, epi_lanes, beats, tiles, &c);
  if (st != S24_OK) return st;
  if (out->busy_cycles > UINT64_MAX - c.busy_cycles || out->beats > UINT64_MAX - c.mac_beats) {
    return S24_ERR_NOMEM;
  }
  out->jobs++;
  out->tiles += tiles;
  out->job_beats += beats * row_tiles;
  if (beats > out->max_job_beats) out->max_job_beats = beats;
  out->beats += c.mac_beats;
  out->busy_cycles += c.busy_cycles;
  return S24_OK;
}

static s24_status_t start_totals(s24_array_t hw, size_t n_cols, s24_gemm_cycles_t *out) {
  memset(out, 0, sizeof(*out));
  out->col_tiles = ceil_div(n_cols, hw.cols);
  return out->col_tiles > UINT32_MAX ? S24_ERR_UNSUPPORTED : S24_OK;  // CFG_TILES: 32 bits
}

// The row tiles of the dense A whose CFG_BEATS the planner reads one by one (s24_plan_row_tile):
// no array of them is kept.
typedef struct {
  s24_array_t hw;
  const int8_t *a;
  size_t m_rows, k, first;
  s24_status_t *st;  // the first planning failure
} tiles_t;

static uint64_t tile_beats_of(const void *ctx, size_t i) {
  const tiles_t *t = ctx;
  uint64_t beats = 0;
  const s24_status_t st = s24_plan_row_tile(t->hw, t->a, t->m_rows, t->k, t->first + i, NULL, &beats);
  if (st != S24_OK && *t->st == S24_OK) *t->st = st;
  return beats;
}

// Groups the row tiles into jobs by s24_plan_next_job_fn, the driver's rule, at most
// max_job_tiles row tiles a job (the fused epilogue's parameter RAM; SIZE_MAX for a plain GEMM),
// and adds every job to the totals; epi_lanes 0 for a GEMM, else the fused epilogue's lanes.
static s24_status_t add_jobs(tiles_t *tl, size_t row_tiles, size_t max_job_tiles,
                             uint32_t epi_lanes, s24_gemm_cycles_t *out) {
  for (tl->first = 0; tl->first < row_tiles;) {
    const uint64_t beats = tile_beats_of(tl, 0);
    if (*tl->st != S24_OK) return *tl->st;
    if (beats > UINT32_MAX) return S24_ERR_UNSUPPORTED;
    const size_t left = row_tiles - tl->first < max_job_tiles ? row_tiles - tl->first : max_job_tiles;
    const size_t n = s24_plan_next_job_fn(tl->hw, tile_beats_of, tl, left, out->col_tiles);
    if (*tl->st != S24_OK) return *tl->st;
    if (n == 0) return S24_ERR_ARG;
    s24_status_t st = add_job(tl->hw, beats, n, epi_lanes, out);
    if (st != S24_OK) return st;
    tl->first += n;
  }
  return S24_OK;
}

// epi_lanes 0: a GEMM; else the fused layer, whose jobs also fit the epilogue's parameter RAM of
// epi_depth rows (s24_linear_job_tiles of the job's array).
static s24_status_t cycles_dense(s24_array_t hw, const int8_t *a, size_t m_rows, size_t k,
                                 size_t n_cols, uint32_t epi_depth, uint32_t epi_lanes,
                                 int allow_pair, s24_gemm_cycles_t *out) {
  if (!s24_array_ok(hw) || a == NULL || m_rows == 0 || k == 0 || n_cols == 0 || out == NULL) {
    return S24_ERR_ARG;
  }
  // THE mode rule (s24_pair_choose): 1:m weights run in pair mode when it is faster, the fused
  // layer (epi_lanes != 0) as a GEMM (map 1.4: the epilogue takes the pair mode's 2R-row tiles)
  const int pair = allow_pair && s24_pair_choose(hw, a, m_rows, k);
  if (pair && s24_array_pair(hw, &hw) != S24_OK) return S24_ERR_ARG;
  const size_t max_job_tiles = epi_lanes == 0 ? SIZE_MAX : s24_linear_job_tiles(hw, epi_depth);
  if (max_job_tiles == 0) return S24_ERR_ARG;  // a parameter RAM smaller than a tile
  s24_gemm_cycles_t t;
  s24_status_t st = start_totals(hw, n_cols, &t);
  s24_status_t plan_st = S24_OK;
  tiles_t tl = {hw, a, m_rows, k, 0, &plan_st};
  if (st == S24_OK) st = add_jobs(&tl, ceil_div(m_rows, hw.rows), max_job_tiles, epi_lanes, &t);
  t.pair = (uint64_t)pair;
  if (st == S24_OK) *out = t;
  return st;
}

s24_status_t s24_gemm_cycles_dense(s24_array_t hw, const int8_t *a, size_t m_rows, size_t k,
                                   size_t n_cols, s24_gemm_cycles_t *out) {
  return cycles_dense(hw, a, m_rows, k, n_cols, 0, 0, 1, out);
}

// A fused layer's jobs (s24_linear_cycles, the pair mode allowed or not)
static s24_status_t linear_cycles(s24_array_t hw, uint32_t epi_depth, uint32_t epi_lanes,
                                  const int8_t *w, size_t m_rows, size_t k, size_t batch,
                                  int allow_pair, s24_gemm_cycles_t *out) {
  if (epi_depth < hw.rows || hw.rows == 0 || epi_lanes == 0 || hw.cols % epi_lanes != 0) {
    return S24_ERR_ARG;
  }
  return cycles_dense(hw, w, m_rows, k, batch, epi_depth, epi_lanes, allow_pair, out);
}

s24_status_t s24_linear_cycles(s24_array_t hw, uint32_t epi_depth, uint32_t epi_lanes,
                               const int8_t *w, size_t m_rows, size_t k, size_t batch,
                               s24_gemm_cycles_t *out) {
  return linear_cycles(hw, epi_depth, epi_lanes, w, m_rows, k, batch, 1, out);
}

s24_status_t s24_linear_cycles_own(s24_array_t hw, uint32_t epi_depth, uint32_t epi_lanes,
                                   const int8_t *w, size_t m_rows, size_t k, size_t batch,
                                   s24_gemm_cycles_t *out) {
  return linear_cycles(hw, epi_depth, epi_lanes, w, m_rows, k, batch, 0, out);
}

s24_status_t s24_gemm_cycles_compressed(s24_array_t hw, s24_pattern_t p, const int8_t *values,
                                        const uint8_t *meta, size_t m_rows, size_t k,
                                        size_t n_cols, int8_t *dense, s24_gemm_cycles_t *out,
                                        s24_where_t *where) {
  if (!s24_array_ok(hw) || !s24_pattern_ok(p) || values == NULL || meta == NULL ||
      dense == NULL || m_rows == 0 || k == 0 || k % p.m != 0 || n_cols == 0 || out == NULL) {
    return S24_ERR_ARG;
  }
  s24_where_t dummy;
  if (where == NULL) where = &dummy;
  s24_status_t st = s24_meta_validate(p, meta, m_rows, k, where);
  if (st != S24_OK) return st;
  // the whole matrix decompressed: THE mode rule (s24_pair_choose) looks at all of it
  st = s24_decompress(p, values, meta, m_rows, k, dense, where);
  if (st == S24_OK) st = cycles_dense(hw, dense, m_rows, k, n_cols, 0, 0, 1, out);
  return st;
}

s24_status_t s24_gemm_cycles_shape(s24_array_t hw, s24_pattern_t data, size_t m_rows, size_t k,
                                   size_t n_cols, s24_gemm_cycles_t *out) {
  if (!s24_array_ok(hw) || !s24_pattern_ok(data) || m_rows == 0 || k == 0 || n_cols == 0 ||
      out == NULL) {
    return S24_ERR_ARG;
  }
  const size_t hm = hw.sparse_m, groups = ceil_div(k, hm);
  uint64_t beats = 0;  // every row tile has at least one row: the same beats for all
  size_t most = 0;     // the largest worst case of a hardware group
  for (size_t g = 0; g < groups; g++) {
    const size_t len = (k - g * hm < hm) ? k - g * hm : hm;
    // the window starts at a multiple of hm; both m and hm are powers of two, so the window
    // holds whole data groups (the last one possibly cut short by K: at most its length in
    // nonzeros), or lies inside one data group (data m > hm)
    size_t worst = 0;
    if (data.m <= hm) {
      for (size_t e = 0; e < len; e += data.m) {
        const size_t dl = (len - e < data.m) ? len - e : data.m;
        worst += (data.n < dl) ? data.n : dl;
      }
    } else {
      worst = (data.n < len) ? data.n : len;
    }
    beats += s24_group_beats(hw, (uint32_t)worst);
    if (worst > most) most = worst;
  }
  // THE mode rule (s24_pair_choose) for this data: it fits the pair mode when every hardware
  // group holds at most one nonzero (1:m with data m >= hw m, or a K so short that no group
  // holds more), and every row tile of either mode then has the same beats (one per group)
  int pair = 0;
  s24_array_t ph;
  if (most <= 1 && s24_array_pair(hw, &ph) == S24_OK) {
    s24_cycles_t own, paired;
    if (s24_core_cycles_hw(hw, beats, 2, &own) != S24_OK ||
        s24_core_cycles_hw(ph, beats, 2, &paired) != S24_OK) {
      return S24_ERR_ARG;
    }
    pair = (uint64_t)ceil_div(m_rows, ph.rows) * paired.period <
           (uint64_t)ceil_div(m_rows, hw.rows) * own.period;
    if (pair) hw = ph;
  }
  s24_gemm_cycles_t t;
  s24_status_t st = start_totals(hw, n_cols, &t);
  if (st == S24_OK && beats > UINT32_MAX) st = S24_ERR_UNSUPPORTED;
  if (st != S24_OK) return st;
  t.pair = (uint64_t)pair;
  // every row tile has the same beats: jobs as long as the cap allows (s24_plan_next_job's
  // rule for equal beats), without materializing the row tiles
  const uint64_t cap = s24_job_max_row_tiles(hw, beats, t.col_tiles);
  if (cap == 0) return S24_ERR_ARG;
  const size_t tiles = ceil_div(m_rows, hw.rows);
  for (size_t first = 0; first < tiles && st == S24_OK;) {
    const size_t n = (tiles - first < cap) ? tiles - first : (size_t)cap;
    st = add_job(hw, beats, n, 0, &t);
    first += n;
  }
  if (st == S24_OK) *out = t;
  return st;
}
