# python: the NumPy bindings (python/sparse24, ctypes) over build/lib/libsparse24.so (api/api.mk)
# and their tests (python/tests): gemm, linear, prune/compress and the MLPerf Tiny networks on
# the model and rtl backends, bit-exact with NumPy references of SPEC.md and with the command.
# Install into the venv: $(VPYTHON) -m pip install -e python/ (the package finds the library
# in ../build/lib/ of its checkout, or where S24_LIB says).
# Uses API_SO (api/), VPYTHON, TFLITE_MODELS (runtime/tflite.mk, expanded when the recipe runs).

PY_TEST_ENV = S24_LIB=$(abspath $(API_SO)) S24_CMD=$(abspath $(BUILD)/sparse24) S24_MODELS=$(TFLITE_MODELS)

.PHONY: test-python
test-python: $(API_SO) $(BUILD)/sparse24
	$(PY_TEST_ENV) $(VPYTHON) -m unittest discover -s python/tests -t python/tests

TESTS += test-python
