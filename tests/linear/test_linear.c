// The fused int8 layer (SPEC §7): model (s24_linear_ref) == driver on the software device ==
// driver on the Verilated RTL, for random layers and directed extremes, plus the model's
// requantization against a 128-bit evaluation of the SPEC formula.
// Usage: test_linear [+seed=N] [+cases=N] [+case=I] [+bp=PCT]
//   +seed  base seed (printed; default from the clock)   +cases  random layers (default 300)
//   +case  only case I of the seed                        +bp     RTL result backpressure %
// Prints one line per failure and a final 'N passed, N failed'.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "s24_cosim.h"
#include "s24_drv.h"
#include "s24_model.h"
#include "s24_swdev.h"

typedef struct {
  uint64_t s;
} rng_t;

static uint64_t rnd(rng_t *r) { return s24_rng_next(&r->s); }
static uint32_t below(rng_t *r, uint32_t n) { return (uint32_t)(rnd(r) % n); }
static int8_t rnd_i8(rng_t *r) { return (int8_t)(below(r, 256) - 128); }

typedef struct {
  int passed, failed;
  uint64_t outputs, sat_hi, sat_lo, inside;
} tally_t;

// A layer: X batch x k, W m x k (dense, pruned or not), per-channel parameters.
typedef struct {
  size_t batch, m, k;
  int8_t *x, *w;
  int32_t *bias, *mult, *shift;
  int32_t zi, zo;
  int relu, no_bias;
} layer_t;

static void layer_free(layer_t *L) {
  free(L->x);
  free(L->w);
  free(L->bias);
  free(L->mult);
  free(L->shift);
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
  int8_t *want = malloc(n), *got_sw = malloc(n), *got_hw = malloc(n);
  int8_t *vals = malloc(L->m * L->k);
  uint8_t *meta = malloc(L->m * L->k + 1);
  int ok = 0;
  s24_status_t st = S24_ERR_NOMEM;
  s24_linear_params_t prm = {L->no_bias ? NULL : L->bias, L->mult, L->shift, L->zi, L->zo,
                             L->relu};
  if (want && got_sw && got_hw && vals && meta) {
    st = s24_linear_ref(L->x, L->batch, L->w, L->m, L->k, prm.bias, L->mult, L->shift, L->zi,
                        L->zo, L->relu, want);
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
    // every result tile left the block with TLAST (CNT_TILES_OUT), on both devices
    const uint64_t tiles = (uint64_t)((L->m + d->hw.rows - 1) / d->hw.rows) *
                           ((L->batch + d->hw.cols - 1) / d->hw.cols);
    if (d->counters.tiles != tiles || d->counters.job_cycles < d->counters.cycles) {
      snprintf(why, why_len, "%s: counters: %" PRIu64 " tiles (want %" PRIu64 "), job cycles %"
               PRIu64 " < array cycles %" PRIu64, dev ? "rtl" : "swdev", d->counters.tiles,
               tiles, d->counters.job_cycles, d->counters.cycles);
      goto out;
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
               " shift %" PRId32 " zi %" PRId32 " zo %" PRId32 " relu %d)",
               b, m, want[i], got_sw[i], got_hw[i], L->mult[m], L->shift[m], L->zi, L->zo,
               L->relu);
      goto out;
    }
    t->outputs++;
    if (want[i] == 127) t->sat_hi++;
    else if (want[i] == (L->relu && L->zo > -128 ? L->zo : -128)) t->sat_lo++;
    else t->inside++;
  }
  ok = 1;
out:
  free(want);
  free(got_sw);
  free(got_hw);
  free(vals);
  free(meta);
  return ok;
}

