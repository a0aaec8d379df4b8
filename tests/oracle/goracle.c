/*
** goracle.c -- brute-force reference for wm_align, global mode (see
** goracle.h for the contract, the canonical traceback and the four methods).
**
** Plain dynamic programming, one cell at a time, written to be read. Nothing
** from src/ is included or called; symbol equality is aoracle_eq, shared
** with the infix oracle so that both read the alphabets the same way.
*/
#include "goracle.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aoracle.h"

/* ==== helpers =============================================================== */

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("goracle: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (p == NULL) die("out of memory (%zu bytes)", n);
    return p;
}

static void *xcalloc(size_t n) {
    void *p = calloc(n ? n : 1, 1);
    if (p == NULL) die("out of memory (%zu bytes)", n);
    return p;
}

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c) {
    uint64_t r = a < b ? a : b;
    return r < c ? r : c;
}

static int eq(const uint8_t *q, size_t i, const uint8_t *t, size_t j, const wm_align_opts_t *o) {
    return aoracle_eq(q[i], t[j], o);
}

/* ops[0, n) holds the traceback's letters from (m, n) backwards: reverse
** them into query order and run-length encode them (maximal runs). */
static char *encode_backwards(const char *ops, size_t n) {
    char *out = xmalloc(n * 21 + 1), *p = out;
    size_t i = n;
    while (i > 0) {
        char op = ops[i - 1];
        size_t k = i;
        while (k > 0 && ops[k - 1] == op) k--;
        p += sprintf(p, "%zu%c", i - k, op);
        i = k;
    }
    *p = '\0';
    return out;
}

/* ==== method 1: two rows ==================================================== */

uint64_t goracle_distance(const uint8_t *q, size_t m, const uint8_t *t, size_t n,
                          const wm_align_opts_t *o) {
    uint64_t *prev = xmalloc((n + 1) * sizeof *prev);
    uint64_t *cur = xmalloc((n + 1) * sizeof *cur);
    for (size_t j = 0; j <= n; j++) prev[j] = j;
    for (size_t i = 1; i <= m; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= n; j++) {
            uint64_t sub = prev[j - 1] + (eq(q, i - 1, t, j - 1, o) ? 0 : 1);
            cur[j] = min3(sub, prev[j] + 1, cur[j - 1] + 1);
        }
        uint64_t *tmp = prev;
        prev = cur;
        cur = tmp;
    }
    uint64_t d = prev[n];
    free(prev);
    free(cur);
    return d;
}

/* ==== method 2: the whole matrix ============================================ */

char *goracle_full(const uint8_t *q, size_t m, const uint8_t *t, size_t n, const wm_align_opts_t *o,
                   uint64_t *d) {
    uint64_t cells = (uint64_t)(m + 1) * (uint64_t)(n + 1);
    if (cells > GORACLE_FULL_MAX_CELLS)
        die("goracle_full: %zu x %zu is over %llu cells", m, n,
            (unsigned long long)GORACLE_FULL_MAX_CELLS);
    size_t w = n + 1;
    uint32_t *D = xmalloc((size_t)cells * sizeof *D);
#define AT(i, j) D[(size_t)(i)*w + (size_t)(j)]
    for (size_t j = 0; j <= n; j++) AT(0, j) = (uint32_t)j;
    for (size_t i = 1; i <= m; i++) {
        AT(i, 0) = (uint32_t)i;
        for (size_t j = 1; j <= n; j++) {
            uint64_t sub = (uint64_t)AT(i - 1, j - 1) + (eq(q, i - 1, t, j - 1, o) ? 0 : 1);
            AT(i, j) = (uint32_t)min3(sub, (uint64_t)AT(i - 1, j) + 1, (uint64_t)AT(i, j - 1) + 1);
        }
    }
    *d = AT(m, n);

    char *ops = xmalloc(m + n + 1);
    size_t n_ops = 0, i = m, j = n;
    while (i > 0 || j > 0) {
        if (i > 0 && j > 0) {
            int e = eq(q, i - 1, t, j - 1, o);
            if ((uint64_t)AT(i - 1, j - 1) + (e ? 0 : 1) == AT(i, j)) {
                ops[n_ops++] = e ? '=' : 'X';
                i--, j--;
                continue;
            }
        }
        if (i > 0 && (uint64_t)AT(i - 1, j) + 1 == AT(i, j)) {
            ops[n_ops++] = 'I';
            i--;
            continue;
        }
        if (j == 0 || (uint64_t)AT(i, j - 1) + 1 != AT(i, j))
            die("goracle_full: no move at (%zu, %zu)", i, j);
        ops[n_ops++] = 'D';
        j--;
    }
#undef AT
    char *cigar = encode_backwards(ops, n_ops);
    free(ops);
    free(D);
    return cigar;
}

