# SPDX-License-Identifier: Apache-2.0
# testbench: Verilator C++ testbenches of s24_core (one Verilated model per configuration,
# built by sim/sim.mk's VERILATE with the shared runtime), linked with the C model.
#   make test-core          all configurations, default tile counts (part of `make test`)
#   make test-core-long     5x the random tile operations on 3 seeds (part of `make test-long`)
#   make wave TEST=<name>   FST of one test on the 4x4 2:4 core; GTKWave if a display exists
# Configurations are R:C:n:m; their builds and targets are named <R>x<C>_<n>of<m>.

TB_DIR      := $(BUILD)/testbench

# Configurations (2:4 2x2, 4x4, 8x8; 1:4; 2:8; dense baselines 4:4 and 2:2), each with its random
# tile operations in `make test` (>= 2,000 per pattern in total), as R:C:n:m=TILES
TB_RUNS     := 2:2:2:4=1000 4:4:2:4=800 8:8:2:4=400 4:4:1:4=1200 3:5:1:4=1000 4:4:2:8=1200 \
               2:3:2:8=1000 2:2:4:4=500 4:4:2:2=500 3:5:2:4=800 4:4:2:4:0=400
TB_CFGS     := $(foreach r,$(TB_RUNS),$(word 1,$(subst =, ,$(r))))
tb_tiles     = $(word 2,$(subst =, ,$(filter $(1)=%,$(TB_RUNS))))
TB_SEED     ?= 1
TB_LONG_MUL := 5
TB_LONG_SEEDS := 101 202 303

# Verilator: FST tracing compiled in and the `ifdef FORMAL assertions enabled
TB_VFLAGS := --assert -DFORMAL            # immediate assertions in the `ifdef FORMAL tails
TB_VFLAGS += --x-assign unique --x-initial unique  # X: random values, not a convenient 0
TB_VFLAGS += -Wno-lint -Wno-style          # lint is `make lint`'s job
# C++ of the generated models: -O1 keeps each build short
TB_OPT    := OPT_FAST=-O1 OPT_SLOW=-O0
# Testbench C++
TB_CXXFLAGS := $(VLT_CXXFLAGS)
TB_CXXFLAGS += -O1 -g                      # quick to build, debuggable
TB_CXXFLAGS += -Wno-unused-parameter       # generated model headers
TB_CXXFLAGS += $(SIM_INC) $(MODEL_INC)     # testb.h, s24_model.h, s24_layout.h

$(foreach c,$(TB_CFGS),$(eval $(call VERILATE,s24_core,$(c),$(BUILD)/vlt/s24_core_$(call cfg_name,$(c)),$(TB_VFLAGS),$(TB_OPT))))

# $(1) configuration R:C:n:m, $(2) its name, $(3) its Verilated model's directory
define TB_CFG_RULES
$(TB_DIR)/$(2)/tb_s24_core: testbench/tb_s24_core.cpp $(3)/Vs24_core__ALL.a $(VLT_RT_OBJS) $(MODEL_LIB)
	@mkdir -p $$(@D)
	$(CXX) $(TB_CXXFLAGS) $(call cfg_cdefs,$(1)) -I$(3) $$< $(3)/Vs24_core__ALL.a $(VLT_RT_OBJS) $(MODEL_LIB) $(VLT_LDLIBS) -o $$@
.PHONY: test-core-$(2) test-core-long-$(2)
test-core-$(2): $(TB_DIR)/$(2)/tb_s24_core
	$$< +seed=$(TB_SEED) +tiles=$(call tb_tiles,$(1)) > $(TB_DIR)/$(2)/test.log 2>&1 || { cat $(TB_DIR)/$(2)/test.log; exit 1; }
	@grep -E "tile operations|passed" $(TB_DIR)/$(2)/test.log | tr '\n' ' ' | sed 's/^/test-core: /'; echo
test-core-long-$(2): $(TB_DIR)/$(2)/tb_s24_core
	@for s in $(TB_LONG_SEEDS); do \
	  echo "$$< +seed=$$$$s +tiles=$$$$(( $(call tb_tiles,$(1)) * $(TB_LONG_MUL) ))"; \
	  $$< +seed=$$$$s +tiles=$$$$(( $(call tb_tiles,$(1)) * $(TB_LONG_MUL) )) > $(TB_DIR)/$(2)/test-long.log 2>&1 || { cat $(TB_DIR)/$(2)/test-long.log; exit 1; }; \
	  grep -E "tile operations|passed" $(TB_DIR)/$(2)/test-long.log | tr '\n' ' ' | sed "s/^/test-core-long (seed $$$$s): /"; echo; \
	done
