/*
** global_dp.c -- the global edit distance by the plain DP swept along
** anti-diagonals, on one thread: the baseline paper 001 measures the
** Four-Russians method against (its [20] computes the cells of each
** anti-diagonal in parallel; here they are the lanes of one vectorised loop).
**
** Layout. Rows are the shorter sequence a (p symbols), columns the longer b
** (q symbols): edit distance is symmetric, and then a diagonal k = i + j has
** at most p + 1 cells, kept at index i, three diagonals at a time (k, k - 1,
** k - 2). Along a diagonal j falls as i rises, so b's codes are kept
** reversed: both a and b are then read forwards and the loop vectorises.
** b's codes are converted in windows of the diagonals being swept, so memory
** stays O(p) however long b is.
**
** Equality is a plain compare of codes: a symbol that matches nothing (DNA's
** N) gets the code 0xfffe in a and 0xffff in b, which nothing equals.
**
** Offsets. On diagonal k, D[i][j] >= |i - j| >= k - 2p and D[i][j] <= k, so
** diagonal k stores D - off_k with off_k = max(0, k - 2p): values stay at or
** below 2p and fit in 32 bits for any shape (1 x 2^37 included). The deltas
** between the offsets of consecutive diagonals are 0 or 1, folded into the
** costs; every candidate of the min is an upper bound of D, so it is never
** below off_k and the unsigned arithmetic never wraps in the result.
**
** Limit. A path from (0, 0) to (m, n) steps from diagonal k to k + 1 or
** k + 2, so it meets one of any two consecutive diagonals, and D never falls
** along an optimal path: once two consecutive diagonals are entirely above
** limit, so is D[m][n] (one diagonal is not enough: "a" vs "a" has
** D[0][1] = D[1][0] = 1 but D[1][1] = 0).
*/
#include <stdlib.h>

#include "align/align.h"

#define NONE_A 0xfffeu
#define NONE_B 0xffffu

static inline uint16_t code_of(const wm_aq_t *aq, uint8_t byte, uint16_t none) {
    unsigned c = aq->code[byte];
    return c < aq->n_codes ? (uint16_t)c : none;
}

/* Diagonal k's interior cells i = lo .. hi (1 <= lo <= hi, j = k - i >= 1);
** returns their minimum. A: a[lo - 1 ..], B: b[k - lo - 1], b[k - lo - 2] ...
** d2 / d1 / d0: diagonals k - 2 / k - 1 / k. a1, a2: the costs of the
** horizontal / vertical and the diagonal moves, offsets folded in. */
static uint32_t sweep(const uint16_t *restrict A, const uint16_t *restrict B,
                      const uint32_t *restrict d2, const uint32_t *restrict d1,
                      uint32_t *restrict d0, uint64_t lo, uint64_t hi, uint32_t a1, uint32_t a2) {
    const uint32_t *P2 = d2 + lo - 1, *Pu = d1 + lo - 1, *Pl = d1 + lo;
    uint32_t *C = d0 + lo;
    size_t len = (size_t)(hi - lo + 1);
    uint32_t mn = UINT32_MAX;
    for (size_t t = 0; t < len; t++) {
        uint32_t v = P2[t] + (uint32_t)(A[t] != B[t]) + a2;
        uint32_t u = Pu[t] + a1, l = Pl[t] + a1;
        v = v < u ? v : u;
        v = v < l ? v : l;
        C[t] = v;
        mn = mn < v ? mn : v;
    }
    return mn;
}

wm_status wm_global_dp(const wm_aq_t *aq, const uint8_t *y, uint64_t n, int64_t limit,
                       uint64_t *d) {
    uint64_t m = aq->m;
    if (wm_global_trivial(m, n, limit, d)) return WM_OK;

    const uint8_t *sa = m <= n ? aq->q : y, *sb = m <= n ? y : aq->q;
    uint64_t p = m <= n ? m : n, q = m <= n ? n : m;
    /* b's window: diagonals [k0, k0 + kw) read b[max(0, k0 - p - 1) ..
    ** min(q - 1, k0 + kw - 2)], at most kw + p symbols */
    uint64_t kw = p + 1 + 65536;
    uint16_t *a = malloc(p * sizeof *a);
    uint16_t *rb = malloc((kw + p) * sizeof *rb);
    uint32_t *buf = malloc(3 * (p + 1) * sizeof *buf);
    if (!a || !rb || !buf) {
        free(a);
        free(rb);
        free(buf);
        return WM_NOMEM;
    }
    for (uint64_t i = 0; i < p; i++) a[i] = code_of(aq, sa[i], NONE_A);

    uint32_t *d2 = buf, *d1 = buf + (p + 1), *d0 = buf + 2 * (p + 1);
    d1[0] = 0;                             /* diagonal 0: D[0][0] */
    uint64_t off1 = 0, off2 = 0, min1 = 0; /* of diagonals k - 1, k - 2 */
    uint64_t top = 0;                      /* rb[x] holds b[top - x] */
    for (uint64_t k = 1; k <= p + q; k++) {
        if ((k - 1) % kw == 0) { /* the next window of b */
            uint64_t bot = k > p + 1 ? k - p - 1 : 0;
            top = k + kw - 2 < q - 1 ? k + kw - 2 : q - 1;
            for (uint64_t x = 0; x + bot <= top; x++) rb[x] = code_of(aq, sb[top - x], NONE_B);
        }
        uint64_t off0 = k > 2 * p ? k - 2 * p : 0;
        uint32_t a1 = 1u - (uint32_t)(off0 - off1);
        uint32_t a2 = 0u - (uint32_t)(off0 - off2);
        uint64_t ilo = k > q ? k - q : 0, ihi = k < p ? k : p;
        uint32_t edge = (uint32_t)(k - off0); /* D[0][k] or D[k][0] */
        uint32_t mn = UINT32_MAX;
        if (ilo == 0) mn = d0[0] = edge;
        if (ihi == k) mn = d0[k] = edge;
        uint64_t lo = ilo ? ilo : 1, hi = ihi < k ? ihi : k - 1;
        if (lo <= hi) {
            /* cell i reads b[k - i - 1] = rb[top - k + i + 1] */
            uint32_t v = sweep(a + lo - 1, rb + (top + 1 + lo - k), d2, d1, d0, lo, hi, a1, a2);
            mn = mn < v ? mn : v;
        }
        uint64_t min0 = (uint64_t)mn + off0;
        if (limit >= 0 && min0 > (uint64_t)limit && min1 > (uint64_t)limit) {
            *d = min0 < min1 ? min0 : min1;
            goto out;
        }
        uint32_t *t = d2;
        d2 = d1;
        d1 = d0;
        d0 = t;
        off2 = off1;
        off1 = off0;
        min1 = min0;
    }
    *d = (uint64_t)d1[p] + off1; /* diagonal p + q: cell (p, q) */
out:
    free(a);
    free(rb);
    free(buf);
    return WM_OK;
}
