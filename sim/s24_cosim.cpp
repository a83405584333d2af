// SPDX-License-Identifier: Apache-2.0
// sparse24 co-simulation backend: drives the Verilated s24_top (see s24_cosim.h).
#include "s24_cosim.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <random>
#include <system_error>
#include <vector>

#include "Vs24_top.h"
#include "s24_drv_host.h"
#include "s24_regs.h"
#include "testb.h"

namespace {

constexpr uint64_t kNsPerCycle = S24_COSIM_NS_PER_CYCLE;
constexpr uint64_t kAxilMaxCycles = 1000; // an AXI4-Lite response later than this is a hang

// One stream as a queue of beats (words each) with TLAST flags.
struct Queue {
  size_t words = 0;
  std::vector<uint32_t> data;
  std::vector<uint8_t> last;
  size_t head = 0;  // beats already consumed
  size_t count() const { return last.size() - head; }
  void push(const uint32_t *w, bool l) {
    data.insert(data.end(), w, w + words);
    last.push_back(l);
  }
  const uint32_t *front() const { return data.data() + head * words; }
  void pop() {
    if (++head == last.size()) {
      data.clear();
      last.clear();
      head = 0;
    }
  }
};

// Copies words into a Verilated signal of any width, and back.
template <std::size_t N>
void put(VlWide<N> &sig, const uint32_t *w) {
  for (std::size_t i = 0; i < N; i++) sig[i] = w[i];
}
inline void put(QData &sig, const uint32_t *w) { sig = (QData)w[0] | ((QData)w[1] << 32); }
inline void put(IData &sig, const uint32_t *w) { sig = w[0]; }
template <std::size_t N>
void get(const VlWide<N> &sig, uint32_t *w) {
  for (std::size_t i = 0; i < N; i++) w[i] = sig[i];
}
inline void get(const QData &sig, uint32_t *w) {
  w[0] = (uint32_t)sig;
  w[1] = (uint32_t)(sig >> 32);
}
inline void get(const IData &sig, uint32_t *w) { w[0] = sig; }

// The status and message of the C++ exception being handled: no exception crosses a C
// boundary of this file (every extern "C" function and every seam callback catches them all
// and calls this). The Verilator runtime and the standard library throw std::bad_alloc when
// memory runs out (ulimit -v) and std::system_error when a thread cannot start.
s24_status_t status_of_exception(char *err, size_t errlen) noexcept {
  char buf[256];
  s24_status_t st = S24_ERR_HW;
  try {
    throw;
  } catch (const std::bad_alloc &) {
    st = S24_ERR_NOMEM;
    std::snprintf(buf, sizeof buf, "out of memory in the Verilator runtime (ulimit -v?)");
  } catch (const std::system_error &e) {
    const int c = e.code().value();
    st = c == EAGAIN || c == ENOMEM ? S24_ERR_NOMEM : S24_ERR_IO;
    std::snprintf(buf, sizeof buf, "the Verilator runtime failed: %s%s", e.what(),
                  c == EAGAIN ? " (a limit on processes, threads or memory: ulimit -u, -v?)" : "");
  } catch (const std::exception &e) {
    std::snprintf(buf, sizeof buf, "the Verilator runtime failed: %s", e.what());
  } catch (...) {
    std::snprintf(buf, sizeof buf, "the Verilator runtime failed (unknown exception)");
  }
  if (err != nullptr && errlen > 0) std::snprintf(err, errlen, "%s", buf);
  return st;
}

}  // namespace

struct s24_cosim {
  Testb<Vs24_top> tb;
  Vs24_top *top;
  s24_cosim_opts_t opts{};
  std::mt19937 rng;
  Queue q[3];
  bool w_busy = false, a_busy = false;  // a beat is presented (valid held until accepted)
  std::vector<uint32_t> rbeat;          // the result beat of this cycle
  char error[256] = "";                 // why the last call failed (s24_cosim_error)
  s24_scratch_t scratch{};              // the seam's scratch (the driver's staging memory)

  s24_cosim(const s24_cosim_opts_t &o) : tb(0, nullptr), top(tb.dut()), opts(o), rng(o.seed) {}

  bool chance(uint32_t pct) { return pct >= 100 || (pct > 0 && rng() % 100 < pct); }

