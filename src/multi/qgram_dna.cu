/*
** qgram_dna.cu -- the q-gram index of a DNA set with q <= 8 at the device's
** memory speed (issue 23, item 2).
**
** The general kernel (qgram.cu) stages tiles of text in shared memory behind
** barriers and looks up every byte's symbol in a table; it counted 1 GiB at
** 0.38 TB/s. Here nothing but the set's table sits in shared memory:
**   - a warp reads 512 bytes with one 16-byte load a lane, straight from
**     global memory into registers, the next 512 already in flight;
**   - a lane turns its 16 bytes into 16 two-bit codes in one word by
**     arithmetic ((c >> 1 ^ c >> 2) & 3 is the code of A C G T in either
**     case) and checks with two byte permutes that all were bases; a word
**     that holds anything else (N, U, a byte the set's fold does not take)
**     goes through the symbol table instead;
**   - the 8 symbols before its first end come from the lane before
**     (a shuffle, mwarp.cuh's skeleton), so the code of every end is one
**     funnel shift of two words, and one shared-memory load answers it.
** The table: for counting a set whose strings are all q long, the number
** of matches of each code (4^q bytes, one load, one add an end); otherwise
** a bitmap of the codes some string ends with (4^q bits), and where it is
** set the strings are looked up: through a code -> uid table when every
** code is one string, else the buckets (qgram_verify.cuh).
**
** Order, chunks and the listing's two passes: mwarp.cuh.
*/
#include "multi/mcuda.h"
#include "multi/mwarp.cuh"
#include "multi/qgram_verify.cuh"

/* Four text bytes (byte 0 first) as four 2-bit codes in one byte, the first
** in the top bits; bad gets bit 3 - k when byte k is no base. */
__device__ __forceinline__ uint32_t qd_word(uint32_t w, uint32_t fast, const uint8_t *s_sym,
                                            uint32_t &bad) {
    uint32_t t = ((w >> 1) ^ (w >> 2)) & 0x03030303u;
    /* the byte each code stands for, to see that w holds nothing else */
    uint32_t x = t | (t >> 4);
    uint32_t sel = __byte_perm(x, 0, 0x4420); /* nibble k = code of byte k */
    uint32_t canon = __byte_perm(fast == 2 ? 0x74676361u : 0x54474341u, 0, sel);
    uint32_t seen = fast == 2 ? (w | 0x20202020u) : w;
    if (fast && seen == canon) {
        bad = 0;
        /* codes at bits 0, 8, 16, 24 to bits 30, 28, 26, 24: no carries */
        return (t * 0x40100401u) >> 24;
    }
    uint32_t packed = 0;
    bad = 0;
#pragma unroll
    for (int k = 0; k < 4; k++) {
        uint32_t a = s_sym[(w >> (8 * k)) & 0xffu];
        packed = packed << 2 | (a & 3u);
        bad = bad << 1 | (a >= 4u);
    }
    return packed;
}

/* The scanner (mwarp.cuh). A lane's state: the codes of its 16 bytes (byte
** 0's in bits 31-30) and bit 15 - k set when byte k is no base; the carry
** is the same two words. Shared memory: sym, then the table. */
struct qgram_dna_scanner {
    typedef uint2 lane_t;
    static const bool may_be_exact = true;
    static const int min_blocks = 3; /* the 64 KiB count table allows 3 */
    wm_cu_mplan_t p;
    uint32_t tables, sums, cmask, tab_words;
    bool exact; /* every code is one string: rank_base, rank_uid */

