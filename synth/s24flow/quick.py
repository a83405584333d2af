# SPDX-License-Identifier: Apache-2.0
# sparse24 synthesis flow (synth/s24_synth.py): the quick check of `make test` (make synth-check).
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from .common import REPO, SYNTH, FlowError
from .docs import docs_check, pastes
from .filelist import hier_cmd, read_cmd, render_script, rtl_digest, used_sources, verilog_code
from .metrics import ecp5_metrics, ecp5_reset_lut_copies, ice40_metrics
from .nextpnr import cell_counts, mhz_cell, parse_pnr_seeds, read_int, routed_mhz, seeds_text
from .records import FOLDER, read_record, record_path, write_record
from .report import sources_line
from .runner import Job, brief, full_jobs, placer_seed, run, yosys


def quick(args, files, incdirs):
    """Small configurations: generic synth with check -assert and no latches; DSP inference exact on
    ECP5 and iCE40 (one DSP per multiplier)."""
    checks = []
    configs = ((2, 4), (2, 2))
    targets = ("generic", "ecp5", "ice40")
    metrics = {"ecp5": ecp5_metrics, "ice40": ice40_metrics}   # the flow's own cell counting
    total = len(configs) * len(targets) + 6   # and the six mechanisms below
    for n, m in configs:
        params = {"NumRows": 2, "NumCols": 2, "SparseN": n, "SparseM": m}
        for target in targets:
            name = f"{target} 2x2 {n}:{m}"
            out = os.path.join(args.out, f"{target}_2x2_{n}of{m}")
            os.makedirs(out, exist_ok=True)
            values = dict(read=read_cmd(files, incdirs, target), hierarchy=hier_cmd("s24_core", params), top="s24_core",
                          synthdir=SYNTH)
            t = time.time()
            try:
                yosys(args, render_script(f"{target}_core", out, **values), out, "yosys.log", name)
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
                # the report's per-run sources (used_sources): the core's hierarchy, not the top's files
                used = {os.path.relpath(p, REPO) for p in used_sources(os.path.join(out, "yosys.log"), files)}
                want_used = {"rtl/s24_core.v", "rtl/s24_pe.v", "rtl/s24_mul.v"}
                if not want_used <= used or "rtl/s24_epilogue.v" in used:
                    errs.append(f"sources from Yosys's hierarchy {sorted(used)}: expected {sorted(want_used)} "
                                "and not rtl/s24_epilogue.v")
                if target in metrics:
                    want, got = 2 * 2 * n, metrics[target](cells)
                    if got["dsps"] != want:
                        errs.append(f"{got['dsps']} DSPs for {want} multipliers (DSP inference)")
                    info = f"DSPs={got['dsps']} LUTs={got['luts']} FFs={got['ffs']}"
                else:
                    info = f"{sum(cells.values())} cells, check -assert passed"
                if target == "ecp5":   # no LUT4 inverter per flop in front of its reset (synth/ecp5_ffs.ys)
                    resets, copies = ecp5_reset_lut_copies(os.path.join(out, "netlist.json"), "s24_core")
                    if copies:
                        errs.append(f"{copies} of the {resets} LUT4s that drive flop resets repeat another "
                                    "(the same function of the same inputs: one inverter per flop)")
                    info += f", {resets} reset LUT4s (no copies)"
                if errs:
                    raise FlowError(f"{name}: " + ", ".join(errs) + f" (log {os.path.relpath(out, REPO)}/yosys.log)")
                checks.append((name, True, f"{info}, 0 latches"))
            except FlowError as e:
                checks.append((name, False, str(e)))
            ok, msg = checks[-1][1], checks[-1][2]
            print(f"[{len(checks)}/{total}] synth-check {name}: {'ok' if ok else 'FAIL'}: {msg} "
                  f"({time.time() - t:.0f} s)", flush=True)
    def median():
        seed_median_check()
        return "a seed that did not route counts as 0 MHz"
    mechanisms = (("ecp5 flop mapping", lambda: ecp5_ff_check(args, os.path.join(args.out, "ecp5_ffs"))),
                  ("the median over placer seeds", median),
                  ("the sources' digest", digest_check),
                  ("the run records", records_check),
                  ("--resume", lambda: resume_check(args)),
                  ("the docs' report", lambda: docs_report_check(args)))
    for name, check in mechanisms:   # the flow's own mechanisms, each on made-up or committed inputs
        t = time.time()
        try:
            checks.append((name, True, check()))
        except Exception as e:   # any error of a mechanism is a failed check, reported as one
            checks.append((name, False, str(e) or type(e).__name__))
        print(f"[{len(checks)}/{total}] synth-check {name}: {'ok' if checks[-1][1] else 'FAIL'}: "
              f"{checks[-1][2]} ({time.time() - t:.0f} s)", flush=True)
    passed = sum(1 for c in checks if c[1])
    print(f"synth-check: made by {args.yosys_version}")
    print(f"{passed} passed, {len(checks) - passed} failed")
    return 0 if passed == len(checks) else 1


