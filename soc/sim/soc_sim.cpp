// SPDX-License-Identifier: Apache-2.0
// soc_sim: the Verilated edge SoC (soc/soc.py --target sim) as a batch program: loads a memory
// image, runs the firmware for at most a budget of simulated cycles, dumps memory, and says how
// it ended in its exit status. No tty, no files but the ones asked for, nothing left behind.
//
//   build/soc/soc_sim --elf FW.elf [--load ADDR=FILE]... [--dump ADDR:LEN=FILE]...
//                     [--max-cycles N] [--uart FILE] [--trace FILE.fst] [--stats] [--profile FILE]
//
// --elf loads the PT_LOAD segments of an ELF32 RISC-V executable (the firmware); --rom FILE puts a
// raw binary at the ROM (default: build/soc/boot.bin is given by the caller); --load puts a raw
// file at a bus address in the ROM or the SDRAM (the model, the input, a job descriptor); after the
// firmware writes the exit register each --dump writes LEN bytes from ADDR to FILE (a temporary
// file beside it, renamed: all dumps or none). The UART's bytes go to --uart (default stdout).
// FILE may be fd:N, a descriptor the caller opened (an anonymous memory file of the library:
// read from its start, written from its start, no temporary).
// Memory is reached through the model's own arrays (names from build/soc/gen/soc_mem.h), so loading
// and dumping take no simulated time; the firmware flushes its caches before it exits.
//
// Exit status: 0 the firmware exited with 0; 1 it exited with 1..255 (its own failure);
// 2 the cycle budget ran out (timeout); 3 bad usage, an unreadable or misplaced file, a failed
// dump; 4 crash: the firmware trapped (exit code >= 256, written by its trap handler: 0x100 |
// mcause) or the RTL stopped ($finish); 128 + signal after SIGINT / SIGTERM / SIGHUP (dumps not
// written, temporaries removed).
// --stats prints `key: value` lines on stderr: cycles, exit_code, wall_s, cycles_per_s.
// --profile FILE writes, after the run, one line `PC cycles` per program counter: every cycle is
// counted against the instruction in VexRiscv's last pipeline stage (soc/profile.py folds the
// lines into functions with the ELF's symbols).
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <verilated.h>
#if VM_TRACE
#include <verilated_fst_c.h>
#endif

#include "Vsim.h"
#include "Vsim___024root.h"
#include "Vsim_VexRiscv.h"
#include "Vsim_sim.h"
#include "soc_mem.h"

namespace {

volatile sig_atomic_t g_signal = 0;
void on_signal(int sig) { g_signal = sig; }

enum { EXIT_OK = 0, EXIT_FW = 1, EXIT_TIMEOUT = 2, EXIT_USAGE = 3, EXIT_CRASH = 4 };

struct Dump {
  uint32_t addr, len;
  std::string path, tmp;
};

[[noreturn]] void usage_error(const char *fmt, const char *arg) {
  std::fprintf(stderr, "soc_sim: ");
  std::fprintf(stderr, fmt, arg);
  std::fprintf(stderr, "\n");
  std::exit(EXIT_USAGE);
}

bool parse_u32(const char *s, uint32_t *out) {
  char *end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s, &end, 0);
  if (errno || end == s || *end || v > 0xffffffffull) return false;
  *out = (uint32_t)v;
  return true;
}

class Soc {
 public:
  explicit Soc(VerilatedContext *ctx) : top_(new Vsim(ctx)) {}
  Vsim *top() { return top_.get(); }

  // One byte of the simulated memories; false outside them.
  bool poke(uint32_t addr, uint8_t v) {
    uint8_t *p = byte_at(addr);
    if (!p) return false;
    *p = v;
    return true;
  }
  bool peek(uint32_t addr, uint8_t *v) {
    uint8_t *p = byte_at(addr);
    if (!p) return false;
    *v = *p;
    return true;
  }

