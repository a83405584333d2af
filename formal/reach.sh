#!/bin/sh
# reach.sh SBY_DIR FILE.sby TASK OUT_PREFIX: a reachability task (a cover written as an assertion
# under S24_FV_REACH, for engines without a cover mode). It passes only if the engine reports that
# assertion failing (the solver found a trace of the covered state): a pass of every assertion,
# or a failure of any other one, is an error. Prints one line.
# ABC's bmc3 (Debian's yosys-abc) names the failing output ("Output N of miter ... was asserted in
# frame F"); N indexes the asserts of the model's witness map (model/design_aiger.ywa). The
# conversion of its trace to a Yosys witness fails with YoWASP's yosys-witness ("unexpected data
# in AIGER witness file"), which makes SymbiYosys report ERROR after the engine's FAIL; the
# engine's own answer is what is checked here.
set -u
dir=$1 sby=$2 task=$3 prefix=$4
here=$(cd "$(dirname "$0")" && pwd)
line=$("$here/run_sby.sh" "$dir" "$sby" "$task" "$prefix")
log=$prefix.$task.log
secs=$(echo "$line" | grep -o '[0-9]* s$')
out=$(grep -a -o 'Output [0-9]* of miter "[^"]*" was asserted in frame [0-9]*' "$log" | head -n 1)
n=$(echo "$out" | awk '{print $2}')
frame=$(echo "$out" | awk '{print $NF}')
what=""
if grep -a -q "Status returned by engine: FAIL" "$log" && [ -n "$n" ]; then
  # asserts[n] is [..., "\\check_assert_<file>_v_<line>_<id>"]: the file and line of the assertion
  at=$(python3 -c '
import json, re, sys
a = json.load(open(sys.argv[1]))["asserts"][int(sys.argv[2])][-1]
m = re.search(r"check_assert_(.*)_v_([0-9]+)_[0-9]+$", a)
print("%s.v:%s" % (m.group(1), m.group(2)) if m else "")
' "${prefix}_$task/model/design_aiger.ywa" "$n" 2>/dev/null)
  # the message from the sources the run read (its own copy), not rtl/ as it is now
  src="${prefix}_$task/src"
  [ -d "$src" ] || src="$here/../rtl"
  what=$("$here/msg_at.sh" "$src" "$at" "reach:")
fi
if [ -n "$what" ]; then
  echo "$sby $task: REACHED ($what fails in frame $frame, $at) $secs"
  exit 0
fi
echo "$sby $task: ERROR (the covered state was not reached: $line; engine: ${out:-no failing output})"
exit 1
