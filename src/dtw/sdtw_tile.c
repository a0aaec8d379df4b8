/*
** sdtw_tile.c -- columns [a, b) of one query's DP on the CPU, a column at
** a time, in float64 or float32 (sdtw_tile.inc, built once for each): the
** reference every faster kernel must equal bit for bit, and the kernel of
** short jobs (start finding, small queries) and of tracked starts.
*/
#include <math.h>
#include <string.h>

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

#define TILE_SFX _f64
#define ELT double
#define ELT_ABS fabs
#include "sdtw_tile.inc"
#define TILE_SFX _f32
#define ELT float
#define ELT_ABS fabsf
#include "sdtw_tile.inc"

/* A float32 tile keeps its column as floats in the first half of the
** caller's doubles, for the tile, and puts it back: each value is a float
** exactly. Going up, float i lands on bytes that doubles before i held;
** going down, double i lands on floats i and later, already moved. memcpy
** keeps the compiler's view of the types right. */
static float *col_to_float(double *col, size_t m) {
    unsigned char *p = (unsigned char *)col;
    for (size_t i = 0; i < m; i++) {
        double d;
        memcpy(&d, p + 8 * i, sizeof d);
        float f = (float)d;
        memcpy(p + 4 * i, &f, sizeof f);
    }
    return (float *)(void *)col;
}

static void col_to_double(double *col, size_t m) {
    unsigned char *p = (unsigned char *)col;
    for (size_t i = m; i-- > 0;) {
        float f;
        memcpy(&f, p + 4 * i, sizeof f);
        double d = (double)f;
        memcpy(p + 8 * i, &d, sizeof d);
    }
}

void wm_sdtw_tile(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b, double *col_v,
                  uint64_t *col_s, double *bot_v, uint64_t *bot_s, wm_sdtw_best_t *best) {
    /* short queries would leave most lanes of a strip idle */
    if (!j->track && j->m >= 8 && j->simd != WM_SIMD_NONE &&
        wm_sdtw_tile_simd(j, top, a, b, col_v, bot_v, best, j->simd, NULL) == 0)
        return;
    if (!j->f32) {
        if (j->track) tile_tracked_f64(j, top, a, b, col_v, col_s, bot_v, bot_s, best);
        else tile_values_f64(j, top, a, b, col_v, bot_v, best);
        return;
    }
    float *col32 = col_to_float(col_v, j->m);
    if (j->track) tile_tracked_f32(j, top, a, b, col32, col_s, bot_v, bot_s, best);
    else tile_values_f32(j, top, a, b, col32, bot_v, best);
    col_to_double(col_v, j->m);
}
