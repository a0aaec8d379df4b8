/*
** shiftor.cu -- exact search (k = 0) on the GPU.
**
** cuShiftOr (Mitani, Ino, Hagihara) writes Shift-Or as an inclusive scan:
** the state after reading bytes c1..cj from state R0 is (R0 << j) | L_j,
** where L_j is what the same bytes give from the all-active state 0. So a lane
** can run its bytes without knowing where it starts and learn R0 afterwards.
** When a lane reads at least as many bytes as the state has bits (here 32
** bytes, 32-bit state), R0 << 32 vanishes: a lane's final state is its own
** L_32, and the whole scan collapses to one shuffle from the lane before.
** Lane 0 takes lane 31's state from the previous tile of the same warp.
**
** The automaton holds the last min(m, 32) pattern positions ("tail"); for
** longer patterns each tail match is a candidate whose first m - 32
** positions are checked against the text directly. Random and genomic text
** make such candidates rare; periodic text makes them common but stays exact.
**
** The mask table sits in shared memory once per lane, so every lookup of a
** warp hits 32 different banks whatever the bytes are: no bank conflicts,
** which the paper names as its limit for alphabets over 32 symbols. The
** entry of byte c, strand s, lane l is at byte offset 256c + 128s + 4l: one
** byte permute (PRMT) drops a text byte into that address, so a lookup costs
** one instruction besides the load itself.
**
** Layout: a tile is 32 lanes x 32 bytes = 1 KiB; each warp owns a run of
** consecutive tiles and starts with one warm-up tile to learn its carry.
*/
#include "search/search_cuda.cuh"

#define TILE 1024
#define FULL 0xffffffffu

typedef struct {
    uint32_t L;   /* the lane's state after its 32 bytes, from state 0 */
    uint32_t acc; /* bit 32-j: L_j's accept bit (1 = no match) */
} lane_run_t;

/* lane_off = 128s + 4l (below 256, so it is byte 0 of the address). */
__device__ __forceinline__ lane_run_t run_lane(const unsigned char *lut, uint32_t lane_off, uint4 a,
                                               uint4 b) {
    uint32_t w[8] = { a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w };
    uint32_t L = 0, acc = 0;
#pragma unroll
    for (int q = 0; q < 8; q++) {
#pragma unroll
        for (int i = 0; i < 4; i++) {
            /* address bytes: [lane_off, text byte i, 0, 0] */
            uint32_t at = __byte_perm(w[q], lane_off, 0x5504u | (uint32_t)(i << 4));
            L = (L << 1) | *reinterpret_cast<const uint32_t *>(lut + at);
            acc = __funnelshift_l(L, acc, 1); /* acc << 1 | L >> 31 */
        }
    }
    lane_run_t r = { L, acc };
    return r;
}

/* Check the pattern positions before the tail (m > 32) at end e. */
__device__ __forceinline__ bool head_matches(const uint64_t *__restrict__ peq, uint32_t nw,
                                             uint32_t m, const uint8_t *text, uint64_t e) {
    const uint8_t *s = text + (e - m);
    for (uint32_t i = 0; i + 32 < m; i++) {
        uint64_t word = __ldg(&peq[(uint64_t)s[i] * nw + (i >> 6)]);
        if (!((word >> (i & 63)) & 1)) return false;
    }
    return true;
}

