# tools: the `sparse24` command (SPEC §5) and its .npy I/O, linked with the model library.
# The GEMM backends are dispatched in tools/backend.c; the rtl backend is a link-time choice:
# tools/backend_rtl.c with the co-simulation library (default), or tools/backend_nortl.c,
# which refuses `--backend rtl`, in a build without Verilator (make S24_RTL=no, the Makefile's switch).

TOOLS_SRCS := tools/main.c tools/cli.c tools/npy.c tools/outfile.c tools/backend.c tools/demo.c tools/bench.c tools/linear.c tools/net.c
ifeq ($(S24_RTL),no)
TOOLS_SRCS += tools/backend_nortl.c
TOOLS_RTL  :=
else
TOOLS_SRCS += tools/backend_rtl.c
TOOLS_RTL  := $(COSIM_LIB)
endif
TOOLS_OBJS := $(TOOLS_SRCS:tools/%.c=$(BUILD)/tools/%.o)
TOOLS_INC  := -Itools $(DRV_INC) -Iruntime -Iapi

ALL += $(BUILD)/sparse24

$(BUILD)/tools/%.o: INC := $(TOOLS_INC)
# only the rtl backend sees the co-simulation's header
$(BUILD)/tools/backend_rtl.o: INC := $(TOOLS_INC) $(SIM_INC)

$(BUILD)/sparse24: $(TOOLS_OBJS) $(ENGINE_OBJ) $(RUNTIME_LIB) $(DRV_LIB) $(TOOLS_RTL) $(MODEL_LIB)
	$(CC) $(CFLAGS) $(filter %.o %.a,$^) $(if $(TOOLS_RTL),$(COSIM_LDLIBS)) -lm -o $@

# The same command built with the sanitizers, run by the end-to-end tests (tests/tests.mk)
$(BUILD)/tools/sparse24-san: $(TOOLS_SRCS) $(ENGINE_SRCS) $(RUNTIME_SRCS) $(MODEL_SRCS) $(DRV_SRCS) $(TOOLS_RTL)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) $(TOOLS_INC) $(SIM_INC) $(filter %.c,$^) $(TOOLS_RTL) $(if $(TOOLS_RTL),$(COSIM_LDLIBS)) -lm -o $@

.PHONY: bench-model
# The built-in demo layer on the model backend (deps first, then the build, then the run)
demo: deps
	@$(MAKE) --no-print-directory $(BUILD)/sparse24
	$(BUILD)/sparse24 demo --backend model
	$(BUILD)/sparse24 demo --backend rtl

# Model GEMM speed, 2:4 1024x4096x1024 (a measurement, not a test)
bench-model: $(BUILD)/sparse24
	$(BUILD)/sparse24 bench --backend model --shape 1024x4096x1024 --pattern 2:4 --reps 3