// SPEC §7 with 128-bit integers, independent of the model's 64-bit code.
static int8_t requant128(int32_t acc, int32_t mult, int32_t shift, int32_t zo, int relu) {
  const int t = 31 - shift;
  __int128 v = (__int128)acc * mult + ((__int128)1 << (t - 1));
  __int128 q = v / ((__int128)1 << t);
  if (q * ((__int128)1 << t) > v) q -= 1;  // floor
  __int128 y = q + zo, lo = relu ? (zo > -128 ? zo : -128) : -128;
  if (y < lo) y = lo;
  if (y > 127) y = 127;
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
    int32_t zo = (int32_t)below(&r, 256) - 128;
    int relu = (int)below(&r, 2);
    if (s24_requant(acc, mult, shift, zo, relu) != requant128(acc, mult, shift, zo, relu)) {
      if (bad++ < 5) {
        printf("FAIL requant acc %" PRId32 " mult %" PRId32 " shift %" PRId32 " zo %" PRId32
               " relu %d: model %d, 128-bit %d\n", acc, mult, shift, zo, relu,
               s24_requant(acc, mult, shift, zo, relu), requant128(acc, mult, shift, zo, relu));
      }
    }
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
  L->relu = (int)below(r, 2);
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
  return 1;
}

// Directed extremes: every channel a different (MULT, SHIFT) corner; ZI/ZO/ReLU/bias corners
// per layer; saturation both ends; int32 wraparound of acc through the bias.
static void directed(s24_dev_t *sw, s24_dev_t *hw, tally_t *t) {
  static const int32_t mults[] = {0, 1, 1073741824, 2147483647};
  static const int32_t shifts[] = {-31, -20, -8, -1, 0, 1, 30};
  static const int32_t zps[] = {-128, 0, 127};
  static const int64_t biases[] = {0, 2147483647, -2147483647 - 1, 2147480000, -2147480000};
  const size_t M = 4 * 7, K = 8, B = 3;
  rng_t r = {12345};
  for (size_t zi = 0; zi < 3; zi++) {
    for (size_t zo = 0; zo < 3; zo++) {
      for (int relu = 0; relu < 2; relu++) {
        for (size_t bi = 0; bi < 5; bi++) {
          layer_t L;
          if (!layer_alloc(&L, B, M, K)) {
            t->failed++;
            return;
          }
          L.zi = zps[zi];
          L.zo = zps[zo];
          L.relu = relu;
          // X and W at the int8 extremes so that the sum is large and its sign known
          for (size_t i = 0; i < B * K; i++) L.x[i] = (i % 2) ? 127 : -128;
          for (size_t i = 0; i < M * K; i++) L.w[i] = rnd_i8(&r);
          if (s24_prune((s24_pattern_t){2, 4}, L.w, M, K, L.w) != S24_OK) t->failed++;
          for (size_t ch = 0; ch < M; ch++) {
            L.mult[ch] = mults[ch % 4];
            L.shift[ch] = shifts[ch / 4];
            L.bias[ch] = (int32_t)biases[bi];
          }
          char why[240];
          char name[96];
          snprintf(name, sizeof name, "directed_zi%d_zo%d_relu%d_bias%d", (int)L.zi, (int)L.zo,
                   relu, (int)bi);
          if (run_layer(sw, hw, &L, (s24_pattern_t){2, 4}, 0, t, why, sizeof why)) {
            t->passed++;
          } else {
            t->failed++;
            printf("FAIL %s: %s\n", name, why);
          }
          layer_free(&L);
        }
      }
    }
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

  s24_cosim_t *sim = NULL;
  s24_seam_t hw_seam, sw_seam;
  s24_cosim_opts_t o = {(uint32_t)seed, bp, bp ? 10u : 0u, bp ? 1 : 0, NULL};
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
    directed(&sw, &hw, &t);
    printf("directed: %d layers (MULT 0/1/2^30/2^31-1 x SHIFT -31..30 per channel, ZI/ZO "
           "-128/0/127, ReLU, bias 0/+-2^31 limits), %d failed\n",
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
         " clamped at 127, %" PRIu64 " at the low end); RTL cycles %" PRIu64 "\n",
         t.outputs, t.inside, t.sat_hi, t.sat_lo, s24_cosim_cycles(sim));
  s24_dev_close(&hw);
  s24_dev_close(&sw);
  s24_swdev_free(&swd);
  s24_cosim_close(sim);
  printf("%d passed, %d failed\n", t.passed, t.failed);
  return t.failed ? 1 : 0;
}
