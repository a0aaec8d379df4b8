#!/usr/bin/env bash
# prep_align.sh -- the inputs of the alignment benchmarks (issue 4), as plain
# files holding one sequence each, no header, no newline, so that every tool
# (ours, edlib, the GPU benchmark) reads the very same bytes.
#
#   bash bench/prep_align.sh BUILD_DIR [OUT_DIR]       # OUT_DIR [.bench/align]
#
# BUILD_DIR must hold bench/gen_text (random texts, FASTA -> bare sequence).
# Sources are looked up by name in $WM_SHARED_DATA, $DATA, ../shared/data
# beside the repository or the current folder, shared/data, then the carry
# folder $CARRY [.gpu] (as CARRY/NAME, CARRY/dna/NAME or CARRY/reads/NAME, and
# CARRY/mix/dna/NAME where bench/run_multi.sh --stage put the E. coli
# genome), so the GPU host, which has no shared/data, can rebuild everything
# from the two FASTA.gz and the FASTQ.gz carried there (chrX's FASTA is in
# .gpu/ already; the FASTQ is not):
#   dna/human_GRCh37_chrX_first70Mb.fa.gz    reads/ecoli_k12_pacbio_subsetA.fastq.gz
#   dna/ecoli_k12_mg1655.fa.gz
# A file already present (non-empty) is kept; MANIFEST.txt lists them all with
# sizes and md5 sums (compare it between machines).
#
# What is made (m = 32 64 128 256 512 1024):
#   bin01_t4M.seq     4,194,304 random bytes '0'/'1' (gen_text random 2, seed 4,
#                     letters A/B mapped to 0/1): paper 000's Table I text
#   bin01_q{m}.seq    m random '0'/'1', seed 1000 + m (independent of the text)
#   chrX.seq          the whole chrX sample as one bare sequence: 69,999,930
#                     bases, uppercased, N runs kept (3.76 Mb of N)
#   dna_t4M.seq       chrX[20,000,000, 24,194,304): 4,194,304 bases, no N
#   dna_q{m}.seq      chrX[30,000,000 + i * 1,000,000, + m) for the i-th m
#                     (i = 0..5: offsets 30,000,000 .. 35,000,000), no N: real
#                     human DNA from elsewhere on chrX, not from the target
#   read10k.seq       the first read of the FASTQ (file order) with at least
#                     10,000 bases (read #4, 13,950 bases), its first 10,000
#   read100k.seq      the longest reads concatenated, longest first (file
#                     order among equal lengths), until 100,000 bases, the last
#                     one cut. No read is that long (the longest is 26,872), so
#                     this is 4 reads (26,872 + 26,013 + 25,404 + 21,711 of
#                     24,487) end to end: not one molecule, and it does not
#                     align along its whole length anywhere
#   readmax.seq       the longest read whole (26,872 bases)
#   *_rc.seq          reverse complements of the three reads (PacBio reads
#                     come from either strand; align both to find where a read
#                     really maps)
#   ecoli.seq         the E. coli K-12 MG1655 genome, 4,639,675 bases, where the
#                     reads come from
# The reads are A/C/G/T only (checked), so byte equality is DNA equality.
set -euo pipefail

