#!/usr/bin/env bash
# install_deps.sh -- the Debian packages warpmatch needs to build and test.
# nvcc (the CUDA toolkit) is optional and comes from NVIDIA, not from here:
# without it the CPU build is complete. Open MPI is installed for the MPI
# build of the tool and its test (tests/mpi/).
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
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi
