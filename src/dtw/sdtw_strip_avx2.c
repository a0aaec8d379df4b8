/*
** sdtw_strip_avx2.c -- the strips of sdtw_strip.inc for AVX2: 4 doubles a
** vector, strips of 16 query rows (float32: 8 floats, 32 rows). CMakeLists.txt compiles this file, and no
** other, with -mavx2; sdtw_simd.c calls it only on a CPU that has it.
*/
#include <immintrin.h>

#include "dtw/sdtw_simd.h"

#ifndef __AVX2__
#error "sdtw_strip_avx2.c is built with -mavx2 (CMakeLists.txt, files named *_avx2.c)"
#endif

#define STRIP_FN wm_sdtw_strip_avx2
#define ELT double
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
#define V_MAX _mm256_max_pd
#define V_PENALTY(e)                                                                               \
    _mm256_and_pd(_mm256_cmp_pd((e), _mm256_setzero_pd(), _CMP_GT_OQ), _mm256_set1_pd(INFINITY))
#include "sdtw_strip.inc"

/* float32: 8 floats a vector, strips of 32 rows */
#define STRIP_FN wm_sdtw_strip_avx2_f32
#define ELT float
#define VL 8
#define VEC __m256
#define V_SET1 _mm256_set1_ps
#define V_LOADU _mm256_loadu_ps
#define V_STOREU _mm256_storeu_ps
#define V_MIN _mm256_min_ps
#define V_ADD _mm256_add_ps
#define V_SUB _mm256_sub_ps
#define V_MUL _mm256_mul_ps
#define V_ABS(d) _mm256_andnot_ps(_mm256_set1_ps(-0.0f), (d))
/* (p7, h0, ..., h6): t = [p4..p7 h0..h3] from the lane swap, then each
** 128-bit lane of (h : t) three floats right */
#define V_SHIFT(p, h)                                                                              \
    _mm256_castsi256_ps(_mm256_alignr_epi8(                                                        \
        _mm256_castps_si256(h), _mm256_castps_si256(_mm256_permute2f128_ps((p), (h), 0x21)), 12))
#define V_MAX _mm256_max_ps
#define V_PENALTY(e)                                                                               \
    _mm256_and_ps(_mm256_cmp_ps((e), _mm256_setzero_ps(), _CMP_GT_OQ), _mm256_set1_ps(INFINITY))
#include "sdtw_strip.inc"
