# SPDX-License-Identifier: Apache-2.0
# sparse24 synthesis flow (synth/s24_synth.py): inputs: the file list (rtl/s24.f) and the Yosys scripts of synth/.
import hashlib
import os
import re
import shlex
import string

from .common import REPO, SYNTH, FlowError


def read_filelist(path):
    """Verilog sources and include dirs from a simulator .f file (paths relative to the repo)."""
    if not os.path.isfile(path):
        raise FlowError(f"{path}: file list not found (the RTL is expected in rtl/)")
    files, incdirs = [], []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = re.sub(r"(//|#).*", "", line).strip()
            for tok in line.split():
                if tok.startswith("+incdir+"):
                    incdirs += [d for d in tok[len("+incdir+"):].split("+") if d]
                elif tok.startswith("+define+") or tok.startswith("-"):
                    raise FlowError(f"{path}:{lineno}: option {tok} is not supported by s24_synth")
                else:
                    files.append(tok)
    resolved = []
    for f in files:
        p = f if os.path.isabs(f) else os.path.join(REPO, f)
        if not os.path.isfile(p):
            raise FlowError(f"{path}: listed source {f} does not exist")
        resolved.append(p)
    if not resolved:
        raise FlowError(f"{path}: lists no source files")
    dirs = {os.path.dirname(p) for p in resolved}
    dirs |= {d if os.path.isabs(d) else os.path.join(REPO, d) for d in incdirs}
    return resolved, sorted(dirs)


def render_script(name, out_dir, **values):
    """Fill in synth/<name>.ys and write it to out_dir; returns the path of the filled-in script."""
    with open(os.path.join(SYNTH, name + ".ys")) as f:
        text = string.Template(f.read()).substitute(values, out=out_dir)
    path = os.path.join(out_dir, name + ".ys")
    with open(path, "w") as f:
        f.write(text)
    return path


def read_cmd(files, incdirs, target=None):
    """Yosys read_verilog commands for the sources, with the include dirs and the target's
    `defines: S24_ECP5 on ECP5 (the RTL then instantiates MULT18X18D, whose black box
    synth/ecp5_core.ys reads)."""
    defines = ["S24_ECP5"] if target == "ecp5" else []
    opts = " ".join(["-D" + shlex.quote(d) for d in defines] + ["-I" + shlex.quote(d) for d in incdirs])
    return "\n".join(f"read_verilog -defer {opts} {shlex.quote(f)}" for f in files)


def hier_cmd(top, params):
    return f"hierarchy -check -top {top} " + chparam(params)


def chparam(params):
    return " ".join(f"-chparam {k} {v}" for k, v in params.items())


def headers():
    """rtl/*.vh: what Yosys may read besides the sources (the flow reads them all before a run, so
    that the digest of whichever it includes is of the bytes Yosys read)."""
    rtl = os.path.join(REPO, "rtl")
    return [os.path.join(rtl, f) for f in sorted(os.listdir(rtl)) if f.endswith(".vh")]


INCLUDE_RE = re.compile(r'^\s*`include\s+"([^"]+)"', re.M)


def included(paths, read=None):
    """The headers that paths `include, directly or through other headers (an `include is not in
    Yosys's hierarchy), each found beside its includer, in rtl/ or in synth/, in sorted order.
    read(path) -> text: the files' contents (default: as they are now)."""
    read = read or (lambda p: open(p, errors="replace").read())
    found, todo = set(), list(paths)
    while todo:
        src = todo.pop()
        for name in INCLUDE_RE.findall(read(src)):
            for d in (os.path.dirname(src), os.path.join(REPO, "rtl"), os.path.join(REPO, "synth")):
                h = os.path.join(d, name)
                if os.path.isfile(h):
                    if h not in found:
                        found.add(h)
                        todo.append(h)
                    break
            else:
                raise FlowError(f"{os.path.relpath(src, REPO)}: `include \"{name}\" not found")
    return sorted(found)


def file_bytes(paths):
    """{path: contents} of the sources as they are now (read before Yosys reads them)."""
    out = {}
    for p in paths:
        with open(p, "rb") as f:
            out[p] = f.read()
    return out


VERILOG_TOKEN_RE = re.compile(rb'"(?:\\.|[^"\\\n])*"|//[^\n]*|/\*.*?\*/', re.S)


