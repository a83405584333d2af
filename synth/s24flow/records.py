# SPDX-License-Identifier: Apache-2.0
# sparse24 synthesis flow (synth/s24_synth.py): a run's record, synth/records/<run>.json: the result that
# collect() read from its run folder (cell counts, checks, every placer seed's Fmax, the critical path, the
# sources it elaborated and their digest), with the tools, the commit and the date that made it. Records are
# committed, so the report is rebuilt on any checkout (`make synth-report`) and `make synth` can be run in parts
# (SYNTH_ONLY) over several sittings; the report checks each record's digest against the tree it is written
# from (current()), so a record of other sources is named as stale, never shown as current.
import datetime
import json
import os

from .common import REPO, FlowError
from .filelist import rtl_digest

FORMAT = 1   # the layout below; a record of another format is refused, not guessed at
FOLDER = os.path.join(REPO, "synth", "records")   # the committed records (make synth's SYNTH_RECORDS)


def record_path(folder, job):
    return os.path.join(folder, job.name + ".json")


def utc_text(when=None):
    when = when or datetime.datetime.now(datetime.timezone.utc)
    return f"{when:%Y-%m-%d %H:%M}"


def current(result):
    """Whether a run's numbers belong to this tree: the files it recorded as read (its hierarchy's
    sources, its target's scripts, a placed run's harness and constraints) give, as they are now,
    the digest they gave when it ran."""
    files = [os.path.join(REPO, p) for p in result.get("rtl_files", [])]
    return bool(files) and all(os.path.isfile(p) for p in files) and rtl_digest(files) == result.get("rtl")


def placer_seeds(result):
    """How many placer seeds a placed run's figure is the median of (0: not placed)."""
    return len((result.get("pnr") or {}).get("seeds", {}))


def write_record(folder, job, versions, commit, when=None, imported=False):
    """Write job's record (job.result must be set) to folder/<run>.json, atomically (a temporary file
    beside it, renamed): an interrupted flow never leaves a truncated record. when: the run's end (a
    UTC datetime; default now); imported: the record was made afterwards from the run's folder
    (--report-only --records), so versions and commit are those of that moment, not the run's.
    A current record with more placer seeds is kept (a 1-seed trial never replaces a 3-seed median):
    returns False then, True when written."""
    path = record_path(folder, job)
    if os.path.exists(path):
        try:
            old = read_record(folder, job)["result"]
            if current(old) and placer_seeds(old) > placer_seeds(job.result):
                return False
        except FlowError:
            pass   # an unreadable record is replaced
    rec = {"format": FORMAT, "run": job.name, "label": job.label(),
           "seconds": round(job.seconds, 1) if job.seconds else None,
           "recorded_utc": utc_text(when), "commit": commit, "imported": imported,
           "resumed": getattr(job, "resumed", False),
           "versions": versions, "result": job.result}
    os.makedirs(folder, exist_ok=True)
    tmp = path + ".tmp"
    try:
        with open(tmp, "w") as f:
            json.dump(rec, f, indent=1, allow_nan=False)
            f.write("\n")
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return True


def _check(rec, job):
    """Why rec is not a record of job that the report can read (every field it reads, with its type),
    or None."""
    def strs(d):
        return isinstance(d, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in d.items())

    def counts(d):
        return isinstance(d, dict) and all(isinstance(k, str) and type(v) is int for k, v in d.items())

    def num(v):
        return type(v) in (int, float)

    if not isinstance(rec, dict) or rec.get("format") != FORMAT or not isinstance(rec.get("result"), dict):
        return f"not a record of format {FORMAT}"
    res = rec["result"]
    got = {k: res.get(k) for k in job.identity()}
    if rec.get("run") != job.name or got != job.identity():
        return f"a record of another configuration ({rec.get('run')!r}, {got})"
    for key, ok in (("seconds", lambda v: v is None or num(v)), ("recorded_utc", lambda v: isinstance(v, str)),
                    ("commit", lambda v: isinstance(v, str)), ("versions", strs)):
        if not ok(rec.get(key)):
            return f"{key} missing or of the wrong type"
    for key, ok in (("rtl", lambda v: isinstance(v, str)),
                    ("rtl_files", lambda v: isinstance(v, list) and all(isinstance(p, str) for p in v)),
                    ("yosys", lambda v: isinstance(v, str)), ("cells", counts),
                    ("latches", lambda v: type(v) is int), ("check_problems", lambda v: type(v) is int)):
        if not ok(res.get(key)):
            return f"result.{key} missing or of the wrong type"
    if job.pnr and not isinstance(res.get("harness_cells"), dict):
        return "result.harness_cells missing (a placed run)"
    if "nofit_lcs" in res and not (isinstance(res["nofit_lcs"], list) and len(res["nofit_lcs"]) == 2
                                   and all(type(v) is int for v in res["nofit_lcs"])):
        return "result.nofit_lcs not two counts"
    p = res.get("pnr")
    if p is None:
        return None if "pnr" not in res and (not job.pnr or "nofit_lcs" in res) else "result.pnr missing"
    if not isinstance(p, dict) or not num(p.get("fmax_mhz")) or not counts(p.get("util", {})) \
            or not isinstance(p.get("critical", {}), dict) or not isinstance(p.get("critical_text", ""), str):
        return "result.pnr (fmax_mhz, util, critical, critical_text) of the wrong type"
    cp = p.get("critical", {})
    if cp and not (all(isinstance(cp.get(k), str) for k in ("start", "end"))
                   and all(num(cp.get(k)) for k in ("delay_ns", "logic_ns", "routing_ns", "max_route_ns"))
                   and isinstance(cp.get("nets"), list) and all(isinstance(n, str) for n in cp["nets"])):
        return "result.pnr.critical: a critical path without its ends, delays or nets"
    for key, ok in (("seeds", lambda v: v is None or num(v)), ("failed", lambda v: isinstance(v, str))):
        d = p.get(key)
        if not isinstance(d, dict) or not all(isinstance(s, str) and s.isdigit() and ok(v) for s, v in d.items()):
            return f"result.pnr.{key}: not a map of placer seeds"
    if not p["seeds"] or not isinstance(p.get("critical_seed"), int) or not num(p.get("critical_fmax")):
        return "result.pnr: no seeds, or no critical seed"
    return None


def read_record(folder, job):
    """job's record from folder, its result with the placer seeds' keys as integers again (JSON keeps
    them as strings). FlowError naming the file when it is missing, not JSON, of another format or
    configuration than job, or missing a field (of its type) that the report reads."""
    path = record_path(folder, job)
    shown = os.path.relpath(path, REPO)
    try:
        with open(path) as f:
            rec = json.load(f)
    except FileNotFoundError:
        raise FlowError(f"{shown}: no record of this run")
    except (OSError, ValueError, RecursionError) as e:
        raise FlowError(f"{shown}: not a readable record ({type(e).__name__}: {e})")
    why = _check(rec, job)
    if why:
        raise FlowError(f"{shown}: {why}")
    p = rec["result"].get("pnr")
    if p:
        for key in ("seeds", "failed"):
            p[key] = {int(s): v for s, v in p[key].items()}
    return rec
