/*
** test_multi_diff.c -- pattern sets (wm_compile_set) against the brute-force
** oracle (tests/oracle/moracle.c).
**
** 1. The oracle checks itself: hand-worked examples (overlaps, duplicates,
**    prefixes and suffixes, records, case folding, DNA with U and N, reverse
**    complements, the (record, end, pattern, strand) order), then random tiny
**    cases of its quick search against its definition (one byte-by-byte
**    comparison per record, end, pattern and strand) and its per-pattern
**    counts against its match list.
** 2. A pattern of exactly WM_MAX_PATTERN bytes (with a short one) searched
**    by every set algorithm; the bad arguments of wm_compile_set, the
**    pattern count and wm_count_per_pattern's contract are
**    tests/unit/test_api_sets.c's.
** 3. Thousands of seeded random cases. Families:
**    - alphabets: 2 symbols, ACGT bytes, 3..16 random bytes, the 20 amino
**      acids, all 256 bytes (half the time letter-heavy, for case folding),
**      2..256 random symbols, the DNA alphabet (soft-masked texts with N, U and
**      junk bytes; ACGTU patterns in mixed case; revcomp half the time) and
**      nucleotide patterns in the BYTES alphabet with revcomp (case kept);
**      case_insensitive a quarter of the time;
**    - sets: 1 to 10,000 patterns (mostly small, some large), lengths 1..100
**      mixed in one set (in a few small sets up to 4,096), all one length
**      (8-mers above all), all >= 4 (so that QGRAM runs) or all 1..4;
**      patterns sampled from the text, random ones,
**      prefixes and suffixes of earlier ones, duplicates, case variants and
**      reverse complements of earlier ones; one pattern repeated many times;
**    - texts: 0..50,000 bytes, one record (rec_start NULL or one entry) or
**      many (empty ones, ones shorter than the patterns, 100..2,000 tiny
**      ones); periodic dense texts ("AAAA..." with "A", "AA", ...);
**      occurrences planted at record starts and ends and across record
**      borders (which must not be reported);
**    - each case's match count is held under a budget (150,000) by shortening
**      the text, so that dense cases stay quick.
**    Each case runs every set algorithm valid for it (AUTO, AC, PFAC,
**    WUMANBER, WUMANBER_PAPER, and QGRAM when every pattern has >= 4 bytes;
**    otherwise QGRAM must give WM_INVALID), on the CPU with 1 and 3 threads,
**    default and tiny chunks (1..64 bytes, so occurrences straddle chunk
**    borders), and on CUDA likewise when a GPU is present. wm_search's full
**    match list (every field) is compared with the oracle's; wm_count with its
**    total, wm_count_per_pattern with its per-pattern counts; a stopping
**    callback must stop the search (WM_STOPPED) after exactly the oracle's
**    first matches; now and then the single-pattern algorithms must be refused.
** 4. Large sets: 100,000 random patterns (ACGT bytes, lengths 8..32; all 256
**    bytes, lengths 4..32) over 50,000 bytes, searched by every algorithm; a
**    1,000,000-pattern DNA compile (half 8-mers, so many duplicates; half
**    9..20) that must succeed, followed by a 3,000-byte search.
**
** Readings of the contract this test takes (include/warpmatch.h): wm_db_algo
** names the algorithm asked for (a set algorithm after AUTO); a callback that
** returns non-zero is not called again; wm_count_per_pattern leaves entries
** past wm_db_pattern_count alone; NULL arrays are WM_INVALID; in the BYTES
** alphabet the reverse complement keeps each letter's case and U pairs with A
** (its complement is A; A's is T).
**
** Timing (2 cores, CPU backend): WM_TEST_SCALE=3 in Release about 25 s of
** CPU (30 s wall idle, about 50 s with the machine busy); scale 1 under
** ASan + UBSan about 25 s of CPU (35-55 s wall). Most of it is the library
** (tiny chunks with 3 threads above all); the last lines split the wall time
** between the oracle and the library, and the library's by configuration.
**
** Usage: test_multi_diff [seed]     (or env WM_SEED; default fixed)
** Env:   WM_TEST_SCALE  multiplies the number of random cases [1.0]
**        WM_CASE        run only this random case index (reproduce a failure;
**                       -1: only parts 1, 2 and 4)
**        WM_VERBOSE     print each failing case's patterns and text in full
** Exit status 0 when every check passed; the last line is "N passed, N failed".
*/
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "moracle.h"
#include "warpmatch.h"

#include "contexts.h"
#include "gen.h"
#include "harness.h"
#include "matches.h"
#include "rng.h"

/* ==== timing and coverage =================================================== */

static double g_t_cfg[8];  /* wall seconds in wm_search, by configuration */
static double g_t_compile; /* wall seconds in wm_compile_set (random cases) */

static match_cover g_cov;
static struct { long dense, dup_hits, qgram_cases, big_sets; } g_cov_sets;

/* ==== 1. oracle self-check ================================================== */

#define M(r, s, e, st, p)                                                                          \
    { (r), (s), (e), 0, (st), (p) }

static wm_opts_t zero_opts(void) {
    wm_opts_t o;
    memset(&o, 0, sizeof o); /* not wm_opts_default(): the oracle stands alone */
    return o;
}

/* pats: a NULL-terminated list of C strings. */
static void expect_set(const char *name, const char *const *pats, const wm_opts_t *o,
                       const char *text, const uint64_t *rs, size_t n_rec, const wm_match_t *want,
                       size_t n_want) {
    size_t np = 0;
    while (pats[np]) np++;
    const uint8_t *pp[16];
    size_t ll[16];
    assert(np <= 16);
    for (size_t i = 0; i < np; i++) {
        pp[i] = (const uint8_t *)pats[i];
        ll[i] = strlen(pats[i]);
    }
    wm_text_t t = { (const uint8_t *)text, strlen(text), rs, n_rec };
    for (int way = 0; way < 2; way++) {
        wm_match_t *got = NULL;
        size_t n = way == 0 ? moracle_search(pp, ll, np, o, &t, &got)
                            : moracle_search_naive(pp, ll, np, o, &t, &got);
        int ok = n == n_want;
        for (size_t i = 0; ok && i < n; i++) ok = same_match(&got[i], &want[i]);
        if (!ok) {
            self_fail++;
            printf("oracle self-check FAILED (%s): %s (got %zu matches, want %zu)\n",
                   way == 0 ? "moracle_search" : "moracle_search_naive", name, n, n_want);
            for (size_t i = 0; i < n; i++) print_match(stdout, "got", &got[i]);
        }
        free(got);
    }
    uint64_t counts[16], want_counts[16] = { 0 };
    for (size_t i = 0; i < n_want; i++) want_counts[want[i].pattern]++;
    uint64_t total = moracle_count_per_pattern(pp, ll, np, o, &t, counts);
    int ok = total == n_want;
    for (size_t i = 0; i < np; i++) ok = ok && counts[i] == want_counts[i];
    if (!ok) {
        self_fail++;
        printf("oracle self-check FAILED: %s: per-pattern counts (total %" PRIu64 ", want %zu)\n",
               name, total, n_want);
    }
}

