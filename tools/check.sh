#!/usr/bin/env bash
# Checks beyond the test suite, each in its own build folder (build/ is left alone):
#   tools/check.sh sanitize       # the whole project built with AddressSanitizer and UndefinedBehaviorSanitizer
#                                 # (gcc) in build-sanitize/, and the whole test suite run there
#   tools/check.sh fuzz SECONDS   # tools/fuzz.sh SECONDS: the libFuzzer targets, SECONDS each
# Exits non-zero when a check fails or finds something.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: tools/check.sh sanitize | fuzz SECONDS" >&2
  exit 2
}

sanitize() {
  tools/setup.sh --packages-only
  local build=build-sanitize start
  start=$(date +%s)
  if [ ! -f "$build/CMakeCache.txt" ]; then  # -O1 -g1: half the compile time of -O2 -g, full stack traces
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
      -DRSOC_SANITIZE=ON -DRSOC_BUILD_BENCHMARKS=OFF >&2
  fi
  cmake --build "$build" -j "$(nproc)" >&2
  echo "sanitize: build $(($(date +%s) - start)) s" >&2
  start=$(date +%s)
  # No leak check (SystemC keeps its simulation context for the life of the process) and no
  # detect_stack_use_after_return (it breaks SystemC's coroutine stacks). A finding aborts the process it is in,
  # so that a test of an exit code cannot mistake it for an error rsoc reports (1 or 2); the sanitizers write
  # to build-sanitize/sanitizer/ rather than to stderr, which the CLI tests compare. The CLI tests run this
  # build's rsoc.
  local reports="$PWD/$build/sanitizer" rc=0
  rm -rf "$reports"
  mkdir -p "$reports"
  ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:log_path=$reports/asan" \
    UBSAN_OPTIONS="print_stacktrace=1:abort_on_error=1:log_path=$reports/ubsan" \
    ctest --test-dir "$build" --output-on-failure -j "$(nproc)" || rc=$?
  echo "sanitize: tests $(($(date +%s) - start)) s" >&2
  # Every report of an error (ASan's warnings about SystemC's coroutine stacks are not errors).
  local findings
  findings=$(grep -l -E "ERROR: AddressSanitizer|runtime error:" "$reports"/* 2>/dev/null || true)
  if [ -n "$findings" ]; then
    for f in $findings; do
      echo "sanitize: $f:" >&2
      head -40 "$f" >&2
    done
    echo "sanitize: $(echo "$findings" | wc -l) findings" >&2
    rc=1
  else
    echo "sanitize: 0 findings" >&2
  fi
  return "$rc"
}

case "${1:-}" in
  sanitize)
    (($# == 1)) || usage
    sanitize
    ;;
  fuzz)
    (($# == 2)) || usage
    exec tools/fuzz.sh "$2"
    ;;
  *) usage ;;
esac
