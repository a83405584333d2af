#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# sparse24 edge SoC (issue 51, docs/soc.md): LiteX + VexRiscv + SDRAM + UART + timer + s24_top.
#
# One design, two targets that differ only in PHY, clocking and pads:
#   sim    Verilator: SDRAMPHYModel with the settings of the board's PHY, the clock and reset as
#          inputs, the UART as a byte stream, the exit register as two outputs the harness watches
#   ulx3s  the ECP5-85 of the synthesis report (LFE5UM-85F-8BG381) on the ULX3S's pads: 25 MHz
#          oscillator through the ECP5 PLL, GENSDRPHY to the board's 16-bit SDR SDRAM, a UART pin pair
#
#   soc/soc.py --target sim   --out build/soc/gen      (Verilog, headers, sources.f, soc_mem.h)
#   soc/soc.py --target ulx3s --out build/soc-synth/gen --rom-init boot.bin  (Verilog + Yosys script)
import argparse
import json
import os
import re
import sys
import tomllib

from migen import *

from litex.gen import LiteXModule
from litex.build.generic_platform import Pins, Subsignal, IOStandard, Misc
from litex.build.io import CRG as SimCRG, DDROutput
from litex.soc.cores.clock import ECP5PLL
from litex.soc.integration.soc import SoCRegion
from litex.soc.integration.soc_core import SoCCore
from litex.soc.integration.builder import Builder
from litex.soc.interconnect import axi, wishbone
from litex.soc.interconnect.csr import CSRStorage, CSRStatus, AutoCSR

from litedram.modules import MT48LC16M16
from litedram.common import PhySettings, get_default_cl
from litedram.phy.model import SDRAMPHYModel, BankModel

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from s24_stream import EltAdd, JobSeq, QuantIn, RingReader, S24Streams  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The design's constants (docs/soc.md); the one place each is stated --------------------------------
SYS_CLK_FREQ = int(50e6)      # nominal system clock: SDRAM timings in cycles and the PLL target
CPU_VARIANT = "standard"      # VexRiscv.v: RV32IM (MulPlugin: 4 MULT18X18D, DivPlugin), I$ 4 KiB, D$ 4 KiB
ROM_SIZE = 0x1000             # boot stub: SDRAM init, then a jump to main RAM
SDRAM_SIZE = 32 * 1024 * 1024  # MT48LC16M16A2 (ULX3S): 4 banks x 8192 rows x 512 columns x 16 bits
L2_SIZE = 32768               # LiteX's L2 (write-back) between the bus and the SDRAM controller:
                              # 32 KiB holds the firmware's per-tile code and its data, which its 4 KiB I$
                              # does not (kws 2:4 on the IP: 11.90 M cycles with 8 KiB, 10.12 M with 32,
                              # 9.90 M with 64; docs/soc.md)
S24_REGS = 0x82000000         # s24_top's AXI4-Lite registers (256 bytes used), uncached I/O region
S24_RING_W = 0x83000000       # the stream rings' windows (soc/s24_stream.py)
S24_RING_A = 0x83010000
S24_RING_R = 0x83020000
RING_DEPTH = {"w": 1024, "a": 1024, "r": 256}   # beats
CONV_IB_WORDS = 16384         # the fetch unit's input buffer (64 KiB, 32 DP16KD): the largest
                              # convolution input of the MLPerf Tiny models is 36,864 bytes (vww)


def s24_geometry():
    """The default build of s24_top (regs/s24_regs.toml [defaults]) and its stream widths."""
    with open(os.path.join(REPO, "regs", "s24_regs.toml"), "rb") as f:
        d = tomllib.load(f)["defaults"]
    r, c, n, m = d["NumRows"], d["NumCols"], d["SparseN"], d["SparseM"]
    idx = 0 if n == m else (m - 1).bit_length()
    return {"rows": r, "cols": c, "n": n, "m": m,
            "w_bits": r * n * (8 + idx), "a_bits": c * m * 8, "r_bits": c * 32}