/* ==== method 3: the band ==================================================== */

/* Cells (i, j) with x = i - j in [xlo, xhi]: the diagonals where
** |x| + |s - x| <= band, s = m - n. With r = (band - |s|) / 2 that is
** [min(0, s) - r, max(0, s) + r]. Row i keeps the W = xhi - xlo + 1 cells
** j = i - xhi .. i - xlo (those in [0, n]); cell (i, j) is at offset
** o = j - i + xhi of its row: the diagonal predecessor (i-1, j-1) has the same
** offset in row i-1, the upper one (i-1, j) offset o + 1, the left one
** (i, j-1) offset o - 1 in row i.
** Per cell two bits: 1 = the diagonal move passes, 2 = the 'I' move passes. */
#define BAND_INF (UINT64_MAX / 4)

static unsigned get2(const uint8_t *bits, uint64_t k) {
    return (bits[k >> 2] >> (2 * (k & 3))) & 3u;
}
static void set2(uint8_t *bits, uint64_t k, unsigned v) {
    bits[k >> 2] |= (uint8_t)(v << (2 * (k & 3)));
}

int goracle_banded(const uint8_t *q, size_t m, const uint8_t *t, size_t n, const wm_align_opts_t *o,
                   uint64_t band, uint64_t *d, char **cigar) {
    int64_t s = (int64_t)m - (int64_t)n;
    uint64_t abs_s = (uint64_t)(s < 0 ? -s : s);
    *cigar = NULL;
    *d = UINT64_MAX;
    if (band < abs_s) return 0;
    if (band > (uint64_t)m + n) band = (uint64_t)m + n;
    int64_t r = (int64_t)((band - abs_s) / 2);
    int64_t xlo = (s < 0 ? s : 0) - r, xhi = (s > 0 ? s : 0) + r;
    uint64_t W = (uint64_t)(xhi - xlo + 1);
    uint64_t cells = (uint64_t)(m + 1) * W;
    if (cells > GORACLE_BANDED_MAX_CELLS)
        die("goracle_banded: %zu x %zu, band %llu: %llu cells is too many", m, n,
            (unsigned long long)band, (unsigned long long)cells);
    uint8_t *bits = xcalloc((size_t)((cells + 3) / 4));
    uint64_t *prev = xmalloc((size_t)W * sizeof *prev), *cur = xmalloc((size_t)W * sizeof *cur);

    /* row 0: D[0][j] = j */
    for (uint64_t k = 0; k < W; k++) {
        int64_t j = (int64_t)k - xhi; /* i = 0 */
        prev[k] = (j >= 0 && j <= (int64_t)n) ? (uint64_t)j : BAND_INF;
    }
    for (size_t i = 1; i <= m; i++) {
        for (uint64_t k = 0; k < W; k++) {
            int64_t j = (int64_t)i + (int64_t)k - xhi;
            cur[k] = BAND_INF;
            if (j < 0 || j > (int64_t)n) continue;
            if (j == 0) { /* D[i][0] = i, reached by 'I' */
                cur[k] = i;
                set2(bits, (uint64_t)i * W + k, 2);
                continue;
            }
            uint64_t dg = prev[k], up = k + 1 < W ? prev[k + 1] : BAND_INF;
            uint64_t lf = k > 0 ? cur[k - 1] : BAND_INF;
            int e = eq(q, i - 1, t, (size_t)j - 1, o);
            uint64_t sub = dg + (e ? 0 : 1);
            uint64_t v = min3(sub, up + 1, lf + 1);
            if (v >= BAND_INF) continue;
            cur[k] = v;
            set2(bits, (uint64_t)i * W + k, (sub == v ? 1u : 0u) | (up + 1 == v ? 2u : 0u));
        }
        uint64_t *tmp = prev;
        prev = cur;
        cur = tmp;
    }
    uint64_t k_end = (uint64_t)((int64_t)n - (int64_t)m + xhi);
    *d = prev[k_end];
    free(prev);
    free(cur);
    if (*d > band) {
        free(bits);
        return 0;
    }

    char *ops = xmalloc(m + n + 1);
    size_t n_ops = 0, i = m, j = n;
    while (i > 0 || j > 0) {
        uint64_t k = (uint64_t)((int64_t)j - (int64_t)i + xhi);
        if (k >= W) die("goracle_banded: the traceback left the band at (%zu, %zu)", i, j);
        unsigned f = get2(bits, (uint64_t)i * W + k);
        if (i > 0 && j > 0 && (f & 1u)) {
            ops[n_ops++] = eq(q, i - 1, t, j - 1, o) ? '=' : 'X';
            i--, j--;
        } else if (i > 0 && (f & 2u)) {
            ops[n_ops++] = 'I';
            i--;
        } else {
            if (j == 0) die("goracle_banded: no move at (%zu, 0)", i);
            ops[n_ops++] = 'D';
            j--;
        }
    }
    *cigar = encode_backwards(ops, n_ops);
    free(ops);
    free(bits);
    return 1;
}

