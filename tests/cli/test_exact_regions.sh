#!/usr/bin/env bash
# test_exact_regions.sh -- search --exact-prefix / --exact-suffix (issue 17
# item 3: a PAM, bulges in the guide only): one pattern and sets within k,
# edit and Hamming, both strands (the regions swap on '-'), IUPAC codes in the
# regions, against a brute force of the contract (exact_regions_oracle.py);
# and the option errors. WM_TEST_SCALE multiplies the cases; WM_SEED moves
# them.
source "$(dirname "$0")/lib.sh"

SCALE=${WM_TEST_SCALE:-1}
N=$(python3 -c "import sys; print(max(2, int(60 * float(sys.argv[1]))))" "$SCALE")
SEED=${WM_SEED:-1}
python3 "$ROOT/tests/cli/exact_regions_oracle.py" "$W" "$TMP" "$SEED" "$N" >"$TMP/oracle.out" 2>&1
grep -q '^ok ' "$TMP/oracle.out" && pass || { fail "against the oracle"; head -8 "$TMP/oracle.out"; }

# The regions at work: a guide of 20 + NGG, its copy with 2 mismatches in the
# guide and one with a mismatch in the PAM; --exact-suffix 3 keeps the first
# two, and on the reverse strand the PAM comes first.
G=ACGTTGCAAGCTTCGATCGA
printf '>chr\nTTTT%sTGGAAAA%sAGGCCCC%sTCGCCCCTTTT\n' "$G" "ACGTTGCAAGCTTCGATCTT" "$G" >"$TMP/g.fa"
run search --hamming -k 2 --exact-suffix 3 "${G}NGG" "$TMP/g.fa"
check_rc "guide + NGG" 0
check_tsv "guide + NGG" <<EOF
$TMP/g.fa chr 4 27 0 +
$TMP/g.fa chr 31 54 2 +
EOF
rc_pam=CCN$(printf '%s' "$G" | rev | tr ACGT TGCA)
run search --hamming -k 2 --exact-prefix 3 --revcomp "$rc_pam" "$TMP/g.fa"
check_rc "the same from the other strand" 0
check_tsv "the same from the other strand" <<EOF
$TMP/g.fa chr 4 27 0 -
$TMP/g.fa chr 31 54 2 -
EOF

# Errors: the regions must leave more than k positions, for each pattern.
expect_error "regions over the pattern" "leave the pattern 0 positions for the errors" \
    search -k 1 --exact-prefix 4 --exact-suffix 4 ACGTACGT "$TMP/g.fa"
expect_error "k as large as the rest" "leave the pattern 2 positions for the errors; -k 2 needs more than 2" \
    search -k 2 --exact-prefix 3 --exact-suffix 3 ACGTACGT "$TMP/g.fa"
printf 'ACGTACGTACGT\nACGTAC\n' >"$TMP/p.txt"
expect_error "a set's short pattern named" "pattern 2 \(.*p.txt:2\) 2 positions" \
    search -k 2 --exact-suffix 4 -f "$TMP/p.txt" "$TMP/g.fa"

finish
