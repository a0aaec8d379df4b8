/*
** cuda_common.cuh -- what the GPU code of every family shares: the one
** error macro (CUDA errors turned into a wm_status with CUDA's own text in
** the context's message), the padding kernels may read past a buffer, and
** hit compaction: the list kernels append (end, errors) hits to with
** warp-aggregated atomics.
*/
#ifndef WM_CUDA_COMMON_CUH
#define WM_CUDA_COMMON_CUH

#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "core/internal.h"
#include "cuda/device.cuh"

/* Evaluate a CUDA call; on failure record where and why in the context and
** return the matching status from the enclosing function. */
#define WM_CU(cx, call)                                                                            \
    do {                                                                                           \
        cudaError_t wm_e_ = (call);                                                                \
        if (wm_e_ != cudaSuccess) return wm_cuda_fail((cx), wm_e_, #call);                         \
    } while (0)

wm_status wm_cuda_fail(wm_context_t *cx, cudaError_t e, const char *what);

/* Let `kernel` take `bytes` of dynamic shared memory on the current device.
** The limit is a property of the function on that device, shared by every
** context of the process: two contexts on one GPU (--gpus 0,0) would race
** if each set its own value (one lowering it under the other's launch), so
** it is only ever raised, under a lock. */
cudaError_t wm_cu_allow_smem(const void *kernel, size_t bytes);

/* Where a kernel writes its hits. key = (global end << 1) | strand. When more
** than cap hits are found, *count still counts them all: the caller grows the
** buffers and runs the batch again. */
typedef struct {
    unsigned long long *keys;
    uint32_t *errors;
    unsigned long long *count;
    uint64_t cap;
} wm_cu_hits_t;

#define WM_CU_PAD 4096

/* Append one hit. The lanes of a warp that report at the same moment share
** one atomic (a warp-aggregated atomic): with dense matches a single counter
** would otherwise serialise every hit. */
__device__ __forceinline__ void wm_cu_push(const wm_cu_hits_t &o, uint64_t base, uint64_t e_local,
                                           uint32_t strand, uint32_t errors) {
    namespace cg = cooperative_groups;
    cg::coalesced_group g = cg::coalesced_threads();
    unsigned long long first = 0;
    if (g.thread_rank() == 0) first = atomicAdd(o.count, (unsigned long long)g.size());
    unsigned long long i = g.shfl(first, 0) + g.thread_rank();
    if (i < o.cap) {
        o.keys[i] = ((unsigned long long)(base + e_local) << 1) | strand;
        o.errors[i] = errors;
    }
}

/* The errors value of a hit found by a suffix filter: a candidate end that
** the host verifies against the whole pattern (see wm_cu_plan_t.filter). */
#define WM_CU_CANDIDATE 0xffffffffu

/* Append the hits of one 16-byte group that starts at local offset p: bit j
** of mask = an end at p + j + 1, its errors in byte j of err[] (or every hit a
** candidate). Lanes with hits share one atomic per warp. */
__device__ __forceinline__ void wm_cu_push_group(const wm_cu_hits_t &o, uint64_t base, uint64_t p,
                                                 uint32_t mask, const uint32_t err[4],
                                                 uint32_t strand, bool candidate) {
    namespace cg = cooperative_groups;
    cg::coalesced_group g = cg::coalesced_threads();
    uint32_t n = __popc(mask);
    uint32_t before = cg::exclusive_scan(g, n);
    uint32_t total = g.shfl(before + n, g.size() - 1);
    unsigned long long first = 0;
    if (g.thread_rank() == 0) first = atomicAdd(o.count, (unsigned long long)total);
    unsigned long long i = g.shfl(first, 0) + before;
    while (mask) {
        int j = __ffs(mask) - 1;
        mask &= mask - 1;
        if (i < o.cap) {
            o.keys[i] = ((unsigned long long)(base + p + j + 1) << 1) | strand;
            o.errors[i] = candidate ? WM_CU_CANDIDATE : (err[j >> 2] >> (8 * (j & 3))) & 0xffu;
        }
        i++;
    }
}

#endif
