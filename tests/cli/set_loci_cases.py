"""set_loci_cases.py -- the cases of test_set_loci.sh, written into DIR.

    python3 set_loci_cases.py dna|text SEED N DIR

dna: N cases c, each pats.c.txt (one pattern a line), text.c.fa and k.c:
copies of the patterns back to back with gaps of -2k..k+3 bytes (the copies
overlapping when negative), edits in them (some copies over k), a third of
them reverse-complemented, runs of one base, 1-3 records; half the sets of
two letters, so that near-copies are everywhere.
text: N / 4 + 1 cases c, each wpats.c.txt, wtext.c.txt and wk.c: words
holding copies of the patterns with edits, letters glued on now and then
(for -w).
"""
import random
import sys

COMP = {'A': 'T', 'C': 'G', 'G': 'C', 'T': 'A'}


def edited(r, seq, edits, alpha):
    """seq with `edits` random substitutions, deletions and insertions."""
    s = list(seq)
    for _ in range(edits):
        i = r.randrange(len(s))
        op = r.randrange(3)
        if op == 0:
            s[i] = r.choice(alpha)
        elif op == 1 and len(s) > 1:
            del s[i]
        else:
            s.insert(i, r.choice(alpha))
    return s


def dna_case(seed, c, d):
    r = random.Random(seed * 1000 + c)
    k = r.randint(1, 4)
    pats = []
    for _ in range(r.randint(1, 4)):
        m = r.randint(max(k + 8, 14), 48)
        alpha = 'ACGT' if r.random() < 0.5 else 'AC'
        pats.append(''.join(r.choice(alpha) for _ in range(m)))
    recs = []
    for _ in range(r.randint(1, 3)):
        s = []
        for _ in range(r.randint(3, 12)):
            p = r.choice(pats)
            if r.random() < 0.3:
                p = ''.join(COMP[b] for b in reversed(p))
            p = edited(r, p, r.randint(0, k + 1), 'ACGT')
            gap = r.randint(-2 * k, k + 3)
            if gap < 0 and s:
                del s[gap:]  # the copies overlap
            else:
                s.extend(r.choice('ACGT') for _ in range(max(gap, 0)))
            s.extend(p)
            if r.random() < 0.15:
                s.extend(r.choice('ACGT') * r.randint(5, 40))  # a run of one base
        recs.append(''.join(s))
    with open(f'{d}/pats.{c}.txt', 'w') as f:
        f.write('\n'.join(pats) + '\n')
    with open(f'{d}/text.{c}.fa', 'w') as f:
        for i, s in enumerate(recs):
            f.write(f'>rec{i}\n')
            for j in range(0, len(s), 60):
                f.write(s[j:j + 60] + '\n')
    with open(f'{d}/k.{c}', 'w') as f:
        f.write(f'{k}\n')


def text_case(seed, c, d):
    r = random.Random(seed * 7000 + c)
    k = r.randint(1, 3)
    pats = [''.join(r.choice('abcd') for _ in range(r.randint(k + 8, 30)))
            for _ in range(r.randint(1, 3))]
    words = []
    for _ in range(r.randint(20, 80)):
        if r.random() < 0.6:
            w = r.choice(pats)
        else:
            w = ''.join(r.choice('abcd') for _ in range(r.randint(1, 9)))
        w = edited(r, w, r.randint(0, k + 1), 'abcd')
        if r.random() < 0.3:
            w = [r.choice('abcd')] * r.randint(1, 3) + w
        words.append(''.join(w))
    with open(f'{d}/wpats.{c}.txt', 'w') as f:
        f.write('\n'.join(pats) + '\n')
    with open(f'{d}/wtext.{c}.txt', 'w') as f:
        f.write(' '.join(words) + '\n')
    with open(f'{d}/wk.{c}', 'w') as f:
        f.write(f'{k}\n')


def main():
    kind, seed, n, d = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    if kind == 'dna':
        for c in range(n):
            dna_case(seed, c, d)
    else:
        for c in range(n // 4 + 1):
            text_case(seed, c, d)


main()
