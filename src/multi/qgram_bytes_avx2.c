/*
** qgram_bytes_avx2.c -- the byte index's bitmaps probed 8 ends at a time
** with AVX2 (compiled with -mavx2 alone; qgram_bytes.c calls it when the CPU
** has AVX2 and the set's fold is the identity).
**
** For the ends of text[i .. i+7], one 16-byte load of text[i-8 .. i+7] is
** shuffled into the two 32-bit halves of each end's code (lo: the 4 bytes
** 8..5 before the end, hi: the last 4), the hashes of qgram_bytes.h are
** taken in 32-bit lanes, and each side's bitmap words are gathered and
** tested. A side's bucket is searched only at the ends whose bit is set,
** in end order, so the sink sees what the scalar scan gives it.
*/
#include <immintrin.h>

#include "multi/qgram_bytes.h"

/* The 8 lanes' bits of a side's bitmap at hashes h: a byte mask. */
static inline uint32_t probe8(const wm_qgb_view_t *v, __m256i h) {
    if (v->n == 0) return 0;
    __m256i bit = _mm256_srl_epi32(h, _mm_cvtsi32_si128((int)v->bitmap_shift));
    __m256i word = _mm256_i32gather_epi32((const int *)v->bitmap, _mm256_srli_epi32(bit, 5), 4);
    __m256i one = _mm256_srlv_epi32(word, _mm256_and_si256(bit, _mm256_set1_epi32(31)));
    return (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_slli_epi32(one, 31)));
}

uint64_t wm_qgb_scan_avx2(const wm_qgb_scan_t *q, const uint8_t *text, uint64_t scan_from,
                          uint64_t from, uint64_t to, wm_msink_t *out) {
    /* lane j (0..7) of a block: lo = bytes j+1 .. j+4 of the load, hi =
    ** bytes j+5 .. j+8; lanes 0-3 in the low 128 bits, 4-7 in the high */
    const __m256i lo_idx = _mm256_setr_epi8(1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6, 4, 5, 6, 7, //
                                            5, 6, 7, 8, 6, 7, 8, 9, 7, 8, 9, 10, 8, 9, 10, 11);
    const __m256i hi_idx =
        _mm256_setr_epi8(5, 6, 7, 8, 6, 7, 8, 9, 7, 8, 9, 10, 8, 9, 10, 11, //
                         9, 10, 11, 12, 10, 11, 12, 13, 11, 12, 13, 14, 12, 13, 14, 15);
    const __m256i k0 = _mm256_set1_epi32((int)WM_QGB_K0), k1 = _mm256_set1_epi32((int)WM_QGB_K1);
    uint64_t i = from;
    for (; i + 8 <= to; i += 8) {
        __m256i x = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(text + i - 8)));
        __m256i lo = _mm256_shuffle_epi8(x, lo_idx), hi = _mm256_shuffle_epi8(x, hi_idx);
        __m256i h0 = _mm256_mullo_epi32(hi, k0);
        __m256i h1 = _mm256_add_epi32(_mm256_mullo_epi32(lo, k1), h0);
        uint32_t m0 = probe8(&q->v[0], h0), m1 = probe8(&q->v[1], h1);
        if ((m0 | m1) == 0) continue;
        uint32_t h[2][8];
        _mm256_storeu_si256((__m256i *)h[0], h0);
        _mm256_storeu_si256((__m256i *)h[1], h1);
        for (uint32_t m = m0 | m1; m; m &= m - 1) {
            uint32_t j = (uint32_t)__builtin_ctz(m);
            uint64_t e = i + j + 1, code = wm_qgb_load(text, e);
            if ((m0 >> j & 1) && wm_qgb_bucket0(q, h[0][j], e, e - scan_from, code, out))
                return UINT64_MAX;
            if ((m1 >> j & 1) && wm_qgb_bucket1(q, text, h[1][j], e, e - scan_from, code, out))
                return UINT64_MAX;
        }
    }
    return i;
}
