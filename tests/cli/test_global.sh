#!/usr/bin/env bash
# test_global.sh -- `warpmatch align --mode global`: the edit distance of two
# whole sequences and its canonical CIGAR (the traceback from the end that
# prefers a diagonal step, then I, then D).
#
#  1. hand-worked goldens: literals (kitten/sitting, gaps that go first, empty
#     sequences with the CIGAR "*" and "" in JSON, DNA's N and U, -i), FASTA
#     all-vs-all with an empty record, -k on both sides of the distance and
#     the exit statuses, JSON Lines;
#  2. --pairs QFILE TFILE (and its "missing mate" error) and --pairs PAIRS.tsv
#     (line numbers as names, CRLF, blank lines, empty sequences, gzip; the
#     "no tab" / "more than one tab" errors with FILE:LINE);
#  3. an awk oracle (the full DP and the canonical traceback, written here
#     from the definition) on random DNA with N, U and lower case, on random
#     text with -i, and on mutated slices of the lambda genome: the output of
#     every --algo (auto, bitvector, dp, wavefront, four-russians with
#     --block-t 1..3 and the default), with 1 and 3 threads, and on CUDA when
#     `warpmatch info` shows a GPU, must be the oracle's, byte for byte; -k
#     keeps exactly the pairs within k; gzip and stdin inputs give the same;
#  4. a long pair (20,000 bases of lambda with ~1 % edits): every algorithm
#     prints the same line, the CIGAR replays, the distance is at most the
#     edits planted;
#  5. --explain (the table alone, and before aligning): t, key, entries and
#     bytes for each --block-t and key kind;
#  6. errors: --block-t out of range, four-russians in infix mode, dp and
#     four-russians over 2^37 cells (while auto aligns the same pair), a
#     query over 4 Mi: exit 2 and a message;
#  7. 5,000 pairs (--pairs A B and PAIRS.tsv), whose rows are made on threads
#     in slices: every format with and without --cigar prints the bytes of
#     one thread (-j 1), and CUDA's when a GPU is listed; cut into batches
#     of 333, 4,097 and 100 pairs (WM_TEST_PAIR_BATCH), with --revcomp too,
#     the bytes of one batch, and a reader that stops early gets a prefix.
. "$(dirname "$0")/lib.sh" "$@"
export LC_ALL=C
cd "$TMP" || exit 2
LAMBDA=$DATA/lambda_phage.fa

# The oracle. stdin: lines QNAME<TAB>Q<TAB>TNAME<TAB>T (Q or T may be
# empty); stdout: the lines align --mode global --cigar must print for them:
# QNAME TNAME distance 0 n cigar ("*" for the empty alignment). dna=1: case
# folded, U = T, only A C G T match; ci=1: ASCII case folded.
# D[i][j] = edit(q[0,i), t[0,j)); traceback from (m, n): the diagonal when
# D[i-1][j-1] + cost == D[i][j], else I when D[i-1][j] + 1 == D[i][j], else D.
oracle() {
    awk -F '\t' -v dna="${1:-0}" -v ci="${2:-0}" '
    function eqc(a, b) {
        if (dna) {
            a = toupper(a); b = toupper(b)
            if (a == "U") a = "T"
            if (b == "U") b = "T"
            return a != "" && index("ACGT", a) > 0 && a == b
        }
        if (ci) return tolower(a) == tolower(b)
        return a == b
    }
    {
        qn = $1; q = $2; tn = $3; t = $4; m = length(q); n = length(t); w = n + 1
        for (i = 1; i <= m; i++) Q[i] = substr(q, i, 1)
        for (j = 1; j <= n; j++) T[j] = substr(t, j, 1)
        for (j = 0; j <= n; j++) D[j] = j
        for (i = 1; i <= m; i++) {
            D[i * w] = i
            for (j = 1; j <= n; j++) {
                v = D[(i - 1) * w + j - 1] + (eqc(Q[i], T[j]) ? 0 : 1)
                u = D[(i - 1) * w + j] + 1; if (u < v) v = u
                l = D[i * w + j - 1] + 1; if (l < v) v = l
                D[i * w + j] = v
            }
        }
        ops = ""; i = m; j = n
        while (i > 0 || j > 0) {
            cur = D[i * w + j]
            if (i > 0 && j > 0) {
                e = eqc(Q[i], T[j])
                if (D[(i - 1) * w + j - 1] + (e ? 0 : 1) == cur) {
                    ops = ops (e ? "=" : "X"); i--; j--; continue
                }
            }
            if (i > 0 && D[(i - 1) * w + j] + 1 == cur) { ops = ops "I"; i--; continue }
            ops = ops "D"; j--
        }
        cig = ""; k = length(ops)
        while (k > 0) {
            op = substr(ops, k, 1); r = 0
            while (k > 0 && substr(ops, k, 1) == op) { r++; k-- }
            cig = cig r op
        }
        printf "%s\t%s\t%d\t0\t%d\t%s\t+\t%d\n", qn, tn, D[m * w + n], n, cig == "" ? "*" : cig, m
        split("", D); split("", Q); split("", T)
    }'
}

