#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""sparse24 edge SoC: run one job on the simulated SoC from the host (docs/soc.md, "Running a job").

  soc/run.py gemm A.npy B.npy -o C.npy [--stats]
  soc/run.py linear X.npy W.npy -o Y.npy --mult MULT.npy --shift SHIFT.npy [--bias BIAS.npy]
             [--zp-in ZI] [--zp-out ZO] [--act-min LO] [--act-max HI] [--round single|double] [--stats]
  common: [--max-cycles N] [--uart FILE] [--build build/soc]

(A whole network runs through `sparse24 run --backend soc`, SPEC §9.) Writes the job (soc/firmware/soc_job.h) and its blobs into a private temporary folder, runs
build/soc/soc_sim with build/soc/fw/s24job.elf (--load of the job at the host area, --dump of the
job and the output after the firmware's exit), reads the job's status and counters back and writes
the output .npy (a temporary file beside it, renamed). The temporary folder and the simulator never
outlive it, also on SIGINT/SIGTERM/SIGHUP (the simulator gets the same signal and is waited for).
--stats prints `key: value` lines. Exit: 0 ok; 1 the job failed (its status named) or the firmware
did; 2 the cycle budget ran out; 3 bad usage or files; 4 the SoC crashed; 128+N signal N.
"""
import argparse
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
HOST_BASE = 0x41000000      # soc_rt.h SOC_HOST_BASE
HOST_SIZE = 0x01000000
MAGIC, VERSION = 0x4a343253, 1
OPS = {"gemm": 1, "linear": 2}
JOB_WORDS = 32              # the uint32 part of soc_job_t
STATS = ["soc_cycles", "load_cycles", "ip_cycles", "ip_beats", "stall_w", "stall_a", "stall_r", "jobs",
         "job_cycles", "pair"] + [f"seam_{k}_{p}" for k in ("bytes", "cycles", "wait") for p in "war"] + \
    ["linear_cycles", "linear_calls", "heap_bytes"]
JOB_SIZE = 4 * JOB_WORDS + 8 * len(STATS)
STATUS = {0: "ok", -1: "bad argument", -2: "pattern", -3: "metadata", -4: "I/O", -5: "format",
          -6: "out of memory", -7: "hardware timeout", -8: "hardware error", -9: "unsupported"}


class Usage(Exception):
    pass


def load(path, dtype, ndim):
    try:
        a = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as e:
        raise Usage(f"{path}: {e}")
    if a.dtype != np.dtype(dtype) or a.ndim != ndim:
        raise Usage(f"{path}: expected {ndim}-d {np.dtype(dtype).str}, got {a.ndim}-d {a.dtype.str}")
    return np.ascontiguousarray(a)


def build_job(args):
    """The host area's image (job struct + blobs) and where the output lands: (bytes, off, shape, dtype)."""
    blobs, off = [], 4096
    fields = dict(zi=0, zo=0, act_min=-128, act_max=127, round=0, bias_off=0, mult_off=0, shift_off=0)

    def put(a):
        nonlocal off
        start = off
        blobs.append((start, a.tobytes()))
        off = (off + a.nbytes + 4095) // 4096 * 4096
        return start
    if args.op == "gemm":
        a, b = load(args.a, "i1", 2), load(args.b, "i1", 2)
        if a.shape[1] != b.shape[0]:
            raise Usage(f"{args.b}: {b.shape[0]} rows, A has {a.shape[1]} columns")
        m, k, n = a.shape[0], a.shape[1], b.shape[1]
        fields.update(a_off=put(a), b_off=put(b))
        out_shape, out_dtype = (m, n), np.int32
    else:
        x, w = load(args.a, "i1", 2), load(args.b, "i1", 2)
        if x.shape[1] != w.shape[1]:
            raise Usage(f"{args.a}: {x.shape[1]} columns, W has {w.shape[1]}")
        m, k, n = w.shape[0], w.shape[1], x.shape[0]
        mult, shift = load(args.mult, "<i4", 1), load(args.shift, "<i4", 1)
        for name, v in (("--mult", mult), ("--shift", shift)):
            if v.shape[0] != m:
                raise Usage(f"{name}: {v.shape[0]} values for {m} output channels")
        fields.update(a_off=put(w), b_off=put(x), mult_off=put(mult), shift_off=put(shift),
                      zi=args.zp_in, zo=args.zp_out, act_min=args.act_min, act_max=args.act_max,
                      round=1 if args.round == "double" else 0)
        if args.bias:
            bias = load(args.bias, "<i4", 1)
            if bias.shape[0] != m:
                raise Usage(f"--bias: {bias.shape[0]} values for {m} output channels")
            fields["bias_off"] = put(bias)
        out_shape, out_dtype = (n, m), np.int8
    c_off = off
    out_bytes = int(np.prod(out_shape)) * np.dtype(out_dtype).itemsize
    if c_off + out_bytes > HOST_SIZE:
        raise Usage(f"the job needs {c_off + out_bytes} bytes, the SoC's host area has {HOST_SIZE}")
    words = [MAGIC, VERSION, OPS[args.op], 1, m, k, n, fields["a_off"], fields["b_off"], c_off,
             fields["bias_off"], fields["mult_off"], fields["shift_off"]]
    head = struct.pack("<13I5i", *words, fields["zi"], fields["zo"], fields["act_min"], fields["act_max"],
                       fields["round"])
    head += b"\0" * (JOB_SIZE - len(head))
    image = bytearray(c_off)
    image[:JOB_SIZE] = head
    for start, data in blobs:
        image[start:start + len(data)] = data
    return bytes(image), c_off, out_shape, out_dtype


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("op", choices=sorted(OPS))
    ap.add_argument("a", help="gemm: A.npy (int8 m x k); linear: X.npy (int8 batch x k)")
    ap.add_argument("b", help="gemm: B.npy (int8 k x n); linear: W.npy (int8 m x k)")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--bias")
    ap.add_argument("--mult")
    ap.add_argument("--shift")
    ap.add_argument("--zp-in", type=int, default=0)
    ap.add_argument("--zp-out", type=int, default=0)
    ap.add_argument("--act-min", type=int, default=-128)
    ap.add_argument("--act-max", type=int, default=127)
    ap.add_argument("--round", choices=["single", "double"], default="single")
    ap.add_argument("--stats", action="store_true")
    ap.add_argument("--max-cycles", type=int, default=2_000_000_000)
    ap.add_argument("--uart", help="the firmware's UART output (default: discarded)")
    ap.add_argument("--build", default=os.path.join(REPO, "build", "soc"))
    args = ap.parse_args()
    if args.op == "linear" and (args.mult is None or args.shift is None):
        ap.error("linear needs --mult and --shift")

    args.build = os.path.abspath(args.build)
    sim = os.path.join(args.build, "soc_sim")
    fw = os.path.join(args.build, "fw", "s24job.elf")
    boot = os.path.join(args.build, "boot.bin")
    for f in (sim, fw, boot):
        if not os.path.exists(f):
            print(f"soc/run.py: {f} missing (make soc)", file=sys.stderr)
            return 3
    try:
        image, c_off, out_shape, out_dtype = build_job(args)
    except Usage as e:
        print(f"soc/run.py: error: {e}", file=sys.stderr)
        return 3

    tmp = tempfile.mkdtemp(prefix="soc-run-")
    child = None
    got = {}

    def on_signal(sig, frame):
        got["sig"] = sig
        if child is not None and child.poll() is None:
            child.send_signal(sig)
    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        job_in = os.path.join(tmp, "job.bin")
        with open(job_in, "wb") as f:
            f.write(image)
        out_bytes = int(np.prod(out_shape)) * np.dtype(out_dtype).itemsize
        job_out, c_out = os.path.join(tmp, "job.out"), os.path.join(tmp, "c.out")
        cmd = [sim, "--rom", boot, "--elf", fw, "--load", f"{HOST_BASE:#x}={job_in}",
               "--dump", f"{HOST_BASE:#x}:{JOB_SIZE}={job_out}",
               "--dump", f"{HOST_BASE + c_off:#x}:{out_bytes}={c_out}",
               "--max-cycles", str(args.max_cycles), "--uart", os.path.abspath(args.uart) if args.uart else os.devnull,
               "--stats"]
        if "sig" not in got:
            child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp)
            _, err = child.communicate()
            rc = child.returncode
        if "sig" in got:
            return 128 + got["sig"]
        sim_stats = dict(ln.split(": ", 1) for ln in err.splitlines() if ": " in ln and not ln.startswith("soc_sim"))
        for ln in err.splitlines():
            if ln.startswith("soc_sim"):
                print(ln, file=sys.stderr)
        if rc != 0:
            return rc if rc in (1, 2, 3, 4) else 4
        with open(job_out, "rb") as f:
            job = f.read()
        status = struct.unpack_from("<i", job, 12)[0]
        stats = dict(zip(STATS, struct.unpack_from(f"<{len(STATS)}Q", job, 4 * JOB_WORDS)))
        if status != 0:
            print(f"soc/run.py: error: the job failed: {STATUS.get(status, status)}", file=sys.stderr)
            return 1
        out = np.frombuffer(open(c_out, "rb").read(), dtype=out_dtype).reshape(out_shape)
        target = os.path.abspath(args.out)
        fd, part = tempfile.mkstemp(prefix=".soc-run.", dir=os.path.dirname(target))
        try:
            with os.fdopen(fd, "wb") as f:
                np.save(f, out)
            os.replace(part, target)
        finally:
            if os.path.exists(part):
                os.remove(part)
        if args.stats:
            print(f"backend: soc\nsim_cycles: {sim_stats.get('cycles')}\nsim_wall_s: {sim_stats.get('wall_s')}")
            print(f"sim_cycles_per_s: {sim_stats.get('cycles_per_s')}")
            for k in STATS:
                print(f"{k}: {stats[k]}")
        return 0
    finally:
        if child is not None and child.poll() is None:
            child.kill()
            child.wait()
        shutil.rmtree(tmp, ignore_errors=True)
        for s, h in old.items():
            signal.signal(s, h)


if __name__ == "__main__":
    sys.exit(main())
