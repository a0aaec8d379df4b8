#!/usr/bin/env bash
# fuzz.sh -- build the libFuzzer harnesses of tests/fuzz and run each for a
# while (tests/fuzz/README.md says what each one checks):
#   bash scripts/fuzz.sh [SECONDS] [HARNESS...]
# SECONDS per harness [600: an hour and more for all, a night's run]; the
# harnesses by name (seqfile seqrange signal patfile pairtsv alignio args)
# [all]. CI runs `bash scripts/fuzz.sh 20` (scripts/run_tests.sh).
# Each harness first replays its seeds (tests/fuzz/corpus/NAME), every
# regression input (tests/fuzz/regress) and every open finding
# (tests/fuzz/found, when that folder exists: none is open now), then
# mutates them for SECONDS, one job at a time.
# Everything it writes is under $WM_FUZZ_OUT [build-fuzz/out/DATE-TIME]:
# corpus/NAME (the new inputs; the seeds in the tree are never written),
# crashes/NAME-* (an input that failed: a crash, a sanitizer report or an
# oracle's "fuzz oracle: ..." line; replay it with build-fuzz/fuzz/fuzz_NAME
# FILE), logs/NAME.log. Exit status 1 when a harness failed (the others
# still run), 0 otherwise. Needs clang with libFuzzer (libclang-rt);
# $WM_FUZZ_BUILD [build-fuzz] is the build folder, $CC is not read.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
secs=${1:-600}
[ $# -gt 0 ] && shift
all="seqfile seqrange signal patfile pairtsv alignio args"
names=${*:-$all}
build=${WM_FUZZ_BUILD:-build-fuzz}
out=${WM_FUZZ_OUT:-$build/out/$(date +%Y%m%d-%H%M%S)}
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DWARPMATCH_FUZZ=ON -DWARPMATCH_WERROR=ON -DWARPMATCH_CUDA=OFF -DWARPMATCH_BENCH=OFF \
      -DWARPMATCH_TESTS=OFF -DWARPMATCH_MPI=OFF >/dev/null
targets=()
for n in $names; do targets+=("fuzz_$n"); done
cmake --build "$build" -j"$jobs" --target "${targets[@]}"

mkdir -p "$out/crashes" "$out/logs"
failed=()
for n in $names; do
  mkdir -p "$out/corpus/$n"
  start=$(date +%s)
  # The first folder gets the new inputs; the others are only read.
  if "$build/fuzz/fuzz_$n" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
       -print_final_stats=1 -artifact_prefix="$out/crashes/$n-" \
       "$out/corpus/$n" "tests/fuzz/corpus/$n" \
       $( [ -d tests/fuzz/regress ] && echo tests/fuzz/regress ) \
       $( [ -d tests/fuzz/found ] && echo tests/fuzz/found ) \
       >"$out/logs/$n.log" 2>&1; then
    status=ok
  else
    status=FAILED
    failed+=("$n")
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/logs/$n.log" | tail -1)
  echo "fuzz_$n: $status, ${runs:-?} runs in $(( $(date +%s) - start )) s"
  if [ "$status" = FAILED ]; then
    grep -a -m1 -E '^fuzz oracle:|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error' \
         "$out/logs/$n.log" || true
    ls "$out/crashes/$n-"* 2>/dev/null | sed 's/^/  input: /' || true
  fi
done
case $out in /*) shown=$out ;; *) shown=$root/$out ;; esac
echo "fuzz.sh: output in $shown (crashes/, logs/, corpus/)"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: FAILED: ${failed[*]}; the inputs are in $out/crashes" >&2
  exit 1
fi
