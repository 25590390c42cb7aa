#!/usr/bin/env bash
# Checks beyond the test suite (build/ is left alone):
#   tools/check.sh sanitize       # the whole project built with AddressSanitizer and UndefinedBehaviorSanitizer
#                                 # (clang) in build-instrumented/ (tools/build_instrumented.sh), and the whole
#                                 # test suite run there
#   tools/check.sh fuzz SECONDS   # tools/fuzz.sh SECONDS: the libFuzzer targets of the same build, SECONDS each
#   tools/check.sh perf [--update]  # instructions (callgrind) of the perf cases against
#                                 # tests/bench/perf_baselines.txt: fails when one grows more than 3 %; --update
#                                 # writes the file anew (a deliberate commit that says why). Uses ./build
#                                 # (BUILD_DIR), built by tools/setup.sh.
#   tools/check.sh outputs DIR    # every user-visible output into DIR: each shipped scenario's run (with its
#                                 # trace and VCD), crossover, resolved scenario, the schema and reproduce;
#                                 # host.json (wall times) and reproduce's logs (paths) left out. A restructuring
#                                 # that must not change what users see runs it before and after and compares:
#                                 # diff -r BEFORE AFTER. Uses BUILD_DIR's rsoc like perf.
# Exits non-zero when a check fails or finds something.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: tools/check.sh sanitize | fuzz SECONDS | perf [--update] | outputs DIR" >&2
  exit 2
}

