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


def options():
    """(operator, options type, options table) of every table the reader parses."""
    out = []
    o = sch.Conv2DOptionsT()
    o.padding, o.strideW, o.strideH, o.fusedActivationFunction = 1, 2, 3, 1
    o.dilationWFactor, o.dilationHFactor = 2, 3
    out.append((OP.CONV_2D, OPT.Conv2DOptions, o))
    o = sch.DepthwiseConv2DOptionsT()
    o.padding, o.strideW, o.strideH, o.depthMultiplier = 1, 2, 1, 2
    o.fusedActivationFunction, o.dilationWFactor, o.dilationHFactor = 3, 1, 2
    out.append((OP.DEPTHWISE_CONV_2D, OPT.DepthwiseConv2DOptions, o))
    o = sch.Pool2DOptionsT()
    o.padding, o.strideW, o.strideH, o.filterWidth, o.filterHeight = 1, 2, 2, 3, 3
    o.fusedActivationFunction = 2
    out.append((OP.AVERAGE_POOL_2D, OPT.Pool2DOptions, o))
    o = sch.FullyConnectedOptionsT()
    o.fusedActivationFunction, o.keepNumDims = 1, True
    out.append((OP.FULLY_CONNECTED, OPT.FullyConnectedOptions, o))
    o = sch.SoftmaxOptionsT()
    o.beta = 0.5
    out.append((OP.SOFTMAX, OPT.SoftmaxOptions, o))
    o = sch.ConcatenationOptionsT()
    o.axis, o.fusedActivationFunction = -2, 1
    out.append((OP.CONCATENATION, OPT.ConcatenationOptions, o))
    o = sch.AddOptionsT()
    o.fusedActivationFunction, o.potScaleInt16 = 3, False
    out.append((OP.ADD, OPT.AddOptions, o))
    o = sch.ReshapeOptionsT()
    o.newShape = [1, -1, 4]
    out.append((OP.RESHAPE, OPT.ReshapeOptions, o))
    o = sch.MulOptionsT()
    o.fusedActivationFunction = 1
    out.append((OP.MUL, OPT.MulOptions, o))
    out.append((OP.PAD, OPT.PadOptions, sch.PadOptionsT()))
    out.append((OP.TRANSPOSE, OPT.TransposeOptions, sch.TransposeOptionsT()))
    o = sch.ReducerOptionsT()
    o.keepDims = True
    out.append((OP.MEAN, OPT.ReducerOptions, o))
    o = sch.SubOptionsT()
    o.fusedActivationFunction, o.potScaleInt16 = 2, False
    out.append((OP.SUB, OPT.SubOptions, o))
    o = sch.SqueezeOptionsT()
    o.squeezeDims = [0, -1, 2]
    out.append((OP.SQUEEZE, OPT.SqueezeOptions, o))
    o = sch.StridedSliceOptionsT()
    o.beginMask, o.endMask, o.ellipsisMask, o.newAxisMask, o.shrinkAxisMask = 1, 2, 4, 8, 16
    o.offset = True
    out.append((OP.STRIDED_SLICE, OPT.StridedSliceOptions, o))
    o = sch.SplitOptionsT()
    o.numSplits = 2
    out.append((OP.SPLIT, OPT.SplitOptions, o))
    o = sch.PackOptionsT()
    o.valuesCount, o.axis = 2, -1
    out.append((OP.PACK, OPT.PackOptions, o))
    o = sch.ResizeNearestNeighborOptionsT()
    o.alignCorners, o.halfPixelCenters = True, True
    out.append((OP.RESIZE_NEAREST_NEIGHBOR, OPT.ResizeNearestNeighborOptions, o))
    o = sch.LeakyReluOptionsT()
    o.alpha = 0.3
    out.append((OP.LEAKY_RELU, OPT.LeakyReluOptions, o))
    out.append((OP.HARD_SWISH, OPT.HardSwishOptions, sch.HardSwishOptionsT()))
    return out


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
