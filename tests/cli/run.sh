#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# End-to-end tests of the `sparse24` command: results checked against SPEC examples and an
# independent Python computation; every bad-input path checks the exit status, the one-line
# `sparse24: error: <file>: <what>` message, and that no output was created or modified.
# usage: tests/cli/run.sh SPARSE24 WORKDIR        (needs only python3's standard library)
set -u
S24=$(realpath "$1")
WORK=$2
HERE=$(dirname "$(realpath "$0")")
NPY="python3 $HERE/npy.py"
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 2

. "$HERE/lib.sh"

# ------------------------------------------------------------------ SPEC §2 worked examples
$NPY write ex24.npy '|i1' 1 16 0 5 0 -3 7 0 0 0 0 0 0 0 1 2 0 0
run compress_spec_2_4 "$S24" compress ex24.npy --values ex24_v.npy --meta ex24_m.npy
same compress_spec_2_4_values "$NPY dump ex24_v.npy" "printf '|i1 1 8\n5 -3 7 0 0 0 1 2\n'"
same compress_spec_2_4_meta "$NPY dump ex24_m.npy" "printf '|u1 1 2\n205 78\n'"   # 0xCD 0x4E
$NPY write ex14.npy '|i1' 1 8 0 0 9 0 0 0 0 0
run compress_spec_1_4 "$S24" compress ex14.npy --values ex14_v.npy --meta ex14_m.npy --pattern 1:4
same compress_spec_1_4_out "$NPY dump ex14_v.npy; $NPY dump ex14_m.npy" "printf '|i1 1 2\n9 0\n|u1 1 1\n14\n'"
$NPY write ex28.npy '|i1' 1 8 0 0 0 0 0 6 0 1
run compress_spec_2_8 "$S24" compress ex28.npy --values ex28_v.npy --meta ex28_m.npy --pattern=2:8
same compress_spec_2_8_out "$NPY dump ex28_v.npy; $NPY dump ex28_m.npy" "printf '|i1 1 2\n6 1\n|u1 1 1\n61\n'"
run decompress_spec_2_4 "$S24" decompress ex24_v.npy ex24_m.npy -o ex24_d.npy --k 16
same decompress_spec_2_4_out "$NPY dump ex24_d.npy" "$NPY dump ex24.npy"

# ------------------------------------------------------------------ prune (SPEC §3)
$NPY write pr.npy '|i1' 2 8 3 -3 3 0 127 -128 0 1 -1 1 -1 1 0 0 0 0
run prune_2_4 "$S24" prune pr.npy -o pr_out.npy
same prune_2_4_out "$NPY dump pr_out.npy" "printf '|i1 2 8\n3 -3 0 0 127 -128 0 0 -1 1 0 0 0 0 0 0\n'"
run prune_1_4 "$S24" prune pr.npy -o pr14.npy --pattern 1:4
same prune_1_4_out "$NPY dump pr14.npy" "printf '|i1 2 8\n3 0 0 0 0 -128 0 0 -1 0 0 0 0 0 0 0\n'"
cp pr.npy inplace.npy
run prune_in_place "$S24" prune inplace.npy -o inplace.npy
same prune_in_place_out "$NPY dump inplace.npy" "$NPY dump pr_out.npy"

