/*
** gpu_finish.c -- the host's half of a set within k errors on the GPU: the
** batches of owned ends, and each batch's hits (pattern, strand, end,
** errors; any order) turned into matches and delivered in order.
**
** The GPU finds ends and errors (the middle's, with exact regions); the
** regions are checked and starts are found here by the pattern's own
** resolver (search/resolve.c), as the CPU path finds them, so both print the
** same bytes. A batch's hits are cut into segments of their matches' ends
** and sorted by (segment, pattern, strand, end) on the pool, so that a
** segment compiles each of its patterns once; each segment's matches are
** then sorted by (end, pattern, strand), the order wm_search promises
** (records follow ends), and the segments run in waves (finish()). The
** sorts are radix sorts of 16-byte keyed records (radix.c): 10 M hits of a
** guide set were sorted twice by qsort, most of the host's time.
**
** On DNA the hits come from the GPU already in order, as 64-bit keys
** (setk.h, wm_setk_key_layout_t): Hamming needs no pattern compiled and no
** start searched, and with edits (no exact regions) the GPU found each
** start too. The host cuts the keys into segments by binary search and only
** turns them into matches (finish_keys). A batch's hits land in a buffer
** its slot keeps from batch to batch, not in fresh memory faulted in each
** time. Edit sets with exact regions (the CPU runs those) and sets whose
** keys would not fit 64 bits come as hits.
**
** Batches of 16 MiB: while the host finishes one, the GPU runs the next
** on a thread of its own (a million reads against chrX: 1.5 s of the GPU's
** seeds and verification, 2.0 s of the host's, one after the other in two
** batches of up to 64 MiB).
**
** A batch owns its matches' ends (with exact regions the GPU's direct scan
** takes the middles whose match ends in the batch: direct_cuda.cu), so the
** batches' matches follow each other in order; within a batch a hit's
** segment is its match's end's, the middle's end + suf[strand].
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/plan.h"
#include "core/waves.h"
#include "search/search.h"
#include "setk/setk.h"

#define BATCH_DEFAULT (16ull << 20) /* several batches, the GPU's overlapping the host's */
#define BATCH_MAX (64ull << 20)
#define BATCH_MIN (1ull << 20)

typedef struct {
    const wm_setk_t *s;
    const wm_text_t *text;
    const uint64_t *rs;
    size_t n_rec;
    wm_setk_hit_t *hits;  /* sorted by (segment, pattern, strand, end) */
    const uint64_t *keys; /* or, with a layout, the GPU's sorted keys */
    const uint16_t *lens; /* and with edits their occurrences' lengths */
    size_t n;
    const wm_setk_key_layout_t *layout; /* keys' (NULL: hits) */
    int want_starts, loci;              /* loci: starts only where a locus reads them */
    int by_end;         /* Hamming on DNA: sorted by segment alone (into_segments) */
    uint64_t lo;        /* the batch owns the matches' ends past lo */
    unsigned seg_shift; /* a segment holds 2^seg_shift final ends */
    wm_plan_t plan;     /* the segments: ends (lo + i 2^seg_shift, ...] */
    size_t *first;      /* [plan.n + 1] each segment's first hit */
} finish_t;

/* How far past a hit's end its match ends: with exact regions the hit's end
** is the middle's, and the match ends suf[strand] later (setk.h). */
static uint64_t shift_of(const wm_setk_t *s, uint32_t strand) {
    return s->opts.exact_prefix || s->opts.exact_suffix ? s->suf[strand & 1] : 0;
}

/* ---- 1. the hits in segments --------------------------------------------------- */

/* Slices of the hits for the pool's threads. */
typedef struct {
    finish_t *f;
    wm_setk_keyed_t *k;
    size_t slices;
    int back; /* final_ends: from the final ends back to the middle's */
} keying_t;

static void slice_of(size_t n, size_t slices, size_t i, size_t *lo, size_t *hi) {
    *lo = n * i / slices;
    *hi = n * (i + 1) / slices;
}

/* key = final end's segment, pattern, strand, end within the segment:
** (final end - lo - 1) split around the pattern and strand. */
static void key_hits(void *arg, size_t i, int tid) {
    (void)tid;
    const keying_t *K = arg;
    const finish_t *f = K->f;
    size_t a, b;
    slice_of(f->n, K->slices, i, &a, &b);
    const uint64_t low = ((uint64_t)1 << f->seg_shift) - 1;
    const unsigned pb = f->s->pat_bits + 1;
    for (size_t x = a; x < b; x++) {
        const wm_setk_hit_t *h = &f->hits[x];
        uint64_t e = h->end + shift_of(f->s, h->strand) - f->lo - 1; /* the final end's */
        K->k[x].key = (e >> f->seg_shift) << (pb + f->seg_shift) |
                      ((uint64_t)h->pat << 1 | h->strand) << f->seg_shift | (e & low);
        K->k[x].at = h->errors;
    }
}

