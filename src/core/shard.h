/*
** shard.h -- one call over several devices of one host (src/core/shard.c).
**
** A context made with n_devices > 1 owns n_sub ordinary contexts and each
** public entry point, after its own argument checks, hands the work here:
** `if (cx->n_sub > 1) return wm_shard_xxx(...)`, so the arguments are
** checked, with one device's statuses and messages, before these run.
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

/* wm_search (cb != NULL: matches in order through cb), wm_count (cb NULL,
** *n_matches) and wm_count_per_pattern (per_pattern != NULL, zeroed, one
** entry per pattern) of a text with len > 0. */
wm_status wm_shard_text(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                        wm_match_cb cb, void *user, uint64_t *n_matches, uint64_t *per_pattern);

/* wm_align, the options checked and defaulted (o is not NULL). */
wm_status wm_shard_align(wm_context_t *cx, const uint8_t *query, size_t m, const uint8_t *target,
                         uint64_t n, const wm_align_opts_t *o, wm_alignments_t *out);

/* wm_align_pairs, every pair checked, out zeroed, all_ends off in o. */
wm_status wm_shard_align_pairs(wm_context_t *cx, const wm_pair_t *pairs, size_t n_pairs,
                               const wm_align_opts_t *o, wm_alignment_t *out);

/* wm_align_fr_info on the first device. */
wm_status wm_shard_fr_info(wm_context_t *cx, const wm_align_opts_t *o, wm_fr_info_t *info);

/* wm_dtw_many (and wm_dtw), every argument checked, out emptied. */
wm_status wm_shard_dtw_many(wm_context_t *cx, const double *const *queries, const size_t *lens,
                            size_t n_queries, const double *series, uint64_t n,
                            const wm_dtw_opts_t *o, wm_dtw_matches_t *out);

#ifdef __cplusplus
}
#endif
#endif
