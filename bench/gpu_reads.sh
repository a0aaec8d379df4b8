#!/usr/bin/env bash
# gpu_reads.sh -- search over read files (many short records) on the lent
# host: this tree's CLI beside a baseline's, cpu and cuda, beside ripgrep,
# ugrep and GNU grep, in one call.
#
#   OUT=DIR bash bench/gpu_reads.sh CARRY
#
# CARRY (carry list [".gpus"]): pre-new/{warpmatch,gen_reads}.gz (this
# tree's CLI, CUDA for sm_90, built elsewhere), old/warpmatch.gz and
# old/TREE (the baseline), dna/ecoli_k12_mg1655.fa.gz, grep/*.deb (ripgrep
# and ugrep from Debian: `apt-get download ripgrep ugrep`).
# Inputs, in /dev/shm: bench/setk_prep.sh's million E. coli reads of 150 bp
# (seed 17001) as FASTA (one line a read) and as FASTQ (qualities: random
# stretches of one random string of '#'..'J', awk's srand(7)), each ten times over (10^7 reads: 1.7 and
# 3.1 GB). Workloads: `search -c` of a 16-mer (GATCGGAAGAGCACAC, an Illumina
# adapter's start) exactly, with -k 2, exactly with --revcomp, and exactly
# with --stream (FASTA read in batches as FASTQ always is), on each file,
# -j NPROC; --backend cpu and cuda for both trees, REPEATS runs
# each [3], interleaved, median; the count printed must agree. Beside them:
# `rg -c`, `ugrep -c` and `grep -c` of the 16-mer (lines holding it), and
# the floor of reading the file once (`cat FILE > /dev/null`). $OUT gets
# reads.log.
# AUTO_ONLY=1: the FASTQ file alone, this tree's cpu, cuda and auto on
# `-c` and `-c -k 2`, and auto's --explain-backend line. WM_BIN: this
# tree's CLI [pre-new's].
set -u
carry=${1:-.gpus}
out=${OUT:-gpu-out}
mkdir -p "$out"
reps=${REPEATS:-3}
jobs=$(nproc)
log() { echo "== $*" | tee -a "$out/reads.log"; }
now() { date +%s%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'; }
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

B=/tmp/b-reads
mkdir -p $B/bench
gzip -dc "$carry/pre-new/warpmatch.gz" > $B/warpmatch &&
  gzip -dc "$carry/pre-new/gen_reads.gz" > $B/bench/gen_reads &&
  gzip -dc "$carry/old/warpmatch.gz" > $B/warpmatch-old &&
  chmod +x $B/warpmatch $B/warpmatch-old $B/bench/gen_reads || exit 1
[ -n "${WM_BIN:-}" ] && cp "$WM_BIN" $B/warpmatch
eval "$(bash bench/peers/unpack_debs.sh "$carry/grep" /tmp/grep-root 2>/dev/null)" || true
export PATH=/tmp/grep-root/usr/bin:$PATH
export LD_LIBRARY_PATH=/tmp/grep-root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
log "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $jobs CPUs; baseline $(cat "$carry/old/TREE")"
log "peers: $(rg --version | head -1); $(ugrep --version | head -1); $(grep --version | head -1)"

CARRY=$carry bash bench/setk_prep.sh -b $B -n 1000000 -g 10 -p 10 /tmp/sk > "$out/prep.log" 2>&1 ||
  { log "setk_prep failed"; tail -3 "$out/prep.log"; exit 1; }
D=/dev/shm/wm-reads
mkdir -p $D
# a read's quality: a random stretch of one random string of 65,536 bytes
awk 'BEGIN { srand(7); for (i = 0; i < 65536; i++) pool = pool sprintf("%c", 35 + int(rand() * 40)) }
     NR % 2 == 1 { h = substr($0, 2) }
     NR % 2 == 0 { print "@" h; print $0; print "+";
                   print substr(pool, 1 + int(rand() * (65536 - length($0))), length($0)) }' \
  /tmp/sk/reads_ecoli.fa > /tmp/reads1.fq
for i in $(seq 10); do cat /tmp/sk/reads_ecoli.fa; done > $D/reads.fa
for i in $(seq 10); do cat /tmp/reads1.fq; done > $D/reads.fq
P=GATCGGAAGAGCACAC
if [ -n "${AUTO_ONLY:-}" ]; then
  f=$D/reads.fq
  cat $f > /dev/null
  for work in "-c $P" "-c -k 2 $P"; do
    line="${work%% $P}:"
    for be in cpu cuda auto; do
      t=()
      for r in $(seq "$reps"); do
        t0=$(now)
        $B/warpmatch search -j "$jobs" --backend $be $work $f > /tmp/rd.out 2> /dev/null
        t+=("$(since $t0)")
      done
      line+=" $be $(median "${t[@]}") s [${t[*]}] count $(cut -f2 /tmp/rd.out);"
    done
    log "  $f $line"
    log "    $($B/warpmatch search -j "$jobs" --explain-backend $work $f 2>&1 > /dev/null | head -1)"
  done
  rm -rf $D
  exit 0
fi
for f in $D/reads.fa $D/reads.fq; do
  cat $f > /dev/null
  t=()
  for r in 1 2 3; do t0=$(now); cat $f > /dev/null; t+=("$(since $t0)"); done
  log "$f: $(stat -c %s $f) bytes; cat > /dev/null: ${t[*]} s"
  for work in "-c $P" "-c -k 2 $P" "-c --revcomp $P" "-c --stream $P"; do
    declare -A ts=()
    counts=""
    for r in $(seq "$reps"); do
      for tool in new:cpu old:cpu new:cuda old:cuda; do
        bin=$B/warpmatch
        [ "${tool%%:*}" = old ] && bin=$B/warpmatch-old
        t0=$(now)
        $bin search -j "$jobs" --backend ${tool#*:} $work $f > /tmp/rd.out 2> /tmp/rd.err
        ts[$tool]+="$(since $t0) "
        counts+="$(cut -f2 /tmp/rd.out) "
      done
    done
    line="${work%% $P}:"
    for tool in new:cpu old:cpu new:cuda old:cuda; do
      # shellcheck disable=SC2086 # the times, a word each
      line+=" $tool $(median ${ts[$tool]}) s [${ts[$tool]% }];"
    done
    log "  $line counts $(echo $counts | tr ' ' '\n' | sort -u | tr '\n' ' ')"
  done
  for peer in "rg -c" "ugrep -c" "grep -c"; do
    t=()
    for r in $(seq "$reps"); do
      t0=$(now)
      $peer $P $f > /tmp/rd.out 2>&1
      t+=("$(since $t0)")
    done
    log "  $peer: $(median "${t[@]}") s [${t[*]}], $(head -c 40 /tmp/rd.out) lines"
  done
done
rm -rf $D
