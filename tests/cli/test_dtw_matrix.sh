#!/usr/bin/env bash
# test_dtw_matrix.sh -- `warpmatch dtw --mode matrix A [B]`: distance
# matrices, nearest neighbours and the 1-NN accuracy.
#
#  1. the UCR archive's published 1-NN accuracies on GunPoint (bundled in
#     data/signals) and the three other shared data sets, exactly: DTW with a full window, squared cost (the archive's
#     "DTW_F" error column): GunPoint 0.907 (136/150), ArrowHead 0.703
#     (123/175), ItalyPowerDemand 0.950 (978/1029), OSULeaf 0.591 (143/242);
#     and --window 0, which is the Euclidean distance ("ED"): 137/150,
#     140/175, 983/1029, 126/242;
#  2. every entry of a small matrix (signals of different lengths, both
#     costs, a band, --znorm) equals `dtw --mode global` on the pair, byte
#     for byte; A against itself is symmetric with 0 on the diagonal and
#     equals A against a copy of A; --window as a fraction of the longest
#     signal (a note when the lengths differ);
#  3. --knn: K lines a row, sorted by distance then index, never the row
#     itself for A against itself; the neighbours are the matrix's smallest
#     entries; labels (a '.' for an unlabelled side); JSON Lines parse;
#  4. --npy writes a version 1.0 .npy (header padded to 64 bytes) whose values
#     are the printed matrix's; --sqrt; a .csv name is rows of numbers;
#     --precision f32: each entry within 1e-5 of f64's, printed in at most 9
#     digits, and --npy as float32 with the same values;
#  5. --backend cpu with --threads 1 and 3, --gpus 0,0 when a GPU is found,
#     and --backend cuda print the same bytes, in both precisions;
#  6. errors: exit 2, nothing on stdout: --knn or --npy without matrix mode,
#     --top / --max-distance / --path / --length with it, three files, a NaN,
#     an empty line's signal, --knn 0, --precision f16, a sample past
#     FLT_MAX with --precision f32, a file that cannot be written.
. "$(dirname "$0")/lib.sh" "$@"
export LC_ALL=C
cd "$TMP" || exit 2
UCR=$SHARED/timeseries/ucr

# 1. the published accuracies (GunPoint is bundled; the others are shared)
for row in "GunPoint 136/150 137/150" "ArrowHead 123/175 140/175" \
    "ItalyPowerDemand 978/1029 983/1029" "OSULeaf 143/242 126/242"; do
    set -- $row
    dir=$UCR
    [ "$1" = GunPoint ] && dir=$DATA/signals
    if [ ! -f "$dir/$1_TEST.tsv" ]; then
        echo "note: $dir/$1_TEST.tsv absent, its published accuracies are not checked"
        continue
    fi
    run dtw --mode matrix --knn 1 --cost squared "$dir/$1_TEST.tsv" "$dir/$1_TRAIN.tsv"
    check_rc "$1 1-NN" 0
    check_err "$1 1-NN accuracy $2" "1-NN accuracy $2 = "
    # a band of radius 0 is the Euclidean distance: the archive's ED column
    run dtw --mode matrix --knn 1 --cost squared --window 0 "$dir/$1_TEST.tsv" "$dir/$1_TRAIN.tsv"
    check_err "$1 1-NN accuracy, radius 0 (Euclidean) $3" "1-NN accuracy $3 = "
done

# 2. entries against global mode; symmetry
awk 'BEGIN { srand(7); for (i = 0; i < 7; i++) { n = 3 + int(rand() * 40);
     line = ""; for (j = 0; j < n; j++) line = line (j ? " " : "") int(rand() * 9) / 4 - 1;
     print line } }' >sigs.txt
