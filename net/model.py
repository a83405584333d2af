# SPDX-License-Identifier: Apache-2.0
"""`make model` (issue 12): a digits MLP trained in NumPy, pruned N:M (one-shot, with and without
input-channel permutation, then masked fine-tuning), quantized to int8 (per-channel weights,
calibrated activations), exported as .tflite, and run layer by layer as `sparse24 linear` on the
Verilated RTL; the RTL logits must equal LiteRT's for every test sample.

usage: model.py SPARSE24 OUTDIR [--quick] [--seed S]
Writes OUTDIR/accuracy.csv (variant,pattern,accuracy,bitexact_litert,cycles), OUTDIR/<variant>.tflite,
OUTDIR/test_X.npy (int8 inputs as fed to the network), OUTDIR/test_y.npy (labels), and a summary
on stdout. Exit status 1 when any variant's RTL logits differ from LiteRT's.
"""
import os

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"  # deterministic BLAS: the same seed gives the same weights

import argparse  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests", "linear"))
import mlp  # noqa: E402
import quant  # noqa: E402
import tflite_fc  # noqa: E402


def log(msg):
    print(msg, flush=True)


def prune_net(net, n, m):
    """Every layer pruned N:M along its inputs (SPEC §3); returns (net, masks)."""
    masks = [mlp.nm_mask(layer["w"], n, m) for layer in net]
    out = mlp.copy(net)
    for layer, mask in zip(out, masks):
        layer["w"] = (layer["w"] * mask).astype(np.float32)
    return out, masks


def permute_net(net, n, m):
    """Input-channel permutation of every layer after the first (its inputs are the previous
    layer's outputs, permuted consistently), searched for N:M; the function is unchanged."""
    out = net
    for i in range(1, len(net)):
        w = out[i]["w"]
        before = mlp.kept_magnitude(w, n, m)
        perm = mlp.search_permutation(w, n, m)
        out = mlp.permute_inputs(out, i, perm)
        after = mlp.kept_magnitude(out[i]["w"], n, m)
        log(f"  permutation of layer {i} inputs ({w.shape[1]} channels) for {n}:{m}: kept "
            f"magnitude {before:.2f} -> {after:.2f} ({100.0 * (after / before - 1):+.2f}%)")
    return out


def run_rtl(exe, layers, xq, pattern, work):
    """The int8 network layer by layer as `sparse24 linear --backend rtl`, each layer's int8
    output the next one's input. Returns (logits int8, cycles summed over layers)."""
    os.makedirs(work, exist_ok=True)
    h = xq
    cycles = 0
    for i, q in enumerate(layers):
        files = {"x": h, "w": q["w"], "bias": q["bias"].astype("<i4"),
                 "mult": q["mult"].astype("<i4"), "shift": q["shift"].astype("<i4")}
        paths = {k: os.path.join(work, f"l{i}_{k}.npy") for k in files}
        for k, arr in files.items():
            np.save(paths[k], np.ascontiguousarray(arr))
        y = os.path.join(work, f"l{i}_y.npy")
        cmd = [exe, "linear", paths["x"], paths["w"], "-o", y, "--bias", paths["bias"],
               "--mult", paths["mult"], "--shift", paths["shift"],
               "--zp-in", str(q["in_zp"]), "--zp-out", str(q["out_zp"]),
               "--pattern", pattern, "--backend", "rtl", "--stats"]
        if q["relu"]:
            cmd.append("--relu")
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit(f"model: error: {' '.join(cmd)}: {r.stderr.strip()}")
        stats = dict(line.split(": ", 1) for line in r.stdout.splitlines() if ": " in line)
        cycles += int(stats["cycles"])
        h = np.load(y)
    return h, cycles


