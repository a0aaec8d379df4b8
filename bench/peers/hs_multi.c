/*
 * hs_multi.c - Hyperscan peer for the pattern-set benchmarks (issue 3).
 *
 * Counts what warpmatch's pattern sets count: every occurrence of every
 * pattern, overlapping ones included, one per (pattern id, end offset). The
 * patterns are compiled as literals with hs_compile_lit_multi (HS_MODE_BLOCK;
 * flags 0, or HS_FLAG_CASELESS with -i; no HS_FLAG_SINGLEMATCH), pattern id =
 * its 0-based line number, so duplicate lines are reported once per copy,
 * as ours are. Every match reaches the callback, which counts it (and, in the
 * per-pattern mode, adds one to counts[id]).
 *
 * Threads: the text (mmap'ed) is cut into T equal parts; thread t scans
 * [start_t - (maxlen - 1), end_t) with its own scratch and counts only the
 * matches whose end lies in (start_t, end_t]: every such match starts inside
 * the window, and none is counted twice.
 *
 * Modes, each timed as the median of R repeats after one untimed run:
 *   count        the callback counts matches (the total)
 *   per-pattern  the callback also counts per pattern id (--per-pattern, or
 *                both with --modes count,per-pattern); prints a checksum of
 *                the per-pattern counts: sum over ids of counts[id] *
 *                mix(id + 1) mod 2^64 (mix = splitmix64's finalizer), the
 *                same function bench_cpu_multi prints.
 * --compile-only: compile, print the time, the database size and peak RSS.
 *
 * Usage: hs_multi [-i] [-t THREADS] [-r REPEATS] [--modes LIST]
 *                 [--compile-only] PATTERN_FILE [TEXT_FILE]
 * PATTERN_FILE: one pattern per line ('\n' ends a line and is never part of a
 * pattern; every other byte is literal, '\r' and NUL included); an empty line
 * is an error. Output: "device: <cpu model> (N logical CPUs)", then one line
 *   hyperscan compile patterns=N minlen=A maxlen=B compile_s=X db_bytes=D peak_rss_mb=M
 * and per mode
 *   hyperscan algo=literal mode=M patterns=N threads=T bytes=B matches=C checksum=H median_s=X GBps=Y
 * (checksum=- in count mode). Exit: 0 ok, 2 usage/IO/inconsistent repeats,
 * 3 Hyperscan refused the set.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <hs/hs.h>

#define HSM_PIECE ((size_t)1 << 30) /* hs_scan takes an unsigned length */

typedef struct {
    const unsigned char *text;
    size_t start, end; /* count ends in (start, end] */
    size_t overlap;    /* maxlen - 1 */
    const hs_database_t *db;
    hs_scratch_t *scratch;
    uint64_t *counts; /* per pattern id, per-pattern mode; else NULL */
    size_t base;      /* absolute offset of the piece being scanned */
    size_t from;      /* count ends in (from, end] in this piece */
    uint64_t n;       /* matches counted */
    hs_error_t err;
} hsm_part_t;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void print_device(void) {
    char line[512], model[256] = "unknown CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) == 0) {
                char *p = strchr(line, ':');
                if (p) {
                    p++;
                    while (*p == ' ' || *p == '\t') p++;
                    p[strcspn(p, "\n")] = '\0';
                    snprintf(model, sizeof model, "%s", p);
                }
                break;
            }
        }
        fclose(f);
    }
    printf("device: %s (%ld logical CPUs)\n", model, sysconf(_SC_NPROCESSORS_ONLN));
}

/* Peak resident set (VmHWM) in MiB, -1 if unknown. */
static double peak_rss_mb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double mb = -1;
    if (f) {
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "VmHWM:", 6)) {
                mb = strtod(line + 6, NULL) / 1024.0;
                break;
            }
        fclose(f);
    }
    if (mb < 0) {
        struct rusage ru;
        if (!getrusage(RUSAGE_SELF, &ru)) mb = (double)ru.ru_maxrss / 1024.0;
    }
    return mb;
}

static int on_match_count(unsigned int id, unsigned long long from, unsigned long long to,
                          unsigned int flags, void *ctx) {
    hsm_part_t *p = ctx;
    uint64_t e = (uint64_t)p->base + to;
    (void)id;
    (void)from;
    (void)flags;
    if (e > p->from && e <= p->end) p->n++;
    return 0;
}

