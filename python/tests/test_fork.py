"""A process forked after calls have cached a context (multiprocessing's
fork start method, os.fork) must not reuse it: the context's worker threads
do not exist in the child, and a call waiting on them would hang for ever."""
import multiprocessing
import os

import numpy as np
import pytest

import warpmatch
from conftest import BACKEND


def child(q, t, want, results):
    got = warpmatch.align_pairs(q, t, mode="global", threads=2, backend=BACKEND)
    results.put(bool(np.array_equal(got, want)))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
@pytest.mark.skipif(BACKEND == "cuda", reason="CUDA cannot be used in a child forked after "
                    "the parent used it (a limit of CUDA itself)")
def test_call_in_forked_child():
    rng = np.random.default_rng(4)
    acgt = np.frombuffer(b"ACGT", np.uint8)
    q, t = rng.choice(acgt, size=(4000, 100)), rng.choice(acgt, size=(4000, 100))
    want = warpmatch.align_pairs(q, t, mode="global", threads=2, backend=BACKEND)  # cached now
    ctx = multiprocessing.get_context("fork")
    results = ctx.Queue()
    p = ctx.Process(target=child, args=(q, t, want, results))
    p.start()
    p.join(30)
    if p.is_alive():
        p.kill()
        p.join()
        pytest.fail("the forked child hung in its call")
    assert p.exitcode == 0 and results.get(timeout=5)
