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
** Both sorts are radix sorts of 16-byte keyed records (radix.c): 10 M hits
** of a guide set were sorted twice by qsort, most of the host's time.
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
    uint64_t lo;         /* the batch owns the ends past lo */
    const uint8_t *need; /* [n] the hit needs its start, or NULL: all do (loci_starts) */
    wm_matchvec_t *out;  /* one per piece */
    int failed;
} finish_t;

/* A record to radix-sort (radix.c): the key, and what it orders. */
typedef struct {
    uint64_t key;
    uint64_t at; /* hits: the errors; matches: piece << 32 | index in it */
} keyed_t;

/* Sort the hits by (pattern, strand, end) in place: a key of pattern,
** strand and the end from the batch's first, radix-sorted (a batch's ends
** span under 2^27 and patterns take 30 bits at most: supports). -1 out of
** memory. */
static int sort_by_pattern(wm_pool_t *pool, const wm_setk_t *s, wm_setk_hit_t *h, size_t n) {
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t x = 0; x < n; x++) {
        if (h[x].end < lo) lo = h[x].end;
        if (h[x].end > hi) hi = h[x].end;
    }
    unsigned eb = wm_setk_bits_for(hi - lo);
    keyed_t *k = malloc(n * sizeof *k);
    if (!k) return -1;
    for (size_t x = 0; x < n; x++) {
        k[x].key = (uint64_t)h[x].pat << (eb + 1) | (uint64_t)h[x].strand << eb | (h[x].end - lo);
        k[x].at = h[x].errors;
    }
    if (wm_setk_radix_sort_on(pool, k, n, sizeof *k, eb + 1 + s->pat_bits)) {
        free(k);
        return -1;
    }
    const uint64_t end_mask = ((uint64_t)1 << eb) - 1;
    for (size_t x = 0; x < n; x++) {
        h[x].end = lo + (k[x].key & end_mask);
        h[x].strand = (uint32_t)(k[x].key >> eb) & 1u;
        h[x].pat = (uint32_t)(k[x].key >> (eb + 1));
        h[x].errors = (uint32_t)k[x].at;
    }
    free(k);
    return 0;
}

/* The matches of a batch in the order wm_search promises, (record, end,
** pattern, strand): a record's ends follow its start, so the absolute end
** orders records and ends at once. Into *out (malloc'd); -1 out of memory. */
static int sort_by_end(wm_pool_t *pool, const wm_setk_t *s, const uint64_t *rs,
                       const wm_matchvec_t *v, size_t n, size_t pieces, wm_match_t **out) {
    *out = NULL;
    if (n == 0) return 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < pieces; i++)
        for (size_t x = 0; x < v[i].n; x++) {
            uint64_t e = rs[v[i].a[x].record] + v[i].a[x].end;
            if (e < lo) lo = e;
            if (e > hi) hi = e;
        }
    unsigned pb = s->pat_bits + 1, eb = wm_setk_bits_for(hi - lo);
    keyed_t *k = malloc(n * sizeof *k);
    wm_match_t *m = malloc(n * sizeof *m);
    if (!k || !m) {
        free(k);
        free(m);
        return -1;
    }
    size_t y = 0;
    for (size_t i = 0; i < pieces; i++)
        for (size_t x = 0; x < v[i].n; x++, y++) {
            const wm_match_t *a = &v[i].a[x];
            k[y].key = (rs[a->record] + a->end - lo) << pb | (uint64_t)a->pattern << 1 | a->strand;
            k[y].at = (uint64_t)i << 32 | x; /* a piece holds FINISH_PIECE at most */
        }
    if (wm_setk_radix_sort_on(pool, k, n, sizeof *k, eb + pb)) {
        free(k);
        free(m);
        return -1;
    }
    for (size_t x = 0; x < n; x++) m[x] = v[k[x].at >> 32].a[k[x].at & 0xffffffffu];
    free(k);
    *out = m;
    return 0;
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
        if (f->need != NULL && !f->need[x]) { /* a stand-in (setk/loci.c) */
            mt.start = wm_setk_loci_stand_in(h->end, f->s->len[h->pat], f->s->opts.max_edits) - rb;
            if (wm_matchvec_push(&f->out[i], &mt)) {
                f->failed = 1;
                break;
            }
            continue;
        }
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

