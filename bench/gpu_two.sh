# gpu_two.sh -- issue 16 item 7 on the lent two-GPU kind: search -c of 16.8 GB
# of chrX in /dev/shm with the CPU backend, one GPU, --gpus 0,1, and auto
# with --gpus 0,1 (the CPU covering the start-up when the model says so);
# WM_CUDA_TIMING's lines of each run (the context, the loop, the bytes staged
# by reading the file, the cover) beside its time.
#   bash bench/gpu_two.sh        (from the repository root; CARRY is .gpu)
set -u
extra=(); carry=.gpu; source bench/gpu_zlib.sh
B=${B:-/tmp/build-2} # another script's build folder is reused when given
t0=$(date +%s)
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90-real -DWARPMATCH_MPI=OFF -DWARPMATCH_TESTS=OFF -DWARPMATCH_BENCH=OFF "${extra[@]}" > $OUT/build.log 2>&1 && cmake --build $B -j32 --target warpmatch_cli >> $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "build $(( $(date +%s) - t0 )) s; $(nvidia-smi --query-gpu=name --format=csv,noheader | tr '\n' ' '); $(nproc) cores"
zcat .gpu/human_GRCh37_chrX_first70Mb.fa.gz | grep -v '^>' | tr -d '\n' > /tmp/x1
for i in 1 2 3 4 5 6 7 8; do cat /tmp/x1; done > /tmp/x8; rm /tmp/x1
for i in $(seq 1 30); do cat /tmp/x8; done > /dev/shm/big.seq; rm /tmp/x8
echo "input $(stat -c %s /dev/shm/big.seq) bytes in /dev/shm"
pat=$(head -c 1000032 /dev/shm/big.seq | tail -c 32)
for k in 0 2; do
  for v in "--backend cpu" "--backend cuda" "--backend cuda --gpus 0,1" "--backend auto" "--backend auto --gpus 0,1"; do
    for r in 1 2; do
      s=$(date +%s%N); WM_CUDA_TIMING=1 $B/warpmatch search -c -k $k $v $pat /dev/shm/big.seq > /tmp/o 2> /tmp/e
      echo "k=$k $v: $(( ($(date +%s%N)-s)/1000000 )) ms $(cut -f2 /tmp/o) | $(grep -hE '^(context|cuda search|cover|search):' /tmp/e | tr '\n' ' ' | cut -c1-900)"
    done
  done
  echo "k=$k auto: $($B/warpmatch search -c -k $k --explain-backend --gpus 0,1 $pat /dev/shm/big.seq 2>&1 >/dev/null | head -1)"
done
