/*
** litfilter.h -- a SIMD filter for an exact stretch of a pattern, shared by
** exact search (the whole pattern) and the pigeonhole filter (its pieces).
*/
#ifndef WM_SEARCH_LITFILTER_H
#define WM_SEARCH_LITFILTER_H

#include "search/search.h"

/* Pattern positions [off, off + len) of one strand, and up to four of them
** whose class is one byte or one letter in either case, to compare 16 text
** positions at a time. */
typedef struct {
    size_t off, len;
    int n;           /* positions tested (0..4); under 2 filters too little */
    size_t pos[4];   /* offsets within the stretch */
    uint8_t byte[4]; /* the byte (lower case when folded) */
    uint8_t fold[4]; /* 0x20 when either case is accepted */
} wm_litfilter_t;

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
