"""Repeated calls, failing ones included, do not grow the process: every
buffer, CIGAR, path, context and Python reference taken is given back."""
import resource

import numpy as np

import warpmatch
from conftest import BACKEND


def peak_kb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_no_growth_over_many_calls():
    rng = np.random.default_rng(0)
    q = rng.choice(np.frombuffer(b"ACGT", np.uint8), size=(200, 50))
    qcol, qoff = q.ravel(), np.arange(0, 201 * 50, 50, dtype=np.uint64)  # the rows as columns
    text = b"xxACGTxx" * 200
    kw = dict(backend=BACKEND)

    def once():
        warpmatch.search(b"ACGT", text, 1, **kw)
        warpmatch.search_set([b"AC", b"GT"], ["ACGT", "GGT"], **kw)
        warpmatch.align("ACGT", "xxACTTxx", cigar=True, **kw)
        warpmatch.align_pairs(q, q[::-1], cigar=True, mode="global", **kw)
        warpmatch.align_pairs(list(q), list(q), **kw)
        warpmatch.align_pairs_packed(qcol, qoff, qcol[::-1].copy(), qoff, cigar=True,
                                     mode="global", **kw)
        warpmatch.dtw(np.arange(5.0), np.arange(300.0), path=True, top=2, **kw)
        warpmatch.dtw_matrix([np.arange(30.0), np.arange(7.0)], np.ones((3, 20)), window=4, **kw)
        for bad in (lambda: warpmatch.search(b"", b"a", **kw),
                    lambda: warpmatch.align_pairs([b"a", b""], [b"a", b"b"], cigar=True, **kw),
                    lambda: warpmatch.align_pairs_packed(b"ab", [0, 1, 0], b"ab", [0, 1, 2], **kw),
                    lambda: warpmatch.dtw([1.0], [1.0, np.nan], **kw),
                    lambda: warpmatch.dtw_matrix([[1.0], [2.0, np.nan]], **kw),
                    lambda: warpmatch.search_set([b"a", b""], b"x", **kw)):
            try:
                bad()
            except warpmatch.Error:
                pass

    for _ in range(100):
        once()
    before = peak_kb()
    for _ in range(600):
        once()
    # A leak of the CIGARs alone would be 200 x ~10 bytes a round: 4 MB here (malloc rounds each up).
    assert peak_kb() - before < 2048
