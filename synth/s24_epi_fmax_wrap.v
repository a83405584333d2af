// SPDX-License-Identifier: Apache-2.0
// Place-and-route harness of s24_epilogue (synth/epilogue.sh): every input from a flop of a serial
// scan chain, every output folded into a shift/XOR signature chain, so the block fits behind 4 pins.
// Used only for the epilogue's Fmax; its area is taken from the block alone.
`default_nettype none
`include "s24_scan.vh"  // S24_SCAN_CHAINS

module s24_epi_fmax_wrap #(
  parameter integer NumRows = 8,    // tile rows
  parameter integer NumCols = 8,    // int32 lanes per result row
  parameter integer Lanes   = 4,    // lanes requantized per cycle
  parameter integer Depth   = 512   // parameter RAM rows
) (
  input  wire clk_i,   // the only clock
  input  wire rst_ni,  // active-low reset pin, synchronised below
  input  wire scan_i,  // serial input of the scan chain that feeds the inputs
  output wire scan_o   // serial signature of every output
);
  localparam integer RBits = NumCols * 32;
  localparam integer Aw = (Depth > 1) ? $clog2(Depth) : 1;
  // clear, start, en, zo, act_min, act_max, col_tiles, pw_en, pw_addr, bias, mult, shift, s_valid,
  // s_data, s_last, m_ready, round
  localparam integer InBits = 3 + 8 + 8 + 8 + 32 + 1 + Aw + 32 + 31 + 6 + 1 + RBits + 1 + 1 + 1;
  // s_ready, m_valid, m_data, m_last, busy
  localparam integer OutBits = 2 + RBits + 2;

  `S24_SCAN_CHAINS(InBits, OutBits, out)

  s24_epilogue #(
    .NumRows (NumRows),
    .NumCols (NumCols),
    .Lanes   (Lanes),
    .Depth   (Depth)
  ) u_epi (
    .clk_i           (clk_i),
    .rst_ni          (rst_n),
    .clear_i         (in_q[0]),
    .start_i         (in_q[1]),
    .cfg_en_i        (in_q[2]),
    .cfg_round_i     (in_q[132 + Aw + RBits]),
    .cfg_zo_i        (in_q[3 +: 8]),
    .cfg_act_min_i   (in_q[11 +: 8]),
    .cfg_act_max_i   (in_q[19 +: 8]),
    .cfg_col_tiles_i (in_q[27 +: 32]),
    .pw_en_i         (in_q[59]),
    .pw_addr_i       (in_q[60 +: Aw]),
    .pw_bias_i       (in_q[60 + Aw +: 32]),
    .pw_mult_i       (in_q[92 + Aw +: 31]),
    .pw_shift_i      (in_q[123 + Aw +: 6]),
    .s_valid_i       (in_q[129 + Aw]),
    .s_ready_o       (out[0]),
    .s_data_i        (in_q[130 + Aw +: RBits]),
    .s_last_i        (in_q[130 + Aw + RBits]),
    .m_valid_o       (out[1]),
    .m_ready_i       (in_q[131 + Aw + RBits]),
    .m_data_o        (out[2 +: RBits]),
    .m_last_o        (out[2 + RBits]),
    .busy_o          (out[3 + RBits])
  );
endmodule
`resetall
