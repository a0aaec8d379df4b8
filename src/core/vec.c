/*
** vec.c -- growable arrays of hits and matches (doubling, 64-bit sizes).
*/
#include <stdlib.h>

#include "core/internal.h"

static int grow(void **a, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 256;
    while (c < need) c *= 2;
    void *n = realloc(*a, c * elem);
    if (!n) return -1;
    *a = n;
    *cap = c;
    return 0;
}

int wm_hitvec_push(wm_hitvec_t *v, uint64_t end, uint32_t errors, uint32_t strand) {
    if (v->n == v->cap && grow((void **)&v->a, &v->cap, v->n + 1, sizeof *v->a)) return -1;
    wm_hit_t *h = &v->a[v->n++];
    h->end = end; h->errors = errors; h->strand = strand;
    return 0;
}

void wm_hitvec_free(wm_hitvec_t *v) { free(v->a); v->a = NULL; v->n = v->cap = 0; }

int wm_matchvec_push(wm_matchvec_t *v, const wm_match_t *m) {
    if (v->n == v->cap && grow((void **)&v->a, &v->cap, v->n + 1, sizeof *v->a)) return -1;
    v->a[v->n++] = *m;
    return 0;
}

void wm_matchvec_free(wm_matchvec_t *v) { free(v->a); v->a = NULL; v->n = v->cap = 0; }
