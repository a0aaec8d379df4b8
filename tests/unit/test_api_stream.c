/*
** test_api_stream.c -- the streaming search (wm_stream_*) against the
** one-shot wm_search on the concatenation of the blocks (itself checked
** against brute force by tests/diff/test_search_diff.c and
** test_multi_diff.c): the same matches, fields and order, with offsets in the
** whole stream.
**
** Random cases: one pattern (exact, edit and Hamming with k = 0..3, bytes
** and DNA alphabets, case folding, revcomp, each single-pattern algorithm)
** or a set (every set algorithm, DNA and bytes, revcomp); texts over 1-4
** symbols, runs of one letter (AAAA...), planted copies; the stream cut into
** blocks of 1 byte, empty feeds, short and long blocks, or one block; on a
** CPU context of 1 thread, of 3 with tiny chunks, and of two CPU shards.
** Then the documented rules one check at a time: the callback stopping the
** stream, misuse (NULLs, feed or close after close, calls from inside the
** callback), empty streams, offsets.
** Exit status 0 when all checks pass; the last line is "N passed, N failed".
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contexts.h"
#include "harness.h"
#include "matches.h"
#include "rng.h"
#include "warpmatch.h"

#define MAX_TEXT 4000
#define MAX_SET 8
#define MAX_PAT 300

/* One random case: the database's options and patterns, the text, and how
** the stream cuts it. */
typedef struct {
    wm_opts_t o;
    int set;      /* wm_compile_set, else wm_compile */
    size_t n_pat; /* 1 unless set */
    uint8_t pat[MAX_SET][MAX_PAT];
    size_t len[MAX_SET];
    uint8_t text[MAX_TEXT];
    size_t n;
    size_t cuts[MAX_TEXT * 2 + 8]; /* block sizes, 0 = an empty feed */
    size_t n_cuts;
    int config; /* which context streams */
} scase;

static const char *const CONFIG_NAME[3] = { "cpu 1 thread", "cpu 3 threads chunk 7",
                                            "cpu 2 shards" };
static wm_context_t *g_ref;   /* the one-shot reference: 1 thread */
static wm_context_t *g_cx[3]; /* the stream's contexts, CONFIG_NAME */
static wm_context_t *g_gpu;   /* with a GPU: every case streamed on CUDA too */
static long g_cases_run, g_skipped, g_with_matches, g_matches, g_stopped_cases;
/* What the streamed cases held: sets, Hamming, k > 0, DNA, revcomp, 1-byte blocks. */
static long g_sets, g_hamming, g_k, g_dna, g_revcomp, g_bytewise;

static void describe(const void *p) {
    const scase *c = p;
    printf("    %s of %zu, k %u %s, alphabet %s, case-insensitive %d, revcomp %d, algo %s, %s\n",
           c->set ? "set" : "pattern", c->n_pat, c->o.max_edits,
           c->o.metric == WM_METRIC_HAMMING ? "hamming" : "edit",
           c->o.alphabet == WM_ALPHABET_DNA ? "dna" : "bytes", c->o.case_insensitive, c->o.revcomp,
           wm_algo_name(c->o.algo), CONFIG_NAME[c->config]);
    for (size_t i = 0; i < c->n_pat; i++) {
        printf("    pattern %zu: ", i);
        print_bytes(stdout, c->pat[i], c->len[i], 80);
        printf("\n");
    }
    printf("    text (%zu bytes): ", c->n);
    print_bytes(stdout, c->text, c->n, g_verbose ? c->n : 80);
    printf("\n    blocks (%zu):", c->n_cuts);
    for (size_t i = 0; i < c->n_cuts && (g_verbose || i < 40); i++) printf(" %zu", c->cuts[i]);
    printf("\n");
}

/* ---- making a case ------------------------------------------------------------ */

static const char DNA[] = "ACGT";
static const char BYTES[] = "abcd";

