#!/usr/bin/env bash
# gpu_setk.sh -- issue 17 on the lent GPU: pattern sets within k errors.
#   bash bench/gpu_setk.sh test  [CARRY]  build (CUDA, tests), the whole ctest,
#                                          test_set_k_backends.sh, and a set
#                                          search under compute-sanitizer memcheck
#   bash bench/gpu_setk.sh quick [CARRY]  CPU (all cores) against CUDA, end to
#                                          end, on reads cut from E. coli and
#                                          chrX (planted edits, both strands):
#                                          the same bytes, and the times
# CARRY (default .gpu) holds the genomes and the -dev .debs (bench/gpu_zlib.sh).
# Logs in $OUT.
set -u
mode=${1:-test}
out=${OUT:-gpu-out}
mkdir -p "$out"
jobs=$(nproc)
B=/tmp/build-setk
carry=${2:-.gpu}
extra=()
source bench/gpu_zlib.sh
log() { echo "== $*" | tee -a "$out/setk.log"; }

build() {
  log "device: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader)"
  log "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  t0=$(date +%s)
  cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90-real -DWARPMATCH_MPI=OFF \
    "${extra[@]}" > "$out/build.log" 2>&1 &&
    cmake --build $B -j"$jobs" >> "$out/build.log" 2>&1
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
fi