def tflite_layers(layers):
    return [dict(w=q["w"], s_w=q["w_scale"], bias=q["bias"], s_out=q["out_scale"],
                 zo=q["out_zp"], relu=q["relu"]) for q in layers]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sparse24")
    ap.add_argument("out")
    ap.add_argument("--quick", action="store_true", help="small widths, few epochs (make test)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    t0 = time.time()
    sizes = [64, 96, 96, 10] if a.quick else [64, 512, 512, 10]
    epochs, ft_epochs = (4, 2) if a.quick else (40, 20)
    rng = np.random.default_rng(a.seed)
    xtr, ytr, xte, yte = mlp.digits(0)
    log(f"model: load_digits, {len(xtr)} train / {len(xte)} test, MLP {' -> '.join(map(str, sizes))}, "
        f"{epochs} epochs dense + {ft_epochs} masked fine-tuning, seed {a.seed}"
        f"{' (quick)' if a.quick else ''}")

    dense = mlp.train(mlp.init(sizes, rng), xtr, ytr, epochs, rng)
    acc_fp32 = mlp.accuracy(dense, xte, yte)
    log(f"fp32_dense: accuracy {acc_fp32:.4f}")

    # the int8 input as fed to every variant: pixels in [0, 1], scale 1/255, zero point -128
    in_scale, in_zp = quant.act_params(0.0, 1.0)
    xq_te = quant.quantize_acts(xte, in_scale, in_zp)
    np.save(os.path.join(a.out, "test_X.npy"), xq_te)
    np.save(os.path.join(a.out, "test_y.npy"), yte.astype(np.int64))

    variants = [("int8_dense", "4:4", dense)]
    perm24 = permute_net(dense, 2, 4)
    for name, (n, m), base, ft in (
            ("int8_2of4_oneshot", (2, 4), dense, False),
            ("int8_2of4_perm_oneshot", (2, 4), perm24, False),
            ("int8_2of4_ft", (2, 4), dense, True),
            ("int8_2of4_perm_ft", (2, 4), perm24, True),
            ("int8_1of4_ft", (1, 4), dense, True),
            ("int8_2of8_ft", (2, 8), dense, True)):
        net, masks = prune_net(base, n, m)
        if ft:
            net = mlp.train(net, xtr, ytr, ft_epochs, np.random.default_rng(a.seed + 1),
                            masks=masks)
        log(f"{name}: float accuracy after pruning{' + fine-tuning' if ft else ''}: "
            f"{mlp.accuracy(net, xte, yte):.4f}")
        variants.append((name, f"{n}:{m}", net))

    rows = [("fp32_dense", "dense", acc_fp32, "n/a", "n/a")]
    all_exact = True
    for name, pattern, net in variants:
        layers = quant.quantize_net(net, mlp.layer_outputs(net, xtr), in_scale, in_zp)
        model = tflite_fc.build_model(len(xq_te), tflite_layers(layers), float(in_scale), in_zp)
        with open(os.path.join(a.out, f"{name}.tflite"), "wb") as f:
            f.write(model)
        lite_ref = tflite_fc.run(model, xq_te, "ref")
        lite_def = tflite_fc.run(model, xq_te, "xnnpack")
        numpy_ref = quant.forward_ref(layers, xq_te)
        rtl, cycles = run_rtl(a.sparse24, layers, xq_te, pattern, os.path.join(a.out, name))
        exact = (rtl.tobytes() == lite_ref.tobytes() == lite_def.tobytes() == numpy_ref.tobytes())
        all_exact &= exact
        acc = float(np.mean(np.argmax(rtl, axis=1) == yte))
        log(f"{name}: int8 accuracy {acc:.4f}, RTL logits == LiteRT (ref and default kernels) "
            f"for all {len(xq_te)} samples: {'yes' if exact else 'NO'}, {cycles} cycles")
        if not exact:
            for label, other in (("LiteRT ref", lite_ref), ("LiteRT default", lite_def),
                                 ("NumPy SPEC §7", numpy_ref)):
                bad = np.argwhere(rtl != other)
                if len(bad):
                    log(f"  RTL != {label} in {len(bad)} bytes, first at {bad[0].tolist()}")
        rows.append((name, pattern if pattern != "4:4" else "dense", acc,
                     "yes" if exact else "no", cycles))

    with open(os.path.join(a.out, "accuracy.csv"), "w") as f:
        f.write("variant,pattern,accuracy,bitexact_litert,cycles\n")
        for r in rows:
            f.write(f"{r[0]},{r[1]},{r[2]:.4f},{r[3]},{r[4]}\n")
    by = {r[0]: r for r in rows}
    d, s = by["int8_dense"], by["int8_2of4_perm_ft"]
    log(f"2:4 fine-tuned (perm) vs dense int8: {100 * (s[2] - d[2]):+.2f} points "
        f"(target within 1.0); without permutation {100 * (by['int8_2of4_ft'][2] - d[2]):+.2f}; "
        f"permutation adds {100 * (by['int8_2of4_perm_oneshot'][2] - by['int8_2of4_oneshot'][2]):+.2f} "
        f"points one-shot, {100 * (s[2] - by['int8_2of4_ft'][2]):+.2f} after fine-tuning")
    log(f"cycles on the 8x8 2:4 core for the {len(xq_te)} test samples: dense {d[4]}, 2:4 {s[4]}, "
        f"speedup {d[4] / s[4]:.3f}x")
    log(f"wrote {os.path.join(a.out, 'accuracy.csv')} ({time.time() - t0:.0f} s)")
    return 0 if all_exact else 1


if __name__ == "__main__":
    sys.exit(main())
