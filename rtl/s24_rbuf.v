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
  // fv_live_q: out of reset (assertions sample it instead of the asynchronous reset)
  reg fv_live_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_live_q <= 1'b0;
    else         fv_live_q <= 1'b1;
  end
  always @(posedge clk_i) begin
    if (fv_live_q && !clear_i) begin
      // no result lost: the caller's credits keep every push inside the capacity
      assert (!(push_i && !fetch && count_q[AddrWidth])) else $error("s24_rbuf: push into a full buffer");
    end
  end
`endif

endmodule

`resetall
