# runtime: the network runtime of SPEC §8 (int8 .tflite models), freestanding C11: the arena
# (s24_arena.c), the bounds-checked .tflite reader (s24_tflite.c), the host kernels bit-exact with
# LiteRT's reference kernels (s24_ops.c), the graph executor and memory planner (s24_net.c) and
# the engines its FULLY_CONNECTED and CONV_2D layers run on (s24_engine.c: the model, or a device
# through the driver). host/ holds the hosted part: arenas on the heap of the right size.
# Other fragments use RUNTIME_SRCS, RUNTIME_CORE_SRCS (the freestanding ones), RUNTIME_INC and
# RUNTIME_LIB.

RUNTIME_INC       := -Iruntime -Iruntime/host $(DRV_INC)
RUNTIME_LIB       := $(BUILD)/runtime/libs24runtime.a
RUNTIME_CORE_SRCS := runtime/s24_arena.c runtime/s24_tflite.c runtime/s24_ops.c runtime/s24_net.c \
                     runtime/s24_engine.c
RUNTIME_SRCS      := $(RUNTIME_CORE_SRCS) runtime/host/s24_runtime_host.c
RUNTIME_OBJS      := $(RUNTIME_SRCS:runtime/%.c=$(BUILD)/runtime/%.o)

ALL += $(RUNTIME_LIB)

$(BUILD)/runtime/%.o: INC := $(RUNTIME_INC)
$(RUNTIME_LIB): $(RUNTIME_OBJS)
