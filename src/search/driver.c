/*
** driver.c -- scanning a text for one pattern (the scan of a wm_compile
** database): the driver every backend shares.
**
** CPU: the text's owned ends are cut into chunks by core/plan.h (a chunk may
** hold many small records or a piece of a large one); each record piece
** scans from the pattern's halo before its first end (never before its
** record's start), so every end it owns sees every occurrence that can end
** there. Chunks run on the pool in waves, so memory stays bounded however
** dense the matches; each wave is delivered in order.
** GPU (when the context has this family's GPU table and it supports the
** pattern): the GPU returns raw hits in end order; the host finds each hit's
** record, re-checks hits near a record's start (the GPU scans across record
** borders) and finds starts, in parallel, then delivers in order.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/plan.h"
#include "core/waves.h"
#include "search/search.h"

typedef struct {
    const wm_pat_t *pat;
    const wm_text_t *text;
    const uint64_t *rs; /* record starts, n_rec + 1 entries (rs[n_rec] = len) */
    size_t n_rec;
    int want_starts; /* 0 when only counting */
} job_t;

int wm_hitvec_push(wm_hitvec_t *v, uint64_t end, uint32_t errors, uint32_t strand) {
    if (v->n == v->cap && wm_vec_grow((void **)&v->a, &v->cap, v->n + 1, sizeof *v->a)) return -1;
    wm_hit_t *h = &v->a[v->n++];
    h->end = end;
    h->errors = errors;
    h->strand = strand;
    return 0;
}

void wm_hitvec_free(wm_hitvec_t *v) {
    free(v->a);
    v->a = NULL;
    v->n = v->cap = 0;
}

wm_cpu_scan_fn wm_pat_kernel(const wm_pat_t *pat) {
    switch (pat->algo) {
    case WM_ALGO_SHIFTOR: return wm_shiftor_scan;
    case WM_ALGO_MYERS: return wm_myers_scan;
    default: return wm_bitap_scan;
    }
}

/* A hit of a pattern with exact regions (its middle's end): the middle
** verified when the scan could not be sure of it, then the regions. */
static int finish_flanks(const job_t *j, size_t r, const wm_hit_t *h, int exact, wm_match_t *out) {
    uint64_t rb = j->rs[r], start = 0, end;
    uint32_t d = h->errors, errors;
    if (!exact && !wm_resolve_end(j->pat, (int)h->strand, j->text->seq, rb, h->end, -1, &start, &d))
        return 0;
    if (!wm_flanks_finish(j->pat, (int)h->strand, j->text->seq, rb, j->rs[r + 1], h->end, d,
                          j->want_starts, &start, &end, &errors))
        return 0;
    out->record = r;
    out->start = start - rb;
    out->end = end - rb;
    out->errors = errors;
    out->strand = h->strand;
    return 1;
}

/* Turn one raw hit into a match of record r; returns 1 if it is one. */
static int finish_hit(const job_t *j, size_t r, const wm_hit_t *h, int exact, wm_match_t *out) {
    uint64_t rb = j->rs[r];
    uint64_t start;
    uint32_t errors;
    if (j->pat->flanks) return finish_flanks(j, r, h, exact, out);
    if (!j->want_starts && exact) {
        out->errors = h->errors;
        return 1;
    }
    if (!wm_resolve_end(j->pat, (int)h->strand, j->text->seq, rb, h->end,
                        exact ? (int)h->errors : -1, &start, &errors))
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
    wm_plan_t plan; /* chunks of the owned ends */
} cpu_wave_t;

/* The pattern the CPU kernels scan: with a suffix filter, the suffix. */
static const wm_pat_t *kernel_pat(const wm_pat_t *pat) { return pat->suffix ? pat->suffix : pat; }

static int by_end_strand(const void *x, const void *y) {
    const wm_match_t *p = x, *q = y;
    if (p->end != q->end) return p->end < q->end ? -1 : 1;
    return p->strand < q->strand ? -1 : p->strand > q->strand;
}

