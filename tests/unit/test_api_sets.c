/*
** test_api_sets.c -- the pattern-set API, one check at a time (as
** Hyperscan's arg_checks do): wm_compile_set (n = 0, NULL arrays, an empty
** pattern, one over WM_MAX_PATTERN for every set algorithm, max_edits > 0,
** the single-pattern algorithms and unknown ones, DNA with a non-ACGTU
** pattern, revcomp with a non-nucleotide pattern, QGRAM with a pattern
** shorter than WM_QGRAM_MIN_LEN), wm_compile refusing the set algorithms,
** wm_db_pattern_count, and wm_count_per_pattern (a one-pattern database,
** counts NULL, entries past the pattern count left alone, empty texts and
** empty records). A pattern of exactly WM_MAX_PATTERN bytes is searched by
** tests/diff/test_multi_diff.c, against its oracle.
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

static const wm_algo_t SET_ALGOS[] = { WM_ALGO_AUTO,           WM_ALGO_AC,
                                       WM_ALGO_PFAC,           WM_ALGO_WUMANBER,
                                       WM_ALGO_WUMANBER_PAPER, WM_ALGO_QGRAM,
                                       WM_ALGO_TEDDY };

/* The status of a compile call, and its database (if one was made) freed. */
static void compiled(int rc, int want, wm_db_t **db, int line, const char *call) {
    check_rc_at(rc, want, __FILE__, line, call);
    if (rc == WM_OK) wm_db_free(*db);
    *db = NULL;
}
#define SET_RC(call, want)                                                                         \
    do {                                                                                           \
        db = NULL;                                                                                 \
        compiled((call), (want), &db, __LINE__, #call);                                            \
    } while (0)

/* Three small patterns and a fourth with an N (not ACGTU). */
static const uint8_t *const PP[4] = { (const uint8_t *)"ACGT", (const uint8_t *)"acgu",
                                      (const uint8_t *)"GATTACA", (const uint8_t *)"ACNT" };
static const size_t LL[4] = { 4, 4, 7, 4 };

static void test_compile_set(void) {
    const uint8_t *const *pp = PP;
    const size_t *ll = LL;
    wm_opts_t o = wm_opts_default();
    wm_db_t *db = NULL;

    SET_RC(wm_compile_set(pp, ll, 3, &o, &db), WM_OK);
    SET_RC(wm_compile_set(pp, ll, 3, NULL, &db), WM_OK); /* NULL options = defaults */
    SET_RC(wm_compile_set(pp, ll, 0, &o, &db), WM_INVALID);
    SET_RC(wm_compile_set(NULL, ll, 3, &o, &db), WM_INVALID);
    SET_RC(wm_compile_set(pp, NULL, 3, &o, &db), WM_INVALID);
    SET_RC(wm_compile_set(pp, ll, 3, &o, NULL), WM_INVALID);
    {
        size_t l2[4] = { 4, 0, 7, 4 }; /* an empty pattern */
        SET_RC(wm_compile_set(pp, l2, 3, &o, &db), WM_PATTERN_EMPTY);
    }
    {
        /* k > 0: a set within k errors (src/setk), each pattern as wm_compile
        ** takes it: k below every length, IUPAC codes in DNA (the N of the
        ** fourth), the set algorithms refused (they are exact). */
        wm_opts_t k = o;
        k.max_edits = 1;
        SET_RC(wm_compile_set(pp, ll, 3, &k, &db), WM_OK);
        k.max_edits = 2;
        k.metric = WM_METRIC_HAMMING;
        SET_RC(wm_compile_set(pp, ll, 3, &k, &db), WM_OK);
        k.max_edits = 4; /* = the length of the first */
        SET_RC(wm_compile_set(pp, ll, 3, &k, &db), WM_K_TOO_LARGE);
        k.max_edits = 1;
        k.alphabet = WM_ALPHABET_DNA;
        SET_RC(wm_compile_set(pp, ll, 4, &k, &db), WM_OK);
        k.alphabet = WM_ALPHABET_BYTES;
        k.algo = WM_ALGO_AC;
        SET_RC(wm_compile_set(pp, ll, 3, &k, &db), WM_INVALID);
        k.algo = WM_ALGO_AUTO;
        k.max_edits = 0; /* metric is ignored */
        SET_RC(wm_compile_set(pp, ll, 3, &k, &db), WM_OK);
    }
    {
        static const wm_algo_t single[] = { WM_ALGO_SHIFTOR, WM_ALGO_BITAP, WM_ALGO_MYERS,
                                            (wm_algo_t)99 };
        for (size_t i = 0; i < N_OF(single); i++) {
            wm_opts_t a = o;
            a.algo = single[i];
            SET_RC(wm_compile_set(pp, ll, 3, &a, &db), WM_INVALID);
        }
        for (size_t i = 0; i < N_OF(SET_ALGOS); i++) {
            wm_opts_t a = o;
            a.algo = SET_ALGOS[i];
            SET_RC(wm_compile_set(pp, ll, 3, &a, &db), WM_OK);
            if (SET_ALGOS[i] != WM_ALGO_AUTO) /* wm_compile: one pattern, no set algos */
                SET_RC(wm_compile(pp[0], ll[0], &a, &db), WM_INVALID);
        }
    }
    {
        wm_opts_t d = o;
        d.alphabet = WM_ALPHABET_DNA;
        SET_RC(wm_compile_set(pp, ll, 3, &d, &db), WM_OK);
        SET_RC(wm_compile_set(pp, ll, 4, &d, &db), WM_INVALID); /* N */
        const uint8_t *q[2] = { (const uint8_t *)"ACGT", (const uint8_t *)"ACRT" };
        size_t ql[2] = { 4, 4 };
        SET_RC(wm_compile_set(q, ql, 2, &d, &db), WM_INVALID); /* IUPAC R */
        d.revcomp = 1;
        SET_RC(wm_compile_set(pp, ll, 3, &d, &db), WM_OK);
        wm_opts_t b = o;
        b.revcomp = 1;
        SET_RC(wm_compile_set(pp, ll, 3, &b, &db), WM_OK);
        SET_RC(wm_compile_set(pp, ll, 4, &b, &db), WM_INVALID); /* N */
        const uint8_t *x[2] = { (const uint8_t *)"ACGT", (const uint8_t *)"hello" };
        size_t xl[2] = { 4, 5 };
        SET_RC(wm_compile_set(x, xl, 2, &b, &db), WM_INVALID);
        b.revcomp = 0;
        SET_RC(wm_compile_set(x, xl, 2, &b, &db), WM_OK);
    }
    {
        wm_opts_t q = o;
        q.algo = WM_ALGO_QGRAM;
        const uint8_t *s[2] = { (const uint8_t *)"ACGT", (const uint8_t *)"ACG" };
        size_t sl[2] = { 4, 3 };
        SET_RC(wm_compile_set(s, sl, 1, &q, &db), WM_OK);
        SET_RC(wm_compile_set(s, sl, 2, &q, &db), WM_INVALID);
        q.algo = WM_ALGO_AUTO;
        SET_RC(wm_compile_set(s, sl, 2, &q, &db), WM_OK);
    }
    { /* teddy: up to WM_TEDDY_MAX_PATTERNS patterns (duplicates counted) */
        static uint8_t buf[WM_TEDDY_MAX_PATTERNS + 1][4];
        const uint8_t *tp[WM_TEDDY_MAX_PATTERNS + 1];
        size_t tl[WM_TEDDY_MAX_PATTERNS + 1];
        for (size_t i = 0; i <= WM_TEDDY_MAX_PATTERNS; i++) {
            buf[i][0] = 'a';
            buf[i][1] = (uint8_t)('a' + i % 26);
            buf[i][2] = (uint8_t)('a' + i / 26 % 26);
            buf[i][3] = 'z';
            tp[i] = buf[i];
            tl[i] = 4;
        }
        wm_opts_t t = o;
        t.algo = WM_ALGO_TEDDY;
        SET_RC(wm_compile_set(tp, tl, WM_TEDDY_MAX_PATTERNS, &t, &db), WM_OK);
        SET_RC(wm_compile_set(tp, tl, WM_TEDDY_MAX_PATTERNS + 1, &t, &db), WM_INVALID);
        t.algo = WM_ALGO_AUTO;
        SET_RC(wm_compile_set(tp, tl, WM_TEDDY_MAX_PATTERNS + 1, &t, &db), WM_OK);
    }
}

/* One byte over WM_MAX_PATTERN, with a short pattern beside it, for every
** set algorithm (the length is checked before the bytes are read). */
static void test_too_long(void) {
    size_t big = WM_MAX_PATTERN + 1;
    uint8_t *p = xcalloc(big, 1);
    memset(p, 'A', big);
    const uint8_t *bp[2] = { p, (const uint8_t *)"ACGTA" };
    size_t bl[2] = { big, 5 };
    wm_db_t *db = NULL;
    for (size_t a = 0; a < N_OF(SET_ALGOS); a++) {
        wm_opts_t ao = wm_opts_default();
        ao.algo = SET_ALGOS[a];
        SET_RC(wm_compile_set(bp, bl, 2, &ao, &db), WM_PATTERN_TOO_LONG);
    }
    free(p);
}

/* wm_db_pattern_count; per-pattern counts of a one-pattern database and of
** a set, on empty texts too. */
static void test_counts(wm_context_t *cx) {
    const uint8_t *const *pp = PP;
    const size_t *ll = LL;
    wm_opts_t o = wm_opts_default();
    wm_db_t *db = NULL;
    int rc = wm_compile(pp[2], ll[2], &o, &db);
    CHECK_RC(rc, WM_OK);
    if (rc == WM_OK) {
        CHECK(wm_db_pattern_count(db) == 1, "wm_db_pattern_count(one pattern) = %zu",
              wm_db_pattern_count(db));
        const char *txt = "GATTACAGATTACA.GATTACA";
        wm_text_t t = { (const uint8_t *)txt, strlen(txt), NULL, 0 };
        uint64_t cnt[2] = { 0, 77 };
        rc = wm_count_per_pattern(cx, db, &t, cnt);
        CHECK(rc == WM_OK && cnt[0] == 3 && cnt[1] == 77,
              "wm_count_per_pattern(one pattern): "
              "rc %d, count %" PRIu64 " (want 3), counts[1] %" PRIu64 " (must stay 77)",
              rc, cnt[0], cnt[1]);
        wm_db_free(db);
    }
    db = NULL;
    rc = wm_compile_set(pp, ll, 3, &o, &db);
    if (rc == WM_OK) {
        CHECK(wm_db_pattern_count(db) == 3, "wm_db_pattern_count(3 patterns) = %zu",
              wm_db_pattern_count(db));
        wm_text_t t = { (const uint8_t *)"ACGT", 4, NULL, 0 };
        CHECK_RC(wm_count_per_pattern(cx, db, &t, NULL), WM_INVALID);
        /* an empty text (no buffer at all), and records that are all empty */
        wm_text_t e = { NULL, 0, NULL, 0 };
        match_vec got = { 0 };
        CHECK_RC(wm_search(cx, db, &e, collect, &got), WM_OK);
        uint64_t rs[3] = { 0, 0, 0 };
        wm_text_t e3 = { (const uint8_t *)"", 0, rs, 3 };
        CHECK_RC(wm_search(cx, db, &e3, collect, &got), WM_OK);
        uint64_t cnt3[3] = { 5, 5, 5 };
        CHECK_RC(wm_count_per_pattern(cx, db, &e, cnt3), WM_OK);
        CHECK(got.n == 0 && !cnt3[0] && !cnt3[1] && !cnt3[2],
              "matches (%zu) or counts in an empty text", got.n);
        free(got.a);
        wm_db_free(db);
    }
}

int main(void) {
    printf("test_api_sets: warpmatch %s\n", wm_version());
    test_compile_set();
    test_too_long();
    wm_context_t *cx = cpu_context(1, 0);
    if (cx) test_counts(cx);
    wm_context_free(cx);
    return test_finish();
}
