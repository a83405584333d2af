#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check_mk.py: every make variable that a part's fragment expands at parse time (the right side
of :=, +=, a rule's targets and prerequisites) is defined by the top Makefile or by a fragment read
before it; the order is the Makefile's PARTS. Usage: check_mk.py PART..."""
import re, sys, glob

ASSIGN = re.compile(r'^\s*(?:override\s+|export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(:=|::=|\?=|\+=|=)(.*)', re.S)
REF = re.compile(r'\$\(([A-Za-z_][A-Za-z0-9_]*)\)')


def logical_lines(path):
    buf, start = '', 0
    for n, line in enumerate(open(path), 1):
        if not buf:
            start = n
        line = line.rstrip('\n')
        if line.endswith('\\'):
            buf += line[:-1] + ' '
            continue
        yield start, buf + line
        buf = ''


def main(parts):
    files = ['Makefile'] + [f for p in parts for f in sorted(glob.glob(p + '/*.mk'))]
    first = {}
    for i, f in enumerate(files):
        for _, line in logical_lines(f):
            m = ASSIGN.match(line)
            if m and not line.startswith('\t'):
                first.setdefault(m.group(1), i)
    bad = 0
    for i, f in enumerate(files):
        in_define = False
        for n, line in logical_lines(f):
            if line.startswith('define '):
                in_define = True
            if in_define:
                if line.startswith('endef'):
                    in_define = False
                continue
            if line.startswith('\t') or line.lstrip().startswith('#'):
                continue
            m = ASSIGN.match(line)
            if m:
                text = m.group(3) if m.group(2) in (':=', '::=', '+=') else ''
            elif ':' in line:
                text = line
            else:
                continue
            for v in REF.findall(text):
                if v in first and first[v] > i:
                    print(f'{f}:{n}: $({v}) is expanded here but defined later, in {files[first[v]]}')
                    bad += 1
    print(f'check_mk: {len(files)} make files, {bad} reference(s) before definition')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
