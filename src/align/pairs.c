/*
** pairs.c -- wm_align_pairs: many independent pairs (reads against reads,
** candidates from a mapper) in one call.
**
** Where each pair runs. Global pairs on the CPU run one pair per pool task
** (a pair is small; the pool's threads each take a share), except
** four-russians, whose sweep already spreads one pair over the pool, so its
** pairs go one after the other. On the CUDA backend global bit-vector pairs
** that fit a thread or a warp (wm_cu_pair_fits) go to the pair kernels in
** overlapped batches (pairs_cuda.cu); the others run first, on the pool's
** threads at once, or past WM_CU_PAIR_POOL_CELLS alone on the GPU, whose
** long-pair kernel spreads one pair over many threads. The GPU runs such
** pairs one at a time (10 kb x 10 kb: 0.95 ms on the H100, BENCHMARKS.md
** 24), a thread one in 1.2 ms at 5% divergence to 9.6 ms for unrelated
** sequences, so 16 threads finish more of them sooner.
** Infix pairs go one after the other through wm_align. Every path gives the
** same distances and the same (canonical) CIGARs. A context over several
** devices gives each a contiguous range of the pairs (core/shard.h).
**
** wm_align_pairs_packed takes and gives columns. It views a million pairs at
** a time as wm_pair_t and runs them as above; on one GPU the batches' results
** go straight into the result columns, in pair order, with the pairs that
** ran alone slotted in between (results_sink), so a CIGAR is copied once
** and never allocated on its own.
*/
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align/align.h"
#include "core/shard.h"

/* Where the GPU's batches go, and how a piece that failed is taken back
** before it runs again. A batch's items are pairs sel[0 .. ns), or with sel
** NULL the pairs from, from + 1, ...; the rest as wm_pairs_deliver_t. */
typedef struct {
    wm_status (*deliver)(void *user, const size_t *sel, size_t from, size_t ns,
                         const uint32_t *dist, const char *text, const uint64_t *text_off,
                         const uint32_t *clen);
    void *user;
    void (*undo)(void *user, const size_t *sel, size_t from, size_t ns);
} pairs_sink_t;

typedef struct {
    wm_context_t *cx;
    const wm_pair_t *pairs;
    const wm_align_opts_t *o;
    wm_alignment_t *out;
    atomic_size_t first_bad; /* the smallest failing pair, or SIZE_MAX */
    _Atomic wm_status bad_status;
} pairs_run_t;

static void fail_at(pairs_run_t *R, size_t i, wm_status st) {
    size_t cur = atomic_load(&R->first_bad);
    while (i < cur && !atomic_compare_exchange_weak(&R->first_bad, &cur, i)) {}
    if (i <= cur) atomic_store(&R->bad_status, st);
}

/* One pair on the CPU, alone on its thread. */
static void cpu_pair(void *arg, size_t i, int tid) {
    (void)tid;
    pairs_run_t *R = arg;
    const wm_pair_t *p = &R->pairs[i];
    int found = 0;
    wm_status st =
        wm_align_global_one(R->cx, p->query, p->m, p->target, p->n, R->o, &R->out[i], &found, 0);
    if (st != WM_OK) fail_at(R, i, st);
    else if (!found) R->out[i].distance = WM_ALIGN_NONE;
}

/* Pairs 2t and 2t + 1 on the CPU: where both want a plain distance of a
** short query (no CIGAR, no bound, the bit-vector), their DPs run
** interleaved (wm_global_distance2): 200,000 reads of 150 bp in 0.281 s
** on a core against 0.322 s one after the other (BENCHMARKS.md 28);
** otherwise one after the other. */
typedef struct {
    pairs_run_t *R;
    size_t n;
} cpu_two_t;

static void cpu_two(void *arg, size_t t, int tid) {
    cpu_two_t *c = arg;
    pairs_run_t *R = c->R;
    size_t i = 2 * t;
    const wm_align_opts_t *o = R->o;
    if (i + 1 < c->n && !o->cigar && o->max_distance < 0 &&
        (o->algo == WM_ALIGN_ALGO_AUTO || o->algo == WM_ALIGN_ALGO_BITVECTOR)) {
        const wm_pair_t *p = &R->pairs[i], *q = &R->pairs[i + 1];
        wm_aq_t a, b;
        uint64_t da, db;
        int made = wm_aq_make(&a, p->query, p->m, o) == WM_OK;
        int both = made && wm_aq_make(&b, q->query, q->m, o) == WM_OK;
        int ran = both && wm_global_distance2(&a, p->target, p->n, &b, q->target, q->n, &da, &db);
        if (made) wm_aq_free(&a);
        if (both) wm_aq_free(&b);
        if (ran) {
            R->out[i] = (wm_alignment_t){ da, 0, p->n, NULL };
            R->out[i + 1] = (wm_alignment_t){ db, 0, q->n, NULL };
            return;
        }
    }
    cpu_pair(R, i, tid);
    if (i + 1 < c->n) cpu_pair(R, i + 1, tid);
}

