#!/usr/bin/env bash
# prep_global.sh -- the inputs of the global alignment benchmarks (issue 5):
# bare sequence files (one sequence, no header, no newline; every tool reads
# the same bytes) and two FASTA files of read pairs.
#
#   bash bench/prep_global.sh BUILD_DIR [OUT_DIR [ECOLI_FA_GZ]]   # OUT_DIR [.bench/global]
#
# BUILD_DIR must hold bench/gen_pairs. The E. coli K-12 MG1655 genome is
# ECOLI_FA_GZ when given, else looked up as dna/ecoli_k12_mg1655.fa.gz in
# $WM_SHARED_DATA, $DATA, ../shared/data beside the repository or the current
# folder, shared/data, then in the carry folder $CARRY [.gpu] (CARRY/NAME,
# CARRY/dna/NAME, CARRY/mix/dna/NAME), as bench/prep_align.sh does: the GPU
# host has no shared/data. A file already present (non-empty) is kept;
# MANIFEST.txt lists every file with its size, md5 and the command that made
# it, and what gen_pairs said about the edits (compare it between machines).
#
# What is made (gen_pairs, splitmix64 seeds as given; L = length):
#   rand{L}_a.seq    L = 1000, 2000, ..., 10000: L random bases, seed 10L+1
#   rand{L}_b.seq    L random bases, seed 10L+2: independent of a, the setting
#                    of paper 001's experiment (distance ~ 0.52 L)
#   rand{L}_mut.seq  a with ~5% edits: gen_pairs mutate, seed 10L+3, 4%
#                    substitutions, 1% indels of 1 base (half insertions)
#   rand100k_a/_b.seq, rand1M_a/_b.seq
#                    100,000 and 1,000,000 random bases, seeds 10L+1 / 10L+2:
#                    independent pairs
#   real100k_a.seq   E. coli [1,000,000, +100,000)
#   real1M_a.seq     E. coli [2,000,000, +1,000,000)
#   real*_b.seq      the a file mutated with a realistic divergence: 1%
#                    substitutions, 0.1% indels of 1-3 bases (half
#                    insertions); seeds 7 (100k) and 8 (1M)
#   reads1k_a.fa     READS1K [100,000] reads of 1,000 bases, the same way
#   reads1k_b.fa     (0..100 edits a read; gen_pairs reads, seed 43)
#   reads2k_*.fa     READS2K reads of 2,000 bases (0..200 edits, seed 44) and
#   reads5k_*.fa     READS5K of 5,000 (0..500, seed 45), when those are set
#   reads_a.fa       READS [1,000,000] reads of 150 bases from E. coli at
#   reads_b.fa       uniform random positions (forward strand), and each read
#                    with 0..15 edits (uniform; each a substitution, insertion
#                    or deletion of one base): gen_pairs reads, seed 42.
#                    Record i of one file pairs with record i of the other.
# All files are A/C/G/T only (checked).
set -euo pipefail

