/*
** bitap.cu -- search within k = 1..4 errors for m <= 64 on the GPU with the
** Wu-Manber bit-parallel NFA (see bitap.c), one segment per lane (segment.cuh),
** state words of 32 bits when m <= 32, else 64. The levels are unrolled for
** each k, so the whole state lives in registers.
*/
#include "cuda/segment.cuh"

template <typename W, int K, bool EDIT>
__global__ void __launch_bounds__(256)
k_bitap(wm_cu_text_t t, wm_cu_hits_t h, const uint64_t *__restrict__ peq, uint32_t m,
        uint32_t strand, uint64_t seg, uint64_t halo) {
    extern __shared__ __align__(16) unsigned char smem[];
    W *lut = reinterpret_cast<W *>(smem);
    fill_lane_table<W>(lut, peq);
    const W *lut_lane = lut + (threadIdx.x & 31);
    const W accept = (W)1 << (m - 1);

    for_each_segment(t, seg, halo, [&](uint64_t own0, uint64_t own1, uint64_t from) {
        W R[K + 1];
#pragma unroll
        for (int d = 0; d <= K; d++) R[d] = EDIT ? (((W)1 << d) - 1) : 0;
        for_each_byte(t.text, from, own1, [&](uint32_t c, uint64_t pos) {
            W b = lut_lane[c << 5];
            W prev_old = R[0];
            R[0] = ((R[0] << 1) | 1) & b;
#pragma unroll
            for (int d = 1; d <= K; d++) {
                W old = R[d];
                W r = (((old << 1) | 1) & b) | (prev_old << 1) | 1;
                if (EDIT) r |= (R[d - 1] << 1) | prev_old;
                R[d] = r;
                prev_old = old;
            }
            if (R[K] & accept) {
                uint64_t e = pos + 1;
                if (e > own0 && e <= own1) {
                    uint32_t d = K;
#pragma unroll
                    for (int x = K - 1; x >= 0; x--)
                        if (R[x] & accept) d = (uint32_t)x;
                    wm_cu_push(h, t.base, e, strand, d);
                }
            }
        });
    });
}

template <typename W, int K, bool EDIT>
static cudaError_t launch(const wm_cu_plan_t *p, int strand, const wm_cu_text_t *t,
                          const wm_cu_hits_t *h, int sm_count, cudaStream_t s) {
    const int threads = 256;
    size_t smem = 256 * 32 * sizeof(W);
    uint64_t halo = wm_db_halo(p->db);
    uint64_t seg = wm_cu_segment_bytes(halo);
    uint64_t n_seg = (t->n - t->own_from + seg - 1) / seg;
    unsigned blocks;
    cudaError_t e = segment_grid(k_bitap<W, K, EDIT>, threads, smem, sm_count, n_seg, &blocks);
    if (e != cudaSuccess) return e;
    k_bitap<W, K, EDIT><<<blocks, threads, smem, s>>>(*t, *h, p->d_peq + (size_t)strand * 256 * p->n_words,
                                                       p->m, (uint32_t)strand, seg, halo);
    return cudaGetLastError();
}

template <typename W, bool EDIT>
static cudaError_t by_k(const wm_cu_plan_t *p, int strand, const wm_cu_text_t *t,
                        const wm_cu_hits_t *h, int sm_count, cudaStream_t s) {
    switch (p->k) {
    case 1: return launch<W, 1, EDIT>(p, strand, t, h, sm_count, s);
    case 2: return launch<W, 2, EDIT>(p, strand, t, h, sm_count, s);
    case 3: return launch<W, 3, EDIT>(p, strand, t, h, sm_count, s);
    default: return launch<W, 4, EDIT>(p, strand, t, h, sm_count, s);
    }
}

cudaError_t wm_cu_bitap_launch(const wm_cu_plan_t *p, int strand, const wm_cu_text_t *t,
                               const wm_cu_hits_t *h, int sm_count, cudaStream_t s) {
    if (p->m <= 32)
        return p->hamming ? by_k<uint32_t, false>(p, strand, t, h, sm_count, s)
                          : by_k<uint32_t, true>(p, strand, t, h, sm_count, s);
    return p->hamming ? by_k<uint64_t, false>(p, strand, t, h, sm_count, s)
                      : by_k<uint64_t, true>(p, strand, t, h, sm_count, s);
}
