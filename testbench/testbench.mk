# testbench: Verilator C++ testbenches of s24_core (one Verilated model per configuration,
# sharing one set of Verilator runtime objects), linked with the C model.
#   make test-core          all configurations, default tile counts (part of `make test`)
#   make test-core-long     10x the random tile operations (part of `make test-long`)
#   make wave TEST=<name>   FST of one test on the 4x4 2:4 core; GTKWave if a display exists
# Configuration names: <R>x<C>_<n>of<m>.

TB_DIR      := $(BUILD)/testbench
VERILATOR   := verilator
VLT_ROOT     = $(shell $(VERILATOR) --getenv VERILATOR_ROOT)

# Configurations: 2:4 (2x2, 4x4, 8x8), 1:4, 2:8, dense baselines 4:4 and 2:2
TB_CFGS     := 2x2_2of4 4x4_2of4 8x8_2of4 4x4_1of4 3x5_1of4 4x4_2of8 2x3_2of8 2x2_4of4 4x4_2of2
# Random tile operations per configuration in `make test` (>= 2,000 per pattern in total)
TB_TILES_2x2_2of4 := 1000
TB_TILES_4x4_2of4 := 800
TB_TILES_8x8_2of4 := 400
TB_TILES_4x4_1of4 := 1200
TB_TILES_3x5_1of4 := 1000
TB_TILES_4x4_2of8 := 1200
TB_TILES_2x3_2of8 := 1000
TB_TILES_2x2_4of4 := 500
TB_TILES_4x4_2of2 := 500
TB_SEED     ?= 1
TB_LONG_MUL := 5
TB_LONG_SEEDS := 101 202 303

tb_words = $(subst x, ,$(subst _, ,$(subst of, ,$(1))))

# Verilator: C++ model with FST tracing compiled in and the `ifdef FORMAL assertions enabled
TB_VFLAGS := --cc                          # C++ model, built by our rules
TB_VFLAGS += --prefix Vs24_core --top-module s24_core
TB_VFLAGS += -Irtl                        # `include search path (s24_regs.vh once the top is listed)
TB_VFLAGS += --trace-fst                  # waveforms on +trace
TB_VFLAGS += --assert -DFORMAL            # immediate assertions in the `ifdef FORMAL tails
TB_VFLAGS += --x-assign unique --x-initial unique  # X: random values, not a convenient 0
TB_VFLAGS += -Wno-fatal                   # lint is `make lint`'s job (-Wall, no warnings there)
TB_VFLAGS += -Wno-lint -Wno-style          # (same reason)

# C++ of the generated models: -O1 keeps each build short; runtime objects are shared
TB_OPT_FAST := -O1
TB_OPT_SLOW := -O0
TB_VLT_DEFS := -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=1 -DVM_TRACE_FST=1 -DVM_TRACE_VCD=0  # as the generated models
TB_RT_FLAGS  = -Os                                   # runtime: small and quick to build
TB_RT_FLAGS += -I$(VLT_ROOT)/include                 # verilated.h
TB_RT_FLAGS += -I$(VLT_ROOT)/include/vltstd          # svdpi.h, vpi_user.h
TB_RT_FLAGS += $(TB_VLT_DEFS)
TB_RT_FLAGS += -faligned-new                         # as Verilator's own makefile
TB_RT_FLAGS += -fcf-protection=none
TB_RT_FLAGS += -Wno-unused-parameter                 # Verilator's runtime sources
TB_RT_FLAGS += -Wno-unused-variable
TB_RT_OBJS  := $(TB_DIR)/rt/verilated.o $(TB_DIR)/rt/verilated_fst_c.o $(TB_DIR)/rt/verilated_threads.o
# Testbench C++: warnings as errors in our own code
TB_CXXFLAGS  = -std=c++17                            # Verilator 5 headers need C++14 or later
TB_CXXFLAGS += -O1 -g                                # quick to build, debuggable
TB_CXXFLAGS += -Wall -Wextra -Werror                 # warnings are errors
TB_CXXFLAGS += -Wno-unused-parameter                 # generated model headers
TB_CXXFLAGS += $(TB_VLT_DEFS)
TB_CXXFLAGS += -faligned-new
TB_CXXFLAGS += -isystem $(VLT_ROOT)/include          # no warnings from Verilator headers
TB_CXXFLAGS += -isystem $(VLT_ROOT)/include/vltstd
TB_CXXFLAGS += -Itestbench $(MODEL_INC)              # testb.h, s24_model.h
TB_CXXFLAGS += -MMD -MP                              # header dependencies
TB_LDLIBS   := -lz -pthread -latomic                # FST (zlib), Verilator threads

