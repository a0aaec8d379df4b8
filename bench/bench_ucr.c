/*
** bench_ucr.c -- ucr mode's search (src/dtw/ucr.c, the UCR Suite's cascade)
** on a real signal: time per query and how many windows each bound drops.
**
**   bench_ucr [options] SERIES
**
** SERIES: raw little-endian float64 samples (or, with --text, one number per
** line). The ECG the numbers in BENCHMARKS come from, MIT-BIH record 100,
** lead MLII (650,000 samples at 360 Hz):
**   zcat $WM_SHARED_DATA/timeseries/ecg/mitdb100.csv.gz | tail -n +3 |
**     cut -d, -f1 > mitdb100_mlii.txt
**   bench_ucr --text mitdb100_mlii.txt
**
** The query: a copy of series[offset, offset + m) plus Gaussian noise of
** noise x that stretch's sd (a query that is in the data, slightly off, as
** the UCR Suite's ECG experiments use), z-normalised as wm_dtw does. Each
** cell (m, band, threads) runs once untimed, then REPS times; the median is
** reported. The search is wm_dtw_ucr_cpu itself (through ucr_search, which
** also counts), top 1, squared cost by default, L = m.
**
** Options:
**   -m LIST        query lengths, comma separated [128,1024]
**   -b LIST        band radii in percent of m [5,10]
**   -t LIST        thread counts [1,2]
**   -r REPS        timed runs per cell [5]
**   --offset N     where the query is copied from [n / 2]
**   --noise X      noise sd relative to the stretch's sd [0.1]
**   --cost C       abs or squared [squared]
**   --seed S       for the noise [1]
**   --text         SERIES is text, one value per line
**   --repeat N     the series repeated end to end to N samples
**   --gpu          after the CPU rows, the same search on the GPU (wm_dtw,
**                  --backend cuda: bounds of every window, sorted, exact
**                  DTW in bound order); its row has threads "gpu" and must
**                  find the CPU's distance and start
**   --rows LIST    with --gpu, a GPU row for each of these rows a lane of
**                  the windows' exact DTW (tuning.dtw_ucr_rows; 0: the
**                  cost model's) [0]; each row is followed by a "# gpu
**                  split" line of the last timed run: the rest (the series'
**                  copy and envelope, buffers, the query), the bounds
**                  ranked, the exact DTW, windows whose DTW ran, batches
**   --ec LIST      with --gpu, each row for each of these: 1 the windows'
**                  LB_Keogh EC by rows (the default), 0 without
**                  (tuning.dtw_ucr_ec = -1) [1]
**
** Output: "# " lines, then one row per cell:
**   m band R threads reps median_s windows_per_s distance start kim% eq% ec% abandoned% full%
** windows_per_s = (n - m + 1) / median_s. The last five columns split the
** windows of the last timed run by what stopped them: LB_Kim, LB_Keogh EQ,
** LB_Keogh EC, abandoned during the DTW, or a DTW computed to the end. With
** several threads the split moves a little (threads see each other's best
** later); distance and start must not (a difference prints "!!! MISMATCH"
** and the exit code is 1).
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/internal.h"
#include "dtw/ucr.h"
#include "warpmatch.h"

#define MAX_LIST 16

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int parse_list(const char *s, long *v, int cap) {
    int n = 0;
    while (*s && n < cap) {
        char *end;
        v[n++] = strtol(s, &end, 10);
        if (end == s) return -1;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return -1;
    }
    return n;
}

static double *read_series(const char *path, int text, uint64_t *n) {
    FILE *f = fopen(path, text ? "r" : "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    double *x = malloc(cap * sizeof *x);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            double *t = realloc(x, cap * sizeof *x);
            if (!t) break;
            x = t;
        }
        if (!x) break;
        if (text) {
            if (fscanf(f, "%lf", &x[len]) != 1) break;
            len++;
        } else {
            size_t got = fread(x + len, sizeof *x, cap - len, f);
            len += got;
            if (got == 0) break;
        }
    }
    fclose(f);
    *n = len;
    return x;
}

/* Box-Muller on a splitmix64 stream: the noise needs no quality beyond this. */
static uint64_t g_rng = 1;
static double gauss(void) {
    double u[2];
    for (int k = 0; k < 2; k++) {
        uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        u[k] = (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
    }
    return sqrt(-2.0 * log(u[0] + 0x1p-60)) * cos(6.283185307179586 * u[1]);
}

static void print_cpu(void) {
    char line[256], model[256] = "unknown CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
                snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
                model[strcspn(model, "\n")] = 0;
                break;
            }
        fclose(f);
    }
    printf("# device: %s\n", model);
}

