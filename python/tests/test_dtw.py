"""dtw() against the brute-force DP: subsequence (distance, start, end, the
ranking and top), global with and without a band; float32/float64 inputs."""
import math

import numpy as np
import pytest

import warpmatch
import oracle
from conftest import BACKEND, SCALE


def rand_signal(rng, lo, hi, ints):
    n = rng.randint(lo, hi)
    if ints:  # small integers: many equal sums, so ties are exercised
        return [float(rng.randint(-3, 3)) for _ in range(n)]
    return [rng.uniform(-5, 5) for _ in range(n)]


def triples(arr):
    return [(int(r["start"]), int(r["end"]), float(r["distance"])) for r in arr]


@pytest.mark.parametrize("cost", ["abs", "squared"])
def test_dtw_subsequence(rng, cost):
    for case in range(150 * SCALE):
        ints = rng.random() < 0.5
        x, y = rand_signal(rng, 1, 8, ints), rand_signal(rng, 1, 30, ints)
        top = rng.choice([1, 1, 2, 3, 0])
        limit = rng.choice([math.inf, 4.0])
        want = oracle.dtw_subsequence(x, y, cost, top=top, max_distance=limit)
        got = warpmatch.dtw(np.array(x), np.array(y), cost=cost, top=top,
                            max_distance=None if limit == math.inf else limit, backend=BACKEND)
        assert got.dtype == warpmatch.DTW_DTYPE
        assert triples(got) == want, (case, x, y, top, limit)


@pytest.mark.parametrize("cost", ["abs", "squared"])
def test_dtw_global(rng, cost):
    for case in range(150 * SCALE):
        ints = rng.random() < 0.5
        x, y = rand_signal(rng, 1, 12, ints), rand_signal(rng, 1, 12, ints)
        window = rng.choice([None, 0, 1, 3])
        want = oracle.dtw_global(x, y, cost, -1 if window is None else window)
        got = warpmatch.dtw(x, y, mode="global", cost=cost, window=window, backend=BACKEND)
        assert triples(got) == [(0, len(y), want)], (case, x, y, window)


def test_dtw_path(rng):
    """Each path runs from (0, start) to (m - 1, end - 1) in unit steps and its
    costs sum to the distance."""
    for case in range(100 * SCALE):
        x, y = rand_signal(rng, 1, 6, True), rand_signal(rng, 1, 20, True)
        got, paths = warpmatch.dtw(x, y, path=True, backend=BACKEND)
        (start, end, dist), = triples(got)
        p = paths[0]
        assert p.dtype == np.uint64 and p.shape[1] == 2
        assert tuple(p[0]) == (0, start) and tuple(p[-1]) == (len(x) - 1, end - 1)
        steps = np.diff(p.astype(np.int64), axis=0)
        assert all(tuple(s) in {(1, 0), (0, 1), (1, 1)} for s in steps)
        assert sum(abs(x[i] - y[j]) for i, j in p) == dist, (case, x, y)


def test_dtw_float32_and_lists_agree(rng):
    """float32 input is widened to float64 (each value exactly), so the
    result equals the float64 call on the same values."""
    for case in range(50 * SCALE):
        x32 = np.array(rand_signal(rng, 1, 8, False), dtype=np.float32)
        y32 = np.array(rand_signal(rng, 1, 40, False), dtype=np.float32)
        a = warpmatch.dtw(x32, y32, backend=BACKEND)
        b = warpmatch.dtw(x32.astype(np.float64), y32.astype(np.float64), backend=BACKEND)
        c = warpmatch.dtw(x32.tolist(), y32.tolist(), backend=BACKEND)
        assert np.array_equal(a, b) and np.array_equal(a, c)
        assert triples(a) == oracle.dtw_subsequence([float(v) for v in x32],
                                                    [float(v) for v in y32], "abs")


