# SPDX-License-Identifier: Apache-2.0
"""`sparse24 run` on the host-operator models of ops_models.py, byte for byte against LiteRT's
BUILTIN_REF outputs (SPEC §8): every case of a directory written by ops_models.py (or, with
--generate, a fresh one) is run as

    SPARSE24 run CASE/model.tflite CASE/X.npy -o WORKDIR/CASE.out.npy --backend BACKEND

and the output must have Y.npy's dtype and shape and the same bytes; a case LiteRT refuses
(refused.txt instead of Y.npy) must end in exit 1, one line `sparse24: error: ...`, no output.

usage: run_ops.py SPARSE24 CASES_DIR [--backend model|rtl] [--generate [--seed S] [--per-op N]]
Prints one line per failing case and 'N passed, N failed'; exit 1 if any failed.
"""
import argparse
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sparse24")
    ap.add_argument("cases")
    ap.add_argument("--backend", default="model")
    ap.add_argument("--generate", action="store_true",
                    help="write the cases first (ops_models.py CASES_DIR)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--per-op", type=int, default=20)
    args = ap.parse_args()
    if args.generate:
        cmd = [sys.executable, os.path.join(HERE, "ops_models.py"), args.cases,
               "--per-op", str(args.per_op)]
        if args.seed is not None:
            cmd += ["--seed", str(args.seed)]
        if subprocess.call(cmd) != 0:
            return 1
    with open(os.path.join(args.cases, "cases.txt")) as f:
        names = [n.strip() for n in f if n.strip()]
    passed = failed = 0
    for name in names:
        d = os.path.join(args.cases, name)
        out = os.path.join(d, f"out_{args.backend}.npy")
        if os.path.exists(out):
            os.remove(out)
        cmd = [args.sparse24, "run", os.path.join(d, "model.tflite"), os.path.join(d, "X.npy"),
               "-o", out, "--backend", args.backend]
        r = subprocess.run(cmd, capture_output=True, text=True)
        problem = None
        if os.path.exists(os.path.join(d, "refused.txt")):  # LiteRT refuses the model
            if r.returncode != 1 or not r.stderr.startswith("sparse24: error: ") or \
                    r.stderr.count("\n") != 1 or os.path.exists(out):
                problem = (f"LiteRT refuses the model; sparse24 exit {r.returncode}, "
                           f"stderr {r.stderr.strip()!r}")
        elif r.returncode != 0:
            problem = f"exit {r.returncode}: {r.stderr.strip()}"
        elif not os.path.exists(out):
            problem = "no output file"
        else:
            want = np.load(os.path.join(d, "Y.npy"))
            got = np.load(out)
            if got.dtype != want.dtype or got.shape != want.shape:
                problem = f"output {got.dtype} {got.shape}, LiteRT {want.dtype} {want.shape}"
            elif got.tobytes() != want.tobytes():
                bad = np.flatnonzero(got.view(np.uint8).ravel() != want.view(np.uint8).ravel())
                e = int(bad[0]) // want.itemsize
                problem = (f"{len(bad)} bytes differ, first at element {e}: "
                           f"{got.ravel()[e]!r}, LiteRT {want.ravel()[e]!r}")
        if problem is None:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {name}: {problem}\n  rerun: {' '.join(cmd)}")
    print(f"run_ops.py ({args.backend}): {passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
