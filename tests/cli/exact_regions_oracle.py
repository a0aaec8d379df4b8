#!/usr/bin/env python3
"""exact_regions_oracle.py -- brute force for search --exact-prefix A
--exact-suffix B (test_exact_regions.sh): random DNA, patterns with IUPAC
codes in their regions, one pattern at a time and as a set within k, against
the contract written out here.

For each end e of the text: the last B pattern positions accept text[e-B, e)
exactly; the middle (the pattern less its regions) ends at e - B; over the
starts s of the middle whose first A positions before s accept the prefix,
errors = the smallest distance(middle, text[s, e - B)) (edit, or Hamming at
the middle's length), start = the largest s - A with it; a row when errors
<= k. Strand '-': the same for the reverse complement, regions swapped.

usage: exact_regions_oracle.py WARPMATCH TMPDIR FIRST_SEED COUNT
prints "ok N" (cases passed) or the first difference, exit 1."""
import random
import subprocess
import sys

IUPAC = {'A': 'A', 'C': 'C', 'G': 'G', 'T': 'T', 'R': 'AG', 'Y': 'CT', 'N': 'ACGT',
         'V': 'ACG', 'B': 'CGT', 'S': 'CG'}
COMP = {'A': 'T', 'C': 'G', 'G': 'C', 'T': 'A', 'R': 'Y', 'Y': 'R', 'N': 'N', 'V': 'B',
        'B': 'V', 'S': 'S'}


def accepts(p, c):
    return c in IUPAC[p]


def region_ok(pat, text, at):
    return at >= 0 and at + len(pat) <= len(text) and all(
        accepts(p, text[at + j]) for j, p in enumerate(pat))


def rows(pat, a, b, k, hamming, text):
    """(start, end, errors) for each end, as the contract says."""
    m = len(pat)
    mid = pat[a:m - b]
    mm = len(mid)
    out = []
    for e in range(1, len(text) + 1):
        if e - b < 0 or not region_ok(pat[m - b:], text, e - b):
            continue
        em = e - b
        best = None
        if hamming:
            s = em - mm
            if s - a >= 0 and region_ok(pat[:a], text, s - a):
                d = sum(not accepts(mid[j], text[s + j]) for j in range(mm))
                if d <= k:
                    best = (d, s)
        else:
            # distance(mid, text[em - j, em)) for j = 0, 1, ...: the middle
            # reversed against the text read leftwards from em
            col = list(range(mm + 1))
            for j in range(0, min(em, mm + k) + 1):
                if j > 0:
                    c = text[em - j]
                    new = [j] + [0] * mm
                    for i in range(1, mm + 1):
                        new[i] = min(col[i - 1] + (not accepts(mid[mm - i], c)),
                                     col[i] + 1, new[i - 1] + 1)
                    col = new
                s = em - j
                if s - a < 0:
                    break
                if col[mm] <= k and region_ok(pat[:a], text, s - a) and (
                        best is None or col[mm] < best[0]):
                    best = (col[mm], s)
        if best:
            out.append((best[1] - a, e, best[0]))
    return out


def case(w, tmp, seed):
    rng = random.Random(seed)
    long_mode = seed % 2 == 0  # patterns long enough for the set's seeds
    n = rng.randint(100, 250) if long_mode else rng.randint(50, 400)
    text = ''.join(rng.choice('ACGT') for _ in range(n))
    k, hamming, rc = rng.randint(0, 3), rng.random() < 0.4, rng.random() < 0.5
    a, b = rng.randint(0, 3), rng.randint(0, 3)
    if a + b == 0:
        b = 3
    pats = []
    for _ in range(rng.randint(1, 4)):
        lo = 12 * (k + 2) + a + b if long_mode else a + b + k + 1
        m = rng.randint(lo, lo + (25 if long_mode else 13))
        if rng.random() < 0.7 and n > m + 2:
            at = rng.randrange(n - m)
            p = list(text[at:at + m])
            for _ in range(rng.randint(0, k + 1)):
                p[rng.randrange(m)] = rng.choice('ACGT')
            p = ''.join(p)
        else:
            p = ''.join(rng.choice('ACGT') for _ in range(m))
        if b and rng.random() < 0.5:  # NGG-like: a code in the suffix
            p = p[:m - b] + 'N' + p[m - b + 1:]
        if a and rng.random() < 0.5:
            p = p[:a - 1] + rng.choice('RV') + p[a:]
        pats.append(p)
    fa = '%s/er.fa' % tmp
    with open(fa, 'w') as f:
        f.write('>t\n%s\n' % text)
    flags = ['--alphabet', 'dna', '-k', str(k), '--exact-prefix', str(a), '--exact-suffix', str(b)]
    flags += ['--hamming'] if hamming else []
    flags += ['--revcomp'] if rc else []
    merged = []
    for i, p in enumerate(pats):
        want = [(s, e, d, '+') for s, e, d in rows(p, a, b, k, hamming, text)]
        if rc:
            r = ''.join(COMP[c] for c in reversed(p))
            want += [(s, e, d, '-') for s, e, d in rows(r, b, a, k, hamming, text)]
        want.sort(key=lambda x: (x[1], x[3]))
        got = subprocess.run([w, 'search'] + flags + ['-e', p, fa], capture_output=True, text=True)
        rows_got = [(int(f[2]), int(f[3]), int(f[4]), f[5])
                    for f in (line.split('\t') for line in got.stdout.splitlines())]
        if rows_got != want:
            return 'seed %d, pattern %s, %s:\n  want %s\n  got  %s %s' % (
                seed, p, ' '.join(flags), want[:5], rows_got[:5], got.stderr[:200])
        merged += [(e, i, st, s, d) for s, e, d, st in want]
    if len(pats) > 1 and k > 0:
        pf = '%s/er.txt' % tmp
        with open(pf, 'w') as f:
            f.write('\n'.join(pats) + '\n')
        got = subprocess.run([w, 'search'] + flags + ['--chunk-bytes', '64', '-f', pf, fa],
                             capture_output=True, text=True)
        merged.sort(key=lambda x: (x[0], x[1], x[2]))
        want = ''.join('%s\tt\t%d\t%d\t%d\t%d%s\n' % (fa, s, e, i + 1, d, '\t' + st if rc else '')
                       for e, i, st, s, d in merged)
        if got.stdout != want:
            return 'seed %d, set %s, %s:\n  want %s\n  got  %s %s' % (
                seed, pats, ' '.join(flags), want[:200], got.stdout[:200], got.stderr[:200])
    return None


def main():
    w, tmp, first, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    for seed in range(first, first + count):
        bad = case(w, tmp, seed)
        if bad:
            print('FAIL ' + bad)
            sys.exit(1)
    print('ok %d' % count)


main()
