# SPDX-License-Identifier: Apache-2.0
"""Checks of the pieces of `make model` against independent references (make test-net).

usage: test_net.py SPARSE24 WORKDIR [SEED]
- N:M pruning in NumPy (mlp.nm_mask) == `sparse24 prune` (the C model) on random int8 matrices
  full of ties and -128, for 2:4, 1:4, 2:8;
- the permutation search: each accepted swap's exact gain is asserted inside the search; here
  the result never keeps less than the identity, and the permuted network computes the same
  function (logits to 1e-5, argmax exactly);
- quantize_multiplier reproduces the multiplier to 2^-31 relative and matches TFLite's ranges;
- SPEC §7 in NumPy (quant.linear_ref) with ZI = 0 and no requantization effects equals
  `sparse24 gemm` + bias on the accumulator (MULT = 2^30, SHIFT = 1: r = acc, clamped).
"""

import os

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

import subprocess  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mlp  # noqa: E402
import quant  # noqa: E402


def run(*cmd):
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"test-net: error: {' '.join(cmd)}: exit {res.returncode}: {res.stderr.strip()}")


def main():
    exe, work = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(seed)
    print(f"test-net: seed {seed} (rerun: test_net.py {exe} {work} {seed})")
    checks = 0

    # [1] pruning == sparse24 prune
    for (n, m) in ((2, 4), (1, 4), (2, 8)):
        for case in range(6):
            rows, k = int(rng.integers(1, 40)), m * int(rng.integers(1, 20))
            # few distinct magnitudes: ties everywhere; -128 and 127 included
            w = rng.choice(np.array([-128, -127, -3, -1, 0, 1, 3, 127], np.int8), size=(rows, k))
            src, dst = os.path.join(work, "w.npy"), os.path.join(work, "wp.npy")
            np.save(src, w)
            run(exe, "prune", src, "-o", dst, "--pattern", f"{n}:{m}")
            want = np.load(dst)
            got = (w * mlp.nm_mask(w.astype(np.float32), n, m)).astype(np.int8)
            assert np.array_equal(got, want), f"nm_mask != sparse24 prune for {n}:{m}, case {case}"
            checks += 1
    print(f"[1/4] N:M pruning in NumPy == sparse24 prune: {checks} matrices (2:4, 1:4, 2:8)")

    # [2] permutation search and permute_inputs
    net = mlp.init([16, 48, 32, 10], rng)
    for layer in net:
        layer["b"] = rng.standard_normal(layer["b"].shape).astype(np.float32) * 0.1
    x = rng.random((50, 16)).astype(np.float32)
    for (n, m) in ((2, 4), (1, 4), (2, 8)):
        pnet = net
        for layer in (1, 2):
            w = pnet[layer]["w"]
            perm = mlp.search_permutation(w, n, m)
            assert sorted(perm) == list(range(w.shape[1]))
            assert mlp.kept_magnitude(w[:, perm], n, m) >= mlp.kept_magnitude(w, n, m)
            pnet = mlp.permute_inputs(pnet, layer, perm)
        a, b = mlp.forward(net, x), mlp.forward(pnet, x)
        assert np.allclose(a, b, rtol=1e-5, atol=1e-5) and np.array_equal(a.argmax(1), b.argmax(1))
        checks += 1
    print("[2/4] permutation search keeps >= magnitude (exact gains asserted per swap), "
          "permuted networks compute the same function")

    # [3] QuantizeMultiplier
    for real in list(rng.random(200) * 2.0 ** rng.integers(-40, 0, 200)) + [0.5, 1.0 - 2 ** -40, 2 ** -31]:
        mult, shift = quant.quantize_multiplier(float(real))
        if mult == 0:
            assert real < 2 ** -31, real
            continue
        assert 2 ** 30 <= mult < 2 ** 31 and -31 <= shift <= 30, (real, mult, shift)
        assert abs(mult * 2.0 ** (shift - 31) - real) <= real * 2 ** -30, (real, mult, shift)
        checks += 1
    print("[3/4] quantize_multiplier: 2^30 <= MULT < 2^31, -31 <= SHIFT <= 30, within 2^-30 relative")

    # [4] linear_ref's accumulator == sparse24 gemm (W as A, X^T as B) + bias
    for (n, m) in ((2, 4), (1, 4), (2, 8)):
        bsz, mo, k = 7, 13, 8 * m
        w = (rng.integers(-3, 4, (mo, k)) * mlp.nm_mask(rng.standard_normal((mo, k)), n, m)).astype(np.int8)
        xx = rng.integers(-2, 3, (bsz, k)).astype(np.int8)  # small: acc mostly inside int8
        bias = rng.integers(-20, 21, mo).astype(np.int32)
        pa, pb, pc = (os.path.join(work, f) for f in ("a.npy", "b.npy", "c.npy"))
        np.save(pa, w)
        np.save(pb, np.ascontiguousarray(xx.T))
        run(exe, "gemm", pa, pb, "-o", pc, "--pattern", f"{n}:{m}")
        acc = np.load(pc).T.astype(np.int64) + bias
        y = quant.linear_ref(xx, w, bias, np.full(mo, 1 << 30, np.int32), np.ones(mo, np.int32), 0, 0, False)
        assert np.array_equal(y, np.clip(acc, -128, 127).astype(np.int8)), f"linear_ref != gemm, {n}:{m}"
        checks += 1
    print("[4/4] SPEC §7 in NumPy: accumulator == sparse24 gemm + bias (2:4, 1:4, 2:8)")
    print(f"test-net: PASS ({checks} checks)")


if __name__ == "__main__":
    main()
