#!/usr/bin/env python3
"""setk_compare.py - what warpmatch, RazerS 3 and Bowtie 1 report on the
k-error set benchmarks (issue 17 item 6), side by side, with an oracle.

  setk_compare.py truth GENOME PATTERNS.fa TRUTH.tsv [--hamming]
      Checks bench/gen_reads's output: each pattern is within its planted
      edit count of the genome window TRUTH names (edit distance with edlib,
      or mismatches with --hamming). Exit 1 if one is not.

  setk_compare.py count FORMAT FILE
      Prints "rows=N pairs=P patterns=R": rows of FILE, distinct (pattern,
      strand, reference, start) pairs, and patterns with at least one row.

  setk_compare.py compare --genome G --patterns P.fa -k K [--hamming]
                          [--tol T] [--truth TRUTH.tsv] [--examples E]
                          [--oracle-max M] [--first N] [--a-all FILE]
                          A_NAME:FORMAT:FILE B_NAME:FORMAT:FILE
      Markdown on stdout: the (pattern, strand, reference, position) pairs
      each tool reports, how many are in both, only in A, only in B, and for
      those only in one tool what the oracle says. --first N: only the
      first N patterns of P.fa (and their rows) are compared. --a-all: A's
      rows without --best-per-locus (every end position), which tells a row
      only B reports that A chained away from one A missed.

FORMAT is one of
  wm      warpmatch's set TSV: source record start end pattern errors [strand]
          (also the single-pattern rows with the pattern column put in, as
          setk_run.sh's one-pattern-a-pass fallback writes them)
  razers  RazerS 3's .razers lines (default -pf 0: 0-based, half-open):
          read rbegin rend F|R genome gbegin gend identity
  bowtie  bowtie's default output: read strand ref offset seq quals count
          mismatches (offset 0-based leftmost, end = offset + read length)

Matching. A row of one tool is "in both" when the other tool has a row for the
same pattern, strand and reference whose start or end is within T positions
(default k) of its own: warpmatch's start is the shortest occurrence's, RazerS
3's begin and end its alignment's, so an indel near an end moves them apart.
The two sides are counted separately (a warpmatch row in both, a RazerS 3 row
in both): a row may match several rows of the other tool in a tandem repeat.

The oracle, for a row only one tool reports: the pattern (reverse-complemented
for strand '-') against the genome at that row's [start, end) (edlib global
distance; mismatches for Hamming), and, when that is over k, the best infix
distance in the window widened by k + 8 on each side (edlib HW), so a row whose
coordinates are a little off still counts as a real occurrence. Its rules are
warpmatch's: pattern letters are IUPAC codes (N matches A, C, G or T), the
genome's letters are case-folded, and a genome N matches nothing. Each row is
then: "real" (within k) or "false" (over k); a real one is "overlapped" when
the other tool reports an overlapping interval for the pattern and strand (a
different choice of ends, or --best-per-locus chaining two of its hits into
one), or "chained" when A reports it before --best-per-locus (--a-all: a
chain of overlapping hits, a whole tandem repeat, is one row), else "missed
by" the other tool. A false row whose window holds a genome N is told apart:
RazerS 3 -mN lets an N match anything.

  setk_compare.py selftest
      compare and the parsers on made-up rows with known answers.

Needs the edlib module (Debian python3-edlib) for truth and compare.
"""
import argparse
import bisect
import collections
import sys

COMPLEMENT = str.maketrans("ACGTURYSWKMBDHVNacgturyswkmbdhvn", "TGCAAYRSWMKVHDBNtgcaayrswmkvhdbn")
IUPAC = {
    "A": "A", "C": "C", "G": "G", "T": "T", "U": "T", "R": "AG", "Y": "CT", "S": "CG",
    "W": "AT", "K": "GT", "M": "AC", "B": "CGT", "D": "AGT", "H": "ACT", "V": "ACG",
    "N": "ACGT",
}
# edlib matches equal characters and these pairs: a pattern's IUPAC code
# against each base it stands for. '#' (a genome N or other code) is in no pair.
EQUALITIES = [(code, base) for code, bases in IUPAC.items() if len(bases) > 1 for base in bases]


def die(msg):
    sys.stderr.write("setk_compare: %s\n" % msg)
    sys.exit(2)


def need_edlib():
    try:
        import edlib  # noqa: F401 - Debian python3-edlib
    except ImportError:
        die("the edlib module is missing (Debian python3-edlib; run this with /usr/bin/python3)")
    return edlib


