#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Faults of `sparse24 run --backend soc` (issue 51, SPEC §9): each one line `sparse24: error: ...`,
# exit 1, nothing written, no simulator process and no temporary left behind.
#   soc/tests/faults.sh SPARSE24 WORKDIR MODEL.tflite FW_DIR
# MODEL: a small float-input model (soc/tests/small_models.py's); FW_DIR: build/soc/fw (trap.elf,
# hello.elf, s24run_nodrain.elf stand in for a crashing firmware, a silent one and an IP that never
# takes its beats, through S24_SOC_FIRMWARE).
set -u
S24=$(realpath "$1")
WORK=$2
MODEL=$(realpath "$3")
FW=$(realpath "$4")
HERE=$(dirname "$(realpath "$0")")
CLI=$(realpath "$HERE/../../tests/cli")
PY=${PY:-python3}
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 2
. "$CLI/lib.sh"

# one input of the model, and a batch too large for the SoC's 16 MiB host area
"$PY" - "$MODEL" <<'EOF' || exit 2
import sys
import numpy as np
from ai_edge_litert.interpreter import Interpreter
it = Interpreter(model_path=sys.argv[1])
d = it.get_input_details()[0]
shape = list(d["shape"])
np.save("x.npy", np.random.default_rng(5).uniform(0, 255, shape).astype(d["dtype"]))
per = int(np.prod(shape)) * np.dtype(d["dtype"]).itemsize
shape[0] = (17 << 20) // per + 1
np.save("x_big.npy", np.zeros(shape, d["dtype"]))
EOF

# the model and inputs that do not fit: the bytes needed and available, before any simulation
expect_err too_big_for_the_soc 1 "does not fit the SoC's memory" "y.npy" \
  "$S24" run "$MODEL" x_big.npy -o y.npy --backend soc

# a firmware that crashes (an illegal instruction: soc_sim exits 4 with the trap's cause)
S24_SOC_FIRMWARE=$FW/trap.elf expect_err firmware_crash 1 "the SoC crashed" "y.npy" \
  "$S24" run "$MODEL" x.npy -o y.npy --backend soc

# a firmware that never answers the job (hello.elf prints and exits without touching it)
S24_SOC_FIRMWARE=$FW/hello.elf expect_err firmware_ignores_the_job 1 "did not run the job" "y.npy" \
  "$S24" run "$MODEL" x.npy -o y.npy --backend soc

# the IP never takes the beats the CPU queued (a firmware whose seam never hands the rings' reader
# engines a descriptor): the driver's wait, bounded by the job's own cycles, times out on the SoC
# (about 50 M simulated cycles: the driver's default 1 s at 50 MHz; SOC_FAULTS_LONG=1, make soc-test-long;
# 164 s of simulation on the 2-core machine, 2026-11-30, so it has 600 s, not expect_err's 60)
if [ "${SOC_FAULTS_LONG:-0}" = 1 ]; then
  EXPECT_SECONDS=600 S24_SOC_FIRMWARE=$FW/s24run_nodrain.elf expect_err ip_never_drains 1 "hardware timeout" "y.npy" \
    "$S24" run "$MODEL" x.npy -o y.npy --backend soc
fi

# a run that does not end within its budget of simulated cycles: a timeout, not a hang
S24_SOC_MAX_CYCLES=200000 expect_err timeout_in_simulated_cycles 1 "did not finish within 200000 simulated cycles" \
  "y.npy" "$S24" run "$MODEL" x.npy -o y.npy --backend soc

# the simulator killed mid-run
"$S24" run "$MODEL" x.npy -o y.npy --backend soc >out.txt 2>err.txt &
pid=$!
for _ in $(seq 1 200); do sim=$(pgrep -P $pid soc_sim) && break; sleep 0.05; done
if [ -z "${sim:-}" ]; then
  bad simulator_killed "no simulator started"
else
  kill -9 "$sim"
  wait $pid
  rc=$?
  ls -A | grep -q '\.tmp\.' && rc="$rc, a temporary left"
  if [ $rc = 1 ] && [ "$(wc -l <err.txt)" = 1 ] && grep -q "died of signal 9" err.txt && [ ! -e y.npy ]; then
    ok simulator_killed
  else
    bad simulator_killed "exit $rc, stderr: $(head -c 300 err.txt)"
  fi
fi

# SIGTERM, SIGINT, SIGHUP during a run: the command dies of the signal, its simulator with it
for sig in TERM INT HUP; do
  "$PY" - "$sig" "$S24" run "$MODEL" x.npy -o y.npy --backend soc <<'EOF' >sig.txt 2>&1
import os, signal, subprocess, sys, time
sig = getattr(signal, "SIG" + sys.argv[1])
def dfl():  # default dispositions, whatever this script inherited
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)
p = subprocess.Popen(sys.argv[2:], preexec_fn=dfl, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
sim = None
for _ in range(400):
    r = subprocess.run(["pgrep", "-P", str(p.pid), "soc_sim"], capture_output=True, text=True)
    if r.stdout.strip():
        sim = int(r.stdout.split()[0])
        break
    time.sleep(0.05)
time.sleep(0.3)
p.send_signal(sig)
rc = p.wait()
alive = False
if sim is not None:
    for _ in range(100):  # the kernel delivers the parent-death signal right away
        try:
            os.kill(sim, 0)
        except ProcessLookupError:
            break
        time.sleep(0.02)
    else:
        alive = True
print(f"rc {rc} sim {'none' if sim is None else 'started'} {'alive' if alive else 'gone'}")
EOF
  want="rc -$(kill -l "$sig") sim started gone"
  if [ "$(cat sig.txt)" = "$want" ] && [ ! -e y.npy ] && ! ls -A | grep -q '\.tmp\.'; then
    ok "signal_${sig}_during_a_run"
  else
    bad "signal_${sig}_during_a_run" "$(cat sig.txt), want $want"
  fi
done

# two runs of the same job: the same outputs and the same cycles, operator by operator
"$S24" run "$MODEL" x.npy -o y1.npy --backend soc --stats >s1.txt 2>&1 &&
  "$S24" run "$MODEL" x.npy -o y2.npy --backend soc --stats >s2.txt 2>&1 &&
  cmp -s y1.npy y2.npy && cmp -s s1.txt s2.txt && grep -q "^cycles_total: [1-9]" s1.txt &&
  ok two_runs_identical || bad two_runs_identical "$(diff s1.txt s2.txt | head -5)"

echo "soc faults: $pass passed, $fail failed"
[ "$fail" = 0 ]
