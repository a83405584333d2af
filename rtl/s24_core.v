// s24_core: N:M-sparse int8 x int8 -> int32 output-stationary systolic MMA core with valid/ready streams.
`default_nettype none

// Dataflow and timing: docs/architecture.md sections 1-3. Summary:
//  * input FIFOs (2 entries) on w and a; output FIFO (2 entries) on r;
//  * one global enable `step` from registered state only: a step consumes one w and one a
//    beat (feed slot) or inserts a bubble (tile spacing, fill/drain); it waits while a feed
//    slot lacks input or while a result row is pending and the output FIFO is full;
//  * metadata check -> skew (row r: r+1 steps, column c: c+1 steps) -> PE array
//    (weights hop right, activations hop down) -> per-row drain of the PE shadows;
//  * tile period P = max(beats, NumRows, NumCols) steps (bubbles only when beats < P).
module s24_core #(
  parameter integer NumRows   = 4,  // R: tile rows (rows of A per tile) = PE rows
  parameter integer NumCols   = 4,  // C: tile columns (columns of B per tile) = PE columns
  parameter integer SparseN   = 2,  // n: kept values per group = multipliers per PE
  parameter integer SparseM   = 4,  // m: group size along K, 2, 4 or 8 (n == m: dense)
  parameter integer DataWidth = 8,  // operand width, signed; must be 8 (stream layout)
  parameter integer AccWidth  = 32  // accumulator and result width, wraps; must be 32
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        clear_i,       // soft reset: idle, drop in-flight data, clear error/counters
  input  wire        start_i,       // pulse while idle; ignored if beats or tiles == 0
  input  wire [31:0] cfg_beats_i,   // beats per tile (sampled at start)
  input  wire [31:0] cfg_tiles_i,   // tiles in the job (sampled at start)
  output wire        busy_o,        // from the start to the last result beat accepted
  output wire        done_o,        // one-cycle pulse when the job is complete
  output wire        err_meta_o,    // a weight beat of this job carried invalid metadata (sticky until start/clear)
  input  wire        w_valid_i,
  output wire        w_ready_o,
  input  wire [NumRows*SparseN*(DataWidth+((SparseN == SparseM) ? 0 : $clog2(SparseM)))-1:0] w_data_i,
  input  wire        a_valid_i,
  output wire        a_ready_o,
  input  wire [NumCols*SparseM*DataWidth-1:0] a_data_i,
  output wire        r_valid_o,
  input  wire        r_ready_i,
  output wire [NumCols*AccWidth-1:0] r_data_o,
  output wire        r_last_o,
  output wire [31:0] cnt_cycles_o,  // cycles busy in this job
  output wire [31:0] cnt_beats_o,   // steps that consumed a beat (MAC-active cycles)
  output wire [31:0] cnt_stall_w_o, // busy cycles a feed step waited on the weight stream
  output wire [31:0] cnt_stall_a_o, // ... on the activation stream
  output wire [31:0] cnt_stall_r_o  // busy cycles a result beat waited for r_ready_i
);
  localparam integer IdxWidth  = (SparseN == SparseM) ? 0 : $clog2(SparseM);
  localparam integer IdxStore  = (IdxWidth == 0) ? 1 : IdxWidth;
  localparam integer WBits     = NumRows*SparseN*(DataWidth+IdxWidth);
  localparam integer ABits     = NumCols*SparseM*DataWidth;
  localparam integer RBits     = NumCols*AccWidth;
  localparam integer VRowBits  = SparseN*DataWidth;   // kept values of one row
  localparam integer IRowBits  = SparseN*IdxStore;    // stored indices of one row
  localparam integer AColBits  = SparseM*DataWidth;   // activations of one column
  localparam integer MinPeriod = (NumRows > NumCols) ? NumRows : NumCols;
  localparam         ParamsOk  = (NumRows >= 1) && (NumCols >= 1) &&
                                 (SparseM == 2 || SparseM == 4 || SparseM == 8) &&
                                 (SparseN >= 1) && (SparseN <= SparseM) &&
                                 (DataWidth == 8) && (AccWidth == 32);

  // ---------------------------------------------------------------- parameter check
  initial begin
    if (!ParamsOk) begin
      $display("s24_core: illegal parameters NumRows=%0d NumCols=%0d SparseN=%0d SparseM=%0d DataWidth=%0d AccWidth=%0d (need R,C >= 1, m in {2,4,8}, 1 <= n <= m, DataWidth 8, AccWidth 32)",
               NumRows, NumCols, SparseN, SparseM, DataWidth, AccWidth);
      $finish;
    end
  end
`ifdef SYNTHESIS
  // For synthesis tools that skip initial blocks: an illegal set instantiates a missing module.
  generate
    if (!ParamsOk) begin : g_illegal_parameters
      s24_core_illegal_parameter_set u_illegal_parameter_set ();
    end
  endgenerate
