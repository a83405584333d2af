#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""soc-test's host half: jobs through the runner (soc/run.py -> build/soc/soc_sim -> s24job.elf) equal
the command's C model byte for byte (build/sparse24 gemm / linear --backend model), with the SoC's
counters printed. Usage: run_check.py BUILD_DIR [--long]. Prints one line per job, then
'N passed, N failed'; exit 1 on any failure."""
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def prune24(a):
    m, k = a.shape
    g = a.reshape(m, k // 4, 4).astype(np.int32)
    order = np.argsort(-np.abs(g), axis=2, kind="stable")   # ties: the lower index is kept
    np.put_along_axis(g, order[:, :, 2:], 0, axis=2)
    return g.reshape(m, k).astype(np.int8)


def stats_of(text):
    return dict(ln.split(": ", 1) for ln in text.splitlines() if ": " in ln)


def main():
    build = sys.argv[1]
    long = "--long" in sys.argv
    py = sys.executable
    cli = os.path.join(build, "sparse24")
    rng = np.random.default_rng(51)
    cases = [("gemm", 20, 32, 12), ("linear", 20, 48, 7)]
    if long:
        cases += [("gemm", 64, 256, 40), ("linear", 72, 128, 16)]
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="soc-check-") as d:
        for op, m, k, n in cases:
            p = lambda name: os.path.join(d, name)
            if op == "gemm":
                np.save(p("A.npy"), prune24(rng.integers(-128, 128, (m, k), dtype=np.int8)))
                np.save(p("B.npy"), rng.integers(-128, 128, (k, n), dtype=np.int8))
                ref = [cli, "gemm", p("A.npy"), p("B.npy"), "-o", p("ref.npy")]
                soc = [py, os.path.join(REPO, "soc", "run.py"), "gemm", p("A.npy"), p("B.npy"), "-o", p("out.npy")]
            else:
                np.save(p("X.npy"), rng.integers(-128, 128, (n, k), dtype=np.int8))
                np.save(p("W.npy"), prune24(rng.integers(-128, 128, (m, k), dtype=np.int8)))
                np.save(p("bias.npy"), rng.integers(-50000, 50000, m, dtype=np.int32))
                np.save(p("mult.npy"), rng.integers(1 << 30, (1 << 31) - 1, m, dtype=np.int32))
                np.save(p("shift.npy"), -rng.integers(6, 12, m, dtype=np.int32))
                prm = ["--bias", p("bias.npy"), "--mult", p("mult.npy"), "--shift", p("shift.npy"),
                       "--zp-in", "3", "--zp-out", "-4"]
                ref = [cli, "linear", p("X.npy"), p("W.npy"), "-o", p("ref.npy")] + prm
                soc = [py, os.path.join(REPO, "soc", "run.py"), "linear", p("X.npy"), p("W.npy"), "-o",
                       p("out.npy")] + prm
            r1 = subprocess.run(ref, capture_output=True, text=True)
            r2 = subprocess.run(soc + ["--stats", "--build", build + "/soc"], capture_output=True, text=True)
            ok = r1.returncode == 0 and r2.returncode == 0 and \
                open(p("ref.npy"), "rb").read()[128:] == open(p("out.npy"), "rb").read()[128:]
            ok = ok and np.array_equal(np.load(p("ref.npy")), np.load(p("out.npy")))
            s = stats_of(r2.stdout)
            print(f"run.py {op} {m}x{k}x{n}: {'ok' if ok else 'FAIL'} soc_cycles={s.get('soc_cycles')} "
                  f"ip_cycles={s.get('ip_cycles')} stall_w={s.get('stall_w')} stall_a={s.get('stall_a')} "
                  f"stall_r={s.get('stall_r')} sim_cycles_per_s={s.get('sim_cycles_per_s')}")
            if not ok:
                print(r1.stderr.strip(), r2.stderr.strip())
            passed += ok
            failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
