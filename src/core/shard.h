/*
** shard.h -- one call over several devices of one host (src/core/shard.c).
**
** A context made with n_devices > 1 owns n_sub ordinary contexts. Every
** public entry point, after its own argument checks, hands the work here
** (`if (cx->n_sub > 1) ...`), so the arguments are checked, with one
** device's statuses and messages, before these run. Core cuts texts (the
** database's family scans each part) and lists (pairs, queries); a family
** with its own rule for cutting (align infix) drives the subs through
** wm_shard_run and wm_shard_error.
*/
#ifndef WM_CORE_SHARD_H
#define WM_CORE_SHARD_H

#include "core/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Make the sub-contexts of cx (cx->opts.devices holds n_devices > 1
** entries; cx->n_threads is set). Sets cx->backend. On an error that the
** caller should see through wm_context_errmsg (WM_INVALID ordinals, and the
** WM_NO_DEVICE / WM_UNSUPPORTED / WM_DEVICE a CUDA context hands back) sets
** *hand_back = 1; the context then has no sub-contexts and only says why. */
wm_status wm_shard_context_init(wm_context_t *cx, int *hand_back);
/* Free the sub-contexts and the copied device list; no-op for others. */
void wm_shard_context_free(wm_context_t *cx);

/* wm_scan_owned over the sub-contexts: the ends (own_from, len] cut among
** them; listing (cb != NULL: matches in order through cb) or counting
** (*n_matches, and per_pattern when not NULL, zeroed, one entry a
** pattern); own_from < text->len. */
wm_status wm_shard_text(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                        uint64_t own_from, wm_match_cb cb, void *user, uint64_t *n_matches,
                        uint64_t *per_pattern);

/* fn(job, i, sub i) for every sub at once: a thread each, sub 0 on the
** calling thread (a caller's callback can run there), each with its GPU
** bound, its message cleared and the parent's tuning. */
typedef void (*wm_shard_fn)(void *job, int i, wm_context_t *sub);
void wm_shard_run(wm_context_t *cx, wm_shard_fn fn, void *job);

/* The first sub, ready to run a call that is not cut (global align of one
** pair, one dtw query, the Four-Russians table), on the calling thread. */
wm_context_t *wm_shard_first(wm_context_t *cx);

/* Sub i failed with st: the context's message becomes the sub's (or
** wm_strerror(st)) behind "device N: " (CUDA, N the ordinal) or "shard N: "
** (CPU). A leading "<word> N: " naming an item of the sub's range (pairs,
** queries, whose range starts at item `first`) is renumbered for the whole
** call and kept in front, where callers look for it; name_single: the sub
** had one item of several, which its message cannot name. word NULL: none.
** Returns st. */
wm_status wm_shard_error(wm_context_t *cx, int i, wm_status st, const char *word, size_t first,
                         int name_single);

/* A list of n items cut into contiguous ranges, one per sub (core/plan.h's
** even cut): fn(job, sub, lo, hi) runs items [lo, hi) on a sub and returns its
** status. On a failure, the lowest failing sub's status and message, its
** item renumbered ("pair N: ", "query N: " with word). */
typedef wm_status (*wm_shard_list_fn)(void *job, wm_context_t *sub, size_t lo, size_t hi);
wm_status wm_shard_list(wm_context_t *cx, size_t n, wm_shard_list_fn fn, void *job,
                        const char *word);

#ifdef __cplusplus
}
#endif
#endif
