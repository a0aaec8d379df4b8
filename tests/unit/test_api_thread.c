/*
** test_api_thread.c -- a context made on one thread and called on another.
** The CUDA runtime keeps the current device per host thread, so a context of
** device d made on a thread of its own (as the CLI makes it while reading
** its inputs) and then called from a thread whose current device is another
** must still run on d: every call binds its context's device first
** (include/warpmatch.h, "One context is used by one thread at a time").
** For each GPU d: the main thread first makes and uses a context of device
** 0 (its current device is then 0), a helper thread makes one of device d,
** and the main thread calls it: search counts, a stream, infix and global
** alignment, pairs and packed pairs, dtw and a dtw matrix, each against the
** same call on the CPU. With one GPU the device is the default one and the
** test still checks the calls; with none it says so and checks nothing.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "rng.h"
#include "warpmatch.h"

#define TEXT_LEN (8u << 20)
#define N_PAIRS 3000
#define PAIR_LEN 150
#define SERIES_LEN 200000
#define N_QUERIES 16
#define Q_LEN 64

static uint8_t *g_text;
static uint8_t *g_pq, *g_pt; /* pairs: N_PAIRS queries and targets, PAIR_LEN each */
static double *g_series, *g_q;

static void make_inputs(void) {
    static const char acgt[] = "ACGT";
    g_text = malloc(TEXT_LEN);
    for (size_t i = 0; i < TEXT_LEN; i++) g_text[i] = (uint8_t)acgt[below(4)];
    g_pq = malloc(N_PAIRS * PAIR_LEN);
    g_pt = malloc(N_PAIRS * PAIR_LEN);
    for (size_t i = 0; i < N_PAIRS * PAIR_LEN; i++) {
        g_pq[i] = (uint8_t)acgt[below(4)];
        g_pt[i] = below(10) ? g_pq[i] : (uint8_t)acgt[below(4)]; /* ~7.5% differ */
    }
    g_series = malloc(SERIES_LEN * sizeof *g_series);
    double v = 0;
    for (size_t i = 0; i < SERIES_LEN; i++) g_series[i] = v += (double)below(2001) / 1000.0 - 1.0;
    g_q = malloc(N_QUERIES * Q_LEN * sizeof *g_q);
    for (size_t q = 0; q < N_QUERIES; q++) {
        size_t at = (size_t)below(SERIES_LEN - Q_LEN);
        for (size_t j = 0; j < Q_LEN; j++)
            g_q[q * Q_LEN + j] = g_series[at + j] + (double)below(101) / 1000.0;
    }
}

/* ---- the calls, each giving a digest of its results ------------------------------ */

typedef struct {
    uint64_t count, count_stream;
    uint64_t align_dist, align_end;
    uint64_t pairs_sum, packed_sum;
    double dtw_sum, matrix_sum;
    wm_status st;
    char what[64];
} digest_t;

static int count_cb(const wm_match_t *m, void *user) {
    (void)m;
    ++*(uint64_t *)user;
    return 0;
}

static void fail(digest_t *d, wm_status st, const char *what) {
    if (d->st == WM_OK) {
        d->st = st;
        snprintf(d->what, sizeof d->what, "%s", what);
    }
}

