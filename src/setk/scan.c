/*
** scan.c -- scanning a text for a set within k errors (the scan of its
** database): seeds found, windows verified, matches delivered in order.
**
** The owned ends are cut into chunks (core/plan.h) run on the pool in waves,
** as one pattern's CPU driver does (src/search/driver.c). A chunk:
**   1. rolls a key over each record piece it meets, from the set's longest
**      occurrence before its first end (so every key that places an end in
**      the chunk is seen) to spread past its last; each key found gives
**      each of its seeds a window of ends, cut to the chunk and the record;
**   2. sorts the windows by pattern, strand, record and start, merges those
**      closer than the pattern's halo, and runs the pattern's own kernel
**      over each from a halo before (never before its record), compiling
**      the pattern when its first window comes (wm_pat_new);
**   3. scans the direct patterns (pieces too short to key) whole, as one
**      pattern's driver does: pigeonhole filter first, else the kernel;
**   4. turns hits into matches (resolve.c finds the starts) and sorts them
**      by record, end, pattern and strand: the order wm_search promises.
** Every end reported comes from a scan that began at least a halo before it
** or at its record's start, so its errors and start are those the pattern
** alone gives (search.h: the kernels' contract).
*/
#include <stdlib.h>
#include <string.h>

#include "core/plan.h"
#include "search/search.h"
#include "setk/setk.h"

#define WAVE_PER_THREAD 4

/* A window of ends a..b (absolute, inclusive) of one pattern and strand, in
** one record. */
typedef struct {
    uint32_t pat, strand;
    size_t rec;
    uint64_t a, b;
} window_t;

typedef struct {
    window_t *a;
    size_t n, cap;
} windows_t;

typedef struct {
    const wm_setk_t *s;
    const wm_text_t *text;
    const uint64_t *rs; /* record starts, n_rec + 1 entries */
    size_t n_rec;
    int want_starts; /* 0 when only counting */
    wm_plan_t plan;
    uint64_t first_chunk; /* of the current wave */
    wm_matchvec_t *out;   /* one per chunk of a wave */
    int *failed;
} wave_t;

/* ---- 1. seeds -> windows --------------------------------------------------- */

static int seed_piece(const wave_t *w, const wm_piece_t *pc, windows_t *win) {
    const wm_setk_t *s = w->s;
    const uint8_t *seq = w->text->seq;
    uint64_t rb = w->rs[pc->rec], re = w->rs[pc->rec + 1];
    uint64_t stop = pc->own_to + s->spread < re ? pc->own_to + s->spread : re;
    unsigned shift = s->dna ? 2 : 8, q = s->q;
    uint64_t mask = shift * q >= 64 ? ~0ull : ((uint64_t)1 << (shift * q)) - 1;
    uint64_t code = 0, lo_end = pc->own_from + 1 > rb + 1 ? pc->own_from + 1 : rb + 1;
    unsigned run = 0;
    for (uint64_t x = pc->scan_from; x < stop; x++) {
        int c = s->sym[seq[x]];
        if (c < 0) {
            run = 0;
            continue;
        }
        code = (code << shift | (uint64_t)c) & mask;
        if (++run < q) continue;
        size_t n;
        const wm_seed_t *sd = wm_setk_lookup(s, code, &n);
        int64_t t = (int64_t)(x + 1 - q); /* where the key starts */
        for (size_t i = 0; i < n; i++) {
            int64_t end = t - (int64_t)sd[i].key_off + (int64_t)s->len[sd[i].pat];
            int64_t a = end - (int64_t)s->spread, b = end + (int64_t)s->spread;
            if (a < (int64_t)lo_end) a = (int64_t)lo_end;
            if (b > (int64_t)pc->own_to) b = (int64_t)pc->own_to;
            if (a > b) continue;
            if (win->n == win->cap &&
                wm_vec_grow((void **)&win->a, &win->cap, win->n + 1, sizeof *win->a))
                return -1;
            window_t *v = &win->a[win->n++];
            v->pat = sd[i].pat;
            v->strand = sd[i].strand;
            v->rec = pc->rec;
            v->a = (uint64_t)a;
            v->b = (uint64_t)b;
        }
    }
    return 0;
}

static int by_window(const void *x, const void *y) {
    const window_t *p = x, *q = y;
    if (p->pat != q->pat) return p->pat < q->pat ? -1 : 1;
    if (p->strand != q->strand) return p->strand < q->strand ? -1 : 1;
    return p->a < q->a ? -1 : p->a > q->a;
}