/* The CPU's alignment of pairs idx[0 .. n) on the pool, on a GPU context
** (pairs no GPU kernel takes; the GPU's pairs when it has run out of
** memory): their own calls must not reach for the GPU. */
typedef struct {
    pairs_run_t *R;
    const size_t *idx;
} cpu_some_t;

static void cpu_pair_of(void *arg, size_t i, int tid) {
    cpu_some_t *c = arg;
    cpu_pair(c->R, c->idx[i], tid);
}

static void cpu_some(pairs_run_t *R, const size_t *idx, size_t n) {
    cpu_some_t c = { R, idx };
    R->cx->cpu_only++;
    wm_pool_for(R->cx->pool, n, cpu_pair_of, &c);
    R->cx->cpu_only--;
}

/* ---- results into out[] (wm_align_pairs) ------------------------------------ */

#define COPY_TASKS 64

typedef struct {
    pairs_run_t *R;
    const size_t *sel;
    size_t ns;
    const uint32_t *dist, *clen;
    const char *text;
    const uint64_t *text_off;
    _Atomic int failed;
} out_batch_t;

static void out_task(void *arg, size_t t, int tid) {
    (void)tid;
    out_batch_t *P = arg;
    size_t lo = P->ns * t / COPY_TASKS, hi = P->ns * (t + 1) / COPY_TASKS;
    for (size_t k = lo; k < hi; k++) {
        wm_alignment_t *r = &P->R->out[P->sel[k]];
        if (P->dist[k] == UINT32_MAX) {
            r->distance = WM_ALIGN_NONE;
            continue;
        }
        r->distance = P->dist[k];
        r->start = 0;
        r->end = P->R->pairs[P->sel[k]].n;
        if (!P->text) continue;
        if (!(r->cigar = malloc(P->clen[k] + 1))) {
            atomic_store(&P->failed, 1);
            continue;
        }
        memcpy(r->cigar, P->text + P->text_off[k], P->clen[k]);
        r->cigar[P->clen[k]] = 0;
    }
}

static wm_status out_deliver(void *user, const size_t *sel, size_t from, size_t ns,
                             const uint32_t *dist, const char *text, const uint64_t *text_off,
                             const uint32_t *clen) {
    (void)from; /* wm_align_pairs' items are listed */
    pairs_run_t *R = user;
    out_batch_t P = { R, sel, ns, dist, clen, text, text_off, 0 };
    wm_pool_for(R->cx->pool, COPY_TASKS, out_task, &P);
    return atomic_load(&P.failed) ? WM_NOMEM : WM_OK;
}

static void out_undo(void *user, const size_t *sel, size_t from, size_t ns) {
    (void)from;
    pairs_run_t *R = user;
    for (size_t x = 0; x < ns; x++) wm_alignment_clear(&R->out[sel[x]], 1);
}

/* A piece of the items: the GPU numbers its batches from the piece's
** start, the sink by pair. */
typedef struct {
    const pairs_sink_t *sink;
    const size_t *idx; /* the items' pairs, or NULL: pairs base + i */
    size_t base;
} piece_t;

static wm_status piece_deliver(void *user, size_t from, size_t ns, const uint32_t *dist,
                               const char *text, const uint64_t *text_off, const uint32_t *clen) {
    const piece_t *P = user;
    return P->sink->deliver(P->sink->user, P->idx ? P->idx + P->base + from : NULL, P->base + from,
                            ns, dist, text, text_off, clen);
}

