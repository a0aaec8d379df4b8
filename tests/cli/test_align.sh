#!/usr/bin/env bash
# test_align.sh -- `warpmatch align QUERY TARGET`: hand-worked alignments of
# literals and files (every column, --cigar, --all-ends, -k on both sides of
# the distance, the tie rule, a query longer than the target, alphabets and
# case, --mode global), FASTA/FASTQ/plain/gzip/stdin inputs and record names,
# all-vs-all order and --pairs, JSON Lines, every input error with its message
# and exit 2; then on random DNA: each CIGAR replayed against its sequences,
# -k as a filter, the same bytes for every --algo, thread count and backend,
# `search` as an independent check of ends, starts and distances; and a
# 200-base slice of the lambda genome with three edits found at its origin.
. "$(dirname "$0")/lib.sh" "$@"
export LC_ALL=C
cd "$TMP" || exit 2

# check_cigars NAME QFASTA TFASTA: every line of the last run's stdout
# (query target distance start end cigar strand qlen) replays (the
# reverse complement of the query on strand -): the CIGAR is well formed
# (runs of = X I D, each op once in a row), '=' pairs equal bytes and 'X'
# unequal ones, it spans the whole query and target[start, end) of the named
# records, and its X + I + D is the distance.
check_cigars() {
    local bad
    bad=$(awk -F '\t' '
        function load(f, arr,    line, name) {
            while ((getline line < f) > 0) {
                if (substr(line, 1, 1) == ">") {
                    name = substr(line, 2); sub(/[ \t].*/, "", name); arr[name] = ""
                } else {
                    arr[name] = arr[name] line
                }
            }
        }
        function revcomp(s,    r, i, c) {
            r = ""
            for (i = length(s); i > 0; i--) {
                c = substr(s, i, 1)
                r = r (c == "A" ? "T" : c == "C" ? "G" : c == "G" ? "C" : c == "T" ? "A" : c)
            }
            return r
        }
        BEGIN { load(ARGV[1], Q); load(ARGV[2], T); ARGV[1] = ""; ARGV[2] = "" }
        {
            q = Q[$1]; t = substr(T[$2], $4 + 1, $5 - $4); c = $6
            if ($7 == "-") q = revcomp(q)
            i = 1; j = 1; cost = 0; why = ""; prev = ""
            if (!($1 in Q) || !($2 in T)) why = "unknown record"
            while (c != "" && why == "") {
                if (!match(c, /^[1-9][0-9]*[=XID]/)) { why = "bad CIGAR syntax"; break }
                n = substr(c, 1, RLENGTH - 1) + 0; op = substr(c, RLENGTH, 1)
                c = substr(c, RLENGTH + 1)
                if (op == prev) why = "two " op " runs in a row"
                prev = op
                for (k = 0; k < n; k++) {
                    a = substr(q, i, 1); b = substr(t, j, 1)
                    if (op == "=" || op == "X") {
                        if (a == "" || b == "") why = "past the end"
                        else if ((op == "=") != (a == b)) why = op " on " a "/" b
                        i++; j++; cost += op == "X"
                    } else if (op == "I") { i++; cost++ } else { j++; cost++ }
                }
            }
            if (why == "" && (i != length(q) + 1 || j != length(t) + 1)) why = "lengths differ"
            if (why == "" && cost != $3) why = "costs " cost
            if (why != "") { print NR ": " why ": " $0; exit }
        }' "$2" "$3" "$OUT")
    if [ -z "$bad" ] && [ -s "$OUT" ]; then
        pass
    else
        fail "$1: CIGAR does not replay: ${bad:-no output}"
    fi
}

# ---- hand-worked literals ----------------------------------------------------------

# ACGT sits exactly at [2,6) of TTACGTTT.
run align seq:ACGT seq:TTACGTTT
check_rc "exact" 0
check_no_err "exact"
check_tsv "exact" <<'EOF'
query target 0 2 6 + 4
EOF
run align --cigar seq:ACGT seq:TTACGTTT
check_tsv "exact --cigar" <<'EOF'
query target 0 2 6 4= + 4
EOF

# GGACTTGG (G0 G1 A2 C3 T4 T5 G6 G7): ACT [2,5) is 1 (G absent from the
# target: I) and ACTT [2,6) is 1 (G/T mismatch); nothing ending before 5 is
# within 1. The leftmost end wins; --all-ends gives both, in end order.
run align --cigar seq:ACGT seq:GGACTTGG
check_rc "one edit" 0
check_tsv "one edit, leftmost end" <<'EOF'
query target 1 2 5 2=1I1= + 4
EOF
run align --cigar --all-ends seq:ACGT seq:GGACTTGG
check_tsv "--all-ends" <<'EOF'
query target 1 2 5 2=1I1= + 4
query target 1 2 6 2=1X1= + 4
EOF
# A target symbol absent from the query is D: GATCACA is GATGCACA [2,10)
# (C0 C1 G2 A3 T4 G5 C6 A7 C8 A9 C10 C11) without its G at 5, the only way
# to reach 1; nothing ending before 10 is within 1.
run align --cigar seq:GATCACA seq:CCGATGCACACC
check_tsv "a deletion" <<'EOF'
query target 1 2 10 3=1D4= + 7
EOF

# -k on both sides of the distance: 1 prints, 0 prints nothing (exit 1).
run align -k 1 seq:ACGT seq:GGACTTGG
check_rc "-k 1 = distance" 0
check_tsv "-k 1 = distance" <<'EOF'
query target 1 2 5 + 4
EOF
run align --max-distance 2 --all-ends seq:ACGT seq:GGACTTGG
check_tsv "--max-distance 2 --all-ends" <<'EOF'
query target 1 2 5 + 4
query target 1 2 6 + 4
EOF
run align -k 0 seq:ACGT seq:GGACTTGG
check_rc "-k 0 < distance" 1
check_empty_out "-k 0 < distance"
check_no_err "-k 0 < distance"

# The start tie: ab in aa. End 1: a [0,1) is 1. End 2: aa [0,2) and a [1,2)
# are both 1; the shortest (largest start) is reported, as search does.
run align --all-ends --cigar seq:ab seq:aa
check_tsv "start tie" <<'EOF'
query target 1 0 1 1=1I + 2
query target 1 1 2 1=1I + 2
EOF
printf 'aa' >aa.txt
run search -k 1 ab aa.txt
check_tsv "start tie, as search reports it" <<'EOF'
aa.txt . 0 1 1 +
aa.txt . 1 2 1 +
EOF

# A query longer than the target: still defined, the distance is m - n = 4.
run align seq:ACGTACGT seq:ACGT
check_rc "query longer than target" 0
check_tsv "query longer than target" <<'EOF'
query target 4 0 4 + 8
EOF
run align --cigar seq:ACGTACGT seq:ACGT
printf '>query\nACGTACGT\n' >long_q.fa
printf '>target\nACGT\n' >long_t.fa
check_cigars "query longer than target, CIGAR" long_q.fa long_t.fa

# Text: case matters, so acgt shares nothing with TTACGTTT and the best is
# the empty substring at the leftmost end (start = end = 0).
run align --alphabet text --cigar seq:acgt seq:TTACGTTT
check_tsv "case matters in text" <<'EOF'
query target 4 0 0 4I + 4
EOF
# Auto: the target's letters are DNA, so case is folded, literals as files.
run align --cigar seq:acgt seq:TTACGTTT
check_tsv "auto: a DNA target folds case" <<'EOF'
query target 0 2 6 4= + 4
EOF
run align -i seq:acgt seq:TTACGTTT
check_tsv "-i" <<'EOF'
query target 0 2 6 + 4
EOF
run align --ignore-case --alphabet text seq:acgT seq:TTACGTTT
check_tsv "--ignore-case --alphabet text" <<'EOF'
query target 0 2 6 + 4
EOF
# --alphabet dna: case folded, U reads as T, N matches nothing (not even N).
run align --alphabet dna seq:acgu seq:TTACGTTT
check_tsv "--alphabet dna: case and U" <<'EOF'
query target 0 2 6 + 4
EOF
run align --alphabet dna --cigar seq:ACNT seq:ACNT
check_tsv "--alphabet dna: N" <<'EOF'
query target 1 0 4 2=1X1= + 4
EOF
run align --alphabet text --cigar seq:ACNT seq:ACNT
check_tsv "text: N is a byte" <<'EOF'
query target 0 0 4 4= + 4
EOF
run align --cigar seq:ACNT seq:ACNT
check_tsv "auto: ACNT is DNA, N matches nothing" <<'EOF'
query target 1 0 4 2=1X1= + 4
EOF

# --mode global: the whole of both; kitten -> sitting is the classic 3.
run align --mode global seq:kitten seq:sitting
check_rc "--mode global" 0
check_tsv "--mode global" <<'EOF'
query target 3 0 7 + 6
EOF
run align --mode global --cigar seq:ACGT seq:ACT
check_tsv "--mode global --cigar" <<'EOF'
query target 1 0 3 2=1I1= + 4
EOF
run align --mode global -k 2 seq:kitten seq:sitting
check_rc "--mode global -k 2" 1
check_empty_out "--mode global -k 2"

# JSON Lines: the keys in order, cigar only when asked.
run align --json --cigar seq:ACGT seq:TTACGTTT
check_rc "--json" 0
check_out_text "--json --cigar" '{"query":"query","target":"target","distance":0,"start":2,"end":6,"cigar":"4=","strand":"+","qlen":4}'
run align --json seq:ACGT seq:TTACGTTT
check_out_text "--json" '{"query":"query","target":"target","distance":0,"start":2,"end":6,"strand":"+","qlen":4}'

# ---- files: FASTA, FASTQ, plain, gzip, stdin; record order -------------------------

# Every pair worked by hand (end e, start s):
#   q1 ACGT: t1 TTACGTTT exact [2,6); t2 GGGGTTTT GT [3,5) with A, C
#            inserted (2; GGT [2,5) is 2 too, the shorter wins); t3 AAAA: A
#            [0,1) plus 3 inserted (3; the empty substring is 4).
#   q2 GGTT: t1 GTT [4,7) (1; CGTT [3,7) is 1 too, the shorter wins);
#            t2 exact [2,6); t3: nothing in common (4 on '+'), but its
#            reverse complement AACC has AA [0,2), CC inserted (2, strand -).
# (ACGT is its own reverse complement: '+' wins such ties.)
printf '>q1 first query\nAC\nGT\n>q2\nGGTT\n' >q.fa
printf '>t1 one\nTTACGTTT\n>t2\nGGGG\nTTTT\n\n>t3 three\nAAAA\n' >t.fa
cat >all.expect <<'EOF'
q1 t1 0 2 6 + 4
q1 t2 2 3 5 + 4
q1 t3 3 0 1 + 4
q2 t1 1 4 7 + 4
q2 t2 0 2 6 + 4
q2 t3 2 0 2 - 4
EOF
tr ' ' '\t' <all.expect >all.tsv
run align q.fa t.fa
check_rc "FASTA all-vs-all" 0
check_no_err "FASTA all-vs-all"
check_out "FASTA all-vs-all, query-major" all.tsv
run align --cigar q.fa t.fa
check_cigars "FASTA all-vs-all, CIGARs" q.fa t.fa

gzip -c q.fa >q.fa.gz
gzip -c t.fa >t.fa.gz
run align q.fa.gz t.fa.gz
check_out "gzip FASTA" all.tsv
run_in q.fa align - t.fa
check_out "query on stdin" all.tsv
run_in t.fa.gz align q.fa -
check_out "gzip target on stdin" all.tsv

# FASTQ reads (names = first word of the header).
printf '@q1 read one\nACGT\n+\nIIII\n@q2\nGGTT\n+q2\nIIII\n' >q.fq
run align q.fq t.fa
check_out "FASTQ query" all.tsv

# --pairs: record i with record i.
printf '>u1\nTTACGTTT\n>u2\nAAAA\n' >u.fa
run align --pairs q.fa u.fa
check_rc "--pairs" 0
check_tsv "--pairs" <<'EOF'
q1 u1 0 2 6 + 4
q2 u2 2 0 2 - 4
EOF
run align --pairs -k 1 q.fa u.fa
check_tsv "--pairs -k 1" <<'EOF'
q1 u1 0 2 6 + 4
EOF
run align --pairs q.fa q.fa
check_tsv "--pairs, self" <<'EOF'
q1 q1 0 0 4 + 4
q2 q2 0 0 4 + 4
EOF

# A literal against records, and records against a literal.
run align seq:ACGT t.fa
check_tsv "literal query, FASTA target" <<'EOF'
query t1 0 2 6 + 4
query t2 2 3 5 + 4
query t3 3 0 1 + 4
EOF
run align q.fa seq:GGGGTTTT
check_tsv "FASTA query, literal target" <<'EOF'
q1 target 2 3 5 + 4
q2 target 0 2 6 + 4
EOF

# --alphabet auto: DNA for FASTA of nucleotides, so soft-masked (lower case)
# bases match; text compares bytes.
printf '>s\nttacgttt\n' >soft.fa
run align seq:ACGT soft.fa
check_tsv "auto: dna for FASTA" <<'EOF'
query s 0 2 6 + 4
EOF
run align --alphabet text seq:ACGT soft.fa
check_tsv "--alphabet text with FASTA" <<'EOF'
query s 4 0 0 + 4
EOF
# A query that is not nucleotides keeps text, as search does.
printf '>p\nkitten\n' >kitten.fa
printf '>w\nsmitten and sitting\n' >words.fa
run align kitten.fa words.fa
check_tsv "auto: text for other letters" <<'EOF'
p w 1 2 7 + 6
EOF

# Plain files: one sequence named by its path; under auto line breaks and
# blanks are dropped; under text every byte counts (the query's '\n' too).
printf 'TTAC\nGTTT\n' >t.txt
printf 'ACGT\n' >q.txt
run align q.txt t.txt
check_tsv "plain files" <<'EOF'
q.txt t.txt 0 2 6 + 4
EOF
run align --alphabet text q.txt seq:TTACGTTT
check_tsv "plain file, text: the newline counts" <<'EOF'
q.txt target 1 2 6 + 5
EOF
gzip -c t.txt >t.txt.gz
run align seq:ACGT t.txt.gz
check_tsv "gzip plain file" <<'EOF'
query t.txt.gz 0 2 6 + 4
EOF
run_in t.txt align seq:ACGT -
check_tsv "plain stdin" <<'EOF'
query - 0 2 6 + 4
EOF
# An argument naming a file is the file, even when it reads like a sequence;
# seq: is always the sequence, even when a file has its name.
printf 'CGT' >ACGT
run align ACGT seq:TTACGTTT
check_tsv "an argument naming a file is a file" <<'EOF'
ACGT target 0 3 6 + 3
EOF
run align seq:ACGT seq:TTACGTTT
check_tsv "seq: is a sequence even beside a file of its name" <<'EOF'
query target 0 2 6 + 4
EOF
rm -f ACGT

# JSON Lines from files; names with quotes are escaped.
printf '>q"1\nACGT\n>q2\nGGTT\n' >quote.fa
run align --json --cigar --all-ends quote.fa t.fa
check_rc "--json files" 0
if command -v python3 >/dev/null 2>&1; then
    python3 -c '
import json, sys
keys = ["query", "target", "distance", "start", "end", "cigar", "strand", "qlen"]
for line in sys.stdin:
    o = json.loads(line)
    assert list(o) == keys, list(o)
    assert all(isinstance(o[k], int) for k in keys[2:5] + ["qlen"])
    assert o["strand"] in ("+", "-")
' <"$OUT" && pass || fail "--json: not JSON Lines with the keys in order"
else
    grep -Evq '^\{"query":"[^"]*(\\"[^"]*)*","target":"[^"]*","distance":[0-9]+,"start":[0-9]+,"end":[0-9]+,"cigar":"[0-9=XID]+","strand":"[+-]","qlen":[0-9]+\}$' "$OUT" &&
        fail "--json: a line is not of the expected form" || pass
fi
grep -q '^{"query":"q\\"1","target":"t1","distance":0,"start":2,"end":6,"cigar":"4=","strand":"[+]","qlen":4}$' "$OUT" &&
    pass || fail "--json: escaped name"
[ "$(wc -l <"$OUT")" -eq "$("$W" align --all-ends quote.fa t.fa | wc -l)" ] &&
    pass || fail "--json: one object per alignment"

# ---- bad input: a message, exit 2, nothing on stdout -----------------------------------

expect_error "empty literal query" '^warpmatch: the query is empty$' align seq: seq:ACGT
expect_error "empty literal target" '^warpmatch: the target is empty$' align seq:ACGT seq:
: >empty.fa
expect_error "empty query file" '^warpmatch: empty\.fa: the query file is empty' align empty.fa t.fa
expect_error "empty target file" '^warpmatch: empty\.fa: the target file is empty' align seq:ACGT empty.fa
printf '\n\n  \n' >blank.fa
expect_error "FASTA file with no records" '^warpmatch: blank\.fa: no target sequence' \
    align seq:ACGT blank.fa
printf '>a\nAC\n>b\n>c\nGT\n' >emptyrec.fa
expect_error "empty FASTA record" "^warpmatch: emptyrec\\.fa: record 2 'b' is empty" \
    align emptyrec.fa t.fa
expect_error "empty FASTA target record" "^warpmatch: emptyrec\\.fa: record 2 'b' is empty" \
    align seq:ACGT emptyrec.fa
printf '@r1\nACGT\n+\nIIII\n@r2\n\n+\n\n' >emptyread.fq
expect_error "empty FASTQ read" "^warpmatch: emptyread\\.fq: record 2 'r2' is empty" \
    align emptyread.fq t.fa
for p in nosuch.fa nosuch.fasta nosuch.fq.gz NOSUCH.FASTQ dir/ACGT ./x; do
    expect_error "missing file $p" "^warpmatch: $p: No such file or directory\$" align "$p" t.fa
done
expect_error "missing target file" '^warpmatch: nosuch\.fa: No such file or directory$' \
    align seq:ACGT nosuch.fa
mkdir -p adir
expect_error "a directory" '^warpmatch: adir: ' align seq:ACGT adir
gzip -c "$DATA/lambda_phage.fa" | head -c 3000 >cut.fa.gz
expect_error "truncated gzip" '^warpmatch: cut\.fa\.gz: truncated gzip' align seq:ACGT cut.fa.gz
printf 'ACG\000TACGT' >bin.dat
expect_error "NUL byte in a plain file" \
    '^warpmatch: bin\.dat: byte 0x00 at offset 3: not a sequence file.*--alphabet text' \
    align seq:ACGT bin.dat
expect_error "NUL byte, --alphabet dna" '^warpmatch: bin\.dat: byte 0x00 ' \
    align --alphabet dna seq:ACGT bin.dat
printf 'ACGT\303\251\n' >utf8.txt
expect_error "byte >= 0x80 in a plain query" \
    '^warpmatch: utf8\.txt: byte 0xC3 at offset 4: .*--alphabet text' align utf8.txt t.fa
run align --alphabet text --cigar seq:ACGT bin.dat
check_rc "binary file with --alphabet text" 0
check_tsv "binary file with --alphabet text" <<'EOF'
query bin.dat 0 5 9 4= + 4
EOF
printf '>x\nAC\001GT\n' >ctl.fa
expect_error "control byte in FASTA" '^warpmatch: ctl\.fa: line 2: binary byte 0x01' \
    align seq:ACGT ctl.fa
# A query over WM_MAX_QUERY = 2^26 bytes (sparse file: no disk used).
truncate -s 4194305 huge.txt 2>/dev/null || head -c 4194305 /dev/zero >huge.txt
expect_error "query over the limit" \
    '^warpmatch: huge\.txt is 4194305 bytes long; the longest query allowed is 4194304' \
    align --alphabet text huge.txt seq:ACGT
rm -f huge.txt

for bad in x -1 1.5 "" 99999999999999999999999; do
    expect_error "-k '$bad'" "^warpmatch: invalid value '$bad' for -k/--max-distance" \
        align -k "$bad" seq:ACGT seq:TTACGTTT
done
expect_error "--threads many" '^warpmatch: .*threads' align --threads many seq:ACGT seq:TTACGTTT
expect_error "unknown option" "^warpmatch: unknown option '--frobnicate'" \
    align --frobnicate seq:ACGT seq:TTACGTTT
check_err "usage hint" "^Try 'warpmatch align --help'"
expect_error "unknown short option" "^warpmatch: unknown option '-z'" align -z seq:ACGT seq:TTACGTTT
expect_error "missing option value" "^warpmatch: option '-k' needs a value" align seq:ACGT seq:TTACGTTT -k
expect_error "unknown --mode" "^warpmatch: unknown --mode 'local' \\(expected infix or global\\)" \
    align --mode local seq:ACGT seq:TTACGTTT
expect_error "unknown --algo" "^warpmatch: unknown --algo 'myers' \\(expected auto, wavefront, bitvector or four-russians\\)" \
    align --algo myers seq:ACGT seq:TTACGTTT
expect_error "unknown --alphabet" "^warpmatch: unknown --alphabet" align --alphabet rna seq:ACGT seq:TTACGTTT
expect_error "unknown --backend" "^warpmatch: unknown --backend 'gpu'" align --backend gpu seq:ACGT seq:TTACGTTT
expect_error "--pairs, different counts" \
    "^warpmatch: --pairs: missing mate: the query has 2 records and the target 3; target record 3 \\('.*'\\) has no mate$" \
    align --pairs q.fa t.fa
expect_error "no arguments" '^warpmatch: align needs a QUERY and a TARGET, or --pairs and a pair file \(0 arguments given\)' align
expect_error "one argument" '^warpmatch: align needs a QUERY and a TARGET, or --pairs and a pair file \(1 argument given\)' align seq:ACGT
expect_error "three arguments" '^warpmatch: align needs a QUERY and a TARGET' align seq:ACGT seq:ACGT seq:ACGT
run_in q.fa align - -
check_rc "stdin twice" 2
check_err "stdin twice" '^warpmatch: QUERY and TARGET are both - \(standard input can be read only once\)'
check_empty_out "stdin twice"

if ! have_gpu; then
    expect_error "--backend cuda without a GPU" '^warpmatch: cannot use the cuda backend' \
        align --backend cuda seq:ACGT seq:TTACGTTT
fi

# ---- --help ------------------------------------------------------------------------------

run align --help
check_rc "--help" 0
tr '\n' ' ' <"$OUT" | tr -s ' ' >help.flat
for want in 'Ties: the leftmost end, and for it the largest start \(the shortest substring\), the same rule as search' \
            'ASM' 'smallest edit distance to the whole query' 'at least m - n' \
            'SAM.s convention with the target as the reference' 'I \(a query symbol absent from the target\)' \
            'D \(a target symbol absent from the query\)' '-k also prunes the work' \
            'query target distance start end \[cigar\]' '--all-ends' '--pairs' '--json' \
            '--mode M' '--algo A' '--backend B' '--threads N' '--alphabet A' '--ignore-case' \
            'Exit status: 0'; do
    grep -Eq -- "$want" help.flat && pass || fail "align --help lacks /$want/"
done
run --help
grep -q '^  align ' "$OUT" && pass || fail "warpmatch --help does not list align"

# ---- random DNA: CIGARs replayed, -k as a filter, every algo/thread/backend ---------------

# 14 queries (1 to 200 bases: 63/64/65 and 127/128/129 included, some longer
# than targets) and 6 targets (1 to 300 bases), over ACGT; some queries are
# mutated copies of target pieces so that small distances occur.
awk 'BEGIN {
    srand(17)
    nt = split("1 5 40 100 250 300", tl, " ")
    for (i = 1; i <= nt; i++) { s = ""; for (j = 0; j < tl[i]; j++) s = s substr("ACGT", int(rand() * 4) + 1, 1); T[i] = s
        printf ">t%d\n%s\n", i, s >"r_t.fa" }
    nq = split("1 2 7 30 63 64 65 127 128 129 200 20 45 90", ql, " ")
    for (i = 1; i <= nq; i++) {
        src = T[5]; L = ql[i]
        if (i % 2 == 0 && L < length(src)) {           # a mutated piece of t5
            p = 1 + int(rand() * (length(src) - L)); s = substr(src, p, L); out = ""
            for (j = 1; j <= length(s); j++) { r = rand(); c = substr(s, j, 1)
                if (r < 0.05) continue
                if (r < 0.10) c = substr("ACGT", int(rand() * 4) + 1, 1)
                if (r < 0.13) c = c substr("ACGT", int(rand() * 4) + 1, 1)
                out = out c }
            s = out == "" ? "A" : out
        } else { s = ""; for (j = 0; j < L; j++) s = s substr("ACGT", int(rand() * 4) + 1, 1) }
        printf ">q%d\n%s\n", i, s >"r_q.fa"
    } }'
