/*
** rows.c -- items formatted on worker threads, written in order (rows.h).
**
** Batches live in a ring and are numbered in the order they were gathered:
** [written, taken) are with the workers or formatted, [taken, filled) wait
** for a worker, `filled` is the one being gathered. Only the pushing thread
** gathers; a worker that finishes the batch at the head of the ring writes
** it and every finished batch after it (one writer at a time), so the
** output keeps the batches' order and the pushing thread neither formats
** nor copies text: it only gathers, and waits when every slot is in
** flight. A batch goes to the output's descriptor with write(2), after a
** flush of what the stream held (one copy fewer than through stdio's
** buffer; a stream with no descriptor, such as a memory stream, takes
** fwrite). A slot is reused once its text is written, so at most `ring`
** batches are alive.
*/
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rows.h"

/* Items a batch: large enough that handing it over costs little beside
** formatting it (about 4,096 x 40 ns), small enough that a few batches a
** thread stay in the caches' reach. */
#define ROWS_BATCH 4096
#define ROWS_MAX_THREADS 16

enum { FREE, QUEUED, DONE };

typedef struct {
    unsigned char *items;
    size_t n;
    FILE *out;
    wm_cli_rows_format_fn fn;
    const void *ctx;
    char *text; /* the formatted rows, once DONE */
    size_t len;
    int rc, err;
    int state;
} batch_t;

struct wm_cli_rows {
    size_t isz;
    int want; /* worker threads to start on the first full batch */
    pthread_t th[ROWS_MAX_THREADS];
    int started, tried;
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    batch_t *ring;
    size_t n_ring;
    uint64_t filled, taken, written;
    int stop;
    int writing;     /* a worker is writing the head (under mu) */
    int failed, err; /* the first failure (under mu once workers run) */
    int seen;        /* the pushing thread's copy of failed */
};

/* Turn a batch's items into its text (any thread). */
static void format_batch(batch_t *b) {
    b->text = NULL;
    b->len = 0;
    b->rc = 0;
    FILE *m = open_memstream(&b->text, &b->len);
    if (m == NULL) {
        b->rc = -1;
        b->err = ENOMEM;
        return;
    }
    __fsetlocking(m, FSETLOCKING_BYCALLER); /* this thread's alone */
    errno = 0;
    int rc = b->fn(m, b->items, b->n, b->ctx);
    int e = errno;
    if (fclose(m) != 0 && rc == 0) {
        rc = -1;
        e = ENOMEM;
    }
    if (rc < 0) {
        b->rc = -1;
        b->err = e ? e : ENOMEM;
    }
}

/* Write all of text to out: its descriptor after a flush, else fwrite.
** 0, or an errno. */
static int put_text(FILE *out, const char *text, size_t len) {
    int fd = fileno(out);
    if (fd < 0) return fwrite(text, 1, len, out) == len ? 0 : errno ? errno : EIO;
    if (fflush(out) != 0) return errno ? errno : EIO;
    while (len > 0) {
        ssize_t k = write(fd, text, len);
        if (k < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        text += k;
        len -= (size_t)k;
    }
    return 0;
}

/* Write a formatted batch unless an earlier one failed, and empty it (its
** slot is freed by the caller). Returns 0 or the batch's failure (an errno). */
static int emit(batch_t *b, int failed) {
    int e = 0;
    if (!failed) e = b->rc < 0 ? b->err : b->len > 0 ? put_text(b->out, b->text, b->len) : 0;
    free(b->text);
    b->text = NULL;
    b->len = 0;
    b->n = 0;
    return e;
}

/* A worker that finished a batch: unless another is writing, write the
** finished batches at the head, in order. Holds w->mu. */
static void write_head(wm_cli_rows_t *w) {
    if (w->writing) return;
    w->writing = 1;
    while (w->written < w->filled) {
        batch_t *b = &w->ring[w->written % w->n_ring];
        if (b->state != DONE) break;
        int failed = w->failed;
        pthread_mutex_unlock(&w->mu);
        int e = emit(b, failed);
        pthread_mutex_lock(&w->mu);
        if (e && !w->failed) {
            w->failed = 1;
            w->err = e;
        }
        b->state = FREE;
        w->written++;
        pthread_cond_broadcast(&w->done); /* room, or the end of a drain */
    }
    w->writing = 0;
}

static void *worker(void *arg) {
    wm_cli_rows_t *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->stop && w->taken == w->filled) pthread_cond_wait(&w->work, &w->mu);
        if (w->taken == w->filled) break; /* stopped, nothing left */
        batch_t *b = &w->ring[w->taken++ % w->n_ring];
        pthread_mutex_unlock(&w->mu);
        format_batch(b);
        pthread_mutex_lock(&w->mu);
        b->state = DONE;
        write_head(w);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

wm_cli_rows_t *wm_cli_rows_new(size_t item_size, int threads) {
    wm_cli_rows_t *w = calloc(1, sizeof *w);
    if (w == NULL || item_size == 0) {
        free(w);
        return NULL;
    }
    w->isz = item_size;
    w->want = threads > ROWS_MAX_THREADS ? ROWS_MAX_THREADS : threads > 1 ? threads : 0;
    w->n_ring = w->want > 0 ? 2 * (size_t)w->want + 2 : 1;
    w->ring = calloc(w->n_ring, sizeof *w->ring);
    int ok = w->ring != NULL;
    for (size_t i = 0; ok && i < w->n_ring; ++i)
        ok = (w->ring[i].items = malloc(ROWS_BATCH * item_size)) != NULL;
    if (!ok) {
        for (size_t i = 0; w->ring != NULL && i < w->n_ring; ++i) free(w->ring[i].items);
        free(w->ring);
        free(w);
        return NULL;
    }
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->work, NULL);
    pthread_cond_init(&w->done, NULL);
    return w;
}

