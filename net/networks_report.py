# SPDX-License-Identifier: Apache-2.0
"""The table and the plot of `make networks` (build/networks/results.csv, net/networks.py).

  networks_report.py RESULTS.csv OUT_DIR [--fmax MHZ]

Writes OUT_DIR/results.md (a Markdown table: per model of the file, in its order, and weights the array's cycles per
inference, the IP time at the ECP5 Fmax, 2:4 over dense, and the published MLPerf Tiny
latencies to compare with) and OUT_DIR/networks.png (gnuplot: IP time per model, dense and 2:4,
beside the published points, log scale). The IP time is the array's busy cycles (CNT_CYCLES)
divided by the clock: the host operators (QUANTIZE, DEPTHWISE_CONV_2D, ADD, pooling, SOFTMAX,
...) and the host's packing and im2col are not timed.
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys

# MLPerf Tiny results (latency = 1000 / median throughput, ms), as issue 26 lists them
PUBLISHED = [
    ("fpgaConvNet Zedboard XC7Z020 (v1.1 closed)", {"ic": 0.411, "kws": 0.324, "vww": 9.49}),
    ("fpgaConvNet ZC706 XC7Z045 (v1.1 closed)", {"ic": 0.147, "vww": 0.720}),
    ("hls4ml Pynq-Z2 RN08 (open)", {"ic": 7.64}),
    ("STM32H7A3 M7 280 MHz (v1.2 closed)", {"ad": 1.23, "ic": 40.8, "kws": 11.3, "vww": 23.8}),
    ("Renesas RA8D1 M85 480 MHz (v1.2 closed)", {"ad": 0.53, "ic": 8.48, "kws": 3.47, "vww": 13.4}),
    ("GAP9 (v1.0)", {"ad": 0.27, "ic": 0.95, "kws": 0.73, "vww": 1.73}),
]
NAMES = {"ad": "Anomaly Detection (FC autoencoder)", "ic": "Image Classification (ResNet-8)",
         "kws": "Keyword Spotting (DS-CNN)", "vww": "Visual Wake Words (MobileNetV1 0.25)"}


def record_fmax():
    """The default 8x8 2:4 array's median Fmax on the ECP5-85 from its `make synth` run record, and
    where it comes from; whether the record's sources are still this tree's (the synthesis flow's
    digest), said, not hidden. Exits with one line when there is no record to read."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "synth"))
    sys.dont_write_bytecode = True
    from s24flow.common import REPO, FlowError
    from s24flow.nextpnr import seeds_text
    from s24flow.records import FOLDER, current, read_record, record_path
    from s24flow.runner import Job
    job = Job("ecp5", 8, 8, 2, 4, pnr=True)
    try:
        rec = read_record(FOLDER, job)
    except FlowError as e:
        sys.exit(f"networks_report: error: no Fmax: {e} (run `make synth SYNTH_ONLY={job.name}`, "
                 "or pass --fmax MHZ)")
    res = rec["result"]
    return round(float(res["pnr"]["fmax_mhz"]), 1), (
        f"the median of placer seeds {seeds_text(res['pnr'])} in {os.path.relpath(record_path(FOLDER, job), REPO)} "
        f"(run ended {rec['recorded_utc']}, recorded at commit {rec['commit']}; " +
        ("its sources are this tree's)" if current(res) else "**its sources are not this tree's: rerun it**)"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("out_dir")
    ap.add_argument("--fmax", type=float, default=None,
                    help="MHz (default: the ECP5-85 (-8) median Fmax of the default 8x8 2:4 array, from "
                         "its run record synth/records/ecp5_8x8_2of4.json, the number of the synthesis report)")
    a = ap.parse_args()
    if a.fmax is None:
        a.fmax, a.fmax_from = record_fmax()
    else:
        a.fmax_from = "given on the command line (--fmax)"
    print(f"networks_report: the clock: {a.fmax:g} MHz, {a.fmax_from}")
    rows = list(csv.DictReader(open(a.csv)))
    os.makedirs(a.out_dir, exist_ok=True)
    by = {(r["model"], r["weights"]): r for r in rows}
    models = [m for m in dict.fromkeys(r["model"] for r in rows) if (m, "dense") in by]
    mlperf = [m for m in models if m in NAMES]  # the ones with published latencies
    lines = [
        f"| model | weights | array MACs | host MACs | cycles | = predicted | utilization | "
        f"IP time at {a.fmax:g} MHz | 2:4 vs dense | bit-exact with LiteRT |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    dat = []
    for m in models:
        dense_c = int(by[(m, "dense")]["cycles"] or by[(m, "dense")]["predicted_cycles"])
        for w in ["dense", "2:4"]:
            r = by.get((m, w))
            if r is None:
                continue
            cyc = int(r["cycles"] or r["predicted_cycles"])
            us = cyc / a.fmax
            sp = f"{dense_c / cyc:.2f}x" if w == "2:4" else ""
            eq = "yes" if r["cycles"] and r["cycles"] == r["predicted_cycles"] else (
                "not measured" if not r["cycles"] else "NO")
            lines.append(f"| {m} | {w} | {int(r['ip_macs']):,} | {int(r['host_macs']):,} | "
                         f"{cyc:,} | {eq} | {float(r['utilization']):.3f} | {us:.1f} us | {sp} | "
                         f"{r['bitexact_litert']} |")
        dat.append((m, dense_c / a.fmax / 1000.0,
                    int(by[(m, "2:4")]["cycles"] or by[(m, "2:4")]["predicted_cycles"]) / a.fmax
                    / 1000.0 if (m, "2:4") in by else None))
    if mlperf:
        lines += ["", "Published MLPerf Tiny latencies (ms, whole inference):", "",
                  "| system | " + " | ".join(mlperf) + " |", "|---|" + "---|" * len(mlperf)]
        for name, pts in PUBLISHED:
            lines.append(f"| {name} | " + " | ".join(f"{pts[m]:g}" if m in pts else "-"
                                                     for m in mlperf) + " |")
    lines += ["", f"The clock, {a.fmax:g} MHz: {a.fmax_from}.",
              "", f"sparse24 IP time (ms, array only, at {a.fmax:g} MHz): " +
              ", ".join(f"{m} dense {d:.4f} / 2:4 {s:.4f}" for m, d, s in dat)]
    md = os.path.join(a.out_dir, "results.md")
    with open(md + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(md + ".tmp", md)
    print("\n".join(lines))
    print(f"networks_report: wrote {md}")
    if not mlperf:
        return  # the plot sets the MLPerf Tiny models beside their published latencies
    if shutil.which("gnuplot") is None:
        print("networks_report: gnuplot not found, no plot")
        return
    datf = os.path.join(a.out_dir, "networks.dat")
    with open(datf, "w") as f:
        for i, (m, d, s) in enumerate(dat):
            pub = [pts.get(m, float("nan")) for _, pts in PUBLISHED]
            f.write(f"{m} {d} {s if s else 'nan'} " + " ".join(str(p) for p in pub) + "\n")
    png = os.path.join(a.out_dir, "networks.png")
    titles = ["sparse24 dense (array)", "sparse24 2:4 (array)"] + [n for n, _ in PUBLISHED]
    plot = ", ".join(
        f"'{datf}' using {i + 2}:xtic(1) title '{t}'" for i, t in enumerate(titles))
    script = f"""set terminal pngcairo size 1100,560 font ',10'
set output '{png}'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set logscale y
set ylabel 'latency per inference (ms, log scale)'
set title 'MLPerf Tiny models: sparse24 8x8 array time at {a.fmax:g} MHz (host operators not timed) vs published systems'
set key outside right top
set grid ytics
plot {plot}
"""
    r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if r.returncode != 0:
        print("networks_report: gnuplot failed:", r.stderr.strip())
    else:
        print(f"networks_report: wrote {png}")


if __name__ == "__main__":
    main()