  // Presents the next queued input beats, decides tready (1 with take_r, whatever the result
  // backpressure), runs one cycle, retires handshakes.
  void cycle(bool take_r = false) {
    if (!w_busy && q[S24_PORT_W].count() > 0 && !chance(opts.in_gap_pct)) {
      put(top->s_axis_w_tdata_i, q[S24_PORT_W].front());
      top->s_axis_w_tlast_i = q[S24_PORT_W].last[q[S24_PORT_W].head];
      w_busy = true;
    }
    if (!a_busy && q[S24_PORT_A].count() > 0 && !chance(opts.in_gap_pct)) {
      put(top->s_axis_a_tdata_i, q[S24_PORT_A].front());
      top->s_axis_a_tlast_i = q[S24_PORT_A].last[q[S24_PORT_A].head];
      a_busy = true;
    }
    top->s_axis_w_tvalid_i = w_busy;
    top->s_axis_a_tvalid_i = a_busy;
    top->m_axis_r_tready_i = take_r || !chance(opts.r_backpressure_pct);
    tb.eval();  // settle ready/valid outputs for this cycle's inputs
    const bool w_fire = top->s_axis_w_tvalid_i && top->s_axis_w_tready_o;
    const bool a_fire = top->s_axis_a_tvalid_i && top->s_axis_a_tready_o;
    const bool r_fire = top->m_axis_r_tvalid_o && top->m_axis_r_tready_i;
    bool r_last = false;
    if (r_fire) {
      get(top->m_axis_r_tdata_o, rbeat.data());
      r_last = top->m_axis_r_tlast_o;
    }
    tb.tick();
    if (w_fire) {
      q[S24_PORT_W].pop();
      w_busy = false;
    }
    if (a_fire) {
      q[S24_PORT_A].pop();
      a_busy = false;
    }
    if (r_fire) q[S24_PORT_R].push(rbeat.data(), r_last);
  }

  uint32_t delay() { return opts.axil_random ? rng() % 4 : 0; }

  s24_status_t axil_write(uint32_t addr, uint32_t value, uint32_t strb = 0xF) {
    if (tb.stopped()) return S24_ERR_HW;
    const uint32_t aw_at = delay(), w_at = delay(), b_at = delay();
    bool aw_done = false, w_done = false;
    top->s_axil_awaddr_i = addr & (S24_REG_WINDOW - 1);
    top->s_axil_wdata_i = value;
    top->s_axil_wstrb_i = strb & 0xF;
    for (uint64_t t = 0; t < kAxilMaxCycles; t++) {
      top->s_axil_awvalid_i = !aw_done && t >= aw_at;
      top->s_axil_wvalid_i = !w_done && t >= w_at;
      top->s_axil_bready_i = t >= b_at;
      tb.eval();
      const bool aw_fire = top->s_axil_awvalid_i && top->s_axil_awready_o;
      const bool w_fire = top->s_axil_wvalid_i && top->s_axil_wready_o;
      const bool b_fire = top->s_axil_bvalid_o && top->s_axil_bready_i;
      const uint32_t resp = top->s_axil_bresp_o;
      cycle();
      aw_done |= aw_fire;
      w_done |= w_fire;
      if (b_fire) {
        top->s_axil_awvalid_i = top->s_axil_wvalid_i = top->s_axil_bready_i = 0;
        return resp == 0 && !tb.stopped() ? S24_OK : S24_ERR_HW;
      }
    }
    return S24_ERR_TIMEOUT;
  }

  s24_status_t axil_read(uint32_t addr, uint32_t *value) {
    if (tb.stopped()) return S24_ERR_HW;
    const uint32_t ar_at = delay(), r_at = delay();
    bool ar_done = false;
    top->s_axil_araddr_i = addr & (S24_REG_WINDOW - 1);
    for (uint64_t t = 0; t < kAxilMaxCycles; t++) {
      top->s_axil_arvalid_i = !ar_done && t >= ar_at;
      top->s_axil_rready_i = t >= r_at;
      tb.eval();
      const bool ar_fire = top->s_axil_arvalid_i && top->s_axil_arready_o;
      const bool r_fire = top->s_axil_rvalid_o && top->s_axil_rready_i;
      const uint32_t resp = top->s_axil_rresp_o, data = top->s_axil_rdata_o;
      cycle();
      ar_done |= ar_fire;
      if (r_fire) {
        top->s_axil_arvalid_i = top->s_axil_rready_i = 0;
        if (resp != 0 || tb.stopped()) return S24_ERR_HW;
        *value = data;
        return S24_OK;
      }
    }
    return S24_ERR_TIMEOUT;
  }
};