for i in 0 1 2 3 4 5 6; do sed -n "$((i + 1))p" sigs.txt >"s$i.txt"; done
for opts in "--cost abs" "--cost squared" "--cost squared --window 3" "--cost abs --znorm"; do
    run dtw --mode matrix $opts sigs.txt
    check_rc "matrix $opts" 0
    cp "$OUT" self.tsv
    bad=""
    for i in 0 1 2 3 4 5 6; do
        for j in 0 1 2 3 4 5 6; do
            [ "$i" = "$j" ] && continue
            want=$("$W" dtw --mode global $opts "s$i.txt" "s$j.txt" | cut -f4)
            got=$(awk -F '\t' -v r=$((i + 1)) -v c=$((j + 1)) 'NR == r { print $c }' self.tsv)
            [ "$want" = "$got" ] || bad="$bad ($i,$j: $got vs $want)"
        done
    done
    [ -z "$bad" ] && pass || fail "matrix $opts against global mode:$bad"
    msg=$(awk -F '\t' '{ for (j = 1; j <= NF; j++) v[NR, j] = $j; n = NR }
        END { for (i = 1; i <= n; i++) { if (v[i, i] != "0") print "diagonal " i;
              for (j = 1; j <= n; j++) if (v[i, j] != v[j, i]) print "asymmetric " i, j } }' self.tsv)
    [ -z "$msg" ] && pass || fail "matrix $opts: $msg"
    run dtw --mode matrix $opts sigs.txt sigs.txt
    check_out "matrix $opts: A x A = A against a copy" self.tsv
done
run dtw --mode matrix --window 0.1 sigs.txt
check_rc "--window 0.1" 0
check_err "--window 0.1: a note" "radius of [0-9]+ samples for every pair"
longest=$(awk '{ if (NF > m) m = NF } END { print m }' sigs.txt)
cp "$OUT" frac.tsv
run dtw --mode matrix --window $((longest / 10)) sigs.txt
check_out "--window 0.1 = the radius of the longest" frac.tsv

# 3. --knn
run dtw --mode matrix --cost squared sigs.txt
cp "$OUT" m.tsv
run dtw --mode matrix --cost squared --knn 3 sigs.txt
check_rc "--knn 3" 0
msg=$(awk -F '\t' 'NR == FNR { for (j = 1; j <= NF; j++) d[FNR - 1, j - 1] = $j; n = NF; next }
    { q = $1; k[q]++; if ($2 != k[q]) print "rank " $2 " of " q;
      if ($3 == q) print "itself: " q; if (d[q, $3] != $4) print "distance " q, $3;
      if (k[q] > 1 && ($4 + 0 < last[q] || ($4 + 0 == last[q] && $3 < lastj[q]))) print "order " q;
      last[q] = $4 + 0; lastj[q] = $3; seen[q, $3] = 1 }
    END { for (q = 0; q < n; q++) { if (k[q] != 3) print "count " q;
          # nothing left out is smaller than the third
          for (j = 0; j < n; j++) if (j != q && !seen[q, j] && d[q, j] + 0 < last[q]) print "missed " q, j } }' m.tsv "$OUT")
[ -z "$msg" ] && pass || fail "--knn 3: $msg"
printf '1\t1 2 3 4\n2\t5 5 5\n1\t1 2 3 3\n' >lab.tsv
printf '0 0 1\n5 5 6\n' >unlab.txt
run dtw --mode matrix --knn 1 --cost abs lab.tsv
check_rc "--knn labels" 0
check_tsv "--knn labels" <<<"0 1 2 1 1 1
1 1 0 10 2 1
2 1 0 1 1 1"
check_err "--knn: the accuracy of A against itself" "1-NN accuracy 2/3 = 0.666667 .*in the others"
run dtw --mode matrix --knn 1 lab.tsv unlab.txt
check_rc "--knn, B unlabelled" 0
check_out_re "--knn: an unlabelled side prints ." "^0${TAB}1${TAB}0${TAB}[0-9.]+${TAB}1${TAB}\.$"
run dtw --mode matrix --knn 2 --json lab.tsv
check_rc "--knn --json" 0
check_out_re "--knn --json" '^\{"query":0,"label":"1","rank":1,"neighbour":2,"neighbour_label":"1","distance":1\}$'
run dtw --mode matrix --json lab.tsv
check_out_re "--json matrix rows" '^\{"row":1,"label":"2","distances":\[[0-9.e+-]+(,[0-9.e+-]+){2}\]\}$'

# check_npy NAME FILE TSV DESCR PACK DIGITS: FILE is a version 1.0 .npy of
# the 7 x 7 matrix (header padded to 64 bytes, dtype <DESCR) whose values,
# read with perl's PACK and printed in DIGITS digits, are TSV's
check_npy() {
    local name=$1 file=$2 tsv=$3 descr=$4 pack=$5 digits=$6 head_ok
    head_ok=$(perl -e 'open F, "<", $ARGV[0] or die; binmode F; read F, $h, 10;
        my ($magic, $v1, $v2, $len) = unpack "a6 C C v", $h; read F, $d, $len;
        print $magic eq "\x93NUMPY" && $v1 == 1 && (10 + $len) % 64 == 0 &&
              $d =~ /^\{.descr.: .<$ARGV[1]., .fortran_order.: False, .shape.: \(7, 7\), \} *\n$/ ? "ok" : "bad"' \
        "$file" "$descr")
    [ "$head_ok" = ok ] && pass || fail "$name header"
    perl -e 'open F, "<", $ARGV[0]; binmode F; read F, $h, 10; ($len) = unpack "x8 v", $h;
        read F, $d, $len; local $/; $b = <F>; @v = unpack "$ARGV[1]<*", $b;
        while (@v) { print join("\t", map { sprintf "%.$ARGV[2]g", $_ } splice @v, 0, 7), "\n" }' \
        "$file" "$pack" "$digits" >npy.txt
    awk -F '\t' -v p="%.${digits}g" '{ for (j = 1; j <= NF; j++) printf "%s" p, (j > 1 ? "\t" : ""), $j; print "" }' \
        "$tsv" >tsvg.txt
    cmp -s npy.txt tsvg.txt && pass || fail "$name: values differ from the printed matrix"
}

# 4. --npy, --sqrt, .csv rows
run dtw --mode matrix --cost squared --npy m.npy sigs.txt
check_rc "--npy" 0
check_empty_out "--npy: nothing on stdout"
check_npy "--npy" m.npy m.tsv f8 d 17
run dtw --mode matrix --cost squared --sqrt sigs.txt
msg=$(awk -F '\t' 'NR == FNR { for (j = 1; j <= NF; j++) d[FNR, j] = $j; next }
    { for (j = 1; j <= NF; j++) { w = sqrt(d[FNR, j]); if ($j - w > 1e-12 || w - $j > 1e-12) print FNR, j } }' m.tsv "$OUT")
[ -z "$msg" ] && pass || fail "--sqrt: $msg"
tr ' ' ',' <sigs.txt >sigs.csv
run dtw --mode matrix --cost squared sigs.csv
check_out "a .csv name is rows of numbers" m.tsv

# 4b. --precision f32: distances as the shortest text of a float, --npy as
# float32 (the same values), within float rounding of f64's
run dtw --mode matrix --cost squared --precision f32 sigs.txt
check_rc "--precision f32" 0
cp "$OUT" m32.tsv
msg=$(awk -F '\t' 'NR == FNR { for (j = 1; j <= NF; j++) d[FNR, j] = $j; next }
    { for (j = 1; j <= NF; j++) { w = d[FNR, j]; t = w > $j ? w - $j : $j - w;
      if (t > 1e-5 * (w > 1 ? w : 1)) print FNR, j, w, $j } }' m.tsv m32.tsv)
[ -z "$msg" ] && pass || fail "--precision f32 far from f64: $msg"
msg=$(awk -F '\t' '{ for (j = 1; j <= NF; j++) { v = $j; sub(/^-/, "", v); sub(/e.*/, "", v);
      gsub(/[.]/, "", v); sub(/^0+/, "", v); if (length(v) > 9) print NR, j, $j } }' m32.tsv)
[ -z "$msg" ] && pass || fail "--precision f32 prints more than 9 digits: $msg"
run dtw --mode matrix --cost squared --precision f32 --npy m32.npy sigs.txt
check_rc "--precision f32 --npy" 0
check_npy "--precision f32 --npy" m32.npy m32.tsv f4 f 9

# 5. backends
run dtw --mode matrix --cost squared --window 2 --backend cpu --threads 1 sigs.txt sigs.txt
cp "$OUT" ref.tsv
for b in "--backend cpu --threads 3" "--backend cpu --gpus 0,0,0"; do
    run dtw --mode matrix --cost squared --window 2 $b sigs.txt sigs.txt
    check_out "$b" ref.tsv
done
run dtw --mode matrix --precision f32 --backend cpu --threads 1 sigs.txt sigs.txt
cp "$OUT" ref32.tsv
run dtw --mode matrix --precision f32 --backend cpu --threads 3 sigs.txt sigs.txt
check_out "--precision f32, 3 threads" ref32.tsv
if have_gpu; then
    for b in "--backend cuda" "--backend cuda --gpus 0,0"; do
        run dtw --mode matrix --cost squared --window 2 $b sigs.txt sigs.txt
        check_out "$b" ref.tsv
        run dtw --mode matrix --precision f32 $b sigs.txt sigs.txt
        check_out "--precision f32 $b" ref32.tsv
    done
    if [ -f "$UCR/ACSF1_TRAIN.tsv" ]; then
        for c in abs squared; do
            run dtw --mode matrix --cost $c --backend cpu "$UCR/OSULeaf_TEST.tsv" "$UCR/ACSF1_TRAIN.tsv"
            cp "$OUT" ucr_cpu.tsv
            run dtw --mode matrix --cost $c --backend cuda "$UCR/OSULeaf_TEST.tsv" "$UCR/ACSF1_TRAIN.tsv"
            check_out "OSULeaf x ACSF1 ($c): cuda = cpu" ucr_cpu.tsv
            run dtw --mode matrix --cost $c --precision f32 --backend cpu \
                "$UCR/OSULeaf_TEST.tsv" "$UCR/ACSF1_TRAIN.tsv"
            cp "$OUT" ucr_cpu32.tsv
            run dtw --mode matrix --cost $c --precision f32 --backend cuda \
                "$UCR/OSULeaf_TEST.tsv" "$UCR/ACSF1_TRAIN.tsv"
            check_out "OSULeaf x ACSF1 ($c, f32): cuda = cpu" ucr_cpu32.tsv
        done
    fi
fi

# 6. errors
expect_error "--knn without matrix" "--knn needs --mode matrix" dtw --knn 1 s0.txt s1.txt
expect_error "--npy without matrix" "--npy needs --mode matrix" dtw --npy x.npy s0.txt s1.txt
for f in "--top 2" "--max-distance 1" "--path" "--length 3"; do
    expect_error "matrix with $f" "${f%% *}: --mode matrix prints every pair" \
        dtw --mode matrix $f sigs.txt
done
expect_error "three files" "needs A, or A and B \(3 arguments" dtw --mode matrix s0.txt s1.txt s2.txt
expect_error "no file" "needs A, or A and B \(0 arguments" dtw --mode matrix
printf '1 2 3\n4 nan 6\n' >nan.txt
expect_error "a NaN" "nan.txt:2: sample 1 is NaN" dtw --mode matrix nan.txt
expect_error "--knn 0" "invalid value '0' for --knn" dtw --mode matrix --knn 0 sigs.txt
expect_error "--precision f16" "unknown --precision 'f16' \(expected f64 or f32\)" dtw --mode matrix --precision f16 sigs.txt
printf '1 2 3\n4 1e39 6\n' >huge.txt
expect_error "--precision f32, 1e39" "huge.txt: a\[1\]: sample 1 \(1e\+39\) is outside float32's range" \
    dtw --mode matrix --precision f32 huge.txt
expect_error "--npy into a missing folder" "cannot write no/such/dir.npy" \
    dtw --mode matrix --npy no/such/dir.npy sigs.txt

finish
