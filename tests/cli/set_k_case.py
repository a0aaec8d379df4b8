#!/usr/bin/env python3
"""set_k_case.py -- the cases and the expected side of tests/cli/test_set_k.sh.

A pattern set searched within k errors (issue 17) must print exactly the rows
that running each pattern alone prints (the single-pattern path, checked
against the oracle by the differential suites), each labelled with the
pattern's number or FASTA name, merged and sorted by (source, record, end,
pattern, strand). This script makes the random cases and does that merge:

  gen SEED CASE DIR   write one random case into DIR (see write_case)
  merge DIR           the expected TSV of the set run, from DIR/single.N
  counts DIR MODE     the expected -c, --by-record, --count-per-pattern
                      [--all-patterns] output (MODE: c, by-record, per, all)
  json DIR FILE       the JSON Lines output FILE turned back into rows, in the
                      expected TSV's columns (errors and strand always)
  bed DIR             the expected --format bed output
  head DIR N          the expected output of -m N (the first N rows of each
                      source)
  only DIR            the expected output of -o (the matched bytes, a line a
                      row) for one plain FILE

Records are keyed by their order in the file, never by their names: the
single runs read DIR/u/, a copy of DIR/d/ (the set run's files) whose record
names carry their index as a suffix "~INDEX", which the merge strips. So two
records of one name (d/ has some) stay apart, and in file order.
"""
import json
import os
import random
import sys

IUPAC = b"RYSWKMBDHVN"
COMP = bytes.maketrans(b"ACGTURYSWKMBDHVNacgturyswkmbdhvn",
                       b"TGCAAYRSWMKVHDBNtgcaayrswmkvhdbn")
WORDS = ("the quick brown fox jumps over lazy dog and then some more words "
         "of prose: In the beginning was the Word, & the Word was with God. "
         "Numbers 1234 5678, e-mail foo@bar.baz; tabs\tand (brackets) [x] "
         "{y} <z> 'q' \"dq\" naive cafe\xe9 na\xefve \xff\xfe").split(" ")


def rc(p):
    return p.translate(COMP)[::-1]


# ---- making a case ----------------------------------------------------------------


