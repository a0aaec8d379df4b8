#!/usr/bin/env bash
# stream_mem.sh -- issue 16, item 3: peak memory and wall time of `warpmatch
# search -c` over a 2.1 GB FASTA (the first 70 Mb of human chrX, 30 records
# of it, 60 columns), read whole (--no-stream: the file mapped and parsed),
# through a pipe on standard input, as a gzip file, and with --stream; GNU
# grep -c and ugrep -c (where installed) on the same pipe beside them. The
# peak is the process's maximum resident set (getrusage of the child, as
# /usr/bin/time -f %M), the time its wall clock, median of REPEATS runs.
# Floors in the same run: the pipe alone (cat | wc -c), one thread's read
# of the file (dd), and inflating the gzip file (gzip -dc | wc -c).
#
#   bash bench/stream_mem.sh [-b BUILD] [-w WORK] [-r REPEATS] [-j THREADS]
#                            [--backend B] [--no-gz]
#   BUILD    a build with the tool [build]
#   WORK     where the inputs are made (big2g.fa, big2g.fa.gz: 2.1 GB + 0.7 GB) [/tmp/wm-stream]
#   CHRX     the genome [../shared/data/dna/human_GRCh37_chrX_first70Mb.fa.gz]
# Prints a Markdown table on stdout; the runs' lines on stderr.
set -u
build=build work=/tmp/wm-stream repeats=3 threads=0 backend=cpu gz=1
chrx=${CHRX:-$(dirname "$0")/../../shared/data/dna/human_GRCh37_chrX_first70Mb.fa.gz}
while [ $# -gt 0 ]; do
    case $1 in
        -b) build=$2; shift 2 ;;
        -w) work=$2; shift 2 ;;
        -r) repeats=$2; shift 2 ;;
        -j) threads=$2; shift 2 ;;
        --backend) backend=$2; shift 2 ;;
        --no-gz) gz=0; shift ;;
        *) echo "stream_mem.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
W=$build/warpmatch
[ -x "$W" ] || { echo "stream_mem.sh: no tool at $W" >&2; exit 2; }
mkdir -p "$work"
big=$work/big2g.fa
if [ ! -s "$big" ]; then
    python3 - "$chrx" "$big" <<'PY'
import gzip, sys
body = gzip.open(sys.argv[1], 'rb').read()
body = body[body.index(b'\n') + 1:]
with open(sys.argv[2], 'wb') as f:
    for i in range(30):
        f.write(b'>chrX_%d\n' % (i + 1))
        f.write(body)
PY
fi
[ "$gz" = 1 ] && [ ! -s "$big.gz" ] && gzip -1 -c "$big" >"$big.gz"

# measure LABEL STDIN CMD...: "wall_s max_rss_kb" of one run (STDIN: a file or -).
measure() {
    python3 - "$@" <<'PY'
import resource, subprocess, sys, time
label, stdin, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
t = time.monotonic()
# standard input through a pipe (cat), as a user pipes a stream
cat = subprocess.Popen(['cat', stdin], stdout=subprocess.PIPE) if stdin != '-' else None
p = subprocess.run(cmd, stdin=cat.stdout if cat else subprocess.DEVNULL, stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE)
if cat:
    cat.stdout.close()
    cat.wait()
wall = time.monotonic() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
out = p.stdout.decode(errors='replace').strip().replace('\n', ' ')
print('%.3f %d %s' % (wall, rss, out[:60]))
sys.stderr.write('%s: %.3f s, %d KB, exit %d, %s\n' % (label, wall, rss, p.returncode, out[:60]))
PY
}

# row LABEL STDIN CMD...: the median wall and the largest peak over the repeats.
row() {
    local label=$1 walls=() rss=0 out=""
    shift
    for _ in $(seq 1 "$repeats"); do
        read -r w r o < <(measure "$label" "$@")
        walls+=("$w")
        [ "$r" -gt "$rss" ] && rss=$r
        out=$o
    done
    local med
    med=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    printf '| %s | %s | %d | %s |\n' "$label" "$med" $((rss / 1024)) "$out"
}

size=$(stat -L -c %s "$big")
echo "input: $big, $size bytes; $(nproc) cores; tool: $W --backend $backend -j $threads"
P=$(sed -n 200001p "$big" | cut -c1-32 | tr a-z A-Z) # 12 Mb into chrX, in each of the 30 copies
echo "pattern: $P"
echo
echo "| run | wall s (median of $repeats) | peak RSS MB | output |"
echo "| --- | --- | --- | --- |"
for k in 0 1; do
    opts=(search --backend "$backend" -j "$threads" -c -k "$k" "$P")
    row "k=$k, FILE read whole (--no-stream)" - "$W" "${opts[@]}" --no-stream "$big"
    row "k=$k, FILE with --stream" - "$W" "${opts[@]}" --stream "$big"
    row "k=$k, standard input (a pipe)" "$big" "$W" "${opts[@]}" -
    [ "$gz" = 1 ] && row "k=$k, FILE.gz" - "$W" "${opts[@]}" "$big.gz"
done
# floors: the bytes moved and nothing else, on the same input
row "floor: a pipe (cat FILE | wc -c)" "$big" wc -c
row "floor: one thread's read (dd bs=16M)" - dd if="$big" of=/dev/null bs=16M status=none
[ "$gz" = 1 ] && row "floor: inflating (gzip -dc FILE.gz)" - sh -c "gzip -dc '$big.gz' | wc -c"
row "peer: GNU grep -c, standard input" "$big" grep -c "$P"
command -v ugrep >/dev/null && row "peer: ugrep -c, standard input" "$big" ugrep -c "$P"
[ "$gz" = 1 ] && command -v ugrep >/dev/null && row "peer: ugrep -z -c, FILE.gz" - ugrep -z -c "$P" "$big.gz"
exit 0
