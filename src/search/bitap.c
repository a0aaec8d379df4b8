/*
** bitap.c -- search within k errors on the CPU with the Wu-Manber (1992)
** bit-parallel NFA: one state word per error level d = 0..k; bit i of R[d]
** says the first i+1 pattern positions match a suffix of the text read so
** far with at most d errors. Edit distance adds the substitution, insertion
** and deletion moves between levels; Hamming only substitution.
** Patterns up to 64 use one word per level, longer ones several.
*/
#include <stdlib.h>
#include <string.h>

#include "search/search.h"

static int scan_one_word(const wm_pat_t *pat, int strand, const uint8_t *text, uint64_t scan_from,
                         uint64_t own_from, uint64_t to, wm_hitvec_t *out) {
    const uint64_t *B = pat->strand[strand].peq;
    const uint32_t k = pat->k;
    const uint64_t accept = 1ull << (pat->m - 1);
    const int edit = pat->metric == WM_METRIC_EDIT;
    uint64_t R[65];
    /* Before any text: with edits the first d positions may be deleted. */
    for (uint32_t d = 0; d <= k; d++) R[d] = edit ? (d >= 64 ? ~0ull : (1ull << d) - 1) : 0;

    for (uint64_t p = scan_from; p < to; p++) {
        uint64_t b = B[text[p]];
        uint64_t prev_old = R[0];
        R[0] = ((R[0] << 1) | 1) & b;
        for (uint32_t d = 1; d <= k; d++) {
            uint64_t old = R[d];
            uint64_t r = (((old << 1) | 1) & b) | (prev_old << 1) | 1; /* match, substitute */
            if (edit) r |= (R[d - 1] << 1) | prev_old;                 /* delete, insert */
            R[d] = r;
            prev_old = old;
        }
        if ((R[k] & accept) && p + 1 > own_from) {
            uint32_t d = 0;
            while (!(R[d] & accept)) d++;
            if (wm_hitvec_push(out, p + 1, d, (uint32_t)strand)) return -1;
        }
    }
    return 0;
}

/* Shift a multi-word bit vector left by one, bringing in `in` at bit 0. */
static inline void shl1(uint64_t *dst, const uint64_t *src, size_t nw, uint64_t in) {
    for (size_t w = 0; w < nw; w++) {
        uint64_t v = src[w];
        dst[w] = (v << 1) | in;
        in = v >> 63;
    }
}

static int scan_words(const wm_pat_t *pat, int strand, const uint8_t *text, uint64_t scan_from,
                      uint64_t own_from, uint64_t to, wm_hitvec_t *out) {
    const size_t nw = pat->n_words, m = pat->m;
    const uint32_t k = pat->k;
    const int edit = pat->metric == WM_METRIC_EDIT;
    const size_t top_w = (m - 1) / 64;
    const uint64_t accept = 1ull << ((m - 1) % 64);
    uint64_t *R = calloc((size_t)(k + 1) * nw * 4, sizeof *R);
    if (!R) return -1;
    uint64_t *old = R + (size_t)(k + 1) * nw; /* level d before this byte */
    uint64_t *t1 = old + (size_t)(k + 1) * nw, *t2 = t1 + nw;
    if (edit)
        for (uint32_t d = 0; d <= k; d++)
            for (uint32_t i = 0; i < d; i++) R[d * nw + i / 64] |= 1ull << (i % 64);

    int rc = 0;
    for (uint64_t p = scan_from; p < to && rc == 0; p++) {
        const uint64_t *b = pat->strand[strand].peq + (size_t)text[p] * nw;
        memcpy(old, R, (size_t)(k + 1) * nw * sizeof *R);
        shl1(t1, old, nw, 1);
        for (size_t w = 0; w < nw; w++) R[w] = t1[w] & b[w];
        for (uint32_t d = 1; d <= k; d++) {
            uint64_t *r = R + d * nw;
            const uint64_t *o = old + d * nw, *po = old + (d - 1) * nw, *pn = R + (d - 1) * nw;
            shl1(t1, o, nw, 1);
            shl1(t2, po, nw, 1);
            for (size_t w = 0; w < nw; w++) r[w] = (t1[w] & b[w]) | t2[w];
            if (edit) {
                shl1(t2, pn, nw, 1);
                for (size_t w = 0; w < nw; w++) r[w] |= t2[w] | po[w];
            }
        }
        if ((R[(size_t)k * nw + top_w] & accept) && p + 1 > own_from) {
            uint32_t d = 0;
            while (!(R[(size_t)d * nw + top_w] & accept)) d++;
            rc = wm_hitvec_push(out, p + 1, d, (uint32_t)strand);
        }
    }
    free(R);
    return rc;
}

int wm_bitap_scan(const wm_pat_t *pat, int strand, const uint8_t *text, uint64_t scan_from,
                  uint64_t own_from, uint64_t to, wm_hitvec_t *out) {
    if (pat->m <= 64) return scan_one_word(pat, strand, text, scan_from, own_from, to, out);
    return scan_words(pat, strand, text, scan_from, own_from, to, out);
}
