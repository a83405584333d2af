#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Co-simulation speed: one 2:4 GEMM (256x2048 times 2048x64) on the Verilated s24_top through
# the sparse24 command; prints simulated cycles, wall time and simulated cycles per second.
# Usage: tests/cosim/speed.sh [SPARSE24] [WORKDIR]
set -euo pipefail
s24=${1:-build/sparse24}
dir=${2:-build/cosim_speed}
npy="python3 tests/cli/npy.py"
mkdir -p "$dir"
$npy rand "$dir/a.npy" '|i1' 256 2048 11
$npy rand "$dir/b.npy" '|i1' 2048 64 12
"$s24" prune "$dir/a.npy" -o "$dir/ap.npy"
t0=$(date +%s.%N)
"$s24" gemm "$dir/ap.npy" "$dir/b.npy" -o "$dir/c.npy" --backend rtl --stats >"$dir/stats.txt"
t1=$(date +%s.%N)
"$s24" gemm "$dir/ap.npy" "$dir/b.npy" -o "$dir/cm.npy" --backend model
cmp "$dir/c.npy" "$dir/cm.npy" || { echo "speed: rtl and model results differ" >&2; exit 1; }
sim=$(sed -n 's/^sim_cycles: //p' "$dir/stats.txt")
grep -E '^(array|shape_mkn|cycles|utilization|effective_macs_per_cycle):' "$dir/stats.txt"
awk -v s="$sim" -v a="$t0" -v b="$t1" 'BEGIN {
  printf "sim_cycles: %d\nwall_seconds: %.3f\nsimulated_cycles_per_second: %.0f\n", s, b - a, s / (b - a) }'
