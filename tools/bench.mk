# SPDX-License-Identifier: Apache-2.0
# bench: the performance benchmark of issue 6 (`sparse24 bench`, tools/bench/bench.c), its plot,
# and the co-simulation's speed (measurements, not tests; the cycle-model test is tests/'s
# test-perf). The benchmark compares measured with predicted cycles, so it alone of the command
# includes the library's internal headers (the backends, the driver, the cycle model).
# Other fragments use BENCH_SRCS, BENCH_OBJS and BENCH_INC (tools/tools.mk links them in).

BENCH_SRCS := tools/bench/bench.c
BENCH_OBJS := $(BUILD)/tools/bench/bench.o
BENCH_INC  := -Itools $(API_INC)

$(BUILD)/tools/bench/%.o: INC := $(BENCH_INC)

BENCH_DIR := $(BUILD)/bench

.PHONY: bench bench-docs cosim-speed

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

# Simulated cycles per second of the co-simulation on one 256x2048x64 2:4 GEMM (a measurement)
bench: cosim-speed
cosim-speed: $(BUILD)/sparse24
	tests/cosim/speed.sh $(BUILD)/sparse24 $(BUILD)/cosim_speed
