/*
** traceback.c -- the CIGAR of the canonical optimal global alignment of the
** whole query with a target, in memory that does not grow with m * n.
**
** Canonical: the traceback from (m, n) that, at every cell, takes the first
** of diagonal ('=' / 'X'), up ('I'), left ('D') whose cell value plus its
** cost equals the current cell's. The rule depends only on D, so any kernel
** that knows D can follow it: the GPU pair kernel (pairs_cuda.cu) does, and
** CPU and GPU print the same bytes.
**
** How. D comes from Myers' bit-vector columns, Ukkonen-banded by the distance
** d (every cell of an alignment of cost <= d lies in the band, and cells the
** band leaves out are never on the path, see below). A full history of the
** band's columns would be d/32 words a column (6 GB for 1 Mb at 1%), so the
** forward pass keeps only a checkpoint (the band's Pv/Mv) every S columns;
** the backward walk then recomputes segments of S columns from their
** checkpoints, keeping Pv, Mv (and every eighth word's bottom score) for
** every column, and walks through them. Segments are independent once their
** checkpoints exist, so a wave of them is recomputed on the pool's threads
** at once while the walk itself (cheap: one step a cell of the path) stays
** on one thread. Cost: two forward passes (the first can come from the GPU,
** which writes the same checkpoints: global_cuda.cu); memory: checkpoints +
** one segment a thread, 8 to 32 MiB each. A target that fits one segment
** needs no checkpoint pass.
**
** The CPU's sweeps (the forward pass and the recomputes) also prune the
** band by d as global.c's banded() does, dropping the blocks none of whose
** cells can be on an alignment of cost <= d: for similar sequences that
** leaves about a quarter of the Ukkonen band (the cells near the diagonal
** while little of d is spent), which is most of the time and of the bytes a
** recompute writes. Pruned values are upper bounds and exact on those
** alignments too, so the walk below sees the same tests pass. Checkpoints
** keep the plan's layout: the CPU's fills the blocks it pruned with upper
** bounds (ckpt_put), the GPU's holds the Ukkonen band's values.
**
** Why the band changes nothing. Banded values are upper bounds (cells left
** above the band grow by one a column, cells first entered below start one
** more than the cell above: both costs of real paths) and exact on every
** cell of an alignment of cost <= d. The walk starts on an exact cell; a
** neighbour passes the test "value + cost == current" with its banded value
** only if its true value passes too (true <= banded, and true + cost >=
** current always), and a neighbour whose true value passes lies on an
** optimal alignment, so in the band and exact. Cells outside the band's
** words read as "infinite" and never pass.
*/
#include <stdlib.h>
#include <string.h>

#include "align/align.h"
#include "align/band.h"
#include "align/bv.h"
#include "core/internal.h"

/* Bytes of one segment's history, all threads together at most 256 MiB; a
** segment has at least 64 columns. The plan counts 24 bytes a word of the
** Ukkonen band, a bound: a recompute writes 17 (Pv, Mv, an eighth of a
** score) for the words that pruning keeps. */
#define SEGMENT_BYTES_MAX ((uint64_t)32 << 20)
#define SEGMENTS_BYTES_ALL ((uint64_t)256 << 20)

#define INF_SCORE (UINT64_MAX / 4)

/* What a sweep over the band needs: the query, the target, the plan (its
** Ukkonen band) and the distance, which prunes the band as global.c's
** banded() does. */
typedef struct {
    const wm_aq_t *aq;
    const uint8_t *y;
    const wm_tb_plan_t *p;
    uint64_t d;
    size_t cap; /* the most words a column takes: col_cap() */
} sweep_t;

/* A pruned column lies inside the plan's band, but for one block above it:
** after a column whose band ended one block above the plan's next (its
** first block then stays, carrying the values down). */
static inline size_t col_cap(const wm_tb_plan_t *p) { return p->band_words + 1; }

/* One column of the pruned band: blocks fb .. lb of the query, word w at
** index w - fb of pv / mv / sc (sc: the value at the word's last row); top
** is the value at row 64 fb. */
typedef struct {
    size_t fb, lb;
    uint64_t top;
    uint64_t *pv, *mv, *sc;
} bandcol_t;

