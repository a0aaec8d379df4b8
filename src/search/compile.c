/*
** compile.c -- wm_compile: one pattern and its options compiled into the
** body of a database (wm_pat_t): the per-strand match tables (which text
** bytes each pattern position accepts), the reverse complement, the
** algorithm the CPU will run and, for long patterns, the suffix filter.
*/
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "search/search.h"

/* IUPAC nucleotide code -> set of bases as bits A=1 C=2 G=4 T=8; 0 = not a code. */
static unsigned iupac_bases(uint8_t c) {
    switch (toupper(c)) {
    case 'A': return 1;
    case 'C': return 2;
    case 'G': return 4;
    case 'T':
    case 'U': return 8;
    case 'R': return 1 | 4;
    case 'Y': return 2 | 8;
    case 'S': return 2 | 4;
    case 'W': return 1 | 8;
    case 'K': return 4 | 8;
    case 'M': return 1 | 2;
    case 'B': return 2 | 4 | 8;
    case 'D': return 1 | 4 | 8;
    case 'H': return 1 | 2 | 8;
    case 'V': return 1 | 2 | 4;
    case 'N': return 15;
    default: return 0;
    }
}

static int complement(uint8_t c, uint8_t *out) {
    static const char from[] = "ACGTURYKMBVDHSWN";
    static const char to[] = "TGCAAYRMKVBHDSWN";
    const char *p = strchr(from, toupper(c));
    if (c == 0 || !p) return -1;
    uint8_t r = (uint8_t)to[p - from];
    *out = islower(c) ? (uint8_t)tolower(r) : r;
    return 0;
}

/* Every text byte that pattern byte p accepts under the options. DNA: the
** bases of its IUPAC code, either case (U reads as T); bytes: itself, and its
** other case when folding. Listed directly, not by testing all 256: a set
** within k errors compiles its patterns as it scans (src/setk), once per
** pattern per chunk. Returns the count. */
static int accepted_bytes(const wm_opts_t *o, uint8_t p, uint8_t out[10]) {
    int n = 0;
    if (o->alphabet == WM_ALPHABET_DNA) {
        static const char base_bytes[4][5] = { "Aa", "Cc", "Gg", "TtUu" };
        unsigned b = iupac_bases(p);
        for (int i = 0; i < 4; i++)
            if (b & (1u << i))
                for (const char *c = base_bytes[i]; *c; c++) out[n++] = (uint8_t)*c;
        return n;
    }
    out[n++] = p;
    if (o->case_insensitive && tolower(p) != toupper(p))
        out[n++] = (uint8_t)(tolower(p) == p ? toupper(p) : tolower(p));
    return n;
}

static wm_status build_strand(wm_pat_t *p, int s, const uint8_t *pat) {
    wm_strand_t *st = &p->strand[s];
    size_t m = p->m, nw = p->n_words;
    st->bytes = malloc(m);
    st->peq = calloc(256 * nw, sizeof(uint64_t));
    st->rpeq = calloc(256 * nw, sizeof(uint64_t));
    if (!st->bytes || !st->peq || !st->rpeq) return WM_NOMEM;
    memcpy(st->bytes, pat, m);
    for (size_t i = 0; i < m; i++) {
        uint8_t acc[10]; /* N: A, a, C, c, G, g, T, t, U, u */
        int n = accepted_bytes(&p->opts, pat[i], acc);
        size_t r = m - 1 - i;
        for (int x = 0; x < n; x++) {
            st->peq[acc[x] * nw + i / 64] |= 1ull << (i % 64);
            st->rpeq[acc[x] * nw + r / 64] |= 1ull << (r % 64);
        }
    }
    return WM_OK;
}

static wm_algo_t choose_algo(const wm_pat_t *p) {
    if (p->k == 0) return WM_ALGO_SHIFTOR;
    if (p->metric == WM_METRIC_HAMMING) return WM_ALGO_BITAP;
    /* Bitap costs k+1 state words per character, Myers a fixed handful per
    ** 64 rows, so bitap wins only for short patterns and small k. */
    if (p->m <= 64 && p->k <= 2) return WM_ALGO_BITAP;
    return WM_ALGO_MYERS;
}

