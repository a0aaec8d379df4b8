/*
** matrix.c -- wm_dtw_matrix: the global DTW distance of every pair of two
** lists of signals (or of one list against itself), in chunks of pairs run
** on the GPU, a warp a pair (matrix_cuda.cu), or on the CPU threads, a pair
** a thread (wm_dtw_mx_pair). See include/warpmatch.h for the contract.
**
** The pairs of a chunk come in matrix order (row-major; the upper triangle
** of a list against itself); each names its shorter signal as the rows of
** its DP. A chunk's distances are then written into the matrix, and the
** upper triangle mirrored.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/shard.h"
#include "dtw/matrix.h"
#include "dtw/sdtw_cuda.h"
#include "dtw/trace.h"

/* Pairs a chunk: 24 bytes each on the host (pair, entry, distance; 13 more
** while the GPU sorts them) and 20 on the GPU (pair, place, distance): under
** 160 MB and 84 MB, whatever the matrix. */
#define CHUNK_PAIRS ((size_t)1 << 22)
/* Pairs a task of the CPU pool. */
#define TASK_PAIRS 16

double wm_dtw_mx_pair(const wm_dtw_mx_t *mx, uint32_t row, uint32_t col_sig, double *col,
                      double *strip) {
    const double *x = mx->sig[row], *y = mx->sig[col_sig];
    size_t m = mx->len[row];
    uint64_t n = mx->len[col_sig];
    uint64_t longer = m > n ? m : n;
    /* the SIMD strips (sdtw_simd.c), the same bits as the scalar DP; with a
    ** band (one that leaves some cell out) each strip runs only its band */
    wm_sdtw_job_t j = wm_sdtw_job(x, m, y, n, mx->cost, WM_SDTW_TOP_GLOBAL, mx->simd, mx->f32);
    j.band_strips = mx->band_strips;
    if (mx->band >= 0 && (uint64_t)mx->band < longer) {
        j.banded = 1;
        j.band_lo = -(mx->band + (m > n ? (int64_t)(m - n) : 0));
        j.band_hi = mx->band + (n > m ? (int64_t)(n - m) : 0);
    }
    for (size_t i = 0; i < m; i++) col[i] = INFINITY;
    if (wm_sdtw_tile_simd(&j, WM_SDTW_TOP_GLOBAL, 0, n, col, NULL, NULL, mx->simd, strip) == 0)
        return col[m - 1];
    return wm_dtw_global_banded(x, m, y, n, j.banded ? mx->band : -1, mx->cost, mx->f32, col);
}

/* ---- a chunk on the CPU pool, on the GPU, or over several devices ---------- */

typedef struct {
    const wm_dtw_mx_t *mx;
    double *dist;
    double *t_col; /* [threads][max_len + WM_SDTW_SIMD_SCRATCH]: a column, the strips' rows */
} cpu_chunk_t;

static void cpu_task(void *arg, size_t t, int tid) {
    cpu_chunk_t *c = arg;
    const wm_dtw_mx_t *mx = c->mx;
    size_t lo = t * TASK_PAIRS, hi = lo + TASK_PAIRS < mx->np ? lo + TASK_PAIRS : mx->np;
    double *col = c->t_col + (size_t)tid * (mx->max_len + WM_SDTW_SIMD_SCRATCH);
    for (size_t k = lo; k < hi; k++)
        c->dist[k] = wm_dtw_mx_pair(mx, mx->pr[2 * k], mx->pr[2 * k + 1], col, col + mx->max_len);
}

static wm_status chunk_cpu(wm_context_t *cx, const wm_dtw_mx_t *mx, double *dist) {
    int threads = wm_pool_size(cx->pool);
    size_t per = mx->max_len + WM_SDTW_SIMD_SCRATCH;
    cpu_chunk_t c = { mx, dist, malloc((size_t)threads * per * sizeof(double)) };
    if (!c.t_col) return WM_NOMEM;
    wm_pool_for(cx->pool, (mx->np + TASK_PAIRS - 1) / TASK_PAIRS, cpu_task, &c);
    free(c.t_col);
    return WM_OK;
}

