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
** checkpoints, keeping Pv, Mv and each word's bottom score for every column,
** and walks through them. Segments are independent once their checkpoints
** exist, so a wave of them is recomputed on the pool's threads at once while
** the walk itself (cheap: one step a cell of the path) stays on one thread.
** Cost: two forward passes (the first can come from the GPU, which writes
** the same checkpoints: global_cuda.cu); memory: checkpoints + one segment
** a thread, 8 to 32 MiB each. A target that fits one segment needs no
** checkpoint pass.
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
#include "align/bv.h"
#include "core/internal.h"

/* Bytes of one segment's history, all threads together at most 256 MiB; a
** segment has at least 64 columns. */
#define SEGMENT_BYTES_MAX ((uint64_t)32 << 20)
#define SEGMENTS_BYTES_ALL ((uint64_t)256 << 20)

#define INF_SCORE (UINT64_MAX / 4)

static inline size_t blk(uint64_t row) { return row ? (size_t)((row - 1) / 64) : 0; }

static inline uint64_t band_row(int64_t j, int64_t d, uint64_t m) {
    int64_t r = j + d;
    return r < 0 ? 0 : (uint64_t)r > m ? m : (uint64_t)r;
}

/* The banded bit-vector sweep's state at one column: blocks fb .. lb of the
** query hold Pv / Mv; top is the value at row 64 * fb. */
typedef struct {
    const wm_aq_t *aq;
    const uint8_t *y;
    uint64_t m, n;
    int64_t dlo, dhi;
    size_t fb, lb;
    uint64_t top;
    uint64_t *pv, *mv; /* ceil(m / 64) words each; only fb .. lb live */
} sweep_t;

static void sweep_start(sweep_t *s) {
    s->fb = blk(band_row(0, s->dlo, s->m));
    s->lb = blk(band_row(0, s->dhi, s->m));
    s->top = 64 * (uint64_t)s->fb;
    for (size_t w = s->fb; w <= s->lb; w++) {
        s->pv[w] = ~0ull;
        s->mv[w] = 0;
    }
}

/* Column j - 1 -> column j (as global.c's banded()). */
static void sweep_step(sweep_t *s, uint64_t j) {
    size_t W = s->aq->n_words;
    size_t nlb = blk(band_row((int64_t)j, s->dhi, s->m));
    size_t nfb = blk(band_row((int64_t)j, s->dlo, s->m));
    for (; s->lb < nlb; s->lb++) {
        s->pv[s->lb + 1] = ~0ull;
        s->mv[s->lb + 1] = 0;
    }
    for (; s->fb < nfb; s->fb++)
        s->top += (uint64_t)((int64_t)__builtin_popcountll(s->pv[s->fb]) -
                             __builtin_popcountll(s->mv[s->fb]));
    const uint64_t *eq = s->aq->peq + (size_t)s->aq->code[s->y[j - 1]] * W;
    int h = 1;
    for (size_t w = s->fb; w <= s->lb; w++) h = wm_bv_step(&s->pv[w], &s->mv[w], eq[w], h);
    s->top++;
}

/* One column of a segment's history. */
typedef struct {
    size_t fb, lb;
    uint64_t top;
    size_t off; /* its words' index in seg_t's arrays */
} colrec_t;

typedef struct {
    uint64_t c0, c1;        /* columns c0 .. c1 are held */
    colrec_t *col;          /* c1 - c0 + 1 of them */
    uint64_t *pv, *mv, *sc; /* per word: Pv, Mv, the score at its last row */
} seg_t;

static void seg_store(seg_t *g, const sweep_t *s, uint64_t j, size_t *used) {
    colrec_t *c = &g->col[j - g->c0];
    c->fb = s->fb;
    c->lb = s->lb;
    c->top = s->top;
    c->off = *used;
    uint64_t v = s->top;
    for (size_t w = s->fb; w <= s->lb; w++, (*used)++) {
        g->pv[*used] = s->pv[w];
        g->mv[*used] = s->mv[w];
        v += (uint64_t)((int64_t)__builtin_popcountll(s->pv[w]) - __builtin_popcountll(s->mv[w]));
        g->sc[*used] = v;
    }
}

/* D[i][j] from the segment (j in c0 .. c1). */
static uint64_t seg_value(const seg_t *g, uint64_t i, uint64_t j) {
    if (i == 0) return j;
    const colrec_t *c = &g->col[j - g->c0];
    size_t w = (size_t)((i - 1) / 64);
    if (w < c->fb || w > c->lb) return INF_SCORE;
    size_t at = c->off + (w - c->fb);
    uint64_t base = w == c->fb ? c->top : g->sc[at - 1];
    unsigned r = (unsigned)((i - 1) % 64);
    uint64_t mask = r == 63 ? ~0ull : (2ull << r) - 1;
    return base + (uint64_t)((int64_t)__builtin_popcountll(g->pv[at] & mask) -
                             __builtin_popcountll(g->mv[at] & mask));
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
    uint64_t S = per / (3 * 8 * B);
    if (S < 64) S = 64;
    if (S > n) S = n;
    p->S = S ? S : 1;
    p->n_seg = (n + p->S - 1) / p->S;
}

