"""align() and align_pairs() against the brute-force oracle: distances,
locations, CIGARs that replay to the distance, k, every algorithm."""
import numpy as np
import pytest

import warpmatch
import oracle
from conftest import BACKEND, SCALE


def rand_seq(rng, alphabet, lo, hi):
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(lo, hi)))


@pytest.mark.parametrize("algo", ["auto", "wavefront", "bitvector"])
def test_align_infix(rng, algo):
    for case in range(150 * SCALE):
        alphabet = rng.choice(["ab", "acgt", "abcdefgh"])
        q, t = rand_seq(rng, alphabet, 1, 9), rand_seq(rng, alphabet, 0, 20)
        want = oracle.align_infix(q, t)
        got = warpmatch.align(q, t, cigar=True, algo=algo, backend=BACKEND)
        assert (got.distance, got.start, got.end) == want, (case, q, t)
        assert oracle.cigar_cost(got.cigar, q, t[got.start:got.end]) == got.distance
        assert warpmatch.align(q, t, algo=algo, backend=BACKEND).cigar is None


@pytest.mark.parametrize("algo", ["auto", "wavefront", "bitvector", "four-russians"])
def test_align_global(rng, algo):
    for case in range(150 * SCALE):
        alphabet = rng.choice(["ab", "acgt", "abcdefgh"])
        q, t = rand_seq(rng, alphabet, 0, 15), rand_seq(rng, alphabet, 0, 15)
        got = warpmatch.align(q, t, mode="global", cigar=True, algo=algo, backend=BACKEND)
        assert got.distance == oracle.edit_distance(q, t), (case, q, t)
        assert (got.start, got.end) == (0, len(t))
        assert oracle.cigar_cost(got.cigar, q, t) == got.distance


def test_align_k(rng):
    """k reports nothing worse than k: None over it, the alignment at or under."""
    for case in range(150 * SCALE):
        q, t = rand_seq(rng, "acgt", 1, 8), rand_seq(rng, "acgt", 0, 16)
        mode = rng.choice(["infix", "global"])
        d = oracle.align_infix(q, t)[0] if mode == "infix" else oracle.edit_distance(q, t)
        k = max(0, d + rng.randint(-2, 2))
        got = warpmatch.align(q, t, mode=mode, k=k, backend=BACKEND)
        if d > k:
            assert got is None, (case, q, t, k)
        else:
            assert got is not None and got.distance == d, (case, q, t, k)


def test_align_all_ends(rng):
    for case in range(100 * SCALE):
        q, t = rand_seq(rng, "ab", 1, 5), rand_seq(rng, "ab", 1, 16)
        best = oracle.align_infix(q, t)[0]
        ends = [e for e in range(len(t) + 1)
                if min(oracle.suffix_distances(q, t[:e], lambda x, y: x == y).values()) == best]
        got = warpmatch.align(q, t, all_ends=True, backend=BACKEND)
        assert [a.end for a in got] == ends, (case, q, t)
        assert all(a.distance == best for a in got)


def test_align_pairs(rng):
    for mode in ("infix", "global"):
        n = 300 * SCALE
        qs = [rand_seq(rng, "acgt", 1 if mode == "infix" else 0, 12) for _ in range(n)]
        ts = [rand_seq(rng, "acgt", 0, 20) for _ in range(n)]
        k = rng.choice([None, 3])
        arr, cigars = warpmatch.align_pairs(qs, ts, mode=mode, cigar=True, k=k, backend=BACKEND)
        assert arr.dtype == warpmatch.ALIGNMENT_DTYPE and len(arr) == n and len(cigars) == n
        for i, (q, t) in enumerate(zip(qs, ts)):
            if mode == "infix":
                want = oracle.align_infix(q, t)
            else:
                want = (oracle.edit_distance(q, t), 0, len(t))
            if k is not None and want[0] > k:
                assert (arr[i]["distance"], cigars[i]) == (-1, None), (i, q, t)
                continue
            assert tuple(int(x) for x in arr[i]) == want, (mode, i, q, t)
            assert oracle.cigar_cost(cigars[i], q, t[want[1]:want[2]]) == want[0]
        plain = warpmatch.align_pairs(qs, ts, mode=mode, k=k, backend=BACKEND)
        assert isinstance(plain, np.ndarray) and np.array_equal(plain, arr)