def ecp5_ff_check(args, out, seed=1):
    """synth/ecp5_ffs.ys: the twelve flops of synth/ecp5_ffs_check.v (active-low asynchronous and
    synchronous resets to 0 and 1, with and without an enable of either polarity), mapped as the core
    is mapped, are TRELLIS_FFs on their own reset inverter (LSRMUX INV, no LUT4 in front) and, with
    Yosys's ECP5 cell models flattened in, equal the RTL on 20,000 random cycles (Icarus Verilog)."""
    os.makedirs(out, exist_ok=True)
    src = os.path.join(SYNTH, "ecp5_ffs_check.v")
    syn, flat, sim = (os.path.join(out, f) for f in ("ffs_syn.v", "ffs_flat.v", "ffs_sim"))
    script = os.path.join(out, "map.ys")
    with open(script, "w") as f:
        f.write(f"read_verilog {src}\nhierarchy -top s24_ffs_check\n"
                "synth_ecp5 -top s24_ffs_check -run begin:map_ffs\nscript synth/ecp5_ffs.ys\n"
                "synth_ecp5 -top s24_ffs_check -run map_ffs:\n"
                f"tee -q -o {out}/stat.json stat -json\n"
                f"rename s24_ffs_check s24_ffs_check_syn\nwrite_verilog -noattr {syn}\n"
                # the mapped netlist with the cell models flattened in, for a plain simulator
                "design -reset\nread_verilog +/ecp5/cells_sim.v\n"
                f"read_verilog {syn}\nhierarchy -top s24_ffs_check_syn\nflatten\nproc\nopt_clean\n"
                f"write_verilog -noattr {flat}\n")
    yosys(args, script, out, "yosys.log", "ecp5 flop mapping")
    cells = cell_counts(os.path.join(out, "stat.json"), "s24_ffs_check")
    with open(syn) as f:
        inv = f.read().count('.LSRMUX("INV")')
    if cells.get("TRELLIS_FF") != 12 or inv != 12 or cells.get("LUT4", 0):
        raise FlowError(f"ecp5 flop mapping: {cells.get('TRELLIS_FF', 0)} TRELLIS_FF ({inv} on their reset "
                        f"inverter) and {cells.get('LUT4', 0)} LUT4 for 12 flops: expected 12, 12 and 0 "
                        f"(log {os.path.relpath(out, REPO)}/yosys.log)")
    run(["iverilog", "-g2012", "-DS24_FFS_TB", "-o", sim, src, flat], os.path.join(out, "iverilog.log"), 300,
        "ecp5 flop mapping (iverilog)")
    run(["vvp", "-n", sim, f"+seed={seed}"], os.path.join(out, "vvp.log"), 300, "ecp5 flop mapping (vvp)")
    with open(os.path.join(out, "vvp.log")) as f:
        text = f.read()
    m = re.search(r"seed (\d+), 20000 cycles, (\d+) mismatches", text)
    if not m or m.group(2) != "0":
        raise FlowError(f"ecp5 flop mapping: the mapped flops differ from the RTL ({m.group(0) if m else 'no result'}; "
                        f"log {os.path.relpath(out, REPO)}/vvp.log)")
    return f"12 flops on their reset inverter, 0 LUT4, equal to the RTL on 20000 random cycles (seed {m.group(1)})"


