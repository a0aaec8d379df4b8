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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/plan.h"
#include "core/waves.h"
#include "search/search.h"
#include "setk/setk.h"

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
    int want_starts;                /* 0 when only counting */
    int loci_starts;                /* the caller keeps one match a locus (tuning.loci_starts) */
    wm_plan_t plan;                 /* chunks of the owned ends */
    const wm_setk_planes_t *planes; /* direct Hamming patterns scanned together, or NULL */
} wave_t;

/* ---- 1. seeds -> windows --------------------------------------------------- */

/* A seed found, as compact as sorting millions of them a chunk wants (a
** chromosome's repeats give a read's pieces hundreds of places each): key =
** pattern, strand and the end its piece puts the pattern at, relative to
** the chunk (end - lo + spread + shift_max: at least 1, as a window must
** reach the chunk; less than 2^32, chunks being at most 1 GiB; in the
** chunk's end_bits); the record as an offset from the chunk's first. */
typedef struct {
    uint64_t key;
    uint32_t rec;
    uint16_t piece;
    uint8_t need;
} found_t;

typedef struct {
    found_t *a;
    size_t n, cap;
    unsigned end_bits; /* the end's field in a key: as wide as the chunk's ends
                          need (end_bits_of), so the sort runs no pass over
                          bits that are always 0 */
} founds_t;

#define MAX_CHUNK (1ull << 30)

/* The bits of an end relative to the chunk's origin, lo - spread -
** shift_max: ends reach hi + spread at most. */
static unsigned end_bits_of(const wm_setk_t *s, uint64_t lo, uint64_t hi) {
    return wm_setk_bits_for(hi - lo + 2 * (uint64_t)s->spread + s->shift_max);
}

/* The text's keys are looked up a block at a time, each table's read
** asked for before it is needed: the filter (32 MiB for a million reads),
** the slots (128 MiB) and the keys (94 MiB) are each a cache miss a
** position, and one position at a time waited for every one of them in
** turn: 100,000 reads against chrX took 6.26 s on 2 cores so, 5.43 s by
** blocks (BENCHMARKS.md 29). */
#define LOOKUP_BLOCK 64

typedef struct {
    uint64_t code, x; /* the key, ending at x + 1 */
    uint64_t h;       /* its filter bit, then its home slot */
    uint32_t u;       /* 1 + its key index, once found; 0 for none */
} probe_t;

/* Keys [0, n) of P: the ones in the table moved to the front, in order,
** each with its key index (u); returns how many. The filter, slots and
** keys are read a stage at a time, each stage's reads prefetched by the
** one before. */
static size_t lookup_block(const wm_setk_t *s, probe_t *P, size_t n) {
    uint64_t smask = ((uint64_t)1 << s->bits) - 1;
    for (size_t i = 0; i < n; i++) {
        P[i].h = wm_setk_filter_bit(P[i].code, s->filter_bits);
        __builtin_prefetch(&s->filter[P[i].h >> 6]);
    }
    size_t m = 0; /* the keys the filter lets by, moved to the front */
    for (size_t i = 0; i < n; i++) {
        uint64_t f = P[i].h;
        if (!(s->filter[f >> 6] >> (f & 63) & 1)) continue;
        P[m] = P[i];
        P[m].u = 0;
        P[m].h = wm_setk_hash(P[m].code, s->bits);
        __builtin_prefetch(&s->slot[P[m].h]);
        m++;
    }
    for (size_t i = 0; i < m; i++) { /* the first slot's key, fetched for the next pass */
        uint32_t v = s->slot[P[i].h];
        if (v) __builtin_prefetch(&s->key[v - 1]);
    }
    for (size_t i = 0; i < m; i++) {
        for (uint64_t h = P[i].h;; h = (h + 1) & smask) {
            uint32_t v = s->slot[h];
            if (v == 0) break;
            if (s->key[v - 1] == P[i].code) {
                P[i].u = v;
                __builtin_prefetch(&s->first[v - 1]);
                break;
            }
        }
    }
    size_t k = 0; /* the keys found, in order */
    for (size_t i = 0; i < m; i++)
        if (P[i].u) P[k++] = P[i];
    return k;
}

