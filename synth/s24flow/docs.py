# SPDX-License-Identifier: Apache-2.0
# sparse24 synthesis flow (synth/s24_synth.py): docs/results.md carries the report of the records, and
# README.md its pair-mode table and target lines, each pasted between two markers by `make synth-docs`
# (--docs) and compared with the records by `make synth-check`.
import os
import re
import tempfile

from .common import REPO, FlowError

DOC = os.path.join(REPO, "docs", "results.md")
README = os.path.join(REPO, "README.md")
BEGIN = "<!-- make synth-docs: the report of `make synth-report` from synth/records/, begin -->"
END = "<!-- make synth-docs: end -->"
# the README's excerpt: these sections of the report, without their headings
README_BEGIN = "<!-- make synth-docs: the pair-mode table and target lines of the records' report, begin -->"
README_SECTIONS = ("## The pair mode", "## Targets")


def readme_body(report):
    """The README's excerpt of the report: the table and lines of README_SECTIONS, without headings
    and their explaining paragraphs (the lines of tables and lists only)."""
    out, keep = [], False
    for ln in report.splitlines():
        if ln.startswith("## "):
            keep = ln.startswith(README_SECTIONS)
        elif keep and ln.startswith(("|", "- ")):
            if out and out[-1].startswith("|") != ln.startswith("|"):
                out.append("")
            out.append(ln)
    return "\n".join(out) + "\n"


def pastes(report):
    """(path, begin marker, body) of each pasted copy of the report."""
    return ((DOC, BEGIN, doc_body(report)), (README, README_BEGIN, readme_body(report)))


def doc_body(report):
    """The report as the docs carry it: without its title, each heading one level down."""
    lines = report.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    while lines and not lines[0].strip():
        lines = lines[1:]
    return "\n".join("#" + ln if ln.startswith("#") else ln for ln in lines).rstrip() + "\n"


def _span(text, where, begin):
    """The start and end offsets of the pasted text between the markers (each on its own line, once)."""
    b, e = text.count(begin), text.count(END)
    if b != 1 or e != 1:
        raise FlowError(f"{where}: expected one line `{begin}` and one `{END}`, found {b} and {e}")
    i, j = text.index(begin) + len(begin) + 1, text.index(END)
    if j < i:
        raise FlowError(f"{where}: `{END}` comes before `{begin}`")
    return i, j


def splice(path, begin, body):
    """Replace the pasted text in `path` with `body` (written to a temporary file beside it, then
    renamed over it: the docs are whole at every moment)."""
    with open(path) as f:
        text = f.read()
    i, j = _span(text, os.path.relpath(path, REPO), begin)
    new = text[:i] + "\n" + body + "\n" + text[j:]
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".results.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(new)
        os.chmod(tmp, os.stat(path).st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _steady(text):
    """The text without what changes at every commit: the date the report was written, the commit."""
    text = re.sub(r"on \d{4}-\d\d-\d\d \d\d:\d\d UTC", "on <date>", text)
    return re.sub(r"RTL: git commit `[0-9a-f]+`", "RTL: git commit `<head>`", text)


def docs_check(path, begin, body):
    """The text pasted in `path` is `body` of the records' report (apart from its date and commit); else
    a FlowError naming the first line that differs."""
    with open(path) as f:
        text = f.read()
    i, j = _span(text, os.path.relpath(path, REPO), begin)
    seg = text[i:j]
    first = text[:i + len(seg) - len(seg.lstrip())].count("\n") + 1   # the line of the pasted report's first
    have = _steady(seg).strip().splitlines()
    want = _steady(body).strip().splitlines()
    for n, (h, w) in enumerate(zip(have, want)):
        if h != w:
            c = next((k for k, (x, y) in enumerate(zip(h, w)) if x != y), min(len(h), len(w)))
            at = max(0, c - 30)   # the text around the first character that differs
            raise FlowError(f"{os.path.relpath(path, REPO)}:{first + n}: the pasted synthesis report is not the "
                            f"records' (`make synth-docs` pastes it): column {c + 1} has {h[at:c + 40]!r}, the "
                            f"records give {w[at:c + 40]!r}")
    if len(have) != len(want):
        raise FlowError(f"{os.path.relpath(path, REPO)}: the pasted synthesis report has {len(have)} lines, the "
                        f"records' {len(want)} (`make synth-docs` pastes it)")
    return f"{os.path.relpath(path, REPO)} carries the records' report ({len(want)} lines)"
