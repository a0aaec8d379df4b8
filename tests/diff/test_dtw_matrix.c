/*
** test_dtw_matrix.c -- wm_dtw_matrix (DTW distance matrices) against the
** brute-force oracle (tests/oracle/doracle.c, global mode), bit for bit, on
** the CPU with 1 and 3 threads, over three CPU shards, and on CUDA when a
** GPU is found (one device, and two contexts of device 0 as shards).
**
** 1. The contract's own checks: a list against itself is symmetric with 0
**    on its diagonal, and equals the matrix of the list against a copy of
**    itself (computed both ways round); every entry equals wm_dtw's global
**    mode on the same pair; with a narrow band (radius 15: the CPU's scalar
**    DP) and a wide one (140: its SIMD strips, each over its rows' band),
**    in both precisions.
** 2. Seeded random cases (300 at WM_TEST_SCALE=1): 1..40 signals a side
**    (one side or two), lengths from 1 to 2,600 (tiny, short, the GPU's
**    lane shapes around 32 R for every R, one stripe of 1,024 and several),
**    all equal or mixed; Gaussian noise, random walks, quantised values
**    (ties), constants, spikes of 1e150 (1e20 in float32: squares overflow to +inf);
**    both costs; band -1, 0, 1, a few, a random fraction, >= the longest;
**    z-normalisation on a third; float32 on 40% (its own oracle). Every
**    entry against the oracle's global DTW of the pair (normalised by the
**    oracle's own znorm when asked).
** 3. The arguments: NULL context / lists / lengths / output, an empty
**    signal (WM_PATTERN_EMPTY, "a[2] is empty"), NaN and infinite samples
**    ("b[1]: sample 3 is NaN"), a NULL signal, subsequence and ucr modes,
**    paths, window < -1, an unknown precision, a float32 sample past
**    FLT_MAX (refused; accepted when normalised), n_a = 0 and n_b = 0
**    (nothing written).
** Exit status 0 when all checks pass; the last line is "N passed, N failed".
*/
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contexts.h"
#include "doracle.h"
#include "harness.h"
#include "rng.h"
#include "warpmatch.h"

typedef struct {
    size_t na, nb; /* nb = 0: a against itself */
    double **a, **b;
    size_t *alen, *blen;
    wm_dtw_opts_t o;
} mcase_t;

static config g_cf[8];
static size_t g_ncf;

static void describe(const void *p) {
    const mcase_t *c = p;
    fprintf(stderr, "  %zu x %zu signals, cost %s, window %" PRId64 ", znorm %d, %s\n", c->na,
            c->nb ? c->nb : c->na, c->o.cost == WM_DTW_SQUARED ? "squared" : "abs", c->o.window,
            c->o.znorm, c->o.precision == WM_DTW_F32 ? "f32" : "f64");
    for (size_t i = 0; i < c->na; i++) fprintf(stderr, "  a[%zu]: %zu samples\n", i, c->alen[i]);
    for (size_t i = 0; i < c->nb; i++) fprintf(stderr, "  b[%zu]: %zu samples\n", i, c->blen[i]);
}

static int same_bits(double x, double y) { return memcmp(&x, &y, sizeof x) == 0; }

/* A signal of a random kind; spike: the height of the spikes whose squares
** overflow (1e150 in float64; 1e20 in float32, itself a float). */
static double *make_signal(size_t n, double spike) {
    double *v = xmalloc(n * sizeof *v);
    int kind = (int)below(6);
    double w = gauss();
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case 0: v[i] = gauss(); break;
        case 1: v[i] = (w += gauss() * 0.3); break;
        case 2: v[i] = (double)(int64_t)below(5) / 8.0; break; /* ties */
        case 3: v[i] = 1.5; break;
        case 4: v[i] = chance(3) ? spike : gauss(); break; /* squares overflow */
        default: v[i] = sin((double)i * 0.05 + w) + 0.1 * gauss(); break;
        }
    }
    return v;
}

/* A length: tiny, short, around a GPU lane shape, one stripe, several. */
static size_t make_len(void) {
    static const int R[] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32 };
    switch (below(10)) {
    case 0: return (size_t)range(1, 4);
    case 1:
    case 2:
    case 3: return (size_t)range(1, 200);
    case 4:
    case 5:
    case 6: return (size_t)(32 * R[below(N_OF(R))] + (int)range(0, 2) - 1);
    case 7: return (size_t)range(200, 1024);
    case 8: return (size_t)range(1025, 1600);
    default: return chance(30) ? (size_t)range(2048, 2600) : (size_t)range(1, 64);
    }
}

