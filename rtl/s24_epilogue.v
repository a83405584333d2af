// SPDX-License-Identifier: Apache-2.0
// s24_epilogue: fused int8 layer on the result stream (SPEC §7): bias, rounding multiply, shift, ZO, clamp, int8 packing.
`default_nettype none

// Between s24_core's result stream and m_axis_r. Without cfg_en_i (latched at start_i) it is a
// wire: int32 rows pass unchanged. With it, every int32 lane `acc` of tile row r becomes
//
//   sum = acc + bias[p]                           (int32 wraparound; bias already holds -ZI*sum W)
//   r64 = (sum * mult[p] + 2^(t[p]-1)) >>> t[p]   (64-bit product, t = 31 - SHIFT in 1..62)
//   y   = r64 + ZO > act_max ? act_max : r64 + ZO < act_min ? act_min : r64 + ZO
//
// or, with cfg_round_i (gemmlowp's double rounding, LiteRT's reference CONV_2D), p = sum * mult:
//
//   t <= 30 (SHIFT > 0):  x = sum * 2^SHIFT wrapped to int32, r64 = (x * mult + 2^30) >>> 31
//   t == 31 (SHIFT = 0):  as single rounding
//   t >= 32 (SHIFT < 0):  r64 = (p + 2^30 + 2^(t-1) - (p < -2^30 ? 2^31 : 0)) >>> t
//
// i.e. clamp(r64 + ZO, act_min, act_max) for act_min <= act_max (the int8 bounds of the job's
// fused activation: -128..127 none, max(-128, ZO)..127 ReLU, TFLite's RELU6 / RELU_N1_TO_1
// ranges; a job with act_min > act_max gets act_max above it and act_min below, as written)
//
// where p = (tile / cfg_col_tiles_i) * rows + r is the parameter row of the RAM written
// through pw_*, rows the job's tile rows (NumRows; 2 * NumRows in the core's pair mode,
// cfg_pair_i, latched at start_i): tiles run row tile outer, column tile inner, so the parameter
// rows advance by rows every cfg_col_tiles_i tiles. Four tile rows share one output beat (int8
// lane c of row r at bits [((r % 4) * NumCols + c) * 8 +: 8]); a tile is ceil(rows / 4) beats,
// TLAST on its last.
//
// Lanes lanes are requantized per cycle (the multiplier is time-shared over NumCols / Lanes
// cycles per row). A row buffer of MaxRows entries (2 * NumRows with PairMode) takes a whole
// tile's drain, so the array is never held up as long as a tile period is at least rows *
// NumCols / Lanes cycles. The 32 x 31 multiply is three signed products (Karatsuba: hh, ll and
// (sh + sl)(mh + ml), one DSP each on ECP5/Xilinx) with registered operands and outputs; the
// products and the rounding constant meet in carry-save layers and one 64-bit adder; the shift is two registered 8:1
// stages. Issue is credit-based: an element is issued only when the output FIFO has room for
// every beat in flight, so the pipeline itself never stalls (no enable on the DSP registers).
module s24_epilogue #(
  parameter integer NumRows = 8,    // tile rows (output channels per row tile)
  parameter integer NumCols = 8,    // int32 lanes per result row
  parameter integer Lanes   = 1,    // lanes requantized per cycle; divides NumCols
  parameter integer Depth   = 512,  // parameter RAM rows, >= NumRows (>= 2 * NumRows with PairMode)
  parameter integer PairMode = 0    // 1: cfg_pair_i selects tiles of 2 * NumRows rows (s24_core's pair mode)
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,
  input  wire                  clear_i,          // soft reset: drops everything in flight
  input  wire                  start_i,          // a job starts: latch the configuration
  input  wire                  cfg_en_i,         // fused mode for the job
  input  wire                  cfg_round_i,      // 0 single rounding (SPEC section 7), 1 double (gemmlowp)
  input  wire [7:0]            cfg_zo_i,         // int8
  input  wire [7:0]            cfg_act_min_i,    // int8, lower bound of the output clamp
  input  wire [7:0]            cfg_act_max_i,    // int8, upper bound of the output clamp
  input  wire [31:0]           cfg_col_tiles_i,  // tiles per row tile (>= 1 with cfg_en_i)
  input  wire                  cfg_pair_i,       // the job's tiles have 2 * NumRows rows (PairMode only)
  // parameter RAM write port (registers EPI_*; written while idle)
  input  wire                  pw_en_i,
  input  wire [AddrWidth-1:0]  pw_addr_i,
  input  wire [31:0]           pw_bias_i,
  input  wire [30:0]           pw_mult_i,
  input  wire [5:0]            pw_shift_i,       // SHIFT, two's complement
  // int32 rows from the core
  input  wire                  s_valid_i,
  output wire                  s_ready_o,
  input  wire [RBits-1:0]      s_data_i,
  input  wire                  s_last_i,
  // result stream
  output wire                  m_valid_o,
  input  wire                  m_ready_i,
  output wire [RBits-1:0]      m_data_o,
  output wire                  m_last_o,
  output wire                  busy_o            // fused data still in the block
);
  localparam integer RBits = NumCols * 32;
  localparam integer AddrWidth = (Depth > 1) ? $clog2(Depth) : 1;
  localparam integer Phases = NumCols / Lanes;     // cycles per row
  localparam integer PhWidth = (Phases > 1) ? $clog2(Phases) : 1;
  localparam integer MaxRows = (PairMode != 0) ? 2 * NumRows : NumRows;  // rows of a tile, at most
  localparam integer RowWidth = (MaxRows > 1) ? $clog2(MaxRows) : 1;
  localparam integer InAw = (MaxRows > 1) ? $clog2(MaxRows) : 1;  // row buffer >= MaxRows
  localparam integer OutAw = 2;                    // output FIFO: 4 beats
  localparam integer LaneBits = Lanes * 32;
  localparam integer Stages = 12;                  // issue to packer

  initial begin
    if (Lanes < 1 || NumCols % Lanes != 0) begin
      $display("s24_epilogue: illegal parameters: Lanes must divide NumCols");
      $finish;
    end
    if (Depth < MaxRows || Depth > 65535) begin
      $display("s24_epilogue: illegal parameters: Depth must be NumRows (2 * NumRows with PairMode) .. 65535");
      $finish;
    end
  end

  // ---------------------------------------------------------------- job configuration
  reg        en_q, en_d;
  reg        dbl_q, dbl_d;             // double rounding (CFG_EPI.ROUND)
  reg [7:0]  zo_q, zo_d;
  reg [7:0]  act_min_q, act_min_d;     // int8 clamp bounds
  reg [7:0]  act_max_q, act_max_d;
  // The clamp bounds moved to r's side (so stage 9 is a multiplexer only): ACT_MAX - ZO and
  // ACT_MIN - ZO, both within [-255, 255], so r saturated to [-512, 511] keeps every decision.
  // The differences are taken from the configuration inputs (static registers of s24_top) and
  // start_i only selects them: no adder after the start decode, none before the stage-8 compare.
  wire signed [10:0] cfg_zo_s = {{3{cfg_zo_i[7]}}, cfg_zo_i};
  wire signed [10:0] cfg_hi_r = {{3{cfg_act_max_i[7]}}, cfg_act_max_i} - cfg_zo_s;
  wire signed [10:0] cfg_lo_r = {{3{cfg_act_min_i[7]}}, cfg_act_min_i} - cfg_zo_s;
  reg  signed [10:0] hi_r_q, hi_r_d;   // ACT_MAX - ZO of the job
  reg  signed [10:0] lo_r_q, lo_r_d;   // ACT_MIN - ZO of the job
  // With the double rounding's correction (r - 1 in place of r) stage 8 compares r against the
  // bounds plus one (r - 1 > hi is r > hi + 1) and adds ZO - 1: a second comparator and a
  // multiplexer per bound, no subtraction after the saturation (r >= -512, so r - 1 fits too).
  wire signed [10:0] cfg_hi1_r = cfg_hi_r + 11'sd1;
  wire signed [10:0] cfg_lo1_r = cfg_lo_r + 11'sd1;
  wire signed [10:0] cfg_zom1 = cfg_zo_s - 11'sd1;
  reg  signed [10:0] hi1_r_q, hi1_r_d;   // ACT_MAX - ZO + 1 of the job
  reg  signed [10:0] lo1_r_q, lo1_r_d;   // ACT_MIN - ZO + 1 of the job
  reg  signed [10:0] zom1_q, zom1_d;     // ZO - 1 of the job
  reg [31:0] col_last_q, col_last_d;   // column tiles per row tile, minus 1
  reg        pair_q, pair_d;           // the job's tiles have 2 * NumRows rows (0 without PairMode)
  // the job's rows per tile: a multiplexer of two constants, after the latch
  localparam [31:0] RowsM1w = NumRows - 1;
  localparam [31:0] RowsM1Pw = MaxRows - 1;
  localparam [31:0] RowsW = NumRows;
  localparam [31:0] RowsPW = MaxRows;
  wire [RowWidth-1:0]  rows_m1 = pair_q ? RowsM1Pw[RowWidth-1:0] : RowsM1w[RowWidth-1:0];  // last tile row
  wire [AddrWidth-1:0] rows_a = pair_q ? RowsPW[AddrWidth-1:0] : RowsW[AddrWidth-1:0];  // parameter rows a row tile

  // ---------------------------------------------------------------- parameter RAM
  // {t, mult, bias}: t = 31 - SHIFT (6 bits), stored so that no subtraction sits in the pipeline
  reg [68:0] prm_ram [0:Depth-1];
  wire [5:0] pw_t = 6'd31 - pw_shift_i;
  always @(posedge clk_i) begin
    if (pw_en_i) prm_ram[pw_addr_i] <= {pw_t, pw_mult_i, pw_bias_i};
  end

  // ---------------------------------------------------------------- row buffer
  wire             in_empty, in_full;
  wire [RBits:0]   in_head;
  wire             issue;
  wire             row_done;   // the issue is the row's last phase: pop it
  wire             in_push = en_q && s_valid_i && !in_full;

  wire [InAw:0] unused_in_level;
  s24_fifo #(.Width(RBits + 1), .AddrWidth(InAw)) u_in (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clear_i (clear_i),
    .push_i  (in_push),
    .data_i  ({s_last_i, s_data_i}),
    .pop_i   (issue && row_done),
    .data_o  (in_head),
    .empty_o (in_empty),
    .full_o  (in_full),
    .level_o (unused_in_level)
  );
  wire unused_in_last = in_head[RBits];  // rows are counted; the core's TLAST is redundant

  // ---------------------------------------------------------------- issue
  reg [PhWidth-1:0]   ph_q, ph_d;          // phase: lanes ph*Lanes ... of the head row
  reg [RowWidth-1:0]  row_q, row_d;        // tile row of the head row
  reg [31:0]          colt_q, colt_d;      // column tile inside the row tile
  reg [AddrWidth-1:0] base_q, base_d;      // parameter row of tile row 0
  reg [OutAw:0]       occ_q, occ_d;        // output FIFO entries + beats in flight
  wire                out_pop;

  localparam [OutAw:0] OutDepth = 1 << OutAw;
  wire [1:0] rib;                          // row inside its output beat (row % 4)
  generate
    if (RowWidth >= 2) begin : g_rib
      assign rib = row_q[1:0];
    end else begin : g_rib1
      assign rib = {1'b0, row_q};
    end
  endgenerate
  wire last_ph   = ph_q == Phases[PhWidth-1:0] - 1'b1;
  wire last_row  = row_q == rows_m1;
  wire beat_end  = last_ph && (rib == 2'd3 || last_row);
  assign row_done = last_ph;
  assign issue = en_q && !in_empty && (occ_q < OutDepth);

  always @* begin
    ph_d = ph_q;
    row_d = row_q;
    colt_d = colt_q;
    base_d = base_q;
    occ_d = occ_q;
    en_d = en_q;
    dbl_d = dbl_q;
    zo_d = zo_q;
    act_min_d = act_min_q;
    act_max_d = act_max_q;
    hi_r_d = hi_r_q;
    lo_r_d = lo_r_q;
    hi1_r_d = hi1_r_q;
    lo1_r_d = lo1_r_q;
    zom1_d = zom1_q;
    col_last_d = col_last_q;
    pair_d = pair_q;
    if (issue) begin
      ph_d = last_ph ? {PhWidth{1'b0}} : ph_q + 1'b1;
      if (last_ph) begin
        row_d = last_row ? {RowWidth{1'b0}} : row_q + 1'b1;
        if (last_row) begin
          if (colt_q == col_last_q) begin  // the row tile's last column tile
            colt_d = 32'd0;
            base_d = base_q + rows_a;
          end else begin
            colt_d = colt_q + 32'd1;
          end
        end
      end
    end
    if (issue && beat_end && !out_pop) occ_d = occ_q + 1'b1;
    if (!(issue && beat_end) && out_pop) occ_d = occ_q - 1'b1;
    if (start_i) begin
      en_d = cfg_en_i;
      dbl_d = cfg_round_i;
      zo_d = cfg_zo_i;
      act_min_d = cfg_act_min_i;
      act_max_d = cfg_act_max_i;
      hi_r_d = cfg_hi_r;
      lo_r_d = cfg_lo_r;
      hi1_r_d = cfg_hi1_r;
      lo1_r_d = cfg_lo1_r;
      zom1_d = cfg_zom1;
      col_last_d = cfg_col_tiles_i - 32'd1;  // registered: no adder before the compare
      pair_d = (PairMode != 0) && cfg_pair_i;
      ph_d = {PhWidth{1'b0}};
      row_d = {RowWidth{1'b0}};
      colt_d = 32'd0;
      base_d = {AddrWidth{1'b0}};
    end
    if (clear_i) begin
      en_d = 1'b0;
      ph_d = {PhWidth{1'b0}};
      row_d = {RowWidth{1'b0}};
      colt_d = 32'd0;
      base_d = {AddrWidth{1'b0}};
      occ_d = {(OutAw+1){1'b0}};
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      en_q <= 1'b0;
      dbl_q <= 1'b0;
      zo_q <= 8'd0;
      act_min_q <= 8'h80;
      act_max_q <= 8'h7F;
      hi_r_q <= 11'sd127;
      lo_r_q <= -11'sd128;
      hi1_r_q <= 11'sd128;
      lo1_r_q <= -11'sd127;
      zom1_q <= -11'sd1;
      col_last_q <= 32'd0;
      pair_q <= 1'b0;
      ph_q <= {PhWidth{1'b0}};
      row_q <= {RowWidth{1'b0}};
      colt_q <= 32'd0;
      base_q <= {AddrWidth{1'b0}};
      occ_q <= {(OutAw+1){1'b0}};
    end else begin
      en_q <= en_d;
      dbl_q <= dbl_d;
      zo_q <= zo_d;
      act_min_q <= act_min_d;
      act_max_q <= act_max_d;
      hi_r_q <= hi_r_d;
      lo_r_q <= lo_r_d;
      hi1_r_q <= hi1_r_d;
      lo1_r_q <= lo1_r_d;
      zom1_q <= zom1_d;
      col_last_q <= col_last_d;
      pair_q <= pair_d;
      ph_q <= ph_d;
      row_q <= row_d;
      colt_q <= colt_d;
      base_q <= base_d;
      occ_q <= occ_d;
    end
  end

  // ---------------------------------------------------------------- pipeline
  // Sideband of an issued element: lane position in the output beat, beat end, tile end.
  localparam integer SideBits = PhWidth + 2 + 2;
  wire [SideBits-1:0] side0 = {ph_q, rib, beat_end, beat_end && last_row};
  wire [AddrWidth-1:0] rd_addr = base_q + {{(AddrWidth-RowWidth){1'b0}}, row_q};

  reg [Stages:1]       v_q;                  // valid of each stage (control: reset)
  reg [Stages*SideBits-1:0] side_q;       // stage s at [(s-1)*SideBits +: SideBits]
  // stage 0: operands and the parameter row (synchronous RAM read, the EBR's own register);
  // stage 1: both again (the EBR's clock-to-output is ~4 ns on ECP5: nothing may follow it)
  reg [LaneBits-1:0]   acc0_q, acc1_q;
  reg [68:0]           prm0_q, prm1_q;
  // stage 2: sum = acc + bias, the multiplier's operand (with double rounding and t <= 30, i.e.
  // SHIFT > 0: bits t .. 0 of sum with bit t inverted, see the rounding constant below)
  reg [LaneBits-1:0]   sum2_q;
  reg [30:0]           mult2_q;
  reg [5:0]            t2_q;
  // stages 3-5: partial products, s24_mul (operand and product registers inside the DSP on ECP5,
  // one more fabric register after it)
  wire [Lanes*34-1:0]  pll3_q, phh3_q;
  wire [Lanes*36-1:0]  pk3_q;               // Karatsuba: (sh + sl) * (mh + ml) = hh + hl + lh + ll
  reg [5:0]            t2b_q, t2c_q, t3_q;
  // beside the multipliers, once per element (all lanes share the parameter row): the rounding
  // constant. Single rounding: 2^(t-1). Double rounding (gemmlowp, docs/architecture.md section 4)
  // with t >= 32 (SHIFT < 0): 2^(t-1) + 2^30 (and 2^31 less below zero: stage 8); with t <= 30
  // (SHIFT > 0): x = sum * 2^SHIFT wrapped to int32 and rounded at bit 31 is sum sign-extended
  // from bit t, ext, rounded at bit t; ext = op - 2^t with op = bits t .. 0 of sum, bit t
  // inverted (0 <= op < 2^31), so ext*MULT + 2^(t-1) = op*MULT + (-MULT * 2^t + 2^(t-1)): the
  // operand is op and the constant -MULT * 2^t + 2^(t-1), computed over the multipliers' stages
  // (negate, shift, assemble).
  reg [31:0]           nm2b_q;             // -MULT
  reg [63:0]           sh2c_q;             // -MULT * 2^t[4:0]
  reg [63:0]           cst3_q;             // the constant
  // stage 4: carry-save layer of {hh,ll} + (k - hh - ll) << 16 (= (hl + lh) << 16) + the constant
  reg [Lanes*64-1:0]   cs4_s_q, cs4_c_q, cs4_m_q;
  reg [5:0]            t4_q;
  // stage 5: the rounded product; with double rounding and t >= 32, the bits 31 .. t-1 that the
  // correction looks at (cmask5_q, a thermometer of t - 31) and its enable
  reg [Lanes*64-1:0]   rnd5_q;
  reg [5:0]            t5_q;
  reg [31:0]           cmask5_q;
  reg                  cen5_q;
  // stage 6: bits 8*t[5:3] .. +16 of the rounded product, and whether every bit above them
  // equals its sign; stage 7: the 10 bits from t on, saturated (r = (sum >>> t) clamped to
  // [-512, 511], which keeps every decision of the final clamp). No 64-bit shifter is built:
  // only the window the clamp can use.
  reg [Lanes*17-1:0]   win6_q;
  reg [Lanes-1:0]      ok6_q, sgn6_q;
  reg [2:0]            t6_q;
  reg [Lanes*10-1:0]   sat7_q;
  // double rounding with t >= 32: r = (rnd >>> t) - corr (stage 6 computes corr, stage 8 applies
  // it). gemmlowp's r = floor((rnd - 2^31 * [p < -2^30]) / 2^t), rnd = p + 2^30 + 2^(t-1); the
  // 2^31 matters only when bits t-1 .. 31 of rnd are all 0, and p < -2^30 is rnd < 2^(t-1):
  // below zero that is always so, at or above zero it means bits 63 .. t-1 are 0. Hence
  // corr = sign ? (bits t-1 .. 31 all 0) : (bits 63 .. 31 all 0). No adder: two zero tests.
  reg [Lanes-1:0]      corr6_q, corr7_q;
  // stage 8: + ZO; stage 9: clamped int8
  reg [Lanes*11-1:0]   zo8_q;
  reg [Lanes-1:0]      over8_q, under8_q;   // r > act_max - ZO, r < act_min - ZO (stage 8)
  // (the per-job bounds hi_r_q, lo_r_q on r's side are registered with the configuration above,
  // and so are hi1_r_q, lo1_r_q, zom1_q for the double rounding's correction)
  reg [Lanes*8-1:0]    y9_q;

  // the head row's lanes of this phase
  wire [LaneBits-1:0] lanes0 = in_head[ph_q * LaneBits +: LaneBits];

  // per element, shared by the lanes: the operand masks of stage 2 (from the parameter row's
  // fabric copy, beside the bias adder), the rounding constant (stages 2b, 2c, 3) and the
  // correction's bit mask (stage 5)
  wire [5:0]  t1 = prm1_q[68:63];
  wire        dp1 = dbl_q && !t1[5] && (t1[4:0] != 5'd31);   // double rounding, t <= 30
  reg  [31:0] keep_m, flip_m;   // operand bit i: sum[i] (keep), ~sum[i] (flip) or 0
  reg  [63:0] sh_d, cst_d;
  reg  [31:0] cmask_d;
  integer     mi;
  always @* begin
    keep_m = {32{1'b1}};
    flip_m = 32'd0;
    for (mi = 0; mi < 32; mi = mi + 1) begin
      if (dp1) begin
        keep_m[mi] = mi[5:0] < t1;
        flip_m[mi] = mi[5:0] == t1;
      end
    end
    // -MULT * 2^t for t <= 30 (t[4:0] = t then); other t: unused
    sh_d = {{32{nm2b_q[31]}}, nm2b_q} << t2b_q[4:0];
    // 2^(t-1) (0 for t = 0) and the double rounding's terms (bits never overlap: -MULT * 2^t has
    // zeros below bit t; 2^30 only with t >= 32)
    cst_d = (t2c_q == 6'd0) ? 64'd0 : 64'd1 << (t2c_q - 6'd1);
    if (dbl_q && !t2c_q[5] && t2c_q[4:0] != 5'd31) cst_d = cst_d | sh2c_q;
    if (dbl_q && t2c_q[5]) cst_d = cst_d | (64'd1 << 30);
    // bit j: rnd bit 31 + j is one of bits 31 .. t-1 (t >= 32: j <= t - 32)
    cmask_d = 32'd0;
    for (mi = 0; mi < 32; mi = mi + 1) begin
      cmask_d[mi] = dbl_q && t4_q[5] && (mi[4:0] <= t4_q[4:0]);
    end
  end

  integer l;
  reg [63:0] hl_sum, mid, rnd_c, s_tmp, c_tmp;
  reg [35:0] mid36;
  reg [79:0] ext;
  reg [9:0]  byte_eq;
  reg [16:0] w17;
  reg        ok, sgn;
  integer    j, b;
  reg [9:0]  sat;
  reg [10:0] zsum;
  reg [7:0]  y;
  reg [Lanes*64-1:0] cs_s_d, cs_c_d, cs_m_d, rnd_d;
  reg [Lanes*17-1:0] win_d;
  reg [Lanes-1:0]    ok_d, sgn_d;
  reg [Lanes*10-1:0] sat_d;
  reg [Lanes*11-1:0] zo_sum_d;
  reg [Lanes-1:0]    over_d, under_d;
  reg [Lanes*8-1:0]  y_d;
  reg [LaneBits-1:0] sum_d;
  reg [31:0]         sum32;
  reg [Lanes-1:0]    corr_d;

  always @* begin
    sum_d = {LaneBits{1'b0}};
    sum32 = 32'd0;
    corr_d = {Lanes{1'b0}};
    cs_s_d = {(Lanes*64){1'b0}};
    cs_c_d = {(Lanes*64){1'b0}};
    cs_m_d = {(Lanes*64){1'b0}};
    rnd_d = {(Lanes*64){1'b0}};
    win_d = {(Lanes*17){1'b0}};
    ok_d = {Lanes{1'b0}};
    sgn_d = {Lanes{1'b0}};
    ext = 80'd0;
    byte_eq = 10'd0;
    w17 = 17'd0;
    ok = 1'b0;
    sgn = 1'b0;
    sat_d = {(Lanes*10){1'b0}};
    zo_sum_d = {(Lanes*11){1'b0}};
    over_d = {Lanes{1'b0}};
    under_d = {Lanes{1'b0}};
    y_d = {(Lanes*8){1'b0}};
    hl_sum = 64'd0;
    mid = 64'd0;
    mid36 = 36'd0;
    rnd_c = 64'd0;
    s_tmp = 64'd0;
    c_tmp = 64'd0;
    sat = 10'd0;
    zsum = 11'd0;
    y = 8'd0;
    for (l = 0; l < Lanes; l = l + 1) begin
      // stage 2
      sum32 = acc1_q[l*32 +: 32] + prm1_q[31:0];
      sum_d[l*32 +: 32] = (sum32 & keep_m) | (~sum32 & flip_m);
      // stage 4: three addends, compressed to two in stage 5; |hh| < 2^30 and 0 <= ll < 2^32.
      // The middle one is (hl + lh) << 16 with hl + lh = k - hh - ll (|hl + lh| < 2^32: exact in
      // 36 bits): two 36-bit subtractions (two carry chains)
      hl_sum = {phh3_q[l*34 +: 32], pll3_q[l*34 +: 32]};
      mid36 = pk3_q[l*36 +: 36] - {{2{phh3_q[l*34+33]}}, phh3_q[l*34 +: 34]}
                                - {{2{pll3_q[l*34+33]}}, pll3_q[l*34 +: 34]};
      mid = {{12{mid36[35]}}, mid36, 16'd0};
      rnd_c = cst3_q;
      cs_s_d[l*64 +: 64] = hl_sum;
      cs_m_d[l*64 +: 64] = mid;
      cs_c_d[l*64 +: 64] = rnd_c;
      // stage 5: one 64-bit sum (carry-save: s ^ m ^ c, majority << 1)
      s_tmp = cs4_s_q[l*64 +: 64] ^ cs4_m_q[l*64 +: 64] ^ cs4_c_q[l*64 +: 64];
      c_tmp = ((cs4_s_q[l*64 +: 64] & cs4_m_q[l*64 +: 64]) |
               (cs4_s_q[l*64 +: 64] & cs4_c_q[l*64 +: 64]) |
               (cs4_m_q[l*64 +: 64] & cs4_c_q[l*64 +: 64])) << 1;
      rnd_d[l*64 +: 64] = s_tmp + c_tmp;
      // stage 6: coarse window at byte t[5:3] of the sign-extended sum
      sgn = rnd5_q[l*64+63];
      ext = {{16{sgn}}, rnd5_q[l*64 +: 64]};
      for (b = 0; b < 10; b = b + 1) byte_eq[b] = ext[b*8 +: 8] == {8{sgn}};
      w17 = 17'd0;
      ok = 1'b1;
      for (j = 0; j < 8; j = j + 1) begin
        if (t5_q[5:3] == j[2:0]) begin
          w17 = ext[j*8 +: 17];
          for (b = 0; b < 10; b = b + 1) if (b >= j + 2) ok = ok & byte_eq[b];
        end
      end
      win_d[l*17 +: 17] = w17;
      ok_d[l] = ok;
      sgn_d[l] = sgn;
      // double rounding, t >= 32: one less when (sign ? bits t-1 .. 31 : bits 63 .. 31) are 0
      corr_d[l] = cen5_q && (sgn ? ((rnd5_q[l*64+31 +: 32] & cmask5_q) == 32'd0)
                                 : (rnd5_q[l*64+31 +: 33] == 33'd0));
      // stage 7: fine window at t[2:0]; in range when bits t+9 .. 16 also equal the sign
      // (hi_mask: bits 9 .. 16 of the window at or above t+9; small shifts, no adders)
      w17 = win6_q[l*17 +: 17];
      ok = ok6_q[l] && (((w17[16:9] ^ {8{sgn6_q[l]}}) & (8'hFF << t6_q)) == 8'd0);
      w17 = w17 >> t6_q;
      if (ok) sat = w17[9:0];
      else sat = sgn6_q[l] ? 10'h200 : 10'h1FF;
      sat_d[l*10 +: 10] = sat;
      // stage 8: + ZO
      zsum = {sat7_q[l*10+9], sat7_q[l*10 +: 10]} + (corr7_q[l] ? zom1_q : {{3{zo_q[7]}}, zo_q});
      zo_sum_d[l*11 +: 11] = zsum;
      over_d[l] = corr7_q[l] ? $signed({sat7_q[l*10+9], sat7_q[l*10 +: 10]}) > hi1_r_q
                             : $signed({sat7_q[l*10+9], sat7_q[l*10 +: 10]}) > hi_r_q;
      under_d[l] = corr7_q[l] ? $signed({sat7_q[l*10+9], sat7_q[l*10 +: 10]}) < lo1_r_q
                              : $signed({sat7_q[l*10+9], sat7_q[l*10 +: 10]}) < lo_r_q;
      // stage 9: clamp to [act_min, act_max]
      if (over8_q[l]) y = act_max_q;
      else if (under8_q[l]) y = act_min_q;
      else y = zo8_q[l*11 +: 8];
      y_d[l*8 +: 8] = y;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_q <= {Stages{1'b0}};
    end else if (clear_i) begin
      v_q <= {Stages{1'b0}};
    end else begin
      v_q <= {v_q[Stages-1:1], issue};
    end
  end

  // datapath registers: not reset, no enable (bubbles carry don't-care data)
  always @(posedge clk_i) begin
    side_q <= {side_q[(Stages-1)*SideBits-1:0], side0};
    acc0_q <= lanes0;
    prm0_q <= prm_ram[rd_addr];
    acc1_q <= acc0_q;
    prm1_q <= prm0_q;
    sum2_q <= sum_d;
    mult2_q <= prm1_q[62:32];
    t2_q <= prm1_q[68:63];
    t2b_q <= t2_q;
    t2c_q <= t2b_q;
    t3_q <= t2c_q;
    nm2b_q <= 32'd0 - {1'b0, mult2_q};
    sh2c_q <= sh_d;
    cst3_q <= cst_d;
    cs4_s_q <= cs_s_d;
    cs4_m_q <= cs_m_d;
    cs4_c_q <= cs_c_d;
    t4_q <= t3_q;
    rnd5_q <= rnd_d;
    t5_q <= t4_q;
    cmask5_q <= cmask_d;
    cen5_q <= dbl_q && t4_q[5];
    win6_q <= win_d;
    ok6_q <= ok_d;
    sgn6_q <= sgn_d;
    t6_q <= t5_q[2:0];
    sat7_q <= sat_d;
    corr6_q <= corr_d;
    corr7_q <= corr6_q;
    zo8_q <= zo_sum_d;
    over8_q <= over_d;
    under8_q <= under_d;
    y9_q <= y_d;
  end

  // sum = sh*2^16 + sl (sh signed), MULT = mh*2^16 + ml: three products per lane (Karatsuba),
  // hh = sh*mh, ll = sl*ml and k = (sh + sl)*(mh + ml), so hl + lh = k - hh - ll: one DSP a lane
  // fewer than the four partial products (8 lanes: 24 MULT18X18D, not 32). The operand sums are
  // 18-bit signed (-2^15 .. 2^16 + 2^15 - 2), the width of one MULT18X18D.
  wire [16:0] ml = {1'b0, mult2_q[15:0]};
  wire [16:0] mh = {2'b00, mult2_q[30:16]};
  wire [17:0] mk = {1'b0, mh} + {1'b0, ml};   // shared by the lanes (one MULT per element)
  genvar gl;
  generate
    for (gl = 0; gl < Lanes; gl = gl + 1) begin : g_lane
      wire [16:0] sl = {1'b0, sum2_q[gl*32 +: 16]};
      wire [16:0] sh = {sum2_q[gl*32+31], sum2_q[gl*32+16 +: 16]};
      wire [17:0] sk = {sh[16], sh} + {1'b0, sl};
      s24_mul #(.Width(17)) u_ll (.clk_i(clk_i), .a_i(sl), .b_i(ml), .p_o(pll3_q[gl*34 +: 34]));
      s24_mul #(.Width(17)) u_hh (.clk_i(clk_i), .a_i(sh), .b_i(mh), .p_o(phh3_q[gl*34 +: 34]));
      s24_mul #(.Width(18)) u_k  (.clk_i(clk_i), .a_i(sk), .b_i(mk), .p_o(pk3_q[gl*36 +: 36]));
    end
  endgenerate

  // ---------------------------------------------------------------- packer + output FIFO
  wire [SideBits-1:0] o_side = side_q[(Stages-1)*SideBits +: SideBits];
  wire [PhWidth-1:0] o_ph = o_side[SideBits-1 -: PhWidth];
  wire [1:0]         o_rib = o_side[3:2];
  wire               o_beat_end = o_side[1];
  wire               o_tile_end = o_side[0];
  wire               o_valid = v_q[Stages];
  reg  [RBits-1:0]   beat_q, beat_d, merged;
  integer            pr, pp;

  always @* begin
    merged = beat_q;
    // one enable per lane position of the beat (no variable shift of the whole beat)
    for (pr = 0; pr < 4; pr = pr + 1) begin
      for (pp = 0; pp < Phases; pp = pp + 1) begin
        if (o_rib == pr[1:0] && o_ph == pp[PhWidth-1:0]) begin
          merged[(pr * NumCols + pp * Lanes) * 8 +: Lanes * 8] = y9_q;
        end
      end
    end
    beat_d = beat_q;
    if (o_valid) beat_d = o_beat_end ? {RBits{1'b0}} : merged;
    if (clear_i || start_i) beat_d = {RBits{1'b0}};
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) beat_q <= {RBits{1'b0}};
    else         beat_q <= beat_d;
  end

  wire           out_empty, out_full;
  wire [RBits:0] out_head;
  wire [OutAw:0] unused_out_level;
  s24_fifo #(.Width(RBits + 1), .AddrWidth(OutAw)) u_out (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clear_i (clear_i),
    .push_i  (o_valid && o_beat_end),
    .data_i  ({o_tile_end, merged}),
    .pop_i   (out_pop),
    .data_o  (out_head),
    .empty_o (out_empty),
    .full_o  (out_full),
    .level_o (unused_out_level)
  );
  wire unused_out_full = out_full;  // never pushed while full: the credit counter (occ_q)
  assign out_pop = !out_empty && m_ready_i;

  // ---------------------------------------------------------------- ports
  assign s_ready_o = en_q ? !in_full : m_ready_i;
  assign m_valid_o = en_q ? !out_empty : s_valid_i;
  assign m_data_o = en_q ? out_head[RBits-1:0] : s_data_i;
  assign m_last_o = en_q ? out_head[RBits] : s_last_i;
  assign busy_o = !in_empty || (v_q != {Stages{1'b0}}) || !out_empty;

`ifdef FORMAL
  // ---------------------------------------------------------------- formal tail (formal/epilogue.sby)
  // Inputs (assumed when this module is proven alone, asserted inside s24_top's simulations): the
  // stream protocol on s_*, a job starts only while nothing is in flight, and the partial
  // products are within the ranges of their operands. Proven: the stream protocol on m_*, the
  // credit counter is exactly the output FIFO's fill plus the beat ends in flight (so the FIFO is
  // never pushed full), the output beats of a tile (ceil(rows / 4), TLAST on the last, rows the
  // job's: NumRows, or 2 * NumRows in pair mode) follow the issued rows through the pipeline, the
  // parameter row base is the job's row tiles done times rows (the issue reads base + tile row),
  // and the arithmetic after the multipliers: for any products, the rounded product is hh
  // * 2^32 + (k - hh - ll) * 2^16 + ll + the mode's constant (2^(t-1); double rounding: + 2^30 for t
  // >= 32, - MULT * 2^t for t <= 30), and the int8 lane is clamp((that >>> t) + ZO, act_min,
  // act_max), with double rounding and t >= 32 (that - 2^31 [p < -2^30]) >>> t (act_max tested
  // first, so a job with act_min > act_max is specified too); and before them, the multiplier's
  // operand: acc + bias, with double rounding and t <= 30 the value op with op - 2^t = ((acc +
  // bias) * 2^SHIFT wrapped to int32) >>> SHIFT (so op * MULT - MULT * 2^t + 2^(t-1), shifted by
  // t, is gemmlowp's rounding at bit 31 of x).
