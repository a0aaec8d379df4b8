/*
** test_search_diff.c -- every search backend against the brute-force oracle.
**
** First the oracle checks itself: hand-worked examples, then random tiny
** cases against the definition (one DP per (start, end) pair). Then thousands
** of seeded random cases compare wm_search's match list, byte for byte, with
** oracle_search's, over: BYTES alphabets of 1, 2, 4, 20 and 256 symbols, the
** DNA alphabet (IUPAC patterns, soft-masked texts with N and junk bytes),
** nucleotide patterns in BYTES with revcomp; m 1..300 (31/32/33, 63/64/65,
** 127/128/129 favoured), k 0..m-1 (0..4 and m-1 favoured), edit and Hamming,
** case folding, reverse complements, texts 0..50,000 bytes in one or many
** records (empty ones and ones shorter than the pattern included), periodic
** and dense-match texts, occurrences planted at record starts and ends and
** across record borders, pattern = text and pattern longer than text.
** Each case runs every algorithm valid for its options (AUTO, SHIFTOR when
** k = 0, BITAP, MYERS for edit distance; the invalid ones must give
** WM_INVALID), on the CPU with 1 and 3 threads, default and tiny chunks, and
** on CUDA the same way when a GPU is present.
**
** Usage: test_search_diff [seed]     (or env WM_SEED; default fixed)
** Env:   WM_TEST_SCALE  multiplies the number of cases [1.0]
**        WM_CASE        run only this case index (reproduce a failure;
**                       -1: only the oracle's self-check)
**        WM_VERBOSE     print each failing case's pattern and text in full
** Exit status 0 when every check passed; the last line is "N passed, N failed".
*/
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "warpmatch.h"

#include "contexts.h"
#include "gen.h"
#include "harness.h"
#include "matches.h"
#include "rng.h"

/* coverage: what the oracle's answers held, over all cases */
static match_cover g_cov;
static struct { long at_rec_start, at_rec_end, dense, errors_gt0; } g_cov_search;

/* ==== oracle self-check ===================================================== */

static void expect_matches(const char *name, const char *pat, const wm_opts_t *o, const char *text,
                           const uint64_t *rs, size_t n_rec, const wm_match_t *want,
                           size_t n_want) {
    wm_text_t t = { (const uint8_t *)text, strlen(text), rs, n_rec };
    wm_match_t *got = NULL;
    size_t n = oracle_search((const uint8_t *)pat, strlen(pat), o, &t, &got);
    int ok = n == n_want;
    for (size_t i = 0; ok && i < n; i++)
        ok = got[i].record == want[i].record && got[i].start == want[i].start &&
             got[i].end == want[i].end && got[i].errors == want[i].errors &&
             got[i].strand == want[i].strand;
    if (!ok) {
        self_fail++;
        printf("oracle self-check FAILED: %s (got %zu matches, want %zu)\n", name, n, n_want);
        for (size_t i = 0; i < n; i++) print_match(stdout, "got", &got[i]);
    }
    free(got);
}

static wm_opts_t plain_opts(uint32_t k) {
    wm_opts_t o;
    memset(&o, 0, sizeof o); /* not wm_opts_default(): the oracle stands alone */
    o.max_edits = k;
    return o;
}

#define M(r, s, e, d, st)                                                                          \
    { (r), (s), (e), (d), (st), 0 }

