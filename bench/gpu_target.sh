#!/usr/bin/env bash
# gpu_target.sh -- on the lent GPU, after `bash bench/gpu_faults.sh build
# CARRY` (the CUDA build in /tmp/build-faults and ctest): the new library
# pieces under compute-sanitizer, the targets kept on the GPU timed
# (bench_target, CUDA beside the CPU; align of 200 reads end to end on
# both backends), the installed package linked and run
# with the CUDA runtime inside libwarpmatch.so, and the Python package's
# tests on the CUDA backend where the host has numpy and pytest.
#   bash bench/gpu_target.sh [CARRY]        logs in $OUT (target.log)
set -u
carry=${1:-.gpu}
out=${OUT:-gpu-out}
mkdir -p "$out"
B=/tmp/build-faults
log() { echo "== $*" | tee -a "$out/target.log"; }
[ -x $B/warpmatch ] || { echo "run bench/gpu_faults.sh build first"; exit 1; }
log "memcheck: test_api_target and test_api_stream (small scale; 0 errors wanted)"
for t in test_api_target test_api_stream; do
  WM_TEST_SCALE=0.1 timeout 500 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 5 \
    $B/tests/$t > "$out/san_$t.log" 2>&1
  echo "$t: rc=$? $(grep -E 'ERROR SUMMARY' "$out/san_$t.log" | head -1) | $(tail -1 "$out/san_$t.log")" | tee -a "$out/target.log"
done
log "initcheck: test_api_target"
WM_TEST_SCALE=0.1 timeout 300 compute-sanitizer --tool initcheck --error-exitcode 99 --print-limit 5 \
  $B/tests/test_api_target > "$out/init_target.log" 2>&1
echo "initcheck rc=$? $(grep -E 'ERROR SUMMARY' "$out/init_target.log" | head -1)" | tee -a "$out/target.log"
seq=/tmp/chrX.one
[ -f $seq ] || zcat "$carry/human_GRCh37_chrX_first70Mb.fa.gz" | grep -v '^>' | tr -d '\n' > $seq
log "bench_target, $(stat -c %s $seq) bytes of chrX: 200 reads of 150 bp (infix), 200 32-mers (k = 2), CUDA"
$B/bench/bench_target -b cuda -q 200 -r 3 $seq 2>&1 | tee -a "$out/target.log"
log "the same on the CPU (20 calls, 1 repeat)"
$B/bench/bench_target -b cpu -q 20 -r 1 $seq 2>&1 | tee -a "$out/target.log"
log "the installed package: an example linked with pkg-config against the CUDA libwarpmatch.so"
P=/tmp/wm-prefix
rm -rf $P && cmake --install $B --prefix $P > "$out/install.log" 2>&1
echo "install rc=$?" | tee -a "$out/target.log"
pc=$(ls -d $P/lib*/pkgconfig | head -1)
if command -v pkg-config > /dev/null; then
  flags=$(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs warpmatch)
else
  flags="-I$P/include -L$(dirname $pc) -lwarpmatch"
fi
cc -std=c11 examples/search.c $flags -Wl,-rpath,"$(dirname $pc)" -o /tmp/ex_search 2>&1 | tail -3 | tee -a "$out/target.log"
/tmp/ex_search | diff - examples/expected/search.txt > /dev/null && echo "example search: same output" | tee -a "$out/target.log"
echo "libwarpmatch.so needs: $(ldd $(dirname $pc)/libwarpmatch.so | awk '{print $1}' | tr '\n' ' ')" | tee -a "$out/target.log"
echo "its size: $(stat -c %s $(readlink -f $(dirname $pc)/libwarpmatch.so)) bytes" | tee -a "$out/target.log"
if /usr/bin/python3 -c 'import numpy, pytest' 2> /dev/null; then
  log "Python package, CUDA backend"
  WM_PY_BACKEND=cuda bash scripts/test_python.sh $P -q -x > "$out/python.log" 2>&1
  echo "python rc=$? $(tail -1 "$out/python.log")" | tee -a "$out/target.log"
else
  log "Python package: this host's python3 has no numpy/pytest; not run"
fi
log "align end to end: 200 reads of 150 bp (N-free, 5% changed) against the same 70 Mb as FASTA, both strands"
python3 - <<'PY' || echo "no python3: align end to end not run"
import random
random.seed(11)
t = open('/tmp/chrX.one', 'rb').read()
with open('/tmp/reads200.fa', 'w') as f:
    k = 0
    while k < 200:
        at = random.randrange(0, len(t) - 150)
        r = bytearray(t[at:at + 150])
        if b'N' in r or b'n' in r:
            continue
        for j in range(150):
            if random.random() < 0.05:
                r[j] = ord(random.choice('ACGT'))
        f.write('>r%d\n%s\n' % (k, r.decode()))
        k += 1
PY
printf '>chrX70\n' > /tmp/chrX70.fa && fold -w 60 $seq >> /tmp/chrX70.fa
for be in cuda cpu; do
  for r in 1 2; do
    s=$(date +%s%N)
    $B/warpmatch align -k 15 --backend $be /tmp/reads200.fa /tmp/chrX70.fa > /tmp/al_$be.tsv 2> /tmp/al.err
    rc=$?
    echo "align --backend $be: $(( ($(date +%s%N) - s) / 1000000 )) ms rc=$rc rows=$(wc -l < /tmp/al_$be.tsv)" | tee -a "$out/target.log"
  done
done
cmp -s /tmp/al_cuda.tsv /tmp/al_cpu.tsv && echo "cuda and cpu rows identical" | tee -a "$out/target.log"
