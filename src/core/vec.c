/*
** vec.c -- growable arrays (doubling, 64-bit sizes): the one growth rule,
** the match vector every driver collects into, and the runs of
** wm_search_batches.
*/
#include <stdlib.h>

#include "core/internal.h"

int wm_vec_grow(void **a, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 256;
    while (c < need) c *= 2;
    void *n = realloc(*a, c * elem);
    if (!n) return -1;
    *a = n;
    *cap = c;
    return 0;
}

int wm_matchvec_push(wm_matchvec_t *v, const wm_match_t *m) {
    if (v->n == v->cap && wm_vec_grow((void **)&v->a, &v->cap, v->n + 1, sizeof *v->a)) return -1;
    v->a[v->n++] = *m;
    return 0;
}

wm_status wm_matchvec_deliver(const wm_matchvec_t *v, wm_match_cb cb, void *user) {
    return wm_deliver_matches(v->a, v->n, cb, user);
}

wm_status wm_deliver_matches(const wm_match_t *a, size_t n, wm_match_cb cb, void *user) {
    if (n == 0) return WM_OK;
    if (cb == wm_batcher_one) { /* the gathered run first, then this one whole */
        wm_batcher_t *b = user;
        return wm_batcher_flush(b) || b->cb(a, n, b->user) ? WM_STOPPED : WM_OK;
    }
    for (size_t i = 0; i < n; i++)
        if (cb(&a[i], user)) return WM_STOPPED;
    return WM_OK;
}

int wm_batcher_one(const wm_match_t *m, void *user) {
    wm_batcher_t *b = user;
    b->run[b->n++] = *m;
    return b->n == WM_BATCHER_RUN ? wm_batcher_flush(b) : 0;
}

int wm_batcher_flush(wm_batcher_t *b) {
    size_t n = b->n;
    b->n = 0;
    return n > 0 ? b->cb(b->run, n, b->user) : 0;
}

void wm_matchvec_free(wm_matchvec_t *v) {
    free(v->a);
    v->a = NULL;
    v->n = v->cap = 0;
}
