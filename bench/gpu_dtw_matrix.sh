#!/usr/bin/env bash
# gpu_dtw_matrix.sh -- issue 19, item 4 on the lent GPU: DTW distance
# matrices (wm_dtw_matrix, `dtw --mode matrix`), tests first.
#   bash bench/gpu_dtw_matrix.sh test|bench|all [CARRY]
# CARRY (.gpu-dtw) holds mitdb100.csv.gz, the UCR .tsv files under ucr/ and
# the compression -dev .debs. Builds with CUDA (sm_90) into /tmp/build-mx.
# test: test_dtw_matrix (every entry against the oracle on the CPU, CPU
# shards, CUDA and two CUDA contexts of device 0), test_api_dtw and a quarter
# of test_dtw_diff (the GPU table grew an entry), the CLI test (the published
# UCR accuracies, cuda = cpu byte for byte), compute-sanitizer (memcheck,
# racecheck) on a small run of test_dtw_matrix. bench: bench_dtw_matrix,
# 1,000 ECG series of 500 samples, abs and squared, no band and a 10% band,
# the 16-core CPU and the GPU in the same run with their bits compared; the
# CLI end to end on UCR sets (--knn 1) and on the 1,000 series (--npy).
# Logs in $OUT: mx.log (steps), build.log, tests.log, bench.log, cli.log.
source bench/gpu_common.sh mx /tmp/build-mx "${1:-all}" "${2:-.gpu-dtw}"
gpu_build warpmatch_cli test_dtw_matrix test_api_dtw test_dtw_diff bench_dtw_matrix
W=$B/warpmatch
mkdir -p /tmp/shared/timeseries && ln -sfn "$PWD/$carry/ucr" /tmp/shared/timeseries/ucr
export WM_SHARED_DATA=/tmp/shared
clk=$(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | head -1)
export WM_GPU_CLOCK_MHZ=$clk
log "max SM clock $clk MHz"

if [ "$mode" != bench ]; then
    run_tests test_dtw_matrix test_api_dtw
    WM_TEST_SCALE=0.25 run_tests test_dtw_diff
    run_tests cli:test_dtw_matrix
    for tool in memcheck racecheck; do
        WM_TEST_SCALE=0.02 sanitize $tool $B/tests/test_dtw_matrix
    done
fi
[ "$mode" = test ] && exit 0

for cost in abs squared; do
    log "bench_dtw_matrix 1000 x 500, $cost"
    $B/bench/bench_dtw_matrix "$carry/mitdb100.csv.gz" --series 1000 --len 500 \
        --windows -1,0.3,0.1,0.02 --cost $cost --reps 3 2>&1 | tee -a "$out/bench.log"
done
log "bench_dtw_matrix 1000 x 500, abs, the CPU's scalar DP, then strips for every band (the rule)"
$B/bench/bench_dtw_matrix "$carry/mitdb100.csv.gz" --series 1000 --len 500 --windows 0.3,0.1,0.02 \
    --backends cpu --scalar 1 --reps 3 2>&1 | tee -a "$out/bench.log"
$B/bench/bench_dtw_matrix "$carry/mitdb100.csv.gz" --series 1000 --len 500 --windows 0.1,0.02 \
    --backends cpu --band-strips 1 --reps 3 2>&1 | tee -a "$out/bench.log"
for shape in "4000 128" "2000 150" "8000 24"; do
    set -- $shape
    log "bench_dtw_matrix $1 x $2, abs, no band (short series: pairs side by side)"
    $B/bench/bench_dtw_matrix "$carry/mitdb100.csv.gz" --series $1 --len $2 --windows -1 \
        --reps 3 2>&1 | tee -a "$out/bench.log"
done

# the CLI end to end: the whole process, files in, lines out
tm() {
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f s", b - a }'
}
for d in GunPoint OSULeaf ACSF1; do
    for b in cpu cuda auto; do
        log "cli $d TEST x TRAIN --knn 1 --backend $b: $(tm $W dtw --mode matrix --knn 1 --cost squared --backend $b $carry/ucr/${d}_TEST.tsv $carry/ucr/${d}_TRAIN.tsv)"
    done
    $W dtw --mode matrix --knn 1 --cost squared $carry/ucr/${d}_TEST.tsv $carry/ucr/${d}_TRAIN.tsv 2>&1 >/dev/null | tee -a "$out/cli.log"
done
zcat "$carry/mitdb100.csv.gz" | awk -F, 'NR > 2 { v[n++] = $1 } END { s = int((n - 500) / 1000);
    for (i = 0; i < 1000; i++) { l = ""; for (j = 0; j < 500; j++) l = l (j ? " " : "") v[i * s + j]; print l } }' >/tmp/ecg1000.txt
for b in cpu cuda auto; do
    log "cli 1000 x 500 ECG --npy --backend $b: $(tm $W dtw --mode matrix --npy /tmp/m_$b.npy --backend $b /tmp/ecg1000.txt)"
done
cmp /tmp/m_cpu.npy /tmp/m_cuda.npy && log "cli --npy: cuda = cpu, byte for byte"