if (( $# < 1 || $# > 3 )); then
  sed -n '5,6p' "$0" >&2
  exit 2
fi
build=$1
out=${2:-.bench/global}
ecoli_arg=${3:-}
gen=$build/bench/gen_pairs
[[ -x "$gen" ]] || { echo "prep_global: $gen not built (cmake --build $build --target gen_pairs)" >&2; exit 2; }
mkdir -p "$out"
carry=${CARRY:-.gpu}
reads=${READS:-1000000}

who=prep_global
find_src_how="give its path, set WM_SHARED_DATA, or put it in $carry/"
source "$(dirname "$0")/find_src.sh"
ecoli() {  # the genome's path, found once
  if [[ -z "${ecoli_path:-}" ]]; then
    if [[ -n "$ecoli_arg" ]]; then
      [[ -r "$ecoli_arg" ]] || { echo "prep_global: $ecoli_arg: not readable" >&2; exit 2; }
      ecoli_path=$ecoli_arg
    else
      ecoli_path=$(find_src dna/ecoli_k12_mg1655.fa.gz) || exit 2
    fi
  fi
  echo "$ecoli_path"
}
size() { stat -L -c %s "$1"; }
have() { [[ -s "$out/$1" ]]; }
check_size() {  # FILE BYTES
  local s
  s=$(size "$out/$1")
  [[ "$s" == "$2" ]] || { echo "prep_global: $out/$1 has $s bytes, want $2" >&2; exit 2; }
}
check_acgt() {  # FILE: only A/C/G/T (FASTA: sequence lines only)
  local bad
  if [[ "$1" == *.fa ]]; then
    bad=$(grep -v '^>' "$out/$1" | LC_ALL=C tr -d 'ACGT\n' | wc -c)
  else
    bad=$(LC_ALL=C tr -d 'ACGT' <"$out/$1" | wc -c)
  fi
  (( bad == 0 )) || { echo "prep_global: $out/$1 has $bad bytes other than A/C/G/T" >&2; exit 2; }
}
declare -A recipe
# mk FILE CMD...: run gen_pairs CMD with the output in FILE.tmp (the word OUT),
# then move it in place; gen_pairs' stderr is kept in FILE.info for the manifest
mk() {
  local f=$1
  shift
  recipe[$f]="gen_pairs ${*//$out\//}"
  have "$f" && return 0
  local args=("$@") i
  for i in "${!args[@]}"; do [[ "${args[$i]}" == OUT ]] && args[$i]="$out/$f.tmp"; done
  "$gen" "${args[@]}" 2>"$out/$f.info" || { cat "$out/$f.info" >&2; exit 2; }
  mv "$out/$f.tmp" "$out/$f"
}

# ---- paper 001's grid ------------------------------------------------------------
for L in 1000 2000 3000 4000 5000 6000 7000 8000 9000 10000; do
  mk "rand${L}_a.seq" random "$L" $(( 10 * L + 1 )) OUT
  mk "rand${L}_b.seq" random "$L" $(( 10 * L + 2 )) OUT
  mk "rand${L}_mut.seq" mutate "$out/rand${L}_a.seq" OUT $(( 10 * L + 3 )) 0.04 0.01 1
  check_size "rand${L}_a.seq" "$L"
  check_size "rand${L}_b.seq" "$L"
done

# ---- long pairs ------------------------------------------------------------------
for w in 100k:100000 1M:1000000; do
  name=${w%%:*} L=${w#*:}
  mk "rand${name}_a.seq" random "$L" $(( 10 * L + 1 )) OUT
  mk "rand${name}_b.seq" random "$L" $(( 10 * L + 2 )) OUT
  check_size "rand${name}_a.seq" "$L"
  check_size "rand${name}_b.seq" "$L"
done
if ! have real100k_a.seq; then mk real100k_a.seq slice "$(ecoli)" 1000000 100000 OUT; fi
recipe[real100k_a.seq]="gen_pairs slice ecoli_k12_mg1655.fa.gz 1000000 100000 OUT"
if ! have real1M_a.seq; then mk real1M_a.seq slice "$(ecoli)" 2000000 1000000 OUT; fi
recipe[real1M_a.seq]="gen_pairs slice ecoli_k12_mg1655.fa.gz 2000000 1000000 OUT"
check_size real100k_a.seq 100000
check_size real1M_a.seq 1000000
mk real100k_b.seq mutate "$out/real100k_a.seq" OUT 7 0.01 0.001 3
mk real1M_b.seq mutate "$out/real1M_a.seq" OUT 8 0.01 0.001 3

# ---- read pairs ------------------------------------------------------------------
# read_pairs NAME COUNT LENGTH SEED: NAME_a.fa and NAME_b.fa
read_pairs() {
  local name=$1 count=$2 len=$3 seed=$4
  if ! have "${name}_a.fa" || ! have "${name}_b.fa" || [[ "$(grep -c '^>' "$out/${name}_a.fa")" != "$count" ]]; then
    "$gen" reads "$(ecoli)" "$count" "$len" 0.10 "$seed" "$out/${name}_a.fa.tmp" "$out/${name}_b.fa.tmp" \
      2>"$out/${name}_a.fa.info" || { cat "$out/${name}_a.fa.info" >&2; exit 2; }
    mv "$out/${name}_a.fa.tmp" "$out/${name}_a.fa"
    mv "$out/${name}_b.fa.tmp" "$out/${name}_b.fa"
    cp "$out/${name}_a.fa.info" "$out/${name}_b.fa.info"
  fi
  recipe[${name}_a.fa]="gen_pairs reads ecoli_k12_mg1655.fa.gz $count $len 0.10 $seed ${name}_a.fa ${name}_b.fa"
  recipe[${name}_b.fa]="(made with ${name}_a.fa)"
  [[ "$(grep -c '^>' "$out/${name}_b.fa")" == "$count" ]] || { echo "prep_global: ${name}_b.fa: not $count records" >&2; exit 2; }
}
read_pairs reads "$reads" 150 42
read_pairs reads1k "${READS1K:-100000}" 1000 43
# past a GPU thread (the warp tier, issue 18): with READS2K / READS5K set
[[ -z "${READS2K:-}" ]] || read_pairs reads2k "$READS2K" 2000 44
[[ -z "${READS5K:-}" ]] || read_pairs reads5k "$READS5K" 5000 45

for f in "${!recipe[@]}"; do check_acgt "$f"; done

# ---- manifest ----------------------------------------------------------------------
{
  echo "# prep_global.sh: file, bytes, md5, how it was made (gen_pairs: bench/gen_pairs.c); OUT = the file"
  for f in $(printf '%s\n' "${!recipe[@]}" | sort -V); do
    info=""
    [[ -s "$out/$f.info" ]] && info="  [$(tr '\n' ' ' <"$out/$f.info" | sed 's/ *$//')]"
    printf '%-18s %10s  %s  %s%s\n' "$f" "$(size "$out/$f")" "$(md5sum <"$out/$f" | cut -c1-32)" "${recipe[$f]}" "$info"
  done
} >"$out/MANIFEST.txt"
echo "prep_global: inputs in $out ($(grep -vc '^#' "$out/MANIFEST.txt") files, see $out/MANIFEST.txt)" >&2
