# driver: register map generation, host driver library, software device, UIO backend,
# Verilator co-simulation library, and their tests (cmocka mock, end-to-end swdev and RTL).
# Other fragments use DRV_LIB, DRV_INC, COSIM_LIB and COSIM_LDLIBS.

# ---------------------------------------------------------------- register map (one table)
REGS_TABLE := regs/s24_regs.toml
REGS_OUT   := rtl/s24_regs.vh driver/s24_regs.h docs/registers.md

.PHONY: regs regs-check
# Regenerates the committed register outputs from the table
regs:
	$(PYTHON) scripts/gen_regs.py $(REGS_TABLE) --vh rtl/s24_regs.vh --h driver/s24_regs.h --md docs/registers.md

# Regenerates into build/ and fails if the committed outputs differ from the table
regs-check:
	@mkdir -p $(BUILD)/regs
	$(PYTHON) scripts/gen_regs.py $(REGS_TABLE) --vh $(BUILD)/regs/s24_regs.vh --h $(BUILD)/regs/s24_regs.h --md $(BUILD)/regs/registers.md
	diff -u rtl/s24_regs.vh $(BUILD)/regs/s24_regs.vh
	diff -u driver/s24_regs.h $(BUILD)/regs/s24_regs.h
	diff -u docs/registers.md $(BUILD)/regs/registers.md
	@# a broken table is refused with a one-line error naming the register, and writes nothing
	@sed 's/^offset = 0x04$$/offset = 0x00/' $(REGS_TABLE) >$(BUILD)/regs/bad_dup.toml
	@sed 's/lsb = 16, width = 16/lsb = 8, width = 16/' $(REGS_TABLE) >$(BUILD)/regs/bad_overlap.toml
	@for t in dup:"VERSION: offset 0x00 already used" overlap:"VERSION.MAJOR: overlaps"; do \
	  f=$(BUILD)/regs/bad_$${t%%:*}.toml; rm -f $(BUILD)/regs/bad.vh; \
	  if $(PYTHON) scripts/gen_regs.py $$f --vh $(BUILD)/regs/bad.vh --h $(BUILD)/regs/bad.h --md $(BUILD)/regs/bad.md 2>$(BUILD)/regs/err.txt; then \
	    echo "regs-check: $$f accepted"; exit 1; fi; \
	  grep -qF "$${t#*:}" $(BUILD)/regs/err.txt || { echo "regs-check: wrong message: $$(cat $(BUILD)/regs/err.txt)"; exit 1; }; \
	  [ ! -e $(BUILD)/regs/bad.vh ] || { echo "regs-check: output written for a bad table"; exit 1; }; \
	done
	@echo "regs-check: 5 passed, 0 failed"

# ---------------------------------------------------------------- driver library
DRV_INC  := -Idriver $(MODEL_INC)
DRV_LIB  := $(BUILD)/driver/libs24drv.a
DRV_SRCS := driver/s24_drv.c driver/s24_swdev.c driver/s24_uio.c
DRV_OBJS := $(DRV_SRCS:driver/%.c=$(BUILD)/driver/%.o)
# the same sources with sanitizers, for tests
DRV_SAN_OBJS := $(DRV_SRCS:driver/%.c=$(BUILD)/driver/san/%.o)

ALL += $(DRV_LIB)

$(BUILD)/driver/%.o: driver/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DRV_INC) -c $< -o $@

$(BUILD)/driver/san/%.o: driver/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) $(DRV_INC) -c $< -o $@

