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
    """rtl/*.vh: every run counts all of them among its sources (an `include is not in Yosys's hierarchy)."""
    rtl = os.path.join(REPO, "rtl")
    return [os.path.join(rtl, f) for f in sorted(os.listdir(rtl)) if f.endswith(".vh")]


def file_bytes(paths):
    """{path: contents} of the sources as they are now (read before Yosys reads them)."""
    out = {}
    for p in paths:
        with open(p, "rb") as f:
            out[p] = f.read()
    return out


def rtl_digest(paths, contents=None):
    """sha256 (12 hex digits) of the named sources: each file's repo-relative path and contents, in sorted
    order. contents: {path: bytes} read earlier (file_bytes), else the files as they are now."""
    contents = contents if contents is not None else file_bytes(paths)
    h = hashlib.sha256()
    for p in sorted(paths, key=lambda q: os.path.relpath(q, REPO)):
        h.update(os.path.relpath(p, REPO).encode() + b"\0" + contents[p])
    return h.hexdigest()[:12]


def used_sources(yosys_log, files):
    """The sources a run elaborated: the files defining the modules of its design hierarchy (the
    "Top module:" and "Used module:" lines of Yosys's hierarchy pass in yosys_log; a parameterized
    copy `$paramod...\\name\\...` counts as `name`), plus every rtl/*.vh. A module that none of files
    defines (a vendor primitive's black box) adds no file."""
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
    return sorted(used) + headers()