/* Column 0 (D[i][0] = i) into c's arrays. */
static void band_start(const sweep_t *s, bandcol_t *c) {
    c->fb = wm_tb_fb(s->p, 0);
    c->lb = wm_tb_lb(s->p, 0);
    c->top = 64 * (uint64_t)c->fb;
    for (size_t w = c->fb; w <= c->lb; w++) {
        c->pv[w - c->fb] = ~0ull;
        c->mv[w - c->fb] = 0;
        c->sc[w - c->fb] = 64 * (uint64_t)(w + 1);
    }
}

/* Column j from column j - 1 (prev), written from next's arrays on (at most
** s->cap words). The band is pruned as banded() prunes it for k = d, so its values
** are upper bounds, exact on every cell of an alignment of cost <= d (see
** global.c), and the cells it leaves out are never on one: to the walk they
** read as infinite, like the cells outside the plan's band. A block dropped
** at the top moves next's arrays on by a word. Each word's bottom score comes
** from its carry out (no popcounts), and the step reads the previous column
** where it was stored, so a segment's history is written once. */
static void band_step(const sweep_t *s, const bandcol_t *prev, bandcol_t *next, uint64_t j) {
    const wm_tb_plan_t *p = s->p;
    size_t ufb = wm_tb_fb(p, j), ulb = wm_tb_lb(p, j);
    size_t fb = prev->fb, lb = prev->lb;
    uint64_t top = prev->top;
    while (fb < ufb && fb < lb) top = prev->sc[fb++ - prev->fb];
    if (lb > ulb && ulb >= fb) lb = ulb;
    const uint64_t *eq = s->aq->peq + (size_t)s->aq->code[s->y[j - 1]] * s->aq->n_words;
    const uint64_t *ppv = prev->pv + (fb - prev->fb), *pmv = prev->mv + (fb - prev->fb),
                   *psc = prev->sc + (fb - prev->fb);
    uint64_t *npv = next->pv, *nmv = next->mv, *nsc = next->sc;
    int h = 1; /* rows above fb grow by one */
    for (size_t w = fb, x = 0; w <= lb; w++, x++) {
        uint64_t pv = ppv[x], mv = pmv[x];
        h = wm_bv_step(&pv, &mv, eq[w], h);
        npv[x] = pv;
        nmv[x] = mv;
        nsc[x] = psc[x] + (uint64_t)(int64_t)h;
    }
    /* blocks below join as in banded() (band.h), entering with their
    ** previous column one more a row than the row above */
    uint64_t m = p->m, n = p->n, k = s->d;
    while (lb < ulb && lb + 1 - fb < s->cap) { /* the cap: memory, never met for the true d */
        uint64_t now = nsc[lb - fb], before = now - (uint64_t)(int64_t)h;
        uint64_t best = now < before ? now : before;
        if (!wm_band_joins(best, lb, m, n, j, k)) break;
        lb++;
        uint64_t pv = ~0ull, mv = 0;
        h = wm_bv_step(&pv, &mv, eq[lb], h);
        npv[lb - fb] = pv;
        nmv[lb - fb] = mv;
        nsc[lb - fb] = before + 64 + (uint64_t)(int64_t)h;
    }
    top++;
    /* blocks none of whose cells can be on an alignment of cost <= d */
    while (lb > fb && wm_band_drops_last(nsc[lb - fb], lb, m, n, j, k)) lb--;
    size_t skip = 0;
    while (fb + skip < lb && wm_band_drops_first(nsc[skip], fb + skip, m, n, j, k))
        top = nsc[skip++];
    next->fb = fb + skip;
    next->lb = lb;
    next->top = top;
    next->pv += skip;
    next->mv += skip;
    next->sc += skip;
}

/* A segment keeps a word's bottom score only every SCORE_EVERY words (the
** words w = SCORE_EVERY - 1 mod SCORE_EVERY): the history is written once
** and read back only along the path, so its bytes are what a recompute
** costs, and a lookup sums at most SCORE_EVERY - 1 words' deltas instead. */
#define SCORE_EVERY 8u
_Static_assert((SCORE_EVERY & (SCORE_EVERY - 1)) == 0, "first_kept() takes a power of two");

