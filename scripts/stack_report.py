#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Stack report of a bare-metal program (make test-baremetal): the largest stack frames of the
functions linked into it (gcc -fstack-usage) and its worst-case stack depth from main along the
call graph (gcc -fcallgraph-info=su), indirect calls resolved by the table below and named.

usage: stack_report.py ELF NM_OUTPUT CI_FILE... [--max-depth BYTES]

Every function of the project is compiled with -fstack-usage and -fcallgraph-info=su, so its
frame is known; calls into picolibc and libgcc (memcpy, snprintf, the soft 64-bit division) are
not measured and are listed as such. An indirect call (a function pointer) is resolved to the
functions that can be behind it, per source file (INDIRECT): the seam's and the platform's
functions behind the driver, the engines behind the executor, the kernels behind the operator
table, the planner's callbacks. A recursive path is an error (exit 1), and so is a depth above
--max-depth.
"""
import re
import sys

# For an indirect call made in a function of a file matching the first pattern (and, when a fourth
# pattern is given, of a name matching it): the functions that can be behind it, by the file they
# are defined in and their name. The platform's (a
# firmware's) callbacks are any file's but the project's parts, named plat_* by convention.
PLATFORM = r"^(?!(cmodel|driver|runtime)/)"
INDIRECT = [
    (r"driver/s24_drv\.c$", r"driver/baremetal/s24_mmio\.c$", r"^mm_\w+$"),
    (r"driver/s24_drv\.c$", r"driver/s24_drv\.c$", r"^tile_beats_of$"),
    (r"driver/baremetal/s24_mmio\.c$", PLATFORM, r"^plat_\w+$"),
    (r"runtime/s24_engine\.c$", r"driver/baremetal/s24_mmio\.c$", r"^mm_scratch$"),
    (r"runtime/s24_net\.c$", r"runtime/s24_engine\.c$", r"^(dev|model)_(layer_bytes|prepare|linear|add|quant)$"),
    (r"runtime/s24_net\.c$", PLATFORM, r"^plat_hook$"),
    (r"runtime/s24_ops\.c$", r"runtime/s24_ops\.c$", r"^(prep|run)_\w+$", r"^s24_op_"),
    (r"runtime/s24_ops\.c$", r"runtime/s24_ops\.c$", r"^(logistic|tanh)_f$", r"^prep_lut$"),
    (r"cmodel/s24_plan\.c$", r"(driver/s24_drv|cmodel/s24_cycles|cmodel/s24_plan)\.c$",
     r"^(tile_beats_of|array_beats)$"),
]
# libc calls that call back into the program: (caller, callee)
CALLBACKS = [("qsort", "by_size")]


def parse_ci(paths):
    nodes, edges = {}, []
    node_re = re.compile(r'node: \{ title: "([^"]+)" label: "([^"]*)"')
    edge_re = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')
    for p in paths:
        for line in open(p):
            m = node_re.search(line)
            if m:
                title, label = m.group(1), m.group(2)
                parts = label.split("\\n")
                size = None
                for part in parts:
                    s = re.match(r"(\d+) bytes \((static|dynamic[^)]*)\)", part)
                    if s:
                        size = int(s.group(1))
                        if s.group(2) != "static":
                            size = (size, s.group(2))
                where = parts[1] if len(parts) > 1 else ""
                if title not in nodes or nodes[title]["size"] is None:
                    nodes[title] = {"name": parts[0], "where": where, "size": size,
                                    "file": title.rsplit(":", 1)[0] if ":" in title else None}
                continue
            m = edge_re.search(line)
            if m:
                edges.append((m.group(1), m.group(2)))
    return nodes, edges


def main(argv):
    max_depth = None
    if "--max-depth" in argv:
        i = argv.index("--max-depth")
        max_depth = int(argv[i + 1])
        del argv[i:i + 2]
    elf, nm_out, cis = argv[1], argv[2], argv[3:]
    linked = set()
    for line in open(nm_out):
        f = line.split()
        if len(f) >= 3 and f[1] in "tTwW":
            linked.add(f[2])
    nodes, edges = parse_ci(cis)
    # a node's definition: the one with a frame size (static functions are titled file:name)
    defined = {t: n for t, n in nodes.items() if n["size"] is not None}
    by_name = {}
    for t, n in defined.items():
        by_name.setdefault(n["name"], []).append(t)
    # the file a function was compiled from: the node's location
    def src(t):
        w = defined[t]["where"] if t in defined else ""
        return w.split(":")[0]
    calls = {t: set() for t in defined}
    indirect_sites = {}
    for a, b in edges:
        if a not in calls:
            continue
        if b == "__indirect_call":
            targets = set()
            for fre, tfile, tname, *cname in INDIRECT:
                if re.search(fre, src(a)) and (not cname or re.match(cname[0], defined[a]["name"])):
                    targets |= {t for t in defined
                                if re.search(tfile, src(t)) and re.match(tname, defined[t]["name"])}
            indirect_sites.setdefault(a, set()).update(targets)
            calls[a] |= targets
        elif b in defined:
            calls[a].add(b)
        elif b in by_name:  # declared here as extern, defined elsewhere
            calls[a] |= set(by_name[b])
        else:
            calls[a].add(("libc", b))
    for caller, callee in CALLBACKS:
        for t in by_name.get(callee, []):
            for a in list(calls):
                if ("libc", caller) in calls[a]:
                    calls[a].add(t)
    # only what the program links (gc-sections dropped the rest)
    def live(t):
        return defined[t]["name"] in linked

    memo, onstack = {}, set()

    def depth(t):
        if t in memo:
            return memo[t]
        if t in onstack:
            raise RecursionError(t)
        onstack.add(t)
        size = defined[t]["size"]
        own = size if isinstance(size, int) else size[0]
        best, path, libc = 0, [], set()
        for c in calls[t]:
            if isinstance(c, tuple):
                libc.add(c[1])
                continue
            if not live(c):
                continue
            d, p, lc = depth(c)
            if d > best:
                best, path = d, p
            libc |= lc
        onstack.discard(t)
        memo[t] = (own + best, [t] + path, libc)
        return memo[t]

    roots = by_name.get("main", [])
    if not roots:
        print("stack_report: no main in the call graph")
        return 1
    try:
        total, path, libc = depth(roots[0])
    except RecursionError as e:
        print(f"stack_report: recursion through {e.args[0]}: no bound")
        return 1
    frames = sorted(((n["size"] if isinstance(n["size"], int) else n["size"][0], n["name"],
                      n["where"]) for t, n in defined.items() if live(t)), reverse=True)
    dynamic = [n["name"] for t, n in defined.items() if live(t) and not isinstance(n["size"], int)]
    print("largest stack frames (-fstack-usage, linked functions):")
    for size, name, where in frames[:6]:
        print(f"  {size:6d} bytes  {name}  ({where})")
    if dynamic:
        print("  dynamic frames: " + ", ".join(sorted(dynamic)))
    print(f"worst-case stack depth from main: {total} bytes (-fcallgraph-info=su; picolibc and "
          f"libgcc frames not included)")
    print("  path: " + " -> ".join(defined[t]["name"] for t in path))
    print("  calls outside the program on the way (not measured): " +
          (", ".join(sorted(libc)) if libc else "none"))
    print("indirect calls, resolved by scripts/stack_report.py's table:")
    for site in sorted(indirect_sites, key=lambda t: defined[t]["name"]):
        if not live(site):
            continue
        names = sorted({defined[t]["name"] for t in indirect_sites[site] if live(t)})
        print(f"  {defined[site]['name']} -> {', '.join(names) if names else '(none linked)'}")
    if max_depth is not None and total > max_depth:
        print(f"stack_report: depth {total} exceeds the limit {max_depth}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
