#!/usr/bin/env bash
# gpu_faults.sh -- issue 21 on the lent GPU: the suite with the CUDA backend,
# recovery from a full GPU under compute-sanitizer, the old set-count
# miscount hunted, and the differential suites at scale on the GPU.
#   bash bench/gpu_faults.sh test   [CARRY]  build, ctest (CUDA included),
#                                             test_gpu_recover under memcheck,
#                                             test_multi_diff seed 20240612 case
#                                             416 repeated and under racecheck
#                                             and initcheck
#   bash bench/gpu_faults.sh build  [CARRY]  build and ctest only
#   bash bench/gpu_faults.sh startup [CARRY] search -c of 1 GiB of FASTA on
#                                             CUDA, the tree before (CARRY/base)
#                                             beside this one (after build)
#   bash bench/gpu_faults.sh scale  [SECS [SUITE...]]
#                                             the five (or the named)
#                                             differential suites (CPU
#                                             and CUDA configurations), 16
#                                             processes of different seeds each,
#                                             at the scale that makes 100,000+
#                                             cases, for at most SECS (default
#                                             100) a suite; prints the cases
#                                             checked (a run cut short counts
#                                             up to its last progress line)
# CARRY (default .gpu) holds zlib1g-dev*.deb (bench/gpu_zlib.sh). Logs in $OUT.
set -u
mode=${1:-test}
out=${OUT:-gpu-out}
mkdir -p "$out"
jobs=$(nproc)
B=/tmp/build-faults
log() { echo "== $*" | tee -a "$out/faults.log"; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
carry=${2:-.gpu}
[ "$mode" = scale ] && carry=.gpu # its second word is a time
extra=()
source bench/gpu_zlib.sh

if [ "$mode" = test ] || [ "$mode" = build ]; then
  log "device: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader)"
  log "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  t0=$(date +%s)
  cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90-real -DWARPMATCH_MPI=OFF \
    "${extra[@]}" > "$out/build.log" 2>&1 &&
    cmake --build $B -j"$jobs" >> "$out/build.log" 2>&1
  rc=$?
  log "build rc=$rc in $(( $(date +%s) - t0 )) s"
  [ $rc -eq 0 ] || { tail -30 "$out/build.log"; exit 1; }
  log "ctest, the CUDA backend included"
  (cd $B && ctest -j8 --output-on-failure --timeout 400) > "$out/ctest.log" 2>&1
  echo "ctest rc=$?" | tee -a "$out/faults.log"
  grep -E "tests passed|tests failed|Failed|\*\*\*|Timeout" "$out/ctest.log" | head -30 | tee -a "$out/faults.log"
  [ "$mode" = build ] && exit 0
  log "test_gpu_recover alone (its checks)"
  (cd $B && ./tests/test_gpu_recover 2>&1 | tail -4) | tee -a "$out/faults.log"
  log "test_gpu_recover under memcheck (0 errors wanted)"
  timeout 400 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 5 \
    $B/tests/test_gpu_recover > "$out/san_recover.log" 2>&1
  echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$out/san_recover.log" | head -1) $(tail -1 "$out/san_recover.log")" | tee -a "$out/faults.log"
  log "test_multi_diff seed 20240612 case 416, 200 times (the old CUDA miscount)"
  fails=0
  for i in $(seq 200); do
    WM_CASE=416 $B/tests/test_multi_diff 20240612 > "$out/m416.log" 2>&1 || { fails=$((fails + 1)); cp "$out/m416.log" "$out/m416_fail_$i.log"; }
  done
  echo "case 416: $fails of 200 runs failed; last: $(tail -1 "$out/m416.log")" | tee -a "$out/faults.log"
  log "the same 200 runs, 8 at once (other processes on the GPU)"
  fails=0
  for w in $(seq 25); do
    for i in $(seq 8); do (WM_CASE=416 $B/tests/test_multi_diff 20240612 > "$out/m416_$i.log" 2>&1 || echo fail >> "$out/m416_par.fail") & done
    wait
  done
  echo "case 416 in parallel: $(cat "$out/m416_par.fail" 2>/dev/null | wc -l) of 200 runs failed" | tee -a "$out/faults.log"
  for tool in racecheck initcheck; do
    WM_CASE=416 timeout 300 compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 5 \
      $B/tests/test_multi_diff 20240612 > "$out/san_m416_$tool.log" 2>&1
    echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san_m416_$tool.log" | head -1) $(tail -1 "$out/san_m416_$tool.log")" | tee -a "$out/faults.log"
  done
  exit 0
fi

if [ "$mode" = scale ]; then
  secs=${2:-100}
  procs=${PROCS:-16} # processes (seeds) at once
  if [ ! -x $B/tests/test_search_diff ]; then # a fresh machine: build (no ctest)
    cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90-real -DWARPMATCH_MPI=OFF \
      "${extra[@]}" > "$out/build.log" 2>&1 && cmake --build $B -j"$jobs" >> "$out/build.log" 2>&1 ||
      { tail -20 "$out/build.log"; exit 1; }
  fi
  log "differential suites, CPU and CUDA configurations, $procs seeds at once, at most $secs s a suite"
  shift 2 2>/dev/null
  suites=${*:-search multi align global dtw}
  for name in $suites; do
    # the scale that makes PROCS seeds x base cases x scale >= 100,000
    case $name in search|align) base=1500 ;; multi) base=500 ;; *) base=2000 ;; esac
    scale=$(( (100000 + procs * base - 1) / (procs * base) ))
    rm -f "$out"/scale_${name}_*.log
    for i in $(seq $procs); do
      WM_TEST_SCALE=$scale timeout "$secs" \
        $B/tests/test_${name}_diff $((1000 + i)) > "$out/scale_${name}_$i.log" 2>&1 &
    done
    wait
    # cases done: the last progress line of each ("N/M cases") or the whole run
    done_cases=0 failed=0 finished=0
    for i in $(seq $procs); do
      f="$out/scale_${name}_$i.log"
      n=$(grep -oE '^ *[0-9]+/[0-9]+ cases' "$f" | tail -1 | grep -oE '[0-9]+' | head -1)
      done_cases=$((done_cases + ${n:-0}))
      grep -qE '^[0-9]+ passed, 0 failed$' "$f" && finished=$((finished + 1))
      grep -qE 'passed, [1-9][0-9]* failed' "$f" && failed=$((failed + 1))
    done
    echo "test_${name}_diff: $done_cases cases checked ($procs seeds from 1001, scale $scale, $finished finished, $failed with failures)" | tee -a "$out/faults.log"
  done
  exit 0
