/*
** pairs.c -- wm_align_pairs: many independent pairs (reads against reads,
** candidates from a mapper) in one call.
**
** Where each pair runs. Global pairs on the CPU run one pair per pool task
** (a pair is small; the pool's threads each take a share), except
** four-russians, whose sweep already spreads one pair over the pool, so its
** pairs go one after the other. On the CUDA backend global bit-vector pairs
** whose sequences are both at most WM_CU_PAIR_MAX_LEN go to the pair kernel
** in one batch (one pair per thread); every other pair runs alone on the
** GPU. Infix pairs go one after the other through wm_align. Every path gives
** the same distances and the same (canonical) CIGARs. A context over several
** devices gives each a contiguous range of the pairs (core/shard.h).
*/
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align/align.h"
#include "core/shard.h"

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

/* One pair through wm_align (infix, or any pair that runs alone). */
/* The CPU's alignment of pairs idx[i]: the GPU's pairs, when it has run
** out of memory. */
typedef struct {
    pairs_run_t *R;
    const size_t *idx;
} cpu_some_t;

static void cpu_pair_of(void *arg, size_t i, int tid) {
    cpu_some_t *c = arg;
    cpu_pair(c->R, c->idx[i], tid);
}

/* Pairs idx[0 .. n) on the GPU, in pieces that shrink when the GPU runs out
** of memory (a piece that failed is cleared and done again); what is left
** when they cannot shrink further runs on the CPU. */
static wm_status gpu_pairs(pairs_run_t *R, const wm_align_gpu_t *gpu, const size_t *idx, size_t n) {
    wm_context_t *cx = R->cx;
    size_t at = 0;
    wm_status st = WM_OK;
    do {
        size_t piece = (size_t)wm_gpu_piece(cx, n, 1024);
        for (st = WM_OK; at < n && st == WM_OK;) {
            size_t k = n - at < piece ? n - at : piece;
            st = gpu->pairs(cx, R->pairs, idx + at, k, R->o, R->out);
            if (st != WM_OK)
                for (size_t x = at; x < at + k; x++) wm_alignment_clear(&R->out[idx[x]], 1);
            else at += k;
        }
    } while (wm_gpu_retry(cx, &st));
    if (wm_gpu_fall_back(cx, st, "pair alignment")) {
        cpu_some_t c = { R, idx + at };
        cx->cpu_only++; /* the pairs' own calls must not reach for the GPU */
        wm_pool_for(cx->pool, n - at, cpu_pair_of, &c);
        cx->cpu_only--;
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
    wm_align_opts_t opts = o ? *o : wm_align_opts_default();
    opts.all_ends = 0;
    wm_status st = wm_align_check_opts(cx, &opts);
    if (st != WM_OK) return st;
    memset(out, 0, n_pairs * sizeof *out);
    for (size_t i = 0; i < n_pairs; i++) {
        const wm_pair_t *p = &pairs[i];
        if (wm_align_check_pair(cx, p->query, p->m, p->target, p->n, &opts, "") == WM_OK) continue;
        char which[48]; /* again, to name the pair in the message */
        snprintf(which, sizeof which, "pair %zu: ", i);
        return wm_align_check_pair(cx, p->query, p->m, p->target, p->n, &opts, which);
    }
    if (cx->n_sub > 1) { /* many devices: ranges of pairs */
        if (n_pairs == 0) return WM_OK;
        pairs_shard_t J = { pairs, &opts, out };
        st = wm_shard_list(cx, n_pairs, pairs_shard_run, &J, "pair");
        if (st != WM_OK) wm_alignment_clear(out, n_pairs); /* nothing left allocated */
        return st;
    }

    pairs_run_t R = { cx, pairs, &opts, out, SIZE_MAX, WM_OK };
    atomic_init(&R.first_bad, SIZE_MAX);
    atomic_init(&R.bad_status, WM_OK);
    int global = opts.mode == WM_ALIGN_GLOBAL;
    int bitvector = opts.algo == WM_ALIGN_ALGO_AUTO || opts.algo == WM_ALIGN_ALGO_BITVECTOR;

    const wm_align_gpu_t *gpu = wm_align_gpu(cx);
    if (global && gpu && bitvector) {
        size_t *idx = malloc((n_pairs ? n_pairs : 1) * sizeof *idx), n_idx = 0;
        if (!idx) return WM_NOMEM;
        for (size_t i = 0; i < n_pairs; i++)
            if (pairs[i].m <= WM_CU_PAIR_MAX_LEN && pairs[i].n <= WM_CU_PAIR_MAX_LEN)
                idx[n_idx++] = i;
        st = gpu_pairs(&R, gpu, idx, n_idx);
        for (size_t i = 0, k = 0; st == WM_OK && i < n_pairs; i++) {
            if (k < n_idx && idx[k] == i) {
                k++;
                continue;
            }
            st = one_by_one(&R, i);
            if (st != WM_OK) fail_at(&R, i, st);
        }
        free(idx);
    } else if (global && !gpu && opts.algo != WM_ALIGN_ALGO_FOUR_RUSSIANS) {
        wm_pool_for(cx->pool, n_pairs, cpu_pair, &R);
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
        if (bad != SIZE_MAX) wm_context_set_error(cx, "pair %zu: %s", bad, msg);
        else wm_context_set_error(cx, "%s", msg);
        wm_alignment_clear(out, n_pairs);
    }
    return st;
}