/* The oracle's distance of a pair, normalised by its own znorm when asked. */
static double oracle_pair(const double *x, size_t m, const double *y, size_t n,
                          const wm_dtw_opts_t *o) {
    double *xn = NULL, *yn = NULL;
    if (o->znorm) {
        xn = xmalloc(m * sizeof *xn);
        yn = xmalloc(n * sizeof *yn);
        doracle_znorm(x, m, xn);
        doracle_znorm(y, n, yn);
        x = xn;
        y = yn;
    }
    doracle_precision(o->precision);
    double d = (uint64_t)(m + 1) * (n + 1) <= DORACLE_FULL_MAX_CELLS
                   ? doracle_global_full(x, m, y, n, o->cost, o->window)
                   : doracle_global_cols(x, m, y, n, o->cost, o->window);
    free(xn);
    free(yn);
    return d;
}

static void free_case(mcase_t *c) {
    for (size_t i = 0; i < c->na; i++) free(c->a[i]);
    for (size_t i = 0; i < c->nb; i++) free(c->b[i]);
    free(c->a);
    free(c->b);
    free(c->alen);
    free(c->blen);
}

static void one_case(long idx) {
    mcase_t c;
    memset(&c, 0, sizeof c);
    c.o = wm_dtw_opts_default();
    c.o.mode = WM_DTW_GLOBAL;
    c.o.cost = chance(50) ? WM_DTW_SQUARED : WM_DTW_ABS;
    c.o.znorm = chance(33);
    c.o.precision = chance(40) ? WM_DTW_F32 : WM_DTW_F64;
    const double spike = c.o.precision == WM_DTW_F32 ? 1e20 : 1e150;
    int equal = chance(40);
    size_t common = make_len();
    /* keep the oracle's work (every pair, O(m n)) to a few 10^8 cells */
    uint64_t budget = 60u << 20, cells = 0;
    c.na = (size_t)range(1, chance(20) ? 40 : 8);
    c.nb = chance(50) ? (size_t)range(1, 8) : 0;
    c.a = xcalloc(c.na, sizeof *c.a);
    c.alen = xcalloc(c.na, sizeof *c.alen);
    c.b = xcalloc(c.nb ? c.nb : 1, sizeof *c.b);
    c.blen = xcalloc(c.nb ? c.nb : 1, sizeof *c.blen);
    uint64_t longest = 1;
    for (size_t i = 0; i < c.na + c.nb; i++) {
        size_t n = equal ? common : make_len();
        if (i < c.na) {
            c.alen[i] = n;
            c.a[i] = make_signal(n, spike);
        } else {
            c.blen[i - c.na] = n;
            c.b[i - c.na] = make_signal(n, spike);
        }
        if (n > longest) longest = n;
    }
    switch (below(6)) {
    case 0: c.o.window = -1; break;
    case 1: c.o.window = 0; break;
    case 2: c.o.window = 1; break;
    case 3: c.o.window = (int64_t)range(2, 20); break;
    case 4: c.o.window = (int64_t)(unif() * (double)longest * 0.3); break;
    default: c.o.window = (int64_t)longest + (int64_t)below(3); break;
    }
    size_t nb = c.nb ? c.nb : c.na;
    const double *const *bl = c.nb ? (const double *const *)c.b : NULL;
    for (size_t i = 0; i < c.na; i++)
        for (size_t j = 0; j < nb; j++)
            cells += (uint64_t)c.alen[i] * (c.nb ? c.blen[j] : c.alen[j]);
    if (cells > budget) { /* too big for the oracle: shorten the case */
        for (size_t i = 2; i < c.na; i++) free(c.a[i]);
        if (c.na > 2) c.na = 2;
        for (size_t i = 2; i < c.nb; i++) free(c.b[i]);
        if (c.nb > 2) c.nb = 2;
        nb = c.nb ? c.nb : c.na;
    }

    double *want = xmalloc(c.na * nb * sizeof *want);
    double t0 = now_s();
    for (size_t i = 0; i < c.na; i++)
        for (size_t j = 0; j < nb; j++) {
            if (!c.nb && j < i) {
                want[i * nb + j] = want[j * nb + i];
                continue;
            }
            const double *y = c.nb ? c.b[j] : c.a[j];
            size_t n = c.nb ? c.blen[j] : c.alen[j];
            want[i * nb + j] = !c.nb && i == j ? 0.0 : oracle_pair(c.a[i], c.alen[i], y, n, &c.o);
        }
    g_t_oracle += now_s() - t0;

    double *got = xmalloc(c.na * nb * sizeof *got);
    for (size_t k = 0; k < g_ncf; k++) {
        char what[160];
        for (size_t e = 0; e < c.na * nb; e++) got[e] = -1.0;
        t0 = now_s();
        wm_status st = wm_dtw_matrix(g_cf[k].cx, (const double *const *)c.a, c.alen, c.na, bl,
                                     c.blen, c.nb, &c.o, got);
        g_t_lib += now_s() - t0;
        snprintf(what, sizeof what, "%s: wm_dtw_matrix", g_cf[k].name);
        check_case_status(idx, &c, what, st, WM_OK, g_cf[k].cx);
        if (st != WM_OK) continue;
        size_t bad = 0;
        for (size_t i = 0; i < c.na; i++)
            for (size_t j = 0; j < nb; j++)
                if (!same_bits(got[i * nb + j], want[i * nb + j]) && bad++ < 3)
                    fail_fmt(idx, &c, "%s: entry (%zu, %zu) is %.17g, the oracle's %.17g",
                             g_cf[k].name, i, j, got[i * nb + j], want[i * nb + j]);
        check_true(what, bad == 0);
    }
    free(got);
    free(want);
    free_case(&c);
}