$(TB_DIR)/rt/%.o: | $(TB_DIR)/rt/.dir
	$(CXX) $(TB_RT_FLAGS) -c $(VLT_ROOT)/include/$*.cpp -o $@
$(TB_DIR)/rt/.dir:
	@mkdir -p $(@D) && touch $@

# $(1) config name, $(2) R, $(3) C, $(4) n, $(5) m
define TB_CFG_RULES
$(TB_DIR)/$(1)/Vs24_core.mk: $(RTL_CORE_SRCS) rtl/s24.f testbench/testbench.mk
	@mkdir -p $$(@D)
	$(VERILATOR) $(TB_VFLAGS) -GNumRows=$(2) -GNumCols=$(3) -GSparseN=$(4) -GSparseM=$(5) -Mdir $$(@D) -f rtl/s24.f
$(TB_DIR)/$(1)/Vs24_core__ALL.a: $(TB_DIR)/$(1)/Vs24_core.mk
	+$(MAKE) -s -C $$(@D) -f Vs24_core.mk Vs24_core__ALL.a OPT_FAST=$(TB_OPT_FAST) OPT_SLOW=$(TB_OPT_SLOW) VM_PARALLEL_BUILDS=0
$(TB_DIR)/$(1)/tb_s24_core: testbench/tb_s24_core.cpp $(TB_DIR)/$(1)/Vs24_core__ALL.a $(TB_RT_OBJS) $(MODEL_LIB)
	$(CXX) $(TB_CXXFLAGS) -DS24_R=$(2) -DS24_C=$(3) -DS24_N=$(4) -DS24_M=$(5) -I$(TB_DIR)/$(1) \
	  $$< $(TB_DIR)/$(1)/Vs24_core__ALL.a $(TB_RT_OBJS) $(MODEL_LIB) $(TB_LDLIBS) -o $$@
.PHONY: test-core-$(1) test-core-long-$(1)
test-core-$(1): $(TB_DIR)/$(1)/tb_s24_core
	$$< +seed=$(TB_SEED) +tiles=$$(TB_TILES_$(1)) > $(TB_DIR)/$(1)/test.log 2>&1 || { cat $(TB_DIR)/$(1)/test.log; exit 1; }
	@grep -E "tile operations|passed" $(TB_DIR)/$(1)/test.log | tr '\n' ' ' | sed 's/^/test-core: /'; echo
test-core-long-$(1): $(TB_DIR)/$(1)/tb_s24_core
	@for s in $(TB_LONG_SEEDS); do \
	  echo "$$< +seed=$$$$s +tiles=$$$$(( $$(TB_TILES_$(1)) * $(TB_LONG_MUL) ))"; \
	  $$< +seed=$$$$s +tiles=$$$$(( $$(TB_TILES_$(1)) * $(TB_LONG_MUL) )) > $(TB_DIR)/$(1)/test-long.log 2>&1 || { cat $(TB_DIR)/$(1)/test-long.log; exit 1; }; \
	  grep -E "tile operations|passed" $(TB_DIR)/$(1)/test-long.log | tr '\n' ' ' | sed "s/^/test-core-long (seed $$$$s): /"; echo; \
	done
endef
$(foreach c,$(TB_CFGS),$(eval $(call TB_CFG_RULES,$(c),$(word 1,$(call tb_words,$(c))),$(word 2,$(call tb_words,$(c))),$(word 3,$(call tb_words,$(c))),$(word 4,$(call tb_words,$(c))))))

.PHONY: test-core test-core-long tb-core test-core-assert
tb-core: $(foreach c,$(TB_CFGS),$(TB_DIR)/$(c)/tb_s24_core)
test-core: $(foreach c,$(TB_CFGS),test-core-$(c)) test-core-assert
# The RTL assertions are live: a stream-protocol violation must stop the simulation
test-core-assert: $(TB_DIR)/4x4_2of4/tb_s24_core
	$< +seed=$(TB_SEED) +test=protocol_violation_caught > $(TB_DIR)/4x4_2of4/assert.log 2>&1 || { cat $(TB_DIR)/4x4_2of4/assert.log; exit 1; }
	@grep -q "Assertion failed" $(TB_DIR)/4x4_2of4/assert.log || { cat $(TB_DIR)/4x4_2of4/assert.log; exit 1; }
	@echo "test-core-assert: $$(grep -m1 'Assertion failed' $(TB_DIR)/4x4_2of4/assert.log | cut -c1-100)... caught as expected"