/* Examples worked out by hand (the working is in the comments). */
static void oracle_hand_examples(void) {
    /* Edit distance helper. */
    struct {
        const char *a, *b;
        size_t d;
    } ed[] = {
        { "kitten", "sitting", 3 }, { "", "abc", 3 }, { "abc", "", 3 },
        { "flaw", "lawn", 2 },      { "", "", 0 },    { "abc", "abc", 0 },
        { "ab", "ba", 2 },
    };
    for (size_t i = 0; i < N_OF(ed); i++) {
        size_t d = oracle_edit_distance((const uint8_t *)ed[i].a, strlen(ed[i].a),
                                        (const uint8_t *)ed[i].b, strlen(ed[i].b));
        if (d != ed[i].d) {
            self_fail++;
            printf("oracle self-check FAILED: edit(%s, %s) = %zu, want %zu\n", ed[i].a, ed[i].b, d,
                   ed[i].d);
        }
    }

    wm_opts_t o = plain_opts(1);
    /* "abc", k = 1, edit, in "xabxc" (x0 a1 b2 x3 c4):
    **  e=1: "x" 3, "" 3                                  -> no
    **  e=2: "xa" 3, "a" 2, "" 3                          -> no
    **  e=3: "xab" 2, "ab" 1, "b" 2                       -> d 1, start 1
    **  e=4: "xabx" 2, "abx" 1 (sub), "bx" 2, "x" 3       -> d 1, start 1
    **  e=5: "xabxc" 2, "abxc" 1 (ins x), "bxc" 2, "xc" 2, "c" 2 -> d 1, start 1 */
    {
        wm_match_t w[] = { M(0, 1, 3, 1, 0), M(0, 1, 4, 1, 0), M(0, 1, 5, 1, 0) };
        expect_matches("abc k1 edit in xabxc", "abc", &o, "xabxc", NULL, 0, w, N_OF(w));
    }
    /* Same with Hamming: "xab" 3, "abx" 1, "bxc" 2 -> only end 4. */
    {
        wm_opts_t h = o;
        h.metric = WM_METRIC_HAMMING;
        wm_match_t w[] = { M(0, 1, 4, 1, 0) };
        expect_matches("abc k1 hamming in xabxc", "abc", &h, "xabxc", NULL, 0, w, N_OF(w));
    }
    /* Start tie-break: "ab", k = 1 in "aab":
    **  e=1: "a" 1 (s 0), "" 2          -> d 1, start 0
    **  e=2: "aa" 1, "a" 1 (s 1), "" 2  -> d 1, largest s = 1
    **  e=3: "ab" 0 (s 1)               -> d 0, start 1 */
    {
        wm_match_t w[] = { M(0, 0, 1, 1, 0), M(0, 1, 2, 1, 0), M(0, 1, 3, 0, 0) };
        expect_matches("ab k1 in aab", "ab", &o, "aab", NULL, 0, w, N_OF(w));
    }
    /* Exact, overlapping: "aa" in "aaaa" -> ends 2, 3, 4. */
    {
        wm_opts_t x = plain_opts(0);
        wm_match_t w[] = { M(0, 0, 2, 0, 0), M(0, 1, 3, 0, 0), M(0, 2, 4, 0, 0) };
        expect_matches("aa k0 in aaaa", "aa", &x, "aaaa", NULL, 0, w, N_OF(w));
    }
    /* Pattern longer than text: "abcd", k = 2 in "bc": e=1 "b" 3; e=2 "bc" 2
    ** (delete a, d) -> d 2, start 0. */
    {
        wm_opts_t x = plain_opts(2);
        wm_match_t w[] = { M(0, 0, 2, 2, 0) };
        expect_matches("abcd k2 in bc", "abcd", &x, "bc", NULL, 0, w, N_OF(w));
    }
    /* Case folding: "AbC" in "xaBc" -> end 4 only with case_insensitive. */
    {
        wm_opts_t x = plain_opts(0);
        expect_matches("AbC k0 case-sensitive in xaBc", "AbC", &x, "xaBc", NULL, 0, NULL, 0);
        x.case_insensitive = 1;
        wm_match_t w[] = { M(0, 1, 4, 0, 0) };
        expect_matches("AbC k0 case-insensitive in xaBc", "AbC", &x, "xaBc", NULL, 0, w, N_OF(w));
    }
    /* DNA, "ACN" k 0 in "xacgNACTACN" (x0 a1 c2 g3 N4 A5 C6 T7 A8 C9 N10):
    **  "acg" [1,4) (N takes g), "ACT" [5,8), "ACN" [8,11) no: text N matches nothing. */
    {
        wm_opts_t x = plain_opts(0);
        x.alphabet = WM_ALPHABET_DNA;
        wm_match_t w[] = { M(0, 1, 4, 0, 0), M(0, 5, 8, 0, 0) };
        expect_matches("DNA ACN in xacgNACTACN", "ACN", &x, "xacgNACTACN", NULL, 0, w, N_OF(w));
        /* "ryu" = {A,G}{C,T}{T}: matches "GTT"?  g/t/t -> yes at [0,3) of "GTTAUC";
        ** "AUC" [3,6): A in R, U (=T) in Y, C not T -> no. */
        wm_match_t w2[] = { M(0, 0, 3, 0, 0) };
        expect_matches("DNA ryu in GTTAUC", "ryu", &x, "GTTAUC", NULL, 0, w2, N_OF(w2));
    }
    /* Reverse complement, DNA: "AAC" (rc "GTT") in "GTTAAC":
    **  strand 1 at [0,3), strand 0 at [3,6). */
    {
        wm_opts_t x = plain_opts(0);
        x.alphabet = WM_ALPHABET_DNA;
        x.revcomp = 1;
        wm_match_t w[] = { M(0, 0, 3, 0, 1), M(0, 3, 6, 0, 0) };
        expect_matches("DNA revcomp AAC in GTTAAC", "AAC", &x, "GTTAAC", NULL, 0, w, N_OF(w));
        /* Palindrome "ACGT": both strands at the same end, strand 0 first. */
        wm_match_t w2[] = { M(0, 0, 4, 0, 0), M(0, 0, 4, 0, 1) };
        expect_matches("DNA revcomp ACGT in ACGT", "ACGT", &x, "ACGT", NULL, 0, w2, N_OF(w2));
        /* BYTES revcomp keeps case: "aCR" -> rc "YGt"; in "YGtaCR" strand 1 at
        ** [0,3), strand 0 at [3,6); "ygt" would not match case-sensitively. */
        x.alphabet = WM_ALPHABET_BYTES;
        wm_match_t w3[] = { M(0, 0, 3, 0, 1), M(0, 3, 6, 0, 0) };
        expect_matches("BYTES revcomp aCR in YGtaCR", "aCR", &x, "YGtaCR", NULL, 0, w3, N_OF(w3));
        expect_matches("BYTES revcomp aCR in ygt", "aCR", &x, "ygt", NULL, 0, NULL, 0);
    }
    /* Records: "abcab" as [0,0) [0,3) [3,5): "ab" in records 1 and 2;
    ** "ca" spans the border of records 1 and 2 and must not match. */
    {
        wm_opts_t x = plain_opts(0);
        uint64_t rs[] = { 0, 0, 3 };
        wm_match_t w[] = { M(1, 0, 2, 0, 0), M(2, 0, 2, 0, 0) };
        expect_matches("records ab", "ab", &x, "abcab", rs, 3, w, N_OF(w));
        expect_matches("records ca", "ca", &x, "abcab", rs, 3, NULL, 0);
    }
}

