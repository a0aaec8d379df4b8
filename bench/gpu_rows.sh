#!/usr/bin/env bash
# gpu_rows.sh -- long listings end to end on the lent GPU host (16 cores):
# search's rows formatted in batches on threads (cli/rows.c) beside the tree
# before them, on both backends, and ripgrep listing the same set.
#   bash bench/gpu_rows.sh test|bench|all [CARRY]
# CARRY (.gpu-rows) holds human_GRCh37_chrX_first70Mb.fa.gz, the -dev .debs
# of gpu_zlib.sh, prev-src.tar.gz (`git archive` of the tree before, whose
# warpmatch and bench_cpu_multi are built beside this one), and optionally
# ripgrep's .deb and hs/ (libhyperscan5 and libhyperscan-dev .debs).
# test: test_cli_rows, tests/cli/test_rows.sh, test_multi_diff,
# test_api_sets, test_api_batches, the sets within k (test_setk_planes,
# test_setk_gpu_finish, test_setk_diff, test_set_k_backends.sh) with the CUDA
# build, then listings compared byte for byte: rows in batches on cuda
# against rows one at a time (--line-buffered) on cpu, and this tree against
# the one before; compute-sanitizer memcheck on a listing and on 200 guides.
# bench: 1,000 8-mers (paper 003's set, bench/run_multi.sh) listed over 256
# MiB and 1 GiB of chrX (and, with ROWS_MORE=1, as BED rows and a sparse
# single pattern over 1 GiB); each
# --backend cpu, cuda and auto, this tree and the one before, 3 runs, wall
# and peak memory (/usr/bin/time), the rows written to a file in /dev/shm;
# rg -o -b -F on the same set and text (RG=1). The library's listing beside
# Hyperscan: bench/run_multi.sh (1,000 and 16,000 8-mers over 1 GiB, qgram,
# count and search, 3 runs) on this tree with Hyperscan, and on the tree
# before (MULTI_PREV=1; MULTI_SETS ["1000 16000"], MULTI_MODES
# [count,search,batches]: batches is wm_search_batches, which the tree before
# lacks). GUIDES=1: CARRY/g10000.fa (10,000 guides + NGG, bench/gpu_setk.sh's
# generator, seed 5) against the whole chrX sample, Hamming k = 4,
# --exact-suffix 3, both strands, as `each` times a listing, then one run a
# tree with WM_CUDA_TIMING=1 (the GPU's parts), beside the floor (chrX read
# and one exact scan) and bench_setk_finish (the host's half alone, 13 M
# hits); the test mode compares its rows on 30 MB of chrX. ONLY_GUIDES=1: that alone (no 8-mers, no
# run_multi). MULTI_APART=1: instead of run_multi, bench_cpu_multi's search
# and batches modes each in a process of its own, twice in turn, on
# MULTI_SETS [16000]. Then bench_gpu_multi's DNA rows of this tree
# (KERNELS=1).
# Logs in $OUT: rows.log (steps), build.log, build_prev.log, tests.log.
source bench/gpu_common.sh rows /tmp/build-rows "$@"
if [ -d "$carry/hs" ]; then # Hyperscan, for hs_multi
    eval "$(bash bench/peers/unpack_debs.sh "$carry/hs" /tmp/hsprefix 2>>"$out/build.log")"
fi

# the tree before, built beside this one (the tool only)
# (NO_PREV=1: not built, nor run; SKIP_MULTI=1: no run_multi)
P=/tmp/build-prev
[ -n "${NO_PREV:-}" ] || (
    rm -rf /tmp/prev-src && mkdir -p /tmp/prev-src && tar -xzf "$carry/prev-src.tar.gz" -C /tmp/prev-src &&
        cmake -S /tmp/prev-src -B $P -DCMAKE_BUILD_TYPE=Release -DWARPMATCH_MPI=OFF \
            -DWARPMATCH_BENCH=ON -DCMAKE_CUDA_ARCHITECTURES=90-real "${extra[@]}" &&
        cmake --build $P -j"$(nproc)" --target warpmatch_cli bench_cpu_multi gen_text gen_patterns
) >"$out/build_prev.log" 2>&1 &
prev_pid=$!
gpu_build warpmatch_cli test_cli_rows test_multi_diff test_api_sets test_api_batches \
    test_setk_planes test_setk_gpu_finish test_setk_diff bench_setk_finish bench_gpu_multi \
    bench_cpu_multi gen_text gen_patterns
cmake --build $B -j"$(nproc)" --target hs_multi >>"$out/build.log" 2>&1
log "hs_multi rc=$?"
wait $prev_pid
log "previous tree's build rc=$?"
W=$B/warpmatch
WP=$P/warpmatch
[ -x $WP ] || WP=""

