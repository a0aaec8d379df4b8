/*
** myers.cu -- search within k edits on the GPU with Myers' bit-vector DP
** (see myers.c), one segment per lane (segment.cuh).
** m <= 64: one state word (32 or 64 bits) in registers.
** 64 < m <= 64 * WM_CU_MAX_BLOCKS: 64-row blocks banded as on the CPU; the
** band is usually one or two blocks deep, so although the block arrays live
** in local memory, few of them are touched per byte. The mask table is in
** shared memory when it fits (256 x blocks words), else read through L1.
*/
#include "search/segment.cuh"

template <typename W>
__global__ void __launch_bounds__(256)
    k_myers_word(wm_cu_text_t t, wm_cu_hits_t h, const uint64_t *__restrict__ peq, uint32_t m,
                 uint32_t k, uint32_t strand, uint64_t seg, uint64_t halo, bool candidate) {
    extern __shared__ __align__(16) unsigned char smem[];
    W *lut = reinterpret_cast<W *>(smem);
    fill_lane_table<W>(lut, peq);
    const W *lut_lane = lut + (threadIdx.x & 31);
    const uint32_t top = m - 1;

    for_each_segment(t, seg, halo, [&](uint64_t own0, uint64_t own1, uint64_t from) {
        W Pv = ~(W)0, Mv = 0;
        int score = (int)m;
        for (uint64_t p = from; p < own1; p += 16) {
            uint4 v = __ldg(reinterpret_cast<const uint4 *>(t.text + p));
            uint32_t w[4] = { v.x, v.y, v.z, v.w };
            uint32_t mask = 0, err[4] = { 0, 0, 0, 0 };
#pragma unroll
            for (int j = 0; j < 16; j++) {
                W Eq = lut_lane[((w[j >> 2] >> (8 * (j & 3))) & 0xffu) << 5];
                W Xv = Eq | Mv;
                W Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq;
                W Ph = Mv | ~(Xh | Pv);
                W Mh = Pv & Xh;
                score += (int)((Ph >> top) & 1) - (int)((Mh >> top) & 1);
                Ph <<= 1;
                Mh <<= 1;
                Pv = Mh | ~(Xv | Ph);
                Mv = Ph & Xv;
                if (score <= (int)k) {
                    mask |= 1u << j;
                    err[j >> 2] |= (uint32_t)score << (8 * (j & 3));
                }
            }
            if (!mask) continue;
            /* keep the ends this lane owns: (own0, own1] */
            uint64_t lo = own0 > p ? own0 - p : 0; /* ends p+j+1 > own0 <=> j >= lo */
            uint64_t hi = own1 - p;                /* p+j+1 <= own1 <=> j < hi */
            if (lo >= 16) mask = 0;
            else mask &= ~0u << lo;
            if (hi < 16) mask &= (1u << hi) - 1;
            if (mask) wm_cu_push_group(h, t.base, p, mask, err, strand, candidate);
        }
    });
}

__device__ __forceinline__ int advance_block(uint64_t &pv, uint64_t &mv, uint64_t Eq, int hin,
                                             uint64_t bottom) {
    uint64_t Pv = pv, Mv = mv;
    uint64_t Xv = Eq | Mv;
    if (hin < 0) Eq |= 1;
    uint64_t Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq;
    uint64_t Ph = Mv | ~(Xh | Pv);
    uint64_t Mh = Pv & Xh;
    int hout = (Ph & bottom) ? 1 : ((Mh & bottom) ? -1 : 0);
    Ph <<= 1;
    Mh <<= 1;
    if (hin < 0) Mh |= 1;
    else if (hin > 0) Ph |= 1;
    pv = Mh | ~(Xv | Ph);
    mv = Ph & Xv;
    return hout;
}