def rtl_files():
    with open(os.path.join(REPO, "rtl", "s24.f")) as f:
        return [os.path.join(REPO, line.strip()) for line in f
                if line.strip() and not line.startswith(("#", "//"))]


# Platforms --------------------------------------------------------------------------------------
_io_sim = [
    ("sys_clk", 0, Pins(1)),
    ("sys_rst", 0, Pins(1)),
    ("serial", 0,
        Subsignal("source_valid", Pins(1)), Subsignal("source_ready", Pins(1)),
        Subsignal("source_data", Pins(8)),
        Subsignal("sink_valid", Pins(1)), Subsignal("sink_ready", Pins(1)),
        Subsignal("sink_data", Pins(8))),
    ("sim_exit", 0, Subsignal("valid", Pins(1)), Subsignal("code", Pins(32))),
]

# The ULX3S's pads (the board LiteX pairs with an ECP5-85F and a 16-bit SDR SDRAM)
_io_ulx3s = [
    ("clk25", 0, Pins("G2"), IOStandard("LVCMOS33")),
    ("rst", 0, Pins("R1"), IOStandard("LVCMOS33")),
    ("serial", 0,
        Subsignal("tx", Pins("L4"), IOStandard("LVCMOS33")),
        Subsignal("rx", Pins("M1"), IOStandard("LVCMOS33"))),
    ("sdram_clock", 0, Pins("F19"), IOStandard("LVCMOS33")),
    ("sdram", 0,
        Subsignal("a", Pins("M20 M19 L20 L19 K20 K19 K18 J20 J19 H20 N19 G20 G19")),
        Subsignal("dq", Pins("J16 L18 M18 N18 P18 T18 T17 U20 E19 D20 D19 C20 E18 F18 J18 J17")),
        Subsignal("we_n", Pins("T20")), Subsignal("ras_n", Pins("R20")),
        Subsignal("cas_n", Pins("T19")), Subsignal("cs_n", Pins("P20")),
        Subsignal("cke", Pins("F20")), Subsignal("ba", Pins("P19 N20")),
        Subsignal("dm", Pins("U19 E20")),
        IOStandard("LVCMOS33"), Misc("SLEWRATE=FAST")),
    ("wifi_gpio0", 0, Pins("F1"), IOStandard("LVCMOS33")),
]


def make_platform(target):
    if target == "sim":
        from litex.build.sim import SimPlatform
        return SimPlatform("SIM", list(_io_sim))
    from litex.build.lattice import LatticePlatform
    p = LatticePlatform("LFE5UM-85F-8BG381C", list(_io_ulx3s), toolchain="trellis")
    p.default_clk_name, p.default_clk_period = "clk25", 1e9 / 25e6
    return p


class UlxCRG(LiteXModule):
    """25 MHz -> ECP5 PLL -> sys, and sys shifted 90 degrees for the SDRAM's clock pin."""
    def __init__(self, platform, sys_clk_freq):
        self.rst = Signal()
        self.cd_sys = ClockDomain()
        self.cd_sys_ps = ClockDomain()
        clk25 = platform.request("clk25")
        rst = platform.request("rst")
        self.pll = pll = ECP5PLL()
        self.comb += pll.reset.eq(rst | self.rst)
        pll.register_clkin(clk25, 25e6)
        pll.create_clkout(self.cd_sys, sys_clk_freq)
        pll.create_clkout(self.cd_sys_ps, sys_clk_freq, phase=90)
        self.specials += DDROutput(1, 0, platform.request("sdram_clock"), ClockSignal("sys_ps"))
        self.comb += platform.request("wifi_gpio0").eq(1)   # keeps the board's ESP32 from resetting the FPGA
        platform.add_period_constraint(clk25, 1e9 / 25e6)


