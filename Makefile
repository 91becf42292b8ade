# godlpack: `make demo` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
# cgo finds Python's headers through pkg-config: point it at this interpreter's python3.pc.
export PKG_CONFIG_PATH := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("LIBPC") or "")')
export CGO_ENABLED := 1

.PHONY: demo test build gotest pytest bench clean fuzz-ci memcheck example-test

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# The demo: install godlpack with NumPy and round-trip tensors (with PyTorch too when it is installed).
demo: $(PY)
	$(PY) -m pip install --quiet ".[demo]"
	$(PY) -m godlpack

# Everything CI runs: the Go checks and tests, then pytest against NumPy and PyTorch.
test: $(PY)
	$(PY) -m pip install --quiet ".[test]"
	go vet ./...
	go test ./...
	$(MAKE) fuzz-ci
	$(PY) -m pytest -q -p no:cacheprovider tests
	$(MAKE) example-test

# The example extension (examples/normalize), built only from the public Go packages and tested in a
# process of its own: it carries its own Go runtime, so it never shares a process with godlpack._core.
# Needs the test extras (numpy, torch, pytest) that `test` installs.
EXAMPLE_DIR := build/examples
example-test: $(PY)
	mkdir -p $(EXAMPLE_DIR)
	go build -buildmode=c-shared -o $(EXAMPLE_DIR)/normalize$(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))') ./examples/normalize
	rm -f $(EXAMPLE_DIR)/normalize*.h
	PYTHONPATH=$(EXAMPLE_DIR) $(PY) -m pytest -q -p no:cacheprovider examples/normalize

# A short run of every Go fuzz target beyond its committed seed corpus (FUZZTIME each, 15 s by default),
# so that CI keeps looking for hostile inputs without nearing its time limit.
FUZZTIME ?= 15s
fuzz-ci:
	go test -run '^$$' -fuzz '^FuzzCheckLayout$$' -fuzztime $(FUZZTIME) ./dlpack
	go test -run '^$$' -fuzz '^FuzzInspect$$' -fuzztime $(FUZZTIME) ./consumer

# The extension in place, for working on the code (pip install -e . does the same).
build:
	go build -buildmode=c-shared -o python/godlpack/_core$(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))') ./pyext
	rm -f python/godlpack/_core*.h

bench: $(PY)
	$(PY) -m pip install --quiet ".[test]"
	$(PY) bench/exchange.py

clean:
	rm -rf build dist python/*.egg-info python/godlpack/_core*
