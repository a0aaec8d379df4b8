# gpu_common.sh -- sourced by the GPU session scripts (gpu_pairs.sh,
# gpu_wumanber.sh): the script's arguments, its log, and a CUDA build.
#   source bench/gpu_common.sh NAME BUILD_DIR "$@"
# sets out ($OUT, made), mode ($1: test|bench|all), carry ($2: .gpu), B
# (BUILD_DIR) and log() (a step, into $out/NAME.log and stdout), and logs the
# device. gpu_build TARGET... configures B (Release, sm_90, no MPI, the
# benchmarks; the carried -dev .debs through gpu_zlib.sh) and builds the
# targets, build.log in $out; it exits the script when the build fails.
# run_tests and sanitize run tests and compute-sanitizer with their lines
# logged. dtw_cli_runs times the CLI's dtw of 1,000 queries against 4,194,304
# samples.
gpu_name=$1
B=$2
shift 2
set -u
out=${OUT:-gpu-out}
mkdir -p "$out"
mode=${1:-all}
carry=${2:-.gpu}
extra=()
source bench/gpu_zlib.sh
log() { echo "== $*" | tee -a "$out/$gpu_name.log"; }
log "device: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1); $(nproc) CPUs"

gpu_build() {
    local t0 rc
    t0=$(date +%s)
    cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DWARPMATCH_MPI=OFF -DWARPMATCH_BENCH=ON \
        -DCMAKE_CUDA_ARCHITECTURES=90-real "${extra[@]}" >"$out/build.log" 2>&1 &&
        cmake --build "$B" -j"$(nproc)" --target "$@" >>"$out/build.log" 2>&1
    rc=$?
    log "build rc=$rc in $(($(date +%s) - t0)) s"
    [ $rc -eq 0 ] || { tail -30 "$out/build.log"; exit 1; }
}

# run_tests PROGRAM...: each test program of B (tests/NAME) and each CLI test
# (cli:NAME, tests/cli/NAME.sh with the tool), output into tests.log, a line
# each in the log.
run_tests() {
    local t t0 rc
    for t in "$@"; do
        t0=$(date +%s)
        case $t in
            cli:*) bash "tests/cli/${t#cli:}.sh" "$B/warpmatch" . >>"$out/tests.log" 2>&1 ;;
            *) "$B/tests/$t" >>"$out/tests.log" 2>&1 ;;
        esac
        rc=$?
        log "$t rc=$rc in $(($(date +%s) - t0)) s: $(tail -1 "$out/tests.log")"
    done
}

# sanitize TOOL COMMAND...: compute-sanitizer TOOL on the command, its summary logged.
sanitize() {
    local tool=$1 rc
    shift
    compute-sanitizer --tool "$tool" --error-exitcode 9 "$@" >>"$out/tests.log" 2>&1
    rc=$?
    log "compute-sanitizer $tool ${*##*/}: rc=$rc $(grep 'ERROR SUMMARY' "$out/tests.log" | tail -1)"
}

# same_search "OPTIONS" "INPUTS": `search OPTIONS --backend cpu INPUTS` and the
# same with cuda, their outputs compared byte for byte; a line logged and
# n_same or n_diff counted. Both strings are split into words.
n_same=0
n_diff=0
same_search() {
    local rc1 rc2
    # shellcheck disable=SC2086
    "$B/warpmatch" search $1 --backend cpu $2 >/tmp/same_cpu.out 2>&1
    rc1=$?
    # shellcheck disable=SC2086
    "$B/warpmatch" search $1 --backend cuda $2 >/tmp/same_gpu.out 2>&1
    rc2=$?
    if [ $rc1 = 0 ] && [ $rc2 = 0 ] && cmp -s /tmp/same_cpu.out /tmp/same_gpu.out; then
        n_same=$((n_same + 1))
        log "same: $1 ${2##*/}: $(wc -l </tmp/same_cpu.out) lines"
    else
        n_diff=$((n_diff + 1))
        log "DIFFERENT: $1 ${2##*/} (rc $rc1/$rc2, $(wc -l </tmp/same_cpu.out) vs $(wc -l </tmp/same_gpu.out) lines)"
    fi
}

# multi_data DIR WHAT: bench/run_multi.sh's data for pattern sets (1 GiB of
# chrX and of mixed text, their sets) made in DIR, its log in
# $out/multi_data.log; the environment passes on (SIG_SETS, DNA_FA).
multi_data() {
    local t0
    mkdir -p "$1"
    t0=$(date +%s)
    WHAT=$2 BYTES=1G WORK=$1 PEERS="" ALGOS=auto MODES=count REPEATS=1 \
        bash bench/run_multi.sh "$B" "$(nproc)" "$carry" >"$out/multi_data.log" 2>&1
    log "data rc=$? in $(($(date +%s) - t0)) s"
}

# dtw_cli_runs ECG.csv.gz PRECISION...: the CLI end to end (`dtw --backend
# cuda`, text files in, lines out, the whole process), 1,000 queries of 128
# (lead V5) against 4,194,304 samples (lead MLII repeated), 3 runs a
# precision, each logged with its time, lines and md5; the rows stay in
# /tmp/dtw_PRECISION.tsv.
dtw_cli_runs() {
    local ecg=$1 p r rc t0 t1
    shift
    zcat "$ecg" | awk -F, 'NR > 2 { m[n] = $1; v[n++] = $2 }
        END { for (i = 0; i < 4194304; i++) print m[i % n] > "/tmp/series4m.txt";
              for (q = 0; q < 1000; q++) { o = (100003 + q * 5003) % (n - 128); l = "";
                  for (j = 0; j < 128; j++) l = l (j ? " " : "") v[o + j]; print l > "/tmp/q1000.txt" } }'
    for p in "$@"; do
        for r in 1 2 3; do
            t0=$(date +%s.%N)
            "$B/warpmatch" dtw --backend cuda --precision "$p" /tmp/q1000.txt /tmp/series4m.txt \
                >"/tmp/dtw_$p.tsv" 2>/dev/null
            rc=$?
            t1=$(date +%s.%N)
            log "cli dtw --precision $p 1000 queries x 4,194,304 --backend cuda: rc=$rc $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f s", b - a }'), $(wc -l <"/tmp/dtw_$p.tsv") lines, md5 $(md5sum <"/tmp/dtw_$p.tsv" | cut -c1-12)"
        done
    done
}