/* The items of src on the GPU, in pieces that shrink when the GPU runs out
** of memory (a piece that failed is taken back and done again). *done: the
** items done; when pieces cannot shrink further and R is given, the rest
** run on the CPU into R->out (listed items only). */
static wm_status gpu_items(wm_context_t *cx, const wm_align_gpu_t *gpu, const wm_pairs_src_t *src,
                           const wm_align_opts_t *o, const pairs_sink_t *sink, pairs_run_t *R,
                           size_t *done) {
    size_t at = 0, n = src->n;
    wm_status st = WM_OK;
    do {
        size_t piece = (size_t)wm_gpu_piece(cx, n, 1024);
        for (st = WM_OK; at < n && st == WM_OK;) {
            size_t k = n - at < piece ? n - at : piece;
            wm_pairs_src_t part = *src;
            part.n = k;
            if (src->idx) part.idx = src->idx + at;
            else part.first = src->first + at;
            piece_t P = { sink, src->idx, src->idx ? at : src->first + at };
            st = gpu->pairs(cx, &part, o, piece_deliver, &P);
            if (st != WM_OK) sink->undo(sink->user, src->idx ? src->idx + at : NULL, P.base, k);
            else at += k;
        }
    } while (wm_gpu_retry(cx, &st));
    *done = at;
    if (R && src->idx && wm_gpu_fall_back(cx, st, "pair alignment")) {
        const size_t *idx = src->idx;
        cpu_some(R, idx + at, n - at);
        *done = n;
        st = WM_OK; /* a pair's own failure is in R, as with the CPU backend */
    }
    return st;
}

static wm_status one_by_one(pairs_run_t *R, size_t i) {
    const wm_pair_t *p = &R->pairs[i];
    if (R->o->mode == WM_ALIGN_GLOBAL) {
        int found = 0;
        wm_status st = wm_align_global_one(R->cx, p->query, p->m, p->target, p->n, R->o, &R->out[i],
                                           &found, 1);
        if (st == WM_OK && !found) R->out[i].distance = WM_ALIGN_NONE;
        return st;
    }
    wm_alignments_t r;
    wm_status st = wm_align(R->cx, p->query, p->m, p->target, p->n, R->o, &r);
    if (st != WM_OK) return st;
    if (r.n == 0) R->out[i].distance = WM_ALIGN_NONE;
    else {
        R->out[i] = r.a[0];
        r.a[0].cigar = NULL;
    }
    wm_alignments_free(&r);
    return WM_OK;
}

/* 1 when the context's symbols are DNA's four (the pair kernels' registers). */
static int dna_symbols(const wm_align_opts_t *o) {
    wm_aq_t aq;
    if (wm_aq_make(&aq, (const uint8_t *)"", 0, o) != WM_OK) return 0;
    int dna = aq.n_codes == 4;
    wm_aq_free(&aq);
    return dna;
}

/* The pairs of one (sub-)context, checked: out[i] gets pair i's result, or,
** with a sink, the GPU's pairs go to it instead (the others still to out).
** The message names the failing pair as number first + i. */
static wm_status pairs_run(wm_context_t *cx, const wm_pair_t *pairs, size_t n_pairs,
                           const wm_align_opts_t *opts, wm_alignment_t *out,
                           const pairs_sink_t *sink, size_t first) {
    pairs_run_t R = { cx, pairs, opts, out, SIZE_MAX, WM_OK };
    atomic_init(&R.first_bad, SIZE_MAX);
    atomic_init(&R.bad_status, WM_OK);
    int global = opts->mode == WM_ALIGN_GLOBAL;
    int bitvector = opts->algo == WM_ALIGN_ALGO_AUTO || opts->algo == WM_ALIGN_ALGO_BITVECTOR;
    wm_status st = WM_OK;

    const wm_align_gpu_t *gpu = wm_align_gpu(cx);
    if (global && gpu && bitvector) {
        size_t *idx = malloc((n_pairs ? n_pairs : 1) * sizeof *idx), n_idx = 0;
        size_t *mid = malloc((n_pairs ? n_pairs : 1) * sizeof *mid), n_mid = 0;
        if (!idx || !mid) {
            free(idx);
            free(mid);
            return WM_NOMEM;
        }
        int dna = dna_symbols(opts);
        /* the pairs no pair kernel takes first (a sink slots them in
        ** between): up to WM_CU_PAIR_POOL_CELLS on the pool's threads at once,
        ** the larger ones on the GPU one at a time */
        for (size_t i = 0; i < n_pairs && st == WM_OK; i++) {
            if (wm_cu_pair_fits(pairs[i].m, pairs[i].n, dna)) idx[n_idx++] = i;
            else if ((double)pairs[i].m * (double)pairs[i].n <= WM_CU_PAIR_POOL_CELLS)
                mid[n_mid++] = i;
            else if ((st = one_by_one(&R, i)) != WM_OK) fail_at(&R, i, st);
        }
        if (st == WM_OK && n_mid > 0) cpu_some(&R, mid, n_mid);
        free(mid);
        pairs_sink_t to_out = { out_deliver, &R, out_undo };
        wm_pairs_src_t src = { pairs, idx, NULL, 0, n_idx, 0, 0, 0 };
        size_t done;
        if (st == WM_OK) st = gpu_items(cx, gpu, &src, opts, sink ? sink : &to_out, &R, &done);
        free(idx);
    } else if (global && !gpu && opts->algo != WM_ALIGN_ALGO_FOUR_RUSSIANS) {
        cpu_two_t two = { &R, n_pairs };
        wm_pool_for(cx->pool, (n_pairs + 1) / 2, cpu_two, &two);
    } else {
        for (size_t i = 0; i < n_pairs; i++) {
            st = one_by_one(&R, i);
            if (st != WM_OK) {
                fail_at(&R, i, st);
                break;
            }
        }
    }

    size_t bad = atomic_load(&R.first_bad);
    if (st == WM_OK && bad != SIZE_MAX) st = atomic_load(&R.bad_status);
    if (st != WM_OK) {
        char msg[sizeof cx->errmsg];
        snprintf(msg, sizeof msg, "%s", cx->errmsg[0] ? cx->errmsg : wm_strerror(st));
        if (bad != SIZE_MAX) wm_context_set_error(cx, "pair %zu: %s", first + bad, msg);
        else wm_context_set_error(cx, "%s", msg);
        wm_alignment_clear(out, n_pairs);
    }
    return st;
}