/* A symbol of the case's alphabet of `sigma` letters. */
static uint8_t symbol(const scase *c, unsigned sigma) {
    uint8_t s =
        (uint8_t)(c->o.alphabet == WM_ALPHABET_DNA ? DNA[below(sigma)] : BYTES[below(sigma)]);
    if ((c->o.case_insensitive || c->o.alphabet == WM_ALPHABET_DNA) && chance(20))
        s = (uint8_t)(s ^ 0x20);
    return s;
}

static void make_patterns(scase *c, unsigned sigma) {
    static const span_t LENS[] = { { 40, 1, 4 }, { 85, 5, 20 }, { 95, 21, 70 }, { 100, 71, 300 } };
    c->n_pat = c->set ? (size_t)range(1, MAX_SET) : 1;
    for (size_t i = 0; i < c->n_pat; i++) {
        c->len[i] = (size_t)pick_span(LENS, N_OF(LENS), 100);
        for (size_t j = 0; j < c->len[i]; j++) c->pat[i][j] = symbol(c, sigma);
        /* IUPAC codes in single DNA patterns (sets take A, C, G, T only) */
        if (!c->set && c->o.alphabet == WM_ALPHABET_DNA && !c->o.revcomp && chance(20))
            c->pat[i][below(c->len[i])] = (uint8_t) "NRYKM"[below(5)];
    }
}

static void make_options(scase *c) {
    c->o = wm_opts_default();
    c->set = chance(35);
    c->o.alphabet = chance(40) ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
    c->o.case_insensitive = chance(20);
    c->o.revcomp = c->o.alphabet == WM_ALPHABET_DNA && chance(40);
    if (c->set) {
        static const wm_algo_t SET_ALGOS[] = { WM_ALGO_AUTO,           WM_ALGO_AC,
                                               WM_ALGO_PFAC,           WM_ALGO_WUMANBER,
                                               WM_ALGO_WUMANBER_PAPER, WM_ALGO_QGRAM,
                                               WM_ALGO_TEDDY };
        c->o.algo = chance(50) ? WM_ALGO_AUTO : SET_ALGOS[below(N_OF(SET_ALGOS))];
        return;
    }
    c->o.max_edits = (uint32_t)below(4);
    c->o.metric = chance(30) ? WM_METRIC_HAMMING : WM_METRIC_EDIT;
    static const wm_algo_t ALGOS[] = { WM_ALGO_AUTO, WM_ALGO_SHIFTOR, WM_ALGO_BITAP,
                                       WM_ALGO_MYERS };
    c->o.algo = chance(50) ? WM_ALGO_AUTO : ALGOS[below(N_OF(ALGOS))];
    if (c->o.algo == WM_ALGO_SHIFTOR && c->o.max_edits) c->o.algo = WM_ALGO_BITAP;
    if (c->o.algo == WM_ALGO_MYERS && c->o.metric == WM_METRIC_HAMMING) c->o.algo = WM_ALGO_BITAP;
}

/* Random text with adversarial stretches: one-letter runs, planted copies
** of a pattern (changed in a few places), a byte outside the alphabet. */
static void make_text(scase *c, unsigned sigma) {
    static const span_t SIZES[] = {
        { 10, 0, 0 }, { 30, 1, 40 }, { 80, 41, 600 }, { 100, 601, MAX_TEXT }
    };
    c->n = (size_t)pick_span(SIZES, N_OF(SIZES), 100);
    int one_run = chance(10); /* the whole text one letter */
    uint8_t run = symbol(c, sigma);
    for (size_t i = 0; i < c->n; i++) c->text[i] = one_run ? run : symbol(c, sigma);
    for (unsigned r = (unsigned)below(4); r-- && c->n;) { /* runs of one letter */
        size_t at = (size_t)below(c->n), len = (size_t)range(1, 400);
        uint8_t s = symbol(c, sigma);
        for (size_t i = at; i < c->n && i < at + len; i++) c->text[i] = s;
    }
    for (unsigned p = (unsigned)below(12); p--;) { /* planted copies */
        size_t w = (size_t)below(c->n_pat), m = c->len[w];
        if (m > c->n) continue;
        size_t at = (size_t)below(c->n - m + 1);
        memcpy(c->text + at, c->pat[w], m);
        for (unsigned e = (unsigned)below(c->o.max_edits + 1); e--;)
            c->text[at + below(m)] = symbol(c, sigma);
    }
    if (c->n && chance(20)) c->text[below(c->n)] = (uint8_t)below(256);
}