/* With tuning.loci_starts, which hits (sorted by pattern, strand and end)
** need their start (setk/loci.c): each run of one pattern, strand and record
** at once, duplicates skipped. *need malloc'd, NULL when all do; -1 out of
** memory. */
static int loci_needs(wm_context_t *cx, finish_t *f, uint8_t **need) {
    const wm_setk_t *s = f->s;
    *need = NULL;
    if (!cx->tuning.loci_starts || !f->want_starts || s->opts.metric != WM_METRIC_EDIT ||
        s->opts.exact_prefix || s->opts.exact_suffix)
        return 0;
    const wm_setk_hit_t *h = f->hits;
    uint8_t *nd = calloc(f->n, 1);
    wm_hit_t *g = NULL; /* one group's hits, each once (grown to the largest group) */
    size_t *at = NULL, cap = 0;
    uint8_t *gn = NULL;
    int rc = nd ? 0 : -1;
    for (size_t x = 0, y; x < f->n && rc == 0; x = y) {
        size_t r = wm_plan_record_of_end(f->rs, f->n_rec, h[x].end), n = 0;
        /* record r holds the ends in (rs[r], rs[r + 1]] */
        for (y = x; y < f->n && h[y].pat == h[x].pat && h[y].strand == h[x].strand &&
                    h[y].end <= f->rs[r + 1];
             y++)
            continue;
        if (y - x > cap) {
            cap = y - x;
            free(g);
            free(at);
            free(gn);
            g = malloc(cap * sizeof *g);
            at = malloc(cap * sizeof *at);
            gn = malloc(cap);
            if (!g || !at || !gn) {
                rc = -1;
                break;
            }
        }
        for (size_t z = x; z < y; z++) {
            if (z > x && h[z].end == h[z - 1].end) continue; /* once each */
            g[n].end = h[z].end;
            g[n].errors = h[z].errors;
            g[n].strand = h[z].strand;
            at[n++] = z;
        }
        wm_setk_loci_needs(g, n, s->len[h[x].pat], s->opts.max_edits, f->rs[r], f->lo, gn);
        for (size_t z = 0; z < n; z++) nd[at[z]] = gn[z];
    }
    free(g);
    free(at);
    free(gn);
    if (rc != 0) {
        free(nd);
        return -1;
    }
    *need = nd;
    return 0;
}

/* Turn one batch's hits into matches and deliver them in order (counted,
** in any order, when no callback lists them). */
static wm_status finish(wm_context_t *cx, finish_t *f, wm_setk_sink_t *dv) {
    if (f->n == 0) return WM_OK;
    wm_setk_hit_t *h = (wm_setk_hit_t *)f->hits;
    if (sort_by_pattern(cx->pool, f->s, h, f->n)) return WM_NOMEM;
    uint8_t *need;
    if (loci_needs(cx, f, &need)) return WM_NOMEM;
    f->need = need;
    size_t pieces = (f->n + FINISH_PIECE - 1) / FINISH_PIECE;
    f->out = calloc(pieces, sizeof *f->out);
    if (!f->out) {
        free(need);
        return WM_NOMEM;
    }
    f->failed = 0;
    wm_pool_for(cx->pool, pieces, finish_piece, f);
    free(need);
    f->need = NULL;
    wm_status st = f->failed ? WM_NOMEM : WM_OK;
    if (dv->cb == NULL) { /* counting: no order to keep */
        for (size_t i = 0; i < pieces && st == WM_OK; i++) st = wm_setk_deliver(dv, &f->out[i]);
    } else {
        size_t n = 0;
        for (size_t i = 0; i < pieces; i++) n += f->out[i].n;
        wm_match_t *sorted = NULL;
        if (st == WM_OK && sort_by_end(cx->pool, f->s, f->rs, f->out, n, pieces, &sorted))
            st = WM_NOMEM;
        wm_matchvec_t all = { sorted, n, n };
        if (st == WM_OK) st = wm_setk_deliver(dv, &all);
        free(sorted);
    }
    for (size_t i = 0; i < pieces; i++) wm_matchvec_free(&f->out[i]);
    free(f->out);
    f->out = NULL;
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
        f.lo = lo;
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