/* The same search through wm_dtw on the GPU (the query normalised there):
** one untimed run, then reps; its row, and 1 when it differs from the CPU's. */
static int gpu_row(const double *q, size_t m, const double *y, uint64_t n, const wm_dtw_opts_t *o,
                   int reps, double ref_d, uint64_t ref_s, int rows, int ec) {
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_CUDA;
    wm_context_t *cx = NULL;
    if (wm_context_new(&co, &cx) != WM_OK) {
        printf("# gpu: %s\n", wm_context_errmsg(cx));
        wm_context_free(cx);
        return 0;
    }
    wm_context_tuning(cx)->dtw_ucr_rows = rows;
    wm_context_tuning(cx)->dtw_ucr_ec = ec ? 0 : -1;
    wm_context_tuning(cx)->timing = 1; /* one more wait, after the bounds */
    double times[64], d = -1;
    uint64_t s = 0;
    wm_stats_t split = { 0 };
    double last = 0;
    for (int r = -1; r < reps && r < 64; r++) {
        wm_dtw_matches_t out = { 0 };
        memset(&cx->stats, 0, sizeof cx->stats);
        double t0 = now_s();
        wm_status st = wm_dtw(cx, q, m, y, n, o, &out);
        double dt = now_s() - t0;
        if (st != WM_OK || out.n != 1) {
            fprintf(stderr, "bench_ucr: gpu search failed (%d: %s)\n", (int)st,
                    wm_context_errmsg(cx));
            wm_context_free(cx);
            return 1;
        }
        d = out.a[0].distance;
        s = out.a[0].start;
        wm_dtw_matches_free(&out);
        if (r >= 0) times[r] = dt;
        split = cx->stats;
        last = dt;
    }
    wm_context_free(cx);
    qsort(times, (size_t)reps, sizeof *times, cmp_double);
    double med = reps % 2 ? times[reps / 2] : 0.5 * (times[reps / 2 - 1] + times[reps / 2]);
    int differs = ref_d >= 0 && (memcmp(&d, &ref_d, sizeof d) != 0 || s != ref_s);
    printf("%zu - %lld gpu %d %.4f %.4g %.10g %llu - - - - -%s\n", m, (long long)o->window, reps,
           med, (double)(n - m + 1) / med, d, (unsigned long long)s,
           differs ? " !!! MISMATCH" : "");
    printf("# gpu split, EC %s, rows a lane %s%d: set-up %.2f ms, bounds ranked %.2f ms, exact "
           "DTW %.2f ms, %llu windows (%.2f%%) in %llu batches\n",
           ec ? "on" : "off", rows ? "" : "(model) ", rows,
           (last - split.dtw_ucr_rank_s - split.dtw_ucr_dtw_s) * 1e3, split.dtw_ucr_rank_s * 1e3,
           split.dtw_ucr_dtw_s * 1e3, (unsigned long long)split.dtw_ucr_windows,
           100.0 * (double)split.dtw_ucr_windows / (double)(n - m + 1),
           (unsigned long long)split.dtw_ucr_batches);
    fflush(stdout);
    return differs;
}