static void oracle_hand_examples(void) {
    wm_opts_t o = zero_opts();
    /* {"a","aa","aaa"} in "aaaa": by end, then pattern:
    **  e1: a[0,1)  e2: a[1,2) aa[0,2)  e3: a[2,3) aa[1,3) aaa[0,3)
    **  e4: a[3,4) aa[2,4) aaa[1,4) */
    {
        const char *p[] = { "a", "aa", "aaa", NULL };
        wm_match_t w[] = { M(0, 0, 1, 0, 0), M(0, 1, 2, 0, 0), M(0, 0, 2, 0, 1),
                           M(0, 2, 3, 0, 0), M(0, 1, 3, 0, 1), M(0, 0, 3, 0, 2),
                           M(0, 3, 4, 0, 0), M(0, 2, 4, 0, 1), M(0, 1, 4, 0, 2) };
        expect_set("a/aa/aaa in aaaa", p, &o, "aaaa", NULL, 0, w, N_OF(w));
    }
    /* duplicates: {"ab","zz","ab"} in "xab": both copies at [1,3). */
    {
        const char *p[] = { "ab", "zz", "ab", NULL };
        wm_match_t w[] = { M(0, 1, 3, 0, 0), M(0, 1, 3, 0, 2) };
        expect_set("duplicates", p, &o, "xab", NULL, 0, w, N_OF(w));
    }
    /* prefixes and suffixes: {"abc","bc","ab"} in "abcab" (a0 b1 c2 a3 b4):
    **  ab[0,2) e2; abc[0,3) bc[1,3) e3; ab[3,5) e5. */
    {
        const char *p[] = { "abc", "bc", "ab", NULL };
        wm_match_t w[] = { M(0, 0, 2, 0, 2), M(0, 0, 3, 0, 0), M(0, 1, 3, 0, 1), M(0, 3, 5, 0, 2) };
        expect_set("prefix/suffix", p, &o, "abcab", NULL, 0, w, N_OF(w));
    }
    /* records [0,0) [0,3) [3,5) of "abcab": "ab" in records 1 and 2; "ca"
    ** crosses the border of 1 and 2 and is not reported; "abcab" neither. */
    {
        const char *p[] = { "ca", "ab", "abcab", NULL };
        uint64_t rs[] = { 0, 0, 3 };
        wm_match_t w[] = { M(1, 0, 2, 0, 1), M(2, 0, 2, 0, 1) };
        expect_set("records", p, &o, "abcab", rs, 3, w, N_OF(w));
        /* one record: ab[0,2) e2, ca[2,4) e4, ab[3,5) and abcab[0,5) e5 */
        wm_match_t w2[] = { M(0, 0, 2, 0, 1), M(0, 2, 4, 0, 0), M(0, 3, 5, 0, 1),
                            M(0, 0, 5, 0, 2) };
        expect_set("one record", p, &o, "abcab", NULL, 0, w2, N_OF(w2));
    }
    /* case: {"AbC","abc"} in "xaBc": nothing case-sensitively; both at [1,4)
    ** with case_insensitive. */
    {
        const char *p[] = { "AbC", "abc", NULL };
        expect_set("case-sensitive", p, &o, "xaBc", NULL, 0, NULL, 0);
        wm_opts_t ci = o;
        ci.case_insensitive = 1;
        wm_match_t w[] = { M(0, 1, 4, 0, 0), M(0, 1, 4, 0, 1) };
        expect_set("case-insensitive", p, &ci, "xaBc", NULL, 0, w, N_OF(w));
        /* folding is ASCII letters only: '@' (0x40) is not '`' (0x60) */
        const char *p2[] = { "@", NULL };
        expect_set("case-insensitive @", p2, &ci, "`", NULL, 0, NULL, 0);
    }
    /* DNA: {"ACG","acu","T"} in "xacgNACTUu" (x0 a1 c2 g3 N4 A5 C6 T7 U8 u9):
    **  ACG [1,4); acu = ACT at [5,8); T at 7, 8 (U), 9 (u). */
    {
        wm_opts_t d = o;
        d.alphabet = WM_ALPHABET_DNA;
        const char *p[] = { "ACG", "acu", "T", NULL };
        wm_match_t w[] = { M(0, 1, 4, 0, 0), M(0, 5, 8, 0, 1), M(0, 7, 8, 0, 2), M(0, 8, 9, 0, 2),
                           M(0, 9, 10, 0, 2) };
        expect_set("DNA", p, &d, "xacgNACTUu", NULL, 0, w, N_OF(w));
        /* N in the text matches nothing, not even across it */
        const char *p2[] = { "AA", "A", NULL };
        wm_match_t w2[] = { M(0, 0, 1, 0, 1), M(0, 2, 3, 0, 1) };
        expect_set("DNA N", p2, &d, "aNa", NULL, 0, w2, N_OF(w2));
    }
    /* revcomp, DNA: {"AAC","ACGT"} in "GTTAACGT" (G0 T1 T2 A3 A4 C5 G6 T7):
    **  rc(AAC) = GTT at [0,3) strand 1; AAC [3,6) strand 0;
    **  ACGT is its own rc: [4,8) on both strands. */
    {
        wm_opts_t d = o;
        d.alphabet = WM_ALPHABET_DNA;
        d.revcomp = 1;
        const char *p[] = { "AAC", "ACGT", NULL };
        wm_match_t w[] = { M(0, 0, 3, 1, 0), M(0, 3, 6, 0, 0), M(0, 4, 8, 0, 1), M(0, 4, 8, 1, 1) };
        expect_set("DNA revcomp", p, &d, "GTTAACGT", NULL, 0, w, N_OF(w));
        /* order: pattern before strand. {"T","A"} in "A": T's rc "A" (p0, s1)
        ** comes before A (p1, s0). */
        const char *p2[] = { "T", "A", NULL };
        wm_match_t w2[] = { M(0, 0, 1, 1, 0), M(0, 0, 1, 0, 1) };
        expect_set("order pattern, strand", p2, &d, "A", NULL, 0, w2, N_OF(w2));
    }
    /* revcomp, BYTES, case kept: rc("aCu") = comp(u) comp(C) comp(a) = "aGt";
    ** in "aGtaCu": strand 1 at [0,3), strand 0 at [3,6); not in "AGT". */
    {
        wm_opts_t b = o;
        b.revcomp = 1;
        const char *p[] = { "aCu", NULL };
        wm_match_t w[] = { M(0, 0, 3, 1, 0), M(0, 3, 6, 0, 0) };
        expect_set("BYTES revcomp", p, &b, "aGtaCu", NULL, 0, w, N_OF(w));
        expect_set("BYTES revcomp case", p, &b, "AGTACT", NULL, 0, NULL, 0);
        b.case_insensitive = 1; /* folded: "agt" at [0,3); "acu" is not "act" */
        wm_match_t w2[] = { M(0, 0, 3, 1, 0) };
        expect_set("BYTES revcomp -i", p, &b, "AGTACT", NULL, 0, w2, N_OF(w2));
    }
    /* the same in DNA: U reads as T on both sides */
    {
        wm_opts_t d = o;
        d.alphabet = WM_ALPHABET_DNA;
        d.revcomp = 1;
        const char *p[] = { "aCu", NULL };
        wm_match_t w[] = { M(0, 0, 3, 1, 0), M(0, 3, 6, 0, 0) };
        expect_set("DNA revcomp U", p, &d, "AGTACT", NULL, 0, w, N_OF(w));
    }
    /* pattern longer than the text, empty text */
    {
        const char *p[] = { "abcd", NULL };
        expect_set("longer than text", p, &o, "abc", NULL, 0, NULL, 0);
        expect_set("empty text", p, &o, "", NULL, 0, NULL, 0);
    }
    /* binary bytes: "\xff\x01" in "\x01\xff\x01" */
    {
        const char *p[] = { "\xff\x01", "\x01", NULL };
        wm_match_t w[] = { M(0, 0, 1, 0, 1), M(0, 1, 3, 0, 0), M(0, 2, 3, 0, 1) };
        expect_set("binary", p, &o, "\x01\xff\x01", NULL, 0, w, N_OF(w));
    }
    /* moracle_set_status */
    {
        const uint8_t *pp[2] = { (const uint8_t *)"ACGT", (const uint8_t *)"ACN" };
        size_t ll[2] = { 4, 3 };
        wm_opts_t x = o;
        int bad = 0;
        bad |= moracle_set_status(pp, ll, 1, &x) != WM_OK;
        bad |= moracle_set_status(pp, ll, 0, &x) != WM_INVALID;
        bad |= moracle_set_status(pp, ll, 2, &x) != WM_OK;
        x.alphabet = WM_ALPHABET_DNA;
        bad |= moracle_set_status(pp, ll, 2, &x) != WM_INVALID;
        bad |= moracle_set_status(pp, ll, 1, &x) != WM_OK;
        x.algo = WM_ALGO_QGRAM;
        bad |= moracle_set_status(pp, ll, 1, &x) != WM_OK;
        ll[0] = 3;
        bad |= moracle_set_status(pp, ll, 1, &x) != WM_INVALID;
        ll[0] = 0;
        x.algo = WM_ALGO_AC;
        bad |= moracle_set_status(pp, ll, 1, &x) != WM_PATTERN_EMPTY;
        if (bad) {
            self_fail++;
            printf("oracle self-check FAILED: moracle_set_status\n");
        }
    }
}

