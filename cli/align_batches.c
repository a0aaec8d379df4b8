/*
** align_batches.c -- the pairs of a run (global mode, --pairs, a PAIRS.tsv)
** in batches of up to 2^20 through wm_align_pairs, and their rows.
**
** A batch is viewed (wm_pair_t over the inputs' bytes), aligned by the
** library, then its rows are formatted and written. Two batches are in
** flight: while the rows of batch i are made on the main thread, batch i + 1
** is viewed and aligned on a thread of its own (the GPU's batches of 10 M
** pairs took 0.73 s and their rows 0.89 s one after the other, BENCHMARKS.md
** 26). The rows stay in pair order, and a library error in batch i + 1 is
** reported after every row of batch i, as without the overlap. Where every
** pair is a query of its own (--pairs, a PAIRS.tsv) a batch's rows are made
** on all threads at once, in slices, and written in order.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "warpmatch.h"
#include "cli.h"
#include "align.h"
#include "out.h"

#define PAIR_BATCH ((size_t)1 << 20)

/* Pairs a batch; the tests set WM_TEST_PAIR_BATCH to cross many batch edges
** with small inputs. */
static size_t pair_batch(void) {
    const char *s = getenv("WM_TEST_PAIR_BATCH");
    long v = s ? atol(s) : 0;
    return v > 0 ? (size_t)v : PAIR_BATCH;
}

size_t wm_cli_align_pair_count(const wm_cli_align_run_t *r) {
    if (r->tsv) return r->pt.n;
    if (r->a->pairs) return r->q.n_rec;
    return r->q.n_rec * r->t.n_rec; /* checked against overflow in prepare */
}

/* Pair number k (query-major, as the one-by-one loop): its sequences and
** names (line numbers go through buf), and which query and target record
** it is (a PAIRS.tsv line is its own query and target: qi = ti = k). */
static void pair_at(const wm_cli_align_run_t *r, size_t k, wm_pair_t *p, const char **qname,
                    const char **tname, char *buf, size_t buflen, size_t *qi, size_t *ti) {
    if (r->tsv) {
        p->query = r->pt.seq[2 * k];
        p->m = (size_t)r->pt.len[2 * k];
        p->target = r->pt.seq[2 * k + 1];
        p->n = r->pt.len[2 * k + 1];
        snprintf(buf, buflen, "%llu", (unsigned long long)r->pt.line[k]);
        *qname = *tname = buf;
        *qi = *ti = k;
        return;
    }
    *qi = r->a->pairs ? k : k / r->t.n_rec;
    *ti = r->a->pairs ? k : k % r->t.n_rec;
    uint64_t m;
    p->query = wm_cli_input_rec(&r->q, *qi, &m);
    p->m = (size_t)m;
    p->target = wm_cli_input_rec(&r->t, *ti, &p->n);
    *qname = wm_cli_input_name(&r->q, *qi);
    *tname = wm_cli_input_name(&r->t, *ti);
}

/* ---- rows -------------------------------------------------------------------- */

/* The rows of pairs base + [from, to) of a batch (results A, per slots a
** pair), printed to r->out in pair order. */
static int rows_of(wm_cli_align_run_t *r, size_t base, size_t from, size_t to, size_t per,
                   wm_alignment_t *A) {
    char buf[32];
    const char *qn, *tn;
    size_t qi, ti;
    for (size_t k = from; k < to; k++) {
        wm_pair_t p;
        pair_at(r, base + k, &p, &qn, &tn, buf, sizeof buf, &qi, &ti);
        const uint8_t *qual =
            !r->tsv && r->q.quals ? r->q.quals + (r->q.starts[qi] - r->q.starts[0]) : NULL;
        /* a PAIRS.tsv line and --pairs are queries of their own */
        size_t key = r->tsv || r->a->pairs ? base + k : qi;
        if (wm_cli_hits_begin(r, key, qn, p.query, p.m, qual) < 0) return -1;
        for (size_t s = 0; s < per; ++s)
            if (A[k * per + s].distance != WM_ALIGN_NONE)
                wm_cli_hits_add(r, ti, tn, p.n, (int)s, &A[k * per + s]);
        if ((r->tsv || r->a->pairs) && wm_cli_hits_flush(r) < 0) return -1;
        r->cells_done += (uint64_t)p.m * p.n * per;
    }
    return 0;
}

/* Rows made on threads: where each pair is a query of its own, a pair's
** rows are final with it, so slices of the batch are formatted at once into
** memory and written in order. A million pairs' rows took 0.3 s on one
** thread, the alignments 0.03 s on the GPU. Slices: four a thread, so that
** a slow thread holds up little. */
#define ROWS_PARALLEL_MIN 4096
#define ROW_SLICES_PER_THREAD 4

