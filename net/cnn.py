# SPDX-License-Identifier: Apache-2.0
"""`make model`, part 2 (issue 26): a small CNN on real MNIST digits, trained in NumPy with the
seed recipe (dense training; N:M magnitude pruning per output channel along K, with and without
channel permutation; masked fine-tuning), quantized to int8 as TFLite's converter does, exported
as .tflite and measured in LiteRT's reference kernels; then, where `sparse24 run` exists, run on
the C model and the Verilated RTL (SPEC §8) and compared byte for byte with LiteRT.

usage: cnn.py SPARSE24 OUTDIR [--mnist CSV_GZ] [--quick] [--seed S] [--backends model,rtl]
The network (net/convnet.py): conv3x3(16)+ReLU -> maxpool 2x2 -> conv3x3(32)+ReLU -> maxpool 2x2
-> fc(10); --quick: 8 and 16 channels, few epochs (make test).
Every .tflite takes float32 [1, 28, 28, 1] raw pixels 0..255: QUANTIZE (scale 1, zero point -128:
pixel p -> p - 128, exact), CONV_2D, MAX_POOL_2D, CONV_2D, MAX_POOL_2D, RESHAPE, FULLY_CONNECTED,
DEQUANTIZE -> float32 logits [1, 10]. Writes OUTDIR/mnist_cnn_<variant>.tflite,
OUTDIR/mnist_cnn.csv (variant,pattern,accuracy,bitexact_litert,cycles, as net/model.py's
accuracy.csv), OUTDIR/mnist_test_X.npy (float32 [1000, 28, 28, 1]) and OUTDIR/mnist_test_y.npy.
bitexact_litert: "yes" when every `sparse24 run` output compared (all test images on the model
backend, on the rtl backend all of them, 100 with --quick) equals LiteRT's byte for byte;
cycles: the rtl run's total `cycles` (n/a when it did not run).
Exit status 1 when LiteRT differs from the NumPy int8 network or from `sparse24 run`, when a run
fails, or when (--quick) the int8 accuracy is not far above chance.
"""
import os

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"  # deterministic BLAS: the same seed gives the same weights

import argparse  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from ai_edge_litert import schema_py_generated as sch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import convnet  # noqa: E402
import quant  # noqa: E402
import tflbuild  # noqa: E402

CSV_HEADER = "variant,pattern,accuracy,bitexact_litert,cycles"  # = net/model.py's accuracy.csv
IN_ZP = -128  # the int8 input: scale 1.0, zero point -128 (pixel p -> p - 128)


def log(msg):
    print(msg, flush=True)


# ---------------------------------------------------------------- seed recipe

def permute(net, n, m):
    """Channel permutation for N:M of every layer after the first (conv2's input channels =
    conv1's outputs, the fc's input channels = conv2's outputs); the function is unchanged."""
    out = net
    for i in range(1, len(net)):
        c = out[i - 1]["w"].shape[0]
        before = mlp_kept(out[i], c, n, m)
        perm = convnet.search_channels(out, i, n, m)
        out = convnet.permute_channels(out, i, perm)
        after = mlp_kept(out[i], c, n, m)
        log(f"  permutation of layer {i} ({out[i]['kind']}) input channels ({c}) for {n}:{m}: "
            f"kept magnitude {before:.2f} -> {after:.2f} ({100.0 * (after / before - 1):+.2f}%)")
    return out


def mlp_kept(layer, channels, n, m):
    w = convnet.channel_matrix(layer, channels)
    return float(np.abs(w * convnet.nm_mask(w, n, m)).sum())


# ---------------------------------------------------------------- int8 post-training quantization

