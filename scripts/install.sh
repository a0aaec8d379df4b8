#!/usr/bin/env bash
# install.sh -- install what `cmake --build BUILD` made, and the Python
# package built against it, under PREFIX:
#
#     bash scripts/install.sh [PREFIX [BUILD]]      # defaults: ~/.local, build
#
# 1. `cmake --install BUILD --prefix PREFIX`: the tool (and warpmatch-mpi),
#    libwarpmatch.so and .a, the header, warpmatch.pc, the CMake package and
#    the man pages (README, "Install").
# 2. The Python package (python/) built against that library by pip, offline
#    (--no-build-isolation --no-deps: Debian's setuptools and numpy), into
#    the user's site-packages, where `python3 -c "import warpmatch"` finds it
#    (as root, root's). Debian 12 marks its Python as managed by apt and
#    refuses such installs unless told: --break-system-packages, which here
#    only allows a package apt knows nothing of into the user's own folder.
set -eu
prefix=${1:-$HOME/.local}
build=${2:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cmake --install "$build" --prefix "$prefix" >/dev/null
echo "install.sh: warpmatch installed under $prefix (tool: $prefix/bin/warpmatch)"
# Debian's python3, whose numpy the package builds against (a python3 of
# pyenv or the like earlier on PATH may lack it); PYTHON chooses another.
python=${PYTHON:-python3}
if ! "$python" -c 'import numpy' 2>/dev/null && [ -z "${PYTHON:-}" ] &&
    /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    python=/usr/bin/python3
fi
flags=(--user --no-build-isolation --no-deps --quiet)
if "$python" -m pip install --help 2>/dev/null | grep -q -- --break-system-packages; then
    flags+=(--break-system-packages)
fi
if "$python" -m pip install --help 2>/dev/null | grep -q -- --root-user-action; then
    flags+=(--root-user-action=ignore) # CI and containers run as root
fi
# a copy of the package's sources, so that no build/ folder is left in python/
work=$(mktemp -d "${TMPDIR:-/tmp}/wm_install.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$root/python/." "$work/"
rm -rf "$work/build" "$work"/*.egg-info
WARPMATCH_PREFIX=$prefix "$python" -m pip install "${flags[@]}" "$work"
(cd / && "$python" -c "import warpmatch; print('install.sh: Python package warpmatch', warpmatch.__version__)")
