// SPDX-License-Identifier: Apache-2.0
// The fused int8 layer (SPEC §7): model (s24_linear_ref) == driver on the software device ==
// driver on the Verilated RTL, for random layers and directed extremes, with random and directed
// output clamps [act_min, act_max] (none, ReLU, RELU6-like act_max < 127, RELU_N1_TO_1-like,
// act_min == act_max), each layer with single or double rounding (S24_ROUND_*, so consecutive
// jobs switch modes), plus the model's requantization against a 128-bit evaluation of the SPEC
// formula (single) and against gemmlowp's functions (double, tests/linear/gemmlowp_ref.h), and the
// refusal of bad clamp bounds and rounding modes.
// Usage: test_linear [+seed=N] [+cases=N] [+case=I] [+bp=PCT]
//   +seed  base seed (printed; default from the clock)   +cases  random layers (default 300)
//   +case  only case I of the seed                        +bp     RTL result backpressure %
// Prints one line per failure and a final 'N passed, N failed'.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gemmlowp_ref.h"
#include "s24_cosim.h"
#include "s24_cycles.h"
#include "s24_drv.h"
#include "s24_drv_host.h"
#include "s24_layout.h"
#include "s24_model.h"
#include "s24_swdev.h"

#include "../common/rand.h"  // rng_t, rnd, below, rnd_i8 (tests/common/)

typedef struct {
  int passed, failed;
  uint64_t outputs, sat_hi, sat_lo, inside;
  uint64_t job_cycles, array_cycles;  // the RTL's CNT_JOB_CYCLES and CNT_CYCLES, all layers
  // outputs of double-rounding layers that single rounding gets wrong, by SHIFT > 0 / < 0
  uint64_t dbl_outputs, dbl_differ_pos, dbl_differ_neg;
  // layers run in pair mode (1:m weights on a 2:m core with it, s24_pair_choose) / in total
  uint64_t pair_layers, layers;
} tally_t;

// A random clamp around ZO, as the fused activations give them: none, ReLU, RELU6-like (act_max
// below 127), RELU_N1_TO_1-like (symmetric about ZO), a single value, any ordered pair.
static void random_clamp(rng_t *r, int32_t zo, int32_t *act_min, int32_t *act_max) {
  const int32_t relu_lo = zo > -128 ? zo : -128;
  int32_t a = rnd_i8(r), b = rnd_i8(r), d = (int32_t)below(r, 64);
  switch (below(r, 6)) {
    case 0: *act_min = -128, *act_max = 127; break;
    case 1: *act_min = relu_lo, *act_max = 127; break;
    case 2: *act_min = relu_lo, *act_max = zo + 2 * d < 127 ? zo + 2 * d : 127; break;
    case 3:
      *act_min = zo - d > -128 ? zo - d : -128;
      *act_max = zo + d < 127 ? zo + d : 127;
      break;
    case 4: *act_min = *act_max = a; break;
    default:
      *act_min = a < b ? a : b;
      *act_max = a < b ? b : a;
      break;
  }
}

// A layer: X batch x k, W m x k (dense, pruned or not), per-channel parameters.
typedef struct {
  size_t batch, m, k;
  int8_t *x, *w;
  int32_t *bias, *mult, *shift;
  int32_t zi, zo, act_min, act_max;
  int no_bias;
  s24_round_t round;
} layer_t;

static void layer_free(layer_t *L) {
  void *const own[] = {L->x, L->w, L->bias, L->mult, L->shift};
  for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) free(own[i]);
  memset(L, 0, sizeof(*L));
}

static int layer_alloc(layer_t *L, size_t batch, size_t m, size_t k) {
  memset(L, 0, sizeof(*L));
  L->batch = batch;
  L->m = m;
  L->k = k;
  L->x = malloc(batch * k);
  L->w = malloc(m * k);
  L->bias = calloc(m, 4);
  L->mult = calloc(m, 4);
  L->shift = calloc(m, 4);
  return L->x && L->w && L->bias && L->mult && L->shift;
}

// +bp=0 (no stream gaps, no backpressure): the RTL's busy cycles must equal the cycle model's
// s24_linear_cycles exactly
static int g_exact_cycles;

