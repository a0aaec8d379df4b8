/*
** qgram.c -- the q-gram index on the CPU (see qgram.h): a rolling code of
** the last q symbols, one bitmap probe per position, and the bucket of the
** q-gram searched only where the bitmap says some string ends that way.
*/
#include <stdlib.h>
#include <string.h>

#include "multi/qgram.h"

/* The q-gram code of the last q symbols of uid u. */
static uint64_t uid_code(const wm_mset_t *s, const wm_qgram_t *g, uint32_t u) {
    const uint8_t *p = wm_mset_str(s, u) + wm_mset_len(s, u) - g->q;
    uint64_t code = 0;
    for (uint32_t j = 0; j < g->q; j++) code = g->dna ? code << 2 | s->sym[p[j]] : code << 8 | p[j];
    return code;
}

wm_status wm_qgram_build(wm_mset_t *s) {
    wm_status st = wm_qgram_make(s, &s->qg);
    if (st == WM_OK && !s->dna) st = wm_qgram_bytes_build(s, s->qg);
    return st;
}

wm_status wm_qgram_make(const wm_mset_t *s, wm_qgram_t **out) {
    *out = NULL;
    if (s->min_len < WM_QGRAM_MIN_LEN) return WM_INVALID;
    wm_qgram_t *g = calloc(1, sizeof *g);
    if (!g) return WM_NOMEM;
    *out = g;
    g->dna = s->dna;
    g->q = s->min_len < (g->dna ? 16u : 8u) ? s->min_len : (g->dna ? 16u : 8u);
    g->code_mask = g->q * (g->dna ? 2 : 8) >= 64 ? ~0ull : (1ull << (g->q * (g->dna ? 2 : 8))) - 1;
    g->direct = g->dna && g->q <= WM_QG_DIRECT_MAX;
    if (g->direct) {
        g->bitmap_bits = 2 * g->q;
    } else {
        /* About 16 bits per string keeps false positives near 1/16, within
        ** 64 KiB .. 4 MiB. */
        uint32_t b = wm_qg_log2_ceil(s->n_uniq) + 4;
        g->bitmap_bits = b < 19 ? 19 : b > 25 ? 25 : b;
    }
    uint32_t hb = wm_qg_log2_ceil(s->n_uniq) + 1;
    g->bucket_bits = hb < 8 ? 8 : hb > 24 ? 24 : hb;
    size_t nb = (size_t)1 << g->bucket_bits;
    size_t words = ((size_t)1 << g->bitmap_bits) / 64;
    if (words == 0) words = 1;
    g->bitmap = calloc(words, sizeof *g->bitmap);
    g->bucket_off = calloc(nb + 1, sizeof *g->bucket_off);
    g->entry_code = malloc(s->n_uniq * sizeof *g->entry_code);
    g->entry_uid = malloc(s->n_uniq * sizeof *g->entry_uid);
    uint64_t *code = malloc(s->n_uniq * sizeof *code);
    if (!g->bitmap || !g->bucket_off || !g->entry_code || !g->entry_uid || !code) {
        free(code);
        return WM_NOMEM;
    }
    g->all_q = 1;
    for (uint32_t u = 0; u < s->n_uniq; u++) {
        code[u] = uid_code(s, g, u);
        uint64_t b = wm_qg_bit(g, code[u]);
        g->bitmap[b >> 6] |= 1ull << (b & 63);
        g->bucket_off[wm_qg_bucket(g, code[u]) + 1]++;
        if (wm_mset_len(s, u) != g->q) g->all_q = 0;
    }
    for (size_t b = 0; b < nb; b++) g->bucket_off[b + 1] += g->bucket_off[b];
    /* Fill buckets in uid order (a stable counting sort). */
    uint32_t *fill = malloc(nb * sizeof *fill);
    if (!fill) {
        free(code);
        return WM_NOMEM;
    }
    memcpy(fill, g->bucket_off, nb * sizeof *fill);
    for (uint32_t u = 0; u < s->n_uniq; u++) {
        uint32_t at = fill[wm_qg_bucket(g, code[u])]++;
        g->entry_code[at] = code[u];
        g->entry_uid[at] = u;
    }
    free(fill);
    free(code);
    return WM_OK;
}

void wm_qgram_free(wm_qgram_t *g) {
    if (!g) return;
    wm_qgram_bytes_free(g);
    free(g->bitmap);
    free(g->bucket_off);
    free(g->entry_code);
    free(g->entry_uid);
    free(g);
}

/* The strings of code's bucket that end at e: compare the code, then the
** symbols before the q-gram. */
static inline int verify(const wm_mset_t *s, const wm_qgram_t *g, const uint8_t *text,
                         uint64_t scan_from, uint64_t e, uint64_t code, wm_msink_t *out) {
    uint64_t b = wm_qg_bucket(g, code);
    for (uint32_t x = g->bucket_off[b]; x < g->bucket_off[b + 1]; x++) {
        if (g->entry_code[x] != code) continue;
        uint32_t u = g->entry_uid[x], m = wm_mset_len(s, u);
        if (m > g->q) {
            if (e - scan_from < m) continue;
            const uint8_t *p = wm_mset_str(s, u), *t = text + e - m;
            uint32_t j = 0, n = m - g->q;
            while (j < n && s->fold[t[j]] == p[j]) j++;
            if (j < n) continue;
        }
        if (wm_msink_put(out, e, u)) return -1;
    }
    return 0;
}

int wm_qgram_scan(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from, uint64_t own_from,
                  uint64_t to, wm_msink_t *out) {
    const wm_qgram_t *g = s->qg;
    if (g->split) return wm_qgram_bytes_scan(s, text, scan_from, own_from, to, out);
    const uint64_t *bm = g->bitmap;
    const uint64_t mask = g->code_mask;
    const uint32_t q = g->q;
    uint64_t code = 0;
    uint32_t run = 0; /* symbols of the current q-gram so far */
    for (uint64_t i = scan_from; i < to; i++) {
        if (g->dna) {
            uint32_t a = s->sym[text[i]];
            run = a < 4 ? run + 1 : 0;
            code = (code << 2 | (a & 3)) & mask;
        } else {
            run++;
            code = (code << 8 | s->fold[text[i]]) & mask;
        }
        if (run < q || i < own_from) continue;
        uint64_t b = wm_qg_bit(g, code);
        if (!((bm[b >> 6] >> (b & 63)) & 1)) continue;
        if (verify(s, g, text, scan_from, i + 1, code, out)) return -1;
    }
    return 0;
}
