/*
** doracle.c -- brute-force reference for wm_dtw (see doracle.h for the
** contract: the cell rule, the band, z-normalisation, the selection and the
** canonical traceback).
**
** Plain dynamic programming over whole matrices of doubles, one cell at a
** time, written to be read. Nothing from src/ is included or called.
*/
#include "doracle.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <float.h>
#include <string.h>

/* float32 is computed in float variables: each operation on two floats must
** round to float (not to a wider type, as an x87 FPU would) */
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "doracle's float32 needs FLT_EVAL_METHOD 0 (SSE arithmetic)"
#endif

/* ==== helpers =============================================================== */

/* The arithmetic of what follows: 0 float64, 1 float32 (doracle_precision). */
static int g_f32;

void doracle_precision(wm_dtw_precision_t p) { g_f32 = p == WM_DTW_F32; }

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("doracle: ", stderr);
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

/* count * size bytes, checked for overflow. */
static void *xmalloc_n(uint64_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size)
        die("array too large (%" PRIu64 " x %zu bytes)", count, size);
    return xmalloc((size_t)count * size);
}

static double min3(double a, double b, double c) {
    double r = a < b ? a : b;
    return r < c ? r : c;
}

double doracle_cost(wm_dtw_cost_t c, double x, double y) {
    if (g_f32) { /* the samples rounded to float, then float operations */
        float xf = (float)x, yf = (float)y;
        float d = xf - yf;
        if (c == WM_DTW_SQUARED) return (double)(d * d);
        return (double)fabsf(d);
    }
    double d = x - y;
    if (c == WM_DTW_SQUARED) return d * d;
    return fabs(d);
}

double doracle_add(double a, double b) {
    if (g_f32) {
        float af = (float)a, bf = (float)b; /* exact: the values are floats */
        float r = af + bf;
        return (double)r;
    }
    return a + b;
}

int doracle_in_band(int64_t r, uint64_t m, uint64_t n, uint64_t i, uint64_t j) {
    if (r < 0) return 1;
    int64_t widen_low = m > n ? (int64_t)(m - n) : 0;  /* more query than series */
    int64_t widen_high = n > m ? (int64_t)(n - m) : 0; /* more series than query */
    int64_t lo = (int64_t)i - r - widen_low;
    int64_t hi = (int64_t)i + r + widen_high;
    return (int64_t)j >= lo && (int64_t)j <= hi;
}

void doracle_znorm(const double *in, uint64_t n, double *out) {
    double sum = 0;
    for (uint64_t k = 0; k < n; k++) sum += in[k];
    double mean = sum / (double)n;
    double ss = 0;
    for (uint64_t k = 0; k < n; k++) {
        double d = in[k] - mean;
        ss += d * d;
    }
    double sd = sqrt(ss / (double)n);
    for (uint64_t k = 0; k < n; k++) out[k] = sd == 0 ? 0.0 : (in[k] - mean) / sd;
}

/* ==== subsequence: the cell rule ============================================ */

/* A cell of the subsequence DP. */
typedef struct {
    double value;
    uint64_t start;
} cell_t;

/* Offer candidate (value, start) to *best (have = 0: nothing yet): the
** smallest value wins, of equal values the largest start. */
static void offer(cell_t *best, int *have, double value, uint64_t start) {
    if (!*have || value < best->value || (value == best->value && start > best->start)) {
        best->value = value;
        best->start = start;
        *have = 1;
    }
}

/* Cell (i, c) (row i 1-based, sample c 0-based) from its neighbours: diag =
** (i-1, c-1), up = (i-1, c), left = (i, c-1); any may be NULL when it does not
** exist (diag and left at c = 0; diag and up at i = 1, where the fresh start
** takes their place). */
static cell_t subseq_cell(size_t i, uint64_t c, double cost, const cell_t *diag, const cell_t *up,
                          const cell_t *left) {
    cell_t best = { 0, 0 };
    int have = 0;
    if (i == 1) {
        offer(&best, &have, doracle_add(0, cost), c); /* the fresh start */
    } else {
        if (diag) offer(&best, &have, doracle_add(diag->value, cost), diag->start);
        offer(&best, &have, doracle_add(up->value, cost), up->start);
    }
    if (left) offer(&best, &have, doracle_add(left->value, cost), left->start);
    return best;
}

