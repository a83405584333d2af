# SPDX-License-Identifier: Apache-2.0
"""Which requantization LiteRT 2.3.0's BUILTIN_REF kernels compute for int8 CONV_2D and
FULLY_CONNECTED (per-channel weights): random one-layer models are run in LiteRT and every output
is compared with three candidates computed here from the exact int32 accumulator:
  double:  gemmlowp's two roundings, RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(
           acc * 2^max(shift,0), q), max(-shift,0)) (TFLite built without TFLITE_SINGLE_ROUNDING)
  single:  (acc * q + 2^(30 - shift)) >> (31 - shift) (SPEC §7, TFLITE_SINGLE_ROUNDING)
  float:   round-half-away(acc * (double)s_in * s_w / s_out) (the float requantization of
           reference_integer_ops::FullyConnectedPerChannel since 2025)
with (q, shift) = QuantizeMultiplier(s_in * s_w / s_out). Prints, per operator, how many outputs
each candidate reproduces.

usage: ref_rounding.py [--models N] [--seed S]
Seen with the repository's venv: CONV_2D = double on every output (single differs on ~0.1 %),
FULLY_CONNECTED = float = single (double differs on ~0.2 %).
"""
import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ops_models as om  # noqa: E402
from ops_models import Model, OP, OPT, TT, sch  # noqa: E402


def quantize_multiplier(x):
    f, e = math.frexp(x)
    q = int(math.floor(f * (1 << 31) + 0.5))
    if q == 1 << 31:
        q, e = q // 2, e + 1
    return (0, 0) if e < -31 else (q, e)


def srdhm(a, b):
    if a == b == -2 ** 31:
        return 2 ** 31 - 1
    v = a * b + ((1 << 30) if a * b >= 0 else 1 - (1 << 30))
    return (abs(v) >> 31) * (1 if v >= 0 else -1)  # C++ division truncates toward zero


def rdbpot(x, e):
    mask = (1 << e) - 1
    return (x >> e) + (1 if (x & mask) > (mask >> 1) + (1 if x < 0 else 0) else 0)


def double_rounding(acc, q, s):
    x = ((acc << max(s, 0)) + 2 ** 31) % 2 ** 32 - 2 ** 31
    return rdbpot(srdhm(x, q), max(-s, 0))


def single_rounding(acc, q, s):
    return (acc * q + (1 << (30 - s))) >> (31 - s)


def float_rounding(acc, eff):
    v = acc * eff
    return int(math.floor(abs(v) + 0.5)) * (1 if v >= 0 else -1)


def layer(rng, kind):
    c_in, c_out = int(rng.integers(1, 9)), int(rng.integers(1, 9))
    s_in, z_in, s_out, z_out = om.scale(rng), om.zp(rng), om.scale(rng), om.zp(rng)
    s_w = (10.0 ** rng.uniform(-3, -1, size=c_out)).astype(np.float32)
    m = Model()
    if kind == "CONV_2D":
        wgt = om.i8(rng, (c_out, 3, 3, c_in))
        x = m.tensor("x", (1, 5, 5, c_in), TT.INT8, s_in, z_in)
        yshape = (1, 3, 3, c_out)
        xs = om.i8(rng, (4, 5, 5, c_in))
    else:
        k = int(rng.integers(4, 40))
        wgt = om.i8(rng, (c_out, k))
        x = m.tensor("x", (1, k), TT.INT8, s_in, z_in)
        yshape = (1, c_out)
        xs = om.i8(rng, (4, k))
    wgt[wgt == -128] = -127
    bias = rng.integers(-5000, 5000, size=c_out).astype(np.int32)
    wt = m.tensor("w", wgt.shape, TT.INT8, s_w, np.zeros(c_out, np.int64), wgt, qdim=0)
    bt = m.tensor("b", (c_out,), TT.INT32, (np.float32(s_in) * s_w).astype(np.float32),
                  np.zeros(c_out, np.int64), bias.astype("<i4"))
    y = m.tensor("y", yshape, TT.INT8, s_out, z_out)
    if kind == "CONV_2D":
        o = sch.Conv2DOptionsT()
        o.padding, o.strideH, o.strideW, o.dilationHFactor, o.dilationWFactor = 1, 1, 1, 1, 1
        m.op(OP.CONV_2D, [x, wt, bt], [y], OPT.Conv2DOptions, o, version=3)
    else:
        m.op(OP.FULLY_CONNECTED, [x, wt, bt], [y], OPT.FullyConnectedOptions,
             sch.FullyConnectedOptionsT(), version=5)
    ref = om.run_ref(m.finish(x, y), xs).astype(np.int64)
    xi = xs.astype(np.int64) - z_in
    if kind == "CONV_2D":
        acc = np.zeros(ref.shape, np.int64)
        for oy in range(3):
            for ox in range(3):
                acc[:, oy, ox, :] = np.einsum("bhwc,ohwc->bo", xi[:, oy:oy + 3, ox:ox + 3, :],
                                              wgt.astype(np.int64))
    else:
        acc = xi @ wgt.astype(np.int64).T
    acc += bias
    counts = np.zeros(4, np.int64)
    for idx in np.ndindex(acc.shape):
        eff = float(np.float32(s_in)) * float(s_w[idx[-1]]) / float(np.float32(s_out))
        q, s = quantize_multiplier(eff)
        a, r = int(acc[idx]), int(ref[idx])

        def clamp(v):
            return min(127, max(-128, v + z_out))
        counts += [1, clamp(double_rounding(a, q, s)) == r, clamp(single_rounding(a, q, s)) == r,
                   clamp(float_rounding(a, eff)) == r]
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=int, default=200, help="models per operator")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"ref_rounding.py: seed {args.seed}, {args.models} models per operator")
    for kind in ("CONV_2D", "FULLY_CONNECTED"):
        c = sum(layer(rng, kind) for _ in range(args.models))
        print(f"{kind}: {c[0]} outputs; equal to double rounding {c[1]}, single rounding {c[2]}, "
              f"float requantization {c[3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
