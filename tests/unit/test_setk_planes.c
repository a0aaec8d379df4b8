/*
** test_setk_planes.c -- direct Hamming patterns of a set scanned together
** (src/setk/planes.c) and through each group's pigeonhole index
** (planes_index.c), against a brute force of the contract written here:
** for each record, end, pattern and strand, the m bytes before the end with
** every exact position (the regions: exact_prefix, exact_suffix, swapped on
** strand 1) matching and at most k mismatches elsewhere; a pattern's IUPAC
** code accepts its bases, a text byte that is no base matches nothing.
**
** Sets are guide-like: groups of one shape (length, PAM) by the hundred so
** that the default rule builds an index, with IUPAC codes (now and then
** whole blocks of N, past what the index lists), duplicates, both strands;
** texts of soft-masked DNA with N runs, IUPAC and junk bytes, several
** records, and planted copies with up to k + 2 substitutions. Every case
** runs with the index off (-1), by the default rule (0) and on every group
** (1), with SIMD held to SSE2 (the popcnt and plain builds) and, where a
** GPU is found, on CUDA: each list equals the brute force's.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "harness.h"
#include "matches.h"
#include "oracle.h"
#include "rng.h"
#include "warpmatch.h"

#define MAX_M 64

typedef struct {
    wm_opts_t o;
    size_t np;
    uint8_t (*pat)[MAX_M];
    size_t *len;
    uint8_t *text;
    size_t n;
    uint64_t rec[5];
    size_t n_rec;
} tcase;

static const char BASES[] = "ACGT", CODES[] = "RYSWKMBDHVN";

static uint8_t rand_base(void) { return (uint8_t)BASES[below(4)]; }

/* ---- the brute force ---------------------------------------------------------- */

static void brute(const tcase *c, match_vec *out) {
    uint32_t k = c->o.max_edits, strands = c->o.revcomp ? 2 : 1;
    for (size_t r = 0; r < c->n_rec; r++) {
        uint64_t rb = c->rec[r], re = r + 1 < c->n_rec ? c->rec[r + 1] : c->n;
        for (size_t i = 0; i < c->np; i++) {
            size_t m = c->len[i];
            for (uint32_t s = 0; s < strands; s++) {
                uint8_t q[MAX_M];
                for (size_t j = 0; j < m; j++)
                    q[j] = s ? oracle_iupac_complement(c->pat[i][m - 1 - j]) : c->pat[i][j];
                size_t pre = s ? c->o.exact_suffix : c->o.exact_prefix,
                       suf = s ? c->o.exact_prefix : c->o.exact_suffix;
                for (uint64_t e = rb + m; e <= re; e++) {
                    const uint8_t *w = c->text + e - m;
                    uint32_t errors = 0;
                    size_t j = 0;
                    for (; j < m; j++) {
                        if (oracle_char_match(q[j], w[j], &c->o)) continue;
                        if (j < pre || j >= m - suf || ++errors > k) break;
                    }
                    if (j < m) continue;
                    wm_match_t mt = { r, e - m - rb, e - rb, errors, s, (uint32_t)i };
                    collect(&mt, out);
                }
            }
        }
    }
    sort_matches(out->a, out->n);
}

/* ---- cases ------------------------------------------------------------------------ */

static void gen_case(tcase *c) {
    memset(c, 0, sizeof *c);
    c->o = wm_opts_default();
    c->o.alphabet = WM_ALPHABET_DNA;
    c->o.metric = WM_METRIC_HAMMING;
    c->o.revcomp = chance(60);
    static const char *PAMS[] = { "", "NGG", "NRG", "GG", "TTTV" };
    const char *pam = PAMS[below(N_OF(PAMS))];
    size_t pl = strlen(pam);
    if (pl) c->o.exact_suffix = (uint32_t)pl;
    if (chance(20)) c->o.exact_prefix = (uint32_t)range(1, 3);
    uint32_t regions = c->o.exact_prefix + c->o.exact_suffix;
    c->o.max_edits = (uint32_t)range(1, 6); /* k = 0 takes no IUPAC codes */
    /* one to three shapes, each by the dozen or the hundred */
    size_t shapes = (size_t)range(1, 3), most = (size_t)range(1, 3) * 200;
    c->pat = malloc(most * sizeof *c->pat);
    c->len = malloc(most * sizeof *c->len);
    if (!c->pat || !c->len) abort();
    for (size_t sh = 0; sh < shapes; sh++) {
        size_t m = (size_t)range(regions + c->o.max_edits + 1, chance(70) ? 30 : MAX_M);
        if (m < regions + c->o.max_edits + 1) m = regions + c->o.max_edits + 1;
        size_t count = chance(50) ? (size_t)range(64, 200) : (size_t)range(1, 70);
        for (size_t x = 0; x < count && c->np < most; x++) {
            uint8_t *p = c->pat[c->np];
            if (c->np > 0 && chance(3)) { /* a duplicate of an earlier one */
                size_t y = (size_t)below(c->np);
                if (c->len[y] == m) {
                    memcpy(p, c->pat[y], m);
                    c->len[c->np++] = m;
                    continue;
                }
            }
            for (size_t j = 0; j < m; j++)
                p[j] = chance(4) ? (uint8_t)CODES[below(strlen(CODES))] : rand_base();
            if (chance(5)) /* a run of N: more keys than the index lists */
                for (size_t j = (size_t)below(m), e = j + range(2, 6); j < e && j < m; j++)
                    p[j] = 'N';
            if (pl) memcpy(p + m - pl, pam, pl);
            for (uint32_t j = 0; j < c->o.exact_prefix; j++) p[j] = rand_base();
            if (chance(10))
                for (size_t j = 0; j < m; j++) p[j] = (uint8_t)(p[j] | 0x20); /* lower case */
            c->len[c->np++] = m;
        }
    }
    /* the text: records of random DNA with planted copies */
    c->n = (size_t)range(200, c->np > 300 ? 6000 : 12000);
    c->text = malloc(c->n ? c->n : 1);
    if (!c->text) abort();
    for (size_t j = 0; j < c->n; j++) {
        unsigned r = (unsigned)below(1000);
        c->text[j] = r < 940   ? rand_base()
                     : r < 970 ? (uint8_t)(rand_base() | 0x20)
                     : r < 985 ? 'N'
                     : r < 995 ? (uint8_t)CODES[below(strlen(CODES))]
                               : (uint8_t)below(256);
    }
    for (size_t plant = c->n / 40; plant > 0 && c->np > 0; plant--) {
        size_t i = (size_t)below(c->np), m = c->len[i];
        if (m > c->n) continue;
        size_t at = (size_t)below(c->n - m + 1);
        int rc = c->o.revcomp && chance(50);
        for (size_t j = 0; j < m; j++) {
            uint8_t code = rc ? oracle_iupac_complement(c->pat[i][m - 1 - j]) : c->pat[i][j];
            unsigned set = oracle_iupac_set(code);
            uint8_t b;
            do b = (uint8_t)below(4);
            while (!(set >> b & 1));
            c->text[at + j] = (uint8_t)BASES[b];
        }
        for (uint64_t e = below(c->o.max_edits + 3); e > 0; e--)
            c->text[at + below(m)] = rand_base();
    }
    c->n_rec = (size_t)range(1, 4);
    c->rec[0] = 0;
    for (size_t r = 1; r < c->n_rec; r++)
        c->rec[r] = c->rec[r - 1] + below(c->n - c->rec[r - 1] + 1);
}

