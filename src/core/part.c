/*
** part.c -- a text's owned ends (lo, hi] laid out and scanned as a call of
** their own (part.h).
*/
#include <stdlib.h>
#include <string.h>

#include "core/part.h"
#include "core/plan.h"

int wm_part_layout(wm_part_t *p, const wm_text_t *t, const uint64_t *rs, size_t n_rec, uint64_t lo,
                   uint64_t hi, uint64_t halo) {
    memset(p, 0, sizeof *p);
    p->lo = lo;
    p->hi = hi;
    if (lo == hi) return 0; /* owns nothing */
    size_t r0 = wm_plan_first_record(rs, n_rec, lo);
    size_t r1 = wm_plan_record_of_end(rs, n_rec, hi);
    p->w_lo = wm_plan_scan_from(rs[r0], lo, halo);
    p->r0 = r0;
    p->clip = p->w_lo - rs[r0];
    size_t nr = r1 - r0 + 1;
    if (!(p->rs = malloc(nr * sizeof *p->rs))) return -1;
    p->rs[0] = 0;
    for (size_t j = 1; j < nr; j++) p->rs[j] = rs[r0 + j] - p->w_lo;
    p->text = (wm_text_t){ t->seq + p->w_lo, hi - p->w_lo, p->rs, nr };
    return 0;
}

void wm_part_free(wm_part_t *p) {
    free(p->rs);
    p->rs = NULL;
}

/* The runs of the part's scan, moved into the whole text's coordinates a
** run at a time. */
typedef struct {
    const wm_part_t *p;
    wm_matches_cb runs;
    void *user;
} globalise_t;

static int globalise(const wm_match_t *m, size_t n, void *arg) {
    globalise_t *g = arg;
    wm_match_t run[WM_BATCHER_RUN];
    while (n > 0) {
        size_t k = n < WM_BATCHER_RUN ? n : WM_BATCHER_RUN;
        for (size_t i = 0; i < k; i++) run[i] = wm_part_to_global(g->p, &m[i]);
        if (g->runs(run, k, g->user)) return 1;
        m += k;
        n -= k;
    }
    return 0;
}

wm_status wm_part_scan(wm_context_t *cx, const wm_db_t *db, const wm_part_t *p, wm_matches_cb runs,
                       void *user, uint64_t *n_matches, uint64_t *per_pattern) {
    if (n_matches) *n_matches = 0;
    if (per_pattern) memset(per_pattern, 0, db->n_patterns * sizeof *per_pattern);
    if (p->lo == p->hi) return WM_OK;
    uint64_t own_from = p->lo - p->w_lo;
    if (runs) {
        globalise_t g = { p, runs, user };
        return wm_scan_owned_batches(cx, db, &p->text, own_from, globalise, &g);
    }
    return wm_scan_owned(cx, db, &p->text, own_from, NULL, NULL, n_matches, per_pattern);
}
