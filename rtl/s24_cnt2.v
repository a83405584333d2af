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

endmodule

`resetall
