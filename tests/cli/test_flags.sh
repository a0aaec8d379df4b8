#!/usr/bin/env bash
# test_flags.sh -- the flag table (cli/flags.c) as the user meets it, run as
#     bash tests/cli/test_flags.sh /path/to/warpmatch /path/to/project_root
#
#  1. each command's --help lists every flag of the table that the command
#     takes (the list below is the table's, written out again here), with
#     its value's name and its default in brackets; and every option its
#     --help lists is one its parser takes (no "unknown option"), so help
#     and parser cannot drift apart;
#  2. a flag of one command is unknown to the others (dtw -i, align -c);
#  3. the old spellings kept as aliases print what the new ones print:
#     dtw --format csv|text (= --series-format), dtw --device 0 (= --gpus 0),
#     and a bad value is named by the spelling used;
#  4. --json on search, align and dtw prints JSON Lines: every line is one
#     JSON object (python3 parses it), with the same values as the TSV
#     lines (align, dtw), names escaped (a tab in a dtw query's name);
#     --format json is --json on search and align;
#  5. --gpus is accepted by every command and changes no byte (a list of
#     one; a list of two with --backend cpu: CPU shards);
#  6. a bad value of a shared flag (--backend, -j/--threads, --gpus,
#     --alphabet, --format) gives the same message on every command that
#     takes it, exit status 2, nothing on stdout, and the command's usage
#     hint.
#
. "$(dirname "$0")/lib.sh" "$@"
cd "$TMP" || exit 2
exec </dev/null              # no run reads the caller's standard input
export LC_ALL=C

# same NAME ARGS_A -- ARGS_B: both runs exit alike and print the same bytes.
same() {
    local name=$1; shift
    local a=() b=()
    while [ "$1" != "--" ]; do a+=("$1"); shift; done
    shift
    b=("$@")
    run "${a[@]}"; local out_a=$OUT rc_a=$RC
    run "${b[@]}"
    if [ "$rc_a" -ne "$RC" ]; then
        fail "$name: exit $rc_a for '${a[*]}', $RC for '${b[*]}'"
        sed 's/^/    /' "$ERR" | head -5
    elif ! cmp -s "$out_a" "$OUT"; then
        fail "$name: '${a[*]}' and '${b[*]}' print different bytes"
        diff "$out_a" "$OUT" | head -10 | sed 's/^/    /'
    elif [ ! -s "$OUT" ]; then
        fail "$name: no output to compare (exit $RC)"
        sed 's/^/    /' "$ERR" | head -5
    else
        pass
    fi
}

# json_lines NAME FILE: every line of FILE is one JSON object.
json_lines() {
    if python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1], encoding="utf-8"):
    assert line.endswith("\n"), "no newline at the end"
    assert isinstance(json.loads(line), dict), "not an object: " + line
    n += 1
assert n > 0, "no lines"
' "$2"; then pass; else fail "$1: not JSON Lines"; head -3 "$2" | sed 's/^/    /'; fi
}

# Inputs.
printf '1 3 5 3 1\n' >x.txt
printf '1 2 3 4 4 2 1 2\n' >y.txt
printf 'v\n1\n2\n3\n4\n4\n2\n1\n2\n' >y.csv
printf '>a\n1 2 3\n>b\t2\n4 3 2 1\n2 2 2\n' >qs.txt
printf '>q1\nACGTTGCA\n>q2\nGGGCCCAA\n' >q.fa
printf '>t1\nTTACGTAGCATT\n>t2\nAAGGGCCAAT\n' >t.fa
cp "$GOLDEN/tiny.txt" "$GOLDEN/recs.fa" .
LAMBDA=$DATA/lambda_phage.fa

# ---- 1. --help lists the table's flags; the parser takes what help lists ----------

# The table, command by command: "-s, --long ARG" ("--long ARG" without a
# short name; no ARG for a switch).
SEARCH_FLAGS=(
    "-k, --max-edits N" "--exact-prefix N" "--exact-suffix N" "--hamming" "-i, --ignore-case" "--revcomp" "--alphabet A" "--explain-alphabet"
    "--algo A" "-e, --pattern P" "-f, --file PATFILE" "--count-per-pattern"
    "--all-patterns" "--backend B" "-j, --threads N" "--chunk-bytes N" "--gpus LIST"
    "--no-progress" "--format F" "--json" "-c, --count" "--by-record" "-q, --quiet"
    "--best-per-locus" "--cigar" "-n, --line-number" "-o, --only-matching" "--line" "-H, --with-filename"
    "--no-filename" "-l, --files-with-matches" "-L, --files-without-match" "-w, --word-regexp"
    "-m, --max-count N" "-r, --recursive" "-a, --text" "--color WHEN" "--line-buffered"
    "--output FILE" "--output-per-rank PREFIX" "--explain-backend" "--stream" "--no-stream"
    "--stream-batch N" "-h, --help")