# fasta_pairs QFASTA TFASTA: every query record with every target record,
# query-major, as the oracle's input lines. Records may be empty.
fasta_pairs() {
    awk 'function flush() {
             if (name == "") return
             if (from == 1) { qn[++nq] = name; qs[nq] = seq } else { tn[++nt] = name; ts[nt] = seq }
             name = ""
         }
         FNR == 1 { flush(); file++ }
         /^>/ { flush(); name = substr($1, 2); seq = ""; from = file; next }
         { seq = seq $0 }
         END {
             flush()
             for (i = 1; i <= nq; i++)
                 for (j = 1; j <= nt; j++) printf "%s\t%s\t%s\t%s\n", qn[i], qs[i], tn[j], ts[j]
         }' "$1" "$2"
}

# replay NAME QSEQ TSEQ: the last run's one line (query target d 0 n cigar)
# replays: runs of = X I D with counts >= 1, no two runs of one op in a row,
# '=' only on equal and 'X' only on unequal bytes (dna=1 rules with $4),
# the whole of both consumed, X + I + D = d, start 0, end n.
replay() {
    local bad
    bad=$(awk -F '\t' -v q="$2" -v t="$3" -v dna="${4:-0}" '
        function eqc(a, b) {
            if (dna) { a = toupper(a); b = toupper(b); if (a == "U") a = "T"; if (b == "U") b = "T"
                       return a != "" && index("ACGT", a) > 0 && a == b }
            return a == b
        }
        NR > 1 { why = "more than one line"; exit }
        {
            c = $6; i = 1; j = 1; cost = 0; why = ""; prev = ""
            if ($4 != 0 || $5 != length(t)) why = "start/end " $4 " " $5
            if (c == "*") c = ""
            while (c != "" && why == "") {
                if (!match(c, /^[1-9][0-9]*[=XID]/)) { why = "bad CIGAR syntax at " c; break }
                n = substr(c, 1, RLENGTH - 1) + 0; op = substr(c, RLENGTH, 1)
                c = substr(c, RLENGTH + 1)
                if (op == prev) why = "two " op " runs in a row"
                prev = op
                if (op == "=" || op == "X") {
                    for (k = 0; k < n && why == ""; k++) {
                        a = substr(q, i, 1); b = substr(t, j, 1)
                        if (a == "" || b == "") why = "past the end"
                        else if ((op == "=") != eqc(a, b)) why = op " on " a "/" b " at " i "," j
                        i++; j++
                    }
                    if (op == "X") cost += n
                } else if (op == "I") { i += n; cost += n } else { j += n; cost += n }
            }
            if (why == "" && (i != length(q) + 1 || j != length(t) + 1)) why = "lengths differ"
            if (why == "" && cost != $3) why = "costs " cost ", distance " $3
        }
        END { if (NR == 0) why = "no output"; print why }' "$OUT")
    if [ -z "$bad" ]; then pass; else fail "$1: the CIGAR does not replay: $bad"; fi
}


# every_algo NAME EXPECTED ARGS...: the same stdout (EXPECTED) from every
# --algo, 1 and 3 threads on the CPU, and CUDA when there is a GPU.
every_algo() {
    local name=$1 exp=$2 al th
    shift 2
    for al in auto bitvector dp wavefront four-russians "four-russians --block-t 1" \
              "four-russians --block-t 2" "four-russians --block-t 3"; do
        for th in 1 3; do
            # shellcheck disable=SC2086
            run align --mode global --backend cpu -j $th --algo $al "$@"
            check_out "$name: --algo $al -j $th" "$exp"
        done
        if have_gpu; then
            # shellcheck disable=SC2086
            run align --mode global --backend cuda --algo $al "$@"
            check_out "$name: --backend cuda --algo $al" "$exp"
        fi
    done
}

# ---- 1. hand-worked goldens ---------------------------------------------------------

# kitten/sitting, the whole table by hand: D[6][7] = 3. At (6,7), n/g: the
# diagonal (D[5][6] = 3) and I (D[5][7] = 4) miss 3, so D; then n = n, e/i X,
# t t i =, k/s X: forwards 1X3=1X1=1D.
run align --mode global --cigar seq:kitten seq:sitting
check_rc "kitten/sitting" 0
check_no_err "kitten/sitting"
check_tsv "kitten/sitting" <<'EOF'
query target 3 0 7 1X3=1X1=1D + 6
EOF
printf 'query\ttarget\t3\t0\t7\t1X3=1X1=1D\t+\t6\n' >kitten.tsv
every_algo "kitten/sitting" kitten.tsv --cigar seq:kitten seq:sitting

# ACGT/ACT: from (4,3) T = T; at (3,2) the diagonal G/C costs 2 > 1 and the I
# of G reaches 1: 2=1I1=.
run align --mode global --cigar seq:ACGT seq:ACT
check_tsv "ACGT/ACT" <<'EOF'
query target 1 0 3 2=1I1= + 4
EOF
# Ties: the diagonal is taken as late as possible going back, so the gap
# comes first: AA/A is 1I1= (not 1=1I), A/AA 1D1=, GGTT/GGGTT 1D4=.
run align --mode global --cigar seq:AA seq:A
check_tsv "AA/A: the gap first" <<'EOF'
query target 1 0 1 1I1= + 2
EOF
run align --mode global --cigar seq:A seq:AA
check_tsv "A/AA: the gap first" <<'EOF'
query target 1 0 2 1D1= + 1
EOF
run align --mode global --cigar seq:GGTT seq:GGGTT
check_tsv "GGTT/GGGTT" <<'EOF'
query target 1 0 5 1D4= + 4
EOF
# AB/BA: 2X; 1I1=1D costs 2 as well, but the diagonal comes first.
run align --mode global --cigar seq:AB seq:BA
check_tsv "AB/BA" <<'EOF'
query target 2 0 2 2X + 2
EOF
# A query twice the target: TTACGTTT/ACGT is 4. Back from the end: T = T,
# then at T/G the diagonal misses and I fits, twice; G C A =; the first two
# T are I: 2I3=2I1=.
run align --mode global --cigar seq:TTACGTTT seq:ACGT
check_tsv "query longer" <<'EOF'
query target 4 0 4 2I3=2I1= + 8
EOF
run align --mode global seq:ACGT seq:TTACGTTT
check_tsv "target longer, no --cigar" <<'EOF'
query target 4 0 8 + 4
EOF

# Empty sequences are allowed in global mode: the distance is the other's
# length; the empty alignment prints as * (TSV) and "" (JSON).
run align --mode global --cigar seq: seq:ACG
check_rc "empty query" 0
check_tsv "empty query" <<'EOF'
query target 3 0 3 3D + 0
EOF
run align --mode global --cigar seq:ACG seq:
check_tsv "empty target" <<'EOF'
query target 3 0 0 3I + 3
EOF
run align --mode global --cigar seq: seq:
check_rc "both empty" 0
check_tsv "both empty" <<'EOF'
query target 0 0 0 * + 0
EOF
run align --mode global seq: seq:
check_tsv "both empty, no --cigar" <<'EOF'
query target 0 0 0 + 0
EOF
run align --mode global --json --cigar seq: seq:
check_out_text "both empty, JSON" '{"query":"query","target":"target","distance":0,"start":0,"end":0,"cigar":"","strand":"+","qlen":0}'
run align --mode global --json --cigar seq:kitten seq:sitting
check_out_text "kitten/sitting, JSON" '{"query":"query","target":"target","distance":3,"start":0,"end":7,"cigar":"1X3=1X1=1D","strand":"+","qlen":6}'
run align --mode global --json seq:kitten seq:sitting
check_out_text "kitten/sitting, JSON without cigar" '{"query":"query","target":"target","distance":3,"start":0,"end":7,"strand":"+","qlen":6}'

# Alphabets: DNA folds case and reads U as T, and N matches nothing (not N).
run align --mode global --alphabet dna --cigar seq:ACNT seq:acnu
check_tsv "dna: N/n is X, T/u is =" <<'EOF'
query target 1 0 4 2=1X1= + 4
EOF
run align --mode global --alphabet text --cigar seq:ACNT seq:ACNT
check_tsv "text: N is a byte" <<'EOF'
query target 0 0 4 4= + 4
EOF
run align --mode global --alphabet text --cigar seq:acgt seq:ACGT
check_tsv "text: case matters" <<'EOF'
query target 4 0 4 4X + 4
EOF
run align --mode global --cigar seq:acgt seq:ACGT
check_tsv "auto: a DNA target folds case" <<'EOF'
query target 0 0 4 4= + 4
EOF
run align --mode global -i --cigar seq:acgt seq:ACGT
check_tsv "-i" <<'EOF'
query target 0 0 4 4= + 4
EOF

# -k: the distance is 3; -k 3 prints, -k 2 prints nothing and exits 1.
run align --mode global -k 3 seq:kitten seq:sitting
check_rc "-k 3 = distance" 0
check_tsv "-k 3 = distance" <<'EOF'
query target 3 0 7 + 6
EOF
run align --mode global --max-distance 2 seq:kitten seq:sitting
check_rc "-k 2 < distance" 1
check_empty_out "-k 2 < distance"
check_no_err "-k 2 < distance"

# FASTA all-vs-all, query-major, with an empty record (allowed here).
#   q1 ACGT:  t1 ACT 1 2=1I1=;  t2 GGGTT 3: A/G C/G X, G =, a T deleted,
#             T = (2X1=1D1=; at most 2 of 5 target bases can match).
#   q2 empty: t1 3 3D; t2 5 5D.
#   q3 GGTT:  t1 ACT 3 (at most the T matches): back from the end T = T,
#             T/C X (D[2][1] + 1 = 3), G/A X, the first G is I: 1I2X1=;
#             t2 GGGTT 1: the gap first, 1D4=.
printf '>q1 first\nAC\nGT\n>q2 empty\n>q3\nGGTT\n' >q.fa
printf '>t1\nACT\n>t2 two\nGGG\nTT\n' >t.fa
cat >qt.expect <<'EOF'
q1 t1 1 0 3 2=1I1= + 4
q1 t2 3 0 5 2X1=1D1= + 4
q2 t1 3 0 3 3D + 0
q2 t2 5 0 5 5D + 0
q3 t1 3 0 3 1I2X1= + 4
q3 t2 1 0 5 1D4= + 4
EOF
tr ' ' '\t' <qt.expect >qt.tsv
run align --mode global --cigar q.fa t.fa
check_rc "FASTA all-vs-all" 0
check_no_err "FASTA all-vs-all"
check_out "FASTA all-vs-all" qt.tsv
fasta_pairs q.fa t.fa | oracle 1 >qt.oracle
OUT=qt.oracle
check_out "the awk oracle agrees with the goldens" qt.tsv
every_algo "FASTA all-vs-all" qt.tsv --cigar q.fa t.fa
gzip -c q.fa >q.fa.gz
gzip -c t.fa >t.fa.gz
run align --mode global --cigar q.fa.gz t.fa.gz
check_out "gzip FASTA" qt.tsv
run_in q.fa align --mode global --cigar - t.fa
check_out "query on stdin" qt.tsv
run_in t.fa.gz align --mode global --cigar q.fa -
check_out "gzip target on stdin" qt.tsv
# FASTQ (an empty read too) and a plain file (its line break dropped under
# auto, named by its path).
printf '@q1 read\nACGT\n+\nIIII\n@q2\n\n+\n\n@q3\nGGTT\n+\nIIII\n' >q.fq
run align --mode global --cigar q.fq t.fa
check_out "FASTQ query with an empty read" qt.tsv
printf 'AC\nT\n' >t1.txt
run align --mode global --cigar q.fq t1.txt
check_tsv "plain target file" <<'EOF'
q1 t1.txt 1 0 3 2=1I1= + 4
q2 t1.txt 3 0 3 3D + 0
q3 t1.txt 3 0 3 1I2X1= + 4
EOF
run align --mode global -k 1 q.fa t.fa
check_tsv "FASTA -k 1" <<'EOF'
q1 t1 1 0 3 + 4
q3 t2 1 0 5 + 4
EOF
run align --mode global -k 0 q.fa t.fa
check_rc "FASTA -k 0: nothing" 1
check_empty_out "FASTA -k 0: nothing"

# ---- 2. --pairs ------------------------------------------------------------------------

printf '>u1\nACGT\n>u2\nGG\n>u3\nGGGTT\n' >u.fa
run align --mode global --cigar --pairs q.fa u.fa
check_rc "--pairs Q T" 0
check_tsv "--pairs Q T" <<'EOF'
q1 u1 0 0 4 4= + 4
q2 u2 2 0 2 2D + 0
q3 u3 1 0 5 1D4= + 4
EOF
run align --mode global --pairs -k 0 q.fa u.fa
check_tsv "--pairs -k 0" <<'EOF'
q1 u1 0 0 4 + 4
EOF
expect_error "--pairs, a missing mate" 'missing mate' align --mode global --pairs q.fa t.fa
expect_error "--pairs, a missing mate (query shorter)" 'missing mate' \
    align --mode global --pairs t.fa q.fa

# A pair file: QUERY<TAB>TARGET a line, named by the line number; blank lines
# are skipped (and counted), CRLF is tolerated, sequences may be empty.
printf 'ACGT\tACT\n\nkitten\tsitting\r\n\tACG\nACG\t\r\n\n' >p.tsv
cat >p.expect <<'EOF'
1 1 1 0 3 2=1I1= + 4
3 3 3 0 7 1X3=1X1=1D + 6
4 4 3 0 3 3D + 0
5 5 3 0 0 3I + 3
EOF
tr ' ' '\t' <p.expect >p.want
run align --mode global --cigar --pairs p.tsv
check_rc "--pairs PAIRS.tsv" 0
check_no_err "--pairs PAIRS.tsv"
check_out "--pairs PAIRS.tsv" p.want
every_algo "--pairs PAIRS.tsv" p.want --cigar --pairs p.tsv
gzip -c p.tsv >p.tsv.gz
run align --mode global --cigar --pairs p.tsv.gz
check_out "--pairs PAIRS.tsv.gz" p.want
run align --mode global --pairs -k 1 p.tsv
check_tsv "--pairs PAIRS.tsv -k 1" <<'EOF'
1 1 1 0 3 + 4
EOF
run align --mode global --json --cigar --pairs p.tsv
check_rc "--pairs PAIRS.tsv --json" 0
head -1 "$OUT" >p1.json
OUT=p1.json
check_out_text "--pairs PAIRS.tsv --json" '{"query":"1","target":"1","distance":1,"start":0,"end":3,"cigar":"2=1I1=","strand":"+","qlen":4}'

printf 'ACGT\tACT\nAAAA\tAAAA\nACGT ACT\n' >bad1.tsv
expect_error "pair file: a line without a tab" 'bad1\.tsv:3.*no tab|no tab.*bad1\.tsv:3' \
    align --mode global --pairs bad1.tsv
printf 'ACGT\tACT\tAC\n' >bad2.tsv
expect_error "pair file: two tabs" 'more than one tab' align --mode global --pairs bad2.tsv
check_err "pair file: two tabs, FILE:LINE" 'bad2\.tsv:1'

# ---- 3. against the awk oracle: random DNA and text, lambda slices ------------------------

# DNA with lower case, U and N (and a few IUPAC codes); lengths 0..300 with
# the 63/64/65 word borders, mutated copies so that small distances occur.
awk 'BEGIN {
    srand(2024)
    nt = split("0 1 7 40 64 130 300", tl, " ")
    al = "ACGTACGTACGTACGTacgtNnUuRY"
    for (i = 1; i <= nt; i++) {
        s = ""; for (j = 0; j < tl[i]; j++) s = s substr(al, int(rand() * length(al)) + 1, 1)
        T[i] = s; printf ">t%d\n%s\n", i, s >"r_t.fa"
    }
    nq = split("0 1 2 9 33 63 64 65 120 200 301", ql, " ")
    for (i = 1; i <= nq; i++) {
        L = ql[i]; src = T[7]
        if (i % 2 == 0 && L > 0) {                      # a mutated piece of t7
            p = 1 + int(rand() * (length(src) - L + 1)); s = substr(src, p, L); out = ""
            for (j = 1; j <= length(s); j++) { r = rand(); c = substr(s, j, 1)
                if (r < 0.04) continue
                if (r < 0.08) c = substr(al, int(rand() * length(al)) + 1, 1)
                if (r < 0.11) c = c substr("ACGT", int(rand() * 4) + 1, 1)
                if (rand() < 0.2) c = tolower(c)
                out = out c }
            s = out
        } else { s = ""; for (j = 0; j < L; j++) s = s substr(al, int(rand() * length(al)) + 1, 1) }
        printf ">q%d\n%s\n", i, s >"r_q.fa"
    } }'
