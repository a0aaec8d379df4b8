/*
** compile.c -- wm_compile: one pattern and its options compiled into the
** body of a database (wm_pat_t): the per-strand match tables (which text
** bytes each pattern position accepts), the reverse complement, the
** algorithm the CPU will run and, for long patterns, the suffix filter.
*/
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "search/litfilter.h"
#include "search/search.h"

/* IUPAC nucleotide code -> set of bases as bits A=1 C=2 G=4 T=8, either case;
** 0 = not a code. A table: a set within k errors compiles its patterns as it
** scans (src/setk), once per pattern per chunk, so this runs often. */
#define BOTH_CASES(c, v) [c] = v, [(c) + 32] = v
static const uint8_t iupac[256] = {
    BOTH_CASES('A', 1),  BOTH_CASES('C', 2),  BOTH_CASES('G', 4),  BOTH_CASES('T', 8),
    BOTH_CASES('U', 8),  BOTH_CASES('R', 5),  BOTH_CASES('Y', 10), BOTH_CASES('S', 6),
    BOTH_CASES('W', 9),  BOTH_CASES('K', 12), BOTH_CASES('M', 3),  BOTH_CASES('B', 14),
    BOTH_CASES('D', 13), BOTH_CASES('H', 11), BOTH_CASES('V', 7),  BOTH_CASES('N', 15),
};
/* The complement of a code, its case kept (U -> A); 0 = not a code. */
static const uint8_t complement_of[256] = {
    BOTH_CASES('A', 'T'), BOTH_CASES('C', 'G'), BOTH_CASES('G', 'C'), BOTH_CASES('T', 'A'),
    BOTH_CASES('U', 'A'), BOTH_CASES('R', 'Y'), BOTH_CASES('Y', 'R'), BOTH_CASES('K', 'M'),
    BOTH_CASES('M', 'K'), BOTH_CASES('B', 'V'), BOTH_CASES('V', 'B'), BOTH_CASES('D', 'H'),
    BOTH_CASES('H', 'D'), BOTH_CASES('S', 'S'), BOTH_CASES('W', 'W'), BOTH_CASES('N', 'N'),
};
#undef BOTH_CASES

static unsigned iupac_bases(uint8_t c) { return iupac[c]; }
unsigned wm_iupac_bases(uint8_t c) { return iupac[c]; }

uint8_t wm_iupac_complement(uint8_t c) {
    uint8_t r = complement_of[c];
    return r != 0 && c >= 'a' ? (uint8_t)(r + 32) : r; /* codes are letters: lower from 'a' */
}

static int complement(uint8_t c, uint8_t *out) {
    *out = wm_iupac_complement(c);
    return *out == 0 ? -1 : 0;
}

int wm_pat_accepts(const wm_opts_t *o, uint8_t p, uint8_t c) {
    if (o->alphabet == WM_ALPHABET_DNA) {
        unsigned t = iupac[c]; /* a text byte is a base when its code names one */
        return (t == 1 || t == 2 || t == 4 || t == 8) && (iupac[p] & t) != 0;
    }
    return p == c || (o->case_insensitive && tolower(p) == tolower(c));
}

/* The text bytes each base is: A=1 C=2 G=4 T=8 as bit order, either case, U
** reading as T. */
static const char base_bytes[4][5] = { "Aa", "Cc", "Gg", "TtUu" };