/* ==== case generation ======================================================= */

typedef enum {
    AK_UNARY,     /* BYTES, one letter (plus a stranger in the pattern) */
    AK_BIN,       /* BYTES, 2 letters */
    AK_DNA4,      /* BYTES, ACGT */
    AK_PROT20,    /* BYTES, the 20 amino acids */
    AK_BYTE256,   /* BYTES, every byte value */
    AK_IUPAC,     /* DNA alphabet: IUPAC patterns, soft-masked texts */
    AK_NUC_BYTES, /* BYTES alphabet, nucleotide pattern, revcomp */
    AK_COUNT
} alpha_kind;

static const char *const AK_NAME[AK_COUNT] = { "bytes/1",   "bytes/2", "bytes/4",  "bytes/20",
                                               "bytes/256", "dna",     "bytes/nuc" };

static const char IUPAC_CODES[] = "ACGTURYSWKMBDHVN";

typedef struct {
    alpha_kind ak;
    const uint8_t *sym; /* the symbols of text and random pattern letters */
    size_t n_sym;
    uint8_t sym256[256];
    int periodic; /* the text is periodic (dense matches) */
    wm_opts_t o;
    uint8_t *pat;
    size_t m;
    uint8_t *text;
    size_t n;
    uint64_t *rec_start; /* NULL: one record, n_rec 0 */
    size_t n_rec;
} tcase;

