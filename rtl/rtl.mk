# SPDX-License-Identifier: Apache-2.0
# rtl: the sources (rtl/s24.f lists them in compile order, the one file list every tool reads)
# and `make lint`. Other fragments use RTL_FILES.
RTL_FILES := $(shell cat rtl/s24.f 2>/dev/null)
# Configurations linted (each generate branch: sparse m = 2/4/8, n = 1, dense; pair mode on
# 2:4 and 2:8, and the 2:4-only core R:C:n:m:0 = PairMode 0)
LINT_CFGS := 4:4:2:4 2:2:4:4 8:8:2:8 3:5:1:4 1:1:1:2 2:2:2:2 3:5:2:4 4:4:2:4:0
LINT_WAIVERS := $(wildcard rtl/lint_waivers.vlt)

.PHONY: lint lint-core
lint: lint-core
lint-core:
	@for c in $(LINT_CFGS); do \
	  set -- $$(echo $$c | tr ':' ' '); \
	  echo "lint: s24_core NumRows=$$1 NumCols=$$2 SparseN=$$3 SparseM=$$4$${5:+ PairMode=$$5}"; \
	  verilator --lint-only -Wall -Irtl $(LINT_WAIVERS) --top-module s24_core -GNumRows=$$1 -GNumCols=$$2 \
	    -GSparseN=$$3 -GSparseM=$$4 $${5:+-GPairMode=$$5} -f rtl/s24.f || exit 1; \
	  verilator --lint-only -Wall -Irtl $(LINT_WAIVERS) -DFORMAL --assert --top-module s24_core -GNumRows=$$1 \
	    -GNumCols=$$2 -GSparseN=$$3 -GSparseM=$$4 $${5:+-GPairMode=$$5} -f rtl/s24.f || exit 1; \
	done

# Yosys 0.23 reads the same sources unchanged (elaboration of every linted configuration)
.PHONY: lint-core-yosys
lint: lint-core-yosys
lint-core-yosys:
	@for c in $(LINT_CFGS); do \
	  set -- $$(echo $$c | tr ':' ' '); \
	  echo "lint: yosys elaborates s24_core NumRows=$$1 NumCols=$$2 SparseN=$$3 SparseM=$$4$${5:+ PairMode=$$5}"; \
	  yosys -q -p "read_verilog -Irtl $$(tr '\n' ' ' < rtl/s24.f); chparam -set NumRows $$1 -set NumCols $$2 \
	    -set SparseN $$3 -set SparseM $$4 $${5:+-set PairMode $$5} s24_core; hierarchy -check -top s24_core; proc" || exit 1; \
	done

# Illegal parameter sets stop elaboration: Yosys fails; Icarus fails to elaborate (zero widths)
# or prints the reason and stops at time 0
RTL_BAD_PARAMS := 4:4:2:3 4:4:5:4 0:4:2:4 4:4:0:8
.PHONY: test-core-params
test-core-params:
	@mkdir -p $(BUILD)/rtl
	@n=0; for c in $(RTL_BAD_PARAMS); do \
	  set -- $$(echo $$c | tr ':' ' '); \
	  if yosys -q -p "read_verilog -Irtl $$(tr '\n' ' ' < rtl/s24.f); chparam -set NumRows $$1 -set NumCols $$2 \
	       -set SparseN $$3 -set SparseM $$4 s24_core; hierarchy -check -top s24_core" > $(BUILD)/rtl/params.log 2>&1; then \
	    echo "test-core-params: yosys accepted illegal R=$$1 C=$$2 n=$$3 m=$$4"; exit 1; fi; \
	  if iverilog -g2005 -I rtl -o $(BUILD)/rtl/params.vvp -s s24_core -Ps24_core.NumRows=$$1 -Ps24_core.NumCols=$$2 \
	       -Ps24_core.SparseN=$$3 -Ps24_core.SparseM=$$4 -c rtl/s24.f > $(BUILD)/rtl/params.log 2>&1; then \
	    vvp -n $(BUILD)/rtl/params.vvp > $(BUILD)/rtl/params.log 2>&1; \
	    grep -q "s24_core: illegal parameters" $(BUILD)/rtl/params.log || \
	      { cat $(BUILD)/rtl/params.log; echo "test-core-params: icarus did not stop R=$$1 C=$$2 n=$$3 m=$$4"; exit 1; }; \
	  fi; \
	  n=$$((n+1)); \
	done; echo "test-core-params: $$n illegal parameter sets rejected by yosys and icarus"; echo "$$n passed, 0 failed"
