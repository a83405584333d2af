#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bmc3_fail.sh OUT_PREFIX TASK: the assertion that ABC's bmc3 (core.sby) reports failing in the
# run of formal/run_sby.sh with that OUT_PREFIX and TASK. Prints "FRAME FILE.v:LINE" when the
# engine answered FAIL naming a miter output (FILE.v:LINE empty if the witness map does not name
# it), nothing otherwise. Used by reach.sh and mutants.sh: SymbiYosys reports ERROR after that
# FAIL (its trace does not convert, see reach.sh), so the engine's own answer is read here.
# ABC names the output ("Output N of miter ... was asserted in frame F"); N indexes the asserts
# of the model's witness map (model/design_aiger.ywa), whose names hold the file and line.
set -u
prefix=$1 task=$2
log=$prefix.$task.log
out=$(grep -a -o 'Output [0-9]* of miter "[^"]*" was asserted in frame [0-9]*' "$log" | head -n 1)
n=$(echo "$out" | awk '{print $2}')
[ -n "$n" ] && grep -a -q "Status returned by engine: FAIL" "$log" || exit 0
# asserts[n] is [..., "\\check_assert_<file>_v_<line>_<id>"]: the file and line of the assertion
at=$(python3 -c '
import json, re, sys
a = json.load(open(sys.argv[1]))["asserts"][int(sys.argv[2])][-1]
m = re.search(r"check_assert_(.*)_v_([0-9]+)_[0-9]+$", a)
print("%s.v:%s" % (m.group(1), m.group(2)) if m else "")
' "${prefix}_$task/model/design_aiger.ywa" "$n" 2>/dev/null)
echo "$(echo "$out" | awk '{print $NF}') $at"
