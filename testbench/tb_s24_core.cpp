// SPDX-License-Identifier: Apache-2.0
// tb_s24_core.cpp: random + directed Verilator testbench of s24_core, bit-exact against the C model.
//
// Built once per core configuration (S24_R x S24_C, S24_N:S24_M) by testbench/testbench.mk.
// Plusargs: +seed=N  +tiles=N (random tile operations)  +test=NAME (one test; default all)
//           +trace (FST of the run, to +tracefile=PATH, default build/waves/<test>.fst)
// Output: one line per test, then "N passed, N failed"; exit status 0 only if all passed.
#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "Vs24_core.h"
#include "s24_layout.h"
#include "s24_cycles.h"
#include "s24_model.h"
#include "testb.h"

#ifndef S24_R
#error "S24_R, S24_C, S24_N, S24_M must name the Verilated configuration"
#endif

namespace {

constexpr unsigned kR = S24_R;
constexpr unsigned kC = S24_C;
constexpr unsigned kN = S24_N;
constexpr unsigned kM = S24_M;
constexpr bool kDense = (kN == kM);
#ifndef S24_PAIR
#define S24_PAIR 1  // the Verilated core's PairMode (its default)
#endif
// the core has the pair mode (1:m weights, 2R rows a tile, cfg_pair_i) when built with it
constexpr bool kHasPair = S24_PAIR != 0 && kN == 2 && kM > 2;
const s24_array_t kArray = {kR, kC, kN, kM, 0, kHasPair ? 1u : 0u};
// the beat layout (widths, packing) is the C model's, cmodel/s24_layout.h
const s24_geom_t kGeom = [] {
  s24_geom_t g{};
  if (s24_geom(kArray, &g) != S24_OK) std::abort();
  return g;
}();
// ... and in pair mode: the array s24_array_pair (2R rows of one 1:m slot, the same beats)
const s24_array_t kPArray = [] {
  s24_array_t a = kArray;
  if (kHasPair && s24_array_pair(kArray, &a) != S24_OK) std::abort();
  return a;
}();
const s24_geom_t kPGeom = [] {
  s24_geom_t g{};
  if (s24_geom(kPArray, &g) != S24_OK) std::abort();
  return g;
}();
// problems made while g_pair is set are 1:m and run in pair mode (kHasPair only)
bool g_pair = false;

// ------------------------------------------------------------------ bit vectors and ports
// One beat; a spare word so that a port of up to 64 bits can always read two
using Bits = std::vector<uint32_t>;

Bits make_bits(unsigned nbits) { return Bits((nbits + 31) / 32 + 1, 0u); }

inline void to_port(CData &p, const Bits &b) { p = static_cast<CData>(b[0]); }
inline void to_port(SData &p, const Bits &b) { p = static_cast<SData>(b[0]); }
inline void to_port(IData &p, const Bits &b) { p = b[0]; }
inline void to_port(QData &p, const Bits &b) { p = b[0] | (static_cast<uint64_t>(b[1]) << 32); }
template <std::size_t W>
inline void to_port(VlWide<W> &p, const Bits &b) {
  for (std::size_t i = 0; i < W; ++i) p[i] = b[i];
}
inline void from_port(const QData &p, Bits &b) {
  b[0] = static_cast<uint32_t>(p);
  b[1] = static_cast<uint32_t>(p >> 32);
}
inline void from_port(const IData &p, Bits &b) { b[0] = p; }
template <std::size_t W>
inline void from_port(const VlWide<W> &p, Bits &b) {
  for (std::size_t i = 0; i < W; ++i) b[i] = p[i];
}

// ------------------------------------------------------------------ globals of one run
std::mt19937_64 g_rng;
Testb<Vs24_core> *g_tb = nullptr;
std::string g_test = "init";
uint64_t g_seed = 1;
uint64_t g_random_tiles = 200;  // test_random's tile operations (+tiles=)

[[noreturn]] void fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::fprintf(stderr, "tb_s24_core[%ux%u %u:%u] FAIL in %s (seed %" PRIu64 ", cycle %" PRIu64 "): ",
               kR, kC, kN, kM, g_test.c_str(), g_seed, g_tb ? g_tb->cycles() : 0);
  std::vfprintf(stderr, fmt, ap);
  std::fprintf(stderr, "\n");
  va_end(ap);
  if (g_tb) {
    if (!g_tb->trace_path().empty())
      std::fprintf(stderr, "tb_s24_core: waveform kept in %s\n", g_tb->trace_path().c_str());
    g_tb->close_trace();
  }
  std::fprintf(stderr, "0 passed, 1 failed\n");
  std::exit(1);
}

uint64_t urand(uint64_t lo, uint64_t hi) {  // inclusive
  return std::uniform_int_distribution<uint64_t>(lo, hi)(g_rng);
}
double frand() { return std::uniform_real_distribution<double>(0.0, 1.0)(g_rng); }

// ------------------------------------------------------------------ problems (A, B, reference C)
enum ValMode { kValUniform, kValExtreme, kValMinOnly, kValSmall, kValModes };
enum DenMode { kDenAny, kDenFull, kDenZeroOne, kDenEmpty, kDenModes };

