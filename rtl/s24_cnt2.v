// SPDX-License-Identifier: Apache-2.0
// s24_cnt2: two-level (beat within tile, tile within job) 32-bit counter with registered last/done flags.
`default_nettype none

// The flags are registers, computed one count ahead (a compare of the count plus one with the
// maximum, in parallel with inc_i), so inc_i only selects: no wide compare comes after it. The
// outer count's enable is inc_i with one registered flag (step1_q), not with done/last0/last1:
// the stream's valid reaches the 32 enables of nxt1_q through one LUT level, not four.
module s24_cnt2 #(
  parameter integer Max0AtReset = 0  // max0_i out of reset (the reset value of last0_o follows)
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        init_i,   // restart at (0, 0), not done (wins over inc_i)
  input  wire        first0_i, // with init_i: max0_i == 0 once init_i's maxima apply
  input  wire        first1_i, // with init_i: max1_i == 0 once init_i's maxima apply
  input  wire        inc_i,    // count one (ignored once done)
  input  wire [31:0] max0_i,   // inner count runs 0 .. max0_i, then wraps (stable from init_i + 1)
  input  wire [31:0] max1_i,   // outer count runs 0 .. max1_i
  output wire [31:0] cnt0_o,   // inner count
  output wire [31:0] cnt1_o,   // outer count
  output wire        last0_o,  // cnt0_o == max0_i
  output wire        last1_o,  // outer count == max1_i
  output wire        last_o,   // inner and outer at their maxima: the next inc is the final one
  output wire        done_o    // the final inc happened
);
  reg [31:0] cnt0_q, cnt0_d;
  reg [31:0] cnt1_q, cnt1_d;
  reg [31:0] nxt0_q, nxt0_d;   // cnt0_q + 1, kept as a register of its own
  reg [31:0] nxt1_q, nxt1_d;   // cnt1_q + 1
  reg        last0_q, last0_d;
  reg        last1_q, last1_d;
  reg        done_q, done_d;
  reg        step1_q, step1_d;   // !done_q && last0_q && !last1_q: the next inc moves the outer count

  // next flags, from registers only: the count plus one is a register (nxt*_q), so the compare
  // with the maximum has no carry chain in front of it (the increments run in parallel with it)
  wire [31:0] nxt0_inc   = nxt0_q + 32'd1;
  wire [31:0] nxt1_inc   = nxt1_q + 32'd1;
  wire        next_last0 = (nxt0_q == max0_i);
  wire        next_last1 = (nxt1_q == max1_i);
  wire        wrap_last0 = (max0_i == 32'd0);

  always @* begin
    cnt0_d  = cnt0_q;
    cnt1_d  = cnt1_q;
    nxt0_d  = nxt0_q;
    nxt1_d  = nxt1_q;
    last0_d = last0_q;
    last1_d = last1_q;
    done_d  = done_q;
    step1_d = step1_q;
    if (inc_i && !done_q) begin
      if (last0_q) begin
        cnt0_d  = 32'd0;
        nxt0_d  = 32'd1;
        last0_d = wrap_last0;
        if (last1_q) begin
          done_d  = 1'b1;
          step1_d = 1'b0;
        end else begin
          last1_d = next_last1;
          step1_d = wrap_last0 && !next_last1;
        end
      end else begin
        cnt0_d  = nxt0_q;
        nxt0_d  = nxt0_inc;
        last0_d = next_last0;
        step1_d = next_last0 && !last1_q;
      end
    end
    // the outer count: its own enable (step1_q stands for !done_q && last0_q && !last1_q)
    if (inc_i && step1_q) begin
      cnt1_d  = nxt1_q;
      nxt1_d  = nxt1_inc;
    end
    if (init_i) begin
      cnt0_d  = 32'd0;
      cnt1_d  = 32'd0;
      nxt0_d  = 32'd1;
      nxt1_d  = 32'd1;
      last0_d = first0_i;
      last1_d = first1_i;
      done_d  = 1'b0;
      step1_d = first0_i && !first1_i;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt0_q  <= 32'd0;
      cnt1_q  <= 32'd0;
      nxt0_q  <= 32'd1;
      nxt1_q  <= 32'd1;
      last0_q <= (Max0AtReset == 0);
      last1_q <= 1'b1;   // max1_i is 0 out of reset
      done_q  <= 1'b0;
      step1_q <= 1'b0;   // last1_q resets to 1
    end else begin
      cnt0_q  <= cnt0_d;
      cnt1_q  <= cnt1_d;
      nxt0_q  <= nxt0_d;
      nxt1_q  <= nxt1_d;
      last0_q <= last0_d;
      last1_q <= last1_d;
      done_q  <= done_d;
      step1_q <= step1_d;
    end
  end

  assign cnt0_o  = cnt0_q;
  assign cnt1_o  = cnt1_q;
  assign last0_o = last0_q;
  assign last1_o = last1_q;
  assign last_o  = last0_q && last1_q;
  assign done_o  = done_q;

`ifdef FORMAL
  // ---------------------------------------------------------------- formal tail (formal/cnt2.sby)