// Runs the layer on the model, the software device and the RTL; 1 when all three agree.
static int run_layer(s24_dev_t *sw, s24_dev_t *hw, const layer_t *L, s24_pattern_t p,
                     int compressed, tally_t *t, char *why, size_t why_len) {
  const size_t n = L->batch * L->m;
  int8_t *want = malloc(n), *got_sw = malloc(n), *got_hw = malloc(n), *single = malloc(n);
  int8_t *vals = malloc(L->m * L->k);
  uint8_t *meta = malloc(L->m * L->k + 1);
  int ok = 0;
  s24_status_t st = S24_ERR_NOMEM;
  s24_linear_params_t prm = {L->no_bias ? NULL : L->bias, L->mult, L->shift, L->zi, L->zo,
                             L->act_min, L->act_max, L->round};
  if (want && got_sw && got_hw && single && vals && meta) {
    st = s24_linear_ref(L->x, L->batch, L->w, L->m, L->k, prm.bias, L->mult, L->shift, L->zi,
                        L->zo, L->act_min, L->act_max, L->round, want);
    if (st == S24_OK) {
      st = s24_linear_ref(L->x, L->batch, L->w, L->m, L->k, prm.bias, L->mult, L->shift, L->zi,
                          L->zo, L->act_min, L->act_max, S24_ROUND_SINGLE, single);
    }
  }
  if (st != S24_OK) {
    snprintf(why, why_len, "model: %s", s24_strerror(st));
    goto out;
  }
  memset(got_sw, 0x5A, n);
  memset(got_hw, 0xA5, n);
  for (int dev = 0; dev < 2; dev++) {
    s24_dev_t *d = dev ? hw : sw;
    s24_weights_t w;
    s24_where_t where;
    if (compressed) {  // the compressed path (values + metadata) as the command's --values/--meta
      st = s24_compress(p, L->w, L->m, L->k, vals, meta, &where);
      if (st == S24_OK) st = s24_weights_load(d, p, vals, meta, L->m, L->k, &w, &where);
    } else {
      st = s24_weights_load_dense(d, L->w, L->m, L->k, &w);
    }
    if (st == S24_OK) {
      st = s24_linear(d, &w, L->x, L->batch, &prm, dev ? got_hw : got_sw);
      s24_weights_free(&w);
    }
    if (st != S24_OK) {
      char bits[80];
      snprintf(why, why_len, "%s: %s (ERR %s)", dev ? "rtl" : "swdev", s24_strerror(st),
               s24_err_bits_str(d->last_err, bits, sizeof bits));
      goto out;
    }
    // the mode: THE mode rule (s24_pair_choose), as for a GEMM, on both devices
    const int pair = s24_pair_choose(s24_dev_array(d), L->w, L->m, L->k);
    if (d->counters.pair != (uint64_t)pair) {
      snprintf(why, why_len, "%s: ran in %s mode, s24_pair_choose says %s", dev ? "rtl" : "swdev",
               d->counters.pair ? "pair" : "2:m", pair ? "pair" : "2:m");
      goto out;
    }
    // every result tile (2 * NumRows rows in pair mode) left the block with TLAST (CNT_TILES_OUT)
    const size_t tile_rows = pair ? 2 * (size_t)d->hw.rows : d->hw.rows;
    const uint64_t tiles = (uint64_t)((L->m + tile_rows - 1) / tile_rows) *
                           ((L->batch + d->hw.cols - 1) / d->hw.cols);
    if (d->counters.tiles != tiles || d->counters.job_cycles < d->counters.cycles) {
      snprintf(why, why_len, "%s: counters: %" PRIu64 " tiles (want %" PRIu64 "), job cycles %"
               PRIu64 " < array cycles %" PRIu64, dev ? "rtl" : "swdev", d->counters.tiles,
               tiles, d->counters.job_cycles, d->counters.cycles);
      goto out;
    }
    if (dev) {
      t->job_cycles += d->counters.job_cycles;
      t->array_cycles += d->counters.cycles;
      t->pair_layers += (uint64_t)pair;
      t->layers++;
    }
    if (dev && g_exact_cycles) {
      const s24_array_t arr = s24_dev_array(d);
      s24_gemm_cycles_t pred;
      st = s24_linear_cycles(arr, d->hw.epi_depth, d->hw.epi_lanes, L->w, L->m, L->k, L->batch,
                             &pred);
      if (st != S24_OK || pred.busy_cycles != d->counters.cycles) {
        snprintf(why, why_len, "rtl: %" PRIu64 " busy cycles, cycle model %" PRIu64 " (%s)",
                 d->counters.cycles, st == S24_OK ? pred.busy_cycles : 0, s24_strerror(st));
        goto out;
      }
    }
  }
  for (size_t i = 0; i < n; i++) {
    if (got_sw[i] != want[i] || got_hw[i] != want[i]) {
      const size_t b = i / L->m, m = i % L->m;
      snprintf(why, why_len, "Y[%zu][%zu]: model %d swdev %d rtl %d (mult %" PRId32
               " shift %" PRId32 " zi %" PRId32 " zo %" PRId32 " act %" PRId32 "..%" PRId32
               " round %s)",
               b, m, want[i], got_sw[i], got_hw[i], L->mult[m], L->shift[m], L->zi, L->zo,
               L->act_min, L->act_max, L->round == S24_ROUND_DOUBLE ? "double" : "single");
      goto out;
    }
    t->outputs++;
    if (L->round == S24_ROUND_DOUBLE) {
      t->dbl_outputs++;
      if (want[i] != single[i]) {
        if (L->shift[i % L->m] > 0) t->dbl_differ_pos++;
        else t->dbl_differ_neg++;
      }
    }
    if (want[i] == L->act_max) t->sat_hi++;
    else if (want[i] == L->act_min) t->sat_lo++;
    else t->inside++;
  }
  ok = 1;
out:
  free(want);
  free(got_sw);
  free(got_hw);
  free(single);
  free(vals);
  free(meta);
  return ok;
}

