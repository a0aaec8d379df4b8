/*
** bench_cpu_multi.c -- pattern sets (issue 3) on the CPU backend, timed the
** way bench/peers/hs_multi times Hyperscan: the text mmap'ed and in memory,
** the scan alone, median of repeats after one untimed run. Public API only.
**
**   bench_cpu_multi [-t THREADS] [-r REPEATS] [-i] [--dna] [--algos LIST]
**                   [--modes LIST] [--max-s S] PATTERN_FILE TEXT_FILE
**   bench_cpu_multi --compile-only [-i] [--dna] [--algos LIST] PATTERN_FILE
**
** PATTERN_FILE: one pattern per line, read as hs_multi reads it ('\n' ends a
** line; every other byte is literal; an empty line is an error). Pattern id =
** 0-based line number.
** LIST (comma separated): algorithms auto,ac,pfac,wumanber,wumanber-paper,qgram,teddy
** [all six; one the set cannot take prints n/a with the reason]; modes
**   count        wm_count: the total
**   per-pattern  wm_count_per_pattern; prints the checksum hs_multi prints:
**                sum over ids of counts[id] * mix(id + 1) mod 2^64
**   search       wm_search with a callback that only counts: the cost of
**                listing every occurrence in sorted order
**   batches      wm_search_batches, the same occurrences in runs (a call a
**                run, not a match)
** [count,per-pattern,search]. --max-s S: when the untimed run of a mode takes
** longer than S seconds, that run is the one reported (reps=1) and the later
** modes of that algorithm are skipped ("skipped=1"). -i folds ASCII
** case; --dna sets WM_ALPHABET_DNA (the patterns must be A/C/G/T).
** Every total must agree across algorithms and modes, and the per-pattern
** counts must sum to it; otherwise "MISMATCH" on stderr and exit 2.
**
** Before the algorithms, a "floor" line: the text read once by the threads
** (a slice each, 8 bytes a load), the median of max(3, REPEATS) passes.
**
** --compile-only: runs on one core (pinned to the first CPU this process may
** use); per algorithm: compile time and memory: peak RSS (VmHWM, reset through
** /proc/self/clear_refs before each compile where the kernel allows it) and
** the RSS before.
**
** Output: "device: <cpu model> (N logical CPUs)", then per algorithm
**   warpmatch-cpu compile algo=A ran=R patterns=N minlen=a maxlen=b compile_s=X peak_rss_mb=M rss_before_mb=M0
** and per mode
**   warpmatch-cpu algo=A ran=R mode=M patterns=N threads=T bytes=B matches=C checksum=H median_s=X GBps=Y reps=K
** (ran = the algorithm wm_db_algo reports, i.e. what auto picked.)
*/
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "warpmatch.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static uint64_t mix64(uint64_t z) /* splitmix64's finalizer, as hs_multi */
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ---- the floor: the text read once by the threads ------------------------------ */

typedef struct {
    const uint8_t *p;
    size_t n;
    uint64_t sum;
} floor_part_t;

static void *floor_read(void *arg) {
    floor_part_t *f = arg;
    uint64_t s = 0, w;
    size_t i = 0;
    for (; i + 8 <= f->n; i += 8) {
        memcpy(&w, f->p + i, 8);
        s ^= w;
    }
    for (; i < f->n; i++) s ^= f->p[i];
    f->sum = s; /* kept, so the reads are */
    return NULL;
}

