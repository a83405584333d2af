// AXI4-Lite slave front end: turns AXI4-Lite transactions into one-cycle register read/write strobes.
`default_nettype none

// Any handshake order is legal: AW and W are captured independently (each in its own holding
// register), the write is performed once both are held and the B channel is free, and the
// response waits for bready without blocking anything but the next write. A read is accepted
// only while no read response is pending, its data sampled in the accept cycle. Readiness
// depends only on internal state, so there is no combinational path from any input to any
// ready output. Decode (mapped or not) is the register block's: `wr_ok_i`/`rd_ok_i` choose
// OKAY or SLVERR for the strobe's address; an unmapped access therefore always completes.
// The strobes carry word addresses: the low two bits of AWADDR/ARADDR are dropped, the byte
// lanes being WSTRB's (AXI4-Lite on a 32-bit bus), so a CPU's byte or halfword access at any
// offset (a store to 0x31 with WSTRB 0010) reaches its word, and a read returns the whole word.
`include "s24_axil_ports.vh"
module s24_axil_slave #(
  parameter integer AddrWidth = 8  // byte address bits of the register window (>= 3)
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  // AXI4-Lite slave
  `S24_AXIL_SLAVE_PORTS(AddrWidth),
  // register strobes (one cycle each)
  output wire                 wr_en_o,
  output wire [AddrWidth-1:0] wr_addr_o,  // word address (bits 1:0 zero)
  output wire [31:0]          wr_data_o,
  output wire [3:0]           wr_strb_o,
  input  wire                 wr_ok_i,   // wr_addr_o is mapped (OKAY) or not (SLVERR)
  output wire [AddrWidth-1:0] rd_addr_o,  // word address (bits 1:0 zero), valid with arvalid
  input  wire [31:0]          rd_data_i,
  input  wire                 rd_ok_i    // rd_addr_o is mapped (OKAY) or not (SLVERR)
);
  localparam [1:0] RespOkay = 2'b00;
  localparam [1:0] RespSlvErr = 2'b10;

  initial begin
    if (AddrWidth < 3) begin
      $display("s24_axil_slave: AddrWidth must be at least 3 (two or more words)");
      $finish;
    end
  end

  reg                 aw_full_q, aw_full_d;
  reg [AddrWidth-3:0] aw_addr_q, aw_addr_d;   // the word of the accepted AWADDR
  reg                 w_full_q, w_full_d;
  reg [31:0]          w_data_q, w_data_d;
  reg [3:0]           w_strb_q, w_strb_d;
  reg                 b_valid_q, b_valid_d;
  reg [1:0]           b_resp_q, b_resp_d;
  reg                 r_valid_q, r_valid_d;
  reg [1:0]           r_resp_q, r_resp_d;
  reg [31:0]          r_data_q, r_data_d;

  wire aw_hs = s_axil_awvalid_i && !aw_full_q;
  wire w_hs = s_axil_wvalid_i && !w_full_q;
  wire ar_hs = s_axil_arvalid_i && !r_valid_q;
  // a write is performed when both halves are held and the response slot is (or becomes) free
  wire do_write = aw_full_q && w_full_q && (!b_valid_q || s_axil_bready_i);

  always @* begin
    aw_full_d = aw_full_q;
    aw_addr_d = aw_addr_q;
    w_full_d = w_full_q;
    w_data_d = w_data_q;
    w_strb_d = w_strb_q;
    b_valid_d = b_valid_q;
    b_resp_d = b_resp_q;
    r_valid_d = r_valid_q;
    r_resp_d = r_resp_q;
    r_data_d = r_data_q;
    if (b_valid_q && s_axil_bready_i) b_valid_d = 1'b0;
    if (do_write) begin
      aw_full_d = 1'b0;
      w_full_d = 1'b0;
      b_valid_d = 1'b1;
      b_resp_d = wr_ok_i ? RespOkay : RespSlvErr;
    end
    if (aw_hs) begin
      aw_full_d = 1'b1;
      aw_addr_d = s_axil_awaddr_i[AddrWidth-1:2];
    end
    if (w_hs) begin
      w_full_d = 1'b1;
      w_data_d = s_axil_wdata_i;
      w_strb_d = s_axil_wstrb_i;
    end
    if (r_valid_q && s_axil_rready_i) r_valid_d = 1'b0;
    if (ar_hs) begin
      r_valid_d = 1'b1;
      r_resp_d = rd_ok_i ? RespOkay : RespSlvErr;
      r_data_d = rd_ok_i ? rd_data_i : 32'd0;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_full_q <= 1'b0;
      w_full_q <= 1'b0;
      b_valid_q <= 1'b0;
      r_valid_q <= 1'b0;
    end else begin
      aw_full_q <= aw_full_d;
      w_full_q <= w_full_d;
      b_valid_q <= b_valid_d;
      r_valid_q <= r_valid_d;
    end
  end

  // payload registers: no reset needed, qualified by the valid flags above
  always @(posedge clk_i) begin
    aw_addr_q <= aw_addr_d;
    w_data_q <= w_data_d;
    w_strb_q <= w_strb_d;
    b_resp_q <= b_resp_d;
    r_resp_q <= r_resp_d;
    r_data_q <= r_data_d;
  end

  assign s_axil_awready_o = !aw_full_q;
  assign s_axil_wready_o = !w_full_q;
  assign s_axil_bvalid_o = b_valid_q;
  assign s_axil_bresp_o = b_resp_q;
  assign s_axil_arready_o = !r_valid_q;
  assign s_axil_rvalid_o = r_valid_q;
  assign s_axil_rresp_o = r_resp_q;
  assign s_axil_rdata_o = r_data_q;

  assign wr_en_o = do_write;
  assign wr_addr_o = {aw_addr_q, 2'b00};
  assign wr_data_o = w_data_q;
  assign wr_strb_o = w_strb_q;
  assign rd_addr_o = {s_axil_araddr_i[AddrWidth-1:2], 2'b00};
  wire unused_byte_addr = ^{s_axil_awaddr_i[1:0], s_axil_araddr_i[1:0]};  // byte lanes: WSTRB

`ifdef FORMAL
  // ---------------------------------------------------------------- formal tail (formal/axil_slave.sby)
