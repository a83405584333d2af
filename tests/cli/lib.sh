# SPDX-License-Identifier: Apache-2.0
# Helpers of the end-to-end command tests (sourced by run.sh and faults.sh, run in WORK).
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }

# net_models WORK SCRIPT DIR: WORK emptied and made the current folder, then tests/net/SCRIPT
# writes its models made from kws.tflite into DIR ($PY, $HERE and $MODELS set by the caller;
# $KWS set here), and keep.npy holds a sentinel the failing runs must leave alone
net_models() {
  rm -rf "$1"; mkdir -p "$1"; cd "$1" || exit 1
  KWS=$MODELS/kws.tflite
  "$PY" "$HERE/$2" "$KWS" "$3" || { echo "$2 failed"; exit 1; }
  echo keep > keep.npy
}
bad() { fail=$((fail + 1)); echo "FAIL $1: $2"; }

# run NAME CMD...: must exit 0 within 60 s
run() {
  local name=$1; shift
  if timeout 60 "$@" >out.txt 2>err.txt; then ok "$name"; else bad "$name" "exit $? ($(head -c 300 err.txt))"; fi
}

# same NAME GOT_CMD WANT_CMD: both print the same text
same() {
  local name=$1
  if diff <(eval "$2" 2>&1) <(eval "$3" 2>&1) >diff.txt; then ok "$name"; else bad "$name" "$(head -c 400 diff.txt)"; fi
}

# expect_err NAME CODE 'SUBSTRING' 'OUT1 OUT2 ...' CMD...
#   within EXPECT_SECONDS (60 unless set: a fault that must outlast a hardware timeout sets more),
#   exit status CODE, exactly one stderr line starting `sparse24: error: ` and containing
#   SUBSTRING, nothing on stdout, and each OUT file unchanged (or still absent), no temp files.
expect_err() {
  local name=$1 code=$2 want=$3 outs=$4; shift 4
  local before=() f
  for f in $outs; do before+=("$( [ -e "$f" ] && md5sum <"$f" || echo absent)"); done
  timeout "${EXPECT_SECONDS:-60}" "$@" >out.txt 2>err.txt
  local rc=$? i=0 why=""
  [ "$rc" -eq "$code" ] || why="exit $rc, want $code"
  [ "$(wc -l <err.txt)" -eq 1 ] || why="$why; stderr has $(wc -l <err.txt) lines"
  head -n1 err.txt | grep -q '^sparse24: error: ' || why="$why; no 'sparse24: error: ' prefix"
  grep -qF -- "$want" err.txt || why="$why; message lacks '$want'"
  [ -s out.txt ] && why="$why; unexpected stdout"
  for f in $outs; do
    local now
    now=$( [ -e "$f" ] && md5sum <"$f" || echo absent)
    [ "$now" = "${before[$i]}" ] || why="$why; $f was created or changed"
    i=$((i + 1))
  done
  ls -A | grep -q '\.tmp\.' && why="$why; temporary file left behind"
  if [ -z "$why" ]; then ok "$name"; else bad "$name" "$why [stderr: $(head -c 300 err.txt)]"; fi
}

