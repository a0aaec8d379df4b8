/*
** sdtw_cpu.c -- one query's DP over the whole series on the CPU threads:
** pieces in parallel, then fix-up rounds (see sdtw.h for why it is exact).
*/
#include <stdlib.h>
#include <string.h>

#include "core/plan.h"
#include "dtw/sdtw.h"
#include "dtw/sdtw_cuda.h"

#define CK_FIRST 32 /* first stored column of a piece: a + 31; then doubling */

typedef struct {
    const wm_sdtw_job_t *j;
    wm_plan_t plan;   /* the pieces (core/plan.h, sized) */
    uint64_t plen;    /* columns per piece */
    size_t np;        /* pieces */
    size_t nck;       /* stored columns per piece (room) */
    uint64_t *ck_pos; /* [np][nck] column index; the last is b - 1 */
    size_t *ck_n;     /* [np] stored columns used */
    double *ck_v;     /* [np][nck][m]: G's columns */
    uint64_t *ck_s;
    double *r_v, *rn_v; /* [np][m]: right borders (committed, new) */
    uint64_t *r_s, *rn_s;
    double *row_v; /* bottom row of the whole series, or NULL */
    uint64_t *row_s;
    wm_sdtw_best_t *pbest; /* [np] when row_v is NULL */
    size_t *dirty;         /* pieces to fix up this round */
    int *changed;          /* [np] */
    uint64_t *upto;        /* [np] bottom cells replaced by fix-ups: up to
                              this column (exclusive) */
    /* per thread scratch */
    double *t_col_v; /* [threads][m] */
    uint64_t *t_col_s;
    double *t_bot_v; /* [threads][plen] */
    uint64_t *t_bot_s;
} eng_t;

static uint64_t piece_a(const eng_t *e, size_t p) {
    uint64_t a, b;
    wm_plan_part(&e->plan, p, &a, &b);
    return a;
}
static uint64_t piece_b(const eng_t *e, size_t p) {
    uint64_t a, b;
    wm_plan_part(&e->plan, p, &a, &b);
    return b;
}

static void pass1_piece(void *arg, size_t p, int tid) {
    eng_t *e = arg;
    const wm_sdtw_job_t *j = e->j;
    size_t m = j->m;
    uint64_t a = piece_a(e, p);
    double *col_v = e->t_col_v + (size_t)tid * m;
    uint64_t *col_s = j->track ? e->t_col_s + (size_t)tid * m : NULL;
    for (size_t i = 0; i < m; i++) col_v[i] = INFINITY;
    if (col_s) memset(col_s, 0, m * sizeof *col_s);
    uint64_t from = a;
    wm_sdtw_best_t *best = e->row_v ? NULL : &e->pbest[p];
    if (best) wm_sdtw_best_init(best);
    for (size_t k = 0; k < e->ck_n[p]; k++) {
        uint64_t to = e->ck_pos[p * e->nck + k] + 1;
        wm_sdtw_tile(j, j->top, from, to, col_v, col_s, e->row_v ? e->row_v + from : NULL,
                     e->row_s ? e->row_s + from : NULL, best);
        memcpy(e->ck_v + (p * e->nck + k) * m, col_v, m * sizeof *col_v);
        if (col_s) memcpy(e->ck_s + (p * e->nck + k) * m, col_s, m * sizeof *col_s);
        from = to;
    }
    memcpy(e->r_v + p * m, col_v, m * sizeof *col_v);
    if (col_s) memcpy(e->r_s + p * m, col_s, m * sizeof *col_s);
}

/* The fixed-up column equals pass 1's, value and start in every row: from
** here on the piece is what pass 1 made (the same recurrence from the same
** column). */
static int same_column(const eng_t *e, const double *fv, const uint64_t *fs, const double *gv,
                       const uint64_t *gs) {
    size_t m = e->j->m;
    for (size_t i = 0; i < m; i++)
        if (fv[i] != gv[i] || (fs && fs[i] != gs[i])) return 0;
    return 1;
}

