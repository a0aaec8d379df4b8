/*
** test_gpu_recover.c -- a GPU that runs out of memory changes where the
** work runs, never what it finds (src/core/recover.c). Every family is run
** on a CUDA context whose largest allowed buffer (tuning.gpu_alloc_limit)
** is made small enough that
**   - its pieces must shrink before they fit (the call is tried again), or
**   - nothing fits (the call, or what is left of it, runs on the CPU),
** and its output is compared, byte for byte, with a CPU context's. The
** search and set listings are made to fail half-way, on a dense stretch
** whose hit buffers outgrow the limit after earlier batches were delivered,
** so that going on from where the GPU stopped is tested too. The stats and
** the note must say what happened. Without a GPU the test says so and passes.
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

#define MIB (1ull << 20)

/* A CUDA context whose buffers may not exceed `limit` bytes (0: no limit),
** with batches of `batch` text bytes (0: the default). */
static wm_context_t *gpu_context(uint64_t limit, uint64_t batch) {
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_CUDA;
    wm_context_t *cx = NULL;
    CHECK_RC(wm_context_new(&co, &cx), WM_OK);
    if (!cx) return NULL;
    wm_tuning_t *tu = wm_context_tuning(cx);
    tu->gpu_alloc_limit = limit;
    if (batch) tu->search_batch_bytes = batch;
    return cx;
}

/* What the limit was to make happen: "retry" (pieces shrank, the GPU
** finished) or "fallback" (the CPU finished). */
static void expect_recovery(wm_context_t *cx, const char *what, const char *want) {
    const wm_stats_t *s = wm_context_stats(cx);
    const char *note = wm_context_note(cx);
    if (strcmp(want, "retry") == 0) {
        CHECK(s->gpu_retries > 0 && s->gpu_fallbacks == 0,
              "%s: %llu retries, %llu fallbacks; want retries and no fallback", what,
              (unsigned long long)s->gpu_retries, (unsigned long long)s->gpu_fallbacks);
        CHECK(strstr(note, "pieces cut") != NULL, "%s: note \"%s\"", what, note);
    } else {
        CHECK(s->gpu_fallbacks > 0, "%s: no fallback to the CPU (%llu retries)", what,
              (unsigned long long)s->gpu_retries);
        CHECK(strstr(note, "ran on the CPU") != NULL, "%s: note \"%s\"", what, note);
    }
}

/* ---- search and sets: listings that fail half-way --------------------------- */

/* 24 MiB: random DNA, then 8 MiB of A's (a hit at every byte for AAAA). */
static uint8_t *dense_text(uint64_t *len) {
    uint64_t n = 24 * MIB;
    uint8_t *t = malloc(n);
    if (!t) return NULL;
    for (uint64_t i = 0; i < 16 * MIB; i++) t[i] = "ACGT"[below(4)];
    memset(t + 16 * MIB, 'A', 8 * MIB);
    *len = n;
    return t;
}

static void run_listing(const char *what, const wm_db_t *db, const wm_text_t *t,
                        const match_vec *want, uint64_t limit, uint64_t batch, const char *expect) {
    wm_context_t *cx = gpu_context(limit, batch);
    if (!cx) return;
    match_vec got = { 0 };
    CHECK_RC(wm_search(cx, db, t, collect, &got), WM_OK);
    compare_matches(0, NULL, what, got.a, got.n, want->a, want->n);
    if (expect) expect_recovery(cx, what, expect);
    uint64_t n = 0;
    CHECK_RC(wm_count(cx, db, t, &n), WM_OK);
    CHECK(n == want->n, "%s: count %llu, want %zu", what, (unsigned long long)n, want->n);
    free(got.a);
    wm_context_free(cx);
}