/* One column of a segment's history. */
typedef struct {
    size_t fb, lb;
    uint64_t top;
    size_t off;    /* its words' index in seg_t's pv / mv */
    size_t sc_off; /* its first kept score's index in seg_t's sc: word first_kept(fb) */
} colrec_t;

typedef struct {
    uint64_t c0, c1;   /* columns c0 .. c1 are held */
    colrec_t *col;     /* c1 - c0 + 1 of them */
    uint64_t *pv, *mv; /* per word */
    uint64_t *sc;      /* the score at the last row of every SCORE_EVERY-th word */
    uint64_t *roll;    /* two columns' full scores (col_cap() each): the sweep's */
} seg_t;

/* Where a recompute writes next: words of pv / mv and of sc used (kept
** apart from seg_t, whose neighbours other threads write). */
typedef struct {
    size_t words, scores;
} seg_fill_t;

/* The first word at or after fb whose score a segment keeps. */
static inline size_t first_kept(size_t fb) { return fb | (SCORE_EVERY - 1); }

/* Column col (its words stored at g's pv / mv from rec->off) into the
** record, keeping every SCORE_EVERY-th score. */
static void seg_record(const seg_t *g, seg_fill_t *f, colrec_t *rec, const bandcol_t *col) {
    *rec = (colrec_t){ col->fb, col->lb, col->top, (size_t)(col->pv - g->pv), f->scores };
    for (size_t w = first_kept(col->fb); w <= col->lb; w += SCORE_EVERY)
        g->sc[f->scores++] = col->sc[w - col->fb];
    f->words = rec->off + (col->lb - col->fb + 1);
}

/* D[i][j] from the segment (j in c0 .. c1): the value at row 64 w from the
** nearest kept score above it (or the top), then the deltas down to row i. */
static uint64_t seg_value(const seg_t *g, uint64_t i, uint64_t j) {
    if (i == 0) return j;
    const colrec_t *c = &g->col[j - g->c0];
    size_t w = (size_t)((i - 1) / 64);
    if (w < c->fb || w > c->lb) return INF_SCORE;
    size_t from = w & ~(size_t)(SCORE_EVERY - 1);
    uint64_t v;
    if (from <= c->fb) {
        from = c->fb;
        v = c->top;
    } else {
        v = g->sc[c->sc_off + (from - 1 - first_kept(c->fb)) / SCORE_EVERY];
    }
    const uint64_t *pv = g->pv + c->off, *mv = g->mv + c->off; /* word fb */
    for (size_t u = from - c->fb; u < w - c->fb; u++)
        v += (uint64_t)((int64_t)__builtin_popcountll(pv[u]) - __builtin_popcountll(mv[u]));
    unsigned r = (unsigned)((i - 1) % 64);
    uint64_t mask = r == 63 ? ~0ull : (2ull << r) - 1;
    return v + (uint64_t)((int64_t)__builtin_popcountll(pv[w - c->fb] & mask) -
                          __builtin_popcountll(mv[w - c->fb] & mask));
}

/* The ops, written backwards, as a CIGAR string. */
static char *rle(const char *ops, size_t n_ops) {
    size_t runs = 0; /* each run: at most 20 digits + op */
    for (size_t p = 0; p < n_ops; p++) runs += p == 0 || ops[p] != ops[p - 1];
    char *out = malloc(runs * 21 + 1), *o = out;
    if (!out) return NULL;
    for (size_t q = n_ops; q > 0;) {
        size_t p = q - 1;
        while (p > 0 && ops[p - 1] == ops[q - 1]) p--;
        char digits[24];
        int nd = 0;
        for (size_t len = q - p; len; len /= 10) digits[nd++] = (char)('0' + len % 10);
        while (nd) *o++ = digits[--nd];
        *o++ = ops[q - 1];
        q = p;
    }
    *o = 0;
    return out;
}

