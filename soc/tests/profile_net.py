#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where one inference's cycles go on the simulated SoC, by function of the firmware (make
soc-profile, docs/results.md): `sparse24 run --backend soc` with S24_SOC_PROFILE twice, on 1 and on
1 + N random inputs (printed seed), and soc/profile.py folding the difference divided by N, so that
the load and the start-up, alike in both runs, drop out.

  soc/tests/profile_net.py SPARSE24 MODELS_DIR MODEL WEIGHTS FW.elf OUT_DIR [--more N] [--seed S]
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "net"))
from networks import litert, random_inputs, variant_model  # noqa: E402

import numpy as np  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    for name in ("sparse24", "models_dir", "model", "weights", "elf", "out_dir"):
        ap.add_argument(name)
    ap.add_argument("--more", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--top", type=int, default=20)
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    path = variant_model(a.sparse24, a.models_dir, a.out_dir, a.model, a.weights, "soc-profile")
    x = random_inputs(litert(path), 1 + a.more, np.random.default_rng(a.seed))
    prof = []
    for n in (1, 1 + a.more):
        xp, yp = (os.path.join(a.out_dir, f"{t}{n}.npy") for t in ("x", "y"))
        pp = os.path.join(a.out_dir, f"profile{n}.txt")
        np.save(xp, x[:n])
        r = subprocess.run([a.sparse24, "run", path, xp, "-o", yp, "--backend", "soc"],
                           env=dict(os.environ, S24_SOC_PROFILE=pp), capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"soc-profile: {a.model} {a.weights}, {n} input(s): {r.stderr.strip()}")
        prof.append(pp)
    print(f"soc-profile: {a.model} {a.weights} on the IP, seed {a.seed}: one inference, "
          f"({n} inputs - 1 input) / {a.more}", flush=True)
    return subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE), "profile.py"), prof[1],
                           a.elf, "--base", prof[0], "--per", str(a.more), "--top", str(a.top)]).returncode


if __name__ == "__main__":
    sys.exit(main())
