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


def rtl_digest(files):
    h = hashlib.sha256()
    for p in files:
        with open(p, "rb") as f:
            h.update(os.path.basename(p).encode() + b"\0" + f.read())
    for inc in sorted(os.listdir(os.path.join(REPO, "rtl"))):
        if inc.endswith(".vh"):
            with open(os.path.join(REPO, "rtl", inc), "rb") as f:
                h.update(inc.encode() + b"\0" + f.read())
    return h.hexdigest()[:12]
