/*
** test_fr_table.c -- the Four-Russians method of paper 001 (src/align/fr.h:
** the lookup table, the direct block, the compute step) against plain DP
** written here, which shares nothing with the library but the encodings
** fr.h defines.
**
** 1. The API around the table: wm_fr_table_get with t outside 1..4
**    (WM_INVALID and a message); wm_align_fr_info (NULL context / info,
**    fr_t -1 and 5, an unknown alphabet: WM_INVALID; fr_t 0 is t = 3;
**    t, key_strings, entries = keys x 9^t and the sizes fr.h lists,
**    bytes = 2 x entries, build_threads within the pool, build_seconds);
**    the context keeps one table per (t, kind); wm_fr_pick_t and
**    wm_fr_pick_strings.
** 2. Every entry of the tables for t = 1, 2, 3, both key kinds, against a
**    full (t+1) x (t+1) DP of the block the entry's index names (key decoded
**    to symbols -- only codes 0..3 exist for the DNA key -- or to the
**    equality matrix; vin / hin decoded to the border with corner 0); for
**    t = 4 a random sample of 1,000,000 entries of each kind (the 860 MB
**    table builds in about a second on 2 cores, so this runs at every
**    scale; one table at a time is alive).
** 3. wm_fr_block_direct on random blocks of 1..t rows and columns (ragged
**    ones included), symbols with equal and unequal bytes, border digits
**    beyond the block's size set at random (they must be ignored): the
**    meaningful digits against the DP, the others +1.
** 4. wm_global_fr on random pairs (1,000 at WM_TEST_SCALE = 1) against a
**    plain O(mn) DP: alphabets of 2 symbols, DNA (lower case, U, N and
**    other bytes that match nothing; the DNA-keyed table, and the
**    match-matrix table on every other pair), 20 amino acids and all 256
**    bytes (with ASCII case folding a quarter of the time); lengths 0..600,
**    most not multiples of t, m != n; unrelated pairs and edited copies.
**    Each pair runs t = 1, 2, 3 (and 4 at WM_TEST_SCALE >= 2) with 1 and 3
**    threads (one table serves both contexts), without a limit (the exact
**    distance) and with limits around the distance (exact when d <= limit,
**    above the limit otherwise), including limits below |m - n|. Then a
**    few longer DNA pairs (up to 3,000 x 3,000) with 3 threads, and the
**    DNA table refused for a bytes query.
**
** Timing at WM_TEST_SCALE = 1 on 2 cores shared with other builds: Release
** about 9 s wall (6 s CPU; 1 to 3 s of the wall is the t = 4 tables, mostly
** the kernel faulting in 860 MB each); ASan + UBSan about 17 s wall.
**
** Usage: test_fr_table [seed]     (or env WM_SEED; default fixed)
** Env:   WM_TEST_SCALE  multiplies the random pairs; >= 2 adds t = 4 to them
**        WM_VERBOSE     print each failing pair in full
** Exit status 0 when every check passed; the last line is "N passed, N failed".
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align/fr.h"
#include "core/internal.h"
#include "warpmatch.h"

#include "contexts.h"
#include "harness.h"
#include "rng.h"

static unsigned pow3(unsigned e) {
    unsigned p = 1;
    while (e--) p *= 3;
    return p;
}

/* ==== the reference block ================================================== */

