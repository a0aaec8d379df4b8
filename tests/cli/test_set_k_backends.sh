#!/usr/bin/env bash
# test_set_k_backends.sh -- a pattern set within k errors (search -f -k,
# src/setk) prints the same bytes whatever runs it: one thread or two, any
# chunk size, and on a GPU (--backend cuda, when one is found) with any
# batch size. Random DNA with N runs, soft-masked stretches and many
# records; sets of reads cut from it with planted edits, both strands,
# IUPAC codes, k = 1..4, edit and Hamming; patterns too short to seed
# (guides with exact regions, short patterns with edits, mixed sets); and
# sets the GPU does not take (a pattern over 256 bases, regions with edits),
# which run on the CPU threads of a GPU context and say so. test_set_k.sh
# checks the set against each pattern alone; this one checks the backends
# against each other.
source "$(dirname "$0")/lib.sh"

python3 - "$TMP" <<'EOF'
import random, sys
out = sys.argv[1]
rng = random.Random(1717)
def dna(n): return ''.join(rng.choice('ACGT') for _ in range(n))
recs = []
for r in range(12):
    s = dna(rng.choice([40, 300, 2000, 9000, 30000]))
    if r % 3 == 0 and len(s) > 500: s = s[:200] + 'N' * 50 + s[250:]
    if r % 4 == 1 and len(s) > 1000: s = s[:500] + s[500:900].lower() + s[900:]
    if r % 5 == 2 and len(s) > 3000: s = s[:1000] + s[1000:1200] * 5 + s[2000:]  # repeats
    recs.append(s)
with open(out + '/text.fa', 'w') as f:
    for i, s in enumerate(recs):
        f.write('>rec%d\n' % i)
        for j in range(0, len(s), 70): f.write(s[j:j + 70] + '\n')
comp = str.maketrans('ACGTacgtN', 'TGCAtgcaN')
def read(m, k, hamming):
    src = rng.choice([s for s in recs if len(s) > m + 10]).upper()
    p = rng.randrange(len(src) - m)
    r = list(src[p:p + m])
    for _ in range(rng.randint(0, k + 1)):
        j = rng.randrange(len(r)); op = rng.random()
        if hamming or op < 0.5: r[j] = rng.choice('ACGT')
        elif op < 0.75: r.insert(j, rng.choice('ACGT'))
        elif len(r) > m - 2: del r[j]
    r = ''.join(r)
    if rng.random() < 0.5: r = r.translate(comp)[::-1]
    if rng.random() < 0.1: r = r[:7] + rng.choice('RYN') + r[8:]
    return r
for k in (1, 2, 3, 4):
    for hamming in (0, 1):
        name = '%s/reads_k%d_%s.fa' % (out, k, 'ham' if hamming else 'edit')
        with open(name, 'w') as f:
            for i in range(60):
                m = rng.randint(12 * (k + 2), 256)
                f.write('>q%d\n%s\n' % (i, read(m, k, hamming)))
# Patterns too short to seed, scanned whole: guides (20 nt + NGG, sites
# followed by GG in the text, 0-3 mismatches, some IUPAC codes inside) and
# short patterns with edits; then both kinds in one set with long reads.
def guide():
    while True:
        src = rng.choice([s for s in recs if len(s) > 40]).upper()
        p = rng.randrange(len(src) - 23)
        if src[p + 21:p + 23] == 'GG' and 'N' not in src[p:p + 20]: break
    g = list(src[p:p + 20])
    for _ in range(rng.randint(0, 3)): g[rng.randrange(20)] = rng.choice('ACGT')
    if rng.random() < 0.15: g[rng.randrange(20)] = rng.choice('RYN')
    g = ''.join(g) + 'NGG'
    return g
with open(out + '/guides.fa', 'w') as f:
    for i in range(40): f.write('>g%d\n%s\n' % (i, guide()))
