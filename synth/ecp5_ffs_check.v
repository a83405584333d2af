// SPDX-License-Identifier: Apache-2.0
// make synth-check: every kind of flop with an active-low reset that synth/ecp5_ffs.ys maps onto the
// flop's own reset inverter (TRELLIS_FF LSRMUX = "INV", synth/ecp5_ff_lsrinv.v): asynchronous
// reset to 0 and to 1, with and without an enable of either polarity, and the same with a
// synchronous reset. synth/s24flow/quick.py maps s24_ffs_check as the core is mapped, renames it
// s24_ffs_check_syn, flattens Yosys's ECP5 cell models into it, and s24_ffs_check_tb (under
// S24_FFS_TB) compares the two on random inputs.
`default_nettype none

module s24_ffs_check (
  input  wire       clk_i,
  input  wire       rst_ni,   // asynchronous, active low
  input  wire       srst_ni,  // synchronous, active low
  input  wire       en_i,
  input  wire [7:0] d_i,
  output wire [11:0] q_o
);
  reg a0, a1, e0, e1, n0, n1, s0, s1, se0, se1, sn0, sn1;
  always @(posedge clk_i or negedge rst_ni) if (!rst_ni) a0 <= 1'b0; else a0 <= d_i[0];
  always @(posedge clk_i or negedge rst_ni) if (!rst_ni) a1 <= 1'b1; else a1 <= d_i[1];
  always @(posedge clk_i or negedge rst_ni) if (!rst_ni) e0 <= 1'b0; else if (en_i) e0 <= d_i[2];
  always @(posedge clk_i or negedge rst_ni) if (!rst_ni) e1 <= 1'b1; else if (en_i) e1 <= d_i[3];
  always @(posedge clk_i or negedge rst_ni) if (!rst_ni) n0 <= 1'b0; else if (!en_i) n0 <= d_i[4];
  always @(posedge clk_i or negedge rst_ni) if (!rst_ni) n1 <= 1'b1; else if (!en_i) n1 <= d_i[5];
  always @(posedge clk_i) if (!srst_ni) s0 <= 1'b0; else s0 <= d_i[6];
  always @(posedge clk_i) if (!srst_ni) s1 <= 1'b1; else s1 <= d_i[7];
  always @(posedge clk_i) if (!srst_ni) se0 <= 1'b0; else if (en_i) se0 <= d_i[0];
  always @(posedge clk_i) if (!srst_ni) se1 <= 1'b1; else if (en_i) se1 <= d_i[1];
  always @(posedge clk_i) if (!srst_ni) sn0 <= 1'b0; else if (!en_i) sn0 <= d_i[2];
  always @(posedge clk_i) if (!srst_ni) sn1 <= 1'b1; else if (!en_i) sn1 <= d_i[3];
  assign q_o = {a0, a1, e0, e1, n0, n1, s0, s1, se0, se1, sn0, sn1};
endmodule

`ifdef S24_FFS_TB
module s24_ffs_check_tb;
  reg         clk = 1'b0, rst_n = 1'b0, srst_n = 1'b0, en = 1'b0;
  reg  [7:0]  d = 8'd0;
  wire [11:0] q_rtl, q_syn;
  integer     seed, state, i, bad;   // state: $random's, started from seed
  s24_ffs_check     u_rtl (.clk_i(clk), .rst_ni(rst_n), .srst_ni(srst_n), .en_i(en), .d_i(d), .q_o(q_rtl));
  s24_ffs_check_syn u_syn (.clk_i(clk), .rst_ni(rst_n), .srst_ni(srst_n), .en_i(en), .d_i(d), .q_o(q_syn));
  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    state = seed;
    bad = 0;
    // the first cycles are in reset (asynchronous and synchronous): both start from known values
    for (i = 0; i < 20000; i = i + 1) begin
      #1;
      if (i >= 2) begin
        rst_n  = ($random(state) % 16) != 0;   // an asynchronous reset pulse about every 16 cycles
        srst_n = ($random(state) % 4) != 0;
        en     = $random(state);
        d      = $random(state);
      end
      #1;
      if (i >= 2 && q_rtl !== q_syn) bad = bad + 1;   // after an asynchronous reset, before the edge
      clk = 1'b1;
      #1;
      if (i >= 2 && q_rtl !== q_syn) bad = bad + 1;   // after the edge
      clk = 1'b0;
    end
    $display("s24_ffs_check: seed %0d, 20000 cycles, %0d mismatches", seed, bad);
    $finish;
  end
endmodule
`endif

`resetall