static int rows_parallel(const wm_cli_align_run_t *r) { return r->tsv || r->a->pairs; }

/* One slice's rows: its own run (rows, hits, counts), text and outcome. */
typedef struct {
    wm_cli_align_run_t local;
    char *text;
    size_t len;
    int rc;
} row_slice_t;

typedef struct {
    wm_cli_align_run_t *r;
    size_t base, nb, per;
    wm_alignment_t *A;
    size_t n_slices;
    size_t next; /* the next slice (atomic) */
    row_slice_t *slice;
} rows_job_t;

static void *rows_worker(void *arg) {
    rows_job_t *J = arg;
    for (;;) {
        size_t t = __atomic_fetch_add(&J->next, 1, __ATOMIC_RELAXED);
        if (t >= J->n_slices) break;
        row_slice_t *S = &J->slice[t];
        wm_cli_align_run_t *l = &S->local;
        *l = *J->r; /* the same inputs and options; its own rows, hits, counts */
        memset(&l->hits, 0, sizeof l->hits);
        l->pg.enabled = 0;
        l->n_printed = 0;
        l->cells_done = 0;
        l->out = open_memstream(&S->text, &S->len);
        if (!l->out) {
            S->rc = -1;
            continue;
        }
        size_t from = J->nb * t / J->n_slices, to = J->nb * (t + 1) / J->n_slices;
        S->rc = rows_of(l, J->base, from, to, J->per, J->A);
        if (fclose(l->out) != 0) S->rc = -1;
        l->out = NULL;
        free(l->hits.v);
    }
    return NULL;
}

static int rows_on_threads(wm_cli_align_run_t *r, size_t base, size_t nb, size_t per,
                           wm_alignment_t *A) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int want = r->a->sh.co.threads > 0 ? r->a->sh.co.threads : cores > 0 ? (int)cores : 1;
    if (want > 1024) want = 1024;
    if (nb < ROWS_PARALLEL_MIN || want < 2) return rows_of(r, base, 0, nb, per, A);
    rows_job_t J = { r, base, nb, per, A, (size_t)want * ROW_SLICES_PER_THREAD, 0, NULL };
    J.slice = calloc(J.n_slices, sizeof *J.slice);
    pthread_t *th = malloc((size_t)want * sizeof *th);
    if (!J.slice || !th) {
        free(th);
        free(J.slice);
        return rows_of(r, base, 0, nb, per, A);
    }
    int started = 0;
    for (int i = 1; i < want; i++)
        if (pthread_create(&th[started], NULL, rows_worker, &J) == 0) started++;
    rows_worker(&J);
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    free(th);
    int rc = 0;
    if (r->pg.enabled) wm_progress_clear(&r->pg); /* rows never land in its line */
    for (size_t t = 0; t < J.n_slices; t++) {
        row_slice_t *S = &J.slice[t];
        if (rc == 0 && S->rc == 0) {
            fwrite(S->text, 1, S->len, r->out);
            r->n_printed += S->local.n_printed;
            r->cells_done += S->local.cells_done;
        } else if (rc == 0) {
            if (!S->text) wm_cli_error("%s", wm_strerror(WM_NOMEM));
            rc = -1;
        }
        free(S->text);
    }
    free(J.slice);
    if (rc == 0) wm_out_flush_due(r->out, &r->t_flush, 0.5);
    return rc;
}

/* ---- batches --------------------------------------------------------------------- */

/* One batch: pairs base + [0, nb), per slots a pair (with both strands pair
** k takes slots 2k, '+', and 2k + 1, '-'), and what the library said. */
typedef struct {
    wm_cli_align_run_t *r;
    wm_pair_t *P;
    wm_alignment_t *A;
    size_t base, nb, per;
    wm_status st;
    double t_views, t_lib;
    pthread_t th;
    int on_thread; /* th runs it, to be joined */
} batch_t;

/* View and align one batch. It reads the run's inputs and options only
** (and uses the context, which nothing else uses meanwhile). */
static void batch_align(batch_t *b) {
    const wm_cli_align_run_t *r = b->r;
    char buf[32];
    const char *qn, *tn;
    size_t qi, ti;
    double t0 = wm_cli_now();
    for (size_t k = 0; k < b->nb; k++) {
        wm_pair_t *p = &b->P[k * b->per];
        pair_at(r, b->base + k, p, &qn, &tn, buf, sizeof buf, &qi, &ti);
        if (b->per == 2) {
            p[1] = p[0];
            p[1].query = wm_cli_align_rc(r, qi);
        }
    }
    double t1 = wm_cli_now();
    b->st = wm_align_pairs(r->cx, b->P, b->nb * b->per, &r->o, b->A);
    b->t_views = t1 - t0;
    b->t_lib = wm_cli_now() - t1;
}

