# SPDX-License-Identifier: Apache-2.0
# tests/baremetal.mk: the freestanding parts (cmodel/, the driver's core and its MMIO seam,
# runtime/) built for a RISC-V soft CPU with Debian's riscv64-unknown-elf gcc and picolibc
# (rv32im, ilp32, -Os, -Wall -Wextra -Werror: the SoC's VexRiscv), each object with its stack
# frames (-fstack-usage) and call graph (-fcallgraph-info=su), then linked into a firmware-shaped
# program (tests/baremetal/check.c) with --gc-sections: `make test-baremetal` prints its code
# size, the largest stack frames and the worst-case stack depth from main (scripts/stack_report.py,
# indirect calls named), and fails on a warning, an undefined symbol, recursion or a depth above
# BM_MAX_STACK.

BM_DIR       := $(BUILD)/baremetal
BM_CC        := riscv64-unknown-elf-gcc
BM_SIZE      := riscv64-unknown-elf-size
BM_NM        := riscv64-unknown-elf-nm
BM_CFLAGS    := -march=rv32im -mabi=ilp32       # VexRiscv: RV32IM
BM_CFLAGS    += -Os                              # size: the soft CPU's memory
BM_CFLAGS    += -std=c11 -Wall -Wextra -Werror   # the project's flags
BM_CFLAGS    += --specs=picolibc.specs           # picolibc's headers and start-up
BM_CFLAGS    += -ffunction-sections -fdata-sections  # unused functions dropped at link
BM_CFLAGS    += -fstack-usage -fcallgraph-info=su    # frames and call graph per object
BM_INC       := -Iinclude -Icmodel -Idriver -Idriver/baremetal -Iruntime
# picolibc's linker script with the memory of the SoC (main RAM at 0x40000000)
BM_LDFLAGS   := -Wl,--gc-sections -Wl,--defsym=__flash=0x40000000 -Wl,--defsym=__flash_size=0x400000 \
                -Wl,--defsym=__ram=0x40400000 -Wl,--defsym=__ram_size=0x400000
BM_SRCS      := $(MODEL_SRCS) $(DRV_CORE_SRCS) $(DRV_MMIO_SRCS) $(RUNTIME_CORE_SRCS) tests/baremetal/check.c
BM_OBJS      := $(patsubst %.c,$(BM_DIR)/%.o,$(BM_SRCS))
BM_MAX_STACK ?= 8192

$(BM_DIR)/%.o: %.c
	@mkdir -p $(@D)
	$(BM_CC) $(BM_CFLAGS) $(BM_INC) -c $< -o $@

$(BM_DIR)/check.elf: $(BM_OBJS)
	$(BM_CC) $(BM_CFLAGS) $(BM_LDFLAGS) $^ -o $@

.PHONY: test-baremetal
test-baremetal: $(BM_DIR)/check.elf scripts/stack_report.py
	@bad=$$($(BM_NM) -u $(filter-out $(BM_DIR)/tests/%,$(BM_OBJS)) | grep -wE 'malloc|calloc|realloc|free|aligned_alloc|fopen|fprintf|printf|puts|fwrite' || true); \
	  if [ -n "$$bad" ]; then echo "test-baremetal: the freestanding parts reference $$bad"; exit 1; fi; \
	  echo "test-baremetal: cmodel, driver and runtime reference no allocator and no stdio stream"
	@$(BM_SIZE) $< | tee $(BM_DIR)/size.txt
	@$(BM_NM) $< > $(BM_DIR)/nm.txt
	@echo "test-baremetal: code $$(awk 'NR == 2 {print $$1}' $(BM_DIR)/size.txt) bytes of text (rv32im -Os, gc-sections: cmodel, driver + MMIO seam, runtime, picolibc's share)"
	$(PYTHON) scripts/stack_report.py $< $(BM_DIR)/nm.txt $(patsubst %.o,%.ci,$(BM_OBJS)) --max-depth $(BM_MAX_STACK)

TESTS += test-baremetal