size_t wm_tb_fb(const wm_tb_plan_t *p, uint64_t j) {
    return blk(band_row((int64_t)j, p->dlo, p->m));
}
size_t wm_tb_lb(const wm_tb_plan_t *p, uint64_t j) {
    return blk(band_row((int64_t)j, p->dhi, p->m));
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

/* The CPU's forward pass: the sweep's state at columns 0, S, 2S, ... */
static void forward(sweep_t *s, const wm_tb_plan_t *p, wm_tb_ckpts_t *c) {
    sweep_start(s);
    for (uint64_t k = 0; k < c->n; k++) {
        if (k > 0)
            for (uint64_t jj = (k - 1) * p->S + 1; jj <= k * p->S; jj++) sweep_step(s, jj);
        size_t nw = s->lb - s->fb + 1;
        c->top[k] = s->top;
        memcpy(c->w + c->off[k], s->pv + s->fb, nw * sizeof *c->w);
        memcpy(c->w + c->off[k] + nw, s->mv + s->fb, nw * sizeof *c->w);
    }
}

/* ---- the backward walk ------------------------------------------------------ */

typedef struct {
    const wm_aq_t *aq;
    const uint8_t *y;
    const wm_tb_plan_t *p;
    const wm_tb_ckpts_t *c;
    uint64_t first;    /* the wave's highest segment */
    uint64_t j_end;    /* the walk's column: the top segment ends there */
    seg_t *segs;       /* one per task */
    uint64_t *scratch; /* 2 * n_words Pv / Mv per task */
} wave_t;

/* Recompute segment (first - i) from its checkpoint into segs[i]. */
static void recompute(void *arg, size_t i, int tid) {
    (void)tid;
    wave_t *V = arg;
    if ((uint64_t)i > V->first) return;
    uint64_t k = V->first - i;
    const wm_tb_plan_t *p = V->p;
    size_t W = V->aq->n_words;
    sweep_t s = { V->aq,
                  V->y,
                  p->m,
                  p->n,
                  p->dlo,
                  p->dhi,
                  0,
                  0,
                  0,
                  V->scratch + 2 * W * i,
                  V->scratch + 2 * W * i + W };
    seg_t *g = &V->segs[i];
    g->c0 = k * p->S;
    g->c1 = i == 0 ? V->j_end : (k + 1) * p->S;
    s.fb = wm_tb_fb(p, g->c0);
    s.lb = wm_tb_lb(p, g->c0);
    s.top = V->c->top[k];
    size_t nw = s.lb - s.fb + 1;
    memcpy(s.pv + s.fb, V->c->w + V->c->off[k], nw * sizeof *s.pv);
    memcpy(s.mv + s.fb, V->c->w + V->c->off[k] + nw, nw * sizeof *s.mv);
    size_t u = 0;
    seg_store(g, &s, g->c0, &u);
    for (uint64_t jj = g->c0 + 1; jj <= g->c1; jj++) {
        sweep_step(&s, jj);
        seg_store(g, &s, jj, &u);
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
    size_t W = aq->n_words, B = plan->band_words;
    uint64_t S = plan->S;
    V.aq = aq;
    V.y = y;
    V.p = plan;
    V.segs = calloc((size_t)T, sizeof *V.segs);
    V.scratch = malloc((size_t)T * 2 * W * sizeof *V.scratch);
    if (!V.segs || !V.scratch) goto out;
    for (int t = 0; t < T; t++) {
        V.segs[t].col = malloc((size_t)(S + 1) * sizeof *V.segs[t].col);
        V.segs[t].pv = malloc((size_t)(S + 1) * B * 3 * sizeof *V.segs[t].pv);
        if (!V.segs[t].col || !V.segs[t].pv) goto out;
        V.segs[t].mv = V.segs[t].pv + (size_t)(S + 1) * B;
        V.segs[t].sc = V.segs[t].mv + (size_t)(S + 1) * B;
    }
    if (!ckpts) {
        if (wm_tb_ckpts_alloc(&own, plan) < 0) goto out;
        sweep_t s = { aq, y, m, n, plan->dlo, plan->dhi, 0, 0, 0, V.scratch, V.scratch + W };
        if (plan->n_seg > 1) forward(&s, plan, &own);
        else { /* column 0 is the start */ sweep_start(&s);
            own.top[0] = s.top;
            size_t nw = s.lb - s.fb + 1;
            memcpy(own.w, s.pv + s.fb, nw * sizeof *own.w);
            memcpy(own.w + nw, s.mv + s.fb, nw * sizeof *own.w);
        }
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
                if (diag + 1 == cur) {
                    ops[n_ops++] = 'X';
                    i--, j--;
                    cur = diag;
                    continue;
                }
                uint64_t up = seg_value(g, i - 1, j);
                if (up + 1 == cur) {
                    ops[n_ops++] = 'I';
                    i--;
                    cur = up;
                    continue;
                }
                ops[n_ops++] = 'D';
                j--;
                cur--;
            }
        }
        next -= n_tasks;
    }
tail:
    while (i > 0) {
        ops[n_ops++] = 'I';
        i--;
    }
    while (j > 0) {
        ops[n_ops++] = 'D';
        j--;
    }
    result = rle(ops, n_ops);
out:
    free(ops);
    if (V.segs)
        for (int t = 0; t < T; t++) {
            free(V.segs[t].col);
            free(V.segs[t].pv);
        }
    free(V.segs);
    free(V.scratch);
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
