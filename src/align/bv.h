/*
** bv.h -- one step of Myers' bit-vector edit-distance DP (Myers 1999, in the
** block form of Hyyro 2003) on a 64-row block of one column.
**
** A block keeps the vertical deltas of its rows as two bit vectors: Pv (the
** cell is one more than the cell above) and Mv (one less). Given the match
** mask Eq of the next target symbol and hin, the horizontal delta entering
** the block from above (-1, 0 or +1), the step makes the block's next column
** and returns hout, the horizontal delta leaving its bottom row. The blocks of
** a column are stepped top to bottom, hout of one feeding hin of the next:
** no carry crosses words apart from hin (a negative hin is the carry-in of
** the addition, entered as a match in bit 0).
*/
#ifndef WM_ALIGN_BV_H
#define WM_ALIGN_BV_H

#include <stdint.h>

/* One step; returns the horizontal delta leaving row `row` of the block
** (63 for the block's bottom). Rows above `row` are computed but never feed
** rows below them: carries and shifts move towards higher bits only, so a
** query that ends inside a block can leave its top rows as padding. The
** block's horizontal deltas go to *ph and *mh: bit r is set when the cell at
** the block's row r + 1 is one more (*ph) or one less (*mh) than the cell to
** its left. */
static inline int wm_bv_step_h(uint64_t *pv, uint64_t *mv, uint64_t eq, int hin, unsigned row,
                               uint64_t *ph, uint64_t *mh) {
    uint64_t Pv = *pv, Mv = *mv;
    uint64_t neg = (uint64_t)(hin < 0), pos = (uint64_t)(hin > 0);
    uint64_t Xv = eq | Mv;
    uint64_t Xh = (((eq | neg) & Pv) + Pv) ^ Pv;
    Xh |= eq | neg;
    uint64_t Ph = Mv | ~(Xh | Pv);
    uint64_t Mh = Pv & Xh;
    *ph = Ph;
    *mh = Mh;
    int hout = (int)((Ph >> row) & 1) - (int)((Mh >> row) & 1);
    Ph = (Ph << 1) | pos;
    Mh = (Mh << 1) | neg;
    *pv = Mh | ~(Xv | Ph);
    *mv = Ph & Xv;
    return hout;
}

/* The step alone (the horizontal deltas left unsaid). */
static inline int wm_bv_step_row(uint64_t *pv, uint64_t *mv, uint64_t eq, int hin, unsigned row) {
    uint64_t ph, mh;
    return wm_bv_step_h(pv, mv, eq, hin, row, &ph, &mh);
}

static inline int wm_bv_step(uint64_t *pv, uint64_t *mv, uint64_t eq, int hin) {
    return wm_bv_step_row(pv, mv, eq, hin, 63);
}

/* The vertical delta at row r of a block: +1, 0 or -1. Summing them from the
** top gives a column's scores. */
static inline int wm_bv_vdelta(uint64_t pv, uint64_t mv, unsigned r) {
    return (int)((pv >> r) & 1) - (int)((mv >> r) & 1);
}

#endif
