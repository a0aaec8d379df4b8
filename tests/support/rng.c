/*
** rng.c -- splitmix64 and the draws of rng.h.
*/
#include "rng.h"

#include <math.h>

#include "harness.h"

uint64_t g_rng;

uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t rnd(void) { return splitmix64(&g_rng); }

uint64_t below(uint64_t n) { return rnd() % n; }

uint64_t range(uint64_t lo, uint64_t hi) { return lo + below(hi - lo + 1); }

int chance(unsigned pct) { return below(100) < pct; }

double unif(void) { return (double)(rnd() >> 11) * 0x1p-53; }

/* Box-Muller; u = 0 (a 2^-53 chance) would take the log of 0. */
double gauss(void) {
    double u = unif(), v = unif();
    if (u < 1e-300) u = 1e-300;
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

void seed_case(long i, uint64_t salt) {
    g_rng = g_seed * 0x9E3779B97F4A7C15ull + (uint64_t)i * 0xD1B54A32D192ED03ull + salt;
}

int pick_weighted(const weighted_t *w, size_t n) {
    uint64_t r = below(100);
    for (size_t i = 0; i + 1 < n; i++)
        if (r < w[i].upto) return w[i].value;
    return w[n - 1].value;
}

uint64_t pick_span(const span_t *s, size_t n, unsigned total) {
    uint64_t r = below(total);
    size_t i = 0;
    while (i + 1 < n && r >= s[i].upto) i++;
    return s[i].lo == s[i].hi ? s[i].lo : range(s[i].lo, s[i].hi);
}
