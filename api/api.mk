# api: the public C API of include/sparse24.h (api/s24_api.c) and the network engines it shares
# with the command (api/s24_engine.c), built with the parts under it into
#   build/lib/libsparse24.so  position-independent, the co-simulation (COSIM_LIB, built -fPIC by
#                             sim/sim.mk) linked in, exporting only s24_api_* and s24_strerror
#   build/lib/libsparse24.a   the same objects and COSIM_LIB in one archive; link it with
#                             $(COSIM_LDLIBS) -lm
# As the command, a build without Verilator (make S24_RTL=no) has the model backend only
# (tools/backend_nortl.c: opening "rtl" fails with S24_ERR_UNSUPPORTED and a message).
# Other fragments use ENGINE_SRCS and ENGINE_OBJ (tools/), API_SO and API_INC (python/).

ENGINE_SRCS := api/s24_engine.c
ENGINE_OBJ  := $(BUILD)/api/s24_engine.o
API_SRCS    := api/s24_api.c $(ENGINE_SRCS)
API_SO      := $(BUILD)/lib/libsparse24.so
API_A       := $(BUILD)/lib/libsparse24.a
API_INC     := -Iinclude -Iapi -Itools $(RUNTIME_INC) $(DRV_INC) $(SIM_INC)
# the rtl backend, or its stand-in (S24_RTL is the Makefile's switch)
API_NORTL   := $(filter no,$(S24_RTL))
API_RTL_LIB := $(if $(API_NORTL),,$(COSIM_LIB))
API_LDLIBS  := $(if $(API_NORTL),,$(COSIM_LDLIBS)) -lm
# the library: this part, the model, the driver, the network runtime and the command's backend
# table (tools/backend.c, tools/backend_rtl.c: the s24_backend_ops_t entries model and rtl)
API_LIB_SRCS := $(API_SRCS) $(MODEL_SRCS) $(DRV_SRCS) $(RUNTIME_SRCS) tools/backend.c \
               tools/backend_$(if $(API_NORTL),nortl,rtl).c
API_PIC_OBJS := $(patsubst %.c,$(BUILD)/lib/pic/%.o,$(API_LIB_SRCS))

ALL += $(API_SO) $(API_A)

$(BUILD)/api/%.o: INC := $(API_INC)

# position-independent objects of every source of the library
$(BUILD)/lib/pic/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fPIC $(API_INC) -c $< -o $@

$(API_SO): $(API_PIC_OBJS) $(API_RTL_LIB) api/libsparse24.map
	@mkdir -p $(@D)
	$(CC) -shared -Wl,--version-script=api/libsparse24.map -Wl,--no-undefined -Wl,-soname,libsparse24.so $(filter %.o %.a,$^) $(API_LDLIBS) -o $@

$(API_A): $(API_PIC_OBJS) $(API_RTL_LIB)
	@mkdir -p $(@D)
	rm -f $@
	$(if $(API_RTL_LIB),printf 'create $@\naddlib $(API_RTL_LIB)\nsave\nend\n' | ar -M)
	ar rs $@ $(API_PIC_OBJS)

.PHONY: lib
lib: $(API_SO) $(API_A)

# ---------------------------------------------------------------- tests
# api/test_api.c against libsparse24.a (the archive alone is enough to link a C front end) and
# built from the library's sources with the sanitizers; the header also compiles as C++.
API_TEST_DIR := $(BUILD)/tests/api

$(API_TEST_DIR)/test_api_static: api/test_api.c $(API_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iinclude $(MODEL_INC) $< $(API_A) $(API_LDLIBS) -o $@

$(API_TEST_DIR)/test_api_san: api/test_api.c $(API_LIB_SRCS) $(API_RTL_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) $(API_INC) $(filter %.c,$^) $(API_RTL_LIB) $(API_LDLIBS) -o $@

.PHONY: test-api
test-api: $(API_TEST_DIR)/test_api_static $(API_TEST_DIR)/test_api_san
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Iinclude $(MODEL_INC) -x c++ -fsyntax-only include/sparse24.h
	$(API_TEST_DIR)/test_api_static $(TFLITE_MODELS)/kws.tflite
	$(API_TEST_DIR)/test_api_san $(TFLITE_MODELS)/kws.tflite

TESTS += test-api
