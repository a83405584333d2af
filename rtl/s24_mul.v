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
  wire [17:0] unused_sroa, unused_srob, unused_roa, unused_rob, unused_roc;
  wire        unused_signedp;
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
    .CLK0(clk_i), .CLK1(1'b0), .CLK2(1'b0), .CLK3(1'b0),
    .CE0(1'b1), .CE1(1'b0), .CE2(1'b0), .CE3(1'b0),
    .RST0(1'b0), .RST1(1'b0), .RST2(1'b0), .RST3(1'b0),
    .SRIA0(1'b0), .SRIA1(1'b0), .SRIA2(1'b0), .SRIA3(1'b0), .SRIA4(1'b0), .SRIA5(1'b0),
    .SRIA6(1'b0), .SRIA7(1'b0), .SRIA8(1'b0), .SRIA9(1'b0), .SRIA10(1'b0), .SRIA11(1'b0),
    .SRIA12(1'b0), .SRIA13(1'b0), .SRIA14(1'b0), .SRIA15(1'b0), .SRIA16(1'b0), .SRIA17(1'b0),
    .SRIB0(1'b0), .SRIB1(1'b0), .SRIB2(1'b0), .SRIB3(1'b0), .SRIB4(1'b0), .SRIB5(1'b0),
    .SRIB6(1'b0), .SRIB7(1'b0), .SRIB8(1'b0), .SRIB9(1'b0), .SRIB10(1'b0), .SRIB11(1'b0),
    .SRIB12(1'b0), .SRIB13(1'b0), .SRIB14(1'b0), .SRIB15(1'b0), .SRIB16(1'b0), .SRIB17(1'b0),
    .P0(p36[0]), .P1(p36[1]), .P2(p36[2]), .P3(p36[3]), .P4(p36[4]), .P5(p36[5]),
    .P6(p36[6]), .P7(p36[7]), .P8(p36[8]), .P9(p36[9]), .P10(p36[10]), .P11(p36[11]),
    .P12(p36[12]), .P13(p36[13]), .P14(p36[14]), .P15(p36[15]), .P16(p36[16]), .P17(p36[17]),
    .P18(p36[18]), .P19(p36[19]), .P20(p36[20]), .P21(p36[21]), .P22(p36[22]), .P23(p36[23]),
    .P24(p36[24]), .P25(p36[25]), .P26(p36[26]), .P27(p36[27]), .P28(p36[28]), .P29(p36[29]),
    .P30(p36[30]), .P31(p36[31]), .P32(p36[32]), .P33(p36[33]), .P34(p36[34]), .P35(p36[35]),
    .SROA0(unused_sroa[0]), .SROA1(unused_sroa[1]), .SROA2(unused_sroa[2]), .SROA3(unused_sroa[3]),
    .SROA4(unused_sroa[4]), .SROA5(unused_sroa[5]), .SROA6(unused_sroa[6]), .SROA7(unused_sroa[7]),
    .SROA8(unused_sroa[8]), .SROA9(unused_sroa[9]), .SROA10(unused_sroa[10]), .SROA11(unused_sroa[11]),
    .SROA12(unused_sroa[12]), .SROA13(unused_sroa[13]), .SROA14(unused_sroa[14]), .SROA15(unused_sroa[15]),
    .SROA16(unused_sroa[16]), .SROA17(unused_sroa[17]),
    .SROB0(unused_srob[0]), .SROB1(unused_srob[1]), .SROB2(unused_srob[2]), .SROB3(unused_srob[3]),
    .SROB4(unused_srob[4]), .SROB5(unused_srob[5]), .SROB6(unused_srob[6]), .SROB7(unused_srob[7]),
    .SROB8(unused_srob[8]), .SROB9(unused_srob[9]), .SROB10(unused_srob[10]), .SROB11(unused_srob[11]),
    .SROB12(unused_srob[12]), .SROB13(unused_srob[13]), .SROB14(unused_srob[14]), .SROB15(unused_srob[15]),
    .SROB16(unused_srob[16]), .SROB17(unused_srob[17]),
    .ROA0(unused_roa[0]), .ROA1(unused_roa[1]), .ROA2(unused_roa[2]), .ROA3(unused_roa[3]),
    .ROA4(unused_roa[4]), .ROA5(unused_roa[5]), .ROA6(unused_roa[6]), .ROA7(unused_roa[7]),
    .ROA8(unused_roa[8]), .ROA9(unused_roa[9]), .ROA10(unused_roa[10]), .ROA11(unused_roa[11]),
    .ROA12(unused_roa[12]), .ROA13(unused_roa[13]), .ROA14(unused_roa[14]), .ROA15(unused_roa[15]),
    .ROA16(unused_roa[16]), .ROA17(unused_roa[17]),
    .ROB0(unused_rob[0]), .ROB1(unused_rob[1]), .ROB2(unused_rob[2]), .ROB3(unused_rob[3]),
    .ROB4(unused_rob[4]), .ROB5(unused_rob[5]), .ROB6(unused_rob[6]), .ROB7(unused_rob[7]),
    .ROB8(unused_rob[8]), .ROB9(unused_rob[9]), .ROB10(unused_rob[10]), .ROB11(unused_rob[11]),
    .ROB12(unused_rob[12]), .ROB13(unused_rob[13]), .ROB14(unused_rob[14]), .ROB15(unused_rob[15]),
    .ROB16(unused_rob[16]), .ROB17(unused_rob[17]),
    .ROC0(unused_roc[0]), .ROC1(unused_roc[1]), .ROC2(unused_roc[2]), .ROC3(unused_roc[3]),
    .ROC4(unused_roc[4]), .ROC5(unused_roc[5]), .ROC6(unused_roc[6]), .ROC7(unused_roc[7]),
    .ROC8(unused_roc[8]), .ROC9(unused_roc[9]), .ROC10(unused_roc[10]), .ROC11(unused_roc[11]),
    .ROC12(unused_roc[12]), .ROC13(unused_roc[13]), .ROC14(unused_roc[14]), .ROC15(unused_roc[15]),
    .ROC16(unused_roc[16]), .ROC17(unused_roc[17]),
    .SIGNEDP(unused_signedp)
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
