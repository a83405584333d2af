# rtl: the s24_core sources (rtl/s24.f lists them in compile order) and `make lint`.
RTL_CORE_SRCS := $(shell cat rtl/s24.f 2>/dev/null)
# Configurations linted (each generate branch: sparse m = 2/4/8, n = 1, dense)
LINT_CFGS := 4:4:2:4 2:2:4:4 8:8:2:8 3:5:1:4 1:1:1:2 2:2:2:2
LINT_WAIVERS := $(wildcard rtl/lint_waivers.vlt)

.PHONY: lint lint-core
lint: lint-core
lint-core:
	@for c in $(LINT_CFGS); do \
	  set -- $$(echo $$c | tr ':' ' '); \
	  echo "lint: s24_core NumRows=$$1 NumCols=$$2 SparseN=$$3 SparseM=$$4"; \
	  verilator --lint-only -Wall -Irtl $(LINT_WAIVERS) --top-module s24_core -GNumRows=$$1 -GNumCols=$$2 \
	    -GSparseN=$$3 -GSparseM=$$4 -f rtl/s24.f || exit 1; \
	  verilator --lint-only -Wall -Irtl $(LINT_WAIVERS) -DFORMAL --assert --top-module s24_core -GNumRows=$$1 \
	    -GNumCols=$$2 -GSparseN=$$3 -GSparseM=$$4 -f rtl/s24.f || exit 1; \
	done
