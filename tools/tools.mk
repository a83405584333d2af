# tools: the `sparse24` command (SPEC §5) and its .npy I/O, linked with the model library.
# The GEMM backends are dispatched in tools/backend.c only; an RTL backend links in there.

TOOLS_SRCS := tools/main.c tools/npy.c tools/outfile.c tools/backend.c tools/demo.c tools/bench.c tools/linear.c
TOOLS_OBJS := $(TOOLS_SRCS:tools/%.c=$(BUILD)/tools/%.o)
TOOLS_INC  := -Itools $(MODEL_INC) -Idriver

ALL += $(BUILD)/sparse24

$(BUILD)/tools/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(TOOLS_INC) -c $< -o $@

# rtl backend: the host driver and the co-simulation library (driver/driver.mk)
$(BUILD)/sparse24: $(TOOLS_OBJS) $(DRV_LIB) $(COSIM_LIB) $(MODEL_LIB)
	$(CC) $(CFLAGS) $(filter %.o %.a,$^) $(COSIM_LDLIBS) -o $@

# The same command built with the sanitizers, run by the end-to-end tests (tests/tests.mk)
$(BUILD)/tools/sparse24-san: $(TOOLS_SRCS) $(MODEL_SRCS) $(DRV_SRCS) $(COSIM_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) $(TOOLS_INC) $(filter %.c,$^) $(COSIM_LIB) $(COSIM_LDLIBS) -o $@

.PHONY: bench-model
# The built-in demo layer on the model backend (deps first, then the build, then the run)
demo: deps
	@$(MAKE) --no-print-directory $(BUILD)/sparse24
	$(BUILD)/sparse24 demo --backend model
	$(BUILD)/sparse24 demo --backend rtl

# Model GEMM speed, 2:4 1024x4096x1024 (a measurement, not a test)
bench-model: $(BUILD)/sparse24
	$(BUILD)/sparse24 bench --backend model --shape 1024x4096x1024 --pattern 2:4 --reps 3

