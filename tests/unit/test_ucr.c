/*
** test_ucr.c -- ucr mode's search (src/dtw/ucr*.c: wm_dtw_ucr_cpu and its
** pieces) against a brute force written here: every window z-normalised on
** its own, the full banded DP over every cell, nothing pruned.
**
** 1. Window statistics: ucr_stats and ucr_stats8 give the mean and sd of
**    wm_dtw_znorm bit for bit (ucr_z of every sample == its output), on
**    random walks, constant and nearly constant windows, huge offsets with
**    tiny noise (where rounding decides everything), spikes. ucr_envelope
**    against a naive max / min.
** 2. Each lower bound (LB_Kim; LB_Keogh EQ; EC with the window's own
**    envelope and with a wider one, as blocks see near their ends) is not
**    above ucr_cut(exact distance) -- the test the search applies before it
**    drops a window -- on random pairs, m = L and m != L (Kim), every band
**    kind, both costs. ucr_dtw: exact bits without a cut; with the
**    cumulative bounds and the cut at the exact distance it is not
**    abandoned; with a lower cut it is either abandoned or exact.
** 3. wm_dtw_ucr_cpu on random cases (random walks, Gaussian noise,
**    plateaus with constant windows, spikes, exact repeats that make ties,
**    integer-valued walks, huge offsets): m = L from 1 to 200 and some
**    L != m, n up to 20,000, bands -1, 0, 1, 5, m / 10, both costs; queries
**    copied from the series (with and without noise) or drawn apart. Each
**    case runs on 1 and 3 threads:
**      - top 1: the best window (smallest distance, then smallest start)
**        is pushed with its exact bits; every pushed window is exact;
**      - top 1 with max_distance: the same when the best is within it;
**      - top 0 (and 3) with max_distance at a quantile of the brute force
**        distances (so some windows tie it exactly), sometimes one ulp
**        below, sometimes +inf: the pushed set is exactly the windows
**        within it, each exact, and 1 and 3 threads push the same list;
**    the brute force is itself checked against tests/oracle's
**    doracle_candidates on the smaller cases. On the structured signals the
**    bounds must actually prune (a bound that is always 0 is correct and
**    useless; this catches it).
**
** Timing at WM_TEST_SCALE = 1 on 2 cores: see the last line it prints
** (Release about 6.5 s on idle cores, 11 s beside other builds; ASan +
** UBSan about 22 s).
**
** Usage: test_ucr [seed]        (or env WM_SEED; default fixed)
** Env:   WM_TEST_SCALE  multiplies the random cases
**        WM_CASE        run only this search case (its inputs depend only
**                       on the seed and its number)
**        WM_VERBOSE     print every case
** Exit status 0 when every check passed; the last line is "N passed, N failed".
*/
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doracle.h"
#include "dtw/dtw.h"
#include "dtw/ucr.h"
#include "warpmatch.h"

#include "contexts.h"
#include "harness.h"
#include "rng.h"

/* ==== the brute force ======================================================= */

/* Every cell of every window; the z-normalisation and the band are
** tests/oracle's (doracle_znorm, doracle_in_band), not the library's. */

static double bf_cost(wm_dtw_cost_t c, double x, double y) {
    double d = x - y;
    return c == WM_DTW_SQUARED ? d * d : fabs(d);
}

/* The banded DTW, every cell visited; rows: two of L + 1 from the caller. */
static double bf_dtw(const double *q, size_t m, const double *z, size_t L, int64_t r,
                     wm_dtw_cost_t c, double *rows) {
    double *prev = rows, *cur = rows + L + 1;
    prev[0] = 0.0;
    for (size_t j = 1; j <= L; j++) prev[j] = INFINITY;
    for (size_t i = 1; i <= m; i++) {
        cur[0] = INFINITY;
        for (size_t j = 1; j <= L; j++) {
            if (!doracle_in_band(r, m, L, i - 1, j - 1)) {
                cur[j] = INFINITY;
                continue;
            }
            double b = prev[j - 1];
            if (prev[j] < b) b = prev[j];
            if (cur[j - 1] < b) b = cur[j - 1];
            cur[j] = b + bf_cost(c, q[i - 1], z[j - 1]);
        }
        double *t = prev;
        prev = cur;
        cur = t;
    }
    return prev[L];
}

