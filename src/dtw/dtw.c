/*
** dtw.c -- the public dtw calls: checks, normalisation, and each mode's
** path from the engines to a list of matches (see include/warpmatch.h).
** A context over several devices gives each a range of the queries
** (src/core/shard.c), after the checks here.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtw/dtw.h"
#include "dtw/sdtw.h"
#include "dtw/sdtw_cuda.h"
#include "dtw/trace.h"
#include "core/shard.h"

wm_dtw_opts_t wm_dtw_opts_default(void) {
    wm_dtw_opts_t o;
    memset(&o, 0, sizeof o);
    o.mode = WM_DTW_SUBSEQUENCE;
    o.cost = WM_DTW_ABS;
    o.window = -1;
    o.top = 1;
    o.max_distance = INFINITY;
    return o;
}

void wm_dtw_matches_free(wm_dtw_matches_t *r) {
    if (!r) return;
    for (size_t i = 0; i < r->n; i++) free(r->a[i].path);
    free(r->a);
    r->a = NULL;
    r->n = 0;
}

wm_status wm_dtw_check_finite(wm_context_t *cx, const double *v, uint64_t n, const char *who) {
    /* a pass the compiler vectorises (exponent all ones = NaN or inf); the
    ** loop below only runs to name the sample */
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t b;
        memcpy(&b, &v[i], sizeof b);
        bad |= (~b & 0x7ff0000000000000ull) == 0;
    }
    if (!bad) return WM_OK;
    for (uint64_t i = 0; i < n; i++) {
        if (isfinite(v[i])) continue;
        wm_context_set_error(cx, "%s sample %llu is %s", who, (unsigned long long)i,
                             isnan(v[i]) ? "NaN" : "infinite");
        return WM_INVALID;
    }
    return WM_OK;
}

/* The smallest magnitude that rounds to an infinite float: halfway from
** FLT_MAX (2^128 - 2^104) to 2^128, where the tie goes to the even 2^128. */
#define F32_OVERFLOW 0x1.ffffffp127

wm_status wm_dtw_check_f32(wm_context_t *cx, const double *v, uint64_t n, const char *who) {
    int bad = 0;
    for (uint64_t i = 0; i < n; i++) bad |= fabs(v[i]) >= F32_OVERFLOW;
    if (!bad) return WM_OK;
    for (uint64_t i = 0; i < n; i++) {
        if (fabs(v[i]) < F32_OVERFLOW) continue;
        wm_context_set_error(cx,
                             "%s sample %llu (%g) is outside float32's range (--precision f32 "
                             "rounds every sample to a float; use f64, or --znorm)",
                             who, (unsigned long long)i, v[i]);
        return WM_INVALID;
    }
    return WM_OK;
}

wm_status wm_dtw_check_opts(wm_context_t *cx, const wm_dtw_opts_t *o) {
    if (o->mode != WM_DTW_SUBSEQUENCE && o->mode != WM_DTW_GLOBAL && o->mode != WM_DTW_UCR) {
        wm_context_set_error(cx, "unknown dtw mode %d", (int)o->mode);
        return WM_INVALID;
    }
    if (o->cost != WM_DTW_ABS && o->cost != WM_DTW_SQUARED) {
        wm_context_set_error(cx, "unknown dtw cost %d", (int)o->cost);
        return WM_INVALID;
    }
    if (o->window < -1) {
        wm_context_set_error(cx, "the window must be -1 (none) or a radius >= 0, not %lld",
                             (long long)o->window);
        return WM_INVALID;
    }
    if (o->window >= 0 && o->mode == WM_DTW_SUBSEQUENCE) {
        wm_context_set_error(cx, "a window (Sakoe-Chiba band) needs global or ucr mode: a "
                                 "subsequence match has no fixed diagonal to band around");
        return WM_INVALID;
    }
    if (o->precision != WM_DTW_F64 && o->precision != WM_DTW_F32) {
        wm_context_set_error(cx, "unknown dtw precision %d", (int)o->precision);
        return WM_INVALID;
    }
    if (o->precision == WM_DTW_F32 && o->mode == WM_DTW_UCR) {
        wm_context_set_error(cx, "ucr mode runs in float64 only: its lower bounds prune "
                                 "windows against exact float64 sums");
        return WM_INVALID;
    }
    if (isnan(o->max_distance)) {
        wm_context_set_error(cx, "the maximum distance is NaN");
        return WM_INVALID;
    }
    return WM_OK;
}

