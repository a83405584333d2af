// SPDX-License-Identifier: Apache-2.0
// s24_skew: free-running delay line (Depth >= 0 cycles); flag bits reset and clear, data bits do not.
`default_nettype none

module s24_skew #(
  parameter integer DataBits = 8,  // datapath bits (not reset)
  parameter integer FlagBits = 1,  // control bits (reset to 0, cleared by clear_i)
  parameter integer Depth    = 1   // delay in cycles; 0 is a wire
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  input  wire                clear_i,  // drops the beats in flight (flags to 0)
  input  wire [DataBits-1:0] data_i,
  input  wire [FlagBits-1:0] flags_i,
  output wire [DataBits-1:0] data_o,
  output wire [FlagBits-1:0] flags_o
);
  genvar k;

  generate
    if (Depth == 0) begin : g_wire
      assign data_o  = data_i;
      assign flags_o = flags_i;
    end else begin : g_regs
      // chain slice k+1 is the input delayed by k+1 cycles
      wire [(Depth+1)*DataBits-1:0] chain_data;
      wire [(Depth+1)*FlagBits-1:0] chain_flags;
      assign chain_data[DataBits-1:0]  = data_i;
      assign chain_flags[FlagBits-1:0] = flags_i;

      for (k = 0; k < Depth; k = k + 1) begin : g_stage
        reg [DataBits-1:0] data_q;
        reg [FlagBits-1:0] flags_q, flags_d;

        always @* begin
          flags_d = chain_flags[k*FlagBits +: FlagBits];
          if (clear_i) flags_d = {FlagBits{1'b0}};
        end

        always @(posedge clk_i) begin
          data_q <= chain_data[k*DataBits +: DataBits];
        end

        always @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) flags_q <= {FlagBits{1'b0}};
          else         flags_q <= flags_d;
        end

        assign chain_data[(k+1)*DataBits +: DataBits]  = data_q;
        assign chain_flags[(k+1)*FlagBits +: FlagBits] = flags_q;
      end

      assign data_o  = chain_data[Depth*DataBits +: DataBits];
      assign flags_o = chain_flags[Depth*FlagBits +: FlagBits];
    end
  endgenerate

endmodule

`resetall
