# SPDX-License-Identifier: Apache-2.0
"""Which versions of each builtin operator the runtime handles LiteRT 2.3.0's BUILTIN_REF
resolver registers (SPEC §8: an operator version LiteRT's reference kernels do not accept is an
input error). For every such operator (FULLY_CONNECTED and CONV_2D, run on the array, and every
host operator of runtime/s24_ops.c) a valid single-operator model (from ops_models.py, or built
here for the two array operators) is given the version v, for v in 0..VMAX, and handed to the
interpreter: registered if Interpreter() and allocate_tensors() accept it, not registered if
LiteRT says "Didn't find op for builtin opcode ... version ...". Any other refusal is a bug of
this script (the model itself must be valid) and stops it.

The result is a C table, runtime/s24_op_versions_table.h (bit v of `versions` set when version
v is registered), read by runtime/s24_op_versions.c (s24_op_version_ok).

usage: op_versions.py                 print the table
       op_versions.py --write FILE    write the header
       op_versions.py --check FILE    probe again and compare with FILE: exit 1 if it differs
"""
import argparse
import os
import sys

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as sch
from ai_edge_litert.interpreter import Interpreter, OpResolverType

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "net"))
import ops_models as om  # noqa: E402
import tflbuild  # noqa: E402

OP = sch.BuiltinOperator
OPT = sch.BuiltinOptions
TT = sch.TensorType
NAMES = {v: k for k, v in vars(OP).items() if not k.startswith("_")}
VMAX = 24  # probed versions 0..VMAX (extended while the highest one is accepted)


def fc_model(rng, B):
    m = om.Model()
    x = m.tensor("x", (1, 4), TT.INT8, 0.05, 3)
    w = m.tensor("w", (3, 4), TT.INT8, 0.02, 0, om.i8(rng, (3, 4)))
    b = m.tensor("b", (3,), TT.INT32, 0.001, 0, np.arange(3, dtype="<i4"))
    y = m.tensor("y", (1, 3), TT.INT8, 0.1, -2)
    m.op(OP.FULLY_CONNECTED, [x, w, b], [y], OPT.FullyConnectedOptions,
         sch.FullyConnectedOptionsT())
    return m.finish(x, y), None


def conv_model(rng, B):
    m = om.Model()
    x = m.tensor("x", (1, 4, 4, 2), TT.INT8, 0.05, 3)
    w = m.tensor("w", (3, 1, 1, 2), TT.INT8, [0.02, 0.03, 0.01], [0, 0, 0], om.i8(rng, (3, 1, 1, 2)))
    b = m.tensor("b", (3,), TT.INT32, [0.001, 0.0015, 0.0005], [0, 0, 0],
                 np.arange(3, dtype="<i4"))
    y = m.tensor("y", (1, 4, 4, 3), TT.INT8, 0.1, -2)
    o = sch.Conv2DOptionsT()
    o.strideW = o.strideH = 1
    m.op(OP.CONV_2D, [x, w, b], [y], OPT.Conv2DOptions, o)
    return m.finish(x, y), None


# every builtin operator the runtime handles, and a model generator holding it
MODELS = {
    OP.FULLY_CONNECTED: fc_model, OP.CONV_2D: conv_model,
    OP.DEPTHWISE_CONV_2D: om.case_depthwise, OP.ADD: om.case_add, OP.SUB: om.case_sub,
    OP.MUL: om.case_mul, OP.AVERAGE_POOL_2D: om.case_avgpool, OP.MAX_POOL_2D: om.case_maxpool,
    OP.PAD: om.case_pad, OP.MEAN: om.case_mean, OP.RESHAPE: om.case_reshape,
    OP.SQUEEZE: om.case_squeeze, OP.CONCATENATION: om.case_concat, OP.SPLIT: om.case_split,
    OP.TRANSPOSE: om.case_transpose, OP.RESIZE_NEAREST_NEIGHBOR: om.case_resize,
    OP.SOFTMAX: om.case_softmax, OP.LOGISTIC: om.case_logistic, OP.TANH: om.case_tanh,
    OP.RELU: om.case_relu, OP.RELU6: om.case_relu6, OP.LEAKY_RELU: om.case_leaky_relu,
    OP.HARD_SWISH: om.case_hard_swish, OP.QUANTIZE: om.case_quantize,
    OP.DEQUANTIZE: om.case_dequantize, OP.SHAPE: om.case_shape_chain,
    OP.STRIDED_SLICE: om.case_strided_slice, OP.PACK: om.case_pack,
}


