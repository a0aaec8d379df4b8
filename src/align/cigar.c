/*
** cigar.c -- the extended CIGAR of one optimal global alignment of the whole
** query with a target, in memory linear in m + n.
**
** A full traceback matrix of a 100 kb query against a 100 kb target would
** hold 10^10 cells, so we use Hirschberg's divide and conquer, split over
** target columns. For a block x[a, b) x y[c, e) and mid = (c + e) / 2, the
** bit-vector DP gives the last column of two global DPs: forward,
** F[i] = edit(x[a, a+i), y[c, mid)), and on the reversed strings,
** B[i] = edit(x[a+i, b), y[mid, e)). Any alignment crosses column mid at
** some row i, so the best one goes through the smallest F[i] + B[i] (the
** smallest such i, for a deterministic answer) and the two halves are
** aligned alone, each knowing its distance (F[i], B[i]). Blocks of at most
** WM_CIGAR_BLOCK_CELLS cells are solved by a plain DP with a traceback matrix
** of one byte a cell; a block one column wide is solved directly. Every op
** goes into one buffer of m + n bytes in target order, and is run-length
** encoded at the end.
**
** Speed. Both passes are Ukkonen-banded by the block's distance k (known
** below the top; at the top a guess that grows until the answer fits), so
** similar strings cost O(k * n / 64) word steps a level rather than
** O(m * n / 64), and they step side by side (two carry chains at once). The
** band changes no answer: the CIGAR is the one the unbanded split gives.
** Memory: two match-mask tables like aq->peq's, four words of Pv/Mv per
** query block, m + n op bytes and a few KB for the small blocks.
**
** Tie order (fixed, so equal inputs give equal CIGARs): the split row is the
** smallest i; the traceback, walking back from the block's bottom right,
** prefers the diagonal ('=' or 'X'), then 'I' (up), then 'D' (left); a
** one-column block matches the target symbol to the first equal query
** symbol, else puts an 'X' on the first query symbol.
*/
#include <stdlib.h>
#include <string.h>

#include "align/align.h"
#include "align/bv.h"

/* Cells of the largest block solved by the plain DP (its traceback bytes).
** Smaller blocks cost more bit-vector passes, larger ones more scalar cells:
** on a 100 kb query 2^10 .. 2^13 are equally fast, 2^20 twice as slow. */
#ifndef WM_CIGAR_BLOCK_CELLS
#define WM_CIGAR_BLOCK_CELLS (1u << 12)
#endif

enum { DIR_DIAG = 1, DIR_UP = 2, DIR_LEFT = 4 };

typedef struct {
    const wm_aq_t *aq;
    const uint8_t *x, *y;
    uint64_t *peq, *rpeq;          /* (n_codes + 1) rows of up to ceil(m / 64) words,
                                      for x[a, b) and x[a, b) reversed                */
    uint64_t *fpv, *fmv, *bpv, *bmv;
    uint8_t *dir;                  /* traceback bytes of one small block             */
    uint32_t *row0, *row1;         /* two DP rows of a small block                   */
    uint16_t *ycode;               /* a small block's target symbols                 */
    char *ops;                     /* one op per byte, target order                  */
    size_t n_ops;
} hb_t;

static void emit(hb_t *h, char op, uint64_t k) {
    memset(h->ops + h->n_ops, op, (size_t)k);
    h->n_ops += (size_t)k;
}

/* Sum of the vertical deltas at bit positions [p0, p1) of a column (bit p is
** D[p+1] - D[p]). */
static int64_t bv_range(const uint64_t *pv, const uint64_t *mv, size_t p0, size_t p1) {
    int64_t s = 0;
    while (p0 < p1) {
        size_t w = p0 / 64, lo = p0 % 64, hi = p1 - 64 * w < 64 ? p1 - 64 * w : 64;
        uint64_t mask = (hi == 64 ? ~0ull : (1ull << hi) - 1) & ~((1ull << lo) - 1);
        s += __builtin_popcountll(pv[w] & mask) - __builtin_popcountll(mv[w] & mask);
        p0 = 64 * w + hi;
    }
    return s;
}

static inline int vd(const uint64_t *pv, const uint64_t *mv, size_t r) {
    return wm_bv_vdelta(pv[r / 64], mv[r / 64], (unsigned)(r % 64));
}

/* Rows i - j may take in a block of L x N whose distance is at most k: a
** cell (i, j) of an alignment of cost <= k has |i - j| <= k and
** |(L - i) - (N - j)| <= k. The same band holds for the reversed strings. */
typedef struct { int64_t dlo, dhi; } band_t;

