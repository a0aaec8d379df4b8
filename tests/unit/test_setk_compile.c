/*
** test_setk_compile.c -- a set within k errors compiled on several threads
** (wm_opts_t.compile_threads: the pieces keyed by ranges of patterns on a
** pool, src/setk/seeds.c) gives the database one thread gives: the same key
** length, keyed seeds in the same order and patterns scanned whole; and the
** host's table built from them on a pool (wm_setk_host_table, once) is the
** table one thread builds: slots, filter, keys and seeds, field by field;
** and the same matches.
**
** Cases: 4,096 (the least a pool is started for) to 12,000 patterns of DNA
** or bytes, long ones (seeded: 1, 2 or 3 pieces asked) mixed with short ones
** and ones with N (scanned whole), or all too short to seed; k 1..4, edit or
** Hamming, revcomp, exact regions; 2, 3 and 7 threads.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "harness.h"
#include "rng.h"
#include "setk/setk.h"
#include "warpmatch.h"

#define MAX_LEN 200

/* The two databases' tables, field by field; 1 when equal. */
static int same_tables(const wm_setk_t *a, const wm_setk_t *b, long idx, int threads) {
    int ok =
        CHECK(a->q == b->q && a->bits == b->bits && a->filter_bits == b->filter_bits &&
                  a->n_keys == b->n_keys && a->n_seeds == b->n_seeds && a->n_direct == b->n_direct,
              "case %ld, %d threads: shape q %u/%u keys %zu/%zu seeds %zu/%zu direct %zu/%zu", idx,
              threads, a->q, b->q, a->n_keys, b->n_keys, a->n_seeds, b->n_seeds, a->n_direct,
              b->n_direct);
    if (!ok) return 0;
    ok = CHECK(!a->n_direct || !memcmp(a->direct, b->direct, a->n_direct * sizeof *a->direct),
               "case %ld, %d threads: the patterns scanned whole differ", idx, threads);
    if (a->q == 0 || !ok) return ok;
    ok &= CHECK(!memcmp(a->key, b->key, a->n_keys * sizeof *a->key), "case %ld, %d threads: keys",
                idx, threads);
    ok &= CHECK(!memcmp(a->first, b->first, (a->n_keys + 1) * sizeof *a->first),
                "case %ld, %d threads: first", idx, threads);
    ok &= CHECK(!memcmp(a->slot, b->slot, ((size_t)1 << a->bits) * sizeof *a->slot),
                "case %ld, %d threads: slots", idx, threads);
    ok &= CHECK(!memcmp(a->filter, b->filter, ((size_t)1 << a->filter_bits) / 8),
                "case %ld, %d threads: filter", idx, threads);
    size_t x = 0;
    for (; x < a->n_seeds; x++) {
        const wm_seed_t *p = &a->seed[x], *q = &b->seed[x];
        if (p->pat != q->pat || p->key_off != q->key_off || p->piece != q->piece ||
            p->strand != q->strand || p->need != q->need)
            break;
    }
    return ok & CHECK(x == a->n_seeds, "case %ld, %d threads: seed %zu of %zu differs", idx,
                      threads, x, a->n_seeds);
}

/* The keyed seeds the compiles made, in order; 1 when equal. */
static int same_keyed(const wm_setk_t *a, const wm_setk_t *b, long idx, int threads) {
    if (!CHECK(a->n_seeds == b->n_seeds && !a->host_table && !b->host_table,
               "case %ld, %d threads: %zu / %zu keyed seeds (no table yet)", idx, threads,
               a->n_seeds, b->n_seeds))
        return 0;
    size_t x = 0;
    for (; x < a->n_seeds; x++) {
        const wm_setk_keyed_seed_t *p = &a->keyed[x], *q = &b->keyed[x];
        if (p->code != q->code || p->seed.pat != q->seed.pat ||
            p->seed.key_off != q->seed.key_off || p->seed.piece != q->seed.piece ||
            p->seed.strand != q->seed.strand || p->seed.need != q->seed.need)
            break;
    }
    return CHECK(x == a->n_seeds, "case %ld, %d threads: keyed seed %zu of %zu differs", idx,
                 threads, x, a->n_seeds);
}

static int collect_count(const wm_match_t *m, void *user) {
    uint64_t *h = user;
    h[0]++;
    h[1] = h[1] * 1000003u + m->record * 31 + m->start * 7 + m->end + m->pattern * 131 +
           m->errors * 17 + m->strand;
    return 0;
}