static uint8_t rand_sym(const tcase *c) { return c->sym[below(c->n_sym)]; }

/* A base (upper case) from an IUPAC code's set, so that a planted copy of an
** IUPAC pattern really matches. */
static uint8_t instantiate_code(uint8_t code) {
    unsigned set = oracle_iupac_set(code);
    if (set == 0) return code;
    static const char B[] = "ACGT";
    uint8_t pick[4];
    int n = 0;
    for (int b = 0; b < 4; b++)
        if (set & (1u << b)) pick[n++] = (uint8_t)B[b];
    uint8_t c = pick[below((uint64_t)n)];
    return chance(15) ? flip_case(c) : c;
}

static uint8_t rand_text_byte(const tcase *c) {
    if (c->ak == AK_IUPAC || c->ak == AK_NUC_BYTES) return rand_dna_mix(&DNA_SOFTMASKED);
    return rand_sym(c);
}

static uint8_t rand_pat_byte(const tcase *c) {
    switch (c->ak) {
    case AK_UNARY: return chance(5) ? 'b' : 'a';
    case AK_IUPAC:
    case AK_NUC_BYTES: {
        uint8_t x = chance(75) ? (uint8_t) "ACGT"[below(4)]
                               : (uint8_t)IUPAC_CODES[below(sizeof IUPAC_CODES - 1)];
        return chance(15) ? flip_case(x) : x;
    }
    default: return rand_sym(c);
    }
}

/* Copy src (len) with up to `edits` random edits into dst (capacity cap);
** returns the new length. Hamming cases get substitutions only, so that a
** planted copy keeps the pattern's length. */
static size_t mutate(const tcase *c, const uint8_t *src, size_t len, size_t edits, uint8_t *dst,
                     size_t cap) {
    size_t n = 0;
    int subs_only = c->o.metric == WM_METRIC_HAMMING;
    /* choose edit positions by a per-byte chance that gives about `edits` */
    for (size_t i = 0; i < len && n < cap; i++) {
        int op = -1;
        if (edits > 0 && below(len) < edits) {
            op = subs_only ? 0 : (int)below(3);
            edits--;
        }
        if (op == 0) { /* substitute */
            dst[n++] = rand_text_byte(c);
        } else if (op == 1) { /* delete */
        } else if (op == 2) { /* insert */
            dst[n++] = rand_text_byte(c);
            if (n < cap) dst[n++] = src[i];
        } else {
            dst[n++] = src[i];
        }
    }
    return n;
}

/* The reverse complement of an IUPAC string (as the oracle defines it). */
static void revcomp_str(const uint8_t *p, size_t m, uint8_t *out) {
    for (size_t i = 0; i < m; i++) {
        uint8_t x = oracle_iupac_complement(p[m - 1 - i]);
        out[i] = x ? x : p[m - 1 - i];
    }
}

/* Write an occurrence of the pattern (or its reverse complement), with up to
** k edits, into the text at `pos` (clipped at the text's end). */
static void plant(tcase *c, size_t pos, int strand) {
    size_t m = c->m;
    uint8_t *src = malloc(m), *tmp = malloc(2 * m + 2);
    assert(src && tmp);
    if (strand) revcomp_str(c->pat, m, src);
    else memcpy(src, c->pat, m);
    if (c->ak == AK_IUPAC) /* codes -> bases */
        for (size_t i = 0; i < m; i++) src[i] = instantiate_code(src[i]);
    else if (c->o.case_insensitive)
        for (size_t i = 0; i < m; i++)
            if (chance(30)) src[i] = flip_case(src[i]);
    size_t k = c->o.max_edits;
    size_t edits = k == 0 ? 0 : below(k + 1 < 4 ? k + 1 : (chance(70) ? 3 : k + 1));
    size_t len = mutate(c, src, m, edits, tmp, 2 * m + 2);
    for (size_t i = 0; i < len && pos + i < c->n; i++) c->text[pos + i] = tmp[i];
    free(src);
    free(tmp);
}

