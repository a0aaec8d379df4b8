/*
** setcase.h -- what the edge tests of one set algorithm share
** (test_qgram_bytes.c, test_teddy.c): a text's random records, a planted
** copy in the other case, and one case checked against the set oracle with
** the algorithm and with AUTO on the fixed contexts and one of tiny chunks.
*/
#ifndef WM_TEST_SETCASE_H
#define WM_TEST_SETCASE_H

#include <stddef.h>
#include <stdint.h>

#include "contexts.h"
#include "warpmatch.h"

/* A case: a set (pats, lens), a text in records, case folding or not, and
** kind, a test's own word for the shape of its set. */
#define SETCASE_MAX_PATS 2000
typedef struct {
    int kind;
    int icase;
    size_t n_pats, n_text, n_rec;
    uint8_t *pats[SETCASE_MAX_PATS];
    size_t lens[SETCASE_MAX_PATS];
    uint8_t *text;
    uint64_t *rec_start; /* n_rec + 1 */
} setcase_t;

/* The test program: test_begin's cases (seed, n by default), each made by
** make and checked by setcase_check with algo (named name) on a context of
** 1 and one of 3 threads; describe prints a failing case. Returns the
** exit status. */
int setcase_main(const char *test, int argc, char **argv, uint64_t seed, long n,
                 void (*describe)(const void *), void (*make)(setcase_t *), wm_algo_t algo,
                 const char *name);

/* One record (40%) or 2..11 with borders anywhere, sorted; n_rec + 1
** starts, the last n_text (malloc'd). */
uint64_t *setcase_records(size_t n_text, size_t *n_rec);

/* Half the letters of text[0, len) turned upper case (a planted copy that a
** case-insensitive set must still find). */
void setcase_other_case(uint8_t *text, size_t len);

/* The case (c, for the harness's messages) checked: the oracle's matches of
** the set over t, against `algo` (named name) and AUTO, on the fixed
** contexts and a 3-thread one with chunks of 1..64 bytes. */
void setcase_check(long idx, const void *c, const uint8_t *const *pats, const size_t *lens,
                   size_t np, int icase, const wm_text_t *t, wm_algo_t algo, const char *name,
                   const fixed_set *fixed);

#endif
