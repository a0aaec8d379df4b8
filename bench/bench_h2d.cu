/*
** bench_h2d.cu -- the host-to-device floor of the GPU search pipeline: a
** pinned buffer copied to device memory, timed with CUDA events, the median
** of REPS copies; and the same from pageable memory. BENCHMARKS.md 14 sets
** the copy-and-search loop's rate beside it.
**
**   bench_h2d [MIB (256)] [REPS (9)]
** Prints: what=h2d_pinned bytes=N median_ms=X GBps=Y, then h2d_pageable.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

static void time_copies(const char *what, void *dst, const void *src, size_t n, int reps) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    float ms[64];
    cudaMemcpy(dst, src, n, cudaMemcpyHostToDevice); /* untimed: first touch */
    for (int r = 0; r < reps; r++) {
        cudaEventRecord(a);
        cudaMemcpy(dst, src, n, cudaMemcpyHostToDevice);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        cudaEventElapsedTime(&ms[r], a, b);
    }
    qsort(ms, (size_t)reps, sizeof *ms, cmp);
    float med = ms[reps / 2];
    printf("what=%s bytes=%zu median_ms=%.3f GBps=%.1f\n", what, n, med, n / (med * 1e6));
    cudaEventDestroy(a);
    cudaEventDestroy(b);
}

int main(int argc, char **argv) {
    size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 256;
    int reps = argc > 2 ? atoi(argv[2]) : 9;
    if (mib == 0 || reps < 1 || reps > 64) {
        fprintf(stderr, "usage: bench_h2d [MIB] [REPS <= 64]\n");
        return 2;
    }
    size_t n = mib << 20;
    void *pinned = NULL, *dev = NULL;
    void *pageable = malloc(n);
    if (cudaMallocHost(&pinned, n) != cudaSuccess || cudaMalloc(&dev, n) != cudaSuccess ||
        !pageable) {
        fprintf(stderr, "bench_h2d: cannot allocate %zu MiB\n", mib);
        return 1;
    }
    memset(pinned, 1, n);
    memset(pageable, 1, n);
    time_copies("h2d_pinned", dev, pinned, n, reps);
    time_copies("h2d_pageable", dev, pageable, n, reps);
    cudaFreeHost(pinned);
    cudaFree(dev);
    free(pageable);
    return 0;
}
