#!/usr/bin/env bash
# unpack_debs.sh - the peer tools from carried .deb files, without apt or root.
#
# Usage: eval "$(bash bench/peers/unpack_debs.sh DEB_DIR PREFIX)"
#
# dpkg -x's every DEB_DIR/*.deb into PREFIX (Debian 12 packages: libhyperscan5,
# libhyperscan-dev, glimpse, tre-agrep, libtre5, libedlib1, libedlib-dev;
# fetched here with `apt-get download`, kept in the gitignored .debs/ or
# .gpu/debs/), checks that the binaries find their libraries, and prints on
# stdout the exports that make them usable: PATH (agrep, tre-agrep),
# LD_LIBRARY_PATH (libhs, libtre, libedlib), CPATH and LIBRARY_PATH (plain
# gcc -lhs / -ledlib), CMAKE_PREFIX_PATH / CMAKE_INCLUDE_PATH /
# CMAKE_LIBRARY_PATH (bench/CMakeLists.txt's find_path(hs/hs.h),
# find_library(hs), find_path(edlib.h), find_library(edlib)). Messages go to
# stderr. Needs glibc >= 2.29 and libstdc++ >= 9 (Hyperscan), glibc >= 2.34
# (tre-agrep); libedlib1 1.2.7 needs libc6 >= 2.14, libgcc-s1 and
# libstdc++6 >= 5.2 only (present wherever gcc is).
set -euo pipefail

if (( $# != 2 )); then
  echo "usage: eval \"\$(bash unpack_debs.sh DEB_DIR PREFIX)\"" >&2
  exit 2
fi
debs=$1
prefix=$2
shopt -s nullglob
files=("$debs"/*.deb)
(( ${#files[@]} )) || { echo "unpack_debs: no .deb files in $debs" >&2; exit 2; }
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)

unpack() {  # dpkg -x, or ar + tar where dpkg is missing
  if command -v dpkg-deb >/dev/null; then
    dpkg-deb -x "$1" "$prefix"
  else
    local d
    d=$(mktemp -d)
    (cd "$d" && ar x "$1")
    tar -xf "$d"/data.tar.* -C "$prefix"
    rm -rf "$d"
  fi
}
for f in "${files[@]}"; do
  unpack "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
  echo "unpack_debs: $(basename "$f")" >&2
done

arch=$(gcc -print-multiarch 2>/dev/null || true)
[[ -n "$arch" ]] || arch=x86_64-linux-gnu
lib="$prefix/usr/lib/$arch"
bin="$prefix/usr/bin"
inc="$prefix/usr/include"

# Check that everything loads from the prefix (ldd names missing libraries).
for x in "$bin/agrep" "$bin/tre-agrep" "$lib/libhs.so.5" "$lib/libedlib.so.1"; do
  [[ -e "$x" ]] || continue
  if LD_LIBRARY_PATH="$lib" ldd "$x" 2>&1 | grep -qE 'not found|version .* not found'; then
    echo "unpack_debs: warning: $x:" >&2
    LD_LIBRARY_PATH="$lib" ldd "$x" 2>&1 | grep -E 'not found' >&2
  fi
done

cat <<EOF
export PATH="$bin\${PATH:+:\$PATH}"
export LD_LIBRARY_PATH="$lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export CPATH="$inc\${CPATH:+:\$CPATH}"
export LIBRARY_PATH="$lib\${LIBRARY_PATH:+:\$LIBRARY_PATH}"
export CMAKE_PREFIX_PATH="$prefix/usr\${CMAKE_PREFIX_PATH:+:\$CMAKE_PREFIX_PATH}"
export CMAKE_INCLUDE_PATH="$inc\${CMAKE_INCLUDE_PATH:+:\$CMAKE_INCLUDE_PATH}"
export CMAKE_LIBRARY_PATH="$lib\${CMAKE_LIBRARY_PATH:+:\$CMAKE_LIBRARY_PATH}"
EOF
echo "unpack_debs: done; for cmake also -DCMAKE_PREFIX_PATH=$prefix/usr" >&2