/* Block sizes covering n bytes: 1-byte blocks, short ones, long ones, one
** block, with empty feeds among them. */
static void make_cuts(scase *c) {
    int style = (int)below(5);
    size_t left = c->n;
    c->n_cuts = 0;
    while (left > 0 || (c->n_cuts < 2 && chance(50))) {
        size_t b;
        if (chance(8)) b = 0; /* an empty feed */
        else if (style == 0) b = 1;
        else if (style == 1) b = (size_t)range(1, 8);
        else if (style == 2) b = (size_t)range(1, 80);
        else if (style == 3) b = chance(50) ? 1 : (size_t)range(1, 1000);
        else b = left;
        if (b > left) b = left;
        c->cuts[c->n_cuts++] = b;
        left -= b;
        if (c->n_cuts >= N_OF(c->cuts) - 1) { /* cannot happen: at most 2n + a few */
            c->cuts[c->n_cuts++] = left;
            left = 0;
        }
    }
}

/* ---- running a case -------------------------------------------------------------- */

static wm_status compile_case(const scase *c, wm_db_t **db) {
    if (!c->set) return wm_compile(c->pat[0], c->len[0], &c->o, db);
    const uint8_t *pp[MAX_SET];
    for (size_t i = 0; i < c->n_pat; i++) pp[i] = c->pat[i];
    return wm_compile_set(pp, c->len, c->n_pat, &c->o, db);
}

/* Streams the case on cx, stopping after stop_after matches (0: never);
** the matches in *got. Checks the feeds' and close's statuses and the offset. */
static void stream_case(long idx, const scase *c, wm_context_t *cx, const wm_db_t *db,
                        size_t stop_after, match_vec *got) {
    got->n = 0;
    got->stop_after = stop_after;
    wm_stream_t *st = NULL;
    check_case_status(idx, c, "wm_stream_open", wm_stream_open(cx, db, collect, got, &st), WM_OK,
                      cx);
    if (!st) return;
    size_t at = 0;
    int stopped = 0;
    for (size_t i = 0; i < c->n_cuts; i++) {
        size_t matches_before = got->n;
        int rc = wm_stream_feed(st, c->cuts[i] ? c->text + at : NULL, c->cuts[i]);
        at += c->cuts[i];
        if (stopped) { /* a stopped stream stays stopped, silent */
            if (rc != WM_STOPPED || got->n != matches_before)
                fail_fmt(idx, c, "feed %zu after the stop: status %d, %zu new matches", i, rc,
                         got->n - matches_before);
            continue;
        }
        if (rc == WM_STOPPED && stop_after && got->n == stop_after) stopped = 1;
        else if (rc != WM_OK) {
            fail_fmt(idx, c, "feed %zu (%zu bytes at %zu): status %d (%s)", i, c->cuts[i],
                     at - c->cuts[i], rc, wm_context_errmsg(cx));
            break;
        }
        if (wm_stream_offset(st) != at)
            fail_fmt(idx, c, "wm_stream_offset %" PRIu64 " after %zu bytes", wm_stream_offset(st),
                     at);
    }
    int rc = wm_stream_close(st);
    if (rc != (stopped ? WM_STOPPED : WM_OK)) fail_fmt(idx, c, "wm_stream_close: status %d", rc);
    if (stop_after && !stopped) fail_fmt(idx, c, "the callback's stop was not reported");
    wm_stream_free(st);
}

