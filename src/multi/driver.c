/*
** driver.c -- the driver for pattern sets (the scan of a wm_compile_set
** database): chunks, threads, record borders, counting, ordered delivery.
**
** CPU: as for one pattern, the owned ends are cut into chunks by
** core/plan.h; each record a chunk touches is scanned from max(record start,
** first owned end - (longest - 1)), so no occurrence crosses a record border
** and each is found by exactly the chunk that owns its end. Listing: each
** chunk turns its raw (end, uid) hits into matches on the pool's thread that
** scanned it (a uid stands for every pattern id and strand with that
** string; at one end they are sorted by pattern, then strand), and the
** chunks run in core/waves.h's waves, whose matches the calling thread only
** hands to the callback, in order. Counting: per-thread uid counters,
** summed at the end, then spread over the pattern ids.
** CUDA: the GPU scans whole batches across record borders and returns hits in
** end order; listing drops hits that start before their record, counting
** subtracts the occurrences that cross a border, found on the CPU in small
** windows around each border.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/plan.h"
#include "core/waves.h"
#include "multi/mset.h"

#define WAVE_PER_THREAD 4

/* ---- turning hits into matches ---------------------------------------------- */

typedef struct {
    const wm_mset_t *s;
    const uint64_t *rs; /* record starts, n_rec + 1 entries */
    size_t n_rec;
} records_t;

/* One end's (entry << 32 | uid) list, kept between calls. */
typedef struct {
    uint64_t *a;
    size_t cap;
} group_t;

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Append the matches of hits h[0, n) (sorted by end) to out, in the
** contract's order; hits that start before their record's start are dropped
** (only the GPU produces them). 0, or -1 out of memory. */
static int expand_hits(const records_t *R, const wm_mhit_t *h, size_t n, group_t *g,
                       wm_matchvec_t *out) {
    const wm_mset_t *s = R->s;
    size_t r = n ? wm_plan_record_of_end(R->rs, R->n_rec, h[0].end) : 0;
    for (size_t x = 0; x < n;) {
        uint64_t e = h[x].end;
        while (R->rs[r + 1] < e) r++;
        uint64_t rb = R->rs[r];
        size_t y = x + 1;
        while (y < n && h[y].end == e) y++;
        /* (entry << 32 | uid) for every pattern id the group stands for. */
        size_t ne = 0;
        for (size_t z = x; z < y; z++) {
            uint32_t u = h[z].uid;
            if (e - rb < wm_mset_len(s, u)) continue; /* crosses the record start */
            size_t k = s->ent_off[u + 1] - s->ent_off[u];
            if (ne + k > g->cap && wm_vec_grow((void **)&g->a, &g->cap, ne + k, sizeof *g->a))
                return -1;
            for (uint32_t q = s->ent_off[u]; q < s->ent_off[u + 1]; q++)
                g->a[ne++] = (uint64_t)s->ent[q] << 32 | u;
        }
        if (ne > 1) qsort(g->a, ne, sizeof *g->a, cmp_u64);
        if (out->n + ne > out->cap &&
            wm_vec_grow((void **)&out->a, &out->cap, out->n + ne, sizeof *out->a))
            return -1;
        for (size_t z = 0; z < ne; z++) {
            uint32_t ent = (uint32_t)(g->a[z] >> 32), u = (uint32_t)g->a[z];
            wm_match_t *m = &out->a[out->n++];
            memset(m, 0, sizeof *m);
            m->record = r;
            m->end = e - rb;
            m->start = m->end - wm_mset_len(s, u);
            m->strand = ent & 1;
            m->pattern = ent >> 1;
        }
        x = y;
    }
    return 0;
}

/* ---- CPU ----------------------------------------------------------------------- */

static wm_mscan_fn cpu_scan_fn(const wm_mset_t *s) {
    switch (s->algo) {
    case WM_ALGO_PFAC: return wm_pfac_scan;
    case WM_ALGO_WUMANBER:
    case WM_ALGO_WUMANBER_PAPER: return wm_wu_scan;
    case WM_ALGO_QGRAM: return wm_qgram_scan;
    case WM_ALGO_TEDDY: return wm_teddy_scan;
    default: return wm_ac_scan;
    }
}

