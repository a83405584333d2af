// SPDX-License-Identifier: Apache-2.0
// s24_rbuf: result buffer: RAM FIFO (block-RAM friendly: synchronous read) with two registered
// output stages.
`default_nettype none

// First-word-fall-through for the reader: data_o/valid_o come from a fabric register (out_q),
// fed from the RAM's read register (ram_q). A pushed entry is visible at the output three cycles
// later when the buffer was empty (RAM write, fetch into ram_q, move to out_q). Every control
// decision comes from flops and ready_i, and no arithmetic follows it: the RAM read enable
// (fetch) is one LUT of {nonempty_q, ram_v_q, out_v_q, ready_i}; the fill level's next values
// are computed in parallel and only selected. The block RAM's slow clock-to-output reaches a
// register, never logic.
// Capacity = 2**AddrWidth entries in the RAM + ram_q + out_q. The writer never waits: the core
// reserves room (credits) before it injects the beat whose results will be pushed, so a push into
// a full buffer is a design error (asserted).
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
  reg [Width-1:0]     ram_q;                // RAM read register (the block RAM's output)
  reg                 ram_v_q, ram_v_d;     // ram_q holds an entry not yet moved to out_q
  reg [Width-1:0]     out_q;                // output register (fabric)
  reg                 out_v_q, out_v_d;
  reg [AddrWidth-1:0] wr_ptr_q, wr_ptr_d;
  reg [AddrWidth-1:0] rd_ptr_q, rd_ptr_d;
  reg [AddrWidth:0]   count_q, count_d;     // entries in the RAM
  reg                 nonempty_q, nonempty_d;  // count_q != 0

  wire pop   = out_v_q && ready_i;
  wire move  = ram_v_q && (!out_v_q || ready_i);      // ram_q -> out_q
  wire fetch = nonempty_q && (!ram_v_q || !out_v_q || ready_i);  // RAM -> ram_q

  // The same two enables for the data side (the block RAM's read register and out_q, hundreds
  // of bits spread over several RAM blocks) are made from copies of the three flags that synthesis
  // keeps apart (s24_ff), so the data side's enables come from flops next to it and the control
  // side's (count, pointers) from flops next to the control: no path crosses between them twice.
  wire nonempty_r, ram_v_r, out_v_r;
  s24_ff #(.Width(3)) u_flags_data (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({nonempty_d, ram_v_d, out_v_d}),
    .q_o({nonempty_r, ram_v_r, out_v_r})
  );
  wire move_data  = ram_v_r && (!out_v_r || ready_i);
  wire fetch_data = nonempty_r && (!ram_v_r || !out_v_r || ready_i);
  wire [AddrWidth:0] count_inc = count_q + 1'b1;
  wire [AddrWidth:0] count_dec = count_q - 1'b1;
  wire               last_one  = (count_q == {{AddrWidth{1'b0}}, 1'b1});

  always @* begin
    wr_ptr_d   = wr_ptr_q;
    rd_ptr_d   = rd_ptr_q;
    count_d    = count_q;
    nonempty_d = nonempty_q;
    ram_v_d    = ram_v_q;
    out_v_d    = out_v_q;
    if (push_i) wr_ptr_d = wr_ptr_q + 1'b1;
    if (fetch)  rd_ptr_d = rd_ptr_q + 1'b1;
    case ({push_i, fetch})
      2'b10:   begin count_d = count_inc; nonempty_d = 1'b1;      end
      2'b01:   begin count_d = count_dec; nonempty_d = !last_one; end
      default: ;
    endcase
    if (fetch)     ram_v_d = 1'b1;
    else if (move) ram_v_d = 1'b0;
    if (move)      out_v_d = 1'b1;
    else if (pop)  out_v_d = 1'b0;
    if (clear_i) begin
      wr_ptr_d   = {AddrWidth{1'b0}};
      rd_ptr_d   = {AddrWidth{1'b0}};
      count_d    = {(AddrWidth+1){1'b0}};
      nonempty_d = 1'b0;
      ram_v_d    = 1'b0;
      out_v_d    = 1'b0;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_ptr_q   <= {AddrWidth{1'b0}};
      rd_ptr_q   <= {AddrWidth{1'b0}};
      count_q    <= {(AddrWidth+1){1'b0}};
      nonempty_q <= 1'b0;
      ram_v_q    <= 1'b0;
      out_v_q    <= 1'b0;
    end else begin
      wr_ptr_q   <= wr_ptr_d;
      rd_ptr_q   <= rd_ptr_d;
      count_q    <= count_d;
      nonempty_q <= nonempty_d;
      ram_v_q    <= ram_v_d;
      out_v_q    <= out_v_d;
    end
  end

  // Storage and output registers are datapath: not reset. Synchronous read with an enable (the
  // block RAM holds ram_q while fetch is low).
  always @(posedge clk_i) begin
    if (push_i) mem_q[wr_ptr_q] <= data_i;
    if (fetch_data) ram_q <= mem_q[rd_ptr_q];
  end
  always @(posedge clk_i) begin
    if (move_data) out_q <= ram_q;
  end

  assign valid_o = out_v_q;
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
      `S24_ASSERT(nonempty_q == (count_q != {(AddrWidth+1){1'b0}}), "s24_rbuf: empty flag disagrees with the fill level")
      `S24_ASSERT(nonempty_r == nonempty_q && ram_v_r == ram_v_q && out_v_r == out_v_q, "s24_rbuf: data-side flag copies disagree")
      // stream protocol on the output: an entry stays, unchanged, until taken
      if (fv_hold_q) begin
        `S24_ASSERT(valid_o && data_o == fv_data_q, "s24_rbuf: output withdrawn or changed before ready_i")
      end
      `S24_COVER(count_q[AddrWidth] && valid_o && !ready_i)  // full, output stalled
    end
  end
`ifdef S24_SBY
  // Tracked entry (solver's choice): in the RAM with fv_pos_q entries ahead of it, it moves to
  // ram_q when fetched with fv_pos_q == 0, then to out_q, and must leave there, with its data, once.
  localparam [1:0] FvIdle = 2'd0, FvRam = 2'd1, FvRamQ = 2'd2, FvOut = 2'd3;
  wire                 fv_pick = $anyseq;
  reg  [1:0]           fv_st_q;
  reg                  fv_done_q;
  reg  [Width-1:0]     fv_trk_data_q;
  reg  [AddrWidth:0]   fv_pos_q;
  wire [AddrWidth-1:0] fv_slot = rd_ptr_q + fv_pos_q[AddrWidth-1:0];
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_st_q   <= FvIdle;
      fv_done_q <= 1'b0;
    end else if (clear_i) begin
      fv_st_q   <= FvIdle;
    end else begin
      case (fv_st_q)
        FvIdle: if (push_i && fv_pick) begin
          fv_st_q       <= FvRam;
          fv_trk_data_q <= data_i;
          fv_pos_q      <= count_q - {{AddrWidth{1'b0}}, fetch};
        end
        FvRam: if (fetch) begin
          if (fv_pos_q == {(AddrWidth+1){1'b0}}) fv_st_q <= FvRamQ;
          else                                   fv_pos_q <= fv_pos_q - 1'b1;
        end
        FvRamQ: if (move) fv_st_q <= FvOut;
        default: if (pop) begin
          fv_st_q   <= FvIdle;
          fv_done_q <= 1'b1;
        end
      endcase
    end
  end
  always @(posedge clk_i) begin
    if (fv_live_q) begin
      case (fv_st_q)
        FvRam: begin
          `S24_ASSERT(fv_pos_q < count_q, "s24_rbuf: tracked entry lost")
          `S24_ASSERT(mem_q[fv_slot] == fv_trk_data_q, "s24_rbuf: tracked entry overwritten")
        end
        FvRamQ: begin
          `S24_ASSERT(ram_v_q && ram_q == fv_trk_data_q, "s24_rbuf: tracked entry lost in the read register")
        end
        FvOut: begin
          `S24_ASSERT(out_v_q && out_q == fv_trk_data_q, "s24_rbuf: tracked entry lost at the output")
        end
        default: ;
      endcase
    end
    `S24_COVER(fv_done_q && count_q[AddrWidth])
  end
`endif
`endif

endmodule

`resetall
