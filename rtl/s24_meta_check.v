// SPDX-License-Identifier: Apache-2.0
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

`ifdef FORMAL
  // ---------------------------------------------------------------- formal tail (formal/meta_check.sby)
  // No inputs are constrained: any weight beat at all may arrive. Per row group:
  //   bad_o is set exactly when the indices do not strictly increase;
  //   a valid group passes unchanged; an invalid one leaves with values 0 and strictly
  //   increasing indices, so no invalid metadata ever reaches a PE.
`include "s24_assert.vh"
  integer fr;
  integer fs;
  reg fv_in_ok;
  reg fv_out_ok;
  reg fv_zero;
  always @* begin
    for (fr = 0; fr < NumRows; fr = fr + 1) begin
      fv_in_ok  = 1'b1;
      fv_out_ok = 1'b1;
      fv_zero   = 1'b1;
      for (fs = 1; fs < SparseN; fs = fs + 1) begin
        if (idx_i[(fr*SparseN+fs)*IdxStore +: IdxStore] <= idx_i[(fr*SparseN+fs-1)*IdxStore +: IdxStore])
          fv_in_ok = 1'b0;
        if (idx_o[(fr*SparseN+fs)*IdxStore +: IdxStore] <= idx_o[(fr*SparseN+fs-1)*IdxStore +: IdxStore])
          fv_out_ok = 1'b0;
      end
      for (fs = 0; fs < SparseN; fs = fs + 1) begin
        if (vals_o[(fr*SparseN+fs)*DataWidth +: DataWidth] != {DataWidth{1'b0}}) fv_zero = 1'b0;
      end
      if (!Dense) begin
        `S24_ASSERT(bad_o[fr] == !fv_in_ok, "meta_check: group flagged wrongly")
        `S24_ASSERT(fv_out_ok, "meta_check: invalid metadata passed to the array")
        if (bad_o[fr]) begin
          `S24_ASSERT(fv_zero, "meta_check: an invalid group carries nonzero values")
        end else begin
          `S24_ASSERT(vals_o[fr*SparseN*DataWidth +: SparseN*DataWidth] == vals_i[fr*SparseN*DataWidth +: SparseN*DataWidth]
                      && idx_o[fr*SparseN*IdxStore +: SparseN*IdxStore] == idx_i[fr*SparseN*IdxStore +: SparseN*IdxStore],
                      "meta_check: a valid group was changed")
        end
        `S24_COVER(bad_o[fr])
        `S24_COVER(!bad_o[fr] && !fv_zero)
      end else begin
        `S24_ASSERT(bad_o[fr] == 1'b0 && vals_o == vals_i, "meta_check: dense group changed")
      end
    end
  end
`endif

endmodule

`resetall
