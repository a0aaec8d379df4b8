/*
** sdtw_simd.c -- the untracked DP of sdtw_tile.c with SIMD: strips of query
** rows skewed along the columns (sdtw_strip.inc), built for AVX-512, AVX2
** and SSE2 and chosen at run time. Same bits as the scalar tile: each cell
** is the same min and the same single rounded addition.
*/
#include <stdlib.h>

#include "dtw/sdtw.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* columns a strip runs at once: its three rows of doubles stay in L1/L2 */
#define SUBTILE 4096

#pragma GCC push_options
#pragma GCC target("avx512f")
#define STRIP_FN strip_avx512
#define VL 8
#define VEC __m512d
#define V_SET1 _mm512_set1_pd
#define V_LOADU _mm512_loadu_pd
#define V_STOREU _mm512_storeu_pd
#define V_MIN _mm512_min_pd
#define V_ADD _mm512_add_pd
#define V_SUB _mm512_sub_pd
#define V_MUL _mm512_mul_pd
#define V_ABS _mm512_abs_pd
/* lane 0 from p[7] (index 8 + 7 picks the second source), lane i from h[i-1] */
#define V_SHIFT(p, h) _mm512_permutex2var_pd((h), _mm512_set_epi64(6, 5, 4, 3, 2, 1, 0, 15), (p))
#include "sdtw_strip.inc"
#undef STRIP_FN
#undef VL
#undef VEC
#undef V_SET1
#undef V_LOADU
#undef V_STOREU
#undef V_MIN
#undef V_ADD
#undef V_SUB
#undef V_MUL
#undef V_ABS
#undef V_SHIFT
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2")
#define STRIP_FN strip_avx2
#define VL 4
#define VEC __m256d
#define V_SET1 _mm256_set1_pd
#define V_LOADU _mm256_loadu_pd
#define V_STOREU _mm256_storeu_pd
#define V_MIN _mm256_min_pd
#define V_ADD _mm256_add_pd
#define V_SUB _mm256_sub_pd
#define V_MUL _mm256_mul_pd
#define V_ABS(d) _mm256_andnot_pd(_mm256_set1_pd(-0.0), (d))
/* (p3, h0, h1, h2): [p2 p3 h0 h1] from the lane swap, then pick */
#define V_SHIFT(p, h) _mm256_shuffle_pd(_mm256_permute2f128_pd((p), (h), 0x21), (h), 0x5)
#include "sdtw_strip.inc"
#undef STRIP_FN
#undef VL
#undef VEC
#undef V_SET1
#undef V_LOADU
#undef V_STOREU
#undef V_MIN
#undef V_ADD
#undef V_SUB
#undef V_MUL
#undef V_ABS
#undef V_SHIFT
#pragma GCC pop_options

#define STRIP_FN strip_sse2
#define VL 2
#define VEC __m128d
#define V_SET1 _mm_set1_pd
#define V_LOADU _mm_loadu_pd
#define V_STOREU _mm_storeu_pd
#define V_MIN _mm_min_pd
#define V_ADD _mm_add_pd
#define V_SUB _mm_sub_pd
#define V_MUL _mm_mul_pd
#define V_ABS(d) _mm_andnot_pd(_mm_set1_pd(-0.0), (d))
#define V_SHIFT(p, h) _mm_shuffle_pd((p), (h), 0x1)
#include "sdtw_strip.inc"

typedef void (*strip_fn)(const wm_sdtw_job_t *, wm_sdtw_top_t, uint64_t, uint64_t, double *,
                         double *, wm_sdtw_best_t *, double *);

static strip_fn pick(void) {
    static strip_fn fn;
    if (!fn) {
        __builtin_cpu_init();
        if (!getenv("WM_NO_AVX512") && __builtin_cpu_supports("avx512f")) fn = strip_avx512;
        else if (!getenv("WM_NO_AVX2") && __builtin_cpu_supports("avx2")) fn = strip_avx2;
        else fn = strip_sse2;
    }
    return fn;
}

int wm_sdtw_tile_simd(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b,
                      double *col, double *bot_v, wm_sdtw_best_t *best) {
    uint64_t w = b - a < SUBTILE ? b - a : SUBTILE;
    double *scratch = malloc((3 * w + 3 * 32 + 8) * sizeof *scratch);
    if (!scratch) return -1;
    strip_fn fn = pick();
    for (uint64_t s = a; s < b; s += SUBTILE) {
        uint64_t e = b - s > SUBTILE ? s + SUBTILE : b;
        /* after the first sub-tile the row above the query is only row 0 of
        ** a fresh or +inf top: GLOBAL's d[0][0] lies in the first */
        fn(j, top, s, e, col, bot_v ? bot_v + (s - a) : NULL, best, scratch);
    }
    free(scratch);
    return 0;
}
#else
int wm_sdtw_tile_simd(const wm_sdtw_job_t *j, wm_sdtw_top_t top, uint64_t a, uint64_t b,
                      double *col, double *bot_v, wm_sdtw_best_t *best) {
    (void)j; (void)top; (void)a; (void)b; (void)col; (void)bot_v; (void)best;
    return 1;   /* not built: the caller runs the scalar tile */
}
#endif