def quantize(net, ranges):
    """Int8 layers of the float network (TFLite's scheme, net/quant.py): per-channel symmetric
    weights (zero point 0), int32 bias at s_in*s_w, per-tensor activations from the calibration
    ranges (after ReLU for the convs; max pooling keeps its input's parameters). The first
    layer's weights absorb the network's 1/255, so the int8 input is the pixel minus 128."""
    layers = []
    s_in, zp_in = np.float32(1.0), IN_ZP
    for i, (layer, (lo, hi)) in enumerate(zip(net, ranges)):
        w = layer["w"] * (convnet.IN_SCALE if i == 0 else np.float32(1.0))
        o = w.shape[0]
        s_out, zp_out = quant.act_params(lo, hi)
        s_w, wq = quant.weight_params(w.reshape(o, -1), layer["b"], s_in)
        bias = np.round(layer["b"].astype(np.float64) / (np.float64(s_in) * s_w.astype(np.float64)))
        assert np.all(np.abs(bias) < 2 ** 31), f"layer {i}: bias does not fit int32"
        mult, shift = zip(*(quant.quantize_multiplier(float(np.float64(s_in) * np.float64(sw) / np.float64(s_out)))
                            for sw in s_w))
        layers.append({
            "kind": layer["kind"], "w": wq.reshape(w.shape), "bias": bias.astype(np.int32),
            "mult": np.array(mult, np.int32), "shift": np.array(shift, np.int32),
            "w_scale": s_w, "in_scale": np.float32(s_in), "in_zp": int(zp_in),
            "out_scale": np.float32(s_out), "out_zp": int(zp_out), "relu": layer["kind"] == "conv",
        })
        s_in, zp_in = np.float32(s_out), int(zp_out)
    return layers


def requant_double_rounding(acc, mult, shift, zp_out, lo):
    """gemmlowp's two-step MultiplyByQuantizedMultiplier (SaturatingRoundingDoublingHighMul, then
    RoundingDivideByPOT), vectorised: acc int64 [N, M] of int32 values, mult/shift [M]. LiteRT
    2.3's reference int8 CONV_2D (BUILTIN_REF) rounds this way, unlike its FULLY_CONNECTED and
    SPEC §7's single rounding; the two differ by 1 when the first step lands on a tie of the
    second (tests/linear/tflite_fc.py has the scalar version)."""
    shift = shift.astype(np.int64)
    a = acc.astype(np.int64) << np.maximum(shift, 0)
    a = ((a + (1 << 31)) % (1 << 32)) - (1 << 31)  # the int32 left shift
    v = a * mult.astype(np.int64) + np.where(a * mult >= 0, 1 << 30, 1 - (1 << 30))
    hi = np.where(v >= 0, v >> 31, -((-v) >> 31))  # C++ division truncates toward zero
    e = np.maximum(-shift, 0)
    mask = (np.int64(1) << e) - 1
    r = (hi >> e) + ((hi & mask) > (mask >> 1) + (hi < 0)).astype(np.int64)
    return np.clip(r + zp_out, lo, 127).astype(np.int8)


def conv_ref(cols, w, bias, mult, shift, zp_in, zp_out, relu):
    """An int8 CONV_2D as LiteRT's reference kernel computes it, on its im2col cols [N x K]:
    the SPEC §7 accumulator, then requant_double_rounding."""
    acc = (cols.astype(np.int64) - zp_in) @ w.astype(np.int64).T + bias.astype(np.int64)
    acc = ((acc + (1 << 31)) % (1 << 32)) - (1 << 31)
    return requant_double_rounding(acc, mult, shift, zp_out, max(-128, zp_out) if relu else -128)


def forward_int8(layers, x, batch=100, conv_rounding="double"):
    """The int8 network in NumPy: each CONV_2D an im2col GEMM whose padded positions hold the
    input zero point (SPEC §8), requantized with LiteRT's reference rounding (conv_ref; "single":
    SPEC §7's quant.linear_ref instead), each FULLY_CONNECTED quant.linear_ref; float32 pixels
    in, float32 logits out (DEQUANTIZE: float(double(scale) * (q - zp)), as LiteRT)."""
    conv = conv_ref if conv_rounding == "double" else quant.linear_ref
    outs = []
    for s in range(0, len(x), batch):
        h = np.clip(np.round(x[s:s + batch]) + IN_ZP, -128, 127).astype(np.int8)
        for q in layers:
            o = q["w"].shape[0]
            wm = q["w"].reshape(o, -1)
            if q["kind"] == "conv":
                cols = convnet.im2col(h, pad_value=q["in_zp"])
                y = conv(cols.reshape(-1, cols.shape[-1]), wm, q["bias"], q["mult"], q["shift"],
                         q["in_zp"], q["out_zp"], q["relu"])
                h = convnet.maxpool(y.reshape(cols.shape[:3] + (o,)))[0]
            else:
                h = quant.linear_ref(h.reshape(len(h), -1), wm, q["bias"], q["mult"], q["shift"],
                                     q["in_zp"], q["out_zp"], q["relu"])
        last = layers[-1]
        outs.append((np.float64(last["out_scale"]) * (h.astype(np.float64) - last["out_zp"])).astype(np.float32))
    return np.concatenate(outs)


