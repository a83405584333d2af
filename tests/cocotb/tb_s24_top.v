// tb_s24_top: s24_top for cocotb (tests/cocotb/test_s24_top.py): the same ports without the _i/_o
// suffixes, named as cocotbext-axi's buses look them up (s_axil_awaddr, s_axis_w_tdata, ...). The time
// unit (1 ns / 1 ps) comes from the Icarus command file (+timescale), as cocotb's own flow does.
`default_nettype none

`include "s24_defaults.vh"
module tb_s24_top #(
  parameter integer NumRows = `S24_DEFAULT_ROWS,      // PE rows
  parameter integer NumCols = `S24_DEFAULT_COLS,      // PE columns
  parameter integer SparseN = `S24_DEFAULT_SPARSE_N,  // kept values per group
  parameter integer SparseM = `S24_DEFAULT_SPARSE_M,  // group length along K
  parameter integer PairMode = `S24_DEFAULT_PAIR_MODE // the pair mode on a 2:m core
) (
  input  wire                 clk,
  input  wire                 rst_n,
  input  wire [7:0]           s_axil_awaddr,
  input  wire                 s_axil_awvalid,
  output wire                 s_axil_awready,
  input  wire [31:0]          s_axil_wdata,
  input  wire [3:0]           s_axil_wstrb,
  input  wire                 s_axil_wvalid,
  output wire                 s_axil_wready,
  output wire [1:0]           s_axil_bresp,
  output wire                 s_axil_bvalid,
  input  wire                 s_axil_bready,
  input  wire [7:0]           s_axil_araddr,
  input  wire                 s_axil_arvalid,
  output wire                 s_axil_arready,
  output wire [31:0]          s_axil_rdata,
  output wire [1:0]           s_axil_rresp,
  output wire                 s_axil_rvalid,
  input  wire                 s_axil_rready,
  input  wire [((NumRows * SparseN * (8 + ((SparseN == SparseM) ? 0 : $clog2(SparseM))) + 31) / 32) * 32 - 1:0] s_axis_w_tdata,  // s24_top's WWords words
  input  wire                 s_axis_w_tvalid,
  output wire                 s_axis_w_tready,
  input  wire                 s_axis_w_tlast,
  input  wire [((NumCols * SparseM * 8 + 31) / 32) * 32 - 1:0] s_axis_a_tdata,  // AWords words
  input  wire                 s_axis_a_tvalid,
  output wire                 s_axis_a_tready,
  input  wire                 s_axis_a_tlast,
  output wire [NumCols * 32 - 1:0] m_axis_r_tdata,  // RWords words
  output wire                 m_axis_r_tvalid,
  input  wire                 m_axis_r_tready,
  output wire                 m_axis_r_tlast,
  output wire                 irq
);
  s24_top #(
    .NumRows (NumRows),
    .NumCols (NumCols),
    .SparseN (SparseN),
    .SparseM (SparseM),
    .PairMode(PairMode)
  ) u_top (
    .clk_i             (clk),
    .rst_ni            (rst_n),
    .s_axil_awaddr_i   (s_axil_awaddr),
    .s_axil_awvalid_i  (s_axil_awvalid),
    .s_axil_awready_o  (s_axil_awready),
    .s_axil_wdata_i    (s_axil_wdata),
    .s_axil_wstrb_i    (s_axil_wstrb),
    .s_axil_wvalid_i   (s_axil_wvalid),
    .s_axil_wready_o   (s_axil_wready),
    .s_axil_bresp_o    (s_axil_bresp),
    .s_axil_bvalid_o   (s_axil_bvalid),
    .s_axil_bready_i   (s_axil_bready),
    .s_axil_araddr_i   (s_axil_araddr),
    .s_axil_arvalid_i  (s_axil_arvalid),
    .s_axil_arready_o  (s_axil_arready),
    .s_axil_rdata_o    (s_axil_rdata),
    .s_axil_rresp_o    (s_axil_rresp),
    .s_axil_rvalid_o   (s_axil_rvalid),
    .s_axil_rready_i   (s_axil_rready),
    .s_axis_w_tdata_i  (s_axis_w_tdata),
    .s_axis_w_tvalid_i (s_axis_w_tvalid),
    .s_axis_w_tready_o (s_axis_w_tready),
    .s_axis_w_tlast_i  (s_axis_w_tlast),
    .s_axis_a_tdata_i  (s_axis_a_tdata),
    .s_axis_a_tvalid_i (s_axis_a_tvalid),
    .s_axis_a_tready_o (s_axis_a_tready),
    .s_axis_a_tlast_i  (s_axis_a_tlast),
    .m_axis_r_tdata_o  (m_axis_r_tdata),
    .m_axis_r_tvalid_o (m_axis_r_tvalid),
    .m_axis_r_tready_i (m_axis_r_tready),
    .m_axis_r_tlast_o  (m_axis_r_tlast),
    .irq_o             (irq)
  );
endmodule
`resetall
