/*
** align_shard.c -- wm_align's infix mode over several devices: the target
** cut among the sub-contexts of a multi-device context (core/shard.h) by
** the even plan of core/plan.h, and their answers merged into one device's.
**
** The ends 0 .. n are cut into parts (lo, hi] (part 0 also owns end 0) and
** part i aligns against target[lo - h, hi), h = min(lo, m + min(k, m)): an
** owned end's distance is exact there (an alignment with d <= min(k, m)
** edits is at most m + d long) and a halo end's can only be too large. So a
** part whose best (leftmost) end is owned has the best of its own ends. One
** whose best end e_h lies in the halo, at distance d, has owned ends at d or
** worse; e_h's true distance is <= d, and e_h belongs to a part before.
** Without all_ends such a part gives nothing: if the answer's distance is d,
** e_h (or an end before it) reaches it left of every end here. With all_ends
** its list holds every end at d: it keeps the owned ones (at the answer's
** distance d they are part of the answer). So no part ever runs twice. The
** answer: the smallest distance the parts give; the lowest part's end at
** it, or with all_ends every part's ends at it, in part order.
*/
#include <stdlib.h>
#include <string.h>

#include "align/align.h"
#include "core/plan.h"
#include "core/shard.h"

typedef struct {
    uint64_t lo, hi;     /* owned ends: lo < e <= hi, and part 0 owns 0 */
    uint64_t base;       /* the part's target is target[base, hi) */
    wm_alignments_t got; /* its part of the answer, global coordinates:
                            all at one distance */
    wm_status st;
} part_t;

typedef struct {
    const uint8_t *query;
    size_t m;
    const uint8_t *target;
    const wm_align_opts_t *o;
    part_t *part;
} job_t;

static int owns_end(const part_t *p, uint64_t e) {
    return (e > p->lo && e <= p->hi) || (p->lo == 0 && e == 0);
}

/* Keep the alignments of r from index `from` on, moved by `shift`. */
static void keep_from(wm_alignments_t *r, size_t from, uint64_t shift) {
    for (size_t x = 0; x < from; x++) free(r->a[x].cigar);
    memmove(r->a, r->a + from, (r->n - from) * sizeof *r->a);
    r->n -= from;
    for (size_t x = 0; x < r->n; x++) {
        r->a[x].start += shift;
        r->a[x].end += shift;
    }
}

static void run_part(void *arg, int i, wm_context_t *sub) {
    job_t *J = arg;
    part_t *p = &J->part[i];
    if (i > 0 && p->lo == p->hi) return; /* part 0 runs even for n = 0: end 0 */
    const uint8_t *t = J->target ? J->target + p->base : NULL;
    p->st = wm_align(sub, J->query, J->m, t, p->hi - p->base, J->o, &p->got);
    if (p->st != WM_OK || p->got.n == 0) return;
    /* Keep the owned ends: they come in increasing order, the halo's first.
    ** Without all_ends there is one end, so a best end in the halo leaves
    ** nothing, as it should (the file's head says why). */
    size_t x = 0;
    while (x < p->got.n && !owns_end(p, p->got.a[x].end + p->base)) x++;
    keep_from(&p->got, x, p->base);
}

/* The answer: the best distance over the parts; without all_ends the part of
** the lowest part that has it (its leftmost end), with all_ends every part at
** that distance, in part order (= end order). */
static wm_status merge(job_t *J, int n, wm_alignments_t *out) {
    uint64_t best = UINT64_MAX;
    size_t total = 0;
    for (int i = 0; i < n; i++)
        if (J->part[i].got.n && J->part[i].got.a[0].distance < best)
            best = J->part[i].got.a[0].distance;
    for (int i = 0; i < n; i++)
        if (J->part[i].got.n && J->part[i].got.a[0].distance == best) total += J->part[i].got.n;
    if (total == 0) return WM_OK;
    if (!J->o->all_ends) total = 1;
    if (!(out->a = malloc(total * sizeof *out->a))) return WM_NOMEM;
    for (int i = 0; i < n && out->n < total; i++) {
        wm_alignments_t *g = &J->part[i].got;
        if (!g->n || g->a[0].distance != best) continue;
        memcpy(out->a + out->n, g->a, g->n * sizeof *g->a); /* the CIGARs move too */
        out->n += g->n;
        free(g->a);
        g->a = NULL;
        g->n = 0;
    }
    return WM_OK;
}

wm_status wm_align_shard_infix(wm_context_t *cx, const uint8_t *query, size_t m,
                               const uint8_t *target, uint64_t n, const wm_align_opts_t *o,
                               wm_alignments_t *out) {
    int ns = cx->n_sub;
    job_t J = { query, m, target, o, NULL };
    if (!(J.part = calloc((size_t)ns, sizeof *J.part))) return WM_NOMEM;
    int64_t k = o->max_distance;
    uint64_t reach = m + ((k < 0 || (uint64_t)k > m) ? m : (uint64_t)k);
    wm_plan_t plan = wm_plan_even(0, n, (uint64_t)ns);
    for (int i = 0; i < ns; i++) {
        part_t *p = &J.part[i];
        if (plan.n) wm_plan_part(&plan, (uint64_t)i, &p->lo, &p->hi);
        p->base = p->lo > reach ? p->lo - reach : 0;
    }
    wm_shard_run(cx, run_part, &J);
    wm_status st = WM_OK;
    for (int i = 0; i < ns && st == WM_OK; i++)
        if (J.part[i].st != WM_OK) st = wm_shard_error(cx, i, J.part[i].st, NULL, 0, 0);
    if (st == WM_OK) st = merge(&J, ns, out);
    for (int i = 0; i < ns; i++) wm_alignments_free(&J.part[i].got);
    free(J.part);
    return st;
}
