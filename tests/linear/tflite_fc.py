# SPDX-License-Identifier: Apache-2.0
"""int8 per-channel FULLY_CONNECTED models as .tflite flatbuffers, without TensorFlow.

Builds models with the flatbuffers schema that LiteRT ships (ai_edge_litert.schema_py_generated),
runs them in LiteRT (reference and optimized kernels), and derives the SPEC §7 parameters
(MULT/SHIFT = TFLite's QuantizeMultiplier of s_in*s_w[m]/s_out, in double as LiteRT does).
A network is a chain of layers: each layer's int8 output is the next one's input.
"""
import math
import os
import sys

import numpy as np
from ai_edge_litert import schema_py_generated as sch
from ai_edge_litert.interpreter import Interpreter, OpResolverType

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "net"))
import tflbuild  # noqa: E402


def quantize_multiplier(x):
    """TFLite QuantizeMultiplier (kernels/internal/quantization_util.cc) of a double > 0:
    (q, shift) with x ~= q * 2^(shift - 31), 2^30 <= q < 2^31."""
    if x == 0.0:
        return 0, 0
    frac, shift = math.frexp(x)
    q = int(round(frac * (1 << 31)))  # TfLiteRound: half away from zero (frac > 0 here)
    if q == (1 << 31):
        q //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    if shift > 30:
        return (1 << 31) - 1, 30
    return q, shift


def layer_params(s_in, s_w, s_out):
    """MULT, SHIFT int32 [M] of a layer, as LiteRT's per-channel FULLY_CONNECTED computes them
    (float32 scales, product and quotient in double)."""
    mult = np.zeros(len(s_w), np.int32)
    shift = np.zeros(len(s_w), np.int32)
    for m, sw in enumerate(s_w):
        eff = float(np.float32(s_in)) * float(np.float32(sw)) / float(np.float32(s_out))
        mult[m], shift[m] = quantize_multiplier(eff)
    return mult, shift


# TFLite's fused activations of FULLY_CONNECTED (schema ActivationFunctionType)
ACTIVATIONS = ("NONE", "RELU", "RELU6", "RELU_N1_TO_1")


def _round_away(v):
    """TfLiteRound of a float: half away from zero (v is a float32, exact in double)."""
    r = math.floor(abs(v) + 0.5)
    return int(r) if v >= 0 else -int(r)


def act_range(act, s_out, zo):
    """TFLite's CalculateActivationRangeQuantized (kernels/kernel_util.cc) for an int8 output of
    scale s_out and zero point zo: (act_min, act_max), the bounds of SPEC §7's clamp. The
    quantized value of f is zo + TfLiteRound(f / scale), computed in float32 as LiteRT does."""
    s = np.float32(s_out)

    def quantize(f):
        return zo + _round_away(float(np.float32(np.float32(f) / s)))

    if act == "NONE":
        return -128, 127
    if act == "RELU":
        return max(-128, quantize(0.0)), 127
    if act == "RELU6":
        return max(-128, quantize(0.0)), min(127, quantize(6.0))
    if act == "RELU_N1_TO_1":
        return max(-128, quantize(-1.0)), min(127, quantize(1.0))
    raise ValueError(f"activation {act}")


def layer_act(L):
    """A layer's fused activation: L["act"] (one of ACTIVATIONS), else RELU when L["relu"]."""
    act = L.get("act", "RELU" if L.get("relu") else "NONE")
    if act not in ACTIVATIONS:
        raise ValueError(f"activation {act}")
    return act


def build_model(batch, layers, s_in, zi):
    """A .tflite model (bytes) of FULLY_CONNECTED int8 layers in a chain.

    layers: list of dicts with w (int8 [M, K]), s_w (float [M]), bias (int32 [M]),
    s_out (float), zo (int), and the fused activation: act (one of ACTIVATIONS) or relu (bool,
    RELU when true). The input is int8 [batch, K0] with scale s_in and
    zero point zi; the output is the last layer's int8 [batch, M_last]."""
    b = tflbuild.Builder("sparse24 int8 per-channel FULLY_CONNECTED")
    k0 = layers[0]["w"].shape[1]
    x = b.tensor("x", (batch, k0), sch.TensorType.INT8, [s_in], [zi])
    cur, cur_scale = x, s_in
    for i, L in enumerate(layers):
        w = np.asarray(L["w"], np.int8)
        m = w.shape[0]
        s_w = np.asarray(L["s_w"], np.float32)
        wt = b.tensor(f"w{i}", w.shape, sch.TensorType.INT8, s_w, [0] * m, 0, w)
        s_b = [float(np.float32(cur_scale)) * float(sw) for sw in s_w]
        bt = b.tensor(f"b{i}", (m,), sch.TensorType.INT32, s_b, [0] * m, 0,
                      np.asarray(L["bias"], "<i4"))
        yt = b.tensor(f"y{i}", (batch, m), sch.TensorType.INT8, [L["s_out"]], [L["zo"]])
        opt = sch.FullyConnectedOptionsT()
        opt.fusedActivationFunction = getattr(sch.ActivationFunctionType, layer_act(L))
        opt.weightsFormat = sch.FullyConnectedOptionsWeightsFormat.DEFAULT
        opt.keepNumDims = False
        b.op(sch.BuiltinOperator.FULLY_CONNECTED, 4, [cur, wt, bt], [yt],
             sch.BuiltinOptions.FullyConnectedOptions, opt)
        cur, cur_scale = yt, L["s_out"]
    return b.finish([x], [cur])


def requant_double_rounding(acc, mult, shift, zo, lo, top=127):
    """gemmlowp's two-step rounding (SaturatingRoundingDoublingHighMul, then
    RoundingDivideByPOT), which TFLite uses when built without TFLITE_SINGLE_ROUNDING. It can
    differ from SPEC §7's single rounding by 1 when the first step rounds onto a tie of the second.
    acc: int64 array [B, M]; mult, shift [M]. Returns int8 [B, M]."""
    out = np.zeros(acc.shape, np.int8)
    for (b, m), a in np.ndenumerate(acc):
        a = int(a) << max(int(shift[m]), 0)
        a = (a + (1 << 31)) % (1 << 32) - (1 << 31)  # int32 wrap of the left shift
        ab = a * int(mult[m])
        nudge = (1 << 30) if ab >= 0 else 1 - (1 << 30)
        v = ab + nudge
        hi = abs(v) >> 31
        hi = hi if v >= 0 else -hi  # C++ division truncates toward zero
        e = max(-int(shift[m]), 0)
        mask = (1 << e) - 1
        thr = (mask >> 1) + (1 if hi < 0 else 0)
        r = (hi >> e) + (1 if (hi & mask) > thr else 0)
        out[b, m] = min(top, max(lo, r + zo))
    return out


# LiteRT's kernel sets: the reference kernels, the optimized builtin kernels, and the default
# (optimized kernels with the XNNPACK delegate applied)
KERNELS = {
    "ref": OpResolverType.BUILTIN_REF,
    "opt": OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES,
    "xnnpack": OpResolverType.AUTO,
}


def run(model_bytes, x, kernels):
    """Runs the model on int8 x in LiteRT with one of KERNELS. Returns the int8 output."""
    it = Interpreter(model_content=model_bytes, num_threads=1,
                     experimental_op_resolver_type=KERNELS[kernels])
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], np.asarray(x, np.int8))
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]["index"]).copy()
