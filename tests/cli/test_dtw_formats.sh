#!/usr/bin/env bash
# test_dtw_formats.sh -- the inputs and outputs of `warpmatch dtw` that issue
# 20 added or fixed:
#
#  1. UCR-2018 .tsv (label, then the series, a line): each line of QUERY is a
#     query that keeps its label (the last column); the columns before it are
#     those of the same file with the labels cut off (cut -f2-), on a file
#     made here and on the shared UCR files; a labelled SERIES is the joined
#     lines; --labels on another name, --no-labels on a .tsv; a label without
#     samples and a '>' line are errors;
#  2. raw f32/f64: a text file (ASCII, UTF-8) is refused with exit 2 and a
#     message naming the text format, --format and --dtype alike; --force-raw
#     reads it; real raw numbers (written by Python's struct) still read as
#     the text they came from;
#  3. .npz (numpy's savez, stored, and savez_compressed, deflated): the same
#     lines as the .npy of the same array; FILE.npz:NAME and NAME.npy pick an
#     array, the default is the first with a note; a missing name, a damaged
#     CRC, a cut archive, a pipe, an unknown method are errors (exit 2);
#  4. --json: every line parses (Python's json), with the same values as the
#     TSV rows (label, path);
#  5. --cost squared --sqrt against a brute-force DTW written here in Python
#     (dtaidistance's definition: the root of the sum of squares on the best
#     path), global and subsequence, and -k D in the printed unit; --sqrt
#     without a squared cost is an error;
#  6. the progress line: on a terminal (script(1)) it shows after a second,
#     and --no-progress keeps stderr empty.
. "$(dirname "$0")/lib.sh" "$@"
export LC_ALL=C
cd "$TMP" || exit 2
UCR=$SHARED/timeseries/ucr

# A Python with numpy (the test's oracles; the .npz checks need it).
PY=
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import numpy' 2>/dev/null; then PY=$p; break; fi
done

# ---- 1. UCR .tsv -------------------------------------------------------------------------

printf '1\t0.5\t1.5\t2.5\t1\n2\t3\t2\t1\n-1\t0\t0\t1\t2\t3\n' >small.tsv
cut -f2- small.tsv >small.txt
printf '9\t1\t2\t3\t2\t1\t0\t0.5\t1.5\t2.5\t3\n' >series.tsv
cut -f2- series.tsv >series.txt

# same_but_label NAME LABELS_FILE: $OUT without its last column equals the
# last run before (kept in base.out), and its last column is the labels.
run dtw --top 2 small.txt series.txt
cp "$OUT" base.out
run dtw --top 2 small.tsv series.txt
cp "$OUT" tsv.out
check_rc "tsv query" 0
check_no_err "tsv query"
if awk -F'\t' -v OFS='\t' '{ NF--; print }' "$OUT" | cmp -s - base.out; then pass; else
    fail "tsv query: columns 1-4 differ from the unlabelled file"; diff base.out "$OUT" | head; fi
[ "$(cut -f5 "$OUT" | tr '\n' ' ')" = "1 1 2 2 -1 -1 " ] && pass ||
    fail "tsv query: labels column is '$(cut -f5 "$OUT" | tr '\n' ' ')'"
[ "$(wc -l <"$OUT")" -eq 6 ] && pass || fail "tsv query: $(wc -l <"$OUT") lines, 6 expected"

run dtw --top 2 small.txt series.tsv
check_rc "tsv series" 0
check_out "tsv series: labels dropped, lines joined" base.out
run dtw --mode global small.txt series.tsv
check_out_re "tsv series: 10 samples" "^0${TAB}0${TAB}10${TAB}"

# --labels is for both files
cp small.tsv small_labelled.txt
cp series.tsv series_labelled.txt
run dtw --top 2 --labels small_labelled.txt series_labelled.txt
check_out "--labels on .txt files: the .tsv's lines" tsv.out
run dtw --mode global --no-labels small.tsv series.txt
check_rc "--no-labels" 0
# the label is sample 0 now: every query one sample longer, no label column
[ "$(cut -f1,2 "$OUT" | tr '\t\n' '  ')" = "0 0 1 0 2 0 " ] && [ "$(awk -F'\t' '{print NF}' "$OUT" | sort -u)" = 4 ] &&
    pass || fail "--no-labels: $(head -3 "$OUT" | tr '\n' '|')"
