// SPDX-License-Identifier: Apache-2.0
// testb.h: Verilator test harness (after ZipCPU's TESTB): context, tick(), reset(), FST trace on +trace.
#ifndef S24_TESTB_H_
#define S24_TESTB_H_

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include <verilated.h>
#if VM_COVERAGE
#include <unistd.h>

#include <cstdlib>

#include <verilated_cov.h>
#endif
#include <verilated_fst_c.h>

template <class Dut>
class Testb {
 public:
  Testb(int argc, char **argv) : ctx_(new VerilatedContext) {
    // The models are Verilated single-threaded (no --threads): no worker pool, whose thread
    // (one per extra core by default) would fail to start under a process or thread limit
    // (ulimit -u, a container's pids limit) and only idle otherwise.
    ctx_->threads(1);
    ctx_->commandArgs(argc, argv);
    ctx_->fatalOnError(false);  // a failed assertion sets gotFinish(); the testbench reports it
    ctx_->traceEverOn(true);
    ctx_->randReset(2);  // unreset (datapath) registers start random, not a convenient 0
    dut_.reset(new Dut(ctx_.get()));
  }
  ~Testb() {
    close_trace();
    dut_->final();
#if VM_COVERAGE
    // Verilator 5.006 writes coverage only when asked (make coverage): to +coverage=FILE, or,
    // for models opened by a library (the co-simulation), one file per model in the directory
    // $S24_VLT_COVERAGE_DIR
    static unsigned n_written = 0;
    const char *arg = ctx_->commandArgsPlusMatch("coverage=");
    const char *dir = std::getenv("S24_VLT_COVERAGE_DIR");
    std::string path = (arg && *arg) ? std::string(arg + 10) : std::string();
    if (path.empty() && dir && *dir) {
      path = std::string(dir) + "/cov_" + std::to_string(getpid()) + "_" + std::to_string(n_written++) + ".dat";
    }
    if (!path.empty()) ctx_->coveragep()->write(path.c_str());
#endif
  }

  Dut *dut() { return dut_.get(); }
  VerilatedContext *ctx() { return ctx_.get(); }
  uint64_t cycles() const { return cycles_; }

  void open_trace(const std::string &path) {
    if (trace_) return;
    trace_.reset(new VerilatedFstC);
    dut_->trace(trace_.get(), 99);
    trace_->open(path.c_str());
    trace_path_ = path;
  }
  // Flushes and closes the dump (called before reporting a failure, so the waveform is kept).
  void close_trace() {
    if (!trace_) return;
    trace_->close();
    trace_.reset();
  }
  const std::string &trace_path() const { return trace_path_; }

  // Settles combinational outputs after the testbench changed inputs.
  void eval() { dut_->eval(); }

  // One clock cycle: inputs set before tick() are sampled at the rising edge.
  void tick() {
    dut_->clk_i = 0;
    dut_->eval();
    if (trace_) trace_->dump(ctx_->time());
    ctx_->timeInc(5);
    dut_->clk_i = 1;
    dut_->eval();
    if (trace_) trace_->dump(ctx_->time());
    ctx_->timeInc(5);
    ++cycles_;
  }

  // Asynchronous active-low reset: a falling edge before any clock edge, held for two cycles.
  void reset() {
    dut_->clk_i = 0;
    dut_->rst_ni = 1;
    dut_->eval();
    dut_->rst_ni = 0;
    dut_->eval();
    tick();
    tick();
    dut_->rst_ni = 1;
    tick();
  }

  // True once an RTL assertion or $finish fired.
  bool stopped() const { return ctx_->gotFinish() || ctx_->gotError(); }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Dut> dut_;
  std::unique_ptr<VerilatedFstC> trace_;
  std::string trace_path_;
  uint64_t cycles_ = 0;
};

#endif  // S24_TESTB_H_
