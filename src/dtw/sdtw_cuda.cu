/*
** sdtw_cuda.cu -- the subsequence / global DTW DP on the GPU: paper 002's
** anti-diagonal wavefront, a warp at a time.
**
** A warp owns a piece of the series (columns [a, b)) and a stripe of up to
** 1,024 query rows, R consecutive rows a lane. Lane l runs column a + t - l
** at step t: its first row's upper neighbour is lane l-1's last row, which
** that lane finished one step earlier (one shuffle), and the diagonal is the
** same value one step older. Pieces start from an unknown (+inf) left border
** and are fixed up afterwards exactly as on the CPU (sdtw.h): the piece runs
** again from the left neighbour's right border until its column equals a
** stored pass-1 column, value and start in every row. Stripes of longer queries run one
** after the other, each reading the one above's last row; series longer than
** a chunk stream through chunk by chunk, handing the border column on.
**
** Tuning (the context's wm_tuning_t, for benchmarks; defaults in brackets):
** dtw_warps [what fits the GPU once] and dtw_min_piece [2m] size the pieces,
** dtw_warmup [m] the columns pass 1 runs early, dtw_chunk [2^27] the samples
** a chunk, dtw_stripe [1024; 512 when starts are tracked] the rows a stripe,
** dtw_pin_series pins the series for its copy; with tuning.timing the time
** split goes to the context's wm_stats_t.
**
** Arithmetic is float64, or float32 when the job asks (opts.precision),
** with the CPU's exact operations (sub, abs or mul, min, add, each rounded
** once: dtw_arith.cuh; this file is built with -fmad=false), so the GPU
** prints the CPU's bits in either. The buffers between launches and the
** host stay doubles: a float32 value is a float held in a double, and the
** kernel rounds each sample to float as it reads it.
*/
#include <cuda_runtime.h>
#include <math_constants.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/plan.h"
#include "cuda/cuda_common.cuh"
#include "dtw/dtw.h"
#include "dtw/sdtw_cuda.h"
#include "dtw/sdtw_kernel.cuh"
#include "dtw/dtw_cuda_cache.cuh"

/* ---- host: chunks, stripes, pieces and fix-up rounds ----------------------- */

/* The device buffers of a run, kept in the context's dtw cache between
** calls (grown, never shrunk) so that a run pays no cudaMalloc once warm. */
enum {
    B_Y,
    B_X,
    B_ROWS_V0,
    B_ROWS_V1,
    B_FIN_V,
    B_CK_V,
    B_RIGHT_V,
    B_RNEXT_V,
    B_PBEST_V,
    B_LEFT_V,
    B_ROWS_S0,
    B_ROWS_S1,
    B_FIN_S,
    B_CK_S,
    B_RIGHT_S,
    B_RNEXT_S,
    B_PBEST_E,
    B_LEFT_S,
    B_DIRTY,
    B_CHANGED,
    B_UPTO,
    B_QROWS,
    N_BUFS
};
typedef struct {
    wm_cu_buf_t b[N_BUFS];
    wm_cu_buf_t mx[WM_DTW_MX_BUFS]; /* the matrix's (matrix_cuda.cu) */
} dtw_cache_t;

static void cache_free(void *arg) {
    dtw_cache_t *c = (dtw_cache_t *)arg;
    if (!c) return;
    for (int i = 0; i < N_BUFS; i++) wm_cu_dev_release(&c->b[i]);
    for (int i = 0; i < WM_DTW_MX_BUFS; i++) wm_cu_dev_release(&c->mx[i]);
    free(c);
}

static dtw_cache_t *cache_of(wm_context_t *cx) {
    return (dtw_cache_t *)wm_context_cache(cx, &wm_dtw_family, sizeof(dtw_cache_t));
}

wm_cu_buf_t *wm_dtw_cuda_mx_bufs(wm_context_t *cx) {
    dtw_cache_t *c = cache_of(cx);
    return c ? c->mx : NULL;
}

