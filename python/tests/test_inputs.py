"""The kinds of input each function takes: bytes, str, bytearray,
memoryview, numpy arrays contiguous or strided, dtype S and 2-D uint8
batches; dtw reads contiguous float64 in place and converts the rest once."""
import tracemalloc

import numpy as np
import pytest

import warpmatch
from conftest import BACKEND

TEXT = b"xxACGTxxACGAxxACGT"


def ends(matches):
    return [int(e) for e in matches["end"]]


@pytest.mark.parametrize("make", [
    bytes, bytearray, memoryview, lambda b: b.decode(),
    lambda b: np.frombuffer(b, np.uint8), lambda b: np.frombuffer(b, np.int8),
    lambda b: np.frombuffer(b, "S1"),
    lambda b: np.repeat(np.frombuffer(b, np.uint8), 2)[::2],  # strided: copied
])
def test_text_and_pattern_kinds(make):
    want = ends(warpmatch.search(b"ACGT", TEXT, 1, backend=BACKEND))
    assert ends(warpmatch.search(make(b"ACGT"), make(TEXT), 1, backend=BACKEND)) == want
    assert warpmatch.align(make(b"ACGT"), make(TEXT), backend=BACKEND) == \
        warpmatch.align(b"ACGT", TEXT, backend=BACKEND)


def test_wrong_kinds_are_type_errors():
    with pytest.raises(TypeError, match="text"):
        warpmatch.search(b"A", 12, backend=BACKEND)
    with pytest.raises(TypeError, match="one-byte items"):
        warpmatch.search(b"A", np.zeros(4, np.int64), backend=BACKEND)
    with pytest.raises(TypeError, match="one-byte items"):
        warpmatch.search(b"A", np.zeros((2, 2), np.uint8), backend=BACKEND)
    with pytest.raises(TypeError, match="list of sequences"):
        warpmatch.align_pairs(b"ACGT", [b"A"], backend=BACKEND)
    with pytest.raises(TypeError, match=r"queries\[1\]"):
        warpmatch.align_pairs([b"A", 3], [b"A", b"C"], backend=BACKEND)


def test_non_ascii_str_is_refused():
    """A non-ASCII character is several bytes: offsets would silently move."""
    with pytest.raises(warpmatch.InvalidArgument, match="non-ASCII"):
        warpmatch.search("é", "café", backend=BACKEND)
    with pytest.raises(ValueError, match=r"targets\[0\]"):
        warpmatch.align_pairs(["a"], ["é"], backend=BACKEND)


def test_batches_in_every_form():
    qs = [b"ACGT", b"AC", b"GGGTTT", b""]
    ts = [b"ACTT", b"TTAC", b"GGTT", b"AA"]
    want = warpmatch.align_pairs(qs, ts, mode="global", backend=BACKEND)
    assert want["distance"].tolist() == [1, 2, 2, 2]
    forms = [
        (tuple(qs), tuple(ts)),
        ([q.decode() for q in qs], [t.decode() for t in ts]),
        ([bytearray(q) for q in qs], [memoryview(t) for t in ts]),
        (np.array(qs), np.array(ts)),  # dtype S6 / S4, NUL-padded
        (np.array(qs, dtype=object), np.array(ts, dtype=object)),
        ([np.frombuffer(q, np.uint8) for q in qs], ts),
    ]
    for q, t in forms:
        assert np.array_equal(warpmatch.align_pairs(q, t, mode="global", backend=BACKEND), want)


def test_batches_as_2d_rows():
    rng = np.random.default_rng(3)
    acgt = np.frombuffer(b"ACGT", np.uint8)
    q = rng.choice(acgt, size=(50, 20))
    t = rng.choice(acgt, size=(50, 24))
    rows = warpmatch.align_pairs(q, t, mode="global", backend=BACKEND)
    lists = warpmatch.align_pairs([r.tobytes() for r in q], [r.tobytes() for r in t],
                                  mode="global", backend=BACKEND)
    assert np.array_equal(rows, lists)
    # Fortran order and a strided view: the same rows after a contiguous copy.
    assert np.array_equal(warpmatch.align_pairs(np.asfortranarray(q), t[:, :],
                                                mode="global", backend=BACKEND), rows)
    wide = np.repeat(q, 2, axis=1)[:, ::2]
    assert np.array_equal(warpmatch.align_pairs(wide, t, mode="global", backend=BACKEND), rows)


def test_result_arrays_own_their_memory():
    """Results outlive their inputs and can be kept, sliced and copied."""
    got = warpmatch.search(b"A", bytes(b"A" * 1000), backend=BACKEND)
    del_me = got[::7].copy()
    assert got.base is not None and len(got) == 1000 and len(del_me) == 143
    assert got["end"].tolist() == list(range(1, 1001))


def test_dtw_float64_contiguous_is_not_copied():
    """tracemalloc sees numpy's allocations: a contiguous float64 series is
    read in place, a float32 one or a strided view is converted once."""
    rng = np.random.default_rng(1)
    series = rng.normal(size=1_000_000)
    query = series[1000:1064].copy()
    warpmatch.dtw(query, series[:1000], backend=BACKEND)  # warm the context cache

    def peak(s):
        tracemalloc.start()
        try:
            warpmatch.dtw(query, s, backend=BACKEND)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    assert peak(series) < series.nbytes // 10
    assert peak(series.astype(np.float32)) >= series.nbytes
    assert peak(series[::2]) >= series.nbytes // 2


def test_dtw_dtypes_and_shapes():
    q = np.array([1.0, 2.0, 3.0])
    s = np.array([0.0, 0.0, 1.0, 2.0, 3.0, 3.0, 0.0])
    want = warpmatch.dtw(q, s, backend=BACKEND)
    for conv in (np.float32, np.int64, np.int16, list):
        assert np.array_equal(warpmatch.dtw(conv(q) if conv is list else q.astype(conv),
                                            conv(s) if conv is list else s.astype(conv),
                                            backend=BACKEND), want)
    assert np.array_equal(warpmatch.dtw(q, np.repeat(s, 3)[::3], backend=BACKEND), want)
    with pytest.raises(ValueError):
        warpmatch.dtw(q, np.zeros((2, 3)), backend=BACKEND)
    with pytest.raises(TypeError):
        warpmatch.dtw(q, s.astype(np.complex128), backend=BACKEND)


def test_records_of_every_kind():
    recs = [b"xxACGT", "ACGTAC", bytearray(b"GACGT"), np.frombuffer(b"ACGT", np.uint8), b""]
    got = warpmatch.search(b"ACGT", recs, backend=BACKEND)
    assert [(int(r["record"]), int(r["start"])) for r in got] == [(0, 2), (1, 0), (2, 1), (3, 0)]
    with pytest.raises(TypeError, match=r"text\[1\]"):
        warpmatch.search(b"A", [b"A", np.zeros(3, np.int32)], backend=BACKEND)
    with pytest.raises(TypeError, match=r"text\[0\]"):
        warpmatch.search(b"A", [7], backend=BACKEND)
    with pytest.raises(warpmatch.InvalidArgument, match=r"text\[0\]"):
        warpmatch.search(b"A", ["é"], backend=BACKEND)
    assert len(warpmatch.search(b"A", [], backend=BACKEND)) == 0
