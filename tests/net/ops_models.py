# SPDX-License-Identifier: Apache-2.0
"""Single-operator (and tiny multi-operator) int8 .tflite models for the host kernels of the
network runtime (runtime/s24_ops.c, SPEC §8), with LiteRT's BUILTIN_REF outputs as reference.

Builds the models with the flatbuffers schema that LiteRT ships (no TensorFlow), with random
shapes, options, scales and zero points, for every host operator: DEPTHWISE_CONV_2D, ADD (equal
shapes and broadcasting), AVERAGE_POOL_2D, MAX_POOL_2D, PAD, MEAN, RESHAPE, SOFTMAX, QUANTIZE
(float32 -> int8 and int8 -> int8), DEQUANTIZE, STRIDED_SLICE, PACK, the shape computation
SHAPE -> STRIDED_SLICE -> PACK (or CONCATENATION) -> RESHAPE of the MLPerf Tiny
anomaly-detection model, LOGISTIC, TANH, RELU, RELU6, LEAKY_RELU, HARD_SWISH (elementwise, some
cases sweeping all 256 int8 inputs), SUB, MUL (broadcasting both ways), CONCATENATION, SPLIT
(one output, or all of them concatenated back), SQUEEZE, TRANSPOSE, RESIZE_NEAREST_NEIGHBOR (the
data-movement ones on INT8 and sometimes FLOAT32), and ADD / SUB of two activations of one shape
("addpair").

Also models LiteRT refuses (the "refused" cases: int8 CONCATENATION of differing quantization
or with an activation, LOGISTIC's output scale, HARD_SWISH's output exponent, MUL/SUB shapes
that do not broadcast, an uneven SPLIT, SQUEEZE of a dimension not of size 1, a TRANSPOSE entry
out of range, RESIZE_NEAREST_NEIGHBOR's size or rank), which the runtime must refuse too.

usage: ops_models.py OUTDIR [--seed S] [--per-op N] [--batch B]
Writes OUTDIR/<case>/model.tflite, X.npy (the batch [B, ...] of inputs, the model's input being
[1, ...]) and Y.npy (LiteRT's BUILTIN_REF output of each batch element, stacked), or for a
refused case refused.txt (LiteRT's message) instead of Y.npy, and OUTDIR/cases.txt (one case
name a line). Prints the seed and the number of cases.
"""
import argparse
import os
import sys

import numpy as np
from ai_edge_litert import schema_py_generated as sch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "net"))
import tflbuild  # noqa: E402

OP = sch.BuiltinOperator
TT = sch.TensorType
OPT = sch.BuiltinOptions
ACTS = [sch.ActivationFunctionType.NONE, sch.ActivationFunctionType.RELU,
        sch.ActivationFunctionType.RELU6, sch.ActivationFunctionType.RELU_N1_TO_1]


class Model(tflbuild.Builder):
    """A one-subgraph model under construction: net/tflbuild.py's Builder with a scalar or
    per-channel scale and a zero point broadcast to it, one input and one output."""

    def __init__(self):
        super().__init__("sparse24 host-operator test")

    def tensor(self, name, shape, ttype, scale=None, zp=None, data=None, qdim=0):
        if scale is None:
            return super().tensor(name, shape, ttype, data=data)
        sc = np.atleast_1d(np.asarray(scale, np.float32))
        return super().tensor(name, shape, ttype, sc, np.broadcast_to(np.atleast_1d(zp), sc.shape),
                              qdim, data)

    def op(self, code, inputs, outputs, opt_type=OPT.NONE, opt=None, version=1):
        super().op(code, version, inputs, outputs, opt_type, opt)

    def finish(self, inp, out):
        return super().finish([inp], [out])


def run_ref(model_bytes, x):
    """LiteRT BUILTIN_REF output of every batch element of x, stacked. The output shape LiteRT
    computes must be the one the model declares (else the generator has a bug)."""
    sg = sch.ModelT.InitFromPackedBuf(model_bytes, 0).subgraphs[0]
    declared = [int(d) for d in sg.tensors[sg.outputs[0]].shape]
    ys = tflbuild.ref_outputs(model_bytes, x)
    for y in ys:
        if list(y.shape) != declared:
            raise ValueError(f"output shape {list(y.shape)}, declared {declared}")
    return np.concatenate(ys, axis=0)


# ------------------------------------------------------------------------------ random helpers

