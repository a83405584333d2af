#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# End-to-end fault tests of the `sparse24` command (issue 14, "Nothing lost under faults"):
# all-or-nothing outputs, non-regular targets and links, concurrent writers, --trace, file size
# limits and signals, stdout errors, bench, small .npy cases. Each section names its item.
# usage: tests/cli/faults.sh SPARSE24 WORKDIR [SPARSE24_PLAIN]
#   SPARSE24_PLAIN: a build without sanitizers, for the out-of-memory test (ulimit -v);
#   tests needing root (mknod, chown, mount) say "skip" when they cannot run.
set -u
S24=$(realpath "$1")
WORK=$2
PLAIN=${3:-}
[ -n "$PLAIN" ] && PLAIN=$(realpath "$PLAIN")
HERE=$(dirname "$(realpath "$0")")
NPY="python3 $HERE/npy.py"
SIGTEST="python3 $HERE/sigtest.py"
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 2
. "$HERE/lib.sh"
skip() { echo "skip $1: $2"; }
md5() { [ -e "$1" ] && md5sum <"$1" || echo absent; }
no_temps() { ! ls -A "${1:-.}" | grep -qE '\.tmp\.|\.sparse24\.'; }

# A random int8 file (ROWS x COLS) of header + os.urandom bytes: fast for large sizes.
rbytes() {
  python3 - "$@" <<'EOF'
import os, sys
sys.path.insert(0, os.environ["HERE"])
import npy
path, rows, cols = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
hdr = "{'descr': '|i1', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
with open(path, "wb") as f:
    f.write(npy.header(hdr))
    f.write(os.urandom(rows * cols))
EOF
}
export HERE

$NPY rand A.npy '|i1' 16 64 1 20
"$S24" prune A.npy -o Ap.npy
$NPY rand B.npy '|i1' 64 8 2 10
"$S24" compress Ap.npy --values V0.npy --meta M0.npy
"$S24" gemm Ap.npy B.npy -o Cref.npy
have_root=0
[ "$(id -u)" -eq 0 ] && have_root=1

# ------------------------------------------------------------------ 1. all-or-nothing commit
cp Ap.npy in.npy
mkdir -p somedir
expect_err commit_input_not_destroyed 1 'somedir/: is a directory' 'in.npy' \
  "$S24" compress in.npy --values in.npy --meta somedir/
expect_err commit_no_half_pair 1 'nodir/M.npy: cannot create output' 'V.npy nodir/M.npy' \
  "$S24" compress Ap.npy --values V.npy --meta nodir/M.npy
# a failure after the first rename (the direct write of the second output fails): rolled back
if [ $have_root -eq 1 ] && mknod full c 1 7 2>/dev/null; then
  echo "old values" >V.npy
  expect_err commit_late_failure_rolled_back 1 'full: cannot write: No space left on device' 'V.npy' \
    "$S24" compress Ap.npy --values V.npy --meta full
  rm -f V.npy
  expect_err commit_late_failure_new_file_removed 1 'full: cannot write' 'V.npy' \
    "$S24" compress Ap.npy --values V.npy --meta full
  same commit_device_node_kept "[ -c full ] && echo char" "echo char"
else
  skip commit_late_failure_rolled_back "needs root for mknod"
fi
run commit_in_place_still_works "$S24" prune in.npy -o in.npy
same commit_in_place_result "cmp in.npy Ap.npy && echo same" "echo same"

# ------------------------------------------------------------------ 2. device nodes, links
if [ $have_root -eq 1 ] && mknod nulldev c 1 3 2>/dev/null; then
  run nonregular_null "$S24" prune A.npy -o nulldev
  same nonregular_null_kept "[ -c nulldev ] && echo char" "echo char"
else
  skip nonregular_null "needs root for mknod"