fasta_pairs r_q.fa r_t.fa | oracle 1 >r.oracle
[ "$(wc -l <r.oracle)" -eq 77 ] && pass || fail "random DNA: the oracle has $(wc -l <r.oracle) lines, want 77"
run align --mode global --alphabet dna --cigar r_q.fa r_t.fa
check_rc "random DNA" 0
check_out "random DNA: the oracle's lines" r.oracle
every_algo "random DNA" r.oracle --alphabet dna --cigar r_q.fa r_t.fa
gzip -c r_q.fa >r_q.fa.gz
run_in r_q.fa.gz align --mode global --alphabet dna --cigar - r_t.fa
check_out "random DNA, gzip query on stdin" r.oracle
# -k keeps exactly the pairs within k (the pruned work finds the same).
for k in 0 1 4 12 40 200; do
    awk -F '\t' -v k=$k '$3 <= k' r.oracle >r_k.expect
    for al in bitvector dp four-russians; do
        run align --mode global --alphabet dna --cigar -k $k --algo $al r_q.fa r_t.fa
        check_out "random DNA, -k $k --algo $al" r_k.expect
        if [ -s r_k.expect ]; then check_rc "random DNA, -k $k --algo $al" 0
        else check_rc "random DNA, -k $k --algo $al" 1; fi
    done
