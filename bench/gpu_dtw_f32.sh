#!/usr/bin/env bash
# gpu_dtw_f32.sh -- issue 19, item 1 on the lent GPU: --precision f32 (the
# DTW kernels in float32, the same bits as the CPU's float32), tests first.
#   bash bench/gpu_dtw_f32.sh test|sanitize|bench|all [CARRY]
# CARRY (.gpu-dtw) holds mitdb100.csv.gz, the UCR .tsv files under ucr/ and
# the compression -dev .debs. Builds with CUDA (sm_90) into /tmp/build-f32.
# test: test_dtw_diff at half scale (a third of its cases in float32, each
# against the float32 oracle, on the CPU and CUDA contexts), test_dtw_matrix
# (40% float32), test_api_dtw, test_api_target, the CLI's dtw tests (cuda =
# cpu in both precisions). sanitize: compute-sanitizer memcheck and
# racecheck on small runs (the matrix, the API, the start windows). bench: in one run each, f64 then f32 --
# bench_dtw m = 1,024 against 4,194,304 samples resident (the whole call,
# its time split and each kernel's time), 1,000 queries of 128, the 16-core
# CPU beside them;
# bench_dtw_matrix 1,000 x 500 (no band, 10%); the CPU's f32 band rule on
# this AVX-512 host; the CLI end to end.
# Logs in $OUT: f32.log (steps), build.log, tests.log, bench.log.
source bench/gpu_common.sh f32 /tmp/build-f32 "${1:-all}" "${2:-.gpu-dtw}"
gpu_build warpmatch_cli test_dtw_diff test_dtw_matrix test_api_dtw test_api_target bench_dtw \
    bench_dtw_matrix
mkdir -p /tmp/shared/timeseries && ln -sfn "$PWD/$carry/ucr" /tmp/shared/timeseries/ucr
export WM_SHARED_DATA=/tmp/shared
export WM_GPU_CLOCK_MHZ=$(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | head -1)
log "max SM clock $WM_GPU_CLOCK_MHZ MHz"
ecg=$carry/mitdb100.csv.gz

if [ "$mode" = test ] || [ "$mode" = all ]; then
    run_tests test_dtw_matrix test_api_dtw test_api_target
    WM_TEST_SCALE=0.5 run_tests test_dtw_diff
    run_tests cli:test_dtw cli:test_dtw_matrix
fi
if [ "$mode" = sanitize ] || [ "$mode" = all ]; then
    for tool in memcheck racecheck; do
        WM_TEST_SCALE=0.02 sanitize $tool $B/tests/test_dtw_matrix
    done
    sanitize memcheck $B/tests/test_api_dtw
    # the start windows' pipelined kernel (sdtw_window_cuda.cu): 32 and 20 warps
    for p in f64 f32; do
        for tool in memcheck racecheck; do
            sanitize $tool $B/bench/bench_dtw "$ecg" --backend cuda --m 1024,2500 --n 16384 \
                --reps 1 --precision $p
        done
    done
    WM_TEST_SCALE=0.05 sanitize memcheck $B/tests/test_api_target
fi
[ "$mode" = test ] || [ "$mode" = sanitize ] && exit 0

b() { log "$*"; "$@" 2>&1 | tee -a "$out/bench.log"; }
for p in f64 f32; do
    b $B/bench/bench_dtw "$ecg" --backend cuda --m 1024 --n 4194304 --target 1 --reps 7 --precision $p
    b $B/bench/bench_dtw "$ecg" --backend cuda --m 1024 --n 4194304 --target 1 --reps 3 --precision $p --timing 1
    b $B/bench/bench_dtw "$ecg" --backend cpu --m 1024 --n 4194304 --reps 3 --precision $p
    b $B/bench/bench_dtw "$ecg" --backend cuda --m 128 --n 4194304 --queries 1000 --target 1 --reps 3 --precision $p
    b $B/bench/bench_dtw "$ecg" --backend cpu --m 128 --n 4194304 --queries 16 --reps 3 --precision $p
done
# each kernel of one whole call (ncu, the GPU's own clocks): pass 1, fix-ups, the start's window
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for p in f64 f32; do
    log "kernels of one call, m 1,024 x 4,194,304, $p"
    $NCU --clock-control none --metrics gpu__time_duration.sum $B/bench/bench_dtw "$ecg" --backend cuda \
        --m 1024 --n 4194304 --reps 1 --precision $p 2>&1 |
        grep -E "^  [a-z].*(kernel|Kernel)|gpu__time_duration" | sed -e 's/(.*//' | tr -s ' ' |
        paste -d' ' - - | tee -a "$out/bench.log"
done
for p in f64 f32; do
    b $B/bench/bench_dtw_matrix "$ecg" --series 1000 --len 500 --windows -1,0.1 --reps 3 --precision $p
done
# the CPU's f32 band rule on AVX-512: strips from 1 strip's rows (64) against the scalar DP
b $B/bench/bench_dtw_matrix "$ecg" --series 1000 --len 500 --windows 0.04,0.06,0.1 --backends cpu \
    --reps 3 --precision f32
b $B/bench/bench_dtw_matrix "$ecg" --series 1000 --len 500 --windows 0.04,0.06,0.1 --backends cpu \
    --reps 3 --precision f32 --scalar 1

# the CLI end to end: 1,000 queries of 128 against 4,194,304 samples, files in, lines out
dtw_cli_runs "$ecg" f64 f32
paste /tmp/dtw_f64.tsv /tmp/dtw_f32.tsv | awk -F'\t' '$2 != $6 || $3 != $7 { d++ } END { printf "f32 vs f64: %d of %d best matches at another place\n", d, NR }' | tee -a "$out/bench.log"