static void test_search_and_sets(void) {
    uint64_t len = 0;
    uint8_t *seq = dense_text(&len);
    CHECK(seq != NULL, "24 MiB of text");
    if (!seq) return;
    wm_text_t t = { seq, len, NULL, 0 };
    wm_context_t *cpu = cpu_context(2, 0);

    static const char *const one[] = { "AAAA", "ACGTACGT" };
    for (size_t p = 0; p < N_OF(one); p++) {
        wm_opts_t o = wm_opts_default();
        o.max_edits = (uint32_t)p; /* exact AAAA, ACGTACGT within 1 */
        wm_db_t *db = compile_text(one[p], &o);
        match_vec want = { 0 };
        if (db && cpu) CHECK_RC(wm_search(cpu, db, &t, collect, &want), WM_OK);
        char what[96];
        /* 4 MiB batches: the dense ones need 4 M hits of 8 bytes, over the
        ** 8 MiB limit even at the 1 MiB floor (a fallback after batches were
        ** delivered); a 24 MiB limit is met by halving (AAAA: at 2 MiB). */
        snprintf(what, sizeof what, "search %s, 8 MiB limit", one[p]);
        if (db) run_listing(what, db, &t, &want, 8 * MIB, 4 * MIB, p == 0 ? "fallback" : NULL);
        snprintf(what, sizeof what, "search %s, 24 MiB limit", one[p]);
        if (db) run_listing(what, db, &t, &want, 24 * MIB, 16 * MIB, p == 0 ? "retry" : NULL);
        snprintf(what, sizeof what, "search %s, nothing fits", one[p]);
        if (db) run_listing(what, db, &t, &want, 1, 0, "fallback");
        free(want.a);
        wm_db_free(db);
    }

    const uint8_t *pats[] = { (const uint8_t *)"AAAA", (const uint8_t *)"CGTA",
                              (const uint8_t *)"GATTACA" };
    size_t lens[] = { 4, 4, 7 };
    wm_db_t *set = NULL;
    wm_opts_t so = wm_opts_default();
    CHECK_RC(wm_compile_set(pats, lens, 3, &so, &set), WM_OK);
    if (set && cpu) {
        match_vec want = { 0 };
        CHECK_RC(wm_search(cpu, set, &t, collect, &want), WM_OK);
        uint64_t want_pp[3] = { 0 }, got_pp[3] = { 0 };
        CHECK_RC(wm_count_per_pattern(cpu, set, &t, want_pp), WM_OK);
        run_listing("set, 8 MiB limit", set, &t, &want, 8 * MIB, 0, "fallback");
        run_listing("set, nothing fits", set, &t, &want, 1, 0, "fallback");
        wm_context_t *cx = gpu_context(1, 0);
        if (cx) {
            CHECK_RC(wm_count_per_pattern(cx, set, &t, got_pp), WM_OK);
            CHECK(memcmp(got_pp, want_pp, sizeof got_pp) == 0,
                  "set counts per pattern after a fallback: %llu %llu %llu, want %llu %llu %llu",
                  (unsigned long long)got_pp[0], (unsigned long long)got_pp[1],
                  (unsigned long long)got_pp[2], (unsigned long long)want_pp[0],
                  (unsigned long long)want_pp[1], (unsigned long long)want_pp[2]);
            wm_context_free(cx);
        }
        free(want.a);
    }
    wm_db_free(set);
    wm_context_free(cpu);
    free(seq);
}

/* ---- align: infix over a long target, pairs with CIGARs --------------------- */

static int same_alignment(const wm_alignment_t *a, const wm_alignment_t *b) {
    return a->distance == b->distance && a->start == b->start && a->end == b->end &&
           (a->cigar == NULL) == (b->cigar == NULL) && (!a->cigar || !strcmp(a->cigar, b->cigar));
}

