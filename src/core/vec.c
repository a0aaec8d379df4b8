/*
** vec.c -- growable arrays (doubling, 64-bit sizes): the one growth rule,
** and the match vector every driver collects into.
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
    for (size_t i = 0; i < v->n; i++)
        if (cb(&v->a[i], user)) return WM_STOPPED;
    return WM_OK;
}

void wm_matchvec_free(wm_matchvec_t *v) {
    free(v->a);
    v->a = NULL;
    v->n = v->cap = 0;
}
