#!/usr/bin/env bash
# gpu_setk.sh -- issue 17 on the lent GPU: pattern sets within k errors.
#   bash bench/gpu_setk.sh test  [CARRY]  build (CUDA, tests), the whole ctest,
#                                          test_set_k_backends.sh, and a set
#                                          search under compute-sanitizer memcheck
#   bash bench/gpu_setk.sh quick [CARRY]  CPU (all cores) against CUDA, end to
#                                          end, on reads cut from E. coli and
#                                          chrX (planted edits, both strands)
#                                          and guides + NGG against chrX: the
#                                          same bytes, and the times
#   bash bench/gpu_setk.sh guides [CARRY] guides + NGG against chrX (Hamming
#                                          k = 4, --exact-suffix 3, both
#                                          strands): test_setk_planes (CUDA
#                                          included), then GUIDE_COUNTS guides
#                                          on cpu (all cores), cuda and auto,
#                                          REPEATS runs each (median), the
#                                          bytes compared, the time split,
#                                          RazerS 3 beside (RAZERS_GUIDES,
#                                          "" for none; PEER_TIMEOUT), the floor
#                                          (chrX read and one exact scan), and
#                                          with GUIDE_JOBS="16 8 ..." the CPU at
#                                          those -j, rows and counts to /dev/null
#   bash bench/gpu_setk.sh bench [CARRY]  issue 17's benchmarks, whole: builds
#                                          warpmatch and gen_reads, makes the
#                                          inputs (bench/setk_prep.sh) in
#                                          /tmp/setk-bench, runs
#                                          bench/setk_run.sh (warpmatch cpu and
#                                          cuda, RazerS 3, Bowtie 1 from the
#                                          .debs in CARRY/debs/setk,
#                                          bench/peers/fetch_setk_debs.sh), all
#                                          within BUDGET seconds
# CARRY (default .gpu) holds the genomes and the -dev .debs (bench/gpu_zlib.sh).
# Logs in $OUT. Without a GPU (no nvidia-smi listing one) the build is CPU-only
# (a smoke run of the scripts).
#
# bench's environment (each has a default that fits one 10-minute device call
# on 16 cores):
#   READS [1000000] GUIDES [10000] PRIMERS [100000]   setk_prep.sh's sizes
#   BUDGET [540]        seconds for the whole mode, the build included: the
#                       runs get setk_run.sh's DEADLINE from it (each run is cut
#                       at the time left, later ones are "not run: past
#                       DEADLINE") and the results are copied whatever happened
#   PEER_TIMEOUT [120]  seconds per run of any tool (setk_run.sh)
#   SET_TIMEOUT [30]    seconds per run on guides_* and primers_* (setk_run.sh's
#                       PEER_TIMEOUT_<workload>): on 16 cores warpmatch-cpu
#                       (one pattern a pass for these sets) and RazerS 3 need
#                       minutes to hours there, the table says "over
#                       PEER_TIMEOUT=30s" (a rate below patterns / 30 s)
#   REPEATS [3] REPEAT_UNDER [5]  median of REPEATS runs, the repeats only
#                       when the first run took under REPEAT_UNDER seconds
#   ONLY                workloads, comma separated, in the order to run them
#                       [reads_ecoli,reads_chrx,guides_chrx,primers_chrx]
#   TOOLS, COMPARE, ALL_ENDS, RAZERS_MAX_HITS: passed to setk_run.sh
#   SCALE_J             thread counts for a last step: warpmatch cpu on
#                       reads_ecoli with -j each, its time split logged
# On the lent GPU (one 10-minute call, the carry list [".gpu"]; .gpu holds the
# two genomes, the -dev .debs and debs/setk/ of fetch_setk_debs.sh, ~41 MB):
#   bash bench/gpu_setk.sh bench .gpu
# $OUT gets setk.log (the steps and their times), build.log, prep.log, run.log
# (setk_run.sh's stderr), MANIFEST.txt (the inputs' md5 sums),
# setk_results.tsv and setk_results.md.
set -u
mode=${1:-test}
out=${OUT:-gpu-out}
mkdir -p "$out"
jobs=$(nproc)
B=/tmp/build-setk
carry=${2:-.gpu}
extra=()
targets=()  # build's targets: all when empty
source bench/gpu_zlib.sh
log() { echo "== $*" | tee -a "$out/setk.log"; }