def read_fasta(path):
    """name (first word of the header) -> sequence, in file order."""
    seqs, name, parts = collections.OrderedDict(), None, []
    with open(path, "r", encoding="ascii", errors="replace") as f:
        for line in f:
            if line.startswith(">"):
                if name is not None:
                    seqs[name] = "".join(parts)
                words = line[1:].split()
                name, parts = (words[0] if words else ""), []
            elif name is not None:
                parts.append(line.strip())
    if name is not None:
        seqs[name] = "".join(parts)
    return seqs


def genome_for_oracle(path):
    """The genome uppercased, every letter but A/C/G/T turned into '#' (a
    genome N matches nothing under warpmatch's rules)."""
    table = str.maketrans({c: "#" for c in "NRYSWKMBDHVUX"})
    return {name: seq.upper().translate(table) for name, seq in read_fasta(path).items()}


def revcomp(s):
    return s.translate(COMPLEMENT)[::-1]


def oriented(pattern, strand):
    return (revcomp(pattern) if strand == "-" else pattern).upper()


def hamming(pattern, text):
    if len(pattern) != len(text):
        return None
    return sum(1 for p, t in zip(pattern, text) if t not in IUPAC.get(p, p))


def distance(edlib, pattern, text, use_hamming):
    """Global distance of the whole pattern to the whole text (None: Hamming
    of different lengths)."""
    if use_hamming:
        return hamming(pattern, text)
    if not text:
        return len(pattern)
    return edlib.align(pattern, text, mode="NW", additionalEqualities=EQUALITIES)["editDistance"]


def best_near(edlib, pattern, text, use_hamming):
    """The best distance of the pattern to any substring of text (infix)."""
    if use_hamming:
        best = None
        for s in range(0, len(text) - len(pattern) + 1):
            d = hamming(pattern, text[s:s + len(pattern)])
            best = d if best is None or d < best else best
        return best
    if not text:
        return len(pattern)
    return edlib.align(pattern, text, mode="HW", additionalEqualities=EQUALITIES)["editDistance"]


# ---- the tools' rows ----------------------------------------------------------
# Each row: (pattern, strand, reference, start, end, errors or None)

def rows_wm(path):
    with open(path) as f:
        for line in f:
            c = line.rstrip("\n").split("\t")
            if len(c) < 6 or not c[2].isdigit():
                continue
            strand = c[6] if len(c) > 6 else "+"
            yield (c[4], strand, c[1], int(c[2]), int(c[3]), int(c[5]))


def rows_razers(path):
    with open(path) as f:
        for line in f:
            c = line.rstrip("\n").split("\t")
            if len(c) < 8:
                continue
            length = int(c[2]) - int(c[1])
            errors = int(round(length * (100.0 - float(c[7])) / 100.0))
            yield (c[0], "+" if c[3] == "F" else "-", c[4], int(c[5]), int(c[6]), errors)


def rows_bowtie(path):
    with open(path) as f:
        for line in f:
            c = line.rstrip("\n").split("\t")
            if len(c) < 5:
                continue
            start = int(c[3])
            errors = len(c[7].split(",")) if len(c) > 7 and c[7] else 0
            yield (c[0], c[1], c[2], start, start + len(c[4]), errors)


PARSERS = {"wm": rows_wm, "razers": rows_razers, "bowtie": rows_bowtie}


def load_rows(fmt, path):
    if fmt not in PARSERS:
        die("unknown format '%s' (wm, razers or bowtie)" % fmt)
    try:
        return list(PARSERS[fmt](path))
    except (OSError, ValueError) as e:
        die("%s: %s" % (path, e))


# ---- truth ----------------------------------------------------------------------

def cmd_truth(a):
    edlib = need_edlib()
    genome = genome_for_oracle(a.genome)
    patterns = read_fasta(a.patterns)
    checked, bad, worst = 0, 0, 0
    with open(a.truth) as f:
        header = f.readline()
        if not header.startswith("name\t"):
            die("%s: no truth header" % a.truth)
        for line in f:
            name, ref, start, end, strand, edits = line.rstrip("\n").split("\t")[:6]
            if name not in patterns or ref not in genome:
                die("%s: %s or %s unknown" % (a.truth, name, ref))
            text = genome[ref][int(start):int(end)]
            d = distance(edlib, oriented(patterns[name], strand), text, a.hamming)
            checked += 1
            worst = max(worst, d if d is not None else 0)
            if d is None or d > int(edits):
                bad += 1
                if bad <= 5:
                    sys.stderr.write("setk_compare: %s: distance %s to %s:%s-%s(%s), planted %s\n"
                                     % (name, d, ref, start, end, strand, edits))
    print("truth: %d patterns checked, %d over their planted edits, largest distance %d"
          % (checked, bad, worst))
    return 1 if bad or checked != len(patterns) else 0


