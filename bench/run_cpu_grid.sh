#!/usr/bin/env bash
# run_cpu_grid.sh -- the GPU benchmark's whole grid on the CPU backend, beside
# Hyperscan, in one run on the same cores: texts random over 4 and 64 symbols
# and real DNA (DNA_SEQ_FILE repeated), $WM_CPU_BYTES each (default 128M);
# m in 8 16 32 64 128 1024, k in 0..3 (and 16 for m = 1024). agrep and
# tre-agrep are too slow for the whole grid: run_cpu.sh has them on a subset.
#   bash bench/run_cpu_grid.sh BUILD_DIR DNA_SEQ_FILE THREADS
# One line per cell: text m k ours_GBps hyperscan_GBps matches(ours) matches(hs)
set -u
build=$1 dna=$2 threads=$3
size=${WM_CPU_BYTES:-128M}
work=${TMPDIR:-/tmp}/wm_cpu_grid
mkdir -p "$work"
[ -f "$work/dna4.txt" ] || "$build/bench/gen_text" random 4 "$size" 7 "$work/dna4.txt"
[ -f "$work/rand64.txt" ] || "$build/bench/gen_text" random 64 "$size" 11 "$work/rand64.txt"
[ -f "$work/realdna.txt" ] || "$build/bench/gen_text" dna "$dna" "$size" "$work/realdna.txt" 2>/dev/null
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p"; }
"$build/bench/bench_cpu_search" -t 1 -r 1 ACGT "$work/dna4.txt" | head -1
echo "text m k warpmatch_GBps hyperscan_GBps matches hs_matches"
for text in dna4 rand64 realdna; do
  for m in 8 16 32 64 128 1024; do
    ks="0 1 2 3"; [ $m = 1024 ] && ks="0 1 2 3 16"
    for k in $ks; do
      pat=$("$build/bench/gen_text" pattern "$work/$text.txt" $m $((m * 7 + k)))
      ours=$("$build/bench/bench_cpu_search" -k $k -t "$threads" -r 3 "$pat" "$work/$text.txt" | tail -1)
      hs=$(timeout 120 "$build/bench/hs_count" -k $k -t "$threads" -r 3 --no-verify -- "$pat" "$work/$text.txt" 2>/dev/null | tail -1)
      echo "$text $m $k $(echo "$ours" | field GBps) $(echo "$hs" | field GBps) $(echo "$ours" | field matches) $(echo "$hs" | field matches)"
    done
  done
done