done
# --pairs of the same records, and the same pairs as a PAIRS.tsv file.
awk '/^>/ { if (n++) print s; s = ""; next } { s = s $0 } END { print s }' r_q.fa >r_q.seqs
awk '/^>/ { if (n++) print s; s = ""; next } { s = s $0 } END { print s }' r_t.fa >r_t.seqs
# no line is a lone tab (a blank line to the tool): another awk's rand() can
# delete q2's one base, and t1 is empty
sed -n 2,8p r_q.seqs | paste - r_t.seqs | grep -v -x "$(printf '\t')" >r_pairs.tsv
awk -F '\t' '{ printf "%d\t%s\t%d\t%s\n", NR, $1, NR, $2 }' r_pairs.tsv | oracle 1 >r_pairs.oracle
run align --mode global --alphabet dna --cigar --pairs r_pairs.tsv
check_out "random DNA pairs file" r_pairs.oracle
every_algo "random DNA pairs file" r_pairs.oracle --alphabet dna --cigar --pairs r_pairs.tsv

# Text with -i: letters of both cases, digits and punctuation (which do not fold).
awk 'BEGIN {
    srand(77); al = "abcABC@`[{01"
    for (i = 1; i <= 6; i++) { L = 1 + int(rand() * 90); s = ""
        for (j = 0; j < L; j++) s = s substr(al, int(rand() * length(al)) + 1, 1)
        printf "%s\t", s; L = int(rand() * 90); s = ""
        for (j = 0; j < L; j++) s = s substr(al, int(rand() * length(al)) + 1, 1)
        printf "%s\n", s } }' >w.tsv
