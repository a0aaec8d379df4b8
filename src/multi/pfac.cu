/*
** pfac.cu -- failureless Aho-Corasick on the GPU (the PFAC idea of paper
** 003's related work): one walk per text position, no failure links. We walk
** the trie of the reversed strings backwards from each END, so every thread
** reports in end order and the output needs no sort. The text (and the
** longest pattern's halo) is staged in shared memory with 16-byte loads;
** the trie's full table, or its compact form, is read through L1/L2.
*/
#include "multi/mcuda.h"

struct pfac_scanner {
    static const uint32_t P = 16;
    wm_cu_mplan_t p;
    uint32_t halo, tables;
    uint32_t staged; /* the halo is in shared memory */

    __device__ void setup(uint8_t *s) const {
        for (uint32_t i = threadIdx.x; i < 64; i += blockDim.x)
            ((uint32_t *)s)[i] = ((const uint32_t *)p.sym)[i];
    }

    __device__ __forceinline__ uint32_t child(uint32_t v, uint32_t a) const {
        if (p.table) {
            uint32_t x = __ldg(p.table + ((size_t)v << p.shift) + a);
            return x >> p.shift & (0x7fffffffu >> p.shift);
        }
        return wm_cu_trie_child(p, v, a);
    }

    template <class E>
    __device__ void scan(const uint8_t *s_sym, const uint8_t *s_text, int64_t s_base, uint64_t lo,
                         uint64_t hi, const wm_cu_mtext_t &t, E &emit) const {
        for (uint64_t e = lo + 1; e <= hi; e++) {
            uint32_t v = 0;
            uint64_t stop = e > p.max_len ? e - p.max_len : 0;
            for (uint64_t j = e; j > stop;) {
                --j;
                uint8_t c = wm_cu_text_at(staged, s_text, s_base, t, j);
                v = child(v, s_sym[c]);
                if (v == 0) break;
                uint32_t u = __ldg(p.out + v);
                if (u != 0xffffffffu) emit.put(e, u);
            }
        }
    }
};

cudaError_t wm_cu_pfac_launch(const wm_cu_mplan_t *p, int mode, const wm_cu_mtext_t *t,
                              const wm_cu_mout_t *o, cudaStream_t s, uint64_t *blocks) {
    pfac_scanner sc;
    sc.p = *p;
    sc.staged = p->max_len - 1 <= WM_CU_MAX_STAGED_HALO;
    sc.halo = sc.staged ? p->max_len - 1 : 0;
    sc.tables = 256;
    *blocks = wm_cu_mblocks<pfac_scanner, 256>(t->n);
    return wm_cu_mlaunch<pfac_scanner, 256>(sc, mode, *t, *o, s);
}
