/*
** args.c -- small helpers the commands share: error messages on stderr,
** option value parsing and choices, getopt's errors, the IUPAC test,
** making a context, stdout's buffer and last flush, a monotonic clock.
*/
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "core/internal.h"
#include "mpi/dist.h"

/* The last message, kept for the MPI job's agreement on failures: ranks
** other than 0 print nothing themselves (every rank meets the same option
** errors; rank 0 says them once), and a failure only one rank meets is
** printed by rank 0 with that rank's number. */
static char last_error[4096];

void wm_cli_error(const char *fmt, ...) {
    va_list ap;
    /* One fprintf per part; stderr is unbuffered, so build the line first to
    ** keep it whole when several processes share the terminal. */
    char *line = last_error;
    size_t cap = sizeof last_error;
    int n = snprintf(line, cap, "%s: ", WM_PROG);
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < cap) vsnprintf(line + n, cap - (size_t)n, fmt, ap);
    va_end(ap);
    if (wm_dist.rank == 0) fprintf(stderr, "%s\n", line);
}

const char *wm_cli_last_error(void) {
    size_t skip = strlen(WM_PROG) + 2; /* without "warpmatch: " */
    return strncmp(last_error, WM_PROG ": ", skip) == 0 ? last_error + skip : last_error;
}

int wm_cli_parse_u64(const char *s, uint64_t max, int allow_suffix, uint64_t *out) {
    uint64_t v = 0;
    const char *p = s;
    if (s == NULL || *p < '0' || *p > '9') return -1; /* no sign, no blank, no empty string */
    for (; *p >= '0' && *p <= '9'; ++p) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) return -1;
        v = v * 10 + d;
    }
    if (*p != '\0') {
        unsigned shift;
        if (!allow_suffix || p[1] != '\0') return -1;
        switch (*p) {
        case 'k':
        case 'K': shift = 10; break;
        case 'm':
        case 'M': shift = 20; break;
        case 'g':
        case 'G': shift = 30; break;
        case 't':
        case 'T': shift = 40; break;
        default: return -1;
        }
        if (v > (UINT64_MAX >> shift)) return -1;
        v <<= shift;
    }
    if (v > max) return -1;
    *out = v;
    return 0;
}

int wm_cli_option_u64(const char *name, const char *s, uint64_t max, int allow_suffix,
                      uint64_t *out) {
    if (wm_cli_parse_u64(s, max, allow_suffix, out) == 0) return 0;
    wm_cli_error("invalid value '%s' for %s (expected a whole number from 0 to %llu%s)", s, name,
                 (unsigned long long)max, allow_suffix ? ", optionally with K, M or G" : "");
    return -1;
}

int wm_cli_option_gpus(const char *val, wm_context_opts_t *co) {
    static int list[WM_CLI_MAX_GPUS]; /* co points here for the process's life */
    int n = 0;
    if (strcmp(val, "all") == 0) {
        int found = wm_cuda_device_count();
        if (found <= 0) {
            wm_cli_error("--gpus all: no CUDA GPU found");
            return -1;
        }
        if (found > WM_CLI_MAX_GPUS) {
            wm_cli_error("--gpus all: %d GPUs found; at most %d are used together (list them)",
                         found, WM_CLI_MAX_GPUS);
            return -1;
        }
        for (n = 0; n < found; n++) list[n] = n;
    } else {
        /* Items between commas: each a whole number; "", "1,,2" and "1," are not. */
        for (const char *p = val;; ++n) {
            const char *comma = strchr(p, ',');
            size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
            char item[24];
            uint64_t v;
            if (n == WM_CLI_MAX_GPUS) {
                wm_cli_error("invalid value '%s' for --gpus (at most %d GPUs)", val,
                             WM_CLI_MAX_GPUS);
                return -1;
            }
            if (len == 0 || len >= sizeof item) {
                v = UINT64_MAX; /* empty or far too long: refused below */
            } else {
                memcpy(item, p, len);
                item[len] = '\0';
                if (wm_cli_parse_u64(item, INT_MAX, 0, &v) != 0) v = UINT64_MAX;
            }
            if (v == UINT64_MAX) {
                wm_cli_error("invalid value '%s' for --gpus (expected all, or GPU ordinals "
                             "separated by commas such as 0,2,3)",
                             val);
                return -1;
            }
            list[n] = (int)v;
            if (comma == NULL) {
                ++n;
                break;
            }
            p = comma + 1;
        }
    }
    co->devices = list;
    co->n_devices = n;
    return 0;
}

