/*
** rng.h -- the differential tests' random numbers (splitmix64; nothing from
** the library), one generator per test program, seeded by the test.
*/
#ifndef WM_TEST_RNG_H
#define WM_TEST_RNG_H

#include <stdint.h>

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

#endif
