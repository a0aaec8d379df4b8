/*
** bench_util.c -- the helpers of bench_util.h: clock, median, CPU name,
** file reads, the Myers-step floor microbenchmark, the fork-split runner.
** The floor loop moved here from bench_cpu_align.c unchanged.
*/
#include "bench_util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *bu_prog = "bench";

double bu_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int bu_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bu_median(double *v, size_t n) {
    if (n == 0) return 0;
    qsort(v, n, sizeof *v, bu_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int bu_usable_cpus(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* One pass over /proc/cpuinfo: the first model name, and the number of
** physical cores (distinct physical id / core id pairs; 0 when it does not
** say). */
static void cpuinfo(char *model, size_t model_len, int *cores_out) {
    char line[512];
    int cores = 0, phys = 0;
    long seen[1024];
    snprintf(model, model_len, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        while (fgets(line, sizeof line, f)) {
            char *p = strchr(line, ':');
            if (!p) continue;
            p++;
            while (*p == ' ' || *p == '\t') p++;
            p[strcspn(p, "\n")] = '\0';
            if (!strncmp(line, "model name", 10) && !strcmp(model, "unknown CPU"))
                snprintf(model, model_len, "%s", p);
            else if (!strncmp(line, "physical id", 11)) phys = atoi(p);
            else if (!strncmp(line, "core id", 7)) {
                long key = (long)phys * 65536 + atol(p);
                int dup = 0;
                for (int i = 0; i < cores; i++) dup |= seen[i] == key;
                if (!dup && cores < 1024) seen[cores++] = key;
            }
        }
        fclose(f);
    }
    *cores_out = cores;
}

void bu_cpu_model(char *buf, size_t len) {
    int cores;
    cpuinfo(buf, len, &cores);
}

void bu_print_device(void) {
    char model[256];
    int cores;
    cpuinfo(model, sizeof model, &cores);
    char c[32] = "? physical cores";
    if (cores) snprintf(c, sizeof c, "%d physical cores", cores);
    printf("# device: %s; %s, %ld logical CPUs online, %d usable by this process\n", model, c,
           sysconf(_SC_NPROCESSORS_ONLN), bu_usable_cpus());
}

uint8_t *bu_read_file(const char *path, size_t *len) {
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "%s: %s: %s\n", bu_prog, path, strerror(errno));
        if (fd >= 0) close(fd);
        return NULL;
    }
    size_t n = (size_t)st.st_size, got = 0;
    uint8_t *buf = malloc(n ? n : 1);
    while (buf && got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r <= 0) {
            free(buf);
            buf = NULL;
            break;
        }
        got += (size_t)r;
    }
    close(fd);
    if (!buf) fprintf(stderr, "%s: %s: read failed\n", bu_prog, path);
    *len = n;
    return buf;
}

/* ---- the floor: Myers block steps with no memory traffic -------------------------- */

#define FLOOR_STEP(Pv, Mv, eqin, hpin, hnin, hpout, hnout)                                         \
    do {                                                                                           \
        uint64_t eq_ = (eqin) | (hnin);                                                            \
        uint64_t xv_ = (eqin) | (Mv);                                                              \
        uint64_t xh_ = ((((eq_) & (Pv)) + (Pv)) ^ (Pv)) | eq_;                                     \
        uint64_t ph_ = (Mv) | ~(xh_ | (Pv));                                                       \
        uint64_t mh_ = (Pv)&xh_;                                                                   \
        (hpout) = ph_ >> 63;                                                                       \
        (hnout) = mh_ >> 63;                                                                       \
        ph_ = (ph_ << 1) | (hpin);                                                                 \
        mh_ = (mh_ << 1) | (hnin);                                                                 \
        (Pv) = mh_ | ~(xv_ | ph_);                                                                 \
        (Mv) = ph_ & xv_;                                                                          \
    } while (0)
/* Keeps a value in a general register here: no vectorizing, no folding. */
#define FLOOR_PIN(x) __asm__("" : "+r"(x))

static volatile uint64_t floor_seed[6] = {
    0x9E3779B97F4A7C15ull, 0xBF58476D1CE4E5B9ull, 0x94D049BB133111EBull, 0x2545F4914F6CDD1Dull, 1, 0
};
static volatile uint64_t floor_sink;

