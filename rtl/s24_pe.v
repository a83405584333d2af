// s24_pe: one processing element: metadata-driven operand muxes, SparseN int8 multipliers, int32 accumulator + shadow.
`default_nettype none

// Pipeline (every register advances only on step_i; 1 step per stage):
//   hop:  w_q / a_q    operands from the left / upper neighbour (forwarded right / down)
//   sel:  val_q/sel_q  kept values and the activations their indices select (the muxes end here)
//   mul:  prod_q       SparseN signed DataWidth x DataWidth products (registered operands and product: DSP)
//   acc:  acc_q        first beat of a tile loads, later beats add (wraps modulo 2**AccWidth);
//                      the last beat also copies the new sum into shadow_q (double buffer)
module s24_pe #(
  parameter integer SparseN   = 2,  // kept values per group = multipliers
  parameter integer SparseM   = 4,  // group size = activations per step
  parameter integer DataWidth = 8,  // signed operand width
  parameter integer AccWidth  = 32, // accumulator width
  parameter integer IdxStore  = 2   // stored bits per index (>= 1; unused when SparseN == SparseM)
) (
  input  wire                           clk_i,
  input  wire                           rst_ni,
  input  wire                           clear_i,  // drops in-flight beats (flags to 0)
  input  wire                           step_i,   // global array advance
  input  wire [SparseN*DataWidth-1:0]   wv_i,     // kept values from the left
  input  wire [SparseN*IdxStore-1:0]    wi_i,     // their indices from the left
  input  wire [2:0]                     wf_i,     // {last, first, valid} from the left
  input  wire [SparseM*DataWidth-1:0]   a_i,      // activations from above
  output wire [SparseN*DataWidth-1:0]   wv_o,     // to the right
  output wire [SparseN*IdxStore-1:0]    wi_o,
  output wire [2:0]                     wf_o,
  output wire [SparseM*DataWidth-1:0]   a_o,      // to below
  output wire                           cap_o,    // acc stage holds a last beat: shadow written this step
  output wire [AccWidth-1:0]            shadow_o  // result of the previous completed tile
);
  localparam integer ProdWidth = 2 * DataWidth;
  localparam         Dense     = (SparseN == SparseM);

  // hop stage
  reg [SparseN*DataWidth-1:0] wv_q, wv_d;
  reg [SparseN*IdxStore-1:0]  wi_q, wi_d;
  reg [2:0]                   wf_q, wf_d;
  reg [SparseM*DataWidth-1:0] a_q, a_d;
  // sel stage
  reg [SparseN*DataWidth-1:0] val_q, val_d;
  reg [SparseN*DataWidth-1:0] sel_q, sel_d;
  reg [2:0]                   fs_q, fs_d;
  // mul stage
  reg [SparseN*ProdWidth-1:0] prod_q, prod_d;
  reg [2:0]                   fm_q, fm_d;
  // acc stage
  reg [AccWidth-1:0]          acc_q, acc_d;
  reg [AccWidth-1:0]          shadow_q, shadow_d;
  reg [AccWidth-1:0]          psum;

  integer s;
  reg [IdxStore-1:0] idx;

  always @* begin
    wv_d   = wv_q;
    wi_d   = wi_q;
    wf_d   = wf_q;
    a_d    = a_q;
    val_d  = val_q;
    sel_d  = sel_q;
    fs_d   = fs_q;
    prod_d = prod_q;
    fm_d   = fm_q;
    acc_d  = acc_q;
    shadow_d = shadow_q;
    psum   = {AccWidth{1'b0}};
    idx    = {IdxStore{1'b0}};
    for (s = 0; s < SparseN; s = s + 1) begin
      psum = psum + {{(AccWidth-ProdWidth){prod_q[s*ProdWidth+ProdWidth-1]}},
                     prod_q[s*ProdWidth +: ProdWidth]};
    end
    if (step_i) begin
      wv_d = wv_i;
      wi_d = wi_i;
      wf_d = wf_i;
      a_d  = a_i;
      // metadata muxes: slot s takes the activation its index names (slot s itself when dense)
      val_d = wv_q;
      for (s = 0; s < SparseN; s = s + 1) begin
        if (Dense) begin
          sel_d[s*DataWidth +: DataWidth] = a_q[s*DataWidth +: DataWidth];
        end else begin
          idx = wi_q[s*IdxStore +: IdxStore];
          sel_d[s*DataWidth +: DataWidth] = a_q[idx*DataWidth +: DataWidth];
        end
      end
      fs_d = wf_q;
      // multipliers
      for (s = 0; s < SparseN; s = s + 1) begin
        prod_d[s*ProdWidth +: ProdWidth] = $signed(val_q[s*DataWidth +: DataWidth]) *
                                           $signed(sel_q[s*DataWidth +: DataWidth]);
      end
      fm_d = fs_q;
      // accumulator (fm_q = {last, first, valid})
      if (fm_q[0]) begin
        acc_d = (fm_q[1] ? {AccWidth{1'b0}} : acc_q) + psum;
        if (fm_q[2]) shadow_d = acc_d;
      end
    end
    if (clear_i) begin
      wf_d = 3'b000;
      fs_d = 3'b000;
      fm_d = 3'b000;
    end
  end

  // control flags: reset
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wf_q <= 3'b000;
      fs_q <= 3'b000;
      fm_q <= 3'b000;
    end else begin
      wf_q <= wf_d;
      fs_q <= fs_d;
      fm_q <= fm_d;
    end
  end

  // datapath: not reset
  always @(posedge clk_i) begin
    wv_q     <= wv_d;
    wi_q     <= wi_d;
    a_q      <= a_d;
    val_q    <= val_d;
    sel_q    <= sel_d;
    prod_q   <= prod_d;
    acc_q    <= acc_d;
    shadow_q <= shadow_d;
  end

  assign wv_o     = wv_q;
  assign wi_o     = wi_q;
  assign wf_o     = wf_q;
  assign a_o      = a_q;
  assign cap_o    = fm_q[0] && fm_q[2];
  assign shadow_o = shadow_q;

`ifdef FORMAL
  // fv_live_q: out of reset (assertions sample it instead of the asynchronous reset)
  reg fv_live_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_live_q <= 1'b0;
    else         fv_live_q <= 1'b1;
  end
  // Invalid metadata never reaches a multiplier: every group in a PE has strictly increasing indices.
  integer fs;
  always @(posedge clk_i) begin
    if (fv_live_q && !Dense && wf_q[0]) begin
      for (fs = 1; fs < SparseN; fs = fs + 1) begin
        assert (wi_q[fs*IdxStore +: IdxStore] > wi_q[(fs-1)*IdxStore +: IdxStore])
          else $error("PE: metadata indices not strictly increasing");
      end
    end
    // first/last only on valid beats
    if (fv_live_q) assert (wf_q[0] || wf_q[2:1] == 2'b00) else $error("PE: first/last flag on a bubble");
  end
`endif

endmodule

`resetall
