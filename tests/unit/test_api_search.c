/*
** test_api_search.c -- the single-pattern search API, one check at a time
** (as Hyperscan's arg_checks do): wm_opts_default, wm_algo_name, wm_compile
** (NULLs, empty / too long patterns, k >= m, bad enum values, revcomp of
** non-nucleotide patterns, algorithms that cannot do the job), wm_db_algo,
** wm_db_free(NULL), wm_search and wm_count (NULLs, bad texts, empty texts,
** rec_start NULL as one record, records, a stopping callback, counts equal
** to callback matches, reuse of databases and contexts, a small
** hand-checked match list).
** Exit status 0 when all checks pass; the last line is "N passed, N failed".
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contexts.h"
#include "harness.h"
#include "matches.h"
#include "warpmatch.h"

static const uint8_t *U8(const char *s) { return (const uint8_t *)s; }

/* ---- collecting matches -------------------------------------------------- */

typedef struct {
    wm_match_t a[4096];
    size_t n;
    size_t stop_after; /* return non-zero on this call (1-based); 0 = never */
    size_t calls;
} sink_t;

static int on_match(const wm_match_t *m, void *user) {
    sink_t *s = user;
    s->calls++;
    if (s->n < N_OF(s->a)) s->a[s->n++] = *m;
    return s->stop_after != 0 && s->calls >= s->stop_after;
}

static int ignore_match(const wm_match_t *m, void *user) {
    (void)m;
    (void)user;
    return 0;
}

static int never_called(const wm_match_t *m, void *user) {
    (void)m;
    (*(int *)user)++;
    return 0;
}

/* ---- defaults --------------------------------------------------------------- */

static void test_defaults(void) {
    wm_opts_t o = wm_opts_default();
    CHECK(o.max_edits == 0 && o.metric == WM_METRIC_EDIT && o.case_insensitive == 0 &&
              o.alphabet == WM_ALPHABET_BYTES && o.revcomp == 0 && o.algo == WM_ALGO_AUTO,
          "wm_opts_default() is not {0, edit, 0, bytes, 0, auto}");

    static const wm_algo_t algos[] = { WM_ALGO_AUTO, WM_ALGO_SHIFTOR, WM_ALGO_BITAP,
                                       WM_ALGO_MYERS };
    for (size_t i = 0; i < N_OF(algos); i++) {
        const char *s = wm_algo_name(algos[i]);
        CHECK(s != NULL && s[0] != '\0', "wm_algo_name(%d) is NULL or empty", (int)algos[i]);
        for (size_t j = 0; s && j < i; j++)
            CHECK(strcmp(s, wm_algo_name(algos[j])) != 0, "wm_algo_name(%d) == wm_algo_name(%d)",
                  (int)algos[i], (int)algos[j]);
    }
    CHECK(wm_algo_name((wm_algo_t)77) != NULL, "wm_algo_name(77) is NULL");
}

/* ---- wm_compile ------------------------------------------------------------ */