int8_t rand_val(ValMode vm, bool nonzero) {
  for (;;) {
    int v = 0;
    switch (vm) {
      case kValExtreme: {
        static const int ext[] = {-128, 127, -127, -1, 1};
        v = ext[urand(0, 4)];
        break;
      }
      case kValMinOnly: v = -128; break;
      case kValSmall: v = static_cast<int>(urand(0, 6)) - 3; break;
      default: v = static_cast<int>(urand(0, 255)) - 128; break;
    }
    if (v != 0 || !nonzero) return static_cast<int8_t>(v);
  }
}

struct Problem {
  bool pair = false;                  // 1:m, run in pair mode
  size_t rows = 0, k = 0, cols = 0;   // M, K, N
  std::vector<int8_t> a, b;           // A (M x K, N:M sparse), B (K x N)
  std::vector<int8_t> vals;           // compressed A (dense configs: A itself)
  std::vector<uint8_t> meta;
  std::vector<uint8_t> bad;           // per (row, group): metadata sent corrupted
  std::vector<int32_t> c;             // reference C = A_eff * B from the C model
};

const s24_pattern_t kPat = {kN, kM};
const s24_pattern_t kPPat = {1, kM};  // pair mode

void check_status(s24_status_t st, const char *what) {
  if (st != S24_OK) fail("C model %s returned %s", what, s24_strerror(st));
}

// Fills a (row-major M x K) with at most n nonzeros per group.
void fill_sparse(Problem &pb, ValMode vm, DenMode dm) {
  const size_t groups = pb.k / kM;
  pb.a.assign(pb.rows * pb.k, 0);
  for (size_t i = 0; i < pb.rows; ++i) {
    for (size_t g = 0; g < groups; ++g) {
      unsigned nnz = 0;
      const unsigned most = pb.pair ? 1 : kN;
      switch (dm) {
        case kDenFull: nnz = most; break;
        case kDenZeroOne: nnz = static_cast<unsigned>(urand(0, 1)); break;
        case kDenEmpty: nnz = 0; break;
        default: nnz = static_cast<unsigned>(urand(0, most)); break;
      }
      unsigned pos[8];
      for (unsigned e = 0; e < kM; ++e) pos[e] = e;
      std::shuffle(pos, pos + kM, g_rng);
      for (unsigned j = 0; j < nnz; ++j) pb.a[i * pb.k + g * kM + pos[j]] = rand_val(vm, true);
    }
  }
}

// Compresses A, computes the reference C with the C model (groups marked bad count as 0:
// the hardware zeroes them), and cross-checks the model's sparse GEMM with its dense one.
void finish_problem(Problem &pb) {
  const size_t groups = pb.k / kM;
  if (pb.bad.empty()) pb.bad.assign(pb.rows * groups, 0);
  std::vector<int8_t> a_eff = pb.a;
  for (size_t i = 0; i < pb.rows; ++i)
    for (size_t g = 0; g < groups; ++g)
      if (pb.bad[i * groups + g])
        for (unsigned e = 0; e < kM; ++e) a_eff[i * pb.k + g * kM + e] = 0;
  pb.c.assign(pb.rows * pb.cols, 0);
  std::vector<int32_t> c_dense(pb.rows * pb.cols, 0);
  check_status(s24_gemm_dense_ref(a_eff.data(), pb.rows, pb.k, pb.b.data(), pb.cols, nullptr,
                                  c_dense.data()),
               "s24_gemm_dense_ref");
  if (kDense) {
    pb.vals = pb.a;
    pb.c = c_dense;
    return;
  }
  s24_where_t where;
  const s24_pattern_t pat = pb.pair ? kPPat : kPat;
  pb.vals.assign(pb.rows * s24_values_cols(pat, pb.k), 0);
  pb.meta.assign(pb.rows * s24_meta_cols(pat, pb.k), 0);
  check_status(s24_compress(pat, pb.a.data(), pb.rows, pb.k, pb.vals.data(), pb.meta.data(), &where),
               "s24_compress");
  std::vector<int8_t> vals_eff(pb.rows * s24_values_cols(pat, pb.k), 0);
  std::vector<uint8_t> meta_eff(pb.rows * s24_meta_cols(pat, pb.k), 0);
  check_status(s24_compress(pat, a_eff.data(), pb.rows, pb.k, vals_eff.data(), meta_eff.data(), &where),
               "s24_compress");
  check_status(s24_gemm_sparse(pat, vals_eff.data(), meta_eff.data(), pb.rows, pb.k, pb.b.data(),
                               pb.cols, nullptr, pb.c.data(), &where),
               "s24_gemm_sparse");
  if (pb.c != c_dense) fail("C model: s24_gemm_sparse and s24_gemm_dense_ref disagree");
}

Problem make_problem(size_t rows, size_t groups, size_t cols, ValMode vm, DenMode dm) {
  Problem pb;
  pb.pair = g_pair && kHasPair;
  pb.rows = rows;
  pb.k = groups * kM;
  pb.cols = cols;
  if (kDense) {
    pb.a.resize(rows * pb.k);
    for (auto &v : pb.a) v = (dm == kDenEmpty) ? 0 : rand_val(vm, false);
  } else {
    fill_sparse(pb, vm, dm);
  }
  pb.b.resize(pb.k * cols);
  for (auto &v : pb.b) v = rand_val(vm, false);
  return pb;
}

