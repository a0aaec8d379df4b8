#!/usr/bin/env bash
# gpu_session.sh -- what one call on the lent GPU machine runs: build for
# Hopper, the test suite (the CUDA backend included), compute-sanitizer on
# small cases, the instruction mix of the kernels, and the benchmarks.
# Logs go to $OUT (or ./gpu-out).
#   bash bench/gpu_session.sh MODE[,MODE...] [CARRY_DIR]
#   MODE: test | sass | bench | e2e | peers | grid | multi | mpeers | align |
#         apeers | global | gpeers | dtw | dist | distbench | all
#   (dist: issue 7 on a host with several GPUs -- test_shard_diff and
#   test_seqrange, the MPI test suite with the CUDA backend (ranks take GPUs
#   local rank mod count), --gpus and mpirun outputs compared with one GPU on
#   a 2 GiB text, compute-sanitizer on a 4-GPU --gpus search; distbench:
#   bench/run_dist.sh, strong scaling over 1, 2, 4 GPUs (DIST_* passed on).)
#   (dtw: issue 6 -- test_dtw_diff with CUDA, the dtw ctests, compute-sanitizer
#   on bench_dtw's small runs, then bench_dtw on the GPU and the CPU, with the
#   ECG CSV.gz from CARRY_DIR; DTW_TESTS=0 / DTW_BENCH=0 skip a half,
#   DTW_MANY ["--queries 1000 --n 262144"] the many-query run, DTW_SCALE [1]
#   the test's scale, DTW_DIFF=0 skips test_dtw_diff.)
#   (multi: pattern sets on the GPU; mpeers: pattern sets on the CPU beside
#   Hyperscan, grep and rg: bench/run_multi.sh; align: `align` on the GPU --
#   its tests with CUDA, compute-sanitizer, bench_gpu_align; apeers: `align`
#   on the CPU beside edlib: bench/run_align.sh, ALIGN_ARGS passed on;
#   global: `align --mode global` (issue 5) on the GPU -- test_global_diff
#   (WM_TEST_SCALE=2) and tests/cli/test_global.sh, compute-sanitizer on small
#   single pairs and a small pairs run, then bench/run_global.sh --backend
#   cuda (prep_global.sh, bench_global grid/long/pairs beside edlib, the CLI
#   end to end) into $OUT/global_gpu/; GLOBAL_TESTS=0 skips the tests and
#   the sanitizer, GLOBAL_GPU_PARTS [grid,long,pairs,e2e] picks the parts;
#   gpeers: the same on the CPU backend (-j 1,ncores) beside edlib into
#   $OUT/global_cpu/, GLOBAL_CPU_PARTS [grid,long,pairs]; add slow (edlib
#   and one thread on rand1M) in a call of its own. Each bench_global call is
#   limited to GLOBAL_STEP_S [400] s, each sanitizer run to GLOBAL_SAN_S [90].
#   With 10 minutes a call, e.g.: GLOBAL_GPU_PARTS=grid global (tests,
#   sanitizer, grid), then GLOBAL_TESTS=0 GLOBAL_GPU_PARTS=long,pairs,e2e
#   global, then GLOBAL_CPU_PARTS=grid,long gpeers, then
#   GLOBAL_CPU_PARTS=pairs gpeers, then GLOBAL_CPU_PARTS=slow gpeers.)
# CARRY_DIR (default .gpu) holds what the machine cannot fetch: the chrX
# FASTA.gz from shared/data, for global the E. coli FASTA.gz
# (dna/ecoli_k12_mg1655.fa.gz), and Debian .debs (zlib1g-dev, the peer tools,
# edlib).
set -u
modes=${1:-all}
carry=${2:-.gpu}
out=${OUT:-gpu-out}
mkdir -p "$out"
jobs=$(nproc)
want() { [[ ",$modes," == *",$1,"* || ",$modes," == *",all,"* ]]; }
log() { echo "== $*" | tee -a "$out/session.log"; }