 private:
  // The ROM: 32-bit words. The SDRAM: four banks of 16-bit words, LiteDRAM's ROW_BANK_COL
  // mapping (litedram/phy/model.py SDRAMPHYModel.__prepare_bank_init_data): 16-bit word w of the
  // SDRAM is column w % ncols, bank (w / ncols) % nbanks, row w / (ncols * nbanks); little endian.
  uint8_t *byte_at(uint32_t addr) {
    auto *r = top_->rootp->sim;  // Verilator keeps the top module "sim" as a cell
    if (addr - SOC_ROM_BASE < SOC_ROM_SIZE) {
      uint32_t o = addr - SOC_ROM_BASE;
      return reinterpret_cast<uint8_t *>(&r->__PVT__s24soc_rom[o >> 2]) + (o & 3);
    }
    if (addr - SOC_SDRAM_BASE < SOC_SDRAM_SIZE) {
      uint32_t w = (addr - SOC_SDRAM_BASE) >> 1;
      uint32_t col = w & ((1u << SOC_SDRAM_COLBITS) - 1);
      uint32_t bank = (w >> SOC_SDRAM_COLBITS) & ((1u << SOC_SDRAM_BANKBITS) - 1);
      uint32_t row = w >> (SOC_SDRAM_COLBITS + SOC_SDRAM_BANKBITS);
      uint32_t i = (row << SOC_SDRAM_COLBITS) | col;
      uint16_t *word = nullptr;
      switch (bank) {
        case 0: word = &r->__PVT__s24soc_sdram_bank0[i]; break;
        case 1: word = &r->__PVT__s24soc_sdram_bank1[i]; break;
        case 2: word = &r->__PVT__s24soc_sdram_bank2[i]; break;
        default: word = &r->__PVT__s24soc_sdram_bank3[i]; break;
      }
      return reinterpret_cast<uint8_t *>(word) + (addr & 1);
    }
    return nullptr;
  }
  std::unique_ptr<Vsim> top_;
};

// N of a path fd:N (a descriptor given by the caller), else -1
int fd_of(const char *path) {
  if (std::strncmp(path, "fd:", 3) != 0) return -1;
  char *end = nullptr;
  long v = std::strtol(path + 3, &end, 10);
  return (end != path + 3 && *end == '\0' && v >= 0 && v < 1024) ? (int)v : -1;
}

std::vector<uint8_t> read_file(const char *path) {
  const int fd = fd_of(path);
  if (fd >= 0) {
    std::vector<uint8_t> data;
    uint8_t buf[65536];
    off_t at = 0;
    for (;;) {
      ssize_t n = pread(fd, buf, sizeof buf, at);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) usage_error("cannot read %s", path);
      if (n == 0) break;
      data.insert(data.end(), buf, buf + n);
      at += n;
    }
    return data;
  }
  FILE *f = std::fopen(path, "rb");
  if (!f) usage_error("cannot open %s", path);
  std::vector<uint8_t> data;
  uint8_t buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.insert(data.end(), buf, buf + n);
  bool bad = std::ferror(f);
  std::fclose(f);
  if (bad) usage_error("cannot read %s", path);
  return data;
}

void load_bytes(Soc &soc, uint32_t addr, const uint8_t *p, size_t n, const char *what) {
  for (size_t i = 0; i < n; i++) {
    if (!soc.poke(addr + (uint32_t)i, p[i])) {
      char msg[256];
      std::snprintf(msg, sizeof msg, "%s: byte %zu lands at 0x%08" PRIx32
                    ", outside the ROM and the SDRAM", what, i, (uint32_t)(addr + i));
      usage_error("%s", msg);
    }
  }
}

uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

// The PT_LOAD segments of an ELF32 little-endian RISC-V executable; returns its entry.
void load_elf(Soc &soc, const char *path) {
  std::vector<uint8_t> f = read_file(path);
  if (f.size() < 52 || std::memcmp(f.data(), "\x7f" "ELF", 4) || f[4] != 1 || f[5] != 1 ||
      le16(&f[18]) != 243) {
    usage_error("%s: not an ELF32 little-endian RISC-V file", path);
  }
  uint32_t phoff = le32(&f[28]);
  uint16_t phentsize = le16(&f[42]), phnum = le16(&f[44]);
  for (uint16_t i = 0; i < phnum; i++) {
    uint64_t ph = (uint64_t)phoff + (uint64_t)i * phentsize;
    if (ph + 32 > f.size()) usage_error("%s: program header out of the file", path);
    const uint8_t *h = &f[ph];
    if (le32(h) != 1) continue;  // PT_LOAD
    uint32_t off = le32(h + 4), paddr = le32(h + 12), filesz = le32(h + 16);
    if ((uint64_t)off + filesz > f.size()) usage_error("%s: segment out of the file", path);
    load_bytes(soc, paddr, &f[off], filesz, path);
  }
}

}  // namespace