// ------------------------------------------------------------------ jobs (beats for the core)
struct Job {
  bool pair = false;               // cfg_pair_i: 2R rows a tile
  unsigned rows = kR;              // tile rows
  uint32_t tiles = 0, beats = 0;
  std::vector<Bits> w, a;          // tiles*beats beats each
  std::vector<Bits> r;             // tiles*R expected result beats
  bool err = false;                // invalid metadata was sent
};

// Tiles (row-major over the R x C tile grid) of G = K/m beats; padding is zero.
Job make_job(const Problem &pb) {
  Job job;
  job.pair = pb.pair;
  const s24_geom_t &geo = pb.pair ? kPGeom : kGeom;
  const unsigned R = pb.pair ? 2 * kR : kR;
  job.rows = R;
  const size_t groups = pb.k / kM;
  const size_t tr = (pb.rows + R - 1) / R, tc = (pb.cols + kC - 1) / kC;
  job.tiles = static_cast<uint32_t>(tr * tc);
  job.beats = static_cast<uint32_t>(groups);
  for (size_t ti = 0; ti < tr; ++ti) {
    for (size_t tj = 0; tj < tc; ++tj) {
      for (size_t g = 0; g < groups; ++g) {
        Bits w = make_bits(kGeom.w_bits), a = make_bits(kGeom.a_bits);
        s24_w_beat_compressed(&geo, w.data(), pb.vals.data(), pb.meta.data(), pb.rows, pb.k,
                              ti * R, g);
        for (unsigned r = 0; r < kR; ++r) {  // corrupt the metadata of the groups marked bad
          const size_t i = ti * kR + r;
          if (kN < 2 || pb.pair || i >= pb.rows || !pb.bad[i * groups + g]) continue;
          job.err = true;
          uint32_t idx[8];
          for (unsigned s = 0; s < kN; ++s) idx[s] = s24_w_index(&kGeom, w.data(), r, s);
          switch ((i + g) % 3) {  // repeated, decreasing, or all equal
            case 0: idx[1] = idx[0]; break;
            case 1: std::swap(idx[0], idx[1]); break;
            default: for (unsigned s = 0; s < kN; ++s) idx[s] = kM - 1; break;
          }
          for (unsigned s = 0; s < kN; ++s)
            s24_w_put(&kGeom, w.data(), r, s, s24_w_value(&kGeom, w.data(), r, s), idx[s]);
        }
        s24_a_beat(&kGeom, a.data(), pb.b.data(), pb.k, pb.cols, g, tj * kC);
        job.w.push_back(w);
        job.a.push_back(a);
      }
      for (unsigned r = 0; r < R; ++r) {
        Bits row = make_bits(kGeom.r_bits);
        s24_r_beat(&geo, row.data(), pb.c.data(), pb.rows, pb.cols, ti * R + r, tj * kC);
        job.r.push_back(row);
      }
    }
  }
  return job;
}

// The job of a random problem (make_problem's operands, no group marked bad), finished.
Job random_job(size_t rows, size_t groups, size_t cols, ValMode vm, DenMode dm) {
  Problem pb = make_problem(rows, groups, cols, vm, dm);
  finish_problem(pb);
  return make_job(pb);
}

// ------------------------------------------------------------------ cycle formula (docs §3)
// Busy cycles (cnt_cycles_o) of a job with inputs always valid and r_ready always 1, from the
// C model's cycle model (s24_core_cycles), cross-checked with the formula written out here.
uint64_t job_cycles(uint64_t tiles, uint64_t beats, bool pair = false) {
  s24_cycles_t cy;
  check_status(s24_core_cycles_hw(pair ? kPArray : kArray, beats, tiles, &cy), "s24_core_cycles_hw");
  // pair mode: 2R rows a tile, P = max(G, 2R, R + C)
  const uint64_t rows = pair ? 2 * kR : kR;
  const uint64_t period = pair ? std::max<uint64_t>(beats, kR + std::max(kR, kC))
                               : std::max<uint64_t>(beats, std::max(kR, kC));
  // written out independently of the C model (docs/architecture.md §3), so a change to either is caught
  const uint64_t local = (tiles - 1) * period + beats + rows + kC + 13;
  if (cy.busy_cycles != local || cy.period != period || cy.mac_beats != tiles * beats)
    fail("C model cycle formula %" PRIu64 " != documented formula %" PRIu64, cy.busy_cycles, local);
  return cy.busy_cycles;
}

// ------------------------------------------------------------------ stream drivers
// A stream gate: on/off per cycle; stay on with p_stay, turn on with p_on (iid when equal).
struct Gate {
  double p_stay = 1.0, p_on = 1.0;
  bool on = true;
  bool next() {
    on = frand() < (on ? p_stay : p_on);
    return on;
  }
};
Gate gate_iid(double p) { Gate g; g.p_stay = p; g.p_on = p; return g; }
Gate gate_bursty(double p_stay, double p_on) { Gate g; g.p_stay = p_stay; g.p_on = p_on; return g; }

