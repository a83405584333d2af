# SPDX-License-Identifier: Apache-2.0
"""The MLPerf Tiny int8 reference models on sparse24 (SPEC §8), checked against LiteRT.

For each model (ad, ic, kws, vww by default; --models all: every .tflite of MODELS_DIR, such as
the zoo of twelve more) and each weight variant (dense: the reference file as it is;
2:4: `sparse24 prune` of it), random inputs (printed seed) go through `sparse24 run` on a
backend and through LiteRT 2.3's reference kernels (OpResolverType.BUILTIN_REF), one
inference at a time; every output byte must be equal.

  networks.py SPARSE24 MODELS_DIR OUT_DIR [--backend model|rtl] [--inputs N] [--seed S]
              [--models ad,ic,...|all] [--csv results.csv]

With --csv, writes one row per model and variant:
  model,weights,ip_macs,host_macs,cycles,predicted_cycles,utilization,bitexact_litert
(per inference; cycles measured on the rtl backend, empty on the model backend). Exit 1 on the
first mismatch or failure, naming the model, variant and input.
"""
import argparse
import os
import subprocess
import sys
import time

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType

MODELS = ["ad", "ic", "kws", "vww"]
VARIANTS = ["dense", "2:4"]
HEADER = "model,weights,ip_macs,host_macs,cycles,predicted_cycles,utilization,bitexact_litert"


def litert(path):
    it = Interpreter(model_path=path, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    return it


def random_inputs(it, n, rng):
    """n inputs of the model's input dtype and shape (batch in place of the leading 1).
    float inputs: uniform over the range the model's first QUANTIZE maps onto int8, widened by
    a quarter on both sides so that saturation is exercised."""
    d = it.get_input_details()[0]
    shape = [n] + list(d["shape"][1:])
    if d["dtype"] == np.int8:
        return rng.integers(-128, 128, size=shape, dtype=np.int8)
    # the QUANTIZE that follows a float input carries the int8 scale
    qs = [t for t in it.get_tensor_details() if t["dtype"] == np.int8 and t["quantization"][0] > 0]
    scale, zp = qs[0]["quantization"] if qs else (1.0 / 64, 0)
    lo, hi = (-128 - zp) * scale, (127 - zp) * scale
    w = hi - lo
    return rng.uniform(lo - w / 4, hi + w / 4, size=shape).astype(np.float32)


def reference(it, x):
    d_in, d_out = it.get_input_details()[0], it.get_output_details()[0]
    ys = []
    for i in range(x.shape[0]):
        it.set_tensor(d_in["index"], x[i:i + 1])
        it.invoke()
        ys.append(it.get_tensor(d_out["index"]).copy())
    return np.concatenate(ys, axis=0)


def variant_model(sparse24, models_dir, out_dir, model, weights, who="networks"):
    """The .tflite of a model's weight variant: dense, the file as it is; 2:4, `sparse24 prune` of
    it into out_dir. Exits naming the model when prune fails."""
    src = os.path.join(models_dir, f"{model}.tflite")
    if weights == "dense":
        return src
    path = os.path.join(out_dir, f"{model}_2of4.tflite")
    r = subprocess.run([sparse24, "prune", src, "-o", path, "--pattern", "2:4"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{who}: {model}: sparse24 prune failed: {r.stderr.strip()}")
    return path


def stats_of(text):
    out = {}
    for line in text.splitlines():
        if ": " in line:
            k, v = line.split(": ", 1)
            out[k.strip()] = v.strip()
    return out


def run_one(sparse24, model, x, work, backend, tag):
    xp = os.path.join(work, f"{tag}_x.npy")
    yp = os.path.join(work, f"{tag}_y.npy")
    np.save(xp, x)
    t0 = time.time()
    r = subprocess.run([sparse24, "run", model, xp, "-o", yp, "--backend", backend, "--stats"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"networks: {tag}: sparse24 run failed ({r.returncode}): {r.stderr.strip()}")
    return np.load(yp), stats_of(r.stdout), time.time() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sparse24")
    ap.add_argument("models_dir")
    ap.add_argument("out_dir")
    ap.add_argument("--backend", default="model", choices=["model", "rtl"])
    ap.add_argument("--inputs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--csv")
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    if a.models == "all":  # every .tflite of the folder
        models = sorted(f[:-len(".tflite")] for f in os.listdir(a.models_dir) if f.endswith(".tflite"))
    else:
        models = [m for m in a.models.split(",") if m]
    rows = []
    runs = [(m, v) for m in models for v in VARIANTS]
    print(f"networks: seed {a.seed}, {a.inputs} random inputs per model, backend {a.backend}")
    for i, (m, v) in enumerate(runs):
        path = variant_model(a.sparse24, a.models_dir, a.out_dir, m, v)
        it = litert(path)
        rng = np.random.default_rng([a.seed, i])
        x = random_inputs(it, a.inputs, rng)
        want = reference(it, x)
        tag = f"{m}_{v.replace(':', 'of')}_{a.backend}"
        got, st, secs = run_one(a.sparse24, path, x, a.out_dir, a.backend, tag)
        if got.shape != want.shape or got.dtype != want.dtype:
            sys.exit(f"networks: {tag}: output {got.dtype}{list(got.shape)}, LiteRT "
                     f"{want.dtype}{list(want.shape)}")
        bad = [j for j in range(a.inputs) if got[j].tobytes() != want[j].tobytes()]
        if bad:
            j = bad[0]
            sys.exit(f"networks: {tag}: input {j} (seed {a.seed}): {len(bad)} of {a.inputs} "
                     f"outputs differ from LiteRT: got {got[j].ravel()[:8]}, want "
                     f"{want[j].ravel()[:8]}")
        n = a.inputs
        ip, host = int(st["ip_macs"]) // n, int(st["host_macs"]) // n
        pred = int(st["predicted_cycles"]) // n
        cyc = int(st["cycles"]) // n if "cycles" in st else None
        if cyc is not None:
            layers = sorted(k[:-len("_cycles")] for k in st
                            if k.endswith("_cycles") and k.startswith("op")
                            and not k.endswith("predicted_cycles"))
            if not layers or st["cycles"] != st["predicted_cycles"]:
                sys.exit(f"networks: {tag}: {len(layers)} layers with cycles, total measured "
                         f"{st['cycles']}, cycle model {st['predicted_cycles']}")
            for L in layers:
                if st[L + "_cycles"] != st[L + "_predicted_cycles"]:
                    sys.exit(f"networks: {tag}: {L} measured {st[L + '_cycles']} cycles, "
                             f"cycle model {st[L + '_predicted_cycles']}")
        util = float(st["utilization"])
        print(f"[{i + 1}/{len(runs)}] {m} {v}: {n} inputs bit-exact with LiteRT, "
              f"{ip} array MACs + {host} host MACs per inference, "
              + (f"{cyc} cycles (predicted {pred}), " if cyc is not None else
                 f"{pred} predicted cycles, ")
              + f"utilization {util:.3f} ({secs:.1f} s)", flush=True)
        rows.append(f"{m},{v},{ip},{host},{'' if cyc is None else cyc},{pred},{util:.4f},yes")
    if a.csv:
        tmp = a.csv + ".tmp"
        with open(tmp, "w") as f:
            f.write(HEADER + "\n" + "\n".join(rows) + "\n")
        os.replace(tmp, a.csv)
        print(f"networks: wrote {a.csv}")


if __name__ == "__main__":
    main()
