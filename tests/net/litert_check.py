# SPDX-License-Identifier: Apache-2.0
"""Reruns a `sparse24 run` with LiteRT's reference kernels and compares every output byte.

  litert_check.py MODEL.tflite X.npy Y.npy

X.npy and Y.npy are what `sparse24 run MODEL.tflite X.npy -o Y.npy` read and wrote (a batch of
B inferences along the first axis). Runs each inference through LiteRT 2.x with
OpResolverType.BUILTIN_REF; exit 0 and one line if every output is equal, exit 1 naming the
first inference that differs.
"""
import sys

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    model, xp, yp = sys.argv[1:]
    it = Interpreter(model_path=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    d_in, d_out = it.get_input_details()[0], it.get_output_details()[0]
    x, y = np.load(xp), np.load(yp)
    for i in range(x.shape[0]):
        it.set_tensor(d_in["index"], x[i:i + 1])
        it.invoke()
        want = it.get_tensor(d_out["index"])
        if want.dtype != y.dtype or want.tobytes() != y[i:i + 1].tobytes():
            sys.exit(f"litert_check: inference {i}: sparse24 {y[i].ravel()[:6]}, LiteRT "
                     f"{want.ravel()[:6]}")
    top = y.reshape(y.shape[0], -1).argmax(axis=1)
    print(f"litert_check: {x.shape[0]} of {x.shape[0]} outputs equal to LiteRT BUILTIN_REF "
          f"byte for byte; top classes {top.tolist()}")


if __name__ == "__main__":
    main()