typedef struct {
    const wm_mset_t *s;
    const uint8_t *seq;
    uint64_t len, own_from;
    const uint64_t *rs;
    size_t n_rec;
    wm_plan_t plan; /* chunks of the owned ends */
    uint64_t first_chunk;
    uint64_t **counts; /* per thread, when counting */
    int failed;
} cpu_job_t;

/* Scan chunk c of the plan into a sink: 0, or -1 (no memory). */
static int scan_chunk(const cpu_job_t *j, uint64_t c, wm_msink_t *sink) {
    const wm_mset_t *s = j->s;
    wm_mscan_fn scan = cpu_scan_fn(s);
    uint64_t lo, hi;
    wm_plan_part(&j->plan, c, &lo, &hi);
    wm_piece_t pc;
    size_t r = wm_plan_first_record(j->rs, j->n_rec, lo);
    while (wm_plan_next_piece(j->rs, j->n_rec, s->max_len - 1, lo, hi, &r, &pc)) {
        if (j->rs[pc.rec + 1] - j->rs[pc.rec] < s->min_len) continue;
        if (scan(s, j->seq, pc.scan_from, pc.own_from, pc.own_to, sink)) return -1;
    }
    return 0;
}

/* Counting: chunk first_chunk + i into the thread's counters. */
static void count_chunk(void *arg, size_t i, int tid) {
    cpu_job_t *j = arg;
    wm_msink_t sink = { NULL, j->counts[tid] };
    if (scan_chunk(j, j->first_chunk + i, &sink)) j->failed = 1;
}

/* CPU chunks over the owned ends. */
static void plan_chunks(const wm_context_t *cx, cpu_job_t *j, int listing) {
    uint64_t chunk = cx->opts.chunk_bytes;
    if (chunk == 0) {
        /* Listing keeps two waves' matches in memory (40 bytes each), in
        ** vectors a chunk's slot reuses from wave to wave. With dense
        ** matches (one per byte or more) small chunks bound that memory
        ** and keep it reused: 16,000 8-mers over 70 MB on 2 threads faulted
        ** in 164,000 pages with chunks of 512 KiB (each slot's vector grown
        ** afresh by every call) and 25,600 with 64 KiB, 17% faster. A
        ** chunk stays 32 times the longest pattern, its halo's length. */
        uint64_t hi = listing ? 1u << 16 : 16u << 20;
        chunk = (j->len - j->own_from) / ((uint64_t)wm_pool_size(cx->pool) * 8) + 1;
        if (chunk < (1u << 16)) chunk = 1u << 16;
        if (chunk > hi) chunk = hi;
        if (listing && chunk < 32 * (uint64_t)j->s->max_len) chunk = 32 * (uint64_t)j->s->max_len;
    }
    j->plan = wm_plan_sized(j->own_from, j->len, chunk);
}

/* Listing: chunks in waves (core/waves.h); a chunk's raw hits are turned
** into matches on the thread that scanned it, and the calling thread only
** hands each wave's matches to the callback, in order, while the next wave
** is scanned. */
typedef struct {
    wm_mhitvec_t hits; /* the chunk's raw hits (kept for the next chunk) */
    group_t grp;
    wm_matchvec_t m; /* its matches */
} listed_t;

typedef struct {
    wm_match_cb cb;
    void *user;
} callback_t;

static int list_chunk(void *arg, uint64_t i, void *out) {
    const cpu_job_t *j = arg;
    listed_t *L = out;
    wm_msink_t sink = { &L->hits, NULL };
    if (scan_chunk(j, i, &sink)) return -1;
    records_t R = { j->s, j->rs, j->n_rec };
    return expand_hits(&R, L->hits.a, L->hits.n, &L->grp, &L->m);
}
static wm_status list_deliver(void *user, const void *out) {
    const callback_t *c = user;
    return wm_matchvec_deliver(&((const listed_t *)out)->m, c->cb, c->user);
}
static void listed_empty(void *out) {
    listed_t *L = out;
    L->hits.n = 0;
    L->m.n = 0;
}
static void listed_release(void *out) {
    listed_t *L = out;
    wm_mhitvec_free(&L->hits);
    free(L->grp.a);
    wm_matchvec_free(&L->m);
}

