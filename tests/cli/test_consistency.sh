#!/usr/bin/env bash
# test_consistency.sh -- the same bytes out for any thread count, any chunk
# size and any backend, on the bundled real PacBio FASTQ sample with -k 2.
. "$(dirname "$0")/lib.sh" "$@"
cd "$DATA" || exit 2
FQ=pacbio_sample.fastq.gz
PAT=GACGGCGGACGC            # 12 bases cut from the sample's second read

# compare NAME ARGS...: the output of ARGS equals the reference $TMP/ref.
compare() {
    local name=$1; shift
    run "$@"
    check_rc "$name" "$REF_RC"
    check_out "$name" "$TMP/ref"
}

for mode in "-k 2 --revcomp" "-k 2 --hamming --revcomp" "-k 2 -c --by-record" "-k 2 --json"; do
    # shellcheck disable=SC2086
    run search --backend cpu --threads 1 $mode "$PAT" "$FQ"
    cp "$OUT" "$TMP/ref"; REF_RC=$RC
    check_rc "reference ($mode)" 0
    n=$(wc -l <"$TMP/ref")
    [ "$n" -ge 20 ] && pass || fail "reference ($mode): only $n lines"
    # shellcheck disable=SC2086
    {
        compare "--threads 2 ($mode)" search --backend cpu --threads 2 $mode "$PAT" "$FQ"
        compare "--chunk-bytes 7 ($mode)" search --backend cpu --threads 2 --chunk-bytes 7 $mode "$PAT" "$FQ"
        compare "--threads 1 --chunk-bytes 7 ($mode)" search --backend cpu --threads 1 --chunk-bytes 7 $mode "$PAT" "$FQ"
        compare "--threads 3 --chunk-bytes 1000 ($mode)" search --backend cpu --threads 3 --chunk-bytes 1000 $mode "$PAT" "$FQ"
        compare "--threads 0 ($mode)" search --backend cpu $mode "$PAT" "$FQ"
    }
    if have_gpu; then
        # shellcheck disable=SC2086
        {
            compare "cuda ($mode)" search --backend cuda $mode "$PAT" "$FQ"
            compare "cuda --chunk-bytes 4096 ($mode)" search --backend cuda --chunk-bytes 4096 $mode "$PAT" "$FQ"
        }
        CUDA_DONE=1
    fi
done

# Counting without listing (wm_count) agrees with the listing.
run search --backend cpu -k 2 "$PAT" "$FQ"
n_list=$(wc -l <"$OUT")
run search --backend cpu -k 2 -c --chunk-bytes 7 --threads 2 "$PAT" "$FQ"
check_out_text "-c agrees with the listing" "$FQ${TAB}$n_list"

if [ "${CUDA_DONE:-0}" = 1 ]; then
    echo "cuda: compared with cpu"
else
    echo "cuda: skipped (no GPU)"
fi
finish
