# SPDX-License-Identifier: Apache-2.0
# fuzz: libFuzzer harnesses (clang-14, ASan + UBSan) of the file loaders.
#   make fuzz [FUZZ_SECONDS=N]   every harness for N seconds (default 330: both together pass 10^7 executions even on the shared 2-core machine), from the committed
#                                seed corpus plus what earlier runs found (build/fuzz/<h>/corpus);
#                                prints executions per harness; any crash fails the target and
#                                leaves the input in build/fuzz/<h>/crash-*
#   make fuzz-smoke              each harness for FUZZ_SMOKE_SECONDS (part of `make test`)
# Harnesses: fuzz_npy (tools/npy.c reader), fuzz_meta (metadata validator, decompress, sparse
# GEMM and cycle model of a compressed operand, cmodel/), fuzz_linear (`sparse24 linear`'s
# per-channel parameter loader, tools/npy.c, and the fused layer's arithmetic it feeds, cmodel/),
# fuzz_tflite (the .tflite reader, runtime/s24_tflite.c: every pointer of a parsed model read in
# full, the header's invariants checked), fuzz_ops (the host kernels, runtime/s24_ops.c, on every
# parsed model: s24_op_check on each host operator, s24_op_run in exact-size buffers on each one
# it accepts). Seeds: fuzz/corpus/<h>/ (fuzz_tflite's ops_all_options*.tflite, an operator of
# every options table the reader parses, and fuzz_ops' one model per host operator kind, are
# written by fuzz/tflite_seeds.py).

FUZZ_DIR      := $(BUILD)/fuzz
FUZZ_CC       := clang-14
FUZZ_HARNESSES := fuzz_npy fuzz_meta fuzz_linear fuzz_tflite fuzz_ops
FUZZ_SECONDS  ?= 330
FUZZ_SMOKE_SECONDS ?= 3
FUZZ_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L
FUZZ_CFLAGS += -Wall -Wextra -Werror               # same warnings policy as the gcc build
FUZZ_CFLAGS += -g -O1                              # libFuzzer's recommended optimisation
FUZZ_CFLAGS += -fsanitize=fuzzer,address,undefined # coverage-guided, ASan, UBSan
FUZZ_CFLAGS += -fno-sanitize-recover=all           # any UB report is a crash
FUZZ_CFLAGS += -fno-omit-frame-pointer
FUZZ_CFLAGS += -Itools $(MODEL_INC)
# libFuzzer options for every run: no leak-check noise from the harness itself, short reports
FUZZ_RUN_OPTS := -print_final_stats=1 -timeout=10 -rss_limit_mb=1024
# longest input per harness (FUZZ_MAX_LEN_<h> overrides): .tflite seeds are up to 8 KB
FUZZ_MAX_LEN  := 4096
FUZZ_MAX_LEN_fuzz_tflite := 16384
FUZZ_MAX_LEN_fuzz_ops := 16384

# the .npy reader opens the fuzz input from memory (s24_fuzz_fopen, fuzz/fuzz_file.c)
$(FUZZ_DIR)/bin/npy_fuzz.o: tools/npy.c tools/npy.h fuzz/fuzz.mk
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -D_GNU_SOURCE -c tools/npy.c -Dfopen=s24_fuzz_fopen -o $@
$(FUZZ_DIR)/bin/fuzz_npy $(FUZZ_DIR)/bin/fuzz_linear: $(FUZZ_DIR)/bin/%: fuzz/%.c fuzz/fuzz_file.c fuzz/fuzz_file.h $(FUZZ_DIR)/bin/npy_fuzz.o $(MODEL_SRCS) cmodel/s24_model.h tests/linear/gemmlowp_ref.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(MODEL_INC) -D_GNU_SOURCE $< fuzz/fuzz_file.c $(FUZZ_DIR)/bin/npy_fuzz.o $(MODEL_SRCS) -o $@
$(FUZZ_DIR)/bin/fuzz_meta: fuzz/fuzz_meta.c $(MODEL_SRCS) cmodel/s24_model.h fuzz/fuzz.mk
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(MODEL_INC) $< $(MODEL_SRCS) -o $@
# the .tflite reader, then the network loader over what it read (the checks of every operator,
# the memory planner) in a bounded arena
$(FUZZ_DIR)/bin/fuzz_tflite: fuzz/fuzz_tflite.c $(RUNTIME_SRCS) $(MODEL_SRCS) $(DRV_CORE_SRCS) fuzz/fuzz.mk
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(RUNTIME_INC) $< $(RUNTIME_SRCS) $(MODEL_SRCS) $(DRV_CORE_SRCS) -lm -o $@
# the host kernels over the reader
$(FUZZ_DIR)/bin/fuzz_ops: fuzz/fuzz_ops.c $(RUNTIME_SRCS) $(MODEL_SRCS) $(DRV_CORE_SRCS) fuzz/fuzz.mk
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(RUNTIME_INC) $< $(RUNTIME_SRCS) $(MODEL_SRCS) $(DRV_CORE_SRCS) -lm -o $@

# $(1) harness, $(2) seconds, $(3) target name
define FUZZ_RUN
	@mkdir -p $(FUZZ_DIR)/$(1)/corpus
	@echo "$(3): $(1) for $(2) s"
	@cd $(FUZZ_DIR)/$(1) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ../bin/$(1) $(FUZZ_RUN_OPTS) -max_len=$(or $(FUZZ_MAX_LEN_$(1)),$(FUZZ_MAX_LEN)) -max_total_time=$(2) -artifact_prefix=./ corpus $(CURDIR)/fuzz/corpus/$(1) \
	  > run.log 2>&1 || { tail -n 60 run.log; echo "$(3): $(1) FAILED (input saved in $(FUZZ_DIR)/$(1)/)"; exit 1; }
	@echo "$(3): $(1): $$$$(awk '/number_of_executed_units/ {print $$$$2}' $(FUZZ_DIR)/$(1)/run.log) executions in $(2) s, \
	$$$$(awk '/average_exec_per_sec/ {print $$$$2}' $(FUZZ_DIR)/$(1)/run.log)/s, \
	corpus $$$$(ls $(FUZZ_DIR)/$(1)/corpus | wc -l) new + $$$$(ls fuzz/corpus/$(1) | wc -l) seeds, 0 crashes" | tee $(FUZZ_DIR)/$(1)/summary.txt
endef

.PHONY: fuzz fuzz-smoke $(addprefix fuzz-run-,$(FUZZ_HARNESSES)) $(addprefix fuzz-smoke-,$(FUZZ_HARNESSES))
$(foreach h,$(FUZZ_HARNESSES),$(eval fuzz-run-$(h): $(FUZZ_DIR)/bin/$(h) ; $(call FUZZ_RUN,$(h),$(FUZZ_SECONDS),fuzz)))
$(foreach h,$(FUZZ_HARNESSES),$(eval fuzz-smoke-$(h): $(FUZZ_DIR)/bin/$(h) ; $(call FUZZ_RUN,$(h),$(FUZZ_SMOKE_SECONDS),fuzz-smoke)))
fuzz: $(addprefix fuzz-run-,$(FUZZ_HARNESSES))
	@cat $(addsuffix /summary.txt,$(addprefix $(FUZZ_DIR)/,$(FUZZ_HARNESSES))) | \
	  awk '{n += $$3} END {print "fuzz: " n " executions in total, 0 crashes"}'
fuzz-smoke: $(addprefix fuzz-smoke-,$(FUZZ_HARNESSES))

TESTS += fuzz-smoke
