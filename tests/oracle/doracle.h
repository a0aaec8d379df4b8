/*
** doracle.h -- the brute-force reference for wm_dtw / wm_dtw_many (dynamic
** time warping: subsequence, global and UCR modes).
**
** Written for clarity, never optimised, and independent of src/: it includes
** only the public header (for wm_dtw_opts_t and the match types) and calls
** nothing from the library. test_dtw_diff.c checks every backend against it.
**
** The contract it implements (include/warpmatch.h, "dynamic time warping"),
** in float64 or float32 (o->precision; doracle_precision), each cell's
** addition rounded once (the project compiles with -ffp-contract=off; no fma
** anywhere here):
**
**   cost(x, y) = |x - y| (abs) or (x - y) * (x - y) (squared).
**
**   subsequence: query q[0, m), series y[0, n). Every cell (i, c) -- query
**     row i = 1..m (1-based), series sample c = 0..n-1 (0-based) -- holds a
**     pair (value, start). Its candidates, each (pred.value + cost(q[i-1],
**     y[c]), pred.start):
**       i == 1: the fresh start (0 + cost, c), and the left neighbour
**               (1, c-1) when c >= 1;
**       i > 1:  the diagonal (i-1, c-1) when c >= 1, up (i-1, c), and the
**               left neighbour (i, c-1) when c >= 1;
**     the cell takes the smallest value, and of equal values the largest
**     start. (The value is the textbook min(...) + cost bit for bit; adding
**     the same cost per candidate matters only for which start wins.)
**     End e (1..n) gives the candidate (value(m, e-1), start(m, e-1), e).
**   global: D[0][0] = 0, D[i][0] = D[0][j] = +inf (i, j >= 1),
**     D[i][j] = min(D[i-1][j-1], D[i-1][j], D[i][j-1]) + cost(q[i-1], y[j-1])
**     for the cells in the band, +inf outside; one candidate (D[m][n], 0, n).
**   ucr: L = o->length (0: m); for every window s in [0, n - L]: the global
**     DTW (with the band, m rows and L columns) of znorm(q) and
**     znorm(y[s, s + L)); candidate (distance, s, s + L).
**   The band of radius R >= 0 (R < 0: none), 0-based cell (i, j) of an
**     m x n matrix: i - R - max(0, m - n) <= j <= i + R + max(0, n - m).
**   znorm(v[0, n)): mean = (sum left to right) / n, sd = sqrt((sum left to
**     right of (v - mean) * (v - mean)) / n), out = (v - mean) / sd; sd == 0
**     gives zeros. With o->znorm, subsequence and global modes normalise the
**     query and the whole series first (ucr always normalises, as above).
**   Selection: candidates ranked by distance ascending, then end ascending,
**     then start descending; taken in rank order while distance <=
**     max_distance, skipping any that overlaps one already taken ([s1, e1)
**     and [s2, e2) overlap iff s1 < e2 && s2 < e1), stopping at `top` (0 =
**     no limit). Output in rank order when top > 0, by start when top == 0.
**   Path (o->path), the canonical traceback: the DP of series[start, end)
**     alone (subsequence: D[0][j] = 0 for every column of the window,
**     D[i][0] = +inf), of the whole banded matrix (global) or of the
**     normalised window (ucr); from (m, last column) back: take the FIRST of
**     the diagonal (i-1, j-1), the query step (i-1, j), the series step
**     (i, j-1) whose value + the cell's cost == the cell's value (exact
**     double ==), until row 0. Output from the first cell: (query index,
**     series index) pairs, 0-based, the series index absolute.
**
** Several ways to the same answer, so that the oracle can check itself:
**   doracle_subseq_full / doracle_subseq_cols   the whole matrix / one
**       column at a time (long series);
**   doracle_global_full / doracle_global_cols   the same for global DTW;
**   doracle_subseq_naive   the definition: for an end e, the minimum over
**       every start s of the global DTW (no band) of q and y[s, e), and the
**       largest s reaching it; O(n^2 m) per end, tiny cases only;
**   doracle_path  the traceback's own DP, whose last value must equal the
**       candidate's distance.
** Out of memory aborts (with a message); so do broken invariants (not
** asserts: Release builds define NDEBUG).
*/
#ifndef WM_DORACLE_H
#define WM_DORACLE_H