def seed_median_check():
    """parse_pnr_seeds on made-up nextpnr reports: the median counts a seed that did not route
    (pnr_s<seed>.fail: its nextpnr failed or used up its CPU seconds) as 0 MHz, the critical path
    comes from a routed seed, and no routed seed at all is a FlowError."""
    def fake(d, seed, mhz):
        with open(os.path.join(d, f"pnr_s{seed}.json"), "w") as f:
            json.dump({"fmax": {"clk": {"achieved": mhz}}, "utilization": {}, "critical_paths": []}, f)

    def fail(d, seed):
        with open(os.path.join(d, f"pnr_s{seed}.fail"), "w") as f:
            f.write("timed out\n")

    with tempfile.TemporaryDirectory() as d:
        fake(d, 1, 110.42)
        fake(d, 3, 104.86)
        fake(d, 2, 999.0)   # the report of an earlier attempt of seed 2: placer_seed removes it
        # a placer seed whose nextpnr fails becomes pnr_s2.fail (the runner's path; a timeout takes the same)
        said = io.StringIO()
        with contextlib.redirect_stdout(said):
            placer_seed(["sh", "-c", "echo 'ERROR: failed to route' >&2; exit 3"], d, 2, "check seed 2",
                        os.path.join(d, "pnr_s2.log"))
        assert "check seed 2: exit 3: ERROR: failed to route" in said.getvalue(), said.getvalue()
        assert not os.path.exists(os.path.join(d, "pnr_s2.json")), "a failed seed left its report"
        try:   # the CPU-time limit of a nextpnr run: a tool that spins is stopped by its CPU seconds
            run(["sh", "-c", "while :; do :; done"], os.path.join(d, "spin.log"), 60, "check spin", cpu=1)
        except FlowError as e:
            assert "stopped after 1 s of CPU time" in str(e), e
        else:
            raise AssertionError("a spinning tool outlived its CPU limit")
        fake(d, 2, 999.0)   # a report beside a .fail (e.g. a seed stopped after writing it) is not a result
        r = parse_pnr_seeds(d, "check")
        assert r["fmax_mhz"] == 104.86 and r["seeds"] == {1: 110.42, 2: None, 3: 104.86}, r
        assert r["critical_seed"] == 3 and r["critical_fmax"] == 104.86 and "exit 3" in r["failed"][2], r
        assert seeds_text(r) == "110.4 / no route / 104.9", seeds_text(r)
        job = Job("ecp5", 8, 8, 2, 4, pnr=True)   # the flow's progress line on such a result
        job.result = {"cells": {}, "latches": 0, "check_problems": 0, "pnr": r}
        assert "Fmax=104.9 MHz (110.4 / no route / 104.9)" in brief(job), brief(job)
        fail(d, 3)
        r = parse_pnr_seeds(d, "check")   # 110.42, 0, 0: the median is a seed that did not route
        assert r["fmax_mhz"] == 0.0 and r["critical_seed"] == 1, r
        assert mhz_cell(r) == "no route" and routed_mhz(r) is None, mhz_cell(r)   # the report's cell, not 0.0
        job.result["pnr"] = r
        assert "Fmax: no route (110.4 / no route / no route)" in brief(job), brief(job)
        os.remove(os.path.join(d, "pnr_s3.fail"))   # two seeds, one routed: the lower middle, not a mean
        os.remove(os.path.join(d, "pnr_s3.json"))
        r = parse_pnr_seeds(d, "check")
        assert r["fmax_mhz"] == 0.0, r
        fail(d, 3)
        fail(d, 1)
        try:
            parse_pnr_seeds(d, "check")
        except FlowError as e:
            assert "no placer seed routed" in str(e), e
        else:
            raise AssertionError("three seeds that did not route gave a result")


def digest_check():
    """filelist.verilog_code: a comment or a formal-only branch (`ifdef FORMAL / S24_SBY, `ifndef's
    `else) does not change a source's digest; a change anywhere Yosys reads does, the `else branch
    of `ifdef FORMAL and whatever another conditional guards included."""
    base = (b"module m(input a, output y);\n  assign y = a;\n`ifdef FORMAL\n  always @* assert(y == a);\n"
            b"`ifdef S24_FV_X\n  x;\n`endif\n`else\n  wire k;\n`endif\n`ifndef S24_SBY\n  wire t;\n`else\n"
            b"  wire e;\n`endif\n`ifdef S24_ECP5\n  wire d;\n`endif\nendmodule\n")
    same = [base.replace(b"assert(y == a)", b"assert(y != a)"), base.replace(b"  x;", b"  z;"),
            base.replace(b"wire e;", b"wire f;"), base.replace(b"assign y = a;", b"assign y = a; // c")]
    other = [base.replace(b"assign y = a;", b"assign y = !a;"), base.replace(b"wire k;", b"wire k2;"),
             base.replace(b"wire t;", b"wire t2;"), base.replace(b"wire d;", b"wire d2;")]
    key = verilog_code(base)
    bad = [i for i, t in enumerate(same) if verilog_code(t) != key]
    bad += [len(same) + i for i, t in enumerate(other) if verilog_code(t) == key]
    if bad:
        raise FlowError(f"digest: cases {bad} wrong (0-3 must keep it, 4-7 change it)")
    return f"{len(same)} changes a synthesis never reads keep it, {len(other)} it reads change it"


