/*
** test_api_target.c -- targets kept on the GPU (wm_target_*): every call on
** a target gives what the ordinary call gives on its text (wm_search_target
** = wm_search, wm_count_target = wm_count, wm_align_target = wm_align of the
** slice), on CPU contexts and, when a GPU is found, on CUDA contexts: one
** with default batches, one with 64 KiB batches (so a call reads the
** resident copy at many offsets), and one whose buffers may not exceed
** 1 MiB, where a large target cannot be uploaded and must be copied as
** usual (the note says so). On the GPU a target is uploaded once, however
** many calls use it. Series (wm_target_new_series): wm_dtw_many_target =
** wm_dtw_many, bit for bit, in every mode (subsequence top 1 and top K,
** global with and without a band, znorm, ucr), three calls a target, the
** series uploaded once on the GPU (a series longer than a dtw chunk is read
** at several offsets); a NaN in the series is refused at every call. Then
** the misuse rules.
** Exit status 0 when all checks pass; the last line is "N passed, N failed".
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contexts.h"
#include "core/internal.h"
#include "harness.h"
#include "matches.h"
#include "rng.h"
#include "warpmatch.h"

#define KIB (1ull << 10)
#define MIB (1ull << 20)

typedef struct {
    wm_context_t *cx;
    const char *name;
    int gpu;
    int fits; /* the targets fit beside the call's buffers */
} ctx_t;

/* A text of n bytes over ACGT (DNA) or 8 letters, in 1-4 records, with
** copies of a pattern planted (some with a changed byte). */
static uint8_t *make_text(uint64_t n, int dna, uint64_t *rec, size_t *n_rec) {
    uint8_t *t = malloc(n ? n : 1);
    if (!t) return NULL;
    for (uint64_t i = 0; i < n; i++) t[i] = dna ? "ACGT"[below(4)] : "abcdefgh"[below(8)];
    *n_rec = (size_t)range(1, 4);
    rec[0] = 0;
    for (size_t r = 1; r < *n_rec; r++) rec[r] = n ? below(n) : 0;
    for (size_t r = 1; r < *n_rec; r++) /* sorted */
        for (size_t q = r; q > 1 && rec[q] < rec[q - 1]; q--) {
            uint64_t x = rec[q];
            rec[q] = rec[q - 1];
            rec[q - 1] = x;
        }
    return t;
}

static void plant(uint8_t *t, uint64_t n, const uint8_t *p, size_t m, int copies) {
    for (int c = 0; c < copies && n > m; c++) {
        uint64_t at = below(n - m);
        memcpy(t + at, p, m);
        if (chance(50)) t[at + below(m)] = 'T';
    }
}

/* Search and count on the target and on its text: the same. */
static void check_search(const ctx_t *c, wm_target_t *tg, const wm_text_t *text, const wm_db_t *db,
                         long idx) {
    match_vec want = { 0 }, got = { 0 };
    wm_status a = wm_search(c->cx, db, text, collect, &want);
    wm_status b = wm_search_target(c->cx, db, tg, collect, &got);
    CHECK(a == WM_OK && b == WM_OK, "%s case %ld: search %s / target %s", c->name, idx,
          wm_strerror(a), wm_strerror(b));
    compare_matches(idx, NULL, c->name, got.a, got.n, want.a, want.n);
    uint64_t n1 = 0, n2 = 0;
    CHECK(wm_count(c->cx, db, text, &n1) == WM_OK && wm_count_target(c->cx, db, tg, &n2) == WM_OK &&
              n1 == n2 && n1 == want.n,
          "%s case %ld: count %llu, target %llu, listed %zu", c->name, idx, (unsigned long long)n1,
          (unsigned long long)n2, want.n);
    free(want.a);
    free(got.a);
}

/* Align a query against [from, to) of the target and of the slice. */
static void check_align(const ctx_t *c, wm_target_t *tg, const uint8_t *t, const uint8_t *q,
                        size_t m, uint64_t from, uint64_t to, const wm_align_opts_t *o, long idx) {
    wm_alignments_t want = { 0 }, got = { 0 };
    wm_status a = wm_align(c->cx, q, m, t + from, to - from, o, &want);
    wm_status b = wm_align_target(c->cx, q, m, tg, from, to, o, &got);
    int same = a == b && want.n == got.n;
    for (size_t i = 0; same && i < want.n; i++) {
        const wm_alignment_t *x = &want.a[i], *y = &got.a[i];
        same = x->distance == y->distance && x->start == y->start && x->end == y->end &&
               (x->cigar == NULL) == (y->cigar == NULL) &&
               (x->cigar == NULL || strcmp(x->cigar, y->cigar) == 0);
    }
    CHECK(same, "%s case %ld: align m=%zu [%llu, %llu) k=%lld: %s n=%zu d=%llu vs %s n=%zu d=%llu",
          c->name, idx, m, (unsigned long long)from, (unsigned long long)to,
          (long long)o->max_distance, wm_strerror(a), want.n,
          want.n ? (unsigned long long)want.a[0].distance : 0ull, wm_strerror(b), got.n,
          got.n ? (unsigned long long)got.a[0].distance : 0ull);
    wm_alignments_free(&want);
    wm_alignments_free(&got);
}

