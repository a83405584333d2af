// SPDX-License-Identifier: Apache-2.0
// sparse24 top level: AXI4-Lite register block + AXI4-Stream weight/activation/result ports around s24_core.
`default_nettype none

// Why streams and not an AXI master: the host (or its DMA) owns tiling and operand reuse.
// One weight tile is replayed against every column tile and the activation beat of a group is
// repeated for every beat of that group (dense A on a sparse core), so the order in which
// operands are fetched is a host decision; a fixed address generator in the IP would hard-wire
// one schedule. With streams, any DMA (or the co-simulation, or a FIFO window) feeds the array
// at one beat per cycle and the IP stays small. Register map: docs/registers.md, generated
// with rtl/s24_regs.vh and rtl/s24_regs_store.vh (the storage registers) from regs/s24_regs.toml.
//
// Stream beats carry the core payloads of docs/architecture.md section 2 in the low bits of
// TDATA, zero-padded to whole 32-bit words. TLAST must be set on the last beat of every tile of
// s_axis_w and s_axis_a (mismatches set ERR.W_LAST / ERR.A_LAST, the job runs on); m_axis_r sets
// TLAST on the last row of each result tile. With CFG_EPI.EN the results pass through
// s24_epilogue (the fused int8 layer of SPEC section 7) and m_axis_r carries int8, four tile rows
// per beat (docs/architecture.md section 4). A result beat that m_axis_r presents when SOFT_RESET
// takes effect stays, unchanged, until taken (AXI4-Stream withdraws TVALID only in reset): it is
// kept in a register of its own while everything behind it is dropped (STATUS.R_HELD).
//
// The register window is decoded by word (the slave drops the byte address bits; the byte lanes
// are WSTRB's): registers are at word offsets below RegSpan, where an offset without a register
// reads 0 and ignores writes (OKAY); the rest of the window answers SLVERR.
// The parameter defaults are the default build of regs/s24_regs.toml's [defaults] (generated
// into s24_defaults.vh with the register map; today 8x8 2:4 with the pair mode, EpiLanes 4,
// EpiDepth 512).
`include "s24_defaults.vh"
`include "s24_axil_ports.vh"
module s24_top #(
  parameter integer NumRows = `S24_DEFAULT_ROWS,        // PE rows: output rows per tile
  parameter integer NumCols = `S24_DEFAULT_COLS,        // PE columns: output columns per tile
  parameter integer SparseN = `S24_DEFAULT_SPARSE_N,    // kept values per group (multipliers per PE)
  parameter integer SparseM = `S24_DEFAULT_SPARSE_M,    // group length along K (2, 4 or 8)
  parameter integer EpiLanes = `S24_DEFAULT_EPI_LANES,  // fused epilogue: at most this many int32 lanes requantized per cycle
                                                        // (twice as many with the pair mode: its tiles bring 2R rows a period)
  parameter integer EpiDepth = `S24_DEFAULT_EPI_DEPTH,  // fused epilogue: per-channel parameter rows (>= NumRows; >= 2 * NumRows with the pair mode)
  parameter integer PairMode = `S24_DEFAULT_PAIR_MODE   // 1: CFG_MODE.PAIR (1:m at twice the 2:m rate) on a 2:m core;
                                                        // 0: the 2:m-only core (CFG_MODE reads 0)
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,
  // AXI4-Lite register window
  `S24_AXIL_SLAVE_PORTS(8),
  // weights + metadata, one beat per step of one row tile
  input  wire [WWords*32-1:0]  s_axis_w_tdata_i,
  input  wire                  s_axis_w_tvalid_i,
  output wire                  s_axis_w_tready_o,
  input  wire                  s_axis_w_tlast_i,
  // activations, one beat per step of one column tile
  input  wire [AWords*32-1:0]  s_axis_a_tdata_i,
  input  wire                  s_axis_a_tvalid_i,
  output wire                  s_axis_a_tready_o,
  input  wire                  s_axis_a_tlast_i,
  // results, one beat per tile row
  output wire [RWords*32-1:0]  m_axis_r_tdata_o,
  output wire                  m_axis_r_tvalid_o,
  input  wire                  m_axis_r_tready_i,
  output wire                  m_axis_r_tlast_o,
  // interrupt: CTRL.IRQ_EN and any IRQ cause
  output wire                  irq_o
);
  localparam integer DataWidth = 8;
  localparam integer AccWidth = 32;
  localparam integer IdxWidth = (SparseN == SparseM) ? 0 : $clog2(SparseM);
  localparam integer WBits = NumRows * SparseN * (DataWidth + IdxWidth);
  localparam integer ABits = NumCols * SparseM * DataWidth;
  localparam integer RBits = NumCols * AccWidth;
  localparam integer WWords = (WBits + 31) / 32;
  localparam integer AWords = (ABits + 31) / 32;
  localparam integer RWords = (RBits + 31) / 32;
  // the pair mode exists on a 2:m core (m > 2) built with PairMode
  localparam  HasPair = (PairMode != 0) && (SparseN == 2) && (SparseM > 2);
  // the largest divisor of NumCols up to EpiLanes (2 * EpiLanes in a build with the pair mode, whose
  // tiles bring 2R rows per tile period: the epilogue keeps the pace of the array in both modes):
  // a tile row takes NumCols / EpiLanesEff cycles
  // (a constant function: it runs at elaboration only, never in a simulation, so its lines are
  // left out of `make coverage`'s points)
  /* verilator coverage_off */
  function integer lanes_for(input integer cols, input integer most);
    integer i;
    begin
      lanes_for = 1;
      for (i = 1; i <= most; i = i + 1) if (cols % i == 0) lanes_for = i;
    end
  endfunction
  /* verilator coverage_on */
  localparam integer EpiLanesEff = lanes_for(NumCols, HasPair ? 2 * EpiLanes : EpiLanes);

`include "s24_regs.vh"

  initial begin
    if (NumRows < 1 || NumRows > 255 || NumCols < 1 || NumCols > 255) begin
      $display("s24_top: NumRows and NumCols must be 1..255");
      $finish;
    end
    if (WWords > 255 || AWords > 255 || RWords > 255) begin
      $display("s24_top: a stream beat is wider than 255 words");
      $finish;
    end
  end

  // ---------------------------------------------------------------- AXI4-Lite front end
  wire        wr_en;
  wire [7:0]  wr_addr;
  wire [31:0] wr_data;
  wire [3:0]  wr_strb;
  wire [7:0]  rd_addr;
  reg  [31:0] rd_data;

  s24_axil_slave #(.AddrWidth(8)) u_axil (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .s_axil_awaddr_i  (s_axil_awaddr_i),
    .s_axil_awvalid_i (s_axil_awvalid_i),
    .s_axil_awready_o (s_axil_awready_o),
    .s_axil_wdata_i   (s_axil_wdata_i),
    .s_axil_wstrb_i   (s_axil_wstrb_i),
    .s_axil_wvalid_i  (s_axil_wvalid_i),
    .s_axil_wready_o  (s_axil_wready_o),
    .s_axil_bresp_o   (s_axil_bresp_o),
    .s_axil_bvalid_o  (s_axil_bvalid_o),
    .s_axil_bready_i  (s_axil_bready_i),
    .s_axil_araddr_i  (s_axil_araddr_i),
    .s_axil_arvalid_i (s_axil_arvalid_i),
    .s_axil_arready_o (s_axil_arready_o),
    .s_axil_rdata_o   (s_axil_rdata_o),
    .s_axil_rresp_o   (s_axil_rresp_o),
    .s_axil_rvalid_o  (s_axil_rvalid_o),
    .s_axil_rready_i  (s_axil_rready_i),
    .wr_en_o          (wr_en),
    .wr_addr_o        (wr_addr),
    .wr_data_o        (wr_data),
    .wr_strb_o        (wr_strb),
    .wr_ok_i          (reg_in_block(wr_addr)),
    .rd_addr_o        (rd_addr),
    .rd_data_i        (rd_data),
    .rd_ok_i          (reg_in_block(rd_addr))
  );

  // bit mask of the written bytes
  wire [31:0] wr_mask = {{8{wr_strb[3]}}, {8{wr_strb[2]}}, {8{wr_strb[1]}}, {8{wr_strb[0]}}};
  wire [31:0] wr_bits = wr_data & wr_mask;
  // the storage registers (CFG_BEATS, CFG_TILES, CFG_EPI, CFG_ACT, CFG_COL_TILES, EPI_BIAS,
  // EPI_MULT): flops, writes, resets and read-back, and the build-parameter registers' read-back
  // (HW_ARRAY, HW_WIDTH, HW_BEAT, HW_EPI), generated from regs/s24_regs.toml