/* Check every pair (the message names the first bad one, as pair first + i). */
static wm_status check_pairs(wm_context_t *cx, const wm_pair_t *pairs, size_t n,
                             const wm_align_opts_t *o, size_t first) {
    for (size_t i = 0; i < n; i++) {
        const wm_pair_t *p = &pairs[i];
        if (wm_align_check_pair(cx, p->query, p->m, p->target, p->n, o, "") == WM_OK) continue;
        char which[48]; /* again, to name the pair in the message */
        snprintf(which, sizeof which, "pair %zu: ", first + i);
        return wm_align_check_pair(cx, p->query, p->m, p->target, p->n, o, which);
    }
    return WM_OK;
}

/* The options every pair runs with. */
static wm_status pair_opts(wm_context_t *cx, const wm_align_opts_t *o, wm_align_opts_t *opts) {
    *opts = o ? *o : wm_align_opts_default();
    opts->all_ends = 0;
    return wm_align_check_opts(cx, opts);
}

/* One sub-context's range of the pairs (core/shard.h's list cut). */
typedef struct {
    const wm_pair_t *pairs;
    const wm_align_opts_t *o;
    wm_alignment_t *out;
} pairs_shard_t;

static wm_status pairs_shard_run(void *job, wm_context_t *sub, size_t lo, size_t hi) {
    pairs_shard_t *J = job;
    return wm_align_pairs(sub, J->pairs + lo, hi - lo, J->o, J->out + lo);
}

wm_status wm_align_pairs(wm_context_t *cx, const wm_pair_t *pairs, size_t n_pairs,
                         const wm_align_opts_t *o, wm_alignment_t *out) {
    if (!wm_context_ok(cx) || (!pairs && n_pairs) || (!out && n_pairs)) return WM_INVALID;
    cx->errmsg[0] = 0;
    wm_cuda_context_bind(cx);
    wm_align_opts_t opts;
    wm_status st = pair_opts(cx, o, &opts);
    if (st != WM_OK) return st;
    memset(out, 0, n_pairs * sizeof *out);
    if ((st = check_pairs(cx, pairs, n_pairs, &opts, 0)) != WM_OK) return st;
    if (cx->n_sub > 1) { /* many devices: ranges of pairs */
        if (n_pairs == 0) return WM_OK;
        pairs_shard_t J = { pairs, &opts, out };
        st = wm_shard_list(cx, n_pairs, pairs_shard_run, &J, "pair");
        if (st != WM_OK) wm_alignment_clear(out, n_pairs); /* nothing left allocated */
        return st;
    }
    return pairs_run(cx, pairs, n_pairs, &opts, out, NULL, 0);
}

/* ---- columns in, columns out (wm_align_pairs_packed) ---------------------------- */

/* Pairs viewed at once: 32 + 32 bytes a pair of views and scratch results. */
#define PACKED_CHUNK ((size_t)1 << 20)

