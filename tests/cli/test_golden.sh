#!/usr/bin/env bash
# test_golden.sh -- hand-checked outputs on tiny texts (see golden/README.md
# for how each expected line was derived): -k 1 edit and Hamming, the tie rule
# for start, BED and JSON Lines, FASTA records and their borders, IUPAC codes.
. "$(dirname "$0")/lib.sh" "$@"
cd "$GOLDEN" || exit 2

# ---- edit distance, Hamming, the shortest-occurrence tie rule ----
run search -k 1 abc tiny.txt
check_rc "tiny -k 1" 0
check_out "tiny -k 1" tiny_k1.tsv
check_no_err "tiny -k 1"

run search -k 1 --hamming abc tiny.txt
check_rc "tiny -k 1 --hamming" 0
check_out "tiny -k 1 --hamming" tiny_k1_hamming.tsv

run search --max-edits=1 ab tie.txt
check_rc "tie -k 1" 0
check_out "tie -k 1" tie_k1.tsv

run search -k1 --hamming ab tie.txt
check_rc "tie -k 1 --hamming" 0
check_out "tie -k 1 --hamming" tie_k1_hamming.tsv

run search abc tiny.txt
check_rc "tiny exact" 0
check_out_text "tiny exact" "tiny.txt${TAB}.${TAB}0${TAB}3${TAB}0${TAB}+"

# Every algorithm that can do the job gives the same lines.
for algo in bitap myers; do
    run search --algo $algo -k 1 abc tiny.txt
    check_out "tiny -k 1 --algo $algo" tiny_k1.tsv
done
run search --algo bitap -k 1 --hamming abc tiny.txt
check_out "tiny --hamming --algo bitap" tiny_k1_hamming.tsv
run search --algo shiftor abc tiny.txt
check_out_text "tiny --algo shiftor" "tiny.txt${TAB}.${TAB}0${TAB}3${TAB}0${TAB}+"

# ---- BED and JSON Lines ----
run search -k 1 --format bed abc tiny.txt
check_rc "tiny bed" 0
check_out "tiny bed" tiny_k1.bed

run search -k 1 --hamming --json abc tiny.txt
check_rc "tiny json" 0
check_out "tiny json" tiny_k1_hamming.jsonl
run search -k 1 --hamming --format json abc tiny.txt
check_out "tiny --format json" tiny_k1_hamming.jsonl

# ---- FASTA records: wrapped lines join, borders are never crossed ----
run search CATGGG recs.fa
check_rc "recs CATGGG" 0
check_out_text "recs CATGGG" "recs.fa${TAB}r3${TAB}3${TAB}9${TAB}0${TAB}+"

run search TACGGA recs.fa
check_rc "recs across a line break" 0
check_out_text "recs across a line break" "recs.fa${TAB}r1${TAB}7${TAB}13${TAB}0${TAB}+"

for k in 0 1; do
    run search -k $k GGATTTT recs.fa
    check_rc "recs straddling r1|r2, -k $k" 1
    check_empty_out "recs straddling r1|r2, -k $k"
    check_no_err "recs straddling r1|r2, -k $k"
done

run search --format bed CATGGG recs.fa
check_out_text "recs bed" "r3${TAB}3${TAB}9${TAB}CATGGG${TAB}0${TAB}+"

# ---- counts ----
run search -c GG recs.fa
check_rc "recs -c" 0
check_out_text "recs -c" "recs.fa${TAB}5"

run search -c --by-record GG recs.fa
check_rc "recs -c --by-record" 0
check_out "recs -c --by-record" recs_GG_by_record.tsv

run search --by-record GG recs.fa
check_out "recs --by-record alone" recs_GG_by_record.tsv

run search --count -k 1 abc tiny.txt tie.txt
check_rc "-c two files" 0
# tie.txt = aab: only e=3, ab [1,3), is within 1 of abc.
check_out_text "-c two files" "tiny.txt${TAB}5
tie.txt${TAB}1"

run search -c xyz tiny.txt
check_rc "-c no match" 1
check_out_text "-c no match" "tiny.txt${TAB}0"

# ---- IUPAC codes: N in the pattern matches any base, N in the text nothing ----
run search ACGN iupac.fa
check_rc "iupac ACGN" 0
check_out_text "iupac ACGN" "iupac.fa${TAB}n1${TAB}5${TAB}9${TAB}0${TAB}+"

run search --alphabet text ACGN iupac.fa
check_out_text "iupac ACGN as text" "iupac.fa${TAB}n1${TAB}0${TAB}4${TAB}0${TAB}+"

run search acgta iupac.fa
check_out_text "iupac lower-case pattern (dna ignores case)" "iupac.fa${TAB}n1${TAB}5${TAB}10${TAB}0${TAB}+"

run search --alphabet text acgta iupac.fa
check_rc "iupac lower-case as text" 1
run search --alphabet text -i acgta iupac.fa
check_out_text "iupac lower-case as text -i" "iupac.fa${TAB}n1${TAB}5${TAB}10${TAB}0${TAB}+"

run search RYS recs.fa
# R=A/G, Y=C/T, S=C/G: r1 ACGTACGTACGGA -> ACG [0,3) ACG [4,7) ACG [8,11);
# r2 TTTTGCAT -> none (GCA: A is not S); r3 GGGCATGGGA -> ATG [4,7) only
# (GCA: A is not S; CAT: C is not R; GGG: G is not Y).
check_out_text "iupac RYS" "recs.fa${TAB}r1${TAB}0${TAB}3${TAB}0${TAB}+
recs.fa${TAB}r1${TAB}4${TAB}7${TAB}0${TAB}+
recs.fa${TAB}r1${TAB}8${TAB}11${TAB}0${TAB}+
recs.fa${TAB}r3${TAB}4${TAB}7${TAB}0${TAB}+"

# ---- names longer than a row's buffer (out_search.c writes them apart) ----
long=r$(printf 'x%.0s' $(seq 1500))
printf '>%s\nACGTTACGT\n' "$long" >"$TMP/long.fa"
printf 'ACGT\nTAC\n' >"$TMP/long_set.txt"
run search ACGT "$TMP/long.fa"
check_out_text "a 1,501-byte record name" "$TMP/long.fa${TAB}$long${TAB}0${TAB}4${TAB}0${TAB}+
$TMP/long.fa${TAB}$long${TAB}5${TAB}9${TAB}0${TAB}+"
run search --format bed ACGT "$TMP/long.fa"
check_out_text "a 1,501-byte chrom in BED" "$long${TAB}0${TAB}4${TAB}ACGT${TAB}0${TAB}+
$long${TAB}5${TAB}9${TAB}ACGT${TAB}0${TAB}+"
run search -f "$TMP/long_set.txt" "$TMP/long.fa"
check_out_text "a set, a 1,501-byte record name" "$TMP/long.fa${TAB}$long${TAB}0${TAB}4${TAB}1
$TMP/long.fa${TAB}$long${TAB}4${TAB}7${TAB}2
$TMP/long.fa${TAB}$long${TAB}5${TAB}9${TAB}1"

finish