def columns(seqs, offset_dtype):
    """Sequences back to back, and their n + 1 offsets."""
    buf = "".join(seqs).encode()
    off = np.zeros(len(seqs) + 1, dtype=offset_dtype)
    off[1:] = np.cumsum([len(s) for s in seqs])
    return buf, off


@pytest.mark.parametrize("offset_dtype", [np.uint64, np.int64, np.int32])
def test_align_pairs_packed(rng, offset_dtype):
    """Columns in, columns out: align_pairs' results, and the CIGARs it gives."""
    for mode in ("infix", "global"):
        n = 300 * SCALE
        qs = [rand_seq(rng, "acgt", 1 if mode == "infix" else 0, 12) for _ in range(n)]
        ts = [rand_seq(rng, "acgt", 0, 20) for _ in range(n)]
        k = rng.choice([None, 3])
        qb, qo = columns(qs, offset_dtype)
        tb, to = columns(ts, offset_dtype)
        tb = np.frombuffer(tb, dtype=np.uint8)  # a numpy buffer is read in place too
        got = warpmatch.align_pairs_packed(qb, qo, tb, to, mode=mode, cigar=True, k=k,
                                           backend=BACKEND)
        arr, cigars = warpmatch.align_pairs(qs, ts, mode=mode, cigar=True, k=k, backend=BACKEND)
        assert np.array_equal(got.distance, arr["distance"].astype(np.int64)), mode
        assert np.array_equal(got.start, arr["start"]) and np.array_equal(got.end, arr["end"])
        assert len(got.cigar_offsets) == n + 1 and got.cigar_offsets[0] == 0
        assert got.cigar_offsets[-1] == len(got.cigar)
        assert [got.cigar_str(i) or None for i in range(n)] == [c or None for c in cigars]
        plain = warpmatch.align_pairs_packed(qb, qo, tb, to, mode=mode, k=k, backend=BACKEND)
        assert plain.cigar is None and plain.cigar_offsets is None and plain.cigar_str(0) is None
        assert np.array_equal(plain.distance, got.distance)


def test_align_pairs_packed_errors():
    buf, off = columns(["acgt", "ac", "gg"], np.uint64)
    ok = warpmatch.align_pairs_packed(buf, off, buf, off, mode="global", backend=BACKEND)
    assert list(ok.distance) == [0, 0, 0]
    none = warpmatch.align_pairs_packed(b"", [0], b"", [0], mode="global", backend=BACKEND)
    assert len(none.distance) == 0
    with pytest.raises(warpmatch.InvalidArgument, match="past the end"):
        warpmatch.align_pairs_packed(buf, [0, 4, 99], buf, [0, 4, 6], backend=BACKEND)
    with pytest.raises(warpmatch.InvalidArgument, match="pair 1"):
        warpmatch.align_pairs_packed(buf, [0, 4, 2], buf, [0, 4, 6], backend=BACKEND)
    with pytest.raises(warpmatch.InvalidArgument, match="negative"):
        warpmatch.align_pairs_packed(buf, [0, -1, 2], buf, [0, 4, 6], backend=BACKEND)
    with pytest.raises(warpmatch.InvalidArgument, match="one pair each"):
        warpmatch.align_pairs_packed(buf, [0, 4], buf, [0, 4, 6], backend=BACKEND)
    with pytest.raises(warpmatch.InvalidArgument, match="at least one"):
        warpmatch.align_pairs_packed(buf, [], buf, [], backend=BACKEND)
    with pytest.raises(TypeError):
        warpmatch.align_pairs_packed(buf, np.array([0.0, 4.0]), buf, [0, 4], backend=BACKEND)


def test_align_pairs_empty_batch():
    got = warpmatch.align_pairs([], [], backend=BACKEND)
    assert len(got) == 0 and got.dtype == warpmatch.ALIGNMENT_DTYPE
