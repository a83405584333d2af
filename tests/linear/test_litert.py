# SPDX-License-Identifier: Apache-2.0
"""LiteRT byte-for-byte: generated int8 per-channel FULLY_CONNECTED models (pruned N:M weights,
random scales, zero points, bias, fused activation NONE/RELU/RELU6/RELU_N1_TO_1) run in LiteRT with the reference and the
optimized kernels (with and without the XNNPACK delegate), and `sparse24 linear` on the model and rtl backends (SPEC §7).

usage: test_litert.py SPARSE24 WORKDIR [--models N] [--seed S]
Prints one line per model and 'N passed, N failed'; keeps each model's .tflite and .npy files
in WORKDIR/<name>/ (rerun one by hand with the command printed on failure).
"""
import argparse
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tflite_fc  # noqa: E402


def prune(w, n, m):
    """SPEC §3: keep the n largest magnitudes per group of m (ties: lower index)."""
    rows, k = w.shape
    out = np.zeros_like(w)
    for r in range(rows):
        for g in range(k // m):
            grp = w[r, g * m:(g + 1) * m].astype(np.int32)
            order = sorted(range(m), key=lambda i: (-abs(int(grp[i])), i))[:n]
            for i in order:
                out[r, g * m + i] = w[r, g * m + i]
    return out


# (name, batch, K, M, pattern): 2:4, 1:4, 2:8, GEMV (batch 1), odd shapes, several tiles
SHAPES = [
    ("p24_gemv_1x64x16", 1, 64, 16, (2, 4)),
    ("p24_4x32x8", 4, 32, 8, (2, 4)),
    ("p24_odd_7x20x13", 7, 20, 13, (2, 4)),
    ("p24_17x128x33", 17, 128, 33, (2, 4)),
    ("p24_gemv_1x256x40", 1, 256, 40, (2, 4)),
    ("p24_odd_3x4x1", 3, 4, 1, (2, 4)),
    ("p24_9x96x64", 9, 96, 64, (2, 4)),
    ("p14_gemv_1x64x24", 1, 64, 24, (1, 4)),
    ("p14_odd_5x12x11", 5, 12, 11, (1, 4)),
    ("p14_16x128x32", 16, 128, 32, (1, 4)),
    ("p14_odd_31x36x7", 31, 36, 7, (1, 4)),
    ("p28_gemv_1x64x16", 1, 64, 16, (2, 8)),
    ("p28_odd_6x24x19", 6, 24, 19, (2, 8)),
    ("p28_12x200x48", 12, 200, 48, (2, 8)),
    ("p28_odd_2x8x3", 2, 8, 3, (2, 8)),
    ("p24_relu_8x64x24", 8, 64, 24, (2, 4)),
    ("p24_gemv_4x512x16", 4, 512, 16, (2, 4)),
    ("p14_relu_10x40x10", 10, 40, 10, (1, 4)),
    ("p28_relu_3x48x29", 3, 48, 29, (2, 8)),
    ("p24_wide_2x16x130", 2, 16, 130, (2, 4)),
    ("p24_sat_5x64x12", 5, 64, 12, (2, 4)),
    ("p14_sat_4x32x9", 4, 32, 9, (1, 4)),
    ("p24_dense_like_6x8x6", 6, 8, 6, (2, 4)),
    ("p28_gemv_1x512x9", 1, 512, 9, (2, 8)),
    # fused RELU6 and RELU_N1_TO_1 (the clamp [act_min, act_max] of TFLite's activation range,
    # `--act-min/--act-max`); "flat": an output scale so large that the range is ZO alone
    ("p24_relu6_8x64x24", 8, 64, 24, (2, 4)),
    ("p24_relu6_gemv_1x128x40", 1, 128, 40, (2, 4)),
    ("p14_relu6_odd_5x36x13", 5, 36, 13, (1, 4)),
    ("p28_relu6_7x48x17", 7, 48, 17, (2, 8)),
    ("p24_relun1_6x64x20", 6, 64, 20, (2, 4)),
    ("p28_relun1_odd_3x48x11", 3, 48, 11, (2, 8)),
    ("p14_relun1_gemv_1x64x24", 1, 64, 24, (1, 4)),
    ("p24_relun1_flat_4x32x9", 4, 32, 9, (2, 4)),
]


def activation(name, rng):
    """The fused activation of a case: by name, else RELU or NONE at random."""
    if "relu6" in name:
        return "RELU6"
    if "relun1" in name:
        return "RELU_N1_TO_1"
    return "RELU" if "relu" in name or bool(rng.integers(0, 2)) else "NONE"


def make_case(rng, name, batch, k, m, pat):
    w = prune(rng.integers(-128, 128, size=(m, k), dtype=np.int8), *pat)
    x = rng.integers(-128, 128, size=(batch, k), dtype=np.int8)
    zi = int(rng.integers(-128, 128))
    zo = int(rng.integers(-40, 41))
    if rng.integers(0, 6) == 0:
        zi, zo = int(rng.choice([-128, 127])), int(rng.choice([-128, 127]))
    s_in = float(rng.uniform(0.002, 0.03))
    s_w = rng.uniform(0.001, 0.05, size=m).astype(np.float32)
    acc = (x.astype(np.int64) - zi) @ w.astype(np.int64).T
    bias = (rng.normal(0, 1, size=m) * max(1.0, float(np.std(acc)))).astype(np.int32)
    if rng.integers(0, 4) == 0:
        bias[:] = 0
    real = (acc + bias) * s_in * s_w.astype(np.float64)
    # an output scale that keeps most outputs inside int8; "sat": a small one (clamps both ends)
    s_out = max(float(np.percentile(np.abs(real), 98)) / 100.0, 1e-6)
    if "sat" in name:
        s_out /= 20.0
    act = activation(name, rng)
    if act in ("RELU6", "RELU_N1_TO_1"):
        # real values a little beyond the activation's range (|real| 98th percentile ~1.5x its
        # top), and an output scale that puts that top 30..100 steps above ZO (act_max < 127
        # for most ZO); "flat": a scale above 2, so that round(1/scale) = 0: act_min = act_max
        top = 6.0 if act == "RELU6" else 1.0
        p98 = max(float(np.percentile(np.abs(real), 98)), 1e-12)
        s_w = (s_w * (1.5 * top / p98)).astype(np.float32)
        s_out = float(rng.uniform(2.5, 4.0)) if "flat" in name else top / float(rng.uniform(30, 100))
    return dict(w=w, x=x, zi=zi, zo=zo, s_in=s_in, s_out=s_out, s_w=s_w, bias=bias, act=act)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sparse24")
    ap.add_argument("workdir")
    ap.add_argument("--models", type=int, default=len(SHAPES))
    ap.add_argument("--seed", type=int, default=24)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    passed = failed = 0
    outputs = inside = double_diff = 0
    print(f"test_litert: seed {a.seed}, {min(a.models, len(SHAPES))} models")
    for name, batch, k, m, pat in SHAPES[:a.models]:
        c = make_case(rng, name, batch, k, m, pat)
        d = os.path.join(a.workdir, name)
        os.makedirs(d, exist_ok=True)
        layer = dict(w=c["w"], s_w=c["s_w"], bias=c["bias"], s_out=c["s_out"], zo=c["zo"],
                     act=c["act"])
        lo, hi = tflite_fc.act_range(c["act"], c["s_out"], c["zo"])
        model = tflite_fc.build_model(batch, [layer], c["s_in"], c["zi"])
        with open(os.path.join(d, "model.tflite"), "wb") as f:
            f.write(model)
        ys = {kern: tflite_fc.run(model, c["x"], kern) for kern in tflite_fc.KERNELS}
        y_ref = ys["ref"]
        mult, shift = tflite_fc.layer_params(c["s_in"], c["s_w"], c["s_out"])
        files = dict(x=c["x"], w=c["w"], bias=c["bias"].astype("<i4"), mult=mult.astype("<i4"),
                     shift=shift.astype("<i4"))
        for key, arr in files.items():
            np.save(os.path.join(d, key + ".npy"), arr)
        problems = []
        if not np.array_equal(y_ref, ys["xnnpack"]):
            bad = np.argwhere(y_ref != ys["xnnpack"])[:3].tolist()
            problems.append(f"LiteRT ref != default (XNNPACK) kernels at {bad}")
        # LiteRT's optimized builtin kernel (no delegate) rounds twice (gemmlowp): it must equal
        # that rounding exactly; where the two roundings differ is counted, not failed
        acc = ((c["x"].astype(np.int64) - c["zi"]) @ c["w"].astype(np.int64).T
               + c["bias"].astype(np.int64))
        acc = (acc + (1 << 31)) % (1 << 32) - (1 << 31)
        y_dbl = tflite_fc.requant_double_rounding(acc, mult, shift, c["zo"], lo, hi)
        if not np.array_equal(ys["opt"], y_dbl):
            bad = np.argwhere(ys["opt"] != y_dbl)[:3].tolist()
            problems.append(f"LiteRT optimized builtin kernel != double rounding at {bad}")
        ndbl = int(np.count_nonzero(ys["opt"] != y_ref))
        for be in ("model", "rtl"):
            out = os.path.join(d, f"y_{be}.npy")
            cmd = [a.sparse24, "linear", os.path.join(d, "x.npy"), os.path.join(d, "w.npy"),
                   "-o", out, "--bias", os.path.join(d, "bias.npy"),
                   "--mult", os.path.join(d, "mult.npy"), "--shift", os.path.join(d, "shift.npy"),
                   "--zp-in", str(c["zi"]), "--zp-out", str(c["zo"]),
                   "--pattern", f"{pat[0]}:{pat[1]}", "--backend", be]
            if c["act"] == "RELU":  # the ReLU shorthand; the other ranges as numbers
                cmd.append("--relu")
            elif c["act"] != "NONE":
                cmd += ["--act-min", str(lo), "--act-max", str(hi)]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                problems.append(f"{be}: exit {r.returncode}: {r.stderr.strip()} ({' '.join(cmd)})")
                continue
            y = np.load(out)
            if y.dtype != np.int8 or y.shape != y_ref.shape:
                problems.append(f"{be}: dtype {y.dtype} shape {y.shape}, LiteRT {y_ref.shape}")
            elif y.tobytes() != y_ref.tobytes():
                bad = np.argwhere(y != y_ref)
                i = tuple(bad[0])
                problems.append(f"{be}: {len(bad)} bytes differ, first Y{list(i)} = {y[i]}, "
                                f"LiteRT {y_ref[i]} ({' '.join(cmd)})")
        outputs += y_ref.size
        double_diff += ndbl
        inside += int(np.count_nonzero((y_ref > lo) & (y_ref < hi)))
        at = (f" (at act_min {int(np.count_nonzero(y_ref == lo))}, at act_max "
              f"{int(np.count_nonzero(y_ref == hi))})") if c["act"] in ("RELU6", "RELU_N1_TO_1") else ""
        desc = (f"{name}: {batch}x{k}x{m} {pat[0]}:{pat[1]} zi {c['zi']} zo {c['zo']} "
                f"{c['act']} [{lo}, {hi}]{at} shift {shift.min()}..{shift.max()}")
        if problems:
            failed += 1
            print(f"FAIL {desc}")
            for p in problems:
                print(f"  {p}")
        else:
            passed += 1
            note = f" (builtin optimized kernel: {ndbl} double-rounding bytes)" if ndbl else ""
            print(f"ok   {desc}: LiteRT ref == default == sparse24 model == rtl, "
                  f"{y_ref.size} bytes{note}")
    print(f"outputs: {outputs} bytes, {inside} strictly inside the clamp range; LiteRT's "
          f"optimized builtin kernel (no delegate) differs in {double_diff}, all explained by its "
          f"double rounding")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
