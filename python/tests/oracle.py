"""Brute-force oracles for the tests: the problems as their definitions say
(include/warpmatch.h), written for clarity and never optimised."""
import math

import numpy as np

INF = math.inf


def edit_distance(a, b, eq=lambda x, y: x == y):
    """Plain O(mn) edit distance with unit costs."""
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (0 if eq(a[i - 1], b[j - 1]) else 1))
        prev = cur
    return prev[len(b)]


def suffix_distances(p, t, eq):
    """d[s] = edit distance of p and t[s:] for every s (one DP on reversed strings)."""
    rp, rt = p[::-1], t[::-1]
    m, n = len(rp), len(rt)
    col = list(range(m + 1))  # distance of rp[:i] and rt[:0]
    out = [col[m]]
    for j in range(1, n + 1):
        new = [j] + [0] * m
        for i in range(1, m + 1):
            new[i] = min(col[i] + 1, new[i - 1] + 1, col[i - 1] + (0 if eq(rp[i - 1], rt[j - 1]) else 1))
        col = new
        out.append(col[m])
    # out[j] = distance(p, t[n-j:]); index by start s = n - j
    return {len(t) - j: d for j, d in enumerate(out)}


def search(p, t, k, metric="edit", eq=lambda x, y: x == y):
    """[(start, end, errors)] by the contract of wm_search (one record)."""
    m, n = len(p), len(t)
    found = []
    for e in range(1, n + 1):
        if metric == "hamming":
            if e < m:
                continue
            d = sum(0 if eq(p[i], t[e - m + i]) else 1 for i in range(m))
            if d <= k:
                found.append((e - m, e, d))
            continue
        dist = suffix_distances(p, t[:e], eq)
        best = min(dist.values())
        if best <= k:
            start = max(s for s, d in dist.items() if d == best)
            found.append((start, e, best))
    return found


def search_set(patterns, t, eq=lambda x, y: x == y):
    """[(start, end, pattern)] sorted by (end, pattern): every exact occurrence."""
    found = []
    for e in range(1, len(t) + 1):
        for i, p in enumerate(patterns):
            s = e - len(p)
            if s >= 0 and all(eq(p[j], t[s + j]) for j in range(len(p))):
                found.append((s, e, i))
    return found


def align_infix(q, t):
    """(distance, start, end): the substring of t closest to q; the leftmost
    end, then the largest start."""
    best = None
    for s in range(len(t) + 1):
        rows = prefix_distances(q, t[s:])
        for length, d in enumerate(rows):
            e = s + length
            key = (d, e, -s)
            if best is None or key < best:
                best = key
    return best[0], -best[2], best[1]


def prefix_distances(q, t):
    """[distance(q, t[:e]) for e in 0..len(t)]."""
    col = list(range(len(q) + 1))
    out = [col[-1]]
    for j in range(1, len(t) + 1):
        new = [j] + [0] * len(q)
        for i in range(1, len(q) + 1):
            new[i] = min(col[i] + 1, new[i - 1] + 1, col[i - 1] + (q[i - 1] != t[j - 1]))
        col = new
        out.append(col[-1])
    return out


def cigar_ops(cigar):
    """'2=1X' -> [('=', 2), ('X', 1)]."""
    ops, num = [], ""
    for c in cigar:
        if c.isdigit():
            num += c
        else:
            assert num, "an operation without a count in %r" % cigar
            ops.append((c, int(num)))
            num = ""
    assert not num, "a count without an operation in %r" % cigar
    return ops


def cigar_cost(cigar, q, t):
    """Replay an extended CIGAR of q against t (all of both): its edits, or
    an AssertionError when it does not describe an alignment of the two."""
    i = j = edits = 0
    for op, n in cigar_ops(cigar):
        for _ in range(n):
            if op in "=X":
                assert i < len(q) and j < len(t), "past the end"
                assert (q[i] == t[j]) == (op == "="), "%s at (%d, %d)" % (op, i, j)
                edits += op == "X"
                i += 1
                j += 1
            elif op == "I":
                i += 1
                edits += 1
            elif op == "D":
                j += 1
                edits += 1
            else:
                raise AssertionError("unknown operation %r" % op)
    assert (i, j) == (len(q), len(t)), "consumes %d/%d and %d/%d" % (i, len(q), j, len(t))
    return edits