def test_dtw_long_series_threads():
    """A series long enough to be cut into pieces for threads gives the one
    DP's answer (the same bits as one thread)."""
    rng = np.random.default_rng(7)
    series = np.cumsum(rng.normal(size=400_000))
    query = series[123_000:123_300] + rng.normal(scale=0.01, size=300)
    one = warpmatch.dtw(query, series, top=3, threads=1, backend=BACKEND)
    two = warpmatch.dtw(query, series, top=3, threads=2, backend=BACKEND)
    assert np.array_equal(one, two)
    assert one[0]["start"] <= 123_000 + 5 and abs(int(one[0]["end"]) - 123_300) <= 5


def znorm(v):
    """(v - mean) / sd, population sd, two passes; sd = 0 gives zeros."""
    mean = sum(v) / len(v)
    sd = math.sqrt(sum((x - mean) ** 2 for x in v) / len(v))
    return [0.0] * len(v) if sd == 0 else [(x - mean) / sd for x in v]


def test_dtw_znorm_global(rng):
    for case in range(60 * SCALE):
        x, y = rand_signal(rng, 1, 10, False), rand_signal(rng, 1, 10, False)
        want = oracle.dtw_global(znorm(x), znorm(y), "abs")
        (got,) = triples(warpmatch.dtw(x, y, mode="global", znorm=True, backend=BACKEND))
        assert got[:2] == (0, len(y)) and got[2] == pytest.approx(want, rel=1e-9, abs=1e-9)


def test_dtw_ucr(rng):
    """Every window of L samples z-normalised on its own against the
    z-normalised query, with the band; best first, non-overlapping."""
    for case in range(60 * SCALE):
        x = rand_signal(rng, 2, 6, False)
        y = rand_signal(rng, len(x), 25, rng.random() < 0.3)
        window = rng.choice([None, 0, 2])
        top = rng.choice([1, 2])
        L = len(x)
        qz = znorm(x)
        scored = sorted(((oracle.dtw_global(qz, znorm(y[s:s + L]), "squared",
                                            -1 if window is None else window), s + L, s)
                         for s in range(len(y) - L + 1)), key=lambda r: (r[0], r[1]))
        want = []
        for d, e, s in scored:
            if len(want) == top:
                break
            if not any(s < we and ws < e for ws, we, _ in want):
                want.append((s, e, d))
        got = triples(warpmatch.dtw(x, y, mode="ucr", cost="squared", window=window, top=top,
                                    backend=BACKEND))
        assert [g[:2] for g in got] == [w[:2] for w in want], (case, x, y, window, top)
        assert [g[2] for g in got] == pytest.approx([w[2] for w in want], rel=1e-9, abs=1e-9)


def test_dtw_many(rng):
    """One call for many queries: each as dtw() gives it alone."""
    for case in range(30 * SCALE):
        series = np.array(rand_signal(rng, 5, 60, rng.random() < 0.5))
        queries = [np.array(rand_signal(rng, 1, 8, rng.random() < 0.5))
                   for _ in range(rng.randint(0, 6))]
        queries.append(queries[0].astype(np.float32) if queries else [1.0, 2.0])
        top = rng.choice([1, 2, 0])
        got = warpmatch.dtw_many(queries, series, top=top, backend=BACKEND)
        assert len(got) == len(queries)
        for q, g in zip(queries, got):
            assert np.array_equal(g, warpmatch.dtw(q, series, top=top, backend=BACKEND))
            assert triples(g) == oracle.dtw_subsequence([float(v) for v in q],
                                                        series.tolist(), "abs", top=top)
    many, paths = zip(*warpmatch.dtw_many([[1.0, 2.0], [3.0]], [0.0, 1.0, 2.0, 3.0], path=True,
                                          backend=BACKEND))
    assert [p[0].tolist() for p in paths] == [[[0, 1], [1, 2]], [[0, 3]]]
    with pytest.raises(warpmatch.InvalidArgument, match="query 1"):
        warpmatch.dtw_many([[1.0], [1.0, math.nan]], [1.0, 2.0], backend=BACKEND)


