/*
** sdtw_strip_sse2.c -- the strips of sdtw_strip.inc for SSE2: 2 doubles a
** vector, strips of 8 query rows (float32: 4 floats, 16 rows). SSE2 is part of x86-64, so every x86-64
** CPU runs it; CMakeLists.txt still names the set (-msse2) as for the others.
*/
#include <emmintrin.h>

#include "dtw/sdtw_simd.h"

#ifndef __SSE2__
#error "sdtw_strip_sse2.c is built with -msse2 (CMakeLists.txt, files named *_sse2.c)"
#endif

#define STRIP_FN wm_sdtw_strip_sse2
#define ELT double
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
#define V_MAX _mm_max_pd
#define V_PENALTY(e) _mm_and_pd(_mm_cmpgt_pd((e), _mm_setzero_pd()), _mm_set1_pd(INFINITY))
#include "sdtw_strip.inc"

/* float32: 4 floats a vector, strips of 16 rows */
#define STRIP_FN wm_sdtw_strip_sse2_f32
#define ELT float
#define VL 4
#define VEC __m128
#define V_SET1 _mm_set1_ps
#define V_LOADU _mm_loadu_ps
#define V_STOREU _mm_storeu_ps
#define V_MIN _mm_min_ps
#define V_ADD _mm_add_ps
#define V_SUB _mm_sub_ps
#define V_MUL _mm_mul_ps
#define V_ABS(d) _mm_andnot_ps(_mm_set1_ps(-0.0f), (d))
/* (p3, h0, h1, h2): h a float up, p's last into lane 0 */
#define V_SHIFT(p, h)                                                                              \
    _mm_castsi128_ps(_mm_or_si128(_mm_slli_si128(_mm_castps_si128(h), 4),                          \
                                  _mm_srli_si128(_mm_castps_si128(p), 12)))
#define V_MAX _mm_max_ps
#define V_PENALTY(e) _mm_and_ps(_mm_cmpgt_ps((e), _mm_setzero_ps()), _mm_set1_ps(INFINITY))
#include "sdtw_strip.inc"