static void unkey_hits(void *arg, size_t i, int tid) {
    (void)tid;
    const keying_t *K = arg;
    finish_t *f = K->f;
    size_t a, b;
    slice_of(f->n, K->slices, i, &a, &b);
    const uint64_t low = ((uint64_t)1 << f->seg_shift) - 1;
    const unsigned pb = f->s->pat_bits + 1;
    for (size_t x = a; x < b; x++) {
        uint64_t key = K->k[x].key, ps = key >> f->seg_shift & (((uint64_t)1 << pb) - 1);
        uint64_t e = (key >> (pb + f->seg_shift)) << f->seg_shift | (key & low);
        wm_setk_hit_t *h = &f->hits[x];
        h->pat = (uint32_t)(ps >> 1);
        h->strand = (uint32_t)(ps & 1);
        h->errors = (uint32_t)K->k[x].at;
        h->end = f->lo + 1 + e - shift_of(f->s, h->strand); /* the middle's again */
    }
}

/* Hamming on DNA: a hit's end as its final end's offset in the batch (the
** sort's key: the segment is its high bits), or, with K->back, again. */
static void final_ends(void *arg, size_t i, int tid) {
    (void)tid;
    const keying_t *K = arg;
    size_t a, b;
    slice_of(K->f->n, K->slices, i, &a, &b);
    for (size_t x = a; x < b; x++) {
        wm_setk_hit_t *h = &K->f->hits[x];
        uint64_t shift = shift_of(K->f->s, h->strand);
        h->end = K->back ? K->f->lo + 1 + h->end - shift : h->end + shift - K->f->lo - 1;
    }
}

/* Sort the hits by (segment of the final end, pattern, strand, end), and
** find where each segment begins. A Hamming hit on DNA becomes its match
** without its pattern (hamming_match), so those are sorted by segment
** alone: one pass over the records themselves, where the full key took
** three over 16-byte copies (the segment's matches are sorted anyway, and
** repeats dropped there). -1 out of memory. */
static int into_segments(wm_pool_t *pool, finish_t *f) {
    const wm_setk_t *s = f->s;
    size_t slices = 4 * (size_t)wm_pool_size(pool);
    if (slices > f->n / 4096 + 1) slices = f->n / 4096 + 1;
    keying_t K = { f, NULL, slices, 0 };
    f->first = malloc((f->plan.n + 1) * sizeof *f->first);
    if (!f->first) return -1; /* (finish frees first) */
    int rc;
    if (f->by_end) {
        wm_pool_for(pool, K.slices, final_ends, &K);
        unsigned bits = f->seg_shift + wm_setk_bits_for(f->plan.n - 1);
        rc = wm_setk_radix_sort_bits_on(pool, f->hits, f->n, sizeof *f->hits, f->seg_shift, bits);
        K.back = 1;
        wm_pool_for(pool, K.slices, final_ends, &K);
    } else {
        if (!(K.k = malloc((f->n ? f->n : 1) * sizeof *K.k))) return -1;
        wm_pool_for(pool, K.slices, key_hits, &K);
        /* the key's bits: segment, then pattern and strand, then the end's low bits */
        unsigned bits = wm_setk_bits_for(f->plan.n - 1) + s->pat_bits + 1 + f->seg_shift;
        rc = wm_setk_radix_sort_on(pool, K.k, f->n, sizeof *K.k, bits);
        if (rc == 0) wm_pool_for(pool, K.slices, unkey_hits, &K);
        free(K.k);
    }
    if (rc != 0) return -1;
    /* segment i's hits: final ends in (lo + i 2^shift, lo + (i + 1) 2^shift] */
    for (size_t i = 0, x = 0; i <= f->plan.n; i++) {
        while (x < f->n &&
               (f->hits[x].end + shift_of(s, f->hits[x].strand) - f->lo - 1) >> f->seg_shift < i)
            x++;
        f->first[i] = x;
    }
    return 0;
}

