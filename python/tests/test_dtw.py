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
