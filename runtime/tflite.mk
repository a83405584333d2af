# SPDX-License-Identifier: Apache-2.0
# runtime/tflite.mk: the unit tests of the .tflite reader (runtime/s24_tflite.c, SPEC §8): the four
# MLPerf Tiny models against LiteRT's view of them, small models built in the test, and malformed
# files (every truncation, random byte changes, targeted corruptions), with the sanitizers.
# Uses TEST_CC (tests/tests.mk, expanded when the recipe runs), RUNTIME_*, MODEL_SRCS, DRV_CORE_SRCS.

TFLITE_TEST_BIN := $(BUILD)/tests/net/test_tflite
# the MLPerf Tiny int8 models (ad, ic, kws, vww .tflite), installed by `make deps`
TFLITE_MODELS   := $(shell scripts/deps.sh --models-path)
# what LiteRT reports for their tensors and operators (the test's second argument)
TFLITE_EXPECTED := tests/net/litert_expected.tsv

$(TFLITE_TEST_BIN): tests/net/test_tflite.c $(RUNTIME_SRCS) $(MODEL_SRCS) $(DRV_CORE_SRCS)
	@mkdir -p $(@D)
	$(TEST_CC) $(RUNTIME_INC) $(filter %.c,$^) -lcmocka -lm -o $@

.PHONY: test-tflite
# the random byte changes take a new seed each run unless SEED=N is given (the seed is printed)
test-tflite: $(TFLITE_TEST_BIN) $(TFLITE_EXPECTED)
	$(if $(SEED),S24_SEED=$(SEED)) $< $(TFLITE_MODELS) $(TFLITE_EXPECTED)

TESTS += test-tflite

# The runtime allocates nothing after load: the four MLPerf Tiny models on the golden model's
# engine and on the driver over the software device, every allocation of the program counted
# (tests/net/test_noalloc.c, the allocator wrapped at link time)
NOALLOC_TEST_BIN := $(BUILD)/tests/net/test_noalloc
$(NOALLOC_TEST_BIN): tests/net/test_noalloc.c $(RUNTIME_SRCS) $(MODEL_SRCS) $(DRV_SRCS) $(SWDEV_SRCS)
	@mkdir -p $(@D)
	$(TEST_CC) $(RUNTIME_INC) $(SIM_INC) $(filter %.c,$^) -lm \
	  -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=aligned_alloc,--wrap=free -o $@

.PHONY: test-noalloc
test-noalloc: $(NOALLOC_TEST_BIN)
	$< $(addsuffix .tflite,$(addprefix $(TFLITE_MODELS)/,ad ic kws vww))

TESTS += test-noalloc
