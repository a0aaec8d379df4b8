/*
** test_api_version.c -- what the library says it was built as: wm_version()
** (CMake's project VERSION, the header's WM_VERSION_STRING, three numbers),
** wm_version_number() against WM_VERSION_NUMBER and the string,
** wm_build_features() against the build (WM_HAVE_CUDA, wm_cuda_built(), the
** SIMD kernels, zlib) and wm_build_features_string() against the mask, word
** for word in bit order.
** Exit status 0 when all checks pass; the last line is "N passed, N failed".
*/
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "warpmatch.h"

static void test_version(void) {
    const char *v = wm_version();
    CHECK(v != NULL, "wm_version() is NULL");
    if (!v) return;
    CHECK(strcmp(v, WM_VERSION_STRING) == 0, "wm_version() \"%s\", header \"%s\"", v,
          WM_VERSION_STRING);
#ifdef WM_PROJECT_VERSION /* CMake's project VERSION, handed to every target */
    CHECK(strcmp(v, WM_PROJECT_VERSION) == 0, "wm_version() \"%s\", CMake \"%s\"", v,
          WM_PROJECT_VERSION);
#endif
    unsigned a = 0, b = 0, c = 0;
    char tail = 0;
    CHECK(sscanf(v, "%u.%u.%u%c", &a, &b, &c, &tail) == 3, "\"%s\" is not major.minor.patch", v);
    CHECK(a == WM_VERSION_MAJOR && b == WM_VERSION_MINOR && c == WM_VERSION_PATCH,
          "\"%s\" vs WM_VERSION_MAJOR.MINOR.PATCH %d.%d.%d", v, WM_VERSION_MAJOR, WM_VERSION_MINOR,
          WM_VERSION_PATCH);
    CHECK(wm_version_number() == a * 10000 + b * 100 + c, "wm_version_number() %u for \"%s\"",
          wm_version_number(), v);
    CHECK(wm_version_number() == WM_VERSION_NUMBER, "wm_version_number() %u, header %u",
          wm_version_number(), (unsigned)WM_VERSION_NUMBER);
    CHECK(WM_VERSION_NUMBER == 100, "0.1.0 is %u", (unsigned)WM_VERSION_NUMBER);
    CHECK(wm_version() == v, "wm_version() is not one static string");
}

static const struct {
    unsigned bit;
    const char *word;
} WORDS[] = { { WM_FEATURE_CUDA, "cuda" }, { WM_FEATURE_SSE2, "sse2" },
              { WM_FEATURE_AVX2, "avx2" }, { WM_FEATURE_AVX512, "avx512" },
              { WM_FEATURE_GZIP, "gzip" }, { WM_FEATURE_BZIP2, "bzip2" },
              { WM_FEATURE_XZ, "xz" },     { WM_FEATURE_ZSTD, "zstd" } };

static void test_features(void) {
    unsigned f = wm_build_features();
    CHECK(!!(f & WM_FEATURE_CUDA) == !!wm_cuda_built(), "cuda bit %u, wm_cuda_built() %d",
          !!(f & WM_FEATURE_CUDA), wm_cuda_built());
#ifdef WM_HAVE_CUDA
    CHECK(!!(f & WM_FEATURE_CUDA) == !!WM_HAVE_CUDA, "cuda bit %u, WM_HAVE_CUDA %d",
          !!(f & WM_FEATURE_CUDA), WM_HAVE_CUDA);
#endif
    CHECK(f & WM_FEATURE_GZIP, "no gzip: zlib is always linked");
    CHECK((f & WM_FEATURE_XZ) && (f & WM_FEATURE_BZIP2) && (f & WM_FEATURE_ZSTD),
          "xz, bzip2 and zstd: the readers always have them (src/io/zsrc.c)");
    /* The SIMD kernels are compiled all together (x86-64, gcc or clang) or not at all. */
    unsigned simd = f & (WM_FEATURE_SSE2 | WM_FEATURE_AVX2 | WM_FEATURE_AVX512);
    CHECK(simd == 0 || simd == (WM_FEATURE_SSE2 | WM_FEATURE_AVX2 | WM_FEATURE_AVX512),
          "SIMD bits %#x", simd);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    CHECK(simd != 0, "an x86-64 build with %s has no SIMD kernels", "gcc or clang");
#endif
    unsigned known = 0;
    for (size_t i = 0; i < N_OF(WORDS); i++) known |= WORDS[i].bit;
    CHECK((f & ~known) == 0, "unknown feature bits %#x", f & ~known);

    /* The string: the words of the bits set, in bit order, one space apart. */
    const char *s = wm_build_features_string();
    CHECK(s != NULL, "wm_build_features_string() is NULL");
    if (!s) return;
    char want[128] = "";
    for (size_t i = 0; i < N_OF(WORDS); i++) {
        if (!(f & WORDS[i].bit)) continue;
        if (want[0]) strcat(want, " ");
        strcat(want, WORDS[i].word);
    }
    CHECK(strcmp(s, want) == 0, "features \"%s\", the mask %#x says \"%s\"", s, f, want);
    CHECK(wm_build_features() == f && wm_build_features_string() == s, "answers change");
    printf("test_api_version: warpmatch %s (%u), features %#x \"%s\"\n", wm_version(),
           wm_version_number(), f, s);
}

int main(int argc, char **argv) {
    test_settings(argc, argv, 1, NULL, NULL);
    test_version();
    test_features();
    return test_finish();
}