static int seed_piece(const wave_t *w, const wm_piece_t *pc, uint64_t lo, size_t first_rec,
                      founds_t *f) {
    const wm_setk_t *s = w->s;
    const uint8_t *seq = w->text->seq;
    uint64_t rb = w->rs[pc->rec], re = w->rs[pc->rec + 1];
    uint64_t stop = pc->own_to + s->spread < re ? pc->own_to + s->spread : re;
    unsigned shift = s->dna ? 2 : 8, q = s->q;
    uint64_t mask = shift * q >= 64 ? ~0ull : ((uint64_t)1 << (shift * q)) - 1;
    uint64_t code = 0;
    int64_t origin = (int64_t)lo - (int64_t)s->spread - (int64_t)s->shift_max;
    /* the middle's ends this piece owns on each strand: a match's end less
    ** the strand's exact suffix (none: the match's) */
    int64_t first[2], last[2];
    for (int st = 0; st < 2; st++) {
        int64_t f0 = (int64_t)pc->own_from - (int64_t)s->suf[st];
        first[st] = (f0 > (int64_t)rb ? f0 : (int64_t)rb) + 1;
        last[st] = (int64_t)pc->own_to - (int64_t)s->suf[st];
    }
    unsigned run = 0;
    probe_t P[LOOKUP_BLOCK];
    for (uint64_t x = pc->scan_from; x < stop;) {
        size_t n = 0; /* the next block's keys */
        for (; x < stop && n < LOOKUP_BLOCK; x++) {
            int c = s->sym[seq[x]];
            if (c < 0) {
                run = 0;
                continue;
            }
            code = (code << shift | (uint64_t)c) & mask;
            if (++run < q) continue;
            P[n].code = code;
            P[n++].x = x;
        }
        size_t found = lookup_block(s, P, n);
        for (size_t b = 0; b < found; b++) {
            uint32_t u = P[b].u - 1, n_sd = s->first[u + 1] - s->first[u];
            const wm_seed_t *sd = &s->seed[s->first[u]];
            int64_t t = (int64_t)(P[b].x + 1 - q); /* where the key starts */
            for (size_t i = 0; i < n_sd; i++) {
                int64_t end = t - (int64_t)sd[i].key_off + (int64_t)wm_setk_mid_len(s, sd[i].pat);
                /* a window that misses the piece's ends is no seed of this chunk */
                if (end + (int64_t)s->spread < first[sd[i].strand] ||
                    end - (int64_t)s->spread > last[sd[i].strand])
                    continue;
                if (f->n == f->cap && wm_vec_grow((void **)&f->a, &f->cap, f->n + 1, sizeof *f->a))
                    return -1;
                found_t *v = &f->a[f->n++];
                v->key = (uint64_t)sd[i].pat << (f->end_bits + 1) |
                         (uint64_t)sd[i].strand << f->end_bits | (uint64_t)(end - origin);
                v->rec = (uint32_t)(pc->rec - first_rec);
                v->piece = sd[i].piece;
                v->need = sd[i].need;
            }
        }
    }
    return 0;
}

/* Count piece p among the other pieces seen (self excluded, each once; two
** are all a seed of three asks). */
static void saw(uint16_t p, uint16_t self, uint16_t other[2], unsigned *n) {
    if (p == self || (*n > 0 && other[0] == p) || *n >= 2) return;
    other[(*n)++] = p;
}

