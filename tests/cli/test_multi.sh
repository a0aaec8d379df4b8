#!/usr/bin/env bash
# test_multi.sh -- pattern sets: `search -f FILE` and `-e P -e P ...`.
# Hand-worked outputs on tiny inputs (overlaps, duplicates, prefixes and
# suffixes, -e/-f order, FASTA names, -i, --revcomp strands, record borders),
# the count modes, JSON and BED, the pattern file rules (gzip, stdin, NUL,
# '\r', length limit), every error with its message and exit 2, and on random
# and DNA sets: an awk oracle, `grep -o -F` counts, and identical output for
# every --algo, thread count and chunk size.
. "$(dirname "$0")/lib.sh" "$@"
export LC_ALL=C
cd "$TMP" || exit 2
cp "$GOLDEN/recs.fa" recs.fa

printf 'abcabcab' >t.txt            # a0 b1 c2 a3 b4 c5 a6 b7
printf 'aaaa' >a.txt
printf 'xabcdx' >x.txt              # x0 a1 b2 c3 d4 x5

# ---- hand-worked outputs ----------------------------------------------------

# Two -e make a set; a duplicate is reported under each of its numbers.
run search -e abc -e bca -e ab -e abc t.txt
check_rc "-e x4, duplicate" 0
check_no_err "-e x4, duplicate"
check_tsv "-e x4, duplicate" <<'EOF'
t.txt . 0 2 3
t.txt . 0 3 1
t.txt . 0 3 4
t.txt . 1 4 2
t.txt . 3 5 3
t.txt . 3 6 1
t.txt . 3 6 4
t.txt . 4 7 2
t.txt . 6 8 3
EOF

# A single -e is still the one-pattern mode (errors and strand columns).
run search -e abc t.txt
check_tsv "single -e unchanged" <<'EOF'
t.txt . 0 3 0 +
t.txt . 3 6 0 +
EOF

# Overlapping occurrences, of one pattern and of two.
run search -e aa -e aaa a.txt
check_tsv "overlaps" <<'EOF'
a.txt . 0 2 1
a.txt . 1 3 1
a.txt . 0 3 2
a.txt . 2 4 1
a.txt . 1 4 2
EOF

# Patterns that are prefixes and suffixes of each other; the last line of the
# file has no '\n'.
printf 'abcd\nabc\nbcd\nd\nab' >ps.txt
run search -f ps.txt x.txt
check_tsv "prefixes and suffixes" <<'EOF'
x.txt . 1 3 5
x.txt . 1 4 2
x.txt . 1 5 1
x.txt . 2 5 3
x.txt . 4 5 4
EOF
cp "$TMP/expect" ps.expect

# -e and -f interleaved: numbered in argv order.
printf 'ab\nc' >ps2.txt
run search -e d -f ps2.txt -e x x.txt
check_tsv "-e -f -e order" <<'EOF'
x.txt . 0 1 4
x.txt . 1 3 2
x.txt . 3 4 3
x.txt . 4 5 1
x.txt . 5 6 4
EOF
# Options after the files (GNU getopt order) number the same way.
cp "$TMP/expect" order.expect
run search x.txt -e d -f ps2.txt -e x
check_out "-e -f -e order, options last" order.expect

# FASTA patterns print their names; hits across record borders are not matches
# (GGATTTT and CATGGG span r1|r2 and r2|r3 of the joined text; see golden/README).
printf '>border1 spans r1|r2\nGGATTTT\n>gcat\nGC\nAT\n\n>cat6\nCATGGG\n>acg\nACG\n' >names.fa
run search -f names.fa recs.fa
check_rc "FASTA names, record borders" 0
check_tsv "FASTA names, record borders" <<'EOF'
recs.fa r1 0 3 acg
recs.fa r1 4 7 acg
recs.fa r1 8 11 acg
recs.fa r2 4 8 gcat
recs.fa r3 2 6 gcat
recs.fa r3 3 9 cat6
EOF
cp "$TMP/expect" names.expect
gzip -c names.fa >names.fa.gz
run search -f names.fa.gz recs.fa
check_out "gzip FASTA pattern file" names.expect
gzip -c ps.txt >ps.gz
run search -f ps.gz x.txt
check_out "gzip pattern file" ps.expect

