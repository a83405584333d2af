# SPDX-License-Identifier: Apache-2.0
# sparse24 synthesis flow (synth/s24_synth.py): the markdown report (build/synth/report.md).
import datetime
import os
import subprocess

from .common import (ECP5_DEVICE_NAME, ECP5_DSPS, ECP5_LARGEST, ECP5_LUTS, NEXUS_COMB, NEXUS_DEVICE_NAME, NEXUS_MULT9,
                     PNR_CPU, REPO, STRETCH_MHZ, TARGET_MHZ, UP5K_DSPS, UP5K_LUTS)
from .metrics import ecp5_metrics, generic_metrics, ice40_metrics, intel_metrics, macs, nexus_metrics, xilinx_metrics
from .nextpnr import mhz_cell, routed_mhz, seeds_text
from .records import current
from .runner import DENSE_SAME_DSP, SPARSE


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
    for name, cmd in (("yosys", args.yosys + ["-V"]), ("nextpnr-ecp5", args.nextpnr_ecp5 + ["--version"]),
                      ("nextpnr-ice40", ["nextpnr-ice40", "--version"])):
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            lines = [l for l in (p.stdout + p.stderr).splitlines() if "ersion" in l or "Yosys" in l]
            v[name] = lines[-1].strip() if lines else "unknown"
        except (OSError, subprocess.TimeoutExpired):
            v[name] = "not available"
    if "nexus" in args.targets.split(","):   # only when it ran: the default report's line stays as it was
        try:
            p = subprocess.run(args.nextpnr_nexus + ["--version"], capture_output=True, text=True, timeout=300)
            lines = [l for l in (p.stdout + p.stderr).splitlines() if "ersion" in l]
            v["nextpnr-nexus"] = lines[-1].strip() if lines else "unknown"
        except (OSError, subprocess.TimeoutExpired):
            v["nextpnr-nexus"] = "not available"
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


def row_name(j):
    """The config cell of a run's row, as the tables name it ("8x8 2:2 dense", "8x8 2:4 only (PairMode 0)")."""
    return (f"{j.rows}x{j.cols} {j.pattern}" + (" dense" if j.n == j.m else "")
            + ("" if getattr(j, "pair", 1) else " only (PairMode 0)"))


def no_result(j):
    """The cell of a run without a result: FAILED, or, when --report-only found no run in its
    folder (a configuration not run into this folder), "no run"."""
    return "no run" if getattr(j, "missing", False) else "FAILED"


def target_table(L, jobs, target, title, head, row):
    """A section with one table row per job of one target: row(j), or FAILED when its run failed."""
    L.append(title)
    L.append("")
    rows = []
    for j in jobs:
        if j.target != target:
            continue
        rows.append(row(j) if j.result else [row_name(j), no_result(j)])
    L.append(md_table(head, rows))
    L.append("")


def sources_line(jobs):
    """Whether every run's numbers belong to the RTL of this tree: each run recorded the sources it
    elaborated (rtl_files.txt: its hierarchy's files and the headers they include, its target's Yosys
    scripts; a placed run also its harness) and their digest when Yosys read them (comments left
    out: filelist.rtl_digest); the same files now must give the same digest."""
    by_digest, stale = {}, []
    for j in jobs:
        if not j.result:
            continue
        if not current(j.result):
            stale.append(j.label())
        else:
            by_digest.setdefault(j.result["rtl"], []).append(j)
    parts = []
    for d, js in sorted(by_digest.items(), key=lambda kv: -len(kv[1])):
        tops = sorted({j.top for j in js})
        parts.append(f"`{d}` ({len(js)} runs of {', '.join(tops)})")
    text = ("Sources: each run records the files it elaborated (the modules of Yosys's hierarchy and the "
            "headers they include; the Yosys scripts of its target, synth/<target>_core.ys, a placed run's "
            "synth/<target>_wrap.ys and the files they include; a placed run also its harness, "
            "synth/<wrapper>.v and synth/s24_scan.vh, and, since the run records, its placer's constraints) "
            "with the sha256 of their contents, comments left out, when Yosys read them (records made "
            "before 2026-11-29 were re-digested so: their field `redigested` says how), checked here "
            "against this tree: "
            + ("; ".join(parts) if parts else "none") + ".")
    if stale:
        text += (f" **WARNING: {len(stale)} runs read sources that have changed since (" + ", ".join(stale) +
                 "): their numbers are not this RTL's; rerun them (`s24_synth.py --only ...`) or `make synth`**.")
    else:
        text += " Every run is current."
    return text


