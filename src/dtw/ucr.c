/*
** ucr.c -- ucr mode's search (wm_dtw_ucr_cpu): every window of the series
** through the UCR Suite's cascade, LB_Kim, LB_Keogh EQ, LB_Keogh EC (the
** last two when L == m), then the DTW abandoned early with the cumulative
** LB_Keogh of what is left; on the context's threads, a block of window
** starts per task.
**
** The threshold a window must beat is the best distance so far (top == 1,
** starting from max_distance) or max_distance. With top == 1 the threads
** share the best so far through one atomic (the bits of a non-negative
** double order as the double does), read before each window; each block
** keeps its own best (leftmost of equals), and the blocks' bests are
** reduced in block order at the end, so exactly one candidate comes out,
** the same for any thread count. Otherwise every window within
** max_distance goes onto its block's list and the lists are joined in block
** order. Nothing is dropped unless a bound exceeds ucr_cut(threshold) (see
** ucr.h), so windows that tie the threshold survive.
*/
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "dtw/ucr.h"

/* Per-thread scratch, sized once (nothing is allocated per window). */
typedef struct {
    double *z;             /* the normalised window, L */
    double *rows;          /* the DTW's rows, UCR_DTW_BUF(L) */
    double *t_eq, *t_ec;   /* LB_Keogh terms by column / by row, m each */
    double *cb_eq, *cb_ec; /* their suffix sums, m + 1 each */
    double *eu, *el;       /* the block's series envelope */
    size_t *dq;            /* envelope deques, 2 x the block's span */
    ucr_counts_t counts;
} ucr_scratch_t;

typedef struct {
    const ucr_query_t *uq;
    const double *series;
    uint64_t n_windows;
    size_t block; /* window starts per task */
    int top1, keogh;
    double max_distance;
    _Atomic uint64_t best_bits;  /* top1: the best distance so far */
    double *blk_best;            /* top1: each block's best distance ... */
    uint64_t *blk_start;         /* ... and its start (UINT64_MAX: none) */
    wm_dtw_candvec_t *blk_cands; /* otherwise: each block's windows */
    ucr_scratch_t *scr;          /* one per pool thread */
    atomic_int nomem;
} ucr_job_t;