`ifdef S24_FV_TOP_S24_AXIL_SLAVE
  `define S24_FV_ASSUME_INPUTS
`endif
`include "s24_assert.vh"
  `S24_FV_START_IN_RESET(clk_i, rst_ni)
  `S24_FV_LIVE(clk_i, rst_ni)
  // previous cycle: each channel's valid-and-not-ready, payloads
  reg                 fv_past_q;
  reg                 fv_aw_wait_q, fv_w_wait_q, fv_ar_wait_q, fv_b_wait_q, fv_r_wait_q;
  reg [AddrWidth-1:0] fv_awaddr_q, fv_araddr_q;
  reg [31:0]          fv_wdata_q, fv_rdata_q;
  reg [3:0]           fv_wstrb_q;
  reg [1:0]           fv_bresp_q, fv_rresp_q;
  // transaction counters (mod 16): handshakes per channel and register writes performed
  reg [3:0]           fv_n_aw_q, fv_n_w_q, fv_n_b_q, fv_n_ar_q, fv_n_r_q, fv_n_wr_q;
  // the last AW/W payload accepted, the last read accepted (expected response)
  reg [AddrWidth-3:0] fv_aw_addr_q;   // its word
  reg [31:0]          fv_w_data_q, fv_r_exp_q;
  reg [3:0]           fv_w_strb_q;
  reg [1:0]           fv_b_exp_q, fv_r_exp_resp_q;
  wire fv_aw_hs = s_axil_awvalid_i && s_axil_awready_o;
  wire fv_w_hs  = s_axil_wvalid_i && s_axil_wready_o;
  wire fv_b_hs  = s_axil_bvalid_o && s_axil_bready_i;
  wire fv_ar_hs = s_axil_arvalid_i && s_axil_arready_o;
  wire fv_r_hs  = s_axil_rvalid_o && s_axil_rready_i;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_past_q <= 1'b0;
      fv_n_aw_q <= 4'd0; fv_n_w_q <= 4'd0; fv_n_b_q <= 4'd0;
      fv_n_ar_q <= 4'd0; fv_n_r_q <= 4'd0; fv_n_wr_q <= 4'd0;
    end else begin
      fv_past_q <= 1'b1;
      fv_n_aw_q <= fv_n_aw_q + {3'd0, fv_aw_hs};
      fv_n_w_q  <= fv_n_w_q + {3'd0, fv_w_hs};
      fv_n_b_q  <= fv_n_b_q + {3'd0, fv_b_hs};
      fv_n_ar_q <= fv_n_ar_q + {3'd0, fv_ar_hs};
      fv_n_r_q  <= fv_n_r_q + {3'd0, fv_r_hs};
      fv_n_wr_q <= fv_n_wr_q + {3'd0, wr_en_o};
    end
  end
  always @(posedge clk_i) begin
    fv_aw_wait_q <= s_axil_awvalid_i && !s_axil_awready_o;
    fv_w_wait_q  <= s_axil_wvalid_i && !s_axil_wready_o;
    fv_ar_wait_q <= s_axil_arvalid_i && !s_axil_arready_o;
    fv_b_wait_q  <= s_axil_bvalid_o && !s_axil_bready_i;
    fv_r_wait_q  <= s_axil_rvalid_o && !s_axil_rready_i;
    fv_awaddr_q  <= s_axil_awaddr_i;
    fv_araddr_q  <= s_axil_araddr_i;
    fv_wdata_q   <= s_axil_wdata_i;
    fv_wstrb_q   <= s_axil_wstrb_i;
    fv_bresp_q   <= s_axil_bresp_o;
    fv_rresp_q   <= s_axil_rresp_o;
    fv_rdata_q   <= s_axil_rdata_o;
    if (fv_aw_hs) fv_aw_addr_q <= s_axil_awaddr_i[AddrWidth-1:2];
    if (fv_w_hs) begin
      fv_w_data_q <= s_axil_wdata_i;
      fv_w_strb_q <= s_axil_wstrb_i;
    end
    if (wr_en_o) fv_b_exp_q <= wr_ok_i ? RespOkay : RespSlvErr;
    if (fv_ar_hs) begin
      fv_r_exp_q      <= rd_ok_i ? rd_data_i : 32'd0;
      fv_r_exp_resp_q <= rd_ok_i ? RespOkay : RespSlvErr;
    end
  end
  always @(posedge clk_i) begin
    if (fv_live_q && fv_past_q) begin
      // master side (AXI4-Lite A3.2.1): a valid request stays, unchanged, until accepted
      if (fv_aw_wait_q) begin
        `S24_ASSUME(s_axil_awvalid_i && s_axil_awaddr_i == fv_awaddr_q, "axil: AW withdrawn or changed")
      end
      if (fv_w_wait_q) begin
        `S24_ASSUME(s_axil_wvalid_i && s_axil_wdata_i == fv_wdata_q && s_axil_wstrb_i == fv_wstrb_q,
                    "axil: W withdrawn or changed")
      end
      if (fv_ar_wait_q) begin
        `S24_ASSUME(s_axil_arvalid_i && s_axil_araddr_i == fv_araddr_q, "axil: AR withdrawn or changed")
      end
      // slave side: a response stays, unchanged, until accepted
      if (fv_b_wait_q) begin
        `S24_ASSERT(s_axil_bvalid_o && s_axil_bresp_o == fv_bresp_q, "axil: B response withdrawn or changed")
      end
      if (fv_r_wait_q) begin
        `S24_ASSERT(s_axil_rvalid_o && s_axil_rdata_o == fv_rdata_q && s_axil_rresp_o == fv_rresp_q,
                    "axil: R response withdrawn or changed")
      end
    end
    if (fv_live_q) begin
      // one register write per AW+W pair, one B per write, one R per AR: what was accepted and
      // not yet answered is exactly what the slave holds
      `S24_ASSERT(fv_n_aw_q - fv_n_wr_q == {3'd0, aw_full_q}, "axil: AW lost or duplicated")
      `S24_ASSERT(fv_n_w_q - fv_n_wr_q == {3'd0, w_full_q}, "axil: W lost or duplicated")
      `S24_ASSERT(fv_n_wr_q - fv_n_b_q == {3'd0, b_valid_q}, "axil: B lost or duplicated")
      `S24_ASSERT(fv_n_ar_q - fv_n_r_q == {3'd0, r_valid_q}, "axil: R lost or duplicated")
      // the strobe carries the accepted address's word and data; responses carry the decode result
      if (aw_full_q) begin
        `S24_ASSERT(wr_addr_o == {fv_aw_addr_q, 2'b00}, "axil: write address is not the accepted one's word")
      end
      `S24_ASSERT(rd_addr_o == {s_axil_araddr_i[AddrWidth-1:2], 2'b00}, "axil: read address is not ARADDR's word")
      if (w_full_q) begin
        `S24_ASSERT(wr_data_o == fv_w_data_q && wr_strb_o == fv_w_strb_q, "axil: write data is not the accepted one")
      end
      if (b_valid_q) begin
        `S24_ASSERT(s_axil_bresp_o == fv_b_exp_q, "axil: B response is not the write's")
      end
      if (r_valid_q) begin
        `S24_ASSERT(s_axil_rdata_o == fv_r_exp_q && s_axil_rresp_o == fv_r_exp_resp_q, "axil: R is not the read's")
      end
      `S24_COVER(wr_en_o && fv_n_b_q == 4'd1)                    // back-to-back writes
      `S24_COVER(fv_b_hs && s_axil_bresp_o == RespSlvErr)        // an unmapped write answered
      `S24_COVER(fv_r_hs && fv_n_r_q == 4'd1)                    // two reads answered
      `S24_COVER(aw_full_q && !w_full_q && fv_b_wait_q)          // AW first, B stalled
      `S24_COVER(w_full_q && !aw_full_q)                         // W first
      `S24_COVER(fv_r_wait_q && fv_b_wait_q)                     // both responses stalled
    end
  end
`endif
endmodule
`resetall
