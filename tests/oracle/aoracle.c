/*
** aoracle.c -- brute-force reference for wm_align, infix mode (see aoracle.h
** for the contract and the four methods).
**
** Plain dynamic programming, one cell at a time, written to be read. Nothing
** from src/ is included or called: the only thing shared with the library is
** the public header's option type.
*/
#include "aoracle.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ==== characters ============================================================ */

static uint8_t ascii_upper(uint8_t c) { return (c >= 'a' && c <= 'z') ? (uint8_t)(c - 32) : c; }

/* DNA: the base a byte stands for ('A', 'C', 'G', 'T'), or 0 for any other
** byte (N, IUPAC codes, gaps, binary). U reads as T; case is folded. */
static uint8_t dna_base(uint8_t c) {
    switch (ascii_upper(c)) {
    case 'A': return 'A';
    case 'C': return 'C';
    case 'G': return 'G';
    case 'T': return 'T';
    case 'U': return 'T';
    default: return 0;
    }
}

int aoracle_eq(uint8_t a, uint8_t b, const wm_align_opts_t *o) {
    if (o != NULL && o->alphabet == WM_ALPHABET_DNA)
        return dna_base(a) != 0 && dna_base(a) == dna_base(b);
    if (a == b) return 1;
    return o != NULL && o->case_insensitive && ascii_upper(a) == ascii_upper(b) &&
           ascii_upper(a) >= 'A' && ascii_upper(a) <= 'Z';
}

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c) {
    uint64_t r = a < b ? a : b;
    return r < c ? r : c;
}

/* Allocation that never fails quietly (not an assert: Release builds define
** NDEBUG). */
static void *check_mem(void *p) {
    if (p == NULL) {
        fputs("aoracle: out of memory\n", stderr);
        abort();
    }
    return p;
}

static void *xmalloc(size_t n) { return check_mem(malloc(n ? n : 1)); }

/* ==== global edit distance ================================================== */

uint64_t aoracle_edit(const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                      const wm_align_opts_t *o) {
    /* G[i][j] = edit(a[0, i), b[0, j)); two rows over j. */
    uint64_t *prev = xmalloc((nb + 1) * sizeof *prev);
    uint64_t *cur = xmalloc((nb + 1) * sizeof *cur);
    for (size_t j = 0; j <= nb; j++) prev[j] = j;
    for (size_t i = 1; i <= na; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            uint64_t sub = prev[j - 1] + (aoracle_eq(a[i - 1], b[j - 1], o) ? 0 : 1);
            cur[j] = min3(sub, prev[j] + 1, cur[j - 1] + 1);
        }
        uint64_t *tmp = prev;
        prev = cur;
        cur = tmp;
    }
    uint64_t d = prev[nb];
    free(prev);
    free(cur);
    return d;
}

/* ==== the list of ends ====================================================== */

typedef struct {
    uint64_t d;
    uint64_t *end, *start;
    size_t n, cap;
} end_list;

/* Offer end e with distance de and start s: a better distance restarts the
** list, an equal one joins it. Ends are offered in increasing order. */
static void offer_end(end_list *l, uint64_t e, uint64_t de, uint64_t s) {
    if (l->n > 0 && de > l->d) return;
    if (l->n > 0 && de < l->d) l->n = 0;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->end = check_mem(realloc(l->end, l->cap * sizeof *l->end));
        l->start = check_mem(realloc(l->start, l->cap * sizeof *l->start));
    }
    l->d = de;
    l->end[l->n] = e;
    l->start[l->n] = s;
    l->n++;
}

static void list_to_result(end_list *l, aoracle_infix_t *r) {
    assert(l->n >= 1);
    r->d = l->d;
    r->end = l->end;
    r->start = l->start;
    r->n_ends = l->n;
}

void aoracle_infix_free(aoracle_infix_t *r) {
    if (r == NULL) return;
    free(r->end);
    free(r->start);
    r->end = r->start = NULL;
    r->n_ends = 0;
}

/* ==== method 1: one column at a time, starts carried along ================== */

