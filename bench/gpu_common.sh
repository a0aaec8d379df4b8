# gpu_common.sh -- sourced by the GPU session scripts (gpu_pairs.sh,
# gpu_wumanber.sh): the script's arguments, its log, and a CUDA build.
#   source bench/gpu_common.sh NAME BUILD_DIR "$@"
# sets out ($OUT, made), mode ($1: test|bench|all), carry ($2: .gpu), B
# (BUILD_DIR) and log() (a step, into $out/NAME.log and stdout), and logs the
# device. gpu_build TARGET... configures B (Release, sm_90, no MPI, the
# benchmarks; the carried -dev .debs through gpu_zlib.sh) and builds the
# targets, build.log in $out; it exits the script when the build fails.
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
