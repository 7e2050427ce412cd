# Thin wrapper around CMake (GNU make). `make` builds; `make help` lists targets.
#
# Variables you may set on the command line or in the environment:
#   WENC_DATA_DIR   the Standard's data (default: ../shared/whatwg, decided by
#                   CMake); passed to every configure step only when set
#   JOBS            parallel build jobs (default: nproc)
#   CMAKE, CTEST    the tools to run
#   PYTHON          the interpreter `make python` builds for (default
#                   /usr/bin/python3, Debian's, with python3-dev)
#   PREFIX          where `make install` installs (default /usr/local)
#   DESTDIR         staging directory put in front of PREFIX by `make install`
#                   (and recorded in the manifest `make uninstall` reads)

CMAKE ?= cmake
CTEST ?= ctest
JOBS  ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX ?= /usr/local
PYTHON ?= /usr/bin/python3

BUILD       := build
BUILD_ASAN  := build-asan
BUILD_CLANG := build-clang
BUILD_ASAN_CLANG := build-asan-clang
BUILD_SIZE  ?= build-size

CONFIGURE_FLAGS :=
ifneq ($(strip $(WENC_DATA_DIR)),)
CONFIGURE_FLAGS += "-DWENC_DATA_DIR=$(abspath $(WENC_DATA_DIR))"
export WENC_DATA_DIR
endif

# Sanitizer runtime settings for `make asan` (override from the environment).
ASAN_OPTIONS  ?= detect_leaks=1:check_initialization_order=1:strict_init_order=1
UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1

.DEFAULT_GOAL := build
.PHONY: all build test test-size-configs install uninstall test-install demo asan asan-clang clang check-tables node wasm browser-test python difftest bench bench-check fuzz fuzz-levels cross-test node-pack-test test-valgrind analyze clean help

# configure(dir, extra cmake flags[, env prefix]): run CMake when the build
# directory is not configured yet, or when WENC_DATA_DIR was given (so the
# cache follows it).
define configure
	@if [ ! -f $(1)/CMakeCache.txt ] || [ -n "$(strip $(WENC_DATA_DIR))" ]; then \
		echo "$(3) $(CMAKE) -S . -B $(1) $(2) $(CONFIGURE_FLAGS)"; \
		$(3) $(CMAKE) -S . -B $(1) $(2) $(CONFIGURE_FLAGS); \
	fi
endef

# run_ctest(dir[, env prefix]): the tests run JOBS at a time (each uses its own
# temporary files)
define run_ctest
	cd $(1) && $(2) $(CTEST) --output-on-failure -j$(JOBS)
endef

all: build

build:
	$(call configure,$(BUILD),-DCMAKE_BUILD_TYPE=Release)
	$(CMAKE) --build $(BUILD) -j$(JOBS)

test: build
	$(call run_ctest,$(BUILD))

# The size-conscious configurations (README, "Smaller builds"), each in
# BUILD_SIZE/NAME with the tests that matter there (no AVX2/portable
# variants, no Node.js binding): without the encoders' tables, without the
# CJK encodings, without both. SIZE_FLAGS adds CMake flags to all three (say
# BUILD_SIZE=build-size-asan SIZE_FLAGS="-DWENC_SANITIZE=ON
# -DCMAKE_BUILD_TYPE=Debug"). The SKIPPED lines of each run are repeated at
# its end. The minimal one is compiled with -U__SSE2__, so that its
# table-free encoders search with the portable 64-bit-word loop (the others
# with SSE2 on x86-64).
SIZE_FLAGS ?=
# (The bindings' tests stay with the default build: the Python extension is
# built in place in bindings/python, and a second library there would
# replace the default build's.)
define size_config
	$(call configure,$(BUILD_SIZE)/$(1),-DCMAKE_BUILD_TYPE=Release -DWENC_TEST_NODE=OFF -DWENC_TEST_PYTHON=OFF $(2) $(SIZE_FLAGS))
	$(CMAKE) --build $(BUILD_SIZE)/$(1) -j$(JOBS)
	$(call run_ctest,$(BUILD_SIZE)/$(1))
	@echo "== $(1) ($(2)): what its tests skipped"
	@grep -h "SKIPPED" $(BUILD_SIZE)/$(1)/Testing/Temporary/LastTest.log | grep -v "^Command:" | sort -u || echo "(nothing)"
endef