/* Part 1: symmetry, a against a copy of a, and wm_dtw's global mode. */
static void test_symmetry(void) {
    seed_case(-1, 77);
    size_t n = 12;
    double *a[12];
    size_t len[12];
    for (size_t i = 0; i < n; i++) {
        len[i] = i < 6 ? 150 : make_len();
        a[i] = make_signal(len[i], 1e20); /* for both precisions */
    }
    wm_dtw_opts_t o = wm_dtw_opts_default();
    o.mode = WM_DTW_GLOBAL;
    o.cost = WM_DTW_SQUARED;
    double *self = xmalloc(n * n * sizeof *self), *two = xmalloc(n * n * sizeof *two);
    /* a narrow band (the scalar DP on the CPU) and a wide one (the SIMD
    ** strips, each over its band), against wm_dtw's scalar global DP */
    for (size_t k = 0; k < 4 * g_ncf; k++) { /* both bands, both precisions */
        o.window = k % (2 * g_ncf) < g_ncf ? 15 : 140;
        o.precision = k >= 2 * g_ncf ? WM_DTW_F32 : WM_DTW_F64;
        wm_context_t *cx = g_cf[k % g_ncf].cx;
        const char *name = g_cf[k % g_ncf].name;
        char what[160];
        snprintf(what, sizeof what, "%s, window %lld, %s: a x a", name, (long long)o.window,
                 o.precision == WM_DTW_F32 ? "f32" : "f64");
        check_status(what,
                     wm_dtw_matrix(cx, (const double *const *)a, len, n, NULL, NULL, 0, &o, self),
                     WM_OK, cx);
        snprintf(what, sizeof what, "%s: a x copy of a", name);
        check_status(what,
                     wm_dtw_matrix(cx, (const double *const *)a, len, n, (const double *const *)a,
                                   len, n, &o, two),
                     WM_OK, cx);
        int sym = 1, diag = 1, same = 1, lib = 1;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                sym &= same_bits(self[i * n + j], self[j * n + i]);
                same &= same_bits(self[i * n + j], two[i * n + j]);
                if (i == j) diag &= self[i * n + i] == 0.0;
            }
        for (size_t i = 0; i < n; i++) /* wm_dtw's global mode */
            for (size_t j = 0; j < n; j++) {
                wm_dtw_matches_t r = { 0 };
                if (wm_dtw(cx, a[i], len[i], a[j], len[j], &o, &r) != WM_OK || r.n != 1 ||
                    !same_bits(r.a[0].distance, self[i * n + j]))
                    lib = 0;
                wm_dtw_matches_free(&r);
            }
        snprintf(what, sizeof what, "%s: symmetric", name);
        check_true(what, sym);
        snprintf(what, sizeof what, "%s: 0 on the diagonal", name);
        check_true(what, diag);
        snprintf(what, sizeof what, "%s: a x a equals a x copy of a", name);
        check_true(what, same);
        snprintf(what, sizeof what, "%s: equals wm_dtw global mode", name);
        check_true(what, lib);
    }
    free(self);
    free(two);
    for (size_t i = 0; i < n; i++) free(a[i]);
}

