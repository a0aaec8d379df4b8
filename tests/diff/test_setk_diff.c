/*
** test_setk_diff.c -- pattern sets within k errors (issue 17: wm_compile_set
** with max_edits > 0 or the Hamming metric) against the single-pattern
** brute force (tests/oracle/oracle.c), pattern by pattern.
**
** The contract: a set's matches are exactly the matches of each pattern
** searched alone (oracle_search: for each end, errors = min over s of the
** edit or Hamming distance, start = the largest s attaining it), each with
** its 0-based index in wm_match_t.pattern, sorted by (record, end, pattern,
** strand); a duplicate pattern is reported under each index.
**
** 1. Compile rules: k >= a pattern's length is refused (WM_K_TOO_LARGE, or
**    WM_INVALID) whatever its place in the set; an empty pattern is
**    WM_PATTERN_EMPTY; a set of one pattern, and k = 0 with the Hamming
**    metric, search like the rest.
** 2. Seeded random cases:
**    - alphabets: DNA (soft-masked texts with N runs, U, junk bytes, periodic
**      stretches and repeats; patterns in mixed case with IUPAC codes when
**      k > 0, now and then codes everywhere or a PAM (NGG, NRG) at the end;
**      revcomp half the time), nucleotide patterns in the BYTES
**      alphabet with revcomp (case kept), 2..6 random bytes, "abAB" with
**      case_insensitive;
**    - sets: 1 to 12 patterns (now and then 40), lengths k + 1 .. 300 mixed
**      in one set (short ones with k close to m - 1 too); pieces of the
**      text with up to k + 1 planted substitutions, insertions and
**      deletions, random ones, duplicates (case variants too), prefixes and
**      suffixes of earlier ones, reverse complements;
**    - k 0..8, now and then 9..24 (0 only with Hamming), edit or
**      Hamming; texts of 0..5,000 bytes in one or many records (empty ones,
**      ones shorter than the patterns), shortened so that a case holds at most
**      60,000 matches.
**    Each case runs on the CPU with 1 and 3 threads, default and tiny chunks
**    (1..64 bytes, so that occurrences straddle chunk borders), cut in two
**    shards (a device list of two CPU sub-contexts), and on CUDA
**    likewise when a GPU is found: wm_search's full list (every field)
**    against the oracle's, wm_count with its total, wm_count_per_pattern
**    with the per-pattern counts, and now and then a callback that stops;
**    a text of one record is now and then fed to a stream (wm_stream_open)
**    in random blocks of 0..300 bytes, which must give the same matches.
** 3. Large sets (2 x WM_TEST_SCALE): 250 guides of 23 nt (k 1..4, edit or
**    Hamming) over 15,000 bytes, or 60 reads of 100..150 nt (k 3..8) over
**    12,000, most of them pieces of the text with planted edits.
**
** Usage: test_setk_diff [seed]     (or env WM_SEED; default fixed)
** Env:   WM_TEST_SCALE  multiplies the number of random cases [1.0]
**        WM_CASE        run only this random case index of part 2 (-1: part 1
**                       only)
**        WM_VERBOSE     print each failing case's patterns and text in full
** Exit status 0 when every check passed; the last line is "N passed, N failed".
*/
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "oracle.h"
#include "warpmatch.h"

#include "contexts.h"
#include "gen.h"
#include "harness.h"
#include "matches.h"
#include "rng.h"

#define MAX_PATS 1000
#define MAX_LEN 300
#define MATCH_BUDGET 60000

/* ==== the cases ============================================================== */

typedef enum { AK_DNA, AK_NUC_BYTES, AK_SMALL, AK_CASE, AK_COUNT } alpha_kind;
static const char *const AK_NAME[AK_COUNT] = { "dna", "bytes/acgt+revcomp", "bytes/small",
                                               "bytes/abAB -i" };

