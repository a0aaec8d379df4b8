#!/usr/bin/env bash
# test_install.sh -- the installed package works as a user would use it.
#
#     bash tests/install/test_install.sh BUILD/warpmatch PROJECT_ROOT
#
# Installs the build tree (the folder of the tool given) into a fresh
# prefix with `cmake --install --prefix`, then checks:
#   * the files: tool, header, libwarpmatch.a, libwarpmatch.so.0.1.0 with
#     its soname links, warpmatch.pc, the CMake package, LICENSE, man pages;
#   * the shared library: soname libwarpmatch.so.<major>, exports exactly
#     the functions the installed header declares (read here by the
#     preprocessor, not by cmake/gen_version_script.cmake), needs neither
#     libcudart.so nor libmpi;
#   * (a) each examples/NAME.c built with `cc $(pkg-config --cflags --libs
#     warpmatch)` against the shared library (found through an rpath) prints
#     examples/expected/NAME.txt; (b) the same with `pkg-config --static`
#     against libwarpmatch.a alone; (c) a CMake project with
#     find_package(warpmatch CONFIG REQUIRED) builds each example against
#     warpmatch::warpmatch and warpmatch::warpmatch_static, and asking for
#     version 1 fails; plus the example of warpmatch(3);
#   * (d) bin/warpmatch needs no libmpi (bin/warpmatch-mpi does, where MPI
#     was found);
#   * (e) every man page renders with no warning (man --warnings, groff -ww)
#     and `man` finds them under PREFIX/share/man.
# Environment (ctest sets them from the build's configuration):
#   WM_INSTALL_CC      the C compiler [cc]
#   WM_INSTALL_CFLAGS  flags for every compile and link (the sanitizers of an
#                      ASan build, whose libraries need their runtime) []
#   WM_INSTALL_MPI     1 when the build has warpmatch-mpi [0]
#   WM_INSTALL_MAN1    1 when the build made the section 1 pages [1]
export LC_ALL=C
# shellcheck disable=SC2034  # read by lib.sh
WM_TMP_NAME=wm_install
. "$(dirname "$0")/../cli/lib.sh" "$@"

BUILD=$(dirname "$W")
CC_=${WM_INSTALL_CC:-cc}
read -r -a CFLAGS_ <<<"${WM_INSTALL_CFLAGS:-}"
HAVE_MPI=${WM_INSTALL_MPI:-0}
HAVE_MAN1=${WM_INSTALL_MAN1:-1}
P=$TMP/prefix
LOG=$TMP/log
EXAMPLES=$(find "$ROOT/examples" -maxdepth 1 -name "*.c" -printf "%f\n" | sed "s/\\.c$//" | sort)

# check NAME COMMAND...: passes when COMMAND exits 0; else prints its output.
check() {
    local name=$1
    shift
    if "$@" >"$LOG" 2>&1; then
        pass
    else
        fail "$name"
        sed 's/^/    /' "$LOG" | head -30
    fi
}

# same_as_expected NAME PROGRAM: PROGRAM, run from the repository root (the
# examples' data/ paths), prints exactly examples/expected/NAME.txt, exit 0.
same_as_expected() {
    (cd "$ROOT" && "$2" >"$TMP/$1.got") && diff -u "$ROOT/examples/expected/$1.txt" "$TMP/$1.got"
}

for tool in pkg-config readelf nm ldd man groff; do
    command -v $tool >/dev/null || { echo "test_install.sh: $tool is needed" >&2; exit 2; }
done

# ---- the install ---------------------------------------------------------------
if ! cmake --install "$BUILD" --prefix "$P" >"$LOG" 2>&1; then
    fail "cmake --install $BUILD --prefix $P"
    cat "$LOG"
    finish
fi
LIBDIR=$(dirname "$(find "$P" -name libwarpmatch.a | head -1)")
PCDIR=$LIBDIR/pkgconfig
MAN=$P/share/man
files=(bin/warpmatch include/warpmatch.h share/doc/warpmatch/LICENSE share/doc/warpmatch/CHANGELOG.md
       share/man/man3/warpmatch.3)
[ "$HAVE_MPI" = 1 ] && files+=(bin/warpmatch-mpi)
if [ "$HAVE_MAN1" = 1 ]; then
    for page in warpmatch warpmatch-search warpmatch-align warpmatch-dtw warpmatch-info; do
        files+=("share/man/man1/$page.1")
    done
fi
for f in "${files[@]}"; do
    check "installed: $f" test -s "$P/$f"
done
for f in libwarpmatch.a libwarpmatch.so.0.1.0 pkgconfig/warpmatch.pc cmake/warpmatch/warpmatchConfig.cmake \
         cmake/warpmatch/warpmatchConfigVersion.cmake cmake/warpmatch/warpmatchTargets.cmake; do
    check "installed: $f" test -s "$LIBDIR/$f"