static void test_compile(void) {
    wm_db_t *db = NULL;
    wm_opts_t o = wm_opts_default();

    /* NULLs */
    CHECK_RC(wm_compile(NULL, 3, &o, &db), WM_INVALID);
    CHECK_RC(wm_compile(U8("abc"), 3, &o, NULL), WM_INVALID);
    CHECK_RC(wm_compile(NULL, 3, NULL, NULL), WM_INVALID);

    /* NULL options mean the defaults */
    db = NULL;
    CHECK_RC(wm_compile(U8("abc"), 3, NULL, &db), WM_OK);
    CHECK(db != NULL, "wm_compile(NULL opts) gave no database");
    if (db) {
        CHECK(wm_db_algo(db) != WM_ALGO_AUTO, "wm_db_algo() is AUTO after AUTO");
        wm_db_free(db);
    }

    /* empty and too long patterns */
    db = NULL;
    CHECK_RC(wm_compile(U8("abc"), 0, &o, &db), WM_PATTERN_EMPTY);
    uint8_t *big = malloc(WM_MAX_PATTERN + 2);
    if (big) {
        for (size_t i = 0; i < WM_MAX_PATTERN + 2; i++)
            big[i] = (uint8_t)("acgt"[(i * 7 + i / 3) % 4]);
        db = NULL;
        CHECK_RC(wm_compile(big, (size_t)WM_MAX_PATTERN + 1, &o, &db), WM_PATTERN_TOO_LONG);
        CHECK_RC(wm_compile(big, (size_t)WM_MAX_PATTERN + 2, &o, &db), WM_PATTERN_TOO_LONG);
        CHECK_RC(wm_compile(big, SIZE_MAX, &o, &db), WM_PATTERN_TOO_LONG);
        /* exactly WM_MAX_PATTERN is accepted, and finds itself */
        db = NULL;
        CHECK_RC(wm_compile(big, WM_MAX_PATTERN, &o, &db), WM_OK);
        if (db) {
            wm_context_t *cx = cpu_context(2, 0);
            if (cx) {
                sink_t *s = calloc(1, sizeof *s);
                wm_text_t t = { big, WM_MAX_PATTERN + 2, NULL, 0 };
                CHECK_RC(wm_search(cx, db, &t, on_match, s), WM_OK);
                CHECK(s->n == 1 && s->a[0].start == 0 && s->a[0].end == WM_MAX_PATTERN &&
                          s->a[0].errors == 0,
                      "max-length pattern: %zu matches", s->n);
                free(s);
                wm_context_free(cx);
            }
            wm_db_free(db);
        }
        free(big);
    }

    /* k >= m */
    static const uint32_t ks[] = { 3, 4, 100, UINT32_MAX };
    for (size_t i = 0; i < N_OF(ks); i++) {
        o = wm_opts_default();
        o.max_edits = ks[i];
        CHECK_RC(wm_compile(U8("abc"), 3, &o, &db), WM_K_TOO_LARGE);
        o.metric = WM_METRIC_HAMMING;
        CHECK_RC(wm_compile(U8("abc"), 3, &o, &db), WM_K_TOO_LARGE);
    }
    o = wm_opts_default();
    o.max_edits = 2;
    db = NULL;
    CHECK_RC(wm_compile(U8("abc"), 3, &o, &db), WM_OK); /* k = m - 1 is fine */
    wm_db_free(db);

    /* algorithms that cannot do the job */
    o = wm_opts_default();
    o.algo = WM_ALGO_SHIFTOR;
    o.max_edits = 1;
    CHECK_RC(wm_compile(U8("abcd"), 4, &o, &db), WM_INVALID);
    o.metric = WM_METRIC_HAMMING;
    CHECK_RC(wm_compile(U8("abcd"), 4, &o, &db), WM_INVALID);
    o = wm_opts_default();
    o.algo = WM_ALGO_MYERS;
    o.metric = WM_METRIC_HAMMING;
    CHECK_RC(wm_compile(U8("abcd"), 4, &o, &db), WM_INVALID);
    o.max_edits = 1;
    CHECK_RC(wm_compile(U8("abcd"), 4, &o, &db), WM_INVALID);

    /* every valid explicit algorithm compiles and is what wm_db_algo says */
    struct {
        wm_algo_t a;
        wm_metric_t mt;
        uint32_t k;
    } ok[] = {
        { WM_ALGO_SHIFTOR, WM_METRIC_EDIT, 0 }, { WM_ALGO_SHIFTOR, WM_METRIC_HAMMING, 0 },
        { WM_ALGO_BITAP, WM_METRIC_EDIT, 2 },   { WM_ALGO_BITAP, WM_METRIC_HAMMING, 2 },
        { WM_ALGO_BITAP, WM_METRIC_EDIT, 0 },   { WM_ALGO_MYERS, WM_METRIC_EDIT, 0 },
        { WM_ALGO_MYERS, WM_METRIC_EDIT, 3 },
    };
    for (size_t i = 0; i < N_OF(ok); i++) {
        o = wm_opts_default();
        o.algo = ok[i].a;
        o.metric = ok[i].mt;
        o.max_edits = ok[i].k;
        db = NULL;
        int rc = wm_compile(U8("abcd"), 4, &o, &db);
        CHECK(rc == WM_OK, "compile algo %s metric %d k %u returned %d", wm_algo_name(ok[i].a),
              (int)ok[i].mt, ok[i].k, rc);
        if (db)
            CHECK(wm_db_algo(db) == ok[i].a, "wm_db_algo() = %s, asked for %s",
                  wm_algo_name(wm_db_algo(db)), wm_algo_name(ok[i].a));
        wm_db_free(db);
    }
    /* AUTO never stays AUTO, whatever the options */
    for (uint32_t k = 0; k < 4; k++)
        for (int mt = 0; mt < 2; mt++) {
            o = wm_opts_default();
            o.max_edits = k;
            o.metric = (wm_metric_t)mt;
            db = NULL;
            if (wm_compile(U8("abcdefgh"), 8, &o, &db) == WM_OK) {
                wm_algo_t a = wm_db_algo(db);
                CHECK(a != WM_ALGO_AUTO, "wm_db_algo() is AUTO (k %u, metric %d)", k, mt);
                CHECK(a != WM_ALGO_SHIFTOR || k == 0, "AUTO chose shiftor with k %u", k);
                CHECK(a != WM_ALGO_MYERS || mt == WM_METRIC_EDIT, "AUTO chose myers for Hamming");
                wm_db_free(db);
            } else {
                CHECK(0, "wm_compile(k %u, metric %d) failed", k, mt);
            }
        }

    /* bad enum values */
    o = wm_opts_default();
    o.metric = (wm_metric_t)7;
    CHECK_RC(wm_compile(U8("abc"), 3, &o, &db), WM_INVALID);
    o = wm_opts_default();
    o.alphabet = (wm_alphabet_t)9;
    CHECK_RC(wm_compile(U8("abc"), 3, &o, &db), WM_INVALID);
    o = wm_opts_default();
    o.algo = (wm_algo_t)42;
    CHECK_RC(wm_compile(U8("abc"), 3, &o, &db), WM_INVALID);
    o = wm_opts_default();
    o.algo = (wm_algo_t)-1;
    CHECK_RC(wm_compile(U8("abc"), 3, &o, &db), WM_INVALID);

    /* revcomp: non-nucleotide BYTES patterns are refused, IUPAC ones taken */
    static const char *bad_rc[] = { "hello", "ACGTX", "AC GT", "AC-GT", "\001ACG", "ACG\301" };
    for (size_t i = 0; i < N_OF(bad_rc); i++) {
        o = wm_opts_default();
        o.revcomp = 1;
        db = NULL;
        CHECK_RC(wm_compile(U8(bad_rc[i]), strlen(bad_rc[i]), &o, &db), WM_INVALID);
        o.case_insensitive = 1;
        CHECK_RC(wm_compile(U8(bad_rc[i]), strlen(bad_rc[i]), &o, &db), WM_INVALID);
    }
    static const char *good_rc[] = { "ACGT", "acgtn", "ACGURYSWKMBDHVN", "ryswkmbdhvn" };
    for (size_t i = 0; i < N_OF(good_rc); i++)
        for (int alpha = 0; alpha < 2; alpha++) {
            o = wm_opts_default();
            o.revcomp = 1;
            o.alphabet = (wm_alphabet_t)alpha;
            db = NULL;
            CHECK_RC(wm_compile(U8(good_rc[i]), strlen(good_rc[i]), &o, &db), WM_OK);
            wm_db_free(db);
        }

    /* DNA patterns are IUPAC letters; anything else is refused or matches
    ** nothing (the header leaves which open), but never crashes */
    {
        o = wm_opts_default();
        o.alphabet = WM_ALPHABET_DNA;
        db = NULL;
        int rc = wm_compile(U8("ACXGT"), 5, &o, &db);
        CHECK(rc == WM_INVALID || rc == WM_OK, "DNA pattern with X: %d", rc);
        wm_db_free(rc == WM_OK ? db : NULL);
    }

    /* the options struct is copied: changing it afterwards changes nothing */
    {
        wm_opts_t oo = wm_opts_default();
        db = NULL;
        uint8_t pat[3] = { 'a', 'b', 'c' };
        CHECK_RC(wm_compile(pat, 3, &oo, &db), WM_OK);
        oo.max_edits = 2;
        pat[0] = 'z';
        if (db) {
            wm_context_t *cx = cpu_context(1, 0);
            if (cx) {
                sink_t s;
                memset(&s, 0, sizeof s);
                wm_text_t t = { U8("zbc abc"), 7, NULL, 0 };
                CHECK_RC(wm_search(cx, db, &t, on_match, &s), WM_OK);
                CHECK(s.n == 1 && s.a[0].start == 4 && s.a[0].end == 7,
                      "database depends on the caller's pattern/options buffers (%zu matches)",
                      s.n);
                wm_context_free(cx);
            }
            wm_db_free(db);
        }
    }
}