endef
$(foreach c,$(TB_CFGS),$(eval $(call TB_CFG_RULES,$(c),$(call cfg_name,$(c)),$(BUILD)/vlt/s24_core_$(call cfg_name,$(c)))))
TB_NAMES := $(foreach c,$(TB_CFGS),$(call cfg_name,$(c)))

.PHONY: test-core test-core-long tb-core test-core-assert
tb-core: $(foreach c,$(TB_NAMES),$(TB_DIR)/$(c)/tb_s24_core)
test-core: $(foreach c,$(TB_NAMES),test-core-$(c)) test-core-assert
# The RTL assertions are live: a stream-protocol violation must stop the simulation
test-core-assert: $(TB_DIR)/4x4_2of4/tb_s24_core
	$< +seed=$(TB_SEED) +test=protocol_violation_caught > $(TB_DIR)/4x4_2of4/assert.log 2>&1 || { cat $(TB_DIR)/4x4_2of4/assert.log; exit 1; }
	@grep -q "Assertion failed" $(TB_DIR)/4x4_2of4/assert.log || { cat $(TB_DIR)/4x4_2of4/assert.log; exit 1; }
	@echo "test-core-assert: $$(grep -m1 'Assertion failed' $(TB_DIR)/4x4_2of4/assert.log | cut -c1-100)... caught as expected"
test-core-long: $(foreach c,$(TB_NAMES),test-core-long-$(c))

TESTS      += test-core
LONG_TESTS += test-core-long

# make wave TEST=<name>: dump build/waves/<name>.fst from the 4x4 2:4 core, open GTKWave if possible
WAVE_CFG ?= 4:4:2:4
.PHONY: wave-dump wave-shot
wave-dump: $(TB_DIR)/$(call cfg_name,$(WAVE_CFG))/tb_s24_core
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

# ---------------------------------------------------------------- Icarus on model vectors
# Configurations (R:C:n:m) run under iverilog -g2005, and the number of jobs for each
IV_CFGS := 4:4:2:4 2:3:2:8 3:2:1:4 3:5:2:4
IV_JOBS := 40
IVERILOG := iverilog
TB_GEN   := $(TB_DIR)/gen_vectors

$(TB_GEN): testbench/gen_vectors.c $(MODEL_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(MODEL_INC) $< $(MODEL_LIB) -o $@

# $(1) configuration R:C:n:m, $(2) its name
define IV_CFG_RULES
$(TB_DIR)/iv_$(2)/sizes.hex: $(TB_GEN)
	@mkdir -p $$(@D)
	$(TB_GEN) $(subst :, ,$(1)) $(TB_SEED) $(IV_JOBS) $$(@D)
$(TB_DIR)/iv_$(2)/tb.vvp: testbench/tb_s24_core_iv.v $(RTL_FILES) rtl/s24.f
	@mkdir -p $$(@D)
	$(IVERILOG) -g2005 -Wall -Wno-timescale -I rtl -o $$@ -s tb_s24_core_iv \
	  $(subst -G,-Ptb_s24_core_iv.,$(call cfg_gparams,$(1))) -c rtl/s24.f testbench/tb_s24_core_iv.v
.PHONY: test-core-iv-$(2)
test-core-iv-$(2): $(TB_DIR)/iv_$(2)/tb.vvp $(TB_DIR)/iv_$(2)/sizes.hex
	timeout 600 vvp -n $$< +vec=$(TB_DIR)/iv_$(2) +seed=$(TB_SEED) > $(TB_DIR)/iv_$(2)/test.log 2>&1 || { cat $(TB_DIR)/iv_$(2)/test.log; exit 1; }
	@grep -q "^[1-9][0-9]* passed, 0 failed" $(TB_DIR)/iv_$(2)/test.log || { cat $(TB_DIR)/iv_$(2)/test.log; exit 1; }
	@tail -n 2 $(TB_DIR)/iv_$(2)/test.log | tr '\n' ' ' | sed 's/^/test-core-iv: /'; echo
endef
$(foreach c,$(IV_CFGS),$(eval $(call IV_CFG_RULES,$(c),$(call cfg_name,$(c)))))

.PHONY: test-core-iv
test-core-iv: $(foreach c,$(IV_CFGS),test-core-iv-$(call cfg_name,$(c)))
TESTS += test-core-iv