char *wm_tb_finish(char *ops, size_t n_ops, uint64_t i, uint64_t j) {
    while (i > 0) {
        ops[n_ops++] = 'I';
        i--;
    }
    while (j > 0) {
        ops[n_ops++] = 'D';
        j--;
    }
    return rle(ops, n_ops);
}

/* ---- the plan and the checkpoints ----------------------------------------- */

void wm_tb_plan(wm_tb_plan_t *p, uint64_t m, uint64_t n, uint64_t d, size_t n_words, int threads) {
    int64_t s0 = (int64_t)m - (int64_t)n, kk = (int64_t)d;
    p->m = m;
    p->n = n;
    p->dlo = s0 - kk > -kk ? s0 - kk : -kk;
    p->dhi = s0 + kk < kk ? s0 + kk : kk;
    uint64_t B = (uint64_t)((p->dhi - p->dlo) / 64) + 2; /* the widest column, words */
    if (B > n_words) B = n_words;
    p->band_words = (size_t)B;
    uint64_t per = SEGMENTS_BYTES_ALL / (uint64_t)(threads > 0 ? threads : 1);
    if (per > SEGMENT_BYTES_MAX) per = SEGMENT_BYTES_MAX;
    uint64_t S = per / (3 * 8 * B) & ~(uint64_t)7;
    if (S < 64) S = 64;
    if (S > n) S = n;
    p->S = S ? S : 1;
    p->n_seg = (n + p->S - 1) / p->S;
}

void wm_tb_plan_spread(wm_tb_plan_t *p, int threads) {
    if (threads < 2) return;
    uint64_t S = (p->n + 2 * (uint64_t)threads - 1) / (2 * (uint64_t)threads) & ~(uint64_t)7;
    if (S < 64) S = 64;
    if (S >= p->S) return;
    p->S = S;
    p->n_seg = (p->n + S - 1) / S;
}

int wm_tb_plan_fit(wm_tb_plan_t *p, uint64_t S_keep) {
    if (S_keep == 0 || p->S < S_keep) return -1;
    p->S -= p->S % S_keep;
    p->n_seg = (p->n + p->S - 1) / p->S;
    return 0;
}

size_t wm_tb_fb(const wm_tb_plan_t *p, uint64_t j) {
    return wm_blk(wm_band_row((int64_t)j, p->dlo, p->m));
}
size_t wm_tb_lb(const wm_tb_plan_t *p, uint64_t j) {
    return wm_blk(wm_band_row((int64_t)j, p->dhi, p->m));
}

int wm_tb_ckpts_alloc(wm_tb_ckpts_t *c, const wm_tb_plan_t *p) {
    c->n = p->n_seg;
    c->top = malloc(c->n * sizeof *c->top);
    c->off = malloc(c->n * sizeof *c->off);
    c->w = malloc((size_t)c->n * p->band_words * 2 * sizeof *c->w);
    if (!c->top || !c->off || !c->w) {
        wm_tb_ckpts_free(c);
        return -1;
    }
    size_t at = 0;
    for (uint64_t k = 0; k < c->n; k++) {
        c->off[k] = at;
        at += 2 * (wm_tb_lb(p, k * p->S) - wm_tb_fb(p, k * p->S) + 1);
    }
    return 0;
}

void wm_tb_ckpts_free(wm_tb_ckpts_t *c) {
    free(c->top);
    free(c->off);
    free(c->w);
    memset(c, 0, sizeof *c);
}

/* The value at row 64 w of column c, for a block w that may lie outside
** the pruned band: upper bounds there (a column's values change by at most
** one a row), as the cells outside the band hold. */
static uint64_t band_row_value(const bandcol_t *c, size_t w) {
    if (w <= c->fb) return c->top + 64 * (uint64_t)(c->fb - w);
    if (w > c->lb) return c->sc[c->lb - c->fb] + 64 * (uint64_t)(w - c->lb - 1);
    return c->sc[w - 1 - c->fb];
}

