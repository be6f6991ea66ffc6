# Fathom — build, test, demo, bench, install.
# `make demo` and `make test` work on a fresh Debian machine: they install what is missing first.

PREFIX ?= /usr/local
PYTHON ?= python3
SWIFT ?= swift

# Debian packages the build needs (headers + libraries) and the tests need (chromium: the report page opened
# headless; cmake: the installed CMake package's test; python3-venv: Debian's python3 makes no virtual environment
# without it, and `make test-wheel` installs the wheel into one; liblapack3 and libblas3: the reference LAPACK and
# BLAS `make wheel` ships), and Python modules the tests need: MODULE, or MODULE:PIP-NAME where pip names it
# differently (wheel: setuptools older than 70.1 builds wheels through it).
DEB_PACKAGES := liblapacke-dev libopenblas-dev zlib1g-dev libisal-dev libspng-dev libedit-dev pkg-config cmake chromium python3-venv liblapack3 libblas3
PY_MODULES := numpy scipy matplotlib pytest xdist:pytest-xdist pycparser plyfile distributed PIL:pillow wheel auditwheel

# Use AVX2 + FMA where the machine has them; otherwise the portable x86-64 baseline.
# Override with `make CPU_FLAGS=` for a portable build.
CPU_FLAGS ?= $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo 2>/dev/null && echo "-Xswiftc -target-cpu -Xswiftc haswell")
# The Swift standard library is linked statically, so libfathom.so and bin/fathom run without the toolchain.
# The library's SONAME is libfathom.so.$(ABI_MAJOR) (the ABI's major version: a new one only when the C ABI breaks),
# and fathom.map exports the fathom_* functions only (none of the Swift runtime linked into it). Linked with the
# toolchain's lld: gold kept 18 of the runtime's symbols in the dynamic table (local, named by relocations), lld none.
ABI_MAJOR := 1
# The release version, MAJOR.MINOR.PATCH of the header's FATHOM_VERSION_* macros: the installed library's file name
# (libfathom.so.$(VERSION)), fathom.pc's and the CMake package's version.
VERSION := $(shell sed -n 's/^\#define FATHOM_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$$/\2/p' include/fathom.h | paste -sd. -)
LINK_FLAGS := -Xswiftc -use-ld=lld -Xlinker -soname -Xlinker libfathom.so.$(ABI_MAJOR) -Xlinker --version-script=$(CURDIR)/fathom.map
SWIFT_FLAGS := -c release -Xswiftc -static-stdlib $(CPU_FLAGS) $(LINK_FLAGS)
# Tests link the toolchain's dynamic runtime: the Testing module has no static build. Separate scratch
# path, so the two configurations do not rebuild each other.
SWIFT_TEST_FLAGS := -c release $(CPU_FLAGS) --scratch-path .build/tests
BUILD_DIR := .build/release
LIB := $(BUILD_DIR)/libfathom.so
CLI := $(BUILD_DIR)/fathom-cli
export FATHOM_LIBRARY := $(CURDIR)/$(LIB)

.PHONY: all deps build lib demo test test-swift test-swift-build test-swiftpm test-c test-python test-repl test-readme test-abi test-fuzz-replay test-sanitize \
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
	ln -sf libfathom.so $(BUILD_DIR)/libfathom.so.$(ABI_MAJOR)
	install -m 755 $(LIB) Bindings/python/fathom/libfathom.so

lib: deps
	$(SWIFT) build $(SWIFT_FLAGS) --product fathom
	ln -sf libfathom.so $(BUILD_DIR)/libfathom.so.$(ABI_MAJOR)
	install -m 755 $(LIB) Bindings/python/fathom/libfathom.so

## demo: a built-in capture written with the project's own writer, turned into its report (fathom-demo/).
demo: build
	$(CLI) demo fathom-demo

## test: every test — Swift core, C ABI, Python binding, REPL scripts. Fails on the first failing suite.
## The release build and the tests' build run side by side: each compiles one module at a time (whole-module
## optimization), so together they keep two cores busy.
test: deps
	$(MAKE) -j2 build test-swift-build
	$(MAKE) test-swift test-swiftpm test-abi test-c test-python test-wheel test-repl test-readme test-fuzz-replay

# Only what the tests use is built (FathomCore and the test target, not the C ABI layer or the REPL, which the
# release build already made): `swift test` alone would build every product again in this configuration.
test-swift-build: deps
	$(SWIFT) build $(SWIFT_TEST_FLAGS) --product FathomPackageTests

test-swift: test-swift-build
	$(SWIFT) test $(SWIFT_TEST_FLAGS) --skip-build