def with_version(model_bytes, code, version):
    """The model with every operator code of builtin `code` set to `version`."""
    mt = sch.ModelT.InitFromPackedBuf(model_bytes, 0)
    found = False
    for c in mt.operatorCodes:
        if max(c.builtinCode, c.deprecatedBuiltinCode) == code:
            c.version = version
            found = True
    if not found:
        raise ValueError(f"the model of {NAMES[code]} does not hold it")
    b = flatbuffers.Builder(1024)
    b.Finish(mt.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def accepted(model_bytes):
    """True if LiteRT's BUILTIN_REF interpreter takes the model, False if it finds no kernel of
    that operator version; anything else raises."""
    try:
        it = Interpreter(model_content=model_bytes, num_threads=1,
                         experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
        it.allocate_tensors()
        return True
    except ValueError as e:
        if "Didn't find op for builtin opcode" in str(e):
            return False
        raise


def probe():
    """{opcode: sorted list of registered versions}"""
    rng = np.random.default_rng(50)
    table = {}
    for code, gen in sorted(MODELS.items()):
        model, _ = gen(rng, 1)
        versions, v, vmax = [], 0, VMAX
        while v <= vmax:
            if accepted(with_version(model, code, v)):
                versions.append(v)
                if v == vmax:
                    vmax += 8
            v += 1
        if not versions:
            raise RuntimeError(f"{NAMES[code]}: no version accepted")
        table[code] = versions
    return table


def spans(versions):
    """[(first, last), ...]: the runs of consecutive versions, in order"""
    out, start = [], versions[0]
    for a, b in zip(versions, versions[1:] + [None]):
        if b != a + 1:
            out.append((start, a))
            if b is not None:
                start = b
    return out


def ranges(versions):
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in spans(versions))


def header(table):
    import ai_edge_litert
    ver = getattr(ai_edge_litert, "__version__", None)
    if ver is None:
        from importlib.metadata import version
        ver = version("ai-edge-litert")
    lines = [
        "// SPDX-License-Identifier: Apache-2.0",
        "// runtime/s24_op_versions_table.h: the versions of each builtin operator the runtime",
        f"// handles that LiteRT {ver}'s reference resolver (OpResolverType.BUILTIN_REF) registers,",
        "// probed with one single-operator model per operator and version (v = 0 to "
        f"{VMAX} and on while",
        "// accepted). GENERATED by `tests/net/op_versions.py --write "
        "runtime/s24_op_versions_table.h`;",
        "// `make test-op-versions` probes again and compares. Read by s24_op_versions.c only.",
        "// Bit v of versions: version v registered.",
        "#ifndef S24_OP_VERSIONS_TABLE_H_",
        "#define S24_OP_VERSIONS_TABLE_H_",
        "",
        "#include <stdint.h>",
        "",
        "#include \"s24_tflite.h\"",
        "",
        "// Versions lo to hi (0 <= lo <= hi <= 31): bits lo to hi.",
        "#define S24_VERSIONS(lo, hi) ((0xffffffffu >> (31 - (hi))) & (0xffffffffu << (lo)))",
        "",
        "typedef struct {",
        "  int32_t opcode;",
        "  uint32_t versions;",
        "} s24_op_versions_row_t;",
        "",
        "static const s24_op_versions_row_t kS24OpVersions[] = {",
    ]
    for code in sorted(table):
        if max(table[code]) > 31:
            raise RuntimeError(f"{NAMES[code]}: version above 31 does not fit the mask")
        versions = " | ".join(f"S24_VERSIONS({a}, {b})" for a, b in spans(table[code]))
        lines.append(f"    {{S24_OP_{NAMES[code]}, {versions}}},")
    lines += ["};", "", "#endif  // S24_OP_VERSIONS_TABLE_H_", ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--write", metavar="FILE")
    g.add_argument("--check", metavar="FILE")
    args = ap.parse_args()
    table = probe()
    text = header(table)
    if args.write:
        with open(args.write, "w") as f:
            f.write(text)
        print(f"op_versions.py: {len(table)} operators written to {args.write}")
        return 0
    if args.check:
        with open(args.check) as f:
            old = f.read()
        if old != text:
            print(f"op_versions.py: {args.check} differs from what LiteRT registers now; "
                  f"rerun with --write {args.check}. Probed:\n{text}")
            return 1
        print(f"op_versions.py: {args.check} matches LiteRT's registered versions "
              f"({len(table)} operators)")
        return 0
    for code in sorted(table):
        print(f"{NAMES[code]:24s} {ranges(table[code])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
