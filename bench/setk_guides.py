#!/usr/bin/env python3
"""setk_guides.py -- CRISPR-like guides for the set-within-k benchmarks.

    python3 bench/setk_guides.py OUT.fa GENOME.fa N SEED

N guides, each 20 nt of a GENOME site that is followed by GG (no N in the
20), with 0-2 planted mismatches, written as the 20 nt + "NGG" (IUPAC N),
one FASTA record each (g0, g1, ...). The same SEED gives the same guides.
"""
import random
import sys

out, genome, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
seq = ''.join(l.strip() for l in open(genome) if not l.startswith('>')).upper()
with open(out, 'w') as f:
    i = 0
    while i < n:
        p = rng.randrange(len(seq) - 30)
        if seq[p + 21:p + 23] != 'GG' or 'N' in seq[p:p + 20]:
            continue
        g = list(seq[p:p + 20])
        for _ in range(rng.randint(0, 2)):
            g[rng.randrange(20)] = rng.choice('ACGT')
        f.write('>g%d\n%sNGG\n' % (i, ''.join(g)))
        i += 1
