/*
** matches.h -- match lists of wm_search: collecting them from the callback
** (and stopping after N, to test WM_STOPPED), and comparing the library's
** list with an oracle's or a reference context's, field by field, a
** failure showing the first difference.
*/
#ifndef WM_TEST_MATCHES_H
#define WM_TEST_MATCHES_H

#include <stddef.h>
#include <stdio.h>

#include "warpmatch.h"

typedef struct {
    wm_match_t *a;
    size_t n, cap;
    size_t stop_after;    /* the callback returns non-zero on this call (1-based); 0: never */
} match_vec;

/* The wm_match_cb that appends to the match_vec `user`. */
int collect(const wm_match_t *x, void *user);

/* Every field equal. */
int same_match(const wm_match_t *a, const wm_match_t *b);

/* "    tag: record R start S end E errors K strand D pattern P", or "(none)". */
void print_match(FILE *f, const char *tag, const wm_match_t *x);

/* Passes when got[0, n_got) is want[0, n_want), else a failure of case idx
** (c for its description) under `what`, with the first match that differs.
** Returns whether they were the same. */
int compare_matches(long idx, const void *c, const char *what, const wm_match_t *got,
                    size_t n_got, const wm_match_t *want, size_t n_want);

#endif /* WM_TEST_MATCHES_H */
