#!/usr/bin/env bash
# gpu_long.sh -- issue 18's single long pairs on the lent GPU (the striped
# bit-vector kernel of src/align/global_cuda.cu), tests first.
#   bash bench/gpu_long.sh test|bench|all|split|meet|shape [CARRY]
# Builds with CUDA (sm_90) into /tmp/build-long (kept on a warm machine).
# test: test_global_diff (its part 6 runs 20,000 and 100,000 a side on CUDA,
# with and without CIGARs, at max_distance d - 1 and d), test_gpu_recover,
# test_api_align, test_global.sh, test_align.sh; test_global_diff again from
# a build whose ring has RING [4] slots (WM_GBV_RING_GROUPS), so the ring
# wraps and fills and the waiting on both sides runs; compute-sanitizer
# memcheck on 3,000 and 10,000 a side with and without CIGARs. SKIP_TESTS=1:
# only the ring's test and memcheck.
# bench: bench_global grid (m = n = 1,000 .. 10,000, random and ~5% pairs)
# and long (real100k, rand100k, real1M; LONG_INPUTS) on cuda, bitvector with
# and without CIGARs (and this tree's CIGARs again with --ckpts 2: a second
# GPU pass for the checkpoints), beside edlib on one core, and the tree before
# (CARRY/prev-src.tar.gz, built beside) on the same inputs; ncu's kernel
# times of the 10,000 pair; the CLI on the 10 kb and 1 Mb pairs (cuda, cpu
# and auto, with --explain-backend).
# split: bench_global long (real100k, rand100k, real1M) and grid (10,000)
# on cuda, bitvector with and without CIGARs, each CIGAR row followed by one
# more call's split (wm_stats_t), then ncu's times and instructions of
# real1M's passes; each with the checkpoints the distance pass keeps
# (--ckpts 0) and from a second, banded pass (--ckpts 2).
# meet: one pair's distance from both ends (run_meet): the tests (and
# test_global_diff from the ring's build), memcheck and racecheck on 3,000
# and 10,000 a side, then grid (1,000 .. 10,000) and long on cuda without
# CIGARs, from both ends (this tree on the stair and cut at n / 2) and in
# one run (--meet-min never), this tree and the tree before
# (CARRY/prev-src.tar.gz, when there) by turns, ncu's kernel times of the
# 10,000 pair each way; the CLI on the 10 kb pair. SKIP_BENCH=1: the tests only;
# MEET_TESTS: which tests; SKIP_SAN=1: no ring build, no sanitizers.
# shape: one pair's kernel time by m and n, and ncu's source counters of
# one 10 kb half (BENCHMARKS.md 33).
# Logs in $OUT: long.log (steps), build.log, tests.log, bench_*.txt.
if ls "${2:-.gpu}"/debs/edlib/*.deb >/dev/null 2>&1; then
    eval "$(bash bench/peers/unpack_debs.sh "${2:-.gpu}"/debs/edlib /tmp/edlib-root)"
fi
source bench/gpu_common.sh long /tmp/build-long "$@"
D=/dev/shm/wm-long
P=/tmp/build-long-prev
R=/tmp/build-long-ring
all=$(nproc)
if [ "$mode" = split ]; then
    gpu_build bench_global gen_pairs
    CARRY=$carry READS=2000 READS1K=100 bash bench/prep_global.sh $B $D >>"$out/long.log" 2>&1
    G="$B/bench/bench_global"
    # the library's checkpoints (kept by the distance pass), then a second pass (--ckpts 2)
    for ck in 0 2; do
        $G long -d $D --backend cuda --inputs real100k,rand100k,real1M --only bv,bv+cigar --max-s 5 \
            --budget-s 10 --ckpts $ck >"$out/split_long_ck$ck.txt" 2>&1
        log "long, cuda, --ckpts $ck, with splits: rc=$?"
        $G grid -d $D --backend cuda --sizes 10000 --only bv,bv+cigar --ckpts $ck \
            >"$out/split_grid_ck$ck.txt" 2>&1
        log "grid 10000, cuda, --ckpts $ck, with splits: rc=$?"
        ncu --clock-control none --kernel-name regex:'k_global_bv|k_gather' --launch-count 4 \
            --metrics gpu__time_duration.sum,smsp__inst_executed.sum $G long -d $D --backend cuda \
            --inputs real1M --only bv+cigar --reps 1 --min-s 0 --max-s 1 --ckpts $ck \
            >"$out/ncu_real1M_ck$ck.txt" 2>&1
        log "ncu, real1M's passes, --ckpts $ck: $(grep -E 'k_global_bv<|k_gather|duration|inst_executed' "$out/ncu_real1M_ck$ck.txt" | awk '{print $1, $NF}' | tr '\n' ' ')"
    done
    exit 0
fi
if [ "$mode" = shape ]; then
    # where one pair's kernel time goes: single runs (ncu's kernel times) at
    # m = 10,000 against n = 2,500 .. 20,000 and at n = 10,000 against m =
    # 2,500 .. 40,000 (a ~5% copy, cut or padded to n), then from both ends;
    # then ncu's source counters (--set full) on one half of the 10 kb pair:
    # prof_sass.csv (per SASS instruction: executions, stall samples)
    gpu_build bench_global
    S=/dev/shm/wm-shape
    mkdir -p $S
    python3 - "$S" <<'PY'
import random, sys
random.seed(7)
d = sys.argv[1]
def seq(n): return ''.join(random.choice('ACGT') for _ in range(n))
def mut(s, r):
    out = []
    for c in s:
        x = random.random()
        if x < r / 3: continue
        elif x < 2 * r / 3: out.append(random.choice('ACGT'))
        elif x < r: out.append(c); out.append(random.choice('ACGT'))
        else: out.append(c)
    return ''.join(out)
shapes = {1: (10000, 2500), 2: (10000, 5000), 3: (10000, 10000), 4: (10000, 20000),
          5: (2500, 10000), 6: (5000, 10000), 7: (20000, 10000), 8: (40000, 10000)}
for k, (m, n) in shapes.items():
    a = seq(m); b = mut(a, 0.05)[:n]
    b = b + seq(n - len(b))
    open('%s/rand%d_a.seq' % (d, k), 'w').write(a)
    open('%s/rand%d_b.seq' % (d, k), 'w').write(b)
PY
    G="$B/bench/bench_global"
    for mm in 18446744073709551615 0; do
        ncu --clock-control none --kernel-name regex:'k_global_bv|k_meet' --metrics gpu__time_duration.sum \
            $G grid -d $S --backend cuda --sizes 1,2,3,4,5,6,7,8 --inputs rand --only bv --reps 1 --min-s 0 \
            --meet-min $mm >"$out/ncu_shape_$mm.txt" 2>&1
        log "shape, --meet-min $mm (m x n: 10k x 2.5k, 5k, 10k, 20k; 2.5k, 5k, 20k, 40k x 10k): $(grep -E 'gpu__time_duration' "$out/ncu_shape_$mm.txt" | awk '{print $(NF-1) $NF}' | tr '\n' ' ')"
    done
    ncu --set full --import-source yes --kernel-name regex:k_global_bv --launch-skip 2 --launch-count 1 \
        -f -o /tmp/wm-shape-prof $G grid -d $S --backend cuda --sizes 3 --inputs rand --only bv --reps 1 \
        --min-s 0 >"$out/ncu_prof.log" 2>&1
    ncu -i /tmp/wm-shape-prof.ncu-rep --page source --csv --print-source sass >"$out/prof_sass.csv" 2>&1
    log "source counters: rc=$? $(wc -l <"$out/prof_sass.csv") lines in prof_sass.csv"
    exit 0
fi
if [ "$mode" = meet ]; then
    # the tree before (CARRY/prev-src.tar.gz), timed by turns beside this
    # one; and the ring's test build
    V=$P
    [ -f "$carry/prev-src.tar.gz" ] || V=
    [ -n "$V" ] && (rm -rf /tmp/prev-src && mkdir -p /tmp/prev-src &&
        tar -xzf "$carry/prev-src.tar.gz" -C /tmp/prev-src &&
        cmake -S /tmp/prev-src -B $V -DCMAKE_BUILD_TYPE=Release -DWARPMATCH_MPI=OFF \
            -DWARPMATCH_BENCH=ON -DCMAKE_CUDA_ARCHITECTURES=90-real "${extra[@]}" &&
        cmake --build $V -j"$all" --target bench_global) >"$out/build_prev.log" 2>&1 &
    [ -z "${SKIP_SAN:-}" ] && (cmake -S . -B $R -DCMAKE_BUILD_TYPE=Release -DWARPMATCH_MPI=OFF \
        -DWARPMATCH_BENCH=OFF -DCMAKE_CUDA_ARCHITECTURES=90-real \
        -DCMAKE_CUDA_FLAGS="-DWM_GBV_RING_GROUPS=${RING:-4}" "${extra[@]}" &&
        cmake --build $R -j"$all" --target test_global_diff) >"$out/build_ring.log" 2>&1 &
    gpu_build warpmatch_cli test_global_diff test_gpu_recover test_api_align bench_global gen_pairs
    CARRY=$carry READS=2000 READS1K=100 bash bench/prep_global.sh $B $D >>"$out/long.log" 2>&1
    G="$B/bench/bench_global"
    # MEET_TESTS: the tests to run [all five]; SKIP_SAN=1: no sanitizers
    run_tests ${MEET_TESTS:-test_global_diff test_gpu_recover test_api_align cli:test_global cli:test_align}
    wait
    if [ -z "${SKIP_SAN:-}" ]; then
        t0=$(date +%s)
        timeout 300 $R/tests/test_global_diff >>"$out/tests.log" 2>&1
        log "test_global_diff, a ring of ${RING:-4} slots: rc=$? in $(($(date +%s) - t0)) s: $(tail -1 "$out/tests.log")"
        for tool in memcheck racecheck; do
            sanitize $tool $G grid -d $D --backend cuda --sizes 3000,10000 --inputs rand,mut --only bv \
                --reps 1 --min-s 0
        done
    fi
    [ -n "${SKIP_BENCH:-}" ] && exit 0
    never=18446744073709551615
    # rows: this tree from both ends (on the stair where it fits), this tree
    # cut at n / 2 (--meet-cut), the tree before; each also in one run
    runs="this:0 cut:0 prev:0 this:$never prev:$never"
    [ -n "$V" ] || runs="this:0 cut:0 this:$never"
    bin() { case $1 in prev) echo "$V/bench/bench_global" ;; *) echo "$B/bench/bench_global" ;; esac; }
    opt() { [ "$1" = cut ] && echo --meet-cut; }
    for r in 1 2; do
        for x in $runs; do
            tag=${x%%:*} mm=${x#*:}
            $(bin $tag) grid -d $D --backend cuda --sizes 1000,2000,3000,5000,10000 --only bv \
                --meet-min $mm $(opt $tag) >"$out/bench_grid_${tag}_meet${mm}_$r.txt" 2>&1
            log "grid, cuda, $tag, --meet-min $mm, run $r: rc=$? $(grep -hE '^(rand|mut) +10000 ' "$out/bench_grid_${tag}_meet${mm}_$r.txt" | awk '{print $1, $9}' | tr '\n' ' ')"
        done
    done
    for x in $runs; do
        tag=${x%%:*} mm=${x#*:}
        $(bin $tag) long -d $D --backend cuda --inputs "${LONG_INPUTS:-real100k,rand100k,real1M}" \
            --only bv --max-s 5 --budget-s 10 --meet-min $mm $(opt $tag) \
            >"$out/bench_long_${tag}_meet$mm.txt" 2>&1
        log "long, cuda, $tag, --meet-min $mm: rc=$? $(grep -hE '^(rand|real)' "$out/bench_long_${tag}_meet$mm.txt" | awk '{print $1, $9}' | tr '\n' ' ')"
        ncu --clock-control none --kernel-name regex:'k_global_bv|k_meet|k_back|k_codes' \
            --metrics gpu__time_duration.sum $(bin $tag) grid -d $D --backend cuda --sizes 10000 \
            --inputs mut --only bv --reps 1 --min-s 0 --meet-min $mm $(opt $tag) \
            >"$out/ncu_10000_${tag}_meet$mm.txt" 2>&1
        log "ncu, m = n = 10,000 (mut), $tag, --meet-min $mm: $(grep -E '^  [a-z_]+|gpu__time_duration' "$out/ncu_10000_${tag}_meet$mm.txt" | awk '/gpu__time/ {print $(NF-1) $NF; next} {print $1}' | tr '\n' ' ')"
    done
    # end to end: the CLI on the 10 kb pair (~5%), this tree, the process's wall clock
    for be in cuda cpu auto; do
        ts=""
        for r in 1 2 3; do
            t0=$(date +%s.%N)
            $B/warpmatch align --mode global --alphabet dna --backend $be \
                $D/rand10000_a.seq $D/rand10000_mut.seq >"$out/cli_10k_$be.txt" 2>&1
            rc=$?
            ts="$ts $(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.3f", a - b }')"
        done
        log "cli align --mode global 10 kb (mut), --backend $be: rc=$rc s:$ts; $(head -c 200 "$out/cli_10k_$be.txt" | tr '\n' ' ')"
    done
    exit 0
fi
if [ "$mode" != test ] && [ -f "$carry/prev-src.tar.gz" ]; then
    (rm -rf /tmp/prev-src && mkdir -p /tmp/prev-src && tar -xzf "$carry/prev-src.tar.gz" -C /tmp/prev-src &&
        cmake -S /tmp/prev-src -B $P -DCMAKE_BUILD_TYPE=Release -DWARPMATCH_MPI=OFF \
            -DWARPMATCH_BENCH=ON -DCMAKE_CUDA_ARCHITECTURES=90-real "${extra[@]}" &&
        cmake --build $P -j"$all" --target bench_global) >"$out/build_prev.log" 2>&1 &
fi
if [ "$mode" != bench ]; then
    (cmake -S . -B $R -DCMAKE_BUILD_TYPE=Release -DWARPMATCH_MPI=OFF -DWARPMATCH_BENCH=OFF \
        -DCMAKE_CUDA_ARCHITECTURES=90-real -DCMAKE_CUDA_FLAGS="-DWM_GBV_RING_GROUPS=${RING:-4}" \
        "${extra[@]}" && cmake --build $R -j"$all" --target test_global_diff) >"$out/build_ring.log" 2>&1 &
fi
gpu_build warpmatch_cli test_global_diff test_gpu_recover test_api_align bench_global gen_pairs
t0=$(date +%s)
CARRY=$carry READS=2000 READS1K=100 bash bench/prep_global.sh $B $D >>"$out/long.log" 2>&1
log "inputs: rc=$? in $(($(date +%s) - t0)) s"
G="$B/bench/bench_global"

if [ "$mode" != bench ]; then
    [ -z "${SKIP_TESTS:-}" ] &&
        run_tests test_global_diff test_gpu_recover test_api_align cli:test_global cli:test_align
    wait
    t0=$(date +%s)
    timeout 300 $R/tests/test_global_diff >>"$out/tests.log" 2>&1
    log "test_global_diff, a ring of ${RING:-4} slots: rc=$? in $(($(date +%s) - t0)) s: $(tail -1 "$out/tests.log")"
    sanitize memcheck $G grid -d $D --backend cuda --sizes 3000,10000 --inputs rand,mut \
        --only bv,bv+cigar --reps 1 --min-s 0
fi
[ "$mode" = test ] && exit 0

wait
for L in 10000 3000; do
    ncu --clock-control none --kernel-name regex:k_global_bv --metrics gpu__time_duration.sum \
        $G grid -d $D --backend cuda --sizes $L --inputs rand,mut --only bv --reps 1 --min-s 0 \
        >"$out/ncu_$L.txt" 2>&1
    log "ncu, k_global_bv, m = n = $L (rand, mut; untimed + timed runs): $(grep -E 'gpu__time_duration' "$out/ncu_$L.txt" | awk '{print $NF}' | tr '\n' ' ')"
done
for tree in now prev; do
    T=$B
    [ $tree = prev ] && T=$P
    [ -x $T/bench/bench_global ] || { log "$tree: no bench_global"; continue; }
    $T/bench/bench_global grid -d $D --backend cuda --sizes 1000,2000,3000,5000,10000 \
        --only bv,bv+cigar >"$out/bench_grid_$tree.txt" 2>&1
    log "grid, cuda, $tree: rc=$?"
    $T/bench/bench_global long -d $D --backend cuda --inputs "${LONG_INPUTS:-real100k,rand100k,real1M}" \
        --only bv,bv+cigar --max-s 5 --budget-s 10 >"$out/bench_long_$tree.txt" 2>&1
    log "long, cuda, $tree: rc=$?"
done
# this tree with a second GPU pass for every CIGAR's checkpoints (nothing kept)
$G grid -d $D --backend cuda --sizes 1000,2000,3000,5000,10000 --only bv+cigar --ckpts 2 \
    >"$out/bench_grid_now_ck2.txt" 2>&1
log "grid, cuda, now, --ckpts 2: rc=$?"
$G long -d $D --backend cuda --inputs "${LONG_INPUTS:-real100k,rand100k,real1M}" --only bv+cigar \
    --max-s 5 --budget-s 10 --ckpts 2 >"$out/bench_long_now_ck2.txt" 2>&1
log "long, cuda, now, --ckpts 2: rc=$?"
$G grid -d $D --backend cpu -j 1,$all --sizes 10000 --only bv,bv+cigar,edlib,edlib-path \
    >"$out/bench_grid_cpu.txt" 2>&1
log "grid 10000, cpu 1 and $all, edlib 1 core: rc=$?"
for p in rand10000 real1M; do
    a=$D/${p}_a.seq b=$D/${p}_b.seq
    [ $p = rand10000 ] && b=$D/rand10000_mut.seq
    for be in cuda cpu auto; do
        for r in 1 2 3; do
            /usr/bin/time -f "%e s %M KB" -o "$out/cli_time" $B/warpmatch align --mode global \
                --cigar --backend $be --explain-backend $a $b >"$out/cli.out" 2>"$out/cli_err"
            log "cli align --mode global --cigar --backend $be, $p, run $r: rc=$? $(cat "$out/cli_time") $(md5sum <"$out/cli.out" | cut -c1-8) $(grep -m1 -i 'chose\|backend' "$out/cli_err")"
        done
    done
done
rm -f "$out/cli.out"
