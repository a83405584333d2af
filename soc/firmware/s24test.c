// SPDX-License-Identifier: Apache-2.0
// sparse24 edge SoC: the firmware's check (make soc-test). GEMMs (s24_weights_load or
// s24_weights_load_dense, then s24_gemm) and fused int8 layers (s24_linear, both roundings, pair mode) through the
// project's unmodified host driver on the seam of s24_soc_seam.c, each compared byte for byte with
// the C model compiled into the same firmware (s24_gemm_dense_ref, s24_linear_ref), with the
// SoC's cycles, the IP's counters and what the seam moved per stream. Exit 0 when every case is
// bit-exact; the first line of a failure names the case.
//
// One line per case (key=value, parsed by soc/run.py and docs/soc.md's tables):
//   case=gemm shape=MxKxN pattern=2:4 ok=1 soc_cycles=.. ip_cycles=.. ip_beats=.. stall_w=..
//   stall_a=.. stall_r=.. jobs=.. w_bytes=.. a_bytes=.. r_bytes=.. w_cyc=.. a_cyc=.. r_cyc=..
//   r_wait=..
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "s24_drv.h"
#include "s24_drv_host.h"
#include "s24_model.h"
#include "s24_soc_seam.h"
#include "soc_rt.h"

typedef struct {
  uint32_t m, k, n;
  s24_pattern_t p;
  int dense;  // 1: s24_weights_load_dense of the pruned matrix (its beats follow its nonzeros)
  int dma;    // 1: the weight packets by the W ring's fill DMA (after soc_flush_dcache)
} gemm_case_t;

typedef struct {
  uint32_t m, k, batch;
  s24_pattern_t p;
  int32_t zi, zo, act_min, act_max;
  s24_round_t round;
} linear_case_t;

// A convolution (s24_linear_conv): NHWC input n x h x w x c, channels c0 .. c0+cs-1, m filters
// of kh x kw x cs, y rows ldy apart; `fetch` 1 if the fetch unit must build its activations;
// gr > 0: rows in windows of gr, window i reading channels c0 + i*cs .. (s24_conv_src_t.gr)
typedef struct {
  int32_t n, h, w, c, c0, cs, kh, kw, sh, sw, dh, dw, ph, pw;
  uint32_t m, ldy;
  s24_pattern_t p;
  int32_t zi;
  int fetch;
  int32_t gr;
} conv_case_t;

static uint64_t g_rng = 0x5eed2451ull;

static void fill_i8(int8_t *x, size_t n) {
  for (size_t i = 0; i < n; i++) x[i] = (int8_t)(s24_rng_next(&g_rng) & 0xffu);
}

// A fused layer's random per-channel parameters: bias, MULT in [2^30, 2^31), SHIFT in [-13, -6]
static void fill_params(int32_t *bias, int32_t *mult, int32_t *shift, size_t m) {
  for (size_t i = 0; i < m; i++) {
    bias[i] = (int32_t)(s24_rng_next(&g_rng) % 200001u) - 100000;
    mult[i] = (int32_t)(0x40000000u + (uint32_t)(s24_rng_next(&g_rng) % 0x3fffffffu));
    shift[i] = -(int32_t)(6 + s24_rng_next(&g_rng) % 8u);
  }
}

static void print_counters(const s24_dev_t *dev, const s24_soc_t *soc, uint64_t cycles) {
  const s24_counters_t *c = &dev->counters;
  const s24_soc_stats_t *s = &soc->stats;
  printf(" soc_cycles=%" PRIu64 " ip_cycles=%" PRIu64 " ip_beats=%" PRIu64 " stall_w=%" PRIu64
         " stall_a=%" PRIu64 " stall_r=%" PRIu64 " jobs=%" PRIu64 " pair=%" PRIu64,
         cycles, c->cycles, c->beats, c->stall_w, c->stall_a, c->stall_r, c->jobs, c->pair);
  printf(" w_bytes=%" PRIu64 " a_bytes=%" PRIu64 " r_bytes=%" PRIu64 " w_cyc=%" PRIu64
         " a_cyc=%" PRIu64 " r_cyc=%" PRIu64 " r_wait=%" PRIu64 "\n",
         s->bytes[S24_PORT_W], s->bytes[S24_PORT_A], s->bytes[S24_PORT_R], s->cycles[S24_PORT_W],
         s->cycles[S24_PORT_A], s->cycles[S24_PORT_R], s->wait[S24_PORT_R]);
}

