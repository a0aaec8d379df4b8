/*
** teddy_avx2.c -- teddy.h's windows 32 at a time with AVX2 (compiled with
** -mavx2 alone; teddy.c calls it when the CPU has AVX2).
**
** Place p's 32 text bytes, text[i + p .. i + p + 32), are split into
** nibbles, each looked up in its 16-byte table by PSHUFB, and the two
** results and every place's ANDed: byte j of the result holds the buckets
** window i + j is a candidate for. Windows with none are the rule, so a
** step takes two blocks (64 windows) before it tests, and the loop is
** specialised by f so that the tables stay in registers.
*/
#include <immintrin.h>

#include "multi/teddy.h"

/* Place p of a block: the buckets its byte of each window allows. */
static inline __m256i place(__m256i lo, __m256i hi, const uint8_t *at) {
    const __m256i nib = _mm256_set1_epi8(0x0f);
    __m256i v = _mm256_loadu_si256((const __m256i *)at);
    __m256i l = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nib));
    __m256i h = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
    return _mm256_and_si256(l, h);
}

/* A block's candidates for F places (a constant where it is inlined). */
static inline __m256i block(const __m256i *lo, const __m256i *hi, const uint8_t *at, uint32_t F) {
    __m256i r = place(lo[0], hi[0], at);
    if (F > 1) r = _mm256_and_si256(r, place(lo[1], hi[1], at + 1));
    if (F > 2) r = _mm256_and_si256(r, place(lo[2], hi[2], at + 2));
    if (F > 3) r = _mm256_and_si256(r, place(lo[3], hi[3], at + 3));
    return r;
}

/* The candidates of the 32 windows from i, verified in order; 0 or -1. */
static int verify_block(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from, uint64_t i,
                        __m256i r, wm_msink_t *out) {
    uint32_t any = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(r, _mm256_setzero_si256()));
    if (any == 0) return 0;
    uint8_t b[32];
    _mm256_storeu_si256((__m256i *)b, r);
    for (; any; any &= any - 1) {
        uint32_t j = (uint32_t)__builtin_ctz(any);
        if (wm_teddy_verify(s, text, scan_from, i + j, b[j], out)) return -1;
    }
    return 0;
}

static inline uint64_t scan_f(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from,
                              uint64_t i, uint64_t to, wm_msink_t *out, uint32_t F) {
    const struct wm_teddy *td = s->td;
    __m256i lo[WM_TD_MAXF], hi[WM_TD_MAXF];
    for (uint32_t p = 0; p < F; p++) {
        lo[p] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)td->lo[p]));
        hi[p] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)td->hi[p]));
    }
    /* a step's last load ends at i + 64 + F - 1 */
    for (; i + 64 + F - 1 <= to; i += 64) {
        /* 2 KiB ahead (a prefetch never faults past the text): one core
        ** waited on memory without it, 8 strings of 3-10 bytes over 64 MiB
        ** 0.0134 -> 0.0055 s (512 bytes ahead 0.0067, 1 KiB 0.0061) */
        _mm_prefetch((const char *)text + i + 2048, _MM_HINT_T0);
        __m256i r0 = block(lo, hi, text + i, F), r1 = block(lo, hi, text + i + 32, F);
        if (_mm256_testz_si256(_mm256_or_si256(r0, r1), _mm256_or_si256(r0, r1))) continue;
        if (verify_block(s, text, scan_from, i, r0, out) ||
            verify_block(s, text, scan_from, i + 32, r1, out))
            return UINT64_MAX;
    }
    if (i + 32 + F - 1 <= to) {
        if (verify_block(s, text, scan_from, i, block(lo, hi, text + i, F), out)) return UINT64_MAX;
        i += 32;
    }
    return i;
}

uint64_t wm_teddy_scan_avx2(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from,
                            uint64_t from, uint64_t to, wm_msink_t *out) {
    switch (s->td->f) {
    case 1: return scan_f(s, text, scan_from, from, to, out, 1);
    case 2: return scan_f(s, text, scan_from, from, to, out, 2);
    case 3: return scan_f(s, text, scan_from, from, to, out, 3);
    default: return scan_f(s, text, scan_from, from, to, out, 4);
    }
}
