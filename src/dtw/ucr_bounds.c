/*
** ucr_bounds.c -- what ucr mode knows about a window before its DTW: the
** query's envelope and order, each window's exact mean and sd, and the
** lower bounds LB_Kim and LB_Keogh (both directions).
**
** Why the bounds hold in floating point (not only in real numbers): every
** term is the cost of some cell every warping path visits, or less:
**   - LB_Kim: a path passes through the first and the last cell and
**     through at least one cell of each anti-layer {max(i, j) = k} (and of
**     each layer counted from the end), since max(i, j) grows by at most 1
**     per step; the layers used never share a cell;
**   - LB_Keogh EQ: a path visits every column j, in a row of j's band, and
**     the query's envelope at j spans those rows; EC: the same per row,
**     with the window's envelope.
** A term like cost(z, up) for z > up >= q_i is computed with the same
** rounded subtraction as cost(q_i, z) and rounding is monotonic, so each
** term is <= its cell's cost bit for bit; only the order of the additions
** differs from the DTW's, which ucr_cut absorbs.
*/
#include <math.h>
#include <stdlib.h>

#include "dtw/ucr.h"

/* ---- the query ------------------------------------------------------------- */

/* idx = 0..m-1 sorted by |q| descending, ties by index: a bottom-up merge
** sort (C11's qsort passes no context, and a global would not be reentrant). */
static void order_by_abs(const double *q, size_t m, size_t *idx, size_t *tmp) {
    for (size_t i = 0; i < m; i++) idx[i] = i;
    for (size_t w = 1; w < m; w *= 2) {
        for (size_t a = 0; a < m; a += 2 * w) {
            size_t mid = a + w < m ? a + w : m, end = a + 2 * w < m ? a + 2 * w : m;
            size_t i = a, j = mid, k = a;
            while (i < mid && j < end) {
                double x = fabs(q[idx[i]]), y = fabs(q[idx[j]]);
                tmp[k++] = (x >= y) ? idx[i++] : idx[j++]; /* stable: ties keep index order */
            }
            while (i < mid) tmp[k++] = idx[i++];
            while (j < end) tmp[k++] = idx[j++];
        }
        for (size_t i = 0; i < m; i++) idx[i] = tmp[i];
    }
}

int ucr_query_init(ucr_query_t *uq, const double *qz, size_t m, const wm_dtw_opts_t *o) {
    uq->q = qz;
    uq->m = m;
    uq->len = o->length ? (size_t)o->length : m;
    size_t big = m > uq->len ? m : uq->len;
    uq->r = o->window < 0 ? -1 : (o->window > (int64_t)big ? (int64_t)big : o->window);
    uq->cost = o->cost;
    uq->slack = 1.0 + 4.0 * (double)(m + uq->len + 2) * DBL_EPSILON;
    uq->up = uq->lo = NULL;
    uq->order = NULL;
    if (uq->len != m) return 0;
    uq->up = malloc(m * sizeof *uq->up);
    uq->lo = malloc(m * sizeof *uq->lo);
    uq->order = malloc(m * sizeof *uq->order);
    size_t *dq = malloc(2 * m * sizeof *dq);
    if (!uq->up || !uq->lo || !uq->order || !dq) {
        free(dq);
        ucr_query_free(uq);
        return -1;
    }
    ucr_envelope(qz, m, uq->r < 0 ? m : (size_t)uq->r, uq->up, uq->lo, dq, dq + m);
    order_by_abs(qz, m, uq->order, dq);
    free(dq);
    return 0;
}

void ucr_query_free(ucr_query_t *uq) {
    free(uq->up);
    free(uq->lo);
    free(uq->order);
    uq->up = uq->lo = NULL;
    uq->order = NULL;
}

/* ---- window statistics ---------------------------------------------------------
** The formulas of wm_dtw_znorm (src/dtw/znorm.c), operation for operation. */

void ucr_stats(const double *x, size_t len, double *mean, double *sd) {
    double sum = 0.0;
    for (size_t i = 0; i < len; i++) sum += x[i];
    double mu = sum / (double)len;
    double ss = 0.0;
    for (size_t i = 0; i < len; i++) {
        double d = x[i] - mu;
        ss += d * d;
    }
    *mean = mu;
    *sd = sqrt(ss / (double)len);
}

/* Lane k runs ucr_stats on x + k: each lane's sums are still left to
** right, so the bits are the same; the lanes fill SIMD registers, which
** one latency-bound left-to-right sum cannot. */
void ucr_stats8(const double *x, size_t len, double mean[UCR_LANES], double sd[UCR_LANES]) {
    double sum[UCR_LANES] = { 0 }, ss[UCR_LANES] = { 0 }, mu[UCR_LANES];
    for (size_t i = 0; i < len; i++)
        for (int k = 0; k < UCR_LANES; k++) sum[k] += x[i + k];
    for (int k = 0; k < UCR_LANES; k++) mu[k] = sum[k] / (double)len;
    for (size_t i = 0; i < len; i++)
        for (int k = 0; k < UCR_LANES; k++) {
            double d = x[i + k] - mu[k];
            ss[k] += d * d;
        }
    for (int k = 0; k < UCR_LANES; k++) {
        mean[k] = mu[k];
        sd[k] = sqrt(ss[k] / (double)len);
    }
}

