/*
** fr.h -- the Four-Russians method of paper 001 (Kim, Jeong, Kang, Sim):
** the global edit-distance table cut into t-blocks whose borders are kept as
** differences in {-1, 0, 1}, and a lookup table of every block.
**
** A t-block covers query rows (r, r + t] and target columns (c, c + t] of
** D (D[i][j] = edit(x[0, i), y[0, j)), D[i][0] = i, D[0][j] = j), r and c
** multiples of t. Its inputs are (the paper's A, B, C, E):
**   vin  the vertical differences down its left column,
**        v[i] = D[r+i+1][c] - D[r+i][c], i = 0 .. t-1;
**   hin  the horizontal differences along its top row,
**        h[j] = D[r][c+j+1] - D[r][c+j], j = 0 .. t-1;
**   the query symbols x[r .. r+t-1] and the target symbols y[c .. c+t-1].
** Its outputs are vout (the right column's vertical differences,
** D[r+i+1][c+t] - D[r+i][c+t]) and hout (the bottom row's horizontal
** differences, D[r+t][c+j+1] - D[r+t][c+j]). The corner values are not
** needed: D[m][n] = m + the sum of the last block row's hout (or n + the sum
** of the last block column's vout).
**
** Encoding. A difference vector d[0 .. t-1] is the base-3 number
** sum (d[i] + 1) * 3^i (d[0], the top / leftmost, least significant), below
** 3^t <= 81, so one byte.
**
** Keys. Two kinds:
**   strings (the paper's; alphabet DNA): the t query symbols and t target
**     symbols as 2-bit codes A=0 C=1 G=2 T=3 (wm_aq_t's code[]),
**     key = qk * 4^t + yk, qk = sum code(x[r+i]) * 4^i, yk likewise. A block
**     with any other symbol (code >= 4: N, IUPAC, ...) is not in the table
**     and is computed directly (wm_fr_block_direct).
**   match matrix (any alphabet): bit i * t + j of the key is set when
**     x[r+i] and y[c+j] are equal (wm_aq_eq).
** Entry index = (key * 3^t + vin) * 3^t + hin; entry = vout | hout << 8.
** Sizes: strings 4^(2t) * 9^t, matrix 2^(t*t) * 9^t entries of 2 bytes:
** t = 1: 144 / 18; t = 2: 20,736 / 1,296; t = 3: 2,985,984 / 373,248;
** t = 4: 429,981,696 (860 MB) for both.
**
** Ragged edges: when t does not divide m (n), the last block row (column)
** has m % t rows (n % t columns); such blocks are computed directly, as are
** the DNA blocks the string key cannot name. Their vin / hin / vout / hout
** use the same encoding: only the first `rows` (`cols`) digits are
** meaningful; the others are ignored on input and written as +1 (digit 2)
** up to max(rows, cols) digits (t for every block but the bottom-right
** corner, whose outputs nothing reads).
*/
#ifndef WM_ALIGN_FR_H
#define WM_ALIGN_FR_H

#include <stdint.h>
#include "align/align.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wm_fr_table {
    unsigned t;
    int strings;      /* key kind: 1 strings (DNA), 0 match matrix */
    uint32_t pow3;    /* 3^t */
    uint64_t n_keys;  /* 4^(2t) or 2^(t*t) */
    uint64_t entries; /* n_keys * pow3 * pow3 */
    uint16_t *out;    /* entries: vout | hout << 8 */
    double build_seconds;
    int build_threads;
    void *dev;       /* the CUDA backend's copy (fr_cuda.cu), or NULL */
    int dev_ordinal; /* the GPU dev lives on */
} wm_fr_table_t;

/* The context's table for (t, strings), built on its pool on first use and
** kept until wm_context_free (at most one per (t, kind)). WM_NOMEM (with a
** message naming the size) when it cannot be allocated. */
struct wm_context;
wm_status wm_fr_table_get(struct wm_context *cx, unsigned t, int strings,
                          const wm_fr_table_t **out);
/* The tables of an align cache, their device copies through gpu (NULL: none). */
void wm_fr_cache_free(wm_align_cache_t *c, const wm_align_gpu_t *gpu);

/* The key kind and t that opts ask for (fr_t 0 -> 3). */
unsigned wm_fr_pick_t(const wm_align_opts_t *o);
int wm_fr_pick_strings(const wm_aq_t *aq); /* 1 for the DNA alphabet */

/* One block (rows <= t query rows, cols <= t target columns) by the plain DP
** from its borders: xs / ys its symbols, eq(i, j) taken from aq. Writes the
** encoded vout and hout. The table build and the ragged / unnamed blocks both
** use it, so the table is exactly this function tabulated. */
void wm_fr_block_direct(const wm_aq_t *aq, const uint8_t *xs, unsigned rows, const uint8_t *ys,
                        unsigned cols, unsigned vin, unsigned hin, unsigned *vout, unsigned *hout);

/* The global distance D[m][n] by the Four-Russians sweep on the context's
** threads (block rows in stripes, each stripe following the one above it
** column by column: the blocks of an anti-diagonal run at the same time).
** limit >= 0: may stop as soon as every cell of a finished block row is
** above limit, and then *d is some value > limit. */
wm_status wm_global_fr(struct wm_context *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                       const wm_fr_table_t *tab, int64_t limit, uint64_t *d);

#ifdef __cplusplus
}
#endif
#endif