typedef struct {
    double *y, *x, *rows_v[2], *fin_v, *ck_v, *right_v, *rnext_v, *pbest_v, *left_v;
    uint64_t *rows_s[2], *fin_s, *ck_s, *right_s, *rnext_s, *pbest_e, *left_s;
    int *dirty, *changed, *qrows;
    uint64_t *upto;
} dev_bufs_t;

static int rows_per_lane(int rows) {
    int r = 1;
    while (r * 32 < rows) r *= 2;
    return r;
}

typedef void (*kernel_fn)(sd_args_t);

template <typename T, bool TRACK, bool SQ>
static kernel_fn kernel_r(int R) {
    switch (R) {
    case 1: return sdtw_kernel<T, 1, TRACK, SQ>;
    case 2: return sdtw_kernel<T, 2, TRACK, SQ>;
    case 4: return sdtw_kernel<T, 4, TRACK, SQ>;
    case 8: return sdtw_kernel<T, 8, TRACK, SQ>;
    case 16: return sdtw_kernel<T, 16, TRACK, SQ>;
    default:
        if constexpr (!TRACK) return sdtw_kernel<T, 32, TRACK, SQ>;
        return NULL;
    }
}

template <typename T>
static kernel_fn kernel_t(int R, bool sq, bool track) {
    if (track) return sq ? kernel_r<T, true, true>(R) : kernel_r<T, true, false>(R);
    return sq ? kernel_r<T, false, true>(R) : kernel_r<T, false, false>(R);
}

/* The kernel of R rows a lane, cost, starts and precision (sdtw_kernel.cuh). */
static kernel_fn kernel_of(int R, bool sq, bool track, bool f32) {
    return f32 ? kernel_t<float>(R, sq, track) : kernel_t<double>(R, sq, track);
}

static cudaError_t launch_any(const sd_args_t &A, int R, bool sq, bool track, bool f32, int count,
                              cudaStream_t s) {
    dim3 grid((count + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK), block(WARPS_PER_BLOCK * 32);
    kernel_of(R, sq, track, f32)<<<grid, block, 0, s>>>(A);
    return cudaGetLastError();
}

/* Warps of this kernel that fit on the whole GPU at once. */
static uint64_t resident_warps(int R, bool sq, bool track, bool f32, int sm) {
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel_of(R, sq, track, f32),
                                                      WARPS_PER_BLOCK * 32, 0) != cudaSuccess ||
        blocks < 1) {
        cudaGetLastError();
        blocks = 3;
    }
    return (uint64_t)sm * blocks * WARPS_PER_BLOCK;
}

enum { WANT_BEST, WANT_ROW, WANT_CORNER };

/* The shape of a run of nq jobs: stripes, pieces, chunks, stored columns. */
typedef struct {
    int nq, want;
    size_t m; /* the longest query */
    uint64_t n;
    bool track, sq, f32;
    size_t SR;            /* rows a stripe */
    int S;                /* stripes */
    uint64_t plen, chunk; /* columns a piece, samples a chunk */
    uint64_t warm;        /* pass 1's early columns */
    size_t gp_max;        /* pieces of all queries in a chunk, at most */
    int nck;              /* stored columns a piece */
    size_t lanes_rows;    /* 32 R of the widest stripe */
    size_t qstride, xall; /* query q's rows at q * qstride; all rows */
} run_shape_t;

static uint64_t or_default(uint64_t v, uint64_t dflt) { return v ? v : dflt; }

/* Pieces a query: the nq * p pieces run in ceil(nq p / warps) waves of the
** resident warps, each wave as long as a piece (cols / p columns, plus about
** 2 m of early columns and fix-up). The p of the shortest such time, the
** fewest pieces among equals. A plain ceil(warps / nq) leaves a wave nearly
** empty when nq does not divide the warps: 1,000 queries and 4,224 warps
** gave 5 pieces a query, 5,000 warps, two waves of which the second held
** 776 (a GPU 18% busy as long as the first). */
static uint64_t pieces_per_query(int nq, uint64_t warps, uint64_t cols, size_t rows) {
    uint64_t best_p = 1, hi = 4 * warps / (uint64_t)nq + 1;
    double best = INFINITY;
    for (uint64_t p = 1; p <= hi && p <= cols; p++) {
        uint64_t waves = ((uint64_t)nq * p + warps - 1) / warps;
        double t = (double)waves * ((double)cols / (double)p + 2.0 * (double)rows);
        if (t < best) {
            best = t;
            best_p = p;
        }
    }
    return best_p;
}

