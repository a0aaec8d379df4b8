/*
** test_api_dtw.c -- the dynamic time warping API, one check at a time (as
** Hyperscan's arg_checks do), on the CPU with one thread and the default
** piece size, with three threads and pieces of 8 samples, and on every CUDA
** context when a GPU is found: wm_dtw_opts_default; WM_PATTERN_EMPTY for
** m = 0; WM_PATTERN_TOO_LONG for m = WM_DTW_MAX_QUERY + 1; WM_INVALID for
** n = 0, a NaN / +Inf / -Inf sample in the query or the series (the message
** names the sample's index), a window in subsequence mode, window < -1, ucr
** with L > n (and L = 0 with m > n), max_distance NaN, NULL context / query
** / series / out, unknown mode, cost and precision values, float32 in ucr
** mode, a float32 sample past FLT_MAX (the message names it; accepted with
** znorm); opts NULL (WM_INVALID, or the
** defaults, checked against tests/oracle: either reading is accepted and
** reported); wm_dtw_matches_free(NULL) and of a zeroed result; wm_dtw_many
** with 0 queries, NULL arguments, an empty / NaN / NULL query in the middle
** (the code, nothing left allocated, the message names the query).
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
#include "warpmatch.h"

static const char *const MODE_NAME[3] = { "subsequence", "global", "ucr" };

static double *dup_doubles(const double *v, uint64_t n) {
    double *p = xmalloc((size_t)n * sizeof *p);
    memcpy(p, v, (size_t)n * sizeof *p);
    return p;
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static void test_calls(const config *cf) {
    char what[900];
    wm_context_t *cx = cf->cx;
    double q[20], y[5000];
    for (int i = 0; i < 20; i++) q[i] = sin(i * 0.7);
    for (int j = 0; j < 5000; j++) y[j] = sin(j * 0.05);
    wm_dtw_opts_t d = wm_dtw_opts_default(), o;
    wm_dtw_matches_t r;
#define RC(label, call, want)                                                                      \
    do {                                                                                           \
        memset(&r, 0, sizeof r);                                                                   \
        int rc_ = (call);                                                                          \
        snprintf(what, sizeof what, "%s: %s", cf->name, label);                                    \
        check_status(what, rc_, want, cx);                                                         \
        if (rc_ == WM_OK) wm_dtw_matches_free(&r);                                                 \
    } while (0)

    RC("m = 0", wm_dtw(cx, q, 0, y, 100, &d, &r), WM_PATTERN_EMPTY);
    RC("m = 0, query NULL", wm_dtw(cx, NULL, 0, y, 100, &d, &r), WM_PATTERN_EMPTY);
    RC("n = 0", wm_dtw(cx, q, 20, y, 0, &d, &r), WM_INVALID);
    RC("n = 0, series NULL", wm_dtw(cx, q, 20, NULL, 0, &d, &r), WM_INVALID);
    RC("NULL context", wm_dtw(NULL, q, 20, y, 100, &d, &r), WM_INVALID);
    RC("NULL query", wm_dtw(cx, NULL, 20, y, 100, &d, &r), WM_INVALID);
    RC("NULL series", wm_dtw(cx, q, 20, NULL, 100, &d, &r), WM_INVALID);
    RC("NULL out", wm_dtw(cx, q, 20, y, 100, &d, NULL), WM_INVALID);
    for (int mode = 0; mode < 3; mode++) {
        o = d;
        o.mode = (wm_dtw_mode_t)mode;
        /* a bad sample: the message names its index */
        struct {
            int in_query;
            uint64_t at;
            double v;
        } bad[] = {
            { 1, 7, NAN },       { 1, 0, INFINITY },    { 1, 19, -INFINITY }, { 0, 1234, NAN },
            { 0, 0, -INFINITY }, { 0, 4999, INFINITY }, { 0, 77, -NAN },
        };
        for (size_t b = 0; b < N_OF(bad); b++) {
            double *qq = dup_doubles(q, 20), *yy = dup_doubles(y, 5000);
            if (bad[b].in_query) qq[bad[b].at] = bad[b].v;
            else yy[bad[b].at] = bad[b].v;
            char lab[200];
            snprintf(lab, sizeof lab, "%s, %g at %s sample %" PRIu64, MODE_NAME[mode], bad[b].v,
                     bad[b].in_query ? "query" : "series", bad[b].at);
            RC(lab, wm_dtw(cx, qq, 20, yy, 5000, &o, &r), WM_INVALID);
            const char *msg = wm_context_errmsg(cx);
            snprintf(what, sizeof what, "%s: %s: the message names sample %" PRIu64 " (\"%.150s\")",
                     cf->name, lab, bad[b].at, msg ? msg : "(NULL)");
            check_true(what, msg && names_number(msg, bad[b].at));
            free(qq);
            free(yy);
        }
        o.max_distance = NAN;
        RC("max_distance NaN", wm_dtw(cx, q, 20, y, 100, &o, &r), WM_INVALID);
        o.max_distance = -1; /* valid: nothing within */
        RC("max_distance -1", wm_dtw(cx, q, 20, y, 100, &o, &r), WM_OK);
        snprintf(what, sizeof what, "%s: %s, max_distance -1: no match", cf->name, MODE_NAME[mode]);
        memset(&r, 0, sizeof r);
        int rc = wm_dtw(cx, q, 20, y, 100, &o, &r);
        check_true(what, rc == WM_OK && r.n == 0);
        if (rc == WM_OK) wm_dtw_matches_free(&r);
        o.max_distance = INFINITY;
        o.window = -2;
        RC(mode == 0   ? "window -2 (subsequence)"
           : mode == 1 ? "window -2 (global)"
                       : "window -2 (ucr)",
           wm_dtw(cx, q, 20, y, 100, &o, &r), WM_INVALID);
        o.window = INT64_MIN;
        RC("window INT64_MIN", wm_dtw(cx, q, 20, y, 100, &o, &r), WM_INVALID);
        o.window = -1;
        o.cost = (wm_dtw_cost_t)2;
        RC("cost 2", wm_dtw(cx, q, 20, y, 100, &o, &r), WM_INVALID);
        o.cost = (wm_dtw_cost_t)-1;
        RC("cost -1", wm_dtw(cx, q, 20, y, 100, &o, &r), WM_INVALID);
    }
    o = d;
    o.window = 0;
    RC("window 0 in subsequence mode", wm_dtw(cx, q, 20, y, 100, &o, &r), WM_INVALID);
    o.window = 5;
    RC("window 5 in subsequence mode", wm_dtw(cx, q, 20, y, 100, &o, &r), WM_INVALID);
    o = d;
    o.mode = (wm_dtw_mode_t)3;
    RC("mode 3", wm_dtw(cx, q, 20, y, 100, &o, &r), WM_INVALID);
    o.mode = (wm_dtw_mode_t)-1;
    RC("mode -1", wm_dtw(cx, q, 20, y, 100, &o, &r), WM_INVALID);
    o = d;
    o.mode = WM_DTW_UCR;
    o.length = 101;
    RC("ucr, L = 101 > n = 100", wm_dtw(cx, q, 20, y, 100, &o, &r), WM_INVALID);
    o.length = 100;
    RC("ucr, L = n = 100", wm_dtw(cx, q, 20, y, 100, &o, &r), WM_OK);
    o.length = 0;
    RC("ucr, L = 0 -> m = 20 > n = 19", wm_dtw(cx, q, 20, y, 19, &o, &r), WM_INVALID);
    RC("ucr, L = 0 -> m = 20 = n", wm_dtw(cx, q, 20, y, 20, &o, &r), WM_OK);
    o = d;
    o.mode = WM_DTW_GLOBAL;
    o.window = 0;
    RC("global, window 0, m != n", wm_dtw(cx, q, 20, y, 50, &o, &r), WM_OK);
    /* precision: unknown values; float32 in ucr; samples past FLT_MAX */
    o = d;
    o.precision = (wm_dtw_precision_t)2;
    RC("precision 2", wm_dtw(cx, q, 20, y, 100, &o, &r), WM_INVALID);
    o.precision = (wm_dtw_precision_t)-1;
    RC("precision -1", wm_dtw(cx, q, 20, y, 100, &o, &r), WM_INVALID);
    o.precision = WM_DTW_F32;
    o.mode = WM_DTW_UCR;
    RC("ucr in float32", wm_dtw(cx, q, 20, y, 100, &o, &r), WM_INVALID);
    o.mode = WM_DTW_SUBSEQUENCE;
    RC("float32 subsequence", wm_dtw(cx, q, 20, y, 100, &o, &r), WM_OK);
    for (int side = 0; side < 2; side++) {
        double *qq = dup_doubles(q, 20), *yy = dup_doubles(y, 100);
        if (side) yy[42] = -4e38; /* finite, past -FLT_MAX */
        else qq[7] = 3.5e38;
        o.znorm = 0;
        char lab[120];
        snprintf(lab, sizeof lab, "float32, %s sample %d past FLT_MAX", side ? "series" : "query",
                 side ? 42 : 7);
        RC(lab, wm_dtw(cx, qq, 20, yy, 100, &o, &r), WM_INVALID);
        const char *msg = wm_context_errmsg(cx);
        snprintf(what, sizeof what, "%s: %s: the message names it (\"%.150s\")", cf->name, lab,
                 msg ? msg : "(NULL)");
        check_true(what, msg && names_number(msg, side ? 42 : 7) && strstr(msg, "float32"));
        o.znorm = 1; /* normalised, it is a float */
        snprintf(lab, sizeof lab, "float32, znorm, %s sample past FLT_MAX",
                 side ? "series" : "query");
        RC(lab, wm_dtw(cx, qq, 20, yy, 100, &o, &r), WM_OK);
        free(qq);
        free(yy);
    }
    {
        size_t big = (size_t)WM_DTW_MAX_QUERY + 1;
        double *zq = xcalloc(big, sizeof *zq);
        RC("m = WM_DTW_MAX_QUERY + 1", wm_dtw(cx, zq, big, y, 5000, &d, &r), WM_PATTERN_TOO_LONG);
        free(zq);
    }
    /* opts NULL: WM_INVALID ("NULL arguments") or the defaults */
    {
        memset(&r, 0, sizeof r);
        int rc = wm_dtw(cx, q, 20, y, 300, NULL, &r);
        wm_dtw_matches_t want;
        doracle_dtw(q, 20, y, 300, &d, &want);
        int ok = rc == WM_INVALID ||
                 (rc == WM_OK && r.n == want.n && r.n == 1 && r.a[0].start == want.a[0].start &&
                  r.a[0].end == want.a[0].end && same_bits(r.a[0].distance, want.a[0].distance));
        snprintf(what, sizeof what, "%s: opts NULL: WM_INVALID or the defaults (got %d)", cf->name,
                 rc);
        check_true(what, ok);
        static int said;
        if (!said++)
            printf("api: opts NULL gives %s\n", rc == WM_INVALID ? "WM_INVALID"
                                                : rc == WM_OK    ? "the defaults"
                                                                 : wm_strerror(rc));
        if (rc == WM_OK) wm_dtw_matches_free(&r);
        doracle_matches_free(&want);
    }
    /* free */
    wm_dtw_matches_free(NULL);
    memset(&r, 0, sizeof r);
    wm_dtw_matches_free(&r);
    {
        o = d;
        o.top = 3;
        o.path = 1;
        memset(&r, 0, sizeof r);
        int rc = wm_dtw(cx, q, 20, y, 5000, &o, &r);
        if (rc == WM_OK) wm_dtw_matches_free(&r);
        snprintf(what, sizeof what, "%s: wm_dtw_matches_free zeroes the result", cf->name);
        check_true(what, rc == WM_OK && r.a == NULL && r.n == 0);
    }

    /* wm_dtw_many */
    {
        const double *qs[4];
        size_t lens[4] = { 20, 7, 13, 3 };
        double *qb[4];
        for (int k = 0; k < 4; k++) {
            qb[k] = dup_doubles(q, 20);
            qs[k] = qb[k];
        }
        wm_dtw_matches_t out[4];
        memset(out, 0, sizeof out);
#define MANY_RC(label, call, want)                                                                 \
    do {                                                                                           \
        snprintf(what, sizeof what, "%s: wm_dtw_many, %s", cf->name, label);                       \
        check_status(what, (call), want, cx);                                                      \
    } while (0)
        MANY_RC("0 queries", wm_dtw_many(cx, NULL, NULL, 0, y, 100, &d, out), WM_OK);
        MANY_RC("NULL queries", wm_dtw_many(cx, NULL, lens, 4, y, 100, &d, out), WM_INVALID);
        MANY_RC("NULL lens", wm_dtw_many(cx, qs, NULL, 4, y, 100, &d, out), WM_INVALID);
        MANY_RC("NULL out", wm_dtw_many(cx, qs, lens, 4, y, 100, &d, NULL), WM_INVALID);
        MANY_RC("NULL series", wm_dtw_many(cx, qs, lens, 4, NULL, 100, &d, out), WM_INVALID);
        MANY_RC("n = 0", wm_dtw_many(cx, qs, lens, 4, y, 0, &d, out), WM_INVALID);
        MANY_RC("NULL context", wm_dtw_many(NULL, qs, lens, 4, y, 100, &d, out), WM_INVALID);
#undef MANY_RC
        /* a bad query in the middle */
        struct {
            int which;
            const char *how;
            int want;
        } bad[] = {
            { 2, "NaN at sample 5 of query 2", WM_INVALID },
            { 1, "query 1 empty", WM_PATTERN_EMPTY },
            { 3, "query 3 NULL", WM_INVALID },
            { 2, "+Inf at sample 0 of query 2", WM_INVALID },
        };
        for (size_t b = 0; b < N_OF(bad); b++) {
            size_t l2[4];
            const double *q2[4];
            memcpy(l2, lens, sizeof l2);
            memcpy(q2, qs, sizeof q2);
            double *tmp = dup_doubles(q, 20);
            if (b == 0) {
                tmp[5] = NAN;
                q2[2] = tmp;
            }
            if (b == 1) l2[1] = 0;
            if (b == 2) q2[3] = NULL;
            if (b == 3) {
                tmp[0] = INFINITY;
                q2[2] = tmp;
            }
            wm_dtw_opts_t ob = d;
            ob.path = 1;
            ob.top = 2;
            memset(out, 0, sizeof out);
            int rc = wm_dtw_many(cx, q2, l2, 4, y, 1000, &ob, out);
            const char *msg = wm_context_errmsg(cx);
            int none = 1;
            for (int k = 0; k < 4; k++) none = none && out[k].a == NULL && out[k].n == 0;
            snprintf(what, sizeof what,
                     "%s: wm_dtw_many, %s: %s (got %d), nothing left in out "
                     "(%d), the message names query %d (\"%.150s\")",
                     cf->name, bad[b].how, wm_strerror(bad[b].want), rc, none, bad[b].which,
                     msg ? msg : "(NULL)");
            check_true(what, rc == bad[b].want && none && msg &&
                                 names_number(msg, (uint64_t)bad[b].which));
            if (rc == WM_OK)
                for (int k = 0; k < 4; k++) wm_dtw_matches_free(&out[k]);
            free(tmp);
        }
        for (int k = 0; k < 4; k++) free(qb[k]);
    }