static int run_gemm(s24_dev_t *dev, s24_soc_t *soc, const gemm_case_t *tc) {
  const size_t m = tc->m, k = tc->k, n = tc->n;
  const size_t vc = s24_values_cols(tc->p, k), mc = s24_meta_cols(tc->p, k);
  int8_t *a = malloc(m * k), *b = malloc(k * n), *v = malloc(m * vc);
  uint8_t *md = malloc(m * mc);
  int32_t *c = malloc(m * n * 4), *ref = malloc(m * n * 4);
  int ok = 0;
  if (!a || !b || !v || !md || !c || !ref) {
    printf("case=gemm error=out_of_memory\n");
    goto out;
  }
  fill_i8(a, m * k);
  fill_i8(b, k * n);
  s24_where_t where;
  if (s24_prune(tc->p, a, m, k, a) != S24_OK || s24_compress(tc->p, a, m, k, v, md, &where) != S24_OK ||
      s24_gemm_dense_ref(a, m, k, b, n, NULL, ref) != S24_OK) {
    printf("case=gemm error=model\n");
    goto out;
  }
  memset(c, 0x5a, m * n * 4);
  s24_weights_t wt;
  memset(&wt, 0, sizeof wt);
  uint64_t t0 = soc_cycles();
  s24_status_t st = tc->dense ? s24_weights_load_dense(dev, a, m, k, &wt)
                              : s24_weights_load(dev, tc->p, v, md, m, k, &wt, &where);
  if (tc->dma) soc_flush_dcache();  // the fill DMA reads the SDRAM, not the caches
  uint64_t t1 = soc_cycles();
  s24_soc_stats_clear(soc);
  soc->dma = tc->dma ? 1u << S24_PORT_W : 0;
  if (st == S24_OK) st = s24_gemm(dev, &wt, b, n, NULL, c);
  soc->dma = 0;
  uint64_t t2 = soc_cycles();
  s24_weights_free(&wt);
  ok = st == S24_OK && memcmp(c, ref, m * n * 4) == 0;
  printf("case=gemm%s%s shape=%ux%ux%u pattern=%u:%u ok=%d load_cycles=%" PRIu64,
         tc->dense ? "_dense" : "", tc->dma ? "_wdma" : "", (unsigned)m, (unsigned)k, (unsigned)n,
         (unsigned)tc->p.n, (unsigned)tc->p.m, ok, t1 - t0);
  if (st != S24_OK) printf(" error=%s", s24_strerror(st));
  print_counters(dev, soc, t2 - t1);
out:
  free(a);
  free(b);
  free(v);
  free(md);
  free(c);
  free(ref);
  return ok;
}

static int run_linear(s24_dev_t *dev, s24_soc_t *soc, const linear_case_t *tc) {
  const size_t m = tc->m, k = tc->k, nb = tc->batch;
  int8_t *w = malloc(m * k), *x = malloc(nb * k), *y = malloc(nb * m), *ref = malloc(nb * m);
  int32_t *bias = malloc(m * 4), *mult = malloc(m * 4), *shift = malloc(m * 4);
  int ok = 0;
  s24_weights_t wt;
  memset(&wt, 0, sizeof wt);
  if (!w || !x || !y || !ref || !bias || !mult || !shift) {
    printf("case=linear error=out_of_memory\n");
    goto out;
  }
  fill_i8(w, m * k);
  fill_i8(x, nb * k);
  if (s24_prune(tc->p, w, m, k, w) != S24_OK) goto out;
  fill_params(bias, mult, shift, m);
  if (s24_linear_ref(x, nb, w, m, k, bias, mult, shift, tc->zi, tc->zo, tc->act_min, tc->act_max,
                     tc->round, ref) != S24_OK) {
    printf("case=linear error=model\n");
    goto out;
  }
  const s24_linear_params_t prm = {bias, mult, shift, tc->zi, tc->zo, tc->act_min, tc->act_max,
                                   tc->round};
  memset(y, 0x5a, nb * m);
  s24_soc_stats_clear(soc);
  uint64_t t0 = soc_cycles();
  s24_status_t st = s24_weights_load_dense(dev, w, m, k, &wt);
  uint64_t t1 = soc_cycles();
  if (st == S24_OK) st = s24_linear(dev, &wt, x, nb, &prm, y);
  uint64_t t2 = soc_cycles();
  ok = st == S24_OK && memcmp(y, ref, nb * m) == 0;
  printf("case=linear shape=%ux%ux%u pattern=%u:%u round=%s ok=%d load_cycles=%" PRIu64
         " job_cycles=%" PRIu64, (unsigned)m, (unsigned)k, (unsigned)nb, (unsigned)tc->p.n,
         (unsigned)tc->p.m, tc->round == S24_ROUND_DOUBLE ? "double" : "single", ok, t1 - t0,
         dev->counters.job_cycles);
  if (st != S24_OK) printf(" error=%s", s24_strerror(st));
  print_counters(dev, soc, t2 - t1);
out:
  s24_weights_free(&wt);
  free(w);
  free(x);
  free(y);
  free(ref);
  free(bias);
  free(mult);
  free(shift);
  return ok;
}

// TFLite's output size and leading padding for SAME (pad 1) or VALID (pad 0)
static void out_dim(int same, int32_t in, int32_t k, int32_t s, int32_t d, int32_t *o, int32_t *p) {
  const int32_t eff = (k - 1) * d + 1;
  *o = same ? (in + s - 1) / s : (in - eff + s) / s;
  const int32_t tot = (*o - 1) * s + eff - in;
  *p = tot > 0 ? tot / 2 : 0;
}

// The C model of a fused convolution (SPEC §7, double rounding, ZO -3): y's rows ldy apart.
static int conv_ref(const s24_conv_src_t *src, const int8_t *w, size_t m, const int32_t *bias,
                    const int32_t *mult, const int32_t *shift, int8_t *row, int8_t *y, size_t ldy) {
  const size_t k = (size_t)src->kh * (size_t)src->kw * (size_t)src->cs;
  const size_t np = (size_t)src->n * (size_t)src->oh * (size_t)src->ow;
  for (size_t p = 0; p < np; p++) {
    s24_conv_row(src, p, row);
    if (s24_linear_ref(row, 1, w, m, k, bias, mult, shift, src->pad, -3, -128, 127,
                       S24_ROUND_DOUBLE, y + p * ldy) != S24_OK) {
      return 0;
    }
  }
  return 1;
}