/* Seconds for `threads` threads to read text[0, n) once, a slice each: the
** median of reps passes, the floor any scan of the text pays. */
static double read_floor_s(const uint8_t *text, size_t n, int threads, int reps) {
    enum { MAX_T = 256 };
    if (threads < 1) threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads > MAX_T) threads = MAX_T;
    if (threads < 1) threads = 1;
    floor_part_t part[MAX_T];
    pthread_t th[MAX_T];
    double tr[64];
    if (reps > 64) reps = 64;
    for (int r = 0; r < reps; r++) {
        int made[MAX_T] = { 0 };
        double t0 = now_s();
        for (int t = 0; t < threads; t++) {
            size_t a = n / (size_t)threads * (size_t)t;
            part[t].p = text + a;
            part[t].n = t + 1 == threads ? n - a : n / (size_t)threads;
            /* slice 0 on this thread; a thread that cannot start: here too */
            if (t > 0) made[t] = pthread_create(&th[t], NULL, floor_read, &part[t]) == 0;
        }
        for (int t = 0; t < threads; t++)
            if (!made[t]) floor_read(&part[t]);
        for (int t = 1; t < threads; t++)
            if (made[t]) pthread_join(th[t], NULL);
        tr[r] = now_s() - t0;
    }
    for (int i = 1; i < reps; i++) /* sorted, for the median */
        for (int j = i; j > 0 && tr[j - 1] > tr[j]; j--) {
            double x = tr[j];
            tr[j] = tr[j - 1];
            tr[j - 1] = x;
        }
    return tr[reps / 2];
}

static void print_device(void) {
    char line[512], model[256] = "unknown CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "model name", 10)) {
                char *p = strchr(line, ':');
                if (p) {
                    p++;
                    while (*p == ' ' || *p == '\t') p++;
                    p[strcspn(p, "\n")] = '\0';
                    snprintf(model, sizeof model, "%s", p);
                }
                break;
            }
        fclose(f);
    }
    printf("device: %s (%ld logical CPUs)\n", model, sysconf(_SC_NPROCESSORS_ONLN));
}

/* A field of /proc/self/status in MiB ("VmHWM:", "VmRSS:"), -1 if unknown. */
static double status_mb(const char *key) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double mb = -1;
    size_t kl = strlen(key);
    if (f) {
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, key, kl)) {
                mb = strtod(line + kl, NULL) / 1024.0;
                break;
            }
        fclose(f);
    }
    if (mb < 0 && !strcmp(key, "VmHWM:")) {
        struct rusage ru;
        if (!getrusage(RUSAGE_SELF, &ru)) mb = (double)ru.ru_maxrss / 1024.0;
    }
    return mb;
}

static void reset_peak_rss(void) /* Linux >= 4.0: "5" resets VmHWM */
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

/* ---- inputs --------------------------------------------------------------- */

typedef struct {
    uint8_t *buf;
    const uint8_t **p;
    size_t *len;
    size_t n, minlen, maxlen;
} bm_pats_t;

static int read_patterns(const char *path, bm_pats_t *ps) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "bench_cpu_multi: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 20, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fprintf(stderr, "bench_cpu_multi: out of memory\n");
            fclose(f);
            return -1;
        }
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        uint8_t *nb = realloc(buf, cap * 2);
        if (!nb) free(buf);
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    size_t lines = 0;
    for (size_t i = 0; i < n; i++) lines += buf[i] == '\n';
    if (n > 0 && buf[n - 1] != '\n') lines++;
    if (lines == 0) {
        fprintf(stderr, "bench_cpu_multi: %s: no patterns\n", path);
        return -1;
    }
    ps->p = malloc(lines * sizeof *ps->p);
    ps->len = malloc(lines * sizeof *ps->len);
    if (!ps->p || !ps->len) {
        fprintf(stderr, "bench_cpu_multi: out of memory\n");
        return -1;
    }
    size_t k = 0, s = 0;
    ps->minlen = SIZE_MAX;
    ps->maxlen = 0;
    for (size_t i = 0; i <= n && k < lines; i++) {
        if (i == n || buf[i] == '\n') {
            size_t l = i - s;
            if (l == 0) {
                fprintf(stderr, "bench_cpu_multi: %s:%zu: empty pattern\n", path, k + 1);
                return -1;
            }
            ps->p[k] = buf + s;
            ps->len[k] = l;
            if (l < ps->minlen) ps->minlen = l;
            if (l > ps->maxlen) ps->maxlen = l;
            k++;
            s = i + 1;
        }
    }
    ps->buf = buf;
    ps->n = k;
    return 0;
}

