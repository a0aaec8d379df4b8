#!/usr/bin/env bash
# gpu_setk_ab.sh -- issue 17's reads on the lent GPU: this tree's CUDA
# backend beside a baseline build of an earlier tree, the CPU backend and
# RazerS 3, in one call on one host.
#
#   OUT=DIR bash bench/gpu_setk_ab.sh MODES CARRY
#
# MODES, comma separated, in this order:
#   build  this tree with CUDA (sm_90, MPI off, bench on) into /tmp/b-setk:
#          warpmatch, gen_reads and the set's unit tests
#   test   tests/cli/test_set_k_backends.sh (CPU against CUDA), the units
#          (test_setk_gpu_finish, test_setk_planes, test_api_sets), and
#          compute-sanitizer memcheck and racecheck on 300 reads of E. coli
#          (bench/setk_prep.sh's)
#   cover  tests/cli/test_cover.sh with the CUDA backend: sets whose CPU
#          part builds the host's seed table, which the GPU then uploads
#   bench  bench/setk_prep.sh -n READS, then for each genome (E. coli, the
#          70 Mb chrX sample): `warpmatch search -f READS -k 4 --revcomp
#          [--best-per-locus] -j NPROC GENOME` with --backend cuda (this
#          tree and the baseline, alternating, REPEATS runs each, median)
#          and --backend cpu (one run), the md5 of every output compared,
#          WM_CUDA_TIMING=1's split of each tree's last run logged; then
#          razers3 -i 97 -rr 100 -m 100000 -tc NPROC once, its rows counted
#   auto   --backend auto beside cpu and cuda (this tree, REPEATS runs each,
#          median, md5s): the bench's 10^6 reads (listing), their first 10^5
#          and 10^4, and 10,000 guides (20 nt + NGG of chrX sites, 0-2
#          planted mismatches: bench/setk_guides.py, seed 5) with
#          --hamming -k 4 --exact-suffix 3 --revcomp; --explain-backend's
#          choice logged
#
#   split  where a run's wall clock goes (tree's CUDA build only): chrX
#          listing and --best-per-locus, E. coli listing, the 10,000 guides,
#          each REPEATS runs under WM_CUDA_TIMING=1; beside each run's wall
#          time, the time before main (the loader) and after it (exit's
#          teardown), from main's own clock line; --backend auto on chrX too
#
# CARRY (carry list [".gpus"], about 37 MB):
#   the compression libraries' -dev .debs (bench/gpu_zlib.sh)
#   dna/ecoli_k12_mg1655.fa.gz, dna/human_GRCh37_chrX_first70Mb.fa.gz
#   setk/*.deb           bench/peers/fetch_setk_debs.sh's (RazerS 3)
#   old/warpmatch.gz     the baseline's CLI (CUDA, sm_90), old/TREE its commit
# Environment: READS [1000000], REPEATS [3], GENOMES [ecoli,chrx];
# PREBUILT=DIR: no build mode, DIR's warpmatch.gz and gen_reads.gz (a CUDA
# build for sm_90 made elsewhere) unpacked into /tmp/b-setk instead; WM_BIN:
# the CLI that split runs [/tmp/b-setk/warpmatch].
# $OUT gets ab.log (every step, time and md5), build.log, tests.log,
# cover.log, san.log, and the split lines in timing.log.
set -u
modes=",${1:-build,test,bench},"
carry=${2:-.gpus}
out=${OUT:-gpu-out}
mkdir -p "$out"
B=/tmp/b-setk
W=$B/warpmatch
if [ -n "${PREBUILT:-}" ]; then
  mkdir -p $B/bench
  gzip -dc "$PREBUILT/warpmatch.gz" > $W && gzip -dc "$PREBUILT/gen_reads.gz" > $B/bench/gen_reads &&
    chmod +x $W $B/bench/gen_reads || exit 1
