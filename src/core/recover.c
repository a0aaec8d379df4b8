/*
** recover.c -- what a context does when its GPU runs out of memory: a
** family's GPU call that fails with WM_DEVICE_NOMEM is tried again with
** pieces half as large (the context's GPU buffers freed first, so the
** memory is really given back), down to a floor; below it the family runs
** the call on the CPU, and the context keeps a note saying so. The output
** is the same either way: only where and in what pieces it was computed
** changes. A shrink is kept for the context's life: memory that was short
** once (another process, a larger job beside ours) is likely short again.
*/
#include <stdio.h>
#include <string.h>

#include "core/internal.h"

/* Pieces are cut to at most 1/2^WM_GPU_MAX_SHRINK of their size (never
** below the caller's floor): 256 MiB pieces end at 1 MiB, where the copies'
** fixed costs already dominate and
** a GPU that cannot hold that is better left alone. */
#define WM_GPU_MAX_SHRINK 8

uint64_t wm_gpu_piece(const wm_context_t *cx, uint64_t bytes, uint64_t floor) {
    uint64_t p = bytes >> cx->gpu_shrink;
    if (p < floor) p = floor < bytes ? floor : bytes;
    return p ? p : 1;
}

/* Give back every device buffer the families keep: their caches are made
** again, smaller, on the next call. */
static void free_caches(wm_context_t *cx) {
    wm_cuda_context_bind(cx);
    for (int i = 0; wm_families[i] && i < WM_MAX_FAMILIES; i++) {
        if (cx->cache[i] && wm_families[i]->free_cache)
            wm_families[i]->free_cache(cx, cx->cache[i]);
        cx->cache[i] = NULL;
    }
}

int wm_gpu_retry(wm_context_t *cx, wm_status *st) {
    if (*st != WM_DEVICE_NOMEM) return 0;
    free_caches(cx);
    if (cx->resident && cx->resident->dev) { /* the target gives its room back too */
        wm_cuda_target_release(cx->resident);
        cx->resident->dev_failed = 1;
    }
    if (cx->gpu_shrink >= WM_GPU_MAX_SHRINK) return 0;
    cx->gpu_shrink++;
    cx->stats.gpu_retries++;
    snprintf(cx->note, sizeof cx->note, "GPU %d ran out of memory: pieces cut to 1/%u",
             cx->opts.device, 1u << cx->gpu_shrink);
    cx->errmsg[0] = 0;
    return 1;
}

int wm_gpu_fall_back(wm_context_t *cx, wm_status st, const char *what) {
    if (st != WM_DEVICE_NOMEM) return 0;
    cx->stats.gpu_fallbacks++;
    snprintf(cx->note, sizeof cx->note,
             "GPU %d ran out of memory even with pieces cut to 1/%u: %s ran on the CPU",
             cx->opts.device, 1u << cx->gpu_shrink, what);
    cx->errmsg[0] = 0;
    return 1;
}

const char *wm_context_note(const wm_context_t *cx) {
    if (!wm_context_ok(cx)) return "";
    if (cx->note[0] || cx->n_sub <= 1) return cx->note;
    for (int i = 0; i < cx->n_sub; i++)
        if (cx->sub[i]->note[0]) return cx->sub[i]->note;
    return "";
}
