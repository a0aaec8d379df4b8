/*
** trace.c -- the DP of one window kept whole (a direction byte a cell), for
** the canonical warping path of a reported match, and the banded global DP
** (its value only).
*/
#include <math.h>
#include <stdlib.h>

#include "dtw/trace.h"

enum { FROM_DIAG = 0, FROM_UP = 1, FROM_LEFT = 2, FROM_TOP = 3 };

/* Cells a path may hold at most: 8 GiB of direction bytes. */
#define TRACE_MAX_CELLS (1ull << 33)

wm_status wm_dtw_trace(wm_context_t *cx, const double *x, size_t m, const double *y, uint64_t n,
                       uint64_t col0, wm_sdtw_top_t top, int64_t band, wm_dtw_cost_t cost, int f32,
                       uint64_t **path_out, uint64_t *len_out) {
    *path_out = NULL;
    *len_out = 0;
    if ((uint64_t)m * n > TRACE_MAX_CELLS) {
        wm_context_set_error(cx,
                             "a warping path over %zu x %llu cells is more than this "
                             "build traces (%llu cells); drop --path or shorten the match",
                             m, (unsigned long long)n, (unsigned long long)TRACE_MAX_CELLS);
        return WM_UNSUPPORTED;
    }
    uint8_t *dir = malloc((size_t)m * n);
    double *col = malloc(m * sizeof *col);
    uint64_t *path = malloc((m + n) * 2 * sizeof *path);
    if (!dir || !col || !path) {
        free(dir);
        free(col);
        free(path);
        return WM_NOMEM;
    }
    for (size_t i = 0; i < m; i++) col[i] = INFINITY;
    for (uint64_t c = 0; c < n; c++) {
        /* row 0's neighbours above: as in sdtw_tile.c's top_cells */
        double uv = top == WM_SDTW_TOP_FRESH ? 0.0 : INFINITY;
        double dv =
            top == WM_SDTW_TOP_FRESH || (top == WM_SDTW_TOP_GLOBAL && c == 0) ? 0.0 : INFINITY;
        for (size_t i = 0; i < m; i++) {
            double lv = col[i], nv = INFINITY;
            uint8_t d = FROM_DIAG;
            if (wm_dtw_in_band(band, m, n, i, c)) {
                double cst = wm_dtw_cost_p(cost, f32, x[i], y[c]);
                double mn = dv < lv ? dv : lv;
                mn = mn < uv ? mn : uv;
                nv = wm_dtw_add_p(f32, mn, cst);
                /* the first predecessor, in the contract's order, that gives it */
                if (wm_dtw_add_p(f32, dv, cst) == nv) d = i == 0 ? FROM_TOP : FROM_DIAG;
                else if (wm_dtw_add_p(f32, uv, cst) == nv) d = i == 0 ? FROM_TOP : FROM_UP;
                else d = FROM_LEFT;
            }
            dir[c * m + i] = d;
            dv = lv;
            uv = nv;
            col[i] = nv;
        }
    }
    /* walk back from the last cell */
    uint64_t len = 0;
    size_t i = m - 1;
    uint64_t c = n - 1;
    for (;;) {
        path[2 * len] = i;
        path[2 * len + 1] = col0 + c;
        len++;
        uint8_t d = dir[c * m + i];
        if (d == FROM_TOP) break;
        if (d == FROM_DIAG) {
            i--;
            c--;
        } else if (d == FROM_UP) i--;
        else c--;
    }
    for (uint64_t a = 0, b = len - 1; a < b; a++, b--) { /* first cell first */
        uint64_t t0 = path[2 * a], t1 = path[2 * a + 1];
        path[2 * a] = path[2 * b];
        path[2 * a + 1] = path[2 * b + 1];
        path[2 * b] = t0;
        path[2 * b + 1] = t1;
    }
    free(dir);
    free(col);
    *path_out = path;
    *len_out = len;
    return WM_OK;
}

#define BANDED_FN banded_f64
#define ELT double
#define ELT_ABS fabs
#include "global_banded.inc"
#define BANDED_FN banded_f32
#define ELT float
#define ELT_ABS fabsf
#include "global_banded.inc"

double wm_dtw_global_banded(const double *x, size_t m, const double *y, uint64_t n, int64_t band,
                            wm_dtw_cost_t cost, int f32, double *col) {
    if (!f32) return banded_f64(x, m, y, n, band, cost, col);
    /* float: the column and the rounded query in the caller's m doubles */
    float *c32 = (float *)col, *x32 = c32 + m;
    for (size_t i = 0; i < m; i++) x32[i] = (float)x[i];
    return banded_f32(x32, m, y, n, band, cost, c32);
}
