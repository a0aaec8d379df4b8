#!/usr/bin/env bash
# test_compressed.sh -- compressed inputs, told by their magic bytes (issue 20,
# item 1): gzip, xz, bzip2 and zstd give, through a file and through a pipe
# on standard input, exactly the bytes the plain file gives, for every input
# the tool reads: search texts and pattern files, align queries, targets and
# pair files, dtw queries and series. Concatenated members (every format)
# read as one input. Truncated and corrupt streams, trailing garbage, and the
# compressed formats the tool does not read (lz4, 7z, zip, compress) are
# errors: exit 2, one "warpmatch: FILE: ..." line, nothing on stdout.
# The compressors are the Debian tools (gzip, xz, bzip2, zstd; lz4 and zip
# where installed); a format whose tool is missing is skipped, with a note.
. "$(dirname "$0")/lib.sh" "$@"
export LC_ALL=C
cd "$TMP" || exit 2

# The formats whose compressor is here: NAME COMMAND (compresses stdin to stdout).
FORMATS=()
for f in "gzip:gzip -c" "xz:xz -c -T1" "bzip2:bzip2 -c" "zstd:zstd -q -c"; do
    if command -v "${f%%:*}" >/dev/null; then
        FORMATS+=("$f")
    else
        echo "note: ${f%%:*} not installed, its cases skipped"
    fi
done

