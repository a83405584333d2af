// tb_axil: the AXI4-Lite slave of s24_top under random, overlapping, independently timed
// AW / W / B / AR / R traffic with random backpressure. Checks every response against a
// register model (OKAY/SLVERR, read data, byte strobes), that B and R stay stable while not
// accepted, that responses keep order, and that every transaction completes (no hang). Addresses
// are word-decoded (map 1.5): one access in four is at a byte offset inside its word; holes of the
// register block read 0 and ignore writes (OKAY), the window beyond it answers SLVERR.
// Usage: tb_axil [+seed=N] [+txns=N] [+trace=FILE.fst]; prints 'N passed, N failed'.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "Vs24_top.h"
#include "s24_regs.h"
#include "testb.h"

namespace {

struct Write {
  uint32_t addr, data, strb;
  bool mapped;
};

int g_pass = 0, g_fail = 0;

void check(bool ok, const std::string &what) {
  if (ok) {
    g_pass++;
  } else if (++g_fail <= 20) {
    std::printf("FAIL %s\n", what.c_str());
  }
}

uint32_t strb_mask(uint32_t strb) {
  uint32_t m = 0;
  for (int i = 0; i < 4; i++) {
    if (strb >> i & 1) m |= 0xFFu << (8 * i);
  }
  return m;
}

}  // namespace

