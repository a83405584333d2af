# SPDX-License-Identifier: Apache-2.0
# tests/cocotb.mk: s24_top under a client written elsewhere (issue #51, "the IP as a bus citizen"):
# cocotb 1.8.1 and cocotbext-axi 0.1.28 (pinned in scripts/requirements.txt, in the venv of
# scripts/deps.sh) drive it under Icarus with AxiLiteMaster, AxiStreamSource and AxiStreamSink,
# random pauses on every channel; tests/cocotb/test_s24_top.py holds the 17 checks, expected results
# from the C golden model through build/sparse24. One Icarus build and one run per configuration.
#   make test-cocotb [SEED=N] [COCOTB_TESTCASE=name] [COCOTB_CFGS=2:2:2:4]

COCOTB_DIR  := $(BUILD)/cocotb
# the arrays it runs on (R:C:n:m; 2:m builds, the testbench packs 2:m weights)
COCOTB_CFGS ?= 8:8:2:4 2:2:2:4
COCOTB_PY   := tests/cocotb/test_s24_top.py tests/cocotb/s24_beats.py regs/s24_regs.toml

# $(1) a configuration: its Icarus build of s24_top itself (the test's Ports name its ports as
# cocotbext-axi looks them up; the time unit comes from the command file, as in cocotb's own flow)
# and its run
define COCOTB_RULES
$(COCOTB_DIR)/$(call cfg_name,$(1))/sim.vvp: $(RTL_FILES) $(wildcard rtl/*.vh)
	@mkdir -p $$(@D)
	@echo "+timescale+1ns/1ps" > $$(@D)/cmds.f
	iverilog -g2005 -o $$@ -c $$(@D)/cmds.f -I rtl -s s24_top \
	  $(subst -G,-Ps24_top.,$(call cfg_gparams,$(1))) $(RTL_FILES)

.PHONY: test-cocotb-$(call cfg_name,$(1))
test-cocotb-$(call cfg_name,$(1)): deps $(COCOTB_DIR)/$(call cfg_name,$(1))/sim.vvp $(BUILD)/sparse24 $(COCOTB_PY)
	@d=$(COCOTB_DIR)/$(call cfg_name,$(1)); rm -f $$$$d/results.xml; \
	  MODULE=test_s24_top TOPLEVEL=s24_top TOPLEVEL_LANG=verilog TESTCASE=$(COCOTB_TESTCASE) \
	  PYTHONPATH=tests/cocotb VIRTUAL_ENV=$(VENV) PATH=$(VENV)/bin:$$$$PATH \
	  LIBPYTHON_LOC=$$$$($(VENV)/bin/cocotb-config --libpython) COCOTB_RESULTS_FILE=$$$$d/results.xml \
	  S24_CFG=$(1) S24_SEED=$(SEED) S24_SPARSE24=$(BUILD)/sparse24 S24_WORK=$$$$d/work \
	  vvp -M $$$$($(VENV)/bin/cocotb-config --lib-dir) -m libcocotbvpi_icarus $$$$d/sim.vvp > $$$$d/log.txt 2>&1; \
	  $(VPYTHON) tests/cocotb/results.py $$$$d/results.xml $$$$d/log.txt "$(1)"
endef
$(foreach c,$(COCOTB_CFGS),$(eval $(call COCOTB_RULES,$(c))))

.PHONY: test-cocotb
test-cocotb: $(foreach c,$(COCOTB_CFGS),test-cocotb-$(call cfg_name,$(c)))

TESTS += test-cocotb