# ---- count ----------------------------------------------------------------------

def cmd_count(a):
    rows = load_rows(a.format, a.file)
    pairs = {(r[0], r[1], r[2], r[3]) for r in rows}
    print("rows=%d pairs=%d patterns=%d" % (len(rows), len(pairs), len({r[0] for r in rows})))
    return 0


# ---- compare --------------------------------------------------------------------

class Index:
    """One tool's rows by (pattern, strand, reference), with sorted starts and
    ends for the tolerance test and intervals for the overlap test."""

    def __init__(self, rows):
        groups = collections.defaultdict(list)
        for r in rows:
            groups[(r[0], r[1], r[2])].append((r[3], r[4]))
        self.starts, self.ends, self.spans = {}, {}, {}
        for key, spans in groups.items():
            spans.sort()
            self.spans[key] = spans
            self.starts[key] = [s for s, _ in spans]
            self.ends[key] = sorted(e for _, e in spans)

    @staticmethod
    def _near(values, x, tol):
        i = bisect.bisect_left(values, x - tol)
        return i < len(values) and values[i] <= x + tol

    def near(self, key, start, end, tol):
        return key in self.starts and (self._near(self.starts[key], start, tol)
                                       or self._near(self.ends[key], end, tol))

    def overlapping(self, key, start, end):
        """A row of this index whose [s, e) shares a byte with [start, end)."""
        spans = self.spans.get(key)
        if not spans:
            return None
        i = bisect.bisect_left(self.starts[key], end)  # spans starting before end
        for s, e in reversed(spans[max(0, i - 64):i]):  # hits are short: a few back suffice
            if e > start:
                return (s, e)
        return None

    def overlaps_within(self):
        """Rows that share a byte with an earlier row of the same pattern,
        strand and reference (--best-per-locus leaves none)."""
        n = 0
        for spans in self.spans.values():
            reach = None
            for s, e in spans:
                if reach is not None and s < reach:
                    n += 1
                reach = e if reach is None else max(reach, e)
        return n

    def chain(self, key, start, end):
        """The chain (rows sharing bytes, transitively) that holds a row
        overlapping [start, end): its [first start, last end), or None. What
        --best-per-locus makes one row of."""
        if self.overlapping(key, start, end) is None:
            return None
        if not hasattr(self, "_chains"):
            self._chains = {}
        if key not in self._chains:
            merged = []
            for s, e in self.spans[key]:
                if merged and s < merged[-1][1]:
                    merged[-1][1] = max(merged[-1][1], e)
                else:
                    merged.append([s, e])
            self._chains[key] = ([m[0] for m in merged], merged)
        firsts, merged = self._chains[key]
        i = bisect.bisect_right(firsts, max(start, end - 1)) - 1
        while i >= 0 and merged[i][1] > start:
            if merged[i][0] < end:
                return tuple(merged[i])
            i -= 1
        return None


def judge(edlib, genome, patterns, row, k, use_hamming, other, other_all=None):
    """The oracle's word on one row only one tool reports. other_all: the other
    tool's rows before --best-per-locus (every end), when known."""
    name, strand, ref, start, end = row[:5]
    if name not in patterns or ref not in genome:
        return "unknown", "pattern or reference not in the inputs"
    pat = oriented(patterns[name], strand)
    seq = genome[ref]
    d = distance(edlib, pat, seq[start:end], use_hamming)
    where = "%s:%d-%d(%s)" % (ref, start, end, strand)
    if d is None or d > k:
        lo, hi = max(0, start - k - 8), min(len(seq), end + k + 8)
        near = best_near(edlib, pat, seq[lo:hi], use_hamming)
        if near is None or near > k:
            why = "%s %s: distance %s at its coordinates, best %s nearby" % (name, where, d, near)
            if "#" in seq[start:end]:
                return "false-n", why + "; the window holds N"
            return "false", why
        d_txt = "%s at its coordinates, %d nearby" % (d, near)
    else:
        d_txt = "%d" % d
    if other_all is not None and other_all.near((name, strand, ref), start, end, k):
        # Before --best-per-locus the other tool has it: after, its chain must
        # still have a row of this pattern and strand, or the row was lost.
        ch = other_all.chain((name, strand, ref), start, end)
        kept_row = ch and other.overlapping((name, strand, ref), ch[0], ch[1])
        if kept_row:
            return "chained", "%s %s: distance %s; the other tool's chain %d-%d is its row %d-%d" % (
                name, where, d_txt, ch[0], ch[1], kept_row[0], kept_row[1])
        return "dropped", "%s %s: distance %s; the other tool has it before --best-per-locus, and no row " \
            "of this pattern and strand in its chain after" % (name, where, d_txt)
    ov = other.overlapping((name, strand, ref), start, end)
    if ov:
        return "overlapped", "%s %s: distance %s; the other tool has %d-%d" % (name, where, d_txt, ov[0], ov[1])
    return "missed", "%s %s: distance %s; the other tool has nothing overlapping" % (name, where, d_txt)


