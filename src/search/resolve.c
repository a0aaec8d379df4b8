/*
** resolve.c -- turning a scan's end position into a reported match.
**
** Scans find ends and the smallest error count there; the contract also asks
** for the start: the largest s with distance(P, text[s, e)) = errors, i.e. the
** shortest occurrence. We find it by aligning the pattern backwards from e,
** anchored at e: column j of that alignment holds distance(P, text[e-j, e)),
** so the first j that reaches the minimum gives the largest start.
** The same pass re-checks candidates whose scan may have run across a record
** border (GPU batches hold many records): it only looks at text in the record.
*/
#include <stdlib.h>

#include "search/search.h"

static inline int accepts(const wm_strand_t *st, size_t nw, size_t i, uint8_t c) {
    return (int)((st->peq[(size_t)c * nw + i / 64] >> (i % 64)) & 1);
}

/* Distances of the whole pattern to text[e-j, e) for j = 1..J, for m <= 64:
** Myers' bit-vector on the reversed pattern, with the top row growing by one
** per column (global alignment: no free start in the reversed text). */
static int best_suffix_myers(const wm_strand_t *st, size_t m, const uint8_t *text, uint64_t e,
                             uint64_t J, int target, uint32_t *best, uint64_t *best_j) {
    uint64_t Pv = ~0ull, Mv = 0, top = 1ull << (m - 1);
    int score = (int)m;
    int found = 0;
    for (uint64_t j = 1; j <= J; j++) {
        uint64_t Eq = st->rpeq[text[e - j]];
        uint64_t Xv = Eq | Mv;
        uint64_t Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq;
        uint64_t Ph = Mv | ~(Xh | Pv);
        uint64_t Mh = Pv & Xh;
        if (Ph & top) score++;
        else if (Mh & top) score--;
        Ph = (Ph << 1) | 1; /* row 0 grows: D[0][j] = j */
        Mh <<= 1;
        Pv = Mh | ~(Xv | Ph);
        Mv = Ph & Xv;
        if (!found || (uint32_t)score < *best) {
            *best = (uint32_t)score;
            *best_j = j;
            found = 1;
            if (target >= 0 && score <= target) break;
        }
    }
    return found;
}

/* The same for any m, as a DP restricted to the band |i - j| <= k where all
** values <= k live; cells outside hold k + 1 ("too far"). */
static int best_suffix_dp(const wm_strand_t *st, size_t nw, size_t m, uint32_t k,
                          const uint8_t *text, uint64_t e, uint64_t J, int target, uint32_t *best,
                          uint64_t *best_j) {
    uint32_t far = k + 1;
    uint32_t *prev = malloc((m + 1) * sizeof *prev), *cur = malloc((m + 1) * sizeof *cur);
    if (!prev || !cur) {
        free(prev);
        free(cur);
        return -1;
    }
    for (size_t i = 0; i <= m; i++) prev[i] = i <= k ? (uint32_t)i : far;
    int found = 0;
    for (uint64_t j = 1; j <= J; j++) {
        uint8_t c = text[e - j];
        size_t lo = j > k ? (size_t)(j - k) : 0;
        size_t hi = j + k < m ? (size_t)(j + k) : m;
        if (lo > 0) cur[lo - 1] = far;
        if (lo == 0) {
            cur[0] = j <= k ? (uint32_t)j : far;
            lo = 1;
        }
        for (size_t i = lo; i <= hi; i++) {
            /* reversed pattern: row i is P[m - i] */
            uint32_t v = prev[i - 1] + !accepts(st, nw, m - i, c);
            if (prev[i] + 1 < v) v = prev[i] + 1;
            if (cur[i - 1] + 1 < v) v = cur[i - 1] + 1;
            cur[i] = v > far ? far : v;
        }
        if (hi < m) cur[hi + 1] = far;
        uint32_t *t = prev;
        prev = cur;
        cur = t;
        if (hi == m && prev[m] <= k && (!found || prev[m] < *best)) {
            *best = prev[m];
            *best_j = j;
            found = 1;
            if (target >= 0 && (int)prev[m] <= target) break;
        }
    }
    free(prev);
    free(cur);
    return found;
}

int wm_resolve_end(const wm_pat_t *pat, int strand, const uint8_t *text, uint64_t rec_begin,
                   uint64_t e, int errors_hint, uint64_t *start, uint32_t *errors) {
    const wm_strand_t *st = &pat->strand[strand];
    size_t m = pat->m, nw = pat->n_words;
    uint32_t k = pat->k;
    uint64_t avail = e - rec_begin;

    if (pat->metric == WM_METRIC_HAMMING || k == 0) {
        /* Occurrences have length exactly m. */
        if (avail < m) return 0;
        uint32_t d = 0;
        if (errors_hint >= 0) d = (uint32_t)errors_hint;
        else
            for (size_t i = 0; i < m && d <= k; i++) d += !accepts(st, nw, i, text[e - m + i]);
        if (d > k) return 0;
        *start = e - m;
        *errors = d;
        return 1;
    }

    uint64_t J = (uint64_t)m + k < avail ? (uint64_t)m + k : avail;
    uint32_t best = 0;
    uint64_t best_j = 0;
    int found = m <= 64 ? best_suffix_myers(st, m, text, e, J, errors_hint, &best, &best_j)
                        : best_suffix_dp(st, nw, m, k, text, e, J, errors_hint, &best, &best_j);
    if (found <= 0 || best > k) return 0;
    *start = e - best_j;
    *errors = best;
    return 1;
}
