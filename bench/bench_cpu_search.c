/*
** bench_cpu_search.c -- the CPU backend timed the way bench/peers/hs_count
** times Hyperscan: the text in memory, the scan alone (every match found,
** its start resolved, counted), median of repeats.
**
**   bench_cpu_search [-k K] [-t THREADS] [-r REPEATS] [--hamming] PATTERN FILE
**
** Prints `device: <cpu>` and one line in hs_count's format:
**   warpmatch-cpu k=K m=M threads=T bytes=N matches=C median_s=X GBps=Y algo=A
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/seqfile.h"
#include "warpmatch.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int count_cb(const wm_match_t *m, void *user) {
    (void)m;
    ++*(uint64_t *)user;
    return 0;
}

static void cpu_model(char *out, size_t n) {
    snprintf(out, n, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10)) {
            char *c = strchr(line, ':');
            if (c) {
                snprintf(out, n, "%s", c + 2);
                out[strcspn(out, "\n")] = 0;
            }
            break;
        }
    fclose(f);
}

int main(int argc, char **argv) {
    int k = 0, threads = 1, reps = 5, hamming = 0, i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-k") && i + 1 < argc) k = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-t") && i + 1 < argc) threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--hamming")) hamming = 1;
        else break;
    }
    if (argc - i != 2 || reps < 1) {
        fprintf(
            stderr,
            "usage: bench_cpu_search [-k K] [-t THREADS] [-r REPEATS] [--hamming] PATTERN FILE\n");
        return 2;
    }
    const char *pat = argv[i], *path = argv[i + 1];
    wm_seqfile_t sf;
    char err[512];
    if (wm_seqfile_read(path, 1, &sf, err, sizeof err) != WM_OK) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    wm_opts_t o = wm_opts_default();
    o.max_edits = (uint32_t)k;
    o.metric = hamming ? WM_METRIC_HAMMING : WM_METRIC_EDIT;
    wm_db_t *db;
    wm_status st = wm_compile((const uint8_t *)pat, strlen(pat), &o, &db);
    if (st != WM_OK) {
        fprintf(stderr, "compile: %s\n", wm_strerror(st));
        return 2;
    }
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_CPU;
    co.threads = threads;
    wm_context_t *cx;
    if (wm_context_new(&co, &cx) != WM_OK) {
        fprintf(stderr, "context failed\n");
        return 2;
    }

    /* touch the pages once, untimed, as hs_count's verification pass does */
    uint64_t count = 0;
    wm_search(cx, db, &sf.text, count_cb, &count);
    double *t = calloc((size_t)reps, sizeof *t);
    for (int r = 0; r < reps; r++) {
        uint64_t c = 0;
        double t0 = now();
        st = wm_search(cx, db, &sf.text, count_cb, &c);
        t[r] = now() - t0;
        if (st != WM_OK || c != count) {
            fprintf(stderr, "inconsistent run\n");
            return 2;
        }
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    printf("device: %s\n", cpu);
    printf("warpmatch-cpu k=%d m=%zu threads=%d bytes=%llu matches=%llu median_s=%.4f GBps=%.3f "
           "algo=%s\n",
           k, strlen(pat), threads, (unsigned long long)sf.text.len, (unsigned long long)count,
           t[reps / 2], sf.text.len / t[reps / 2] / 1e9, wm_algo_name(wm_db_algo(db)));
    free(t);
    wm_context_free(cx);
    wm_db_free(db);
    wm_seqfile_close(&sf);
    return 0;
}