static void run_calls(wm_context_t *cx, digest_t *d) {
    memset(d, 0, sizeof *d);
    wm_opts_t o = wm_opts_default();
    o.max_edits = 1;
    o.alphabet = WM_ALPHABET_DNA;
    wm_db_t *db = NULL;
    wm_status st = wm_compile(g_text + 777777, 20, &o, &db);
    if (st != WM_OK) return fail(d, st, "wm_compile");
    wm_text_t t = { g_text, TEXT_LEN, NULL, 0 };
    if ((st = wm_count(cx, db, &t, &d->count)) != WM_OK) fail(d, st, "wm_count");

    wm_stream_t *s = NULL;
    if ((st = wm_stream_open(cx, db, count_cb, &d->count_stream, &s)) != WM_OK) {
        fail(d, st, "wm_stream_open");
    } else {
        for (size_t at = 0; at < TEXT_LEN && st == WM_OK; at += TEXT_LEN / 4)
            st = wm_stream_feed(s, g_text + at, TEXT_LEN / 4);
        if (st == WM_OK) st = wm_stream_close(s);
        if (st != WM_OK) fail(d, st, "wm_stream_feed");
        wm_stream_free(s);
    }
    wm_db_free(db);

    wm_align_opts_t ao = wm_align_opts_default();
    ao.alphabet = WM_ALPHABET_DNA;
    wm_alignments_t al = { NULL, 0 };
    if ((st = wm_align(cx, g_text + 5000000, 300, g_text, 2000000, &ao, &al)) != WM_OK) {
        fail(d, st, "wm_align");
    } else if (al.n > 0) {
        d->align_dist = al.a[0].distance;
        d->align_end = al.a[0].end;
    }
    wm_alignments_free(&al);

    ao.mode = WM_ALIGN_GLOBAL;
    ao.cigar = 1;
    wm_pair_t *pairs = malloc(N_PAIRS * sizeof *pairs);
    wm_alignment_t *out = calloc(N_PAIRS, sizeof *out);
    uint64_t *qo = malloc((N_PAIRS + 1) * sizeof *qo), *to = malloc((N_PAIRS + 1) * sizeof *to);
    for (size_t i = 0; i < N_PAIRS; i++) {
        pairs[i] = (wm_pair_t){ g_pq + i * PAIR_LEN, PAIR_LEN, g_pt + i * PAIR_LEN, PAIR_LEN };
        qo[i] = to[i] = i * PAIR_LEN;
    }
    qo[N_PAIRS] = to[N_PAIRS] = N_PAIRS * PAIR_LEN;
    if ((st = wm_align_pairs(cx, pairs, N_PAIRS, &ao, out)) != WM_OK) fail(d, st, "wm_align_pairs");
    for (size_t i = 0; st == WM_OK && i < N_PAIRS; i++)
        d->pairs_sum += out[i].distance * 1000003u + (out[i].cigar ? strlen(out[i].cigar) : 0);
    wm_alignment_clear(out, N_PAIRS);
    wm_pairs_packed_t in = { N_PAIRS, g_pq, qo, g_pt, to };
    wm_pair_results_t pr;
    memset(&pr, 0, sizeof pr);
    if ((st = wm_align_pairs_packed(cx, &in, &ao, &pr)) != WM_OK)
        fail(d, st, "wm_align_pairs_packed");
    for (size_t i = 0; st == WM_OK && i < N_PAIRS; i++)
        d->packed_sum += pr.distance[i] * 1000003u + (pr.cigar_off[i + 1] - pr.cigar_off[i]);
    wm_pair_results_free(&pr);
    free(pairs);
    free(out);
    free(qo);
    free(to);

    const double *qs[N_QUERIES];
    size_t lens[N_QUERIES];
    for (size_t q = 0; q < N_QUERIES; q++) {
        qs[q] = g_q + q * Q_LEN;
        lens[q] = Q_LEN;
    }
    wm_dtw_matches_t dm[N_QUERIES];
    if ((st = wm_dtw_many(cx, qs, lens, N_QUERIES, g_series, SERIES_LEN, NULL, dm)) != WM_OK) {
        fail(d, st, "wm_dtw_many");
    } else {
        for (size_t q = 0; q < N_QUERIES; q++) {
            for (size_t i = 0; i < dm[q].n; i++)
                d->dtw_sum += dm[q].a[i].distance + (double)dm[q].a[i].end;
            wm_dtw_matches_free(&dm[q]);
        }
    }
    wm_dtw_opts_t go = wm_dtw_opts_default();
    go.mode = WM_DTW_GLOBAL;
    double mat[N_QUERIES * N_QUERIES];
    if ((st = wm_dtw_matrix(cx, qs, lens, N_QUERIES, NULL, NULL, 0, &go, mat)) != WM_OK)
        fail(d, st, "wm_dtw_matrix");
    for (size_t i = 0; st == WM_OK && i < N_QUERIES * N_QUERIES; i++) d->matrix_sum += mat[i];
}

