#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `sparse24 linear` end to end (SPEC §5/§7): both backends write the same Y, the compressed W
# path equals the dense one, --stats and --help work, and every bad parameter is one line
# `sparse24: error: ...` with the exit status of §5 and no output created or changed.
# usage: tests/linear/cli.sh SPARSE24 WORKDIR PYTHON     (PYTHON: the venv's, with numpy)
set -u
S24=$(realpath "$1")
WORK=$2
PY=$3
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 2
# ok, bad, run, expect_err (tests/cli/lib.sh); OUTS: the files no failure may create or change
. "$HERE/../cli/lib.sh"
OUTS="y.npy new.npy"

# A 2:4 layer: X 5x32, W 12x32 (pruned), per-channel parameters; and bad variants of each file
"$PY" - <<'PYEOF' || exit 2
import numpy as np
r = np.random.default_rng(5)
w = r.integers(-128, 128, (12, 32), dtype=np.int8)
for g in range(8):  # keep 2 of every 4
    w[:, 4 * g + 2:4 * g + 4] = 0
np.save("x.npy", r.integers(-128, 128, (5, 32), dtype=np.int8))
np.save("w.npy", w)
np.save("bias.npy", r.integers(-5000, 5000, 12).astype("<i4"))
np.save("mult.npy", r.integers(1 << 30, (1 << 31) - 1, 12).astype("<i4"))
np.save("shift.npy", np.full(12, -9, "<i4"))
np.save("shift_31.npy", np.array([-9] * 11 + [31], "<i4"))
np.save("shift_m32.npy", np.array([-32] + [-9] * 11, "<i4"))
np.save("mult_neg.npy", np.array([5] * 3 + [-1] + [5] * 8, "<i4"))
np.save("mult_i8.npy", np.ones(12, np.int8))
np.save("bias_short.npy", np.zeros(11, "<i4"))
np.save("bias_2d.npy", np.zeros((1, 12), "<i4"))
np.save("x_i32.npy", np.zeros((5, 32), "<i4"))
np.save("x_k.npy", np.zeros((5, 28), np.int8))
w3 = w.copy(); w3[7, 9:12] = 1
np.save("w_3of4.npy", w3)
np.save("w_k.npy", np.zeros((12, 30), np.int8))
np.save("y.npy", np.zeros((1, 1), np.int8))  # a pre-existing output no failure may touch
PYEOF

P="--bias bias.npy --mult mult.npy --shift shift.npy --zp-in -7 --zp-out 3 --relu"
run help "$S24" linear --help
run model "$S24" linear x.npy w.npy -o y_model.npy $P
run rtl "$S24" linear x.npy w.npy -o y_rtl.npy $P --backend rtl --stats
if grep -q '^cycles: [0-9]' out.txt && grep -q '^epilogue_lanes: ' out.txt; then ok rtl_stats; else bad rtl_stats "$(cat out.txt)"; fi
if cmp -s y_model.npy y_rtl.npy; then ok model_equals_rtl; else bad model_equals_rtl "outputs differ"; fi
run compress "$S24" compress w.npy --values v.npy --meta md.npy
run rtl_compressed "$S24" linear x.npy --values v.npy --meta md.npy --k 32 -o y_c.npy $P --backend rtl
if cmp -s y_model.npy y_c.npy; then ok compressed_equals_dense; else bad compressed_equals_dense "outputs differ"; fi
run model_stats "$S24" linear x.npy w.npy -o y_s.npy $P --stats
if grep -q '^macs_dense: 1920$' out.txt; then ok model_stats_text; else bad model_stats_text "$(cat out.txt)"; fi
# the clamp: --relu is --act-min max(-128, ZO); a RELU6-like range on both backends
run act_relu "$S24" linear x.npy w.npy -o y_a.npy --bias bias.npy --mult mult.npy --shift shift.npy --zp-in -7 --zp-out 3 --act-min 3
if cmp -s y_model.npy y_a.npy; then ok relu_equals_act_min_zo; else bad relu_equals_act_min_zo "outputs differ"; fi
A="--bias bias.npy --mult mult.npy --shift shift.npy --zp-in -7 --zp-out 3 --act-min -2 --act-max 9"
run act_model "$S24" linear x.npy w.npy -o y_am.npy $A
run act_rtl "$S24" linear x.npy w.npy -o y_ar.npy $A --backend rtl
if cmp -s y_am.npy y_ar.npy; then ok act_model_equals_rtl; else bad act_model_equals_rtl "outputs differ"; fi
run act_none "$S24" linear x.npy w.npy -o y_n.npy --bias bias.npy --mult mult.npy --shift shift.npy --zp-in -7 --zp-out 3
if "$PY" -c "import numpy as np, sys; a = np.load('y_am.npy'); n = np.load('y_n.npy'); sys.exit(0 if np.array_equal(a, np.clip(n, -2, 9)) and (a == -2).any() and (a == 9).any() else 1)"; then
  ok act_range_applied; else bad act_range_applied "not the unclamped result clipped to [-2, 9] at both ends"; fi