`include "s24_regs_store.vh"
  wire wr_ctrl = wr_en && wr_addr == RegCtrl;
  wire wr_err = wr_en && wr_addr == RegErr;
  wire wr_irq = wr_en && wr_addr == RegIrq;
  wire wr_mode = wr_en && wr_addr == RegCfgMode;
  wire wr_epi_addr = wr_en && wr_addr == RegEpiAddr;
  wire wr_epi_shift = wr_en && wr_addr == RegEpiShift;
  // A CTRL write takes effect from flops: START and SOFT_RESET are registered (start_req_q,
  // soft_reset_q) and decided in the next cycle, and an accepted START reaches the core and the
  // epilogue one cycle after its decision (start_go_q). So the decision's inputs come from flops
  // of this block and the one net that fans out across the array and the epilogue (start_i,
  // clear_i) is a flop's output. Writes are at least two cycles apart (s24_axil_slave), and a read
  // that follows a write's response is taken two cycles after the write at the earliest, when
  // the decision's effects on STATUS, ERR and IRQ are in their flops: the registers read the same
  // as with a decision in the write's own cycle. The job itself starts two cycles later, which
  // no counter sees (CNT_JOB_CYCLES restarts at the decision and counts from the core's first
  // busy cycle, as before).
  reg  start_req_q;                           // a START write (without SOFT_RESET), one cycle ago
  reg  soft_reset_q;                          // a SOFT_RESET write, one cycle ago
  reg  start_go_q;                            // START accepted one cycle ago: the core and epilogue start
  wire start_req = start_req_q;
  wire soft_reset = soft_reset_q;

  // ---------------------------------------------------------------- core
  wire        busy, done, err_meta;
  wire        w_ready, a_ready, r_valid, r_ready, r_last;
  wire [RBits-1:0] r_data;
  wire [31:0] cnt_cycles, cnt_beats, cnt_stall_w, cnt_stall_a, cnt_stall_r;
  reg         cfg_pair_q, cfg_pair_d;         // CFG_MODE.PAIR (stays 0 without the pair mode)
  wire epi_busy;
  reg  job_pend_q, job_pend_d;                // the core is done, the epilogue still drains
  wire job_busy = busy || epi_busy || job_pend_q || start_go_q;
  // a configuration that START refuses (ERR.BAD_CFG): kept in a flop computed from the registers'
  // next values, so that START's decision (fanned out to the core, the epilogue and the register
  // block) has no 32-bit compares in front of it; cfg_zero_q always equals the compares of the
  // registers themselves (asserted below), 1 after reset (CFG_BEATS = 0)
  reg  cfg_zero_q;
  wire cfg_zero = cfg_zero_q;
  reg  r_keep_q, r_keep_d;                    // m_axis_r presents the beat kept across SOFT_RESET
  wire start_ok = start_req && !soft_reset && !job_busy && !r_keep_q && !cfg_zero;

  s24_core #(`S24_CORE_PARAMS) u_core (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .clear_i       (soft_reset),
    .start_i       (start_go_q),
    .cfg_beats_i   (cfg_beats_q),
    .cfg_tiles_i   (cfg_tiles_q),
    .cfg_pair_i    (cfg_pair_q),
    .busy_o        (busy),
    .done_o        (done),
    .err_meta_o    (err_meta),
    .w_valid_i     (s_axis_w_tvalid_i),
    .w_ready_o     (w_ready),
    .w_data_i      (s_axis_w_tdata_i[WBits-1:0]),
    .a_valid_i     (s_axis_a_tvalid_i),
    .a_ready_o     (a_ready),
    .a_data_i      (s_axis_a_tdata_i[ABits-1:0]),
    .r_valid_o     (r_valid),
    .r_ready_i     (r_ready),
    .r_data_o      (r_data),
    .r_last_o      (r_last),
    .cnt_cycles_o  (cnt_cycles),
    .cnt_beats_o   (cnt_beats),
    .cnt_stall_w_o (cnt_stall_w),
    .cnt_stall_a_o (cnt_stall_a),
    .cnt_stall_r_o (cnt_stall_r)
  );

  // zero padding of TDATA up to whole words carries nothing
  generate
    if (WWords * 32 > WBits) begin : g_w_pad
      wire unused_w_pad = ^s_axis_w_tdata_i[WWords*32-1:WBits];
    end
    if (AWords * 32 > ABits) begin : g_a_pad
      wire unused_a_pad = ^s_axis_a_tdata_i[AWords*32-1:ABits];
    end
  endgenerate

  assign s_axis_w_tready_o = w_ready;
  assign s_axis_a_tready_o = a_ready;

  // ---------------------------------------------------------------- fused int8 epilogue
  localparam integer EpiAw = (EpiDepth > 1) ? $clog2(EpiDepth) : 1;
  reg  [15:0] epi_addr_q, epi_addr_d;
  reg  [5:0]  epi_shift_q, epi_shift_d;
  // a parameter row is stored by the EPI_SHIFT write (rows beyond EpiDepth are dropped)
  wire        pw_en = wr_epi_shift && wr_strb[0] && {16'd0, epi_addr_q} < EpiDepth;
  wire        o_valid, o_last, o_ready;
  wire [RBits-1:0] o_data;

  s24_epilogue #(
    .NumRows (NumRows),
    .NumCols (NumCols),
    .Lanes   (EpiLanesEff),
    .Depth   (EpiDepth),
    .PairMode(HasPair ? 1 : 0)   // pair-mode tiles of 2 * NumRows rows: buffer sized for them
  ) u_epi (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .clear_i         (soft_reset),
    .start_i         (start_go_q),
    .cfg_en_i        (cfg_epi_q[CfgEpiEnLsb]),
    .cfg_round_i     (cfg_epi_q[CfgEpiRoundLsb]),
    .cfg_zo_i        (cfg_epi_q[CfgEpiZoLsb +: 8]),
    .cfg_act_min_i   (cfg_act_q[CfgActActMinLsb +: 8]),
    .cfg_act_max_i   (cfg_act_q[CfgActActMaxLsb +: 8]),
    .cfg_col_tiles_i (cfg_col_tiles_q),
    .cfg_pair_i      (cfg_pair_q),
    .pw_en_i         (pw_en),
    .pw_addr_i       (epi_addr_q[EpiAw-1:0]),
    .pw_bias_i       (epi_bias_q),
    .pw_mult_i       (epi_mult_q),
    .pw_shift_i      (wr_data[5:0]),
    .s_valid_i       (r_valid),
    .s_ready_o       (r_ready),
    .s_data_i        (r_data),
    .s_last_i        (r_last),
    .m_valid_o       (o_valid),
    .m_ready_i       (o_ready),
    .m_data_o        (o_data),
    .m_last_o        (o_last),
    .busy_o          (epi_busy)
  );

  // ---------------------------------------------------------------- result beat kept across SOFT_RESET
  // SOFT_RESET empties the core and the epilogue in the cycle it takes effect. A beat presented
  // on m_axis_r in that cycle and not taken is copied into r_keep_data_q and presented from the
  // next cycle on, until taken; the stream behind it (empty after the reset, and no START is taken
  // while it is kept) waits. The copy is datapath (not reset); r_keep_q is cleared only by the
  // beat's handshake or ARESETn.
  reg  [RBits:0] r_keep_data_q;               // {TLAST, TDATA} of the kept beat
  wire r_keep_load = soft_reset && !r_keep_q && o_valid && !m_axis_r_tready_i;
  wire [RBits-1:0] r_data_out = r_keep_q ? r_keep_data_q[RBits-1:0] : o_data;
  assign o_ready = m_axis_r_tready_i && !r_keep_q;
  assign m_axis_r_tvalid_o = r_keep_q || o_valid;
  assign m_axis_r_tlast_o = r_keep_q ? r_keep_data_q[RBits] : o_last;
  always @(posedge clk_i) begin
    if (r_keep_load) r_keep_data_q <= {o_last, o_data};
  end
  generate
    if (RWords * 32 > RBits) begin : g_r_pad
      assign m_axis_r_tdata_o = {{(RWords * 32 - RBits){1'b0}}, r_data_out};
    end else begin : g_r_nopad
      assign m_axis_r_tdata_o = r_data_out;
    end
  endgenerate

  // ---------------------------------------------------------------- TLAST checks
  // Each input stream's beats are counted inside the tile; TLAST must be set exactly when the
  // count reaches the tile's last beat. The beat count is the one sampled at START, kept as its
  // last position (beats - 1, so no subtractor sits in front of the compares; all ones before the
  // first job, as beats - 1 of a count of 0 was).
  reg  [31:0] beats_m1_q, beats_m1_d;
  reg  [31:0] w_pos_q, w_pos_d;
  reg  [31:0] a_pos_q, a_pos_d;
  wire w_hs = s_axis_w_tvalid_i && w_ready;
  wire a_hs = s_axis_a_tvalid_i && a_ready;
  wire r_hs = o_valid && o_ready;
  wire w_end = w_pos_q == beats_m1_q;
  wire a_end = a_pos_q == beats_m1_q;

  // ---------------------------------------------------------------- register state
  reg        irq_en_q, irq_en_d;
  reg        done_q, done_d;
  reg [4:0]  err_q, err_d;       // ERR bits, positions from s24_regs.vh
  reg [1:0]  irq_q, irq_d;       // IRQ bits
  reg        meta_seen_q, meta_seen_d;
  reg [31:0] tiles_out_q, tiles_out_d;
  reg [31:0] cnt_job_q, cnt_job_d;
  reg [4:0]  err_set;

  always @* begin
    err_set = 5'd0;
    err_set[ErrBadCfgLsb] = start_req && !soft_reset && !job_busy && !r_keep_q && cfg_zero;
    err_set[ErrStartBusyLsb] = start_req && !soft_reset && (job_busy || r_keep_q);
    err_set[ErrMetaLsb] = err_meta && !meta_seen_q;
    err_set[ErrWLastLsb] = w_hs && (s_axis_w_tlast_i != w_end);
    err_set[ErrALastLsb] = a_hs && (s_axis_a_tlast_i != a_end);
  end

  always @* begin
    irq_en_d = irq_en_q;
    done_d = done_q;
    err_d = err_q;
    irq_d = irq_q;
    meta_seen_d = meta_seen_q || err_meta;
    tiles_out_d = tiles_out_q;
    cnt_job_d = cnt_job_q;
    cfg_pair_d = cfg_pair_q;
    epi_addr_d = epi_addr_q;
    epi_shift_d = epi_shift_q;
    job_pend_d = job_pend_q;
    beats_m1_d = beats_m1_q;
    w_pos_d = w_pos_q;
    a_pos_d = a_pos_q;
    r_keep_d = r_keep_q;
    if (r_keep_q && m_axis_r_tready_i) r_keep_d = 1'b0;
    if (r_keep_load) r_keep_d = 1'b1;
    if (wr_mode && wr_strb[0] && HasPair) cfg_pair_d = wr_data[CfgModePairLsb];
    if (wr_epi_addr) epi_addr_d = (epi_addr_q & ~wr_mask[15:0]) | wr_bits[15:0];
    if (wr_epi_shift && wr_strb[0]) begin
      epi_shift_d = wr_data[5:0];
      epi_addr_d = epi_addr_q + 16'd1;
    end
    if (busy || epi_busy || job_pend_q) cnt_job_d = cnt_job_q + 32'd1;
    if (wr_ctrl && wr_strb[0]) irq_en_d = wr_data[CtrlIrqEnLsb];
    if (wr_err) err_d = err_d & ~wr_bits[4:0];
    if (wr_irq) irq_d = irq_d & ~wr_bits[1:0];
    if (w_hs) w_pos_d = w_end ? 32'd0 : w_pos_q + 32'd1;
    if (a_hs) a_pos_d = a_end ? 32'd0 : a_pos_q + 32'd1;
    if (r_hs && o_last) tiles_out_d = tiles_out_q + 32'd1;
    // the job is done when the core is and the epilogue has sent its last beat
    if (done) job_pend_d = 1'b1;
    if ((done || job_pend_q) && !epi_busy) begin
      job_pend_d = 1'b0;
      done_d = 1'b1;
      irq_d[IrqDoneLsb] = 1'b1;
    end
    err_d = err_d | err_set;
    if (err_set != 5'd0) irq_d[IrqErrorLsb] = 1'b1;
    // the core's err_meta restarts with the job (the cycle after its start_i): report each job's
    // invalid metadata anew
    if (start_go_q) meta_seen_d = 1'b0;
    if (start_ok) begin
      done_d = 1'b0;
      beats_m1_d = cfg_beats_q - 32'd1;
      w_pos_d = 32'd0;
      a_pos_d = 32'd0;
      tiles_out_d = 32'd0;
      cnt_job_d = 32'd0;
    end
    if (soft_reset) begin
      done_d = 1'b0;
      err_d = 5'd0;
      irq_d = 2'd0;
      meta_seen_d = 1'b0;
      tiles_out_d = 32'd0;
      cnt_job_d = 32'd0;
      job_pend_d = 1'b0;
      w_pos_d = 32'd0;
      a_pos_d = 32'd0;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      irq_en_q <= 1'b0;
      done_q <= 1'b0;
      err_q <= 5'd0;
      irq_q <= 2'd0;
      meta_seen_q <= 1'b0;
      tiles_out_q <= 32'd0;
      cnt_job_q <= 32'd0;
      cfg_pair_q <= 1'b0;
      epi_addr_q <= 16'd0;
      epi_shift_q <= 6'd0;
      job_pend_q <= 1'b0;
      beats_m1_q <= 32'hffff_ffff;
      cfg_zero_q <= 1'b1;
      start_req_q <= 1'b0;
      soft_reset_q <= 1'b0;
      start_go_q <= 1'b0;
      w_pos_q <= 32'd0;
      a_pos_q <= 32'd0;
      r_keep_q <= 1'b0;
    end else begin
      irq_en_q <= irq_en_d;
      done_q <= done_d;
      err_q <= err_d;
      irq_q <= irq_d;
      meta_seen_q <= meta_seen_d;
      tiles_out_q <= tiles_out_d;
      cnt_job_q <= cnt_job_d;
      cfg_pair_q <= cfg_pair_d;
      epi_addr_q <= epi_addr_d;
      epi_shift_q <= epi_shift_d;
      job_pend_q <= job_pend_d;
      beats_m1_q <= beats_m1_d;
      cfg_zero_q <= cfg_beats_d == 32'd0 || cfg_tiles_d == 32'd0 ||
                    (cfg_epi_d[CfgEpiEnLsb] && cfg_col_tiles_d == 32'd0);
      start_req_q <= wr_ctrl && wr_bits[CtrlStartLsb] && !wr_bits[CtrlSoftResetLsb];
      soft_reset_q <= wr_ctrl && wr_bits[CtrlSoftResetLsb];
      start_go_q <= start_ok;
      w_pos_q <= w_pos_d;
      a_pos_q <= a_pos_d;
      r_keep_q <= r_keep_d;
    end
  end

  assign irq_o = irq_en_q && irq_q != 2'd0;

  // ---------------------------------------------------------------- read mux
  always @* begin
    rd_data = 32'd0;
    case (rd_addr)
      RegId: rd_data = RegMagic;
      RegVersion: begin
        rd_data[VersionMajorLsb +: VersionMajorWidth] = RegVersionMajor;
        rd_data[VersionMinorLsb +: VersionMinorWidth] = RegVersionMinor;
      end
      RegCtrl: rd_data[CtrlIrqEnLsb] = irq_en_q;
      RegStatus: begin
        rd_data[StatusBusyLsb] = job_busy;
        rd_data[StatusDoneLsb] = done_q;
        rd_data[StatusErrorLsb] = err_q != 5'd0;
        rd_data[StatusRHeldLsb] = r_keep_q;
      end
      RegErr: rd_data[4:0] = err_q;
      RegIrq: rd_data[1:0] = irq_q;
      RegCntCycles: rd_data = cnt_cycles;
      RegCntBeats: rd_data = cnt_beats;
      RegCntStallW: rd_data = cnt_stall_w;
      RegCntStallA: rd_data = cnt_stall_a;
      RegCntStallR: rd_data = cnt_stall_r;
      RegCntTilesOut: rd_data = tiles_out_q;
      RegCntJobCycles: rd_data = cnt_job_q;
      RegCfgMode: rd_data[CfgModePairLsb] = cfg_pair_q;
      RegEpiAddr: rd_data[15:0] = epi_addr_q;
      RegEpiShift: rd_data[5:0] = epi_shift_q;
      default: rd_data = store_rd_data | param_rd_data;  // the generated registers (0 elsewhere)
    endcase
  end

`ifdef FORMAL
  // ---------------------------------------------------------------- formal tail (formal/top.sby)
`ifdef S24_FV_TOP_S24_TOP
  `define S24_FV_ASSUME_INPUTS
`endif
`include "s24_assert.vh"
  `S24_FV_START_IN_RESET(clk_i, rst_ni)
  `S24_FV_LIVE(clk_i, rst_ni)
  reg       fv_past_q;   // fv_live_q one cycle later
  reg [4:0] fv_err_q, fv_err_set_q, fv_err_w1c_q;
  reg [1:0] fv_irq_q, fv_irq_set_q, fv_irq_w1c_q;
  reg       fv_srst_q;
  reg       fv_may_start_q;   // a START decided now would be taken: idle, configured, no SOFT_RESET
  // m_axis_r: a beat presented and not taken in a SOFT_RESET cycle or while kept, and its payload
  reg             fv_r_hold_q;
  reg [RBits:0]   fv_r_beat_q;
  // the response being given: the read's and the write's address inside the register block, and
  // the read's a hole of it
  reg       fv_rd_in_q, fv_rd_hole_q, fv_wr_in_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_past_q <= 1'b0;
    else         fv_past_q <= fv_live_q;
  end
  always @(posedge clk_i) begin
    fv_err_q     <= err_q;
    fv_err_set_q <= err_set;
    fv_err_w1c_q <= wr_err ? wr_bits[4:0] : 5'd0;
    fv_irq_q     <= irq_q;
    fv_irq_set_q <= {err_set != 5'd0, (done || job_pend_q) && !epi_busy};  // causes: an ERR bit, the job done
    fv_irq_w1c_q <= wr_irq ? wr_bits[1:0] : 2'd0;
    fv_srst_q    <= soft_reset;
    fv_may_start_q <= !job_busy && !r_keep_q && !cfg_zero && !soft_reset;
    fv_r_hold_q  <= (soft_reset || r_keep_q) && m_axis_r_tvalid_o && !m_axis_r_tready_i;
    fv_r_beat_q  <= {m_axis_r_tlast_o, m_axis_r_tdata_o[RBits-1:0]};
    if (s_axil_arvalid_i && s_axil_arready_o) begin
      fv_rd_in_q   <= reg_in_block(rd_addr);
      fv_rd_hole_q <= reg_in_block(rd_addr) && !reg_mapped(rd_addr);
    end
    if (wr_en) fv_wr_in_q <= reg_in_block(wr_addr);
    if (fv_past_q) begin
      // ERR and IRQ are write-1-to-clear, bit by bit: a bit clears only by a 1 written to it or
      // SOFT_RESET, a written 1 clears it unless its cause fires in the same cycle, a written 0
      // keeps it, and it sets only on its cause
      `S24_ASSERT((fv_err_q & ~err_q & ~fv_err_w1c_q) == 5'd0 || fv_srst_q, "ERR bit cleared without W1C or soft reset")
      `S24_ASSERT((err_q & fv_err_w1c_q & ~fv_err_set_q) == 5'd0 || fv_srst_q, "ERR bit written 1 not cleared")
      `S24_ASSERT((~fv_err_q & err_q & ~fv_err_set_q) == 5'd0, "ERR bit set without a cause")
      `S24_ASSERT((fv_irq_q & ~irq_q & ~fv_irq_w1c_q) == 2'd0 || fv_srst_q, "IRQ bit cleared without W1C or soft reset")
      `S24_ASSERT((irq_q & fv_irq_w1c_q & ~fv_irq_set_q) == 2'd0 || fv_srst_q, "IRQ bit written 1 not cleared")
      `S24_ASSERT((~fv_irq_q & irq_q & ~fv_irq_set_q) == 2'd0, "IRQ bit set without a cause")
      // the core and the epilogue start only on a START decided idle and configured the cycle before
      `S24_ASSERT(!start_go_q || fv_may_start_q, "the core started without an accepted START")
      if (fv_srst_q) begin
        `S24_ASSERT(err_q == 5'd0 && irq_q == 2'd0 && !done_q, "SOFT_RESET left status behind")
      end
      // AXI4-Stream: TVALID falls without a handshake only in reset; a beat held by the sink when
      // SOFT_RESET takes effect is presented, unchanged, until taken
      if (fv_r_hold_q) begin
        `S24_ASSERT(m_axis_r_tvalid_o && {m_axis_r_tlast_o, m_axis_r_tdata_o[RBits-1:0]} == fv_r_beat_q,
                    "m_axis_r: a held result beat withdrawn or changed across SOFT_RESET")
      end
      `S24_COVER(r_keep_q && m_axis_r_tready_i)                              // a kept beat delivered
      `S24_COVER(fv_err_q[ErrMetaLsb] && !err_q[ErrMetaLsb] && !fv_srst_q)  // W1C of one ERR bit
      `S24_COVER(err_q == 5'h1f)                                            // every ERR cause
      `S24_COVER(irq_o && fv_irq_q == 2'd3 && irq_q == 2'd1)                // IRQ.ERROR cleared, DONE kept
    end
    if (fv_live_q) begin
      // a START is taken only when idle with a nonzero configuration, else flagged
      `S24_ASSERT(!(start_ok && (busy || r_keep_q || cfg_zero)), "START taken while busy, with a kept beat or unconfigured")
      `S24_ASSERT(!(start_go_q && soft_reset), "the core and the epilogue started and cleared in one cycle")
      `S24_ASSERT(cfg_zero_q == (cfg_beats_q == 32'd0 || cfg_tiles_q == 32'd0 ||
                                 (cfg_epi_q[CfgEpiEnLsb] && cfg_col_tiles_q == 32'd0)),
                  "the registered unconfigured flag differs from the configuration registers")
      `S24_ASSERT(!irq_o || irq_en_q, "interrupt while disabled")
      // the register block answers OKAY (a hole reading 0), the rest of the window SLVERR
      if (s_axil_rvalid_o) begin
        `S24_ASSERT(s_axil_rresp_o == (fv_rd_in_q ? 2'b00 : 2'b10), "axil: a read inside the block not OKAY, or outside it not SLVERR")
        `S24_ASSERT(!fv_rd_hole_q || s_axil_rdata_o == 32'd0, "axil: a hole of the register block does not read 0")
      end
      if (s_axil_bvalid_o) begin
        `S24_ASSERT(s_axil_bresp_o == (fv_wr_in_q ? 2'b00 : 2'b10), "axil: a write inside the block not OKAY, or outside it not SLVERR")
      end
    end
  end
`endif
endmodule
`resetall
