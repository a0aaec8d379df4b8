/*
** harness.c -- the counters, checks, settings and closing lines of
** harness.h. Everything prints to stdout, so that a failure stands next to
** the progress lines around it in ctest's log.
*/
#include "harness.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "rng.h"

uint64_t g_seed;
double g_scale = 1.0;
int g_verbose;
long g_passed, g_failed;
int self_fail;
double g_t_oracle, g_t_lib;
double g_t_start, g_cpu_start;
void (*g_describe)(const void *c);

static int g_seed_known; /* test_settings ran: failures name the seed */

void test_settings(int argc, char **argv, uint64_t default_seed, double *scale, long *only) {
    const char *env = getenv("WM_SEED");
    g_t_start = now_s();
    g_cpu_start = cpu_s();
    g_seed = default_seed;
    if (argc > 1) g_seed = strtoull(argv[1], NULL, 0);
    else if (env && *env) g_seed = strtoull(env, NULL, 0);
    g_seed_known = 1;
    g_scale = 1.0;
    env = getenv("WM_TEST_SCALE");
    if (env && *env) g_scale = strtod(env, NULL);
    if (!(g_scale > 0)) g_scale = 1.0;
    if (scale) *scale = g_scale;
    env = getenv("WM_CASE");
    if (only && env && *env) *only = strtol(env, NULL, 10);
    env = getenv("WM_VERBOSE");
    g_verbose = env && *env && strcmp(env, "0") != 0;
}

long test_begin(const char *name, int argc, char **argv, uint64_t default_seed, long base_cases,
                void (*describe)(const void *c), long *only) {
    test_settings(argc, argv, default_seed, NULL, only);
    g_describe = describe;
    long n = (long)((double)base_cases * g_scale + 0.5);
    if (n < 1) n = 1;
    printf("%s: seed %" PRIu64 ", %ld cases (WM_TEST_SCALE %g), warpmatch %s\n", name, g_seed, n,
           g_scale, wm_version());
    fflush(stdout);
    return n;
}

void run_cases(long n_cases, long only, uint64_t salt, long every, void (*one)(long idx)) {
    if (only == -1) return;
    double t0 = now_s();
    for (long i = 0; i < n_cases; i++) {
        if (only >= 0 && i != only) continue;
        seed_case(i, salt);
        one(i);
        if (self_fail) {
            printf("oracle self-check FAILED on a random case; stopping\n");
            break;
        }
        if (only < 0) print_progress(i + 1, n_cases, every, t0);
    }
    printf("random cases: %.1f s\n", now_s() - t0);
    fflush(stdout);
}

/* ---- checks with a place -------------------------------------------------------- */

/* The file's name without its folders: __FILE__ is the full path here. */
static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int check_at(int ok, const char *file, int line, const char *cond, const char *fmt, ...) {
    if (ok) {
        g_passed++;
        return 1;
    }
    g_failed++;
    if (g_failed > MAX_DETAILED_FAILURES) {
        if (g_failed == MAX_DETAILED_FAILURES + 1)
            printf("(further failures are counted, not shown)\n");
        return 0;
    }
    printf("FAIL %s:%d: %s -- ", base_name(file), line, cond);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    if (g_seed_known) printf(" (seed %" PRIu64 ")", g_seed);
    printf("\n");
    fflush(stdout);
    return 0;
}

int check_rc_at(int got, int want, const char *file, int line, const char *call) {
    return check_at(got == want, file, line, "status", "%s returned %d (%s), expected %d (%s)",
                    call, got, wm_strerror(got), want, wm_strerror(want));
}

/* ---- checks of a random case ----------------------------------------------------- */

void print_case(long idx, const void *c, const char *what) {
    if (idx >= 0) printf("FAIL seed %" PRIu64 " case %ld: %s\n", g_seed, idx, what);
    else printf("FAIL seed %" PRIu64 ": %s\n", g_seed, what);
    if (c != NULL && g_describe != NULL) g_describe(c);
    fflush(stdout);
}

void fail_msg(long idx, const void *c, const char *what) {
    g_failed++;
    if (g_failed <= MAX_DETAILED_FAILURES) print_case(idx, c, what);
    else if (g_failed == MAX_DETAILED_FAILURES + 1)
        printf("(further failures are counted, not shown)\n");
    fflush(stdout);
}

void fail_fmt(long idx, const void *c, const char *fmt, ...) {
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fail_msg(idx, c, buf);
}

void check_true(const char *what, int ok) {
    if (ok) g_passed++;
    else fail_msg(-1, NULL, what);
}