/* dist[s] for every window s of y (n - L + 1 of them). */
static void bf_all(const double *qz, size_t m, const double *y, size_t n, size_t L, int64_t r,
                   wm_dtw_cost_t c, double *dist) {
    double *z = xmalloc(L * sizeof *z), *rows = xmalloc(2 * (L + 1) * sizeof *rows);
    for (size_t s = 0; s + L <= n; s++) {
        doracle_znorm(y + s, L, z);
        dist[s] = bf_dtw(qz, m, z, L, r, c, rows);
    }
    free(z);
    free(rows);
}

/* ==== signals ================================================================ */

/* Box-Muller with its own guard against log(0) (u + 2^-60, not rng.c's
** clamp): the signals of this test's cases are made of these bits. */
static double normal(void) {
    double u = unif(), v = unif();
    return sqrt(-2.0 * log(u + 0x1p-60)) * cos(6.283185307179586 * v);
}

enum { SIG_WALK, SIG_NOISE, SIG_PLATEAU, SIG_SPIKES, SIG_REPEAT, SIG_INTWALK, SIG_OFFSET, SIG_N };
static const char *const sig_name[SIG_N] = { "walk",   "noise",   "plateau", "spikes",
                                             "repeat", "intwalk", "offset" };

static void make_signal(int kind, double *x, size_t n) {
    double v = 0.0, level = normal();
    size_t period = (size_t)range(1, 60), left = 0;
    double *base = xmalloc(period * sizeof *base);
    for (size_t i = 0; i < period; i++) base[i] = chance(30) ? (double)below(4) : normal();
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case SIG_WALK:
            v += normal();
            x[i] = v;
            break;
        case SIG_NOISE: x[i] = normal(); break;
        case SIG_PLATEAU:
            if (left == 0) {
                left = (size_t)range(1, 80);
                level = chance(20) ? level : (double)below(5) + (chance(50) ? 0.1 : 0.0);
            }
            left--;
            x[i] = level;
            break;
        case SIG_SPIKES:
            x[i] = chance(3) ? 50.0 * normal() : (chance(50) ? 0.0 : 0.001 * normal());
            break;
        case SIG_REPEAT: x[i] = base[i % period]; break;
        case SIG_INTWALK:
            v += (double)((int)below(3) - 1);
            x[i] = v;
            break;
        default: x[i] = 1e6 + 1e-7 * normal(); break;
        }
    }
    free(base);
}

/* ==== 1. statistics and envelopes ============================================ */

