# SPDX-License-Identifier: Apache-2.0
# tests/linear: the fused int8 layer (SPEC §7, issue 11). Model == driver on the software device
# == driver on the Verilated RTL (random layers, directed extremes), and LiteRT byte for byte.
# Uses TEST_CC (tests/tests.mk), DRV_SRCS (driver/), SWDEV_SRCS, COSIM_* (sim/), MODEL_SRCS, VPYTHON.

LINEAR_DIR      := $(BUILD)/linear
LINEAR_TEST_BIN := $(LINEAR_DIR)/test_linear

.PHONY: test-linear test-linear-long

# C code with the sanitizers, the Verilated library without
$(LINEAR_TEST_BIN): tests/linear/test_linear.c tests/linear/gemmlowp_ref.h $(DRV_SRCS) $(SWDEV_SRCS) $(MODEL_SRCS) $(COSIM_LIB)
	@mkdir -p $(@D)
	$(TEST_CC) $(filter %.c,$^) $(COSIM_LIB) $(COSIM_LDLIBS) -o $@

# 2000 random layers with RTL result backpressure and AXI4-Lite reordering, the directed
# extremes, 200000 requantizations against 128-bit arithmetic (rerun any seed: +seed=N)
test-linear: $(LINEAR_TEST_BIN)
	$(LINEAR_TEST_BIN) +cases=2000 +bp=30 +seed=$(if $(SEED),$(SEED),11)
	$(LINEAR_TEST_BIN) +cases=300 +bp=0 +seed=$(if $(SEED),$(SEED),12)

# ... and on the other Verilated arrays (dense 4:4, 3x5 1:4: one lane, three rows per beat;
# 2x4 2:8: two rows per beat, 1:8 weights in pair mode; and, for this test only, 3x5 2:4: 1:4
# and 1:8 weights in pair mode, 6-row tiles of two int8 beats, one lane), built with the FORMAL
# assertion tails live
LINEAR_EXTRA_CFGS := $(filter-out $(COSIM_CFGS),3:5:2:4)
$(foreach c,$(LINEAR_EXTRA_CFGS),$(eval $(call VERILATE,s24_top,$(c),$(call cosim_dir,$(c))/vobj,$(COSIM_VFLAGS) --assert -DFORMAL,$(COSIM_OPT))))
$(foreach c,$(LINEAR_EXTRA_CFGS),$(eval $(call COSIM_RULES,$(call cosim_dir,$(c)))))
LINEAR_LONG_BINS := $(foreach c,$(COSIM_LONG_CFGS) $(LINEAR_EXTRA_CFGS),$(LINEAR_DIR)/test_linear_$(call cfg_name,$(c)))
$(LINEAR_LONG_BINS): $(LINEAR_DIR)/test_linear_%: tests/linear/test_linear.c tests/linear/gemmlowp_ref.h $(DRV_SRCS) $(SWDEV_SRCS) $(MODEL_SRCS) $(BUILD)/cosim_%/libs24cosim.a
	@mkdir -p $(@D)
	$(TEST_CC) $(filter %.c,$^) $(filter %.a,$^) $(COSIM_LDLIBS) -o $@

test-linear-long: $(LINEAR_TEST_BIN) $(LINEAR_LONG_BINS)
	$(LINEAR_TEST_BIN) +cases=20000 +bp=30 $(if $(SEED),+seed=$(SEED))
	$(LINEAR_TEST_BIN) +cases=5000 +bp=0 $(if $(SEED),+seed=$(SEED))
	@for b in $(LINEAR_LONG_BINS); do \
	  $$b +cases=1000 +bp=30 $(if $(SEED),+seed=$(SEED)) >$$b.log 2>&1 || { cat $$b.log; exit 1; }; \
	  echo "$$b: $$(tail -n 1 $$b.log)"; \
	  $$b +cases=300 +bp=0 $(if $(SEED),+seed=$(SEED)) >$$b.log 2>&1 || { cat $$b.log; exit 1; }; \
	  echo "$$b +bp=0 (cycles == s24_linear_cycles): $$(tail -n 1 $$b.log)"; \
	done

TESTS      += test-linear
LONG_TESTS += test-linear-long

.PHONY: test-linear-cli test-linear-litert
# The command: both backends, compressed W, --stats, and every bad parameter (sanitizer build)
test-linear-cli: $(CLI_SAN_BIN)
	tests/linear/cli.sh $(CLI_SAN_BIN) $(LINEAR_DIR)/cli $(VPYTHON)

# LiteRT byte for byte: 32 generated int8 per-channel FULLY_CONNECTED models (2:4, 1:4, 2:8,
# GEMV, odd shapes, fused RELU, RELU6 and RELU_N1_TO_1, saturation) in LiteRT's reference, optimized and default (XNNPACK)
# kernels, against `sparse24 linear` on the model and rtl backends
test-linear-litert: $(BUILD)/sparse24
	$(VPYTHON) tests/linear/test_litert.py $(BUILD)/sparse24 $(LINEAR_DIR)/litert

TESTS += test-linear-cli test-linear-litert

# make bench also compares `linear` with `gemm` on the benchmark's shapes (build/bench/linear.csv)
.PHONY: bench-linear
bench: bench-linear
bench-linear: $(BUILD)/sparse24
	@mkdir -p $(BUILD)/bench
	$(BUILD)/sparse24 bench --linear --out $(BUILD)/bench

# make synth also reports the epilogue's own cost (Yosys synth_ecp5, lanes 1/2/4/8)
.PHONY: synth-epilogue
synth: synth-epilogue
synth-epilogue: rtl/s24_epilogue.v rtl/s24_fifo.v rtl/s24_mul.v synth/s24_epi_fmax_wrap.v synth/epilogue.sh
	synth/epilogue.sh $(BUILD)/synth/epilogue