def records_check():
    """synth/records/ (records.py): a record read back is the result written (the placer seeds' keys
    integers again); a truncated record, one of another configuration, one missing a field the report
    reads or holding it with the wrong type, and one that cannot be written are errors that leave
    nothing behind; a 1-seed run does not replace a current 3-seed record; a record whose sources
    changed is named stale in the report's sources line; and every committed record is readable as
    the configuration its name says."""
    with tempfile.TemporaryDirectory() as d:
        job = Job("ecp5", 8, 8, 2, 4, pnr=True)
        job.seconds = 61.0
        src = "synth/s24_synth.py"
        crit = {"start": "a", "end": "b", "delay_ns": 6.2, "logic_ns": 1.0, "routing_ns": 5.2, "max_route_ns": 3.0,
                "nets": ["x"]}
        job.result = dict(job.identity(), rtl="000000000000", rtl_files=[src], yosys="check", cells={"LUT4": 7},
                          latches=0, check_problems=0, harness_cells={"LUT4": 1},
                          pnr={"fmax_mhz": 104.86, "seeds": {1: 110.42, 2: None, 3: 104.86},
                               "failed": {2: "timed out"}, "util": {"MULT18X18D": 128}, "critical": crit,
                               "critical_text": "t", "critical_seed": 3, "critical_fmax": 104.86})
        assert write_record(d, job, {"yosys": "check"}, "0000000")
        rec = read_record(d, job)
        assert rec["result"] == job.result and rec["seconds"] == 61.0, rec
        stale = sources_line([job])   # the digest of no tree: stale
        assert "WARNING: 1 runs read sources that have changed" in stale, stale
        job.result["rtl"] = rtl_digest([os.path.join(REPO, src)])
        assert "Every run is current." in sources_line([job]), sources_line([job])
        assert write_record(d, job, {"yosys": "check"}, "0000000")
        one = Job("ecp5", 8, 8, 2, 4, pnr=True)   # a 1-seed trial of the same sources: the 3 seeds are kept
        one.result = json.loads(json.dumps(job.result))
        one.result["pnr"]["seeds"], one.result["pnr"]["failed"] = {"1": 110.42}, {}
        assert not write_record(d, one, {"yosys": "check"}, "0000000"), "a 1-seed run replaced 3 seeds"
        assert len(read_record(d, job)["result"]["pnr"]["seeds"]) == 3
        path = record_path(d, job)
        with open(path) as f:
            good = json.load(f)

        def breaks(what, edit, job2=job):
            bad = json.loads(json.dumps(good))
            text = edit(bad)
            with open(record_path(d, job2), "w") as f:
                f.write(text if isinstance(text, str) else json.dumps(bad))
            try:
                read_record(d, job2)
            except FlowError as e:
                assert os.path.basename(record_path(d, job2)) in str(e), e
            else:
                raise AssertionError(f"a record with {what} was read")

        breaks("half its text", lambda r: json.dumps(r)[:200])
        breaks("another configuration", lambda r: None, Job("ecp5", 8, 8, 2, 2, pnr=True))
        breaks("cells null", lambda r: r["result"].update(cells=None))
        breaks("no latches", lambda r: r["result"].pop("latches"))
        breaks("pnr null", lambda r: r["result"].update(pnr=None))
        breaks("seeds a list", lambda r: r["result"]["pnr"].update(seeds=[1, 2]))
        breaks("a seed not a number", lambda r: r["result"]["pnr"]["seeds"].update(x=1.0))
        breaks("Fmax a string", lambda r: r["result"]["pnr"].update(fmax_mhz="160"))
        breaks("a critical path without delays", lambda r: r["result"]["pnr"]["critical"].pop("delay_ns"))
        breaks("versions a list", lambda r: r.update(versions=["x"]))
        breaks("seconds a string", lambda r: r.update(seconds="a"))
        job.result["cells"] = {"LUT4": object()}   # not JSON: the write fails and leaves no file
        os.remove(path)
        try:
            write_record(d, job, {}, "0000000")
        except TypeError:
            pass
        else:
            raise AssertionError("an unwritable record was written")
        left = sorted(f for f in os.listdir(d) if f.startswith(job.name))
        assert not left, f"a failed write left {left}"
    names = sorted(f[:-5] for f in os.listdir(FOLDER) if f.endswith(".json")) if os.path.isdir(FOLDER) else []
    jobs = {j.name: j for j in full_jobs(list(range(1, 33)), True)}   # every size --sizes allows
    for name in names:
        if name not in jobs:
            raise FlowError(f"synth/records/{name}.json: no configuration {name} in `make synth`")
        read_record(FOLDER, jobs[name])
    return f"written, read back, refused when broken (11 ways); {len(names)} committed records readable"