/* Part 3: the arguments, one at a time. */
static void test_args(const config *cf) {
    wm_context_t *cx = cf->cx;
    char what[300];
    double s0[5] = { 1, 2, 3, 4, 5 }, s1[4] = { 0, 1, 0, 1 }, s2[3] = { 2, 2, 2 };
    const double *a[3] = { s0, s1, s2 };
    size_t len[3] = { 5, 4, 3 };
    double out[9];
    wm_dtw_opts_t o = wm_dtw_opts_default();
    o.mode = WM_DTW_GLOBAL;
#define ARG(label, call, want, msg)                                                                \
    do {                                                                                           \
        snprintf(what, sizeof what, "%s: %s", cf->name, label);                                    \
        int rc_ = (call);                                                                          \
        check_status(what, rc_, want, cx);                                                         \
        if ((msg) != NULL && rc_ != WM_OK) {                                                       \
            snprintf(what, sizeof what, "%s: %s: message '%s' names '%s'", cf->name, label,        \
                     wm_context_errmsg(cx), (const char *)(msg));                                  \
            check_true(what, strstr(wm_context_errmsg(cx), (msg) ? (msg) : "") != NULL);           \
        }                                                                                          \
    } while (0)
    ARG("all fine", wm_dtw_matrix(cx, a, len, 3, NULL, NULL, 0, &o, out), WM_OK, NULL);
    ARG("opts NULL (global defaults)", wm_dtw_matrix(cx, a, len, 3, NULL, NULL, 0, NULL, out),
        WM_OK, NULL);
    CHECK_RC(wm_dtw_matrix(NULL, a, len, 3, NULL, NULL, 0, &o, out), WM_INVALID);
    ARG("a NULL", wm_dtw_matrix(cx, NULL, len, 3, NULL, NULL, 0, &o, out), WM_INVALID, "NULL");
    ARG("lengths NULL", wm_dtw_matrix(cx, a, NULL, 3, NULL, NULL, 0, &o, out), WM_INVALID, "NULL");
    ARG("out NULL", wm_dtw_matrix(cx, a, len, 3, NULL, NULL, 0, &o, NULL), WM_INVALID, "NULL");
    ARG("b lengths NULL", wm_dtw_matrix(cx, a, len, 3, a, NULL, 2, &o, out), WM_INVALID, "NULL");
    size_t empty[3] = { 5, 4, 0 };
    ARG("empty a[2]", wm_dtw_matrix(cx, a, empty, 3, NULL, NULL, 0, &o, out), WM_PATTERN_EMPTY,
        "a[2] is empty");
    ARG("empty b[2]", wm_dtw_matrix(cx, a, len, 3, a, empty, 3, &o, out), WM_PATTERN_EMPTY,
        "b[2] is empty");
    double nan4[4] = { 0, 1, 2, NAN }, inf4[4] = { 0, -INFINITY, 2, 3 };
    const double *bn[2] = { s0, nan4 }, *bi[2] = { inf4, s0 };
    size_t blen[2] = { 5, 4 }, ilen[2] = { 4, 5 };
    ARG("NaN in b[1]", wm_dtw_matrix(cx, a, len, 3, bn, blen, 2, &o, out), WM_INVALID,
        "b[1]: sample 3 is NaN");
    ARG("-inf in a[0]", wm_dtw_matrix(cx, bi, ilen, 2, NULL, NULL, 0, &o, out), WM_INVALID,
        "a[0]: sample 1 is infinite");
    const double *withnull[3] = { s0, NULL, s2 };
    ARG("a[1] NULL", wm_dtw_matrix(cx, withnull, len, 3, NULL, NULL, 0, &o, out), WM_INVALID,
        "a[1] is NULL");
    wm_dtw_opts_t bad = o;
    bad.mode = WM_DTW_SUBSEQUENCE;
    ARG("subsequence mode", wm_dtw_matrix(cx, a, len, 3, NULL, NULL, 0, &bad, out), WM_INVALID,
        "global");
    bad.mode = WM_DTW_UCR;
    ARG("ucr mode", wm_dtw_matrix(cx, a, len, 3, NULL, NULL, 0, &bad, out), WM_INVALID, "global");
    bad = o;
    bad.path = 1;
    ARG("paths", wm_dtw_matrix(cx, a, len, 3, NULL, NULL, 0, &bad, out), WM_INVALID, "paths");
    bad = o;
    bad.window = -2;
    ARG("window -2", wm_dtw_matrix(cx, a, len, 3, NULL, NULL, 0, &bad, out), WM_INVALID, "window");
    bad = o;
    bad.cost = (wm_dtw_cost_t)7;
    ARG("cost 7", wm_dtw_matrix(cx, a, len, 3, NULL, NULL, 0, &bad, out), WM_INVALID, "cost");
    bad = o;
    bad.precision = (wm_dtw_precision_t)2;
    ARG("precision 2", wm_dtw_matrix(cx, a, len, 3, NULL, NULL, 0, &bad, out), WM_INVALID,
        "precision");
    /* float32: a sample past FLT_MAX cannot be a float; normalised, it can */
    bad = o;
    bad.precision = WM_DTW_F32;
    const double huge[4] = { 1.0, 1e39, 2.0, 3.0 };
    const double *withhuge[3] = { s0, huge, s2 };
    ARG("f32 and 1e39", wm_dtw_matrix(cx, withhuge, len, 3, NULL, NULL, 0, &bad, out), WM_INVALID,
        "a[1]: sample 1 (1e+39) is outside float32's range");
    bad.znorm = 1;
    ARG("f32, znorm and 1e39", wm_dtw_matrix(cx, withhuge, len, 3, NULL, NULL, 0, &bad, out), WM_OK,
        NULL);
    for (int i = 0; i < 9; i++) out[i] = -1;
    ARG("n_a = 0", wm_dtw_matrix(cx, a, len, 0, NULL, NULL, 0, &o, out), WM_OK, NULL);
    ARG("n_b = 0", wm_dtw_matrix(cx, a, len, 3, a, len, 0, &o, out), WM_OK, NULL);
    snprintf(what, sizeof what, "%s: nothing written for an empty matrix", cf->name);
    check_true(what, out[0] == -1 && out[8] == -1);
    /* one known value: |1-0|+|2-1|... of a small pair, by hand: s2 = 2,2,2 and
    ** s1 = 0,1,0,1 (abs): every path pays at least 1 a cell; the diagonal-
    ** then-down path costs 2+1+2+1 = 6 */
    double one;
    const double *p1[1] = { s2 }, *p2[1] = { s1 };
    size_t l1[1] = { 3 }, l2[1] = { 4 };
    ARG("2,2,2 x 0,1,0,1", wm_dtw_matrix(cx, p1, l1, 1, p2, l2, 1, &o, &one), WM_OK, NULL);
    snprintf(what, sizeof what, "%s: DTW(2 2 2, 0 1 0 1) = 6 (got %g)", cf->name, one);
    check_true(what, one == 6.0);
#undef ARG
}

