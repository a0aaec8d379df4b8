/*
** sdtw_strip_avx512.c -- the strips of sdtw_strip.inc for AVX-512F: 8 doubles
** a vector, strips of 32 query rows (float32: 16 floats, 64 rows). CMakeLists.txt compiles this file, and
** no other, with -mavx512f; sdtw_simd.c calls it only on a CPU that has it.
*/
#include <immintrin.h>

#include "dtw/sdtw_simd.h"

#ifndef __AVX512F__
#error "sdtw_strip_avx512.c is built with -mavx512f (CMakeLists.txt, files named *_avx512.c)"
#endif

#define STRIP_FN wm_sdtw_strip_avx512
#define ELT double
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
#define V_MAX _mm512_max_pd
#define V_PENALTY(e)                                                                               \
    _mm512_maskz_mov_pd(_mm512_cmp_pd_mask((e), _mm512_setzero_pd(), _CMP_GT_OQ),                  \
                        _mm512_set1_pd(INFINITY))
#include "sdtw_strip.inc"

/* float32: 16 floats a vector, strips of 64 rows */
#define STRIP_FN wm_sdtw_strip_avx512_f32
#define ELT float
#define VL 16
#define VEC __m512
#define V_SET1 _mm512_set1_ps
#define V_LOADU _mm512_loadu_ps
#define V_STOREU _mm512_storeu_ps
#define V_MIN _mm512_min_ps
#define V_ADD _mm512_add_ps
#define V_SUB _mm512_sub_ps
#define V_MUL _mm512_mul_ps
#define V_ABS _mm512_abs_ps
/* lane 0 from p[15] (index 16 + 15), lane i from h[i-1] */
#define V_SHIFT(p, h)                                                                              \
    _mm512_permutex2var_ps(                                                                        \
        (h), _mm512_set_epi32(14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 31), (p))
#define V_MAX _mm512_max_ps
#define V_PENALTY(e)                                                                               \
    _mm512_maskz_mov_ps(_mm512_cmp_ps_mask((e), _mm512_setzero_ps(), _CMP_GT_OQ),                  \
                        _mm512_set1_ps(INFINITY))
#include "sdtw_strip.inc"
