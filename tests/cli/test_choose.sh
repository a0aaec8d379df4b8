#!/usr/bin/env bash
# test_choose.sh -- `--backend auto` and `--explain-backend` where there is
# no GPU (a build without CUDA, or CUDA and no device: CI), run as
#     bash tests/cli/test_choose.sh /path/to/warpmatch /path/to/project_root
#
#  1. every command (search: one pattern, k = 0..3, a set, a gzip file,
#     standard input, several files; align: infix, global, --pairs, a pair
#     file; dtw: subsequence, global, ucr) with --explain-backend prints one
#     line on stderr, "warpmatch: backend cpu: <why>; predicted S s on N CPU
#     threads (...)", with N the -j given, and stdout byte for byte what
#     --backend cpu prints without the flag (which prints nothing on stderr);
#  2. the reasons: no CUDA in the build / no GPU found; an unknown size
#     (standard input) is said; --backend cpu is "asked for"; a GPU side is
#     never predicted ("on the GPU" never appears);
#  3. `info` says the model's GPU start-up and that auto is the CPU here;
#     its --json keeps default_backend and adds auto and gpu_startup_s.
# On a machine with a GPU the script checks only what holds there (3's keys,
# one line per run) and says so.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 2

GPU=0
have_gpu && GPU=1
[ "$GPU" = 1 ] && echo "test_choose.sh: a GPU is present: the CPU-only checks are skipped"

# The inputs.
awk 'BEGIN { srand(7); print ">chr1"; for (i = 0; i < 2000; i++) {
         s = ""; for (j = 0; j < 60; j++) s = s substr("ACGT", int(rand() * 4) + 1, 1); print s } }' \
    >genome.fa
gzip -c genome.fa >genome.fa.gz
printf '>r1\nACGTACGTTAGC\n>r2\nGGGTTTAAACCC\n' >reads.fa
printf '>m1\nACGTACGTTAGG\n>m2\nGGGTTTAACCCC\n' >mates.fa
printf 'ACGTAC\tACGTTC\nGGGG\tGGAGG\n' >pairs.tsv
printf 'ACGT\nTTGA\nCCCA\n' >kmers.txt
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "%.3f\n", sin(i / 17.0) + (i % 13) / 20.0 }' >series.txt
awk 'BEGIN { for (i = 0; i < 40; i++) printf "%.3f\n", sin((i + 500) / 17.0) }' >query.txt

# expect_cpu NAME ARGS...: ARGS with --explain-backend -j 3 print what they
# print with --backend cpu -j 3, and one explanation line naming the CPU.
expect_cpu() {
    local name=$1
    shift
    run "$@" --backend cpu -j 3
    cp "$OUT" want.out
    local want_rc=$RC
    [ -s "$ERR" ] && fail "$name: --backend cpu without --explain-backend wrote to stderr: $(head -1 "$ERR")"
    run "$@" --explain-backend -j 3
    check_rc "$name" "$want_rc"
    check_out "$name" want.out
    local n
    n=$(wc -l <"$ERR")
    [ "$n" -eq 1 ] && pass || fail "$name: $n stderr lines, expected one: $(head -3 "$ERR")"
    if [ "$GPU" = 1 ]; then
        grep -Eq '^warpmatch: backend (cpu|cuda): ' "$ERR" && pass ||
            fail "$name: $(head -1 "$ERR")"
        return
    fi
    if grep -Eq '^warpmatch: backend cpu: (no CUDA backend in this build|no GPU found|the GPU backend would run this on the CPU); predicted [0-9.]+ s on 3 CPU threads \(' "$ERR"; then
        pass
    else
        fail "$name: explanation: $(head -1 "$ERR")"
    fi
    grep -q 'on the GPU' "$ERR" && fail "$name: a GPU side was predicted: $(head -1 "$ERR")" || pass
}

# ---- 1. every command ------------------------------------------------------------

for k in 0 1 2 3; do
    expect_cpu "search k=$k" search -k "$k" ACGTACGTAC genome.fa
    expect_cpu "search -c k=$k" search -c -k "$k" ACGTACGTAC genome.fa
