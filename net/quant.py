# SPDX-License-Identifier: Apache-2.0
"""Int8 side of `make model`: post-training quantization as TFLite does it, and SPEC §7's
fused int8 layer in NumPy (the arithmetic of `sparse24 linear`, used to cross-check it).

Per-channel symmetric int8 weights (zero point 0, range [-127, 127]), asymmetric int8
activations from calibration min/max, int32 bias at scale s_in*s_w[m], and MULT/SHIFT from
TFLite's QuantizeMultiplier of s_in*s_w[m]/s_out computed in double from the float32 scales
stored in the model.
"""

import math

import numpy as np


def act_params(lo, hi):
    """Asymmetric int8 (scale, zero point) of a float range, widened to contain 0 (TFLite's
    ChooseQuantizationParams: zero point nudged to an integer in [-128, 127])."""
    lo, hi = min(float(lo), 0.0), max(float(hi), 0.0)
    if hi == lo:
        return np.float32(1.0), 0
    scale = np.float32((hi - lo) / 255.0)
    zp = int(round(-128 - lo / float(scale)))
    return scale, max(-128, min(127, zp))


def quantize_acts(x, scale, zp):
    return np.clip(np.round(x / np.float64(scale)) + zp, -128, 127).astype(np.int8)


def weight_params(w, b, s_in):
    """Per-output-channel symmetric scales (float32) and int8 weights; zeros stay zeros, so an
    N:M pruned float layer gives an N:M int8 layer. A channel whose weights are tiny next to
    its bias gets a larger scale, so that the bias fits int32 at scale s_in*s_w (what TFLite's
    converter does for such channels)."""
    amax = np.abs(w).max(axis=1).astype(np.float64)
    scale = np.where(amax > 0, amax / 127.0, 1.0)
    floor = np.abs(b).astype(np.float64) / (float(s_in) * (2.0 ** 31 - 2 ** 20))
    scale = np.maximum(scale, floor).astype(np.float32)
    q = np.clip(np.round(w / scale[:, None].astype(np.float64)), -127, 127).astype(np.int8)
    return scale, q


def quantize_multiplier(real):
    """TFLite's QuantizeMultiplier: real = mult * 2^(shift - 31), 2^30 <= mult < 2^31."""
    if real == 0.0:
        return 0, 0
    frac, shift = math.frexp(real)
    mult = int(round(frac * (1 << 31)))
    if mult == 1 << 31:
        mult //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    if shift > 30:
        raise ValueError(f"multiplier {real} too large for int8 requantization")
    return mult, shift


def linear_ref(x, w, bias, mult, shift, zp_in, zp_out, relu):
    """SPEC §7 with exact integers: int8 X [B x K], W [M x K] -> int8 Y [B x M]."""
    acc = (x.astype(np.int64) - zp_in) @ w.astype(np.int64).T + bias.astype(np.int64)
    acc = ((acc + (1 << 31)) % (1 << 32)) - (1 << 31)  # modulo 2^32, as int32
    t = 31 - shift.astype(np.int64)
    # acc*MULT fits in 63 bits (|acc| < 2^31, MULT < 2^31); numpy's >> on int64 is a floor shift
    r = (acc * mult.astype(np.int64) + (np.int64(1) << (t - 1))) >> t
    lo = max(-128, zp_out) if relu else -128
    return np.clip(r + zp_out, lo, 127).astype(np.int8)


def quantize_net(net, calib_outputs, in_scale, in_zp):
    """Int8 layers of a float network. calib_outputs[i] are float outputs of layer i on the
    calibration set. Returns a list of dicts with everything SPEC §7 and a .tflite need."""
    layers = []
    s_in, zp_in = np.float32(in_scale), int(in_zp)
    for i, (layer, out) in enumerate(zip(net, calib_outputs)):
        relu = i + 1 < len(net)
        s_out, zp_out = act_params(out.min(), out.max())
        s_w, wq = weight_params(layer["w"], layer["b"], s_in)
        bias_scale = np.float64(s_in) * s_w.astype(np.float64)
        bias = np.round(layer["b"].astype(np.float64) / bias_scale)
        assert np.all(np.abs(bias) < 2 ** 31), f"layer {i}: bias does not fit int32"
        mult, shift = zip(*(quantize_multiplier(float(np.float64(s_in) * np.float64(sw) / np.float64(s_out)))
                            for sw in s_w))
        layers.append({
            "w": wq, "bias": bias.astype(np.int32),
            "mult": np.array(mult, np.int32), "shift": np.array(shift, np.int32),
            "w_scale": s_w, "in_scale": s_in, "in_zp": zp_in,
            "out_scale": np.float32(s_out), "out_zp": int(zp_out), "relu": relu,
        })
        s_in, zp_in = np.float32(s_out), int(zp_out)
    return layers


def forward_ref(layers, xq):
    """The whole int8 network in NumPy (SPEC §7 per layer)."""
    h = xq
    for q in layers:
        h = linear_ref(h, q["w"], q["bias"], q["mult"], q["shift"], q["in_zp"], q["out_zp"], q["relu"])
    return h