/* Keep the seeds whose pattern needs one piece, or `need` and seeds of
** need - 1 other pieces of the same pattern and strand put their ends within
** spread of this one's (sorted by key: look both ways; the key's low bits
** are the end). Returns how many are kept, moved to the front. */
static size_t paired(found_t *v, size_t n, uint32_t spread, unsigned end_bits) {
    const uint64_t end_mask = ((uint64_t)1 << end_bits) - 1, same = ~end_mask;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned want = v[i].need > 0 ? v[i].need - 1u : 0, seen = 0; /* other pieces */
        uint16_t other[2] = { 0, 0 }, self = v[i].piece;
        uint64_t k = v[i].key;
        for (size_t j = i;
             seen < want && j-- > 0 && (v[j].key & same) == (k & same) && k - v[j].key <= spread;)
            saw(v[j].piece, self, other, &seen);
        for (size_t j = i + 1;
             seen < want && j < n && (v[j].key & same) == (k & same) && v[j].key - k <= spread; j++)
            saw(v[j].piece, self, other, &seen);
        v[i].need = seen >= want ? 0 : 4; /* the neighbours read key and piece only */
    }
    for (size_t i = 0; i < n; i++)
        if (v[i].need == 0) v[kept++] = v[i];
    return kept;
}

/* The windows of the seeds kept: ends within spread of the seed's end, cut to
** the chunk (lo, hi] and the record. */
static int to_windows(const wave_t *w, const founds_t *f, uint64_t lo, uint64_t hi,
                      size_t first_rec, windows_t *win) {
    const wm_setk_t *s = w->s;
    const uint64_t end_mask = ((uint64_t)1 << f->end_bits) - 1;
    int64_t origin = (int64_t)lo - (int64_t)s->spread - (int64_t)s->shift_max;
    win->n = 0;
    if (f->n > win->cap && wm_vec_grow((void **)&win->a, &win->cap, f->n, sizeof *win->a))
        return -1;
    for (size_t i = 0; i < f->n; i++) {
        const found_t *v = &f->a[i];
        size_t rec = first_rec + v->rec;
        uint64_t rb = w->rs[rec], re = w->rs[rec + 1];
        uint32_t strand = (uint32_t)(v->key >> f->end_bits) & 1u;
        int64_t end = (int64_t)(v->key & end_mask) + origin;
        int64_t a = end - (int64_t)s->spread, b = end + (int64_t)s->spread;
        /* the middle's ends the chunk owns in the record (setk.h: suf) */
        int64_t f0 = (int64_t)(lo > rb ? lo : rb) - (int64_t)s->suf[strand];
        int64_t first = (f0 > (int64_t)rb ? f0 : (int64_t)rb) + 1;
        int64_t last = (int64_t)(hi < re ? hi : re) - (int64_t)s->suf[strand];
        if (a < first) a = first;
        if (b > last) b = last;
        window_t *x = &win->a[win->n++];
        x->pat = (uint32_t)(v->key >> (f->end_bits + 1));
        x->strand = strand;
        x->rec = rec;
        x->a = (uint64_t)a;
        x->b = (uint64_t)b;
    }
    return 0;
}

/* ---- 2-4. kernels -> hits -> matches ------------------------------------------ */

/* Turn the hits of one scan of record rec into matches of pattern i. as: the
** strand every hit is reported on, or -1 for the hit's own (as_strand >= 0:
** p holds that strand alone, as its strand 0). lo: the chunk's owned ends
** are past it. */
static int finish(const wave_t *w, const wm_pat_t *p, uint32_t i, size_t rec, const wm_hitvec_t *hv,
                  int as_strand, uint64_t lo, wm_matchvec_t *out) {
    uint64_t rb = w->rs[rec];
    uint8_t *need = NULL;
    if (w->want_starts && w->loci_starts && !p->flanks && p->metric == WM_METRIC_EDIT &&
        hv->n > 1) {
        if ((need = malloc(hv->n)) == NULL) return -1;
        /* scans of one pattern and strand in a chunk are more than m + k
        ** apart (verify merges closer windows): only the chunk's border hides
        ** earlier ends */
        wm_setk_loci_needs(hv->a, hv->n, p->m, p->k, rb, lo, need);
    }
    for (size_t x = 0; x < hv->n; x++) {
        const wm_hit_t *h = &hv->a[x];
        wm_match_t mt;
        memset(&mt, 0, sizeof mt);
        mt.record = rec;
        mt.end = h->end - rb;
        mt.errors = h->errors;
        mt.strand = as_strand >= 0 ? (uint32_t)as_strand : h->strand;
        mt.pattern = i;
        if (p->flanks) { /* h is the middle's end: the exact regions decide */
            uint64_t start = 0, end;
            uint32_t errors;
            if (!wm_flanks_finish(p, (int)h->strand, w->text->seq, rb, w->rs[rec + 1], h->end,
                                  h->errors, w->want_starts, &start, &end, &errors))
                continue;
            mt.start = start - rb;
            mt.end = end - rb;
            mt.errors = errors;
        } else if (need != NULL && !need[x]) {
            mt.start = wm_setk_loci_stand_in(h->end, p->m, p->k) - rb;
        } else if (w->want_starts) {
            uint64_t start;
            uint32_t errors;
            if (!wm_resolve_end(p, (int)h->strand, w->text->seq, rb, h->end, (int)h->errors, &start,
                                &errors))
                continue;
            mt.start = start - rb;
            mt.errors = errors;
        }
        if (wm_matchvec_push(out, &mt)) {
            free(need);
            return -1;
        }
    }
    free(need);
    return 0;
}