fi
ln -s /proc/self/fd/1 stdout_link
"$S24" prune A.npy -o stdout_link >via_stdout.npy 2>err.txt
same nonregular_fd_link "cmp via_stdout.npy Ap.npy && [ -L stdout_link ] && echo same" "echo same"
"$S24" prune A.npy -o /dev/stdout | cat >via_pipe.npy
same nonregular_dev_stdout_pipe "cmp via_pipe.npy Ap.npy && [ -L /dev/stdout ] && echo same" "echo same"
mkfifo fifo
timeout 20 cat fifo >from_fifo.npy &
run nonregular_fifo timeout 20 "$S24" prune A.npy -o fifo
wait
same nonregular_fifo_data "cmp from_fifo.npy Ap.npy && [ -p fifo ] && echo same" "echo same"
# a FIFO without a reader blocks the write; an interrupt must still end the run (exit 130)
mkfifo lonely
timeout -s INT --preserve-status -k 5 2 "$S24" prune A.npy -o lonely >out.txt 2>err.txt
rc=$?
same nonregular_fifo_interruptible "echo $rc; [ -p lonely ] && no_temps && echo clean" "printf '130\nclean\n'"
expect_err trace_not_regular 1 'fifo: not a regular file' 'Cx.npy' \
  "$S24" gemm Ap.npy B.npy -o Cx.npy --backend rtl --trace fifo
mkdir -p real
ln -s real/target.npy link.npy
run symlink_dangling_created "$S24" prune A.npy -o link.npy
same symlink_dangling_written_through "[ -L link.npy ] && cmp real/target.npy Ap.npy && echo ok" "echo ok"
echo old >real/target.npy
run symlink_written_through "$S24" prune A.npy -o link.npy
same symlink_kept "[ -L link.npy ] && cmp real/target.npy Ap.npy && no_temps real && echo ok" "echo ok"
echo old >h1.npy
ln h1.npy h2.npy
run hardlink_replaced "$S24" prune A.npy -o h2.npy
same hardlink_split "cmp h2.npy Ap.npy && [ \"\$(cat h1.npy)\" = old ] && echo split" "echo split"
echo old >mode.npy
chmod 0640 mode.npy
run mode_kept "$S24" prune A.npy -o mode.npy
same mode_kept_0640 "stat -c %a mode.npy" "echo 640"
echo old >ro.npy
chmod 0444 ro.npy
expect_err readonly_refused 1 'ro.npy: cannot replace: the file is not writable' 'ro.npy' \
  "$S24" prune A.npy -o ro.npy
if [ $have_root -eq 1 ]; then
  echo old >other.npy
  chown 12345:12345 other.npy && chmod 0644 other.npy
  expect_err other_owner_refused 1 'other.npy: cannot replace' 'other.npy' \
    "$S24" prune A.npy -o other.npy
fi

# ------------------------------------------------------------------ 3. concurrent writers
# four compress runs (two of each of two inputs) to the same --values/--meta, 40 times: the pair
# left must always be one run's pair (a mixed pair is valid and multiplies silently wrong).
# Without the lock about 12 % of the rounds mixed on the 2-core build machine (plain build).
rbytes big1.npy 256 4096
rbytes big2.npy 256 4096
"$S24" prune big1.npy -o c1.npy && "$S24" prune big2.npy -o c2.npy
"$S24" compress c1.npy --values cv1.npy --meta cm1.npy
"$S24" compress c2.npy --values cv2.npy --meta cm2.npy
CS=${PLAIN:-$S24}   # the plain build starts faster: more overlap
mixed=0
for i in $(seq 40); do
  "$CS" compress c1.npy --values cv.npy --meta cm.npy &
  "$CS" compress c2.npy --values cv.npy --meta cm.npy &
  "$CS" compress c1.npy --values cv.npy --meta cm.npy &
  "$CS" compress c2.npy --values cv.npy --meta cm.npy &
  wait
  if cmp -s cv.npy cv1.npy && cmp -s cm.npy cm1.npy; then :
  elif cmp -s cv.npy cv2.npy && cmp -s cm.npy cm2.npy; then :
  else mixed=$((mixed + 1)); fi
done
same concurrent_pairs_consistent "echo $mixed mixed of 40" "echo 0 mixed of 40"
same concurrent_no_temps "no_temps && echo clean" "echo clean"

# ------------------------------------------------------------------ 4. --trace
echo "old trace" >t.fst
expect_err trace_kept_on_bad_output 1 'nodir/c.npy: cannot create output' 't.fst' \
  "$S24" gemm Ap.npy B.npy -o nodir/c.npy --backend rtl --trace t.fst
