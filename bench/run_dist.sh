#!/usr/bin/env bash
# run_dist.sh -- issue 7's benchmarks: strong scaling over 1, 2 and 4 GPUs of
# one host, as MPI ranks (`mpirun -np N warpmatch-mpi ...`) and as one process
# (`warpmatch --gpus 0,1,...`), over a text held in host memory (/dev/shm).
#
#   bash bench/run_dist.sh BUILD_DIR SOURCE_FASTA_GZ [OUT_DIR]
#
# Env: DIST_BYTES [32G] text size; DIST_GPUS ["1 2 4"]; DIST_REPS [3];
#      DIST_REPS_LONG [1] runs of the long workloads (setk, pairs, dtw);
#      DIST_WORK [exact,k2,set16k,align1k,dense] the workloads;
#      DIST_MODES [mpi,gpus] how the GPUs are used;
#      WM_STAGE_MAPPED=1 (passed to the ranks too) stages a text from its
#      mapping instead of reading the file with pread (the rows before it);
#      DIST_IN the inputs of setk, align10k, pairs and dtw (bench/gpu_four.sh
#      prep makes them); DIST_BACKEND [cuda] (cpu: to try the script on a
#      machine with no GPU, --gpus then cuts CPU shards).
# The text: the source's sequence (chrX) repeated to DIST_BYTES, plain bytes,
# in /dev/shm (kept between calls on a warm machine). Workloads:
#   exact    search, a 32-base pattern cut from the text, exact
#   k2       the same pattern, -k 2
#   set16k   search -c -f 16,000 DNA 8-mers cut from the text
#   align1k  align (infix) of a 1,024-base query cut from the text
#   dense    search, a 5-base pattern (ACGTA: one match per 6,200 bytes of chrX),
#            every match listed: the merge at dense output
#   setk     search -f of 1,000,000 reads of 150 bp (<= 3 planted edits), k = 4,
#            both strands, against the 70 Mb chrX sample (issue 17's workload)
#   align10k align (infix) of a 10,000-base query against the chrX sample
#   pairs    align --mode global --pairs --cigar of 10,000,000 pairs of 150 bp
#   dtw      dtw of 4,000 queries of 128 samples against 4,194,304 samples
# Every command writes its output with --output to /dev/shm (rank 0 itself,
# not through mpirun's forwarding); its md5 is the last column.
# Each run prints rank 0's "timing:" line (WM_DIST_TIMING=1: read, search,
# merge, the slowest rank's seconds) and the wall time of the whole command
# (process start, MPI and CUDA start-up included). The median of DIST_REPS
# runs is reported; efficiency = T1 / (N * TN) on the in-job total.
set -u
build=${1:?build dir}
src=${2:?source FASTA.gz}
out=${3:-dist-out}
mkdir -p "$out"
bytes=${DIST_BYTES:-32G}
gpus_list=${DIST_GPUS:-1 2 4}
reps=${DIST_REPS:-3}
work=${DIST_WORK:-exact,k2,set16k,align1k,dense}
modes=${DIST_MODES:-mpi,gpus}
W=$build/warpmatch
ncores=$(nproc)
text=/dev/shm/wm_dist_text.seq
want() { [[ ",$2," == *",$1,"* ]]; }

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none

echo "== device"
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
lscpu | grep -E "Model name|^CPU\(s\)"
mpirun --version | head -1

in=${DIST_IN:-/dev/shm/wm4}
needs_text=0
for w in exact k2 set16k align1k dense; do want $w "$work" && needs_text=1; done
if [ $needs_text = 1 ]; then
if [ ! -f $text ] || [ "$(stat -c %s $text)" != "$(numfmt --from=iec $bytes)" ]; then
  t0=$(date +%s.%N)
  "$build/bench/gen_text" dna "$src" "$bytes" $text 2>/dev/null || { echo "gen_text failed"; exit 1; }
  echo "text: $(stat -c %s $text) bytes in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s"
fi
pat32=$("$build/bench/gen_text" pattern $text 32 7)
pat5=ACGTA
"$build/bench/gen_text" pattern $text 1024 11 | tr -d '\n' > "$out/query1k.txt"
if [ ! -f "$out/kmers16k.txt" ]; then
  head -c 200000000 $text > /tmp/wm_dist_sample.seq
  "$build/bench/gen_patterns" dna-kmers 16000 8 /tmp/wm_dist_sample.seq 5 > "$out/kmers16k.txt"
fi
echo "pattern32 $pat32; dense pattern $pat5; query 1,024 bases; 16,000 8-mers"
echo "floor: host-to-device copy of the whole text at 55 GB/s per GPU ="\
     "$(awk -v b="$(stat -c %s $text)" 'BEGIN{printf "%.3f", b/55e9}') s on one GPU"
fi

