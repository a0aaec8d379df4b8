/*
** search.c -- wm_search and wm_count: the driver every backend shares.
**
** CPU: the text is cut into chunks (a chunk may hold many small records or a
** piece of a large one); each chunk scans from `halo` bytes before its first
** end (never before its record's start), so every end it owns sees every
** occurrence that can end there. Chunks run on the pool in waves, so memory
** stays bounded however dense the matches; each wave is delivered in order.
** CUDA: (for the databases the GPU runs: wm_cuda_supports) the GPU returns raw hits in end order; the host finds each hit's
** record, re-checks hits near a record's start (the GPU scans across record
** borders) and finds starts, in parallel, then delivers in order.
** A context over several devices hands the text to src/core/shard.c, which
** cuts it and calls back in here once per device.
*/
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "core/msearch.h"
#include "core/shard.h"

#define WAVE_PER_THREAD 4

typedef struct {
    const wm_db_t *db;
    const wm_text_t *text;
    const uint64_t *rs;      /* record starts, n_rec + 1 entries (rs[n_rec] = len) */
    size_t n_rec;
    int want_starts;         /* 0 when only counting                             */
} job_t;

/* Record starts of a text; a text given as one record gets a 2-entry array. */
static uint64_t *record_starts(const wm_text_t *t, size_t *n_rec) {
    size_t n = t->rec_start && t->n_rec ? t->n_rec : 1;
    uint64_t *rs = malloc((n + 1) * sizeof *rs);
    if (!rs) return NULL;
    if (t->rec_start && t->n_rec) memcpy(rs, t->rec_start, n * sizeof *rs);
    else rs[0] = 0;
    rs[n] = t->len;
    *n_rec = n;
    return rs;
}