void check_case_status(long idx, const void *c, const char *what, int got, int want,
                       wm_context_t *cx) {
    if (got == want) {
        g_passed++;
        return;
    }
    fail_fmt(idx, c, "%s: returned %d (%s), expected %d (%s); message \"%.300s\"", what, got,
             wm_strerror(got), want, wm_strerror(want), cx ? wm_context_errmsg(cx) : "");
}

void check_status(const char *what, int got, int want, wm_context_t *cx) {
    check_case_status(-1, NULL, what, got, want, cx);
}

/* ---- the closing lines ------------------------------------------------------------ */

int oracle_verdict(void) {
    if (self_fail == 0) {
        printf("oracle self-check: ok (%.1f s)\n", now_s() - g_t_start);
        fflush(stdout);
        return 0;
    }
    printf("oracle self-check: %d FAILED; library not tested\n", self_fail);
    printf("0 passed, %d failed\n", self_fail);
    return 1;
}

void part_done(const char *name) {
    printf("%s: %ld passed, %ld failed (%.1f s)\n", name, g_passed, g_failed, now_s() - g_t_start);
    fflush(stdout);
}

void print_progress(long done, long total, long every, double t_start) {
    if (every <= 0 || done % every != 0) return;
    printf("  %ld/%ld cases, %ld passed, %ld failed, %.1f s\n", done, total, g_passed, g_failed,
           now_s() - t_start);
    fflush(stdout);
}

void print_time_split(void) {
    printf("seed %" PRIu64 ": %.1f s wall, %.1f s cpu; wall %.1f s in the oracle, %.1f s in the"
           " library",
           g_seed, now_s() - g_t_start, cpu_s() - g_cpu_start, g_t_oracle, g_t_lib);
}

void print_repro(const char *argv0, const char *minus_one) {
    if (!g_failed && !self_fail) return;
    printf("reproduce one case: WM_SEED=%" PRIu64 " WM_TEST_SCALE=%g WM_CASE=<case> WM_VERBOSE=1"
           " %s",
           g_seed, g_scale, argv0);
    if (minus_one) printf(" (WM_CASE=-1: %s)", minus_one);
    printf("\n");
}

int test_finish(void) {
    printf("%ld passed, %ld failed\n", g_passed, g_failed + self_fail);
    return (g_failed || self_fail) ? 1 : 0;
}

void skip_note(const char *why) {
    printf("SKIP: %s\n", why);
    fflush(stdout);
}

/* ---- small things -------------------------------------------------------------------- */

double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double cpu_s(void) { return (double)clock() / CLOCKS_PER_SEC; }

static void out_of_memory(size_t n) {
    printf("test: out of memory (%zu bytes)\n", n);
    exit(2);
}

void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (p == NULL) out_of_memory(n);
    return p;
}

void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (p == NULL) out_of_memory(n * size);
    return p;
}

void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (q == NULL) out_of_memory(n);
    return q;
}

char *xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

void print_bytes(FILE *f, const uint8_t *s, size_t n, size_t limit) {
    fputc('"', f);
    for (size_t i = 0; i < n && i < limit; i++) {
        uint8_t c = s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') fputc(c, f);
        else fprintf(f, "\\x%02x", c);
    }
    fputc('"', f);
    if (n > limit) fprintf(f, "...(%zu bytes)", n);
}

int names_number(const char *s, uint64_t v) {
    char num[32];
    snprintf(num, sizeof num, "%" PRIu64, v);
    size_t k = strlen(num);
    for (const char *p = s; p && *p; p++)
        if (strncmp(p, num, k) == 0 && (p == s || p[-1] < '0' || p[-1] > '9') &&
            (p[k] < '0' || p[k] > '9'))
            return 1;
    return 0;
}

static int is_dir(const char *p) {
    struct stat st;
    return p && *p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* WMT_SOURCE_DIR: the repository, from tests/CMakeLists.txt, so that a test
** started by hand (not by ctest) finds the data beside it. */
#ifndef WMT_SOURCE_DIR
#define WMT_SOURCE_DIR "."
#endif

const char *shared_data_dir(void) {
    const char *e = getenv("WM_SHARED_DATA");
    if (e && *e) return is_dir(e) ? e : NULL;
    static const char beside[] = WMT_SOURCE_DIR "/../shared/data";
    return is_dir(beside) ? beside : NULL;
}

const char *repo_data_dir(void) {
    const char *e = getenv("WM_DATA");
    return e && *e ? e : WMT_SOURCE_DIR "/data";
}