struct Traffic {
  Gate w, a, r;
  bool ideal = true;  // no gaps, no backpressure: the cycle count must equal the formula
  bool junk = false;  // keep presenting extra beats after the job's last one (must not be taken)
};

struct JobStats {
  uint64_t cycles = 0, beats = 0, stall_w = 0, stall_a = 0, stall_r = 0;
  uint64_t start_to_done = 0;
};

void idle_inputs(Vs24_core *d) {
  d->start_i = 0;
  d->clear_i = 0;
  d->w_valid_i = 0;
  d->a_valid_i = 0;
  d->r_ready_i = 0;
}

void tick_checked() {
  g_tb->tick();
  if (g_tb->stopped()) fail("RTL assertion failed (see the %%Error line above)");
}

JobStats run_job(const Job &job, Traffic tr) {
  Vs24_core *d = g_tb->dut();
  if (d->busy_o) fail("core busy before start");
  d->cfg_beats_i = job.beats;
  d->cfg_tiles_i = job.tiles;
  d->cfg_pair_i = job.pair;
  d->start_i = 1;
  const uint64_t total_in = job.w.size(), total_out = job.r.size();
  size_t wi = 0, ai = 0, ri = 0;
  bool w_pending = false, a_pending = false, done_seen = false;
  uint64_t busy_cycles = 0, stall_r_cycles = 0, cyc = 0;
  const uint64_t limit = 64 * (total_in + total_out + kR + kC + 64) + 200000;
  Bits rb = make_bits(kGeom.r_bits);
  JobStats st;
  for (;; ++cyc) {
    if (cyc > limit) fail("timeout: job of %u tiles x %u beats not done after %" PRIu64 " cycles (w %zu a %zu r %zu)",
                          job.tiles, job.beats, cyc, wi, ai, ri);
    // present beats: once valid, a beat stays until it is taken
    const bool w_go = tr.w.next(), a_go = tr.a.next();
    if (!w_pending && w_go && (wi < total_in || tr.junk)) {
      w_pending = true;
      to_port(d->w_data_i, wi < total_in ? job.w[wi] : job.w[urand(0, total_in - 1)]);
    }
    if (!a_pending && a_go && (ai < total_in || tr.junk)) {
      a_pending = true;
      to_port(d->a_data_i, ai < total_in ? job.a[ai] : job.a[urand(0, total_in - 1)]);
    }
    if (done_seen) w_pending = a_pending = false;  // junk beats are withdrawn once idle
    d->w_valid_i = w_pending;
    d->a_valid_i = a_pending;
    d->r_ready_i = tr.r.next();
    g_tb->eval();
    const bool w_fire = d->w_valid_i && d->w_ready_o;
    const bool a_fire = d->a_valid_i && d->a_ready_o;
    const bool r_fire = d->r_valid_o && d->r_ready_i;
    if (d->done_o) {
      if (done_seen) fail("done_o pulsed twice");
      if (ri != total_out) fail("done_o after %zu of %" PRIu64 " result beats", ri, total_out);
      if (d->busy_o) fail("busy_o still high with done_o");
      done_seen = true;
      st.start_to_done = cyc;
      st.cycles = d->cnt_cycles_o;
      st.beats = d->cnt_beats_o;
      st.stall_w = d->cnt_stall_w_o;
      st.stall_a = d->cnt_stall_a_o;
      st.stall_r = d->cnt_stall_r_o;
      break;
    }
    if (cyc > 0 && d->busy_o) ++busy_cycles;
    if (cyc > 0 && d->busy_o && d->r_valid_o && !d->r_ready_i) ++stall_r_cycles;
    if (cyc > 0 && !d->busy_o && !done_seen) fail("busy_o low before the job finished (r %zu)", ri);
    if (w_fire && wi >= total_in) fail("w beat accepted beyond the job's %" PRIu64 " beats", total_in);
    if (a_fire && ai >= total_in) fail("a beat accepted beyond the job's %" PRIu64 " beats", total_in);
    if (r_fire) {
      if (ri >= total_out) fail("extra result beat");
      from_port(d->r_data_o, rb);
      const Bits &ex = job.r[ri];
      for (unsigned c = 0; c < kC; ++c) {
        const uint32_t got = s24_r_get(&kGeom, rb.data(), c), want = s24_r_get(&kGeom, ex.data(), c);
        if (got != want)
          fail("result beat %zu (tile %zu row %zu%s) column %u: got %" PRId32 " want %" PRId32,
               ri, ri / job.rows, ri % job.rows, job.pair ? ", pair mode" : "", c,
               static_cast<int32_t>(got), static_cast<int32_t>(want));
      }
      const bool last_want = (ri % job.rows) == job.rows - 1;
      if (static_cast<bool>(d->r_last_o) != last_want)
        fail("result beat %zu: r_last_o %d, want %d", ri, d->r_last_o, last_want);
      ++ri;
    }
    g_tb->tick();
    if (g_tb->stopped()) fail("RTL assertion failed (see the %%Error line above)");
    d->start_i = 0;
    d->cfg_pair_i = urand(0, 1);  // sampled at start only
    if (w_fire) { ++wi; w_pending = false; }
    if (a_fire) { ++ai; a_pending = false; }
  }
  d->w_valid_i = 0;
  d->a_valid_i = 0;
  d->r_ready_i = 0;
  tick_checked();  // the cycle of the done_o pulse
  if (d->done_o) fail("done_o longer than one cycle");
  if (wi != total_in || ai != total_in) fail("job took %zu w / %zu a beats, want %" PRIu64, wi, ai, total_in);
  if (st.cycles != busy_cycles) fail("cnt_cycles_o %" PRIu64 " != measured busy cycles %" PRIu64, st.cycles, busy_cycles);
  if (st.beats != total_in) fail("cnt_beats_o %" PRIu64 " != %" PRIu64 " beats", st.beats, total_in);
  if (st.stall_r != stall_r_cycles)
    fail("cnt_stall_r_o %" PRIu64 " != measured result-stall cycles %" PRIu64, st.stall_r, stall_r_cycles);
  if (static_cast<bool>(d->err_meta_o) != job.err) fail("err_meta_o %d, want %d", d->err_meta_o, job.err);
  if (tr.ideal) {
    const uint64_t want = job_cycles(job.tiles, job.beats, job.pair);
    if (st.cycles != want)
      fail("ideal job %u tiles x %u beats: %" PRIu64 " busy cycles, formula %" PRIu64, job.tiles, job.beats, st.cycles, want);
    if (st.start_to_done != want + 1) fail("done_o %" PRIu64 " cycles after start, want %" PRIu64, st.start_to_done, want + 1);
    if (st.stall_w != 2 || st.stall_a != 2 || st.stall_r != 0)
      fail("ideal job stall counters w %" PRIu64 " a %" PRIu64 " r %" PRIu64 ", want 2 2 0", st.stall_w, st.stall_a, st.stall_r);
  } else if (st.cycles < job_cycles(job.tiles, job.beats, job.pair)) {
    fail("job faster than the formula: %" PRIu64 " < %" PRIu64, st.cycles,
         job_cycles(job.tiles, job.beats, job.pair));
  }
  return st;
}