run align --no-revcomp --cigar --all-ends r_q.fa r_t.fa
check_rc "random all-vs-all" 0
cp "$OUT" r_full.tsv
check_cigars "random all-vs-all: CIGARs replay" r_q.fa r_t.fa
# One line per pair with the leftmost end, in query-major order.
run align --no-revcomp --cigar r_q.fa r_t.fa
cp "$OUT" r_best.tsv
awk -F '\t' '!seen[$1 FS $2]++' r_full.tsv >r_first.tsv
OUT=r_first.tsv
check_out "random: the leftmost end is the first of --all-ends" r_best.tsv
awk -F '\t' '{ print $1, $2 }' r_best.tsv >r_order
awk '/^>/ { n = substr($1, 2); if (FILENAME == ARGV[1]) q[++nq] = n; else t[++nt] = n }
     END { for (i = 1; i <= nq; i++) for (j = 1; j <= nt; j++) print q[i], t[j] }' r_q.fa r_t.fa >r_order.expect
cmp -s r_order r_order.expect && pass || fail "random: not every pair once, query-major"

# The same bytes for every algorithm, thread count and backend.
for al in auto wavefront bitvector; do
    for th in 1 3; do
        run align --no-revcomp --backend cpu --algo $al --threads $th --cigar --all-ends r_q.fa r_t.fa
        check_out "random, --algo $al --threads $th" r_full.tsv
    done