/* ==== case generation ======================================================= */

typedef enum {
    AK_BIN,       /* BYTES, 2 symbols */
    AK_ACGT,      /* BYTES, ACGT */
    AK_SMALL,     /* BYTES, 3..16 random symbols */
    AK_PROT20,    /* BYTES, the 20 amino acids */
    AK_BYTE256,   /* BYTES, every byte value */
    AK_GENERIC,   /* BYTES, 2..256 random symbols */
    AK_DNA,       /* DNA alphabet: ACGTU patterns, soft-masked texts */
    AK_NUC_BYTES, /* BYTES alphabet, ACGTU patterns, revcomp */
    AK_COUNT
} alpha_kind;

static const char *const AK_NAME[AK_COUNT] = { "bytes/2",  "bytes/acgt", "bytes/small",
                                               "bytes/20", "bytes/256",  "bytes/generic",
                                               "dna",      "bytes/nuc" };

typedef struct {
    alpha_kind ak;
    uint8_t sym[256]; /* the symbols of texts and random patterns */
    size_t n_sym;
    int letters;          /* BYTE256: texts heavy in "abcdABCD" */
    int periodic;         /* the text is periodic (dense matches) */
    const char *set_kind; /* how the set was made, for reports */
    wm_opts_t o;
    size_t np;
    uint8_t **pat;
    size_t *len;
    size_t min_len, max_len;
    uint8_t *text;
    size_t n;
    uint64_t *rec_start; /* NULL: one record, n_rec 0 */
    size_t n_rec;
} tcase;

static int nuc_kind(const tcase *c) { return c->ak == AK_DNA || c->ak == AK_NUC_BYTES; }

static uint8_t rand_text_byte(const tcase *c) {
    if (nuc_kind(c)) return rand_dna_mix(&DNA_SOFTMASKED);
    if (c->letters && chance(80)) return (uint8_t) "abcdABCD"[below(8)];
    return c->sym[below(c->n_sym)];
}

/* A pattern letter for the nucleotide kinds: ACGT, sometimes U, either case. */
static uint8_t rand_nuc(void) {
    uint8_t x = chance(95) ? (uint8_t) "ACGT"[below(4)] : 'U';
    return chance(15) ? flip_case(x) : x;
}

static uint8_t rand_pat_byte(const tcase *c) {
    if (nuc_kind(c)) return rand_nuc();
    return rand_text_byte(c);
}

/* Make a pattern byte acceptable for the case's kind (text samples may hold
** N, junk, ...): nucleotide kinds turn other bytes into a random base. */
static uint8_t fix_pat_byte(const tcase *c, uint8_t x) {
    if (nuc_kind(c) && !moracle_is_nucleotide(x)) return rand_nuc();
    return x;
}

static size_t pick_len(void) {
    static const span_t LEN[] = { { 45, 1, 8 }, { 80, 9, 32 }, { 100, 33, 100 } };
    return (size_t)pick_span(LEN, N_OF(LEN), 100);
}

static size_t pick_n(void) {
    static const span_t N[] = {
        { 30, 0, 0 },        { 250, 1, 100 },       { 650, 101, 1000 },
        { 950, 1001, 6000 }, { 1000, 6001, 50000 },
    };
    return (size_t)pick_span(N, N_OF(N), 1000);
}

static size_t pick_np(void) {
    static const span_t NP[] = {
        { 250, 1, 4 }, { 600, 5, 50 }, { 880, 51, 500 }, { 970, 501, 3000 }, { 1000, 3001, 10000 },
    };
    return (size_t)pick_span(NP, N_OF(NP), 1000);
}

static void add_pattern(tcase *c, size_t i, const uint8_t *src, size_t m) {
    c->pat[i] = malloc(m ? m : 1);
    assert(c->pat[i]);
    memcpy(c->pat[i], src, m);
    c->len[i] = m;
    if (m > c->max_len) c->max_len = m; /* so far; set_len_range() settles it */
}