static wm_status check_query(wm_context_t *cx, const double *q, size_t m, uint64_t n,
                             const wm_dtw_opts_t *o, size_t qi, int many) {
    if (m == 0) {
        if (many) wm_context_set_error(cx, "query %zu is empty", qi);
        else wm_context_set_error(cx, "the query is empty");
        return WM_PATTERN_EMPTY;
    }
    if (m > WM_DTW_MAX_QUERY) {
        wm_context_set_error(cx, "query %zu has %zu samples; at most %u are accepted", qi, m,
                             WM_DTW_MAX_QUERY);
        return WM_PATTERN_TOO_LONG;
    }
    if (!q) {
        wm_context_set_error(cx, "query %zu is NULL", qi);
        return WM_INVALID;
    }
    uint64_t len = o->length ? o->length : m;
    if (o->mode == WM_DTW_UCR && len > n) {
        wm_context_set_error(cx,
                             "ucr mode: the window length %llu is longer than the series "
                             "(%llu samples)",
                             (unsigned long long)len, (unsigned long long)n);
        return WM_INVALID;
    }
    char who[48];
    if (many) snprintf(who, sizeof who, "query %zu:", qi);
    else snprintf(who, sizeof who, "query");
    wm_status st = wm_dtw_check_finite(cx, q, m, who);
    if (st == WM_OK && o->precision == WM_DTW_F32 && !o->znorm)
        st = wm_dtw_check_f32(cx, q, m, who);
    return st;
}

static wm_status push_match(wm_dtw_matches_t *out, size_t *cap, double d, uint64_t s, uint64_t e) {
    if (out->n == *cap) {
        size_t c = *cap ? *cap * 2 : 4;
        wm_dtw_match_t *a = realloc(out->a, c * sizeof *a);
        if (!a) return WM_NOMEM;
        out->a = a;
        *cap = c;
    }
    out->a[out->n++] = (wm_dtw_match_t){ s, e, d, 0, NULL };
    return WM_OK;
}

/* The paths of the chosen matches, each from its own window's DP. */
static wm_status add_paths(wm_context_t *cx, const double *q, size_t m, const double *y,
                           const wm_dtw_opts_t *o, wm_dtw_matches_t *out) {
    double *win = NULL;
    wm_status st = WM_OK;
    const int f32 = o->precision == WM_DTW_F32; /* (ucr is float64 only) */
    for (size_t k = 0; k < out->n && st == WM_OK; k++) {
        wm_dtw_match_t *a = &out->a[k];
        uint64_t len = a->end - a->start;
        if (o->mode == WM_DTW_SUBSEQUENCE) {
            st = wm_dtw_trace(cx, q, m, y + a->start, len, a->start, WM_SDTW_TOP_FRESH, -1, o->cost,
                              f32, &a->path, &a->path_len);
        } else if (o->mode == WM_DTW_GLOBAL) {
            st = wm_dtw_trace(cx, q, m, y, len, 0, WM_SDTW_TOP_GLOBAL, o->window, o->cost, f32,
                              &a->path, &a->path_len);
        } else {
            if (!win && !(win = malloc(len * sizeof *win))) return WM_NOMEM;
            wm_dtw_znorm(y + a->start, len, win);
            st = wm_dtw_trace(cx, q, m, win, len, a->start, WM_SDTW_TOP_GLOBAL, o->window, o->cost,
                              0, &a->path, &a->path_len);
        }
    }
    free(win);
    return st;
}