static size_t pick_m(void) {
    static const size_t special[] = { 31, 32, 33, 63, 64, 65, 127, 128, 129 };
    uint64_t r = below(100);
    if (r < 40) return (size_t)range(1, 16);
    if (r < 70) return (size_t)range(17, 70);
    if (r < 88) return special[below(N_OF(special))];
    return (size_t)range(71, 300);
}

static uint32_t pick_k(size_t m) {
    uint64_t r = below(100);
    uint64_t k;
    if (r < 35) k = 0;
    else if (r < 70) k = range(1, 4);
    else if (r < 82) k = m - 1 - below(3 < m ? 3 : m); /* near m-1 */
    else k = below(m);
    if (k >= m) k = m - 1;
    return (uint32_t)k;
}

static size_t pick_n(void) {
    static const span_t N[] = {
        { 30, 0, 0 },        { 300, 1, 100 },       { 700, 101, 1000 },
        { 975, 1001, 5000 }, { 1000, 5001, 50000 },
    };
    return (size_t)pick_span(N, N_OF(N), 1000);
}

/* Rough operation count of the oracle on this case: the DP is n*m per strand,
** and each hit costs m*(m+k) for its start; guess the share of ends that hit. */
static double oracle_cost(size_t n, size_t m, size_t k, int strands, int dense) {
    double hit = dense ? 1.0 : (k == 0 ? 0.02 : (4 * k < m ? 0.1 : (2 * k < m ? 0.4 : 1.0)));
    double per_end = (double)m;
    if (k > 0 || dense) per_end += hit * (double)m * (double)(m + k);
    else per_end += hit * (double)m;
    return (double)strands * (double)n * per_end;
}

#define ORACLE_BUDGET 6e6

/* Put a pattern occurrence at the start or end of a random record, at a
** random place, or across a record border. */
static void plant_some(tcase *c, int strand) {
    if (c->n == 0) return;
    size_t count = (size_t)below(6);
    for (size_t j = 0; j < count; j++) {
        size_t pos = plant_pos(c->n, c->rec_start, c->n_rec, c->m);
        if (pos < c->n) plant(c, pos, strand);
    }
}