# No GPU listed: a CPU-only build (the scripts' smoke run on a machine without
# one); with one, the CUDA backend for sm_90.
gpu_name=""
if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  gpu_name=$(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1)
  extra+=(-DCMAKE_CUDA_ARCHITECTURES=90-real)
else
  extra+=(-DWARPMATCH_CUDA=OFF)
fi

build() {
  log "device: ${gpu_name:-no GPU (CPU-only build)}; $(nproc) CPUs"
  log "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  t0=$(date +%s)
  cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DWARPMATCH_MPI=OFF \
    "${extra[@]}" > "$out/build.log" 2>&1 &&
    cmake --build $B -j"$jobs" ${targets[@]:+--target "${targets[@]}"} >> "$out/build.log" 2>&1
  rc=$?
  log "build rc=$rc in $(( $(date +%s) - t0 )) s"
  [ $rc -eq 0 ] || { tail -30 "$out/build.log"; exit 1; }
}

# reads OUT.fa GENOME.fa N SEED: N reads of 150 bp with 0-3 planted edits
# (substitutions 60%, insertions 20%, deletions 20%), half reverse-complemented.
reads() {
  python3 - "$@" <<'EOF'
import random, sys
out, genome, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
seq = ''.join(l.strip() for l in open(genome) if not l.startswith('>')).upper()
comp = str.maketrans('ACGT', 'TGCA')
with open(out, 'w') as f:
    i = 0
    while i < n:
        p = rng.randrange(len(seq) - 160)
        r = list(seq[p:p + 150])
        if 'N' in r: continue
        for _ in range(rng.randint(0, 3)):
            j = rng.randrange(len(r)); op = rng.random()
            if op < 0.6: r[j] = rng.choice('ACGT')
            elif op < 0.8: r.insert(j, rng.choice('ACGT'))
            else: del r[j]
        r = ''.join(r)
        if rng.random() < 0.5: r = r.translate(comp)[::-1]
        f.write('>q%d\n%s\n' % (i, r)); i += 1
EOF
}

# guides OUT.fa GENOME.fa N SEED: N guides, 20 nt of a site followed by GG
# (no N in the 20), 0-2 planted mismatches, written as the 20 nt + NGG.
guides() { python3 bench/setk_guides.py "$@"; }

W=$B/warpmatch
if [ "$mode" = test ]; then
  build
  log "test_set_k_backends.sh (CPU against CUDA)"
  bash tests/cli/test_set_k_backends.sh $W . > "$out/set_k_backends.log" 2>&1
  echo "rc=$? $(tail -1 "$out/set_k_backends.log")" | tee -a "$out/setk.log"
  grep FAIL -A8 "$out/set_k_backends.log" | head -40 | tee -a "$out/setk.log"
  log "memcheck: 300 reads of E. coli, k = 4, both strands (0 errors wanted)"
  gzip -dc "$carry/ecoli_k12_mg1655.fa.gz" > /tmp/ecoli.fa
  reads /tmp/ecoli300.fa /tmp/ecoli.fa 300 3
  timeout 500 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 5 \
    --log-file "$out/san_setk.log" \
    $W search --backend cuda -k 4 --revcomp -f /tmp/ecoli300.fa /tmp/ecoli.fa > /tmp/san.out
  echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$out/san_setk.log" | head -1)" | tee -a "$out/setk.log"
  $W search --backend cpu -k 4 --revcomp -f /tmp/ecoli300.fa /tmp/ecoli.fa > /tmp/cpu.out
  cmp -s /tmp/cpu.out /tmp/san.out && log "memcheck run's output = the CPU's ($(wc -l < /tmp/cpu.out) rows)" ||
    log "memcheck run's output DIFFERS from the CPU's"
  if [ "${SKIP_CTEST:-0}" != 1 ]; then
    log "ctest, the CUDA backend included"
    (cd $B && ctest -j8 --output-on-failure --timeout 300) > "$out/ctest.log" 2>&1
    echo "ctest rc=$?" | tee -a "$out/setk.log"
    grep -E "tests passed|tests failed|Failed|\*\*\*|Timeout" "$out/ctest.log" | head -30 | tee -a "$out/setk.log"
  fi