expect_err trace_kept_on_bad_input 1 'missing.npy: cannot open' 't.fst' \
  "$S24" gemm Ap.npy missing.npy -o Cz.npy --backend rtl --trace t.fst
run trace_written "$S24" gemm Ap.npy B.npy -o Ct.npy --backend rtl --trace t.fst
same trace_written_fst "cmp Ct.npy Cref.npy && head -c 1 t.fst | od -An -tx1 | tr -d ' '" "echo 00"
# a file size limit (EFBIG, as a full disk for the writer): the FST writer maps its files and
# faults (SIGBUS); one error line, exit 1, nothing left behind, nothing replaced
echo "old trace" >t.fst
# (the subshell's own output goes to /dev/null: the limit would apply to this script's log too)
(ulimit -f 16; "$S24" gemm Ap.npy B.npy -o Cl.npy --backend rtl --trace t.fst \
  >out.txt 2>err.txt; echo $? >rc.txt) >/dev/null 2>&1
same trace_size_limit_error "cat rc.txt; grep -c '^sparse24: error: t.fst: .*(disk full or a file size limit?)' err.txt; wc -l <err.txt" "printf '1\n1\n1\n'"
same trace_size_limit_nothing_left "[ \"\$(cat t.fst)\" = 'old trace' ] && [ ! -e Cl.npy ] && no_temps && echo clean" "echo clean"
# an unwritable directory: the FST writer needs <trace>.hier next to the trace, so a writable
# trace file there used to give exit 0 and an empty waveform; now refused before simulating
if [ $have_root -eq 1 ] && command -v setpriv >/dev/null; then
  mkdir -p ud wd && echo "old trace" >ud/t.fst && chmod 666 ud/t.fst && chmod 555 ud && chmod 777 wd
  expect_err trace_unwritable_dir 1 'ud/t.fst: cannot create output in ud: Permission denied' 'ud/t.fst wd/C.npy' \
    setpriv --reuid=65534 --regid=65534 --clear-groups "$S24" gemm Ap.npy B.npy -o wd/C.npy --backend rtl --trace ud/t.fst
  chmod 755 ud
else
  skip trace_unwritable_dir "needs root and setpriv"
fi
if [ $have_root -eq 1 ] && mkdir -p rofs && mount -t tmpfs -o ro,size=16k tmpfs rofs 2>/dev/null; then
  expect_err trace_read_only_fs 1 'rofs/t.fst: cannot create output in rofs: Read-only file system' '' \
    "$S24" gemm Ap.npy B.npy -o Cro.npy --backend rtl --trace rofs/t.fst
  umount rofs
else
  skip trace_read_only_fs "needs root to mount a tmpfs"
fi
if [ $have_root -eq 1 ] && mkdir -p small && mount -t tmpfs -o size=16k tmpfs small 2>/dev/null; then
  "$S24" gemm Ap.npy B.npy -o small/C.npy --backend rtl --trace small/t.fst >out.txt 2>err.txt
  echo $? >rc.txt
  same trace_disk_full "cat rc.txt; grep -c '^sparse24: error: small/t.fst: ' err.txt; no_temps small && ls -A small | wc -l" "printf '1\n1\n0\n'"
  umount small
else
  skip trace_disk_full "needs root to mount a small tmpfs"
fi

# ------------------------------------------------------------------ 5. limits and signals
rbytes lim.npy 64 4096
(ulimit -f 100; "$S24" prune lim.npy -o lim_out.npy >out.txt 2>err.txt; echo $? >rc.txt) >/dev/null 2>&1
same limit_prune_efbig "cat rc.txt; cat err.txt" "printf '1\nsparse24: error: lim_out.npy: cannot write output: File too large (the file size limit, ulimit -f, is 102400 bytes)\n'"
same limit_prune_no_temp "[ ! -e lim_out.npy ] && no_temps && echo clean" "echo clean"
# SIGTERM / SIGINT / SIGHUP during a large write: the process dies of the signal, no temporary
rbytes huge.npy 2048 16384   # 32 MiB
for sig in SIGTERM SIGINT SIGHUP; do
  res=$($SIGTEST $sig 1 0 "$S24" prune huge.npy -o huge_out.npy)
  case $sig in SIGTERM) want=-15 ;; SIGINT) want=-2 ;; SIGHUP) want=-1 ;; esac
  same "signal_${sig}_during_write" "echo $res; [ ! -e huge_out.npy ] && no_temps && echo clean" "echo killed $want; echo clean"