fi
if [ "$mode" = startup ]; then
  # the CUDA start-up made while the first file is read: the tree before
  # (CARRY/base: git archive of the commit before) beside this one
  [ -x $B/warpmatch ] || { echo "run the build mode first"; exit 1; }
  cmake -S "$carry/base" -B /tmp/build-base -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90-real \
    -DWARPMATCH_MPI=OFF -DWARPMATCH_TESTS=OFF "${extra[@]}" > "$out/build_base.log" 2>&1 &&
    cmake --build /tmp/build-base -j"$jobs" >> "$out/build_base.log" 2>&1 || { tail -20 "$out/build_base.log"; exit 1; }
  fa=/tmp/chrX_1g.fa
  if [ ! -f $fa ]; then
    zcat "$carry/human_GRCh37_chrX_first70Mb.fa.gz" | grep -v '^>' | tr -d '\n' | fold -w 60 > /tmp/chrX.lines
    { for r in $(seq 16); do echo ">chrX_copy$r"; cat /tmp/chrX.lines; done; } > $fa
  fi
  cat $fa > /dev/null
  pat=$(sed -n 20000p /tmp/chrX.lines | cut -c1-32)
  ms() { local s=$(date +%s%N); "$@" > /tmp/st.out 2>/dev/null; echo "$(( ($(date +%s%N) - s) / 1000000 )) ms $(cut -f2 /tmp/st.out | head -1)"; }
  log "search -c, $(stat -c %s $fa) bytes of FASTA (16 records) in the page cache, m = 32; base then new, 5 rounds"
  for r in 1 2 3 4 5; do
    for v in base faults; do
      for be in cuda cpu; do
        echo "[$v] --backend $be -k 0: $(ms /tmp/build-$v/warpmatch search -c --backend $be $pat $fa)"
      done
    done
  done | tee -a "$out/faults.log"
  log "info (new)"; $B/warpmatch info | grep -i "start-up" | tee -a "$out/faults.log"
  exit 0
fi
echo "usage: bash bench/gpu_faults.sh test|build|scale|startup [CARRY|SECS]" >&2
exit 2