static void free_case(tcase *c) {
    free(c->pat);
    free(c->len);
    free(c->text);
}

/* ---- the contexts ------------------------------------------------------------------- */

typedef struct {
    const char *name;
    wm_backend_t backend;
    int threads, rule, sse2;
    uint64_t chunk;
    wm_context_t *cx;
} config_t;

static config_t g_cfg[] = {
    { "cpu, 1 thread, index off", WM_BACKEND_CPU, 1, -1, 0, 0, NULL },
    { "cpu, 1 thread, default rule", WM_BACKEND_CPU, 1, 0, 0, 0, NULL },
    { "cpu, 3 threads, every group, 700-byte chunks", WM_BACKEND_CPU, 3, 1, 0, 700, NULL },
    { "cpu, 2 threads, every group, sse2", WM_BACKEND_CPU, 2, 1, 1, 0, NULL },
    { "cpu, 2 threads, default rule, sse2, 64-byte chunks", WM_BACKEND_CPU, 2, 0, 1, 64, NULL },
    { "cuda", WM_BACKEND_CUDA, 2, 0, 0, 0, NULL },
};

static void open_configs(void) {
    for (size_t x = 0; x < N_OF(g_cfg); x++) {
        config_t *cf = &g_cfg[x];
        wm_context_opts_t co = wm_context_opts_default();
        co.backend = cf->backend;
        co.threads = cf->threads;
        co.chunk_bytes = cf->chunk;
        if (wm_context_new(&co, &cf->cx) != WM_OK) {
            wm_context_free(cf->cx);
            cf->cx = NULL;
            if (cf->backend == WM_BACKEND_CPU) CHECK(0, "%s: no context", cf->name);
            else printf("%s: no GPU here, skipped\n", cf->name);
            continue;
        }
        wm_context_tuning(cf->cx)->planes_index = cf->rule;
        if (cf->sse2) wm_context_tuning(cf->cx)->simd = WM_SIMD_SSE2;
    }
}

static void describe(const void *p) {
    const tcase *c = p;
    printf("    k %u, revcomp %d, exact prefix %u suffix %u, %zu patterns (first %.*s), text %zu"
           " bytes in %zu records\n",
           c->o.max_edits, c->o.revcomp, c->o.exact_prefix, c->o.exact_suffix, c->np,
           (int)c->len[0], (const char *)c->pat[0], c->n, c->n_rec);
}

static void one_case(long idx) {
    tcase c;
    gen_case(&c);
    const uint8_t **pp = malloc(c.np * sizeof *pp);
    if (!pp) abort();
    for (size_t i = 0; i < c.np; i++) pp[i] = c.pat[i];
    wm_db_t *db = NULL;
    wm_status st = wm_compile_set(pp, c.len, c.np, &c.o, &db);
    if (!CHECK(st == WM_OK, "case %ld: compile: %s", idx, wm_strerror(st))) describe(&c);
    match_vec want = { 0 };
    if (db) brute(&c, &want);
    wm_text_t tx = { c.text, c.n, c.rec, c.n_rec };
    for (size_t x = 0; db && x < N_OF(g_cfg); x++) {
        if (!g_cfg[x].cx) continue;
        match_vec got = { 0 };
        st = wm_search(g_cfg[x].cx, db, &tx, collect, &got);
        CHECK(st == WM_OK, "case %ld, %s: status %d", idx, g_cfg[x].name, st);
        compare_matches(idx, &c, g_cfg[x].name, got.a, got.n, want.a, want.n);
        free(got.a);
    }
    free(want.a);
    wm_db_free(db);
    free(pp);
    free_case(&c);
}

int main(int argc, char **argv) {
    double scale = 1.0;
    long only = -2;
    test_settings(argc, argv, 20261127ull, &scale, &only);
    g_describe = describe;
    open_configs();
    run_cases((long)(60 * scale), only, 0x91a4e5, 20, one_case);
    for (size_t x = 0; x < N_OF(g_cfg); x++) wm_context_free(g_cfg[x].cx);
    return test_finish();
}
