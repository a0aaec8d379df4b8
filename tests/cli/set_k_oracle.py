#!/usr/bin/env python3
"""set_k_oracle.py -- pattern sets within k errors (issue 17) on tiny inputs
against a brute force written from the contract of a match, not from the
tool's output.

    python3 set_k_oracle.py TOOL SEED CASES TMPDIR

For every end e of a record (or a plain file's bytes), pattern and strand:
errors = min over s of distance(pattern, text[s, e)) (edit: Sellers' DP;
Hamming: s = e - m alone), start = the largest s attaining it (the shortest
occurrence); a row when errors <= k. DNA: a pattern letter is an IUPAC code
matching the bases it stands for, either case; text N and any other byte
match nothing; --revcomp adds the reverse complement (codes complemented) on
strand '-', in forward coordinates. Text: bytes equal, ASCII case folded with
-i. Rows sorted by (record in file order, end, pattern, strand); TSV columns
source record start end pattern errors [strand]; a k = 0 set keeps the exact
set's columns (no errors).

Prints each failing case (seed, case, its command, files, first differing
lines) and ends with "set_k_oracle: P passed, F failed".
"""
import os
import random
import subprocess
import sys

CODES = {
    "A": "A", "C": "C", "G": "G", "T": "T", "U": "T",
    "R": "AG", "Y": "CT", "S": "CG", "W": "AT", "K": "GT", "M": "AC",
    "B": "CGT", "D": "AGT", "H": "ACT", "V": "ACG", "N": "ACGT",
}
COMP = {"A": "T", "C": "G", "G": "C", "T": "A", "U": "A", "R": "Y", "Y": "R",
        "S": "S", "W": "W", "K": "M", "M": "K", "B": "V", "V": "B", "D": "H",
        "H": "D", "N": "N"}


def revcomp(p):
    return bytes(ord(COMP[chr(c).upper()]) for c in reversed(p))


def matcher(dna, fold):
    """eq(pattern byte, text byte) under the alphabet's rules."""
    if dna:
        def eq(pc, tc):
            t = chr(tc).upper()
            return t in "ACGT" and t in CODES[chr(pc).upper()]
    elif fold:
        def eq(pc, tc):
            return chr(pc).lower() == chr(tc).lower() if pc < 128 and tc < 128 else pc == tc
    else:
        def eq(pc, tc):
            return pc == tc
    return eq


def occurrences(p, t, k, hamming, eq):
    """(start, end, errors) for every end of t with a substring within k."""
    m, n = len(p), len(t)
    out = []
    if hamming:
        for e in range(m, n + 1):
            err = sum(1 for i in range(m) if not eq(p[i], t[e - m + i]))
            if err <= k:
                out.append((e - m, e, err))
        return out
    # D[j]: min over s of dist(p[:i], t[s:j]); S[j]: the largest such s.
    D = [0] * (n + 1)
    S = list(range(n + 1))
    for i in range(1, m + 1):
        nd = [i] + [0] * n
        ns = [0] * (n + 1)
        for j in range(1, n + 1):
            cands = ((D[j - 1] + (0 if eq(p[i - 1], t[j - 1]) else 1), S[j - 1]),
                     (D[j] + 1, S[j]), (nd[j - 1] + 1, ns[j - 1]))
            best = min(c[0] for c in cands)
            nd[j] = best
            ns[j] = max(c[1] for c in cands if c[0] == best)
        D, S = nd, ns
    for e in range(1, n + 1):
        if D[e] <= k:
            out.append((S[e], e, D[e]))
    return out


def brute(recs, pats, k, hamming, rc, dna, fold, source):
    eq = matcher(dna, fold)
    rows = []
    for ri, (name, seq) in enumerate(recs):
        for pi, p in enumerate(pats):
            strands = [(b"+", p)] + ([(b"-", revcomp(p))] if rc else [])
            for strand, q in strands:
                for s, e, err in occurrences(q, seq, k, hamming, eq):
                    rows.append(((ri, e, pi, strand), (s, err, name)))
    rows.sort()
    out = bytearray()
    for (ri, e, pi, strand), (s, err, name) in rows:
        cols = [source, name, b"%d" % s, b"%d" % e, b"%d" % (pi + 1)]
        if k > 0:
            cols.append(b"%d" % err)
        if rc:
            cols.append(strand)
        out += b"\t".join(cols) + b"\n"
    return bytes(out)