/* ---- 2-4. kernels -> hits -> matches ------------------------------------------ */

/* Turn the hits of one scan of record rec into matches of pattern i. */
static int finish(const wave_t *w, const wm_pat_t *p, uint32_t i, size_t rec, const wm_hitvec_t *hv,
                  wm_matchvec_t *out) {
    uint64_t rb = w->rs[rec];
    for (size_t x = 0; x < hv->n; x++) {
        const wm_hit_t *h = &hv->a[x];
        wm_match_t mt;
        memset(&mt, 0, sizeof mt);
        mt.record = rec;
        mt.end = h->end - rb;
        mt.errors = h->errors;
        mt.strand = h->strand;
        mt.pattern = i;
        if (w->want_starts) {
            uint64_t start;
            uint32_t errors;
            if (!wm_resolve_end(p, (int)h->strand, w->text->seq, rb, h->end, (int)h->errors,
                                &start, &errors))
                continue;
            mt.start = start - rb;
            mt.errors = errors;
        }
        if (wm_matchvec_push(out, &mt)) return -1;
    }
    return 0;
}

static wm_status compile(const wm_setk_t *s, uint32_t i, wm_pat_t **p) {
    return wm_pat_new(s->pat[i], s->len[i], &s->opts, 0, p);
}

/* Verify windows [x, y) (one pattern, sorted), merging those closer than the
** pattern's halo: scanning the gap costs less than the halo twice. */
static int verify(const wave_t *w, const windows_t *win, size_t x, size_t y, wm_hitvec_t *hv,
                  wm_matchvec_t *out) {
    wm_pat_t *p;
    if (compile(w->s, win->a[x].pat, &p) != WM_OK) return -1;
    wm_cpu_scan_fn kernel = wm_pat_kernel(p);
    uint64_t halo = wm_pat_halo(p);
    int rc = 0;
    while (x < y && rc == 0) {
        const window_t *v = &win->a[x];
        uint64_t a = v->a, b = v->b;
        for (x++; x < y && win->a[x].strand == v->strand && win->a[x].rec == v->rec &&
                  win->a[x].a <= b + halo + 1;
             x++)
            if (win->a[x].b > b) b = win->a[x].b;
        uint64_t from = wm_plan_scan_from(w->rs[v->rec], a - 1, halo);
        hv->n = 0;
        if (kernel(p, (int)v->strand, w->text->seq, from, a - 1, b, hv) ||
            finish(w, p, v->pat, v->rec, hv, out))
            rc = -1;
    }
    wm_pat_free(p);
    return rc;
}

/* One direct pattern over the chunk's pieces, as one pattern's driver scans. */
static int scan_direct(const wave_t *w, uint32_t i, uint64_t lo, uint64_t hi, wm_hitvec_t *hv,
                       wm_matchvec_t *out) {
    const wm_setk_t *s = w->s;
    wm_pat_t *p;
    if (compile(s, i, &p) != WM_OK) return -1;
    wm_cpu_scan_fn kernel = wm_pat_kernel(p);
    uint64_t halo = wm_pat_halo(p), shortest = p->m - s->spread;
    int rc = 0;
    wm_piece_t pc;
    size_t r = wm_plan_first_record(w->rs, w->n_rec, lo);
    while (rc == 0 && wm_plan_next_piece(w->rs, w->n_rec, halo, lo, hi, &r, &pc)) {
        if (w->rs[pc.rec + 1] - w->rs[pc.rec] < shortest) continue;
        for (int st = 0; st < p->n_strands && rc == 0; st++) {
            hv->n = 0;
            int f = wm_pigeonhole_scan(p, st, kernel, w->text->seq, pc.scan_from, pc.own_from,
                                       pc.own_to, hv);
            if (f < 0 ||
                (f > 0 && kernel(p, st, w->text->seq, pc.scan_from, pc.own_from, pc.own_to, hv)) ||
                finish(w, p, i, pc.rec, hv, out))
                rc = -1;
        }
    }
    wm_pat_free(p);
    return rc;
}

static int by_match(const void *x, const void *y) {
    const wm_match_t *p = x, *q = y;
    if (p->record != q->record) return p->record < q->record ? -1 : 1;
    if (p->end != q->end) return p->end < q->end ? -1 : 1;
    if (p->pattern != q->pattern) return p->pattern < q->pattern ? -1 : 1;
    return p->strand < q->strand ? -1 : p->strand > q->strand;
}

