/*
** wumanber.cu -- multi-pattern Wu-Manber on the GPU, as paper 003 ran it
** (--algo wumanber-paper): a window of m = min_len bytes, SHIFT over blocks
** of B = 3 bytes, HASH lists of the patterns whose last block has that
** hash, PREFIX the hash of a window's first B' = 2 bytes, shift-and-add
** hashes of the folded bytes; the text staged in shared memory with 16-byte
** loads and the longest pattern's halo, SHIFT beside it in shared memory.
**
** Each thread owns P ends and slides its window over them: a block whose
** SHIFT is s moves the window s bytes on; at SHIFT 0 the HASH list is
** walked, PREFIX filters it, and a candidate is compared byte by byte. The
** windows are anchored at the patterns' ends (their last m bytes:
** wm_wu_end_tables), so a thread's windows, and so its reports, come in end
** order, as the skeleton's listing needs (mkernel.cuh); with one pattern
** length, as in the paper's experiment, the tables are the paper's.
*/
#include "multi/mcuda.h"

struct wu_scanner {
    static const uint32_t P = 36; /* 9 words apart: lanes read shared memory without conflicts */
    wm_cu_mplan_t p;
    uint32_t halo, tables;
    uint32_t staged; /* the halo is in shared memory */

    __device__ void setup(uint8_t *s) const {
        /* fold, then SHIFT as 16-bit entries */
        for (uint32_t i = threadIdx.x; i < 64; i += blockDim.x)
            ((uint32_t *)s)[i] = ((const uint32_t *)p.fold)[i];
        uint16_t *sh = (uint16_t *)(s + 256);
        for (uint32_t i = threadIdx.x; i < p.wu_n_hash; i += blockDim.x)
            sh[i] = __ldg(p.wu_shift + i);
    }

    template <class E>
    __device__ void scan(const uint8_t *s_tab, const uint8_t *s_text, int64_t s_base, uint64_t lo,
                         uint64_t hi, const wm_cu_mtext_t &t, E &emit) const {
        const uint8_t *fold = s_tab;
        const uint16_t *shift = (const uint16_t *)(s_tab + 256);
        const uint32_t m = p.min_len, B = p.wu_B, Bp = p.wu_Bp;
        /* the window [e - m, e) ends at e; it starts in the batch */
        for (uint64_t e = lo + 1 > m ? lo + 1 : m; e <= hi;) {
            uint32_t h = 0;
            for (uint32_t j = 0; j < B; j++)
                h = (h << 2) + fold[wm_cu_text_at(staged, s_text, s_base, t, e - B + j)];
            uint32_t sh = shift[h];
            if (sh) {
                e += sh;
                continue;
            }
            uint32_t hp = 0;
            for (uint32_t j = 0; j < Bp; j++)
                hp = (hp << 2) + fold[wm_cu_text_at(staged, s_text, s_base, t, e - m + j)];
            for (uint32_t x = __ldg(p.wu_hstart + h), xe = __ldg(p.wu_hstart + h + 1); x < xe;
                 x++) {
                uint32_t u = __ldg(p.wu_hlist + x);
                if (__ldg(p.wu_prefix + u) != hp) continue;
                uint32_t len = __ldg(p.ulen + u);
                if (len > e) continue; /* it would start before the batch */
                const uint8_t *pat = p.ubytes + __ldg(p.uoff + u);
                uint32_t j = 0;
                while (j < len && fold[wm_cu_text_at(staged, s_text, s_base, t, e - len + j)] ==
                                      __ldg(pat + j))
                    j++;
                if (j == len) emit.put(e, u);
            }
            e++;
        }
    }
};

cudaError_t wm_cu_wumanber_launch(const wm_cu_mplan_t *p, int mode, const wm_cu_mtext_t *t,
                                  const wm_cu_mout_t *o, cudaStream_t s, uint64_t *blocks) {
    wu_scanner sc;
    sc.p = *p;
    sc.staged = p->max_len - 1 <= WM_CU_MAX_STAGED_HALO;
    sc.halo = sc.staged ? p->max_len - 1 : 0;
    sc.tables = 256 + 2 * p->wu_n_hash;
    *blocks = wm_cu_mblocks<wu_scanner, 256>(t->n);
    return wm_cu_mlaunch<wu_scanner, 256>(sc, mode, *t, *o, s);
}