def verilog_code(text):
    """Verilog text without its comments (strings kept whole), trailing blanks, blank lines and
    formal-only branches (synthesized_lines): what Yosys reads of it. Two sources that differ in
    comments or formal properties only synthesize alike."""
    def keep(m):
        t = m.group(0)
        return t if t.startswith(b'"') else b"\n" * t.count(b"\n")
    lines = (ln.rstrip() for ln in VERILOG_TOKEN_RE.sub(keep, text).split(b"\n"))
    return b"\n".join(synthesized_lines([ln for ln in lines if ln]))


# Macros no synthesis run defines: Yosys defines FORMAL for `read_verilog -formal` only (the flows
# here never pass it), S24_SBY is set by formal/*.sby alone. What they guard is not synthesized.
FORMAL_ONLY = (b"FORMAL", b"S24_SBY")
DIRECTIVE_RE = re.compile(rb"^\s*`(ifdef|ifndef|elsif|else|endif)\b\s*([A-Za-z_][A-Za-z0-9_$]*)?")


def synthesized_lines(lines):
    """lines without the branches a synthesis run never reads: `ifdef FORMAL / S24_SBY's then
    branch, `ifndef FORMAL / S24_SBY's `else branch, and those conditionals' own directives. Other
    conditionals, and whatever they hold, are kept as they are."""
    out, stack = [], []   # per open conditional: [formal-only, the branch hidden, the branch now]
    def dropped():
        return any(f and now == hidden for f, hidden, now in stack)
    for ln in lines:
        m = DIRECTIVE_RE.match(ln)
        kind = m.group(1) if m else None
        if kind in (b"ifdef", b"ifndef"):
            formal = m.group(2) in FORMAL_ONLY
            keep = not formal and not dropped()
            stack.append([formal, b"then" if kind == b"ifdef" else b"else", b"then"])
        elif kind in (b"else", b"elsif") and stack:
            if stack[-1][0] and kind == b"elsif":
                raise FlowError("`elsif after `ifdef FORMAL or S24_SBY: not supported by the digest "
                                "(write a nested `ifdef)")
            stack[-1][2] = b"else"
            keep = not stack[-1][0] and not dropped()
        elif kind == b"endif" and stack:
            formal = stack.pop()[0]
            keep = not formal and not dropped()
        else:
            keep = not dropped()
        if keep:
            out.append(ln)
    return out


def rtl_digest(paths, contents=None):
    """sha256 (12 hex digits) of the named sources: each file's repo-relative path and contents, in sorted
    order, a Verilog file's (.v, .vh) without its comments and blank lines (verilog_code), a Yosys
    script's, a constraint file's or a Python generator's without its whole-line # comments: a comment does not change
    what is synthesized or placed. contents: {path: bytes} read earlier (file_bytes), else the
    files as they are now."""
    contents = contents if contents is not None else file_bytes(paths)
    h = hashlib.sha256()
    for p in sorted(paths, key=lambda q: os.path.relpath(q, REPO)):
        body = contents[p]
        if p.endswith((".v", ".vh")):
            body = verilog_code(body)
        elif p.endswith((".ys", ".lpf", ".pdc", ".py")):  # scripts, constraints, the SoC's Python
            # generators: whole-line # comments
            body = b"\n".join(ln for ln in body.split(b"\n") if not ln.lstrip().startswith(b"#"))
        h.update(os.path.relpath(p, REPO).encode() + b"\0" + body)
    return h.hexdigest()[:12]


def used_sources(yosys_log, files):
    """The sources a run elaborated: the files defining the modules of its design hierarchy (the
    "Top module:" and "Used module:" lines of Yosys's hierarchy pass in yosys_log; a parameterized
    copy `$paramod...\\name\\...` counts as `name`), plus the headers they include. A module that
    none of files defines (a vendor primitive's black box) adds no file."""
    defined = {}
    for p in files:
        with open(p, errors="replace") as f:
            for name in re.findall(r"^\s*module\s+([A-Za-z_][A-Za-z0-9_$]*)", f.read(), re.M):
                defined[name] = p
    used = set()
    with open(yosys_log, errors="replace") as f:
        for line in f:
            m = re.match(r"\s*(?:Top|Used) module:\s+(\S+)", line)
            if not m:
                continue
            name = m.group(1)
            name = name.split("\\")[1] if name.startswith("$paramod") else name.lstrip("\\")
            if name in defined:
                used.add(defined[name])
    if not used:
        raise FlowError(f"{os.path.relpath(yosys_log, REPO)}: no module of the sources in Yosys's hierarchy")
    return sorted(used) + included(sorted(used))