static void one_case(long idx) {
    scase *c = xcalloc(1, sizeof *c);
    make_options(c);
    unsigned sigma = (unsigned)range(1, 4);
    make_patterns(c, sigma);
    make_text(c, sigma);
    make_cuts(c);
    c->config = (int)below(3);
    wm_db_t *db = NULL;
    if (compile_case(c, &db) != WM_OK) { /* k >= m, a QGRAM set too short, ... */
        g_skipped++;
        free(c);
        return;
    }
    g_cases_run++;
    match_vec want = { 0 }, got = { 0 };
    wm_text_t t = { c->text, c->n, NULL, 0 };
    check_case_status(idx, c, "wm_search (reference)", wm_search(g_ref, db, &t, collect, &want),
                      WM_OK, g_ref);
    g_with_matches += want.n > 0;
    g_matches += (long)want.n;

    stream_case(idx, c, g_cx[c->config], db, 0, &got);
    compare_matches(idx, c, "stream vs wm_search", got.a, got.n, want.a, want.n);
    /* On CUDA every feed is a GPU search (launches, a sort, copies back:
    ** ~0.1 ms however few its bytes), so a case cut into thousands of 1-byte
    ** blocks takes seconds there: the GPU streams every 4th case of at most
    ** 256 feeds, which keeps the suite's GPU run within minutes. */
    if (g_gpu && idx % 4 == 0 &&
        c->n_cuts <= 256) { /* draws nothing: the cases stay those of a run without a GPU */
        stream_case(idx, c, g_gpu, db, 0, &got);
        compare_matches(idx, c, "cuda stream vs wm_search", got.a, got.n, want.a, want.n);
    }
    g_sets += c->set;
    g_hamming += !c->set && c->o.metric == WM_METRIC_HAMMING;
    g_k += c->o.max_edits > 0;
    g_dna += c->o.alphabet == WM_ALPHABET_DNA;
    g_revcomp += c->o.revcomp;
    g_bytewise += c->n > 1 && c->n_cuts >= c->n;

    /* The callback stopping at a random match: the stream gave exactly the
    ** first ones, then nothing. */
    if (want.n > 0 && chance(30)) {
        size_t stop = (size_t)range(1, want.n);
        stream_case(idx, c, g_cx[c->config], db, stop, &got);
        compare_matches(idx, c, "stopped stream vs the first matches", got.a, got.n, want.a, stop);
        g_stopped_cases++;
    }
    free(want.a);
    free(got.a);
    wm_db_free(db);
    free(c);
}

/* ---- the rules, one check at a time ------------------------------------------------ */

typedef struct {
    wm_stream_t *st; /* the stream this callback belongs to */
    int rc_feed, rc_close;
    size_t calls;
} reenter_t;

/* Calls its own stream from inside the callback: every call refused. */
static int reenter(const wm_match_t *m, void *user) {
    (void)m;
    reenter_t *r = user;
    r->calls++;
    r->rc_feed = wm_stream_feed(r->st, (const uint8_t *)"x", 1);
    r->rc_close = wm_stream_close(r->st);
    wm_stream_free(r->st); /* a no-op from in here */
    return 0;
}

static int count_calls(const wm_match_t *m, void *user) {
    (void)m;
    (*(size_t *)user)++;
    return 0;
}