#include <stddef.h>
#include <stdint.h>
#include "warpmatch.h"

/* Above this many cells ((m+1) x (n+1)) doracle_candidates and doracle_dtw
** compute column by column instead of keeping the whole matrix. */
#define DORACLE_FULL_MAX_CELLS (4ull << 20)

/* The precision of what follows (o->precision; the calls that take an o
** set it from o): float64, or float32, where every sample is rounded to a
** float and cost and addition are float operations (C float variables,
** FLT_EVAL_METHOD 0), each value a float held in a double. */
void doracle_precision(wm_dtw_precision_t p);

/* cost(x, y) and a + b in that precision. */
double doracle_cost(wm_dtw_cost_t c, double x, double y);
double doracle_add(double a, double b);

/* Is 0-based cell (i, j) of an m x n matrix inside the band of radius r
** (r < 0: no band, every cell)? */
int doracle_in_band(int64_t r, uint64_t m, uint64_t n, uint64_t i, uint64_t j);

/* out[0, n) = znorm(in[0, n)) as above; in and out may be the same array. */
void doracle_znorm(const double *in, uint64_t n, double *out);

/* Subsequence DP by the cell rule: for every end e = 1..n, dist[e-1] and
** start[e-1]. The whole (m+1) x n matrix of (value, start). */
void doracle_subseq_full(const double *q, size_t m, const double *y, uint64_t n, wm_dtw_cost_t cost,
                         double *dist, uint64_t *start);
/* The same, keeping one column of (value, start) at a time. */
void doracle_subseq_cols(const double *q, size_t m, const double *y, uint64_t n, wm_dtw_cost_t cost,
                         double *dist, uint64_t *start);
/* The definition for one end e (1..n): min over s in [0, e) of
** doracle_global_full(q, y + s, e - s, no band); *start_max = the largest s
** reaching it. */
double doracle_subseq_naive(const double *q, size_t m, const double *y, uint64_t e,
                            wm_dtw_cost_t cost, uint64_t *start_max);

/* Global DTW with the band of radius window (-1: none): D[m][n]. */
double doracle_global_full(const double *q, size_t m, const double *y, uint64_t n,
                           wm_dtw_cost_t cost, int64_t window);
double doracle_global_cols(const double *q, size_t m, const double *y, uint64_t n,
                           wm_dtw_cost_t cost, int64_t window);

typedef struct {
    double distance;
    uint64_t start, end;
} doracle_cand_t;

/* Every candidate of the mode o->mode (before selection), with o->cost,
** o->window, o->znorm and o->length as the contract reads them: n of them
** (subsequence, in end order), 1 (global), n - L + 1 (ucr, in start order).
** *out is malloc'd (the caller frees it); returns the count. The inputs
** must be valid (m >= 1, n >= 1, L <= n in ucr mode). */
size_t doracle_candidates(const double *q, size_t m, const double *y, uint64_t n,
                          const wm_dtw_opts_t *o, doracle_cand_t **out);

/* Does a rank before b? (distance, then end, then larger start.) */
int doracle_rank_before(const doracle_cand_t *a, const doracle_cand_t *b);

/* The selection above on c[0, n) (reordered in place): the chosen ones end
** up in c[0, returned count), in the output order. */
size_t doracle_select(doracle_cand_t *c, size_t n, uint64_t top, double max_distance);

/* The canonical path of the match [start, end) under o (mode, cost, window,
** znorm, length): a malloc'd array of 2 * *len values (query index, series
** index) from the first cell. *value gets the last cell's value in the
** traceback's DP (it must equal the match's distance). */
uint64_t *doracle_path(const double *q, size_t m, const double *y, uint64_t n,
                       const wm_dtw_opts_t *o, uint64_t start, uint64_t end, size_t *len,
                       double *value);

/* wm_dtw as the contract defines it (valid inputs only): candidates,
** selection and, with o->path, paths. out->a is malloc'd (NULL when
** out->n == 0); free with doracle_matches_free. */
void doracle_dtw(const double *q, size_t m, const double *y, uint64_t n, const wm_dtw_opts_t *o,
                 wm_dtw_matches_t *out);
void doracle_matches_free(wm_dtw_matches_t *r);

#endif
