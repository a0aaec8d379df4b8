/*
** sdtw.h -- subsequence (and unbanded global) DTW over a long series, cut in
** pieces that run in parallel and stay exact.
**
** One query of m rows against series columns. Pass 1 runs every piece
** [a, b) at once from an unknown (+inf) left border, storing some of its
** columns (a+31, a+63, a+127, ... and b-1). A fix-up then runs piece p again,
** the same recurrence from the true left border (piece p-1's right border),
** and replaces pass 1's bottom cells until its column equals a stored one,
** value and start in every row: from there on the piece is what pass 1 made.
** When a fix-up reaches the piece's end its right border may have changed,
** and the next piece is fixed up again, round after round until nothing
** changes. The result is the single sequential DP, bit for bit, starts
** included, whatever the cut (a merge of "paths from the left" with "paths
** started inside" would be exact in value but not in the start kept where
** two sums round to the same double). A warping path may cross any number
** of pieces (a flat stretch); then fix-ups run on, at worst sequentially.
*/
#ifndef WM_DTW_SDTW_H
#define WM_DTW_SDTW_H

#include "core/simd.h"
#include "dtw/dtw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What lies above the first query row. */
typedef enum {
    WM_SDTW_TOP_FRESH = 0,  /* subsequence: d[0][j] = 0, a path may start anywhere */
    WM_SDTW_TOP_GLOBAL = 1, /* global: d[0][0] = 0 only (column 0 of the series) */
    WM_SDTW_TOP_NONE = 2    /* +inf: only paths entering from the left (E) */
} wm_sdtw_top_t;

/* One cell's state: its value and, when starts are tracked, the start of the
** path it keeps (0-based series index of the path's first cell). */
typedef struct {
    double v;
    uint64_t s;
} wm_sdtw_cell_t;

/* (v1, s1) is better than (v2, s2): smaller value, or equal and larger start.
** +inf is never better than anything. */
static inline int wm_sdtw_better(double v1, uint64_t s1, double v2, uint64_t s2) {
    return v1 < v2 || (v1 == v2 && v1 != INFINITY && s1 > s2);
}

/* The best bottom-row cell seen: smallest value, then leftmost end. */
typedef struct {
    double v;
    uint64_t end; /* exclusive end of the match (column + 1) */
    uint64_t s;   /* its start, when tracked */
} wm_sdtw_best_t;

static inline void wm_sdtw_best_init(wm_sdtw_best_t *b) {
    b->v = INFINITY;
    b->end = UINT64_MAX;
    b->s = 0;
}
static inline void wm_sdtw_best_offer(wm_sdtw_best_t *b, double v, uint64_t end, uint64_t s) {
    if (v < b->v || (v == b->v && v != INFINITY && end < b->end)) {
        b->v = v;
        b->end = end;
        b->s = s;
    }
}

/* A job: the query, the series and how to run it. */
typedef struct {
    const double *x;
    size_t m;
    const double *y; /* the whole series; columns are absolute indices */
    uint64_t n;
    wm_dtw_cost_t cost;
    wm_sdtw_top_t top;  /* FRESH or GLOBAL */
    int track;          /* keep starts */
    wm_simd_isa_t simd; /* the widest SIMD the CPU strips may use (the
                           context's tuning; WM_SIMD_AUTO: the CPU's best) */
    int banded;         /* the SIMD strips only, global corner only: cells
                           (i, c) with c - i outside [band_lo, band_hi] are
                           +inf (0-based row i, absolute column c) */
    int64_t band_lo, band_hi;
    int band_strips; /* banded: strips from this many strips' rows of band
                        width (0: sdtw_simd.c's default) */
    int f32;         /* float32 arithmetic (dtw.h's wm_dtw_cost_p): x and y
                        are rounded to float as they are read, and every
                        value is a float held in a double */
} wm_sdtw_job_t;

/* A job without starts and without a band (the caller sets those). */
static inline wm_sdtw_job_t wm_sdtw_job(const double *x, size_t m, const double *y, uint64_t n,
                                        wm_dtw_cost_t cost, wm_sdtw_top_t top, wm_simd_isa_t simd,
                                        int f32) {
    wm_sdtw_job_t j = {
        .x = x, .m = m, .y = y, .n = n, .cost = cost, .top = top, .simd = simd, .f32 = f32
    };
    return j;
}

/* Run columns [a, b) of the job's DP (CPU). col_v / col_s hold the column a-1
** on entry (+inf for a = 0 or an unknown border) and column b-1 on return;
** col_s is NULL unless tracking. top says what lies above row 1 (the job's
** top, or NONE for an E run). bot_v / bot_s (NULL = not wanted) get the last
** row's cells of columns [a, b); best (NULL = not wanted) is offered each. */
void wm_sdtw_tile(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b, double *col_v,
                  uint64_t *col_s, double *bot_v, uint64_t *bot_s, wm_sdtw_best_t *best);

/* wm_sdtw_tile without starts, in SIMD strips (sdtw_simd.c), with the best
** instruction set the CPU has up to max_isa (WM_SIMD_AUTO: its best; a
** narrower one runs that variant, for tests). A banded job (j->banded) runs
** each strip of rows over the columns its rows' band reaches only, and wants
** neither bot_v nor best (the corner is col[m - 1]). Returns 0, 1 when not built
** for this CPU, max_isa is WM_SIMD_NONE or the band is too narrow for strips
** to pay, -1 out of memory (the caller then runs the scalar DP). scratch:
** WM_SDTW_SIMD_SCRATCH doubles of the caller's (one a thread, for callers
** that run many small tiles), or NULL to allocate them here. */
#define WM_SDTW_SIMD_SUBTILE 4096 /* columns a strip runs at once */
#define WM_SDTW_SIMD_SCRATCH (3 * WM_SDTW_SIMD_SUBTILE + 3 * 32 + 8)
int wm_sdtw_tile_simd(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b,
                      double *col, double *bot_v, wm_sdtw_best_t *best, wm_simd_isa_t max_isa,
                      double *scratch);
/* Tests set this to run the scalar tile only (the reference). */

/* The whole DP of a job on the CPU, cut in pieces on cx's pool. Fills either
** the bottom row (row_v / row_s of n cells, row_s only when tracking) or, when
** row_v is NULL, best. corner (NULL = not wanted) gets the value of the
** last cell, d[m][n] (global mode's answer). */
wm_status wm_sdtw_cpu(wm_context_t *cx, const wm_sdtw_job_t *j, double *row_v, uint64_t *row_s,
                      wm_sdtw_best_t *best, double *corner);

/* The start of the best path into (m, end), found by running the tracked DP
** on windows [end - w, end) with w doubling until its value equals `value`
** (the untracked DP's): the largest start of an optimal path lies in the
** first window that reaches the value. Big windows run on the GPU when cx
** has one. Returns WM_OK, WM_NOMEM or a CUDA error. */
wm_status wm_sdtw_find_start(wm_context_t *cx, const wm_sdtw_job_t *j, uint64_t end, double value,
                             uint64_t *start);

#ifdef __cplusplus
}
#endif
#endif /* WM_DTW_SDTW_H */