static void gen_case(tcase *c) {
    memset(c, 0, sizeof *c);
    c->o = wm_opts_default();
    static const weighted_t KINDS[] = {
        { AK_UNARY, 3 },    { AK_BIN, 18 },   { AK_DNA4, 33 },       { AK_PROT20, 46 },
        { AK_BYTE256, 60 }, { AK_IUPAC, 85 }, { AK_NUC_BYTES, 100 },
    };
    c->ak = (alpha_kind)pick_weighted(KINDS, N_OF(KINDS));

    switch (c->ak) {
    case AK_UNARY:
        c->sym = (const uint8_t *)"a";
        c->n_sym = 1;
        break;
    case AK_BIN:
        c->sym = (const uint8_t *)(chance(50) ? "ab" : "\x00\xff");
        c->n_sym = 2;
        break;
    case AK_DNA4:
        c->sym = (const uint8_t *)"ACGT";
        c->n_sym = 4;
        break;
    case AK_PROT20:
        c->sym = (const uint8_t *)"ACDEFGHIKLMNPQRSTVWY";
        c->n_sym = 20;
        break;
    case AK_BYTE256:
        for (int i = 0; i < 256; i++) c->sym256[i] = (uint8_t)i;
        c->sym = c->sym256;
        c->n_sym = 256;
        break;
    default:
        c->sym = (const uint8_t *)"ACGT";
        c->n_sym = 4;
        break;
    }

    c->o.metric = chance(35) ? WM_METRIC_HAMMING : WM_METRIC_EDIT;
    if (c->ak == AK_IUPAC) {
        c->o.alphabet = WM_ALPHABET_DNA;
        c->o.revcomp = chance(40);
        c->o.case_insensitive = chance(10); /* no effect on DNA; must be harmless */
    } else if (c->ak == AK_NUC_BYTES) {
        c->o.revcomp = 1;
        c->o.case_insensitive = chance(40);
    } else {
        c->o.case_insensitive = chance(25);
    }
    int strands = c->o.revcomp ? 2 : 1;

    /* sizes */
    int scenario = (int)below(100); /* < 6: pattern = text; < 10: pattern longer than text */
    c->m = pick_m();
    c->o.max_edits = pick_k(c->m);
    c->periodic = chance(10);
    if (scenario < 10) {
        c->n = scenario < 6 ? c->m : (c->m > 1 ? (size_t)below(c->m) : 0);
    } else {
        c->n = pick_n();
    }
    while (c->n > 16 &&
           oracle_cost(c->n, c->m, c->o.max_edits, strands, c->periodic) > ORACLE_BUDGET)
        c->n /= 2;

    /* text */
    c->text = malloc(c->n + 1);
    c->pat = malloc(c->m);
    assert(c->text && c->pat);
    if (c->periodic) {
        size_t period = (size_t)range(1, 4);
        uint8_t unit[4];
        for (size_t i = 0; i < period; i++) unit[i] = rand_text_byte(c);
        for (size_t i = 0; i < c->n; i++) c->text[i] = unit[i % period];
        for (size_t i = 0; i < c->n; i++) /* a few defects */
            if (chance(1)) c->text[i] = rand_text_byte(c);
    } else if (c->ak == AK_BYTE256 && chance(50)) {
        for (size_t i = 0; i < c->n; i++) /* letters-heavy bytes: folding matters */
            c->text[i] = chance(80) ? (uint8_t)("abcdABCD"[below(8)]) : (uint8_t)below(256);
    } else {
        for (size_t i = 0; i < c->n; i++) c->text[i] = rand_text_byte(c);
    }
    if (c->o.case_insensitive && c->ak != AK_IUPAC)
        for (size_t i = 0; i < c->n; i++)
            if (chance(30)) c->text[i] = flip_case(c->text[i]);

    /* pattern */
    uint64_t ps = below(100);
    if (scenario < 6 && c->n == c->m) { /* pattern = text */
        for (size_t i = 0; i < c->m; i++) c->pat[i] = c->text[i];
        if (c->ak == AK_IUPAC || c->ak == AK_NUC_BYTES) /* keep it nucleotide */
            for (size_t i = 0; i < c->m; i++)
                if (!oracle_iupac_set(c->pat[i])) c->pat[i] = 'N';
    } else if (ps < 40 && c->n >= c->m && c->ak != AK_IUPAC && c->ak != AK_NUC_BYTES) {
        size_t at = (size_t)below(c->n - c->m + 1); /* a piece of the text */
        memcpy(c->pat, c->text + at, c->m);
    } else if (c->periodic && ps < 70) {
        size_t period = (size_t)range(1, 3);
        uint8_t unit[3];
        for (size_t i = 0; i < period; i++) unit[i] = rand_pat_byte(c);
        for (size_t i = 0; i < c->m; i++) c->pat[i] = unit[i % period];
    } else {
        for (size_t i = 0; i < c->m; i++) c->pat[i] = rand_pat_byte(c);
    }
    /* a nucleotide pattern for the revcomp kinds must stay IUPAC */
    if (c->o.revcomp)
        for (size_t i = 0; i < c->m; i++) assert(oracle_iupac_set(c->pat[i]) != 0);

    c->n_rec = split_records(c->n, c->m, &c->rec_start);
    if (scenario >= 6) {
        plant_some(c, 0);
        if (c->o.revcomp) plant_some(c, 1);
    }
}

static void free_case(tcase *c) {
    free(c->pat);
    free(c->text);
    free(c->rec_start);
}

/* ==== running the library =================================================== */

static const char *metric_name(wm_metric_t mt) {
    return mt == WM_METRIC_HAMMING ? "hamming" : "edit";
}