# Names and numbers mixed: -e patterns keep their numbers.
run search -e TTTTG -f names.fa recs.fa
check_tsv "names and numbers" <<'EOF'
recs.fa r1 0 3 acg
recs.fa r1 4 7 acg
recs.fa r1 8 11 acg
recs.fa r2 0 5 1
recs.fa r2 4 8 gcat
recs.fa r3 2 6 gcat
recs.fa r3 3 9 cat6
EOF

# --revcomp: a sixth column; ACGT is its own reverse complement, so both
# strands at one place; sorted by end, pattern, strand.
run search --revcomp -e ACG -e GCAT -e TTTTG -e ACGT recs.fa
check_rc "--revcomp" 0
check_tsv "--revcomp" <<'EOF'
recs.fa r1 0 3 1 +
recs.fa r1 1 4 1 -
recs.fa r1 0 4 4 +
recs.fa r1 0 4 4 -
recs.fa r1 4 7 1 +
recs.fa r1 5 8 1 -
recs.fa r1 4 8 4 +
recs.fa r1 4 8 4 -
recs.fa r1 8 11 1 +
recs.fa r2 0 5 3 +
recs.fa r2 4 8 2 +
recs.fa r3 2 6 2 +
EOF

# -i folds case; without it nothing matches (exit 1, no output, no message).
run search -i -e ABC -e Bc t.txt
check_tsv "-i" <<'EOF'
t.txt . 0 3 1
t.txt . 1 3 2
t.txt . 3 6 1
t.txt . 4 6 2
EOF
run search -e ABC -e Bc t.txt
check_rc "no match" 1
check_empty_out "no match"
check_no_err "no match"

# --alphabet auto: an A/C/G/T set in a FASTA file is DNA (soft-masked bases
# match); text compares bytes.
printf '>s\nacgtNNACGT\n' >soft.fa
run search -e ACGT -e GT soft.fa
check_tsv "auto alphabet dna" <<'EOF'
soft.fa s 0 4 1
soft.fa s 2 4 2
soft.fa s 6 10 1
soft.fa s 8 10 2
EOF
run search --alphabet text -e ACGT -e GT soft.fa
check_tsv "--alphabet text" <<'EOF'
soft.fa s 6 10 1
soft.fa s 8 10 2
EOF
# The data decides, not the patterns: GTN cannot be a DNA set pattern, so
# auto refuses the DNA file rather than search it with other case rules.
expect_error "auto: DNA data, a set pattern not ACGTU" \
    '^warpmatch: soft\.fa: the data is DNA \(--alphabet auto\) but the set mixes patterns of A, C, G, T, U only with others; give --alphabet text' \
    search -e ACGT -e GTN soft.fa
run search --alphabet text -e ACGT -e GTN soft.fa
check_tsv "--alphabet text (N in a pattern)" <<'EOF'
soft.fa s 6 10 1
EOF

# Any byte: NUL inside a pattern, and a '\r' before '\n' kept (as grep -F).
printf 'a\000b\nzz\n' >nul.pat
printf 'xa\000by' >nul.txt
run search -f nul.pat nul.txt
check_tsv "NUL in a pattern" <<'EOF'
nul.txt . 1 4 1
EOF
printf 'ab\r\nzz\r\n' >crlf.pat
run search -f crlf.pat t.txt
check_rc "CRLF pattern file: '\\r' kept" 1
printf 'ab\rab' >cr.txt
run search -f crlf.pat cr.txt
check_tsv "CRLF pattern file matches '\\r'" <<'EOF'
cr.txt . 0 3 1
EOF