`ifdef S24_FV_TOP_S24_EPILOGUE
  `define S24_FV_ASSUME_INPUTS
`endif
  // Property groups. formal/epilogue.sby proves them one group a task (S24_FV_EPI_PART and one
  // of S24_FV_EPI_CTRL, _OPCST, _RND, _LANE, _Y9), each with the datapath outside its cone cut
  // (docs/formal.md, "The epilogue"); without S24_FV_EPI_PART (the simulations, the cover task)
  // every group is in. The input assumptions are in every group.
  //   CTRL   stream protocol on m_*, credits, tile structure, parameter row base, ranges
  //   CFG    the per-job bound registers (with CTRL and LANE: stage 8 reads them)
  //   OPCST  the multiplier's operand (stage 2) and the rounding constant (stage 3)
  //   RND    the rounded product (stage 5) from the partial products and the constant
  //   ST7    the lemma of stage 7: the window is the rounded product shifted and saturated
  //   LANE   the int8 lane (stage 9) from the rounded product
  // (part LANE proves ST7, LANE and CFG; part Y9, LANE and CFG only: the mutants' BMC of stage 9)
`ifdef S24_FV_EPI_PART
  `ifdef S24_FV_EPI_CTRL
    `define S24_FV_EPI_G_CTRL
    `define S24_FV_EPI_G_CFG
  `endif
  `ifdef S24_FV_EPI_OPCST
    `define S24_FV_EPI_G_OPCST
  `endif
  `ifdef S24_FV_EPI_RND
    `define S24_FV_EPI_G_RND
  `endif
  `ifdef S24_FV_EPI_LANE
    `define S24_FV_EPI_G_ST7
    `define S24_FV_EPI_G_LANE
    `define S24_FV_EPI_G_CFG
  `endif
  `ifdef S24_FV_EPI_Y9
    `define S24_FV_EPI_G_LANE
    `define S24_FV_EPI_G_CFG
    `define S24_FV_EPI_ST7_ASSUMED
  `endif