awk -F '\t' '{ printf "%d\t%s\t%d\t%s\n", NR, $1, NR, $2 }' w.tsv | oracle 0 1 >w_ci.oracle
awk -F '\t' '{ printf "%d\t%s\t%d\t%s\n", NR, $1, NR, $2 }' w.tsv | oracle 0 0 >w.oracle
run align --mode global --alphabet text -i --cigar --pairs w.tsv
check_out "text -i pairs" w_ci.oracle
every_algo "text -i pairs" w_ci.oracle --alphabet text -i --cigar --pairs w.tsv
run align --mode global --alphabet text --cigar --pairs w.tsv
check_out "text pairs" w.oracle

# Lambda: three 300-base slices and mutated copies (~2 % edits), all-vs-all.
if [ -r "$LAMBDA" ]; then
    SEQ=$(awk 'NR > 1' "$LAMBDA" | tr -d '\n\r')
    awk -v s="$SEQ" 'BEGIN {
        srand(5)
        n = split("1000 20000 45000", at, " ")
        for (i = 1; i <= n; i++) {
            x = substr(s, at[i] + 1, 300); printf ">L%d\n%s\n", at[i], x >"lam_t.fa"
            out = ""
            for (j = 1; j <= length(x); j++) { r = rand(); c = substr(x, j, 1)
                if (r < 0.007) continue
                if (r < 0.014) c = substr("ACGT", int(rand() * 4) + 1, 1)
                if (r < 0.02) c = c substr("ACGT", int(rand() * 4) + 1, 1)
                out = out c }
            printf ">M%d\n%s\n", at[i], out >"lam_q.fa"
        } }'
    fasta_pairs lam_q.fa lam_t.fa | oracle 1 >lam.oracle
    run align --mode global --cigar lam_q.fa lam_t.fa
    check_rc "lambda slices" 0
    check_out "lambda slices: the oracle's lines" lam.oracle
    every_algo "lambda slices" lam.oracle --cigar lam_q.fa lam_t.fa

    # ---- 4. a long pair: 20,000 bases with ~1 % edits ------------------------------------
    X=${SEQ:10000:20000}
    awk -v x="$X" 'BEGIN {
        srand(9); out = ""; e = 0
        for (j = 1; j <= length(x); j++) { r = rand(); c = substr(x, j, 1)
            if (r < 0.0033) { e++; continue }
            if (r < 0.0066) { e++; c = (c == "A") ? "C" : "A" }
            else if (r < 0.01) { e++; c = c substr("ACGT", int(rand() * 4) + 1, 1) }
            out = out c }
        printf ">long\n%s\n", out >"long_q.fa"; print e >"long_edits" }'
    printf '>ref\n%s\n' "$X" >long_t.fa
    E=$(cat long_edits)
    Y=$(awk 'NR > 1' long_q.fa)
    run align --mode global --cigar long_q.fa long_t.fa
    check_rc "long pair" 0
    cp "$OUT" long.tsv
    replay "long pair" "$Y" "$X" 1
    D=$(cut -f3 long.tsv)
    [ -n "$D" ] && [ "$D" -le "$E" ] && [ "$D" -ge $((E / 2)) ] && pass ||
        fail "long pair: distance '$D', planted $E edits (want <= $E, and not far below)"
    for al in bitvector dp four-russians "four-russians --block-t 2"; do
        # shellcheck disable=SC2086
        run align --mode global --cigar -j 3 --algo $al long_q.fa long_t.fa
        check_out "long pair, --algo $al -j 3" long.tsv
    done
    if have_gpu; then
        for al in auto bitvector dp four-russians; do
            run align --mode global --cigar --backend cuda --algo $al long_q.fa long_t.fa
            check_out "long pair, --backend cuda --algo $al" long.tsv
        done
    fi
    run align --mode global -k "$D" --algo bitvector long_q.fa long_t.fa
    check_rc "long pair, -k d" 0
    run align --mode global -k $((D - 1)) --algo bitvector long_q.fa long_t.fa
    check_rc "long pair, -k d-1" 1
    check_empty_out "long pair, -k d-1"
