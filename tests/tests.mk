# SPDX-License-Identifier: Apache-2.0
# tests: every test program of the project, built here with the sanitizers (the Verilated models
# and the Verilator runtime without): the golden model's unit and property tests, the command's
# end-to-end script, the driver against a cmocka mock and the software device, the co-simulated
# RTL and the cycle model. The core's Verilator and Icarus testbenches are in testbench/.
# Uses MODEL_SRCS, DRV_SRCS, SWDEV_SRCS, COSIM_*, VLT_* (cmodel/, driver/, sim/).

TEST_BUILD := $(BUILD)/tests
# built by tools/tools.mk
CLI_SAN_BIN := $(BUILD)/tools/sparse24-san
# a test program: its own sources and the ones listed after it, with the sanitizers
TEST_CC     := $(CC) $(CFLAGS) $(SANFLAGS) $(DRV_INC) $(SIM_INC)

# ---------------------------------------------------------------- golden model, .npy, command
# cmocka unit tests of the model
$(TEST_BUILD)/model/test_model: tests/model/test_model.c $(MODEL_SRCS)
	@mkdir -p $(@D)
	$(TEST_CC) $(filter %.c,$^) -lcmocka -o $@

# cmocka unit tests of the .npy reader/writer
$(TEST_BUILD)/model/test_npy: tests/model/test_npy.c tools/npy.c $(MODEL_SRCS)
	@mkdir -p $(@D)
	$(TEST_CC) -Itools $(filter %.c,$^) -lcmocka -o $@

# randomised property tests
$(TEST_BUILD)/model/prop_model: tests/model/prop_model.c $(MODEL_SRCS)
	@mkdir -p $(@D)
	$(TEST_CC) $(filter %.c,$^) -o $@

# randomised properties of the beat packers, the cycle predictors and the bias folding
$(TEST_BUILD)/model/prop_layout: tests/model/prop_layout.c $(MODEL_SRCS)
	@mkdir -p $(@D)
	$(TEST_CC) $(filter %.c,$^) -o $@

.PHONY: test-model-unit test-npy test-model-prop test-model-prop-long test-cli test-layout-prop

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

# 3000 random cases, fixed seed (rerun: build/tests/model/prop_layout CASES SEED)
test-layout-prop: $(TEST_BUILD)/model/prop_layout
	$< 3000 20261123

# end-to-end command tests, on the sanitizer build of the command
test-cli: $(CLI_SAN_BIN)
	tests/cli/run.sh $(CLI_SAN_BIN) $(TEST_BUILD)/cli/work

TESTS      += test-model-unit test-npy test-model-prop test-layout-prop test-cli
LONG_TESTS += test-model-prop-long

# ---------------------------------------------------------------- driver and software device
.PHONY: test-driver test-swdev
DRV_TEST_BIN := $(BUILD)/driver/test_drv
$(DRV_TEST_BIN): tests/driver/test_drv.c $(DRV_SRCS) $(SWDEV_SRCS) $(MODEL_SRCS)
	@mkdir -p $(@D)
	$(TEST_CC) $(filter %.c,$^) -lcmocka -o $@

# cmocka: register sequences and error paths against a mock seam (sanitizers on)
test-driver: $(DRV_TEST_BIN)
	$(DRV_TEST_BIN)

SWDEV_TEST_BIN := $(BUILD)/driver/test_e2e_swdev
$(SWDEV_TEST_BIN): tests/cosim/e2e.c $(DRV_SRCS) $(SWDEV_SRCS) $(MODEL_SRCS)
	@mkdir -p $(@D)
	$(TEST_CC) $(filter %.c,$^) -o $@