class HostCtrl(LiteXModule):
    """The firmware's exit: writing `exit` ends the run with that code. In the simulation the
    harness watches it (two outputs); on a board it is a plain register."""
    def __init__(self, pads=None):
        self.exit = CSRStorage(32, description="Write: the firmware has ended with this exit code.")
        if pads is not None:
            self.comb += [pads.valid.eq(self.exit.re), pads.code.eq(self.exit.storage)]


def gensdrphy_settings(sys_clk_freq, databits=16):
    """GENSDRPHY's settings (litedram/phy/gensdrphy.py) for the simulation model, so the
    controller and the read latency are the board's."""
    cl = get_default_cl(memtype="SDR", tck=1 / sys_clk_freq)
    return PhySettings(phytype="GENSDRPHY", memtype="SDR", databits=databits,
                       dfi_databits=databits, nranks=1, nphases=1, rdphase=0, wrphase=0,
                       cl=cl, read_latency=cl + 1, write_latency=0)


class S24Block(LiteXModule):
    """s24_top (the default build, every file of rtl/s24.f) with its registers behind a 32-bit
    Wishbone -> AXI4-Lite bridge and its three streams on the rings of soc/s24_stream.py."""
    def __init__(self, platform, geom, w_port=None, a_port=None, conv_port=None, r_port=None,
                 add_ports=None, quant_ports=None):
        self.reg_bus = wb = wishbone.Interface(data_width=32, address_width=32, addressing="word")
        axil = axi.AXILiteInterface(data_width=32, address_width=32)
        self.bridge = axi.Wishbone2AXILite(wb, axil, base_address=S24_REGS)
        self.streams = st = S24Streams(geom["w_bits"], geom["a_bits"], geom["r_bits"],
                                       RING_DEPTH["w"], RING_DEPTH["a"], RING_DEPTH["r"],
                                       w_port, a_port, conv_port, r_port, geom["cols"],
                                       CONV_IB_WORDS)
        if add_ports is not None:   # the elementwise ADD / SUB unit (its own read and write port)
            self.eltadd = EltAdd(*add_ports)
        if quant_ports is not None:  # the float input's QUANTIZE (its own read and write port)
            self.quant = QuantIn(*quant_ports)
        self.irq = Signal()
        self.specials += Instance("s24_top",
            i_clk_i=ClockSignal("sys"), i_rst_ni=~ResetSignal("sys"),
            i_s_axil_awaddr_i=axil.aw.addr[:8], i_s_axil_awvalid_i=axil.aw.valid,
            o_s_axil_awready_o=axil.aw.ready,
            i_s_axil_wdata_i=axil.w.data, i_s_axil_wstrb_i=axil.w.strb,
            i_s_axil_wvalid_i=axil.w.valid, o_s_axil_wready_o=axil.w.ready,
            o_s_axil_bresp_o=axil.b.resp, o_s_axil_bvalid_o=axil.b.valid,
            i_s_axil_bready_i=axil.b.ready,
            i_s_axil_araddr_i=axil.ar.addr[:8], i_s_axil_arvalid_i=axil.ar.valid,
            o_s_axil_arready_o=axil.ar.ready,
            o_s_axil_rdata_o=axil.r.data, o_s_axil_rresp_o=axil.r.resp,
            o_s_axil_rvalid_o=axil.r.valid, i_s_axil_rready_i=axil.r.ready,
            i_s_axis_w_tdata_i=st.w.data, i_s_axis_w_tvalid_i=st.w.valid,
            o_s_axis_w_tready_o=st.w.ready, i_s_axis_w_tlast_i=st.w.last,
            i_s_axis_a_tdata_i=st.a.data, i_s_axis_a_tvalid_i=st.a.valid,
            o_s_axis_a_tready_o=st.a.ready, i_s_axis_a_tlast_i=st.a.last,
            o_m_axis_r_tdata_o=st.r.data, o_m_axis_r_tvalid_o=st.r.valid,
            i_m_axis_r_tready_i=st.r.ready, o_m_axis_r_tlast_o=st.r.last,
            o_irq_o=self.irq)
        for f in rtl_files():
            platform.add_source(f)
        platform.add_verilog_include_path(os.path.join(REPO, "rtl"))