// SPEC §7 with 128-bit integers, independent of the model's 64-bit code.
static int8_t requant128(int32_t acc, int32_t mult, int32_t shift, int32_t zo, int32_t act_min,
                         int32_t act_max) {
  const int t = 31 - shift;
  __int128 v = (__int128)acc * mult + ((__int128)1 << (t - 1));
  __int128 q = v / ((__int128)1 << t);
  if (q * ((__int128)1 << t) > v) q -= 1;  // floor
  __int128 y = q + zo;
  if (y < act_min) y = act_min;
  if (y > act_max) y = act_max;
  return (int8_t)y;
}

static int check_requant(uint64_t seed, int count) {
  rng_t r = {seed ^ 0x5eed};
  static const int32_t accs[] = {0, 1, -1, 2, -2, 127, -128, 2147483647, (int32_t)0x80000000u,
                                 1073741824, -1073741824, 65535, -65536};
  static const int32_t mults[] = {0, 1, 1073741824, 2147483647, 1518500250};
  int bad = 0;
  for (int i = 0; i < count; i++) {
    int32_t acc = i < 13 * 5 * 62 ? accs[i % 13] : (int32_t)(uint32_t)rnd(&r);
    int32_t mult = i < 13 * 5 * 62 ? mults[(i / 13) % 5] : (int32_t)(rnd(&r) & 0x7FFFFFFF);
    int32_t shift = i < 13 * 5 * 62 ? -31 + (i / 65) % 62 : -31 + (int32_t)below(&r, 62);
    int32_t zo = (int32_t)below(&r, 256) - 128, lo, hi;
    random_clamp(&r, zo, &lo, &hi);
    if (s24_requant(acc, mult, shift, zo, lo, hi, S24_ROUND_SINGLE) !=
        requant128(acc, mult, shift, zo, lo, hi)) {
      if (bad++ < 5) {
        printf("FAIL requant acc %" PRId32 " mult %" PRId32 " shift %" PRId32 " zo %" PRId32
               " act %" PRId32 "..%" PRId32 ": model %d, 128-bit %d\n", acc, mult, shift, zo, lo,
               hi, s24_requant(acc, mult, shift, zo, lo, hi, S24_ROUND_SINGLE),
               requant128(acc, mult, shift, zo, lo, hi));
      }
    }
  }
  return bad;
}

// The model's double rounding (s24_requant, S24_ROUND_DOUBLE: a closed form) against gemmlowp's
// two functions as TFLite's MultiplyByQuantizedMultiplier calls them (gemmlowp_ref.h), then + ZO
// and the clamp. Corners (acc at the int32 limits and around +-2^30, MULT 0/1/2^30/2^31-1, every
// SHIFT), random values, and ties: MULT = 2^30 makes the high multiply floor((acc + 1) / 2), so an
// acc around 2 * (k * 2^rs + 2^(rs-1)) puts RoundingDivideByPOT exactly on (or next to) a half.
// *differ counts the cases where single rounding would have given another int8.
static int check_double(uint64_t seed, int count, int *differ) {
  rng_t r = {seed ^ 0xd0b1e};
  static const int32_t accs[] = {0, 1, -1, 2, -2, 3, -3, 127, -128, 2147483647,
                                 (int32_t)0x80000000u, 1073741824, -1073741824, 1073741823,
                                 -1073741823, 536870912, -536870913, 65535, -65536};
  static const int32_t mults[] = {0, 1, 1073741824, 2147483647, 1518500250, 1073741825};
  const int ncorner = 19 * 6 * 62;
  int bad = 0;
  *differ = 0;
  for (int i = 0; i < count; i++) {
    int32_t acc, mult, shift;
    if (i < ncorner) {
      acc = accs[i % 19];
      mult = mults[(i / 19) % 6];
      shift = -31 + (i / (19 * 6)) % 62;
    } else if (below(&r, 4) == 0) {  // a tie of RoundingDivideByPOT, or one off it
      shift = -(int32_t)below(&r, 32);
      const int rs = -shift;
      const int64_t k = (int64_t)below(&r, 9) - 4;
      int64_t hi = rs ? k * ((int64_t)1 << rs) + ((int64_t)1 << (rs - 1)) : k;
      int64_t a = 2 * hi + (int64_t)below(&r, 3) - 1;
      if (a > INT32_MAX || a < INT32_MIN) a = (int64_t)(int32_t)(uint32_t)rnd(&r);
      acc = (int32_t)a;
      mult = 1073741824;
    } else {
      const uint32_t v = (uint32_t)rnd(&r);
      acc = below(&r, 3) == 0 ? (int32_t)v : below(&r, 2) ? (int32_t)(v % 20001) - 10000
                                                        : (int32_t)v >> below(&r, 31);
      mult = below(&r, 3) ? (int32_t)(0x40000000u + (uint32_t)(rnd(&r) & 0x3FFFFFFF))
                          : (int32_t)(rnd(&r) & 0x7FFFFFFF);
      shift = below(&r, 2) ? -31 + (int32_t)below(&r, 62) : -12 + (int32_t)below(&r, 15);
    }
    const int32_t zo = (int32_t)below(&r, 256) - 128;
    int32_t lo, hi;
    random_clamp(&r, zo, &lo, &hi);
    int64_t ref = (int64_t)gl_mbqm(acc, mult, shift) + zo;
    if (ref < lo) ref = lo;
    if (ref > hi) ref = hi;
    const int8_t got = s24_requant(acc, mult, shift, zo, lo, hi, S24_ROUND_DOUBLE);
    if (got != (int8_t)ref) {
      if (bad++ < 5) {
        printf("FAIL double requant acc %" PRId32 " mult %" PRId32 " shift %" PRId32
               " zo %" PRId32 " act %" PRId32 "..%" PRId32 ": model %d, gemmlowp %d\n",
               acc, mult, shift, zo, lo, hi, got, (int)ref);
      }
    }
    if (got != s24_requant(acc, mult, shift, zo, lo, hi, S24_ROUND_SINGLE)) (*differ)++;
  }
  return bad;
}

