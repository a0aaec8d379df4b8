/*
** band.h -- the rows a bit-vector column bounded by k works on: its 64-row
** blocks and which of them may hold a cell of an alignment of cost <= k.
**
** Two passes prune by the same rules: global.c's banded() (the distance)
** and traceback.c's sweeps (a CIGAR's checkpoints and segments). Both keep
** every cell of value <= k exact (such a cell's best predecessor passes the
** same tests), and the walk reads the values the sweeps made, so the rules
** live here once. A column j holds blocks fb .. lb; sc is a block's value
** at its bottom row.
*/
#ifndef WM_ALIGN_BAND_H
#define WM_ALIGN_BAND_H

#include <stddef.h>
#include <stdint.h>

/* The block holding DP row `row` (row 0, the top, goes with block 0). */
static inline size_t wm_blk(uint64_t row) { return row ? (size_t)((row - 1) / 64) : 0; }

/* Row j + d clamped to 0 .. m: where diagonal d meets column j. */
static inline uint64_t wm_band_row(int64_t j, int64_t d, uint64_t m) {
    int64_t r = j + d;
    return r < 0 ? 0 : (uint64_t)r > m ? m : (uint64_t)r;
}

/* Whether the block below lb joins column j: while a cell in it could
** still end an alignment within k. Its rows r > b = 64 (lb + 1) have D >=
** best - (r - b), best being lb's bottom now or a column ago (a cell below
** is reached through row b), and at least (n - j) - (m - r) left to pay. */
static inline int wm_band_joins(uint64_t best, size_t lb, uint64_t m, uint64_t n, uint64_t j,
                                uint64_t k) {
    int64_t need = (int64_t)best + 64 * (int64_t)(lb + 1) + ((int64_t)n - (int64_t)j) - (int64_t)m;
    return need <= (int64_t)k + 1;
}

/* Whether the last block lb (the first block fb) of column j holds no cell
** of an alignment within k. A cell r of block w has D >= sc - (64 (w + 1) -
** r) and, to finish, at least |(m - r) - (n - j)| more: for the last block
** that is >= sc + 64 lb - 62 + (n - j) - m, for the first >= sc - 64 (fb +
** 1) + (m - n) + j; and every cell is >= sc - 63. */
static inline int wm_band_drops_last(uint64_t sc, size_t lb, uint64_t m, uint64_t n, uint64_t j,
                                     uint64_t k) {
    return sc >= k + 64 ||
           (int64_t)sc + 64 * (int64_t)lb - 62 + ((int64_t)n - (int64_t)j) - (int64_t)m >
               (int64_t)k;
}
static inline int wm_band_drops_first(uint64_t sc, size_t fb, uint64_t m, uint64_t n, uint64_t j,
                                      uint64_t k) {
    return sc >= k + 64 ||
           (int64_t)sc - 64 * (int64_t)(fb + 1) + (int64_t)m - ((int64_t)n - (int64_t)j) >
               (int64_t)k;
}

#endif