@pytest.mark.parametrize("cost", ["abs", "squared"])
def test_dtw_matrix(rng, cost):
    """Every entry is the oracle's global DTW of its pair, bit for bit; a
    list against itself is symmetric with 0 on the diagonal; a 2-D array and
    a list of its rows give the same matrix."""
    for case in range(30 * SCALE):
        ints = rng.random() < 0.5
        a = [rand_signal(rng, 1, 12, ints) for _ in range(rng.randint(1, 6))]
        b = [rand_signal(rng, 1, 12, ints) for _ in range(rng.randint(1, 5))]
        window = rng.choice([None, 0, 1, 3])
        w = -1 if window is None else window
        got = warpmatch.dtw_matrix(a, b, cost, window=window, backend=BACKEND)
        assert got.shape == (len(a), len(b)) and got.dtype == np.float64
        want = [[oracle.dtw_global(x, y, cost, w) for y in b] for x in a]
        assert got.tolist() == want, (case, a, b, window)
        self = warpmatch.dtw_matrix(a, None, cost, window=window, backend=BACKEND)
        assert self.shape == (len(a), len(a))
        assert np.array_equal(self, self.T) and not np.diag(self).any()
        assert np.array_equal(self, warpmatch.dtw_matrix(a, a, cost, window=window,
                                                         backend=BACKEND))
    rows = np.asarray([[float(v) for v in range(k, k + 9)] for k in range(4)])
    assert np.array_equal(warpmatch.dtw_matrix(rows, backend=BACKEND),
                          warpmatch.dtw_matrix(list(rows), backend=BACKEND))
    with pytest.raises(warpmatch.InvalidArgument, match=r"b\[1\]: sample 1 is NaN"):
        warpmatch.dtw_matrix([[1.0]], [[1.0], [2.0, math.nan]], backend=BACKEND)
    with pytest.raises(warpmatch.InvalidArgument, match="window"):
        warpmatch.dtw_matrix([[1.0]], window=0.5, backend=BACKEND)


@pytest.mark.parametrize("cost", ["abs", "squared"])
def test_dtw_precision_f32(rng, cost):
    """precision='f32' against the oracle computing in numpy float32: the
    best matches, global distances and matrices, bit for bit; ucr refuses it."""
    for case in range(60 * SCALE):
        ints = rng.random() < 0.3
        x, y = rand_signal(rng, 1, 10, ints), rand_signal(rng, 1, 40, ints)
        top = rng.choice([1, 2, 0])
        want = oracle.dtw_subsequence(x, y, cost, top=top, f32=True)
        got = warpmatch.dtw(x, y, cost=cost, top=top, precision="f32", backend=BACKEND)
        assert triples(got) == want, (case, x, y, top)
        window = rng.choice([None, 0, 2])
        w = -1 if window is None else window
        (g,) = triples(warpmatch.dtw(x, y, mode="global", cost=cost, window=window,
                                     precision="f32", backend=BACKEND))
        assert g == (0, len(y), oracle.dtw_global(x, y, cost, w, f32=True)), (case, x, y)
    a = [rand_signal(rng, 1, 12, False) for _ in range(5)]
    m = warpmatch.dtw_matrix(a, cost=cost, precision="f32", backend=BACKEND)
    assert m.dtype == np.float32
    want = [[0.0 if i == j else oracle.dtw_global(a[i], a[j], cost, f32=True)
             for j in range(5)] for i in range(5)]
    assert m.astype(np.float64).tolist() == want
    with pytest.raises(warpmatch.InvalidArgument, match="ucr mode runs in float64 only"):
        warpmatch.dtw([1.0, 2.0], [1.0, 2.0, 3.0], mode="ucr", precision="f32", backend=BACKEND)
    with pytest.raises(warpmatch.InvalidArgument, match="precision"):
        warpmatch.dtw([1.0], [1.0], precision="f16", backend=BACKEND)
    with pytest.raises(warpmatch.InvalidArgument, match="float32's range"):
        warpmatch.dtw([1e39], [1.0], precision="f32", backend=BACKEND)