def out_size(h, w, eh, ew, sh, sw, pad):
    """(pad, oh, ow) of a window eh x ew (dilated extent) at strides sh, sw over h x w: padding
    SAME (0) or VALID (1), VALID turned SAME where the window does not fit."""
    if pad == 1 and (h < eh or w < ew):
        pad = 0
    if pad == 0:
        return pad, -(-h // sh), -(-w // sw)
    return pad, (h - eh) // sh + 1, (w - ew) // sw + 1


def scale(rng, lo=-3.0, hi=-0.5):
    return float(np.float32(10.0 ** rng.uniform(lo, hi)))


def zp(rng):
    z = int(rng.integers(-128, 128))
    return int(rng.choice([-128, 127, 0])) if rng.integers(0, 6) == 0 else z


def act(rng):
    return int(ACTS[rng.integers(0, len(ACTS))])


def i8(rng, shape):
    return rng.integers(-128, 128, size=shape, dtype=np.int8)


def i8h(rng, shape):
    """Random int8 inputs, a third of the time with a quarter of them at the extremes -128, 127
    (hostile for saturation and rounding at the ends of the range)."""
    x = i8(rng, shape)
    if rng.integers(0, 3) == 0:
        pick = rng.random(x.shape) < 0.25
        x[pick] = rng.choice(np.array([-128, 127], np.int8), size=int(pick.sum()))
    return x


def sweep_or_random(rng, B, shape):
    """X for an elementwise operator on a [1, ...] input: every int8 value once (in a random
    order, repeated) in each batch element when the shape has 256 elements or more and a coin
    says so, else i8h."""
    n = int(np.prod(shape[1:]))
    if n >= 256 and rng.integers(0, 2):
        reps = -(-n // 256)
        xs = [np.tile(rng.permutation(256).astype(np.int16) - 128, reps)[:n] for _ in range(B)]
        return np.stack(xs).astype(np.int8).reshape([B] + list(shape[1:]))
    return i8h(rng, [B] + list(shape[1:]))


def rand_shape(rng, lo=1, hi=4, dmax=6):
    """[1, d1, ..., d_{r-1}] with r in [lo, hi]: the leading batch 1 of the model's input."""
    r = int(rng.integers(lo, hi + 1))
    return [1] + [int(rng.integers(1, dmax + 1)) for _ in range(r - 1)]


# ------------------------------------------------------------------------------ cases
# Each returns (model bytes, X with a leading batch dimension B).

def case_depthwise(rng, B):
    h, w = int(rng.integers(1, 13)), int(rng.integers(1, 13))
    c, dm = int(rng.integers(1, 9)), int(rng.choice([1, 1, 2, 3]))
    kh, kw = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    sh, sw = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    dh, dw = (int(rng.integers(1, 4)), int(rng.integers(1, 4))) if rng.integers(0, 3) == 0 else (1, 1)
    pad = int(rng.integers(0, 2))  # SAME 0, VALID 1
    eh, ew = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    pad, oh, ow = out_size(h, w, eh, ew, sh, sw, pad)
    oc = c * dm
    s_in, z_in = scale(rng), zp(rng)
    per_channel = rng.integers(0, 4) != 0
    s_w = (10.0 ** rng.uniform(-3, -1, size=oc if per_channel else 1)).astype(np.float32)
    wgt = i8(rng, (1, kh, kw, oc))
    wgt[wgt == -128] = -127
    acc_std = 73.0 * 128.0 * np.sqrt(kh * kw) / 2
    s_out = float(np.float32(s_in * float(np.mean(s_w)) * acc_std / 50.0 * rng.uniform(0.3, 3)))
    if rng.integers(0, 8) == 0:  # an effective multiplier above 1 (a left shift)
        s_out = float(np.float32(s_in * float(np.min(s_w)) * rng.uniform(0.05, 0.9)))
    z_out = zp(rng)
    m = Model()
    x = m.tensor("x", (1, h, w, c), TT.INT8, s_in, z_in)
    wt = m.tensor("w", wgt.shape, TT.INT8, s_w, np.zeros(len(s_w), np.int64), wgt, qdim=3)
    ins = [x, wt]
    if rng.integers(0, 5) != 0:
        bias = (rng.normal(0, acc_std, size=oc)).astype(np.int32)
        s_b = (np.float32(s_in) * s_w).astype(np.float32)
        ins.append(m.tensor("b", (oc,), TT.INT32, s_b, np.zeros(len(s_b), np.int64),
                            bias.astype("<i4"), qdim=0))
    y = m.tensor("y", (1, oh, ow, oc), TT.INT8, s_out, z_out)
    o = sch.DepthwiseConv2DOptionsT()
    o.padding, o.strideH, o.strideW = pad, sh, sw
    o.dilationHFactor, o.dilationWFactor = dh, dw
    o.depthMultiplier = dm
    o.fusedActivationFunction = act(rng)
    m.op(OP.DEPTHWISE_CONV_2D, ins, [y], OPT.DepthwiseConv2DOptions, o, version=3)
    return m.finish(x, y), i8(rng, (B, h, w, c))


def add_scales(rng):
    """The scales of ADD's and SUB's two inputs and output: sometimes far apart."""
    s1, s2 = scale(rng), scale(rng)
    if rng.integers(0, 5) == 0:  # far apart scales
        s2 = float(np.float32(s1 * 10.0 ** rng.uniform(-3, 3)))
    s_o = float(np.float32(max(s1, s2) * rng.uniform(0.5, 3)))
    if rng.integers(0, 6) == 0:
        s_o = float(np.float32(max(s1, s2) * 10.0 ** rng.uniform(-2, 2)))
    return s1, s2, s_o


def case_add(rng, B):
    rank = int(rng.integers(1, 5))
    shape = [1] + [int(rng.integers(1, 7)) for _ in range(rank - 1)] if rank > 1 else [int(rng.integers(1, 9))]
    if rank == 1:
        shape = [1]
    other = list(shape)
    kind = int(rng.integers(0, 3))  # 0 equal, 1 broadcast dims of 1, 2 lower rank
    if kind == 1:
        other = [d if rng.integers(0, 2) else 1 for d in shape]
    elif kind == 2 and rank > 1:
        other = shape[int(rng.integers(1, rank)):]
    s1, s2, s_o = add_scales(rng)
    z1, z2, z_o = zp(rng), zp(rng), zp(rng)
    m = Model()
    x = m.tensor("x", shape, TT.INT8, s1, z1)
    c = m.tensor("c", other, TT.INT8, s2, z2, i8(rng, other))
    ins = [x, c] if rng.integers(0, 2) else [c, x]
    y = m.tensor("y", np.broadcast_shapes(tuple(shape), tuple(other)), TT.INT8, s_o, z_o)
    o = sch.AddOptionsT()
    o.fusedActivationFunction = act(rng)
    m.op(OP.ADD, ins, [y], OPT.AddOptions, o, version=2)
    return m.finish(x, y), i8(rng, [B] + shape[1:])


def case_pool(rng, B, code):
    h, w, c = int(rng.integers(1, 11)), int(rng.integers(1, 11)), int(rng.integers(1, 6))
    if rng.integers(0, 3) == 0:  # whole words a pixel: the average's word-wise sums (16-channel
        c = 4 * int(rng.integers(1, 21))  # groups, a group's 1-3 tail words, 64-channel chunks)
    fh, fw = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    sh, sw = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    pad = int(rng.integers(0, 2))
    if rng.integers(0, 6) == 0:  # global pooling, as the MLPerf models end (25 x 5 in kws)
        h, w = int(rng.integers(1, 30)), int(rng.integers(1, 30))
        fh, fw, sh, sw, pad = h, w, h, w, 1
    pad, oh, ow = out_size(h, w, fh, fw, sh, sw, pad)
    s, z = scale(rng), zp(rng)
    m = Model()
    x = m.tensor("x", (1, h, w, c), TT.INT8, s, z)
    y = m.tensor("y", (1, oh, ow, c), TT.INT8, s, z)
    o = sch.Pool2DOptionsT()
    o.padding, o.strideH, o.strideW, o.filterHeight, o.filterWidth = pad, sh, sw, fh, fw
    o.fusedActivationFunction = act(rng)
    m.op(code, [x], [y], OPT.Pool2DOptions, o, version=2)
    return m.finish(x, y), i8(rng, (B, h, w, c))


def case_avgpool(rng, B):
    return case_pool(rng, B, OP.AVERAGE_POOL_2D)


def case_maxpool(rng, B):
    return case_pool(rng, B, OP.MAX_POOL_2D)


def case_pad(rng, B):
    rank = int(rng.integers(1, 6))
    shape = [1] + [int(rng.integers(1, 6)) for _ in range(rank - 1)]
    pads = rng.integers(0, 4, size=(rank, 2)).astype(np.int32)
    pads[0] = 0  # the batch dimension stays 1
    s, z = scale(rng), zp(rng)
    m = Model()
    x = m.tensor("x", shape, TT.INT8, s, z)
    p = m.tensor("p", (rank, 2), TT.INT32, data=pads.astype("<i4"))
    y = m.tensor("y", [d + int(a) + int(b) for d, (a, b) in zip(shape, pads)], TT.INT8, s, z)
    m.op(OP.PAD, [x, p], [y], OPT.PadOptions, sch.PadOptionsT(), version=2)
    return m.finish(x, y), i8(rng, [B] + shape[1:])


def case_mean(rng, B):
    rank = int(rng.integers(2, 5))
    shape = [1] + [int(rng.integers(1, 8)) for _ in range(rank - 1)]
    if rng.integers(0, 6) == 0:  # large reductions (kws: 25 x 5; up to 60 x 50)
        rank, shape = 4, [1, int(rng.integers(10, 61)), int(rng.integers(5, 51)), int(rng.integers(1, 4))]
    if rank == 4 and rng.integers(0, 2):
        axes, keep = [1, 2], bool(rng.integers(0, 3) != 0)  # global average pooling
    else:
        k = int(rng.integers(1, rank))
        axes = sorted(rng.choice(np.arange(1, rank), size=k, replace=False).tolist())
        keep = bool(rng.integers(0, 2))
    axes_f = [a - rank if rng.integers(0, 3) == 0 else a for a in axes]
    if rng.integers(0, 4) == 0:
        axes_f = axes_f[::-1]
    s_i, z_i = scale(rng), zp(rng)
    s_o = float(np.float32(s_i * rng.uniform(0.3, 3))) if rng.integers(0, 3) else s_i
    if rng.integers(0, 6) == 0:
        s_o = float(np.float32(s_i * 10.0 ** rng.uniform(-2.5, 2.5)))
    z_o = zp(rng) if rng.integers(0, 3) else z_i
    out = [1 if i in axes else d for i, d in enumerate(shape)] if keep else \
        [d for i, d in enumerate(shape) if i not in axes]
    m = Model()
    x = m.tensor("x", shape, TT.INT8, s_i, z_i)
    a = m.tensor("axis", (len(axes_f),), TT.INT32, data=np.asarray(axes_f, "<i4"))
    y = m.tensor("y", out, TT.INT8, s_o, z_o)
    o = sch.ReducerOptionsT()
    o.keepDims = keep
    m.op(OP.MEAN, [x, a], [y], OPT.ReducerOptions, o, version=2)
    return m.finish(x, y), i8(rng, [B] + shape[1:])


def case_reshape(rng, B):
    shape = [1] + [int(rng.integers(1, 6)) for _ in range(int(rng.integers(1, 4)))]
    n = int(np.prod(shape))
    divs = [d for d in range(1, n + 1) if n % d == 0]
    d = int(rng.choice(divs))
    new = [1, d, n // d]
    spec = list(new)
    if rng.integers(0, 2):
        spec[int(rng.integers(1, 3))] = -1
    s, z = scale(rng), zp(rng)
    m = Model()
    x = m.tensor("x", shape, TT.INT8, s, z)
    y = m.tensor("y", new, TT.INT8, s, z)
    o = sch.ReshapeOptionsT()
    if rng.integers(0, 2):
        st = m.tensor("shape", (3,), TT.INT32, data=np.asarray(spec, "<i4"))
        m.op(OP.RESHAPE, [x, st], [y])
    else:
        o.newShape = spec
        m.op(OP.RESHAPE, [x], [y], OPT.ReshapeOptions, o)
    return m.finish(x, y), i8(rng, [B] + shape[1:])


def case_softmax(rng, B):
    shape = [1, int(rng.integers(1, 40))] if rng.integers(0, 2) else \
        [1, int(rng.integers(1, 5)), int(rng.integers(1, 20))]
    if rng.integers(0, 6) == 0:
        shape = [1, int(rng.integers(100, 257))]  # above 256 LiteRT may abort (s24_ops.c)
    s_i, z_i = scale(rng, -2.5, 0.5), zp(rng)
    if rng.integers(0, 6) == 0:
        s_i = scale(rng, -5.5, 0.5)
    beta = float(np.float32(rng.choice([1.0, 1.0, 0.5, 2.0, rng.uniform(0.1, 3)])))
    m = Model()
    x = m.tensor("x", shape, TT.INT8, s_i, z_i)
    y = m.tensor("y", shape, TT.INT8, 1.0 / 256, -128)
    o = sch.SoftmaxOptionsT()
    o.beta = beta
    m.op(OP.SOFTMAX, [x], [y], OPT.SoftmaxOptions, o, version=2)
    return m.finish(x, y), i8(rng, [B] + shape[1:])


def case_quantize(rng, B):
    shape = [1] + [int(rng.integers(1, 8)) for _ in range(int(rng.integers(0, 3)))]
    s_o, z_o = scale(rng), zp(rng)
    m = Model()
    if rng.integers(0, 4) == 0:  # int8 -> int8 requantization
        s_i, z_i = scale(rng), zp(rng)
        x = m.tensor("x", shape, TT.INT8, s_i, z_i)
        xs = i8(rng, [B] + shape[1:])
    else:
        x = m.tensor("x", shape, TT.FLOAT32)
        q = rng.integers(-140, 140, size=[B] + shape[1:]).astype(np.float64)
        frac = rng.choice([0.0, 0.5, -0.5, 0.25, 0.4999, 0.5001], size=q.shape)
        xs = ((q + frac - z_o) * s_o).astype(np.float32)  # many ties exactly at .5 steps
        xs.flat[0] = np.float32(rng.normal() * 1000)
        if rng.integers(0, 4) == 0:  # outside int32 after the division, infinities, NaN
            special = np.float32([np.inf, -np.inf, np.nan, 1e20, -1e20, 3e9, -3e9, 2.2e9])
            k = min(xs.size, len(special))
            xs.flat[:k] = special[rng.permutation(len(special))[:k]]
    y = m.tensor("y", shape, TT.INT8, s_o, z_o)
    m.op(OP.QUANTIZE, [x], [y], version=2)
    return m.finish(x, y), xs


def case_dequantize(rng, B):
    shape = [1] + [int(rng.integers(1, 8)) for _ in range(int(rng.integers(0, 3)))]
    s, z = scale(rng, -4, 1), zp(rng)
    m = Model()
    x = m.tensor("x", shape, TT.INT8, s, z)
    y = m.tensor("y", shape, TT.FLOAT32)
    m.op(OP.DEQUANTIZE, [x], [y], version=2)
    return m.finish(x, y), i8(rng, [B] + shape[1:])


def slice_ref_shape(shape, b, e, s, bm, em, sm):
    """The output shape as NumPy slicing gives it (all indices given, no ellipsis/new axis)."""
    out = []
    for k, d in enumerate(shape):
        if (sm >> k) & 1:
            continue
        bb = None if (bm >> k) & 1 else b[k]
        ee = None if (em >> k) & 1 else e[k]
        out.append(len(range(d)[slice(bb, ee, s[k])]))
    return out


def case_strided_slice(rng, B):
    rank = int(rng.integers(2, 5))
    shape = [1] + [int(rng.integers(1, 8)) for _ in range(rank - 1)]
    nidx = int(rng.integers(1, rank + 1))  # indices for the first nidx dimensions
    b, e, s = [0] * nidx, [1] * nidx, [1] * nidx
    bm = em = sm = 0
    for k in range(1, nidx):
        d = shape[k]
        stride = int(rng.choice([1, 1, 2, 3, -1, -2]))
        b[k] = int(rng.integers(-d - 1, d + 2))
        e[k] = int(rng.integers(-d - 1, d + 2))
        s[k] = stride
        bm |= int(rng.integers(0, 4) == 0) << k
        em |= int(rng.integers(0, 4) == 0) << k
        if rng.integers(0, 5) == 0 and stride > 0 and -d <= b[k] < d:
            sm |= 1 << k
    full = shape[:]
    bb, ee, ss = b + [0] * (rank - nidx), e + [0] * (rank - nidx), s + [1] * (rank - nidx)
    bmf = bm | sum(1 << k for k in range(nidx, rank))
    emf = em | sum(1 << k for k in range(nidx, rank))
    out = slice_ref_shape(full, bb, ee, ss, bmf, emf, sm)
    if 0 in out:
        return case_strided_slice(rng, B)
    sc, z = scale(rng), zp(rng)
    m = Model()
    x = m.tensor("x", shape, TT.INT8, sc, z)
    tb = m.tensor("begin", (nidx,), TT.INT32, data=np.asarray(b, "<i4"))
    te = m.tensor("end", (nidx,), TT.INT32, data=np.asarray(e, "<i4"))
    ts = m.tensor("strides", (nidx,), TT.INT32, data=np.asarray(s, "<i4"))
    y = m.tensor("y", out, TT.INT8, sc, z)
    o = sch.StridedSliceOptionsT()
    o.beginMask, o.endMask, o.shrinkAxisMask = bm, em, sm
    m.op(OP.STRIDED_SLICE, [x, tb, te, ts], [y], OPT.StridedSliceOptions, o, version=2)
    return m.finish(x, y), i8(rng, [B] + shape[1:])


def case_pack(rng, B):
    shape = [1] + [int(rng.integers(1, 5)) for _ in range(int(rng.integers(0, 3)))]
    n = int(rng.integers(1, 5))
    axis = int(rng.integers(1, len(shape) + 1))
    sc, z = scale(rng), zp(rng)
    m = Model()
    x = m.tensor("x", shape, TT.INT8, sc, z)
    ins = [m.tensor(f"c{i}", shape, TT.INT8, sc, z, i8(rng, shape)) for i in range(n)]
    ins.insert(int(rng.integers(0, n + 1)), x)
    out = shape[:axis] + [n + 1] + shape[axis:]
    if rng.integers(0, 2):
        axis -= len(shape) + 1  # the same axis, negative
    y = m.tensor("y", out, TT.INT8, sc, z)
    o = sch.PackOptionsT()
    o.valuesCount, o.axis = n + 1, axis
    m.op(OP.PACK, ins, [y], OPT.PackOptions, o, version=2)
    return m.finish(x, y), i8(rng, [B] + shape[1:])


def case_shape_chain(rng, B):
    """The anomaly-detection model's tail: RESHAPE to [1, n], then SHAPE -> STRIDED_SLICE
    (shrink) -> PACK with constants -> RESHAPE back to [1, a, b, c]; or (half the time) the
    same with STRIDED_SLICE keeping [1] and CONCATENATION of it and a constant [a, b, c]."""
    a, b, c = int(rng.integers(1, 6)), int(rng.integers(1, 9)), int(rng.integers(1, 3))
    sc, z = scale(rng), zp(rng)
    m = Model()
    x = m.tensor("x", (1, a, b, c), TT.INT8, sc, z)
    flat = m.tensor("flat", (1, a * b * c), TT.INT8, sc, z)
    m.op(OP.RESHAPE, [x, m.tensor("s0", (2,), TT.INT32, data=np.asarray([1, a * b * c], "<i4"))],
         [flat])
    shp = m.tensor("shape", (2,), TT.INT32)
    so = sch.ShapeOptionsT()
    so.outType = TT.INT32
    m.op(OP.SHAPE, [flat], [shp], OPT.ShapeOptions, so)
    concat = rng.integers(0, 2) == 1  # the shape assembled by CONCATENATION of INT32 vectors
    n0 = m.tensor("n0", (1,) if concat else (), TT.INT32)
    sso = sch.StridedSliceOptionsT()
    sso.shrinkAxisMask = 0 if concat else 1
    m.op(OP.STRIDED_SLICE, [shp, m.tensor("b", (1,), TT.INT32, data=np.asarray([0], "<i4")),
                            m.tensor("e", (1,), TT.INT32, data=np.asarray([1], "<i4")),
                            m.tensor("st", (1,), TT.INT32, data=np.asarray([1], "<i4"))],
         [n0], OPT.StridedSliceOptions, sso, version=2)
    packed = m.tensor("packed", (4,), TT.INT32)
    if concat:
        rest = m.tensor("k", (3,), TT.INT32, data=np.asarray([a, b, c], "<i4"))
        co = sch.ConcatenationOptionsT()
        co.axis = int(rng.choice([0, -1]))
        m.op(OP.CONCATENATION, [n0, rest], [packed], OPT.ConcatenationOptions, co)
    else:
        consts = [m.tensor(f"k{i}", (), TT.INT32, data=np.asarray(v, "<i4"))
                  for i, v in enumerate([a, b, c])]
        po = sch.PackOptionsT()
        po.valuesCount, po.axis = 4, 0
        m.op(OP.PACK, [n0] + consts, [packed], OPT.PackOptions, po)
    y = m.tensor("y", (1, a, b, c), TT.INT8, sc, z)
    m.op(OP.RESHAPE, [flat, packed], [y])
    return m.finish(x, y), i8(rng, (B, a, b, c))


def elementwise_shape(rng):
    """A [1, ...] shape for an elementwise operator: small, or with 256 or more elements (for a
    sweep of every int8 value)."""
    if rng.integers(0, 3) == 0:
        return [1, int(rng.choice([256, 300, 512])), ] if rng.integers(0, 2) else [1, 16, 16, 2]
    return rand_shape(rng, 1, 4)


def case_unary(rng, B, code, s_in, z_in, s_out, z_out, opt_type=OPT.NONE, opt=None, version=2):
    shape = elementwise_shape(rng)
    m = Model()
    x = m.tensor("x", shape, TT.INT8, s_in, z_in)
    y = m.tensor("y", shape, TT.INT8, s_out, z_out)
    m.op(code, [x], [y], opt_type, opt, version=version)
    return m.finish(x, y), sweep_or_random(rng, B, shape)


def case_logistic(rng, B):
    """LOGISTIC: the output scale must be 1/256; the zero point is free in the reference kernel
    (-128 from the converter)."""
    z_out = -128 if rng.integers(0, 3) else zp(rng)
    return case_unary(rng, B, OP.LOGISTIC, scale(rng, -3, 0.5), zp(rng), 1.0 / 256, z_out)


def case_tanh(rng, B):
    """TANH: 1/128 and 0 at the output from the converter; any output quantization here."""
    s_out, z_out = (1.0 / 128, 0) if rng.integers(0, 2) else (scale(rng, -3, 0), zp(rng))
    return case_unary(rng, B, OP.TANH, scale(rng, -3, 0.5), zp(rng), s_out, z_out)


def case_relu(rng, B, code=OP.RELU):
    s_in = scale(rng, -3, 0)
    s_out = float(np.float32(s_in * 10.0 ** rng.uniform(-1.5, 1.5))) if rng.integers(0, 4) else s_in
    z_out = zp(rng) if rng.integers(0, 3) else -128
    return case_unary(rng, B, code, s_in, zp(rng), s_out, z_out)


def case_relu6(rng, B):
    return case_relu(rng, B, OP.RELU6)


def case_leaky_relu(rng, B):
    """LEAKY_RELU: alpha mostly in (0, 1), also 0, above 1 and negative."""
    alpha = float(np.float32(rng.choice([rng.uniform(0, 1), rng.uniform(0, 1), 0.2, 0.0,
                                         rng.uniform(1, 4), -rng.uniform(0, 2)])))
    s_in = scale(rng, -3, 0)
    s_out = float(np.float32(s_in * 10.0 ** rng.uniform(-1.5, 1.5))) if rng.integers(0, 4) else s_in
    o = sch.LeakyReluOptionsT()
    o.alpha = alpha
    return case_unary(rng, B, OP.LEAKY_RELU, s_in, zp(rng), s_out, zp(rng),
                      OPT.LeakyReluOptions, o, version=1)


def case_hard_swish(rng, B):
    """HARD_SWISH: s_in over 10^-4 .. 10 (the "reluish" exponent left and right of 0), s_out from
    s_in / 100 (exponent 0) to s_in * 10^4 (right shifts of 16 and more in int16)."""
    s_in = scale(rng, -4, 1)
    s_out = float(np.float32(s_in * 10.0 ** rng.uniform(-2, 4 if rng.integers(0, 4) == 0 else 1)))
    return case_unary(rng, B, OP.HARD_SWISH, s_in, zp(rng), s_out, zp(rng),
                      OPT.HardSwishOptions, sch.HardSwishOptionsT(), version=1)


def binary_shapes(rng):
    """Two broadcast-compatible shapes (the first [1, ...], the model's input) and the output."""
    rank = int(rng.integers(1, 6))
    shape = [1] + [int(rng.integers(1, 6)) for _ in range(rank - 1)]
    other = list(shape)
    kind = int(rng.integers(0, 4))  # 0 equal, 1 broadcast dims of 1, 2 lower rank, 3 both ways
    if kind == 1:
        other = [d if rng.integers(0, 2) else 1 for d in shape]
    elif kind == 2 and rank > 1:
        other = shape[int(rng.integers(1, rank)):]
    elif kind == 3 and rank > 1:  # x has 1 where the constant has more
        k = int(rng.integers(1, rank))
        other = [d if rng.integers(0, 2) else 1 for d in shape]
        other[k] = int(rng.integers(2, 5))
        shape[k] = 1
    return shape, other, list(np.broadcast_shapes(tuple(shape), tuple(other)))


def case_binary(rng, B, code, s_o, z1, z2, z_o, s1, s2, opt_type, opt, shapes):
    shape, other, out = shapes
    m = Model()
    x = m.tensor("x", shape, TT.INT8, s1, z1)
    c = m.tensor("c", other, TT.INT8, s2, z2, i8h(rng, other))
    ins = [x, c] if rng.integers(0, 2) else [c, x]
    y = m.tensor("y", out, TT.INT8, s_o, z_o)
    opt.fusedActivationFunction = act(rng)
    m.op(code, ins, [y], opt_type, opt, version=2)
    return m.finish(x, y), i8h(rng, [B] + shape[1:])


def case_sub(rng, B):
    s1, s2, s_o = add_scales(rng)
    return case_binary(rng, B, OP.SUB, s_o, zp(rng), zp(rng), zp(rng), s1, s2, OPT.SubOptions,
                       sch.SubOptionsT(), binary_shapes(rng))


def case_mul(rng, B):
    """MUL: s_out around s1 * s2 * 2^8 (typical), and from s1 * s2 / 10 (left shifts) to
    s1 * s2 * 10^5."""
    s1, s2 = scale(rng, -3, 0), scale(rng, -3, 0)
    s_o = float(np.float32(s1 * s2 * 10.0 ** rng.uniform(1.5, 3)))
    if rng.integers(0, 4) == 0:
        s_o = float(np.float32(s1 * s2 * 10.0 ** rng.uniform(-1, 5)))
    return case_binary(rng, B, OP.MUL, s_o, zp(rng), zp(rng), zp(rng), s1, s2, OPT.MulOptions,
                       sch.MulOptionsT(), binary_shapes(rng))


def movable(rng):
    """The element type of a data-movement case: INT8 mostly, FLOAT32 sometimes (4-byte
    elements; the model's input and output may be FLOAT32)."""
    return TT.FLOAT32 if rng.integers(0, 6) == 0 else TT.INT8


def data_x(rng, B, shape, tt):
    if tt == TT.FLOAT32:
        return rng.normal(0, 10, size=[B] + list(shape[1:])).astype(np.float32)
    return i8h(rng, [B] + list(shape[1:]))


def qtensor(m, name, shape, tt, sc, z, data=None):
    """An INT8 tensor quantized (sc, z) or an unquantized FLOAT32 one."""
    if tt == TT.FLOAT32:
        return m.tensor(name, shape, tt, data=data)
    return m.tensor(name, shape, tt, sc, z, data)


def const_like(rng, shape, tt):
    if tt == TT.FLOAT32:
        return rng.normal(0, 10, size=shape).astype("<f4")
    return i8h(rng, shape)


def case_concat(rng, B):
    """CONCATENATION of the input and 0 to 4 constants along a random (sometimes negative) axis,
    one quantization for all (LiteRT's int8 kernel refuses differing ones)."""
    tt = movable(rng)
    shape = rand_shape(rng, 1, 5)
    r = len(shape)
    axis = int(rng.integers(0, r))
    if axis == 0 and r > 1 and rng.integers(0, 4):
        axis = int(rng.integers(1, r))
    n = int(rng.integers(1, 6)) if axis > 0 else 1  # the output's batch stays 1
    sc, z = scale(rng), zp(rng)
    m = Model()
    x = qtensor(m, "x", shape, tt, sc, z)
    ins, total = [], shape[axis]
    for i in range(n - 1):
        s2 = list(shape)
        if axis != 0:  # sometimes an empty constant (the file holds no bytes for it)
            s2[axis] = int(rng.integers(0, 5))
        ins.append(qtensor(m, f"c{i}", s2, tt, sc, z, const_like(rng, s2, tt)))
        total += s2[axis]
    ins.insert(int(rng.integers(0, n)), x)
    out = list(shape)
    out[axis] = total
    y = qtensor(m, "y", out, tt, sc, z)
    o = sch.ConcatenationOptionsT()
    o.axis = axis - r if rng.integers(0, 3) == 0 else axis
    m.op(OP.CONCATENATION, ins, [y], OPT.ConcatenationOptions, o, version=2)
    return m.finish(x, y), data_x(rng, B, shape, tt)


def case_split(rng, B):
    """SPLIT along a random axis into n equal parts; the model's output is one of them, or (half
    the time) all of them concatenated back in a random order, so that every output is
    compared. The outputs may have their own quantization: LiteRT copies the bytes."""
    tt = movable(rng)
    shape = rand_shape(rng, 1, 5)
    r = len(shape)
    axis = int(rng.integers(1, r)) if r > 1 else 0
    n = int(rng.integers(1, 5))
    if axis > 0:
        shape[axis] = n * int(rng.integers(1, 4))
    else:
        n = 1
    sc, z = scale(rng), zp(rng)
    m = Model()
    x = qtensor(m, "x", shape, tt, sc, z)
    ax = m.tensor("axis", (), TT.INT32, data=np.asarray(axis - r if rng.integers(0, 3) == 0
                                                          else axis, "<i4"))
    part = list(shape)
    part[axis] //= n
    chain = rng.integers(0, 2) == 1
    outs = [qtensor(m, f"y{i}", part, tt, sc, z) if chain or rng.integers(0, 2)
            else qtensor(m, f"y{i}", part, tt, scale(rng), zp(rng)) for i in range(n)]
    so = sch.SplitOptionsT()
    so.numSplits = n
    m.op(OP.SPLIT, [ax, x], outs, OPT.SplitOptions, so, version=2)
    if not chain:
        return m.finish(x, outs[int(rng.integers(0, n))]), data_x(rng, B, shape, tt)
    y = qtensor(m, "y", shape, tt, sc, z)
    co = sch.ConcatenationOptionsT()
    co.axis = axis
    m.op(OP.CONCATENATION, [outs[i] for i in rng.permutation(n)], [y],
         OPT.ConcatenationOptions, co, version=2)
    return m.finish(x, y), data_x(rng, B, shape, tt)


def case_squeeze(rng, B):
    """SQUEEZE of named dimensions of size 1 (some negative) or of all of them; when that drops
    the leading batch 1, a RESHAPE to [1, -1] follows (the model's output keeps it)."""
    tt = movable(rng)
    shape = rand_shape(rng, 2, 6, 4)
    for k in range(1, len(shape)):
        if rng.integers(0, 3) == 0:
            shape[k] = 1
    r = len(shape)
    ones = [k for k in range(r) if shape[k] == 1]
    if rng.integers(0, 4) == 0:
        dims, drop = [], ones
    else:
        drop = [k for k in ones if k > 0 and rng.integers(0, 2)]
        dims = [k - r if rng.integers(0, 3) == 0 else k for k in drop]
        if not drop:  # no dimension named: every dimension of size 1
            drop = ones
        if dims and rng.integers(0, 4) == 0:
            dims = dims + dims[:1]  # a repeated entry
    out = [d for k, d in enumerate(shape) if k not in drop]
    sc, z = scale(rng), zp(rng)
    m = Model()
    x = qtensor(m, "x", shape, tt, sc, z)
    o = sch.SqueezeOptionsT()
    o.squeezeDims = [int(d) for d in dims]
    if 0 not in drop:
        y = qtensor(m, "y", out, tt, sc, z)
        m.op(OP.SQUEEZE, [x], [y], OPT.SqueezeOptions, o)
        return m.finish(x, y), data_x(rng, B, shape, tt)
    mid = qtensor(m, "squeezed", out, tt, sc, z)
    m.op(OP.SQUEEZE, [x], [mid], OPT.SqueezeOptions, o)
    y = qtensor(m, "y", [1, int(np.prod(out))], tt, sc, z)
    ro = sch.ReshapeOptionsT()
    ro.newShape = [1, -1]
    m.op(OP.RESHAPE, [mid], [y], OPT.ReshapeOptions, ro)
    return m.finish(x, y), data_x(rng, B, shape, tt)


def case_transpose(rng, B):
    """TRANSPOSE of rank 1 to 6 by a random permutation (entries sometimes negative) whose first
    entry names a dimension of size 1 (the output's batch 1)."""
    tt = movable(rng)
    shape = rand_shape(rng, 1, 6, 4)
    r = len(shape)
    if r > 1 and rng.integers(0, 3) == 0:
        shape[int(rng.integers(1, r))] = 1
    ones = [k for k in range(r) if shape[k] == 1]
    first = int(rng.choice(ones))
    rest = [k for k in range(r) if k != first]
    perm = [first] + [rest[i] for i in rng.permutation(len(rest))]
    out = [shape[k] for k in perm]
    perm_f = [k - r if rng.integers(0, 4) == 0 else k for k in perm]
    sc, z = scale(rng), zp(rng)
    m = Model()
    x = qtensor(m, "x", shape, tt, sc, z)
    p = m.tensor("perm", (r,), TT.INT32, data=np.asarray(perm_f, "<i4"))
    y = qtensor(m, "y", out, tt, sc, z)
    m.op(OP.TRANSPOSE, [x, p], [y], OPT.TransposeOptions, sch.TransposeOptionsT(), version=2)
    return m.finish(x, y), data_x(rng, B, shape, tt)


def case_resize(rng, B):
    """RESIZE_NEAREST_NEIGHBOR of [1, h, w, c] to a random size (up, down, 1, equal), with every
    combination of align_corners and half_pixel_centers."""
    tt = movable(rng)
    h, w, c = int(rng.integers(1, 9)), int(rng.integers(1, 9)), int(rng.integers(1, 4))
    oh, ow = (int(rng.integers(1, 17)), int(rng.integers(1, 17)))
    if rng.integers(0, 4) == 0:
        oh, ow = h * int(rng.integers(1, 4)), w * int(rng.integers(1, 4))
    sc, z = scale(rng), zp(rng)
    m = Model()
    x = qtensor(m, "x", (1, h, w, c), tt, sc, z)
    size = m.tensor("size", (2,), TT.INT32, data=np.asarray([oh, ow], "<i4"))
    y = qtensor(m, "y", (1, oh, ow, c), tt, sc, z)
    o = sch.ResizeNearestNeighborOptionsT()
    o.alignCorners, o.halfPixelCenters = bool(rng.integers(0, 2)), bool(rng.integers(0, 2))
    m.op(OP.RESIZE_NEAREST_NEIGHBOR, [x, size], [y], OPT.ResizeNearestNeighborOptions, o,
         version=3 if o.halfPixelCenters else 2)
    return m.finish(x, y), data_x(rng, B, (1, h, w, c), tt)


# ------------------------------------------------------------------------------ refusals
# Models LiteRT's reference kernels refuse (at AllocateTensors): the runtime must refuse each
# too, naming the operator (SPEC §8). Each returns (model bytes, X) as the cases above.

def concat_two(rng, B, shape, sc, z, s2, z2, act):
    """CONCATENATION of the input (sc, z) and a constant (s2, z2) along the last axis into an
    output (sc, z); act: a random fused activation (the input first), else no activation and
    the two in a random order."""
    m = Model()
    x = m.tensor("x", shape, TT.INT8, sc, z)
    c = m.tensor("c", shape, TT.INT8, s2, z2, i8(rng, shape))
    out = list(shape)
    out[-1] *= 2
    y = m.tensor("y", out, TT.INT8, sc, z)
    o = sch.ConcatenationOptionsT()
    o.axis = len(shape) - 1
    if act:
        o.fusedActivationFunction = int(rng.integers(1, 4))
    ins = [x, c] if act or rng.integers(0, 2) else [c, x]
    m.op(OP.CONCATENATION, ins, [y], OPT.ConcatenationOptions, o, version=2)
    return m.finish(x, y), i8(rng, [B] + shape[1:])


def refuse_concat_quant(rng, B):
    """CONCATENATION of int8 tensors whose scale or zero point differ from the output's."""
    shape = rand_shape(rng, 2, 4)
    sc, z = scale(rng), zp(rng)
    s2, z2 = (float(np.float32(sc * 1.5)), z) if rng.integers(0, 2) else (sc, (z + 1) % 128)
    return concat_two(rng, B, shape, sc, z, s2, z2, act=False)


def refuse_concat_act(rng, B):
    """CONCATENATION with a fused activation (LiteRT takes NONE only)."""
    shape = rand_shape(rng, 2, 4)
    sc, z = scale(rng), zp(rng)
    return concat_two(rng, B, shape, sc, z, sc, z, act=True)


def refuse_logistic_scale(rng, B):
    """LOGISTIC whose output scale is not 1/256."""
    s_out = float(np.float32(rng.choice([1.0 / 128, 1.0 / 255, 1.0 / 257, scale(rng)])))
    shape = rand_shape(rng)
    m = Model()
    x = m.tensor("x", shape, TT.INT8, scale(rng), zp(rng))
    y = m.tensor("y", shape, TT.INT8, s_out, -128)
    m.op(OP.LOGISTIC, [x], [y], version=2)
    return m.finish(x, y), i8(rng, [B] + shape[1:])


def refuse_hard_swish_exponent(rng, B):
    """HARD_SWISH whose output scale is below s_in / 128 (a positive output exponent)."""
    s_in = scale(rng)
    shape = rand_shape(rng)
    m = Model()
    x = m.tensor("x", shape, TT.INT8, s_in, zp(rng))
    y = m.tensor("y", shape, TT.INT8, float(np.float32(s_in / 128 * rng.uniform(0.01, 0.45))),
                 zp(rng))
    m.op(OP.HARD_SWISH, [x], [y], OPT.HardSwishOptions, sch.HardSwishOptionsT())
    return m.finish(x, y), i8(rng, [B] + shape[1:])


def refuse_binary_shapes(rng, B):
    """MUL or SUB of shapes that do not broadcast."""
    shape = rand_shape(rng, 2, 4)
    other = list(shape)
    k = int(rng.integers(1, len(shape)))
    shape[k] = int(rng.integers(2, 5))
    other[k] = shape[k] + int(rng.integers(1, 3))
    code, ot, o = ((OP.MUL, OPT.MulOptions, sch.MulOptionsT()) if rng.integers(0, 2)
                   else (OP.SUB, OPT.SubOptions, sch.SubOptionsT()))
    m = Model()
    x = m.tensor("x", shape, TT.INT8, scale(rng), zp(rng))
    c = m.tensor("c", other, TT.INT8, scale(rng), zp(rng), i8(rng, other))
    y = m.tensor("y", other, TT.INT8, scale(rng), zp(rng))
    m.op(code, [x, c], [y], ot, o, version=2)
    return m.finish(x, y), i8(rng, [B] + shape[1:])


def refuse_split_uneven(rng, B):
    """SPLIT of a dimension num_splits does not divide."""
    n = int(rng.integers(2, 5))
    d = n * int(rng.integers(1, 4)) + int(rng.integers(1, n))
    m = Model()
    x = m.tensor("x", [1, d], TT.INT8, scale(rng), zp(rng))
    ax = m.tensor("axis", (), TT.INT32, data=np.asarray(1, "<i4"))
    outs = [m.tensor(f"y{i}", [1, d // n], TT.INT8, scale(rng), zp(rng)) for i in range(n)]
    so = sch.SplitOptionsT()
    so.numSplits = n
    m.op(OP.SPLIT, [ax, x], outs, OPT.SplitOptions, so, version=2)
    return m.finish(x, outs[0]), i8(rng, [B, d])


def refuse_squeeze_dim(rng, B):
    """SQUEEZE naming a dimension whose size is not 1, or one outside the rank."""
    shape = rand_shape(rng, 2, 4)
    k = int(rng.integers(1, len(shape)))
    shape[k] = int(rng.integers(2, 5))
    dim = k if rng.integers(0, 2) else len(shape) + int(rng.integers(0, 3))
    sc, z = scale(rng), zp(rng)
    m = Model()
    x = m.tensor("x", shape, TT.INT8, sc, z)
    y = m.tensor("y", shape, TT.INT8, sc, z)
    o = sch.SqueezeOptionsT()
    o.squeezeDims = [dim]
    m.op(OP.SQUEEZE, [x], [y], OPT.SqueezeOptions, o)
    return m.finish(x, y), i8(rng, [B] + shape[1:])


def refuse_transpose_perm(rng, B):
    """TRANSPOSE with a permutation entry outside [-rank, rank)."""
    shape = rand_shape(rng, 2, 4)
    r = len(shape)
    perm = list(range(r))
    perm[int(rng.integers(1, r))] = int(rng.choice([r, r + 1, -r - 1]))
    sc, z = scale(rng), zp(rng)
    m = Model()
    x = m.tensor("x", shape, TT.INT8, sc, z)
    p = m.tensor("perm", (r,), TT.INT32, data=np.asarray(perm, "<i4"))
    y = m.tensor("y", shape, TT.INT8, sc, z)
    m.op(OP.TRANSPOSE, [x, p], [y], OPT.TransposeOptions, sch.TransposeOptionsT(), version=2)
    return m.finish(x, y), i8(rng, [B] + shape[1:])


def refuse_resize_size(rng, B):
    """RESIZE_NEAREST_NEIGHBOR whose size has 1 or 3 entries, or an input not 4-D."""
    sc, z = scale(rng), zp(rng)
    m = Model()
    if rng.integers(0, 2):
        x = m.tensor("x", (1, 3, 3, 2), TT.INT8, sc, z)
        n = int(rng.choice([1, 3]))
        size = m.tensor("size", (n,), TT.INT32, data=np.full(n, 4, "<i4"))
        y = m.tensor("y", (1, 4, 4, 2), TT.INT8, sc, z)
        xs = i8(rng, (B, 3, 3, 2))
    else:
        x = m.tensor("x", (1, 3, 3), TT.INT8, sc, z)
        size = m.tensor("size", (2,), TT.INT32, data=np.asarray([4, 4], "<i4"))
        y = m.tensor("y", (1, 4, 4), TT.INT8, sc, z)
        xs = i8(rng, (B, 3, 3))
    m.op(OP.RESIZE_NEAREST_NEIGHBOR, [x, size], [y], OPT.ResizeNearestNeighborOptions,
         sch.ResizeNearestNeighborOptionsT(), version=2)
    return m.finish(x, y), xs


REFUSALS = [refuse_concat_quant, refuse_concat_act, refuse_logistic_scale,
            refuse_hard_swish_exponent, refuse_binary_shapes, refuse_split_uneven,
            refuse_squeeze_dim, refuse_transpose_perm, refuse_resize_size]


def case_refused(rng, B):
    """One of REFUSALS, in turn."""
    case_refused.n = getattr(case_refused, "n", -1) + 1
    return REFUSALS[case_refused.n % len(REFUSALS)](rng, B)


def litert_refusal(model_bytes):
    """LiteRT's message refusing the model at AllocateTensors; None if it takes it."""
    try:
        tflbuild.ref_outputs(model_bytes, np.zeros((0,), np.int8))
    except (RuntimeError, ValueError) as e:
        return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return None


def case_add_pair(rng, B):
    """ADD or SUB of two activations of one shape (the input, and its int8 -> int8 QUANTIZE to
    another scale and zero point): the elementwise kind an engine's add unit takes (the SoC's,
    make soc-test-net), sizes from a few elements (a tail of 1-3 past whole words) to ~2,000."""
    shape = [1, int(rng.integers(1, 13)), int(rng.integers(1, 13)), int(rng.integers(1, 15))]
    s1, s2, s_o = add_scales(rng)
    z1, z2, z_o = zp(rng), zp(rng), zp(rng)
    m = Model()
    x = m.tensor("x", shape, TT.INT8, s1, z1)
    q = m.tensor("q", shape, TT.INT8, s2, z2)
    y = m.tensor("y", shape, TT.INT8, s_o, z_o)
    m.op(OP.QUANTIZE, [x], [q], version=2)
    ins = [x, q] if rng.integers(0, 2) else [q, x]
    if rng.integers(0, 2):
        o = sch.AddOptionsT()
        o.fusedActivationFunction = act(rng)
        m.op(OP.ADD, ins, [y], OPT.AddOptions, o, version=2)
    else:
        o = sch.SubOptionsT()
        o.fusedActivationFunction = act(rng)
        m.op(OP.SUB, ins, [y], OPT.SubOptions, o, version=2)
    return m.finish(x, y), i8h(rng, [B] + shape[1:])


CASES = [
    ("depthwise", case_depthwise), ("add", case_add), ("avgpool", case_avgpool),
    ("maxpool", case_maxpool), ("pad", case_pad), ("mean", case_mean),
    ("reshape", case_reshape), ("softmax", case_softmax), ("quantize", case_quantize),
    ("dequantize", case_dequantize), ("stridedslice", case_strided_slice),
    ("pack", case_pack), ("shapechain", case_shape_chain),
    ("logistic", case_logistic), ("tanh", case_tanh), ("relu", case_relu), ("relu6", case_relu6),
    ("leakyrelu", case_leaky_relu), ("hardswish", case_hard_swish), ("sub", case_sub),
    ("mul", case_mul), ("concat", case_concat), ("split", case_split),
    ("squeeze", case_squeeze), ("transpose", case_transpose), ("resize", case_resize),
    ("refused", case_refused), ("addpair", case_add_pair),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--per-op", type=int, default=20, help="random cases per operator")
    ap.add_argument("--batch", type=int, default=3, help="inputs per case (B)")
    ap.add_argument("--only", default=None, help="comma-separated operator names")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"ops_models.py: seed {seed} (rerun: --seed {seed})")
    rng = np.random.default_rng(seed)
    only = set(args.only.split(",")) if args.only else None
    os.makedirs(args.outdir, exist_ok=True)
    names = []
    for op, fn in CASES:
        if only is not None and op not in only:
            continue
        for i in range(args.per_op):
            name = f"{op}_{i:03d}"
            model, x = fn(rng, args.batch)
            refusal = None
            if fn is case_refused:
                refusal = litert_refusal(model)
                if refusal is None:  # a generator bug: LiteRT must refuse these
                    print(f"ops_models.py: {name}: LiteRT took the model", file=sys.stderr)
                    return 1
            else:
                try:
                    y = run_ref(model, x)
                except Exception as e:  # a generator bug: the model must be valid for LiteRT
                    print(f"ops_models.py: {name}: LiteRT refused the model: {e}",
                          file=sys.stderr)
                    return 1
            d = os.path.join(args.outdir, name)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "model.tflite"), "wb") as f:
                f.write(model)
            np.save(os.path.join(d, "X.npy"), x)
            if refusal is None:
                np.save(os.path.join(d, "Y.npy"), y)
            else:
                with open(os.path.join(d, "refused.txt"), "w") as f:
                    f.write(refusal + "\n")
            names.append(name)
    with open(os.path.join(args.outdir, "cases.txt"), "w") as f:
        f.write("".join(n + "\n" for n in names))
    print(f"ops_models.py: {len(names)} cases in {args.outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