def make_case(r):
    """A tiny random case: records, patterns, k and the flags."""
    dna = r.random() < 0.7
    hamming = r.random() < 0.35
    rc = dna and r.random() < 0.5
    fold = not dna and r.random() < 0.5
    if dna:
        letters = r.choice([b"ACGT", b"ACGTacgt", b"ACGTNacgtn", b"AC", b"ACGTNNNNRY-"])
    else:
        letters = r.choice([b"ab", b"abAB", b"ab c", b"xyzXYZ01 \xe9", b"aA"])
    fasta = r.random() < 0.6
    if fasta:  # a FASTA sequence holds no binary byte, and drops blanks
        letters = bytes(c for c in letters if 32 < c < 128)
    nrec = r.randint(1, 3) if fasta else 1
    recs = []
    total = r.randint(0, 199)
    for i in range(nrec):
        ln = r.randint(0, total // nrec + 1)
        recs.append((b"r%d" % i if fasta else b".", bytes(r.choice(letters) for _ in range(ln))))
    npat = r.randint(1, 6)
    k = r.choice([0, 1, 1, 1, 2, 2, 3, 4, 5, 8])
    if hamming and k == 0:
        k = 1
    pats = []
    palpha = (b"ACGTacgt" if k == 0 else b"ACGTACGTacgtRYSWKMBDHVNn") if dna else letters
    palpha = palpha.replace(b" ", b"") or b"a"
    while len(pats) < npat:
        m = r.randint(k + 1, k + 1 + r.choice([0, 1, 3, 8, 16, 24, 40, 60]))
        seqs = [s for _, s in recs if len(s) >= m]
        if pats and r.random() < 0.15:
            p = r.choice(pats)  # a duplicate
        elif seqs and r.random() < 0.5:
            s = r.choice(seqs)
            a = r.randrange(len(s) - m + 1)
            p = bytearray(s[a:a + m])
            for _ in range(r.randint(0, 3)):  # planted edits
                op, at = r.random(), r.randrange(len(p))
                if op < 0.5 or hamming:
                    p[at] = r.choice(palpha)
                elif op < 0.75:
                    p.insert(at, r.choice(palpha))
                elif len(p) > k + 1:
                    del p[at]
            p = bytes(p)
        else:
            p = bytes(r.choice(palpha) for _ in range(m))
        if dna:  # text letters that are no pattern codes become bases
            p = bytes(c if chr(c).upper() in CODES and (k > 0 or chr(c) in "ACGTacgt")
                      else r.choice(b"ACGT") for c in p)
        pats.append(p)
    return recs, pats, k, hamming, rc, dna, fold, fasta


def main():
    tool, seed, n, tmp = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    d = os.path.join(tmp, "oracle")
    os.makedirs(d, exist_ok=True)
    n_ok = n_bad = 0
    for case in range(n):
        r = random.Random(seed * 7919 + case)
        recs, pats, k, hamming, rc, dna, fold, fasta = make_case(r)
        src = "t.fa" if fasta else "t.txt"
        with open(os.path.join(d, src), "wb") as f:
            if fasta:
                for name, seq in recs:
                    f.write(b">" + name + b"\n")
                    for i in range(0, len(seq), 13):
                        f.write(seq[i:i + 13] + b"\n")
            else:
                f.write(recs[0][1])
        with open(os.path.join(d, "p.txt"), "wb") as f:
            f.write(b"\n".join(pats) + b"\n")
        args = [tool, "search", "-k", str(k), "-f", "p.txt", "--alphabet",
                "dna" if dna else "text"]
        args += ["--hamming"] if hamming else []
        args += ["--revcomp"] if rc else []
        args += ["-i"] if fold else []
        args += r.choice([["-j", "1"], ["-j", "2", "--chunk-bytes", "64"],
                          ["-j", "1", "--chunk-bytes", "64"], ["-j", "2"]])
        args.append(src)
        want = brute(recs, pats, k, hamming, rc, dna, fold, src.encode())
        got = subprocess.run(args, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        want_rc = 0 if want else 1
        if got.returncode == want_rc and got.stdout == want and not got.stderr:
            n_ok += 1
            continue
        n_bad += 1
        print("FAIL: seed %d case %d: %s" % (seed, case, " ".join(args[1:])))
        print("  exit %d (expected %d); stderr: %r" % (got.returncode, want_rc, got.stderr[:300]))
        print("  patterns: %r" % pats)
        print("  %s: %r" % (src, [(n_, s) for n_, s in recs]))
        w, g = want.split(b"\n"), got.stdout.split(b"\n")
        shown = 0
        for i in range(max(len(w), len(g))):
            a = w[i] if i < len(w) else b"(none)"
            b = g[i] if i < len(g) else b"(none)"
            if a != b:
                print("  row %d: expected %r, got %r" % (i + 1, a, b))
                shown += 1
                if shown == 3:
                    break
    print("set_k_oracle: %d passed, %d failed" % (n_ok, n_bad))


if __name__ == "__main__":
    main()