static void shape_run(const wm_context_t *cx, const wm_sdtw_job_t *j, int nq, int want,
                      int one_piece, run_shape_t *r) {
    const wm_tuning_t *tu = &cx->tuning;
    memset(r, 0, sizeof *r);
    r->nq = nq;
    r->want = want;
    for (int q = 0; q < nq; q++) r->m = j[q].m > r->m ? j[q].m : r->m;
    r->n = j->n;
    r->track = j->track != 0;
    r->sq = j->cost == WM_DTW_SQUARED;
    r->f32 = j->f32 != 0;
    /* stripes of 1,024 rows (R = 32 a lane); 512 when starts are tracked,
    ** whose registers would spill at 32 */
    r->SR = r->track ? STRIPE_ROWS / 2 : (tu->dtw_stripe == 512 ? 512 : STRIPE_ROWS);
    r->S = (int)((r->m + r->SR - 1) / r->SR);
    size_t top_rows = r->m < r->SR ? r->m : r->SR;
    const int sm = cx->cuda->sm_count;
    /* Pieces: enough warps to fill the GPU once (over all queries), but not
    ** much shorter than the query: a fix-up costs about m columns. */
    if (cx->opts.chunk_bytes) {
        r->plen = cx->opts.chunk_bytes / sizeof(double);
        if (!r->plen) r->plen = 1;
        r->chunk = r->plen * 64; /* tests: many chunks as well as many pieces */
    } else {
        /* smaller after running out of memory (core/recover.c) */
        r->chunk = wm_gpu_piece(cx, or_default(tu->dtw_chunk, (uint64_t)1 << 27), 1u << 16);
        uint64_t cols = r->n < r->chunk ? r->n : r->chunk;
        uint64_t warps = or_default(tu->dtw_warps, resident_warps(rows_per_lane((int)top_rows),
                                                                  r->sq, r->track, r->f32, sm));
        uint64_t per_query = pieces_per_query(nq, warps, cols, top_rows);
        r->plen = (cols + per_query - 1) / per_query;
        uint64_t floor_len = or_default(tu->dtw_min_piece, 2 * (uint64_t)top_rows);
        if (r->plen < floor_len) r->plen = floor_len;
        if (r->plen < 64) r->plen = 64;
    }
    /* a start-finding window of a query of one stripe: one piece, no fix-ups
    ** (measured: 3.8 ms against 4.4 for m = 1,024); taller queries keep
    ** their pieces, whose stripes run in parallel warps */
    if (one_piece && !cx->opts.chunk_bytes && r->n <= r->chunk && r->m <= r->SR) r->plen = r->n;
    if (r->chunk > r->n) r->chunk = r->n;
    r->warm = or_default(tu->dtw_warmup, (uint64_t)top_rows);
    if (r->warm > r->plen / 2) r->warm = r->plen / 2;
    r->gp_max = (size_t)nq * ((r->chunk + r->plen - 1) / r->plen);
    r->nck = 2;
    for (uint64_t w = CK_FIRST; w < r->plen; w *= 2) r->nck++;
    r->lanes_rows = 32 * (size_t)rows_per_lane((int)top_rows);
    /* query q's rows at q * qstride: stripes of SR rows for one query, 32 R
    ** rows a query in a batch */
    r->qstride = nq > 1 ? r->lanes_rows : (size_t)r->S * r->SR;
    r->xall = (size_t)nq * r->qstride;
}