int wm_cli_lookup(const char *s, const char *const *words) {
    for (int i = 0; words[i] != NULL; ++i)
        if (strcmp(s, words[i]) == 0) return i;
    return -1;
}

int wm_cli_choose(const char *opt, const char *val, const char *const *words) {
    int i = wm_cli_lookup(val, words);
    if (i < 0) {
        char list[128] = "";
        for (int j = 0; words[j] != NULL; ++j) {
            strncat(list,
                    j == 0                 ? ""
                    : words[j + 1] == NULL ? " or "
                                           : ", ",
                    sizeof list - strlen(list) - 1);
            strncat(list, words[j], sizeof list - strlen(list) - 1);
        }
        wm_cli_error("unknown %s '%s' (expected %s)", opt, val, list);
    }
    return i;
}

void wm_cli_getopt_error(int c, char **argv) {
    if (c == ':') {
        if (optopt > 0 && optopt < 256) wm_cli_error("option '-%c' needs a value", optopt);
        else wm_cli_error("option '%s' needs a value", argv[optind - 1]);
    } else {
        if (optopt > 0 && optopt < 256) wm_cli_error("unknown option '-%c'", optopt);
        else wm_cli_error("unknown option '%s'", argv[optind - 1]);
    }
}

/* IUPAC nucleotide codes, either case, and U. */
#define IUPAC_CODES(X)                                                                             \
    X('A')                                                                                         \
    X('C')                                                                                         \
    X('G')                                                                                         \
    X('T') X('U') X('R') X('Y') X('S') X('W') X('K') X('M') X('B') X('D') X('H') X('V') X('N')
#define IUPAC_BOTH(c) [c] = 1, [(c) | 0x20] = 1,
static const uint8_t iupac_ok[256] = { IUPAC_CODES(IUPAC_BOTH) };

int wm_cli_is_iupac(const uint8_t *p, size_t m) {
    /* A table, and no branch a byte within a block: align checks whole
    ** query files with it (10 M reads are 1.5 GB). */
    for (size_t i = 0; i < m;) {
        size_t e = m - i > 4096 ? i + 4096 : m;
        unsigned bad = 0;
        for (; i < e; ++i) bad |= iupac_ok[p[i]] ^ 1u;
        if (bad) return 0;
    }
    return 1;
}

const char *const wm_cli_backend_words[] = { "auto", "cpu", "cuda", NULL };

const char *wm_cli_status_msg(const wm_context_t *cx, wm_status st) {
    const char *msg = cx != NULL ? wm_context_errmsg(cx) : NULL;
    return msg != NULL && msg[0] != '\0' ? msg : wm_strerror(st);
}

wm_status wm_cli_context_new(const wm_context_opts_t *co, wm_context_t **cx) {
    *cx = NULL;
    wm_status st = wm_context_new(co, cx);
    if (st != WM_OK) {
        unsigned b = (unsigned)co->backend;
        wm_cli_error("cannot use the %s backend: %s",
                     b <= WM_BACKEND_CUDA ? wm_cli_backend_words[b] : "?",
                     wm_cli_status_msg(*cx, st));
        wm_context_free(*cx);
        *cx = NULL;
    }
    return st;
}

static void *make_context(void *arg) {
    wm_cli_context_bg_t *bg = arg;
    double t0 = wm_cli_now();
    bg->st = wm_context_new(&bg->co, &bg->cx);
    bg->seconds = wm_cli_now() - t0;
    __atomic_store_n(&bg->ready, 1, __ATOMIC_RELEASE);
    return NULL;
}

wm_status wm_cli_context_start(wm_cli_context_bg_t *bg, const wm_context_opts_t *co) {
    memset(bg, 0, sizeof *bg);
    bg->co = *co;
    bg->started = wm_cli_now();
    if (co->backend == WM_BACKEND_CPU || !wm_cuda_built()) {
        double t0 = wm_cli_now();
        bg->st = wm_cli_context_new(co, &bg->cx);
        bg->seconds = wm_cli_now() - t0;
        return bg->st;
    }
    if (pthread_create(&bg->thread, NULL, make_context, bg) == 0) bg->running = 1;
    else make_context(bg); /* no thread to be had: make it here */
    return WM_OK;
}

int wm_cli_context_start_cuda(wm_cli_context_bg_t *bg, const wm_context_opts_t *co) {
    return co->backend == WM_BACKEND_CUDA && wm_cuda_built() &&
           wm_cli_context_start(bg, co) == WM_OK;
}

