#!/usr/bin/env bash
# run_align.sh -- alignment (issue 4) on the CPU backend beside edlib, in the
# same run on the same cores: paper 000's Table I shapes and long reads.
#
#   bash bench/run_align.sh [options] [BUILD_DIR [THREADS]]
#
# BUILD_DIR [build-align]: configured (Release, no CUDA, no tests, when new)
# and bench_cpu_align + gen_text built there if missing. THREADS [all]: the
# "all cores" thread count; every workload runs with 1 and THREADS threads
# (LONG_THREADS for the 70 Mb ones). Inputs come from bench/prep_align.sh
# (run here; files in DATA_DIR [.bench/align]). Results go to stdout.
#
# Options:
#   --only LIST     the workloads to run, comma separated, from:
#                     bin     Table I, random 0/1: m = 32..1024 vs 4,194,304
#                     dna     Table I shapes on real DNA: chrX queries m = 32..1024
#                             vs 4,194,304 bases of chrX (prep_align.sh says where)
#                     chrx10k a real long read, m = 10,000, vs the 70 Mb chrX sample
#                     chrx100k m = 100,000 (the 4 longest reads end to end) vs chrX:
#                             ~7e12 cells, opt-in (--with-100k)
#                     ecoli   the realistic case: the reads vs the E. coli genome
#                             they come from, both strands (see below)
#                   [bin,dna,chrx10k, plus chrx100k with --with-100k, plus ecoli
#                   with --ecoli]
#   --with-100k     add chrx100k (and the 100,000 query to ecoli)
#   --ecoli         add ecoli
#   --edlib-k K     edlib's k on chrx100k, to bound its run (a distance over K
#                   is reported as ">K" and not compared) [-1: none, as users
#                   run it; edlib then tries k = 64, 128, ... up to 131,072]
#   --quick         2 repeats, Table I shapes only (a smoke run)
#
# ecoli: read10k (10,000 bases of read #4), readmax (the longest read, 26,872)
# and, with --with-100k, read100k, each forward and reverse-complemented (a
# read maps to one strand; the other strand's distance is that of unrelated
# DNA), against the 4,639,675-base genome; first with k = -1, then with k =
# m / ECOLI_KDIV [3] for both tools, a bound between the mapped strand and
# unrelated DNA (measured: read10k 3,120 = 31% forward, 4,621 = 46% reverse;
# readmax 3,267 = 12% forward, 13,117 = 49% reverse; read #4 is a poor read,
# or part of it does not come from this genome). read100k is four reads end
# to end, so no strand has it whole.
#
# Environment: REPEATS (5; timed runs per cell after one untimed run),
# LONG_REPEATS (3, the 70 Mb workloads), MAX_S (20: a cell whose untimed run
# took longer is reported from that run alone), CELL_MAX_S (0 = no limit;
# else a cell is stopped after that many seconds and reported as a timeout),
# TOOLS (edlib,bitvector,auto,wavefront; wavefront runs for m <= 256 only),
# ECOLI_KDIV (3: k = m / 3 in ecoli's bounded runs),
# LONG_THREADS ("1,THREADS"; e.g. THREADS alone to skip the slow single-thread
# edlib runs on chrX), THREADS_100K (THREADS: chrx100k at all cores only;
# "1,THREADS" adds the single-thread cells, tens of minutes each), DATA_DIR (.bench/align), CARRY (.gpu: debs/ with the
# edlib .debs and zlib1g-dev*.deb for a host without them; the FASTA/FASTQ
# sources for prep_align.sh when shared/data is absent).
#
# Times measured on a shared 2-vCPU AMD EPYC VM (threads 1 and 2): bin + dna
# 223 s in all (wavefront's m = 128-256 cells are the slowest, 1-3 s a run);
# chrx10k one run at 2 threads: edlib 93 s, ours (auto) 52 s, so about 2-3
# min per cell at 1 thread, ~10 s at 16 threads; chrx100k ~10x chrx10k per
# cell for ours, more for edlib with k = -1 (it redoes the band for k = 64,
# 128, ..., 131,072); ecoli read10k at 1 thread: edlib 8-9 s, ours 4-5 s a run.
# On the lent GPU host (10 minutes a command) run chrx10k / chrx100k / ecoli
# as separate commands (--only), with CELL_MAX_S set.
set -uo pipefail

only="" with100k=0 ecoli=0 edlib_k=-1 quick=0
args=()
while (( $# )); do
  case $1 in
    --only) only=$2; shift 2 ;;
    --with-100k) with100k=1; shift ;;
    --ecoli) ecoli=1; shift ;;
    --edlib-k) edlib_k=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 0 ;;
    -*) echo "run_align: unknown option $1" >&2; exit 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
build=${args[0]:-build-align}
threads=${args[1]:-all}
[[ "$threads" == all ]] && threads=$(nproc)
repeats=${REPEATS:-5}
long_repeats=${LONG_REPEATS:-3}
max_s=${MAX_S:-20}
cell_max_s=${CELL_MAX_S:-0}
tools=${TOOLS:-edlib,bitvector,auto,wavefront}
long_threads=${LONG_THREADS:-1,$threads}
kdiv=${ECOLI_KDIV:-3}
threads_100k=${THREADS_100K:-$threads}
data=${DATA_DIR:-.bench/align}
carry=${CARRY:-.gpu}
if [[ -z "$only" ]]; then
  only=bin,dna,chrx10k
  (( with100k )) && only+=,chrx100k
  (( ecoli )) && only+=,ecoli
