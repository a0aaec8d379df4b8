"""The GIL is released while the library works: another Python thread runs
during a long call, and calls from several threads at once give the answers
of calls made one at a time (each gets its own context when the cached one is
busy)."""
import threading
import time

import numpy as np

import warpmatch
from conftest import BACKEND


def ticks_during(call):
    """Times at which a counting thread ran, and the call's own start and end."""
    ticks, stop = [], threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.perf_counter())

    th = threading.Thread(target=count)
    th.start()
    time.sleep(0.02)
    t0 = time.perf_counter()
    call()
    t1 = time.perf_counter()
    stop.set()
    th.join()
    return ticks, t0, t1


def spread_over(ticks, t0, t1, parts=2):
    """The counting thread ran in each of `parts` slices of the call's middle:
    with the GIL held by the call it could run only at its edges. Two slices,
    not more: on a loaded machine (CI's 2 cores shared with the other tests)
    the counting thread may wait for a core through a short slice."""
    span = t1 - t0
    edges = [t0 + span * (0.1 + 0.8 * i / parts) for i in range(parts + 1)]
    return all(any(a <= t < b for t in ticks) for a, b in zip(edges, edges[1:]))


def released(call, tries=3):
    """spread_over on any of a few tries: a thread that never got a core in
    one try says nothing about the GIL; a GIL held fails every try."""
    return any(spread_over(*ticks_during(call)) for _ in range(tries))


def long_enough(call, seconds=0.15):
    t0 = time.perf_counter()
    call()
    return time.perf_counter() - t0 >= seconds


def long_call(make, seconds=0.15, size=600_000, limit=64):
    """make(size) -> a call; the size doubled (at most `limit` times the
    first) until the call lasts `seconds`, so that a fast machine or backend
    still gives the counting thread a middle to run in."""
    for _ in range(limit.bit_length()):
        call = make(size)
        if long_enough(call, seconds):
            return call
        size *= 2
    raise AssertionError("no call of up to %d lasted %.2f s" % (size // 2, seconds))


def test_gil_released_in_dtw():
    rng = np.random.default_rng(0)
    query = rng.normal(size=200)
    call = long_call(lambda n: (lambda s=rng.normal(size=n):
                                warpmatch.dtw(query, s, threads=1, backend=BACKEND)))
    assert released(call)


def test_gil_released_in_align_pairs_and_search():
    rng = np.random.default_rng(1)
    acgt = np.frombuffer(b"ACGT", np.uint8)
    # sizes grown until a call lasts 0.1 s, as long_call does: a fixed size
    # ran under 0.1 s on a quiet machine (the search's 20 MB, 2026-11-26)
    call = long_call(lambda n: (lambda q=rng.choice(acgt, size=(n, 150)),
                                t=rng.choice(acgt, size=(n, 150)):
                                warpmatch.align_pairs(q, t, mode="global", cigar=True,
                                                      threads=1, backend=BACKEND)),
                     seconds=0.1, size=20_000, limit=16)
    assert released(call)
    call = long_call(lambda n: (lambda text=rng.choice(acgt, size=n):
                                warpmatch.search(b"ACGTACGTAC", text, 3, threads=1,
                                                 backend=BACKEND)),
                     seconds=0.1, size=20_000_000, limit=8)
    assert released(call)


def test_threads_at_once_match_one_at_a_time():
    rng = np.random.default_rng(2)
    acgt = np.frombuffer(b"ACGT", np.uint8)
    jobs = [(rng.choice(acgt, size=(3000, 60)), rng.choice(acgt, size=(3000, 70)))
            for _ in range(6)]
    want = [warpmatch.align_pairs(q, t, threads=1, backend=BACKEND) for q, t in jobs]
    got = [None] * len(jobs)
    errors = []

    def run(i):
        try:
            for _ in range(3):
                got[i] = warpmatch.align_pairs(*jobs[i], threads=1, backend=BACKEND)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert all(np.array_equal(g, w) for g, w in zip(got, want))