static int run_conv(s24_dev_t *dev, s24_soc_t *soc, const conv_case_t *tc, int same) {
  s24_conv_src_t src = {NULL,   tc->n,  tc->h,  tc->w,  tc->c, tc->c0, tc->cs,
                        tc->kh, tc->kw, 0,      0,      tc->sh, tc->sw, tc->dh,
                        tc->dw, 0,      0,      (int8_t)tc->zi, 0, tc->gr};
  out_dim(same, tc->h, tc->kh, tc->sh, tc->dh, &src.oh, &src.ph);
  out_dim(same, tc->w, tc->kw, tc->sw, tc->dw, &src.ow, &src.pw);
  const size_t m = tc->m, k = (size_t)tc->kh * tc->kw * tc->cs;
  const size_t np = (size_t)tc->n * src.oh * src.ow, in = (size_t)tc->n * tc->h * tc->w * tc->c;
  int8_t *w = malloc(m * k), *x = malloc(in), *row = malloc(k), *y = malloc(np * tc->ldy);
  int8_t *ref = malloc(np * tc->ldy);
  int32_t *bias = malloc(m * 4), *mult = malloc(m * 4), *shift = malloc(m * 4);
  int ok = 0;
  s24_weights_t wt;
  memset(&wt, 0, sizeof wt);
  if (!w || !x || !row || !y || !ref || !bias || !mult || !shift) {
    printf("case=conv error=out_of_memory\n");
    goto out;
  }
  fill_i8(w, m * k);
  fill_i8(x, in);
  // {4, 4}: dense filters (two beats a group on the 2:4 core: more reader descriptors a tile
  // than its queue holds, issued as it frees slots)
  if (tc->p.n != tc->p.m && s24_prune(tc->p, w, m, k, w) != S24_OK) {
    printf("case=conv error=prune (k %u)\n", (unsigned)k);
    goto out;
  }
  fill_params(bias, mult, shift, m);
  src.x = x;
  memset(ref, 0x5a, np * tc->ldy);
  memset(y, 0x5a, np * tc->ldy);
  // the C model on the im2col, window by window (its rows on its channels)
  const size_t gr = tc->gr > 0 ? (size_t)tc->gr : m;
  for (size_t r0 = 0; r0 < m; r0 += gr) {
    s24_conv_src_t win = src;
    win.c0 = s24_conv_c0(&src, r0);
    win.gr = 0;
    const size_t rows = m - r0 < gr ? m - r0 : gr;
    if (!conv_ref(&win, w + r0 * k, rows, bias + r0, mult + r0, shift + r0, row, ref + r0,
                  tc->ldy)) {
      printf("case=conv error=model\n");
      goto out;
    }
  }
  const s24_linear_params_t prm = {bias, mult, shift, tc->zi, -3, -128, 127, S24_ROUND_DOUBLE};
  s24_soc_stats_clear(soc);
  const uint32_t tiles0 = soc->conv_tiles;
  s24_status_t st = s24_weights_load_dense(dev, w, m, k, &wt);
  soc_flush_dcache();  // the weights by the W ring's fill DMA
  s24_dev_cpu_touch(dev);  // x and y written by the CPU (the seam forgets what it knew clean)
  soc->dma = 1u << S24_PORT_W;
  const uint64_t t1 = soc_cycles();
  if (st == S24_OK) st = s24_linear_conv(dev, &wt, &src, &prm, y, tc->ldy);
  const uint64_t t2 = soc_cycles();
  soc->dma = 0;
  const uint32_t tiles = soc->conv_tiles - tiles0;
  ok = st == S24_OK && memcmp(y, ref, np * tc->ldy) == 0 && (tiles > 0) == (tc->fetch != 0);
  printf("case=conv input=%dx%dx%dx%d channels=%d+%d window_rows=%d filter=%ux%dx%d stride=%dx%d "
         "dilation=%dx%d pad=%d,%d output=%dx%d pattern=%u:%u ok=%d fetched_tiles=%u",
         (int)tc->n, (int)tc->h, (int)tc->w, (int)tc->c, (int)tc->c0, (int)tc->cs, (int)tc->gr,
         (unsigned)m,
         (int)tc->kh, (int)tc->kw, (int)tc->sh, (int)tc->sw, (int)tc->dh, (int)tc->dw,
         (int)src.ph, (int)src.pw, (int)src.oh, (int)src.ow, (unsigned)tc->p.n, (unsigned)tc->p.m,
         ok, (unsigned)tiles);
  if (st != S24_OK) printf(" error=%s", s24_strerror(st));
  print_counters(dev, soc, t2 - t1);
out:
  s24_weights_free(&wt);
  free(w);
  free(x);
  free(row);
  free(y);
  free(ref);
  free(bias);
  free(mult);
  free(shift);
  return ok;
}

