# test_stream_out.sh -- search's rows leave the process as they are found,
# not at its end (issue 16 item 4, issue 20 item 6): a row found in the
# first file reaches a pipe while the second file (a FIFO nobody has written
# yet) still blocks the run; the same with --backend cpu and -j 1; and what
# a run killed at that moment printed is a prefix of the whole run's output.
. "$(dirname "$0")/lib.sh"

printf '>r1\nACGTACGTTTGACCAGGA\n' >"$TMP/a.fa"
mkfifo "$TMP/wait.fifo"

# first_row_while_blocked NAME FIRST ARGS...: the tool's first line read
# from its pipe within 20 s while the FIFO holds the run (it must match the
# pattern FIRST); then the FIFO is written (one more match) and closed so the
# run ends, and its whole output checked (LINES lines).
first_row_while_blocked() {
    local name=$1 first=$2 lines=$3
    shift 3
    rm -f "$TMP/out.txt" "$TMP/first.txt"
    mkfifo "$TMP/out.pipe"
    "$W" search "$@" TTGACC "$TMP/a.fa" "$TMP/wait.fifo" >"$TMP/out.pipe" 2>"$TMP/err.txt" &
    local pid=$!
    exec 7<"$TMP/out.pipe"
    if IFS= read -r -t 20 line <&7; then
        printf '%s\n' "$line" >"$TMP/first.txt"
        pass
    else
        fail "$name: no row reached the pipe while the run waited for its second file"
    fi
    # a run killed now: what it wrote so far is what the reader got (a prefix)
    printf '>r2\nTTGACC\n' >"$TMP/wait.fifo"
    cat <&7 >"$TMP/rest.txt"
    exec 7<&-
    wait "$pid"
    local rc=$?
    rm -f "$TMP/out.pipe"
    cat "$TMP/first.txt" "$TMP/rest.txt" >"$TMP/out.txt" 2>/dev/null
    if [ "$rc" -eq 0 ] && [ "$(wc -l <"$TMP/out.txt")" -eq "$lines" ] &&
        grep -q "$first" "$TMP/first.txt"; then
        pass
    else
        fail "$name: exit $rc, rows: $(tr '\n' '|' <"$TMP/out.txt") $(head -c 200 "$TMP/err.txt")"
    fi
}

row="a.fa${TAB}r1${TAB}8${TAB}14"
first_row_while_blocked "default" "$row" 2
first_row_while_blocked "--backend cpu -j 1" "$row" 2 --backend cpu -j 1
first_row_while_blocked "--json" '"type":"begin"' 7 --json

# Killed after the first row (SIGTERM: a background job of a script ignores
# SIGINT): the rows printed are the whole run's first rows.
"$W" search TTGACC "$TMP/a.fa" >"$TMP/full.txt"
mkfifo "$TMP/out.pipe"
"$W" search TTGACC "$TMP/a.fa" "$TMP/wait.fifo" >"$TMP/out.pipe" 2>/dev/null &
pid=$!
exec 7<"$TMP/out.pipe"
IFS= read -r -t 20 line <&7 && printf '%s\n' "$line" >"$TMP/got.txt"
kill -TERM "$pid"
cat <&7 >>"$TMP/got.txt"
exec 7<&-
wait "$pid"
rc=$?
if [ "$rc" -ne 0 ] && [ -s "$TMP/got.txt" ] && cmp -s "$TMP/got.txt" "$TMP/full.txt"; then
    pass
else
    fail "killed: exit $rc, got '$(cat "$TMP/got.txt")', whole run '$(cat "$TMP/full.txt")'"
fi

# dtw: each query's rows go out once it is done, while later queries run
# (8 queries of 256 samples against 1 M, one thread: seconds).
python3 -c "
import math, random
random.seed(3)
x, s = 0.0, []
for i in range(1000000):
    x += random.gauss(0, 1)
    s.append('%.3f' % x)
open('$TMP/series.txt', 'w').write(chr(10).join(s) + chr(10))
with open('$TMP/q.tsv', 'w') as f:
    for q in range(8):
        at = random.randrange(0, 999000)
        f.write(str(q) + chr(9) + chr(9).join(s[at:at + 256]) + chr(10))
"
"$W" dtw -j 1 --backend cpu "$TMP/q.tsv" "$TMP/series.txt" >"$TMP/dtw.out" 2>"$TMP/dtw.err" &
out_while_running "$TMP/dtw.out" $! && pass || fail "dtw: no row reached the file before the run ended"
[ "$RC" = 0 ] && [ "$(wc -l <"$TMP/dtw.out")" -eq 8 ] && pass ||
    fail "dtw: exit $RC, $(wc -l <"$TMP/dtw.out") rows: $(head -c 300 "$TMP/dtw.err")"

finish
