# SPDX-License-Identifier: Apache-2.0
"""Prints the Python session of docs/api.md: each statement after `>>> ` and what the
interpreter answers, as an interactive session would show it. Rerun to refresh the page:
    ~/.cache/sparse24/venv/bin/python python/session.py [MODELS_DIR]
`--check DOC` compares the output with the session block of DOC (the block that starts with
`>>> import numpy`) and exits 1 naming the first differing line (make test-python).
MODELS_DIR: the MLPerf Tiny models (default `scripts/deps.sh --models-path`)."""

import argparse
import code
import contextlib
import io
import pathlib
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[1]
_ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
_ap.add_argument("models", nargs="?", help="the MLPerf Tiny models' folder")
_ap.add_argument("--check", metavar="DOC", help="compare with DOC's session instead of printing")
ARGS = _ap.parse_args()
CHECK = ARGS.check
MODELS = ARGS.models or subprocess.run(
    [str(REPO / "scripts" / "deps.sh"), "--models-path"], capture_output=True, text=True,
    check=True).stdout.strip()

SESSION = [
    "import numpy as np, sparse24",
    "rng = np.random.default_rng(1)",
    "a = sparse24.prune(rng.integers(-128, 128, (4, 8), dtype=np.int8))   # SPEC 3, 2:4",
    "a",
    "values, meta = sparse24.compress(a)",
    "values, meta",
    "b = rng.integers(-128, 128, (8, 3), dtype=np.int8)",
    "c = sparse24.gemm(a, b, backend='rtl')        # the Verilated RTL through the driver",
    "c",
    "np.array_equal(c, a.astype(np.int32) @ b)",
    "np.array_equal(sparse24.gemm_compressed(values, meta, 8, b), c)   # model, compressed A",
    "dev = sparse24.Device('rtl')",
    "c = dev.gemm(a, b)",
    "{k: dev.stats()[k] for k in ('cycles', 'stall_a_cycles', 'sim_cycles')}, round(dev.stats()['utilization'], 4)",
    "def err(f, *args, **kw):\n    try:\n        f(*args, **kw)\n"
    "    except sparse24.Error as e:\n        return e.status, e.message\n",
    "err(sparse24.gemm, np.ones((4, 8), np.int8), b)",
    "err(sparse24.gemm, a, b.astype(np.int16))",
    "x = rng.integers(-128, 128, (2, 8), dtype=np.int8)",
    "mult = np.full(4, 1518500250, np.int32); shift = np.full(4, -7, np.int32)",
    "sparse24.linear(x, a, mult, shift, bias=np.arange(4, dtype=np.int32), zi=-3, zo=5, "
    "relu=True, backend='rtl')",
    "shift[2] = 40",
    "err(sparse24.linear, x, a, mult, shift)",
    f"net = sparse24.Network('{MODELS}/kws.tflite')",
    "net.input_shape, net.input_dtype, net.output_shape",
    "y = net.run(np.random.default_rng(2).normal(0, 3, (4, 50, 10, 1)).astype(np.float32))",
    "y.argmax(axis=1)",
    "net.totals()",
    "s = net.stats(); s['op1_gemm_mkn'], s['op1_pattern'], s['op1_predicted_cycles']",
    "print('\\n'.join(net.info().splitlines()[:5]))",
    f"kws_rtl = sparse24.Network('{MODELS}/kws.tflite', backend='rtl')",
    "np.array_equal(kws_rtl.run(np.random.default_rng(2).normal(0, 3, (4, 50, 10, 1))"
    ".astype(np.float32)), y)",
    "t = kws_rtl.totals(); t['cycles'] == t['predicted_cycles'], t['cycles']",
    f"ad = sparse24.Network('{MODELS}/ad.tflite', backend='rtl')",
    "y = ad.run(np.random.default_rng(3).normal(0, 1, (1, 5, 128, 1)).astype(np.float32))",
    "{k: ad.stats()[k] for k in ('cycles', 'predicted_cycles', 'utilization', 'sim_cycles')}",
    "{k: ad.totals()[k] for k in ('arena_bytes', 'activation_bytes')}",
    "list(ad.layers().items())[:2]",
    f"pruned = sparse24.Network(sparse24.prune_model('{MODELS}/kws.tflite', '2:4'))",
    "pruned.stats()['inferences'], len(net.prune('2:4'))",
    "pruned.run(np.zeros((1, 50, 10, 1), np.float32)).shape",
    "pruned.stats()['op3_pattern'], pruned.stats()['op3_predicted_cycles']",
]


def main():
    interp = code.InteractiveInterpreter()
    out = io.StringIO()
    for stmt in SESSION:
        lines = stmt.rstrip("\n").split("\n")
        out.write(f">>> {lines[0]}\n" + "".join(f"... {line}\n" for line in lines[1:]))
        if len(lines) > 1:
            out.write("...\n")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            interp.runsource(stmt, "<stdin>", "single")
    if CHECK is None:
        sys.stdout.write(out.getvalue())
        return 0
    got = out.getvalue().splitlines()
    doc = pathlib.Path(CHECK).read_text().splitlines()
    start = doc.index(">>> " + SESSION[0])
    want = doc[start:doc.index("```", start)]
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            print(f"session: {CHECK}:{start + i + 1}: the page shows\n  {w}\nthe session gives\n  {g}\n"
                  f"(rerun python/session.py and paste its output)")
            return 1
    if len(got) != len(want):
        print(f"session: {CHECK}: {len(want)} session lines on the page, the session gives {len(got)}")
        return 1
    print(f"session: {CHECK}: all {len(got)} lines of the session equal to the page")
    return 0


if __name__ == "__main__":
    sys.exit(main())