/* ---- envelopes (Lemire's streaming max / min: two monotonic deques) ------ */

void ucr_envelope(const double *x, size_t n, size_t r, double *up, double *lo, size_t *dq_a,
                  size_t *dq_b) {
    if (r > n) r = n;                      /* wider reaches nothing more; keeps n + r small */
    size_t af = 0, ab = 0, bf = 0, bb = 0; /* [front, back) of each deque */
    for (size_t k = 0; k < n + r; k++) {
        if (k < n) {
            while (ab > af && x[dq_a[ab - 1]] <= x[k]) ab--;
            dq_a[ab++] = k;
            while (bb > bf && x[dq_b[bb - 1]] >= x[k]) bb--;
            dq_b[bb++] = k;
        }
        if (k >= r) { /* every sample up to i + r is in: emit i */
            size_t i = k - r;
            while (dq_a[af] + r < i) af++;
            while (dq_b[bf] + r < i) bf++;
            up[i] = x[dq_a[af]];
            lo[i] = x[dq_b[bf]];
        }
    }
}

/* ---- LB_Kim ---------------------------------------------------------------- */

/* The cheapest cell of layer k from the start (qs = q, zs = the window's
** first samples) or, called with the query and window read backwards, from
** the end: cells with max(i, j) = k, i < m, j < L. */
static double kim_layer(wm_dtw_cost_t c, const double *qs, ptrdiff_t qstep, size_t m,
                        const double *zs, size_t L, size_t k) {
    double best = INFINITY;
    if (k < m) /* row k, columns 0..min(k, L - 1) */
        for (size_t j = 0; j <= k && j < L; j++) {
            double v = wm_dtw_cost(c, qs[(ptrdiff_t)k * qstep], zs[j]);
            if (v < best) best = v;
        }
    if (k < L) /* column k, rows 0..min(k - 1, m - 1) */
        for (size_t i = 0; i < k && i < m; i++) {
            double v = wm_dtw_cost(c, qs[(ptrdiff_t)i * qstep], zs[k]);
            if (v < best) best = v;
        }
    return best;
}

double ucr_lb_kim(const ucr_query_t *uq, const double *x, double mean, double sd, double cut) {
    size_t m = uq->m, L = uq->len, big = m > L ? m : L;
    const double *q = uq->q;
    double zf[3], zb[3]; /* the window's first and last samples, normalised */
    size_t nz = L < 3 ? L : 3;
    for (size_t k = 0; k < nz; k++) {
        zf[k] = ucr_z(x[k], mean, sd);
        zb[k] = ucr_z(x[L - 1 - k], mean, sd);
    }
    if (big == 1) return wm_dtw_cost(uq->cost, q[0], zf[0]); /* one cell, counted once */
    /* Front layer k and back layer k' share no cell while k + k' < big - 1. */
    size_t layers = big >= 6 ? 3 : big >= 4 ? 2 : 1;
    double lb = 0.0;
    for (size_t k = 0; k < layers; k++) {
        lb += kim_layer(uq->cost, q, 1, m, zf, L, k);
        lb += kim_layer(uq->cost, q + (m - 1), -1, m, zb, L, k);
        if (lb > cut) return lb;
    }
    return lb;
}

/* ---- LB_Keogh ---------------------------------------------------------------- */

/* The cost from v to the interval [lo, hi], 0 inside. */
static inline double to_interval(wm_dtw_cost_t c, double v, double lo, double hi) {
    if (v > hi) return wm_dtw_cost(c, v, hi);
    if (v < lo) return wm_dtw_cost(c, v, lo);
    return 0.0;
}

double ucr_lb_keogh_eq(const ucr_query_t *uq, const double *x, double mean, double sd, double cut,
                       double *terms) {
    double lb = 0.0;
    for (size_t t = 0; t < uq->m; t++) {
        size_t j = uq->order[t];
        double d = to_interval(uq->cost, ucr_z(x[j], mean, sd), uq->lo[j], uq->up[j]);
        terms[j] = d;
        lb += d;
        if (lb > cut) return lb;
    }
    return lb;
}

double ucr_lb_keogh_ec(const ucr_query_t *uq, const double *xu, const double *xl, double mean,
                       double sd, double cut, double *terms) {
    double lb = 0.0;
    for (size_t t = 0; t < uq->m; t++) {
        size_t i = uq->order[t];
        double v = uq->q[i], d = 0.0;
        /* Normalising is monotonic, so the envelope's normalised ends are
        ** the max / min of the normalised window samples it covers. */
        double hi = ucr_z(xu[i], mean, sd);
        if (v > hi) {
            d = wm_dtw_cost(uq->cost, v, hi);
        } else {
            double lo = ucr_z(xl[i], mean, sd);
            if (v < lo) d = wm_dtw_cost(uq->cost, v, lo);
        }
        terms[i] = d;
        lb += d;
        if (lb > cut) return lb;
    }
    return lb;
}