/* One random case on one context: a target, several searches and
** alignments on it. */
static void one_case(const ctx_t *c, long idx, uint64_t n) {
    int dna = chance(50);
    uint64_t rec[4];
    size_t n_rec = 1;
    uint8_t *t = make_text(n, dna, rec, &n_rec);
    if (!CHECK(t != NULL, "out of memory")) return;
    size_t m = (size_t)range(4, 40);
    uint8_t q[64];
    for (size_t i = 0; i < m; i++) q[i] = dna ? "ACGT"[below(4)] : "abcdefgh"[below(8)];
    plant(t, n, q, m, (int)range(0, 5));
    wm_text_t text = { t, n, rec, n_rec };
    wm_target_t *tg = NULL;
    CHECK_RC(wm_target_new(c->cx, &text, &tg), WM_OK);
    uint64_t uploads0 = wm_context_stats(c->cx)->gpu_target_uploads;
    for (int call = 0; call < 3 && tg; call++) {
        wm_opts_t o = wm_opts_default();
        o.max_edits = (uint32_t)below(m < 8 ? 2 : 4);
        o.alphabet = dna ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
        o.revcomp = dna && chance(50);
        o.metric = chance(25) ? WM_METRIC_HAMMING : WM_METRIC_EDIT;
        size_t pm = (size_t)range(o.max_edits + 1, m);
        wm_db_t *db = NULL;
        if (wm_compile(q + (m - pm), pm, &o, &db) == WM_OK) {
            check_search(c, tg, &text, db, idx);
            /* the search's own buffers fit the limit; the target does not
            ** (the alignment's, next, do not either: it then runs on the
            ** CPU, and its note replaces this one) */
            if (c->gpu && !c->fits && call == 0) /* said at the first try, once a target */
                CHECK(strstr(wm_context_note(c->cx), "does not fit") != NULL,
                      "%s case %ld: note \"%s\"", c->name, idx, wm_context_note(c->cx));
        }
        wm_db_free(db);

        wm_align_opts_t ao = wm_align_opts_default();
        ao.cigar = chance(50);
        ao.max_distance = chance(30) ? -1 : (int64_t)below(m / 2 + 1);
        ao.alphabet = dna ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
        uint64_t from = n ? below(n) : 0, to = from + (n - from ? below(n - from + 1) : 0);
        if (chance(40)) from = 0, to = n; /* the whole target */
        check_align(c, tg, t, q, m, from, to, &ao, idx);
    }
    if (c->gpu && tg) {
        uint64_t uploads = wm_context_stats(c->cx)->gpu_target_uploads - uploads0;
        if (c->fits)
            CHECK(uploads == 1 && wm_target_resident(tg), "%s case %ld: %llu uploads, resident %d",
                  c->name, idx, (unsigned long long)uploads, wm_target_resident(tg));
        else
            CHECK(uploads == 0 && !wm_target_resident(tg), "%s case %ld: %llu uploads, resident %d",
                  c->name, idx, (unsigned long long)uploads, wm_target_resident(tg));
    }
    if (!c->gpu && tg) CHECK(!wm_target_resident(tg), "%s: resident on the CPU", c->name);
    wm_target_free(tg);
    free(t);
}

/* Matches equal, bit for bit. */
static int same_matches(const wm_dtw_matches_t *a, const wm_dtw_matches_t *b) {
    if (a->n != b->n) return 0;
    for (size_t i = 0; i < a->n; i++)
        if (a->a[i].start != b->a[i].start || a->a[i].end != b->a[i].end ||
            memcmp(&a->a[i].distance, &b->a[i].distance, sizeof(double)) != 0)
            return 0;
    return 1;
}

