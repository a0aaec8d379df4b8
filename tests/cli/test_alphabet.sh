# test_alphabet.sh -- issue 20, "no silent guesses": --alphabet auto decides
# from the data (cli/sniff.c), never from the pattern; the case rules are
# the same for one sequence in a plain, FASTA or FASTQ file; align takes a
# sequence on the command line only as seq:SEQ, so a misspelt file name is
# an error. Counts are checked against a brute-force count in Python
# (count.py below: every start position tried, overlaps included), the
# choice against --explain-alphabet.
#
# Regressions named by the issue: GAVWK and MKRS in the UniProt FASTA (383
# and 1,900 hits before, 1 and 50 true), a lowercase pattern in a FASTA file
# and in the same sequence as a plain file (13 against 0), and
# `align reads_typo ecoli.fa` (aligned the name's letters, exit 0).
. "$(dirname "$0")/lib.sh"
export LC_ALL=C
cd "$TMP" || exit 2

# count.py MODE PATTERN FILE...: the number of start positions where PATTERN
# occurs in each FILE's records (one line per file, as search -c), by brute
# force. MODE text: bytes as they are; itext: ASCII case folded; dna: IUPAC
# codes in the pattern, A C G T (U as T) of the data in either case, other
# data bytes match nothing. FASTA/FASTQ records are their sequence lines
# joined; a plain file is one record of all its bytes; gzip is read through.
cat >count.py <<'PY'
import gzip, re, sys
IUPAC = {'A': 'A', 'C': 'C', 'G': 'G', 'T': 'T', 'U': 'T', 'R': 'AG', 'Y': 'CT',
         'S': 'CG', 'W': 'AT', 'K': 'GT', 'M': 'AC', 'B': 'CGT', 'D': 'AGT',
         'H': 'ACT', 'V': 'ACG', 'N': 'ACGT'}
def records(path):
    raw = open(path, 'rb').read()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    first = raw.lstrip()[:1]
    if first not in (b'>', b'@'):
        return [raw]
    lines = raw.split(b'\n')
    recs = []
    if first == b'>':
        for ln in lines:
            ln = ln.rstrip(b'\r')
            if ln.startswith(b'>'):
                recs.append([])
            elif recs:
                recs[-1].append(ln.strip())
    else:
        for i in range(0, len(lines) - 3, 4):
            recs.append([lines[i + 1].rstrip(b'\r')])
    return [b''.join(r) for r in recs]
def count(mode, pat, seq):
    n = 0
    if mode == 'dna':
        # a lookahead at every start: overlapping matches, one class a position
        cls = b''.join(b'[' + IUPAC[c].encode() + b']' for c in pat.upper())
        s = seq.upper().replace(b'U', b'T')
        return sum(1 for _ in re.finditer(b'(?=' + cls + b')', s))
    p = pat.encode()
    if mode == 'itext':
        p, seq = p.lower(), seq.lower()
    i = seq.find(p)
    while i >= 0:
        n += 1
        i = seq.find(p, i + 1)
    return n
mode, pat = sys.argv[1], sys.argv[2]
for path in sys.argv[3:]:
    print('%s\t%d' % (path, sum(count(mode, pat, r) for r in records(path))))
PY

# expect_count NAME MODE PATTERN FILE [OPTIONS]: search -c PATTERN FILE
# prints the brute-force count.
expect_count() {
    local name=$1 mode=$2 pat=$3 file=$4
    shift 4
    local want=want.$N_RUN
    python3 count.py "$mode" "$pat" "$file" >$want || { fail "$name: count.py"; return; }
    run search -c "$@" "$pat" "$file"
    check_no_err "$name"
    check_out "$name" $want
}

# explains NAME ALPHABET FILE ARGS...: --explain-alphabet says ALPHABET for FILE.
explains() {
    local name=$1 alpha=$2 file=$3
    shift 3
    run "$@" --explain-alphabet
    check_err "$name" "^warpmatch: alphabet $alpha for $file: "
}

LAMBDA=$DATA/lambda_phage.fa
PROT=$SHARED/protein/uniprot_20k_mmseqs2_DB.fasta.gz
ECOLI=$SHARED/dna/ecoli_k12_mg1655.fa.gz

