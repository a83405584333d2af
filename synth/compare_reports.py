#!/usr/bin/env python3
"""The ECP5 core rows of two synthesis reports side by side (LUT4, LUTs, Fmax with its seeds):
the before/after table of docs/results.md ("Flops with an active-low reset").

  synth/compare_reports.py BEFORE/report.md AFTER/report.md
"""
import sys


def ecp5_rows(path):
    """{config: {column: value}} of the report's ECP5 table (the one with a PFUMX+L6MUX column)."""
    out, cols = {}, None
    with open(path) as f:
        for line in f:
            if line.startswith("| config |") and "| PFUMX+L6MUX |" in line:
                cols = [c.strip() for c in line.strip().strip("|").split("|")]
            elif cols and line.startswith("|---"):
                continue
            elif cols and line.startswith("| "):
                vals = [c.strip() for c in line.strip().strip("|").split("|")]
                out[vals[0]] = dict(zip(cols, vals))
            elif cols:
                break
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: synth/compare_reports.py BEFORE/report.md AFTER/report.md")
    a, b = ecp5_rows(sys.argv[1]), ecp5_rows(sys.argv[2])
    fmax = lambda r: r["Fmax MHz"] + (f" ({r['Fmax per seed']})" if r.get("Fmax per seed", "n/a") != "n/a" else "")
    print("| config (ECP5-85, core) | LUT4 before | LUT4 now | LUTs before | LUTs now | Fmax before (seeds) | Fmax now (seeds) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for k in b:   # the rows of the later report, in its order, that the earlier one also has
        if k in a:
            print(f"| {k} | {a[k]['LUT4']} | {b[k]['LUT4']} | {a[k]['LUTs']} | {b[k]['LUTs']} | {fmax(a[k])} | {fmax(b[k])} |")


if __name__ == "__main__":
    main()
