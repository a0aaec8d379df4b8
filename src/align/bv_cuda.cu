/*
** bv_cuda.cu -- the best ends of an infix alignment on the GPU by Myers'
** bit-vector DP, the target cut into chunks that overlap by the halo.
**
** G threads share a chunk and split each column between them: thread T holds
** words [T*W, T*W + W) of 32 rows. The horizontal delta leaving a thread's
** last word enters the next thread's first, so the threads run skewed: at
** step s thread T works on column s - T, and takes its hin from what thread
** T - 1 made one step earlier (a shuffle inside a warp; between warps of a
** block, a word in shared memory and a barrier a step). Queries up to 1024 rows
** take one word a thread and G <= 32 threads, several chunks a warp; longer
** ones take 2, 4 or 8 words a thread and a whole block a chunk. The
** thread that holds row m keeps the score and the best owned end.
*/
#include "align/align_cuda.cuh"

/* Match masks of W words for the symbol y (0 for padding words). */
template <int W>
__device__ __forceinline__ void load_eq(uint32_t (&eq)[W], const uint32_t *my_peq, uint32_t w32,
                                        unsigned y, int nreal) {
    const uint32_t *row = my_peq + y * w32;
#pragma unroll
    for (int r = 0; r < W; r++) eq[r] = r < nreal ? __ldg(row + r) : 0u;
}

template <int W, bool BLOCK>
__global__ void __launch_bounds__(1024)
    k_bv_infix(const uint32_t *__restrict__ peq, uint32_t w32, uint32_t m, int G, wm_cu_ajob_t j,
               wm_cu_aout_t o) {
    __shared__ int xfer[2][32]; /* hout of each warp's last lane */
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int T = BLOCK ? (int)threadIdx.x : lane & (G - 1);
    const uint64_t gid =
        BLOCK ? blockIdx.x : ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / (unsigned)G;
    if (BLOCK && gid >= j.n_chunks) return; /* the whole block */

    /* A group past the last chunk stays, idle, so that every lane of a warp
    ** runs the same steps and the shuffle needs no divergence handling. */
    int ncols = 0, c_own = 0;
    uint64_t scan_from = 0;
    if (gid < j.n_chunks) {
        uint64_t own_lo = j.own_from + gid * j.chunk;
        uint64_t own_hi = own_lo + j.chunk < j.len ? own_lo + j.chunk : j.len;
        scan_from = own_lo > j.halo ? own_lo - j.halo : 0;
        ncols = (int)(own_hi - scan_from); /* chunk + halo < 2^31 */
        c_own = (int)(own_lo - scan_from); /* column c ends at c + 1 */
    }
    const uint8_t *text = j.text + scan_from;
    int steps = ncols + G - 1;
    if (!BLOCK)
        for (int d = 16; d > 0; d >>= 1) steps = max(steps, __shfl_xor_sync(0xffffffffu, steps, d));

    /* Which words are real, and who holds row m. */
    const uint32_t first = (uint32_t)T * W;
    const int nreal = first >= w32 ? 0 : (w32 - first < (uint32_t)W ? (int)(w32 - first) : W);
    const uint32_t wlast = (m - 1) / 32;
    const bool owner = wlast >= first && wlast < first + W;
    const int rlast = (int)(wlast - first);
    const unsigned bottom = (m - 1) % 32;
    const uint32_t *my_peq = peq + first;

    uint32_t Pv[W], Mv[W];
#pragma unroll
    for (int r = 0; r < W; r++) {
        Pv[r] = ~0u;
        Mv[r] = 0;
    }
    uint32_t score = m, bd = UINT32_MAX;
    int bc = 0;
    int hout = 0;

    /* Loads run ahead of the DP: the masks of the next column and the symbol
    ** of the one after are fetched during this step, so a step's critical
    ** path is its arithmetic and the shuffle only. */
    int c = -T;
    unsigned y1 = (unsigned)(c + 1) < (unsigned)ncols ? __ldg(text + c + 1) : 0;
    uint32_t eq[W];
    load_eq<W>(eq, my_peq, w32, (unsigned)c < (unsigned)ncols ? __ldg(text + c) : 0, nreal);
    for (int s = 0; s < steps; s++, c++) {
        uint32_t eqn[W];
        load_eq<W>(eqn, my_peq, w32, y1, nreal);
        y1 = (unsigned)(c + 2) < (unsigned)ncols ? __ldg(text + c + 2) : 0;

        int hin = __shfl_up_sync(0xffffffffu, hout, 1, BLOCK ? 32 : G);
        if (T == 0) hin = 0; /* infix: the top row is free */
        else if (BLOCK && lane == 0 && s > 0) hin = xfer[(s - 1) & 1][warp - 1];
        if ((unsigned)c < (unsigned)ncols && nreal > 0) {
            int h = hin;
#pragma unroll
            for (int r = 0; r < W; r++) {
                if (r < nreal) {
                    bool last = owner && r == rlast;
                    h = wm_cu_bv_step32(Pv[r], Mv[r], eq[r], h, last ? bottom : 31u);
                    if (last) score += h;
                }
            }
            hout = h;
            if (owner && c >= c_own && score <= j.limit) {
                if (score < bd) {
                    bd = score;
                    bc = c;
                }
                if (o.hits.keys && score <= j.report_le)
                    wm_cu_push(o.hits, j.base, scan_from + (uint64_t)c + 1, 0, score);
            }
        }
#pragma unroll
        for (int r = 0; r < W; r++) eq[r] = eqn[r];
        if (BLOCK) {
            if (lane == 31) xfer[s & 1][warp] = hout;
            __syncthreads();
        }
    }
    if (owner && bd != UINT32_MAX) wm_cu_best_publish(o.best, bd, j.base + scan_from + bc + 1);
}