static wm_status compile(const wm_setk_t *s, uint32_t i, wm_pat_t **p) {
    return wm_pat_new(s->pat[i], s->len[i], &s->opts, 0, p);
}

/* Pattern i compiled for one strand only, as its strand 0 (strand 1: the
** reverse complement): a read's windows are mostly on one strand, and the
** tables of both cost twice. */
static wm_status compile_strand(const wm_setk_t *s, uint32_t i, uint32_t strand, wm_pat_t **p) {
    wm_opts_t o = s->opts;
    o.revcomp = 0;
    o.exact_prefix = s->pre[strand]; /* the strand's own regions */
    o.exact_suffix = s->suf[strand];
    if (strand == 0 || !s->opts.revcomp) return wm_pat_new(s->pat[i], s->len[i], &o, 0, p);
    size_t m = s->len[i];
    uint8_t *rc = malloc(m);
    if (!rc) return WM_NOMEM;
    for (size_t j = 0; j < m; j++) rc[j] = wm_iupac_complement(s->pat[i][m - 1 - j]);
    wm_status st = wm_pat_new(rc, m, &o, 0, p);
    free(rc);
    return st;
}

/* Verify windows [x, y) (one pattern, sorted by strand and end), one strand
** at a time, merging windows closer than the pattern's halo: scanning the
** gap costs less than the halo twice. */
static int verify(const wave_t *w, const windows_t *win, size_t x, size_t y, uint64_t lo,
                  wm_hitvec_t *hv, wm_matchvec_t *out) {
    int rc = 0;
    while (x < y && rc == 0) {
        uint32_t strand = win->a[x].strand;
        size_t z = x;
        while (z < y && win->a[z].strand == strand) z++;
        wm_pat_t *p;
        if (compile_strand(w->s, win->a[x].pat, strand, &p) != WM_OK) return -1;
        wm_cpu_scan_fn kernel = wm_pat_kernel(p);
        uint64_t halo = wm_pat_halo(p);
        while (x < z && rc == 0) {
            const window_t *v = &win->a[x];
            uint64_t a = v->a, b = v->b;
            for (x++; x < z && win->a[x].rec == v->rec && win->a[x].a <= b + halo + 1; x++)
                if (win->a[x].b > b) b = win->a[x].b;
            uint64_t from = wm_plan_scan_from(w->rs[v->rec], a - 1, halo);
            hv->n = 0;
            if (kernel(p, 0, w->text->seq, from, a - 1, b, hv) ||
                finish(w, p, v->pat, v->rec, hv, (int)strand, lo, out))
                rc = -1;
        }
        wm_pat_free(p);
    }
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
        uint64_t rb = w->rs[pc.rec];
        for (int st = 0; st < p->n_strands && rc == 0; st++) {
            /* the middle's ends: the matches' less the strand's exact suffix */
            uint64_t shift = s->suf[st];
            uint64_t own_from = pc.own_from - rb > shift ? pc.own_from - shift : rb;
            uint64_t own_to = pc.own_to - rb > shift ? pc.own_to - shift : rb;
            if (own_to <= own_from) continue;
            uint64_t from = shift ? wm_plan_scan_from(rb, own_from, halo) : pc.scan_from;
            hv->n = 0;
            int f = wm_pigeonhole_scan(p, st, kernel, w->text->seq, from, own_from, own_to, hv);
            if (f < 0 || (f > 0 && kernel(p, st, w->text->seq, from, own_from, own_to, hv)) ||
                finish(w, p, i, pc.rec, hv, -1, lo, out))
                rc = -1;
        }
    }
    wm_pat_free(p);
    return rc;
}