done
check "libwarpmatch.so.0 -> libwarpmatch.so.0.1.0" test "$(readlink "$LIBDIR/libwarpmatch.so.0")" = libwarpmatch.so.0.1.0
check "libwarpmatch.so -> libwarpmatch.so.0" test "$(readlink "$LIBDIR/libwarpmatch.so")" = libwarpmatch.so.0

# ---- the shared library ----------------------------------------------------------
SO=$LIBDIR/libwarpmatch.so.0.1.0
check "soname libwarpmatch.so.0" grep -q 'Library soname: \[libwarpmatch.so.0\]' <(readelf -d "$SO")
# The header's functions, read through the preprocessor (comments and macros
# gone); a function-pointer typedef, "(*wm_match_cb)(", has ')' after the name.
"$CC_" -E -P -x c "$P/include/warpmatch.h" | grep -o 'wm_[A-Za-z0-9_]*[[:space:]]*(' |
    sed 's/[[:space:]]*($//' | sort -u >"$TMP/declared"
nm -D --defined-only "$SO" | awk '$2 ~ /^[TDBRVWi]$/ { sub(/@.*/, "", $3); print $3 }' | sort -u >"$TMP/exported"
check "the header declares functions" test "$(wc -l <"$TMP/declared")" -ge 20
check "exports = the header's functions" diff -u "$TMP/declared" "$TMP/exported"
check "exports under WARPMATCH_0" grep -q 'wm_search@@WARPMATCH_0' <(nm -D --defined-only "$SO")
check "no libcudart.so needed (static inside)" bash -c "! readelf -d '$SO' | grep -q 'libcudart'"
check "no libmpi needed by the library" bash -c "! readelf -d '$SO' | grep -q 'libmpi'"

# ---- (a) (b) pkg-config ----------------------------------------------------------------
export PKG_CONFIG_PATH=$PCDIR
check "pkg-config --modversion" test "$(pkg-config --modversion warpmatch)" = 0.1.0
check "pkg-config --libs is -lwarpmatch alone" \
    bash -c "pkg-config --libs warpmatch | grep -Eq '^-L[^ ]+ -lwarpmatch *$'"
read -r -a PC_CFLAGS <<<"$(pkg-config --cflags warpmatch)"
read -r -a PC_LIBS <<<"$(pkg-config --libs warpmatch)"
PC_LIBDIR=$(pkg-config --variable=libdir warpmatch)
# A static link: the archive by its name (the .so beside it would win over
# -lwarpmatch), then everything Libs.private and Requires.private add.
read -r -a PC_STATIC <<<"$(pkg-config --static --libs warpmatch | sed 's/-lwarpmatch\b/-l:libwarpmatch.a/')"
for ex in $EXAMPLES; do
    src=$ROOT/examples/$ex.c
    check "(a) $ex: cc \$(pkg-config --cflags --libs warpmatch)" \
        "$CC_" "${CFLAGS_[@]}" -o "$TMP/$ex.shared" "$src" "${PC_CFLAGS[@]}" "${PC_LIBS[@]}" \
        -Wl,-rpath,"$PC_LIBDIR"
    check "(a) $ex: prints expected/$ex.txt" same_as_expected "$ex" "$TMP/$ex.shared"
    check "(a) $ex: runs on the installed libwarpmatch.so.0" \
        grep -q "libwarpmatch.so.0 => $PC_LIBDIR" <(ldd "$TMP/$ex.shared")
    check "(b) $ex: cc \$(pkg-config --static ...)" \
        "$CC_" "${CFLAGS_[@]}" -o "$TMP/$ex.static" "$src" "${PC_CFLAGS[@]}" "${PC_STATIC[@]}"
    check "(b) $ex: prints expected/$ex.txt" same_as_expected "$ex" "$TMP/$ex.static"
    check "(b) $ex: no libwarpmatch.so needed" bash -c "! ldd '$TMP/$ex.static' | grep -q libwarpmatch"
done

# The example of warpmatch(3), as printed there.
sed -n '/^\.EX$/,/^\.EE$/p' "$P/share/man/man3/warpmatch.3" | sed '1d;$d; s/\\e/\\/g; s/\\-/-/g' >"$TMP/man3.c"
check "warpmatch(3) example builds" \
    "$CC_" "${CFLAGS_[@]}" -o "$TMP/man3" "$TMP/man3.c" "${PC_CFLAGS[@]}" "${PC_LIBS[@]}" -Wl,-rpath,"$PC_LIBDIR"
check "warpmatch(3) example finds 'quack' within 1 in 'quick'" grep -q '^4 9 1$' <("$TMP/man3")

