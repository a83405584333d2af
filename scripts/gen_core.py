#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Keeps the RTL file list of sparse24.core (FuseSoC CAPI2) equal to rtl/s24.f.

rtl/s24.f is the one file list every tool reads; the .core's `rtl` fileset is written from it
(plus every rtl/*.vh as an include file) between the two marker lines of sparse24.core.

  gen_core.py CORE            rewrite CORE's file list in place
  gen_core.py CORE --check    exit 1 with a diff if CORE's file list is not the one of rtl/s24.f
"""
import argparse
import difflib
import glob
import os
import sys

BEGIN = "      # BEGIN generated from rtl/s24.f by `make core` (make core-check fails on a drift)\n"
END = "      # END generated from rtl/s24.f\n"


def file_lines(root):
    with open(os.path.join(root, "rtl", "s24.f")) as f:
        srcs = [ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith(("//", "#"))]
    incs = sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "rtl", "*.vh")))
    out = [f"      - {p}: {{is_include_file: true}}\n" for p in incs]
    out += [f"      - {p}\n" for p in srcs]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("core")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    root = os.path.dirname(os.path.abspath(args.core))
    with open(args.core) as f:
        lines = f.readlines()
    try:
        b, e = lines.index(BEGIN), lines.index(END)
    except ValueError:
        sys.exit(f"gen_core: {args.core}: marker lines not found")
    new = lines[: b + 1] + file_lines(root) + lines[e:]
    if args.check:
        if new != lines:
            sys.stdout.writelines(difflib.unified_diff(lines, new, args.core, "rtl/s24.f"))
            sys.exit(f"gen_core: {args.core} does not list rtl/s24.f: run `make core`")
        print(f"core-check: {args.core} lists the {len(file_lines(root))} files of rtl/s24.f and rtl/*.vh")
        return
    with open(args.core, "w") as f:
        f.writelines(new)


if __name__ == "__main__":
    main()
