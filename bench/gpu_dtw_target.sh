#!/usr/bin/env bash
# gpu_dtw_target.sh -- issue 19, item 2 on the lent GPU: many queries against
# one series kept on the device (wm_target_new_series, wm_dtw_many_target;
# the CLI's dtw uses it), tests first.
#   bash bench/gpu_dtw_target.sh test|bench|all [CARRY]
# CARRY (.gpu-dtw) holds mitdb100.csv.gz and the compression -dev .debs.
# Builds with CUDA (sm_90) into /tmp/build-mx (gpu_dtw_matrix.sh's).
# test: test_api_target (series targets = wm_dtw_many, bit for bit, every
# mode; one upload a target; chunks read at several offsets), test_api_dtw,
# the CLI's dtw tests (cuda = cpu), compute-sanitizer memcheck on
# test_api_target's dtw part. bench: bench_dtw, 1,000 queries of 128 samples
# (lead V5) against 4,194,304 samples of lead MLII, on the GPU in 1 call and
# in 64 calls (the CLI's slices), with and without the target; then the CLI
# end to end on the same files.
# Logs in $OUT: tgt.log (steps), build.log, tests.log, bench.log.
source bench/gpu_common.sh tgt /tmp/build-mx "${1:-all}" "${2:-.gpu-dtw}"
gpu_build warpmatch_cli test_api_target test_api_dtw bench_dtw
W=$B/warpmatch
export WM_GPU_CLOCK_MHZ=$(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | head -1)

if [ "$mode" != bench ]; then
    run_tests test_api_target test_api_dtw cli:test_dtw cli:test_dtw_formats cli:test_dtw_matrix
    WM_TEST_SCALE=0.05 sanitize memcheck $B/tests/test_api_target
fi
[ "$mode" = test ] && exit 0

for calls in 1 64; do
    for tgt in 0 1; do
        log "bench_dtw 1000 x 128 against 4,194,304, cuda, $calls call(s), target $tgt"
        $B/bench/bench_dtw "$carry/mitdb100.csv.gz" --backend cuda --m 128 --n 4194304 \
            --queries 1000 --calls $calls --target $tgt --reps 3 2>&1 | tee -a "$out/bench.log"
    done
done
# the CLI: the same queries and series as files
zcat "$carry/mitdb100.csv.gz" | awk -F, 'NR > 2 { m[n] = $1; v[n++] = $2 }
    END { for (i = 0; i < 4194304; i++) print m[i % n] > "/tmp/series4m.txt";
          for (q = 0; q < 1000; q++) { o = (100003 + q * 5003) % (n - 128); l = "";
              for (j = 0; j < 128; j++) l = l (j ? " " : "") v[o + j]; print l > "/tmp/q1000.txt" } }'
for b in cuda cpu; do
    [ $b = cpu ] && continue # 5.4e11 cells: minutes on 16 cores
    t0=$(date +%s.%N)
    $W dtw --backend $b /tmp/q1000.txt /tmp/series4m.txt >/tmp/dtw_$b.tsv 2>/dev/null
    rc=$?
    t1=$(date +%s.%N)
    log "cli dtw 1000 queries x 4,194,304 --backend $b: rc=$rc $(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.3f s", b - a }'), $(wc -l </tmp/dtw_$b.tsv) lines"
done
