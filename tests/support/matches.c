/*
** matches.c -- collecting and comparing match lists (matches.h).
*/
#include "matches.h"

#include <inttypes.h>

#include "harness.h"

int collect(const wm_match_t *x, void *user)
{
    match_vec *v = user;
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 256;
        v->a = xrealloc(v->a, v->cap * sizeof *v->a);
    }
    v->a[v->n++] = *x;
    return v->stop_after != 0 && v->n >= v->stop_after;
}

int same_match(const wm_match_t *a, const wm_match_t *b)
{
    return a->record == b->record && a->start == b->start && a->end == b->end &&
           a->errors == b->errors && a->strand == b->strand && a->pattern == b->pattern;
}

void print_match(FILE *f, const char *tag, const wm_match_t *x)
{
    if (x == NULL)
        fprintf(f, "    %s: (none)\n", tag);
    else
        fprintf(f, "    %s: record %" PRIu64 " start %" PRIu64 " end %" PRIu64
                   " errors %u strand %u pattern %u\n",
                tag, x->record, x->start, x->end, x->errors, x->strand, x->pattern);
}

int compare_matches(long idx, const void *c, const char *what, const wm_match_t *got,
                    size_t n_got, const wm_match_t *want, size_t n_want)
{
    size_t i = 0;
    while (i < n_got && i < n_want && same_match(&got[i], &want[i]))
        i++;
    if (i == n_got && i == n_want) {
        g_passed++;
        return 1;
    }
    fail_fmt(idx, c, "%s: %zu matches, expected %zu; first difference at #%zu", what, n_got,
             n_want, i);
    if (g_failed <= MAX_DETAILED_FAILURES) {
        print_match(stdout, "expected", i < n_want ? &want[i] : NULL);
        print_match(stdout, "library ", i < n_got ? &got[i] : NULL);
    }
    return 0;
}