done
rm -f huge.npy
# SIGTERM during an rtl simulation with a trace: both staged files removed
rbytes sa.npy 128 2048
"$S24" prune sa.npy -o sa_p.npy
rbytes sb.npy 2048 128
echo "old trace" >st.fst
res=$($SIGTEST SIGTERM 0 0.5 "$S24" gemm sa_p.npy sb.npy -o sc.npy --backend rtl --trace st.fst)
# (item 4) the output location is checked before simulating: a traced run of this size
# simulates for a minute; a bad -o must fail at once, the existing trace untouched
expect_err trace_bad_output_before_simulation 1 'nodir/c.npy: cannot create output' 'st.fst' \
  timeout 20 "$S24" gemm sa_p.npy sb.npy -o nodir/c.npy --backend rtl --trace st.fst
same signal_during_simulation "echo $res; [ \"\$(cat st.fst)\" = 'old trace' ] && [ ! -e sc.npy ] && no_temps && echo clean" "echo killed -15; echo clean"
# an output name of 254 bytes (NAME_MAX 255): the temporary's name is short
long=$(printf 'n%.0s' $(seq 250)).npy
run name_max_output "$S24" prune A.npy -o "$long"
same name_max_output_written "cmp '$long' Ap.npy && echo same" "echo same"

# ------------------------------------------------------------------ 6. stdout errors
out_err() {  # NAME WANT_RC WANT_LINE CMD (a shell command with its own stdout redirection)
  bash -c "$3" 2>err.txt; local rc=$?
  if [ $rc -eq "$2" ] && [ "$(cat err.txt)" = "$4" ]; then ok "$1"; else bad "$1" "exit $rc [stderr: $(head -c 300 err.txt)]"; fi
}
if [ -w /dev/full ]; then
  out_err stdout_full_gemm_stats 1 "'$S24' gemm Ap.npy B.npy -o Cs.npy --stats >/dev/full" \
    "sparse24: error: stdout: No space left on device"
  out_err stdout_full_demo 1 "'$S24' demo >/dev/full" "sparse24: error: stdout: No space left on device"
fi
out_err stdout_closed_gemm_stats 1 "'$S24' gemm Ap.npy B.npy -o Cc.npy --stats >&-" \
  "sparse24: error: stdout: Bad file descriptor"
same stdout_closed_output_intact "cmp Cc.npy Cref.npy && echo same" "echo same"
out_err stdout_closed_nothing_printed 0 "'$S24' prune A.npy -o Pc.npy >&-" ""
same stdout_closed_prune_output "cmp Pc.npy Ap.npy && echo same" "echo same"

# ------------------------------------------------------------------ 7. bench
expect_err bench_out_checked_first 1 'nodir/x: cannot create the --out directory' '' \
  "$S24" bench --first 2 --out nodir/x
echo file >notadir
expect_err bench_out_not_a_directory 1 'notadir: --out is not a directory' '' \
  "$S24" bench --first 1 --model-only --out notadir
expect_err bench_model_only_with_rtl 2 '--model-only and --backend rtl contradict' '' \
  "$S24" bench --model-only --backend rtl
run bench_model_only_backend_model "$S24" bench --first 1 --model-only --backend model --out bmo
run bench_backend_model "$S24" bench --first 1 --backend model --out bbm
same bench_backend_model_skips_rtl "grep -c 'skipped (--model-only)' out.txt" "echo 1"
run bench_speed_model_only "$S24" bench --shape 8x16x4 --reps 1 --model-only
expect_err bench_speed_model_only_rtl 2 '--model-only and --backend rtl contradict' '' \
  "$S24" bench --shape 8x16x4 --reps 1 --model-only --backend rtl
