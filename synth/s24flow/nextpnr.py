# SPDX-License-Identifier: Apache-2.0
# sparse24 synthesis flow (synth/s24_synth.py): reading what Yosys and nextpnr wrote: cell counts, counters, and
# nextpnr's JSON report (Fmax, utilisation, critical path).
import json
import os
import re
import statistics

from .common import REPO, FlowError


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


def parse_pnr_seeds(out, what):
    """The place-and-route result of one configuration over its seeds (pnr_s<seed>.json, or one
    pnr.json): fmax_mhz = the MEDIAN Fmax (the lower middle one of an even count), seeds = {seed:
    Fmax, or None for a seed that did not route}, failed = {seed: why}, and the utilisation and
    critical path of the routed run whose Fmax is closest to the median (critical_seed,
    critical_fmax). A seed that did not route (pnr_s<seed>.fail: nextpnr failed or used up its CPU
    seconds, written by the runner) counts as 0 MHz in the median: below every routed seed, never
    left out. FlowError when no seed routed."""
    found, failed = {}, {}
    for f in os.listdir(out):
        m = re.fullmatch(r"pnr_s(\d+)\.(json|fail)", f)
        if m:
            (found if m.group(2) == "json" else failed)[int(m.group(1))] = os.path.join(out, f)
    for s in failed:
        found.pop(s, None)
        with open(failed[s], errors="replace") as f:
            failed[s] = f.read().strip() or "failed"
    if not found and not failed:
        found = {1: os.path.join(out, "pnr.json")}
    if not found:
        raise FlowError(f"{what}: no placer seed routed (" +
                        "; ".join(f"seed {s}: {failed[s]}" for s in sorted(failed)) + ")")
    runs = {s: parse_pnr(found[s], what) for s in sorted(found)}
    each = {s: r["fmax_mhz"] for s, r in runs.items()}
    each.update({s: None for s in failed})
    med = statistics.median_low(v or 0.0 for v in each.values())   # a seed's figure, never a mean of two
    rep = min(runs, key=lambda s: (abs(runs[s]["fmax_mhz"] - med), s))
    res = dict(runs[rep])
    res.update(fmax_mhz=med, seeds=dict(sorted(each.items())), failed=failed, critical_seed=rep,
               critical_fmax=runs[rep]["fmax_mhz"])
    return res


def routed_mhz(p):
    """The median Fmax of a place-and-route result; None without one, or when its median seed did
    not route (more than half of the seeds: the median is then 0 MHz, shown as "no route")."""
    return p["fmax_mhz"] if p and p["fmax_mhz"] > 0 else None


def mhz_cell(p, absent="not placed"):
    """A table's Fmax cell: the median, "no route", or `absent` without a place-and-route result."""
    return absent if not p else routed_mhz(p) if routed_mhz(p) is not None else "no route"


def seeds_text(p):
    """Each seed's Fmax in seed order ("110.4 / no route / 104.9"): "no route" for a seed that did
    not route (0 MHz in the median); "n/a" without a place-and-route result."""
    seeds = p.get("seeds", {}) if p else {}
    return " / ".join("no route" if v is None else f"{v:.1f}"
                      for _, v in sorted(seeds.items(), key=lambda kv: int(kv[0]))) or "n/a"


def parse_pnr(path, what):
    """Fmax, utilisation and the critical path from one nextpnr JSON report."""
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
    return {"fmax_mhz": min(fmax), "util": util, "critical": summary,
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