// A random layer: shapes across tiles, N:M pruned or dense weights, realistic or wild scales.
static int random_layer(rng_t *r, const s24_dev_t *d, layer_t *L, s24_pattern_t *p, int *cmp) {
  static const s24_pattern_t pats[3] = {{2, 4}, {1, 4}, {2, 8}};
  const uint32_t R = d->hw.rows, C = d->hw.cols;
  *p = pats[below(r, 3)];
  const int dense = below(r, 6) == 0;
  size_t batch = below(r, 4) == 0 ? 1 : 1 + below(r, 3 * C);
  size_t m = below(r, 5) == 0 ? 1 + below(r, R) : 1 + below(r, 4 * R);
  size_t k = p->m * (1 + below(r, 16));
  if (dense && below(r, 2)) k = 1 + below(r, 40);
  if (!layer_alloc(L, batch, m, k)) return 0;
  for (size_t i = 0; i < batch * k; i++) L->x[i] = rnd_i8(r);
  for (size_t i = 0; i < m * k; i++) L->w[i] = rnd_i8(r);
  *cmp = 0;
  if (!dense) {
    if (s24_prune(*p, L->w, m, k, L->w) != S24_OK) return 0;
    *cmp = below(r, 2);
  }
  L->zi = (int32_t)below(r, 256) - 128;
  L->zo = (int32_t)below(r, 256) - 128;
  const int relu = (int)below(r, 2);  // drawn here as before: the shapes and data stay the same
  L->no_bias = below(r, 5) == 0;
  const int wild = below(r, 4) == 0;
  for (size_t i = 0; i < m; i++) {
    L->bias[i] = wild ? (int32_t)(uint32_t)rnd(r) : (int32_t)below(r, 20001) - 10000;
    if (wild) {
      L->mult[i] = (int32_t)(rnd(r) & 0x7FFFFFFF);
      L->shift[i] = -31 + (int32_t)below(r, 62);
    } else {  // a scale s_in*s_w/s_out around 2^-8 .. 2^-14 (outputs mostly in range)
      L->mult[i] = (int32_t)(0x40000000u + (uint32_t)(rnd(r) & 0x3FFFFFFF));
      L->shift[i] = -(int32_t)(7 + below(r, 8));
    }
  }
  // the clamp: half the layers none or ReLU as drawn above, half a random clamp
  L->act_min = relu && L->zo > -128 ? L->zo : -128;
  L->act_max = 127;
  if (below(r, 2)) random_clamp(r, L->zo, &L->act_min, &L->act_max);
  // the rounding, drawn last (the layers above are those of older runs): half double
  L->round = below(r, 2) ? S24_ROUND_DOUBLE : S24_ROUND_SINGLE;
  return 1;
}

