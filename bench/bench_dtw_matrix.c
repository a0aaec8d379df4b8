/*
** bench_dtw_matrix.c -- DTW distance matrices (wm_dtw_matrix, issue 19 item
** 4): N series of L samples against each other, on the CPU and the GPU in
** the same run, and the bits of the two compared.
**
**   bench_dtw_matrix CSV.gz [--series 1000] [--len 500] [--windows -1,0.1]
**                    [--cost abs|squared] [--backends cpu,cuda] [--threads T]
**                    [--reps 5] [--scalar 1] [--precision f64|f32]
**
** --scalar 1: the CPU runs the scalar DP, not the SIMD strips (to compare);
** --band-strips S: bands of S strips' rows or wider run in strips.
** Series: N stretches of L samples of the MIT-BIH record 100 (lead MLII),
** spread evenly over its 650,000 samples: real heartbeats, no two alike. A
** window below 1 is a fraction of L (the radius floor(f L)); -1 is none.
**
** One line per (backend, window): the median wall time of the whole
** wm_dtw_matrix call of the N x N matrix (each of the N (N - 1) / 2 pairs
** once; signals uploaded, results copied back), the DP cells in the band
** (L^2 a pair with no band), cells per second, and for the GPU its floor
** (4 operations a cell: subtract, two minima, add; |.| is free; 64 float64
** lanes a multiprocessor, 128 float32, at WM_GPU_CLOCK_MHZ) and whether
** its matrix has the CPU's bits.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "core/internal.h"
#include "io/signal.h"
#include "warpmatch.h"

static size_t parse_doubles(const char *s, double *out, size_t cap) {
    size_t k = 0;
    while (*s && k < cap) {
        char *e;
        out[k++] = strtod(s, &e);
        if (e == s) break;
        s = *e == ',' ? e + 1 : e;
    }
    return k;
}

/* Cells of an m x n pair inside the band of radius r (< 0: all). */
static double band_cells(uint64_t m, uint64_t n, int64_t r) {
    if (r < 0) return (double)m * (double)n;
    double c = 0;
    for (uint64_t i = 0; i < m; i++) {
        int64_t lo = (int64_t)i - r - (m > n ? (int64_t)(m - n) : 0);
        int64_t hi = (int64_t)i + r + (n > m ? (int64_t)(n - m) : 0);
        if (lo < 0) lo = 0;
        if (hi > (int64_t)n - 1) hi = (int64_t)n - 1;
        if (hi >= lo) c += (double)(hi - lo + 1);
    }
    return c;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: bench_dtw_matrix CSV.gz [--series N] [--len L] [--windows LIST] "
                        "[--cost abs|squared] [--backends cpu,cuda] [--threads T] [--reps R]\n");
        return 2;
    }
    size_t N = 1000, L = 500;
    double win[8] = { -1 };
    size_t nwin = 1;
    int reps = 5, threads = 0, want_cpu = 1, want_gpu = 1, scalar = 0, band_strips = 0;
    wm_dtw_opts_t o = wm_dtw_opts_default();
    o.mode = WM_DTW_GLOBAL;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--series")) N = (size_t)atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--len")) L = (size_t)atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--windows")) nwin = parse_doubles(argv[i + 1], win, 8);
        else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--scalar")) scalar = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--band-strips")) band_strips = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--precision"))
            o.precision = !strcmp(argv[i + 1], "f32") ? WM_DTW_F32 : WM_DTW_F64;
        else if (!strcmp(argv[i], "--cost"))
            o.cost = !strcmp(argv[i + 1], "squared") ? WM_DTW_SQUARED : WM_DTW_ABS;
        else if (!strcmp(argv[i], "--backends")) {
            want_cpu = strstr(argv[i + 1], "cpu") != NULL;
            want_gpu = strstr(argv[i + 1], "cuda") != NULL;
        } else {
            fprintf(stderr, "bench_dtw_matrix: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    wm_sigread_opts_t ro = { .format = WM_SIGFMT_AUTO, .column = "MLII[mV]" };
    wm_sigs_t s;
    char err[512];
    if (wm_sig_read(argv[1], &ro, &s, err, sizeof err) != 0) {
        fprintf(stderr, "bench_dtw_matrix: %s\n", err);
        return 2;
    }
    if (s.a[0].n < L + N) {
        fprintf(stderr, "bench_dtw_matrix: the record is too short for %zu x %zu\n", N, L);
        return 2;
    }
    const double **sig = malloc(N * sizeof *sig);
    size_t *len = malloc(N * sizeof *len);
    uint64_t stride = (s.a[0].n - L) / N;
    for (size_t i = 0; i < N; i++) {
        sig[i] = s.a[0].v + i * stride;
        len[i] = L;
    }
    double *ref = malloc(N * N * sizeof *ref), *got = malloc(N * N * sizeof *got);
    double *t = malloc(reps * sizeof *t);
    if (!sig || !len || !ref || !got || !t) {
        fprintf(stderr, "bench_dtw_matrix: out of memory\n");
        return 2;
    }
    bu_print_device();
    const int f32 = o.precision == WM_DTW_F32;
    printf("# %zu series of %zu samples (MIT-BIH 100 MLII), %s cost, %s, %zu pairs, median of "
           "%d\n",
           N, L, o.cost == WM_DTW_SQUARED ? "squared" : "abs", f32 ? "float32" : "float64",
           N * (N - 1) / 2, reps);
    printf("# %-7s %-8s %-10s %-12s %-12s %-10s %s\n", "backend", "window", "median_s", "cells",
           "T_cells/s", f32 ? "fp32_floor" : "fp64_floor", "same bits as cpu");
    const char *clk = getenv("WM_GPU_CLOCK_MHZ");
    for (size_t w = 0; w < nwin; w++) {
        o.window = win[w] < 0   ? -1
                   : win[w] < 1 ? (int64_t)floor(win[w] * (double)L)
                                : (int64_t)win[w];
        double cells = band_cells(L, L, o.window) * (double)(N * (N - 1) / 2);
        int have_ref = 0;
        for (int b = 0; b < 2; b++) {
            if ((b == 0 && !want_cpu) || (b == 1 && !want_gpu)) continue;
            wm_context_opts_t co = wm_context_opts_default();
            co.backend = b ? WM_BACKEND_CUDA : WM_BACKEND_CPU;
            co.threads = threads;
            wm_context_t *cx;
            if (wm_context_new(&co, &cx) != WM_OK) {
                printf("  %-7s skipped: %s\n", b ? "cuda" : "cpu", wm_context_errmsg(cx));
                wm_context_free(cx);
                continue;
            }
            if (scalar) wm_context_tuning(cx)->simd = WM_SIMD_NONE; /* the scalar DP */
            wm_context_tuning(cx)->dtw_band_strips = band_strips;
            double *out = b == 0 || !have_ref ? ref : got;
            for (int r = 0; r < reps; r++) {
                double t0 = bu_now_s();
                wm_status st = wm_dtw_matrix(cx, sig, len, N, NULL, NULL, 0, &o, out);
                t[r] = bu_now_s() - t0;
                if (st != WM_OK) {
                    fprintf(stderr, "bench_dtw_matrix: %s\n", wm_context_errmsg(cx));
                    return 2;
                }
            }
            double med = bu_median(t, (size_t)reps);
            char floor_s[32] = "-", same[64] = "-";
            int sm = 0;
            if (b) {
                char name[256];
                uint64_t tot, fr;
                wm_cuda_device_info(0, name, sizeof name, &tot, &fr, &sm);
                if (clk && sm)
                    snprintf(floor_s, sizeof floor_s, "%.3f",
                             cells * 4 / ((double)sm * (f32 ? 128 : 64) * atof(clk) * 1e6) / med);
            }
            if (b && out == got) {
                size_t diff = 0;
                for (size_t e = 0; e < N * N; e++) diff += memcmp(&got[e], &ref[e], 8) != 0;
                snprintf(same, sizeof same, diff ? "NO: %zu entries differ" : "yes", diff);
            }
            if (b == 0) have_ref = 1;
            char wname[32];
            snprintf(wname, sizeof wname, o.window < 0 ? "none" : "%lld", (long long)o.window);
            printf("  %-7s %-8s %-10.5f %-12.4g %-12.4f %-10s %s\n", b ? "cuda" : "cpu", wname, med,
                   cells, cells / med / 1e12, floor_s, same);
            fflush(stdout);
            wm_context_free(cx);
        }
    }
    wm_sigs_free(&s);
    free(sig), free(len), free(ref), free(got), free(t);
    return 0;
}