/* Pattern i of length m by one of the ways the case favours. */
static void make_pattern(tcase *c, size_t i, size_t m, int fixed_len, unsigned from_text_pct) {
    size_t cap = m > c->max_len ? m : c->max_len; /* room for any earlier one too */
    uint8_t *buf = malloc(cap + 1);
    assert(buf);
    uint64_t w = below(100);
    if (i > 0 && w < 8) { /* a duplicate */
        size_t j = (size_t)below(i);
        add_pattern(c, i, c->pat[j], c->len[j]);
        free(buf);
        return;
    }
    if (i > 0 && w < 14 && !fixed_len) { /* a prefix or suffix of an earlier one */
        size_t j = (size_t)below(i);
        size_t lj = c->len[j];
        size_t l = (size_t)range(1, lj);
        add_pattern(c, i, chance(50) ? c->pat[j] : c->pat[j] + (lj - l), l);
        free(buf);
        return;
    }
    if (i > 0 && w < 17 && !fixed_len) { /* an earlier one extended */
        size_t j = (size_t)below(i);
        size_t lj = c->len[j], extra = (size_t)range(1, 8);
        if (lj + extra <= 100) {
            uint8_t *b2 = malloc(lj + extra);
            assert(b2);
            int front = chance(50);
            for (size_t k = 0; k < extra; k++) b2[front ? k : lj + k] = rand_pat_byte(c);
            memcpy(b2 + (front ? extra : 0), c->pat[j], lj);
            add_pattern(c, i, b2, lj + extra);
            free(b2);
            free(buf);
            return;
        }
    }
    if (i > 0 && w < 21) { /* a case variant (distinct unless folded) */
        size_t j = (size_t)below(i);
        memcpy(buf, c->pat[j], c->len[j]);
        for (size_t k = 0; k < c->len[j]; k++)
            if (chance(50)) buf[k] = flip_case(buf[k]);
        add_pattern(c, i, buf, c->len[j]);
        free(buf);
        return;
    }
    if (i > 0 && w < 25 && nuc_kind(c)) { /* the reverse complement of one */
        size_t j = (size_t)below(i);
        size_t lj = c->len[j];
        for (size_t k = 0; k < lj; k++) buf[k] = moracle_complement(c->pat[j][lj - 1 - k]);
        add_pattern(c, i, buf, lj);
        free(buf);
        return;
    }
    if (c->n >= m && below(100) < from_text_pct) { /* a piece of the text */
        size_t at = (size_t)below(c->n - m + 1);
        for (size_t k = 0; k < m; k++) buf[k] = fix_pat_byte(c, c->text[at + k]);
        if (c->o.case_insensitive || c->ak == AK_DNA)
            for (size_t k = 0; k < m; k++)
                if (chance(10)) buf[k] = flip_case(buf[k]);
    } else {
        for (size_t k = 0; k < m; k++) buf[k] = rand_pat_byte(c);
    }
    add_pattern(c, i, buf, m);
    free(buf);
}

/* The searched string of pattern i on a strand, instantiated as text could
** hold it (case flips where they do not matter, U for T in DNA). */
static void occurrence(const tcase *c, size_t i, int strand, uint8_t *out) {
    size_t m = c->len[i];
    for (size_t k = 0; k < m; k++)
        out[k] = strand ? moracle_complement(c->pat[i][m - 1 - k]) : c->pat[i][k];
    for (size_t k = 0; k < m; k++) {
        if (c->ak == AK_DNA) {
            if (chance(20)) out[k] = flip_case(out[k]);
            uint8_t u = (uint8_t)(out[k] | 0x20);
            if (u == 't' && chance(10)) out[k] = (out[k] == 't') ? 'u' : 'U';
            else if (u == 'u' && chance(70)) out[k] = (out[k] == 'u') ? 't' : 'T';
        } else if (c->o.case_insensitive && chance(30)) {
            out[k] = flip_case(out[k]);
        }
    }
}

/* Put occurrences of random patterns at record starts, ends, across record
** borders and at random places. */
static void plant_some(tcase *c) {
    if (c->n == 0) return;
    size_t count = (size_t)below(9);
    uint8_t *buf = malloc(c->max_len + 1);
    assert(buf);
    for (size_t j = 0; j < count; j++) {
        size_t i = (size_t)below(c->np);
        size_t m = c->len[i];
        int strand = c->o.revcomp && chance(50);
        size_t pos = plant_pos(c->n, c->rec_start, c->n_rec, m);
        occurrence(c, i, strand, buf);
        for (size_t k = 0; k < m && pos + k < c->n; k++) c->text[pos + k] = buf[k];
    }
    free(buf);
}

static void free_patterns(tcase *c) {
    for (size_t i = 0; i < c->np; i++) free(c->pat[i]);
    free(c->pat);
    free(c->len);
    c->pat = NULL;
    c->len = NULL;
}

static void free_case(tcase *c) {
    free_patterns(c);
    free(c->text);
    free(c->rec_start);
}

static void set_len_range(tcase *c) {
    c->min_len = SIZE_MAX;
    c->max_len = 0;
    for (size_t i = 0; i < c->np; i++) {
        if (c->len[i] < c->min_len) c->min_len = c->len[i];
        if (c->len[i] > c->max_len) c->max_len = c->len[i];
    }
}

#define MATCH_BUDGET 150000 /* oracle matches per case, at most */