static void test_stats(double scale) {
    long cases = (long)(400 * scale);
    double *x = xmalloc(600 * sizeof *x), *zn = xmalloc(600 * sizeof *zn);
    for (long c = 0; c < cases; c++) {
        int kind = (int)below(SIG_N);
        size_t L = (size_t)(chance(30) ? range(1, 8) : range(1, 300));
        size_t n = L + UCR_LANES;
        make_signal(kind, x, n);
        double mean8[UCR_LANES], sd8[UCR_LANES];
        ucr_stats8(x, L, mean8, sd8);
        for (size_t k = 0; k < UCR_LANES; k++) {
            double mean, sd;
            ucr_stats(x + k, L, &mean, &sd);
            CHECK(mean == mean8[k] && sd == sd8[k], "stats8 lane %zu, %s L %zu", k, sig_name[kind],
                  L);
            wm_dtw_znorm(x + k, L, zn);
            size_t bad = 0;
            for (size_t j = 0; j < L; j++)
                bad += memcmp(&zn[j], &(double){ ucr_z(x[k + j], mean, sd) }, sizeof(double)) != 0;
            CHECK(bad == 0, "ucr_z differs from wm_dtw_znorm at %zu of %zu samples (%s)", bad, L,
                  sig_name[kind]);
            double z0;
            doracle_znorm(x + k, 1, &z0); /* one sample: sd 0, a zero */
            CHECK(z0 == 0.0, "one sample normalises to %g", z0);
        }
    }
    /* The library's znorm is the contract's (the brute force uses the oracle's). */
    for (long c = 0; c < cases; c++) {
        size_t L = (size_t)range(1, 300);
        make_signal((int)below(SIG_N), x, L);
        double *a = xmalloc(L * sizeof *a);
        doracle_znorm(x, L, a);
        wm_dtw_znorm(x, L, zn);
        CHECK(memcmp(a, zn, L * sizeof *a) == 0, "wm_dtw_znorm differs from the contract, L %zu",
              L);
        free(a);
    }
    /* Envelopes. */
    size_t *dq = xmalloc(2 * 600 * sizeof *dq);
    double *up = xmalloc(600 * sizeof *up), *lo = xmalloc(600 * sizeof *lo);
    for (long c = 0; c < cases; c++) {
        size_t n = (size_t)range(1, 500), r = (size_t)(chance(10) ? range(0, 1000) : range(0, 20));
        make_signal((int)below(SIG_N), x, n);
        ucr_envelope(x, n, r, up, lo, dq, dq + n);
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) {
            double hi = -INFINITY, lw = INFINITY;
            for (size_t j = i > r ? i - r : 0; j < n && j <= i + r; j++) {
                hi = x[j] > hi ? x[j] : hi;
                lw = x[j] < lw ? x[j] : lw;
            }
            bad += up[i] != hi || lo[i] != lw;
        }
        CHECK(bad == 0, "envelope n %zu r %zu: %zu wrong", n, r, bad);
    }
    free(dq);
    free(up);
    free(lo);
    free(x);
    free(zn);
}

/* ==== 2. the bounds and the abandoned DTW ==================================== */

static int64_t pick_band(size_t m) {
    switch (below(6)) {
    case 0: return -1;
    case 1: return 0;
    case 2: return 1;
    case 3: return 5;
    case 4: return (int64_t)(m / 10);
    default: return (int64_t)below(m + 3);
    }
}

static struct {
    long pairs, raw_above[4]; /* bounds above the exact value before the cut's slack */
    double worst_ratio;       /* largest bound / distance seen */
} g_lb;

static void check_bound(int which, double lb, double d, double slack, const char *what, size_t m,
                        size_t L, int64_t r, int cost) {
    CHECK(!(lb > ucr_cut(d, slack)),
          "%s %.17g above the distance %.17g (m %zu L %zu r %" PRId64 " cost %d)", what, lb, d, m,
          L, r, cost);
    if (lb > d) g_lb.raw_above[which]++;
    if (d > 0 && lb / d > g_lb.worst_ratio) g_lb.worst_ratio = lb / d;
}