class S24SoC(SoCCore):
    def __init__(self, target, sys_clk_freq=SYS_CLK_FREQ, rom_init=None):
        platform = make_platform(target)
        sim = target == "sim"
        SoCCore.__init__(self, platform, sys_clk_freq,
            ident="sparse24 edge SoC", ident_version=False,
            cpu_type="vexriscv", cpu_variant=CPU_VARIANT,
            integrated_rom_size=ROM_SIZE, integrated_rom_init=rom_init or [],
            integrated_sram_size=0,
            uart_name="sim" if sim else "serial",
            timer_uptime=True)

        # Clocking
        if sim:
            self.crg = SimCRG(platform.request("sys_clk"), platform.request("sys_rst"))
        else:
            self.crg = UlxCRG(platform, sys_clk_freq)

        # Main memory: 32 MiB of 16-bit SDR SDRAM through LiteDRAM (the same controller, crossbar
        # and L2 in both targets; only the PHY differs)
        module = MT48LC16M16(sys_clk_freq, "1:1")
        if sim:
            self.sdrphy = SDRAMPHYModel(module=module, settings=gensdrphy_settings(sys_clk_freq),
                                        clk_freq=sys_clk_freq)
            banks = [m for _, m in self.sdrphy._submodules if isinstance(m, BankModel)]
            for i, bank in enumerate(banks):     # names the harness loads and dumps (soc_mem.h)
                mems = [s for s in bank._fragment.specials if isinstance(s, Memory)]
                mems[0].name_override = f"s24soc_sdram_bank{i}"
        else:
            from litedram.phy import GENSDRPHY
            self.sdrphy = GENSDRPHY(platform.request("sdram"), sys_clk_freq)
        self.add_sdram("sdram", phy=self.sdrphy, module=module, size=SDRAM_SIZE,
                       l2_cache_size=L2_SIZE)

        # The IP, its registers and its stream rings
        geom = s24_geometry()
        # the rings' fill DMAs and the A ring's convolution fetch read the SDRAM through LiteDRAM
        # ports of their own (32-bit); the R ring's drain writes results through another; the
        # ADD unit and the QUANTIZE unit read and write through a pair of their own each
        self.s24 = S24Block(platform, geom,
                            self.sdram.crossbar.get_port(mode="read", data_width=32),
                            self.sdram.crossbar.get_port(mode="read", data_width=32),
                            self.sdram.crossbar.get_port(mode="read", data_width=32),
                            self.sdram.crossbar.get_port(mode="write", data_width=32),
                            (self.sdram.crossbar.get_port(mode="read", data_width=32),
                             self.sdram.crossbar.get_port(mode="write", data_width=32)),
                            (self.sdram.crossbar.get_port(mode="read", data_width=32),
                             self.sdram.crossbar.get_port(mode="write", data_width=32)))
        self.bus.add_slave("s24", self.s24.reg_bus,
                           SoCRegion(origin=S24_REGS, size=0x1000, cached=False))
        origins = {"w": S24_RING_W, "a": S24_RING_A, "r": S24_RING_R}
        for k, (bus, size, depth, lane_bits) in self.s24.streams.windows.items():
            self.bus.add_slave(f"s24_ring_{k}", bus,
                               SoCRegion(origin=origins[k], size=size, cached=False))
            self.add_constant(f"S24_RING_{k.upper()}_DEPTH", depth)
            self.add_constant(f"S24_RING_{k.upper()}_LANE_BITS", lane_bits)
        self.add_constant("S24_REGS_BASE", S24_REGS)
        self.add_constant("S24_SDRAM_SIZE", SDRAM_SIZE)
        self.add_constant("S24_L2_SIZE", L2_SIZE)
        self.add_constant("S24_CONV_IB_WORDS", CONV_IB_WORDS)
        self.add_constant("S24_SEQ_DL_HALF", JobSeq.DL_HALF)  # the job sequencer's list half
        self.add_constant("S24_RING_DESC_REP_SHIFT", RingReader.REP_SHIFT)  # a descriptor's repeat
        self.add_constant("S24_RING_DESC_REP_BITS", RingReader.REP_BITS)

        # The exit register
        self.host = HostCtrl(platform.request("sim_exit") if sim else None)
        if sim:
            self.rom.mem.name_override = "s24soc_rom"