static band_t band_of(uint64_t L, uint64_t N, uint64_t k) {
    int64_t s = (int64_t)L - (int64_t)N, kk = (int64_t)k;
    band_t b = {s - kk > -kk ? s - kk : -kk, s + kk < kk ? s + kk : kk};
    return b;
}

static inline uint64_t band_row(int64_t j, int64_t d, uint64_t L) {
    int64_t r = j + d;
    return r < 0 ? 0 : (uint64_t)r > L ? L : (uint64_t)r;
}

static inline size_t blk(uint64_t row) { return row ? (size_t)((row - 1) / 64) : 0; }  /* block holding DP row */

/* One of the two passes of a split: its match masks, Pv/Mv, its first block
** and the value at that block's top row (DP row 64 * fb). */
typedef struct {
    const uint64_t *peq;
    uint64_t *pv, *mv;
    size_t fb;
    uint64_t top;
} lane_t;

/* The last columns of the two global DPs of a split of x[a, b) x y[c, e) at
** mid: forward, x against y[c, mid); backward, x reversed against y[mid, e)
** reversed. Both are Ukkonen-banded the same way: column j computes only the
** blocks that hold DP rows j + dlo .. j + dhi. Rows left above keep growing
** by one a column and rows first entered below start one more than the row
** above: both are costs of real alignments, so every value is an upper
** bound, and exact on cells of an alignment that stays in the band (all
** cells of any alignment of cost <= k, for the k the band was made from).
** The two passes step the same blocks side by side: two independent carry
** chains keep the core busier than one. */
static void bv_columns(hb_t *h, size_t L, uint64_t c, uint64_t mid, uint64_t e,
                       band_t bd, lane_t *f, lane_t *r) {
    const wm_aq_t *aq = h->aq;
    const uint8_t *y = h->y;
    size_t W = (L + 63) / 64;
    uint64_t nf = mid - c, nr = e - mid;             /* nr is nf or nf + 1 */
    size_t fb = blk(band_row(0, bd.dlo, L)), lb = blk(band_row(0, bd.dhi, L));
    f->top = r->top = 64 * (uint64_t)fb;             /* D[i][0] = i */
    for (size_t w = fb; w <= lb; w++) {
        f->pv[w] = r->pv[w] = ~0ull;
        f->mv[w] = r->mv[w] = 0;
    }
    for (uint64_t j = 1; j <= nr; j++) {
        size_t nlb = blk(band_row((int64_t)j, bd.dhi, L));
        size_t nfb = blk(band_row((int64_t)j, bd.dlo, L));
        for (; lb < nlb; lb++) {
            f->pv[lb + 1] = r->pv[lb + 1] = ~0ull;
            f->mv[lb + 1] = r->mv[lb + 1] = 0;
        }
        for (; fb < nfb; fb++) {
            if (j <= nf) f->top += (uint64_t)bv_range(f->pv, f->mv, 64 * fb, 64 * fb + 64);
            r->top += (uint64_t)bv_range(r->pv, r->mv, 64 * fb, 64 * fb + 64);
        }
        const uint64_t *eqr = r->peq + (size_t)aq->code[y[e - j]] * W;
        int hr = 1;                                  /* D[top][j] - D[top][j-1] */
        if (j <= nf) {
            const uint64_t *eqf = f->peq + (size_t)aq->code[y[c + j - 1]] * W;
            int hf = 1;
            for (size_t w = fb; w <= lb; w++) {
                hf = wm_bv_step(&f->pv[w], &f->mv[w], eqf[w], hf);
                hr = wm_bv_step(&r->pv[w], &r->mv[w], eqr[w], hr);
            }
            f->top++;
            f->fb = fb;
        } else {
            for (size_t w = fb; w <= lb; w++) hr = wm_bv_step(&r->pv[w], &r->mv[w], eqr[w], hr);
        }
        r->top++;
    }
    r->fb = fb;
}

