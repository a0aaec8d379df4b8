#!/usr/bin/env bash
# test_text_flags.sh -- grep's text conventions of `search` (issue 20, item 4):
# -n -o --line -l -L -H --no-filename -w -r -a -m --color --line-buffered and
# the matched text in JSON, each against GNU grep where the semantics are the
# same (k = 0, a pattern that cannot overlap itself; LC_ALL=C, grep -F) and
# against Python for the rest.
#
#     bash tests/cli/test_text_flags.sh /path/to/warpmatch /path/to/project_root
. "$(dirname "$0")/lib.sh"
export LC_ALL=C

BIBLE=$SHARED/text/bible.txt
T=$TMP/t
mkdir -p "$T"

# same_as NAME CMD...: the last run's stdout equals CMD's (a reference tool).
same_as() {
    local name=$1
    shift
    "$@" >"$TMP/ref" 2>/dev/null
    check_out "$name" "$TMP/ref"
}

# A small text with CRLF lines, a line without its end, words inside words.
printf 'the cat\r\nconcatenate cat\r\n\r\nCAT cat_x xcat cat\r\nlast cat' >"$T/crlf.txt"
printf 'one dog\ntwo dogs\n\ndog-dog hotdog\n' >"$T/lf.txt"
gzip -c "$T/crlf.txt" >"$T/crlf.txt.gz"

# ---- -n, -o, --line against grep -------------------------------------------------
for f in "$T/crlf.txt" "$T/lf.txt"; do
    b=$(basename "$f")
    for p in cat dog; do
        run search --line -n "$p" "$f"
        same_as "--line -n $p $b" grep -F -n "$p" "$f"
        run search --line "$p" "$f"
        same_as "--line $p $b" grep -F "$p" "$f"
        run search -o -n "$p" "$f"
        same_as "-o -n $p $b" grep -F -o -n "$p" "$f"
        run search -o "$p" "$f"
        same_as "-o $p $b" grep -F -o "$p" "$f"
        run search -w -o -n "$p" "$f"
        same_as "-w -o -n $p $b" grep -F -w -o -n "$p" "$f"
        run search -w --line -n "$p" "$f"
        same_as "-w --line -n $p $b" grep -F -w -n "$p" "$f"
        run search -c --line "$p" "$f"
        printf '%s\t%s\n' "$f" "$(grep -F -c "$p" "$f")" >"$TMP/ref"
        check_out "-c --line $p $b (grep -c)" "$TMP/ref"
    done
done

# -n through gzip: the inflated bytes' lines, CRLF counted as grep counts them
run search --line -n cat "$T/crlf.txt.gz"
same_as "--line -n gzip" grep -F -n cat "$T/crlf.txt"
run search -o -n cat "$T/crlf.txt.gz"
same_as "-o -n gzip" grep -F -o -n cat "$T/crlf.txt"

# -n in the tsv row: a last column, the line of the start; the default row is unchanged
run search cat "$T/crlf.txt"
cp "$OUT" "$TMP/plain_rows"
run search -n cat "$T/crlf.txt"
cut -f1-6 "$OUT" >"$TMP/first6"
if cmp -s "$TMP/first6" "$TMP/plain_rows"; then pass; else fail "-n changed the first 6 columns"; fi
python3 - "$T/crlf.txt" "$OUT" <<'EOF' && pass || fail "-n tsv line column vs python"
import sys
text = open(sys.argv[1], 'rb').read()
for row in open(sys.argv[2]):
    f = row.rstrip('\n').split('\t')
    if int(f[6]) != text[:int(f[2])].count(b'\n') + 1:
        sys.exit('bad line: ' + row)
EOF

# Bible, the README's word: every form against grep
if [ -f "$BIBLE" ]; then
    for p in Jerusalem Moses; do
        run search --line -n "$p" "$BIBLE"
        same_as "bible --line -n $p" grep -F -n "$p" "$BIBLE"
        run search -o -n -w "$p" "$BIBLE"
        same_as "bible -o -n -w $p" grep -F -o -n -w "$p" "$BIBLE"
        run search -c "$p" "$BIBLE"
        printf '%s\t%s\n' "$BIBLE" "$(grep -F -o "$p" "$BIBLE" | wc -l)" >"$TMP/ref"
        check_out "bible -c $p" "$TMP/ref"
        run search -m 5 --line -n "$p" "$BIBLE"
        same_as "bible -m 5 --line $p" grep -F -m 5 -n "$p" "$BIBLE"
        run search --color=always --line -n -H "$p" "$BIBLE"
        same_as "bible --color=always $p" grep -F --color=always -n -H "$p" "$BIBLE"
    done
    run search -w -c the "$BIBLE"
    printf '%s\t%s\n' "$BIBLE" "$(grep -F -o -w the "$BIBLE" | wc -l)" >"$TMP/ref"
    check_out "bible -w -c the" "$TMP/ref"
    run search -w -c --line the "$BIBLE"
    printf '%s\t%s\n' "$BIBLE" "$(grep -F -c -w the "$BIBLE")" >"$TMP/ref"
    check_out "bible -w -c --line the" "$TMP/ref"
    # -k 1: --line prints each line once, grep's look (a Python check of the
    # set of lines: every line holding a row's start, in order)
    run search -k 1 -n Jerusalem "$BIBLE"
    cp "$OUT" "$TMP/rows"
    run search -k 1 --line -n Jerusalem "$BIBLE"
    python3 - "$BIBLE" "$TMP/rows" "$OUT" <<'EOF' && pass || fail "bible -k 1 --line vs rows"
