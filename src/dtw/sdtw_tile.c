/*
** sdtw_tile.c -- columns [a, b) of one query's DP on the CPU, a column at
** a time: the reference every faster kernel must equal bit for bit, and the
** kernel of short jobs (start finding, small queries).
*/
#include <math.h>

#include "dtw/sdtw.h"

/* The row-0 neighbours of column c: up (above c) and diag (above c-1). A
** fresh start at c gets start c from `up`; the diagonal's equal value loses
** the tie to it (smaller start), as the contract wants. */
static inline void top_cells(wm_sdtw_top_t top, uint64_t c, double *uv, uint64_t *us, double *dv,
                             uint64_t *ds) {
    *us = *ds = c;
    switch (top) {
    case WM_SDTW_TOP_FRESH:
        *uv = 0.0;
        *dv = 0.0;
        break;
    case WM_SDTW_TOP_GLOBAL:
        *uv = INFINITY;
        *dv = c == 0 ? 0.0 : INFINITY;
        break;
    default:
        *uv = INFINITY;
        *dv = INFINITY;
        break;
    }
}

/* Both precisions from one body (dtw.h's wm_dtw_r32): f32 is a constant at
** each call, so the double path keeps no test in its loop. */
static inline __attribute__((always_inline)) void
tile_values(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b, double *col,
            double *bot_v, wm_sdtw_best_t *best, const int f32) {
    const double *x = j->x, *y = j->y;
    size_t m = j->m;
    for (uint64_t c = a; c < b; c++) {
        double uv, dv;
        uint64_t us, ds;
        top_cells(top, c, &uv, &us, &dv, &ds);
        double yc = f32 ? wm_dtw_r32(y[c]) : y[c];
        if (j->cost == WM_DTW_SQUARED) {
            for (size_t i = 0; i < m; i++) {
                double d = f32 ? wm_dtw_r32(wm_dtw_r32(x[i]) - yc) : x[i] - yc, lv = col[i];
                double mn = dv < lv ? dv : lv;
                mn = mn < uv ? mn : uv;
                uv = wm_dtw_add_p(f32, mn, f32 ? wm_dtw_r32(d * d) : d * d);
                dv = lv;
                col[i] = uv;
            }
        } else {
            for (size_t i = 0; i < m; i++) {
                double lv = col[i];
                double mn = dv < lv ? dv : lv;
                mn = mn < uv ? mn : uv;
                double d = f32 ? wm_dtw_r32(wm_dtw_r32(x[i]) - yc) : x[i] - yc;
                uv = wm_dtw_add_p(f32, mn, fabs(d));
                dv = lv;
                col[i] = uv;
            }
        }
        if (bot_v) bot_v[c - a] = uv;
        if (best) wm_sdtw_best_offer(best, uv, c + 1, 0);
    }
}

static inline __attribute__((always_inline)) void
tile_tracked(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b, double *col_v,
             uint64_t *col_s, double *bot_v, uint64_t *bot_s, wm_sdtw_best_t *best, const int f32) {
    const double *x = j->x, *y = j->y;
    size_t m = j->m;
    for (uint64_t c = a; c < b; c++) {
        double uv, dv;
        uint64_t us, ds;
        top_cells(top, c, &uv, &us, &dv, &ds);
        double yc = y[c];
        for (size_t i = 0; i < m; i++) {
            double cost = wm_dtw_cost_p(j->cost, f32, x[i], yc);
            double lv = col_v[i];
            uint64_t ls = col_s[i];
            /* each predecessor plus the cost, then the best: equal sums keep
            ** the larger start, whichever predecessor it came from */
            double bv = wm_dtw_add_p(f32, dv, cost);
            uint64_t bs = ds;
            double t = wm_dtw_add_p(f32, uv, cost);
            if (wm_sdtw_better(t, us, bv, bs)) {
                bv = t;
                bs = us;
            }
            t = wm_dtw_add_p(f32, lv, cost);
            if (wm_sdtw_better(t, ls, bv, bs)) {
                bv = t;
                bs = ls;
            }
            dv = lv;
            ds = ls;
            uv = bv;
            us = bs;
            col_v[i] = bv;
            col_s[i] = bs;
        }
        if (bot_v) bot_v[c - a] = uv;
        if (bot_s) bot_s[c - a] = us;
        if (best) wm_sdtw_best_offer(best, uv, c + 1, us);
    }
}

void wm_sdtw_tile(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b, double *col_v,
                  uint64_t *col_s, double *bot_v, uint64_t *bot_s, wm_sdtw_best_t *best) {
    /* short queries would leave most lanes of a strip idle */
    if (!j->track && j->m >= 8 && j->simd != WM_SIMD_NONE &&
        wm_sdtw_tile_simd(j, top, a, b, col_v, bot_v, best, j->simd, NULL) == 0)
        return;
    if (j->track && j->f32) tile_tracked(j, top, a, b, col_v, col_s, bot_v, bot_s, best, 1);
    else if (j->track) tile_tracked(j, top, a, b, col_v, col_s, bot_v, bot_s, best, 0);
    else if (j->f32) tile_values(j, top, a, b, col_v, bot_v, best, 1);
    else tile_values(j, top, a, b, col_v, bot_v, best, 0);
}
