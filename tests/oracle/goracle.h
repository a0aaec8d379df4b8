/*
** goracle.h -- the brute-force reference for wm_align in global mode: the
** unit-cost edit distance of the whole query and the whole target, and the
** canonical CIGAR that every backend promises byte for byte.
**
** Written for clarity, never optimised, and independent of src/: it includes
** only the public header (for wm_align_opts_t) and the infix oracle's symbol
** equality (aoracle_eq, the one definition of "equal" the oracles share).
**
** The contract (include/warpmatch.h, "alignment"; src/align/align.h,
** wm_align_cigar):
**   D[i][j] = edit(q[0, i), t[0, j)), D[i][0] = i, D[0][j] = j,
**   D[i][j] = min(D[i-1][j-1] + (eq(q[i-1], t[j-1]) ? 0 : 1),
**                 D[i-1][j] + 1, D[i][j-1] + 1);  the distance is D[m][n].
**   The canonical alignment is the traceback from (m, n) that at each cell
**   (i, j) takes the FIRST of
**     diagonal  if i > 0, j > 0 and D[i-1][j-1] + cost == D[i][j]
**               ('=' when eq, else 'X');
**     'I'       if i > 0 and D[i-1][j] + 1 == D[i][j] (a query symbol);
**     'D'       otherwise (j - 1; a target symbol);
**   read forwards and run-length encoded with maximal runs, e.g. "5=1X2I3=";
**   the alignment of two empty sequences is "".
**
** Four ways to the same answer, so that the oracle can check itself:
**   goracle_distance    two rows of D (O(n) memory), the distance only;
**   goracle_full        the whole (m+1) x (n+1) matrix and the traceback
**                       above, literally (lengths to ~5,000: 4 bytes a cell);
**   goracle_banded      the same traceback over the cells that can lie on an
**                       alignment of cost <= band (see below), keeping two
**                       bits a cell; for long, similar pairs (100,000 bases
**                       at 1 %: 10^8 cells, 25 MB);
**   goracle_definition  the definition of "canonical": a depth-first search
**                       of every alignment, walking backwards from (m, n)
**                       and trying diagonal, I, D in that order, with
**                       iterative deepening on the cost; the first complete
**                       alignment found is the canonical one. Tiny cases only.
**
** Why the banded traceback is exact. Every cell (i, j) of an alignment of
** cost d satisfies |i - j| + |(m - n) - (i - j)| <= d (the part before the
** cell costs at least |i - j|, the part after at least |(m-n) - (i-j)|).
** Restrict D to those cells for a band B >= d (cells outside count as
** infinite): a cell on an optimal alignment keeps its true value (the
** optimal alignment's prefix stays inside), every other cell gets a value
** >= its true one. So at a cell of the optimal path a predecessor passes
** the test "value + cost == this cell's value" in the band exactly when it
** does in the full matrix, and the traceback is the same. When B < d the
** answer is only an upper bound; goracle_banded says so.
**
** Out of memory aborts (with a message); size limits are checked with
** messages and abort too (not asserts: Release builds define NDEBUG).
*/
#ifndef WM_GORACLE_H
#define WM_GORACLE_H

#include <stddef.h>
#include <stdint.h>
#include "warpmatch.h"

/* The largest matrix goracle_full builds: (m+1)(n+1) cells. 5,000 x 5,000
** fits (25 M cells, 100 MB). */
#define GORACLE_FULL_MAX_CELLS (32ull << 20)
/* The largest band goracle_banded keeps: (m+1) x (band+1) cells (2 bits each). */
#define GORACLE_BANDED_MAX_CELLS (1ull << 31)

/* Global unit-cost edit distance of q[0, m) and t[0, n) under aoracle_eq
** (only o->alphabet and o->case_insensitive are read; o may be NULL: plain
** bytes). q / t may be NULL when their length is 0. */
uint64_t goracle_distance(const uint8_t *q, size_t m, const uint8_t *t, size_t n,
                          const wm_align_opts_t *o);

/* Full matrix and canonical traceback. *d gets D[m][n]; returns the
** canonical CIGAR (malloc'd, "" for m = n = 0; the caller frees it). */
char *goracle_full(const uint8_t *q, size_t m, const uint8_t *t, size_t n, const wm_align_opts_t *o,
                   uint64_t *d);

/* The banded traceback with band B (B >= |m - n|, else no cell fits: returns
** 0, *d = UINT64_MAX, *cigar = NULL). Returns 1 when the answer is exact
** (the band's D[m][n] <= band): *d = the distance, *cigar = the canonical
** CIGAR (malloc'd). Returns 0 when the band's D[m][n] > band: *d = that
** value (an upper bound of the distance, > band), *cigar = NULL. */
int goracle_banded(const uint8_t *q, size_t m, const uint8_t *t, size_t n, const wm_align_opts_t *o,
                   uint64_t band, uint64_t *d, char **cigar);

/* The definition by search; only for m, n <= GORACLE_DEF_MAX. *d gets the
** distance; returns the canonical CIGAR (malloc'd). */
#define GORACLE_DEF_MAX 9
char *goracle_definition(const uint8_t *q, size_t m, const uint8_t *t, size_t n,
                         const wm_align_opts_t *o, uint64_t *d);

/* Replay a global CIGAR against q[0, m) and t[0, n): every operation is a
** decimal count >= 1 without leading zeros and one of '=', 'X', 'I', 'D';
** no two consecutive runs have the same operation (maximal runs); '=' only
** on eq symbols, 'X' only on unequal ones; exactly m query and n target
** symbols are consumed; #X + #I + #D == distance. The empty string replays
** only when m == n == 0. Returns 1 when it replays; otherwise 0 and a reason
** in why[0, why_len) (why may be NULL). cigar == NULL fails. counts (may be
** NULL) gets the symbols of '=', 'X', 'I', 'D' in that order. */
int goracle_cigar_replay(const char *cigar, const uint8_t *q, size_t m, const uint8_t *t, size_t n,
                         uint64_t distance, const wm_align_opts_t *o, uint64_t counts[4], char *why,
                         size_t why_len);

#endif /* WM_GORACLE_H */
