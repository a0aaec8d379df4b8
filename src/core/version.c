/*
** version.c -- what the library was built as: its version (CMake's project
** VERSION, handed in as WM_PROJECT_*) and the features compiled in.
*/
#include "warpmatch.h"

/* A build outside CMake (a Python extension compiling the sources, say)
** takes the header's numbers. */
#ifndef WM_PROJECT_VERSION
#define WM_PROJECT_VERSION WM_VERSION_STRING
#define WM_PROJECT_MAJOR WM_VERSION_MAJOR
#define WM_PROJECT_MINOR WM_VERSION_MINOR
#define WM_PROJECT_PATCH WM_VERSION_PATCH
#endif
/* One version: bumping project() without the header (or the other way)
** stops the build here rather than shipping two answers. */
#if WM_PROJECT_MAJOR != WM_VERSION_MAJOR || WM_PROJECT_MINOR != WM_VERSION_MINOR ||                \
    WM_PROJECT_PATCH != WM_VERSION_PATCH
#error "CMakeLists.txt project(VERSION) and warpmatch.h WM_VERSION_* differ"
#endif

const char *wm_version(void) { return WM_PROJECT_VERSION; }

unsigned wm_version_number(void) {
    return WM_PROJECT_MAJOR * 10000u + WM_PROJECT_MINOR * 100u + WM_PROJECT_PATCH;
}

/* The build's switches: WM_HAVE_CUDA and WM_SIMD_X86 come from
** CMakeLists.txt; the readers' optional formats from WM_HAVE_BZIP2,
** WM_HAVE_XZ and WM_HAVE_ZSTD where the build defines them to 1. */
#ifndef WM_HAVE_CUDA
#define WM_HAVE_CUDA 0
#endif
#ifndef WM_SIMD_X86
#define WM_SIMD_X86 0
#endif
#ifndef WM_HAVE_BZIP2
#define WM_HAVE_BZIP2 0
#endif
#ifndef WM_HAVE_XZ
#define WM_HAVE_XZ 0
#endif
#ifndef WM_HAVE_ZSTD
#define WM_HAVE_ZSTD 0
#endif

/* Each feature's bit and word (" word", or nothing when not built). */
#define FEATURE(built, bit) ((built) ? (bit) : 0u)
#if WM_HAVE_CUDA
#define W_CUDA " cuda"
#else
#define W_CUDA ""
#endif
/* the *_sse2.c, *_avx2.c and *_avx512.c kernels: compiled together or not at all */
#if WM_SIMD_X86
#define W_SIMD " sse2 avx2 avx512"
#else
#define W_SIMD ""
#endif
#define W_GZIP " gzip" /* zlib is required */
#if WM_HAVE_BZIP2
#define W_BZIP2 " bzip2"
#else
#define W_BZIP2 ""
#endif
#if WM_HAVE_XZ
#define W_XZ " xz"
#else
#define W_XZ ""
#endif
#if WM_HAVE_ZSTD
#define W_ZSTD " zstd"
#else
#define W_ZSTD ""
#endif

unsigned wm_build_features(void) {
    return FEATURE(WM_HAVE_CUDA, WM_FEATURE_CUDA) | FEATURE(WM_SIMD_X86, WM_FEATURE_SSE2) |
           FEATURE(WM_SIMD_X86, WM_FEATURE_AVX2) | FEATURE(WM_SIMD_X86, WM_FEATURE_AVX512) |
           WM_FEATURE_GZIP | FEATURE(WM_HAVE_BZIP2, WM_FEATURE_BZIP2) |
           FEATURE(WM_HAVE_XZ, WM_FEATURE_XZ) | FEATURE(WM_HAVE_ZSTD, WM_FEATURE_ZSTD);
}

const char *wm_build_features_string(void) {
    /* A constant, so no state to share between threads; the first space dropped. */
    static const char words[] = W_CUDA W_SIMD W_GZIP W_BZIP2 W_XZ W_ZSTD;
    return words[0] ? words + 1 : words;
}