/* ==== method 4: the definition ============================================== */

typedef struct {
    const uint8_t *q, *t;
    const wm_align_opts_t *o;
    char ops[2 * GORACLE_DEF_MAX + 1];
    size_t n_ops;
} dfs_t;

/* Is there an alignment of q[0, i) with t[0, j) of cost <= budget? Tries the
** moves out of (i, j) backwards in the order diagonal, I, D and leaves the
** first one found in s->ops (appended backwards). */
static int dfs(dfs_t *s, size_t i, size_t j, uint64_t budget) {
    if (i == 0 && j == 0) return 1;
    uint64_t gap = i > j ? i - j : j - i;
    if (gap > budget) return 0;
    size_t at = s->n_ops;
    if (i > 0 && j > 0) {
        int e = eq(s->q, i - 1, s->t, j - 1, s->o);
        if (e || budget > 0) {
            s->ops[s->n_ops++] = e ? '=' : 'X';
            if (dfs(s, i - 1, j - 1, budget - (e ? 0 : 1))) return 1;
            s->n_ops = at;
        }
    }
    if (i > 0 && budget > 0) {
        s->ops[s->n_ops++] = 'I';
        if (dfs(s, i - 1, j, budget - 1)) return 1;
        s->n_ops = at;
    }
    if (j > 0 && budget > 0) {
        s->ops[s->n_ops++] = 'D';
        if (dfs(s, i, j - 1, budget - 1)) return 1;
        s->n_ops = at;
    }
    return 0;
}

char *goracle_definition(const uint8_t *q, size_t m, const uint8_t *t, size_t n,
                         const wm_align_opts_t *o, uint64_t *d) {
    if (m > GORACLE_DEF_MAX || n > GORACLE_DEF_MAX)
        die("goracle_definition: %zu x %zu is over %d", m, n, GORACLE_DEF_MAX);
    dfs_t s;
    memset(&s, 0, sizeof s);
    s.q = q;
    s.t = t;
    s.o = o;
    /* the smallest budget with an alignment is the distance; the search in
    ** move order finds the canonical alignment among those of that cost */
    for (uint64_t budget = 0;; budget++) {
        s.n_ops = 0;
        if (dfs(&s, m, n, budget)) {
            *d = budget;
            return encode_backwards(s.ops, s.n_ops);
        }
    }
}

/* ==== CIGAR replay ========================================================== */

static int replay_fail(char *why, size_t why_len, const char *fmt, ...) {
    if (why != NULL && why_len > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, why_len, fmt, ap);
        va_end(ap);
    }
    return 0;
}

