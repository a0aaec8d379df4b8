"""The same calls through edlib's Python module (Debian python3-edlib):
global = edlib 'NW', infix = edlib 'HW'.

Both write the extended CIGAR the same way ('=' match, 'X' mismatch, 'I' a
query symbol missing from the target, 'D' a target symbol missing from the
query), so no letter is translated; what differs is which optimal alignment
each picks when several tie, and, for infix, which start of the best end
(edlib returns one of the starts reaching the distance, warpmatch the
largest, i.e. the shortest substring). So:
  - distances are equal, always;
  - infix ends are equal (both take the leftmost best end), and our start is
    the largest s with edlib NW(query, target[s:end]) equal to the distance;
  - CIGARs are equal, character for character, wherever the optimal
    alignment is unique (counted by the oracle), and otherwise both replay
    to the distance on the same stretch of the target.
"""
import pytest

edlib = pytest.importorskip("edlib")

import warpmatch
import oracle
from conftest import BACKEND, SCALE


def mutate(rng, s, edits, alphabet):
    s = list(s)
    for _ in range(edits):
        i = rng.randint(0, len(s))
        kind = rng.choice("sid") if s else "i"
        if kind == "i":
            s.insert(i, rng.choice(alphabet))
        elif i < len(s):
            if kind == "s":
                s[i] = rng.choice(alphabet)
            else:
                del s[i]
    return "".join(s)


def pair(rng):
    alphabet = rng.choice(["ACGT", "ACGTN", "ab"])
    q = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40)))
    if rng.random() < 0.7:  # a mutated copy, where the best alignment is often unique
        t = mutate(rng, q, rng.randint(0, 4), alphabet)
    else:
        t = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
    return q, t


def test_global_same_as_edlib_nw(rng):
    unique_equal = 0
    for case in range(400 * SCALE):
        q, t = pair(rng)
        e = edlib.align(q, t, mode="NW", task="path")
        a = warpmatch.align(q, t, mode="global", cigar=True, backend=BACKEND)
        assert a.distance == e["editDistance"], (case, q, t)
        if not t:  # edlib gives no CIGAR for an empty target
            assert a.cigar == "%dI" % len(q)
            continue
        assert oracle.cigar_cost(e["cigar"], q, t) == e["editDistance"]
        assert oracle.cigar_cost(a.cigar, q, t) == a.distance
        if oracle.optimal_alignments(q, t) == 1:
            assert a.cigar == e["cigar"], (case, q, t)
            unique_equal += 1
    assert unique_equal >= 100 * SCALE  # the strict comparison really ran


def test_infix_same_as_edlib_hw(rng):
    unique_equal = 0
    for case in range(400 * SCALE):
        q, t = pair(rng)
        if not t:
            continue
        e = edlib.align(q, t, mode="HW", task="path")
        a = warpmatch.align(q, t, cigar=True, backend=BACKEND)
        d = e["editDistance"]
        assert a.distance == d, (case, q, t)
        first_end = e["locations"][0][1] + 1  # edlib's ends are inclusive
        assert a.end == first_end, (case, q, t)
        largest = max(s for s in range(a.end + 1)
                      if edlib.align(q, t[s:a.end], mode="NW")["editDistance"] == d)
        assert a.start == largest, (case, q, t)
        sub = t[a.start:a.end]
        assert oracle.cigar_cost(a.cigar, q, sub) == d
        if sub and oracle.optimal_alignments(q, sub) == 1:
            assert a.cigar == edlib.align(q, sub, mode="NW", task="path")["cigar"], (case, q, t)
            unique_equal += 1
    assert unique_equal >= 100 * SCALE


def test_pairs_same_as_edlib(rng):
    pairs = [pair(rng) for _ in range(300 * SCALE)]
    qs, ts = [p[0] for p in pairs], [p[1] for p in pairs]
    arr, cigars = warpmatch.align_pairs(qs, ts, mode="global", cigar=True, backend=BACKEND)
    for i, (q, t) in enumerate(pairs):
        e = edlib.align(q, t, mode="NW", task="path")
        assert arr[i]["distance"] == e["editDistance"], (i, q, t)
        if t and oracle.optimal_alignments(q, t) == 1:
            assert cigars[i] == e["cigar"], (i, q, t)


@pytest.mark.parametrize("k", [0, 1, 3, 10])
def test_k_same_as_edlib(rng, k):
    """edlib gives -1 over k; warpmatch None (align) and -1 (align_pairs)."""
    pairs = [pair(rng) for _ in range(100 * SCALE)]
    pairs = [(q, t) for q, t in pairs if t]
    for mode, emode in (("global", "NW"), ("infix", "HW")):
        arr = warpmatch.align_pairs([p[0] for p in pairs], [p[1] for p in pairs], mode=mode, k=k,
                                    backend=BACKEND)
        for i, (q, t) in enumerate(pairs):
            d = edlib.align(q, t, mode=emode, k=k)["editDistance"]
            a = warpmatch.align(q, t, mode=mode, k=k, backend=BACKEND)
            assert (a.distance if a else -1) == d == arr[i]["distance"], (mode, q, t, k)
