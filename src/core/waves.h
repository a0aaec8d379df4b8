/*
** waves.h -- the CPU drivers' loop (search, setk): the owned ends cut into
** chunks (core/plan.h), the chunks run on the pool in waves of a few per
** thread, each filling its own vector of matches, and each wave's vectors
** handed over in chunk order, on the calling thread, while the next wave
** runs; so memory stays bounded (two waves) however dense the matches, and
** the order is the text's.
*/
#ifndef WM_CORE_WAVES_H
#define WM_CORE_WAVES_H

#include "core/internal.h"
#include "core/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    /* Fill out (empty) with the matches of chunk i of the plan: 0, or -1 out
    ** of memory. Called on the pool's threads. */
    int (*chunk)(void *arg, uint64_t i, wm_matchvec_t *out);
    void *arg;
    /* A chunk's matches, in chunk order, on the calling thread: WM_OK to go
    ** on, anything else stops (and is returned). */
    wm_status (*deliver)(void *user, const wm_matchvec_t *v);
    void *user;
} wm_waves_t;

/* The chunk size for the owned ends (own_from, len]: the context's
** chunk_bytes, or about 8 chunks a thread between 256 KiB and 16 MiB. */
uint64_t wm_waves_chunk_size(const wm_context_t *cx, uint64_t own_from, uint64_t len);

/* Run plan (over the owned ends (own_from, len]) in waves; progress is
** reported after each wave. WM_NOMEM when a chunk failed. */
wm_status wm_waves_run(wm_context_t *cx, const wm_plan_t *plan, uint64_t own_from, uint64_t len,
                       const wm_waves_t *w);

#ifdef __cplusplus
}
#endif
#endif