# same_as_plain NAME FILE ARGS...: the tool run on each compressed copy of
# FILE (the word FILE in ARGS stands for it; made in folder ./FORMAT, same
# name) prints what it prints for the plain file, exit status included; then
# the same with the copy on standard input (FILE = -) against the plain
# file on standard input.
same_as_plain() {
    local name=$1 file=$2 base
    shift 2
    base=$(basename "$file")
    mkdir -p plain
    cp "$file" "plain/$base"
    run_at plain "${@//FILE/$base}"
    cp "$OUT" want.out
    local want_rc=$RC
    [ "$want_rc" -le 1 ] || fail "$name: the plain file gives status $want_rc"
    run_in "$file" "${@//FILE/-}"
    cp "$OUT" want_stdin.out
    for f in "${FORMATS[@]}"; do
        local fmt=${f%%:*} cmd=${f#*:}
        mkdir -p "$fmt"
        $cmd <"$file" >"$fmt/$base"
        run_at "$fmt" "${@//FILE/$base}"
        check_rc "$name, $fmt file" "$want_rc"
        check_out "$name, $fmt file" want.out
        run_in "$fmt/$base" "${@//FILE/-}"
        check_rc "$name, $fmt on stdin" "$want_rc"
        check_out "$name, $fmt on stdin" want_stdin.out
    done
}

LAMBDA=$DATA/lambda_phage.fa
zcat "$DATA/pacbio_sample.fastq.gz" >reads.fq
head -c 20000 "$LAMBDA" >target.fa
awk 'NR % 4 == 2 { print substr($0, 1, 60) }' reads.fq | head -3 >pats.txt
printf 'ACGTACGTTAGC\tACGTTCGTAGC\nGATTACA\tGATACA\n' >pairs.tsv
printf '>q\nGATTACAGATTACA\n' >q.fa
printf '1 3 5 3 1\n' >x.txt
awk 'BEGIN { for (i = 0; i < 4000; i++) printf "%.3f\n", sin(i / 7.0) * 3 }' >series.txt

# ---- every input, every format, file and stdin -------------------------------------

same_as_plain "search FASTA" "$LAMBDA" search -k 1 GATTACA FILE
same_as_plain "search -c FASTQ" reads.fq search -c -k 2 ACGTACGTAC FILE
same_as_plain "search plain" series.txt search -c 0.9 FILE
same_as_plain "search -f PATFILE" pats.txt search -f FILE -c "$TMP/reads.fq"
same_as_plain "align FASTQ query" reads.fq align --cigar FILE "$TMP/target.fa"
same_as_plain "align FASTA target" target.fa align "$TMP/q.fa" FILE
same_as_plain "align --pairs TSV" pairs.tsv align --pairs FILE
same_as_plain "dtw series" series.txt dtw "$TMP/x.txt" FILE
same_as_plain "dtw query" x.txt dtw FILE "$TMP/series.txt"

# The issue's rg -z case, on the text of the Bible where the shared data has
# it: the counts of the plain file (ripgrep itself when installed).
if [ -r "$SHARED/text/bible.txt" ]; then
    same_as_plain "search -c text" "$SHARED/text/bible.txt" search -c Jerusalem FILE
    if command -v rg >/dev/null; then
        xz -c -T1 "$SHARED/text/bible.txt" >bible.txt.xz
        run search -c Jerusalem bible.txt.xz
        want=$(rg -z -o Jerusalem bible.txt.xz | wc -l)
        check_out_text "xz Bible against rg -z -o" "bible.txt.xz${TAB}$want"
    fi
fi

# ---- concatenated members ----------------------------------------------------------

printf '>a\nACGTTG\n' >part1
printf 'CATT\n>b\nGGTTCA\n' >part2
cat part1 part2 >both.fa
run search -c TTGCA both.fa
check_out_text "concatenation: the plain file" "both.fa${TAB}1"
for f in "${FORMATS[@]}"; do
    fmt=${f%%:*} cmd=${f#*:}
    { $cmd <part1; $cmd <part2; } >"cat.$fmt"
    run search TTGCA "cat.$fmt"
    check_rc "$fmt: two members" 0
    run search -c TTGCA "cat.$fmt"
    check_out_text "$fmt: two members read as one input (a match across them)" "cat.$fmt${TAB}1"
done

# ---- broken streams ------------------------------------------------------------------

for f in "${FORMATS[@]}"; do
    fmt=${f%%:*} cmd=${f#*:}
    $cmd <"$LAMBDA" >"whole.$fmt"
    n=$(wc -c <"whole.$fmt")
    head -c $((n / 2)) "whole.$fmt" >"half.$fmt"
    expect_error "$fmt: cut in half" "^warpmatch: half\\.$fmt: truncated $fmt input" \
        search ACGT "half.$fmt"
    run_in "half.$fmt" search ACGT -
    check_rc "$fmt: cut in half, on stdin" 2
    check_err "$fmt: cut in half, on stdin" "^warpmatch: \\(standard input\\): truncated $fmt input"
    expect_error "$fmt: cut in half, as a dtw series" "^warpmatch: half\\.$fmt: truncated $fmt stream" \
        dtw x.txt "half.$fmt"
    expect_error "$fmt: cut in half, as a pattern file" "^warpmatch: half\\.$fmt: truncated $fmt" \
        search -f "half.$fmt" reads.fq
    # a byte in the middle changed: every format has a check sum
    cp "whole.$fmt" "bad.$fmt"
    printf '\377' | dd of="bad.$fmt" bs=1 seek=$((n / 2)) conv=notrunc 2>/dev/null
    printf '\000' | dd of="bad.$fmt" bs=1 seek=$((n / 2 + 1)) conv=notrunc 2>/dev/null
    expect_error "$fmt: a corrupt byte" "^warpmatch: bad\\.$fmt: (corrupt|truncated) $fmt" \
        search ACGT "bad.$fmt"
    # anything but zero bytes after the last member (liblzma reads the
    # garbage as the start of another stream, cut short)
    { cat "whole.$fmt"; printf 'garbage\n'; } >"tail.$fmt"
    re="corrupt $fmt data"
    [ "$fmt" = xz ] && re="(corrupt|truncated) xz"
    expect_error "$fmt: trailing garbage" "^warpmatch: tail\\.$fmt: $re" search ACGT "tail.$fmt"
done
# A header that claims a huge window is refused, not obeyed: an xz block whose
# LZMA2 dictionary is set to 4 GiB (its header CRC made again) fails at once,
# under a 400 MB address-space limit (none in a sanitizer build, whose shadow
# memory needs terabytes of address space).
if command -v xz >/dev/null; then
    xz -c -T1 "$LAMBDA" >dict.xz
    python3 - <<'PY'
import zlib
b = bytearray(open('dict.xz', 'rb').read())
size, flags, i = (b[12] + 1) * 4, b[13], 14
def skip_varint(i):
    while b[i] & 0x80:
        i += 1
    return i + 1
if flags & 0x40: i = skip_varint(i)
if flags & 0x80: i = skip_varint(i)
assert b[i] == 0x21 and b[i + 1] == 1   # LZMA2, one property byte
b[i + 2] = 40                           # the dictionary: 4 GiB - 1
b[12 + size - 4:12 + size] = zlib.crc32(bytes(b[12:12 + size - 4])).to_bytes(4, 'little')
open('dict.xz', 'wb').write(b)
PY
    LIMIT="ulimit -v 400000;"
    grep -aq '__asan_init' "$W" && LIMIT=""
    run_cmd bash -c "$LIMIT \"\$0\" search -c ACGT dict.xz" "$W"
    check_rc "xz claiming a 4 GiB dictionary" 2
    check_err "xz claiming a 4 GiB dictionary" \
        '^warpmatch: dict\.xz: xz data needs 4096 MiB to decode, over the limit of 256 MiB'
fi
# zero padding after the last member is what gzip -d accepts too
{ gzip -c "$LAMBDA"; head -c 512 /dev/zero; } >padded.gz
run search -c GATTACA padded.gz
check_rc "gzip: zero padding after the last member" 0

# ---- formats the tool does not read ----------------------------------------------------

printf '\004\042\115\030\144\100\247\000\000\000\000\000' >x.lz4
printf '7z\274\257\047\034\000\004' >x.7z
printf 'PK\003\004\024\000\000\000\010\000' >x.zip
printf '\037\235\220ACGT' >x.Z
printf 'LZIP\001\014\000' >x.lz
for kind in lz4:x.lz4 7z:x.7z zip:x.zip 'compress \(\.Z\)':x.Z lzip:x.lz; do
    what=${kind%%:*} file=${kind#*:}
    re="^warpmatch: ${file//./\\.}: $what data: a format warpmatch does not read"
    expect_error "$file: refused" "$re" search ACGT "$file"
    run_in "$file" search ACGT -
    check_rc "$file: refused on stdin" 2
    expect_error "$file: refused as a pattern file" "$re" search -f "$file" reads.fq
    expect_error "$file: refused as an align target" "$re" align q.fa "$file"
done
# real ones, where the tools are here
if command -v lz4 >/dev/null; then
    lz4 -q -c "$LAMBDA" >real.lz4
    expect_error "lz4 file made by lz4" "^warpmatch: real\\.lz4: lz4 data" search ACGT real.lz4
fi
if command -v zip >/dev/null; then
    zip -q real.zip "$LAMBDA"
    expect_error "zip file made by zip" "^warpmatch: real\\.zip: zip data" search ACGT real.zip
fi
# lz4 as a dtw series: refused too (a zip is left to the signal readers: .npz)
expect_error "lz4 as a dtw series" "^warpmatch: x\\.lz4: lz4 data" dtw x.txt x.lz4
# Text that merely starts like a magic is text: "BZh9" not followed by a block.
printf 'BZh9 and then text, not bzip2\n' >bzh.txt
run search -c bzip2 bzh.txt
check_out_text "text starting with BZh9 is searched as text" "bzh.txt${TAB}1"

finish