static void gen_case(tcase *c) {
    memset(c, 0, sizeof *c);
    c->o = wm_opts_default();

    static const weighted_t KINDS[] = {
        { AK_BIN, 10 },     { AK_ACGT, 22 },    { AK_SMALL, 32 }, { AK_PROT20, 40 },
        { AK_BYTE256, 52 }, { AK_GENERIC, 58 }, { AK_DNA, 82 },   { AK_NUC_BYTES, 100 },
    };
    c->ak = (alpha_kind)pick_weighted(KINDS, N_OF(KINDS));

    switch (c->ak) {
    case AK_BIN:
        if (chance(50)) {
            c->sym[0] = 'a';
            c->sym[1] = 'b';
        } else {
            c->sym[0] = 0x00;
            c->sym[1] = 0xff;
        }
        c->n_sym = 2;
        break;
    case AK_ACGT:
        memcpy(c->sym, "ACGT", 4);
        c->n_sym = 4;
        break;
    case AK_PROT20:
        memcpy(c->sym, "ACDEFGHIKLMNPQRSTVWY", 20);
        c->n_sym = 20;
        break;
    case AK_BYTE256:
        for (int i = 0; i < 256; i++) c->sym[i] = (uint8_t)i;
        c->n_sym = 256;
        c->letters = chance(50);
        break;
    case AK_SMALL:
    case AK_GENERIC:
        c->n_sym = c->ak == AK_SMALL ? (size_t)range(3, 16) : (size_t)range(2, 256);
        random_symbols(c->sym, c->n_sym);
        break;
    default:
        memcpy(c->sym, "ACGT", 4);
        c->n_sym = 4;
        break;
    }

    if (c->ak == AK_DNA) {
        c->o.alphabet = WM_ALPHABET_DNA;
        c->o.revcomp = chance(50);
        c->o.case_insensitive = chance(10); /* no effect on DNA; must be harmless */
    } else if (c->ak == AK_NUC_BYTES) {
        c->o.revcomp = chance(80);
        c->o.case_insensitive = chance(40);
    } else {
        c->o.case_insensitive = chance(25);
    }

    /* text */
    c->periodic = chance(8);
    c->n = pick_n();
    c->text = malloc(c->n + 1);
    assert(c->text);
    size_t period = (size_t)range(1, 3);
    uint8_t unit[3];
    for (size_t i = 0; i < period; i++)
        unit[i] = nuc_kind(c) ? (uint8_t) "ACGT"[below(4)] : rand_text_byte(c);
    if (c->periodic) {
        for (size_t i = 0; i < c->n; i++) c->text[i] = unit[i % period];
        for (size_t i = 0; i < c->n; i++) /* a few defects */
            if (chance(1)) c->text[i] = rand_text_byte(c);
    } else {
        for (size_t i = 0; i < c->n; i++) c->text[i] = rand_text_byte(c);
    }
    if (c->o.case_insensitive && !nuc_kind(c))
        for (size_t i = 0; i < c->n; i++)
            if (chance(30)) c->text[i] = flip_case(c->text[i]);

    /* the set */
    int long_fam = chance(4); /* a few long patterns */
    c->np = long_fam ? (size_t)range(1, 20) : pick_np();
    c->pat = calloc(c->np, sizeof *c->pat);
    c->len = calloc(c->np, sizeof *c->len);
    assert(c->pat && c->len);
    uint64_t lm = long_fam ? 0 : below(100);
    int fixed_len = 0;
    size_t L = 0;
    if (lm < 35) {
        c->set_kind = long_fam ? "mixed lengths 1..4096" : "mixed lengths 1..100";
    } else if (lm < 60) {
        static const size_t ls[] = { 1, 2, 3, 4, 5, 8, 8, 8, 8, 12, 16, 20, 31, 32, 33, 64 };
        fixed_len = 1;
        L = chance(80) ? ls[below(N_OF(ls))] : (size_t)range(1, 100);
        c->set_kind = "one length";
    } else if (lm < 85) {
        c->set_kind = "lengths >= 4";
    } else {
        c->set_kind = "lengths 1..4";
    }
    unsigned from_text = chance(25) ? 90 : (chance(30) ? 0 : 45);
    int one_repeated = chance(5);
    if (one_repeated) c->set_kind = "one pattern repeated";
    for (size_t i = 0; i < c->np; i++) {
        size_t m;
        if (fixed_len) m = L;
        else if (lm < 35) m = long_fam && chance(60) ? (size_t)range(101, 4096) : pick_len();
        else if (lm < 85) m = (size_t)range(4, chance(70) ? 24 : 100);
        else m = (size_t)range(1, 4);
        if (one_repeated && i > 0 && chance(90)) {
            add_pattern(c, i, c->pat[0], c->len[0]);
            continue;
        }
        if (c->periodic && chance(70)) { /* periodic patterns: dense hits */
            uint8_t *b = malloc(m);
            assert(b);
            size_t off = (size_t)below(period);
            for (size_t k = 0; k < m; k++) b[k] = fix_pat_byte(c, unit[(off + k) % period]);
            add_pattern(c, i, b, m);
            free(b);
            continue;
        }
        make_pattern(c, i, m, fixed_len, from_text);
        /* the "lengths >= 4" family must stay >= 4 for QGRAM (prefixes may not) */
        if (lm >= 60 && lm < 85 && c->len[i] < 4) {
            free(c->pat[i]);
            c->pat[i] = NULL;
            uint8_t b[4];
            for (int k = 0; k < 4; k++) b[k] = rand_pat_byte(c);
            add_pattern(c, i, b, 4);
        }
        if (lm >= 85 && c->len[i] > 4) c->len[i] = 4; /* 1..4 family */
        if (fixed_len && c->len[i] != L) {            /* keep "one length" */
            free(c->pat[i]);
            c->pat[i] = NULL;
            make_pattern(c, i, L, 1, 0);
            if (c->len[i] != L) {
                free(c->pat[i]);
                uint8_t *b = malloc(L);
                assert(b);
                for (size_t k = 0; k < L; k++) b[k] = rand_pat_byte(c);
                add_pattern(c, i, b, L);
                free(b);
            }
        }
    }
    for (size_t i = 0; i < c->np; i++) /* every pattern byte is fit for the kind */
        for (size_t k = 0; k < c->len[i]; k++)
            assert(!nuc_kind(c) || moracle_is_nucleotide(c->pat[i][k]));
    set_len_range(c);

    c->n_rec = split_records(c->n, c->min_len + (c->max_len - c->min_len) / 2, &c->rec_start);
    plant_some(c);
}

/* Shorten the text until the oracle's match count is within budget. */
static void fit_budget(tcase *c) {
    uint64_t *counts = malloc(c->np * sizeof *counts);
    assert(counts);
    for (;;) {
        wm_text_t t = { c->text, c->n, c->rec_start, c->n_rec };
        uint64_t total = moracle_count_per_pattern((const uint8_t *const *)c->pat, c->len, c->np,
                                                   &c->o, &t, counts);
        if (total <= MATCH_BUDGET || c->n == 0) break;
        c->n = (size_t)((double)c->n * 0.8 * MATCH_BUDGET / (double)total);
        for (size_t r = 0; r < c->n_rec; r++)
            if (c->rec_start[r] > c->n) c->rec_start[r] = c->n;
    }
    free(counts);
}

/* ==== running the library =================================================== */

/* The case, for a failure's report (g_describe). */
static void describe_case(const void *p) {
    const tcase *c = p;
    printf("    alphabet %s, %zu patterns (%s, lengths %zu..%zu), case_insensitive %d,"
           " revcomp %d, n %zu, records %zu%s%s\n",
           AK_NAME[c->ak], c->np, c->set_kind ? c->set_kind : "-", c->min_len, c->max_len,
           c->o.case_insensitive, c->o.revcomp, c->n, c->n_rec ? c->n_rec : 1,
           c->n_rec ? "" : " (rec_start NULL)", c->periodic ? ", periodic text" : "");
    size_t show = g_verbose ? c->np : (c->np < 6 ? c->np : 6);
    for (size_t i = 0; i < show; i++) {
        printf("    pattern %zu ", i);
        print_bytes(stdout, c->pat[i], c->len[i], g_verbose ? (size_t)-1 : 80);
        printf("\n");
    }
    if (show < c->np) printf("    ... (%zu more; WM_VERBOSE=1 prints all)\n", c->np - show);
    print_text(c->text, c->n, c->rec_start, c->n_rec);
}

static const wm_algo_t SET_ALGOS[] = { WM_ALGO_AUTO,           WM_ALGO_AC,
                                       WM_ALGO_PFAC,           WM_ALGO_WUMANBER,
                                       WM_ALGO_WUMANBER_PAPER, WM_ALGO_QGRAM,
                                       WM_ALGO_TEDDY };