void doracle_subseq_full(const double *q, size_t m, const double *y, uint64_t n, wm_dtw_cost_t cost,
                         double *dist, uint64_t *start) {
    /* V[i][c] for i = 1..m (row 0 unused), c = 0..n-1 */
    uint64_t cells = (uint64_t)(m + 1) * n;
    cell_t *V = xmalloc_n(cells, sizeof *V);
#define AT(i, c) V[(uint64_t)(i)*n + (c)]
    for (size_t i = 1; i <= m; i++) {
        for (uint64_t c = 0; c < n; c++) {
            const cell_t *diag = (i > 1 && c >= 1) ? &AT(i - 1, c - 1) : NULL;
            const cell_t *up = i > 1 ? &AT(i - 1, c) : NULL;
            const cell_t *left = c >= 1 ? &AT(i, c - 1) : NULL;
            AT(i, c) = subseq_cell(i, c, doracle_cost(cost, q[i - 1], y[c]), diag, up, left);
        }
    }
    for (uint64_t e = 1; e <= n; e++) {
        dist[e - 1] = AT(m, e - 1).value;
        start[e - 1] = AT(m, e - 1).start;
    }
#undef AT
    free(V);
}

void doracle_subseq_cols(const double *q, size_t m, const double *y, uint64_t n, wm_dtw_cost_t cost,
                         double *dist, uint64_t *start) {
    /* prev[i], cur[i]: column c-1 and c, rows 1..m */
    cell_t *prev = xmalloc_n(m + 1, sizeof *prev), *cur = xmalloc_n(m + 1, sizeof *cur);
    for (uint64_t c = 0; c < n; c++) {
        for (size_t i = 1; i <= m; i++) {
            const cell_t *diag = (i > 1 && c >= 1) ? &prev[i - 1] : NULL;
            const cell_t *up = i > 1 ? &cur[i - 1] : NULL;
            const cell_t *left = c >= 1 ? &prev[i] : NULL;
            cur[i] = subseq_cell(i, c, doracle_cost(cost, q[i - 1], y[c]), diag, up, left);
        }
        dist[c] = cur[m].value;
        start[c] = cur[m].start;
        cell_t *t = prev;
        prev = cur;
        cur = t;
    }
    free(prev);
    free(cur);
}

/* ==== global ================================================================ */

/* The whole (m+1) x (n+1) matrix of global DTW with the band; malloc'd. */
static double *global_matrix(const double *q, size_t m, const double *y, uint64_t n,
                             wm_dtw_cost_t cost, int64_t window) {
    uint64_t w = n + 1;
    double *D = xmalloc_n((uint64_t)(m + 1) * w, sizeof *D);
    for (uint64_t k = 0; k < (uint64_t)(m + 1) * w; k++) D[k] = INFINITY;
    D[0] = 0;
    for (size_t i = 1; i <= m; i++)
        for (uint64_t j = 1; j <= n; j++)
            if (doracle_in_band(window, m, n, i - 1, j - 1))
                D[i * w + j] =
                    doracle_add(min3(D[(i - 1) * w + j - 1], D[(i - 1) * w + j], D[i * w + j - 1]),
                                doracle_cost(cost, q[i - 1], y[j - 1]));
    return D;
}

double doracle_global_full(const double *q, size_t m, const double *y, uint64_t n,
                           wm_dtw_cost_t cost, int64_t window) {
    double *D = global_matrix(q, m, y, n, cost, window);
    double d = D[(uint64_t)m * (n + 1) + n];
    free(D);
    return d;
}

double doracle_global_cols(const double *q, size_t m, const double *y, uint64_t n,
                           wm_dtw_cost_t cost, int64_t window) {
    /* prev[i], cur[i]: columns j-1 and j, rows 0..m */
    double *prev = xmalloc_n(m + 1, sizeof *prev), *cur = xmalloc_n(m + 1, sizeof *cur);
    prev[0] = 0;
    for (size_t i = 1; i <= m; i++) prev[i] = INFINITY;
    for (uint64_t j = 1; j <= n; j++) {
        cur[0] = INFINITY;
        for (size_t i = 1; i <= m; i++)
            cur[i] = doracle_in_band(window, m, n, i - 1, j - 1)
                         ? doracle_add(min3(prev[i - 1], cur[i - 1], prev[i]),
                                       doracle_cost(cost, q[i - 1], y[j - 1]))
                         : INFINITY;
        double *t = prev;
        prev = cur;
        cur = t;
    }
    double d = prev[m];
    free(prev);
    free(cur);
    return d;
}

