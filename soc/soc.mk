# SPDX-License-Identifier: Apache-2.0
# soc: the edge system (issue 51, docs/soc.md): a LiteX SoC (VexRiscv, SDRAM, UART, timer, s24_top
# with its stream rings) simulated by Verilator, and its firmware built bare-metal with picolibc.
#   make soc          the SoC's Verilog (soc/soc.py), its simulator build/soc/soc_sim (Verilator,
#                     with soc/sim/soc_sim.cpp), the boot stub and the firmware (build/soc/fw/*.elf)
#   make soc-test     (in make test) the firmware's check on the simulated SoC: GEMMs and fused
#                     layers through the unmodified driver, bit-exact with the C model, cycles printed
# Everything it writes is under build/soc/. SOC_TRACE=1 builds the simulator with FST tracing
# (soc_sim --trace FILE.fst). Other fragments use SOC_SIM, SOC_BOOT, SOC_FW.

SOC_DIR   := $(BUILD)/soc
SOC_GEN   := $(SOC_DIR)/gen
SOC_FWDIR := $(SOC_DIR)/fw
SOC_SIM   := $(SOC_DIR)/soc_sim
SOC_BOOT  := $(SOC_DIR)/boot.bin
SOC_TRACE ?= 0
SOC_PY    := soc/soc.py soc/s24_stream.py
SOC_MAXCYC ?= 200000000