typedef struct {
    alpha_kind ak;
    wm_opts_t o;
    uint8_t *text;
    size_t n;
    uint64_t *rec_start;
    size_t n_rec;
    uint8_t sym[8]; /* the BYTES kinds' text symbols */
    size_t n_sym;
    size_t np;
    uint8_t *pat[MAX_PATS];
    size_t len[MAX_PATS];
    size_t min_len, max_len;
} tcase;

static const char IUPAC[] = "RYSWKMBDHVNryswkmbdhvn";

static uint8_t rand_text_byte(const tcase *c) {
    if (c->ak == AK_DNA) return rand_dna_mix(&DNA_SOFTMASKED);
    if (c->ak == AK_NUC_BYTES) return (uint8_t) "ACGT"[below(4)];
    return c->sym[below(c->n_sym)];
}

static uint8_t rand_pat_byte(const tcase *c) {
    if (c->ak == AK_DNA) return (uint8_t) "ACGTacgtUu"[below(chance(5) ? 10 : 8)];
    if (c->ak == AK_NUC_BYTES) return (uint8_t) "ACGT"[below(4)];
    return c->sym[below(c->n_sym)];
}

/* Texts with stretches: runs of one byte (N), periods of 1..6, copies of
** earlier bytes (repeats), and random bytes of the kind. */
static void gen_text(tcase *c, size_t n) {
    c->text = xmalloc(n + 1);
    size_t i = 0;
    while (i < n) {
        size_t run = (size_t)range(1, 80);
        if (run > n - i) run = n - i;
        unsigned r = (unsigned)below(100);
        if (r < 10 && c->ak == AK_DNA) {
            memset(c->text + i, chance(70) ? 'N' : 'n', run);
        } else if (r < 25) {
            size_t per = (size_t)range(1, 6);
            for (size_t j = 0; j < run; j++)
                c->text[i + j] = j < per ? rand_text_byte(c) : c->text[i + j - per];
        } else if (r < 40 && i > 10) {
            size_t from = (size_t)below(i - 5);
            for (size_t j = 0; j < run; j++)
                c->text[i + j] = chance(3) ? rand_text_byte(c) : c->text[from + j];
        } else {
            for (size_t j = 0; j < run; j++) c->text[i + j] = rand_text_byte(c);
        }
        i += run;
    }
    c->n = n;
    c->n_rec = split_records(n, (size_t)range(20, 400), &c->rec_start);
}

static void add_pattern(tcase *c, const uint8_t *src, size_t m) {
    assert(c->np < MAX_PATS && m > c->o.max_edits && m <= MAX_LEN + 8);
    c->pat[c->np] = xmalloc(m);
    memcpy(c->pat[c->np], src, m);
    c->len[c->np] = m;
    c->np++;
}