test-size-configs:
	$(call size_config,no-encode-tables,-DWENC_FAST_ENCODE_TABLES=OFF)
	$(call size_config,no-cjk,-DWENC_CJK=OFF)
	$(call size_config,minimal,-DWENC_FAST_ENCODE_TABLES=OFF -DWENC_CJK=OFF -DCMAKE_C_FLAGS=-U__SSE2__)

# Installs what build/ built under PREFIX (DESTDIR, from the command line or
# the environment, is honoured by cmake --install); build/install_manifest.txt
# records the files, and `make uninstall` (given the same DESTDIR, if any)
# removes exactly those.
install: build
	DESTDIR="$(if $(DESTDIR),$(abspath $(DESTDIR)))" $(CMAKE) --install $(BUILD) --prefix "$(abspath $(PREFIX))"

uninstall:
	DESTDIR="$(if $(DESTDIR),$(abspath $(DESTDIR)))" $(CMAKE) -DWENC_MANIFEST=$(BUILD)/install_manifest.txt -P cmake/wencUninstall.cmake

# Install into a temporary prefix and build programs against it with
# pkg-config, find_package, add_subdirectory and FetchContent (not part of
# `make test`: it configures several CMake projects).
test-install: build
	sh tests/install/run.sh $(BUILD)

demo: build
	sh examples/demo.sh $(BUILD)/wenc

asan:
	$(call configure,$(BUILD_ASAN),-DWENC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug)
	$(CMAKE) --build $(BUILD_ASAN) -j$(JOBS)
	$(call run_ctest,$(BUILD_ASAN),ASAN_OPTIONS=$(ASAN_OPTIONS) UBSAN_OPTIONS=$(UBSAN_OPTIONS))

# clang's sanitized build at -O1 (ASan's advice for a usable speed), gcc's at
# -O0: the two see the code as built both ways.
asan-clang:
	$(call configure,$(BUILD_ASAN_CLANG),-DCMAKE_C_COMPILER=clang -DWENC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1",CC=clang)
	$(CMAKE) --build $(BUILD_ASAN_CLANG) -j$(JOBS)
	$(call run_ctest,$(BUILD_ASAN_CLANG),ASAN_OPTIONS=$(ASAN_OPTIONS) UBSAN_OPTIONS=$(UBSAN_OPTIONS))

clang:
	$(call configure,$(BUILD_CLANG),-DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Release -DWENC_TEST_NODE=OFF -DWENC_TEST_PYTHON=OFF,CC=clang)
	$(CMAKE) --build $(BUILD_CLANG) -j$(JOBS)
	$(call run_ctest,$(BUILD_CLANG))

check-tables:
	python3 tools/gen_tables.py --check

# Differential testing against encoding_rs (tests/diff/run.sh builds what it needs).
CASES ?= 300000
SEED ?=
difftest:
	CASES=$(CASES) SEED=$(SEED) tests/diff/run.sh

# libFuzzer targets, each run for SECONDS (fuzz/run.sh builds them with clang).
SECONDS ?= 30
fuzz:
	fuzz/run.sh $(SECONDS)

# The same targets with the AVX-512 kernels off (AVX2 at most), then with
# every vector kernel off, each for LEVEL_SECONDS.
LEVEL_SECONDS ?= 10
# (fuzz_sniff is left out: HTML sniffing has no vector kernel.)
LEVEL_TARGETS ?= decode encode labels hooks text diff
fuzz-levels:
	FUZZ_TARGETS="$(LEVEL_TARGETS)" FUZZ_BUILD_DIR=build-fuzz-avx2 FUZZ_CFLAGS=-DWENC_NO_AVX512 fuzz/run.sh $(LEVEL_SECONDS)
	FUZZ_TARGETS="$(LEVEL_TARGETS)" FUZZ_BUILD_DIR=build-fuzz-portable FUZZ_CFLAGS=-DWENC_NO_RUNTIME_SIMD fuzz/run.sh $(LEVEL_SECONDS)

# The Node.js binding (bindings/node): npm ci for its headers, then the addon.
node:
	sh bindings/node/build.sh

# The WebAssembly build of the Node.js package (bindings/node/wasm/dist/),
# with clang's wasm32 target and wasm-ld.
wasm:
	sh bindings/node/wasm/build.sh

# The WebAssembly build in headless Chromium: the WPT encoding tests and the
# API's checks (needs chromium).
browser-test:
	sh bindings/node/test-browser.sh

# The Python binding (bindings/python): libwenc.a from build/, then the
# extension in place (bindings/python/wenc/_wenc*.so) with setuptools.
python:
	$(call configure,$(BUILD),-DCMAKE_BUILD_TYPE=Release)
	$(CMAKE) --build $(BUILD) --target wenc_static -j$(JOBS)
	PYTHON=$(PYTHON) sh bindings/python/build.sh $(BUILD)/libwenc.a

# The test suite cross-compiled for aarch64 and big-endian s390x and run under
# qemu-user (tools/cross-test.sh; CROSS_ARCH=aarch64|s390x|all, CROSS_QUICK=1 for
# the reduced run CI makes).
CROSS_ARCH ?= all
CROSS_QUICK ?= 0
cross-test:
	CROSS_QUICK=$(CROSS_QUICK) tools/cross-test.sh $(CROSS_ARCH)

# The npm package: npm pack, install into an empty directory, smoke test.
node-pack-test:
	sh bindings/node/pack-test.sh

# The whole test suite under valgrind memcheck.
test-valgrind:
	tools/test-valgrind.sh

# wenc against encoding_rs, ICU, iconv and memcpy in one process, and simdutf
# as the limit of the UTF rows when its sources are there
# (bench/peers/run.sh); ROWS picks rows by a piece of their name, ROUNDS and
# MS how long each is timed. bench-check only compares the outputs (CI).
ROUNDS ?= 5
MS ?= 20
# LEVELS: which builds of wenc, one run after the other (native, avx2,
# portable; see bench/peers/run.sh)
LEVELS ?= native
bench:
	BENCH_LEVELS="$(LEVELS)" bench/peers/run.sh --rounds $(ROUNDS) --ms $(MS) $(if $(ROWS),--rows "$(ROWS)")

bench-check:
	bench/peers/run.sh --check

# gcc -fanalyzer, clang-tidy and cppcheck over the library and the CLI.
analyze:
	tools/analyze.sh

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_CLANG) $(BUILD_ASAN_CLANG) $(BUILD_SIZE) build-bench

