# SPDX-License-Identifier: Apache-2.0
# runtime/ops.mk: the host kernels of the network runtime (runtime/s24_ops.c, SPEC §8) against
# LiteRT's BUILTIN_REF kernels: tests/net/ops_models.py writes random single-operator (and small
# multi-operator) int8 models of every host operator with LiteRT's outputs, tests/net/test_ops.c
# runs them through s24_op_check/s24_op_run (ASan/UBSan) and compares byte for byte (and checks
# that s24_op_check refuses the models LiteRT refuses, the "refused" kind), then
# changes each model at random (dimensions, ranks, types, quantization, constant bytes, options)
# and runs every change s24_op_check accepts in buffers of exactly the tensors' sizes.
# Also s24_op_check on every host operator of the four MLPerf Tiny models, and s24_op_version_ok
# on every operator of the cases and of those models.
# Uses TEST_CC (tests/tests.mk), TFLITE_MODELS (runtime/tflite.mk), both expanded when the recipe
# runs, MODEL_SRCS, MODEL_INC (cmodel/), VPYTHON (the venv with LiteRT).

OPS_TEST_BIN := $(BUILD)/tests/net/test_ops
OPS_TEST_DIR := $(BUILD)/tests/net/ops
# random cases per kind (26 operator kinds and "refused", models LiteRT refuses), and the seed
# (any seed: make test-ops OPS_SEED=N)
OPS_PER_OP   ?= 40
OPS_SEED     ?= 20261125

$(OPS_TEST_BIN): tests/net/test_ops.c $(RUNTIME_SRCS) $(MODEL_SRCS) $(DRV_CORE_SRCS)
	@mkdir -p $(@D)
	$(TEST_CC) $(RUNTIME_INC) $(filter %.c,$^) -lm -o $@

.PHONY: test-ops test-ops-long
test-ops: $(OPS_TEST_BIN)
	rm -rf $(OPS_TEST_DIR)
	$(VPYTHON) tests/net/ops_models.py $(OPS_TEST_DIR) --seed $(OPS_SEED) --per-op $(OPS_PER_OP)
	$(OPS_TEST_BIN) $(OPS_TEST_DIR) > $(OPS_TEST_DIR)/test_ops.log || { grep -v '^ok' $(OPS_TEST_DIR)/test_ops.log; exit 1; }
	@tail -n 1 $(OPS_TEST_DIR)/test_ops.log
	$(OPS_TEST_BIN) --mutate 200 $(OPS_SEED) $(OPS_TEST_DIR) > $(OPS_TEST_DIR)/mutate.log || { grep -v '^ok' $(OPS_TEST_DIR)/mutate.log; exit 1; }
	@tail -n 1 $(OPS_TEST_DIR)/mutate.log
	$(OPS_TEST_BIN) --models $(addsuffix .tflite,$(addprefix $(TFLITE_MODELS)/,ad ic kws vww))

# 500 cases per operator on a new seed each run (printed)
test-ops-long: $(OPS_TEST_BIN)
	rm -rf $(OPS_TEST_DIR)-long
	$(VPYTHON) tests/net/ops_models.py $(OPS_TEST_DIR)-long --per-op 500
	$(OPS_TEST_BIN) $(OPS_TEST_DIR)-long > $(OPS_TEST_DIR)-long/test_ops.log || { grep -v '^ok' $(OPS_TEST_DIR)-long/test_ops.log; exit 1; }
	@tail -n 1 $(OPS_TEST_DIR)-long/test_ops.log
	$(OPS_TEST_BIN) --mutate 2000 $$(od -An -N4 -tu4 /dev/urandom | tr -d ' ') $(OPS_TEST_DIR)-long > $(OPS_TEST_DIR)-long/mutate.log || { grep -v '^ok' $(OPS_TEST_DIR)-long/mutate.log; exit 1; }
	@tail -n 1 $(OPS_TEST_DIR)-long/mutate.log

# The same kind of cases through the command: `sparse24 run --backend model` (sanitizer build)
# byte for byte against LiteRT (tests/net/run_ops.py; 20 cases per operator, fixed seed)
.PHONY: test-ops-run
test-ops-run: $(BUILD)/tools/sparse24-san
	rm -rf $(OPS_TEST_DIR)-run
	$(VPYTHON) tests/net/run_ops.py $< $(OPS_TEST_DIR)-run --generate --seed $(OPS_SEED) --per-op 20

# The operator versions LiteRT 2.3.0's BUILTIN_REF registers, probed again (tests/net/op_versions.py:
# one single-operator model per operator and version) and compared with the committed table
# runtime/s24_op_versions_table.h (regenerate: $(VPYTHON) tests/net/op_versions.py --write FILE)
.PHONY: test-op-versions
test-op-versions:
	$(VPYTHON) tests/net/op_versions.py --check runtime/s24_op_versions_table.h

# QUANTIZE FLOAT32 -> int8 by prep's threshold table against the reference expression it replaces
# (tests/net/test_quant_table.c: every float near every threshold, the specials, a stride through
# all 2^32 bit patterns; 36 scale and zero-point pairs); test-quant-table-all: every bit pattern
# (an -O2 build without sanitizers, minutes)
QT_SRCS := tests/net/test_quant_table.c runtime/s24_arena.c runtime/s24_tflite.c runtime/s24_op_versions.c \
           runtime/s24_net.c runtime/s24_engine.c runtime/host/s24_runtime_host.c $(MODEL_SRCS) driver/s24_drv.c
$(BUILD)/tests/net/test_quant_table: $(QT_SRCS) runtime/s24_ops.c
	@mkdir -p $(@D)
	$(TEST_CC) $(RUNTIME_INC) $(QT_SRCS) -lm -o $@
$(BUILD)/tests/net/test_quant_table_fast: $(QT_SRCS) runtime/s24_ops.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(RUNTIME_INC) $(MODEL_INC) $(QT_SRCS) -lm -o $@
.PHONY: test-quant-table test-quant-table-all
test-quant-table: $(BUILD)/tests/net/test_quant_table
	$<
test-quant-table-all: $(BUILD)/tests/net/test_quant_table_fast
	$< --all

TESTS      += test-ops test-ops-run test-op-versions test-quant-table
LONG_TESTS += test-ops-long test-quant-table-all
