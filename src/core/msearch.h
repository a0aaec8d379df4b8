/*
** msearch.h -- the pattern-set driver (msearch.c) and what it asks of the
** CUDA backend (src/multi/multi_cuda.cu; stubs in cuda_stub.c).
*/
#ifndef WM_CORE_MSEARCH_H
#define WM_CORE_MSEARCH_H

#include "core/internal.h"
#include "multi/mset.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Search a set database. rs: record starts (n_rec + 1 entries, rs[n_rec] =
** text length). Listing when cb != NULL or n_matches == NULL (matches go to
** cb in order); otherwise counting: *n_matches, and per_pattern[] when not
** NULL. */
wm_status wm_msearch(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                     const uint64_t *rs, size_t n_rec, wm_match_cb cb, void *user,
                     uint64_t *n_matches, uint64_t *per_pattern);

/* 1 when the GPU runs this set's algorithm. */
int wm_cuda_mset_supports(const wm_db_t *db);

/* GPU: every occurrence in the whole text, record borders ignored. With
** sink: batches of hits in end order (any uid order at one end), absolute
** ends. Without, with uid_counts: uid_counts[u] += occurrences of uid u;
** else *total += matches (occurrences times the pattern ids of each). */
typedef wm_status (*wm_mhit_batch_fn)(const wm_mhit_t *hits, size_t n, void *user);
wm_status wm_cuda_mset_search(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                              wm_mhit_batch_fn sink, void *user, uint64_t *uid_counts,
                              uint64_t *total);

#ifdef __cplusplus
}
#endif
#endif
