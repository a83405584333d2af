# SPDX-License-Identifier: Apache-2.0
# sim: the simulators beside the driver. The one way to Verilate an array configuration
# (VERILATE, used by sim/ and testbench/), the Verilator runtime compiled once, the software
# device (s24_swdev.c) and the co-simulation library (s24_cosim.cpp + the Verilated s24_top).
# Other fragments use VERILATE, VLT_*, SIM_INC, SWDEV_SRCS, COSIM_CFG(S), COSIM_LIB, COSIM_LDLIBS.

SIM_INC := -Isim

# ---------------------------------------------------------------- Verilator: one build fragment
VERILATOR ?= verilator
VLT_ROOT  := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
# Flags of every Verilated model (each use adds its own: top, assertions, X handling, speed)
VLT_FLAGS := --cc                          # C++ model, compiled by its generated make file
VLT_FLAGS += -Irtl                         # s24_regs.vh
VLT_FLAGS += --trace-fst                   # FST waveforms on request
VLT_FLAGS += -Wno-fatal                    # lint is `make lint`'s job (-Wall, no warnings there)
VLT_FLAGS += -CFLAGS -fPIC                 # models link into PIE executables and archives
# Defines of the generated models, for the runtime and for code including their headers
VLT_DEFS  := -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=1 -DVM_TRACE_FST=1 -DVM_TRACE_VCD=0
# C++ flags of our code around a model (testbenches, co-simulation)
VLT_CXXFLAGS := -std=c++17                 # Verilator 5 headers need C++14 or later
VLT_CXXFLAGS += -Wall -Wextra -Werror      # warnings are errors in our own code
VLT_CXXFLAGS += -faligned-new              # as Verilator's own make file
VLT_CXXFLAGS += -fPIC                      # archives linked into PIE executables
VLT_CXXFLAGS += $(VLT_DEFS)
VLT_CXXFLAGS += -isystem $(VLT_ROOT)/include -isystem $(VLT_ROOT)/include/vltstd  # no warnings from there
VLT_CXXFLAGS += -MMD -MP                   # header dependencies
VLT_LDLIBS   := -lz -lpthread -latomic     # FST (zlib), Verilator threads

# The same for models Verilated with --coverage (coverage/): VM_COVERAGE=1
VLT_COV_DEFS     := $(subst -DVM_COVERAGE=0,-DVM_COVERAGE=1,$(VLT_DEFS))
VLT_COV_CXXFLAGS := $(subst -DVM_COVERAGE=0,-DVM_COVERAGE=1,$(VLT_CXXFLAGS))

# The Verilator runtime (C++ shipped with Verilator), compiled once, linked by every model;
# VLT_COV_RT_OBJS: the runtime of the models with coverage, with its coverage database
VLT_RT_OBJS     := $(addprefix $(BUILD)/vlt/rt/,verilated.o verilated_fst_c.o verilated_threads.o)
VLT_COV_RT_OBJS := $(addprefix $(BUILD)/vlt/rt_cov/,verilated.o verilated_fst_c.o verilated_threads.o verilated_cov.o)
# $(1) directory, $(2) defines
define VLT_RT_RULE
$(1)/%.o: $(VLT_ROOT)/include/%.cpp
	@mkdir -p $$(@D)
	$(CXX) -std=c++17 -O2 -fPIC -faligned-new $(2) -I$(VLT_ROOT)/include -I$(VLT_ROOT)/include/vltstd -c $$< -o $$@
endef
$(eval $(call VLT_RT_RULE,$(BUILD)/vlt/rt,$(VLT_DEFS)))
$(eval $(call VLT_RT_RULE,$(BUILD)/vlt/rt_cov,$(VLT_COV_DEFS)))