static int on_match_pp(unsigned int id, unsigned long long from, unsigned long long to,
                       unsigned int flags, void *ctx) {
    hsm_part_t *p = ctx;
    uint64_t e = (uint64_t)p->base + to;
    (void)from;
    (void)flags;
    if (e > p->from && e <= p->end) {
        p->n++;
        p->counts[id]++;
    }
    return 0;
}

/* Scan the part's window in pieces of at most HSM_PIECE bytes that overlap by
 * p->overlap, so no match is lost at a piece border. */
static void scan_part(hsm_part_t *p) {
    size_t lo = p->start > p->overlap ? p->start - p->overlap : 0;
    size_t counted = p->start;
    match_event_handler cb = p->counts ? on_match_pp : on_match_count;
    p->n = 0;
    p->err = HS_SUCCESS;
    while (counted < p->end) {
        size_t hi = p->end - lo > HSM_PIECE ? lo + HSM_PIECE : p->end;
        p->base = lo;
        p->from = counted;
        p->err = hs_scan(p->db, (const char *)p->text + lo, (unsigned int)(hi - lo), 0, p->scratch,
                         cb, p);
        if (p->err != HS_SUCCESS) return;
        counted = hi;
        lo = hi > p->overlap ? hi - p->overlap : 0;
    }
}

static void *scan_thread(void *arg) {
    scan_part(arg);
    return NULL;
}

/* Patterns: the file's lines. Returns the count, or 0 after a message. */
static size_t read_patterns(const char *path, char **buf_out, const char ***pats, size_t **lens,
                            size_t *minlen, size_t *maxlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "hs_multi: %s: %s\n", path, strerror(errno));
        return 0;
    }
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fprintf(stderr, "hs_multi: out of memory\n");
            fclose(f);
            return 0;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        char *nb = realloc(buf, cap * 2);
        if (!nb) free(buf);
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    size_t lines = 0;
    for (size_t i = 0; i < n; i++) lines += buf[i] == '\n';
    if (n > 0 && buf[n - 1] != '\n') lines++;
    if (lines == 0) {
        fprintf(stderr, "hs_multi: %s: no patterns\n", path);
        return 0;
    }
    *pats = malloc(lines * sizeof **pats);
    *lens = malloc(lines * sizeof **lens);
    if (!*pats || !*lens) {
        fprintf(stderr, "hs_multi: out of memory\n");
        return 0;
    }
    size_t k = 0, s = 0;
    *minlen = SIZE_MAX;
    *maxlen = 0;
    for (size_t i = 0; i <= n && k < lines; i++) {
        if (i == n || buf[i] == '\n') {
            size_t l = i - s;
            if (l == 0) {
                fprintf(stderr, "hs_multi: %s:%zu: empty pattern\n", path, k + 1);
                return 0;
            }
            (*pats)[k] = buf + s;
            (*lens)[k] = l;
            if (l < *minlen) *minlen = l;
            if (l > *maxlen) *maxlen = l;
            k++;
            s = i + 1;
        }
    }
    *buf_out = buf;
    return k;
}

/* 1 when the comma-separated LIST names NAME */
static int has_mode(const char *list, const char *name) {
    size_t l = strlen(name);
    for (const char *p = list; *p;) {
        size_t w = strcspn(p, ",");
        if (w == l && !strncmp(p, name, l)) return 1;
        p += w;
        if (*p) p++;
    }
    return 0;
}

static void usage(FILE *f) {
    fprintf(f, "usage: hs_multi [-i] [-t THREADS] [-r REPEATS] [--modes LIST] [--per-pattern]\n"
               "                [--compile-only] PATTERN_FILE [TEXT_FILE]\n"
               "  -i              caseless (HS_FLAG_CASELESS)\n"
               "  -t THREADS      threads; the text is split into equal parts [1]\n"
               "  -r REPEATS      timed repeats; the median is printed [5]\n"
               "  --modes LIST    count,per-pattern (comma separated) [count]\n"
               "  --per-pattern   same as --modes per-pattern\n"
               "  --compile-only  compile, print time, database size and peak RSS, exit\n");
}

