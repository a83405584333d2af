#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Whole inferences on the simulated edge SoC (SPEC §9, issue 51): `sparse24 run --backend soc`
(the array layers on the IP) and `--backend soc-cpu` (everything on VexRiscv: the baseline), each
output byte for byte against LiteRT's reference kernels (BUILTIN_REF) on the same random inputs
(printed seed), the SoC's counters per inference in a CSV.

  soc/tests/networks.py SPARSE24 MODELS_DIR OUT_DIR [--models ad,kws,...] [--rows 2:4/soc,...]
                        [--inputs N] [--seed S] [--csv FILE] [--fresh]

Rows are WEIGHTS/BACKEND (weights dense: the file as it is; 2:4: `sparse24 prune` of it). With
--csv, one line per model and row, written after each run; a row already in the file is kept and
not run again (the runs take minutes to hours of simulation; --fresh starts over):
  model,weights,engine,cycles_total,cycles_ip,cycles_cpu,load_cycles,arena_bytes,code_bytes,
  soc_mhz,ms_total,bitexact_litert
(the --stats figures, per inference; cycles_ip the IP's busy cycles (CNT_CYCLES), cycles_cpu the
CPU's outside its waits for the IP; soc_mhz and ms_total of every row from make soc-synth's record
as it is when the file is written (--record; soc/build_h.py's reading of it, the one the library's
--stats use): the cycles do not depend on the clock, so rows kept from before a record follow it),
and FILE_detail.csv:
  model,weights,engine,inferences,array_cycles,array_op_cycles,other_op_cycles,stall_w,stall_a,stall_r
