"""Shared settings of the warpmatch tests. WM_SEED picks the random cases
(printed with every failure through the test ids); WM_TEST_SCALE multiplies
how many there are, as for the C suites."""
import os
import random

import pytest

SEED = int(os.environ.get("WM_SEED", "20261126"))
SCALE = max(1, int(os.environ.get("WM_TEST_SCALE", "1")))
BACKEND = os.environ.get("WM_PY_BACKEND", "cpu")


@pytest.fixture(autouse=True)
def contexts_given_back():
    """After every test, every call has given its cached context back (a
    context left lent would make each later call build a new one)."""
    yield
    from warpmatch import _warpmatch
    assert _warpmatch._contexts_lent() == 0


@pytest.fixture
def rng(request):
    """A random generator seeded by WM_SEED and the test's name."""
    return random.Random("%d/%s" % (SEED, request.node.name))


def pytest_report_header(config):
    import warpmatch
    return "warpmatch %s (library %s, cuda built: %s) from %s; WM_SEED=%d WM_TEST_SCALE=%d backend=%s" % (
        warpmatch.__version__, warpmatch.library_version(), warpmatch.cuda_built(),
        os.path.dirname(warpmatch.__file__), SEED, SCALE, BACKEND)
