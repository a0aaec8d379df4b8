/*
** tally.h -- what the differential tests share for counting: the run's seed
** and flags, passes and failures, the first MAX_DETAILED_FAILURES failures
** printed with the case that failed (through the test's g_describe, so that
** it can be replayed), later ones only counted; allocation that cannot fail.
** Header-only (static), included once by each test program.
*/
#ifndef WM_TESTS_TALLY_H
#define WM_TESTS_TALLY_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "warpmatch.h"

#define MAX_DETAILED_FAILURES 40

static uint64_t g_seed;
static long g_passed, g_failed;
static int g_verbose;
static int self_fail;               /* the oracle's own self-checks failed   */
static double g_t_oracle, g_t_lib;  /* seconds spent in each                 */
static void (*g_describe)(const void *c);   /* prints a test's case         */

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "differential test: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (p == NULL) {
        fprintf(stderr, "differential test: out of memory\n");
        exit(2);
    }
    return p;
}

/* One failure: idx is the random case's number (-1: none), c the case. */
static void fail_msg(long idx, const void *c, const char *what)
{
    g_failed++;
    if (g_failed <= MAX_DETAILED_FAILURES) {
        if (idx >= 0)
            printf("FAIL seed %" PRIu64 " case %ld: %s\n", g_seed, idx, what);
        else
            printf("FAIL seed %" PRIu64 ": %s\n", g_seed, what);
        if (c != NULL && g_describe != NULL)
            g_describe(c);
    } else if (g_failed == MAX_DETAILED_FAILURES + 1) {
        printf("(further failures are counted, not shown)\n");
    }
    fflush(stdout);
}

static void check_true(const char *what, int ok)
{
    if (ok)
        g_passed++;
    else
        fail_msg(-1, NULL, what);
}

/* A library call's status against the one expected, with cx's message. */
static void check_status(const char *what, int got, int want, wm_context_t *cx)
{
    if (got == want) {
        g_passed++;
        return;
    }
    char buf[600];
    snprintf(buf, sizeof buf, "%s: returned %d (%s), expected %d (%s); message \"%.200s\"", what,
             got, wm_strerror(got), want, wm_strerror(want), cx ? wm_context_errmsg(cx) : "");
    fail_msg(-1, NULL, buf);
}

#endif /* WM_TESTS_TALLY_H */