/* ---- frees ------------------------------------------------------------------ */

static void test_frees(void) {
    wm_db_free(NULL);
    CHECK(1, "wm_db_free(NULL) returned");
}

/* ---- searching ----------------------------------------------------------------- */

static void test_search_args(void) {
    wm_db_t *db = compile_text("abc", NULL);
    wm_context_t *cx = cpu_context(1, 0);
    if (!db || !cx) {
        wm_db_free(db);
        wm_context_free(cx);
        return;
    }
    sink_t s;
    memset(&s, 0, sizeof s);
    int calls = 0;
    uint64_t cnt = 0;
    wm_text_t t = { U8("xxabcxx"), 7, NULL, 0 };

    CHECK_RC(wm_search(NULL, db, &t, on_match, &s), WM_INVALID);
    CHECK_RC(wm_search(cx, NULL, &t, on_match, &s), WM_INVALID);
    CHECK_RC(wm_search(cx, db, NULL, on_match, &s), WM_INVALID);
    CHECK_RC(wm_search(cx, db, &t, NULL, &s), WM_INVALID);
    CHECK_RC(wm_count(NULL, db, &t, &cnt), WM_INVALID);
    CHECK_RC(wm_count(cx, NULL, &t, &cnt), WM_INVALID);
    CHECK_RC(wm_count(cx, db, NULL, &cnt), WM_INVALID);
    CHECK_RC(wm_count(cx, db, &t, NULL), WM_INVALID);
    CHECK(s.calls == 0, "callback called %zu times by refused searches", s.calls);

    /* the user pointer may be NULL: it is only handed on */
    CHECK_RC(wm_search(cx, db, &t, ignore_match, NULL), WM_OK);

    /* bad texts */
    wm_text_t bad = { NULL, 5, NULL, 0 };
    CHECK_RC(wm_search(cx, db, &bad, never_called, &calls), WM_INVALID);
    CHECK_RC(wm_count(cx, db, &bad, &cnt), WM_INVALID);
    bad = (wm_text_t){ U8("abcabc"), 6, NULL, 2 }; /* n_rec without rec_start */
    CHECK_RC(wm_search(cx, db, &bad, never_called, &calls), WM_INVALID);
    {
        uint64_t rs[] = { 0, 4, 2 }; /* not increasing */
        bad = (wm_text_t){ U8("abcabc"), 6, rs, 3 };
        CHECK_RC(wm_search(cx, db, &bad, never_called, &calls), WM_INVALID);
        uint64_t rs2[] = { 0, 9 }; /* past the end */
        bad = (wm_text_t){ U8("abcabc"), 6, rs2, 2 };
        CHECK_RC(wm_search(cx, db, &bad, never_called, &calls), WM_INVALID);
        CHECK_RC(wm_count(cx, db, &bad, &cnt), WM_INVALID);
    }
    CHECK(calls == 0, "callback called %d times on refused texts", calls);

    /* empty texts: no matches, no calls */
    calls = 0;
    wm_text_t empty = { U8(""), 0, NULL, 0 };
    CHECK_RC(wm_search(cx, db, &empty, never_called, &calls), WM_OK);
    cnt = 99;
    CHECK_RC(wm_count(cx, db, &empty, &cnt), WM_OK);
    CHECK(cnt == 0, "count on empty text = %" PRIu64, cnt);
    {
        /* seq NULL with len 0: either accepted as empty or refused, never a crash */
        wm_text_t e2 = { NULL, 0, NULL, 0 };
        int rc = wm_search(cx, db, &e2, never_called, &calls);
        CHECK(rc == WM_OK || rc == WM_INVALID, "search(seq NULL, len 0) = %d", rc);
        uint64_t rs[] = { 0, 0, 0 }; /* three empty records */
        wm_text_t e3 = { U8(""), 0, rs, 3 };
        CHECK_RC(wm_search(cx, db, &e3, never_called, &calls), WM_OK);
    }
    CHECK(calls == 0, "callback called %d times on empty texts", calls);

    wm_db_free(db);
    wm_context_free(cx);
}