mkdir -p elsewhere
(cd elsewhere && "$S24" bench --first 1 --model-only >../out.txt 2>../err.txt; echo $? >../rc.txt)
same bench_default_out_next_to_binary "cat rc.txt; [ -s '$(dirname "$S24")/bench/results.csv' ] && [ ! -e elsewhere/build ] && echo there" "printf '0\nthere\n'"
run bench_rtl_progress "$S24" bench --first 2 --out bprog
same bench_rtl_progress_lines "grep -oE '^\[[0-9]+/2\] [0-9x]+ \(rtl [0-9x]+\) ' err.txt" "printf '[1/2] 256x1024x1024 (rtl 16x64x64) \n[2/2] 1024x1024x1024 (rtl 64x64x64) \n'"
run bench_speed_rtl_progress "$S24" bench --shape 16x16x16 --reps 2 --backend rtl
same bench_speed_rtl_progress_lines "grep -c '^\[[12]/2\] 16x16x16 rtl' err.txt" "echo 2"

# ------------------------------------------------------------------ 8. smaller ones
for d in "i1" "=i1" ">i1" "<i1" "|i1"; do
  $NPY raw dt.npy "{'descr': '$d', 'fortran_order': False, 'shape': (1, 4), }" 01000002
  run "dtype_int8_$d" "$S24" prune dt.npy -o dt_out.npy
done
$NPY write dv.npy '|i1' 1 2 9 0
for d in "u1" "=u1" ">u1" "<u1"; do   # metadata 0x0E of SPEC §2's 1:4 example
  $NPY raw du.npy "{'descr': '$d', 'fortran_order': False, 'shape': (1, 1), }" 0e
  run "dtype_uint8_$d" "$S24" decompress dv.npy du.npy -o du_out.npy --k 8 --pattern 1:4
done
$NPY raw lz.npy "{'descr': '|i1', 'fortran_order': False, 'shape': (01, 0004), }" 01000002
expect_err shape_leading_zero 1 "lz.npy: header: 'shape' has an integer with a leading zero" 'o.npy' \
  "$S24" prune lz.npy -o o.npy
$NPY raw zero.npy "{'descr': '|i1', 'fortran_order': False, 'shape': (0, 4), }" ""
expect_err shape_zero_still_parsed 1 'zero.npy: empty matrix, shape (0, 4)' 'o.npy' \
  "$S24" prune zero.npy -o o.npy
$NPY raw extra1.npy "{'descr': '|i1', 'fortran_order': False, 'shape': (1, 4), }" 0102030405
expect_err one_byte_grammar 1 'extra1.npy: 1 byte of extra data after the array' 'o.npy' \
  "$S24" prune extra1.npy -o o.npy
$NPY raw hugeshape.npy "{'descr': '|i1', 'fortran_order': False, 'shape': (1000000000, 1000), }" 0102030405
expect_err pipe_huge_shape_is_truncation 1 '/dev/stdin: truncated data: shape (1000000000, 1000) needs' 'o.npy' \
  bash -c "cat hugeshape.npy | '$S24' prune /dev/stdin -o o.npy"
# out of memory for the decompress output (1:8, 4096 x 32768: inputs 22 MiB, output 128 MiB)
if [ -n "$PLAIN" ]; then
  python3 - <<'EOF'
import os, sys
sys.path.insert(0, os.environ["HERE"])
import npy
for path, descr, cols in (("oomV.npy", "|i1", 4096), ("oomM.npy", "|u1", 1536)):
    with open(path, "wb") as f:
        f.write(npy.header("{'descr': '%s', 'fortran_order': False, 'shape': (4096, %d), }" % (descr, cols)))
        f.truncate(f.tell() + 4096 * cols)
EOF
  # 90 MB of address space: the inputs load (fails below ~40 MB), the output does not (~190 MB)
  (ulimit -v 90000; "$PLAIN" decompress oomV.npy oomM.npy -o oom_out.npy --k 32768 --pattern 1:8 \
     >out.txt 2>err.txt; echo $? >rc.txt)
  same decompress_oom_names_output "cat rc.txt; cat err.txt" "printf '1\nsparse24: error: oom_out.npy: out of memory for a 4096 x 32768 result\n'"
  run decompress_oom_baseline "$PLAIN" decompress oomV.npy oomM.npy -o /dev/null --k 32768 --pattern 1:8
  rm -f oomV.npy oomM.npy