# ---------------------------------------------------------------- .tflite (LiteRT's schema)

def _conv_options(relu):
    o = sch.Conv2DOptionsT()
    o.padding = sch.Padding.SAME
    o.strideW = o.strideH = 1
    o.dilationWFactor = o.dilationHFactor = 1
    o.fusedActivationFunction = sch.ActivationFunctionType.RELU if relu else sch.ActivationFunctionType.NONE
    return sch.BuiltinOptions.Conv2DOptions, o


def _pool_options():
    o = sch.Pool2DOptionsT()
    o.padding = sch.Padding.VALID
    o.strideW = o.strideH = 2
    o.filterWidth = o.filterHeight = 2
    o.fusedActivationFunction = sch.ActivationFunctionType.NONE
    return sch.BuiltinOptions.Pool2DOptions, o


def _fc_options():
    o = sch.FullyConnectedOptionsT()
    o.fusedActivationFunction = sch.ActivationFunctionType.NONE
    o.weightsFormat = sch.FullyConnectedOptionsWeightsFormat.DEFAULT
    o.keepNumDims = False
    return sch.BuiltinOptions.FullyConnectedOptions, o


def _reshape(b, src, shape, ttype, scales=None, zps=None):
    shp = b.tensor("flatten/shape", (2,), sch.TensorType.INT32, data=np.array(shape, "<i4"))
    dst = b.tensor("flatten", shape, ttype, scales, zps)
    o = sch.ReshapeOptionsT()
    o.newShape = list(shape)
    b.op(sch.BuiltinOperator.RESHAPE, 1, [src, shp], [dst], sch.BuiltinOptions.ReshapeOptions, o)
    return dst


def export_int8(layers, side=28):
    """The int8 model: float32 pixels in, QUANTIZE, the layers, DEQUANTIZE, float32 logits out."""
    B = sch.BuiltinOperator
    T = sch.TensorType
    b = tflbuild.Builder("sparse24 MNIST CNN, int8 per-channel (net/cnn.py)")
    x = b.tensor("input", (1, side, side, 1), T.FLOAT32)
    h = b.tensor("input_int8", (1, side, side, 1), T.INT8, [1.0], [IN_ZP])
    b.op(B.QUANTIZE, 2, [x], [h])
    hw, c = side, 1
    for i, q in enumerate(layers):
        o = q["w"].shape[0]
        s_b = [float(np.float32(q["in_scale"])) * float(sw) for sw in q["w_scale"]]
        wt = b.tensor(f"{q['kind']}{i}/w", q["w"].shape, T.INT8, q["w_scale"], [0] * o, 0, q["w"])
        bt = b.tensor(f"{q['kind']}{i}/b", (o,), T.INT32, s_b, [0] * o, 0, q["bias"].astype("<i4"))
        act = ([q["out_scale"]], [q["out_zp"]])
        if q["kind"] == "conv":
            y = b.tensor(f"conv{i}", (1, hw, hw, o), T.INT8, *act)
            b.op(B.CONV_2D, 3, [h, wt, bt], [y], *_conv_options(q["relu"]))
            hw //= 2
            h = b.tensor(f"pool{i}", (1, hw, hw, o), T.INT8, *act)
            b.op(B.MAX_POOL_2D, 2, [y], [h], *_pool_options())
            c = o
        else:
            if i > 0 and layers[i - 1]["kind"] == "conv":
                h = _reshape(b, h, (1, hw * hw * c), T.INT8, [q["in_scale"]], [q["in_zp"]])
            h2 = b.tensor(f"fc{i}", (1, o), T.INT8, *act)
            b.op(B.FULLY_CONNECTED, 4, [h, wt, bt], [h2], *_fc_options())
            h = h2
    y = b.tensor("logits", (1, layers[-1]["w"].shape[0]), T.FLOAT32)
    b.op(B.DEQUANTIZE, 2, [h], [y])
    return b.finish([x], [y])