ALIGN_FLAGS=(
    "--mode M" "-k, --max-distance N" "--cigar" "--all-ends" "--pairs"
    "-i, --ignore-case" "--revcomp" "--no-revcomp" "--best" "--alphabet A" "--explain-alphabet"
    "--algo A" "--block-t T" "--explain" "--backend B" "--explain-backend" "-j, --threads N"
    "--gpus LIST" "--no-progress" "--format F" "--json" "--cigar-m" "--output FILE" "-h, --help")
DTW_FLAGS=(
    "--mode M" "--cost C" "--window R" "--znorm" "--length L" "--top K"
    "-k, --max-distance D" "--path" "--series-format F" "--format F"
    "--query-format F" "--dtype T" "--column C" "--query-column C" "--backend B"
    "-j, --threads N" "--gpus LIST" "--device N" "--piece N" "--explain-backend" "--json"
    "-h, --help" "--sqrt" "--labels" "--no-labels" "--force-raw" "--no-progress" "--knn K"
    "--npy FILE" "--precision P" "--output FILE")
INFO_FLAGS=("-h, --help" "--json")

# check_help CMD FLAGS...: each flag has its own line in CMD's --help, in the
# table's layout: two blanks, "-s, " or four blanks, then the long form.
check_help() {
    local cmd=$1; shift
    run "$cmd" --help
    [ "$RC" -eq 0 ] && pass || fail "$cmd --help: exit status $RC"
    grep -q "^Usage: warpmatch $cmd" "$OUT" && pass || fail "$cmd --help: no usage line"
    cp "$OUT" "help.$cmd"
    local f want
    for f in "$@"; do
        case $f in
            -?,*) want="  $f" ;;
            *)    want="      $f" ;;
        esac
        # the flag, then two blanks or the end of the line (a long flag)
        if grep -Fq -- "$want  " "help.$cmd" || grep -Fxq -- "$want" "help.$cmd"; then
            pass
        else
            fail "$cmd --help does not list '$f'"
        fi
    done
    # No more flags than the table's: count the flag lines.
    local n
    n=$(grep -Ec '^  (-[a-zA-Z], |    )--[a-z]' "help.$cmd")
    [ "$n" -eq $# ] && pass || fail "$cmd --help lists $n flags, the table $#"
}
check_help search "${SEARCH_FLAGS[@]}"
check_help align "${ALIGN_FLAGS[@]}"
check_help dtw "${DTW_FLAGS[@]}"
check_help info "${INFO_FLAGS[@]}"

# Defaults in brackets, where the table has one.
for c in search align dtw; do
    grep -Eq -- '--threads N +CPU threads, 0 = all online cores \[0\]' "help.$c" && pass ||
        fail "$c --help: -j without its default [0]"
    grep -Eq -- '--backend B +auto, cpu or cuda \[auto' "help.$c" && pass ||
        fail "$c --help: --backend without its default"
    grep -Eq -- '--gpus LIST .*\[one GPU\]|^ +.*\[one GPU\]' "help.$c" && pass ||
        fail "$c --help: --gpus without its default"
done
grep -q -- 'tsv, bed or json \[tsv\]' help.search && pass || fail "search --help: --format's words"
grep -q -- 'tsv, json, sam or paf \[tsv\]' help.align && pass || fail "align --help: --format's words"
grep -q -- 'auto, text, csv, npy, f32 or f64' help.dtw && pass || fail "dtw --help: input formats"
grep -A2 -- '--format F' help.dtw | grep -q 'old spelling of --series-format' && pass ||
    fail "dtw --help: --format not said to be the old spelling of --series-format"
grep -A1 -- '--device N' help.dtw | grep -q 'old spelling of --gpus' && pass ||
    fail "dtw --help: --device not said to be the old spelling of --gpus"