static wm_status cpu_list(wm_context_t *cx, cpu_job_t *j, callback_t *c) {
    wm_waves_t waves = { sizeof(listed_t), list_chunk,    j, list_deliver, c,
                         listed_empty,     listed_release };
    return wm_waves_run(cx, &j->plan, j->own_from, j->len, &waves);
}

/* Progress over the owned ends, after the wave ending at chunk `last`. */
static void report(wm_context_t *cx, const cpu_job_t *j, uint64_t last) {
    if (!cx->opts.progress) return;
    uint64_t lo, hi;
    wm_plan_part(&j->plan, last, &lo, &hi);
    cx->opts.progress(hi - j->own_from, j->len - j->own_from, cx->opts.progress_user);
}

static wm_status cpu_count(wm_context_t *cx, cpu_job_t *j, uint64_t *uid_counts) {
    int T = wm_pool_size(cx->pool);
    size_t nu = j->s->n_uniq;
    j->counts = calloc((size_t)T, sizeof *j->counts);
    if (!j->counts) return WM_NOMEM;
    wm_status st = WM_OK;
    for (int t = 0; t < T && st == WM_OK; t++)
        if (!(j->counts[t] = calloc(nu, sizeof **j->counts))) st = WM_NOMEM;
    uint64_t n_chunks = j->plan.n;
    size_t wave = (size_t)T * WAVE_PER_THREAD;
    for (uint64_t c0 = 0; c0 < n_chunks && st == WM_OK; c0 += wave) {
        size_t n = n_chunks - c0 < wave ? (size_t)(n_chunks - c0) : wave;
        j->first_chunk = c0;
        wm_pool_for(cx->pool, n, count_chunk, j);
        if (j->failed) st = WM_NOMEM;
        report(cx, j, c0 + n - 1);
    }
    for (int t = 0; t < T; t++) {
        if (st == WM_OK)
            for (size_t u = 0; u < nu; u++) uid_counts[u] += j->counts[t][u];
        free(j->counts[t]);
    }
    free(j->counts);
    return st;
}

/* ---- CUDA: fixing up counts at record borders ---------------------------------------- */

/* Subtract from uid_counts (or the total) every occurrence that crosses a record border:
** the GPU counted it, the contract does not. Each is found once, at the
** first border it crosses (its start lies in the record before). */
static wm_status subtract_crossing(const wm_mset_t *s, const uint8_t *seq, const uint64_t *rs,
                                   size_t n_rec, uint64_t own_from, uint64_t *uid_counts,
                                   uint64_t *total) {
    wm_mscan_fn scan = cpu_scan_fn(s);
    wm_mhitvec_t hv = { 0 };
    wm_msink_t sink = { &hv, NULL };
    uint64_t reach = s->max_len - 1, len = rs[n_rec];
    for (size_t r = 1; r < n_rec; r++) {
        uint64_t b = rs[r], prev = rs[r - 1];
        if (b == prev || b == len) continue;
        uint64_t from = b - prev > reach ? b - reach : prev;
        uint64_t to = len - b > reach ? b + reach : len;
        hv.n = 0;
        if (scan(s, seq, from, b, to, &sink)) {
            wm_mhitvec_free(&hv);
            return WM_NOMEM;
        }
        for (size_t x = 0; x < hv.n; x++)
            if (hv.a[x].end - wm_mset_len(s, hv.a[x].uid) < b && hv.a[x].end > own_from) {
                uint32_t u = hv.a[x].uid;
                if (uid_counts) uid_counts[u]--;
                else *total -= s->ent_off[u + 1] - s->ent_off[u];
            }
    }
    wm_mhitvec_free(&hv);
    return WM_OK;
}

