#!/usr/bin/env bash
# test_dtw.sh -- `warpmatch dtw QUERY SERIES`: subsequence, global and ucr
# dynamic time warping from signal files.
#
#  1. the paper's Figure 4 example (X = 1 3 5 3 1 in Y = 1 2 3 4 4 2 1 2, abs
#     cost): the match [1, 6) at distance 4 and its path, exit 0, no stderr;
#  2. the same series as text (blanks, commas, semicolons, newlines, comments,
#     gzip, standard input), CSV (header; by column name and number), .npy
#     (<f8, <f4, |i1, 2-D with --column), raw f32/f64 (--format, --dtype with
#     raw queries too): every one prints the same line; queries as a column,
#     CSV (named after the header), .npy and raw;
#  3. several queries: one a line (indices), '>' records (names), rows of a
#     2-D .npy, --query-column;
#  4. an awk oracle written here from the definitions (the subsequence DP
#     with its start rule, the rank order and the greedy choice of --top and
#     --max-distance, the global DP with the Sakoe-Chiba band, the canonical
#     global traceback) on random small-integer signals full of ties, and on
#     one-decimal signals whose sums round (--piece 1 and 2 too): the output
#     must be the oracle's byte for byte; every subsequence --path must be
#     a valid warping path whose costs add up to the distance;
#  5. the bundled ECG sample: --top K lines never overlap and are best
#     first; --max-distance alone gives series order, every distance <= D,
#     the same matches as --top N; nothing within D exits 1; global mode
#     (a signal against itself is 0; --window 0 = the diagonal's sum),
#     --window in samples and as a fraction (of the longer signal; ucr: of
#     each query, several lengths in one file); ucr mode finds a window
#     copied from the series, shifted and scaled, at its start with a
#     distance of about 0; --length; --znorm;
#  6. consistency: --backend cpu with --threads 1 and 3 and --piece 1, 7, 64
#     (a long plateau path crossing pieces too) print the same bytes, and
#     --backend cuda as well when `warpmatch info` shows a GPU; so does
#     --precision f32, and ucr refuses it;
#  7. errors: exit 2, nothing on stdout, one "warpmatch: " line naming the
#     file and the place (NaN, Inf, a malformed number, an empty file, an
#     unsupported or 3-D .npy, truncated gzip, ...) or the bad option.
. "$(dirname "$0")/lib.sh" "$@"
export LC_ALL=C
cd "$TMP" || exit 2
ECG=$DATA/signals/ecg_mitdb100_60s.csv
BEAT=$DATA/signals/beat_query.txt

# check_awk NAME PROGRAM: the awk PROGRAM, given the last stdout, prints
# nothing (else what it prints is the failure).
check_awk() {
    local msg
    msg=$(awk -F '\t' "$2" "$OUT")
    if [ -z "$msg" ] && [ -s "$OUT" ]; then
        pass
    else
        fail "$1: ${msg:-no output}"
        head -10 "$OUT" | sed 's/^/    /'
    fi
}

