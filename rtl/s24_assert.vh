// SPDX-License-Identifier: Apache-2.0
// s24_assert.vh: the one spelling of the RTL's formal properties (include inside `ifdef FORMAL).
//
//   `S24_ASSERT(cond, "message")  a property of this module's own outputs and state
//   `S24_ASSUME(cond, "message")  a property of this module's inputs: an assumption when a solver
//                                 proves this module as the top, an assertion everywhere else
//                                 (the ZipCPU habit: a parent checks what its child assumes)
//   `S24_COVER(cond)              a state a proof must show reachable (SymbiYosys cover mode)
//   `S24_FV_START_IN_RESET(clk, rst_n)  the proof starts with the reset asserted (module under
//                                 proof only; nothing elsewhere)
//
// Use the first three in always blocks (clocked ones sample the values before the edge);
// wrap `cond` in parentheses when it holds a comma.
//
// Defines:
//   FORMAL                 enables the properties at all: Verilator --assert -DFORMAL runs them
//                          as immediate simulation assertions (assert ... else $error)
//   S24_SBY                set by the .sby files (formal/): plain assert/assume/cover that
//                          `read_verilog -formal` accepts (Yosys rejects the `else` form)
//   S24_FV_TOP_<MODULE>    set by a .sby for the module(s) whose inputs are the proof's inputs
//
// Each module's formal tail starts with (the include is re-read on purpose, no include guard):
//   `ifdef S24_FV_TOP_S24_FIFO
//     `define S24_FV_ASSUME_INPUTS
//   `endif
//   `include "s24_assert.vh"
// This file undefines S24_FV_ASSUME_INPUTS again, so it never leaks into the next module.
`ifdef S24_ASSERT
  `undef S24_ASSERT
  `undef S24_ASSUME
  `undef S24_COVER
  `undef S24_FV_START_IN_RESET
  `undef S24_FV_LIVE
  `undef S24_FV_MAXIMA
`endif
// `S24_FV_LIVE(clk, rst_n): declares fv_live_q, 1 from the first clock edge out of reset on (the
// properties sample it instead of the asynchronous reset); one spelling for every formal tail.
`define S24_FV_LIVE(clk, rst_n) \
  reg fv_live_q; \
  always @(posedge clk or negedge rst_n) begin \
    if (!rst_n) fv_live_q <= 1'b0; \
    else        fv_live_q <= 1'b1; \
  end
// `S24_FV_MAXIMA(clk, rst_n, load, max0, max1, max0_reset, first_ok): the contract on the two
// loop maxima of a nested counter (s24_cnt2, s24_inq), assumed by the module (asserted by its
// parent): they hold their reset values (max0_reset, 0) until the first load, change only in the
// cycle after a load, and in that cycle first_ok holds (the first-pass flags given with the load
// describe them). Declares fv_no_load_q (no load since reset), fv_past_load_q (load in the
// previous cycle) and fv_max0_q / fv_max1_q (the maxima of the previous cycle); after S24_FV_LIVE.
`define S24_FV_MAXIMA(clk, rst_n, load, max0, max1, max0_reset, first_ok) \
  reg        fv_no_load_q, fv_past_load_q; \
  reg [31:0] fv_max0_q, fv_max1_q; \
  always @(posedge clk or negedge rst_n) begin \
    if (!rst_n) begin \
      fv_no_load_q   <= 1'b1; \
      fv_past_load_q <= 1'b0; \
    end else begin \
      fv_past_load_q <= (load); \
      if (load) fv_no_load_q <= 1'b0; \
    end \
  end \
  always @(posedge clk) begin \
    fv_max0_q <= (max0); \
    fv_max1_q <= (max1); \
    if (fv_live_q && fv_no_load_q) begin \
      `S24_ASSUME((max0) == (max0_reset) && (max1) == 32'd0, "maxima away from their reset values before the first load") \
    end \
    if (fv_live_q && !fv_past_load_q) begin \
      `S24_ASSUME((max0) == fv_max0_q && (max1) == fv_max1_q, "maxima changed while counting") \
    end \
    if (fv_live_q && fv_past_load_q) begin \
      `S24_ASSUME(first_ok, "first-pass flags given with the load disagree with the maxima") \
    end \
  end
`ifdef S24_SBY
  `define S24_ASSERT(c, m) assert (c);
  `ifdef S24_FV_ASSUME_INPUTS
    `define S24_ASSUME(c, m) assume (c);
    `define S24_FV_START_IN_RESET(clk, rst_n) \
      reg fv_first_q = 1'b1; \
      always @(posedge clk) fv_first_q <= 1'b0; \
      always @* if (fv_first_q) assume (!rst_n);
  `else
    `define S24_ASSUME(c, m) assert (c);
    `define S24_FV_START_IN_RESET(clk, rst_n)
  `endif
  `define S24_COVER(c) cover (c);
`else
  `define S24_ASSERT(c, m) assert (c) else $error(m);
  `define S24_ASSUME(c, m) assert (c) else $error(m);
  `define S24_COVER(c)
  `define S24_FV_START_IN_RESET(clk, rst_n)
`endif
`ifdef S24_FV_ASSUME_INPUTS
  `undef S24_FV_ASSUME_INPUTS
`endif