def parse_tool(spec):
    parts = spec.split(":", 2)
    if len(parts) != 3:
        die("'%s': want NAME:FORMAT:FILE" % spec)
    return parts


def truth_recall(truth_path, rows, tol, kept=None):
    """Patterns (of kept, when given) whose planted window a tool reports
    (strand, reference, start or end within tol)."""
    idx = Index(rows)
    total = found = 0
    with open(truth_path) as f:
        f.readline()
        for line in f:
            name, ref, start, end, strand = line.rstrip("\n").split("\t")[:5]
            if kept is not None and name not in kept:
                continue
            total += 1
            found += idx.near((name, strand, ref), int(start), int(end), tol)
    return found, total


def compare(a):
    """The report of `compare` (markdown) and its numbers: rows only in each
    tool, and the oracle's verdicts on them, by tool name."""
    edlib = need_edlib()
    tol = a.k if a.tol is None else a.tol
    (na, fa, pa), (nb, fb, pb) = parse_tool(a.a), parse_tool(a.b)
    rows_a, rows_b = load_rows(fa, pa), load_rows(fb, pb)
    patterns = read_fasta(a.patterns)
    kept = None
    if a.first is not None:  # one tool ran the first N patterns only
        kept = set(list(patterns)[:a.first])
        rows_a = [r for r in rows_a if r[0] in kept]
        rows_b = [r for r in rows_b if r[0] in kept]
    ia, ib = Index(rows_a), Index(rows_b)
    genome = genome_for_oracle(a.genome)
    metric = "mismatches" if a.hamming else "edits"
    # A's every-end rows: a row only B has may be one of A's chained away
    a_all = None
    if a.a_all:
        rows_all = load_rows("wm", a.a_all)
        if kept is not None:
            rows_all = [r for r in rows_all if r[0] in kept]
        a_all = Index(rows_all)

    out = ["### %s vs %s (k = %d %s, tolerance +-%d%s)" % (
        na, nb, a.k, metric, tol, "" if kept is None else "; the first %d patterns only" % len(kept)), ""]
    out.append("| | %s | %s |" % (na, nb))
    out.append("| --- | ---: | ---: |")
    out.append("| rows | %d | %d |" % (len(rows_a), len(rows_b)))
    out.append("| patterns with a row | %d | %d |" % (len({r[0] for r in rows_a}), len({r[0] for r in rows_b})))
    only = {}
    for name, rows, other in ((na, rows_a, ib), (nb, rows_b, ia)):
        only[name] = [r for r in rows if not other.near((r[0], r[1], r[2]), r[3], r[4], tol)]
    out.append("| rows in both | %d | %d |" % (len(rows_a) - len(only[na]), len(rows_b) - len(only[nb])))
    out.append("| rows only in this tool | %d | %d |" % (len(only[na]), len(only[nb])))
    over = {n: sum(1 for r in rows if r[5] is not None and r[5] > a.k) for n, rows in ((na, rows_a), (nb, rows_b))}
    out.append("| rows whose own errors column is over k | %d | %d |" % (over[na], over[nb]))
    out.append("| rows overlapping another of their pattern and strand (none after --best-per-locus) | %d | %d |"
               % (ia.overlaps_within(), ib.overlaps_within()))
    if a.truth:
        for_a, total = truth_recall(a.truth, rows_a, tol, kept)
        for_b, _ = truth_recall(a.truth, rows_b, tol, kept)
        out.append("| planted origins reported (of %d) | %d | %d |" % (total, for_a, for_b))
    out.append("")

    stats = {"only": {na: len(only[na]), nb: len(only[nb])}, "verdicts": {}}
    for name, other_name, other, other_all in ((na, nb, ib, None), (nb, na, ia, a_all)):
        rows = only[name]
        stats["verdicts"][name] = {}
        if not rows:
            out.append("Only in %s: none." % name)
            out.append("")
            continue
        checked = rows[:a.oracle_max] if len(rows) > a.oracle_max else rows
        verdicts = collections.defaultdict(list)
        for r in checked:
            v, why = judge(edlib, genome, patterns, r, a.k, a.hamming, other, other_all)
            verdicts[v].append(why)
        stats["verdicts"][name] = {v: len(w) for v, w in verdicts.items()}
        out.append("Only in %s: %d rows; the oracle checked %s:" % (
            name, len(rows), "all" if len(checked) == len(rows) else "the first %d" % len(checked)))
        out.append("")
        labels = (("missed", "real (within k), %s has nothing overlapping: %s missed it" % (other_name, other_name)),
                  ("chained", "real, and %s has it before --best-per-locus (one row per chain of "
                   "overlapping hits: a tandem repeat is one row)" % other_name),
                  ("dropped", "real, and %s has it before --best-per-locus but drops the whole chain after: a "
                   "bug in %s's --best-per-locus" % (other_name, other_name)),
                  ("overlapped", "real, %s reports an overlapping interval (other ends, or chained)" % other_name),
                  ("false", "over k: %s is wrong" % name),
                  ("false-n", "over k under warpmatch's rules, in a window holding N (RazerS 3 -mN "
                   "lets a genome N match anything)"),
                  ("unknown", "not checkable"))
        for key, label in labels:
            if verdicts[key]:
                out.append("- %d %s; e.g." % (len(verdicts[key]), label))
                for why in verdicts[key][:a.examples]:
                    out.append("  - %s" % why)
        out.append("")
    return "\n".join(out), stats


