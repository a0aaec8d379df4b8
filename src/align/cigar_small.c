/*
** cigar_small.c -- a short pair's distance and canonical CIGAR (reads,
** primers, candidates from a mapper) in one pass.
**
** traceback.c serves any length in bounded memory: a distance pass, then
** segments recomputed from checkpoints over a pruned band, then the walk.
** For a query of at most 4 words (256 symbols) against a target of at most
** WM_SMALL_CIGAR_MAX_N symbols, every column's deltas fit in at most 512
** KiB (14 KiB for 150 x 150), so one unbanded pass (as global.c's
** full_small) keeps them all: each block's vertical deltas after the step
** (Pv, Mv) and its horizontal deltas (Ph, Mh, bv.h's wm_bv_step_h). The
** walk then reads every neighbour's value from the current cell's in O(1):
**   up   D[i-1][j]   = D[i][j] - v(i, j)
**   left D[i][j-1]   = D[i][j] - h(i, j)
**   diag D[i-1][j-1] = D[i][j-1] - v(i, j-1)     (column 0: D[i][0] = i)
** where v and h are the vertical and horizontal deltas at row i of column j.
** It takes the neighbours in traceback.c's order (a match; else diagonal,
** up, left by their values), so the CIGAR is byte for byte that file's and
** the GPU's. On 150 bp reads the CIGAR took 3.5x the distance through the
** general path and takes 1.5x here (BENCHMARKS.md 28).
*/
#include <stdlib.h>

#include "align/align.h"
#include "align/bv.h"

/* Words kept a block and a column: Pv, Mv, Ph, Mh. */
#define KEPT 4

/* Bit r of word w of column j (1-based) in the kept deltas: hist holds n
** columns of W blocks of KEPT words. */
static inline int bit_at(const uint64_t *hist, size_t W, uint64_t j, uint64_t r, int which) {
    const uint64_t *col = hist + (size_t)(j - 1) * W * KEPT + (size_t)(r / 64) * KEPT;
    return (int)((col[which] >> (r % 64)) & 1);
}

/* The vertical delta at row i (1-based) of column j: D[i][j] - D[i-1][j]. */
static inline int vdelta(const uint64_t *hist, size_t W, uint64_t i, uint64_t j) {
    if (j == 0) return 1; /* D[i][0] = i */
    return bit_at(hist, W, j, i - 1, 0) - bit_at(hist, W, j, i - 1, 1);
}

/* The horizontal delta at row i of column j >= 1: D[i][j] - D[i][j-1]. */
static inline int hdelta(const uint64_t *hist, size_t W, uint64_t i, uint64_t j) {
    return bit_at(hist, W, j, i - 1, 2) - bit_at(hist, W, j, i - 1, 3);
}

/* The whole DP, every column's deltas into hist; returns D[m][n]. The top
** row is not free (global): each column enters its first block with +1. */
static inline uint64_t kept_pass(const wm_aq_t *aq, const uint8_t *y, uint64_t n, const size_t W,
                                 uint64_t *hist) {
    uint64_t pv[4] = { ~0ull, ~0ull, ~0ull, ~0ull }, mv[4] = { 0, 0, 0, 0 };
    uint64_t score = aq->m;
    unsigned last = (unsigned)((aq->m - 1) % 64);
    for (uint64_t j = 0; j < n; j++) {
        const uint64_t *eq = aq->peq + (size_t)aq->code[y[j]] * W;
        uint64_t *col = hist + (size_t)j * W * KEPT;
        int h = 1;
        for (size_t w = 0; w < W; w++) {
            h = wm_bv_step_h(&pv[w], &mv[w], eq[w], h, w + 1 == W ? last : 63, &col[w * KEPT + 2],
                             &col[w * KEPT + 3]);
            col[w * KEPT] = pv[w];
            col[w * KEPT + 1] = mv[w];
        }
        score += (uint64_t)(int64_t)h;
    }
    return score;
}

static uint64_t kept_pass_w(const wm_aq_t *aq, const uint8_t *y, uint64_t n, uint64_t *hist) {
    switch (aq->n_words) { /* a constant W: the loop over blocks unrolls */
    case 1: return kept_pass(aq, y, n, 1, hist);
    case 2: return kept_pass(aq, y, n, 2, hist);
    case 3: return kept_pass(aq, y, n, 3, hist);
    default: return kept_pass(aq, y, n, 4, hist);
    }
}

wm_status wm_global_small_cigar(const wm_aq_t *aq, const uint8_t *y, uint64_t n, uint64_t *d,
                                char **cigar) {
    uint64_t m = aq->m;
    size_t W = aq->n_words;
    *cigar = NULL;
    uint64_t *hist = malloc((size_t)n * W * KEPT * sizeof *hist);
    char *ops = malloc((size_t)(m + n) + 1);
    if (!hist || !ops) {
        free(hist);
        free(ops);
        return WM_NOMEM;
    }
    uint64_t cur = *d = kept_pass_w(aq, y, n, hist);
    size_t n_ops = 0;
    uint64_t i = m, j = n;
    while (i > 0 && j > 0) {
        if (wm_aq_eq(aq, aq->q[i - 1], y[j - 1])) { /* a match is always optimal */
            ops[n_ops++] = '=';
            i--, j--;
            continue;
        }
        uint64_t left = cur - (uint64_t)(int64_t)hdelta(hist, W, i, j);
        uint64_t diag = left - (uint64_t)(int64_t)vdelta(hist, W, i, j - 1);
        uint64_t up = cur - (uint64_t)(int64_t)vdelta(hist, W, i, j);
        ops[n_ops++] = wm_tb_step(&cur, &i, &j, diag, up);
    }
    *cigar = wm_tb_finish(ops, n_ops, i, j);
    free(hist);
    free(ops);
    return *cigar ? WM_OK : WM_NOMEM;
}
