/*
** aquery.c -- a query compiled for the alignment DP: the symbol map that
** says which bytes are equal (bytes, case folded bytes, or DNA where only
** A, C, G, T/U match) and the match masks (Peq) of the bit-vector DP.
*/
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "align/align.h"

static void map_bytes(wm_aq_t *aq, int fold) {
    for (int c = 0; c < 256; c++) {
        int v = c;
        if (fold && c >= 'a' && c <= 'z') v = c - 'a' + 'A';
        aq->code[c] = (uint16_t)v;
    }
    aq->n_codes = 256;
}

/* DNA: A C G T(U) in either case are 0..3; every other byte is code 4,
** which matches nothing (N is an unknown base, not a base equal to N). */
static void map_dna(wm_aq_t *aq) {
    for (int c = 0; c < 256; c++) aq->code[c] = 4;
    static const char *const bases[4] = { "Aa", "Cc", "Gg", "TtUu" };
    for (int b = 0; b < 4; b++)
        for (const char *p = bases[b]; *p; p++) aq->code[(uint8_t)*p] = (uint16_t)b;
    aq->n_codes = 4;
}

void wm_aq_peq_fill(const wm_aq_t *aq, const uint8_t *x, size_t len, int reverse, uint64_t *peq) {
    size_t words = (len + 63) / 64;
    if (aq->n_codes == 4) {
        /* DNA: a word's 4 rows built in registers (code 4, "other", lands in
        ** a fifth that is dropped): no branch, no clearing first. A profile
        ** is built for every pair of a million. */
        for (size_t w = 0; w < words; w++) {
            uint64_t acc[5] = { 0, 0, 0, 0, 0 };
            size_t lo = 64 * w, hi = len - lo < 64 ? len : lo + 64;
            for (size_t i = lo; i < hi; i++)
                acc[aq->code[x[reverse ? len - 1 - i : i]]] |= 1ull << (i - lo);
            for (unsigned c = 0; c < 4; c++) peq[c * words + w] = acc[c];
            peq[4 * words + w] = 0; /* the row of "other" matches nothing */
        }
        return;
    }
    memset(peq, 0, (size_t)(aq->n_codes + 1) * words * sizeof *peq);
    for (size_t i = 0; i < len; i++) {
        unsigned c = aq->code[x[reverse ? len - 1 - i : i]];
        if (c < aq->n_codes) peq[(size_t)c * words + i / 64] |= 1ull << (i % 64);
    }
}

wm_status wm_aq_make(wm_aq_t *aq, const uint8_t *q, size_t m, const wm_align_opts_t *o) {
    memset(aq, 0, offsetof(wm_aq_t, small)); /* small is written as peq, when used */
    if (o->alphabet == WM_ALPHABET_DNA) map_dna(aq);
    else map_bytes(aq, o->case_insensitive);
    aq->q = q;
    aq->m = m;
    aq->n_words = m ? (m + 63) / 64 : 1; /* an empty query (global mode) keeps one */
    size_t words = (size_t)(aq->n_codes + 1) * aq->n_words;
    aq->peq =
        words <= sizeof aq->small / sizeof *aq->small ? aq->small : malloc(words * sizeof *aq->peq);
    if (!aq->peq) return WM_NOMEM;
    wm_aq_peq_fill(aq, q, m, 0, aq->peq);
    return WM_OK;
}

void wm_aq_free(wm_aq_t *aq) {
    if (aq->peq != aq->small) free(aq->peq);
    aq->peq = NULL;
}

int wm_endvec_push(wm_endvec_t *v, uint64_t e) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        uint64_t *a = realloc(v->a, cap * sizeof *a);
        if (!a) return -1;
        v->a = a;
        v->cap = cap;
    }
    v->a[v->n++] = e;
    return 0;
}

void wm_endvec_free(wm_endvec_t *v) {
    free(v->a);
    v->a = NULL;
    v->n = v->cap = 0;
}
