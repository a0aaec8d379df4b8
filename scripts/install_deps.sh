#!/usr/bin/env bash
# install_deps.sh -- the Debian packages warpmatch needs to build and test.
# nvcc (the CUDA toolkit) is optional and comes from NVIDIA, not from here:
# without it the CPU build is complete. Open MPI is installed for the MPI
# build of the tool and its test (tests/mpi/). clang builds the second pass
# of scripts/run_tests.sh (the sanitizers), so that gcc and clang each build
# the whole tree and run the whole suite.
set -eu
need=()
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v cc >/dev/null 2>&1 || need+=(gcc libc6-dev)
command -v make >/dev/null 2>&1 || need+=(make)
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
command -v python3 >/dev/null 2>&1 || need+=(python3)     # JSON checks in the CLI tests
command -v gzip >/dev/null 2>&1 || need+=(gzip)
# MPI (optional for the build, which goes on without it; the mpi_cli test needs it)
{ command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1; } ||
  need+=(openmpi-bin libopenmpi-dev)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
updated=0
install() {
  [ "$updated" -eq 1 ] || { $sudo apt-get update -qq; updated=1; }
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@"
}
if [ ${#need[@]} -gt 0 ]; then
  install "${need[@]}"
fi
# clang, without what it only recommends (llvm-14-dev and more: some 300 MB
# that compiling never uses), then its AddressSanitizer/UBSan runtime: Debian
# 12 ships that apart from the compiler (libclang-rt-dev, i.e.
# libclang-rt-14-dev), older releases inside the libclang-common package
# clang already pulls in. -print-file-name prints a bare name when clang
# cannot find the library.
command -v clang >/dev/null 2>&1 || install --no-install-recommends clang
[ -f "$(clang -print-file-name=libclang_rt.asan-x86_64.a)" ] ||
  install --no-install-recommends libclang-rt-dev