int main(int argc, char **argv) {
  uint64_t seed = (uint64_t)std::time(nullptr);
  long txns = 4000;
  const char *trace = nullptr;
  for (int i = 1; i < argc; i++) {
    if (!std::strncmp(argv[i], "+seed=", 6)) seed = std::strtoull(argv[i] + 6, nullptr, 0);
    if (!std::strncmp(argv[i], "+txns=", 6)) txns = std::atol(argv[i] + 6);
    if (!std::strncmp(argv[i], "+trace=", 7)) trace = argv[i] + 7;
  }
  std::printf("tb_axil: seed=%llu (+seed=N to repeat), %ld transactions\n",
              (unsigned long long)seed, txns);
  std::mt19937_64 rng(seed);
  auto pct = [&](unsigned p) { return rng() % 100 < p; };
  Testb<Vs24_top> tb(argc, argv);
  Vs24_top *t = tb.dut();
  if (trace) tb.open_trace(trace);
  t->s_axis_w_tvalid_i = t->s_axis_a_tvalid_i = 0;
  t->m_axis_r_tready_i = 1;
  t->s_axil_awvalid_i = t->s_axil_wvalid_i = t->s_axil_arvalid_i = 0;
  t->s_axil_bready_i = t->s_axil_rready_i = 0;
  tb.reset();

  // words exercised: two read/write registers, a read-only one, two holes of the register block
  // (RAZ/WI) and two words beyond it (SLVERR); an access may be at any byte of its word
  const uint32_t rw_regs[2] = {S24_REG_CFG_BEATS, S24_REG_CFG_TILES};
  const uint32_t others[5] = {S24_REG_ID, 0x14, 0x1C, S24_REG_SPAN, 0xFC};
  auto byte_of = [&](uint32_t word) { return word + (pct(25) ? (uint32_t)(rng() % 4) : 0u); };
  std::map<uint32_t, std::vector<uint32_t>> history;  // value after each write, per RW register
  for (uint32_t a : rw_regs) history[a] = {0};
  std::vector<Write> writes;           // in issue order
  std::vector<uint32_t> hist_at_write; // history index of write i (for RW registers)
  std::deque<std::pair<uint32_t, size_t>> reads;  // (addr, writes acked when AR was sent)
  size_t aw_sent = 0, w_sent = 0, b_got = 0, ar_sent = 0, r_got = 0;
  long n_reads = txns / 2, n_writes = txns - n_reads;
  // planned transactions
  for (long i = 0; i < n_writes; i++) {
    bool rw = pct(70);
    uint32_t a = rw ? rw_regs[rng() % 2] : others[rng() % 5];
    uint32_t s = pct(70) ? 0xF : (uint32_t)(rng() % 16);
    writes.push_back({a, (uint32_t)rng(), s, a < S24_REG_SPAN});
    if (rw) {
      std::vector<uint32_t> &h = history[a];
      h.push_back((h.back() & ~strb_mask(s)) | (writes.back().data & strb_mask(s)));
      hist_at_write.push_back((uint32_t)h.size() - 1);
    } else {
      hist_at_write.push_back(0);
    }
  }
  std::vector<uint32_t> read_addr;
  for (long i = 0; i < n_reads; i++) {
    read_addr.push_back(pct(70) ? rw_regs[rng() % 2] : others[rng() % 5]);
  }
  // writes performed so far per register (B received <= performed <= min(aw_sent, w_sent))
  auto value_after = [&](uint32_t a, size_t nwrites) {
    uint32_t idx = 0;
    for (size_t i = 0; i < nwrites; i++) {
      if (writes[i].addr == a) idx = hist_at_write[i];
    }
    return history[a][idx];
  };

  bool b_hold = false, r_hold = false;
  uint32_t b_prev = 0, r_prev_data = 0, r_prev_resp = 0;
  const unsigned gap = 30, bp = 40;
  uint64_t cycle = 0;
  const uint64_t limit = (uint64_t)txns * 40 + 1000;
  while ((b_got < writes.size() || r_got < read_addr.size()) && cycle < limit) {
    // drive: a valid, once raised, stays until its handshake (AXI rule)
    if (!t->s_axil_awvalid_i && aw_sent < writes.size() && !pct(gap)) {
      t->s_axil_awaddr_i = byte_of(writes[aw_sent].addr);
      t->s_axil_awvalid_i = 1;
    }
    if (!t->s_axil_wvalid_i && w_sent < writes.size() && !pct(gap)) {
      t->s_axil_wdata_i = writes[w_sent].data;
      t->s_axil_wstrb_i = writes[w_sent].strb;
      t->s_axil_wvalid_i = 1;
    }
    if (!t->s_axil_arvalid_i && ar_sent < read_addr.size() && !pct(gap)) {
      t->s_axil_araddr_i = byte_of(read_addr[ar_sent]);
      t->s_axil_arvalid_i = 1;
    }
    t->s_axil_bready_i = !pct(bp);
    t->s_axil_rready_i = !pct(bp);
    tb.eval();
    // stability of responses held under backpressure
    if (b_hold) check(t->s_axil_bvalid_o && t->s_axil_bresp_o == b_prev, "B changed while not accepted");
    if (r_hold) {
      check(t->s_axil_rvalid_o && t->s_axil_rdata_o == r_prev_data && t->s_axil_rresp_o == r_prev_resp,
            "R changed while not accepted");
    }
    const bool aw = t->s_axil_awvalid_i && t->s_axil_awready_o;
    const bool w = t->s_axil_wvalid_i && t->s_axil_wready_o;
    const bool ar = t->s_axil_arvalid_i && t->s_axil_arready_o;
    const bool b = t->s_axil_bvalid_o && t->s_axil_bready_i;
    const bool r = t->s_axil_rvalid_o && t->s_axil_rready_i;
    if (b) {
      check(b_got < writes.size(), "B without a write");
      if (b_got < writes.size()) {
        const Write &wr = writes[b_got];
        const uint32_t want = wr.mapped ? 0u : 2u;
        char msg[120];
        std::snprintf(msg, sizeof msg, "write %zu to 0x%02X: bresp %u, want %u", b_got, wr.addr,
                      (unsigned)t->s_axil_bresp_o, want);
        check(t->s_axil_bresp_o == want, msg);
        b_got++;
      }
    }
    if (r) {
      check(!reads.empty(), "R without a read");
      if (!reads.empty()) {
        const uint32_t a = reads.front().first;
        const size_t lo = reads.front().second, hi = std::min(aw_sent, w_sent);
        reads.pop_front();
        const bool in_block = a < S24_REG_SPAN;
        char msg[160];
        std::snprintf(msg, sizeof msg, "read %zu of 0x%02X: rresp %u data 0x%08X", r_got, a,
                      (unsigned)t->s_axil_rresp_o, (unsigned)t->s_axil_rdata_o);
        check(t->s_axil_rresp_o == (in_block ? 0u : 2u), msg);
        if (a == S24_REG_ID) check(t->s_axil_rdata_o == S24_MAGIC, msg);
        if (a != S24_REG_ID && !history.count(a)) check(t->s_axil_rdata_o == 0, msg);  // RAZ, or SLVERR's 0
        if (history.count(a)) {  // some value between the acked and the issued writes
          bool ok = false;
          for (size_t n = lo; n <= hi && !ok; n++) ok = value_after(a, n) == t->s_axil_rdata_o;
          check(ok, msg);
        }
        r_got++;
      }
    }
    b_hold = t->s_axil_bvalid_o && !t->s_axil_bready_i;
    b_prev = t->s_axil_bresp_o;
    r_hold = t->s_axil_rvalid_o && !t->s_axil_rready_i;
    r_prev_data = t->s_axil_rdata_o;
    r_prev_resp = t->s_axil_rresp_o;
    tb.tick();
    cycle++;
    if (aw) {
      t->s_axil_awvalid_i = 0;
      aw_sent++;
    }
    if (w) {
      t->s_axil_wvalid_i = 0;
      w_sent++;
    }
    if (ar) {
      t->s_axil_arvalid_i = 0;
      reads.push_back({read_addr[ar_sent], b_got});
      ar_sent++;
    }
  }
  check(b_got == writes.size() && r_got == read_addr.size(),
        "all transactions complete within " + std::to_string(limit) + " cycles (got " +
            std::to_string(b_got) + " B, " + std::to_string(r_got) + " R)");
  // the final register values are those of the last writes
  for (uint32_t a : rw_regs) {
    t->s_axil_araddr_i = a;
    t->s_axil_arvalid_i = 1;
    t->s_axil_rready_i = 1;
    uint32_t got = 0;
    for (int i = 0; i < 10; i++) {
      tb.eval();
      if (t->s_axil_arvalid_i && t->s_axil_arready_o) {
        tb.tick();
        t->s_axil_arvalid_i = 0;
        tb.eval();
        got = t->s_axil_rdata_o;
        tb.tick();
        break;
      }
      tb.tick();
    }
    check(got == history[a].back(), "final value of a read/write register");
  }
  std::printf("tb_axil: %llu cycles, %zu writes, %zu reads\n", (unsigned long long)cycle,
              writes.size(), read_addr.size());
  tb.close_trace();
  std::printf("%d passed, %d failed\n", g_pass, g_fail);
  return g_fail != 0;
}
