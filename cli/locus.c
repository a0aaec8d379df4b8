/*
** locus.c -- --best-per-locus (search.h): one row per occurrence instead of
** one per end position.
**
** A locus is a set of matches of one pattern and strand within one record
** whose intervals [start, end) chain by overlap: two matches are in the
** same locus when they share a byte, and so is every match sharing a byte
** with any of them (transitively). Each locus prints one match: the one with
** the fewest errors, the leftmost end on ties.
**
** Matches come in (record, end, strand) order, but a locus can only be
** closed once no later match can reach it: a match is at most span = m + k
** bytes long (a set's longest pattern + k), so a later match (end >= e)
** starts at or after e - span, and
** a locus whose last byte is before that is final. A new match may join
** several open loci (its start reaches back over them): they merge. The
** chosen matches are printed in (end, strand) order, like every other
** output: one waits until no open locus could still choose an earlier end.
** Memory is the open loci and the waiting rows: a few per span of text.
*/
#include <stdlib.h>
#include <string.h>

#include "search.h"

struct wm_cli_locus_span {
    uint64_t lo, hi;    /* the union of the members' intervals */
    uint64_t first_end; /* the smallest end of a member */
    wm_match_t best;
};

void wm_cli_locus_init(wm_cli_locus_t *L, uint64_t span, wm_cli_emit_t emit, void *user) {
    memset(L, 0, sizeof *L);
    L->span = span;
    L->emit = emit;
    L->user = user;
}

void wm_cli_locus_free(wm_cli_locus_t *L) {
    free(L->open);
    free(L->ready);
    L->open = NULL;
    L->ready = NULL;
    L->n_open = L->n_ready = L->cap_open = L->cap_ready = 0;
}

/* a before b in the output: end, then pattern (a set's), then strand */
static int before(const wm_match_t *a, const wm_match_t *b) {
    if (a->end != b->end) return a->end < b->end;
    if (a->pattern != b->pattern) return a->pattern < b->pattern;
    return a->strand < b->strand;
}

/* The better of two matches of one locus: fewer errors, then the leftmost end. */
static int better(const wm_match_t *a, const wm_match_t *b) {
    return a->errors < b->errors || (a->errors == b->errors && a->end < b->end);
}

/* Move open locus i's match to the waiting rows, kept in output order. */
static int close_locus(wm_cli_locus_t *L, size_t i) {
    if (L->n_ready == L->cap_ready) {
        size_t cap = L->cap_ready ? 2 * L->cap_ready : 16;
        wm_match_t *r = realloc(L->ready, cap * sizeof *r);
        if (r == NULL) return -1;
        L->ready = r;
        L->cap_ready = cap;
    }
    wm_match_t m = L->open[i].best;
    size_t j = L->n_ready;
    while (j > 0 && before(&m, &L->ready[j - 1])) {
        L->ready[j] = L->ready[j - 1];
        --j;
    }
    L->ready[j] = m;
    L->n_ready++;
    L->open[i] = L->open[--L->n_open];
    return 0;
}

/* Print the waiting rows that no open locus can precede (all of them when
** all is set). Returns non-zero when the printer asked to stop. */
static int release(wm_cli_locus_t *L, int all) {
    uint64_t min_end = UINT64_MAX;
    if (!all)
        for (size_t i = 0; i < L->n_open; ++i)
            if (L->open[i].first_end < min_end) min_end = L->open[i].first_end;
    size_t k = 0;
    int stop = 0;
    while (k < L->n_ready && (all || L->ready[k].end < min_end) && !stop)
        stop = L->emit(L->user, &L->ready[k++]);
    if (k > 0) { /* (ready may still be NULL: nothing closed yet) */
        memmove(L->ready, L->ready + k, (L->n_ready - k) * sizeof *L->ready);
        L->n_ready -= k;
    }
    if (stop) L->stopped = 1;
    return stop;
}

/* Close every open locus and print everything: the end of a record. */
static int flush_all(wm_cli_locus_t *L) {
    while (L->n_open > 0)
        if (close_locus(L, L->n_open - 1) < 0) return -1;
    return release(L, 1);
}

int wm_cli_locus_push(wm_cli_locus_t *L, const wm_match_t *m) {
    if (L->stopped) return 1;
    if (L->any && m->record != L->rec) {
        int rc = flush_all(L);
        if (rc != 0) return rc;
    }
    L->rec = m->record;
    L->any = 1;
    /* loci no later match can reach */
    for (size_t i = 0; i < L->n_open;) {
        if (L->open[i].hi + L->span <= m->end) {
            if (close_locus(L, i) < 0) return -1;
        } else {
            ++i;
        }
    }
    struct wm_cli_locus_span nl = { m->start, m->end, m->end, *m };
    for (size_t i = 0; i < L->n_open;) {
        struct wm_cli_locus_span *o = &L->open[i];
        if (o->best.strand == m->strand && o->best.pattern == m->pattern && o->hi > m->start &&
            o->lo < m->end) {
            if (o->lo < nl.lo) nl.lo = o->lo;
            if (o->hi > nl.hi) nl.hi = o->hi;
            if (o->first_end < nl.first_end) nl.first_end = o->first_end;
            if (better(&o->best, &nl.best)) nl.best = o->best;
            L->open[i] = L->open[--L->n_open];
        } else {
            ++i;
        }
    }
    if (L->n_open == L->cap_open) {
        size_t cap = L->cap_open ? 2 * L->cap_open : 16;
        struct wm_cli_locus_span *o = realloc(L->open, cap * sizeof *o);
        if (o == NULL) return -1;
        L->open = o;
        L->cap_open = cap;
    }
    L->open[L->n_open++] = nl;
    return release(L, 0);
}

int wm_cli_locus_finish(wm_cli_locus_t *L) {
    if (L->stopped) return 0;
    int rc = flush_all(L);
    L->any = 0;
    return rc < 0 ? -1 : 0;
}