if (( $# < 1 || $# > 2 )); then
  sed -n '5,6p' "$0" >&2
  exit 2
fi
build=$1
out=${2:-.bench/align}
gen_text=$build/bench/gen_text
[[ -x "$gen_text" ]] || { echo "prep_align: $gen_text not built (cmake --build $build --target gen_text)" >&2; exit 2; }
mkdir -p "$out"
carry=${CARRY:-.gpu}

who=prep_align
source "$(dirname "$0")/find_src.sh"
size() { stat -L -c %s "$1"; }
have() { [[ -s "$out/$1" ]]; }
check_size() {  # FILE BYTES
  local s
  s=$(size "$out/$1")
  [[ "$s" == "$2" ]] || { echo "prep_align: $out/$1 has $s bytes, want $2" >&2; exit 2; }
}
check_acgt() {  # FILE: only A/C/G/T
  local bad
  bad=$(LC_ALL=C tr -d 'ACGT' <"$out/$1" | wc -c)
  (( bad == 0 )) || { echo "prep_align: $out/$1 has $bad bytes other than A/C/G/T" >&2; exit 2; }
}
cut_bytes() {  # SRC OFFSET LEN DST
  dd if="$1" of="$4.tmp" bs=1M iflag=skip_bytes,count_bytes skip="$2" count="$3" status=none
  mv "$4.tmp" "$4"
}
ms="32 64 128 256 512 1024"

# ---- paper 000's Table I: random 0/1 ---------------------------------------------
if ! have bin01_t4M.seq; then
  "$gen_text" random 2 4194304 4 - | LC_ALL=C tr AB 01 >"$out/bin01_t4M.seq.tmp"
  mv "$out/bin01_t4M.seq.tmp" "$out/bin01_t4M.seq"
fi
check_size bin01_t4M.seq 4194304
for m in $ms; do
  f=bin01_q$m.seq
  if ! have "$f"; then
    "$gen_text" random 2 "$m" $(( 1000 + m )) - | LC_ALL=C tr AB 01 >"$out/$f.tmp" && mv "$out/$f.tmp" "$out/$f"
  fi
  check_size "$f" "$m"
done

# ---- real DNA: human chrX ----------------------------------------------------------
if ! have chrX.seq; then
  fa=$(find_src dna/human_GRCh37_chrX_first70Mb.fa.gz)
  "$gen_text" dna "$fa" 69999930 "$out/chrX.seq.tmp" 2>/dev/null
  mv "$out/chrX.seq.tmp" "$out/chrX.seq"
fi
check_size chrX.seq 69999930
have dna_t4M.seq || cut_bytes "$out/chrX.seq" 20000000 4194304 "$out/dna_t4M.seq"
check_size dna_t4M.seq 4194304
check_acgt dna_t4M.seq
i=0
for m in $ms; do
  f=dna_q$m.seq
  have "$f" || cut_bytes "$out/chrX.seq" $(( 30000000 + i * 1000000 )) "$m" "$out/$f"
  check_size "$f" "$m"
  check_acgt "$f"
  i=$(( i + 1 ))
done

# ---- long reads and E. coli ------------------------------------------------------------
if ! have read10k.seq || ! have read100k.seq || ! have readmax.seq; then
  fq=$(find_src reads/ecoli_k12_pacbio_subsetA.fastq.gz)
  tmp=$(mktemp -d)
  # one line per read: length, 1-based index in the file, sequence
  zcat "$fq" | awk 'NR % 4 == 2 { printf "%d\t%d\t%s\n", length($0), NR / 4 + 0.75, $0 }' >"$tmp/reads"
  awk -F '\t' '$1 >= 10000 { printf "%s", substr($3, 1, 10000); exit }' "$tmp/reads" >"$out/read10k.seq"
  sort -t "$(printf '\t')" -k1,1nr -k2,2n "$tmp/reads" >"$tmp/sorted"
  awk -F '\t' 'NR == 1 { printf "%s", $3; exit }' "$tmp/sorted" >"$out/readmax.seq"
  awk -F '\t' -v want=100000 '{ take = want - got; if (take > $1) take = $1
                                 printf "%s", substr($3, 1, take); got += take
                                 printf "read100k: read #%d, %d of its %d bases\n", $2, take, $1 > "/dev/stderr"
                                 if (got >= want) exit }' "$tmp/sorted" >"$out/read100k.seq"
  awk -F '\t' '$1 >= 10000 { printf "read10k: read #%d (%d bases), first 10000\n", $2, $1 > "/dev/stderr"; exit }' "$tmp/reads"
  rm -rf "$tmp"
fi
check_size read10k.seq 10000
check_size read100k.seq 100000
for r in read10k read100k readmax; do
  check_acgt $r.seq
  have ${r}_rc.seq || { rev "$out/$r.seq" | LC_ALL=C tr ACGT TGCA >"$out/${r}_rc.seq.tmp" && mv "$out/${r}_rc.seq.tmp" "$out/${r}_rc.seq"; }
  check_size ${r}_rc.seq "$(size "$out/$r.seq")"
done
if ! have ecoli.seq; then
  fa=$(find_src dna/ecoli_k12_mg1655.fa.gz)
  "$gen_text" dna "$fa" 4639675 "$out/ecoli.seq.tmp" 2>/dev/null
  mv "$out/ecoli.seq.tmp" "$out/ecoli.seq"
fi
check_size ecoli.seq 4639675

# ---- manifest ------------------------------------------------------------------------------
(cd "$out" && for f in bin01_t4M.seq bin01_q*.seq chrX.seq dna_t4M.seq dna_q*.seq read*.seq ecoli.seq; do
   printf '%-18s %10s  %s\n' "$f" "$(size "$f")" "$(md5sum <"$f" | cut -c1-32)"
 done) >"$out/MANIFEST.txt"
echo "prep_align: inputs in $out ($(wc -l <"$out/MANIFEST.txt") files, see $out/MANIFEST.txt)" >&2