# Every option a --help lists is one the command's parser takes: given
# with a value where it takes one, it may fail for the value, never as an
# unknown option.
for c in search align dtw; do
    while read -r short long arg; do
        for spelling in $short $long; do
            if [ -n "$arg" ]; then run "$c" "$spelling" 1; else run "$c" "$spelling"; fi
            if grep -q "unknown option" "$ERR"; then
                fail "$c --help lists $spelling, which $c refuses: $(head -1 "$ERR")"
            else
                pass
            fi
        done
    done < <(sed -nE 's/^  (-[a-zA-Z]),? +(--[a-z-]+)( ([A-Z]+))?.*/\1 \2 \4/p;
                      s/^      (--[a-z-]+)( ([A-Z]+))?.*/\1 \3/p' "help.$c" | grep -v -- '--help')
done

# ---- 2. a flag of one command is unknown to another ------------------------------

for args in "dtw -i x.txt y.txt" "dtw --alphabet dna x.txt y.txt" "align -c q.fa t.fa" \
            "align --series-format csv q.fa t.fa" "search --device 0 abc tiny.txt" \
            "search --path abc tiny.txt"; do
    # shellcheck disable=SC2086
    run $args
    if [ "$RC" -eq 2 ] && grep -q "^warpmatch: unknown option" "$ERR" && [ ! -s "$OUT" ]; then
        pass
    else
        fail "'$args': expected 'unknown option' and exit 2, got exit $RC: $(head -1 "$ERR")"
    fi
done

# ---- 3. the old spellings --------------------------------------------------------

same "dtw --format csv" dtw --format csv x.txt y.csv -- dtw --series-format csv x.txt y.csv
same "dtw --format text" dtw --format text --path x.txt y.txt -- \
    dtw --series-format text --path x.txt y.txt
same "dtw --format auto (csv name)" dtw --format auto x.txt y.csv -- dtw x.txt y.csv
same "dtw --device 0" dtw --device 0 --top 2 qs.txt y.txt -- dtw --gpus 0 --top 2 qs.txt y.txt
same "dtw --device 0, no device" dtw --device 0 x.txt y.txt -- dtw x.txt y.txt
same "dtw --dtype with --format" dtw --dtype f64 --query-format text --format csv x.txt y.csv -- \
    dtw --dtype f64 --query-format text --series-format csv x.txt y.csv
same "search --max-edits=1" search --max-edits=1 abc tiny.txt -- search -k 1 abc tiny.txt

# --output FILE: the bytes of standard output, in FILE, on every command;
# standard output itself then stays empty.
check_output() {  # NAME ARGS...
    local name=$1; shift
    rm -f out.file
    run "$@"; local ref=$OUT rc_ref=$RC
    cp "$ref" ref.out
    run "$@" --output out.file
    if [ "$RC" -ne "$rc_ref" ]; then
        fail "$name --output: exit $RC, $rc_ref without it"
    elif [ -s "$OUT" ]; then
        fail "$name --output: standard output not empty"
    elif [ ! -s ref.out ] || ! cmp -s ref.out out.file; then
        fail "$name --output: FILE is not what standard output was"
    else
        pass
    fi
}
check_output "search" search -k 1 ACGT recs.fa
check_output "search --json" search --json ACGT recs.fa
check_output "align" align --cigar q.fa t.fa
check_output "dtw" dtw --top 2 qs.txt y.txt
check_output "dtw matrix" dtw --mode matrix qs.txt
printf 'old' >out.file
run search ACGT recs.fa --output=out.file
[ "$RC" -eq 0 ] && [ "$(head -c 3 out.file)" != old ] && pass || fail "--output=FILE did not replace FILE"
# FILE may not be an input: it would be emptied before it is read
cp recs.fa in.fa
printf 'ACGT\n' >pats.txt
for args in "search ACGT in.fa --output in.fa" "search -f pats.txt recs.fa --output ./pats.txt" \
            "search ACGT in.fa --output=in.fa" "align q.fa in.fa --output in.fa" \
            "dtw x.txt y.txt --output y.txt"; do
    before=$(md5sum in.fa pats.txt y.txt)
    run $args
    if [ "$RC" -eq 2 ] && grep -q "the same file as the input" "$ERR" &&
        [ "$(md5sum in.fa pats.txt y.txt)" = "$before" ]; then
        pass
    else
        fail "$args: exit $RC, '$(head -1 "$ERR")' (or an input changed)"
    fi
done
for args in "search ACGT recs.fa --output /nonexistent/dir/x" "search ACGT recs.fa --output ." \
            "search ACGT recs.fa --output=" "search ACGT recs.fa --output o --output-per-rank p"; do
    run $args
    [ "$RC" -eq 2 ] && grep -q "^warpmatch: .*--output" "$ERR" && pass ||
        fail "$args: exit $RC, '$(head -1 "$ERR")'"
done

# A bad value is named by the spelling given.
run dtw --format json x.txt y.txt
[ "$RC" -eq 2 ] && grep -q "^warpmatch: unknown --format 'json' (expected auto, text, csv, npy, npz, f32 or f64)$" "$ERR" &&
    pass || fail "dtw --format json: $(head -1 "$ERR") (exit $RC)"
run dtw --series-format json x.txt y.txt
[ "$RC" -eq 2 ] && grep -q "^warpmatch: unknown --series-format 'json' (expected auto, text, csv, npy, npz, f32 or f64)$" "$ERR" &&
    pass || fail "dtw --series-format json: $(head -1 "$ERR") (exit $RC)"
run dtw --device x x.txt y.txt
[ "$RC" -eq 2 ] && grep -q "^warpmatch: invalid value 'x' for --device" "$ERR" &&
    pass || fail "dtw --device x: $(head -1 "$ERR") (exit $RC)"

# ---- 4. --json: JSON Lines on every command --------------------------------------

run info --json
[ "$RC" -eq 0 ] && pass || fail "info --json: exit $RC"
json_lines "info --json" "$OUT"
[ "$(wc -l < "$OUT")" -eq 1 ] && pass || fail "info --json: not one line"
python3 - "$OUT" <<'PY' && pass || fail "info --json: fields differ from info's lines"
import json, sys, subprocess
j = json.load(open(sys.argv[1]))
assert isinstance(j["version"], str) and isinstance(j["cuda"], bool)
assert isinstance(j["gpus"], list) and j["cpu_threads"] >= 1
assert j["default_backend"] in ("cpu", "cuda")
PY
run info --bogus
[ "$RC" -eq 2 ] && pass || fail "info --bogus: exit $RC"

run search -k 1 --json abc tiny.txt recs.fa
[ "$RC" -eq 0 ] && pass || fail "search --json: exit $RC"
json_lines "search --json" "$OUT"
same "search --format json = --json" search -k 1 --format json abc tiny.txt -- \
    search -k 1 --json abc tiny.txt
run search --json -f "$GOLDEN/iupac.fa" "$LAMBDA"
json_lines "search --json, a pattern set" "$OUT"

run align --cigar --json q.fa t.fa
[ "$RC" -eq 0 ] && pass || fail "align --json: exit $RC"
json_lines "align --json" "$OUT"
cp "$OUT" align.jsonl
run align --cigar q.fa t.fa
python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
for r in rows:
    print("\t".join([r["query"], r["target"], str(r["distance"]), str(r["start"]),
                     str(r["end"]), r["cigar"] or "*", r["strand"], str(r["qlen"])]))
' align.jsonl >align.from_json
cmp -s align.from_json "$OUT" && pass || fail "align --json: not the TSV lines' values"
same "align --format json = --json" align --format json q.fa t.fa -- align --json q.fa t.fa
same "align --format tsv = default" align --format tsv q.fa t.fa -- align q.fa t.fa
run align --mode global --pairs --cigar --json q.fa t.fa
json_lines "align --json, global pairs" "$OUT"

run dtw --json --path --top 2 qs.txt y.txt
[ "$RC" -eq 0 ] && pass || fail "dtw --json: exit $RC"
json_lines "dtw --json --path" "$OUT"
cp "$OUT" dtw.jsonl
run dtw --path --top 2 qs.txt y.txt
# The TSV query column prints a tab in a name as a space; JSON escapes it.
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    assert set(r) == {"query", "start", "end", "distance", "path"}, sorted(r)
    q = r["query"] if isinstance(r["query"], str) else str(r["query"])
    d = r["distance"]
    ds = "%.15g" % d
    if float(ds) != d:
        ds = "%.17g" % d
    path = ",".join("%d:%d" % (a, b) for a, b in r["path"])
    print("\t".join([q.replace("\t", " "), str(r["start"]), str(r["end"]), ds, path]))
' dtw.jsonl >dtw.from_json
cmp -s dtw.from_json "$OUT" && pass || { fail "dtw --json: not the TSV lines' values"; diff dtw.from_json "$OUT" | head; }
grep -q '"query":"b\\t2"' dtw.jsonl && pass || fail "dtw --json: a tab in a name is not escaped"
run dtw --json x.txt y.txt
grep -qx '{"query":0,"start":1,"end":6,"distance":4}' "$OUT" && pass ||
    fail "dtw --json: a nameless query: $(head -1 "$OUT")"
run dtw --json --top 2 "$DATA/signals/beat_query.txt" "$DATA/signals/ecg_mitdb100_60s.csv"
json_lines "dtw --json, the ECG sample" "$OUT"
run dtw --json -k 0.1 x.txt y.txt
[ "$RC" -eq 1 ] && [ ! -s "$OUT" ] && pass || fail "dtw --json, nothing within -k: exit $RC"

# ---- 5. --gpus on every command ---------------------------------------------------

same "search --gpus 0" search --gpus 0 -k 1 abc tiny.txt -- search -k 1 abc tiny.txt
same "search --gpus 0,1 cpu" search --backend cpu --gpus 0,1 -k 2 GGCGATGTGGCC "$LAMBDA" -- \
    search --backend cpu -k 2 GGCGATGTGGCC "$LAMBDA"
same "align --gpus 0" align --gpus 0 q.fa t.fa -- align q.fa t.fa
same "align --gpus 0,1 cpu" align --backend cpu --gpus 0,1 --cigar q.fa t.fa -- \
    align --backend cpu --cigar q.fa t.fa
same "dtw --gpus 0" dtw --gpus 0 --top 2 qs.txt y.txt -- dtw --top 2 qs.txt y.txt
same "dtw --gpus 0,1 cpu" dtw --backend cpu --gpus 0,1 --path qs.txt y.txt -- \
    dtw --backend cpu --path qs.txt y.txt

# ---- 6. a bad value of a shared flag: one message on every command ---------------

# bad_value ARGS...: the message (first stderr line) of each command given
# ARGS is the same; exit 2, nothing on stdout, the command's usage hint.
bad_value() {
    local first="" c
    for c in "${BAD_CMDS[@]}"; do
        case $c in
            search) run search "$@" abc tiny.txt ;;
            align)  run align "$@" q.fa t.fa ;;
            dtw)    run dtw "$@" x.txt y.txt ;;
        esac
        local msg
        msg=$(head -1 "$ERR")
        if [ "$RC" -ne 2 ] || [ -s "$OUT" ]; then
            fail "$c $*: exit $RC (expected 2) or output on stdout"
        elif ! grep -qx "Try 'warpmatch $c --help'." "$ERR"; then
            fail "$c $*: no usage hint"
        elif [ -z "$first" ]; then
            first=$msg
            case $msg in warpmatch:\ *) pass ;; *) fail "$c $*: '$msg'" ;; esac
        elif [ "$msg" = "$first" ]; then
            pass
        else
            fail "$*: '$msg' on $c, '$first' before"
        fi
    done
}
BAD_CMDS=(search align dtw)
bad_value --backend gpu
bad_value -j many
bad_value --threads 70000
bad_value --gpus 1,,2
bad_value --gpus x
bad_value --json --gpus ''
if "$W" info | grep -q '^gpu: no GPU found$'; then
    bad_value --gpus all
fi
BAD_CMDS=(search align)
bad_value --alphabet rna
bad_value -i --alphabet ''
BAD_CMDS=(search)
bad_value --format xml
run align --format xml q.fa t.fa
[ "$RC" -eq 2 ] && grep -qx "warpmatch: unknown --format 'xml' (expected tsv, json, sam or paf)" "$ERR" &&
    pass || fail "align --format xml: $(head -1 "$ERR") (exit $RC)"
# A missing value, the same way (the message is getopt's, made once).
first=""
for c in search align dtw; do
    run "$c" --threads
    msg=$(head -1 "$ERR")
    if [ "$RC" -ne 2 ] || ! grep -q "^warpmatch: option .* needs a value$" "$ERR"; then
        fail "$c --threads: '$msg' (exit $RC)"
    elif [ -n "$first" ] && [ "$msg" != "$first" ]; then
        fail "--threads without a value: '$msg' on $c, '$first' before"
    else
        first=$msg
        pass
    fi
done

finish
