#!/usr/bin/env bash
# test_lambda.sh -- the bundled lambda phage genome: a 25-mer cut from it
# (across a FASTA line break) is found at its place, exactly once; its reverse
# complement with --revcomp is reported on strand '-' with forward coordinates.
. "$(dirname "$0")/lib.sh" "$@"
cd "$DATA" || exit 2
FA=lambda_phage.fa
REC='gi|9626243|ref|NC_001416.1|'

# Bases [30020, 30045) of the record: lines of 70, so this crosses a line end.
SEQ=$(awk 'NR > 1' "$FA" | tr -d '\n')
[ ${#SEQ} -eq 48502 ] || { echo "lambda_phage.fa: expected 48502 bases, got ${#SEQ}"; exit 1; }
PAT=${SEQ:30020:25}
RCPAT=TCCTGGGAAGACTCCTGTTATCAAG      # reverse complement of PAT, by hand
[ "$PAT" = CTTGATAACAGGAGTCTTCCCAGGA ] || fail "cut pattern is $PAT"
# Neither occurs elsewhere, on either strand (checked here, not assumed).
n_fwd=$(printf '%s' "$SEQ" | grep -o "$PAT" | wc -l)
n_rc=$(printf '%s' "$SEQ" | grep -o "$RCPAT" | wc -l)
[ "$n_fwd" -eq 1 ] && [ "$n_rc" -eq 0 ] || fail "pattern counts fwd=$n_fwd rc=$n_rc"

run search "$PAT" "$FA"
check_rc "exact" 0
check_out_text "exact" "$FA${TAB}$REC${TAB}30020${TAB}30045${TAB}0${TAB}+"
check_no_err "exact"

run search --revcomp "$RCPAT" "$FA"
check_rc "revcomp" 0
check_out_text "revcomp" "$FA${TAB}$REC${TAB}30020${TAB}30045${TAB}0${TAB}-"

run search --revcomp "$PAT" "$FA"
check_rc "revcomp of the forward pattern" 0
check_out_text "revcomp of the forward pattern" "$FA${TAB}$REC${TAB}30020${TAB}30045${TAB}0${TAB}+"

run search "$RCPAT" "$FA"
check_rc "reverse complement without --revcomp" 1
check_empty_out "reverse complement without --revcomp"

# Lower case pattern: DNA letters ignore case.
LOWER=$(printf '%s' "$PAT" | tr ACGT acgt)
run search "$LOWER" "$FA"
check_rc "lower-case DNA pattern" 0
check_out_text "lower-case DNA pattern" "$FA${TAB}$REC${TAB}30020${TAB}30045${TAB}0${TAB}+"

# One substitution in the middle: found with -k 1 (edit) at the same place as
# the best line, not with -k 0.
MUT=${PAT:0:12}$( [ "${PAT:12:1}" = A ] && echo C || echo A )${PAT:13}
run search "$MUT" "$FA"
check_rc "mutated, exact" 1
run search -k 1 --hamming "$MUT" "$FA"
check_rc "mutated, hamming" 0
check_out_text "mutated, hamming" "$FA${TAB}$REC${TAB}30020${TAB}30045${TAB}1${TAB}+"
run search -k 1 "$MUT" "$FA"
check_rc "mutated, edit" 0
grep -q "^$FA${TAB}$REC${TAB}30020${TAB}30045${TAB}1${TAB}+\$" "$OUT" && pass ||
    { fail "mutated, edit: no line for [30020,30045) with 1 error"; cat "$OUT"; }

finish
