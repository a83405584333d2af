// SPDX-License-Identifier: Apache-2.0
// s24_core: N:M-sparse int8 x int8 -> int32 output-stationary systolic MMA core with valid/ready streams.
`default_nettype none

// Dataflow and timing: docs/architecture.md sections 1-3. Summary:
//  * input queues (s24_inq: register slice + 4-entry FIFO) on w and a; a result buffer (RAM
//    FIFO, s24_rbuf) on r; the start and its configuration are registered first (pend_q);
//  * no global enable: the skew lines, the PE array and the drain run free every cycle. The
//    schedule injects one w and one a beat per feed slot, or a bubble (tile spacing, or a feed
//    slot whose input beats are missing: it waits, the array does not);
//  * output backpressure is absorbed by the result buffer: a tile's last beat is injected only
//    when the buffer has room reserved for the tile's R rows (credits), so the drain never
//    waits and the results of injected tiles drain whatever the input streams do;
//  * metadata check -> skew (row r: r+1 cycles, column c: c+1 cycles) -> PE array
//    (weights hop right, activations hop down) -> per-row drain of the PE shadows;
//  * tile period P = max(beats, NumRows, NumCols) slots (bubbles only when beats < P);
//  * pair mode (PairMode, a 2:m core, chosen per job by cfg_pair_i): 1:m weights, each PE's two
//    slots serve two output rows (tile rows 2r, 2r+1 of PE row r) with absolute indices and two
//    accumulators, so a tile has 2R rows and P = max(beats, 2R, R + C) (docs §1, §3).
module s24_core #(
  parameter integer NumRows   = 4,  // R: tile rows (rows of A per tile) = PE rows
  parameter integer NumCols   = 4,  // C: tile columns (columns of B per tile) = PE columns
  parameter integer SparseN   = 2,  // n: kept values per group = multipliers per PE
  parameter integer SparseM   = 4,  // m: group size along K, 2, 4 or 8 (n == m: dense)
  parameter integer DataWidth = 8,  // operand width, signed; must be 8 (stream layout)
  parameter integer AccWidth  = 32, // accumulator and result width, wraps; must be 32
  parameter integer PairMode  = 1   // 1: per-job pair (1:m) mode on a 2:m core (SparseN == 2 <
                                    // SparseM); 0: the 2:m-only core (cfg_pair_i ignored)
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        clear_i,       // soft reset: idle, drop in-flight data, clear error/counters
  input  wire        start_i,       // pulse while idle; ignored if beats or tiles == 0
  input  wire [31:0] cfg_beats_i,   // beats per tile (sampled at start)
  input  wire [31:0] cfg_tiles_i,   // tiles in the job (sampled at start)
  input  wire        cfg_pair_i,    // pair (1:m) mode for the job, 2R rows a tile (sampled at start)
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
  // job counters: final at done_o, restarted in the second cycle after a start (or clear_i)
  output wire [31:0] cnt_cycles_o,  // cycles busy in this job
  output wire [31:0] cnt_beats_o,   // cycles that injected a beat (MAC-active cycles)
  output wire [31:0] cnt_stall_w_o, // busy cycles a feed slot waited on the weight stream
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
  // relative index of slot s = its index - s, in 0 .. m-n (canonical metadata): m-n+1 mux inputs
  // (pair-capable core: the absolute index, log2(m) bits, so a slot can take any activation)
  localparam         Pair      = (PairMode != 0) && (SparseN == 2) && (SparseM > 2);
  localparam integer RelWidth  = (SparseN == SparseM) ? 0 : Pair ? IdxWidth : $clog2(SparseM - SparseN + 1);
  localparam integer RelStore  = (RelWidth == 0) ? 1 : RelWidth;
  localparam integer RRowBits  = SparseN*RelStore;    // relative indices of one row
  localparam integer MinPeriod = (NumRows > NumCols) ? NumRows : NumCols;
  // pair mode: 2R rows drain one a cycle (P >= 2R), and the last row's second shadow is read R
  // cycles after the first, before the next tile's capture in column 0 (P >= R + C)
  localparam integer MinPeriodP = NumRows + MinPeriod;
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
  // Everything below the injection register runs free (no enable): a missing input beat or a
  // result row without reserved room becomes a bubble, never a stall of the array. Every decision
  // here is made from registered state only: FIFO fill levels, the schedule's precomputed
  // slot flags and the registered credit check.
  localparam integer RowLat    = NumCols + 13;  // >= last-beat injection to row 0 popped (docs §3)
  localparam integer CredNeed2 = NumRows * ((RowLat + NumRows + MinPeriod - 1) / MinPeriod + 1);
  localparam integer CredNeedP = 2 * NumRows * ((RowLat + 2 * NumRows + MinPeriodP - 1) / MinPeriodP + 1);
  localparam integer CredNeed  = (Pair && CredNeedP > CredNeed2) ? CredNeedP : CredNeed2;
  localparam integer OutAw     = (CredNeed <= 2) ? 1 : $clog2(CredNeed);
  localparam integer CredCap   = (1 << OutAw) + 2;   // RAM entries + the two output registers
  localparam integer CredW     = OutAw + 2;

  reg        run_q, run_d;
  reg        done_q, done_d;
  reg        err_q, err_d;
  reg        f_done_q, f_done_d;      // every beat of the job injected
  reg [31:0] beats_m1_q, beats_m1_d;  // G - 1 (last beat of a tile, for the input counters)
  reg [31:0] beats_m2_q, beats_m2_d;  // G - 2 (compared with the slot before it advances)
  reg [31:0] tiles_m1_q, tiles_m1_d;  // T - 1
  reg [31:0] period_m2_q, period_m2_d;
  reg [31:0] tiles_m2_q, tiles_m2_d;
  reg        g_one_q, g_one_d;        // G == 1
  reg        p_one_q, p_one_d;        // P == 1
  reg        t_one_q, t_one_d;        // T == 1
  reg [31:0] slot_q, slot_d;          // slot of the current tile period, 0 .. P-1
  reg [31:0] tile_q, tile_d;          // tile being injected
  reg        s_feed_q, s_feed_d;      // slot < G: the slot injects a beat (else a spacing bubble)
  reg        s_last_q, s_last_d;      // slot == G-1: the tile's last beat
  reg        s_end_q, s_end_d;        // slot == P-1
  reg        t_last_q, t_last_d;      // tile == T-1
  reg [CredW-1:0] cred_q, cred_d;     // result rows the buffer can still take (not reserved)
  reg        cred_ok_q, cred_ok_d;    // cred_q >= NumRows
  reg        clr_q;                   // clear_i one cycle later: clears the array and the drain

  // start: the request and the configuration are registered first (pend_q, cfg_*_q), so the
  // job's registers load from flops in the next cycle; that cycle counts as busy
  reg        pend_q;
  reg [31:0] cfg_beats_q, cfg_tiles_q;
  reg        cfg_long_q;   // cfg_beats > max(R, C) (pair: R + max(R, C)): P is the beat count
  reg        cfg_pair_q;   // the request's mode (Pair only)
  reg        pair_q, pair_d;  // the job's mode: pair (2R rows a tile)
  wire       chk_pair;        // the weight check's copy of the mode (see the metadata check)
  wire start_req = start_i && !run_q && !pend_q && !clear_i;
  wire start_acc = start_req && (cfg_beats_i != 32'd0) && (cfg_tiles_i != 32'd0);  // pend_q next
  wire start_ok  = pend_q && !clear_i;
  wire init      = start_ok || clear_i;

  wire w_fifo_empty, a_fifo_empty;
  wire r_pop_last;
  reg  drain_valid_q;   // a result row enters the result buffer (the drain, below)
  reg  drain_last_q;    // ... and it is its tile's last row

  // the schedule: a feed slot injects when both beats are there (and, for the last beat of a
  // tile, when the result buffer has room reserved for the tile's rows); a spacing slot always
  // advances; a feed slot that cannot inject waits (a bubble enters the array)
  wire sched    = run_q && !f_done_q;
  wire in_ok    = !w_fifo_empty && !a_fifo_empty;
  wire inj      = sched && s_feed_q && in_ok && (!s_last_q || cred_ok_q);
  wire advance  = inj || (sched && !s_feed_q);
  wire reserve  = inj && s_last_q;
  wire r_pop    = r_valid_o && r_ready_i;

  // the tile period P = max(G, R, C): whether G wins is registered with the configuration, so the
  // start cycle only selects between G - 2 and a constant
  localparam integer     MinPeriodM2I = MinPeriod - 2;
  localparam [31:0]      MinPeriodM2  = MinPeriodM2I[31:0];
  localparam [0:0]      MinPeriodOne = (MinPeriod == 1) ? 1'b1 : 1'b0;
  localparam integer     MinPeriodPM2I = MinPeriodP - 2;
  localparam [31:0]      MinPeriodPM2  = MinPeriodPM2I[31:0];
  wire [31:0] cfg_beats_m2 = cfg_beats_q - 32'd2;

  // credit outcomes (reserve a tile's rows, return one row, both), each with its check
  localparam [CredW-1:0] CredRows  = NumRows[CredW-1:0];
  localparam integer     CredRowsPI = 2 * NumRows;
  localparam [CredW-1:0] CredRowsP = CredRowsPI[CredW-1:0];   // a pair-mode tile's rows
  wire [CredW-1:0] tile_rows       = pair_q ? CredRowsP : CredRows;
  wire [CredW-1:0] cred_res        = cred_q - tile_rows;
  wire [CredW-1:0] cred_res_pop    = cred_q - tile_rows + 1'b1;
  wire [CredW-1:0] cred_pop        = cred_q + 1'b1;
  // the checks compare cred_q with constants (cred_q - R >= R  <=>  cred_q >= 2R, ...), in parallel
  localparam integer     CredRows2I   = 2 * NumRows;
  localparam integer     CredRows2m1I = 2 * NumRows - 1;
  localparam integer     CredRowsM1I  = NumRows - 1;
  localparam [CredW-1:0] CredRows2    = CredRows2I[CredW-1:0];
  localparam [CredW-1:0] CredRows2m1  = CredRows2m1I[CredW-1:0];
  localparam [CredW-1:0] CredRowsM1   = CredRowsM1I[CredW-1:0];
  localparam integer     CredRows4I   = 4 * NumRows;
  localparam integer     CredRows4m1I = 4 * NumRows - 1;
  localparam integer     CredRowsP1I  = 2 * NumRows - 1;
  localparam [CredW-1:0] CredRows4    = CredRows4I[CredW-1:0];
  localparam [CredW-1:0] CredRows4m1  = CredRows4m1I[CredW-1:0];
  localparam [CredW-1:0] CredRowsP1   = CredRowsP1I[CredW-1:0];
  wire             cred_res_ok     = pair_q ? (cred_q >= CredRows4) : (cred_q >= CredRows2);
  wire             cred_res_pop_ok = pair_q ? (cred_q >= CredRows4m1) : (cred_q >= CredRows2m1);
  wire             cred_pop_ok;
  generate
    if (NumRows == 1) begin : g_pop_ok_one
      assign cred_pop_ok = pair_q ? (cred_q >= CredRowsP1) : 1'b1;   // cred_q + 1 >= 1
    end else begin : g_pop_ok
      assign cred_pop_ok = pair_q ? (cred_q >= CredRowsP1) : (cred_q >= CredRowsM1);
    end
  endgenerate
  wire [NumRows-1:0] meta_bad;
  reg  [NumRows-1:0] bad_q;   // per row: the injected beat's metadata was invalid (registered)

  always @* begin
    run_d         = run_q;
    done_d        = 1'b0;
    err_d         = err_q;
    f_done_d      = f_done_q;
    beats_m1_d    = beats_m1_q;
    beats_m2_d    = beats_m2_q;
    tiles_m1_d    = tiles_m1_q;
    period_m2_d   = period_m2_q;
    tiles_m2_d    = tiles_m2_q;
    g_one_d       = g_one_q;
    p_one_d       = p_one_q;
    t_one_d       = t_one_q;
    slot_d        = slot_q;
    tile_d        = tile_q;
    s_feed_d      = s_feed_q;
    s_last_d      = s_last_q;
    s_end_d       = s_end_q;
    t_last_d      = t_last_q;
    cred_d        = cred_q;
    cred_ok_d     = cred_ok_q;
    pair_d        = pair_q;

    if (|bad_q) err_d = 1'b1;   // a beat injected in the previous cycle had invalid metadata
    if (start_acc) err_d = 1'b0;  // a new job: err_meta_o restarts from the cycle after start_i
    if (inj && s_last_q && t_last_q) f_done_d = 1'b1;

    // next slot and its flags, each from registered state (no wide compare after a decision)
    if (advance) begin
      if (s_end_q) begin
        slot_d   = 32'd0;
        s_feed_d = 1'b1;
        s_last_d = g_one_q;
        s_end_d  = p_one_q;
        tile_d   = tile_q + 32'd1;
        t_last_d = (tile_q == tiles_m2_q);
      end else begin
        slot_d   = slot_q + 32'd1;
        s_feed_d = s_feed_q && !s_last_q;
        s_last_d = (slot_q == beats_m2_q);
        s_end_d  = (slot_q == period_m2_q);
      end
    end

    // credits: a tile's rows are reserved when its last beat is injected, returned when read.
    // The four outcomes and their checks are computed from cred_q alone, in parallel with the
    // decision, which only selects one (no arithmetic after inj or r_pop).
    case ({reserve, r_pop})
      2'b10:   begin cred_d = cred_res;     cred_ok_d = cred_res_ok;     end
      2'b11:   begin cred_d = cred_res_pop; cred_ok_d = cred_res_pop_ok; end
      2'b01:   begin cred_d = cred_pop;     cred_ok_d = cred_pop_ok;     end
      default: begin cred_d = cred_q;       cred_ok_d = cred_ok_q;       end
    endcase

    if (r_pop && r_pop_last) begin
      run_d  = 1'b0;
      done_d = 1'b1;
    end

    if (start_ok) begin
      run_d         = 1'b1;
      err_d         = 1'b0;
      f_done_d      = 1'b0;
      beats_m1_d    = cfg_beats_q - 32'd1;
      beats_m2_d    = cfg_beats_m2;
      tiles_m1_d    = cfg_tiles_q - 32'd1;
      period_m2_d   = cfg_long_q ? cfg_beats_m2 : (Pair && cfg_pair_q) ? MinPeriodPM2 : MinPeriodM2;
      pair_d        = Pair && cfg_pair_q;
      tiles_m2_d    = cfg_tiles_q - 32'd2;
      g_one_d       = (cfg_beats_q == 32'd1);
      p_one_d       = !cfg_long_q && MinPeriodOne && !(Pair && cfg_pair_q);   // G > max(R, C) >= 1 gives P >= 2; pair: P >= 2
      t_one_d       = (cfg_tiles_q == 32'd1);
      slot_d        = 32'd0;
      tile_d        = 32'd0;
      s_feed_d      = 1'b1;
      s_last_d      = (cfg_beats_q == 32'd1);
      s_end_d       = !cfg_long_q && MinPeriodOne && !(Pair && cfg_pair_q);
      t_last_d      = (cfg_tiles_q == 32'd1);
      cred_d        = CredCap[CredW-1:0];
      cred_ok_d     = 1'b1;
    end
    if (clear_i) begin
      run_d         = 1'b0;
      done_d        = 1'b0;
      err_d         = 1'b0;
      f_done_d      = 1'b0;
      cred_d        = CredCap[CredW-1:0];
      cred_ok_d     = 1'b1;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q         <= 1'b0;
      done_q        <= 1'b0;
      err_q         <= 1'b0;
      f_done_q      <= 1'b0;
      beats_m1_q    <= 32'd0;
      beats_m2_q    <= 32'd0;
      tiles_m1_q    <= 32'd0;
      period_m2_q   <= 32'd0;
      tiles_m2_q    <= 32'd0;
      g_one_q       <= 1'b1;   // beats_m1_q resets to 0: G = 1
      p_one_q       <= 1'b0;
      t_one_q       <= 1'b1;   // tiles_m1_q resets to 0: T = 1
      slot_q        <= 32'd0;
      tile_q        <= 32'd0;
      s_feed_q      <= 1'b0;
      s_last_q      <= 1'b0;
      s_end_q       <= 1'b0;
      t_last_q      <= 1'b0;
      cred_q        <= CredCap[CredW-1:0];
      cred_ok_q     <= 1'b1;
      pair_q        <= 1'b0;
      clr_q         <= 1'b1;
    end else begin
      run_q         <= run_d;
      done_q        <= done_d;
      err_q         <= err_d;
      f_done_q      <= f_done_d;
      beats_m1_q    <= beats_m1_d;
      beats_m2_q    <= beats_m2_d;
      tiles_m1_q    <= tiles_m1_d;
      period_m2_q   <= period_m2_d;
      tiles_m2_q    <= tiles_m2_d;
      g_one_q       <= g_one_d;
      p_one_q       <= p_one_d;
      t_one_q       <= t_one_d;
      slot_q        <= slot_d;
      tile_q        <= tile_d;
      s_feed_q      <= s_feed_d;
      s_last_q      <= s_last_d;
      s_end_q       <= s_end_d;
      t_last_q      <= t_last_d;
      cred_q        <= cred_d;
      cred_ok_q     <= cred_ok_d;
      pair_q        <= pair_d;
      clr_q         <= clear_i;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) pend_q <= 1'b0;
    else         pend_q <= start_acc;
  end
  // the configuration of a start request (used only with pend_q: not reset)
  always @(posedge clk_i) begin
    if (start_req) begin
      cfg_beats_q <= cfg_beats_i;
      cfg_tiles_q <= cfg_tiles_i;
      cfg_long_q  <= (Pair && cfg_pair_i) ? (cfg_beats_i > MinPeriodP[31:0]) : (cfg_beats_i > MinPeriod[31:0]);
      cfg_pair_q  <= cfg_pair_i;
    end
  end

  // the array and the drain are cleared with clear_i and one cycle after it (clr_q is the
  // registered copy that fans out to them)
  wire arr_clr = clr_q;
  wire drn_clr = clear_i || clr_q;

  // ---------------------------------------------------------------- input queues and result count
  // Each input stream: a register slice, a 4-entry FIFO and the count of the job's beats
  // (s24_inq): ready is a register and drops after exactly beats*tiles accepted beats. The
  // counters' first flags: of the job being started, or (clear) of the maxima they keep.
  wire first_g = start_ok ? (cfg_beats_q == 32'd1) : g_one_q;
  wire first_t = start_ok ? (cfg_tiles_q == 32'd1) : t_one_q;
  // The weight queue stores each beat checked (below): per row its kept values (invalid groups
  // zeroed), their relative indices and its error flag, so only the queue's RAM read, no logic,
  // lies between the read pointer and the array's first registers or the error flag.
  localparam integer WQBits = (IdxWidth == 0) ? NumRows*VRowBits : NumRows*(VRowBits + RRowBits + 1);
  wire [WBits-1:0]  w_slice;   // the slice's beat (unchecked)
  wire [WQBits-1:0] w_q;       // ... checked, as the queue stores it
  wire [WQBits-1:0] w_head;
  wire [ABits-1:0]  a_slice;
  wire [ABits-1:0]  a_head;

  s24_inq #(.Width(WBits), .QWidth(WQBits), .AddrWidth(2)) u_inq_w (
    .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(clear_i), .arm_i(start_ok),
    .first0_i(first_g), .first1_i(first_t), .max0_i(beats_m1_q), .max1_i(tiles_m1_q),
    .valid_i(w_valid_i), .ready_o(w_ready_o), .data_i(w_data_i),
    .sl_data_o(w_slice), .q_data_i(w_q),
    .pop_i(inj), .data_o(w_head), .empty_o(w_fifo_empty)
  );
  s24_inq #(.Width(ABits), .AddrWidth(2)) u_inq_a (
    .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(clear_i), .arm_i(start_ok),
    .first0_i(first_g), .first1_i(first_t), .max0_i(beats_m1_q), .max1_i(tiles_m1_q),
    .valid_i(a_valid_i), .ready_o(a_ready_o), .data_i(a_data_i),
    .sl_data_o(a_slice), .q_data_i(a_slice),
    .pop_i(inj), .data_o(a_head), .empty_o(a_fifo_empty)
  );

  // result tiles pushed into the result buffer: the job's last row (the last row of tile T - 1)
  // is marked in its entry, so the job ends when that entry is read (r_ready_i reaches no
  // counter). r_tlast_q: the tile being pushed is the job's last, computed one tile ahead (a
  // compare of the count with T - 2, no carry chain before it). The restart is a flop
  // (job_clr_q, below): start and clear reach the count one cycle later, before any push.
  reg  [31:0] r_tile_q;
  reg         r_tlast_q;
  // T - 2 for this compare: a copy of tiles_m2_q (s24_ff: not merged with it), so the compare sits
  // by the result side instead of reaching the schedule's copy across the device
  wire [31:0] r_tiles_m2;
  s24_ff #(.Width(32)) u_r_tiles_m2 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(tiles_m2_d), .q_o(r_tiles_m2));
  wire        r_push_last = r_tlast_q && drain_last_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_tile_q  <= 32'd0;
      r_tlast_q <= 1'b1;   // tiles_m1_q resets to 0: T = 1
    end else if (job_clr_q) begin
      r_tile_q  <= 32'd0;
      r_tlast_q <= t_one_at_clr_q;
    end else if (drain_valid_q && drain_last_q) begin
      r_tile_q  <= r_tile_q + 32'd1;
      r_tlast_q <= (r_tile_q == r_tiles_m2);
    end
  end

  // ---------------------------------------------------------------- job counters
  // Every input of a counter is a flop of its own, set one cycle ahead, so each counter's enable
  // is one LUT of nearby flops (the counters sit far from the schedule, by their readers):
  // job_clr_q restarts them (the cycle after a start request is accepted, or after clear_i), and
  // ev_*_q count. ev_cyc_q is busy_o itself (counted in its own cycle); the other events are
  // counted one cycle late, which is before done_o: every beat and stall of a job happens before
  // the cycle its last result is read, and that cycle only counts in cnt_cycles.
  reg         job_clr_q;        // start request accepted or clear_i, one cycle ago
  reg         t_one_at_clr_q;   // with job_clr_q: T == 1 for the job the restart is for
  reg         ev_cyc_q, ev_beat_q, ev_stw_q, ev_sta_q, ev_str_q;
  reg  [31:0] cnt_cycles_q, cnt_beats_q, cnt_stall_w_q, cnt_stall_a_q, cnt_stall_r_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      job_clr_q      <= 1'b0;
      t_one_at_clr_q <= 1'b1;
      ev_cyc_q       <= 1'b0;
      ev_beat_q      <= 1'b0;
      ev_stw_q       <= 1'b0;
      ev_sta_q       <= 1'b0;
      ev_str_q       <= 1'b0;
    end else begin
      job_clr_q      <= start_acc || clear_i;
      t_one_at_clr_q <= (cfg_tiles_i == 32'd1);
      ev_cyc_q       <= run_d || start_acc;   // busy_o in the next cycle
      ev_beat_q      <= inj;
      ev_stw_q       <= sched && s_feed_q && w_fifo_empty;
      ev_sta_q       <= sched && s_feed_q && a_fifo_empty;
      ev_str_q       <= run_q && r_valid_o && !r_ready_i;
    end
  end
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_cycles_q  <= 32'd0;
      cnt_beats_q   <= 32'd0;
      cnt_stall_w_q <= 32'd0;
      cnt_stall_a_q <= 32'd0;
      cnt_stall_r_q <= 32'd0;
    end else if (job_clr_q) begin
      cnt_cycles_q  <= {31'd0, ev_cyc_q};   // the start request's pend cycle is busy
      cnt_beats_q   <= 32'd0;
      cnt_stall_w_q <= 32'd0;
      cnt_stall_a_q <= 32'd0;
      cnt_stall_r_q <= 32'd0;
    end else begin
      if (ev_cyc_q)  cnt_cycles_q  <= cnt_cycles_q + 32'd1;
      if (ev_beat_q) cnt_beats_q   <= cnt_beats_q + 32'd1;
      if (ev_stw_q)  cnt_stall_w_q <= cnt_stall_w_q + 32'd1;
      if (ev_sta_q)  cnt_stall_a_q <= cnt_stall_a_q + 32'd1;
      if (ev_str_q)  cnt_stall_r_q <= cnt_stall_r_q + 32'd1;
    end
  end

  // ---------------------------------------------------------------- metadata check
  // on the weight queue's slice, before its FIFO (w_q); the head carries the result
  wire [NumRows*VRowBits-1:0] w_vals = w_slice[NumRows*VRowBits-1:0];
  wire [NumRows*IRowBits-1:0] w_idx;
  wire [NumRows*VRowBits-1:0] chk_vals;
  wire [NumRows*IRowBits-1:0] chk_idx;
  wire [NumRows*RRowBits-1:0] chk_rel;   // relative indices: index of slot s minus s

  generate
    if (IdxWidth == 0) begin : g_no_meta
      assign w_idx = {(NumRows*IRowBits){1'b0}};
    end else begin : g_meta
      assign w_idx = w_slice[WBits-1:NumRows*VRowBits];
    end
  endgenerate

  wire [NumRows*VRowBits-1:0] mc_vals;
  wire [NumRows*IRowBits-1:0] mc_idx;
  wire [NumRows-1:0]          mc_bad;
  s24_meta_check #(
    .NumRows(NumRows), .SparseN(SparseN), .SparseM(SparseM), .DataWidth(DataWidth),
    .IdxStore(IdxStore)
  ) u_meta_check (
    .vals_i(w_vals), .idx_i(w_idx), .vals_o(mc_vals), .idx_o(mc_idx), .bad_o(mc_bad)
  );
  // pair mode: each slot is a 1:m group of its own row, so every index is valid and the beat
  // passes unchanged. The select is a flop of its own, chk_pair_q, loaded with the request
  // (start_req: no job runs, so no beat is in the slice) and equal to pair_q while the job's beats
  // arrive: the mux of every weight bit in front of the W FIFO hangs on it, placed beside the
  // FIFO, not on pair_q's net across the control logic (a 4.2 ns net on ECP5).
  generate
    if (Pair) begin : g_chk_pair
      reg chk_pair_q;
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni)        chk_pair_q <= 1'b0;
        else if (start_req) chk_pair_q <= cfg_pair_i;
      end
      assign chk_pair = chk_pair_q;
      assign chk_vals = chk_pair_q ? w_vals : mc_vals;
      assign chk_idx  = chk_pair_q ? w_idx  : mc_idx;
      assign meta_bad = chk_pair_q ? {NumRows{1'b0}} : mc_bad;
    end else begin : g_chk
      assign chk_pair = 1'b0;
      assign chk_vals = mc_vals;
      assign chk_idx  = mc_idx;
      assign meta_bad = mc_bad;
    end
  endgenerate
  wire unused_chk_pair = chk_pair;   // read by the formal properties only

  genvar gr, gs;
  generate
    for (gr = 0; gr < NumRows; gr = gr + 1) begin : g_rel_row
      for (gs = 0; gs < SparseN; gs = gs + 1) begin : g_rel_slot
        // pair-capable core: the absolute index (Slot 0)
        localparam [IdxStore:0] Slot = Pair ? 0 : gs;
        wire [IdxStore:0] rel_full = {1'b0, chk_idx[(gr*SparseN+gs)*IdxStore +: IdxStore]} - Slot;
        assign chk_rel[(gr*SparseN+gs)*RelStore +: RelStore] = rel_full[RelStore-1:0];
        if (RelStore < IdxStore + 1) begin : g_unused
          wire unused_rel_hi = ^rel_full[IdxStore:RelStore];
        end
      end
    end
  endgenerate

  // the queue's entry {error flags, relative indices, values}; dense: the values only
  wire [NumRows*VRowBits-1:0] head_vals = w_head[NumRows*VRowBits-1:0];
  wire [NumRows*RRowBits-1:0] head_rel;
  wire [NumRows-1:0]          head_bad;
  generate
    if (IdxWidth == 0) begin : g_q_dense
      assign w_q      = chk_vals;
      assign head_rel = {(NumRows*RRowBits){1'b0}};
      assign head_bad = {NumRows{1'b0}};
      wire unused_chk = ^{chk_rel, meta_bad};
    end else begin : g_q_sparse
      assign w_q      = {meta_bad, chk_rel, chk_vals};
      assign head_rel = w_head[NumRows*VRowBits +: NumRows*RRowBits];
      assign head_bad = w_head[NumRows*(VRowBits+RRowBits) +: NumRows];
    end
  endgenerate

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) bad_q <= {NumRows{1'b0}};
    else         bad_q <= (inj && !init) ? head_bad : {NumRows{1'b0}};
  end

  // flags of the injected beat: {last, valid}; bubbles are all zero
  wire [1:0] inj_flags = inj ? {s_last_q, 1'b1} : 2'b00;

  // ---------------------------------------------------------------- skew and PE array
  // w_h: weights entering PE (r, c) (c = NumCols: leaving the row); a_v: activations entering (r, c)
  localparam integer WBundle = VRowBits + RRowBits + 2;
  wire [NumRows*(NumCols+1)*WBundle-1:0] w_h;
  wire [(NumRows+1)*NumCols*AColBits-1:0] a_v;
  wire [NumRows*NumCols*AccWidth-1:0]     shadow;
  wire [NumRows*NumCols-1:0]              cap;
  wire [NumRows*NumCols*AccWidth-1:0]     shadow1;   // pair mode: slot 1's results
  wire [NumRows*(NumCols+1)-1:0]          pair_h;    // the job's mode entering PE (r, c)

  genvar r, c;
  generate
    for (r = 0; r < NumRows; r = r + 1) begin : g_row
      wire [VRowBits-1:0] sk_vals;
      wire [RRowBits-1:0] sk_rel;
      wire [1:0]          sk_flags;
      s24_skew #(.DataBits(VRowBits + RRowBits), .FlagBits(2), .Depth(r + 1)) u_skew_w (
        .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(arr_clr),
        .data_i({head_rel[r*RRowBits +: RRowBits], head_vals[r*VRowBits +: VRowBits]}),
        .flags_i(inj_flags),
        .data_o({sk_rel, sk_vals}), .flags_o(sk_flags)
      );
      assign w_h[(r*(NumCols+1))*WBundle +: WBundle] = {sk_flags, sk_rel, sk_vals};
      // the mode reaches row r r + 1 cycles after pair_q, then hops right PE by PE (a job's
      // first beat reaches PE (r, c) at least 4 cycles later than its mode)
      // (none without the pair mode: instantiated s24_ff cells would survive synthesis)
      if (Pair) begin : g_pm
        wire [r:0] pm_q;
        wire [r:0] pm_d;
        if (r == 0) begin : g_pm_one
          assign pm_d = pair_q;
        end else begin : g_pm_chain
          assign pm_d = {pm_q[r-1:0], pair_q};
        end
        s24_ff #(.Width(r + 1)) u_pair (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(pm_d), .q_o(pm_q));
        assign pair_h[r*(NumCols+1)] = pm_q[r];
      end else begin : g_no_pm
        assign pair_h[r*(NumCols+1)] = 1'b0;
      end
    end

    for (c = 0; c < NumCols; c = c + 1) begin : g_col
      wire [AColBits-1:0] sk_act;
      wire                unused_sk_flag;
      s24_skew #(.DataBits(AColBits), .FlagBits(1), .Depth(c + 1)) u_skew_a (
        .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(arr_clr),
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
          .RelStore(RelStore), .PairMode(Pair ? 1 : 0)
        ) u_pe (
          .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(arr_clr),
          .wv_i(w_h[WIn +: VRowBits]),
          .wi_i(w_h[WIn + VRowBits +: RRowBits]),
          .wf_i(w_h[WIn + VRowBits + RRowBits +: 2]),
          .a_i(a_v[(r*NumCols + c)*AColBits +: AColBits]),
          .wv_o(w_h[WOut +: VRowBits]),
          .wi_o(w_h[WOut + VRowBits +: RRowBits]),
          .wf_o(w_h[WOut + VRowBits + RRowBits +: 2]),
          .a_o(a_v[((r+1)*NumCols + c)*AColBits +: AColBits]),
          .pair_i(pair_h[r*(NumCols+1) + c]),
          .pair_o(pair_h[r*(NumCols+1) + c + 1]),
          .cap_o(cap[r*NumCols + c]),
          .shadow_o(shadow[(r*NumCols + c)*AccWidth +: AccWidth]),
          .shadow1_o(shadow1[(r*NumCols + c)*AccWidth +: AccWidth])
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
      unused_edges = unused_edges ^ (^w_h[(er*(NumCols+1) + NumCols)*WBundle +: WBundle]) ^
                     pair_h[er*(NumCols+1) + NumCols];
    unused_edges = unused_edges ^ (^a_v[NumRows*NumCols*AColBits +: NumCols*AColBits]);
  end

  // ---------------------------------------------------------------- drain and result buffer
  // sel[r*C + c]: PE (r, c)'s capture delayed by C - c cycles, a flop chain in column c, so all C
  // flags of row r rise together, one cycle after the row's last PE (r, C-1) wrote its shadow:
  // the drain copies row r then (one-hot: at most one row completes per cycle since P >= NumRows)
  // and pushes it into the result buffer in the next cycle (room was reserved). Each column
  // selects with its own flags: no select net spans the array. row_done[r] = sel of column C-1.
  wire [NumRows*NumCols-1:0] sel;
  wire [NumRows-1:0]         row_done;
  wire [2*NumRows*NumCols-1:0] pz;   // pair mode: row j of column c (j >= 1)
  genvar sr, sc;
  generate
    for (sr = 0; sr < NumRows; sr = sr + 1) begin : g_sel_row
      for (sc = 0; sc < NumCols; sc = sc + 1) begin : g_sel_col
        localparam integer Dly = NumCols - sc;
        wire [Dly-1:0] chain_q;
        wire [Dly-1:0] chain_d;
        // pair mode: rows 1 .. R-1 are selected by the pair chain below instead (PE (r, c)'s own
        // mode flag gates its capture)
        wire cap_in = (sr == 0 || !Pair) ? cap[sr*NumCols + sc]
                                         : cap[sr*NumCols + sc] && !pair_h[sr*(NumCols+1) + sc + 1];
        if (Dly == 1) begin : g_one
          assign chain_d = !drn_clr && cap_in;
        end else begin : g_chain
          assign chain_d = drn_clr ? {Dly{1'b0}} : {chain_q[Dly-2:0], cap_in};
        end
        // s24_ff: equal to the other columns' chains, kept apart so each stays in its column
        s24_ff #(.Width(Dly)) u_chain (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(chain_d), .q_o(chain_q));
        assign sel[sr*NumCols + sc] = chain_q[Dly-1];
      end
      assign row_done[sr] = sel[sr*NumCols + NumCols - 1];
    end
    // pair mode: tile row j (j = 2r + slot) of column c is selected j cycles after row 0 (sel of
    // PE (0, c)): pz[c*2R + j], a flop chain per column started by row 0's select. Row j reads
    // slot (j % 2)'s shadow of PE row j / 2 (PE row r completes r cycles after row 0, so row 2r
    // and 2r + 1 come after it; row 2r + 1 of the last PE row is read R cycles after its capture,
    // before the next tile's capture since P >= R + C)
    if (Pair) begin : g_pair_sel
      for (sc = 0; sc < NumCols; sc = sc + 1) begin : g_pz_col
        wire [2*NumRows-1:1] pz_q;
        wire [2*NumRows-1:1] pz_d;
        wire pz_in = sel[sc] && pair_h[sc + 1];
        if (NumRows == 1) begin : g_pz_one
          assign pz_d = !drn_clr && pz_in;
        end else begin : g_pz_chain
          assign pz_d = drn_clr ? {(2*NumRows-1){1'b0}} : {pz_q[2*NumRows-2:1], pz_in};
        end
        s24_ff #(.Width(2*NumRows-1)) u_pz (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(pz_d), .q_o(pz_q));
        assign pz[sc*2*NumRows +: 2*NumRows] = {pz_q, 1'b0};
      end
    end else begin : g_no_pair_sel
      assign pz = {(2*NumRows*NumCols){1'b0}};
    end
  endgenerate

  // the drain: a one-hot OR of the row's shadows, per column. It is registered in two halves
  // (PE rows below DrainSplit and from it on), ORed after the register on the way into the result
  // buffer: each half's select-and-OR is one LUT level shorter than the whole (16 terms a bit in
  // pair mode at R = 8), the OR behind the flops one LUT, the same cycle.
  localparam integer DrainSplit = (NumRows + 1) / 2;
  reg [RBits-1:0]   drain_lo_q, drain_lo_d, drain_hi_q, drain_hi_d;
  wire [RBits-1:0]  drain_q = drain_lo_q | drain_hi_q;
  wire [2*NumRows-1:0] pz_last_col = pz[(NumCols-1)*2*NumRows +: 2*NumRows];   // row j done (j >= 1)
  wire pair_last = pair_h[(NumRows-1)*(NumCols+1) + NumCols];   // PE (R-1, C-1)'s mode
  reg [RBits-1:0] drain_row;
  integer dr, dc;
  always @* begin
    drain_lo_d = {RBits{1'b0}};
    drain_hi_d = {RBits{1'b0}};
    for (dr = 0; dr < NumRows; dr = dr + 1) begin
      drain_row = {RBits{1'b0}};
      for (dc = 0; dc < NumCols; dc = dc + 1) begin
        if (sel[dr*NumCols + dc] || pz[dc*2*NumRows + 2*dr])
          drain_row[dc*AccWidth +: AccWidth] = drain_row[dc*AccWidth +: AccWidth] |
                                               shadow[(dr*NumCols + dc)*AccWidth +: AccWidth];
        if (pz[dc*2*NumRows + 2*dr + 1])
          drain_row[dc*AccWidth +: AccWidth] = drain_row[dc*AccWidth +: AccWidth] |
                                               shadow1[(dr*NumCols + dc)*AccWidth +: AccWidth];
      end
      if (dr < DrainSplit) drain_lo_d = drain_lo_d | drain_row;
      else                 drain_hi_d = drain_hi_d | drain_row;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      drain_valid_q <= 1'b0;
      drain_last_q  <= 1'b0;
    end else begin
      drain_valid_q <= !drn_clr && ((|row_done) || (|pz_last_col));
      drain_last_q  <= pair_last ? pz_last_col[2*NumRows-1] : row_done[NumRows-1];
    end
  end
  always @(posedge clk_i) begin
    drain_lo_q <= drain_lo_d;
    drain_hi_q <= drain_hi_d;
  end

  wire [RBits+1:0] r_head;   // {job's last row, tile's last row (r_last_o), row}
  s24_rbuf #(.Width(RBits + 2), .AddrWidth(OutAw)) u_rbuf (
    .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(drn_clr), .push_i(drain_valid_q),
    .data_i({r_push_last, drain_last_q, drain_q}), .valid_o(r_valid_o), .ready_i(r_ready_i), .data_o(r_head)
  );

  assign r_data_o   = r_head[RBits-1:0];
  assign r_last_o   = r_head[RBits];
  assign r_pop_last = r_head[RBits+1];
  assign busy_o     = run_q || pend_q;
  assign done_o     = done_q;
  assign err_meta_o = err_q;
  assign cnt_cycles_o  = cnt_cycles_q;
  assign cnt_beats_o   = cnt_beats_q;
  assign cnt_stall_w_o = cnt_stall_w_q;
  assign cnt_stall_a_o = cnt_stall_a_q;
  assign cnt_stall_r_o = cnt_stall_r_q;

`ifdef FORMAL
  // ---------------------------------------------------------------- formal tail