run dtw --mode global --no-labels small.tsv small.tsv
check_out_re "--no-labels series: 15 samples" "${TAB}15${TAB}"

printf '1\t1\t2\n3\n' >label_only.tsv
expect_error "label without samples" "^warpmatch: label_only\.tsv:2: label '3' but no samples" \
    dtw label_only.tsv series.txt
printf '>a\n1 2 3\n' >rec.tsv
expect_error "'>' in a labelled file" "^warpmatch: rec\.tsv:1: a '>' line in a labelled file" \
    dtw rec.tsv series.txt
printf '1\tx\t2\n' >bad.tsv
expect_error "bad sample after a label" "^warpmatch: bad\.tsv:1: 'x' is not a number" \
    dtw bad.tsv series.txt
gzip -c small.tsv >small.tsv.gz
run dtw --top 2 small.tsv.gz series.txt
check_out ".tsv.gz: the .tsv's lines" tsv.out

# The shared UCR files: labelled queries against a labelled series, and the
# same with the labels cut off by cut(1).
if [ -d "$UCR" ]; then
    for f in ItalyPowerDemand_TRAIN GunPoint_TRAIN; do
        head -5 "$UCR/$f.tsv" >q_$f.tsv
        cut -f2- q_$f.tsv >q_$f.txt
        cut -f2- "$UCR/$f.tsv" >s_$f.txt
        run dtw --top 3 q_$f.txt s_$f.txt
        cp "$OUT" base_$f.out
        run dtw --top 3 q_$f.tsv "$UCR/$f.tsv"
        check_rc "$f" 0
        if awk -F'\t' -v OFS='\t' '{ NF--; print }' "$OUT" | cmp -s - base_$f.out; then pass; else
            fail "$f: labelled lines differ from the unlabelled ones"; fi
        want=$(cut -f1 q_$f.tsv | awk '{ for (i = 0; i < 3; i++) print }' | tr '\n' ' ')
        [ "$(awk -F'\t' '{ print $NF }' "$OUT" | tr '\n' ' ')" = "$want" ] && pass ||
            fail "$f: labels column"
        # every query lies in the series at distance 0 (it is one of its lines)
        [ "$(awk -F'\t' 'NR % 3 == 1 { print $4 }' "$OUT" | sort -u)" = 0 ] && pass ||
            fail "$f: a query is not found in its own file at 0"
    done
else
    echo "test_dtw_formats.sh: no $UCR: the shared UCR checks skipped"
fi

# ---- 2. raw f32/f64 that is text ----------------------------------------------------------

printf '1.5 2.5 3.5\n4.5 5.5 1.2\n' >text.f64 # 24 bytes: a multiple of 8 and 4
[ "$(wc -c <text.f64)" -eq 24 ] || fail "text.f64 is not 24 bytes"
printf '0.5\n1\n2\n' >q1.txt
expect_error "f64 text refused" "^warpmatch: text\.f64: looks like text, not raw float64.*text format.*--force-raw" \
    dtw --format f64 q1.txt text.f64
expect_error "f32 text refused" "^warpmatch: text\.f64: looks like text, not raw float32" \
    dtw --series-format f32 q1.txt text.f64
expect_error "--dtype f64 query text refused" "^warpmatch: q1\.txt: looks like text" \
    dtw --dtype f64 q1.txt text.f64
printf '\303\251t\303\251 1 2 3 \342\202\254 caf\303\251\n' >utf8.f64 # 24 bytes of UTF-8
expect_error "UTF-8 text refused" "^warpmatch: utf8\.f64: looks like text" dtw --format f64 q1.txt utf8.f64
run dtw --force-raw --format f64 q1.txt text.f64
check_rc "--force-raw reads it" 0
check_out_re "--force-raw: three float64" "^0${TAB}[0-9]+${TAB}[0-9]+${TAB}"
if [ -n "$PY" ]; then
    "$PY" -c '
