/*
 * hs_count.c - Hyperscan peer for the warpmatch benchmarks.
 *
 * Counts what our contract counts: the number of distinct end positions e
 * (exclusive end offsets, 1..n) at which some substring ending at e is within
 * k edits (Levenshtein) of the pattern. Text is plain bytes, case-sensitive.
 *
 *   k = 0: the pattern is compiled with hs_compile_lit (every end offset is
 *          reported, overlapping matches included; no HS_FLAG_SINGLEMATCH).
 *   k > 0: the pattern is escaped byte by byte (\xHH) and compiled with
 *          hs_compile_ext_multi and HS_EXT_FLAG_EDIT_DISTANCE = k.
 *
 * Threads: the text is cut into T equal parts; thread t scans
 * [start_t - (m+k-1), end_t) with its own scratch and counts only end offsets
 * in (start_t, end_t]. The longest match is m+k bytes, so every end in the
 * part sees its whole match. Hyperscan may report the same end offset more
 * than once with edit distance; matches come in order of end offset, so a
 * thread drops a report equal to its last one. Before timing, one untimed
 * single-thread scan dedups with a bitmap (exact whatever the order) and
 * counts raw, duplicate and out-of-order reports; the first timed repeat
 * must give the same count, or the program fails (exit 2).
 *
 * Usage: hs_count [-k K] [-t THREADS] [-r REPEATS] [--no-verify] [--dna]
 *                 PATTERN FILE
 * Output: "device: <cpu model>" then
 *   "hyperscan k=K m=M threads=T bytes=N matches=C median_s=X GBps=Y"
 * Exit: 0 ok, 2 usage/IO/verification error, 3 pattern unsupported by
 * Hyperscan (scripts print n/a).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <hs/hs.h>

#ifndef HSC_PIECE                   /* -DHSC_PIECE=40 tests the piece loop on small texts */
#define HSC_PIECE ((size_t)1 << 30) /* hs_scan takes an unsigned length */
#endif

typedef struct {
    const unsigned char *text;
    size_t n_text;
    size_t start, end; /* count ends in (start, end] */
    size_t overlap;    /* m + k - 1 */
    const hs_database_t *db;
    hs_scratch_t *scratch;
    /* filled by the scan */
    size_t base;      /* absolute offset of the current piece */
    uint64_t last;    /* last counted absolute end, 0 = none */
    uint64_t n_count; /* distinct ends in (start, end] */
    uint64_t n_raw;   /* every report in (start, end] */
    uint64_t n_dup;   /* reports equal to the previous one */
    uint64_t n_back;  /* reports below the previous one */
    uint8_t *bitmap;  /* verification only: one bit per end */
    hs_error_t err;
} hsc_part_t;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void print_device(void) {
    char line[512], model[256] = "unknown CPU";
    long n_cpu = sysconf(_SC_NPROCESSORS_ONLN);
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
    printf("device: %s (%ld logical CPUs)\n", model, n_cpu);
}

static int on_match(unsigned int id, unsigned long long from, unsigned long long to,
                    unsigned int flags, void *ctx) {
    hsc_part_t *p = ctx;
    uint64_t e = (uint64_t)p->base + to;
    (void)id;
    (void)from;
    (void)flags;
    if (e <= p->start || e > p->end) return 0;
    p->n_raw++;
    if (p->bitmap) {
        uint8_t bit = (uint8_t)(1u << (e & 7));
        if (!(p->bitmap[e >> 3] & bit)) {
            p->bitmap[e >> 3] |= bit;
            p->n_count++;
        }
        if (e == p->last) p->n_dup++;
        else if (e < p->last) p->n_back++;
        if (e > p->last) p->last = e;
        return 0;
    }
    if (e == p->last) {
        p->n_dup++;
        return 0;
    }
    if (e < p->last) p->n_back++; /* would be miscounted; verification catches it */
    p->last = e;
    p->n_count++;
    return 0;
}

/* Scan the part's window, in pieces of at most HSC_PIECE bytes that overlap by
 * p->overlap so that no match is lost at a piece boundary. */
static void scan_part(hsc_part_t *p) {
    size_t lo = p->start > p->overlap ? p->start - p->overlap : 0;
    size_t counted = p->start; /* ends up to here are already covered */
    p->last = 0;
    p->n_count = p->n_raw = p->n_dup = p->n_back = 0;
    p->err = HS_SUCCESS;
    while (counted < p->end) {
        size_t hi = p->end - lo > HSC_PIECE ? lo + HSC_PIECE : p->end;
        size_t save_start = p->start;
        p->base = lo;
        p->start = counted; /* count only ends in (counted, hi] this piece */
        p->err = hs_scan(p->db, (const char *)p->text + lo, (unsigned int)(hi - lo), 0, p->scratch,
                         on_match, p);
        p->start = save_start;
        if (p->err != HS_SUCCESS) return;
        counted = hi;
        lo = hi > p->overlap ? hi - p->overlap : 0;
    }
}