/* The direct patterns planes.c takes, all at once over the chunk's pieces. */
static int scan_planes(const wave_t *w, uint64_t lo, uint64_t hi, wm_matchvec_t *out) {
    wm_piece_t pc;
    size_t r = wm_plan_first_record(w->rs, w->n_rec, lo);
    int rc = 0;
    while (rc == 0 && wm_plan_next_piece(w->rs, w->n_rec, 0, lo, hi, &r, &pc))
        rc = wm_setk_planes_scan(w->planes, w->text->seq, pc.rec, w->rs[pc.rec], pc.own_from,
                                 pc.own_to, w->s->opts.max_edits, out);
    return rc;
}

static int chunk(void *arg, uint64_t i, void *res) {
    wave_t *w = arg;
    wm_matchvec_t *out = res;
    const wm_setk_t *s = w->s;
    uint64_t lo, hi;
    wm_plan_part(&w->plan, i, &lo, &hi);
    windows_t win = { 0 };
    founds_t found = { 0 };
    wm_hitvec_t hv = { 0 };
    int rc = 0;
    if (s->n_keys > 0) {
        wm_piece_t pc;
        size_t first_rec = wm_plan_first_record(w->rs, w->n_rec, lo), r = first_rec;
        found.end_bits = end_bits_of(s, lo, hi);
        while (rc == 0 && wm_plan_next_piece(w->rs, w->n_rec, s->max_reach - 1, lo, hi, &r, &pc))
            rc = seed_piece(w, &pc, lo, first_rec, &found);
        if (rc == 0 && found.n > 1)
            rc = wm_setk_radix_sort(found.a, found.n, sizeof *found.a,
                                    found.end_bits + 1 + s->pat_bits);
        if (rc == 0) found.n = paired(found.a, found.n, s->spread, found.end_bits);
        if (rc == 0) rc = to_windows(w, &found, lo, hi, first_rec, &win);
        for (size_t x = 0, y; rc == 0 && x < win.n; x = y) {
            for (y = x + 1; y < win.n && win.a[y].pat == win.a[x].pat; y++) continue;
            rc = verify(w, &win, x, y, lo, &hv, out);
        }
    }
    if (rc == 0 && w->planes) rc = scan_planes(w, lo, hi, out);
    for (size_t d = 0; rc == 0 && d < s->n_direct; d++)
        if (!wm_setk_planes_takes(w->planes, s->direct[d]))
            rc = scan_direct(w, s->direct[d], lo, hi, &hv, out);
    if (rc == 0) rc = wm_setk_sort_matches(out, w->rs, lo, hi, s->pat_bits);
    free(win.a);
    free(found.a);
    wm_hitvec_free(&hv);
    return rc;
}

/* ---- the scan of a set-within-k database ---------------------------------------- */

/* The CPU: the chunks of the owned ends (own_from, len], in waves: about 32
** a thread, from 16 KiB. A set's work per byte is large, and a chunk's
** seeds are held until it ends: with 8 chunks a thread of at least 256 KiB
** (one pattern's sizes), a million reads against E. coli made 18 chunks for
** 16 threads (two rounds, one of them nearly idle, and the last wave's
** delivery not hidden), and against chrX on 2 threads 57.8 s and 5.1 GB
** (49.6 s and 2.9 GB with 1 MiB chunks; BENCHMARKS.md 17b). */
static wm_status deliver(void *user, const void *v) { return wm_setk_deliver(user, v); }

