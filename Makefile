# godlpack: `make demo` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
# cgo finds Python's headers through pkg-config: point it at this interpreter's python3.pc.
export PKG_CONFIG_PATH := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("LIBPC") or "")')
export CGO_ENABLED := 1

.PHONY: demo test build bench soak clean fuzz-ci memcheck example-test stubtest

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# The demo: install godlpack with NumPy and PyTorch and round-trip tensors between the three.
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
	$(MAKE) stubtest
	$(MAKE) example-test
	$(MAKE) memcheck

# The type stubs against the module as built: every name, signature and property of python/godlpack/_core.pyi
# and the package's typed modules must be what the installed godlpack has at run time.
stubtest: $(PY)
	$(PY) -m pip install --quiet ".[test]"
	$(PY) -m mypy.stubtest godlpack

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

# The pytest suite under AddressSanitizer, for C-level memory errors (out-of-bounds access, use after free,
# double free) anywhere in the process. The extension is built with `go build -asan` (its C and Go code
# instrumented; needs gcc), libasan is preloaded into Python, and PYTHONMALLOC=malloc sends Python's own
# objects through ASan's allocator. libstdc++ is preloaded after libasan: ASan intercepts __cxa_throw only
# when the real one is loaded at start-up, and otherwise aborts at the first C++ exception (PyTorch's or
# tvm-ffi's errors). Leak checking is off: CPython keeps memory until exit, and our leaks are
# caught by the storage counters of tests/conftest.py. allocator_may_return_null lets the MemoryError tests
# see malloc fail. A report fails the run and is printed from build/memcheck/asan.*. tests/test_soak.py is
# left out: it bounds resident memory, which ASan's quarantine of freed blocks grows on purpose. The last step
# of `test`: the instrumented build and the slower suite take about 4 minutes.
MEMCHECK := build/memcheck
MEMCHECK_ENV = LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libstdc++.so)" \
	PYTHONMALLOC=malloc PYTHONPATH=$(MEMCHECK) \
	ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:log_path=$(CURDIR)/$(MEMCHECK)/asan
memcheck: $(PY)
	$(PY) -m pip install --quiet ".[test]"
	rm -rf $(MEMCHECK) && mkdir -p $(MEMCHECK)/godlpack
	go build -asan -buildmode=c-shared -o $(MEMCHECK)/godlpack/_core$(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))') ./pyext
	rm -f $(MEMCHECK)/godlpack/_core*.h
	cp python/godlpack/*.py python/godlpack/*.pyi python/godlpack/py.typed $(MEMCHECK)/godlpack/
	$(MEMCHECK_ENV) $(PY) -c 'import godlpack; assert "/memcheck/" in godlpack._core.__file__, godlpack._core.__file__'
	status=0; $(MEMCHECK_ENV) $(PY) -m pytest -q -p no:cacheprovider --ignore tests/test_soak.py tests || status=$$?; \
	if grep -l 'ERROR: AddressSanitizer' $(MEMCHECK)/asan.* 2>/dev/null; then cat $(MEMCHECK)/asan.*; exit 1; fi; \
	exit $$status

# The extension in place, for working on the code (pip install -e . does the same).
build:
	go build -buildmode=c-shared -o python/godlpack/_core$(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))') ./pyext
	rm -f python/godlpack/_core*.h

bench: $(PY)
	$(PY) -m pip install --quiet ".[test]"
	$(PY) bench/exchange.py
	$(PY) bench/copies.py

# One million exchanges in mixed directions: resident memory and live storages must end where they settled.
soak: $(PY)
	$(PY) -m pip install --quiet ".[test]"
	$(PY) bench/soak.py

clean:
	rm -rf build dist python/*.egg-info python/godlpack/_core*
