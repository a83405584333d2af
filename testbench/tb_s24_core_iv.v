// SPDX-License-Identifier: Apache-2.0
// tb_s24_core_iv: Icarus (iverilog -g2005) testbench of s24_core on model-generated hex vectors.
`timescale 1ns / 1ps
`default_nettype none

// Plusargs: +vec=DIR (jobs/w/a/r/sizes.hex from gen_vectors), +seed=N (backpressure pattern).
// Streams every job with random valid gaps and ready backpressure, compares every result beat,
// checks r_last, done and the beat counter, prints "N passed, N failed" ($finish; exit code via
// the make rule, which greps the summary).
module tb_s24_core_iv;
  parameter integer NumRows = 4;   // core configuration (must match the vectors)
  parameter integer NumCols = 4;
  parameter integer SparseN = 2;
  parameter integer SparseM = 4;
  parameter integer PairMode = 1;  // the core's pair mode (pair jobs only in the vectors of a 2:m core)
  localparam integer IdxWidth = (SparseN == SparseM) ? 0 : $clog2(SparseM);
  localparam integer WBits    = NumRows*SparseN*(8+IdxWidth);
  localparam integer ABits    = NumCols*SparseM*8;
  localparam integer RBits    = NumCols*32;
  localparam integer MaxBeats = 1 << 16;
  localparam integer MaxJobs  = 1 << 12;

  reg clk = 1'b0;
  reg rst_n = 1'b0;
  always #5 clk = ~clk;

  reg              clear = 1'b0, start = 1'b0;
  reg  [31:0]      cfg_beats = 32'd0, cfg_tiles = 32'd0;
  reg              cfg_pair = 1'b0;
  integer          trows, rbase;   // rows per tile of the job (pair: 2R), its first result beat
  wire             busy, done, err_meta;
  reg              w_valid = 1'b0, a_valid = 1'b0, r_ready = 1'b0;
  wire             w_ready, a_ready, r_valid, r_last;
  reg  [WBits-1:0] w_data = {WBits{1'b0}};
  reg  [ABits-1:0] a_data = {ABits{1'b0}};
  wire [RBits-1:0] r_data;
  wire [31:0]      cnt_cycles, cnt_beats, cnt_stall_w, cnt_stall_a, cnt_stall_r;

  s24_core #(.NumRows(NumRows), .NumCols(NumCols), .SparseN(SparseN), .SparseM(SparseM),
             .PairMode(PairMode)) u_dut (
    .clk_i(clk), .rst_ni(rst_n), .clear_i(clear), .start_i(start), .cfg_beats_i(cfg_beats),
    .cfg_tiles_i(cfg_tiles), .cfg_pair_i(cfg_pair), .busy_o(busy), .done_o(done), .err_meta_o(err_meta),
    .w_valid_i(w_valid), .w_ready_o(w_ready), .w_data_i(w_data),
    .a_valid_i(a_valid), .a_ready_o(a_ready), .a_data_i(a_data),
    .r_valid_o(r_valid), .r_ready_i(r_ready), .r_data_o(r_data), .r_last_o(r_last),
    .cnt_cycles_o(cnt_cycles), .cnt_beats_o(cnt_beats), .cnt_stall_w_o(cnt_stall_w),
    .cnt_stall_a_o(cnt_stall_a), .cnt_stall_r_o(cnt_stall_r)
  );

  reg [WBits-1:0] wmem [0:MaxBeats-1];
  reg [ABits-1:0] amem [0:MaxBeats-1];
  reg [RBits-1:0] rmem [0:MaxBeats-1];
  reg [95:0]      jobs [0:MaxJobs-1];   // {pair, tiles, beats}
  reg [31:0]      sizes [0:3];
  reg [8*1024-1:0] vec;
  reg [8*1100-1:0] path;

  integer seed;
  integer j, wi, ai, ri, wend, rend, cyc;
  integer passed, failed, tiles;
  reg     w_fire, a_fire, r_fire, done_seen;

  task fail_check;
    input [8*64-1:0] what;
    begin
      failed = failed + 1;
      if (failed <= 10) $display("tb_s24_core_iv: FAIL job %0d result beat %0d: %0s", j, ri, what);
    end
  endtask

  initial begin
    if (!$value$plusargs("vec=%s", vec)) begin
      $display("tb_s24_core_iv: error: missing +vec=DIR");
      $finish;
    end
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    $display("tb_s24_core_iv: vectors %0s, backpressure +seed=%0d", vec, seed);
    $sformat(path, "%0s/sizes.hex", vec); $readmemh(path, sizes);
    $sformat(path, "%0s/jobs.hex", vec);  $readmemh(path, jobs, 0, sizes[0] - 1);
    $sformat(path, "%0s/w.hex", vec);     $readmemh(path, wmem, 0, sizes[1] - 1);
    $sformat(path, "%0s/a.hex", vec);     $readmemh(path, amem, 0, sizes[1] - 1);
    $sformat(path, "%0s/r.hex", vec);     $readmemh(path, rmem, 0, sizes[2] - 1);
    passed = 0; failed = 0; tiles = 0;
    wi = 0; ai = 0; ri = 0; wend = 0; rend = 0;
    repeat (3) @(negedge clk);
    rst_n = 1'b1;
    @(negedge clk);
    for (j = 0; j < sizes[0]; j = j + 1) begin
      cfg_beats = jobs[j][31:0];
      cfg_tiles = jobs[j][63:32];
      cfg_pair  = jobs[j][64];
      trows = cfg_pair ? 2 * NumRows : NumRows;
      rbase = ri;
      tiles = tiles + cfg_tiles;
      wend = wend + cfg_beats * cfg_tiles;
      rend = rend + trows * cfg_tiles;
      start = 1'b1;
      done_seen = 1'b0;
      cyc = 0;
      while (!done_seen) begin
        if (!w_valid && wi < wend && ($random(seed) & 3) != 0) begin
          w_valid = 1'b1;
          w_data = wmem[wi];
        end
        if (!a_valid && ai < wend && ($random(seed) & 3) != 0) begin
          a_valid = 1'b1;
          a_data = amem[ai];
        end
        r_ready = ($random(seed) % 3) != 0;
        #1;
        w_fire = w_valid && w_ready;
        a_fire = a_valid && a_ready;
        r_fire = r_valid && r_ready;
        if (r_fire) begin
          if (ri >= rend) fail_check("extra result beat");
          else if (r_data !== rmem[ri]) begin
            fail_check("data mismatch");
            if (failed <= 10) $display("  got %h\n  want %h", r_data, rmem[ri]);
          end else if (r_last !== (((ri - rbase) % trows) == trows - 1)) fail_check("r_last wrong");
          else passed = passed + 1;
          ri = ri + 1;
        end
        if (done) begin
          done_seen = 1'b1;
          if (ri != rend) fail_check("done before the last result beat");
          if (cnt_beats != cfg_beats * cfg_tiles) fail_check("cnt_beats wrong");
        end
        cyc = cyc + 1;
        if (cyc > 100000) begin
          $display("tb_s24_core_iv: FAIL job %0d: timeout", j);
          failed = failed + 1;
          done_seen = 1'b1;
          j = sizes[0];
        end
        @(negedge clk);
        start = 1'b0;
        if (w_fire) begin wi = wi + 1; w_valid = 1'b0; end
        if (a_fire) begin ai = ai + 1; a_valid = 1'b0; end
      end
      r_ready = 1'b0;
      @(negedge clk);
    end
    if (wi != sizes[1] || ai != sizes[1] || ri != sizes[2]) begin
      $display("tb_s24_core_iv: FAIL: streamed w %0d a %0d r %0d, want %0d %0d %0d", wi, ai, ri,
               sizes[1], sizes[1], sizes[2]);
      failed = failed + 1;
    end
    $display("tb_s24_core_iv %0dx%0d %0d:%0d: %0d jobs, %0d tiles, %0d result beats compared",
             NumRows, NumCols, SparseN, SparseM, sizes[0], tiles, ri);
    $display("%0d passed, %0d failed", passed, failed);
    $finish;
  end
endmodule

`resetall
