#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""make soc-networks' report (issue 51): build/soc/results.csv and results_detail.csv as a Markdown
table (OUT_DIR/results.md, pasted into docs/results.md), results_ops.csv as a second table (the
cycles by operator type and where it ran, the float edges QUANTIZE/DEQUANTIZE on their own), and
a stacked bar plot of where each inference's cycles go (OUT_DIR/soc_networks.png, gnuplot).

  soc/tests/report.py RESULTS.csv OUT_DIR
"""
import csv
import os
import shutil
import subprocess
import sys

ORDER = [("dense", "cpu"), ("dense", "ip"), ("2:4", "ip")]
LABEL = {("dense", "cpu"): "dense, CPU alone", ("dense", "ip"): "dense, IP",
         ("2:4", "ip"): "2:4, IP"}
# published whole-inference latencies (ms) to set beside ms_total, and what each measures
ANCHORS = {"ad": "GAP9 0.27 ms", "ic": "fpgaConvNet (Zedboard) 0.411 ms; GAP9 0.95 ms",
           "kws": "fpgaConvNet (Zedboard) 0.324 ms; GAP9 0.73 ms; CFU Playground (TFLite Micro on "
                  "VexRiscv, Arty A7 at 100 MHz) 87.0 M cycles in software, 9.8 M with its accelerator",
           "vww": "fpgaConvNet (Zedboard) 9.49 ms; GAP9 1.73 ms"}


def read(path):
    with open(path, newline="") as f:
        return {(r["model"], r["weights"], r["engine"]): r for r in csv.DictReader(f)}


FLOAT_EDGES = ("QUANTIZE", "DEQUANTIZE")   # float in, float out: soft float on RV32IM


def ops_table(path, rows, models, top=4):
    """results_ops.csv as Markdown: per model and row, the operator types taking the most cycles
    (where they ran, M cycles per inference, share), the float edges on their own column."""
    with open(path, newline="") as f:
        ops = list(csv.DictReader(f))
    out = ["| model | weights, array layers on | the largest operator types (where: M cycles, share) | "
           "float edges (QUANTIZE + DEQUANTIZE, CPU) |", "|---|---|---|---|"]
    for m in models:
        for w, e in ORDER:
            if (m, w, e) not in rows:
                continue
            mine = [o for o in ops if (o["model"], o["weights"], o["engine"]) == (m, w, e)]
            mine.sort(key=lambda o: -int(o["cycles"]))
            big = "; ".join(f"{o['op']} ({o['where']}: {int(o['cycles']) / 1e6:.2f} M, {o['share_pct']} %)"
                            for o in mine[:top])
            fe = [o for o in mine if o["op"] in FLOAT_EDGES]
            tot = int(rows[(m, w, e)]["cycles_total"])
            fe_c = sum(int(o["cycles"]) for o in fe)
            out.append(f"| {m} | {LABEL[(w, e)]} | {big} | "
                       f"{f'{fe_c:,} ({100.0 * fe_c / tot:.1f} %)' if fe else 'none'} |")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, out = sys.argv[1], sys.argv[2]
    rows = read(path)
    det_path = os.path.splitext(path)[0] + "_detail.csv"
    det = read(det_path) if os.path.exists(det_path) else {}
    models = list(dict.fromkeys(k[0] for k in rows))
    lines = ["| model | weights, array layers on | cycles per inference | vs CPU alone | "
             "array layers | other operators | CPU's share | IP busy | IP busy / array alone "
             "(the cycle model) | load cycles | arena B | ms at the placed clock | LiteRT |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    plot = []
    for m in models:
        cpu = rows.get((m, "dense", "cpu"))
        for w, e in ORDER:
            r = rows.get((m, w, e))
            if r is None:
                continue
            d = det.get((m, w, e), {})
            tot = int(r["cycles_total"])
            sp = f"{int(cpu['cycles_total']) / tot:.2f}×" if cpu is not None and e == "ip" else ""
            share = f"{100 * int(r['cycles_cpu']) / tot:.0f} %"
            ip, arr = int(r["cycles_ip"]), int(d.get("array_cycles", 0) or 0)
            ratio = f"{ip / arr:,.0f}×" if e == "ip" and arr else ""
            ms = r["ms_total"] or "(no placed SoC yet)"
            lines.append(
                f"| {m} | {LABEL[(w, e)]} | {tot:,} | {sp} | {int(d.get('array_op_cycles', 0)):,} | "
                f"{int(d.get('other_op_cycles', 0)):,} | {share} | {ip:,} | "
                f"{f'{ip:,} / {arr:,} = {ratio}' if ratio else ''} | {int(r['load_cycles']):,} | "
                f"{int(r['arena_bytes']):,} | {ms} | {r['bitexact_litert']} |")
            plot.append((f"{m} {LABEL[(w, e)]}", int(d.get("array_op_cycles", 0)),
                         int(d.get("other_op_cycles", 0)),
                         max(0, tot - int(d.get("array_op_cycles", 0)) - int(d.get("other_op_cycles", 0)))))
    anchors = [f"- {m}: {ANCHORS[m]}" for m in models if m in ANCHORS]
    os.makedirs(out, exist_ok=True)
    md = "\n".join(lines) + "\n\nPublished whole inferences to set beside `ms_total` (other systems, " \
         "not like for like):\n" + "\n".join(anchors) + "\n"
    ops_path = os.path.splitext(path)[0] + "_ops.csv"
    if os.path.exists(ops_path):
        md += "\n" + ops_table(ops_path, rows, models)
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(md)
    print(md)
    if shutil.which("gnuplot") is None:
        print("report: no gnuplot: no plot")
        return
    png = os.path.join(out, "soc_networks.png")
    by_model = {}
    for label, a_, o, rest in plot:  # one panel a model: their scales differ 40-fold
        by_model.setdefault(label.split(" ")[0], []).append((label.split(" ", 1)[1], a_, o, rest))
    panels = []
    for i, (m, bars) in enumerate(by_model.items()):
        dat = os.path.join(out, f"soc_networks_{m}.dat")
        with open(dat, "w") as f:
            for label, a_, o, rest in bars:
                f.write(f"\"{label}\" {a_ / 1e6:.3f} {o / 1e6:.3f} {rest / 1e6:.3f}\n")
        key = "set key outside bottom center horizontal" if i == 0 else "unset key"
        panels.append(f"""set title '{m}'
{key}
plot '{dat}' using 2:xtic(1) title 'FC and CONV\\_2D', \\
     '' using 3 title 'other operators', '' using 4 title 'between'""")
    script = f"""set terminal pngcairo size {max(900, 330 * len(panels))},620 font ',10'
set output '{png}'
set multiplot layout 1,{len(panels)} title 'M SoC cycles per inference (VexRiscv + s24\\_top, simulated)'
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.6
set yrange [0:*]
set xtics rotate by -30
""" + "\n".join(panels) + "\nunset multiplot\n"
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    print(f"report: {png}")


if __name__ == "__main__":
    main()