# Random GEMMs through the driver on the software device, bit-exact vs the model, for arrays
# of every kind (sparse 2:4, 1:4, 2:8, 1:2, dense 4:4; odd sizes): the driver's packing rules
SWDEV_CFGS := 8:8:2:4 3:5:1:4 4:4:4:4 2:3:2:8 5:2:1:2 1:1:2:4
test-swdev: $(SWDEV_TEST_BIN)
	@for c in $(SWDEV_CFGS); do \
	  log=$(BUILD)/driver/swdev_$$c.log; \
	  $(SWDEV_TEST_BIN) +cases=300 +cfg=$$c $(if $(SEED),+seed=$(SEED)) >$$log 2>&1 || { cat $$log; exit 1; }; \
	  head -n 1 $$log; tail -n 2 $$log | tr "\n" " "; echo; \
	done

TESTS += test-driver test-swdev

# ---------------------------------------------------------------- co-simulation (Verilated s24_top)
.PHONY: test-cosim test-cosim-long
# $(1) a co-simulation build's directory: the end-to-end GEMM test and the cycle-model test on it
define COSIM_TEST_RULES
$(1)/test_e2e_rtl: tests/cosim/e2e.c $(DRV_SRCS) $(MODEL_SRCS) $(1)/libs24cosim.a
	$(TEST_CC) -DS24_E2E_RTL $$(filter %.c,$$^) $(1)/libs24cosim.a $(COSIM_LDLIBS) -o $$@
$(1)/test_perf: tests/perf/test_perf.c $(DRV_SRCS) $(MODEL_SRCS) $(1)/libs24cosim.a
	$(TEST_CC) $$(filter %.c,$$^) $(1)/libs24cosim.a $(COSIM_LDLIBS) -o $$@
endef
$(foreach c,$(COSIM_CFGS),$(eval $(call COSIM_TEST_RULES,$(call cosim_dir,$(c)))))

COSIM_TEST_BIN  := $(COSIM_DIR)/test_e2e_rtl
COSIM_PROTO_BIN := $(COSIM_DIR)/test_proto_rtl
$(COSIM_PROTO_BIN): tests/cosim/proto.c $(DRV_SRCS) $(MODEL_SRCS) $(COSIM_LIB)
	$(TEST_CC) $(filter %.c,$^) $(COSIM_LIB) $(COSIM_LDLIBS) -o $@

# the AXI4-Lite slave of the Verilated top under random overlapping traffic (C++, no driver)
AXIL_TB_BIN := $(COSIM_DIR)/tb_axil
$(AXIL_TB_BIN): tests/cosim/tb_axil.cpp $(COSIM_DIR)/vobj/Vs24_top__ALL.a $(VLT_RT_OBJS)
	$(CXX) $(VLT_CXXFLAGS) -O2 -g $(DRV_INC) $(SIM_INC) -I$(COSIM_DIR)/vobj $< $(COSIM_DIR)/vobj/Vs24_top__ALL.a $(VLT_RT_OBJS) $(VLT_LDLIBS) -o $@

# Co-simulation: the AXI4-Lite slave under random overlapping traffic, register/protocol/error
# tests, then random GEMMs on the Verilated top with random stream gaps, result backpressure and
# AXI4-Lite ordering, bit-exact vs the model
test-cosim: $(AXIL_TB_BIN) $(COSIM_PROTO_BIN) $(COSIM_TEST_BIN)
	$(AXIL_TB_BIN) +txns=20000 $(if $(SEED),+seed=$(SEED))
	$(COSIM_PROTO_BIN) $(if $(SEED),+seed=$(SEED))
	$(COSIM_TEST_BIN) +cases=1000 +bp=30 $(if $(SEED),+seed=$(SEED))

# Longer co-simulation: more random cases on the default build, then other arrays (dense 4:4,
# odd 3x5 1:4, 2:8), each Verilated separately (about a minute of compilation each)
COSIM_LONG_BINS := $(foreach c,$(COSIM_LONG_CFGS),$(call cosim_dir,$(c))/test_e2e_rtl)
test-cosim-long: $(COSIM_TEST_BIN) $(COSIM_LONG_BINS)
	$(COSIM_TEST_BIN) +cases=3000 +bp=30 $(if $(SEED),+seed=$(SEED))
	$(COSIM_TEST_BIN) +cases=1000 +bp=0 $(if $(SEED),+seed=$(SEED))
	@for b in $(COSIM_LONG_BINS); do $$b +cases=500 +bp=20 $(if $(SEED),+seed=$(SEED)) || exit 1; done