/* The device buffers the shape needs, from the context's cache. */
static wm_status reserve_dev(wm_context_t *cx, const run_shape_t *r, dev_bufs_t *d) {
    dtw_cache_t *c = cache_of(cx);
    if (!c) return WM_NOMEM;
    memset(d, 0, sizeof *d);
    const size_t chunk = r->chunk, xall = r->xall, gp = r->gp_max, lr = r->lanes_rows;
    const size_t D = sizeof(double), U = sizeof(uint64_t), I = sizeof(int);
    struct {
        int which;
        size_t bytes;
        void **out;
        bool on;
    } need[] = {
        { B_Y, chunk * D, (void **)&d->y, true },
        { B_X, xall * D, (void **)&d->x, true },
        { B_LEFT_V, xall * D, (void **)&d->left_v, true },
        { B_QROWS, (size_t)r->nq * I, (void **)&d->qrows, true },
        { B_CK_V, gp * r->nck * lr * D, (void **)&d->ck_v, true },
        { B_RIGHT_V, gp * lr * D, (void **)&d->right_v, true },
        { B_RNEXT_V, gp * lr * D, (void **)&d->rnext_v, true },
        { B_PBEST_V, gp * D, (void **)&d->pbest_v, true },
        { B_PBEST_E, gp * U, (void **)&d->pbest_e, true },
        { B_DIRTY, gp * I, (void **)&d->dirty, true },
        { B_CHANGED, gp * I, (void **)&d->changed, true },
        { B_UPTO, gp * U, (void **)&d->upto, true },
        { B_ROWS_V0, chunk * D, (void **)&d->rows_v[0], r->S > 1 },
        { B_ROWS_V1, chunk * D, (void **)&d->rows_v[1], r->S > 1 },
        { B_ROWS_S0, chunk * U, (void **)&d->rows_s[0], r->S > 1 && r->track },
        { B_ROWS_S1, chunk * U, (void **)&d->rows_s[1], r->S > 1 && r->track },
        { B_FIN_V, chunk * D, (void **)&d->fin_v, r->want == WANT_ROW },
        { B_FIN_S, chunk * U, (void **)&d->fin_s, r->want == WANT_ROW && r->track },
        { B_LEFT_S, xall * U, (void **)&d->left_s, r->track },
        { B_CK_S, gp * r->nck * lr * U, (void **)&d->ck_s, r->track },
        { B_RIGHT_S, gp * lr * U, (void **)&d->right_s, r->track },
        { B_RNEXT_S, gp * lr * U, (void **)&d->rnext_s, r->track },
    };
    for (size_t i = 0; i < sizeof need / sizeof *need; i++) {
        if (!need[i].on) continue;
        wm_status st = wm_cu_dev_reserve(cx, &c->b[need[i].which], need[i].bytes);
        if (st != WM_OK) return st;
        *need[i].out = c->b[need[i].which].p;
    }
    return WM_OK;
}

/* The host side of a run: the queries' rows, the left border column of the
** chunk, the pieces' best cells, the dirty lists. */
typedef struct {
    double *x, *left_v, *pbest_v;
    uint64_t *left_s, *pbest_e;
    int *dirty, *changed, *rows;
} host_bufs_t;

static void host_free(host_bufs_t *h) {
    free(h->x);
    free(h->left_v);
    free(h->left_s);
    free(h->pbest_v);
    free(h->pbest_e);
    free(h->dirty);
    free(h->changed);
    free(h->rows);
}

static wm_status host_alloc(const run_shape_t *r, const wm_sdtw_job_t *j, host_bufs_t *h) {
    memset(h, 0, sizeof *h);
    h->x = (double *)calloc(r->xall, sizeof *h->x);
    h->left_v = (double *)malloc(r->xall * sizeof *h->left_v);
    h->left_s = (uint64_t *)calloc(r->xall, sizeof *h->left_s);
    h->pbest_v = (double *)malloc(r->gp_max * sizeof *h->pbest_v);
    h->pbest_e = (uint64_t *)malloc(r->gp_max * sizeof *h->pbest_e);
    h->dirty = (int *)malloc(r->gp_max * sizeof *h->dirty);
    h->changed = (int *)malloc(r->gp_max * sizeof *h->changed);
    h->rows = (int *)malloc((size_t)r->nq * sizeof *h->rows);
    if (!h->x || !h->left_v || !h->left_s || !h->pbest_v || !h->pbest_e || !h->dirty ||
        !h->changed || !h->rows)
        return WM_NOMEM;
    for (int q = 0; q < r->nq; q++) memcpy(h->x + q * r->qstride, j[q].x, j[q].m * sizeof *h->x);
    for (size_t i = 0; i < r->xall; i++) h->left_v[i] = INFINITY; /* d[i][0] = +inf */
    return WM_OK;
}