/* Candidates to matches: select, then copy. */
static wm_status from_cands(wm_dtw_candvec_t *cv, const wm_dtw_opts_t *o, uint64_t n,
                            wm_dtw_matches_t *out) {
    size_t got = 0, cap = 0;
    if (wm_dtw_select(cv->a, cv->n, o->top, o->max_distance, n, &got) < 0) return WM_NOMEM;
    for (size_t k = 0; k < got; k++) {
        wm_status st = push_match(out, &cap, cv->a[k].distance, cv->a[k].start, cv->a[k].end);
        if (st != WM_OK) return st;
    }
    return WM_OK;
}

/* One DP over the series (row: every end's value and start; best: the best
** end; corner: the global distance): on the GPU when the context has one,
** with smaller chunks when it runs out of memory and then on the CPU, else
** on the CPU. */
static wm_status sdtw(wm_context_t *cx, const wm_sdtw_job_t *j, double *rv, uint64_t *rs,
                      wm_sdtw_best_t *best, double *corner) {
    const wm_dtw_gpu_t *gpu = wm_dtw_gpu(cx);
    wm_status st = WM_OK;
    if (gpu) {
        do
            st = rv     ? gpu->row(cx, j, rv, rs)
                 : best ? gpu->best(cx, j, best)
                        : gpu->corner(cx, j, corner);
        while (wm_gpu_retry(cx, &st));
    }
    if (!gpu || wm_gpu_fall_back(cx, st, "dtw")) st = wm_sdtw_cpu(cx, j, rv, rs, best, corner);
    return st;
}

static wm_status run_subsequence(wm_context_t *cx, const double *q, size_t m, const double *y,
                                 uint64_t n, const wm_dtw_opts_t *o, wm_dtw_matches_t *out) {
    wm_sdtw_job_t j = wm_sdtw_job(q, m, y, n, o->cost, WM_SDTW_TOP_FRESH, cx->tuning.simd,
                                  o->precision == WM_DTW_F32);
    wm_status st;
    size_t cap = 0;
    if (o->top == 1) {
        /* the best end alone: the DP of values, then its start from a window */
        wm_sdtw_best_t best;
        st = sdtw(cx, &j, NULL, NULL, &best, NULL);
        if (st != WM_OK) return st;
        if (!(best.v <= o->max_distance) || best.end == UINT64_MAX) return WM_OK;
        uint64_t start;
        if ((st = wm_sdtw_find_start(cx, &j, best.end, best.v, &start)) != WM_OK) return st;
        return push_match(out, &cap, best.v, start, best.end);
    }
    /* several: every end with its start, then the choice */
    j.track = 1;
    double *rv = malloc(n * sizeof *rv);
    uint64_t *rs = malloc(n * sizeof *rs);
    wm_dtw_candvec_t cv = { 0 };
    if (!rv || !rs) {
        st = WM_NOMEM;
        goto done;
    }
    st = sdtw(cx, &j, rv, rs, NULL, NULL);
    if (st != WM_OK) goto done;
    for (uint64_t e = 0; e < n; e++)
        if (rv[e] <= o->max_distance && wm_dtw_candvec_push(&cv, rv[e], rs[e], e + 1) < 0) {
            st = WM_NOMEM;
            goto done;
        }
    free(rv);
    free(rs);
    rv = NULL;
    rs = NULL;
    st = from_cands(&cv, o, n, out);
done:
    free(rv);
    free(rs);
    wm_dtw_candvec_free(&cv);
    return st;
}

static wm_status run_global(wm_context_t *cx, const double *q, size_t m, const double *y,
                            uint64_t n, const wm_dtw_opts_t *o, wm_dtw_matches_t *out) {
    double d;
    size_t cap = 0;
    if (o->window < 0) {
        wm_sdtw_job_t j = wm_sdtw_job(q, m, y, n, o->cost, WM_SDTW_TOP_GLOBAL, cx->tuning.simd,
                                      o->precision == WM_DTW_F32);
        wm_status st = sdtw(cx, &j, NULL, NULL, NULL, &d);
        if (st != WM_OK) return st;
    } else {
        double *col = malloc(m * sizeof *col);
        if (!col) return WM_NOMEM;
        d = wm_dtw_global_banded(q, m, y, n, o->window, o->cost, o->precision == WM_DTW_F32, col);
        free(col);
    }
    if (!(d <= o->max_distance)) return WM_OK;
    return push_match(out, &cap, d, 0, n);
}

