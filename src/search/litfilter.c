/*
** litfilter.c -- the SIMD literal filter (x86-64 SSE2): up to four positions
** of a stretch of the pattern are compared with 16 text positions at once;
** each survivor is checked against every position of the stretch. On DNA
** four positions leave a random start a 1/256 chance, on 64-symbol text
** 1/16M, so scanning runs at memory speed. Dense survivors (periodic text)
** make it stop early so the caller can switch to an automaton.
*/
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "search/litfilter.h"

/* Is position i's class {b} or {lower, upper} of one letter? */
static int simple_class(const wm_strand_t *st, size_t nw, size_t i, uint8_t *b, uint8_t *fold) {
    int count = 0, first = -1;
    for (unsigned c = 0; c < 256 && count < 3; c++)
        if ((st->peq[(size_t)c * nw + i / 64] >> (i % 64)) & 1) {
            if (first < 0) first = (int)c;
            count++;
        }
    if (count == 1) {
        *b = (uint8_t)first;
        *fold = 0;
        return 1;
    }
    if (count == 2 && first >= 'A' && first <= 'Z' &&
        ((st->peq[(size_t)(first | 0x20) * nw + i / 64] >> (i % 64)) & 1)) {
        *b = (uint8_t)(first | 0x20);
        *fold = 0x20;
        return 1;
    }
    return 0;
}

/* Neighbouring positions are correlated in real sequence (repeats), distant
** ones much less: each target takes the nearest simple position not yet
** used, looking at most 16 away. */
void wm_litfilter_make(const wm_strand_t *st, size_t nw, size_t off, size_t len,
                       wm_litfilter_t *f) {
    size_t target[4] = { len - 1, 0, len / 2, (3 * len) / 4 };
    f->off = off;
    f->len = len;
    f->n = 0;
    for (int t = 0; t < 4; t++) {
        for (size_t d = 0; d < 16 && d < len; d++) {
            size_t cand[2] = { target[t] + d, target[t] >= d ? target[t] - d : len };
            int done = 0;
            for (int c = 0; c < 2 && !done; c++) {
                size_t i = cand[c];
                if (i >= len) continue;
                int used = 0;
                for (int u = 0; u < f->n; u++) used |= f->pos[u] == i;
                uint8_t b, fold;
                if (!used && simple_class(st, nw, off + i, &b, &fold)) {
                    f->pos[f->n] = i;
                    f->byte[f->n] = b;
                    f->fold[f->n] = fold;
                    f->n++;
                    done = 1;
                }
            }
            if (done) break;
        }
    }
}

int wm_litfilter_check(const wm_strand_t *st, size_t nw, const wm_litfilter_t *f,
                       const uint8_t *t) {
    for (size_t i = 0; i < f->len; i++) {
        size_t p = f->off + i;
        if (!((st->peq[(size_t)t[i] * nw + p / 64] >> (p % 64)) & 1)) return 0;
    }
    return 1;
}

int64_t wm_litfilter_scan(const wm_strand_t *st, size_t nw, const wm_litfilter_t *f,
                          const uint8_t *text, uint64_t s0, uint64_t s1, int strand,
                          wm_hitvec_t *out) {
#if defined(__SSE2__)
    __m128i want[4], fold[4];
    for (int j = 0; j < f->n; j++) {
        want[j] = _mm_set1_epi8((char)f->byte[j]);
        fold[j] = _mm_set1_epi8((char)f->fold[j]);
    }
    uint64_t s = s0, checked = 0;
    /* loads reach s + pos + 15 < s1 + len - 1 */
    for (; s + 16 <= s1; s += 16) {
        __m128i ok = _mm_set1_epi8((char)0xff);
        for (int j = 0; j < f->n; j++) {
            __m128i v = _mm_loadu_si128((const __m128i *)(text + s + f->pos[j]));
            ok = _mm_and_si128(ok, _mm_cmpeq_epi8(_mm_or_si128(v, fold[j]), want[j]));
        }
        unsigned bits = (unsigned)_mm_movemask_epi8(ok);
        if (!bits) continue;
        checked += (uint64_t)__builtin_popcount(bits);
        while (bits) {
            unsigned b = (unsigned)__builtin_ctz(bits);
            bits &= bits - 1;
            if (wm_litfilter_check(st, nw, f, text + s + b) &&
                wm_hitvec_push(out, s + b + f->len, 0, (uint32_t)strand))
                return -1;
        }
        /* dense survivors (over one per 8 starts): let the caller switch */
        if (checked > 64 && checked * 8 > s + 16 - s0) return (int64_t)(s + 16);
    }
    return (int64_t)s;
#else
    (void)st;
    (void)nw;
    (void)f;
    (void)text;
    (void)s1;
    (void)strand;
    (void)out;
    return (int64_t)s0;
#endif
}