/* "abc", k = 1, edit, in "xabxc": worked out by hand in test_search_diff.c. */
static void test_small_contract(void) {
    wm_opts_t o = wm_opts_default();
    o.max_edits = 1;
    static const wm_algo_t algos[] = { WM_ALGO_AUTO, WM_ALGO_BITAP, WM_ALGO_MYERS };
    static const int threads[] = { 1, 3 };
    static const uint64_t chunks[] = { 0, 1, 2 };
    for (size_t a = 0; a < N_OF(algos); a++)
        for (size_t th = 0; th < N_OF(threads); th++)
            for (size_t ch = 0; ch < N_OF(chunks); ch++) {
                o.algo = algos[a];
                wm_db_t *db = compile_text("abc", &o);
                wm_context_t *cx = cpu_context(threads[th], chunks[ch]);
                if (db && cx) {
                    sink_t s;
                    memset(&s, 0, sizeof s);
                    wm_text_t t = { U8("xabxc"), 5, NULL, 0 };
                    CHECK_RC(wm_search(cx, db, &t, on_match, &s), WM_OK);
                    int ok = s.n == 3;
                    for (size_t i = 0; ok && i < 3; i++)
                        ok = s.a[i].record == 0 && s.a[i].start == 1 && s.a[i].end == 3 + i &&
                             s.a[i].errors == 1 && s.a[i].strand == 0;
                    CHECK(ok,
                          "abc k1 in xabxc (algo %s, %d threads, chunk %" PRIu64
                          "): %zu matches, want [1,3) [1,4) [1,5) with 1 error",
                          wm_algo_name(algos[a]), threads[th], chunks[ch], s.n);
                }
                wm_db_free(db);
                wm_context_free(cx);
            }
}