# npy DESCR SHAPE VALUES...: a .npy (version 1.0) file on stdout: the magic,
# the header dict padded with blanks to a multiple of 64 bytes with its
# newline, then the values packed by perl (perl-base is on every Debian).
npy() {
    local d=$1 sh=$2 h tot pad
    shift 2
    h="{'descr': '$d', 'fortran_order': False, 'shape': $sh, }"
    tot=$(( (10 + ${#h} + 1 + 63) / 64 * 64 ))
    pad=$((tot - 10 - ${#h} - 1))
    printf '\223NUMPY\001\000'
    printf "\\$(printf %03o $(((tot - 10) % 256)))\\$(printf %03o $(((tot - 10) / 256)))"
    printf '%s%*s\n' "$h" "$pad" ''
    case $d in
    '<f8') perl -e 'print pack("d<*", @ARGV)' "$@" ;;
    '<f4') perl -e 'print pack("f<*", @ARGV)' "$@" ;;
    '>f8') perl -e 'print pack("d>*", @ARGV)' "$@" ;;
    '|i1') perl -e 'print pack("c*", @ARGV)' "$@" ;;
    esac
}

# ---- 1. Figure 4 -----------------------------------------------------------------

printf '1 3 5 3 1\n' >x.txt
printf '1 2 3 4 4 2 1 2\n' >y.txt
FIG4='0 1 6 4'
expect_match "figure 4" "$FIG4" dtw x.txt y.txt
expect_match "figure 4 --path" '0 1 6 4 0:1,1:2,2:3,3:4,4:5' dtw --path x.txt y.txt
expect_match "figure 4 explicit defaults" "$FIG4" dtw --mode subsequence --cost abs --top 1 \
    --format auto --query-format text --backend cpu x.txt y.txt
expect_match "figure 4 global" '0 0 8 5 0:0,0:1,1:2,1:3,2:4,3:5,4:6,4:7' \
    dtw --mode global --path x.txt y.txt
run dtw --top 3 --path x.txt y.txt
# every other end's best start reaches back into [1, 6) except [0, 1)
check_tsv "figure 4 --top 3" < <(printf '0 1 6 4 0:1,1:2,2:3,3:4,4:5\n0 0 1 8 0:0,1:0,2:0,3:0,4:0\n')

# ---- 2. formats ------------------------------------------------------------------

printf '# the series, every way of writing it\n1,2\n3 4;4\n\n  2\t1, 2\n' >y_mixed.txt
gzip -c y.txt >y.txt.gz
cp y.txt.gz y_gz_no_suffix
printf '# sampling_frequency_hz=1\nY\n1\n2\n3\n4\n4\n2\n1\n2\n' >y1.csv
printf '# two columns\ntime;Y;other\n0;1;9\n1;2;9\n2;3;9\n3;4;9\n4;4;9\n5;2;9\n6;1;9\n7;2;9\n' >y3.csv
gzip -c y3.csv >y3.csv.gz
cp y1.csv y1_csv.dat
npy '<f8' '(8,)' 1 2 3 4 4 2 1 2 >y8.npy
npy '<f4' '(8,)' 1 2 3 4 4 2 1 2 >y4.npy
npy '|i1' '(8,)' 1 2 3 4 4 2 1 2 >yi1.npy
npy '<f8' '(8, 2)' 7 1 7 2 7 3 7 4 7 4 7 2 7 1 7 2 >y2d.npy
perl -e 'print pack("d<*", @ARGV)' 1 2 3 4 4 2 1 2 >y.f64
perl -e 'print pack("f<*", @ARGV)' 1 2 3 4 4 2 1 2 >y.f32
perl -e 'print pack("d<*", @ARGV)' 1 3 5 3 1 >x.f64
perl -e 'print pack("f<*", @ARGV)' 1 3 5 3 1 >x.f32

expect_match "text, mixed separators" "$FIG4" dtw x.txt y_mixed.txt
expect_match "text, gzip" "$FIG4" dtw x.txt y.txt.gz
expect_match "text, gzip without .gz" "$FIG4" dtw x.txt y_gz_no_suffix
run_in y.txt dtw x.txt -
check_rc "series on stdin" 0
check_tsv "series on stdin" <<<"$FIG4"
run_in y.txt.gz dtw x.txt -
check_tsv "gzip series on stdin" <<<"$FIG4"
run_in x.txt dtw - y.txt
check_tsv "query on stdin" <<<"$FIG4"
expect_match "csv, one column" "$FIG4" dtw x.txt y1.csv
expect_match "csv by name" "$FIG4" dtw --column Y x.txt y3.csv
expect_match "csv by name, any case" "$FIG4" dtw --column y x.txt y3.csv
expect_match "csv by number" "$FIG4" dtw --column 1 x.txt y3.csv
expect_match "csv, gzip" "$FIG4" dtw --column Y x.txt y3.csv.gz
expect_match "--format csv" "$FIG4" dtw --format csv x.txt y1_csv.dat
expect_match "npy <f8" "$FIG4" dtw x.txt y8.npy
expect_match "npy <f4" "$FIG4" dtw x.txt y4.npy
expect_match "npy |i1" "$FIG4" dtw x.txt yi1.npy
expect_match "npy --format npy" "$FIG4" dtw --format npy x.txt y8.npy
expect_match "npy 2-D --column" "$FIG4" dtw --column 1 x.txt y2d.npy
expect_match "--format f64" "$FIG4" dtw --format f64 x.txt y.f64
expect_match "--format f32" "$FIG4" dtw --format f32 x.txt y.f32
expect_match "--dtype f64" "$FIG4" dtw --dtype f64 x.f64 y.f64
expect_match "--dtype f32" "$FIG4" dtw --dtype f32 x.f32 y.f32
expect_match "--dtype, text query" "$FIG4" dtw --dtype f32 --query-format text x.txt y.f32
expect_match "--dtype, csv series" "$FIG4" dtw --dtype f64 --format csv x.f64 y1_csv.dat
expect_match "--query-format f64" "$FIG4" dtw --query-format f64 x.f64 y.txt

# queries in other forms
printf '1\n3\n5\n3\n1\n' >x_col.txt
printf 'a,X\n0,1\n0,3\n0,5\n0,3\n0,1\n' >x.csv
expect_match "query, one number a line" "$FIG4" dtw x_col.txt y.txt
expect_match "query, csv by name" 'X 1 6 4' dtw --query-column X x.csv y.txt
expect_match "query, csv by number" 'X 1 6 4' dtw --query-column 1 x.csv y.txt
npy '<f8' '(5,)' 1 3 5 3 1 >x8.npy
expect_match "query, npy" "$FIG4" dtw x8.npy y8.npy

# ---- 3. several queries ----------------------------------------------------------

# Y = 1 2 3 4 4 2 1 2: 4 4 4 4 is at distance 0 on Y[3] alone (the leftmost
# end); 1 2 3 4 5 ends at 4 with its 5 against Y[3] = 4.
MANY='0 1 6 4
1 3 4 0
2 0 4 1'
printf '1 3 5 3 1\n4 4 4 4\n1,2,3,4,5\n' >q_lines.txt
expect_match "queries, one a line" "$MANY" dtw q_lines.txt y.txt
printf '# named\n>fig 4\n1 3 5\n3 1\n>fours\n4\n4\n4\n4\n>ramp\n1 2 3 4 5\n' >q_named.txt
run dtw q_named.txt y.txt     # a blank in a name stays a blank
printf 'fig 4\t1\t6\t4\nfours\t3\t4\t0\nramp\t0\t4\t1\n' >named.tsv
check_rc "queries, '>' names" 0
check_out "queries, '>' names" named.tsv
npy '<f8' '(3, 5)' 1 3 5 3 1 4 4 4 4 4 1 2 3 4 5 >q2d.npy
expect_match "queries, 2-D npy rows" '0 1 6 4
1 3 4 0
2 0 4 1' dtw q2d.npy y.txt
# column 1 of the rows above: 3 4 2 = Y[2, 6) warped
expect_match "query, 2-D npy --query-column" '0 2 6 0' dtw --query-column 1 q2d.npy y.txt
expect_match "queries, --path" '0 1 6 4 0:1,1:2,2:3,3:4,4:5
1 3 4 0 0:3,1:3,2:3,3:3
2 0 4 1 0:0,1:1,2:2,3:3,4:3' dtw --path q_lines.txt y.txt

# ---- 4. the oracle -----------------------------------------------------------------

# gen SEED [DEC]: q.txt ('>' records q0..q4 of 1 to 8 samples) and s.txt
# (1 to 40 samples), values 0 to 3 so that many paths and ends tie; with
# DEC = 1 the values are 0.0 to 0.7: sums then round, and paths equal in
# exact arithmetic come out equal or not depending on the order of the sums.
gen() {
    awk -v seed="$1" -v dec="${2:-0}" '
    function v() { return dec ? sprintf("%.1f", int(rand() * 8) / 10) : int(rand() * 4) }
    BEGIN {
        srand(seed)
        nq = 5
        for (k = 0; k < nq; k++) {
            m = 1 + int(rand() * 8); line = ""
            for (i = 0; i < m; i++) line = line (i ? " " : "") v()
            printf ">q%d\n%s\n", k, line > "q.txt"
        }
        n = 1 + int(rand() * 40); line = ""
        for (j = 0; j < n; j++) line = line (j ? " " : "") v()
        print line > "s.txt"
    }'
}

# oracle MODE TOP MAXD R COST PATH: the lines dtw prints for q.txt in s.txt.
# MODE sub or glob; TOP 0 = all within MAXD ("" = no limit) in series order;
# R -1 = no band; COST abs or sq; PATH 1 adds the global path.
oracle() {
    awk -v mode="$1" -v top="$2" -v maxd="$3" -v R="$4" -v cost="$5" -v wpath="$6" '
    function c(a, b,   d) { d = a - b; if (cost == "sq") return d * d; return d < 0 ? -d : d }
    function inband(i, j) {    # 0-based cell (i, j) of m x n
        if (R < 0) return 1
        return j >= i - R - (m > n ? m - n : 0) && j <= i + R + (n > m ? n - m : 0)
    }
    # the shortest text that reads back as d: %.15g, else %.17g
    function fmt(d,   s) { s = sprintf("%.15g", d); if (s + 0 != d) s = sprintf("%.17g", d); return s }
    # subsequence: row 0 starts fresh at every column (start = j); a later
    # cell keeps, of the values of its predecessors plus its cost, the smallest,
    # and of equal ones the largest start.
    function sub_query(name,   i, j, cc, bv, bs, t, nc, a, b, picked, ok, p) {
        for (j = 0; j < n; j++) { V[0, j] = c(x[0], y[j]); S[0, j] = j }
        for (i = 1; i < m; i++)
            for (j = 0; j < n; j++) {
                cc = c(x[i], y[j])
                bv = V[i - 1, j] + cc; bs = S[i - 1, j]
                if (j > 0) {
                    t = V[i - 1, j - 1] + cc
                    if (t < bv || (t == bv && S[i - 1, j - 1] > bs)) { bv = t; bs = S[i - 1, j - 1] }
                    t = V[i, j - 1] + cc
                    if (t < bv || (t == bv && S[i, j - 1] > bs)) { bv = t; bs = S[i, j - 1] }
                }
                V[i, j] = bv; S[i, j] = bs
            }
        nc = 0       # candidates: one per end, within maxd
        for (j = 0; j < n; j++)
            if (maxd == "" || V[m - 1, j] <= maxd + 0) {
                nc++; CD[nc] = V[m - 1, j]; CE[nc] = j + 1; CS[nc] = S[m - 1, j]
            }
        for (a = 2; a <= nc; a++)      # rank: distance, then the leftmost end
            for (b = a; b > 1 && (CD[b] < CD[b - 1] || (CD[b] == CD[b - 1] && CE[b] < CE[b - 1])); b--) {
                t = CD[b]; CD[b] = CD[b - 1]; CD[b - 1] = t
                t = CE[b]; CE[b] = CE[b - 1]; CE[b - 1] = t
                t = CS[b]; CS[b] = CS[b - 1]; CS[b - 1] = t
            }
        picked = 0
        for (a = 1; a <= nc && (top == 0 || picked < top); a++) {
            ok = 1
            for (p = 1; p <= picked; p++)
                if (CS[a] < PE[p] && PS[p] < CE[a]) ok = 0
            if (ok) { picked++; PS[picked] = CS[a]; PE[picked] = CE[a]; PD[picked] = CD[a] }
        }
        if (top == 0)                  # series order
            for (a = 2; a <= picked; a++)
                for (b = a; b > 1 && PS[b] < PS[b - 1]; b--) {
                    t = PS[b]; PS[b] = PS[b - 1]; PS[b - 1] = t
                    t = PE[b]; PE[b] = PE[b - 1]; PE[b - 1] = t
                    t = PD[b]; PD[b] = PD[b - 1]; PD[b - 1] = t
                }
        for (a = 1; a <= picked; a++) printf "%s\t%d\t%d\t%s\n", name, PS[a], PE[a], fmt(PD[a])
    }
    function glob_query(name,   i, j, bv, cc, path) {
        for (i = 0; i < m; i++)
            for (j = 0; j < n; j++) {
                if (!inband(i, j)) { V[i, j] = INF; continue }
                if (i == 0 && j == 0) bv = 0
                else {
                    bv = INF
                    if (i > 0 && j > 0 && V[i - 1, j - 1] < bv) bv = V[i - 1, j - 1]
                    if (i > 0 && V[i - 1, j] < bv) bv = V[i - 1, j]
                    if (j > 0 && V[i, j - 1] < bv) bv = V[i, j - 1]
                }
                V[i, j] = bv + c(x[i], y[j])
            }
        if (maxd != "" && !(V[m - 1, n - 1] <= maxd + 0)) return
        printf "%s\t0\t%d\t%s", name, n, fmt(V[m - 1, n - 1])
        if (wpath) {      # back from the corner: diagonal, then query step, then series step
            i = m - 1; j = n - 1; path = i ":" j
            while (i > 0 || j > 0) {
                cc = c(x[i], y[j])
                if (i > 0 && j > 0 && V[i - 1, j - 1] + cc == V[i, j]) { i--; j-- }
                else if (i > 0 && V[i - 1, j] + cc == V[i, j]) i--
                else j--
                path = i ":" j "," path
            }
            printf "\t%s", path
        }
        printf "\n"
    }
    BEGIN { INF = 1e308 * 10 }
    FILENAME == "s.txt" { n = NF; for (j = 0; j < n; j++) y[j] = $(j + 1); next }
    /^>/ { name[++nq] = substr($0, 2); next }
    { vals[nq] = $0 }
    END {
        for (k = 1; k <= nq; k++) {
            m = split(vals[k], tmp, " ")
            for (i = 0; i < m; i++) x[i] = tmp[i + 1]
            if (mode == "sub") sub_query(name[k]); else glob_query(name[k])
        }
    }' s.txt q.txt
}

# oracle_case NAME ORACLE-ARGS -- DTW-ARGS
oracle_case() {
    local name=$1
    shift
    local oa=()
    while [ "$1" != "--" ]; do oa+=("$1"); shift; done
    shift
    oracle "${oa[@]}" >"$TMP/expect"
    run dtw "$@" q.txt s.txt
    if [ -s "$TMP/expect" ]; then check_rc "$name" 0; else check_rc "$name" 1; fi
    check_out "$name" "$TMP/expect"
}

for seed in 1 2 3 4 5 6 7 8 9 10; do
    gen "$seed"
    r=$((seed % 4))
    oracle_case "oracle $seed top 1"          sub 1 "" -1 abs 0 --
    oracle_case "oracle $seed top 3"          sub 3 "" -1 abs 0 -- --top 3
    oracle_case "oracle $seed top 4 squared"  sub 4 "" -1 sq 0 -- --top 4 --cost squared
    oracle_case "oracle $seed -k 3"           sub 0 3 -1 abs 0 -- -k 3
    oracle_case "oracle $seed -k 2 --top 2"   sub 2 2 -1 abs 0 -- -k 2 --top 2
    oracle_case "oracle $seed global"         glob 1 "" -1 abs 1 -- --mode global --path
    oracle_case "oracle $seed global -w $r"   glob 1 "" $r abs 1 -- --mode global --window $r --path
    oracle_case "oracle $seed global sq -k 6" glob 1 6 1 sq 0 -- --mode global --window 1 \
        --cost squared -k 6
    # every subsequence path: from (0, start) to (m - 1, end - 1) in unit
    # steps, its costs summing to the distance
    run dtw --top 5 --path q.txt s.txt
    awk -F '\t' 'FILENAME == "s.txt" { n = split($0, y, " "); next }
        /^>/ { nm = substr($0, 2); next }
        FILENAME == "q.txt" { len[nm] = split($0, t, " "); for (i = 1; i <= len[nm]; i++) X[nm, i - 1] = t[i]; next }
        {
            k = split($5, cell, ","); sum = 0; pi = -1; pj = -1
            for (c = 1; c <= k; c++) {
                split(cell[c], ij, ":"); i = ij[1] + 0; j = ij[2] + 0
                if (c > 1 && !((i == pi && j == pj + 1) || (i == pi + 1 && j == pj) || (i == pi + 1 && j == pj + 1)))
                    print FNR ": bad step to " cell[c]
                d = X[$1, i] - y[j + 1]; sum += d < 0 ? -d : d; pi = i; pj = j
            }
            split(cell[1], f, ":"); split(cell[k], l, ":")
            if (f[1] != 0 || f[2] != $2 || l[1] != len[$1] - 1 || l[2] != $3 - 1)
                print FNR ": the path runs " cell[1] " to " cell[k] " for [" $2 ", " $3 ")"
            if (sum != $4) print FNR ": the path costs " sum ", the distance is " $4
        }' s.txt q.txt "$OUT" >"$TMP/pathcheck"
    if [ -s "$TMP/pathcheck" ] || [ ! -s "$OUT" ]; then
        fail "oracle $seed paths"; head -5 "$TMP/pathcheck"
    else
        pass
    fi
done

# Decimal samples: the oracle adds in the DP's order, so it must agree to the
# last bit, starts included, however the series is cut.
for seed in 11 12 13 14 15 16 17 18 19 20 21 22; do
    gen "$seed" 1
    oracle_case "decimal $seed top 1"             sub 1 "" -1 abs 0 --
    oracle_case "decimal $seed top 3"             sub 3 "" -1 abs 0 -- --top 3
    oracle_case "decimal $seed -k 1"              sub 0 1 -1 abs 0 -- -k 1
    oracle_case "decimal $seed -k 1 --piece 1"    sub 0 1 -1 abs 0 -- -k 1 --piece 1 -j 2
    oracle_case "decimal $seed top 3 --piece 2"   sub 3 "" -1 abs 0 -- --top 3 --piece 2 -j 2
    oracle_case "decimal $seed squared top 2"     sub 2 "" -1 sq 0 -- --cost squared --top 2
    oracle_case "decimal $seed global"            glob 1 "" -1 abs 1 -- --mode global --path
    oracle_case "decimal $seed global -w 2"       glob 1 "" 2 sq 1 -- --mode global --window 2 \
        --cost squared --path
done

# ---- 5. the bundled sample ---------------------------------------------------------

# A signal against itself: distance 0 globally, and found at its own place.
awk 'NR > 2 && NR <= 1002' "$ECG" >ecg1000.txt
expect_match "global, itself" '0 0 1000 0' dtw --mode global ecg1000.txt ecg1000.txt
expect_match "global, itself, window 0" '0 0 1000 0' dtw --mode global --window 0 ecg1000.txt ecg1000.txt
awk 'NR > 2 + 600 && NR <= 2 + 850' "$ECG" >cut600.txt
run dtw cut600.txt "$ECG"
check_awk "a cut of the series is found where it was cut" \
    '$2 != 600 || $3 != 850 || $4 != 0 { print "got " $0 }'

run dtw --top 12 "$BEAT" "$ECG"
check_rc "--top 12" 0
[ "$(wc -l <"$OUT")" -eq 12 ] && pass || fail "--top 12: $(wc -l <"$OUT") lines"
check_awk "--top 12: no overlap, best first" '
    { if ($1 != "beat_29773") print "query " $1
      if ($2 >= $3) print "empty match " $0
      for (k = 1; k < NR; k++) if ($2 < E[k] && S[k] < $3) print "overlap: " $0 " and " S[k] "-" E[k]
      if (NR > 1 && $4 + 0 < prev) print "not best first: " $0
      S[NR] = $2; E[NR] = $3; prev = $4 + 0 }'
cp "$OUT" top12.tsv

D=$(awk -F '\t' 'NR == 6 { print $4 }' top12.tsv)    # the 6th best distance
run dtw -k "$D" "$BEAT" "$ECG"
check_rc "-k D" 0
check_awk "-k D: series order, within D, no overlap" "BEGIN { D = $D }"'
    { if ($4 + 0 > D + 0) print "over D: " $0
      if (NR > 1 && $2 + 0 <= ps) print "not in series order: " $0
      for (k = 1; k < NR; k++) if ($2 < E[k] && S[k] < $3) print "overlap: " $0
      ps = $2 + 0; S[NR] = $2; E[NR] = $3 }'
[ "$(wc -l <"$OUT")" -ge 6 ] && pass || fail "-k D: fewer than the 6 of --top"
# the same matches as --top N, N = their count
N=$(wc -l <"$OUT")
sort -t "$TAB" -k4,4g -k3,3n "$OUT" >kd_ranked.tsv
run dtw --top "$N" -k "$D" "$BEAT" "$ECG"
check_out "-k D = --top N -k D, ranked" kd_ranked.tsv
run dtw --top "$N" "$BEAT" "$ECG"
check_out "-k D = --top N, ranked" kd_ranked.tsv

run dtw -k 0.5 "$BEAT" "$ECG"
check_rc "-k below the best: exit 1" 1
check_empty_out "-k below the best"
check_no_err "-k below the best"
run dtw --mode global -k 1 "$BEAT" "$ECG"
check_rc "global -k below: exit 1" 1

# --window: samples and fractions. Global: R = floor(f * max(m, n)). Two
# stretches of 1,000 samples: --window 0 is the diagonal alone, the sum of
# |a_i - b_i| (added in the same order as the DP adds it).
awk 'NR > 2 + 360 && NR <= 2 + 1360' "$ECG" >ecg360.txt
run dtw --mode global --window 0 ecg1000.txt ecg360.txt
cp "$OUT" w0.tsv
paste ecg1000.txt ecg360.txt | awk -F '\t' '{ d = $1 - $2; s += d < 0 ? -d : d } END { printf "%.17g\n", s }' >diag.txt
check_awk "global --window 0 = the diagonal" "BEGIN { getline want <\"diag.txt\" }"'
    $2 != 0 || $3 != 1000 || $4 + 0 != want + 0 { print "got " $0 ", the diagonal sums to " want }'
run dtw --mode global --window 0.0009 ecg1000.txt ecg360.txt       # floor(0.9) = 0
check_out "global --window 0.0009 = 0" w0.tsv
run dtw --mode global --window 20 ecg1000.txt ecg360.txt
cp "$OUT" w20.tsv
if cmp -s w20.tsv w0.tsv; then fail "global --window 20 = 0: the band does nothing"; else pass; fi
run dtw --mode global ecg1000.txt ecg360.txt
if cmp -s "$OUT" w20.tsv; then fail "global --window 20 = no band"; else pass; fi
run dtw --mode global --window 0.02 ecg1000.txt ecg360.txt          # 0.02 * 1000 = 20
check_out "global --window 0.02 = 20" w20.tsv
run dtw --mode global --window 2e-2 ecg1000.txt ecg360.txt
check_out "global --window 2e-2 = 20" w20.tsv
head -900 ecg360.txt >ecg360_900.txt                                # max(1000, 900) = 1000
run dtw --mode global --window 20 ecg1000.txt ecg360_900.txt
cp "$OUT" w20b.tsv
run dtw --mode global --window 0.0205 ecg1000.txt ecg360_900.txt
check_out "global --window: a fraction of the longer signal" w20b.tsv
run dtw --mode global --window 18 ecg1000.txt ecg360_900.txt        # 0.0205 * 900 would be 18
if cmp -s "$OUT" w20b.tsv; then fail "global --window 18 = 20: the check above cannot fail"; else pass; fi

# ucr: a window of the series, scaled and shifted, is found at its start.
awk 'NR > 2 + 5000 && NR <= 2 + 5250 { printf "%.17g\n", $1 * 2.5 + 3 }' "$ECG" >planted.txt
awk 'NR > 2 && NR <= 2 + 8000' "$ECG" >ecg8000.txt
run dtw --mode ucr planted.txt "$ECG"
check_rc "ucr planted" 0
check_awk "ucr planted: found at 5000, distance ~0" '$2 != 5000 || $3 != 5250 || $4 + 0 > 1e-9 { print "got " $0 }'
run dtw --mode ucr --window 0.1 --top 3 planted.txt ecg8000.txt    # 0.1 * 250 = 25
cp "$OUT" ucr25.tsv
check_awk "ucr --window 0.1 planted" 'NR == 1 && ($2 != 5000 || $4 + 0 > 1e-9) { print "got " $0 }'
run dtw --mode ucr --window 25 --top 3 planted.txt ecg8000.txt
check_out "ucr --window 0.1 = 25 (of the query's 250)" ucr25.tsv
run dtw --mode ucr --window 25 --top 3 --cost squared --backend cpu -j 1 planted.txt ecg8000.txt
check_out "ucr: squared is the default" ucr25.tsv
run dtw --mode ucr --window 25 --top 3 --cost abs planted.txt ecg8000.txt
if cmp -s "$OUT" ucr25.tsv; then fail "ucr --cost abs = squared"; else pass; fi
# a fraction gives each query its own radius: 0.1 of 250 and of 100
{ echo '>long'; cat planted.txt; echo '>short'; awk 'NR > 2 + 7000 && NR <= 2 + 7100' "$ECG"; } >q2len.txt
{ echo '>long'; cat planted.txt; } >q_long.txt
{ echo '>short'; awk 'NR > 2 + 7000 && NR <= 2 + 7100' "$ECG"; } >q_short.txt
run dtw --mode ucr --window 25 --top 2 q_long.txt ecg8000.txt
cp "$OUT" two.tsv
run dtw --mode ucr --window 10 --top 2 q_short.txt ecg8000.txt
cat "$OUT" >>two.tsv
run dtw --mode ucr --window 0.1 --top 2 q2len.txt ecg8000.txt
check_out "ucr --window 0.1: each query its own radius, file order" two.tsv
run dtw --mode ucr --length 200 --window 10 --top 2 --path planted.txt ecg8000.txt
check_awk "ucr --length 200" '{ if ($3 - $2 != 200) print "length " $3 - $2
    k = split($5, c, ","); split(c[1], f, ":"); split(c[k], l, ":")
    if (f[1] != 0 || f[2] != $2 || l[1] != 249 || l[2] != $3 - 1) print "path " c[1] " .. " c[k] }'

# --znorm: a scaled and shifted copy of the whole series matches it at 0.
awk 'NR > 2 { printf "%.17g\n", $1 * 3 - 1 }' "$ECG" | head -3000 >scaled3000.txt
awk 'NR > 2 && NR <= 3002' "$ECG" >ecg3000.txt
run dtw --znorm --mode global scaled3000.txt ecg3000.txt
check_awk "--znorm global: scaled copy at ~0" '$4 + 0 > 1e-9 { print "got " $0 }'
run dtw --mode global scaled3000.txt ecg3000.txt
check_awk "without --znorm: far" '$4 + 0 < 1 { print "got " $0 }'

# ---- 6. consistency ----------------------------------------------------------------

# Three queries (the beat, its first half, a flat stretch) in the ECG, and a
# plateau series whose match is one path through 1000 cells.
{ echo '>beat'; grep -v '^[#>]' "$BEAT"
  echo '>half'; grep -v '^[#>]' "$BEAT" | head -120
  echo '>flat'; for i in $(seq 30); do echo -0.3; done; } >qmulti.txt
awk 'NR > 2 && NR <= 2 + 3000' "$ECG" >ecg_short.txt
awk 'BEGIN { split("1 3 5 3 1", v, " "); for (k = 1; k <= 5; k++) for (i = 0; i < 200; i++) print v[k] }' >plateau.txt
expect_match "plateau: one long path" '0 199 801 0' dtw --backend cpu -j 1 x.txt plateau.txt

have_gpu || echo "test_dtw.sh: no GPU in 'warpmatch info': --backend cuda checks skipped"

# consistent NAME QUERY SERIES ARGS...: the same bytes for --backend cpu
# with each setting in $CFGS ("-j 1" is the reference), and on the GPU.
consistent() {
    local name=$1 q=$2 s=$3 cfg
    shift 3
    run dtw --backend cpu -j 1 "$@" "$q" "$s"
    if [ "$RC" -gt 1 ]; then check_rc "$name: reference" 0; return; fi
    cp "$OUT" ref.tsv
    for cfg in $CFGS; do
        # shellcheck disable=SC2086
        run dtw --backend cpu ${cfg//_/ } "$@" "$q" "$s"
        check_out "$name: ${cfg//_/ }" ref.tsv
    done
    if have_gpu; then
        run dtw --backend cuda "$@" "$q" "$s"
        check_out "$name: cuda" ref.tsv
        run dtw --backend cuda --piece 7 "$@" "$q" "$s"
        check_out "$name: cuda --piece 7" ref.tsv
    fi
}
# the 21,600-sample ECG: pieces of 7 for one setting, of 64 for the others
CFGS="-j_3 -j_3_--piece_7 -j_2_--piece_64"
consistent "top 5 --path" qmulti.txt "$ECG" --top 5 --path
CFGS="-j_3 -j_2_--piece_64"
consistent "-k 3" qmulti.txt "$ECG" -k 3
consistent "--znorm --top 3" qmulti.txt "$ECG" --znorm --top 3
consistent "global, long" qmulti.txt "$ECG" --mode global
# its first 3,000 samples: pieces down to one sample
CFGS="-j_3 -j_3_--piece_1 -j_1_--piece_7 -j_2_--piece_64"
consistent "top 5 --path, short" qmulti.txt ecg_short.txt --top 5 --path
consistent "-k 2, short" qmulti.txt ecg_short.txt -k 2
consistent "global, short" qmulti.txt ecg_short.txt --mode global --path
consistent "squared --top 3, short" qmulti.txt ecg_short.txt --cost squared --top 3
consistent "ucr, short" qmulti.txt ecg_short.txt --mode ucr --window 0.05 --top 3
consistent "plateau" x.txt plateau.txt --path --top 2
# float32: the same bytes on every backend and cut
consistent "f32 top 5 --path, short" qmulti.txt ecg_short.txt --precision f32 --top 5 --path
consistent "f32 squared -k 3, short" qmulti.txt ecg_short.txt --precision f32 --cost squared -k 3
consistent "f32 global, short" qmulti.txt ecg_short.txt --precision f32 --mode global --path
CFGS="-j_3 -j_2_--piece_64"
consistent "f32 --znorm --top 3" qmulti.txt "$ECG" --precision f32 --znorm --top 3

# ---- 7. errors ---------------------------------------------------------------------

printf '1 3\n5 nan 1\n' >q_nan.txt
printf 'v\n1\n2\ninf\n' >y_inf.csv
printf '1 2 3x 4\n' >bad.txt
: >empty.txt
printf '# only a comment\n\n' >comment_only.txt
seq 1 20000 | gzip -c >long.gz
head -c 4000 long.gz >trunc.gz
npy '>f8' '(8,)' 1 2 3 4 4 2 1 2 >big_endian.npy
npy '<f8' '(2, 2, 2)' 1 2 3 4 4 2 1 2 >cube.npy
printf '1 2 3' >odd.f32

expect_error "NaN in the query" "^warpmatch: q_nan\.txt:2: sample 1 is NaN" dtw q_nan.txt y.txt
expect_error "Inf in a csv series" "^warpmatch: y_inf\.csv:4: sample 2 is Inf" dtw x.txt y_inf.csv
expect_error "malformed number" "^warpmatch: bad\.txt:1: '3x' is not a number" dtw x.txt bad.txt
expect_error "empty query file" "^warpmatch: empty\.txt: no samples" dtw empty.txt y.txt
expect_error "empty series file" "^warpmatch: empty\.txt: no samples" dtw x.txt empty.txt
expect_error "comments only" "^warpmatch: comment_only\.txt: no samples" dtw x.txt comment_only.txt
expect_error "big-endian .npy" "^warpmatch: big_endian\.npy: .*>f8" dtw x.txt big_endian.npy
expect_error "3-D .npy" "^warpmatch: cube\.npy: .*3 dimensions" dtw x.txt cube.npy
expect_error "truncated gzip" "^warpmatch: trunc\.gz: truncated gzip" dtw x.txt trunc.gz
expect_error "raw size" "^warpmatch: odd\.f32: .*multiple of 4" dtw --force-raw --format f32 x.txt odd.f32
expect_error "--dtype makes the query raw" "^warpmatch: x\.txt: .*multiple of 8" dtw --force-raw --dtype f64 x.txt y.f64
expect_error "csv, several columns" "^warpmatch: y3\.csv.* --column" dtw x.txt y3.csv
expect_error "csv, no such column" "^warpmatch: y3\.csv: .*'Z'" dtw --column Z x.txt y3.csv
expect_error "2-D .npy series without --column" "^warpmatch: y2d\.npy: .*--column" dtw x.txt y2d.npy
expect_error "no such file" "^warpmatch: nosuch\.txt: " dtw x.txt nosuch.txt
printf 'nan 1\n' >stdin_nan.txt
run_in stdin_nan.txt dtw - y.txt
check_rc "NaN on stdin" 2
check_err "NaN on stdin" "^warpmatch: \(standard input\):1: sample 0 is NaN"
expect_error "both stdin" "^warpmatch: .*both -" dtw - -
expect_error "--window, subsequence" "^warpmatch: --window needs --mode global or ucr" dtw --window 3 x.txt y.txt
expect_error "--window 1.5" "^warpmatch: invalid value '1.5' for --window" dtw --mode global --window 1.5 x.txt y.txt
expect_error "--window -1" "^warpmatch: invalid value '-1' for --window" dtw --mode global --window -1 x.txt y.txt
expect_error "--top 0" "^warpmatch: invalid value '0' for --top" dtw --top 0 x.txt y.txt
expect_error "--cost" "^warpmatch: unknown --cost 'manhattan' \(expected abs or squared\)" dtw --cost manhattan x.txt y.txt
expect_error "--mode" "^warpmatch: unknown --mode 'infix'" dtw --mode infix x.txt y.txt
expect_error "--format" "^warpmatch: unknown --format 'json'" dtw --format json x.txt y.txt
expect_error "--dtype" "^warpmatch: unknown --dtype 'f16'" dtw --dtype f16 x.txt y.txt
expect_error "--backend" "^warpmatch: unknown --backend 'gpu'" dtw --backend gpu x.txt y.txt
expect_error "-k nan" "^warpmatch: invalid value 'nan' for -k/--max-distance" dtw -k nan x.txt y.txt
expect_error "-k -1" "^warpmatch: invalid value '-1' for -k/--max-distance" dtw -k -1 x.txt y.txt
expect_error "-k inf" "^warpmatch: invalid value 'inf' for -k/--max-distance" dtw --max-distance inf x.txt y.txt
expect_error "-k 1x" "^warpmatch: invalid value '1x' for -k/--max-distance" dtw -k 1x x.txt y.txt
expect_error "--length, subsequence" "^warpmatch: --length is the window length of --mode ucr" dtw --length 3 x.txt y.txt
expect_error "--length 0" "^warpmatch: invalid value '0' for --length" dtw --mode ucr --length 0 x.txt y.txt
expect_error "ucr, window longer than the series" "^warpmatch: ucr mode: the window of 30 samples .* y\.txt \(8 samples\)" \
    dtw --mode ucr --length 30 x.txt y.txt
expect_error "ucr, query longer than the series" "^warpmatch: ucr mode: the window of 8 samples \(the length of query 0\)" \
    dtw --mode ucr y.txt x.txt
expect_error "--piece 0" "^warpmatch: invalid value '0' for --piece" dtw --piece 0 x.txt y.txt
expect_error "-j x" "^warpmatch: invalid value 'x' for -j/--threads" dtw -j x x.txt y.txt
expect_error "unknown option" "^warpmatch: unknown option '--frobnicate'" dtw --frobnicate x.txt y.txt
expect_error "option needs a value" "^warpmatch: option '--top' needs a value" dtw x.txt y.txt --top
expect_error "one argument" "^warpmatch: dtw needs a QUERY and a SERIES \(1 argument given\)" dtw x.txt
expect_error "three arguments" "^warpmatch: dtw needs a QUERY and a SERIES \(3 arguments given\)" dtw x.txt y.txt y.txt
expect_error "ucr in f32" "--precision f32: ucr mode runs in float64 only" \
    dtw --mode ucr --precision f32 x.txt y.txt
if ! have_gpu; then
    expect_error "--backend cuda without a GPU" "^warpmatch: cannot use the cuda backend" \
        dtw --backend cuda x.txt y.txt
fi

run dtw --help
check_rc "--help" 0
grep -q '^Usage: warpmatch dtw \[OPTIONS\] QUERY SERIES' "$OUT" && pass || fail "--help: no usage line"
grep -A1 -- '--piece N' "$OUT" | grep -q 'for testing' && pass ||
    fail "--help: --piece is not marked as for testing"

finish