template <int NS>
__global__ void __launch_bounds__(512)
    k_shiftor(wm_cu_text_t t, wm_cu_hits_t h, const uint32_t *__restrict__ tail,
              const uint64_t *__restrict__ peq0, const uint64_t *__restrict__ peq1, uint32_t m,
              uint32_t nw, uint64_t tiles_per_warp) {
    extern __shared__ __align__(16) unsigned char lut[]; /* 256 x 256 bytes */
    uint32_t *lut_w = reinterpret_cast<uint32_t *>(lut);
    for (int i = threadIdx.x; i < 256 * 64; i += blockDim.x) {
        int c = i >> 6, s = (i >> 5) & 1; /* word 64c + 32s + l */
        lut_w[i] = s < NS ? tail[s * 256 + c] : 0;
    }
    __syncthreads();

    const int lane = threadIdx.x & 31;
    const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const uint64_t n_tiles = (t.n + TILE - 1) / TILE;
    const uint64_t first_owned_tile = t.own_from / TILE;
    uint64_t t0 = first_owned_tile + warp * tiles_per_warp;
    if (t0 >= n_tiles) return;
    const uint64_t t1 = min(t0 + tiles_per_warp, n_tiles);
    const uint32_t tl = m < 32 ? m : 32;
    const uint32_t nothing = tl == 32 ? FULL : ~(FULL >> tl); /* tail bits inactive */
    const uint4 *text4 = reinterpret_cast<const uint4 *>(t.text);

    uint32_t carry[NS];
#pragma unroll
    for (int s = 0; s < NS; s++) carry[s] = nothing;
    if (t0 > 0) { /* warm-up tile */
        uint64_t v = (t0 - 1) * (TILE / 16) + 2 * lane;
        uint4 a = __ldg(text4 + v), b = __ldg(text4 + v + 1);
#pragma unroll
        for (int s = 0; s < NS; s++)
            carry[s] = __shfl_sync(FULL, run_lane(lut, 128 * s + 4 * lane, a, b).L, 31);
    }

    uint64_t v = t0 * (TILE / 16) + 2 * lane;
    uint4 a = __ldg(text4 + v), b = __ldg(text4 + v + 1);
    for (uint64_t tile = t0; tile < t1; tile++) {
        uint4 na = a, nb = b;
        if (tile + 1 < t1) { /* next tile in flight */
            na = __ldg(text4 + v + TILE / 16);
            nb = __ldg(text4 + v + TILE / 16 + 1);
        }
#pragma unroll
        for (int s = 0; s < NS; s++) {
            lane_run_t r = run_lane(lut, 128 * s + 4 * lane, a, b);
            uint32_t R0 = __shfl_up_sync(FULL, r.L, 1);
            if (lane == 0) R0 = carry[s];
            carry[s] = __shfl_sync(FULL, r.L, 31);
            uint32_t match = ~(r.acc | (R0 << 1));
            if (__any_sync(FULL, match != 0)) {
                const uint64_t *peq = s == 0 ? peq0 : peq1;
                while (match) {
                    int bit = __ffs(match) - 1;
                    match &= match - 1;
                    uint64_t e = tile * TILE + (uint64_t)lane * 32 + (uint64_t)(32 - bit);
                    if (e > t.own_from && e <= t.n && e >= m &&
                        (m <= 32 || head_matches(peq, nw, m, t.text, e)))
                        wm_cu_push(h, t.base, e, (uint32_t)s, 0);
                }
            }
        }
        a = na;
        b = nb;
        v += TILE / 16;
    }
}

template <int NS>
static cudaError_t launch(const wm_cu_plan_t *p, const wm_cu_text_t *t, const wm_cu_hits_t *h,
                          int sm_count, cudaStream_t s) {
    const int threads = 512;
    size_t smem = 256 * 256;
    cudaError_t e = wm_cu_allow_smem((const void *)k_shiftor<NS>, smem);
    if (e != cudaSuccess) return e;
    int per_sm = 0;
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_shiftor<NS>, threads, smem);
    if (e != cudaSuccess) return e;
    if (per_sm < 1) per_sm = 1;
    uint64_t owned_tiles = (t->n + TILE - 1) / TILE - t->own_from / TILE;
    uint64_t warps = (uint64_t)sm_count * per_sm * (threads / 32);
    /* At least 16 tiles per warp so the warm-up tile costs little. */
    uint64_t per_warp = (owned_tiles + warps - 1) / warps;
    if (per_warp < 16) per_warp = 16;
    uint64_t blocks = ((owned_tiles + per_warp - 1) / per_warp * 32 + threads - 1) / threads;
    if (blocks < 1) blocks = 1;
    k_shiftor<NS><<<(unsigned)blocks, threads, smem, s>>>(
        *t, *h, p->d_tail, p->d_peq, NS > 1 ? p->d_peq + 256 * (size_t)p->n_words : p->d_peq, p->m,
        p->n_words, per_warp);
    return cudaGetLastError();
}

cudaError_t wm_cu_shiftor_launch(const wm_cu_plan_t *p, int strand, const wm_cu_text_t *t,
                                 const wm_cu_hits_t *h, int sm_count, cudaStream_t s) {
    (void)strand; /* both strands in one pass over the text */
    return p->n_strands == 2 ? launch<2>(p, t, h, sm_count, s) : launch<1>(p, t, h, sm_count, s);
}
