#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# End-to-end tests of `sparse24 info/prune/run` on .tflite networks (SPEC §8): bad models and
# inputs give one error line, exit 1 (2 for usage) and write nothing; prune keeps every byte
# but the weights; run on both backends agrees.
#   tests/net/cli.sh SPARSE24 WORK_DIR PYTHON MODELS_DIR
set -u
S24=$(realpath "$1"); WORK=$2; PY=$3; MODELS=$(realpath "$4")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../cli/lib.sh"
net_models "$WORK" bad_models.py bad

run info_kws "$S24" info "$KWS"
grep -q '^1    CONV_2D            array 64x40x125' out.txt && ok info_conv_line || bad info_conv_line "$(sed -n 4p out.txt)"
grep -q '^0    QUANTIZE           host' out.txt && ok info_host_line || bad info_host_line "$(sed -n 3p out.txt)"
grep -q '^2    DEPTHWISE_CONV_2D  array 64x9x125         1:4' out.txt && ok info_dw_line || bad info_dw_line "$(sed -n 5p out.txt)"
run help_run "$S24" run --help
run help_info "$S24" info --help

expect_err truncated 1 'truncated.tflite: ' 'keep.npy' "$S24" run bad/truncated.tflite bad/x_ok.npy -o keep.npy
expect_err garbage 1 'garbage.tflite: ' 'keep.npy' "$S24" run bad/garbage.tflite bad/x_ok.npy -o keep.npy
expect_err wrong_identifier 1 'wrongid.tflite: not a TFLite model' 'keep.npy' "$S24" run bad/wrongid.tflite bad/x_ok.npy -o keep.npy
expect_err offset_oob 1 'oob.tflite: ' 'keep.npy' "$S24" run bad/oob.tflite bad/x_ok.npy -o keep.npy
expect_err vector_length 1 'veclen.tflite: ' 'keep.npy' "$S24" run bad/veclen.tflite bad/x_ok.npy -o keep.npy
expect_err unsupported_op 1 'operator 0 (EMBEDDING_LOOKUP): unsupported operator' 'keep.npy' "$S24" run bad/unsupported.tflite bad/x_ok.npy -o keep.npy
expect_err unsupported_info 1 'operator 0 (EMBEDDING_LOOKUP)' '' "$S24" info bad/unsupported.tflite
# prune only rewrites weights: a model the runtime cannot run is pruned all the same (issue 50)
run prune_unsupported "$S24" prune bad/unsupported.tflite -o unsupported24.tflite
[ -s unsupported24.tflite ] && ok prune_unsupported_written || bad prune_unsupported_written "no output"
expect_err prune_no_output 2 'missing -o OUT.tflite' '' "$S24" prune "$KWS"
expect_err x_dtype 1 "x_i8.npy: dtype int8 (|i1), the model's input needs float32 (<f4)" 'keep.npy' "$S24" run "$KWS" bad/x_i8.npy -o keep.npy
expect_err x_shape 1 "x_badshape.npy: shape (1, 50, 10, 2), the model's input needs (1, 50, 10, 1)" 'keep.npy' "$S24" run "$KWS" bad/x_badshape.npy -o keep.npy
expect_err x_missing 1 'nope.npy: cannot open' 'keep.npy' "$S24" run "$KWS" nope.npy -o keep.npy
expect_err model_missing 1 'nope.tflite: cannot open' 'keep.npy' "$S24" run nope.tflite bad/x_ok.npy -o keep.npy
expect_err run_no_output 2 'missing -o' '' "$S24" run "$KWS" bad/x_ok.npy
expect_err run_one_arg 2 'expected MODEL.tflite and X.npy' '' "$S24" run "$KWS" -o y.npy
expect_err run_backend 2 "unknown backend 'gpu'" 'keep.npy' "$S24" run "$KWS" bad/x_ok.npy -o keep.npy --backend gpu
expect_err run_out_is_input 2 '-o names an input file' 'bad/x_ok.npy' "$S24" run "$KWS" bad/x_ok.npy -o bad/x_ok.npy
expect_err info_two 2 'unexpected argument' '' "$S24" info "$KWS" "$KWS"
[ ! -e y.npy ] && ok no_y_written || bad no_y_written "y.npy exists"

# prune: every byte outside the FULLY_CONNECTED/CONV_2D weights unchanged, the weights 2:4
run prune_kws "$S24" prune "$KWS" -o kws24.tflite
"$PY" - "$KWS" kws24.tflite <<'PY' && ok prune_bytes || bad prune_bytes "see above"
import sys, numpy as np
from ai_edge_litert import schema_py_generated as sch
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
assert len(a) == len(b), "length changed"
m = sch.Model.GetRootAsModel(a, 0)
sg = m.Subgraphs(0)
allowed = np.zeros(len(a), bool)
for i in range(sg.OperatorsLength()):
    op = sg.Operators(i)
    code = m.OperatorCodes(op.OpcodeIndex())
    if max(code.BuiltinCode(), code.DeprecatedBuiltinCode()) not in (3, 9):
        continue
    t = sg.Tensors(op.Inputs(1))
    buf = m.Buffers(t.Buffer())
    off = buf._tab.Vector(buf._tab.Offset(4))
    n = buf.DataLength()
    allowed[off:off + n] = True
    w = np.frombuffer(b[off:off + n], np.int8).reshape(t.ShapeAsNumpy()[0], -1)
    k = w.shape[1]
    w = np.pad(w, ((0, 0), (0, -k % 4))).reshape(w.shape[0], -1, 4)
    assert ((w != 0).sum(axis=2) <= 2).all(), f"operator {i}: weights not 2:4"
diff = np.frombuffer(a, np.uint8) != np.frombuffer(b, np.uint8)
assert not (diff & ~allowed).any(), "bytes outside the weights changed"
print("prune: only weight bytes changed,", int(diff.sum()), "bytes")
PY
run info_pruned "$S24" info kws24.tflite
grep -q '^1    CONV_2D            array 64x40x125        2:4' out.txt && ok info_finds_2of4 || bad info_finds_2of4 "$(sed -n 4p out.txt)"
expect_err prune_pattern 2 "invalid --pattern '3:5'" 'keep.npy' "$S24" prune "$KWS" -o keep.npy --pattern 3:5

# run: a batch of 3; --stats keys; the model's float output shape with the batch
"$PY" -c "import numpy as np; np.save('x3.npy', np.random.default_rng(3).uniform(-2, 2, (3, 50, 10, 1)).astype(np.float32))"
run run_model "$S24" run kws24.tflite x3.npy -o y3.npy --backend model --stats
grep -q '^predicted_cycles: ' out.txt && ok stats_predicted || bad stats_predicted "$(cat out.txt)"
"$PY" -c "import numpy as np; y = np.load('y3.npy'); assert y.shape == (3, 12) and y.dtype == np.float32, y.shape" && ok run_shape || bad run_shape "y3.npy"

echo "net cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
