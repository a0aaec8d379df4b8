"""search() and search_set() against the brute-force oracle on random small
cases: every match, its start, its errors, records, strands."""
import numpy as np
import pytest

import warpmatch
import oracle
from conftest import BACKEND, SCALE


def rows(matches, fields=("start", "end", "errors")):
    return [tuple(int(r[f]) for f in fields) for r in matches]


@pytest.mark.parametrize("metric", ["edit", "hamming"])
def test_search_random(rng, metric):
    checked = 0
    for case in range(200 * SCALE):
        alphabet = rng.choice(["ab", "acgt", "abcdefgh"])
        m = rng.randint(1, 7)
        k = rng.randint(0, m - 1)
        p = "".join(rng.choice(alphabet) for _ in range(m))
        t = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        algo = rng.choice(["auto", "bitap"] + (["myers"] if metric == "edit" else [])
                          + (["shiftor"] if k == 0 else []))
        got = warpmatch.search(p, t, k, metric=metric, algo=algo, backend=BACKEND)
        want = oracle.search(p, t, k, metric)
        assert rows(got) == want, (case, p, t, k, algo)
        assert all(got["record"] == 0) and all(got["strand"] == 0) and all(got["pattern"] == 0)
        checked += len(want) + 1
    assert checked > 200


def test_search_case_insensitive(rng):
    for case in range(100 * SCALE):
        m = rng.randint(1, 5)
        k = rng.randint(0, m - 1)
        p = "".join(rng.choice("aAbB") for _ in range(m))
        t = "".join(rng.choice("aAbBc") for _ in range(rng.randint(0, 25)))
        eq = lambda x, y: x.lower() == y.lower()
        got = warpmatch.search(p, t, k, case_insensitive=True, backend=BACKEND)
        assert rows(got) == oracle.search(p, t, k, eq=eq), (case, p, t, k)


def test_search_records(rng):
    """A list of texts is a list of records: matches stay inside each one and
    carry its index; offsets are within the record."""
    for case in range(100 * SCALE):
        m = rng.randint(1, 5)
        k = rng.randint(0, m - 1)
        p = "".join(rng.choice("ab") for _ in range(m))
        recs = ["".join(rng.choice("ab") for _ in range(rng.randint(0, 12)))
                for _ in range(rng.randint(1, 5))]
        got = warpmatch.search(p, recs, k, backend=BACKEND)
        want = [(r,) + hit for r, t in enumerate(recs) for hit in oracle.search(p, t, k)]
        assert rows(got, ("record", "start", "end", "errors")) == want, (case, p, recs, k)


def revcomp(s):
    return s[::-1].translate(str.maketrans("ACGT", "TGCA"))


def test_search_dna_revcomp(rng):
    """DNA: case folded, N in the text matches nothing; strand 1 is the
    reverse complement, in order of (end, strand)."""
    eq = lambda x, y: y.upper() in "ACGT" and x.upper() == y.upper()
    for case in range(100 * SCALE):
        m = rng.randint(1, 6)
        k = rng.randint(0, m - 1)
        p = "".join(rng.choice("ACGT") for _ in range(m))
        t = "".join(rng.choice("ACGTacgtN") for _ in range(rng.randint(0, 25)))
        got = warpmatch.search(p, t, k, alphabet="dna", revcomp=True, backend=BACKEND)
        want = sorted([(s, e, d, 0) for s, e, d in oracle.search(p, t, k, eq=eq)]
                      + [(s, e, d, 1) for s, e, d in oracle.search(revcomp(p), t, k, eq=eq)],
                      key=lambda r: (r[1], r[3]))
        assert rows(got, ("start", "end", "errors", "strand")) == want, (case, p, t, k)


def test_search_set_random(rng):
    for case in range(200 * SCALE):
        alphabet = rng.choice(["ab", "acgt"])
        pats = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 5)))
                for _ in range(rng.randint(1, 6))]
        t = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        algo = rng.choice(["auto", "ac", "pfac", "wumanber"])
        got = warpmatch.search_set(pats, t, algo=algo, backend=BACKEND)
        want = oracle.search_set(pats, t)
        assert rows(got, ("start", "end", "pattern")) == want, (case, pats, t, algo)
        assert all(got["errors"] == 0)


@pytest.mark.parametrize("metric", ["edit", "hamming"])
def test_search_set_within_k(rng, metric):
    """A set within k: each pattern's rows as search() alone gives them (the
    oracle checks those), labelled and merged."""
    for case in range(100 * SCALE):
        alphabet = rng.choice(["ab", "acgt"])
        k = rng.randint(1, 3)
        pats = ["".join(rng.choice(alphabet) for _ in range(rng.randint(k + 1, k + 30)))
                for _ in range(rng.randint(1, 5))]
        t = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 120)))
        got = warpmatch.search_set(pats, t, k, metric=metric, backend=BACKEND)
        want = sorted((e, i, s, d) for i, p in enumerate(pats)
                      for s, e, d in oracle.search(p, t, k, metric))
        assert [(int(r["end"]), int(r["pattern"]), int(r["start"]), int(r["errors"]))
                for r in got] == want, (case, pats, t, k)


def test_search_set_numpy_patterns():
    pats = np.array([b"ab", b"b", b"abc"])  # dtype S3: shorter ones NUL-padded
    got = warpmatch.search_set(pats, b"xabcab", backend=BACKEND)
    assert rows(got, ("start", "end", "pattern")) == oracle.search_set(["ab", "b", "abc"], "xabcab")


def test_search_limit():
    got = warpmatch.search("a", "a" * 100, limit=7, backend=BACKEND)
    assert rows(got, ("start", "end")) == [(i, i + 1) for i in range(7)]
    assert len(warpmatch.search("a", "a" * 100, backend=BACKEND)) == 100
    # the matches come in runs of many (wm_search_batches): a limit inside
    # a run keeps that run's first ones, a limit past the end keeps all
    rng = np.random.default_rng(9)
    text = rng.choice(np.frombuffer(b"ACGT", np.uint8), size=2_000_000)
    full = warpmatch.search("ACG", text, k=1, backend=BACKEND, threads=2)
    assert len(full) > 300_000
    for limit in (1, 4097, 300_001, len(full), len(full) + 5):
        got = warpmatch.search("ACG", text, k=1, limit=limit, backend=BACKEND, threads=2)
        assert rows(got) == rows(full[:limit]), limit


def test_search_large_text_many_chunks():
    """A text long enough to be cut for threads: the same as the oracle's
    answer found by a plain scan."""
    rng = np.random.default_rng(5)
    text = rng.choice(np.frombuffer(b"ACGT", np.uint8), size=3_000_000)
    pat = text[1_234_567:1_234_580].tobytes()
    got = warpmatch.search(pat, text, backend=BACKEND, threads=2)
    raw = text.tobytes()
    want, i = [], raw.find(pat)
    while i >= 0:
        want.append((i, i + len(pat), 0))
        i = raw.find(pat, i + 1)
    assert rows(got) == want and len(want) >= 1