int main(int argc, char **argv) {
    long only = -2;
    long n_cases = test_begin("test_dtw_matrix", argc, argv, 20261126ull, 300, describe, &only);
    static const int zeros[4] = { 0 };
    if (make_context(&g_cf[g_ncf], WM_BACKEND_CPU, 1, 0)) g_ncf++;
    if (make_context(&g_cf[g_ncf], WM_BACKEND_CPU, 3, 0)) g_ncf++;
    if (open_config(&g_cf[g_ncf], "cpu x3 shards", WM_BACKEND_CPU, 1, 0, zeros, 3)) g_ncf++;
    if (cuda_present(NULL)) {
        if (make_context(&g_cf[g_ncf], WM_BACKEND_CUDA, 2, 0)) g_ncf++;
        if (open_config(&g_cf[g_ncf], "cuda {0, 0}", WM_BACKEND_CUDA, 2, 0, zeros, 2)) g_ncf++;
    }
    if (only < -1) {
        for (size_t k = 0; k < g_ncf; k++) test_args(&g_cf[k]);
        part_done("arguments");
        test_symmetry();
        part_done("symmetry");
    }
    run_cases(n_cases, only, 0x6d747278ull, 50, one_case);
    close_configs(g_cf, g_ncf);
    return test_finish();
}
