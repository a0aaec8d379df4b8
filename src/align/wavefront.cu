/*
** wavefront.cu -- paper 000's parallel ASM on the HMM, as the paper runs it:
** the target cut into chunks of s + 2m symbols overlapping by 2m (here: by
** the halo, which is 2m without -k), one CUDA block per chunk, one thread a
** query row, and the DP swept along anti-diagonals over a 3 x (m + 1) buffer
** in shared memory (column j of the chunk lives in e[j mod 3]), a barrier
** between diagonals. Cells of one diagonal depend only on the two before it,
** so every thread of a diagonal works at once.
**
** Differences from the paper, all on the side of a fair comparison: the
** paper rounds the buffer rows up to a multiple of 32 to spread banks (kept);
** its chunk text is staged in shared memory, ours is read through the L1
** cache (chunks of a 4M target do not fit in shared memory on any GPU); a
** query over 1024 rows gives each thread several rows; the bottom-row thread
** keeps the leftmost end of the minimum, not only the minimum.
*/
#include "align/align_cuda.cuh"

__global__ void __launch_bounds__(1024)
    k_wavefront(const uint8_t *__restrict__ qcode, const uint8_t *__restrict__ code,
                unsigned n_codes, uint32_t m, uint32_t stride, wm_cu_ajob_t j, wm_cu_aout_t o) {
    extern __shared__ uint32_t e[]; /* 3 rows of `stride` cells */
    uint64_t gid = blockIdx.x;
    if (gid >= j.n_chunks) return;
    uint64_t own_lo = j.own_from + gid * j.chunk;
    uint64_t own_hi = own_lo + j.chunk < j.len ? own_lo + j.chunk : j.len;
    uint64_t scan_from = own_lo > j.halo ? own_lo - j.halo : 0;
    uint32_t ncols = (uint32_t)(own_hi - scan_from);

    /* Column 0: D[i][0] = i; row 0 is 0 in every column (the free top row). */
    for (uint32_t i = threadIdx.x; i <= m; i += blockDim.x) {
        e[i] = i;
        e[stride + i] = i == 0 ? 0 : UINT32_MAX;
        e[2 * stride + i] = i == 0 ? 0 : UINT32_MAX;
    }
    __syncthreads();

    uint32_t bd = UINT32_MAX;
    uint64_t be = 0;
    /* diagonal k holds the cells (i, jj) with jj = k - i + 2, jj = 1..ncols */
    const uint32_t diagonals = ncols + m - 1;
    for (uint32_t k = 0; k < diagonals; k++) {
        for (uint32_t i = threadIdx.x + 1; i <= m; i += blockDim.x) {
            int64_t jj = (int64_t)k - i + 2;
            if (jj < 1 || jj > (int64_t)ncols) continue;
            uint32_t cur = (uint32_t)(jj % 3), prv = (uint32_t)((jj + 2) % 3);
            unsigned xc = qcode[i - 1];
            unsigned yc = code[j.text[scan_from + jj - 1]];
            uint32_t v = e[prv * stride + i - 1] + (xc == yc && xc < n_codes ? 0u : 1u);
            uint32_t up = e[cur * stride + i - 1] + 1, left = e[prv * stride + i] + 1;
            v = v < up ? v : up;
            v = v < left ? v : left;
            e[cur * stride + i] = v;
            if (i == m) {
                uint64_t end = scan_from + (uint64_t)jj;
                if (end > own_lo && v <= j.limit) {
                    if (v < bd) {
                        bd = v;
                        be = end;
                    }
                    if (v <= j.report_le && o.hits.keys) wm_cu_push(o.hits, j.base, end, 0, v);
                }
            }
        }
        __syncthreads();
    }
    if (bd != UINT32_MAX) wm_cu_best_publish(o.best, bd, j.base + be);
}

static unsigned wavefront_threads(const wm_cu_aplan_t *p, size_t *smem) {
    uint32_t stride = (p->m + 1 + 31) / 32 * 32; /* the paper's bank padding */
    *smem = 3u * stride * sizeof(uint32_t);
    unsigned threads = p->m < 1024 ? p->m : 1024;
    return (threads + 31) / 32 * 32;
}

/* Blocks (chunks) the GPU holds at once. */
uint64_t wm_cu_wavefront_resident_chunks(const wm_cu_aplan_t *p) {
    size_t smem;
    unsigned threads = wavefront_threads(p, &smem);
    int per_block = 0;
    if (wm_cu_allow_smem((const void *)k_wavefront, smem) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_block, k_wavefront, (int)threads,
                                                      smem) != cudaSuccess ||
        per_block < 1)
        per_block = 1;
    return (uint64_t)p->sm_count * (unsigned)per_block;
}

cudaError_t wm_cu_wavefront_launch(const wm_cu_aplan_t *p, const wm_cu_ajob_t *j,
                                   const wm_cu_aout_t *o, cudaStream_t s) {
    size_t smem;
    unsigned threads = wavefront_threads(p, &smem);
    uint32_t stride = (uint32_t)(smem / (3 * sizeof(uint32_t)));
    cudaError_t err = wm_cu_allow_smem((const void *)k_wavefront, smem);
    if (err != cudaSuccess) return err;
    k_wavefront<<<(unsigned)j->n_chunks, threads, smem, s>>>(p->d_qcode, p->d_code, p->n_codes,
                                                             p->m, stride, *j, *o);
    return cudaGetLastError();
}