wm_status wm_cli_context_take(wm_cli_context_bg_t *bg, int started, const wm_context_opts_t *co,
                              wm_context_t **cx) {
    return started ? wm_cli_context_wait(bg, cx) : wm_cli_context_new(co, cx);
}

int wm_cli_timing_on(void) {
    const char *on = getenv("WM_CUDA_TIMING");
    return on != NULL && atoi(on) > 0;
}

/* The warm-up: threads take 4 MiB pieces of the input in order and read a
** byte a page, until the context is ready or the input is done. */
#define WARM_PIECE (4u << 20)
typedef struct {
    wm_cli_context_bg_t *bg;
    const volatile uint8_t *p;
    size_t n, next; /* next: the next piece to take (atomic) */
} warm_t;

static void *warm_pages(void *arg) {
    warm_t *w = arg;
    long page = sysconf(_SC_PAGESIZE);
    size_t step = page > 0 ? (size_t)page : 4096;
    uint8_t sum = 0;
    while (!__atomic_load_n(&w->bg->ready, __ATOMIC_ACQUIRE)) {
        size_t from = __atomic_fetch_add(&w->next, WARM_PIECE, __ATOMIC_RELAXED);
        if (from >= w->n) break;
        size_t to = w->n - from < WARM_PIECE ? w->n : from + WARM_PIECE;
        for (size_t i = from; i < to; i += step) sum += w->p[i];
    }
    return (void *)(uintptr_t)sum;
}

wm_status wm_cli_context_wait_warm(wm_cli_context_bg_t *bg, wm_context_t **cx, const void *p,
                                   size_t n) {
    if (bg->running && p != NULL && n > WARM_PIECE &&
        !__atomic_load_n(&bg->ready, __ATOMIC_ACQUIRE)) {
        warm_t w = { bg, p, n, 0 };
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        int want = bg->co.threads > 0 ? bg->co.threads : cores > 0 ? (int)cores : 1;
        if (want > 64) want = 64;
        pthread_t th[64];
        int started = 0;
        for (int i = 1; i < want; i++) /* this thread is the want-th */
            if (pthread_create(&th[started], NULL, warm_pages, &w) == 0) started++;
        warm_pages(&w);
        for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
        bg->warmed = w.next < n ? w.next : n;
    }
    double t0 = wm_cli_now();
    int threaded = bg->running; /* a CPU context was made at once: nothing to say */
    wm_status st = wm_cli_context_wait(bg, cx);
    if (threaded && wm_cli_timing_on())
        fprintf(
            stderr,
            "context: made in %.4f s; %zu input bytes faulted in meanwhile, then %.4f s waited\n",
            bg->seconds, bg->warmed, wm_cli_now() - t0);
    return st;
}

static int context_left; /* a context thread is still running: leave by _exit */

int wm_cli_context_leave(wm_cli_context_bg_t *bg) {
    if (!bg->running || __atomic_load_n(&bg->ready, __ATOMIC_ACQUIRE)) return 0;
    if (wm_cli_timing_on())
        fprintf(stderr, "context: not needed, left unfinished after %.4f s\n",
                wm_cli_now() - bg->started);
    pthread_detach(bg->thread);
    bg->running = 0;
    context_left = 1;
    return 1;
}

int wm_cli_exit(int rc) {
    if (context_left) _exit(rc);
    return rc;
}

void wm_cli_context_abandon(wm_cli_context_bg_t *bg) {
    if (!bg->running) return;
    pthread_join(bg->thread, NULL);
    bg->running = 0;
    wm_context_free(bg->cx);
    bg->cx = NULL;
}

wm_status wm_cli_context_wait(wm_cli_context_bg_t *bg, wm_context_t **cx) {
    if (bg->running) {
        pthread_join(bg->thread, NULL);
        bg->running = 0;
        if (bg->st != WM_OK) { /* said once, here, as wm_cli_context_new says it */
            unsigned b = (unsigned)bg->co.backend;
            wm_cli_error("cannot use the %s backend: %s",
                         b <= WM_BACKEND_CUDA ? wm_cli_backend_words[b] : "?",
                         wm_cli_status_msg(bg->cx, bg->st));
            wm_context_free(bg->cx);
            bg->cx = NULL;
        }
    }
    *cx = bg->cx;
    return bg->st;
}

void wm_cli_buffer_stdout(void) {
    static char buf[1 << 20];
    if (isatty(STDOUT_FILENO)) setvbuf(stdout, NULL, _IOLBF, 0); /* a person reads it */
    else setvbuf(stdout, buf, _IOFBF, sizeof buf);
}