static void one_case(long idx) {
    const int dna = chance(75);
    const char *alpha = dna ? "ACGT" : "abcdefghij";
    const size_t na = strlen(alpha);
    size_t n = (size_t)range(4096, 12000);
    wm_opts_t o = wm_opts_default();
    o.alphabet = dna ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
    o.max_edits = (uint32_t)range(1, 4);
    o.metric = chance(30) ? WM_METRIC_HAMMING : WM_METRIC_EDIT;
    o.revcomp = dna && chance(50);
    if (dna && o.metric == WM_METRIC_HAMMING && chance(30)) o.exact_suffix = 3;
    const int all_short = chance(10);
    uint8_t *arena = malloc(n * MAX_LEN);
    const uint8_t **pp = malloc(n * sizeof *pp);
    size_t *len = malloc(n * sizeof *len);
    if (!arena || !pp || !len) abort();
    for (size_t i = 0; i < n; i++) {
        size_t m = all_short || chance(20) ? (size_t)range(o.max_edits + 4, 24)
                                           : (size_t)range(40, MAX_LEN);
        uint8_t *p = arena + i * MAX_LEN;
        for (size_t j = 0; j < m; j++) p[j] = (uint8_t)alpha[below(na)];
        if (dna && chance(3)) p[below(m)] = 'N'; /* a piece without a key */
        if (o.exact_suffix) memcpy(p + m - 3, "NGG", 3);
        pp[i] = p;
        len[i] = m;
    }
    wm_db_t *one = NULL;
    CHECK(wm_compile_set(pp, len, n, &o, &one) == WM_OK, "case %ld: compile on one thread", idx);
    static const int threads[] = { 2, 3, 7 };
    int t = threads[below(3)];
    o.compile_threads = t;
    wm_db_t *many = NULL;
    CHECK(wm_compile_set(pp, len, n, &o, &many) == WM_OK, "case %ld: compile on %d threads", idx,
          t);
    /* the keyed seeds, then the host's tables built from them: one without a
    ** pool, one on t threads */
    int built = one && many && same_keyed(one->body, many->body, idx, t);
    wm_pool_t *pool = wm_pool_new(t);
    if (built)
        built = CHECK(wm_setk_host_table(one->body, NULL) == WM_OK &&
                          wm_setk_host_table(many->body, pool) == WM_OK &&
                          wm_setk_host_table(many->body, pool) == WM_OK, /* once */
                      "case %ld: the host's tables", idx);
    wm_pool_free(pool);
    if (built && same_tables(one->body, many->body, idx, t)) {
        /* and the same matches over a text made of pieces of the patterns */
        size_t tl = 3000;
        uint8_t *text = malloc(tl);
        if (!text) abort();
        for (size_t at = 0; at < tl;) {
            size_t i = (size_t)below(n), m = len[i] < tl - at ? len[i] : tl - at;
            memcpy(text + at, pp[i], m);
            if (m > 0 && chance(50)) text[at + below(m)] = (uint8_t)alpha[below(na)];
            at += m;
        }
        wm_text_t tx = { text, tl, NULL, 0 };
        wm_context_opts_t co = wm_context_opts_default();
        co.backend = WM_BACKEND_CPU;
        co.threads = 2;
        wm_context_t *cx = NULL;
        if (CHECK(wm_context_new(&co, &cx) == WM_OK, "case %ld: context", idx)) {
            uint64_t a[2] = { 0, 0 }, b[2] = { 0, 0 };
            CHECK(wm_search(cx, one, &tx, collect_count, a) == WM_OK &&
                      wm_search(cx, many, &tx, collect_count, b) == WM_OK && a[0] == b[0] &&
                      a[1] == b[1],
                  "case %ld: %llu matches on one thread's database, %llu on %d threads'", idx,
                  (unsigned long long)a[0], (unsigned long long)b[0], t);
        }
        wm_context_free(cx);
        free(text);
    }
    wm_db_free(one);
    wm_db_free(many);
    free(arena);
    free(pp);
    free(len);
}

int main(int argc, char **argv) {
    double scale = 1.0;
    long only = -2;
    test_settings(argc, argv, 20261127ull, &scale, &only);
    run_cases((long)(24 * scale), only, 0xc0c0, 8, one_case);
    return test_finish();
}
