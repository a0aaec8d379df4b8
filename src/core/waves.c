/*
** waves.c -- chunks of owned ends on the pool in waves, delivered in order
** (core/waves.h).
*/
#include <stdlib.h>

#include "core/waves.h"

#define WAVE_PER_THREAD 4

uint64_t wm_waves_chunk_size(const wm_context_t *cx, uint64_t own_from, uint64_t len,
                             unsigned per_thread, uint64_t least) {
    uint64_t size = cx->opts.chunk_bytes;
    if (size == 0) {
        int T = wm_pool_size(cx->pool);
        size = (len - own_from) / ((uint64_t)T * per_thread) + 1;
        if (size < least) size = least;
        if (size > (16u << 20)) size = 16u << 20;
    }
    return size;
}

static void matches_empty(void *out) { ((wm_matchvec_t *)out)->n = 0; }
static void matches_release(void *out) { wm_matchvec_free(out); }

wm_waves_t wm_waves_of_matches(int (*chunk)(void *arg, uint64_t i, void *out), void *arg,
                               wm_status (*deliver)(void *user, const void *out), void *user) {
    wm_waves_t w = { sizeof(wm_matchvec_t), chunk,          arg, deliver, user,
                     matches_empty,         matches_release };
    return w;
}

typedef struct {
    const wm_waves_t *w;
    uint64_t first; /* the wave's first chunk */
    char *out;      /* its results */
    int failed;
    /* the wave before, delivered by the calling thread (the pool's thread
    ** 0) while this one runs: its results, how many, whether done, how */
    const char *prev;
    size_t n_prev;
    int delivered;
    wm_status st;
} wave_t;

static void deliver_prev(wave_t *v) {
    v->delivered = 1;
    for (size_t i = 0; i < v->n_prev && v->st == WM_OK; i++)
        v->st = v->w->deliver(v->w->user, v->prev + i * v->w->item);
}

static void run_chunk(void *arg, size_t i, int tid) {
    wave_t *v = arg;
    if (tid == 0 && !v->delivered) deliver_prev(v); /* the caller's first item */
    void *out = v->out + i * v->w->item;
    v->w->empty(out);
    if (v->w->chunk(v->w->arg, v->first + i, out)) v->failed = 1;
}

/* Wave k + 1 runs while the calling thread hands wave k over, in order and
** on the calling thread still: with dense matches the handing over (one
** thread's work: sorting, callbacks, the tool's printing) was the bound,
** and the scans now hide behind it (BENCHMARKS.md 4c). Two waves' results
** are held at once. */
wm_status wm_waves_run(wm_context_t *cx, const wm_plan_t *plan, uint64_t own_from, uint64_t len,
                       const wm_waves_t *w) {
    size_t wave = (size_t)wm_pool_size(cx->pool) * WAVE_PER_THREAD;
    char *buf[2] = { calloc(wave, w->item), calloc(wave, w->item) };
    wave_t v = { w, 0, buf[0], 0, NULL, 0, 1, WM_OK };
    wm_status st = buf[0] && buf[1] ? WM_OK : WM_NOMEM;
    size_t n = 0; /* chunks in the wave just run */
    for (uint64_t c0 = 0, k = 0; st == WM_OK && (c0 < plan->n || n > 0); c0 += wave, k++) {
        size_t n1 = c0 < plan->n ? (plan->n - c0 < wave ? (size_t)(plan->n - c0) : wave) : 0;
        v.prev = v.out;
        v.n_prev = n;
        v.delivered = n == 0;
        v.out = buf[k & 1];
        v.first = c0;
        if (n1) wm_pool_for(cx->pool, n1, run_chunk, &v);
        if (!v.delivered) deliver_prev(&v); /* the workers took every item first */
        st = v.failed ? WM_NOMEM : v.st;
        if (n > 0 && cx->opts.progress) { /* the wave delivered: chunks c0 - wave .. + n */
            uint64_t lo, hi;
            wm_plan_part(plan, c0 - wave + n - 1, &lo, &hi);
            cx->opts.progress(hi - own_from, len - own_from, cx->opts.progress_user);
        }
        n = n1;
    }
    for (int b = 0; b < 2; b++) {
        for (size_t i = 0; buf[b] && i < wave; i++) w->release(buf[b] + i * w->item);
        free(buf[b]);
    }
    return st;
}