import struct
v = [0.25, -1.5, 3.0, 2.0, 1.0, 0.0, 7.5, 2.5]
open("real.f64", "wb").write(struct.pack("<8d", *v))
open("real.f32", "wb").write(struct.pack("<8f", *v))
open("real.txt", "w").write(" ".join(map(str, v)) + "\n")
# printable-looking doubles: 0x4141414141414141 and friends, still not 95% text
open("mixed.f64", "wb").write(struct.pack("<4d", 0.1, 2.0, 3.0, 4.0))'
    run dtw --top 2 q1.txt real.txt
    cp "$OUT" real.out
    run dtw --top 2 --format f64 q1.txt real.f64
    check_out "real f64 reads" real.out
    run dtw --top 2 --format f32 q1.txt real.f32
    check_out "real f32 reads" real.out
    run dtw --format f64 q1.txt mixed.f64
    check_rc "binary doubles are not text" 0
fi

# ---- 3. .npz -------------------------------------------------------------------------------

if [ -n "$PY" ]; then
    "$PY" -c '
import numpy as np, zipfile
rng = np.random.default_rng(7)
s = np.round(rng.normal(size=3000).cumsum(), 3)
q = np.round(rng.normal(size=(4, 40)).cumsum(axis=1), 3)
np.save("s.npy", s); np.save("q.npy", q)
np.savez("stored.npz", series=s, queries=q)
np.savez_compressed("deflated.npz", series=s)
np.savez_compressed("qdeflated.npz", q)                 # arr_0
np.savez("f32.npz", x=s.astype(np.float32)); np.save("f32.npy", s.astype(np.float32))
# a zip with one bzip2 member (method 12), and one with a text member only
with zipfile.ZipFile("bz2.npz", "w", zipfile.ZIP_BZIP2) as z: z.write("s.npy", "series.npy")
with zipfile.ZipFile("nonpy.npz", "w") as z: z.writestr("readme.txt", "hello")
'
    for m in "" ":series" ":series.npy"; do
        run dtw --top 3 q.npy s.npy
        cp "$OUT" npy.out
        run dtw --top 3 q.npy "stored.npz$m"
        check_out "stored npz$m = npy" npy.out
        run dtw --top 3 q.npy "deflated.npz$m"
        check_out "deflated npz$m = npy" npy.out
    done
    run dtw --top 3 q.npy stored.npz
    check_err "default array: a note" "^warpmatch: note: stored\.npz holds 2 arrays \(series, queries\); read 'series'"
    run dtw --top 3 q.npy deflated.npz
    check_no_err "one array: no note"
    run dtw --top 3 stored.npz:queries s.npy
    check_out "npz queries (2-D rows)" npy.out
    run dtw --top 3 qdeflated.npz s.npy
    check_out "deflated 2-D rows (arr_0)" npy.out
    run dtw --top 3 --series-format npz --query-format npz stored.npz:queries stored.npz:series
    check_out "--series-format npz" npy.out
    run dtw --top 3 q.npy f32.npy
    cp "$OUT" f32.out
    run dtw --top 3 q.npy f32.npz:x
    check_out "float32 npz" f32.out
    expect_error "no such array" "^warpmatch: stored\.npz: no array 'nope' in this \.npz archive \(it holds series, queries\)" \
        dtw q.npy stored.npz:nope
    expect_error "bzip2 member" "^warpmatch: bz2\.npz: \.npz member compressed with zip method 12" dtw q.npy bz2.npz
    expect_error "no .npy member" "^warpmatch: nonpy\.npz: no \.npy array" dtw q.npy nonpy.npz
    head -c 2000 stored.npz >cut.npz
    expect_error "cut archive" "^warpmatch: cut\.npz: not a \.npz \(zip\) archive" dtw q.npy cut.npz
    expect_error "npz from a pipe" "^warpmatch: \(standard input\): a \.npz archive is read from a regular file only" \
        dtw q.npy - < <(cat stored.npz)
    run_in stored.npz dtw q.npy -
    check_rc "npz on stdin from a file" 0
    # one data byte changed: the CRC-32 of the stored member tells
    "$PY" -c '
