#!/usr/bin/env python3
"""gen_inputs.py DIR -- the inputs of tests/mpi/test_mpi.sh, written into DIR.

Everything is made from fixed seeds, so every run writes the same bytes.
MPI ranks get equal byte ranges of each file: rank r of N reads its even
share (core/plan.h's wm_plan_even; the first size % N ranks one byte
longer). The "border" files below have a size divisible by
12, so for N = 2, 3, 4 their rank borders are the five offsets size/4,
size/3, size/2, 2*size/3 and 3*size/4, and each of those offsets is made to
fall on a chosen spot: a header's '>' or '@', the byte after it, the middle
of a record name, a header's line break, inside a CRLF pair, a blank line,
an empty record, a FASTQ quality line that starts with '@' or '+' (or reads
exactly like a header), the '+' line, an empty read, the middle of a
sequence line with a planted occurrence straddling the border. Every
record's sequence is dense in planted (exact and edited, forward and
reverse-complement) copies of the test patterns, so matches straddle rank
borders, record starts and record ends.

The other files: a random many-record FASTA (lines of 1 to 200 bases and a
few of thousands, blank lines, empty records, soft-masked and N stretches),
a random multi-line FASTQ, a plain text file with binary bytes, a FASTA with
one 40 kb line, tiny and empty files, odd but valid layouts (spaces, tabs and
stray '\r' inside sequence lines, '>' inside a line, FASTQ sequence lines
that start with '@', LF and CRLF mixed, most of a file blank before its
first record), sixteen small random FASTA/FASTQ files (cut at many places
by many rank counts), align targets (with the same query planted on both
sides of each rank border, and a repeat target where equal distances fall
everywhere), global/--pairs inputs, DTW signals, and bad inputs (a binary
byte early and late in a FASTA file, a header with no name, a truncated
FASTQ record, a truncated gzip file, a NaN in a DTW query, an infinity in a
series).

The sizes of the files the test uses are printed on stdout.
"""
import gzip
import math
import os
import random
import sys

OUT = sys.argv[1]
ROOT = sys.argv[2] if len(sys.argv) > 2 else None

# The test patterns (test_mpi.sh uses the same strings).
P10 = "GATTACAGGT"                 # -k 0..2
P16 = "GATTACAGGTCCATGA"           # -k 3
IUPAC = "GATNACRGGY"               # --alphabet dna
SET = [                            # pattern set (exact), lengths 5..40 and one of 200
    "GATTACA", "ATTACAGG", "TACAGGTCC", "CCATGA", "GGTCCATGAC", "ACGTACGTAC",
    "TTTTTGGGGG", "CAGTCAGTCAGT", "GCGCGATATA", "AACCGGTTAACCGGTT",
    "TGCATGCATGCATGCATGCA", "CATCATCAT", "GATTACA",  # a duplicate
    "ATGCGTACGTTAGCCGATCGATCGGCTAGCTAGGCATCGA",
]
rng_long = random.Random(99)
LONG = "".join(rng_long.choice("ACGT") for _ in range(200))
SET.append(LONG)
TEXTSET = ["needle", "haystack", "Needle in", "hay", "stack\nof", "\xffbin"]


def revcomp(s):
    return s.translate(str.maketrans("ACGTacgt", "TGCAtgca"))[::-1]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def dna(self, n):
        return "".join(self.r.choice("ACGT") for _ in range(n))

    def mutate(self, s, e):
        s = list(s)
        for _ in range(e):
            op = self.r.randrange(3)
            i = self.r.randrange(len(s))
            if op == 0:
                s[i] = self.r.choice([c for c in "ACGT" if c != s[i]])
            elif op == 1:
                s.insert(i, self.r.choice("ACGT"))
            elif len(s) > 1:
                del s[i]
        return "".join(s)

    def plant(self):
        """One planted occurrence: a test pattern, maybe edited, maybe reverse complemented."""
        r = self.r.random()
        if r < 0.45:
            p = self.mutate(P10 if self.r.random() < 0.5 else P16, self.r.choice([0, 0, 1, 2, 3]))
        else:
            p = LONG if self.r.random() < 0.01 else self.r.choice(SET[:-1])
        if self.r.random() < 0.3:
            p = revcomp(p)
        return p

    def seq(self, n, density=1 / 120):
        """n bases of random DNA with planted occurrences, about one per 1/density bases."""
        out = []
        length = 0
        while length < n:
            if self.r.random() < density * 12:
                p = self.plant()
            else:
                p = self.dna(12)
            out.append(p)
            length += len(p)
        return "".join(out)[:n]

    def soften(self, s):
        """Soft-mask a stretch and put in a run of N, sometimes."""
        s = list(s)
        if len(s) > 50 and self.r.random() < 0.3:
            a = self.r.randrange(len(s) - 40)
            for i in range(a, a + self.r.randrange(5, 40)):
                s[i] = s[i].lower()
        if len(s) > 50 and self.r.random() < 0.2:
            a = self.r.randrange(len(s) - 10)
            for i in range(a, a + self.r.randrange(1, 10)):
                s[i] = "N"
        return "".join(s)

    def lines(self, s, eol, lo=40, hi=90):
        out = []
        i = 0
        while i < len(s):
            w = self.r.randint(lo, hi)
            out.append(s[i:i + w] + eol)
            i += w
        return "".join(out)