else
    fail "lambda genome not found at $LAMBDA"
fi

if ! have_gpu; then
    echo "no GPU: --backend cuda consistency skipped"
fi

# ---- 5. --explain ------------------------------------------------------------------------

# explain NAME REGEX ARGS...: exit 0, nothing on stdout, exactly one stderr
# line, and it matches.
explain() {
    local name=$1 re=$2
    shift 2
    run "$@"
    check_rc "$name" 0
    check_empty_out "$name"
    if [ "$(wc -l <"$ERR")" -eq 1 ] && grep -Eq -- "$re" "$ERR"; then
        pass
    else
        fail "$name: stderr is not the one line /$re/"
        sed 's/^/    /' "$ERR" | head -5
    fi
}
TAIL=', built in [0-9]+(\.[0-9]+)? s on [1-9][0-9]* threads?$'
explain "--explain t 1 dna" "^four-russians: t = 1, key = strings, 144 entries, 288 bytes$TAIL" \
    align --algo four-russians --explain --block-t 1 --alphabet dna
explain "--explain t 2 dna" "^four-russians: t = 2, key = strings, 20736 entries, 41472 bytes$TAIL" \
    align --algo four-russians --explain --block-t 2 --alphabet dna
explain "--explain t 3 dna" "^four-russians: t = 3, key = strings, 2985984 entries, 5971968 bytes$TAIL" \
    align --algo four-russians --explain --block-t 3 --alphabet dna