`endif

  // ---------------------------------------------------------------- job control
  reg        run_q, run_d;
  reg        done_q, done_d;
  reg        err_q, err_d;
  reg        f_done_q, f_done_d;
  reg [31:0] beats_m1_q, beats_m1_d;
  reg [31:0] tiles_m1_q, tiles_m1_d;
  reg [31:0] period_m1_q, period_m1_d;
  reg [31:0] cnt_cycles_q, cnt_cycles_d;
  reg [31:0] cnt_beats_q, cnt_beats_d;
  reg [31:0] cnt_stall_w_q, cnt_stall_w_d;
  reg [31:0] cnt_stall_a_q, cnt_stall_a_d;
  reg [31:0] cnt_stall_r_q, cnt_stall_r_d;
  reg [NumRows-1:0] row_done_q, row_done_d;  // row r of a tile completed in the last step

  wire start_ok = start_i && !run_q && !clear_i && (cfg_beats_i != 32'd0) && (cfg_tiles_i != 32'd0);
  wire init     = start_ok || clear_i;

  wire w_fifo_empty, w_fifo_full, a_fifo_empty, a_fifo_full, r_fifo_empty, r_fifo_full;
  wire w_in_done, a_in_done;
  wire [31:0] f_beat;
  wire        f_tile_last;
  wire        r_pop_last;

  // feed slot: this step injects a beat (else it injects a bubble)
  wire feed_slot = run_q && !f_done_q && (f_beat <= beats_m1_q);
  wire push_pend = |row_done_q;
  wire in_ok     = !feed_slot || (!w_fifo_empty && !a_fifo_empty);
  wire out_ok    = !push_pend || !r_fifo_full;
  wire step      = run_q && in_ok && out_ok;
  wire feed      = step && feed_slot;
  wire r_pop     = r_valid_o && r_ready_i;
  wire w_push    = w_valid_i && w_ready_o;
  wire a_push    = a_valid_i && a_ready_o;

  wire [31:0] beats_m1_new = cfg_beats_i - 32'd1;
  wire [NumRows-1:0] meta_bad;
  wire [NumRows-1:0] pe_cap;   // PE (r, NumCols-1) captures row r's result this step

  always @* begin
    run_d         = run_q;
    done_d        = 1'b0;
    err_d         = err_q;
    f_done_d      = f_done_q;
    beats_m1_d    = beats_m1_q;
    tiles_m1_d    = tiles_m1_q;
    period_m1_d   = period_m1_q;
    cnt_cycles_d  = cnt_cycles_q;
    cnt_beats_d   = cnt_beats_q;
    cnt_stall_w_d = cnt_stall_w_q;
    cnt_stall_a_d = cnt_stall_a_q;
    cnt_stall_r_d = cnt_stall_r_q;
    row_done_d    = row_done_q;

    if (run_q) begin
      cnt_cycles_d = cnt_cycles_q + 32'd1;
      if (feed) cnt_beats_d = cnt_beats_q + 32'd1;
      if (feed_slot && w_fifo_empty) cnt_stall_w_d = cnt_stall_w_q + 32'd1;
      if (feed_slot && a_fifo_empty) cnt_stall_a_d = cnt_stall_a_q + 32'd1;
      if (r_valid_o && !r_ready_i)   cnt_stall_r_d = cnt_stall_r_q + 32'd1;
    end
    if (feed && (|meta_bad)) err_d = 1'b1;
    if (feed && (f_beat == beats_m1_q) && f_tile_last) f_done_d = 1'b1;
    if (step) row_done_d = pe_cap;
    if (r_pop && r_pop_last) begin
      run_d  = 1'b0;
      done_d = 1'b1;
    end

    if (start_ok) begin
      run_d         = 1'b1;
      err_d         = 1'b0;
      f_done_d      = 1'b0;
      beats_m1_d    = beats_m1_new;
      tiles_m1_d    = cfg_tiles_i - 32'd1;
      period_m1_d   = (cfg_beats_i > MinPeriod) ? beats_m1_new : (MinPeriod - 1);
      cnt_cycles_d  = 32'd0;
      cnt_beats_d   = 32'd0;
      cnt_stall_w_d = 32'd0;
      cnt_stall_a_d = 32'd0;
      cnt_stall_r_d = 32'd0;
    end
    if (clear_i) begin
      run_d         = 1'b0;
      done_d        = 1'b0;
      err_d         = 1'b0;
      f_done_d      = 1'b0;
      cnt_cycles_d  = 32'd0;
      cnt_beats_d   = 32'd0;
      cnt_stall_w_d = 32'd0;
      cnt_stall_a_d = 32'd0;
      cnt_stall_r_d = 32'd0;
      row_done_d    = {NumRows{1'b0}};
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q         <= 1'b0;
      done_q        <= 1'b0;
      err_q         <= 1'b0;
      f_done_q      <= 1'b0;
      beats_m1_q    <= 32'd0;
      tiles_m1_q    <= 32'd0;
      period_m1_q   <= 32'd0;
      cnt_cycles_q  <= 32'd0;
      cnt_beats_q   <= 32'd0;
      cnt_stall_w_q <= 32'd0;
      cnt_stall_a_q <= 32'd0;
      cnt_stall_r_q <= 32'd0;
      row_done_q    <= {NumRows{1'b0}};
    end else begin
      run_q         <= run_d;
      done_q        <= done_d;
      err_q         <= err_d;
      f_done_q      <= f_done_d;
      beats_m1_q    <= beats_m1_d;
      tiles_m1_q    <= tiles_m1_d;
      period_m1_q   <= period_m1_d;
      cnt_cycles_q  <= cnt_cycles_d;
      cnt_beats_q   <= cnt_beats_d;
      cnt_stall_w_q <= cnt_stall_w_d;
      cnt_stall_a_q <= cnt_stall_a_d;
      cnt_stall_r_q <= cnt_stall_r_d;
      row_done_q    <= row_done_d;
    end
  end

  // ---------------------------------------------------------------- counters of beats and rows
  // accepted input beats per stream: ready drops after exactly beats*tiles beats
  wire [31:0] unused_w_cnt, unused_a_cnt, unused_r_cnt;
  wire        unused_w_l0, unused_w_l1, unused_w_l, unused_a_l0, unused_a_l1, unused_a_l;
  wire        unused_f_l0, unused_f_l, unused_f_done, unused_r_l0, unused_r_l1, unused_r_done;

  s24_cnt2 u_cnt_w_in (
    .clk_i(clk_i), .rst_ni(rst_ni), .init_i(init), .inc_i(w_push), .max0_i(beats_m1_q), .max1_i(tiles_m1_q),
    .cnt0_o(unused_w_cnt), .last0_o(unused_w_l0), .last1_o(unused_w_l1), .last_o(unused_w_l),
    .done_o(w_in_done)
  );
  s24_cnt2 u_cnt_a_in (
    .clk_i(clk_i), .rst_ni(rst_ni), .init_i(init), .inc_i(a_push), .max0_i(beats_m1_q), .max1_i(tiles_m1_q),
    .cnt0_o(unused_a_cnt), .last0_o(unused_a_l0), .last1_o(unused_a_l1), .last_o(unused_a_l),
    .done_o(a_in_done)
  );
  // feed schedule: slot f_beat of the current tile period (beats are slots 0 .. beats-1)
  s24_cnt2 u_cnt_feed (
    .clk_i(clk_i), .rst_ni(rst_ni), .init_i(init), .inc_i(step && !f_done_q), .max0_i(period_m1_q),
    .max1_i(tiles_m1_q), .cnt0_o(f_beat), .last0_o(unused_f_l0), .last1_o(f_tile_last),
    .last_o(unused_f_l), .done_o(unused_f_done)
  );
  // accepted result beats: the job ends with the last one
  s24_cnt2 u_cnt_r_out (
    .clk_i(clk_i), .rst_ni(rst_ni), .init_i(init), .inc_i(r_pop), .max0_i(NumRows - 1), .max1_i(tiles_m1_q),
    .cnt0_o(unused_r_cnt), .last0_o(unused_r_l0), .last1_o(unused_r_l1), .last_o(r_pop_last),
    .done_o(unused_r_done)
  );

  // ---------------------------------------------------------------- input FIFOs
  wire [WBits-1:0] w_head;
  wire [ABits-1:0] a_head;

  assign w_ready_o = run_q && !w_in_done && !w_fifo_full;
  assign a_ready_o = run_q && !a_in_done && !a_fifo_full;

  s24_fifo #(.Width(WBits), .AddrWidth(1)) u_fifo_w (
    .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(clear_i), .push_i(w_push), .data_i(w_data_i), .pop_i(feed),
    .data_o(w_head), .empty_o(w_fifo_empty), .full_o(w_fifo_full)
  );
  s24_fifo #(.Width(ABits), .AddrWidth(1)) u_fifo_a (
    .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(clear_i), .push_i(a_push), .data_i(a_data_i), .pop_i(feed),
    .data_o(a_head), .empty_o(a_fifo_empty), .full_o(a_fifo_full)
  );

  // ---------------------------------------------------------------- metadata check
  wire [NumRows*VRowBits-1:0] w_vals = w_head[NumRows*VRowBits-1:0];
  wire [NumRows*IRowBits-1:0] w_idx;
  wire [NumRows*VRowBits-1:0] chk_vals;
  wire [NumRows*IRowBits-1:0] chk_idx;

  generate
    if (IdxWidth == 0) begin : g_no_meta
      assign w_idx = {(NumRows*IRowBits){1'b0}};
    end else begin : g_meta
      assign w_idx = w_head[WBits-1:NumRows*VRowBits];
    end
  endgenerate

  s24_meta_check #(
    .NumRows(NumRows), .SparseN(SparseN), .SparseM(SparseM), .DataWidth(DataWidth),
    .IdxStore(IdxStore)
  ) u_meta_check (
    .vals_i(w_vals), .idx_i(w_idx), .vals_o(chk_vals), .idx_o(chk_idx), .bad_o(meta_bad)
  );

  // flags of the injected beat: {last, first, valid}; bubbles are all zero
  wire [2:0] inj_flags = feed_slot ? {f_beat == beats_m1_q, f_beat == 32'd0, 1'b1} : 3'b000;

  // ---------------------------------------------------------------- skew and PE array
  // w_h: weights entering PE (r, c) (c = NumCols: leaving the row); a_v: activations entering (r, c)
  localparam integer WBundle = VRowBits + IRowBits + 3;
  wire [NumRows*(NumCols+1)*WBundle-1:0] w_h;
  wire [(NumRows+1)*NumCols*AColBits-1:0] a_v;
  wire [NumRows*NumCols*AccWidth-1:0]     shadow;
  wire [NumRows*NumCols-1:0]              cap;

  genvar r, c;
  generate
    for (r = 0; r < NumRows; r = r + 1) begin : g_row
      wire [VRowBits-1:0] sk_vals;
      wire [IRowBits-1:0] sk_idx;
      wire [2:0]          sk_flags;
      s24_skew #(.DataBits(VRowBits + IRowBits), .FlagBits(3), .Depth(r + 1)) u_skew_w (
        .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(clear_i), .step_i(step),
        .data_i({chk_idx[r*IRowBits +: IRowBits], chk_vals[r*VRowBits +: VRowBits]}),
        .flags_i(inj_flags),
        .data_o({sk_idx, sk_vals}), .flags_o(sk_flags)
      );
      assign w_h[(r*(NumCols+1))*WBundle +: WBundle] = {sk_flags, sk_idx, sk_vals};
      assign pe_cap[r] = cap[r*NumCols + NumCols - 1];
    end

    for (c = 0; c < NumCols; c = c + 1) begin : g_col
      wire [AColBits-1:0] sk_act;
      wire                unused_sk_flag;
      s24_skew #(.DataBits(AColBits), .FlagBits(1), .Depth(c + 1)) u_skew_a (
        .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(clear_i), .step_i(step),
        .data_i(a_head[c*AColBits +: AColBits]), .flags_i(1'b0),
        .data_o(sk_act), .flags_o(unused_sk_flag)
      );
      assign a_v[c*AColBits +: AColBits] = sk_act;
    end

    for (r = 0; r < NumRows; r = r + 1) begin : g_pe_row
      for (c = 0; c < NumCols; c = c + 1) begin : g_pe_col
        localparam integer WIn  = (r*(NumCols+1) + c) * WBundle;
        localparam integer WOut = (r*(NumCols+1) + c + 1) * WBundle;
        s24_pe #(
          .SparseN(SparseN), .SparseM(SparseM), .DataWidth(DataWidth), .AccWidth(AccWidth),
          .IdxStore(IdxStore)
        ) u_pe (
          .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(clear_i), .step_i(step),
          .wv_i(w_h[WIn +: VRowBits]),
          .wi_i(w_h[WIn + VRowBits +: IRowBits]),
          .wf_i(w_h[WIn + VRowBits + IRowBits +: 3]),
          .a_i(a_v[(r*NumCols + c)*AColBits +: AColBits]),
          .wv_o(w_h[WOut +: VRowBits]),
          .wi_o(w_h[WOut + VRowBits +: IRowBits]),
          .wf_o(w_h[WOut + VRowBits + IRowBits +: 3]),
          .a_o(a_v[((r+1)*NumCols + c)*AColBits +: AColBits]),
          .cap_o(cap[r*NumCols + c]),
          .shadow_o(shadow[(r*NumCols + c)*AccWidth +: AccWidth])
        );
      end
    end
  endgenerate

  // operands leaving the array edge are unused
  reg unused_edges;
  integer er;
  always @* begin
    unused_edges = 1'b0;
    for (er = 0; er < NumRows; er = er + 1)
      unused_edges = unused_edges ^ (^w_h[(er*(NumCols+1) + NumCols)*WBundle +: WBundle]);
    unused_edges = unused_edges ^ (^a_v[NumRows*NumCols*AColBits +: NumCols*AColBits]);
  end

  // ---------------------------------------------------------------- drain and output FIFO
  // row_done_q[r]: row r finished in the previous step; its shadows go out in this step.
  reg [RBits-1:0] drain_row;
  integer dr;
  always @* begin
    drain_row = {RBits{1'b0}};
    for (dr = 0; dr < NumRows; dr = dr + 1) begin
      if (row_done_q[dr]) drain_row = drain_row | shadow[dr*RBits +: RBits];
    end
  end

  wire [RBits:0] r_head;
  s24_fifo #(.Width(RBits + 1), .AddrWidth(1)) u_fifo_r (
    .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(clear_i), .push_i(step && push_pend),
    .data_i({row_done_q[NumRows-1], drain_row}), .pop_i(r_pop),
    .data_o(r_head), .empty_o(r_fifo_empty), .full_o(r_fifo_full)
  );

  assign r_valid_o  = !r_fifo_empty;
  assign r_data_o   = r_head[RBits-1:0];
  assign r_last_o   = r_head[RBits];
  assign busy_o     = run_q;
  assign done_o     = done_q;
  assign err_meta_o = err_q;
  assign cnt_cycles_o  = cnt_cycles_q;
  assign cnt_beats_o   = cnt_beats_q;
  assign cnt_stall_w_o = cnt_stall_w_q;
  assign cnt_stall_a_o = cnt_stall_a_q;
  assign cnt_stall_r_o = cnt_stall_r_q;

`ifdef FORMAL
  // fv_live_q: out of reset (assertions sample it instead of the asynchronous reset)
  reg fv_live_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_live_q <= 1'b0;
    else         fv_live_q <= 1'b1;
  end
  reg        past_ok_q;
  reg        w_hold_q, a_hold_q, r_hold_q;
  reg [WBits-1:0] w_data_past_q;
  reg [ABits-1:0] a_data_past_q;
  reg [RBits:0]   r_data_past_q;
  integer fr;
  integer nrow;
  always @* begin
    nrow = 0;
    for (fr = 0; fr < NumRows; fr = fr + 1) if (row_done_q[fr]) nrow = nrow + 1;
  end
  always @(posedge clk_i) begin
    past_ok_q     <= fv_live_q && !clear_i;
    w_hold_q      <= w_valid_i && !w_ready_o;
    a_hold_q      <= a_valid_i && !a_ready_o;
    r_hold_q      <= r_valid_o && !r_ready_i;
    w_data_past_q <= w_data_i;
    a_data_past_q <= a_data_i;
    r_data_past_q <= {r_last_o, r_data_o};
    if (fv_live_q && !clear_i && past_ok_q) begin
      // stream protocol: a valid beat stays, unchanged, until accepted
      if (w_hold_q && run_q) assert (w_valid_i && w_data_i == w_data_past_q) else $error("w stream: beat withdrawn or changed before w_ready_o");
      if (a_hold_q && run_q) assert (a_valid_i && a_data_i == a_data_past_q) else $error("a stream: beat withdrawn or changed before a_ready_o");
      if (r_hold_q) assert (r_valid_o && {r_last_o, r_data_o} == r_data_past_q) else $error("r stream: beat withdrawn or changed before r_ready_i");
    end
    if (fv_live_q) begin
      // at most one tile row completes per step (tile period >= NumRows)
      assert (nrow <= 1) else $error("two tile rows completed in one step");
      // no beat lost: a result row is never pushed into a full FIFO, inputs never popped empty
      assert (!(step && push_pend && r_fifo_full)) else $error("result row pushed into a full FIFO");
      assert (!(feed && (w_fifo_empty || a_fifo_empty))) else $error("feed step without input beats");
      assert (!(w_push && w_fifo_full) && !(a_push && a_fifo_full)) else $error("input beat accepted into a full FIFO");
    end
  end
`endif

endmodule

`resetall
