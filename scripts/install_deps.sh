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
# Compressed inputs: xz, bzip2 and zstd are read through their libraries
# (gzip through zlib, above); libdeflate for the fast whole-buffer gunzip.
[ -f /usr/include/lzma.h ] || need+=(liblzma-dev)
[ -f /usr/include/bzlib.h ] || need+=(libbz2-dev)
[ -f /usr/include/zstd.h ] || need+=(libzstd-dev)
[ -f /usr/include/libdeflate.h ] || need+=(libdeflate-dev)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)   # the install test
command -v help2man >/dev/null 2>&1 || need+=(help2man)       # man pages from --help
command -v man >/dev/null 2>&1 || need+=(man-db)              # the install test renders them
command -v groff >/dev/null 2>&1 || need+=(groff-base)
command -v samtools >/dev/null 2>&1 || need+=(samtools)       # SAM output is checked with it
# The Python package: its build (headers, numpy's C API, setuptools, pip)
# and its tests (pytest; the edlib module as the peer it is compared with).
[ -f "/usr/include/python3.$(python3 -c 'import sys; print(sys.version_info[1])' 2>/dev/null || echo x)/Python.h" ] ||
  need+=(python3-dev)
python3 -c 'import numpy' >/dev/null 2>&1 || need+=(python3-numpy)
python3 -c 'import pytest' >/dev/null 2>&1 || need+=(python3-pytest)
python3 -c 'import edlib' >/dev/null 2>&1 || need+=(python3-edlib)
python3 -c 'import setuptools' >/dev/null 2>&1 || need+=(python3-setuptools)
python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip)
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
