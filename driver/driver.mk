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
	@echo "regs-check: 3 passed, 0 failed"

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
# The Verilated s24_top; pick another array with e.g. make COSIM_PARAMS="-GNumRows=4 ...".
COSIM_PARAMS ?= -GNumRows=8 -GNumCols=8 -GSparseN=2 -GSparseM=4
COSIM_DIR    := $(BUILD)/cosim
COSIM_VDIR   := $(COSIM_DIR)/vobj
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
COSIM_CXXFLAGS += -Idriver $(MODEL_INC) -Itestbench -I$(COSIM_VDIR)
COSIM_CXXFLAGS += -isystem $(VERILATOR_ROOT_DIR)/include -isystem $(VERILATOR_ROOT_DIR)/include/vltstd

$(COSIM_VDIR)/Vs24_top.mk: $(RTL_FILES) rtl/s24_regs.vh rtl/s24.f driver/driver.mk
	@mkdir -p $(@D)
	$(VERILATOR) $(COSIM_VFLAGS) $(COSIM_PARAMS) -Mdir $(COSIM_VDIR) $(RTL_FILES) >$(COSIM_DIR)/verilate.log 2>&1 || (cat $(COSIM_DIR)/verilate.log; exit 1)

$(COSIM_VDIR)/Vs24_top__ALL.a: $(COSIM_VDIR)/Vs24_top.mk
	$(MAKE) --no-print-directory -s -C $(COSIM_VDIR) -f Vs24_top.mk Vs24_top__ALL.a OPT_FAST=-O2 OPT_SLOW=-O1 >/dev/null

# The Verilator runtime (C++ sources shipped with Verilator)
COSIM_RT_SRCS := verilated.cpp verilated_fst_c.cpp verilated_threads.cpp
COSIM_RT_OBJS := $(COSIM_RT_SRCS:%.cpp=$(COSIM_DIR)/rt/%.o)
$(COSIM_DIR)/rt/%.o: $(VERILATOR_ROOT_DIR)/include/%.cpp
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -O2 -fPIC -faligned-new -DVM_TRACE=1 -DVM_TRACE_FST=1 -I$(VERILATOR_ROOT_DIR)/include -I$(VERILATOR_ROOT_DIR)/include/vltstd -c $< -o $@

$(COSIM_DIR)/s24_cosim.o: driver/s24_cosim.cpp driver/s24_cosim.h driver/s24_drv.h testbench/testb.h $(COSIM_VDIR)/Vs24_top__ALL.a
	$(CXX) $(COSIM_CXXFLAGS) -c $< -o $@

# One archive: the wrapper, the Verilated model and the Verilator runtime
$(COSIM_LIB): $(COSIM_DIR)/s24_cosim.o $(COSIM_VDIR)/Vs24_top__ALL.a $(COSIM_RT_OBJS)
	rm -f $@
	printf 'create $@\naddlib $(COSIM_VDIR)/Vs24_top__ALL.a\nsave\nend\n' | ar -M
	ar rs $@ $(COSIM_DIR)/s24_cosim.o $(COSIM_RT_OBJS)

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

# Random GEMMs through the driver on the software device, bit-exact vs the model
test-swdev: $(SWDEV_TEST_BIN)
	$(SWDEV_TEST_BIN) +cases=300 $(if $(SEED),+seed=$(SEED))

COSIM_TEST_BIN := $(COSIM_DIR)/test_e2e_rtl
$(COSIM_TEST_BIN): tests/cosim/e2e.c $(DRV_LIB) $(COSIM_LIB) $(MODEL_LIB)
	$(CC) $(CFLAGS) -DS24_E2E_RTL $(DRV_INC) $(filter %.c %.o %.a,$^) $(COSIM_LDLIBS) -o $@

COSIM_PROTO_BIN := $(COSIM_DIR)/test_proto_rtl
$(COSIM_PROTO_BIN): tests/cosim/proto.c $(DRV_LIB) $(COSIM_LIB) $(MODEL_LIB)
	$(CC) $(CFLAGS) $(DRV_INC) $(filter %.c %.o %.a,$^) $(COSIM_LDLIBS) -o $@

# Co-simulation: register/protocol/error tests, then random GEMMs on the Verilated top with
# random stream gaps, result backpressure and AXI4-Lite ordering, bit-exact vs the model
test-cosim: $(COSIM_PROTO_BIN) $(COSIM_TEST_BIN)
	$(COSIM_PROTO_BIN) $(if $(SEED),+seed=$(SEED))
	$(COSIM_TEST_BIN) +cases=1000 +bp=30 $(if $(SEED),+seed=$(SEED))

LONG_TESTS += test-cosim-long
test-cosim-long: $(COSIM_TEST_BIN)
	$(COSIM_TEST_BIN) +cases=1500 +bp=30 $(if $(SEED),+seed=$(SEED))
	$(COSIM_TEST_BIN) +cases=500 +bp=0 $(if $(SEED),+seed=$(SEED))

# Simulated cycles per second of the co-simulation (a measurement)
cosim-speed: $(COSIM_TEST_BIN)
	@/usr/bin/time -f "wall_seconds: %e" $(COSIM_TEST_BIN) +seed=1 +cases=0 2>&1 | grep -E "simulated cycles|wall_seconds|passed"

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
