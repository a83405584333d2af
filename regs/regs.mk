# SPDX-License-Identifier: Apache-2.0
# regs: the register map, one table (regs/s24_regs.toml) generating the Verilog header, the C
# header of the driver and docs/registers.md (scripts/gen_regs.py), and the whole behaviour of
# its storage registers (store = true) in s24_top (rtl/s24_regs_store.vh) and the software device.

REGS_TABLE := regs/s24_regs.toml
REGS_OUT   := rtl/s24_regs.vh rtl/s24_regs_store.vh driver/s24_regs.h docs/registers.md rtl/s24_defaults.vh cmodel/s24_defaults.h \
              regs/s24_defaults.mk
# (regs/s24_defaults.mk, read by the Makefile with this part, gives the other parts
# S24_DEFAULT_CFG: the default build as R:C:n:m)

.PHONY: regs regs-check
# Regenerates the committed register outputs from the table
regs:
	$(PYTHON) scripts/gen_regs.py $(REGS_TABLE) --vh rtl/s24_regs.vh --h driver/s24_regs.h --md docs/registers.md --store-vh rtl/s24_regs_store.vh \
	  --defaults-vh rtl/s24_defaults.vh --defaults-h cmodel/s24_defaults.h --defaults-mk regs/s24_defaults.mk

# Regenerates into build/ and fails if the committed outputs differ from the table
regs-check:
	@mkdir -p $(BUILD)/regs
	$(PYTHON) scripts/gen_regs.py $(REGS_TABLE) --vh $(BUILD)/regs/s24_regs.vh --h $(BUILD)/regs/s24_regs.h --md $(BUILD)/regs/registers.md --store-vh $(BUILD)/regs/s24_regs_store.vh \
	  --defaults-vh $(BUILD)/regs/s24_defaults.vh --defaults-h $(BUILD)/regs/s24_defaults.h --defaults-mk $(BUILD)/regs/s24_defaults.mk
	diff -u rtl/s24_regs.vh $(BUILD)/regs/s24_regs.vh
	diff -u rtl/s24_regs_store.vh $(BUILD)/regs/s24_regs_store.vh
	diff -u driver/s24_regs.h $(BUILD)/regs/s24_regs.h
	diff -u docs/registers.md $(BUILD)/regs/registers.md
	diff -u rtl/s24_defaults.vh $(BUILD)/regs/s24_defaults.vh
	diff -u cmodel/s24_defaults.h $(BUILD)/regs/s24_defaults.h
	diff -u regs/s24_defaults.mk $(BUILD)/regs/s24_defaults.mk
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

TESTS += regs-check
