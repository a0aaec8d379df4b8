/*
** rng.h -- the tests' random numbers: splitmix64 (nothing from the library),
** one generator per test program (g_rng), seeded by the test from the run's
** seed, and the draws built on it. Every draw is a fixed sequence of calls,
** so a case is the same for the same seed and case number whatever ran
** before it (tests reseed per case with seed_case).
*/
#ifndef WM_TEST_RNG_H
#define WM_TEST_RNG_H

#include <stddef.h>
#include <stdint.h>

extern uint64_t g_rng;

/* One step of splitmix64 on *s. */
uint64_t splitmix64(uint64_t *s);

uint64_t rnd(void);                       /* 64 random bits */
uint64_t below(uint64_t n);               /* uniform in [0, n); n > 0 */
uint64_t range(uint64_t lo, uint64_t hi); /* uniform in [lo, hi] */
int chance(unsigned pct);                 /* true with pct / 100 */
double unif(void);                        /* uniform in [0, 1), 53 bits */
double gauss(void);                       /* standard normal */

/* Case i's generator: the same for the same (g_seed, i, salt) whatever ran
** before; salt tells the parts of one test apart. */
void seed_case(long i, uint64_t salt);

/* A choice by weights: one below(100) draw r, and the value of the first
** entry with r < upto (the entries' upto increasing, the last 100). */
typedef struct {
    int value;
    unsigned upto;
} weighted_t;
int pick_weighted(const weighted_t *w, size_t n);

/* A size by weights: one below(total) draw r, then the first span with
** r < upto (increasing, the last total) gives a number drawn in [lo, hi];
** a span with lo == hi gives lo without a draw. */
typedef struct {
    unsigned upto;
    uint64_t lo, hi;
} span_t;
uint64_t pick_span(const span_t *s, size_t n, unsigned total);

#endif /* WM_TEST_RNG_H */
