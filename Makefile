# Fathom — build, test, demo, bench, install.
# `make demo` and `make test` work on a fresh Debian machine: they install what is missing first.

PREFIX ?= /usr/local
PYTHON ?= python3
SWIFT ?= swift

# Debian packages the build needs (headers + libraries) and the tests need (chromium: the report page opened
# headless), and Python modules the tests need: MODULE, or MODULE:PIP-NAME where pip names it differently.
DEB_PACKAGES := liblapacke-dev libopenblas-dev zlib1g-dev libisal-dev libspng-dev libedit-dev pkg-config chromium
PY_MODULES := numpy scipy matplotlib pytest xdist:pytest-xdist pycparser plyfile distributed PIL:pillow

# Use AVX2 + FMA where the machine has them; otherwise the portable x86-64 baseline.
# Override with `make CPU_FLAGS=` for a portable build.
CPU_FLAGS ?= $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo 2>/dev/null && echo "-Xswiftc -target-cpu -Xswiftc haswell")
# The Swift standard library is linked statically, so libfathom.so and bin/fathom run without the toolchain.
SWIFT_FLAGS := -c release -Xswiftc -static-stdlib $(CPU_FLAGS)
# Tests link the toolchain's dynamic runtime: the Testing module has no static build. Separate scratch
# path, so the two configurations do not rebuild each other.
SWIFT_TEST_FLAGS := -c release $(CPU_FLAGS) --scratch-path .build/tests
BUILD_DIR := .build/release
LIB := $(BUILD_DIR)/libfathom.so
CLI := $(BUILD_DIR)/fathom-cli
export FATHOM_LIBRARY := $(CURDIR)/$(LIB)

.PHONY: all deps build lib demo test test-swift test-c test-python test-repl test-readme test-abi test-fuzz-replay test-sanitize \
        fuzz-lib fuzz fuzz-ci fish-table bench install clean

all: build

## deps: install missing Debian packages and Python modules (no-op when all are present).
deps:
	@missing=""; for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing Debian packages:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; fi
	@for m in $(PY_MODULES); do mod=$${m%%:*}; pkg=$${m#*:}; $(PYTHON) -c "import $$mod" 2>/dev/null || \
	  { echo "installing Python module $$mod ($$pkg)"; $(PYTHON) -m pip install -q $$pkg \
	    || $(PYTHON) -m pip install -q --break-system-packages $$pkg; }; done

## build: the library, the REPL and the Python package's copy of the library (release).
build: deps
	$(SWIFT) build $(SWIFT_FLAGS)
	install -m 755 $(LIB) Bindings/python/fathom/libfathom.so

lib: deps
	$(SWIFT) build $(SWIFT_FLAGS) --product fathom
	install -m 755 $(LIB) Bindings/python/fathom/libfathom.so

## demo: a built-in capture written with the project's own writer, turned into its report (fathom-demo/).
demo: build
	$(CLI) demo fathom-demo

## test: every test — Swift core, C ABI, Python binding, REPL scripts. Fails on the first failing suite.
test: build test-swift test-abi test-c test-python test-repl test-readme test-fuzz-replay

test-swift:
	$(SWIFT) test $(SWIFT_TEST_FLAGS)

test-abi:
	sh Tests/abi/check_exports.sh $(LIB) include/fathom.h

test-c:
	$(MAKE) -C Tests/c LIB_DIR=$(CURDIR)/$(BUILD_DIR) INCLUDE_DIR=$(CURDIR)/include

## test-python: the suite on two workers, a test file's tests on one (their module fixtures are computed once).
test-python:
	cd Bindings/python && $(PYTHON) -m pytest -q -n 2 --dist loadfile tests

test-repl:
	sh Tests/repl/run.sh $(CLI)

test-readme:
	sh Tests/readme/check_c_example.sh README.md $(CURDIR)/$(BUILD_DIR) $(CURDIR)/include

## test-fuzz-replay: every fuzz target's seed corpus and regressions, once, against the release library.
test-fuzz-replay:
	$(MAKE) -C Tests/fuzz replay LIB_DIR=$(CURDIR)/$(BUILD_DIR) INCLUDE_DIR=$(CURDIR)/include

## test-sanitize: the Swift tests under AddressSanitizer; the C tests under AddressSanitizer + UBSan against an
## AddressSanitizer build of the library; the threaded test under ThreadSanitizer against a ThreadSanitizer build
## (debug builds in .build/asan-tests, .build/asan and .build/tsan; about 15 minutes on 2 cores).
## LeakSanitizer is off for the Swift tests only: it reports the test suites' static sample values; the library's
## own leaks are checked by the C tests.
test-sanitize: deps
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test -c debug --sanitize=address --scratch-path .build/asan-tests
	$(SWIFT) build -c debug --sanitize=address --scratch-path .build/asan --product fathom
	$(MAKE) -C Tests/c sanitize LIB_DIR=$(CURDIR)/.build/asan/debug INCLUDE_DIR=$(CURDIR)/include
	$(SWIFT) build -c debug --sanitize=thread --scratch-path .build/tsan --product fathom
	$(MAKE) -C Tests/c sanitize-threads LIB_DIR=$(CURDIR)/.build/tsan/debug INCLUDE_DIR=$(CURDIR)/include \
	  TOOLCHAIN_LIB=$$(dirname $$(readlink -f $$(command -v $(SWIFT))))/../lib/swift/linux

## fuzz: every libFuzzer target in Tests/fuzz for FUZZ_SECONDS (default 60) each, one after another, against an
## AddressSanitizer build of the library instrumented for coverage, so libFuzzer sees inside the Swift code.
## fuzz-ci: CI's short pass: the corpora and regressions under the sanitizers, then 15 s per target.
FUZZ_SECONDS ?= 60
FUZZ_COVERAGE := -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table
FUZZ_LIB_DIR := $(CURDIR)/.build/fuzz/release

fuzz-lib: deps
	$(SWIFT) build -c release --sanitize=address $(FUZZ_COVERAGE) --scratch-path .build/fuzz --product fathom

fuzz: fuzz-lib
	$(MAKE) -C Tests/fuzz run FUZZ_LIB_DIR=$(FUZZ_LIB_DIR) INCLUDE_DIR=$(CURDIR)/include FUZZ_SECONDS=$(FUZZ_SECONDS)

fuzz-ci: fuzz-lib
	$(MAKE) -C Tests/fuzz ci FUZZ_LIB_DIR=$(FUZZ_LIB_DIR) INCLUDE_DIR=$(CURDIR)/include FUZZ_SECONDS=15

## fish-table: the README's validation table of the length methods (Monte Carlo over fish-shaped scenes, ~4 min).
fish-table: build
	cd Bindings/python && PYTHONPATH=. $(PYTHON) tests/_fish_validation.py

## bench: side-by-side speed against the anchors (installs numpy/open3d into bench/.venv).
bench: build
	$(MAKE) -C bench LIB=$(CURDIR)/$(LIB)

## install: lib/libfathom.so, include/fathom.h, lib/pkgconfig/fathom.pc, bin/fathom under PREFIX.
install: build
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(LIB) $(DESTDIR)$(PREFIX)/lib/libfathom.so
	install -m 644 include/fathom.h $(DESTDIR)$(PREFIX)/include/fathom.h
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/fathom
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(shell sed -n 's/^#define FATHOM_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)/\2/p' include/fathom.h | paste -sd.)|' \
	  fathom.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/fathom.pc

clean:
	rm -rf .build Bindings/python/fathom/libfathom.so