static void test_align(void) {
    uint64_t n = 32 * MIB;
    uint8_t *target = malloc(n);
    CHECK(target != NULL, "32 MiB target");
    if (!target) return;
    for (uint64_t i = 0; i < n; i++) target[i] = "ACGT"[below(4)];
    uint8_t query[100];
    memcpy(query, target + 20 * MIB, sizeof query);
    query[50] ^= 6; /* one substitution */
    wm_align_opts_t o = wm_align_opts_default();
    o.cigar = 1;
    wm_context_t *cpu = cpu_context(2, 0);
    wm_alignments_t want = { 0 };
    if (cpu) CHECK_RC(wm_align(cpu, query, sizeof query, target, n, &o, &want), WM_OK);
    /* infix batches start at a quarter of free memory (at most 1 GiB): 8 MiB
    ** is reached by halving, 2 MiB is below the floor */
    static const struct {
        uint64_t limit;
        const char *expect;
    } lim[] = { { 8 * MIB, "retry" }, { 2 * MIB, "fallback" } };
    for (size_t i = 0; i < N_OF(lim); i++) {
        wm_context_t *cx = gpu_context(lim[i].limit, 0);
        if (!cx) continue;
        wm_alignments_t got = { 0 };
        char what[64];
        snprintf(what, sizeof what, "align infix, %llu MiB limit",
                 (unsigned long long)(lim[i].limit / MIB));
        CHECK_RC(wm_align(cx, query, sizeof query, target, n, &o, &got), WM_OK);
        CHECK(got.n == want.n && (got.n == 0 || same_alignment(&got.a[0], &want.a[0])),
              "%s: %zu alignments (distance %llu end %llu), want %zu (distance %llu end %llu)",
              what, got.n, got.n ? (unsigned long long)got.a[0].distance : 0ull,
              got.n ? (unsigned long long)got.a[0].end : 0ull, want.n,
              want.n ? (unsigned long long)want.a[0].distance : 0ull,
              want.n ? (unsigned long long)want.a[0].end : 0ull);
        expect_recovery(cx, what, lim[i].expect);
        wm_alignments_free(&got);
        wm_context_free(cx);
    }
    wm_alignments_free(&want);
    free(target);

    /* 20,000 pairs of 150 bp, a few edits each, global with CIGARs */
    enum { NP = 20000, L = 150 };
    uint8_t *buf = malloc((size_t)NP * 2 * L);
    wm_pair_t *pairs = calloc(NP, sizeof *pairs);
    wm_alignment_t *ref = calloc(NP, sizeof *ref), *out = calloc(NP, sizeof *out);
    CHECK(buf && pairs && ref && out, "pair buffers");
    if (buf && pairs && ref && out && cpu) {
        for (size_t i = 0; i < NP; i++) {
            uint8_t *q = buf + i * 2 * L, *t = q + L;
            for (size_t j = 0; j < L; j++) q[j] = t[j] = "ACGT"[below(4)];
            for (int e = 0; e < 3; e++) t[below(L)] = "ACGT"[below(4)];
            pairs[i] = (wm_pair_t){ q, L, t, L - below(3) };
        }
        wm_align_opts_t go = wm_align_opts_default();
        go.mode = WM_ALIGN_GLOBAL;
        go.cigar = 1;
        CHECK_RC(wm_align_pairs(cpu, pairs, NP, &go, ref), WM_OK);
        wm_context_t *cx = gpu_context(1, 0);
        if (cx) {
            CHECK_RC(wm_align_pairs(cx, pairs, NP, &go, out), WM_OK);
            size_t bad = NP;
            for (size_t i = 0; i < NP && bad == NP; i++)
                if (!same_alignment(&out[i], &ref[i])) bad = i;
            CHECK(bad == NP, "pairs after a fallback: pair %zu differs", bad);
            expect_recovery(cx, "pairs, nothing fits", "fallback");
            wm_context_free(cx);
        }
        /* the same pairs as columns: nothing fits (the CPU), and a GPU where
        ** a piece of 1,250 pairs fits but not a batch of the whole (batches
        ** done in part are taken back and done again) */
        uint8_t *qc = malloc((size_t)NP * L), *tc = malloc((size_t)NP * L);
        uint64_t *qo = calloc(NP + 1, sizeof *qo), *to = calloc(NP + 1, sizeof *to);
        CHECK(qc && tc && qo && to, "column buffers");
        for (size_t i = 0; qc && tc && qo && to && i < NP; i++) {
            memcpy(qc + qo[i], pairs[i].query, pairs[i].m);
            memcpy(tc + to[i], pairs[i].target, pairs[i].n);
            qo[i + 1] = qo[i] + pairs[i].m;
            to[i + 1] = to[i] + pairs[i].n;
        }
        static const struct {
            uint64_t limit;
            const char *expect;
        } plim[] = { { 1, "fallback" }, { 16 * MIB, "retry" } };
        for (size_t k = 0; qc && tc && qo && to && k < 2; k++) {
            wm_context_t *px = gpu_context(plim[k].limit, 0);
            if (!px) continue;
            wm_pairs_packed_t in = { NP, qc, qo, tc, to };
            wm_pair_results_t res;
            CHECK_RC(wm_align_pairs_packed(px, &in, &go, &res), WM_OK);
            size_t bad = NP;
            for (size_t i = 0; res.n == NP && i < NP && bad == NP; i++) {
                size_t len = (size_t)(res.cigar_off[i + 1] - res.cigar_off[i]);
                if (res.distance[i] != ref[i].distance || strlen(ref[i].cigar) != len ||
                    memcmp(res.cigar + res.cigar_off[i], ref[i].cigar, len) != 0)
                    bad = i;
            }
            CHECK(res.n == NP && bad == NP, "columns, GPU limit %llu: pair %zu differs",
                  (unsigned long long)plim[k].limit, bad);
            char what[80];
            snprintf(what, sizeof what, "columns, GPU limit %llu",
                     (unsigned long long)plim[k].limit);
            expect_recovery(px, what, plim[k].expect);
            wm_pair_results_free(&res);
            wm_context_free(px);
        }
        free(qc);
        free(tc);
        free(qo);
        free(to);
        wm_alignment_clear(ref, NP);
        wm_alignment_clear(out, NP);
    }
    free(buf);
    free(pairs);
    free(ref);
    free(out);
    wm_context_free(cpu);
}