/* The match tables of one strand: peq row c has bit i set when pattern byte i
** accepts text byte c. DNA: a row per base (the bases of each position's
** IUPAC code), copied to the bytes that are that base; bytes: each position
** sets its own byte's row, and its other case's when folding. */
static wm_status build_strand(wm_pat_t *p, int s, const uint8_t *pat) {
    wm_strand_t *st = &p->strand[s];
    size_t m = p->m, nw = p->n_words;
    st->bytes = malloc(m);
    st->peq = calloc(256 * nw, sizeof(uint64_t));
    st->rpeq = calloc(256 * nw, sizeof(uint64_t));
    if (!st->bytes || !st->peq || !st->rpeq) return WM_NOMEM;
    memcpy(st->bytes, pat, m);
    int dna = p->opts.alphabet == WM_ALPHABET_DNA, fold = p->opts.case_insensitive;
    for (size_t i = 0; i < m; i++) {
        size_t r = m - 1 - i;
        uint64_t bit = 1ull << (i % 64), rbit = 1ull << (r % 64);
        if (dna) {
            /* rows 0..3 stand for the bases until they are copied below */
            unsigned set = iupac_bases(pat[i]);
            for (unsigned b = 0; b < 4; b++) { /* branch-free: codes are random */
                uint64_t on = (uint64_t)0 - ((set >> b) & 1u);
                st->peq[b * nw + i / 64] |= bit & on;
                st->rpeq[b * nw + r / 64] |= rbit & on;
            }
            continue;
        }
        uint8_t c = pat[i], other = (uint8_t)(islower(c) ? toupper(c) : tolower(c));
        st->peq[c * nw + i / 64] |= bit;
        st->rpeq[c * nw + r / 64] |= rbit;
        if (fold && other != c) {
            st->peq[other * nw + i / 64] |= bit;
            st->rpeq[other * nw + r / 64] |= rbit;
        }
    }
    if (dna) {
        for (unsigned b = 0; b < 4; b++)
            for (const char *c = base_bytes[b]; *c; c++) {
                memcpy(st->peq + (uint8_t)*c * nw, st->peq + b * nw, nw * sizeof(uint64_t));
                memcpy(st->rpeq + (uint8_t)*c * nw, st->rpeq + b * nw, nw * sizeof(uint64_t));
            }
        memset(st->peq, 0, 4 * nw * sizeof(uint64_t)); /* bytes 0..3 are no base */
        memset(st->rpeq, 0, 4 * nw * sizeof(uint64_t));
    }
    if (p->k == 0) wm_litfilter_make(st, nw, 0, m, &st->lit); /* (shiftor.c) */
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

/* A pattern with exact regions: the middle compiled as a pattern of its own
** (the kernels scan it), the whole kept per strand for the regions' checks
** (flanks.c). */
static wm_status pat_with_flanks(const uint8_t *pattern, size_t m, const wm_opts_t *o,
                                 int suffix_filter, wm_pat_t **out) {
    uint32_t a = o->exact_prefix, b = o->exact_suffix;
    wm_opts_t mid = *o;
    mid.exact_prefix = mid.exact_suffix = 0;
    wm_pat_t *p;
    wm_status st = wm_pat_new(pattern + a, m - a - b, &mid, suffix_filter, &p);
    if (st != WM_OK) return st;
    p->opts = *o;
    wm_flanks_t *f = calloc(1, sizeof *f);
    p->flanks = f;
    if (f) {
        f->full_m = m;
        f->pre[0] = a, f->suf[0] = b;
        f->pre[1] = b, f->suf[1] = a; /* the reverse complement's */
        f->full[0] = malloc(m);
        if (f->full[0]) memcpy(f->full[0], pattern, m);
        if (o->revcomp && (f->full[1] = malloc(m)) != NULL)
            for (size_t i = 0; i < m; i++) complement(pattern[m - 1 - i], &f->full[1][i]);
    }
    if (!f || !f->full[0] || (o->revcomp && !f->full[1])) {
        wm_pat_free(p);
        return WM_NOMEM;
    }
    *out = p;
    return WM_OK;
}

wm_status wm_pat_new(const uint8_t *pattern, size_t m, const wm_opts_t *o, int suffix_filter,
                     wm_pat_t **out) {
    if (o->exact_prefix || o->exact_suffix)
        return pat_with_flanks(pattern, m, o, suffix_filter, out);
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
    wm_status st = wm_flanks_check(m, &opts);
    if (st != WM_OK) return st;

    wm_pat_t *p;
    st = wm_pat_new(pattern, m, &opts, opts.algo == WM_ALGO_AUTO, &p);
    if (st != WM_OK) return st;
    /* the longest occurrence: the middle's, and the regions around it */
    uint64_t halo = wm_pat_halo(p) + opts.exact_prefix + opts.exact_suffix;
    *out = wm_db_new(&wm_search_db_ops, p, 1, halo, p->algo, &opts);
    return *out ? WM_OK : WM_NOMEM;
}

wm_status wm_flanks_check(size_t m, const wm_opts_t *o) {
    uint64_t exact = (uint64_t)o->exact_prefix + o->exact_suffix;
    if (exact == 0) return WM_OK;
    if (exact >= m) return WM_INVALID; /* nothing left to take the errors */
    if (o->max_edits >= m - exact) return WM_K_TOO_LARGE;
    return WM_OK;
}

void wm_pat_free(void *body) {
    wm_pat_t *p = body;
    if (!p) return;
    if (p->flanks) {
        free(p->flanks->full[0]);
        free(p->flanks->full[1]);
        free(p->flanks);
    }
    wm_pat_free(p->suffix);
    for (int s = 0; s < 2; s++) {
        free(p->strand[s].bytes);
        free(p->strand[s].peq);
        free(p->strand[s].rpeq);
    }
    free(p);
}
