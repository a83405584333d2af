#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the example sessions of README.md: runs every command shown and compares what it
prints with the text under it, so that a changed message or cycle count fails `make test`
instead of leaving a wrong document.

  readme.py README.md SPARSE24 WORKDIR

A session is a fenced block with lines starting with '$ ' (a command; a line ending in a
backslash continues it). The lines after a command, up to the next command or the end of the
block, are what it prints (stdout and stderr together, in order). All sessions run in README
order in one fresh WORKDIR, where build/sparse24 is SPARSE24 and tests/ is this repository's
tests/ (so a session may use the files an earlier one made, as a reader following the README
would). Blocks without '$ ' lines (file lists, timings that vary) are not sessions; a session
right after a line `<!-- readme-check: skip: REASON -->` is reported as skipped, not run.
"""
import difflib
import os
import shutil
import subprocess
import sys


SKIP = "<!-- readme-check: skip:"


def sessions(text):
    """Yields (line number, skip reason or None, [(command, expected output lines, line
    number)]) per session."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("```"):
            i += 1
            continue
        start = i
        k = start - 1
        while k >= 0 and lines[k].strip() == "":
            k -= 1
        skip = lines[k].strip()[len(SKIP):].rstrip("->").strip() if k >= 0 and lines[k].startswith(SKIP) else None
        i += 1
        body = []
        while i < len(lines) and not lines[i].startswith("```"):
            body.append((i + 1, lines[i]))
            i += 1
        i += 1
        if not any(l.startswith("$ ") for _, l in body):
            continue
        cmds = []
        j = 0
        while j < len(body):
            num, line = body[j]
            if not line.startswith("$ "):
                sys.exit("README.md:%d: a session must start with a '$ ' command" % num)
            cmd = line[2:]
            while cmd.endswith("\\") and j + 1 < len(body):
                j += 1
                cmd += "\n" + body[j][1]
            j += 1
            out = []
            while j < len(body) and not body[j][1].startswith("$ "):
                out.append(body[j][1])
                j += 1
            cmds.append((cmd, out, num))
        yield start + 1, skip, cmds


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    readme, s24, work = argv[1], os.path.realpath(argv[2]), argv[3]
    repo_tests = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "build"))
    os.symlink(s24, os.path.join(work, "build", "sparse24"))
    os.symlink(repo_tests, os.path.join(work, "tests"))
    n_cmds = n_sessions = bad = skipped = 0
    for first, skip, cmds in sessions(text):
        if skip is not None:
            skipped += 1
            print("skip README.md:%d: %d commands (%s)" % (first, len(cmds), skip))
            continue
        n_sessions += 1
        for cmd, want, num in cmds:
            n_cmds += 1
            r = subprocess.run(["bash", "-c", cmd], cwd=work, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=600)
            got = r.stdout.decode("utf-8", "replace").split("\n")
            if got and got[-1] == "":
                got.pop()
            if got != want:
                bad += 1
                print("FAIL README.md:%d: $ %s   (exit %d)" % (num, cmd, r.returncode))
                for d in difflib.unified_diff(want, got, "README.md", "now", lineterm="", n=1):
                    print("  " + d)
            else:
                print("ok   README.md:%d: $ %s" % (num, cmd.split("\n")[0][:100]))
    print("readme: %d commands in %d sessions, %d differ from README.md (%d sessions skipped)"
          % (n_cmds, n_sessions, bad, skipped))
    return 1 if bad or n_cmds == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
