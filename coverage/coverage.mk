# SPDX-License-Identifier: Apache-2.0
# coverage: how much of the RTL and the C the tests exercise.
#   make coverage   RTL: the core testbench (tb_s24_core, four configurations) and the top's AXI4-Lite
#                   testbench (tests/cosim/tb_axil.cpp), the driver's end-to-end GEMMs, the
#                   register/protocol tests and the fused layer's tests (tests/linear) on the
#                   co-simulation wrapper (sim/s24_cosim.cpp), Verilated by sim/sim.mk's VERILATE
#                   with --coverage (line, branch, toggle; without the `ifdef FORMAL tails: design
#                   code only), merged with verilator_coverage into lcov + HTML
#                   (build/coverage/rtl_html/);
#                   C: the model, .npy and driver unit/property tests, the driver's end-to-end
#                   GEMMs on the software device (sim/s24_swdev.c), the fused layer's test and
#                   the fuzz seed corpora replayed, built with gcov, lcov + HTML
#                   (build/coverage/c_html/); figures in build/coverage/summary.txt.

COV_DIR      := $(BUILD)/coverage
# Configurations (R:C:n:m[:PairMode]) of the core testbench, each under build/coverage/core_<name>/
# (4:4:2:4:0: the 2:4-only core, whose PEs take the relative-index select of a build without the
# pair mode), and the top's (the default build, S24_DEFAULT_CFG, which its tests expect) under
# build/coverage/top/
COV_CORE_CFGS := 4:4:2:4 2:3:2:8 2:2:4:4 4:4:2:4:0
COV_TOP_CFG  := $(S24_DEFAULT_CFG)
cov_core_dir  = $(COV_DIR)/core_$(call cfg_name,$(1))
COV_TILES    := 300
# Verilator (sim/sim.mk's VERILATE, its flags and these): design code only (no FORMAL tails)
COV_VFLAGS := --coverage                    # line + branch + toggle + user points
COV_VFLAGS += --x-assign unique --x-initial unique  # X: random values, not a convenient 0
COV_VFLAGS += -Wno-lint -Wno-style          # lint is `make lint`'s job
# C++ of the generated models: -O1 keeps each build short
COV_OPT    := OPT_FAST=-O1 OPT_SLOW=-O0
# the runtime with the coverage database (sim/sim.mk)
COV_RT_OBJS := $(VLT_COV_RT_OBJS)
COV_CXXFLAGS := $(VLT_COV_CXXFLAGS)
COV_CXXFLAGS += -O1 -g                       # quick to build, debuggable
COV_CXXFLAGS += -Wno-unused-parameter        # generated model headers
COV_CXXFLAGS += $(SIM_INC) $(DRV_INC)        # testb.h, s24_cosim.h (sim/); s24_regs.h, s24_drv.h; the model's

$(foreach c,$(COV_CORE_CFGS),$(eval $(call VERILATE,s24_core,$(c),$(call cov_core_dir,$(c)),$(COV_VFLAGS),$(COV_OPT))))
$(eval $(call VERILATE,s24_top,$(COV_TOP_CFG),$(COV_DIR)/top,$(COV_VFLAGS),$(COV_OPT)))

# $(1) configuration R:C:n:m, $(2) its directory
define COV_CORE_RULES
$(2)/tb: testbench/tb_s24_core.cpp sim/testb.h $(2)/Vs24_core__ALL.a $(COV_RT_OBJS) $(MODEL_LIB)
	$(CXX) $(COV_CXXFLAGS) $(call cfg_cdefs,$(1)) -I$(2) $$< $(2)/Vs24_core__ALL.a $(COV_RT_OBJS) $(MODEL_LIB) $(VLT_LDLIBS) -o $$@
$(2)/coverage.dat: $(2)/tb
	$$< +seed=1 +tiles=$(COV_TILES) +coverage=$$@ > $(2)/run.log 2>&1 || { cat $(2)/run.log; exit 1; }
endef
$(foreach c,$(COV_CORE_CFGS),$(eval $(call COV_CORE_RULES,$(c),$(call cov_core_dir,$(c)))))

# the top under the AXI4-Lite testbench
$(COV_DIR)/top/tb_axil: tests/cosim/tb_axil.cpp driver/s24_regs.h sim/testb.h $(COV_DIR)/top/Vs24_top__ALL.a $(COV_RT_OBJS)
	$(CXX) $(COV_CXXFLAGS) -I$(@D) $< $(COV_DIR)/top/Vs24_top__ALL.a $(COV_RT_OBJS) $(VLT_LDLIBS) -o $@
