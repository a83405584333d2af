#!/usr/bin/env python3
"""make soc-networks: the MLPerf Tiny models, one inference each on the simulated SoC (soc/run.py net),
the array layers on the CPU (the C model) and/or on the IP, every output compared byte for byte with
LiteRT's reference kernels (BUILTIN_REF) on the same input (numpy.random.default_rng(7), the model's
input dtype and shape). Writes OUT/networks.csv and OUT/networks.md (SoC cycles, the array layers'
share, load cycles, heap).

  soc/tests/networks.py --models ad,kws,ic,vww --engines cpu,ip --out build/soc [--runs 2]
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def models_dir():
    return subprocess.run([os.path.join(REPO, "scripts", "deps.sh"), "--models-path"], capture_output=True,
                          text=True, check=True).stdout.strip().splitlines()[-1]


def reference(path, d):
    from ai_edge_litert import interpreter as lite
    it = lite.Interpreter(model_path=path, experimental_op_resolver_type=lite.OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    i, o = it.get_input_details()[0], it.get_output_details()[0]
    rng = np.random.default_rng(7)
    if np.issubdtype(i["dtype"], np.integer):
        info = np.iinfo(i["dtype"])
        x = rng.integers(info.min, info.max + 1, i["shape"], dtype=i["dtype"])
    else:
        x = rng.standard_normal(i["shape"]).astype(i["dtype"])
    it.set_tensor(i["index"], x)
    it.invoke()
    np.save(os.path.join(d, "x.npy"), x)
    return it.get_tensor(o["index"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default="ad,kws,ic,vww")
    ap.add_argument("--engines", default="cpu,ip")
    ap.add_argument("--runs", type=int, default=2, help="inferences per run on the IP (the last one counted)")
    ap.add_argument("--out", default=os.path.join(REPO, "build", "soc"))
    args = ap.parse_args()
    mdir = models_dir()
    rows, fails = [], 0
    for name in args.models.split(","):
        with tempfile.TemporaryDirectory(prefix="soc-net-") as d:
            ref = reference(os.path.join(mdir, name + ".tflite"), d)
            for eng in args.engines.split(","):
                y = os.path.join(d, f"y_{eng}.npy")
                cmd = [sys.executable, os.path.join(REPO, "soc", "run.py"), "net", os.path.join(mdir, name + ".tflite"),
                       os.path.join(d, "x.npy"), "-o", y, "--engine", eng, "--stats",
                       "--runs", str(args.runs if eng == "ip" else 1), "--build", os.path.join(args.out)]
                r = subprocess.run(cmd, capture_output=True, text=True)
                st = dict(ln.split(": ", 1) for ln in r.stdout.splitlines() if ": " in ln)
                same = r.returncode == 0 and np.load(y).tobytes() == ref.tobytes()
                fails += not same
                row = {"model": name, "engine": eng, "equal_litert": int(same),
                       "soc_cycles": st.get("soc_cycles"), "first_inference_cycles": st.get("first_inference_cycles"),
                       "array_layer_cycles": st.get("linear_cycles"), "array_layers": st.get("linear_calls"),
                       "ip_busy_cycles": st.get("ip_cycles"), "load_cycles": st.get("load_cycles"),
                       "heap_bytes": st.get("heap_bytes"), "sim_cycles_per_s": st.get("sim_cycles_per_s")}
                rows.append(row)
                print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
                if r.returncode != 0:
                    print(r.stderr.strip(), file=sys.stderr)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "networks.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(args.out, "networks.md"), "w") as f:
        f.write("| model | engine | SoC cycles | array layers | IP busy | load | heap | = LiteRT |\n|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            f.write(f"| {r['model']} | {r['engine']} | {r['soc_cycles']} | {r['array_layer_cycles']} | "
                    f"{r['ip_busy_cycles']} | {r['load_cycles']} | {r['heap_bytes']} | {'yes' if r['equal_litert'] else 'NO'} |\n")
    print(f"{len(rows) - fails} passed, {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
