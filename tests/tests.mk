# tests: the golden model's and the command's own tests (cmocka unit tests, randomised
# property tests, end-to-end CLI script). Every test binary is built with the sanitizers.
# (Other parts keep their tests in their own fragments, e.g. tests/rtl via testbench.mk.)

TEST_BUILD := $(BUILD)/tests
MODEL_SAN_SRCS := $(MODEL_SRCS)
# built by tools/tools.mk (tools/ is parsed after tests/, so only its name is used here)
CLI_SAN_BIN    := $(BUILD)/tools/sparse24-san

# cmocka unit tests of the model
$(TEST_BUILD)/model/test_model: tests/model/test_model.c $(MODEL_SAN_SRCS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) $(MODEL_INC) $(filter %.c,$^) -lcmocka -o $@

# cmocka unit tests of the .npy reader/writer
$(TEST_BUILD)/model/test_npy: tests/model/test_npy.c tools/npy.c $(MODEL_SAN_SRCS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) $(MODEL_INC) -Itools $(filter %.c,$^) -lcmocka -o $@

# randomised property tests
$(TEST_BUILD)/model/prop_model: tests/model/prop_model.c $(MODEL_SAN_SRCS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) $(MODEL_INC) $(filter %.c,$^) -o $@

.PHONY: test-model-unit test-npy test-model-prop test-model-prop-long test-cli

test-model-unit: $(TEST_BUILD)/model/test_model
	$<

test-npy: $(TEST_BUILD)/model/test_npy
	$<

# 20000 random cases, fixed seed (rerun any seed: build/tests/model/prop_model CASES SEED)
test-model-prop: $(TEST_BUILD)/model/prop_model
	$< 20000 1

# 1000000 random cases on another seed
test-model-prop-long: $(TEST_BUILD)/model/prop_model
	$< 1000000 2

# end-to-end command tests, on the sanitizer build of the command
test-cli: $(CLI_SAN_BIN)
	tests/cli/run.sh $(CLI_SAN_BIN) $(TEST_BUILD)/cli/work

TESTS      += test-model-unit test-npy test-model-prop test-cli
LONG_TESTS += test-model-prop-long

# issue 14: the command under faults (all-or-nothing outputs, device nodes and links, concurrent
# writers, --trace, size limits and signals, stdout errors, bench, small .npy cases), on the
# sanitizer build; the out-of-memory case (ulimit -v) needs the plain build
.PHONY: test-cli-faults
test-cli-faults: $(CLI_SAN_BIN) $(BUILD)/sparse24
	tests/cli/faults.sh $(CLI_SAN_BIN) $(TEST_BUILD)/cli/faults $(BUILD)/sparse24

TESTS += test-cli-faults

# the fused int8 layer keeps its tests in their own folder
include tests/linear/linear.mk
