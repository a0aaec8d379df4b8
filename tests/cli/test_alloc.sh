#!/usr/bin/env bash
# test_alloc.sh -- allocation bounded by the input (issue 21: F2 and "allocation
# bounded by the input"): a file that lies about its size in a header costs
# what it really holds plus a few MB, and its error comes at once.
#
# Every lying input below is read under `ulimit -v` set to 200 MB above what
# the same command needs for an honest input of the same kind (measured here
# first), through a file, gzip and a pipe on standard input (where the size
# is unknown, so no size check can save the reader); each run must exit 2
# with one "warpmatch: " line naming the file and what is wrong (never "out of
# memory"), print nothing, and end within 5 s. The inputs:
#   1. .npy shapes far larger than the data (F2: (10^8, 1) and (10^9, 1) as
#      dtw QUERY rows; one row of 10^9; Fortran order; one column of two;
#      a 1-D SERIES of 10^12), a .npy header length of 4 GiB;
#   2. gzip size trailers (ISIZE) claiming 4 GiB for 4 MB of data: a raw f64
#      series, and a search input as a file and through a pipe;
#   3. a .npz (zip) entry claiming 4 GiB: .npz is read from its directory at
#      the end, which this cut archive lacks, so it is refused at once.
# A sanitizer build (ASan reserves terabytes of address space) runs the same
# checks without the limit, ASan's own RSS limit standing in for it.
. "$(dirname "$0")/lib.sh" "$@"
export LC_ALL=C
cd "$TMP" || exit 2

# ---- inputs ---------------------------------------------------------------------------