def write_report(jobs, args, versions, elapsed):
    # the default build's runs (square arrays, PairMode 1) by target, top, size and pattern
    ok = {(j.target, j.top, j.rows, j.n, j.m): j.result for j in jobs
          if j.result and j.rows == j.cols and getattr(j, "pair", 1)}
    L = []
    L.append("# sparse24 synthesis report")
    L.append("")
    if getattr(args, "from_records", False):   # the committed records of runs made by one or more commands
        L.append(f"Written by `make synth-report` (`synth/s24_synth.py --report-only --from-records`) on "
                 f"{datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC from the run records in "
                 f"`{os.path.relpath(args.records, REPO)}/`, each written by the `make synth` run that made it "
                 f"or afterwards from its run folder (`--report-only --records`; marked *imported*) "
                 f"(`SYNTH_ONLY=...` runs it in parts; the commit, date and duration of each run in *Runs* at the "
                 f"end); {sum(1 for j in jobs if j.result)} of {len(jobs)} runs recorded" +
                 (f", {elapsed / 60:.0f} min of run time in total (of the runs whose duration is known)."
                  if elapsed else "."))
        counts = getattr(args, "seed_counts", [])
        if len(counts) > 1:
            L.append("")
            L.append(f"**The placed runs have different numbers of placer seeds ({', '.join(map(str, counts))}): "
                     "each row's Fmax per seed column shows its own.**")
    elif getattr(args, "report_only", False):   # the runs were made earlier, by one or more commands
        L.append(f"Written by `synth/s24_synth.py --report-only` from the run folders of `make synth` and its reruns, on "
                 f"{datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC; {sum(1 for j in jobs if j.result)} of "
                 f"{len(jobs)} runs complete" + (f" (the last flow run into this folder took {elapsed / 60:.1f} min)."
                                                  if elapsed else "."))
    else:
        L.append(f"Written by `make synth` (synth/s24_synth.py) on {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC "
                 f"in {elapsed / 60:.1f} min; {sum(1 for j in jobs if j.result)} of {len(jobs)} runs succeeded.")
    L.append("")
    L.append("Tools: " + "; ".join(f"{k}: `{v}`" for k, v in versions.items()) + ".")
    L.append("")
    by_yosys = {}
    for j in jobs:
        if j.result:
            by_yosys.setdefault(j.result.get("yosys", "unknown"), []).append(j.label())
    L.append("Yosys that made the numbers (recorded per run in its folder, yosys.version): " + "; ".join(
        f"`{v}`: " + (f"all {len(labels)} runs" if len(by_yosys) == 1 else ", ".join(labels))
        for v, labels in sorted(by_yosys.items())) + ".")
    L.append("")
    L.append(f"RTL: git commit `{git_head()}`. " + sources_line(jobs))
    L.append("")
    L.append("Conventions: *MACs/cycle* = effective dense-equivalent MACs per clock = R·C·m (one group of m "
             "k-values per PE per step; a dense A on a 2:4 core takes two steps per group). *LUTs* on ECP5 = "
             "LUT4 + 2·CCU2C (a carry cell uses both LUT4s of its slice half); the LUT4 and CCU2C columns are "
             "the raw Yosys counts. Area is the core (`s24_core`) alone, mapped by Yosys (`synth/ecp5_core.ys`: "
             "synth_ecp5 with the flops' active-low resets on their own inverters, `synth/ecp5_ffs.ys`, where "
             "Yosys 0.23 alone gives each such flop a LUT4 inverter); Fmax is nextpnr's "
             f"timing analysis after place and route on {ECP5_DEVICE_NAME}, the median over placer seeds "
             f"1..{args.seeds} (each seed's figure in the Fmax per seed column; a seed whose nextpnr fails or "
             f"uses up its {PNR_CPU} s of CPU time is shown as \"no route\" and counts as 0 MHz), with the core inside "
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
    only = {}   # the 2:m-only cores (PairMode 0)
    largest = None   # (job, metrics, result) of the largest array (issue 28)
    for j in jobs:
        if j.target != "ecp5" or j.top != "s24_core":
            continue
        r = j.result
        if not r:
            rows.append([row_name(j), no_result(j)] + [""] * 13)
            continue
        e = ecp5_metrics(r["cells"])
        fm = routed_mhz(r.get("pnr"))
        e.update(macs=macs(r), fmax=fm, size=j.rows, n=j.n, m=j.m, pnr=r.get("pnr"))
        if (j.rows, j.cols) == ECP5_LARGEST:
            largest = (j, e, r)
        elif getattr(j, "pair", 1):
            ecp[(j.rows, j.n, j.m)] = e
        else:
            only[(j.rows, j.n, j.m)] = e
        per_dsp = e["macs"] / e["dsps"] if e["dsps"] else None
        per_klut = 1000.0 * e["macs"] / e["luts"] if e["luts"] else None
        gmacs = e["macs"] * fm / 1000.0 if fm is not None else None
        each = seeds_text(r.get("pnr"))
        rows.append([f"{j.rows}x{j.cols} {j.pattern}" + (" dense" if j.n == j.m else "")
                     + ("" if getattr(j, "pair", 1) else " only (PairMode 0)"),
                     e["luts"], e["lut4"], e["ccu2c"], e["mux"], e["ffs"], e["dsps"], e["bram"], e["lutram"],
                     e["macs"], per_dsp, per_klut, mhz_cell(r.get("pnr"), "not placed" if not j.pnr else None),
                     each, gmacs])
    L.append(md_table(["config", "LUTs", "LUT4", "CCU2C", "PFUMX+L6MUX", "FFs", "MULT18X18D", "DP16KD",
                       "DPR16X4 (LUTRAM)", "MACs/cycle", "MACs/cycle/DSP", "MACs/cycle/1k LUT", "Fmax MHz",
                       "Fmax per seed", "eff. GMAC/s"], rows))
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
            fr = sp["fmax"] / de["fmax"] if sp["fmax"] is not None and de["fmax"] else None
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
                         sp["fmax"] / d44["fmax"] if sp["fmax"] is not None and d44["fmax"] else None])
    L.append(md_table(["comparison", "DSPs sparse", "DSPs dense", "MACs/cycle/DSP ratio",
                       "MACs/cycle/1k LUT ratio", "LUT overhead %", "LUT4-only overhead %", "FF overhead %",
                       "Fmax ratio"], rows))
    L.append("")

    # ---- pair mode (issue 27)
    L.append("## The pair mode: one 2:4 core, dense / 2:4 / 1:4 per job (issue 27)")
    L.append("")
    L.append("The 2:4 rows above are the default build (PairMode 1: 1:4 weights run in pair mode at twice "
             "the 2:4 rate); the `only` row is the 2:4-only core (PairMode 0). Effective GMAC/s per mode = "
             "dense-equivalent MACs/cycle x Fmax: dense 2·R·C (two beats per group), 2:4 4·R·C, 1:4 8·R·C.")
    L.append("")
    prow = []
    def gmac(k, s, f):   # k MACs per PE per cycle (dense 2, 2:4 4, 1:4 8) at f MHz
        return k * s * s * f / 1000.0 if f is not None else None
    for s in args.sizes:
        fx, on, de = ecp.get((s, 2, 4)), only.get((s, 2, 4)), ecp.get((s, 2, 2))
        if not fx:
            continue
        fm, fo = fx["fmax"], on["fmax"] if on else None
        prow.append([f"{s}x{s} 2:4 (pair mode)", fx["luts"], fx["ffs"], fx["dsps"],
                     100.0 * (fx["luts"] - de["luts"]) / de["luts"] if de else None,
                     100.0 * (fx["luts"] - on["luts"]) / on["luts"] if on else None,
                     mhz_cell(fx["pnr"]), 100.0 * (fm - fo) / fo if fm is not None and fo else None,
                     gmac(2, s, fm), gmac(4, s, fm), gmac(8, s, fm)])
        if on:
            prow.append([f"{s}x{s} 2:4 only", on["luts"], on["ffs"], on["dsps"],
                         100.0 * (on["luts"] - de["luts"]) / de["luts"] if de else None, 0.0,
                         mhz_cell(on["pnr"]), 0.0 if fo is not None else None,
                         gmac(2, s, fo), gmac(4, s, fo), None])
    L.append(md_table(["core", "LUTs", "FFs", "MULT18X18D", "LUT overhead vs 2:2 %",
                       "LUT overhead vs 2:4-only %", "Fmax MHz", "Fmax vs 2:4-only %", "GMAC/s dense",
                       "GMAC/s 2:4", "GMAC/s 1:4"], prow))
    L.append("")

    # ---- targets
    L.append("## Targets (issues 5, 27, 28)")
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
    if e824 and e824["fmax"] is not None:
        L.append(f"- ECP5-85 (-8) Fmax of the 8x8 2:4 array: **{e824['fmax']:.1f} MHz** (median of seeds "
                 f"{seeds_text(e824['pnr'])}; target >= {TARGET_MHZ:.0f} MHz: "
                 f"**{'reached' if e824['fmax'] >= TARGET_MHZ else 'missed'}**; "
                 f">= {STRETCH_MHZ:.0f} MHz: **{'reached' if e824['fmax'] >= STRETCH_MHZ else 'missed'}**).")
    elif e824 and e824["pnr"]:
        L.append(f"- ECP5-85 (-8) Fmax of the 8x8 2:4 array: **no route** at the median (seeds "
                 f"{seeds_text(e824['pnr'])}; target >= {TARGET_MHZ:.0f} MHz: **missed**).")
    else:
        L.append("- ECP5-85 (-8) Fmax of the 8x8 2:4 array: not measured in this run.")
    if largest and largest[1]["fmax"] is not None:
        j, e, r = largest
        pes, f = j.rows * j.cols, largest[1]["fmax"]
        placed = r["pnr"].get("util", {})
        lut_used = placed.get("TRELLIS_COMB")
        L.append(f"- Largest array on the ECP5-85: **{j.rows}x{j.cols}** 2:4 with the pair mode ({pes} PEs, "
                 f"{e['dsps']} of {ECP5_DSPS} MULT18X18D"
                 + (f", {lut_used} of {ECP5_LUTS} LUT4 positions placed with the harness" if lut_used else "")
                 + f"), Fmax **{f:.1f} MHz** (median of seeds {seeds_text(r['pnr'])}): **{4 * pes * f / 1000.0:.1f} "
                 f"GMAC/s** effective at 2:4 ({2 * pes * f / 1000.0:.1f} dense, {8 * pes * f / 1000.0:.1f} at 1:4).")
    elif largest and largest[2].get("pnr"):
        L.append(f"- Largest array on the ECP5-85: {largest[0].rows}x{largest[0].cols} 2:4: **no route** at the "
                 f"median (seeds {seeds_text(largest[2]['pnr'])}).")
    elif largest:
        L.append(f"- Largest array on the ECP5-85: {largest[0].rows}x{largest[0].cols} not placed in this run.")
    # the second family (issue 28): the largest placed 2:4 array on the Lattice Nexus device
    nex = [j for j in jobs if j.target == "nexus" and j.result and j.result.get("pnr") and (j.n, j.m) == (2, 4)]
    if nex:
        j = max(nex, key=lambda k: k.rows * k.cols)
        x, p = nexus_metrics(j.result["cells"]), j.result["pnr"]
        f = routed_mhz(p)
        L.append(f"- Second family, {NEXUS_DEVICE_NAME}: **{j.rows}x{j.cols}** 2:4 with the pair mode ({x['dsps']} of "
                 f"{NEXUS_MULT9} MULT9, {x['luts']} LUTs, {x['ffs']} FFs, {x['bram']} EBR), Fmax **{fmt(mhz_cell(p))}"
                 f"{' MHz' if f else ''}** "
                 f"(median of seeds {seeds_text(p)})"
                 + (f": **{macs(j.result) * f / 1000.0:.1f} GMAC/s** effective at 2:4." if f else "."))
    L.append("")

    # ---- critical paths
    L.append("## Critical paths (nextpnr-ecp5)")
    L.append("")
    crit_rows = []
    for j in jobs:
        r = j.result
        if j.target == "ecp5" and r and "pnr" in r and r["pnr"]["critical"]:
            cp = r["pnr"]["critical"]
            crit_rows.append([f"{j.rows}x{j.cols} {j.pattern}" + ("" if getattr(j, "pair", 1) else " only") +
                              ("" if j.top == "s24_core" else " AXI top"),
                              r["pnr"].get("critical_seed", 1), r["pnr"].get("critical_fmax", r["pnr"]["fmax_mhz"]),
                              cp["delay_ns"],
                              cp["logic_ns"], cp["routing_ns"], cp.get("max_route_ns"),
                              endpoint(cp["start"], "input"), endpoint(cp["end"], "output"),
                              " → ".join(f"`{n}`" for n in cp.get("nets", [])) or "n/a"])
    L.append(md_table(["config", "seed", "its Fmax MHz", "path ns", "logic ns", "routing ns", "longest net ns", "from",
                       "to", "named nets on the path"], crit_rows))
    L.append("")
    L.append("One row per placed configuration: the critical path of its routed seed closest to the median. "
             "`from`/`to` name the register; `harness (core input)` means the path starts at a scan-chain flop "
             "driving a core input port (start, cfg, valid, data), i.e. it is a port-to-register path of the core; "
             "`harness (core output)` means it ends at a signature flop.")
    L.append("")
    for (size, n, m) in ((8, 2, 4), (8, 2, 2)):
        r = ok.get(("ecp5", "s24_core", size, n, m))
        if r and "pnr" in r and r["pnr"]["critical_text"]:
            L.append(f"Critical path of the {size}x{size} {n}:{m} array (seed {r['pnr'].get('critical_seed', 1)}, the run "
                     "closest to the median), step by step from nextpnr's JSON report "
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
    def xilinx_row(j):
        x = xilinx_metrics(j.result["cells"])
        mc = macs(j.result)
        return [f"{j.rows}x{j.cols} {j.pattern}" + (" dense" if j.n == j.m else ""), x["luts"], x["srl"],
                x["lutram"], x["mux"], x["ffs"], x["carry"], x["dsps"], x["bram"], mc,
                mc / x["dsps"] if x["dsps"] else None, 1000.0 * mc / x["luts"] if x["luts"] else None]
    target_table(L, jobs, "xilinx", "## Xilinx 7-series (synth_xilinx -family xc7, synthesis only)",
                 ["config", "LUT1-6", "SRL", "LUTRAM", "MUXF7/8", "FFs", "CARRY4", "DSP48E1",
                  "RAMB18", "MACs/cycle", "MACs/cycle/DSP", "MACs/cycle/1k LUT"], xilinx_row)

    # ---- iCE40
    def ice40_row(j):
        x = ice40_metrics(j.result["cells"])
        p = j.result.get("pnr")
        nofit = j.result.get("nofit_lcs")   # placed: more logic cells with the harness than the UP5K has
        fits = x["dsps"] <= UP5K_DSPS and x["luts"] <= UP5K_LUTS
        want = j.rows * j.cols * j.n
        # a run whose multipliers did not all become SB_MAC16s lost part of its datapath (Checks below):
        # its area and Fmax are not the core's and are not shown as if they were
        lost = x["dsps"] != want
        return [f"{j.rows}x{j.cols} {j.pattern}" + (" dense" if j.n == j.m else "")
                + (f" (**not valid**: {x['dsps']} SB_MAC16 for {want} multipliers)" if lost else ""),
                x["luts"], x["carry"], x["ffs"], x["dsps"], x["bram"], macs(j.result), "yes" if fits else "no",
                ("not valid" if lost else mhz_cell(p)) if p
                else "does not fit with the harness" if nofit else "not placed",
                p["util"].get("ICESTORM_LC") if p else f"{nofit[0]} of {nofit[1]}" if nofit else None]
    target_table(L, jobs, "ice40", "## iCE40 UP5K (synth_ice40 -dsp without its ice40_dsp pass, synth/ice40_synth.ys; "
                 "nextpnr-ice40 --up5k --package sg48)",
                 ["config", "SB_LUT4", "SB_CARRY", "FFs", "SB_MAC16", "BRAM", "MACs/cycle",
                  "core fits UP5K", "Fmax MHz", "placed LCs (with harness)"], ice40_row)
    lost = [j for j in jobs if j.target == "ice40" and j.result
            and ice40_metrics(j.result["cells"])["dsps"] != j.rows * j.cols * j.n]
    if lost:
        L.append("*Not valid* rows: fewer SB_MAC16 than multipliers means Yosys removed part of the datapath "
                 "(look for `Driver-driver conflict ... Resolved using constant` in the run's yosys.log), so their "
                 "LUT, FF and Fmax figures are not the core's. Yosys's `ice40_dsp` pass did this to every "
                 "2-multiplier core (0.23 and 0.70), which is why synth/ice40_synth.ys leaves that pass out.")
        L.append("")

    # ---- generic
    def generic_row(j):
        g = generic_metrics(j.result["cells"])
        return [f"{j.rows}x{j.cols} {j.pattern}", g["cells"], g["gates"], g["ffs"],
                j.result["latches"], j.result["check_problems"]]
    target_table(L, jobs, "generic", "## Generic gates (synth -flatten; check -assert; latch check)",
                 ["config", "cells", "gates", "FFs", "latches", "check problems"], generic_row)

    # ---- top
    tops = [j for j in jobs if j.top != "s24_core"]
    if tops:
        L.append("## AXI top level (s24_top: AXI4-Lite registers + AXI4-Stream ports + core), ECP5")
        L.append("")
        rows = []
        for j in tops:
            if not j.result:
                rows.append([row_name(j), no_result(j)])
                continue
            e = ecp5_metrics(j.result["cells"])
            core = ecp.get((j.rows, j.n, j.m))
            fits = e["dsps"] <= ECP5_DSPS and e["luts"] <= ECP5_LUTS
            p = j.result.get("pnr")
            rows.append([f"{j.rows}x{j.cols} {j.pattern}", e["luts"], e["ffs"], e["dsps"], e["bram"], e["lutram"],
                         (e["luts"] - core["luts"]) if core else None,
                         "yes" if fits else f"**no** ({e['dsps']} > {ECP5_DSPS} MULT18X18D)"
                         if e["dsps"] > ECP5_DSPS else "**no** (LUTs)",
                         mhz_cell(p), seeds_text(p) if p else "n/a"])
        L.append(md_table(["config", "LUTs", "FFs", "MULT18X18D", "DP16KD", "DPR16X4", "LUTs over the core",
                           "fits the LFE5UM-85F", "Fmax MHz", "Fmax per seed"], rows))
        L.append("")
        for j in tops:
            p = j.result.get("pnr") if j.result else None
            if p:
                L.append(f"The {j.rows}x{j.cols} {j.pattern} AXI top (the default build: core, registers, stream ports "
                         f"and fused epilogue) placed and routed like the cores, inside `synth/{j.wrap}.v` (every top "
                         f"input from a scan-chain flop, every output into a signature flop): **{fmt(mhz_cell(p))}"
                         f"{' MHz' if routed_mhz(p) else ''}** "
                         f"(median of seeds {seeds_text(p)}); its limiting path is in the critical-path table above.")
                L.append("")
        extra = [f"{j.rows}x{j.cols} {j.pattern}: {ecp5_metrics(j.result['cells'])['dsps'] - ecp[(j.rows, j.n, j.m)]['dsps']}"
                 for j in tops if j.result and (j.rows, j.n, j.m) in ecp]
        L.append("The top level holds the fused int8 epilogue beside the core, so its DSPs add to the array's "
                 "(MULT18X18D of the top minus those of its core: " + (", ".join(extra) or "n/a") +
                 "; the epilogue alone per lane count: `synth/epilogue.sh`).")
        L.append("")

    # ---- Lattice Nexus (issue 28; only when the target ran)
    nex = [j for j in jobs if j.target == "nexus"]
    if nex:
        nexus_section(L, nex, args)

    # ---- Intel (issue 28; only when the target ran)
    itl = [j for j in jobs if j.target == "intel"]
    if itl:
        intel_section(L, itl)

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
        if not r or j.target not in ("ecp5", "xilinx", "ice40", "nexus", "intel") or j.top != "s24_core":
            continue
        d = {"ecp5": ecp5_metrics, "xilinx": xilinx_metrics, "ice40": ice40_metrics, "nexus": nexus_metrics,
             "intel": intel_metrics}[j.target](r["cells"])["dsps"]
        dsp_ok.append((j, d, j.rows * j.cols * j.n))
    miss = [f"{j.label()}: {d} DSPs for {want} multipliers" for j, d, want in dsp_ok if d != want]
    L.append(f"- DSP inference: {len(dsp_ok) - len(miss)} of {len(dsp_ok)} runs map exactly one DSP per multiplier "
             f"(R·C·n)" + ("; not: " + "; ".join(miss) if miss else "") + ".")
    missing = [j.name for j in jobs if not j.result and getattr(j, "missing", False)]
    if missing:
        L.append(f"- No run yet ({len(missing)} of {len(jobs)} configurations; `make synth SYNTH_ONLY=<run>,...` "
                 "runs them): " + ", ".join(missing) + ".")
    failed = [j for j in jobs if j.error]
    if failed:
        L.append("- Failed runs:")
        for j in failed:
            L.append(f"  - {j.error}")
    L.append("")
    L.append("Logs and netlists of every run: `build/synth/<target>_<R>x<C>_<n>of<m>/` "
             "(yosys.log, stat.txt, pnr.log, pnr.json)" + (" of the machine that ran it; the records keep "
                                                           "the figures, not the logs." if getattr(args, "from_records", False) else "."))
    L.append("")
    recs = getattr(args, "records_used", None)
    if recs:
        L.append("## Runs")
        L.append("")
        L.append("The record of each run (`" + os.path.relpath(args.records, REPO) + "/<run>.json`): the commit "
                 "checked out when its record was written (HEAD; *imported*: written afterwards from the run's folder; "
                 "the sources line above says whether the run's sources are this tree's), when the run ended, and "
                 "how long it took (wall clock, its placer seeds side by side; n/a: not known; *resumed*: `--resume` "
                 "kept its Yosys results and the seeds that had ended, and this is the time of the rest).")
        L.append("")
        L.append(md_table(["run", "commit", "run ended (UTC)", "minutes"],
                          [[name, f"`{r['commit']}`" + (" (imported)" if r.get("imported") else ""),
                            r["recorded_utc"], (f"{r['seconds'] / 60.0:.1f}" + (" (resumed: the rest only)"
                                                                             if r.get("resumed") else ""))
                            if r["seconds"] is not None else None]
                           for name, r in sorted(recs.items())]))
        L.append("")
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write("\n".join(L))


def nexus_section(L, nex, args):
    """Lattice Nexus LIFCL-40: the core's area (Yosys) and, where it fits, Fmax and the post-route
    utilisation of the core inside the scan-chain harness (nextpnr-nexus)."""
    L.append("## Lattice Nexus (synth_nexus, nextpnr-nexus; issue 28)")
    L.append("")
    L.append(f"Device: {NEXUS_DEVICE_NAME}, the largest in nextpnr-nexus's chip database: {NEXUS_COMB} LUT4 "
             f"positions (OXIDE_COMB), as many FFs, {NEXUS_MULT9} 9x9 multipliers (MULT9_CORE; an 8x8 product "
             "uses one), 84 EBR, 2 LRAM. The RTL's behavioural defaults (the ECP5 primitives of S24_ECP5 are not "
             "used): Yosys maps each multiplier to one MULT9X9. Fmax: nextpnr-nexus --freq 150 --router router1, "
             "the median over the placer seeds of the Fmax per seed column (the flow runs seeds 1.."
             f"{args.seeds}; a row with fewer seeds is a run stopped early; \"no route\" as on ECP5), the core inside "
             "`synth/s24_fmax_wrap.v` (pins in "
             "`synth/s24_fmax_nexus.pdc`). An array whose R·C·n multipliers exceed the "
             f"{NEXUS_MULT9} MULT9 is synthesized (area) but not placed; the widest R x C' array that fits is "
             "placed instead. *LUTs* = LUT4 + INV + 2·CCU2 + 2·WIDEFN9 as Yosys left them (area of the core "
             "alone); the placed columns are nextpnr's post-route counts of core + harness.")
    L.append("")
    rows, placed = [], {}
    for j in nex:
        name = f"{j.rows}x{j.cols} {j.pattern}" + (" dense" if j.n == j.m else "")
        if not j.result:
            rows.append([name, no_result(j)] + [""] * 14)
            continue
        x = nexus_metrics(j.result["cells"])
        p = j.result.get("pnr")
        fits = x["dsps"] <= NEXUS_MULT9
        if p:
            placed[(j.rows, j.cols, j.n, j.m)] = (x, p)
        rows.append([name, x["luts"], x["lut4"], x["inv"], x["ccu2"], x["widefn9"], x["ffs"], x["dsps"], x["bram"],
                     x["lram"], x["lutram"], macs(j.result), "yes" if fits else "no",
                     mhz_cell(p), seeds_text(p),
                     macs(j.result) * routed_mhz(p) / 1000.0 if routed_mhz(p) else None])
    L.append(md_table(["config", "LUTs", "LUT4", "INV", "CCU2", "WIDEFN9", "FFs", "MULT9X9", "EBR", "LRAM",
                       "DPR16X4 (LUTRAM)", "MACs/cycle", "multipliers fit", "Fmax MHz", "Fmax per seed",
                       "eff. GMAC/s"], rows))
    L.append("")
    if placed:
        L.append("Post-route utilisation (core + harness, the seed closest to the median):")
        L.append("")
        urows = []
        for (r, c, n, m), (x, p) in placed.items():
            u = p["util"]
            comb = u.get("OXIDE_COMB", 0)
            mult = u.get("MULT9_CORE", 0)
            urows.append([f"{r}x{c} {n}:{m}", f"{comb} ({100.0 * comb / NEXUS_COMB:.0f}%)", u.get("OXIDE_FF", 0),
                          f"{mult} ({100.0 * mult / NEXUS_MULT9:.0f}%)", u.get("REG18_CORE", 0),
                          u.get("RAMW", 0), u.get("OXIDE_EBR", 0), u.get("LRAM_CORE", 0), p.get("critical_seed")])
        L.append(md_table(["config", "OXIDE_COMB", "OXIDE_FF", "MULT9_CORE", "REG18_CORE", "RAMW (LUTRAM)",
                           "OXIDE_EBR", "LRAM_CORE", "seed"], urows))
        L.append("")
        for (r, c, n, m), (x, p) in placed.items():
            de = placed.get((r, c, 2, 2))
            if (n, m) != (2, 4) or not de:
                continue
            over = 100.0 * (x["luts"] - de[0]["luts"]) / de[0]["luts"]
            L.append(f"- {r}x{c} 2:4 vs its dense twin 2:2 (same {x['dsps']} multipliers): LUTs {x['luts']} vs "
                     f"{de[0]['luts']} = {over:+.1f}%, Fmax {fmt(mhz_cell(p))} vs {fmt(mhz_cell(de[1]))} MHz, "
                     f"MACs/cycle per multiplier 2.0 vs 1.0.")
        L.append("")


def intel_section(L, itl):
    """Intel Cyclone V: the core's area from Yosys's synth_intel_alm (no place and route)."""
    L.append("## Intel Cyclone V (synth_intel_alm -family cyclonev, area only; issue 28)")
    L.append("")
    L.append("No open place and route exists here for Intel (nor for Xilinx, whose 7-series area is above): these "
             "are Yosys's mapped cell counts of the core alone, without Fmax. Yosys does not pack ALUTs into ALMs "
             "(Quartus does): *ALMs >=* is the lower bound ALUT6 + ceil(other ALUTs / 2). MISTRAL_MUL9X9 is one "
             "9x9 multiplier (a Cyclone V variable-precision DSP block holds three); MLAB is Yosys's count of "
             "MISTRAL_MLAB cells (LUT-RAM bits of 32 words each), M10K the 10 kbit block RAMs.")
    L.append("")
    rows = []
    for j in itl:
        name = f"{j.rows}x{j.cols} {j.pattern}" + (" dense" if j.n == j.m else "")
        if not j.result:
            rows.append([name, no_result(j)])
            continue
        x = intel_metrics(j.result["cells"])
        mc = macs(j.result)
        rows.append([name, x["aluts"], x["alut6"], x["arith"], x["alms_min"], x["ffs"], x["mul9"], x["mul18"],
                     x["mul27"], x["m10k"], x["mlab"], mc, mc / x["dsps"] if x["dsps"] else None])
    L.append(md_table(["config", "ALUTs", "ALUT6", "ALUT_ARITH", "ALMs >=", "FFs", "MUL9X9", "MUL18X18",
                       "MUL27X27", "M10K", "MLAB cells", "MACs/cycle", "MACs/cycle/multiplier"], rows))
    L.append("")
