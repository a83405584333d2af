// SPDX-License-Identifier: Apache-2.0
// s24_pe: one free-running processing element: metadata muxes, SparseN pipelined int8 multipliers, int32 accumulator + shadow.
`default_nettype none

// No enable anywhere: every register advances every cycle; a bubble is a beat whose valid flag is
// 0 and it flows through like any other. Stages (cycles after the operands enter the PE):
//   1 hop:   wv_q/wi_q/wf_q, a_q  operands from the left / upper neighbour (forwarded right / down)
//   2 sel:   val_q/sel_q          kept values and the activations their relative indices select
//   3-5 mul: s24_mul              SparseN signed products (DSP input and output registers, then a
//                                 fabric register next to the DSP)
//   6 sum:   psum_q               the SparseN products added; 0 for a bubble (synchronous reset)
//   7 acc:   acc_q, shadow_q      acc_q += psum_q; on a tile's last beat the new sum goes to
//                                 shadow_q (double buffer, read by the drain) and acc_q restarts
//                                 at 0, so the first beat of the next tile needs no special case
// The relative index of slot s is its metadata index minus s: canonical N:M metadata puts slot s
// in s .. s+m-n, so each multiplexer has m-n+1 inputs (2:4: 3, not 4).
// Pair mode (PairMode = 1, SparseN == 2 < SparseM; docs/architecture.md section 1): the PE also
// runs 1:m weights for two output rows at once. Slot s then belongs to output row s of the PE's
// pair (tile rows 2r and 2r+1), picks 1 of the same m activations with its own index, and adds
// its product into its own accumulator and shadow (acc_q / shadow_q for slot 0, acc1_q /
// shadow1_q for slot 1). Indices are then stored absolute (wi_i is the index itself, m-input
// multiplexers), in both modes. pair_i is the job's mode; it hops right with the weights
// (pair_q, one flop per PE) and is constant while a job's beats are in the array.
module s24_pe #(
  parameter integer SparseN   = 2,  // kept values per group = multipliers
  parameter integer SparseM   = 4,  // group size = activations per beat
  parameter integer DataWidth = 8,  // signed operand width
  parameter integer AccWidth  = 32, // accumulator width
  parameter integer RelStore  = 2,  // stored bits per relative index (>= 1; unused when SparseN == SparseM)
  parameter integer PairMode  = 0   // 1: the pair (1:m) mode exists (needs SparseN == 2 < SparseM;
                                    // wi_i then holds absolute indices, RelStore = log2(SparseM))
) (
  input  wire                           clk_i,
  input  wire                           rst_ni,
  input  wire                           clear_i,  // drops in-flight beats, zeroes the accumulator
  input  wire [SparseN*DataWidth-1:0]   wv_i,     // kept values from the left
  input  wire [SparseN*RelStore-1:0]    wi_i,     // their relative indices from the left
  input  wire [1:0]                     wf_i,     // {last, valid} from the left
  input  wire [SparseM*DataWidth-1:0]   a_i,      // activations from above
  input  wire                           pair_i,   // the job's mode from the left: 1 = pair (1:m)
  output wire                           pair_o,   // to the right
  output wire [SparseN*DataWidth-1:0]   wv_o,     // to the right
  output wire [SparseN*RelStore-1:0]    wi_o,
  output wire [1:0]                     wf_o,
  output wire [SparseM*DataWidth-1:0]   a_o,      // to below
  output wire                           cap_o,    // shadow_o holds a new result from this cycle on
  output wire [AccWidth-1:0]            shadow_o, // result of the last completed tile
  output wire [AccWidth-1:0]            shadow1_o // pair mode: slot 1's result (0 without PairMode)
);
  localparam integer ProdWidth = 2 * DataWidth;
  localparam         Dense     = (SparseN == SparseM);
  localparam         Pair      = (PairMode != 0) && (SparseN == 2) && (SparseM > 2);
  localparam integer Slot1     = (SparseN > 1) ? 1 : 0;   // slot 1's product (pair mode)
  localparam integer MulLat    = 3;  // s24_mul latency
  // the sum of SparseN products needs ProdWidth + ceil(log2(SparseN)) bits (no wrap before acc)
  localparam integer SumWidth  = ProdWidth + ((SparseN <= 1) ? 0 : $clog2(SparseN));

  // hop stage
  reg [SparseN*DataWidth-1:0] wv_q;
  reg [SparseN*RelStore-1:0]  wi_q;
  reg [SparseM*DataWidth-1:0] a_q;
  // sel stage
  reg [SparseN*DataWidth-1:0] val_q;
  reg [SparseN*DataWidth-1:0] sel_q, sel_d;
  // sum and acc stages
  reg [SumWidth-1:0]          psum_q, psum_d;
  reg [AccWidth-1:0]          acc_q, acc_d;
  reg [AccWidth-1:0]          shadow_q, shadow_d;
  // pair mode: slot 1's product, accumulator and shadow (removed by synthesis without PairMode)
  reg [ProdWidth-1:0]         psum1_q, psum1_d;
  reg [AccWidth-1:0]          acc1_q, acc1_d;
  reg [AccWidth-1:0]          shadow1_q, shadow1_d;
  reg                         pair_q;  // the job's mode (hops right with the weights)
  // control flags {last, valid} of each stage: hop, sel, mul 1..MulLat (fm[MulLat-1] is aligned
  // with the products), sum; reset and cleared
  // (s24_ff: kept per PE, not merged with the equal flags of the PEs on the same diagonal)
  wire [1:0]                  wf_q, fs_q, fa_q;
  wire [2*MulLat-1:0]         fm_q;
  reg  [1:0]                  wf_d, fs_d, fa_d;
  reg  [2*MulLat-1:0]         fm_d;
  // rst_q: the accumulator's restart (its 32 synchronous resets, 64 in pair mode): 1 after reset,
  // in the cycle after clear_i and in the cycle after a tile's last beat reached the acc stage,
  // decided one cycle ahead from the flags of the stage before, so the flop drives the resets
  // directly (no LUT between it and them). An s24_ff of each PE: equal in every PE, so a plain
  // flop would be merged into one that drives all of them from one place.
  wire                        rst_q;
  // cap_q: a copy of the capture flag (fa_q's {last, valid} both set) read only by the drain's
  // select chain in the core (cap_o), so that flop can sit by the chain while fa_q stays by the
  // shadow register it enables
  wire                        cap_q;

  wire [SparseN*ProdWidth-1:0] prod;

  integer s, j;
  reg [SumWidth-1:0] sum;

  // sel stage: slot s takes activation s + rel, rel in 0 .. m-n (slot s itself when dense)
  always @* begin
    sel_d = {(SparseN*DataWidth){1'b0}};
    for (s = 0; s < SparseN; s = s + 1) begin
      if (Dense) begin
        sel_d[s*DataWidth +: DataWidth] = a_q[s*DataWidth +: DataWidth];
      end else if (Pair) begin
        // absolute index: any of the m activations (2:m mode: slot s in s .. s+m-2; pair: any)
        for (j = 0; j < SparseM; j = j + 1) begin
          if (wi_q[s*RelStore +: RelStore] == j[RelStore-1:0])
            sel_d[s*DataWidth +: DataWidth] = a_q[j*DataWidth +: DataWidth];
        end
      end else begin
        for (j = 0; j <= SparseM - SparseN; j = j + 1) begin
          if (wi_q[s*RelStore +: RelStore] == j[RelStore-1:0])
            sel_d[s*DataWidth +: DataWidth] = a_q[(s + j)*DataWidth +: DataWidth];
        end
      end
    end
  end

  genvar g;
  generate
    for (g = 0; g < SparseN; g = g + 1) begin : g_mul
      s24_mul #(.Width(DataWidth)) u_mul (
        .clk_i(clk_i),
        .a_i(val_q[g*DataWidth +: DataWidth]),
        .b_i(sel_q[g*DataWidth +: DataWidth]),
        .p_o(prod[g*ProdWidth +: ProdWidth])
      );
    end
  endgenerate

  always @* begin
    // flags
    wf_d = wf_i;
    fs_d = wf_q;
    fm_d = {fm_q[2*MulLat-3:0], fs_q};
    fa_d = fm_q[2*MulLat-1 -: 2];
    if (clear_i) begin
      wf_d = 2'b00;
      fs_d = 2'b00;
      fm_d = {(2*MulLat){1'b0}};
      fa_d = 2'b00;
    end
    // sum of the products (sign-extended); a bubble adds 0
    sum = {SumWidth{1'b0}};
    for (s = 0; s < SparseN; s = s + 1) begin
      sum = sum + {{(SumWidth-ProdWidth){prod[s*ProdWidth+ProdWidth-1]}}, prod[s*ProdWidth +: ProdWidth]};
    end
    // pair mode: slot 0's product alone (slot 1's goes to the second accumulator)
    if (Pair && pair_q)
      sum = {{(SumWidth-ProdWidth){prod[ProdWidth-1]}}, prod[0 +: ProdWidth]};
    psum_d  = fm_q[2*MulLat-2] ? sum : {SumWidth{1'b0}};
    // slot 1's product for the second accumulator: zeroed for a bubble like psum_q (the same
    // synchronous reset, the valid flag's flop itself), not gated by the mode. In 2:m mode acc1_q
    // sums slot 1's products unread: the drain selects shadow1 in pair mode only, and acc1_q
    // restarts at every tile end and clear as acc_q does, so a pair job's tiles start at 0.
    psum1_d = (Pair && fm_q[2*MulLat-2]) ? prod[Slot1*ProdWidth +: ProdWidth] : {ProdWidth{1'b0}};
    // accumulator: restarts at 0 after a tile's last beat; the shadow takes the tile's sum
    acc_d     = acc_q + {{(AccWidth-SumWidth){psum_q[SumWidth-1]}}, psum_q};
    acc1_d    = acc1_q + {{(AccWidth-ProdWidth){psum1_q[ProdWidth-1]}}, psum1_q};
    shadow_d  = shadow_q;
    shadow1_d = shadow1_q;
    if (fa_q[0] && fa_q[1]) begin
      shadow_d  = acc_d;
      shadow1_d = acc1_d;
    end
    if (rst_q) begin
      acc_d  = {AccWidth{1'b0}};
      acc1_d = {AccWidth{1'b0}};
    end
  end

  // control: reset
  s24_ff #(.Width(2*MulLat + 6)) u_flags (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({fa_d, fm_d, fs_d, wf_d}), .q_o({fa_q, fm_q, fs_q, wf_q})
  );
  s24_ff #(.Width(2), .ResetValue(2'b01)) u_acc_ctl (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({fa_d[0] && fa_d[1], (fa_d[0] && fa_d[1]) || clear_i}),
    .q_o({cap_q, rst_q})
  );

  // datapath: not reset (acc_q is zeroed synchronously while rst_q: after reset and after a clear)
  always @(posedge clk_i) begin
    wv_q     <= wv_i;
    wi_q     <= wi_i;
    a_q      <= a_i;
    val_q    <= wv_q;
    sel_q    <= sel_d;
    psum_q   <= psum_d;
    acc_q    <= acc_d;
    shadow_q <= shadow_d;
    pair_q   <= pair_i;
  end
  // pair mode only: without PairMode psum1_d is 0 and shadow1_o is 0, so synthesis removes these
  always @(posedge clk_i) begin
    psum1_q   <= psum1_d;
    acc1_q    <= acc1_d;
    shadow1_q <= shadow1_d;
  end

  assign wv_o     = wv_q;
  assign wi_o     = wi_q;
  assign wf_o     = wf_q;
  assign a_o      = a_q;
  assign pair_o   = pair_q;
  assign shadow1_o = Pair ? shadow1_q : {AccWidth{1'b0}};
  assign cap_o    = cap_q;
  assign shadow_o = shadow_q;

`ifdef FORMAL
`include "s24_assert.vh"
  `S24_FV_LIVE(clk_i, rst_ni)
  reg fv_clr_q;  // clear_i one cycle ago (1 after reset)
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_clr_q <= 1'b1;
    else         fv_clr_q <= clear_i;
  end
  // Invalid metadata never reaches a multiplier: in every valid group the absolute indices
  // (relative + slot) strictly increase and stay below m.
  integer fs;
  localparam [31:0] RelMax = SparseM - SparseN;
  always @(posedge clk_i) begin
    if (fv_live_q && Pair && wf_q[0] && !pair_q) begin
      // absolute indices: strictly increasing below m in 2:m mode (any index below m in pair mode)
      `S24_ASSERT(wi_q[Slot1*RelStore +: RelStore] > wi_q[0 +: RelStore], "PE: metadata indices not strictly increasing")
    end
    if (fv_live_q && !Dense && !Pair && wf_q[0]) begin
      for (fs = 0; fs < SparseN; fs = fs + 1) begin
        `S24_ASSERT({{(32-RelStore){1'b0}}, wi_q[fs*RelStore +: RelStore]} <= RelMax,
                    "PE: relative metadata index out of range")
        if (fs > 0) begin
          `S24_ASSERT(wi_q[fs*RelStore +: RelStore] >= wi_q[(fs-1)*RelStore +: RelStore],
                      "PE: metadata indices not strictly increasing")
        end
      end
    end
    // last only on valid beats; the accumulator's copy of the acc stage's flags is exact
    if (fv_live_q) begin
      `S24_ASSERT(wf_q[0] || !wf_q[1], "PE: last flag on a bubble")
      `S24_ASSERT(rst_q == ((fa_q[0] && fa_q[1]) || fv_clr_q), "PE: the accumulator's restart differs from the acc stage's last beat or a clear")
      `S24_ASSERT(cap_q == (fa_q[0] && fa_q[1]), "PE: the drain's capture flag differs from the acc stage's")
    end
  end
`endif

endmodule

`resetall