/* ---- one long pair's distance: from both ends, or the single run ----------- */

/* A 10 kb pair's distance from both ends needs more memory than its single
** run (the reversed half, a second ring, both last columns). Limits from
** 48 KiB up (the smallest fit neither: the CPU answers): where both ends
** do not fit but the single run does, the GPU must still answer (no retry,
** no fallback: it used to fall back), and every limit must give the CPU's
** distance. Both GPU cases must be met on the way. */
static void test_long_pair(void) {
    enum { L = 10000 };
    uint8_t *x = malloc(L), *y = malloc(L);
    CHECK(x && y, "10 kb pair");
    if (!x || !y) {
        free(x);
        free(y);
        return;
    }
    for (size_t i = 0; i < L; i++) x[i] = y[i] = "ACGT"[below(4)];
    for (int e = 0; e < 300; e++) y[below(L)] = "ACGT"[below(4)];
    wm_align_opts_t o = wm_align_opts_default();
    o.mode = WM_ALIGN_GLOBAL;
    o.alphabet = WM_ALPHABET_DNA; /* 5 rows of masks: bytes' 257 rows would not fit 256 KiB */
    wm_context_t *cpu = cpu_context(2, 0);
    wm_alignments_t want = { 0 };
    if (cpu) CHECK_RC(wm_align(cpu, x, L, y, L, &o, &want), WM_OK);
    int single = 0, meet = 0;
    char why[600] = ""; /* the last fallback's note and error, for the message */
    for (uint64_t limit = 48 << 10; cpu && want.n == 1 && limit <= 256 << 10; limit += 4 << 10) {
        wm_context_t *cx = gpu_context(limit, 0);
        if (!cx) continue;
        wm_alignments_t got = { 0 };
        CHECK_RC(wm_align(cx, x, L, y, L, &o, &got), WM_OK);
        const wm_stats_t *st = wm_context_stats(cx);
        CHECK(got.n == 1 && got.a[0].distance == want.a[0].distance,
              "global 10 kb, %llu KiB limit: distance %llu, want %llu",
              (unsigned long long)(limit >> 10),
              got.n ? (unsigned long long)got.a[0].distance : 0ull,
              (unsigned long long)want.a[0].distance);
        if (st->gpu_fallbacks)
            snprintf(why, sizeof why, "%llu KiB: %s", (unsigned long long)(limit >> 10),
                     wm_context_note(cx));
        else {
            CHECK(st->gpu_retries == 0, "global 10 kb, %llu KiB limit: %llu retries",
                  (unsigned long long)(limit >> 10), (unsigned long long)st->gpu_retries);
            if (st->global_gpu_meets) meet = 1;
            else single = 1;
        }
        wm_alignments_free(&got);
        wm_context_free(cx);
    }
    CHECK(single && meet, "global 10 kb: the limits gave the single run %s, both ends %s (%s)",
          single ? "yes" : "no", meet ? "yes" : "no", why);
    wm_alignments_free(&want);
    wm_context_free(cpu);
    free(x);
    free(y);
}