static void test_records(void) {
    wm_db_t *db = compile_text("ab", NULL);
    wm_context_t *cx = cpu_context(1, 0);
    if (db && cx) {
        /* rec_start NULL = one record; {0} with n_rec 1 is the same */
        const char *txt = "abxab";
        wm_text_t t1 = { U8(txt), 5, NULL, 0 };
        uint64_t rs1[] = { 0 };
        wm_text_t t2 = { U8(txt), 5, rs1, 1 };
        sink_t a, b;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        CHECK_RC(wm_search(cx, db, &t1, on_match, &a), WM_OK);
        CHECK_RC(wm_search(cx, db, &t2, on_match, &b), WM_OK);
        CHECK(a.n == 2 && b.n == 2 && memcmp(a.a, b.a, 2 * sizeof a.a[0]) == 0 &&
                  a.a[0].record == 0 && a.a[0].start == 0 && a.a[0].end == 2 && a.a[1].start == 3 &&
                  a.a[1].end == 5,
              "rec_start NULL vs {0}: %zu vs %zu matches", a.n, b.n);

        /* "ab|ab|a|b|" with an empty record: [0,2) [2,4) [4,5) [5,6) [6,6) */
        uint64_t rs[] = { 0, 2, 4, 5, 6 };
        wm_text_t t3 = { U8("ababab"), 6, rs, 5 };
        memset(&a, 0, sizeof a);
        CHECK_RC(wm_search(cx, db, &t3, on_match, &a), WM_OK);
        CHECK(a.n == 2 && a.a[0].record == 0 && a.a[0].start == 0 && a.a[0].end == 2 &&
                  a.a[1].record == 1 && a.a[1].start == 0 && a.a[1].end == 2,
              "records: %zu matches (the one across records 2|3 must not count)", a.n);
    }
    wm_db_free(db);
    wm_context_free(cx);
}