b = bytearray(open("stored.npz", "rb").read())
i = b.find(b"series.npy") + 200                   # inside the first member
b[i] ^= 0x01
open("crc.npz", "wb").write(b)
d = bytearray(open("deflated.npz", "rb").read())
d[300] ^= 0xff
open("bad_deflate.npz", "wb").write(d)'
    expect_error "stored CRC" "^warpmatch: crc\.npz:series\.npy: corrupt \.npz member: CRC-32 mismatch" dtw q.npy crc.npz
    run dtw q.npy bad_deflate.npz
    check_rc "damaged deflate data" 2
    check_err "damaged deflate data" "^warpmatch: bad_deflate\.npz:series\.npy: (corrupt|truncated) \.npz member|\.npy"
    # a file named a:b is itself, not an array of a
    cp s.npy 'odd:name'
    run dtw --top 3 q.npy 'odd:name'
    check_out "a file with a colon" npy.out
else
    echo "test_dtw_formats.sh: no Python with numpy: the .npz and raw checks skipped"
fi

# ---- 4. --json -----------------------------------------------------------------------------

# json_equals_tsv NAME ARGS...: --json lines carry the TSV rows' values.
json_equals_tsv() {
    local name=$1
    shift
    run dtw "$@"
    cp "$OUT" tsv.out
    run dtw --json "$@"
    check_rc "$name --json" 0
    if python3 - tsv.out "$OUT" <<'PY'; then pass; else fail "$name: --json differs from the TSV"; fi
import json, sys
tsv = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
js = [json.loads(l) for l in open(sys.argv[2])]
assert len(tsv) == len(js) and len(js) > 0, (len(tsv), len(js))
for t, j in zip(tsv, js):
    assert str(j["query"]) == t[0], (j, t)
    assert (j["start"], j["end"]) == (int(t[1]), int(t[2])), (j, t)
    assert j["distance"] == float(t[3]), (j, t)
    rest = t[4:]
    if "path" in j:
        assert ",".join("%d:%d" % (a, b) for a, b in j["path"]) == rest.pop(0), (j, t)
    if "label" in j:
        assert j["label"] == rest.pop(0), (j, t)
    assert not rest, (j, t)
PY
}
json_equals_tsv "plain" --top 2 small.txt series.txt
json_equals_tsv "labelled with path" --top 2 --path small.tsv series.txt
json_equals_tsv "sqrt" --cost squared --sqrt --top 3 small.txt series.txt
if [ -d "$UCR" ]; then json_equals_tsv "UCR" --top 2 q_GunPoint_TRAIN.tsv "$UCR/GunPoint_TRAIN.tsv"; fi

# ---- 5. --sqrt against a brute-force DTW -----------------------------------------------------

awk 'BEGIN { srand(11); for (l = 0; l < 6; l++) { n = 3 + int(rand() * 30)
    for (i = 0; i < n; i++) printf "%s%.2f", i ? " " : "", rand() * 10 - 5; print "" } }' >rq.txt
awk 'BEGIN { srand(12); for (i = 0; i < 400; i++) printf "%.2f\n", rand() * 10 - 5 }' >rs.txt
python3 - rq.txt rs.txt >oracle.out <<'PY'
import math, sys
# dtaidistance's dtw.distance: sqrt of the least sum of (x - y)^2 over the
# warping paths (global); the subsequence form lets the path start and end
# anywhere in the series (the best (end, start) as warpmatch ranks them).
def dp(q, s, free_start):
    inf = float("inf")
    m, n = len(q), len(s)
    prev = [0.0 if free_start else inf] * (n + 1)
    prev[0] = 0.0
    for i in range(1, m + 1):
        cur = [inf] * (n + 1)
        for j in range(1, n + 1):
            d = q[i - 1] - s[j - 1]
            cur[j] = d * d + min(prev[j - 1], prev[j], cur[j - 1])
        prev = cur
    return prev
qs = [[float(x) for x in l.split()] for l in open(sys.argv[1])]
s = [float(l) for l in open(sys.argv[2])]
for i, q in enumerate(qs):
    g = dp(q, s, False)[len(s)]
    last = dp(q, s, True)
    best = min(last[1:])
    print("%d global %.12e" % (i, math.sqrt(g)))
    print("%d sub %.12e" % (i, math.sqrt(best)))
