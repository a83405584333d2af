# runtime/tflite.mk: the unit tests of the .tflite reader (runtime/s24_tflite.c, SPEC §8): the four
# MLPerf Tiny models against LiteRT's view of them, small models built in the test, and malformed
# files (every truncation, random byte changes, targeted corruptions), with the sanitizers.
# Uses TEST_CC (tests/tests.mk, expanded when the recipe runs), MODEL_SRCS, MODEL_INC (cmodel/).

TFLITE_TEST_BIN := $(BUILD)/tests/net/test_tflite
# the MLPerf Tiny int8 models (ad, ic, kws, vww .tflite), installed by `make deps`
TFLITE_MODELS   := $(shell scripts/deps.sh --models-path)
# what LiteRT reports for their tensors and operators (the test's second argument)
TFLITE_EXPECTED := tests/net/litert_expected.tsv

$(TFLITE_TEST_BIN): tests/net/test_tflite.c runtime/s24_tflite.c $(MODEL_SRCS)
	@mkdir -p $(@D)
	$(TEST_CC) $(MODEL_INC) -Iruntime $(filter %.c,$^) -lcmocka -o $@

.PHONY: test-tflite
# the random byte changes take a new seed each run unless SEED=N is given (the seed is printed)
test-tflite: $(TFLITE_TEST_BIN) $(TFLITE_EXPECTED)
	$(if $(SEED),S24_SEED=$(SEED)) $< $(TFLITE_MODELS) $(TFLITE_EXPECTED)

TESTS += test-tflite