else
  skip decompress_oom_names_output "no plain build given"
fi

# ------------------------------------------------------------------ 9. issue 30 (second round)
# Every repro: one `sparse24: error:` line, exit 1 (2 for usage), nothing created, truncated,
# replaced or left behind.
# 9.1 the Verilator runtime failing (an exception at the C boundary of sim/s24_cosim.cpp): a
# memory limit that the inputs fit in but the simulation's stream queues do not (plain build:
# the sanitizers reserve terabytes of address space)
if [ -n "$PLAIN" ]; then
  rbytes va.npy 512 2048
  "$S24" prune va.npy -o va_p.npy
  rbytes vb.npy 2048 64
  echo "old C" >vc.npy
  (ulimit -v 16000; "$PLAIN" gemm va_p.npy vb.npy -o vc.npy --backend rtl >out.txt 2>err.txt; echo $? >rc.txt)
  same sim_exception_is_an_error "cat rc.txt; cat err.txt; cat vc.npy; no_temps && echo clean" \
    "printf '1\nsparse24: error: gemm: rtl gemm failed: out of memory in the Verilator runtime (ulimit -v?)\nold C\nclean\n'"
  rm -f va.npy vb.npy
  (ulimit -v 16000; "$PLAIN" demo --backend rtl >/dev/null 2>err.txt; echo $? >rc.txt)
  same sim_exception_demo "cat rc.txt; cat err.txt" \
    "printf '1\nsparse24: error: demo: rtl gemm failed: out of memory in the Verilator runtime (ulimit -v?)\n'"
else
  skip sim_exception_is_an_error "no plain build given"
fi
# a process limit: the simulation starts no thread, so it runs (as a user: root ignores ulimit -u;
# LeakSanitizer's exit check needs a thread of its own)
if [ $have_root -eq 1 ] && command -v setpriv >/dev/null; then
  mkdir -p nob && chmod 777 nob
  setpriv --reuid=65534 --regid=65534 --clear-groups bash -c \
    "ulimit -u 1; ASAN_OPTIONS=detect_leaks=0 exec '$S24' gemm Ap.npy B.npy -o nob/C.npy --backend rtl" >out.txt 2>err.txt
  same sim_process_limit_runs "echo $?; cmp nob/C.npy Cref.npy && no_temps nob && echo same" "printf '0\nsame\n'"
else
  skip sim_process_limit_runs "needs root and setpriv"
fi
# 9.2 any fatal signal during a long rtl run: dies of that signal, the staged --trace and -o
# removed, the old trace kept (SIGQUIT without a core file)
for sig in SIGALRM SIGUSR1 SIGUSR2 SIGXCPU SIGPIPE SIGQUIT SIGVTALRM SIGRTMIN; do
  echo "old trace" >st.fst
  res=$(ulimit -c 0; $SIGTEST $sig 0 0.3 "$S24" gemm sa_p.npy sb.npy -o sc.npy --backend rtl --trace st.fst)
  want=-$(python3 -c "import signal; print(int(signal.$sig))")
  same "signal_${sig}_during_simulation" "echo $res; [ \"\$(cat st.fst)\" = 'old trace' ] && [ ! -e sc.npy ] && no_temps && echo clean" "echo killed $want; echo clean"
done
# without --trace nothing is staged before the run has succeeded
timeout --preserve-status -s USR1 0.3 "$S24" gemm sa_p.npy sb.npy -o sc.npy --backend rtl >out.txt 2>err.txt
rc=$?
same signal_before_staging "echo $rc; [ ! -e sc.npy ] && no_temps && echo clean" "printf '138\nclean\n'"
# 9.3 a broken pipe on one output of a pair: an error, both files keep their old contents
echo "old values" >pv.npy
echo "old meta" >pm.npy
(sleep 0.5; "$S24" compress Ap.npy --values pv.npy --meta /dev/stdout 2>err.txt; echo $? >rc.txt) | true
same broken_pipe_pair_meta "cat rc.txt; cat err.txt; cat pv.npy; no_temps && echo clean" \
  "printf '1\nsparse24: error: /dev/stdout: cannot write: Broken pipe\nold values\nclean\n'"
