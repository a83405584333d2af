# SPDX-License-Identifier: Apache-2.0
# net: a real network end to end (issue 12). `make model` trains a digits MLP in NumPy, prunes it
# N:M (with and without input-channel permutation), fine-tunes with the mask fixed, quantizes it
# to int8 and runs every layer as `sparse24 linear` on the Verilated RTL, checked byte for byte
# against LiteRT running the same network as a .tflite (net/model.py; outputs in build/model/).

NET_PY   := net/mlp.py net/quant.py net/model.py net/tflbuild.py tests/linear/tflite_fc.py
CNN_PY   := net/mlp.py net/quant.py net/convnet.py net/cnn.py net/tflbuild.py
# MNIST digits of the CNN (make deps unpacks them)
MNIST    := $(shell scripts/deps.sh --mnist-path)/mnist_5k.csv.gz
NET_ENV  := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1   # deterministic BLAS

.PHONY: model test-net test-model-quick test-cnn-quick

# The full pipeline: 64 -> 512 -> 512 -> 10, 40 epochs dense + 20 of masked fine-tuning per variant
model: deps $(BUILD)/sparse24
	$(NET_ENV) $(VPYTHON) net/model.py $(BUILD)/sparse24 $(BUILD)/model
	$(NET_ENV) $(VPYTHON) net/cnn.py $(BUILD)/sparse24 $(BUILD)/model --mnist $(MNIST)

# The pieces against independent references: pruning == sparse24 prune, permutation search,
# QuantizeMultiplier, SPEC §7 accumulator == sparse24 gemm
test-net: $(BUILD)/sparse24 net/test_net.py $(NET_PY)
	$(NET_ENV) $(VPYTHON) net/test_net.py $(BUILD)/sparse24 $(BUILD)/net-test 1

# A small, fast version of `make model` (64 -> 96 -> 96 -> 10, 4 + 2 epochs): every variant's
# RTL logits must equal LiteRT's for all 360 test samples
test-model-quick: $(BUILD)/sparse24 $(NET_PY)
	$(NET_ENV) $(VPYTHON) net/model.py $(BUILD)/sparse24 $(BUILD)/model-quick --quick

# The MNIST CNN: its pieces against independent references (net/test_cnn.py: backprop, im2col,
# permutation, N:M with K padded, double rounding), then the pipeline in small (8/16 channels,
# 3 + 1 epochs): every .tflite loads in LiteRT, LiteRT's int8 logits equal the NumPy int8
# network's and `sparse24 run --backend model`'s for all 1000 test images, sparse24 prune leaves
# the 2:4 model unchanged, int8 accuracy > 0.5; 100 images through `sparse24 run --backend rtl`
# == LiteRT, cycles == the cycle model's
test-cnn-quick: deps $(BUILD)/sparse24 $(CNN_PY) net/test_cnn.py
	$(NET_ENV) $(VPYTHON) net/test_cnn.py
	$(NET_ENV) $(VPYTHON) net/cnn.py $(BUILD)/sparse24 $(BUILD)/cnn-quick --mnist $(MNIST) --quick --backends model,rtl

TESTS += test-net test-model-quick test-cnn-quick
