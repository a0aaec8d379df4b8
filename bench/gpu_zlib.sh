# gpu_zlib.sh -- sourced by the GPU session scripts (with $carry set and an
# array `extra` of CMake arguments): when the GPU image has no zlib headers,
# unpack the carried zlib1g-dev .deb and point CMake at it.
if [ ! -f /usr/include/zlib.h ] && ls "$carry"/zlib1g-dev*.deb >/dev/null 2>&1; then
  mkdir -p /tmp/zprefix && dpkg -x "$carry"/zlib1g-dev*.deb /tmp/zprefix
  lib=$(ls -d /tmp/zprefix/usr/lib/*-linux-gnu | head -1)
  sys=$(ls /lib/x86_64-linux-gnu/libz.so.1* /usr/lib/x86_64-linux-gnu/libz.so.1* 2>/dev/null | head -1)
  ln -sf "$sys" "$lib/libz.so"
  extra+=(-DZLIB_INCLUDE_DIR=/tmp/zprefix/usr/include -DZLIB_LIBRARY="$lib/libz.so")
fi
