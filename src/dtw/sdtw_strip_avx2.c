/*
** sdtw_strip_avx2.c -- the strip of sdtw_strip.inc for AVX2: 4 doubles a
** vector, strips of 16 query rows. CMakeLists.txt compiles this file, and no
** other, with -mavx2; sdtw_simd.c calls it only on a CPU that has it.
*/
#include <immintrin.h>

#include "dtw/sdtw_simd.h"

#ifndef __AVX2__
#error "sdtw_strip_avx2.c is built with -mavx2 (CMakeLists.txt, files named *_avx2.c)"
#endif

#define STRIP_FN wm_sdtw_strip_avx2
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
