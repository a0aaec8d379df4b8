#!/usr/bin/env bash
# run_global.sh -- global alignment (issue 5) beside edlib (NW), in the same
# run on the same cores: paper 001's grid, long pairs, 1,000,000 read pairs.
#
#   bash bench/run_global.sh [options] LOG_DIR [BUILD_DIR [THREADS]]
#
# LOG_DIR: one log per part (global_grid.log, global_long.log,
# global_pairs.log, global_slow.log, global_e2e.log) and run_global.log (what
# ran, exit codes); each log is also shown on stdout. BUILD_DIR
# [build-global]: configured when new (Release, no tests; CUDA only with
# --backend cuda) and bench_global, gen_pairs and the CLI built there.
# THREADS [all]: the "all cores" count. Inputs: bench/prep_global.sh (run
# here; files in DATA_DIR [.bench/global]).
#
# Options:
#   --only LIST     parts, comma separated [grid,long,pairs]:
#                     grid   paper 001's experiment: m = n = 1,000..10,000, random
#                            pairs (the paper's) and ~5% mutated pairs; bitvector,
#                            dp, four-russians t = 1, 2, 3 (tables built apart:
#                            fr-table rows), edlib distance and path on 1 core
#                     long   m = n = 100,000 and 1,000,000, random and real (E. coli
#                            vs a copy with 1% substitutions, 0.1% indels); rand1M
#                            with --skip-slow (edlib and single-thread rows there
#                            are the `slow` part). On the CPU two calls: the
#                            bit-vector rows and edlib on 1 and THREADS threads,
#                            then dp and four-russians (t = 3) beside edlib's
#                            distance on THREADS only (1e10 cells at 100k: a
#                            single thread would take minutes a row)
#                     pairs  1,000,000 pairs of 150 bp reads (0-10% edits),
#                            wm_align_pairs, edlib on 1 and THREADS processes
#                     slow   rand1M's skipped rows: edlib (distance, path) on one
#                            core and, on the CPU, ours on 1 thread; each
#                            bench_global call under SLOW_S
#                     e2e    the CLI end to end from the files: `warpmatch align
#                            --mode global --pairs` on the read files (distance,
#                            and --cigar), and --cigar on the single pairs
#                            E2E_PAIRS [real1M rand1M]; output to /dev/null,
#                            3 runs each
#   --backend B     cpu or cuda [cpu]: ours' backend. cuda: ours on the GPU
#                   (-j THREADS host threads) and edlib on THREADS processes
#                   (pairs); cpu: ours on 1 and THREADS threads
#   --quick         a smoke run: grid 1,000..3,000, long real100k only
#                   (bitvector rows and edlib), 10,000 pairs, 3 repeats
#
# Environment: REPS (5), MAX_S (20), BUDGET_S (60), SIZES (grid m = n list),
# MAX_PAIRS (pairs: all), LONG_THREADS (CPU, bit-vector rows of `long`:
# "1,THREADS"), SLOW_S (600: time limit of each `slow`
# call), STEP_S (0 = none: time limit of every other bench_global call),
# GLOBAL_ARGS (passed to every bench_global call), DATA_DIR (.bench/global),
# CARRY (.gpu: the E. coli FASTA.gz, as dna/ecoli_k12_mg1655.fa.gz, on a host
# without shared/data; debs/ with the edlib .debs on a host without them).
set -uo pipefail

only="grid,long,pairs" backend=cpu quick=0
args=()
while (( $# )); do
  case $1 in
    --only) only=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 0 ;;
    -*) echo "run_global: unknown option $1" >&2; exit 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
