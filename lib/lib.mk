# SPDX-License-Identifier: Apache-2.0
# lib: the public C API of include/sparse24.h (lib/s24_api.c), the one formatter of its texts
# (lib/s24_text.c) and the backend table (lib/s24_backend*.c), built with the parts under it into
#   build/lib/libsparse24.so  position-independent, the co-simulation (COSIM_LIB, built -fPIC by
#                             sim/sim.mk) linked in, exporting only s24_api_* and s24_strerror
#   build/lib/libsparse24.a   the same objects and COSIM_LIB in one archive; link it with
#                             $(COSIM_LDLIBS) -lm
# A build without Verilator (make S24_RTL=no) has the model backend only
# (lib/s24_backend_nortl.c: opening "rtl" fails with S24_ERR_UNSUPPORTED and a message).
# Other fragments use API_A, API_SO, API_LDLIBS (tools/, python/), API_INC and LIB_SRCS (the
# benchmark, which reaches into the backends).

API_SO      := $(BUILD)/lib/libsparse24.so
API_A       := $(BUILD)/lib/libsparse24.a
API_INC     := -Iinclude -Ilib -I$(BUILD)/lib/gen $(RUNTIME_INC) $(DRV_INC) $(SIM_INC)
# the soc backend's view of the build: where build/soc is, the SoC's placed clock (soc/build_h.py)
API_GEN_H   := $(BUILD)/lib/gen/s24_soc_build.h
SOC_RECORD  := synth/records/soc/ecp5_ulx3s.json
# the rtl backend, or its stand-in (S24_RTL is the Makefile's switch)
API_NORTL   := $(filter no,$(S24_RTL))
API_RTL_LIB := $(if $(API_NORTL),,$(COSIM_LIB))
API_LDLIBS  := $(if $(API_NORTL),,$(COSIM_LDLIBS)) -lm -pthread
# this part's sources: the public API, the one formatter of texts, the backend table
LIB_SRCS    := lib/s24_api.c lib/s24_text.c lib/s24_backend.c lib/s24_backend_soc.c lib/s24_soc.c \
               lib/s24_backend_$(if $(API_NORTL),nortl,rtl).c
# the library: this part and every part under it (the model, the driver, the network runtime)
API_LIB_SRCS := $(LIB_SRCS) $(MODEL_SRCS) $(DRV_SRCS) $(RUNTIME_SRCS)
API_PIC_OBJS := $(patsubst %.c,$(BUILD)/lib/pic/%.o,$(API_LIB_SRCS))

ALL += $(API_SO) $(API_A)

# (and again when the SoC's sources change: the record then reads as stale)
$(API_GEN_H): soc/build_h.py $(wildcard $(SOC_RECORD)) soc/synth.py soc/soc.py soc/s24_stream.py \
              soc/firmware/boot.S $(RTL_FILES) $(wildcard rtl/*.vh) regs/s24_regs.toml
	$(PYTHON) soc/build_h.py $(SOC_RECORD) $(BUILD)/soc $@
$(API_PIC_OBJS): | $(API_GEN_H)

$(BUILD)/lib/%.o: INC := $(API_INC)

# position-independent objects of every source of the library
$(BUILD)/lib/pic/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fPIC $(API_INC) -c $< -o $@

$(API_SO): $(API_PIC_OBJS) $(API_RTL_LIB) lib/libsparse24.map
	@mkdir -p $(@D)
	$(CC) -shared -Wl,--version-script=lib/libsparse24.map -Wl,--no-undefined -Wl,-soname,libsparse24.so $(filter %.o %.a,$^) $(API_LDLIBS) -o $@

$(API_A): $(API_PIC_OBJS) $(API_RTL_LIB)
	@mkdir -p $(@D)
	rm -f $@
	$(if $(API_RTL_LIB),printf 'create $@\naddlib $(API_RTL_LIB)\nsave\nend\n' | ar -M)
	ar rs $@ $(API_PIC_OBJS)

.PHONY: lib
lib: $(API_SO) $(API_A)

# ---------------------------------------------------------------- tests
# lib/test_api.c against libsparse24.a (the archive alone is enough to link a C front end) and
# built from the library's sources with the sanitizers; the header also compiles as C++.
API_TEST_DIR := $(BUILD)/tests/api

$(API_TEST_DIR)/test_api_static: lib/test_api.c $(API_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iinclude $< $(API_A) $(API_LDLIBS) -o $@

$(API_TEST_DIR)/test_api_san: lib/test_api.c $(API_LIB_SRCS) $(API_RTL_LIB) $(API_GEN_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) $(API_INC) $(filter %.c,$^) $(API_RTL_LIB) $(API_LDLIBS) -o $@

.PHONY: test-api
test-api: $(API_TEST_DIR)/test_api_static $(API_TEST_DIR)/test_api_san
	$(CC) -std=c11 -Wall -Wextra -Werror -Iinclude -fsyntax-only -x c include/sparse24.h
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Iinclude -x c++ -fsyntax-only include/sparse24.h
	$(API_TEST_DIR)/test_api_static $(TFLITE_MODELS)/kws.tflite
	$(API_TEST_DIR)/test_api_san $(TFLITE_MODELS)/kws.tflite

TESTS += test-api

# Handles shared between threads (lib/test_threads.c): 8 threads x 200 calls on one network and
# one device of the model backend, under ThreadSanitizer and under AddressSanitizer, both built
# from the library's sources (the model backend only: the co-simulation is not in them)
API_THREAD_SRCS := lib/s24_api.c lib/s24_text.c lib/s24_backend.c lib/s24_backend_soc.c \
                   lib/s24_soc.c lib/s24_backend_nortl.c $(MODEL_SRCS) $(DRV_SRCS) $(RUNTIME_SRCS) \
                   $(API_GEN_H)
$(API_TEST_DIR)/test_threads_tsan: lib/test_threads.c $(API_THREAD_SRCS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fsanitize=thread $(API_INC) $(filter %.c,$^) -lm -pthread -o $@
$(API_TEST_DIR)/test_threads_asan: lib/test_threads.c $(API_THREAD_SRCS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) $(API_INC) $(filter %.c,$^) -lm -pthread -o $@

.PHONY: test-threads
test-threads: $(API_TEST_DIR)/test_threads_tsan $(API_TEST_DIR)/test_threads_asan
	TSAN_OPTIONS=halt_on_error=1 $(API_TEST_DIR)/test_threads_tsan $(TFLITE_MODELS)/ad.tflite
	$(API_TEST_DIR)/test_threads_asan $(TFLITE_MODELS)/ad.tflite

TESTS += test-threads