static double global_any(const double *q, size_t m, const double *y, uint64_t n, wm_dtw_cost_t cost,
                         int64_t window) {
    if ((uint64_t)(m + 1) * (n + 1) <= DORACLE_FULL_MAX_CELLS)
        return doracle_global_full(q, m, y, n, cost, window);
    return doracle_global_cols(q, m, y, n, cost, window);
}

double doracle_subseq_naive(const double *q, size_t m, const double *y, uint64_t e,
                            wm_dtw_cost_t cost, uint64_t *start_max) {
    double best = INFINITY;
    uint64_t bs = 0;
    for (uint64_t s = 0; s < e; s++) {
        double d = doracle_global_full(q, m, y + s, e - s, cost, -1);
        if (s == 0 || d <= best) { /* s grows: ties move to the larger s */
            best = d;
            bs = s;
        }
    }
    *start_max = bs;
    return best;
}

/* ==== candidates and selection ============================================== */

/* The signals a mode works on: normalised copies with o->znorm (subsequence,
** global), else the caller's. *owned tells the caller to free them. */
static void prepare(const double *q, size_t m, const double *y, uint64_t n, const wm_dtw_opts_t *o,
                    const double **qq, const double **yy, int *owned) {
    *owned = 0;
    *qq = q;
    *yy = y;
    if (o->mode != WM_DTW_UCR && o->znorm) {
        double *a = xmalloc_n(m, sizeof *a), *b = xmalloc_n(n, sizeof *b);
        doracle_znorm(q, m, a);
        doracle_znorm(y, n, b);
        *qq = a;
        *yy = b;
        *owned = 1;
    }
}

static uint64_t ucr_length(size_t m, const wm_dtw_opts_t *o) {
    return o->length ? o->length : (uint64_t)m;
}

size_t doracle_candidates(const double *q, size_t m, const double *y, uint64_t n,
                          const wm_dtw_opts_t *o, doracle_cand_t **out) {
    if (m == 0 || n == 0)
        die("doracle_candidates: m = %zu, n = %" PRIu64 " (both must be >= 1)", m, n);
    doracle_precision(o->precision);
    const double *qq, *yy;
    int owned;
    prepare(q, m, y, n, o, &qq, &yy, &owned);
    doracle_cand_t *c = NULL;
    size_t nc = 0;
    if (o->mode == WM_DTW_SUBSEQUENCE) {
        double *dist = xmalloc_n(n, sizeof *dist);
        uint64_t *start = xmalloc_n(n, sizeof *start);
        if ((uint64_t)(m + 1) * (n + 1) <= DORACLE_FULL_MAX_CELLS)
            doracle_subseq_full(qq, m, yy, n, o->cost, dist, start);
        else doracle_subseq_cols(qq, m, yy, n, o->cost, dist, start);
        nc = (size_t)n;
        c = xmalloc_n(nc, sizeof *c);
        for (uint64_t e = 1; e <= n; e++) {
            c[e - 1].distance = dist[e - 1];
            c[e - 1].start = start[e - 1];
            c[e - 1].end = e;
        }
        free(dist);
        free(start);
    } else if (o->mode == WM_DTW_GLOBAL) {
        nc = 1;
        c = xmalloc_n(1, sizeof *c);
        c[0].distance = global_any(qq, m, yy, n, o->cost, o->window);
        c[0].start = 0;
        c[0].end = n;
    } else if (o->mode == WM_DTW_UCR) {
        uint64_t L = ucr_length(m, o);
        if (L > n) die("doracle_candidates: ucr with L = %" PRIu64 " > n = %" PRIu64, L, n);
        double *qz = xmalloc_n(m, sizeof *qz), *wz = xmalloc_n(L, sizeof *wz);
        doracle_znorm(q, m, qz);
        nc = (size_t)(n - L + 1);
        c = xmalloc_n(nc, sizeof *c);
        for (uint64_t s = 0; s + L <= n; s++) {
            doracle_znorm(y + s, L, wz);
            c[s].distance = global_any(qz, m, wz, L, o->cost, o->window);
            c[s].start = s;
            c[s].end = s + L;
        }
        free(qz);
        free(wz);
    } else {
        die("doracle_candidates: unknown mode %d", (int)o->mode);
    }
    if (owned) {
        free((void *)qq);
        free((void *)yy);
    }
    *out = c;
    return nc;
}