# npy DESCR FORTRAN SHAPE VALUES...: a .npy (version 1.0) on stdout, as
# test_dtw.sh writes it; FORTRAN is True or False. Values as <f8.
npy() {
    local d=$1 f=$2 sh=$3 h tot pad
    shift 3
    h="{'descr': '$d', 'fortran_order': $f, 'shape': $sh, }"
    tot=$(((10 + ${#h} + 1 + 63) / 64 * 64))
    pad=$((tot - 10 - ${#h} - 1))
    printf '\223NUMPY\001\000'
    printf "\\$(printf %03o $(((tot - 10) % 256)))\\$(printf %03o $(((tot - 10) / 256)))"
    printf '%s%*s\n' "$h" "$pad" ''
    [ $# -gt 0 ] && perl -e 'print pack("d<*", @ARGV)' "$@"
}

printf '1 2 3 4 4 2 1 2\n' >y.txt
printf '1 3 5 3 1\n' >x.txt
# honest: what the limit is measured with
npy '<f8' False '(2, 3)' 1 3 5 3 1 2 >ok.npy
gzip -c ok.npy >ok.npy.gz
# F2: 101 bytes of gzip that claim 800 MB of rows
npy '<f8' False '(100000000, 1)' 1 2 >q8.npy
gzip -c q8.npy >q8.npy.gz
npy '<f8' False '(1000000000, 1)' 1 2 >q9.npy
gzip -c q9.npy >q9.npy.gz
npy '<f8' False '(1, 1000000000)' 1 2 3 >row9.npy
gzip -c row9.npy >row9.npy.gz
npy '<f8' True '(100000000, 3)' 1 2 3 4 >fort.npy
gzip -c fort.npy >fort.npy.gz
npy '<f8' False '(1000000000, 2)' 1 2 3 4 5 >cols.npy
gzip -c cols.npy >cols.npy.gz
npy '<f8' False '(1000000000000,)' 1 2 3 >s12.npy
gzip -c s12.npy >s12.npy.gz
# version 2.0 header whose length field says 4 GiB - 16
printf '\223NUMPY\002\000\360\377\377\377{}' >hlen.npy
# 4 MiB of noise, gzip'd, its ISIZE trailer set to 4 GiB - 16
head -c 4194304 /dev/urandom | gzip -1 >isize.gz
printf '\360\377\377\377' | dd of=isize.gz bs=1 seek=$(($(wc -c <isize.gz) - 4)) conv=notrunc \
    2>/dev/null
# a zip local file header (the start of a .npz) claiming 4 GiB - 1 for x.npy
printf 'PK\003\004\024\000\000\000\000\000\000\000\000\000\000\000\000\000\377\377\377\377\377\377\377\377\005\000\000\000x.npy\223NUMPY' \
    >claim.npz

# ---- the limit ------------------------------------------------------------------------

ASAN=0
case ${WM_SANITIZE:-} in
1 | ON | on | yes) ASAN=1 ;;
esac
grep -aq '__asan_init' "$W" && ASAN=1

# limit_for ARGS...: the smallest limit (KiB; 16 MiB doubled) under which
# the tool runs ARGS with status 0 or 1; 0 when none up to 16 GiB does.
limit_for() {
    local mb
    for mb in 16 32 64 128 256 512 1024 2048 4096 8192 16384; do
        if (ulimit -v $((mb * 1024)) 2>/dev/null && exec "$W" "$@") >/dev/null 2>&1 </dev/null; then
            echo $((mb * 1024))
            return
        fi
    done
    echo 0
}

LIMIT_KB=0
if [ "$ASAN" = 1 ]; then
    echo "note: sanitizer build: no ulimit -v, ASan's hard_rss_limit_mb=1024 instead"
    export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=1024
else
    a=$(limit_for dtw -j 1 ok.npy.gz y.txt)
    b=$(limit_for search -j 1 ACGT ok.npy.gz)
    [ "$b" -gt "$a" ] && a=$b
    if [ "$a" -gt 0 ]; then
        LIMIT_KB=$((a + 200 * 1024))
        echo "note: honest runs fit in $((a / 1024)) MiB; lying inputs run under" \
            "ulimit -v $((LIMIT_KB / 1024)) MiB"
    else
        fail "no ulimit -v up to 16 GiB lets an honest dtw run"
    fi
fi

# run_lim ARGS...: the tool under the limit (none in a sanitizer build) and
# `timeout 60`; standard input is the caller's. Sets OUT, ERR, RC and MS (the
# wall time in milliseconds).
run_lim() {
    local t0 t1
    t0=$(date +%s%N)
    if [ "$LIMIT_KB" -gt 0 ]; then
        run_cmd bash -c 'ulimit -v "$1" || exit 99; shift; exec timeout 60 "$@"' _ \
            "$LIMIT_KB" "$W" "$@"
    else
        run_cmd timeout 60 "$W" "$@"
    fi
    t1=$(date +%s%N)
    MS=$(((t1 - t0) / 1000000))
}

# expect_bounded NAME REGEX ARGS...: under the limit, exit 2, one stderr line
# matching REGEX (and no "out of memory"), nothing on stdout, within 5 s.
expect_bounded() {
    local name=$1 re=$2
    shift 2
    run_lim "$@"
    check_rc "$name" 2
    check_err "$name" "$re"
    check_empty_out "$name"
    if grep -q 'out of memory' "$ERR"; then
        fail "$name: ran out of memory (sized from the claim)"
    elif [ "$(wc -l <"$ERR")" -ne 1 ]; then
        fail "$name: $(wc -l <"$ERR") lines on stderr, expected 1"
        sed 's/^/    /' "$ERR" | head -5
    else
        pass
    fi
    if [ "$MS" -le 5000 ]; then
        pass
    else
        fail "$name: took $MS ms, expected under 5000"
    fi
}

# ---- 1. .npy shapes -------------------------------------------------------------------

# The honest input passes under the limit (the limit is not too tight).
run_lim dtw -j 1 ok.npy.gz y.txt
check_rc "honest gzip'd .npy rows under the limit" 0

TRUNC='\.npy data is truncated: shape'
expect_bounded "F2: (10^8, 1) .npy query file" \
    "^warpmatch: q8\\.npy: $TRUNC \\(100000000, 1\\) of '<f8' needs 800000000 bytes .* has 16\$" \
    dtw -j 1 q8.npy y.txt
expect_bounded "F2: (10^8, 1) gzip'd .npy query file" \
    "^warpmatch: q8\\.npy\\.gz: $TRUNC \\(100000000, 1\\) .* has 16\$" \
    dtw -j 1 q8.npy.gz y.txt
expect_bounded "F2: (10^8, 1) gzip'd .npy query from a pipe" \
    "^warpmatch: \\(standard input\\): $TRUNC \\(100000000, 1\\) .* has 16\$" \
    dtw -j 1 - y.txt < <(cat q8.npy.gz)
expect_bounded "F2: (10^8, 1) gzip'd .npy query, stdin from the file" \
    "^warpmatch: \\(standard input\\): $TRUNC \\(100000000, 1\\)" \
    dtw -j 1 - y.txt <q8.npy.gz
expect_bounded "F2: (10^8, 1) plain .npy query from a pipe" \
    "^warpmatch: \\(standard input\\): $TRUNC \\(100000000, 1\\) .* has 16\$" \
    dtw -j 1 - y.txt < <(cat q8.npy)
expect_bounded "F2: (10^9, 1) gzip'd .npy query from a pipe" \
    "^warpmatch: \\(standard input\\): $TRUNC \\(1000000000, 1\\) .* has 16\$" \
    dtw -j 1 - y.txt < <(cat q9.npy.gz)
expect_bounded "one row of 10^9 samples, gzip'd" \
    "^warpmatch: row9\\.npy\\.gz: $TRUNC \\(1, 1000000000\\) .* has 24\$" \
    dtw -j 1 row9.npy.gz y.txt
expect_bounded "Fortran order (10^8, 3) gzip'd, from a pipe" \
    "^warpmatch: \\(standard input\\): $TRUNC \\(100000000, 3\\) .* has 32\$" \
    dtw -j 1 - y.txt < <(cat fort.npy.gz)
expect_bounded "--query-column 1 of (10^9, 2), gzip'd, from a pipe" \
    "^warpmatch: \\(standard input\\): $TRUNC \\(1000000000, 2\\) .* has 40\$" \
    dtw -j 1 --query-column 1 - y.txt < <(cat cols.npy.gz)
expect_bounded "series (10^12,) gzip'd, from a pipe" \
    "^warpmatch: \\(standard input\\): $TRUNC \\(1000000000000,\\) .* has 24\$" \
    dtw -j 1 x.txt - < <(cat s12.npy.gz)
expect_bounded ".npy header length of 4 GiB, from a pipe" \
    "^warpmatch: \\(standard input\\): malformed \\.npy header \\(length 4294967280\\)" \
    dtw -j 1 - y.txt < <(cat hlen.npy)

# ---- 2. gzip size trailers ------------------------------------------------------------

expect_bounded "gzip ISIZE of 4 GiB, raw f64 series" \
    '^warpmatch: isize\.gz: corrupt gzip data \(incorrect length check\)' \
    dtw -j 1 --series-format f64 x.txt isize.gz
expect_bounded "gzip ISIZE of 4 GiB, search input" \
    '^warpmatch: isize\.gz: corrupt gzip data \(incorrect length check\)' \
    search -j 1 ACGT isize.gz
expect_bounded "gzip ISIZE of 4 GiB, search input from a pipe" \
    '^warpmatch: \(standard input\): corrupt gzip data \(incorrect length check\)' \
    search -j 1 ACGT - < <(cat isize.gz)

# ---- 3. .npz -------------------------------------------------------------------------

expect_bounded ".npz entry claiming 4 GiB, as a query" \
    '^warpmatch: claim\.npz: not a \.npz \(zip\) archive: no end of central directory' \
    dtw -j 1 claim.npz y.txt
expect_bounded ".npz entry claiming 4 GiB, --query-format npy, from a pipe" \
    '^warpmatch: \(standard input\): not a \.npy file' \
    dtw -j 1 --query-format npy - y.txt < <(cat claim.npz)

finish
