# cmodel: the bit-exact golden model, built as a static library that every other part links.
# Other fragments use MODEL_LIB and MODEL_INC (defined first so they exist when those are parsed).

MODEL_LIB  := $(BUILD)/cmodel/libs24model.a
MODEL_INC  := -Icmodel
MODEL_SRCS := cmodel/s24_model.c cmodel/s24_gemm.c cmodel/s24_cycles.c cmodel/s24_linear.c
MODEL_OBJS := $(MODEL_SRCS:cmodel/%.c=$(BUILD)/cmodel/%.o)

ALL += $(MODEL_LIB)

$(BUILD)/cmodel/%.o: cmodel/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(MODEL_INC) -c $< -o $@

$(MODEL_LIB): $(MODEL_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^