explain "--explain default t, dna" "^four-russians: t = 3, key = strings, 2985984 entries, 5971968 bytes$TAIL" \
    align --algo four-russians --explain --alphabet dna
explain "--explain t 1 matrix" "^four-russians: t = 1, key = matrix, 18 entries, 36 bytes$TAIL" \
    align --algo four-russians --explain --block-t 1
explain "--explain t 2 matrix" "^four-russians: t = 2, key = matrix, 1296 entries, 2592 bytes$TAIL" \
    align --algo four-russians --explain --block-t 2
explain "--explain t 3 matrix" "^four-russians: t = 3, key = matrix, 373248 entries, 746496 bytes$TAIL" \
    align --algo four-russians --explain --block-t 3 --alphabet text
explain "--explain -j 2" "^four-russians: t = 2, key = matrix, 1296 entries, 2592 bytes, built in [0-9]+(\.[0-9]+)? s on [12] threads?$" \
    align --algo four-russians --explain --block-t 2 -j 2
# Before aligning: the line on stderr, the alignment on stdout (--alphabet
# text: the matrix key; auto would find these literals DNA).
run align --mode global --algo four-russians --explain --block-t 2 --alphabet text --cigar seq:ACGT seq:ACT
check_rc "--explain and align" 0
check_tsv "--explain and align" <<'EOF'
query target 1 0 3 2=1I1= + 4
EOF
check_err "--explain and align" "^four-russians: t = 2, key = matrix, 1296 entries, 2592 bytes$TAIL"
run align --mode global --algo four-russians --explain --block-t 1 --alphabet dna --cigar q.fa t.fa
check_out "--explain with FASTA, dna" qt.tsv
check_err "--explain with FASTA, dna" "^four-russians: t = 1, key = strings, 144 entries, 288 bytes$TAIL"

# ---- 6. errors ---------------------------------------------------------------------------

for bad in 0 5 -1 x 1.5 ""; do
    expect_error "--block-t '$bad'" '--block-t' \
        align --mode global --algo four-russians --block-t "$bad" seq:ACGT seq:ACT
done
expect_error "four-russians in infix mode" 'global' \
    align --mode infix --algo four-russians seq:ACGT seq:ACGT
expect_error "four-russians in infix mode (options reversed)" 'global' \
    align --algo four-russians --mode infix seq:ACGT seq:ACGT

# Over 2^37 cells: 400,000 x 400,000 = 1.6e11. dp and four-russians refuse
# (at once: a minute's limit), auto and bitvector align (one substitution).
# 4,000 lines of 100 bases; base 200,001 (line 2,001's first) differs.
awk 'BEGIN {
    srand(400); print ">a" >"big_q.fa"; print ">b" >"big_t.fa"
    for (l = 1; l <= 4000; l++) {
        s = ""; for (i = 0; i < 100; i++) s = s substr("ACGT", int(rand() * 4) + 1, 1)
        print s >"big_q.fa"
        if (l == 2001) s = (substr(s, 1, 1) == "A" ? "C" : "A") substr(s, 2)
        print s >"big_t.fa"
    } }'
