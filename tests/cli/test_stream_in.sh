#!/usr/bin/env bash
# test_stream_in.sh -- inputs read in batches (issue 16, item 3: bounded
# memory): a streamed input prints, byte for byte and with the same exit
# status, what the same input read whole prints (--no-stream), for every
# output the streamed path takes (rows, -c, --by-record, --count-per-pattern,
# -o, --json, --format bed, --cigar, -m, -l, -L, -q; one pattern and sets,
# exact and within k), on FASTA (records cut across batches, empty records,
# CRLF, blanks in lines), FASTQ and plain input, through --stream on a file,
# a pipe on standard input and a gzip file, in batches from 1 byte up so
# that cuts land everywhere. Also: a format error after some batches gives
# the whole read's message and exit 2; the options that need whole files
# are refused with --stream (and read whole without it); --alphabet auto
# decides on the same bytes whatever the batch; a live input (a pipe that
# pauses) has its rows printed before it ends; and memory stays bounded:
# 1 GiB of FASTA through a pipe is counted with a peak resident set under
# 400 MB, where the whole read's is over 1 GB. With a GPU, each case runs on
# it too (batches of 64 bytes and 100,000).
. "$(dirname "$0")/lib.sh" "$@"
export LC_ALL=C
cd "${TMP:?lib.sh did not load}" || exit 2 # never the repository: the inputs are made here

# ---- inputs ----------------------------------------------------------------------------

WM_CLI_DIR=$ROOT/tests/cli python3 - <<'PY'
import os, random, sys
sys.path.insert(0, os.environ['WM_CLI_DIR'])
from planted import planted, wrap
rng = random.Random(16)
plant = ['GATTACAGATTACA', 'CCGGTTAACCGG', 'ACGTTGCA']
def seq(n): return planted(rng, n, plant, 200)
# FASTA: long and short records, an empty one, lower case, N runs
recs = [('chr1 the first', seq(5000)), ('empty', ''), ('r2', seq(37)),
        ('r3\tdesc', seq(2000).lower()), ('r4', 'N' * 50 + seq(900)), ('r5', seq(1))]
with open('a.fa', 'w') as f:
    for name, s in recs:
        f.write('>' + name + '\n')
        for line in wrap(s, rng.choice([60, 7, 1000])):
            f.write(line + '\n')
# the same records with CRLF, blank lines, blanks inside lines, no last newline
with open('b.fa', 'w', newline='') as f:
    f.write('\n  \n')
    for name, s in recs:
        f.write('>' + name + '\r\n')
        for line in wrap(s, 61):
            if len(line) > 10: line = line[:5] + ' \t' + line[5:]
            f.write(line + '\r\n')
        f.write('\r\n')
    f.write('>last\nACGTTGCAGATTACAGATTACA')
# FASTQ: reads with the plants, multi-line ones, an empty read
with open('r.fq', 'w') as f:
    for i in range(60):
        s = seq(rng.randint(0, 300))
        q = ''.join(rng.choice('!#5@+I') for _ in s)
        f.write('@read%d extra\n' % i)
        if i % 7 == 3 and len(s) > 10:
            f.write(s[:10] + '\n' + s[10:] + '\n+\n' + q[:10] + '\n' + q[10:] + '\n')
        else:
            f.write(s + '\n+read%d\n' % i + q + '\n')
# plain: lines of sequence (newlines are bytes of the one record)
with open('p.txt', 'w') as f:
    for line in wrap(seq(6000), 70):
        f.write(line + '\n')
# FASTA with a binary byte late, FASTQ whose quality runs short late
with open('bad.fa', 'w') as f:
    f.write('>ok\n' + '\n'.join(wrap(seq(4000), 60)) + '\n>bad\nACGT\x01ACGT\n')
with open('bad.fq', 'w') as f:
    for i in range(50):
        s = seq(100)
        f.write('@r%d\n%s\n+\n%s\n' % (i, s, 'I' * (100 if i != 40 else 90)))
# --alphabet auto: protein-like first bytes, DNA after (the sniff reads 64 KiB)
with open('sniff.fa', 'w') as f:
    f.write('>s\nMKLVWQEEPRSTLLK\n' + '\n'.join(wrap(seq(80000), 60)) + '\n')
PY
gzip -c a.fa >a.fa.gz
gzip -c r.fq >r.fq.gz