/* The result columns filled in pair order: pairs [0, next) of the chunk at
** `first` are in; the chunk's pairs that ran alone (and all of them, off the
** single-GPU path) wait in out[]. */
typedef struct {
    wm_context_t *cx;
    wm_pair_results_t *res;
    const wm_pair_t *views;              /* the chunk's pairs */
    const wm_pairs_packed_t *views_cols; /* the columns themselves */
    wm_alignment_t *out;                 /* the chunk's results that did not come as a batch */
    size_t first, next;
    uint64_t used, cap; /* CIGAR bytes */
    int cigar;
} results_sink_t;

/* Room for `more` CIGAR bytes; when it grows, to at least `expect` (the
** whole call's bytes as projected so far: one growth, not a dozen copies of
** tens of megabytes). */
static wm_status arena_grow(results_sink_t *S, uint64_t more, uint64_t expect) {
    if (!S->cigar || S->used + more + 1 <= S->cap) return WM_OK;
    uint64_t cap = S->cap ? S->cap : 1u << 16;
    while (cap < S->used + more + 1) cap *= 2;
    if (expect > cap) cap = expect;
    char *p = realloc(S->res->cigar, cap);
    if (!p) return WM_NOMEM;
    S->res->cigar = p;
    S->cap = cap;
    return WM_OK;
}

static wm_status arena_room(results_sink_t *S, uint64_t more) { return arena_grow(S, more, 0); }

/* Pair i of the chunk from out[i]. */
static wm_status take_out(results_sink_t *S, size_t i) {
    const wm_alignment_t *a = &S->out[i];
    size_t g = S->first + i;
    S->res->distance[g] = a->distance;
    S->res->start[g] = a->distance == WM_ALIGN_NONE ? 0 : a->start;
    S->res->end[g] = a->distance == WM_ALIGN_NONE ? 0 : a->end;
    if (!S->cigar) return WM_OK;
    size_t len = a->cigar ? strlen(a->cigar) : 0;
    wm_status st = arena_room(S, len);
    if (st != WM_OK) return st;
    S->res->cigar_off[g] = S->used;
    if (len) memcpy(S->res->cigar + S->used, a->cigar, len);
    S->used += len;
    return WM_OK;
}

/* Pairs [next, to) from out[]. */
static wm_status take_out_to(results_sink_t *S, size_t to) {
    wm_status st = WM_OK;
    for (; S->next < to && st == WM_OK; S->next++) st = take_out(S, S->next);
    return st;
}

typedef struct {
    results_sink_t *S;
    const size_t *sel;
    size_t ns;
    const char *text;
    const uint64_t *text_off;
    const uint32_t *clen;
} text_copy_t;

static void text_task(void *arg, size_t t, int tid) {
    (void)tid;
    text_copy_t *C = arg;
    results_sink_t *S = C->S;
    size_t lo = C->ns * t / COPY_TASKS, hi = C->ns * (t + 1) / COPY_TASKS;
    for (size_t k = lo; k < hi; k++) {
        size_t g = S->first + C->sel[k];
        uint64_t len = S->res->cigar_off[g + 1] - S->res->cigar_off[g];
        if (len) memcpy(S->res->cigar + S->res->cigar_off[g], C->text + C->text_off[k], len);
    }
}

static wm_status results_deliver(void *user, const size_t *sel, size_t from, size_t ns,
                                 const uint32_t *dist, const char *text, const uint64_t *text_off,
                                 const uint32_t *clen) {
    (void)from; /* the chunk's GPU items are listed */
    results_sink_t *S = user;
    wm_pair_results_t *res = S->res;
    wm_status st = WM_OK;
    if (S->cigar) { /* room for the batch's text at once */
        uint64_t more = 0;
        for (size_t k = 0; k < ns; k++) more += dist[k] == UINT32_MAX ? 0 : clen[k];
        st = arena_room(S, more);
    }
    for (size_t k = 0; k < ns && st == WM_OK; k++) {
        if ((st = take_out_to(S, sel[k])) != WM_OK) break;
        size_t g = S->first + sel[k];
        int in = dist[k] != UINT32_MAX;
        res->distance[g] = in ? dist[k] : WM_ALIGN_NONE;
        res->start[g] = 0;
        res->end[g] = in ? S->views[sel[k]].n : 0;
        if (S->cigar) {
            if ((st = arena_room(S, in ? clen[k] : 0)) != WM_OK) break;
            res->cigar_off[g] = S->used;
            S->used += in ? clen[k] : 0;
            res->cigar_off[g + 1] = S->used; /* for text_task; rewritten by the next pair */
        }
        S->next = sel[k] + 1;
    }
    if (st == WM_OK && S->cigar && ns) {
        text_copy_t C = { S, sel, ns, text, text_off, clen };
        wm_pool_for(S->cx->pool, COPY_TASKS, text_task, &C);
    }
    return st;
}