/* One pattern of length about m (> k), drawn by one of the ways above. */
static void make_pattern(tcase *c, size_t m) {
    uint8_t buf[MAX_LEN + 16];
    size_t k = c->o.max_edits, len = m;
    unsigned way = (unsigned)below(100);
    if (c->np > 0 && way < 12) { /* a duplicate, a case variant in DNA or -i */
        size_t j = (size_t)below(c->np);
        len = c->len[j];
        memcpy(buf, c->pat[j], len);
        if ((c->ak == AK_DNA || c->o.case_insensitive) && chance(50))
            for (size_t i = 0; i < len; i++) buf[i] = flip_case(buf[i]);
    } else if (c->np > 0 && way < 26) { /* a prefix or a suffix of an earlier one */
        size_t j = (size_t)below(c->np);
        if (c->len[j] <= k + 1) return;
        len = (size_t)range(k + 1, c->len[j] - 1);
        memcpy(buf, chance(50) ? c->pat[j] : c->pat[j] + c->len[j] - len, len);
    } else if (c->np > 0 && way < 34 && c->o.revcomp) { /* a reverse complement */
        size_t j = (size_t)below(c->np);
        len = c->len[j];
        for (size_t i = 0; i < len; i++) buf[i] = oracle_iupac_complement(c->pat[j][len - 1 - i]);
    } else if (way < 80 && c->n >= m) { /* a piece of the text, edits planted */
        size_t at = (size_t)below(c->n - m + 1);
        memcpy(buf, c->text + at, m);
        for (unsigned e = (unsigned)range(0, k + 1); e > 0; e--) {
            unsigned op = c->o.metric == WM_METRIC_HAMMING ? 0 : (unsigned)below(3);
            size_t p = (size_t)below(len);
            if (op == 0) {
                buf[p] = rand_pat_byte(c);
            } else if (op == 1 && len < MAX_LEN + 8) {
                memmove(buf + p + 1, buf + p, len - p);
                buf[p] = rand_pat_byte(c);
                len++;
            } else if (op == 2 && len > k + 1) {
                memmove(buf + p, buf + p + 1, len - p - 1);
                len--;
            }
        }
    } else {
        for (size_t i = 0; i < len; i++) buf[i] = rand_pat_byte(c);
    }
    /* Bytes a pattern may not hold: DNA and revcomp patterns are IUPAC codes
    ** (the text's N stays, junk bytes become bases); the exact engines (k = 0,
    ** edit) take A, C, G, T, U only. */
    for (size_t i = 0; i < len; i++) {
        if (c->ak == AK_DNA || c->ak == AK_NUC_BYTES) {
            int ok = oracle_iupac_set(buf[i]) != 0;
            if (c->ak == AK_NUC_BYTES || k == 0) ok = ok && strchr("ACGTUacgtu", buf[i]) != NULL;
            if (!ok) buf[i] = (uint8_t) "ACGT"[below(4)];
        }
    }
    if (c->ak == AK_DNA && k > 0 && chance(30))
        for (unsigned e = (unsigned)range(1, 3); e > 0; e--)
            buf[below(len)] = (uint8_t)IUPAC[below(sizeof IUPAC - 1)];
    if (c->ak == AK_DNA && k > 0 && chance(5)) /* codes everywhere: few pieces to key */
        for (size_t i = 0; i < len; i++)
            if (chance(30)) buf[i] = (uint8_t)IUPAC[below(sizeof IUPAC - 1)];
    if (c->ak == AK_DNA && k > 0 && len > 3 && chance(10)) /* a PAM: NGG or NRG */
        memcpy(buf + len - 3, chance(50) ? "NGG" : "NRG", 3);
    if (len > k) add_pattern(c, buf, len);
}

static size_t pick_len(const tcase *c, int short_set) {
    size_t lo = c->o.max_edits + 1 > 1 ? c->o.max_edits + 1 : 1;
    if (short_set) return (size_t)range(lo, lo + 3);
    unsigned r = (unsigned)below(100);
    if (r < 45) return (size_t)range(lo, lo + 12);
    if (r < 85) return (size_t)range(lo, 64 > lo ? 64 : lo);
    return (size_t)range(65, MAX_LEN);
}

static void gen_case(tcase *c) {
    memset(c, 0, sizeof *c);
    c->o = wm_opts_default();
    c->ak = (alpha_kind)(chance(55) ? AK_DNA : below(AK_COUNT));
    if (c->ak == AK_SMALL) {
        c->n_sym = (size_t)range(2, 6);
        random_symbols(c->sym, c->n_sym);
    } else if (c->ak == AK_CASE) {
        memcpy(c->sym, "abAB", 4);
        c->n_sym = 4;
        c->o.case_insensitive = 1;
    }
    if (c->ak == AK_DNA) c->o.alphabet = WM_ALPHABET_DNA;
    c->o.revcomp = c->ak == AK_NUC_BYTES || (c->ak == AK_DNA && chance(50));
    c->o.metric = chance(35) ? WM_METRIC_HAMMING : WM_METRIC_EDIT;
    int short_set = chance(20);
    static const unsigned KS[] = { 1, 1, 2, 2, 3, 3, 4, 5, 6, 8 };
    c->o.max_edits = short_set ? (unsigned)range(2, 6) : KS[below(N_OF(KS))];
    if (!short_set && chance(8)) c->o.max_edits = (unsigned)range(9, 24); /* beyond 8 */
    if (c->o.metric == WM_METRIC_HAMMING && chance(8)) c->o.max_edits = 0;
    size_t n = (size_t)(chance(10) ? range(0, 40) : range(100, short_set ? 1500 : 5000));
    gen_text(c, n);
    size_t want_np = chance(5) ? 40 : (size_t)range(1, 12);
    for (int tries = 0; c->np < want_np && tries < 200; tries++)
        make_pattern(c, pick_len(c, short_set));
    if (c->np == 0) { /* (all tries refused: one random pattern) */
        uint8_t buf[MAX_LEN];
        for (size_t i = 0; i <= c->o.max_edits; i++) buf[i] = (uint8_t)rand_pat_byte(c);
        add_pattern(c, buf, c->o.max_edits + 1);
    }
    c->min_len = (size_t)-1;
    for (size_t i = 0; i < c->np; i++) {
        if (c->len[i] < c->min_len) c->min_len = c->len[i];
        if (c->len[i] > c->max_len) c->max_len = c->len[i];
    }
}

