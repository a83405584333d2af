# SPDX-License-Identifier: Apache-2.0
# formal: SymbiYosys proofs of the leaf modules (FIFO, counter, input queue, metadata check,
# AXI4-Lite slave, result buffer, epilogue) and the top's register block (formal/*.sby), with
# the venv's YoWASP Yosys and Debian's CVC4 (formal/run_sby.sh), and mutants that must fail.
#   make formal          every task of every .sby, then the mutants; build/formal/results.md is the
#                        property x configuration x result table (docs/formal.md shows a run)
#   make formal-mutants  only the mutants (formal/mutants.sh)
#   make formal-quick    the proofs of the configurations the core uses, the epilogue's one-lane
#                        arithmetic (r5c2: operand, constant, rounded product, int8 lane) + the
#                        mutants (make test)
# s24_core (with s24_pe, s24_skew and the leaves inside, multipliers cut out): bounded only
# (core.sby, ABC bmc3, depth 28: whole small jobs), plus its reachability task.

FORMAL_DIR := $(BUILD)/formal
# <sby>:<task> of `make formal`
FORMAL_TASKS := fifo:prove_d2 fifo:prove_d4 fifo:prove_d8 fifo:misuse_d2 fifo:cover_d2 \
  cnt2:prove_full cnt2:prove_small cnt2:cover_small \
  inq:prove_full inq:prove_small inq:cover_small \
  meta_check:prove_2of4 meta_check:prove_1of4 meta_check:prove_3of4 meta_check:prove_2of8 \
  meta_check:prove_4of8 meta_check:prove_2of2 meta_check:cover_2of4 \
  axil_slave:prove_a8 axil_slave:prove_a4 axil_slave:cover_a8 \
  rbuf:prove_d4 rbuf:prove_d8 rbuf:cover_d4 \
  top:prove_2x2_2of4 top:cover_2x2_2of4 \
  epilogue:prove_r5c2_ctrl epilogue:prove_r5c2_opcst epilogue:prove_r5c2_rnd epilogue:prove_r5c2_lane \
  epilogue:prove_r4c2l2_ctrl epilogue:prove_r4c2l2_opcst epilogue:prove_r4c2l2_rnd epilogue:prove_r4c2l2_lane \
  epilogue:prove_r3c2p_ctrl epilogue:cover_r1c1 \
  core:bmc_2x2_2of4 core:bmc_2x2_2of4_only core:bmc_pair_2x2_2of4 core:reach_2x2_2of4 \
  core:reach_pair_2x2_2of4
# reachability tasks (formal/reach.sh: a cover written as an assertion that must FAIL with a trace)
FORMAL_REACH := core:reach_2x2_2of4 core:reach_pair_2x2_2of4
FORMAL_QUICK := fifo:prove_d2 fifo:misuse_d2 cnt2:prove_full inq:prove_small meta_check:prove_2of4 \
  meta_check:prove_2of8 axil_slave:prove_a8 rbuf:prove_d4 top:prove_2x2_2of4 \
  epilogue:prove_r5c2_opcst epilogue:prove_r5c2_rnd epilogue:prove_r5c2_lane
# the sources of every task (formal/run_sby.sh gives SymbiYosys the files of rtl/s24.f and the headers)
FORMAL_SRCS := $(wildcard formal/*.sby formal/*.sh) rtl/s24.f $(RTL_FILES) $(wildcard rtl/*.vh)

fv_sby  = $(word 1,$(subst :, ,$(1)))
fv_task = $(word 2,$(subst :, ,$(1)))

# one result file per task: build/formal/<sby>.<task>.result (the runner's line); a task of
# FORMAL_REACH runs through formal/reach.sh (it must fail on its "reach:" assertion), any other
# through formal/run_sby.sh
fv_runner = $(if $(filter $(1),$(FORMAL_REACH)),formal/reach.sh,formal/run_sby.sh)
$(FORMAL_DIR)/%.result: $(FORMAL_SRCS)
	@mkdir -p $(@D)
	@$(call fv_runner,$(subst .,:,$*)) formal $(call fv_sby,$(subst .,:,$*)).sby $(call fv_task,$(subst .,:,$*)) \
	  $(CURDIR)/$(FORMAL_DIR)/$(call fv_sby,$(subst .,:,$*)) > $@.tmp; rc=$$?; cat $@.tmp; \
	  if [ $$rc -ne 0 ]; then rm -f $@.tmp; echo "formal: see $(FORMAL_DIR)/$(call fv_sby,$(subst .,:,$*)).$(call fv_task,$(subst .,:,$*)).log"; exit 1; fi; \
	  mv $@.tmp $@

.PHONY: formal formal-mutants formal-quick formal-table
formal-mutants:
	@mkdir -p $(FORMAL_DIR)
	@formal/mutants.sh $(CURDIR)/$(FORMAL_DIR)/mut > $(FORMAL_DIR)/mutants.txt; rc=$$?; cat $(FORMAL_DIR)/mutants.txt; exit $$rc
formal: $(foreach t,$(FORMAL_TASKS),$(FORMAL_DIR)/$(subst :,.,$(t)).result)
	@$(MAKE) --no-print-directory formal-mutants
	@$(MAKE) --no-print-directory formal-table
	@echo "formal: $(words $(FORMAL_TASKS)) tasks passed, every mutant caught; table in $(FORMAL_DIR)/results.md"
formal-quick: $(foreach t,$(FORMAL_QUICK),$(FORMAL_DIR)/$(subst :,.,$(t)).result)
	@$(MAKE) --no-print-directory formal-mutants
formal-table:
	@formal/table.sh $(FORMAL_DIR) $(FORMAL_TASKS) > $(FORMAL_DIR)/results.md

TESTS += formal-quick