int doracle_rank_before(const doracle_cand_t *a, const doracle_cand_t *b) {
    if (a->distance != b->distance) return a->distance < b->distance;
    if (a->end != b->end) return a->end < b->end;
    return a->start > b->start;
}

static int cmp_rank(const void *pa, const void *pb) {
    const doracle_cand_t *a = pa, *b = pb;
    if (doracle_rank_before(a, b)) return -1;
    if (doracle_rank_before(b, a)) return 1;
    return 0;
}

size_t doracle_select(doracle_cand_t *c, size_t n, uint64_t top, double max_distance) {
    qsort(c, n, sizeof *c, cmp_rank);
    /* The matches taken so far, also kept sorted by start in `taken`: they do
    ** not overlap, so sorted by start they are sorted by end as well, and a
    ** new [s, e) overlaps one of them iff the last one starting before e
    ** ends after s. */
    doracle_cand_t *taken = xmalloc_n(n, sizeof *taken);
    size_t k = 0;
    for (size_t r = 0; r < n; r++) {
        if (!(c[r].distance <= max_distance)) break; /* rank order: the rest are worse */
        if (top != 0 && k == top) break;
        uint64_t s = c[r].start, e = c[r].end;
        size_t lo = 0, hi = k; /* first taken with start >= e */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (taken[mid].start < e) lo = mid + 1;
            else hi = mid;
        }
        if (lo > 0 && taken[lo - 1].end > s) continue; /* overlaps taken[lo - 1] */
        memmove(&taken[lo + 1], &taken[lo], (k - lo) * sizeof *taken);
        taken[lo] = c[r];
        c[k++] = c[r]; /* rank order; r >= k always */
    }
    if (top == 0) memcpy(c, taken, k * sizeof *c); /* by start */
    free(taken);
    return k;
}

/* ==== the canonical path ==================================================== */

/* Trace back through D ((m+1) x (w+1), row-major) from (m, w) to row 0, the
** cell (i, j) costing cost(q[i-1], y[j-1]); series index = offset + j - 1.
** Returns the path from its first cell (malloc'd, 2 * *len values). */
static uint64_t *traceback(const double *D, size_t m, uint64_t w, const double *q, const double *y,
                           wm_dtw_cost_t cost, uint64_t offset, size_t *len) {
    uint64_t W = w + 1;
    size_t cap = m + (size_t)w + 1, k = 0;
    uint64_t *back = xmalloc_n(2 * (uint64_t)cap, sizeof *back);
    size_t i = m;
    uint64_t j = w;
    while (i > 0) {
        if (j == 0 || k == cap) die("traceback left the matrix at (%zu, %" PRIu64 ")", i, j);
        back[2 * k] = i - 1;
        back[2 * k + 1] = offset + j - 1;
        k++;
        double v = D[i * W + j], cc = doracle_cost(cost, q[i - 1], y[j - 1]);
        if (doracle_add(D[(i - 1) * W + j - 1], cc) == v) {
            i--;
            j--;
        } else if (doracle_add(D[(i - 1) * W + j], cc) == v) {
            i--;
        } else if (doracle_add(D[i * W + j - 1], cc) == v) {
            j--;
        } else {
            die("traceback: no predecessor of (%zu, %" PRIu64 ") gives its value %.17g", i, j, v);
        }
    }
    uint64_t *path = xmalloc_n(2 * (uint64_t)k, sizeof *path);
    for (size_t t = 0; t < k; t++) {
        path[2 * t] = back[2 * (k - 1 - t)];
        path[2 * t + 1] = back[2 * (k - 1 - t) + 1];
    }
    free(back);
    *len = k;
    return path;
}

