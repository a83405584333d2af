# SPDX-License-Identifier: Apache-2.0
"""Hostile .tflite models for tests/net/hostile.sh (issue 50), each made from a valid model.

  hostile_models.py KWS.tflite OUT_DIR

Writes into OUT_DIR:
  unused_3g.tflite     the model with one more tensor, INT8 [1024, 1024, 1024, 3] (3 GiB), that
                       no operator uses: LiteRT runs it in tens of MiB, so must the runtime
  evil_name.tflite     the first CONV_2D's weights renamed to a name holding a newline, an ANSI
                       escape and a forged "sparse24: all good" line, and made non-constant, so
                       the error names them
  dw_out_is_in.tflite  the first DEPTHWISE_CONV_2D's output is also its input (LiteRT refuses it)
  conv_out_is_in.tflite  the same for the first CONV_2D
  conv_dilation.tflite the first CONV_2D with dilation 40000 x 1 (LiteRT refuses a dilation above
                       INT16_MAX)
  conv_version.tflite  the CONV_2D operator code at version 99, dw_version.tflite the same for
                       DEPTHWISE_CONV_2D (LiteRT's reference resolver registers neither)
  x_trunc.npy          a float32 (1, 50, 10, 1) input cut short
"""
import os
import sys

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as sch

OP = sch.BuiltinOperator


def pack(m):
    fb = flatbuffers.Builder(1024)
    fb.Finish(m.Pack(fb), file_identifier=b"TFL3")
    return bytes(fb.Output())


def first_op(m, code):
    sg = m.subgraphs[0]
    for op in sg.operators:
        oc = m.operatorCodes[op.opcodeIndex]
        if max(oc.builtinCode, oc.deprecatedBuiltinCode) == code:
            return op
    raise SystemExit(f"hostile_models: no operator {code} in the model")


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    buf = open(src, "rb").read()

    def put(name, data):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)

    def load():
        return sch.ModelT.InitFromPackedBuf(buf, 0)

    m = load()
    t = sch.TensorT()
    t.shape = np.array([1024, 1024, 1024, 3], np.int32)
    t.type = sch.TensorType.INT8
    t.buffer = 0
    t.name = b"unused_3GiB"
    m.subgraphs[0].tensors.append(t)
    put("unused_3g.tflite", pack(m))

    m = load()
    conv = first_op(m, OP.CONV_2D)
    w = m.subgraphs[0].tensors[conv.inputs[1]]
    w.name = b"w\n\x1b[31msparse24: all good\x1b[0m"
    w.buffer = 0  # not constant any more: the runtime refuses it, naming the tensor
    put("evil_name.tflite", pack(m))

    for code, name in ((OP.DEPTHWISE_CONV_2D, "dw_out_is_in"), (OP.CONV_2D, "conv_out_is_in")):
        m = load()
        op = first_op(m, code)
        op.outputs = np.array([op.inputs[0]], np.int32)
        put(f"{name}.tflite", pack(m))

    m = load()
    conv = first_op(m, OP.CONV_2D)
    conv.builtinOptions.dilationHFactor = 40000
    put("conv_dilation.tflite", pack(m))

    for code, name in ((OP.CONV_2D, "conv_version"), (OP.DEPTHWISE_CONV_2D, "dw_version")):
        m = load()
        for oc in m.operatorCodes:
            if max(oc.builtinCode, oc.deprecatedBuiltinCode) == code:
                oc.version = 99
        put(f"{name}.tflite", pack(m))

    x = np.zeros((1, 50, 10, 1), np.float32)
    np.save(os.path.join(out, "x_ok.npy"), x)
    full = open(os.path.join(out, "x_ok.npy"), "rb").read()
    put("x_trunc.npy", full[: len(full) - 100])


if __name__ == "__main__":
    main()