# ---- (c) CMake: find_package ----------------------------------------------------------
CM=$TMP/cmake_user
mkdir -p "$CM"
{
    echo 'cmake_minimum_required(VERSION 3.18)'
    echo 'project(warpmatch_user C)'
    echo 'find_package(warpmatch 0.1 CONFIG REQUIRED)'
    for ex in $EXAMPLES; do
        echo "add_executable(${ex}_shared $ROOT/examples/$ex.c)"
        echo "target_link_libraries(${ex}_shared PRIVATE warpmatch::warpmatch)"
        echo "add_executable(${ex}_static $ROOT/examples/$ex.c)"
        echo "target_link_libraries(${ex}_static PRIVATE warpmatch::warpmatch_static)"
    done
} >"$CM/CMakeLists.txt"
check "(c) cmake configure with find_package(warpmatch 0.1 CONFIG REQUIRED)" \
    cmake -S "$CM" -B "$CM/build" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$CC_" \
    -DCMAKE_C_FLAGS="${WM_INSTALL_CFLAGS:-}" -DCMAKE_BUILD_TYPE=Release
check "(c) cmake build" cmake --build "$CM/build"
for ex in $EXAMPLES; do
    check "(c) $ex against warpmatch::warpmatch" same_as_expected "$ex" "$CM/build/${ex}_shared"
    check "(c) $ex against warpmatch::warpmatch_static" same_as_expected "$ex" "$CM/build/${ex}_static"
    check "(c) $ex: warpmatch::warpmatch is the shared library" \
        grep -q "libwarpmatch.so.0 => $LIBDIR" <(ldd "$CM/build/${ex}_shared")
    check "(c) $ex: warpmatch::warpmatch_static is not" \
        bash -c "! ldd '$CM/build/${ex}_static' | grep -q libwarpmatch"
done
mkdir -p "$TMP/cmake_v1"
printf 'cmake_minimum_required(VERSION 3.18)\nproject(v C)\nfind_package(warpmatch 1 CONFIG REQUIRED)\n' \
    >"$TMP/cmake_v1/CMakeLists.txt"
check "(c) find_package(warpmatch 1) fails (version file: same major only)" \
    bash -c "! cmake -S '$TMP/cmake_v1' -B '$TMP/cmake_v1/build' -DCMAKE_PREFIX_PATH='$P'"

# ---- (d) the tool needs no MPI --------------------------------------------------------------
check "(d) bin/warpmatch needs no libmpi" bash -c "! ldd '$P/bin/warpmatch' | grep -q libmpi"
check "(d) bin/warpmatch runs" test "$("$P/bin/warpmatch" --version)" = "warpmatch 0.1.0"
if [ "$HAVE_MPI" = 1 ]; then
    check "(d) bin/warpmatch-mpi needs libmpi" grep -q libmpi <(ldd "$P/bin/warpmatch-mpi")
    check "(d) bin/warpmatch-mpi runs as one process" \
        test "$("$P/bin/warpmatch-mpi" --version)" = "warpmatch 0.1.0"
fi
# The plain tool started as one of several ranks stops instead of printing
# the output once per rank (an environment as Open MPI's launcher sets it).
check "(d) bin/warpmatch as rank of 2: exit 2" \
    bash -c "OMPI_COMM_WORLD_SIZE=2 '$P/bin/warpmatch' --version >/dev/null 2>&1; test \$? = 2"
check "(d) bin/warpmatch as rank of 2: names warpmatch-mpi" \
    grep -q '^warpmatch: .*run warpmatch-mpi' <(PMI_SIZE=4 "$P/bin/warpmatch" --version 2>&1)

# ---- (e) man pages ---------------------------------------------------------------------------
for page in "$MAN"/man*/*; do
    name=${page#"$MAN"/}
    check "(e) $name: man --warnings renders it with no warning" \
        bash -c "out=\$(MANWIDTH=80 man --warnings -l '$page' 2>&1 >/dev/null); [ -z \"\$out\" ] || { echo \"\$out\"; false; }"
    check "(e) $name: groff -ww is silent" \
        bash -c "out=\$(groff -ww -z -man '$page' 2>&1); [ -z \"\$out\" ] || { echo \"\$out\"; false; }"
done
check "(e) man finds warpmatch(3) under PREFIX" test "$(MANPATH=$MAN man -w 3 warpmatch)" = "$MAN/man3/warpmatch.3"
if [ "$HAVE_MAN1" = 1 ]; then
    check "(e) man finds warpmatch(1) under PREFIX" test "$(MANPATH=$MAN man -w 1 warpmatch)" = "$MAN/man1/warpmatch.1"
    # Made from --help: each flag --help lists is in the page.
    for cmd in search align dtw info; do
        "$W" "$cmd" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u >"$TMP/flags.$cmd"
        sed 's/\\-/-/g' "$MAN/man1/warpmatch-$cmd.1" | grep -oE -- '--[a-z][a-z-]+' |
            sort -u >"$TMP/manflags.$cmd"
        check "(e) warpmatch-$cmd(1) names every flag of 'warpmatch $cmd --help'" \
            bash -c "[ -s '$TMP/flags.$cmd' ] && comm -23 '$TMP/flags.$cmd' '$TMP/manflags.$cmd' | diff /dev/null -"
    done
fi
finish