import sys
text = open(sys.argv[1], 'rb').read()
lines = text.split(b'\n')
want = []
for row in open(sys.argv[2]):
    n = int(row.split('\t')[6])
    if not want or want[-1] != n:
        want.append(n)
exp = b''.join(b'%d:%s\n' % (n, lines[n - 1]) for n in want)
got = open(sys.argv[3], 'rb').read()
sys.exit(0 if got == exp else 'differs')
EOF
else
    echo "note: $BIBLE absent, the Bible checks are skipped"
fi

# ---- -m -------------------------------------------------------------------------
run search -m 2 cat "$T/crlf.txt"
check_rc "-m 2" 0
if [ "$(wc -l <"$OUT")" -eq 2 ]; then pass; else fail "-m 2: $(wc -l <"$OUT") rows"; fi
run search -m 2 -c cat "$T/crlf.txt"
check_out_text "-m 2 -c" "$T/crlf.txt${TAB}2"
run search -m 0 cat "$T/crlf.txt"
check_rc "-m 0: nothing, exit 1 as grep" 1
check_empty_out "-m 0"
run search -m 1 -o cat "$T/crlf.txt" "$T/lf.txt" "$T/crlf.txt"
check_out_text "-m per file" "$T/crlf.txt:cat
$T/crlf.txt:cat"

# ---- -l -L -H --no-filename ------------------------------------------------------
run search -l dog "$T/crlf.txt" "$T/lf.txt" "$T/crlf.txt.gz"
check_out_text "-l" "$T/lf.txt"
run search -l cat "$T/crlf.txt" "$T/lf.txt"
same_as "-l vs grep" grep -F -l cat "$T/crlf.txt" "$T/lf.txt"
run search -L cat "$T/crlf.txt" "$T/lf.txt"
same_as "-L vs grep" grep -F -L cat "$T/crlf.txt" "$T/lf.txt"
run search -o -n cat "$T/crlf.txt" "$T/lf.txt"
same_as "two files: names as grep" grep -F -o -n cat "$T/crlf.txt" "$T/lf.txt"
run search -o -H cat "$T/crlf.txt"
same_as "-H" grep -F -o -H cat "$T/crlf.txt"
run search -o --no-filename cat "$T/crlf.txt" "$T/lf.txt"
same_as "--no-filename" grep -F -o -h cat "$T/crlf.txt" "$T/lf.txt"

# ---- --color ---------------------------------------------------------------------
run search --color=always -o -n cat "$T/lf.txt" "$T/crlf.txt"
same_as "--color=always -o" grep -F --color=always -o -n cat "$T/lf.txt" "$T/crlf.txt"
run search --color=always --line cat "$T/crlf.txt"
same_as "--color=always --line" grep -F --color=always cat "$T/crlf.txt"
run search --color=auto --line cat "$T/crlf.txt"
same_as "--color=auto, not a terminal" grep -F cat "$T/crlf.txt"
run search --color=always cat "$T/crlf.txt"
cp "$OUT" "$TMP/colour_rows"
run search cat "$T/crlf.txt"
check_out "--color leaves tsv rows alone" "$TMP/colour_rows"
expect_error "--color bad word" "--color" search --color=sometimes cat "$T/crlf.txt"

# ---- --line-buffered: the same bytes, and a reader sees the first file's line
# while the search waits for its second file (a FIFO fed 3 s later) ----
run search --line-buffered -o -n cat "$T/crlf.txt"
same_as "--line-buffered" grep -F -o -n cat "$T/crlf.txt"
mkfifo "$TMP/in_fifo" "$TMP/fifo"
timeout 20 "$W" search --line-buffered --line dog "$T/lf.txt" "$TMP/in_fifo" >"$TMP/fifo" &
bgpid=$!
# (timeouts: neither side may wait for ever when the other is gone)
timeout 20 sh -c 'sleep 3; printf "dog\n" >"$1"' sh "$TMP/in_fifo" &
feeder=$!
if IFS= read -r -t 2 first <"$TMP/fifo"; then
    [ "$first" = "$T/lf.txt:one dog" ] && pass || fail "--line-buffered: first line '$first'"
else
    fail "--line-buffered: no line within 2 s"
fi
wait "$feeder" "$bgpid" 2>/dev/null

