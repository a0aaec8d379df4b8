/*
** sdtw_strip_sse2.c -- the strip of sdtw_strip.inc for SSE2: 2 doubles a
** vector, strips of 8 query rows. SSE2 is part of x86-64, so every x86-64
** CPU runs it; CMakeLists.txt still names the set (-msse2) as for the others.
*/
#include <emmintrin.h>

#include "dtw/sdtw_simd.h"

#ifndef __SSE2__
#error "sdtw_strip_sse2.c is built with -msse2 (CMakeLists.txt, files named *_sse2.c)"
#endif

#define STRIP_FN wm_sdtw_strip_sse2
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