# Patterns from standard input; several text files in order.
run_in ps2.txt search -f - x.txt t.txt
check_rc "-f -" 0
check_tsv "-f -" <<'EOF'
x.txt . 1 3 1
x.txt . 3 4 2
t.txt . 0 2 1
t.txt . 2 3 2
t.txt . 3 5 1
t.txt . 5 6 2
t.txt . 6 8 1
EOF
# Text from standard input with patterns from a file.
run_in x.txt search -f ps2.txt
check_tsv "text on stdin" <<'EOF'
- . 1 3 1
- . 3 4 2
EOF

# ---- counts --------------------------------------------------------------------

run search -c -e abc -e bca -e ab -e abc -e zzz t.txt x.txt a.txt
check_rc "-c" 0
check_tsv "-c" <<'EOF'
t.txt 9
x.txt 3
a.txt 0
EOF
run search --count-per-pattern -e abc -e bca -e ab -e abc -e zzz t.txt x.txt
check_tsv "--count-per-pattern" <<'EOF'
t.txt 1 2
t.txt 2 2
t.txt 3 3
t.txt 4 2
x.txt 1 1
x.txt 3 1
x.txt 4 1
EOF
run search --count-per-pattern --all-patterns -e abc -e bca -e ab -e abc -e zzz t.txt
check_tsv "--all-patterns" <<'EOF'
t.txt 1 2
t.txt 2 2
t.txt 3 3
t.txt 4 2
t.txt 5 0
EOF
run search --all-patterns -f names.fa recs.fa
check_tsv "--all-patterns with names (implies --count-per-pattern)" <<'EOF'
recs.fa border1 0
recs.fa gcat 2
recs.fa cat6 1
recs.fa acg 3
EOF
run search --count-per-pattern -e zz -e yy t.txt
check_rc "--count-per-pattern, none" 1
check_empty_out "--count-per-pattern, none"
run search -c --by-record -f names.fa recs.fa
check_tsv "-c --by-record" <<'EOF'
recs.fa r1 3
recs.fa r2 1
recs.fa r3 2
EOF
run search -q -f names.fa recs.fa
check_rc "-q" 0
check_empty_out "-q"
run search -q -e zz -e yy t.txt
check_rc "-q, none" 1

# ---- JSON Lines and BED ----------------------------------------------------------

run search --json -e TTTTG -f names.fa recs.fa
check_out_text "--json" '{"type":"begin","source":"recs.fa"}
{"type":"match","source":"recs.fa","record":"r1","start":0,"end":3,"pattern":"acg","strand":"+"}
{"type":"match","source":"recs.fa","record":"r1","start":4,"end":7,"pattern":"acg","strand":"+"}
{"type":"match","source":"recs.fa","record":"r1","start":8,"end":11,"pattern":"acg","strand":"+"}
{"type":"match","source":"recs.fa","record":"r2","start":0,"end":5,"pattern":1,"strand":"+"}
{"type":"match","source":"recs.fa","record":"r2","start":4,"end":8,"pattern":"gcat","strand":"+"}
{"type":"match","source":"recs.fa","record":"r3","start":2,"end":6,"pattern":"gcat","strand":"+"}
{"type":"match","source":"recs.fa","record":"r3","start":3,"end":9,"pattern":"cat6","strand":"+"}
{"type":"end","source":"recs.fa","matches":7}
{"type":"summary","matches":7,"sources":1,"bytes":31}'
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' <"$OUT" && pass ||
        fail "--json: not JSON Lines"
fi
run search --format bed -e TTTTG -f names.fa recs.fa
check_tsv "--format bed" <<'EOF'
r1 0 3 acg 0 +
r1 4 7 acg 0 +
r1 8 11 acg 0 +
r2 0 5 1 0 +
r2 4 8 gcat 0 +
r3 2 6 gcat 0 +
r3 3 9 cat6 0 +
EOF

# ---- independent expectations ------------------------------------------------------