/* Scan one record piece (its scan_from set by the kernel pattern's halo) for
** every strand and turn its hits into matches. */
static int scan_piece(const job_t *j, const wm_piece_t *pc, wm_hitvec_t hv[2], wm_matchvec_t *out) {
    const wm_pat_t *pat = j->pat;
    const uint8_t *seq = j->text->seq;
    /* With a suffix filter the kernel scans the suffix and every end it finds
    ** is a candidate verified against the whole pattern. */
    const wm_pat_t *kpat = kernel_pat(pat);
    wm_cpu_scan_fn scan = wm_pat_kernel(kpat);
    int exact = pat->suffix == NULL;
    uint64_t scan_from = pc->scan_from;
    uint64_t rb = j->rs[pc->rec];
    for (int s = 0; s < pat->n_strands; s++) {
        hv[s].n = 0;
        /* With exact regions the piece owns the matches' ends, and the
        ** middle's end a strand's suffix region before each. */
        uint64_t own_from = pc->own_from, own_to = pc->own_to;
        if (pat->flanks) {
            uint64_t shift = pat->flanks->suf[s];
            own_from = own_from - rb > shift ? own_from - shift : rb;
            own_to = own_to - rb > shift ? own_to - shift : rb;
            if (own_to <= own_from) continue;
            scan_from = wm_plan_scan_from(rb, own_from, wm_pat_halo(kpat));
        }
        /* With edits and the algorithm left to us, try the pigeonhole filter
        ** first; it verifies with the same kernel. */
        int r = 1;
        if (kpat->k > 0 && kpat->opts.algo == WM_ALGO_AUTO)
            r = wm_pigeonhole_scan(kpat, s, scan, seq, scan_from, own_from, own_to, &hv[s]);
        if (r < 0 || (r > 0 && scan(kpat, s, seq, scan_from, own_from, own_to, &hv[s]))) return -1;
    }
    if (pat->flanks) { /* strands shift by their own suffix: finish, then sort */
        size_t before = out->n;
        for (int s = 0; s < pat->n_strands; s++)
            for (size_t x = 0; x < hv[s].n; x++) {
                wm_match_t mt;
                memset(&mt, 0, sizeof mt);
                if (finish_hit(j, pc->rec, &hv[s].a[x], exact, &mt) && wm_matchvec_push(out, &mt))
                    return -1;
            }
        if (out->n - before > 1 && pat->n_strands > 1)
            qsort(out->a + before, out->n - before, sizeof *out->a, by_end_strand);
        return 0;
    }
    /* merge strands by end, '+' first */
    size_t x = 0, y = 0;
    while (x < hv[0].n || y < hv[1].n) {
        const wm_hit_t *h;
        if (y >= hv[1].n || (x < hv[0].n && hv[0].a[x].end <= hv[1].a[y].end)) h = &hv[0].a[x++];
        else h = &hv[1].a[y++];
        wm_match_t mt;
        memset(&mt, 0, sizeof mt);
        if (finish_hit(j, pc->rec, h, exact, &mt) && wm_matchvec_push(out, &mt)) return -1;
    }
    return 0;
}

static int cpu_chunk(void *arg, uint64_t i, void *res) {
    cpu_wave_t *w = arg;
    wm_matchvec_t *out = res;
    const job_t *j = &w->job;
    const wm_pat_t *pat = j->pat;
    /* the shortest text that can hold an occurrence */
    uint64_t shortest = pat->m - (pat->metric == WM_METRIC_EDIT ? pat->k : 0);
    uint64_t lo, hi;
    wm_plan_part(&w->plan, i, &lo, &hi);
    wm_hitvec_t hv[2] = { { 0 } };
    wm_piece_t pc;
    int rc = 0;
    size_t r = wm_plan_first_record(j->rs, j->n_rec, lo);
    while (rc == 0 &&
           wm_plan_next_piece(j->rs, j->n_rec, wm_pat_halo(kernel_pat(pat)), lo, hi, &r, &pc)) {
        if (j->rs[pc.rec + 1] - j->rs[pc.rec] < shortest) continue;
        rc = scan_piece(j, &pc, hv, out);
    }
    wm_hitvec_free(&hv[0]);
    wm_hitvec_free(&hv[1]);
    return rc;
}

typedef struct {
    wm_match_cb cb;
    void *user;
    uint64_t count;
} deliver_t;

/* A chunk's matches to the caller (wm_waves_t.deliver). */
static wm_status deliver(void *user, const void *res) {
    deliver_t *dv = user;
    const wm_matchvec_t *v = res;
    dv->count += v->n;
    return dv->cb ? wm_matchvec_deliver(v, dv->cb, dv->user) : WM_OK;
}

static wm_status search_cpu(wm_context_t *cx, const job_t *job, uint64_t own_from, deliver_t *dv) {
    uint64_t len = job->text->len;
    cpu_wave_t w;
    w.job = *job;
    w.plan = wm_plan_sized(own_from, len, wm_waves_chunk_size(cx, own_from, len, 8, 256u << 10));
    wm_waves_t waves = wm_waves_of_matches(cpu_chunk, &w, deliver, dv);
    return wm_waves_run(cx, &w.plan, own_from, len, &waves);
}

/* ---- GPU: finishing its raw hits ------------------------------------------- */

#define FINISH_PIECE 4096

