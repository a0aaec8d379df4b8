"""Errors carry the library's message and status; bad option values are
InvalidArgument (a ValueError and a warpmatch.Error); nothing crashes."""
import math

import numpy as np
import pytest

import warpmatch
from conftest import BACKEND

Invalid = warpmatch.InvalidArgument


def raises(cls, match, fn, *args, **kw):
    with pytest.raises(cls, match=match) as info:
        fn(*args, **kw)
    assert isinstance(info.value, warpmatch.Error)
    return info.value


def test_exception_classes():
    assert issubclass(warpmatch.InvalidArgument, ValueError)
    assert issubclass(warpmatch.OutOfMemory, MemoryError)
    for cls in (warpmatch.InvalidArgument, warpmatch.UnsupportedError,
                warpmatch.DeviceError, warpmatch.OutOfMemory):
        assert issubclass(cls, warpmatch.Error)


def test_library_statuses():
    # The numbers of wm_status (include/warpmatch.h).
    assert raises(Invalid, "empty", warpmatch.search, b"", b"abc", backend=BACKEND).status == -10
    assert raises(Invalid, "65536|long", warpmatch.search, b"a" * 70000, b"abc",
                  backend=BACKEND).status == -11
    assert raises(Invalid, "k", warpmatch.search, b"abc", b"abc", 3, backend=BACKEND).status == -12
    assert raises(Invalid, "", warpmatch.search, b"abc", b"abc", 1, algo="shiftor",
                  backend=BACKEND).status == -1
    assert raises(Invalid, "k", warpmatch.search_set, [b"abc", b"a"], b"abc", 1,
                  backend=BACKEND).status == -12
    assert raises(Invalid, "", warpmatch.search_set, [b"abc", b"ab"], b"abc", 1, algo="ac",
                  backend=BACKEND).status == -1
    assert raises(Invalid, "", warpmatch.search_set, [], b"abc", backend=BACKEND).status == -1
    assert raises(Invalid, "empty", warpmatch.align, b"", b"abc", backend=BACKEND).status == -10
    assert raises(Invalid, "", warpmatch.align, b"abc", b"abc", algo="four-russians",
                  backend=BACKEND).status == -1
    assert raises(Invalid, "", warpmatch.align, b"abc", b"abc", mode="global", fr_t=9,
                  algo="four-russians", backend=BACKEND).status == -1


def test_messages_name_the_item_at_fault():
    raises(Invalid, "pattern 2 is empty", warpmatch.search_set, [b"a", b"b", b""], b"abc",
           backend=BACKEND)
    raises(Invalid, "pattern 1 is 70000 bytes", warpmatch.search_set, [b"a", b"b" * 70000],
           b"abc", backend=BACKEND)
    raises(Invalid, "pair 1", warpmatch.align_pairs, [b"a", b""], [b"a", b"b"], backend=BACKEND)
    raises(Invalid, "NaN", warpmatch.dtw, [1.0, math.nan], [1.0, 2.0], backend=BACKEND)
    raises(Invalid, "sample 2", warpmatch.dtw, [1.0], [1.0, 2.0, math.inf], backend=BACKEND)


def test_dtw_statuses():
    assert raises(Invalid, "", warpmatch.dtw, [], [1.0], backend=BACKEND).status == -10
    raises(Invalid, "", warpmatch.dtw, [1.0], [], backend=BACKEND)
    raises(Invalid, "", warpmatch.dtw, [1.0], [1.0, 2.0], window=1, backend=BACKEND)
    raises(Invalid, "", warpmatch.dtw, [1.0], [1.0], mode="global", window=-2, backend=BACKEND)
    raises(Invalid, "", warpmatch.dtw, [1.0, 2.0], [1.0], mode="ucr", backend=BACKEND)
    raises(Invalid, "", warpmatch.dtw, [1.0], [1.0], max_distance=math.nan, backend=BACKEND)


@pytest.mark.parametrize("call", [
    lambda: warpmatch.search(b"a", b"a", backend="gpu"),
    lambda: warpmatch.search(b"a", b"a", metric="levenshtein"),
    lambda: warpmatch.search(b"a", b"a", k=-1),
    lambda: warpmatch.search(b"a", b"a", k=1.5),
    lambda: warpmatch.search(b"a", b"a", limit=-3),
    lambda: warpmatch.search(b"ab", b"a", k=2 ** 40),
    lambda: warpmatch.align(b"a", b"a", mode="local"),
    lambda: warpmatch.align(b"a", b"a", k=-1),
    lambda: warpmatch.align(b"a", b"a", threads=-1),
    lambda: warpmatch.align_pairs([b"a"], [b"a", b"b"]),
    lambda: warpmatch.dtw([1.0], [1.0], cost="cube"),
    lambda: warpmatch.dtw([1.0], [1.0], top=-1),
    lambda: warpmatch.dtw([1.0], [1.0], window=1.5),
])
def test_bad_option_values(call):
    with pytest.raises(Invalid):
        call()


def test_cuda_without_a_gpu():
    """Asking for CUDA where it is not built or no GPU is found is an error with
    the library's words, never a silent fall back (auto falls back)."""
    if warpmatch.cuda_device_count() > 0:
        pytest.skip("a GPU is present")
    with pytest.raises((warpmatch.UnsupportedError, warpmatch.DeviceError)) as info:
        warpmatch.align(b"abc", b"xabcx", backend="cuda")
    assert str(info.value) and info.value.status in (-5, -6)
    assert warpmatch.align(b"abc", b"xabcx", backend="auto").distance == 0


def test_version():
    """The package's version and the library's it runs on (they may differ:
    the package builds against any compatible installed library)."""
    for v in (warpmatch.__version__, warpmatch.library_version()):
        assert len(v.split(".")) == 3 and all(p.isdigit() for p in v.split("."))
    assert isinstance(warpmatch.cuda_built(), bool)
    assert warpmatch.cuda_device_count() >= 0
