/*
** test_api_align.c -- the pairwise alignment API, one check at a time (as
** Hyperscan's arg_checks do):
**  - infix: wm_align_opts_default, wm_align_algo_name, wm_alignments_free
**    (NULL and emptied results); an empty query (WM_PATTERN_EMPTY); a query
**    of WM_MAX_QUERY + 1 bytes (WM_PATTERN_TOO_LONG, refused before a byte
**    is read) and of exactly WM_MAX_QUERY (accepted); NULL out, NULL query
**    or target with a length, unknown mode / algo / alphabet (WM_INVALID);
**  - global: four-russians in infix mode (wm_align and wm_align_pairs),
**    fr_t 5 and -1 for every algorithm (a bad field is a bad field),
**    max_distance -2, NULLs with lengths, WM_PATTERN_TOO_LONG;
**    wm_align_fr_info (t, key kind, entries, bytes for t = 0..3, DNA and
**    bytes; built on at most the context's threads); wm_align_pairs with 0
**    pairs, NULL arguments, and a bad pair in the middle (WM_INVALID,
**    nothing left allocated, the message names the pair);
**    wm_alignment_clear.
** The answers of small hand-worked cases and of empty sequences on every
** backend are checked against the oracles in tests/diff/test_align_diff.c
** and test_global_diff.c.
** Exit status 0 when all checks pass; the last line is "N passed, N failed".
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contexts.h"
#include "harness.h"
#include "warpmatch.h"

/* A call's status; the alignments it made (if any) freed. */
static void aligned(int rc, int want, wm_alignments_t *out, int line, const char *call) {
    check_rc_at(rc, want, __FILE__, line, call);
    if (rc == WM_OK) wm_alignments_free(out);
}
#define ALIGN_RC(call, want)                                                                       \
    do {                                                                                           \
        memset(&out, 0, sizeof out);                                                               \
        aligned((call), (want), &out, __LINE__, #call);                                            \
    } while (0)

/* What both modes refuse alike: NULL query, target and out with lengths,
** unknown mode and algorithm values. o: the mode's options; t: n bytes. */
static void test_common(wm_context_t *cx, const wm_align_opts_t *o, const uint8_t *t, size_t n) {
    wm_alignments_t out;
    const uint8_t *q = (const uint8_t *)"ACGT";
    ALIGN_RC(wm_align(cx, NULL, 4, t, n, o, &out), WM_INVALID);
    ALIGN_RC(wm_align(cx, q, 4, NULL, n, o, &out), WM_INVALID);
    ALIGN_RC(wm_align(cx, q, 4, t, n, o, NULL), WM_INVALID);
    wm_align_opts_t b = *o;
    b.mode = (wm_align_mode_t)7;
    ALIGN_RC(wm_align(cx, q, 4, t, n, &b, &out), WM_INVALID);
    b = *o;
    b.algo = (wm_align_algo_t)9;
    ALIGN_RC(wm_align(cx, q, 4, t, n, &b, &out), WM_INVALID);
}

/* ---- infix ------------------------------------------------------------------- */

static void test_infix(wm_context_t *cx) {
    wm_alignments_t out;
    wm_align_opts_t o = wm_align_opts_default();

    /* defaults */
    check_true("wm_align_opts_default: mode infix, algo auto, max_distance -1, cigar 0,"
               " all_ends 0, case_insensitive 0, alphabet bytes",
               o.mode == WM_ALIGN_INFIX && o.algo == WM_ALIGN_ALGO_AUTO && o.max_distance == -1 &&
                   o.cigar == 0 && o.all_ends == 0 && o.case_insensitive == 0 &&
                   o.alphabet == WM_ALPHABET_BYTES);
    {
        const char *a = wm_align_algo_name(WM_ALIGN_ALGO_AUTO);
        const char *w = wm_align_algo_name(WM_ALIGN_ALGO_WAVEFRONT);
        const char *b = wm_align_algo_name(WM_ALIGN_ALGO_BITVECTOR);
        check_true("wm_align_algo_name: auto, wavefront, bitvector",
                   a && w && b && !strcmp(a, "auto") && !strcmp(w, "wavefront") &&
                       !strcmp(b, "bitvector"));
    }
    wm_alignments_free(NULL);
    memset(&out, 0, sizeof out);
    wm_alignments_free(&out);
    CHECK(out.a == NULL && out.n == 0, "wm_alignments_free of an empty result");

    /* the arguments, one at a time */
    const uint8_t *q = (const uint8_t *)"ACGT", *t = (const uint8_t *)"xxACTGTxx";
    ALIGN_RC(wm_align(cx, q, 4, t, 9, &o, &out), WM_OK);
    ALIGN_RC(wm_align(cx, q, 0, t, 9, &o, &out), WM_PATTERN_EMPTY);
    test_common(cx, &o, t, 9);
    {
        wm_align_opts_t b = o;
        b.alphabet = (wm_alphabet_t)9;
        ALIGN_RC(wm_align(cx, q, 4, t, 9, &b, &out), WM_INVALID);
    }
    /* too long: WM_MAX_QUERY + 1 bytes (a real buffer; the length must be
    ** refused before anything is read); exactly WM_MAX_QUERY is accepted:
    ** zero bytes in DNA match nothing, so d = m at [0, 0). */
    {
        size_t big = (size_t)WM_MAX_QUERY + 1;
        uint8_t *bq = calloc(big, 1);
        if (bq == NULL) {
            skip_note("no memory for a query of WM_MAX_QUERY + 1 bytes");
        } else {
            ALIGN_RC(wm_align(cx, bq, big, t, 9, &o, &out), WM_PATTERN_TOO_LONG);
            wm_align_opts_t d = o;
            d.alphabet = WM_ALPHABET_DNA;
            memset(&out, 0, sizeof out);
            int rc = wm_align(cx, bq, big - 1, (const uint8_t *)"ACGT", 4, &d, &out);
            check_true("a query of exactly WM_MAX_QUERY bytes (zeros, DNA) in \"ACGT\": WM_OK,"
                       " distance WM_MAX_QUERY at [0,0)",
                       rc == WM_OK && out.n == 1 && out.a[0].distance == WM_MAX_QUERY &&
                           out.a[0].start == 0 && out.a[0].end == 0);
            if (rc == WM_OK) wm_alignments_free(&out);
            free(bq);
        }
    }
}

/* ---- global ------------------------------------------------------------------ */

static void test_global(wm_context_t *cx, wm_context_t *cx3, int threads3) {
    char what[300];
    wm_alignments_t out;
    wm_align_opts_t g = wm_align_opts_default();
    g.mode = WM_ALIGN_GLOBAL;
    const uint8_t *q = (const uint8_t *)"ACGT", *t = (const uint8_t *)"ACT";

    {
        const char *fr = wm_align_algo_name(WM_ALIGN_ALGO_FOUR_RUSSIANS);
        check_true("wm_align_algo_name(WM_ALIGN_ALGO_FOUR_RUSSIANS) is \"four-russians\"",
                   fr != NULL && strcmp(fr, "four-russians") == 0);
        check_true("wm_align_opts_default: fr_t 0", wm_align_opts_default().fr_t == 0);
    }

    /* four-russians is global only */
    {
        wm_align_opts_t b = wm_align_opts_default(); /* infix */
        b.algo = WM_ALIGN_ALGO_FOUR_RUSSIANS;
        ALIGN_RC(wm_align(cx, q, 4, t, 3, &b, &out), WM_INVALID);
        b.fr_t = 2;
        ALIGN_RC(wm_align(cx, q, 4, t, 3, &b, &out), WM_INVALID);
        wm_pair_t p = { q, 4, t, 3 };
        wm_alignment_t a1;
        memset(&a1, 0, sizeof a1);
        int rc = wm_align_pairs(cx, &p, 1, &b, &a1);
        check_status("wm_align_pairs: four-russians in infix mode", rc, WM_INVALID, cx);
        check_true("wm_align_pairs: four-russians in infix mode leaves no CIGAR", a1.cigar == NULL);
    }
    /* fr_t out of range, whatever the algorithm */
    {
        static const int bad_t[] = { 5, -1, 100, WM_FR_MAX_T + 1 };
        static const wm_align_algo_t al[] = { WM_ALIGN_ALGO_FOUR_RUSSIANS, WM_ALIGN_ALGO_AUTO,
                                              WM_ALIGN_ALGO_BITVECTOR, WM_ALIGN_ALGO_DP };
        for (size_t i = 0; i < N_OF(bad_t); i++)
            for (size_t a = 0; a < N_OF(al); a++) {
                wm_align_opts_t b = g;
                b.algo = al[a];
                b.fr_t = bad_t[i];
                memset(&out, 0, sizeof out);
                int rc = wm_align(cx, q, 4, t, 3, &b, &out);
                snprintf(what, sizeof what, "wm_align(global, algo %d, fr_t %d)", (int)al[a],
                         bad_t[i]);
                check_status(what, rc, WM_INVALID, cx);
                if (rc == WM_OK) wm_alignments_free(&out);
            }
        wm_align_opts_t b = g;
        b.algo = WM_ALIGN_ALGO_FOUR_RUSSIANS;
        b.fr_t = 5;
        wm_fr_info_t info;
        ALIGN_RC(wm_align_fr_info(cx, &b, &info), WM_INVALID);
        b.fr_t = -1;
        ALIGN_RC(wm_align_fr_info(cx, &b, &info), WM_INVALID);
        wm_pair_t p = { q, 4, t, 3 };
        wm_alignment_t a1;
        memset(&a1, 0, sizeof a1);
        check_status("wm_align_pairs(fr_t 5)", wm_align_pairs(cx, &p, 1, &b, &a1), WM_INVALID, cx);
        wm_alignment_clear(&a1, 1);
    }
    /* other bad arguments in global mode */
    {
        wm_align_opts_t b = g;
        b.max_distance = -2;
        ALIGN_RC(wm_align(cx, q, 4, t, 3, &b, &out), WM_INVALID);
        ALIGN_RC(wm_align(NULL, q, 4, t, 3, &g, &out), WM_INVALID);
        test_common(cx, &g, t, 3);
        size_t big = (size_t)WM_MAX_QUERY + 1;
        uint8_t *bq = calloc(big, 1);
        if (bq != NULL) {
            ALIGN_RC(wm_align(cx, bq, big, t, 3, &g, &out), WM_PATTERN_TOO_LONG);
            free(bq);
        }
    }
    /* wm_align_fr_info: the table sizes of fr.h */
    {
        for (int dna = 0; dna < 2; dna++)
            for (int tt = 0; tt <= 3; tt++) {
                wm_align_opts_t b = g;
                b.algo = WM_ALIGN_ALGO_FOUR_RUSSIANS;
                b.alphabet = dna ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
                b.fr_t = tt;
                unsigned T = tt ? (unsigned)tt : 3;
                uint64_t keys = dna ? (1ull << (4 * T)) : (1ull << (T * T)), e = keys;
                for (unsigned k = 0; k < T; k++) e *= 9;
                wm_fr_info_t info;
                memset(&info, 0xff, sizeof info);
                int rc = wm_align_fr_info(cx3, &b, &info);
                snprintf(what, sizeof what,
                         "wm_align_fr_info(%s, fr_t %d): t %u, key_strings %d, "
                         "%" PRIu64 " entries, %" PRIu64 " bytes, built on 1..%d threads",
                         dna ? "dna" : "bytes", tt, T, dna, e, 2 * e, threads3);
                int ok = rc == WM_OK && info.t == T && info.key_strings == dna &&
                         info.entries == e && info.bytes == 2 * e && info.build_seconds >= 0 &&
                         info.build_threads >= 1 && info.build_threads <= threads3;
                if (!ok && rc == WM_OK)
                    printf("  got: t %u, key_strings %d, %" PRIu64 " entries, %" PRIu64 " bytes,"
                           " %.3f s, %d threads\n",
                           info.t, info.key_strings, info.entries, info.bytes, info.build_seconds,
                           info.build_threads);
                if (!ok && rc != WM_OK)
                    printf("  got: %d (%s): %s\n", rc, wm_strerror(rc), wm_context_errmsg(cx3));
                check_true(what, ok);
            }
    }
    /* wm_align_pairs: arguments */
    {
        wm_alignment_t o1[10];
        memset(o1, 0, sizeof o1);
        check_status("wm_align_pairs(0 pairs)", wm_align_pairs(cx, NULL, 0, &g, o1), WM_OK, cx);
        wm_pair_t p[10];
        for (int i = 0; i < 10; i++) {
            p[i].query = q;
            p[i].m = 4;
            p[i].target = t;
            p[i].n = 3;
        }
        check_status("wm_align_pairs(NULL pairs)", wm_align_pairs(cx, NULL, 3, &g, o1), WM_INVALID,
                     cx);
        check_status("wm_align_pairs(NULL out)", wm_align_pairs(cx, p, 3, &g, NULL), WM_INVALID,
                     cx);
        check_status("wm_align_pairs(NULL context)", wm_align_pairs(NULL, p, 3, &g, o1), WM_INVALID,
                     NULL);
        wm_align_opts_t b = g;
        b.cigar = 1;
        p[7].query = NULL; /* a NULL query with m = 4 */
        memset(o1, 0, sizeof o1);
        int rc = wm_align_pairs(cx, p, 10, &b, o1);
        const char *msg = wm_context_errmsg(cx);
        int names7 = msg && names_number(msg, 7);
        int none = 1;
        for (int i = 0; i < 10; i++) none = none && o1[i].cigar == NULL;
        snprintf(what, sizeof what,
                 "wm_align_pairs with a NULL query at pair 7: WM_INVALID (got "
                 "%d), nothing allocated (%d), the message names pair 7 (\"%.150s\")",
                 rc, none, msg ? msg : "");
        check_true(what, rc == WM_INVALID && none && names7);
        wm_alignment_clear(NULL, 0);
        wm_alignment_clear(o1, 10);
        CHECK(1, "wm_alignment_clear of NULL and of an emptied list returned");
    }
}

int main(void) {
    printf("test_api_align: warpmatch %s\n", wm_version());
    wm_context_t *cx1 = cpu_context(1, 0), *cx3 = cpu_context(3, 0);
    if (cx1 && cx3) {
        test_infix(cx1);
        test_global(cx1, cx3, 3);
    }
    wm_context_free(cx1);
    wm_context_free(cx3);
    return test_finish();
}