static void *batch_main(void *arg) {
    batch_align(arg);
    return NULL;
}

/* Start the batch at base (of nb pairs) on its thread, or run it here when
** no thread can be made. */
static void batch_start(batch_t *b, size_t base, size_t nb) {
    b->base = base;
    b->nb = nb;
    b->on_thread = pthread_create(&b->th, NULL, batch_main, b) == 0;
    if (!b->on_thread) batch_align(b);
}

static void batch_wait(batch_t *b) {
    if (b->on_thread) pthread_join(b->th, NULL);
    b->on_thread = 0;
}

/* A batch the library refused: the message names the pair. */
static void batch_error(wm_cli_align_run_t *r, batch_t *b) {
    const char *msg = wm_context_errmsg(r->cx);
    char buf[32];
    const char *qn, *tn;
    size_t bad = 0, qi, ti;
    int used = 0;
    wm_cli_hits_flush(r);
    fflush(r->out);
    if (sscanf(msg, "pair %zu: %n", &bad, &used) == 1 && used > 0 && bad < b->nb * b->per) {
        wm_pair_t p;
        pair_at(r, b->base + bad / b->per, &p, &qn, &tn, buf, sizeof buf, &qi, &ti);
        wm_cli_error("cannot align query '%.200s'%s to target '%.200s' (%s mode): %s", qn,
                     bad % b->per ? " (reverse complement)" : "", tn,
                     wm_cli_align_mode_words[r->o.mode], msg + used);
    } else {
        wm_cli_error("cannot align (%s mode): %s", wm_cli_align_mode_words[r->o.mode],
                     wm_cli_status_msg(r->cx, b->st));
    }
}

int wm_cli_align_batches(wm_cli_align_run_t *r, size_t from, size_t to) {
    size_t total = to - from, most = pair_batch(), cap = total < most ? total : most;
    size_t per = r->both_strands ? 2 : 1, slots = (cap ? cap : 1) * per;
    /* a second batch in flight only when there is one */
    int n_buf = total > cap ? 2 : 1;
    batch_t B[2];
    memset(B, 0, sizeof B);
    int rc = 0;
    for (int i = 0; i < n_buf; i++) {
        B[i].r = r;
        B[i].per = per;
        B[i].P = malloc(slots * sizeof *B[i].P);
        B[i].A = malloc(slots * sizeof *B[i].A);
        if (!B[i].P || !B[i].A) rc = -1;
    }
    if (rc < 0) wm_cli_error("out of memory for a batch of %zu pairs", cap);
    if (rc == 0 && total > 0 && !ferror(r->out)) {
        B[0].base = from;
        B[0].nb = cap;
        batch_align(&B[0]);
    }
    for (size_t i = 0; rc == 0 && total > 0 && B[0].nb > 0; i++) {
        batch_t *b = &B[i % n_buf], *next = &B[(i + 1) % n_buf];
        batch_wait(b);
        r->t_views += b->t_views;
        r->t_lib += b->t_lib;
        if (b->st != WM_OK) {
            batch_error(r, b);
            rc = -1;
            break;
        }
        double t2 = wm_cli_now();
        size_t nbase = b->base + b->nb;
        /* the next batch aligns while this one's rows are made */
        int started = nbase < to && !ferror(r->out);
        if (started) batch_start(next, nbase, to - nbase < cap ? to - nbase : cap);
        if (rows_parallel(r) ? rows_on_threads(r, b->base, b->nb, per, b->A) < 0
                             : rows_of(r, b->base, 0, b->nb, per, b->A) < 0)
            rc = -1;
        wm_progress_report(r->cells_done, r->cells_total, &r->pg);
        wm_alignment_clear(b->A, b->nb * per);
        wm_cli_align_note_write_error(r);
        r->t_rows += wm_cli_now() - t2;
        if (!started) break;
        if (rc < 0 || ferror(r->out)) { /* the batch in flight is not printed */
            batch_wait(next);
            if (next->st == WM_OK) wm_alignment_clear(next->A, next->nb * per);
            break;
        }
    }
    for (int i = 0; i < 2; i++) {
        free(B[i].P);
        free(B[i].A);
    }
    return rc;
}