// Directed extremes: every channel a different (MULT, SHIFT) corner; ZI/ZO/bias corners and a
// clamp per layer; saturation both ends; int32 wraparound of acc through the bias. clamps 0: none
// and ReLU (the first 90 layers); 1: RELU6-like, RELU_N1_TO_1-like, single values, a middle range.
static void directed(s24_dev_t *sw, s24_dev_t *hw, tally_t *t, int clamps) {
  static const int32_t mults[] = {0, 1, 1073741824, 2147483647};
  static const int32_t shifts[] = {-31, -20, -8, -1, 0, 1, 30};
  static const int32_t zps[] = {-128, 0, 127};
  static const int64_t biases[] = {0, 2147483647, -2147483647 - 1, 2147480000, -2147480000};
  const size_t M = 4 * 7, K = 8, B = 3;
  rng_t r = {12345};
  const int nclamp = clamps ? 7 : 2;
  for (size_t zi = 0; zi < 3; zi++) {
    for (size_t zo = 0; zo < 3; zo++) {
      for (int cl = 0; cl < nclamp; cl++) {
        for (size_t bi = 0; bi < 5; bi++) {
          if (clamps && (zi != 1 || bi % 2 != 0)) continue;  // ZI 0; bias 0, -2^31, -2^31+3648
          const int32_t z = zps[zo], relu_lo = z > -128 ? z : -128;
          // {act_min, act_max}: none, ReLU | RELU6-like, RELU_N1_TO_1-like, ZO only, -128 only,
          // 127 only, 0 only, -100..100
          const int32_t lo_hi[9][2] = {{-128, 127}, {relu_lo, 127},
                                       {relu_lo, z + 47 < 127 ? z + 47 : 127},
                                       {z - 3 > -128 ? z - 3 : -128, z + 3 < 127 ? z + 3 : 127},
                                       {z, z}, {-128, -128}, {127, 127}, {0, 0}, {-100, 100}};
          const int c = clamps ? 2 + cl : cl;
          layer_t L;
          if (!layer_alloc(&L, B, M, K)) {
            t->failed++;
            return;
          }
          L.zi = zps[zi];
          L.zo = zps[zo];
          L.act_min = lo_hi[c][0];
          L.act_max = lo_hi[c][1];
          // X and W at the int8 extremes so that the sum is large and its sign known
          for (size_t i = 0; i < B * K; i++) L.x[i] = (i % 2) ? 127 : -128;
          for (size_t i = 0; i < M * K; i++) L.w[i] = rnd_i8(&r);
          if (s24_prune((s24_pattern_t){2, 4}, L.w, M, K, L.w) != S24_OK) t->failed++;
          for (size_t ch = 0; ch < M; ch++) {
            L.mult[ch] = mults[ch % 4];
            L.shift[ch] = shifts[ch / 4];
            L.bias[ch] = (int32_t)biases[bi];
          }
          // each layer with single, then double rounding: every job switches the mode
          for (int rd = 0; rd < 2; rd++) {
            char why[240];
            char name[112];
            L.round = rd ? S24_ROUND_DOUBLE : S24_ROUND_SINGLE;
            snprintf(name, sizeof name, "directed_zi%d_zo%d_act%d..%d_bias%d_%s", (int)L.zi,
                     (int)L.zo, (int)L.act_min, (int)L.act_max, (int)bi,
                     rd ? "double" : "single");
            if (run_layer(sw, hw, &L, (s24_pattern_t){2, 4}, 0, t, why, sizeof why)) {
              t->passed++;
            } else {
              t->failed++;
              printf("FAIL %s: %s\n", name, why);
            }
          }
          layer_free(&L);
        }
      }
    }
  }
}

// Double rounding's corners through the whole datapath, with acc chosen exactly: X = 0 and ZI = 0
// make acc = BIAS[m]. Channels 0 ..: MULT = 2^30 (the high multiply is floor((acc + 1) / 2)) and
// acc around 2 * (k * 2^rs + 2^(rs-1)), i.e. RoundingDivideByPOT on, or next to, a half for
// SHIFT = -rs, both signs (below zero the correction of the p < -2^30 term decides); then SHIFT > 0
// with acc around +-2^(31 - SHIFT), where acc * 2^SHIFT wraps in int32 (the operand's sign
// extension decides). Each layer single, then double; ZO 0 and -128..127 so nothing clamps.
static void directed_round(s24_dev_t *sw, s24_dev_t *hw, tally_t *t) {
  static const int rss[] = {1, 2, 3, 5, 8, 13, 20, 28, 29, 30, 31};
  static const int32_t pos[] = {1, 2, 7, 15, 16, 29, 30};
  layer_t L;
  const size_t cap = 11 * 5 * 5 + 7 * 6, B = 2, K = 4;
  if (!layer_alloc(&L, B, cap, K)) {
    t->failed++;
    return;
  }
  rng_t r = {777};
  size_t m = 0;
  for (size_t i = 0; i < 11; i++) {
    const int rs = rss[i];
    for (int64_t k = -3; k <= 1; k++) {
      for (int64_t d = -3; d <= 1; d++) {  // high multiply: half - 1, half (twice), half + 1
        const int64_t a = 2 * (k * ((int64_t)1 << rs) + ((int64_t)1 << (rs - 1))) + d;
        if (a < INT32_MIN || a > INT32_MAX) continue;
        L.bias[m] = (int32_t)a;
        L.mult[m] = 1 << 30;
        L.shift[m++] = -rs;
      }
    }
  }
  for (size_t i = 0; i < 7; i++) {
    const int64_t edge = (int64_t)1 << (31 - pos[i]);
    static const int64_t offs[6] = {-1, 0, 1, 2, -3, 5};
    for (size_t j = 0; j < 6; j++) {
      int64_t a = (j % 2 ? -edge : edge) + offs[j] * (edge > 4 ? edge / 4 : 1);
      if (a < INT32_MIN) a = INT32_MIN;
      if (a > INT32_MAX) a = INT32_MAX;
      L.bias[m] = (int32_t)a;
      // MULT small (outputs in range) or large (saturated: the sign of the wrapped x shows)
      L.mult[m] = j < 3 ? (int32_t)(rnd(&r) & 0xFF) : (int32_t)(rnd(&r) & 0x7FFFFFFF);
      L.shift[m++] = pos[i];
    }
  }
  L.m = m;
  memset(L.x, 0, B * K);
  for (size_t i = 0; i < m * K; i++) L.w[i] = rnd_i8(&r);
  L.zi = L.zo = 0;
  L.act_min = -128;
  L.act_max = 127;
  for (int rd = 0; rd < 2; rd++) {
    char why[240];
    L.round = rd ? S24_ROUND_DOUBLE : S24_ROUND_SINGLE;
    if (run_layer(sw, hw, &L, (s24_pattern_t){4, 4}, 0, t, why, sizeof why)) {
      t->passed++;
    } else {
      t->failed++;
      printf("FAIL directed_round_%s: %s\n", rd ? "double" : "single", why);
    }
  }
  layer_free(&L);
}