with open(out + '/short_edit.fa', 'w') as f:
    for i in range(30): f.write('>s%d\n%s\n' % (i, read(rng.randint(16, 24), 4, 0)))
with open(out + '/cpu_only.fa', 'w') as f:   # over 256 bases; pieces too short
    f.write('>long\n%s\n>short\n%s\n>mid\n%s\n' % (read(400, 2, 0), read(20, 2, 0), read(90, 2, 0)))
EOF

same() { # NAME ARGS...: the run's stdout equals $TMP/ref
    local name=$1
    shift
    run search "$@"
    check_rc "$name" 0
    check_out "$name" "$TMP/ref"
}

for k in 1 2 3 4; do
    for metric in edit ham; do
        flags=(-k "$k" --revcomp)
        [ "$metric" = ham ] && flags+=(--hamming)
        pats="$TMP/reads_k${k}_$metric.fa"
        run search --backend cpu -j 1 "${flags[@]}" -f "$pats" "$TMP/text.fa"
        check_rc "k $k $metric: cpu -j 1" 0
        [ -s "$OUT" ] && pass || fail "k $k $metric: no match (the sets are cut from the text)"
        cp "$OUT" "$TMP/ref"
        same "k $k $metric: cpu -j 2 --chunk-bytes 1K" --backend cpu -j 2 --chunk-bytes 1K \
            "${flags[@]}" -f "$pats" "$TMP/text.fa"
        if have_gpu; then
            same "k $k $metric: cuda" --backend cuda "${flags[@]}" -f "$pats" "$TMP/text.fa"
            same "k $k $metric: cuda, batches of 1 MiB" --backend cuda --chunk-bytes 1M \
                "${flags[@]}" -f "$pats" "$TMP/text.fa"
            run search --backend cuda -c "${flags[@]}" -f "$pats" "$TMP/text.fa"
            check_out_text "k $k $metric: cuda -c" "$TMP/text.fa$TAB$(wc -l <"$TMP/ref")"
        fi
        # one row a locus: the CPU finds starts only where a locus reads them,
        # the GPU finds every edit hit's start (setk_cuda.cu)
        if [ "$metric" = edit ] && have_gpu; then
            run search --backend cpu -j 2 --chunk-bytes 1K --best-per-locus "${flags[@]}" \
                -f "$pats" "$TMP/text.fa"
            check_rc "k $k edit --best-per-locus: cpu" 0
            cp "$OUT" "$TMP/ref"
            same "k $k edit --best-per-locus: cuda" --backend cuda --best-per-locus "${flags[@]}" \
                -f "$pats" "$TMP/text.fa"
            same "k $k edit --best-per-locus: cuda, batches of 1 KiB" --backend cuda \
                --chunk-bytes 1K --best-per-locus "${flags[@]}" -f "$pats" "$TMP/text.fa"
        fi
    done
done

# Patterns too short to seed (direct_cuda.cu): Hamming with and without
# exact regions, edits, and a set that mixes them with seeded reads; GPU
# batches of 1 KiB cut through every record.
cat "$TMP/reads_k4_edit.fa" "$TMP/short_edit.fa" >"$TMP/mixed.fa"
direct_case() { # NAME ARGS...: cpu, then cuda in one batch and in 1 KiB batches
    local name=$1
    shift
    run search --backend cpu -j 2 "$@"
    check_rc "$name: cpu" 0
    [ -s "$OUT" ] && pass || fail "$name: no match (the patterns are cut from the text)"
    cp "$OUT" "$TMP/ref"
    if have_gpu; then
        same "$name: cuda" --backend cuda "$@"
        same "$name: cuda, batches of 1 KiB" --backend cuda --chunk-bytes 1K "$@"
        run search --backend cuda -c "$@"
        check_out_text "$name: cuda -c" "$TMP/text.fa$TAB$(wc -l <"$TMP/ref")"
    fi
}
direct_case "guides ham k 4 NGG" -k 4 --hamming --revcomp --exact-suffix 3 -f "$TMP/guides.fa" "$TMP/text.fa"
direct_case "guides ham k 3 prefix 2 + NGG" -k 3 --hamming --revcomp --exact-prefix 2 --exact-suffix 3 \
    -f "$TMP/guides.fa" "$TMP/text.fa"