/* The first of the GPU's sorted keys at or past key (binary search). */
static size_t first_key(const uint64_t *keys, size_t n, uint64_t key) {
    size_t a = 0, b = n;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (keys[mid] < key) a = mid + 1;
        else b = mid;
    }
    return a;
}

/* With keys: where each segment begins, the keys already in order; those
** past the span (hits out of the batch) are left out. -1 out of memory. */
static int keys_into_segments(finish_t *f) {
    const wm_setk_key_layout_t *L = f->layout;
    f->first = malloc((f->plan.n + 1) * sizeof *f->first);
    if (!f->first) return -1;
    size_t n = first_key(f->keys, f->n, L->span << L->end_shift);
    for (size_t i = 0; i < f->plan.n; i++) {
        size_t x = first_key(f->keys, n, ((uint64_t)i << f->seg_shift) << L->end_shift);
        f->first[i] = x;
    }
    f->first[f->plan.n] = n;
    return 0;
}

/* ---- 2. a segment finished --------------------------------------------------------- */

/* Which hits of a segment (sorted by pattern, strand and end) need their
** start (setk/loci.c): each run of one pattern, strand and record at once,
** duplicates skipped; the segment's first end is the border the rule
** guards. need[x - a]. -1 out of memory. */
static int segment_needs(const finish_t *f, size_t a, size_t b, uint64_t seg_lo, uint8_t *need) {
    const wm_setk_hit_t *h = f->hits;
    const wm_setk_t *s = f->s;
    wm_hit_t *g = malloc((b - a ? b - a : 1) * sizeof *g);
    size_t *at = malloc((b - a ? b - a : 1) * sizeof *at);
    uint8_t *gn = malloc(b - a ? b - a : 1);
    int rc = g && at && gn ? 0 : -1;
    for (size_t x = a, y; x < b && rc == 0; x = y) {
        size_t r = wm_plan_record_of_end(f->rs, f->n_rec, h[x].end), n = 0;
        /* record r holds the ends in (rs[r], rs[r + 1]] */
        for (y = x; y < b && h[y].pat == h[x].pat && h[y].strand == h[x].strand &&
                    h[y].end <= f->rs[r + 1];
             y++)
            continue;
        for (size_t z = x; z < y; z++) {
            if (z > x && h[z].end == h[z - 1].end) continue; /* once each */
            g[n].end = h[z].end;
            g[n].errors = h[z].errors;
            g[n].strand = h[z].strand;
            at[n++] = z;
        }
        wm_setk_loci_needs(g, n, s->len[h[x].pat], s->opts.max_edits, f->rs[r], seg_lo, gn);
        for (size_t z = 0; z < n; z++) need[at[z] - a] = gn[z];
    }
    free(g);
    free(at);
    free(gn);
    return rc;
}

/* A Hamming hit on DNA as its match (pattern pat on strand st, its match
** ending at e, the middle's end + suf): an occurrence is the m bytes before
** e, its errors the middle's (the GPU's), its regions exact
** (wm_pat_accepts, as the resolver's wm_flanks_finish checks them): nothing
** to compile. 10,000 guides' 13 million hits had compiled their pattern a
** segment each, about five million compiles. 1 with start and end in *mt, 0
** when the regions or the record's bounds (rb, re] refuse it. */
static int hamming_match(const wm_setk_t *s, const uint8_t *text, uint64_t rb, uint64_t re,
                         uint32_t pat, uint32_t st, uint64_t e, wm_match_t *mt) {
    uint32_t m = (uint32_t)s->len[pat];
    uint32_t pre = s->pre[st], suf = s->suf[st];
    if (e > re || e - rb < m) return 0;
    const uint8_t *p = s->pat[pat], *w = text + e - m;
    for (uint32_t j = 0; j < m; j++) {
        if (j == pre && (j = m - suf) == m) break; /* the middle is the GPU's */
        uint8_t code = st ? wm_iupac_complement(p[m - 1 - j]) : p[j];
        if (!wm_pat_accepts(&s->opts, code, w[j])) return 0;
    }
    mt->start = e - m - rb;
    mt->end = e - rb;
    return 1;
}