/* One random series kept as a target, three calls of several queries. */
static void one_series(const ctx_t *c, long idx, uint64_t n) {
    double *y = malloc(n * sizeof *y), w = 0;
    if (!CHECK(y != NULL, "out of memory")) return;
    for (uint64_t i = 0; i < n; i++) y[i] = (w += unif() - 0.5);
    wm_target_t *tg = NULL;
    CHECK_RC(wm_target_new_series(c->cx, y, n, &tg), WM_OK);
    uint64_t uploads0 = wm_context_stats(c->cx)->gpu_target_uploads;
    int on_gpu = 0; /* a call whose DP ran on the GPU over the series itself */
    for (int call = 0; call < 3 && tg; call++) {
        size_t nq = (size_t)range(1, 5), lens[5];
        const double *qs[5];
        for (size_t q = 0; q < nq; q++) {
            lens[q] = (size_t)range(1, n < 300 ? n : 300);
            qs[q] = y + below(n - lens[q] + 1); /* cut from the series */
        }
        wm_dtw_opts_t o = wm_dtw_opts_default();
        switch (below(5)) {
        case 0: break;
        case 1: o.top = range(2, 4); break;
        case 2: o.mode = WM_DTW_GLOBAL, o.window = chance(50) ? -1 : (int64_t)below(50); break;
        case 3: o.znorm = 1; break;
        default: o.mode = WM_DTW_UCR, o.window = 5; break;
        }
        o.cost = chance(50) ? WM_DTW_SQUARED : WM_DTW_ABS;
        /* banded global runs on the CPU (and ucr with top > 1); znorm
        ** matches a normalised copy of the series, uploaded as usual */
        on_gpu |= !o.znorm && (o.mode == WM_DTW_SUBSEQUENCE || o.mode == WM_DTW_UCR ||
                               (o.mode == WM_DTW_GLOBAL && o.window < 0));
        wm_dtw_matches_t a[5] = { { 0 } }, b[5] = { { 0 } };
        int ra = wm_dtw_many(c->cx, qs, lens, nq, y, n, &o, a);
        int rb = wm_dtw_many_target(c->cx, qs, lens, nq, tg, &o, b);
        CHECK(ra == WM_OK && rb == WM_OK, "%s series case %ld: status %d / %d", c->name, idx, ra,
              rb);
        for (size_t q = 0; q < nq; q++) {
            CHECK(same_matches(&a[q], &b[q]), "%s series case %ld call %d query %zu: mode %d",
                  c->name, idx, call, q, (int)o.mode);
            wm_dtw_matches_free(&a[q]);
            wm_dtw_matches_free(&b[q]);
        }
    }
    if (c->gpu && c->fits && tg) {
        uint64_t uploads = wm_context_stats(c->cx)->gpu_target_uploads - uploads0;
        CHECK(uploads == (uint64_t)on_gpu && wm_target_resident(tg) == on_gpu,
              "%s series case %ld: %llu uploads, %d calls on the GPU", c->name, idx,
              (unsigned long long)uploads, on_gpu);
    }
    wm_target_free(tg);
    free(y);
}

static void misuse(wm_context_t *cx, wm_context_t *other) {
    uint8_t t[100];
    memset(t, 'A', sizeof t);
    wm_text_t text = { t, sizeof t, NULL, 0 };
    wm_target_t *tg = NULL;
    CHECK_RC(wm_target_new(NULL, &text, &tg), WM_INVALID);
    CHECK(tg == NULL, "no target after an error");
    CHECK_RC(wm_target_new(cx, NULL, &tg), WM_INVALID);
    CHECK_RC(wm_target_new(cx, &text, NULL), WM_INVALID);
    wm_text_t bad = { NULL, 5, NULL, 0 };
    CHECK_RC(wm_target_new(cx, &bad, &tg), WM_INVALID);
    CHECK_RC(wm_target_new(cx, &text, &tg), WM_OK);
    wm_db_t *db = compile_text("AAA", NULL);
    uint64_t n = 0;
    CHECK_RC(wm_count_target(other, db, tg, &n), WM_INVALID); /* another context's target */
    CHECK_RC(wm_count_target(cx, db, NULL, &n), WM_INVALID);
    CHECK_RC(wm_count_target(cx, db, tg, &n), WM_OK);
    CHECK(n == 98, "AAA in 100 A's: %llu", (unsigned long long)n);
    wm_alignments_t out = { 0 };
    CHECK_RC(wm_align_target(cx, t, 3, tg, 50, 40, NULL, &out), WM_INVALID);
    CHECK(strstr(wm_context_errmsg(cx), "not within") != NULL, "message: %s",
          wm_context_errmsg(cx));
    CHECK_RC(wm_align_target(cx, t, 3, tg, 0, 101, NULL, &out), WM_INVALID);
    CHECK_RC(wm_align_target(cx, t, 3, tg, 10, 20, NULL, &out), WM_OK);
    CHECK(out.n == 1 && out.a[0].distance == 0, "AAA in [10, 20)");
    wm_alignments_free(&out);
    CHECK_RC(wm_align_target(cx, t, 3, tg, 20, 20, NULL, &out), WM_OK); /* empty slice */
    CHECK(out.n == 1 && out.a[0].distance == 3, "AAA in nothing: distance 3");
    wm_alignments_free(&out);
    wm_db_free(db);
    /* a text target is no series; a series with a NaN is refused every call */
    double q[3] = { 1, 2, 3 }, y[6] = { 1, 2, 3, NAN, 5, 6 };
    const double *qs[1] = { q };
    size_t lens[1] = { 3 };
    wm_dtw_matches_t r = { 0 };
    CHECK_RC(wm_dtw_many_target(cx, qs, lens, 1, tg, NULL, &r), WM_INVALID);
    CHECK(strstr(wm_context_errmsg(cx), "wm_target_new_series") != NULL, "message: %s",
          wm_context_errmsg(cx));
    wm_target_free(tg);
    tg = NULL;
    CHECK_RC(wm_target_new_series(cx, y, 6, &tg), WM_OK);
    for (int call = 0; call < 2; call++) {
        CHECK_RC(wm_dtw_many_target(cx, qs, lens, 1, tg, NULL, &r), WM_INVALID);
        CHECK(strstr(wm_context_errmsg(cx), "series sample 3 is NaN") != NULL, "message: %s",
              wm_context_errmsg(cx));
    }
    CHECK_RC(wm_dtw_many_target(other, qs, lens, 1, tg, NULL, &r), WM_INVALID);
    CHECK_RC(wm_dtw_many_target(cx, qs, lens, 1, NULL, NULL, &r), WM_INVALID);
    y[3] = 4; /* fixed before any call passed: the next call checks again */
    CHECK_RC(wm_dtw_many_target(cx, qs, lens, 1, tg, NULL, &r), WM_OK);
    CHECK(r.n == 1 && r.a[0].start == 0 && r.a[0].end == 3 && r.a[0].distance == 0,
          "1 2 3 in 1 2 3 4 5 6: [0, 3) at 0");
    wm_dtw_matches_free(&r);
    wm_target_free(tg);
    wm_target_free(NULL);
}

