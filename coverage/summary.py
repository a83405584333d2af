#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""summary.py RTL.dat C.info: build/coverage/summary.txt from a merged Verilator coverage file and
an lcov trace of the C sources.

RTL points are merged over instances and configurations: a point (file, line, column, kind,
comment) counts as covered when any instance in any run hit it. "line" = Verilator's line and
branch points (v_line, v_branch), "toggle" = v_toggle (each bit's 0->1 and 1->0)."""
import collections
import os
import sys


def rtl_points(path):
    pts = {}
    with open(path, encoding="latin-1") as f:
        for raw in f:
            if not raw.startswith("C '"):
                continue
            body, count = raw.rstrip("\n").rsplit("' ", 1)
            kv = {}
            for item in body[3:].split("\x01"):
                if "\x02" in item:
                    k, v = item.split("\x02", 1)
                    kv[k] = v
            page = kv.get("page", "")
            kind, _, module = page.partition("/")
            module = module.split("__")[0]  # s24_pe__S4_SB4_I1 (a parameter set) -> s24_pe
            key = (kv.get("f"), kv.get("l"), kv.get("n"), kind, kv.get("o"), module)
            pts[key] = pts.get(key, 0) + int(count)
    return pts


def pct(hit, total):
    return 100.0 * hit / total if total else 100.0


def main():
    pts = rtl_points(sys.argv[1])
    by = collections.defaultdict(lambda: [0, 0])  # (module, kindgroup) -> [hit, total]
    for (f, line, col, kind, comment, module), count in pts.items():
        group = "toggle" if kind == "v_toggle" else "line" if kind in ("v_line", "v_branch") else None
        if group is None:
            continue
        for m in (module, "*"):
            by[(m, group)][1] += 1
            by[(m, group)][0] += 1 if count > 0 else 0
    h, t = by[("*", "line")]
    print(f"rtl line coverage: {pct(h, t):.1f} % ({h}/{t} line and branch points, all modules, merged runs)")
    h, t = by[("*", "toggle")]
    print(f"rtl toggle coverage: {pct(h, t):.1f} % ({h}/{t} toggle points)")
    for m in sorted({m for (m, _) in by if m != "*"}):
        lh, lt = by[(m, "line")]
        th, tt = by[(m, "toggle")]
        print(f"  {m:16s} line {pct(lh, lt):5.1f} % ({lh}/{lt})   toggle {pct(th, tt):5.1f} % ({th}/{tt})")
    # C (lcov trace)
    files = []
    cur = None
    with open(sys.argv[2]) as f:
        for raw in f:
            raw = raw.strip()
            if raw.startswith("SF:"):
                cur = [raw[3:], 0, 0]
            elif raw.startswith("LF:"):
                cur[2] = int(raw[3:])
            elif raw.startswith("LH:"):
                cur[1] = int(raw[3:])
            elif raw == "end_of_record" and cur:
                files.append(cur)
    lh = sum(x[1] for x in files)
    lf = sum(x[2] for x in files)
    print(f"c line coverage: {pct(lh, lf):.1f} % ({lh}/{lf} lines; model, .npy, driver, software device: unit, property, software-device end-to-end and fused-layer tests, fuzz seeds)")
    for name, hit, total in sorted(files):
        short = os.path.relpath(name) if os.path.isabs(name) else name  # relative to the tree (make's cwd)
        print(f"  {short:24s} {pct(hit, total):5.1f} % ({hit}/{total})")


if __name__ == "__main__":
    main()