fi
if (( quick )); then only=bin,dna; repeats=2; fi
want() { [[ ",$only," == *",$1,"* ]]; }
t_start=$(date +%s)

# ---- build ----------------------------------------------------------------------
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
bench=$build/bench/bench_cpu_align
# configure when the build folder is new, or when the program was built
# before edlib could be found; then an incremental build (nothing when
# nothing changed)
configure=0
[[ -f "$build/CMakeCache.txt" ]] || { configure=1; extra+=(-DCMAKE_BUILD_TYPE=Release -DWARPMATCH_CUDA=OFF -DWARPMATCH_TESTS=OFF); }
if [[ -x "$bench" && "$("$bench" --info 2>/dev/null)" != "edlib=1" ]] && \
   { [[ -f /usr/include/edlib.h ]] || (( ${#extra[@]} )); }; then
  configure=1
fi
[[ -x "$bench" ]] || configure=1   # e.g. configured before wm_align existed
mkdir -p "$build"
{ if (( configure )); then cmake -S . -B "$build" "${extra[@]}"; fi &&
  cmake --build "$build" -j"$(nproc)" --target bench_cpu_align gen_text; } >"$build/align-build.log" 2>&1 ||
  { echo "run_align: build failed, see $build/align-build.log" >&2; tail -20 "$build/align-build.log" >&2; exit 2; }
[[ -x "$bench" ]] || { echo "run_align: $bench not built (wm_align not in the library yet?)" >&2; exit 2; }
[[ "$("$bench" --info)" == "edlib=1" ]] || echo "run_align: warning: bench_cpu_align built without edlib; ours only" >&2

# ---- inputs ------------------------------------------------------------------------
bash bench/prep_align.sh "$build" "$data" || exit 2

# ---- runs -----------------------------------------------------------------------------
edlib_ver=$(dpkg-query -W -f '${Version}' libedlib1 2>/dev/null || ls "$carry"/debs/libedlib1_*.deb 2>/dev/null | sed 's/.*libedlib1_//; s/_.*//')
echo "run_align: $(date -u +%Y-%m-%dT%H:%MZ); threads 1 and $threads; edlib ${edlib_ver:-version unknown}; workloads $only"
echo "run_align: inputs $data (md5 in $data/MANIFEST.txt)"
fails=0
common=(--max-s "$max_s" --cell-max-s "$cell_max_s")
run() {  # LABEL: bench_cpu_align args...
  echo
  echo "## $1"
  shift
  "$bench" "${common[@]}" "$@"
  local rc=$?
  (( rc == 0 )) || { echo "!!! bench_cpu_align exit $rc ($([[ $rc == 1 ]] && echo mismatch || echo failure))"; fails=$((fails + 1)); }
}
ms="32 64 128 256 512 1024"
if want bin; then
  run "Table I (paper 000): random 0/1, n = 4,194,304" -w bin01 -t "1,$threads" -r "$repeats" --tools "$tools" \
    "$data/bin01_t4M.seq" $(for m in $ms; do echo "$data/bin01_q$m.seq"; done)
fi
if want dna; then
  run "Table I shapes on real DNA: chrX[20,000,000, +4,194,304), queries from chrX at 30-35 Mb" \
    -w dna -t "1,$threads" -r "$repeats" --tools "$tools" \
    "$data/dna_t4M.seq" $(for m in $ms; do echo "$data/dna_q$m.seq"; done)
fi
if want chrx10k; then
  run "m = 10,000 (PacBio E. coli read #4, first 10,000 bases) vs the 70 Mb human chrX sample (N runs kept)" \
    -w chrX -t "$long_threads" -r "$long_repeats" --tools "$tools" "$data/chrX.seq" "$data/read10k.seq"
fi
if want chrx100k; then
  run "m = 100,000 (the 4 longest reads end to end: no read is that long) vs the 70 Mb chrX sample; edlib k=$edlib_k" \
    -w chrX -t "$threads_100k" -r "$long_repeats" --tools "$tools" --edlib-k "$edlib_k" \
    "$data/chrX.seq" "$data/read100k.seq"
fi
if want ecoli; then
  reads="read10k readmax"
  (( with100k )) && reads+=" read100k"
  qs=()
  for r in $reads; do qs+=("$data/$r.seq" "$data/${r}_rc.seq"); done
  run "realistic: long reads (forward and reverse complement) vs the E. coli K-12 genome (4,639,675 bases), k = -1" \
    -w ecoli -t "1,$threads" -r "$repeats" --tools "$tools" "$data/ecoli.seq" "${qs[@]}"
  for q in "${qs[@]}"; do
    m=$(stat -L -c %s "$q")
    run "realistic, k = m/$kdiv = $((m / kdiv)) for both tools: $(basename "$q") vs E. coli" \
      -w ecoli -t "1,$threads" -r "$repeats" --tools "$tools" -k $((m / kdiv)) --no-header "$data/ecoli.seq" "$q"
  done
fi
echo
echo "run_align: done in $(( $(date +%s) - t_start )) s"
if (( fails )); then
  echo "!!! FAIL: $fails run(s) with a mismatch or a failure; see the lines marked !!!"
  exit 1
fi
echo "every tool agreed on distance and leftmost end"
