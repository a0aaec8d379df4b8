#!/usr/bin/env bash
# setk_floor.sh -- where a set-within-k search's time goes, end to end, beside
# its floors (BENCHMARKS.md 17): for each workload of a setk_prep.sh folder,
#   whole    the command setk_run.sh times (search -f -k --revcomp
#            --best-per-locus -c), files in, count out;
#   compile  the same against a one-base genome: start-up, reading and
#            compiling the patterns (the seeds' table);
#   pass     one exact 16-mer over the genome (search -c): start-up, reading
#            the genome and one scan of it, the floor of any tool that reads it;
#   scan     whole - compile - pass + start-up: the seeds' scan, pairing and
#            verification, i.e. the set's own kernel time (start-up counted once).
#   bash bench/setk_floor.sh OUTDIR [WORKLOAD...]   (WARPMATCH, THREADS, REPEATS)
# Median of REPEATS (3) wall seconds each.
set -eu
out=$1
shift
wm=${WARPMATCH:-build/warpmatch}
threads=${THREADS:-$(nproc)}
repeats=${REPEATS:-3}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
timeit() { # ARGS...: the median wall seconds of the command (no bc: awk)
  for _ in $(seq "$repeats"); do
    s=$(date +%s%N); "$@" >/dev/null; e=$(date +%s%N)
    awk -v d=$(( e - s )) 'BEGIN { printf "%.3f\n", d / 1e9 }'
  done | median
}
printf '>one\nA\n' >"$out/one_base.fa"
echo "| workload | patterns | whole | compile | pass (genome read + one scan) | scan (the set's own) | start-up |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
tail -n +2 "$out/setk_inputs.tsv" | while IFS=$'\t' read -r name pats genome count k metric extra what; do
  [ $# -gt 0 ] && [[ " $* " != *" $name "* ]] && continue
  flags=(-k "$k" --revcomp --best-per-locus -c --backend cpu -j "$threads")
  [ "$metric" = hamming ] && flags+=(--hamming)
  [ -n "$extra" ] && [ "$extra" != - ] && flags+=($extra) # the guides' --exact-suffix 3
  whole=$(timeit "$wm" search "${flags[@]}" -f "$out/$pats" "$out/$genome")
  compile=$(timeit "$wm" search "${flags[@]}" -f "$out/$pats" "$out/one_base.fa")
  pass=$(timeit "$wm" search -c --backend cpu -j "$threads" ACGTACGTACGTACGT "$out/$genome")
  start=$(timeit "$wm" search -c --backend cpu -j "$threads" ACGT "$out/one_base.fa")
  scan=$(awk -v w="$whole" -v c="$compile" -v p="$pass" -v s="$start" 'BEGIN { printf "%.3f", w - c - p + s }')
  echo "| $name | $count | $whole | $compile | $pass | $scan | $start |"
done
