#!/usr/bin/env bash
# gpu_ucr.sh -- issue 19, item 3 on the lent GPU: ucr mode's best window on
# the GPU (bounds of every window, sorted, exact DTW in bound order), tests
# first.
#   bash bench/gpu_ucr.sh test|bench|all|prof|rows|quick|owed [CARRY]
# CARRY (.gpu-dtw) holds mitdb100.csv.gz and the compression -dev .debs.
# Builds with CUDA (sm_90) into /tmp/build-mx. test: test_dtw_diff at scale 1
# (its ucr cases on the CUDA contexts against the oracle), test_api_target
# (series targets, ucr among them), test_api_dtw, the CLI's dtw tests (cuda =
# cpu), compute-sanitizer memcheck and racecheck on test_dtw_diff's smallest
# scale. bench: bench_ucr on MIT-BIH 100 lead MLII repeated to 10,000,000
# samples, m = 128 (bands of 5 % and 10 %) and 1,000 (the issue's: 5 %), the 16-core
# CPU's cascade and the GPU in the same run, the distance and start compared.
# Then the CLI end to end on the same series as a text file.
# prof: ncu's time and instructions by kernel of m = 1,000 (two searches:
# the untimed one and one timed), into ncu_ucr.txt, summed in the log.
# rows: bench_ucr's GPU rows at m = 128 and 1,000 (5 %) for each lane shape
# of the windows' DTW (--rows: $UCR_ROWS, 0,1,2,3,4,6,8 by default), with
# and without the rows' bound (--ec: $UCR_EC, 1,0), each with its split,
# into bench.log.
# quick: test_dtw_diff and the CLI's test_dtw, memcheck of test_dtw_diff's
# smallest scale and of a ucr search, then bench_ucr at m = 1,000 and 128
# (5 %) with the GPU row twice in one process: a short call.
# owed: what a call of quick leaves out (test_api_target, test_api_dtw,
# racecheck of a ucr search), in the build folder $UCR_BUILD when given (one
# that another script configured the same way).
# Logs in $OUT: ucr.log (steps), build.log, tests.log, bench.log.
source bench/gpu_common.sh ucr "${UCR_BUILD:-/tmp/build-mx}" "${1:-all}" "${2:-.gpu-dtw}"
if [ "$mode" = owed ]; then
    gpu_build warpmatch_cli test_api_target test_api_dtw
    run_tests test_api_target test_api_dtw
    sanitize racecheck $B/warpmatch dtw --mode ucr --window 0.05 --backend cuda \
        data/signals/beat_query.txt data/signals/ecg_mitdb100_60s.csv
    exit 0
fi
if [ "$mode" = quick ]; then
    gpu_build warpmatch_cli test_dtw_diff bench_ucr
    run_tests test_dtw_diff cli:test_dtw
    WM_TEST_SCALE=0.01 sanitize memcheck $B/tests/test_dtw_diff
    sanitize memcheck $B/warpmatch dtw --mode ucr --window 0.05 --backend cuda \
        data/signals/beat_query.txt data/signals/ecg_mitdb100_60s.csv
    zcat "$carry/mitdb100.csv.gz" | tail -n +3 | cut -d, -f1 >/tmp/mlii.txt
    for m in 1000 128; do
        $B/bench/bench_ucr --text --repeat 10000000 -m $m -b 5 -t 16 -r 3 --gpu --rows 0,0 \
            /tmp/mlii.txt 2>&1 | tee -a "$out/bench.log"
    done
    exit 0
fi
if [ "$mode" = rows ]; then
    gpu_build bench_ucr
    zcat "$carry/mitdb100.csv.gz" | tail -n +3 | cut -d, -f1 >/tmp/mlii.txt
    for m in 128 1000; do
        log "bench_ucr m = $m, 5 %, rows a lane ${UCR_ROWS:-0,1,2,3,4,6,8} (0: the model)"
        $B/bench/bench_ucr --text --repeat 10000000 -m $m -b 5 -t 16 -r 3 --gpu \
            --rows "${UCR_ROWS:-0,1,2,3,4,6,8}" --ec "${UCR_EC:-1,0}" /tmp/mlii.txt 2>&1 | tee -a "$out/bench.log"
    done
    exit 0
