#!/usr/bin/env bash
# gpu_pipeline.sh -- issue 16 on the lent GPU: where the end-to-end time of
# `search` goes, file in to count out, beside the floors of the same host.
#   bash bench/gpu_pipeline.sh [CARRY]
# Builds the tool and bench_seqfile (Release, CUDA, no MPI, no tests) in
# /tmp/build-pipe, makes three inputs from the carried chrX (CARRY, default
# .gpu): 1 GiB of FASTA (16 records, 60 columns), the same sequence as one
# plain 1 GiB file, and 8 GiB of plain sequence in /dev/shm; then, each in
# the page cache: the floors (read(2) on one thread, cat to /dev/null; a
# parse on 1 and 16 threads), `search -c` of a 32-mer at k = 0..3 with
# --backend cpu and cuda (median of REPS, default 3, wall clock of the whole
# process; the CUDA runs also print WM_CUDA_TIMING's copy+search loop), and
# `warpmatch info`'s start-up. The floors beside them, from the same run:
# the pinned and pageable host-to-device copy (bench_h2d), one thread's
# read of each input (dd, 16 MiB blocks), and GNU grep -F counting the same
# 32-mer's exact occurrences (`grep -o -F | wc -l`) as the peer for k = 0.
# Logs in $OUT (pipe.log).
set -u
carry=${1:-.gpu}
out=${OUT:-gpu-out}
reps=${REPS:-3}
mkdir -p "$out"
jobs=$(nproc)
B=${B:-/tmp/build-pipe}
log() { echo "== $*" | tee -a "$out/pipe.log"; }
extra=()
source bench/gpu_zlib.sh
log "device: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1); $(nproc) cores; commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
if [ ! -x $B/warpmatch ]; then
  t0=$(date +%s)
  cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90-real -DWARPMATCH_MPI=OFF \
    -DWARPMATCH_TESTS=OFF "${extra[@]}" > "$out/build.log" 2>&1 &&
    cmake --build $B -j"$jobs" --target warpmatch_cli bench_seqfile bench_h2d >> "$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log"; exit 1; }
  log "build in $(( $(date +%s) - t0 )) s"
fi
source bench/gpu_chrx_inputs.sh
# wall ms of a command, its first output line after it
ms() { local s=$(date +%s%N); "$@" > /tmp/pp.out 2> /tmp/pp.err; local rc=$?
       echo "$(( ($(date +%s%N) - s) / 1000000 )) rc=$rc $(head -c 80 /tmp/pp.out | tr '\n\t' '  ')"; }
log_floors
for f in $fa $seq $big; do
  cat $f > /dev/null
  log "$f: $(stat -c %s $f) bytes"
  for r in 1 2 3; do echo "dd bs=16M (one thread's read): $(ms dd if=$f of=/dev/null bs=16M)"; done | tee -a "$out/pipe.log"
  if [ $f != $big ]; then # a line of 9 GB is more than grep is for
    for r in 1 2 3; do echo "peer grep -o -F | wc -l: $(ms sh -c "grep -o -F $pat $f | wc -l")"; done | tee -a "$out/pipe.log"
  fi
  [ $f = $fa ] && $B/bench/bench_seqfile -t 16 -r 3 $f 2>&1 | tee -a "$out/pipe.log"
  for k in 0 1 2 3; do
    for be in cpu cuda; do
      rm -f /tmp/pp.ms
      for r in $(seq $reps); do
        line=$(WM_CUDA_TIMING=1 ms $B/warpmatch search -c -k $k --backend $be $pat $f)
        echo "${line%% *}" >> /tmp/pp.ms
        echo "  k=$k $be: $line | $(grep -h 'cuda search' /tmp/pp.err | head -1)" >> "$out/pipe_runs.log"
      done
      echo "k=$k --backend $be: median $(med < /tmp/pp.ms) ms of $(tr '\n' ' ' < /tmp/pp.ms)| $(grep -h 'cuda search' /tmp/pp.err | head -1)" | tee -a "$out/pipe.log"
    done
  done
done