TESTS      += test-cosim
LONG_TESTS += test-cosim-long

# The in-flight window is a performance setting only (the core drains on its own): windows 1, 2,
# 3 and the default complete bit-exact on every Verilated array, each printing its busy cycles
# (e2e with no random case: the int32-wrap case and the window cases)
TESTS += test-windows
.PHONY: test-windows
test-windows: $(COSIM_TEST_BIN) $(COSIM_LONG_BINS)
	@for b in $^; do \
	  log=$$b.windows.log; \
	  $$b +cases=0 +bp=0 $(if $(SEED),+seed=$(SEED)) >$$log 2>&1 || { cat $$log; exit 1; }; \
	  head -n 1 $$log; grep '^  window' $$log; tail -n 1 $$log; \
	done

# ---------------------------------------------------------------- cycle model vs the RTL
# predicted busy cycles == measured on the co-simulated RTL (tests/perf/test_perf.c)
.PHONY: test-perf test-perf-long
PERF_DIR      := $(BUILD)/perf
PERF_TEST_BIN := $(COSIM_DIR)/test_perf

# Quick: random GEMMs cycle-exact on the RTL (ideal streams) and under stream gaps and result
# backpressure (beats exact, cycles >= prediction), then the first 3 benchmark shapes scaled down
test-perf: $(PERF_TEST_BIN) $(BUILD)/sparse24
	$(PERF_TEST_BIN) +cases=80 +stress=12 $(if $(SEED),+seed=$(SEED))
	@mkdir -p $(PERF_DIR)/quick
	$(BUILD)/sparse24 bench --first 3 --out $(PERF_DIR)/quick >$(PERF_DIR)/quick/out.txt || { cat $(PERF_DIR)/quick/out.txt; exit 1; }
	@grep -E '^\[|wrote' $(PERF_DIR)/quick/out.txt

# The same test on the other array builds (dense 4:4 core, odd 3x5 1:4, 2x4 2:8): the
# beats-per-group rule with SparseN = 1, SparseM = 8 and SparseN == SparseM
PERF_LONG_BINS := $(foreach c,$(COSIM_LONG_CFGS),$(call cosim_dir,$(c))/test_perf)
# More random cases (LONG_TESTS), on every array build
test-perf-long: $(PERF_TEST_BIN) $(PERF_LONG_BINS)
	$(PERF_TEST_BIN) +cases=2000 +stress=300 $(if $(SEED),+seed=$(SEED))
	@for b in $(PERF_LONG_BINS); do $$b +cases=500 +stress=100 $(if $(SEED),+seed=$(SEED)) || exit 1; done

TESTS      += test-perf
LONG_TESTS += test-perf-long
# issue 14: the command under faults (all-or-nothing outputs, device nodes and links, concurrent
# writers, --trace, size limits and signals, stdout errors, bench, small .npy cases), on the
# sanitizer build; the out-of-memory case (ulimit -v) needs the plain build
.PHONY: test-cli-faults
test-cli-faults: $(CLI_SAN_BIN) $(BUILD)/sparse24
	tests/cli/faults.sh $(CLI_SAN_BIN) $(TEST_BUILD)/cli/faults $(BUILD)/sparse24

TESTS += test-cli-faults

# issue 30: the README's example sessions (fenced blocks of `$ ` commands) run in order in one
# directory, each command's output compared with the README's text (tests/cli/readme.py)
.PHONY: test-readme
test-readme: $(BUILD)/sparse24 soc   # the README runs `--backend soc` (soc/soc.mk)
	python3 tests/cli/readme.py README.md $(BUILD)/sparse24 $(TEST_BUILD)/readme

TESTS += test-readme

# the fused int8 layer keeps its tests in their own folder
include tests/linear/linear.mk