/* The block's D from its borders (corner 0, D[i+1][0] = D[i][0] + vin digit
** i - 1, D[0][j+1] = D[0][j] + hin digit j - 1) by the textbook recurrence;
** vout / hout: the right column's and bottom row's differences + 1 as base-3
** numbers of rows / cols digits. eq[i][j]: query symbol i equals target
** symbol j. */
static void ref_block(unsigned char eq[4][4], unsigned rows, unsigned cols, unsigned vin,
                      unsigned hin, unsigned *vout, unsigned *hout) {
    int D[5][5];
    D[0][0] = 0;
    for (unsigned i = 0; i < rows; i++, vin /= 3) D[i + 1][0] = D[i][0] + (int)(vin % 3) - 1;
    for (unsigned j = 0; j < cols; j++, hin /= 3) D[0][j + 1] = D[0][j] + (int)(hin % 3) - 1;
    for (unsigned i = 1; i <= rows; i++)
        for (unsigned j = 1; j <= cols; j++) {
            int best = D[i - 1][j - 1] + (eq[i - 1][j - 1] ? 0 : 1);
            if (D[i - 1][j] + 1 < best) best = D[i - 1][j] + 1;
            if (D[i][j - 1] + 1 < best) best = D[i][j - 1] + 1;
            D[i][j] = best;
        }
    *vout = 0;
    for (unsigned i = rows; i-- > 0;)
        *vout = *vout * 3 + (unsigned)(D[i + 1][cols] - D[i][cols] + 1);
    *hout = 0;
    for (unsigned j = cols; j-- > 0;)
        *hout = *hout * 3 + (unsigned)(D[rows][j + 1] - D[rows][j] + 1);
}

/* The equalities a key names. DNA key: key = qk * 4^t + yk, 2-bit codes,
** symbol i of the query in bits 2i of qk. Matrix key: bit i * t + j. */
static void key_to_eq(uint64_t key, unsigned t, int strings, unsigned char eq[4][4]) {
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            if (strings) {
                unsigned q = (unsigned)(key >> (2 * t + 2 * i)) & 3u;
                unsigned y = (unsigned)(key >> (2 * j)) & 3u;
                eq[i][j] = q == y;
            } else {
                eq[i][j] = (key >> (i * t + j)) & 1u;
            }
        }
}

/* ==== 1. the API ============================================================ */