done
if have_gpu; then
    for al in auto wavefront bitvector; do
        run align --no-revcomp --backend cuda --algo $al --cigar --all-ends r_q.fa r_t.fa
        check_out "random, --backend cuda --algo $al" r_full.tsv
    done
else
    echo "no GPU: --backend cuda consistency skipped"
fi

# -k keeps exactly the pairs within k, with the same lines (the pruned
# work must not change what is found).
for k in 0 1 3 8 20 60; do
    awk -F '\t' -v k=$k '$3 <= k' r_full.tsv >r_k.expect
    for al in wavefront bitvector; do
        run align --no-revcomp -k $k --algo $al --cigar --all-ends r_q.fa r_t.fa
        check_out "random, -k $k --algo $al" r_k.expect
        if [ -s r_k.expect ]; then check_rc "random, -k $k --algo $al" 0; else check_rc "random, -k $k --algo $al" 1; fi
    done
done

# search is an independent check: for a pair at distance d < m,
# `search -k d` reports, in the target record, every end within d; those at
# exactly d (with their shortest starts) are the ends of --all-ends.
: >r_search
: >r_align
while read -r qn qs; do
    awk -F '\t' -v q="$qn" '$1 == q { print $2, $3 }' r_full.tsv | sort -u |
    while read -r tn d; do
        [ "$d" -lt "${#qs}" ] || continue
        awk -F '\t' -v q="$qn" -v t="$tn" '$1 == q && $2 == t { print q, t, $3, $4, $5 }' r_full.tsv >>r_align
        "$W" search -k "$d" "$qs" r_t.fa |
            awk -F '\t' -v q="$qn" -v t="$tn" -v d="$d" '$2 == t && $5 == d { print q, t, d, $3, $4 }' >>r_search
    done