// Fused pair-mode jobs (map 1.4; docs/architecture.md sections 1 and 4): 1:4 and 1:8 weights
// (every group of the core's m at most one nonzero) of several row tiles run in pair mode on a
// 2:m core that has it, 2R-row int8 tiles; each such layer sits between 2:4 layers and 1:m
// layers of one row tile (which stay in 2:m mode), so consecutive jobs switch the mode both ways;
// a layer of more channels than the parameter RAM takes in one pair job (HW_EPI.DEPTH / 2R row
// tiles) runs as several. Dense loading and the compressed path; both roundings.
static void directed_pair(s24_dev_t *sw, s24_dev_t *hw, tally_t *t) {
  const size_t R = hw->hw.rows, C = hw->hw.cols;
  const size_t depth = hw->hw.epi_depth != 0 ? hw->hw.epi_depth : 512;  // read by s24_linear
  const size_t big_m = depth + 3 * R + 1;  // more channels than one pair job takes
  static const s24_pattern_t pats[4] = {{1, 4}, {2, 4}, {1, 8}, {2, 4}};
  rng_t r = {4242};
  const uint64_t pair_before = t->pair_layers;
  int n = 0, failed = 0;
  for (int i = 0; i < 24; i++) {
    const s24_pattern_t p = pats[i % 4];
    size_t m = i % 3 == 2 ? 1 + below(&r, (uint32_t)R) : R + 1 + below(&r, (uint32_t)(5 * R));
    if (i == 8 || i == 22) m = big_m;
    const size_t batch = 1 + below(&r, (uint32_t)(3 * C));
    // K from a few groups (the pair mode does not pay: its tile period is at least 2R) to many
    const size_t k = (size_t)p.m * (i == 8 || i == 22 ? 10 : 1 + below(&r, 24));
    layer_t L;
    if (!layer_alloc(&L, batch, m, k)) {
      t->failed++;
      return;
    }
    for (size_t j = 0; j < batch * k; j++) L.x[j] = rnd_i8(&r);
    for (size_t j = 0; j < m * k; j++) L.w[j] = rnd_i8(&r);
    int ok = s24_prune(p, L.w, m, k, L.w) == S24_OK;
    L.zi = (int32_t)below(&r, 256) - 128;
    L.zo = (int32_t)below(&r, 256) - 128;
    for (size_t j = 0; j < m; j++) {
      L.bias[j] = (int32_t)below(&r, 20001) - 10000;
      L.mult[j] = (int32_t)(0x40000000u + (uint32_t)(rnd(&r) & 0x3FFFFFFF));
      L.shift[j] = -(int32_t)(5 + below(&r, 8));
    }
    L.act_min = -128;
    L.act_max = 127;
    random_clamp(&r, L.zo, &L.act_min, &L.act_max);
    L.round = i % 2 ? S24_ROUND_DOUBLE : S24_ROUND_SINGLE;
    char why[240] = "setup";
    if (ok) ok = run_layer(sw, hw, &L, p, (int)below(&r, 2), t, why, sizeof why);
    n++;
    if (ok) {
      t->passed++;
    } else {
      t->failed++;
      failed++;
      printf("FAIL directed_pair_%d %zux%zux%zu %u:%u: %s\n", i, batch, k, m, p.n, p.m, why);
    }
    layer_free(&L);
  }
  // a core with the pair mode must have run some of them in it
  if (s24_array_has_pair(s24_dev_array(hw)) && t->pair_layers == pair_before) {
    t->failed++;
    failed++;
    printf("FAIL directed_pair: no layer ran in pair mode on a core that has it\n");
  }
  printf("directed pair: %d layers (1:4, 1:8 of several row tiles between 2:4 and one-row-tile "
         "layers, %zu channels: several pair jobs), %" PRIu64 " in pair mode (core %s it), "
         "%d failed\n", n, big_m, t->pair_layers - pair_before,
         s24_array_has_pair(s24_dev_array(hw)) ? "has" : "has not", failed);
}

