// s24_rbuf: result buffer: RAM FIFO (block-RAM friendly: synchronous read) with a registered output stage.
`default_nettype none

// First-word-fall-through for the reader: data_o/valid_o come from a register. A pushed entry is
// visible at the output two cycles later when the buffer was empty (RAM write, then fetch).
// Capacity = 2**AddrWidth entries in the RAM + 1 in the output register. The writer never waits:
// the core reserves room (credits) before it injects the beat whose results will be pushed, so a
// push into a full buffer is a design error (asserted).
module s24_rbuf #(
  parameter integer Width     = 8,  // bits per entry
  parameter integer AddrWidth = 4   // log2(RAM depth)
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             clear_i,  // drops every entry
  input  wire             push_i,   // write data_i (room reserved by the caller)
  input  wire [Width-1:0] data_i,
  output wire             valid_o,  // data_o holds the oldest entry
  input  wire             ready_i,  // the reader takes data_o (valid_o && ready_i)
  output wire [Width-1:0] data_o
);
  localparam integer Depth = 1 << AddrWidth;

  reg [Width-1:0]     mem_q [0:Depth-1];
  reg [Width-1:0]     out_q;
  reg                 out_valid_q, out_valid_d;
  reg [AddrWidth-1:0] wr_ptr_q, wr_ptr_d;
  reg [AddrWidth-1:0] rd_ptr_q, rd_ptr_d;
  reg [AddrWidth:0]   count_q, count_d;  // entries in the RAM

  wire pop   = out_valid_q && ready_i;
  wire fetch = (count_q != {(AddrWidth+1){1'b0}}) && (!out_valid_q || pop);

  always @* begin
    wr_ptr_d    = wr_ptr_q;
    rd_ptr_d    = rd_ptr_q;
    count_d     = count_q;
    out_valid_d = out_valid_q;
    if (push_i) wr_ptr_d = wr_ptr_q + 1'b1;
    if (fetch)  rd_ptr_d = rd_ptr_q + 1'b1;
    if (push_i && !fetch) count_d = count_q + 1'b1;
    if (!push_i && fetch) count_d = count_q - 1'b1;
    if (fetch)    out_valid_d = 1'b1;
    else if (pop) out_valid_d = 1'b0;
    if (clear_i) begin
      wr_ptr_d    = {AddrWidth{1'b0}};
      rd_ptr_d    = {AddrWidth{1'b0}};
      count_d     = {(AddrWidth+1){1'b0}};
      out_valid_d = 1'b0;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_ptr_q    <= {AddrWidth{1'b0}};
      rd_ptr_q    <= {AddrWidth{1'b0}};
      count_q     <= {(AddrWidth+1){1'b0}};
      out_valid_q <= 1'b0;
    end else begin
      wr_ptr_q    <= wr_ptr_d;
      rd_ptr_q    <= rd_ptr_d;
      count_q     <= count_d;
      out_valid_q <= out_valid_d;
    end
  end

  // Storage and output register are datapath: not reset. Synchronous read with an enable.
  always @(posedge clk_i) begin
    if (push_i) mem_q[wr_ptr_q] <= data_i;
    if (fetch)  out_q <= mem_q[rd_ptr_q];
  end

  assign valid_o = out_valid_q;
  assign data_o  = out_q;

`ifdef FORMAL
  // ---------------------------------------------------------------- formal tail (formal/rbuf.sby)
`ifdef S24_FV_TOP_S24_RBUF
  `define S24_FV_ASSUME_INPUTS
`endif
`include "s24_assert.vh"
  `S24_FV_START_IN_RESET(clk_i, rst_ni)
  `S24_FV_LIVE(clk_i, rst_ni)
  wire [AddrWidth-1:0] fv_fill = count_q[AddrWidth-1:0];
  reg                  fv_hold_q;
  reg  [Width-1:0]     fv_data_q;
  always @(posedge clk_i) begin
    fv_hold_q <= fv_live_q && !clear_i && valid_o && !ready_i;
    fv_data_q <= data_o;
  end
  always @(posedge clk_i) begin
    if (fv_live_q && !clear_i) begin
      // no result lost: the caller's credits keep every push inside the capacity
      `S24_ASSUME(!(push_i && !fetch && count_q[AddrWidth]), "s24_rbuf: push into a full buffer")
    end
    if (fv_live_q) begin
      `S24_ASSERT(!count_q[AddrWidth] || fv_fill == {AddrWidth{1'b0}}, "s24_rbuf: fill level above depth")
      `S24_ASSERT(wr_ptr_q == rd_ptr_q + fv_fill, "s24_rbuf: pointers disagree with the fill level")
      // stream protocol on the output: an entry stays, unchanged, until taken
      if (fv_hold_q) begin
        `S24_ASSERT(valid_o && data_o == fv_data_q, "s24_rbuf: output withdrawn or changed before ready_i")
      end
      `S24_COVER(count_q[AddrWidth] && valid_o && !ready_i)  // full, output stalled
    end
  end
`ifdef S24_SBY
  // Tracked entry (solver's choice): fv_pos_q entries are ahead of it in the RAM; it moves to the
  // output register when fetched with fv_pos_q == 0 and must leave there, with its data, once.
  wire                 fv_pick = $anyseq;
  reg                  fv_trk_q, fv_in_out_q, fv_out_q;
  reg  [Width-1:0]     fv_trk_data_q;
  reg  [AddrWidth:0]   fv_pos_q;
  wire [AddrWidth-1:0] fv_slot = rd_ptr_q + fv_pos_q[AddrWidth-1:0];
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_trk_q    <= 1'b0;
      fv_in_out_q <= 1'b0;
      fv_out_q    <= 1'b0;
    end else if (clear_i) begin
      fv_trk_q    <= 1'b0;
      fv_in_out_q <= 1'b0;
    end else if (!fv_trk_q) begin
      if (push_i && fv_pick) begin
        fv_trk_q      <= 1'b1;
        fv_in_out_q   <= 1'b0;
        fv_trk_data_q <= data_i;
        fv_pos_q      <= count_q - {{AddrWidth{1'b0}}, fetch};
      end
    end else if (fv_in_out_q) begin
      if (pop) begin
        fv_trk_q    <= 1'b0;
        fv_in_out_q <= 1'b0;
        fv_out_q    <= 1'b1;
      end
    end else if (fetch) begin
      if (fv_pos_q == {(AddrWidth+1){1'b0}}) fv_in_out_q <= 1'b1;
      else                                   fv_pos_q <= fv_pos_q - 1'b1;
    end
  end
  always @(posedge clk_i) begin
    if (fv_live_q && fv_trk_q) begin
      if (fv_in_out_q) begin
        `S24_ASSERT(valid_o && data_o == fv_trk_data_q, "s24_rbuf: tracked entry lost at the output")
      end else begin
        `S24_ASSERT(fv_pos_q < count_q, "s24_rbuf: tracked entry lost")
        `S24_ASSERT(mem_q[fv_slot] == fv_trk_data_q, "s24_rbuf: tracked entry overwritten")
      end
    end
    `S24_COVER(fv_out_q && count_q[AddrWidth])
  end
`endif
`endif

endmodule

`resetall