/* ucr: the best window on the GPU when one is asked for (top 1; the cascade
** of the others needs every window within a distance: the CPU's), else the
** CPU's cascade. */
static wm_status run_ucr(wm_context_t *cx, const double *qz, size_t m, const double *y, uint64_t n,
                         const wm_dtw_opts_t *o, wm_dtw_matches_t *out) {
    wm_dtw_candvec_t cv = { 0 };
    const wm_dtw_gpu_t *gpu = wm_dtw_gpu(cx);
    uint64_t len = o->length ? o->length : m;
    wm_status st = WM_OK;
    if (gpu && o->top == 1 && len <= n && n - len + 1 <= UINT32_MAX) {
        double d;
        uint64_t s;
        do st = gpu->ucr_best(cx, qz, m, y, n, o, &d, &s);
        while (wm_gpu_retry(cx, &st));
        if (!wm_gpu_fall_back(cx, st, "dtw ucr")) {
            if (st == WM_OK && s != UINT64_MAX && wm_dtw_candvec_push(&cv, d, s, s + len) < 0)
                st = WM_NOMEM;
            if (st == WM_OK) st = from_cands(&cv, o, n, out);
            wm_dtw_candvec_free(&cv);
            return st;
        }
    }
    st = wm_dtw_ucr_cpu(cx, qz, m, y, n, o, &cv);
    if (st == WM_OK) st = from_cands(&cv, o, n, out);
    wm_dtw_candvec_free(&cv);
    return st;
}

/* One query, already checked; y is the series as matched (normalised when
** asked). */
static wm_status run_one(wm_context_t *cx, const double *q, size_t m, const double *y, uint64_t n,
                         const wm_dtw_opts_t *o, wm_dtw_matches_t *out) {
    double *qn = NULL;
    if (o->znorm || o->mode == WM_DTW_UCR) {
        if (!(qn = malloc(m * sizeof *qn))) return WM_NOMEM;
        wm_dtw_znorm(q, m, qn);
        q = qn;
    }
    wm_status st;
    switch (o->mode) {
    case WM_DTW_SUBSEQUENCE: st = run_subsequence(cx, q, m, y, n, o, out); break;
    case WM_DTW_GLOBAL: st = run_global(cx, q, m, y, n, o, out); break;
    default: st = run_ucr(cx, q, m, y, n, o, out); break;
    }
    if (st == WM_OK && o->path) st = add_paths(cx, q, m, y, o, out);
    free(qn);
    if (st != WM_OK) wm_dtw_matches_free(out);
    return st;
}