int main(int argc, char **argv) {
  const char *elf = nullptr, *rom = nullptr, *uart_path = nullptr, *trace_path = nullptr;
  const char *profile_path = nullptr;
  uint64_t max_cycles = 2000000000ull;
  bool stats = false;
  std::vector<std::pair<uint32_t, std::string>> loads;
  std::vector<Dump> dumps;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&](const char *name) -> const char * {
      if (i + 1 >= argc) usage_error("%s needs a value", name);
      return argv[++i];
    };
    if (a == "--elf") {
      elf = value("--elf");
    } else if (a == "--rom") {
      rom = value("--rom");
    } else if (a == "--load") {
      std::string v = value("--load");
      size_t eq = v.find('=');
      uint32_t addr;
      if (eq == std::string::npos || !parse_u32(v.substr(0, eq).c_str(), &addr)) {
        usage_error("--load takes ADDR=FILE, not %s", v.c_str());
      }
      loads.emplace_back(addr, v.substr(eq + 1));
    } else if (a == "--dump") {
      std::string v = value("--dump");
      size_t colon = v.find(':'), eq = v.find('=');
      Dump d;
      if (colon == std::string::npos || eq == std::string::npos || eq < colon ||
          !parse_u32(v.substr(0, colon).c_str(), &d.addr) ||
          !parse_u32(v.substr(colon + 1, eq - colon - 1).c_str(), &d.len) || eq + 1 == v.size()) {
        usage_error("--dump takes ADDR:LEN=FILE, not %s", v.c_str());
      }
      d.path = v.substr(eq + 1);
      dumps.push_back(d);
    } else if (a == "--max-cycles") {
      char *end = nullptr;
      const char *v = value("--max-cycles");
      errno = 0;
      max_cycles = std::strtoull(v, &end, 0);
      if (errno || end == v || *end || max_cycles == 0) usage_error("bad --max-cycles %s", v);
    } else if (a == "--uart") {
      uart_path = value("--uart");
    } else if (a == "--trace") {
      trace_path = value("--trace");
    } else if (a == "--profile") {
      profile_path = value("--profile");
    } else if (a == "--stats") {
      stats = true;
    } else if (a == "--help" || a == "-h") {
      std::printf(
          "usage: soc_sim --elf FW.elf [--rom BOOT.bin] [--load ADDR=FILE]... [--dump ADDR:LEN=FILE]...\n"
          "               [--max-cycles N] [--uart FILE] [--trace FILE.fst] [--stats] [--profile FILE]\n"
          "exit: 0 ok, 1 firmware failure, 2 timeout, 3 usage/load/dump error, 4 crash,\n"
          "      128+N signal N\n");
      return 0;
    } else {
      usage_error("unknown argument %s (see --help)", a.c_str());
    }
  }
  if (!elf) usage_error("%s", "--elf FW.elf is required");

  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);

  auto ctx = std::make_unique<VerilatedContext>();
  ctx->threads(1);
  ctx->fatalOnError(false);
  const char *vargs[] = {"soc_sim"};
  ctx->commandArgs(1, vargs);
#if VM_TRACE
  ctx->traceEverOn(trace_path != nullptr);
#endif
  Soc soc(ctx.get());
  Vsim *top = soc.top();

  top->serial_sink_valid = 0;
  top->serial_sink_data = 0;
  top->serial_source_ready = 1;
  top->sim_trace = 0;
  top->sys_rst = 1;
  top->sys_clk = 0;
  top->eval();  // the initial blocks ($readmemh of LiteX's identifier ROM) run before the images land

  // Every memory starts at zero, then the images
  for (uint32_t a = 0; a < SOC_ROM_SIZE; a++) soc.poke(SOC_ROM_BASE + a, 0);
  if (rom) {
    std::vector<uint8_t> d = read_file(rom);
    load_bytes(soc, SOC_ROM_BASE, d.data(), d.size(), rom);
  }
  load_elf(soc, elf);
  for (auto &l : loads) {
    std::vector<uint8_t> d = read_file(l.second.c_str());
    load_bytes(soc, l.first, d.data(), d.size(), l.second.c_str());
  }
  for (auto &d : dumps) {
    uint8_t dummy;
    if (d.len && (!soc.peek(d.addr, &dummy) || !soc.peek(d.addr + d.len - 1, &dummy))) {
      usage_error("--dump %s: range outside the ROM and the SDRAM", d.path.c_str());
    }
  }

  FILE *uart = stdout;
  if (uart_path && fd_of(uart_path) >= 0) {
    uart = fdopen(dup(fd_of(uart_path)), "ab");
    if (!uart) usage_error("cannot write %s", uart_path);
  } else if (uart_path && std::strcmp(uart_path, "-") != 0) {
    uart = std::fopen(uart_path, "wb");
    if (!uart) usage_error("cannot write %s", uart_path);
  }
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> trace;
  if (trace_path) {
    trace.reset(new VerilatedFstC);
    top->trace(trace.get(), 99);
    trace->open(trace_path);
  }
#else
  if (trace_path) usage_error("%s", "--trace: this build has no tracing (make soc SOC_TRACE=1)");
