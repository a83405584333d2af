# runtime: the network runtime of SPEC §8 (int8 .tflite models): the bounds-checked .tflite
# reader (s24_tflite.c), the host kernels bit-exact with LiteRT's reference kernels
# (s24_ops.c) and the graph executor (s24_net.c) that sends FULLY_CONNECTED and CONV_2D to an
# engine (the model, or the device through the driver). Linked into the command (tools/).
# Other fragments use RUNTIME_SRCS, RUNTIME_INC and RUNTIME_LIB.

RUNTIME_INC  := -Iruntime $(MODEL_INC)
RUNTIME_LIB  := $(BUILD)/runtime/libs24runtime.a
RUNTIME_SRCS := runtime/s24_tflite.c runtime/s24_ops.c runtime/s24_net.c
RUNTIME_OBJS := $(RUNTIME_SRCS:runtime/%.c=$(BUILD)/runtime/%.o)

ALL += $(RUNTIME_LIB)

$(BUILD)/runtime/%.o: INC := $(RUNTIME_INC)
$(RUNTIME_LIB): $(RUNTIME_OBJS)