/* Hits the GPU listed, in end order, are cut into pieces of about this many
** (a piece ends where an end changes: expand_hits takes an end's hits
** together); a round of as many pieces as the pool has threads is widened to
** wm_mhit_t and turned into matches on the pool, then handed to the
** callback in order on the calling thread. */
#define GPU_PIECE 16384

typedef struct {
    size_t x, y; /* the piece: hits [x, y) of the batch */
    wm_mhit_t *wide;
    size_t cap;
    group_t grp;
    wm_matchvec_t m;
    int failed;
} gpu_piece_t;

typedef struct {
    records_t R;
    callback_t c;
    wm_pool_t *pool;
    gpu_piece_t *pc; /* a round's pieces, one a thread */
    size_t n_pc;
    const wm_mhit32_t *hits; /* the batch being expanded */
    uint64_t base;
} gpu_list_t;

static void expand_piece(void *arg, size_t i, int tid) {
    gpu_list_t *g = arg;
    gpu_piece_t *p = &g->pc[i];
    size_t k = p->y - p->x;
    (void)tid;
    p->m.n = 0;
    p->failed = 0;
    if (k > p->cap) {
        wm_mhit_t *w = realloc(p->wide, k * sizeof *w);
        if (!w) {
            p->failed = 1;
            return;
        }
        p->wide = w;
        p->cap = k;
    }
    for (size_t z = 0; z < k; z++) {
        p->wide[z].end = g->base + g->hits[p->x + z].end;
        p->wide[z].uid = g->hits[p->x + z].uid;
    }
    if (expand_hits(&g->R, p->wide, k, &p->grp, &p->m)) p->failed = 1;
}

static wm_status gpu_batch(const wm_mhit32_t *hits, size_t n, uint64_t base, void *user) {
    gpu_list_t *g = user;
    g->hits = hits;
    g->base = base;
    for (size_t x = 0; x < n;) {
        size_t np = 0;
        for (; np < g->n_pc && x < n; np++) {
            size_t y = n - x > GPU_PIECE ? x + GPU_PIECE : n;
            while (y < n && hits[y].end == hits[y - 1].end) y++;
            g->pc[np].x = x;
            g->pc[np].y = y;
            x = y;
        }
        wm_pool_for(g->pool, np, expand_piece, g);
        for (size_t i = 0; i < np; i++) {
            if (g->pc[i].failed) return WM_NOMEM;
            wm_status st = wm_matchvec_deliver(&g->pc[i].m, g->c.cb, g->c.user);
            if (st != WM_OK) return st;
        }
    }
    return WM_OK;
}

static void gpu_list_free(gpu_list_t *g) {
    for (size_t i = 0; g->pc && i < g->n_pc; i++) {
        free(g->pc[i].wide);
        free(g->pc[i].grp.a);
        wm_matchvec_free(&g->pc[i].m);
    }
    free(g->pc);
}

/* Counts of the uids spread over the pattern ids each stands for: the total
** matches, and per_pattern[id] += (when not NULL). */
static uint64_t spread_counts(const wm_mset_t *s, const uint64_t *uc, uint64_t *per_pattern) {
    uint64_t total = 0;
    for (size_t u = 0; u < s->n_uniq; u++) {
        total += uc[u] * (s->ent_off[u + 1] - s->ent_off[u]);
        if (per_pattern)
            for (uint32_t q = s->ent_off[u]; q < s->ent_off[u + 1]; q++)
                per_pattern[s->ent[q] >> 1] += uc[u];
    }
    return total;
}

/* The GPU's scan, tried again with smaller batches when the GPU runs out of
** memory; *from: where a listing got to (the CPU goes on from there). */
static wm_status gpu_scan(wm_context_t *cx, const wm_multi_gpu_t *gpu, const wm_mset_t *s,
                          const wm_text_t *text, uint64_t *from, wm_mhit_batch_fn sink, void *user,
                          uint64_t *uid_counts, uint64_t *total) {
    wm_status st;
    uint64_t done = *from;
    do {
        st = gpu->scan(cx, s, text, *from, sink, user, uid_counts, total, &done);
        *from = done;
    } while (wm_gpu_retry(cx, &st));
    return st;
}

