# bench: the performance benchmark of issue 6 (`sparse24 bench`, tools/bench.c) and the cycle-model
# test (tests/perf/test_perf.c): predicted busy cycles == measured on the co-simulated RTL.
# Uses DRV_SRCS, COSIM_LIB, COSIM_LDLIBS (driver/driver.mk) and MODEL_SRCS (cmodel/cmodel.mk).

BENCH_DIR := $(BUILD)/bench
PERF_DIR  := $(BUILD)/perf

.PHONY: bench bench-docs test-perf test-perf-long

# Every shape: full size through the cycle model, /16 on the RTL (measured == predicted),
# then the plot (PNG with pngcairo, else SVG) from the script the command wrote
bench: deps
	@$(MAKE) --no-print-directory $(BUILD)/sparse24
	@mkdir -p $(BENCH_DIR)
	$(BUILD)/sparse24 bench --out $(BENCH_DIR)
	gnuplot -e "dir='$(BENCH_DIR)'" $(BENCH_DIR)/plot.gp

# Copies the plot of the last `make bench` into docs/img/ (the committed figure of docs/results.md)
bench-docs:
	@test -f $(BENCH_DIR)/bench.png || { echo "bench-docs: run make bench first"; exit 1; }
	@mkdir -p docs/img
	cp $(BENCH_DIR)/bench.png docs/img/bench.png

# The cycle-model test, C code built with the sanitizers (the Verilated library without)
PERF_TEST_BIN := $(PERF_DIR)/test_perf
$(PERF_TEST_BIN): tests/perf/test_perf.c $(DRV_SRCS) $(MODEL_SRCS) $(COSIM_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) $(DRV_INC) $(filter %.c,$^) $(COSIM_LIB) $(COSIM_LDLIBS) -o $@

# Quick: random GEMMs cycle-exact on the RTL (ideal streams) and under stream gaps and result
# backpressure (beats exact, cycles >= prediction), then the first 3 benchmark shapes scaled down
test-perf: $(PERF_TEST_BIN) $(BUILD)/sparse24
	$(PERF_TEST_BIN) +cases=80 +stress=12 $(if $(SEED),+seed=$(SEED))
	@mkdir -p $(PERF_DIR)/quick
	$(BUILD)/sparse24 bench --first 3 --out $(PERF_DIR)/quick >$(PERF_DIR)/quick/out.txt || { cat $(PERF_DIR)/quick/out.txt; exit 1; }
	@grep -E '^\[|wrote' $(PERF_DIR)/quick/out.txt

# The same test on the other array builds of driver/driver.mk (dense 4:4 core, odd 3x5 1:4,
# 2x4 2:8): the beats-per-group rule with SparseN = 1, SparseM = 8 and SparseN == SparseM
PERF_LONG_BINS := $(foreach c,$(COSIM_LONG_CFGS),$(BUILD)/cosim_$(call cosim_name,$(c))/test_perf)
$(BUILD)/cosim_%/test_perf: tests/perf/test_perf.c $(DRV_SRCS) $(MODEL_SRCS) $(BUILD)/cosim_%/libs24cosim.a
	$(CC) $(CFLAGS) $(SANFLAGS) $(DRV_INC) $(filter %.c,$^) $(filter %.a,$^) $(COSIM_LDLIBS) -o $@

# More random cases (LONG_TESTS), on every array build
test-perf-long: $(PERF_TEST_BIN) $(PERF_LONG_BINS)
	$(PERF_TEST_BIN) +cases=2000 +stress=300 $(if $(SEED),+seed=$(SEED))
	@for b in $(PERF_LONG_BINS); do $$b +cases=500 +stress=100 $(if $(SEED),+seed=$(SEED)) || exit 1; done

TESTS      += test-perf
LONG_TESTS += test-perf-long
