/*
** planes_avx512.c -- planes.c's pair test for AVX-512 with VPOPCNTDQ: eight
** windows of a tile against one pattern's masks at once, their mismatches
** one vpopcntq, the windows within k picked from a mask compare; and a
** window against eight slots of an index's bucket at once. Built with
** -mavx512f (CMakeLists.txt, files named *_avx512.c), VPOPCNTDQ asked by
** the function's target; planes.c calls it only on a CPU that has both.
*/
#include <immintrin.h>
#include <string.h>

#include "setk/planes.h"

#ifndef __AVX512F__
#error "planes_avx512.c is built with -mavx512f (CMakeLists.txt, files named *_avx512.c)"
#endif

__attribute__((target("avx512f,avx512vpopcntdq"))) int
wm_setk_planes_flush_avx512(const entry_t *first, const entry_t *last, tile_t *t, size_t rec,
                            uint64_t rb, uint32_t k, wm_matchvec_t *out) {
    const __m512i kk = _mm512_set1_epi64((long long)k);
    for (const entry_t *p = first; p < last; p++) {
        const __m512i a0 = _mm512_set1_epi64((long long)p->accept[0]),
                      a1 = _mm512_set1_epi64((long long)p->accept[1]),
                      a2 = _mm512_set1_epi64((long long)p->accept[2]),
                      a3 = _mm512_set1_epi64((long long)p->accept[3]),
                      mid = _mm512_set1_epi64((long long)p->middle);
        for (size_t x = 0; x < t->n; x += 8) {
            /* the tile's last lanes past n are left out */
            __mmask8 live = t->n - x >= 8 ? 0xff : (__mmask8)((1u << (t->n - x)) - 1);
            __m512i hit = _mm512_or_si512(
                _mm512_or_si512(_mm512_and_si512(_mm512_maskz_loadu_epi64(live, &t->w[0][x]), a0),
                                _mm512_and_si512(_mm512_maskz_loadu_epi64(live, &t->w[1][x]), a1)),
                _mm512_or_si512(_mm512_and_si512(_mm512_maskz_loadu_epi64(live, &t->w[2][x]), a2),
                                _mm512_and_si512(_mm512_maskz_loadu_epi64(live, &t->w[3][x]), a3)));
            __m512i errors = _mm512_popcnt_epi64(_mm512_andnot_si512(hit, mid));
            unsigned within = (unsigned)_mm512_mask_cmple_epu64_mask(live, errors, kk);
            if (!within) continue;
            uint64_t e[8];
            _mm512_storeu_si512(e, errors);
            for (; within; within &= within - 1) {
                unsigned j = (unsigned)__builtin_ctz(within);
                if (planes_push(out, p, t->end[x + j], rec, rb, (uint32_t)e[j])) return -1;
            }
        }
    }
    t->n = 0;
    return 0;
}

__attribute__((target("avx512f,avx512vpopcntdq"))) int
wm_setk_ix_probe_avx512(const ix_t *ix, const entry_t *e, const uint64_t w[4], uint64_t end,
                        size_t rec, uint64_t rb, uint32_t k, wm_matchvec_t *out) {
    const __m512i kk = _mm512_set1_epi64((long long)k),
                  mid = _mm512_set1_epi64((long long)ix->middle),
                  w0 = _mm512_set1_epi64((long long)w[0]), w1 = _mm512_set1_epi64((long long)w[1]),
                  w2 = _mm512_set1_epi64((long long)w[2]), w3 = _mm512_set1_epi64((long long)w[3]);
    size_t keys_a_block = (size_t)1 << 2 * ix->w;
    for (uint32_t b = 0; b < ix->n_blocks; b++) {
        int64_t key = ix_key(w, ix->at[b], ix->w);
        if (key < 0) continue;
        const uint32_t *o = &ix->off[b * keys_a_block + (size_t)key];
        for (uint32_t s = o[0]; s < o[1]; s += 8) {
            __mmask8 live = o[1] - s >= 8 ? 0xff : (__mmask8)((1u << (o[1] - s)) - 1);
            __m512i hit = _mm512_or_si512(
                _mm512_or_si512(
                    _mm512_and_si512(_mm512_maskz_loadu_epi64(live, &ix->acc[0][s]), w0),
                    _mm512_and_si512(_mm512_maskz_loadu_epi64(live, &ix->acc[1][s]), w1)),
                _mm512_or_si512(
                    _mm512_and_si512(_mm512_maskz_loadu_epi64(live, &ix->acc[2][s]), w2),
                    _mm512_and_si512(_mm512_maskz_loadu_epi64(live, &ix->acc[3][s]), w3)));
            __m512i errors = _mm512_popcnt_epi64(_mm512_andnot_si512(hit, mid));
            unsigned within = (unsigned)_mm512_mask_cmple_epu64_mask(live, errors, kk);
            if (!within) continue;
            uint64_t h[8], er[8];
            _mm512_storeu_si512(h, hit);
            _mm512_storeu_si512(er, errors);
            for (; within; within &= within - 1) {
                unsigned j = (unsigned)__builtin_ctz(within);
                if (ix_seen(ix, b, h[j])) continue;
                if (planes_push(out, &e[ix->entry[s + j]], end, rec, rb, (uint32_t)er[j]))
                    return -1;
            }
        }
    }
    return 0;
}
