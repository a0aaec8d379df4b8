# gpu_zlib.sh -- sourced by the GPU session scripts (with $carry set and an
# array `extra` of CMake arguments): the GPU image has the compression
# libraries (libz.so.1, liblzma.so.5, libbz2.so.1.0, libzstd.so.1) but not
# their headers, which the build needs. Each -dev .deb carried in $carry
# (zlib1g-dev, liblzma-dev, libbz2-dev, libzstd-dev: `apt-get download` on a
# Debian machine) whose header is missing is unpacked into /tmp/zprefix, its
# .so link pointed at the image's own library, and CMake told where.
zp=/tmp/zprefix
zlibdir=$zp/usr/lib/x86_64-linux-gnu
unpacked=0
for spec in "zlib.h zlib1g-dev libz.so" "lzma.h liblzma-dev liblzma.so" \
            "bzlib.h libbz2-dev libbz2.so" "zstd.h libzstd-dev libzstd.so"; do
  set -- $spec
  [ -f "/usr/include/$1" ] && continue
  deb=$(ls "$carry"/$2_*.deb 2>/dev/null | head -1)
  [ -n "$deb" ] || continue
  mkdir -p $zp && dpkg -x "$deb" $zp
  sys=$(ls /lib/x86_64-linux-gnu/$3.[0-9]* /usr/lib/x86_64-linux-gnu/$3.[0-9]* 2>/dev/null | head -1)
  [ -n "$sys" ] && ln -sf "$sys" "$zlibdir/$3"
  unpacked=1
done
if [ $unpacked = 1 ]; then
  extra+=(-DCMAKE_PREFIX_PATH=$zp/usr)
  [ -f /usr/include/zlib.h ] || extra+=(-DZLIB_INCLUDE_DIR=$zp/usr/include -DZLIB_LIBRARY=$zlibdir/libz.so)
fi
