// SPDX-License-Identifier: Apache-2.0
// s24_ff: a row of plain flops with an asynchronous active-low reset (to ResetValue) that
// synthesis keeps apart from equal copies elsewhere.
`default_nettype none

// Why: the array's control flags ({last, valid}) travel one PE per cycle and one stage per
// cycle, so the flag of PE (r, c) at stage k equals the flag of every PE on the same diagonal at
// another stage. Yosys merges such equal flops (opt_merge; `keep` does not stop it), and the
// one flop left then drives PEs across the whole array: routes of 3-4 ns on ECP5. Under
// S24_ECP5 each bit is an instantiated TRELLIS_FF (a cell opt_merge leaves alone), so every PE
// keeps its own flags next to it; elsewhere a behavioural flop.
module s24_ff #(
  parameter integer     Width      = 1,
  parameter [Width-1:0] ResetValue = {Width{1'b0}}
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire [Width-1:0] d_i,
  output wire [Width-1:0] q_o
);
`ifdef S24_ECP5
  genvar i;
  generate
    for (i = 0; i < Width; i = i + 1) begin : g_bit
      TRELLIS_FF #(
        .GSR("AUTO"), .CEMUX("1"), .CLKMUX("CLK"), .LSRMUX("INV"), .REGSET(ResetValue[i] ? "SET" : "RESET"),
        .SRMODE("ASYNC")
      ) u_ff (
        .CLK(clk_i), .LSR(rst_ni), .DI(d_i[i]), .Q(q_o[i])
      );
    end
  endgenerate
`else
  reg [Width-1:0] q_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) q_q <= ResetValue;
    else         q_q <= d_i;
  end
  assign q_o = q_q;
`endif
endmodule

`resetall