test-core-long: $(foreach c,$(TB_CFGS),test-core-long-$(c))

TESTS      += test-core
LONG_TESTS += test-core-long

# make wave TEST=<name>: dump build/waves/<name>.fst from the 4x4 2:4 core, open GTKWave if possible
WAVE_CFG ?= 4x4_2of4
.PHONY: wave-dump wave-shot
wave-dump: $(TB_DIR)/$(WAVE_CFG)/tb_s24_core
	@test -n "$(TEST)" || { echo "make wave: error: give TEST=<name> (e.g. TEST=tile_one_group)"; exit 2; }
	@mkdir -p $(BUILD)/waves
	$< +seed=$(TB_SEED) +tiles=20 +test=$(TEST) +trace +tracefile=$(BUILD)/waves/$(TEST).fst
wave: wave-dump
	@if [ -n "$$DISPLAY" ] && command -v gtkwave >/dev/null; then \
	  gtkwave $(BUILD)/waves/$(TEST).fst testbench/waves/s24_core.gtkw >/dev/null 2>&1 & \
	else echo "make wave: no DISPLAY: waveform written to $(BUILD)/waves/$(TEST).fst (open with: gtkwave $(BUILD)/waves/$(TEST).fst testbench/waves/s24_core.gtkw)"; fi

# make wave-shot TEST=<name>: the same dump, and a PNG of GTKWave showing it (Xvfb, no display needed)
wave-shot: wave-dump
	@scripts/deps.sh --shot
	scripts/wave_shot.sh $(BUILD)/waves/$(TEST).fst testbench/waves/s24_core.gtkw $(BUILD)/waves/$(TEST).png

-include $(wildcard $(TB_DIR)/*/tb_s24_core.d)

# ---------------------------------------------------------------- Icarus on model vectors
# Configurations run under iverilog -g2005: <R>x<C>_<n>of<m>, and the number of jobs for each
IV_CFGS := 4x4_2of4 2x3_2of8 3x2_1of4
IV_JOBS := 40
IVERILOG := iverilog
TB_GEN   := $(TB_DIR)/gen_vectors

$(TB_GEN): testbench/gen_vectors.c $(MODEL_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(MODEL_INC) $< $(MODEL_LIB) -o $@

# $(1) config name, $(2) R, $(3) C, $(4) n, $(5) m
define IV_CFG_RULES
$(TB_DIR)/iv_$(1)/sizes.hex: $(TB_GEN)
	@mkdir -p $$(@D)
	$(TB_GEN) $(2) $(3) $(4) $(5) $(TB_SEED) $(IV_JOBS) $$(@D)
$(TB_DIR)/iv_$(1)/tb.vvp: testbench/tb_s24_core_iv.v $(RTL_CORE_SRCS) rtl/s24.f
	@mkdir -p $$(@D)
	$(IVERILOG) -g2005 -Wall -Wno-timescale -I rtl -o $$@ -s tb_s24_core_iv -Ptb_s24_core_iv.NumRows=$(2) \
	  -Ptb_s24_core_iv.NumCols=$(3) -Ptb_s24_core_iv.SparseN=$(4) -Ptb_s24_core_iv.SparseM=$(5) \
	  -c rtl/s24.f testbench/tb_s24_core_iv.v
.PHONY: test-core-iv-$(1)
test-core-iv-$(1): $(TB_DIR)/iv_$(1)/tb.vvp $(TB_DIR)/iv_$(1)/sizes.hex
	timeout 600 vvp -n $$< +vec=$(TB_DIR)/iv_$(1) +seed=$(TB_SEED) > $(TB_DIR)/iv_$(1)/test.log 2>&1 || { cat $(TB_DIR)/iv_$(1)/test.log; exit 1; }
	@grep -q "^[1-9][0-9]* passed, 0 failed" $(TB_DIR)/iv_$(1)/test.log || { cat $(TB_DIR)/iv_$(1)/test.log; exit 1; }
	@tail -n 2 $(TB_DIR)/iv_$(1)/test.log | tr '\n' ' ' | sed 's/^/test-core-iv: /'; echo
endef
$(foreach c,$(IV_CFGS),$(eval $(call IV_CFG_RULES,$(c),$(word 1,$(call tb_words,$(c))),$(word 2,$(call tb_words,$(c))),$(word 3,$(call tb_words,$(c))),$(word 4,$(call tb_words,$(c))))))

.PHONY: test-core-iv
test-core-iv: $(foreach c,$(IV_CFGS),test-core-iv-$(c))
TESTS += test-core-iv