## test-swiftpm: Tests/swiftpm, a package depending on this one by path as an app would, builds (FathomCore with
## only its own manifest's settings, in debug) and checks a box, a ray cast and a scan written and read from Swift.
test-swiftpm:
	$(SWIFT) build --package-path Tests/swiftpm --scratch-path .build/swiftpm
	.build/swiftpm/debug/fathom-consumer

test-abi:
	sh Tests/abi/check_exports.sh $(LIB) include/fathom.h libfathom.so.$(ABI_MAJOR)

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

# The library and the REPL as files, remade only when an input of the Swift build is newer: `install` depends on
# them (not on `build`), so installing a current build runs no compiler and writes nothing into the tree. swift build
# leaves a product it finds current untouched, hence the touch: else a source saved unchanged would start it on
# every install.
SWIFT_INPUTS := $(shell find Sources include -type f) Package.swift fathom.map
$(LIB) $(CLI) &: $(SWIFT_INPUTS)
	$(MAKE) deps
	$(SWIFT) build $(SWIFT_FLAGS)
	touch $(LIB) $(CLI)

## wheel: a binary wheel of the Python package (distribution fathom-geometry, import name fathom) in $(WHEEL_DIR),
## its path and size printed last. It holds a stripped copy of libfathom.so and, vendored by auditwheel into
## fathom_geometry.libs/, every shared library that copy needs beyond the manylinux policy (LAPACKE, LAPACK, BLAS
## and the Fortran runtime, ISA-L, libspng; zlib is the policy's); auditwheel tags it with the most compatible
## policy the libraries meet.
## The library is built for this machine's CPU (CPU_FLAGS): `make CPU_FLAGS= lib wheel` for one any x86-64 runs.
## A wheel built with CPU_FLAGS holds fathom/_cpu.txt, the CPU flags the package checks before loading the library.
WHEEL_DIR := .build/wheel
# setup.py reads the version from ../../include/fathom.h, so the stage mirrors the repository's layout.
WHEEL_STAGE := $(WHEEL_DIR)/stage
.PHONY: wheel test-wheel
# auditwheel edits the libraries with patchelf 0.14.5 or newer, which Debian 12 lacks (0.14.3): PyPI's, if needed.
# --no-build-isolation: built with the setuptools and wheel installed here (deps), not ones downloaded for each build.
# libfathom.so calls LAPACK through LAPACKE alone, on matrices of 5 x 5 at most: auditwheel vendors the reference
# LAPACK and BLAS that liblapacke.so.3 names (WHEEL_LAPACK: Debian's liblapack3 and libblas3) instead of OpenBLAS
# (what liblapack.so.3 resolves to here), whose kernels for every CPU would nearly double the wheel (README), and
# whose thread pool would start in every process that loads fathom. test-wheel's `ldd -r` checks that every symbol
# resolves within the wheel.
WHEEL_LAPACK := /usr/lib/$(shell uname -m)-linux-gnu/lapack:/usr/lib/$(shell uname -m)-linux-gnu/blas
# A library built with CPU_FLAGS dies of SIGILL on an older x86-64, and the wheel's platform tag cannot say so: with
# CPU_FLAGS set, the wheel's fathom/_cpu.txt lists the CPU flags it needs (WHEEL_CPU_REQUIRES, as /proc/cpuinfo spells
# them), and the package checks them before it loads the library (a LibraryNotFoundError instead of a crash); a
# portable build (CPU_FLAGS empty) has no such file. The list is x86-64-v3's, which -target-cpu haswell implies: the
# instructions the compiler can emit from ordinary code (SSE3 is pni, LZCNT abm, SAHF lahf_lm; xsave: the OS saves
# the AVX registers). Left out, though haswell implies them: pclmulqdq, xsaveopt, fsgsbase, rdrand and invpcid, which
# the compiler emits only for intrinsics and system code (none here), and which some hypervisors hide. Another
# -target-cpu in CPU_FLAGS needs its own list here.
WHEEL_CPU_REQUIRES := cx16 lahf_lm pni popcnt ssse3 sse4_1 sse4_2 avx avx2 bmi1 bmi2 f16c fma abm movbe xsave
wheel: deps $(LIB)
	@v=$$(patchelf --version 2>/dev/null | cut -d' ' -f2); \
	  [ -n "$$v" ] && [ "$$(printf '0.14.5\n%s\n' "$$v" | sort -V | head -n1)" = 0.14.5 ] || \
	  { echo "installing patchelf from PyPI"; $(PYTHON) -m pip install -q "patchelf>=0.14.5" \
	    || $(PYTHON) -m pip install -q --break-system-packages "patchelf>=0.14.5"; }
	rm -rf $(WHEEL_DIR)
	mkdir -p $(WHEEL_STAGE)/include $(WHEEL_STAGE)/Bindings/python/fathom
	cp include/fathom.h $(WHEEL_STAGE)/include/
	cp Bindings/python/pyproject.toml Bindings/python/setup.py Bindings/python/README.md $(WHEEL_STAGE)/Bindings/python/
	cp Bindings/python/fathom/*.py Bindings/python/fathom/py.typed $(WHEEL_STAGE)/Bindings/python/fathom/
	strip --strip-unneeded -o $(WHEEL_STAGE)/Bindings/python/fathom/libfathom.so $(LIB)
	if [ -n "$(strip $(CPU_FLAGS))" ]; then printf '%s\n' '# x86 CPU flags libfathom.so needs (built with CPU_FLAGS=$(strip $(CPU_FLAGS))); fathom checks them before loading it' \
	  '$(WHEEL_CPU_REQUIRES)' > $(WHEEL_STAGE)/Bindings/python/fathom/_cpu.txt; fi
	$(PYTHON) -m pip wheel -q --no-deps --no-build-isolation -w $(WHEEL_DIR)/platform $(WHEEL_STAGE)/Bindings/python
	AUDITWHEEL_LD_LIBRARY_PATH=$(WHEEL_LAPACK) $(PYTHON) -m auditwheel repair -w $(WHEEL_DIR) $(WHEEL_DIR)/platform/*.whl
	rm -rf $(WHEEL_STAGE) $(WHEEL_DIR)/platform
	@for w in $(WHEEL_DIR)/*.whl; do echo "wheel: $$w, $$(stat -c %s $$w | awk '{printf "%.1f MB", $$1 / 1e6}')"; done

## test-wheel: the wheel installed into a new virtual environment and checked from outside the repository, with
## neither FATHOM_LIBRARY nor PYTHONPATH set and the Swift toolchain off PATH: the package and its library load
## from the environment, the library needs nothing beyond the manylinux policy that the wheel does not bring, the
## README's Python examples run, the distribution's version is the header's and the library's, and the wheel has
## fathom/_cpu.txt exactly when CPU_FLAGS was set, listing flags this machine has.
test-wheel: wheel
	PYTHON=$(PYTHON) WHEEL_CPU_FLAGS="$(strip $(CPU_FLAGS))" sh Tests/wheel/test_wheel.sh $(WHEEL_DIR) $(CURDIR)/include/fathom.h $(CURDIR)/Bindings/python/fathom \
	  $(CURDIR)/README.md $(CURDIR)/Bindings/python/README.md

## install: under $(DESTDIR)$(PREFIX): lib/libfathom.so.$(VERSION) (stripped) with the links libfathom.so.$(ABI_MAJOR)
## (its SONAME) and libfathom.so (for -lfathom), include/fathom.h, bin/fathom, lib/pkgconfig/fathom.pc and
## lib/cmake/fathom/ (the imported target fathom::fathom).
DEST = $(DESTDIR)$(PREFIX)
# The templates' @PREFIX@, @VERSION@ and @ABI_MAJOR@.
CONFIGURE = sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' -e 's|@ABI_MAJOR@|$(ABI_MAJOR)|'
install: $(LIB) $(CLI)
	install -d $(DEST)/lib/pkgconfig $(DEST)/lib/cmake/fathom $(DEST)/include $(DEST)/bin
	install -m 755 $(LIB) $(DEST)/lib/libfathom.so.$(VERSION)
	strip --strip-unneeded $(DEST)/lib/libfathom.so.$(VERSION)
	ln -sf libfathom.so.$(VERSION) $(DEST)/lib/libfathom.so.$(ABI_MAJOR)
	ln -sf libfathom.so.$(VERSION) $(DEST)/lib/libfathom.so
	install -m 644 include/fathom.h $(DEST)/include/fathom.h
	install -m 755 $(CLI) $(DEST)/bin/fathom
	$(CONFIGURE) fathom.pc.in > $(DEST)/lib/pkgconfig/fathom.pc
	$(CONFIGURE) cmake/fathomConfig.cmake.in > $(DEST)/lib/cmake/fathom/fathomConfig.cmake
	$(CONFIGURE) cmake/fathomConfigVersion.cmake.in > $(DEST)/lib/cmake/fathom/fathomConfigVersion.cmake

clean:
	rm -rf .build Bindings/python/fathom/libfathom.so