for al in dp four-russians "four-russians --block-t 1"; do
    # shellcheck disable=SC2086
    run_cmd timeout 120 "$W" align --mode global --algo $al big_q.fa big_t.fa
    check_rc "over 2^37 cells, --algo $al" 2
    check_err "over 2^37 cells, --algo $al" '2\^37|137438953472'
    check_empty_out "over 2^37 cells, --algo $al"
done
for al in auto bitvector; do
    run align --mode global --cigar --algo $al big_q.fa big_t.fa
    check_rc "400,000 x 400,000, --algo $al" 0
    check_tsv "400,000 x 400,000, --algo $al" <<'EOF'
a b 1 0 400000 200000=1X199999= + 400000
EOF
done

# A query over 4 Mi (4,194,304 bytes; a sparse file).
truncate -s 4194305 huge.txt 2>/dev/null || head -c 4194305 /dev/zero >huge.txt
expect_error "query over 4 Mi" '4194304' align --mode global --alphabet text huge.txt seq:ACGT
rm -f huge.txt

# ---- 7. many pairs: rows made on threads ---------------------------------------------
awk 'BEGIN {
    srand(20261126)
    for (i = 0; i < 5000; i++) {
        m = (i % 97 == 0) ? 0 : 20 + int(rand() * 200)
        q = ""; for (j = 0; j < m; j++) q = q substr("ACGT", 1 + int(rand() * 4), 1)
        t = q; e = int(rand() * 8)
        for (j = 0; j < e && length(t) > 0; j++) {
            p = 1 + int(rand() * length(t))
            t = substr(t, 1, p - 1) substr("ACGT", 1 + int(rand() * 4), 1) substr(t, p + 1)
        }
        if (i % 101 == 0) t = ""
        printf ">p%d\n%s\n", i, q >"many_a.fa"
        printf ">p%d\n%s\n", i, t >"many_b.fa"
        printf "%s\t%s\n", q, t >"many.tsv"
    }
}'
for fmt in tsv json sam paf; do
    for cg in "" --cigar; do
        # shellcheck disable=SC2086
        "$W" align --mode global --pairs $cg --format $fmt -j 1 many_a.fa many_b.fa 2>/dev/null |
            grep -v '^@PG' >many.one
        # shellcheck disable=SC2086
        run align --mode global --pairs $cg --format $fmt -j 4 many_a.fa many_b.fa
        grep -v '^@PG' "$OUT" >many.four
        OUT=$TMP/many.four check_out "5,000 pairs, --format $fmt $cg: -j 4 as -j 1" many.one
        if have_gpu; then
            # shellcheck disable=SC2086
            run align --mode global --pairs $cg --format $fmt --backend cuda many_a.fa many_b.fa
            grep -v '^@PG' "$OUT" >many.gpu
            OUT=$TMP/many.gpu check_out "5,000 pairs, --format $fmt $cg: cuda as -j 1" many.one
        fi
    done
done
# batches of 333 and 4,097 pairs (the next batch aligned while a batch's
# rows are made): the bytes of one batch, and with --revcomp two slots a pair
for rc in "" --revcomp; do
    # shellcheck disable=SC2086
    "$W" align --mode global --pairs --cigar $rc -j 1 many_a.fa many_b.fa >many.one 2>/dev/null
    for nb in 333 4097; do
        # shellcheck disable=SC2086
        WM_TEST_PAIR_BATCH=$nb run align --mode global --pairs --cigar $rc -j 4 many_a.fa many_b.fa
        check_rc "5,000 pairs $rc in batches of $nb" 0
        check_out "5,000 pairs $rc in batches of $nb as one batch" many.one
        if have_gpu; then
            # shellcheck disable=SC2086
            WM_TEST_PAIR_BATCH=$nb run align --mode global --pairs --cigar $rc --backend cuda \
                many_a.fa many_b.fa
            check_out "5,000 pairs $rc in batches of $nb, cuda, as one batch" many.one
        fi
    done
done
# a reader that stops early: what was printed is a prefix, and the run ends
WM_TEST_PAIR_BATCH=100 "$W" align --mode global --pairs --cigar -j 4 many_a.fa many_b.fa \
    2>many.err | head -n 250 >many.four
head -n 250 many.one | cmp -s - many.four && pass || fail "batches of 100, head -n 250: not a prefix"
[ ! -s many.err ] && pass || fail "batches of 100, head -n 250: $(head -c 300 many.err)"
rm -f many.err
"$W" align --pairs --cigar -j 1 many.tsv >many.one 2>/dev/null
run align --pairs --cigar -j 4 many.tsv
check_rc "5,000 lines of PAIRS.tsv, -j 4" 0
check_out "5,000 lines of PAIRS.tsv, -j 4 as -j 1" many.one
[ "$(wc -l <many.one)" -ge 4000 ] && pass || fail "5,000 lines of PAIRS.tsv: $(wc -l <many.one) rows"
rm -f many_a.fa many_b.fa many.tsv many.one many.four many.gpu

finish
