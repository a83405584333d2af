// s24_cnt2: two-level (beat within tile, tile within job) 32-bit counter with last/done flags.
`default_nettype none

module s24_cnt2 (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        init_i,   // restart at (0, 0), not done (wins over inc_i)
  input  wire        inc_i,    // count one (ignored once done)
  input  wire [31:0] max0_i,   // inner count runs 0 .. max0_i, then wraps
  input  wire [31:0] max1_i,   // outer count runs 0 .. max1_i
  output wire [31:0] cnt0_o,   // inner count
  output wire        last0_o,  // cnt0_o == max0_i
  output wire        last1_o,  // outer count == max1_i
  output wire        last_o,   // inner and outer at their maxima: the next inc is the final one
  output wire        done_o    // the final inc happened
);
  reg [31:0] cnt0_q, cnt0_d;
  reg [31:0] cnt1_q, cnt1_d;
  reg        done_q, done_d;

  always @* begin
    cnt0_d = cnt0_q;
    cnt1_d = cnt1_q;
    done_d = done_q;
    if (inc_i && !done_q) begin
      if (last0_o) begin
        cnt0_d = 32'd0;
        if (last_o) done_d = 1'b1;
        else        cnt1_d = cnt1_q + 32'd1;
      end else begin
        cnt0_d = cnt0_q + 32'd1;
      end
    end
    if (init_i) begin
      cnt0_d = 32'd0;
      cnt1_d = 32'd0;
      done_d = 1'b0;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt0_q <= 32'd0;
      cnt1_q <= 32'd0;
      done_q <= 1'b0;
    end else begin
      cnt0_q <= cnt0_d;
      cnt1_q <= cnt1_d;
      done_q <= done_d;
    end
  end

  assign cnt0_o  = cnt0_q;
  assign last0_o = (cnt0_q == max0_i);
  assign last1_o = (cnt1_q == max1_i);
  assign last_o  = last0_o && last1_o;
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
  reg        fv_past_init_q;
  reg [31:0] fv_max0_q, fv_max1_q;
  reg [7:0]  fv_n_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_past_init_q <= 1'b1;
      fv_n_q         <= 8'd0;
    end else begin
      fv_past_init_q <= init_i;
      if (init_i)                fv_n_q <= 8'd0;
      else if (inc_i && !done_q) fv_n_q <= fv_n_q + 8'd1;
    end
  end
  always @(posedge clk_i) begin
    fv_max0_q <= max0_i;
    fv_max1_q <= max1_i;
  end
`ifdef S24_FV_CNT2_SMALL
  wire [7:0] fv_pos = cnt1_q[7:0] * (max0_i[7:0] + 8'd1) + cnt0_q[7:0];
  wire [7:0] fv_all = (max1_i[7:0] + 8'd1) * (max0_i[7:0] + 8'd1);
`endif
  always @(posedge clk_i) begin
    if (fv_live_q) begin
      // contract: the maxima change only in the cycle after init_i (the core loads its
      // configuration registers together with init) or straight out of reset
      if (!fv_past_init_q) begin
        `S24_ASSUME(max0_i == fv_max0_q && max1_i == fv_max1_q, "cnt2: maxima changed while counting")
      end
`ifdef S24_FV_CNT2_SMALL
      `S24_ASSUME(max0_i < 32'd4 && max1_i < 32'd4, "cnt2: small maxima only")
`endif
      `S24_ASSERT(cnt0_q <= max0_i && cnt1_q <= max1_i, "cnt2: count beyond its maximum")
      if (done_q) begin
        `S24_ASSERT(cnt0_q == 32'd0 && cnt1_q == max1_i, "cnt2: done away from the final position")
      end
`ifdef S24_FV_CNT2_SMALL
      // exactly (max0+1)*(max1+1) incs from init to done, each one position further
      if (!fv_past_init_q) begin
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
