#!/usr/bin/env python3
"""stair_model.py -- a model of src/align/global_cuda.cu's meet on a stair,
checked against the full edit-distance DP (not part of the suite: the GPU
tests run the kernels themselves; this checks the meet's arithmetic alone).

Two runs of Myers' bit-vector step over 64-row words: the forward run's
word a ends at column H - 8 a; the backward run (both strings reversed,
its query padded on top by p = 64 W - m rows that match nothing and start
at vertical delta 0) ends its word b at reversed column n - H + 8 (W - 1)
- 8 b. Each word keeps its last column (Pv, Mv) and its bottom row's
carries over its last 8 columns (the tail). D[m][n] is the least of F + B
over the forward run's frontier, as k_meet_stair computes it. N matches
nothing, as in the library's DNA alphabet.

    python3 tests/oracle/stair_model.py [CASES [SEED]]    (3000, 1)
prints how many pairs the stair took and exits 1 at the first mismatch.
"""
import random
import sys

M64 = (1 << 64) - 1


def step(eq, pos, neg, pv, mv):
    """One column of a word; returns the new pv, mv and the carries out."""
    x = eq | neg
    xv = eq | mv
    xh = ((((x & pv) + pv) & M64) ^ pv) | x
    ph = (mv | (~(xh | pv) & M64)) & M64
    mh = pv & xh
    op, om = ph >> 63, mh >> 63
    ph = ((ph << 1) | pos) & M64
    mh = ((mh << 1) | neg) & M64
    return (mh | (~(xv | ph) & M64)) & M64, ph & xv, op, om


def run(x, y, words, last, pad=0):
    """Words 0..words-1, word w through column last[w]: Pv, Mv, tails."""
    peq = {c: [0] * words for c in "ACGT"}
    for i, ch in enumerate(x):
        if ch in peq:
            peq[ch][(pad + i) // 64] |= 1 << ((pad + i) % 64)
    pv, mv, tails = [M64] * words, [0] * words, [0] * words
    if pad:
        pv[0] = (M64 << pad) & M64
    carry_in = [(1, 0)] * (max(last) + 1)  # the top row: +1 a column
    for w in range(words):
        out = [None] * (max(last) + 1)
        for c in range(1, last[w] + 1):
            eq = peq[y[c - 1]][w] if y[c - 1] in peq else 0
            pv[w], mv[w], op, om = step(eq, *carry_in[c], pv[w], mv[w])
            out[c] = (op, om)
        tp = tm = 0
        for t in range(8):  # columns last - 7 .. last as bits 0..7
            op, om = out[last[w] - 7 + t]
            tp |= op << t
            tm |= om << t
        tails[w] = tp | tm << 8
        carry_in = out
    return pv, mv, tails


def popc(v):
    return bin(v).count("1")


def low_bits(k):
    return M64 if k >= 64 else (1 << k) - 1


def tail_last(tail, t):
    sh = 8 - t
    return popc((tail & 0xFF) >> sh) - popc(((tail >> 8) & 0xFF) >> sh)


def meet(x, y):
    """D[m][n] from both ends on the stair, or None where it does not fit."""
    m, n = len(x), len(y)
    W = (m + 63) // 64
    p = 64 * W - m
    H = (n + 8 * (W - 1)) // 2 // 8 * 8
    if not (8 * W <= H and H + 8 <= n):
        return None
    Hb = n - H + 8 * (W - 1)
    Fpv, Fmv, Ft = run(x, y, W, [H - 8 * a for a in range(W)])
    Gpv, Gmv, Gt = run(x[::-1], y[::-1], W, [Hb - 8 * b for b in range(W)], pad=p)
    keep_last = low_bits(m % 64) if m % 64 else M64

    def ws(pv, mv, w, mask):
        return popc(pv[w] & mask) - popc(mv[w] & mask)

    Ftop, Gtop, f, g = [], [], H, Hb
    for w in range(W):
        Ftop.append(f)
        Gtop.append(g)
        f += ws(Fpv, Fmv, w, keep_last if w == W - 1 else M64) - tail_last(Ft[w], 8)
        g += ws(Gpv, Gmv, w, M64) - tail_last(Gt[w], 8)
    best = H + Gtop[W - 1] + ws(Gpv, Gmv, W - 1, M64)  # row 0
    for i in range(1, m + 1):  # the words' last columns
        a, k = (i - 1) >> 6, (i - 1) % 64 + 1
        b = W - 1 - a
        best = min(best, Ftop[a] + ws(Fpv, Fmv, a, low_bits(k)) +
                   Gtop[b] + ws(Gpv, Gmv, b, low_bits(64 - k)))
    for a in range(W - 1):  # the steps: word a's bottom row, 8 columns
        b = W - 1 - a
        for t in range(9):
            f = Ftop[a] + ws(Fpv, Fmv, a, M64) - tail_last(Ft[a], t)
            g = Gtop[b - 1] + ws(Gpv, Gmv, b - 1, M64) - tail_last(Gt[b - 1], 8 - t)
            best = min(best, f + g)
    return best


def edit_distance(x, y):
    prev = list(range(len(y) + 1))
    for i in range(1, len(x) + 1):
        cur = [i] + [0] * len(y)
        for j in range(1, len(y) + 1):
            sub = x[i - 1] != y[j - 1] or x[i - 1] == "N"
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + sub)
        prev = cur
    return prev[-1]


def main():
    cases = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    took = 0
    for _ in range(cases):
        m, n = random.randint(1, 260), random.randint(1, 700)
        alpha = "ACGTN" if random.random() < 0.1 else "ACGT"
        x = "".join(random.choice(alpha) for _ in range(m))
        if random.random() < 0.5:  # a copy with edits, cut or padded to n
            y = list(x)
            for _ in range(random.randint(0, m // 5 + 1)):
                r, at = random.random(), random.randrange(len(y) + 1)
                if r < 0.33 and at < len(y):
                    y[at] = random.choice("ACGT")
                elif r < 0.66:
                    y.insert(at, random.choice("ACGT"))
                elif at < len(y):
                    del y[at]
            y = "".join(y) + "".join(random.choice("ACGT") for _ in range(n))
            y = y[:n]
        else:
            y = "".join(random.choice("ACGT") for _ in range(n))
        got = meet(x, y)
        if got is None:
            continue
        took += 1
        want = edit_distance(x, y)
        if got != want:
            print(f"MISMATCH m={m} n={n}: the stair {got}, the DP {want}")
            return 1
    print(f"{took} pairs on the stair, every one the DP's distance")
    return 0


if __name__ == "__main__":
    sys.exit(main())