// Bad clamp bounds and a rounding mode that is not an s24_round_t (the last case) are refused by
// the model and the driver (S24_ERR_ARG, nothing run) on both devices; a good layer still runs
// afterwards (run_layer after this in main).
static void bad_clamps(s24_dev_t *sw, s24_dev_t *hw, tally_t *t) {
  static const int32_t bad[5][2] = {{1, 0}, {127, -128}, {-129, 0}, {0, 128}, {-128, 127}};
  const int8_t x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, w[8] = {1, 0, 2, 0, 0, 3, 0, 4};
  const int32_t mult[1] = {1 << 30}, shift[1] = {0};
  int8_t y[1];
  for (int dev = 0; dev < 2; dev++) {
    s24_dev_t *d = dev ? hw : sw;
    s24_weights_t wt;
    if (s24_weights_load_dense(d, w, 1, 8, &wt) != S24_OK) {
      t->failed++;
      printf("FAIL bad_clamps: cannot load weights\n");
      return;
    }
    for (int i = 0; i < 5; i++) {
      const s24_round_t rd = i == 4 ? (s24_round_t)2 : S24_ROUND_SINGLE;
      const s24_linear_params_t prm = {NULL, mult, shift, 0, 0, bad[i][0], bad[i][1], rd};
      const s24_status_t sm =
          s24_linear_ref(x, 1, w, 1, 8, NULL, mult, shift, 0, 0, bad[i][0], bad[i][1], rd, y);
      const s24_status_t sd = s24_linear(d, &wt, x, 1, &prm, y);
      if (sm != S24_ERR_ARG || sd != S24_ERR_ARG) {
        t->failed++;
        printf("FAIL bad_clamps: act %" PRId32 "..%" PRId32 " round %d: model %s, %s %s (want "
               "%s)\n", bad[i][0], bad[i][1], (int)rd, s24_strerror(sm), dev ? "rtl" : "swdev",
               s24_strerror(sd), s24_strerror(S24_ERR_ARG));
      } else {
        t->passed++;
      }
    }
    s24_weights_free(&wt);
  }
}