fi
W=${WM_BIN:-$W}
jobs=$(nproc)
reads=${READS:-1000000}
reps=${REPEATS:-3}
GENOMES=${GENOMES:-ecoli,chrx}
log() { echo "== $*" | tee -a "$out/ab.log"; }
now() { date +%s%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'; } # seconds since $1

extra=()
source bench/gpu_zlib.sh

if [[ $modes == *,build,* ]]; then
  log "device: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1); $jobs CPUs; /tmp on $(df -T /tmp | awk 'NR==2{print $2}'); tools: $(command -v strace perf | tr '\n' ' ')"
  t0=$(now)
  cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DWARPMATCH_MPI=OFF -DWARPMATCH_BENCH=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90-real "${extra[@]}" > "$out/build.log" 2>&1 &&
    cmake --build $B -j"$jobs" --target warpmatch_cli gen_reads test_setk_gpu_finish \
      test_setk_planes test_api_sets >> "$out/build.log" 2>&1
  rc=$?
  log "build rc=$rc in $(since $t0) s"
  [ $rc -eq 0 ] || { tail -30 "$out/build.log"; exit 1; }
fi

gunzip_once() { [ -s "$2" ] || gzip -dc "$1" > "$2"; }
gunzip_once "$carry/dna/ecoli_k12_mg1655.fa.gz" /tmp/ecoli.fa

if [[ $modes == *,test,* ]]; then
  log "test_set_k_backends.sh (CPU against CUDA)"
  WM_SHARED_DATA=$(cd "$carry" && pwd) bash tests/cli/test_set_k_backends.sh $W . > "$out/tests.log" 2>&1
  echo "rc=$? $(tail -1 "$out/tests.log")" | tee -a "$out/ab.log"
  grep -E "FAIL" -A6 "$out/tests.log" | head -30 | tee -a "$out/ab.log"
  for t in test_setk_gpu_finish test_setk_planes test_api_sets; do
    $B/tests/$t >> "$out/tests.log" 2>&1
    echo "$t rc=$? $(tail -1 "$out/tests.log")" | tee -a "$out/ab.log"
  done
  log "compute-sanitizer on 300 reads of E. coli, k = 4, both strands, listing and --best-per-locus"
  # 300 reads of E. coli (bench/setk_prep.sh's: planted edits, both strands)
  CARRY=$carry bash bench/setk_prep.sh -b $B -n 300 -g 10 -p 10 /tmp/sk300 > /dev/null 2>&1
  cp /tmp/sk300/reads_ecoli.fa /tmp/ecoli300.fa
  for extra in "" "--best-per-locus"; do
    $W search --backend cpu -k 4 --revcomp $extra -f /tmp/ecoli300.fa /tmp/ecoli.fa > /tmp/cpu300.out
    for tool in memcheck racecheck; do
      timeout 300 compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 5 \
        --log-file /tmp/san.log $W search --backend cuda -k 4 --revcomp $extra \
        --chunk-bytes 1M -f /tmp/ecoli300.fa /tmp/ecoli.fa > /tmp/san300.out
      rc=$?
      cat /tmp/san.log >> "$out/san.log"
      cmp -s /tmp/cpu300.out /tmp/san300.out && same="the CPU's bytes" || same="DIFFERS from the CPU"
      log "$tool ${extra:-listing}: rc=$rc, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | tail -1), $(wc -l < /tmp/san300.out) rows, $same"
    done
  done
fi

if [[ $modes == *,cover,* ]]; then
  log "test_cover.sh (the CPU covering the GPU's start-up, sets included)"
  WM_SHARED_DATA=$(cd "$carry" && pwd) bash tests/cli/test_cover.sh $W . > "$out/cover.log" 2>&1
  echo "rc=$? $(tail -1 "$out/cover.log")" | tee -a "$out/ab.log"
  grep -E "FAIL" -A4 "$out/cover.log" | head -20 | tee -a "$out/ab.log"
fi

if [[ $modes == *,bench,* ]]; then
  gunzip_once "$carry/old/warpmatch.gz" /tmp/warpmatch-old
  chmod +x /tmp/warpmatch-old
  log "baseline: tree $(cat "$carry/old/TREE"); this tree: $(git rev-parse --short HEAD 2>/dev/null || echo '?') (the copy's git metadata)"
  t0=$(now)
  CARRY=$carry bash bench/setk_prep.sh -b $B -n "$reads" -g 10 -p 10 /tmp/sk > "$out/prep.log" 2>&1 ||
    { log "setk_prep failed"; tail "$out/prep.log"; exit 1; }
  log "inputs: $reads reads a genome ($(since $t0) s)"
  declare -A genome=([ecoli]=/tmp/sk/ecoli.fa [chrx]=/tmp/sk/chrx.fa)
  one() { # TAG BIN ARGS...: one run, wall seconds into $sec, md5 into $sum
    local tag=$1 bin=$2
    shift 2
    rm -f /tmp/ab.out # not truncated by the shell inside the timing
    local t0=$(now)
    WM_CUDA_TIMING=1 "$bin" search "$@" > /tmp/ab.out 2> /tmp/ab.err
    local rc=$?
    sec=$(since $t0)
    sum=$(md5sum < /tmp/ab.out | cut -c1-12)
    rows=$(wc -l < /tmp/ab.out)
    [ $rc -eq 0 ] || log "$tag: rc=$rc $(head -c 300 /tmp/ab.err)"
    { echo "-- $tag"; grep -v '^warpmatch: note' /tmp/ab.err; } >> "$out/timing.log"
  }
  median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
  write_floor() { # FILE: writing as many bytes into a new file of /tmp, 3 times (any tool's floor)
    local mb=$(($(stat -c %s "$1") >> 20)) t=()
    for r in 1 2 3; do
      rm -f /tmp/dd.out
      local t0=$(now)
      dd if=/dev/zero of=/tmp/dd.out bs=1M count=$mb status=none
      t+=("$(since $t0)")
    done
    rm -f /tmp/dd.out
    log "  the output's write floor: $mb MiB into a new file of /tmp by dd: ${t[*]} s"
  }
  for g in ${GENOMES//,/ }; do
    for extra in "" "--best-per-locus"; do
      args=(-k 4 --revcomp $extra -j "$jobs" -f /tmp/sk/reads_$g.fa "${genome[$g]}")
      new=() old=()
      for r in $(seq "$reps"); do
        one "$g ${extra:-listing} new cuda run $r" $W --backend cuda "${args[@]}"
        new+=("$sec"); new_sum=$sum new_rows=$rows
        one "$g ${extra:-listing} old cuda run $r" /tmp/warpmatch-old --backend cuda "${args[@]}"
        old+=("$sec"); old_sum=$sum
      done
      one "$g ${extra:-listing} new cpu" $W --backend cpu "${args[@]}"
      cpu_sec=$sec cpu_sum=$sum
      log "$g ${extra:-listing}: cuda new $(median "${new[@]}") s [${new[*]}], old $(median "${old[@]}") s [${old[*]}], cpu $cpu_sec s; $new_rows rows, md5 new $new_sum old $old_sum cpu $cpu_sum"
      write_floor /tmp/ab.out
    done
  done
  if [[ -d $carry/setk ]]; then
    eval "$(bash bench/peers/unpack_debs.sh "$carry/setk" /tmp/peers)" > /dev/null 2>&1
    if command -v razers3 > /dev/null; then
      for g in ${GENOMES//,/ }; do
        t0=$(now)
        razers3 -i 97 -rr 100 -m 100000 -tc "$jobs" -o /tmp/razers.$g.razers "${genome[$g]}" \
          /tmp/sk/reads_$g.fa > /tmp/razers.log 2>&1
        rc=$?
        log "razers3 $g: rc=$rc $(since $t0) s, $(wc -l < /tmp/razers.$g.razers) rows"
      done
    else
      log "razers3 not found in $carry/setk"
    fi
  fi
fi

if [[ $modes == *,split,* ]]; then
  [ -s /tmp/sk/reads_chrx.fa ] ||
    CARRY=$carry bash bench/setk_prep.sh -b $B -n "$reads" -g 10 -p 10 /tmp/sk > "$out/prep.log" 2>&1
  [ -s /tmp/sk/guides.fa ] || python3 bench/setk_guides.py /tmp/sk/guides.fa /tmp/sk/chrx.fa 10000 5
  split() { # NAME ARGS...: REPEATS runs, each one's wall, before and after main, the split
    local name=$1
    shift
    for r in $(seq "$reps"); do
      rm -f /tmp/split.out # (truncating the last run's output took 0.1-0.2 s of the shell's)
      local t0=$(now)
      WM_CUDA_TIMING=1 $W search -j "$jobs" "$@" > /tmp/split.out 2> /tmp/split.err
      local rc=$? t1=$(now)
      local main=$(grep -m1 '^process: main from' /tmp/split.err)
      local a=$(echo "$main" | awk '{print $4}') b=$(echo "$main" | awk '{print $6}')
      log "$name run $r: rc=$rc wall $(awk -v x=$t0 -v y=$t1 'BEGIN{printf "%.3f", (y-x)/1e9}') s, before main $(awk -v x=$t0 -v a=$a 'BEGIN{printf "%.3f", a-x/1e9}') s, after main $(awk -v y=$t1 -v b=$b 'BEGIN{printf "%.3f", y/1e9-b}') s, $(wc -l < /tmp/split.out) rows, md5 $(md5sum < /tmp/split.out | cut -c1-12)"
      { echo "-- $name run $r"; grep -v '^warpmatch: note' /tmp/split.err; } >> "$out/timing.log"
    done
  }
  head -20 /tmp/sk/reads_ecoli.fa > /tmp/sk/reads10_ecoli.fa
  split "ecoli 10 reads cuda" --backend cuda -k 4 --revcomp -f /tmp/sk/reads10_ecoli.fa /tmp/sk/ecoli.fa
  split "chrx listing cuda" --backend cuda -k 4 --revcomp -f /tmp/sk/reads_chrx.fa /tmp/sk/chrx.fa
  split "chrx listing auto" --backend auto -k 4 --revcomp -f /tmp/sk/reads_chrx.fa /tmp/sk/chrx.fa
  split "chrx best-per-locus cuda" --backend cuda -k 4 --revcomp --best-per-locus -f /tmp/sk/reads_chrx.fa /tmp/sk/chrx.fa
  split "ecoli listing cuda" --backend cuda -k 4 --revcomp -f /tmp/sk/reads_ecoli.fa /tmp/sk/ecoli.fa
  split "chrx guides cuda" --backend cuda -k 4 --hamming --revcomp --exact-suffix 3 -f /tmp/sk/guides.fa /tmp/sk/chrx.fa
  split "chrx guides cpu" --backend cpu -k 4 --hamming --revcomp --exact-suffix 3 -f /tmp/sk/guides.fa /tmp/sk/chrx.fa
fi

if [[ $modes == *,auto,* ]]; then
  [ -s /tmp/sk/reads_chrx.fa ] ||
    CARRY=$carry bash bench/setk_prep.sh -b $B -n "$reads" -g 10 -p 10 /tmp/sk > "$out/prep.log" 2>&1
  declare -A genome=([ecoli]=/tmp/sk/ecoli.fa [chrx]=/tmp/sk/chrx.fa)
  for n in 100000 10000; do
    for g in ecoli chrx; do head -$((2 * n)) /tmp/sk/reads_$g.fa > /tmp/sk/reads${n}_$g.fa; done
  done
  python3 bench/setk_guides.py /tmp/sk/guides.fa /tmp/sk/chrx.fa 10000 5
  cell() { # NAME ARGS...: cpu, cuda, auto
    local name=$1
    shift
    local line="$name:"
    for be in cpu cuda auto; do
      local t=()
      for r in $(seq "$reps"); do
        rm -f /tmp/auto.out
        local t0=$(now)
        $W search --backend $be -j "$jobs" "$@" > /tmp/auto.out 2> /tmp/auto.err
        t+=("$(since $t0)")
      done
      line+=" $be $(printf '%s\n' "${t[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') s [${t[*]}] $(md5sum < /tmp/auto.out | cut -c1-12);"
    done
    log "$line $(wc -l < /tmp/auto.out) rows; auto: $($W search --explain-backend -j "$jobs" "$@" 2>&1 > /dev/null | grep -i -m1 'chose\|backend' | head -c 200)"
  }
  for g in ecoli chrx; do
    cell "$g 10^6 reads" -k 4 --revcomp -f /tmp/sk/reads_$g.fa "${genome[$g]}"
    cell "$g 10^5 reads" -k 4 --revcomp -f /tmp/sk/reads100000_$g.fa "${genome[$g]}"
    cell "$g 10^4 reads" -k 4 --revcomp -f /tmp/sk/reads10000_$g.fa "${genome[$g]}"
  done
  cell "chrx 10,000 guides + NGG" -k 4 --hamming --revcomp --exact-suffix 3 -f /tmp/sk/guides.fa /tmp/sk/chrx.fa
fi
