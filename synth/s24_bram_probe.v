// SPDX-License-Identifier: Apache-2.0
// s24_bram_probe: one LFE5UM-85F DP16KD (512 x 36, pseudo dual port) between fabric flops, for
// synth/s24_bram_probe.py: what nextpnr-ecp5 gives its read data's clock-to-out and the Fmax of
// the flop it feeds, with the block RAM's output register off (`define S24_REGMODE "NOREG", as
// Yosys maps s24_rbuf's memory) and on ("OUTREG"). Not part of the core.
`default_nettype none
module s24_bram_probe (
  input  wire        clk_i,
  input  wire        we_i,
  input  wire        ce_i,
  input  wire        oce_i,
  input  wire [8:0]  wa_i,
  input  wire [8:0]  ra_i,
  input  wire [35:0] d_i,
  output reg  [35:0] q_o
);
  reg  [8:0]  wa_q, ra_q;
  reg  [35:0] d_q, r_q;
  reg         we_q, ce_q, oce_q;
  wire [35:0] do_w;
  always @(posedge clk_i) begin
    {wa_q, ra_q, d_q, we_q, ce_q, oce_q} <= {wa_i, ra_i, d_i, we_i, ce_i, oce_i};
    r_q <= do_w;   // the flop the block RAM's data out feeds (s24_rbuf's out_q)
    q_o <= r_q;
  end
  DP16KD #(
    .DATA_WIDTH_A(36), .DATA_WIDTH_B(36), .REGMODE_A("NOREG"), .REGMODE_B(`S24_REGMODE),
    .RESETMODE("SYNC"), .ASYNC_RESET_RELEASE("SYNC"), .CSDECODE_A("0b000"), .CSDECODE_B("0b000"),
    .GSR("DISABLED")
  ) u_ram (
    .CLKA(clk_i), .WEA(1'b1), .CEA(we_q), .OCEA(1'b0), .RSTA(1'b0), .CSA0(1'b0), .CSA1(1'b0), .CSA2(1'b0),
    // 36-bit writes: ADA0..3 are the byte enables
    .ADA0(1'b1), .ADA1(1'b1), .ADA2(1'b1), .ADA3(1'b1), .ADA4(wa_q[0]), .ADA5(wa_q[1]), .ADA6(wa_q[2]),
    .ADA7(wa_q[3]), .ADA8(wa_q[4]), .ADA9(wa_q[5]), .ADA10(wa_q[6]), .ADA11(wa_q[7]), .ADA12(wa_q[8]), .ADA13(1'b0),
    .DIA0(d_q[0]), .DIA1(d_q[1]), .DIA2(d_q[2]), .DIA3(d_q[3]), .DIA4(d_q[4]), .DIA5(d_q[5]), .DIA6(d_q[6]),
    .DIA7(d_q[7]), .DIA8(d_q[8]), .DIA9(d_q[9]), .DIA10(d_q[10]), .DIA11(d_q[11]), .DIA12(d_q[12]),
    .DIA13(d_q[13]), .DIA14(d_q[14]), .DIA15(d_q[15]), .DIA16(d_q[16]), .DIA17(d_q[17]),
    .DIB0(d_q[18]), .DIB1(d_q[19]), .DIB2(d_q[20]), .DIB3(d_q[21]), .DIB4(d_q[22]), .DIB5(d_q[23]),
    .DIB6(d_q[24]), .DIB7(d_q[25]), .DIB8(d_q[26]), .DIB9(d_q[27]), .DIB10(d_q[28]), .DIB11(d_q[29]),
    .DIB12(d_q[30]), .DIB13(d_q[31]), .DIB14(d_q[32]), .DIB15(d_q[33]), .DIB16(d_q[34]), .DIB17(d_q[35]),
    .CLKB(clk_i), .WEB(1'b0), .CEB(ce_q), .OCEB(oce_q), .RSTB(1'b0), .CSB0(1'b0), .CSB1(1'b0), .CSB2(1'b0),
    .ADB0(1'b0), .ADB1(1'b0), .ADB2(1'b0), .ADB3(1'b0), .ADB4(ra_q[0]), .ADB5(ra_q[1]), .ADB6(ra_q[2]),
    .ADB7(ra_q[3]), .ADB8(ra_q[4]), .ADB9(ra_q[5]), .ADB10(ra_q[6]), .ADB11(ra_q[7]), .ADB12(ra_q[8]), .ADB13(1'b0),
    .DOA0(do_w[0]), .DOA1(do_w[1]), .DOA2(do_w[2]), .DOA3(do_w[3]), .DOA4(do_w[4]), .DOA5(do_w[5]),
    .DOA6(do_w[6]), .DOA7(do_w[7]), .DOA8(do_w[8]), .DOA9(do_w[9]), .DOA10(do_w[10]), .DOA11(do_w[11]),
    .DOA12(do_w[12]), .DOA13(do_w[13]), .DOA14(do_w[14]), .DOA15(do_w[15]), .DOA16(do_w[16]), .DOA17(do_w[17]),
    .DOB0(do_w[18]), .DOB1(do_w[19]), .DOB2(do_w[20]), .DOB3(do_w[21]), .DOB4(do_w[22]), .DOB5(do_w[23]),
    .DOB6(do_w[24]), .DOB7(do_w[25]), .DOB8(do_w[26]), .DOB9(do_w[27]), .DOB10(do_w[28]), .DOB11(do_w[29]),
    .DOB12(do_w[30]), .DOB13(do_w[31]), .DOB14(do_w[32]), .DOB15(do_w[33]), .DOB16(do_w[34]), .DOB17(do_w[35])
  );
endmodule
`resetall
