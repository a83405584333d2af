# SPDX-License-Identifier: Apache-2.0
# cmodel: the bit-exact golden model, built as a static library that every other part links.
# Other fragments use MODEL_LIB and MODEL_INC (defined first so they exist when those are parsed).

MODEL_LIB  := $(BUILD)/cmodel/libs24model.a
MODEL_INC  := -Icmodel -Iinclude
MODEL_SRCS := cmodel/s24_model.c cmodel/s24_gemm.c cmodel/s24_plan.c cmodel/s24_layout.c cmodel/s24_cycles.c cmodel/s24_linear.c
MODEL_OBJS := $(MODEL_SRCS:cmodel/%.c=$(BUILD)/cmodel/%.o)

ALL += $(MODEL_LIB)

$(BUILD)/cmodel/%.o: INC := $(MODEL_INC)
$(MODEL_LIB): $(MODEL_OBJS)
