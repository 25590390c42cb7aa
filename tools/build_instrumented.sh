#!/usr/bin/env bash
# Builds the instrumented build: the whole project with clang, AddressSanitizer and UndefinedBehaviorSanitizer,
# and libFuzzer's coverage (-fsanitize=fuzzer-no-link), in build-instrumented/ (BUILD_DIR). One build serves the
# sanitized test suite (tools/check.sh sanitize) and the fuzzers (tools/fuzz.sh), which link libFuzzer's main.
#   tools/build_instrumented.sh                 # everything
#   tools/build_instrumented.sh scenario_fuzzer # only these targets
# Installs clang-14 and its sanitizer runtimes (libclang-rt-14-dev) when missing. -O1 with line tables: half
# the compile time of -O2, and reports that name files and lines.
set -euo pipefail
cd "$(dirname "$0")/.."

tools/setup.sh --packages-only
tools/install_missing.sh clang-14 libclang-rt-14-dev

build="${BUILD_DIR:-build-instrumented}"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DCMAKE_CXX_COMPILER=clang++-14 -DRSOC_SANITIZE=ON -DRSOC_FUZZ=ON -DRSOC_BUILD_BENCHMARKS=OFF >&2
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build" -j "$(nproc)" "${targets[@]}" >&2
