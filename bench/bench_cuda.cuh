/*
** bench_cuda.cuh -- what the GPU benchmarks share: error checks, a random
** text generator, the read-bandwidth floor kernel, medians, and the floor
** measurement itself.
*/
#ifndef WM_BENCH_CUDA_CUH
#define WM_BENCH_CUDA_CUH

#include <stdint.h>
#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include <cuda_runtime.h>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "bench: %s: %s\n", #x, cudaGetErrorString(e_));                        \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

static __global__ void k_random_text(uint8_t *t, uint64_t n, uint32_t sigma, uint64_t seed) {
    const char *dna = "ACGT";
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t x = (i + seed) * 0x9E3779B97F4A7C15ull;
        x ^= x >> 31;
        x *= 0xBF58476D1CE4E5B9ull;
        x ^= x >> 29;
        uint32_t v = (uint32_t)(x % sigma);
        t[i] = sigma == 4 ? (uint8_t)dna[v] : (uint8_t)(48 + v); /* 64 symbols from '0' */
    }
}

/* Reads every byte once (16-byte loads), as a search must: the floor. */
static __global__ void k_read(const uint4 *p, uint64_t n16, unsigned long long *sink) {
    uint32_t x = 0;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n16;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint4 v = __ldg(p + i);
        x ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (x == 0x12345678u) atomicAdd(sink, 1ull); /* keeps the loads alive */
}

/* Reads n16 16-byte words and writes w16 (a listing's text in, its hits
** out), one grid-stride loop doing both: the listing's floor. */
static __global__ void k_read_write(const uint4 *p, uint64_t n16, uint4 *q, uint64_t w16,
                                    unsigned long long *sink) {
    uint32_t x = 0;
    uint64_t most = n16 > w16 ? n16 : w16;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < most;
         i += (uint64_t)gridDim.x * blockDim.x) {
        if (i < n16) {
            uint4 v = __ldg(p + i);
            x ^= v.x ^ v.y ^ v.z ^ v.w;
        }
        if (i < w16) q[i] = make_uint4(x, (uint32_t)i, 0, 0);
    }
    if (x == 0x12345678u) atomicAdd(sink, 1ull);
}

static inline float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/* Device read bandwidth in GB/s over [d, d + bytes): median of reps passes. */
static inline double bench_read_floor(const uint8_t *d, uint64_t bytes, int reps, int sms) {
    unsigned long long *sink;
    cudaEvent_t e0, e1;
    CK(cudaMalloc(&sink, 8));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<float> tr;
    for (int r = 0; r < reps + 1; r++) {
        CK(cudaEventRecord(e0));
        k_read<<<sms * 16, 256>>>((const uint4 *)d, bytes / 16, sink);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r) tr.push_back(ms);
    }
    CK(cudaFree(sink));
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    return bytes / (median(tr) * 1e6);
}

/* Milliseconds to read [d, d + bytes) and write out_bytes at out in one
** kernel (median of reps): a listing's floor, reads and writes sharing the
** memory as they do in the kernel. */
static inline double bench_read_write_ms(const uint8_t *d, uint64_t bytes, void *out,
                                         uint64_t out_bytes, int reps, int sms) {
    unsigned long long *sink;
    cudaEvent_t e0, e1;
    CK(cudaMalloc(&sink, 8));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<float> tr;
    for (int r = 0; r < reps + 1; r++) {
        CK(cudaEventRecord(e0));
        k_read_write<<<sms * 16, 256>>>((const uint4 *)d, bytes / 16, (uint4 *)out, out_bytes / 16,
                                        sink);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r) tr.push_back(ms);
    }
    CK(cudaFree(sink));
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    return median(tr);
}

#endif