namespace {

s24_cosim *sim_of(void *ctx) { return static_cast<s24_cosim *>(ctx); }

// The body of a seam callback or C entry point on a simulation, with every exception stopped.
#define S24_NO_THROW(sim, ...)                                                   \
  try {                                                                          \
    __VA_ARGS__                                                                  \
  } catch (...) {                                                                \
    return status_of_exception((sim)->error, sizeof (sim)->error);               \
  }

s24_status_t cs_read32(void *ctx, uint32_t addr, uint32_t *value) {
  if (ctx == nullptr || value == nullptr || addr >= S24_REG_WINDOW) return S24_ERR_ARG;
  S24_NO_THROW(sim_of(ctx), return sim_of(ctx)->axil_read(addr, value);)
}

s24_status_t cs_write32(void *ctx, uint32_t addr, uint32_t value) {
  if (ctx == nullptr || addr >= S24_REG_WINDOW) return S24_ERR_ARG;
  S24_NO_THROW(sim_of(ctx), return sim_of(ctx)->axil_write(addr, value);)
}

s24_status_t cs_stream_write(void *ctx, s24_port_t port, const uint32_t *beats, size_t words,
                             size_t n) {
  if (ctx == nullptr || beats == nullptr || n == 0) return S24_ERR_ARG;
  if (port != S24_PORT_W && port != S24_PORT_A) return S24_ERR_ARG;
  Queue &q = sim_of(ctx)->q[port];
  if (words != q.words) return S24_ERR_ARG;
  S24_NO_THROW(sim_of(ctx), {
    for (size_t i = 0; i < n; i++) q.push(beats + i * words, i == n - 1);
    return S24_OK;
  })
}

s24_status_t cs_stream_read(void *ctx, s24_port_t port, uint32_t *beats, size_t words, size_t n,
                            uint8_t *last, uint64_t timeout_ns) {
  if (ctx == nullptr || beats == nullptr || n == 0 || port != S24_PORT_R) return S24_ERR_ARG;
  s24_cosim *s = sim_of(ctx);
  Queue &q = s->q[S24_PORT_R];
  if (words != q.words) return S24_ERR_ARG;
  const uint64_t limit = timeout_ns / kNsPerCycle;
  S24_NO_THROW(s, {
    for (uint64_t t = 0; q.count() < n; t++) {
      if (s->tb.stopped()) return S24_ERR_HW;
      if (t >= limit) return S24_ERR_TIMEOUT;
      s->cycle();
    }
    for (size_t i = 0; i < n; i++) {
      std::memcpy(beats + i * words, q.front(), words * sizeof(uint32_t));
      if (last != nullptr) last[i] = q.last[q.head];
      q.pop();
    }
    return S24_OK;
  })
}

// Drops queued input beats (including the one presented: the block was just soft-reset) and
// undelivered results, among them the result beat the block kept across the soft reset (map 1.5:
// m_axis_r presents a beat it held when SOFT_RESET took effect until it is taken, STATUS.R_HELD):
// it is taken, whatever the result backpressure, and dropped.
s24_status_t cs_stream_reset(void *ctx) {
  if (ctx == nullptr) return S24_ERR_ARG;
  s24_cosim *s = sim_of(ctx);
  S24_NO_THROW(s, {
    for (Queue &q : s->q) {
      q.data.clear();
      q.last.clear();
      q.head = 0;
    }
    s->w_busy = s->a_busy = false;
    s->top->s_axis_w_tvalid_i = s->top->s_axis_a_tvalid_i = 0;
    s->tb.eval();
    // the soft reset emptied the block: a valid result now is the kept beat, taken in one cycle
    for (int i = 0; i < 2 && s->top->m_axis_r_tvalid_o && !s->tb.stopped(); i++) s->cycle(true);
    Queue &r = s->q[S24_PORT_R];
    r.data.clear();
    r.last.clear();
    r.head = 0;
    return S24_OK;
  })
}

uint64_t cs_now_ns(void *ctx) { return sim_of(ctx)->tb.cycles() * kNsPerCycle; }

// The streams copy every beat (stream_write): the staging memory is plain heap.
void *cs_scratch(void *ctx, size_t bytes) {
  return ctx == nullptr ? nullptr : s24_scratch_get(&sim_of(ctx)->scratch, bytes);
}

// The seam's functions in s24_seam_t's order; open_reset adds the context.
const s24_seam_t kCsSeam = {nullptr,        cs_read32,       cs_write32,
                            cs_stream_write, cs_stream_read, cs_stream_reset,
                            cs_now_ns,      cs_scratch,      nullptr, 0, nullptr, nullptr, nullptr, nullptr,
                            nullptr};  // no fetch unit

}  // namespace

