/*
** gpu_finish.c -- the host's half of a set within k errors on the GPU: the
** batches of owned ends, and each batch's hits (pattern, strand, end,
** errors; any order) turned into matches and delivered in order.
**
** The GPU finds ends and errors (the middle's, with exact regions); the
** regions are checked and starts are found here by the pattern's own
** resolver (search/resolve.c), as the CPU path finds them, so both print the
** same bytes. Hits are sorted by (pattern, strand, end) so that a piece of
** them on the pool compiles each pattern once, then the matches by (end,
** pattern, strand): the order wm_search promises (records follow ends).
*/
#include <stdlib.h>
#include <string.h>

#include "core/plan.h"
#include "search/search.h"
#include "setk/setk.h"

#define BATCH_DEFAULT (64ull << 20)
#define BATCH_MIN (1ull << 20)
#define FINISH_PIECE 4096

typedef struct {
    const wm_setk_t *s;
    const wm_text_t *text;
    const uint64_t *rs;
    size_t n_rec;
    const wm_setk_hit_t *hits;
    size_t n;
    int want_starts;
    wm_matchvec_t *out; /* one per piece */
    int failed;
} finish_t;

static int by_pattern(const void *x, const void *y) {
    const wm_setk_hit_t *p = x, *q = y;
    if (p->pat != q->pat) return p->pat < q->pat ? -1 : 1;
    if (p->strand != q->strand) return p->strand < q->strand ? -1 : 1;
    return p->end < q->end ? -1 : p->end > q->end;
}

static int by_end(const void *x, const void *y) {
    const wm_match_t *p = x, *q = y;
    if (p->record != q->record) return p->record < q->record ? -1 : 1;
    if (p->end != q->end) return p->end < q->end ? -1 : 1;
    if (p->pattern != q->pattern) return p->pattern < q->pattern ? -1 : 1;
    return p->strand < q->strand ? -1 : p->strand > q->strand;
}

static void finish_piece(void *arg, size_t i, int tid) {
    (void)tid;
    finish_t *f = arg;
    size_t lo = i * FINISH_PIECE, hi = lo + FINISH_PIECE < f->n ? lo + FINISH_PIECE : f->n;
    wm_pat_t *p = NULL;
    uint32_t compiled = UINT32_MAX;
    for (size_t x = lo; x < hi; x++) {
        const wm_setk_hit_t *h = &f->hits[x];
        if (x > 0 && h->pat == h[-1].pat && h->strand == h[-1].strand && h->end == h[-1].end)
            continue; /* once each */
        size_t r = wm_plan_record_of_end(f->rs, f->n_rec, h->end);
        uint64_t rb = f->rs[r];
        wm_match_t mt;
        memset(&mt, 0, sizeof mt);
        mt.record = r;
        mt.end = h->end - rb;
        mt.errors = h->errors;
        mt.strand = h->strand;
        mt.pattern = h->pat;
        int regions = f->s->opts.exact_prefix || f->s->opts.exact_suffix;
        if ((f->want_starts || regions) && compiled != h->pat) {
            wm_pat_free(p);
            p = NULL;
            if (wm_pat_new(f->s->pat[h->pat], f->s->len[h->pat], &f->s->opts, 0, &p) != WM_OK) {
                f->failed = 1;
                break;
            }
            compiled = h->pat;
        }
        if (regions) { /* h is the middle's end: the exact regions decide, as on the CPU */
            uint64_t start = rb, end;
            uint32_t errors;
            if (!wm_flanks_finish(p, (int)h->strand, f->text->seq, rb, f->rs[r + 1], h->end,
                                  h->errors, f->want_starts, &start, &end, &errors))
                continue;
            mt.start = start - rb;
            mt.end = end - rb;
            mt.errors = errors;
        } else if (f->want_starts) {
            uint64_t start;
            uint32_t errors;
            if (!wm_resolve_end(p, (int)h->strand, f->text->seq, rb, h->end, (int)h->errors, &start,
                                &errors))
                continue;
            mt.start = start - rb;
            mt.errors = errors;
        }
        if (wm_matchvec_push(&f->out[i], &mt)) {
            f->failed = 1;
            break;
        }
    }
    wm_pat_free(p);
}

/* Turn one batch's hits into matches and deliver them in order. */
static wm_status finish(wm_context_t *cx, finish_t *f, wm_setk_sink_t *dv) {
    if (f->n == 0) return WM_OK;
    wm_setk_hit_t *h = (wm_setk_hit_t *)f->hits;
    qsort(h, f->n, sizeof *h, by_pattern);
    size_t pieces = (f->n + FINISH_PIECE - 1) / FINISH_PIECE;
    f->out = calloc(pieces, sizeof *f->out);
    if (!f->out) return WM_NOMEM;
    f->failed = 0;
    wm_pool_for(cx->pool, pieces, finish_piece, f);
    wm_matchvec_t all = { 0 };
    wm_status st = f->failed ? WM_NOMEM : WM_OK;
    for (size_t i = 0; i < pieces && st == WM_OK; i++)
        for (size_t x = 0; x < f->out[i].n && st == WM_OK; x++)
            if (wm_matchvec_push(&all, &f->out[i].a[x])) st = WM_NOMEM;
    for (size_t i = 0; i < pieces; i++) wm_matchvec_free(&f->out[i]);
    free(f->out);
    f->out = NULL;
    if (st == WM_OK && all.n > 1) qsort(all.a, all.n, sizeof *all.a, by_end);
    if (st == WM_OK) st = wm_setk_deliver(dv, &all);
    wm_matchvec_free(&all);
    return st;
}

wm_status wm_setk_gpu_scan(wm_context_t *cx, const wm_setk_gpu_t *gpu, const wm_setk_t *s,
                           const wm_text_t *text, const uint64_t *rs, size_t n_rec,
                           uint64_t own_from, wm_setk_sink_t *dv, uint64_t *done) {
    *done = own_from;
    uint64_t batch = cx->opts.chunk_bytes ? cx->opts.chunk_bytes : BATCH_DEFAULT;
    if (batch > BATCH_DEFAULT) batch = BATCH_DEFAULT; /* a batch's ends fit 32 bits on the GPU */
    batch = wm_gpu_piece(cx, batch, BATCH_MIN);       /* smaller after running out of memory */
    uint64_t len = text->len;
    wm_status st = WM_OK;
    for (uint64_t lo = own_from; lo < len && st == WM_OK;) {
        uint64_t hi = len - lo > batch ? lo + batch : len;
        finish_t f;
        memset(&f, 0, sizeof f);
        f.s = s;
        f.text = text;
        f.rs = rs;
        f.n_rec = n_rec;
        f.want_starts = dv->cb != NULL;
        wm_setk_hit_t *hits = NULL;
        st = gpu->batch(cx, s, text, rs, n_rec, lo, hi, &hits, &f.n);
        f.hits = hits;
        double t0 = wm_now();
        if (st == WM_OK) st = finish(cx, &f, dv);
        cx->stats.setk_gpu_finish_s += wm_now() - t0;
        cx->stats.setk_gpu_batches++;
        free(hits);
        if (st != WM_OK) break;
        lo = hi;
        *done = hi;
        if (cx->opts.progress)
            cx->opts.progress(hi - own_from, len - own_from, cx->opts.progress_user);
    }
    return st;
}