static void *scan_thread(void *arg) {
    scan_part((hsc_part_t *)arg);
    return NULL;
}

static void usage(FILE *f) {
    fprintf(
        f,
        "usage: hs_count [-k K] [-t THREADS] [-r REPEATS] [--no-verify] [--dna] [--] PATTERN FILE\n"
        "  -k K         maximum edits (Levenshtein) [0]\n"
        "  -t THREADS   threads; the text is split into equal parts [1]\n"
        "  -r REPEATS   timed repeats; the median is printed [5]\n"
        "  --no-verify  skip the untimed single-thread bitmap check\n"
        "  --dna        accepted for symmetry with our tools: FILE must already be\n"
        "               plain sequence bytes (see gen_text dna)\n"
        "Counts distinct match end positions. Exit 3: unsupported by hyperscan.\n");
}

int main(int argc, char **argv) {
    long k = 0, n_threads = 1, n_rep = 5;
    int verify = 1, opts_done = 0, i;
    const char *pattern = NULL, *path = NULL;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (opts_done || a[0] != '-' || a[1] == '\0') {
            if (!pattern) pattern = a;
            else if (!path) path = a;
            else {
                usage(stderr);
                return 2;
            }
        } else if (!strcmp(a, "--")) opts_done = 1;
        else if (!strcmp(a, "-k") && i + 1 < argc) k = strtol(argv[++i], NULL, 10);
        else if (!strcmp(a, "-t") && i + 1 < argc) n_threads = strtol(argv[++i], NULL, 10);
        else if (!strcmp(a, "-r") && i + 1 < argc) n_rep = strtol(argv[++i], NULL, 10);
        else if (!strcmp(a, "--no-verify")) verify = 0;
        else if (!strcmp(a, "--dna")) { /* plain sequence expected */
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "hs_count: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!pattern || !path || k < 0 || n_threads < 1 || n_rep < 1) {
        usage(stderr);
        return 2;
    }
    size_t m = strlen(pattern);
    if (m == 0) {
        fprintf(stderr, "hs_count: empty pattern\n");
        return 2;
    }
    if (m + (size_t)k >= HSC_PIECE / 2) {
        fprintf(stderr, "hs_count: pattern too long\n");
        return 2;
    }

    /* ---- compile ---------------------------------------------------------- */
    hs_database_t *db = NULL;
    hs_compile_error_t *cerr = NULL;
    hs_error_t rc;
    if (k == 0) {
        rc = hs_compile_lit(pattern, 0, m, HS_MODE_BLOCK, NULL, &db, &cerr);
    } else {
        char *re = malloc(4 * m + 1);
        if (!re) {
            fprintf(stderr, "hs_count: out of memory\n");
            return 2;
        }
        for (size_t j = 0; j < m; j++) sprintf(re + 4 * j, "\\x%02x", (unsigned char)pattern[j]);
        hs_expr_ext_t ext;
        memset(&ext, 0, sizeof ext);
        ext.flags = HS_EXT_FLAG_EDIT_DISTANCE;
        ext.edit_distance = (unsigned)k;
        const char *exprs[1] = { re };
        unsigned flags[1] = { 0 }, ids[1] = { 0 };
        const hs_expr_ext_t *exts[1] = { &ext };
        rc = hs_compile_ext_multi(exprs, flags, ids, exts, 1, HS_MODE_BLOCK, NULL, &db, &cerr);
        free(re);
    }
    if (rc != HS_SUCCESS) {
        fprintf(stderr, "hs_count: unsupported by hyperscan: %s (k=%ld m=%zu)\n",
                cerr ? cerr->message : "unknown error", k, m);
        hs_free_compile_error(cerr);
        return 3;
    }

    /* ---- map the text ----------------------------------------------------- */
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "hs_count: %s: %s\n", path, strerror(errno));
        return 2;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        fprintf(stderr, "hs_count: %s: %s\n", path, strerror(errno));
        return 2;
    }
    size_t n = (size_t)st.st_size;
    const unsigned char *text = (const unsigned char *)"";
    if (n > 0) {
        void *map = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (map == MAP_FAILED) {
            fprintf(stderr, "hs_count: mmap %s: %s\n", path, strerror(errno));
            return 2;
        }
        madvise(map, n, MADV_SEQUENTIAL);
        text = map;
    }
    close(fd);

    /* ---- scratch, one per thread ------------------------------------------ */
    hs_scratch_t *proto = NULL;
    if (hs_alloc_scratch(db, &proto) != HS_SUCCESS) {
        fprintf(stderr, "hs_count: hs_alloc_scratch failed\n");
        return 2;
    }
    hsc_part_t *parts = calloc((size_t)n_threads, sizeof *parts);
    pthread_t *tids = calloc((size_t)n_threads, sizeof *tids);
    double *times = calloc((size_t)n_rep, sizeof *times);
    if (!parts || !tids || !times) {
        fprintf(stderr, "hs_count: out of memory\n");
        return 2;
    }
    for (long t = 0; t < n_threads; t++) {
        hsc_part_t *p = &parts[t];
        p->text = text;
        p->n_text = n;
        p->db = db;
        size_t q = n / (size_t)n_threads, rem = n % (size_t)n_threads, tt = (size_t)t;
        p->start = tt * q + (tt < rem ? tt : rem);
        p->end = p->start + q + (tt < rem ? 1 : 0);
        p->overlap = m + (size_t)k - 1;
        if (hs_clone_scratch(proto, &p->scratch) != HS_SUCCESS) {
            fprintf(stderr, "hs_count: hs_clone_scratch failed\n");
            return 2;
        }
    }

    print_device();
    fflush(stdout);

    /* ---- untimed reference: one thread, bitmap dedup ---------------------- */
    uint64_t ref = 0;
    if (verify) {
        hsc_part_t r = parts[0];
        r.start = 0;
        r.end = n;
        r.bitmap = calloc(n / 8 + 1, 1);
        if (!r.bitmap) {
            fprintf(stderr, "hs_count: out of memory (bitmap)\n");
            return 2;
        }
        scan_part(&r);
        if (r.err != HS_SUCCESS) {
            fprintf(stderr, "hs_count: hs_scan failed (%d)\n", r.err);
            return 2;
        }
        ref = r.n_count;
        fprintf(stderr,
                "hs_count: check: reports=%llu distinct_ends=%llu duplicate_reports=%llu "
                "out_of_order_reports=%llu\n",
                (unsigned long long)r.n_raw, (unsigned long long)r.n_count,
                (unsigned long long)r.n_dup, (unsigned long long)r.n_back);
        free(r.bitmap);
    }

    /* ---- timed repeats ----------------------------------------------------- */
    uint64_t total = 0, back = 0;
    for (long rep = 0; rep < n_rep; rep++) {
        double t0 = now_s();
        if (n_threads == 1) scan_part(&parts[0]);
        else {
            for (long t = 0; t < n_threads; t++)
                if (pthread_create(&tids[t], NULL, scan_thread, &parts[t]) != 0) {
                    fprintf(stderr, "hs_count: pthread_create failed\n");
                    return 2;
                }
            for (long t = 0; t < n_threads; t++) pthread_join(tids[t], NULL);
        }
        times[rep] = now_s() - t0;
        uint64_t sum = 0;
        back = 0;
        for (long t = 0; t < n_threads; t++) {
            if (parts[t].err != HS_SUCCESS) {
                fprintf(stderr, "hs_count: hs_scan failed (%d)\n", parts[t].err);
                return 2;
            }
            sum += parts[t].n_count;
            back += parts[t].n_back;
        }
        if (rep == 0) {
            total = sum;
            if (verify && sum != ref) {
                fprintf(
                    stderr,
                    "hs_count: FAIL: %ld-thread count %llu != single-thread bitmap count %llu\n",
                    n_threads, (unsigned long long)sum, (unsigned long long)ref);
                return 2;
            }
        } else if (sum != total) {
            fprintf(stderr, "hs_count: FAIL: repeat %ld counted %llu, first %llu\n", rep,
                    (unsigned long long)sum, (unsigned long long)total);
            return 2;
        }
    }
    if (back)
        fprintf(stderr, "hs_count: warning: %llu out-of-order reports\n", (unsigned long long)back);

    qsort(times, (size_t)n_rep, sizeof *times, cmp_double);
    double med = n_rep % 2 ? times[n_rep / 2] : 0.5 * (times[n_rep / 2 - 1] + times[n_rep / 2]);
    printf("hyperscan k=%ld m=%zu threads=%ld bytes=%zu matches=%llu median_s=%.6f GBps=%.3f\n", k,
           m, n_threads, n, (unsigned long long)total, med, med > 0 ? (double)n / med / 1e9 : 0.0);

    for (long t = 0; t < n_threads; t++) hs_free_scratch(parts[t].scratch);
    hs_free_scratch(proto);
    hs_free_database(db);
    if (n > 0) munmap((void *)text, n);
    free(parts);
    free(tids);
    free(times);
    return 0;
}