static void free_case(tcase *c) {
    for (size_t i = 0; i < c->np; i++) free(c->pat[i]);
    free(c->text);
    free(c->rec_start);
}

/* ==== the expected matches: each pattern alone, merged ======================== */

static int by_set_order(const void *pa, const void *pb) {
    const wm_match_t *a = pa, *b = pb;
    if (a->record != b->record) return a->record < b->record ? -1 : 1;
    if (a->end != b->end) return a->end < b->end ? -1 : 1;
    if (a->pattern != b->pattern) return a->pattern < b->pattern ? -1 : 1;
    if (a->strand != b->strand) return a->strand < b->strand ? -1 : 1;
    return 0;
}

/* The oracle's matches of every pattern, labelled and sorted; counts[i]
** gets pattern i's. Returns the total (*out malloc'd, may be NULL). */
static size_t expected(const tcase *c, wm_match_t **out, uint64_t *counts) {
    wm_text_t t = { c->text, c->n, c->rec_start, c->n_rec };
    wm_match_t *all = NULL;
    size_t n_all = 0;
    for (size_t i = 0; i < c->np; i++) {
        wm_match_t *one = NULL;
        size_t n1 = oracle_search(c->pat[i], c->len[i], &c->o, &t, &one);
        all = xrealloc(all, (n_all + n1 + 1) * sizeof *all);
        for (size_t j = 0; j < n1; j++) {
            all[n_all + j] = one[j];
            all[n_all + j].pattern = (uint32_t)i;
        }
        n_all += n1;
        counts[i] = n1;
        free(one);
    }
    if (n_all > 1) qsort(all, n_all, sizeof *all, by_set_order);
    *out = all;
    return n_all;
}

/* Shortens the text (and its records) until the case holds at most
** MATCH_BUDGET matches, so that k close to m stays quick. */
static size_t fit_budget(tcase *c, wm_match_t **want, uint64_t *counts) {
    size_t n_want = expected(c, want, counts);
    while (n_want > MATCH_BUDGET && c->n > 0) {
        free(*want);
        c->n = (size_t)((double)c->n * 0.8 * MATCH_BUDGET / (double)n_want);
        for (size_t r = 0; r < c->n_rec; r++)
            if (c->rec_start[r] > c->n) c->rec_start[r] = c->n;
        n_want = expected(c, want, counts);
    }
    return n_want;
}

/* ==== running the library ====================================================== */