/* The text of the stopping and nested tests: a and b in a fixed scrambled
** order, dense with "abab" within one error (the database returned). */
static char ab_text[20000];
static wm_db_t *ab_setup(void) {
    for (size_t i = 0; i < sizeof ab_text; i++) ab_text[i] = "ab"[(i * 2654435761u >> 7) & 1];
    wm_opts_t o = wm_opts_default();
    o.max_edits = 1;
    return compile_text("abab", &o);
}

/* Stopping: the callback's non-zero return ends the search after exactly
** that call, whatever the threads and chunks. */
static void test_stop_and_count(void) {
    char *text = ab_text;
    wm_db_t *db = ab_setup();
    static const int threads[] = { 1, 3 };
    static const uint64_t chunks[] = { 0, 1, 64 };
    for (size_t th = 0; db && th < N_OF(threads); th++)
        for (size_t ch = 0; ch < N_OF(chunks); ch++) {
            wm_context_t *cx = cpu_context(threads[th], chunks[ch]);
            if (!cx) continue;
            wm_text_t t = { U8(text), sizeof ab_text, NULL, 0 };
            sink_t *all = calloc(1, sizeof *all);
            CHECK_RC(wm_search(cx, db, &t, on_match, all), WM_OK);
            uint64_t cnt = 0;
            CHECK_RC(wm_count(cx, db, &t, &cnt), WM_OK);
            CHECK(cnt == all->calls && cnt > 10,
                  "wm_count %" PRIu64 " vs %zu callback matches "
                  "(%d threads, chunk %" PRIu64 ")",
                  cnt, all->calls, threads[th], chunks[ch]);
            static const size_t stops[] = { 1, 2, 7 };
            for (size_t i = 0; i < N_OF(stops); i++) {
                sink_t *s = calloc(1, sizeof *s);
                s->stop_after = stops[i];
                CHECK_RC(wm_search(cx, db, &t, on_match, s), WM_STOPPED);
                CHECK(s->calls == stops[i],
                      "stop after call %zu: %zu calls (%d threads, chunk %" PRIu64 ")", stops[i],
                      s->calls, threads[th], chunks[ch]);
                CHECK(s->n > 0 && memcmp(s->a, all->a, s->n * sizeof s->a[0]) == 0,
                      "the matches before stopping are not the first ones");
                free(s);
            }
            /* the context is still usable after a stop, and gives the same */
            sink_t *again = calloc(1, sizeof *again);
            CHECK_RC(wm_search(cx, db, &t, on_match, again), WM_OK);
            CHECK(again->calls == all->calls &&
                      memcmp(again->a, all->a, again->n * sizeof again->a[0]) == 0,
                  "a second search after a stop differs");
            /* sorted by (record, end, strand), one per end */
            int sorted = 1;
            for (size_t i = 1; i < all->n; i++)
                if (all->a[i].end <= all->a[i - 1].end) sorted = 0;
            CHECK(sorted, "matches not in increasing end order");
            free(again);
            free(all);
            wm_context_free(cx);
        }
    wm_db_free(db);
}

/* A match callback that searches again on the same context, while the
** next wave of chunks is being scanned on the pool (core/waves.c delivers a
** wave inside the pool's loop): the inner call runs on the calling thread
** alone (core/pool.c), and both calls answer what they answer apart. */
typedef struct {
    sink_t outer;
    wm_context_t *cx;
    const wm_db_t *db;
    const wm_text_t *t;
    uint64_t inner_calls, inner_matches, inner_bad;
} nested_t;

static int on_match_nested(const wm_match_t *m, void *user) {
    nested_t *n = user;
    on_match(m, &n->outer);
    if (n->outer.calls % 50 == 1) { /* now and then, a whole search inside */
        uint64_t c = 0;
        if (wm_count(n->cx, n->db, n->t, &c) != WM_OK) n->inner_bad++;
        n->inner_calls++;
        n->inner_matches = c;
    }
    return 0;
}

