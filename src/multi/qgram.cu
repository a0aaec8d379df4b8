/*
** qgram.cu -- the q-gram index on the GPU (qgram.h): each thread rolls the
** code of the last q symbols over its 36 ends (36 bytes = 9 words apart:
** lanes read shared memory without bank conflicts) and probes a table in
** shared memory per position. For DNA sets whose strings are all q <= 8
** long, the table holds the number of matches per code (4^q bytes), so
** counting is one shared load per byte; otherwise a bitmap says where to
** look in the buckets, and the strings found there are verified.
** Over an aligned text (every batch) DNA sets with q <= 8 go to the kernel
** of qgram_dna.cu instead, and byte sets to qgram_bytes.cu's (keyed by 4
** and 8 bytes); both read the text straight into registers. This one
** serves longer DNA q-grams and unaligned texts.
*/
#include <type_traits>

#include "multi/mcuda.h"
#include "multi/qgram_verify.cuh"

template <bool DNA>
struct qgram_scanner {
    static const uint32_t P = 36;
    wm_cu_mplan_t p;
    uint32_t halo, tables;
    uint32_t bitmap_in_smem, cm_in_smem;

    __device__ void setup(uint8_t *s) const {
        /* sym, fold, then the code table or the bitmap */
        for (uint32_t i = threadIdx.x; i < 64; i += blockDim.x) {
            ((uint32_t *)s)[i] = ((const uint32_t *)p.sym)[i];
            ((uint32_t *)(s + 256))[i] = ((const uint32_t *)p.fold)[i];
        }
        uint32_t words = 0;
        const uint32_t *src = NULL;
        if (cm_in_smem) {
            words = (1u << (2 * p.q)) / 4;
            src = (const uint32_t *)p.code_mult;
        } else if (bitmap_in_smem) {
            words = (1u << p.bitmap_bits) / 32;
            src = p.bitmap;
        }
        for (uint32_t i = threadIdx.x; i < words; i += blockDim.x)
            ((uint32_t *)(s + 512))[i] = __ldg(src + i);
    }

    template <class E>
    __device__ void scan(const uint8_t *s_tab, const uint8_t *s_text, int64_t s_base, uint64_t lo,
                         uint64_t hi, const wm_cu_mtext_t &t, E &emit) const {
        const uint8_t *s_sym = s_tab, *s_fold = s_tab + 256;
        const uint8_t *s_cm = s_tab + 512;
        const uint32_t *s_bm = (const uint32_t *)(s_tab + 512);
        /* DNA codes fit 32 bits (q <= 16 bases): cheaper shifts */
        typedef typename std::conditional<DNA, uint32_t, uint64_t>::type code_t;
        const code_t mask = (code_t)p.code_mask;
        const uint32_t q = p.q;
        code_t code = 0;
        uint32_t run = 0;
        /* Whole words from the aligned one holding lo - (q - 1) (the halo is
        ** 16 bytes, so it is staged): one 32-bit load per 4 bytes, and the 4
        ** symbol lookups of a word are independent, so they overlap. Bytes
        ** before lo only build up the code; bytes before the batch (x < 0)
        ** are staged as 0 and break the q-gram. */
        int64_t x0 = ((int64_t)lo - (int64_t)(q - 1)) & ~(int64_t)3;
        for (int64_t w = x0; w < (int64_t)hi; w += 4) {
            uint32_t word = *(const uint32_t *)(s_text + (w - s_base));
#pragma unroll
            for (int j = 0; j < 4; j++) {
                int64_t x = w + j;
                uint32_t c = (word >> (8 * j)) & 0xffu;
                if (DNA) {
                    uint32_t a = s_sym[c];
                    run = a < 4 ? run + 1 : 0;
                    code = ((code << 2) | (a & 3)) & mask;
                } else {
                    run = x >= 0 ? run + 1 : 0;
                    code = ((code << 8) | s_fold[c]) & mask;
                }
                if (x < (int64_t)lo || x >= (int64_t)hi || run < q) continue;
                if (cm_in_smem) {
                    uint32_t m = s_cm[code];
                    if (m == 0) continue;
                    if (E::total_only) {
                        emit.add(m);
                        continue;
                    }
                } else {
                    uint64_t bit =
                        p.qg_direct
                            ? (uint64_t)code
                            : (((uint64_t)code ^ ((uint64_t)code >> 29)) * 0x9E3779B97F4A7C15ull) >>
                                  (64 - p.bitmap_bits);
                    uint32_t bw = bitmap_in_smem ? s_bm[bit >> 5] : __ldg(p.bitmap + (bit >> 5));
                    if (!((bw >> (bit & 31)) & 1)) continue;
                }
                wm_cu_qgram_verify(p, t, (uint64_t)x + 1, code, emit);
            }
        }
    }
};

template <bool DNA>
static cudaError_t launch(const wm_cu_mplan_t *p, int mode, const wm_cu_mtext_t *t,
                          const wm_cu_mout_t *o, cudaStream_t s, uint64_t *blocks) {
    qgram_scanner<DNA> sc;
    sc.p = *p;
    sc.halo = p->q - 1;
    sc.cm_in_smem = p->code_mult != NULL;
    uint64_t bm_bytes = (1ull << p->bitmap_bits) / 8;
    sc.bitmap_in_smem = !sc.cm_in_smem && bm_bytes <= (128u << 10);
    sc.tables = 512 + (sc.cm_in_smem       ? (1u << (2 * p->q))
                       : sc.bitmap_in_smem ? (uint32_t)bm_bytes
                                           : 0);
    *blocks = wm_cu_mblocks<qgram_scanner<DNA>, 256>(t->n);
    return wm_cu_mlaunch<qgram_scanner<DNA>, 256>(sc, mode, *t, *o, s);
}

cudaError_t wm_cu_qgram_launch(const wm_cu_mplan_t *p, int mode, const wm_cu_mtext_t *t,
                               const wm_cu_mout_t *o, cudaStream_t s, uint64_t *blocks) {
    if (wm_cu_qgram_dna_fits(p, t)) return wm_cu_qgram_dna_launch(p, mode, t, o, s, blocks);
    if (wm_cu_qgram_bytes_fits(p, t)) return wm_cu_qgram_bytes_launch(p, mode, t, o, s, blocks);
    return p->qg_dna ? launch<true>(p, mode, t, o, s, blocks)
                     : launch<false>(p, mode, t, o, s, blocks);
}
