#!/usr/bin/env bash
# gpu_cover.sh -- the CPU covering the GPU's start-up (cli/search_cover.c,
# issue 16) on the lent GPU: its tests, then `search` end to end with
# --backend cpu, cuda and auto side by side.
#   bash bench/gpu_cover.sh [test|bench|all|memcheck] [CARRY]
# test: builds the tool and the tests it touches (Release, sm_90) in
#   /tmp/build-cover and runs test_api_batches (the parts on the CUDA
#   context), test_api_search, and the CLI's test_cover.sh (every output
#   with the CUDA context taking the rest), test_choose.sh, test_basic.sh,
#   test_multi.sh, test_best_locus.sh and test_consistency.sh;
#   compute-sanitizer memcheck of a covered search of a plain file (the GPU's
#   part staged by pread). memcheck: that check alone.
# bench: from the carried chrX (CARRY, default .gpu): 1 GiB of FASTA (16
#   records), the same sequence as one plain line, 8 GiB of it in /dev/shm,
#   each in the page cache; `search -c` of a 32-mer at k = 0..3 and a set of
#   16,000 8-mers (-c -f), with --backend cpu, cuda and auto, REPS runs each
#   (default 3, interleaved), wall clock of the whole process, median; auto's
#   --explain-backend line and WM_CUDA_TIMING's cover line (bytes the CPU
#   took, and when) once a cell. Floors in the same run: one thread's read
#   (dd), the pinned host-to-device copy (bench_h2d), `warpmatch info`'s
#   start-up. Logs in $OUT (cover.log, cover_runs.log, tests.log).
source bench/gpu_common.sh cover /tmp/build-cover "$@"
reps=${REPS:-3}

if [ "$mode" != bench ]; then
    [ "$mode" = memcheck ] && gpu_build warpmatch_cli
    [ "$mode" = memcheck ] || gpu_build warpmatch_cli test_api_batches test_api_search test_textfile bench_h2d
    [ "$mode" = memcheck ] || run_tests test_api_batches test_api_search test_textfile cli:test_cover cli:test_choose \
        cli:test_basic cli:test_multi cli:test_best_locus cli:test_consistency
    # 2 MB of chrX as one plain line: the GPU's staging reads it with pread
    zcat "$carry/human_GRCh37_chrX_first70Mb.fa.gz" | grep -v '^>' | tr -d '\n' |
        head -c 2000000 >/tmp/cv.seq
    pat=$(head -c 1500014 /tmp/cv.seq | tail -c 14) # occurs at least once
    WM_TEST_COVER=3,50000 compute-sanitizer --tool memcheck --error-exitcode 9 \
        "$B/warpmatch" search --backend cuda -c -k 2 "$pat" /tmp/cv.seq >"$out/memcheck.log" 2>&1
    log "memcheck of a covered search (3 parts on the CPU, the rest on the GPU, staged by pread): rc=$? $(grep -c 'ERROR SUMMARY: 0' "$out/memcheck.log") clean summary; $(tail -1 "$out/memcheck.log")"
fi
[ "$mode" = test ] || [ "$mode" = memcheck ] && exit 0
[ -x "$B/warpmatch" ] || gpu_build warpmatch_cli bench_h2d

source bench/gpu_chrx_inputs.sh
head -c 31000000 /tmp/chrX.one | tail -c 1000000 |
    awk 'BEGIN { srand(42) } { s = s $0 } END { n = 0; while (n < 16000) {
         k = substr(s, int(rand() * (length(s) - 8)) + 1, 8); if (k ~ /^[ACGT]+$/) { print k; n++ } } }' \
    >/tmp/kmers16k.txt
ms() {
    local s
    s=$(date +%s%N)
    "$@" >/tmp/cv.out 2>/tmp/cv.err
    local rc=$?
    echo "$((($(date +%s%N) - s) / 1000000)) rc=$rc $(head -c 60 /tmp/cv.out | tr '\n\t' '  ')"
}
log_floors
for f in $fa $seq $big; do
    cat $f >/dev/null
    log "$f: $(stat -c %s $f) bytes; one thread's read (dd bs=16M): $(ms dd if=$f of=/dev/null bs=16M | cut -d' ' -f1) ms"
    for work in "-k 0 $pat" "-k 1 $pat" "-k 2 $pat" "-k 3 $pat" "-f /tmp/kmers16k.txt"; do
        [ "$f" = "$big" ] && [ "${work:0:2}" = "-f" ] && continue # the set at 8 GiB: not in the grid
        rm -f /tmp/cv.cpu /tmp/cv.cuda /tmp/cv.auto
        for r in $(seq "$reps"); do
            for be in cpu cuda auto; do
                line=$(WM_CUDA_TIMING=1 ms "$B/warpmatch" search -c --backend $be $work $f)
                echo "${line%% *}" >>/tmp/cv.$be
                echo "  ${work:0:4} $be: $line | $(grep -hE '^(cover|context|cuda search|search):' /tmp/cv.err | tr '\n' '|')" >>"$out/cover_runs.log"
            done
        done
        "$B/warpmatch" search -c --explain-backend $work $f 2>&1 >/dev/null | head -1 >/tmp/cv.why
        cover=$(WM_CUDA_TIMING=1 "$B/warpmatch" search -c $work $f 2>&1 >/dev/null | grep -h '^cover:' | head -1)
        log "${work:0:4}: cpu $(med </tmp/cv.cpu) ms ($(tr '\n' ' ' </tmp/cv.cpu)) | cuda $(med </tmp/cv.cuda) ms ($(tr '\n' ' ' </tmp/cv.cuda)) | auto $(med </tmp/cv.auto) ms ($(tr '\n' ' ' </tmp/cv.auto)) | count $(cut -d' ' -f3- <<<"$line")"
        log "    $(cat /tmp/cv.why) | $cover"
    done
done
