/*
** flanks.c -- exact regions at a pattern's ends (opts.exact_prefix,
** exact_suffix: a PAM): the kernels scan the middle, and each end they find
** is finished here.
**
** An occurrence is prefix + middle + suffix with the regions matching
** exactly and the middle within k, so:
**   suffix  the suf bytes after the middle's end match: fixed bytes, the
**           match's end is the middle's plus suf, its errors the middle's;
**   prefix  the pre bytes before the middle's start match. With Hamming the
**           middle's start is fixed. With edits the middle's start moves,
**           and the fewest errors over the starts whose prefix matches may
**           exceed the middle's own best, so they are computed again: the
**           middle reversed against the text leftwards from its end (a
**           global DP anchored there, one column a start), the fewest
**           errors over the starts that pass, then the largest such start
**           (the shortest occurrence, as ever).
** Regions never leave the record.
*/
#include <stdlib.h>

#include "search/search.h"

static int region_matches(const wm_opts_t *o, const uint8_t *pat, const uint8_t *text, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!wm_pat_accepts(o, pat[i], text[i])) return 0;
    return 1;
}

int wm_flanks_finish(const wm_pat_t *p, int strand, const uint8_t *text, uint64_t rb, uint64_t re,
                     uint64_t e_mid, uint32_t d, int want_start, uint64_t *start, uint64_t *end,
                     uint32_t *errors) {
    const wm_flanks_t *f = p->flanks;
    const wm_opts_t *o = &p->opts;
    const uint8_t *full = f->full[strand];
    uint32_t a = f->pre[strand], b = f->suf[strand];
    size_t mm = p->m;
    if (e_mid + b > re || !region_matches(o, full + f->full_m - b, text + e_mid, b)) return 0;
    *end = e_mid + b;
    if (a == 0) {
        *errors = d;
        if (!want_start) return 1;
        uint64_t s;
        uint32_t er;
        if (!wm_resolve_end(p, strand, text, rb, e_mid, (int)d, &s, &er)) return 0;
        *start = s;
        *errors = er;
        return 1;
    }
    if (p->metric == WM_METRIC_HAMMING) {
        if (e_mid - rb < mm + a) return 0;
        uint64_t s = e_mid - mm;
        if (!region_matches(o, full, text + s - a, a)) return 0;
        *start = s - a;
        *errors = d;
        return 1;
    }
    /* Edits: col[i] = the distance of the middle's last i bytes to the j text
    ** bytes before e_mid, column j = 0 .. J; row mm is the whole middle. */
    uint32_t k = p->k;
    uint64_t J = e_mid - rb >= a ? e_mid - rb - a : 0;
    if (J > mm + k) J = mm + k;
    uint32_t *col = malloc((mm + 1) * sizeof *col);
    if (!col) return 0;
    for (size_t i = 0; i <= mm; i++) col[i] = (uint32_t)i;
    const uint8_t *mid = full + a;
    uint32_t best = UINT32_MAX;
    uint64_t best_j = 0;
    for (uint64_t j = 1; j <= J; j++) {
        uint8_t c = text[e_mid - j];
        uint32_t diag = col[0]; /* the cell above-left of row 1 */
        col[0] = (uint32_t)j;
        uint32_t lo = col[0];
        for (size_t i = 1; i <= mm; i++) {
            uint32_t up = col[i]; /* this row, the previous column */
            uint32_t v = diag + !wm_pat_accepts(o, mid[mm - i], c);
            if (up + 1 < v) v = up + 1;
            if (col[i - 1] + 1 < v) v = col[i - 1] + 1;
            diag = up;
            col[i] = v;
            if (v < lo) lo = v;
        }
        uint64_t s = e_mid - j;
        if (col[mm] <= k && col[mm] < best && region_matches(o, full, text + s - a, a)) {
            best = col[mm];
            best_j = j;
        }
        if (lo > k) break; /* every later column is worse still */
    }
    free(col);
    if (best > k) return 0;
    *start = e_mid - best_j - a;
    *errors = best;
    return 1;
}
