#!/usr/bin/env bash
# setk_prep.sh -- the inputs of the k-error pattern-set benchmarks (issue 17
# item 6): simulated reads, CRISPR guides and primers, and the genomes they
# are searched in, all as plain FASTA so that every tool reads the same bytes.
#
#   bash bench/setk_prep.sh [-b BUILD_DIR] [-n READS] [-g GUIDES] [-p PRIMERS]
#                           [-l LABEL] [--small] OUTDIR [GENOME.fa(.gz)]
#
#   -b BUILD_DIR  where bench/gen_reads is built [$BUILD, else build]
#                 (cmake -DWARPMATCH_BENCH=ON, then
#                 cmake --build BUILD_DIR --target gen_reads)
#   -n READS      reads per genome [1000000]
#   -g GUIDES     guides [10000]
#   -p PRIMERS    primers [100000]
#   --small       -n 10000 -g 1000 -p 10000: a run that fits a 2-core machine
#   -l LABEL      the large genome's name in file and workload names [chrx
#                 for the default GENOME, else genome]
#   GENOME        the large genome [the 70 Mb chrX sample,
#                 dna/human_GRCh37_chrX_first70Mb.fa.gz]; E. coli is always the
#                 small one (dna/ecoli_k12_mg1655.fa.gz)
# Sources are looked up as bench/prep_align.sh does: $WM_SHARED_DATA, $DATA,
# ../shared/data beside the repository or the current folder, shared/data,
# then the carry folder $CARRY [.gpu] (CARRY/NAME, CARRY/dna/NAME).
#
# What is made in OUTDIR (every pattern file is FASTA, one record a pattern,
# named by its id; gen_reads's header says exactly how):
#   ecoli.fa, LABEL.fa      the genomes, decompressed, bytes unchanged
#                           (lowercase soft-masking and N runs kept: every
#                           tool is given the same file)
#   reads_ecoli.fa          READS reads of 150 bp from E. coli, reads_LABEL.fa
#   reads_LABEL.fa          the same from GENOME: planted edits (not
#                           mason_simulator, see below), 0-3 per read
#                           (uniform; substitution, insertion or deletion, 1/3
#                           each), half of them reverse-complemented; seeds
#                           17001 and 17002
#   guides_LABEL.fa         GUIDES guides: 20 nt of a GENOME site followed by
#                           NGG in the genome (either strand), 0-2 planted
#                           mismatches in the 20 nt, written as the 20 nt +
#                           "NGG" (IUPAC N); seed 17003
#   primers_LABEL.fa        PRIMERS primers of 20-25 nt cut from GENOME, either
#                           strand, exact copies (the search allows k = 2
#                           edits); seed 17004
#   *.truth.tsv             where each pattern was cut from and what was planted
#   setk_inputs.tsv         the workloads for bench/setk_run.sh: name, patterns,
#                           genome, count, k, metric, extra (warpmatch flags
#                           beyond the contract, used when this warpmatch has
#                           them), what
#   MANIFEST.txt            sizes and md5 sums (compare it between machines)
#
# Why planted edits and not mason_simulator (seqan-apps has it): mason draws
# Illumina-like errors from per-position probabilities, so a read's error
# count is unbounded (a read with 5+ errors is simply unmappable at k = 4 and
# only blurs the comparison), and its truth is a SAM file to parse. Planting at
# most 3 edits gives every read a known window it must map to within k = 4,
# and the truth file says where (bench/setk_compare.py truth checks it with
# edlib).
#
# The same arguments give the same files on every machine (fixed seeds; the
# generator draws nothing from the clock). Files are remade on every run
# (seconds); the genomes are kept when present.
set -euo pipefail

usage() { sed -n '6,7p' "$0" >&2; exit 2; }
build=${BUILD:-build}
reads=1000000 guides=10000 primers=100000 label=
while (( $# )); do
  case $1 in
    -b) build=${2:?}; shift 2 ;;
    -n) reads=${2:?}; shift 2 ;;
    -g) guides=${2:?}; shift 2 ;;
    -p) primers=${2:?}; shift 2 ;;
    -l) label=${2:?}; shift 2 ;;
    --small) reads=10000 guides=1000 primers=10000; shift ;;
    -h|--help) sed -n '2,60p' "$0"; exit 0 ;;
    -*) echo "setk_prep: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