(array_cycles: the cycle model's for the array layers the SoC runs, at full stream rate: `--backend
rtl`'s but for a convolution the SoC's runtime pads to four input channels for its fetch unit;
array_op_cycles: SoC cycles inside FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D, wherever they ran (on the IP: the
CPU packing and moving their operands included); other_op_cycles: inside the other operators),
and FILE_ops.csv, the same cycles by operator type (issue 52: what to move into hardware first):
  model,weights,engine,op,where,count,cycles,share_pct
(per inference, summed over the operators of that type that ran there; share_pct of cycles_total).
Each run's --stats is kept in OUT_DIR/<model>_<weights>_<backend>_stats.txt; the ops file is made
from those files, a kept row's too. Exit 1 on the first mismatch or failure, naming the model, row
and input.
"""
import argparse
import csv
import os
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "net"))
from networks import litert, random_inputs, reference, stats_of, variant_model  # noqa: E402
sys.path.insert(0, os.path.dirname(HERE))
from build_h import record_mhz  # noqa: E402

import numpy as np  # noqa: E402

FIELDS = ["model", "weights", "engine", "cycles_total", "cycles_ip", "cycles_cpu", "load_cycles",
          "arena_bytes", "code_bytes", "soc_mhz", "ms_total", "bitexact_litert"]
# beside it (FILE's name with _detail): where the time goes
DETAIL = ["model", "weights", "engine", "inferences", "array_cycles", "array_op_cycles",
          "other_op_cycles", "stall_w", "stall_a", "stall_r"]
# beside it (FILE's name with _ops): the cycles by operator type
OPS = ["model", "weights", "engine", "op", "where", "count", "cycles", "share_pct"]
ARRAY_OPS = ("FULLY_CONNECTED", "CONV_2D", "DEPTHWISE_CONV_2D")  # what the IP runs (issue 52)
ROWS = "2:4/soc,dense/soc,dense/soc-cpu"


def detail_path(path, what="detail"):
    return os.path.splitext(path)[0] + f"_{what}.csv"


def op_rows(m, v, engine, st):
    """FILE_ops.csv's lines of one run's --stats: cycles per inference by (operator, where it ran),
    the largest first."""
    total = int(st["cycles_total"])   # per inference, as --stats prints it, and each op's cycles
    by = {}
    for k in st:
        if k.startswith("op") and k.endswith("_name"):
            o = k[:-len("_name")]
            key = (st[k], st[o + "_where"])
            c, cyc = by.get(key, (0, 0))
            by[key] = (c + 1, cyc + int(st[o + "_cycles"]))
    out = [{"model": m, "weights": v, "engine": engine, "op": op, "where": where, "count": c,
            "cycles": cyc, "share_pct": f"{100.0 * cyc / total:.1f}" if total else ""}
           for (op, where), (c, cyc) in by.items()]
    return sorted(out, key=lambda r: -r["cycles"])


def read_csv(path, fields):
    if not path or not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return [r for r in rows if list(r.keys()) == fields]


def with_clock(rows, mhz):
    """soc_mhz and ms_total of each row at mhz (none: blank), as lib/s24_text.c prints them."""
    for r in rows:
        r["soc_mhz"] = f"{mhz:.1f}" if mhz > 0 else ""
        r["ms_total"] = f"{int(r['cycles_total']) / (mhz * 1000.0):.3f}" if mhz > 0 else ""
    return rows


def write_csv(path, fields, rows):
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fields, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sparse24")
    ap.add_argument("models_dir")
    ap.add_argument("out_dir")
    ap.add_argument("--models", default="ad,kws,ic,vww")
    ap.add_argument("--rows", default=ROWS)
    ap.add_argument("--inputs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--csv")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--record", default=os.path.join(os.path.dirname(os.path.dirname(HERE)), "synth",
                                                     "records", "soc", "ecp5_ulx3s.json"))
    a = ap.parse_args()
    mhz = record_mhz(a.record)[0]
    os.makedirs(a.out_dir, exist_ok=True)
    rows = [] if a.fresh else read_csv(a.csv, FIELDS)
    details = [] if a.fresh or not a.csv else read_csv(detail_path(a.csv), DETAIL)
    runs = [(m, r.split("/")[0], r.split("/")[1]) for m in a.models.split(",") if m
            for r in a.rows.split(",") if r]
    for m, v, b in runs:
        if v not in ("dense", "2:4") or b not in ("soc", "soc-cpu"):
            sys.exit(f"soc-networks: row {v}/{b}: weights dense or 2:4, backend soc or soc-cpu")
    print(f"soc-networks: seed {a.seed}, {a.inputs} random input(s) per run, {len(runs)} runs",
          flush=True)
    op_lines = []

    def kept_stats(m, v, engine, tag):
        """A kept row's operator lines, from its kept --stats (none when the file is gone)."""
        p = os.path.join(a.out_dir, f"{tag}_stats.txt")
        if os.path.exists(p):
            with open(p) as f:
                op_lines.extend(op_rows(m, v, engine, stats_of(f.read())))
    for i, (m, v, b) in enumerate(runs):
        engine = "ip" if b == "soc" else "cpu"
        head = f"[{i + 1}/{len(runs)}] {m} {v} {b}"
        tag = f"{m}_{v.replace(':', 'of')}_{b}"
        if any(r["model"] == m and r["weights"] == v and r["engine"] == engine for r in rows):
            print(f"{head}: kept from {a.csv}", flush=True)
            kept_stats(m, v, engine, tag)
            continue
        path = variant_model(a.sparse24, a.models_dir, a.out_dir, m, v, "soc-networks")
        it = litert(path)
        # the inputs of a row depend on the seed and the row alone, not on which runs came before it
        # (a row run alone, resumed or in another --models list gets the same inputs)
        x = random_inputs(it, a.inputs, np.random.default_rng([a.seed, zlib.crc32(f"{m}/{v}/{b}".encode())]))
        want = reference(it, x)
        xp, yp = os.path.join(a.out_dir, f"{tag}_x.npy"), os.path.join(a.out_dir, f"{tag}_y.npy")
        np.save(xp, x)
        t0 = time.time()
        r = subprocess.run([a.sparse24, "run", path, xp, "-o", yp, "--backend", b, "--stats"],
                           capture_output=True, text=True)
        secs = time.time() - t0
        if r.returncode != 0:
            sys.exit(f"soc-networks: {tag}: sparse24 run failed ({r.returncode}): "
                     f"{r.stderr.strip()}")
        got, st = np.load(yp), stats_of(r.stdout)
        with open(os.path.join(a.out_dir, f"{tag}_stats.txt"), "w") as f:
            f.write(r.stdout)
        bad = [j for j in range(a.inputs) if got[j].tobytes() != want[j].tobytes()]
        if got.shape != want.shape or bad:
            j = bad[0] if bad else 0
            sys.exit(f"soc-networks: {tag}: input {j} (seed {a.seed}): output differs from "
                     f"LiteRT: got {got.ravel()[:8]}, want {want.ravel()[:8]}")
        n = int(st["inferences"])
        per = {k: int(st[k]) for k in ("cycles_total", "cycles_ip", "cycles_cpu")}
        row = {"model": m, "weights": v, "engine": engine, **per,
               "load_cycles": st["load_cycles"], "arena_bytes": st["arena_bytes"],
               "code_bytes": st["code_bytes"],
               "soc_mhz": "", "ms_total": "",
               "bitexact_litert": "yes"}
        ops = sorted({k.split("_")[0] for k in st if k.startswith("op") and k.endswith("_where")})
        arr = [o for o in ops if st[o + "_name"] in ARRAY_OPS]
        det = {"model": m, "weights": v, "engine": engine, "inferences": n,
               "array_cycles": int(st.get("predicted_cycles", "0")),
               "array_op_cycles": sum(int(st[o + "_cycles"]) for o in arr),
               "other_op_cycles": sum(int(st[o + "_cycles"]) for o in ops if o not in arr),
               "stall_w": int(st.get("stall_w", "0")), "stall_a": int(st.get("stall_a", "0")),
               "stall_r": int(st.get("stall_r", "0"))}
        rows = [x for x in rows if (x["model"], x["weights"], x["engine"]) != (m, v, engine)]
        details = [x for x in details if (x["model"], x["weights"], x["engine"]) != (m, v, engine)]
        rows.append(row)
        details.append(det)
        op_lines.extend(op_rows(m, v, engine, st))
        if a.csv:
            write_csv(a.csv, FIELDS, with_clock(rows, mhz))
            write_csv(detail_path(a.csv), DETAIL, details)
            write_csv(detail_path(a.csv, "ops"), OPS, op_lines)
        print(f"{head}: {n} input(s) bit-exact with LiteRT; per inference {per['cycles_total']:,} "
              f"SoC cycles, IP busy {per['cycles_ip']:,} (array alone {det['array_cycles']:,}), "
              f"CPU {per['cycles_cpu']:,}; load {int(row['load_cycles']):,} cycles, arena "
              f"{int(row['arena_bytes']):,} B ({secs:.0f} s)", flush=True)
    if a.csv:
        write_csv(a.csv, FIELDS, with_clock(rows, mhz))   # kept rows too: the record's clock now
        write_csv(detail_path(a.csv, "ops"), OPS, op_lines)
        print(f"soc-networks: {a.csv} has {len(rows)} rows")


if __name__ == "__main__":
    main()