def docs_report_check(args):
    """docs/results.md's pasted synthesis report, and README.md's excerpt of it, are those the committed
    records give now (make synth-report's command, into a folder of its own), apart from date and commit."""
    out = os.path.join(args.out, "docs-report")
    os.makedirs(out, exist_ok=True)
    cmd = [sys.executable, os.path.join(SYNTH, "s24_synth.py"), "--report-only", "--from-records", "--records",
           FOLDER, "--out", out, "--yosys", " ".join(args.yosys)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    if p.returncode not in (0, 1):   # 1: configurations without a record, a report still written
        raise FlowError(f"the records' report: {' '.join(cmd)} exited {p.returncode}: {p.stdout.strip()[-300:]}")
    with open(os.path.join(out, "report.md")) as f:
        report = f.read()
    return "; ".join(docs_check(path, begin, body) for path, begin, body in pastes(report))


def resume_check(args):
    """run_job --resume on a made-up run folder (Yosys's results of these sources, seed 1's report and
    seed 2's .fail) with a stand-in nextpnr that reports 1 MHz: only seed 3 runs, the others are
    kept; with a source's digest that no longer matches, nothing is kept (the stand-in's Yosys step
    fails here, as no Yosys runs: that is the point) and every old seed file is gone."""
    import argparse
    from .runner import resumable, run_job, target_scripts
    with tempfile.TemporaryDirectory() as d:
        job = Job("ecp5", 8, 8, 2, 4, pnr=True)
        out = os.path.join(d, job.name)
        os.makedirs(out)
        used = [os.path.join(REPO, "rtl", "s24_pe.v")] + target_scripts("ecp5", True)
        fake_np = os.path.join(d, "nextpnr")
        with open(fake_np, "w") as f:
            f.write('#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = --report ] && r=$2; shift; done\n'
                    'echo \'{"fmax": {"clk": {"achieved": 1.0}}, "utilization": {}, "critical_paths": []}\' > "$r"\n')
        os.chmod(fake_np, 0o755)
        a = argparse.Namespace(out=d, resume=True, seeds=3, yosys=["false"], yosys_version="check-yosys",
                               router="router1", nextpnr_ecp5=[fake_np], top_extra=[])

        def made_up(digest):
            files = {"rtl.sha256": digest + "\n", "yosys.version": "check-yosys\n",
                     "rtl_files.txt": "".join(os.path.relpath(p, REPO) + "\n" for p in used),
                     "stat.json": json.dumps({"modules": {"s24_core": {"num_cells_by_type": {"LUT4": 5}}}}),
                     "wrap_stat.json": json.dumps({"modules": {"s24_fmax_wrap": {"num_cells_by_type": {"LUT4": 6}}}}),
                     "wrap.json": "{}", "latches.txt": "0 objects\n", "check.txt": "Found and reported 0 problems\n",
                     "pnr_s1.json": json.dumps({"fmax": {"clk": {"achieved": 160.6}}, "utilization": {},
                                                "critical_paths": []}),
                     "pnr_s2.fail": "stopped after 3600 s of CPU time\n"}
            for name, text in files.items():
                with open(os.path.join(out, name), "w") as f:
                    f.write(text)

        made_up(rtl_digest(used))
        assert resumable(job, out, a), "a current folder is not resumable"
        said = io.StringIO()
        with contextlib.redirect_stdout(said):
            r = run_job(job, a, [], [])
        assert "resumed" in said.getvalue() and job.resumed, said.getvalue()
        assert r["pnr"]["seeds"] == {1: 160.6, 2: None, 3: 1.0}, r["pnr"]["seeds"]
        made_up("000000000000")   # other sources: not resumable, the old seeds removed before Yosys
        assert not resumable(job, out, a), "a folder of other sources is resumable"
        try:
            run_job(job, a, [], [])
        except FlowError:
            pass
        left = sorted(f for f in os.listdir(out) if f.startswith("pnr_s") and f.endswith((".json", ".fail")))
        assert not left, f"a fresh run kept {left}"
    return "seed 3 run, seeds 1 and 2 kept; a folder of other sources starts afresh"