Traffic random_traffic(bool allow_ideal) {
  Traffic t;
  const unsigned mode = static_cast<unsigned>(urand(allow_ideal ? 0 : 1, 5));
  t.ideal = (mode == 0);
  switch (mode) {
    case 0: break;
    case 1: t.w = gate_iid(0.3 + 0.7 * frand()); t.a = gate_iid(0.3 + 0.7 * frand()); break;
    case 2: t.r = gate_iid(0.2 + 0.8 * frand()); break;
    case 3:
      t.w = gate_iid(0.2 + 0.8 * frand());
      t.a = gate_iid(0.2 + 0.8 * frand());
      t.r = gate_iid(0.2 + 0.8 * frand());
      break;
    case 4:
      t.w = gate_bursty(0.9, 0.1);
      t.a = gate_bursty(0.9, 0.1);
      t.r = gate_bursty(0.8, 0.05);
      break;
    default: t.r = gate_bursty(0.97, 0.02); t.w = gate_iid(0.9); break;
  }
  t.junk = !t.ideal && urand(0, 3) == 0;
  return t;
}

void clear_core() {
  Vs24_core *d = g_tb->dut();
  idle_inputs(d);
  d->clear_i = 1;
  tick_checked();
  d->clear_i = 0;
  g_tb->eval();
  if (d->busy_o || d->r_valid_o || d->err_meta_o || d->w_ready_o || d->a_ready_o)
    fail("after clear_i: busy %d r_valid %d err %d w_ready %d a_ready %d", d->busy_o, d->r_valid_o,
         d->err_meta_o, d->w_ready_o, d->a_ready_o);
  // the job counters restart from a registered copy of clear_i: zero from the second cycle
  tick_checked();
  if (d->cnt_cycles_o || d->cnt_beats_o || d->cnt_stall_w_o || d->cnt_stall_a_o || d->cnt_stall_r_o)
    fail("two cycles after clear_i: counters not zero");
}

// ------------------------------------------------------------------ tests
struct Counts {
  uint64_t tiles = 0, jobs = 0, beats = 0;
};
Counts g_counts;

void account(const Job &job) {
  g_counts.tiles += job.tiles;
  g_counts.jobs += 1;
  g_counts.beats += job.w.size();
}

Traffic ideal() { return Traffic(); }

size_t full_rows() { return kR; }
size_t full_cols() { return kC; }

