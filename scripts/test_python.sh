#!/usr/bin/env bash
# test_python.sh -- build the Python package (python/) against the C library
# installed under PREFIX, install it into a throwaway virtual environment and
# run its tests (pytest) there:
#
#     bash scripts/test_python.sh PREFIX [pytest arguments...]
#
# PREFIX is where `cmake --install` put the library (PREFIX/include and
# PREFIX/lib*/, with warpmatch.pc when the install writes one). The package
# is built offline from Debian packages only (python3-dev, python3-numpy,
# python3-setuptools, python3-pytest, python3-edlib, pkg-config): the venv is
# made with --system-site-packages so that Debian's numpy, pytest and edlib
# are seen, and pip runs with --no-build-isolation --no-deps, so it downloads
# nothing. When the venv module is missing, pip installs with --target into
# the throwaway folder instead.
#
# The sources are copied first, so that a build folder left in python/ by a
# build against another library is never reused. Then: `import warpmatch`
# from outside the repository, the docstring examples, and pytest on
# python/tests (WM_SEED and WM_TEST_SCALE pass through). Exit status:
# pytest's, or 2 for a usage or build error.
#
# PYTHON names the interpreter [python3; /usr/bin/python3 when python3
# cannot import numpy, as with a pyenv one]. KEEP=1 keeps the throwaway
# folder and prints where it is.
set -eu
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
    echo "usage: bash scripts/test_python.sh PREFIX [pytest arguments...]" >&2
    echo "  PREFIX: a folder where the warpmatch C library is installed" >&2
    exit 2
fi
prefix=$(cd "$1" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)

python=${PYTHON:-python3}
if ! "$python" -c 'import numpy' 2>/dev/null && [ -z "${PYTHON:-}" ] &&
    /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    python=/usr/bin/python3
fi
"$python" -c 'import numpy, setuptools, pytest' || {
    echo "test_python.sh: $python lacks numpy, setuptools or pytest" \
         "(apt-get install python3-numpy python3-setuptools python3-pytest)" >&2
    exit 2
}

work=$(mktemp -d "${TMPDIR:-/tmp}/wm_py.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
    echo "test_python.sh: keeping $work"
else
    trap 'rm -rf "$work"' EXIT
fi

# Only the package's own files: no build/, *.egg-info or built modules.
mkdir -p "$work/src/warpmatch" "$work/src/src"
cp "$root"/python/setup.py "$root"/python/pyproject.toml "$root"/python/README.md "$work/src/"
cp "$root"/python/src/*.c "$root"/python/src/*.h "$work/src/src/"
cp "$root"/python/warpmatch/*.py "$work/src/warpmatch/"

export WARPMATCH_PREFIX=$prefix
pip_args=(--no-build-isolation --no-deps --no-input --disable-pip-version-check -q)
if "$python" -m venv --system-site-packages "$work/venv" >/dev/null 2>&1; then
    py=$work/venv/bin/python
    "$py" -m pip install "${pip_args[@]}" "$work/src" || { echo "test_python.sh: pip install failed" >&2; exit 2; }
else
    echo "test_python.sh: no venv module; installing with pip --target" >&2
    py=$python
    "$py" -m pip install "${pip_args[@]}" --target "$work/site" "$work/src" ||
        { echo "test_python.sh: pip install failed" >&2; exit 2; }
    export PYTHONPATH=$work/site${PYTHONPATH:+:$PYTHONPATH}
fi

cd "$work" # not the repository: `import warpmatch` must find the installed one
"$py" -c 'import warpmatch, sys; print("warpmatch", warpmatch.__version__, "(library", warpmatch.library_version() + ") from", warpmatch.__file__)'
"$py" -c 'import doctest, sys, warpmatch; r = doctest.testmod(warpmatch); print("docstring examples:", r.attempted, "run,", r.failed, "failed"); sys.exit(1 if r.failed else 0)'
"$py" -m pytest -q -p no:cacheprovider --rootdir "$root/python/tests" "$root/python/tests" "$@"
