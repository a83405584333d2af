#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Single-operator cases of tests/net/ops_models.py on the simulated edge SoC (make soc-test-net):
each case's model through `sparse24 run --backend soc --stats`, its output byte for byte against
LiteRT's (the case's Y.npy). With --need-ip OP, at least one case must have run OP on the IP
(`opN_where: ip`), so a fallback to the CPU everywhere cannot pass for the IP's path.

  soc/tests/op_cases.py SPARSE24 CASES_DIR [--need-ip ADD,SUB]
"""
import argparse
import os
import subprocess
import sys

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sparse24")
    ap.add_argument("cases_dir")
    ap.add_argument("--need-ip", default="")
    a = ap.parse_args()
    with open(os.path.join(a.cases_dir, "cases.txt")) as f:
        cases = [c.strip() for c in f if c.strip()]
    on_ip = {}
    for c in cases:
        d = os.path.join(a.cases_dir, c)
        y = os.path.join(d, "Y_soc.npy")
        r = subprocess.run([a.sparse24, "run", os.path.join(d, "model.tflite"), os.path.join(d, "X.npy"),
                            "-o", y, "--backend", "soc", "--stats"], capture_output=True, text=True)
        if r.returncode != 0:
            print(f"op_cases: {c}: sparse24 failed: {r.stderr.strip()}")
            return 1
        stats = dict(line.split(": ", 1) for line in r.stdout.splitlines() if ": " in line)
        names = {k[:-len("_name")]: v for k, v in stats.items() if k.endswith("_name")}
        where = [f"{names[k]}:{stats.get(k + '_where', '?')}" for k in sorted(names)]
        for k, name in names.items():
            if stats.get(k + "_where") == "ip":
                on_ip[name] = on_ip.get(name, 0) + 1
        same = np.load(y).tobytes() == np.load(os.path.join(d, "Y.npy")).tobytes()
        print(f"op_cases: {c}: {'bit-exact with LiteRT' if same else 'DIFFERS from LiteRT'} "
              f"({' '.join(where)}; {stats.get('cycles_total', '?')} cycles an inference)")
        if not same:
            return 1
    for op in filter(None, a.need_ip.split(",")):
        if on_ip.get(op, 0) == 0:
            print(f"op_cases: no case ran {op} on the IP")
            return 1
    print(f"op_cases: {len(cases)} cases bit-exact with LiteRT; on the IP: "
          + ", ".join(f"{k} {v}" for k, v in sorted(on_ip.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