// Two 3x3 SAME convolutions in a row, the second reading the first's output (a network's next
// layer), each against the C model: the first job's drain writes its results into the fetch
// unit's buffer as well, so the second finds its input there and the buffer is not filled
// (ib_fills 1 then 0, ib_kept 0 then 1). Then the CPU rewrites that tensor (after
// s24_dev_cpu_touch, as the runtime does) and the second runs again: the buffer must be filled
// anew and the results be those of the new input.
static int run_conv_chain(s24_dev_t *dev, s24_soc_t *soc, int32_t h, int32_t w, int32_t c,
                          uint32_t m1, uint32_t m2, s24_pattern_t p) {
  s24_conv_src_t a = {NULL, 1, h, w, c, 0, c, 3, 3, h, w, 1, 1, 1, 1, 1, 1, 5, 0, 0};
  s24_conv_src_t b = {NULL, 1, h, w, (int32_t)m1, 0, (int32_t)m1, 3, 3, h, w, 1, 1, 1, 1, 1, 1,
                      -3, 0, 0};
  const size_t np = (size_t)h * (size_t)w, ka = 9u * (size_t)c, kb = 9u * m1;
  const size_t kmax = ka > kb ? ka : kb;
  int8_t *x = malloc(np * (size_t)c), *wa = malloc(m1 * ka), *wb = malloc(m2 * kb);
  int8_t *y1 = malloc(np * m1), *y2 = malloc(np * m2), *r1 = malloc(np * m1);
  int8_t *r2 = malloc(np * m2), *row = malloc(kmax);
  int32_t *prm = malloc((m1 + m2) * 3u * sizeof(int32_t));
  s24_weights_t wta, wtb;
  memset(&wta, 0, sizeof wta);
  memset(&wtb, 0, sizeof wtb);
  int ok = 0, steps = 0;
  uint64_t fills[3] = {0, 0, 0}, thru[3] = {0, 0, 0};
  s24_status_t st = S24_ERR_NOMEM;
  if (!x || !wa || !wb || !y1 || !y2 || !r1 || !r2 || !row || !prm) goto out;
  int32_t *ba = prm, *ma = ba + m1, *sa = ma + m1, *bb = sa + m1, *mb = bb + m2, *sb = mb + m2;
  fill_i8(x, np * (size_t)c);
  fill_i8(wa, m1 * ka);
  fill_i8(wb, m2 * kb);
  st = s24_prune(p, wa, m1, ka, wa);
  if (st == S24_OK) st = s24_prune(p, wb, m2, kb, wb);
  fill_params(ba, ma, sa, m1);
  fill_params(bb, mb, sb, m2);
  if (st == S24_OK) st = s24_weights_load_dense(dev, wa, m1, ka, &wta);
  if (st == S24_OK) st = s24_weights_load_dense(dev, wb, m2, kb, &wtb);
  if (st != S24_OK) goto out;
  const s24_linear_params_t pa = {ba, ma, sa, 5, -3, -128, 127, S24_ROUND_DOUBLE};
  const s24_linear_params_t pb = {bb, mb, sb, -3, -3, -128, 127, S24_ROUND_DOUBLE};
  a.x = x;
  b.x = y1;
  soc_flush_dcache();  // the weights by the W ring's fill DMA
  s24_dev_cpu_touch(dev);
  soc->dma = 1u << S24_PORT_W;
  s24_soc_stats_clear(soc);
  for (int i = 0; i < 3 && st == S24_OK; i++) {
    if (i == 2) {  // the CPU writes the second layer's input itself: the buffer must refill
      s24_dev_cpu_touch(dev);
      fill_i8(y1, np * m1);
    }
    const uint64_t f0 = soc->stats.ib_fills, t0 = soc->stats.ib_kept;
    st = i == 0 ? s24_linear_conv(dev, &wta, &a, &pa, y1, m1)
                : s24_linear_conv(dev, &wtb, &b, &pb, y2, m2);
    fills[i] = soc->stats.ib_fills - f0;
    thru[i] = soc->stats.ib_kept - t0;
    steps++;
    if (st != S24_OK || i == 0) continue;
    // the CPU reads the results now (the second layer's input already read by the IP)
    s24_dev_cpu_touch(dev);
    if (i == 1 && (!conv_ref(&a, wa, m1, ba, ma, sa, row, r1, m1) || memcmp(y1, r1, np * m1) != 0)) {
      break;
    }
    b.x = y1;
    if (!conv_ref(&b, wb, m2, bb, mb, sb, row, r2, m2) || memcmp(y2, r2, np * m2) != 0) break;
    if (i == 2) ok = fills[0] == 1 && thru[0] == 0 && fills[1] == 0 && thru[1] == 1 &&
                     fills[2] == 1 && thru[2] == 0;
  }
  soc->dma = 0;
out:
  printf("case=conv_chain input=1x%dx%dx%d filters=%u,%u pattern=%u:%u ok=%d steps=%d "
         "ib_fills=%u,%u,%u ib_kept=%u,%u,%u", (int)h, (int)w, (int)c, (unsigned)m1,
         (unsigned)m2, (unsigned)p.n, (unsigned)p.m, ok, steps, (unsigned)fills[0],
         (unsigned)fills[1], (unsigned)fills[2], (unsigned)thru[0], (unsigned)thru[1],
         (unsigned)thru[2]);
  if (st != S24_OK) printf(" error=%s", s24_strerror(st));
  printf("\n");
  s24_weights_free(&wta);
  s24_weights_free(&wtb);
  free(x);
  free(wa);
  free(wb);
  free(y1);
  free(y2);
  free(r1);
  free(r2);
  free(row);
  free(prm);
  return ok;
}