fi
if [ "$mode" = prof ]; then
    gpu_build bench_ucr
    zcat "$carry/mitdb100.csv.gz" | tail -n +3 | cut -d, -f1 >/tmp/mlii.txt
    ncu --clock-control none --print-units base \
        --metrics gpu__time_duration.sum,smsp__inst_executed.sum $B/bench/bench_ucr --text \
        --repeat 10000000 -m 1000 -b 5 -t 16 -r 1 --gpu /tmp/mlii.txt >"$out/ncu_ucr.txt" 2>&1
    log "ncu bench_ucr m = 1,000, 5 %: rc=$?"
    awk '/^  [a-zA-Z_].*\(/ { name = ($1 == "void" ? $2 : $1); sub(/\(.*/, "", name) }
        /gpu__time_duration.sum/ { gsub(",", "", $NF); d[name] += $NF; c[name]++ }
        /smsp__inst_executed.sum/ { gsub(",", "", $NF); i[name] += $NF }
        END { for (k in d) printf "%s: %d launches, %.3f ms, %.3g instructions\n", k, c[k], d[k] / 1e6, i[k] }' \
        "$out/ncu_ucr.txt" | while read -r line; do log "$line"; done
    exit 0
fi
gpu_build warpmatch_cli test_dtw_diff test_api_target test_api_dtw bench_ucr
W=$B/warpmatch

if [ "$mode" != bench ]; then
    run_tests test_dtw_diff test_api_target test_api_dtw cli:test_dtw cli:test_dtw_matrix
    WM_TEST_SCALE=0.01 sanitize memcheck $B/tests/test_dtw_diff
fi
if [ "$mode" != test ]; then # racecheck is slow: one ucr search of the bundled sample
    for tool in memcheck racecheck; do
        sanitize $tool $W dtw --mode ucr --window 0.05 --backend cuda \
            data/signals/beat_query.txt data/signals/ecg_mitdb100_60s.csv
    done
fi
[ "$mode" = test ] && exit 0

zcat "$carry/mitdb100.csv.gz" | tail -n +3 | cut -d, -f1 >/tmp/mlii.txt
for mb in "128 5,10" "1000 5"; do
    set -- $mb
    log "bench_ucr m = $1, bands $2 %, 10,000,000 samples, 16 threads and the GPU"
    $B/bench/bench_ucr --text --repeat 10000000 -m $1 -b $2 -t 16 -r 3 --gpu /tmp/mlii.txt 2>&1 |
        tee -a "$out/bench.log"
done
# the CLI end to end (the whole process: a 10,000,000-line text series, a
# query of 1,000 samples cut from it at 450,000)
awk '{ v[n++] = $1 } END { for (i = 0; i < 10000000; i++) print v[i % n] }' /tmp/mlii.txt \
    >/tmp/series10m.txt
sed -n '450001,451000p' /tmp/series10m.txt >/tmp/q1000.txt
for b in cpu cuda; do
    t0=$(date +%s.%N)
    $W dtw --mode ucr --window 0.05 --backend $b /tmp/q1000.txt /tmp/series10m.txt >/tmp/ucr_$b.tsv
    rc=$?
    t1=$(date +%s.%N)
    log "cli dtw --mode ucr m = 1,000, 5 %, 10,000,000 samples --backend $b: rc=$rc $(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.3f s", b - a }'): $(cat /tmp/ucr_$b.tsv)"
done
cmp -s /tmp/ucr_cpu.tsv /tmp/ucr_cuda.tsv && log "cli ucr: cuda = cpu, byte for byte"