/* Subsequence, best match, CUDA: queries of up to 1,024 samples go to the GPU
** in batches of the same lane shape; the others one at a time. Sets done[q]
** for the queries it answered. */
static wm_status run_batches(wm_context_t *cx, const double *const *queries, const size_t *lens,
                             size_t nq, const double *y, uint64_t n, const wm_dtw_opts_t *o,
                             wm_dtw_matches_t *out, char *done) {
    wm_sdtw_job_t *jobs = calloc(nq, sizeof *jobs);
    wm_sdtw_best_t *best = calloc(nq, sizeof *best);
    size_t *idx = calloc(nq, sizeof *idx);
    double **qn = calloc(nq, sizeof *qn);
    wm_status st = jobs && best && idx && qn ? WM_OK : WM_NOMEM;
    for (int r = 1; r <= 32 && st == WM_OK; r *= 2) {
        size_t k = 0;
        for (size_t q = 0; q < nq && st == WM_OK; q++) {
            if (lens[q] > WM_SDTW_CUDA_BATCH_MAX_M || wm_sdtw_cuda_lane_rows(lens[q]) != r)
                continue;
            const double *x = queries[q];
            if (o->znorm) {
                if (!(qn[q] = malloc(lens[q] * sizeof *qn[q]))) {
                    st = WM_NOMEM;
                    break;
                }
                wm_dtw_znorm(x, lens[q], qn[q]);
                x = qn[q];
            }
            jobs[k] = wm_sdtw_job(x, lens[q], y, n, o->cost, WM_SDTW_TOP_FRESH, cx->tuning.simd,
                                  o->precision == WM_DTW_F32);
            idx[k++] = q;
        }
        if (st != WM_OK || k < 2) continue; /* a lone query runs on its own */
        do st = wm_dtw_gpu(cx)->best_many(cx, jobs, k, best);
        while (wm_gpu_retry(cx, &st));
        if (wm_gpu_fall_back(cx, st, "dtw of a batch of queries")) {
            st = WM_OK; /* they run one at a time (run_one: the CPU when the GPU still fails) */
            continue;
        }
        for (size_t b = 0; b < k && st == WM_OK; b++) {
            size_t q = idx[b], cap = 0;
            done[q] = 1;
            if (!(best[b].v <= o->max_distance) || best[b].end == UINT64_MAX) continue;
            uint64_t start;
            if ((st = wm_sdtw_find_start(cx, &jobs[b], best[b].end, best[b].v, &start)) != WM_OK)
                break;
            st = push_match(&out[q], &cap, best[b].v, start, best[b].end);
            if (st == WM_OK && o->path) st = add_paths(cx, jobs[b].x, lens[q], y, o, &out[q]);
        }
    }
    if (qn)
        for (size_t q = 0; q < nq; q++) free(qn[q]);
    free(qn);
    free(jobs);
    free(best);
    free(idx);
    return st;
}

/* One sub-context's range of the queries (core/shard.h's list cut). */
typedef struct {
    const double *const *queries;
    const size_t *lens;
    const double *series;
    uint64_t n;
    const wm_dtw_opts_t *o;
    wm_dtw_matches_t *out;
} queries_shard_t;

static wm_status queries_shard_run(void *job, wm_context_t *sub, size_t lo, size_t hi) {
    queries_shard_t *J = job;
    return wm_dtw_many(sub, J->queries + lo, J->lens + lo, hi - lo, J->series, J->n, J->o,
                       J->out + lo);
}

/* wm_dtw_many; *finite (NULL: none) says which checks the series passed
** before (a target's: SERIES_FINITE, SERIES_F32) and gets those it passes. */
enum { SERIES_FINITE = 1, SERIES_F32 = 2 }; /* a target's checks passed */

