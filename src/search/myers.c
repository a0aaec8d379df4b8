/*
** myers.c -- search within k edits on the CPU with Myers' bit-vector DP
** (Hyyro's formulation). Column j of the DP (rows = pattern positions) is
** held as vertical differences Pv/Mv (+1/-1), 64 rows to a word; the bottom
** row's value, tracked as a running score, is the smallest distance of the
** pattern to a substring ending at j. For m > 64 the words ("blocks") are
** banded as Ukkonen and Myers do: only blocks that can hold a value <= k are
** computed; on most texts that is the first block or two, whatever m is.
*/
#include <stdlib.h>

#include "core/internal.h"

/* One column step of one block. hin is the horizontal difference entering the
** block's top row; returns the one leaving its row `bottom`. */
static inline int advance_block(uint64_t *pv, uint64_t *mv, uint64_t Eq, int hin, uint64_t bottom) {
    uint64_t Pv = *pv, Mv = *mv;
    uint64_t Xv = Eq | Mv;
    if (hin < 0) Eq |= 1;
    uint64_t Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq;
    uint64_t Ph = Mv | ~(Xh | Pv);
    uint64_t Mh = Pv & Xh;
    int hout = (Ph & bottom) ? 1 : (Mh & bottom) ? -1 : 0;
    Ph <<= 1;
    Mh <<= 1;
    if (hin < 0) Mh |= 1;
    else if (hin > 0) Ph |= 1;
    *pv = Mh | ~(Xv | Ph);
    *mv = Ph & Xv;
    return hout;
}

static int scan_one_word(const wm_db_t *db, int strand, const uint8_t *text,
                         uint64_t scan_from, uint64_t own_from, uint64_t to, wm_hitvec_t *out) {
    const uint64_t *peq = db->strand[strand].peq;
    const uint64_t bottom = 1ull << (db->m - 1);
    const int k = (int)db->k;
    uint64_t Pv = ~0ull, Mv = 0;
    int score = (int)db->m;
    for (uint64_t p = scan_from; p < to; p++) {
        uint64_t Eq = peq[text[p]];
        uint64_t Xv = Eq | Mv;
        uint64_t Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq;
        uint64_t Ph = Mv | ~(Xh | Pv);
        uint64_t Mh = Pv & Xh;
        score += (int)((Ph & bottom) != 0) - (int)((Mh & bottom) != 0);
        Ph <<= 1;
        Mh <<= 1;
        Pv = Mh | ~(Xv | Ph);
        Mv = Ph & Xv;
        if (score <= k && p + 1 > own_from)
            if (wm_hitvec_push(out, p + 1, (uint32_t)score, (uint32_t)strand)) return -1;
    }
    return 0;
}

static int scan_blocks(const wm_db_t *db, int strand, const uint8_t *text,
                       uint64_t scan_from, uint64_t own_from, uint64_t to, wm_hitvec_t *out) {
    const uint64_t *peq = db->strand[strand].peq;
    const size_t nb = db->n_words, m = db->m;
    const int k = (int)db->k;
    uint64_t *Pv = malloc(nb * sizeof *Pv), *Mv = malloc(nb * sizeof *Mv);
    int *score = malloc(nb * sizeof *score);
    if (!Pv || !Mv || !score) { free(Pv); free(Mv); free(score); return -1; }
    /* rows in block b and the bit of its bottom row */
#define ROWS(b) ((b) + 1 < nb ? 64 : (int)(m - 64 * (nb - 1)))
#define BOTTOM(b) (1ull << (ROWS(b) - 1))
    /* Column 0: D[i][0] = i, so rows 1..k are within k: those blocks are active. */
    size_t y = (size_t)k / 64;
    if (y >= nb) y = nb - 1;
    for (size_t b = 0; b <= y; b++) {
        Pv[b] = ~0ull; Mv[b] = 0;
        score[b] = (int)(b * 64) + ROWS(b);
    }
    int rc = 0;
    for (uint64_t p = scan_from; p < to && rc == 0; p++) {
        const uint64_t *eq = peq + (size_t)text[p] * nb;
        int h = 0;
        for (size_t b = 0; b <= y; b++) {
            h = advance_block(&Pv[b], &Mv[b], eq[b], h, BOTTOM(b));
            score[b] += h;
        }
        /* A block below the band holds only values > k; it must join once the
        ** row above it is within k in this column or the last one, since a
        ** path into it can only come through that row. */
        while (y + 1 < nb && (score[y] <= k || score[y] - h <= k)) {
            int above_prev = score[y] - h;     /* D[top-1][j-1] */
            y++;
            Pv[y] = ~0ull; Mv[y] = 0;          /* D[i][j-1] = above_prev + distance down: an upper bound */
            score[y] = above_prev + ROWS(y);
            h = advance_block(&Pv[y], &Mv[y], eq[y], h, BOTTOM(y));
            score[y] += h;
        }
        /* The smallest value in a block is at least its bottom minus its height - 1. */
        while (y > 0 && score[y] >= k + ROWS(y)) y--;
        if (y == nb - 1 && score[y] <= k && p + 1 > own_from)
            rc = wm_hitvec_push(out, p + 1, (uint32_t)score[y], (uint32_t)strand);
    }
#undef ROWS
#undef BOTTOM
    free(Pv); free(Mv); free(score);
    return rc;
}

int wm_myers_scan(const wm_db_t *db, int strand, const uint8_t *text,
                  uint64_t scan_from, uint64_t own_from, uint64_t to, wm_hitvec_t *out) {
    if (db->m <= 64) return scan_one_word(db, strand, text, scan_from, own_from, to, out);
    return scan_blocks(db, strand, text, scan_from, own_from, to, out);
}
