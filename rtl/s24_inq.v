// SPDX-License-Identifier: Apache-2.0
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
  parameter integer Width     = 8,      // bits per beat
  parameter integer QWidth    = Width,  // bits per FIFO entry (q_data_i: the caller's function of sl_data_o)
  parameter integer AddrWidth = 2       // log2(FIFO depth); depth >= 3 keeps one beat per cycle
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
  output wire [Width-1:0] sl_data_o, // the slice's beat, on its way into the FIFO ...
  input  wire [QWidth-1:0] q_data_i, // ... as the caller stores it (e.g. checked): logic between
                                     // a flop and the FIFO's write port, none after its read
  input  wire             pop_i,     // take the head (caller ensures !empty_o)
  output wire [QWidth-1:0] data_o,
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
  wire pop  = pop_i && !empty_o;   // (the caller's pop_i already implies !empty_o: free after flattening)
  wire final_beat;   // the count is at the job's last beat: this push is the last one
  wire unused_done, unused_l0, unused_l1;
  wire [31:0] cnt0, cnt1;   // position in the job (formal properties only)

  s24_cnt2 u_cnt (
    .clk_i(clk_i), .rst_ni(rst_ni), .init_i(arm_i || clear_i),
    .first0_i(first0_i), .first1_i(first1_i), .inc_i(push), .max0_i(max0_i), .max1_i(max1_i),
    .cnt0_o(cnt0), .cnt1_o(cnt1), .last0_o(unused_l0), .last1_o(unused_l1), .last_o(final_beat),
    .done_o(unused_done)
  );

  always @* begin
    // fill level and room after this cycle: each outcome's compare is made from fill_q alone
    case ({push, pop})
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
  wire [AddrWidth:0] fifo_level;   // the FIFO's own count (formal properties only)
  assign sl_data_o = sl_data_q;
  s24_fifo #(.Width(QWidth), .AddrWidth(AddrWidth), .Checked(0)) u_fifo (
    .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(clear_i), .push_i(sl_valid_q), .data_i(q_data_i),
    .pop_i(pop), .data_o(data_o), .empty_o(empty_o), .full_o(unused_full),
    .level_o(fifo_level)
  );

  assign ready_o = ready_q;
  wire unused_pos = ^{fifo_level, cnt0, cnt1};   // read by the formal properties only