if [ "$mode" != bench ]; then
    run_tests test_cli_rows cli:test_rows test_multi_diff test_api_sets test_api_batches \
        test_setk_planes test_setk_gpu_finish test_setk_diff cli:test_set_k_backends
    zcat "$carry/human_GRCh37_chrX_first70Mb.fa.gz" | head -c 30000000 >/tmp/rows_chrx.fa
    grep -v '>' /tmp/rows_chrx.fa | tr -d '\n' | fold -w 8 | awk 'NR % 997 == 0' | grep -x '[ACGT]*' |
        head -1000 >/tmp/rows_k8.txt
    n_ok=0
    n_bad=0
    # one ARGS...: cuda in batches vs cpu one row at a time, and vs the tree before
    one() {
        "$W" search --backend cpu --line-buffered "$@" >/tmp/rows_a.out 2>&1
        "$W" search --backend cuda "$@" >/tmp/rows_b.out 2>&1
        local ok=1
        cmp -s /tmp/rows_a.out /tmp/rows_b.out || ok=0
        if [ -n "$WP" ]; then
            "$WP" search --backend cuda "$@" >/tmp/rows_c.out 2>&1
            cmp -s /tmp/rows_a.out /tmp/rows_c.out || ok=0
        fi
        if [ $ok = 1 ]; then
            n_ok=$((n_ok + 1))
        else
            n_bad=$((n_bad + 1))
        fi
        log "$([ $ok = 1 ] && echo same || echo DIFFERENT): $* ($(wc -l </tmp/rows_a.out) lines)"
    }
    one -f /tmp/rows_k8.txt /tmp/rows_chrx.fa
    one --format bed -f /tmp/rows_k8.txt /tmp/rows_chrx.fa
    one --format json --revcomp -f /tmp/rows_k8.txt /tmp/rows_chrx.fa
    one -k 1 --cigar ACGTACGTAC /tmp/rows_chrx.fa
    one ACGTA /tmp/rows_chrx.fa
    one -k 1 -f /tmp/rows_k8.txt /tmp/rows_chrx.fa
    one --stream --stream-batch 1000003 -f /tmp/rows_k8.txt /tmp/rows_chrx.fa
    [ -f "$carry/g10000.fa" ] &&
        one -k 4 --hamming --revcomp --exact-suffix 3 -f "$carry/g10000.fa" /tmp/rows_chrx.fa
    log "listings: $n_ok the same, $n_bad different"
    compute-sanitizer --tool memcheck --error-exitcode 9 $W search --backend cuda -f /tmp/rows_k8.txt \
        /tmp/rows_chrx.fa >/dev/null 2>>"$out/tests.log"
    log "compute-sanitizer memcheck, a listing: rc=$?"
    if [ -f "$carry/g10000.fa" ]; then # the guides' keys sorted on the GPU
        head -400 "$carry/g10000.fa" >/tmp/rows_g200.fa
        compute-sanitizer --tool memcheck --error-exitcode 9 --log-file "$out/san_guides.log" \
            $W search --backend cuda -k 4 --hamming --revcomp --exact-suffix 3 -f /tmp/rows_g200.fa \
            /tmp/rows_chrx.fa >/tmp/rows_san.out 2>>"$out/tests.log"
        log "compute-sanitizer memcheck, 200 guides: rc=$?"
        $W search --backend cpu -k 4 --hamming --revcomp --exact-suffix 3 -f /tmp/rows_g200.fa \
            /tmp/rows_chrx.fa | cmp -s - /tmp/rows_san.out
        log "its rows against the cpu's: $([ $? = 0 ] && echo same || echo DIFFERENT) ($(wc -l </tmp/rows_san.out) lines)"
    fi
fi
[ "$mode" = test ] && exit 0

# ---- bench ------------------------------------------------------------------------
rg=$(command -v rg || true)
if [ -z "$rg" ] && ls "$carry"/ripgrep_*.deb >/dev/null 2>&1; then
    mkdir -p /tmp/rg && dpkg -x "$(ls "$carry"/ripgrep_*.deb | head -1)" /tmp/rg && rg=/tmp/rg/usr/bin/rg
fi
WK=/dev/shm/rows-bench
mkdir -p $WK
OUTF=/dev/shm/rows.out
if [ -z "${ONLY_GUIDES:-}" ]; then
    DNA_FA="$carry/human_GRCh37_chrX_first70Mb.fa.gz" SIG_SETS=10000 multi_data $WK dna
    T1=$WK/chrX_1G.txt
    SET=$WK/dna_k8_1000_1G.txt
    head -c 268435456 $T1 >$WK/chrX_256M.txt
    cat $T1 $WK/chrX_256M.txt >/dev/null # in the page cache
fi

# timed LABEL TOOL ARGS...: 3 runs, wall seconds and peak KiB, rows to $OUTF
timed() {
    local label=$1 r
    shift
    for r in 1 2 3; do
        /usr/bin/time -f "%e s %M KiB" -o /tmp/rows_t timeout 300 "$@" >$OUTF 2>/tmp/rows_err
        log "e2e $label run $r: rc=$? $(cat /tmp/rows_t) $(wc -l <$OUTF) lines $(head -c 200 /tmp/rows_err)"
    done
    md5sum <$OUTF | cut -c1-12 >/tmp/rows_md5
    log "e2e $label md5 $(cat /tmp/rows_md5)"
    rm -f $OUTF
}