/* The suffix filter of a long pattern: a pattern of the last 64 bytes of
** each strand, with the same options. */
static wm_status build_suffix(const wm_pat_t *p, wm_pat_t **out) {
    wm_pat_t *sx = calloc(1, sizeof *sx);
    if (!sx) return WM_NOMEM;
    sx->m = 64;
    sx->k = p->k;
    sx->metric = p->metric;
    sx->opts = p->opts;
    sx->opts.algo = WM_ALGO_AUTO;
    sx->n_words = 1;
    sx->n_strands = p->n_strands;
    wm_status st = WM_OK;
    for (int s = 0; s < p->n_strands && st == WM_OK; s++)
        st = build_strand(sx, s, p->strand[s].bytes + p->m - 64);
    if (st != WM_OK) {
        wm_pat_free(sx);
        return st;
    }
    sx->algo = choose_algo(sx);
    *out = sx;
    return WM_OK;
}

wm_status wm_pat_new(const uint8_t *pattern, size_t m, const wm_opts_t *o, int suffix_filter,
                     wm_pat_t **out) {
    wm_pat_t *p = calloc(1, sizeof *p);
    if (!p) return WM_NOMEM;
    p->m = m;
    p->k = o->max_edits;
    p->metric = o->metric;
    p->opts = *o;
    p->n_words = (m + 63) / 64;
    p->n_strands = o->revcomp ? 2 : 1;
    wm_status st = build_strand(p, 0, pattern);
    if (st == WM_OK && o->revcomp) {
        uint8_t *rc = malloc(m);
        if (!rc) st = WM_NOMEM;
        for (size_t i = 0; st == WM_OK && i < m; i++)
            if (complement(pattern[m - 1 - i], &rc[i]) != 0) st = WM_INVALID;
        if (st == WM_OK) st = build_strand(p, 1, rc);
        free(rc);
    }
    if (st != WM_OK) {
        wm_pat_free(p);
        return st;
    }
    p->algo = o->algo == WM_ALGO_AUTO ? choose_algo(p) : o->algo;
    /* Long pattern, few errors: the suffix filter beats scanning all m rows
    ** (an explicit --algo runs as asked). */
    if (suffix_filter && o->algo == WM_ALGO_AUTO && m > 64 && p->k > 0 &&
        p->k <= WM_SUFFIX_FILTER_MAX_K && (st = build_suffix(p, &p->suffix)) != WM_OK) {
        wm_pat_free(p);
        return st;
    }
    *out = p;
    return WM_OK;
}

wm_status wm_compile(const uint8_t *pattern, size_t m, const wm_opts_t *o, wm_db_t **out) {
    if (!out) return WM_INVALID;
    *out = NULL;
    wm_opts_t opts = o ? *o : wm_opts_default();
    if (!pattern && m > 0) return WM_INVALID;
    if (m == 0) return WM_PATTERN_EMPTY;
    if (m > WM_MAX_PATTERN) return WM_PATTERN_TOO_LONG;
    if (opts.max_edits >= m) return WM_K_TOO_LARGE;
    if ((unsigned)opts.metric > WM_METRIC_HAMMING || (unsigned)opts.alphabet > WM_ALPHABET_DNA ||
        (unsigned)opts.algo > WM_ALGO_MYERS)
        return WM_INVALID;
    if (opts.algo == WM_ALGO_SHIFTOR && opts.max_edits > 0) return WM_INVALID;
    if (opts.algo == WM_ALGO_MYERS && opts.metric == WM_METRIC_HAMMING) return WM_INVALID;
    if (opts.alphabet == WM_ALPHABET_DNA)
        for (size_t i = 0; i < m; i++)
            if (!iupac_bases(pattern[i])) return WM_INVALID;

    wm_pat_t *p;
    wm_status st = wm_pat_new(pattern, m, &opts, opts.algo == WM_ALGO_AUTO, &p);
    if (st != WM_OK) return st;
    *out = wm_db_new(&wm_search_db_ops, p, 1, wm_pat_halo(p), p->algo, &opts);
    return *out ? WM_OK : WM_NOMEM;
}

void wm_pat_free(void *body) {
    wm_pat_t *p = body;
    if (!p) return;
    wm_pat_free(p->suffix);
    for (int s = 0; s < 2; s++) {
        free(p->strand[s].bytes);
        free(p->strand[s].peq);
        free(p->strand[s].rpeq);
    }
    free(p);
}