static wm_status dtw_many(wm_context_t *cx, const double *const *queries, const size_t *lens,
                          size_t n_queries, const double *series, uint64_t n,
                          const wm_dtw_opts_t *o, wm_dtw_matches_t *out, int *finite) {
    if (!wm_context_ok(cx)) return WM_INVALID;
    wm_cuda_context_bind(cx);
    if (!out || (n_queries && (!queries || !lens))) {
        wm_context_set_error(cx, "wm_dtw: NULL queries, lengths or output");
        return WM_INVALID;
    }
    for (size_t qi = 0; qi < n_queries; qi++) out[qi] = (wm_dtw_matches_t){ NULL, 0 };
    wm_dtw_opts_t d = wm_dtw_opts_default();
    if (!o) o = &d;
    wm_status st = wm_dtw_check_opts(cx, o);
    if (st != WM_OK) return st;
    if (n == 0 || !series) {
        wm_context_set_error(cx, "the series is empty");
        return WM_INVALID;
    }
    int many = n_queries > 1;
    for (size_t qi = 0; qi < n_queries; qi++)
        if ((st = check_query(cx, queries[qi], lens[qi], n, o, qi, many)) != WM_OK) return st;
    int checked = finite ? *finite : 0;
    if (!(checked & SERIES_FINITE)) {
        if ((st = wm_dtw_check_finite(cx, series, n, "series")) != WM_OK) return st;
        checked |= SERIES_FINITE;
    }
    if (o->precision == WM_DTW_F32 && !o->znorm && !(checked & SERIES_F32)) {
        if ((st = wm_dtw_check_f32(cx, series, n, "series")) != WM_OK) return st;
        checked |= SERIES_F32;
    }
    if (finite) *finite = checked;
    if (cx->n_sub > 1) { /* many devices: ranges of queries (core/shard.h) */
        if (n_queries == 0) return WM_OK;
        queries_shard_t J = { queries, lens, series, n, o, out };
        st = wm_shard_list(cx, n_queries, queries_shard_run, &J, "query");
        if (st != WM_OK)
            for (size_t q = 0; q < n_queries; q++) wm_dtw_matches_free(&out[q]);
        return st;
    }

    double *yn = NULL;
    if (o->znorm && o->mode != WM_DTW_UCR) {
        if (!(yn = malloc(n * sizeof *yn))) return WM_NOMEM;
        wm_dtw_znorm(series, n, yn);
        series = yn;
    }
    char *done = calloc(n_queries ? n_queries : 1, 1);
    if (!done) st = WM_NOMEM;
    if (st == WM_OK && wm_dtw_gpu(cx) && o->mode == WM_DTW_SUBSEQUENCE && o->top == 1 &&
        n_queries > 1)
        st = run_batches(cx, queries, lens, n_queries, series, n, o, out, done);
    if (st != WM_OK)
        for (size_t k = 0; k < n_queries; k++) wm_dtw_matches_free(&out[k]);
    for (size_t qi = 0; qi < n_queries && st == WM_OK; qi++) {
        if (done[qi]) continue;
        st = run_one(cx, queries[qi], lens[qi], series, n, o, &out[qi]);
        if (st != WM_OK) {
            for (size_t k = 0; k < n_queries; k++) wm_dtw_matches_free(&out[k]);
            if (many && !wm_context_errmsg(cx)[0])
                wm_context_set_error(cx, "query %zu: %s", qi, wm_strerror(st));
        }
    }
    free(done);
    free(yn);
    return st;
}

wm_status wm_dtw_many(wm_context_t *cx, const double *const *queries, const size_t *lens,
                      size_t n_queries, const double *series, uint64_t n, const wm_dtw_opts_t *o,
                      wm_dtw_matches_t *out) {
    return dtw_many(cx, queries, lens, n_queries, series, n, o, out, NULL);
}

wm_status wm_dtw_many_target(wm_context_t *cx, const double *const *queries, const size_t *lens,
                             size_t n_queries, const wm_target_t *t, const wm_dtw_opts_t *o,
                             wm_dtw_matches_t *out) {
    if (!wm_context_ok(cx)) return WM_INVALID;
    if (!t || t->magic != WM_TARGET_MAGIC || t->cx != cx || !t->series) {
        wm_context_set_error(cx, "wm_dtw_many_target: the target is not a series of this "
                                 "context (make it with wm_target_new_series)");
        return WM_INVALID;
    }
    wm_target_t *tt = (wm_target_t *)t; /* its device copy and check are made here */
    wm_target_t *saved = wm_target_swap(cx, tt);
    wm_status st = dtw_many(cx, queries, lens, n_queries, (const double *)t->text.seq,
                            t->text.len / sizeof(double), o, out, &tt->finite);
    wm_target_swap(cx, saved);
    return st;
}

wm_status wm_dtw(wm_context_t *cx, const double *query, size_t m, const double *series, uint64_t n,
                 const wm_dtw_opts_t *o, wm_dtw_matches_t *out) {
    return wm_dtw_many(cx, &query, &m, 1, series, n, o, out);
}

/* ---- the family ---------------------------------------------------------------- */

static void free_cache(wm_context_t *cx, void *cache) {
    const wm_dtw_gpu_t *gpu = wm_dtw_gpu(cx);
    if (gpu) gpu->free_cache(cache);
}

/* The GPU table and its device buffers exist only with CUDA. */
const wm_family_t wm_dtw_family = {
    "dtw",
#if WM_HAVE_CUDA
    &wm_dtw_gpu_cuda,
#else
    NULL,
#endif
    free_cache,
};