/* Checkpoint k from column k S, in the plan's band: the blocks above the
** pruned band fall by one a row down to it (Mv), those below it grow by one
** a row (Pv): upper bounds that no alignment of cost <= d goes through. */
static void ckpt_put(const wm_tb_plan_t *p, wm_tb_ckpts_t *c, uint64_t k, const bandcol_t *col) {
    size_t ufb = wm_tb_fb(p, k * p->S), ulb = wm_tb_lb(p, k * p->S), nw = ulb - ufb + 1;
    uint64_t *pv = c->w + c->off[k], *mv = pv + nw;
    c->top[k] = band_row_value(col, ufb);
    for (size_t w = ufb; w <= ulb; w++) {
        int in = w >= col->fb && w <= col->lb;
        pv[w - ufb] = in ? col->pv[w - col->fb] : w < col->fb ? 0 : ~0ull;
        mv[w - ufb] = in ? col->mv[w - col->fb] : w < col->fb ? ~0ull : 0;
    }
}

/* The CPU's forward pass: the band's state at columns 0, S, 2S, ..., two
** columns of s->cap words (buf: 6 s->cap) taking turns. */
static void forward(const sweep_t *s, wm_tb_ckpts_t *c, uint64_t *buf) {
    const wm_tb_plan_t *p = s->p;
    size_t C = s->cap;
    bandcol_t col[2];
    for (int t = 0; t < 2; t++)
        col[t] =
            (bandcol_t){ 0, 0, 0, buf + 3 * C * t, buf + 3 * C * t + C, buf + 3 * C * t + 2 * C };
    band_start(s, &col[0]);
    ckpt_put(p, c, 0, &col[0]);
    uint64_t last = (c->n - 1) * p->S;
    for (uint64_t j = 1; j <= last; j++) {
        bandcol_t *next = &col[j & 1];
        next->pv = buf + 3 * C * (j & 1);
        next->mv = next->pv + C;
        next->sc = next->pv + 2 * C;
        band_step(s, &col[(j - 1) & 1], next, j);
        if (j % p->S == 0) ckpt_put(p, c, j / p->S, next);
    }
}

/* ---- the backward walk ------------------------------------------------------ */

typedef struct {
    sweep_t sw;
    const wm_tb_ckpts_t *c;
    uint64_t first; /* the wave's highest segment */
    uint64_t j_end; /* the walk's column: the top segment ends there */
    seg_t *segs;    /* one per task */
} wave_t;

/* Recompute segment (first - i) from its checkpoint into segs[i]: each
** column is stepped from the one stored before it, straight into place. */
static void recompute(void *arg, size_t i, int tid) {
    (void)tid;
    wave_t *V = arg;
    if ((uint64_t)i > V->first) return;
    uint64_t k = V->first - i;
    const wm_tb_plan_t *p = V->sw.p;
    size_t C = V->sw.cap;
    seg_t *g = &V->segs[i];
    g->c0 = k * p->S;
    g->c1 = i == 0 ? V->j_end : (k + 1) * p->S;
    seg_fill_t f = { 0, 0 };
    /* column c0: the checkpoint */
    bandcol_t cur = { wm_tb_fb(p, g->c0), wm_tb_lb(p, g->c0), V->c->top[k], g->pv, g->mv, g->roll };
    size_t nw = cur.lb - cur.fb + 1;
    const uint64_t *ck = V->c->w + V->c->off[k];
    memcpy(cur.pv, ck, nw * sizeof *cur.pv);
    memcpy(cur.mv, ck + nw, nw * sizeof *cur.mv);
    uint64_t v = cur.top;
    for (size_t x = 0; x < nw; x++) {
        v += (uint64_t)((int64_t)__builtin_popcountll(cur.pv[x]) - __builtin_popcountll(cur.mv[x]));
        cur.sc[x] = v;
    }
    seg_record(g, &f, &g->col[0], &cur);
    for (uint64_t j = g->c0 + 1; j <= g->c1; j++) {
        bandcol_t next = { 0, 0, 0, g->pv + f.words, g->mv + f.words, g->roll + C * (j & 1) };
        band_step(&V->sw, &cur, &next, j);
        seg_record(g, &f, &g->col[j - g->c0], &next);
        cur = next;
    }
}