(( ${#args[@]} >= 1 )) || { sed -n '5p' "$0" >&2; exit 2; }
[[ "$backend" == cpu || "$backend" == cuda ]] || { echo "run_global: --backend cpu or cuda" >&2; exit 2; }
logs=${args[0]}
build=${args[1]:-build-global}
threads=${args[2]:-all}
[[ "$threads" == all ]] && threads=$(nproc)
reps=${REPS:-5}
max_s=${MAX_S:-20}
budget_s=${BUDGET_S:-60}
sizes=${SIZES:-1000,2000,3000,4000,5000,6000,7000,8000,9000,10000}
max_pairs=${MAX_PAIRS:-0}
slow_s=${SLOW_S:-600}
step_s=${STEP_S:-0}
data=${DATA_DIR:-.bench/global}
carry=${CARRY:-.gpu}
long_inputs=rand100k,real100k,rand1M,real1M
if (( quick )); then
  reps=3 sizes=1000,2000,3000 max_pairs=10000 long_inputs=real100k
fi
if [[ "$backend" == cuda ]]; then
  thr=$threads procs=$threads long_thr=$threads
else
  thr=1,$threads procs=1,$threads long_thr=${LONG_THREADS:-1,$threads}
fi
want() { [[ ",$only," == *",$1,"* ]]; }
mkdir -p "$logs"
summary=$logs/run_global.log
note() { echo "run_global: $*" | tee -a "$summary"; }
t_start=$(date +%s)

# ---- build ------------------------------------------------------------------------
extra=()
if [[ ! -f /usr/include/edlib.h ]] && ls "$carry"/debs/libedlib*.deb >/dev/null 2>&1; then
  eval "$(bash bench/peers/unpack_debs.sh "$carry/debs" /tmp/peerprefix)"
  extra+=(-DCMAKE_PREFIX_PATH=/tmp/peerprefix/usr)
fi
if [[ ! -f /usr/include/zlib.h ]] && ls "$carry"/zlib1g-dev*.deb >/dev/null 2>&1; then
  mkdir -p /tmp/zprefix && dpkg -x "$carry"/zlib1g-dev*.deb /tmp/zprefix
  zlib_dir=$(ls -d /tmp/zprefix/usr/lib/*-linux-gnu | head -1)
  ln -sf "$(ls /lib/x86_64-linux-gnu/libz.so.1* /usr/lib/x86_64-linux-gnu/libz.so.1* 2>/dev/null | head -1)" "$zlib_dir/libz.so"
  extra+=(-DZLIB_INCLUDE_DIR=/tmp/zprefix/usr/include -DZLIB_LIBRARY="$zlib_dir/libz.so")
fi
bench=$build/bench/bench_global
cuda_flag=OFF
[[ "$backend" == cuda ]] && cuda_flag=ON
configure=0
[[ -f "$build/CMakeCache.txt" ]] || { configure=1; extra+=(-DCMAKE_BUILD_TYPE=Release -DWARPMATCH_CUDA=$cuda_flag -DWARPMATCH_TESTS=OFF); }
# built before edlib could be found: configure again
if [[ -x "$bench" && "$("$bench" --info 2>/dev/null)" != "edlib=1" ]] && \
   { [[ -f /usr/include/edlib.h ]] || (( ${#extra[@]} )); }; then
  configure=1
fi
[[ -x "$bench" ]] || configure=1
mkdir -p "$build"
{ if (( configure )); then cmake -S . -B "$build" "${extra[@]}"; fi &&
  cmake --build "$build" -j"$(nproc)" --target bench_global gen_pairs warpmatch_cli; } >"$build/global-build.log" 2>&1 ||
  { echo "run_global: build failed, see $build/global-build.log" >&2; tail -20 "$build/global-build.log" >&2; exit 2; }
[[ "$("$bench" --info)" == "edlib=1" ]] || note "warning: bench_global built without edlib; ours only"

# ---- inputs -------------------------------------------------------------------------
CARRY=$carry READS=${READS:-1000000} bash bench/prep_global.sh "$build" "$data" || exit 2

# ---- runs ------------------------------------------------------------------------------
edlib_ver=$(dpkg-query -W -f '${Version}' libedlib1 2>/dev/null || ls "$carry"/debs/libedlib1_*.deb 2>/dev/null | sed 's/.*libedlib1_//; s/_.*//')
note "$(date -u +%Y-%m-%dT%H:%MZ); backend $backend; threads $thr; edlib ${edlib_ver:-version unknown}; parts $only$( (( quick )) && echo ' (quick)')"
note "inputs $data (md5 in $data/MANIFEST.txt)"
fails=0
common=(--backend "$backend" --reps "$reps" --max-s "$max_s" --budget-s "$budget_s" -d "$data")
runb() {  # PART LIMIT_S: bench_global args...; output to LOG_DIR/global_PART.log (appended) and stdout
  local part=$1 lim=$2 rc t0
  shift 2
  t0=$(date +%s)
  echo "## bench_global $*" >>"$logs/global_$part.log"
  if (( lim > 0 )); then
    timeout "$lim" "$bench" "$@" "${common[@]}" ${GLOBAL_ARGS:-} 2>&1 | tee -a "$logs/global_$part.log"
  else
    "$bench" "$@" "${common[@]}" ${GLOBAL_ARGS:-} 2>&1 | tee -a "$logs/global_$part.log"
  fi
  rc=${PIPESTATUS[0]}
  note "bench_global $* : exit $rc$([[ $rc == 1 ]] && echo ' (MISMATCH)')$([[ $rc == 124 ]] && echo " (stopped after $lim s)") in $(( $(date +%s) - t0 )) s"
  (( rc == 0 )) || fails=$(( fails + 1 ))
}
for p in grid long pairs slow e2e; do want $p && : >"$logs/global_$p.log"; done

if want grid; then
  runb grid "$step_s" grid -j "$thr" --sizes "$sizes"
fi
if want long; then
  if [[ "$backend" == cuda ]]; then
    runb long "$step_s" long -j "$threads" --inputs "$long_inputs" --skip-slow
  else
    runb long "$step_s" long -j "$long_thr" --inputs "$long_inputs" --skip-slow \
      --only bitvector,bitvector+cigar,edlib,edlib-path
    (( quick )) ||
      runb long "$step_s" long -j "$threads" --inputs "$long_inputs" --skip-slow --only edlib,dp,four-russians
  fi
fi
if want pairs; then
  mp=()
  (( max_pairs > 0 )) && mp=(--max-pairs "$max_pairs")
  runb pairs "$step_s" pairs -j "$thr" --procs "$procs" "${mp[@]}"
fi
if want slow; then
  # what --skip-slow left out on rand1M, one bench_global call per row group
  runb slow "$slow_s" long -j "$threads" --inputs rand1M --only edlib
  runb slow "$slow_s" long -j "$threads" --inputs rand1M --only edlib-path
  if [[ "$backend" == cpu ]]; then
    runb slow "$slow_s" long -j 1 --inputs rand1M --only bitvector,bitvector+cigar
  fi
fi
if want e2e; then
  cli=$build/warpmatch
  e2e() {  # LABEL: warpmatch args...; 3 runs, output to /dev/null
    local label=$1 r s e rc
    shift
    for r in 1 2 3; do
      s=$(date +%s%N)
      "$cli" "$@" >/dev/null 2>"$logs/e2e_err.txt"
      rc=$?
      e=$(date +%s%N)
      echo "$label run $r: $(( (e - s) / 1000000 )) ms, exit $rc $(head -c 200 "$logs/e2e_err.txt")"
    done | tee -a "$logs/global_e2e.log"
  }
  cat "$data/reads_a.fa" "$data/reads_b.fa" >/dev/null   # into the page cache
  n=$(grep -c '^>' "$data/reads_a.fa")
  {
    echo "## the CLI end to end: files in the page cache, output to /dev/null; ms = wall time of the whole process"
    echo "## (CUDA start-up included for --backend cuda); $n pairs of 150 bp; -j $threads"
  } | tee -a "$logs/global_e2e.log"
  e2e "align --mode global --pairs (distance) --backend $backend" align --mode global --pairs --backend "$backend" -j "$threads" "$data/reads_a.fa" "$data/reads_b.fa"
  e2e "align --mode global --pairs --cigar --backend $backend" align --mode global --pairs --cigar --backend "$backend" -j "$threads" "$data/reads_a.fa" "$data/reads_b.fa"
  for w in ${E2E_PAIRS:-real1M rand1M}; do
    e2e "align --mode global --cigar --backend $backend $w" align --mode global --cigar --backend "$backend" -j "$threads" \
      "$data/${w}_a.seq" "$data/${w}_b.seq"
  done
  rm -f "$logs/e2e_err.txt"
  if grep -q 'exit [1-9]' "$logs/global_e2e.log"; then
    note "!!! a CLI run exited non-zero, see $logs/global_e2e.log"
    fails=$(( fails + 1 ))
  fi
fi
note "done in $(( $(date +%s) - t_start )) s"
if (( fails )); then
  note "!!! FAIL: $fails bench_global call(s) with a mismatch, a failure or a timeout; see the lines marked !!!"
  exit 1
fi
note "no mismatch, failure or timeout (bench_global rows: every distance as edlib's, every CIGAR/path checked)"
