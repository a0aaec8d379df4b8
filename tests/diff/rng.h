/*
** rng.h -- the differential tests' random numbers (splitmix64; nothing from
** the library), one generator per test program, seeded by the test, the run
** settings every one of them reads, and the small helpers they all use.
*/
#ifndef WM_TEST_RNG_H
#define WM_TEST_RNG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t g_rng;

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rnd(void) { return splitmix64(&g_rng); }
/* Uniform in [0, n); n > 0. */
static uint64_t below(uint64_t n) { return rnd() % n; }
/* Uniform in [lo, hi]. */
static uint64_t range(uint64_t lo, uint64_t hi) { return lo + below(hi - lo + 1); }
/* True with probability pct/100. */
static int chance(unsigned pct) { return below(100) < pct; }

/* Wall-clock seconds, for the tests' own time reports. */
static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Bytes as a quoted C-like string (at most `limit` of them) for reports. */
static inline void print_bytes(FILE *f, const uint8_t *s, size_t n, size_t limit)
{
    fputc('"', f);
    for (size_t i = 0; i < n && i < limit; i++) {
        uint8_t c = s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            fputc(c, f);
        else
            fprintf(f, "\\x%02x", c);
    }
    fputc('"', f);
    if (n > limit)
        fprintf(f, "...(%zu bytes)", n);
}

/* ASCII letters change case; other bytes stay. */
static inline uint8_t flip_case(uint8_t c)
{
    if (c >= 'a' && c <= 'z') return (uint8_t)(c - 32);
    if (c >= 'A' && c <= 'Z') return (uint8_t)(c + 32);
    return c;
}

/* A byte of a DNA-alphabet sequence as real files have them: mostly ACGT,
** some lowercase, N, U, other IUPAC codes and punctuation, a few of any
** value. */
static inline uint8_t rand_dna_byte(void)
{
    uint64_t r = below(1000);
    if (r < 820) return (uint8_t)"ACGT"[below(4)];
    if (r < 920) return (uint8_t)"acgt"[below(4)];
    if (r < 950) return chance(70) ? 'N' : 'n';
    if (r < 970) return chance(50) ? 'U' : 'u';
    if (r < 990) return (uint8_t)"RYKMSWBDHV-*."[below(13)];
    return (uint8_t)below(256);
}

/* The seed (argv[1], else WM_SEED, else default_seed), WM_TEST_SCALE (> 0,
** else 1), WM_CASE (one case only; *only keeps its value when unset) and
** WM_VERBOSE (set and not "0"). */
static void test_settings(int argc, char **argv, uint64_t default_seed, uint64_t *seed,
                          double *scale, long *only, int *verbose)
{
    const char *env = getenv("WM_SEED");
    *seed = default_seed;
    if (argc > 1) *seed = strtoull(argv[1], NULL, 0);
    else if (env && *env) *seed = strtoull(env, NULL, 0);
    *scale = 1.0;
    env = getenv("WM_TEST_SCALE");
    if (env && *env) *scale = strtod(env, NULL);
    if (!(*scale > 0)) *scale = 1.0;
    env = getenv("WM_CASE");
    if (env && *env) *only = strtol(env, NULL, 10);
    env = getenv("WM_VERBOSE");
    *verbose = env && *env && strcmp(env, "0") != 0;
}

#endif
