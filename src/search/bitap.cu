/*
** bitap.cu -- search within k = 1..4 errors for m <= 64 on the GPU with the
** Wu-Manber bit-parallel NFA (see bitap.c), one segment per lane
** (segment.cuh), 32-bit state words (patterns over 32 run their last 32
** positions as a filter; the host verifies what it finds).
**
** Written in Shift-Or form (0 = active) with the pattern in the top m bits
** of the word, so that a level is updated in three instructions:
**     R'd = ((Rd << 1) | M) & (Rd-1 << 1) & (R'd-1 << 1) & Rd-1     (edit)
**     R'd = ((Rd << 1) | M) & (Rd-1 << 1)                           (Hamming)
** where each shifted word is kept from the step that made it, and the accept
** bit of level k is the word's top bit. That bit is gathered for 16 bytes at
** a time; only a group holding a match is replayed byte by byte to find
** each end's smallest error level.
*/
#include "search/segment.cuh"

template <typename W>
__device__ __forceinline__ uint32_t top_bit_word(W x) {
    return sizeof(W) == 8 ? (uint32_t)((uint64_t)x >> 32) : (uint32_t)x;
}

template <typename W, int K, bool EDIT>
struct bitap_state {
    W R[K + 1], S[K + 1]; /* S[d] = R[d] << 1 */

    /* Before any text: nothing active at level 0; with edits the first d
    ** pattern positions may be deleted at level d. The bits below the pattern
    ** (shift of them) stay 0: the always-active empty prefix. */
    __device__ __forceinline__ void init(int shift) {
#pragma unroll
        for (int d = 0; d <= K; d++) {
            R[d] = ~(W)0 << shift;
            if (EDIT && d > 0) R[d] &= ~((((W)1 << d) - 1) << shift);
            S[d] = R[d] << 1;
        }
    }
    __device__ __forceinline__ void step(W M) {
        W r_prev_old = R[0], s_prev_old = S[0];
        R[0] = S[0] | M;
        S[0] = R[0] << 1;
#pragma unroll
        for (int d = 1; d <= K; d++) {
            W r_old = R[d], s_old = S[d];
            W r = (s_old | M) & s_prev_old;
            if (EDIT) r &= S[d - 1] & r_prev_old;
            R[d] = r;
            S[d] = r << 1;
            r_prev_old = r_old;
            s_prev_old = s_old;
        }
    }
};

template <typename W, int K, bool EDIT>
__global__ void __launch_bounds__(256)
    k_bitap(wm_cu_text_t t, wm_cu_hits_t h, const uint64_t *__restrict__ peq, uint32_t m,
            uint32_t strand, uint64_t seg, uint64_t halo, bool candidate) {
    extern __shared__ __align__(16) unsigned char smem[];
    W *lut = reinterpret_cast<W *>(smem);
    const int shift = (int)(8 * sizeof(W)) - (int)m;
    for (int i = threadIdx.x; i < 256 * 32; i += blockDim.x)
        lut[i] = (W)(~__ldg(&peq[i >> 5])) << shift; /* Shift-Or masks, top-aligned */
    __syncthreads();
    const W *lut_lane = lut + (threadIdx.x & 31);
    const W top = (W)1 << (8 * sizeof(W) - 1);

    for_each_segment(t, seg, halo, [&](uint64_t own0, uint64_t own1, uint64_t from) {
        bitap_state<W, K, EDIT> st;
        st.init(shift);
        for (uint64_t p = from; p < own1; p += 16) {
            uint4 v = __ldg(reinterpret_cast<const uint4 *>(t.text + p));
            uint32_t w[4] = { v.x, v.y, v.z, v.w };
            bitap_state<W, K, EDIT> saved = st;
            uint32_t acc = 0;
#pragma unroll
            for (int q = 0; q < 4; q++)
#pragma unroll
                for (int i = 0; i < 4; i++) {
                    st.step(lut_lane[((w[q] >> (8 * i)) & 0xffu) << 5]);
                    acc = __funnelshift_l(top_bit_word(st.R[K]), acc, 1);
                }
            if ((~acc & 0xffffu) == 0) continue;
            /* a match ends in this group: replay it for the error levels */
            uint32_t mask = 0, err[4] = { 0, 0, 0, 0 };
#pragma unroll
            for (int j = 0; j < 16; j++) {
                saved.step(lut_lane[((w[j >> 2] >> (8 * (j & 3))) & 0xffu) << 5]);
                uint64_t e = p + j + 1;
                if (!(saved.R[K] & top) && e > own0 && e <= own1) {
                    uint32_t d = K;
#pragma unroll
                    for (int x = K - 1; x >= 0; x--)
                        if (!(saved.R[x] & top)) d = (uint32_t)x;
                    mask |= 1u << j;
                    err[j >> 2] |= d << (8 * (j & 3));
                }
            }
            if (mask) wm_cu_push_group(h, t.base, p, mask, err, strand, candidate);
        }
    });
}

template <typename W, int K, bool EDIT>
static cudaError_t launch(const wm_cu_plan_t *p, int strand, const wm_cu_text_t *t,
                          const wm_cu_hits_t *h, int sm_count, cudaStream_t s) {
    const int threads = 256;
    size_t smem = 256 * 32 * sizeof(W);
    uint64_t halo = p->khalo;
    uint64_t seg = wm_cu_segment_bytes(halo);
    uint64_t n_seg = (t->n - t->own_from + seg - 1) / seg;
    unsigned blocks;
    cudaError_t e = segment_grid(k_bitap<W, K, EDIT>, threads, smem, sm_count, n_seg, &blocks);
    if (e != cudaSuccess) return e;
    k_bitap<W, K, EDIT>
        <<<blocks, threads, smem, s>>>(*t, *h, p->d_kpeq + (size_t)strand * 256 * p->kwords, p->km,
                                       (uint32_t)strand, seg, halo, p->filter != 0);
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

/* Bitap always sees at most 32 positions: longer patterns run it on their
** suffix as a filter (wm_cu_plan_t.filter). */
cudaError_t wm_cu_bitap_launch(const wm_cu_plan_t *p, int strand, const wm_cu_text_t *t,
                               const wm_cu_hits_t *h, int sm_count, cudaStream_t s) {
    if (p->km > 32) return cudaErrorInvalidValue;
    return p->hamming ? by_k<uint32_t, false>(p, strand, t, h, sm_count, s)
                      : by_k<uint32_t, true>(p, strand, t, h, sm_count, s);
}