char *wm_align_cigar_ex(const wm_aq_t *aq, const uint8_t *y, uint64_t n, uint64_t d,
                        struct wm_pool *pool, const wm_tb_plan_t *plan,
                        const wm_tb_ckpts_t *ckpts) {
    uint64_t m = aq->m;
    const uint8_t *x = aq->q;
    char *ops = malloc((size_t)(m + n) + 1);
    if (!ops) return NULL;
    size_t n_ops = 0;
    char *result = NULL;
    int T = pool ? wm_pool_size(pool) : 1;
    wm_tb_plan_t own_plan;
    wm_tb_ckpts_t own = { 0 };
    wave_t V = { 0 };
    uint64_t i = m, j = n;
    if (m == 0 || n == 0) goto tail;

    if (!plan) {
        wm_tb_plan(&own_plan, m, n, d, aq->n_words, T);
        plan = &own_plan;
    }
    if ((uint64_t)T > plan->n_seg) T = (int)plan->n_seg;
    size_t C = col_cap(plan);
    uint64_t S = plan->S;
    V.sw = (sweep_t){ aq, y, plan, d, C };
    V.segs = calloc((size_t)T, sizeof *V.segs);
    if (!V.segs) goto out;
    for (int t = 0; t < T; t++) {
        /* a column has at most C words, so C / SCORE_EVERY + 1 kept scores */
        size_t words = (size_t)(S + 1) * C, scores = (size_t)(S + 1) * (C / SCORE_EVERY + 1);
        seg_t *g = &V.segs[t];
        g->col = malloc((size_t)(S + 1) * sizeof *g->col);
        g->pv = malloc((2 * words + scores + 2 * C) * sizeof *g->pv);
        if (!g->col || !g->pv) goto out;
        g->mv = g->pv + words;
        g->sc = g->mv + words;
        g->roll = g->sc + scores;
    }
    if (!ckpts) {
        if (wm_tb_ckpts_alloc(&own, plan) < 0) goto out;
        /* the first segment's buffer holds the pass's two columns (6 C words) */
        forward(&V.sw, &own, V.segs[0].pv);
        ckpts = &own;
    }
    V.c = ckpts;

    /* waves of T segments from the last; the walk goes through each in turn */
    uint64_t cur = d;
    for (uint64_t next = plan->n_seg; next > 0 && j > 0 && i > 0;) {
        V.first = next - 1;
        V.j_end = j;
        size_t n_tasks = (size_t)(next < (uint64_t)T ? next : (uint64_t)T);
        if (pool && n_tasks > 1) wm_pool_for(pool, n_tasks, recompute, &V);
        else
            for (size_t t = 0; t < n_tasks; t++) recompute(&V, t, 0);
        for (size_t t = 0; t < n_tasks && j > 0 && i > 0; t++) {
            const seg_t *g = &V.segs[t];
            while (j > g->c0 && i > 0) {
                if (wm_aq_eq(aq, x[i - 1], y[j - 1])) { /* a match is always optimal */
                    ops[n_ops++] = '=';
                    i--, j--;
                    continue;
                }
                uint64_t diag = seg_value(g, i - 1, j - 1);
                uint64_t up = diag + 1 == cur ? 0 : seg_value(g, i - 1, j);
                ops[n_ops++] = wm_tb_step(&cur, &i, &j, diag, up);
            }
        }
        next -= n_tasks;
    }
tail:
    result = wm_tb_finish(ops, n_ops, i, j);
out:
    free(ops);
    if (V.segs)
        for (int t = 0; t < T; t++) {
            free(V.segs[t].col);
            free(V.segs[t].pv);
        }
    free(V.segs);
    wm_tb_ckpts_free(&own);
    return result;
}

char *wm_align_cigar(const wm_aq_t *aq, const uint8_t *y, uint64_t n, uint64_t d_known,
                     uint64_t *d_out) {
    uint64_t d = d_known != UINT64_MAX ? d_known : wm_global_distance(aq, y, n, -1);
    if (d == UINT64_MAX) return NULL;
    *d_out = d;
    return wm_align_cigar_ex(aq, y, n, d, NULL, NULL, NULL);
}