$(COV_DIR)/top/coverage.dat: $(COV_DIR)/top/tb_axil
	$< +txns=20000 +seed=1 +coverage=$@ > $(@D)/run.log 2>&1 || { cat $(@D)/run.log; exit 1; }

# the same top model under the driver's end-to-end GEMMs (tests/cosim/e2e.c on the co-simulation
# wrapper, sim/s24_cosim.cpp), the register/protocol/error tests and the fused layer's tests
# (tests/linear/test_linear.c: the epilogue): every model a run opens writes its own file, merged here
COV_E2E_CASES := 60
$(COV_DIR)/top/s24_cosim.o: sim/s24_cosim.cpp sim/s24_cosim.h sim/testb.h $(COV_DIR)/top/Vs24_top__ALL.a
	$(CXX) $(COV_CXXFLAGS) -I$(@D) -c $< -o $@
$(COV_DIR)/top/test_e2e_rtl: tests/cosim/e2e.c tests/common/rand.h $(COV_DIR)/top/s24_cosim.o $(COV_DIR)/top/Vs24_top__ALL.a $(COV_RT_OBJS) $(MODEL_LIB) \
    $(wildcard driver/*.c driver/*.h) sim/s24_cosim.h
	@rm -rf $(@D)/drv && mkdir -p $(@D)/drv
	$(CC) $(CFLAGS) -DS24_E2E_RTL $(DRV_INC) $(SIM_INC) -c tests/cosim/e2e.c -o $(@D)/drv/e2e.o
	@for f in $(DRV_SRCS); do $(CC) $(CFLAGS) $(DRV_INC) -c $$f -o $(@D)/drv/$$(basename $$f .c).o || exit 1; done
	$(CXX) $(@D)/drv/*.o $(@D)/s24_cosim.o $(COV_DIR)/top/Vs24_top__ALL.a $(COV_RT_OBJS) $(MODEL_LIB) $(VLT_LDLIBS) -lm -o $@
$(COV_DIR)/top/test_proto_rtl: tests/cosim/proto.c $(COV_DIR)/top/test_e2e_rtl
	$(CC) $(CFLAGS) $(DRV_INC) $(SIM_INC) -c tests/cosim/proto.c -o $(@D)/proto.o
	$(CXX) $(@D)/proto.o $$(ls $(@D)/drv/*.o | grep -v e2e.o) $(@D)/s24_cosim.o $(COV_DIR)/top/Vs24_top__ALL.a $(COV_RT_OBJS) \
	  $(MODEL_LIB) $(VLT_LDLIBS) -lm -o $@
# the fused layer's test links the software device too (it compares both backends)
COV_LINEAR_CASES := 300
$(COV_DIR)/top/test_linear_rtl: tests/linear/test_linear.c tests/common/rand.h sim/s24_swdev.c sim/s24_swdev.h $(COV_DIR)/top/test_e2e_rtl
	@rm -rf $(@D)/lin && mkdir -p $(@D)/lin
	$(CC) $(CFLAGS) $(DRV_INC) $(SIM_INC) -c tests/linear/test_linear.c -o $(@D)/lin/test_linear.o
	@for f in $(SWDEV_SRCS); do $(CC) $(CFLAGS) $(DRV_INC) $(SIM_INC) -c $$f -o $(@D)/lin/$$(basename $$f .c).o || exit 1; done
	$(CXX) $(@D)/lin/*.o $$(ls $(@D)/drv/*.o | grep -v e2e.o) $(@D)/s24_cosim.o $(COV_DIR)/top/Vs24_top__ALL.a $(COV_RT_OBJS) \
	  $(MODEL_LIB) $(VLT_LDLIBS) -lm -o $@
# the driver's end-to-end GEMMs, the register/protocol/error tests (tests/cosim/proto.c) and the
# fused layer (random layers with result backpressure, the directed extremes)
$(COV_DIR)/top/e2e.dat: $(COV_DIR)/top/test_e2e_rtl $(COV_DIR)/top/test_proto_rtl $(COV_DIR)/top/test_linear_rtl coverage/coverage.mk
	@rm -rf $(@D)/e2e_dats && mkdir -p $(@D)/e2e_dats
	S24_VLT_COVERAGE_DIR=$(@D)/e2e_dats $< +cases=$(COV_E2E_CASES) +bp=30 +seed=1 > $(@D)/e2e.log 2>&1 || { tail -n 30 $(@D)/e2e.log; exit 1; }
	S24_VLT_COVERAGE_DIR=$(@D)/e2e_dats $(@D)/test_proto_rtl +seed=1 > $(@D)/proto.log 2>&1 || { tail -n 30 $(@D)/proto.log; exit 1; }
	S24_VLT_COVERAGE_DIR=$(@D)/e2e_dats $(@D)/test_linear_rtl +cases=$(COV_LINEAR_CASES) +bp=30 +seed=11 > $(@D)/linear.log 2>&1 || { tail -n 30 $(@D)/linear.log; exit 1; }
	verilator_coverage --write $@ $(@D)/e2e_dats/*.dat

COV_DATS := $(foreach c,$(COV_CORE_CFGS),$(call cov_core_dir,$(c))/coverage.dat) $(COV_DIR)/top/coverage.dat $(COV_DIR)/top/e2e.dat

# C: the model, .npy and driver tests with gcov instrumentation (no sanitizers: gcov counts only)
COV_C_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O0 -g --coverage
$(COV_DIR)/c/run.stamp: tests/model/test_model.c tests/model/test_npy.c tests/model/prop_model.c tests/model/prop_layout.c tests/driver/test_drv.c \
    tests/linear/test_linear.c $(wildcard tests/common/*.h) $(MODEL_SRCS) tools/npy.c $(wildcard driver/*.c driver/*.h sim/s24_swdev.* fuzz/*.c fuzz/corpus/*/*) \
    $(COV_DIR)/top/s24_cosim.o $(COV_DIR)/top/Vs24_top__ALL.a $(COV_RT_OBJS) coverage/coverage.mk
	@rm -rf $(COV_DIR)/c && mkdir -p $(COV_DIR)/c/obj
	@for f in $(MODEL_SRCS) tools/npy.c $(DRV_SRCS) $(SWDEV_SRCS); do \
	  $(CC) $(COV_C_FLAGS) $(MODEL_INC) -Itools $(DRV_INC) $(SIM_INC) -c $$f -o $(COV_DIR)/c/obj/$$(basename $$f .c).o || exit 1; done
	@M="$(addprefix $(COV_DIR)/c/obj/,$(notdir $(MODEL_SRCS:.c=.o)))"; \
	$(CC) $(COV_C_FLAGS) $(MODEL_INC) tests/model/test_model.c $$M -lcmocka -o $(COV_DIR)/c/test_model && \
	$(CC) $(COV_C_FLAGS) $(MODEL_INC) -Itools tests/model/test_npy.c $(COV_DIR)/c/obj/npy.o $$M -lcmocka -o $(COV_DIR)/c/test_npy && \
	$(CC) $(COV_C_FLAGS) $(MODEL_INC) tests/model/prop_model.c $$M -o $(COV_DIR)/c/prop_model && \
	$(CC) $(COV_C_FLAGS) $(MODEL_INC) tests/model/prop_layout.c $$M -o $(COV_DIR)/c/prop_layout && \
	$(CC) $(COV_C_FLAGS) $(DRV_INC) $(SIM_INC) tests/driver/test_drv.c $(addprefix $(COV_DIR)/c/obj/,$(notdir $(DRV_SRCS:.c=.o) $(SWDEV_SRCS:.c=.o))) $$M -lcmocka -o $(COV_DIR)/c/test_drv && \
	$(CC) $(COV_C_FLAGS) $(DRV_INC) $(SIM_INC) tests/cosim/e2e.c $(addprefix $(COV_DIR)/c/obj/,$(notdir $(DRV_SRCS:.c=.o) $(SWDEV_SRCS:.c=.o))) $$M -o $(COV_DIR)/c/test_e2e_swdev
	@cd $(COV_DIR)/c && ./test_model > test_model.log 2>&1 && ./test_npy > test_npy.log 2>&1 && ./prop_model 20000 1 > prop_model.log 2>&1 \
	  && ./prop_layout 3000 20261123 > prop_layout.log 2>&1 \
	  && ./test_drv > test_drv.log 2>&1 || { tail -n 30 *.log; exit 1; }
	$(CC) $(COV_C_FLAGS) -D_GNU_SOURCE -Dfopen=s24_fuzz_fopen $(MODEL_INC) -Itools -c tools/npy.c -o $(COV_DIR)/c/obj/npy_fuzz.o
	$(CC) $(COV_C_FLAGS) -D_GNU_SOURCE $(MODEL_INC) -Itools fuzz/fuzz_npy.c fuzz/replay_main.c fuzz/fuzz_file.c $(COV_DIR)/c/obj/npy_fuzz.o \
	  $(addprefix $(COV_DIR)/c/obj/,$(notdir $(MODEL_SRCS:.c=.o))) -o $(COV_DIR)/c/replay_npy
	$(CC) $(COV_C_FLAGS) $(MODEL_INC) fuzz/fuzz_meta.c fuzz/replay_main.c $(addprefix $(COV_DIR)/c/obj/,$(notdir $(MODEL_SRCS:.c=.o))) \
	  -o $(COV_DIR)/c/replay_meta
	$(CC) $(COV_C_FLAGS) -D_GNU_SOURCE $(MODEL_INC) -Itools fuzz/fuzz_linear.c fuzz/replay_main.c fuzz/fuzz_file.c $(COV_DIR)/c/obj/npy_fuzz.o \
	  $(addprefix $(COV_DIR)/c/obj/,$(notdir $(MODEL_SRCS:.c=.o))) -o $(COV_DIR)/c/replay_linear
	@cd $(COV_DIR)/c && ./replay_npy $(CURDIR)/fuzz/corpus/fuzz_npy/* > replay.log && ./replay_meta $(CURDIR)/fuzz/corpus/fuzz_meta/* >> replay.log \
	  && ./replay_linear $(CURDIR)/fuzz/corpus/fuzz_linear/* >> replay.log
	@cd $(COV_DIR)/c && for c in 8:8:2:4 3:5:1:4 4:4:4:4 2:3:2:8 5:2:1:2; do \
	  ./test_e2e_swdev +cases=100 +cfg=$$c > e2e_swdev.log 2>&1 || { tail -n 30 e2e_swdev.log; exit 1; }; done
	# the fused layer (model, driver, software device; the coverage top as its RTL backend, no
	# RTL coverage written: S24_VLT_COVERAGE_DIR unset)
	$(CC) $(COV_C_FLAGS) $(DRV_INC) $(SIM_INC) -c tests/linear/test_linear.c -o $(COV_DIR)/c/test_linear.o
	$(CXX) --coverage -o $(COV_DIR)/c/test_linear $(COV_DIR)/c/test_linear.o \
	  $(addprefix $(COV_DIR)/c/obj/,$(notdir $(DRV_SRCS:.c=.o) $(SWDEV_SRCS:.c=.o) $(MODEL_SRCS:.c=.o))) \
	  $(COV_DIR)/top/s24_cosim.o $(COV_DIR)/top/Vs24_top__ALL.a $(COV_RT_OBJS) $(VLT_LDLIBS) -lm
	@cd $(COV_DIR)/c && ./test_linear +cases=300 +bp=30 +seed=11 > test_linear.log 2>&1 || { tail -n 30 test_linear.log; exit 1; }
	@touch $@

.PHONY: coverage
coverage: $(COV_DATS) $(COV_DIR)/c/run.stamp
	verilator_coverage --write $(COV_DIR)/rtl.dat $(COV_DATS)
	verilator_coverage --write-info $(COV_DIR)/rtl.info $(COV_DIR)/rtl.dat
	genhtml -q --ignore-errors source -o $(COV_DIR)/rtl_html $(COV_DIR)/rtl.info > /dev/null
	lcov -q --capture --directory $(COV_DIR)/c/obj --base-directory $(CURDIR) -o $(COV_DIR)/c.info 2> /dev/null
	lcov -q --extract $(COV_DIR)/c.info '*/cmodel/*' '*/tools/*' '*/driver/*' '*/sim/*' -o $(COV_DIR)/c_src.info 2> /dev/null
	genhtml -q -o $(COV_DIR)/c_html $(COV_DIR)/c_src.info > /dev/null
	$(PYTHON) coverage/summary.py $(COV_DIR)/rtl.dat $(COV_DIR)/c_src.info > $(COV_DIR)/summary.txt
	@cat $(COV_DIR)/summary.txt