// An elementwise ADD / SUB of n elements by the ADD unit (s24_dev_add), compared byte for byte
// with the C model (s24_add_elem) and checked not to write past z[n - 1]. The tables from random
// rescaled values (|s| < 2^28, the 8-bit kernel's range) and a multiplier in [2^30, 2^31), or,
// with `ties`, small values and the multiplier 2^30 so that both roundings meet their halves.
// A job the unit cannot take (fewer than 4 elements, a misaligned operand) must say
// S24_ERR_UNSUPPORTED and write nothing.
#define ADD_MAX 4096u
static int run_add(s24_dev_t *dev, s24_soc_t *soc, uint64_t *rng, size_t n, int32_t shift,
                   int sub, int ties, size_t skew) {
  static s24_add_tab_t tab;
  static int8_t x[ADD_MAX + 8] __attribute__((aligned(16)));
  static int8_t y[ADD_MAX + 8] __attribute__((aligned(16)));
  static int8_t z[ADD_MAX + 8] __attribute__((aligned(16)));
  const int32_t lim = ties && shift < 26 ? (INT32_C(4) << shift) : (INT32_C(1) << 28);
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 256; i++) {
      tab.p[k][i] = (int32_t)(s24_rng_next(rng) % (2u * (uint32_t)lim)) - lim;
    }
  }
  const int32_t mult = ties ? (INT32_C(1) << 30)
                            : (int32_t)(0x40000000u + (uint32_t)(s24_rng_next(rng) % 0x3fffffffu));
  const int32_t off = (int32_t)(s24_rng_next(rng) % 256u) - 128;
  int32_t lo = (int32_t)(s24_rng_next(rng) % 256u) - 128, hi = (int32_t)(s24_rng_next(rng) % 256u) - 128;
  if (s24_rng_next(rng) % 2u) lo = -128, hi = 127;
  if (lo > hi) {
    const int32_t t = lo;
    lo = hi;
    hi = t;
  }
  if (s24_add_tab_make(&tab, mult, -shift, sub, off, lo, hi) != S24_OK) {
    printf("case=add n=%u ok=0 (tables refused)\n", (unsigned)n);
    return 0;
  }
  fill_i8(x, sizeof x);
  fill_i8(y, sizeof y);
  memset(z, 0x5a, sizeof z);
  s24_dev_cpu_touch(dev);  // the operands written by the CPU
  const s24_add_job_t job = {x + skew, y, z, n, &tab};
  const uint64_t t0 = soc_cycles(), w0 = soc->stats.unit_wait;
  const s24_status_t st = s24_dev_add(dev, &job);
  const uint64_t cyc = soc_cycles() - t0;
  int ok;
  size_t bad = 0;
  if (n < 4 || skew != 0) {
    ok = st == S24_ERR_UNSUPPORTED;
    for (size_t i = 0; i < sizeof z; i++) ok &= z[i] == 0x5a;
  } else {
    ok = st == S24_OK;
    for (size_t i = 0; i < sizeof z && ok; i++) {
      const int8_t want = i < n ? s24_add_elem(&tab, x[i], y[i]) : (int8_t)0x5a;
      if (z[i] != want) ok = 0, bad = i;
    }
  }
  printf("case=add n=%u shift=%d sub=%d ties=%d skew=%u ok=%d status=%s soc_cycles=%" PRIu64
         " unit_cycles=%" PRIu64 "%s",
         (unsigned)n, (int)shift, sub, ties, (unsigned)skew, ok, s24_strerror(st), cyc,
         soc->stats.unit_wait - w0, ok ? "\n" : "");
  if (!ok) printf(" first_bad=%u\n", (unsigned)bad);
  return ok;
}

// Two ADDs back to back with nothing said in between, the second's x the first's z: the seam
// then skips the flushes of what its DMAs wrote or it flushed (s24_soc_seam.c, "out of the
// caches"), so a hole in that tracking shows here as a wrong z2. `off` shifts the operands off the
// 32-byte lines (their shared first and last lines are flushed every time).
static int run_add_chain(s24_dev_t *dev, uint64_t *rng, size_t n, size_t off) {
  static s24_add_tab_t tab;
  static int8_t x[ADD_MAX + 64] __attribute__((aligned(32)));
  static int8_t y[ADD_MAX + 64] __attribute__((aligned(32)));
  static int8_t z1[ADD_MAX + 64] __attribute__((aligned(32)));
  static int8_t z2[ADD_MAX + 64] __attribute__((aligned(32)));
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 256; i++) {
      tab.p[k][i] = (int32_t)(s24_rng_next(rng) % (1u << 29)) - (1 << 28);
    }
  }
  if (s24_add_tab_make(&tab, 0x50000000, -26, 0, 3, -128, 127) != S24_OK) return 0;
  fill_i8(x, sizeof x);
  fill_i8(y, sizeof y);
  memset(z1, 0x5a, sizeof z1);
  memset(z2, 0x5a, sizeof z2);
  s24_dev_cpu_touch(dev);
  const s24_add_job_t j1 = {x + off, y + off, z1 + off, n, &tab};
  const s24_add_job_t j2 = {z1 + off, y + off, z2 + off, n, &tab};
  s24_status_t st = s24_dev_add(dev, &j1);
  if (st == S24_OK) st = s24_dev_add(dev, &j2);
  int ok = st == S24_OK;
  size_t bad = 0;
  for (size_t i = 0; i < n && ok; i++) {
    const int8_t want = s24_add_elem(&tab, s24_add_elem(&tab, x[off + i], y[off + i]), y[off + i]);
    if (z2[off + i] != want) ok = 0, bad = i;
  }
  printf("case=add_chain n=%u off=%u ok=%d status=%s%s", (unsigned)n, (unsigned)off, ok,
         s24_strerror(st), ok ? "\n" : "");
  if (!ok) printf(" first_bad=%u\n", (unsigned)bad);
  return ok;
}

