#!/usr/bin/env bash
# gpu_house.sh -- issue 15 on the lent GPU: the suite with the CUDA backend
# after the restructuring, and the headline benchmarks of BENCHMARKS.md run
# before and after it in the same call, on the same machine, binary beside
# binary, so that a regression shows as a ratio rather than as a remembered
# number.
#   bash bench/gpu_house.sh test  [CARRY]   build both, ctest (CUDA included),
#                                            compute-sanitizer on small runs
#   bash bench/gpu_house.sh bench [CARRY]   the headline rows, base and new
#   bash bench/gpu_house.sh kernels [CARRY] the set and align kernel benchmarks
#                                            (bench_gpu_multi, bench_gpu_align),
#                                            base and new, and the read floor of
#                                            the end-to-end rows
# CARRY (default .gpu) holds: base/ (the tree before the change: `git archive
# BASE | tar -x -C .gpu/base`), human_GRCh37_chrX_first70Mb.fa.gz,
# ecoli_k12_mg1655.fa.gz, mitdb100.csv.gz, zlib1g-dev*.deb. Logs in $OUT.
set -u
mode=${1:-test}
carry=${2:-.gpu}
out=${OUT:-gpu-out}
mkdir -p "$out"
jobs=$(nproc)
log() { echo "== $*" | tee -a "$out/house.log"; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

extra=()
source bench/gpu_zlib.sh     # zlib headers from the carried .deb when missing

# build SRC DIR: a Release build for Hopper (benchmarks included, MPI off:
# the runs here are one process).
build() {
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90-real \
    -DWARPMATCH_MPI=OFF "${extra[@]}" > "$out/build_$(basename "$2").log" 2>&1 &&
    cmake --build "$2" -j"$((jobs / 2))" >> "$out/build_$(basename "$2").log" 2>&1
}

# Both trees at once (HOUSE_BASE=0: the new one only); r1, r2 their statuses.
build_both() {
  local t0=$(date +%s) p1 p2
  build . build-gpu & p1=$!
  r2=skipped
  if [ "${HOUSE_BASE:-1}" = 1 ]; then build "$carry/base" build-base & p2=$!; fi
  wait $p1; r1=$?
  if [ "${HOUSE_BASE:-1}" = 1 ]; then wait $p2; r2=$?; fi
  echo "build new rc=$r1 base rc=$r2 in $(( $(date +%s) - t0 )) s" | tee -a "$out/house.log"
}

if [ "$mode" = test ]; then
  log "device"
  nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee -a "$out/house.log"
  log "build: new (build-gpu) and base (build-base) at once (HOUSE_BASE=0: new only)"
  build_both
  [ $r1 -eq 0 ] || { tail -30 "$out/build_build-gpu.log"; exit 1; }
  log "ctest, the CUDA backend included"
  (cd build-gpu && ctest -j6 --output-on-failure --timeout 300) > "$out/ctest.log" 2>&1
  echo "ctest rc=$?" | tee -a "$out/house.log"
  grep -E "tests passed|tests failed|Failed|cuda|checks" "$out/ctest.log" | head -30 | tee -a "$out/house.log"
  log "compute-sanitizer (0 errors wanted)"
  W=./build-gpu/warpmatch
  ecg="$carry/mitdb100.csv.gz"
  for tool in memcheck racecheck; do
    for cmd in "$W search --backend cuda -k 2 GATTACAGATTACA data/lambda_phage.fa" \
               "$W search --backend cuda --gpus 0,0 -k 1 GGCGATGTGGCCATCG data/lambda_phage.fa" \
               "$W search --backend cuda -e GATTACA -e GGCGATGTGG -e ACGTACGT data/lambda_phage.fa" \
               "$W align --backend cuda --cigar seq:ACGTTGCATTGACGGATCAGGCAT data/lambda_phage.fa" \
               "$W align --mode global --pairs --cigar --backend cuda data/lambda_phage.fa data/lambda_phage.fa" \
               "./build-gpu/bench/bench_dtw $ecg --backend cuda --reps 1 --m 300 --n 5000 --top 3" \
               "./build-gpu/bench/bench_dtw $ecg --backend cuda --reps 1 --m 64 --n 20000 --queries 5"; do
      timeout 120 compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 5 $cmd > "$out/san.log" 2>&1
      echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san.log" | head -1) [$cmd]" | tee -a "$out/house.log"
    done
  done
  exit 0
fi

if [ "$mode" = kernels ]; then
  build_both
  nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$out/house.log"
  dna=/tmp/chrX.seq
  ./build-gpu/bench/gen_text dna "$carry/human_GRCh37_chrX_first70Mb.fa.gz" 69999930 $dna 2>/dev/null
  fold -w 8 $dna | grep -v '[^ACGT]' | awk 'NR % 4 == 1' | head -16000 > /tmp/k8.txt
  big=/tmp/big_dna.seq
  ./build-gpu/bench/gen_text dna "$carry/human_GRCh37_chrX_first70Mb.fa.gz" 2G $big 2>/dev/null
  pat=$(./build-gpu/bench/gen_text pattern $dna 32 3)
  cat $big > /dev/null
  ms() { local s=$(date +%s%N); "$@" > /tmp/house.out 2>/dev/null; echo "$(( ($(date +%s%N) - s) / 1000000 )) ms"; }
  for r in 1 2 3; do echo "read floor (wc -l, one read(2) pass) $(stat -c %s $big) bytes: $(ms wc -l $big)"; done | tee -a "$out/house.log"
  for v in base gpu; do
    for r in 1 2 3; do echo "[$v] search -c -k 0 (GPU) same file: $(ms ./build-$v/warpmatch search -c $pat $big)"; done
    ./build-$v/bench/bench_gpu_multi --text $dna --patterns /tmp/k8.txt --bytes 268435456 --reps 5 --check 2>&1 |
      grep -v "^#" | sed "s/^/[$v] multi /"
    ./build-$v/bench/bench_gpu_align binary 2>&1 | sed "s/^/[$v] align /"
  done | tee -a "$out/house.log"
  exit 0
fi

# ---- bench: the headline rows, base then new, on the same inputs -------------
[ -x build-gpu/warpmatch ] && [ -x build-base/warpmatch ] || { echo "run the test mode first"; exit 1; }
log "inputs"
dna=/tmp/chrX.seq
[ -f $dna ] || ./build-gpu/bench/gen_text dna "$carry/human_GRCh37_chrX_first70Mb.fa.gz" 69999930 $dna 2>/dev/null
big=/tmp/big_dna.seq
[ -f $big ] || ./build-gpu/bench/gen_text dna "$carry/human_GRCh37_chrX_first70Mb.fa.gz" ${E2E_BYTES:-4G} $big 2>/dev/null
pat=$(./build-gpu/bench/gen_text pattern $dna 32 3)
cat $big > /dev/null
pairs=/tmp/pairs; mkdir -p $pairs
[ -f $pairs/reads_a.fa ] || ./build-gpu/bench/gen_pairs reads "$carry/ecoli_k12_mg1655.fa.gz" 1000000 150 0.10 42 \
  $pairs/reads_a.fa $pairs/reads_b.fa 2> /dev/null
ms() { local s=$(date +%s%N); "$@" > /tmp/house.out 2>/dev/null; local rc=$?; echo "$(( ($(date +%s%N) - s) / 1000000 )) ms rc=$rc"; }
for v in base gpu; do
  B=./build-$v
  log "[$v] e2e: search -c, $(stat -c %s $big) bytes in the page cache, m = 32"
  for args in "-k 0" "-k 2" "-k 0 --backend cpu"; do
    for r in 1 2 3; do echo "[$v] search -c $args: $(ms $B/warpmatch search -c $args $pat $big) $(cut -f2 /tmp/house.out)"; done
  done | tee -a "$out/house.log"
  log "[$v] e2e: align --mode global --pairs --cigar, 1 M pairs of 150 bp (FASTA)"
  for r in 1 2; do echo "[$v] pairs cigar cuda: $(ms $B/warpmatch align --mode global --pairs --cigar --backend cuda $pairs/reads_a.fa $pairs/reads_b.fa) md5 $(md5sum < /tmp/house.out | cut -c1-8)"; done | tee -a "$out/house.log"
  log "[$v] kernels: bench_gpu_search (256 MiB, quick)"
  $B/bench/bench_gpu_search --dna $dna --quick --bytes 268435456 --reps 5 2>&1 | grep -E "floor|realdna" | sed "s/^/[$v] /" | tee -a "$out/house.log"
  log "[$v] wm_align_pairs: bench_global pairs"
  $B/bench/bench_global pairs --backend cuda -d $pairs --only bitvector,bitvector+cigar --reps 3 2>&1 | grep -vE "^#|^$" | head -6 | sed "s/^/[$v] /" | tee -a "$out/house.log"
  log "[$v] dtw: bench_dtw, GPU and CPU"
  $B/bench/bench_dtw "$carry/mitdb100.csv.gz" --backend cuda --m 1024 --n 4194304 --reps 5 2>&1 | grep -v "^#" | sed "s/^/[$v] gpu /" | tee -a "$out/house.log"
  $B/bench/bench_dtw "$carry/mitdb100.csv.gz" --backend cuda --m 128 --queries 1000 --n 262144 --reps 3 2>&1 | grep -v "^#" | sed "s/^/[$v] gpu many /" | tee -a "$out/house.log"
  $B/bench/bench_dtw "$carry/mitdb100.csv.gz" --backend cpu --m 1024 --n 4194304 --reps 3 2>&1 | grep -v "^#" | sed "s/^/[$v] cpu /" | tee -a "$out/house.log"
done
log "done"