`ifdef S24_FV_TOP_S24_CORE
  `define S24_FV_ASSUME_INPUTS
`endif
`include "s24_assert.vh"
  `S24_FV_START_IN_RESET(clk_i, rst_ni)
  `S24_FV_LIVE(clk_i, rst_ni)
  reg        past_ok_q;
  reg        w_hold_q, a_hold_q, r_hold_q;
  reg [WBits-1:0] w_data_past_q;
  reg [ABits-1:0] a_data_past_q;
  reg [RBits:0]   r_data_past_q;
  integer fr;
  integer nrow;
  always @* begin
    nrow = 0;
    for (fr = 0; fr < NumRows; fr = fr + 1) if (row_done[fr]) nrow = nrow + 1;
    for (fr = 1; fr < 2*NumRows; fr = fr + 1) if (pz_last_col[fr]) nrow = nrow + 1;
  end
  // job-level counts since the job started (start_ok): beats accepted per input, result beats
  // taken; the job's totals from its registered configuration
  // (64 bits in simulation; 8 in the small-job proof, formal/core.sby, where jobs are tiny)
`ifdef S24_FV_CORE_SMALL
  localparam integer FvW = 8;
`else
  localparam integer FvW = 64;
`endif
  wire fv_big;   // tiles*beats beyond cnt_beats_o's 32 bits
  wire [31:0] fv_tile_rows = pair_q ? 2 * NumRows : NumRows;
  reg            fv_job_q;
  reg  [FvW-1:0] fv_w_n_q, fv_a_n_q, fv_r_n_q;
  wire [63:0]    fv_tiles64   = {32'd0, tiles_m1_q} + 64'd1;
  wire [63:0]    fv_beats64   = {32'd0, beats_m1_q} + 64'd1;
  wire [63:0]    fv_rows64    = {32'd0, fv_tile_rows};
  wire [FvW-1:0] fv_beats_all = fv_tiles64[FvW-1:0] * fv_beats64[FvW-1:0];
  wire [FvW-1:0] fv_rows_all  = fv_tiles64[FvW-1:0] * fv_rows64[FvW-1:0];
`ifdef S24_FV_CORE_SMALL
  assign fv_big = 1'b0;
  wire [31:0] fv_beats_all32 = {{(32-FvW){1'b0}}, fv_beats_all};
`else
  assign fv_big = |fv_beats_all[FvW-1:32];
  wire [31:0] fv_beats_all32 = fv_beats_all[31:0];
`endif
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_job_q <= 1'b0;
      fv_w_n_q <= {FvW{1'b0}};
      fv_a_n_q <= {FvW{1'b0}};
      fv_r_n_q <= {FvW{1'b0}};
    end else if (clear_i || start_ok) begin
      fv_job_q <= !clear_i;
      fv_w_n_q <= {FvW{1'b0}};
      fv_a_n_q <= {FvW{1'b0}};
      fv_r_n_q <= {FvW{1'b0}};
    end else begin
      fv_w_n_q <= fv_w_n_q + {{(FvW-1){1'b0}}, w_valid_i && w_ready_o};
      fv_a_n_q <= fv_a_n_q + {{(FvW-1){1'b0}}, a_valid_i && a_ready_o};
      fv_r_n_q <= fv_r_n_q + {{(FvW-1){1'b0}}, r_pop};
    end
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
      if (w_hold_q && run_q) begin
        `S24_ASSUME(w_valid_i && w_data_i == w_data_past_q, "w stream: beat withdrawn or changed before w_ready_o")
      end
      if (a_hold_q && run_q) begin
        `S24_ASSUME(a_valid_i && a_data_i == a_data_past_q, "a stream: beat withdrawn or changed before a_ready_o")
      end
      if (r_hold_q) begin
        `S24_ASSERT(r_valid_o && {r_last_o, r_data_o} == r_data_past_q, "r stream: beat withdrawn or changed before r_ready_i")
      end
    end
`ifdef S24_FV_CORE_SMALL
    // every start request, also in the first cycle out of reset (before fv_live_q)
    if (start_i) begin
      `S24_ASSUME(cfg_beats_i <= 32'd3 && cfg_tiles_i <= 32'd2, "core: small jobs only (proof)")
`ifdef S24_FV_CORE_PAIR
      `S24_ASSUME(cfg_pair_i && cfg_beats_i <= 32'd2, "core: pair-mode jobs of at most 2 beats only (proof)")
`endif
    end
`endif
    if (fv_live_q) begin
      // at most one tile row completes per cycle (tile period >= NumRows)
      `S24_ASSERT(nrow <= 1, "two tile rows completed in one cycle")
      // inputs never popped empty
      `S24_ASSERT(!(inj && (w_fifo_empty || a_fifo_empty)), "injection without input beats")
      // credits never go negative or above the buffer's capacity
      `S24_ASSERT(cred_q <= CredCap[CredW-1:0], "result credits above the buffer capacity")
      `S24_ASSERT(r_tiles_m2 == tiles_m2_q, "the result side's copy of T - 2 differs from the schedule's")
      `S24_ASSERT(!(reserve && cred_q < tile_rows), "tile injected without room for its rows")
      // the mode is the same everywhere while a job runs (it changes only at a start)
      `S24_ASSERT(Pair || !pair_q, "pair mode on a core without it")
      // the weight check's copy of the mode: the request's from start_req on, the job's while it runs
      `S24_ASSERT(!pend_q || chk_pair == (Pair && cfg_pair_q), "the weight check's mode differs from the request's")
      `S24_ASSERT(!run_q || chk_pair == pair_q, "the weight check's mode differs from the job's")
      for (fr = 0; fr < NumRows*NumCols; fr = fr + 1) begin
        // a valid beat in PE (r, c)'s hop stage (its wf_o) meets the job's mode there
        if (w_h[((fr / NumCols)*(NumCols+1) + (fr % NumCols) + 1)*WBundle + VRowBits + RRowBits]) begin
          `S24_ASSERT(pair_h[(fr / NumCols)*(NumCols+1) + (fr % NumCols) + 1] == pair_q,
                      "pair: a beat meets a PE whose mode differs from the job's")
        end
      end
      // the registered credit check always matches the credits
      `S24_ASSERT(cred_ok_q == (cred_q >= tile_rows), "cred_ok_q out of step with the credits")
      // a job takes exactly tiles*beats beats per input and gives exactly tiles*R result beats,
      // injects every beat it took, and is done with its last result beat
      if (fv_job_q && !start_ok) begin
        `S24_ASSERT(fv_w_n_q <= fv_beats_all && fv_a_n_q <= fv_beats_all, "job: more input beats accepted than tiles*beats")
        `S24_ASSERT(fv_r_n_q <= fv_rows_all, "job: more result beats than tiles*NumRows")
        `S24_ASSERT(!(r_valid_o && !run_q), "job: a result beat outside a job")
        if (done_q) begin
          `S24_ASSERT(fv_w_n_q == fv_beats_all && fv_a_n_q == fv_beats_all, "job: done before every input beat was accepted")
          `S24_ASSERT(cnt_beats_q == fv_beats_all32 || fv_big, "job: done with a beat not injected")
          `S24_ASSERT(fv_r_n_q == fv_rows_all && !busy_o, "job: done before every result beat, or still busy")
        end
      end
      `S24_COVER(done_q && tiles_m1_q == 32'd1 && beats_m1_q == 32'd1)   // a whole 2-tile job
      `S24_COVER(done_q && tiles_m1_q == 32'd1 && beats_m1_q == 32'd0 && pair_q)   // a 2-tile pair job
`ifdef S24_FV_REACH
      // formal/core.sby reach_*: the cover above as an assertion that must FAIL, so the bit-level
      // BMC engine (which has no cover mode) shows a trace of a whole 2-tile job within its bound
`ifdef S24_FV_REACH_PAIR
      `S24_ASSERT(!(done_q && tiles_m1_q == 32'd1 && beats_m1_q == 32'd0 && pair_q), "reach: a whole 2-tile pair-mode job of 1 beat completes")
`else
      `S24_ASSERT(!(done_q && tiles_m1_q == 32'd1 && beats_m1_q == 32'd1), "reach: a whole 2-tile job of 2 beats completes")
`endif
`endif
    end
  end
`endif

endmodule

`resetall