#undef RC
}

static void test_defaults(void) {
    wm_dtw_opts_t d = wm_dtw_opts_default();
    char what[300];
    snprintf(what, sizeof what,
             "wm_dtw_opts_default: subsequence, abs, window -1, znorm 0, top 1,"
             " max_distance +inf, length 0, path 0 (got mode %d cost %d window %" PRId64 " znorm %d"
             " top %" PRIu64 " max_distance %g length %" PRIu64 " path %d)",
             (int)d.mode, (int)d.cost, d.window, d.znorm, d.top, d.max_distance, d.length, d.path);
    check_true(what, d.mode == WM_DTW_SUBSEQUENCE && d.cost == WM_DTW_ABS && d.window == -1 &&
                         d.znorm == 0 && d.top == 1 && d.max_distance == INFINITY &&
                         d.length == 0 && d.path == 0);
}

int main(void) {
    printf("test_api_dtw: warpmatch %s\n", wm_version());
    test_defaults();
    config cfgs[5];
    size_t n = 0;
    if (make_context(&cfgs[n], WM_BACKEND_CPU, 1, 0)) n++;
    if (make_context(&cfgs[n], WM_BACKEND_CPU, 3, 8)) n++;
    if (cuda_present(NULL)) {
        if (make_context(&cfgs[n], WM_BACKEND_CUDA, 1, 0)) n++;
        if (make_context(&cfgs[n], WM_BACKEND_CUDA, 1, 8 * 33)) n++;
        if (make_context(&cfgs[n], WM_BACKEND_CUDA, 1, 8)) n++;
    }
    for (size_t i = 0; i < n; i++) test_calls(&cfgs[i]);
    close_configs(cfgs, n);
    return test_finish();
}