direct_case "guides ham k 4, no regions" -k 4 --hamming --revcomp -f "$TMP/guides.fa" "$TMP/text.fa"
direct_case "guides ham k 2, one strand" -k 2 --hamming --exact-suffix 3 -f "$TMP/guides.fa" "$TMP/text.fa"
direct_case "short edit k 4" -k 4 --revcomp -f "$TMP/short_edit.fa" "$TMP/text.fa"
direct_case "reads and short patterns, edit k 4" -k 4 --revcomp -f "$TMP/mixed.fa" "$TMP/text.fa"

# Sets the GPU does not take: the CPU threads of the GPU context, said once.
run search --backend cpu -k 2 --revcomp -f "$TMP/cpu_only.fa" "$TMP/text.fa"
check_rc "cpu-only set: cpu" 0
cp "$OUT" "$TMP/ref"
if have_gpu; then
    same "cpu-only set: cuda" --backend cuda -k 2 --revcomp -f "$TMP/cpu_only.fa" "$TMP/text.fa"
    check_err "cpu-only set: cuda says where it ran" 'note: .*pattern set within k errors runs on the CPU threads'
fi
run search --backend cpu -k 2 --revcomp --exact-suffix 3 -f "$TMP/guides.fa" "$TMP/text.fa"
check_rc "guides edit k 2 NGG: cpu" 0
cp "$OUT" "$TMP/ref"
if have_gpu; then # exact regions with edits: the CPU's
    same "guides edit k 2 NGG: cuda" --backend cuda -k 2 --revcomp --exact-suffix 3 \
        -f "$TMP/guides.fa" "$TMP/text.fa"
    check_err "guides edit k 2 NGG: cuda says where it ran" 'note: .*runs on the CPU threads'
fi

# Real data, when the shared samples are here: E. coli and reads cut from it.
ECOLI=$SHARED/dna/ecoli_k12_mg1655.fa.gz
if [ -r "$ECOLI" ]; then
    gzip -dc "$ECOLI" >"$TMP/ecoli.fa"
    python3 - "$TMP" <<'EOF'
import random, sys
out = sys.argv[1]
rng = random.Random(7)
seq = ''.join(l.strip() for l in open(out + '/ecoli.fa') if not l.startswith('>')).upper()
comp = str.maketrans('ACGT', 'TGCA')
with open(out + '/ecoli_reads.fa', 'w') as f:
    for i in range(300):
        p = rng.randrange(len(seq) - 160); r = list(seq[p:p + 150])
        for _ in range(rng.randint(0, 4)):
            j = rng.randrange(len(r)); op = rng.random()
            if op < 0.6: r[j] = rng.choice('ACGT')
            elif op < 0.8: r.insert(j, rng.choice('ACGT'))
            else: del r[j]
        r = ''.join(r)
        if rng.random() < 0.5: r = r.translate(comp)[::-1]
        f.write('>r%d\n%s\n' % (i, r))
EOF
    run search --backend cpu -k 4 --revcomp -f "$TMP/ecoli_reads.fa" "$TMP/ecoli.fa"
    check_rc "E. coli reads: cpu" 0
    cp "$OUT" "$TMP/ref"
    n=$(cut -f5 "$TMP/ref" | sort -u | wc -l)
    [ "$n" -eq 300 ] && pass || fail "E. coli reads: $n of 300 reads found (each has at most 4 edits)"
    if have_gpu; then
        same "E. coli reads: cuda" --backend cuda -k 4 --revcomp -f "$TMP/ecoli_reads.fa" "$TMP/ecoli.fa"
    fi
else
    echo "note: $ECOLI absent, the E. coli checks are skipped"
fi

finish