# ---------------------------------------------------------------- the SoC's Verilog and headers
$(SOC_GEN)/sources.f: $(SOC_PY) $(RTL_FILES) $(wildcard rtl/*.vh) rtl/s24.f regs/s24_regs.toml
	@scripts/deps.sh
	@mkdir -p $(@D)
	$(VPYTHON) soc/soc.py --target sim --out $(@D) >$(@D)/soc.log 2>&1 || { tail -30 $(@D)/soc.log; exit 1; }

# ---------------------------------------------------------------- the simulator
# Verilator flags of the SoC's model, one a line
SOC_VFLAGS := --cc --exe                   # C++ model and our main (soc/sim/soc_sim.cpp)
SOC_VFLAGS += -O3 --x-assign fast --x-initial fast   # speed, as the co-simulation's model
SOC_VFLAGS += -Wno-fatal                   # LiteX's Verilog warns (COMBDLY, WIDTH...): not ours to lint
SOC_VFLAGS += --top-module sim -Irtl       # LiteX's top; s24_regs.vh and the other includes
SOC_VFLAGS += $(if $(filter 1,$(SOC_TRACE)),--trace-fst)
# C++ optimisation of the generated model (LiteX's litex_sim builds at -O0 by default: 5-10x slower)
SOC_VOPT   := OPT_FAST=-O3 OPT_SLOW=-O1 OPT_GLOBAL=-O2

$(SOC_DIR)/vobj/Vsim.mk: $(SOC_GEN)/sources.f soc/soc.mk
	@mkdir -p $(@D)
	$(VERILATOR) $(SOC_VFLAGS) -f $(SOC_GEN)/sources.f $(abspath soc/sim/soc_sim.cpp) \
	  -CFLAGS "-std=c++17 -I$(abspath $(SOC_GEN))" -LDFLAGS "-lz" -Mdir $(@D) -o soc_sim \
	  >$(@D)/verilate.log 2>&1 || { tail -30 $(@D)/verilate.log; exit 1; }
	touch $@   # Verilator skips its run (and leaves the old file) when nothing it reads changed

# (Verilator's make file rebuilds only soc_sim.o when the harness changes)
$(SOC_SIM): $(SOC_DIR)/vobj/Vsim.mk soc/sim/soc_sim.cpp
	+$(MAKE) --no-print-directory -s -C $(SOC_DIR)/vobj -f Vsim.mk $(SOC_VOPT) VM_PARALLEL_BUILDS=1 >$(SOC_DIR)/vobj/build.log 2>&1 \
	  || { tail -30 $(SOC_DIR)/vobj/build.log; exit 1; }
	cp $(SOC_DIR)/vobj/soc_sim $@.tmp && mv -f $@.tmp $@   # a running simulator keeps its copy

# ---------------------------------------------------------------- firmware (bare metal, picolibc)
SOC_CC     := riscv64-unknown-elf-gcc
SOC_OBJCOPY := riscv64-unknown-elf-objcopy
# C flags of everything the firmware links, one a line
SOC_CFLAGS := --specs=picolibc.specs       # picolibc's headers, crt0, libc and linker script
SOC_CFLAGS += -march=rv32im -mabi=ilp32    # VexRiscv "standard": RV32IM
SOC_CFLAGS += -std=c11 -Wall -Wextra -Werror   # the project's C, warnings are errors
SOC_CFLAGS += -O2 -g                       # with symbols; runtime/s24_ops.c at -Os (below)
SOC_CFLAGS += -ffunction-sections -fdata-sections   # with the linker's --gc-sections (picolibc.specs)
SOC_CFLAGS += -MMD -MP                     # header dependencies
# picolibc's hosted start-up: exit(main()), so returning from main reaches soc_rt.c's _exit (the
# default crt0 loops forever after main)
SOC_LDFLAGS := --crt0=hosted
SOC_INC    := -Isoc/firmware/include -Isoc/firmware $(DRV_INC) -isystem $(SOC_GEN)/software/include
# The parts the firmware compiles from the repository, unmodified
SOC_LIBSRC := $(MODEL_SRCS) driver/s24_drv.c driver/baremetal/s24_mmio.c driver/host/s24_drv_host.c
SOC_RTSRC  := soc/firmware/soc_rt.c soc/firmware/soc_mem.c soc/firmware/s24_soc_seam.c
# soc_mem.c is memset/memcpy/memmove: the compiler must not turn its loops into calls to them
$(SOC_FWDIR)/soc/firmware/soc_mem.o: SOC_CFLAGS += -fno-builtin -fno-tree-loop-distribute-patterns
SOC_FW     := $(SOC_FWDIR)/s24test.elf $(SOC_FWDIR)/s24test_long.elf $(SOC_FWDIR)/s24job.elf \
              $(SOC_FWDIR)/membench.elf $(SOC_FWDIR)/hello.elf $(SOC_FWDIR)/s24run.elf \
              $(SOC_FWDIR)/simspeed.elf $(SOC_FWDIR)/simspeed_ip.elf $(SOC_FWDIR)/trap.elf \
              $(SOC_FWDIR)/gemmfast.elf $(SOC_FWDIR)/s24run_nodrain.elf

$(SOC_FWDIR)/%.o: %.c $(SOC_GEN)/sources.f
	@mkdir -p $(@D)
	$(SOC_CC) $(SOC_CFLAGS) $(SOC_INC) $(INCX) -c $< -o $@

$(SOC_FWDIR)/%.elf: $(SOC_FWDIR)/soc/firmware/%.o $(SOC_RTSRC:%.c=$(SOC_FWDIR)/%.o) $(SOC_LIBSRC:%.c=$(SOC_FWDIR)/%.o)
	$(SOC_CC) $(SOC_CFLAGS) $(SOC_LDFLAGS) -Wl,-Map=$(@:.elf=.map) $^ $(SOC_LDLIBS) -o $@
	riscv64-unknown-elf-size $@ >$(@:.elf=.size)

# The network firmware of `sparse24 run --backend soc` (s24run.c): the freestanding runtime as it is,
# with the warnings of the rest (-Werror), and libm (expf, round, ...)
$(SOC_FWDIR)/runtime/%.o: runtime/%.c $(SOC_GEN)/sources.f
	@mkdir -p $(@D)
	$(SOC_CC) $(SOC_CFLAGS) $(SOC_INC) -Iruntime -c $< -o $@
$(SOC_FWDIR)/soc/firmware/s24run.o: INCX := -Iruntime -Ilib   # the job format, lib/s24_soc_job.h
# the host operators at -Os, the rest at -O2: the README's magic wand 2:4 2,065,619 cycles this way,
# 2,362,074 all at -Os; all at -O2 was slower than all at -Os on kws (the 4 KiB I$; docs/results.md)
$(SOC_FWDIR)/runtime/s24_ops.o: SOC_CFLAGS += -Os
# and the code every array tile runs (the driver's tile loop, the seam, its MMIO) at -Os: kws 2:4
# 13,758,884 -> 13,189,999 cycles, ic 2:4 19,394,143 -> 18,782,886 (fewer I$ refills a tile)
$(SOC_FWDIR)/driver/s24_drv.o $(SOC_FWDIR)/driver/baremetal/s24_mmio.o: SOC_CFLAGS += -Os
$(SOC_FWDIR)/soc/firmware/s24_soc_seam.o $(SOC_FWDIR)/fault/s24_soc_seam.o: SOC_CFLAGS += -Os
$(SOC_FWDIR)/s24run.elf: $(RUNTIME_CORE_SRCS:%.c=$(SOC_FWDIR)/%.o)
$(SOC_FWDIR)/s24run.elf: SOC_LDLIBS := -lm

# A fault firmware for soc/tests/faults.sh: s24run whose seam never hands the rings' reader engines
# a descriptor (SOC_FAULT_NO_DESC), so the IP never takes a beat of what the CPU queued
SOC_NODRAIN_OBJ := $(SOC_FWDIR)/soc/firmware/s24run.o $(SOC_FWDIR)/soc/firmware/soc_rt.o \
  $(SOC_FWDIR)/soc/firmware/soc_mem.o $(SOC_FWDIR)/fault/s24_soc_seam.o \
  $(SOC_LIBSRC:%.c=$(SOC_FWDIR)/%.o) $(RUNTIME_CORE_SRCS:%.c=$(SOC_FWDIR)/%.o)
$(SOC_FWDIR)/fault/s24_soc_seam.o: soc/firmware/s24_soc_seam.c $(SOC_GEN)/sources.f
	@mkdir -p $(@D)
	$(SOC_CC) $(SOC_CFLAGS) -DSOC_FAULT_NO_DESC $(SOC_INC) -c $< -o $@
$(SOC_FWDIR)/s24run_nodrain.elf: $(SOC_NODRAIN_OBJ)
	$(SOC_CC) $(SOC_CFLAGS) $(SOC_LDFLAGS) $^ -lm -o $@

# s24test.c with the long list of cases (make soc-test-long)
$(SOC_FWDIR)/soc/firmware/s24test_long.o: soc/firmware/s24test.c $(SOC_GEN)/sources.f
	@mkdir -p $(@D)
	$(SOC_CC) $(SOC_CFLAGS) -DS24TEST_LONG $(SOC_INC) -c $< -o $@

# simspeed.c with the IP busy (make soc-speed)
$(SOC_FWDIR)/soc/firmware/simspeed_ip.o: soc/firmware/simspeed.c $(SOC_GEN)/sources.f
	@mkdir -p $(@D)
	$(SOC_CC) $(SOC_CFLAGS) -DSIMSPEED_IP $(SOC_INC) -c $< -o $@

# The boot stub in the ROM (soc/firmware/boot.S, with the SoC's boot_seq.h)
$(SOC_BOOT): soc/firmware/boot.S $(SOC_GEN)/sources.f
	$(SOC_CC) -march=rv32im -mabi=ilp32 -nostdlib -nostartfiles -I$(SOC_GEN) -Wl,-Ttext=0 -Wl,-e,_boot $< -o $(SOC_DIR)/boot.elf
	$(SOC_OBJCOPY) -O binary $(SOC_DIR)/boot.elf $@

.PHONY: soc soc-test soc-test-long soc-bench soc-speed soc-synth soc-fast soc-networks soc-zoo soc-profile
soc: $(SOC_SIM) $(SOC_BOOT) $(SOC_FW)

# the firmware's own check (GEMMs and fused layers vs the C model compiled into it), then jobs
# from the host through soc/run.py vs the command's model backend
soc-test: soc $(BUILD)/sparse24
	$(SOC_SIM) --rom $(SOC_BOOT) --elf $(SOC_FWDIR)/s24test.elf --max-cycles $(SOC_MAXCYC) --stats
	$(VPYTHON) soc/tests/run_check.py $(BUILD)
	@# the harness's other endings: a trap is a crash (4), a budget run out a timeout (2)
	@$(SOC_SIM) --rom $(SOC_BOOT) --elf $(SOC_FWDIR)/trap.elf --uart /dev/null 2>$(SOC_DIR)/trap.err; rc=$$?; \
	  grep -q "trapped (mcause 2)" $(SOC_DIR)/trap.err && [ $$rc = 4 ] || { echo "soc-test: trap: exit $$rc"; cat $(SOC_DIR)/trap.err; exit 1; }
	@$(SOC_SIM) --rom $(SOC_BOOT) --elf $(SOC_FWDIR)/hello.elf --max-cycles 1000 --uart /dev/null 2>/dev/null; rc=$$?; \
	  [ $$rc = 2 ] || { echo "soc-test: timeout: exit $$rc"; exit 1; }
	@echo "soc-test: a trap exits 4, a budget run out 2"
TESTS += soc-test

# whole inferences through `sparse24 run --backend soc` (SPEC §9): a small CNN built by the repo
# (soc/tests/small_models.py) dense and 2:4 on the IP and dense on the CPU alone, and a model
# nobody here wrote (TFLite Micro's magic wand, 2:4), byte for byte against LiteRT, cycles
# printed; then the new path's faults (soc/tests/faults.sh); then ADD and SUB models on the add
# unit, their float input's QUANTIZE on the quantize unit (soc/tests/op_cases.py)
SOC_SMALL := $(SOC_DIR)/small
soc-test-net: soc $(BUILD)/sparse24
	$(VPYTHON) soc/tests/small_models.py $(SOC_SMALL) --seed 51
	$(NET_PYENV) $(VPYTHON) soc/tests/networks.py $(BUILD)/sparse24 $(SOC_SMALL) $(SOC_SMALL)/run \
	  --models s24_cnn --rows dense/soc,2:4/soc,dense/soc-cpu --inputs 2 --seed 9
	$(NET_PYENV) $(VPYTHON) soc/tests/networks.py $(BUILD)/sparse24 $(ZOO_MODELS_DIR) $(SOC_SMALL)/zoo \
	  --models tflite_micro_magic_wand --rows 2:4/soc --inputs 1 --seed 10
	PY=$(VPYTHON) soc/tests/faults.sh $(BUILD)/sparse24 $(SOC_SMALL)/faults $(SOC_SMALL)/s24_cnn.tflite $(SOC_FWDIR)
	@# ADD and SUB of two activations on the IP's add unit (random shapes, scales, activations)
	rm -rf $(SOC_SMALL)/addpair
	$(VPYTHON) tests/net/ops_models.py $(SOC_SMALL)/addpair --only addpair --per-op 8 --batch 2 --seed 52
	$(VPYTHON) soc/tests/op_cases.py $(BUILD)/sparse24 $(SOC_SMALL)/addpair --need-ip ADD,SUB
	@# FLOAT32 -> int8 QUANTIZE on the quantize unit (random scales, ties at the .5 steps, NaN,
	@# infinities and huge values, which the CPU finishes: s24_seam_t.stream_quant's *done)
	rm -rf $(SOC_SMALL)/quantize
	$(VPYTHON) tests/net/ops_models.py $(SOC_SMALL)/quantize --only quantize --per-op 12 --batch 2 --seed 53
	$(VPYTHON) soc/tests/op_cases.py $(BUILD)/sparse24 $(SOC_SMALL)/quantize --need-ip QUANTIZE
.PHONY: soc-test-net
TESTS += soc-test-net

soc-test-long: soc $(BUILD)/sparse24
	$(SOC_SIM) --rom $(SOC_BOOT) --elf $(SOC_FWDIR)/s24test_long.elf --max-cycles $(SOC_MAXCYC) --stats
	$(VPYTHON) soc/tests/run_check.py $(BUILD) --long
	$(VPYTHON) soc/tests/small_models.py $(SOC_SMALL) --seed 51
	SOC_FAULTS_LONG=1 PY=$(VPYTHON) soc/tests/faults.sh $(BUILD)/sparse24 $(SOC_SMALL)/faults-long $(SOC_SMALL)/s24_cnn.tflite $(SOC_FWDIR)
LONG_TESTS += soc-test-long

# what the memory system delivers (docs/soc.md "Bandwidth"): build/soc/membench.txt
soc-bench: soc
	$(SOC_SIM) --rom $(SOC_BOOT) --elf $(SOC_FWDIR)/membench.elf --max-cycles $(SOC_MAXCYC) --stats \
	  >$(SOC_DIR)/membench.txt 2>&1 || { cat $(SOC_DIR)/membench.txt; exit 1; }
	cat $(SOC_DIR)/membench.txt

# a GEMM with its operands packed word by word, once, into the rings (a measurement prototype,
# docs/soc.md): build/soc/gemmfast.txt
soc-fast: soc
	$(SOC_SIM) --rom $(SOC_BOOT) --elf $(SOC_FWDIR)/gemmfast.elf --max-cycles $(SOC_MAXCYC) --stats \
	  >$(SOC_DIR)/gemmfast.txt 2>&1 || { cat $(SOC_DIR)/gemmfast.txt; exit 1; }
	cat $(SOC_DIR)/gemmfast.txt

# make soc-networks (issue 51): the MLPerf Tiny models as whole inferences on the simulated SoC,
# `sparse24 run --backend soc` (2:4 and dense weights, array layers on the IP) and `--backend
# soc-cpu` (dense, everything on VexRiscv), each output byte for byte against LiteRT's reference
# kernels: build/soc/results.csv (one row a model and variant, kept when done: resumable; rm it to
# start over), results_detail.csv, and the table and plot (results.md, soc_networks.png, by
# soc/tests/report.py). Long: hours of simulation. SOC_MODELS and SOC_ROWS choose.
SOC_MODELS ?= ad,kws,ic,vww
SOC_ROWS   ?= 2:4/soc,dense/soc,dense/soc-cpu
soc-networks: soc $(BUILD)/sparse24
	$(NET_PYENV) $(VPYTHON) soc/tests/networks.py $(BUILD)/sparse24 $(TFLITE_MODELS) $(SOC_DIR)/networks \
	  --models $(SOC_MODELS) --rows $(SOC_ROWS) --csv $(SOC_DIR)/results.csv --record $(SOC_RECORD)
	$(VPYTHON) soc/tests/report.py $(SOC_DIR)/results.csv $(SOC_DIR)

# the zoo of issue 50 (twelve int8 models nobody here wrote) pruned to 2:4 on the IP, byte for byte
# against LiteRT: build/soc/zoo.csv (resumable like soc-networks)
SOC_COMMA := ,
SOC_EMPTY :=
SOC_ZOO_MODELS ?= $(subst $(SOC_EMPTY) $(SOC_EMPTY),$(SOC_COMMA),$(sort $(basename $(notdir $(wildcard $(ZOO_MODELS_DIR)/*.tflite)))))
soc-zoo: soc $(BUILD)/sparse24
	$(NET_PYENV) $(VPYTHON) soc/tests/networks.py $(BUILD)/sparse24 $(ZOO_MODELS_DIR) $(SOC_DIR)/zoo \
	  --models $(SOC_ZOO_MODELS) --rows 2:4/soc --csv $(SOC_DIR)/zoo.csv --record $(SOC_RECORD)

# where one inference's cycles go, by firmware function (docs/results.md): SOC_PROFILE_MODEL at 2:4
SOC_PROFILE_MODEL ?= tflite_micro_magic_wand
soc-profile: soc $(BUILD)/sparse24
	$(NET_PYENV) $(VPYTHON) soc/tests/profile_net.py $(BUILD)/sparse24 $(ZOO_MODELS_DIR) $(SOC_PROFILE_MODEL) \
	  2:4 $(SOC_FWDIR)/s24run.elf $(SOC_DIR)/profile

# the simulator's speed, the IP idle and the IP busy: build/soc/speed.txt
soc-speed: soc
	@for fw in simspeed simspeed_ip; do \
	  echo "== $$fw"; $(SOC_SIM) --rom $(SOC_BOOT) --elf $(SOC_FWDIR)/$$fw.elf --max-cycles $(SOC_MAXCYC) --stats 2>&1; \
	done >$(SOC_DIR)/speed.txt
	cat $(SOC_DIR)/speed.txt

# ---------------------------------------------------------------- place and route (docs/soc.md)
# make soc-synth: the SoC for the ULX3S's ECP5-85 pads through Yosys and nextpnr-ecp5 (the venv's
# YoWASP tools), SOC_SEEDS placer seeds (median Fmax per clock), SOC_SYNTH_JOBS at a time; resumable
# (a seed already placed for the same netlist is kept); the record -> synth/records/soc/ecp5_ulx3s.json
# nextpnr's router1: the one that routed the SoC (router2 oscillated at hundreds to thousands of
# overused wires on every seed tried; docs/soc.md)
SOC_SEEDS      ?= 1,2,3
SOC_SYNTH_JOBS ?= 1
SOC_ROUTER     ?= router1
soc-synth:
	@scripts/deps.sh --synth
	@scripts/deps.sh
	$(VPYTHON) soc/synth.py --out $(BUILD)/soc-synth --seeds $(SOC_SEEDS) --jobs $(SOC_SYNTH_JOBS) \
	  --router $(SOC_ROUTER)