uint64_t *doracle_path(const double *q, size_t m, const double *y, uint64_t n,
                       const wm_dtw_opts_t *o, uint64_t start, uint64_t end, size_t *len,
                       double *value) {
    if (!(start < end && end <= n))
        die("doracle_path: bad match [%" PRIu64 ", %" PRIu64 ") in %" PRIu64, start, end, n);
    doracle_precision(o->precision);
    uint64_t w = end - start, W = w + 1;
    uint64_t *path = NULL;
    if (o->mode == WM_DTW_SUBSEQUENCE) {
        const double *qq, *yy;
        int owned;
        prepare(q, m, y, n, o, &qq, &yy, &owned);
        const double *win = yy + start;
        double *D = xmalloc_n((uint64_t)(m + 1) * W, sizeof *D);
        for (uint64_t j = 0; j <= w; j++) D[j] = 0; /* D[0][j] = 0 */
        for (size_t i = 1; i <= m; i++) {
            D[i * W] = INFINITY; /* the left border */
            for (uint64_t j = 1; j <= w; j++)
                D[i * W + j] =
                    doracle_add(min3(D[(i - 1) * W + j - 1], D[(i - 1) * W + j], D[i * W + j - 1]),
                                doracle_cost(o->cost, qq[i - 1], win[j - 1]));
        }
        *value = D[m * W + w];
        path = traceback(D, m, w, qq, win, o->cost, start, len);
        free(D);
        if (owned) {
            free((void *)qq);
            free((void *)yy);
        }
    } else if (o->mode == WM_DTW_GLOBAL) {
        if (start != 0 || end != n) die("doracle_path: a global match must be [0, n)");
        const double *qq, *yy;
        int owned;
        prepare(q, m, y, n, o, &qq, &yy, &owned);
        double *D = global_matrix(qq, m, yy, n, o->cost, o->window);
        *value = D[m * W + w];
        path = traceback(D, m, w, qq, yy, o->cost, 0, len);
        free(D);
        if (owned) {
            free((void *)qq);
            free((void *)yy);
        }
    } else if (o->mode == WM_DTW_UCR) {
        if (w != ucr_length(m, o)) die("doracle_path: a ucr match must be L long");
        double *qz = xmalloc_n(m, sizeof *qz), *wz = xmalloc_n(w, sizeof *wz);
        doracle_znorm(q, m, qz);
        doracle_znorm(y + start, w, wz);
        double *D = global_matrix(qz, m, wz, w, o->cost, o->window);
        *value = D[m * W + w];
        path = traceback(D, m, w, qz, wz, o->cost, start, len);
        free(D);
        free(qz);
        free(wz);
    } else {
        die("doracle_path: unknown mode %d", (int)o->mode);
    }
    return path;
}

/* ==== the whole call ======================================================== */

void doracle_dtw(const double *q, size_t m, const double *y, uint64_t n, const wm_dtw_opts_t *o,
                 wm_dtw_matches_t *out) {
    doracle_cand_t *c = NULL;
    size_t nc = doracle_candidates(q, m, y, n, o, &c);
    size_t k = doracle_select(c, nc, o->top, o->max_distance);
    out->n = k;
    out->a = NULL;
    if (k > 0) {
        out->a = xmalloc_n(k, sizeof *out->a);
        for (size_t r = 0; r < k; r++) {
            wm_dtw_match_t *a = &out->a[r];
            a->start = c[r].start;
            a->end = c[r].end;
            a->distance = c[r].distance;
            a->path_len = 0;
            a->path = NULL;
            if (o->path) {
                size_t len = 0;
                double v = 0;
                a->path = doracle_path(q, m, y, n, o, a->start, a->end, &len, &v);
                a->path_len = len;
                if (memcmp(&v, &a->distance, sizeof v) != 0)
                    die("the path's DP of [%" PRIu64 ", %" PRIu64 ") ends at %.17g, the "
                        "candidate's distance is %.17g",
                        a->start, a->end, v, a->distance);
            }
        }
    }
    free(c);
}

void doracle_matches_free(wm_dtw_matches_t *r) {
    if (r == NULL) return;
    for (size_t k = 0; k < r->n; k++) free(r->a[k].path);
    free(r->a);
    r->a = NULL;
    r->n = 0;
}