`ifdef FORMAL
  // ---------------------------------------------------------------- formal tail (formal/inq.sby)
`ifdef S24_FV_TOP_S24_INQ
  `define S24_FV_ASSUME_INPUTS
`endif
`include "s24_assert.vh"
  `S24_FV_START_IN_RESET(clk_i, rst_ni)
  `S24_FV_LIVE(clk_i, rst_ni)
  // fv_fifo_n_q: beats in the FIFO (pushed by the slice, popped by the caller); fv_in_q / fv_out_q:
  // beats accepted / popped since arm_i (8 bits: the small-maxima proof's jobs are shorter)
  reg [AddrWidth:0] fv_fifo_n_q;
  reg [7:0]         fv_in_q, fv_out_q;
  reg               fv_job_q;          // a job was armed and not cleared
  reg               fv_first0_q, fv_first1_q;  // first0_i/first1_i of the previous cycle
  // the contract: the maxima are loaded with arm_i (registered: they change only in the cycle
  // after arm_i or clear_i), and first0_i/first1_i given with arm_i describe them
  `S24_FV_MAXIMA(clk_i, rst_ni, arm_i || clear_i, max0_i, max1_i, 32'd0,
                 (fv_first0_q == (max0_i == 32'd0) && fv_first1_q == (max1_i == 32'd0)))
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_fifo_n_q   <= {(AddrWidth+1){1'b0}};
      fv_in_q       <= 8'd0;
      fv_out_q      <= 8'd0;
      fv_job_q      <= 1'b0;
      fv_first0_q   <= 1'b1;
      fv_first1_q   <= 1'b1;
    end else begin
      fv_first0_q   <= first0_i;
      fv_first1_q   <= first1_i;
      if (clear_i) begin
        fv_fifo_n_q <= {(AddrWidth+1){1'b0}};
        fv_job_q    <= 1'b0;
      end else begin
        fv_fifo_n_q <= fv_fifo_n_q + {{AddrWidth{1'b0}}, sl_valid_q} - {{AddrWidth{1'b0}}, pop};
        if (arm_i) fv_job_q <= 1'b1;
      end
      if (arm_i || clear_i) begin
        fv_in_q  <= 8'd0;
        fv_out_q <= 8'd0;
      end else begin
        fv_in_q  <= fv_in_q + {7'd0, push};
        fv_out_q <= fv_out_q + {7'd0, pop};
      end
    end
  end
`ifdef S24_FV_INQ_SMALL
  wire [7:0] fv_all = (max1_i[7:0] + 8'd1) * (max0_i[7:0] + 8'd1);
`endif
  always @(posedge clk_i) begin
    if (fv_live_q) begin
      // the caller's contract (besides the maxima's): pop only a beat that is there
      `S24_ASSUME(!(pop_i && empty_o), "inq: popped while empty (beat duplicated)")
      `S24_ASSUME(!(arm_i && (armed_q || fill_q != {(AddrWidth+1){1'b0}})), "inq: armed before the previous job's beats were all accepted and popped")
`ifdef S24_FV_INQ_SMALL
      `S24_ASSUME(max0_i < 32'd3 && max1_i < 32'd3, "inq: small maxima only")
`endif
      // the fill level counts exactly the slice and the FIFO, never above the depth
      `S24_ASSERT(fill_q <= Depth[AddrWidth:0] && fv_fifo_n_q <= Depth[AddrWidth:0], "inq: fill level above the depth")
      `S24_ASSERT(fv_fifo_n_q + {{AddrWidth{1'b0}}, sl_valid_q} == fill_q, "inq: fill level disagrees with the slice and the FIFO")
      `S24_ASSERT(empty_o == (fv_fifo_n_q == {(AddrWidth+1){1'b0}}), "inq: FIFO empty flag disagrees with its beats")
      `S24_ASSERT(fifo_level == fv_fifo_n_q, "inq: FIFO fill level disagrees with its beats")
      // so the slice never pushes into a full FIFO, and ready only while armed
      `S24_ASSERT(!(sl_valid_q && unused_full), "inq: slice pushed into a full FIFO (beat lost)")
      `S24_ASSERT(!ready_q || armed_q, "inq: ready outside a job")
      `S24_ASSERT(!ready_q || fill_q <= DepthM1, "inq: ready without room for the beat")
      `S24_ASSERT(unused_full == (fv_fifo_n_q == Depth[AddrWidth:0]), "inq: FIFO full flag disagrees with its beats")
      `S24_ASSERT(!armed_q || fv_job_q, "inq: accepting outside a job")
      // every beat accepted since arm_i is in the slice, the FIFO, or popped
      if (fv_job_q && !fv_past_load_q) begin
        `S24_ASSERT(fv_in_q == fv_out_q + {{(7-AddrWidth){1'b0}}, fill_q}, "inq: beats accepted != beats queued + popped")
      end
`ifdef S24_FV_INQ_SMALL
      // a job takes exactly (max0+1)*(max1+1) beats: never more, and all of them by the time
      // ready drops for good
      if (fv_job_q && !fv_past_load_q) begin
        `S24_ASSERT(fv_in_q == (unused_done ? fv_all : cnt1[7:0] * (max0_i[7:0] + 8'd1) + cnt0[7:0]),
                    "inq: beats accepted disagree with the job's beat count")
        `S24_ASSERT(fv_in_q <= fv_all, "inq: more beats accepted than the job has")
        `S24_ASSERT(armed_q == (fv_in_q != fv_all), "inq: stopped accepting before the job's last beat, or not after it")
      end
      `S24_COVER(fv_job_q && !armed_q && fv_out_q == fv_all && max0_i == 32'd1 && max1_i == 32'd1)
`endif
      // (the slice itself has no property: its valid flag is the handshake and its data
      // register takes data_i every cycle, so it equals the accepted beat by construction; the
      // FIFO's tracked-beat proof, formal/fifo.sby, covers order and data from there)
      `S24_COVER(push && pop && fill_q == DepthM2)
    end
  end
`endif

endmodule

`resetall
