#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The SPDX line of every source file of the repository (issue 49): `SPDX-License-Identifier:
Apache-2.0` (the LICENSE file) as a comment in the file's first lines.

  spdx.py --check   list each tracked source without it (exit 1 if any): make test-spdx
  spdx.py --add     add it to those (after a shebang or Verilator's `verilator_config line)

Sources: C, C++, Verilog and its headers, Verilator configuration, Python, shell, make, Yosys
scripts, SymbiYosys tasks, constraint files, TOML. Generated sources get it from their generator
(scripts/gen_regs.py, tests/net/op_versions.py), which `make regs-check` and
`make test-op-versions` compare. Not: data (.json, .tflite, .npy, .csv), prose (.md), the file lists
(rtl/s24.f: read by tools that take no comment), waves and images.
"""
import os
import subprocess
import sys

LINE = "SPDX-License-Identifier: Apache-2.0"
SLASH = (".c", ".h", ".cpp", ".v", ".vh", ".vlt")
HASH = (".py", ".sh", ".mk", ".ys", ".sby", ".lpf", ".pdc", ".toml")
HEAD = 5  # the line must be among the first HEAD lines


def comment(path):
    """The file's comment form of the line, or None if it is not a source."""
    name = os.path.basename(path)
    if path.endswith(SLASH):
        return "// " + LINE
    if path.endswith(HASH) or name == "Makefile":
        return "# " + LINE
    return None


def sources(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True).stdout
    for rel in out.decode().split("\0"):
        if rel and comment(rel) and os.path.isfile(os.path.join(root, rel)):
            yield rel


def has_line(text):
    return any(LINE in ln for ln in text.split("\n")[:HEAD])


def add(text, line):
    lines = text.split("\n")
    at = 1 if lines and (lines[0].startswith("#!") or lines[0].startswith("`verilator_config")) else 0
    return "\n".join(lines[:at] + [line] + lines[at:])


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("--check", "--add"):
        sys.exit(__doc__)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    missing = []
    for rel in sources(root):
        path = os.path.join(root, rel)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if has_line(text):
            continue
        if sys.argv[1] == "--check":
            missing.append(rel)
            continue
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write(add(text, comment(rel)))
        os.chmod(path + ".tmp", os.stat(path).st_mode)
        os.replace(path + ".tmp", path)
        print(f"spdx: {rel}")
    if missing:
        print(f"spdx: {len(missing)} sources without `{LINE}` in their first {HEAD} lines "
              "(scripts/spdx.py --add):")
        print("\n".join("  " + m for m in missing))
        return 1
    if sys.argv[1] == "--check":
        print(f"spdx: every source carries `{LINE}`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