(sleep 0.5; "$S24" compress Ap.npy --values /dev/stdout --meta pm.npy 2>err.txt; echo $? >rc.txt) | true
same broken_pipe_pair_values "cat rc.txt; cat err.txt; cat pm.npy; no_temps && echo clean" \
  "printf '1\nsparse24: error: /dev/stdout: cannot write: Broken pipe\nold meta\nclean\n'"
rm -f pn.npy
(sleep 0.5; "$S24" compress Ap.npy --values pn.npy --meta /dev/stdout 2>err.txt; echo $? >rc.txt) | true
same broken_pipe_new_file_removed "cat rc.txt; [ ! -e pn.npy ] && no_temps && echo clean" "printf '1\nclean\n'"
# 9.4 a regular file however it is spelled: replaced by rename, never written in place
long_old() { python3 -c "import sys; open(sys.argv[1], 'w').write('old ' * 500)" "$1"; }
long_old po.npy
run proc_cwd_path "$S24" prune A.npy -o /proc/self/cwd/po.npy
same proc_cwd_path_whole_file "cmp po.npy Ap.npy && no_temps && echo same" "echo same"
long_old pf.npy
run dev_fd_regular "$S24" prune A.npy -o /dev/fd/3 3<>pf.npy
same dev_fd_regular_whole_file "cmp pf.npy Ap.npy && no_temps && echo same" "echo same"
long_old pd.npy
expect_err dev_fd_deleted_file 1 '/dev/fd/3: a regular file without a name' '' \
  bash -c "exec 3<>pd.npy; rm pd.npy; exec '$S24' prune A.npy -o /dev/fd/3"
long_old pr.npy
chmod 0444 pr.npy
expect_err proc_path_read_only 1 'cannot replace: the file is not writable' 'pr.npy' \
  "$S24" prune A.npy -o /proc/self/cwd/pr.npy
# 9.5 a closed stdout is closed, however it is named
out_err closed_stdout_dev_stdout 1 "'$S24' prune A.npy -o /dev/stdout >&-" \
  "sparse24: error: stdout: Bad file descriptor (closed)"
out_err closed_stdout_proc_fd 1 "'$S24' prune A.npy -o /proc/self/fd/1 >&-" \
  "sparse24: error: stdout: Bad file descriptor (closed)"
echo "old values" >cv0.npy
out_err closed_stdout_pair 1 "'$S24' compress Ap.npy --values cv0.npy --meta /dev/stdout >&-" \
  "sparse24: error: stdout: Bad file descriptor (closed)"
same closed_stdout_pair_kept "cat cv0.npy; no_temps && echo clean" "printf 'old values\nclean\n'"
out_err closed_stdout_dev_null_still_works 0 "'$S24' prune A.npy -o /dev/null >&-" ""
# 9.6 bench --linear writes through the output module
run bench_linear_help "$S24" bench --linear --help
same bench_linear_help_text "head -n 1 out.txt" "echo 'usage: sparse24 bench [--out DIR] [--first N] [--model-only [--array R:C:n:m]] [--seed S]'"
run bench_linear_opt_value "$S24" bench --linear --first=1 --out=blin
same bench_linear_opt_value_csv "head -c 6 blin/linear.csv; echo; no_temps blin && echo clean" "printf 'shape,\nclean\n'"
rm -f "$(dirname "$S24")/bench/linear.csv"
(cd elsewhere && "$S24" bench --linear --first 1 >../out.txt 2>../err.txt; echo $? >../rc.txt)
same bench_linear_default_out_next_to_binary "cat rc.txt; [ -s '$(dirname "$S24")/bench/linear.csv' ] && [ ! -e elsewhere/build ] && echo there" "printf '0\nthere\n'"
expect_err bench_linear_long_out 2 'bench: --out path too long (3100 bytes, at most 3000)' '' \
  "$S24" bench --linear --out "$(printf 'd%.0s' $(seq 3100))"