void test_random() {
  const uint64_t target_tiles = g_random_tiles;
  uint64_t tiles = 0, ideal_jobs = 0, corrupt_jobs = 0, pair_jobs = 0;
  while (tiles < target_tiles) {
    // some jobs carry invalid metadata (one tile column, so each A group is sent once)
    g_pair = kHasPair && urand(0, 1) == 0;  // mode switches between jobs
    const bool corrupt = kN >= 2 && !kDense && !g_pair && urand(0, 7) == 0;
    const size_t rows = urand(1, 3 * kR + 1), cols = corrupt ? urand(1, kC) : urand(1, 3 * kC + 1);
    size_t groups = 0;
    switch (urand(0, 3)) {
      case 0: groups = urand(1, 4); break;              // shorter than the minimum tile period
      case 1: groups = urand(1, 2 * std::max(kR, kC)); break;
      case 2: groups = urand(8, 80); break;
      default: groups = urand(1, 24); break;
    }
    const ValMode vm = static_cast<ValMode>(urand(0, kValModes - 1));
    const DenMode dm = static_cast<DenMode>(urand(0, kDenModes - 1));
    Problem pb = make_problem(rows, groups, cols, vm, dm);
    if (corrupt) {
      pb.bad.assign(rows * groups, 0);
      for (auto &b : pb.bad) b = urand(0, 5) == 0;
    }
    finish_problem(pb);
    const Job job = make_job(pb);
    const Traffic tr = random_traffic(true);
    run_job(job, tr);  // checks err_meta_o == job.err
    if (job.err) {
      ++corrupt_jobs;
      // err_meta_o restarts with every job: half the time the next job starts without a
      // clear and must then report only its own metadata
      if (urand(0, 1) == 0) clear_core();
    }
    if (tr.ideal) ++ideal_jobs;
    pair_jobs += job.pair;
    account(job);
    tiles += job.tiles;
  }
  g_pair = false;
  std::printf("  random: %" PRIu64 " tiles (%" PRIu64 " jobs with ideal streams checked against the cycle formula, %"
              PRIu64 " with invalid metadata, %" PRIu64 " in pair mode)\n", tiles, ideal_jobs, corrupt_jobs,
              pair_jobs);
}

void test_tile_one_group() {
  const Job job = random_job(full_rows(), 1, full_cols(), kValUniform, kDenFull);
  const JobStats st = run_job(job, ideal());
  account(job);
  std::printf("  tile_one_group%s: 1 tile x 1 beat in %" PRIu64 " cycles (formula %" PRIu64 ")\n",
              job.pair ? " (pair)" : "", st.cycles, job_cycles(1, 1, job.pair));
}

void test_tiles_back_to_back_16() {
  const size_t groups = 64;  // K = 64*m
  const Job job = random_job((g_pair ? 8 : 4) * kR, groups, 4 * kC, kValUniform, kDenAny);  // 16 tiles
  const JobStats st = run_job(job, ideal());
  account(job);
  const double util = static_cast<double>(st.beats) / static_cast<double>(st.cycles);
  std::printf("  tiles_back_to_back_16: %u tiles x %u beats: %" PRIu64 " MAC-active / %" PRIu64
              " busy cycles = utilization %.2f%%\n", job.tiles, job.beats, st.beats, st.cycles, 100.0 * util);
  if (util < 0.95) fail("utilization %.4f below 0.95", util);
}

void test_tiles_short_spacing() {
  const unsigned most = (g_pair ? kR : 0) + std::max(kR, kC) + 1;  // pair: P >= R + max(R, C)
  for (size_t g = 1; g <= most; ++g) {
    const Job job = random_job((g_pair ? 4 : 2) * kR, g, 2 * kC, kValExtreme, kDenAny);
    run_job(job, ideal());
    account(job);
  }
  std::printf("  tiles_short_spacing%s: beats 1..%u, 4 tiles each, cycles == formula\n",
              g_pair ? " (pair)" : "", most);
}

void test_meta_invalid_zeroed() {
  if (kDense || kN == 1) {
    std::printf("  meta_invalid_zeroed: not applicable (%s)\n",
                kDense ? "dense core: no metadata" : "n = 1: every single index is valid");
    return;
  }
  clear_core();
  const size_t groups = 12;
  Problem pb = make_problem(2 * kR + 1, groups, kC, kValUniform, kDenFull);  // one tile column
  pb.bad.assign(pb.rows * groups, 0);
  for (size_t i = 0; i < pb.bad.size(); ++i) pb.bad[i] = urand(0, 3) == 0;
  pb.bad[0] = 1;
  finish_problem(pb);
  const Job job = make_job(pb);
  run_job(job, random_traffic(false));  // checks err_meta_o == 1 and the zeroed results
  account(job);
  clear_core();  // err_meta_o is sticky until clear_i or the next start
  std::printf("  meta_invalid_zeroed: %zu corrupted groups zeroed, err_meta_o set, cleared by clear_i\n",
              static_cast<size_t>(std::count(pb.bad.begin(), pb.bad.end(), 1)));
}

void test_backpressure_full() {
  const Job job = random_job(3 * kR, 20, 2 * kC, kValUniform, kDenAny);
  Traffic t;
  t.ideal = false;
  t.r = gate_bursty(0.5, 0.03);  // result stream mostly stalled
  t.w = gate_iid(0.95);
  t.a = gate_iid(0.95);
  t.junk = true;
  const JobStats st = run_job(job, t);
  account(job);
  if (st.stall_r == 0) fail("no result stall counted under heavy backpressure");
  std::printf("  backpressure_full: %u tiles, %" PRIu64 " cycles, %" PRIu64 " result-stall cycles\n", job.tiles,
              st.cycles, st.stall_r);
}