# zlib headers may be missing on the GPU image: unpack the carried .deb.
extra=()
source bench/gpu_zlib.sh     # zlib headers from the carried .deb when missing
# peer tools (Hyperscan, agrep, tre-agrep) from carried .debs
if { want peers || want grid || want mpeers || want multi || want apeers || want global || want gpeers; } &&
   ls "$carry"/debs/*.deb >/dev/null 2>&1; then
  eval "$(bash bench/peers/unpack_debs.sh "$carry/debs" /tmp/peerprefix)"
  extra+=(-DCMAKE_PREFIX_PATH=/tmp/peerprefix/usr)
fi

# Open MPI: the machine's own, else Debian's .debs carried in CARRY_DIR/mpidebs
# (unpacked into /tmp/mpiprefix and relocated with OPAL_PREFIX).
if ! command -v mpicc >/dev/null 2>&1 && ls "$carry"/mpidebs/*.deb >/dev/null 2>&1; then
  mkdir -p /tmp/mpiprefix
  for d in "$carry"/mpidebs/*.deb; do dpkg -x "$d" /tmp/mpiprefix; done
  for t in mpicc mpirun mpiexec; do ln -sf $t.openmpi /tmp/mpiprefix/usr/bin/$t; done
  export OPAL_PREFIX=/tmp/mpiprefix/usr
  export PATH=/tmp/mpiprefix/usr/bin:$PATH
  export LD_LIBRARY_PATH=/tmp/mpiprefix/usr/lib/x86_64-linux-gnu:/tmp/mpiprefix/usr/lib/x86_64-linux-gnu/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  extra+=(-DMPI_C_COMPILER=/tmp/mpiprefix/usr/bin/mpicc)
  echo "MPI: carried Open MPI ($(mpirun --version 2>&1 | head -1))"
else
  echo "MPI: $(command -v mpicc) ($(mpirun --version 2>&1 | head -1))"
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

log "device"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee -a "$out/session.log"
lscpu | grep -E "Model name|^CPU\(s\)" | tee -a "$out/session.log"

log "build"
t0=$(date +%s)
# Binaries built on the development machine (CARRY_DIR/prebuilt: warpmatch,
# tests/*, bench/*) save the build when they run here; else build.
if [ -x "$carry/prebuilt/warpmatch" ] && "$carry/prebuilt/warpmatch" info > /dev/null 2>&1; then
  mkdir -p build-gpu/tests build-gpu/bench
  cp "$carry/prebuilt/warpmatch" build-gpu/
  cp "$carry"/prebuilt/test_* build-gpu/tests/ 2>/dev/null
  cp "$carry"/prebuilt/gen_* "$carry"/prebuilt/bench_* build-gpu/bench/ 2>/dev/null
  echo "prebuilt binaries from $carry/prebuilt" | tee -a "$out/session.log"
  rc=0
else
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="90-real;75-virtual" "${extra[@]}" \
  > "$out/build.log" 2>&1 && cmake --build build-gpu -j"$jobs" >> "$out/build.log" 2>&1
rc=$?
fi
echo "build rc=$rc in $(( $(date +%s) - t0 )) s" | tee -a "$out/session.log"
[ $rc -eq 0 ] || { tail -40 "$out/build.log"; exit 1; }
./build-gpu/warpmatch info | tee -a "$out/session.log"

# real DNA as plain bytes (sequence only), for benchmarks
dna=/tmp/chrX.seq
[ -f $dna ] || ./build-gpu/bench/gen_text dna "$carry/human_GRCh37_chrX_first70Mb.fa.gz" 69999930 $dna 2>/dev/null

if want test; then
  log "ctest (CUDA backend included)"
  (cd build-gpu && ctest -j4 --output-on-failure) > "$out/ctest.log" 2>&1
  echo "ctest rc=$?" | tee -a "$out/session.log"
  grep -E "tests passed|tests failed|cuda:|passed, .* failed|FAIL" "$out/ctest.log" | head -40 | tee -a "$out/session.log"
  for seed in 7 8; do
    (cd build-gpu && WM_TEST_SCALE=${WM_GPU_SCALE:-3} ./tests/test_search_diff $seed) > "$out/diff_gpu_$seed.log" 2>&1
    echo "diff x${WM_GPU_SCALE:-3} seed $seed rc=$?: $(tail -1 "$out/diff_gpu_$seed.log")" | tee -a "$out/session.log"
  done

  log "compute-sanitizer (exit 0/1 = found/not found, 99 = sanitizer error)"
  for tool in memcheck racecheck; do
    for args in "-k 0 GGTTAATTAACCGGTTAACCGGTTAACCGGAATT" "--revcomp -k 0 ACGTTGCA" "-k 2 GATTACAGATTACA" \
                "-k 3 --hamming GATTACAGATTACA" "-k 4 GATTACAGATTACAGATTACAGATTACAGATTACAGATTACAGATTACAGATTACAGATTACAGATTACA"; do
      compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 5 ./build-gpu/warpmatch search --backend cuda \
        $args data/lambda_phage.fa > "$out/sanitizer_tmp.log" 2>&1
      r=$?
      echo "$tool [$args]: rc=$r $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer_tmp.log" | head -1)" | tee -a "$out/session.log"
    done
  done
fi

if want sass; then
  log "instruction mix of the search kernels (cuobjdump)"
  for f in shiftor bitap myers; do
    cuobjdump --dump-sass build-gpu/CMakeFiles/warpmatch.dir/src/search/$f.cu.o > "$out/$f.sass" 2>/dev/null
  done
fi

if want bench; then
  log "bench_gpu_search (text resident on the device)"
  ./build-gpu/bench/bench_gpu_search --dna $dna ${WM_BENCH_ARGS:-} 2>&1 | tee "$out/bench_gpu.log"
fi

if want e2e; then
  log "end to end: the CLI on a multi-GiB file in the page cache, next to reading it"
  big=/tmp/big_dna.seq
  size=${WM_E2E_BYTES:-8G}
  [ -f $big ] || ./build-gpu/bench/gen_text dna "$carry/human_GRCh37_chrX_first70Mb.fa.gz" "$size" $big 2>/dev/null
  pat=$(./build-gpu/bench/gen_text pattern $dna 32 3)
  for r in 1 2; do cat $big > /dev/null; done
  t() { local s=$(date +%s%N); "$@" > /tmp/e2e.out; local rc=$?; local e=$(date +%s%N); echo "$(( (e - s) / 1000000 )) ms rc=$rc"; }
  echo "file: $(stat -c %s $big) bytes; pattern $pat" | tee -a "$out/session.log"
  for r in 1 2 3; do echo "read (cat > /dev/null): $(t cat $big)"; done | tee -a "$out/session.log"
  for r in 1 2 3; do echo "read (wc -l, read(2)): $(t wc -l $big)"; done | tee -a "$out/session.log"
  for r in 1 2; do echo "startup (warpmatch info, CUDA init): $(t ./build-gpu/warpmatch info)"; done | tee -a "$out/session.log"
  for r in 1 2; do echo "warpmatch search -c -k 0 --backend cpu (m=32): $(t ./build-gpu/warpmatch search -c --backend cpu $pat $big) count $(cut -f2 /tmp/e2e.out)"; done | tee -a "$out/session.log"
  for args in "-k 0" "-k 1" "-k 2"; do
    for r in 1 2 3; do
      echo "warpmatch search -c $args (m=32): $(t ./build-gpu/warpmatch search -c $args $pat $big) count $(cut -f2 /tmp/e2e.out)"
    done | tee -a "$out/session.log"
  done
fi

if want peers; then
  log "CPU backend next to Hyperscan, agrep and tre-agrep on $jobs cores"
  bash bench/run_cpu.sh build-gpu $dna "$jobs" 2>&1 | tee "$out/peers.log"
fi
if want grid; then
  log "CPU backend beside Hyperscan over the whole GPU grid"
  bash bench/run_cpu_grid.sh build-gpu $dna "$jobs" 2>&1 | tee "$out/grid.log"
fi
if want multi; then
  log "pattern sets: data (bench/run_multi.sh makes it), GPU kernels with the text resident"
  W=${WORK:-.bench}
  B=${MULTI_BYTES:-1G}
  WHAT=dna,sig BYTES=$B WORK=$W PEERS="" ALGOS=auto MODES=count REPEATS=1 \
    bash bench/run_multi.sh build-gpu "$jobs" "$carry" > "$out/multi_data.log" 2>&1
  echo "data rc=$?" | tee -a "$out/session.log"
  nb=$(stat -c %s "$W/chrX_$B.txt")
  g=./build-gpu/bench/bench_gpu_multi
  for n in 1000 8000 16000; do
    for a in auto pfac ac; do
      chk=""; [ "$a" = auto ] && [ "$n" = 16000 ] && chk=--check
      log "dna 8-mers n=$n algo=$a"
      $g --text "$W/chrX_$B.txt" --patterns "$W/dna_k8_${n}_$B.txt" --bytes "$nb" --algo $a $chk 2>&1 | tee -a "$out/multi_gpu.log"
    done
  done
  nm=$(stat -c %s "$W/mixed_$B.txt")
  for n in 10000 100000; do
    for a in pfac ac qgram; do
      log "signatures n=$n algo=$a"
      $g --text "$W/mixed_$B.txt" --patterns "$W/sig_${n}_$B.txt" --bytes "$nm" --algo $a $chk 2>&1 | tee -a "$out/multi_gpu.log"
    done
  done
  log "the CLI end to end (file in the page cache), 16,000 8-mers (listing too with MULTI_E2E_LIST=1)"
  t() { local s=$(date +%s%N); "$@" > /tmp/m.out; local rc=$?; local e=$(date +%s%N); echo "$(( (e - s) / 1000000 )) ms rc=$rc"; }
  cat "$W/chrX_$B.txt" > /dev/null
  for be in cuda cpu; do
    for r in 1 2; do echo "search -c --backend $be: $(t ./build-gpu/warpmatch search -c --backend $be -f "$W/dna_k8_16000_$B.txt" "$W/chrX_$B.txt") $(cut -f2 /tmp/m.out)"; done
    [ -n "${MULTI_E2E_LIST:-}" ] && echo "search (list) --backend $be | wc -l: $(t sh -c "./build-gpu/warpmatch search --backend $be -f $W/dna_k8_16000_$B.txt $W/chrX_$B.txt | wc -l") $(cat /tmp/m.out)"
  done 2>&1 | tee -a "$out/session.log"
  log "compute-sanitizer on pattern sets"
  printf 'GATTACA\nACGT\nTTTT\nGGGCCC\nACGTACGTAC\n' > /tmp/set.txt
  for a in qgram pfac ac; do
    for extra in "" "-c" "--count-per-pattern"; do
      compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 5 ./build-gpu/warpmatch search --backend cuda \
        --algo $a $extra -f /tmp/set.txt data/lambda_phage.fa > "$out/sanitizer_tmp.log" 2>&1
      echo "memcheck [$a $extra]: rc=$? $(grep -E 'ERROR SUMMARY' "$out/sanitizer_tmp.log" | head -1)" | tee -a "$out/session.log"
    done
  done
fi
if want mpeers; then
  log "pattern sets on the CPU beside Hyperscan, grep and rg on $jobs cores"
  BYTES=${MULTI_BYTES:-1G} bash bench/run_multi.sh build-gpu "$jobs" "$carry" 2>&1 | tee "$out/mpeers.log"
fi
if want align; then
  log "align: tests with the CUDA backend"
  WM_TEST_SCALE=${WM_GPU_SCALE:-3} ./build-gpu/tests/test_align_diff > "$out/align_diff.log" 2>&1
  echo "test_align_diff rc=$?" | tee -a "$out/session.log"
  grep -E "^cuda|passed|FAIL" "$out/align_diff.log" | head -10 | tee -a "$out/session.log"
  bash tests/cli/test_align.sh ./build-gpu/warpmatch "$PWD" > "$out/align_cli.log" 2>&1
  echo "test_align.sh rc=$? $(tail -1 "$out/align_cli.log")" | tee -a "$out/session.log"
  log "align: compute-sanitizer (exit 99 = errors found)"
  q=$(head -c 2000 /dev/urandom | tr -dc ACGT | head -c 150)
  long=$(head -c 20000 /dev/urandom | tr -dc ACGT | head -c 3000)
  for tool in memcheck racecheck; do
    for args in "--algo bitvector --all-ends seq:$q" "--algo wavefront --all-ends seq:$q" "--algo bitvector -k 40 --cigar seq:$q" \
                "--algo bitvector --all-ends seq:$long" "--algo wavefront seq:$long"; do
      compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 5 ./build-gpu/warpmatch align --backend cuda \
        $args data/lambda_phage.fa > "$out/sanitizer_tmp.log" 2>&1
      echo "$tool [${args:0:40}]: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer_tmp.log" | head -1)" | tee -a "$out/session.log"
    done
  done
  log "align: inputs (bench/prep_align.sh) and bench_gpu_align"
  A=${ALIGN_DIR:-.bench/align}
  CARRY=$carry bash bench/prep_align.sh build-gpu "$A" > "$out/align_prep.log" 2>&1
  echo "prep rc=$?" | tee -a "$out/session.log"
  g=./build-gpu/bench/bench_gpu_align
  $g binary 2>&1 | tee "$out/align_gpu.log"
  $g files "$A/dna_t4M.seq" "$A"/dna_q32.seq "$A"/dna_q64.seq "$A"/dna_q128.seq "$A"/dna_q256.seq \
      "$A"/dna_q512.seq "$A"/dna_q1024.seq 2>&1 | tee -a "$out/align_gpu.log"
  $g files "$A/chrX.seq" "$A/read10k.seq" "$A/read100k.seq" 2>&1 | tee -a "$out/align_gpu.log"
  log "align: the CLI end to end, read10k vs chrX (file in the page cache)"
  t() { local s=$(date +%s%N); "$@" > /tmp/a.out; local rc=$?; local e=$(date +%s%N); echo "$(( (e - s) / 1000000 )) ms rc=$rc"; }
  cat "$A/chrX.seq" > /dev/null
  for be in cuda cpu; do
    echo "align --cigar --backend $be read10k chrX: $(t ./build-gpu/warpmatch align --alphabet dna --cigar --backend $be "$A/read10k.seq" "$A/chrX.seq") $(cut -f3-5 /tmp/a.out)"
  done 2>&1 | tee -a "$out/session.log"
fi
if want apeers; then
  log "align on the CPU beside edlib on $jobs cores"
  bash bench/run_align.sh ${ALIGN_ARGS:-} build-gpu "$jobs" 2>&1 | tee "$out/align_peers.log"
fi
if want global; then
  if [ "${GLOBAL_TESTS:-1}" != 0 ]; then
    log "global: tests with the CUDA backend"
    if [ -x ./build-gpu/tests/test_global_diff ]; then
      WM_TEST_SCALE=2 timeout 300 ./build-gpu/tests/test_global_diff > "$out/global_diff.log" 2>&1
      echo "test_global_diff (WM_TEST_SCALE=2) rc=$?" | tee -a "$out/session.log"
      grep -E "^cuda|passed|FAIL" "$out/global_diff.log" | head -10 | tee -a "$out/session.log"
    else
      echo "test_global_diff: not built" | tee -a "$out/session.log"
    fi
    if [ -f tests/cli/test_global.sh ]; then
      timeout 300 bash tests/cli/test_global.sh ./build-gpu/warpmatch "$PWD" > "$out/global_cli.log" 2>&1
      echo "test_global.sh rc=$? $(tail -1 "$out/global_cli.log")" | tee -a "$out/session.log"
    else
      echo "tests/cli/test_global.sh: missing" | tee -a "$out/session.log"
    fi
    san_s=${GLOBAL_SAN_S:-90}
    log "global: compute-sanitizer (exit 99 = errors found, 124 = stopped after $san_s s)"
    # small inputs: 1,500-base pairs (one ~5% mutated, one random), 300 read
    # pairs of 150 bases from lambda phage with 0-10% edits (bench/gen_pairs.c)
    gp=./build-gpu/bench/gen_pairs
    $gp random 1500 11 /tmp/gq.seq && $gp mutate /tmp/gq.seq /tmp/gm.seq 12 0.04 0.01 1 2>/dev/null &&
      $gp random 1500 13 /tmp/gr.seq && $gp reads data/lambda_phage.fa 300 150 0.10 5 /tmp/ga.fa /tmp/gb.fa 2>/dev/null
    san() {  # TOOL ARGS: one sanitizer run of `warpmatch align --mode global --backend cuda ARGS`
      timeout "$san_s" compute-sanitizer --tool "$1" --error-exitcode 99 --print-limit 5 ./build-gpu/warpmatch align \
        --mode global --backend cuda $2 > "$out/sanitizer_tmp.log" 2>&1
      echo "$1 [global $2]: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer_tmp.log" | head -1)" | tee -a "$out/session.log"
    }
    for args in "--algo bitvector /tmp/gq.seq /tmp/gm.seq" "--algo bitvector --cigar /tmp/gq.seq /tmp/gr.seq" \
                "--algo dp /tmp/gq.seq /tmp/gm.seq" "--algo four-russians /tmp/gq.seq /tmp/gr.seq" \
                "--pairs --cigar /tmp/ga.fa /tmp/gb.fa" "--pairs --algo dp /tmp/ga.fa /tmp/gb.fa"; do
      san memcheck "$args"
    done
    for args in "--algo bitvector /tmp/gq.seq /tmp/gr.seq" "--algo dp /tmp/gq.seq /tmp/gm.seq" \
                "--algo four-russians /tmp/gq.seq /tmp/gr.seq" "--pairs /tmp/ga.fa /tmp/gb.fa"; do
      san racecheck "$args"
    done
  fi
  log "global: bench/run_global.sh --backend cuda (inputs: bench/prep_global.sh)"
  STEP_S=${GLOBAL_STEP_S:-400} CARRY=$carry bash bench/run_global.sh --backend cuda --only "${GLOBAL_GPU_PARTS:-grid,long,pairs,e2e}" \
    "$out/global_gpu" build-gpu "$jobs" > "$out/global_gpu.log" 2>&1
  echo "run_global.sh --backend cuda rc=$?" | tee -a "$out/session.log"
  grep -E "^run_global|!!!" "$out/global_gpu.log" | tee -a "$out/session.log"
fi
if want gpeers; then
  log "global on the CPU (-j 1,$jobs) beside edlib: bench/run_global.sh --backend cpu"
  STEP_S=${GLOBAL_STEP_S:-400} CARRY=$carry bash bench/run_global.sh --backend cpu --only "${GLOBAL_CPU_PARTS:-grid,long,pairs}" \
    "$out/global_cpu" build-gpu "$jobs" > "$out/global_cpu.log" 2>&1
  echo "run_global.sh --backend cpu rc=$?" | tee -a "$out/session.log"
  grep -E "^run_global|!!!" "$out/global_cpu.log" | tee -a "$out/session.log"
fi
if want dtw; then
  # dtw (issue 6): the differential test with CUDA, compute-sanitizer on the
  # kernels (one stripe, several stripes, tracked starts, tiny pieces, a
  # batch of queries), then bench_dtw on the GPU and on all CPU cores.
  ecg="$carry/mitdb100.csv.gz"
  if [ "${DTW_TESTS:-1}" = 1 ]; then
    log "dtw: test_dtw_diff (CUDA included), test_ucr, test_signal, cli_test_dtw"
    if [ "${DTW_DIFF:-1}" = 1 ]; then
      (cd build-gpu && WM_TEST_SCALE=${DTW_SCALE:-1} timeout ${DTW_TEST_S:-300} ./tests/test_dtw_diff) > "$out/dtw_diff.log" 2>&1
      echo "test_dtw_diff rc=$?: $(tail -1 "$out/dtw_diff.log")" | tee -a "$out/session.log"
      grep -E "^cuda:|FAIL" "$out/dtw_diff.log" | head -20 | tee -a "$out/session.log"
    fi
    (cd build-gpu && timeout ${DTW_CTEST_S:-240} ctest -R "dtw|ucr|signal" --output-on-failure) > "$out/dtw_ctest.log" 2>&1
    echo "ctest dtw|ucr|signal rc=$?: $(grep -E 'tests passed|tests failed' "$out/dtw_ctest.log")" | tee -a "$out/session.log"
    log "dtw: compute-sanitizer (exit 99 = errors found)"
    for tool in memcheck racecheck; do
      for args in "--m 100 --n 20000" "--m 1500 --n 20000" "--m 300 --n 5000 --top 3" "--m 700 --n 5000 --top 2" \
                  "--m 40 --n 3000 --piece 7" "--m 40 --n 3000 --piece 5 --top 4" "--m 64 --n 20000 --queries 5"; do
        timeout ${DTW_SAN_S:-120} compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 5 \
          ./build-gpu/bench/bench_dtw "$ecg" --backend cuda --reps 1 $args > "$out/sanitizer_tmp.log" 2>&1
        echo "$tool [$args]: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer_tmp.log" | head -1)" | tee -a "$out/session.log"
      done
    done
  fi
  if [ "${DTW_BENCH:-1}" = 1 ]; then
    clk=$(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | head -1)
    log "dtw: bench_dtw on the GPU (max SM clock $clk MHz)"
    WM_GPU_CLOCK_MHZ=$clk ./build-gpu/bench/bench_dtw "$ecg" --backend cuda --timing 1 --m 128,1024,4096 \
      --n 4194304,67108864 --reps 5 2> "$out/dtw_gpu_timing.log" | tee "$out/dtw_gpu.log"
    log "dtw: the same with the series pinned (--pin 1)"
    WM_GPU_CLOCK_MHZ=$clk ./build-gpu/bench/bench_dtw "$ecg" --backend cuda --timing 1 --pin 1 \
      --m 128,1024 --n 4194304 --reps 5 2> "$out/dtw_gpu_pin_timing.log" | tee -a "$out/dtw_gpu.log"
    WM_GPU_CLOCK_MHZ=$clk ./build-gpu/bench/bench_dtw "$ecg" --backend cuda --timing 1 --m 128 \
      ${DTW_MANY:---queries 1000 --n 262144} --reps 3 2> "$out/dtw_gpu_many_timing.log" | tee -a "$out/dtw_gpu.log"
    log "dtw: bench_dtw on the CPU ($jobs threads, and 1)"
    ./build-gpu/bench/bench_dtw "$ecg" --backend cpu --m 128,1024,4096 --n 4194304,67108864 --reps 3 \
      2>&1 | tee "$out/dtw_cpu.log"
    ./build-gpu/bench/bench_dtw "$ecg" --backend cpu --threads 1 --m 128,1024 --n 4194304 --reps 3 \
      2>&1 | tee -a "$out/dtw_cpu.log"
    log "dtw: ucr mode (the UCR Suite's cascade) on the CPU, 1 and $jobs threads"
    zcat "$ecg" | tail -n +3 | cut -d, -f1 > /tmp/mitdb100_mlii.txt
    ./build-gpu/bench/bench_ucr --text -m 128,1024 -b 5,10 -t 1,$jobs -r 3 /tmp/mitdb100_mlii.txt \
      2>&1 | tee "$out/dtw_ucr.log"
  fi
fi
if want dist; then
  log "issue 7: shards, byte-range reading, MPI with the CUDA backend"
  ngpu=$(nvidia-smi -L | wc -l)
  (cd build-gpu && WM_TEST_SCALE=${DIST_SCALE:-1} ./tests/test_shard_diff) > "$out/shard_diff.log" 2>&1
  echo "test_shard_diff rc=$?: $(tail -1 "$out/shard_diff.log")" | tee -a "$out/session.log"
  (cd build-gpu && ./tests/test_seqrange) > "$out/seqrange.log" 2>&1
  echo "test_seqrange rc=$?: $(tail -1 "$out/seqrange.log")" | tee -a "$out/session.log"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  WM_MPI_NP="2 4" WM_MPI_JOBS=8 timeout ${DIST_MPI_S:-150} bash tests/mpi/test_mpi.sh build-gpu/warpmatch-mpi . \
    > "$out/mpi_cpu.log" 2>&1
  echo "test_mpi.sh (this host's MPI, CPU backend) rc=$?: $(tail -1 "$out/mpi_cpu.log")" | tee -a "$out/session.log"
  # one GPU against --gpus and mpirun on a 2 GiB text with dense matches
  big=/dev/shm/wm_dist_2g.seq
  [ -f $big ] || ./build-gpu/bench/gen_text dna "$carry/human_GRCh37_chrX_first70Mb.fa.gz" 2G $big 2>/dev/null
  W=./build-gpu/warpmatch
  for args in "search -k 2 GATTACAGATTACAGATTA" "search ACGTA" "search -c -k 1 GATTACAGATTACA" \
              "align --all-ends -k 30 seq:GATTACAGATTACAGATTACAGATTACAGATTACAGATTACA"; do
    $W $args $big --backend cuda > /tmp/one.out 2>/dev/null
    ref=$(md5sum < /tmp/one.out | cut -c1-16)
    line="[$args] lines $(wc -l < /tmp/one.out) one-gpu $ref"
    for n in 2 $ngpu; do
      $W $args $big --backend cuda --gpus $(seq -s, 0 $((n - 1))) > /tmp/many.out 2>/dev/null
      line="$line gpus$n $( [ "$(md5sum < /tmp/many.out | cut -c1-16)" = "$ref" ] && echo same || echo DIFFERENT)"
      mpirun -np $n --bind-to none $W-mpi $args $big --backend cuda > /tmp/many.out 2>/dev/null
      line="$line np$n $( [ "$(md5sum < /tmp/many.out | cut -c1-16)" = "$ref" ] && echo same || echo DIFFERENT)"
    done
    echo "$line" | tee -a "$out/session.log"
  done
  for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 5 $W search --backend cuda \
      --gpus $(seq -s, 0 $((ngpu - 1))) -k 2 GATTACAGATTACA data/lambda_phage.fa > "$out/sanitizer_tmp.log" 2>&1
    echo "$tool --gpus search: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer_tmp.log" | head -1)" | tee -a "$out/session.log"
  done
  # issue 3's open defect: test_multi_diff seed 20240612 case 416 on CUDA, repeated
  for i in $(seq 10); do
    (cd build-gpu && WM_SEED=20240612 WM_CASE=416 ./tests/test_multi_diff 20240612) > "$out/multi416_$i.log" 2>&1
    echo "multi case 416 try $i rc=$?: $(tail -1 "$out/multi416_$i.log")"
  done | tee -a "$out/session.log"
fi
if want distbench; then
  log "issue 7: strong scaling (bench/run_dist.sh)"
  bash bench/run_dist.sh build-gpu "$carry/human_GRCh37_chrX_first70Mb.fa.gz" "$out/dist" 2>&1 | tee "$out/dist.log"
fi
log "done"