/* ---- the scan of a wm_compile_set database ----------------------------------------- */

wm_status wm_multi_scan(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                        uint64_t own_from, wm_match_cb cb, void *user, uint64_t *n_matches,
                        uint64_t *per_pattern) {
    const wm_mset_t *s = wm_mset_of(db);
    size_t n_rec;
    uint64_t *rs = wm_text_record_starts(text, &n_rec);
    if (!rs) return WM_NOMEM;
    const wm_multi_gpu_t *gpu = wm_context_gpu(cx, &wm_multi_family);
    if (gpu && !gpu->supports(s)) {
        gpu = NULL;
        if (cx->backend == WM_BACKEND_CUDA && cx->note[0] == '\0') {
            if (s->asked == WM_ALGO_AUTO)
                snprintf(cx->note, sizeof cx->note,
                         "this pattern set runs on the CPU threads (%d): the GPU takes strings "
                         "of up to 1 GiB",
                         wm_pool_size(cx->pool));
            else
                snprintf(cx->note, sizeof cx->note,
                         "--algo %s runs on the CPU threads (%d): the GPU runs ac, pfac, qgram "
                         "and wumanber-paper",
                         wm_algo_name(s->asked), wm_pool_size(cx->pool));
        }
    }
    cpu_job_t j;
    memset(&j, 0, sizeof j);
    j.s = s;
    j.seq = text->seq;
    j.len = text->len;
    j.own_from = own_from;
    j.rs = rs;
    j.n_rec = n_rec;
    uint64_t *uc = NULL;
    wm_status st;
    if (cb) {
        callback_t c = { cb, user };
        st = WM_OK;
        if (gpu) {
            gpu_list_t g;
            memset(&g, 0, sizeof g);
            g.R = (records_t){ s, rs, n_rec };
            g.c = c;
            g.pool = cx->pool;
            g.n_pc = (size_t)wm_pool_size(cx->pool);
            g.pc = calloc(g.n_pc, sizeof *g.pc);
            st = g.pc ? gpu_scan(cx, gpu, s, text, &j.own_from, gpu_batch, &g, NULL, NULL)
                      : WM_NOMEM;
            gpu_list_free(&g);
        }
        if (!gpu || wm_gpu_fall_back(cx, st, "the set search")) {
            plan_chunks(cx, &j, 1);
            st = cpu_list(cx, &j, &c);
        }
        free(rs);
        return st;
    }
    if (gpu && !per_pattern) {
        /* the total alone: the GPU adds it up itself */
        uint64_t total = 0, from = own_from;
        st = gpu_scan(cx, gpu, s, text, &from, NULL, NULL, NULL, &total);
        if (st == WM_OK && n_rec > 1)
            st = subtract_crossing(s, text->seq, rs, n_rec, own_from, NULL, &total);
        if (st == WM_OK) *n_matches = total;
        if (!wm_gpu_fall_back(cx, st, "the set count")) {
            free(rs);
            return st;
        }
        gpu = NULL;
    }
    if (!(uc = calloc(s->n_uniq, sizeof *uc))) {
        st = WM_NOMEM;
    } else {
        uint64_t from = own_from;
        st = WM_OK;
        if (gpu) {
            st = gpu_scan(cx, gpu, s, text, &from, NULL, NULL, uc, NULL);
            if (st == WM_OK && n_rec > 1)
                st = subtract_crossing(s, text->seq, rs, n_rec, own_from, uc, NULL);
        }
        if (!gpu || wm_gpu_fall_back(cx, st, "the set count")) {
            plan_chunks(cx, &j, 0);
            st = cpu_count(cx, &j, uc);
        }
        if (st == WM_OK) *n_matches = spread_counts(s, uc, per_pattern);
    }
    free(uc);
    free(rs);
    return st;
}

/* The GPU table and the device buffers it keeps exist only with CUDA. */
const wm_family_t wm_multi_family = {
    "multi",
#if WM_HAVE_CUDA
    &wm_multi_gpu_cuda,
    wm_multi_cuda_free_cache,
#else
    NULL,
    NULL,
#endif
};