PY
run dtw --mode global --cost squared --sqrt rq.txt rs.txt
awk '{ printf "%d global %.12e\n", $1, $4 }' "$OUT" >got.global
run dtw --cost squared --sqrt rq.txt rs.txt
awk '{ printf "%d sub %.12e\n", $1, $4 }' "$OUT" >got.sub
if python3 - oracle.out got.global got.sub <<'PY'; then pass; else fail "--sqrt differs from the brute force"; fi
import sys
want = {tuple(l.split()[:2]): float(l.split()[2]) for l in open(sys.argv[1])}
got = {}
for f in sys.argv[2:]:
    for l in open(f):
        k, v = tuple(l.split()[:2]), float(l.split()[2])
        got[k] = v
assert set(want) == set(got) and len(want) == 12, (sorted(want), sorted(got))
for k in want:
    assert abs(want[k] - got[k]) <= 1e-9 * max(1.0, want[k]), (k, want[k], got[k])
PY
# --sqrt is the root of what --cost squared prints
run dtw --cost squared rq.txt rs.txt
cp "$OUT" sq.out
run dtw --cost squared --sqrt rq.txt rs.txt
if awk -F'\t' 'NR == FNR { d[FNR] = $4; next }
    { r = sqrt(d[FNR]); if ($4 - r > 1e-12 * r || r - $4 > 1e-12 * r) exit 1 }' sq.out "$OUT"; then
    pass; else fail "--sqrt is not the root of the squared distance"; fi
# -k D compares the root: D between two roots keeps exactly the matches under it
run dtw --cost squared --sqrt --top 50 rq.txt rs.txt
cp "$OUT" top.out
d=$(awk -F'\t' '$1 == 0 { print $4 }' top.out | sort -g | sed -n 5p)
run dtw --cost squared --sqrt -k "$d" --top 50 rq.txt rs.txt
want=$(awk -F'\t' -v d="$d" '$1 == 0 && $4 <= d' top.out | wc -l)
have=$(awk -F'\t' '$1 == 0' "$OUT" | wc -l)
[ "$want" -eq "$have" ] && [ "$have" -ge 5 ] && awk -F'\t' -v d="$d" '$4 > d { exit 1 }' "$OUT" && pass ||
    fail "--sqrt -k $d: $have lines for query 0, $want expected"
expect_error "--sqrt needs squared" "^warpmatch: --sqrt needs --cost squared" dtw --sqrt rq.txt rs.txt
run dtw --mode ucr --sqrt --top 1 rq.txt rs.txt
check_rc "--sqrt in ucr mode (squared by default)" 0

# ---- 6. the progress line ----------------------------------------------------------------------

# Seconds of work (7e8 cells) in many queries, so that the line is
# drawn between them (the library reports nothing inside one call).
awk 'BEGIN { srand(5); for (i = 0; i < 30000; i++) printf "%.3f\n", rand() }' >long.txt
awk 'BEGIN { srand(6); for (l = 0; l < 400; l++) { for (i = 0; i < 60; i++)
    printf "%s%.3f", i ? " " : "", rand(); print "" } }' >many.txt
if script -qec true /dev/null >/dev/null 2>&1; then
    script -qec "'$W' dtw -j 2 many.txt long.txt >/dev/null" /dev/null >tty.out 2>&1
    if grep -aEq 'warpmatch: [0-9.]+ of [0-9.]+ [kMGT]*(B|cells)' tty.out; then pass; else
        # a machine fast enough to finish within the first second shows nothing
        t0=$(date +%s%N); "$W" dtw -j 2 many.txt long.txt >/dev/null; t1=$(date +%s%N)
        if [ $(((t1 - t0) / 1000000)) -lt 1300 ]; then pass; else
            fail "no progress line on a terminal: $(tr '\r' '\n' <tty.out | tail -2)"; fi
    fi
    script -qec "'$W' dtw -j 2 --no-progress many.txt long.txt >/dev/null" /dev/null >tty2.out 2>&1
    [ ! -s tty2.out ] && pass || fail "--no-progress: the terminal shows '$(head -c 200 tty2.out)'"
    run dtw -j 2 many.txt long.txt
    check_no_err "no progress line off a terminal"
else
    echo "test_dtw_formats.sh: no script(1): the progress checks skipped"
fi

finish