# oracle SOURCE TEXT PATFILE: every occurrence (overlapping) of every line of
# PATFILE in the one-line TEXT, as set-mode TSV sorted by end, then pattern.
oracle() {
    awk -v src="$1" -v OFS='\t' '
        NR == FNR { pat[++np] = $0; next }
        { text = text $0 }
        END {
            for (i = 1; i <= np; i++) {
                p = pat[i]; off = 0
                while ((j = index(substr(text, off + 1), p)) > 0) {
                    s = off + j - 1
                    print src, ".", s, s + length(p), i
                    off = s + 1
                }
            }
        }' "$3" "$2" | sort -t "$TAB" -k4,4n -k5,5n
}

# A random text over a small alphabet (dense overlapping matches) and 80
# random patterns of 1 to 6 letters (one letter never in the text).
awk 'BEGIN { srand(7); for (i = 0; i < 4000; i++) printf "%s", substr("aabc", int(rand() * 4) + 1, 1) }' >r.txt
awk 'BEGIN { srand(11); for (i = 0; i < 80; i++) { L = 1 + int(rand() * 6); s = "";
             for (j = 0; j < L; j++) s = s substr("abcd", int(rand() * 4) + 1, 1); print s } }' >r.pat
oracle r.txt r.txt r.pat >r.expect
run search -f r.pat r.txt
check_rc "random set vs oracle" 0
check_out "random set vs oracle" r.expect
awk -F '\t' '{ n[$5]++ } END { for (i in n) print "r.txt", i, n[i] }' r.expect |
    sort -k2,2n | tr ' ' '\t' >r.counts
run search --count-per-pattern -f r.pat r.txt
check_out "random set, --count-per-pattern vs oracle" r.counts
run search -c -f r.pat r.txt
check_out_text "random set, -c vs oracle" "r.txt${TAB}$(wc -l <r.expect | tr -d ' ')"

# grep -o -F finds all occurrences of a pattern that cannot overlap itself.
i=0
while IFS= read -r p; do
    i=$((i + 1))
    case $p in a | b | c | d | ab | abc | abcb | bca | cab) ;; *) continue ;; esac
    want=$(grep -o -F -e "$p" r.txt | wc -l | tr -d ' ')
    got=$(awk -F '\t' -v i="$i" '$2 == i { print $3 }' r.counts)
    [ "${got:-0}" = "$want" ] && pass || fail "grep -o -F -e $p: $want, ours ${got:-0}"
done <r.pat

# Every algorithm, thread count and chunk size: the same bytes. qgram needs
# patterns of 4+ bytes, so it runs on a second set.
for al in auto ac pfac wumanber wumanber-paper teddy; do
    for ex in "-j 1" "-j 3 --chunk-bytes 7" "-j 2 --chunk-bytes 1"; do
        run search --backend cpu $ex --algo $al -f r.pat r.txt
        check_out "random set, --algo $al $ex" r.expect
    done
done

# DNA: 300 8- to 12-mers sampled from lambda (plus 20 random ones), the one
# record searched as DNA, against the oracle on its joined sequence.
grep -v '^>' "$DATA/lambda_phage.fa" | tr -d '\n\r' >lambda.seq
LREC=$(head -1 "$DATA/lambda_phage.fa" | cut -c2- | cut -d' ' -f1)
awk 'BEGIN { srand(3) } { t = $0 } END { n = length(t);
     for (i = 0; i < 300; i++) { L = 8 + int(rand() * 5); print substr(t, 1 + int(rand() * (n - L)), L) }
     for (i = 0; i < 20; i++) { s = ""; for (j = 0; j < 10; j++) s = s substr("ACGT", int(rand() * 4) + 1, 1); print s } }' \
    lambda.seq >dna.pat