static void describe_case(const void *p) {
    const tcase *c = p;
    printf("    alphabet %s, k %u, %s, revcomp %d, case_insensitive %d, %zu patterns"
           " (lengths %zu..%zu), n %zu, records %zu%s\n",
           AK_NAME[c->ak], c->o.max_edits, c->o.metric == WM_METRIC_HAMMING ? "hamming" : "edit",
           c->o.revcomp, c->o.case_insensitive, c->np, c->min_len, c->max_len, c->n,
           c->n_rec ? c->n_rec : 1, c->n_rec ? "" : " (rec_start NULL)");
    size_t show = g_verbose ? c->np : (c->np < 8 ? c->np : 8);
    for (size_t i = 0; i < show; i++) {
        printf("    pattern %zu ", i);
        print_bytes(stdout, c->pat[i], c->len[i], g_verbose ? (size_t)-1 : 80);
        printf("\n");
    }
    if (show < c->np) printf("    ... (%zu more; WM_VERBOSE=1 prints all)\n", c->np - show);
    print_text(c->text, c->n, c->rec_start, c->n_rec);
}

static double g_t_cfg[8];
static match_cover g_cov;

static void run_case(long idx, tcase *c, config *cfgs, size_t n_cfg) {
    wm_text_t t = { c->text, c->n, c->rec_start, c->n_rec };
    uint64_t want_counts[MAX_PATS], got_counts[MAX_PATS];
    wm_match_t *want = NULL;
    double t0 = now_s();
    size_t n_want = fit_budget(c, &want, want_counts);
    t.len = c->n;
    double t1 = now_s();
    g_t_oracle += t1 - t0;
    note_matches(&g_cov, want, n_want);

    wm_db_t *db = NULL;
    int rc = wm_compile_set((const uint8_t *const *)c->pat, c->len, c->np, &c->o, &db);
    check_case_status(idx, c, "wm_compile_set", rc, WM_OK, NULL);
    if (rc != WM_OK) {
        free(want);
        return;
    }
    if (wm_db_pattern_count(db) != c->np)
        fail_fmt(idx, c, "wm_db_pattern_count = %zu, want %zu", wm_db_pattern_count(db), c->np);
    match_vec got = { 0 };
    for (size_t i = 0; i < n_cfg; i++) {
        const char *cfg = cfgs[i].name;
        got.stop_after = 0;
        rc = search_checked(idx, c, cfg, cfgs[i].cx, db, &t, &got, want, n_want, 40,
                            &g_t_cfg[i < N_OF(g_t_cfg) ? i : N_OF(g_t_cfg) - 1]);
        if (rc != WM_OK) continue;
        if (chance(50)) { /* per-pattern counts */
            for (size_t p = 0; p < c->np; p++) got_counts[p] = 0xdeadbeefull;
            rc = wm_count_per_pattern(cfgs[i].cx, db, &t, got_counts);
            size_t p = 0;
            while (rc == WM_OK && p < c->np && got_counts[p] == want_counts[p]) p++;
            if (rc != WM_OK)
                fail_fmt(idx, c, "%s: wm_count_per_pattern returned %d (%s)", cfg, rc,
                         wm_strerror(rc));
            else if (p < c->np)
                fail_fmt(idx, c,
                         "%s: wm_count_per_pattern: pattern %zu count %" PRIu64 ", oracle %" PRIu64,
                         cfg, p, got_counts[p], want_counts[p]);
            else g_passed++;
        }
        if (n_want > 0 && chance(8)) { /* a callback that stops */
            got.n = 0;
            got.stop_after = (size_t)range(1, n_want);
            rc = wm_search(cfgs[i].cx, db, &t, collect, &got);
            size_t k = 0;
            while (k < got.n && k < n_want && same_match(&got.a[k], &want[k])) k++;
            if (rc != WM_STOPPED || got.n != got.stop_after || k != got.n)
                fail_fmt(idx, c,
                         "%s: callback stopping at match %zu: wm_search returned %d (%s) after"
                         " %zu calls, %zu agreeing with the oracle",
                         cfg, got.stop_after, rc, wm_strerror(rc), got.n, k);
            else g_passed++;
            got.stop_after = 0;
        }
    }
    if (c->n_rec == 0 && chance(40)) { /* a stream fed in random blocks */
        wm_stream_t *st = NULL;
        got.n = 0;
        rc = wm_stream_open(cfgs[0].cx, db, collect, &got, &st);
        size_t at = 0, most = (size_t)range(1, 300);
        while (rc == WM_OK && at < c->n) {
            size_t b = (size_t)range(0, most);
            if (b > c->n - at) b = c->n - at;
            rc = wm_stream_feed(st, c->text + at, b);
            at += b;
        }
        if (rc == WM_OK) rc = wm_stream_close(st);
        if (rc != WM_OK)
            fail_fmt(idx, c, "stream (blocks of 0..%zu): status %d (%s)", most, rc,
                     wm_strerror(rc));
        else compare_matches(idx, c, "stream", got.a, got.n, want, n_want);
        wm_stream_free(st);
    }
    g_t_lib += now_s() - t1;
    wm_db_free(db);
    free(got.a);
    free(want);
}