int main(int argc, char **argv) {
    double scale = 1.0;
    test_settings(argc, argv, 20261126, &scale, NULL);
    ctx_t cs[6];
    size_t nc = 0;
    wm_context_t *c1 = cpu_context(1, 0), *c4 = cpu_context(4, 4 * KIB);
    if (c1) cs[nc++] = (ctx_t){ c1, "cpu 1 thread", 0, 1 };
    if (c4) cs[nc++] = (ctx_t){ c4, "cpu 4 threads, 4 KiB chunks", 0, 1 };
    if (cuda_present("targets kept on the GPU")) {
        static const struct {
            const char *name;
            uint64_t batch, limit;
            int fits;
        } g[] = { { "cuda", 0, 0, 1 },
                  { "cuda, 64 KiB batches", 64 * KIB, 0, 1 },
                  { "cuda, buffers of 1 MiB at most", 64 * KIB, MIB, 0 } };
        for (size_t i = 0; i < N_OF(g); i++) {
            wm_context_opts_t co = wm_context_opts_default();
            co.backend = WM_BACKEND_CUDA;
            wm_context_t *cx = NULL;
            CHECK_RC(wm_context_new(&co, &cx), WM_OK);
            if (!cx) continue;
            wm_tuning_t *tu = wm_context_tuning(cx);
            if (g[i].batch) tu->search_batch_bytes = g[i].batch, tu->dtw_chunk = 1u << 16;
            tu->gpu_alloc_limit = g[i].limit;
            cs[nc++] = (ctx_t){ cx, g[i].name, 1, g[i].fits };
        }
    }
    long cases = (long)(60 * scale);
    for (size_t i = 0; i < nc; i++) {
        for (long k = 0; k < cases; k++) {
            seed_case(k, 77 + i);
            /* mostly small; every 10th 2-3 MiB (past the 1 MiB limit) */
            uint64_t n = k % 10 == 9 ? range(2 * MIB, 3 * MIB) : range(0, 20000);
            if (!cs[i].fits && n < 2 * MIB) n = 2 * MIB; /* the limit must bite */
            one_case(&cs[i], k, n);
        }
        for (long k = 0; k < cases / 3; k++) {
            seed_case(k, 1077 + i);
            /* every 5th series longer than the dtw chunk of the 64 KiB-batch
            ** context (2^16 samples): its calls read the resident copy at
            ** several offsets */
            one_series(&cs[i], k, range(1, k % 5 == 4 ? 200000 : 5000));
        }
        part_done(cs[i].name);
    }
    if (c1 && c4) misuse(c1, c4);
    for (size_t i = 2; i < nc; i++)
        if (cs[i].gpu) misuse(cs[i].cx, c1);
    for (size_t i = 0; i < nc; i++) wm_context_free(cs[i].cx);
    printf("%ld passed, %ld failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