int main(int argc, char **argv) {
    long n_threads = 1, n_rep = 5;
    int caseless = 0, compile_only = 0, i;
    const char *modes = "count", *pat_path = NULL, *path = NULL;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0') {
            if (!pat_path) pat_path = a;
            else if (!path) path = a;
            else {
                usage(stderr);
                return 2;
            }
        } else if (!strcmp(a, "-i")) caseless = 1;
        else if (!strcmp(a, "-t") && i + 1 < argc) n_threads = strtol(argv[++i], NULL, 10);
        else if (!strcmp(a, "-r") && i + 1 < argc) n_rep = strtol(argv[++i], NULL, 10);
        else if (!strcmp(a, "--modes") && i + 1 < argc) modes = argv[++i];
        else if (!strcmp(a, "--per-pattern")) modes = "per-pattern";
        else if (!strcmp(a, "--compile-only")) compile_only = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "hs_multi: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!pat_path || (!path && !compile_only) || n_threads < 1 || n_rep < 1) {
        usage(stderr);
        return 2;
    }

    char *pbuf = NULL;
    const char **pats = NULL;
    size_t *lens = NULL, minlen = 0, maxlen = 0;
    size_t np = read_patterns(pat_path, &pbuf, &pats, &lens, &minlen, &maxlen);
    if (np == 0) return 2;
    if (np > 0xFFFFFFFFu || maxlen >= HSM_PIECE / 2) {
        fprintf(stderr, "hs_multi: set too large\n");
        return 2;
    }
    unsigned *flags = malloc(np * sizeof *flags), *ids = malloc(np * sizeof *ids);
    if (!flags || !ids) {
        fprintf(stderr, "hs_multi: out of memory\n");
        return 2;
    }
    for (size_t j = 0; j < np; j++) {
        flags[j] = caseless ? HS_FLAG_CASELESS : 0;
        ids[j] = (unsigned)j;
    }

    print_device();
    fflush(stdout);

    /* ---- compile ---------------------------------------------------------- */
    double rss0 = peak_rss_mb();
    hs_database_t *db = NULL;
    hs_compile_error_t *cerr = NULL;
    double t0 = now_s();
    hs_error_t rc =
        hs_compile_lit_multi(pats, flags, ids, lens, (unsigned)np, HS_MODE_BLOCK, NULL, &db, &cerr);
    double t_compile = now_s() - t0;
    if (rc != HS_SUCCESS) {
        fprintf(stderr, "hs_multi: hyperscan refused the set: %s (expression %d)\n",
                cerr ? cerr->message : "unknown error", cerr ? cerr->expression : -1);
        hs_free_compile_error(cerr);
        return 3;
    }
    size_t db_bytes = 0;
    hs_database_size(db, &db_bytes);
    printf("hyperscan compile patterns=%zu minlen=%zu maxlen=%zu compile_s=%.3f db_bytes=%zu "
           "peak_rss_mb=%.1f rss_before_mb=%.1f\n",
           np, minlen, maxlen, t_compile, db_bytes, peak_rss_mb(), rss0);
    fflush(stdout);
    if (compile_only) {
        hs_free_database(db);
        free(pbuf);
        free(pats);
        free(lens);
        free(flags);
        free(ids);
        return 0;
    }

    /* ---- map the text ----------------------------------------------------- */
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "hs_multi: %s: %s\n", path, strerror(errno));
        return 2;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        fprintf(stderr, "hs_multi: %s: %s\n", path, strerror(errno));
        return 2;
    }
    size_t n = (size_t)st.st_size;
    const unsigned char *text = (const unsigned char *)"";
    if (n > 0) {
        void *map = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (map == MAP_FAILED) {
            fprintf(stderr, "hs_multi: mmap %s: %s\n", path, strerror(errno));
            return 2;
        }
        text = map;
    }
    close(fd);

    /* ---- scratch and parts, one per thread ---------------------------------- */
    hs_scratch_t *proto = NULL;
    if (hs_alloc_scratch(db, &proto) != HS_SUCCESS) {
        fprintf(stderr, "hs_multi: hs_alloc_scratch failed\n");
        return 2;
    }
    hsm_part_t *parts = calloc((size_t)n_threads, sizeof *parts);
    pthread_t *tids = calloc((size_t)n_threads, sizeof *tids);
    double *times = calloc((size_t)n_rep, sizeof *times);
    if (!parts || !tids || !times) {
        fprintf(stderr, "hs_multi: out of memory\n");
        return 2;
    }
    for (long t = 0; t < n_threads; t++) {
        hsm_part_t *p = &parts[t];
        size_t q = n / (size_t)n_threads, rem = n % (size_t)n_threads, tt = (size_t)t;
        p->text = text;
        p->db = db;
        p->start = tt * q + (tt < rem ? tt : rem);
        p->end = p->start + q + (tt < rem ? 1 : 0);
        p->overlap = maxlen - 1;
        if (hs_clone_scratch(proto, &p->scratch) != HS_SUCCESS) {
            fprintf(stderr, "hs_multi: hs_clone_scratch failed\n");
            return 2;
        }
    }

    int status = 0;
    const char *mode_names[2] = { "count", "per-pattern" };
    for (int mode = 0; mode < 2; mode++) {
        if (!has_mode(modes, mode_names[mode])) continue;
        for (long t = 0; t < n_threads; t++) {
            parts[t].counts = NULL;
            if (mode == 1 && !(parts[t].counts = calloc(np, sizeof(uint64_t)))) {
                fprintf(stderr, "hs_multi: out of memory (per-pattern counts)\n");
                return 2;
            }
        }
        uint64_t total = 0, checksum = 0;
        for (long rep = -1; rep < n_rep; rep++) { /* rep -1: untimed, touches pages */
            if (mode == 1)
                for (long t = 0; t < n_threads; t++)
                    memset(parts[t].counts, 0, np * sizeof(uint64_t));
            double s0 = now_s();
            if (n_threads == 1) scan_part(&parts[0]);
            else {
                for (long t = 0; t < n_threads; t++)
                    if (pthread_create(&tids[t], NULL, scan_thread, &parts[t]) != 0) {
                        fprintf(stderr, "hs_multi: pthread_create failed\n");
                        return 2;
                    }
                for (long t = 0; t < n_threads; t++) pthread_join(tids[t], NULL);
            }
            double dt = now_s() - s0;
            uint64_t sum = 0;
            for (long t = 0; t < n_threads; t++) {
                if (parts[t].err != HS_SUCCESS) {
                    fprintf(stderr, "hs_multi: hs_scan failed (%d)\n", parts[t].err);
                    return 2;
                }
                sum += parts[t].n;
            }
            if (rep < 0) total = sum;
            else {
                times[rep] = dt;
                if (sum != total) {
                    fprintf(stderr, "hs_multi: FAIL: repeat %ld counted %llu, first %llu\n", rep,
                            (unsigned long long)sum, (unsigned long long)total);
                    return 2;
                }
            }
        }
        if (mode == 1) {
            uint64_t pp_sum = 0;
            for (size_t id = 0; id < np; id++) {
                uint64_t c = 0;
                for (long t = 0; t < n_threads; t++) c += parts[t].counts[id];
                pp_sum += c;
                checksum += c * mix64((uint64_t)id + 1);
            }
            if (pp_sum != total) {
                fprintf(stderr, "hs_multi: FAIL: per-pattern sum %llu != %llu\n",
                        (unsigned long long)pp_sum, (unsigned long long)total);
                status = 2;
            }
            for (long t = 0; t < n_threads; t++) {
                free(parts[t].counts);
                parts[t].counts = NULL;
            }
        }
        qsort(times, (size_t)n_rep, sizeof *times, cmp_double);
        double med = n_rep % 2 ? times[n_rep / 2] : 0.5 * (times[n_rep / 2 - 1] + times[n_rep / 2]);
        char cks[32] = "-";
        if (mode == 1) snprintf(cks, sizeof cks, "%016llx", (unsigned long long)checksum);
        printf("hyperscan algo=literal mode=%s patterns=%zu threads=%ld bytes=%zu matches=%llu "
               "checksum=%s "
               "median_s=%.6f GBps=%.3f\n",
               mode_names[mode], np, n_threads, n, (unsigned long long)total, cks, med,
               med > 0 ? (double)n / med / 1e9 : 0.0);
        fflush(stdout);
    }

    for (long t = 0; t < n_threads; t++) hs_free_scratch(parts[t].scratch);
    hs_free_scratch(proto);
    hs_free_database(db);
    if (n > 0) munmap((void *)text, n);
    free(parts);
    free(tids);
    free(times);
    free(pbuf);
    free(pats);
    free(lens);
    free(flags);
    free(ids);
    return status;
}