/* A tiny chunk (1..64), grown where so many chunks would make the run slow
** (each chunk rescans the halo, up to the longest pattern + k). */
static uint64_t tiny_chunk(const void *p, int gpu) {
    const tcase *c = p;
    uint64_t ch = range(1, 64);
    uint64_t max_chunks = gpu ? 64 : 1500;
    if (c->max_len > 64) max_chunks /= 4;
    if (c->n / ch > max_chunks) ch = c->n / max_chunks + below(64);
    return ch;
}

/* ==== 1. compile rules ============================================================ */

static void compile_rules(wm_context_t *cx) {
    const uint8_t *pp[3] = { (const uint8_t *)"ACGTACGT", (const uint8_t *)"ACG",
                             (const uint8_t *)"TTTTT" };
    size_t ll[3] = { 8, 3, 5 };
    wm_opts_t o = wm_opts_default();
    wm_db_t *db = NULL;
    for (int metric = 0; metric < 2; metric++) {
        o.metric = metric ? WM_METRIC_HAMMING : WM_METRIC_EDIT;
        /* k = 3 >= 3, the length of pattern 1 (second): refused */
        o.max_edits = 3;
        int rc = wm_compile_set(pp, ll, 3, &o, &db);
        CHECK(rc == WM_K_TOO_LARGE || rc == WM_INVALID, "k >= a pattern's length: status %d (%s)",
              rc, wm_strerror(rc));
        CHECK(rc != WM_OK || db == NULL, "k >= m compiled");
        if (rc == WM_OK) wm_db_free(db);
        db = NULL;
        /* k = 2: every pattern is longer: compiles, and finds "ACG" in "AGG" */
        o.max_edits = 2;
        rc = wm_compile_set(pp, ll, 3, &o, &db);
        CHECK_RC(rc, WM_OK);
        if (rc == WM_OK) {
            uint64_t counts[3] = { 9, 9, 9 };
            wm_text_t t = { (const uint8_t *)"AGG", 3, NULL, 0 };
            CHECK_RC(wm_count_per_pattern(cx, db, &t, counts), WM_OK);
            /* "ACG" vs "AGG": 1 mismatch at [0,3); edit also [s,e) shorter ones */
            CHECK(counts[1] > 0, "ACG within 2 of AGG: count %" PRIu64, counts[1]);
            CHECK(counts[0] == 0 && counts[2] == 0,
                  "8 and 5 bytes in AGG within 2: %" PRIu64 ", %" PRIu64, counts[0], counts[2]);
        }
        wm_db_free(db);
        db = NULL;
    }
    /* an empty pattern in a k-set */
    size_t l0[2] = { 4, 0 };
    o.metric = WM_METRIC_EDIT;
    o.max_edits = 1;
    int rc = wm_compile_set(pp, l0, 2, &o, &db);
    CHECK(rc == WM_PATTERN_EMPTY || rc == WM_K_TOO_LARGE, "an empty pattern: status %d (%s)", rc,
          wm_strerror(rc));
    if (rc == WM_OK) wm_db_free(db);
}

/* The contexts every case runs on, besides its own tiny-chunk ones. */
static fixed_set g_fixed;

/* ==== 3. large sets ================================================================ */