# ------------------------------------------------------------------ gemm against Python
for pat in 2:4 1:4 2:8 4:8; do
  m=${pat#*:}
  $NPY rand A_$m.npy '|i1' 13 $((m * 9)) 11 20
  $NPY rand B_$m.npy '|i1' $((m * 9)) 7 12 10
  "$S24" prune A_$m.npy -o Ap.npy --pattern $pat
  run "gemm_dense_a_$pat" "$S24" gemm Ap.npy B_$m.npy -o C.npy --pattern $pat
  same "gemm_dense_a_${pat}_vs_python" "$NPY dump C.npy" "$NPY matmul Ap.npy B_$m.npy"
  run "compress_$pat" "$S24" compress Ap.npy --values V.npy --meta MD.npy --pattern $pat
  run "gemm_compressed_$pat" "$S24" gemm --values V.npy --meta MD.npy --k $((m * 9)) B_$m.npy -o C2.npy --pattern $pat
  run "gemm_compressed_${pat}_identical" cmp C.npy C2.npy
  run "decompress_roundtrip_$pat" "$S24" decompress V.npy MD.npy -o D.npy --k $((m * 9)) --pattern $pat
  run "decompress_roundtrip_${pat}_identical" cmp D.npy Ap.npy
done
$NPY rand C0.npy '<i4' 13 7 13
"$S24" prune A_4.npy -o Ap.npy
run gemm_c0 "$S24" gemm Ap.npy B_4.npy -o Cc.npy --c0 C0.npy
same gemm_c0_vs_python "$NPY dump Cc.npy" "$NPY matmul Ap.npy B_4.npy C0.npy"
$NPY write a1.npy '|i1' 1 4 -128 0 0 -128
$NPY write b1.npy '|i1' 4 1 -128 5 5 -128
run gemm_m1_n1 "$S24" gemm a1.npy b1.npy -o c1.npy
same gemm_m1_n1_out "$NPY dump c1.npy" "printf '<i4 1 1\n32768\n'"
$NPY write c0max.npy '<i4' 1 1 2147483647
run gemm_wraps "$S24" gemm a1.npy b1.npy -o c1w.npy --c0 c0max.npy
same gemm_wraps_out "$NPY dump c1w.npy" "printf '<i4 1 1\n-2147450881\n'"   # 2^31-1 + 32768 - 2^32
run gemm_stats "$S24" gemm Ap.npy B_4.npy -o Cs.npy --stats
same gemm_stats_keys "grep -E '^[a-z_0-9]+: ' out.txt | cut -d: -f1 | tr '\n' ' '" \
  "echo -n 'backend pattern shape_mkn macs_dense macs mac_reduction accumulate_c0 '"
same gemm_stats_macs "grep -E '^macs(_dense)?: ' out.txt" "printf 'macs_dense: %d\nmacs: %d\n' $((13*36*7)) $((13*18*7))"
$NPY raw v2.npy "{'shape': (1, 4), 'fortran_order': False, 'descr': '|i1'}" 80000001 --version 2
run npy_v2_and_key_order "$S24" gemm v2.npy b1.npy -o cv2.npy
same npy_v2_out "$NPY dump cv2.npy" "printf '<i4 1 1\n16256\n'"   # -128*-128 + 1*-128

# ------------------------------------------------------------------ demo, help
run demo "$S24" demo
same demo_pass "tail -n1 out.txt" "echo 'demo: PASS'"
run bench_small "$S24" bench --shape 8x16x4 --pattern 1:4 --reps 2
same bench_small_summary "tail -n1 out.txt | sed 's/: best [0-9.]* s, .*//'" "echo 'bench: backend model, pattern 1:4, 8x16x4 (MxKxN)'"
run help_top "$S24" --help
for c in prune compress decompress gemm demo bench; do
  run "help_$c" "$S24" $c --help
  same "help_${c}_text" "head -n1 out.txt | cut -d' ' -f1-3" "echo 'usage: sparse24 $c'"
done

# ------------------------------------------------------------------ bad input: files
echo "original" >keep.npy
$NPY bytes badmagic.npy 934e554d50580100
$NPY bytes empty.npy ""
$NPY raw trunc.npy "{'descr': '|i1', 'fortran_order': False, 'shape': (2, 8), }" 0102030405
$NPY raw extra.npy "{'descr': '|i1', 'fortran_order': False, 'shape': (1, 4), }" 0102030405
$NPY raw fortran.npy "{'descr': '|i1', 'fortran_order': True, 'shape': (2, 4), }" 0102030405060708
$NPY raw rank1.npy "{'descr': '|i1', 'fortran_order': False, 'shape': (8,), }" 0102030405060708
$NPY raw rank3.npy "{'descr': '|i1', 'fortran_order': False, 'shape': (1, 2, 4), }" 0102030405060708
$NPY raw huge.npy "{'descr': '<i4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }" 00
$NPY raw f4.npy "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1), }" 0000803f
$NPY raw v3.npy "{'descr': '|i1', 'fortran_order': False, 'shape': (1, 4), }" 01020304 --version 2
python3 -c "import sys; b=bytearray(open('v3.npy','rb').read()); b[6]=3; open('v3.npy','wb').write(b)"
$NPY write u8.npy '|u1' 1 4 1 2 3 4
$NPY write i32.npy '<i4' 1 4 1 2 3 4
$NPY write k6.npy '|i1' 1 6 1 2 3 4 5 6
expect_err missing_file 1 'nope.npy: cannot open: No such file or directory' 'o.npy' "$S24" prune nope.npy -o o.npy
expect_err bad_magic 1 'badmagic.npy: not a .npy file (bad magic)' 'o.npy' "$S24" prune badmagic.npy -o o.npy
expect_err empty_file 1 'empty.npy: truncated header' 'o.npy' "$S24" prune empty.npy -o o.npy
expect_err truncated_data 1 'trunc.npy: truncated data: shape (2, 8) needs 16 bytes, file has 5' 'keep.npy' "$S24" prune trunc.npy -o keep.npy
expect_err extra_data 1 'extra.npy: 1 byte of extra data after the array' 'keep.npy' "$S24" prune extra.npy -o keep.npy
expect_err fortran 1 'fortran.npy: Fortran-order array is not supported' 'o.npy' "$S24" prune fortran.npy -o o.npy
expect_err rank1 1 'rank1.npy: rank-1 array, a 2-D matrix is required' 'o.npy' "$S24" prune rank1.npy -o o.npy
expect_err rank3 1 'rank3.npy: rank-3 array' 'o.npy' "$S24" prune rank3.npy -o o.npy
expect_err huge_shape 1 'huge.npy: shape (4611686018427387904, 4) is too large' 'o.npy' "$S24" gemm huge.npy huge.npy -o o.npy
expect_err float_dtype 1 'f4.npy: dtype float32 (<f4), expected int8 (|i1)' 'o.npy' "$S24" prune f4.npy -o o.npy
expect_err version3 1 'v3.npy: .npy format version 3.0 is not supported' 'o.npy' "$S24" prune v3.npy -o o.npy
expect_err wrong_dtype_a 1 'u8.npy: dtype uint8 (|u1), expected int8 (|i1)' 'keep.npy' "$S24" prune u8.npy -o keep.npy
expect_err wrong_dtype_i32 1 'i32.npy: dtype int32 (<i4), expected int8 (|i1)' 'o.npy' "$S24" gemm i32.npy b1.npy -o o.npy
expect_err k_not_multiple 1 'k6.npy: K = 6 is not a multiple of m = 4 (pattern 2:4)' 'o.npy' "$S24" prune k6.npy -o o.npy
expect_err directory_input 1 '.: is a directory' 'o.npy' "$S24" prune . -o o.npy
expect_err output_dir_missing 1 'nodir/o.npy: cannot create output' '' "$S24" prune pr.npy -o nodir/o.npy
mkdir -p outdir
expect_err output_is_directory 1 'outdir: is a directory' '' "$S24" prune pr.npy -o outdir

# ------------------------------------------------------------------ bad input: pattern, metadata
$NPY write viol.npy '|i1' 2 12 1 1 0 0 0 0 0 0 0 0 0 0  0 0 0 0 0 0 0 0 1 2 3 0
cp ex24_v.npy keep_v.npy; cp ex24_m.npy keep_m.npy
expect_err compress_violation 1 'viol.npy: row 1, group 2 (columns 8..11) has 3 nonzeros, pattern 2:4 allows 2' \
  'keep_v.npy keep_m.npy' "$S24" compress viol.npy --values keep_v.npy --meta keep_m.npy
expect_err compress_violation_new_outputs 1 'row 1, group 2' 'nv.npy nm.npy' \
  "$S24" compress viol.npy --values nv.npy --meta nm.npy
expect_err gemm_violation 1 'viol.npy: row 0, group 0 (columns 0..3) has 2 nonzeros, pattern 1:4 allows 1' 'keep.npy' \
  "$S24" gemm viol.npy viol.npy -o keep.npy --pattern 1:4
$NPY write md_rep.npy '|u1' 1 2 205 69        # group 3 = nibble 0x4 -> (0, 1); group 2 = 0x5 -> (1, 1)
expect_err meta_repeated 1 'md_rep.npy: row 0, group 2: invalid metadata, index 1 follows index 1' 'o.npy' \
  "$S24" decompress ex24_v.npy md_rep.npy -o o.npy --k 16
$NPY write md_dec.npy '|u1' 2 2 205 78 62 78    # row 1: 0x3E: group 0 = 0xE (2,3), group 1 = 0x3 -> (3, 0)
$NPY write v2rows.npy '|i1' 2 8 1 2 3 4 5 6 7 8 1 2 3 4 5 6 7 8
expect_err meta_decreasing_gemm 1 'md_dec.npy: row 1, group 1: invalid metadata, index 0 follows index 3' 'keep.npy' \
  "$S24" gemm --values v2rows.npy --meta md_dec.npy --k 16 B_4.npy -o keep.npy
$NPY write md_pad.npy '|u1' 1 1 125            # 2:8 K=8: 0x7D, bit 6 set beyond the 6 used bits
expect_err meta_padding 1 'md_pad.npy: row 0, group 0: nonzero unused metadata bits after the last index' 'o.npy' \
  "$S24" decompress ex28_v.npy md_pad.npy -o o.npy --k 8 --pattern 2:8
expect_err meta_wrong_dtype 1 'ex24_v.npy: dtype int8 (|i1), expected uint8 (|u1)' 'o.npy' \
  "$S24" decompress ex24_v.npy ex24_v.npy -o o.npy --k 16
expect_err values_wrong_shape 1 'ex24_v.npy: shape (1, 8): K = 32 with pattern 2:4 needs 16 value columns' 'o.npy' \
  "$S24" decompress ex24_v.npy ex24_m.npy -o o.npy --k 32
expect_err meta_rows_mismatch 1 'ex24_m.npy: 1 rows, but v2rows.npy has 2' 'o.npy' \
  "$S24" decompress v2rows.npy ex24_m.npy -o o.npy --k 32 --pattern 1:4
expect_err b_shape 1 'B_8.npy: shape (72, 7): B needs K = 36 rows to match Ap.npy' 'keep.npy' \
  "$S24" gemm Ap.npy B_8.npy -o keep.npy
expect_err c0_shape 1 'C0.npy: shape (13, 7), expected (1, 1) = M x N' 'o.npy' "$S24" gemm a1.npy b1.npy -o o.npy --c0 C0.npy
expect_err c0_dtype 1 'b1.npy: dtype int8 (|i1), expected int32 (<i4)' 'o.npy' "$S24" gemm a1.npy b1.npy -o o.npy --c0 b1.npy

# ------------------------------------------------------------------ bad usage (exit 2)
# rtl backend (co-simulated RTL through the host driver): the same C as the model
run backend_rtl "$S24" gemm Ap.npy B_4.npy -o Crtl.npy --backend rtl --c0 C0.npy
run backend_rtl_model "$S24" gemm Ap.npy B_4.npy -o Cmod.npy --backend model --c0 C0.npy
same backend_rtl_same "cmp Crtl.npy Cmod.npy && echo same" "echo same"
run backend_rtl_stats "$S24" gemm Ap.npy B_4.npy -o Crtl.npy --backend rtl --stats
same backend_rtl_stats_keys "grep -oE '^(cycles|utilization|effective_macs_per_cycle|stall_w_cycles|stall_a_cycles|stall_r_cycles): [0-9.]+$' out.txt | cut -d: -f1" "printf 'cycles\nutilization\neffective_macs_per_cycle\nstall_w_cycles\nstall_a_cycles\nstall_r_cycles\n'"
run backend_rtl_trace "$S24" gemm Ap.npy B_4.npy -o Crtl.npy --backend rtl --trace rtl.fst
same backend_rtl_trace_file "[ -s rtl.fst ] && head -c 1 rtl.fst | od -An -tx1 | tr -d ' '" "echo 00"
rm -f rtl.fst
expect_err trace_needs_rtl 2 'gemm: --trace needs --backend rtl' 'keep.npy' \
  "$S24" gemm Ap.npy B_4.npy -o keep.npy --trace x.fst
expect_err backend_unknown 2 "gemm: unknown backend 'gpu'" 'keep.npy' "$S24" gemm Ap.npy B_4.npy -o keep.npy --backend gpu
run demo_rtl "$S24" demo --backend rtl
same demo_rtl_pass "grep -cE '^demo: PASS$|bit-exact|^  speedup of 2:4 over dense' out.txt" "echo 3"
expect_err pattern_bad 2 "prune: invalid --pattern '3:5'" 'o.npy' "$S24" prune pr.npy -o o.npy --pattern 3:5
expect_err unknown_option 2 "prune: unknown option '--frobnicate'" 'o.npy' "$S24" prune pr.npy -o o.npy --frobnicate
expect_err missing_output 2 'prune: missing -o OUT.npy' '' "$S24" prune pr.npy
expect_err extra_positional 2 "prune: unexpected argument 'more.npy'" 'o.npy' "$S24" prune pr.npy more.npy -o o.npy
expect_err option_twice 2 'option --pattern given twice' 'o.npy' "$S24" prune pr.npy -o o.npy --pattern 2:4 --pattern 1:4
expect_err option_no_value 2 'option --output needs a value' '' "$S24" prune pr.npy -o
expect_err values_without_meta 2 'gemm: --values, --meta and --k go together' 'o.npy' "$S24" gemm --values V.npy B_4.npy -o o.npy
expect_err a_and_values 2 'gemm: with --values/--meta/--k expected exactly one input, B.npy' 'o.npy' \
  "$S24" gemm Ap.npy B_4.npy --values V.npy --meta MD.npy --k 36 -o o.npy
expect_err k_bad 2 "decompress: invalid --k '-4'" 'o.npy' "$S24" decompress ex24_v.npy ex24_m.npy -o o.npy --k -4
expect_err k_not_multiple_opt 2 'decompress: --k 10 is not a multiple of m = 4' 'o.npy' \
  "$S24" decompress ex24_v.npy ex24_m.npy -o o.npy --k 10
expect_err stats_on_prune 2 "prune: unknown option '--stats'" 'o.npy' "$S24" prune pr.npy -o o.npy --stats
expect_err same_outputs 2 'compress: --values and --meta name the same file' 'keep.npy' \
  "$S24" compress Ap.npy --values keep.npy --meta keep.npy
expect_err same_outputs_spelled_apart 2 'compress: --values and --meta name the same file' 'keep.npy' \
  "$S24" compress Ap.npy --values keep.npy --meta ./keep.npy
expect_err same_outputs_new_file 2 'compress: --values and --meta name the same file' 'new1.npy' \
  "$S24" compress Ap.npy --values new1.npy --meta "$PWD/new1.npy"
expect_err trace_over_input 2 'names a file the command reads or writes' 'B_4.npy Ap.npy keep.npy' \
  "$S24" gemm Ap.npy B_4.npy -o keep.npy --backend rtl --trace ./B_4.npy
expect_err trace_unwritable 1 'sparse24: error: nodir/t.fst: cannot create output: nodir: No such file or directory' 'keep.npy' \
  "$S24" gemm Ap.npy B_4.npy -o keep.npy --backend rtl --trace nodir/t.fst
expect_err trace_over_output 2 'gemm: -o and --trace name the same file' 'keep.npy' \
  "$S24" gemm Ap.npy B_4.npy -o keep.npy --backend rtl --trace keep.npy
expect_err no_command 2 'no command given' '' "$S24"
expect_err unknown_command 2 "unknown command 'frob'" '' "$S24" frob
expect_err bench_shape 2 "bench: invalid --shape '4x4'" '' "$S24" bench --shape 4x4
run bench_opt_equals "$S24" bench --first=1 --model-only --out=bench_eq
same bench_opt_equals_csv "head -n1 bench_eq/results.csv" "echo shape,m,k,n,pattern,array,cycles_sparse,cycles_dense,speedup,utilization,source"
run bench_speed_opt_equals "$S24" bench --reps=1 --shape=8x16x4
expect_err bench_flag_value 2 'bench: option --model-only takes no value' '' "$S24" bench --model-only=1

# ------------------------------------------------------------------ the one parser's grammars
# (tools/cli.h: each command's messages as they always were, SPEC §5)
expect_err parse_linear_typed_name 2 'sparse24: error: linear: option -o given twice (see sparse24 linear --help)' '' \
  "$S24" linear x.npy w.npy -o y.npy -o z.npy --mult m.npy --shift s.npy
expect_err parse_gemm_canonical_name 2 'sparse24: error: gemm: option --output given twice (see sparse24 gemm --help)' '' \
  "$S24" gemm a.npy b.npy -o y.npy -o z.npy
expect_err parse_linear_flag_value_first 2 'sparse24: error: linear: option --stats takes no value (see sparse24 linear --help)' '' \
  "$S24" linear x.npy w.npy --stats --stats=1
expect_err parse_gemm_flag_twice_first 2 'sparse24: error: gemm: option --stats given twice (see sparse24 gemm --help)' '' \
  "$S24" gemm a.npy b.npy --stats --stats=1
expect_err parse_bench_no_hint 2 'sparse24: error: bench: option --help takes no value' '' "$S24" bench --help=1
expect_err parse_bench_in_order 2 "sparse24: error: bench: invalid --first '0' (1 to 30)" '' \
  "$S24" bench --first 0 --out a --out b
expect_err parse_bench_missing_value 2 "sparse24: error: bench: invalid --seed ''" '' "$S24" bench --seed
expect_err parse_bench_positional 2 "sparse24: error: bench: unknown option 'x' (see sparse24 bench --help)" '' "$S24" bench x
expect_err parse_bench_linear_other 2 "sparse24: error: bench: with --linear only --out, --first and --seed (got '--bogus=3') (see sparse24 bench --help)" '' \
  "$S24" bench --linear --bogus=3
expect_err parse_bench_linear_empty 2 'sparse24: error: bench: option --first needs a value (see sparse24 bench --help)' '' \
  "$S24" bench --linear --first=
expect_err parse_bench_speed_trigger_value 2 "sparse24: error: bench: unknown option '--model-speed' (see sparse24 bench --help)" '' \
  "$S24" bench --shape 8x16x4 --model-speed=1
run parse_bench_speed_help "$S24" bench --model-speed --help --model-only
same parse_bench_speed_help_text "head -n1 out.txt" "echo 'usage: sparse24 bench --model-speed [--backend model|rtl] [--shape MxKxN] [--pattern N:M]'"

# nothing but the expected files in the work directory: no stray outputs or temp files
same no_stray_files "ls -A | grep -E '^(o|nv|nm)\.npy$|\.tmp\.' || true" "true"

echo "cli: $pass passed, $fail failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