TESTS += test-core-params

# s24_top (with the core) in several configurations, plain and with the FORMAL tails
TOP_LINT_CFGS := 8:8:2:4 4:4:4:4 3:5:1:4 2:2:2:8 1:1:1:2
.PHONY: lint-top
lint: lint-top
lint-top:
	@for c in $(TOP_LINT_CFGS); do \
	  set -- $$(echo $$c | tr ':' ' '); \
	  echo "lint: s24_top NumRows=$$1 NumCols=$$2 SparseN=$$3 SparseM=$$4"; \
	  for f in "" "-DFORMAL --assert"; do \
	    verilator --lint-only -Wall -Irtl $(LINT_WAIVERS) $$f --top-module s24_top -GNumRows=$$1 \
	      -GNumCols=$$2 -GSparseN=$$3 -GSparseM=$$4 -f rtl/s24.f || exit 1; \
	  done; \
	done

# ---------------------------------------------------------------- FuseSoC core (sparse24.core)
# Its RTL file list is generated from rtl/s24.f (the one list): `make core` rewrites it,
# core-check fails if they differ (part of make test), fusesoc-lint runs the core's lint target
# through FuseSoC/Edalize (offline, the venv of scripts/deps.sh).
FUSESOC := $(VENV)/bin/fusesoc
.PHONY: core core-check fusesoc-lint
core:
	$(PYTHON) scripts/gen_core.py sparse24.core
core-check:
	@$(PYTHON) scripts/gen_core.py sparse24.core --check
fusesoc-lint: core-check
	@rm -rf $(BUILD)/fusesoc
	@mkdir -p $(BUILD)/fusesoc
	cd $(BUILD)/fusesoc && $(FUSESOC) --cores-root $(CURDIR) run --build-root $(CURDIR)/$(BUILD)/fusesoc \
	  --target lint sparse24:ip:sparse24 >lint.log 2>&1 || { cat lint.log; exit 1; }
	@echo "fusesoc-lint: target lint of sparse24:ip:sparse24 (verilator --lint-only -Wall, s24_top 8x8 2:4) passed"
TESTS += core-check fusesoc-lint

# The core's synth target (Edalize trellis flow: Yosys, nextpnr-ecp5, ecppack) on a small array,
# with the venv's YoWASP nextpnr-ecp5 and ecppack under the names Edalize calls
# (scripts/deps.sh --synth installs them). A check that the target runs, not a measurement:
# the Fmax figures come from make synth.
FUSESOC_SYNTH_ARGS ?= --NumRows=2 --NumCols=2
.PHONY: fusesoc-synth
fusesoc-synth: core-check
	@scripts/deps.sh --synth
	@rm -rf $(BUILD)/fusesoc-synth
	@mkdir -p $(BUILD)/fusesoc-synth/bin
	@for t in nextpnr-ecp5 ecppack; do \
	  printf '#!/bin/sh\nexec "%s" "$$@"\n' $(VENV)/bin/yowasp-$$t >$(BUILD)/fusesoc-synth/bin/$$t; \
	  chmod +x $(BUILD)/fusesoc-synth/bin/$$t; done
	cd $(BUILD)/fusesoc-synth && PATH=$(CURDIR)/$(BUILD)/fusesoc-synth/bin:$$PATH $(FUSESOC) --cores-root $(CURDIR) \
	  run --build-root $(CURDIR)/$(BUILD)/fusesoc-synth --target synth sparse24:ip:sparse24 $(FUSESOC_SYNTH_ARGS) \
	  >synth.log 2>&1 || { tail -n 30 synth.log; exit 1; }
	@grep -E "Max frequency for clock" $(BUILD)/fusesoc-synth/sparse24_ip_sparse24_0.1.0/synth/next.log | tail -n 1

# make test also fails on any lint warning (core and top, every configuration above)
TESTS += lint
