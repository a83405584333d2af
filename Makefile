# SPDX-License-Identifier: Apache-2.0
# sparse24 top-level Makefile. Targets are the README's verbs; every output goes under build/.
# Each part of the project adds its own rules in <part>/*.mk (included below, in the order of
# PARTS) and appends its test targets to TESTS (run by `make test`) and LONG_TESTS (`make test-long`).

.DELETE_ON_ERROR:
.SUFFIXES:
.SECONDARY:

BUILD    := build
CC       := gcc
CXX      := g++
PYTHON   := python3
# The venv of scripts/deps.sh (PyPI tools: LiteRT, scikit-learn, FuseSoC, YoWASP Yosys); its python
VENV     := $(shell scripts/deps.sh --venv-path)
VPYTHON  := $(VENV)/bin/python

# The rtl backend: the Verilated co-simulation (yes), or a build without Verilator (no; the
# command and the library then refuse `--backend rtl` with one message)
S24_RTL  ?= yes

# C flags shared by every C part
CFLAGS   := -std=c11
CFLAGS   += -Wall -Wextra -Werror          # warnings are errors
CFLAGS   += -O2 -g                         # optimised, with symbols
CFLAGS   += -D_POSIX_C_SOURCE=200809L      # mkstemp, fdopen, clock_gettime
CFLAGS   += -MMD -MP                       # header dependency tracking
# The same flags plus sanitizers, for test binaries
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

TESTS      :=
LONG_TESTS :=
ALL        :=

# An array configuration has one spelling everywhere in make: R:C:n:m (NumRows:NumCols:SparseN:
# SparseM, e.g. 8:8:2:4), or R:C:n:m:0 for a 2:m core built without the pair mode (PairMode = 0,
# the "2:4-only" core). These derive everything else from it.
cfg_word    = $(word $(2),$(subst :, ,$(1)))
# directory and target names: 8x8_2of4 (8x8_2of4_only with PairMode = 0)
cfg_name    = $(call cfg_word,$(1),1)x$(call cfg_word,$(1),2)_$(call cfg_word,$(1),3)of$(call cfg_word,$(1),4)$(if $(call cfg_word,$(1),5),_only)
# Verilator/Icarus parameter overrides of s24_core and s24_top
cfg_gparams = -GNumRows=$(call cfg_word,$(1),1) -GNumCols=$(call cfg_word,$(1),2) -GSparseN=$(call cfg_word,$(1),3) -GSparseM=$(call cfg_word,$(1),4)$(if $(call cfg_word,$(1),5), -GPairMode=$(call cfg_word,$(1),5))
# the C++ testbench's compile-time configuration
cfg_cdefs   = -DS24_R=$(call cfg_word,$(1),1) -DS24_C=$(call cfg_word,$(1),2) -DS24_N=$(call cfg_word,$(1),3) -DS24_M=$(call cfg_word,$(1),4)$(if $(call cfg_word,$(1),5), -DS24_PAIR=$(call cfg_word,$(1),5))

.PHONY: all deps demo test test-long lint synth wave bench clean
all: $(BUILD)/sparse24

# Installs missing Debian packages (idempotent; fast when present)
deps:
	@scripts/deps.sh

# One rule for every C object and one for every static library of the parts; a part names its
# include flags with a pattern-specific variable ($(BUILD)/<part>/%.o: INC := ...) and its
# library's objects as the library's prerequisites
$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(INC) -c $< -o $@

$(BUILD)/%.a:
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# The parts, each after every part whose names it uses at parse time (in a rule's prerequisites or
# a := value); scripts/check_mk.py checks that order (test-make). A part's own fragments are read
# in name order.
PARTS := regs cmodel driver rtl sim testbench runtime lib tools python tests net coverage fuzz formal synth soc
MK_UNLISTED := $(filter-out $(PARTS),$(patsubst %/,%,$(dir $(wildcard */*.mk))))
$(if $(MK_UNLISTED),$(error Makefile: add $(MK_UNLISTED) to PARTS))
include $(foreach p,$(PARTS),$(sort $(wildcard $(p)/*.mk)))

# every make variable is defined before a fragment expands it at parse time
.PHONY: test-make
test-make:
	$(PYTHON) scripts/check_mk.py $(PARTS)
TESTS += test-make

# every source carries its SPDX line (LICENSE: Apache-2.0); generated ones from their generator
.PHONY: test-spdx
test-spdx:
	$(PYTHON) scripts/spdx.py --check
TESTS += test-spdx

all: $(ALL)

# Every test target runs after deps; `make -j2 test` runs them two at a time.
test: deps
	@$(MAKE) --no-print-directory $(TESTS)
	@echo "make test: all test targets passed ($(words $(TESTS)) targets)"

test-long: deps
	@$(MAKE) --no-print-directory $(TESTS) $(LONG_TESTS)

clean:
	rm -rf $(BUILD)

# Header dependencies of our own objects (-MMD -MP), each file once; build/vlt/ holds Verilator's
# generated models, whose make files track their own
-include $(shell find $(BUILD) -name '*.d' -not -path '$(BUILD)/vlt/*' 2>/dev/null)