/* Run piece p again from the committed right border of p-1 (the true left
** border once p-1 is final), with fresh starts as in pass 1: the very DP a
** single pass would compute. Its bottom cells replace pass 1's until its
** column equals a stored pass-1 column at or beyond what earlier rounds
** replaced. */
static void fixup_piece(void *arg, size_t di, int tid) {
    eng_t *e = arg;
    const wm_sdtw_job_t *j = e->j;
    size_t m = j->m, p = e->dirty[di];
    uint64_t a = piece_a(e, p);
    double *fv = e->t_col_v + (size_t)tid * m;
    uint64_t *fs = j->track ? e->t_col_s + (size_t)tid * m : NULL;
    double *bv = e->t_bot_v + (size_t)tid * e->plen;
    uint64_t *bs = j->track ? e->t_bot_s + (size_t)tid * e->plen : NULL;
    memcpy(fv, e->r_v + (p - 1) * m, m * sizeof *fv);
    if (fs) memcpy(fs, e->r_s + (p - 1) * m, m * sizeof *fs);
    e->changed[p] = 0;
    const uint64_t prior = e->upto[p];
    uint64_t from = a;
    for (size_t k = 0; k < e->ck_n[p]; k++) {
        uint64_t to = e->ck_pos[p * e->nck + k] + 1;
        wm_sdtw_tile(j, j->top, from, to, fv, fs, bv, bs, NULL);
        for (uint64_t c = from; c < to; c++) {
            if (e->row_v) {
                e->row_v[c] = bv[c - from];
                if (bs) e->row_s[c] = bs[c - from];
            } else {
                /* values only: the true row is below pass 1's, so the
                ** smallest of both is the true smallest */
                wm_sdtw_best_offer(&e->pbest[p], bv[c - from], c + 1, 0);
            }
        }
        if (to > e->upto[p]) e->upto[p] = to;
        const double *gv = e->ck_v + (p * e->nck + k) * m;
        const uint64_t *gs = fs ? e->ck_s + (p * e->nck + k) * m : NULL;
        if (to >= prior && same_column(e, fv, fs, gv, gs) && k + 1 < e->ck_n[p]) return;
        from = to;
    }
    /* reached the end: the right border is this run's last column */
    int diff = 0;
    for (size_t i = 0; i < m; i++)
        if (fv[i] != e->r_v[p * m + i] || (fs && fs[i] != e->r_s[p * m + i])) diff = 1;
    if (diff) {
        memcpy(e->rn_v + p * m, fv, m * sizeof *fv);
        if (fs) memcpy(e->rn_s + p * m, fs, m * sizeof *fs);
    }
    e->changed[p] = diff;
}

static void eng_free(eng_t *e) {
    free(e->ck_pos);
    free(e->ck_n);
    free(e->ck_v);
    free(e->ck_s);
    free(e->r_v);
    free(e->rn_v);
    free(e->r_s);
    free(e->rn_s);
    free(e->pbest);
    free(e->dirty);
    free(e->changed);
    free(e->upto);
    free(e->t_col_v);
    free(e->t_col_s);
    free(e->t_bot_v);
    free(e->t_bot_s);
}

static uint64_t piece_len(wm_context_t *cx, const wm_sdtw_job_t *j) {
    if (cx->opts.chunk_bytes) {
        uint64_t p = cx->opts.chunk_bytes / sizeof(double);
        return p ? p : 1;
    }
    /* one piece a thread; pieces much shorter than the query would spend
    ** more on fix-ups (about m^2 cells a border) than they save */
    uint64_t t = (uint64_t)cx->n_threads;
    uint64_t p = (j->n + t - 1) / t;
    uint64_t floor_len = 8 * (uint64_t)j->m > 4096 ? 8 * (uint64_t)j->m : 4096;
    return p > floor_len ? p : floor_len;
}