# each LABEL ARGS...: this tree and the tree before, cpu and cuda; auto
each() {
    local label=$1 be
    shift
    for be in cpu cuda; do
        timed "$label, --backend $be" $W search --backend $be "$@"
        [ -n "$WP" ] && timed "$label, --backend $be, the tree before" $WP search --backend $be "$@"
    done
    timed "$label, --backend auto" $W search --explain-backend "$@"
}

[ -n "${ONLY_GUIDES:-}${MULTI_APART:-}" ] || each "1,000 8-mers, 256 MiB" -f $SET $WK/chrX_256M.txt
[ -n "${ONLY_GUIDES:-}${MULTI_APART:-}" ] || each "1,000 8-mers, 1 GiB" -f $SET $T1
if [ -n "${ROWS_MORE:-}" ]; then
    each "1,000 8-mers, 256 MiB, BED" --format bed -f $SET $WK/chrX_256M.txt
    each "ACGTA, 1 GiB" ACGTA $T1
fi
if [ -n "${GUIDES:-}" ] && [ -f "$carry/g10000.fa" ]; then
    zcat "$carry/human_GRCh37_chrX_first70Mb.fa.gz" >$WK/chrX.fa
    G=(-k 4 --hamming --revcomp --exact-suffix 3 -f "$carry/g10000.fa" $WK/chrX.fa)
    for r in 1 2 3; do # the floor: chrX read and one exact scan, the whole process
        /usr/bin/time -f "%e s" -o /tmp/rows_t $W search -c --backend cpu ACGTACGTACGTACGTACGTAGG \
            $WK/chrX.fa >/dev/null
        log "floor (chrX read + one exact 23-mer scan, cpu) run $r: $(cat /tmp/rows_t)"
    done
    each "10,000 guides + NGG, chrX" "${G[@]}"
    for w in $W $WP; do
        WM_CUDA_TIMING=1 $w search --backend cuda "${G[@]}" >/dev/null 2>/tmp/rows_err
        log "guides, $w, the GPU's parts: $(grep -iE 'set within k|context' /tmp/rows_err | head -3 | tr '\n' ' ')"
    done
    log "the host's half alone: $($B/bench/bench_setk_finish 13000000 10000 3 | tr '\n' ' ')"
fi
if [ -n "$rg" ] && [ -n "${RG:-}" ]; then
    log "peer: $($rg --version | head -1)"
    timed "rg -o -b -F -f (1,000 8-mers), 256 MiB" $rg -a -o -b -F -f $SET $WK/chrX_256M.txt
    timed "rg -o -b -F ACGTA, 1 GiB" $rg -a -o -b -F ACGTA $T1
fi

# the library's listing (wm_search, a callback that counts) beside Hyperscan's
[ -n "${ONLY_GUIDES:-}" ] && exit 0
if [ -n "${MULTI_APART:-}" ]; then # search and batches each in processes of their own, in turn
    for n in ${MULTI_SETS:-16000}; do
        for r in 1 2; do
            for m in search batches; do
                log "bench_cpu_multi $n 8-mers, $m alone, round $r: $($B/bench/bench_cpu_multi -t "$(nproc)" \
                    -r 3 --dna --algos qgram --modes $m $WK/dna_k8_${n}_1G.txt $T1 | grep 'mode=' |
                    sed 's/.*mode=//')"
            done
        done
    done
    exit 0
fi
[ -n "${SKIP_MULTI:-}" ] || for tree in new prev; do
    bd=$B peers=hyperscan
    [ $tree = prev ] && { bd=$P peers=""; [ -n "${MULTI_PREV:-}" ] && [ -x $P/bench/bench_cpu_multi ] || continue; }
    log "run_multi, the $tree tree ($bd)"
    WHAT=dna BYTES=1G WORK=$WK PEERS="$peers" ALGOS=qgram MODES=${MULTI_MODES:-count,search,batches} \
        REPEATS=3 MAX_S=30 DNA_SETS="${MULTI_SETS:-1000 16000}" \
        DNA_FA="$carry/human_GRCh37_chrX_first70Mb.fa.gz" \
        bash bench/run_multi.sh $bd "$(nproc)" "$carry" 2>&1 | tee -a "$out/multi_cpu.log" | grep -E "ours|hyper|MISMATCH"
done

[ -n "${KERNELS:-}" ] || exit 0
nb=$(stat -c %s $T1)
for n in 1000 8000 16000; do
    log "dna 8-mers n=$n: bench_gpu_multi"
    $B/bench/bench_gpu_multi --text $T1 --patterns $WK/dna_k8_${n}_1G.txt --bytes "$nb" --algo qgram \
        --check 2>&1 | tee -a "$out/multi_gpu.log" | tail -6
done
