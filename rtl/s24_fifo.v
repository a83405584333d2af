// SPDX-License-Identifier: Apache-2.0
// s24_fifo: small synchronous first-word-fall-through FIFO with a registered fill level.
`default_nettype none

module s24_fifo #(
  parameter integer Width     = 8,  // bits per entry
  parameter integer AddrWidth = 1,  // log2(depth): depth = 2**AddrWidth entries
  parameter integer Checked   = 1   // 1: a push while full or a pop while empty is ignored;
                                    // 0: the caller guarantees neither (a property), so the
                                    // write enable and the pointers take the requests as they are
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  input  wire                 clear_i,  // drops every entry
  input  wire                 push_i,   // write data_i (caller ensures !full_o)
  input  wire [Width-1:0]     data_i,
  input  wire                 pop_i,    // drop the head (caller ensures !empty_o)
  output wire [Width-1:0]     data_o,   // head entry, valid while !empty_o
  output wire                 empty_o,
  output wire                 full_o,
  output wire [AddrWidth:0]   level_o   // entries held, 0 .. 2**AddrWidth (registered)
);
  localparam integer Depth = 1 << AddrWidth;

  reg [Width-1:0]     mem_q [0:Depth-1];
  reg [AddrWidth-1:0] wr_ptr_q, wr_ptr_d;
  reg [AddrWidth-1:0] rd_ptr_q, rd_ptr_d;
  reg [AddrWidth:0]   count_q, count_d;
  reg                 empty_q;   // count_q == 0, a flop of its own (it feeds the caller's decisions)

  wire do_push, do_pop;
  generate
    if (Checked != 0) begin : g_checked
      assign do_push = push_i && !full_o;
      assign do_pop  = pop_i && !empty_o;
    end else begin : g_unchecked
      assign do_push = push_i;
      assign do_pop  = pop_i;
    end
  endgenerate

  always @* begin
    wr_ptr_d = wr_ptr_q;
    rd_ptr_d = rd_ptr_q;
    count_d  = count_q;
    if (do_push) wr_ptr_d = wr_ptr_q + 1'b1;
    if (do_pop)  rd_ptr_d = rd_ptr_q + 1'b1;
    if (do_push && !do_pop) count_d = count_q + 1'b1;
    if (!do_push && do_pop) count_d = count_q - 1'b1;
    if (clear_i) begin
      wr_ptr_d = {AddrWidth{1'b0}};
      rd_ptr_d = {AddrWidth{1'b0}};
      count_d  = {(AddrWidth+1){1'b0}};
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_ptr_q <= {AddrWidth{1'b0}};
      rd_ptr_q <= {AddrWidth{1'b0}};
      count_q  <= {(AddrWidth+1){1'b0}};
      empty_q  <= 1'b1;
    end else begin
      wr_ptr_q <= wr_ptr_d;
      rd_ptr_q <= rd_ptr_d;
      count_q  <= count_d;
      empty_q  <= (count_d == {(AddrWidth+1){1'b0}});
    end
  end

  // Storage is datapath: not reset.
  always @(posedge clk_i) begin
    if (do_push) mem_q[wr_ptr_q] <= data_i;
  end

  assign data_o  = mem_q[rd_ptr_q];
  assign empty_o = empty_q;
  assign full_o  = count_q[AddrWidth];
  assign level_o = count_q;

`ifdef FORMAL
  // ---------------------------------------------------------------- formal tail (formal/fifo.sby)
`ifdef S24_FV_TOP_S24_FIFO
  `define S24_FV_ASSUME_INPUTS
`endif
`include "s24_assert.vh"
  `S24_FV_START_IN_RESET(clk_i, rst_ni)
  `S24_FV_LIVE(clk_i, rst_ni)
  wire [AddrWidth-1:0] fv_fill = count_q[AddrWidth-1:0];
  always @(posedge clk_i) begin
    if (fv_live_q) begin
`ifndef S24_FV_FIFO_MISUSE
      // the caller's contract (the misuse proof drops it: the FIFO must then ignore the request)
      `S24_ASSUME(!(push_i && full_o), "fifo: pushed while full (beat lost)")
      `S24_ASSUME(!(pop_i && empty_o), "fifo: popped while empty (beat duplicated)")
`endif
      // fill level: 0 .. Depth, and exactly the distance between the pointers
      `S24_ASSERT(!count_q[AddrWidth] || fv_fill == {AddrWidth{1'b0}}, "fifo: fill level above depth")
      `S24_ASSERT(wr_ptr_q == rd_ptr_q + fv_fill, "fifo: pointers disagree with the fill level")
      `S24_ASSERT(empty_q == (count_q == {(AddrWidth+1){1'b0}}), "fifo: empty flag disagrees with the fill level")
      `S24_COVER(full_o && pop_i)                        // drained from full
      `S24_COVER(!empty_o && !full_o && push_i && pop_i) // push and pop in one cycle
    end
  end
`ifdef S24_SBY
`ifndef S24_FV_FIFO_NO_TRACK
  // Tracked beat (solver's choice): a beat pushed at any time leaves exactly once, in order, with
  // its data: fv_pos_q entries are ahead of it, one fewer at every pop; it must be the head when
  // fv_pos_q is 0. Together with the fill-level properties: no beat lost, duplicated or reordered.
  // (S24_FV_FIFO_NO_TRACK leaves it out of a parent's proof that only needs the contract and the
  // fill level: fifo.sby proves it for any inputs that keep the contract, and the parent proves
  // the contract.)
  wire                 fv_pick = $anyseq;
  reg                  fv_trk_q;
  reg  [Width-1:0]     fv_trk_data_q;
  reg  [AddrWidth:0]   fv_pos_q;
  reg                  fv_out_q;  // the tracked beat has left (for the cover)
  wire [AddrWidth-1:0] fv_slot = rd_ptr_q + fv_pos_q[AddrWidth-1:0];
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_trk_q <= 1'b0;
      fv_out_q <= 1'b0;
    end else if (clear_i) begin
      fv_trk_q <= 1'b0;
    end else if (!fv_trk_q) begin
      if (do_push && fv_pick) begin
        fv_trk_q      <= 1'b1;
        fv_trk_data_q <= data_i;
        fv_pos_q      <= count_q - {{AddrWidth{1'b0}}, do_pop};
      end
    end else if (do_pop) begin
      if (fv_pos_q == {(AddrWidth+1){1'b0}}) begin
        fv_trk_q <= 1'b0;
        fv_out_q <= 1'b1;
      end else begin
        fv_pos_q <= fv_pos_q - 1'b1;
      end
    end
  end
  always @(posedge clk_i) begin
    if (fv_live_q && fv_trk_q) begin
      `S24_ASSERT(fv_pos_q < count_q, "fifo: tracked beat lost")
      `S24_ASSERT(mem_q[fv_slot] == fv_trk_data_q, "fifo: tracked beat overwritten")
      if (fv_pos_q == {(AddrWidth+1){1'b0}}) begin
        `S24_ASSERT(!empty_o && data_o == fv_trk_data_q, "fifo: head is not the tracked beat")
      end
    end
    `S24_COVER(fv_out_q && full_o)
  end
`endif
`endif
`endif

endmodule

`resetall
