#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A small convolutional int8 model built by the repository for make soc-test's whole inferences
(issue 51): net/convnet.py's conv3x3 -> maxpool -> conv3x3 -> maxpool -> fc, He-initialised with
a printed seed (not trained: byte-equality with LiteRT does not need accuracy), calibrated on
random images and quantized per channel the way net/cnn.py quantizes the trained MNIST CNN,
exported by net/cnn.py's export_int8 (float32 in, QUANTIZE, ..., DEQUANTIZE, float32 out).

  soc/tests/small_models.py OUT_DIR [--seed S] [--side 12] [--channels 8,16]

Writes OUT_DIR/s24_cnn.tflite (its 2:4 variant is `sparse24 prune` of it).
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "net"))
import cnn  # noqa: E402
import convnet  # noqa: E402

import numpy as np  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("--seed", type=int, default=51)
    ap.add_argument("--side", type=int, default=12)
    ap.add_argument("--channels", default="8,16")
    a = ap.parse_args()
    c1, c2 = (int(c) for c in a.channels.split(","))
    rng = np.random.default_rng(a.seed)
    net = convnet.init(rng, c1, c2, side=a.side)
    for layer in net:  # small nonzero biases, so the int32 bias path is exercised
        layer["b"] = rng.normal(0, 0.05, layer["b"].shape).astype(np.float32)
    calib = rng.integers(0, 256, (64, a.side, a.side, 1)).astype(np.float32)
    layers = cnn.quantize(net, convnet.layer_outputs(net, calib))
    blob = cnn.export_int8(layers, side=a.side)
    os.makedirs(a.out_dir, exist_ok=True)
    path = os.path.join(a.out_dir, "s24_cnn.tflite")
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(blob)
    os.replace(tmp, path)
    macs = sum(int(np.prod(q["w"].shape)) for q in layers)
    print(f"small_models: seed {a.seed}: {path} ({len(blob)} bytes; conv3x3({c1}) -> maxpool -> "
          f"conv3x3({c2}) -> maxpool -> fc(10) on {a.side}x{a.side}, {macs} weights)")


if __name__ == "__main__":
    main()