typedef struct {
    const job_t *job;
    const wm_hit_t *hits;
    size_t n;
    wm_matchvec_t *out; /* one per piece */
    int *failed;
    deliver_t *dv;
    wm_context_t *cx;
} finish_t;

static void finish_piece(void *arg, size_t i, int tid) {
    (void)tid;
    finish_t *f = arg;
    const job_t *j = f->job;
    uint64_t reach = wm_pat_halo(j->pat) + 1;
    size_t lo = i * FINISH_PIECE, hi = lo + FINISH_PIECE < f->n ? lo + FINISH_PIECE : f->n;
    size_t r = wm_plan_record_of_end(j->rs, j->n_rec, f->hits[lo].end);
    for (size_t x = lo; x < hi; x++) {
        const wm_hit_t *h = &f->hits[x];
        while (j->rs[r + 1] < h->end) r++;
        /* Exact unless the scan that found it could have read bytes before
        ** the record (an occurrence may be up to m + k long), or the GPU ran a
        ** suffix filter and reports a candidate (errors = all ones). */
        int exact = h->end - j->rs[r] >= reach && h->errors != UINT32_MAX;
        wm_match_t mt;
        memset(&mt, 0, sizeof mt);
        if (finish_hit(j, r, h, exact, &mt) && wm_matchvec_push(&f->out[i], &mt)) {
            *f->failed = 1;
            return;
        }
    }
}

static wm_status finish_batch(const wm_hit_t *hits, size_t n, void *user) {
    finish_t *f = user;
    if (n == 0) return WM_OK;
    size_t pieces = (n + FINISH_PIECE - 1) / FINISH_PIECE;
    wm_matchvec_t *out = calloc(pieces, sizeof *out);
    if (!out) return WM_NOMEM;
    int failed = 0;
    f->hits = hits;
    f->n = n;
    f->out = out;
    f->failed = &failed;
    wm_pool_for(f->cx->pool, pieces, finish_piece, f);
    wm_status st = failed ? WM_NOMEM : WM_OK;
    for (size_t i = 0; i < pieces && st == WM_OK; i++) {
        f->dv->count += out[i].n;
        if (f->dv->cb) st = wm_matchvec_deliver(&out[i], f->dv->cb, f->dv->user);
    }
    for (size_t i = 0; i < pieces; i++) wm_matchvec_free(&out[i]);
    free(out);
    return st;
}

/* ---- the scan of a wm_compile database ------------------------------------- */

wm_status wm_search_scan(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                         uint64_t own_from, wm_match_cb cb, void *user, uint64_t *n_matches,
                         uint64_t *per_pattern) {
    job_t job;
    job.pat = wm_pat_of(db);
    job.text = text;
    job.want_starts = cb != NULL;
    uint64_t *rs = wm_text_record_starts(text, &job.n_rec);
    if (!rs) return WM_NOMEM;
    job.rs = rs;
    deliver_t dv = { cb, user, 0 };
    const wm_search_gpu_t *gpu = wm_context_gpu(cx, &wm_search_family);
    wm_status st;
    if (gpu && job.pat->flanks && cx->note[0] == '\0') /* the GPU scans no exact regions */
        snprintf(cx->note, sizeof cx->note,
                 "a pattern with exact regions runs on the CPU threads (%d)",
                 wm_pool_size(cx->pool));
    if (gpu && !job.pat->flanks && gpu->supports(job.pat)) {
        finish_t f;
        memset(&f, 0, sizeof f);
        f.job = &job;
        f.dv = &dv;
        f.cx = cx;
        /* Out of GPU memory: smaller batches, then the CPU, each going on
        ** from the last end whose matches were delivered. */
        uint64_t from = own_from, done = own_from;
        do {
            st = gpu->scan(cx, job.pat, text, from, finish_batch, &f, &done);
            from = done;
        } while (wm_gpu_retry(cx, &st));
        if (wm_gpu_fall_back(cx, st, "search")) st = search_cpu(cx, &job, from, &dv);
    } else {
        st = search_cpu(cx, &job, own_from, &dv);
    }
    free(rs);
    if (st == WM_OK && n_matches) *n_matches = dv.count;
    if (st == WM_OK && per_pattern) per_pattern[0] = dv.count;
    return st;
}

const wm_db_ops_t wm_search_db_ops = { "pattern", wm_search_scan, wm_pat_free };

/* The GPU table and the device buffers it keeps exist only with CUDA. */
const wm_family_t wm_search_family = {
    "search",
#if WM_HAVE_CUDA
    &wm_search_gpu_cuda,
    wm_search_cuda_free_cache,
#else
    NULL,
    NULL,
#endif
};