expect_err bench_linear_twice 2 'option --first given twice' '' "$S24" bench --linear --first 1 --first 2
expect_err bench_twice 2 'option --out given twice' '' "$S24" bench --out a --out b
cp blin/linear.csv blin_old.csv
chmod 0444 blin/linear.csv
expect_err bench_linear_read_only 1 'blin/linear.csv: cannot replace: the file is not writable' 'blin/linear.csv' \
  "$S24" bench --linear --first 1 --out blin
chmod 0644 blin/linear.csv
# a file size limit: the old file kept, one error line (stdout on /dev/null: the limit is for files)
(ulimit -f 1; "$S24" bench --linear --first 8 --out blin >/dev/null 2>err.txt; echo $? >rc.txt) >/dev/null 2>&1
same bench_linear_size_limit "cat rc.txt; grep -c '^sparse24: error: bench: blin/linear.csv: cannot write output: File too large' err.txt; wc -l <err.txt; cmp blin/linear.csv blin_old.csv && no_temps blin && echo kept" "printf '1\n1\n1\nkept\n'"
# 9.7 smaller ones
$NPY write pv4.npy '|i1' 1 2 1 2
$NPY write pm4.npy '|u1' 1 1 52    # 0x34: indices 0, 1, then the padding bits 0011
python3 - <<'EOF'
import os, sys
sys.path.insert(0, os.environ["HERE"])
import npy
def vec(path, n, data=b""):
    with open(path, "wb") as f:
        f.write(npy.header("{'descr': '<i4', 'fortran_order': False, 'shape': (%d,), }" % n) + data)
vec("m1.npy", 1, bytes.fromhex("00000040"))
vec("s1.npy", 1, bytes(4))
vec("e0.npy", 0)
EOF
$NPY write pm4ok.npy '|u1' 1 1 4    # 0x04: indices 0, 1
$NPY rand x4.npy '|i1' 2 4 3
expect_err linear_meta_padding 1 'pm4.npy: row 0, group 0: nonzero unused metadata bits after the last index' 'ly.npy' \
  "$S24" linear x4.npy --values pv4.npy --meta pm4.npy --k 4 -o ly.npy --mult m1.npy --shift s1.npy
expect_err linear_k_range 2 "--k '4294967296' is not an integer in [1, 1073741824 = 2^30]" 'ly.npy' \
  "$S24" linear x4.npy --values pv4.npy --meta pm4.npy --k 4294967296 -o ly.npy --mult m1.npy --shift s1.npy
expect_err linear_zp_blank 2 "--zp-in ' 5' is not an integer" 'ly.npy' \
  "$S24" linear x4.npy --values pv4.npy --meta pm4.npy --k 4 -o ly.npy --mult m1.npy --shift s1.npy --zp-in ' 5'
expect_err linear_zp_plus 2 "--zp-out '+5' is not an integer" 'ly.npy' \
  "$S24" linear x4.npy --values pv4.npy --meta pm4.npy --k 4 -o ly.npy --mult m1.npy --shift s1.npy --zp-out +5
expect_err empty_vector_shape 1 'e0.npy: empty vector, shape (0,)' 'ly.npy' \
  "$S24" linear x4.npy --values pv4.npy --meta pm4ok.npy --k 4 -o ly.npy --mult e0.npy --shift s1.npy
echo "old trace" >tn.fst
(ulimit -n 8; "$S24" gemm Ap.npy B.npy -o Cn.npy --backend rtl --trace tn.fst >out.txt 2>err.txt; echo $? >rc.txt)
same trace_descriptor_limit_named "cat rc.txt; grep -c '^sparse24: error: tn.fst: .*(the limit of 8 open files (ulimit -n)?)' err.txt; wc -l <err.txt; cat tn.fst; [ ! -e Cn.npy ] && no_temps && echo clean" "printf '1\n1\n1\nold trace\nclean\n'"

same no_stray_files "no_temps && echo clean" "echo clean"
echo "faults: $pass passed, $fail failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