int main(int argc, char **argv) {
    long ms[MAX_LIST] = { 128, 1024 }, bands[MAX_LIST] = { 5, 10 }, ths[MAX_LIST] = { 1, 2 };
    long rows[MAX_LIST] = { 0 }, ecs[MAX_LIST] = { 1 };
    int n_m = 2, n_b = 2, n_t = 2, n_rows = 1, n_ec = 1, reps = 5, text = 0, gpu = 0;
    uint64_t repeat = 0;
    long long offset = -1;
    double noise = 0.1;
    uint64_t seed = 1;
    wm_dtw_cost_t cost = WM_DTW_SQUARED;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "-m") && v) bad = (n_m = parse_list(v, ms, MAX_LIST)) <= 0, i++;
        else if (!strcmp(a, "-b") && v) bad = (n_b = parse_list(v, bands, MAX_LIST)) <= 0, i++;
        else if (!strcmp(a, "-t") && v) bad = (n_t = parse_list(v, ths, MAX_LIST)) <= 0, i++;
        else if (!strcmp(a, "-r") && v) bad = (reps = atoi(v)) < 1, i++;
        else if (!strcmp(a, "--rows") && v)
            bad = (n_rows = parse_list(v, rows, MAX_LIST)) <= 0, i++;
        else if (!strcmp(a, "--ec") && v) bad = (n_ec = parse_list(v, ecs, MAX_LIST)) <= 0, i++;
        else if (!strcmp(a, "--offset") && v) offset = atoll(v), i++;
        else if (!strcmp(a, "--noise") && v) noise = atof(v), i++;
        else if (!strcmp(a, "--seed") && v) seed = strtoull(v, NULL, 0), i++;
        else if (!strcmp(a, "--cost") && v) {
            bad = strcmp(v, "abs") && strcmp(v, "squared");
            cost = !strcmp(v, "abs") ? WM_DTW_ABS : WM_DTW_SQUARED;
            i++;
        } else if (!strcmp(a, "--text")) text = 1;
        else if (!strcmp(a, "--gpu")) gpu = 1;
        else if (!strcmp(a, "--repeat") && v) repeat = strtoull(v, NULL, 0), i++;
        else if (a[0] != '-' && !path) path = a;
        else bad = 1;
        if (bad) {
            fprintf(stderr, "bench_ucr: bad argument %s (see the file's header)\n", a);
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: bench_ucr [options] SERIES (see bench/bench_ucr.c)\n");
        return 2;
    }
    uint64_t n;
    double *y = read_series(path, text, &n);
    if (!y || n == 0) {
        fprintf(stderr, "bench_ucr: no samples in %s\n", path);
        return 2;
    }
    if (repeat > n) { /* the record end to end, as bench_dtw does */
        double *r = realloc(y, repeat * sizeof *y);
        if (!r) {
            fprintf(stderr, "bench_ucr: out of memory for %llu samples\n",
                    (unsigned long long)repeat);
            return 2;
        }
        y = r;
        for (uint64_t i = n; i < repeat; i++) y[i] = y[i % n];
        n = repeat;
    }
    for (uint64_t i = 0; i < n; i++)
        if (!isfinite(y[i])) {
            fprintf(stderr, "bench_ucr: sample %llu is not finite\n", (unsigned long long)i);
            return 2;
        }
    print_cpu();
    printf("# series %s: %llu samples; cost %s; query = series[offset, offset + m) + %g sd "
           "noise\n",
           path, (unsigned long long)n, cost == WM_DTW_SQUARED ? "squared" : "abs", noise);
    printf("m band R threads reps median_s windows_per_s distance start kim%% eq%% ec%% "
           "abandoned%% full%%\n");

    int status = 0;
    for (int a = 0; a < n_m; a++) {
        size_t m = (size_t)ms[a];
        if (m < 1 || m > n) continue;
        uint64_t off = offset >= 0 ? (uint64_t)offset : n / 2;
        if (off + m > n) off = n - m;
        double *q = malloc(m * sizeof *q), *qz = malloc(m * sizeof *qz);
        double mean = 0, ss = 0;
        for (size_t i = 0; i < m; i++) mean += y[off + i];
        mean /= (double)m;
        for (size_t i = 0; i < m; i++) ss += (y[off + i] - mean) * (y[off + i] - mean);
        double sd = sqrt(ss / (double)m);
        g_rng = seed; /* the same query of length m whatever else -m lists */
        for (size_t i = 0; i < m; i++) q[i] = y[off + i] + noise * sd * gauss();
        wm_dtw_znorm(q, m, qz);
        for (int b = 0; b < n_b; b++) {
            wm_dtw_opts_t o = wm_dtw_opts_default();
            o.mode = WM_DTW_UCR;
            o.cost = cost;
            o.window = (int64_t)floor((double)bands[b] / 100.0 * (double)m);
            o.top = 1;
            double ref_d = -1;
            uint64_t ref_s = 0;
            for (int t = 0; t < n_t; t++) {
                wm_context_opts_t co = wm_context_opts_default();
                co.backend = WM_BACKEND_CPU;
                co.threads = (int)ths[t];
                wm_context_t *cx = NULL;
                if (wm_context_new(&co, &cx) != WM_OK) {
                    fprintf(stderr, "bench_ucr: no context of %ld threads\n", ths[t]);
                    return 2;
                }
                double times[64];
                ucr_counts_t cnt;
                wm_dtw_candvec_t out = { 0 };
                double d = -1;
                uint64_t s = 0;
                for (int r = -1; r < reps && r < 64; r++) {
                    memset(&cnt, 0, sizeof cnt);
                    out.n = 0;
                    double t0 = now_s();
                    wm_status st = ucr_search(cx, qz, m, y, n, &o, &out, &cnt);
                    double dt = now_s() - t0;
                    if (st != WM_OK || out.n != 1) {
                        fprintf(stderr, "bench_ucr: search failed (%d, %zu)\n", (int)st, out.n);
                        return 2;
                    }
                    d = out.a[0].distance;
                    s = out.a[0].start;
                    if (r >= 0) times[r] = dt;
                }
                wm_dtw_candvec_free(&out);
                wm_context_free(cx);
                qsort(times, (size_t)reps, sizeof *times, cmp_double);
                double med =
                    reps % 2 ? times[reps / 2] : 0.5 * (times[reps / 2 - 1] + times[reps / 2]);
                double w = (double)cnt.windows;
                printf("%zu %ld%% %lld %ld %d %.4f %.4g %.10g %llu %.2f %.2f %.2f %.2f %.2f%s\n", m,
                       bands[b], (long long)o.window, ths[t], reps, med, (double)(n - m + 1) / med,
                       d, (unsigned long long)s, 100.0 * (double)cnt.kim / w,
                       100.0 * (double)cnt.keogh_eq / w, 100.0 * (double)cnt.keogh_ec / w,
                       100.0 * (double)cnt.dtw_abandoned / w, 100.0 * (double)cnt.dtw_full / w,
                       ref_d >= 0 && (d != ref_d || s != ref_s) ? " !!! MISMATCH" : "");
                if (ref_d >= 0 && (d != ref_d || s != ref_s)) status = 1;
                ref_d = d;
                ref_s = s;
                fflush(stdout);
            }
            for (int k = 0; gpu && k < n_rows; k++)
                for (int e = 0; e < n_ec; e++)
                    if (gpu_row(q, m, y, n, &o, reps, ref_d, ref_s, (int)rows[k], ecs[e] != 0) != 0)
                        status = 1;
        }
        free(q);
        free(qz);
    }
    free(y);
    return status;
}
