// SPDX-License-Identifier: Apache-2.0
// Place-and-route harness of the AXI top level (s24_top: AXI4-Lite registers, AXI4-Stream ports,
// core and fused epilogue), as synth/s24_fmax_wrap.v is the core's: every input from a flop of a
// serial scan chain, every output folded into a shift/XOR signature chain, 4 pins. Used only by
// synth/ for the Fmax of the IP as delivered; its area is taken from the top alone.
`default_nettype none
`include "s24_scan.vh"  // S24_SCAN_CHAINS

module s24_top_fmax_wrap #(
  parameter integer NumRows  = 8,  // PE array rows
  parameter integer NumCols  = 8,  // PE array columns
  parameter integer SparseN  = 2,  // kept values per group (n of n:m)
  parameter integer SparseM  = 4,  // group size (m of n:m)
  parameter integer PairMode = 1   // the core's pair mode (0: the 2:m-only core)
) (
  input  wire clk_i,   // the only clock
  input  wire rst_ni,  // active-low reset pin, synchronised below
  input  wire scan_i,  // serial input of the scan chain that feeds the top's inputs
  output wire scan_o   // serial signature of every output of the top
);
  // the stream widths of s24_top (its localparams, for DataWidth 8 and AccWidth 32)
  localparam integer IdxWidth = (SparseN == SparseM) ? 0 : $clog2(SparseM);
  localparam integer WBits    = ((NumRows * SparseN * (8 + IdxWidth) + 31) / 32) * 32;
  localparam integer ABits    = ((NumCols * SparseM * 8 + 31) / 32) * 32;
  localparam integer RBits    = NumCols * 32;
  // inputs: AXI4-Lite awaddr 8, awvalid, wdata 32, wstrb 4, wvalid, bready, araddr 8, arvalid,
  // rready (57); the weight and activation streams' tdata, tvalid, tlast; the results' tready
  localparam integer InBits   = 57 + WBits + 2 + ABits + 2 + 1;
  // outputs: awready, wready, bresp 2, bvalid, arready, rdata 32, rresp 2, rvalid (41); the two
  // tready; the results' tdata, tvalid, tlast; irq
  localparam integer OutBits  = 41 + 2 + RBits + 2 + 1;
  localparam integer W0       = 57;              // first bit of the weight stream in in_q
  localparam integer A0       = W0 + WBits + 2;  // first bit of the activation stream

  `S24_SCAN_CHAINS(InBits, OutBits, top_out)

  // S24_WRAP_MAPPED: the top is an already synthesized netlist (its parameters are baked in)
`ifdef S24_WRAP_MAPPED
  s24_top u_core (
`else
  s24_top #(.NumRows(NumRows), .NumCols(NumCols), .SparseN(SparseN), .SparseM(SparseM),
            .PairMode(PairMode)) u_core (
`endif
    .clk_i             (clk_i),
    .rst_ni            (rst_n),
    .s_axil_awaddr_i   (in_q[0 +: 8]),
    .s_axil_awvalid_i  (in_q[8]),
    .s_axil_awready_o  (top_out[0]),
    .s_axil_wdata_i    (in_q[9 +: 32]),
    .s_axil_wstrb_i    (in_q[41 +: 4]),
    .s_axil_wvalid_i   (in_q[45]),
    .s_axil_wready_o   (top_out[1]),
    .s_axil_bresp_o    (top_out[2 +: 2]),
    .s_axil_bvalid_o   (top_out[4]),
    .s_axil_bready_i   (in_q[46]),
    .s_axil_araddr_i   (in_q[47 +: 8]),
    .s_axil_arvalid_i  (in_q[55]),
    .s_axil_arready_o  (top_out[5]),
    .s_axil_rdata_o    (top_out[6 +: 32]),
    .s_axil_rresp_o    (top_out[38 +: 2]),
    .s_axil_rvalid_o   (top_out[40]),
    .s_axil_rready_i   (in_q[56]),
    .s_axis_w_tdata_i  (in_q[W0 +: WBits]),
    .s_axis_w_tvalid_i (in_q[W0 + WBits]),
    .s_axis_w_tready_o (top_out[41]),
    .s_axis_w_tlast_i  (in_q[W0 + WBits + 1]),
    .s_axis_a_tdata_i  (in_q[A0 +: ABits]),
    .s_axis_a_tvalid_i (in_q[A0 + ABits]),
    .s_axis_a_tready_o (top_out[42]),
    .s_axis_a_tlast_i  (in_q[A0 + ABits + 1]),
    .m_axis_r_tdata_o  (top_out[43 +: RBits]),
    .m_axis_r_tvalid_o (top_out[43 + RBits]),
    .m_axis_r_tready_i (in_q[A0 + ABits + 2]),
    .m_axis_r_tlast_o  (top_out[44 + RBits]),
    .irq_o             (top_out[45 + RBits])
  );
endmodule

`resetall