// A FLOAT32 -> int8 QUANTIZE of n elements by the quantize unit (s24_dev_quant), compared byte for
// byte with the C model (s24_quant_elem) on the elements the unit says it did (*done: all of its
// whole words', or those before the element at `bad_at` outside the table's domain, NaN or
// infinity), and checked not to write past its words. The thresholds are those of a random
// scale and zero point (the key of ((v - zo) - 0.5) * s, ascending; with `dups` runs of equal
// ones), the inputs random keys within the domain, a quarter of them a threshold's own key or
// one beside it (where the count changes).
#define QUANT_MAX 2048u
static int run_quant(s24_dev_t *dev, s24_soc_t *soc, uint64_t *rng, size_t n, int dups,
                     size_t bad_at) {
  static int32_t thr[255];
  static uint32_t x[QUANT_MAX] __attribute__((aligned(32)));
  static int8_t y[QUANT_MAX + 8] __attribute__((aligned(32)));
  const float s = (float)(1 + s24_rng_next(rng) % 1000u) / 4096.0f;
  const int32_t zo = (int32_t)(s24_rng_next(rng) % 256u) - 128;
  for (int j = 0; j < 255; j++) {
    const float f = ((float)(j - 127 - zo) - 0.5f) * s;
    uint32_t b;
    memcpy(&b, &f, 4);
    thr[j] = s24_quant_key(b);
    if (dups && j > 0 && j % 37 < 3) thr[j] = thr[j - 1];  // equal thresholds
  }
  const float bound = s * 16777216.0f;
  uint32_t dom;
  memcpy(&dom, &bound, 4);
  for (size_t i = 0; i < n; i++) {
    int32_t k;
    if (s24_rng_next(rng) % 4u == 0) {
      k = thr[s24_rng_next(rng) % 255u] + (int32_t)(s24_rng_next(rng) % 3u) - 1;
    } else {
      k = (int32_t)((uint32_t)(s24_rng_next(rng) % (2u * (dom - 1u))) - (dom - 1u));
    }
    x[i] = (uint32_t)s24_quant_key((uint32_t)k);  // (its own inverse)
    if ((x[i] & 0x7FFFFFFFu) >= dom) x[i] = 0;
  }
  if (bad_at < n) x[bad_at] = s24_rng_next(rng) % 2u ? 0x7FC00000u : 0xFF800000u;  // NaN, -inf
  memset(y, 0x5a, sizeof y);
  s24_dev_cpu_touch(dev);  // the operands written by the CPU
  const s24_quant_job_t job = {x, y, n, thr, dom};
  size_t done = 0;
  const uint64_t t0 = soc_cycles(), w0 = soc->stats.unit_wait;
  const s24_status_t st = s24_dev_quant(dev, &job, &done);
  const uint64_t cyc = soc_cycles() - t0;
  const size_t whole = n / 4u * 4u, want_done = bad_at < whole ? bad_at : whole;
  int ok = st == S24_OK && done == want_done;
  size_t bad = 0;
  for (size_t i = 0; i < sizeof y && ok; i++) {
    if (i < done ? y[i] != s24_quant_elem(thr, x[i]) : i >= whole && y[i] != (int8_t)0x5a) {
      ok = 0, bad = i;
    }
  }
  printf("case=quant n=%u dups=%d bad_at=%d ok=%d status=%s done=%u soc_cycles=%" PRIu64
         " unit_cycles=%" PRIu64 "%s",
         (unsigned)n, dups, bad_at < n ? (int)bad_at : -1, ok, s24_strerror(st), (unsigned)done,
         cyc, soc->stats.unit_wait - w0, ok ? "\n" : "");
  if (!ok) printf(" first_bad=%u\n", (unsigned)bad);
  return ok;
}

