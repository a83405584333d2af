# sparse24 synthesis flow (synth/s24_synth.py): a run's record, synth/records/<run>.json: the result that
# collect() read from its run folder (cell counts, checks, every placer seed's Fmax, the critical path, the
# sources it elaborated and their digest), with the tools, the commit and the date that made it. Records are
# committed, so the report is rebuilt on any checkout (`make synth-report`) and `make synth` can be run in parts
# (SYNTH_ONLY) over several sittings; the report checks each record's digest against the tree it is written
# from (report.sources_line), so a record of other RTL is named as stale, never shown as current.
import datetime
import json
import os

from .common import REPO, FlowError

FORMAT = 1   # the layout below; a record of another format is refused, not guessed at
_KEYS = ("target", "top", "rows", "cols", "n", "m", "pair")


def record_path(folder, job):
    return os.path.join(folder, job.name + ".json")


def write_record(folder, job, versions, commit, when=None):
    """Write job's record (job.result must be set) to folder/<run>.json, atomically (a temporary file
    beside it, renamed): an interrupted flow never leaves a truncated record. when: the run's end
    (a datetime in UTC; default now)."""
    when = when or datetime.datetime.utcnow()
    rec = {"format": FORMAT, "run": job.name, "label": job.label(), "seconds": round(job.seconds, 1),
           "recorded_utc": f"{when:%Y-%m-%d %H:%M}", "commit": commit,
           "versions": versions, "result": job.result}
    os.makedirs(folder, exist_ok=True)
    path = record_path(folder, job)
    tmp = path + ".tmp"
    try:
        with open(tmp, "w") as f:
            json.dump(rec, f, indent=1)
            f.write("\n")
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def read_record(folder, job):
    """job's record from folder, its result with the placer seeds' keys as integers again (JSON keeps
    them as strings). FlowError naming the file when it is missing, not JSON, of another format, or
    of another configuration than job."""
    path = record_path(folder, job)
    shown = os.path.relpath(path, REPO)
    try:
        with open(path) as f:
            rec = json.load(f)
    except FileNotFoundError:
        raise FlowError(f"{shown}: no record of this run")
    except (OSError, ValueError) as e:
        raise FlowError(f"{shown}: not a readable record ({type(e).__name__}: {e})")
    if not isinstance(rec, dict) or rec.get("format") != FORMAT or not isinstance(rec.get("result"), dict):
        raise FlowError(f"{shown}: not a record of format {FORMAT}")
    res = rec["result"]
    want = {"target": job.target, "top": job.top, "rows": job.rows, "cols": job.cols, "n": job.n, "m": job.m,
            "pair": job.pair}
    got = {k: res.get(k) for k in _KEYS}
    if rec.get("run") != job.name or got != want:
        raise FlowError(f"{shown}: a record of another configuration ({rec.get('run')!r}, {got})")
    p = res.get("pnr")
    if isinstance(p, dict):
        for key in ("seeds", "failed"):
            if isinstance(p.get(key), dict):
                try:
                    p[key] = {int(s): v for s, v in p[key].items()}
                except ValueError:
                    raise FlowError(f"{shown}: a placer seed that is not a number in result.pnr.{key}")
    return rec