(( $# == 1 || $# == 2 )) || usage
out=$1
big_src=${2:-}
for v in "$reads" "$guides" "$primers"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "setk_prep: counts must be whole numbers above 0, not '$v'" >&2; exit 2; }
done
gen=$build/bench/gen_reads
[[ -x "$gen" ]] || {
  echo "setk_prep: $gen not built (cmake -S . -B $build -DWARPMATCH_BENCH=ON && cmake --build $build --target gen_reads)" >&2
  exit 2
}
carry=${CARRY:-.gpu}

who=setk_prep
source "$(dirname "$0")/find_src.sh"

# FASTA, plain or compressed, as a plain file (gzip -dc reads plain files too
# with -f). The bytes are kept: lowercase and N runs are part of the workload.
decompress() {  # SRC DST
  [[ -s "$2" ]] && return 0
  case $1 in
    *.xz) xz -dc "$1" ;;
    *.bz2) bzip2 -dc "$1" ;;
    *.zst) zstd -dc "$1" ;;
    *) gzip -dcf "$1" ;;
  esac >"$2.tmp"
  head -c 1 "$2.tmp" | grep -q '>' || { echo "setk_prep: $1 is not FASTA" >&2; rm -f "$2.tmp"; exit 2; }
  mv "$2.tmp" "$2"
}

mkdir -p "$out"
ecoli_src=$(find_src dna/ecoli_k12_mg1655.fa.gz)
if [[ -z "$big_src" ]]; then
  big_src=$(find_src dna/human_GRCh37_chrX_first70Mb.fa.gz)
  label=${label:-chrx}
fi
label=${label:-genome}
[[ "$label" =~ ^[A-Za-z0-9_]+$ && "$label" != ecoli ]] || { echo "setk_prep: LABEL must be letters, digits or _ (and not ecoli), not '$label'" >&2; exit 2; }
[[ -r "$big_src" ]] || { echo "setk_prep: $big_src: not readable" >&2; exit 2; }
# A different GENOME than last time must not reuse ${label}.fa.
stamp="$out/${label}.source"
if [[ -f "$stamp" && "$(cat "$stamp")" != "$big_src" ]]; then rm -f "$out/${label}.fa"; fi
decompress "$ecoli_src" "$out/ecoli.fa"
decompress "$big_src" "$out/${label}.fa"
echo "$big_src" >"$stamp"

make_set() {  # NAME then gen_reads's arguments with @OUT @TRUTH placeholders
  local name=$1; shift
  local args=() a
  for a in "$@"; do
    case $a in
      @OUT) args+=("$out/$name.fa.tmp") ;;
      @TRUTH) args+=("$out/$name.truth.tsv") ;;
      *) args+=("$a") ;;
    esac
  done
  "$gen" "${args[@]}"
  mv "$out/$name.fa.tmp" "$out/$name.fa"
  echo "setk_prep: $name.fa: $(grep -c '>' "$out/$name.fa") patterns" >&2
}
make_set reads_ecoli reads "$reads" 150 150 3 "$out/ecoli.fa" 17001 @OUT @TRUTH
make_set reads_${label} reads "$reads" 150 150 3 "$out/${label}.fa" 17002 @OUT @TRUTH
make_set guides_${label} guides "$guides" "$out/${label}.fa" 17003 2 @OUT @TRUTH
make_set primers_${label} primers "$primers" 20 25 0 "$out/${label}.fa" 17004 @OUT @TRUTH

big_name=$(basename "$big_src")
{
  printf 'name\tpatterns\tgenome\tcount\tk\tmetric\textra\twhat\n'
  printf 'reads_ecoli\treads_ecoli.fa\tecoli.fa\t%s\t4\tedit\t-\t150 bp reads, <= 3 planted edits, both strands, vs E. coli\n' "$reads"
  L=$label
  printf '%s\t%s\t%s\t%s\t4\tedit\t-\t150 bp reads, <= 3 planted edits, both strands, vs %s\n' "reads_$L" "reads_$L.fa" "$L.fa" "$reads" "$big_name"
  printf '%s\t%s\t%s\t%s\t4\thamming\t--exact-suffix 3\t20 nt + NGG guides, <= 2 planted mismatches, vs %s\n' "guides_$L" "guides_$L.fa" "$L.fa" "$guides" "$big_name"
  printf '%s\t%s\t%s\t%s\t2\tedit\t-\t20-25 nt primers, exact copies, vs %s\n' "primers_$L" "primers_$L.fa" "$L.fa" "$primers" "$big_name"
} >"$out/setk_inputs.tsv"

(
  cd "$out"
  for f in ecoli.fa ${label}.fa reads_ecoli.fa reads_${label}.fa guides_${label}.fa primers_${label}.fa; do
    printf '%s\t%s\t%s\n' "$f" "$(stat -L -c %s "$f")" "$(md5sum <"$f" | cut -d' ' -f1)"
  done
  printf '%s.fa from\t%s\n' "$label" "$big_src"
) >"$out/MANIFEST.txt"
echo "setk_prep: inputs in $out (setk_inputs.tsv lists the workloads)" >&2