def write(name, data):
    path = os.path.join(OUT, name)
    if isinstance(data, str):
        data = data.encode("latin-1")
    with open(path, "wb") as f:
        f.write(data)
    print(f"{name}\t{len(data)}")
    return path


# ---------------------------------------------------------------------------
# Files whose rank borders fall on chosen spots.
# ---------------------------------------------------------------------------

BORDER_SIZE = 24000            # divisible by 12: borders 6000 8000 12000 16000 18000


def borders(size):
    return sorted({size * r // n for n in (2, 3, 4) for r in range(1, n)})


class Builder:
    """Appends records; place() pads with filler records so that byte `off` of
    a chunk lands exactly on a rank border."""

    def __init__(self, g, eol, fastq=False):
        self.g, self.eol, self.fastq = g, eol, fastq
        self.b = ""
        self.nfill = 0

    def filler(self, gap):
        """Records of exactly `gap` bytes (gap >= 80), ending with a planted
        occurrence right before the next chunk."""
        g, eol = self.g, self.eol
        assert gap >= 80, gap
        self.nfill += 1
        name = ("@" if self.fastq else ">") + "f%d" % self.nfill
        if self.fastq:
            # header + seq lines + "+" eol + qual lines: choose the sequence
            # length, then pad the header to the exact size.
            budget = gap - len(name) - 3 * len(eol) - 1 - 4 - g.r.randrange(8)
            n = budget // 2 - 8
            while True:
                s = g.seq(n - len(P10)) + P10
                sl = g.lines(s, eol, 20, 70)
                q = qual(g, len(s), eol)
                body = sl + "+" + eol + q
                pad = gap - len(body) - len(name) - len(eol)
                if pad >= 2:
                    break
                n -= 4
            return name + " " + "x" * (pad - 1) + eol + body
        budget = gap - len(name) - len(eol) - 2 - g.r.randrange(8)
        widths, used = [], 0
        while budget - used >= 2 + len(eol):
            w = min(g.r.randint(30, 90), budget - used - len(eol))
            widths.append(w)
            used += w + len(eol)
        n = sum(widths)
        s = g.soften(g.seq(n))
        if n >= len(P10):
            s = s[:n - len(P10)] + P10       # a match ending right before the next chunk
        out, i = [], 0
        for w in widths:
            out.append(s[i:i + w] + eol)
            i += w
        body = "".join(out)
        pad = gap - len(body) - len(name) - len(eol)
        assert pad >= 2, pad
        return name + " " + "x" * (pad - 1) + eol + body

    def place(self, border, chunk, off):
        gap = border - off - len(self.b)
        self.b += self.filler(gap)
        assert len(self.b) + off == border
        self.b += chunk

    def finish(self, size):
        self.b += self.filler(size - len(self.b))
        assert len(self.b) == size


def qual(g, n, eol, tricky=True):
    """n quality bytes in lines; many lines start with '@' or '+', some read
    exactly like a FASTQ header ("@r12") or a '+' line."""
    out = []
    left = n
    while left > 0:
        w = min(left, g.r.randint(15, 70))
        line = "".join(g.r.choice("!#%&*+5:?@AEIJ") for _ in range(w))
        if tricky:
            k = g.r.random()
            if k < 0.25:
                line = "@" + line[1:]
            elif k < 0.45:
                line = "+" + line[1:]
            elif k < 0.6 and w >= 4:
                fake = "@r%d" % g.r.randrange(100)
                fake = fake[:w]
                line = fake + line[len(fake):]
        out.append(line + eol)
        left -= w
    return "".join(out)


def fasta_chunk(g, kind, eol, tag):
    """A chunk of FASTA text and the offset in it that must land on a border."""
    name = "b_%s_%s" % (tag, kind)
    hdr = ">" + name + " border=" + kind + eol
    s = P10 + g.soften(g.seq(600)) + revcomp(P10)
    body = g.lines(s, eol)
    rec = hdr + body
    if kind == "gt":
        return rec, 0
    if kind == "gt1":
        return rec, 1
    if kind == "name":
        return rec, 1 + len(name) // 2
    if kind == "hdr_eol":            # the header's '\n' (CRLF: its '\r')
        return rec, len(hdr) - len(eol)
    if kind == "hdr_lf":             # between the '\r' and '\n' of a CRLF header
        return rec, len(hdr) - 1
    if kind == "seq0":               # the first sequence byte
        return rec, len(hdr)
    if kind == "prev_eol":           # the last byte before the '>'
        return rec, -1
    if kind in ("seq_mid", "seq_crlf"):
        # a planted P16 straddling the border, and a line break inside it
        a = g.seq(300)
        b = g.seq(300)
        body = "".join([g.lines(a, eol), P16[:7], eol, P16[7:], g.lines(b, eol)])
        rec = hdr + body
        mid = rec.index(P16[:7] + eol)
        if kind == "seq_mid":
            return rec, mid + 3
        return rec, mid + 7 + len(eol) - 1          # on the '\n' of the CRLF inside P16
    if kind == "empty_rec":          # an empty record at the border, another right after
        e1 = ">empty_%s_1%s" % (tag, eol)
        e2 = ">empty_%s_2 no sequence%s%s" % (tag, eol, eol)
        return e1 + e2 + rec, len(e1)
    if kind == "blank":              # blank lines at the border
        return eol + eol + eol + rec, 1
    if kind == "long_name":
        hdr = ">" + name + "_" + "n" * 300 + " " + "d" * 200 + eol
        return hdr + body, 150
    raise ValueError(kind)


def fastq_chunk(g, kind, eol, tag):
    name = "q_%s_%s" % (tag, kind)
    s = P10 + g.seq(180) + revcomp(P16)
    hdr = "@" + name + " border=" + kind + eol
    seql = g.lines(s, eol, 30, 80)
    # quality lines: the first starts with '@' and reads like a header, the
    # second starts with '+'
    q1 = "@" + name[:10]
    q1 = q1 + "I" * (40 - len(q1))
    q2 = "+" + "5" * 39
    rest = qual(g, len(s) - 80, eol)
    ql = q1 + eol + q2 + eol + rest
    rec = hdr + seql + "+" + eol + ql
    at_q1 = len(hdr) + len(seql) + 1 + len(eol)
    if kind == "at":
        return rec, 0
    if kind == "at1":
        return rec, 1
    if kind == "hdr_eol":
        return rec, len(hdr) - len(eol)
    if kind == "seq_mid":
        return rec, len(hdr) + 40
    if kind == "plus":                # the '+' line
        return rec, len(hdr) + len(seql)
    if kind == "qual_at":             # a quality line that starts with '@'
        return rec, at_q1
    if kind == "qual_at1":
        return rec, at_q1 + 1
    if kind == "qual_at_prev":        # the line break before it
        return rec, at_q1 - 1
    if kind == "qual_plus":           # a quality line that starts with '+'
        return rec, at_q1 + len(q1) + len(eol)
    if kind == "qual_lf":             # inside the CRLF after a quality line
        return rec, at_q1 + len(q1) + len(eol) - 1
    if kind == "empty_read":          # an empty read (empty quality line) at the border
        e = "@empty_%s%s%s+%s%s" % (tag, eol, eol, eol, eol)
        return e + rec, 1
    if kind == "empty_read2":         # two empty reads, the border on the second's quality
        e1 = "@empty_%s_1%s%s+%s%s" % (tag, eol, eol, eol, eol)
        e2 = "@empty_%s_2%s%s+%s%s" % (tag, eol, eol, eol, eol)
        return e1 + e2 + rec, len(e1) + len(e2) - len(eol)
    raise ValueError(kind)


def border_file(fname, seed, eol, kinds, fastq=False):
    g = Gen(seed)
    b = Builder(g, eol, fastq)
    if not fastq:
        b.b = ">first record at offset 0" + eol + g.lines(P10 + g.seq(300), eol)
    else:
        s = P10 + g.seq(100)
        b.b = "@first" + eol + g.lines(s, eol) + "+" + eol + qual(g, len(s), eol)
    for border, kind in zip(borders(BORDER_SIZE), kinds):
        if fastq:
            chunk, off = fastq_chunk(g, kind, eol, fname.split(".")[0])
        else:
            chunk, off = fasta_chunk(g, kind, eol, fname.split(".")[0])
        b.place(border, chunk, off)
    b.finish(BORDER_SIZE)
    write(fname, b.b)


border_file("hdr_a.fa", 11, "\n", ["gt", "gt1", "name", "hdr_eol", "seq0"])
border_file("hdr_b.fa", 12, "\n", ["prev_eol", "seq_mid", "empty_rec", "blank", "long_name"])
border_file("crlf_a.fa", 13, "\r\n", ["gt", "hdr_lf", "seq_crlf", "prev_eol", "seq0"])
border_file("crlf_b.fa", 14, "\r\n", ["hdr_eol", "gt1", "empty_rec", "seq_mid", "blank"])
border_file("reads_a.fq", 15, "\n", ["at", "qual_at", "plus", "qual_plus", "empty_read"], fastq=True)
border_file("reads_b.fq", 16, "\n", ["qual_at1", "qual_at_prev", "seq_mid", "at1", "empty_read2"],
            fastq=True)
border_file("reads_c.fq", 17, "\r\n", ["qual_lf", "hdr_eol", "qual_at", "at", "plus"], fastq=True)

# ---------------------------------------------------------------------------
# Random files (borders fall wherever they fall).
# ---------------------------------------------------------------------------

g = Gen(21)
parts = []
for i in range(260):
    r = g.r.random()
    name = ">rec%d" % i + (" some description %d" % g.r.randrange(10 ** 6) if r < 0.5 else "")
    if r < 0.06:
        parts.append(name + "\n")                       # empty record
        continue
    n = g.r.choice([1, 5, 30, 100, 300, 500, 800, 1500])
    s = g.soften(g.seq(n))
    w = g.r.random()
    if w < 0.1:
        body = "".join(c + "\n" for c in s)             # one base a line
    elif w < 0.15:
        body = s + "\n"                                  # one line
    else:
        body = g.lines(s, "\n", 1, 200)
    if g.r.random() < 0.15:
        body += "\n" * g.r.randint(1, 3)                 # blank lines
    parts.append(name + "\n" + body)
parts.append(">last no newline at the end\n" + g.lines(g.seq(200), "\n") + P10)
write("multi.fa", "".join(parts))

g = Gen(22)
parts = []
for i in range(180):
    n = g.r.choice([0, 0, 1, 20, 100, 250, 400])
    s = g.seq(n) if n else ""
    hdr = "@read%d" % i + (" len=%d" % n if i % 3 == 0 else "")
    seql = g.lines(s, "\n", 10, 120) if n else ""
    plus = "+" + ("read%d" % i if i % 5 == 0 else "")
    q = qual(g, n, "\n") if n else "\n"
    parts.append(hdr + "\n" + seql + plus + "\n" + q)
    if g.r.random() < 0.05:
        parts.append("\n")
write("multi.fq", "".join(parts))
# the same reads without the empty ones (align refuses empty records)
write("tq.fq", "".join(p for p in parts if p != "\n" and "\n+" in p and not p.split("\n")[1].startswith("+")))

# Plain text: bytes, lines, binary bytes; the text patterns planted, also
# across every border of its size (size divisible by 12).
g = Gen(23)
words = ["needle", "Needle", "NEEDLE", "haystack", "hay", "stack\nof", "\xffbin",
         "gattacaggt", "GATTACAGGT", "GaTtAcAgGt", "gatacaggt", "needle in a haystack"]
buf = []
while sum(map(len, buf)) < 36000:
    r = g.r.random()
    if r < 0.15:
        buf.append(g.r.choice(words))
    elif r < 0.2:
        buf.append("\n")
    elif r < 0.22:
        buf.append(g.r.choice(["\x00", "\x01\x02", "\xff\xfe", "\t"]))
    else:
        buf.append("".join(g.r.choice("acgtACGT hnedlaysk") for _ in range(g.r.randint(1, 12))))
txt = list("".join(buf)[:36000])
for b in borders(36000):
    w = "gattacaggt" if b % 2 else "needle in a haystack"
    a = b - len(w) // 2
    txt[a:a + len(w)] = list(w)
write("plain.txt", "".join(txt))

# One 40 kb line (every rank's range inside it for N <= 4), then short
# records, one base a line.
g = Gen(24)
long1 = g.seq(40000)
write("longline.fa", ">long1 one line\n" + long1 + "\n>short\n" + P10 + "\n>ones\n"
      + "".join(c + "\n" for c in g.seq(300)))

# Tiny files: smaller than the number of ranks, or not much larger.
write("tiny.fa", ">a\nGATTACAGGT\n>b\n>c\nGA\nTT\nACAGGT\n")
write("two.txt", "GA")
write("empty.txt", "")
write("one.fq", "@x\nGATTACAGGT\n+\n@@@@@@@@@@\n")

# Odd but valid layouts, small, for many rank counts: sequence lines with
# spaces, tabs and a stray '\r' inside (dropped), '>' inside a line, lines
# starting with '@', '+' or ';' (sequence in FASTA; '@' lines are sequence in
# FASTQ too), headers with tabs, LF and CRLF mixed, blank lines of spaces,
# leading blank lines before the first record.
g = Gen(25)
parts = ["\n  \n\t\n\n"]
for i in range(40):
    eol = "\r\n" if i % 3 == 0 else "\n"
    hdr = ">w%d%s%s" % (i, "\tdesc with tab" if i % 4 == 1 else "", eol)
    body = []
    for j in range(g.r.randint(0, 6)):
        k = g.r.randrange(8)
        s = g.seq(g.r.randint(1, 40), density=1 / 30)
        if k == 0:
            s = s[:len(s) // 2] + " " + s[len(s) // 2:] + "\t"
        elif k == 1:
            s = s[:len(s) // 2] + "\r" + s[len(s) // 2:]
        elif k == 2:
            s = s[:len(s) // 2] + ">" + s[len(s) // 2:]
        elif k == 3:
            s = g.r.choice("@+;") + s
        elif k == 4:
            s = "   "                      # a blank line of spaces
        body.append(s + eol)
    parts.append(hdr + "".join(body))
write("weird.fa", "".join(parts))

g = Gen(26)
parts = ["\n\n \n"]
for i in range(60):
    eol = "\r\n" if i % 4 == 0 else "\n"
    lines = []
    for j in range(g.r.randint(0, 4)):
        s = g.seq(g.r.randint(1, 30), density=1 / 30)
        k = g.r.randrange(6)
        if k == 0:
            s = "@" + s                     # a sequence line that starts with '@'
        elif k == 1:
            s = "@r%d" % g.r.randrange(60)  # ... and reads like a header
        elif k == 2:
            s = s[:len(s) // 2] + " \t" + s[len(s) // 2:]
        lines.append(s)
    n = sum(len(x.replace(" ", "").replace("\t", "")) for x in lines)
    q = qual(g, n, eol) if n else eol
    hdr = "@w%d%s%s" % (i, "\tx" if i % 5 == 0 else "", eol)
    plus = "+" + ("w%d" % i if i % 3 == 0 else "") + eol
    parts.append(hdr + "".join(x + eol for x in lines) + plus + q)
    if i % 7 == 0:
        parts.append(eol)
write("weird.fq", "".join(parts))

# Small random files of every layout at once (many rank counts cut them at
# many places): fz00..fz15, FASTA and FASTQ, LF/CRLF/mixed, blank lines,
# empty records, tricky qualities, lines of 1 to 80 bases.
g = Gen(28)
for f in range(16):
    fq = f % 2 == 1
    out = []
    for i in range(g.r.randint(1, 25)):
        eol = g.r.choice(["\n", "\n", "\r\n"]) if f % 4 >= 2 else "\n"
        n = g.r.choice([0, 1, 3, 10, 30, 80, 200])
        sq = g.seq(n, density=1 / 25)
        if fq:
            if n == 0:
                out.append("@z%d%s%s+%s%s" % (i, eol, eol, eol, eol))
            else:
                out.append("@z%d%s%s+%s%s" % (i, eol, g.lines(sq, eol, 1, 80), eol, qual(g, n, eol)))
        else:
            out.append(">z%d%s%s" % (i, eol, g.lines(sq, eol, 1, 80)))
        if g.r.random() < 0.2:
            out.append(eol * g.r.randint(1, 2))
    write("fz%02d.%s" % (f, "fq" if fq else "fa"), "".join(out))

# gzip copies (searched whole by rank 0)
for f in ("multi.fa", "reads_a.fq"):
    with open(os.path.join(OUT, f), "rb") as src:
        data = src.read()
    with gzip.GzipFile(os.path.join(OUT, f + ".gz"), "wb", mtime=0) as z:
        z.write(data)

# Pattern files
write("pats.txt", "\n".join(SET) + "\n")
write("pats.fa", "".join(">p%d_%s\n%s\n" % (i + 1, "x" * (i % 3), p) for i, p in enumerate(SET)))
write("pats_text.txt", "\n".join(TEXTSET))          # no '\n' at the end
write("pats_none.txt", "ZZZZZZZZ\nQQQQQQQ\n")

# ---------------------------------------------------------------------------
# Bad inputs.
# ---------------------------------------------------------------------------
m = open(os.path.join(OUT, "multi.fa"), "rb").read()
nl = m.index(b"\n", len(m) * 9 // 10)
k = m.index(b"\n", nl + 1)                          # a sequence line late in the file
pos = k - 3 if m[k - 3:k - 2].isalpha() else k - 1
write("bad_late.fa", m[:pos] + b"\x01" + m[pos + 1:])
nl = m.index(b"\n>", len(m) // 10)
k = m.index(b"\n", nl + 2) + 5                      # early in the file
write("bad_early.fa", m[:k] + b"\x7f" + m[k + 1:])
mid = m.index(b"\n>", len(m) * 6 // 10) + 1
write("bad_noname.fa", m[:mid] + b">\n" + m[mid:])   # a header with no name
q = open(os.path.join(OUT, "multi.fq"), "rb").read()
write("bad_trunc.fq", q[:-3])                      # the last record cut short

# two errors, one early and one late: the first in file order is reported
e = open(os.path.join(OUT, "bad_early.fa"), "rb").read()
write("bad_two.fa", e[:pos] + b"\x02" + e[pos + 1:])
# a truncated gzip file (read whole by rank 0)
z = open(os.path.join(OUT, "multi.fa.gz"), "rb").read()
write("bad.fa.gz", z[:len(z) // 2])

# Most of the file blank before the first record: the first ranks see only
# blank lines (FASTA, FASTQ), or only whitespace (plain).
g = Gen(27)
write("lead_blank.fa", "\n" * 3000 + "  \t\n" * 500 + ">late1\n" + g.lines(g.seq(900), "\n")
      + ">late2\n" + g.lines(g.seq(600), "\n"))
s1 = g.seq(300)
write("lead_blank.fq", " \n" * 2000 + "@late1\n" + g.lines(s1, "\n") + "+\n" + qual(g, len(s1), "\n"))
write("blank.txt", " \n\t" * 700)

# ---------------------------------------------------------------------------
# align
# ---------------------------------------------------------------------------
g = Gen(31)
queries = [g.seq(60), g.seq(150), g.seq(400)]
write("q.fa", "".join(">query%d\n%s" % (i, g.lines(s, "\n")) for i, s in enumerate(queries)))
write("q1.txt", queries[1] + "\n")
write("lit.txt", g.mutate(queries[0], 2))           # a literal query (align's argument)


class AlignBuilder(Builder):
    def filler(self, gap):
        # Target records of random DNA (no planted search patterns needed).
        g, eol = self.g, self.eol
        self.nfill += 1
        name = ">t%d" % self.nfill
        budget = gap - len(name) - len(eol) - 2 - g.r.randrange(8)
        s = g.dna(budget)
        out, used, i = [], 0, 0
        while budget - used >= 2 + len(eol):
            w = min(g.r.randint(50, 80), budget - used - len(eol))
            out.append(s[i:i + w] + eol)
            used += w + len(eol)
            i += w
        body = "".join(out)
        pad = gap - len(body) - len(name) - len(eol)
        return name + " " + "x" * (pad - 1) + eol + body


# target.fa: several records; for each rank border a record holding copies of
# one query right on it: an exact copy ending just before the border and
# another starting just after it (equal distances on both sides), and for
# the others an edited copy straddling the border.
TSIZE = 120000
g2 = Gen(32)
ab = AlignBuilder(g2, "\n")
ab.b = ">tfirst\n" + g2.lines(g2.dna(500) + g2.mutate(queries[2], 5) + g2.dna(300), "\n")
for j, border in enumerate(borders(TSIZE)):
    qi = j % 3
    qs = queries[qi]
    lead = g2.dna(200)
    if j % 2 == 0:
        s = lead + qs + qs + g2.dna(200)
        cut = len(lead) + len(qs)
    else:
        e = g2.mutate(qs, 3)
        s = lead + e + g2.dna(200)
        cut = len(lead) + len(e) // 2
    hdr = ">tb%d border between copies of query%d\n" % (j, qi)
    first = g2.lines(s[:cut], "\n")
    second = g2.lines(s[cut:], "\n")
    ab.place(border, hdr + first + second, len(hdr) + len(first))
ab.finish(TSIZE)
write("target.fa", ab.b)
with gzip.GzipFile(os.path.join(OUT, "target.fa.gz"), "wb", mtime=0) as z:
    z.write(ab.b.encode())
# the same target as one plain sequence (align reads a plain file as one sequence)
write("target.txt", "".join(l for l in ab.b.splitlines(True) if not l.startswith(">")))

# A repeat: the unit ACGTTGCA, copies of the query (six units with an edit)
# at the same distance everywhere, across every rank border.
rep = ("ACGTTGCA" * 3000)
write("rep.fa", ">rep\n" + Gen(33).lines(rep, "\n", 60, 60))
write("rep_q.txt", "ACGTTGCAACGTAGCAACGTTGCAACGTTGCAACGTTCGCAACGTTGCA\n")

# global mode and --pairs
g = Gen(34)
gq = [g.seq(n) for n in (0, 40, 120, 300, 500)]
gt = [g.mutate(s, 8) if s else g.seq(10) for s in gq[1:]] + [""]
write("gq.fa", "".join(">gq%d\n%s\n" % (i, s) for i, s in enumerate(gq)))
write("gt.fa", "".join(">gt%d\n%s\n" % (i, s) for i, s in enumerate(gt)))
r1, r2 = [], []
for i in range(300):
    s = g.seq(g.r.randint(80, 260))
    r1.append(">pair%d/1\n%s" % (i, g.lines(s, "\n", 60, 60)))
    r2.append(">pair%d/2\n%s" % (i, g.lines(g.mutate(s, g.r.randint(0, 25)), "\n", 60, 60)))
write("r1.fa", "".join(r1))
write("r2.fa", "".join(r2))
write("r2_short.fa", "".join(r2[:-1]))               # a missing mate
write("pairs.tsv", "".join("%s\t%s\n" % (a.split("\n", 1)[1].replace("\n", ""),
                                          b.split("\n", 1)[1].replace("\n", ""))
                           for a, b in zip(r1[:200], r2[:200])))
# infix pairs: record i of ip_q against record i of ip_t (longer, the query planted)
ipq, ipt = [], []
for i in range(60):
    s = g.seq(g.r.randint(30, 120))
    t = g.dna(g.r.randint(100, 2000))
    a = g.r.randrange(len(t))
    t = t[:a] + g.mutate(s, g.r.randint(0, 12)) + t[a:]
    ipq.append(">ip%d\n%s\n" % (i, s))
    ipt.append(">it%d\n%s" % (i, g.lines(t, "\n")))
write("ip_q.fa", "".join(ipq))
write("ip_t.fa", "".join(ipt))
# --pairs read by range (cli/dist_pairs.c): CRLF, blank lines, leading blank
# lines, empty records, lowercase, one-line and wrapped records, so that the
# ranks' byte borders fall anywhere in a record
pc1, pc2 = ["\r\n" * 40], []
for i in range(240):
    s = "" if i % 37 == 5 else g.seq(g.r.randint(20, 400))
    t = "" if i % 41 == 7 else g.mutate(s, g.r.randint(0, 12)) if s else g.seq(30)
    if i % 5 == 2:
        t = t.lower()
    eol = "\r\n" if i % 3 else "\n"
    pc1.append(">pc%d/1 x\r\n%s%s" % (i, g.lines(s, "\r\n", 30, 70) if s else "", "\r\n" * (i % 2)))
    pc2.append(">pc%d/2\n%s%s" % (i, g.lines(t, eol, 50, 90) if t else "", "\n" if i % 4 == 0 else ""))
write("pc1.fa", "".join(pc1))
write("pc2.fa", "".join(pc2))
# --pairs of FASTQ files read by range: multi-line records whose quality
# lines start with '@' (some reading like a header) or '+', CRLF in one file,
# blank lines between records, empty reads; and the same with a mate missing,
# and with a broken record late (a quality shorter than its sequence)
pq1, pq2 = [], []
for i in range(240):
    s = "" if i % 37 == 5 else g.seq(g.r.randint(20, 400))
    t = "" if i % 41 == 7 else g.mutate(s, g.r.randint(0, 12)) if s else g.seq(30)
    pq1.append("@pq%d/1 x\r\n%s+\r\n%s%s" % (i, g.lines(s, "\r\n", 30, 70) if s else "\r\n",
                                          qual(g, len(s), "\r\n") if s else "\r\n",
                                          "\r\n" * (i % 3 == 0)))
    pq2.append("@pq%d/2\n%s+pq%d/2\n%s%s" % (i, g.lines(t, "\n", 50, 90) if t else "\n", i,
                                         qual(g, len(t), "\n") if t else "\n",
                                         "\n" if i % 4 == 0 else ""))
write("pq1.fq", "".join(pq1))
write("pq2.fq", "".join(pq2))
write("pq2_short.fq", "".join(pq2[:-1]))
bad = list(pq2)
bad[200] = "@pq200/2\nACGTACGT\n+\nIIII\n"
write("pq2_bad.fq", "".join(bad))
# the alphabet from the target's first 64 KiB of sequence, which span the
# ranks: 45 kB of DNA records, then prose ones (70 % of the budget DNA: text)
sn1, sn2, used, i = [], [], 0, 0
while used < 200000:
    if used < 45000:
        t = g.dna(500)
    else:
        t = ("the quick brown fox jumps over the lazy dog " * 12)[:500]
    sn2.append(">sn%d\n%s" % (i, g.lines(t, "\n", 60, 60)))
    sn1.append(">sq%d\n%s\n" % (i, g.dna(40)))
    used += len(t)
    i += 1
write("sn1.fa", "".join(sn1))
write("sn2.fa", "".join(sn2))
# queries of IUPAC codes (too few A, C, G, T, N to sniff as DNA: a DNA target
# takes them as their letters are all IUPAC codes), and the same with one
# that is not, late in the file: every rank's records count
nq1 = [">nq%d\n%s\n" % (j, "".join(g.r.choice("ACGTRYKMSWBDHV") for _ in range(60)))
       for j in range(100)]
write("iu1.fa", "".join(nq1))
nq1[93] = ">nq93\nACGTJJJJACGT\n"
write("nq1.fa", "".join(nq1))
write("nq2.fa", "".join(">nt%d\n%s\n" % (j, g.dna(300)) for j in range(100)))

# ---------------------------------------------------------------------------
# dtw
# ---------------------------------------------------------------------------
g = Gen(41)
series = []
x = 0.0
for i in range(12000):
    x = 0.97 * x + g.r.gauss(0, 0.3)
    series.append(math.sin(i / 37.0) + 0.5 * math.sin(i / 11.3) + x)
write("series.txt", "".join("%.4f\n" % v for v in series))
qs = []
for j in range(9):
    n = g.r.randint(40, 220)
    a = g.r.randrange(len(series) - 3 * n)
    cut = series[a:a + n:1] if j % 2 else [series[a + (i * 3) // 2] for i in range(n)]
    qs.append([v + g.r.gauss(0, 0.05) for v in cut])
write("dq.txt", "".join(">dq%d\n%s\n" % (j, " ".join("%.4f" % v for v in q)) for j, q in enumerate(qs)))
write("dq_bad.txt", "".join(">dq%d\n%s\n" % (j, " ".join(("nan" if (j == 6 and i == 5) else "%.4f" % v)
                                                         for i, v in enumerate(q)))
                            for j, q in enumerate(qs)))
write("series_bad.txt", "".join(("inf\n" if i == 9000 else "%.4f\n" % v) for i, v in enumerate(series)))
write("series_short.txt", "".join("%.4f\n" % v for v in series[:700]))
# a flat series with a flat query: equal distances everywhere
write("flat.txt", "1\n" * 3000)
write("flat_q.txt", ">flat1\n" + "1 " * 30 + "\n>flat2\n" + "1 2 1 " * 10 + "\n")

# ECG beats cut from the bundled record (several queries in one file)
if ROOT:
    ecg = os.path.join(ROOT, "data", "signals", "ecg_mitdb100_60s.csv")
    vals = []
    with open(ecg) as f:
        for line in f:
            try:
                vals.append(float(line))
            except ValueError:
                pass
    beats = []
    for j, a in enumerate((1000, 5000, 9000, 14000, 20000)):
        beats.append(">beat%d\n%s\n" % (a, " ".join("%.3f" % (v + 0.01 * ((i * 7 + j) % 5 - 2))
                                                     for i, v in enumerate(vals[a:a + 250])))
                     )
    write("beats.txt", "".join(beats))