/* Column j holds D[i][j] and S[i][j], the largest start among the optimal
** paths into (i, j): a path starts at a cell (0, s) of the free first row,
** so S[0][j] = j; the first column is reached from (0, 0) only, S[i][0] = 0.
** Every optimal path into (i, j) is an optimal path into one of the
** predecessors that reach the minimum, plus one step; so S[i][j] is the
** largest S of those predecessors. */
void aoracle_infix(const uint8_t *q, size_t m, const uint8_t *t, size_t n, const wm_align_opts_t *o,
                   aoracle_infix_t *r) {
    assert(m > 0);
    uint64_t *D = xmalloc((m + 1) * sizeof *D), *S = xmalloc((m + 1) * sizeof *S);
    uint64_t *ND = xmalloc((m + 1) * sizeof *ND), *NS = xmalloc((m + 1) * sizeof *NS);
    end_list l;
    memset(&l, 0, sizeof l);

    for (size_t i = 0; i <= m; i++) {
        D[i] = i;
        S[i] = 0;
    }
    offer_end(&l, 0, D[m], S[m]);
    for (size_t j = 1; j <= n; j++) {
        ND[0] = 0;
        NS[0] = j;
        for (size_t i = 1; i <= m; i++) {
            uint64_t diag = D[i - 1] + (aoracle_eq(q[i - 1], t[j - 1], o) ? 0 : 1);
            uint64_t up = ND[i - 1] + 1; /* query symbol i-1 against nothing: I */
            uint64_t left = D[i] + 1;    /* target symbol j-1 against nothing: D */
            uint64_t best = min3(diag, up, left);
            uint64_t s = 0;
            int any = 0;
            if (diag == best) {
                s = S[i - 1];
                any = 1;
            }
            if (up == best && (!any || NS[i - 1] > s)) {
                s = NS[i - 1];
                any = 1;
            }
            if (left == best && (!any || S[i] > s)) {
                s = S[i];
                any = 1;
            }
            ND[i] = best;
            NS[i] = s;
        }
        uint64_t *tmp;
        tmp = D;
        D = ND;
        ND = tmp;
        tmp = S;
        S = NS;
        NS = tmp;
        offer_end(&l, j, D[m], S[m]);
    }
    list_to_result(&l, r);
    free(D);
    free(S);
    free(ND);
    free(NS);
}

/* ==== method 2: the definition ============================================== */

void aoracle_naive(const uint8_t *q, size_t m, const uint8_t *t, size_t n, const wm_align_opts_t *o,
                   aoracle_infix_t *r) {
    assert(m > 0);
    end_list l;
    memset(&l, 0, sizeof l);
    for (size_t e = 0; e <= n; e++) {
        uint64_t best = UINT64_MAX, best_s = 0;
        for (size_t s = 0; s <= e; s++) {
            uint64_t v = aoracle_edit(q, m, t + s, e - s, o);
            if (v <= best) { /* s grows: on a tie the later (larger) s wins */
                best = v;
                best_s = s;
            }
        }
        offer_end(&l, e, best, best_s);
    }
    list_to_result(&l, r);
}

/* ==== method 3: one end, the DP read backwards ============================== */

uint64_t aoracle_start(const uint8_t *q, size_t m, const uint8_t *t, uint64_t e,
                       const wm_align_opts_t *o, uint64_t *d_e) {
    assert(m > 0);
    /* R[i][j] = edit(q[m-i, m), t[e-j, e)): the last i query symbols against
    ** the last j target symbols before e. Longer substrings than 2m cannot be
    ** optimal (edit >= length - m > m >= D[m][e], the empty substring's cost). */
    size_t L = (size_t)(e < 2 * (uint64_t)m ? e : 2 * (uint64_t)m);
    uint64_t *prev = xmalloc((L + 1) * sizeof *prev);
    uint64_t *cur = xmalloc((L + 1) * sizeof *cur);
    for (size_t j = 0; j <= L; j++) prev[j] = j;
    for (size_t i = 1; i <= m; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= L; j++) {
            int eq = aoracle_eq(q[m - i], t[e - j], o);
            cur[j] = min3(prev[j - 1] + (eq ? 0 : 1), prev[j] + 1, cur[j - 1] + 1);
        }
        uint64_t *tmp = prev;
        prev = cur;
        cur = tmp;
    }
    /* prev[j] = edit(q, t[e-j, e)); the shortest j reaching the minimum gives
    ** the largest start. */
    uint64_t best = UINT64_MAX;
    size_t best_j = 0;
    for (size_t j = 0; j <= L; j++)
        if (prev[j] < best) {
            best = prev[j];
            best_j = j;
        }
    free(prev);
    free(cur);
    if (d_e != NULL) *d_e = best;
    return e - best_j;
}

/* ==== method 4: the whole matrix, traceback ================================= */

/* Run-length encode ops[0, n) (letters of "=XID") into a new string. */
static char *encode_cigar(const char *ops, size_t n) {
    char *out = xmalloc(n * 12 + 1), *p = out;
    size_t i = 0;
    while (i < n) {
        size_t k = i;
        while (k < n && ops[k] == ops[i]) k++;
        p += sprintf(p, "%zu%c", k - i, ops[i]);
        i = k;
    }
    *p = '\0';
    return out;
}