# ---- JSON: the matched text; base64 bytes when not UTF-8 ---------------------------
printf 'ab\377cd caf\303\251 x\n' >"$T/bin.txt"
run search --json -o -n "$(printf 'b\377c')" "$T/bin.txt"
check_rc "json bytes" 0
run_in /dev/null search --json -o -n "caf$(printf '\303\251')" "$T/bin.txt"
cp "$OUT" "$TMP/json_utf8"
run search --json -o -n "$(printf 'b\377c')" "$T/bin.txt"
python3 - "$OUT" "$TMP/json_utf8" <<'EOF' && pass || fail "json text/bytes"
import base64, json, sys
m = [json.loads(l) for l in open(sys.argv[1]) if '"match"' in l]
assert len(m) == 1 and 'text' not in m[0], m
assert base64.b64decode(m[0]['bytes']) == b'b\xffc', m
assert m[0]['line'] == 1 and m[0]['start'] == 1 and m[0]['end'] == 4, m
u = [json.loads(l) for l in open(sys.argv[2]) if '"match"' in l]
assert len(u) == 1 and u[0]['text'] == 'caf\u00e9' and 'bytes' not in u[0], u
EOF
run search --json cat "$T/crlf.txt"
if grep -q '"text"\|"line"' "$OUT"; then fail "json without -o/-n grew keys"; else pass; fi

# ---- -n on FASTA: the file's line -----------------------------------------------
printf '>r1 first\nACGTAC\nGTACGT\n\n>r2\r\nTTTT\r\nACGTTT\r\n' >"$T/x.fa"
run search -n --alphabet text -o CGT "$T/x.fa"
check_out_text "-n FASTA -o" "2:CGT
2:CGT
3:CGT
7:CGT"
run search -n --alphabet text GTAC "$T/x.fa"
check_out_text "-n FASTA row (a match across lines: its start's)" "$T/x.fa${TAB}r1${TAB}2${TAB}6${TAB}0${TAB}+${TAB}2
$T/x.fa${TAB}r1${TAB}6${TAB}10${TAB}0${TAB}+${TAB}3"
gzip -c "$T/x.fa" >"$T/x.fa.gz"
run search -n --alphabet text -o CGT "$T/x.fa.gz"
check_out_text "-n FASTA gzip" "2:CGT
2:CGT
3:CGT
7:CGT"
printf '@q\nACGT\n+\nIIII\n' >"$T/x.fq"
expect_error "-n FASTQ refused" "FASTQ" search -n ACG "$T/x.fq"
expect_error "--line FASTA refused" "--line is for plain text" search --line ACG "$T/x.fa"

# ---- -r: a tree with a binary file, a gzip file, symlinks, nested folders ----------
R=$TMP/tree
mkdir -p "$R/b/c" "$R/a" "$R/z"
printf 'cat one\n' >"$R/a/1.txt"
printf 'no match\n' >"$R/a/2.txt"
printf 'cat\000binary\n' >"$R/b/bin.dat"
printf 'the cat\n' | gzip -c >"$R/b/c/zipped.gz"
printf 'cat cat\n' >"$R/b/c/deep.txt"
printf 'cat top\n' >"$R/top.txt"
printf 'cat away\n' >"$TMP/outside.txt"
ln -s "$TMP/outside.txt" "$R/z/link.txt"
ln -s "$R/a" "$R/z/linkdir"
run search -r -l cat "$R"
check_out_text "-r -l: sorted, binary and symlinks skipped" "$R/a/1.txt
$R/b/c/deep.txt
$R/b/c/zipped.gz
$R/top.txt"
run search -r -l -a cat "$R"
check_out_text "-r -a: binary searched" "$R/a/1.txt
$R/b/bin.dat
$R/b/c/deep.txt
$R/b/c/zipped.gz
$R/top.txt"
# grep -r -I (binary skipped, symlinks in folders not followed): the same set
run search -r -o -n cat "$R/a" "$R/b/c/deep.txt" "$R/top.txt"
same_as "-r -o -n vs grep -r" grep -r -I -F -o -n cat "$R/a" "$R/b/c/deep.txt" "$R/top.txt"
run search -r -l cat "$R/z/link.txt"
check_out_text "-r: a symlink named is followed" "$R/z/link.txt"
run_at "$R" search -r -c cat
check_out_text "-r without FILE: ., names without ./" "a/1.txt${TAB}1
a/2.txt${TAB}0
b/c/deep.txt${TAB}2
b/c/zipped.gz${TAB}1
top.txt${TAB}1"
run search cat "$R"
check_rc "a folder without -r is an error" 2
expect_error "-a without -r" "-a/--text applies to -r" search -a cat "$R/top.txt"

# ---- combinations refused with a message ---------------------------------------------
expect_error "-o --line" "give one" search -o --line cat "$T/lf.txt"
expect_error "-o --format bed" "--format bed" search -o --format bed cat "$T/lf.txt"
expect_error "--line --json" "--line" search --line --json cat "$T/lf.txt"
expect_error "-l -c" "-l/--files-with-matches" search -l -c cat "$T/lf.txt"
expect_error "-m bad" "-m/--max-count" search -m x cat "$T/lf.txt"

finish
