"""loci_brute.py -- --best-per-locus by brute force, for the CLI tests: the
every-end rows (TSV) on stdin, the loci's rows out. Rows of one source,
record, pattern (a set's) and strand whose intervals [start, end) share a
byte are one locus, transitively; a locus prints its row with the fewest
errors, the leftmost end on ties; rows in (source, record, end, pattern,
strand) order, sources and records as they first came.

    python3 loci_brute.py one|set < every_end.tsv

Columns: one: source record start end errors [strand]; set: source record
start end pattern errors [strand].
"""
import sys

is_set = sys.argv[1] == 'set'
ERR = 5 if is_set else 4


def strand(r):
    return r[ERR + 1] if len(r) > ERR + 1 else '+'


def pattern(r):
    return int(r[4]) if is_set else 0


rows = [l.rstrip('\n').split('\t') for l in sys.stdin if l.strip()]
order, groups = {}, {}
for r in rows:
    order.setdefault((r[0], r[1]), len(order))
    groups.setdefault((r[0], r[1], pattern(r), strand(r)), []).append(
        (int(r[2]), int(r[3]), int(r[ERR]), r))
best = []
for ms in groups.values():
    ms.sort(key=lambda t: (t[0], t[1]))
    comps, hi = [], -1
    for s, e, err, r in ms:  # by start: a new locus when nothing before reaches s
        if not comps or s >= hi:
            comps.append([])
            hi = e
        comps[-1].append((err, e, r))
        hi = max(hi, e)
    for c in comps:
        best.append(min(c, key=lambda t: (t[0], t[1]))[2])
best.sort(key=lambda r: (order[(r[0], r[1])], int(r[3]), pattern(r), strand(r)))
for r in best:
    print('\t'.join(r))
