#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# reach.sh SBY_DIR FILE.sby TASK OUT_PREFIX: a reachability task (a cover written as an assertion
# under S24_FV_REACH, for engines without a cover mode). It passes only if the engine reports that
# assertion failing (the solver found a trace of the covered state): a pass of every assertion,
# or a failure of any other one, is an error. Prints one line.
# ABC's bmc3 (Debian's yosys-abc) names the failing output, which formal/bmc3_fail.sh maps to the
# assertion's file and line. The conversion of its trace to a Yosys witness fails with YoWASP's
# yosys-witness ("unexpected data in AIGER witness file"), which makes SymbiYosys report ERROR
# after the engine's FAIL; the engine's own answer is what is checked here.
set -u
dir=$1 sby=$2 task=$3 prefix=$4
here=$(cd "$(dirname "$0")" && pwd)
line=$("$here/run_sby.sh" "$dir" "$sby" "$task" "$prefix")
secs=$(echo "$line" | grep -o '[0-9]* s$')
bmc=$("$here/bmc3_fail.sh" "$prefix" "$task")
frame=${bmc%% *} at=${bmc#* }
what=""
if [ -n "$bmc" ]; then
  # the message from the sources the run read (its own copy), not rtl/ as it is now
  src="${prefix}_$task/src"
  [ -d "$src" ] || src="$here/../rtl"
  what=$("$here/msg_at.sh" "$src" "$at" "reach:")
fi
if [ -n "$what" ]; then
  echo "$sby $task: REACHED ($what fails in frame $frame, $at) $secs"
  exit 0
fi
engine="no failing output"
[ -n "$bmc" ] && engine="assertion ${at:-?} failing in frame $frame"
echo "$sby $task: ERROR (the covered state was not reached: $line; engine: $engine)"
exit 1