def optimal_alignments(q, t, cap=2):
    """How many different optimal global alignments (as CIGARs) q and t have,
    counted up to `cap`."""
    m, n = len(q), len(t)
    d = [[0] * (n + 1) for _ in range(m + 1)]
    c = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(m + 1):
        for j in range(n + 1):
            if i == 0 and j == 0:
                c[0][0] = 1
                continue
            opts = []
            if i and j:
                opts.append((d[i - 1][j - 1] + (q[i - 1] != t[j - 1]), c[i - 1][j - 1]))
            if i:
                opts.append((d[i - 1][j] + 1, c[i - 1][j]))
            if j:
                opts.append((d[i][j - 1] + 1, c[i][j - 1]))
            d[i][j] = min(v for v, _ in opts)
            c[i][j] = min(cap, sum(w for v, w in opts if v == d[i][j]))
    return c[m][n]


def _dtw_arith(x, y, cost, f32):
    """The samples, the cost and zero of a DTW DP: float64, or float32
    (precision='f32': numpy float32 scalars, whose every operation rounds to
    float32)."""
    if f32:
        x, y, zero = [np.float32(v) for v in x], [np.float32(v) for v in y], np.float32(0)
    else:
        zero = 0.0
    f = (lambda a, b: abs(a - b)) if cost == "abs" else (lambda a, b: (a - b) * (a - b))
    return x, y, f, zero


def dtw_subsequence(x, y, cost, top=1, max_distance=INF, f32=False):
    """[(start, end, distance)] of subsequence DTW as wm_dtw defines it."""
    x, y, f, zero = _dtw_arith(x, y, cost, f32)
    m, n = len(x), len(y)
    inf = np.float32(INF) if f32 else INF
    prev_d = [zero] * (n + 1)
    prev_s = [j - 1 for j in range(n + 1)]  # a path from row 0 starts at sample j - 1
    for i in range(1, m + 1):
        cur_d, cur_s = [inf] * (n + 1), [0] * (n + 1)
        for j in range(1, n + 1):
            cands = [(cur_d[j - 1], cur_s[j - 1]), (prev_d[j], prev_s[j] if i > 1 else j - 1),
                     (prev_d[j - 1], prev_s[j - 1] if i > 1 else j - 1)]
            best = min(v for v, _ in cands)
            cur_d[j] = best + f(x[i - 1], y[j - 1])
            cur_s[j] = max(s for v, s in cands if v == best)
        prev_d, prev_s = cur_d, cur_s
    ends = sorted(range(1, n + 1), key=lambda e: (prev_d[e], e))
    taken = []
    for e in ends:
        if prev_d[e] > max_distance or (top and len(taken) == top):
            break
        s = prev_s[e]
        if any(s < te and ts < e for ts, te, _ in taken):
            continue
        taken.append((s, e, float(prev_d[e])))
    if top == 0:
        taken.sort(key=lambda r: r[1])
    return taken


def dtw_global(x, y, cost, window=-1, f32=False):
    """The DTW distance of the whole x and y, with an optional Sakoe-Chiba band
    (tslearn's: widened by the length difference); f32: in float32."""
    x, y, f, zero = _dtw_arith(x, y, cost, f32)
    m, n = len(x), len(y)
    inf = np.float32(INF) if f32 else INF
    d = [[inf] * (n + 1) for _ in range(m + 1)]
    d[0][0] = zero
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if window >= 0:
                lo = (i - 1) - window - max(0, m - n)
                hi = (i - 1) + window + max(0, n - m)
                if not lo <= j - 1 <= hi:
                    continue
            d[i][j] = min(d[i - 1][j], d[i][j - 1], d[i - 1][j - 1]) + f(x[i - 1], y[j - 1])
    return float(d[m][n])