def export_float(net, side=28):
    """The float network as a float32 .tflite (same graph without QUANTIZE/DEQUANTIZE)."""
    B = sch.BuiltinOperator
    T = sch.TensorType
    b = tflbuild.Builder("sparse24 MNIST CNN, float32 (net/cnn.py)")
    x = h = b.tensor("input", (1, side, side, 1), T.FLOAT32)
    hw, c = side, 1
    for i, layer in enumerate(net):
        w = layer["w"] * (convnet.IN_SCALE if i == 0 else np.float32(1.0))
        o = w.shape[0]
        wt = b.tensor(f"{layer['kind']}{i}/w", w.shape, T.FLOAT32, data=w.astype("<f4"))
        bt = b.tensor(f"{layer['kind']}{i}/b", (o,), T.FLOAT32, data=layer["b"].astype("<f4"))
        if layer["kind"] == "conv":
            y = b.tensor(f"conv{i}", (1, hw, hw, o), T.FLOAT32)
            b.op(B.CONV_2D, 1, [h, wt, bt], [y], *_conv_options(True))
            hw //= 2
            h = b.tensor(f"pool{i}", (1, hw, hw, o), T.FLOAT32)
            b.op(B.MAX_POOL_2D, 1, [y], [h], *_pool_options())
            c = o
        else:
            h = _reshape(b, h, (1, hw * hw * c), T.FLOAT32)
            h2 = b.tensor("logits", (1, o), T.FLOAT32)
            b.op(B.FULLY_CONNECTED, 1, [h, wt, bt], [h2], *_fc_options())
            h = h2
    return b.finish([x], [h])


def litert(model_bytes, x):
    """LiteRT's reference kernels (BUILTIN_REF) on every image of x, one inference each:
    the stacked outputs [len(x), ...]."""
    return np.stack([y[0] for y in tflbuild.ref_outputs(model_bytes, x)])


# ---------------------------------------------------------------- sparse24 run (SPEC §8)

def sparse24_has_run(exe):
    r = subprocess.run([exe, "run", "--help"], capture_output=True, text=True)
    return r.returncode == 0


def sparse24_run(exe, model_path, x_path, y_path, backend="rtl"):
    """`sparse24 run MODEL X -o Y --backend B --stats`: (Y, stats dict, total cycles or None)."""
    cmd = [exe, "run", model_path, x_path, "-o", y_path, "--backend", backend, "--stats"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()}")
    stats = dict(line.split(": ", 1) for line in r.stdout.splitlines() if ": " in line)
    total = stats.get("cycles")  # the total over the layers (opN_cycles: per layer)
    return np.load(y_path), stats, int(total) if total is not None else None


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def check_prune(exe, out, results):
    """`sparse24 prune MODEL --pattern N:M` (SPEC §8) leaves every pruned variant's .tflite byte
    for byte unchanged: the NumPy pruning (K padded to a multiple of m for the choice) and the
    int8 export keep exactly the pattern the command would cut. Returns False on a difference."""
    ok = True
    checked = []
    for name, r in results.items():
        if "lite" not in r or r["pattern"] == "dense":
            continue
        dst = os.path.join(out, f"mnist_cnn_{name}_pruned.tflite")
        cmd = [exe, "prune", r["path"], "-o", dst, "--pattern", r["pattern"]]
        p = subprocess.run(cmd, capture_output=True, text=True)
        same = p.returncode == 0 and _read(dst) == _read(r["path"])
        if not same:
            log(f"{name}: {' '.join(cmd)}: {p.stderr.strip() or 'the model changed'}")
            ok = False
        checked.append(name)
    log(f"sparse24 prune leaves the pruned models unchanged ({', '.join(checked)}): "
        f"{'yes' if ok else 'NO'}")
    return ok