/* Take back a failed piece: the columns from its first pair on are written
** again. */
static void results_undo(void *user, const size_t *sel, size_t from, size_t ns) {
    (void)from;
    results_sink_t *S = user;
    if (ns == 0 || sel[0] >= S->next) return;
    S->next = sel[0];
    if (S->cigar) S->used = S->res->cigar_off[S->first + S->next];
}

void wm_pair_results_free(wm_pair_results_t *r) {
    if (!r) return;
    free(r->distance);
    free(r->start);
    free(r->end);
    free(r->cigar_off);
    free(r->cigar);
    memset(r, 0, sizeof *r);
}

/* The offsets of both sides never decrease: checked on the pool, and where
** they do, found again here for the message. */
typedef struct {
    const wm_pairs_packed_t *in;
    _Atomic int bad;
} order_t;

static void order_task(void *arg, size_t t, int tid) {
    (void)tid;
    order_t *O = arg;
    const wm_pairs_packed_t *in = O->in;
    size_t lo = in->n * t / COPY_TASKS, hi = in->n * (t + 1) / COPY_TASKS;
    int bad = 0;
    for (size_t i = lo; i < hi; i++)
        bad |=
            (in->query_off[i + 1] < in->query_off[i]) | (in->target_off[i + 1] < in->target_off[i]);
    if (bad) atomic_store(&O->bad, 1);
}

static wm_status check_offsets(wm_context_t *cx, const uint64_t *off, size_t n, const char *side) {
    for (size_t i = 0; i < n; i++)
        if (off[i + 1] < off[i]) {
            wm_context_set_error(cx, "pair %zu: the %s offsets decrease (%llu, then %llu)", i, side,
                                 (unsigned long long)off[i], (unsigned long long)off[i + 1]);
            return WM_INVALID;
        }
    return WM_OK;
}

typedef struct {
    const wm_pairs_packed_t *in;
    size_t first, n; /* the chunk */
    wm_pair_t *views;
} view_t;

static void view_task(void *arg, size_t t, int tid) {
    (void)tid;
    view_t *V = arg;
    const wm_pairs_packed_t *in = V->in;
    size_t lo = V->n * t / COPY_TASKS, hi = V->n * (t + 1) / COPY_TASKS;
    for (size_t k = lo; k < hi; k++) {
        size_t g = V->first + k;
        wm_pair_t *p = &V->views[k];
        p->query = in->query + in->query_off[g];
        p->m = (size_t)(in->query_off[g + 1] - in->query_off[g]);
        p->target = in->target + in->target_off[g];
        p->n = in->target_off[g + 1] - in->target_off[g];
    }
}

/* One chunk of the columns, pairs [first, first + n). */
static wm_status packed_chunk(wm_context_t *cx, const wm_pairs_packed_t *in, size_t first, size_t n,
                              const wm_align_opts_t *opts, results_sink_t *S) {
    view_t V = { in, first, n, (wm_pair_t *)S->views };
    wm_pool_for(cx->pool, COPY_TASKS, view_task, &V);
    wm_status st = check_pairs(cx, S->views, n, opts, first);
    if (st != WM_OK) return st;
    memset(S->out, 0, n * sizeof *S->out);
    S->first = first;
    S->next = 0;
    int one_gpu = cx->n_sub <= 1 && wm_align_gpu(cx) != NULL;
    pairs_sink_t sink = { results_deliver, S, results_undo };
    if (cx->n_sub > 1) {
        pairs_shard_t J = { S->views, opts, S->out };
        st = wm_shard_list(cx, n, pairs_shard_run, &J, "pair");
        if (st != WM_OK) { /* the subs number the pairs of the chunk */
            char msg[sizeof cx->errmsg];
            size_t bad = 0;
            int used = 0;
            snprintf(msg, sizeof msg, "%s", cx->errmsg);
            if (sscanf(msg, "pair %zu: %n", &bad, &used) == 1 && used > 0)
                wm_context_set_error(cx, "pair %zu: %s", first + bad, msg + used);
        }
    } else {
        st = pairs_run(cx, S->views, n, opts, S->out, one_gpu ? &sink : NULL, first);
    }
    if (st == WM_OK) st = take_out_to(S, n);
    wm_alignment_clear(S->out, n);
    return st;
}