static void test_api(void) {
    wm_context_t *cx = cpu_context(3, 0);
    static const wm_fr_table_t not_a_table;
    const wm_fr_table_t *tab = &not_a_table; /* must be overwritten with NULL */
    CHECK(wm_fr_table_get(cx, 0, 1, &tab) == WM_INVALID, "t = 0");
    CHECK(tab == NULL, "t = 0 leaves a table");
    CHECK(strlen(wm_context_errmsg(cx)) > 0, "t = 0 without a message");
    CHECK(wm_fr_table_get(cx, WM_FR_MAX_T + 1, 0, &tab) == WM_INVALID, "t = 5");

    wm_fr_info_t info;
    wm_align_opts_t o = wm_align_opts_default();
    CHECK(wm_align_fr_info(NULL, &o, &info) == WM_INVALID, "NULL context");
    CHECK(wm_align_fr_info(cx, &o, NULL) == WM_INVALID, "NULL info");
    o.fr_t = -1;
    CHECK(wm_align_fr_info(cx, &o, &info) == WM_INVALID, "fr_t = -1");
    o.fr_t = WM_FR_MAX_T + 1;
    CHECK(wm_align_fr_info(cx, &o, &info) == WM_INVALID, "fr_t = 5");
    o.fr_t = 1;
    o.alphabet = (wm_alphabet_t)7;
    CHECK(wm_align_fr_info(cx, &o, &info) == WM_INVALID, "alphabet 7");

    /* The sizes fr.h lists, by t and kind (strings, matrix). */
    static const uint64_t want_entries[4][2] = {
        { 144, 18 }, { 20736, 1296 }, { 2985984, 373248 }, { 429981696, 429981696 }
    };
    o = wm_align_opts_default();
    CHECK(wm_fr_pick_t(&o) == 3, "fr_t 0 picks %u", wm_fr_pick_t(&o));
    CHECK(wm_align_fr_info(cx, NULL, &info) == WM_OK, "NULL options are the defaults");
    CHECK(info.t == 3 && info.key_strings == 0 && info.entries == want_entries[2][1],
          "defaults: t %u strings %d entries %" PRIu64, info.t, info.key_strings, info.entries);
    for (int fr_t = 1; fr_t <= 3; fr_t++)
        for (int dna = 0; dna <= 1; dna++) {
            o.fr_t = fr_t;
            o.alphabet = dna ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
            CHECK(wm_fr_pick_t(&o) == (unsigned)fr_t, "pick_t %d", fr_t);
            memset(&info, 0xff, sizeof info);
            CHECK(wm_align_fr_info(cx, &o, &info) == WM_OK, "info t %d dna %d: %s", fr_t, dna,
                  wm_context_errmsg(cx));
            uint64_t keys = dna ? 1ull << (4 * fr_t) : 1ull << (fr_t * fr_t);
            uint64_t p3 = pow3((unsigned)fr_t);
            CHECK(info.t == (unsigned)fr_t && info.key_strings == dna, "t %u strings %d", info.t,
                  info.key_strings);
            CHECK(info.entries == keys * p3 * p3 && info.entries == want_entries[fr_t - 1][!dna],
                  "t %d dna %d: entries %" PRIu64, fr_t, dna, info.entries);
            CHECK(info.bytes == 2 * info.entries, "bytes %" PRIu64, info.bytes);
            CHECK(info.build_threads >= 1 && info.build_threads <= 3, "build_threads %d",
                  info.build_threads);
            CHECK(info.build_seconds >= 0 && info.build_seconds < 60, "build_seconds %g",
                  info.build_seconds);
            /* The context keeps the table: the same one comes back. */
            const wm_fr_table_t *a = NULL, *b = NULL;
            CHECK(wm_fr_table_get(cx, (unsigned)fr_t, dna, &a) == WM_OK && a != NULL, "get");
            CHECK(wm_fr_table_get(cx, (unsigned)fr_t, dna, &b) == WM_OK && a == b, "cached");
            if (a) {
                CHECK(a->t == (unsigned)fr_t && a->strings == dna && a->pow3 == p3 &&
                          a->n_keys == keys && a->entries == info.entries && a->out != NULL &&
                          a->build_seconds == info.build_seconds,
                      "table fields t %d dna %d", fr_t, dna);
            }
        }

    wm_aq_t aq;
    o = wm_align_opts_default();
    o.alphabet = WM_ALPHABET_DNA;
    CHECK(wm_aq_make(&aq, (const uint8_t *)"ACGT", 4, &o) == WM_OK, "aq");
    CHECK(wm_fr_pick_strings(&aq) == 1, "DNA picks the DNA key");
    wm_aq_free(&aq);
    o.alphabet = WM_ALPHABET_BYTES;
    CHECK(wm_aq_make(&aq, (const uint8_t *)"ACGT", 4, &o) == WM_OK, "aq");
    CHECK(wm_fr_pick_strings(&aq) == 0, "bytes pick the matrix key");
    wm_aq_free(&aq);
    wm_context_free(cx);
}

/* ==== 2. the tables ========================================================= */

/* Entry idx of tab against the reference block; returns 1 when equal. */
static int check_entry(const wm_fr_table_t *tab, uint64_t idx) {
    unsigned t = tab->t, p3 = tab->pow3;
    unsigned hin = (unsigned)(idx % p3), vin = (unsigned)(idx / p3 % p3);
    uint64_t key = idx / p3 / p3;
    unsigned char eq[4][4];
    key_to_eq(key, t, tab->strings, eq);
    unsigned vout, hout;
    ref_block(eq, t, t, vin, hin, &vout, &hout);
    unsigned want = vout | hout << 8, got = tab->out[idx];
    if (got != want && g_failed < MAX_DETAILED_FAILURES)
        printf("  t %u %s key %" PRIu64 " vin %u hin %u: table %u/%u, DP %u/%u\n", t,
               tab->strings ? "dna" : "matrix", key, vin, hin, got & 0xffu, got >> 8, vout, hout);
    return got == want;
}

