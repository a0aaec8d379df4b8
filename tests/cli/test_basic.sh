#!/usr/bin/env bash
# test_basic.sh -- --version, --help, info, unknown commands, search --help.
. "$(dirname "$0")/lib.sh" "$@"

run --version
check_rc "--version" 0
check_out_text "--version" "warpmatch 0.1.0"

run --help
check_rc "--help" 0
grep -q '^  search ' "$OUT" && pass || fail "--help does not list search"
grep -q '^  info ' "$OUT" && pass || fail "--help does not list info"
grep -q '^  align ' "$OUT" && pass || fail "--help does not list align"
grep -q '^  dtw ' "$OUT" && pass || fail "--help does not list dtw"

run
check_rc "no command" 2

run frobnicate
check_rc "unknown command" 2
check_err "unknown command" "^warpmatch: .*frobnicate"
check_empty_out "unknown command"

run dtw
check_rc "dtw" 2
check_err "dtw" "^warpmatch: dtw needs a QUERY and a SERIES"

run info
check_rc "info" 0
check_out_re "info version" '^warpmatch 0\.1\.0$'
check_out_re "info cpu" '^cpu: yes$'
check_out_re "info cuda" '^cuda: (yes|no \(not built\))$'
check_out_re "info gpus" '^gpu( [0-9]+: .*GiB total.*SMs|: no GPU found)$'
check_out_re "info threads" '^cpu threads online: [1-9][0-9]*$'

run search --help
check_rc "search --help" 0
for want in '-k, --max-edits' '--hamming' '--revcomp' '--alphabet' '--backend' \
            '--threads' '--count' '--by-record' '--format' '--json' '--quiet' \
            'errors allowed.*\[0\]' 'tsv, bed or json \[tsv\]' 'auto, cpu or cuda \[auto' \
            'largest s' 'half-open' 'Exit status'; do
    grep -q -- "$want" "$OUT" && pass || fail "search --help lacks /$want/"
done

run search
check_rc "search without a pattern" 2
check_err "search without a pattern" '^warpmatch: no pattern'

finish
