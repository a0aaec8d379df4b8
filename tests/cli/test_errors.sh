#!/usr/bin/env bash
# test_errors.sh -- exit statuses (0 match, 1 none, 2 error; errors win unless
# -q matched), "warpmatch: message" on stderr, the remaining files still
# searched, bad options refused before any file is read.
. "$(dirname "$0")/lib.sh" "$@"
cd "$GOLDEN" || exit 2

run search abc tiny.txt
check_rc "a match" 0
run search xyz tiny.txt
check_rc "no match" 1
check_empty_out "no match"
check_no_err "no match"

# A pattern longer than the text: no match, no error...
run search abcxaxcabzzzz tiny.txt
check_rc "pattern longer than the text" 1
check_no_err "pattern longer than the text"
run search -k 3 abcxaxcabzzzz tiny.txt
check_rc "pattern longer than the text, -k 3" 1
# ...unless k covers the missing length: 13 - 9 = 4 deletions, whole text.
run search -k 4 abcxaxcabzzzz tiny.txt
check_rc "pattern longer than the text, -k 4" 0
check_out_text "pattern longer than the text, -k 4" "tiny.txt${TAB}.${TAB}0${TAB}9${TAB}4${TAB}+"

# ---- a missing file among good ones ----
run search abc tiny.txt nofile.txt tiny.txt
check_rc "missing file" 2
check_err "missing file" '^warpmatch: .*nofile\.txt'
check_out_text "missing file" "tiny.txt${TAB}.${TAB}0${TAB}3${TAB}0${TAB}+
tiny.txt${TAB}.${TAB}0${TAB}3${TAB}0${TAB}+"
run search xyz tiny.txt nofile.txt
check_rc "missing file, no match" 2

# -q: silent; a match wins over an error, an error over no match.
run search -q abc tiny.txt
check_rc "-q match" 0
check_empty_out "-q match"
run search -q xyz tiny.txt
check_rc "-q no match" 1
check_empty_out "-q no match"
run search -q abc nofile.txt tiny.txt
check_rc "-q error then match" 0
check_empty_out "-q error then match"
run search -q xyz nofile.txt tiny.txt
check_rc "-q error, no match" 2
check_err "-q error, no match" '^warpmatch: .*nofile\.txt'
run search -q -c abc tiny.txt
check_rc "-q -c" 0
check_empty_out "-q -c"

# ---- a directory ----
mkdir -p "$TMP/adir"
run search abc "$TMP/adir"
check_rc "directory" 2
check_err "directory" '^warpmatch: .*adir'
check_empty_out "directory"
run search abc "$TMP/adir" tiny.txt
check_rc "directory then a file" 2
check_out_text "directory then a file" "tiny.txt${TAB}.${TAB}0${TAB}3${TAB}0${TAB}+"

# ---- a truncated gzip ----
gzip -c "$DATA/lambda_phage.fa" | head -c 3000 >"$TMP/cut.fa.gz"
run search ACGT "$TMP/cut.fa.gz"
check_rc "truncated gzip" 2
check_err "truncated gzip" '^warpmatch: .*cut\.fa\.gz'
run search bcxa "$TMP/cut.fa.gz" tiny.txt
check_rc "truncated gzip then a file" 2
check_out_text "truncated gzip then a file" "tiny.txt${TAB}.${TAB}1${TAB}5${TAB}0${TAB}+"

# ---- bad patterns and options: exit 2 before reading anything ----
run search "" tiny.txt
check_rc "empty pattern" 2
check_err "empty pattern" '^warpmatch: the pattern is empty$'
check_empty_out "empty pattern"

run search -k 3 abc tiny.txt
check_rc "k = m" 2
check_err "k = m" '^warpmatch: .*-k 3.*pattern length 3'
check_empty_out "k = m"
run search -k 7 --hamming abc tiny.txt
check_rc "k > m, hamming" 2
check_err "k > m, hamming" '^warpmatch: .*-k 7.*pattern length 3'

for bad in x -1 1.5 "" 99999999999999999999999; do
    run search -k "$bad" abc tiny.txt
    check_rc "-k '$bad'" 2
    check_err "-k '$bad'" '^warpmatch: .*(-k|max-edits)'
done
run search --threads many abc tiny.txt
check_rc "--threads many" 2
check_err "--threads many" '^warpmatch: .*threads'
run search --chunk-bytes 12Q abc tiny.txt
check_rc "--chunk-bytes 12Q" 2

run search --backend gpu abc tiny.txt
check_rc "unknown --backend" 2
check_err "unknown --backend" "^warpmatch: .*--backend.*gpu"
run search --format xml abc tiny.txt
check_rc "unknown --format" 2
run search --alphabet rna abc tiny.txt
check_rc "unknown --alphabet" 2
run search --algo fast abc tiny.txt
check_rc "unknown --algo" 2
run search --no-such-option abc tiny.txt
check_rc "unknown option" 2
check_err "unknown option" '^warpmatch: .*--no-such-option'
run search abc tiny.txt -k
check_rc "missing option value" 2

run search --revcomp hello tiny.txt     # (abc would be IUPAC: B = C/G/T)
check_rc "--revcomp, not a nucleotide pattern" 2
check_err "--revcomp, not a nucleotide pattern" '^warpmatch: .*--revcomp'
run search --alphabet dna xyz tiny.txt
check_rc "--alphabet dna, not a nucleotide pattern" 2
run search --algo shiftor -k 1 abc tiny.txt
check_rc "--algo shiftor -k 1" 2
run search --algo myers --hamming -k 1 abc tiny.txt
check_rc "--algo myers --hamming" 2
run search -c --json abc tiny.txt
check_rc "-c --json" 2

# --backend cuda where there is no GPU (or no CUDA build): a message, exit 2.
if have_gpu; then
    run search --backend cuda abc tiny.txt
    check_rc "--backend cuda with a GPU" 0
else
    run search --backend cuda abc tiny.txt
    check_rc "--backend cuda without a GPU" 2
    check_err "--backend cuda without a GPU" '^warpmatch: .*cuda'
    check_empty_out "--backend cuda without a GPU"
fi

finish
