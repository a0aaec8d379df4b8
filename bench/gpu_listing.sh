#!/usr/bin/env bash
# gpu_listing.sh -- the listing measurements of BENCHMARKS.md section 22 that
# bench/gpu_rows.sh does not make, as the session's device calls ran them
# (they were typed as one command line each; this keeps them).
#
#   bash bench/gpu_listing.sh parts  [CARRY]  call C: 10,000 guides on cuda,
#                                             WM_CUDA_TIMING=1, 3 runs, and
#                                             `warpmatch info`'s start-up
#   bash bench/gpu_listing.sh apart  [CARRY]  call D: bench_cpu_multi's search
#                                             and batches modes each in a process
#                                             of its own, twice in turn, at -t 16
#                                             and 8, plain and with glibc's
#                                             malloc tunables (TUN below)
#   bash bench/gpu_listing.sh trees  [CARRY]  call E and the last call: this
#                                             tree beside CARRY/prev-src.tar.gz
#                                             (`git archive` of the tree before):
#                                             the library's listing, then the
#                                             CLI five times in turn
#   bash bench/gpu_listing.sh local           the 2-core figure: 8,000 8-mers
#                                             over chrX's 70 MB, page faults
#                                             (perf stat) and time, on a build
#                                             in BUILD [/tmp/b-x] (of each tree
#                                             compared, in turn)
#
# CARRY [.gpu-rows] holds human_GRCh37_chrX_first70Mb.fa.gz, g10000.fa (the
# guides of bench/gpu_setk.sh's generator, seed 5) and the -dev .debs of
# bench/gpu_zlib.sh. The data: x1 = chrX's sequence, uppercased, no newlines
# (69,999,930 bytes); x4 = x1 four times; k16 = every 431st of x1's 8-mers
# of A, C, G, T (cut at multiples of 8), the first 16,000; k1 = every
# 6,007th, the first 1,000. Output on stdout.
set -u
mode=${1:-}
carry=${2:-.gpu-rows}
TUN=glibc.malloc.mmap_threshold=268435456:glibc.malloc.trim_threshold=2147483648

build() { # SRC DIR TARGET...: a Release build, CUDA only for the `parts` mode
    local src=$1 dir=$2 cu=()
    shift 2
    [ "$mode" = parts ] || cu=(env CUDACXX=/nonexistent/nvcc)
    "${cu[@]}" cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DWARPMATCH_MPI=OFF \
        -DWARPMATCH_BENCH=ON -DCMAKE_CUDA_ARCHITECTURES=90-real "${extra[@]}" >/dev/null &&
        cmake --build "$dir" -j8 --target "$@" >/dev/null
}

data() {
    [ -f /dev/shm/k1 ] && return
    zcat "$carry/human_GRCh37_chrX_first70Mb.fa.gz" | grep -v '>' | tr -d '\n' | tr a-z A-Z >/dev/shm/x1
    cat /dev/shm/x1 /dev/shm/x1 /dev/shm/x1 /dev/shm/x1 >/dev/shm/x4
    fold -w 8 /dev/shm/x1 | grep -x '[ACGT]\{8\}' >/dev/shm/all8
    awk 'NR % 431 == 0' /dev/shm/all8 | head -16000 >/dev/shm/k16
    awk 'NR % 6007 == 0' /dev/shm/all8 | head -1000 >/dev/shm/k1
}

if [ "$mode" = local ]; then
    B=${BUILD:-/tmp/b-x}
    zcat "${DNA_FA:-../shared/data/dna/human_GRCh37_chrX_first70Mb.fa.gz}" | grep -v '>' |
        tr -d '\n' | tr a-z A-Z >/tmp/chrx.txt
    python3 -c "
import random
random.seed(3)
s = open('/tmp/chrx.txt').read()
out = []
while len(out) < 8000:
    i = random.randrange(len(s) - 8); p = s[i:i + 8]
    if set(p) <= set('ACGT'): out.append(p)
open('/tmp/k8_8000.txt', 'w').write('\n'.join(out) + '\n')"
    for m in search batches; do
        perf stat -e page-faults -x, "$B/bench/bench_cpu_multi" -t 2 -r 3 --algos qgram --modes $m \
            --dna /tmp/k8_8000.txt /tmp/chrx.txt 2>&1 | grep -E 'mode=|faults'
    done
    exit 0
fi

extra=()
source bench/gpu_zlib.sh
case "$mode" in
parts)
    build . /tmp/bg warpmatch_cli || exit 1
    zcat "$carry/human_GRCh37_chrX_first70Mb.fa.gz" >/dev/shm/chrX.fa
    G=(-k 4 --hamming --revcomp --exact-suffix 3 -f "$carry/g10000.fa" /dev/shm/chrX.fa)
    for i in 1 2 3; do
        s=$(date +%s%N)
        WM_CUDA_TIMING=1 /tmp/bg/warpmatch search --backend cuda "${G[@]}" >/dev/shm/o 2>/tmp/e
        e=$(date +%s%N)
        echo "run $i: $(((e - s) / 1000000)) ms"
        cat /tmp/e
    done
    /tmp/bg/warpmatch info 2>&1 | grep -i -E 'start|context|driver'
    ;;
apart)
    build . /tmp/bb bench_cpu_multi || exit 1
    data
    for t in 8 16; do
        for tun in "" $TUN; do
            for m in search batches search batches; do
                r=$(GLIBC_TUNABLES=$tun /usr/bin/time -f "wall %e minflt %R" -o /tmp/tt \
                    /tmp/bb/bench/bench_cpu_multi -t $t -r 3 --dna --algos qgram --modes $m \
                    /dev/shm/k16 /dev/shm/x4 | grep 'mode=' | sed 's/.*mode=//')
                echo "t=$t ${tun:+tuned} $r $(cat /tmp/tt)"
            done
        done
    done
    ;;
trees)
    mkdir -p /tmp/ps && tar -xzf "$carry/prev-src.tar.gz" -C /tmp/ps
    build . /tmp/bn bench_cpu_multi warpmatch_cli &
    build /tmp/ps /tmp/bp bench_cpu_multi warpmatch_cli &
    data
    wait
    for r in 1 2; do
        for tr in bp bn; do
            for m in search batches; do
                echo "$tr round $r $(/tmp/$tr/bench/bench_cpu_multi -t 16 -r 3 --dna --algos qgram \
                    --modes $m /dev/shm/k16 /dev/shm/x4 | grep 'mode=' | sed 's/.*mode=//')"
            done
            /usr/bin/time -f "%e s %R minflt" -o /tmp/tt /tmp/$tr/warpmatch search --backend cpu \
                -f /dev/shm/k1 /dev/shm/x4 >/dev/shm/o
            echo "$tr round $r CLI 1000 8-mers x4: $(cat /tmp/tt) $(wc -l </dev/shm/o) rows"
        done
    done
    for w in "k1 x4" "k16 x1"; do
        set -- $w
        for r in 1 2 3 4 5; do
            for tr in bp bn; do
                /usr/bin/time -f "%e" -o /tmp/tt /tmp/$tr/warpmatch search --backend cpu \
                    -f /dev/shm/$1 /dev/shm/$2 >/dev/shm/o
                echo "$1 $2 $tr $(cat /tmp/tt)"
            done
        done
    done
    ;;
*)
    sed -n '2,32p' "$0" >&2
    exit 2
    ;;
esac
