#!/usr/bin/env bash
# run_cpu.sh -- the CPU backend side by side with Hyperscan, agrep and
# tre-agrep, in the same run on the same cores (issue 2's CPU benchmark).
#   bash bench/run_cpu.sh BUILD_DIR DNA_SEQ_FILE THREADS
# Texts: real DNA (DNA_SEQ_FILE: sequence bytes, repeated to $WM_CPU_BYTES,
# default 256M) and random text over 64 symbols of the same size.
# Every tool is handed the same bytes; ours and Hyperscan count distinct end
# positions (our contract), agrep and tre-agrep count matching lines.
set -u
build=$1 dna=$2 threads=$3
size=${WM_CPU_BYTES:-128M}
work=${TMPDIR:-/tmp}/wm_cpu_bench
mkdir -p "$work"
[ -f "$work/dna.txt" ] || "$build/bench/gen_text" dna "$dna" "$size" "$work/dna.txt" 2>/dev/null
[ -f "$work/r64.txt" ] || "$build/bench/gen_text" random 64 "$size" 11 "$work/r64.txt"
export REPEATS=${REPEATS:-3}
run() {   # text m k
  local text=$1 m=$2 k=$3 pat
  pat=$("$build/bench/gen_text" pattern "$text" "$m" $((m + k)))
  echo "# text=$(basename "$text") m=$m k=$k"
  "$build/bench/bench_cpu_search" -k "$k" -t "$threads" -r "$REPEATS" "$pat" "$text" | grep -v '^device'
  PEERS=${PEERS:-hyperscan agrep tre-agrep} bash bench/peers/run_peers.sh "$build" "$text" "$pat" "$k" "$threads" \
    | grep -v '^device'
}
"$build/bench/bench_cpu_search" -t 1 -r 1 ACGT "$work/dna.txt" | head -1
for m in 8 16 32 64; do for k in 0 1 2 3; do run "$work/dna.txt" $m $k; done; done
for k in 0 1; do run "$work/dna.txt" 128 $k; done
for k in 0 1 16; do PEERS="hyperscan" run "$work/dna.txt" 1024 $k; done
for k in 0 1 2; do run "$work/r64.txt" 32 $k; done