static void test_bounds(double scale) {
    long cases = (long)(4000 * scale);
    for (long c = 0; c < cases; c++) {
        size_t m = (size_t)(chance(20) ? range(1, 8) : range(1, 120));
        size_t L = chance(70) ? m : (size_t)range(1, 2 * m + 4);
        size_t pad = (size_t)range(0, 30); /* context for a wider envelope */
        size_t n = L + 2 * pad;
        int64_t r = pick_band(m);
        wm_dtw_opts_t o = wm_dtw_opts_default();
        o.mode = WM_DTW_UCR;
        o.cost = chance(50) ? WM_DTW_SQUARED : WM_DTW_ABS;
        o.window = r;
        o.length = L;
        double *q = xmalloc(m * sizeof *q), *qz = xmalloc(m * sizeof *qz);
        double *y = xmalloc(n * sizeof *y), *z = xmalloc(L * sizeof *z);
        int kind = (int)below(SIG_N);
        make_signal(kind, y, n);
        if (chance(40) && m <= L) { /* the query close to the window: tight bounds */
            for (size_t i = 0; i < m; i++) q[i] = y[pad + i] + (chance(50) ? 0.0 : 0.05 * normal());
        } else {
            make_signal((int)below(SIG_N), q, m);
        }
        doracle_znorm(q, m, qz);
        const double *x = y + pad;
        doracle_znorm(x, L, z);
        double *rows = xmalloc(2 * (L + 1) * sizeof *rows);
        double d = bf_dtw(qz, m, z, L, r, o.cost, rows);

        ucr_query_t uq;
        if (ucr_query_init(&uq, qz, m, &o) != 0) {
            printf("out of memory\n");
            exit(2);
        }
        double mean, sd;
        ucr_stats(x, L, &mean, &sd);
        g_lb.pairs++;
        check_bound(0, ucr_lb_kim(&uq, x, mean, sd, INFINITY), d, uq.slack, "LB_Kim", m, L, r,
                    o.cost);
        double *teq = NULL, *tec = NULL, *cbq = NULL, *cbc = NULL;
        if (L == m) {
            teq = xmalloc(m * sizeof *teq);
            tec = xmalloc(m * sizeof *tec);
            cbq = xmalloc((m + 1) * sizeof *cbq);
            cbc = xmalloc((m + 1) * sizeof *cbc);
            double eq = ucr_lb_keogh_eq(&uq, x, mean, sd, INFINITY, teq);
            check_bound(1, eq, d, uq.slack, "LB_Keogh EQ", m, L, r, o.cost);
            size_t rad = r < 0 ? m : (size_t)r;
            double *eu = xmalloc(n * sizeof *eu), *el = xmalloc(n * sizeof *el);
            size_t *dq = xmalloc(2 * n * sizeof *dq);
            ucr_envelope(x, L, rad, eu, el, dq, dq + L); /* the window's own */
            double ec = ucr_lb_keogh_ec(&uq, eu, el, mean, sd, INFINITY, tec);
            check_bound(2, ec, d, uq.slack, "LB_Keogh EC", m, L, r, o.cost);
            ucr_envelope(y, n, rad, eu, el, dq, dq + n); /* wider at the ends */
            double *tw = xmalloc(m * sizeof *tw);
            double ecw = ucr_lb_keogh_ec(&uq, eu + pad, el + pad, mean, sd, INFINITY, tw);
            check_bound(3, ecw, d, uq.slack, "LB_Keogh EC (wide envelope)", m, L, r, o.cost);
            CHECK(!(ecw > ec), "a wider envelope tightened EC: %.17g > %.17g", ecw, ec);
            /* The per-index terms sum (in index order here) to the bound. */
            double s1 = 0, s2 = 0;
            for (size_t i = 0; i < m; i++) {
                s1 += teq[i];
                s2 += tec[i];
            }
            CHECK(!(s1 > ucr_cut(d, uq.slack)) && !(s2 > ucr_cut(d, uq.slack)),
                  "term sums %.17g %.17g above %.17g", s1, s2, d);
            /* Early abandoning returns its partial sum, already above the cut. */
            if (eq > 0) {
                double cut = eq / 2;
                double part = ucr_lb_keogh_eq(&uq, x, mean, sd, cut, teq);
                CHECK(part > cut && part <= eq * (1 + 1e-9),
                      "abandoned EQ %.17g, cut %.17g, whole %.17g", part, cut, eq);
                ucr_lb_keogh_eq(&uq, x, mean, sd, INFINITY, teq);
            }
            for (size_t k = m + 1; k-- > 0;) {
                cbq[k] = k == m ? 0.0 : cbq[k + 1] + teq[k];
                cbc[k] = k == m ? 0.0 : cbc[k + 1] + tec[k];
            }
            free(eu);
            free(el);
            free(dq);
            free(tw);
        }
        double *buf = xmalloc(UCR_DTW_BUF(L) * sizeof *buf);
        double e = ucr_dtw(&uq, z, NULL, NULL, INFINITY, buf);
        CHECK(memcmp(&e, &d, sizeof d) == 0,
              "ucr_dtw %.17g, brute force %.17g (m %zu L %zu r %" PRId64 " cost %d)", e, d, m, L, r,
              o.cost);
        e = ucr_dtw(&uq, z, cbc, cbq, ucr_cut(d, uq.slack), buf);
        CHECK(e == d,
              "ucr_dtw with the cut at its own distance: %.17g, want %.17g (m %zu L %zu r %" PRId64
              ")",
              e, d, m, L, r);
        if (d > 0) {
            double cut = chance(50) ? d / 2 : nextafter(d, 0.0);
            e = ucr_dtw(&uq, z, cbc, cbq, cut, buf);
            CHECK(e == INFINITY || e == d, "ucr_dtw under a low cut: %.17g, want +inf or %.17g", e,
                  d);
        }
        free(buf);
        free(teq);
        free(tec);
        free(cbq);
        free(cbc);
        ucr_query_free(&uq);
        free(rows);
        free(q);
        free(qz);
        free(y);
        free(z);
    }
}