void test_input_gaps() {
  const Job job = random_job(2 * kR, 33, 2 * kC, kValUniform, kDenAny);
  Traffic t;
  t.ideal = false;
  t.w = gate_bursty(0.7, 0.2);
  t.a = gate_bursty(0.9, 0.05);
  const JobStats st = run_job(job, t);
  account(job);
  if (st.stall_w + st.stall_a <= 2) fail("input gaps not counted as stalls");
  std::printf("  input_gaps: %u tiles, stalls w %" PRIu64 " a %" PRIu64 "\n", job.tiles, st.stall_w, st.stall_a);
}

void test_acc_wraparound_long_k() {
  // all products +16384: n*16384 per beat; enough beats to pass 2^31 and wrap
  const size_t groups = (size_t{1} << 31) / ((g_pair ? 1 : kN) * 16384) + 9;
  Problem pb = make_problem(kR, groups, kC, kValMinOnly, kDenFull);
  finish_problem(pb);
  const Job job = make_job(pb);
  run_job(job, ideal());
  account(job);
  if (pb.c[0] >= 0) fail("test setup: reference did not wrap (C[0][0] = %" PRId32 ")", pb.c[0]);
  std::printf("  acc_wraparound_long_k: K = %zu, C[0][0] = %" PRId32 " (wrapped)\n", pb.k, pb.c[0]);
}

// Configures a job and pulses start_i for one cycle (clocked with the checks of tick_checked).
void pulse_start(uint32_t beats, uint32_t tiles) {
  Vs24_core *d = g_tb->dut();
  d->cfg_beats_i = beats;
  d->cfg_tiles_i = tiles;
  d->start_i = 1;
  tick_checked();
  d->start_i = 0;
}

void test_groups_zero_one_nonzero() {
  Problem pb = make_problem(2 * kR + 1, 30, 2 * kC - 1, kValExtreme, kDenZeroOne);
  finish_problem(pb);
  Job job = make_job(pb);
  run_job(job, random_traffic(true));
  account(job);
  Problem pe = make_problem(kR, 5, kC, kValUniform, kDenEmpty);
  finish_problem(pe);
  job = make_job(pe);
  run_job(job, ideal());
  account(job);
  std::printf("  groups_zero_one_nonzero: 0/1-nonzero groups and an all-zero A\n");
}

void test_clear_mid_job() {
  const Job job = random_job(2 * kR, 40, 2 * kC, kValUniform, kDenAny);
  Vs24_core *d = g_tb->dut();
  pulse_start(job.beats, job.tiles);
  const unsigned n = static_cast<unsigned>(urand(5, 60));
  size_t wi = 0, ai = 0;
  for (unsigned i = 0; i < n; ++i) {  // stream some beats (valid held until taken), results unread
    to_port(d->w_data_i, job.w[wi % job.w.size()]);
    to_port(d->a_data_i, job.a[ai % job.a.size()]);
    d->w_valid_i = 1;
    d->a_valid_i = 1;
    g_tb->eval();
    const bool w_fire = d->w_ready_o, a_fire = d->a_ready_o;
    tick_checked();
    wi += w_fire;
    ai += a_fire;
  }
  clear_core();
  run_job(job, random_traffic(true));
  account(job);
  std::printf("  clear_mid_job: cleared after %u cycles, next job exact\n", n);
}

void test_start_zero_ignored() {
  Vs24_core *d = g_tb->dut();
  const uint32_t cfgs[2][2] = {{0, 3}, {3, 0}};
  for (const auto &cfg : cfgs) {
    pulse_start(cfg[0], cfg[1]);
    for (int i = 0; i < 5; ++i) {
      g_tb->eval();
      if (d->busy_o || d->w_ready_o || d->a_ready_o || d->done_o)
        fail("start with beats %u tiles %u was not ignored", cfg[0], cfg[1]);
      tick_checked();
    }
  }
  std::printf("  start_zero_ignored: beats == 0 and tiles == 0 do not start a job\n");
}

// Withdraws a weight beat before it was accepted: the RTL stream-protocol assertion must stop
// the simulation. Ends the run, so it only runs when named (+test=protocol_violation_caught).
void test_protocol_violation_caught() {
  const Job job = random_job(kR, 8, kC, kValUniform, kDenFull);
  Vs24_core *d = g_tb->dut();
  pulse_start(job.beats, job.tiles);
  to_port(d->w_data_i, job.w[0]);
  d->w_valid_i = 1;  // no activations: the weight FIFO fills and w_ready_o drops
  for (int i = 0; i < 8; ++i) {
    g_tb->eval();
    if (!d->w_ready_o) break;
    tick_checked();
  }
  g_tb->eval();
  if (!d->w_ready_o && d->w_valid_i) {
    g_tb->tick();          // valid && !ready
    d->w_valid_i = 0;      // violation: withdrawn before it was taken
    g_tb->tick();
    g_tb->tick();
  } else {
    fail("could not reach a w_valid_i && !w_ready_o cycle");
  }
  if (!g_tb->stopped()) fail("the stream-protocol assertion did not fire");
  std::printf("  protocol_violation_caught: withdrawn w_valid_i stopped the simulation (expected)\n");
}

