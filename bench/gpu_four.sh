#!/usr/bin/env bash
# gpu_four.sh -- issue 24 on a host of four GPUs: strong scaling at 1, 2 and 4
# GPUs (mpirun ranks and --gpus in one process), the same bytes at every
# count, compute-sanitizer on small 4-GPU runs, the host's floors.
#
#   bash bench/gpu_four.sh MODE[,MODE...] [CARRY_DIR]      (repository root)
#
# MODE:
#   prep    the inputs of the compute-bound workloads, in /dev/shm/wm4
#           (bench/run_dist.sh names them): the chrX sample as FASTA, 1 M reads
#           of 150 bp from it (gen_reads, seed 17002, as bench/setk_prep.sh),
#           a 10 kb read (chrX [30,000,000, +10,000) with 2% substitutions and
#           2% indels), 10 M pairs of 150 bp of E. coli (gen_pairs, seed 42),
#           4,000 ECG queries of 128 samples and a series of 4,194,304 samples
#           (as bench/gpu_dtw_target.sh makes 1,000)
#   check   each workload on small inputs with --gpus 0,1,2,3 and mpirun -np 4
#           against one GPU (md5), under compute-sanitizer memcheck (racecheck
#           on search and dtw), and an mpirun -np 4 run under memcheck
#   mpisan  those mpirun runs alone
#   clitests  tests/cli/test_dtw.sh, test_cover.sh and test_global.sh with the CUDA tool, and
#           the prebuilt test_api_thread (contexts made on another thread)
#   floors  pinned host-to-device copy on each GPU alone and on all four at
#           once (bench_h2d), the host's memory copy on all cores (PyTorch),
#           nvidia-smi topo
#   compute bench/run_dist.sh over setk, align10k, pairs, dtw (DIST_* passed on)
#   search  bench/run_dist.sh over exact, k2, set16k, dense on 32 GiB in
#           /dev/shm, and the CPU backend on the same text (the peer)
#   searchab  exact and k2 again with WM_STAGE_MAPPED=1: the text staged from
#           its mapping (its pages faulted in first), the rows before pread
#           staging, into $OUT/search_mapped
#   pairsab  AB_WORK [pairs] (of run_dist.sh's workloads) at 1, 2, N GPUs
#           (AB_MODES [mpi]: mpi,gpus adds one process's
#           --gpus), the tree's warpmatch-mpi and an earlier one
#           (prebuilt/warpmatch-mpi-REV[.gz], REV = AB_REV) alternating,
#           AB_ROUNDS [3] rounds, into $OUT/ab_{REV,new}_R; WM_CUDA_TIMING
#           on, so one process's logs split its read, batches and rows
#   envab   AB_WORK at 1, 2, N GPUs (AB_MODES [mpi]) with this tree as is and
#           with the environment AB_ENV (e.g. Open MPI's or UCX's settings),
#           alternating, AB_ROUNDS [3] rounds, into $OUT/ab_{plain,env}_R
#   parse   bench_seqfile (prebuilt) on the pairs' FASTA and the chrX sample
#           at 1, 4, 16 and all threads: the parallel FASTA parser's scaling
#   searchtest  test_search_diff (prebuilt, CUDA) at WM_TEST_SCALE=SEARCH_SCALE
# CARRY_DIR [.gpu4] holds what the machine cannot fetch: prebuilt/ (warpmatch,
# warpmatch-mpi, test_api_thread, any of them as NAME.gz, gen_text,
# gen_patterns, gen_reads, gen_pairs, bench_h2d,
# built on the development machine with -DCMAKE_CUDA_ARCHITECTURES=90-real
# and MPI), mpidebs/ (Debian's Open MPI .debs), the chrX sample, E. coli and
# the ECG recording (dna/, timeseries/ names as in shared/data).
# Logs go to $OUT (or ./gpu-out).
set -u
modes=${1:-prep,check,floors,compute}
carry=${2:-.gpu4}
out=${OUT:-gpu-out}
mkdir -p "$out"
want() { [[ ",$modes," == *",$1,"* ]]; }
log() { echo "== $*" | tee -a "$out/four.log"; }
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