/* Compile with algo `a`; on WM_OK check the database's pattern count and
** algorithm. Returns the database or NULL (status checked against `want`). */
static wm_db_t *compile_checked(long idx, const tcase *c, wm_algo_t a, int want) {
    wm_opts_t o = c->o;
    o.algo = a;
    wm_db_t *db = NULL;
    char what[96];
    snprintf(what, sizeof what, "wm_compile_set(algo %s)", wm_algo_name(a));
    double t0 = now_s();
    int rc = wm_compile_set((const uint8_t *const *)c->pat, c->len, c->np, &o, &db);
    g_t_compile += now_s() - t0;
    check_case_status(idx, c, what, rc, want, NULL);
    if (rc != WM_OK) return NULL;
    if (want != WM_OK) {
        wm_db_free(db);
        return NULL;
    }
    if (wm_db_pattern_count(db) != c->np) {
        char buf[160];
        snprintf(buf, sizeof buf, "%s: wm_db_pattern_count = %zu, want %zu", what,
                 wm_db_pattern_count(db), c->np);
        fail_msg(idx, c, buf);
    }
    wm_algo_t got = wm_db_algo(db);
    if (a == WM_ALGO_AUTO ? (got < WM_ALGO_AC || got > WM_ALGO_TEDDY) : got != a) {
        char buf[160];
        snprintf(buf, sizeof buf, "%s: wm_db_algo = %d (%s)", what, (int)got, wm_algo_name(got));
        fail_msg(idx, c, buf);
    }
    return db;
}

static void run_case(long idx, tcase *c, config *cfgs, size_t n_cfg) {
    wm_text_t t = { c->text, c->n, c->rec_start, c->n_rec };
    const uint8_t *const *pp = (const uint8_t *const *)c->pat;
    wm_match_t *want = NULL;
    uint64_t *want_counts = malloc(c->np * sizeof *want_counts);
    uint64_t *got_counts = malloc(c->np * sizeof *got_counts);
    assert(want_counts && got_counts);
    double t0 = now_s();
    size_t n_want = moracle_search(pp, c->len, c->np, &c->o, &t, &want);
    memset(want_counts, 0, c->np * sizeof *want_counts); /* (the self-check compares */
    for (size_t i = 0; i < n_want; i++)                  /* these with the oracle's) */
        want_counts[want[i].pattern]++;
    double t1 = now_s();
    g_t_oracle += t1 - t0;

    /* coverage */
    {
        int dup = 0;
        for (size_t i = 1; i < n_want; i++)
            dup |= want[i].end == want[i - 1].end && want[i].start == want[i - 1].start &&
                   want[i].record == want[i - 1].record;
        note_matches(&g_cov, want, n_want);
        g_cov_sets.dup_hits += dup;
        g_cov_sets.dense += c->n > 0 && n_want > c->n;
        g_cov_sets.qgram_cases += c->min_len >= WM_QGRAM_MIN_LEN;
        g_cov_sets.big_sets += c->np > 1000;
    }

    match_vec got = { 0 };
    for (size_t a = 0; a < N_OF(SET_ALGOS); a++) {
        int valid = !(SET_ALGOS[a] == WM_ALGO_QGRAM && c->min_len < WM_QGRAM_MIN_LEN) &&
                    !(SET_ALGOS[a] == WM_ALGO_TEDDY && c->np > WM_TEDDY_MAX_PATTERNS);
        wm_db_t *db = compile_checked(idx, c, SET_ALGOS[a], valid ? WM_OK : WM_INVALID);
        if (db == NULL) continue;
        for (size_t i = 0; i < n_cfg; i++) {
            got.stop_after = 0;
            char cfg[200];
            snprintf(cfg, sizeof cfg, "algo %s (db %s), %s", wm_algo_name(SET_ALGOS[a]),
                     wm_algo_name(wm_db_algo(db)), cfgs[i].name);
            int rc = search_checked(idx, c, cfg, cfgs[i].cx, db, &t, &got, want, n_want, 40,
                                    &g_t_cfg[i < N_OF(g_t_cfg) ? i : N_OF(g_t_cfg) - 1]);
            if (rc != WM_OK) continue;
            if (chance(40)) { /* per-pattern counts agree */
                for (size_t p = 0; p < c->np; p++) got_counts[p] = 0xdeadbeefull;
                rc = wm_count_per_pattern(cfgs[i].cx, db, &t, got_counts);
                size_t p = 0;
                while (rc == WM_OK && p < c->np && got_counts[p] == want_counts[p]) p++;
                if (rc != WM_OK || p < c->np) {
                    char buf[400];
                    if (rc != WM_OK)
                        snprintf(buf, sizeof buf, "%s: wm_count_per_pattern returned %d (%s)", cfg,
                                 rc, wm_strerror(rc));
                    else
                        snprintf(buf, sizeof buf,
                                 "%s: wm_count_per_pattern: pattern %zu count %" PRIu64
                                 ", oracle %" PRIu64,
                                 cfg, p, got_counts[p], want_counts[p]);
                    fail_msg(idx, c, buf);
                } else {
                    g_passed++;
                }
            }
            if (n_want > 0 && chance(8)) { /* a callback that stops */
                got.n = 0;
                got.stop_after = (size_t)range(1, n_want);
                rc = wm_search(cfgs[i].cx, db, &t, collect, &got);
                size_t k = 0;
                while (k < got.n && k < n_want && same_match(&got.a[k], &want[k])) k++;
                if (rc != WM_STOPPED || got.n != got.stop_after || k != got.n) {
                    char buf[400];
                    snprintf(buf, sizeof buf,
                             "%s: callback stopping at match %zu: wm_search "
                             "returned %d (%s) after %zu calls, %zu agreeing with the oracle",
                             cfg, got.stop_after, rc, wm_strerror(rc), got.n, k);
                    fail_msg(idx, c, buf);
                } else {
                    g_passed++;
                }
                got.stop_after = 0;
            }
        }
        wm_db_free(db);
    }

    /* the single-pattern algorithms must be refused for a set */
    if (chance(10)) {
        static const wm_algo_t single[] = { WM_ALGO_SHIFTOR, WM_ALGO_BITAP, WM_ALGO_MYERS };
        compile_checked(idx, c, single[below(3)], WM_INVALID);
    }
    g_t_lib += now_s() - t1;
    free(got.a);
    free(want);
    free(want_counts);
    free(got_counts);
}

/* ==== contexts ============================================================== */

/* A tiny chunk (1..64) so that occurrences straddle chunk borders, grown where
** so many chunks would make the run slow (each chunk rescans max_len - 1). */
static uint64_t tiny_chunk(const void *p, int gpu) {
    const tcase *c = p;
    uint64_t ch = range(1, 64);
    uint64_t max_chunks = gpu ? 64 : 1500;
    if (c->max_len > 64) max_chunks = max_chunks / 4;
    if (c->n / ch > max_chunks) ch = c->n / max_chunks + below(64);
    return ch;
}

/* ==== 2. the longest pattern ================================================ */