#endif

  auto t0 = std::chrono::steady_clock::now();
  uint64_t cycle = 0;
  int status = EXIT_TIMEOUT;
  uint32_t exit_code = 0;
  const uint64_t reset_cycles = 16;
  std::unordered_map<uint32_t, uint64_t> profile;
  const Vsim_VexRiscv *cpu = top->rootp->sim->VexRiscv;
  while (cycle < max_cycles + reset_cycles) {
    for (int clk = 0; clk <= 1; clk++) {  // the clock low, then high: one rising edge
      top->sys_clk = clk;
      top->eval();
#if VM_TRACE
      if (trace) trace->dump(ctx->time());
#endif
      ctx->timeInc(5);
    }
    cycle++;
    if (cycle == reset_cycles) top->sys_rst = 0;
    if (profile_path) profile[cpu->lastStagePc]++;
    if (top->serial_source_valid) std::fputc(top->serial_source_data, uart);
    if (top->sim_exit_valid) {
      exit_code = top->sim_exit_code;
      status = exit_code == 0 ? EXIT_OK : exit_code < 256 ? EXIT_FW : EXIT_CRASH;
      break;
    }
    if (ctx->gotFinish()) {
      status = EXIT_CRASH;
      std::fprintf(stderr, "soc_sim: the RTL stopped ($finish) at cycle %" PRIu64 "\n", cycle);
      break;
    }
    if ((cycle & 4095) == 0 && g_signal) break;
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fflush(uart);
  if (uart != stdout) std::fclose(uart);
#if VM_TRACE
  if (trace) trace->close();
#endif
  top->final();
  uint64_t run_cycles = cycle > reset_cycles ? cycle - reset_cycles : 0;

  if (g_signal) {
    std::fprintf(stderr, "soc_sim: stopped by signal %d at cycle %" PRIu64 "\n", (int)g_signal,
                 run_cycles);
    return 128 + g_signal;
  }
  if (status == EXIT_TIMEOUT) {
    std::fprintf(stderr, "soc_sim: timeout: no exit after %" PRIu64 " cycles\n", max_cycles);
  } else if (status == EXIT_CRASH && exit_code >= 256) {
    std::fprintf(stderr, "soc_sim: the firmware trapped (mcause %" PRIu32 ") at cycle %" PRIu64 "\n",
                 exit_code & 0xffu, run_cycles);
  }
  if (status == EXIT_OK || status == EXIT_FW) {  // dumps only of a firmware that ended by itself
    bool ok = true;
    for (auto &d : dumps) {
      const int fd = fd_of(d.path.c_str());
      if (fd >= 0) {  // the caller's descriptor: written in place from its start
        std::vector<uint8_t> buf(d.len);
        for (uint32_t i = 0; i < d.len; i++) soc.peek(d.addr + i, &buf[i]);
        size_t at = 0;
        ok = ftruncate(fd, 0) == 0;
        while (ok && at < buf.size()) {
          ssize_t n = pwrite(fd, buf.data() + at, buf.size() - at, (off_t)at);
          if (n < 0 && errno == EINTR) continue;
          ok = n > 0;
          if (ok) at += (size_t)n;
        }
        if (!ok) break;
        continue;
      }
      d.tmp = d.path + ".soc_sim.tmp";
      FILE *f = std::fopen(d.tmp.c_str(), "wb");
      if (!f) {
        ok = false;
        break;
      }
      for (uint32_t i = 0; i < d.len && ok; i++) {
        uint8_t v = 0;
        soc.peek(d.addr + i, &v);
        ok = std::fputc(v, f) != EOF;
      }
      ok = (std::fclose(f) == 0) && ok;
      if (!ok) break;
    }
    for (auto &d : dumps) {
      if (ok && !d.tmp.empty() && std::rename(d.tmp.c_str(), d.path.c_str()) != 0) ok = false;
    }
    if (!ok) {
      for (auto &d : dumps) {
        if (!d.tmp.empty()) std::remove(d.tmp.c_str());
      }
      std::fprintf(stderr, "soc_sim: cannot write the dumps\n");
      status = EXIT_USAGE;
    }
  }
  if (profile_path && status != EXIT_USAGE) {
    std::vector<std::pair<uint32_t, uint64_t>> v(profile.begin(), profile.end());
    std::sort(v.begin(), v.end());
    FILE *f = std::fopen(profile_path, "w");
    if (f) {
      for (auto &e : v) std::fprintf(f, "%08" PRIx32 " %" PRIu64 "\n", e.first, e.second);
      std::fclose(f);
    } else {
      std::fprintf(stderr, "soc_sim: cannot write %s\n", profile_path);
    }
  }
  if (stats) {
    std::fprintf(stderr, "cycles: %" PRIu64 "\nexit_code: %" PRIu32 "\nwall_s: %.3f\ncycles_per_s: %.0f\n",
                 run_cycles, exit_code, wall, wall > 0 ? run_cycles / wall : 0.0);
  }
  return status;
}