done
expect_cpu "search gzip" search -c ACGTAC genome.fa.gz
expect_cpu "search two files" search -c ACGTAC genome.fa genome.fa.gz
expect_cpu "search set" search -c -f kmers.txt genome.fa
expect_cpu "search set -e -e" search -e ACGT -e TTTT genome.fa
expect_cpu "search text" search -i the "$DATA/../README.md"
run search -c --explain-backend ACGT no_such_file.fa genome.fa
check_rc "search missing file" 2
grep -q '^warpmatch: backend cpu: ' "$ERR" && grep -q 'no_such_file.fa: No such file' "$ERR" &&
    ! grep -q 'unknown' "$ERR" && pass || fail "search missing file: $(cat "$ERR")"
expect_cpu "align infix" align reads.fa genome.fa
expect_cpu "align infix --pairs" align --pairs reads.fa mates.fa
expect_cpu "align global" align --mode global --cigar reads.fa mates.fa
expect_cpu "align global --pairs" align --mode global --pairs reads.fa mates.fa
expect_cpu "align pair file" align --mode global --pairs pairs.tsv
expect_cpu "align literals" align seq:ACGTT seq:AACGTTTT
expect_cpu "dtw" dtw query.txt series.txt
expect_cpu "dtw global" dtw --mode global query.txt series.txt
expect_cpu "dtw ucr" dtw --mode ucr query.txt series.txt

# Standard input: its size is unknown, and said.
run_in genome.fa search -c --explain-backend ACGTAC
check_rc "search stdin" 0
grep -q 'the size of standard input is unknown and counts as 0' "$ERR" && pass ||
    fail "search stdin: unknown size not said: $(head -1 "$ERR")"
run_in genome.fa search -c --explain-backend ACGTAC - genome.fa
grep -q 'the size of standard input is unknown' "$ERR" && pass ||
    fail "search - FILE: unknown size not said: $(head -1 "$ERR")"

# ---- 2. the reasons --------------------------------------------------------------

run search -c --explain-backend --backend cpu -j 2 ACGT genome.fa
# (where a GPU is found, the GPU's prediction is given beside it)
grep -Eq '^warpmatch: backend cpu: asked for with --backend cpu; predicted [0-9.]+ s on 2 CPU threads( vs [0-9.]+ s on the GPU \([^)]*\))? \(search k=0, [0-9.]+ kB\)$' "$ERR" &&
    pass || fail "--backend cpu: $(head -1 "$ERR")"
run search -c ACGT genome.fa
[ -s "$ERR" ] && fail "auto without --explain-backend wrote to stderr: $(head -1 "$ERR")" || pass
if [ "$GPU" = 0 ]; then
    if "$W" info --json | grep -q '"cuda":false'; then
        run search -c --explain-backend ACGT genome.fa
        grep -q 'backend cpu: no CUDA backend in this build' "$ERR" && pass ||
            fail "no CUDA: $(head -1 "$ERR")"
    else
        run search -c --explain-backend ACGT genome.fa
        grep -Eq 'backend cpu: (no GPU found|predicted)' "$ERR" && pass ||
            fail "CUDA without a GPU: $(head -1 "$ERR")"
    fi
    # Sizes grow the prediction: a file 16x larger is predicted no faster.
    for i in 1 2 3 4; do cat genome.fa genome.fa >g2.fa && mv g2.fa genome.fa; done
    run search -c --explain-backend -j 1 -k 2 ACGTACGTAC genome.fa
    grep -Eq 'predicted [0-9.]+ s on 1 CPU thread \(search k=2, [0-9.]+ MB\)' "$ERR" && pass ||
        fail "bigger file: $(head -1 "$ERR")"
fi

# ---- 3. info ---------------------------------------------------------------------

run info
check_rc "info" 0
grep -Eq '^gpu start-up \(cost model\): [0-9.]+ s$' "$OUT" && pass || fail "info: no start-up line"
if [ "$GPU" = 0 ]; then
    grep -q '^default backend: cpu' "$OUT" && pass || fail "info: $(grep default "$OUT")"
fi
run info --json
check_rc "info --json" 0
for key in '"default_backend":"(cpu|cuda)"' '"auto":"(cpu|cost model)"' '"gpu_startup_s":[0-9.]+'; do
    grep -Eq "$key" "$OUT" && pass || fail "info --json: no $key: $(cat "$OUT")"
done

finish