static s24_status_t open_reset(s24_cosim *s, const s24_cosim_opts_t &o, s24_cosim_t **out,
                               s24_seam_t *seam);

extern "C" s24_status_t s24_cosim_open(const s24_cosim_opts_t *opts, s24_cosim_t **out,
                                       s24_seam_t *seam) {
  if (out == nullptr || seam == nullptr) return S24_ERR_ARG;
  s24_cosim_opts_t o{};
  if (opts != nullptr) o = *opts;
  if (o.err != nullptr && o.errlen > 0) o.err[0] = '\0';
  if (o.r_backpressure_pct > 100 || o.in_gap_pct > 100) return S24_ERR_ARG;
  s24_cosim *s = nullptr;
  try {
    s = new s24_cosim(o);
  } catch (...) {  // the Verilator runtime could not start (memory, a thread)
    return status_of_exception(o.err, o.errlen);
  }
  try {
    return open_reset(s, o, out, seam);
  } catch (...) {
    const s24_status_t st = status_of_exception(o.err, o.errlen);
    try {
      delete s;
    } catch (...) {
    }
    return st;
  }
}

// The rest of s24_cosim_open: the simulation built, reset it and fill the seam.
static s24_status_t open_reset(s24_cosim *s, const s24_cosim_opts_t &o, s24_cosim_t **out,
                               s24_seam_t *seam) {
  Vs24_top *top = s->top;
  s->q[S24_PORT_W].words = sizeof(top->s_axis_w_tdata_i) / sizeof(uint32_t);
  s->q[S24_PORT_A].words = sizeof(top->s_axis_a_tdata_i) / sizeof(uint32_t);
  s->q[S24_PORT_R].words = sizeof(top->m_axis_r_tdata_o) / sizeof(uint32_t);
  s->rbeat.resize(s->q[S24_PORT_R].words);
  if (o.trace_path != nullptr) {
    FILE *f = std::fopen(o.trace_path, "wb");  // fail cleanly before Verilator would abort
    if (f == nullptr) {
      if (o.err != nullptr && o.errlen > 0) {
        std::snprintf(o.err, o.errlen, "%s", std::strerror(errno));
      }
      delete s;
      return S24_ERR_IO;
    }
    std::fclose(f);
    s->tb.open_trace(o.trace_path);
  }
  top->s_axil_awvalid_i = top->s_axil_wvalid_i = top->s_axil_arvalid_i = 0;
  top->s_axil_bready_i = top->s_axil_rready_i = 0;
  top->s_axis_w_tvalid_i = top->s_axis_a_tvalid_i = 0;
  top->m_axis_r_tready_i = 1;
  s->tb.reset();
  *seam = kCsSeam;
  seam->ctx = s;
  *out = s;
  return S24_OK;
}

extern "C" void s24_cosim_close(s24_cosim_t *sim) {
  if (sim != nullptr) s24_scratch_free(&sim->scratch);
  try {
    delete sim;  // finishes the trace
  } catch (...) {
  }
}

extern "C" const char *s24_cosim_error(const s24_cosim_t *sim) {
  return sim == nullptr ? "" : sim->error;
}

extern "C" uint64_t s24_cosim_cycles(const s24_cosim_t *sim) {
  return sim == nullptr ? 0 : sim->tb.cycles();
}

extern "C" s24_status_t s24_cosim_set_backpressure(s24_cosim_t *sim, uint32_t pct) {
  if (sim == nullptr || pct > 100) return S24_ERR_ARG;
  sim->opts.r_backpressure_pct = pct;
  return S24_OK;
}

extern "C" s24_status_t s24_cosim_write_strb(s24_cosim_t *sim, uint32_t addr, uint32_t value,
                                             uint32_t strb) {
  if (sim == nullptr || addr >= S24_REG_WINDOW || strb > 0xF) return S24_ERR_ARG;
  S24_NO_THROW(sim, return sim->axil_write(addr, value, strb);)
}

extern "C" int s24_cosim_irq(const s24_cosim_t *sim) {
  return sim != nullptr && sim->top->irq_o;
}