/* What a run reports: where its answers go. */
typedef struct {
    wm_sdtw_best_t *best;
    double *row_v;
    uint64_t *row_s;
} run_out_t;

/* The arguments of stripe s of a chunk starting at column base. */
static sd_args_t stripe_args(const run_shape_t *r, const wm_sdtw_job_t *j, const dev_bufs_t *d,
                             const host_bufs_t *h, int s, uint64_t base, uint64_t cn, int np) {
    const size_t i0 = (size_t)s * r->SR;
    const bool last = s == r->S - 1;
    sd_args_t A;
    memset(&A, 0, sizeof A);
    A.x = d->x + i0;
    A.qstride = r->qstride;
    A.nq = r->nq;
    A.rows_q = d->qrows;
    A.y = d->y;
    A.nck = r->nck;
    A.n = cn;
    A.base = base;
    A.plen = r->plen;
    A.np = np;
    A.warm = r->warm;
    A.top = s > 0 ? TOP_ROW : j->top == WM_SDTW_TOP_FRESH ? TOP_FRESH : TOP_GLOBAL;
    A.top_v = s > 0 ? d->rows_v[(s - 1) & 1] : NULL;
    A.top_s = s > 0 ? d->rows_s[(s - 1) & 1] : NULL;
    /* above-left of piece 0: row i0-1 at column base-1 (the same for every
    ** query of a batch, which has one stripe) */
    if (s > 0) {
        A.al0_v = h->left_v[i0 - 1];
        A.al0_s = h->left_s[i0 - 1];
    } else if (j->top == WM_SDTW_TOP_FRESH) {
        A.al0_v = 0.0;
        A.al0_s = base ? base - 1 : 0;
    } else {
        A.al0_v = base == 0 ? 0.0 : INFINITY;
    }
    A.left0_v = d->left_v + i0;
    A.left0_s = r->track ? d->left_s + i0 : NULL;
    A.ck_v = d->ck_v;
    A.ck_s = d->ck_s;
    A.right_v = d->right_v;
    A.right_s = d->right_s;
    A.rnext_v = d->rnext_v;
    A.rnext_s = d->rnext_s;
    A.bot_v = !last ? d->rows_v[s & 1] : r->want == WANT_ROW ? d->fin_v : NULL;
    A.bot_s = !last ? d->rows_s[s & 1] : r->want == WANT_ROW ? d->fin_s : NULL;
    if (!r->track) A.bot_s = NULL;
    A.pbest_v = last && r->want == WANT_BEST ? d->pbest_v : NULL;
    A.pbest_e = last && r->want == WANT_BEST ? d->pbest_e : NULL;
    A.dirty = d->dirty;
    A.changed = d->changed;
    A.upto = d->upto;
    return A;
}

/* Fix-up rounds of one stripe: piece p runs again from the committed right
** border of p-1 until no border moves. */
static wm_status fixup_rounds(wm_context_t *cx, const run_shape_t *r, const dev_bufs_t *d,
                              host_bufs_t *h, sd_args_t A, int R, int ngp, int np) {
    const cudaStream_t S = cx->cuda->stream[0]; /* every launch and copy of a run */
    int nd = 0;
    for (int g = 0; g < ngp; g++)
        if (g % np) h->dirty[nd++] = g;
    A.emode = 1;
    while (nd > 0) {
        WM_CU(cx, cudaMemcpyAsync(d->dirty, h->dirty, nd * sizeof(int), cudaMemcpyHostToDevice, S));
        A.nd = nd;
        WM_CU(cx, launch_any(A, R, r->sq, r->track, r->f32, nd, S));
        commit_kernel<<<nd, 128, 0, S>>>(d->dirty, d->changed, nd, 32 * R, d->right_v, d->rnext_v,
                                         r->track ? d->right_s : NULL, d->rnext_s);
        WM_CU(cx, cudaGetLastError());
        WM_CU(cx,
              cudaMemcpyAsync(h->changed, d->changed, nd * sizeof(int), cudaMemcpyDeviceToHost, S));
        WM_CU(cx, cudaStreamSynchronize(S));
        int next = 0;
        for (int k = 0; k < nd; k++) {
            int g = h->dirty[k];
            if (h->changed[k] && (g + 1) % np) h->dirty[next++] = g + 1;
        }
        nd = next;
        cx->stats.dtw_gpu_rounds++;
    }
    return WM_OK;
}