$(DRV_LIB): $(DRV_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# ---------------------------------------------------------------- co-simulation library
# The Verilated s24_top, one build per array configuration R:C:n:m under build/cosim_<R>x<C>_<n>of<m>/.
# COSIM_CFG picks the one build/sparse24 links (default 8:8:2:4), e.g. make COSIM_CFG=4:4:4:4.
COSIM_CFG    ?= 8:8:2:4
cosim_name    = $(word 1,$(subst :, ,$(1)))x$(word 2,$(subst :, ,$(1)))_$(word 3,$(subst :, ,$(1)))of$(word 4,$(subst :, ,$(1)))
cosim_gparams = -GNumRows=$(word 1,$(subst :, ,$(1))) -GNumCols=$(word 2,$(subst :, ,$(1))) -GSparseN=$(word 3,$(subst :, ,$(1))) -GSparseM=$(word 4,$(subst :, ,$(1)))
COSIM_DIR    := $(BUILD)/cosim_$(call cosim_name,$(COSIM_CFG))
COSIM_LIB    := $(COSIM_DIR)/libs24cosim.a
COSIM_LDLIBS := -lz -lpthread -lstdc++ -latomic -lm
VERILATOR    ?= verilator
VERILATOR_ROOT_DIR := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
RTL_FILES    := $(shell cat rtl/s24.f 2>/dev/null)
COSIM_VFLAGS := --cc --prefix Vs24_top --top-module s24_top
COSIM_VFLAGS += -Irtl                    # s24_regs.vh
COSIM_VFLAGS += --trace-fst              # --trace FILE.fst support
COSIM_VFLAGS += -O3 --x-assign fast --x-initial fast  # speed
COSIM_VFLAGS += -Wno-fatal               # lint is `make lint`'s job; warnings still print
COSIM_VFLAGS += -CFLAGS -fPIC            # the archive links into PIE executables
COSIM_CXXFLAGS := -std=c++17 -O2 -g -Wall -Wextra -Werror -fPIC
COSIM_CXXFLAGS += -faligned-new          # Verilator needs it
COSIM_CXXFLAGS += -Idriver $(MODEL_INC) -Itestbench
COSIM_CXXFLAGS += -isystem $(VERILATOR_ROOT_DIR)/include -isystem $(VERILATOR_ROOT_DIR)/include/vltstd

# The Verilator runtime (C++ sources shipped with Verilator), shared by every configuration
COSIM_RT_SRCS := verilated.cpp verilated_fst_c.cpp verilated_threads.cpp
COSIM_RT_OBJS := $(COSIM_RT_SRCS:%.cpp=$(BUILD)/cosim_rt/%.o)
$(BUILD)/cosim_rt/%.o: $(VERILATOR_ROOT_DIR)/include/%.cpp
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -O2 -fPIC -faligned-new -DVM_TRACE=1 -DVM_TRACE_FST=1 -I$(VERILATOR_ROOT_DIR)/include -I$(VERILATOR_ROOT_DIR)/include/vltstd -c $< -o $@

# $(1) configuration R:C:n:m, $(2) its directory, $(3) extra Verilator flags
define COSIM_RULES
$(2)/vobj/Vs24_top.mk: $(RTL_FILES) rtl/s24_regs.vh rtl/s24.f driver/driver.mk
	@mkdir -p $$(@D)
	$(VERILATOR) $(COSIM_VFLAGS) $(3) $(call cosim_gparams,$(1)) -Mdir $$(@D) $(RTL_FILES) >$(2)/verilate.log 2>&1 || (cat $(2)/verilate.log; exit 1)

$(2)/vobj/Vs24_top__ALL.a: $(2)/vobj/Vs24_top.mk
	+$(MAKE) --no-print-directory -s -C $(2)/vobj -f Vs24_top.mk Vs24_top__ALL.a OPT_FAST=-O2 OPT_SLOW=-O1 >/dev/null

$(2)/s24_cosim.o: driver/s24_cosim.cpp driver/s24_cosim.h driver/s24_drv.h testbench/testb.h $(2)/vobj/Vs24_top__ALL.a
	$(CXX) $(COSIM_CXXFLAGS) -I$(2)/vobj -c $$< -o $$@

# One archive: the wrapper, the Verilated model and the Verilator runtime
$(2)/libs24cosim.a: $(2)/s24_cosim.o $(2)/vobj/Vs24_top__ALL.a $(COSIM_RT_OBJS)
	rm -f $$@
	printf 'create $$@\naddlib $(2)/vobj/Vs24_top__ALL.a\nsave\nend\n' | ar -M
	ar rs $$@ $(2)/s24_cosim.o $(COSIM_RT_OBJS)

$(2)/test_e2e_rtl: tests/cosim/e2e.c $(DRV_LIB) $(2)/libs24cosim.a $(MODEL_LIB)
	$(CC) $(CFLAGS) -DS24_E2E_RTL $(DRV_INC) $$(filter %.c %.o %.a,$$^) $(COSIM_LDLIBS) -o $$@
endef

# the default build plus the ones test-cosim-long runs on; those are built with the `ifdef
# FORMAL assertion tails of the core and the top live (a firing one fails the run)
COSIM_LONG_CFGS := 4:4:4:4 3:5:1:4 2:4:2:8
$(foreach c,$(sort $(COSIM_CFG) $(COSIM_LONG_CFGS)),$(eval $(call COSIM_RULES,$(c),$(BUILD)/cosim_$(call cosim_name,$(c)),$(if $(filter $(c),$(COSIM_LONG_CFGS)),--assert -DFORMAL))))

ALL += $(COSIM_LIB)

# ---------------------------------------------------------------- tests
TESTS += regs-check test-driver test-swdev test-cosim
.PHONY: test-driver test-swdev test-cosim test-cosim-long cosim-speed

DRV_TEST_BIN := $(BUILD)/driver/test_drv
$(DRV_TEST_BIN): tests/driver/test_drv.c $(DRV_SAN_OBJS) $(MODEL_LIB)
	$(CC) $(CFLAGS) $(SANFLAGS) $(DRV_INC) $(filter %.c %.o %.a,$^) -lcmocka -o $@

# cmocka: register sequences and error paths against a mock seam (sanitizers on)
test-driver: $(DRV_TEST_BIN)
	$(DRV_TEST_BIN)

SWDEV_TEST_BIN := $(BUILD)/driver/test_e2e_swdev
$(SWDEV_TEST_BIN): tests/cosim/e2e.c $(DRV_SAN_OBJS) $(MODEL_LIB)
	$(CC) $(CFLAGS) $(SANFLAGS) $(DRV_INC) $(filter %.c %.o %.a,$^) -o $@

# Random GEMMs through the driver on the software device, bit-exact vs the model, for arrays
# of every kind (sparse 2:4, 1:4, 2:8, 1:2, dense 4:4; odd sizes): the driver's packing rules
SWDEV_CFGS := 8:8:2:4 3:5:1:4 4:4:4:4 2:3:2:8 5:2:1:2 1:1:2:4
test-swdev: $(SWDEV_TEST_BIN)
	@for c in $(SWDEV_CFGS); do \
	  log=$(BUILD)/driver/swdev_$$c.log; \
	  $(SWDEV_TEST_BIN) +cases=300 +cfg=$$c $(if $(SEED),+seed=$(SEED)) >$$log 2>&1 || { cat $$log; exit 1; }; \
	  head -n 1 $$log; tail -n 1 $$log; \
	done

COSIM_TEST_BIN := $(COSIM_DIR)/test_e2e_rtl

COSIM_PROTO_BIN := $(COSIM_DIR)/test_proto_rtl
$(COSIM_PROTO_BIN): tests/cosim/proto.c $(DRV_LIB) $(COSIM_LIB) $(MODEL_LIB)
	$(CC) $(CFLAGS) $(DRV_INC) $(filter %.c %.o %.a,$^) $(COSIM_LDLIBS) -o $@

AXIL_TB_BIN := $(COSIM_DIR)/tb_axil
$(AXIL_TB_BIN): tests/cosim/tb_axil.cpp driver/s24_regs.h testbench/testb.h $(COSIM_DIR)/vobj/Vs24_top__ALL.a $(COSIM_RT_OBJS)
	$(CXX) $(COSIM_CXXFLAGS) -I$(COSIM_DIR)/vobj $< $(COSIM_DIR)/vobj/Vs24_top__ALL.a $(COSIM_RT_OBJS) -lz -lpthread -latomic -o $@

# Co-simulation: the AXI4-Lite slave under random overlapping traffic, register/protocol/error tests, then random GEMMs on the Verilated top with
# random stream gaps, result backpressure and AXI4-Lite ordering, bit-exact vs the model
test-cosim: $(AXIL_TB_BIN) $(COSIM_PROTO_BIN) $(COSIM_TEST_BIN)
	$(AXIL_TB_BIN) +txns=20000 $(if $(SEED),+seed=$(SEED))
	$(COSIM_PROTO_BIN) $(if $(SEED),+seed=$(SEED))
	$(COSIM_TEST_BIN) +cases=1000 +bp=30 $(if $(SEED),+seed=$(SEED))

# Longer co-simulation: more random cases on the default build, then other arrays (dense 4:4,
# odd 3x5 1:4, 2:8), each Verilated separately (about a minute of compilation each)
LONG_TESTS += test-cosim-long
COSIM_LONG_BINS := $(foreach c,$(COSIM_LONG_CFGS),$(BUILD)/cosim_$(call cosim_name,$(c))/test_e2e_rtl)
test-cosim-long: $(COSIM_TEST_BIN) $(COSIM_LONG_BINS)
	$(COSIM_TEST_BIN) +cases=3000 +bp=30 $(if $(SEED),+seed=$(SEED))
	$(COSIM_TEST_BIN) +cases=1000 +bp=0 $(if $(SEED),+seed=$(SEED))
	@for b in $(COSIM_LONG_BINS); do $$b +cases=500 +bp=20 $(if $(SEED),+seed=$(SEED)) || exit 1; done

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

# Simulated cycles per second of the co-simulation on one 256x2048x64 2:4 GEMM (a measurement)
bench: cosim-speed
cosim-speed: $(BUILD)/sparse24
	tests/cosim/speed.sh $(BUILD)/sparse24 $(BUILD)/cosim_speed

# ---------------------------------------------------------------- lint of the top
# s24_top (with the core) in several configurations, plain and with the FORMAL tails
TOP_LINT_CFGS := 8:8:2:4 4:4:4:4 3:5:1:4 2:2:2:8 1:1:1:2
.PHONY: lint-top
lint: lint-top
lint-top:
	@for c in $(TOP_LINT_CFGS); do \
	  set -- $$(echo $$c | tr ':' ' '); \
	  echo "lint: s24_top NumRows=$$1 NumCols=$$2 SparseN=$$3 SparseM=$$4"; \
	  for f in "" "-DFORMAL --assert"; do \
	    verilator --lint-only -Wall -Irtl rtl/lint_waivers.vlt $$f --top-module s24_top -GNumRows=$$1 \
	      -GNumCols=$$2 -GSparseN=$$3 -GSparseM=$$4 -f rtl/s24.f || exit 1; \
	  done; \
	done

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