sanitize() {
  local build=build-instrumented start
  start=$(date +%s)
  BUILD_DIR="$build" tools/build_instrumented.sh
  echo "sanitize: build $(($(date +%s) - start)) s" >&2
  start=$(date +%s)
  # No leak check (SystemC keeps its simulation context for the life of the process) and no
  # detect_stack_use_after_return (it breaks SystemC's coroutine stacks). A finding aborts the process it is in,
  # so that a test of an exit code cannot mistake it for an error rsoc reports (1 or 2); the sanitizers write
  # to build-instrumented/sanitizer/ rather than to stderr, which the CLI tests compare. The CLI tests run this
  # build's rsoc. The docs' figures (label doc_figures) are the plain build's to check: the same runs again;
  # the Python tools' own tests (label python) run no code of this build.
  # Left out as well: the three tests that run every shipped scenario's crossover and sensitivity over and over
  # (each path they take is one Cli.EveryShippedScenarioRunsWithVerifiedResults and the smaller tests already
  # run sanitized): the slowest of the suite, 78 s together in the plain build; and the whole reproduction of
  # every reference system (126 s sanitized; each system's scenario runs sanitized in that test, the reproduce
  # command in the CliOutput and CliReproduce tests).
  local heavy="^(CrossoverSearch\.GivesTheExhaustiveTablesAnswerOnEveryShippedScenario"
  heavy+="|CrossoverSearch\.TheCrossoverFoundDoesNotDependOnTheTable|Cli\.SensitivityRunsOnEveryShippedScenario"
  heavy+="|Cli\.ReproduceComparesEveryReferenceSystemWithItsPublishedFigures)$"
  local reports="$PWD/$build/sanitizer" rc=0
  rm -rf "$reports"
  mkdir -p "$reports"
  ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:log_path=$reports/asan" \
    UBSAN_OPTIONS="print_stacktrace=1:abort_on_error=1:log_path=$reports/ubsan" \
    ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -LE "doc_figures|python" -E "$heavy" || rc=$?
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

# The perf cases: name, then the command (deterministic: fixed scenarios and seeds, no child processes).
perf_cases() {
  local build="$1" out="$2"
  printf '%s\n' \
    "crossover|$build/tools/rsoc crossover --max-blocks 20 --out $out/crossover -q" \
    "cached_aes|$build/tests/bench_cached --no-kernel-rate - aes128 20 16" \
    "cached_aes_16b_blocks|$build/tests/bench_cached --no-kernel-rate scenarios/smoke_aes.json aes128 50 64" \
    "hsm_signature|$build/tools/rsoc run scenarios/hsm_rsa2048.json --set workload.hsm.clients=1 --set workload.hsm.signatures_per_client=1 --out $out/hsm -q"
}

perf() {
  local update=0
  if [ "${1:-}" = --update ]; then update=1; fi
  tools/install_missing.sh valgrind
  BUILD_DIR="${BUILD_DIR:-build}" tools/setup.sh >/dev/null
  local build="${BUILD_DIR:-build}" baselines=tests/bench/perf_baselines.txt out rc=0 fresh=""
  out=$(mktemp -d)
  trap 'rm -rf "$out"' RETURN
  export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
  while IFS='|' read -r name command; do
    # shellcheck disable=SC2086  # the command is split into words on purpose
    if ! valgrind --tool=callgrind --callgrind-out-file="$out/$name.callgrind" $command >"$out/$name.log" 2>&1; then
      echo "perf: $name failed:" >&2
      tail -20 "$out/$name.log" >&2
      return 1
    fi
    local count baseline
    count=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/$name.log")
    fresh+="$name $count"$'\n'
    baseline=$(awk -v n="$name" '$1 == n { print $2 }' "$baselines" 2>/dev/null || true)
    if [ -z "$baseline" ]; then
      echo "perf: $name: $count instructions (no baseline)" >&2
      ((update)) || rc=1
      continue
    fi
    local verdict
    verdict=$(awk -v c="$count" -v b="$baseline" 'BEGIN {
      r = c / b; printf "%.4f %s", r, (r > 1.03 ? "over" : "ok") }')
    echo "perf: $name: $count instructions, ${verdict% *} of the baseline $baseline: ${verdict#* }" >&2
    if [ "${verdict#* }" = over ] && ((!update)); then rc=1; fi
  done < <(perf_cases "$build" "$out")
  if ((update)); then
    {
      echo "# Instructions (callgrind, the whole process) of each case of tools/check.sh perf, which fails when one"
      echo "# grows more than 3 % over its line. Rewritten by tools/check.sh perf --update: a deliberate commit"
      echo "# that says why."
      printf '%s' "$fresh"
    } >"$baselines"
    echo "perf: baselines written to $baselines" >&2
    return 0
  fi
  ((rc == 0)) && echo "perf: every case within 3 % of its baseline" >&2
  return "$rc"
}

outputs() {
  local dir="$1" rsoc="${BUILD_DIR:-build}/tools/rsoc" s name
  mkdir -p "$dir"
  export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
  "$rsoc" schema >"$dir/schema.txt"
  for s in scenarios/*.json; do
    name=$(basename "$s" .json)
    "$rsoc" show "$s" >"$dir/$name.show.json"
    "$rsoc" run "$s" --trace --vcd --out "$dir/$name" -q >"$dir/$name.stdout"
    # (a scenario with no functionality in both implementations has no crossover: its exit code is kept)
    local rc=0
    "$rsoc" crossover "$s" --table 0 --out "$dir/$name-crossover" -q >"$dir/$name-crossover.stdout" \
      2>"$dir/$name-crossover.stderr" || rc=$?
    echo "exit $rc" >>"$dir/$name-crossover.stderr"
  done
  "$rsoc" reproduce --out "$dir/reproduce" --jobs "$(nproc)" -q >"$dir/reproduce.stdout"
  find "$dir" \( -name host.json -o -name "*.log" \) -delete  # wall times; the children's logs name their folder
  echo "outputs: $(find "$dir" -type f | wc -l) files in $dir" >&2
}

case "${1:-}" in
  outputs)
    (($# == 2)) || usage
    outputs "$2"
    ;;
  sanitize)
    (($# == 1)) || usage
    sanitize
    ;;
  fuzz)
    (($# == 2)) || usage
    exec tools/fuzz.sh "$2"
    ;;
  perf)
    (($# <= 2)) || usage
    shift
    perf "$@"
    ;;
  *) usage ;;
esac
