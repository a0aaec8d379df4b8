/*
** bench_seqfile.c -- wm_seqfile_read_opts of a FASTA file timed on 1..T
** threads (the parallel parser of src/io/fasta_par.c; 1 thread is the
** serial parser), beside two floors: read(2) of the file into a buffer (one
** thread, what the page cache gives) and a plain "wc -l"-like memchr count
** over a mapping.
**
**   bench_seqfile [-t MAX_THREADS | -l T1,T2,...] [-r REPEATS] FILE
**
** Prints one line a measurement, median of REPEATS (5) reads, the file in
** the page cache (the first read, not timed, puts it there):
**   what=parse threads=T used=U bytes=N seq=S records=R median_s=X GBps=Y cpu_s=C
** GB/s are input bytes (10^9) a second; used: the threads that parsed (1 =
** the serial parser); cpu_s: the process's CPU seconds (user + system, all
** threads) of the median read, which on a shared machine says what the wall
** clock cannot: the parse's total work, so that cpu_s(1) / cpu_s(T) * T is
** the speed-up T free cores would give, memory bandwidth allowing; close_s:
** wm_seqfile_close's seconds (every record's name freed). -l times only the
** thread counts listed (a 64-core host: -l 1,4,16,64).
*/
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/seqfile.h"
#include "warpmatch.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double cpu_now(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *t, int n) {
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* read(2) of the whole file into buf: seconds. */
static double time_read(const char *path, uint8_t *buf, size_t n) {
    double t0 = now();
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    return now() - t0;
}

/* mmap + count '\n' with memchr: seconds (the count into *lines). */
static double time_lines(const char *path, size_t n, size_t *lines) {
    double t0 = now();
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    const uint8_t *m = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return -1;
    size_t c = 0;
    const uint8_t *p = m, *end = m + n;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        c++;
        p++;
    }
    munmap((void *)m, n);
    *lines = c;
    return now() - t0;
}

int main(int argc, char **argv) {
    int max_t = (int)sysconf(_SC_NPROCESSORS_ONLN), reps = 5, i = 1, list[64], n_list = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-t") && i + 1 < argc) max_t = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-l") && i + 1 < argc) {
            char *p = argv[++i];
            while (*p && n_list < 64) {
                list[n_list] = (int)strtol(p, &p, 10);
                if (list[n_list++] < 1 || (*p && *p != ',')) {
                    max_t = 0; /* the usage line */
                    break;
                }
                p += *p == ',';
            }
        } else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
        else break;
    }
    if (i + 1 != argc || max_t < 1 || reps < 1 || reps > 101) {
        fprintf(stderr, "usage: bench_seqfile [-t MAX_THREADS | -l T1,T2,...] [-r REPEATS] FILE\n");
        return 2;
    }
    const char *path = argv[i];
    struct stat st;
    if (stat(path, &st) != 0 || st.st_size <= 0) {
        fprintf(stderr, "bench_seqfile: %s: not a non-empty file\n", path);
        return 2;
    }
    size_t n = (size_t)st.st_size;
    double t[101];
    char err[512];

    uint8_t *buf = malloc(n);
    if (!buf) return 2;
    memset(buf, 0, n); /* faulted in: the read's time is the copy's */
    for (int r = 0; r <= reps; r++) {
        double s = time_read(path, buf, n);
        if (r > 0) t[r - 1] = s; /* the first one fills the page cache */
    }
    free(buf);
    double m = median(t, reps);
    printf("what=read threads=1 bytes=%zu median_s=%.4f GBps=%.2f\n", n, m, n / m / 1e9);
    size_t lines = 0;
    for (int r = 0; r < reps; r++) t[r] = time_lines(path, n, &lines);
    m = median(t, reps);
    printf("what=memchr_lines threads=1 bytes=%zu lines=%zu median_s=%.4f GBps=%.2f\n", n, lines, m,
           n / m / 1e9);

    if (n_list == 0)
        for (int th = 1; th <= max_t && n_list < 64; th++) list[n_list++] = th;
    for (int li = 0; li < n_list; li++) {
        int th = list[li];
        wm_seqfile_opts_t o = wm_seqfile_opts_default();
        o.threads = th;
        wm_seqfile_t sf;
        uint64_t seq = 0;
        size_t recs = 0;
        int used = 0;
        double c[101], tc[101], cl[101];
        for (int r = 0; r < reps; r++) {
            double t0 = now(), c0 = cpu_now();
            wm_status rc = wm_seqfile_read_opts(path, 0, &o, &sf, err, sizeof err);
            t[r] = now() - t0;
            c[r] = cpu_now() - c0;
            if (rc != WM_OK) {
                fprintf(stderr, "bench_seqfile: %s\n", err);
                return 1;
            }
            seq = sf.text.len;
            recs = sf.text.n_rec;
            used = sf.parse_threads;
            double t1 = now();
            wm_seqfile_close(&sf);
            cl[r] = now() - t1;
        }
        memcpy(tc, t, sizeof t);
        m = median(tc, reps);
        double cm = 0;
        for (int r = 0; r < reps; r++)
            if (t[r] == m) cm = c[r]; /* odd repeats: the median's own; else the last equal */
        if (reps % 2 == 0) cm = median(c, reps);
        printf("what=parse threads=%d used=%d bytes=%zu seq=%llu records=%zu median_s=%.4f "
               "GBps=%.2f cpu_s=%.4f close_s=%.4f\n",
               th, used, n, (unsigned long long)seq, recs, m, n / m / 1e9, cm, median(cl, reps));
    }
    return 0;
}