static void test_rules(void) {
    wm_context_t *cx = cpu_context(1, 0);
    wm_db_t *db = compile_text("abc", NULL);
    if (!cx || !db) return;
    wm_stream_t *st = NULL;
    size_t calls = 0;

    /* open: each argument */
    CHECK_RC(wm_stream_open(NULL, db, count_calls, &calls, &st), WM_INVALID);
    CHECK(st == NULL, "*st set after a failed open");
    CHECK_RC(wm_stream_open(cx, NULL, count_calls, &calls, &st), WM_INVALID);
    CHECK_RC(wm_stream_open(cx, db, NULL, &calls, &st), WM_INVALID);
    CHECK_RC(wm_stream_open(cx, db, count_calls, &calls, NULL), WM_INVALID);
    CHECK_RC(wm_stream_open((wm_context_t *)db, db, count_calls, &calls, &st), WM_INVALID);
    CHECK_RC(wm_stream_open(cx, (const wm_db_t *)cx, count_calls, &calls, &st), WM_INVALID);

    /* NULL streams */
    CHECK_RC(wm_stream_feed(NULL, (const uint8_t *)"abc", 3), WM_INVALID);
    CHECK_RC(wm_stream_close(NULL), WM_INVALID);
    CHECK(wm_stream_offset(NULL) == 0, "wm_stream_offset(NULL) != 0");
    wm_stream_free(NULL);

    /* an empty stream: nothing, WM_OK */
    CHECK_RC(wm_stream_open(cx, db, count_calls, &calls, &st), WM_OK);
    CHECK_RC(wm_stream_feed(st, NULL, 0), WM_OK);
    CHECK_RC(wm_stream_close(st), WM_OK);
    CHECK(calls == 0, "%zu matches from an empty stream", calls);
    wm_stream_free(st);

    /* a match across three blocks; a bad feed leaves the stream as it was */
    CHECK_RC(wm_stream_open(cx, db, count_calls, &calls, &st), WM_OK);
    CHECK_RC(wm_stream_feed(st, (const uint8_t *)"xxa", 3), WM_OK);
    CHECK_RC(wm_stream_feed(st, NULL, 5), WM_INVALID);
    CHECK(strstr(wm_context_errmsg(cx), "NULL") != NULL, "message \"%s\"", wm_context_errmsg(cx));
    CHECK(wm_stream_offset(st) == 3, "offset %" PRIu64 " after a refused feed",
          wm_stream_offset(st));
    CHECK_RC(wm_stream_feed(st, (const uint8_t *)"b", 1), WM_OK);
    CHECK(calls == 0, "a match before its last byte");
    CHECK_RC(wm_stream_feed(st, (const uint8_t *)"c", 1), WM_OK);
    CHECK(calls == 1, "%zu matches once \"abc\" was complete, 1 expected", calls);
    CHECK_RC(wm_stream_close(st), WM_OK);
    /* after close */
    CHECK_RC(wm_stream_feed(st, (const uint8_t *)"abc", 3), WM_INVALID);
    CHECK(strstr(wm_context_errmsg(cx), "closed") != NULL, "message \"%s\"", wm_context_errmsg(cx));
    CHECK_RC(wm_stream_feed(st, NULL, 0), WM_INVALID);
    CHECK_RC(wm_stream_close(st), WM_INVALID);
    CHECK(wm_stream_offset(st) == 5, "offset %" PRIu64 ", 5 expected", wm_stream_offset(st));
    CHECK(calls == 1, "%zu matches after close", calls);
    wm_stream_free(st);

    /* the callback calling its own stream */
    reenter_t r = { NULL, 0, 0, 0 };
    CHECK_RC(wm_stream_open(cx, db, reenter, &r, &r.st), WM_OK);
    CHECK_RC(wm_stream_feed(r.st, (const uint8_t *)"abcab", 5), WM_OK);
    CHECK(r.calls == 1, "%zu callbacks, 1 expected", r.calls);
    CHECK(r.rc_feed == WM_INVALID && r.rc_close == WM_INVALID,
          "feed %d, close %d from inside the callback", r.rc_feed, r.rc_close);
    CHECK(strstr(wm_context_errmsg(cx), "callback") != NULL, "message \"%s\"",
          wm_context_errmsg(cx));
    CHECK_RC(wm_stream_feed(r.st, (const uint8_t *)"c", 1), WM_OK); /* the stream lives on */
    CHECK(r.calls == 2 && wm_stream_offset(r.st) == 6, "%zu callbacks at %" PRIu64, r.calls,
          wm_stream_offset(r.st));
    CHECK_RC(wm_stream_close(r.st), WM_OK);
    wm_stream_free(r.st);

    /* an unclosed stream freed; two streams on one context interleaved */
    wm_stream_t *a = NULL, *b = NULL;
    size_t ca = 0, cb = 0;
    CHECK_RC(wm_stream_open(cx, db, count_calls, &ca, &a), WM_OK);
    CHECK_RC(wm_stream_open(cx, db, count_calls, &cb, &b), WM_OK);
    const char *ta = "abcabcab", *tb = "xxabcxxa";
    for (size_t i = 0; i < 8; i++) {
        CHECK_RC(wm_stream_feed(a, (const uint8_t *)ta + i, 1), WM_OK);
        CHECK_RC(wm_stream_feed(b, (const uint8_t *)tb + i, 1), WM_OK);
    }
    CHECK(ca == 2 && cb == 1, "interleaved streams: %zu and %zu matches, 2 and 1 expected", ca, cb);
    wm_stream_free(a);
    CHECK_RC(wm_stream_close(b), WM_OK);
    wm_stream_free(b);

    wm_db_free(db);
    wm_context_free(cx);
}

