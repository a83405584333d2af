#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fold soc_sim --profile's `PC cycles` lines into functions of the firmware's ELF (its symbol
table, riscv64-unknown-elf-nm) and print the top ones: cycles, share, function.

  soc/profile.py PROFILE FW.elf [--top N] [--base PROFILE0 --per N]

--base: PROFILE less PROFILE0 (a run of the same job with fewer inferences, which had the same load
and start-up), divided by --per (the inferences more): one inference's profile alone.
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
    ap.add_argument("--base", help="a profile to subtract (the same job, fewer inferences)")
    ap.add_argument("--per", type=int, default=1, help="divide by this (the inferences more than --base)")
    args = ap.parse_args()
    if args.per < 1:
        sys.exit("soc/profile.py: --per must be at least 1")
    nm = subprocess.run(["riscv64-unknown-elf-nm", "-S", "--defined-only", args.elf],
                        capture_output=True, text=True, check=True).stdout
    syms = []
    for ln in nm.splitlines():
        f = ln.split()
        if len(f) == 4 and f[2] in "tTwW":
            syms.append((int(f[0], 16), int(f[1], 16), f[3]))
    syms.sort()
    starts = [s[0] for s in syms]
    def fold(path):
        by = {}
        for ln in open(path):
            pc, n = ln.split()
            pc, n = int(pc, 16), int(n)
            i = bisect.bisect_right(starts, pc) - 1
            name = syms[i][2] if i >= 0 and pc < syms[i][0] + max(syms[i][1], 4) else f"?{pc:08x}"
            by[name] = by.get(name, 0) + n
        return by
    by = fold(args.profile)
    if args.base:
        base = fold(args.base)
        by = {k: (by.get(k, 0) - base.get(k, 0)) // args.per for k in set(by) | set(base)}
    total = sum(by.values())
    print(f"total_cycles: {total}" + (f" (per inference: ({args.profile} - {args.base}) / {args.per})"
                                        if args.base else ""))
    for name, n in sorted(by.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"{n:12d} {100.0 * n / total:5.1f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