/* BU_FLOOR_CHAINS block steps per iteration: one column of 4 blocks. */
static __attribute__((noinline)) uint64_t floor_loop(uint64_t iters) {
    uint64_t eq = floor_seed[0];
    uint64_t p0 = floor_seed[1], m0 = 0, p1 = floor_seed[2], m1 = 0;
    uint64_t p2 = floor_seed[3], m2 = 0, p3 = ~floor_seed[1], m3 = 0;
    uint64_t hp = floor_seed[4] & 1, hn = floor_seed[5] & 1, a, b, c, d, score = 0;
    for (; iters; iters--) {
        FLOOR_STEP(p0, m0, eq, hp, hn, a, b);
        FLOOR_STEP(p1, m1, eq, a, b, c, d);
        FLOOR_STEP(p2, m2, eq, c, d, a, b);
        FLOOR_STEP(p3, m3, eq, a, b, c, d);
        score += c - d;
        FLOOR_PIN(p0);
        FLOOR_PIN(m0);
        FLOOR_PIN(p1);
        FLOOR_PIN(m1);
        FLOOR_PIN(p2);
        FLOOR_PIN(m2);
        FLOOR_PIN(p3);
        FLOOR_PIN(m3);
    }
    return p0 ^ m0 ^ p1 ^ m1 ^ p2 ^ m2 ^ p3 ^ m3 ^ score;
}
#define FLOOR_STEPS_PER_ITER BU_FLOOR_CHAINS

typedef struct {
    uint64_t iters;
    pthread_barrier_t *go;
} floor_arg_t;

static void *floor_thread(void *p) {
    floor_arg_t *a = p;
    pthread_barrier_wait(a->go);
    floor_sink ^= floor_loop(a->iters);
    return NULL;
}

double bu_floor_rate(int threads, double seconds, int tries) {
    uint64_t iters = 1 << 16;
    for (;;) { /* calibrate on one thread */
        double t0 = bu_now_s();
        floor_sink ^= floor_loop(iters);
        double t = bu_now_s() - t0;
        if (t > seconds / 4 || iters > (1ull << 40)) {
            iters = (uint64_t)((double)iters * seconds / (t > 1e-9 ? t : 1e-9)) + 1;
            break;
        }
        iters *= 4;
    }
    double best = 0;
    pthread_t tid[256];
    if (threads > 256) threads = 256;
    for (int r = 0; r < tries; r++) {
        pthread_barrier_t go;
        pthread_barrier_init(&go, NULL, (unsigned)threads + 1);
        floor_arg_t a = { iters, &go };
        int started = 0;
        for (; started < threads; started++)
            if (pthread_create(&tid[started], NULL, floor_thread, &a)) break;
        if (started < threads) { /* could not start them all: release and give up */
            fprintf(stderr, "%s: floor: only %d of %d threads started\n", bu_prog, started,
                    threads);
            exit(2);
        }
        pthread_barrier_wait(&go);
        double t0 = bu_now_s();
        for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
        double t = bu_now_s() - t0;
        pthread_barrier_destroy(&go);
        double rate = (double)threads * (double)iters * FLOOR_STEPS_PER_ITER / t;
        if (rate > best) best = rate;
    }
    return best;
}

/* ---- N processes, one start ------------------------------------------------------ */