/* A global alignment of q with y[0, ny) by the full matrix and a traceback
** (diagonal first, then I, then D). *d gets its cost. Returns the CIGAR. */
static char *global_traceback(const uint8_t *q, size_t m, const uint8_t *y, size_t ny,
                              const wm_align_opts_t *o, uint64_t *d) {
    size_t w = ny + 1;
    assert((uint64_t)(m + 1) * w < ((uint64_t)1 << 26));
    uint32_t *G = xmalloc((m + 1) * w * sizeof *G);
#define AT(i, j) G[(size_t)(i)*w + (j)]
    for (size_t j = 0; j <= ny; j++) AT(0, j) = (uint32_t)j;
    for (size_t i = 1; i <= m; i++) {
        AT(i, 0) = (uint32_t)i;
        for (size_t j = 1; j <= ny; j++) {
            uint64_t sub = AT(i - 1, j - 1) + (aoracle_eq(q[i - 1], y[j - 1], o) ? 0 : 1);
            AT(i, j) = (uint32_t)min3(sub, (uint64_t)AT(i - 1, j) + 1, (uint64_t)AT(i, j - 1) + 1);
        }
    }
    *d = AT(m, ny);
    char *ops = xmalloc(m + ny + 1);
    size_t n_ops = 0, i = m, j = ny;
    while (i > 0 || j > 0) {
        if (i > 0 && j > 0) {
            int eq = aoracle_eq(q[i - 1], y[j - 1], o);
            if (AT(i, j) == AT(i - 1, j - 1) + (eq ? 0u : 1u)) {
                ops[n_ops++] = eq ? '=' : 'X';
                i--, j--;
                continue;
            }
        }
        if (i > 0 && AT(i, j) == AT(i - 1, j) + 1) {
            ops[n_ops++] = 'I';
            i--;
            continue;
        }
        assert(j > 0 && AT(i, j) == AT(i, j - 1) + 1);
        ops[n_ops++] = 'D';
        j--;
    }
#undef AT
    for (size_t a = 0, b = n_ops; a + 1 < b; a++, b--) { /* reverse into query order */
        char c = ops[a];
        ops[a] = ops[b - 1];
        ops[b - 1] = c;
    }
    char *cigar = encode_cigar(ops, n_ops);
    free(ops);
    free(G);
    return cigar;
}

void aoracle_full(const uint8_t *q, size_t m, const uint8_t *t, size_t n, uint64_t e,
                  const wm_align_opts_t *o, uint64_t *d_e, uint64_t *start, char **cigar) {
    assert(m > 0 && e <= n);
    size_t w = n + 1;
    assert((uint64_t)(m + 1) * w < ((uint64_t)1 << 26));
    uint32_t *D = xmalloc((m + 1) * w * sizeof *D);
    uint8_t *mark = check_mem(calloc((m + 1) * w, 1));
#define AT(a, i, j) a[(size_t)(i)*w + (j)]
    for (size_t j = 0; j <= n; j++) AT(D, 0, j) = 0;
    for (size_t i = 1; i <= m; i++) {
        AT(D, i, 0) = (uint32_t)i;
        for (size_t j = 1; j <= n; j++) {
            uint64_t sub = AT(D, i - 1, j - 1) + (aoracle_eq(q[i - 1], t[j - 1], o) ? 0 : 1);
            AT(D, i, j) =
                (uint32_t)min3(sub, (uint64_t)AT(D, i - 1, j) + 1, (uint64_t)AT(D, i, j - 1) + 1);
        }
    }
    /* Mark every cell on an optimal path into (m, e), walking backwards: a
    ** marked cell marks each predecessor through which its value is reached.
    ** Rows go down, columns right to left, so a cell's marks are all in
    ** before it is looked at. Paths begin in row 0, which has no predecessors. */
    AT(mark, m, e) = 1;
    for (size_t i = m; i >= 1; i--) {
        for (size_t jj = e + 1; jj-- > 0;) {
            if (!AT(mark, i, jj)) continue;
            uint32_t v = AT(D, i, jj);
            if (jj > 0) {
                uint32_t c = aoracle_eq(q[i - 1], t[jj - 1], o) ? 0u : 1u;
                if (AT(D, i - 1, jj - 1) + c == v) AT(mark, i - 1, jj - 1) = 1;
                if (AT(D, i, jj - 1) + 1 == v) AT(mark, i, jj - 1) = 1;
            }
            if (AT(D, i - 1, jj) + 1 == v) AT(mark, i - 1, jj) = 1;
        }
    }
    uint64_t s = UINT64_MAX;
    for (size_t jj = 0; jj <= e; jj++)
        if (AT(mark, 0, jj)) s = jj;
    assert(s != UINT64_MAX);
    *d_e = AT(D, m, e);
    *start = s;
#undef AT
    free(D);
    free(mark);
    uint64_t g;
    *cigar = global_traceback(q, m, t + s, (size_t)(e - s), o, &g);
    assert(g == *d_e);
}