`else
  `define S24_FV_EPI_G_CTRL
  `define S24_FV_EPI_G_CFG
  `define S24_FV_EPI_G_OPCST
  `define S24_FV_EPI_G_RND
  `define S24_FV_EPI_G_ST7
  `define S24_FV_EPI_G_LANE
`endif
`include "s24_assert.vh"
  `S24_FV_START_IN_RESET(clk_i, rst_ni)
  `S24_FV_LIVE(clk_i, rst_ni)
  localparam integer Beats = (NumRows + 3) / 4;   // output beats per tile (2:m mode)
  localparam integer BeatsP = (MaxRows + 3) / 4;  // output beats per tile (pair mode)
  // stream protocol, input side (assumed) and output side (asserted)
  reg              fv_s_hold_q, fv_m_hold_q;
  reg [RBits:0]    fv_s_beat_q, fv_m_beat_q;
  // cycles since reset or the last start (saturating): the arithmetic properties hold once their
  // stages have been filled with the job's configuration (bubbles included: no enables)
  reg [3:0]        fv_age_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_s_hold_q <= 1'b0;
      fv_m_hold_q <= 1'b0;
      fv_age_q    <= 4'd0;
    end else begin
      fv_s_hold_q <= !clear_i && s_valid_i && !s_ready_o;
      fv_m_hold_q <= !clear_i && !start_i && m_valid_o && !m_ready_i;
      if (start_i)                fv_age_q <= 4'd0;
      else if (fv_age_q != 4'hF) fv_age_q <= fv_age_q + 4'd1;
    end
  end
  always @(posedge clk_i) begin
    fv_s_beat_q <= {s_last_i, s_data_i};
    fv_m_beat_q <= {m_last_o, m_data_o};
  end

  // beat ends in flight (issued, not yet pushed into the output FIFO), and the output beat
  // number each of them will have: walking the pipeline from its oldest stage, starting at the
  // beats already pushed in the current tile, each beat end must be the tile's last exactly when
  // it is beat Beats - 1, and what is left must be the issue side's count (row_q / 4)
  integer          fv_s;
  reg [4:0]        fv_ends;
  reg [7:0]        fv_bn;
  reg              fv_order_ok;
  reg [7:0]        fv_pushed_q;   // beats pushed into the output FIFO in the current tile
  reg [1:0]        fv_side;      // {beat end, tile end} of a stage
  localparam [31:0] BeatsM1w = Beats - 1;
  localparam [31:0] BeatsM1Pw = BeatsP - 1;
  wire [7:0] BeatsM1 = pair_q ? BeatsM1Pw[7:0] : BeatsM1w[7:0];  // the job's (latched at start)
  always @* begin
    fv_ends = 5'd0;
    fv_bn = fv_pushed_q;
    fv_order_ok = 1'b1;
    fv_side = 2'b00;
    for (fv_s = Stages; fv_s >= 1; fv_s = fv_s - 1) begin
      fv_side = side_q[(fv_s-1)*SideBits +: 2];
      if (v_q[fv_s] && fv_side[1]) begin
        fv_ends = fv_ends + 5'd1;
        if (fv_side[0] != (fv_bn == BeatsM1)) fv_order_ok = 1'b0;
        fv_bn = fv_side[0] ? 8'd0 : fv_bn + 8'd1;
      end
    end
  end
  // row tiles whose last row has been issued in this job (for the parameter row's base)
  reg [31:0] fv_rt_q;
  localparam [AddrWidth-1:0] FvRows = RowsW[AddrWidth-1:0];
  localparam [AddrWidth-1:0] FvRowsP = RowsPW[AddrWidth-1:0];
  wire [AddrWidth-1:0] fv_base = fv_rt_q[AddrWidth-1:0] * (pair_q ? FvRowsP : FvRows);
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_rt_q <= 32'd0;
    end else if (clear_i || start_i) begin
      fv_rt_q <= 32'd0;
    end else if (issue && last_ph && last_row && colt_q == col_last_q) begin
      fv_rt_q <= fv_rt_q + 32'd1;
    end
  end
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_pushed_q <= 8'd0;
    end else if (clear_i || start_i) begin
      fv_pushed_q <= 8'd0;
    end else if (o_valid && o_beat_end) begin
      fv_pushed_q <= o_tile_end ? 8'd0 : fv_pushed_q + 8'd1;
    end
  end

  // the arithmetic after the multipliers, recomputed at full width (64-bit sums, arithmetic shift),
  // lane by lane: fv_rnd2_q is rnd5_q's expected value (two stages after the products), fv_y9_q
  // y9_q's (four stages after rnd5_q)
  wire [Lanes*64-1:0] fv_rnd2_q;
  wire [Lanes*8-1:0]  fv_y9_q;
  wire [Lanes-1:0]    fv_st7_ok;    // the lane's stage 7 is (rnd >>> t) saturated, its correction gemmlowp's
  wire [Lanes-1:0]    fv_prod_ok;   // the lane's partial products are within their operands' ranges
  wire [Lanes-1:0]    fv_op_ok;     // the lane's multiplier operand is the rounding mode's
  // MULT beside the multipliers (aligned with t3_q), and the rounding constant expected of t3_q:
  // 2^(t-1); double rounding: + 2^30 for t >= 32, - MULT * 2^t for t <= 30 (the operand's - 2^t
  // times MULT)
  reg  [30:0]         fv_m2b_q, fv_m2c_q, fv_m3_q;
  reg  signed [63:0]  fv_cst;
  always @(posedge clk_i) begin
    fv_m2b_q <= mult2_q;
    fv_m2c_q <= fv_m2b_q;
    fv_m3_q  <= fv_m2c_q;
  end
  always @* begin
    fv_cst = (t3_q == 6'd0) ? 64'sd0 : 64'sd1 <<< (t3_q - 6'd1);
    if (dbl_q && t3_q >= 6'd32) fv_cst = fv_cst + 64'sd1073741824;
    if (dbl_q && t3_q <= 6'd30) fv_cst = fv_cst - ($signed({33'd0, fv_m3_q}) <<< t3_q);
  end
  genvar fv_l;
  generate
    for (fv_l = 0; fv_l < Lanes; fv_l = fv_l + 1) begin : g_fv_lane
      wire signed [33:0] p_ll = pll3_q[fv_l*34 +: 34];
      wire signed [35:0] p_k  = pk3_q[fv_l*36 +: 36];
      wire signed [33:0] p_hh = phh3_q[fv_l*34 +: 34];
      assign fv_prod_ok[fv_l] = p_ll >= 34'sd0 && p_ll < 34'sd4294967296 &&           // 16 x 16 unsigned
                                p_k >= -36'sd3221159936 && p_k <= 36'sd9663283204 &&  // (sh + sl)(mh + ml)
                                p_hh > -34'sd1073741824 && p_hh < 34'sd1073741824;    // signed 16 x 15
      reg  signed [63:0] ex_rnd_d, ex_rnd_q, ex_rnd2_q;
      reg  signed [63:0] ex_r;
      reg                ex_neg, ex_corr;
      reg  signed [65:0] ex_v, ex_lo, ex_hi;
      reg  [7:0]         ex_y_d, ex_y8_q, ex_y9_q;
      // the exact shift and correction of stage 5, carried to stage 7 (the lemma on sat7_q and
      // corr7_q: the stage-6/7 windows are the shift saturated to 10 bits), then the clamp
      reg  signed [63:0] ex_r6_q, ex_r7_q;
      reg                ex_c6_q, ex_c7_q;
      reg  [9:0]         ex_sat7;
      // the operand (stage 2): sum = acc + bias, or with double rounding and t <= 30 (SHIFT =
      // 31 - t > 0) op such that op - 2^t = (sum * 2^SHIFT wrapped to int32) >>> SHIFT
      reg  [31:0]        ex_sum2_q;
      reg  signed [31:0] ex_x;
      always @(posedge clk_i) ex_sum2_q <= acc1_q[fv_l*32 +: 32] + prm1_q[31:0];
      always @* begin
        ex_x = $signed(ex_sum2_q << (6'd31 - t2_q)) >>> (6'd31 - t2_q);
      end
      assign fv_op_ok[fv_l] = (dbl_q && t2_q <= 6'd30)
          ? ($signed({1'b0, sum2_q[fv_l*32 +: 32]}) - (33'sd1 <<< t2_q) == {ex_x[31], ex_x})
          : (sum2_q[fv_l*32 +: 32] == ex_sum2_q);
      always @* begin
        // the constant is cst3_q, itself asserted equal to fv_cst
        ex_rnd_d = ($signed({{30{p_hh[33]}}, p_hh}) <<< 32) +
                   (($signed({{28{p_k[35]}}, p_k}) - $signed({{30{p_hh[33]}}, p_hh}) -
                     $signed({{30{p_ll[33]}}, p_ll})) <<< 16) + $signed({{30{p_ll[33]}}, p_ll}) +
                   $signed(cst3_q);
        // double rounding, t >= 32: gemmlowp's floor((p + 2^30 + 2^(t-1) - 2^31 [p < -2^30]) / 2^t)
        // with rnd = p + 2^30 + 2^(t-1) (the assertion on rnd5_q): p < -2^30 is rnd < 2^(t-1), and
        // floor((rnd - 2^31) / 2^t) = floor(rnd / 2^t) - [rnd mod 2^t < 2^31] (written so, the
        // subtraction before the shift costs the solver a 65-bit adder in front of a shifter)
        ex_neg  = dbl_q && t5_q >= 6'd32 && $signed(rnd5_q[fv_l*64 +: 64]) < (64'sd1 <<< (t5_q - 6'd1));
        ex_corr = ex_neg && ((rnd5_q[fv_l*64 +: 64] & ((64'd1 << t5_q) - 64'd1)) < 64'd2147483648);
        ex_r  = $signed(rnd5_q[fv_l*64 +: 64]) >>> t5_q;
        // r saturated to [-512, 511] (what stage 7 keeps), two stages later
        if (ex_r7_q > 64'sd511)       ex_sat7 = 10'h1FF;
        else if (ex_r7_q < -64'sd512) ex_sat7 = 10'h200;
        else                          ex_sat7 = ex_r7_q[9:0];
        ex_v  = {{2{ex_r7_q[63]}}, ex_r7_q} - (ex_c7_q ? 66'sd1 : 66'sd0) + {{58{zo_q[7]}}, zo_q};
        ex_lo = {{58{act_min_q[7]}}, act_min_q};
        ex_hi = {{58{act_max_q[7]}}, act_max_q};
        if (ex_v > ex_hi)        ex_y_d = ex_hi[7:0];
        else if (ex_v < ex_lo)   ex_y_d = ex_lo[7:0];
        else                     ex_y_d = ex_v[7:0];
      end
      always @(posedge clk_i) begin
        ex_rnd_q  <= ex_rnd_d;
        ex_rnd2_q <= ex_rnd_q;
        ex_r6_q   <= ex_r;
        ex_c6_q   <= ex_corr;
        ex_r7_q   <= ex_r6_q;
        ex_c7_q   <= ex_c6_q;
        ex_y8_q   <= ex_y_d;
        ex_y9_q   <= ex_y8_q;
      end
      assign fv_rnd2_q[fv_l*64 +: 64] = ex_rnd2_q;
      assign fv_y9_q[fv_l*8 +: 8] = ex_y9_q;
      assign fv_st7_ok[fv_l] = sat7_q[fv_l*10 +: 10] == ex_sat7 && corr7_q[fv_l] == ex_c7_q;
    end
  endgenerate
  wire [15:0] fv_row_beats = {{(16-RowWidth){1'b0}}, row_q} >> 2;  // beat ends issued in this tile
  // the job's clamp bounds on r's side (registered at start from the configuration inputs)
  wire signed [10:0] fv_zo_s = {{3{zo_q[7]}}, zo_q};
  wire signed [10:0] fv_hi_r = $signed({{3{act_max_q[7]}}, act_max_q}) - fv_zo_s;
  wire signed [10:0] fv_lo_r = $signed({{3{act_min_q[7]}}, act_min_q}) - fv_zo_s;

  always @(posedge clk_i) begin
    if (fv_live_q) begin
      // inputs
      if (fv_s_hold_q) begin
        `S24_ASSUME(s_valid_i && {s_last_i, s_data_i} == fv_s_beat_q, "epilogue: input beat withdrawn or changed before ready")
      end
      `S24_ASSUME(!(start_i && (busy_o || s_valid_i || clear_i)), "epilogue: a job started while data is in flight")
      `S24_ASSUME(!(start_i && cfg_en_i && cfg_col_tiles_i == 32'd0), "epilogue: fused job with 0 column tiles")
      `S24_ASSUME(&fv_prod_ok, "epilogue: a partial product outside its operands' range")
`ifdef S24_FV_EPI_G_CTRL
      // output stream protocol: a beat stays, unchanged, until taken
      if (fv_m_hold_q) begin
        `S24_ASSERT(m_valid_o && {m_last_o, m_data_o} == fv_m_beat_q, "epilogue: output beat withdrawn or changed before ready")
      end
      // credits: exactly the output FIFO's fill plus the beat ends in flight, within its depth
      `S24_ASSERT({2'b00, occ_q} == {2'b00, unused_out_level} + fv_ends, "epilogue: credit counter differs from the beats in flight")
      `S24_ASSERT(occ_q <= OutDepth, "epilogue: credit counter overflow")
      `S24_ASSERT(!(o_valid && o_beat_end && out_full), "epilogue: output FIFO overrun")
      // tile structure: Beats output beats per tile, TLAST on the last
      `S24_ASSERT(fv_order_ok, "epilogue: a tile's last beat out of place")
      `S24_ASSERT({8'd0, fv_bn} == fv_row_beats, "epilogue: beats in flight disagree with the issue row")
      `S24_ASSERT({{(32-RowWidth){1'b0}}, row_q} < (pair_q ? MaxRows : NumRows), "epilogue: tile row out of range")
      `S24_ASSERT(PairMode != 0 || !pair_q, "epilogue: pair-mode job without PairMode")
      // the parameter row: base_q advances by the job's rows per row tile (fv_rt_q row tiles done)
      `S24_ASSERT(base_q == fv_base, "epilogue: parameter row base differs from row tile * rows (modulo the address width)")
      `S24_ASSERT({{(32-PhWidth){1'b0}}, ph_q} < Phases, "epilogue: phase out of range")
      `S24_ASSERT(colt_q <= col_last_q || !en_q, "epilogue: column tile beyond the row tile")
      `S24_ASSERT(en_q || !busy_o, "epilogue: fused data in flight outside a fused job (pass-through would drop it)")
`endif
`ifdef S24_FV_EPI_G_CFG
      `S24_ASSERT(hi_r_q == fv_hi_r && lo_r_q == fv_lo_r, "epilogue: per-job clamp bounds differ from ACT_MAX - ZO, ACT_MIN - ZO")
      `S24_ASSERT(hi1_r_q == fv_hi_r + 11'sd1 && lo1_r_q == fv_lo_r + 11'sd1 && zom1_q == fv_zo_s - 11'sd1, "epilogue: per-job corrected bounds differ from ACT_MAX - ZO + 1, ACT_MIN - ZO + 1, ZO - 1")
`endif
      // the arithmetic after the multipliers
`ifdef S24_FV_EPI_G_OPCST
      if (fv_age_q >= 4'd1) begin
        `S24_ASSERT(&fv_op_ok, "epilogue: multiplier operand differs from acc + bias (double rounding, SHIFT > 0: sign-extended from bit t, + 2^t)")
        `S24_ASSERT(cst3_q == fv_cst, "epilogue: rounding constant differs from 2^(t-1) (+ 2^30, t >= 32; - MULT * 2^t, t <= 30: double rounding)")
      end
`endif
`ifdef S24_FV_EPI_G_RND
      if (fv_age_q >= 4'd3)
        `S24_ASSERT(rnd5_q == fv_rnd2_q, "epilogue: rounded product differs from hh<<32 + (k-hh-ll)<<16 + ll + the mode's constant")
`endif
`ifdef S24_FV_EPI_G_ST7
      if (fv_age_q >= 4'd3)
        `S24_ASSERT(&fv_st7_ok, "epilogue: stage 7 differs from (rnd >>> t) saturated to [-512, 511], or its correction from gemmlowp's")
`endif
`ifdef S24_FV_EPI_ST7_ASSUMED
      // part Y9 (a BMC for the mutants of stages 8-9 only): the stage-7 lemma, proven by part
      // LANE, as an assumption, so the solver searches stage 9 only
      if (fv_age_q >= 4'd3) assume (&fv_st7_ok);
`endif
`ifdef S24_FV_EPI_G_LANE
      if (fv_age_q >= 4'd5)
        `S24_ASSERT(y9_q == fv_y9_q, "epilogue: int8 lane differs from clamp(round(x, t, mode) + ZO, act_min, act_max)")
`endif
      `S24_COVER(o_valid && o_tile_end && en_q)                 // a fused tile completes
      `S24_COVER(o_valid && o_tile_end && en_q && pair_q)       // a fused pair-mode tile completes
      `S24_COVER(out_full && m_valid_o && !m_ready_i)           // output stalled with the FIFO full
      `S24_COVER(v_q[Stages] && over8_q[0] && act_max_q == 8'h7F)  // clamped at 127
      `S24_COVER(v_q[Stages] && over8_q[0] && act_max_q == 8'h06)  // clamped at a lower act_max
      `S24_COVER(v_q[Stages] && under8_q[0] && act_min_q == zo_q)  // clamped at ZO (ReLU)
      `S24_COVER(!en_q && m_valid_o && m_ready_i)                // an int32 row passes through
      `S24_COVER(v_q[10] && corr7_q[0])                          // double rounding's correction on a result
    end
  end
`ifdef S24_FV_EPI_G_CTRL
  `undef S24_FV_EPI_G_CTRL
`endif
`ifdef S24_FV_EPI_G_CFG
  `undef S24_FV_EPI_G_CFG
`endif
`ifdef S24_FV_EPI_G_OPCST
  `undef S24_FV_EPI_G_OPCST
`endif
`ifdef S24_FV_EPI_G_RND
  `undef S24_FV_EPI_G_RND
`endif
`ifdef S24_FV_EPI_G_ST7
  `undef S24_FV_EPI_G_ST7
`endif
`ifdef S24_FV_EPI_ST7_ASSUMED
  `undef S24_FV_EPI_ST7_ASSUMED
`endif
`ifdef S24_FV_EPI_G_LANE
  `undef S24_FV_EPI_G_LANE
`endif
`endif
endmodule
`resetall