`ifdef S24_FV_TOP_S24_CNT2
  `define S24_FV_ASSUME_INPUTS
`endif
`include "s24_assert.vh"
  `S24_FV_START_IN_RESET(clk_i, rst_ni)
  `S24_FV_LIVE(clk_i, rst_ni)
  // fv_n_q: incs counted since init (the position in the job); low 8 bits are enough for the
  // small-maxima proof (S24_FV_CNT2_SMALL), where the product below cannot wrap
  reg [7:0]  fv_n_q;
  localparam [31:0] FvMax0AtReset = Max0AtReset;
  // the contract: the maxima are loaded with init_i (the core loads its configuration registers
  // together with init), and the first flags given with it match them (last0_q/last1_q are the
  // registered compares of the counts, 0 at init, with the maxima)
  `S24_FV_MAXIMA(clk_i, rst_ni, init_i, max0_i, max1_i, FvMax0AtReset,
                 (last0_q == (max0_i == 32'd0) && last1_q == (max1_i == 32'd0)))
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_n_q <= 8'd0;
    end else begin
      if (init_i)                fv_n_q <= 8'd0;
      else if (inc_i && !done_q) fv_n_q <= fv_n_q + 8'd1;
    end
  end
`ifdef S24_FV_CNT2_SMALL
  wire [7:0] fv_pos = cnt1_q[7:0] * (max0_i[7:0] + 8'd1) + cnt0_q[7:0];
  wire [7:0] fv_all = (max1_i[7:0] + 8'd1) * (max0_i[7:0] + 8'd1);
`endif
  always @(posedge clk_i) begin
    if (fv_live_q) begin
      `S24_ASSERT(nxt0_q == cnt0_q + 32'd1 && nxt1_q == cnt1_q + 32'd1, "cnt2: count-plus-one registers out of step")
      `S24_ASSERT(step1_q == (!done_q && last0_q && !last1_q), "cnt2: outer-step flag out of step with the flags")
      // the registered flags are the compares they replace
      `S24_ASSERT(last0_q == (cnt0_q == max0_i) && last1_q == (cnt1_q == max1_i),
                  "cnt2: registered last flags out of step with the counts")
`ifdef S24_FV_CNT2_SMALL
      `S24_ASSUME(max0_i < 32'd4 && max1_i < 32'd4, "cnt2: small maxima only")
`endif
      `S24_ASSERT(cnt0_q <= max0_i && cnt1_q <= max1_i, "cnt2: count beyond its maximum")
      if (done_q) begin
        `S24_ASSERT(cnt0_q == 32'd0 && cnt1_q == max1_i, "cnt2: done away from the final position")
      end
`ifdef S24_FV_CNT2_SMALL
      // exactly (max0+1)*(max1+1) incs from init to done, each one position further
      if (!fv_past_load_q) begin
        `S24_ASSERT(done_q ? fv_n_q == fv_all : fv_n_q == fv_pos, "cnt2: inc lost or counted twice")
      end
`endif
      `S24_COVER(done_q && max0_i == 32'd2 && max1_i == 32'd1)  // a whole 3 x 2 job
      `S24_COVER(done_q && init_i)                              // back to back jobs
    end
  end
`endif

endmodule

`resetall