/* ==== CIGAR replay ========================================================== */

/* Write a reason (printf style) into why; return 0 (the replay failed). */
static int replay_fail(char *why, size_t why_len, const char *fmt, ...) {
    if (why != NULL && why_len > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, why_len, fmt, ap);
        va_end(ap);
    }
    return 0;
}

int aoracle_cigar_replay(const char *cigar, const uint8_t *q, size_t m, const uint8_t *t,
                         uint64_t n, uint64_t start, uint64_t end, uint64_t distance,
                         const wm_align_opts_t *o, char *why, size_t why_len) {
    if (cigar == NULL) return replay_fail(why, why_len, "CIGAR is NULL");
    if (start > end || end > n)
        return replay_fail(why, why_len,
                           "bad interval: start %" PRIu64 ", end %" PRIu64
                           ", target length %" PRIu64,
                           start, end, n);
    if (*cigar == '\0') return replay_fail(why, why_len, "empty CIGAR");
    uint64_t qi = 0, ti = start, cost = 0;
    const char *p = cigar;
    while (*p) {
        size_t at = (size_t)(p - cigar);
        if (*p < '0' || *p > '9')
            return replay_fail(why, why_len, "char %zu ('%c'): an operation without a count", at,
                               *p);
        uint64_t cnt = 0;
        while (*p >= '0' && *p <= '9') {
            cnt = cnt * 10 + (uint64_t)(*p - '0');
            if (cnt > (uint64_t)m + n + 1)
                return replay_fail(why, why_len, "char %zu: a count over m + n + 1", at);
            p++;
        }
        if (cnt == 0) return replay_fail(why, why_len, "char %zu: a count of 0", at);
        char op = *p;
        if (op == '\0')
            return replay_fail(why, why_len, "char %zu: a count without an operation", at);
        p++;
        switch (op) {
        case '=':
        case 'X':
            if (qi + cnt > m || ti + cnt > end)
                return replay_fail(why, why_len,
                                   "char %zu: %" PRIu64 "%c runs past the query"
                                   " (at %" PRIu64 ") or the target substring (at %" PRIu64 ")",
                                   at, cnt, op, qi, ti);
            for (uint64_t k = 0; k < cnt; k++, qi++, ti++) {
                int eq = aoracle_eq(q[qi], t[ti], o);
                if (op == '=' && !eq)
                    return replay_fail(why, why_len,
                                       "'=' on unequal symbols: query[%" PRIu64
                                       "] = 0x%02x, target[%" PRIu64 "] = 0x%02x",
                                       qi, q[qi], ti, t[ti]);
                if (op == 'X' && eq)
                    return replay_fail(why, why_len,
                                       "'X' on equal symbols: query[%" PRIu64
                                       "] = 0x%02x, target[%" PRIu64 "] = 0x%02x",
                                       qi, q[qi], ti, t[ti]);
            }
            if (op == 'X') cost += cnt;
            break;
        case 'I':
            if (qi + cnt > m)
                return replay_fail(why, why_len,
                                   "char %zu: %" PRIu64 "I runs past the query"
                                   " (at %" PRIu64 ")",
                                   at, cnt, qi);
            qi += cnt;
            cost += cnt;
            break;
        case 'D':
            if (ti + cnt > end)
                return replay_fail(why, why_len,
                                   "char %zu: %" PRIu64 "D runs past the end"
                                   " (at %" PRIu64 ")",
                                   at, cnt, ti);
            ti += cnt;
            cost += cnt;
            break;
        default: return replay_fail(why, why_len, "char %zu: unknown operation '%c'", at, op);
        }
    }
    if (qi != m)
        return replay_fail(why, why_len, "consumes %" PRIu64 " query symbols of %zu", qi, m);
    if (ti != end)
        return replay_fail(why, why_len, "consumes %" PRIu64 " target symbols, want %" PRIu64,
                           ti - start, end - start);
    if (cost != distance)
        return replay_fail(why, why_len, "costs %" PRIu64 " (X + I + D), distance says %" PRIu64,
                           cost, distance);
    return 1;
}