/* ==== 3. the search ========================================================== */

static struct {
    long cases, windows, oracle_checked, ties; /* ties: windows sharing the best distance */
    ucr_counts_t cnt;                          /* top 1, 1 thread, structured signals */
    double bf_s, ucr_s;
} g_cov;

static int cand_by_start(const void *pa, const void *pb) {
    const wm_dtw_cand_t *a = pa, *b = pb;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* Every candidate exact, right end, no start twice. Returns how many. */
static size_t check_exact(const wm_dtw_candvec_t *v, const double *dist, size_t W, size_t L,
                          const char *what, long cs) {
    size_t bad = 0;
    for (size_t k = 0; k < v->n; k++) {
        const wm_dtw_cand_t *c = &v->a[k];
        if (c->start >= W || c->end != c->start + L ||
            memcmp(&c->distance, &dist[c->start], sizeof(double)) != 0)
            bad++;
    }
    CHECK(bad == 0, "case %ld %s: %zu of %zu candidates wrong", cs, what, bad, v->n);
    return bad;
}

static void run(wm_context_t *cx, const double *qz, size_t m, const double *y, size_t n,
                const wm_dtw_opts_t *o, wm_dtw_candvec_t *out, ucr_counts_t *cnt) {
    memset(out, 0, sizeof *out);
    double t0 = now_s();
    wm_status st = ucr_search(cx, qz, m, y, n, o, out, cnt);
    g_cov.ucr_s += now_s() - t0;
    CHECK(st == WM_OK, "ucr_search returned %d", (int)st);
}

/* top == 1: the best window (and only exact ones) within max_distance. */
static void check_top1(wm_context_t *cx1, wm_context_t *cx3, const double *qz, size_t m,
                       const double *y, size_t n, wm_dtw_opts_t o, const double *dist, size_t W,
                       size_t L, long cs, ucr_counts_t *cnt) {
    size_t best = 0;
    for (size_t s = 1; s < W; s++)
        if (dist[s] < dist[best]) best = s;
    o.top = 1;
    wm_dtw_candvec_t v[2];
    run(cx1, qz, m, y, n, &o, &v[0], cnt);
    run(cx3, qz, m, y, n, &o, &v[1], NULL);
    for (int t = 0; t < 2; t++) {
        const char *what = t ? "top 1, 3 threads" : "top 1, 1 thread";
        check_exact(&v[t], dist, W, L, what, cs);
        int found = 0;
        for (size_t k = 0; k < v[t].n; k++) found |= v[t].a[k].start == best;
        /* Above max_distance the best may be left out: select drops it. */
        if (dist[best] <= o.max_distance)
            CHECK(found, "case %ld %s: the best window %zu (%.17g) missing; %zu pushed", cs, what,
                  best, dist[best], v[t].n);
        wm_dtw_candvec_free(&v[t]);
    }
}

/* top != 1: exactly the windows within max_distance, the same on 1 and 3
** threads. */
static void check_all_within(wm_context_t *cx1, wm_context_t *cx3, const double *qz, size_t m,
                             const double *y, size_t n, wm_dtw_opts_t o, const double *dist,
                             size_t W, size_t L, long cs) {
    wm_dtw_candvec_t v[2];
    run(cx1, qz, m, y, n, &o, &v[0], NULL);
    run(cx3, qz, m, y, n, &o, &v[1], NULL);
    size_t want = 0;
    for (size_t s = 0; s < W; s++) want += dist[s] <= o.max_distance;
    CHECK(v[0].n == v[1].n && (v[0].n == 0 || memcmp(v[0].a, v[1].a, v[0].n * sizeof *v[0].a) == 0),
          "case %ld: 1 and 3 threads differ (%zu vs %zu candidates)", cs, v[0].n, v[1].n);
    for (int t = 0; t < 2; t++) {
        if (check_exact(&v[t], dist, W, L, t ? "within, 3 threads" : "within, 1 thread", cs)) {
            wm_dtw_candvec_free(&v[t]);
            continue;
        }
        if (v[t].n) qsort(v[t].a, v[t].n, sizeof *v[t].a, cand_by_start);
        size_t dup = 0, outside = 0;
        for (size_t k = 0; k < v[t].n; k++) {
            dup += k && v[t].a[k].start == v[t].a[k - 1].start;
            outside += !(v[t].a[k].distance <= o.max_distance);
        }
        CHECK(dup == 0 && outside == 0 && v[t].n - outside == want,
              "case %ld top %" PRIu64 " max %.17g: %zu pushed (%zu twice, %zu outside), %zu within",
              cs, o.top, o.max_distance, v[t].n, dup, outside, want);
        wm_dtw_candvec_free(&v[t]);
    }
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void one_case(long cs, wm_context_t *cx1, wm_context_t *cx3) {
    /* Sizes: mostly small (the brute force is every cell of every window),
    ** a few long series with a narrow band. */
    size_t m, L, n;
    uint64_t size_kind = below(1000);
    int kind = (int)below(SIG_N), qkind = (int)below(SIG_N);
    if (size_kind >= 980) { /* exact repeats over several blocks: ties between blocks */
        kind = SIG_REPEAT;
        m = (size_t)range(2, 24);
        n = (size_t)range(2500, 6000);
    } else if (size_kind < 3) {
        m = (size_t)range(64, 128);
        n = (size_t)range(5000, 20000);
    } else if (size_kind < 60) {
        m = (size_t)range(40, 200);
        n = (size_t)range(200, 600);
    } else {
        m = (size_t)(chance(20) ? range(1, 6) : range(1, 48));
        n = (size_t)range(1, 500);
    }
    L = chance(85) ? m : (size_t)range(m > 8 ? m - m / 2 : 1, 2 * m + 3);
    if (size_kind < 3) /* L far from m widens the band by the difference */
        L = chance(85) ? m : (size_t)range(m - m / 8, m + m / 8);
    if (n < L) n = L + (size_t)below(50);
    int64_t r = pick_band(m);
    if (size_kind < 3) r = chance(50) ? 5 : (int64_t)(m / 10);
    wm_dtw_opts_t o = wm_dtw_opts_default();
    o.mode = WM_DTW_UCR;
    o.cost = chance(50) ? WM_DTW_SQUARED : WM_DTW_ABS;
    o.window = r;
    o.length = L == m && chance(50) ? 0 : L;

    double *y = xmalloc(n * sizeof *y), *q = xmalloc(m * sizeof *q), *qz = xmalloc(m * sizeof *qz);
    make_signal(kind, y, n);
    int copied = (chance(50) || size_kind >= 980) && m <= n;
    if (copied) {
        size_t at = (size_t)below(n - m + 1);
        double noise = chance(50) || size_kind >= 980 ? 0.0 : 0.01 * unif();
        for (size_t i = 0; i < m; i++) q[i] = y[at + i] + noise * normal();
    } else {
        make_signal(qkind, q, m);
    }
    wm_dtw_znorm(q, m, qz); /* as the caller (src/dtw/dtw.c) does */

    size_t W = n - L + 1;
    double *dist = xmalloc(W * sizeof *dist);
    double t0 = now_s();
    bf_all(qz, m, y, n, L, r, o.cost, dist);
    g_cov.bf_s += now_s() - t0;
    if (g_verbose)
        printf("case %ld: %s series n %zu, query %s%s m %zu, L %zu, band %" PRId64 ", cost %d\n",
               cs, sig_name[kind], n, copied ? "copied" : sig_name[qkind], "", m, L, r,
               (int)o.cost);

    if (m * n <= 20000) { /* my brute force against the project's oracle */
        doracle_cand_t *oc = NULL;
        size_t no = doracle_candidates(q, m, y, n, &o, &oc);
        size_t bad = no != W;
        for (size_t s = 0; !bad && s < W; s++)
            bad += oc[s].start != s || memcmp(&oc[s].distance, &dist[s], sizeof(double)) != 0;
        CHECK(bad == 0, "case %ld: the brute force differs from doracle (%zu)", cs, bad);
        free(oc);
        g_cov.oracle_checked++;
    }

    ucr_counts_t cnt = { 0 };
    int structured = kind == SIG_WALK && m == L && m >= 16;
    o.max_distance = INFINITY;
    check_top1(cx1, cx3, qz, m, y, n, o, dist, W, L, cs, structured ? &cnt : NULL);
    if (structured) {
        g_cov.cnt.windows += cnt.windows;
        g_cov.cnt.kim += cnt.kim;
        g_cov.cnt.keogh_eq += cnt.keogh_eq;
        g_cov.cnt.keogh_ec += cnt.keogh_ec;
        g_cov.cnt.dtw_abandoned += cnt.dtw_abandoned;
        g_cov.cnt.dtw_full += cnt.dtw_full;
        CHECK(cnt.windows == W &&
                  cnt.kim + cnt.keogh_eq + cnt.keogh_ec + cnt.dtw_abandoned + cnt.dtw_full == W,
              "case %ld: counts add to %" PRIu64 " of %zu", cs,
              cnt.kim + cnt.keogh_eq + cnt.keogh_ec + cnt.dtw_abandoned + cnt.dtw_full, W);
    }

    double *sorted = xmalloc(W * sizeof *sorted);
    memcpy(sorted, dist, W * sizeof *sorted);
    qsort(sorted, W, sizeof *sorted, cmp_double);
    size_t ties = 0;
    for (size_t s = 0; s < W; s++) ties += dist[s] == sorted[0];
    g_cov.ties += ties > 1;

    /* top 1 within a limit: at the best (a tie), one ulp below it, a quantile. */
    double lims[3] = { sorted[0], nextafter(sorted[0], -INFINITY), sorted[W / 3] };
    o.max_distance = lims[below(3)];
    if (o.max_distance >= 0) check_top1(cx1, cx3, qz, m, y, n, o, dist, W, L, cs, NULL);

    /* Everything within max_distance: a quantile (ties included), or one ulp
    ** below it; now and then +inf (every window) or top 3. */
    static const double quant[] = { 0.0, 0.01, 0.1, 0.3 };
    double lim = sorted[(size_t)(quant[below(4)] * (double)(W - 1))];
    o.max_distance = chance(25) ? nextafter(lim, -INFINITY) : lim;
    if (o.max_distance < 0) o.max_distance = lim;
    o.top = chance(20) ? 3 : 0;
    if (W * m * L <= 2000000 && chance(15)) o.max_distance = INFINITY;
    check_all_within(cx1, cx3, qz, m, y, n, o, dist, W, L, cs);

    if (g_verbose)
        printf("case %ld: brute force %.3f s, ucr %.3f s so far\n", cs, g_cov.bf_s, g_cov.ucr_s);
    g_cov.cases++;
    g_cov.windows += (long)W;
    free(sorted);
    free(dist);
    free(y);
    free(q);
    free(qz);
}

static void test_search(double scale, long only) {
    wm_context_t *cx1 = cpu_context(1, 0), *cx3 = cpu_context(3, 0);
    long cases = (long)(2000 * scale);
    for (long cs = 0; cs < cases; cs++) {
        if (only >= 0 && cs != only) continue;
        uint64_t st = g_seed ^ ((uint64_t)cs * 0xD1B54A32D192ED03ull);
        g_rng = splitmix64(&st);
        one_case(cs, cx1, cx3);
    }
    wm_context_free(cx1);
    wm_context_free(cx3);
    if (only < 0 && g_cov.cnt.windows > 0) {
        /* On random walks with m = L >= 16 the cascade must drop most
        ** windows before their DTW. */
        uint64_t pruned = g_cov.cnt.kim + g_cov.cnt.keogh_eq + g_cov.cnt.keogh_ec;
        CHECK(pruned * 2 > g_cov.cnt.windows,
              "the bounds dropped only %" PRIu64 " of %" PRIu64 " windows", pruned,
              g_cov.cnt.windows);
        CHECK(g_cov.cnt.kim > 0 && g_cov.cnt.keogh_eq > 0 && g_cov.cnt.keogh_ec > 0 &&
                  g_cov.cnt.dtw_abandoned > 0,
              "a stage never pruned: kim %" PRIu64 " eq %" PRIu64 " ec %" PRIu64
              " abandoned %" PRIu64,
              g_cov.cnt.kim, g_cov.cnt.keogh_eq, g_cov.cnt.keogh_ec, g_cov.cnt.dtw_abandoned);
    }
}

int main(int argc, char **argv) {
    long only = -1;
    test_begin("test_ucr", argc, argv, 20250601ull, 2000, NULL, &only);
    double scale = g_scale, t0 = g_t_start;
    g_rng = g_seed;
    if (only < 0) {
        test_stats(scale);
        part_done("stats");
        test_bounds(scale);
        printf("bounds: %ld pairs; above the exact value before the slack: kim %ld, eq %ld, "
               "ec %ld, ec wide %ld; largest bound / distance %.6f; %ld passed, %ld failed "
               "(%.1f s)\n",
               g_lb.pairs, g_lb.raw_above[0], g_lb.raw_above[1], g_lb.raw_above[2],
               g_lb.raw_above[3], g_lb.worst_ratio, g_passed, g_failed, now_s() - t0);
    }
    test_search(scale, only);
    uint64_t w = g_cov.cnt.windows ? g_cov.cnt.windows : 1;
    printf("search: %ld cases, %ld windows, %ld checked against doracle, %ld with tied bests; "
           "random walks, top 1, 1 thread: kim %.1f%% eq %.1f%% ec %.1f%% abandoned %.1f%% "
           "full %.1f%% of %" PRIu64 "; brute force %.1f s, ucr %.1f s (%.1f s)\n",
           g_cov.cases, g_cov.windows, g_cov.oracle_checked, g_cov.ties,
           100.0 * (double)g_cov.cnt.kim / (double)w,
           100.0 * (double)g_cov.cnt.keogh_eq / (double)w,
           100.0 * (double)g_cov.cnt.keogh_ec / (double)w,
           100.0 * (double)g_cov.cnt.dtw_abandoned / (double)w,
           100.0 * (double)g_cov.cnt.dtw_full / (double)w, g_cov.cnt.windows, g_cov.bf_s,
           g_cov.ucr_s, now_s() - t0);
    return test_finish();
}
