#!/usr/bin/env bash
# gpu_dtw_many.sh -- issue 19, item 2's target on the lent GPU: 1,000 queries
# of 128 against 4,194,304 samples kept on the device, pass 1's plain blocks
# (sdtw_kernel.cuh) and the pieces a query (sdtw_cuda.cu), tests first.
#   bash bench/gpu_dtw_many.sh test|bench|variants|all [CARRY]
# CARRY (.gpu-dtw) holds mitdb100.csv.gz and the compression -dev .debs;
# CARRY/base, when present, the two files of the tree before (sdtw_kernel.cuh,
# sdtw_cuda.cu), built and run in the same call as the baseline.
# test: test_dtw_diff at half scale (every CUDA context), test_api_dtw,
# test_api_target, the CLI's dtw tests (cuda = cpu), compute-sanitizer
# memcheck and racecheck on a many-query run. bench: bench_dtw, the 1,000
# queries in float32 and float64, one query of 1,024, the 16-core CPU on 16
# of the queries; then the same with the kernel rebuilt with other register
# bounds (PLAIN_MINB), and the baseline; ncu's
# instruction and scheduler statistics of pass 1; the CLI end to end.
# DTW_VARIANTS= (empty) runs the baseline alone in variants mode;
# DTW_SCALE sets test_dtw_diff's scale (0.5).
# Logs in $OUT: many.log (steps), build.log, tests.log, bench.log.
source bench/gpu_common.sh many /tmp/build-many "${1:-all}" "${2:-.gpu-dtw}"
gpu_build warpmatch_cli test_dtw_diff test_api_dtw test_api_target bench_dtw
export WM_GPU_CLOCK_MHZ=$(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | head -1)
log "max SM clock $WM_GPU_CLOCK_MHZ MHz"
ecg=$carry/mitdb100.csv.gz

if [ "$mode" = test ] || [ "$mode" = all ]; then
    run_tests test_api_dtw test_api_target cli:test_dtw
    WM_TEST_SCALE=${DTW_SCALE:-0.5} run_tests test_dtw_diff
    for tool in memcheck racecheck; do
        sanitize $tool $B/bench/bench_dtw "$ecg" --backend cuda --m 128,100 --n 65536 \
            --queries 24 --reps 1 --precision f32
    done
fi
[ "$mode" = test ] && exit 0

b() { log "$*"; "$@" 2>&1 | tee -a "$out/bench.log"; }
many() { # LABEL BINARY: the many-query rows, both precisions
    for p in f32 f64; do
        log "[$1] 1,000 x 128 against 4,194,304, $p"
        "$2" "$ecg" --backend cuda --m 128 --n 4194304 --queries 1000 --target 1 --reps 5 \
            --precision $p 2>&1 | tee -a "$out/bench.log"
    done
    log "[$1] 1,000 x 128, f32, time split"
    "$2" "$ecg" --backend cuda --m 128 --n 4194304 --queries 1000 --target 1 --reps 1 \
        --precision f32 --timing 1 2>&1 | tee -a "$out/bench.log"
}
cp $B/bench/bench_dtw /tmp/bench_dtw.new
if [ "$mode" = bench ] || [ "$mode" = all ]; then
many new /tmp/bench_dtw.new
b /tmp/bench_dtw.new "$ecg" --backend cuda --m 1024 --n 4194304 --target 1 --reps 7 --precision f32
for p in f32 f64; do
    b /tmp/bench_dtw.new "$ecg" --backend cpu --m 128 --n 4194304 --queries 16 --reps 3 --precision $p
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
log "ncu: pass 1 of the 1,000 queries, f32"
$NCU -k regex:sdtw_kernel -c 1 --section InstructionStats --section SchedulerStats \
    --section LaunchStats --section Occupancy /tmp/bench_dtw.new "$ecg" --backend cuda --m 128 \
    --n 4194304 --queries 1000 --reps 1 --precision f32 2>&1 | tail -60 | tee -a "$out/bench.log"

fi
# variants: the kernel's header rebuilt in this copy of the tree
K=src/dtw/sdtw_kernel.cuh
cp $K /tmp/kernel.keep
if [ "$mode" = variants ] || [ "$mode" = all ]; then
variant() { # LABEL SED
    cp /tmp/kernel.keep $K
    sed -i "$2" $K
    cmake --build "$B" -j"$(nproc)" --target bench_dtw >>"$out/build.log" 2>&1 || { log "[$1] build failed"; return; }
    cp $B/bench/bench_dtw /tmp/bench_dtw.$1
    log "[$1] registers (f32 / f64, R = 4): $(cuobjdump -res-usage /tmp/bench_dtw.$1 2>/dev/null |
        grep -A1 -E 'sdtw_kernelI[fd]Li4ELb0ELb0' | grep -o 'REG:[0-9]*' | tr '\n' ' ')"
    many "$1" /tmp/bench_dtw.$1
}
[ "${DTW_VARIANTS-minb6}" = minb6 ] && variant minb6 '1i #define PLAIN_MINB 6'
if [ -f "$carry/base/sdtw_kernel.cuh" ]; then
    cp src/dtw/sdtw_cuda.cu /tmp/cuda.keep
    cp "$carry/base/sdtw_kernel.cuh" $K
    cp "$carry/base/sdtw_cuda.cu" src/dtw/sdtw_cuda.cu
    cmake --build "$B" -j"$(nproc)" --target bench_dtw >>"$out/build.log" 2>&1 &&
        cp $B/bench/bench_dtw /tmp/bench_dtw.base && many base /tmp/bench_dtw.base
    b /tmp/bench_dtw.base "$ecg" --backend cuda --m 1024 --n 4194304 --target 1 --reps 7 --precision f32
    cp /tmp/cuda.keep src/dtw/sdtw_cuda.cu
fi
cp /tmp/kernel.keep $K
fi
[ "$mode" = variants ] && exit 0

# the CLI end to end: the same queries and series as text files
dtw_cli_runs "$ecg" f32 f64
