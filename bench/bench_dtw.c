/*
** bench_dtw.c -- subsequence DTW (issue 6) on a real signal: the MIT-BIH
** record 100 ECG (lead MLII, 650,000 samples at 360 Hz) repeated end to end
** to the series length asked for, and queries cut from the other lead (V5)
** of the same record, so that no query is an exact copy of the series.
**
**   bench_dtw CSV.gz [--backend cpu|cuda] [--threads T] [--m 128,1024,4096]
**             [--n 4194304,67108864] [--queries Q] [--reps 5] [--cost abs|squared]
**             [--top K] [--piece N]   (K > 1 runs the start-tracking kernels; N
**             samples a piece: tiny pieces for the sanitizer)
**             [--calls C] [--target 1]  (the queries in C calls, as the CLI
**             makes them; the series kept on the GPU across calls and reps)
**             [--precision f64|f32] [--warmup W] [--min-piece P] [--stripe 512]
**             [--window-rows 1|2|4]  (the GPU's tuning: pass 1's early
**             columns, the shortest piece, the rows a stripe, the rows a lane
**             of the start's window; 0 or absent: the library's)
**
** One line per (m, n): the device, median wall time of the library call
** (wm_dtw, or wm_dtw_many with Q queries), cells (m x n x queries) per
** second, the ratio to the targets (GPU: 1.4e12 cells/s for one
** query, 2e12 for many; f32: issue 19's 3e12; CPU: 1e9 a thread), and for
** the GPU the ratio to its arithmetic floor: 4 operations a cell (subtract,
** two minima, add; |.| is free) at 64 float64 lanes a multiprocessor (f32:
** 128 float32 lanes) and the clock in WM_GPU_CLOCK_MHZ (nvidia-smi's
** maximum SM clock).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/internal.h"
#include "io/signal.h"
#include "warpmatch.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static size_t parse_list(const char *s, uint64_t *out, size_t cap) {
    size_t k = 0;
    while (*s && k < cap) {
        char *e;
        out[k++] = strtoull(s, &e, 10);
        s = *e == ',' ? e + 1 : e;
        if (e == s && *e) break;
    }
    return k;
}

static double *read_lead(const char *path, const char *column, uint64_t *n) {
    wm_sigread_opts_t o = { .format = WM_SIGFMT_AUTO, .column = column };
    wm_sigs_t s;
    char err[512];
    if (wm_sig_read(path, &o, &s, err, sizeof err) != 0) {
        fprintf(stderr, "bench_dtw: %s\n", err);
        exit(2);
    }
    double *v = s.a[0].v;
    *n = s.a[0].n;
    s.a[0].v = NULL;
    wm_sigs_free(&s);
    return v;
}

/* The GPU's time split of the last call (tuning.timing), as one line. */
static void print_split(size_t m, uint64_t n, int nq, const wm_stats_t *s) {
    fprintf(stderr,
            "dtw gpu: m %zu n %llu queries %d calls %llu: setup+pin %.3f ms, h2d %.3f ms, "
            "pass 1 %.3f ms, fix-ups %.3f ms (%llu rounds), total (unpin included) %.3f ms\n",
            m, (unsigned long long)n, nq, (unsigned long long)s->dtw_gpu_calls,
            s->dtw_gpu_setup_s * 1e3, s->dtw_gpu_h2d_s * 1e3, s->dtw_gpu_pass_s * 1e3,
            s->dtw_gpu_fixup_s * 1e3, (unsigned long long)s->dtw_gpu_rounds,
            s->dtw_gpu_total_s * 1e3);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: bench_dtw CSV.gz [--backend cpu|cuda] [--threads T] [--m LIST] "
                        "[--n LIST] [--queries Q] [--reps R] [--cost abs|squared]\n");
        return 2;
    }
    const char *csv = argv[1];
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_CPU;
    uint64_t ms[8] = { 128, 1024, 4096 }, ns[8] = { 4194304, 67108864 };
    size_t nm = 3, nn = 2;
    int reps = 5, nq = 1, timing = 0, pin = 0, calls = 1, target = 0;
    uint64_t tune_warmup = 0, tune_piece = 0, tune_stripe = 0; /* 0: the library's */
    int tune_wrows = 0;
    wm_dtw_opts_t o = wm_dtw_opts_default();
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--backend"))
            co.backend = !strcmp(argv[i + 1], "cuda") ? WM_BACKEND_CUDA : WM_BACKEND_CPU;
        else if (!strcmp(argv[i], "--threads")) co.threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--m")) nm = parse_list(argv[i + 1], ms, 8);
        else if (!strcmp(argv[i], "--n")) nn = parse_list(argv[i + 1], ns, 8);
        else if (!strcmp(argv[i], "--queries")) nq = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--top")) o.top = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--piece")) co.chunk_bytes = 8 * strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--cost"))
            o.cost = !strcmp(argv[i + 1], "squared") ? WM_DTW_SQUARED : WM_DTW_ABS;
        else if (!strcmp(argv[i], "--timing")) timing = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--pin")) pin = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--calls")) calls = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--target")) target = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--warmup")) tune_warmup = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--min-piece")) tune_piece = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--stripe")) tune_stripe = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--window-rows")) tune_wrows = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--precision"))
            o.precision = !strcmp(argv[i + 1], "f32") ? WM_DTW_F32 : WM_DTW_F64;
        else {
            fprintf(stderr, "bench_dtw: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    uint64_t n_mlii, n_v5;
    double *mlii = read_lead(csv, "MLII[mV]", &n_mlii);
    double *v5 = read_lead(csv, "V5[mV]", &n_v5);

    wm_context_t *cx;
    wm_status st = wm_context_new(&co, &cx);
    if (st != WM_OK) {
        fprintf(stderr, "bench_dtw: %s\n", wm_context_errmsg(cx));
        return 2;
    }
    /* --timing 1: the GPU's time split per call on stderr (it waits for each
    ** phase, so the timed rows are slower); --pin 1: the series pinned. */
    wm_context_tuning(cx)->timing = timing;
    wm_context_tuning(cx)->dtw_pin_series = pin;
    if (tune_warmup) wm_context_tuning(cx)->dtw_warmup = tune_warmup;
    if (tune_piece) wm_context_tuning(cx)->dtw_min_piece = tune_piece;
    if (tune_stripe) wm_context_tuning(cx)->dtw_stripe = tune_stripe;
    if (tune_wrows) wm_context_tuning(cx)->dtw_window_rows = tune_wrows;
    char dev[256] = "cpu";
    int sm = 0;
    if (co.backend == WM_BACKEND_CUDA) {
        uint64_t tot, fr;
        wm_cuda_device_info(co.device, dev, sizeof dev, &tot, &fr, &sm);
    } else {
        FILE *f = fopen("/proc/cpuinfo", "r");
        char line[200];
        while (f && fgets(line, sizeof line, f))
            if (!strncmp(line, "model name", 10)) {
                char *c = strchr(line, ':');
                snprintf(dev, sizeof dev, "%s", c ? c + 2 : line);
                dev[strcspn(dev, "\n")] = 0;
                break;
            }
        if (f) fclose(f);
    }
    const char *clk = getenv("WM_GPU_CLOCK_MHZ");
    const int f32 = o.precision == WM_DTW_F32;
    double lane_ops = sm && clk ? (double)sm * (f32 ? 128 : 64) * atof(clk) * 1e6 : 0; /* ops/s */
    int threads = co.threads > 0 ? co.threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
    printf("# device: %s (%s backend, %d CPU threads), %s\n", dev,
           co.backend == WM_BACKEND_CUDA ? "cuda" : "cpu", threads, f32 ? "float32" : "float64");
    printf("# series: MIT-BIH 100 lead MLII (%llu samples), repeated to n; queries: lead V5\n",
           (unsigned long long)n_mlii);
    printf("# %-6s %-10s %-7s %-12s %-10s %-14s %-12s %s\n", "m", "n", "queries", "median_s",
           "GCUPS", "target_ratio", f32 ? "fp32_floor" : "fp64_floor", "best (query 0)");
    for (size_t in = 0; in < nn; in++) {
        uint64_t n = ns[in];
        double *y = malloc(n * sizeof *y);
        if (!y) {
            fprintf(stderr, "bench_dtw: out of memory\n");
            return 2;
        }
        for (uint64_t i = 0; i < n; i++) y[i] = mlii[i % n_mlii];
        for (size_t im = 0; im < nm; im++) {
            size_t m = ms[im];
            const double **qs = malloc(nq * sizeof *qs);
            size_t *lens = malloc(nq * sizeof *lens);
            for (int q = 0; q < nq; q++) { /* spread over the record */
                uint64_t off = (100003ull + (uint64_t)q * 5003ull) % (n_v5 - m);
                qs[q] = v5 + off;
                lens[q] = m;
            }
            wm_dtw_matches_t *out = calloc(nq, sizeof *out);
            double *t = malloc(reps * sizeof *t);
            /* --target 1: the series kept on the GPU across calls (made
            ** before the first rep, which uploads it); --calls C: the
            ** queries in C calls, as the CLI makes them */
            wm_target_t *tg = NULL;
            if (target && wm_target_new_series(cx, y, n, &tg) != WM_OK) return 2;
            if (calls < 1) calls = 1;
            for (int r = 0; r < reps; r++) {
                memset(&cx->stats, 0, sizeof cx->stats);
                double t0 = now_s();
                st = WM_OK;
                for (int c = 0; c < calls && st == WM_OK; c++) {
                    int lo = (int)((int64_t)nq * c / calls),
                        hi = (int)((int64_t)nq * (c + 1) / calls);
                    if (hi == lo) continue;
                    st = tg ? wm_dtw_many_target(cx, qs + lo, lens + lo, (size_t)(hi - lo), tg, &o,
                                                 out + lo)
                            : wm_dtw_many(cx, qs + lo, lens + lo, (size_t)(hi - lo), y, n, &o,
                                          out + lo);
                }
                t[r] = now_s() - t0;
                if (timing) print_split(m, n, nq, wm_context_stats(cx));
                if (st != WM_OK) {
                    fprintf(stderr, "bench_dtw: %s\n", wm_context_errmsg(cx));
                    return 2;
                }
                if (r + 1 < reps)
                    for (int q = 0; q < nq; q++) wm_dtw_matches_free(&out[q]);
            }
            qsort(t, reps, sizeof *t, cmp_d);
            double med = t[reps / 2];
            double cells = (double)m * (double)n * nq;
            double rate = cells / med;
            /* the targets: 1.4e12 cells/s for one query on the GPU,
            ** 2e12 for many; 1e9 a core on the CPU (printed per thread count) */
            double target = co.backend != WM_BACKEND_CUDA ? 1e9 * threads
                            : f32                         ? 3e12
                            : nq > 1                      ? 2e12
                                                          : 1.4e12;
            char floor_s[32] = "-";
            if (lane_ops > 0) snprintf(floor_s, sizeof floor_s, "%.3f", cells * 4 / lane_ops / med);
            printf("  %-6zu %-10llu %-7d %-12.5f %-10.1f %-14.3f %-12s [%llu,%llu) %.6g\n", m,
                   (unsigned long long)n, nq, med, rate / 1e9, rate / target, floor_s,
                   out[0].n ? (unsigned long long)out[0].a[0].start : 0ull,
                   out[0].n ? (unsigned long long)out[0].a[0].end : 0ull,
                   out[0].n ? out[0].a[0].distance : NAN);
            fflush(stdout);
            for (int q = 0; q < nq; q++) wm_dtw_matches_free(&out[q]);
            wm_target_free(tg);
            free(out);
            free(t);
            free(qs);
            free(lens);
        }
        free(y);
    }
    wm_context_free(cx);
    free(mlii);
    free(v5);
    return 0;
}