help:
	@echo "make [build]        configure build/ (Release) and build library, CLI and tests"
	@echo "make test           build, then run every test with ctest"
	@echo "make test-size-configs  build and test without the encode tables, without CJK, without both"
	@echo "make install        build, then install under PREFIX (default /usr/local; DESTDIR honoured)"
	@echo "make uninstall      remove exactly the files the last make install wrote"
	@echo "make test-install   install into a temporary prefix, build and run programs against it"
	@echo "make demo           build, then decode the files in examples/ with the CLI"
	@echo "make asan           build-asan/ with ASan+UBSan (Debug), then run the tests"
	@echo "make asan-clang     build-asan-clang/ with clang and ASan+UBSan, then run the tests"
	@echo "make clang          build-clang/ with clang (Release), then run the tests"
	@echo "make check-tables   check src/tables/ against tools/gen_tables.py's output"
	@echo "make node           build the Node.js binding in bindings/node (npm ci, cc)"
	@echo "make wasm           build the WebAssembly build of the Node.js package (clang, wasm-ld, wasi-libc)"
	@echo "make browser-test   run the WebAssembly build's tests (WPT encoding, the API) in headless Chromium"
	@echo "make python         build the Python extension in bindings/python (PYTHON, default /usr/bin/python3)"
	@echo "make difftest       compare with encoding_rs on CASES cases (default 300000) from SEED"
	@echo "make bench          time wenc against encoding_rs, ICU, iconv, memcpy (ROWS, ROUNDS, MS, LEVELS)"
	@echo "make bench-check    only compare the benchmark's outputs with encoding_rs's"
	@echo "make fuzz           run every libFuzzer target for SECONDS (default 30)"
	@echo "make fuzz-levels    the same with AVX-512 off, then every vector kernel off (LEVEL_SECONDS, default 10)"
	@echo "make node-pack-test npm pack the binding, install it three ways (native, --ignore-scripts, no compiler), smoke tests, tsc"
	@echo "make cross-test     the tests for aarch64 and s390x under qemu-user (CROSS_ARCH, CROSS_QUICK=1)"
	@echo "make test-valgrind  run the test suite under valgrind memcheck"
	@echo "make analyze        gcc -fanalyzer, clang-tidy and cppcheck"
	@echo "make clean          remove the build directories"
	@echo "Set WENC_DATA_DIR=DIR to point at the Standard's data (default ../shared/whatwg)."