static void test_tables(void) {
    wm_context_t *cx = cpu_context(3, 0);
    for (unsigned t = 1; t <= 3; t++)
        for (int strings = 0; strings <= 1; strings++) {
            const wm_fr_table_t *tab = NULL;
            wm_status st = wm_fr_table_get(cx, t, strings, &tab);
            CHECK(st == WM_OK, "table t %u strings %d: %s", t, strings, wm_context_errmsg(cx));
            if (st != WM_OK) continue;
            uint64_t bad = 0;
            for (uint64_t idx = 0; idx < tab->entries; idx++) bad += !check_entry(tab, idx);
            CHECK(bad == 0, "t %u strings %d: %" PRIu64 " of %" PRIu64 " entries wrong", t, strings,
                  bad, tab->entries);
        }
    wm_context_free(cx);

    /* t = 4: one table at a time (860 MB each). */
    for (int strings = 0; strings <= 1; strings++) {
        cx = cpu_context(3, 0);
        const wm_fr_table_t *tab = NULL;
        double t0 = now_s();
        wm_status st = wm_fr_table_get(cx, 4, strings, &tab);
        CHECK(st == WM_OK, "table t 4 strings %d: %s", strings, wm_context_errmsg(cx));
        if (st == WM_OK) {
            printf("t = 4 %s table: built in %.2f s on %d threads (%.2f s with this check)\n",
                   strings ? "DNA" : "matrix", tab->build_seconds, tab->build_threads,
                   now_s() - t0);
            uint64_t bad = 0;
            for (int k = 0; k < 1000000; k++) bad += !check_entry(tab, below(tab->entries));
            /* The first and last entries of the first and last keys, too. */
            for (uint64_t k = 0; k < 9 * 9 * 9 * 9; k++) {
                bad += !check_entry(tab, k);
                bad += !check_entry(tab, tab->entries - 1 - k);
            }
            CHECK(bad == 0, "t 4 strings %d: %" PRIu64 " sampled entries wrong", strings, bad);
        }
        wm_context_free(cx);
    }
}

/* ==== 3. the direct block =================================================== */

static void test_block_direct(void) {
    wm_align_opts_t o = wm_align_opts_default();
    wm_aq_t aq;
    if (wm_aq_make(&aq, (const uint8_t *)"", 0, &o) != WM_OK) {
        CHECK(0, "aq");
        return;
    }
    long bad = 0, n = 0;
    for (unsigned t = 1; t <= 4; t++)
        for (int k = 0; k < 20000; k++) {
            unsigned rows = (unsigned)range(1, t), cols = (unsigned)range(1, t);
            uint8_t xs[4], ys[4];
            unsigned sigma = (unsigned)range(1, 4);
            for (unsigned i = 0; i < 4; i++) {
                xs[i] = (uint8_t)('a' + below(sigma));
                ys[i] = (uint8_t)('a' + below(sigma));
            }
            unsigned char eq[4][4];
            for (unsigned i = 0; i < 4; i++)
                for (unsigned j = 0; j < 4; j++) eq[i][j] = xs[i] == ys[j];
            /* Digits past rows / cols are noise the block must ignore. */
            unsigned vin = (unsigned)below(81), hin = (unsigned)below(81);
            unsigned vout, hout, want_v, want_h;
            wm_fr_block_direct(&aq, xs, rows, ys, cols, vin, hin, &vout, &hout);
            ref_block(eq, rows, cols, vin, hin, &want_v, &want_h);
            unsigned width = rows > cols ? rows : cols;
            int ok = vout % pow3(rows) == want_v && hout % pow3(cols) == want_h &&
                     vout < pow3(width) && hout < pow3(width);
            for (unsigned i = rows; i < width; i++) ok &= vout / pow3(i) % 3 == 2;
            for (unsigned j = cols; j < width; j++) ok &= hout / pow3(j) % 3 == 2;
            if (!ok && bad < 5)
                printf("  direct t %u rows %u cols %u vin %u hin %u: %u/%u, DP %u/%u\n", t, rows,
                       cols, vin, hin, vout, hout, want_v, want_h);
            bad += !ok;
            n++;
        }
    CHECK(bad == 0, "%ld of %ld direct blocks wrong", bad, n);
    wm_aq_free(&aq);
}

/* ==== 4. the compute step =================================================== */

/* Which bytes are equal, decided here: class[c] < 0 matches nothing. */
typedef struct {
    int dna, fold;
    int cls[256];
} eqdef_t;