// The pair mode (1:m weights, 2R rows a tile): the directed tests again in pair mode, then jobs
// alternating between the modes (ideal and random streams; the mode is sampled at start).
void test_pair_mode() {
  if (!kHasPair) {
    std::printf("  pair_mode: not applicable (no pair mode: %s)\n",
                (kN == 2 && kM > 2) ? "PairMode = 0" : "not a 2:m core");
    return;
  }
  g_pair = true;
  test_tile_one_group();
  test_tiles_back_to_back_16();
  test_tiles_short_spacing();
  test_backpressure_full();
  test_input_gaps();
  test_groups_zero_one_nonzero();
  test_acc_wraparound_long_k();
  unsigned switches = 0;
  for (int i = 0; i < 24; ++i) {
    g_pair = (i % 2) == 0;
    const bool corrupt = !g_pair && (i % 4) == 1;
    Problem pb = make_problem(urand(1, 4 * kR), urand(1, 40), corrupt ? urand(1, kC) : urand(1, 3 * kC),
                              kValUniform, kDenAny);
    if (corrupt) {
      pb.bad.assign(pb.rows * (pb.k / kM), 0);
      for (auto &b : pb.bad) b = urand(0, 3) == 0;
      pb.bad[0] = 1;
    }
    finish_problem(pb);
    const Job job = make_job(pb);
    run_job(job, random_traffic(i < 12));
    account(job);
    ++switches;
  }
  g_pair = false;
  std::printf("  pair_mode: %u jobs alternating pair / %u:%u mode (with invalid metadata in %u:%u jobs)\n",
              switches, kN, kM, kN, kM);
}

struct Test {
  const char *name;  // +test=name runs test_name
  void (*fn)();
  bool by_default;  // run when no +test= is given
};
#define TEST(name, by_default) {#name, test_##name, by_default}

const Test kTests[] = {
    TEST(start_zero_ignored, true),
    TEST(tile_one_group, true),
    TEST(tiles_back_to_back_16, true),
    TEST(tiles_short_spacing, true),
    TEST(meta_invalid_zeroed, true),
    TEST(backpressure_full, true),
    TEST(input_gaps, true),
    TEST(groups_zero_one_nonzero, true),
    TEST(clear_mid_job, true),
    TEST(acc_wraparound_long_k, true),
    TEST(pair_mode, true),
    TEST(random, true),
    TEST(protocol_violation_caught, false),
};
#undef TEST

}  // namespace

int main(int argc, char **argv) {
  Testb<Vs24_core> tb(argc, argv);
  g_tb = &tb;
  const char *arg = nullptr;
  if ((arg = tb.ctx()->commandArgsPlusMatch("seed=")) && *arg) g_seed = std::strtoull(arg + 6, nullptr, 0);
  if ((arg = tb.ctx()->commandArgsPlusMatch("tiles=")) && *arg) g_random_tiles = std::strtoull(arg + 7, nullptr, 0);
  std::string only;
  if ((arg = tb.ctx()->commandArgsPlusMatch("test=")) && *arg) only = arg + 6;
  bool known = only.empty();
  for (const Test &t : kTests) known = known || only == t.name;
  if (!known) {
    std::fprintf(stderr, "tb_s24_core: error: unknown +test=%s (tests:", only.c_str());
    for (const Test &t : kTests) std::fprintf(stderr, " %s", t.name);
    std::fprintf(stderr, ")\n");
    return 2;
  }
  if ((arg = tb.ctx()->commandArgsPlusMatch("trace")) && *arg) {
    std::string path = "build/waves/" + (only.empty() ? std::string("all") : only) + ".fst";
    if ((arg = tb.ctx()->commandArgsPlusMatch("tracefile=")) && *arg) path = arg + 11;
    tb.open_trace(path);
    std::printf("tb_s24_core: tracing to %s\n", path.c_str());
  }
  std::printf("tb_s24_core: config %ux%u %u:%u, +seed=%" PRIu64 " +tiles=%" PRIu64 "\n", kR, kC, kN, kM, g_seed,
              g_random_tiles);
  g_rng.seed(g_seed);
  idle_inputs(tb.dut());
  tb.dut()->cfg_beats_i = 0;
  tb.dut()->cfg_tiles_i = 0;
  tb.reset();
  unsigned passed = 0;
  for (const Test &t : kTests) {
    if (only.empty() ? !t.by_default : only != t.name) continue;
    g_test = t.name;
    t.fn();
    ++passed;
  }
  std::printf("tb_s24_core %ux%u %u:%u: %" PRIu64 " tile operations in %" PRIu64 " jobs (%" PRIu64
              " beats), %" PRIu64 " cycles\n", kR, kC, kN, kM, g_counts.tiles, g_counts.jobs, g_counts.beats,
              tb.cycles());
  std::printf("%u passed, 0 failed\n", passed);
  return 0;
}