def absolute_inits(vfile):
    """Memory init files by absolute path in LiteX's Verilog: the harness and Yosys run anywhere."""
    with open(vfile) as f:
        text = f.read()
    gw = os.path.dirname(os.path.abspath(vfile))
    text = re.sub(r'\$readmemh\("([^"/]+)"', lambda m: '$readmemh("' + os.path.join(gw, m.group(1)) + '"', text)
    with open(vfile, "w") as f:
        f.write(text)


def write_sim_files(soc, out):
    """What the Verilator harness needs beside sim.v: the source list and soc_mem.h."""
    simv = os.path.join(out, "gateware", "sim.v")
    srcs = [os.path.abspath(simv)]
    srcs += [os.path.abspath(f) for f, lang, lib, *_ in soc.platform.sources
             if f.endswith(".v") and os.path.basename(f) != "sim.v"]
    # our RTL last: its `default_nettype none is then set after LiteX's and VexRiscv's Verilog
    srcs.sort(key=lambda f: f.startswith(os.path.join(REPO, "rtl")))
    with open(os.path.join(out, "sources.f"), "w") as f:
        f.write("\n".join(srcs) + "\n")
    regions = {n: (r.origin, r.size) for n, r in soc.bus.regions.items()}
    geom = soc.sdram.controller.settings.geom
    mem = {
        "rom": {"origin": regions["rom"][0], "size": ROM_SIZE, "name": "s24soc_rom", "width": 32},
        "sdram": {"origin": regions["main_ram"][0], "size": SDRAM_SIZE, "banks": 4,
                  "bankbits": geom.bankbits, "rowbits": geom.rowbits, "colbits": geom.colbits,
                  "name": "s24soc_sdram_bank", "width": 16},
        "sys_clk_freq": soc.sys_clk_freq,
    }
    with open(os.path.join(out, "soc_mem.json"), "w") as f:
        json.dump(mem, f, indent=1)
    s = mem["sdram"]
    with open(os.path.join(out, "soc_mem.h"), "w") as f:
        f.write(f"""// Generated by soc/soc.py: the simulated SoC's memories as the harness loads and dumps them.
#define SOC_ROM_BASE 0x{mem['rom']['origin']:08x}u
#define SOC_ROM_SIZE 0x{mem['rom']['size']:x}u
#define SOC_ROM_MEM s24soc_rom
#define SOC_SDRAM_BASE 0x{s['origin']:08x}u
#define SOC_SDRAM_SIZE 0x{s['size']:x}u
#define SOC_SDRAM_BANKBITS {s['bankbits']}
#define SOC_SDRAM_COLBITS {s['colbits']}
#define SOC_SDRAM_ROWBITS {s['rowbits']}
#define SOC_SDRAM_BANK(i) s24soc_sdram_bank##i
#define SOC_SYS_CLK_FREQ {soc.sys_clk_freq}u
""")