expect_err shift_31 1 "SHIFT[11] = 31 is out of range" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --mult mult.npy --shift shift_31.npy
expect_err shift_m32 1 "SHIFT[0] = -32 is out of range" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --mult mult.npy --shift shift_m32.npy --backend rtl
expect_err mult_negative 1 "MULT[3] = -1 is out of range" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --mult mult_neg.npy --shift shift.npy
expect_err mult_dtype 1 "mult_i8.npy: dtype" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --mult mult_i8.npy --shift shift.npy
expect_err bias_length 1 "bias_short.npy: shape (11,)" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --bias bias_short.npy --mult mult.npy --shift shift.npy
expect_err bias_rank 1 "1-D vector" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --bias bias_2d.npy --mult mult.npy --shift shift.npy
expect_err zp_in_128 2 "--zp-in '128'" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --mult mult.npy --shift shift.npy --zp-in 128
expect_err zp_out_m129 2 "--zp-out '-129'" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --mult mult.npy --shift shift.npy --zp-out -129
expect_err zp_in_text 2 "--zp-in '1x'" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --mult mult.npy --shift shift.npy --zp-in 1x
expect_err x_dtype 1 "x_i32.npy: dtype" "$OUTS" "$S24" linear x_i32.npy w.npy -o y.npy --mult mult.npy --shift shift.npy
expect_err x_k 1 "x_k.npy: shape (5, 28)" "$OUTS" "$S24" linear x_k.npy w.npy -o y.npy --mult mult.npy --shift shift.npy
expect_err w_pattern 1 "row 7, group 2" "$OUTS" "$S24" linear x.npy w_3of4.npy -o y.npy --mult mult.npy --shift shift.npy
expect_err w_k 1 "K = 30 is not a multiple of m = 4" "$OUTS" "$S24" linear x.npy w_k.npy -o y.npy --mult mult.npy --shift shift.npy
expect_err missing_mult 2 "missing --mult" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --shift shift.npy
expect_err missing_out 2 "missing -o" "$OUTS" "$S24" linear x.npy w.npy --mult mult.npy --shift shift.npy
expect_err unknown_opt 2 "unknown option '--zp'" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --mult mult.npy --shift shift.npy --zp 3
expect_err relu_value 2 "takes no value" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --mult mult.npy --shift shift.npy --relu=1
expect_err act_min_128 2 "--act-min '128'" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --mult mult.npy --shift shift.npy --act-min 128
expect_err act_max_m129 2 "--act-max '-129'" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --mult mult.npy --shift shift.npy --act-max -129
expect_err act_inverted 2 "low end 5 is above its high end 4" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --mult mult.npy --shift shift.npy --act-min 5 --act-max 4
expect_err act_relu_above 2 "low end 10 (--relu: max(-128, ZO)) is above its high end 4" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --mult mult.npy --shift shift.npy --zp-out 10 --relu --act-max 4
expect_err act_relu_both 2 "--relu and --act-min exclude each other" "$OUTS" "$S24" linear x.npy w.npy -o y.npy --mult mult.npy --shift shift.npy --relu --act-min 0
expect_err no_file 1 "nope.npy: cannot open" "$OUTS" "$S24" linear nope.npy w.npy -o y.npy --mult mult.npy --shift shift.npy
expect_err k_multiple 2 "--k 30 is not a multiple" "$OUTS" "$S24" linear x.npy --values v.npy --meta md.npy --k 30 -o y.npy --mult mult.npy --shift shift.npy
expect_err new_output 1 "SHIFT[11]" "$OUTS" "$S24" linear x.npy w.npy -o new.npy --mult mult.npy --shift shift_31.npy

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
