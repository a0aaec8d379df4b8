# test_rows.sh -- search's rows formatted in batches on threads (cli/rows.c)
# print the bytes of rows printed one at a time. --line-buffered prints one
# row at a time (its rows go out as found), so each listing below is run
# both ways, on 1, 2 and 8 threads, and compared byte for byte: sets and one
# pattern, TSV, BED and JSON, --cigar, -o, -m inside a batch, within k and
# both strands, --best-per-locus, several files, a streamed gzip file and
# standard input (their batches of records drained in turn). Then the
# failures: a listing into a full device ends with exit 2 and a message, and
# a reader that closes the pipe early ends the run quietly.
. "$(dirname "$0")/lib.sh"

# A text of 600,000 bases with dense matches (over 100,000 rows: many
# batches of 4,096) and a FASTA file of records with names.
python3 - "$TMP" <<'EOF'
import random, sys, gzip
random.seed(7)
d = sys.argv[1]
s = ''.join(random.choice('ACGT') for _ in range(600000))
open(d + '/big.txt', 'w').write(s)
with open(d + '/big.fa', 'w') as f:
    for i in range(60):
        f.write('>rec%d some description\n' % i)
        r = s[i * 10000:(i + 1) * 10000]
        for j in range(0, len(r), 70):
            f.write(r[j:j + 70] + '\n')
with gzip.open(d + '/big.fa.gz', 'wt') as f:
    f.write(open(d + '/big.fa').read())
pats = sorted({s[p:p + 6] for p in random.sample(range(len(s) - 6), 120)})
open(d + '/set.txt', 'w').write('\n'.join(pats) + '\n')
with open(d + '/named.fa', 'w') as f:
    for i, p in enumerate(pats[:40]):
        f.write('>guide_%d\n%s\n' % (i, p))
EOF

# same NAME ARGS...: the run's bytes and status with rows in batches equal
# the run's with --line-buffered, on 1, 2 and 8 threads.
same() {
    local name=$1 j
    shift
    "$W" search --line-buffered -j 2 "$@" >"$TMP/one.out" 2>"$TMP/one.err"
    local rc1=$?
    for j in 1 2 8; do
        "$W" search -j "$j" "$@" >"$TMP/batch.out" 2>"$TMP/batch.err"
        local rc=$?
        if [ "$rc" -eq "$rc1" ] && cmp -s "$TMP/one.out" "$TMP/batch.out"; then
            pass
        else
            fail "$name -j $j: status $rc (one at a time $rc1), $(wc -l <"$TMP/batch.out") rows ($(wc -l <"$TMP/one.out")): $(cmp "$TMP/one.out" "$TMP/batch.out" 2>&1 | head -1)"
        fi
    done
    local rows
    rows=$(wc -l <"$TMP/one.out")
    [ "$rows" -gt 0 ] && pass || fail "$name printed nothing"
}

same "set TSV" -f "$TMP/set.txt" "$TMP/big.txt"
same "set TSV, FASTA" -f "$TMP/set.txt" "$TMP/big.fa"
same "set BED" --format bed -f "$TMP/set.txt" "$TMP/big.fa"
same "set JSON" --format json -f "$TMP/set.txt" "$TMP/big.fa"
same "set, names" -f "$TMP/named.fa" "$TMP/big.fa"
same "set, both strands" --revcomp -f "$TMP/set.txt" "$TMP/big.fa"
same "set within 1" -k 1 -f "$TMP/named.fa" "$TMP/big.fa"
same "set within 1, --cigar" -k 1 --cigar -f "$TMP/named.fa" "$TMP/big.fa"
same "set within 1, best per locus" -k 1 --best-per-locus -f "$TMP/named.fa" "$TMP/big.fa"
same "set, -m inside a batch" -m 10001 -f "$TMP/set.txt" "$TMP/big.fa"
same "set, -o" -o -f "$TMP/set.txt" "$TMP/big.txt"
same "one pattern" ACG "$TMP/big.fa"
same "one pattern within 2, --cigar" -k 2 --cigar ACGTAC "$TMP/big.fa"
same "one pattern, JSON" --format json ACG "$TMP/big.fa"
same "two files" -f "$TMP/set.txt" "$TMP/big.fa" "$TMP/big.txt"
same "gzip, streamed" -f "$TMP/set.txt" "$TMP/big.fa.gz"
same "gzip, streamed, small batches" --stream --stream-batch 65536 -f "$TMP/set.txt" "$TMP/big.fa.gz"

# standard input, streamed in batches
"$W" search --line-buffered -f "$TMP/set.txt" - <"$TMP/big.fa" >"$TMP/one.out" 2>&1
"$W" search -j 8 -f "$TMP/set.txt" - <"$TMP/big.fa" >"$TMP/batch.out" 2>&1
cmp -s "$TMP/one.out" "$TMP/batch.out" && pass || fail "standard input: rows differ"

# a full device: exit 2 and a message, whatever the threads
if [ -w /dev/full ]; then
    for j in 1 8; do
        "$W" search -j "$j" -f "$TMP/set.txt" "$TMP/big.fa" >/dev/full 2>"$TMP/err.txt"
        rc=$?
        if [ "$rc" -eq 2 ] && grep -q "No space" "$TMP/err.txt"; then
            pass
        else
            fail "/dev/full -j $j: status $rc, $(head -c 300 "$TMP/err.txt")"
        fi
    done
fi

# a reader that stops after a few rows: the run ends, quietly, as before
for j in 1 8; do
    out=$( ("$W" search -j "$j" -f "$TMP/set.txt" "$TMP/big.fa" 2>"$TMP/err.txt"; echo "rc=$?" >"$TMP/rc.txt") | head -3)
    rc=$(cat "$TMP/rc.txt")
    if [ "$(printf '%s\n' "$out" | wc -l)" -eq 3 ] && [ ! -s "$TMP/err.txt" ] &&
        { [ "$rc" = rc=0 ] || [ "$rc" = rc=141 ]; }; then
        pass
    else
        fail "a closed pipe -j $j: $rc, $(head -c 300 "$TMP/err.txt")"
    fi
done

finish