    __device__ void setup(uint8_t *s) const {
        for (uint32_t i = threadIdx.x; i < 64; i += blockDim.x)
            ((uint32_t *)s)[i] = ((const uint32_t *)p.sym)[i];
        const uint32_t *tab = sums ? (const uint32_t *)p.code_mult : p.bitmap;
        for (uint32_t i = threadIdx.x; i < tab_words; i += blockDim.x)
            ((uint32_t *)(s + 256))[i] = __ldg(tab + i);
        if (exact && !sums) /* the ranks after the bitmap, as 32-bit words */
            for (uint32_t i = threadIdx.x; i < (tab_words + 1) / 2; i += blockDim.x)
                ((uint32_t *)(s + 256))[tab_words + i] = __ldg((const uint32_t *)p.rank_base + i);
    }
    __device__ lane_t decode(uint4 v, const uint8_t *s) const {
        uint32_t b0, b1, b2, b3, f = p.qg_fast;
        uint32_t c = qd_word(v.x, f, s, b0) << 24 | qd_word(v.y, f, s, b1) << 16 |
                     qd_word(v.z, f, s, b2) << 8 | qd_word(v.w, f, s, b3);
        return make_uint2(c, b0 << 12 | b1 << 8 | b2 << 4 | b3);
    }
    __device__ uint2 carry(const lane_t &l) const { return l; }
    __device__ lane_t from(const lane_t &l, int lane) const {
        return make_uint2(__shfl_sync(WM_MW_FULL, l.x, lane), __shfl_sync(WM_MW_FULL, l.y, lane));
    }
    __device__ uint2 nothing() const { return make_uint2(0, 0xffffu); }
    /* the code of the q-gram ending at byte j, from the lane's codes and the
    ** 16 before them: one funnel shift */
    __device__ uint32_t code(const lane_t &l, uint2 up, uint32_t j) const {
        return key(up.x, l.x, j);
    }
    __device__ uint32_t ok(const lane_t &l, uint2 up) const {
        uint32_t bw = up.y << 16 | l.y, q = p.q;
        if (!(bw & ((1u << (15 + q)) - 1))) return 0xffffu; /* its 16 and the q - 1 before */
        uint32_t spread = bw;
        for (uint32_t i = 1; i < q; i++) spread |= bw >> i;
        return ~spread & 0xffffu;
    }
    __device__ uint32_t sum(const lane_t &l, uint2 up, uint32_t ok, const uint8_t *s) const {
        const uint8_t *cm = s + 256;
        uint32_t n = 0;
        if (ok == 0xffffu) {
#pragma unroll
            for (uint32_t j = 0; j < 16; j++) n += cm[code(l, up, j)];
        } else {
#pragma unroll
            for (uint32_t j = 0; j < 16; j++)
                if ((ok >> (15 - j)) & 1) n += cm[code(l, up, j)];
        }
        return n;
    }
    __device__ uint32_t hits(const lane_t &l, uint2 up, uint32_t ok, const uint8_t *s) const {
        const uint32_t *bm = (const uint32_t *)(s + 256);
        uint32_t h = 0;
#pragma unroll
        for (uint32_t j = 0; j < 16; j++) {
            uint32_t x = code(l, up, j);
            h |= ((bm[x >> 5] >> (x & 31)) & 1u) << (15 - j);
        }
        return h & ok;
    }
    template <class E>
    __device__ void visit(const lane_t &l, uint2 up, uint32_t j, uint64_t e, uint32_t,
                          const wm_cu_mtext_t &t, const uint8_t *, E &emit) const {
        wm_cu_qgram_verify(p, t, e, code(l, up, j), emit);
    }
    __device__ uint32_t keep(uint2 carry) const { return carry.x; }
    __device__ uint32_t key(uint32_t up, uint32_t mine, uint32_t j) const {
        return (uint32_t)(((uint64_t)up << 32 | mine) >> (30 - 2 * j)) & cmask;
    }
    /* the code's rank among the set codes from the bitmap and the ranks in
    ** shared memory, then its uid from a table of n_uniq entries: 2n bytes
    ** that stay in L1, where a table by code (2 * 4^q) did not */
    __device__ uint32_t uid(uint32_t key, const uint8_t *s) const {
        const uint32_t *bm = (const uint32_t *)(s + 256);
        const uint16_t *rank = (const uint16_t *)(bm + tab_words);
        uint32_t r = rank[key >> 5] + __popc(bm[key >> 5] & ((1u << (key & 31)) - 1));
        return __ldg(p.rank_uid + r);
    }
};

int wm_cu_qgram_dna_fits(const wm_cu_mplan_t *p, const wm_cu_mtext_t *t) {
    /* 16-byte loads need an aligned text (every batch buffer is) */
    return p->qg_dna && p->qg_direct && p->q <= 8 && ((uintptr_t)t->text & 15) == 0;
}

cudaError_t wm_cu_qgram_dna_launch(const wm_cu_mplan_t *p, int mode, const wm_cu_mtext_t *t,
                                   const wm_cu_mout_t *o, cudaStream_t s, uint64_t *blocks) {
    qgram_dna_scanner sc;
    sc.p = *p;
    sc.cmask = (1u << (2 * p->q)) - 1;
    sc.sums = mode == WM_MM_TOTAL && p->code_mult != NULL;
    sc.exact = p->rank_uid != NULL;
    uint32_t codes = 1u << (2 * p->q);
    sc.tab_words = sc.sums ? codes / 4 : (codes + 31) / 32;
    sc.tables = 256 + 4 * sc.tab_words;
    if (sc.exact && !sc.sums) sc.tables += 4 * ((sc.tab_words + 1) / 2);
    return sc.sums ? wm_mw_launch<qgram_dna_scanner, 1>(sc, mode, *t, *o, s, blocks)
                   : wm_mw_launch<qgram_dna_scanner, 0>(sc, mode, *t, *o, s, blocks);
}
