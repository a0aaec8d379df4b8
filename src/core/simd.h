/*
** simd.h -- the instruction sets the library's SIMD kernels are built for,
** and which of them this CPU runs.
**
** A kernel that has vector variants keeps each in a translation unit of its
** own, named after the set (sdtw_strip_avx2.c): CMakeLists.txt compiles a
** file ending in _sse2.c, _avx2.c or _avx512.c with that set's flags, and
** only where it can (x86-64, gcc or clang), defining WM_SIMD_X86=1 for the
** library then. The dispatcher, built for the baseline, takes the highest
** set it may use as a parameter: WM_SIMD_AUTO (0, what a zeroed tuning
** struct holds) means the best the CPU has; a lower one lets a caller or a
** test run a narrower variant on a wider CPU. The choice never comes from
** the environment.
*/
#ifndef WM_CORE_SIMD_H
#define WM_CORE_SIMD_H

#ifdef __cplusplus
extern "C" {
#endif

/* Ordered: a set includes the ones below it (AUTO aside). */
typedef enum {
    WM_SIMD_AUTO = 0, /* the best this CPU has */
    WM_SIMD_NONE = 1, /* scalar code only */
    WM_SIMD_SSE2 = 2,
    WM_SIMD_AVX2 = 3,
    WM_SIMD_AVX512 = 4 /* AVX-512F */
} wm_simd_isa_t;

/* The best set this CPU runs (whatever the library was built with: a
** dispatcher also checks WM_SIMD_X86). */
static inline wm_simd_isa_t wm_simd_cpu_isa(void) {
    /* clang defines __GNUC__ too; __builtin_cpu_init is a no-op once the
    ** runtime's constructor has run */
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return WM_SIMD_AVX512;
    if (__builtin_cpu_supports("avx2")) return WM_SIMD_AVX2;
    return WM_SIMD_SSE2; /* part of x86-64 */
#else
    return WM_SIMD_NONE;
#endif
}

/* The set to run for a caller allowing at most max_isa: the CPU's best,
** lowered to max_isa unless that is AUTO. */
static inline wm_simd_isa_t wm_simd_isa_pick(wm_simd_isa_t max_isa) {
    wm_simd_isa_t cpu = wm_simd_cpu_isa();
    return max_isa == WM_SIMD_AUTO || max_isa > cpu ? cpu : max_isa;
}

#ifdef __cplusplus
}
#endif
#endif /* WM_CORE_SIMD_H */