oracle "$DATA/lambda_phage.fa" lambda.seq dna.pat | sed "s/${TAB}\\.${TAB}/${TAB}${LREC}${TAB}/" >dna.expect
run search -f dna.pat "$DATA/lambda_phage.fa"
check_out "DNA set vs oracle" dna.expect
for al in ac pfac wumanber wumanber-paper qgram; do
    for ex in "-j 1" "-j 3 --chunk-bytes 100" "-j 3 --chunk-bytes 5"; do
        for alpha in auto text; do
            run search --backend cpu $ex --algo $al --alphabet $alpha -f dna.pat "$DATA/lambda_phage.fa"
            check_out "DNA set, --algo $al --alphabet $alpha $ex" dna.expect
        done
    done
done
gzip -c dna.pat >dna.pat.gz
run search -f dna.pat.gz "$DATA/lambda_phage.fa"
check_out "DNA set from gzip" dna.expect

# Many patterns: 20,000 lines (the arrays grow, ids stay in order).
awk 'BEGIN { srand(5); for (i = 0; i < 20000; i++) { s = ""; for (j = 0; j < 12; j++)
     s = s substr("ACGT", int(rand() * 4) + 1, 1); print s } }' >many.pat
cat dna.pat >>many.pat
run search --count-per-pattern -f dna.pat "$DATA/lambda_phage.fa"
awk -F '\t' -v OFS='\t' '{ $2 += 20000; print }' "$OUT" >many.expect
run search --count-per-pattern -f many.pat "$DATA/lambda_phage.fa"
check_rc "20,320 patterns" 0
awk -F '\t' '$2 > 20000' "$OUT" >many.got
OUT=many.got
check_out "20,320 patterns: the last 320 counted as alone" many.expect

# ---- errors: "warpmatch: ..." and exit 2, before any text is searched ----------------

printf 'ab\n\ncd\n' >emptyline.pat
run search -f emptyline.pat t.txt
check_rc "empty line" 2
check_err "empty line" '^warpmatch: emptyline\.pat:2: empty pattern$'
check_empty_out "empty line"

: >empty.pat
run search -f empty.pat t.txt
check_rc "empty pattern file" 2
check_err "empty pattern file" '^warpmatch: empty\.pat: no patterns'

run search -f nosuch.pat t.txt
check_rc "missing pattern file" 2
check_err "missing pattern file" '^warpmatch: nosuch\.pat: '
check_empty_out "missing pattern file"

printf '>a\nAC\n>b\n\n>c\nGT\n' >emptyrec.fa
run search -f emptyrec.fa t.txt
check_rc "empty FASTA record" 2
check_err "empty FASTA record" '^warpmatch: emptyrec\.fa:3: empty pattern'
printf '>\nAC\n' >noname.fa
run search -f noname.fa t.txt
check_rc "FASTA header without a name" 2
check_err "FASTA header without a name" '^warpmatch: noname\.fa:1: .*no name'

{ printf 'ab\n'; head -c 65537 /dev/zero | tr '\0' a; printf '\n'; } >long.pat
run search -f long.pat t.txt
check_rc "pattern too long" 2
check_err "pattern too long" '^warpmatch: long\.pat:2: pattern of 65537 bytes; the longest allowed is 65536$'

run search -e abc -e '' t.txt
check_rc "empty -e" 2
check_err "empty -e" '^warpmatch: .*empty pattern'

# -k > 0: a set within k errors (tests/cli/test_set_k.sh checks it against
# each pattern alone); here only what the options do to it.
run search -k 1 -e abc -e bca t.txt
check_rc "-k 1 with a set" 0
run search -k 1 --algo bitap -e abc -e bca t.txt
check_rc "-k 1 --algo bitap with a set" 2
check_err "-k 1 --algo bitap with a set" '^warpmatch: --algo bitap: a pattern set within k errors takes auto'
run search -k 3 -e abc -e bcab t.txt
check_rc "-k 3 with a 3-byte pattern" 2
check_err "-k 3 with a 3-byte pattern" '^warpmatch: -k 3 is not less than the length of pattern 1 '
run search -k 0 -e abc -e bca t.txt
check_rc "-k 0 with a set" 0
# --hamming at k = 0: the exact set (the metric changes nothing)
run search -f ps.txt t.txt
cp "$OUT" "$TMP/exact.out"
run search --hamming -f ps.txt t.txt
check_rc "--hamming with an exact set" 0
check_out "--hamming with an exact set" "$TMP/exact.out"

