/*
** waves.h -- the CPU drivers' loop (search, setk, sets): the owned ends cut into
** chunks (core/plan.h), the chunks run on the pool in waves of a few per
** thread, each filling its own result (a vector of matches, or of a set's
** raw hits), and each wave's results handed over in chunk order, on the
** calling thread, while the next wave runs; so memory stays bounded (two
** waves) however dense the matches, and the order is the text's.
*/
#ifndef WM_CORE_WAVES_H
#define WM_CORE_WAVES_H

#include "core/internal.h"
#include "core/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t item; /* bytes of a chunk's result */
    /* Fill out, emptied, with the results of chunk i of the plan: 0, or -1
    ** out of memory. Called on the pool's threads. */
    int (*chunk)(void *arg, uint64_t i, void *out);
    void *arg;
    /* A chunk's results, in chunk order, on the calling thread: WM_OK to go
    ** on, anything else stops (and is returned). */
    wm_status (*deliver)(void *user, const void *out);
    void *user;
    void (*empty)(void *out);   /* keep its memory for the next wave */
    void (*release)(void *out); /* free its memory */
} wm_waves_t;

/* The waves of a driver whose chunks give vectors of matches (search, setk):
** results are wm_matchvec_t. */
wm_waves_t wm_waves_of_matches(int (*chunk)(void *arg, uint64_t i, void *out), void *arg,
                               wm_status (*deliver)(void *user, const void *out), void *user);

/* The chunk size for the owned ends (own_from, len]: the context's
** chunk_bytes, or about per_thread chunks a thread, between least and 16
** MiB. A driver whose work per byte is large (a set within k) asks for many
** small chunks: the threads end together, and more waves hide more of the
** handing over. */
uint64_t wm_waves_chunk_size(const wm_context_t *cx, uint64_t own_from, uint64_t len,
                             unsigned per_thread, uint64_t least);

/* Run plan (over the owned ends (own_from, len]) in waves; progress is
** reported after each wave. WM_NOMEM when a chunk failed. */
wm_status wm_waves_run(wm_context_t *cx, const wm_plan_t *plan, uint64_t own_from, uint64_t len,
                       const wm_waves_t *w);

#ifdef __cplusplus
}
#endif
#endif