/* The case, for a failure's report (g_describe). */
static void describe_case(const void *p) {
    const tcase *c = p;
    printf("    alphabet %s, m %zu, k %u, metric %s, case_insensitive %d, revcomp %d,"
           " n %zu, records %zu%s%s\n",
           AK_NAME[c->ak], c->m, c->o.max_edits, metric_name(c->o.metric), c->o.case_insensitive,
           c->o.revcomp, c->n, c->n_rec ? c->n_rec : 1, c->n_rec ? "" : " (rec_start NULL)",
           c->periodic ? ", periodic text" : "");
    printf("    pattern ");
    print_bytes(stdout, c->pat, c->m, g_verbose ? (size_t)-1 : 80);
    printf("\n");
    print_text(c->text, c->n, c->rec_start, c->n_rec);
}

static uint64_t record_len(const tcase *c, uint64_t r) {
    if (c->n_rec == 0) return c->n;
    uint64_t end = r + 1 < c->n_rec ? c->rec_start[r + 1] : c->n;
    return end - c->rec_start[r];
}

static void note_coverage(const tcase *c, const wm_match_t *w, size_t n) {
    int rs = 0, re = 0, e = 0;
    for (size_t i = 0; i < n; i++) {
        rs |= w[i].start == 0;
        re |= w[i].end == record_len(c, w[i].record);
        e |= w[i].errors > 0;
    }
    note_matches(&g_cov, w, n);
    g_cov_search.at_rec_start += rs;
    g_cov_search.at_rec_end += re;
    g_cov_search.errors_gt0 += e;
    g_cov_search.dense += c->n > 0 && n * 2 > c->n;
}

static const wm_algo_t ALGOS[] = { WM_ALGO_AUTO, WM_ALGO_SHIFTOR, WM_ALGO_BITAP, WM_ALGO_MYERS };

static void run_case(long idx, tcase *c, config *cfgs, size_t n_cfg) {
    wm_text_t t = { c->text, c->n, c->rec_start, c->n_rec };
    wm_match_t *want = NULL;
    double t0 = now_s();
    size_t n_want = oracle_search(c->pat, c->m, &c->o, &t, &want);
    double t1 = now_s();
    g_t_oracle += t1 - t0;
    match_vec got = { 0 };
    note_coverage(c, want, n_want);

    for (size_t a = 0; a < N_OF(ALGOS); a++) {
        wm_opts_t o = c->o;
        o.algo = ALGOS[a];
        int valid = !(o.algo == WM_ALGO_SHIFTOR && o.max_edits > 0) &&
                    !(o.algo == WM_ALGO_MYERS && o.metric == WM_METRIC_HAMMING);
        wm_db_t *db = NULL;
        char what[96];
        snprintf(what, sizeof what, "wm_compile(algo %s)", wm_algo_name(o.algo));
        int rc = wm_compile(c->pat, c->m, &o, &db);
        check_case_status(idx, c, what, rc, valid ? WM_OK : WM_INVALID, NULL);
        if (rc != WM_OK) {
            wm_db_free(db);
            continue;
        }
        if (o.algo == WM_ALGO_AUTO && wm_db_algo(db) == WM_ALGO_AUTO)
            fail_msg(idx, c, "wm_db_algo() is AUTO after compiling with AUTO");
        for (size_t i = 0; i < n_cfg; i++) {
            char cfg[160];
            snprintf(cfg, sizeof cfg, "algo %s (db %s), %s", wm_algo_name(o.algo),
                     wm_algo_name(wm_db_algo(db)), cfgs[i].name);
            search_checked(idx, c, cfg, cfgs[i].cx, db, &t, &got, want, n_want, 35, NULL);
        }
        wm_db_free(db);
    }
    g_t_lib += now_s() - t1;

    /* invalid variants of the same case must be refused, not crash */
    if (chance(10)) {
        wm_opts_t o = c->o;
        o.max_edits = (uint32_t)(c->m + below(3));
        wm_db_t *db = NULL;
        int rc = wm_compile(c->pat, c->m, &o, &db);
        check_case_status(idx, c, "wm_compile(k >= m)", rc, WM_K_TOO_LARGE, NULL);
        wm_db_free(rc == WM_OK ? db : NULL);
    }
    if (chance(10) && c->ak != AK_IUPAC && c->ak != AK_NUC_BYTES) {
        int nonnuc = 0;
        for (size_t i = 0; i < c->m; i++)
            if (!oracle_iupac_set(c->pat[i])) nonnuc = 1;
        if (nonnuc) {
            wm_opts_t o = c->o;
            o.revcomp = 1;
            wm_db_t *db = NULL;
            int rc = wm_compile(c->pat, c->m, &o, &db);
            check_case_status(idx, c, "wm_compile(revcomp of a non-nucleotide pattern)", rc,
                              WM_INVALID, NULL);
            wm_db_free(rc == WM_OK ? db : NULL);
        }
    }
    free(got.a);
    free(want);
}