/* Stripe s of the chunk at column base (cn columns, np pieces a query): pass
** 1, the fix-ups, the chunk's last column handed on as the next chunk's
** left border, and the answers of the last stripe. */
static wm_status run_stripe(wm_context_t *cx, const run_shape_t *r, const wm_sdtw_job_t *j,
                            const dev_bufs_t *d, host_bufs_t *h, int s, uint64_t base, uint64_t cn,
                            int np, const run_out_t *out) {
    const cudaStream_t S = cx->cuda->stream[0]; /* every launch and copy of a run */
    const int timing = cx->tuning.timing;
    const size_t i0 = (size_t)s * r->SR;
    const int nq = r->nq, ngp = nq * np;
    const bool last = s == r->S - 1;
    for (int q = 0; q < nq; q++) h->rows[q] = (int)(j[q].m - i0 < r->SR ? j[q].m - i0 : r->SR);
    const int R = rows_per_lane(nq > 1 ? (int)(r->m < r->SR ? r->m : r->SR) : h->rows[0]);
    WM_CU(cx,
          cudaMemcpyAsync(d->qrows, h->rows, (size_t)nq * sizeof(int), cudaMemcpyHostToDevice, S));
    sd_args_t A = stripe_args(r, j, d, h, s, base, cn, np);
    WM_CU(cx, cudaMemsetAsync(d->upto, 0, (size_t)ngp * sizeof(uint64_t), S));
    double tc = 0;
    if (timing) {
        cudaStreamSynchronize(S);
        tc = wm_now();
    }
    WM_CU(cx, launch_any(A, R, r->sq, r->track, r->f32, ngp, S));
    if (timing) {
        cudaStreamSynchronize(S);
        cx->stats.dtw_gpu_pass_s += wm_now() - tc;
        tc = wm_now();
    }
    wm_status st = fixup_rounds(cx, r, d, h, A, R, ngp, np);
    if (st != WM_OK) return st;
    if (timing) cx->stats.dtw_gpu_fixup_s += wm_now() - tc;
    /* each query's rows at the chunk's last column: the next chunk's left */
    const size_t lr = (size_t)32 * R;
    WM_CU(cx,
          cudaMemcpy2DAsync(d->left_v + i0, r->qstride * sizeof(double),
                            d->right_v + (size_t)(np - 1) * lr, (size_t)np * lr * sizeof(double),
                            lr * sizeof(double), nq, cudaMemcpyDeviceToDevice, S));
    if (r->track)
        WM_CU(cx, cudaMemcpy2DAsync(d->left_s + i0, r->qstride * sizeof(uint64_t),
                                    d->right_s + (size_t)(np - 1) * lr,
                                    (size_t)np * lr * sizeof(uint64_t), lr * sizeof(uint64_t), nq,
                                    cudaMemcpyDeviceToDevice, S));
    if (last && r->want == WANT_BEST) {
        WM_CU(cx, cudaMemcpyAsync(h->pbest_v, d->pbest_v, ngp * sizeof(double),
                                  cudaMemcpyDeviceToHost, S));
        WM_CU(cx, cudaMemcpyAsync(h->pbest_e, d->pbest_e, ngp * sizeof(uint64_t),
                                  cudaMemcpyDeviceToHost, S));
        WM_CU(cx, cudaStreamSynchronize(S));
        for (int g = 0; g < ngp; g++)
            wm_sdtw_best_offer(&out->best[g / np], h->pbest_v[g], h->pbest_e[g], 0);
    }
    if (last && r->want == WANT_ROW) {
        WM_CU(cx, cudaMemcpyAsync(out->row_v + base, d->fin_v, cn * sizeof(double),
                                  cudaMemcpyDeviceToHost, S));
        if (r->track)
            WM_CU(cx, cudaMemcpyAsync(out->row_s + base, d->fin_s, cn * sizeof(uint64_t),
                                      cudaMemcpyDeviceToHost, S));
    }
    return WM_OK;
}