static void chunk(void *arg, size_t i, int tid) {
    (void)tid;
    wave_t *w = arg;
    const wm_setk_t *s = w->s;
    wm_matchvec_t *out = &w->out[i];
    uint64_t lo, hi;
    wm_plan_part(&w->plan, w->first_chunk + i, &lo, &hi);
    windows_t win = { 0 };
    wm_hitvec_t hv = { 0 };
    int rc = 0;
    if (s->n_keys > 0) {
        wm_piece_t pc;
        size_t r = wm_plan_first_record(w->rs, w->n_rec, lo);
        while (rc == 0 && wm_plan_next_piece(w->rs, w->n_rec, s->max_reach - 1, lo, hi, &r, &pc))
            rc = seed_piece(w, &pc, &win);
        if (rc == 0 && win.n > 1) qsort(win.a, win.n, sizeof *win.a, by_window);
        for (size_t x = 0, y; rc == 0 && x < win.n; x = y) {
            for (y = x + 1; y < win.n && win.a[y].pat == win.a[x].pat; y++) continue;
            rc = verify(w, &win, x, y, &hv, out);
        }
    }
    for (size_t d = 0; rc == 0 && d < s->n_direct; d++)
        rc = scan_direct(w, s->direct[d], lo, hi, &hv, out);
    if (rc == 0 && out->n > 1) qsort(out->a, out->n, sizeof *out->a, by_match);
    if (rc != 0) *w->failed = 1;
    free(win.a);
    wm_hitvec_free(&hv);
}

/* ---- the scan of a set-within-k database ---------------------------------------- */

static wm_status setk_scan(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                           uint64_t own_from, wm_match_cb cb, void *user, uint64_t *n_matches,
                           uint64_t *per_pattern) {
    wave_t w;
    memset(&w, 0, sizeof w);
    w.s = db->body;
    w.text = text;
    w.want_starts = cb != NULL;
    uint64_t *rs = wm_text_record_starts(text, &w.n_rec);
    if (!rs) return WM_NOMEM;
    w.rs = rs;
    uint64_t len = text->len;
    int T = wm_pool_size(cx->pool);
    uint64_t size = cx->opts.chunk_bytes;
    if (size == 0) {
        size = (len - own_from) / ((uint64_t)T * 8) + 1;
        if (size < (1u << 18)) size = 1u << 18;
        if (size > (16u << 20)) size = 16u << 20;
    }
    size_t wave = (size_t)T * WAVE_PER_THREAD;
    w.plan = wm_plan_sized(own_from, len, size);
    int failed = 0;
    w.failed = &failed;
    w.out = calloc(wave, sizeof *w.out);
    if (!w.out) {
        free(rs);
        return WM_NOMEM;
    }
    wm_status st = WM_OK;
    uint64_t count = 0;
    for (uint64_t c0 = 0; c0 < w.plan.n && st == WM_OK; c0 += wave) {
        size_t n = w.plan.n - c0 < wave ? (size_t)(w.plan.n - c0) : wave;
        w.first_chunk = c0;
        for (size_t i = 0; i < n; i++) w.out[i].n = 0;
        wm_pool_for(cx->pool, n, chunk, &w);
        if (failed) {
            st = WM_NOMEM;
            break;
        }
        for (size_t i = 0; i < n && st == WM_OK; i++) {
            count += w.out[i].n;
            for (size_t x = 0; x < w.out[i].n; x++) {
                if (per_pattern) per_pattern[w.out[i].a[x].pattern]++;
                if (cb && cb(&w.out[i].a[x], user)) {
                    st = WM_STOPPED;
                    break;
                }
            }
        }
        uint64_t lo, hi;
        wm_plan_part(&w.plan, c0 + n - 1, &lo, &hi);
        if (cx->opts.progress)
            cx->opts.progress(hi - own_from, len - own_from, cx->opts.progress_user);
    }
    for (size_t i = 0; i < wave; i++) wm_matchvec_free(&w.out[i]);
    free(w.out);
    free(rs);
    if (st == WM_OK && n_matches) *n_matches = count;
    return st;
}

const wm_db_ops_t wm_setk_db_ops = { "set within k", setk_scan, wm_setk_free };

/* No GPU table yet: a context on a GPU runs these sets on its CPU threads. */
const wm_family_t wm_setk_family = { "setk", NULL, NULL };