def dna_seq(r, n, records):
    """n bytes of DNA made of stretches: random, N runs, soft-masked
    (lowercase), periodic, repeats of earlier sequence (mutated a little)."""
    out = bytearray()
    while len(out) < n:
        kind = r.random()
        ln = r.randint(5, 120)
        if kind < 0.45:
            out += bytes(r.choice(b"ACGT") for _ in range(ln))
        elif kind < 0.55:
            out += b"N" * r.randint(1, 25)
        elif kind < 0.65:
            out += bytes(r.choice(b"acgt") for _ in range(ln))
        elif kind < 0.78:
            unit = bytes(r.choice(b"ACGT") for _ in range(r.randint(1, 6)))
            out += (unit * (ln // len(unit) + 1))[:ln]
        elif kind < 0.80:
            out += bytes(r.choice(b"RYn") for _ in range(r.randint(1, 2)))
        else:
            src = [s for s in records + [bytes(out)] if len(s) > 10]
            if not src:
                continue
            s = r.choice(src)
            a = r.randrange(len(s) - 5)
            piece = bytearray(s[a:a + ln])
            for _ in range(r.randint(0, 2)):
                if piece:
                    piece[r.randrange(len(piece))] = r.choice(b"ACGTacgt")
            out += piece
    return bytes(out[:n])


def text_seq(r, n):
    """n bytes of prose with some binary bytes (NUL and high bytes too)."""
    out = bytearray()
    while len(out) < n:
        x = r.random()
        if x < 0.9:
            w = r.choice(WORDS).encode("latin-1")
            if r.random() < 0.2:
                w = w.upper() if r.random() < 0.5 else w.capitalize()
            out += w + r.choice([b" ", b" ", b" ", b"\n", b", "])
        else:
            out += bytes(r.randrange(256) for _ in range(r.randint(1, 4)))
    if out and not chr(out[0]).isalpha():  # a plain file, not FASTA or FASTQ
        out[0:1] = b"x"
    return bytes(out[:n])


def mutate(r, p, edits, alpha, hamming):
    p = bytearray(p)
    for _ in range(edits):
        op = r.random()
        if hamming or op < 0.5 or len(p) < 3:
            if p:
                p[r.randrange(len(p))] = r.choice(alpha)
        elif op < 0.75:
            p.insert(r.randrange(len(p) + 1), r.choice(alpha))
        else:
            del p[r.randrange(len(p))]
    return bytes(p)


def make_patterns(r, seqs, k, dna, hamming, revcomp, short):
    """A set: pieces of the text with planted edits, random patterns, IUPAC
    codes (DNA, k > 0), duplicates, prefixes and suffixes of each other,
    reverse complements; every pattern longer than k, none with '\\n', '>' or
    NUL (a PATFILE line, a -e argument)."""
    alpha = b"ACGT" if dna else bytes(range(32, 127)).replace(b">", b"")
    lo = max(5, k + 1)
    n = r.choice([1, 2, 3, 4, 5, 6, 8, 10, 12])
    pats = []

    def length():
        if short:
            return r.randint(lo, max(lo, lo + 4))
        c = r.random()
        if c < 0.5:
            return r.randint(lo, max(lo, 16))
        if c < 0.85:
            return r.randint(max(lo, 17), 64)
        return r.randint(65, 300)

    def clean(p):
        p = bytes(b for b in p if b not in b"\n\r>\x00")
        if not dna:
            return p
        if k == 0:  # an exact set takes A, C, G, T, U only
            p = bytes(b if b in b"ACGTacgt" else r.choice(b"ACGT") for b in p)
        return p

    while len(pats) < n:
        c = r.random()
        m = length()
        if c < 0.5 or not pats:
            src = [s for s in seqs if len(s) >= m]
            if not src:
                p = bytes(r.choice(alpha) for _ in range(m))
            else:
                s = r.choice(src)
                a = r.randrange(len(s) - m + 1)
                p = mutate(r, s[a:a + m], r.randint(0, k + 1), alpha, hamming)
                if revcomp and r.random() < 0.4:
                    p = rc(p)
        elif c < 0.62:
            p = bytes(r.choice(alpha) for _ in range(m))
        elif c < 0.72:
            p = r.choice(pats)
            if dna and r.random() < 0.5:
                p = p.lower()
        elif c < 0.85:
            q = r.choice(pats)
            if len(q) <= lo:
                continue
            cut = r.randint(lo, len(q) - 1)
            p = q[:cut] if r.random() < 0.5 else q[len(q) - cut:]
        else:
            src = [s for s in seqs if len(s) >= m]
            if not src:
                continue
            s = r.choice(src)
            a = r.randrange(len(s) - m + 1)
            p = s[a:a + m]
        if dna and k > 0 and r.random() < 0.3:
            p = bytearray(p)
            for _ in range(r.randint(1, 3)):
                if p:
                    p[r.randrange(len(p))] = r.choice(IUPAC)
            p = bytes(p)
        if not dna and r.random() < 0.3:
            p = p.swapcase()
        p = clean(p)
        if len(p) > k and (dna or p[:1] != b"-" or r.random() < 0.5):
            pats.append(p)
    return pats


def fasta(recs, width):
    out = bytearray()
    for name, seq in recs:
        out += b">" + name + (b" some description" if len(name) % 2 else b"") + b"\n"
        if width == 0:
            out += seq + b"\n"
        else:
            for i in range(0, len(seq), width):
                out += seq[i:i + width] + b"\n"
    return bytes(out)


def fastq(recs):
    out = bytearray()
    for name, seq in recs:
        out += b"@" + name + b"\n" + seq + b"\n+\n" + b"I" * len(seq) + b"\n"
    return bytes(out)


def write_case(seed, case, d):
    """DIR/d/FILES (the set run's inputs) and DIR/u/FILES (the single runs'),
    DIR/pats.txt or DIR/pats.fa, DIR/labels (each pattern's label, in order),
    DIR/records (source, record name, in file order), DIR/case.sh (K, FLAGS,
    FILES, PATFILE, SHORTEST, BEST...: shell assignments)."""
    r = random.Random(seed * 100003 + case)
    kind = r.choice(["fasta", "fasta", "fasta", "fastq", "plain", "text", "text", "two"])
    dna = kind != "text"
    hamming = r.random() < 0.35
    revcomp = dna and r.random() < 0.5
    short = r.random() < 0.25
    if short:
        k = r.randint(3, 7)
    else:
        k = r.choice([0, 0, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8])
    if hamming and k == 0:
        k = 1
    size = r.choice([300, 1500, 4000]) if not short else r.choice([200, 800])

    files = []  # (name, records, format)
    if kind in ("fasta", "fastq", "two"):
        nrec = r.randint(1, 6)
        names = [b"chr" + str(r.randint(1, 30)).encode() for _ in range(nrec)]
        if nrec >= 3 and r.random() < 0.5:  # a name twice, not adjacent
            names[2] = names[0]
        seqs = []
        for i in range(nrec):
            ln = r.choice([0, 3, r.randint(1, size), size])
            seqs.append(dna_seq(r, ln, seqs))
        recs = list(zip(names, seqs))
        fmt = "fastq" if kind == "fastq" else "fasta"
        files.append(("x.fq" if fmt == "fastq" else "x.fa", recs, fmt))
        if kind == "two":
            seqs2 = [dna_seq(r, r.randint(1, size), seqs) for _ in range(2)]
            files.append(("y.fq", list(zip([b"read1", b"read2"], seqs2)), "fastq"))
    elif kind == "plain":
        seq = dna_seq(r, r.randint(50, size), [])
        seq = b"\n".join(seq[i:i + 70] for i in range(0, len(seq), 70)) + b"\n"
        files.append(("x.txt", [(b".", seq)], "plain"))
    else:
        files.append(("t.txt", [(b".", text_seq(r, r.randint(100, size)))], "plain"))

    all_seqs = [s for _, recs, _ in files for _, s in recs]
    pats = make_patterns(r, all_seqs, k, dna, hamming, revcomp, short)
    flags = []
    if hamming:
        flags.append("--hamming")
    if revcomp:
        flags.append("--revcomp")
    if not dna and r.random() < 0.6:
        flags.append("-i")
    if not dna and r.random() < 0.25:
        flags.append("-w")
    # --best-per-locus: checked apart (BEST=1), per pattern and strand; not
    # for exact sets
    best = k > 0 and r.random() < 0.25

    for sub in ("d", "u"):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    for name, recs, fmt in files:
        for sub in ("d", "u"):
            if fmt == "plain":
                data = recs[0][1]
            else:
                rr = [(n + (b"~%d" % i if sub == "u" else b""), s)
                      for i, (n, s) in enumerate(recs)]
                data = fastq(rr) if fmt == "fastq" else fasta(rr, r.choice([0, 60, 7]))
            with open(os.path.join(d, sub, name), "wb") as f:
                f.write(data)

    # A FASTA PATFILE drops blanks and refuses binary bytes in a sequence.
    named = r.random() < 0.3 and all(33 <= b < 127 for p in pats for b in p)
    if named:
        labels = [b"p%d_%s" % (i + 1, r.choice([b"guide", b"read", b"x"]))
                  for i in range(len(pats))]
        with open(os.path.join(d, "pats.fa"), "wb") as f:
            for lab, p in zip(labels, pats):
                f.write(b">" + lab + b" desc\n" + p + b"\n")
        patfile = "pats.fa"
    else:
        labels = [b"%d" % (i + 1) for i in range(len(pats))]
        patfile = "pats.txt"
    with open(os.path.join(d, "pats.txt"), "wb") as f:
        f.write(b"\n".join(pats) + (b"\n" if r.random() < 0.8 else b""))
    with open(os.path.join(d, "labels"), "wb") as f:
        f.write(b"\n".join(labels) + b"\n")
    with open(os.path.join(d, "records"), "wb") as f:
        for name, recs, fmt in files:
            for n, _ in recs:
                f.write(name.encode() + b"\t" + n + b"\n")
    with open(os.path.join(d, "case.sh"), "w") as f:
        f.write("K=%d\nFLAGS='%s'\nFILES='%s'\nPATFILE=%s\nNPAT=%d\nSHORTEST=%d\n"
                "KIND=%s\nSHORTEST_I=%d\nBEST=%d\n" %
                (k, " ".join(flags), " ".join(n for n, _, _ in files), patfile,
                 len(pats), min(len(p) for p in pats), kind,
                 1 + min(range(len(pats)), key=lambda i: len(pats[i])), best))


# ---- the expected side ------------------------------------------------------------


def case_vars(d):
    v = {}
    with open(os.path.join(d, "case.sh")) as f:
        for line in f:
            key, _, val = line.rstrip("\n").partition("=")
            v[key] = val.strip("'")
    return v


def expected_keyed(d):
    """The merged rows as (key, row): key = (source index, record index, end,
    pattern index, strand), row = (source, record, start, end, label,
    errors, strand), in the set's order."""
    v = case_vars(d)
    files = v["FILES"].split()
    with open(os.path.join(d, "labels"), "rb") as f:
        labels = f.read().split(b"\n")[:-1]
    rows = []
    for p, lab in enumerate(labels):
        with open(os.path.join(d, "single.%d" % (p + 1)), "rb") as f:
            for line in f.read().split(b"\n"):
                if not line:
                    continue
                src, rec, start, end, err, strand = line.split(b"\t")
                name, tilde, idx = rec.rpartition(b"~")
                if not tilde:
                    name, idx = rec, b"0"
                key = (files.index(src.decode()), int(idx), int(end), p, strand)
                rows.append((key, (src, name, start, end, lab, err, strand)))
    rows.sort(key=lambda x: x[0])
    return rows


def expected_rows(d):
    return [x[1] for x in expected_keyed(d)]


def tsv(d, rows, out):
    v = case_vars(d)
    for src, name, start, end, lab, err, strand in rows:
        cols = [src, name, start, end, lab]
        if v["K"] != "0":
            cols.append(err)
        if "--revcomp" in v["FLAGS"].split():
            cols.append(strand)
        out.write(b"\t".join(cols) + b"\n")


def counts(d, mode, out):
    """-c (one line a source), --by-record (a line a record, 0 included, in
    file order) or --count-per-pattern (a line a pattern found, or every
    pattern with --all-patterns, in pattern order)."""
    v = case_vars(d)
    keyed = expected_keyed(d)
    with open(os.path.join(d, "labels"), "rb") as f:
        labels = f.read().split(b"\n")[:-1]
    with open(os.path.join(d, "records"), "rb") as f:
        recs = [l.split(b"\t") for l in f.read().split(b"\n") if l]
    for si, src in enumerate(v["FILES"].split()):
        s = src.encode()
        mine = [x for x in keyed if x[0][0] == si]
        if mode == "c":
            out.write(b"%s\t%d\n" % (s, len(mine)))
        elif mode == "by-record":
            names = [n for fs, n in recs if fs == s]
            for i, n in enumerate(names):
                c = sum(1 for x in mine if x[0][1] == i)
                out.write(b"%s\t%s\t%d\n" % (s, n, c))
        else:
            for p, lab in enumerate(labels):
                c = sum(1 for x in mine if x[0][3] == p)
                if c or mode == "all":
                    out.write(b"%s\t%s\t%d\n" % (s, lab, c))


def json_rows(d, path, out):
    """The match lines of a JSON Lines output, as TSV rows with every column
    (errors and strand too): source record start end pattern errors strand."""
    v = case_vars(d)
    with open(path, "rb") as f:
        for line in f:
            o = json.loads(line)
            if o.get("type") != "match":
                continue
            err = o.get("errors")
            if err is None and v["K"] == "0":
                err = 0
            cols = [o["source"], o["record"], str(o["start"]), str(o["end"]),
                    str(o.get("pattern")), str(err), o.get("strand", "+")]
            out.write("\t".join(cols).encode("utf-8", "surrogateescape") + b"\n")


def main():
    cmd = sys.argv[1]
    out = sys.stdout.buffer
    if cmd == "gen":
        write_case(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    elif cmd == "merge":
        tsv(sys.argv[2], expected_rows(sys.argv[2]), out)
    elif cmd == "full":  # every column, as json_rows prints them
        for row in expected_rows(sys.argv[2]):
            out.write(b"\t".join(row) + b"\n")
    elif cmd == "counts":
        counts(sys.argv[2], sys.argv[3], out)
    elif cmd == "json":
        json_rows(sys.argv[2], sys.argv[3], out)
    elif cmd == "bed":
        for src, name, start, end, lab, err, strand in expected_rows(sys.argv[2]):
            chrom = src if name == b"." else name
            out.write(b"\t".join([chrom, start, end, lab, err, strand]) + b"\n")
    elif cmd == "head":
        d, n = sys.argv[2], int(sys.argv[3])
        rows = expected_rows(d)
        seen = {}
        kept = []
        for x in rows:
            seen[x[0]] = seen.get(x[0], 0) + 1
            if seen[x[0]] <= n:
                kept.append(x)
        tsv(d, kept, out)
    elif cmd == "only":
        d = sys.argv[2]
        with open(os.path.join(d, "d", case_vars(d)["FILES"].split()[0]), "rb") as f:
            data = f.read()
        for row in expected_rows(d):
            out.write(data[int(row[2]):int(row[3])] + b"\n")
    else:
        sys.exit("set_k_case.py: unknown command " + cmd)


if __name__ == "__main__":
    main()