/* Every chunk of the series through every stripe. */
static wm_status run_chunks(wm_context_t *cx, const run_shape_t *r, const wm_sdtw_job_t *j,
                            const dev_bufs_t *d, host_bufs_t *h, const run_out_t *out) {
    const cudaStream_t S = cx->cuda->stream[0]; /* every launch and copy of a run */
    wm_plan_t chunks = wm_plan_sized(0, r->n, r->chunk);
    for (uint64_t c = 0; c < chunks.n; c++) {
        uint64_t base, end;
        wm_plan_part(&chunks, c, &base, &end);
        const uint64_t cn = end - base;
        const int np = (int)((cn + r->plen - 1) / r->plen);
        double tc = cx->tuning.timing ? wm_now() : 0;
        /* a series kept on the device (wm_dtw_many_target) is read where it
        ** lies; else the chunk is copied */
        dev_bufs_t dc = *d;
        const double *resident = (const double *)wm_cuda_target_view(
            cx, (const uint8_t *)(j->y + base), cn * sizeof(double));
        if (resident) dc.y = (double *)resident;
        else
            WM_CU(cx, cudaMemcpyAsync(d->y, j->y + base, cn * sizeof(double),
                                      cudaMemcpyHostToDevice, S));
        if (cx->tuning.timing) cx->stats.dtw_gpu_h2d_s += wm_now() - tc;
        for (int s = 0; s < r->S; s++) {
            wm_status st = run_stripe(cx, r, j, &dc, h, s, base, cn, np, out);
            if (st != WM_OK) return st;
        }
        WM_CU(cx, cudaMemcpyAsync(h->left_v, d->left_v, r->xall * sizeof(double),
                                  cudaMemcpyDeviceToHost, S));
        if (r->track)
            WM_CU(cx, cudaMemcpyAsync(h->left_s, d->left_s, r->xall * sizeof(uint64_t),
                                      cudaMemcpyDeviceToHost, S));
        WM_CU(cx, cudaStreamSynchronize(S)); /* the host reads the borders next */
    }
    return WM_OK;
}

/* Pinning the series where it lies makes its copy run at the bus's speed
** (0.63 ms for 32 MB on the H100 host, against 4.8 ms from pageable memory),
** but pinning and unpinning 32 MB cost more than that, and a caller's buffer
** cannot stay pinned between calls (it may be freed). So only on request
** (tuning.dtw_pin_series: BENCHMARKS.md shows both). 1 when pinned. */
static int pin_series(const wm_context_t *cx, const wm_sdtw_job_t *j) {
    if (!cx->tuning.dtw_pin_series || j->n * sizeof(double) < ((size_t)8 << 20)) return 0;
    if (cudaHostRegister((void *)j->y, j->n * sizeof(double), cudaHostRegisterDefault) ==
        cudaSuccess)
        return 1;
    cudaGetLastError();
    return 0;
}

