# net/networks.mk: the MLPerf Tiny int8 reference models (ad, ic, kws, vww) on sparse24 (SPEC §8,
# issue 26), dense and 2:4-pruned, byte for byte against LiteRT's reference kernels
# (net/networks.py), and the command's network front end (tests/net/cli.sh).
# Uses TFLITE_MODELS (runtime/tflite.mk), CLI_SAN_BIN (tests/tests.mk), VPYTHON.

NETWORKS_DIR := $(BUILD)/networks
NET_PYENV    := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
# the models run on the RTL (comma-separated)
NETWORKS_RTL ?= ad,ic,kws,vww

.PHONY: networks test-networks test-networks-long test-net-cli

# build/networks/results.csv: every model dense and 2:4 on the RTL, 3 random inputs each,
# bit-exact with LiteRT and every layer's cycles equal to the cycle model's; then the table
# (results.md) and the plot (networks.png) beside the published MLPerf Tiny latencies
networks: deps $(BUILD)/sparse24
	@mkdir -p $(NETWORKS_DIR)
	$(NET_PYENV) $(VPYTHON) net/networks.py $(BUILD)/sparse24 $(TFLITE_MODELS) $(NETWORKS_DIR) \
	  --backend rtl --inputs 3 --models $(NETWORKS_RTL) --csv $(NETWORKS_DIR)/results.csv
	$(VPYTHON) net/networks_report.py $(NETWORKS_DIR)/results.csv $(NETWORKS_DIR)

# model backend: 100 random inputs per model and variant; rtl backend: 3 per model
test-networks: $(BUILD)/sparse24
	$(NET_PYENV) $(VPYTHON) net/networks.py $(BUILD)/sparse24 $(TFLITE_MODELS) $(NETWORKS_DIR)/test-model \
	  --backend model --inputs 100 --seed 7
	$(NET_PYENV) $(VPYTHON) net/networks.py $(BUILD)/sparse24 $(TFLITE_MODELS) $(NETWORKS_DIR)/test-rtl \
	  --backend rtl --inputs 3 --seed 8 --models $(NETWORKS_RTL)

# a new seed each run (printed), 1000 inputs on the model, 20 on the RTL
test-networks-long: $(BUILD)/sparse24
	$(NET_PYENV) $(VPYTHON) net/networks.py $(BUILD)/sparse24 $(TFLITE_MODELS) $(NETWORKS_DIR)/long-model \
	  --backend model --inputs 1000 --seed $$(date +%s)
	$(NET_PYENV) $(VPYTHON) net/networks.py $(BUILD)/sparse24 $(TFLITE_MODELS) $(NETWORKS_DIR)/long-rtl \
	  --backend rtl --inputs 20 --seed $$(date +%s) --models $(NETWORKS_RTL)

# bad models and inputs, prune, info, run --stats (sanitizer build)
test-net-cli: $(CLI_SAN_BIN)
	tests/net/cli.sh $(CLI_SAN_BIN) $(BUILD)/tests/net/cli $(VPYTHON) $(TFLITE_MODELS)

# Hostile models and inputs (issue 50): a declared-but-unused 3 GiB tensor within 256 MiB of
# address space, names with control characters, what LiteRT refuses at load, shapes as in the file
.PHONY: test-net-hostile
test-net-hostile: $(CLI_SAN_BIN) $(BUILD)/sparse24
	tests/net/hostile.sh $(CLI_SAN_BIN) $(BUILD)/sparse24 $(BUILD)/tests/net/hostile $(VPYTHON) $(TFLITE_MODELS)

TESTS      += test-networks test-net-cli test-net-hostile
LONG_TESTS += test-networks-long