for al in shiftor bitap myers; do
    run search --algo $al -e abc -e bca t.txt
    check_rc "--algo $al with a set" 2
    check_err "--algo $al with a set" "^warpmatch: --algo $al "
done
for al in ac pfac wumanber wumanber-paper qgram teddy; do
    run search --algo $al abc t.txt
    check_rc "--algo $al with one pattern" 2
    check_err "--algo $al with one pattern" "^warpmatch: --algo $al is for pattern sets"
done
seq 1 257 | sed 's/^/w/' >many.pat
run search --algo teddy -f many.pat x.txt
check_rc "--algo teddy, 257 patterns" 2
check_err "--algo teddy, 257 patterns" '^warpmatch: --algo teddy takes sets of up to 256 patterns; this one has 257'
run search --algo qgram -f ps.txt x.txt
check_rc "--algo qgram, a short pattern" 2
check_err "--algo qgram, a short pattern" '^warpmatch: --algo qgram .*pattern 2 \(ps\.txt:2\)'

printf 'ACGT\nACGN\n' >notdna.pat
run search --revcomp -e ACG -f notdna.pat recs.fa
check_rc "--revcomp, not A/C/G/T" 2
check_err "--revcomp, not A/C/G/T" '^warpmatch: --revcomp .*pattern 3 \(notdna\.pat:2\)'
run search --revcomp -e ACG -e hello recs.fa
check_rc "--revcomp, -e not A/C/G/T" 2
check_err "--revcomp, -e not A/C/G/T" '^warpmatch: --revcomp .*pattern 2 \(-e\)'
printf '>ok\nACGT\n>bad one\nAC\nGR\n' >notdna.fa
run search --revcomp -f notdna.fa recs.fa
check_err "--revcomp, FASTA name in the message" "pattern 2 'bad' \\(notdna\\.fa:3\\)"
run search --alphabet dna -f notdna.pat recs.fa
check_rc "--alphabet dna, not A/C/G/T" 2
check_err "--alphabet dna, not A/C/G/T" '^warpmatch: --alphabet dna .*pattern 2'

run_in ps.txt search -f -
check_rc "-f - with the text on stdin" 2
check_err "-f - with the text on stdin" '^warpmatch: -f - .*standard input'
run_in ps.txt search -f - t.txt -
check_rc "-f - with FILE -" 2
run_in ps.txt search -f - -f - t.txt
check_rc "-f - twice" 2

run search -c --json -f ps.txt t.txt
check_rc "-c --json" 2
run search --count-per-pattern --format bed -f ps.txt t.txt
check_rc "--count-per-pattern --format bed" 2
check_err "--count-per-pattern --format bed" '^warpmatch: --count-per-pattern '
run search --count-per-pattern --by-record -f ps.txt t.txt
check_rc "--count-per-pattern --by-record" 2

# A missing text file: reported, the other files still searched, exit 2.
run search -f ps2.txt x.txt nofile.txt x.txt
check_rc "missing text file" 2
check_err "missing text file" '^warpmatch: .*nofile\.txt'
check_tsv "missing text file" <<'EOF'
x.txt . 1 3 1
x.txt . 3 4 2
x.txt . 1 3 1
x.txt . 3 4 2
EOF

# --help tells about sets.
run search --help
for want in '-f, --file' '--count-per-pattern' '--all-patterns' 'wumanber-paper' \
            'qgram' 'Pattern sets' 'grep -F' 'first byte is .>.'; do
    grep -q -- "$want" "$OUT" && pass || fail "search --help lacks /$want/"
done

finish