/* ---- a context made on a thread of its own ---------------------------------------- */

typedef struct {
    int device;
    wm_context_t *cx;
    wm_status st;
} maker_t;

static void *make_on_thread(void *arg) {
    maker_t *mk = arg;
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_CUDA;
    co.device = mk->device;
    mk->st = wm_context_new(&co, &mk->cx);
    return NULL;
}

static void same(const digest_t *a, const digest_t *b, const char *who) {
    CHECK(b->st == WM_OK, "%s: %s failed: %s", who, b->what, wm_strerror(b->st));
    if (b->st != WM_OK) return;
    CHECK(a->count == b->count && a->count_stream == b->count_stream,
          "%s: counts %llu / %llu (stream), the CPU's %llu / %llu", who,
          (unsigned long long)b->count, (unsigned long long)b->count_stream,
          (unsigned long long)a->count, (unsigned long long)a->count_stream);
    CHECK(a->align_dist == b->align_dist && a->align_end == b->align_end,
          "%s: align %llu at %llu, the CPU's %llu at %llu", who, (unsigned long long)b->align_dist,
          (unsigned long long)b->align_end, (unsigned long long)a->align_dist,
          (unsigned long long)a->align_end);
    CHECK(a->pairs_sum == b->pairs_sum && a->packed_sum == b->packed_sum,
          "%s: pairs digests differ from the CPU's", who);
    CHECK(a->dtw_sum == b->dtw_sum && a->matrix_sum == b->matrix_sum,
          "%s: dtw %.17g / matrix %.17g, the CPU's %.17g / %.17g", who, b->dtw_sum, b->matrix_sum,
          a->dtw_sum, a->matrix_sum);
}

int main(int argc, char **argv) {
    double scale = 1.0;
    long only = -2;
    test_settings(argc, argv, 20261128ull, &scale, &only);
    seed_case(0, 0x7423ad);
    int n_gpu = wm_cuda_device_count();
    if (n_gpu == 0) {
        printf("cuda: skipped (no GPU): nothing to check here\n");
        return test_finish();
    }
    printf("cuda: %d device(s), each context made on a thread of its own\n", n_gpu);
    make_inputs();
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_CPU;
    wm_context_t *cpu = NULL;
    CHECK(wm_context_new(&co, &cpu) == WM_OK, "the CPU context");
    digest_t want;
    run_calls(cpu, &want);
    CHECK(want.st == WM_OK, "CPU: %s failed: %s", want.what, wm_strerror(want.st));
    CHECK(want.count > 0 && want.count_stream == want.count,
          "the CPU's counts %llu / %llu: the pattern is cut from the text",
          (unsigned long long)want.count, (unsigned long long)want.count_stream);

    /* the main thread's current device becomes 0 */
    co.backend = WM_BACKEND_CUDA;
    co.device = 0;
    wm_context_t *zero = NULL;
    CHECK(wm_context_new(&co, &zero) == WM_OK, "a context of device 0 on the main thread");
    digest_t got;
    run_calls(zero, &got);
    same(&want, &got, "device 0, made here");
    for (int d = 0; d < n_gpu; d++) {
        maker_t mk = { d, NULL, WM_OK };
        pthread_t th;
        if (!CHECK(pthread_create(&th, NULL, make_on_thread, &mk) == 0, "pthread_create")) break;
        pthread_join(th, NULL);
        if (!CHECK(mk.st == WM_OK, "device %d: wm_context_new: %s", d, wm_strerror(mk.st)))
            continue;
        char who[64];
        snprintf(who, sizeof who, "device %d, made on another thread", d);
        run_calls(mk.cx, &got);
        same(&want, &got, who);
        run_calls(zero, &got); /* and back: device 0's context still runs on 0 */
        snprintf(who, sizeof who, "device 0 after device %d", d);
        same(&want, &got, who);
        wm_context_free(mk.cx);
    }
    wm_context_free(zero);
    wm_context_free(cpu);
    free(g_text);
    free(g_pq);
    free(g_pt);
    free(g_series);
    free(g_q);
    return test_finish();
}