/* ---- the columns straight to the GPU ----------------------------------------- */

/* What a pass over the columns found: every pair fits a GPU thread or warp,
** and the length bounds the batches are cut by. */
typedef struct {
    const wm_pairs_packed_t *in;
    int dna;
    _Atomic int misfit;
    uint64_t min_m[COPY_TASKS], max_m[COPY_TASKS], max_n[COPY_TASKS];
} fit_scan_t;

static void fit_task(void *arg, size_t t, int tid) {
    (void)tid;
    fit_scan_t *F = arg;
    const wm_pairs_packed_t *in = F->in;
    size_t lo = in->n * t / COPY_TASKS, hi = in->n * (t + 1) / COPY_TASKS;
    uint64_t mn = UINT64_MAX, mx = 0, nx = 0;
    int misfit = 0;
    for (size_t i = lo; i < hi; i++) {
        uint64_t m = in->query_off[i + 1] - in->query_off[i];
        uint64_t n = in->target_off[i + 1] - in->target_off[i];
        misfit |= !wm_cu_pair_fits(m, n, F->dna);
        mn = m < mn ? m : mn;
        mx = m > mx ? m : mx;
        nx = n > nx ? n : nx;
    }
    F->min_m[t] = mn;
    F->max_m[t] = mx;
    F->max_n[t] = nx;
    if (misfit) atomic_store(&F->misfit, 1);
}

/* The columns' batches written into the result columns: every part of it
** on the pool. */
typedef struct {
    results_sink_t *S;
    size_t from, ns;
    const uint32_t *dist, *clen;
    const char *text;
    const uint64_t *text_off;
    uint64_t base, total; /* where the batch's text goes, its bytes */
} cols_copy_t;

static void cols_task(void *arg, size_t t, int tid) {
    (void)tid;
    const cols_copy_t *C = arg;
    wm_pair_results_t *res = C->S->res;
    const uint64_t *to = C->S->views_cols->target_off;
    size_t lo = C->ns * t / COPY_TASKS, hi = C->ns * (t + 1) / COPY_TASKS;
    for (size_t k = lo; k < hi; k++) {
        size_t g = C->from + k;
        int in = C->dist[k] != UINT32_MAX;
        res->distance[g] = in ? C->dist[k] : WM_ALIGN_NONE;
        res->start[g] = 0;
        res->end[g] = in ? to[g + 1] - to[g] : 0;
        if (C->text) res->cigar_off[g] = C->base + C->text_off[k];
    }
    if (C->text) {
        uint64_t a = C->total * t / COPY_TASKS, b = C->total * (t + 1) / COPY_TASKS;
        memcpy(res->cigar + C->base + a, C->text + a, b - a);
    }
}

static wm_status cols_deliver(void *user, const size_t *sel, size_t from, size_t ns,
                              const uint32_t *dist, const char *text, const uint64_t *text_off,
                              const uint32_t *clen) {
    (void)sel; /* the columns' pairs are contiguous */
    results_sink_t *S = user;
    uint64_t total = text && ns ? text_off[ns - 1] + clen[ns - 1] : 0;
    /* the bytes a pair so far, for all of them, and an eighth more */
    double per = (double)(S->used + total) / (double)(from + ns);
    wm_status st = arena_grow(S, total, (uint64_t)(per * (double)S->res->n * 1.125) + 64);
    if (st != WM_OK) return st;
    cols_copy_t C = { S, from, ns, dist, clen, text, text_off, S->used, total };
    wm_pool_for(S->cx->pool, COPY_TASKS, cols_task, &C);
    S->used += total;
    if (S->cigar) S->res->cigar_off[from + ns] = S->used;
    S->next = from + ns;
    return WM_OK;
}

static void cols_undo(void *user, const size_t *sel, size_t from, size_t ns) {
    (void)sel;
    (void)ns;
    results_sink_t *S = user;
    if (from >= S->next) return;
    S->next = from;
    if (S->cigar) S->used = S->res->cigar_off[from];
}