# same_streamed NAME FILE ARGS...: FILE read whole (--no-stream) is the
# reference; then --stream on the file in batches of every size in BATCHES,
# FILE on a pipe, and FILE.gz where there is one, must print the same bytes
# with the same status (standard input's rows name "-": compared as FILE).
BATCHES="1 3 8 64 1000 100000"
# (a set within k pays a set-up per search: batches of 1 byte would take minutes)
SET_K_BATCHES="3 64 1000 100000"
same_streamed() {
    local name=$1 file=$2
    shift 2
    run search --no-stream "$@" "$file"
    cp "$OUT" want.out
    local want_rc=$RC
    [ "$want_rc" -le 1 ] || { fail "$name: the whole read gives status $want_rc"; cat "$ERR"; }
    local batches=$BATCHES
    case " $* " in *" -k "[1-9]*" -e "*) batches=$SET_K_BATCHES ;; esac
    for b in $batches; do
        run search --stream --stream-batch "$b" "$@" "$file"
        check_rc "$name (--stream-batch $b)" "$want_rc"
        check_out "$name (--stream-batch $b)" want.out
    done
    if have_gpu; then # each batch a search on the GPU
        for b in 64 100000; do
            run search --backend cuda --stream --stream-batch "$b" "$@" "$file"
            check_rc "$name (cuda, --stream-batch $b)" "$want_rc"
            check_out "$name (cuda, --stream-batch $b)" want.out
        done
    fi
    run_in <(cat "$file") search --stream-batch 7 "$@" -
    sed "s#^-\\([$TAB:]\\)#$file\\1#; s#^-\$#$file#; s#\"source\":\"-\"#\"source\":\"$file\"#" \
        "$OUT" >pipe.out
    OUT=pipe.out
    check_rc "$name (a pipe)" "$want_rc"
    check_out "$name (a pipe)" want.out
    if [ -f "$file.gz" ]; then
        run search --stream-batch 11 "$@" "$file.gz"
        sed "s#^$file.gz\\([$TAB:]\\)#$file\\1#; s#^$file.gz\$#$file#; s#\"source\":\"$file.gz\"#\"source\":\"$file\"#" \
            "$OUT" >gz.out
        OUT=gz.out
        check_rc "$name (gzip)" "$want_rc"
        check_out "$name (gzip)" want.out
    fi
}

# every output the streamed path takes, on each input
for f in a.fa b.fa r.fq p.txt; do
    same_streamed "$f rows" "$f" GATTACAGATTACA
    same_streamed "$f k=2 both strands" "$f" -k 2 --revcomp GATTACAGATTACA
    same_streamed "$f hamming" "$f" -k 2 --hamming CCGGTTAACCGG
    same_streamed "$f -c" "$f" -c -k 1 GATTACAGATTACA
    same_streamed "$f -c --by-record" "$f" -c --by-record -k 1 CCGGTTAACCGG
    same_streamed "$f set" "$f" -e GATTACAGATTACA -e CCGGTTAACCGG -e ACGTTGCA
    same_streamed "$f set k=1" "$f" -k 1 -e GATTACAGATTACA -e CCGGTTAACCGG -e ACGTTGCA
    same_streamed "$f set k=2 seeded" "$f" -k 2 --revcomp -e GATTACAGATTACAGG -e CCGGTTAACCGGAAC
    same_streamed "$f --count-per-pattern" "$f" --count-per-pattern -k 1 -e GATTACAGATTACA -e CCGGTTAACCGG
    same_streamed "$f --count-per-pattern exact" "$f" --count-per-pattern --all-patterns -e ACGT -e GATTACA -e TTTTTTTTTTTTTTTTTTTT
    same_streamed "$f -o" "$f" -o -k 1 GATTACAGATTACA
    same_streamed "$f json -o" "$f" --json -o -k 1 GATTACAGATTACA
    same_streamed "$f bed" "$f" --format bed -k 1 GATTACAGATTACA
    same_streamed "$f --cigar" "$f" --cigar -k 2 GATTACAGATTACA
    same_streamed "$f -m 3" "$f" -m 3 -k 1 GATTACAGATTACA
    same_streamed "$f -c -m 3" "$f" -c -m 3 -k 1 GATTACAGATTACA
    same_streamed "$f -l" "$f" -l ACGTTGCA
    same_streamed "$f -L" "$f" -L ACGTTGCAACGTTGCA
    same_streamed "$f -q" "$f" -q ACGTTGCA
done
# several FILEs, one of them streamed
run search --no-stream -H GATTACAGATTACA a.fa r.fq p.txt
cp "$OUT" want.out
run search -H GATTACAGATTACA a.fa r.fq.gz p.txt
sed "s#^r.fq.gz$TAB#r.fq$TAB#" "$OUT" >multi.out
OUT=multi.out
check_out "three files, the FASTQ gzip'd" want.out

# FASTA parsed on the threads (-j 4 or more: runs of 1 MiB of whole lines),
# 3 MB of records of every length, some cut by the batches
python3 - <<'PY'
import random
rng = random.Random(4)
with open('par.fa', 'w') as f:
    n = 0
    while n < 3 << 20:
        s = ''.join(rng.choice('ACGT') for _ in range(rng.choice([0, 50, 3000, 200000])))
        s = s.replace('ACGTAC', 'GATTACAGATTACA', 3)
        f.write('>p%d x\n' % n + '\n'.join(s[i:i + 60] for i in range(0, len(s), 60)) + '\n')
        n += len(s) + 10