static wm_status cpu_scan(wm_context_t *cx, wave_t *wp, uint64_t own_from, wm_setk_sink_t *dv) {
    wave_t w = *wp;
    wm_status built = wm_setk_host_table(w.s, cx->pool); /* the first CPU scan builds it */
    if (built != WM_OK) return built;
    uint64_t len = w.text->len, size = wm_waves_chunk_size(cx, own_from, len, 32, 16u << 10);
    if (size > MAX_CHUNK) size = MAX_CHUNK; /* a seed's end is kept in 32 bits (found_t) */
    w.plan = wm_plan_sized(own_from, len, size);
    int failed;
    wm_setk_planes_t *planes = wm_setk_planes_new(w.s, wm_simd_isa_pick(cx->tuning.simd),
                                                  cx->tuning.planes_index, &failed);
    if (failed) return WM_NOMEM;
    w.planes = planes;
    wm_waves_t waves = wm_waves_of_matches(chunk, &w, deliver, dv);
    wm_status st = wm_waves_run(cx, &w.plan, own_from, len, &waves);
    wm_setk_planes_free(planes);
    return st;
}

wm_status wm_setk_deliver(wm_setk_sink_t *dv, const wm_matchvec_t *v) {
    dv->count += v->n;
    if (dv->per_pattern)
        for (size_t x = 0; x < v->n; x++) dv->per_pattern[v->a[x].pattern]++;
    return dv->cb ? wm_matchvec_deliver(v, dv->cb, dv->user) : WM_OK;
}

static wm_status setk_scan(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                           uint64_t own_from, wm_match_cb cb, void *user, uint64_t *n_matches,
                           uint64_t *per_pattern) {
    wave_t w;
    memset(&w, 0, sizeof w);
    w.s = db->body;
    w.text = text;
    w.want_starts = cb != NULL;
    w.loci_starts = cx->tuning.loci_starts;
    uint64_t *rs = wm_text_record_starts(text, &w.n_rec);
    if (!rs) return WM_NOMEM;
    w.rs = rs;
    wm_setk_sink_t dv = { cb, user, per_pattern, 0, 0 };
    const wm_setk_gpu_t *gpu = wm_context_gpu(cx, &wm_setk_family);
    wm_status st;
    if (gpu && gpu->supports(w.s)) {
        /* Out of GPU memory: smaller batches, then the CPU, each going on
        ** from the last end whose matches were delivered. */
        uint64_t from = own_from, done = own_from;
        do {
            st = wm_setk_gpu_scan(cx, gpu, w.s, text, rs, w.n_rec, from, &dv, &done);
            from = done;
        } while (wm_gpu_retry(cx, &st));
        if (wm_gpu_fall_back(cx, st, "search")) st = cpu_scan(cx, &w, from, &dv);
    } else {
        if (cx->backend == WM_BACKEND_CUDA && cx->note[0] == '\0')
            snprintf(cx->note, sizeof cx->note,
                     "this pattern set within k errors runs on the CPU threads (%d): the GPU "
                     "takes DNA sets of patterns up to 256 bases (Hamming patterns too short "
                     "to seed: up to 64), exact regions only with Hamming on patterns too "
                     "short to seed",
                     wm_pool_size(cx->pool));
        st = cpu_scan(cx, &w, own_from, &dv);
    }
    free(rs);
    if (st == WM_OK && n_matches) *n_matches = dv.count;
    return st;
}

const wm_db_ops_t wm_setk_db_ops = { "set within k", setk_scan, wm_setk_free };

/* The GPU table and the device buffers it keeps exist only with CUDA. */
const wm_family_t wm_setk_family = {
    "setk",
#if WM_HAVE_CUDA
    &wm_setk_gpu_cuda,
    wm_setk_cuda_free_cache,
#else
    NULL,
    NULL,
#endif
};