/* All of the columns on one GPU when every pair fits a thread or warp: no
** view of them, results written in place. Returns the pairs done in *done (all,
** unless the GPU ran out of memory even in small pieces: the caller runs
** the rest another way). */
static wm_status cols_on_gpu(wm_context_t *cx, const wm_pairs_packed_t *in,
                             const wm_align_opts_t *o, results_sink_t *S, int *taken,
                             size_t *done) {
    *taken = 0;
    *done = 0;
    const wm_align_gpu_t *gpu = wm_align_gpu(cx);
    int bitvector = o->algo == WM_ALIGN_ALGO_AUTO || o->algo == WM_ALIGN_ALGO_BITVECTOR;
    if (cx->n_sub > 1 || !gpu || o->mode != WM_ALIGN_GLOBAL || !bitvector || in->n == 0 ||
        !in->query || !in->target)
        return WM_OK;
    fit_scan_t *F = calloc(1, sizeof *F);
    if (!F) return WM_NOMEM;
    F->in = in;
    F->dna = dna_symbols(o);
    atomic_init(&F->misfit, 0);
    wm_pool_for(cx->pool, COPY_TASKS, fit_task, F);
    wm_pairs_src_t src = { NULL, NULL, in, 0, in->n, UINT64_MAX, 0, 0 };
    for (int t = 0; t < COPY_TASKS; t++) {
        if (F->min_m[t] < src.min_m) src.min_m = F->min_m[t];
        if (F->max_m[t] > src.max_m) src.max_m = F->max_m[t];
        if (F->max_n[t] > src.max_n) src.max_n = F->max_n[t];
    }
    int misfit = atomic_load(&F->misfit);
    free(F);
    if (misfit) return WM_OK;
    *taken = 1;
    S->first = 0;
    S->next = 0;
    pairs_sink_t sink = { cols_deliver, S, cols_undo };
    wm_status st = gpu_items(cx, gpu, &src, o, &sink, NULL, done);
    if (st == WM_OK || !wm_gpu_fall_back(cx, st, "pair alignment")) return st;
    *done = S->next; /* the rest on the CPU, as columns viewed as pairs */
    return WM_OK;
}

wm_status wm_align_pairs_packed(wm_context_t *cx, const wm_pairs_packed_t *in,
                                const wm_align_opts_t *o, wm_pair_results_t *out) {
    if (!wm_context_ok(cx) || !in || !out) return WM_INVALID;
    memset(out, 0, sizeof *out);
    cx->errmsg[0] = 0;
    wm_cuda_context_bind(cx);
    size_t n = in->n;
    if (n && (!in->query_off || !in->target_off)) {
        wm_context_set_error(cx, "NULL offsets for %zu pairs", n);
        return WM_INVALID;
    }
    wm_align_opts_t opts;
    wm_status st = pair_opts(cx, o, &opts);
    if (st != WM_OK) return st;
    order_t O = { in, 0 };
    wm_pool_for(cx->pool, COPY_TASKS, order_task, &O);
    if (atomic_load(&O.bad)) {
        if ((st = check_offsets(cx, in->query_off, n, "query")) == WM_OK)
            st = check_offsets(cx, in->target_off, n, "target");
        return st;
    }

    size_t chunk = n < PACKED_CHUNK ? n : PACKED_CHUNK;
    results_sink_t S = { cx, out, NULL, in, NULL, 0, 0, 0, 0, opts.cigar };
    out->n = n;
    out->distance = malloc((n ? n : 1) * sizeof *out->distance);
    out->start = malloc((n ? n : 1) * sizeof *out->start);
    out->end = malloc((n ? n : 1) * sizeof *out->end);
    if (opts.cigar) out->cigar_off = malloc((n + 1) * sizeof *out->cigar_off);
    st = !out->distance || !out->start || !out->end || (opts.cigar && !out->cigar_off)
             ? WM_NOMEM
             : arena_room(&S, 0);
    int taken = 0;
    size_t first = 0;
    if (st == WM_OK) st = cols_on_gpu(cx, in, &opts, &S, &taken, &first);
    if (st == WM_OK && first < n) { /* pairs viewed a chunk at a time */
        cx->cpu_only += taken;      /* what the GPU could not take runs on the CPU */
        S.views = malloc((chunk ? chunk : 1) * sizeof *S.views);
        S.out = malloc((chunk ? chunk : 1) * sizeof *S.out);
        if (!S.views || !S.out) st = WM_NOMEM;
        for (; st == WM_OK && first < n; first += chunk) {
            size_t k = n - first < chunk ? n - first : chunk;
            st = packed_chunk(cx, in, first, k, &opts, &S);
        }
        cx->cpu_only -= taken;
    }
    free((void *)S.views);
    free(S.out);
    if (st != WM_OK) {
        wm_pair_results_free(out);
        return st;
    }
    if (opts.cigar) {
        out->cigar_off[n] = S.used;
        out->cigar[S.used] = 0;
    }
    return WM_OK;
}
