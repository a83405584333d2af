// SPDX-License-Identifier: Apache-2.0
// Place-and-route harness: s24_core with every input driven by a flop of a serial scan chain and
// every output folded into a flop of a shift/XOR signature chain, so the whole core fits behind 4 pins.
// Used only by synth/ for Fmax; area figures are taken from the core alone.
`default_nettype none
`include "s24_defaults.vh"  // S24_CORE_PARAMS
`include "s24_scan.vh"      // S24_SCAN_CHAINS

module s24_fmax_wrap #(
  parameter integer NumRows   = 4,  // PE array rows
  parameter integer NumCols   = 4,  // PE array columns
  parameter integer SparseN   = 2,  // kept values per group (n of n:m)
  parameter integer SparseM   = 4,  // group size (m of n:m); SparseN == SparseM is the dense baseline
  parameter integer DataWidth = 8,  // operand width
  parameter integer AccWidth  = 32, // accumulator width
  parameter integer PairMode  = 1   // the core's pair mode (0: the 2:m-only core)
) (
  input  wire clk_i,   // the only clock
  input  wire rst_ni,  // active-low reset pin, synchronised below
  input  wire scan_i,  // serial input of the scan chain that feeds the core inputs
  output wire scan_o   // serial signature of every core output
);
  localparam integer IdxWidth = (SparseN == SparseM) ? 0 : $clog2(SparseM);
  localparam integer WBits    = NumRows * SparseN * (DataWidth + IdxWidth);
  localparam integer ABits    = NumCols * SparseM * DataWidth;
  localparam integer RBits    = NumCols * AccWidth;
  // core inputs: clear, start, cfg_beats, cfg_tiles, w_valid, w_data, a_valid, a_data, r_ready,
  // cfg_pair (the pair mode of a core built with it; ignored by the 2:m-only core)
  localparam integer InBits   = 1 + 1 + 32 + 32 + 1 + WBits + 1 + ABits + 1 + 1;
  // core outputs: busy, done, err_meta, w_ready, a_ready, r_valid, r_data, r_last, 5 counters
  localparam integer OutBits  = 6 + RBits + 1 + 5 * 32;

  `S24_SCAN_CHAINS(InBits, OutBits, core_out)

  // S24_WRAP_MAPPED: the core is an already synthesized netlist (its parameters are baked in)
`ifdef S24_WRAP_MAPPED
  s24_core u_core (
`else
  s24_core #(`S24_CORE_PARAMS) u_core (
`endif
    .clk_i         (clk_i),
    .rst_ni        (rst_n),
    .clear_i       (in_q[0]),
    .start_i       (in_q[1]),
    .cfg_beats_i   (in_q[2 +: 32]),
    .cfg_tiles_i   (in_q[34 +: 32]),
    .busy_o        (core_out[0]),
    .done_o        (core_out[1]),
    .err_meta_o    (core_out[2]),
    .w_valid_i     (in_q[66]),
    .w_ready_o     (core_out[3]),
    .w_data_i      (in_q[67 +: WBits]),
    .a_valid_i     (in_q[67 + WBits]),
    .a_ready_o     (core_out[4]),
    .a_data_i      (in_q[68 + WBits +: ABits]),
    .r_valid_o     (core_out[5]),
    .r_ready_i     (in_q[68 + WBits + ABits]),
    .cfg_pair_i    (in_q[69 + WBits + ABits]),
    .r_data_o      (core_out[6 +: RBits]),
    .r_last_o      (core_out[6 + RBits]),
    .cnt_cycles_o  (core_out[7 + RBits +: 32]),
    .cnt_beats_o   (core_out[39 + RBits +: 32]),
    .cnt_stall_w_o (core_out[71 + RBits +: 32]),
    .cnt_stall_a_o (core_out[103 + RBits +: 32]),
    .cnt_stall_r_o (core_out[135 + RBits +: 32])
  );
endmodule

`resetall
