/*
** bench_pycmp.c -- the C side of bench/bench_python.py: the same library
** calls the Python package makes, on the same bytes, timed the same way, so
** that the difference is the Python layer's overhead.
**
**   bench_pycmp pairs QUERIES TARGETS [--mode infix|global] [--cigar]
**               [--threads T] [--reps R]
**       QUERIES, TARGETS: one sequence a line ('\n' only); wm_align_pairs on
**       every pair (algo auto, no k) + wm_alignment_clear (the Python call
**       frees its CIGARs too)
**   bench_pycmp dtw QUERY SERIES [--threads T] [--reps R]
**       QUERY, SERIES: raw native float64 samples; wm_dtw (subsequence, abs,
**       top 1) + wm_dtw_matches_free
**
** Only public API (include/warpmatch.h), so it builds against an installed
** library: cc -O2 bench_pycmp.c $(pkg-config --cflags --libs warpmatch).
** The context (CPU backend, T threads, 0 = all cores) is made once, before
** the timing, as the Python package keeps its context between calls; one
** untimed run, then R timed runs [5]. Prints one line:
**   median_s S min_s S reps R items N checksum C
** (checksum: the distances summed, which bench_python.py compares with the
** Python call's, so both surely did the same work).
*/
#ifndef _GNU_SOURCE /* the CMake build defines it; a lone cc needs clock_gettime */
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <warpmatch.h>

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void die(const char *what, const char *detail) {
    fprintf(stderr, "bench_pycmp: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

/* The whole file, *len bytes (a NUL after them). */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open", path);
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap + 1);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) buf = realloc(buf, (cap *= 2) + 1);
    }
    if (!buf || ferror(f)) die("cannot read", path);
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

/* Lines of a file as pointers into it; the last line may lack its '\n'. */
static size_t split_lines(char *buf, size_t len, const uint8_t ***lines, size_t **lens) {
    size_t n = 0, cap = 1024;
    *lines = malloc(cap * sizeof **lines);
    *lens = malloc(cap * sizeof **lens);
    for (size_t i = 0; i < len;) {
        char *nl = memchr(buf + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - buf) : len;
        if (n == cap) {
            cap *= 2;
            *lines = realloc(*lines, cap * sizeof **lines);
            *lens = realloc(*lens, cap * sizeof **lens);
        }
        if (!*lines || !*lens) die("out of memory", NULL);
        (*lines)[n] = (const uint8_t *)buf + i;
        (*lens)[n++] = end - i;
        i = end + 1;
    }
    return n;
}

static wm_context_t *make_context(int threads) {
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_CPU;
    co.threads = threads;
    wm_context_t *cx = NULL;
    wm_status st = wm_context_new(&co, &cx);
    if (st != WM_OK) die("wm_context_new", wm_strerror(st));
    return cx;
}

typedef struct {
    wm_context_t *cx;
    const wm_pair_t *pairs;
    size_t n;
    wm_align_opts_t o;
    wm_alignment_t *out;
    const double *q, *s;
    size_t m;
    uint64_t len;
    double checksum;
} job_t;

static void run_pairs(job_t *j) {
    wm_status st = wm_align_pairs(j->cx, j->pairs, j->n, &j->o, j->out);
    if (st != WM_OK) die("wm_align_pairs", wm_context_errmsg(j->cx));
    double sum = 0;
    for (size_t i = 0; i < j->n; i++) sum += (double)j->out[i].distance;
    j->checksum = sum;
    wm_alignment_clear(j->out, j->n);
}

static void run_dtw(job_t *j) {
    wm_dtw_opts_t o = wm_dtw_opts_default();
    wm_dtw_matches_t r;
    wm_status st = wm_dtw(j->cx, j->q, j->m, j->s, j->len, &o, &r);
    if (st != WM_OK) die("wm_dtw", wm_context_errmsg(j->cx));
    j->checksum = r.n ? r.a[0].distance : -1;
    wm_dtw_matches_free(&r);
}

/* One untimed run, then `reps` timed ones; prints the line. The checksum is
** summed outside the timing (the Python side reads it from the result). */
static void time_runs(void (*run)(job_t *), job_t *j, int reps, size_t items) {
    double *t = malloc((size_t)reps * sizeof *t);
    if (!t) die("out of memory", NULL);
    run(j);
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        run(j);
        t[r] = now_s() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_d);
    printf("median_s %.6f min_s %.6f reps %d items %zu checksum %.17g\n", t[reps / 2], t[0], reps,
           items, j->checksum);
    free(t);
}

int main(int argc, char **argv) {
    if (argc < 4 || (strcmp(argv[1], "pairs") && strcmp(argv[1], "dtw")))
        die("usage: bench_pycmp pairs QUERIES TARGETS [--mode infix|global] [--cigar] "
            "[--threads T] [--reps R] | dtw QUERY SERIES [--threads T] [--reps R]",
            NULL);
    int threads = 0, reps = 5;
    wm_align_opts_t ao = wm_align_opts_default();
    for (int i = 4; i < argc; i++) {
        int more = i + 1 < argc;
        if (!strcmp(argv[i], "--cigar")) ao.cigar = 1;
        else if (!strcmp(argv[i], "--mode") && more)
            ao.mode = !strcmp(argv[++i], "global") ? WM_ALIGN_GLOBAL : WM_ALIGN_INFIX;
        else if (!strcmp(argv[i], "--threads") && more) threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && more) reps = atoi(argv[++i]);
        else die("unknown option", argv[i]);
    }
    if (reps < 1 || threads < 0) die("--reps must be >= 1 and --threads >= 0", NULL);
    job_t j = { 0 };
    j.cx = make_context(threads);
    size_t qlen, tlen;
    char *qbuf = read_file(argv[2], &qlen), *tbuf = read_file(argv[3], &tlen);
    if (!strcmp(argv[1], "pairs")) {
        const uint8_t **qs, **ts;
        size_t *qn, *tn;
        size_t n = split_lines(qbuf, qlen, &qs, &qn);
        if (split_lines(tbuf, tlen, &ts, &tn) != n) die("the two files differ in lines", NULL);
        wm_pair_t *pairs = malloc((n ? n : 1) * sizeof *pairs);
        j.out = calloc(n ? n : 1, sizeof *j.out);
        if (!pairs || !j.out) die("out of memory", NULL);
        for (size_t i = 0; i < n; i++) pairs[i] = (wm_pair_t){ qs[i], qn[i], ts[i], tn[i] };
        j.pairs = pairs;
        j.n = n;
        j.o = ao;
        time_runs(run_pairs, &j, reps, n);
        free(pairs);
        free(j.out);
        free(qs);
        free(qn);
        free(ts);
        free(tn);
    } else {
        j.q = (const double *)qbuf;
        j.m = qlen / sizeof(double);
        j.s = (const double *)tbuf;
        j.len = tlen / sizeof(double);
        time_runs(run_dtw, &j, reps, j.len);
    }
    free(qbuf);
    free(tbuf);
    wm_context_free(j.cx);
    return 0;
}
