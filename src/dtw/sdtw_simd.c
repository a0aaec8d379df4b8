/*
** sdtw_simd.c -- the untracked DP of sdtw_tile.c with SIMD: strips of query
** rows skewed along the columns (sdtw_strip.inc), built for AVX-512, AVX2
** and SSE2 in a translation unit each (sdtw_strip_*.c) and chosen here, at
** run time, from what the CPU has and what the caller allows. Same bits as
** the scalar tile: each cell is the same min and the same single rounded
** addition, whichever set runs it (all built with -ffp-contract=off).
*/
#include <stdlib.h>

#include "core/simd.h"
#include "dtw/sdtw_simd.h"

/* columns a strip runs at once: its three rows of doubles stay in L1/L2 */
#define SUBTILE WM_SDTW_SIMD_SUBTILE

/* The strip for the best set the CPU has up to max_isa, its rows (*nl: 4
** vectors) and the narrowest band, in strips of rows, where strips beat the
** scalar DP (*strips); NULL when none was built (not x86-64, or another
** compiler) or the caller asked for none.
** A banded strip runs about 2 NL columns outside its rows' band (the skew)
** and masks the cells near the band's edges; the scalar DP runs the band
** alone, one dependent cell after another. Measured on 1,000 x 1,000 pairs
** of 500 samples (BENCHMARKS.md section 20): AVX-512 (Xeon, 16 cores),
** radius 50: 1.39 s in strips, 3.43 s scalar; radius 10 (a band of 21 <
** NL): 0.53 s and 0.56 s; AVX2 (EPYC, 2 cores, 200 series), radius 50
** (6 strips' rows): 0.83 s in strips, 0.73 s scalar; radius 150: 1.56 s
** and 2.01 s. float32 (NL twice as tall) on the same AVX2 machine, 300
** series: radius 20 (41 wide, 1.3 strips' rows) 1.09 s in strips, 0.67 s
** scalar; radius 30 (61): 1.23 and 1.02 s; radius 50 (101, 3.2): 1.43 and
** 1.71 s: from 3 strips. */
static wm_sdtw_strip_fn pick(wm_simd_isa_t max_isa, int f32, int *nl, int *strips) {
#if WM_SIMD_X86
    /* float32 holds twice the rows a vector; the same rule in strips */
    switch (wm_simd_isa_pick(max_isa)) {
    case WM_SIMD_AVX512:
        *nl = f32 ? 64 : 32, *strips = 1;
        return f32 ? wm_sdtw_strip_avx512_f32 : wm_sdtw_strip_avx512;
    case WM_SIMD_AVX2:
        *nl = f32 ? 32 : 16, *strips = f32 ? 3 : 8;
        return f32 ? wm_sdtw_strip_avx2_f32 : wm_sdtw_strip_avx2;
    case WM_SIMD_SSE2:
        *nl = f32 ? 16 : 8, *strips = 8;
        return f32 ? wm_sdtw_strip_sse2_f32 : wm_sdtw_strip_sse2;
    default: return NULL;
    }
#else
    (void)max_isa;
    (void)f32;
    (void)nl;
    (void)strips;
    return NULL;
#endif
}

int wm_sdtw_tile_simd(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b,
                      double *col, double *bot_v, wm_sdtw_best_t *best, wm_simd_isa_t max_isa,
                      double *scratch) {
    int nl = 0, strips = 0;
    wm_sdtw_strip_fn fn = pick(max_isa, j->f32, &nl, &strips);
    if (!fn) return 1; /* the caller runs the scalar tile */
    if (j->band_strips > 0) strips = j->band_strips;
    if (j->banded && j->band_hi - j->band_lo + 1 < (int64_t)strips * nl) return 1;
    /* the band test's numbers, up to the width + 2 NL, exact in float */
    if (j->banded && j->f32 && j->band_hi - j->band_lo > ((int64_t)1 << 23)) return 1;
    uint64_t w = b - a < SUBTILE ? b - a : SUBTILE;
    double *own = scratch ? NULL : malloc((3 * w + 3 * 32 + 8) * sizeof *own);
    if (!scratch && !(scratch = own)) return -1;
    for (uint64_t s = a; s < b; s += SUBTILE) {
        uint64_t e = b - s > SUBTILE ? s + SUBTILE : b;
        /* after the first sub-tile the row above the query is only row 0 of
        ** a fresh or +inf top: GLOBAL's d[0][0] lies in the first */
        fn(j, top, s, e, col, bot_v ? bot_v + (s - a) : NULL, best, scratch);
    }
    free(own);
    return 0;
}