static void eqdef_make(eqdef_t *e, int dna, int fold) {
    e->dna = dna;
    e->fold = fold;
    for (int c = 0; c < 256; c++) {
        if (dna) {
            switch (c) {
            case 'A':
            case 'a': e->cls[c] = 0; break;
            case 'C':
            case 'c': e->cls[c] = 1; break;
            case 'G':
            case 'g': e->cls[c] = 2; break;
            case 'T':
            case 't':
            case 'U':
            case 'u': e->cls[c] = 3; break;
            default: e->cls[c] = -1;
            }
        } else {
            e->cls[c] = fold && c >= 'a' && c <= 'z' ? c - 32 : c;
        }
    }
}

/* D[m][n] by the plain DP, two rows. */
static uint64_t plain_dp(const eqdef_t *e, const uint8_t *x, size_t m, const uint8_t *y, size_t n) {
    uint64_t *prev = malloc((n + 1) * sizeof *prev), *cur = malloc((n + 1) * sizeof *cur);
    if (!prev || !cur) {
        printf("out of memory\n");
        exit(2);
    }
    for (size_t j = 0; j <= n; j++) prev[j] = j;
    for (size_t i = 1; i <= m; i++) {
        cur[0] = i;
        int cx = e->cls[x[i - 1]];
        for (size_t j = 1; j <= n; j++) {
            uint64_t best = prev[j - 1] + (cx >= 0 && cx == e->cls[y[j - 1]] ? 0 : 1);
            if (prev[j] + 1 < best) best = prev[j] + 1;
            if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
            cur[j] = best;
        }
        uint64_t *tmp = prev;
        prev = cur;
        cur = tmp;
    }
    uint64_t d = prev[n];
    free(prev);
    free(cur);
    return d;
}

enum { ALPHA_BINARY, ALPHA_DNA, ALPHA_AMINO, ALPHA_BYTES, N_ALPHA };
static const char *const ALPHA_NAME[N_ALPHA] = { "binary", "dna", "amino", "bytes" };

static uint8_t random_symbol(int alpha, int variant) {
    static const char amino[] = "ACDEFGHIKLMNPQRSTVWY";
    switch (alpha) {
    case ALPHA_BINARY: return variant ? (uint8_t)below(2) : (uint8_t)("ab"[below(2)]);
    case ALPHA_DNA: {
        unsigned r = (unsigned)below(100);
        if (r < 80) return (uint8_t)("ACGT"[below(4)]);
        if (r < 90) return (uint8_t)("acgt"[below(4)]);
        if (r < 94) return (uint8_t)("Uu"[below(2)]);
        if (r < 98) return (uint8_t)("Nn"[below(2)]);
        return (uint8_t)("RYKM-*\0\xff"[below(8)]);
    }
    case ALPHA_AMINO: return (uint8_t)amino[below(20)];
    default:
        /* Letter-heavy half the time, so that case folding has work. */
        return variant ? (uint8_t)("aAbBcCzZ"[below(8)]) : (uint8_t)below(256);
    }
}

