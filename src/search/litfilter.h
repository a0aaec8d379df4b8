/*
** litfilter.h -- a SIMD filter for an exact stretch of a pattern, shared by
** exact search (the whole pattern) and the pigeonhole filter (its pieces).
*/
#ifndef WM_SEARCH_LITFILTER_H
#define WM_SEARCH_LITFILTER_H

#include "search/search.h"

/* wm_litfilter_t: search.h (a strand keeps its whole pattern's). */

/* Choose the positions (spread: last, first, middle, three quarters). */
void wm_litfilter_make(const wm_strand_t *st, size_t nw, size_t off, size_t len, wm_litfilter_t *f);

/* For every start q in [s0, s1) where the stretch occurs exactly at text + q,
** push q + len (the stretch's end) with `strand`. Reads text[s0, s1 + len - 1).
** Returns the first start it did not finish: s1, or earlier (a multiple of 16
** past s0) when survivors turned out dense or fewer than 16 starts remain;
** -1 when memory ran out. Without SSE2 it does nothing and returns s0. */
int64_t wm_litfilter_scan(const wm_strand_t *st, size_t nw, const wm_litfilter_t *f,
                          const uint8_t *text, uint64_t s0, uint64_t s1, int strand,
                          wm_hitvec_t *out);

/* Does the stretch occur exactly at t? */
int wm_litfilter_check(const wm_strand_t *st, size_t nw, const wm_litfilter_t *f, const uint8_t *t);

#endif
