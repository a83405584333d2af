# SPDX-License-Identifier: Apache-2.0
# python: the NumPy bindings (python/sparse24, ctypes) over build/lib/libsparse24.so (api/api.mk)
# and their tests (python/tests): gemm, linear, prune/compress and the MLPerf Tiny networks on
# the model and rtl backends, bit-exact with NumPy references of SPEC.md and with the command.
# Install into the venv: make python-install, a path install (sparse24.pth in the venv's
# site-packages naming this checkout's python/; the package finds the library in ../build/lib/ of
# its checkout, or where S24_LIB says). test-python imports it from there, checks that a plain
# `import sparse24` works outside the repository, and that docs/api.md's session is current.
# Uses API_SO (api/), VPYTHON, TFLITE_MODELS (runtime/tflite.mk, expanded when the recipe runs).

PY_TEST_ENV = S24_LIB=$(abspath $(API_SO)) S24_CMD=$(abspath $(BUILD)/sparse24) S24_MODELS=$(TFLITE_MODELS)

.PHONY: python-install test-python
# idempotent: the .pth is rewritten only when it names another checkout
python-install: deps
	@$(VPYTHON) -c "import pathlib, sysconfig; p = pathlib.Path(sysconfig.get_paths()['purelib']) / 'sparse24.pth'; \
	  t = '$(abspath python)\n'; (p.exists() and p.read_text() == t) or p.write_text(t); print('python-install:', p, '->', t.strip())"

test-python: python-install $(API_SO) $(BUILD)/sparse24
	cd / && $(VPYTHON) -c "import sparse24; print('test-python: import sparse24 ->', sparse24.__file__, sparse24.library_path())"
	$(PY_TEST_ENV) $(VPYTHON) -m unittest discover -s python/tests -t python/tests
	$(PY_TEST_ENV) $(VPYTHON) python/session.py --check docs/api.md

TESTS += test-python