static void print_seq(const char *name, const uint8_t *s, size_t n) {
    printf("    %s = \"", name);
    for (size_t i = 0; i < n; i++)
        printf(s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' && s[i] != '\\' ? "%c" : "\\x%02x", s[i]);
    printf("\"\n");
}

typedef struct {
    long pairs, runs, limited, stopped_above, exact_under_limit, dna_matrix, parallel;
} cov_t;
static cov_t g_cov;

/* One run of wm_global_fr; checks the result against d (exact, or above limit). */
static void run_one(wm_context_t *cx, int threads, const wm_aq_t *aq, const uint8_t *y, size_t n,
                    const wm_fr_table_t *tab, int64_t limit, uint64_t d, long case_no,
                    const char *alpha) {
    uint64_t got = UINT64_MAX;
    wm_status st = wm_global_fr(cx, aq, y, n, tab, limit, &got);
    int ok = st == WM_OK && (limit < 0 || d <= (uint64_t)limit ? got == d : got > (uint64_t)limit);
    g_cov.runs++;
    g_cov.limited += limit >= 0;
    g_cov.stopped_above += limit >= 0 && d > (uint64_t)limit;
    g_cov.exact_under_limit += limit >= 0 && d <= (uint64_t)limit;
    CHECK(ok,
          "case %ld (%s, m %zu, n %zu, t %u, %s key, %d threads, limit %" PRId64 "): got %" PRIu64
          " (status %d), DP %" PRIu64,
          case_no, alpha, aq->m, n, tab->t, tab->strings ? "DNA" : "matrix", threads, limit, got,
          (int)st, d);
    if (!ok && g_verbose) {
        print_seq("query", aq->q, aq->m);
        print_seq("target", y, n);
    }
}

/* A length 0..600: some empty, many short, most not a multiple of t. */
static size_t random_length(void) {
    unsigned r = (unsigned)below(100);
    if (r < 4) return 0;
    if (r < 25) return (size_t)range(1, 20);
    if (r < 65) return (size_t)range(1, 200);
    return (size_t)range(1, 600);
}

static void edit_copy(const uint8_t *x, size_t m, uint8_t *y, size_t *n, size_t cap, int alpha,
                      int variant, unsigned rate_pct) {
    size_t k = 0;
    for (size_t i = 0; i < m && k < cap; i++) {
        if (!chance(rate_pct)) {
            y[k++] = x[i];
            continue;
        }
        switch (below(3)) {
        case 0: y[k++] = random_symbol(alpha, variant); break; /* substitution */
        case 1: break;                                         /* deletion */
        default:                                               /* insertion */
            y[k++] = random_symbol(alpha, variant);
            if (k < cap) y[k++] = x[i];
        }
    }
    *n = k;
}

static void test_pairs(double scale, wm_context_t *cx1, wm_context_t *cx3) {
    unsigned t_max = scale >= 2 ? 4 : 3;
    const wm_fr_table_t *tabs[WM_FR_MAX_T + 1][2] = { { 0 } };
    for (unsigned t = 1; t <= t_max; t++)
        for (int s = 0; s <= 1; s++)
            if (wm_fr_table_get(cx3, t, s, &tabs[t][s]) != WM_OK) {
                CHECK(0, "table t %u strings %d: %s", t, s, wm_context_errmsg(cx3));
                return;
            }

    long n_pairs = (long)(1000 * scale);
    uint8_t *x = malloc(1300), *y = malloc(1300);
    for (long c = 0; c < n_pairs; c++) {
        int alpha = (int)below(N_ALPHA), variant = (int)below(2);
        int fold = alpha == ALPHA_BYTES && chance(25);
        size_t m = random_length(), n;
        for (size_t i = 0; i < m; i++) x[i] = random_symbol(alpha, variant);
        if (m > 0 && chance(50)) {
            edit_copy(x, m, y, &n, 1300, alpha, variant, (unsigned)range(1, 30));
        } else {
            n = random_length();
            for (size_t i = 0; i < n; i++) y[i] = random_symbol(alpha, variant);
        }
        wm_align_opts_t o = wm_align_opts_default();
        o.alphabet = alpha == ALPHA_DNA ? WM_ALPHABET_DNA : WM_ALPHABET_BYTES;
        o.case_insensitive = fold || (alpha == ALPHA_DNA && chance(50));
        wm_aq_t aq;
        if (wm_aq_make(&aq, x, m, &o) != WM_OK) {
            CHECK(0, "aq");
            break;
        }
        eqdef_t e;
        eqdef_make(&e, alpha == ALPHA_DNA, fold);
        uint64_t d = plain_dp(&e, x, m, y, n);
        uint64_t gap = m > n ? m - n : n - m;
        g_cov.pairs++;
        for (unsigned t = 1; t <= t_max; t++) {
            int strings = wm_fr_pick_strings(&aq);
            /* DNA through the match matrix too, on every other pair. */
            for (int pass = 0; pass < (alpha == ALPHA_DNA && c % 2 ? 2 : 1); pass++) {
                const wm_fr_table_t *tab = tabs[t][pass ? 0 : strings];
                g_cov.dna_matrix += pass;
                uint64_t blocks = ((m + t - 1) / t) * ((n + t - 1) / t);
                g_cov.parallel += blocks >= 1024 && (m + t - 1) / t > 8; /* > 1 stripe */
                run_one(cx1, 1, &aq, y, n, tab, -1, d, c, ALPHA_NAME[alpha]);
                run_one(cx3, 3, &aq, y, n, tab, -1, d, c, ALPHA_NAME[alpha]);
                /* Limits around d, below |m - n|, and anywhere. */
                int64_t limits[4];
                limits[0] = d > 0 ? (int64_t)d - 1 : 0;
                limits[1] = (int64_t)d;
                limits[2] = (int64_t)(d + below(3));
                limits[3] = gap > 0 && chance(30) ? (int64_t)below(gap) : (int64_t)below(d + 5);
                for (int k = 0; k < 4; k++)
                    run_one(k % 2 ? cx3 : cx1, k % 2 ? 3 : 1, &aq, y, n, tab, limits[k], d, c,
                            ALPHA_NAME[alpha]);
            }
        }
        wm_aq_free(&aq);
    }

    /* Longer DNA pairs: many groups of block rows in flight on 3 threads. */
    for (int c = 0; c < 3; c++) {
        size_t m = (size_t)range(1500, 3000), n;
        uint8_t *lx = malloc(m), *ly = malloc(2 * m + 16);
        for (size_t i = 0; i < m; i++) lx[i] = random_symbol(ALPHA_DNA, 0);
        edit_copy(lx, m, ly, &n, 2 * m + 16, ALPHA_DNA, 0, 10);
        wm_align_opts_t o = wm_align_opts_default();
        o.alphabet = WM_ALPHABET_DNA;
        wm_aq_t aq;
        if (wm_aq_make(&aq, lx, m, &o) == WM_OK) {
            eqdef_t e;
            eqdef_make(&e, 1, 0);
            uint64_t d = plain_dp(&e, lx, m, ly, n);
            for (unsigned t = 1; t <= 3; t++) {
                run_one(cx3, 3, &aq, ly, n, tabs[t][1], -1, d, -1 - c, "dna long");
                run_one(cx3, 3, &aq, ly, n, tabs[t][1], (int64_t)d - 1, d, -1 - c, "dna long");
                run_one(cx1, 1, &aq, ly, n, tabs[t][0], (int64_t)d, d, -1 - c, "dna long");
            }
            wm_aq_free(&aq);
        }
        free(lx);
        free(ly);
    }

    /* The DNA key needs the DNA alphabet. */
    wm_align_opts_t o = wm_align_opts_default();
    wm_aq_t aq;
    if (wm_aq_make(&aq, (const uint8_t *)"ACGTACGT", 8, &o) == WM_OK) {
        uint64_t got = 0;
        CHECK(wm_global_fr(cx1, &aq, (const uint8_t *)"ACGT", 4, tabs[2][1], -1, &got) ==
                  WM_INVALID,
              "DNA table with a bytes query");
        wm_aq_free(&aq);
    }
    free(x);
    free(y);
}

int main(int argc, char **argv) {
    long only = -1;
    test_begin("test_fr_table", argc, argv, 20240701ull, 1000, NULL, &only);
    double scale = g_scale, t0 = g_t_start;
    g_rng = g_seed;

    test_api();
    part_done("api");
    test_tables();
    part_done("tables");
    test_block_direct();
    wm_context_t *cx1 = cpu_context(1, 0), *cx3 = cpu_context(3, 0);
    test_pairs(scale, cx1, cx3);
    wm_context_free(cx1);
    wm_context_free(cx3);
    printf("pairs: %ld, runs %ld (limited %ld: %ld above the limit, %ld exact), DNA through "
           "the matrix %ld, on the parallel path %ld (%.1f s)\n",
           g_cov.pairs, g_cov.runs, g_cov.limited, g_cov.stopped_above, g_cov.exact_under_limit,
           g_cov.dna_matrix, g_cov.parallel, now_s() - t0);
    return test_finish();
}
