/*
** segment.cuh -- the layout the k-error kernels share: each lane owns a
** segment of `seg` consecutive end positions, starts its automaton `halo`
** bytes earlier (rounded down to 16 for vector loads) and reads its bytes 16
** at a time. Neighbouring lanes own neighbouring segments, so a warp walks a
** contiguous stretch and its loads share cache lines. The mask table is in
** shared memory once per lane (entry c of lane l at 32c + l): conflict-free.
*/
#ifndef WM_SEARCH_SEGMENT_CUH
#define WM_SEARCH_SEGMENT_CUH

#include "search/search_cuda.cuh"

/* Fill a per-lane replicated table of 256 words of type W from 64-bit masks. */
template <typename W>
__device__ __forceinline__ void fill_lane_table(W *lut, const uint64_t *__restrict__ peq) {
    for (int i = threadIdx.x; i < 256 * 32; i += blockDim.x) lut[i] = (W)__ldg(&peq[i >> 5]);
    __syncthreads();
}

/* Visit every byte of text[from, to) in order, 16 at a time (may run up to
** 15 bytes past `to`; the buffer is padded): f(byte, position). */
template <typename F>
__device__ __forceinline__ void for_each_byte(const uint8_t *text, uint64_t from, uint64_t to,
                                              F f) {
    for (uint64_t p = from; p < to; p += 16) {
        uint4 v = __ldg(reinterpret_cast<const uint4 *>(text + p));
        uint32_t w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
        for (int q = 0; q < 4; q++)
#pragma unroll
            for (int i = 0; i < 4; i++) f((w[q] >> (8 * i)) & 0xffu, p + 4 * q + i);
    }
}

/* Grid-stride over segments: f(own0, own1, read_from). */
template <typename F>
__device__ __forceinline__ void for_each_segment(const wm_cu_text_t &t, uint64_t seg, uint64_t halo,
                                                 F f) {
    const uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint64_t G = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t n_seg = (t.n - t.own_from + seg - 1) / seg;
    for (uint64_t s = g; s < n_seg; s += G) {
        uint64_t own0 = t.own_from + s * seg;
        uint64_t own1 = min(own0 + seg, t.n);
        uint64_t from = own0 > halo ? own0 - halo : 0;
        f(own0, own1, from & ~(uint64_t)15);
    }
}

/* Blocks for a persistent grid of `threads`-thread blocks using `smem` bytes. */
template <typename K>
static inline cudaError_t segment_grid(K kernel, int threads, size_t smem, int sm_count,
                                       uint64_t n_segments, unsigned *blocks) {
    if (smem > 48 * 1024) {
        cudaError_t e = wm_cu_allow_smem((const void *)kernel, smem);
        if (e != cudaSuccess) return e;
    }
    int per_sm = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem);
    if (e != cudaSuccess) return e;
    if (per_sm < 1) per_sm = 1;
    uint64_t want = (n_segments + threads - 1) / threads;
    uint64_t full = (uint64_t)sm_count * per_sm;
    *blocks = (unsigned)(want < full ? (want ? want : 1) : full);
    return cudaSuccess;
}

#endif
