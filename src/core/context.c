/*
** context.c -- execution contexts: which backend runs, the CPU thread pool,
** the CUDA state, and the last error message. A context over several
** devices is made of ordinary ones by src/core/shard.c.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/internal.h"
#include "core/shard.h"
#include "align/fr.h"

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

void wm_context_set_error(wm_context_t *cx, const char *fmt, ...) {
    if (!cx) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cx->errmsg, sizeof cx->errmsg, fmt, ap);
    va_end(ap);
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
    if (want == WM_BACKEND_AUTO) want = wm_cuda_device_count() > 0 ? WM_BACKEND_CUDA : WM_BACKEND_CPU;
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
            cx->errmsg[0] = 0;

            want = WM_BACKEND_CPU;       /* AUTO falls back quietly */
        }
    }
    cx->backend = want;
    /* The CUDA backend still uses host threads to finish matches. */
    cx->pool = wm_pool_new(cx->n_threads);
    if (!cx->pool) { wm_context_free(cx); return WM_NOMEM; }
    *out = cx;
    return WM_OK;
}

void wm_context_free(wm_context_t *cx) {
    if (!cx || cx->magic != WM_CONTEXT_MAGIC) return;
    wm_shard_context_free(cx);         /* the sub-contexts of a multi-device one */
    wm_fr_cache_free(cx);              /* before the GPU goes: tables hold device copies */
    if (cx->cuda) wm_cuda_context_free(cx);
    wm_pool_free(cx->pool);
    cx->magic = 0;
    free(cx);
}

wm_backend_t wm_context_backend(const wm_context_t *cx) {
    return cx && cx->magic == WM_CONTEXT_MAGIC ? cx->backend : WM_BACKEND_CPU;
}

const char *wm_context_errmsg(const wm_context_t *cx) {
    return cx && cx->magic == WM_CONTEXT_MAGIC ? cx->errmsg : "";
}