/* ==== main ================================================================== */

/* A tiny chunk (1..100) so that occurrences straddle chunk borders, grown
** where so many chunks would make the run slow (each chunk rescans its
** m + k halo). */
static uint64_t tiny_chunk(const void *p, int gpu) {
    const tcase *c = p;
    uint64_t ch = range(1, 100);
    uint64_t max_chunks = gpu ? 64 : 4000;
    double work =
        (double)(c->m + c->o.max_edits) * (double)(c->o.max_edits + 1) * (double)((c->m + 63) / 64);
    if (work > 2000) max_chunks = max_chunks * 2000 / (uint64_t)work + 8;
    if (c->n / ch > max_chunks) ch = c->n / max_chunks + below(100);
    return ch;
}

/* The contexts every case runs on, besides its own tiny-chunk ones. */
static fixed_set g_fixed;

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
    long n_cases =
        test_begin("test_search_diff", argc, argv, 20240611ull, 1500, describe_case, &only);

    /* 1. the oracle against hand-worked examples and its own definition */
    oracle_hand_examples();
    g_rng = g_seed ^ 0x5eedf00dull;
    for (int i = 0; i < 400 && only < 0; i++) {
        tcase c;
        gen_case(&c);
        if (c.n > 24) c.n = (size_t)below(25);
        if (c.m > 8) {
            c.m = (size_t)range(1, 8);
            if (c.o.max_edits >= c.m) c.o.max_edits = (uint32_t)below(c.m);
        }
        if (c.n_rec)
            for (size_t r = 0; r < c.n_rec; r++)
                if (c.rec_start[r] > c.n) c.rec_start[r] = c.n;
        wm_text_t t = { c.text, c.n, c.rec_start, c.n_rec };
        wm_match_t *a = NULL, *b = NULL;
        size_t na = oracle_search(c.pat, c.m, &c.o, &t, &a);
        size_t nb = oracle_search_naive(c.pat, c.m, &c.o, &t, &b);
        int ok = na == nb;
        for (size_t j = 0; ok && j < na; j++) ok = same_match(&a[j], &b[j]);
        if (!ok) {
            self_fail++;
            print_case(i, &c, "oracle_search differs from oracle_search_naive");
        }
        free(a);
        free(b);
        free_case(&c);
    }
    if (oracle_verdict()) return 1;

    /* 2. contexts: CPU 1 and 3 threads with the default chunk; tiny chunks are
    **    made per case. CUDA likewise when a GPU is there. */
    static const int threads[] = { 1, 3 };
    open_fixed(&g_fixed, threads, N_OF(threads));

    /* 3. the random cases */
    run_cases(n_cases, only, 1, 500, one_case);
    close_configs(g_fixed.cf, g_fixed.n);

    printf("coverage: %ld cases, %" PRIu64 " oracle matches; cases with matches %ld, with"
           " errors > 0 %ld, on strand 1 %ld, starting a record %ld, ending a record %ld,"
           " in record > 0 %ld, dense (> n/2 matches) %ld\n",
           g_cov.cases, g_cov.matches, g_cov.with_matches, g_cov_search.errors_gt0, g_cov.strand1,
           g_cov_search.at_rec_start, g_cov_search.at_rec_end, g_cov.multi_rec, g_cov_search.dense);
    print_time_split();
    printf("\n");
    print_repro(argv[0], NULL);
    return test_finish();
}
