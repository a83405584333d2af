// s24_fifo: small synchronous first-word-fall-through FIFO with a registered fill level.
`default_nettype none

module s24_fifo #(
  parameter integer Width     = 8,  // bits per entry
  parameter integer AddrWidth = 1   // log2(depth): depth = 2**AddrWidth entries
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  input  wire                 clear_i,  // drops every entry
  input  wire                 push_i,   // write data_i (caller ensures !full_o)
  input  wire [Width-1:0]     data_i,
  input  wire                 pop_i,    // drop the head (caller ensures !empty_o)
  output wire [Width-1:0]     data_o,   // head entry, valid while !empty_o
  output wire                 empty_o,
  output wire                 full_o
);
  localparam integer Depth = 1 << AddrWidth;

  reg [Width-1:0]     mem_q [0:Depth-1];
  reg [AddrWidth-1:0] wr_ptr_q, wr_ptr_d;
  reg [AddrWidth-1:0] rd_ptr_q, rd_ptr_d;
  reg [AddrWidth:0]   count_q, count_d;

  wire do_push = push_i && !full_o;
  wire do_pop  = pop_i && !empty_o;

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
    end else begin
      wr_ptr_q <= wr_ptr_d;
      rd_ptr_q <= rd_ptr_d;
      count_q  <= count_d;
    end
  end

  // Storage is datapath: not reset.
  always @(posedge clk_i) begin
    if (do_push) mem_q[wr_ptr_q] <= data_i;
  end

  assign data_o  = mem_q[rd_ptr_q];
  assign empty_o = (count_q == {(AddrWidth+1){1'b0}});
  assign full_o  = count_q[AddrWidth];

`ifdef FORMAL
  // fv_live_q: out of reset (assertions sample it instead of the asynchronous reset)
  reg fv_live_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_live_q <= 1'b0;
    else         fv_live_q <= 1'b1;
  end
  always @(posedge clk_i) begin
    if (fv_live_q) begin
      assert (!count_q[AddrWidth] || count_q[AddrWidth-1:0] == {AddrWidth{1'b0}});
      assert (!(push_i && full_o));   // no beat lost: never written while full
      assert (!(pop_i && empty_o));   // no beat duplicated: never read while empty
    end
  end
`endif

endmodule

`resetall