wm_status wm_sdtw_cpu(wm_context_t *cx, const wm_sdtw_job_t *j, double *row_v, uint64_t *row_s,
                      wm_sdtw_best_t *best, double *corner) {
    wm_sdtw_job_t tuned = *j; /* with the context's SIMD ceiling */
    tuned.simd = cx->tuning.simd;
    j = &tuned;
    eng_t e;
    memset(&e, 0, sizeof e);
    e.j = j;
    e.plen = piece_len(cx, j);
    e.plan = wm_plan_sized(0, j->n, e.plen);
    e.np = (size_t)e.plan.n;
    e.row_v = row_v;
    e.row_s = j->track ? row_s : NULL;
    size_t m = j->m, th = (size_t)cx->n_threads;
    e.nck = 2;
    for (uint64_t w = CK_FIRST; w < e.plen; w *= 2) e.nck++;
    size_t cells = e.np * e.nck * m;
    e.ck_pos = malloc(e.np * e.nck * sizeof *e.ck_pos);
    e.ck_n = malloc(e.np * sizeof *e.ck_n);
    e.ck_v = malloc(cells * sizeof *e.ck_v);
    e.r_v = malloc(e.np * m * sizeof *e.r_v);
    e.rn_v = malloc(e.np * m * sizeof *e.rn_v);
    e.dirty = malloc(e.np * sizeof *e.dirty);
    e.changed = calloc(e.np, sizeof *e.changed);
    e.upto = calloc(e.np, sizeof *e.upto);
    e.t_col_v = malloc(th * m * sizeof *e.t_col_v);
    e.t_bot_v = malloc(th * e.plen * sizeof *e.t_bot_v);
    int ok = e.ck_pos && e.ck_n && e.ck_v && e.r_v && e.rn_v && e.dirty && e.changed && e.upto &&
             e.t_col_v && e.t_bot_v;
    if (j->track) {
        e.ck_s = malloc(cells * sizeof *e.ck_s);
        e.r_s = malloc(e.np * m * sizeof *e.r_s);
        e.rn_s = malloc(e.np * m * sizeof *e.rn_s);
        e.t_col_s = malloc(th * m * sizeof *e.t_col_s);
        e.t_bot_s = malloc(th * e.plen * sizeof *e.t_bot_s);
        ok = ok && e.ck_s && e.r_s && e.rn_s && e.t_col_s && e.t_bot_s;
    }
    if (!row_v) { /* also when no best is wanted: fixup_piece offers to it */
        e.pbest = malloc(e.np * sizeof *e.pbest);
        ok = ok && e.pbest;
    }
    if (!ok) {
        eng_free(&e);
        wm_context_set_error(
            cx, "out of memory for the DTW pieces (%zu pieces of %llu columns, m = %zu)", e.np,
            (unsigned long long)e.plen, m);
        return WM_NOMEM;
    }
    for (size_t p = 0; p < e.np; p++) { /* stored columns: a+31, a+63, ... and b-1 */
        uint64_t a = piece_a(&e, p), b = piece_b(&e, p);
        size_t k = 0;
        for (uint64_t w = CK_FIRST; a + w < b; w *= 2) e.ck_pos[p * e.nck + k++] = a + w - 1;
        e.ck_pos[p * e.nck + k++] = b - 1;
        e.ck_n[p] = k;
    }
    wm_pool_for(cx->pool, e.np, pass1_piece, &e);

    /* Fix-up rounds: piece p starts from the committed right border of p-1. */
    size_t nd = 0;
    for (size_t p = 1; p < e.np; p++) e.dirty[nd++] = p;
    while (nd > 0) {
        wm_pool_for(cx->pool, nd, fixup_piece, &e);
        size_t next = 0;
        for (size_t d = 0; d < nd; d++) {
            size_t p = e.dirty[d];
            if (!e.changed[p]) continue;
            memcpy(e.r_v + p * m, e.rn_v + p * m, m * sizeof *e.r_v);
            if (j->track) memcpy(e.r_s + p * m, e.rn_s + p * m, m * sizeof *e.r_s);
            if (p + 1 < e.np) e.dirty[next++] = p + 1;
        }
        nd = next;
    }
    if (!row_v && best) {
        wm_sdtw_best_init(best);
        for (size_t p = 0; p < e.np; p++)
            wm_sdtw_best_offer(best, e.pbest[p].v, e.pbest[p].end, e.pbest[p].s);
    }
    if (corner) *corner = e.r_v[(e.np - 1) * m + m - 1];
    eng_free(&e);
    return WM_OK;
}

wm_status wm_sdtw_find_start(wm_context_t *cx, const wm_sdtw_job_t *j, uint64_t end, double value,
                             uint64_t *start) {
    wm_sdtw_job_t t = *j;
    t.track = 1;
    t.simd = cx->tuning.simd;
    double *cv = malloc(j->m * sizeof *cv);
    uint64_t *cs = malloc(j->m * sizeof *cs);
    if (!cv || !cs) {
        free(cv);
        free(cs);
        return WM_NOMEM;
    }
    /* most optimal paths span about m columns: start a little above */
    uint64_t w = (uint64_t)j->m + j->m / 4 > 64 ? (uint64_t)j->m + j->m / 4 : 64;
    wm_status st = WM_OK;
    for (;;) {
        uint64_t from = end > w ? end - w : 0;
        double v;
        uint64_t s;
        const wm_dtw_gpu_t *gpu = wm_dtw_gpu(cx);
        uint64_t gpu_cells =
            cx->tuning.dtw_start_gpu_cells ? cx->tuning.dtw_start_gpu_cells : (uint64_t)1 << 20;
        int on_gpu = gpu && (uint64_t)j->m * (end - from) >= gpu_cells;
        if (on_gpu) {
            /* a big window: the GPU's tracked kernel, the same recurrence */
            wm_sdtw_job_t g = t;
            g.y = j->y + from;
            g.n = end - from;
            do st = gpu->corner_tracked(cx, &g, &v, &s);
            while (wm_gpu_retry(cx, &st));
            if (wm_gpu_fall_back(cx, st, "dtw's start")) {
                on_gpu = 0;
                st = WM_OK;
            } else if (st != WM_OK) break;
            else s += from;
        }
        if (!on_gpu) {
            for (size_t i = 0; i < j->m; i++) cv[i] = INFINITY;
            memset(cs, 0, j->m * sizeof *cs);
            wm_sdtw_tile(&t, WM_SDTW_TOP_FRESH, from, end, cv, cs, NULL, NULL, NULL);
            v = cv[j->m - 1];
            s = cs[j->m - 1];
        }
        /* the window's DP can only be worse; equal means an optimal path
        ** starts inside it, and its largest start is the answer */
        if (v == value || from == 0) {
            *start = s;
            break;
        }
        w *= 2;
    }
    free(cv);
    free(cs);
    return st;
}