fi

if [ "$mode" = quick ]; then
  [ -x $W ] || build
  gzip -dc "$carry/ecoli_k12_mg1655.fa.gz" > /tmp/ecoli.fa
  gzip -dc "$carry/human_GRCh37_chrX_first70Mb.fa.gz" > /tmp/chrX.fa
  for g in ecoli chrX; do
    for n in 10000 100000; do
      reads /tmp/${g}_$n.fa /tmp/$g.fa $n 17
      for be in cpu cuda; do
        s=$(date +%s%N)
        $W search --backend $be -k 4 --revcomp -f /tmp/${g}_$n.fa /tmp/$g.fa > /tmp/${g}_${n}_$be.out 2> /tmp/err
        rc=$?
        e=$(date +%s%N)
        log "$g $n reads k=4 both strands $be: rc=$rc $(( (e - s) / 1000000 )) ms, $(wc -l < /tmp/${g}_${n}_$be.out) rows, $(cut -f5 /tmp/${g}_${n}_$be.out | sort -u | wc -l) reads found $(head -c 200 /tmp/err)"
      done
      cmp -s /tmp/${g}_${n}_cpu.out /tmp/${g}_${n}_cuda.out && log "  same bytes" || log "  DIFFER: $(diff /tmp/${g}_${n}_cpu.out /tmp/${g}_${n}_cuda.out | head -5)"
    done
  done
  # Guides: 20 nt of a chrX site followed by GG, 0-2 planted mismatches,
  # written with NGG; Hamming k = 4, both strands, --exact-suffix 3. The CPU
  # scans each guide whole (a pass each): 200 of them; the GPU 200 and 10,000.
  guides /tmp/guides.fa /tmp/chrX.fa 10000 5
  for n in 200 10000; do
    head -$((2 * n)) /tmp/guides.fa > /tmp/g$n.fa
    for be in cuda cpu; do
      [ $be = cpu ] && [ $n != 200 ] && continue
      s=$(date +%s%N)
      $W search --backend $be -k 4 --hamming --revcomp --exact-suffix 3 -f /tmp/g$n.fa /tmp/chrX.fa > /tmp/g${n}_$be.out 2> /tmp/err
      rc=$?
      e=$(date +%s%N)
      log "chrX $n guides + NGG, Hamming k=4, --exact-suffix 3, both strands, $be: rc=$rc $(( (e - s) / 1000000 )) ms, $(wc -l < /tmp/g${n}_$be.out) rows $(head -c 200 /tmp/err)"
    done
  done
  cmp -s /tmp/g200_cpu.out /tmp/g200_cuda.out && log "  200 guides: same bytes" || log "  200 guides: DIFFER"
fi