template <bool SMEM>
__global__ void __launch_bounds__(128)
    k_myers_blocks(wm_cu_text_t t, wm_cu_hits_t h, const uint64_t *__restrict__ peq, uint32_t m,
                   uint32_t k, uint32_t nb, uint32_t strand, uint64_t seg, uint64_t halo) {
    extern __shared__ __align__(16) unsigned char smem[];
    const uint64_t *tab = peq;
    if (SMEM) {
        uint64_t *s = reinterpret_cast<uint64_t *>(smem);
        for (uint32_t i = threadIdx.x; i < 256 * nb; i += blockDim.x) s[i] = __ldg(&peq[i]);
        __syncthreads();
        tab = s;
    }
    const int last_rows = (int)(m - 64 * (nb - 1));
    const int ik = (int)k;

    for_each_segment(t, seg, halo, [&](uint64_t own0, uint64_t own1, uint64_t from) {
        uint64_t Pv[WM_CU_MAX_BLOCKS], Mv[WM_CU_MAX_BLOCKS];
        int score[WM_CU_MAX_BLOCKS];
        uint32_t y = (uint32_t)(k / 64);
        if (y >= nb) y = nb - 1;
        for (uint32_t b = 0; b <= y; b++) {
            Pv[b] = ~0ull;
            Mv[b] = 0;
            score[b] = (int)(b * 64) + (b + 1 < nb ? 64 : last_rows);
        }
        for_each_byte(t.text, from, own1, [&](uint32_t c, uint64_t pos) {
            const uint64_t *eq = tab + (size_t)c * nb;
            int hcarry = 0;
            for (uint32_t b = 0; b <= y; b++) {
                uint64_t bottom = b + 1 < nb ? (1ull << 63) : (1ull << (last_rows - 1));
                hcarry = advance_block(Pv[b], Mv[b], eq[b], hcarry, bottom);
                score[b] += hcarry;
            }
            while (y + 1 < nb && (score[y] <= ik || score[y] - hcarry <= ik)) {
                int above_prev = score[y] - hcarry;
                y++;
                int rows = y + 1 < nb ? 64 : last_rows;
                Pv[y] = ~0ull;
                Mv[y] = 0;
                score[y] = above_prev + rows;
                hcarry = advance_block(Pv[y], Mv[y], eq[y], hcarry, 1ull << (rows - 1));
                score[y] += hcarry;
            }
            while (y > 0 && score[y] >= ik + (y + 1 < nb ? 64 : last_rows)) y--;
            if (y == nb - 1 && score[y] <= ik) {
                uint64_t e = pos + 1;
                if (e > own0 && e <= own1) wm_cu_push(h, t.base, e, strand, (uint32_t)score[y]);
            }
        });
    });
}

template <typename W>
static cudaError_t launch_word(const wm_cu_plan_t *p, int strand, const wm_cu_text_t *t,
                               const wm_cu_hits_t *h, int sm_count, cudaStream_t s) {
    const int threads = 256;
    size_t smem = 256 * 32 * sizeof(W);
    uint64_t halo = p->khalo, seg = wm_cu_segment_bytes(halo);
    uint64_t n_seg = (t->n - t->own_from + seg - 1) / seg;
    unsigned blocks;
    cudaError_t e = segment_grid(k_myers_word<W>, threads, smem, sm_count, n_seg, &blocks);
    if (e != cudaSuccess) return e;
    k_myers_word<W>
        <<<blocks, threads, smem, s>>>(*t, *h, p->d_kpeq + (size_t)strand * 256 * p->kwords, p->km,
                                       p->k, (uint32_t)strand, seg, halo, p->filter != 0);
    return cudaGetLastError();
}

template <bool SMEM>
static cudaError_t launch_blocks(const wm_cu_plan_t *p, int strand, const wm_cu_text_t *t,
                                 const wm_cu_hits_t *h, int sm_count, cudaStream_t s) {
    const int threads = 128;
    size_t smem = SMEM ? 256 * (size_t)p->n_words * sizeof(uint64_t) : 0;
    uint64_t halo = wm_pat_halo(p->pat), seg = wm_cu_segment_bytes(halo);
    uint64_t n_seg = (t->n - t->own_from + seg - 1) / seg;
    unsigned blocks;
    cudaError_t e = segment_grid(k_myers_blocks<SMEM>, threads, smem, sm_count, n_seg, &blocks);
    if (e != cudaSuccess) return e;
    k_myers_blocks<SMEM>
        <<<blocks, threads, smem, s>>>(*t, *h, p->d_peq + (size_t)strand * 256 * p->n_words, p->m,
                                       p->k, p->n_words, (uint32_t)strand, seg, halo);
    return cudaGetLastError();
}

cudaError_t wm_cu_myers_launch(const wm_cu_plan_t *p, int strand, const wm_cu_text_t *t,
                               const wm_cu_hits_t *h, int sm_count, cudaStream_t s) {
    if (p->km <= 32) return launch_word<uint32_t>(p, strand, t, h, sm_count, s);
    if (p->km <= 64) return launch_word<uint64_t>(p, strand, t, h, sm_count, s);
    /* Up to 96 KiB of table in shared memory; beyond, L1 serves it. */
    if (p->n_words <= 48) return launch_blocks<true>(p, strand, t, h, sm_count, s);
    return launch_blocks<false>(p, strand, t, h, sm_count, s);
}