/* A pattern of exactly WM_MAX_PATTERN bytes is searched (planted twice, once
** cut by a record border) with a short one, by every set algorithm. The
** arguments of wm_compile_set are tests/unit/test_api_sets.c's. */
static void longest_pattern(const config *cpu) {
    size_t big = WM_MAX_PATTERN;
    uint8_t *p = xmalloc(big);
    size_t tn = 3 * big;
    uint8_t *txt = xmalloc(tn);
    uint64_t s = 12345;
    for (size_t i = 0; i < big; i++) p[i] = (uint8_t)("ACGT"[splitmix64(&s) % 4]);
    for (size_t i = 0; i < tn; i++) txt[i] = (uint8_t)("ACGT"[splitmix64(&s) % 4]);
    memcpy(txt + 100, p, big);
    memcpy(txt + 2 * big - 50, p, big);
    uint64_t rs[2] = { 0, 2 * big };
    wm_text_t t = { txt, tn, rs, 2 };
    const uint8_t *bp[2] = { p, (const uint8_t *)"ACGTA" };
    size_t bl[2] = { big, 5 };
    char what[200];
    for (size_t a = 0; a < N_OF(SET_ALGOS); a++) {
        wm_opts_t ao = wm_opts_default();
        ao.algo = SET_ALGOS[a];
        wm_db_t *db = NULL;
        int rc = wm_compile_set(bp, bl, 2, &ao, &db);
        snprintf(what, sizeof what, "wm_compile_set(a pattern of WM_MAX_PATTERN bytes, %s)",
                 wm_algo_name(SET_ALGOS[a]));
        check_status(what, rc, WM_OK, NULL);
        if (rc != WM_OK) continue;
        wm_match_t *want = NULL;
        size_t nw = moracle_search(bp, bl, 2, &ao, &t, &want);
        match_vec got = { 0 };
        rc = wm_search(cpu->cx, db, &t, collect, &got);
        snprintf(what, sizeof what, "pattern of WM_MAX_PATTERN bytes, algo %s, %s",
                 wm_algo_name(SET_ALGOS[a]), cpu->name);
        if (rc != WM_OK) check_status(what, rc, WM_OK, cpu->cx);
        else compare_matches(-1, NULL, what, got.a, got.n, want, nw);
        free(got.a);
        free(want);
        wm_db_free(db);
    }
    free(p);
    free(txt);
}

/* ==== 4. large sets ========================================================= */

/* A set of np patterns in one buffer; lengths lo..hi over the case's
** symbols, a share `from_text_pct` sampled from the text. */
static void big_set(tcase *c, size_t np, size_t lo, size_t hi, unsigned from_text_pct,
                    uint8_t **pool_out) {
    c->np = np;
    c->pat = NULL;
    c->len = malloc(np * sizeof *c->len);
    uint8_t **pat = malloc(np * sizeof *pat);
    uint8_t *pool = malloc(np * hi);
    assert(c->len && pat && pool);
    for (size_t i = 0; i < np; i++) {
        size_t m = (size_t)range(lo, hi);
        uint8_t *p = pool + i * hi;
        if (c->n >= m && chance(from_text_pct)) {
            size_t at = (size_t)below(c->n - m + 1);
            for (size_t k = 0; k < m; k++) p[k] = fix_pat_byte(c, c->text[at + k]);
        } else {
            for (size_t k = 0; k < m; k++) p[k] = rand_pat_byte(c);
        }
        pat[i] = p;
        c->len[i] = m;
    }
    c->pat = pat;
    *pool_out = pool;
    set_len_range(c);
}

/* A large set's case: options, a name for reports, a random text of n bytes. */
static void large_case(tcase *c, alpha_kind ak, const char *set_kind, size_t n) {
    memset(c, 0, sizeof *c);
    c->o = wm_opts_default();
    c->ak = ak;
    if (ak == AK_DNA) c->o.alphabet = WM_ALPHABET_DNA;
    if (ak == AK_ACGT) {
        memcpy(c->sym, "ACGT", 4);
        c->n_sym = 4;
    }
    if (ak == AK_BYTE256) {
        for (int i = 0; i < 256; i++) c->sym[i] = (uint8_t)i;
        c->n_sym = 256;
    }
    c->set_kind = set_kind;
    c->n = n;
    c->text = xmalloc(c->n);
    for (size_t i = 0; i < c->n; i++) c->text[i] = rand_text_byte(c);
}

static void large_sets(config *cfgs, size_t n_cfg) {
    /* 100,000 patterns, lengths 4..32, bytes over 4 and 256 symbols */
    for (int kind = 0; kind < 2; kind++) {
        tcase c;
        g_rng = g_seed ^ (0xB16B00B5ull + (uint64_t)kind);
        large_case(&c, kind == 0 ? AK_ACGT : AK_BYTE256, "large: 100,000 patterns", 50000);
        uint8_t *pool;
        big_set(&c, 100000, kind == 0 ? 8 : 4, 32, 10, &pool);
        fit_budget(&c);
        double t0 = now_s();
        wm_match_t *want = NULL;
        wm_text_t t = { c.text, c.n, NULL, 0 };
        size_t n_want = moracle_search((const uint8_t *const *)c.pat, c.len, c.np, &c.o, &t, &want);
        g_t_oracle += now_s() - t0;
        t0 = now_s();
        for (size_t a = 0; a < N_OF(SET_ALGOS); a++) {
            /* teddy takes up to WM_TEDDY_MAX_PATTERNS: refused here */
            int want_rc = SET_ALGOS[a] == WM_ALGO_TEDDY ? WM_INVALID : WM_OK;
            wm_db_t *db = compile_checked(-1, &c, SET_ALGOS[a], want_rc);
            if (db == NULL) continue;
            for (size_t i = 0; i < n_cfg; i++) {
                match_vec got = { 0 };
                char cfg[200];
                snprintf(cfg, sizeof cfg, "100,000 patterns (%s): algo %s (db %s), %s",
                         AK_NAME[c.ak], wm_algo_name(SET_ALGOS[a]), wm_algo_name(wm_db_algo(db)),
                         cfgs[i].name);
                int rc = wm_search(cfgs[i].cx, db, &t, collect, &got);
                if (rc != WM_OK) check_case_status(-1, &c, cfg, rc, WM_OK, NULL);
                else compare_matches(-1, &c, cfg, got.a, got.n, want, n_want);
                free(got.a);
            }
            wm_db_free(db);
        }
        g_t_lib += now_s() - t0;
        printf("large set (%s): 100,000 patterns, %zu bytes of text, %zu matches\n", AK_NAME[c.ak],
               c.n, n_want);
        free(want);
        free(pool);
        free(c.pat);
        c.pat = NULL;
        c.np = 0;
        free_case(&c);
    }

    /* 1,000,000 patterns: half DNA 8-mers (many duplicates), half 9..20;
    ** compile with AUTO, then a short search against the oracle */
    {
        tcase c;
        g_rng = g_seed ^ 0x1000000ull;
        large_case(&c, AK_DNA, "large: 1,000,000 patterns", 3000);
        uint8_t *pool;
        big_set(&c, 1000000, 8, 20, 5, &pool);
        for (size_t i = 0; i < c.np; i += 2) c.len[i] = 8;
        set_len_range(&c);
        double t0 = now_s();
        wm_db_t *db = NULL;
        int rc = wm_compile_set((const uint8_t *const *)c.pat, c.len, c.np, &c.o, &db);
        double tc = now_s() - t0;
        check_case_status(-1, &c, "wm_compile_set(1,000,000 patterns)", rc, WM_OK, NULL);
        if (rc == WM_OK) {
            if (wm_db_pattern_count(db) != c.np)
                fail_msg(-1, &c, "wm_db_pattern_count(1,000,000 patterns) is wrong");
            double t1 = now_s();
            wm_match_t *want = NULL;
            wm_text_t t = { c.text, c.n, NULL, 0 };
            size_t n_want =
                moracle_search((const uint8_t *const *)c.pat, c.len, c.np, &c.o, &t, &want);
            g_t_oracle += now_s() - t1;
            match_vec got = { 0 };
            rc = wm_search(cfgs[0].cx, db, &t, collect, &got);
            char cfg[200];
            snprintf(cfg, sizeof cfg, "1,000,000 patterns: algo auto (db %s), %s",
                     wm_algo_name(wm_db_algo(db)), cfgs[0].name);
            if (rc != WM_OK) check_case_status(-1, &c, cfg, rc, WM_OK, NULL);
            else compare_matches(-1, &c, cfg, got.a, got.n, want, n_want);
            printf("large set: 1,000,000 patterns compiled in %.2f s (db %s); %zu matches in"
                   " %zu bytes\n",
                   tc, wm_algo_name(wm_db_algo(db)), n_want, c.n);
            free(got.a);
            free(want);
            wm_db_free(db);
        }
        g_t_lib += tc;
        free(pool);
        free(c.pat);
        c.pat = NULL;
        c.np = 0;
        free_case(&c);
    }
}