/* One device (or the CPU): the GPU while it has memory, else the CPU. *upload
** says the device has not got the signals yet; it is cleared once it has. */
static wm_status chunk_one(wm_context_t *cx, const wm_dtw_mx_t *mx, int *upload, double *dist) {
    const wm_dtw_gpu_t *gpu = wm_dtw_gpu(cx);
    wm_status st = WM_OK;
    if (gpu) {
        do {
            st = gpu->matrix(cx, mx, *upload, dist);
            *upload = st != WM_OK; /* a failure may have freed the device's copy */
        } while (wm_gpu_retry(cx, &st));
    }
    if (!gpu || wm_gpu_fall_back(cx, st, "a dtw matrix")) st = chunk_cpu(cx, mx, dist);
    return st;
}

typedef struct {
    const wm_dtw_mx_t *mx;
    double *dist;
} shard_job_t;

/* A sub-context's range of a chunk's pairs; it uploads the signals itself. */
static wm_status shard_range(void *job, wm_context_t *sub, size_t lo, size_t hi) {
    shard_job_t *J = job;
    wm_dtw_mx_t part = *J->mx;
    part.pr = J->mx->pr + 2 * lo;
    part.np = hi - lo;
    int upload = 1;
    return chunk_one(sub, &part, &upload, J->dist + lo);
}

/* ---- the call ---------------------------------------------------------------- */

/* The signals' checks; who names a signal as "a[3]" or "b[3]". */
static wm_status check_list(wm_context_t *cx, const double *const *v, const size_t *lens, size_t n,
                            char side, const wm_dtw_opts_t *o) {
    if (n && (!v || !lens)) {
        wm_context_set_error(cx, "wm_dtw_matrix: NULL signals or lengths for %c", side);
        return WM_INVALID;
    }
    if (n > UINT32_MAX / 2) {
        wm_context_set_error(cx, "wm_dtw_matrix: %zu signals in %c; at most %u are accepted", n,
                             side, UINT32_MAX / 2);
        return WM_INVALID;
    }
    char who[48];
    for (size_t i = 0; i < n; i++) {
        if (lens[i] == 0) {
            wm_context_set_error(cx, "%c[%zu] is empty", side, i);
            return WM_PATTERN_EMPTY;
        }
        if (!v[i]) {
            wm_context_set_error(cx, "%c[%zu] is NULL", side, i);
            return WM_INVALID;
        }
        snprintf(who, sizeof who, "%c[%zu]:", side, i);
        wm_status st = wm_dtw_check_finite(cx, v[i], lens[i], who);
        if (st == WM_OK && o->precision == WM_DTW_F32 && !o->znorm)
            st = wm_dtw_check_f32(cx, v[i], lens[i], who);
        if (st != WM_OK) return st;
    }
    return WM_OK;
}

/* The matrix's pairs in order, a chunk at a time: (i, j) is the next entry. */
typedef struct {
    size_t n_a, n_b; /* n_b = n_a for a x a */
    int self;
    size_t i, j;
} cursor_t;

/* Fill up to CHUNK_PAIRS pairs: pr (signals, shorter first) and at (the
** entry). Returns how many. */
static size_t next_chunk(cursor_t *c, const size_t *len, uint32_t *pr, uint32_t *at) {
    size_t k = 0;
    while (k < CHUNK_PAIRS && c->i < c->n_a) {
        if (c->j >= c->n_b) {
            c->i++;
            c->j = c->self ? c->i + 1 : 0;
            continue;
        }
        uint32_t p = (uint32_t)c->i, q = (uint32_t)(c->self ? c->j : c->n_a + c->j);
        if (len[q] < len[p]) { /* the shorter signal is the rows */
            uint32_t t = p;
            p = q;
            q = t;
        }
        pr[2 * k] = p;
        pr[2 * k + 1] = q;
        at[2 * k] = (uint32_t)c->i;
        at[2 * k + 1] = (uint32_t)c->j;
        k++;
        c->j++;
    }
    return k;
}