int main(int argc, char **argv) {
  uint64_t seed = (uint64_t)time(NULL);
  int cases = 300, only = -1;
  uint32_t bp = 0;
  for (int i = 1; i < argc; i++) {
    if (sscanf(argv[i], "+seed=%" SCNu64, &seed) == 1) continue;
    if (sscanf(argv[i], "+cases=%d", &cases) == 1) continue;
    if (sscanf(argv[i], "+case=%d", &only) == 1) continue;
    if (sscanf(argv[i], "+bp=%" SCNu32, &bp) == 1) continue;
    fprintf(stderr, "test_linear: unknown argument %s\n", argv[i]);
    return 2;
  }
  printf("test_linear: +seed=%" PRIu64 " +cases=%d +bp=%" PRIu32 "\n", seed, cases, bp);
  g_exact_cycles = bp == 0;
  tally_t t = {0};
  // the model's requantization against 128-bit arithmetic
  const int nrq = 200000;
  int bad = check_requant(seed, nrq);
  if (bad) t.failed++;
  else t.passed++;
  printf("requant: %d random and corner (acc, MULT, SHIFT) vs 128-bit SPEC formula, %d wrong\n",
         nrq, bad);
  // double rounding: the model's closed form against gemmlowp's functions
  const int ndq = 200000;
  int differ = 0;
  bad = check_double(seed, ndq, &differ);
  if (bad) t.failed++;
  else t.passed++;
  printf("requant double: %d random, corner and tie (acc, MULT, SHIFT) vs gemmlowp's "
         "RoundingDivideByPOT(SaturatingRoundingDoublingHighMul()), %d wrong (%d differ from "
         "single rounding)\n", ndq, bad, differ);

  s24_cosim_t *sim = NULL;
  s24_seam_t hw_seam, sw_seam;
  s24_cosim_opts_t o = {(uint32_t)seed, bp, bp ? 10u : 0u, bp ? 1 : 0, NULL, NULL, 0};
  s24_dev_t hw, sw;
  s24_swdev_t swd;
  if (s24_cosim_open(&o, &sim, &hw_seam) != S24_OK || s24_dev_open(&hw, &hw_seam) != S24_OK) {
    printf("FAIL: cannot open the co-simulation\n");
    return 1;
  }
  if (s24_swdev_init(&swd, hw.hw.rows, hw.hw.cols, hw.hw.sparse_n, hw.hw.sparse_m) != S24_OK) {
    printf("FAIL: cannot open the software device\n");
    return 1;
  }
  s24_swdev_seam(&swd, &sw_seam);
  if (s24_dev_open(&sw, &sw_seam) != S24_OK) {
    printf("FAIL: cannot open the software device\n");
    return 1;
  }
  if (only < 0) {
    tally_t before = t;
    directed_round(&sw, &hw, &t);
    printf("directed rounding: ties of RoundingDivideByPOT (SHIFT -1 .. -31, both signs) and int32 "
           "wraps of acc * 2^SHIFT (SHIFT 1 .. 30), single and double: %" PRIu64 " of %" PRIu64
           " double outputs differ from single, %d failed\n",
           t.dbl_differ_pos + t.dbl_differ_neg - before.dbl_differ_pos - before.dbl_differ_neg,
           t.dbl_outputs - before.dbl_outputs, t.failed - before.failed);
    before = t;
    directed(&sw, &hw, &t, 0);
    printf("directed: %d layers (MULT 0/1/2^30/2^31-1 x SHIFT -31..30 per channel, ZI/ZO "
           "-128/0/127, none/ReLU, bias 0/+-2^31 limits; single, then double rounding), "
           "%d failed\n",
           t.passed - before.passed + t.failed - before.failed, t.failed - before.failed);
  }
  for (int i = 0; i < cases; i++) {
    if (only >= 0 && i != only) continue;
    rng_t r = {seed * 1000003ull + (uint64_t)i};
    layer_t L;
    s24_pattern_t p;
    int cmp = 0;
    char why[240];
    if (!random_layer(&r, &hw, &L, &p, &cmp)) {
      t.failed++;
      printf("FAIL case %d: setup\n", i);
      layer_free(&L);
      continue;
    }
    if (run_layer(&sw, &hw, &L, p, cmp, &t, why, sizeof why)) {
      t.passed++;
    } else {
      t.failed++;
      printf("FAIL case %d (+seed=%" PRIu64 " +case=%d) %zux%zux%zu %u:%u: %s\n", i, seed, i,
             L.batch, L.k, L.m, p.n, p.m, why);
    }
    layer_free(&L);
  }
  printf("outputs compared: %" PRIu64 " (%" PRIu64 " inside the range, %" PRIu64
         " clamped at act_max, %" PRIu64 " at act_min); RTL cycles %" PRIu64 " (jobs: %" PRIu64
         " START to last beat, %" PRIu64 " array)\n",
         t.outputs, t.inside, t.sat_hi, t.sat_lo, s24_cosim_cycles(sim), t.job_cycles,
         t.array_cycles);
  printf("double rounding: %" PRIu64 " outputs, %" PRIu64 " of them differ from single rounding "
         "(%" PRIu64 " with SHIFT > 0, %" PRIu64 " with SHIFT < 0)\n", t.dbl_outputs,
         t.dbl_differ_pos + t.dbl_differ_neg, t.dbl_differ_pos, t.dbl_differ_neg);
  printf("pair mode: %" PRIu64 " of %" PRIu64 " layers so far ran as fused pair-mode jobs "
         "(1:m weights, 2R-row int8 tiles)\n", t.pair_layers, t.layers);
  if (only < 0) {  // after the random cases, so that the lines above compare with older runs
    tally_t before = t;
    directed(&sw, &hw, &t, 1);
    tally_t mid = t;
    bad_clamps(&sw, &hw, &t);
    directed_pair(&sw, &hw, &t);
    printf("directed clamps: %d layers (ZO -128/0/127 x act RELU6-like, RELU_N1_TO_1-like, {ZO}, "
           "{-128}, {127}, {0}, -100..100; single and double), %d failed, %" PRIu64 " outputs (%" PRIu64
           " at act_max, %" PRIu64 " at act_min); %d bad bounds refused by model and driver "
           "(act_min > act_max, out of int8, a rounding mode that is not an s24_round_t; both "
           "devices), %d failed\n",
           mid.passed - before.passed + mid.failed - before.failed, mid.failed - before.failed,
           mid.outputs - before.outputs, mid.sat_hi - before.sat_hi, mid.sat_lo - before.sat_lo,
           t.passed - mid.passed + t.failed - mid.failed, t.failed - mid.failed);
  }
  s24_dev_close(&hw);
  s24_dev_close(&sw);
  s24_swdev_free(&swd);
  s24_cosim_close(sim);
  printf("%d passed, %d failed\n", t.passed, t.failed);
  return t.failed ? 1 : 0;
}
