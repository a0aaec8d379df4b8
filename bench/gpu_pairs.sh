#!/usr/bin/env bash
# gpu_pairs.sh -- issue 18 on the lent GPU: many independent pairs (wm_align_pairs
# and wm_align_pairs_packed) beside edlib, tests first.
#   bash bench/gpu_pairs.sh test|bench|all [CARRY]
# Builds with CUDA (sm_90) into /tmp/build-pairs (kept between calls on a warm
# machine). test: test_global_diff (its CUDA context takes every wm_align_pairs
# batch, at GPU batches of 1, 2, 7, 64 pairs and the default, as pairs and as
# columns), test_gpu_recover, test_api_align, and compute-sanitizer (memcheck,
# racecheck) over 3,000 pairs of the bench's reads in batches of 300.
# bench: 1,000,000 pairs of 150 bp and 100,000 of 1,000 bp (bench/prep_global.sh,
# E. coli from CARRY)
# through bench_global pairs on cuda, pairs and columns, beside edlib on all
# cores (CARRY/debs/edlib: `apt-get download libedlib-dev libedlib1`); a sweep
# of the GPU batch size; the CPU backend on all cores beside edlib; the CLI.
# warp: pairs past a GPU thread (2 kb and 5 kb reads, READS2K [50,000] and
# READS5K [10,000]; the warp tier): test_global_diff, test_gpu_recover,
# test_api_align, test_global.sh, test_align.sh and compute-sanitizer
# (memcheck, racecheck) over 300 pairs of 2 kb with and without CIGARs,
# then 100,000 pairs of 1 kb as columns (the thread tier), bench_global pairs
# (distances and CIGARs) on cuda (pairs and columns) beside edlib on all
# cores, the CPU backend on all cores, the CLI on 2 kb pairs (cuda, cpu,
# auto), and the tree before (CARRY/prev-src.tar.gz, built beside) on
# WARP_PREV_PAIRS [2,000] of each of WARP_PREV_READS [reads2k reads5k], rows
# WARP_PREV_ONLY [bv], WARP_PREV_REPS [1] runs. bench and all run the tree
# before too when CARRY/prev-src.tar.gz is there: its 150 bp rows on cuda,
# columns and pairs, alternating with this tree's. PREV_HARNESS=1 builds the
# tree before with this tree's bench/bench_global.c (the same harness; it
# fails where the harness sets tuning the tree before does not have).
# Logs in $OUT: pairs.log (steps), build.log, tests.log, bench_*.txt.
if ls "${2:-.gpu}"/debs/edlib/*.deb >/dev/null 2>&1; then
    eval "$(bash bench/peers/unpack_debs.sh "${2:-.gpu}"/debs/edlib /tmp/edlib-root)"
fi
source bench/gpu_common.sh pairs /tmp/build-pairs "$@"
D=/dev/shm/wm-pairs
gpu_build warpmatch_cli test_global_diff test_gpu_recover test_api_align bench_global gen_pairs \
    bench_h2d bench_gpu_align
log "$(grep -c 'with edlib' "$out/build.log") targets with edlib"
export WM_SHARED_DATA=$PWD/$carry
reads=1000000
reads1k=100000
[ "$mode" = test ] && reads=20000 reads1k=2000
all=$(nproc)
# the pairs' tests of the CUDA build, a line each in the log
pair_tests() {
    local t t0
    for t in test_global_diff test_gpu_recover test_api_align; do
        t0=$(date +%s)
        $B/tests/$t >>"$out/tests.log" 2>&1
        log "$t rc=$? in $(($(date +%s) - t0)) s: $(tail -1 "$out/tests.log")"
        [ $t = test_global_diff ] && log "  $(grep -E '^pairs past' "$out/tests.log" | tail -1)"
    done
    for t in test_global test_align; do
        bash tests/cli/$t.sh $B/warpmatch . >>"$out/tests.log" 2>&1
        log "$t.sh rc=$? $(tail -1 "$out/tests.log")"
    done
}
# the tree before (CARRY/prev-src.tar.gz, `git archive`), its bench_global
# built in the background beside the tests (NO_PREV=1: not built)
P=/tmp/build-pairs-prev
if [ "$mode" != test ] && [ -z "${NO_PREV:-}" ] && [ -f "$carry/prev-src.tar.gz" ]; then
    (rm -rf /tmp/prev-src && mkdir -p /tmp/prev-src && tar -xzf "$carry/prev-src.tar.gz" -C /tmp/prev-src &&
        { [ -z "${PREV_HARNESS:-}" ] || cp bench/bench_global.c /tmp/prev-src/bench/; } &&
        cmake -S /tmp/prev-src -B $P -DCMAKE_BUILD_TYPE=Release -DWARPMATCH_MPI=OFF \
            -DWARPMATCH_BENCH=ON -DCMAKE_CUDA_ARCHITECTURES=90-real "${extra[@]}" &&
        cmake --build $P -j"$all" --target bench_global) >"$out/build_prev.log" 2>&1 &
fi
if [ "$mode" = warp ]; then
    t0=$(date +%s)
    CARRY=$carry READS=20000 READS1K=100000 READS2K=${READS2K:-50000} READS5K=${READS5K:-10000} \
        bash bench/prep_global.sh $B $D >>"$out/pairs.log" 2>&1
    log "inputs: rc=$? in $(($(date +%s) - t0)) s"
    pair_tests
    for tool in memcheck racecheck; do
        compute-sanitizer --tool $tool --error-exitcode 9 $B/bench/bench_global pairs -d $D \
            --reads reads2k --backend cuda --max-pairs 300 --only bv,bv+cigar --reps 1 --min-s 0 \
            --pairs-batch 100 >>"$out/tests.log" 2>&1
        log "compute-sanitizer $tool, 300 pairs of 2 kb: rc=$? $(grep 'ERROR SUMMARY' "$out/tests.log" | tail -1)"
    done
    log "floor: $($B/bench/bench_gpu_align binary 2>&1 | head -1)"
    G="$B/bench/bench_global pairs -d $D"
    for r in reads2k reads5k; do
        $G --reads $r --backend cuda --procs "$all" --only bv,bv+cigar,edlib,edlib-path --reps 3 \
            >"$out/bench_${r}_cuda.txt" 2>&1
        log "$r, cuda, wm_align_pairs, edlib on $all: rc=$?"
        $G --reads $r --backend cuda --packed --only bv,bv+cigar >"$out/bench_${r}_cuda_cols.txt" 2>&1
        log "$r, cuda, columns: rc=$?"
        $G --reads $r --backend cpu -j "$all" --packed --only bv,bv+cigar \
            >"$out/bench_${r}_cpu.txt" 2>&1
        log "$r, cpu -j $all, columns: rc=$?"
    done
    # the thread tier beside section 19's 1 kb rows (its walk is shared now)
    $G --reads reads1k --backend cuda --packed --only bv,bv+cigar >"$out/bench_reads1k_cuda_cols.txt" 2>&1
    log "reads1k, cuda, columns: rc=$? $(grep -h '^reads1k' "$out/bench_reads1k_cuda_cols.txt" | awk '{print $3, $7, $9}' | tr '\n' ' ')"
    for be in cuda cpu auto; do # the CLI, whole processes, 2 kb pairs
        for cg in "" --cigar; do
            for r in 1 2 3; do
                WM_CUDA_TIMING=1 /usr/bin/time -f "%e s %M KB" -o "$out/cli_time" $B/warpmatch align \
                    --mode global --pairs $cg --backend $be --explain-backend $D/reads2k_a.fa \
                    $D/reads2k_b.fa >"$out/cli_$be$cg.out" 2>"$out/cli_err"
                log "cli align --pairs $cg --backend $be, 2 kb, run $r: rc=$? $(cat "$out/cli_time") $(md5sum <"$out/cli_$be$cg.out" | cut -c1-8); $(grep -E '^align:|backend' "$out/cli_err" | head -2 | tr '\n' ' ')"
            done
        done
    done
    rm -f "$out"/cli_*.out
    wait
    if [ -x $P/bench/bench_global ]; then
        for r in ${WARP_PREV_READS:-reads2k reads5k}; do
            timeout 200 $P/bench/bench_global pairs -d $D --reads $r --backend cuda \
                --only "${WARP_PREV_ONLY:-bv}" --max-pairs "${WARP_PREV_PAIRS:-2000}" \
                --reps "${WARP_PREV_REPS:-1}" --min-s 0 >"$out/bench_${r}_prev.txt" 2>&1
            log "$r, cuda, the tree before, ${WARP_PREV_PAIRS:-2000} pairs: rc=$?"
        done
    fi
    exit 0
fi
t0=$(date +%s)
CARRY=$carry READS=$reads READS1K=$reads1k bash bench/prep_global.sh $B $D >>"$out/pairs.log" 2>&1
log "inputs: rc=$? in $(($(date +%s) - t0)) s"

if [ "$mode" != bench ]; then
    pair_tests
    for tool in memcheck racecheck; do
        for api in "" --packed; do
            compute-sanitizer --tool $tool --error-exitcode 9 $B/bench/bench_global pairs -d $D \
                --backend cuda --max-pairs 3000 --only bv,bv+cigar --reps 1 --min-s 0 \
                --pairs-batch 300 $api >>"$out/tests.log" 2>&1
            log "compute-sanitizer $tool $api: rc=$? $(grep 'ERROR SUMMARY' "$out/tests.log" | tail -1)"
        done
    done
fi
[ "$mode" = test ] && exit 0

# the floors, in the same run: the pinned host-to-device copy (a call's
# upload), and the bit-vector step peak (bench_gpu_align's first line)
log "floor: $($B/bench/bench_h2d 256 9 | tr '\n' ' ')"
log "floor: $($B/bench/bench_gpu_align binary 2>&1 | head -1)"
G="$B/bench/bench_global pairs -d $D"
$G --backend cuda --procs "$all" >"$out/bench_cuda.txt" 2>&1
log "cuda, wm_align_pairs, edlib on $all: rc=$?"
$G --backend cuda --packed --only bv,bv+cigar >"$out/bench_cuda_cols.txt" 2>&1
log "cuda, columns: rc=$? $(grep -h '^reads150' "$out/bench_cuda_cols.txt" | awk '{print $3, $7}' | tr '\n' ' ')"
wait # the tree before: the same rows, beside this tree's once more
if [ -x $P/bench/bench_global ]; then
    for api in --packed "" --packed; do
        $P/bench/bench_global pairs -d $D --backend cuda $api --only bv,bv+cigar \
            >"$out/bench_prev_cuda${api}.txt" 2>&1
        log "the tree before, cuda $api: rc=$? $(grep -h '^reads150' "$out/bench_prev_cuda${api}.txt" | awk '{print $3, $7}' | tr '\n' ' ')"
        $G --backend cuda $api --only bv,bv+cigar >"$out/bench_again_cuda${api}.txt" 2>&1
        log "this tree, cuda $api: rc=$? $(grep -h '^reads150' "$out/bench_again_cuda${api}.txt" | awk '{print $3, $7}' | tr '\n' ' ')"
    done
fi
for pb in 16384 32768 65536 262144 1048576; do
    $G --backend cuda --packed --only bv,bv+cigar --pairs-batch $pb --reps 5 >"$out/bench_sweep_$pb.txt" 2>&1
    log "sweep $pb: rc=$? $(grep -h '^reads150' "$out/bench_sweep_$pb.txt" | awk '{print $3, $7}' | tr '\n' ' ')"
done
$G --backend cpu -j "$all" --procs "$all" --packed >"$out/bench_cpu.txt" 2>&1
log "cpu -j $all, columns, edlib on $all: rc=$?"
$G --reads reads1k --backend cuda --procs "$all" >"$out/bench_1k_cuda.txt" 2>&1
log "1 kb pairs, cuda, wm_align_pairs, edlib on $all: rc=$?"
$G --reads reads1k --backend cuda --packed --only bv,bv+cigar >"$out/bench_1k_cuda_cols.txt" 2>&1
log "1 kb pairs, cuda, columns: rc=$?"
$G --reads reads1k --backend cpu -j "$all" --packed --only bv,bv+cigar >"$out/bench_1k_cpu.txt" 2>&1
log "1 kb pairs, cpu -j $all, columns: rc=$?"
for be in cuda cpu; do
    for cg in "" --cigar; do
        for r in 1 2 3; do
            WM_CUDA_TIMING=1 /usr/bin/time -f "%e s %M KB" -o "$out/cli_time" $B/warpmatch align \
                --mode global --pairs $cg --backend $be $D/reads_a.fa $D/reads_b.fa \
                >"$out/cli_$be$cg.out" 2>"$out/cli_err"
            log "cli align --pairs $cg --backend $be run $r: rc=$? $(cat "$out/cli_time") $(md5sum <"$out/cli_$be$cg.out" | cut -c1-8); $(grep '^align:' "$out/cli_err")"
        done
    done
done
rm -f "$out"/cli_*.out
