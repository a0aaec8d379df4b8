#!/usr/bin/env bash
# gpu_stream.sh -- issue 16, item 3 on the lent GPU: inputs streamed in batches.
#   bash bench/gpu_stream.sh test|bench [CARRY]
# Builds the tool and the tests with CUDA (sm_90) into /tmp/build-stream (kept
# between calls on a warm machine: the second call's build is a no-op); test
# runs the tests of streamed input (tests/cli/test_stream_in.sh, whose cases run on
# the GPU too when one is listed, test_seqbatch, test_choose,
# test_compressed.sh, test_stream_out.sh); bench runs bench/stream_mem.sh on the
# 2.1 GB FASTA made from CARRY's chrX with --backend cpu and cuda, ugrep from
# CARRY/debs/stream beside it (`apt-get download ugrep libpcre2-8-0 liblz4-1`).
# CARRY (default .gpu) holds the genomes and the -dev .debs (bench/gpu_zlib.sh).
# Logs in $OUT: stream.log (steps, test summaries), build.log, tests.log,
# mem_cpu.md, mem_cuda.md, mem.log.
set -u
out=${OUT:-gpu-out}
mkdir -p "$out"
mode=${1:-test}
carry=${2:-.gpu}
B=/tmp/build-stream
extra=()
source bench/gpu_zlib.sh
log() { echo "== $*" | tee -a "$out/stream.log"; }
if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    log "device: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1); $(nproc) CPUs"
    extra+=(-DCMAKE_CUDA_ARCHITECTURES=90-real)
else
    log "device: no GPU (CPU-only build); $(nproc) CPUs"
    extra+=(-DWARPMATCH_CUDA=OFF)
fi
log "tree: $(git log -1 --format='%h %s' 2>/dev/null | cut -c1-80)"
t0=$(date +%s)
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DWARPMATCH_MPI=OFF "${extra[@]}" >"$out/build.log" 2>&1 &&
    cmake --build $B -j"$(nproc)" --target warpmatch_cli test_seqbatch test_choose >>"$out/build.log" 2>&1
rc=$?
log "build rc=$rc in $(($(date +%s) - t0)) s"
[ $rc -eq 0 ] || { tail -30 "$out/build.log"; exit 1; }

export WM_SHARED_DATA=$PWD/$carry WM_DATA=$PWD/data
[ "$mode" = bench ] || for t in test_stream_in test_compressed test_stream_out; do
    bash tests/cli/$t.sh $B/warpmatch . >>"$out/tests.log" 2>&1
    log "$t rc=$? $(grep -c '^FAIL' "$out/tests.log") FAIL lines so far; $(tail -1 "$out/tests.log")"
done
[ "$mode" = bench ] || for t in test_seqbatch test_choose; do
    $B/tests/$t >>"$out/tests.log" 2>&1
    log "$t rc=$? $(tail -1 "$out/tests.log")"
done

[ "$mode" = bench ] || exit 0
# ugrep from the carried .debs, where the image has none
if ! command -v ugrep >/dev/null && ls "$carry"/debs/stream/*.deb >/dev/null 2>&1; then
    for d in "$carry"/debs/stream/*.deb; do dpkg -x "$d" /tmp/ugrep-root; done
    export PATH=/tmp/ugrep-root/usr/bin:$PATH
    export LD_LIBRARY_PATH=/tmp/ugrep-root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
log "ugrep: $(ugrep --version 2>/dev/null | head -1 || echo none)"
work=/dev/shm/wm-stream
gz=${GZ:-1}
for be in cpu cuda; do
    CHRX=$carry/human_GRCh37_chrX_first70Mb.fa.gz bash bench/stream_mem.sh -b $B -w $work \
        --backend $be $([ "$gz" = 1 ] || echo --no-gz) >"$out/mem_$be.md" 2>>"$out/mem.log"
    log "stream_mem $be rc=$?"
    cat "$out/mem_$be.md" | tee -a "$out/stream.log"
done
rm -rf $work