# ---- protein data is text: the peptide counts of the issue ------------------------------

if [ -r "$PROT" ]; then
    expect_count "GAVWK in UniProt (was 383)" text GAVWK "$PROT"
    expect_count "MKRS in UniProt (was 1,900)" text MKRS "$PROT"
    printf '%s\t1\n' "$PROT" >want.gavwk
    run search -c GAVWK "$PROT"
    check_out "GAVWK: the one true hit" want.gavwk
    printf '%s\t50\n' "$PROT" >want.mkrs
    run search -c MKRS "$PROT"
    check_out "MKRS: the 50 true hits" want.mkrs
    explains "UniProt is text" text "$PROT" search -c MKRS "$PROT"
    check_err "UniProt: the share said" ' of the first 65536 sequence bytes are A, C, G, T, U or N \(90% makes DNA\)$'
    # One protein as a FASTA file and as a plain one-line file: the same
    # counts, case-sensitive, and with -i folded.
    zcat "$PROT" | head -2000 >prot.fa
    awk '/^>/ { next } { printf "%s", $0 }' prot.fa >prot.txt
    for f in prot.fa prot.txt; do
        expect_count "$f: lowercase peptide is case-sensitive text" text gavwk $f
        expect_count "$f: uppercase peptide" text GAVW $f
        expect_count "$f: -i folds case" itext gavw $f -i
        explains "$f is text" text $f search -c GAVW $f
    done
    # A DNA-only IUPAC pattern against protein data is searched as text.
    expect_count "IUPAC letters in protein data are text" text GAT prot.fa
    expect_count "IUPAC letters in protein data, lowercase" text gat prot.fa
    # align: a protein target is text, the query too.
    run align seq:GAVWK prot.fa --explain-alphabet
    check_rc "align in protein" 0
    check_err "align in protein: the target is text" '^warpmatch: alphabet text for the target prot\.fa: '
    check_err "align in protein: a DNA-like query follows it" \
        '^warpmatch: alphabet text for the query seq:GAVWK: .*all IUPAC codes; aligned as text, as the target is$'
    # A protein query against a DNA target is refused, not aligned as DNA.
    head -2 prot.fa >one_prot.fa
    expect_error "align: protein query, DNA target" \
        "^warpmatch: the target .*lambda_phage\\.fa is DNA \\(--alphabet auto\\) but the query one_prot\\.fa is not \\(.*\\); give --alphabet text" \
        align one_prot.fa "$LAMBDA"
    run align --alphabet text one_prot.fa "$LAMBDA"
    check_rc "align: protein query, DNA target, --alphabet text" 0
else
    echo "no $PROT: the UniProt counts skipped"
fi

# ---- DNA data: lambda (bundled) and E. coli, IUPAC patterns --------------------------------

explains "lambda is dna" dna "$LAMBDA" search -c GATC "$LAMBDA"
check_err "lambda: the share said" '100\.0% of the first 48502 sequence bytes are A, C, G, T, U or N'
for p in GATC gatc GANTC RGATCY ACGTNNACGT gaTTacA; do
    expect_count "lambda: $p" dna "$p" "$LAMBDA"
done
fwd=$(python3 count.py dna GGATC "$LAMBDA" | cut -f2)
rev=$(python3 count.py dna GATCC "$LAMBDA" | cut -f2)
printf '%s\t%s\n' "$LAMBDA" $((fwd + rev)) >want.rc
run search -c --revcomp GGATC "$LAMBDA"
check_out "lambda: --revcomp counts both strands" want.rc