int main(void) {
#ifdef S24TEST_LONG  // make soc-test-long
  static const gemm_case_t gemms[] = {
      {8, 32, 8, {2, 4}, 0, 0},     // one tile
      {19, 64, 21, {2, 4}, 0, 0},   // edge tiles in both directions
      {32, 256, 16, {2, 4}, 0, 0},  // 8 tiles of 64 beats
      {32, 256, 16, {2, 4}, 0, 1},  // the same, weights by the fill DMA
      {16, 128, 8, {1, 4}, 0, 0},   // 1:4: the pair mode
      {16, 64, 16, {2, 4}, 1, 0},   // dense driver path of a pruned matrix
      {8, 1024, 8, {2, 4}, 0, 1},   // one tile of 256 beats, weights by DMA
      {8, 3072, 16, {2, 4}, 0, 0},  // 2 tiles of 768 beats before START: the seam's backlog
  };
  static const linear_case_t linears[] = {
      {16, 64, 8, {2, 4}, 3, -5, -128, 127, S24_ROUND_SINGLE},
      {24, 96, 12, {2, 4}, -7, 4, 4, 127, S24_ROUND_DOUBLE},
      {32, 128, 8, {1, 4}, 0, 0, -128, 127, S24_ROUND_SINGLE},
      {72, 64, 8, {2, 4}, 1, 2, -100, 100, S24_ROUND_DOUBLE},  // 9 row tiles
  };
#else  // make soc-test (in make test): a minute of simulation
  static const gemm_case_t gemms[] = {
      {8, 32, 8, {2, 4}, 0, 0},     // one tile
      {19, 32, 11, {2, 4}, 0, 1},   // edge tiles in both directions, weights by the fill DMA
      {16, 64, 8, {1, 4}, 0, 0},    // 1:4: the pair mode
  };
  static const linear_case_t linears[] = {
      {16, 32, 8, {2, 4}, 3, -5, -128, 127, S24_ROUND_SINGLE},
      {12, 48, 9, {2, 4}, -7, 4, 4, 127, S24_ROUND_DOUBLE},
  };
#endif
  printf("s24test: sparse24 edge SoC, %" PRIu32 " Hz\n", soc_clk_hz());
  s24_soc_t soc;
  s24_seam_t seam;
  s24_dev_t dev;
  s24_status_t st = s24_soc_open(&soc, &seam);
  if (st == S24_OK) st = s24_dev_open(&dev, &seam);
  if (st != S24_OK) {
    printf("s24test: cannot open the device: %s\n", s24_strerror(st));
    return 1;
  }
  dev.cycle_ns = s24_soc_cycle_ns();
  printf("s24test: s24_top %ux%u %u:%u, map %u.%u, beats W %u A %u R %u words, pair %u\n",
         (unsigned)dev.hw.rows, (unsigned)dev.hw.cols, (unsigned)dev.hw.sparse_n,
         (unsigned)dev.hw.sparse_m, (unsigned)(dev.hw.version >> 16),
         (unsigned)(dev.hw.version & 0xffffu), (unsigned)dev.hw.w_words,
         (unsigned)dev.hw.a_words, (unsigned)dev.hw.r_words, (unsigned)dev.hw.pair);
  int fails = 0, runs = 0;
  for (size_t i = 0; i < sizeof gemms / sizeof gemms[0]; i++, runs++) {
    fails += !run_gemm(&dev, &soc, &gemms[i]);
  }
  for (size_t i = 0; i < sizeof linears / sizeof linears[0]; i++, runs++) {
    fails += !run_linear(&dev, &soc, &linears[i]);
  }
  // convolutions through the fetch unit (channels in fours) and without it (c = 3): directed,
  // then random geometries from the printed seed
  static const conv_case_t convs[] = {
      {1, 5, 5, 8, 0, 8, 3, 3, 1, 1, 1, 1, 0, 0, 16, 16, {2, 4}, 5, 1, 0},    // SAME 3x3
      {1, 7, 6, 16, 4, 8, 3, 2, 2, 1, 1, 2, 0, 0, 8, 20, {1, 4}, -9, 1, 0},   // a channel window
      {2, 4, 5, 4, 0, 4, 1, 1, 1, 1, 1, 1, 0, 0, 12, 12, {2, 4}, 0, 1, 0},    // 1x1, two images
      {1, 6, 6, 3, 0, 3, 4, 1, 2, 2, 1, 1, 0, 0, 8, 8, {2, 4}, 7, 0, 0},      // c = 3: software
      {1, 5, 4, 16, 0, 16, 3, 3, 1, 1, 1, 1, 0, 0, 16, 16, {4, 4}, -2, 1, 0},  // dense, 36 groups
      // channel windows a row tile (a depthwise layer as one job): pair mode, 3 windows; the
      // core's own mode (two row tiles a window), the last window short; dense
      {1, 6, 5, 48, 0, 16, 3, 3, 1, 1, 1, 1, 0, 0, 48, 48, {1, 4}, 3, 1, 16},
      {1, 5, 7, 40, 4, 12, 3, 3, 2, 2, 1, 1, 0, 0, 40, 52, {2, 4}, -7, 1, 16},
      {1, 4, 4, 32, 0, 16, 3, 3, 1, 1, 1, 1, 0, 0, 32, 32, {4, 4}, 0, 1, 16},
  };
  for (size_t i = 0; i < sizeof convs / sizeof convs[0]; i++, runs++) {
    fails += !run_conv(&dev, &soc, &convs[i], i != 2);
  }
  // a layer's results read by the next from the fetch unit's buffer (the drain's write-through)
  fails += !run_conv_chain(&dev, &soc, 6, 5, 8, 8, 16, (s24_pattern_t){2, 4});
  runs++;
  const uint64_t seed = 0x5eed0000ull + soc_cycles() % 100000u;
  printf("s24test: random convolutions, seed %" PRIu64 "\n", seed);
  uint64_t rng = seed;
#ifdef S24TEST_LONG
  const int n_rand = 24;
#else
  const int n_rand = 4;
#endif
  for (int i = 0; i < n_rand; i++, runs++) {
    conv_case_t tc;
    tc.n = 1 + (int32_t)(s24_rng_next(&rng) % 2u);
    tc.h = 1 + (int32_t)(s24_rng_next(&rng) % 9u);
    tc.w = 1 + (int32_t)(s24_rng_next(&rng) % 9u);
    tc.c = 4 * (1 + (int32_t)(s24_rng_next(&rng) % 6u));
    tc.cs = 4 * (1 + (int32_t)(s24_rng_next(&rng) % (uint64_t)(tc.c / 4)));
    tc.c0 = 4 * (int32_t)(s24_rng_next(&rng) % (uint64_t)((tc.c - tc.cs) / 4 + 1));
    tc.kh = 1 + (int32_t)(s24_rng_next(&rng) % 3u);
    tc.kw = 1 + (int32_t)(s24_rng_next(&rng) % 3u);
    tc.sh = 1 + (int32_t)(s24_rng_next(&rng) % 2u);
    tc.sw = 1 + (int32_t)(s24_rng_next(&rng) % 2u);
    tc.dh = 1 + (int32_t)(s24_rng_next(&rng) % 2u);
    tc.dw = 1 + (int32_t)(s24_rng_next(&rng) % 2u);
    tc.ph = tc.pw = 0;
    tc.m = 1 + (uint32_t)(s24_rng_next(&rng) % 20u);
    tc.ldy = tc.m + (uint32_t)(s24_rng_next(&rng) % 3u);
    static const s24_pattern_t pats[] = {{2, 4}, {1, 4}, {4, 4}};
    tc.p = pats[s24_rng_next(&rng) % 3u];
    tc.zi = (int32_t)(s24_rng_next(&rng) % 256u) - 128;
    tc.fetch = 1;
    tc.gr = 0;
    if (s24_rng_next(&rng) % 3u == 0) {  // channel windows of 16 rows, 2 or 3 (the last short)
      const uint32_t nw = 2 + (uint32_t)(s24_rng_next(&rng) % 2u);
      tc.gr = 16;
      tc.m = 16 * (nw - 1) + 1 + (uint32_t)(s24_rng_next(&rng) % 16u);
      tc.ldy = tc.m + (uint32_t)(s24_rng_next(&rng) % 3u);
      tc.c0 = 4 * (int32_t)(s24_rng_next(&rng) % 2u);
      tc.c = tc.c0 + (int32_t)nw * tc.cs + 4 * (int32_t)(s24_rng_next(&rng) % 2u);
    }
    const int same = (int)(s24_rng_next(&rng) % 2u);
    if (!same && ((tc.kh - 1) * tc.dh + 1 > tc.h || (tc.kw - 1) * tc.dw + 1 > tc.w)) {
      tc.kh = tc.kw = 1;  // VALID needs the window inside the input
    }
    fails += !run_conv(&dev, &soc, &tc, same);
  }
  // the ADD unit: directed (a tail of 1-3 elements, too short, misaligned, rounding ties, the
  // extreme shifts), then random from the same seed
  static const struct {
    uint32_t n;
    int32_t shift;
    int sub, ties, skew;
  } adds[] = {
      {4, 20, 0, 0, 0},    {4096, 24, 0, 0, 0}, {1027, 22, 1, 0, 0}, {3, 20, 0, 0, 0},
      {64, 20, 0, 0, 1},   {510, 0, 0, 1, 0},   {999, 31, 1, 1, 0},  {258, 5, 0, 1, 0},
  };
  for (size_t i = 0; i < sizeof adds / sizeof adds[0]; i++, runs++) {
    fails += !run_add(&dev, &soc, &rng, adds[i].n, adds[i].shift, adds[i].sub, adds[i].ties,
                      (size_t)adds[i].skew);
  }
  fails += !run_add_chain(&dev, &rng, 4096, 0);
  fails += !run_add_chain(&dev, &rng, 1000, 20);
  runs += 2;
  for (int i = 0; i < n_rand; i++, runs++) {
    const size_t n = 4 + (size_t)(s24_rng_next(&rng) % (ADD_MAX - 3u));
    const int ties = (int)(s24_rng_next(&rng) % 3u == 0);
    const int32_t shift = ties ? (int32_t)(s24_rng_next(&rng) % 32u)
                               : 18 + (int32_t)(s24_rng_next(&rng) % 14u);
    fails += !run_add(&dev, &soc, &rng, n, shift, (int)(s24_rng_next(&rng) % 2u), ties, 0);
  }
  // the quantize unit: directed (one word, a tail, equal thresholds, an element outside the
  // domain in the middle, in the first and in the tail), then random
  static const struct {
    uint32_t n;
    int dups;
    uint32_t bad_at;
  } quants[] = {
      {4, 0, 99}, {2048, 0, 9999}, {1027, 1, 9999}, {600, 0, 301}, {64, 1, 0}, {41, 0, 40},
  };
  for (size_t i = 0; i < sizeof quants / sizeof quants[0]; i++, runs++) {
    fails += !run_quant(&dev, &soc, &rng, quants[i].n, quants[i].dups, quants[i].bad_at);
  }
  for (int i = 0; i < n_rand; i++, runs++) {
    const size_t n = 4 + (size_t)(s24_rng_next(&rng) % (QUANT_MAX - 3u));
    fails += !run_quant(&dev, &soc, &rng, n, (int)(s24_rng_next(&rng) % 2u), SIZE_MAX);
  }
  s24_dev_close(&dev);
  s24_soc_close(&soc);
  printf("s24test: %d passed, %d failed\n", runs - fails, fails);
  return fails ? 1 : 0;
}
