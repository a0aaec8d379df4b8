#!/usr/bin/env bash
# test_cover.sh -- the CPU covering the GPU's start-up (cli/search_cover.c,
# issue 16): a file scanned in parts on a CPU context until the command's
# own context is ready, then the rest on that context, prints byte for byte
# and with the same exit status what one scan prints. The WM_TEST_COVER hook
# (PARTS,BYTES[,1]) fixes the cut without a GPU: PARTS parts of BYTES bytes,
# then the rest on the command's context (",1": on the CPU, in parts of
# BYTES). Every output the whole-file path takes is run (rows, -c,
# --by-record, --count-per-pattern with --all-patterns, -o, -n on FASTA and
# plain text, -w, --line, --json, --format bed and sam, --cigar,
# --best-per-locus, -m, -l, -L, -q; one pattern and sets, exact, within k
# edits and by Hamming distance, both strands), on FASTA with records
# shorter than a part, empty records and CRLF, on plain text and on several
# files at once, with parts from 1 byte up so that cuts fall inside
# occurrences, halos and record starts. With a GPU the command's context is
# the CUDA one (--backend cuda), whose staging reads a plain file with pread
# (core/textfile.c; WM_CUDA_TIMING counts those bytes), and which, when the
# CPU has done everything before it is ready, is left unfinished as the
# process ends. Also: --explain-backend never chooses the
# cover on a machine without a GPU, and the hook's time line under
# WM_CUDA_TIMING counts the bytes the CPU took.
. "$(dirname "$0")/lib.sh" "$@"
export LC_ALL=C
cd "${TMP:?lib.sh did not load}" || exit 2 # never the repository: the inputs are made here

# ---- inputs ----------------------------------------------------------------------------

WM_CLI_DIR=$ROOT/tests/cli python3 - <<'PY'
import os, random, sys
sys.path.insert(0, os.environ['WM_CLI_DIR'])
from planted import planted, wrap
rng = random.Random(1127)
plant = ['GATTACAGATTACA', 'CCGGTTAACCGG', 'ACGTTGCA', 'TGCAACGT']
def seq(n): return planted(rng, n, plant, 150)
with open('a.fa', 'w', newline='') as f:
    for r, n in enumerate([3000, 0, 17, 5000, 1, 0, 2500, 12]):
        f.write('>rec%d some comment\n' % r)
        nl = '\r\n' if r == 3 else '\n'
        for line in wrap(seq(n), 61): f.write(line + nl)
with open('b.txt', 'w') as f:  # plain text: lines of DNA and words
    for i in range(400):
        f.write(seq(rng.randrange(0, 70)) + (' the GATTACA word\n' if i % 9 == 0 else '\n'))
with open('pats.fa', 'w') as f:
    for i, p in enumerate(['GATTACAGA', 'CCGGTTAAC', 'ACGTTGCA', 'TTTTTTTT']):
        f.write('>p%d\n%s\n' % (i, p))
PY

# ---- the cases -------------------------------------------------------------------------

# cover NAME FILES -- ARGS...: each hook against the run without it.
cover() {
    local name=$1 files=()
    shift
    while [ "$1" != "--" ]; do files+=("$1"); shift; done
    shift
    local backends=(cpu)
    have_gpu && backends+=(cuda)
    for be in "${backends[@]}"; do
        run search --backend "$be" "$@" "${files[@]}"
        local want_rc=$RC
        cp "$OUT" want.out
        if [ "$be" = cpu ]; then
            grep -v '^@PG' want.out >cpu.out
            cpu_rc=$RC
        else # the GPU without the cover prints the CPU's bytes (SAM's @PG line aside)
            grep -v '^@PG' want.out >gpu.out
            check_rc "$name (cuda, no cover)" "$cpu_rc"
            if cmp -s gpu.out cpu.out; then pass; else
                fail "$name: cuda's output differs from cpu's"
                diff cpu.out gpu.out | head -10 | sed 's/^/    /'
            fi
        fi
        local hooks="0,1 1,1 3,7 2,64 5,333 1,4096 100000,1 0,5,1 2,29,1 1,1000000"
        # a process each pays CUDA's start-up; with 100000 parts the CPU ends
        # first and the process leaves without the context (args.c)
        [ "$be" = cuda ] && hooks="1,1 5,333 2,29,1 100000,1"
        for hook in $hooks; do
            run_cmd env WM_TEST_COVER=$hook "$W" search --backend "$be" "$@" "${files[@]}"
            check_rc "$name ($be, WM_TEST_COVER=$hook)" "$want_rc"
            check_out "$name ($be, WM_TEST_COVER=$hook)" want.out
        done
    done
}