void *bu_shared_alloc(size_t bytes) {
    void *p =
        mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void bu_shared_free(void *p, size_t bytes) {
    if (p) munmap(p, bytes ? bytes : 1);
}

typedef struct {
    double end_s; /* CLOCK_MONOTONIC at the child's finish */
    int rc;       /* fn's return value */
    int done;
} fs_slot_t;

double bu_fork_split(int n_parts, bu_part_fn fn, void *arg, char *msg, size_t msg_len) {
    if (n_parts < 1) n_parts = 1;
    size_t bytes = (size_t)n_parts * sizeof(fs_slot_t) + sizeof(int);
    fs_slot_t *slot = bu_shared_alloc(bytes);
    if (!slot) {
        snprintf(msg, msg_len, "mmap: %s", strerror(errno));
        return -1;
    }
    volatile int *abort_all = (volatile int *)(slot + n_parts);
    int go[2];
    if (pipe(go) != 0) {
        snprintf(msg, msg_len, "pipe: %s", strerror(errno));
        bu_shared_free(slot, bytes);
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t *pid = calloc((size_t)n_parts, sizeof *pid);
    int forked = 0;
    for (; pid && forked < n_parts; forked++) {
        pid_t p = fork();
        if (p < 0) break;
        if (p == 0) {
            close(go[1]);
            char c;
            while (read(go[0], &c, 1) < 0 && errno == EINTR) {} /* EOF = go */
            int rc = *abort_all ? 1 : fn(forked, n_parts, arg);
            slot[forked].end_s = bu_now_s();
            slot[forked].rc = rc;
            slot[forked].done = 1;
            _exit(rc ? 1 : 0);
        }
        pid[forked] = p;
    }
    int fork_failed = forked < n_parts;
    if (fork_failed) *abort_all = 1;
    double t0 = bu_now_s();
    close(go[1]); /* every child's read returns 0 now */
    close(go[0]);
    int bad = 0;
    for (int i = 0; i < forked; i++) {
        int st = 0;
        while (waitpid(pid[i], &st, 0) < 0 && errno == EINTR) {}
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !slot[i].done) bad = i + 1;
    }
    double t1 = t0;
    for (int i = 0; i < forked; i++)
        if (slot[i].done && slot[i].end_s > t1) t1 = slot[i].end_s;
    double r = t1 - t0;
    if (fork_failed) {
        snprintf(msg, msg_len, "fork failed after %d of %d processes", forked, n_parts);
        r = -1;
    } else if (bad) {
        snprintf(msg, msg_len, "process %d of %d failed", bad - 1, n_parts);
        r = -1;
    }
    free(pid);
    bu_shared_free(slot, bytes);
    return r;
}

/* ---- FASTA records ----------------------------------------------------------------- */

long bu_fasta_parse(uint8_t *buf, size_t len, uint64_t **off_out) {
    size_t cap = 1024, n = 0, w = 0, i = 0;
    uint64_t *off = malloc(cap * sizeof *off);
    if (!off) {
        fprintf(stderr, "%s: out of memory\n", bu_prog);
        return -1;
    }
    while (i < len && (buf[i] == '\n' || buf[i] == '\r')) i++;
    if (i < len && buf[i] != '>') {
        fprintf(stderr, "%s: not FASTA (no '>' at the start)\n", bu_prog);
        free(off);
        return -1;
    }
    while (i < len) {
        /* at a '>': skip the header line */
        const uint8_t *nl = memchr(buf + i, '\n', len - i);
        i = nl ? (size_t)(nl - buf) + 1 : len;
        if (n + 2 > cap) {
            uint64_t *o = realloc(off, 2 * cap * sizeof *off);
            if (!o) {
                fprintf(stderr, "%s: out of memory\n", bu_prog);
                free(off);
                return -1;
            }
            off = o;
            cap *= 2;
        }
        off[n++] = w;
        /* sequence lines up to the next line that starts with '>' */
        while (i < len && buf[i] != '>') {
            nl = memchr(buf + i, '\n', len - i);
            size_t e = nl ? (size_t)(nl - buf) : len;
            for (; i < e; i++) {
                uint8_t c = buf[i];
                if (c != '\r' && c != ' ' && c != '\t') buf[w++] = c;
            }
            i = e < len ? e + 1 : len;
        }
    }
    off[n] = w;
    *off_out = off;
    return (long)n;
}

int bu_parse_size(const char *s, uint64_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s) return -1;
    switch (*end) {
    case 'k':
    case 'K':
        v <<= 10;
        end++;
        break;
    case 'm':
    case 'M':
        v <<= 20;
        end++;
        break;
    case 'g':
    case 'G':
        v <<= 30;
        end++;
        break;
    default: break;
    }
    if (*end == 'i' || *end == 'B') end++; /* 256MiB, 256MB */
    if (*end == 'B') end++;
    if (*end) return -1;
    *out = v;
    return 0;
}