/* A failed write of stdout was dealt with (reported, or a closed pipe that
** ends quietly): wm_cli_close_stdout says nothing more. */
static int stdout_failure_seen;

int wm_cli_help_status(void) { return wm_cli_flush_stdout(0, 0) < 0 ? WM_EXIT_ERROR : 0; }

int wm_cli_flush_stdout(int write_failed, int write_errno) {
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout) && !write_failed) return 0;
    int e = write_failed && write_errno != 0 ? write_errno : errno;
    stdout_failure_seen = 1;
    if (e == EPIPE) return 1;
    wm_cli_error("error writing the output: %s", e != 0 ? strerror(e) : "unknown error");
    return -1;
}

int wm_cli_close_stdout(int rc) {
    errno = 0;
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad || stdout_failure_seen) return rc;
    if (e == EPIPE) return rc; /* a closed pipe: quiet, as wm_cli_flush_stdout */
    wm_cli_error("error writing the output: %s", e != 0 ? strerror(e) : "unknown error");
    return WM_EXIT_ERROR;
}

int wm_cli_threads(int asked) {
    long t = asked > 0 ? asked : sysconf(_SC_NPROCESSORS_ONLN);
    return t < 1 ? 1 : t > 256 ? 256 : (int)t;
}

wm_pool_t *wm_cli_pool(int asked) {
    int t = wm_cli_threads(asked);
    return t > 1 ? wm_pool_new(t) : NULL;
}

double wm_cli_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void wm_cli_note(const wm_context_t *cx) {
    const char *note = wm_context_note(cx);
    if (note[0]) fprintf(stderr, "warpmatch: note: %s\n", note);
}

void wm_cli_gpu_timing(const wm_context_t *cx, int device) {
    const wm_stats_t *s = wm_context_stats(cx);
    if (wm_cli_timing_on() && s && s->setk_gpu_batches > 0)
        fprintf(stderr,
                "cuda set within k (device %d): %llu batches, seeds %.4f s (%llu found in %.4f s, "
                "%llu paired), verify and direct %.4f s, %llu hits copied %.4f s, finished on the "
                "host %.4f s (of which handed over %.4f s)\n",
                device, (unsigned long long)s->setk_gpu_batches, s->setk_gpu_seed_s,
                (unsigned long long)s->setk_gpu_seeds, s->setk_gpu_seed_kernel_s,
                (unsigned long long)s->setk_gpu_kept, s->setk_gpu_verify_s,
                (unsigned long long)s->setk_gpu_hits, s->setk_gpu_copy_s, s->setk_gpu_finish_s,
                s->setk_gpu_deliver_s);
    if (!wm_cli_timing_on() || !s || s->search_gpu_batches == 0) return;
    fprintf(stderr,
            "cuda search (device %d): set-up (tables, buffers) %.4f s, %llu batches of %llu bytes "
            "(copy, search, hits) %.4f s, %llu bytes staged by reading the file\n",
            device, s->search_gpu_setup_s, (unsigned long long)s->search_gpu_batches,
            (unsigned long long)s->search_gpu_batch_bytes, s->search_gpu_loop_s,
            (unsigned long long)s->search_gpu_read_bytes);
}

void wm_cli_pairs_timing(const wm_context_t *cx) {
    if (!wm_cli_timing_on() || !wm_context_ok(cx)) return;
    int n = cx->n_sub > 1 ? cx->n_sub : 1;
    for (int i = 0; i < n; i++) {
        const wm_context_t *c = cx->n_sub > 1 ? cx->sub[i] : cx;
        const wm_stats_t *s = &c->stats;
        if (s->pairs_gpu_batches == 0) continue;
        fprintf(stderr,
                "cuda pairs (device %d): %llu batches, packed %.4f s, waited for the GPU %.4f s, "
                "handed over %.4f s\n",
                c->opts.device, (unsigned long long)s->pairs_gpu_batches, s->pairs_gpu_pack_s,
                s->pairs_gpu_wait_s, s->pairs_gpu_deliver_s);
    }
}

void wm_cli_context_free(wm_context_t *cx) {
    double t0 = wm_cli_now();
    int gpu = cx != NULL && wm_context_backend(cx) == WM_BACKEND_CUDA;
    wm_context_free(cx);
    if (gpu && wm_cli_timing_on()) fprintf(stderr, "context: freed in %.4f s\n", wm_cli_now() - t0);
}