static wm_status run(wm_context_t *cx, wm_dtw_mx_t *mx, cursor_t *cur, double *out) {
    uint32_t *pr = malloc(2 * CHUNK_PAIRS * sizeof *pr);
    uint32_t *at = malloc(2 * CHUNK_PAIRS * sizeof *at);
    double *dist = malloc(CHUNK_PAIRS * sizeof *dist);
    wm_status st = pr && at && dist ? WM_OK : WM_NOMEM;
    int upload = 1;
    size_t np;
    while (st == WM_OK && (np = next_chunk(cur, mx->len, pr, at)) > 0) {
        mx->pr = pr;
        mx->np = np;
        if (cx->n_sub > 1) {
            shard_job_t J = { mx, dist };
            st = wm_shard_list(cx, np, shard_range, &J, NULL);
        } else {
            st = chunk_one(cx, mx, &upload, dist);
        }
        for (size_t k = 0; k < np && st == WM_OK; k++) {
            size_t i = at[2 * k], j = at[2 * k + 1];
            out[i * cur->n_b + j] = dist[k];
            if (cur->self) out[j * cur->n_b + i] = dist[k];
        }
    }
    free(pr);
    free(at);
    free(dist);
    return st;
}

wm_status wm_dtw_matrix(wm_context_t *cx, const double *const *a, const size_t *a_lens, size_t n_a,
                        const double *const *b, const size_t *b_lens, size_t n_b,
                        const wm_dtw_opts_t *o, double *out) {
    if (!wm_context_ok(cx)) return WM_INVALID;
    wm_cuda_context_bind(cx);
    wm_dtw_opts_t d = wm_dtw_opts_default();
    d.mode = WM_DTW_GLOBAL;
    if (!o) o = &d;
    wm_status st = wm_dtw_check_opts(cx, o);
    if (st != WM_OK) return st;
    if (o->mode != WM_DTW_GLOBAL || o->path) {
        wm_context_set_error(cx, "wm_dtw_matrix: a matrix holds global DTW distances "
                                 "(opts.mode WM_DTW_GLOBAL, no paths)");
        return WM_INVALID;
    }
    int self = b == NULL;
    if (self) n_b = n_a;
    if ((st = check_list(cx, a, a_lens, n_a, 'a', o)) != WM_OK) return st;
    if (!self && (st = check_list(cx, b, b_lens, n_b, 'b', o)) != WM_OK) return st;
    if (n_a == 0 || n_b == 0) return WM_OK;
    if (!out) {
        wm_context_set_error(cx, "wm_dtw_matrix: NULL output");
        return WM_INVALID;
    }
    if (n_b > SIZE_MAX / sizeof(double) / n_a) {
        wm_context_set_error(cx, "wm_dtw_matrix: %zu x %zu distances do not fit in memory", n_a,
                             n_b);
        return WM_NOMEM;
    }

    /* every signal in one list, normalised when asked */
    size_t n_sig = self ? n_a : n_a + n_b;
    const double **sig = malloc(n_sig * sizeof *sig);
    size_t *len = malloc(n_sig * sizeof *len);
    double *norm = NULL;
    if (!sig || !len) {
        st = WM_NOMEM;
        goto done;
    }
    uint64_t total = 0, max_len = 0;
    for (size_t s = 0; s < n_sig; s++) {
        sig[s] = s < n_a ? a[s] : b[s - n_a];
        len[s] = s < n_a ? a_lens[s] : b_lens[s - n_a];
        total += len[s];
        if (len[s] > max_len) max_len = len[s];
    }
    if (o->znorm) {
        if (!(norm = malloc(total * sizeof *norm))) {
            st = WM_NOMEM;
            goto done;
        }
        for (size_t s = 0, at = 0; s < n_sig; at += len[s], s++) {
            wm_dtw_znorm(sig[s], len[s], norm + at);
            sig[s] = norm + at;
        }
    }
    wm_dtw_mx_t mx = { sig,
                       len,
                       n_sig,
                       o->cost,
                       o->window,
                       NULL,
                       0,
                       max_len,
                       cx->tuning.simd,
                       cx->tuning.dtw_band_strips,
                       o->precision == WM_DTW_F32 };
    cursor_t cur = { n_a, n_b, self, 0, self ? 1 : 0 };
    st = run(cx, &mx, &cur, out);
    if (st == WM_OK && self)
        for (size_t i = 0; i < n_a; i++) out[i * n_a + i] = 0.0;
done:
    free(sig);
    free(len);
    free(norm);
    return st;
}
