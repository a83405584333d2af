// s24_meta_check: flags weight groups whose indices do not strictly increase; zeroes their values, canonical indices.
`default_nettype none

// Combinational. A row group with a repeated or decreasing index gets all values 0 and the
// canonical indices m-n .. m-1, so invalid metadata never reaches a PE (it contributes 0).
module s24_meta_check #(
  parameter integer NumRows   = 4,  // rows (groups per beat)
  parameter integer SparseN   = 2,  // kept values per group
  parameter integer SparseM   = 4,  // group size
  parameter integer DataWidth = 8,  // value width
  parameter integer IdxStore  = 2   // stored bits per index (>= 1; unused when SparseN == SparseM)
) (
  input  wire [NumRows*SparseN*DataWidth-1:0] vals_i,
  input  wire [NumRows*SparseN*IdxStore-1:0]  idx_i,
  output reg  [NumRows*SparseN*DataWidth-1:0] vals_o,
  output reg  [NumRows*SparseN*IdxStore-1:0]  idx_o,
  output reg  [NumRows-1:0]                   bad_o   // per row: the group was invalid
);
  localparam Dense = (SparseN == SparseM);

  integer r;
  integer s;
  reg [IdxStore-1:0] cidx;  // canonical index, counting down from m-1

  always @* begin
    vals_o = vals_i;
    idx_o  = idx_i;
    bad_o  = {NumRows{1'b0}};
    cidx   = {IdxStore{1'b1}};
    if (!Dense) begin
      for (r = 0; r < NumRows; r = r + 1) begin
        for (s = 1; s < SparseN; s = s + 1) begin
          if (idx_i[(r*SparseN+s)*IdxStore +: IdxStore] <= idx_i[(r*SparseN+s-1)*IdxStore +: IdxStore])
            bad_o[r] = 1'b1;
        end
        if (bad_o[r]) begin
          cidx = {IdxStore{1'b1}};
          for (s = SparseN - 1; s >= 0; s = s - 1) begin
            vals_o[(r*SparseN+s)*DataWidth +: DataWidth] = {DataWidth{1'b0}};
            idx_o[(r*SparseN+s)*IdxStore +: IdxStore]    = cidx;
            cidx = cidx - 1'b1;
          end
        end
      end
    end
  end

endmodule

`resetall
