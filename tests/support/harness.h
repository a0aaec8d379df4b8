/*
** harness.h -- what every test program shares for counting and reporting:
** the pass / fail counters, the CHECK family (a failure names file:line),
** failures of a random case (printed with the seed and the case number, so
** that `WM_SEED=... WM_CASE=...` runs it again), the run settings every
** program reads (WM_SEED, WM_TEST_SCALE, WM_CASE, WM_VERBOSE), the closing
** lines, wall time, allocation that cannot fail, and where the data folders
** are.
**
** One copy of each counter per program (harness.c); a test only includes
** this header and links wm_testsupport (tests/CMakeLists.txt).
*/
#ifndef WM_TEST_HARNESS_H
#define WM_TEST_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "warpmatch.h"

#if defined(__GNUC__) || defined(__clang__)
#define WM_TEST_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define WM_TEST_PRINTF(f, a)
#endif

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Failures past this many are counted, not printed. */
#define MAX_DETAILED_FAILURES 40

/* ---- the run's state -------------------------------------------------------- */

extern uint64_t g_seed;               /* the seed of this run (test_settings) */
extern double g_scale;                /* WM_TEST_SCALE, > 0 */
extern int g_verbose;                 /* WM_VERBOSE: print failing cases in full */
extern long g_passed, g_failed;       /* checks that passed / failed */
extern int self_fail;                 /* the oracle's own self-checks that failed */
extern double g_t_oracle, g_t_lib;    /* wall seconds spent in each, as measured */
extern double g_t_start, g_cpu_start; /* wall and CPU seconds at test_settings */

/* Prints a test's case (its inputs and options) after a failure; a test
** sets it to its own describer. fail_msg() calls it with the case. */
extern void (*g_describe)(const void *c);

/* The seed (argv[1], else WM_SEED, else default_seed), WM_TEST_SCALE (> 0,
** else 1) into *scale and g_scale, WM_CASE (one case only) into *only, which
** keeps its value when WM_CASE is unset, and WM_VERBOSE (set and not "0").
** Failures print the seed from then on. scale and only may be NULL. */
void test_settings(int argc, char **argv, uint64_t default_seed, double *scale, long *only);

/* The opening of a test with random cases: test_settings, g_describe (may
** be NULL), then the line "name: seed S, N cases (WM_TEST_SCALE x),
** warpmatch V". Returns N, the number of random cases: base_cases *
** WM_TEST_SCALE, at least 1. */
long test_begin(const char *name, int argc, char **argv, uint64_t default_seed, long base_cases,
                void (*describe)(const void *c), long *only);

/* The line "name: N passed, N failed (T s)" after a part of a test (the
** counts so far, the time since test_settings). */
void part_done(const char *name);

/* The random cases of a differential test: case i (0 <= i < n_cases) is
** made and run by one(i) after seed_case(i, salt), so that it is the same
** case whatever ran before. only (WM_CASE): >= 0 runs that case alone, -1
** none, anything lower all of them, with a progress line every `every`.
** Stops after a failed oracle self-check; ends with the time taken. */
void run_cases(long n_cases, long only, uint64_t salt, long every, void (*one)(long idx));

/* ---- checks with a place: the unit tests' style ----------------------------- */

/* Counts one check: passes when ok, else prints "FAIL file:line: cond --
** message" (and the seed, once test_settings ran). Returns ok. */
int check_at(int ok, const char *file, int line, const char *cond, const char *fmt, ...)
    WM_TEST_PRINTF(5, 6);

/* A library call's status against the one expected, with both names. */
int check_rc_at(int got, int want, const char *file, int line, const char *call);

#define CHECK(cond, ...) check_at((cond) != 0, __FILE__, __LINE__, #cond, __VA_ARGS__)
#define CHECK_RC(call, want) check_rc_at((call), (want), __FILE__, __LINE__, #call)

/* ---- checks of a random case: the differential tests' style ------------------ */

/* One failure: idx is the random case's number (-1: none), c the case for
** g_describe (NULL: none). The first MAX_DETAILED_FAILURES are printed. */
void fail_msg(long idx, const void *c, const char *what);
void fail_fmt(long idx, const void *c, const char *fmt, ...) WM_TEST_PRINTF(3, 4);

/* The same header and description, counting nothing (the oracle's own
** self-checks, which count in self_fail). */
void print_case(long idx, const void *c, const char *what);

/* ok passes, else a failure named `what`. */
void check_true(const char *what, int ok);

/* A library call's status against the one expected; the message of cx (may
** be NULL) is printed with a failure. */
void check_status(const char *what, int got, int want, wm_context_t *cx);
void check_case_status(long idx, const void *c, const char *what, int got, int want,
                       wm_context_t *cx);

/* ---- the closing lines ------------------------------------------------------ */

/* After the oracle's self-checks: "oracle self-check: ok (T s)" and 0, or,
** when any failed, that the library was not tested, the last line, and
** the exit status 1. */
int oracle_verdict(void);

/* "  done/total cases, N passed, N failed, T s" every `every` cases. */
void print_progress(long done, long total, long every, double t_start);

/* "seed S: W s wall, C s cpu; wall O s in the oracle, L s in the library",
** the times since test_settings, without the newline (callers add their
** split of the library's time). */
void print_time_split(void);

/* After any failure: the command line that runs one case again.
** minus_one: what WM_CASE=-1 runs (NULL: the test has no such mode). */
void print_repro(const char *argv0, const char *minus_one);

/* Prints "N passed, N failed" (self-check failures count as failed) and
** returns the exit status: 0 when nothing failed. */
int test_finish(void);

/* Prints "SKIP: why" (the test passes with what it checked so far). */
void skip_note(const char *why);

/* ---- small things every test needs ------------------------------------------ */

double now_s(void); /* wall seconds, monotonic */
double cpu_s(void); /* process CPU seconds */

void *xmalloc(size_t n); /* these exit(2) when memory runs out */
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Bytes as a quoted C-like string, at most `limit` of them, for reports. */
void print_bytes(FILE *f, const uint8_t *s, size_t n, size_t limit);

/* Does s contain the decimal number v standing alone (no digit next to it)? */
int names_number(const char *s, uint64_t v);

/* The shared data sets: $WM_SHARED_DATA (ctest sets it), else ../shared/data
** beside the repository; NULL when neither is a folder. */
const char *shared_data_dir(void);

/* The repository's own data/: $WM_DATA, else data/ of the source tree. */
const char *repo_data_dir(void);

#endif /* WM_TEST_HARNESS_H */