/* Run nq jobs on one series (j[q].y, n, cost and top are the same for all).
** nq > 1 only for untracked jobs whose queries fit one stripe and share R,
** with want == WANT_BEST (best[q] each). */
static wm_status sdtw_cuda_run(wm_context_t *cx, const wm_sdtw_job_t *j, int nq, int want,
                               const run_out_t *out, double *corner, uint64_t *corner_s = NULL,
                               int one_piece = 0) {
    const cudaStream_t S = cx->cuda->stream[0]; /* every launch and copy of a run */
    const double t0 = wm_now();
    run_shape_t r;
    shape_run(cx, j, nq, want, one_piece, &r);
    dev_bufs_t d;
    host_bufs_t h;
    wm_status st = host_alloc(&r, j, &h);
    if (st == WM_OK) st = reserve_dev(cx, &r, &d);
    int registered = st == WM_OK ? pin_series(cx, j) : 0;
    cudaError_t e = cudaSuccess;
    if (st == WM_OK && r.track)
        e = cudaMemcpyAsync(d.left_s, h.left_s, r.xall * sizeof(uint64_t), cudaMemcpyHostToDevice,
                            S);
    if (e == cudaSuccess && st == WM_OK)
        e = cudaMemcpyAsync(d.left_v, h.left_v, r.xall * sizeof(double), cudaMemcpyHostToDevice, S);
    if (e == cudaSuccess && st == WM_OK)
        e = cudaMemcpyAsync(d.x, h.x, r.xall * sizeof(double), cudaMemcpyHostToDevice, S);
    if (e == cudaSuccess && st == WM_OK) e = cudaStreamSynchronize(S);
    if (e != cudaSuccess) st = wm_cuda_fail(cx, e, "uploading the queries");
    if (cx->tuning.timing) cx->stats.dtw_gpu_setup_s += wm_now() - t0;
    if (st == WM_OK && out->best)
        for (int q = 0; q < nq; q++) wm_sdtw_best_init(&out->best[q]);
    if (st == WM_OK) st = run_chunks(cx, &r, j, &d, &h, out);
    if (st == WM_OK && (e = cudaStreamSynchronize(S)) != cudaSuccess) /* the rows copied out */
        st = wm_cuda_fail(cx, e, "the DTW run");
    if (st == WM_OK && want == WANT_CORNER) {
        *corner = h.left_v[r.m - 1];
        if (corner_s) *corner_s = h.left_s[r.m - 1];
    }
    if (registered) cudaHostUnregister((void *)j->y);
    host_free(&h);
    cx->stats.dtw_gpu_calls++;
    if (cx->tuning.timing) cx->stats.dtw_gpu_total_s += wm_now() - t0;
    return st;
}

static wm_status gpu_best(wm_context_t *cx, const wm_sdtw_job_t *j, wm_sdtw_best_t *best) {
    run_out_t o = { best, NULL, NULL };
    return sdtw_cuda_run(cx, j, 1, WANT_BEST, &o, NULL);
}

static wm_status gpu_best_many(wm_context_t *cx, const wm_sdtw_job_t *j, size_t nq,
                               wm_sdtw_best_t *best) {
    run_out_t o = { best, NULL, NULL };
    return sdtw_cuda_run(cx, j, (int)nq, WANT_BEST, &o, NULL);
}

static wm_status gpu_row(wm_context_t *cx, const wm_sdtw_job_t *j, double *row_v, uint64_t *row_s) {
    run_out_t o = { NULL, row_v, row_s };
    return sdtw_cuda_run(cx, j, 1, WANT_ROW, &o, NULL);
}

static wm_status gpu_corner_tracked(wm_context_t *cx, const wm_sdtw_job_t *j, double *corner,
                                    uint64_t *start) {
    /* a start's window: one block, a pipeline of warps (sdtw_window_cuda.cu) */
    if (wm_sdtw_window_fits(j)) return wm_sdtw_window_cuda(cx, j, corner, start);
    run_out_t o = { NULL, NULL, NULL };
    return sdtw_cuda_run(cx, j, 1, WANT_CORNER, &o, corner, start, 1);
}

static wm_status gpu_corner(wm_context_t *cx, const wm_sdtw_job_t *j, double *corner) {
    run_out_t o = { NULL, NULL, NULL };
    return sdtw_cuda_run(cx, j, 1, WANT_CORNER, &o, corner);
}

extern "C" const wm_dtw_gpu_t wm_dtw_gpu_cuda = { gpu_best,           gpu_best_many, gpu_row,
                                                  gpu_corner_tracked, gpu_corner,    wm_dtw_mx_cuda,
                                                  wm_dtw_ucr_cuda,    cache_free };