static void test_nested(void) {
    char *text = ab_text;
    wm_db_t *db = ab_setup();
    static const uint64_t chunks[] = { 0, 64 };
    for (size_t ch = 0; db && ch < N_OF(chunks); ch++) {
        wm_context_t *cx = cpu_context(3, chunks[ch]);
        if (!cx) continue;
        wm_text_t t = { U8(text), sizeof ab_text, NULL, 0 };
        sink_t *alone = calloc(1, sizeof *alone);
        nested_t *n = calloc(1, sizeof *n);
        uint64_t cnt = 0;
        CHECK_RC(wm_search(cx, db, &t, on_match, alone), WM_OK);
        CHECK_RC(wm_count(cx, db, &t, &cnt), WM_OK);
        n->cx = cx;
        n->db = db;
        n->t = &t;
        CHECK_RC(wm_search(cx, db, &t, on_match_nested, n), WM_OK);
        CHECK(n->outer.calls == alone->calls &&
                  memcmp(n->outer.a, alone->a, alone->n * sizeof alone->a[0]) == 0,
              "chunk %" PRIu64 ": a search whose callback searches too differs (%zu against %zu "
              "matches)",
              chunks[ch], n->outer.calls, alone->calls);
        CHECK(n->inner_calls > 1 && n->inner_bad == 0 && n->inner_matches == cnt,
              "chunk %" PRIu64 ": the inner counts (%" PRIu64 " calls, %" PRIu64
              " failed) gave %" PRIu64 ", alone %" PRIu64,
              chunks[ch], n->inner_calls, n->inner_bad, n->inner_matches, cnt);
        free(n);
        free(alone);
        wm_context_free(cx);
    }
    wm_db_free(db);
}

/* One database shared by several contexts, one context reused for several
** databases: the same answers. */
static void test_reuse(void) {
    wm_opts_t o = wm_opts_default();
    o.max_edits = 2;
    o.alphabet = WM_ALPHABET_DNA;
    o.revcomp = 1;
    wm_db_t *d1 = compile_text("ACGTTGCA", &o);
    o = wm_opts_default();
    wm_db_t *d2 = compile_text("GATTACA", &o);
    wm_context_t *c1 = cpu_context(1, 0), *c2 = cpu_context(3, 5);
    if (d1 && d2 && c1 && c2) {
        static char text[3000];
        uint64_t x = 12345;
        for (size_t i = 0; i < sizeof text; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            text[i] = "ACGTacgtN"[(x >> 33) % 9];
        }
        memcpy(text + 100, "GATTACA", 7);
        memcpy(text + 2993, "GATTACA", 7);
        wm_text_t t = { U8(text), sizeof text, NULL, 0 };
        sink_t *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
        for (int rep = 0; rep < 2; rep++) {
            wm_db_t *db = rep ? d2 : d1;
            memset(a, 0, sizeof *a);
            memset(b, 0, sizeof *b);
            CHECK_RC(wm_search(c1, db, &t, on_match, a), WM_OK);
            CHECK_RC(wm_search(c2, db, &t, on_match, b), WM_OK);
            CHECK(a->n == b->n && a->n > 0 && memcmp(a->a, b->a, a->n * sizeof a->a[0]) == 0,
                  "db %d: %zu matches with 1 thread, %zu with 3 threads and chunk 5", rep, a->n,
                  b->n);
        }
        /* d2 is exact GATTACA in BYTES: the two planted copies, nothing else
        ** that the random text may hold besides */
        int found100 = 0, found_end = 0;
        for (size_t i = 0; i < b->n; i++) {
            if (b->a[i].start == 100 && b->a[i].end == 107) found100 = 1;
            if (b->a[i].start == 2993 && b->a[i].end == 3000) found_end = 1;
        }
        CHECK(found100 && found_end, "planted GATTACA at 100 and at the very end not found");
        free(a);
        free(b);
    }
    wm_db_free(d1);
    wm_db_free(d2);
    wm_context_free(c1);
    wm_context_free(c2);
}

int main(void) {
    printf("test_api_search: warpmatch %s\n", wm_version());
    test_defaults();
    test_compile();
    test_frees();
    test_search_args();
    test_small_contract();
    test_records();
    test_stop_and_count();
    test_nested();
    test_reuse();
    return test_finish();
}
