#!/usr/bin/env bash
# run_tests.sh -- the whole test suite, as CI runs it (.ci/run calls this),
# once with each compiler the project supports:
#  1. gcc, a Release build (with the CUDA backend when nvcc is found) and
#     ctest at WM_TEST_SCALE=2 (15,000 differential cases: what fits CI's
#     20 minutes on 2 cores with the fuzz step; a GPU session runs 100,000+,
#     TESTING.md): on a machine without a GPU the CUDA tests say they were
#     skipped;
#     Then the Python package (python/) is built against that build, installed
#     under a throwaway prefix, and its pytest suite run (scripts/test_python.sh);
#  2. clang, a build under AddressSanitizer and UBSan (CPU backend;
#     benchmarks too, so that clang compiles the whole tree, and warnings
#     made errors: the tree is warning-free under both compilers) and ctest
#     again, leaving out only the 4 GiB file test, which is slow under ASan.
#  3. clang again, the fuzz build (tests/fuzz, -DWARPMATCH_FUZZ=ON: the
#     library, the CLI's readers and the harnesses under libFuzzer, ASan and
#     UBSan; no tests, benchmarks or CUDA, so it builds in a minute or two)
#     and each of its 7 harnesses run for 10 s on its seeds, the regression
#     inputs and the open findings, if any (scripts/fuzz.sh; about 3 minutes
#     on 2 cores with the build). The seeds and regressions also run in 1 and 2 as ctest's
#     fuzz_replay_* tests, without libFuzzer.
# So each compiler builds everything and runs the whole suite without making
# CI longer than one pass each: the sanitizers need only one compiler, and
# clang's UBSan checks more than gcc's (a NULL + 0 pointer, for one).
# The MPI test (mpi_cli, where CMake found MPI) runs in both: under ASan its
# ranks get detect_leaks=0 from tests/mpi/test_mpi.sh (Open MPI's own leaks,
# partly in components it has unloaded, cannot be suppressed by name); the
# single-process runs it compares against keep leak detection on.
set -eu
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
# CI runs as root in a fresh container: Open MPI's mpirun refuses root
# unless told (only the MPI test launches it).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
jobs=$(nproc 2>/dev/null || echo 2)

# The compiler named in CMAKE_C_COMPILER, not CC: CC is read only when a
# build folder is first configured, and an older one may hold the other.
cmake -S . -B build -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
(cd build && WM_TEST_SCALE=2 WM_MPI_NP="1 2 4" ctest -j"$jobs" --output-on-failure)
# The Python package, built against this build installed under a throwaway
# prefix, and its tests (pytest; the edlib module as the peer).
py_prefix=$(mktemp -d "${TMPDIR:-/tmp}/wm_prefix.XXXXXX")
cmake --install build --prefix "$py_prefix" >/dev/null
bash scripts/test_python.sh "$py_prefix" -q
rm -rf "$py_prefix"

cmake -S . -B build-asan -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DWARPMATCH_WERROR=ON -DWARPMATCH_SANITIZE=ON -DWARPMATCH_CUDA=OFF -DWARPMATCH_BENCH=ON
cmake --build build-asan -j"$jobs"
# Under the sanitizers MPI runs at two rank counts (WM_MPI_NP) and the random
# suites at half scale: the Release pass above runs every count at scale 2,
# and CI ran 22 minutes with all of them here.
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 WM_MPI_NP="1 3" \
   WM_TEST_SCALE=0.5 ctest -j"$jobs" --output-on-failure -E test_large)

rm -rf build-fuzz/out/ci
WM_FUZZ_BUILD=build-fuzz WM_FUZZ_OUT=build-fuzz/out/ci bash scripts/fuzz.sh 10