/* The record holding end e (rs[r] < e <= rs[r+1]); e > 0. */
static size_t record_of_end(const uint64_t *rs, size_t n_rec, uint64_t e) {
    size_t lo = 0, hi = n_rec;                /* answer in [lo, hi) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (rs[mid] < e) lo = mid; else hi = mid;
    }
    return lo;
}

static wm_cpu_scan_fn cpu_kernel(const wm_db_t *db) {
    switch (db->algo) {
    case WM_ALGO_SHIFTOR: return wm_shiftor_scan;
    case WM_ALGO_MYERS: return wm_myers_scan;
    default: return wm_bitap_scan;
    }
}

/* Turn one raw hit into a match of record r; returns 1 if it is one. */
static int finish_hit(const job_t *j, size_t r, const wm_hit_t *h, int exact, wm_match_t *out) {
    const wm_db_t *db = j->db;
    uint64_t rb = j->rs[r];
    uint64_t start;
    uint32_t errors;
    if (!j->want_starts && exact) {
        out->errors = h->errors;
        return 1;
    }
    if (!wm_resolve_end(db, (int)h->strand, j->text->seq, rb, h->end, exact ? (int)h->errors : -1,
                        &start, &errors))
        return 0;
    out->record = r;
    out->start = start - rb;
    out->end = h->end - rb;
    out->errors = errors;
    out->strand = h->strand;
    return 1;
}

/* ---- CPU ----------------------------------------------------------------- */

typedef struct {
    job_t job;
    uint64_t chunk;          /* bytes per chunk          */
    uint64_t first_chunk;    /* of the current wave      */
    wm_matchvec_t *out;      /* one per chunk in a wave  */
    int *failed;
} cpu_wave_t;

static void cpu_chunk(void *arg, size_t i, int tid) {
    (void)tid;
    cpu_wave_t *w = arg;
    const job_t *j = &w->job;
    const wm_db_t *db = j->db;
    const uint8_t *seq = j->text->seq;
    uint64_t a = (w->first_chunk + i) * w->chunk;
    uint64_t b = a + w->chunk < j->text->len ? a + w->chunk : j->text->len;
    /* With a suffix filter the kernel scans the suffix and every end it finds
    ** is a candidate verified against the whole pattern. */
    const wm_db_t *kdb = db->suffix ? db->suffix : db;
    uint64_t halo = wm_db_halo(kdb);
    wm_cpu_scan_fn scan = cpu_kernel(kdb);
    int exact = db->suffix == NULL;
    wm_matchvec_t *out = &w->out[i];
    wm_hitvec_t hv[2] = {{0}};

    /* records overlapping [a, b): the one holding byte a, then onwards */
    size_t r = a == 0 ? 0 : record_of_end(j->rs, j->n_rec, a + 1);
    for (; r < j->n_rec && j->rs[r] < b; r++) {
        uint64_t rb = j->rs[r], re = j->rs[r + 1];
        uint64_t own_from = a > rb ? a : rb, own_to = b < re ? b : re;
        if (own_to <= own_from || re - rb < db->m - (db->metric == WM_METRIC_EDIT ? db->k : 0))
            continue;
        uint64_t scan_from = own_from - rb > halo ? own_from - halo : rb;
        for (int s = 0; s < db->n_strands; s++) {
            hv[s].n = 0;
            /* With edits and the algorithm left to us, try the pigeonhole
            ** filter first; it verifies with the same kernel. */
            int r = 1;
            if (kdb->k > 0 && kdb->opts.algo == WM_ALGO_AUTO)
                r = wm_pigeonhole_scan(kdb, s, scan, seq, scan_from, own_from, own_to, &hv[s]);
            if (r < 0 || (r > 0 && scan(kdb, s, seq, scan_from, own_from, own_to, &hv[s]))) {
                *w->failed = 1;
                goto done;
            }
        }
        /* merge strands by end, '+' first */
        size_t x = 0, y = 0;
        while (x < hv[0].n || y < hv[1].n) {
            const wm_hit_t *h;
            if (y >= hv[1].n || (x < hv[0].n && hv[0].a[x].end <= hv[1].a[y].end)) h = &hv[0].a[x++];
            else h = &hv[1].a[y++];
            wm_match_t mt;
            memset(&mt, 0, sizeof mt);
            if (finish_hit(j, r, h, exact, &mt) && wm_matchvec_push(out, &mt)) { *w->failed = 1; goto done; }
        }
    }
done:
    wm_hitvec_free(&hv[0]);
    wm_hitvec_free(&hv[1]);
}

typedef struct {
    wm_match_cb cb;
    void *user;
    uint64_t count;
} deliver_t;

static wm_status search_cpu(wm_context_t *cx, const job_t *job, deliver_t *dv) {
    uint64_t len = job->text->len;
    int T = wm_pool_size(cx->pool);
    uint64_t chunk = cx->opts.chunk_bytes;
    if (chunk == 0) {
        chunk = len / ((uint64_t)T * 8) + 1;
        if (chunk < (1u << 18)) chunk = 1u << 18;
        if (chunk > (16u << 20)) chunk = 16u << 20;
    }
    uint64_t n_chunks = (len + chunk - 1) / chunk;
    size_t wave = (size_t)T * WAVE_PER_THREAD;
    cpu_wave_t w;
    memset(&w, 0, sizeof w);
    w.job = *job;
    w.chunk = chunk;
    int failed = 0;
    w.failed = &failed;
    w.out = calloc(wave, sizeof *w.out);
    if (!w.out) return WM_NOMEM;
    wm_status st = WM_OK;
    for (uint64_t c0 = 0; c0 < n_chunks && st == WM_OK; c0 += wave) {
        size_t n = n_chunks - c0 < wave ? (size_t)(n_chunks - c0) : wave;
        w.first_chunk = c0;
        for (size_t i = 0; i < n; i++) w.out[i].n = 0;
        wm_pool_for(cx->pool, n, cpu_chunk, &w);
        if (failed) { st = WM_NOMEM; break; }
        for (size_t i = 0; i < n && st == WM_OK; i++) {
            dv->count += w.out[i].n;
            if (dv->cb)
                for (size_t x = 0; x < w.out[i].n; x++)
                    if (dv->cb(&w.out[i].a[x], dv->user)) { st = WM_STOPPED; break; }
        }
        if (cx->opts.progress) {
            uint64_t done = (c0 + n) * chunk < len ? (c0 + n) * chunk : len;
            cx->opts.progress(done, len, cx->opts.progress_user);
        }
    }
    for (size_t i = 0; i < wave; i++) wm_matchvec_free(&w.out[i]);
    free(w.out);
    return st;
}

/* ---- CUDA: finishing the GPU's raw hits ------------------------------------ */

#define FINISH_PIECE 4096

typedef struct {
    const job_t *job;
    const wm_hit_t *hits;
    size_t n;
    wm_matchvec_t *out;      /* one per piece */
    int *failed;
    deliver_t *dv;
    wm_context_t *cx;
} finish_t;

static void finish_piece(void *arg, size_t i, int tid) {
    (void)tid;
    finish_t *f = arg;
    const job_t *j = f->job;
    uint64_t reach = (uint64_t)j->db->m + (j->db->metric == WM_METRIC_EDIT ? j->db->k : 0);
    size_t lo = i * FINISH_PIECE, hi = lo + FINISH_PIECE < f->n ? lo + FINISH_PIECE : f->n;
    size_t r = record_of_end(j->rs, j->n_rec, f->hits[lo].end);
    for (size_t x = lo; x < hi; x++) {
        const wm_hit_t *h = &f->hits[x];
        while (j->rs[r + 1] < h->end) r++;
        /* Exact unless the scan that found it could have read bytes before
        ** the record (an occurrence may be up to m + k long), or the GPU ran a
        ** suffix filter and reports a candidate (errors = all ones). */
        int exact = h->end - j->rs[r] >= reach && h->errors != UINT32_MAX;
        wm_match_t mt;
        memset(&mt, 0, sizeof mt);
        if (finish_hit(j, r, h, exact, &mt) && wm_matchvec_push(&f->out[i], &mt)) { *f->failed = 1; return; }
    }
}

static wm_status finish_batch(const wm_hit_t *hits, size_t n, void *user) {
    finish_t *f = user;
    if (n == 0) return WM_OK;
    size_t pieces = (n + FINISH_PIECE - 1) / FINISH_PIECE;
    wm_matchvec_t *out = calloc(pieces, sizeof *out);
    if (!out) return WM_NOMEM;
    int failed = 0;
    f->hits = hits; f->n = n; f->out = out; f->failed = &failed;
    wm_pool_for(f->cx->pool, pieces, finish_piece, f);
    wm_status st = failed ? WM_NOMEM : WM_OK;
    for (size_t i = 0; i < pieces && st == WM_OK; i++) {
        f->dv->count += out[i].n;
        if (f->dv->cb)
            for (size_t x = 0; x < out[i].n; x++)
                if (f->dv->cb(&out[i].a[x], f->dv->user)) { st = WM_STOPPED; break; }
    }
    for (size_t i = 0; i < pieces; i++) wm_matchvec_free(&out[i]);
    free(out);
    return st;
}

/* ---- entry points ----------------------------------------------------------- */

static wm_status check_call(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text) {
    if (!cx || cx->magic != WM_CONTEXT_MAGIC || !db || db->magic != WM_DB_MAGIC || !text ||
        (!text->seq && text->len > 0) || (text->n_rec > 0 && !text->rec_start))
        return WM_INVALID;
    if (text->rec_start && text->n_rec) {
        for (size_t r = 0; r < text->n_rec; r++)
            if (text->rec_start[r] > text->len || (r && text->rec_start[r] < text->rec_start[r - 1]))
                return WM_INVALID;
        if (text->rec_start[0] != 0) return WM_INVALID;
    }
    cx->errmsg[0] = 0;
    return WM_OK;
}

static wm_status run(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text, deliver_t *dv,
                     int want_starts) {
    wm_status st = check_call(cx, db, text);
    if (st != WM_OK || text->len == 0) return st;
    if (cx->n_sub > 1)               /* many devices: cut the text among them */
        return wm_shard_text(cx, db, text, dv->cb, dv->user, dv->cb ? NULL : &dv->count, NULL);
    job_t job;
    job.db = db;
    job.text = text;
    job.want_starts = want_starts;
    uint64_t *rs = record_starts(text, &job.n_rec);
    if (!rs) return WM_NOMEM;
    job.rs = rs;
    if (db->set) {
        st = wm_msearch(cx, db, text, rs, job.n_rec, dv->cb, dv->user, dv->cb ? NULL : &dv->count,
                        NULL);
    } else if (cx->backend == WM_BACKEND_CUDA && wm_cuda_supports(db)) {
        finish_t f;
        memset(&f, 0, sizeof f);
        f.job = &job; f.dv = dv; f.cx = cx;
        st = wm_cuda_search(cx, db, text, finish_batch, &f);
    } else {
        st = search_cpu(cx, &job, dv);
    }
    free(rs);
    return st;
}

wm_status wm_search(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                    wm_match_cb cb, void *user) {
    if (!cb) return WM_INVALID;
    deliver_t dv = { cb, user, 0 };
    return run(cx, db, text, &dv, 1);
}

wm_status wm_count_per_pattern(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                               uint64_t *counts) {
    if (!counts) return WM_INVALID;
    wm_status st = check_call(cx, db, text);
    if (st != WM_OK) return st;
    size_t np = wm_db_pattern_count(db);
    memset(counts, 0, np * sizeof *counts);
    if (text->len == 0) return WM_OK;
    if (cx->n_sub > 1) {
        uint64_t total = 0;
        return wm_shard_text(cx, db, text, NULL, NULL, &total, counts);
    }
    if (!db->set) return wm_count(cx, db, text, &counts[0]);
    size_t n_rec;
    uint64_t *rs = record_starts(text, &n_rec);
    if (!rs) return WM_NOMEM;
    uint64_t total = 0;
    st = wm_msearch(cx, db, text, rs, n_rec, NULL, NULL, &total, counts);
    free(rs);
    return st;
}

wm_status wm_count(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text, uint64_t *n) {
    if (!n) return WM_INVALID;
    *n = 0;
    deliver_t dv = { NULL, NULL, 0 };
    wm_status st = run(cx, db, text, &dv, 0);
    if (st == WM_OK) *n = dv.count;
    return st;
}
