"""Seeds of fuzz_tflite and fuzz_ops (fuzz/corpus/<harness>/).

fuzz_tflite: one model with an operator of every builtin options table the .tflite reader parses
(runtime/s24_tflite.c, parse_options), each table with non-default values in every field, and a
truncation of it. The model needs no meaning for LiteRT (its tensors are placeholders): it is
there so that the fuzzer starts from bytes that reach every case of parse_options.

fuzz_ops: one valid model of each kind of tests/net/ops_models.py (every host operator, and the
refused kind), fixed seed, so that the fuzzer starts from models s24_op_check accepts.

usage: tflite_seeds.py CORPUS_DIR    (e.g. fuzz/corpus: writes fuzz_tflite/ops_all_options.tflite,
       fuzz_tflite/ops_all_options_cut*.tflite and fuzz_ops/<kind>.tflite)
Run with the venv's python (LiteRT's schema): $(scripts/deps.sh --venv-path)/bin/python.
"""
import os
import sys

import numpy as np
from ai_edge_litert import schema_py_generated as sch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "net"))
import tflbuild  # noqa: E402

OP = sch.BuiltinOperator
OPT = sch.BuiltinOptions
TT = sch.TensorType


def opt(code, table, **fields):
    """(operator, options type, options table) with the table's fields set."""
    o = getattr(sch, table + "T")()
    for k, v in fields.items():
        setattr(o, k, v)
    return code, getattr(OPT, table), o


def options():
    """(operator, options type, options table) of every table the reader parses."""
    return [
        opt(OP.CONV_2D, "Conv2DOptions", padding=1, strideW=2, strideH=3,
            fusedActivationFunction=1, dilationWFactor=2, dilationHFactor=3),
        opt(OP.DEPTHWISE_CONV_2D, "DepthwiseConv2DOptions", padding=1, strideW=2, strideH=1,
            depthMultiplier=2, fusedActivationFunction=3, dilationWFactor=1, dilationHFactor=2),
        opt(OP.AVERAGE_POOL_2D, "Pool2DOptions", padding=1, strideW=2, strideH=2, filterWidth=3,
            filterHeight=3, fusedActivationFunction=2),
        opt(OP.FULLY_CONNECTED, "FullyConnectedOptions", fusedActivationFunction=1,
            keepNumDims=True),
        opt(OP.SOFTMAX, "SoftmaxOptions", beta=0.5),
        opt(OP.CONCATENATION, "ConcatenationOptions", axis=-2, fusedActivationFunction=1),
        opt(OP.ADD, "AddOptions", fusedActivationFunction=3, potScaleInt16=False),
        opt(OP.RESHAPE, "ReshapeOptions", newShape=[1, -1, 4]),
        opt(OP.MUL, "MulOptions", fusedActivationFunction=1),
        opt(OP.PAD, "PadOptions"),
        opt(OP.TRANSPOSE, "TransposeOptions"),
        opt(OP.MEAN, "ReducerOptions", keepDims=True),
        opt(OP.SUB, "SubOptions", fusedActivationFunction=2, potScaleInt16=False),
        opt(OP.SQUEEZE, "SqueezeOptions", squeezeDims=[0, -1, 2]),
        opt(OP.STRIDED_SLICE, "StridedSliceOptions", beginMask=1, endMask=2, ellipsisMask=4,
            newAxisMask=8, shrinkAxisMask=16, offset=True),
        opt(OP.SPLIT, "SplitOptions", numSplits=2),
        opt(OP.PACK, "PackOptions", valuesCount=2, axis=-1),
        opt(OP.RESIZE_NEAREST_NEIGHBOR, "ResizeNearestNeighborOptions", alignCorners=True,
            halfPixelCenters=True),
        opt(OP.LEAKY_RELU, "LeakyReluOptions", alpha=0.3),
        opt(OP.HARD_SWISH, "HardSwishOptions"),
    ]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    outdir = os.path.join(sys.argv[1], "fuzz_tflite")
    m = tflbuild.Builder("sparse24 fuzz seed: every options table the reader parses")
    x = m.tensor("x", (1, 4, 4, 2), TT.INT8, [0.05], [-3])
    w = m.tensor("w", (2, 1, 1, 2), TT.INT8, [0.01, 0.02], [0, 0], 0,
                 np.arange(4, dtype=np.int8))
    prev = x
    for i, (code, opt_type, opt) in enumerate(options()):
        y = m.tensor(f"y{i}", (1, 4, 4, 2), TT.INT8, [0.05], [-3])
        m.op(code, 2, [prev, w], [y], opt_type, opt)
        prev = y
    model = m.finish([x], [prev])
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "ops_all_options.tflite"), "wb") as f:
        f.write(model)
    cut = len(model) * 2 // 3
    with open(os.path.join(outdir, f"ops_all_options_cut{cut}.tflite"), "wb") as f:
        f.write(model[:cut])
    print(f"tflite_seeds.py: ops_all_options.tflite ({len(model)} bytes, {len(options())} "
          f"operators) and a cut at {cut} bytes in {outdir}")
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                    "net"))
    import ops_models  # noqa: E402
    opsdir = os.path.join(sys.argv[1], "fuzz_ops")
    os.makedirs(opsdir, exist_ok=True)
    rng = np.random.default_rng(50)
    for kind, fn in ops_models.CASES:
        model, _ = fn(rng, 1)
        with open(os.path.join(opsdir, f"{kind}.tflite"), "wb") as f:
            f.write(model)
    print(f"tflite_seeds.py: {len(ops_models.CASES)} models in {opsdir}")


if __name__ == "__main__":
    main()