int goracle_cigar_replay(const char *cigar, const uint8_t *q, size_t m, const uint8_t *t, size_t n,
                         uint64_t distance, const wm_align_opts_t *o, uint64_t counts[4], char *why,
                         size_t why_len) {
    uint64_t cnt_op[4] = { 0, 0, 0, 0 };
    if (counts != NULL) memset(counts, 0, 4 * sizeof *counts);
    if (cigar == NULL) return replay_fail(why, why_len, "CIGAR is NULL");
    uint64_t qi = 0, ti = 0;
    char prev = 0;
    const char *p = cigar;
    while (*p) {
        size_t at = (size_t)(p - cigar);
        if (*p < '0' || *p > '9')
            return replay_fail(why, why_len, "char %zu ('%c'): an operation without a count", at,
                               *p);
        if (*p == '0')
            return replay_fail(why, why_len, "char %zu: a count of 0 or with a leading 0", at);
        uint64_t cnt = 0;
        while (*p >= '0' && *p <= '9') {
            cnt = cnt * 10 + (uint64_t)(*p - '0');
            if (cnt > (uint64_t)m + n + 1)
                return replay_fail(why, why_len, "char %zu: a count over m + n + 1", at);
            p++;
        }
        char op = *p;
        if (op == '\0')
            return replay_fail(why, why_len, "char %zu: a count without an operation", at);
        p++;
        if (op == prev)
            return replay_fail(why, why_len,
                               "char %zu: two '%c' runs in a row (runs are not"
                               " maximal)",
                               at, op);
        prev = op;
        switch (op) {
        case '=':
        case 'X':
            if (qi + cnt > m || ti + cnt > n)
                return replay_fail(why, why_len,
                                   "char %zu: %" PRIu64 "%c runs past the query"
                                   " (at %" PRIu64 ") or the target (at %" PRIu64 ")",
                                   at, cnt, op, qi, ti);
            for (uint64_t k = 0; k < cnt; k++, qi++, ti++) {
                int e = aoracle_eq(q[qi], t[ti], o);
                if (op == '=' && !e)
                    return replay_fail(why, why_len,
                                       "'=' on unequal symbols: query[%" PRIu64
                                       "] = 0x%02x, target[%" PRIu64 "] = 0x%02x",
                                       qi, q[qi], ti, t[ti]);
                if (op == 'X' && e)
                    return replay_fail(why, why_len,
                                       "'X' on equal symbols: query[%" PRIu64
                                       "] = 0x%02x, target[%" PRIu64 "] = 0x%02x",
                                       qi, q[qi], ti, t[ti]);
            }
            cnt_op[op == '=' ? 0 : 1] += cnt;
            break;
        case 'I':
            if (qi + cnt > m)
                return replay_fail(why, why_len,
                                   "char %zu: %" PRIu64 "I runs past the query"
                                   " (at %" PRIu64 ")",
                                   at, cnt, qi);
            qi += cnt;
            cnt_op[2] += cnt;
            break;
        case 'D':
            if (ti + cnt > n)
                return replay_fail(why, why_len,
                                   "char %zu: %" PRIu64 "D runs past the target"
                                   " (at %" PRIu64 ")",
                                   at, cnt, ti);
            ti += cnt;
            cnt_op[3] += cnt;
            break;
        default: return replay_fail(why, why_len, "char %zu: unknown operation '%c'", at, op);
        }
    }
    if (qi != m)
        return replay_fail(why, why_len, "consumes %" PRIu64 " query symbols of %zu", qi, m);
    if (ti != n)
        return replay_fail(why, why_len, "consumes %" PRIu64 " target symbols of %zu", ti, n);
    uint64_t cost = cnt_op[1] + cnt_op[2] + cnt_op[3];
    if (cost != distance)
        return replay_fail(why, why_len, "costs %" PRIu64 " (X + I + D), distance says %" PRIu64,
                           cost, distance);
    if (counts != NULL) memcpy(counts, cnt_op, sizeof cnt_op);
    return 1;
}
