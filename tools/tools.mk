# SPDX-License-Identifier: Apache-2.0
# tools: the `sparse24` command (SPEC §5), a thin front end over the public library
# (include/sparse24.h, build/lib/libsparse24.a): its one option parser and command table (cli.c,
# main.c), the .npy reader and writer (npy.c), atomic outputs (outfile.c) and one file per
# command family. Every .c here includes only include/ and its own headers; the benchmark
# (tools/bench/) alone reaches below the API, to compare measured with predicted cycles.

TOOLS_SRCS := tools/main.c tools/cli.c tools/npy.c tools/outfile.c tools/demo.c tools/linear.c \
              tools/net.c
TOOLS_OBJS := $(TOOLS_SRCS:tools/%.c=$(BUILD)/tools/%.o)
TOOLS_INC  := -Itools -Itools/bench -Iinclude

ALL += $(BUILD)/sparse24

$(BUILD)/tools/%.o: INC := $(TOOLS_INC)

$(BUILD)/sparse24: $(TOOLS_OBJS) $(BENCH_OBJS) $(API_A)
	$(CC) $(CFLAGS) $(filter %.o %.a,$^) $(API_LDLIBS) -o $@

# The same command built with the sanitizers, run by the end-to-end tests (tests/tests.mk)
$(BUILD)/tools/sparse24-san: $(TOOLS_SRCS) $(BENCH_SRCS) $(API_LIB_SRCS) $(API_RTL_LIB) $(API_GEN_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) $(TOOLS_INC) $(BENCH_INC) $(API_INC) $(filter %.c,$^) $(API_RTL_LIB) $(API_LDLIBS) -o $@

.PHONY: bench-model
# The built-in demo layer on the model backend (deps first, then the build, then the run)
demo: deps
	@$(MAKE) --no-print-directory $(BUILD)/sparse24
	$(BUILD)/sparse24 demo --backend model
	$(BUILD)/sparse24 demo --backend rtl

# Model GEMM speed, 2:4 1024x4096x1024 (a measurement, not a test)
bench-model: $(BUILD)/sparse24
	$(BUILD)/sparse24 bench --backend model --shape 1024x4096x1024 --pattern 2:4 --reps 3