# Open MPI from the carried .debs (the binaries were linked against
# libmpi.so.40 of Debian's 4.1.4), relocated with OPAL_PREFIX.
if [ ! -x /tmp/mpiprefix/usr/bin/mpirun ]; then
  mkdir -p /tmp/mpiprefix
  for d in "$carry"/mpidebs/*.deb; do dpkg -x "$d" /tmp/mpiprefix; done
  for t in mpirun mpiexec; do ln -sf $t.openmpi /tmp/mpiprefix/usr/bin/$t; done
fi
export OPAL_PREFIX=/tmp/mpiprefix/usr
export PATH=/tmp/mpiprefix/usr/bin:$PATH
export LD_LIBRARY_PATH=/tmp/mpiprefix/usr/lib/x86_64-linux-gnu:/tmp/mpiprefix/usr/lib/x86_64-linux-gnu/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
# the carried PMIx's zlib component does not load there: quiet its notes
export PMIX_MCA_mca_base_component_show_load_errors=0 PMIX_MCA_pcompress_base_silence_warning=1

B=/tmp/build-4
mkdir -p $B/bench
# the large binaries may come gzipped (the carry's 64 MiB)
for f in "$carry"/prebuilt/*.gz; do
  [ -e "$f" ] && { gzip -dc "$f" >"$B/$(basename "${f%.gz}")"; chmod +x "$B/$(basename "${f%.gz}")"; }
done
[ -e "$carry"/prebuilt/warpmatch-mpi ] && cp "$carry"/prebuilt/warpmatch-mpi $B/
# the plain tool, or the MPI build in its place (outside mpirun it is the same program)
cp "$carry"/prebuilt/warpmatch $B/ 2>/dev/null || cp $B/warpmatch-mpi $B/warpmatch
cp "$carry"/prebuilt/gen_* "$carry"/prebuilt/bench_h2d $B/bench/
cp "$carry"/prebuilt/bench_seqfile $B/bench/ 2>/dev/null
W=$B/warpmatch
ngpu=$(nvidia-smi -L | wc -l)
all=$(seq -s, 0 $((ngpu - 1)))
counts=$(printf '1\n2\n%s\n' "$ngpu" | sort -un | tr '\n' ' ') # 1 2 N, each once
log "device: $ngpu x $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1);" \
    "$(nproc) CPUs, $(grep MemTotal /proc/meminfo | awk '{printf "%.0f GiB", $2 / 1048576}');" \
    "$(mpirun --version 2>&1 | head -1); tree ${WM_TREE:-unknown}"
$W info | tee -a "$out/four.log"
$B/warpmatch-mpi info >/dev/null || { log "warpmatch-mpi does not start"; exit 1; }

in=/dev/shm/wm4
mkdir -p $in
chrx_gz=$carry/dna/human_GRCh37_chrX_first70Mb.fa.gz
ecoli_gz=$carry/dna/ecoli_k12_mg1655.fa.gz
ecg=$carry/timeseries/ecg/mitdb100.csv.gz

if want prep; then
  t0=$(date +%s)
  [ -s $in/chrx.fa ] || zcat "$chrx_gz" >$in/chrx.fa
  [ -s $in/ecoli.fa ] || zcat "$ecoli_gz" >$in/ecoli.fa
  [ -s $in/reads_chrx.fa ] ||
    $B/bench/gen_reads reads 1000000 150 150 3 $in/chrx.fa 17002 $in/reads_chrx.fa $in/reads_chrx.truth.tsv
  $B/bench/gen_pairs slice "$chrx_gz" 30000000 10000 $in/slice10k.seq &&
    $B/bench/gen_pairs mutate $in/slice10k.seq $in/query10k.txt 7 0.02 0.02 1
  [ -s $in/pairs_a.fa ] ||
    $B/bench/gen_pairs reads "$ecoli_gz" 10000000 150 0.10 42 $in/pairs_a.fa $in/pairs_b.fa
  zcat "$ecg" | awk -F, -v dir=$in 'NR > 2 { m[n] = $1; v[n++] = $2 }
    END { for (i = 0; i < 4194304; i++) print m[i % n] > (dir "/series4m.txt");
          for (q = 0; q < 4000; q++) { o = (100003 + q * 5003) % (n - 128); l = "";
              for (j = 0; j < 128; j++) l = l (j ? " " : "") v[o + j]; print l > (dir "/q4000.txt") } }'
  log "prep in $(($(date +%s) - t0)) s: $(ls -la $in | awk 'NR > 1 {printf "%s %s; ", $9, $5}')"
fi

# one GPU, --gpus 0..N-1 and mpirun -np N print the same bytes; then memcheck
s=/dev/shm/wm4s
cases=("search -k 2 GATTACAGATTACA data/lambda_phage.fa"
       "search -f $s/reads.fa -k 4 --revcomp $in/ecoli.fa"
       "search -c -k 1 GATTACAGATTACA $in/chrx.fa"
       "search -k 2 GATTACAGATTACA $s/plain.seq"
       "align --cigar $s/q1k.txt $in/ecoli.fa"
       "align --mode global --pairs --cigar $s/a.fa $s/b.fa"
       "dtw --top 3 $s/q100.txt $s/s256k.txt")
if want check; then
  log "check: small inputs, one GPU against $ngpu GPUs and $ngpu ranks"
  mkdir -p $s
  $B/bench/gen_reads reads 2000 150 150 3 $in/ecoli.fa 5 $s/reads.fa $s/truth.tsv 2>/dev/null
  $B/bench/gen_pairs reads "$ecoli_gz" 20000 150 0.10 9 $s/a.fa $s/b.fa 2>/dev/null
  head -100 $in/q4000.txt >$s/q100.txt
  head -262144 $in/series4m.txt >$s/s256k.txt
  head -c 1000 $in/query10k.txt >$s/q1k.txt
  # a plain file, staged with pread in one process and by each rank
  grep -v '>' $in/chrx.fa | tr -d '\n' | head -c 300000000 >$s/plain.seq
  for c in "${cases[@]}"; do
    $W $c --backend cuda --no-progress >/tmp/one.out 2>/tmp/one.err
    rc1=$?
    ref=$(md5sum </tmp/one.out | cut -c1-12)
    line="[$c] rc $rc1, $(wc -l </tmp/one.out) lines, one GPU $ref:"
    for n in ${counts#1 }; do
      $W $c --backend cuda --no-progress --gpus $(seq -s, 0 $((n - 1))) >/tmp/many.out 2>/dev/null
      line="$line gpus$n $([ "$(md5sum </tmp/many.out | cut -c1-12)" = "$ref" ] && echo same || echo DIFFERENT)"
      rm -f /tmp/many.out
      mpirun -np $n --bind-to none $B/warpmatch-mpi $c --backend cuda --no-progress \
        --output /tmp/many.out >/dev/null 2>&1
      line="$line np$n $([ "$(md5sum </tmp/many.out | cut -c1-12)" = "$ref" ] && echo same || echo DIFFERENT)"
    done
    timeout 300 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 5 \
      $W $c --backend cuda --no-progress --gpus $all >/tmp/san.out 2>/tmp/san.err
    rc=$?
    line="$line; memcheck --gpus $all rc $rc $(grep -h 'ERROR SUMMARY' /tmp/san.out /tmp/san.err | head -1)"
    line="$line $([ "$(grep -v '^=========' /tmp/san.out | md5sum | cut -c1-12)" = "$ref" ] && echo "(same bytes)" || echo "(other bytes)")"
    echo "$line" | tee -a "$out/four.log"
    grep -h -A3 "Invalid\|Race\|ERROR" /tmp/san.err | head -20 >>"$out/sanitizer.log"
  done
  for c in "${cases[0]}" "${cases[6]}"; do
    timeout 300 compute-sanitizer --tool racecheck --error-exitcode 99 --print-limit 5 \
      $W $c --backend cuda --no-progress --gpus $all >/tmp/san.out 2>&1
    echo "racecheck --gpus $all [$c]: rc $? $(grep -h 'RACECHECK SUMMARY' /tmp/san.out | head -1)" |
      tee -a "$out/four.log"
  done
fi
if want check || want mpisan; then
  for c in "${cases[1]}" "${cases[3]}"; do
    timeout 300 mpirun -np $ngpu --bind-to none compute-sanitizer --tool memcheck --error-exitcode 99 \
      $B/warpmatch-mpi $c --backend cuda --no-progress --output /tmp/np.out >/tmp/san.out 2>&1
    rc=$?
    log "mpirun -np $ngpu compute-sanitizer memcheck [$c]: rc $rc;" \
        "$(grep -c 'ERROR SUMMARY: 0 errors' /tmp/san.out) of $ngpu ranks with 0 errors"
  done
fi

if want clitests; then
  $B/test_api_thread >"$out/test_api_thread.log" 2>&1
  log "test_api_thread rc=$?: $(head -1 "$out/test_api_thread.log"); $(tail -1 "$out/test_api_thread.log")"
  for t in test_dtw test_cover test_global; do
    bash tests/cli/$t.sh $W . >"$out/$t.log" 2>&1
    log "$t.sh (CUDA tool) rc=$?: $(tail -1 "$out/$t.log")"
  done
fi

if want floors; then
  log "floors"
  nvidia-smi topo -m | tee -a "$out/four.log"
  for g in $(seq 0 $((ngpu - 1))); do
    echo "GPU $g alone: $(CUDA_VISIBLE_DEVICES=$g $B/bench/bench_h2d 1024 9 | head -1)" | tee -a "$out/four.log"
  done
  for g in $(seq 0 $((ngpu - 1))); do
    CUDA_VISIBLE_DEVICES=$g $B/bench/bench_h2d 1024 41 >/tmp/h2d_$g.txt &
  done
  wait
  for g in $(seq 0 $((ngpu - 1))); do
    echo "GPU $g, all $ngpu at once: $(head -1 /tmp/h2d_$g.txt)" | tee -a "$out/four.log"
  done
  python3 - <<'EOF' 2>&1 | tee -a "$out/four.log"
import os, time, torch
torch.set_num_threads(os.cpu_count())
n = 8 << 30
a = torch.ones(n, dtype=torch.uint8); b = torch.empty_like(a); b.copy_(a)
ts = []
for _ in range(5):
    t = time.perf_counter(); b.copy_(a); ts.append(time.perf_counter() - t)
ts.sort()
print("host memcpy, %d threads, 8 GiB: median %.3f s = %.1f GB/s copied (%.1f GB/s read + written)"
      % (torch.get_num_threads(), ts[2], n / ts[2] / 1e9, 2 * n / ts[2] / 1e9))
EOF
fi

if want compute; then
  log "strong scaling, compute-bound workloads"
  DIST_IN=$in DIST_WORK=${DIST_WORK:-setk,align10k,pairs,dtw} DIST_GPUS="$counts" \
    bash bench/run_dist.sh $B "$chrx_gz" "$out/compute" 2>&1 | tee -a "$out/four.log"
fi

if want searchtest; then  # the prebuilt test_search_diff, CUDA contexts included
  log "test_search_diff (scale ${SEARCH_SCALE:-1})"
  (cd $B && WM_TEST_SCALE=${SEARCH_SCALE:-1} "$OLDPWD/$carry/prebuilt/test_search_diff") >"$out/search_diff.log" 2>&1
  log "test_search_diff rc=$?: $(grep -h '^cuda' "$out/search_diff.log") $(tail -1 "$out/search_diff.log")"
fi

if want search; then
  log "strong scaling, search over 32 GiB in /dev/shm"
  DIST_IN=$in DIST_WORK=${DIST_WORK_SEARCH:-exact,k2,set16k,dense} DIST_GPUS="$counts" \
    DIST_REPS=${DIST_REPS:-3} bash bench/run_dist.sh $B "$chrx_gz" "$out/search" 2>&1 | tee -a "$out/four.log"
  text=/dev/shm/wm_dist_text.seq
  pat=$($B/bench/gen_text pattern $text 32 7)
  for k in 0 2; do
    for r in 1 2 3; do
      t0=$(date +%s.%N)
      $W search -c -k $k --backend cpu --no-progress "$pat" $text >/tmp/cpu.out 2>/dev/null
      echo "cpu backend, $(nproc) threads, search -c -k $k: $(awk -v a=$t0 -v b=$(date +%s.%N) \
        'BEGIN{printf "%.3f", b - a}') s, $(cat /tmp/cpu.out)" | tee -a "$out/four.log"
    done
  done
fi
# ab_run LABEL ROUND BUILD_DIR [ENV...]: AB_WORK at 1, 2, N GPUs, one round,
# its table rows labelled into four.log
ab_run() {
  local label=$1 round=$2 b=$3
  shift 3
  env "$@" DIST_IN=$in DIST_WORK=${AB_WORK:-pairs} DIST_MODES=${AB_MODES:-mpi} DIST_GPUS="$counts" \
    DIST_REPS=${AB_REPS:-1} DIST_REPS_LONG=1 \
    bash bench/run_dist.sh $b "$chrx_gz" "$out/ab_${label}_$round" 2>&1 | grep -E "^[a-z0-9]+ +(mpi|gpus) " |
    sed "s/^/$label round $round: /" | tee -a "$out/four.log"
}
if want pairsab; then
  rev=${AB_REV:?AB_REV names the earlier build}
  mkdir -p $B-$rev
  ln -sfn $B/bench $B-$rev/bench
  # the MPI build is the plain tool too outside mpirun
  cp $B/warpmatch-mpi-$rev $B-$rev/warpmatch-mpi && cp $B/warpmatch-mpi-$rev $B-$rev/warpmatch
  log "${AB_WORK:-pairs} (${AB_MODES:-mpi}): $rev against this tree, alternating"
  for r in $(seq ${AB_ROUNDS:-3}); do
    ab_run $rev $r $B-$rev
    ab_run new $r $B
  done
fi

if want envab; then
  log "${AB_WORK:-pairs} (${AB_MODES:-mpi}): as is against with ${AB_ENV:?AB_ENV names the settings}"
  read -r -a settings <<<"$AB_ENV"
  for r in $(seq ${AB_ROUNDS:-3}); do
    ab_run plain $r $B
    ab_run env $r $B "${settings[@]}"
  done
fi

if want parse; then
  log "the FASTA parser on 1, 4, 16 and $(nproc) threads (median of 3)"
  for f in $in/pairs_a.fa $in/chrx.fa; do
    $B/bench/bench_seqfile -l 1,4,16,$(nproc) -r 3 $f 2>&1 | sed "s|^|$(basename $f): |" | tee -a "$out/four.log"
  done
fi

if want searchab; then
  log "search over 32 GiB in /dev/shm, staged from the mapping (WM_STAGE_MAPPED=1)"
  WM_STAGE_MAPPED=1 DIST_IN=$in DIST_WORK=exact,k2 DIST_GPUS="$counts" DIST_REPS=${DIST_REPS:-3} \
    bash bench/run_dist.sh $B "$chrx_gz" "$out/search_mapped" 2>&1 | tee -a "$out/four.log"
fi
log "done"
