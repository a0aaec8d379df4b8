/*
** aoracle.h -- the brute-force reference for wm_align in infix (ASM) mode.
**
** Written for clarity, never optimised, and independent of src/: it includes
** only the public header (for wm_align_opts_t) and calls nothing from the
** library. No bit-vectors: plain dynamic programming, one cell at a time.
**
** The contract it implements (include/warpmatch.h, "alignment"):
**   eq(a, b): alphabet BYTES: a == b, or with case_insensitive the ASCII
**             letters folded; alphabet DNA: case folded, U reads as T, and
**             only A, C, G, T match (any other byte, N included, matches
**             nothing, not even itself). case_insensitive changes nothing
**             in DNA.
**   D[0][j] = 0, D[i][0] = i,
**   D[i][j] = min(D[i-1][j] + 1, D[i][j-1] + 1,
**                 D[i-1][j-1] + (eq(q[i-1], t[j-1]) ? 0 : 1)),
**   so that D[m][e] = min over s in [0, e] of edit(q, t[s, e)).
**   The infix distance is d = min over e in [0, n] of D[m][e]; e = 0 (the
**   empty substring, distance m) counts. The ends are every e with
**   D[m][e] == d, in increasing order (the reported one is the first); the
**   start of an end e is the largest s with edit(q, t[s, e)) == D[m][e]
**   (the shortest substring).
**   A CIGAR ('=' match, 'X' mismatch, 'I' a query symbol not in the target,
**   'D' a target symbol not in the query, each preceded by a count >= 1)
**   describes an alignment of the whole query with t[start, end).
**
** Four ways to the same answer, so that the oracle can check itself:
**   aoracle_infix     one column of D at a time (O(m) memory) carrying, for
**                     each cell, the largest start among its optimal paths;
**                     gives d, every end and every start in O(mn) time;
**   aoracle_start     for one end: a global DP of the reversed query against
**                     the target read backwards from the end;
**   aoracle_full      the whole matrix, the cells on optimal paths into
**                     (m, end) marked backwards (the largest marked start
**                     wins), then a full global DP of q against
**                     t[start, end) with a traceback for a CIGAR; small
**                     cases only (it holds (m+1)(n+1) cells);
**   aoracle_naive     the definition: edit(q, t[s, e)) for every s <= e;
**                     tiny cases only.
** Out of memory aborts (with a message); m == 0 and the size limits of
** aoracle_full are asserts. aoracle_full's own consistency check (the global
** distance of its CIGAR equals D[m][e]) is an assert too, so under NDEBUG the
** caller should replay the CIGAR against *d_e, as test_align_diff does.
*/
#ifndef WM_AORACLE_H
#define WM_AORACLE_H

#include <stddef.h>
#include <stdint.h>
#include "warpmatch.h"

/* Is query byte a equal to target byte b? Only o->alphabet and
** o->case_insensitive are read (o == NULL: plain byte equality). */
int aoracle_eq(uint8_t a, uint8_t b, const wm_align_opts_t *o);

/* Global unit-cost edit distance of a[0, na) and b[0, nb) under aoracle_eq
** (a plays the query). Two rows of the DP. */
uint64_t aoracle_edit(const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                      const wm_align_opts_t *o);

/* The infix answer: the distance and every end reaching it. */
typedef struct {
    uint64_t d;      /* min over e of D[m][e] */
    uint64_t *end;   /* every e with D[m][e] == d, increasing */
    uint64_t *start; /* start[i]: the largest s with edit(q, t[s, end[i])) == d */
    size_t n_ends;   /* >= 1 (e = 0 reaches d when d == m) */
} aoracle_infix_t;

/* Column DP over target t[0, n) (t may be NULL when n == 0); fills *r (the
** arrays are malloc'd; free with aoracle_infix_free). O(mn) time, O(m)
** memory besides the list of ends. */
void aoracle_infix(const uint8_t *q, size_t m, const uint8_t *t, size_t n, const wm_align_opts_t *o,
                   aoracle_infix_t *r);
void aoracle_infix_free(aoracle_infix_t *r);

/* The definition, literally: for every e and every s <= e, edit(q, t[s, e)).
** O(n^2 m n) time; only for targets of a few dozen bytes. Fills *r as above. */
void aoracle_naive(const uint8_t *q, size_t m, const uint8_t *t, size_t n, const wm_align_opts_t *o,
                   aoracle_infix_t *r);

/* For one end e (e <= length of t): D[m][e] into *d_e and the largest start.
** A global DP of q read backwards against t read backwards from e, over the
** substrings of length at most min(e, 2m) (an optimal one is never longer
** than m + D[m][e] <= 2m). O(m * min(e, 2m)) time. */
uint64_t aoracle_start(const uint8_t *q, size_t m, const uint8_t *t, uint64_t e,
                       const wm_align_opts_t *o, uint64_t *d_e);

/* Whole-matrix DP with traceback for one end e in [0, n]: *d_e = D[m][e],
** *start = the largest start (by marking the optimal paths into (m, e)),
** *cigar = a malloc'd CIGAR of one optimal alignment of q with t[start, e)
** (from a second, global full-matrix DP; the caller frees it). Asserts that
** (m+1)(n+1) and (m+1)(e-start+1) stay below 2^26 cells, and that the global
** distance of q and t[start, e) equals D[m][e]. */
void aoracle_full(const uint8_t *q, size_t m, const uint8_t *t, size_t n, uint64_t e,
                  const wm_align_opts_t *o, uint64_t *d_e, uint64_t *start, char **cigar);

/* Replay a CIGAR: walking the query from 0 and the target from `start`,
** every '=' pair must be eq and every 'X' pair not; each operation must carry
** a decimal count >= 1 (no other characters, no empty string); the query
** consumed must be m, the target consumed end - start, and #X + #I + #D
** (counted in symbols) must equal `distance`; start <= end <= n.
** Returns 1 when it replays; otherwise 0 and a reason in why[0, why_len)
** (why may be NULL). cigar == NULL fails. */
int aoracle_cigar_replay(const char *cigar, const uint8_t *q, size_t m, const uint8_t *t,
                         uint64_t n, uint64_t start, uint64_t end, uint64_t distance,
                         const wm_align_opts_t *o, char *why, size_t why_len);

#endif /* WM_AORACLE_H */