# The same sequence as FASTA, as one plain line, as plain lines, soft-masked,
# gzip-compressed and as FASTQ: the same counts for a lowercase pattern (13
# against 0 before: a plain file was text).
awk '/^>/ { next } { printf "%s", $0 }' "$LAMBDA" >lambda.txt
awk '/^>/ { next } { print }' "$LAMBDA" >lambda_lines.txt
awk '/^>/ { print; next } { print tolower($0) }' "$LAMBDA" >lambda_soft.fa
gzip -c "$LAMBDA" >lambda.fa.gz
{ printf '@l\n'; cat lambda.txt; printf '\n+\n'; tr 'ACGTN' 'IIIII' <lambda.txt; printf '\n'; } >lambda.fq
run search -c gattac "$LAMBDA"
n_fa=$(cut -f2 "$OUT")
[ "$n_fa" -gt 0 ] && pass || fail "lowercase gattac: no hit in lambda (the case test needs some)"
for f in lambda.txt lambda_soft.fa lambda.fa.gz lambda.fq; do
    printf '%s\t%s\n' $f "$n_fa" >want.$f
    run search -c gattac $f
    check_out "lowercase pattern: $f as the FASTA" want.$f
    explains "$f is dna" dna $f search -c gattac $f
done
# Line breaks in a plain file are bytes of the text (a match does not cross
# them), but they do not make the file text.
expect_count "lambda in lines: dna, breaks are bytes" dna gattac lambda_lines.txt
explains "lambda in lines is dna" dna lambda_lines.txt search -c gattac lambda_lines.txt
run_in lambda.txt search -c --explain-alphabet gattac -
check_err "standard input sniffed" '^warpmatch: alphabet dna for \(standard input\): '

if [ -r "$ECOLI" ]; then
    explains "E. coli is dna" dna "$ECOLI" search -c GATC "$ECOLI"
    for p in GAATTC RGATCY CCWGG; do
        expect_count "E. coli: $p" dna "$p" "$ECOLI"
    done
else
    echo "no $ECOLI: the E. coli counts skipped"
fi

# DNA data and a pattern with no nucleotide reading (a letter that is no
# IUPAC code): its bytes, the only thing it can mean, said by
# --explain-alphabet. A set that mixes such patterns with nucleotide ones
# is refused for that file (the other files are still searched): one case
# rule could not serve both.
printf 'HELLO world\n' >hello.txt
{ printf '>d\n'; for i in $(seq 40); do printf ACGT; done; printf 'HELLO'; for i in $(seq 10); do printf acgt; done; printf '\n'; } >dna_hello.fa
run search -c HELLO lambda.txt dna_hello.fa hello.txt
check_rc "a word in DNA data: its bytes" 0
printf 'lambda.txt\t0\ndna_hello.fa\t1\nhello.txt\t1\n' >want.hello
check_out "a word in DNA data: its bytes" want.hello
run search -c hello dna_hello.fa
check_rc "a word in DNA data: case matters (text)" 1
explains "a word in DNA data: said" text dna_hello.fa search -c HELLO dna_hello.fa
check_err "a word in DNA data: the reason" '; the pattern is not IUPAC nucleotide letters, so text$'
run search -c -e HELLO -e QQQ dna_hello.fa --explain-alphabet
check_out_text "a set of words in DNA data: text" "dna_hello.fa	1"
check_err "a set of words in DNA data: said" '; no pattern of the set is A, C, G, T, U only, so text$'
expect_error "DNA data, a set mixing words and nucleotides" \
    '^warpmatch: lambda\.txt: the data is DNA \(--alphabet auto\) but the set mixes patterns of A, C, G, T, U only with others; give --alphabet text' \
    search -c -e GATC -e HELLO lambda.txt
expect_error "DNA data, a set with IUPAC codes beyond ACGTU (sets take none)" \
    'but the set mixes patterns of A, C, G, T, U only with others' search -e GATC -e GATN "$LAMBDA"
# (hay is IUPAC letters, H A Y, but a set takes A, C, G, T, U only: text)
run search -c -e hay -e stack -e HELLO dna_hello.fa
check_out_text "a set of IUPAC-letter words in DNA data: text" "dna_hello.fa	1"
run search -c -e GATC -e HELLO lambda.txt hello.txt
check_rc "refused file, others searched" 2
printf 'hello.txt\t1\n' >want.mixed
check_out "refused file, others searched: the text file's count" want.mixed
run search -c --alphabet text -e GATC -e HELLO lambda.txt
check_rc "--alphabet text on DNA data" 0
explains "--alphabet text says so" text lambda.txt search -c --alphabet text GATC lambda.txt
check_err "--alphabet text: the reason" ': --alphabet text$'