/* Guides (23 nt, some with a PAM) or reads (100..150 nt) by the hundred over
** a longer DNA text, most of them pieces of it with planted edits: many
** keys in the table, duplicates, both strands. */
static void gen_large(tcase *c, int reads) {
    memset(c, 0, sizeof *c);
    c->o = wm_opts_default();
    c->ak = AK_DNA;
    c->o.alphabet = WM_ALPHABET_DNA;
    c->o.revcomp = chance(50);
    c->o.metric = !reads && chance(50) ? WM_METRIC_HAMMING : WM_METRIC_EDIT;
    c->o.max_edits = reads ? (unsigned)range(3, 8) : (unsigned)range(1, 4);
    gen_text(c, reads ? 12000 : 15000);
    size_t np = reads ? 60 : 250;
    for (size_t tries = 0; c->np < np && tries < 4 * np; tries++)
        make_pattern(c, reads ? (size_t)range(100, 150) : 23);
    c->min_len = (size_t)-1;
    for (size_t i = 0; i < c->np; i++) {
        if (c->len[i] < c->min_len) c->min_len = c->len[i];
        if (c->len[i] > c->max_len) c->max_len = c->len[i];
    }
}

static void large_sets(long n) {
    for (long i = 0; i < n; i++) {
        seed_case(i, 1717);
        tcase c;
        gen_large(&c, (int)(i % 2));
        config cfgs[12];
        size_t n_cfg = case_configs(cfgs, &g_fixed, tiny_chunk, &c);
        run_case(-1, &c, cfgs, n_cfg);
        close_case_configs(&g_fixed, cfgs, n_cfg);
        free_case(&c);
    }
}

/* ==== main ============================================================================ */

static void one_case(long idx) {
    tcase c;
    gen_case(&c);
    config cfgs[12];
    size_t n_cfg = case_configs(cfgs, &g_fixed, tiny_chunk, &c);
    run_case(idx, &c, cfgs, n_cfg);
    close_case_configs(&g_fixed, cfgs, n_cfg);
    free_case(&c);
}

int main(int argc, char **argv) {
    long only = -2;
    long n_cases = test_begin("test_setk_diff", argc, argv, 20261117ull, 300, describe_case, &only);
    static const int threads[] = { 1, 3 };
    open_fixed(&g_fixed, threads, N_OF(threads));
    if (g_fixed.n == 0) return test_finish();
    /* and the CPU cut in two shards (how the split over devices is tested) */
    static const int two[] = { 0, 0 };
    if (open_config(&g_fixed.cf[g_fixed.n], "cpu, 2 shards", WM_BACKEND_CPU, 2, 0, two, 2))
        g_fixed.n++;
    /* and the CPU's scalar builds of the SIMD kernels (setk/planes.c: below
    ** AVX-512, its pair test with popcnt, or without where the CPU lacks it) */
    if (g_fixed.n < N_OF(g_fixed.cf) &&
        open_config(&g_fixed.cf[g_fixed.n], "cpu, 3 threads, simd sse2", WM_BACKEND_CPU, 3, 0, NULL,
                    0)) {
        wm_context_tuning(g_fixed.cf[g_fixed.n].cx)->simd = WM_SIMD_SSE2;
        g_fixed.n++;
    }

    if (only < 0) {
        compile_rules(g_fixed.cf[0].cx);
        part_done("compile rules");
    }
    run_cases(n_cases, only, 17, 100, one_case);
    if (only < -1) {
        long n_large = (long)(2 * g_scale + 0.5);
        large_sets(n_large < 1 ? 1 : n_large);
        part_done("large sets");
    }
    close_configs(g_fixed.cf, g_fixed.n);

    printf("coverage: %ld cases, %" PRIu64 " oracle matches; cases with matches %ld, on strand"
           " 1 %ld, in record > 0 %ld\n",
           g_cov.cases, g_cov.matches, g_cov.with_matches, g_cov.strand1, g_cov.multi_rec);
    print_time_split();
    printf("\n");
    print_repro(argv[0], "the compile rules only");
    return test_finish();
}