/* Chunks the GPU holds at once with this layout: so many chunks make one
** wave (a second, partial wave would double the time). */
uint64_t wm_cu_bv_resident_chunks(const wm_cu_aplan_t *p) {
    int G = p->group, per_block = 0;
    unsigned threads = G <= 32 ? 256 : (unsigned)G;
    const void *k = NULL;
    bool block = G > 32;
    switch (p->per_thread * 2 + block) {
    case 2: k = (const void *)k_bv_infix<1, false>; break;
    case 4: k = (const void *)k_bv_infix<2, false>; break;
    case 5: k = (const void *)k_bv_infix<2, true>; break;
    case 8: k = (const void *)k_bv_infix<4, false>; break;
    case 9: k = (const void *)k_bv_infix<4, true>; break;
    case 17: k = (const void *)k_bv_infix<8, true>; break;
    default: return (uint64_t)p->sm_count;
    }
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_block, k, (int)threads, 0) !=
            cudaSuccess ||
        per_block < 1)
        per_block = 1;
    return (uint64_t)p->sm_count * (unsigned)per_block * (block ? 1u : threads / (unsigned)G);
}

/* W words a thread: 1 for m <= 1024 (G = 1..32 threads a chunk), else the
** fewest of 2, 4, 8 that fit a block of at most 1024 threads. */
cudaError_t wm_cu_bv_infix_launch(const wm_cu_aplan_t *p, const wm_cu_ajob_t *j,
                                  const wm_cu_aout_t *o, cudaStream_t s) {
    int G = p->group;
    unsigned threads, blocks;
    if (G <= 32) { /* groups of G <= 32 inside warps */
        threads = 256;
        uint64_t per_block = threads / (unsigned)G;
        blocks = (unsigned)((j->n_chunks + per_block - 1) / per_block);
    } else {
        threads = (unsigned)G;
        blocks = (unsigned)j->n_chunks;
    }
#define WM_BV_LAUNCH(W, BLOCK)                                                                     \
    k_bv_infix<W, BLOCK><<<blocks, threads, 0, s>>>(p->d_peq256, p->w32, p->m, G, *j, *o)
    bool block = G > 32;
    switch (p->per_thread * 2 + block) {
    case 2: WM_BV_LAUNCH(1, false); break;
    case 4: WM_BV_LAUNCH(2, false); break;
    case 5: WM_BV_LAUNCH(2, true); break;
    case 8: WM_BV_LAUNCH(4, false); break;
    case 9: WM_BV_LAUNCH(4, true); break;
    case 17: WM_BV_LAUNCH(8, true); break;
    default: return cudaErrorInvalidValue;
    }
#undef WM_BV_LAUNCH
    return cudaGetLastError();
}