done < <(awk '/^>/ { n = substr($0, 2); next } { print n, $0 }' r_q.fa)
[ -s r_align ] && cmp -s r_align r_search && pass ||
    { fail "random: --all-ends differs from search's ends at the best distance"; diff r_search r_align | head -10; }

# ---- lambda phage: a read with three edits is found at its origin ------------------------

LAMBDA=$SHARED/dna/lambda_phage.fa
if [ -r "$LAMBDA" ]; then
    REC=$(head -1 "$LAMBDA" | cut -c2- | cut -d' ' -f1)
    SEQ=$(awk 'NR > 1' "$LAMBDA" | tr -d '\n\r')
    # [20000, 20200): a substitution at 50, a deletion at 120, an insertion at 160.
    S=${SEQ:20000:200}
    c=${S:50:1}
    case $c in A) c2=C ;; C) c2=G ;; G) c2=T ;; *) c2=A ;; esac
    READ=${S:0:50}$c2${S:51:69}${S:121:39}G${S:160}
    printf '>read1 lambda 20000-20200 with 3 edits\n%s\n' "$READ" >read.fa
    run align --cigar read.fa "$LAMBDA"
    check_rc "lambda read" 0
    check_no_err "lambda read"
    awk -F '\t' '{ print $1, $2, $3, $4, $5 }' "$OUT" >lam.got
    echo "read1 $REC 3 20000 20200" >lam.expect
    cmp -s lam.got lam.expect && pass || fail "lambda read: got $(cat lam.got)"
    check_cigars "lambda read: CIGAR replays" read.fa "$LAMBDA"
    # One edit of each kind, wherever a run lets an indel slide.
    ops=$(cut -f6 "$OUT" | awk '{ while (match($0, /[0-9]+[XID]/)) {
              n[substr($0, RSTART + RLENGTH - 1, 1)] += substr($0, RSTART, RLENGTH - 1)
              $0 = substr($0, RSTART + RLENGTH) } print n["X"] + 0, n["I"] + 0, n["D"] + 0 }')
    [ "$ops" = "1 1 1" ] && pass || fail "lambda read: X I D = $ops in $(cut -f6 "$OUT")"
    cp "$OUT" lam.tsv
    for al in wavefront bitvector; do
        run align --algo $al --cigar read.fa "$LAMBDA"
        check_out "lambda read, --algo $al" lam.tsv
    done
    run align -k 2 read.fa "$LAMBDA"
    check_rc "lambda read, -k 2" 1
    run align -k 3 --cigar read.fa "$LAMBDA"
    check_out "lambda read, -k 3" lam.tsv
    # Soft-masked (lower case): still DNA under auto, as FASTA of nucleotides.
    printf '>read1\n%s\n' "$(printf '%s' "$READ" | tr ACGT acgt)" >read_lc.fa
    run align read_lc.fa "$LAMBDA"
    check_tsv "lambda read, lower case" <<EOF
read1 $REC 3 20000 20200 + 200
EOF
    # As a gzip'd FASTQ read from stdin, against a gzip'd genome.
    printf '@read1\n%s\n+\n%s\n' "$READ" "$(printf '%s' "$READ" | tr ACGT IIII)" | gzip -c >read.fq.gz
    gzip -c "$LAMBDA" >lambda.fa.gz
    run_in read.fq.gz align --cigar - lambda.fa.gz
    check_out "lambda read, gzip FASTQ on stdin" lam.tsv
else
    echo "skipped: $LAMBDA not found (the shared data set)"
fi

finish