/* ==== main ================================================================== */

/* Random tiny cases: moracle_search against moracle_search_naive and the
** per-pattern counts against the match list. */
static void oracle_random_self_check(void) {
    g_rng = g_seed ^ 0x5eedf00dull;
    for (int i = 0; i < 300; i++) {
        tcase c;
        gen_case(&c);
        if (c.n > 40) {
            c.n = (size_t)below(41);
            for (size_t r = 0; r < c.n_rec; r++)
                if (c.rec_start[r] > c.n) c.rec_start[r] = c.n;
        }
        if (c.np > 12) {
            for (size_t j = 12; j < c.np; j++) free(c.pat[j]);
            c.np = 12;
        }
        wm_text_t t = { c.text, c.n, c.rec_start, c.n_rec };
        const uint8_t *const *pp = (const uint8_t *const *)c.pat;
        wm_match_t *a = NULL, *b = NULL;
        size_t na = moracle_search(pp, c.len, c.np, &c.o, &t, &a);
        size_t nb = moracle_search_naive(pp, c.len, c.np, &c.o, &t, &b);
        int ok = na == nb;
        for (size_t j = 0; ok && j < na; j++) ok = same_match(&a[j], &b[j]);
        uint64_t *cnt = calloc(c.np, sizeof *cnt), *cnt2 = malloc(c.np * sizeof *cnt2);
        assert(cnt && cnt2);
        for (size_t j = 0; j < nb; j++) cnt[b[j].pattern]++;
        uint64_t total = moracle_count_per_pattern(pp, c.len, c.np, &c.o, &t, cnt2);
        ok = ok && total == nb;
        for (size_t j = 0; ok && j < c.np; j++) ok = cnt[j] == cnt2[j];
        if (!ok) {
            self_fail++;
            print_case(i, &c, "moracle_search differs from moracle_search_naive");
        }
        free(cnt);
        free(cnt2);
        free(a);
        free(b);
        free_case(&c);
    }
}

/* The contexts every case runs on, besides its own tiny-chunk ones. */
static fixed_set g_fixed;

static void one_case(long idx) {
    tcase c;
    gen_case(&c);
    double t0 = now_s();
    fit_budget(&c);
    g_t_oracle += now_s() - t0;
    config cfgs[12];
    size_t n_cfg = case_configs(cfgs, &g_fixed, tiny_chunk, &c);
    run_case(idx, &c, cfgs, n_cfg);
    close_case_configs(&g_fixed, cfgs, n_cfg);
    free_case(&c);
}

int main(int argc, char **argv) {
    long only = -2;
    long n_cases =
        test_begin("test_multi_diff", argc, argv, 20240612ull, 500, describe_case, &only);

    /* 1. the oracle against hand-worked examples and its own definition */
    oracle_hand_examples();
    if (only < 0) oracle_random_self_check();
    if (oracle_verdict()) return 1;

    /* contexts: CPU 1 and 3 threads with the default chunk; tiny chunks are
    ** made per case. CUDA likewise when a GPU is there. */
    static const int threads[] = { 1, 3 };
    open_fixed(&g_fixed, threads, N_OF(threads));
    if (g_fixed.n == 0) return test_finish();

    /* 2. the longest pattern */
    if (only < 0) {
        longest_pattern(&g_fixed.cf[0]);
        part_done("the longest pattern");
    }

    /* 3. the random cases */
    run_cases(n_cases, only, 1, 200, one_case);

    /* 4. large sets */
    if (only < 0) large_sets(g_fixed.cf, g_fixed.n);

    close_configs(g_fixed.cf, g_fixed.n);

    printf("coverage: %ld cases, %" PRIu64 " oracle matches; cases with matches %ld, on strand"
           " 1 %ld, in record > 0 %ld, dense (more matches than bytes) %ld, with matches of"
           " equal patterns %ld, all lengths >= %u %ld, over 1,000 patterns %ld\n",
           g_cov.cases, g_cov.matches, g_cov.with_matches, g_cov.strand1, g_cov.multi_rec,
           g_cov_sets.dense, g_cov_sets.dup_hits, WM_QGRAM_MIN_LEN, g_cov_sets.qgram_cases,
           g_cov_sets.big_sets);
    print_time_split();
    printf("\n");
    printf("library wall: compile %.1f s; wm_search (first call of each) by configuration:",
           g_t_compile);
    for (size_t j = 0; j < g_fixed.n + 2 + (size_t)g_fixed.gpu && j < N_OF(g_t_cfg); j++)
        printf("%s %s %.1f s", j ? "," : "",
               j < g_fixed.n        ? g_fixed.cf[j].name
               : j == g_fixed.n     ? "cpu, 1 thread, tiny chunks"
               : j == g_fixed.n + 1 ? "cpu, 3 threads, tiny chunks"
                                    : "cuda, tiny chunks",
               g_t_cfg[j]);
    printf("\n");
    print_repro(argv[0], "the checks outside the random cases");
    return test_finish();
}