def write_boot_seq(soc, out):
    """boot_seq.h for soc/firmware/boot.S: LiteDRAM's SDRAM initialisation sequence
    (litedram.init) as a table, with the DFII CSR addresses, from the SoC object itself."""
    from litedram.init import get_sdram_phy_init_sequence
    seq, _ = get_sdram_phy_init_sequence(soc.sdrphy.settings, soc.sdram.controller.settings.timing)
    bits = {"DFII_CONTROL_SEL": 1, "DFII_CONTROL_CKE": 2, "DFII_CONTROL_ODT": 4,
            "DFII_CONTROL_RESET_N": 8, "DFII_COMMAND_CS": 1, "DFII_COMMAND_WE": 2,
            "DFII_COMMAND_CAS": 4, "DFII_COMMAND_RAS": 8}
    csrs = soc.csr.locs["sdram"]
    base = soc.mem_map["csr"]
    page = soc.csr.paging

    def addr(name):
        # the CSR's address as csr.h gives it: the bank's page, then 4 bytes per 32-bit word
        regs = soc.sdram.get_csrs()
        off = 0
        for c in regs:
            if c.name == name:
                return base + csrs * page + off
            off += 4 * ((c.size + 31) // 32)
        raise KeyError(name)
    lines = ["// Generated by soc/soc.py from litedram.init: the SDRAM's initialisation sequence.",
             f"#define DFII_CONTROL_ADDR 0x{addr('dfii_control'):08x}",
             f"#define DFII_COMMAND_ADDR 0x{addr('dfii_pi0_command'):08x}",
             f"#define DFII_COMMAND_ISSUE_ADDR 0x{addr('dfii_pi0_command_issue'):08x}",
             f"#define DFII_ADDRESS_ADDR 0x{addr('dfii_pi0_address'):08x}",
             f"#define DFII_BADDRESS_ADDR 0x{addr('dfii_pi0_baddress'):08x}",
             "#define DFII_CONTROL_HW 0x0f   // SEL (hardware control) | CKE | ODT | RESET_N",
             "#define DFII_CONTROL_SW 0x0e   // software control, CKE | ODT | RESET_N",
             f"#define MAIN_RAM_BOOT 0x{soc.bus.regions['main_ram'].origin:08x}",
             "// one entry per step: address, bank address, 0 = control write / 1 = command, value, delay loops",
             "#define BOOT_SEQ \\"]
    for comment, a, ba, cmd, delay in seq:
        value = sum(bits[t] for t in cmd.split("|"))
        kind = 0 if cmd.startswith("DFII_CONTROL") else 1
        lines.append(f"  .word 0x{a:x}, {ba}, {kind}, 0x{value:x}, {delay};  /* {comment} */ \\")
    lines.append("  .word 0xffffffff")
    with open(os.path.join(out, "boot_seq.h"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--target", choices=["sim", "ulx3s"], required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--rom-init", help="binary of the boot stub for the ROM (ulx3s)")
    ap.add_argument("--sys-clk-freq", type=float, default=SYS_CLK_FREQ)
    args = ap.parse_args()
    rom = []
    if args.rom_init:
        data = open(args.rom_init, "rb").read()
        data += b"\0" * (-len(data) % 4)
        rom = [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]
    soc = S24SoC(args.target, int(args.sys_clk_freq), rom)
    out = os.path.abspath(args.out)
    builder = Builder(soc, output_dir=out, compile_software=False, compile_gateware=False)
    name = "sim" if args.target == "sim" else "s24soc"
    builder.build(run=False, build_name=name)
    absolute_inits(os.path.join(out, "gateware", name + ".v"))
    write_boot_seq(soc, out)
    # the one LiteX software header the generated csr.h needs (hw/common.h: CSR accessors), so the
    # firmware's include path is this folder alone
    import shutil
    import litex
    hw = os.path.join(out, "software", "include", "hw")
    os.makedirs(hw, exist_ok=True)
    shutil.copy(os.path.join(os.path.dirname(litex.__file__), "soc", "software", "include", "hw",
                             "common.h"), hw)
    if args.target == "sim":
        write_sim_files(soc, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