/* A block of at most WM_CIGAR_BLOCK_CELLS cells, L >= 1 and N >= 1: full DP,
** then the traceback, whose ops come out backwards and are turned round. */
static void small_block(hb_t *h, uint64_t a, size_t L, uint64_t c, size_t N) {
    const wm_aq_t *aq = h->aq;
    const uint8_t *x = h->x + a, *y = h->y + c;
    uint32_t *prev = h->row0, *cur = h->row1;
    size_t stride = N + 1;
    for (size_t j = 0; j < N; j++) h->ycode[j] = aq->code[y[j]];
    for (size_t j = 0; j <= N; j++) prev[j] = (uint32_t)j;
    for (size_t i = 1; i <= L; i++) {
        unsigned xc = aq->code[x[i - 1]];
        /* a symbol that matches nothing never equals any ycode below n_codes,
        ** and must not equal the ycode n_codes either */
        unsigned xm = xc < aq->n_codes ? xc : 0xffffu + 1;
        uint8_t *d = h->dir + i * stride;
        cur[0] = (uint32_t)i;
        for (size_t j = 1; j <= N; j++) {
            uint32_t dg = prev[j - 1] + (h->ycode[j - 1] != xm);
            uint32_t up = prev[j] + 1, lf = cur[j - 1] + 1;
            uint32_t v = dg < up ? dg : up;
            v = v < lf ? v : lf;
            cur[j] = v;
            d[j] = (uint8_t)((dg == v ? DIR_DIAG : 0) | (up == v ? DIR_UP : 0) |
                             (lf == v ? DIR_LEFT : 0));
        }
        uint32_t *t = prev; prev = cur; cur = t;
    }
    size_t from = h->n_ops, i = L, j = N;
    while (i > 0 || j > 0) {
        uint8_t b = (i > 0 && j > 0) ? h->dir[i * stride + j] : (i > 0 ? DIR_UP : DIR_LEFT);
        if (b & DIR_DIAG) {
            h->ops[h->n_ops++] = wm_aq_eq(aq, x[i - 1], y[j - 1]) ? '=' : 'X';
            i--; j--;
        } else if (b & DIR_UP) {
            h->ops[h->n_ops++] = 'I';
            i--;
        } else {
            h->ops[h->n_ops++] = 'D';
            j--;
        }
    }
    for (size_t p = from, q = h->n_ops - 1; p < q; p++, q--) {
        char t = h->ops[p]; h->ops[p] = h->ops[q]; h->ops[q] = t;
    }
}

/* The split of x[a, b) x y[c, e) at column mid within band k (the match
** masks of x[a, b) already in h->peq and h->rpeq): the smallest
** row i of the band minimising F[i] + B[i], with F[i] and B[i] in *fl, *br.
** Returns that sum: exact when it is <= k, else an upper bound of the
** distance above k (every banded value is the cost of a real alignment). */
static uint64_t split_at(hb_t *h, uint64_t a, uint64_t b, uint64_t c, uint64_t mid, uint64_t e,
                         uint64_t k, uint64_t *row, uint64_t *fl, uint64_t *br) {
    uint64_t L = b - a, N = e - c;
    band_t bd = band_of(L, N, k);
    lane_t f = {h->peq, h->fpv, h->fmv, 0, 0}, r = {h->rpeq, h->bpv, h->bmv, 0, 0};
    bv_columns(h, (size_t)L, c, mid, e, bd, &f, &r);
    /* rows of the band at column mid; the reversed pass has the same band,
    ** at reversed row L - i. G[r] = edit(x[b-r, b), y[mid, e)), B[i] = G[L - i] */
    uint64_t lo = band_row((int64_t)(mid - c), bd.dlo, L);
    uint64_t hi = band_row((int64_t)(mid - c), bd.dhi, L);
    int64_t F = (int64_t)f.top + bv_range(h->fpv, h->fmv, 64 * f.fb, (size_t)lo);
    int64_t G = (int64_t)r.top + bv_range(h->bpv, h->bmv, 64 * r.fb, (size_t)(L - lo));
    int64_t best = F + G, bf = F, bg = G;
    uint64_t split = lo;
    for (uint64_t i = lo + 1; i <= hi; i++) {
        F += vd(h->fpv, h->fmv, (size_t)(i - 1));
        G -= vd(h->bpv, h->bmv, (size_t)(L - i));
        if (F + G < best) { best = F + G; bf = F; bg = G; split = i; }
    }
    *row = split;
    *fl = (uint64_t)bf;
    *br = (uint64_t)bg;
    return (uint64_t)best;
}

