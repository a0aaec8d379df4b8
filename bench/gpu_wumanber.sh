#!/usr/bin/env bash
# gpu_wumanber.sh -- issue 23, item 1 on the lent GPU: Wu-Manber as paper 003
# ran it (--algo wumanber-paper) on the device, tests first.
#   bash bench/gpu_wumanber.sh test|bench|all [CARRY]
# Builds with CUDA (sm_90) into /tmp/build-wu. test: test_multi_diff (every set
# algorithm, wumanber-paper included, on the CUDA context too), test_api_sets,
# CPU and CUDA listings of the same sets compared byte for byte (equal and mixed
# lengths, DNA and bytes, -i), compute-sanitizer (memcheck, racecheck) on the
# kernel. bench: paper 003's experiment (1 GiB of chrX from CARRY, 1,000 /
# 8,000 / 16,000 8-mers cut from it; bench/run_multi.sh makes the data) and
# 10,000 byte signatures over 1 GiB of mixed text, with bench_gpu_multi:
# wumanber-paper beside ac (the paper's other algorithm) and the default
# (qgram for DNA, pfac for bytes), text resident, count and list; then the
# CLI end to end on the same file (counts, cpu and cuda).
# Logs in $OUT: wu.log (steps), build.log, tests.log, multi_gpu.log.
source bench/gpu_common.sh wu /tmp/build-wu "$@"
gpu_build warpmatch_cli test_multi_diff test_api_sets bench_gpu_multi gen_text gen_patterns
W=$B/warpmatch

if [ "$mode" != bench ]; then
    for t in test_multi_diff test_api_sets; do
        t0=$(date +%s)
        $B/tests/$t >>"$out/tests.log" 2>&1
        log "$t rc=$? in $(($(date +%s) - t0)) s: $(tail -1 "$out/tests.log")"
    done
    # CPU and CUDA listings of the same sets, byte for byte
    zcat "$carry/human_GRCh37_chrX_first70Mb.fa.gz" | head -c 30000000 >/tmp/wu_chrx.fa
    grep -v '>' /tmp/wu_chrx.fa | tr -d '\n' | fold -w 8 | awk 'NR % 997 == 0' | grep -x '[ACGT]*' |
        head -3000 >/tmp/wu_k8.txt
    grep -v '>' /tmp/wu_chrx.fa | tr -d '\n' | fold -w 23 | awk 'NR % 991 == 0 { print substr($0, 1, 6 + NR % 18) }' |
        grep -x '[ACGT]*' | head -2000 >/tmp/wu_mixed.txt
    cp "$carry/mix/text/bible.txt" /tmp/wu_text.txt # bench/run_multi.sh --stage put it there
    awk 'NR % 53 == 0 && length($0) >= 5 { print substr($0, 1, 5 + NR % 30) }' /tmp/wu_text.txt | head -5000 >/tmp/wu_sig.txt
    for c in "-f /tmp/wu_k8.txt|/tmp/wu_chrx.fa" "-f /tmp/wu_mixed.txt|/tmp/wu_chrx.fa" \
             "--revcomp -f /tmp/wu_mixed.txt|/tmp/wu_chrx.fa" "-f /tmp/wu_sig.txt|/tmp/wu_text.txt" \
             "-i -f /tmp/wu_sig.txt|/tmp/wu_text.txt"; do
        for fl in "" -c --count-per-pattern; do
            same_search "--algo wumanber-paper $fl ${c%|*}" "${c#*|}"
        done
    done
    log "cpu vs cuda listings: $n_same same, $n_diff different"
    for tool in memcheck racecheck; do
        for fl in "" -c; do
            compute-sanitizer --tool $tool --error-exitcode 9 $W search --algo wumanber-paper $fl \
                --backend cuda -f /tmp/wu_mixed.txt /tmp/wu_chrx.fa >/dev/null 2>>"$out/tests.log"
            log "compute-sanitizer $tool $fl: rc=$? $(grep 'ERROR SUMMARY' "$out/tests.log" | tail -1)"
            compute-sanitizer --tool $tool --error-exitcode 9 $W search --algo wumanber-paper $fl \
                --backend cuda -i -f /tmp/wu_sig.txt /tmp/wu_text.txt >/dev/null 2>>"$out/tests.log"
            log "compute-sanitizer $tool $fl (bytes, -i): rc=$? $(grep 'ERROR SUMMARY' "$out/tests.log" | tail -1)"
        done
    done
fi
[ "$mode" = test ] && exit 0

WK=/dev/shm/wu-bench
SIG_SETS=10000 multi_data $WK dna,sig
g=$B/bench/bench_gpu_multi
nb=$(stat -c %s "$WK/chrX_1G.txt")
for n in 1000 8000 16000; do
    for a in wumanber-paper ac auto; do
        chk=""
        [ "$a" = wumanber-paper ] && chk=--check
        log "dna 8-mers n=$n algo=$a"
        $g --text "$WK/chrX_1G.txt" --patterns "$WK/dna_k8_${n}_1G.txt" --bytes "$nb" --algo $a $chk 2>&1 |
            tee -a "$out/multi_gpu.log" | tail -4
    done
done
nm=$(stat -c %s "$WK/mixed_1G.txt")
for a in wumanber-paper pfac; do
    log "signatures n=10000 algo=$a"
    $g --text "$WK/mixed_1G.txt" --patterns "$WK/sig_10000_1G.txt" --bytes "$nm" --algo $a \
        $([ "$a" = wumanber-paper ] && echo --check) 2>&1 | tee -a "$out/multi_gpu.log" | tail -4
done
# end to end: the whole process counting (-c; a listing of 42-663 M rows
# times the printing, BENCHMARKS 4a), the 1 GiB file in the page cache,
# CPU (all cores) and CUDA, 2 runs each
cat "$WK/chrX_1G.txt" >/dev/null
for n in 1000 16000; do
    for a in wumanber-paper auto; do
        for be in cpu cuda; do
            for r in 1 2; do
                /usr/bin/time -f "%e s" -o /tmp/wu_t timeout 120 $W search -c --algo $a --backend $be \
                    -f "$WK/dna_k8_${n}_1G.txt" "$WK/chrX_1G.txt" >/tmp/wu_e2e.out 2>/dev/null
                log "e2e n=$n --algo $a --backend $be run $r: rc=$? $(cat /tmp/wu_t) $(cut -f2 /tmp/wu_e2e.out)"
            done
        done
    done
done
rm -f /tmp/wu_e2e.out
