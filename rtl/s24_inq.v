// s24_inq: input stream queue of s24_core: a register slice, a small FIFO and the job's beat count.
`default_nettype none

// Timing: nothing after the input handshake but flops. ready_o is a register, computed one cycle
// ahead from the queue's fill level; the slice captures data_i every cycle without an enable and
// its valid flag is the handshake (valid_i && ready_o), so the FIFO's write enable is a register.
// An accepted beat reaches the FIFO one cycle later and can leave it (pop_i) in the cycle after.
// The fill level counts the slice and the FIFO, so a beat accepted now always has room:
// ready_o = fill after this cycle < depth, selected from three precomputed compares.
// ready_o drops after exactly (max0_i + 1) * (max1_i + 1) accepted beats (the job's tiles times
// beats) and rises again only with the next arm_i.
module s24_inq #(
  parameter integer Width     = 8,  // bits per beat
  parameter integer AddrWidth = 2   // log2(FIFO depth); depth >= 3 keeps one beat per cycle
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             clear_i,   // drop every beat, stop accepting
  input  wire             arm_i,     // job start: accept the job's beats from the next cycle on
  input  wire             first0_i,  // with arm_i: max0_i will be 0 (one beat per tile)
  input  wire             first1_i,  // with arm_i: max1_i will be 0 (one tile)
  input  wire [31:0]      max0_i,    // beats per tile - 1, registered with arm_i
  input  wire [31:0]      max1_i,    // tiles - 1, registered with arm_i
  input  wire             valid_i,
  output wire             ready_o,
  input  wire [Width-1:0] data_i,
  input  wire             pop_i,     // take the head (caller ensures !empty_o)
  output wire [Width-1:0] data_o,
  output wire             empty_o
);
  localparam integer Depth = 1 << AddrWidth;
  localparam integer DepthM1I = Depth - 1;
  localparam integer DepthM2I = Depth - 2;
  localparam [AddrWidth:0] DepthM1 = DepthM1I[AddrWidth:0];
  localparam [AddrWidth:0] DepthM2 = DepthM2I[AddrWidth:0];

  reg               ready_q, ready_d;
  reg               armed_q, armed_d;
  reg               sl_valid_q;
  reg [Width-1:0]   sl_data_q;
  reg [AddrWidth:0] fill_q, fill_d;   // beats in the slice and the FIFO, 0 .. Depth

  wire push = valid_i && ready_q;
  wire final_beat;   // the count is at the job's last beat: this push is the last one
  wire unused_done, unused_l0, unused_l1;
  wire [31:0] unused_cnt;

  s24_cnt2 u_cnt (
    .clk_i(clk_i), .rst_ni(rst_ni), .init_i(arm_i || clear_i),
    .first0_i(first0_i), .first1_i(first1_i), .inc_i(push), .max0_i(max0_i), .max1_i(max1_i),
    .cnt0_o(unused_cnt), .last0_o(unused_l0), .last1_o(unused_l1), .last_o(final_beat),
    .done_o(unused_done)
  );

  always @* begin
    // fill level and room after this cycle: each outcome's compare is made from fill_q alone
    case ({push, pop_i})
      2'b10:   begin fill_d = fill_q + 1'b1; ready_d = (fill_q <= DepthM2); end
      2'b01:   begin fill_d = fill_q - 1'b1; ready_d = 1'b1; end
      default: begin fill_d = fill_q;        ready_d = (fill_q <= DepthM1); end
    endcase
    armed_d = armed_q && !(push && final_beat);
    if (arm_i) armed_d = 1'b1;
    if (clear_i) begin
      armed_d = 1'b0;
      fill_d  = {(AddrWidth+1){1'b0}};
    end
    ready_d = ready_d && armed_d;
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ready_q    <= 1'b0;
      armed_q    <= 1'b0;
      sl_valid_q <= 1'b0;
      fill_q     <= {(AddrWidth+1){1'b0}};
    end else begin
      ready_q    <= ready_d;
      armed_q    <= armed_d;
      sl_valid_q <= push && !clear_i;
      fill_q     <= fill_d;
    end
  end

  // the slice's data: captured every cycle, used only when sl_valid_q (datapath: not reset)
  always @(posedge clk_i) sl_data_q <= data_i;

  wire unused_full;
  s24_fifo #(.Width(Width), .AddrWidth(AddrWidth)) u_fifo (
    .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(clear_i), .push_i(sl_valid_q), .data_i(sl_data_q),
    .pop_i(pop_i), .data_o(data_o), .empty_o(empty_o), .full_o(unused_full)
  );

  assign ready_o = ready_q;

`ifdef FORMAL
  // ---------------------------------------------------------------- formal tail
`ifdef S24_FV_TOP_S24_INQ
  `define S24_FV_ASSUME_INPUTS
`endif
`include "s24_assert.vh"
  `S24_FV_START_IN_RESET(clk_i, rst_ni)
  `S24_FV_LIVE(clk_i, rst_ni)
  // fv_fifo_n_q: beats in the FIFO (pushed by the slice, popped by the caller)
  reg [AddrWidth:0] fv_fifo_n_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)      fv_fifo_n_q <= {(AddrWidth+1){1'b0}};
    else if (clear_i) fv_fifo_n_q <= {(AddrWidth+1){1'b0}};
    else              fv_fifo_n_q <= fv_fifo_n_q + {{AddrWidth{1'b0}}, sl_valid_q} - {{AddrWidth{1'b0}}, pop_i};
  end
  always @(posedge clk_i) begin
    if (fv_live_q) begin
      `S24_ASSUME(!(pop_i && empty_o), "inq: popped while empty (beat duplicated)")
      // the fill level counts exactly the slice and the FIFO, never above the depth
      `S24_ASSERT(fill_q <= Depth[AddrWidth:0], "inq: fill level above the depth")
      `S24_ASSERT(fv_fifo_n_q + {{AddrWidth{1'b0}}, sl_valid_q} == fill_q, "inq: fill level disagrees with the slice and the FIFO")
      `S24_ASSERT(empty_o == (fv_fifo_n_q == {(AddrWidth+1){1'b0}}), "inq: FIFO empty flag disagrees with its beats")
      // so the slice never pushes into a full FIFO, and ready only while armed
      `S24_ASSERT(!(sl_valid_q && unused_full), "inq: slice pushed into a full FIFO (beat lost)")
      `S24_ASSERT(!ready_q || armed_q, "inq: ready outside a job")
      `S24_COVER(push && pop_i && fill_q == DepthM2)
    end
  end
`endif

endmodule

`resetall
