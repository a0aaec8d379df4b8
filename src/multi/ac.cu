/*
** ac.cu -- Aho-Corasick on the GPU as paper 003 runs it: each thread scans
** its own chunk of the text through the automaton, starting (longest - 1)
** bytes early so that every occurrence ending in the chunk is seen; the
** block's text and that overlap are staged in shared memory with 16-byte
** loads. The DFA (or goto lists with failure links when it does not fit)
** is read through L1/L2.
*/
#include "multi/mcuda.h"

struct ac_scanner {
    static const uint32_t P = 64;
    wm_cu_mplan_t p;
    uint32_t halo, tables;
    uint32_t staged;

    __device__ void setup(uint8_t *s) const {
        for (uint32_t i = threadIdx.x; i < 64; i += blockDim.x)
            ((uint32_t *)s)[i] = ((const uint32_t *)p.sym)[i];
    }

    __device__ __forceinline__ uint32_t child(uint32_t v, uint32_t a) const {
        return wm_cu_trie_child(p, v, a);
    }

    template <class E>
    __device__ __forceinline__ void report(uint32_t v, uint64_t e, E &emit) const {
        uint32_t u = __ldg(p.out + v);
        if (u != 0xffffffffu) emit.put(e, u);
        for (uint32_t w = __ldg(p.dict + v); w != 0; w = __ldg(p.dict + w))
            emit.put(e, __ldg(p.out + w));
    }

    template <class E>
    __device__ void scan(const uint8_t *s_sym, const uint8_t *s_text, int64_t s_base, uint64_t lo,
                         uint64_t hi, const wm_cu_mtext_t &t, E &emit) const {
        uint64_t from = lo > p.max_len - 1 ? lo - (p.max_len - 1) : 0;
        uint32_t v = 0;
        for (uint64_t j = from; j < hi; j++) {
            uint8_t c = wm_cu_text_at(staged, s_text, s_base, t, j);
            uint32_t a = s_sym[c];
            bool rep;
            if (p.table) {
                uint32_t x = __ldg(p.table + ((size_t)v << p.shift) + a);
                v = (x & 0x7fffffffu) >> p.shift;
                rep = x >> 31;
            } else {
                for (;;) {
                    uint32_t c2 = child(v, a);
                    if (c2) {
                        v = c2;
                        break;
                    }
                    if (v == 0) break;
                    v = __ldg(p.fail + v);
                }
                rep = __ldg(p.reports + v);
            }
            if (rep && j >= lo) report(v, j + 1, emit);
        }
    }
};

cudaError_t wm_cu_ac_launch(const wm_cu_mplan_t *p, int mode, const wm_cu_mtext_t *t,
                            const wm_cu_mout_t *o, cudaStream_t s, uint64_t *blocks) {
    ac_scanner sc;
    sc.p = *p;
    sc.staged = p->max_len - 1 <= WM_CU_MAX_STAGED_HALO;
    sc.halo = sc.staged ? p->max_len - 1 : 0;
    sc.tables = 256;
    *blocks = wm_cu_mblocks<ac_scanner, 128>(t->n);
    return wm_cu_mlaunch<ac_scanner, 128>(sc, mode, *t, *o, s);
}
