/*
** align.h -- what the parts of `align` share: a query compiled for the
** dynamic programme (its symbol map and match masks), the scans that find the
** best ends of an infix alignment, and the CPU passes that turn an end into a
** start and a CIGAR.
**
** Conventions. D[i][j] is the edit distance of query[0, i) and the best
** substring of target ending at j (infix: D[0][j] = 0) or of target[0, j)
** (global: D[0][j] = j). D[i][0] = i. An "end" e is a column: the substring
** is target[start, e).
*/
#ifndef WM_ALIGN_ALIGN_H
#define WM_ALIGN_ALIGN_H

#include <stddef.h>
#include <stdint.h>
#include "warpmatch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A query compiled for the DP. Symbols are small codes; code n_codes is the
** symbol that matches nothing (DNA's N, IUPAC codes, any non-ACGT byte), and
** its row of peq is all zeros. Two bytes a, b are equal iff
** code[a] == code[b] && code[a] < n_codes. */
typedef struct {
    const uint8_t *q;         /* the caller's bytes (not owned)                  */
    size_t m;
    size_t n_words;           /* ceil(m / 64)                                    */
    uint16_t code[256];       /* byte -> symbol                                  */
    unsigned n_codes;         /* 256 for bytes, 4 for DNA                        */
    uint64_t *peq;            /* (n_codes + 1) rows of n_words: bit i of row c is
                                 set when query[i] has symbol c                  */
} wm_aq_t;

wm_status wm_aq_make(wm_aq_t *aq, const uint8_t *q, size_t m, const wm_align_opts_t *o);
void wm_aq_free(wm_aq_t *aq);

static inline int wm_aq_eq(const wm_aq_t *aq, uint8_t a, uint8_t b) {
    return aq->code[a] == aq->code[b] && aq->code[a] < aq->n_codes;
}

/* Match masks for x[0, len) (or x read backwards when reverse), in aq's
** symbols: (aq->n_codes + 1) rows of ceil(len / 64) words, zeroed first. */
void wm_aq_peq_fill(const wm_aq_t *aq, const uint8_t *x, size_t len, int reverse, uint64_t *peq);

/* ---- finding the best ends (infix) -------------------------------------- */

/* The best of a set of ends: the smallest distance, and the leftmost end that
** reaches it. d == UINT64_MAX: none (every end was above the limit). */
typedef struct {
    uint64_t d;
    uint64_t end;
} wm_best_t;

static inline void wm_best_take(wm_best_t *b, uint64_t d, uint64_t end) {
    if (d < b->d || (d == b->d && end < b->end)) { b->d = d; b->end = end; }
}

/* Ends reaching a threshold, pushed in increasing order. */
typedef struct {
    uint64_t *a;
    size_t n, cap;
} wm_endvec_t;
int wm_endvec_push(wm_endvec_t *v, uint64_t e);    /* 0, or -1 out of memory */
void wm_endvec_free(wm_endvec_t *v);

/* One scan of target[scan_from, to) from a fresh first column (D[i][scan_from] = i).
** It owns the ends e with own_from < e <= to: their distances are exact when
** the best alignment ending at e starts at or after scan_from (the driver puts
** scan_from m + min(k, m) before own_from, the longest an optimal alignment
** can be). For owned ends it keeps the best in *best (only distances <= limit)
** and, when ends != NULL, pushes every e with D[m][e] <= report_le.
** limit < 0: no limit. Both prune rows by it (Ukkonen's cutoff). Returns 0,
** or -1 out of memory. */
typedef int (*wm_infix_scan_fn)(const wm_aq_t *aq, const uint8_t *t, uint64_t scan_from,
                                uint64_t own_from, uint64_t to, int64_t limit,
                                int64_t report_le, wm_endvec_t *ends, wm_best_t *best);
int wm_infix_bv_scan(const wm_aq_t *aq, const uint8_t *t, uint64_t scan_from, uint64_t own_from,
                     uint64_t to, int64_t limit, int64_t report_le, wm_endvec_t *ends,
                     wm_best_t *best);
int wm_infix_dp_scan(const wm_aq_t *aq, const uint8_t *t, uint64_t scan_from, uint64_t own_from,
                     uint64_t to, int64_t limit, int64_t report_le, wm_endvec_t *ends,
                     wm_best_t *best);

/* ---- the GPU (src/align/align_cuda.cu; stubs in src/core/cuda_stub.c) ----
** The same contract as one scan over the whole target, ends (0, n]: the best
** within limit in *best, and with ends != NULL every end with distance <=
** report_le, in increasing order. The target streams through the GPU in
** batches that overlap by m + min(limit, m). algo: WAVEFRONT or BITVECTOR. */
struct wm_context;
/* The longest query each GPU kernel takes: the bit-vector kernel's chunk is
** one block of at most 1024 threads holding 8 words of 32 rows (longer
** queries run on the CPU, same output); the wavefront keeps 3 (m + 1) cells
** in shared memory (longer queries are refused). */
#define WM_CU_BV_MAX_M (1024u * 8u * 32u)
#define WM_CU_WAVEFRONT_MAX_M 16384u
wm_status wm_cuda_infix(struct wm_context *cx, const wm_aq_t *aq, const uint8_t *t, uint64_t n,
                        wm_align_algo_t algo, int64_t limit, int64_t report_le,
                        wm_endvec_t *ends, wm_best_t *best);

/* ---- from an end to an alignment (CPU, every backend) ------------------- */

/* The largest start s with edit(query, t[s, end)) == d, where d is the best
** distance of any substring ending at end. Memory: one table of match masks
** of the reversed query ((n_codes + 3) * ceil(m / 64) words). UINT64_MAX when
** that cannot be allocated. */
uint64_t wm_align_start(const wm_aq_t *aq, const uint8_t *t, uint64_t end, uint64_t d);

/* Global edit distance of query and y[0, n) (bit-vector, banded; memory as
** wm_align_start). UINT64_MAX out of memory. */
uint64_t wm_global_distance(const wm_aq_t *aq, const uint8_t *y, uint64_t n);

/* The extended CIGAR ('=', 'X', 'I', 'D', SAM convention, target = reference)
** of one optimal global alignment of the whole query with y[0, n), found in
** memory linear in m + n (Hirschberg's split over bit-vector columns, small
** blocks by a full DP). *d_out gets its distance. The same inputs always give
** the same CIGAR. Returns a malloc'd string, or NULL out of memory. */
char *wm_align_cigar(const wm_aq_t *aq, const uint8_t *y, uint64_t n, uint64_t *d_out);

#ifdef __cplusplus
}
#endif
#endif
