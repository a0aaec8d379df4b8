/*
** context.c -- execution contexts: which backend runs, the CPU thread pool,
** the GPU device state, each family's GPU table and cache slot, tuning, and
** the last error message. A context over several devices is made of
** ordinary ones by src/core/shard.c.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/internal.h"
#include "core/shard.h"

wm_context_opts_t wm_context_opts_default(void) {
    wm_context_opts_t o;
    memset(&o, 0, sizeof o);
    o.backend = WM_BACKEND_AUTO;
    o.threads = 0;
    o.device = 0;
    o.chunk_bytes = 0;
    o.progress = NULL;
    o.progress_user = NULL;
    o.devices = NULL;
    o.n_devices = 0;
    return o;
}

wm_tuning_t wm_tuning_default(void) {
    wm_tuning_t t;
    memset(&t, 0, sizeof t);
    t.simd = WM_SIMD_AUTO;
    t.search_batch_bytes = 32ull << 20;
    t.search_bytes_per_hit = 512;
    t.dtw_chunk = 1ull << 27;
    t.dtw_stripe = 1024;
    t.pairs_batch = 1u << 17;
    return t;
}

void wm_context_set_error(wm_context_t *cx, const char *fmt, ...) {
    if (!cx) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cx->errmsg, sizeof cx->errmsg, fmt, ap);
    va_end(ap);
}

double wm_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int family_index(const wm_family_t *f) {
    for (int i = 0; wm_families[i]; i++)
        if (wm_families[i] == f) return i;
    return -1;
}

const void *wm_context_gpu(const wm_context_t *cx, const wm_family_t *f) {
    int i = family_index(f);
    return i < 0 || cx->cpu_only ? NULL : cx->gpu[i];
}

void *wm_context_cache(wm_context_t *cx, const wm_family_t *f, size_t bytes) {
    int i = family_index(f);
    if (i < 0) return NULL;
    if (!cx->cache[i]) cx->cache[i] = calloc(1, bytes);
    return cx->cache[i];
}

wm_tuning_t *wm_context_tuning(wm_context_t *cx) { return wm_context_ok(cx) ? &cx->tuning : NULL; }

const wm_stats_t *wm_context_stats(const wm_context_t *cx) {
    if (!wm_context_ok(cx)) return NULL;
    return cx->n_sub > 1 ? &cx->sub[0]->stats : &cx->stats;
}

/* The GPU tables of every family that has GPU code, when cx runs on a GPU. */
static void pick_gpu_tables(wm_context_t *cx) {
    for (int i = 0; wm_families[i] && i < WM_MAX_FAMILIES; i++)
        cx->gpu[i] = cx->backend == WM_BACKEND_CUDA ? wm_families[i]->gpu : NULL;
}

wm_status wm_context_new(const wm_context_opts_t *o, wm_context_t **out) {
    if (!out) return WM_INVALID;
    *out = NULL;
    wm_context_opts_t opts = o ? *o : wm_context_opts_default();
    /* A list of one device is that device; the caller's list is never kept
    ** (shard.c copies a longer one). */
    if (opts.devices && opts.n_devices == 1) opts.device = opts.devices[0];
    int many = opts.devices && opts.n_devices > 1;
    if (!many) {
        opts.devices = NULL;
        opts.n_devices = 0;
    }
    if ((unsigned)opts.backend > WM_BACKEND_CUDA || opts.threads < 0 || opts.device < 0)
        return WM_INVALID;
    wm_context_t *cx = calloc(1, sizeof *cx);
    if (!cx) return WM_NOMEM;
    cx->magic = WM_CONTEXT_MAGIC;
    cx->opts = opts;
    cx->file.fd = -1;
    cx->tuning = wm_tuning_default();
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    cx->n_threads = opts.threads > 0 ? opts.threads : (online > 0 ? (int)online : 1);
    if (many) {
        /* The sub-contexts do the work; this one only cuts and merges. */
        int hand_back = 0;
        wm_status st = wm_shard_context_init(cx, &hand_back);
        if (st == WM_OK || hand_back) *out = cx;
        else wm_context_free(cx);
        return st;
    }

    wm_backend_t want = opts.backend;
    if (want == WM_BACKEND_AUTO)
        want = wm_cuda_device_count() > 0 ? WM_BACKEND_CUDA : WM_BACKEND_CPU;
    if (want == WM_BACKEND_CUDA) {
        wm_status st = wm_cuda_context_init(cx);
        if (st != WM_OK) {
            if (opts.backend == WM_BACKEND_CUDA) {
                /* As sqlite3_open does: hand the context back anyway so that
                ** wm_context_errmsg() can say why; the caller frees it. */
                cx->backend = WM_BACKEND_CPU;
                *out = cx;
                return st;
            }
            if (cx->cuda) wm_cuda_context_free(cx);
            cx->errmsg[0] = 0;
            want = WM_BACKEND_CPU; /* AUTO falls back quietly */
        }
    }
    cx->backend = want;
    pick_gpu_tables(cx);
    /* The CUDA backend still uses host threads to finish matches. */
    cx->pool = wm_pool_new(cx->n_threads);
    if (!cx->pool) {
        wm_context_free(cx);
        return WM_NOMEM;
    }
    *out = cx;
    return WM_OK;
}

void wm_context_free(wm_context_t *cx) {
    if (!wm_context_ok(cx)) return;
    wm_shard_context_free(cx); /* the sub-contexts of a multi-device one */
    /* The families' caches first: they may hold device memory. */
    wm_cuda_context_bind(cx);
    for (int i = 0; wm_families[i] && i < WM_MAX_FAMILIES; i++)
        if (cx->cache[i] && wm_families[i]->free_cache)
            wm_families[i]->free_cache(cx, cx->cache[i]);
    if (cx->cuda) wm_cuda_context_free(cx);
    wm_pool_free(cx->pool);
    cx->magic = 0;
    free(cx);
}

wm_backend_t wm_context_backend(const wm_context_t *cx) {
    return wm_context_ok(cx) ? cx->backend : WM_BACKEND_CPU;
}

const char *wm_context_errmsg(const wm_context_t *cx) {
    return wm_context_ok(cx) ? cx->errmsg : "";
}