static int map_text(const char *path, wm_text_t *t) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "bench_cpu_multi: %s: %s\n", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size == 0) {
        fprintf(stderr, "bench_cpu_multi: %s: empty or unreadable\n", path);
        close(fd);
        return -1;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        fprintf(stderr, "bench_cpu_multi: mmap %s: %s\n", path, strerror(errno));
        return -1;
    }
    memset(t, 0, sizeof *t);
    t->seq = map;
    t->len = (uint64_t)st.st_size;
    return 0;
}

/* ---- algorithms and modes --------------------------------------------------- */

static const struct {
    const char *name;
    wm_algo_t algo;
} ALGOS[] = {
    { "auto", WM_ALGO_AUTO },
    { "ac", WM_ALGO_AC },
    { "pfac", WM_ALGO_PFAC },
    { "wumanber", WM_ALGO_WUMANBER },
    { "wumanber-paper", WM_ALGO_WUMANBER_PAPER },
    { "qgram", WM_ALGO_QGRAM },
    { "teddy", WM_ALGO_TEDDY },
};
#define N_ALGOS (sizeof ALGOS / sizeof ALGOS[0])
static const char *MODES[] = { "count", "per-pattern", "search", "batches" };
#define N_MODES (sizeof MODES / sizeof MODES[0])

static int in_list(const char *list, const char *name) {
    size_t l = strlen(name);
    for (const char *p = list; *p;) {
        size_t w = strcspn(p, ",");
        if (w == l && !strncmp(p, name, l)) return 1;
        p += w;
        if (*p) p++;
    }
    return 0;
}

static int count_cb(const wm_match_t *m, void *user) {
    (void)m;
    ++*(uint64_t *)user;
    return 0;
}

static int count_run_cb(const wm_match_t *m, size_t n, void *user) {
    (void)m;
    *(uint64_t *)user += n;
    return 0;
}

/* One run of a mode; the total in *total, the checksum (per-pattern) in *cks. */
static wm_status run_mode(int mode, wm_context_t *cx, const wm_db_t *db, const wm_text_t *t,
                          uint64_t *counts, size_t np, uint64_t *total, uint64_t *cks) {
    wm_status st;
    *total = 0;
    *cks = 0;
    if (mode == 0) return wm_count(cx, db, t, total);
    if (mode == 2) return wm_search(cx, db, t, count_cb, total);
    if (mode == 3) return wm_search_batches(cx, db, t, count_run_cb, total);
    st = wm_count_per_pattern(cx, db, t, counts);
    for (size_t i = 0; i < np; i++) {
        *total += counts[i];
        *cks += counts[i] * mix64((uint64_t)i + 1);
    }
    return st;
}

static void usage(FILE *f) {
    fprintf(f, "usage: bench_cpu_multi [-t THREADS] [-r REPEATS] [-i] [--dna] [--algos LIST] "
               "[--modes LIST]\n"
               "                       [--max-s S] PATTERN_FILE TEXT_FILE\n"
               "       bench_cpu_multi --compile-only [-i] [--dna] [--algos LIST] PATTERN_FILE\n"
               "  algorithms: auto,ac,pfac,wumanber,wumanber-paper,qgram,teddy [all]\n"
               "  modes: count,per-pattern,search [all]; -t 0 = all cores [1]; -r [5]\n");
}