args_for() {
  case $1 in
    exact)   echo "search $pat32 $text" ;;
    k2)      echo "search -k 2 $pat32 $text" ;;
    set16k)  echo "search -c -f $out/kmers16k.txt $text" ;;
    align1k) echo "align $out/query1k.txt $text" ;;
    dense)   echo "search $pat5 $text" ;;
    setk)    echo "search -f $in/reads_chrx.fa -k 4 --revcomp $in/chrx.fa" ;;
    align10k) echo "align $in/query10k.txt $in/chrx.fa" ;;
    pairs)   echo "align --mode global --pairs --cigar $in/pairs_a.fa $in/pairs_b.fa" ;;
    dtw)     echo "dtw $in/q4000.txt $in/series4m.txt" ;;
  esac
}
reps_for() { case $1 in setk|pairs|dtw) echo "${DIST_REPS_LONG:-1}" ;; *) echo "$reps" ;; esac; }

# one run: prints "wall_s timing-line"; output to /dev/null, first line kept
run_one() {  # mode ngpu workload
  local mode=$1 n=$2 w=$3 devs threads=$(( ncores / $2 )) cmd
  devs=$(seq -s, 0 $(( n - 1 )))
  if [ "$mode" = mpi ]; then
    cmd=(mpirun -np "$n" --bind-to none -x WM_DIST_TIMING=1 -x WM_CUDA_TIMING=1)
    [ -n "${WM_STAGE_MAPPED:-}" ] && cmd+=(-x WM_STAGE_MAPPED)
    cmd+=("$W-mpi")  # the MPI build
  else
    cmd=(env WM_DIST_TIMING=1 WM_CUDA_TIMING=1 "$W")
  fi
  local a=( $(args_for "$w") )
  local sub=${a[0]}
  a=("${a[@]:1}")
  local be=${DIST_BACKEND:-cuda}
  local extra=(--backend "$be" -j "$threads")
  [ "$mode" = gpus ] && extra=(--backend "$be" -j "$ncores" --gpus "$devs")
  extra+=(--no-progress --output /dev/shm/wm_dist_out)
  rm -f /dev/shm/wm_dist_out
  local s=$(date +%s.%N)
  "${cmd[@]}" "$sub" "${extra[@]}" "${a[@]}" > /tmp/wm_dist_stdout 2> /tmp/wm_dist_err
  local rc=$? e=$(date +%s.%N)
  local wall=$(awk -v a="$s" -v b="$e" 'BEGIN{printf "%.3f", b-a}')
  local timing=$(grep '^timing:' /tmp/wm_dist_err | tail -1)
  { echo "-- $mode $n $w"; grep -v '^timing:' /tmp/wm_dist_err | head -40; } >> "$out/dist_runs.log"
  [ -s /tmp/wm_dist_stdout ] && echo "  (stdout not empty with --output)" >> "$out/dist_runs.log"
  local first=$(head -c 200 /dev/shm/wm_dist_out | head -1)
  local lines=$(wc -l < /dev/shm/wm_dist_out)
  [ $rc -le 1 ] || { echo "FAILED rc=$rc: ${cmd[*]} $sub ${extra[*]} ${a[*]}"; head -5 /tmp/wm_dist_err; }
  echo "$wall|$timing|$lines|$first|$(md5sum < /dev/shm/wm_dist_out | cut -c1-12)"
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf "%-8s %-5s %4s %10s %10s %10s %10s %10s %8s %9s %s\n" workload mode gpus "wall s" "read s" \
       "search s" "merge s" "total s" "eff" "lines" "output md5"
for w in ${work//,/ }; do
  for mode in ${modes//,/ }; do
    t1=""
    for n in $gpus_list; do
      walls=(); totals=(); reads=(); searches=(); merges=(); line=""
      for r in $(seq "$(reps_for "$w")"); do
        line=$(run_one "$mode" "$n" "$w")
        IFS='|' read -r wall timing lines first md5 <<< "$line"
        walls+=("$wall")
        totals+=("$(echo "$timing" | sed -E 's/.* total ([0-9.]+).*/\1/')")
        reads+=("$(echo "$timing" | sed -E 's/.* read ([0-9.]+).*/\1/')")
        searches+=("$(echo "$timing" | sed -E 's/.* search ([0-9.]+).*/\1/')")
        merges+=("$(echo "$timing" | sed -E 's/.* merge ([0-9.]+).*/\1/')")
        echo "  run: $w $mode $n: wall $wall; $timing" >> "$out/dist_runs.log"
      done
      mw=$(printf "%s\n" "${walls[@]}" | median)
      mt=$(printf "%s\n" "${totals[@]}" | median)
      mr=$(printf "%s\n" "${reads[@]}" | median)
      ms=$(printf "%s\n" "${searches[@]}" | median)
      mm=$(printf "%s\n" "${merges[@]}" | median)
      [ -z "$t1" ] && t1=$mt
      eff=$(awk -v a="$t1" -v n="$n" -v b="$mt" 'BEGIN{ if (b > 0) printf "%.2f", a/(n*b) }')
      printf "%-8s %-5s %4s %10s %10s %10s %10s %10s %8s %9s %s\n" "$w" "$mode" "$n" "$mw" "$mr" \
             "$ms" "$mm" "$mt" "$eff" "$lines" "$md5"
    done
  done
done