def run_on_sparse24(exe, out, results, inputs, backends):
    """The int8 variants through `sparse24 run --backend B` for B in backends, on the test images
    inputs[B] = (X.npy path, count), the output bytes compared with LiteRT's. Fills
    results[name]["bitexact"] ("yes" when every comparison made matched) and ["cycles"] (the rtl
    total); returns False when an output differs or a run fails. Skipped, with a message, when
    the command has no `run`."""
    if not sparse24_has_run(exe):
        log(f"sparse24 run: {exe} has no 'run' command yet (SPEC §8); bitexact_litert and cycles "
            f"stay n/a")
        return True
    ok = check_prune(exe, out, results)
    for name, r in results.items():
        if "lite" not in r:
            continue
        for backend in backends:
            x_path, count = inputs[backend]
            t = time.time()
            y_path = os.path.join(out, f"mnist_cnn_{name}_Y_{backend}.npy")
            try:
                y, stats, cycles = sparse24_run(exe, r["path"], x_path, y_path, backend)
            except RuntimeError as e:
                log(f"{name}: sparse24 run --backend {backend} failed: {e}")
                ok = False
                continue
            want = r["lite"][:count]
            exact = y.dtype == want.dtype and y.shape == want.shape and y.tobytes() == want.tobytes()
            ok &= exact
            r["bitexact"] = "yes" if exact and r.get("bitexact", "yes") == "yes" else "no"
            if backend == "rtl":
                r["cycles"] = cycles if cycles is not None else "n/a"
            log(f"{name}: sparse24 run --backend {backend} on {count} images == LiteRT: "
                f"{'yes' if exact else 'NO'}, {cycles if backend == 'rtl' else 'n/a'} cycles "
                f"(predicted {stats.get('predicted_cycles', 'n/a')}) ({time.time() - t:.0f} s)")
            if backend == "rtl" and cycles is None:
                log(f"  no 'cycles' key in --stats: {stats}")
            if not exact and y.shape == want.shape:
                bad = np.argwhere(y != want)
                single = r["single"][:count]
                log(f"  {len(bad)} values in {len(np.unique(bad[:, 0]))} images differ, first at "
                    f"{bad[0].tolist()}; sparse24 == NumPy with SPEC §7's single rounding in the "
                    f"convs: {'yes' if y.tobytes() == single.tobytes() else 'no'}")
    return ok


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sparse24")
    ap.add_argument("out")
    ap.add_argument("--mnist", default=os.path.expanduser("~/.cache/sparse24/mnist/mnist_5k.csv.gz"),
                    help="mnist_5k.csv.gz (scripts/deps.sh --mnist-path)")
    ap.add_argument("--quick", action="store_true", help="8/16 channels, few epochs (make test)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backends", default="model,rtl",
                    help="the backends of `sparse24 run` to compare with LiteRT ('' for none)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    t0 = time.time()
    c1, c2 = (8, 16) if a.quick else (16, 32)
    epochs, ft_epochs = (3, 1) if a.quick else (20, 10)
    lr, ft_lr, augment = 2e-3, 1e-3, 1
    rng = np.random.default_rng(a.seed)
    xtr, ytr, xte, yte = convnet.mnist(a.mnist)
    log(f"cnn: MNIST ({a.mnist}), {len(xtr)} train / {len(xte)} test, conv3x3({c1}) -> maxpool -> "
        f"conv3x3({c2}) -> maxpool -> fc(10), {epochs} epochs dense + {ft_epochs} masked "
        f"fine-tuning, seed {a.seed}{' (quick)' if a.quick else ''}")
    x_path = os.path.join(a.out, "mnist_test_X.npy")
    np.save(x_path, xte)
    np.save(os.path.join(a.out, "mnist_test_y.npy"), yte)

    dense = convnet.train(convnet.init(rng, c1, c2), xtr, ytr, epochs, rng, lr=lr, augment=augment)
    log(f"fp32_dense: accuracy {convnet.accuracy(dense, xte, yte):.4f} (NumPy) "
        f"({time.time() - t0:.0f} s)")

    variants = [("int8_dense", "dense", dense)]
    if a.quick:
        recipe = [("int8_2of4_ft", (2, 4), False, True)]
    else:
        recipe = [("int8_2of4_oneshot", (2, 4), False, False),
                  ("int8_2of4_perm_oneshot", (2, 4), True, False),
                  ("int8_2of4_ft", (2, 4), False, True),
                  ("int8_2of4_perm_ft", (2, 4), True, True),
                  ("int8_1of4_ft", (1, 4), False, True),
                  ("int8_1of4_perm_ft", (1, 4), True, True),
                  ("int8_2of8_ft", (2, 8), False, True)]
    permuted = {}
    for name, (n, m), perm, ft in recipe:
        base = dense
        if perm:
            if (n, m) not in permuted:
                permuted[(n, m)] = permute(dense, n, m)
            base = permuted[(n, m)]
        net, masks = convnet.prune(base, n, m)
        if ft:
            net = convnet.train(net, xtr, ytr, ft_epochs, np.random.default_rng(a.seed + 1),
                                lr=ft_lr, masks=masks, augment=augment)
        log(f"{name}: float accuracy after pruning{' + fine-tuning' if ft else ''}: "
            f"{convnet.accuracy(net, xte, yte):.4f} ({time.time() - t0:.0f} s)")
        variants.append((name, f"{n}:{m}", net))

    results = {}
    all_ok = True
    blob = export_float(dense)
    path = os.path.join(a.out, "mnist_cnn_fp32_dense.tflite")
    with open(path, "wb") as f:
        f.write(blob)
    lite = litert(blob, xte)
    results["fp32_dense"] = {"pattern": "dense", "path": path,
                             "acc": float(np.mean(np.argmax(lite, axis=1) == yte))}
    log(f"fp32_dense: LiteRT accuracy {results['fp32_dense']['acc']:.4f} "
        f"(max |LiteRT - NumPy| logit {np.abs(lite - convnet.forward(dense, xte)).max():.2e})")
    for name, pattern, net in variants:
        ranges = convnet.layer_outputs(net, xtr)
        layers = quantize(net, ranges)
        if pattern != "dense":
            n, m = map(int, pattern.split(":"))
            for q in layers:  # int8 weights keep the pattern (zeros stay zeros)
                assert np.array_equal(q["w"] * convnet.nm_mask(q["w"].astype(np.float32), n, m), q["w"])
        blob = export_int8(layers)
        path = os.path.join(a.out, f"mnist_cnn_{name}.tflite")
        with open(path, "wb") as f:
            f.write(blob)
        lite = litert(blob, xte)
        ref = forward_int8(layers, xte)
        same = lite.tobytes() == ref.tobytes()
        all_ok &= same
        single = forward_int8(layers, xte, conv_rounding="single")
        acc = float(np.mean(np.argmax(lite, axis=1) == yte))
        results[name] = {"pattern": pattern, "path": path, "acc": acc, "lite": lite, "single": single}
        log(f"{name}: int8 accuracy {acc:.4f} (LiteRT BUILTIN_REF), LiteRT == NumPy int8 "
            f"for all {len(xte)} images: {'yes' if same else 'NO'}; with SPEC §7's single "
            f"rounding in the convs {int(np.sum(np.any(single != lite, axis=1)))} images' logits "
            f"differ, accuracy {float(np.mean(np.argmax(single, axis=1) == yte)):.4f} "
            f"({time.time() - t0:.0f} s)")

    if a.quick:
        for name in ("int8_dense", "int8_2of4_ft"):
            if not results[name]["acc"] > 0.5:
                log(f"cnn: {name} accuracy {results[name]['acc']:.4f} is not far above chance (0.1)")
                all_ok = False
    else:
        d, s = results["int8_dense"]["acc"], results["int8_2of4_perm_ft"]["acc"]
        log(f"2:4 fine-tuned (perm) vs dense int8: {100 * (s - d):+.2f} points (target within 1.0); "
            f"without permutation {100 * (results['int8_2of4_ft']['acc'] - d):+.2f}; 1:4 "
            f"{100 * (results['int8_1of4_perm_ft']['acc'] - d):+.2f} (perm), "
            f"{100 * (results['int8_1of4_ft']['acc'] - d):+.2f}; 2:8 "
            f"{100 * (results['int8_2of8_ft']['acc'] - d):+.2f}")

    limit = 100 if a.quick else len(xte)  # the RTL simulation of make test stays short
    inputs = {"model": (x_path, len(xte)), "rtl": (x_path, len(xte))}
    if limit < len(xte):
        inputs["rtl"] = (os.path.join(a.out, f"mnist_test_X{limit}.npy"), limit)
        np.save(inputs["rtl"][0], xte[:limit])
    backends = [b for b in a.backends.split(",") if b]
    all_ok &= run_on_sparse24(a.sparse24, a.out, results, inputs, backends)

    with open(os.path.join(a.out, "mnist_cnn.csv"), "w") as f:
        f.write(CSV_HEADER + "\n")
        for name, r in results.items():
            f.write(f"{name},{r['pattern']},{r['acc']:.4f},{r.get('bitexact', 'n/a')},"
                    f"{r.get('cycles', 'n/a')}\n")
    log(f"wrote {os.path.join(a.out, 'mnist_cnn.csv')} ({time.time() - t0:.0f} s)")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
