# SPDX-License-Identifier: Apache-2.0
"""Malformed and unsupported .tflite models for tests/net/cli.sh, made from a valid model.

  bad_models.py MODEL.tflite OUT_DIR

Writes: truncated.tflite (the first half), garbage.tflite (random bytes behind a TFL3 header),
wrongid.tflite (identifier TFL2), oob.tflite (the root table offset past the end),
veclen.tflite (the operator-code vector's length 0x7fffffff), unsupported.tflite (the first
operator turned into EMBEDDING_LOOKUP, which the runtime does not run), and x_i8.npy /
x_badshape.npy / x_ok.npy for the model's input.
"""
import os
import struct
import sys

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as sch


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    buf = open(src, "rb").read()
    rng = np.random.default_rng(5)

    def put(name, data):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)

    put("truncated.tflite", buf[: len(buf) // 2])
    put("garbage.tflite", bytes(4) + b"TFL3" + rng.integers(0, 256, 4000, dtype=np.uint8).tobytes())
    put("wrongid.tflite", buf[:4] + b"TFL2" + buf[8:])
    put("oob.tflite", struct.pack("<I", len(buf) + 64) + buf[4:])
    # Model.operator_codes (field 1): follow the root table's vtable to the vector's length
    root = struct.unpack_from("<I", buf, 0)[0]
    vt = root - struct.unpack_from("<i", buf, root)[0]
    vt_len = struct.unpack_from("<H", buf, vt)[0]
    off = struct.unpack_from("<H", buf, vt + 4 + 2 * 1)[0] if vt_len > 6 else 0
    b = bytearray(buf)
    if off:
        vec = root + off + struct.unpack_from("<I", buf, root + off)[0]
        struct.pack_into("<I", b, vec, 0x7FFFFFFF)
    put("veclen.tflite", bytes(b))
    m = sch.ModelT.InitFromPackedBuf(buf, 0)
    code = m.subgraphs[0].operators[0].opcodeIndex
    m.operatorCodes[code].builtinCode = sch.BuiltinOperator.EMBEDDING_LOOKUP
    m.operatorCodes[code].deprecatedBuiltinCode = sch.BuiltinOperator.EMBEDDING_LOOKUP
    fb = flatbuffers.Builder(1024)
    fb.Finish(m.Pack(fb), file_identifier=b"TFL3")
    put("unsupported.tflite", bytes(fb.Output()))
    sg = m.subgraphs[0]
    t = sg.tensors[sg.inputs[0]]
    shape = [int(d) for d in t.shape]
    dt = np.float32 if t.type == sch.TensorType.FLOAT32 else np.int8
    np.save(os.path.join(out, "x_ok.npy"), np.zeros(shape, dt))
    np.save(os.path.join(out, "x_i8.npy" if dt == np.float32 else "x_f32.npy"),
            np.zeros(shape, np.int8 if dt == np.float32 else np.float32))
    np.save(os.path.join(out, "x_badshape.npy"), np.zeros(shape[:-1] + [shape[-1] + 1], dt))


if __name__ == "__main__":
    main()
