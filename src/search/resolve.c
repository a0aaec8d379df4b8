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

/* The same over W words (m > 64; Hyyro's blocks: the horizontal delta
** carried from word to word, +1 into the first: row 0 grows). Spelled out
** per W so that the state stays in registers. */
#define MULTI_MAX_WORDS 8
static inline void multi_step(uint64_t eq, uint64_t *pv, uint64_t *mv, uint64_t high, int *hin) {
    uint64_t p = *pv, q = *mv, xv = eq | q;
    if (*hin < 0) eq |= 1;
    uint64_t xh = (((eq & p) + p) ^ p) | eq;
    uint64_t ph = q | ~(xh | p), mh = p & xh;
    int hout = (ph & high) ? 1 : (mh & high) ? -1 : 0;
    ph <<= 1;
    mh <<= 1;
    if (*hin < 0) mh |= 1;
    else if (*hin > 0) ph |= 1;
    *pv = mh | ~(xv | ph);
    *mv = ph & xv;
    *hin = hout;
}

#define MULTI(W)                                                                                   \
    static int best_suffix_multi##W(const wm_strand_t *st, size_t m, const uint8_t *text,          \
                                    uint64_t e, uint64_t J, int target, uint32_t *best,            \
                                    uint64_t *best_j) {                                            \
        uint64_t pv[W], mv[W];                                                                     \
        for (int w = 0; w < W; w++) {                                                              \
            pv[w] = ~0ull;                                                                         \
            mv[w] = 0;                                                                             \
        }                                                                                          \
        const uint64_t last = 1ull << ((m - 1) % 64);                                              \
        int score = (int)m, found = 0;                                                             \
        for (uint64_t j = 1; j <= J; j++) {                                                        \
            const uint64_t *eqs = st->rpeq + (size_t)text[e - j] * W;                              \
            int hin = 1;                                                                           \
            for (int w = 0; w < W; w++)                                                            \
                multi_step(eqs[w], &pv[w], &mv[w], w == W - 1 ? last : 1ull << 63, &hin);          \
            score += hin;                                                                          \
            if (!found || (uint32_t)score < *best) {                                               \
                *best = (uint32_t)score;                                                           \
                *best_j = j;                                                                       \
                found = 1;                                                                         \
                if (target >= 0 && score <= target) break;                                         \
            }                                                                                      \
        }                                                                                          \
        return found;                                                                              \
    }
MULTI(2)
MULTI(3)
MULTI(4)
MULTI(5)
MULTI(6)
MULTI(7)
MULTI(8)

static int best_suffix_myers_multi(const wm_strand_t *st, size_t nw, size_t m, const uint8_t *text,
                                   uint64_t e, uint64_t J, int target, uint32_t *best,
                                   uint64_t *best_j) {
    switch (nw) {
    case 2: return best_suffix_multi2(st, m, text, e, J, target, best, best_j);
    case 3: return best_suffix_multi3(st, m, text, e, J, target, best, best_j);
    case 4: return best_suffix_multi4(st, m, text, e, J, target, best, best_j);
    case 5: return best_suffix_multi5(st, m, text, e, J, target, best, best_j);
    case 6: return best_suffix_multi6(st, m, text, e, J, target, best, best_j);
    case 7: return best_suffix_multi7(st, m, text, e, J, target, best, best_j);
    default: return best_suffix_multi8(st, m, text, e, J, target, best, best_j);
    }
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
    /* Beyond a word: the bit-vector costs about 17 operations a word and
    ** column, the band's DP about 10 a cell and 2k + 1 cells a column. */
    int found;
    if (m <= 64) found = best_suffix_myers(st, m, text, e, J, errors_hint, &best, &best_j);
    else if (nw <= MULTI_MAX_WORDS && 17 * nw < 10 * (2 * (size_t)k + 1))
        found = best_suffix_myers_multi(st, nw, m, text, e, J, errors_hint, &best, &best_j);
    else found = best_suffix_dp(st, nw, m, k, text, e, J, errors_hint, &best, &best_j);
    if (found <= 0 || best > k) return 0;
    *start = e - best_j;
    *errors = best;
    return 1;
}