/* The workers, on the first batch that needs them (a short listing never
** starts a thread). Threads that cannot start leave the work to the others,
** or to the pushing thread. */
static void start_workers(wm_cli_rows_t *w) {
    w->tried = 1;
    for (int i = 0; i < w->want; ++i)
        if (pthread_create(&w->th[w->started], NULL, worker, w) == 0) w->started++;
}

/* Wait until the workers wrote every batch but `keep` (the ring's room for
** the next). Holds w->mu; notes a failure for the pushing thread. */
static void wait_written(wm_cli_rows_t *w, uint64_t keep) {
    while (w->filled - w->written > keep) pthread_cond_wait(&w->done, &w->mu);
    w->seen = w->failed;
}

/* Hand over the batch being gathered; `full` when it is (a listing that
** never fills one is formatted here, without threads). */
static void submit(wm_cli_rows_t *w, int full) {
    batch_t *b = &w->ring[w->filled % w->n_ring];
    if (b->n == 0) return;
    if (!w->tried && full) start_workers(w);
    if (w->started == 0) { /* no workers: formatted and written here */
        format_batch(b);
        int e = emit(b, w->failed);
        if (e && !w->failed) {
            w->failed = w->seen = 1;
            w->err = e;
        }
        return;
    }
    pthread_mutex_lock(&w->mu);
    b->state = QUEUED;
    w->filled++;
    pthread_cond_signal(&w->work);
    wait_written(w, w->n_ring - 1); /* the next slot free */
    pthread_mutex_unlock(&w->mu);
}

static int status(wm_cli_rows_t *w) {
    if (!w->seen) return 0;
    if (w->started > 0) pthread_mutex_lock(&w->mu);
    errno = w->err;
    if (w->started > 0) pthread_mutex_unlock(&w->mu);
    return -1;
}

int wm_cli_rows_push_many(wm_cli_rows_t *w, FILE *out, wm_cli_rows_format_fn fn, const void *ctx,
                          const void *items, size_t n) {
    const unsigned char *p = items;
    while (n > 0 && !w->seen) {
        batch_t *b = &w->ring[w->filled % w->n_ring];
        if (b->n > 0 && (b->out != out || b->fn != fn || b->ctx != ctx)) {
            submit(w, 0);
            b = &w->ring[w->filled % w->n_ring];
        }
        if (b->n == 0) {
            b->out = out;
            b->fn = fn;
            b->ctx = ctx;
        }
        size_t take = ROWS_BATCH - b->n < n ? ROWS_BATCH - b->n : n;
        memcpy(b->items + b->n * w->isz, p, take * w->isz);
        b->n += take;
        p += take * w->isz;
        n -= take;
        if (b->n == ROWS_BATCH) submit(w, 1);
    }
    return status(w);
}

int wm_cli_rows_push(wm_cli_rows_t *w, FILE *out, wm_cli_rows_format_fn fn, const void *ctx,
                     const void *item) {
    return wm_cli_rows_push_many(w, out, fn, ctx, item, 1);
}

int wm_cli_rows_drain(wm_cli_rows_t *w) {
    submit(w, 0);
    if (w->started > 0) {
        pthread_mutex_lock(&w->mu);
        wait_written(w, 0);
        pthread_mutex_unlock(&w->mu);
    }
    return status(w);
}

void wm_cli_rows_free(wm_cli_rows_t *w) {
    if (w == NULL) return;
    wm_cli_rows_drain(w);
    pthread_mutex_lock(&w->mu);
    w->stop = 1;
    pthread_cond_broadcast(&w->work);
    pthread_mutex_unlock(&w->mu);
    for (int i = 0; i < w->started; ++i) pthread_join(w->th[i], NULL);
    for (size_t i = 0; i < w->n_ring; ++i) {
        free(w->ring[i].items);
        free(w->ring[i].text);
    }
    free(w->ring);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->work);
    pthread_cond_destroy(&w->done);
    free(w);
}
