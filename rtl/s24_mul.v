// SPDX-License-Identifier: Apache-2.0
// s24_mul: free-running 3-stage pipelined signed 8x8 multiplier, p = a * b three cycles later (one DSP).
`default_nettype none

// Contract (the PE relies on it; every variant keeps it exactly):
//   * no enable and no reset: every cycle a new product enters, the one from Latency = 3 cycles
//     earlier leaves (bubbles are tracked by the caller's valid flags beside the pipeline);
//   * p_o(t) = $signed(a_i(t - 3)) * $signed(b_i(t - 3)), full 2*Width bits.
// Stages: 1 operand registers, 2 product register, 3 a second product register. On ECP5
// (`define S24_ECP5`, set by the synthesis flow) stages 1 and 2 are the input and output
// registers inside the MULT18X18D (Yosys never packs fabric registers into it, so they are
// instantiated), and stage 3 is a fabric register that nextpnr places next to the DSP: no route
// between fabric and DSP is ever between a register and logic. Elsewhere (simulators, other
// FPGAs) the behavioural default below: Yosys maps it to one DSP with registers around it.
module s24_mul #(
  parameter integer Width = 8  // signed operand width (<= 18 for the ECP5 variant)
) (
  input  wire               clk_i,
  input  wire [Width-1:0]   a_i,  // signed operand
  input  wire [Width-1:0]   b_i,  // signed operand
  output wire [2*Width-1:0] p_o   // signed product of the operands of 3 cycles ago
);
  reg [2*Width-1:0] p3_q;  // stage 3: fabric register

`ifdef S24_ECP5
  initial begin
    if (Width > 18) begin
      $display("s24_mul: illegal parameters Width=%0d (the ECP5 variant needs Width <= 18)", Width);
      $finish;
    end
  end
  wire [17:0] a18 = {{(18-Width){a_i[Width-1]}}, a_i};
  wire [17:0] b18 = {{(18-Width){b_i[Width-1]}}, b_i};
  wire [35:0] p36;
  MULT18X18D #(
    .REG_INPUTA_CLK("CLK0"), .REG_INPUTB_CLK("CLK0"), .REG_OUTPUT_CLK("CLK0"),
    .REG_PIPELINE_CLK("NONE"), .REG_INPUTC_CLK("NONE"),
    .GSR("DISABLED"), .RESETMODE("SYNC")
  ) u_dsp (
    .A0(a18[0]), .A1(a18[1]), .A2(a18[2]), .A3(a18[3]), .A4(a18[4]), .A5(a18[5]),
    .A6(a18[6]), .A7(a18[7]), .A8(a18[8]), .A9(a18[9]), .A10(a18[10]), .A11(a18[11]),
    .A12(a18[12]), .A13(a18[13]), .A14(a18[14]), .A15(a18[15]), .A16(a18[16]), .A17(a18[17]),
    .B0(b18[0]), .B1(b18[1]), .B2(b18[2]), .B3(b18[3]), .B4(b18[4]), .B5(b18[5]),
    .B6(b18[6]), .B7(b18[7]), .B8(b18[8]), .B9(b18[9]), .B10(b18[10]), .B11(b18[11]),
    .B12(b18[12]), .B13(b18[13]), .B14(b18[14]), .B15(b18[15]), .B16(b18[16]), .B17(b18[17]),
    .C0(1'b0), .C1(1'b0), .C2(1'b0), .C3(1'b0), .C4(1'b0), .C5(1'b0), .C6(1'b0), .C7(1'b0),
    .C8(1'b0), .C9(1'b0), .C10(1'b0), .C11(1'b0), .C12(1'b0), .C13(1'b0), .C14(1'b0),
    .C15(1'b0), .C16(1'b0), .C17(1'b0),
    .SIGNEDA(1'b1), .SIGNEDB(1'b1), .SOURCEA(1'b0), .SOURCEB(1'b0),
    // unused DSP inputs (CLK1-3, CE1-3, RST1-3, SRIA, SRIB) stay unconnected: nextpnr ties them
    // off inside the DSP tile instead of routing 47 constant nets to each of them
    .CLK0(clk_i), .CE0(1'b1), .RST0(1'b0),
    .P0(p36[0]), .P1(p36[1]), .P2(p36[2]), .P3(p36[3]), .P4(p36[4]), .P5(p36[5]),
    .P6(p36[6]), .P7(p36[7]), .P8(p36[8]), .P9(p36[9]), .P10(p36[10]), .P11(p36[11]),
    .P12(p36[12]), .P13(p36[13]), .P14(p36[14]), .P15(p36[15]), .P16(p36[16]), .P17(p36[17]),
    .P18(p36[18]), .P19(p36[19]), .P20(p36[20]), .P21(p36[21]), .P22(p36[22]), .P23(p36[23]),
    .P24(p36[24]), .P25(p36[25]), .P26(p36[26]), .P27(p36[27]), .P28(p36[28]), .P29(p36[29]),
    .P30(p36[30]), .P31(p36[31]), .P32(p36[32]), .P33(p36[33]), .P34(p36[34]), .P35(p36[35]),
    .SIGNEDP()
  );
  always @(posedge clk_i) p3_q <= p36[2*Width-1:0];
`else
  reg [Width-1:0]   a1_q, b1_q;  // stage 1: operands
  reg [2*Width-1:0] p2_q;        // stage 2: product
  always @(posedge clk_i) begin
    a1_q <= a_i;
    b1_q <= b_i;
    p2_q <= $signed(a1_q) * $signed(b1_q);
    p3_q <= p2_q;
  end
`endif

  assign p_o = p3_q;
endmodule

`resetall
