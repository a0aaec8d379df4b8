#!/usr/bin/env bash
# test_best_locus.sh -- search --best-per-locus (issue 20, item 5) against a
# brute-force clustering in Python of the tool's own rows (every end
# position, which the differential suites check against their oracle):
# rows of one source, record and strand whose intervals [start, end) share a
# byte are one locus, transitively; a locus prints its row with the fewest
# errors, the leftmost end on ties; rows stay in (record, end, strand) order;
# -c counts the loci (the brute force: tests/cli/loci_brute.py). Random
# texts (seeded; the seed is printed on failure), FASTA with several records
# and both strands, and the Bible case of the issue.
#
#     bash tests/cli/test_best_locus.sh /path/to/warpmatch /path/to/project_root
. "$(dirname "$0")/lib.sh"
export LC_ALL=C

SEED=${WM_SEED:-20261126}
BIBLE=$SHARED/text/bible.txt

# check_case NAME ARGS...: --best-per-locus rows and -c against the brute force.
check_case() {
    local name=$1
    shift
    run search "$@"
    if [ "$RC" -gt 1 ]; then
        fail "$name: every-end run failed (seed $SEED)"
        return
    fi
    python3 "$ROOT/tests/cli/loci_brute.py" one <"$OUT" >"$TMP/expect_locus"
    run search --best-per-locus "$@"
    check_out "$name (seed $SEED)" "$TMP/expect_locus"
    # -c counts the loci of each file
    run search --best-per-locus -c "$@"
    local files=() a
    for a in "$@"; do [ -f "$a" ] && files+=("$a"); done
    : >"$TMP/expect_count"
    for a in "${files[@]}"; do
        printf '%s\t%s\n' "$a" "$(awk -F'\t' -v f="$a" '$1 == f' "$TMP/expect_locus" | wc -l)" \
            >>"$TMP/expect_count"
    done
    check_out "$name -c (seed $SEED)" "$TMP/expect_count"
}

# ---- random texts: small alphabets so that matches overlap and chain ----------------
python3 - "$SEED" "$TMP" <<'EOF'
import random, sys
rnd = random.Random(int(sys.argv[1]))
d = sys.argv[2]
cases = []
for i in range(40):
    alpha = rnd.choice(['ab', 'abc', 'ACGT', 'abcdefgh'])
    n = rnd.choice([0, 1, 5, 50, 300, 3000])
    text = ''.join(rnd.choice(alpha) for _ in range(n))
    m = rnd.randint(2, 9)
    pat = ''.join(rnd.choice(alpha) for _ in range(m))
    k = rnd.randint(0, min(3, m - 1))
    ham = rnd.random() < 0.3
    if alpha == 'ACGT' and rnd.random() < 0.5:  # FASTA, several records, both strands
        path = '%s/r%d.fa' % (d, i)
        with open(path, 'w') as f:
            for r in range(rnd.randint(1, 4)):
                f.write('>rec%d\n' % r)
                s = ''.join(rnd.choice(alpha) for _ in range(rnd.randint(0, 400)))
                for j in range(0, len(s), 60):
                    f.write(s[j:j + 60] + '\n')
        extra = '--revcomp'
    else:
        path = '%s/r%d.txt' % (d, i)
        with open(path, 'w') as f:
            f.write(text)
        extra = ''
    cases.append('%s\t%s\t%d\t%s\t%s' % (path, pat, k, 'ham' if ham else 'edit', extra))
open(d + '/cases', 'w').write('\n'.join(cases) + '\n')
EOF
while IFS="$TAB" read -r path pat k metric extra; do
    args=(-k "$k")
    [ "$metric" = ham ] && args+=(--hamming)
    [ -n "$extra" ] && args+=("$extra")
    check_case "random $(basename "$path") $pat ${args[*]}" "${args[@]}" "$pat" "$path"
done <"$TMP/cases"

# two files at once, and a chain that a late, long match joins (an earlier
# locus merged into a later one)
printf 'xxabyyyyabxxxxabyyyyab' >"$TMP/chain.txt"
check_case "two files" -k 1 ab "$TMP/chain.txt" "$TMP/r0.txt"
printf 'aaaa aaaa' >"$TMP/aa.txt"
run search --best-per-locus aa "$TMP/aa.txt"
check_out_text "exact self-overlap: one locus per run" "$TMP/aa.txt${TAB}.${TAB}0${TAB}2${TAB}0${TAB}+
$TMP/aa.txt${TAB}.${TAB}5${TAB}7${TAB}0${TAB}+"

# ---- the issue's case: -k 2 Jerusalem on the Bible ----------------------------------
if [ -f "$BIBLE" ]; then
    check_case "bible -k 2 Jerusalem" -k 2 Jerusalem "$BIBLE"
    run search -c --best-per-locus -k 2 Jerusalem "$BIBLE"
    check_out_text "bible: 751 occurrences" "$BIBLE${TAB}751"
    check_case "bible -k 1 --hamming Moses" -k 1 --hamming Moses "$BIBLE"
    run search --best-per-locus -k 2 -m 3 -n Jerusalem "$BIBLE"
    head -3 "$TMP/expect_locus" >/dev/null
    if [ "$(wc -l <"$OUT")" -eq 3 ]; then pass; else fail "bible -m 3 with --best-per-locus"; fi
else
    echo "note: $BIBLE absent, the Bible checks are skipped"
fi

expect_error "an exact set is refused" "--best-per-locus is for matches within k errors" \
    search --best-per-locus -e ab -e cd "$TMP/chain.txt"

finish