int main(int argc, char **argv) {
    int threads = 1, reps = 5, caseless = 0, dna = 0, compile_only = 0, i;
    double max_s = 1e30;
    const char *algos = "auto,ac,pfac,wumanber,wumanber-paper,qgram,teddy",
               *modes = "count,per-pattern,search";
    const char *pat_path = NULL, *text_path = NULL;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0') {
            if (!pat_path) pat_path = a;
            else if (!text_path) text_path = a;
            else {
                usage(stderr);
                return 2;
            }
        } else if (!strcmp(a, "-t") && i + 1 < argc) threads = atoi(argv[++i]);
        else if (!strcmp(a, "-r") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(a, "-i")) caseless = 1;
        else if (!strcmp(a, "--dna")) dna = 1;
        else if (!strcmp(a, "--algos") && i + 1 < argc) algos = argv[++i];
        else if (!strcmp(a, "--modes") && i + 1 < argc) modes = argv[++i];
        else if (!strcmp(a, "--max-s") && i + 1 < argc) max_s = atof(argv[++i]);
        else if (!strcmp(a, "--compile-only")) compile_only = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "bench_cpu_multi: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!pat_path || (!text_path && !compile_only) || reps < 1 || threads < 0) {
        usage(stderr);
        return 2;
    }
    for (const char *p = algos; *p;) { /* reject unknown names */
        size_t w = strcspn(p, ","), k;
        for (k = 0; k < N_ALGOS; k++)
            if (strlen(ALGOS[k].name) == w && !strncmp(p, ALGOS[k].name, w)) break;
        if (k == N_ALGOS) {
            fprintf(stderr, "bench_cpu_multi: unknown algorithm in '%s'\n", algos);
            return 2;
        }
        p += w;
        if (*p) p++;
    }

    if (compile_only) { /* one core: pin to the first CPU we may use */
        cpu_set_t set;
        if (!sched_getaffinity(0, sizeof set, &set))
            for (int c = 0; c < CPU_SETSIZE; c++)
                if (CPU_ISSET(c, &set)) {
                    CPU_ZERO(&set);
                    CPU_SET(c, &set);
                    sched_setaffinity(0, sizeof set, &set);
                    break;
                }
    }

    bm_pats_t ps;
    if (read_patterns(pat_path, &ps)) return 2;
    wm_text_t text;
    memset(&text, 0, sizeof text);
    if (!compile_only && map_text(text_path, &text)) return 2;
    uint64_t *counts = calloc(ps.n, sizeof *counts);
    double *times = calloc((size_t)reps, sizeof *times);
    if (!counts || !times) {
        fprintf(stderr, "bench_cpu_multi: out of memory\n");
        return 2;
    }

    wm_context_t *cx = NULL;
    if (!compile_only) {
        wm_context_opts_t co = wm_context_opts_default();
        co.backend = WM_BACKEND_CPU;
        co.threads = threads;
        if (wm_context_new(&co, &cx) != WM_OK) {
            fprintf(stderr, "bench_cpu_multi: context: %s\n",
                    cx ? wm_context_errmsg(cx) : "failed");
            return 2;
        }
    }

    print_device();
    if (!compile_only) {
        double fs = read_floor_s(text.seq, text.len, threads, reps < 3 ? 3 : reps);
        printf("warpmatch-cpu floor threads=%d read_s=%.6f GBps=%.3f # the text read once\n",
               threads, fs, text.len / fs / 1e9);
    }
    fflush(stdout);

    int bad = 0, have_ref = 0;
    uint64_t ref_total = 0, ref_cks = 0;
    const char *ref_what = "";
    for (size_t a = 0; a < N_ALGOS; a++) {
        if (!in_list(algos, ALGOS[a].name)) continue;
        wm_opts_t o = wm_opts_default();
        o.case_insensitive = caseless;
        o.alphabet = dna ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
        o.algo = ALGOS[a].algo;
        wm_db_t *db = NULL;
        if (compile_only) reset_peak_rss();
        double rss0 = status_mb("VmRSS:");
        double t0 = now_s();
        wm_status st = wm_compile_set(ps.p, ps.len, ps.n, &o, &db);
        double tc = now_s() - t0;
        if (st != WM_OK) {
            printf("warpmatch-cpu compile algo=%s ran=n/a patterns=%zu compile_s=n/a # %s\n",
                   ALGOS[a].name, ps.n, wm_strerror(st));
            fflush(stdout);
            continue;
        }
        const char *ran = wm_algo_name(wm_db_algo(db));
        if (wm_db_pattern_count(db) != ps.n) {
            fprintf(stderr, "bench_cpu_multi: MISMATCH: wm_db_pattern_count %zu != %zu lines\n",
                    wm_db_pattern_count(db), ps.n);
            bad = 1;
        }
        printf("warpmatch-cpu compile algo=%s ran=%s patterns=%zu minlen=%zu maxlen=%zu "
               "compile_s=%.3f "
               "peak_rss_mb=%.1f rss_before_mb=%.1f\n",
               ALGOS[a].name, ran, ps.n, ps.minlen, ps.maxlen, tc, status_mb("VmHWM:"), rss0);
        fflush(stdout);
        if (compile_only) {
            wm_db_free(db);
            continue;
        }

        double slow = 0; /* > 0: a mode of this algorithm took longer than max_s */
        for (int mode = 0; mode < (int)N_MODES; mode++) {
            if (!in_list(modes, MODES[mode])) continue;
            if (slow > 0) {
                printf("warpmatch-cpu algo=%s ran=%s mode=%s skipped=1 # an earlier mode took %.1f "
                       "s > --max-s\n",
                       ALGOS[a].name, ran, MODES[mode], slow);
                fflush(stdout);
                continue;
            }
            uint64_t total, cks, c, k2;
            double w0 = now_s();
            st = run_mode(mode, cx, db, &text, counts, ps.n, &total, &cks);
            double warm = now_s() - w0;
            if (st != WM_OK) {
                printf("warpmatch-cpu algo=%s ran=%s mode=%s matches=n/a # %s %s\n", ALGOS[a].name,
                       ran, MODES[mode], wm_strerror(st), wm_context_errmsg(cx));
                fflush(stdout);
                bad = 1;
                continue;
            }
            int n_rep = warm > max_s ? 1 : reps;
            if (warm > max_s) times[0] = slow = warm;
            else
                for (int r = 0; r < reps; r++) {
                    double s0 = now_s();
                    st = run_mode(mode, cx, db, &text, counts, ps.n, &c, &k2);
                    times[r] = now_s() - s0;
                    if (st != WM_OK || c != total || (mode == 1 && k2 != cks)) {
                        fprintf(
                            stderr,
                            "bench_cpu_multi: MISMATCH: %s %s repeat %d: %llu, first %llu (%s)\n",
                            ALGOS[a].name, MODES[mode], r, (unsigned long long)c,
                            (unsigned long long)total, wm_strerror(st));
                        bad = 1;
                    }
                }
            qsort(times, (size_t)n_rep, sizeof *times, cmp_double);
            double med =
                n_rep % 2 ? times[n_rep / 2] : 0.5 * (times[n_rep / 2 - 1] + times[n_rep / 2]);
            char ck[32] = "-";
            if (mode == 1) snprintf(ck, sizeof ck, "%016llx", (unsigned long long)cks);
            printf("warpmatch-cpu algo=%s ran=%s mode=%s patterns=%zu threads=%d bytes=%llu "
                   "matches=%llu "
                   "checksum=%s median_s=%.6f GBps=%.3f reps=%d\n",
                   ALGOS[a].name, ran, MODES[mode], ps.n, threads, (unsigned long long)text.len,
                   (unsigned long long)total, ck, med, med > 0 ? (double)text.len / med / 1e9 : 0.0,
                   n_rep);
            fflush(stdout);
            if (!have_ref) {
                have_ref = 1;
                ref_total = total;
                ref_what = ALGOS[a].name;
            } else if (total != ref_total) {
                fprintf(stderr, "bench_cpu_multi: MISMATCH: %s %s counted %llu, %s %llu\n",
                        ALGOS[a].name, MODES[mode], (unsigned long long)total, ref_what,
                        (unsigned long long)ref_total);
                bad = 1;
            }
            if (mode == 1) {
                if (ref_cks == 0) ref_cks = cks;
                else if (cks != ref_cks) {
                    fprintf(
                        stderr,
                        "bench_cpu_multi: MISMATCH: %s per-pattern checksum %016llx != %016llx\n",
                        ALGOS[a].name, (unsigned long long)cks, (unsigned long long)ref_cks);
                    bad = 1;
                }
            }
        }
        wm_db_free(db);
    }
    wm_context_free(cx);
    if (text.seq) munmap((void *)text.seq, (size_t)text.len);
    free(counts);
    free(times);
    free(ps.buf);
    free(ps.p);
    free(ps.len);
    return bad ? 2 : 0;
}