for f in a.fa b.txt; do
    cover "$f: rows, k 1" $f -- -k 1 GATTACAGA
    cover "$f: -c, k 2" $f -- -c -k 2 CCGGTTAACC
    cover "$f: exact, -o" $f -- -o ACGTTGCA
    cover "$f: -n" $f -- -n -k 1 GATTACA
    cover "$f: --json" $f -- --json -k 1 TGCAACGT
    cover "$f: --cigar" $f -- --cigar -k 2 GATTACAGATT
    cover "$f: -m 3" $f -- -m 3 -k 1 GATTACA
    cover "$f: -l" $f -- -l -k 1 GATTACA
    cover "$f: -L" $f -- -L AAAAAAAAAAAAAAAAAAAAAAAAAA
    cover "$f: -q" $f -- -q -k 1 GATTACA
    cover "$f: set, rows" $f -- -k 1 -f pats.fa
    cover "$f: set, --count-per-pattern" $f -- --count-per-pattern --all-patterns -k 1 -f pats.fa
    cover "$f: set, exact, -c" $f -- -c -e GATTACA -e CCGG -e ACGT
    cover "$f: set, Hamming 2, both strands" $f -- --hamming -k 2 --revcomp -f pats.fa
    cover "$f: set, --best-per-locus" $f -- --best-per-locus -k 2 -f pats.fa
done
cover "FASTA: --by-record" a.fa -- -c --by-record -k 1 GATTACA
cover "FASTA: --format bed" a.fa -- --format bed -k 1 -f pats.fa
cover "FASTA: --format sam" a.fa -- --format sam -k 1 -f pats.fa
cover "text: -w" b.txt -- -w --alphabet text GATTACA
cover "text: --line" b.txt -- --line -k 1 GATTACA
cover "two files" a.fa b.txt -- -k 1 GATTACAGA
cover "two files, -c" a.fa b.txt -- -c -k 1 -f pats.fa

# ---- the choice and the hook's limits --------------------------------------------------

if ! have_gpu; then # no GPU: auto is the CPU alone, and says so
    head -c 100000000 /dev/zero | tr '\0' 'A' >big.txt
    run search --explain-backend -c -k 3 GATTACAGATTACAGATTACA big.txt
    check_rc "no GPU: auto" 1
    if grep -q "covering" "$ERR"; then fail "no GPU: auto chose the cover"; else pass; fi
    rm -f big.txt
fi
if have_gpu; then # a plain file's bytes staged for the GPU by reading the file
    run_cmd env WM_CUDA_TIMING=1 "$W" search --backend cuda -c -k 1 GATTACA b.txt
    check_rc "cuda, plain file: staged by pread" 0
    check_err "cuda, plain file: staged by pread" ' [1-9][0-9]* bytes staged by reading the file'
    run_cmd env WM_CUDA_TIMING=1 "$W" search --backend cuda -c -k 1 GATTACA a.fa
    check_err "cuda, FASTA: not staged by pread" ' 0 bytes staged by reading the file'
    # the CPU covers it all before the context is ready: the process leaves
    run_cmd env WM_CUDA_TIMING=1 WM_TEST_COVER=100000,1000 "$W" search --backend cuda -c GATTACA a.fa
    check_rc "cuda, all on the CPU" 0
    check_err "cuda, all on the CPU: the context left" '^context: not needed, left unfinished'
fi
run_cmd env WM_CUDA_TIMING=1 WM_TEST_COVER=2,100 "$W" search -c -k 1 GATTACA a.fa
check_rc "the hook's time line" 0
check_err "the hook's time line" '^cover: 200 bytes scanned on the CPU'

finish