PY
for args in "-k 1 GATTACAGATTACA" "-c --by-record GATTACAGATTACA"; do
    run search --no-stream $args par.fa
    cp "$OUT" want.out
    for b in 1500000 100000000; do
        run search -j 4 --stream --stream-batch $b $args par.fa
        check_rc "par.fa $args, -j 4, batch $b" 0
        check_out "par.fa $args, -j 4, batch $b" want.out
    done
done

# ---- errors after some batches: the whole read's message, exit 2 --------------------------

for f in bad.fa bad.fq; do
    run search --no-stream GATTACA "$f"
    check_rc "$f whole" 2
    grep -v '^$' "$ERR" >want.err
    for b in 1 64 1000; do
        run search --stream --stream-batch "$b" GATTACA "$f"
        check_rc "$f streamed ($b)" 2
        if cmp -s "$ERR" want.err; then pass; else
            fail "$f streamed ($b): another message"
            diff want.err "$ERR" | head -5
        fi
    done
done
expect_error "--stream-batch 0" "stream-batch" search --stream-batch 0 ACGT a.fa
expect_error "no such file" "nope.fa" search --stream ACGT nope.fa
run_in <(printf 'x') search ACGT - # a file that ends early is still one record
check_rc "one byte of standard input" 1

# ---- options that need whole files ---------------------------------------------------------

for opt in -w -n --line --best-per-locus; do
    expect_error "--stream $opt" "--stream reads each input in batches" search --stream -k 1 $opt \
        GATTACAGATTACA a.fa
    run search --no-stream -k 1 $opt GATTACAGATTACA p.txt
    cp "$OUT" want.out
    run_in p.txt search -k 1 $opt GATTACAGATTACA # standard input, read whole for it
    sed "s#^-\\([$TAB:]\\)#p.txt\\1#" "$OUT" >in.out
    OUT=in.out
    check_out "$opt on standard input (read whole)" want.out
done

# ---- --alphabet auto reads the same 64 KiB whatever the batch -----------------------------

run search --no-stream --explain-alphabet -c -k 1 GATTACAGATTACA sniff.fa
cp "$OUT" want.out
cp "$ERR" want.err
for b in 100 1000 65536; do
    run search --stream --stream-batch $b --explain-alphabet -c -k 1 GATTACAGATTACA sniff.fa
    check_out "sniff, batch $b" want.out
    if cmp -s "$ERR" want.err; then pass; else fail "sniff, batch $b: $(cat "$ERR")"; fi
done

# ---- a live input: rows come as its lines do, not at its end ------------------------------

(printf '>r1\nACGTGATTACAGATTACAACGT\n'; sleep 4; printf 'ACGT\n') |
    "$W" search --alphabet dna --line-buffered GATTACAGATTACA - >live.out 2>live.err &
if out_while_running live.out $!; then pass; else fail "a live input: no row before its end"; fi
OUT=live.out
check_out_text "a live input's row" "-${TAB}r1${TAB}4${TAB}18${TAB}0${TAB}+"

# -q on a pipe that then goes quiet: the match ends the run, not the pipe's end
t0=$SECONDS
run_in <(printf '>r1\nACGTGATTACAGATTACAACGT\n'; sleep 20) search --alphabet dna -q GATTACAGATTACA -
check_rc "-q on a quiet pipe" 0
if [ $((SECONDS - t0)) -lt 10 ]; then pass; else fail "-q on a quiet pipe waited for its end"; fi

# ---- memory: 1 GiB of FASTA through a pipe, its peak resident set ----------------------------

# One line of 60 holds the 12-mer once; joined, the lines hold it once each.
LINE=GATTACAGATTCAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
N=17895697 # 1 GiB of 61-byte lines
gen() { printf '>big\n'; yes "$LINE" | head -n "$N"; }
# peak MODE...: the tool's largest resident set in MB (getrusage of the child,
# as /usr/bin/time -f %M) for `search MODE... -c GATTACAGATTC -` on gen's 1 GiB;
# its output in peak.out.
peak() {
    gen | python3 -c '
import resource, subprocess, sys
with open("peak.out", "wb") as out:
    rc = subprocess.call(sys.argv[1:], stdout=out)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024, rc)' \
        "$W" search --backend cpu -j 2 "$@" -c GATTACAGATTC -
}
read -r mb rc < <(peak)
OUT=peak.out
RC=$rc
check_rc "1 GiB through a pipe, streamed" 0
check_out_text "1 GiB through a pipe, streamed" "-$TAB$N"
# 3 batches of 32 MiB and the reader's buffer: about 110 MB (a sanitizer
# build adds its own); the whole read holds the 1 GiB.
if [ "$mb" -lt 400 ]; then pass; else fail "1 GiB through a pipe, streamed: peak $mb MB"; fi
read -r mb rc < <(peak --no-stream)
if [ "$mb" -gt 1000 ] && [ "$rc" = 0 ]; then pass; else
    fail "1 GiB through a pipe, read whole: peak $mb MB, exit $rc (the check that the limit binds)"
fi

finish
