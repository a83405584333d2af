// SPDX-License-Identifier: Apache-2.0
// sparse24: the AXI4-Lite slave port list, one statement for s24_axil_slave and s24_top.
// Included before the module header; S24_AXIL_SLAVE_PORTS(AW) expands to the 17 ports of the
// five channels (AW: byte address bits), with no comma after the last.
`ifndef S24_AXIL_PORTS_VH
`define S24_AXIL_PORTS_VH
`define S24_AXIL_SLAVE_PORTS(AW) \
  input  wire [AW-1:0] s_axil_awaddr_i, \
  input  wire          s_axil_awvalid_i, \
  output wire          s_axil_awready_o, \
  input  wire [31:0]   s_axil_wdata_i, \
  input  wire [3:0]    s_axil_wstrb_i, \
  input  wire          s_axil_wvalid_i, \
  output wire          s_axil_wready_o, \
  output wire [1:0]    s_axil_bresp_o, \
  output wire          s_axil_bvalid_o, \
  input  wire          s_axil_bready_i, \
  input  wire [AW-1:0] s_axil_araddr_i, \
  input  wire          s_axil_arvalid_i, \
  output wire          s_axil_arready_o, \
  output wire [31:0]   s_axil_rdata_o, \
  output wire [1:0]    s_axil_rresp_o, \
  output wire          s_axil_rvalid_o, \
  input  wire          s_axil_rready_i
`endif