/* ---- dtw: a series larger than the limit ------------------------------------ */

static void test_dtw(void) {
    uint64_t n = 4 * MIB; /* 32 MiB of doubles */
    size_t m = 256;
    double *y = malloc(n * sizeof *y), *q = malloc(m * sizeof *q);
    CHECK(y && q, "dtw buffers");
    if (!y || !q) {
        free(y);
        free(q);
        return;
    }
    for (uint64_t i = 0; i < n; i++) y[i] = sin((double)i * 0.01) + 0.001 * (double)(i % 97);
    for (size_t i = 0; i < m; i++) q[i] = y[3 * MIB + i] + 0.01;
    wm_dtw_opts_t o = wm_dtw_opts_default();
    wm_context_t *cpu = cpu_context(2, 0);
    wm_dtw_matches_t want = { 0 };
    if (cpu) CHECK_RC(wm_dtw(cpu, q, m, y, n, &o, &want), WM_OK);
    /* the series goes up in chunks of 2^27 samples cut to the series: 16 MiB
    ** is met by halving (2 M samples), 64 KiB by nothing */
    static const struct {
        uint64_t limit;
        const char *expect;
    } lim[] = { { 16 * MIB, "retry" }, { 64 << 10, "fallback" } };
    for (size_t i = 0; i < N_OF(lim); i++) {
        wm_context_t *cx = gpu_context(lim[i].limit, 0);
        if (!cx) continue;
        wm_dtw_matches_t got = { 0 };
        char what[64];
        snprintf(what, sizeof what, "dtw, %llu KiB limit",
                 (unsigned long long)(lim[i].limit >> 10));
        CHECK_RC(wm_dtw(cx, q, m, y, n, &o, &got), WM_OK);
        CHECK(got.n == want.n && (got.n == 0 || (got.a[0].distance == want.a[0].distance &&
                                                 got.a[0].start == want.a[0].start &&
                                                 got.a[0].end == want.a[0].end)),
              "%s: %zu matches (%.17g [%llu, %llu)), want %zu (%.17g [%llu, %llu))", what, got.n,
              got.n ? got.a[0].distance : 0.0, got.n ? (unsigned long long)got.a[0].start : 0ull,
              got.n ? (unsigned long long)got.a[0].end : 0ull, want.n,
              want.n ? want.a[0].distance : 0.0,
              want.n ? (unsigned long long)want.a[0].start : 0ull,
              want.n ? (unsigned long long)want.a[0].end : 0ull);
        expect_recovery(cx, what, lim[i].expect);
        wm_dtw_matches_free(&got);
        wm_context_free(cx);
    }
    wm_dtw_matches_free(&want);
    wm_context_free(cpu);
    free(y);
    free(q);
}

int main(int argc, char **argv) {
    test_settings(argc, argv, 1, NULL, NULL);
    if (!cuda_present("recovery from a full GPU")) return test_finish();
    test_search_and_sets();
    test_align();
    test_long_pair();
    test_dtw();
    return test_finish();
}