/* The matches of hits [a, b) into out: starts found by the pattern's own
** resolver, the regions checked; a stand-in start where need says none is
** read. -1 out of memory. */
static int finish_hits(const finish_t *f, size_t a, size_t b, const uint8_t *need,
                       wm_matchvec_t *out) {
    const wm_setk_t *s = f->s;
    int regions = s->opts.exact_prefix || s->opts.exact_suffix, rc = 0;
    int hamming = f->by_end; /* Hamming on DNA */
    wm_pat_t *p = NULL;
    uint32_t compiled = UINT32_MAX;
    /* a Hamming hit gives at most one match: room for all at once */
    if (hamming && wm_vec_grow((void **)&out->a, &out->cap, out->n + (b - a), sizeof *out->a))
        return -1;
    for (size_t x = a; x < b && rc == 0; x++) {
        const wm_setk_hit_t *h = &f->hits[x];
        if (x > a && h->pat == h[-1].pat && h->strand == h[-1].strand && h->end == h[-1].end)
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
        if (hamming) {
            uint32_t st = h->strand & 1;
            if (hamming_match(s, f->text->seq, rb, f->rs[r + 1], h->pat, st, h->end + s->suf[st],
                              &mt))
                out->a[out->n++] = mt;
            continue;
        }
        if (need != NULL && !need[x - a]) { /* a stand-in (setk/loci.c) */
            mt.start = wm_setk_loci_stand_in(h->end, s->len[h->pat], s->opts.max_edits) - rb;
            rc = wm_matchvec_push(out, &mt);
            continue;
        }
        if ((f->want_starts || regions) && compiled != h->pat) {
            wm_pat_free(p);
            p = NULL;
            if (wm_pat_new(s->pat[h->pat], s->len[h->pat], &s->opts, 0, &p) != WM_OK) {
                rc = -1;
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
        rc = wm_matchvec_push(out, &mt);
    }
    wm_pat_free(p);
    return rc;
}

/* A sorted segment's repeated matches (a hit the GPU gave twice), once. */
static void drop_repeats(wm_matchvec_t *v) {
    size_t w = v->n > 0;
    for (size_t x = 1; x < v->n; x++) {
        const wm_match_t *a = &v->a[w - 1], *b = &v->a[x];
        if (a->record == b->record && a->end == b->end && a->pattern == b->pattern &&
            a->strand == b->strand)
            continue;
        v->a[w++] = *b;
    }
    v->n = w;
}

/* The GPU's sorted keys [a, b) of a segment into their matches, in order:
** nothing to sort, repeats side by side. -1 out of memory. */
static int finish_keys(const finish_t *f, size_t a, size_t b, wm_matchvec_t *out) {
    const wm_setk_t *s = f->s;
    const wm_setk_key_layout_t *L = f->layout;
    const uint64_t err_mask = ((uint64_t)1 << L->err_bits) - 1;
    const uint64_t pat_mask = ((uint64_t)1 << (L->end_shift - L->err_bits - 1)) - 1;
    if (wm_vec_grow((void **)&out->a, &out->cap, out->n + (b - a), sizeof *out->a)) return -1;
    size_t r = 0;
    for (size_t x = a; x < b; x++) {
        uint64_t key = f->keys[x];
        if (x > a && key >> L->err_bits == f->keys[x - 1] >> L->err_bits) continue; /* once each */
        uint64_t e = f->lo + 1 + (key >> L->end_shift); /* the final end */
        uint32_t st = (uint32_t)(key >> L->err_bits) & 1;
        uint32_t pat = (uint32_t)(key >> (L->err_bits + 1) & pat_mask);
        if (x == a || e > f->rs[r + 1]) r = wm_plan_record_of_end(f->rs, f->n_rec, e);
        wm_match_t mt;
        memset(&mt, 0, sizeof mt);
        mt.record = r;
        mt.errors = (uint32_t)(key & err_mask);
        mt.strand = st;
        mt.pattern = pat;
        if (f->lens) { /* edits: the start the GPU found (the resolver's) */
            mt.start = e - f->lens[x] - f->rs[r];
            mt.end = e - f->rs[r];
            out->a[out->n++] = mt;
        } else if (hamming_match(s, f->text->seq, f->rs[r], f->rs[r + 1], pat, st, e, &mt))
            out->a[out->n++] = mt;
    }
    return 0;
}

/* Segment i of the batch, on a pool thread (core/waves.h): its matches, in order. */
static int finish_segment(void *arg, uint64_t i, void *res) {
    const finish_t *f = arg;
    wm_matchvec_t *out = res;
    size_t a = f->first[i], b = f->first[i + 1];
    if (a == b) return 0;
    if (f->keys) return finish_keys(f, a, b, out);
    uint64_t seg_lo, seg_hi; /* final ends (seg_lo, seg_hi] */
    wm_plan_part(&f->plan, i, &seg_lo, &seg_hi);
    uint8_t *need = f->loci ? malloc(b - a) : NULL;
    if (f->loci && !need) return -1;
    int rc = need ? segment_needs(f, a, b, seg_lo, need) : 0;
    if (rc == 0) rc = finish_hits(f, a, b, need, out);
    free(need);
    /* a final end lies in (seg_lo, seg_hi + 1]: the plan's parts own ends */
    if (rc == 0 && (f->want_starts || f->by_end))
        rc = wm_setk_sort_matches(out, f->rs, seg_lo, seg_hi + 1, f->s->pat_bits);
    if (rc == 0 && f->by_end) drop_repeats(out);
    return rc;
}

/* ---- a batch -------------------------------------------------------------------------- */

static wm_status deliver(void *user, const void *v) {
    wm_setk_sink_t *dv = user;
    double t0 = wm_now(); /* a clock read a segment */
    wm_status st = wm_setk_deliver(dv, v);
    dv->deliver_s += wm_now() - t0;
    return st;
}

/* Turn one batch's hits, ends (lo, hi], into matches and deliver them in
** order. The final ends are cut into segments of a power of two bytes,
** about 32 a thread; one sort on the pool puts the hits in segment order and,
** within a segment, by pattern (a pattern compiled once a segment); then the
** segments are finished on the pool in waves while the calling thread hands
** the wave before over (core/waves.h), as the CPU path's chunks are. One
** batch's finishing had been sorts and handing over on one thread,
** after the pool's pieces: 1.65 s of 1.96 for a million reads against E.
** coli on 16 threads, where the CPU path's whole search took 1.24 s. */
static wm_status finish(wm_context_t *cx, finish_t *f, uint64_t hi, uint64_t own_from,
                        wm_setk_sink_t *dv) {
    if (f->n == 0) return WM_OK;
    const wm_setk_t *s = f->s;
    f->loci = cx->tuning.loci_starts && f->want_starts && s->opts.metric == WM_METRIC_EDIT &&
              !s->opts.exact_prefix && !s->opts.exact_suffix;
    f->by_end = s->dna && s->opts.metric == WM_METRIC_HAMMING;
    /* matches end by hi; shift_max more keeps any hit of a middle in (lo, hi] */
    uint64_t top = hi + s->shift_max;
    uint64_t want = (top - f->lo) / (32 * (uint64_t)wm_pool_size(cx->pool)) + 1;
    f->seg_shift = 12; /* 4 KiB at least */
    while (((uint64_t)1 << f->seg_shift) < want && f->seg_shift < 40) f->seg_shift++;
    f->plan = wm_plan_sized(f->lo, top, (uint64_t)1 << f->seg_shift);
    wm_status st = WM_NOMEM;
    if ((f->keys ? keys_into_segments(f) : into_segments(cx->pool, f)) == 0) {
        wm_waves_t waves = wm_waves_of_matches(finish_segment, f, deliver, dv);
        st = wm_waves_run(cx, &f->plan, own_from, f->text->len, &waves);
    }
    free(f->first);
    f->first = NULL;
    return st;
}

/* One batch on the GPU, run on a thread of its own while the host finishes
** the batch before (gpu->batch uses the context's device, stream and
** buffers, never the pool). */
typedef struct {
    const wm_setk_gpu_t *gpu;
    wm_context_t *cx;
    const wm_setk_t *s;
    const wm_text_t *text;
    const uint64_t *rs;
    size_t n_rec;
    uint64_t lo, hi;
    wm_setk_key_layout_t layout;
    int keys;                /* layout asked for */
    wm_setk_gpu_hits_t hits; /* its buffer kept from batch to batch */
    wm_status st;
    pthread_t thread;
    int running;
} fetch_t;

int wm_setk_gpu_hits_reserve(wm_setk_gpu_hits_t *o, size_t bytes) {
    if (bytes <= o->cap) return 0;
    size_t want = bytes + bytes / 4; /* the next batch's hits are about as many */
    void *p = realloc(o->buf, want);
    if (!p) return -1;
    o->buf = p;
    o->cap = want;
    return 0;
}

/* On DNA the hits of ends (lo, hi] as keys sorted on the GPU, when they fit
** 64 bits: Hamming, and edits without exact regions (their lengths too). A
** batch's final ends reach shift_max past hi (finish). */
static int key_layout(const wm_setk_t *s, uint64_t lo, uint64_t hi, wm_setk_key_layout_t *L) {
    int regions = s->opts.exact_prefix || s->opts.exact_suffix;
    L->lens = s->opts.metric != WM_METRIC_HAMMING;
    if (!s->dna || (L->lens && (regions || s->max_reach > UINT16_MAX))) return 0;
    L->suf[0] = regions ? s->suf[0] : 0;
    L->suf[1] = regions ? s->suf[1] : 0;
    L->err_bits = wm_setk_bits_for(s->opts.max_edits);
    L->end_shift = L->err_bits + 1 + s->pat_bits;
    L->span = hi + s->shift_max - lo;
    L->bits = L->end_shift + wm_setk_bits_for(L->span); /* the span itself: out of the batch */
    return L->bits <= 64;
}

static void *fetch_run(void *arg) {
    fetch_t *b = arg;
    b->hits.n = 0;
    b->hits.keyed = 0;
    b->st = b->gpu->batch(b->cx, b->s, b->text, b->rs, b->n_rec, b->lo, b->hi,
                          b->keys ? &b->layout : NULL, &b->hits);
    return NULL;
}

/* Start batch (lo, hi]: on a thread, or here when none can be had. */
static void fetch_start(fetch_t *b, uint64_t lo, uint64_t hi) {
    b->lo = lo;
    b->hi = hi;
    b->keys = key_layout(b->s, lo, hi, &b->layout);
    b->running = pthread_create(&b->thread, NULL, fetch_run, b) == 0;
    if (!b->running) fetch_run(b);
}

static void fetch_wait(fetch_t *b) {
    if (b->running) pthread_join(b->thread, NULL);
    b->running = 0;
}

wm_status wm_setk_gpu_scan(wm_context_t *cx, const wm_setk_gpu_t *gpu, const wm_setk_t *s,
                           const wm_text_t *text, const uint64_t *rs, size_t n_rec,
                           uint64_t own_from, wm_setk_sink_t *dv, uint64_t *done) {
    *done = own_from;
    uint64_t batch = cx->opts.chunk_bytes ? cx->opts.chunk_bytes : BATCH_DEFAULT;
    if (batch > BATCH_MAX) batch = BATCH_MAX;   /* a batch's ends fit 32 bits on the GPU */
    batch = wm_gpu_piece(cx, batch, BATCH_MIN); /* smaller after running out of memory */
    uint64_t len = text->len;
    if (own_from >= len) return WM_OK;
    /* batch i + 1 on the GPU while the host finishes batch i */
    fetch_t b[2];
    memset(b, 0, sizeof b);
    for (int i = 0; i < 2; i++) {
        b[i].gpu = gpu;
        b[i].cx = cx;
        b[i].s = s;
        b[i].text = text;
        b[i].rs = rs;
        b[i].n_rec = n_rec;
    }
    fetch_start(&b[0], own_from, len - own_from > batch ? own_from + batch : len);
    wm_status st = WM_OK;
    for (int cur = 0;; cur ^= 1) {
        fetch_t *now = &b[cur], *next = &b[cur ^ 1];
        fetch_wait(now);
        st = now->st;
        uint64_t lo = now->lo, hi = now->hi;
        if (st == WM_OK && hi < len) fetch_start(next, hi, len - hi > batch ? hi + batch : len);
        finish_t f;
        memset(&f, 0, sizeof f);
        f.s = s;
        f.text = text;
        f.rs = rs;
        f.n_rec = n_rec;
        f.want_starts = dv->cb != NULL;
        f.lo = lo;
        if (now->hits.keyed) {
            f.keys = now->hits.buf;
            f.lens = now->layout.lens ? now->hits.lens : NULL;
            f.layout = &now->layout;
        } else {
            f.hits = now->hits.buf;
        }
        f.n = now->hits.n;
        double t0 = wm_now(), d0 = dv->deliver_s;
        if (st == WM_OK) st = finish(cx, &f, hi, own_from, dv);
        cx->stats.setk_gpu_finish_s += wm_now() - t0;
        cx->stats.setk_gpu_deliver_s += dv->deliver_s - d0;
        cx->stats.setk_gpu_batches++;
        if (st == WM_OK) {
            *done = hi;
            if (cx->opts.progress)
                cx->opts.progress(hi - own_from, len - own_from, cx->opts.progress_user);
        }
        if (st != WM_OK || hi >= len) { /* a batch in flight is waited for, and dropped */
            fetch_wait(next);
            break;
        }
    }
    free(b[0].hits.buf);
    free(b[1].hits.buf);
    return st;
}
