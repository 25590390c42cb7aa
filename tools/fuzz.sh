#!/usr/bin/env bash
# Fuzzes the scenario loader and the command-line parsers that change a scenario (tools/fuzz/) with libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer, SECONDS per target, the targets side by side.
#   tools/fuzz.sh 60
# Builds the targets in the instrumented build, build-instrumented/ (tools/build_instrumented.sh: clang-14, the
# build the sanitized tests run in), seeds each target (shipped and broken scenarios, tests/hostile/,
# tools/fuzz/override_seeds.txt), keeps the corpora in build-instrumented/fuzz/corpus/ from run to run, and
# prints per target the executions, the corpus size and the findings (build-instrumented/fuzz/findings/). Exits 1 when a target found a crash, undefined behaviour, an uncaught
# exception, a timeout (10 s) or an input that needs more than 2 GB.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: tools/fuzz.sh SECONDS   (seconds per target, a whole number > 0)" >&2
  exit 2
fi

build=build-instrumented
started=$(date +%s)
BUILD_DIR="$build" tools/build_instrumented.sh scenario_fuzzer override_fuzzer fuzz_dictionary
echo "fuzz: build $(($(date +%s) - started)) s" >&2

work="$build/fuzz"
targets=(scenario_fuzzer override_fuzzer)
mkdir -p "$work"
"$build/tools/fuzz/fuzz_dictionary" >"$work/scenario.dict"

# Seeds, rewritten on every run (the corpora keep what the runs found).
rm -rf "$work/seeds"
mkdir -p "$work/seeds/scenario_fuzzer" "$work/seeds/override_fuzzer"
for f in scenarios/*.json tests/broken_scenarios/* tests/hostile/* tests/fuzz_regressions/scenario/*.json; do
  [ -f "$f" ] && cp "$f" "$work/seeds/scenario_fuzzer/$(echo "$f" | tr / _)"
done
n=0
while IFS= read -r line; do
  n=$((n + 1))
  printf '%s' "$line" >"$work/seeds/override_fuzzer/seed_$n"
done <tools/fuzz/override_seeds.txt
for f in tests/fuzz_regressions/override/*.txt; do
  [ -f "$f" ] && cp "$f" "$work/seeds/override_fuzzer/$(basename "$f")"
done

# ASan's leak check is off: SystemC keeps its simulation context for the life of the process.
export ASAN_OPTIONS=detect_leaks=0
export UBSAN_OPTIONS=print_stacktrace=1
pids=()
for t in "${targets[@]}"; do
  rm -rf "$work/findings/$t"
  mkdir -p "$work/corpus/$t" "$work/findings/$t"
  max_len=16384
  [ "$t" = override_fuzzer ] && max_len=1024
  "$build/tools/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
    -dict="$work/scenario.dict" -print_final_stats=1 -artifact_prefix="$work/findings/$t/" \
    "$work/corpus/$t" "$work/seeds/$t" >"$work/$t.log" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!targets[@]}"; do
  t="${targets[$i]}"
  rc=0
  wait "${pids[$i]}" || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log" | tail -1)
  # The last status line: "#N DONE cov: EDGES ft: FEATURES corp: INPUTS/SIZE ...".
  corpus=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$work/$t.log" | tail -1 | sed 's/corp: //; s|/| inputs, |')
  edges=$(grep -o 'cov: [0-9]*' "$work/$t.log" | tail -1 | sed 's/cov: //')
  findings=$(find "$work/findings/$t" -type f | wc -l)
  echo "fuzz: $t: ${execs:-?} executions in $seconds s, corpus ${corpus:-?}, ${edges:-?} edges covered," \
    "$findings findings (exit $rc)"
  if ((rc != 0 || findings > 0)); then
    status=1
    grep -E "^==[0-9]+==ERROR|runtime error|uncaught exception|terminate called|Test unit written" \
      "$work/$t.log" | head -20 || true
    echo "fuzz: $t: log $work/$t.log; reproduce with $build/tools/fuzz/$t FILE" >&2
  fi
done
echo "fuzz: total $(($(date +%s) - started)) s" >&2
exit "$status"