def cmd_compare(a):
    print(compare(a)[0])
    return 0


# ---- selftest -------------------------------------------------------------------

def cmd_selftest(a):
    """compare on a made-up genome and rows whose answers are known: one row in
    both at shifted coordinates, one only in A that is false, one only in B
    that A missed, and A's 2600 and B's 2590 rows, 10 apart, each only in its
    tool and each overlapping the other's. Also the parsers of
    all three formats. Exit 1 on any wrong number."""
    import os
    import random
    import tempfile
    rng = random.Random(17)
    g = [rng.choice("ACGT") for _ in range(5000)]
    p1 = "".join(g[100:150])
    copy = list(p1)
    copy[10] = "A" if copy[10] != "A" else "C"
    copy[30] = "A" if copy[30] != "A" else "C"
    g[2000:2050] = copy  # p1 within 2 substitutions
    g[2600:2650] = list(p1)  # p1 exactly
    genome = "".join(g)
    p2 = revcomp(genome[1000:1040])
    files = {
        "g.fa": ">chrT extra words\n%s\n" % "\n".join(genome[i:i + 60] for i in range(0, 5000, 60)),
        "p.fa": ">p1\n%s\n>p2\n%s\n" % (p1, p2),
        # A: p1 at 100 (real), p2 at 1000 (real), p1 at 3000 (false), p1 at 2600
        "a.tsv": "g.fa\tchrT\t100\t150\tp1\t0\t+\ng.fa\tchrT\t1000\t1040\tp2\t0\t-\n"
                 "g.fa\tchrT\t3000\t3050\tp1\t0\t+\ng.fa\tchrT\t2600\t2650\tp1\t0\t+\n",
        # B: p1 at 100, p2 shifted by 2 (both), p1 at 2000 (A missed it), p1 at
        # 2590-2640 (off by 10 from A's 2600: real nearby, overlaps A's row)
        "b.razers": "p1\t0\t50\tF\tchrT\t100\t150\t100\n"
                    "p2\t0\t40\tR\tchrT\t1002\t1042\t100\n"
                    "p1\t0\t50\tF\tchrT\t2000\t2050\t96\n"
                    "p1\t0\t50\tF\tchrT\t2590\t2640\t98\n",
        "c.bowtie": "p2\t-\tchrT\t1000\t%s\tIII\t0\t3:A>C\n" % revcomp(p2),
    }
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for name, text in files.items():
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        j = lambda n: os.path.join(d, n)  # noqa: E731
        want_rows = {
            "wm": [("p1", "+", "chrT", 100, 150, 0), ("p2", "-", "chrT", 1000, 1040, 0)],
            "razers": [("p1", "+", "chrT", 100, 150, 0), ("p2", "-", "chrT", 1002, 1042, 0),
                       ("p1", "+", "chrT", 2000, 2050, 2)],
            "bowtie": [("p2", "-", "chrT", 1000, 1040, 1)],
        }
        for fmt, path in (("wm", "a.tsv"), ("razers", "b.razers"), ("bowtie", "c.bowtie")):
            got = load_rows(fmt, j(path))[:len(want_rows[fmt])]
            if got != want_rows[fmt]:
                print("selftest: %s rows %s, want %s" % (fmt, got, want_rows[fmt]))
                bad += 1
        ns = argparse.Namespace(genome=j("g.fa"), patterns=j("p.fa"), k=4, hamming=False, tol=None,
                                truth=None, examples=5, oracle_max=100, first=None, a_all=None,
                                a="A:wm:" + j("a.tsv"), b="B:razers:" + j("b.razers"))
        text, st = compare(ns)
        # 5-12 shares bytes with 0-10; 12-20 touches, q and '-' are other keys
        spans = [("p", "+", "c", 0, 10, 0), ("p", "+", "c", 5, 12, 0), ("p", "+", "c", 12, 20, 0),
                 ("q", "+", "c", 3, 8, 0), ("p", "-", "c", 1, 4, 0)]
        if Index(spans).overlaps_within() != 1:
            bad += 1
            print("selftest: overlaps_within is wrong")
        want = {"only": {"A": 2, "B": 2},
                "verdicts": {"A": {"false": 1, "overlapped": 1}, "B": {"missed": 1, "overlapped": 1}}}
        if st != want:
            print(text)
            print("selftest: compare gave %s, want %s" % (st, want))
            bad += 1
        # A before --best-per-locus has 2000: with nothing of A's chain left
        # after, a loss; with the chain reaching A's row at 2030, chained.
        for extra, want_b in (("", {"dropped": 1, "overlapped": 1}),
                              ("g.fa\tchrT\t2030\t2080\tp1\t3\t+\n", {"chained": 1, "overlapped": 1})):
            with open(j("a_all.tsv"), "w") as f:
                f.write(files["a.tsv"] + "g.fa\tchrT\t2001\t2050\tp1\t2\t+\n" + extra)
            with open(j("a2.tsv"), "w") as f:
                f.write(files["a.tsv"] + extra)
            ns.a_all, ns.a = j("a_all.tsv"), "A:wm:" + j("a2.tsv")
            got = compare(ns)[1]["verdicts"]["B"]
            if got != want_b:
                bad += 1
                print("selftest: --a-all gave %s, want %s" % (got, want_b))
        ns.a = "A:wm:" + j("a.tsv")
        ns.a_all = None
        ns.first = 1  # p1 only: p2's rows leave both sides
        if compare(ns)[1]["only"] != {"A": 2, "B": 2}:
            bad += 1
            print("selftest: --first 1 changed the p1 rows")
    print("selftest: %s" % ("ok" if not bad else "%d failures" % bad))
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("truth")
    t.add_argument("genome")
    t.add_argument("patterns")
    t.add_argument("truth")
    t.add_argument("--hamming", action="store_true")
    c = sub.add_parser("count")
    c.add_argument("format", choices=sorted(PARSERS))
    c.add_argument("file")
    m = sub.add_parser("compare")
    m.add_argument("--genome", required=True)
    m.add_argument("--patterns", required=True)
    m.add_argument("-k", type=int, required=True)
    m.add_argument("--hamming", action="store_true")
    m.add_argument("--tol", type=int)
    m.add_argument("--truth")
    m.add_argument("--examples", type=int, default=5)
    m.add_argument("--oracle-max", type=int, default=20000)
    m.add_argument("--first", type=int, help="compare the first N patterns of --patterns only")
    m.add_argument("--a-all", help="A's rows without --best-per-locus (wm format)")
    m.add_argument("a")
    m.add_argument("b")
    sub.add_parser("selftest")
    a = p.parse_args()
    return {"truth": cmd_truth, "count": cmd_count, "compare": cmd_compare, "selftest": cmd_selftest}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
