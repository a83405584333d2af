#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The edge SoC's place-and-route record (make soc-synth: synth/records/soc/ecp5_ulx3s.json) as the
Markdown table of docs/soc.md: each clock's Fmax per seed and median, the cells against the device.

  soc/report.py [RECORD]
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEVICE = {"LUT4": 83640, "TRELLIS_FF": 83640, "MULT18X18D": 156, "DP16KD": 208}


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "synth", "records", "soc", "ecp5_ulx3s.json")
    rec = json.load(open(path))
    r = rec["result"]
    print(f"Record `{os.path.relpath(path, REPO)}`: {rec['label']}, commit {rec['commit']}, "
          f"{rec['recorded_utc']} UTC; {rec['versions'].get('yosys')}; {rec['versions'].get('nextpnr')}.\n")
    seeds = sorted(r["seeds"], key=int)
    print("| clock | " + " | ".join(f"seed {s}" for s in seeds) + " | median |")
    print("|---|" + "---|" * (len(seeds) + 1))
    for clk, med in sorted(r["fmax_median_mhz"].items()):
        cells = [f"{r['seeds'][s].get(clk, 0):.1f}" for s in seeds]
        print(f"| `{clk}` | " + " | ".join(cells) + f" | **{med:.1f} MHz** |")
    for s, why in sorted(r.get("failed", {}).items()):
        print(f"\nseed {s} did not route: {why}")
    print("\n| cell | used | of | share |")
    print("|---|---|---|---|")
    for c, total in DEVICE.items():
        n = r["cells"].get(c, 0)
        print(f"| {c} | {n:,} | {total:,} | {100.0 * n / total:.1f} % |")
    secs = r.get("seed_seconds", {})
    if secs:
        print("\nPlace and route: " + ", ".join(f"seed {s} {float(v) / 60:.0f} min" for s, v in sorted(secs.items(), key=lambda kv: int(kv[0])))
              + f"; Yosys {float(r.get('yosys_seconds') or 0) / 60:.0f} min (nice 10, a shared 2-core machine).")
    if r.get("critical"):
        c = r["critical"]
        print(f"\nCritical path of seed {r['critical_seed']}: {c['start']} -> {c['end']}, {c['delay_ns']} ns "
              f"({c['logic_ns']} logic, {c['routing_ns']} routing).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