# $(call VERILATE,TOP,R:C:n:m,DIR,FLAGS,OPT): rules for DIR/V<TOP>__ALL.a, the model of rtl/s24.f
# with top module TOP in that configuration, Verilator flags FLAGS (e.g. --coverage: link
# VLT_COV_RT_OBJS then), C++ optimisation OPT (OPT_FAST=… OPT_SLOW=… of the generated make file).
# Use as $(eval $(call VERILATE,…)); the model also depends on the fragment that calls it (its FLAGS).
define VERILATE
$(3)/V$(1).mk: $(RTL_FILES) $(wildcard rtl/*.vh) rtl/s24.f sim/sim.mk $(lastword $(MAKEFILE_LIST))
	@mkdir -p $$(@D)
	$(VERILATOR) $(VLT_FLAGS) $(4) --prefix V$(1) --top-module $(1) $(call cfg_gparams,$(2)) -Mdir $$(@D) -f rtl/s24.f >$$(@D)/verilate.log 2>&1 || { cat $$(@D)/verilate.log; exit 1; }
$(3)/V$(1)__ALL.a: $(3)/V$(1).mk
	+$(MAKE) --no-print-directory -s -C $$(@D) -f V$(1).mk V$(1)__ALL.a $(5) VM_PARALLEL_BUILDS=0 >/dev/null
endef

# ---------------------------------------------------------------- software device
# s24_top's registers and streams in C: the driver's fast, sanitized test target (tests/)
SWDEV_SRCS := sim/s24_swdev.c

# ---------------------------------------------------------------- co-simulation library
# The Verilated s24_top behind the driver seam, one build per configuration under
# build/cosim_<name>/. COSIM_CFG is the one build/sparse24 links (make COSIM_CFG=4:4:4:4);
# COSIM_LONG_CFGS are the arrays test-cosim-long and test-perf-long run on, built with the
# `ifdef FORMAL assertion tails of the core and the top live (a firing one fails the run).
COSIM_CFG       ?= $(S24_DEFAULT_CFG)
COSIM_LONG_CFGS := 4:4:4:4 3:5:1:4 2:4:2:8
COSIM_CFGS      := $(sort $(COSIM_CFG) $(COSIM_LONG_CFGS))
cosim_dir        = $(BUILD)/cosim_$(call cfg_name,$(1))
COSIM_DIR       := $(call cosim_dir,$(COSIM_CFG))
COSIM_LIB       := $(COSIM_DIR)/libs24cosim.a
COSIM_LDLIBS    := $(VLT_LDLIBS) -lstdc++ -lm
COSIM_VFLAGS    := -O3 --x-assign fast --x-initial fast  # speed
COSIM_OPT       := OPT_FAST=-O2 OPT_SLOW=-O1

$(foreach c,$(COSIM_CFGS),$(eval $(call VERILATE,s24_top,$(c),$(call cosim_dir,$(c))/vobj,$(COSIM_VFLAGS) $(if $(filter $(c),$(COSIM_LONG_CFGS)),--assert -DFORMAL),$(COSIM_OPT))))

# $(1) its directory: the wrapper, and one archive of wrapper, model and runtime
define COSIM_RULES
$(1)/s24_cosim.o: sim/s24_cosim.cpp $(1)/vobj/Vs24_top__ALL.a
	$(CXX) $(VLT_CXXFLAGS) -O2 -g $(DRV_INC) $(SIM_INC) -I$(1)/vobj -c $$< -o $$@
$(1)/libs24cosim.a: $(1)/s24_cosim.o $(1)/vobj/Vs24_top__ALL.a $(VLT_RT_OBJS)
	rm -f $$@
	printf 'create $$@\naddlib $(1)/vobj/Vs24_top__ALL.a\nsave\nend\n' | ar -M
	ar rs $$@ $(1)/s24_cosim.o $(VLT_RT_OBJS)
endef
$(foreach c,$(COSIM_CFGS),$(eval $(call COSIM_RULES,$(call cosim_dir,$(c)))))

# ---------------------------------------------------------------- waveform of the top
# make wave-top: FST of a small 2:4 GEMM (19x64x21: three jobs, edge tiles) on the Verilated top
# through the command, opened in GTKWave with tests/cosim/s24_top.gtkw when a display exists
.PHONY: wave-top
wave-top: $(BUILD)/sparse24
	@mkdir -p $(BUILD)/waves
	$(PYTHON) tests/cli/npy.py rand $(BUILD)/waves/top_a.npy '|i1' 19 64 1
	$(PYTHON) tests/cli/npy.py rand $(BUILD)/waves/top_b.npy '|i1' 64 21 2
	$(BUILD)/sparse24 prune $(BUILD)/waves/top_a.npy -o $(BUILD)/waves/top_ap.npy
	$(BUILD)/sparse24 gemm $(BUILD)/waves/top_ap.npy $(BUILD)/waves/top_b.npy -o $(BUILD)/waves/top_c.npy --backend rtl --trace $(BUILD)/waves/s24_top.fst
	@if [ -n "$$DISPLAY" ] && command -v gtkwave >/dev/null; then \
	  gtkwave $(BUILD)/waves/s24_top.fst tests/cosim/s24_top.gtkw; \
	else echo "wave-top: wrote $(BUILD)/waves/s24_top.fst (view: gtkwave $(BUILD)/waves/s24_top.fst tests/cosim/s24_top.gtkw)"; fi
