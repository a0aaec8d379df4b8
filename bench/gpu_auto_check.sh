#!/usr/bin/env bash
# gpu_auto_check.sh -- `--backend auto` as a user runs it (no --explain-backend,
# which asks the driver for the GPUs and so pays part of CUDA's start-up)
# beside --backend cpu and cuda, whole processes, 3 runs each, on a lent GPU:
# 50,000 pairs of 2 kb (bench/prep_global.sh's reads2k; distances and
# CIGARs) and 10,000 guides + NGG against chrX (CARRY/g10000.fa, Hamming k =
# 4, --exact-suffix 3, both strands). Prints wall seconds, the output's md5
# and where align made its context, a run; runs tests/cli/test_choose.sh first.
#   bash bench/gpu_auto_check.sh [CARRY]     (CARRY [.gpu]: chrX, E. coli, the -dev .debs)
set -u
carry=${1:-.gpu}
out=${OUT:-gpu-out}
mkdir -p "$out"
B=/tmp/build-auto
extra=()
source bench/gpu_zlib.sh
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DWARPMATCH_MPI=OFF -DWARPMATCH_BENCH=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90-real "${extra[@]}" >"$out/build.log" 2>&1 &&
    cmake --build $B -j"$(nproc)" --target warpmatch_cli gen_pairs >>"$out/build.log" 2>&1 ||
    { tail "$out/build.log"; exit 1; }
D=/dev/shm/wm-pairs
mkdir -p $D
CARRY=$carry READS=1000 READS1K=100 READS2K=50000 bash bench/prep_global.sh $B $D >/dev/null 2>&1
zcat "$carry/human_GRCh37_chrX_first70Mb.fa.gz" >/dev/shm/chrX.fa
W=$B/warpmatch
echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $(nproc) CPUs"
timed() { # LABEL COMMAND...: 3 runs, and where align's context was made
    local label=$1 r
    shift
    for r in 1 2 3; do
        WM_CUDA_TIMING=1 /usr/bin/time -f "%e" -o /tmp/auto_t "$@" >/dev/shm/auto.out 2>/tmp/auto_e
        echo "$label run $r: rc=$? $(cat /tmp/auto_t) s $(md5sum </dev/shm/auto.out | cut -c1-8)" \
            "$(grep -o 'context made [a-z ]*' /tmp/auto_e | head -1)"
    done
}
bash tests/cli/test_choose.sh $W . >"$out/test_choose.log" 2>&1
echo "test_choose.sh rc=$? $(tail -1 "$out/test_choose.log")"
for be in cpu auto cuda; do
    timed "pairs 2 kb, --backend $be" $W align --mode global --pairs --backend $be \
        $D/reads2k_a.fa $D/reads2k_b.fa
    timed "pairs 2 kb --cigar, --backend $be" $W align --mode global --pairs --cigar \
        --backend $be $D/reads2k_a.fa $D/reads2k_b.fa
    [ -f "$carry/g10000.fa" ] && timed "10,000 guides, --backend $be" $W search --backend $be -k 4 \
        --hamming --revcomp --exact-suffix 3 -f "$carry/g10000.fa" /dev/shm/chrX.fa
done
rm -f /dev/shm/auto.out