/* Offsets: a stream of 3 MiB in blocks of 64 KiB + 1 against one search,
** and the matches of a last block far into the stream. */
static void test_long_stream(void) {
    wm_context_t *cx = cpu_context(2, 0);
    wm_opts_t o = wm_opts_default();
    o.max_edits = 2;
    wm_db_t *db = compile_text("GATTACAGATTACA", &o);
    if (!cx || !db) return;
    size_t n = 3u << 20, block = (64u << 10) + 1;
    uint8_t *text = xmalloc(n);
    seed_case(0, 99);
    for (size_t i = 0; i < n; i++) text[i] = (uint8_t)DNA[below(4)];
    for (size_t at = 1000; at + 14 < n; at += 65521) memcpy(text + at, "GATTACAGATTACA", 14);
    match_vec want = { 0 }, got = { 0 };
    wm_text_t t = { text, n, NULL, 0 };
    CHECK_RC(wm_search(cx, db, &t, collect, &want), WM_OK);
    wm_stream_t *st = NULL;
    CHECK_RC(wm_stream_open(cx, db, collect, &got, &st), WM_OK);
    for (size_t at = 0; st && at < n; at += block)
        CHECK_RC(wm_stream_feed(st, text + at, at + block < n ? block : n - at), WM_OK);
    CHECK_RC(wm_stream_close(st), WM_OK);
    wm_stream_free(st);
    CHECK(want.n > 40, "only %zu matches planted", want.n);
    compare_matches(-1, NULL, "3 MiB stream vs wm_search", got.a, got.n, want.a, want.n);
    free(want.a);
    free(got.a);
    free(text);
    wm_db_free(db);
    wm_context_free(cx);
}

int main(int argc, char **argv) {
    long only = -2;
    long n_cases = test_begin("test_api_stream", argc, argv, 20261126ull, 3000, describe, &only);
    g_ref = cpu_context(1, 0);
    g_cx[0] = cpu_context(1, 0);
    g_cx[1] = cpu_context(3, 7);
    static const int shards[2] = { 0, 0 };
    wm_context_opts_t co = wm_context_opts_default();
    co.backend = WM_BACKEND_CPU;
    co.threads = 2;
    co.devices = shards;
    co.n_devices = 2;
    CHECK_RC(wm_context_new(&co, &g_cx[2]), WM_OK);
    if (!g_ref || !g_cx[0] || !g_cx[1] || !g_cx[2]) return test_finish();
    if (cuda_present("the stream on the CUDA backend")) {
        co = wm_context_opts_default();
        co.backend = WM_BACKEND_CUDA;
        co.threads = 3;
        CHECK_RC(wm_context_new(&co, &g_gpu), WM_OK);
    }

    if (only < -1) {
        test_rules();
        part_done("rules");
        test_long_stream();
        part_done("long stream");
    }
    run_cases(n_cases, only, 7, 1000, one_case);
    printf("test_api_stream: %ld cases streamed (%ld with matches, %ld matches; %ld also "
           "stopped), %ld not compiled (k >= m and the like)\n",
           g_cases_run, g_with_matches, g_matches, g_stopped_cases, g_skipped);
    printf("test_api_stream: of those %ld sets, %ld Hamming, %ld with k > 0, %ld DNA, %ld revcomp, "
           "%ld fed about a byte at a time%s\n",
           g_sets, g_hamming, g_k, g_dna, g_revcomp, g_bytewise, g_gpu ? ", each on CUDA too" : "");
    part_done("random cases");
    print_repro(argv[0], NULL);
    for (int i = 0; i < 3; i++) wm_context_free(g_cx[i]);
    wm_context_free(g_gpu);
    wm_context_free(g_ref);
    return test_finish();
}