static uint64_t bits_of(double d) {
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static double double_of(uint64_t b) {
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* Lower the shared best to d if d is smaller. */
static void share_best(_Atomic uint64_t *best, double d) {
    uint64_t nb = bits_of(d), cur = atomic_load_explicit(best, memory_order_relaxed);
    while (nb < cur && !atomic_compare_exchange_weak_explicit(best, &cur, nb, memory_order_relaxed,
                                                              memory_order_relaxed)) {}
}

/* Suffix sums: cb[k] = t[k] + ... + t[len - 1], cb[len] = 0. */
static void suffix_sums(const double *t, size_t len, double *cb) {
    cb[len] = 0.0;
    for (size_t k = len; k-- > 0;) cb[k] = cb[k + 1] + t[k];
}

/* One window: its exact distance, or +inf when a bound or the abandoned DTW
** shows it is above thr. eu / el: the series envelope at the window's
** samples (keogh only). */
static double one_window(const ucr_job_t *jb, ucr_scratch_t *sc, const double *x, double mean,
                         double sd, const double *eu, const double *el, double thr) {
    const ucr_query_t *uq = jb->uq;
    double cut = ucr_cut(thr, uq->slack);
    const double *cb_rows = NULL, *cb_cols = NULL;
    if (cut < INFINITY) { /* nothing can be dropped against +inf */
        if (ucr_lb_kim(uq, x, mean, sd, cut) > cut) {
            sc->counts.kim++;
            return INFINITY;
        }
        if (jb->keogh) {
            if (ucr_lb_keogh_eq(uq, x, mean, sd, cut, sc->t_eq) > cut) {
                sc->counts.keogh_eq++;
                return INFINITY;
            }
            if (ucr_lb_keogh_ec(uq, eu, el, mean, sd, cut, sc->t_ec) > cut) {
                sc->counts.keogh_ec++;
                return INFINITY;
            }
            suffix_sums(sc->t_eq, uq->m, sc->cb_eq);
            suffix_sums(sc->t_ec, uq->m, sc->cb_ec);
            cb_cols = sc->cb_eq;
            cb_rows = sc->cb_ec;
        }
    }
    /* The distance comes from wm_dtw_znorm itself, not from our copy of
    ** its statistics: the result cannot drift from the contract's bits. */
    wm_dtw_znorm(x, uq->len, sc->z);
    double d = ucr_dtw(uq, sc->z, cb_rows, cb_cols, cut, sc->rows);
    if (d == INFINITY) sc->counts.dtw_abandoned++;
    else sc->counts.dtw_full++;
    return d;
}

static void run_block(void *arg, size_t b, int tid) {
    ucr_job_t *jb = arg;
    const ucr_query_t *uq = jb->uq;
    ucr_scratch_t *sc = &jb->scr[tid];
    size_t L = uq->len;
    uint64_t b0 = (uint64_t)b * jb->block, b1 = b0 + jb->block;
    if (b1 > jb->n_windows) b1 = jb->n_windows;
    const double *xs = jb->series + b0;
    if (jb->keogh) {
        /* Envelope of this block's samples only: near the block's ends it
        ** is narrower than the whole series', still wider than the band. */
        size_t span = (size_t)(b1 - b0) + L - 1;
        ucr_envelope(xs, span, uq->r < 0 ? L : (size_t)uq->r, sc->eu, sc->el, sc->dq,
                     sc->dq + span);
    }
    double best = INFINITY;
    uint64_t best_s = UINT64_MAX;
    double thr = jb->max_distance;
    for (uint64_t s = b0; s < b1; s += UCR_LANES) {
        double mean[UCR_LANES], sd[UCR_LANES];
        size_t g = b1 - s < UCR_LANES ? (size_t)(b1 - s) : UCR_LANES;
        if (g == UCR_LANES) ucr_stats8(jb->series + s, L, mean, sd);
        else
            for (size_t k = 0; k < g; k++) ucr_stats(jb->series + s + k, L, &mean[k], &sd[k]);
        for (size_t k = 0; k < g; k++) {
            size_t off = (size_t)(s + k - b0);
            if (jb->top1)
                thr = double_of(atomic_load_explicit(&jb->best_bits, memory_order_relaxed));
            double d = one_window(jb, sc, xs + off, mean[k], sd[k], jb->keogh ? sc->eu + off : NULL,
                                  jb->keogh ? sc->el + off : NULL, thr);
            if (!(d <= thr)) continue;
            if (jb->top1) {
                if (d < best) { /* starts rise within a block: ties keep the first */
                    best = d;
                    best_s = s + k;
                    share_best(&jb->best_bits, d);
                }
            } else if (wm_dtw_candvec_push(&jb->blk_cands[b], d, s + k, s + k + L) != 0) {
                atomic_store(&jb->nomem, 1);
                return;
            }
        }
    }
    sc->counts.windows += b1 - b0;
    if (jb->top1) {
        jb->blk_best[b] = best;
        jb->blk_start[b] = best_s;
    }
}

static int scratch_alloc(ucr_scratch_t *sc, size_t m, size_t L, size_t span, int keogh) {
    memset(sc, 0, sizeof *sc);
    sc->z = malloc(L * sizeof *sc->z);
    sc->rows = malloc(UCR_DTW_BUF(L) * sizeof *sc->rows);
    if (!sc->z || !sc->rows) return -1;
    if (!keogh) return 0;
    sc->t_eq = malloc(m * sizeof *sc->t_eq);
    sc->t_ec = malloc(m * sizeof *sc->t_ec);
    sc->cb_eq = malloc((m + 1) * sizeof *sc->cb_eq);
    sc->cb_ec = malloc((m + 1) * sizeof *sc->cb_ec);
    sc->eu = malloc(span * sizeof *sc->eu);
    sc->el = malloc(span * sizeof *sc->el);
    sc->dq = malloc(2 * span * sizeof *sc->dq);
    return sc->t_eq && sc->t_ec && sc->cb_eq && sc->cb_ec && sc->eu && sc->el && sc->dq ? 0 : -1;
}

static void scratch_free(ucr_scratch_t *sc) {
    free(sc->z);
    free(sc->rows);
    free(sc->t_eq);
    free(sc->t_ec);
    free(sc->cb_eq);
    free(sc->cb_ec);
    free(sc->eu);
    free(sc->el);
    free(sc->dq);
}

/* Window starts per task: enough tasks for the threads to balance (the
** pruning rate varies along a signal), few enough that each block's
** envelope (L - 1 samples past its windows) stays a small extra. */
static size_t block_size(uint64_t n_windows, size_t L, int threads) {
    uint64_t b = n_windows / ((uint64_t)threads * 16) + 1;
    uint64_t lo = 4 * (uint64_t)L > 1024 ? 4 * (uint64_t)L : 1024;
    if (b < lo) b = lo;
    if (b > (1u << 16) && (1u << 16) >= lo) b = 1u << 16;
    if (b > n_windows) b = n_windows;
    return (size_t)b;
}

wm_status ucr_search(wm_context_t *cx, const double *qz, size_t m, const double *series, uint64_t n,
                     const wm_dtw_opts_t *o, wm_dtw_candvec_t *out, ucr_counts_t *counts) {
    ucr_query_t uq;
    if (ucr_query_init(&uq, qz, m, o) != 0) return WM_NOMEM;
    size_t L = uq.len;
    wm_status st = WM_OK;
    /* Distances are >= 0: below 0 nothing qualifies (NaN is refused by
    ** wm_dtw; here it qualifies nothing either). */
    if (!(o->max_distance >= 0.0) || L == 0 || L > n) {
        ucr_query_free(&uq);
        return WM_OK;
    }
    int threads = wm_pool_size(cx->pool);
    ucr_job_t jb;
    memset(&jb, 0, sizeof jb);
    jb.uq = &uq;
    jb.series = series;
    jb.n_windows = n - L + 1;
    jb.block = block_size(jb.n_windows, L, threads);
    jb.top1 = o->top == 1;
    jb.keogh = L == m;
    jb.max_distance = o->max_distance;
    atomic_init(&jb.best_bits, bits_of(o->max_distance));
    atomic_init(&jb.nomem, 0);
    size_t n_blocks = (size_t)((jb.n_windows + jb.block - 1) / jb.block);
    jb.scr = calloc((size_t)threads, sizeof *jb.scr);
    if (jb.top1) {
        jb.blk_best = malloc(n_blocks * sizeof *jb.blk_best);
        jb.blk_start = malloc(n_blocks * sizeof *jb.blk_start);
    } else {
        jb.blk_cands = calloc(n_blocks, sizeof *jb.blk_cands);
    }
    int ok = jb.scr && (jb.top1 ? jb.blk_best && jb.blk_start : jb.blk_cands != NULL);
    for (int t = 0; ok && t < threads; t++)
        ok = scratch_alloc(&jb.scr[t], m, L, jb.block + L - 1, jb.keogh) == 0;
    if (ok) wm_pool_for(cx->pool, n_blocks, run_block, &jb);
    if (!ok || atomic_load(&jb.nomem)) st = WM_NOMEM;

    if (st == WM_OK && jb.top1) {
        size_t win = SIZE_MAX; /* smallest distance, then the leftmost block */
        for (size_t b = 0; b < n_blocks; b++)
            if (jb.blk_start[b] != UINT64_MAX &&
                (win == SIZE_MAX || jb.blk_best[b] < jb.blk_best[win]))
                win = b;
        if (win != SIZE_MAX && wm_dtw_candvec_push(out, jb.blk_best[win], jb.blk_start[win],
                                                   jb.blk_start[win] + L) != 0)
            st = WM_NOMEM;
    }
    if (jb.blk_cands) {
        for (size_t b = 0; b < n_blocks; b++) {
            for (size_t k = 0; st == WM_OK && k < jb.blk_cands[b].n; k++) {
                const wm_dtw_cand_t *c = &jb.blk_cands[b].a[k];
                if (wm_dtw_candvec_push(out, c->distance, c->start, c->end) != 0) st = WM_NOMEM;
            }
            wm_dtw_candvec_free(&jb.blk_cands[b]);
        }
    }
    if (jb.scr) {
        for (int t = 0; t < threads; t++) {
            if (counts && ok) {
                const ucr_counts_t *c = &jb.scr[t].counts;
                counts->windows += c->windows;
                counts->kim += c->kim;
                counts->keogh_eq += c->keogh_eq;
                counts->keogh_ec += c->keogh_ec;
                counts->dtw_abandoned += c->dtw_abandoned;
                counts->dtw_full += c->dtw_full;
            }
            scratch_free(&jb.scr[t]);
        }
    }
    free(jb.scr);
    free(jb.blk_best);
    free(jb.blk_start);
    free(jb.blk_cands);
    ucr_query_free(&uq);
    return st;
}

wm_status wm_dtw_ucr_cpu(wm_context_t *cx, const double *qz, size_t m, const double *series,
                         uint64_t n, const wm_dtw_opts_t *o, wm_dtw_candvec_t *out) {
    return ucr_search(cx, qz, m, series, n, o, out, NULL);
}
