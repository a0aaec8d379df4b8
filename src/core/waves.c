/*
** waves.c -- chunks of owned ends on the pool in waves, delivered in order
** (core/waves.h).
*/
#include <stdlib.h>

#include "core/waves.h"

#define WAVE_PER_THREAD 4

uint64_t wm_waves_chunk_size(const wm_context_t *cx, uint64_t own_from, uint64_t len) {
    uint64_t size = cx->opts.chunk_bytes;
    if (size == 0) {
        int T = wm_pool_size(cx->pool);
        size = (len - own_from) / ((uint64_t)T * 8) + 1;
        if (size < (1u << 18)) size = 1u << 18;
        if (size > (16u << 20)) size = 16u << 20;
    }
    return size;
}

typedef struct {
    const wm_waves_t *w;
    uint64_t first; /* the wave's first chunk */
    wm_matchvec_t *out;
    int failed;
} wave_t;

static void run_chunk(void *arg, size_t i, int tid) {
    (void)tid;
    wave_t *v = arg;
    v->out[i].n = 0;
    if (v->w->chunk(v->w->arg, v->first + i, &v->out[i])) v->failed = 1;
}

wm_status wm_waves_run(wm_context_t *cx, const wm_plan_t *plan, uint64_t own_from, uint64_t len,
                       const wm_waves_t *w) {
    size_t wave = (size_t)wm_pool_size(cx->pool) * WAVE_PER_THREAD;
    wave_t v = { w, 0, calloc(wave, sizeof(wm_matchvec_t)), 0 };
    if (!v.out) return WM_NOMEM;
    wm_status st = WM_OK;
    for (uint64_t c0 = 0; c0 < plan->n && st == WM_OK; c0 += wave) {
        size_t n = plan->n - c0 < wave ? (size_t)(plan->n - c0) : wave;
        v.first = c0;
        wm_pool_for(cx->pool, n, run_chunk, &v);
        if (v.failed) {
            st = WM_NOMEM;
            break;
        }
        for (size_t i = 0; i < n && st == WM_OK; i++) st = w->deliver(w->user, &v.out[i]);
        uint64_t lo, hi;
        wm_plan_part(plan, c0 + n - 1, &lo, &hi);
        if (cx->opts.progress)
            cx->opts.progress(hi - own_from, len - own_from, cx->opts.progress_user);
    }
    for (size_t i = 0; i < wave; i++) wm_matchvec_free(&v.out[i]);
    free(v.out);
    return st;
}
