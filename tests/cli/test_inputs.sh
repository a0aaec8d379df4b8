#!/usr/bin/env bash
# test_inputs.sh -- standard input (piped, and as "-"), gzip input, binary
# bytes in a plain file, -i, JSON Lines over several sources (valid JSON,
# names escaped), BED from FASTQ.
. "$(dirname "$0")/lib.sh" "$@"
cd "$GOLDEN" || exit 2

# ---- standard input ----
run_in <(cat tiny.txt) search -k 1 abc
check_rc "stdin, no FILE" 0
sed "s/^tiny\.txt/-/" tiny_k1.tsv >"$TMP/stdin.expect"
check_out "stdin, no FILE" "$TMP/stdin.expect"

run_in tiny.txt search -k 1 abc tie.txt -
check_rc "stdin as -" 0
# tie.txt with pattern abc: only [1,3) (see test_golden.sh).
printf 'tie.txt\t.\t1\t3\t1\t+\n' >"$TMP/stdin2.expect"
cat "$TMP/stdin.expect" >>"$TMP/stdin2.expect"
check_out "stdin as -" "$TMP/stdin2.expect"

run_in <(cat recs.fa) search CATGGG
check_rc "FASTA on stdin" 0
check_out_text "FASTA on stdin" "-${TAB}r3${TAB}3${TAB}9${TAB}0${TAB}+"

# ---- gzip input (detected by content, whatever the name) ----
gzip -c recs.fa >"$TMP/recs.fa.gz"
gzip -c tiny.txt >"$TMP/tiny.dat"
cp recs.fa "$TMP/recs.fa"
run_at "$TMP" search -c --by-record GG recs.fa.gz
check_rc "gzip FASTA" 0
sed 's/^recs\.fa/recs.fa.gz/' recs_GG_by_record.tsv >"$TMP/gz.expect"
check_out "gzip FASTA" "$TMP/gz.expect"
run_at "$TMP" search -k 1 abc tiny.dat
sed 's/^tiny\.txt/tiny.dat/' tiny_k1.tsv >"$TMP/gz2.expect"
check_out "gzip plain text, odd name" "$TMP/gz2.expect"
run_in <(gzip -c tiny.txt) search -k 1 abc
check_out "gzip on stdin" "$TMP/stdin.expect"

# ---- binary bytes in a plain file are searched as bytes ----
# offsets: 0:00 1:01 2:02 3:a 4:b 5:ff 6:c 7:d 8:00 9:a 10:b 11:ff 12:c 13:d 14:\n
printf '\000\001\002ab\377cd\000ab\377cd\n' >"$TMP/bin.dat"
run search "$(printf 'ab\377cd')" "$TMP/bin.dat"
check_rc "binary" 0
check_out_text "binary" "$TMP/bin.dat${TAB}.${TAB}3${TAB}8${TAB}0${TAB}+
$TMP/bin.dat${TAB}.${TAB}9${TAB}14${TAB}0${TAB}+"
# d,\n at [13,15) is within 1 of "d\nx"; nothing else is.
run search -k 1 "$(printf 'd\nx')" "$TMP/bin.dat"
check_rc "binary, newline in the pattern" 0
check_out_text "binary, newline in the pattern" "$TMP/bin.dat${TAB}.${TAB}13${TAB}15${TAB}1${TAB}+"

# ---- -i ----
printf 'Hello HELLO hello hELLo\n' >"$TMP/hello.txt"
run_at "$TMP" search hello hello.txt
check_out_text "case sensitive" "hello.txt${TAB}.${TAB}12${TAB}17${TAB}0${TAB}+"
run_at "$TMP" search -i hello hello.txt
check_rc "-i" 0
check_out_text "-i" "hello.txt${TAB}.${TAB}0${TAB}5${TAB}0${TAB}+
hello.txt${TAB}.${TAB}6${TAB}11${TAB}0${TAB}+
hello.txt${TAB}.${TAB}12${TAB}17${TAB}0${TAB}+
hello.txt${TAB}.${TAB}18${TAB}23${TAB}0${TAB}+"
cp "$OUT" "$TMP/i2.out"
run_at "$TMP" search --ignore-case HELLO hello.txt
check_out "--ignore-case, upper-case pattern" "$TMP/i2.out"

# ---- JSON Lines: several sources, valid JSON, names escaped ----
NAME=$(printf 'we"ird\\na\tme\001\303\251\377.fa')   # quote, backslash, tab, ^A, é, a bad byte
cp recs.fa "$TMP/$NAME"
run_at "$TMP" search --json -k 1 GCAT "$NAME" recs.fa.gz
check_rc "json" 0
if python3 -c 'import json,sys;[json.loads(l) for l in sys.stdin]' <"$OUT"; then pass; else fail "json: not valid JSON Lines"; cat -v "$OUT"; fi
python3 - "$OUT" <<'PY' && pass || fail "json: structure"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
types = [l["type"] for l in lines]
assert types[0] == "begin" and types[-1] == "summary", types
name = 'we"ird\\na\tme\x01\u00e9\u00ff.fa'
begins = [l["source"] for l in lines if l["type"] == "begin"]
assert begins == [name, "recs.fa.gz"], begins
ends = [l for l in lines if l["type"] == "end"]
matches = [l for l in lines if l["type"] == "match"]
for e in ends:
    assert e["matches"] == sum(1 for m in matches if m["source"] == e["source"]), e
s = lines[-1]
assert s["matches"] == len(matches) > 0 and s["sources"] == 2, s
assert s["bytes"] == 2 * (13 + 8 + 10), s
for m in matches:
    assert set(m) == {"type", "source", "record", "start", "end", "errors", "strand"}, m
    assert m["record"] in ("r1", "r2", "r3") and m["strand"] == "+" and m["errors"] <= 1
    assert 0 <= m["start"] <= m["end"]
PY
grep -q 'we\\"ird\\\\na\\tme\\u0001é\\u00ff\.fa' "$OUT" && pass ||
    { fail "json: escaping of the source name"; head -1 "$OUT" | cat -v; }

# Without matches: begin/end per source and a summary still come.
run search --json zzz tiny.txt
check_rc "json, no match" 1
check_out_text "json, no match" '{"type":"begin","source":"tiny.txt"}
{"type":"end","source":"tiny.txt","matches":0}
{"type":"summary","matches":0,"sources":1,"bytes":9}'

# ---- BED from FASTQ: the read name is the chrom ----
printf '@read1 some comment\nACGTTGCA\n+\nIIIIIIII\n@read2\nTTGCAACG\n+read2\nIIIIIIII\n' >"$TMP/r.fq"
run search --format bed --revcomp TTGCA "$TMP/r.fq"
# read1 ACGTTGCA: TTGCA [3,8) +; its reverse complement TGCAA: none.
# read2 TTGCAACG: TTGCA [0,5) +, TGCAA [1,6) -.
check_out_text "bed from fastq" "read1${TAB}3${TAB}8${TAB}TTGCA${TAB}0${TAB}+
read2${TAB}0${TAB}5${TAB}TTGCA${TAB}0${TAB}+
read2${TAB}1${TAB}6${TAB}TTGCA${TAB}0${TAB}-"

finish
