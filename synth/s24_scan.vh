// SPDX-License-Identifier: Apache-2.0
// s24_scan.vh: the scan-chain harness of the place-and-route wrappers (synth/s24_fmax_wrap.v,
// synth/s24_epi_fmax_wrap.v), spelled once. `S24_SCAN_CHAINS(InBits, OutBits, outs) declares
//   rst_sync_q  the reset synchroniser of rst_ni (rst_n: the block's reset)
//   in_q        the scan chain: one flop per input bit of the block, shifted in from scan_i
//   outs        the block's outputs, OutBits wide (to be driven by the block)
//   sig_q       the signature chain: one flop per output bit, shift/XOR, shifted out to scan_o
// inside a module with ports clk_i, rst_ni, scan_i and scan_o, so the whole block fits behind 4
// pins and every input and output of it is a flop of the harness.
`ifndef S24_SCAN_VH
`define S24_SCAN_VH
`define S24_SCAN_CHAINS(InBits, OutBits, outs) \
  reg  [1:0]         rst_sync_q; \
  reg  [InBits-1:0]  in_q; \
  reg  [OutBits-1:0] sig_q; \
  wire [OutBits-1:0] outs; \
  wire               rst_n = rst_sync_q[1]; \
  always @(posedge clk_i) begin \
    rst_sync_q <= {rst_sync_q[0], rst_ni}; \
    in_q       <= {in_q[InBits-2:0], scan_i}; \
    sig_q      <= {sig_q[OutBits-2:0], 1'b0} ^ outs; \
  end \
  assign scan_o = sig_q[OutBits-1];
`endif
