# sparse24 top-level Makefile. Targets are the README's verbs; every output goes under build/.
# Each part of the project adds its own rules in <part>/<part>.mk (included below) and appends
# its test targets to TESTS (run by `make test`) and LONG_TESTS (run by `make test-long`).

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

.PHONY: all deps demo test test-long lint synth wave bench clean
all: $(BUILD)/sparse24

# Installs missing Debian packages (idempotent; fast when present)
deps:
	@scripts/deps.sh

include $(sort $(wildcard */*.mk))

all: $(ALL)

# Every test target runs after deps; `make -j2 test` runs them two at a time.
test: deps
	@$(MAKE) --no-print-directory $(TESTS)
	@echo "make test: all test targets passed ($(words $(TESTS)) targets)"

test-long: deps
	@$(MAKE) --no-print-directory $(TESTS) $(LONG_TESTS)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
