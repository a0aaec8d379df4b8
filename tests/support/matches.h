/*
** matches.h -- match lists of wm_search: the databases they come from,
** collecting them from the callback (and stopping after N, to test
** WM_STOPPED), and comparing the library's list with an oracle's or a
** reference context's, field by field, a failure showing the first
** difference.
*/
#ifndef WM_TEST_MATCHES_H
#define WM_TEST_MATCHES_H

#include <stddef.h>
#include <stdio.h>

#include "warpmatch.h"

typedef struct {
    wm_match_t *a;
    size_t n, cap;
    size_t stop_after; /* the callback returns non-zero on this call (1-based); 0: never */
} match_vec;

/* wm_compile of a C string (o NULL: the defaults); a check that passes when
** it compiles. Returns the database or NULL. */
wm_db_t *compile_text(const char *pat, const wm_opts_t *o);

/* The wm_match_cb that appends to the match_vec `user`. */
int collect(const wm_match_t *x, void *user);

/* Every field equal. */
int same_match(const wm_match_t *a, const wm_match_t *b);

/* Sort a[0, n) into wm_search's order: (record, end, pattern, strand). */
void sort_matches(wm_match_t *a, size_t n);

/* "    tag: record R start S end E errors K strand D pattern P", or "(none)". */
void print_match(FILE *f, const char *tag, const wm_match_t *x);

/* Passes when got[0, n_got) is want[0, n_want), else a failure of case idx
** (c for its description) under `what`, with the first match that differs.
** Returns whether they were the same. */
int compare_matches(long idx, const void *c, const char *what, const wm_match_t *got, size_t n_got,
                    const wm_match_t *want, size_t n_want);

/* wm_search of db over t on cx, its list in *got (emptied first) checked
** against want[0, n_want) under `what`; then, in count_pct % of the calls
** (a chance drawn only after a search that ran), wm_count against n_want,
** a second check. *t_search (may be NULL) gains the search's wall time.
** Returns wm_search's status. */
int search_checked(long idx, const void *c, const char *what, wm_context_t *cx, const wm_db_t *db,
                   const wm_text_t *t, match_vec *got, const wm_match_t *want, size_t n_want,
                   unsigned count_pct, double *t_search);

/* What an oracle's match lists held, over the cases: how many cases, with
** matches, on strand 1, in a record after the first; how many matches. */
typedef struct {
    long cases, with_matches, strand1, multi_rec;
    uint64_t matches;
} match_cover;
void note_matches(match_cover *cov, const wm_match_t *w, size_t n);

/* A case's text for a report: its bytes (80 of them unless WM_VERBOSE) and,
** with WM_VERBOSE, its record starts. */
void print_text(const uint8_t *text, size_t n, const uint64_t *rec_start, size_t n_rec);

#endif /* WM_TEST_MATCHES_H */