/* Aligns x[a, b) with y[c, e), whose distance is k (UINT64_MAX: unknown). */
static void solve(hb_t *h, uint64_t a, uint64_t b, uint64_t c, uint64_t e, uint64_t k) {
    const wm_aq_t *aq = h->aq;
    uint64_t L = b - a, N = e - c;
    if (L == 0) { emit(h, 'D', N); return; }
    if (N == 0) { emit(h, 'I', L); return; }
    if (N + 1 <= WM_CIGAR_BLOCK_CELLS / (L + 1)) { small_block(h, a, (size_t)L, c, (size_t)N); return; }
    if (N == 1) {
        /* one target symbol against many query symbols: match it to the
        ** first equal one (distance L - 1), else substitute the first */
        uint64_t i = 0;
        while (i < L && !wm_aq_eq(aq, h->x[a + i], h->y[c])) i++;
        if (i < L) { emit(h, 'I', i); emit(h, '=', 1); emit(h, 'I', L - 1 - i); }
        else { emit(h, 'X', 1); emit(h, 'I', L - 1); }
        return;
    }
    uint64_t mid = c + N / 2, split, kl, kr;
    wm_aq_peq_fill(aq, h->x + a, (size_t)L, 0, h->peq);
    wm_aq_peq_fill(aq, h->x + a, (size_t)L, 1, h->rpeq);
    if (k != UINT64_MAX) {
        split_at(h, a, b, c, mid, e, k, &split, &kl, &kr);
    } else {
        /* unknown distance (the top block): widen the band until the best
        ** sum fits in it; a sum above the band is a real alignment's cost,
        ** so a band that wide is the last one tried. The distance is at
        ** least |L - N| and at most L + N, where the band is the whole block. */
        uint64_t kk = (L > N ? L - N : N - L) + 64;
        for (;;) {
            if (kk > L + N) kk = L + N;
            uint64_t got = split_at(h, a, b, c, mid, e, kk, &split, &kl, &kr);
            if (got <= kk) break;
            kk = got <= 4 * kk ? got : 4 * kk;
        }
    }
    solve(h, a, a + split, c, mid, kl);
    solve(h, a + split, b, mid, e, kr);
}

char *wm_align_cigar(const wm_aq_t *aq, const uint8_t *y, uint64_t n, uint64_t *d_out) {
    size_t m = aq->m, W = aq->n_words;
    hb_t h = {0};
    h.aq = aq;
    h.x = aq->q;
    h.y = y;
    /* the largest small block: its cells, and its width */
    uint64_t cells = WM_CIGAR_BLOCK_CELLS;
    if ((uint64_t)m + 1 <= cells && n + 1 <= cells / ((uint64_t)m + 1)) cells = ((uint64_t)m + 1) * (n + 1);
    uint64_t width = n < WM_CIGAR_BLOCK_CELLS ? n + 1 : WM_CIGAR_BLOCK_CELLS;
    size_t rows = (size_t)aq->n_codes + 1;
    h.peq = malloc((2 * rows + 4) * (W ? W : 1) * sizeof *h.peq);
    h.dir = malloc((size_t)cells);
    h.row0 = malloc(2 * (size_t)width * sizeof *h.row0);
    h.ycode = malloc((size_t)width * sizeof *h.ycode);
    h.ops = malloc((size_t)(m + n) + 1);
    char *out = NULL;
    if (h.peq && h.dir && h.row0 && h.ycode && h.ops) {
        h.rpeq = h.peq + rows * W;
        h.fpv = h.rpeq + rows * W;
        h.fmv = h.fpv + W;
        h.bpv = h.fmv + W;
        h.bmv = h.bpv + W;
        h.row1 = h.row0 + width;
        solve(&h, 0, m, 0, n, UINT64_MAX);

        /* run-length encode, merging equal neighbours */
        uint64_t d = 0;
        size_t len = 1;
        for (size_t p = 0, q; p < h.n_ops; p = q) {
            for (q = p + 1; q < h.n_ops && h.ops[q] == h.ops[p]; q++) {}
            if (h.ops[p] != '=') d += q - p;
            len += 1;
            for (size_t r = q - p; r; r /= 10) len++;
        }
        out = malloc(len);
        if (out) {
            char *o = out;
            for (size_t p = 0, q; p < h.n_ops; p = q) {
                for (q = p + 1; q < h.n_ops && h.ops[q] == h.ops[p]; q++) {}
                char num[24];
                int k = 0;
                for (size_t r = q - p; r; r /= 10) num[k++] = (char)('0' + r % 10);
                while (k) *o++ = num[--k];
                *o++ = h.ops[p];
            }
            *o = '\0';
            if (d_out) *d_out = d;
        }
    }
    free(h.peq);
    free(h.dir);
    free(h.row0);
    free(h.ycode);
    free(h.ops);
    return out;
}
