# SPDX-License-Identifier: Apache-2.0
"""Checks of the MNIST CNN's pieces (net/convnet.py, net/cnn.py) against independent references
(make test-cnn-quick).

usage: test_cnn.py [SEED]
- convnet.gradients == central finite differences of the loss (float64, every parameter tensor,
  random entries), with ReLU, max pooling and SAME padding in play;
- im2col + GEMM == a direct 3x3 SAME convolution written as loops over taps, and col2im is
  im2col's adjoint (<im2col(x), g> == <x, col2im(g)>);
- the channel permutation search never keeps less magnitude than the identity, and the permuted
  network computes the same function (logits to 1e-9, float64);
- convnet.nm_mask with K not a multiple of m (a 3x3x1 conv: K = 9) == SPEC §3 on K padded with
  zeros, written as a loop;
- cnn.requant_double_rounding == tests/linear/tflite_fc.py's scalar gemmlowp version on random
  accumulators and multipliers, including ties.
"""
import os

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

import sys  # noqa: E402

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests", "linear"))
import cnn  # noqa: E402
import convnet  # noqa: E402
import tflite_fc  # noqa: E402


def small_net(rng, c1=8, c2=8, side=8):
    net = convnet.init(rng, c1, c2, side=side)
    for layer in net:
        layer["w"] = layer["w"].astype(np.float64)
        layer["b"] = rng.standard_normal(layer["b"].shape) * 0.1
    return net


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    rng = np.random.default_rng(seed)
    print(f"test-cnn: seed {seed} (rerun: test_cnn.py {seed})")

    # [1] gradients
    net = small_net(rng)
    x = rng.random((4, 8, 8, 1)) * 255
    y = rng.integers(0, 10, 4)
    _, grads = convnet.gradients(net, x, y, 0.0)
    checked = 0
    for li, layer in enumerate(net):
        for gi, key in enumerate(("w", "b")):
            a = layer[key]
            for _ in range(4):
                idx = tuple(int(rng.integers(0, s)) for s in a.shape)
                old = a[idx]
                a[idx] = old + 1e-6
                lp, _ = convnet.gradients(net, x, y, 0.0)
                a[idx] = old - 1e-6
                lm, _ = convnet.gradients(net, x, y, 0.0)
                a[idx] = old
                num = (lp - lm) / 2e-6 / len(y)
                got = grads[2 * li + gi][idx]
                assert abs(num - got) <= 1e-6 + 1e-5 * abs(num), (li, key, idx, num, got)
                checked += 1
    print(f"[1/5] backprop == finite differences on {checked} parameters")

    # [2] im2col convolution == direct loops; col2im is the adjoint
    h = rng.standard_normal((2, 5, 6, 3))
    w = rng.standard_normal((4, 3, 3, 3))
    cols = convnet.im2col(h)
    got = (cols.reshape(-1, 27) @ w.reshape(4, -1).T).reshape(2, 5, 6, 4)
    hp = np.pad(h, ((0, 0), (1, 1), (1, 1), (0, 0)))
    want = np.zeros((2, 5, 6, 4))
    for dy in range(3):
        for dx in range(3):
            want += np.einsum("bhwc,oc->bhwo", hp[:, dy:dy + 5, dx:dx + 6, :], w[:, dy, dx, :])
    assert np.allclose(got, want, atol=1e-12)
    g = rng.standard_normal(cols.shape)
    assert np.isclose(np.sum(cols * g), np.sum(h * convnet.col2im(g)))
    print("[2/5] im2col GEMM == direct SAME convolution (OHWI, ic fastest); col2im == adjoint")

    # [3] channel permutation
    for (n, m) in ((2, 4), (1, 4), (2, 8)):
        net = small_net(rng, 16, 16)
        pnet = net
        for i in (1, 2):
            c = pnet[i - 1]["w"].shape[0]
            perm = convnet.search_channels(pnet, i, n, m)
            assert sorted(perm) == list(range(c))
            wb = convnet.channel_matrix(pnet[i], c)
            before = float(np.abs(wb * convnet.nm_mask(wb, n, m)).sum())
            pnet = convnet.permute_channels(pnet, i, perm)
            wa = convnet.channel_matrix(pnet[i], c)
            assert float(np.abs(wa * convnet.nm_mask(wa, n, m)).sum()) >= before - 1e-9
        xx = rng.random((3, 8, 8, 1)) * 255
        a, b = convnet.forward(net, xx), convnet.forward(pnet, xx)
        assert np.allclose(a, b, rtol=1e-9, atol=1e-9), np.abs(a - b).max()
    print("[3/5] permutation search keeps >= magnitude; permuted CNNs compute the same function")

    # [4] N:M mask with K padded to a multiple of m (SPEC §8), ties and -128 included
    for (n, m) in ((2, 4), (1, 4), (2, 8)):
        wq = rng.choice(np.array([-128, -127, -3, -1, 0, 1, 3, 127]), size=(6, 3, 3, 1))
        mask = convnet.nm_mask(wq.astype(np.float32), n, m).reshape(6, 9)
        for r, row in enumerate(wq.reshape(6, 9)):
            padded = list(row) + [0] * (-9 % m)
            keep = set()
            for g0 in range(0, len(padded), m):
                order = sorted(range(g0, g0 + m), key=lambda k: (-abs(int(padded[k])), k))
                keep |= set(order[:n])
            want = np.array([1.0 if k in keep else 0.0 for k in range(9)])
            assert np.array_equal(mask[r], want), (n, m, row, mask[r], want)
    print("[4/5] nm_mask with K = 9 == SPEC §3 on K padded with zeros (2:4, 1:4, 2:8)")

    # [5] vectorised double rounding == the scalar gemmlowp version
    acc = rng.integers(-(1 << 20), 1 << 20, (40, 12)).astype(np.int64)
    acc[:, 0] = rng.integers(-64, 64, 40) * 1024 + 512  # exact ties after the first step
    mult = rng.integers(1 << 30, 1 << 31, 12).astype(np.int64)
    mult[0] = 1 << 30
    shift = rng.integers(-14, 2, 12).astype(np.int64)
    shift[0] = -10
    for zo, lo in ((0, -128), (-5, -5), (17, 17)):
        got = cnn.requant_double_rounding(acc, mult, shift, zo, lo)
        want = tflite_fc.requant_double_rounding(acc, mult, shift, zo, lo)
        assert np.array_equal(got, want)
    print("[5/5] requant_double_rounding == tflite_fc's scalar gemmlowp rounding")
    print("test-cnn: PASS")


if __name__ == "__main__":
    main()