# ---- the rule at its edges: 90%, 64 KiB, blanks, nothing ------------------------------

# explain_file NAME ALPHABET FILE: the choice for FILE (pattern A).
explain_file() {
    run search -c --explain-alphabet A "$3"
    check_err "$1" "^warpmatch: alphabet $2 for $3: "
}
awk 'BEGIN { for (i = 0; i < 900; i++) printf "A"; for (i = 0; i < 100; i++) printf "X" }' >p900.txt
awk 'BEGIN { for (i = 0; i < 899; i++) printf "A"; for (i = 0; i < 101; i++) printf "X" }' >p899.txt
explain_file "90.0% nucleotides: dna" dna p900.txt
check_err "90.0%: the share" '90\.0% of the first 1000 sequence bytes'
explain_file "89.9% nucleotides: text" text p899.txt
check_err "89.9%: the share" '89\.9% of the first 1000 sequence bytes'
# Only the first 64 KiB count: DNA then protein is dna, protein then DNA text.
awk 'BEGIN { for (i = 0; i < 16384; i++) printf "ACGT"; for (i = 0; i < 200000; i++) printf "MKLV" }' >dna_then_prot.txt
awk 'BEGIN { for (i = 0; i < 16384; i++) printf "MKLV"; for (i = 0; i < 200000; i++) printf "ACGT" }' >prot_then_dna.txt
explain_file "the first 64 KiB decide (dna)" dna dna_then_prot.txt
check_err "64 KiB: bytes counted" 'of the first 65536 sequence bytes'
explain_file "the first 64 KiB decide (text)" text prot_then_dna.txt
# Blanks are skipped: a sequence in short lines with spaces is still DNA.
awk 'BEGIN { for (i = 0; i < 100; i++) print "ACGT ACGT\t" }' >blanks.txt
explain_file "blanks skipped" dna blanks.txt
check_err "blanks: 800 bytes seen" '100\.0% of the first 800 sequence bytes'
# U and N count; other IUPAC codes do not.
printf 'ACGUNacgun' >un.txt
explain_file "U and N are nucleotide letters" dna un.txt
printf 'ACGTRYKMSW' >codes.txt
explain_file "other IUPAC codes are not" text codes.txt
: >empty.txt
explain_file "nothing to look at: text" text empty.txt
check_err "empty: said" 'no sequence bytes to look at'

# ---- align: literals only as seq:SEQ, a typo is an error --------------------------------

expect_error "align reads_typo" '^warpmatch: reads_typo: No such file or directory$' \
    align reads_typo "$LAMBDA"
expect_error "align a typo target" '^warpmatch: ecoli_typo\.fa: No such file or directory$' \
    align seq:ACGT ecoli_typo.fa
expect_error "align a bare sequence: the hint" \
    '^warpmatch: GATTACA: No such file or directory \(a sequence on the command line is written seq:GATTACA\)$' \
    align GATTACA "$LAMBDA"
run align seq:GGCGATGTGGCCATCGTCGTGTATTC "$LAMBDA"
check_rc "align seq: literal" 0
check_out_re "align seq: literal, found at its place" "^query	gi\\|9626243\\|ref\\|NC_001416\\.1\\|	0	6869	6895	\\+	26$"
run align seq:ggcgatgtggccatcgtcgtgtattc "$LAMBDA" --explain-alphabet
check_out_re "align: lowercase literal in DNA target" "	0	6869	6895	\\+	26$"
check_err "align explain: target" "^warpmatch: alphabet dna for the target .*lambda_phage\\.fa: 100\\.0% "
check_err "align explain: query" "^warpmatch: alphabet dna for the query seq:ggcgatgtggccatcgtcgtgtattc: 100\\.0% "
# search: -f names a file, and a missing one is an error (the pattern
# argument stays a literal, as grep's).
expect_error "search -f missing file" '^warpmatch: pats_typo\.txt: No such file or directory$' \
    search -f pats_typo.txt "$LAMBDA"
run search -c GATTACA "$LAMBDA"
check_rc "search: the pattern argument is a literal" 0

finish