if [ "$mode" = guides ]; then
  now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
  extra+=(-DWARPMATCH_TESTS=ON)
  targets=(warpmatch_cli test_setk_planes)
  build
  log "test_setk_planes (the pigeonhole index against a brute force; CUDA too when found)"
  $B/tests/test_setk_planes > "$out/test_setk_planes.log" 2>&1
  echo "rc=$? $(grep -E 'no GPU|passed' "$out/test_setk_planes.log" | tail -2 | tr '\n' ' ')" | tee -a "$out/setk.log"
  gzip -dc "$carry/human_GRCh37_chrX_first70Mb.fa.gz" > /tmp/chrX.fa
  guides /tmp/guides.fa /tmp/chrX.fa 10000 5
  flags=(-k 4 --hamming --revcomp --exact-suffix 3)
  # the floor: chrX read and one exact scan, the whole process
  for r in 1 2 3; do
    t=$(now_ms); $W search -c --backend cpu ACGTACGTACGTACGTACGTAGG /tmp/chrX.fa > /dev/null
    log "floor (chrX read + one exact 23-mer scan, cpu): $(( $(now_ms) - t )) ms"
  done
  for n in ${GUIDE_COUNTS:-200 1000 10000}; do
    head -$((2 * n)) /tmp/guides.fa > /tmp/g$n.fa
    for be in cpu cuda auto; do
      times=()
      for r in $(seq "${REPEATS:-3}"); do
        t=$(now_ms)
        # --explain-backend asks for a GPU under auto (the driver's start-up):
        # timed runs go without it, the choice is asked for after them
        WM_CUDA_TIMING=1 $W search --backend $be "${flags[@]}" -f /tmp/g$n.fa /tmp/chrX.fa \
          > /tmp/g${n}_$be.out 2> /tmp/g${n}_$be.err
        rc=$?
        times+=($(( $(now_ms) - t )))
        [ $rc -eq 0 ] || log "  $n guides $be: rc=$rc $(head -c 300 /tmp/g${n}_$be.err)"
      done
      med=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (${#times[@]} + 1) / 2 ))p")
      log "chrX $n guides $be: median $med ms (${times[*]}), $(wc -l < /tmp/g${n}_$be.out) rows, md5 $(md5sum < /tmp/g${n}_$be.out | cut -c1-12)"
      grep -E '^search:|^cuda' /tmp/g${n}_$be.err | head -4 | sed 's/^/     /' | tee -a "$out/setk.log"
      [ $be = auto ] && $W search -c --backend auto --explain-backend "${flags[@]}" -f /tmp/g$n.fa /tmp/chrX.fa 2>&1 >/dev/null |
        grep backend | sed 's/^/     /' | tee -a "$out/setk.log"
    done
    cmp -s /tmp/g${n}_cpu.out /tmp/g${n}_cuda.out && log "  $n guides: cpu = cuda, same bytes" || log "  $n guides: cpu and cuda DIFFER"
  done
  # where the CPU's time goes at the largest count: -j each of GUIDE_JOBS,
  # rows to /dev/null and counted only (-c), one run each
  n=${GUIDE_COUNTS:-200 1000 10000}; n=${n##* }
  for j in ${GUIDE_JOBS:-}; do
    for how in rows count; do
      c=(); [ $how = count ] && c=(-c)
      t=$(now_ms)
      WM_CUDA_TIMING=1 $W search "${c[@]}" --backend cpu -j "$j" "${flags[@]}" -f /tmp/g$n.fa /tmp/chrX.fa \
        > /dev/null 2> /tmp/gj.err
      log "chrX $n guides cpu -j $j, $how to /dev/null: $(( $(now_ms) - t )) ms; $(grep '^search:' /tmp/gj.err)"
    done
  done
  # RazerS 3 (seqan-apps, carried): -i 80.4 (floor(23 x 0.196) = 4 errors), no gaps, N in
  # the pattern matches anything (-mN), every hit; it has no exact-suffix rule
  P=/tmp/peers; mkdir -p $P
  for d in "$carry"/debs/setk/*.deb; do dpkg -x "$d" $P; done
  export PATH="$P/usr/bin:$PATH" LD_LIBRARY_PATH="$P/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  for n in ${RAZERS_GUIDES-200 1000}; do
    t=$(now_ms)
    timeout ${PEER_TIMEOUT:-60} razers3 -i 80.4 -rr 100 -m 100000 -tc "$jobs" -ng -mN \
      -o /tmp/g${n}.razers /tmp/chrX.fa /tmp/g$n.fa > /tmp/razers.log 2>&1
    rc=$?
    log "chrX $n guides razers3 (-tc $jobs): rc=$rc $(( $(now_ms) - t )) ms, $(wc -l < /tmp/g${n}.razers 2>/dev/null) rows"
  done
fi

if [ "$mode" = bench ]; then
  # Times in ms from date +%s%N (no bc on the host).
  now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
  secs() { local ms=$(( $(now_ms) - $1 )); printf '%d.%03d s' $(( ms / 1000 )) $(( ms % 1000 )); }
  start=$(now_ms)
  budget=${BUDGET:-540}
  carry=$(cd "$carry" && pwd) || { log "no carry folder $carry"; exit 2; }
  D=/tmp/setk-bench
  log "bench: READS=${READS:=1000000} GUIDES=${GUIDES:=10000} PRIMERS=${PRIMERS:=100000}" \
    "BUDGET=$budget PEER_TIMEOUT=${PEER_TIMEOUT:=120} SET_TIMEOUT=${SET_TIMEOUT:=30}" \
    "REPEATS=${REPEATS:=3} REPEAT_UNDER=${REPEAT_UNDER:=5}" \
    "ONLY=${ONLY:=reads_ecoli,reads_chrx,guides_chrx,primers_chrx} carry=$carry"
  extra+=(-DWARPMATCH_BENCH=ON -DWARPMATCH_TESTS=OFF)
  targets=(warpmatch_cli gen_reads)
  t=$(now_ms)
  build
  log "step build: $(secs "$t")"

  t=$(now_ms)
  rm -rf "$D/results" "$D/peers"  # the genomes and the bowtie index are kept
  CARRY=$carry bash bench/setk_prep.sh -b $B -n "$READS" -g "$GUIDES" -p "$PRIMERS" "$D" > "$out/prep.log" 2>&1
  rc=$?
  log "step prep rc=$rc: $(secs "$t") ($(du -sh "$D" 2>/dev/null | cut -f1) in $D)"
  [ $rc -eq 0 ] || { tail -20 "$out/prep.log" | tee -a "$out/setk.log"; exit 1; }
  cp "$D/MANIFEST.txt" "$out/" 2>/dev/null

  # setk_run.sh stops starting runs at DEADLINE (a run is cut at the time
  # left); the timeout around it is the last resort, 15 s later.
  deadline=$(( start / 1000 + budget - 20 ))
  left=$(( deadline - $(date +%s) ))
  (( left > 0 )) || left=0
  set_to=()
  for wl in ${ONLY//,/ }; do
    v=PEER_TIMEOUT_$wl
    case $wl in guides_*|primers_*) set_to+=("$v=${!v:-$SET_TIMEOUT}") ;; esac
  done
  log "step run: $left s left before the DEADLINE ${set_to[*]}"
  t=$(now_ms)
  env THREADS="$(nproc)" PEERS_DEBS="$carry/debs/setk" BUILD=$B DEADLINE=$deadline \
    PEER_TIMEOUT=$PEER_TIMEOUT REPEATS=$REPEATS REPEAT_UNDER=$REPEAT_UNDER ONLY=$ONLY "${set_to[@]}" \
    timeout $(( left + 15 )) bash bench/setk_run.sh "$D" > /dev/null 2> "$out/run.log"
  rc=$?
  log "step run rc=$rc: $(secs "$t")"
  grep -E '^setk_run: ' "$out/run.log" | sed 's/^/   /' >> "$out/setk.log"
  for f in setk_results.tsv setk_results.md; do
    cp "$D/results/$f" "$out/" 2>/dev/null || log "no $f (setk_run.sh cut short: rc=$rc)"
  done
  # warpmatch's stderr: with WM_CUDA_TIMING=1 in the environment, where its time went
  for f in "$D"/results/warpmatch*.err; do [ -f "$f" ] && cp "$f" "$out/"; done
  # SCALE_J="1 4 8 16": warpmatch cpu on reads_ecoli with -j each, one run,
  # time and the time split (WM_CUDA_TIMING=1), while the time lasts
  for j in ${SCALE_J:-}; do
    (( $(date +%s) + 30 < deadline + 20 )) || { log "scale -j $j: not run, past the budget"; continue; }
    t=$(now_ms)
    WM_CUDA_TIMING=1 $W search -f "$D/reads_ecoli.fa" -k 4 --revcomp --best-per-locus --backend cpu \
      -j "$j" "$D/ecoli.fa" > /tmp/scale.out 2> /tmp/scale.err
    log "scale reads_ecoli -j $j: rc=$? $(secs "$t"), $(wc -l < /tmp/scale.out) rows; $(grep '^search:' /tmp/scale.err)"
  done
  log "bench done: $(secs "$start") in all"
fi
