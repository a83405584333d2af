#!/usr/bin/env bash
# Hostile models and inputs (issue 50): what the third adversarial probe found, each case a test
# that fails on the code before the fix. tests/net/hostile_models.py writes the models.
#   tests/net/hostile.sh SPARSE24 SPARSE24_PLAIN WORK_DIR PYTHON MODELS_DIR
# SPARSE24 is the sanitizer build; SPARSE24_PLAIN the plain one, for the runs under a virtual
# memory limit (ASan reserves terabytes of address space).
set -u
S24=$(realpath "$1"); PLAIN=$(realpath "$2"); WORK=$3; PY=$4; MODELS=$(realpath "$5")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../cli/lib.sh"
net_models "$WORK" hostile_models.py h

# memory follows the tensors the graph uses, not what the file declares: a 3 GiB tensor nobody
# uses, info and run within 256 MiB of address space, the same bytes as the model without it
if (ulimit -v 262144; "$PLAIN" info h/unused_3g.tflite > info3g.txt 2> err3g.txt); then
  ok unused_3g_info
else
  bad unused_3g_info "$(head -c 300 err3g.txt)"
fi
if (ulimit -v 262144; "$PLAIN" run h/unused_3g.tflite h/x_ok.npy -o y3g.npy 2> err3g.txt) &&
   "$PLAIN" run "$KWS" h/x_ok.npy -o y.npy && cmp -s y3g.npy y.npy; then
  ok unused_3g_run
else
  bad unused_3g_run "$(head -c 300 err3g.txt)"
fi

# a name from the file is shown sanitised: one line, no escape, no forged line
"$S24" run h/evil_name.tflite h/x_ok.npy -o keep.npy > out.txt 2> err.txt
rc=$?
if [ "$rc" = 1 ] && [ "$(wc -l < err.txt)" = 1 ] && ! grep -q $'\x1b' err.txt &&
   ! grep -q '^sparse24: all good' err.txt && grep -qF '(w??[31msparse24: all good?[0m)' err.txt; then
  ok evil_name_sanitised
else
  bad evil_name_sanitised "exit $rc: $(cat -v err.txt | head -c 300)"
fi
[ "$(cat keep.npy)" = keep ] && ok evil_name_nothing_written || bad evil_name_nothing_written "keep.npy changed"

# what LiteRT refuses at load, refused with one line naming the operator
expect_err dw_out_is_in 1 'operator 2 (DEPTHWISE_CONV_2D): output tensor' 'keep.npy' "$S24" run h/dw_out_is_in.tflite h/x_ok.npy -o keep.npy
expect_err conv_out_is_in 1 'operator 1 (CONV_2D): output tensor' 'keep.npy' "$S24" run h/conv_out_is_in.tflite h/x_ok.npy -o keep.npy
expect_err conv_dilation 1 'operator 1 (CONV_2D): dilation 40000x1 out of range' 'keep.npy' "$S24" run h/conv_dilation.tflite h/x_ok.npy -o keep.npy
expect_err conv_version 1 "operator 1 (CONV_2D): version 99 is not one LiteRT's reference kernels register" 'keep.npy' "$S24" run h/conv_version.tflite h/x_ok.npy -o keep.npy
expect_err dw_version 1 "operator 2 (DEPTHWISE_CONV_2D): version 99 is not one LiteRT's reference kernels register" 'keep.npy' "$S24" run h/dw_version.tflite h/x_ok.npy -o keep.npy

# a shape is shown as the file has it
expect_err x_truncated_shape 1 'truncated data: shape (1, 50, 10, 1)' 'keep.npy' "$S24" run "$KWS" h/x_trunc.npy -o keep.npy

echo "hostile: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
