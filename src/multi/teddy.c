/*
** teddy.c -- small byte sets by nibble fingerprints (teddy.h): the tables,
** the verification, and the scan (AVX2 where the CPU has it, else these
** lookups a window at a time).
**
** Buckets. A bucket's tables take the union of its strings' bytes at each
** place, so a window can match the tables without matching any one string;
** strings that share their last bytes cost nothing when bucketed together.
** So the strings are sorted by their last f bytes, read from the end, and
** cut into 8 runs of near-equal size (a string a bucket up to 8).
**
** Windows: window w is text[w, w + f); a string u of length len ends at
** e = w + f, starts at e - len, and is reported when its start is at or
** after scan_from and its bytes, folded, are u's. The scan starts at the
** first window whose end passes own_from, and windows come in order, so
** ends do too (mset.h's contract).
*/
#include "multi/teddy.h"

#include <stdlib.h>
#include <string.h>

#include "core/simd.h"

static int by_key(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

wm_status wm_teddy_build(wm_mset_t *s) {
    if (s->n_uniq == 0 || s->n_patterns > WM_TEDDY_MAX_PATTERNS) return WM_INVALID;
    struct wm_teddy *td = calloc(1, sizeof *td);
    uint32_t n = (uint32_t)s->n_uniq;
    if (!td || !(td->ids = malloc(n * sizeof *td->ids))) {
        free(td);
        return WM_NOMEM;
    }
    /* 3 places, or 4 past 16 strings, where more strings a bucket let more
    ** windows through (1 core, 64 MiB of mixed text: 16 strings of 4-64
    ** bytes 0.036 s with 3 places, 0.038 with 4; 24 strings 0.040 and 0.037) */
    uint32_t f = n <= 16 ? 3 : 4;
    td->f = s->min_len < f ? s->min_len : f;
    /* sorted by the last f bytes read from the end, then by uid: a key each */
    uint64_t *key = malloc(n * sizeof *key);
    if (!key) {
        wm_teddy_free(td);
        return WM_NOMEM;
    }
    for (uint32_t u = 0; u < n; u++) {
        const uint8_t *end = wm_mset_str(s, u) + wm_mset_len(s, u);
        uint64_t tail = 0;
        for (uint32_t p = 1; p <= WM_TD_MAXF; p++)
            tail = tail << 8 | (p <= td->f ? end[-(int)p] : 0);
        key[u] = tail << 32 | u;
    }
    qsort(key, n, sizeof *key, by_key);
    for (uint32_t x = 0; x < n; x++) td->ids[x] = (uint32_t)key[x];
    free(key);
    if (!(td->tail = malloc(n * sizeof *td->tail))) {
        wm_teddy_free(td);
        return WM_NOMEM;
    }
    for (uint32_t x = 0; x < n; x++) {
        uint32_t u = td->ids[x], len = wm_mset_len(s, u);
        td->tail[x] = 0;
        if (len >= 4) memcpy(&td->tail[x], wm_mset_str(s, u) + len - 4, 4);
    }

    /* the buckets wanting each folded byte at each place, then every text
    ** byte's nibbles given the buckets of the byte it folds to */
    uint8_t want[WM_TD_MAXF][256];
    memset(want, 0, sizeof want);
    for (uint32_t b = 0; b < WM_TD_BUCKETS; b++) {
        td->bstart[b] = (uint32_t)((uint64_t)n * b / WM_TD_BUCKETS);
        td->bstart[b + 1] = (uint32_t)((uint64_t)n * (b + 1) / WM_TD_BUCKETS);
        for (uint32_t x = td->bstart[b]; x < td->bstart[b + 1]; x++) {
            uint32_t u = td->ids[x];
            const uint8_t *tail = wm_mset_str(s, u) + wm_mset_len(s, u) - td->f;
            for (uint32_t p = 0; p < td->f; p++) want[p][tail[p]] |= (uint8_t)(1u << b);
        }
    }
    td->ident = 1;
    for (int c = 0; c < 256; c++) {
        td->ident &= s->fold[c] == c;
        for (uint32_t p = 0; p < td->f; p++) {
            td->lo[p][c & 15] |= want[p][s->fold[c]];
            td->hi[p][c >> 4] |= want[p][s->fold[c]];
        }
    }
    s->td = td;
    return WM_OK;
}

void wm_teddy_free(struct wm_teddy *td) {
    if (!td) return;
    free(td->ids);
    free(td->tail);
    free(td);
}

int wm_teddy_verify(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from, uint64_t w,
                    uint32_t buckets, wm_msink_t *out) {
    const struct wm_teddy *td = s->td;
    uint64_t e = w + td->f;
    for (; buckets; buckets &= buckets - 1) {
        uint32_t b = (uint32_t)__builtin_ctz(buckets);
        for (uint32_t x = td->bstart[b]; x < td->bstart[b + 1]; x++) {
            uint32_t u = td->ids[x], len = wm_mset_len(s, u);
            if (e - scan_from < len) continue; /* it would start before the scan */
            const uint8_t *t = text + e - len, *p = wm_mset_str(s, u);
            int same;
            if (len >= 4) { /* the last 4 bytes first: most candidates end there */
                const uint8_t *q = text + e - 4;
                uint8_t last[4] = { q[0], q[1], q[2], q[3] };
                if (!td->ident)
                    for (int k = 0; k < 4; k++) last[k] = s->fold[last[k]];
                if (memcmp(last, &td->tail[x], 4) != 0) continue;
                len -= 4; /* the bytes before them */
            }
            if (td->ident) same = memcmp(t, p, len) == 0;
            else {
                uint32_t i = len;
                while (i > 0 && s->fold[t[i - 1]] == p[i - 1]) i--;
                same = i == 0;
            }
            if (same && wm_msink_put(out, e, u)) return -1;
        }
    }
    return 0;
}

int wm_teddy_scan(const wm_mset_t *s, const uint8_t *text, uint64_t scan_from, uint64_t own_from,
                  uint64_t to, wm_msink_t *out) {
    const struct wm_teddy *td = s->td;
    uint32_t f = td->f;
    if (to - scan_from < f) return 0;
    /* the first window whose end passes own_from, and not before the scan */
    uint64_t w = own_from + 1 >= scan_from + f ? own_from + 1 - f : scan_from;
    if (w < scan_from) w = scan_from;
#if WM_SIMD_X86
    if (wm_simd_cpu_isa() >= WM_SIMD_AVX2) {
        w = wm_teddy_scan_avx2(s, text, scan_from, w, to, out);
        if (w == UINT64_MAX) return -1;
    }
#endif
    for (; w + f <= to; w++) {
        uint32_t m = 0xff;
        for (uint32_t p = 0; p < f && m; p++) {
            uint8_t c = text[w + p];
            m &= (uint32_t)td->lo[p][c & 15] & td->hi[p][c >> 4];
        }
        if (m && wm_teddy_verify(s, text, scan_from, w, m, out)) return -1;
    }
    return 0;
}
