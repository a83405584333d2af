#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fold soc_sim --profile's `PC cycles` lines into functions of the firmware's ELF (its symbol
table, riscv64-unknown-elf-nm) and print the top ones: cycles, share, function.

  soc/profile.py PROFILE FW.elf [--top N]
"""
import argparse
import bisect
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("profile")
    ap.add_argument("elf")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    nm = subprocess.run(["riscv64-unknown-elf-nm", "-S", "--defined-only", args.elf],
                        capture_output=True, text=True, check=True).stdout
    syms = []
    for ln in nm.splitlines():
        f = ln.split()
        if len(f) == 4 and f[2] in "tTwW":
            syms.append((int(f[0], 16), int(f[1], 16), f[3]))
    syms.sort()
    starts = [s[0] for s in syms]
    total, by = 0, {}
    for ln in open(args.profile):
        pc, n = ln.split()
        pc, n = int(pc, 16), int(n)
        total += n
        i = bisect.bisect_right(starts, pc) - 1
        name = syms[i][2] if i >= 0 and pc < syms[i][0] + max(syms[i][1], 4) else f"?{pc:08x}"
        by[name] = by.get(name, 0) + n
    print(f"total_cycles: {total}")
    for name, n in sorted(by.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"{n:12d} {100.0 * n / total:5.1f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
